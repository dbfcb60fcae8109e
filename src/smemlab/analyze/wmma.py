"""The warp matrix functions of `mma.h` (`wmma.load`, `wmma.store`, `wmma.mma`), so that kernels on them run,
and the memory instructions ptxas lowers a fragment's load or store to, costed as Nsight Compute counts them.

Which element of a tile each lane's fragment slot holds is not in the PTX ISA: it was read off an H200
(tools/probes/wmma_layout.cu loads tiles of element indices and writes every lane's slots out;
data/wmma_layouts.json holds what it printed). A fragment kind that was not measured is refused with
the list of those that were. The f16 a and b fragments of m16n16k16 hold each element twice (16 slots
for 8 elements a lane), as the hardware showed.

How ptxas (CUDA 13, sm_90) lowers them, read off the SASS of tests/data/analyze/files/wmma_shared.cu and
checked against Nsight Compute per instruction (tools/analyze_truth, files.wmma_*, 28 launches):
- an a or b fragment of 16-bit elements loaded from a `.shared` address: `LDSM.16.M88` (or `.MT88` where
  the register's two elements lie in two rows of memory), four of the fragment's distinct registers an
  instruction (`.4`), a remainder of two as `.2`; lane 8i+j gives the 16-byte row j of matrix i, which is
  what the ldmatrix rule costs (the rows a register's elements fall in, over the warp);
- every other load or store (a generic address, as the bf16 and tf32 fragments of mma.h use, global
  memory, and every accumulator): one access a distinct register, its elements read together where they
  are adjacent in memory and one at a time where not, adjacent registers merged up to 8 bytes where they
  continue each other at an aligned address (an f32 accumulator row-major: `LDS.64`/`STS.64`/`STG.E.64`
  a pair of columns; column-major: one 4-byte access a slot).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from smemlab.analyze.alu import builder
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.mma import ELEMENTS_PER_REG, pack, unpack, whole_warps
from smemlab.analyze.ptx import Instr, PTXError, Vec



@lru_cache(maxsize=1)
def layouts() -> dict:
    """(shape 'm16n16k16', use 'a'|'b'|'c', type, 'row'|'col') -> (rows, cols) arrays of shape (32, slots)."""
    doc = json.loads((Path(__file__).parent / "data" / "wmma_layouts.json").read_text())
    out = {}
    for f in doc["fragments"]:
        m, n, k = f["shape"]
        rc = np.array(f["slots"], dtype=np.int64)
        layout = f["layout"].removeprefix("mem_").removesuffix("_major")
        out[(f"m{m}n{n}k{k}", f["use"], f["type"], layout)] = (rc[..., 0], rc[..., 1])
    for (shape, use, typ, layout), rc in list(out.items()):  # an accumulator measured in one memory layout only:
        other = "col" if layout == "row" else "row"           # its slots do not depend on memory (f32, measured)
        if use == "c":
            out.setdefault((shape, use, typ, other), rc)
    return out


def _fragment(shape: str, use: str, typ: str, layout: str):
    got = layouts().get((shape, use, typ, layout))
    if got is None:
        known = ", ".join(f"{u}.{lay}.{s}.{t}" for s, u, t, lay in sorted(layouts()))
        raise PTXError(f"wmma: the {use} fragment of {shape} .{typ} ({layout}) has not been measured; measured: {known}")
    return got


def _shape(parts) -> str:
    shape = next((p for p in parts if p.startswith("m") and "n" in p and "k" in p), None)
    if shape is None:
        raise PTXError(f"wmma.{'.'.join(parts[1:])}: no shape")
    return shape


def _tile(shape: str, use: str) -> tuple[int, int]:
    m, rest = shape[1:].split("n")
    n, k = (int(x) for x in rest.split("k"))
    m = int(m)
    return {"a": (m, k), "b": (k, n), "c": (m, n), "d": (m, n)}[use]


def _addresses(mach, ins, addr_op, stride_op, rows, cols, layout, es):
    """Every thread's byte address of each of its slots, and the getter of the base."""
    from smemlab.analyze.memops import address_getter

    from smemlab.analyze.memops import space_of

    space = space_of(ins)
    ga = address_getter(mach, addr_op, space)
    if stride_op is None:
        raise PTXError(f"{ins.text}: the stride operand is needed")
    gs = mach.getter(stride_op, np.int64)
    lane = mach.lane.astype(np.int64)
    r, c = rows[lane], cols[lane]  # (threads, slots)

    def at():
        base, stride = ga(), gs()
        elem = r * stride[:, None] + c if layout == "row" else c * stride[:, None] + r
        return base[:, None] + elem * es
    return space, at


