"""Loads, stores, atomics and address conversions, with shared-memory traffic sent to the ledger.

`ld`/`st` of 1 to 16 bytes (`.v2`/`.v4` vectors are one access of the full width), `atom`/`red`
(add, min, max, and, or, xor, exch, cas, inc, dec; lanes hitting one address are applied one after
another in thread order, so returned old values are those of some valid serial order; on shared
memory, those that ptxas makes a compare-and-swap loop execute it trip by trip: casloop.py), `cp.async`
(copied at once), `mbarrier` and `cp.async.bulk` from global to shared memory (copied at once, its
bytes counted on the mbarrier), `cvta`, `mapa` (to any block of the emulated cluster), `isspacep`.
Generic addresses are resolved per lane through the windows of `memory.py`.

Distributed shared memory, as Nsight Compute counts it per instruction (measured on an H200 with
clusters of 2 and 4 blocks, tools/analyze_truth/kernels/dsmem.cu): the lanes of a warp-instruction
that reach the block's own shared memory (through a shared::cta, a generic or a shared::cluster
address) cost what the same lanes would cost as a shared access; the lanes on another block's shared
memory cost no wavefronts at the instruction (the other SM's L1 serves them, and its L1 counters
count them at a rate that depends on timing), and a request only where the warp has a lane of its
own block. Such an instruction is reported with its remote requests (`Site.remote`) and as
distributed shared memory (Nsight Compute's source view lists it under that space).
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze import casloop
from smemlab.analyze import memory as M
from smemlab.analyze.alu import builder, dtype_of
from smemlab.analyze.halves import codec as halves_codec
from smemlab.analyze.ledger import ZERO_SOURCE
from smemlab.analyze.machine import DTYPES, UNSIGNED, WARP, Machine
from smemlab.analyze.ptx import Addr, Imm, Instr, PTXError, Reg, Sym, Vec

SPACES = {"shared": "shared", "shared::cta": "shared", "shared::cluster": "dsmem", "global": "global",
          "local": "local", "const": "const", "param": "param", "param::entry": "param", "param::func": "param"}


class Fault(Exception):
    """A memory fault inside an instruction: the executor adds the source line."""

    def __init__(self, message: str, thread: int):
        super().__init__(message)
        self.thread = thread


def space_of(ins: Instr) -> str:
    for p in ins.parts[1:]:
        if p in SPACES:
            return SPACES[p]
    return "generic"


def _vec(ins: Instr) -> int:
    for p in ins.parts:
        if p in ("v2", "v4", "v8"):
            return int(p[1:])
    return 1


def address_getter(mach: Machine, op, space: str):
    """A function returning the byte address of `op` for every thread, as int64, in `space`'s own
    numbering (offsets for shared/local/const/param, full 64-bit addresses for global/generic)."""
    if not isinstance(op, Addr):
        raise PTXError(f"expected an address, got {op}")
    if op.base_is_reg:
        g = mach.getter(Reg(op.base), np.int64)
        off = np.int64(op.offset)
        base_type = mach.dtype[mach.reg_index(op.base)]
        if op.offset == 0 and base_type.kind != "i":  # an unsigned 32-bit base is already an address as it is
            return g
        if base_type.itemsize == 4:
            # a 32-bit address ([%r+imm] of shared memory): the sum wraps at 2^32, as the hardware's does
            # (a base below the window, "base - 64" held unsigned, plus an offset that brings it back)
            return lambda: (g() + off) & np.int64(0xFFFFFFFF)
        if op.offset == 0:
            return g
        return lambda: g() + off
    sym_space, addr = mach.address_of(op)
    if space == "generic" and sym_space in M.WINDOW_BASE:
        addr += M.WINDOW_BASE[sym_space]
    const = np.full(mach.N, addr, dtype=np.int64)
    return lambda: const


def resolve(mach: Machine, space: str, addr: np.ndarray, em: np.ndarray):
    """[(window name, Space, offsets, lanes)] for an access in `space` (generic ones split by window)."""
    if space == "global":
        return [("global", mach.global_, addr - M.GLOBAL_BASE, em)]
    if space != "generic":
        return [(space, mach.space(space), addr, em)]
    win = addr >> M.WINDOW_SHIFT
    out = []
    seen = np.zeros(addr.shape, dtype=bool)
    for key in np.unique(win[em]):
        name = M.WINDOWS.get(int(key))
        sub = em & (win == key)
        if name is None:
            t = int(np.flatnonzero(sub)[0])
            raise Fault(f"generic address 0x{int(addr[t]) & 0xFFFFFFFFFFFFFFFF:x} is in no memory "
                        f"(a null or uninitialised pointer?)", t)
        base = M.WINDOW_BASE[name] if name != "global" else M.GLOBAL_BASE
        out.append((name, mach.space(name), addr - base, sub))
        seen |= sub
    return out


def _check(space: M.Space, off, em, size, what):
    try:
        space.check(off, em, size, what)
    except M.MemoryFault as exc:
        raise Fault(str(exc), exc.thread) from None


class Access:
    """What every memory instruction needs: the address getter, the ledger hook, the mask count."""

    def __init__(self, ins: Instr, mach: Machine, ledger, pc: int, kind: str, size: int, ex):
        self.ins, self.mach, self.ledger, self.pc, self.kind, self.size, self.ex = ins, mach, ledger, pc, kind, size, ex
        self.space = space_of(ins)
        self._site = False  # not made yet

    def site(self):
        """The ledger site of this instruction's shared-memory traffic, or None (also for an access
        that ptxas merged into another instruction's: see sass.py)."""
        if self._site is not False:
            return self._site
        size = self.size
        if self.space == "shared" and self.pc in self.ledger.plan:
            size = self.ledger.plan[self.pc]
        s = None
        if size:
            s = self.ledger.site(self.pc, self.kind, size, self.ins.loc, self.ins.text, generic=self.space == "generic")
            if self.kind == "atomic" and "cas" in self.ins.parts:
                s.atomic_rule = "cas"
        self._site = s
        return s

    def record(self, groups, chunks=None):
        """One warp-instruction's traffic, `groups` as `resolve` gives them: the lanes on the block's own
        shared memory go to the ledger as one request, the lanes on another block's count as a remote
        request (module docstring). Lanes on global or local memory go to the memory ledger
        (globalledger.py), where the run has one; `chunks`: a 16-byte cp.async's shared destinations,
        which its global sectors depend on (coalescing.copy_sector_costs)."""
        mach = self.mach
        memory = getattr(self.ledger, "memory", None)
        if memory is not None:
            for name, _, o, sub in groups:
                if name in ("global", "local") and sub.any():
                    memory.access(self, name, o, sub, chunks=chunks)
        off, em, remote = None, None, None
        for name, sp, o, sub in groups:
            if name == "dsmem":
                rank, o = sp.split(o)
                mine = sub & (rank == mach.shared.rank)
                remote = sub & ~mine if remote is None else remote | (sub & ~mine)
                sub = mine
            elif name != "shared":
                continue
            off = np.where(sub, o, 0 if off is None else off)
            em = sub if em is None else em | sub
        if off is None:
            return
        s = self.site()
        if s is None:
            return
        if remote is not None and remote.any():
            s.remote += int(remote.reshape(mach.W, 32).any(axis=1).sum())
        self.ledger.record(s, off, em, self.ex.issued_warps)


def _reg_items(op):
    return list(op.items) if isinstance(op, Vec) else [op]


def _shape(ins: Instr, regs_op, what: str):
    """(dtype, vector length, element bytes, access bytes, register operands) of an ld/st."""
    t = ins.parts[-1]
    if t not in DTYPES or t == "pred":
        raise PTXError(f"{ins.opcode}: type .{t} is not supported")
    dt = dtype_of(t)
    n = _vec(ins)
    size = dt.itemsize * n
    if size not in (1, 2, 4, 8, 16):
        raise PTXError(f"{ins.opcode}: a {size}-byte access is not supported")
    regs = _reg_items(regs_op)
    if len(regs) != n:
        raise PTXError(f"{ins.text}: {len(regs)} {what} for a .v{n} access")
    return dt, n, dt.itemsize, size, regs


@builder("ld", "ldu", context=True)
def b_ld(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    dt, n, es, size, dests = _shape(ins, ins.operands[0], "destinations")
    ws = [mach.writer(d, dt) for d in dests]
    acc = Access(ins, mach, ledger, pc, "load", size, ex)
    ga = address_getter(mach, ins.operands[1], acc.space)
    ut = UNSIGNED[es]
    # a load ptxas runs under its readers' guard (deadloads.sunk_loads: ld.shared or ld.global) counts on the
    # lanes that read it, once they do
    dead = mach.dead if mach.dead is not None and pc in mach.dead.sunk else None
    regs = [mach.reg_index(d.name) for d in dests if isinstance(d, Reg)] if dead is not None else []
    below = mach.dead if mach.dead is not None and pc in mach.dead.below else None
    if acc.space == "shared":
        sp = mach.shared
        site = acc.site()

        def ld_shared(m, full):
            a = ga()
            try:
                vals = sp.gather(a, m, es, n)
            except M.MemoryFault as exc:
                raise Fault(str(exc), exc.thread) from None
            for w, v in zip(ws, vals):
                w(v.view(dt), m, full)
            if site is not None and dead is not None:  # ptxas runs it under its readers' guard: counted as read
                dead.load(site, a, m, m, regs, sunk=True)
            elif site is not None and below is not None:  # past its block's branch: on the lanes that go there
                below.hold(pc, m, lambda live, a=a: ledger.record(site, a, live, int(
                    live.reshape(-1, WARP).any(axis=1).sum())))
            elif site is not None:
                ledger.record(site, a, m, ex.issued_warps)
        return ld_shared

    def ld(m, full):
        a = ga()
        groups = resolve(mach, acc.space, a, m)
        try:
            if len(groups) == 1:
                vals = groups[0][1].gather(groups[0][2], groups[0][3], es, n)
            else:
                vals = [np.zeros(mach.N, dtype=ut) for _ in range(n)]
                for name, sp, off, sub in groups:
                    part = sp.gather(off, sub, es, n)
                    vals = [np.where(sub, p, v) for p, v in zip(part, vals)]
        except M.MemoryFault as exc:
            raise Fault(str(exc), exc.thread) from None
        for w, v in zip(ws, vals):
            w(v.view(dt), m, full)
        if dead is not None:  # ptxas runs it under its readers' guard: counted on the lanes that read it
            dead.load(None, None, m, m, regs, sunk=True, emit=lambda live, a=a: acc.record(resolve(mach, acc.space, a, live)))
        elif below is not None:  # ptxas runs it past its block's branch: counted on the lanes that go there
            below.hold(pc, m, lambda live, a=a: acc.record(resolve(mach, acc.space, a, live)))
        else:
            acc.record(groups)
    return ld


@builder("st", context=True)
def b_st(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    dt, n, es, size, items = _shape(ins, ins.operands[1], "sources")
    ut = UNSIGNED[es]
    gs = [mach.getter(x, dt) for x in items]
    acc = Access(ins, mach, ledger, pc, "store", size, ex)
    ga = address_getter(mach, ins.operands[0], acc.space)
    if acc.space in ("const", "param") or (acc.space == "param"):
        raise PTXError(f"{ins.opcode}: stores to .{acc.space} are not supported")
    if acc.space == "shared":
        sp = mach.shared
        site = acc.site()

        def st_shared(m, full):
            a = ga()
            try:
                sp.scatter(a, m, es, [g().view(ut) for g in gs])
            except M.MemoryFault as exc:
                raise Fault(str(exc), exc.thread) from None
            if site is not None:
                ledger.record(site, a, m, ex.issued_warps)
        return st_shared

    def st(m, full):
        a = ga()
        groups = resolve(mach, acc.space, a, m)
        vals = [g().view(ut) for g in gs]
        for name, sp, off, sub in groups:
            if name in ("const", "param"):
                t0 = int(np.flatnonzero(sub)[0])
                raise Fault(f"store to {name} memory through a generic address", t0)
            try:
                sp.scatter(off, sub, es, vals)
            except M.MemoryFault as exc:
                raise Fault(str(exc), exc.thread) from None
        acc.record(groups)
    return st


# ------------------------------------------------------------------------------ atomics

_ATOM_OPS = ("add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec")


def _atomic_apply(sp: M.Space, off, em, dt, op: str, b, c, codec=None):
    """Apply the atomic to `sp` lane by lane in thread order; returns the old values (dt). `codec`: (decode,
    encode) of f16/bf16 elements held as their bits (dt uint16), the arithmetic done on their values."""
    idx_all = sp.absolute(off) >> int(np.log2(dt.itemsize))
    lanes = np.flatnonzero(em)
    idx = idx_all[lanes]
    view = sp.bytes.view(dt)
    if sp is not None and isinstance(sp, M.LocalSpace):
        raise PTXError("atomics on local memory are not supported")
    bv = b[lanes]
    cv = c[lanes] if c is not None else None
    old = np.zeros(em.shape, dtype=dt)
    order = np.argsort(idx, kind="stable")
    sidx = idx[order]
    starts = np.ones(sidx.size, dtype=bool)
    starts[1:] = sidx[1:] != sidx[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(sidx.size), 0))
    rank = np.arange(sidx.size) - first
    sb = bv[order]
    sc = cv[order] if cv is not None else None
    olds = np.empty(sidx.size, dtype=dt)
    if op == "add" and dt.kind in "iu" and codec is None:
        cs = np.cumsum(sb, dtype=dt)
        excl = cs - sb
        excl = excl - excl[first]
        base = view[sidx]
        olds = base + excl
        view[sidx] = olds + sb  # the last lane of each address leaves the total
    else:
        for r in range(int(rank.max()) + 1 if rank.size else 0):
            sel = rank == r
            i = sidx[sel]
            o = view[i]
            bb = sb[sel]
            if codec is not None:  # half precision: on the values, rounded once to the format (as the GPU does)
                dec, enc = codec
                ov, bv_ = dec(o).astype(np.float64), dec(bb).astype(np.float64)
                if op in ("add", "min", "max"):
                    new = enc(ov + bv_ if op == "add" else np.fmin(ov, bv_) if op == "min" else np.fmax(ov, bv_))
                elif op == "exch":
                    new = bb
                elif op == "cas":
                    new = np.where(o == bb, sc[sel], o)
                else:
                    raise PTXError(f"atomic .{op} on half-precision values is not supported")
                view[i] = np.asarray(new).astype(dt)
                olds[sel] = o
                continue
            if op == "add":
                new = o + bb
            elif op == "min":
                new = np.fmin(o, bb) if dt.kind == "f" else np.minimum(o, bb)
            elif op == "max":
                new = np.fmax(o, bb) if dt.kind == "f" else np.maximum(o, bb)
            elif op == "and":
                new = o & bb
            elif op == "or":
                new = o | bb
            elif op == "xor":
                new = o ^ bb
            elif op == "exch":
                new = bb
            elif op == "cas":
                new = np.where(o == bb, sc[sel], o)
            elif op == "inc":
                new = np.where(o >= bb, 0, o + 1).astype(dt)
            elif op == "dec":
                new = np.where((o == 0) | (o > bb), bb, o - 1).astype(dt)
            else:
                raise PTXError(f"atomic .{op} is not supported")
            view[i] = new
            olds[sel] = o
    out = np.empty(sidx.size, dtype=dt)
    out[order] = olds
    old[lanes] = out
    return old


@builder("atom", "red", context=True)
def b_atom(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    op = next((p for p in ins.parts[1:] if p in _ATOM_OPS), None)
    if op is None:
        raise PTXError(f"{ins.opcode} is not supported")
    t = ins.parts[-1]
    vec = next((int(p[1:]) for p in ins.parts if p in ("v2", "v4", "v8")), 1)
    if vec > 1 or t in ("f16", "bf16", "f16x2", "bf16x2"):
        if space_of(ins) == "shared" and ledger is not None and ledger.atomic_rules.get(pc) == "spin":
            raise PTXError(f"{ins.opcode}: a half-precision or vector atomic on shared memory, which ptxas makes a "
                           f"compare-and-swap loop, is not supported (its cost is not measured)")
        return _split_atomic(ins, mach, op, t, vec, Access(ins, mach, ledger, pc, "atomic", 0, ex))
    dt = dtype_of(t)
    if t.startswith("b"):
        dt = np.dtype(UNSIGNED[dt.itemsize])
    is_red = ins.parts[0] == "red"
    ops = ins.operands
    if is_red:
        dst, addr_op, srcs = None, ops[0], ops[1:]
    else:
        dst, addr_op, srcs = ops[0], ops[1], ops[2:]
    gb = mach.getter(srcs[0], dt)
    gc = mach.getter(srcs[1], dt) if op == "cas" else None
    w = mach.writer(dst, dt) if dst is not None else None
    size = dt.itemsize
    acc = Access(ins, mach, ledger, pc, "atomic", size, ex)
    ga = address_getter(mach, addr_op, acc.space)
    if acc.space == "shared" and ledger is not None and ledger.atomic_rules.get(pc) == "spin":
        return _looped_atomic(acc, ga, op, dt, gb, w)

    def fn(m, full):
        a = ga()
        groups = resolve(mach, acc.space, a, m)
        b = gb()
        c = gc() if gc is not None else None
        old = np.zeros(mach.N, dtype=dt)
        for name, sp, off, sub in groups:
            if name not in ("shared", "global", "dsmem"):
                t0 = int(np.flatnonzero(sub)[0])
                raise Fault(f"atomic on {name} memory", t0)
            _check(sp, off, sub, size, "atomic")
            o = _atomic_apply(sp, off, sub, dt, op, b, c)
            old = np.where(sub, o, old)
        acc.record(groups)
        if w is not None:
            w(old, m, full)
    return fn


def _split_atomic(ins: Instr, mach: Machine, op: str, t: str, vec: int, acc: Access):
    """A vector atomic (atom/red .v2/.v4/.v8: what Triton emits for tl.atomic_add over contiguous offsets)
    or a half-precision one (.f16, .bf16 and the packed .f16x2, .bf16x2): one atomic per element, at
    consecutive addresses, each element's old value to its own register (a packed register's low half is
    the lower address). Its traffic is one access of the whole vector."""
    half = t.replace("x2", "") if t in ("f16", "bf16", "f16x2", "bf16x2") else None
    if half is not None and op not in ("add", "min", "max", "exch", "cas"):
        raise PTXError(f"{ins.opcode}: .{op} on half-precision values is not supported")
    if op == "cas" and vec > 1:
        raise PTXError(f"{ins.opcode}: a vector compare-and-swap is not supported")
    reg_dt = np.dtype(np.uint32) if t.endswith("x2") else np.dtype(np.uint16) if half else dtype_of(t)
    if half is None and t.startswith("b"):
        reg_dt = np.dtype(UNSIGNED[reg_dt.itemsize])
    elem_dt = np.dtype(np.uint16) if half else reg_dt
    codec = halves_codec(half) if half else None
    per_reg = 2 if t.endswith("x2") else 1
    is_red = ins.parts[0] == "red"
    ops = ins.operands
    dst, addr_op, srcs = (None, ops[0], ops[1:]) if is_red else (ops[0], ops[1], ops[2:])

    def regs(o):
        items = list(o.items) if isinstance(o, Vec) else [o]
        if len(items) != vec:
            raise PTXError(f"{ins.text}: {len(items)} registers for a .v{vec} atomic")
        return items
    gbs = [mach.getter(r, reg_dt) for r in regs(srcs[0])]
    gcs = [mach.getter(r, reg_dt) for r in regs(srcs[1])] if op == "cas" else None
    ws = [mach.writer(r, reg_dt) for r in regs(dst)] if dst is not None else None
    size = vec * reg_dt.itemsize
    acc.size = size
    ga = address_getter(mach, addr_op, acc.space)
    es = elem_dt.itemsize
    low = (1 << (8 * es)) - 1

    def part(v, j):  # element j of a packed register, as the element type's bits
        return ((v.astype(np.uint64) >> np.uint64(8 * es * j)) & np.uint64(low)).astype(elem_dt)

    def fn(m, full):
        a = ga()
        groups = resolve(mach, acc.space, a, m)
        olds = [np.zeros(mach.N, dtype=reg_dt) for _ in range(vec)]
        for name, sp, off, sub in groups:
            if name not in ("shared", "global", "dsmem"):
                raise Fault(f"atomic on {name} memory", int(np.flatnonzero(sub)[0]))
            _check(sp, off, sub, size, "atomic")
            for k in range(vec):
                b = gbs[k]()
                c = gcs[k]() if gcs is not None else None
                if per_reg == 1:
                    o = _atomic_apply(sp, off + k * es, sub, elem_dt, op, b, c, codec)
                    olds[k] = np.where(sub, o.astype(reg_dt, copy=False), olds[k])
                    continue
                word = np.zeros(mach.N, dtype=np.uint64)  # a packed register: its halves' bits side by side
                for j in range(per_reg):
                    o = _atomic_apply(sp, off + k * reg_dt.itemsize + j * es, sub, elem_dt, op, part(b, j),
                                      part(c, j) if c is not None else None, codec)
                    word |= o.astype(np.uint64) << np.uint64(8 * es * j)
                olds[k] = np.where(sub, word.astype(reg_dt), olds[k])
        acc.record(groups)
        if ws is not None:
            for wr, o in zip(ws, olds):
                wr(o, m, full)
    return fn


def _looped_atomic(acc: Access, ga, op: str, dt, gb, w):
    """A shared atomic that ptxas makes a compare-and-swap loop (casloop.py): each execution of the
    loop's LDS counts as a load of the line and each execution of its CAS as the atomic."""
    mach, ledger, ins, size = acc.mach, acc.ledger, acc.ins, acc.size
    sp = mach.shared
    view = sp.bytes.view(dt)
    load_site = ledger.site(acc.pc, "load", size, ins.loc, ins.text + "  (the compare-and-swap loop's LDS)")
    cas_site = acc.site()
    W = mach.W

    def fn(m, full):
        a = ga()
        _check(sp, a, m, size, "atomic")
        b = gb()
        old = np.zeros(mach.N, dtype=dt)

        def warps(rem):
            return int(rem.reshape(W, 32).any(axis=1).sum())

        def load(rem):
            ledger.record(load_site, a, rem, warps(rem))

        def cas(rem):
            ledger.record(cas_site, a, rem, warps(rem))

        def leave(rem):  # min/max: the lanes whose update changes nothing take the word they read
            cur = view[np.where(rem, sp.absolute(a) // size, 0)]
            out = rem & ((np.minimum(cur, b) if op == "min" else np.maximum(cur, b)) == cur)
            old[out] = cur[out]
            return out

        def apply(lanes):
            won = np.zeros(mach.N, dtype=bool)
            won[lanes] = True
            old[lanes] = _atomic_apply(sp, a, won, dt, op, b, None)[lanes]

        casloop.run(a, m, size, load, leave if op in ("min", "max") else None, cas, apply)
        if w is not None:
            w(old, m, full)
    return fn


@builder("cp.async", context=True)
def b_cp_async(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    if "bulk" in ins.parts or "tensor" in ins.parts:
        raise PTXError(f"{ins.opcode} (bulk copies, TMA) is not supported")
    if len(ins.parts) < 3 or ins.parts[1] in ("commit_group", "wait_group", "wait_all"):
        return lambda m, full: None
    dst, src, size_op = ins.operands[0], ins.operands[1], ins.operands[2]
    if not isinstance(size_op, Imm):
        raise PTXError(f"{ins.text}: the copy size must be an immediate")
    size = int(size_op.value)
    src_size = mach.getter(ins.operands[3], np.uint32) if len(ins.operands) > 3 and not isinstance(
        ins.operands[3], Sym) and not (isinstance(ins.operands[3], Reg) and mach.dtype[mach.reg_index(ins.operands[3].name)] == np.uint64) else None
    gd = address_getter(mach, dst, "shared")
    gs = address_getter(mach, src, "global")
    acc = Access(ins, mach, ledger, pc, "ldgsts", size, ex)
    bypass = size == 16 and "cg" in ins.parts  # LDGSTS.E.BYPASS.128, past L1
    site = acc.site()
    if site is not None:
        site.zfill = src_size is not None
    sp = mach.shared
    gsp = mach.global_

    def fn(m, full):
        d, s = gd(), gs() - M.GLOBAL_BASE
        _check(sp, d, m, size, "cp.async store")
        n = src_size() if src_size is not None else None
        for k in range(0, size, 4 if size >= 4 else size):
            es = min(4, size)
            keep = m if n is None else m & (n > k)
            if keep.any():
                _check(gsp, s + k, keep, es, "cp.async load")
            v = gsp.load(s + k, keep, es)
            v = np.where(keep, v, 0).astype(UNSIGNED[es])
            sp.store(d + k, m, es, v)
        if site is not None:
            # the source's units of the copy's size: its cost depends on their place in the line (ldgsts_costs)
            chunks = s // size
            if n is not None:
                chunks = np.where(n > 0, chunks, ZERO_SOURCE - chunks)  # nothing read: zeros written (ldgsts_costs)
            ledger.record_copy(site, d, m, ex.issued_warps, chunks)
        # its global read (global ldgsts); no shared lanes in this group. A lane whose source size is 0
        # (Triton's masked-off tile: `src_size = p ? 16 : 0`, the SASS's ignore-source predicate) reads no
        # global memory: Nsight Compute counts it no sector, and a warp with no other lane no request
        # (triton.matmul.32x32x32, triton.attention_fwd: their copies past K or the sequence)
        acc.record([("global", gsp, s, m if n is None else m & (n > 0))], chunks=d // 32 if bypass else None)
    return fn


# ------------------------------------------------------------------------------ mbarriers, bulk copies


class MBarrier:
    """One mbarrier of the emulated block (Hopper's transaction barrier): the phases completed so far,
    the arrivals each phase expects, those still to come, and the transaction bytes still to come
    (negative while a copy has completed bytes that no arrival has announced yet). A phase completes
    when both reach zero. The state an arrival returns is the number of the phase it arrived on."""

    __slots__ = ("phase", "expected", "pending", "tx")

    def __init__(self, count: int):
        self.phase, self.expected, self.pending, self.tx = 0, count, count, 0

    def arrive(self, count: int = 1, tx: int = 0, drop: bool = False) -> int:
        token = self.phase
        self.tx += tx
        self.pending -= count
        if drop:
            self.expected -= count
        self._settle()
        return token

    def transact(self, nbytes: int) -> None:
        """`nbytes` more expected (positive) or completed (negative)."""
        self.tx += nbytes
        self._settle()

    def _settle(self) -> None:
        if self.pending <= 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.expected


def _mbarriers(mach: Machine) -> dict[tuple[int, int], MBarrier]:
    """The blocks' mbarriers by (block rank, shared-memory offset), created with the first mbarrier.init."""
    bars = getattr(mach, "mbarriers", None)
    if bars is None:
        bars = mach.mbarriers = {}
    return bars


def _mbarrier_at(mach: Machine, off: int, thread: int, what: str) -> MBarrier:
    bar = _mbarriers(mach).get((int(mach.rank[thread]), off))
    if bar is None:
        raise Fault(f"{what} on shared offset {off}, where no mbarrier was initialised (mbarrier.init)", thread)
    return bar


@builder("mbarrier")
def b_mbarrier(ins: Instr, mach: Machine, **_):
    """init, arrive (with .expect_tx, or _drop), expect_tx, complete_tx, test_wait/try_wait (with
    .parity, or on the state an arrival returned) and inval, on mbarriers in the block's own shared
    memory. Lanes act one after another in thread order; copies complete at once, so a wait only
    waits on arrivals that have not happened yet."""
    op = ins.parts[1]
    if space_of(ins) not in ("shared", "dsmem"):
        raise PTXError(f"{ins.opcode}: only mbarriers in shared memory (.shared::cta) are supported")
    ops = ins.operands
    if op in ("init", "inval", "expect_tx", "complete_tx"):
        addr_op, value_op = ops[0], (ops[1] if len(ops) > 1 else None)
    elif op in ("arrive", "arrive_drop", "test_wait", "try_wait"):
        addr_op, value_op = ops[1], (ops[2] if len(ops) > 2 else None)
    else:
        raise PTXError(f"{ins.opcode} is not supported")
    ga = address_getter(mach, addr_op, "shared")
    gv = mach.getter(value_op, np.uint64) if value_op is not None else None
    sp = mach.shared
    what = f"mbarrier.{op}"

    def lanes(m):
        a = ga()
        _check(sp, a, m, 8, what)
        v = gv() if gv is not None else None
        return a, v, np.flatnonzero(m)

    if op in ("test_wait", "try_wait"):
        w = mach.writer(ops[0], np.bool_)
        parity = "parity" in ins.parts

        def wait(m, full):
            a, v, idx = lanes(m)
            done = np.zeros(mach.N, dtype=bool)
            for t in idx:
                bar = _mbarrier_at(mach, int(a[t]), int(t), what)
                # .parity: the phase of that parity has completed when the current one has the other
                done[t] = (bar.phase & 1) != (int(v[t]) & 1) if parity else bar.phase > int(v[t])
            w(done, m, full)
        return wait

    w = mach.writer(ops[0], np.uint64) if op in ("arrive", "arrive_drop") else None
    expect = "expect_tx" in ins.parts

    def act(m, full):
        a, v, idx = lanes(m)
        state = np.zeros(mach.N, dtype=np.uint64)
        bars = _mbarriers(mach)
        for t in idx:
            off = int(a[t])
            if op == "init":
                bars[(int(mach.rank[t]), off)] = MBarrier(int(v[t]))
            elif op == "inval":
                bars.pop((int(mach.rank[t]), off), None)
            elif op == "expect_tx":
                _mbarrier_at(mach, off, int(t), what).transact(int(v[t]))
            elif op == "complete_tx":
                _mbarrier_at(mach, off, int(t), what).transact(-int(v[t]))
            else:  # arrive: a count, or with .expect_tx the bytes to expect (one arrival)
                bar = _mbarrier_at(mach, off, int(t), what)
                count = 1 if expect or v is None else int(v[t])
                state[t] = bar.arrive(count, int(v[t]) if expect else 0, drop=op == "arrive_drop")
        if w is not None:
            w(state, m, full)
    return act


@builder("cp.async.bulk")
def b_cp_async_bulk(ins: Instr, mach: Machine, **_):
    """cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]:
    `size` bytes (a multiple of 16, both addresses 16-byte aligned) from global to shared memory,
    copied at once, then counted on the mbarrier as completed transaction bytes. The copy engine
    writes shared memory without the LSU, so no shared-memory request is counted (nor does Nsight
    Compute count one). A cluster of one block: shared::cluster is the block's own shared memory."""
    parts = ins.parts
    if "tensor" in parts or len(parts) < 5 or parts[3] not in ("shared::cluster", "shared::cta") \
            or parts[4] != "global" or not any(p.startswith("mbarrier") for p in parts):
        raise PTXError(f"{ins.opcode}: only global-to-shared bulk copies completing on an mbarrier are supported "
                       f"(not tensor copies, stores, or prefetches)")
    dst, src, size_op, mbar = ins.operands[:4]
    gd = address_getter(mach, dst, "shared")
    gs = address_getter(mach, src, "global")
    gn = mach.getter(size_op, np.uint32)
    gb = address_getter(mach, mbar, "shared")
    sp, gsp = mach.shared, mach.global_

    def fn(m, full):
        d, s, n, b = gd(), gs() - M.GLOBAL_BASE, gn(), gb()
        for t in np.flatnonzero(m):
            size = int(n[t])
            if size % 16 or int(d[t]) % 16 or int(s[t]) % 16:
                raise Fault(f"cp.async.bulk of {size} bytes from {gsp.describe(int(s[t]))} to shared offset "
                            f"{int(d[t])}: the size and both addresses must be multiples of 16", int(t))
            words = np.arange(0, size, 4, dtype=np.int64)
            every = np.ones(words.size, dtype=bool)
            mine = sp.block(int(sp.rank[t]))
            try:
                gsp.check(int(s[t]) + words, every, 4, "cp.async.bulk load")
                mine.check(int(d[t]) + words, every, 4, "cp.async.bulk store")
            except M.MemoryFault as exc:
                raise Fault(str(exc), int(t)) from None
            mine.store(int(d[t]) + words, every, 4, gsp.load(int(s[t]) + words, every, 4))
            _mbarrier_at(mach, int(b[t]), int(t), "cp.async.bulk's mbarrier").transact(-size)
    return fn


# ------------------------------------------------------------------------------ address conversions


@builder("cvta")
def b_cvta(ins: Instr, mach: Machine, **_):
    to = "to" in ins.parts
    space = next((SPACES[p] for p in ins.parts[1:] if p in SPACES), None)
    if space is None:
        raise PTXError(f"{ins.opcode} is not supported")
    base = np.int64(0 if space == "global" else M.WINDOW_BASE[space])
    dt = dtype_of(ins.parts[-1])
    src = ins.operands[1]
    g = mach.getter(src, np.int64)
    w = mach.writer(ins.operands[0], dt)
    if to:
        return lambda m, full: w((g() - base).astype(dt), m, full)
    return lambda m, full: w((g() + base).astype(dt), m, full)


@builder("mapa", context=True)
def b_mapa(ins: Instr, mach: Machine, ex=None, **_):
    dt = dtype_of(ins.parts[-1])
    ga = mach.getter(ins.operands[1], np.int64)
    gr = mach.getter(ins.operands[2], np.uint32)
    w = mach.writer(ins.operands[0], dt)
    generic = "shared::cluster" not in ins.parts
    shift = np.int64(M.CLUSTER_RANK_SHIFT)

    def fn(m, full):
        r = gr().astype(np.int64)
        bad = m & (r >= mach.blocks)
        if bad.any():
            t0 = int(np.flatnonzero(bad)[0])
            raise Fault(f"mapa to block rank {int(r[t0])}, in a cluster of {mach.blocks} block"
                        f"{'s' if mach.blocks > 1 else ''} (--cluster gives the cluster's shape)", t0)
        a = ga()
        if generic:  # a generic address of the block's own shared memory, or of another's (mapa of mapa)
            a = np.where((a >> M.WINDOW_SHIFT) == (M.DSMEM_BASE >> M.WINDOW_SHIFT), a - np.int64(M.DSMEM_BASE),
                         a - np.int64(M.SHARED_BASE))
        out = ((r + 1) << shift) | (a & np.int64(M.ClusterWindow.MASK))
        if generic:
            out = out + np.int64(M.DSMEM_BASE)
        w(out.astype(dt), m, full)
    return fn


@builder("getctarank")
def b_getctarank(ins: Instr, mach: Machine, **_):
    """The rank of the block whose shared memory a shared::cluster (or generic) address is in."""
    w = mach.writer(ins.operands[0], np.uint32)
    ga = mach.getter(ins.operands[1], np.int64)
    generic = "shared::cluster" not in ins.parts

    def fn(m, full):
        a = ga()
        if generic:
            own = (a >> M.WINDOW_SHIFT) != (M.DSMEM_BASE >> M.WINDOW_SHIFT)
            a = np.where(own, 0, a - np.int64(M.DSMEM_BASE))
        rank, _ = mach.cluster_window.split(a)
        w(rank.astype(np.uint32), m, full)
    return fn


@builder("isspacep")
def b_isspacep(ins: Instr, mach: Machine, **_):
    space = SPACES.get(ins.parts[1], ins.parts[1])
    g = mach.getter(ins.operands[1], np.int64)
    w = mach.writer(ins.operands[0], np.bool_)
    wins = {"shared": ("shared", "dsmem"), "dsmem": ("shared", "dsmem")}.get(space, (space,))
    keys = [k for k, v in M.WINDOWS.items() if v in wins]

    def fn(m, full):
        w(np.isin(g() >> M.WINDOW_SHIFT, keys), m, full)
    return fn


def noop(ins, mach, **_):
    """An instruction that changes nothing the emulator models.

    Ordering, hints, and groups of copies that are complete when issued: fences, prefetches, commit/wait groups."""
    return lambda m, full: None


for _name in ("prefetch", "prefetchu", "membar", "fence", "discard", "applypriority", "nanosleep", "pmevent",
              "setmaxnreg", "griddepcontrol", "brkpt", "bar.warp", "cp.async.commit_group", "cp.async.wait_group",
              "cp.async.wait_all"):
    builder(_name)(noop)


@builder("cp.async.mbarrier")
def b_cp_async_mbarrier(ins: Instr, mach: Machine, **_):
    """cp.async.mbarrier.arrive(.noinc) [mbar]: an arrival when the thread's earlier cp.async copies
    complete, which here is at once. Without .noinc the pending count is raised by one first, so the
    two cancel (the PTX ISA); with .noinc it is one of the arrivals the phase expects."""
    if "noinc" not in ins.parts:
        return lambda m, full: None
    ga = address_getter(mach, ins.operands[0], "shared")
    sp = mach.shared

    def fn(m, full):
        a = ga()
        _check(sp, a, m, 8, "cp.async.mbarrier.arrive")
        for t in np.flatnonzero(m):
            _mbarrier_at(mach, int(a[t]), int(t), "cp.async.mbarrier.arrive").arrive()
    return fn


@builder("createpolicy")
def b_createpolicy(ins: Instr, mach: Machine, **_):
    w = mach.writer(ins.operands[0], np.uint64)
    zero = np.zeros(mach.N, dtype=np.uint64)
    return lambda m, full: w(zero, m, full)


# ------------------------------------------------------------------------------ ldmatrix, stmatrix


@builder("ldmatrix", "stmatrix", context=True)
def b_matrix(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    """ldmatrix/stmatrix .m8n8.x{1,2,4}{.trans}.shared.b16: lanes 8i..8i+7 give the 16-byte rows of
    matrix i; lane t holds row t/4, 32-bit column t%4 of each matrix (.trans: the two 16-bit halves
    from rows 2(t%4) and 2(t%4)+1, column t/4). The shared-memory traffic is one 16-byte access by the
    lanes that give row addresses (Nsight Compute: LDSM/STSM, counted with the loads and stores)."""
    if "m8n8" not in ins.parts or space_of(ins) != "shared":
        raise PTXError(f"{ins.opcode}: only the .m8n8 shapes on .shared are supported")
    n = next((int(p[1:]) for p in ins.parts if p in ("x1", "x2", "x4")), 1)
    trans = "trans" in ins.parts
    load = ins.parts[0] == "ldmatrix"
    regs = _reg_items(ins.operands[0] if load else ins.operands[1])
    addr_op = ins.operands[1] if load else ins.operands[0]
    if len(regs) != n:
        raise PTXError(f"{ins.text}: {len(regs)} registers for .x{n}")
    ga = address_getter(mach, addr_op, "shared")
    acc = Access(ins, mach, ledger, pc, "load" if load else "store", 16, ex)
    site = acc.site()
    sp = mach.shared
    lane = mach.lane.astype(np.int64)
    base = (mach.thread_ids // 32) * 32
    gives = lane < 8 * n  # the lanes whose addresses are used
    ws = [mach.writer(r, np.uint32) for r in regs] if load else None
    dests = [mach.reg_index(r.name) for r in regs] if load else None
    gs = None if load else [mach.getter(r, np.uint32) for r in regs]
    u16, u32 = sp.views[2], sp.views[4]

    def fn(m, full):
        a = ga()
        em = m & gives
        _check(sp, a, em, 16, "ldmatrix row" if load else "stmatrix row")
        for i in range(n):
            if trans:
                col = (lane // 4) * 2
                r0 = sp.absolute(a[base + 8 * i + 2 * (lane % 4)] + col)
                r1 = sp.absolute(a[base + 8 * i + 2 * (lane % 4) + 1] + col)
                if load:
                    lo = u16[np.where(m, r0, 0) >> 1].astype(np.uint32)
                    hi = u16[np.where(m, r1, 0) >> 1].astype(np.uint32)
                    ws[i](lo | (hi << np.uint32(16)), m, full)
                else:
                    v = gs[i]()
                    u16[r0[m] >> 1] = (v[m] & 0xFFFF).astype(np.uint16)
                    u16[r1[m] >> 1] = (v[m] >> 16).astype(np.uint16)
            else:
                word = sp.absolute(a[base + 8 * i + lane // 4] + (lane % 4) * 4)
                if load:
                    ws[i](u32[np.where(m, word, 0) >> 2], m, full)
                else:
                    u32[word[m] >> 2] = gs[i]()[m]
        if site is not None and load and mach.dead is not None:  # counted once a lane reads the fragments
            mach.dead.load(site, a, em, m, dests)
        elif site is not None:
            ledger.record(site, a, em, ex.issued_warps)
    return fn