def _memory_io(mach, space: str, addr: np.ndarray, m: np.ndarray, es: int, values=None):
    """Load (values None) or store the elements at `addr` (threads, slots) for the threads in `m`."""
    from smemlab.analyze.memops import _check, resolve

    out = np.zeros(addr.shape, dtype=np.uint64)
    for k in range(addr.shape[1]):
        for _name, sp, off, em in resolve(mach, space, addr[:, k], m):
            _check(sp, off, em, es, "wmma fragment element")
            if values is None:
                out[em, k] = sp.load(off, em, es)[em]
            else:
                sp.store(off, em, es, values[:, k])
    return out


@builder("wmma", context=True)
def b_wmma(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None, **_):
    parts = ins.parts
    if "sync" not in parts:
        raise PTXError(f"{ins.opcode}: only the .sync forms are supported")
    op = parts[1]
    if op == "load":
        return _load(ins, mach, ledger, pc, ex)
    if op == "store":
        return _store(ins, mach, ledger, pc, ex)
    if op == "mma":
        return _mma(ins, mach)
    raise PTXError(f"{ins.opcode}: not supported")


def _regs(op) -> list:
    return list(op.items) if isinstance(op, Vec) else [op]


def _load(ins: Instr, mach: Machine, ledger, pc: int, ex):
    parts = ins.parts
    use = parts[2]
    shape = _shape(parts)
    layout = "row" if "row" in parts else "col"
    typ = parts[-1]
    rows, cols = _fragment(shape, use, typ, layout)
    es = 4 // ELEMENTS_PER_REG[typ]  # a fragment register is 32 bits
    regs = _regs(ins.operands[0])
    slots = rows.shape[1]
    if len(regs) * ELEMENTS_PER_REG[typ] != slots:
        raise PTXError(f"{ins.text}: {len(regs)} registers for {slots} .{typ} slots")
    space, at = _addresses(mach, ins, ins.operands[1], ins.operands[2] if len(ins.operands) > 2 else None,
                           rows, cols, layout, es)
    writers = [mach.writer(r, np.uint32) for r in regs]
    W = mach.W
    cost = _Costs(ins, mach, ledger, pc, ex, "load", space, rows, cols, layout, es,
                  ldsm=space == "shared" and use in ("a", "b") and es == 2)

    def fn(m, full):
        whole_warps(m, W, ins.opcode)
        addr = at()
        cost.record(addr, m)
        raw = _memory_io(mach, space, addr, m, es)
        # a register holds its slots' bits as memory does: two 16-bit elements (the first low), or one 32-bit
        bits = np.ascontiguousarray(raw.astype(np.uint16)).view(np.uint32) if es == 2 else raw.astype(np.uint32)
        for j, wr in enumerate(writers):
            wr(bits[:, j], m, full)
    return fn


def _store(ins: Instr, mach: Machine, ledger, pc: int, ex):
    parts = ins.parts
    shape = _shape(parts)
    layout = "row" if "row" in parts else "col"
    typ = parts[-1]
    if typ not in ("f32", "f16"):
        raise PTXError(f"{ins.opcode}: only f32 and f16 accumulators are stored by wmma.store")
    rows, cols = _fragment(shape, "c", typ, layout)
    regs = _regs(ins.operands[1])
    es = 4 // ELEMENTS_PER_REG[typ]
    if len(regs) * ELEMENTS_PER_REG[typ] != rows.shape[1]:
        raise PTXError(f"{ins.text}: {len(regs)} registers for {rows.shape[1]} .{typ} slots")
    space, at = _addresses(mach, ins, ins.operands[0], ins.operands[2] if len(ins.operands) > 2 else None,
                           rows, cols, layout, es)
    getters = [mach.getter(r, np.uint32) for r in regs]
    W = mach.W
    cost = _Costs(ins, mach, ledger, pc, ex, "store", space, rows, cols, layout, es, ldsm=False)

    def fn(m, full):
        whole_warps(m, W, ins.opcode)
        words = np.stack([g() for g in getters], axis=1)
        # a slot's bits as memory holds them: two 16-bit elements a register (the first low), or one 32-bit
        values = np.ascontiguousarray(words).view(np.uint16).astype(np.uint32) if es == 2 else words
        addr = at()
        cost.record(addr, m)
        _memory_io(mach, space, addr, m, es, values)
    return fn


class _Costs:
    """The SASS accesses of one wmma.load or wmma.store (module docstring), sent to the ledgers as the
    memory instructions they are: each an Access and what gives each lane its address."""

    def __init__(self, ins, mach, ledger, pc, ex, kind, space, rows, cols, layout, es, ldsm):
        from smemlab.analyze.memops import Access

        self.mach, self.space = mach, space
        self.accesses = []
        if ledger is None:
            return
        regs = _distinct(rows, cols, max(1, 4 // es))
        if ldsm:
            pieces = [(16, _Blocks(regs[i:i + n], 16)) for i, n in _ldsm_groups(len(regs))]
        else:
            pieces = _pieces(regs, rows, cols, layout, es)
        self.accesses = [(Access(ins, mach, ledger, pc, kind, size, ex), how) for size, how in pieces]

    def record(self, addr: np.ndarray, m: np.ndarray) -> None:
        from smemlab.analyze.memops import resolve

        lane = self.mach.lane.astype(np.int64)
        for acc, how in self.accesses:
            # a piece is either read as blocks, or at every lane's own address of one slot
            a, em = how.addresses(addr, lane, m) if isinstance(how, _Blocks) else (addr[:, how], m)
            acc.record(resolve(self.mach, self.space, a, em))


def _distinct(rows, cols, epr: int) -> list[np.ndarray]:
    """The slot indices (epr of them) of each distinct register of a fragment: its f16 a and b fragments
    repeat registers (the same elements in two registers), which are loaded once."""
    out, seen = [], []
    for j in range(rows.shape[1] // epr):
        key = np.stack([rows[:, j * epr:(j + 1) * epr], cols[:, j * epr:(j + 1) * epr]])
        if any(np.array_equal(key, k) for k in seen):
            continue
        seen.append(key)
        out.append(np.arange(j * epr, (j + 1) * epr))
    return out


class _Blocks:
    """Accesses that read a register's elements over the warp in pieces of `size` bytes, whichever lane
    holds which element afterwards: an LDSM's matrices (16-byte rows; lane 8i+j gives row j of matrix i),
    or a 16-bit register whose two elements are apart in memory, which ptxas reads as the 4-byte words of
    its 8x8 block and transposes in registers (MOVM). Lanes take the pieces in address order."""

    def __init__(self, regs: list[np.ndarray], size: int):
        self.regs, self.size = regs, size

    def addresses(self, addr: np.ndarray, lane: np.ndarray, m: np.ndarray):
        W = addr.shape[0] // WARP
        live = m.reshape(W, WARP).any(axis=1)  # a warp that does not execute it has no addresses to read
        per_warp = addr.reshape(W, WARP, -1)[live]
        per = 8 if self.size == 16 else WARP  # the pieces a register is read in: 8 rows, or 32 words
        out = np.zeros((W, WARP), dtype=np.int64)
        for i, slots in enumerate(self.regs):
            v = np.sort((per_warp[:, :, slots] // self.size).reshape(len(per_warp), -1), axis=1)
            new = np.ones(v.shape, dtype=bool)
            new[:, 1:] = v[:, 1:] != v[:, :-1]
            counts = new.sum(axis=1)
            if (counts != per).any():
                raise PTXError(f"wmma fragment register over {int(counts[counts != per][0])} pieces of {self.size} "
                               f"bytes, where ptxas's access reads {per}")
            out[live, per * i:per * (i + 1)] = v[new].reshape(-1, per) * self.size
        return out.reshape(-1), m & (lane < per * len(self.regs))


def _ldsm_groups(n: int) -> list[tuple[int, int]]:
    """(first register, how many) of each LDSM: four registers an .x4, a remainder of two an .x2, one an .x1."""
    out, i = [], 0
    while i < n:
        k = 4 if n - i >= 4 else (2 if n - i >= 2 else 1)
        out.append((i, k))
        i += k
    return out


def _pieces(regs, rows, cols, layout: str, es: int) -> list:
    """(bytes, the slot at whose address each lane's access starts, or a _Blocks) of each access of a non-LDSM
    lowering: a register of two 16-bit elements adjacent in memory is one 4-byte access at its own address, one
    whose elements lie apart is the 4-byte words of its block (_Blocks); 4-byte registers one access each,
    adjacent ones merged into an aligned 8-byte access. Adjacency is in the tile's own terms (the next column of a row-major tile, the next
    row of a column-major one), which holds for every stride wmma allows (a multiple of 16 bytes)."""
    major, minor = (rows, cols) if layout == "row" else (cols, rows)
    if es == 2:
        return [(4, int(r[0])) if _next(major, minor, int(r[0]), int(r[1])) else (4, _Blocks([r], 4)) for r in regs]
    runs: list[list[int]] = []
    for r in regs:
        k = int(r[0])
        if runs and len(runs[-1]) == 1 and _next(major, minor, runs[-1][0], k) \
                and np.all(minor[:, runs[-1][0]] * es % (2 * es) == 0):
            runs[-1].append(k)
        else:
            runs.append([k])
    return [(len(run) * es, run[0]) for run in runs]


def _next(major, minor, a: int, b: int) -> bool:
    """Slot b holds the element right after slot a's in memory, in every lane."""
    return bool(np.all(major[:, b] == major[:, a]) and np.all(minor[:, b] == minor[:, a] + 1))


def _mma(ins: Instr, mach: Machine):
    parts = ins.parts
    shape = _shape(parts)
    lay = [p for p in parts if p in ("row", "col")]
    types = [p for p in parts[parts.index(shape) + 1:] if p in ("f32", "f16", "bf16", "tf32")]
    if len(lay) != 2 or not types:
        raise PTXError(f"{ins.opcode}: expected wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.SHAPE.types")
    td, tc = types[0], types[-1]
    ta = tb = "f16" if len(types) == 2 else types[1]  # .dtype.ctype for f16 inputs, .f32.atype.btype.f32 else
    if td not in ("f32", "f16") or tc not in ("f32", "f16"):
        raise PTXError(f"{ins.opcode}: only f32 and f16 accumulators are supported")
    ar, ac = _fragment(shape, "a", ta, lay[0])
    br, bc = _fragment(shape, "b", tb, lay[1])
    cr, cc = _fragment(shape, "c", tc, "row")
    dr, dc = _fragment(shape, "c", td, "row")
    M, K = _tile(shape, "a")
    N = _tile(shape, "b")[1]
    regs = [_regs(o) for o in ins.operands]
    if len(regs) != 4:
        raise PTXError(f"{ins.text}: expected {{d}}, {{a}}, {{b}}, {{c}}")
    writers = [mach.writer(r, np.uint32) for r in regs[0]]
    ga, gb, gc = ([mach.getter(r, np.uint32) for r in rs] for rs in regs[1:])
    W = mach.W

    def fn(m, full):
        idx = np.flatnonzero(whole_warps(m, W, ins.opcode))
        a = unpack([g() for g in ga], ta).reshape(W, WARP, -1)[idx]
        b = unpack([g() for g in gb], tb).reshape(W, WARP, -1)[idx]
        c = unpack([g() for g in gc], tc).reshape(W, WARP, -1)[idx]
        n = len(idx)
        A, B, C = np.zeros((n, M, K)), np.zeros((n, K, N)), np.zeros((n, M, N))
        A[:, ar, ac] = a  # duplicated slots write the same element twice
        B[:, br, bc] = b
        C[:, cr, cc] = c
        D = A @ B + C
        d = np.zeros((W, WARP, dr.shape[1]))
        d[idx] = D[:, dr, dc]
        for wr, bits in zip(writers, pack(d.reshape(W * WARP, -1), td)):
            wr(bits, m, full)
    return fn
