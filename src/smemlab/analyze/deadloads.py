"""Loads that ptxas removes or moves under a guard, so that Nsight Compute sees fewer of their lanes.

A tensor-core pipeline loads the next step's fragments while it multiplies this step's; its last trip
loads fragments no one reads, and ptxas, having peeled that trip off the loop, drops those LDSM. Each
execution of an ldmatrix is held back here until its lanes' destination registers are read (it
counts) or all overwritten, or the kernel ends, unread (it does not): per warp, a warp whose lanes
read none of them issued nothing. Only ldmatrix is followed (ptxas removes what is dead after its
own loop transformations; plain loads are matched to the SASS line by line instead, sass.py), and:

Sunk loads (`sunk_loads`). A plain `ld.shared` or `ld.global` whose value only instructions of its own basic block under
one guard read, with no barrier, fence, shared write or call between, is executed by ptxas under the guard:
Triton ends a reduction with `ld.shared %r17, [%r142]; setp.eq %p1, ...; @%p1 st.global [..], %r17`,
which becomes `@P0 EXIT; LDS R3, [R10]; STG [R8], R3` (triton.argmax_rows: the PTX's 4 warps load, the
SASS's one warp of 16 lanes, 1 wavefront; triton.histogram_block: 2 warps, 2 wavefronts, not 4); a global
load read only by the guarded store that ends the kernel likewise (robust.triton.static_checks: a 64-element
tile in 4 warps, loaded by the 2 that store it). Only where one guard covers the readers and the kernel ends
after them (`_ends_the_kernel`). Such a load is held back like an ldmatrix and counts on the lanes whose
guard was on when they read it (a warp none of whose lanes read it issued nothing).

Loads sunk below a branch (`loads_below_branch`). An unguarded, non-volatile `ld.global` whose value is read only past
its block's conditional branch, on one side of it (directly, or through arithmetic of its own block that nothing
else reads, such as the `cvta.to.global` of a pointer loaded from a table), with no store, atomic, barrier, fence or
call after it in the block, is moved by ptxas below the branch, onto that side: it executes on the lanes that go
there. A jagged array's row pointer loaded before its row loop (`r = rows[warp]; for (i = lane; i < len[warp]; ...)
s += r[i]`): a warp whose row is empty never loads it (ptrs.jagged_row_sums: 7 of 8 warps); Triton's grouped GEMM
loads a group's K in the loop header that tests whether this program has a tile in the group, read only by the tile
loop's body (ptrs.triton.grouped_mm: one program in three groups loads it once). A shared load likewise, after its
barrier: THCUNN's softmax reads the block's sum `buffer[SOFTMAX_THREADS]` before the loop over its dim elements that
alone divides by it, and ptxas loads it inside the loop's guard (fresh14.cunn_SoftMax_updateOutput_kernel over 21
classes: the one warp with an element loads it, not the 4 of the block).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from smemlab.analyze.machine import WARP
from smemlab.analyze.ptx import Addr, Instr, Reg, Vec
from smemlab.analyze.sass import registers_read_by

# instructions a shared load is not moved across: they order shared memory, or may write it
_FENCES = ("bar", "barrier", "membar", "fence", "atom", "red", "call", "cp", "mbarrier", "stmatrix", "wmma", "tcgen05")


def sunk_loads(instrs: list[Instr], block_of: list[int]) -> dict[int, list[str]]:
    """pc -> destination registers of each unguarded, non-volatile `ld.shared` that ptxas executes only
    under the guard of the instructions that read its value (module docstring): all its readers are
    guarded and in its basic block, and nothing between it and the last of them orders or writes
    shared memory."""
    out: dict[int, list[str]] = {}
    readers_of: dict[str, list[int]] | None = None
    for pc, ins in enumerate(instrs):
        p = ins.parts
        if p[0] != "ld" or not ("shared" in p or "global" in p) or "volatile" in p or ins.guard is not None \
                or not ins.operands:
            continue
        dst = ins.operands[0]
        regs = [x.name for x in (dst.items if isinstance(dst, Vec) else (dst,)) if isinstance(x, Reg)]
        if not regs:
            continue
        if readers_of is None:  # register -> the instructions reading it, once a kernel has a shared load
            readers_of, _ = _register_uses(instrs, guards=False)
        readers = sorted({j for r in regs for j in readers_of.get(r, ()) if j != pc})
        if not readers or any(j < pc for j in readers):
            continue
        # guarded readers of its own block, or readers in one later block, which a branch may skip: CUB's striped
        # store of a tile's last item, `if (tid + 7 * BLOCK < valid) out[..] = buff[..]`, whose guard ptxas makes
        # the early exit of the lanes it leaves off, the LDS below it (fresh6.radix_sort_tile_keys: 2 warps of
        # a ragged tile load nothing, 30 wavefronts measured where all 8 items' loads give 32)
        blocks = {block_of[j] for j in readers}
        if blocks == {block_of[pc]}:
            if any(instrs[j].guard is None for j in readers):
                continue
        elif len(blocks) != 1:
            continue
        # readers under different guards (a vector's halves stored under two masks) would need their union:
        # ptxas leaves such a load unguarded (robust.triton.layernorm_fwd's store through shared memory: all 8
        # warp-executions measured, 2 of them with no lane stored)
        if len({str(instrs[j].guard) for j in readers}) > 1:
            continue
        between = instrs[pc + 1:max(readers)]
        if any(x.parts[0] in _FENCES or (x.parts[0] == "st" and "global" not in x.parts and "local" not in x.parts)
               for x in between):
            continue
        # stores under another guard among them: no early exit covers both, and ptxas predicates a load with its
        # reader's guard only where one instruction reads it (fresh5.triton.rmsnorm_bwd's v4 loads, each read by
        # one v4 store: sunk; fresh7.triton.cross_cov_tf32x3's v2 loads, each read by two scalar stores: every
        # LDS executed by every warp)
        guard = str(instrs[readers[0]].guard)
        if len(readers) > 1 and any(x.parts[0] == "st" and str(x.guard) != guard for x in between):
            continue
        if not (_ends_the_kernel(instrs, max(readers)) or _fenced_atomic(instrs, readers)):
            continue
        out[pc] = regs
    return out


def _fenced_atomic(instrs: list[Instr], readers: list[int]) -> bool:
    """Whether the load's one reader is a guarded atomic with a memory order (acq_rel, release, acquire, sc): ptxas
    cannot predicate the fence it puts before it (MEMBAR.ALL.GPU), so it branches around fence and atomic on the
    guard, and the load, read by nothing else, goes into the branch. Triton 3.6's `tl.atomic_add(ptr, tl.sum(x, 0))`
    loads the sum from shared memory in every lane for the one lane that adds it (robust.triton.atomics_global under
    Triton 3.6: 1 LDS executed with 1 lane, where the PTX's 4 warps load)."""
    if len(readers) != 1:
        return False
    ins = instrs[readers[0]]
    return ins.guard is not None and ins.parts[0] in ("atom", "red") and \
        any(sem in ins.parts for sem in ("acq_rel", "release", "acquire", "sc"))


def repeated_loads(instrs: list[Instr], block_of: list[int]) -> dict[int, int]:
    """pc -> the earlier pc of each non-volatile `ld.shared` or `ld.global` that loads what a load before it in its
    basic block loaded (the same state space, base register, not written between, offset, width and type), with no
    write to its memory, barrier, fence or call between: ptxas keeps the first load's register and drops the second.
    NVVM keeps both where an inline-asm shuffle (memory-clobbering) stands between them: CUB's raking scan reads a
    thread's raking segment in the upsweep and again in the downsweep, around a warp scan by `shfl.sync.up`
    (files.scan_tiles: 4 of the PTX's 7 LDS executed; fresh11.cub_block_cumsum: 48 wavefronts, the PTX's 84).
    Triton's loads are inline asm, which NVVM does not merge: a tensor loaded in two layouts loads some addresses
    twice in a row (fresh13.triton.fused_moe_kernel.w2_bm16: the 16 token ids by 4 warps, once a warp in the
    dot's row layout and twice in the other, one LDG of the two identical ones kept: 36 requests, the PTX's 48).
    sass.plan drops them where the line's SASS has that many fewer loads."""
    out: dict[int, int] = {}
    seen: dict[tuple, int] = {}
    for pc, ins in enumerate(instrs):
        p = ins.parts
        if p[0] in _FENCES or p[0] in ("bra", "ret") or (pc and block_of[pc] != block_of[pc - 1]):
            seen.clear()
            if p[0] in _FENCES or p[0] in ("bra", "ret"):
                continue
        space = next((s for s in ("shared", "global", "local") if s in p), None)
        if p[0] == "st":  # a store to its space, or a generic one, may overwrite what a load of that space read
            for key in [k for k in seen if space is None or k[2] == space]:
                del seen[key]
            if space in (None, "shared"):
                continue
        written = set(_written_by(ins))
        if p[0] == "ld" and space in ("shared", "global") and "volatile" not in p and ins.guard is None and len(ins.operands) > 1:
            a = next((o for o in ins.operands if isinstance(o, Addr)), None)
            if a is not None and a.base_is_reg:
                key = (a.base, a.offset, space, p[1:])
                if key in seen:
                    out[pc] = seen[key]
                elif not written & {a.base}:
                    seen[key] = pc
        if written:
            for key in [k for k in seen if k[0] in written]:
                del seen[key]
    return out


def live_registers(instrs: list[Instr]) -> set[str]:
    """The registers some instruction reads whose results reach an effect (useless_loads' chains): what ptxas keeps of
    a vector load. Triton 3.6's segmented scan loads `ld.shared.v2 {%r72, %r73}, [s+16]` whose %r72 feeds only
    selects that nothing uses in the end, and ptxas loads %r73 alone (LDS [s+0x14]: fresh3.triton.segmented_cumsum
    under Triton 3.6, an H200)."""
    from smemlab.analyze.sass import registers_read

    return registers_read([instrs[pc] for pc in _live_instructions(instrs)])


def _live_instructions(instrs: list[Instr]) -> set[int]:
    """The instructions whose results reach a store, branch, barrier or other effect through any chain (every
    instruction that writes no register counts as an effect; a shuffle does not: ptxas removes one whose result
    nothing uses)."""
    writers_of: dict[str, list[int]] = defaultdict(list)
    for pc, ins in enumerate(instrs):
        for r in _written_by(ins):
            writers_of[r].append(pc)
    work = [pc for pc, ins in enumerate(instrs)
            if not _written_by(ins) or ins.parts[0] in _FENCES + _EFFECTS or "volatile" in ins.parts]
    live = set(work)
    while work:
        ins = instrs[work.pop()]
        reads = set(registers_read_by(ins)) | ({ins.guard.name} if ins.guard is not None else set())
        for r in reads:
            for w in writers_of.get(r, ()):
                if w not in live:
                    live.add(w)
                    work.append(w)
    return live


def useless_loads(instrs: list[Instr]) -> set[int]:
    """The non-volatile `ld.shared` whose value reaches no store, branch, barrier or other effect through any chain
    of instructions (every instruction that writes no register counts as an effect; a shuffle does not, ptxas
    removes one whose result nothing uses): ptxas removes them where NVVM did not see through the chain. Triton's
    reversed associative scan of (g, r) pairs whose g result is dropped (`_, ret = tl.associative_scan((g, r), 0,
    f, reverse=True)`): the first g of each thread's segment feeds only the dropped product
    (fresh11.triton.discounted_returns: 116 LDS executed of the PTX's 120). sass.plan drops them where the line's
    SASS has that many loads fewer."""
    live = _live_instructions(instrs)
    return {pc for pc, ins in enumerate(instrs) if pc not in live and ins.parts[0] == "ld" and "shared" in ins.parts
            and "volatile" not in ins.parts}


# instructions that act beyond their destination registers (besides _FENCES): kept whatever reads their results
_EFFECTS = ("st", "vote", "match", "activemask", "redux", "bra", "brx", "ret", "exit",
            "trap", "prefetch", "tex", "suld", "sust", "tld4", "wgmma", "mma", "setmaxnreg", "griddepcontrol")


_NOT_PURE = _FENCES + ("ld", "ldu", "st", "ldmatrix", "shfl", "vote", "match", "activemask", "redux", "bra", "brx",
                       "ret", "exit", "trap", "prefetch", "tex", "suld", "sust", "tld4", "isspacep")


def _register_uses(instrs: list[Instr], guards: bool) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """register -> the instructions reading it (and, with `guards`, testing it as their guard), and register ->
    the instructions writing it."""
    readers_of, writers_of = defaultdict(list), defaultdict(list)
    for j, ins in enumerate(instrs):
        for r in registers_read_by(ins):
            readers_of[r].append(j)
        if guards and ins.guard is not None:
            readers_of[ins.guard.name].append(j)
        for r in _written_by(ins):
            writers_of[r].append(j)
    return readers_of, writers_of


def _written_by(ins: Instr) -> list[str]:
    if ins.parts[0] in ("st", "red", "bra", "bar", "barrier") or not ins.operands:
        return []
    d = ins.operands[0]
    return [x.name for x in (d.items if isinstance(d, Vec) else (d,)) if isinstance(x, Reg)]


def loads_below_branch(instrs: list[Instr], flow) -> dict[int, tuple[int, bool]]:
    """pc -> (the branch, whether its taken side is the one) of each `ld.global` or `ld.shared` that ptxas moves below
    its block's branch onto the side that reads it (module docstring)."""
    out: dict[int, tuple[int, bool]] = {}
    block_of, starts, bsucc = flow.block_of, flow.starts, flow.bsucc
    nb = len(starts)
    readers_of: dict[str, list[int]] | None = None
    writers_of: dict[str, list[int]] | None = None
    preds: list[list[int]] | None = None
    for pc, ins in enumerate(instrs):
        p = ins.parts
        if p[0] != "ld" or not ("global" in p or "shared" in p) or "volatile" in p \
                or any(x in p for x in ("relaxed", "acquire")) or ins.guard is not None or not ins.operands:
            continue
        b = block_of[pc]
        end = (starts[b + 1] if b + 1 < nb else len(instrs)) - 1
        branch = instrs[end]
        if branch.parts[0] != "bra" or branch.guard is None or end not in flow.targets:
            continue
        if any(x.parts[0] in _FENCES or x.parts[0] == "st" for x in instrs[pc + 1:end]):
            continue
        if readers_of is None:
            readers_of, writers_of = _register_uses(instrs, guards=True)
            preds = [[] for _ in range(nb + 1)]
            for x in range(nb):
                for y in bsucc[x]:
                    preds[y].append(x)
        # the value and what the block computes from it alone; every other definition of these registers comes
        # before the load in its block (Triton's `mov.u32 %r, 0x0` before a load's inline asm)
        values, chain, ok = set(_written_by(ins)), set(), bool(_written_by(ins))
        for j in range(pc + 1, end):
            x = instrs[j]
            if registers_read_by(x) & values or (x.guard is not None and x.guard.name in values):
                # only what reads nothing else (a cvta of the loaded pointer, a conversion): where the value is
                # combined with another, ptxas computes it there, and loads it before the branch (lab/reduce's
                # reduceGmem: `v + s[tid + 1]`, stored under `if (tid == 0)`: all 32 lanes load, 5 sectors)
                if x.parts[0] in _NOT_PURE or x.guard is not None or not _written_by(x) or \
                        not registers_read_by(x) <= values:
                    ok = False
                    break
                chain.add(j)
                values |= set(_written_by(x))
        if not ok or any(w not in chain and w != pc and not (block_of[w] == b and w < pc)
                         for r in values for w in writers_of[r]):
            continue
        outside = {j for r in values for j in readers_of[r] if j not in chain and j != pc}
        if not outside or any(block_of[j] == b for j in outside):
            continue
        sides = [(flow.targets[end], True)] + ([(end + 1, False)] if end + 1 < len(instrs) else [])
        for first, taken in sides:
            s = block_of[first]
            if s == b or preds[s] != [b] or (taken and end + 1 < len(instrs) and block_of[end + 1] == s):
                continue
            # every path from the entry to each reader passes s (the entry itself aside, where no path avoids it)
            if s == 0 or all(not flow.reaches(0, j, starts[s]) for j in outside):
                out[pc] = (end, taken)
                break
    return out


def _ends_the_kernel(instrs: list[Instr], last: int) -> bool:
    """Whether the kernel ends after instruction `last` with nothing but arithmetic (a `ret` or `exit` before
    any branch): ptxas then turns the guard into an early exit of the threads it leaves off (`@P0 EXIT`), and
    the load after it runs on the others only. Where work follows (a barrier, another reduction, a loop's next
    trip), the threads stay, and so does the load, unguarded (robust.triton.layernorm_bwd_dw's first of two
    stores: all 4 warps load, the second's 2)."""
    for ins in instrs[last + 1:]:
        op = ins.parts[0]
        if op in ("ret", "exit"):
            return True
        if op in _FENCES or op in ("ld", "st", "bra", "ldmatrix", "shfl"):
            return False
    return False


class DeadLoads:
    def __init__(self, ledger, warps: int):
        self.ledger, self.W = ledger, warps
        self.watched: set[int] = set()  # register indices some ldmatrix or sunk load writes
        self.sunk: set[int] = set()  # pcs of the sunk loads (sunk_loads)
        self.below: dict[int, tuple[int, bool]] = {}  # loads_below_branch
        self.taken_side: dict[int, bool] = {}  # their branches: whether the loads count on the taken side
        self._at_branch: dict[int, list[tuple[np.ndarray, object]]] = defaultdict(list)
        self._by_reg: dict[int, list[dict]] = defaultdict(list)

    def sink_below(self, below: dict[int, tuple[int, bool]]) -> None:
        self.below = below
        self.taken_side = {b: t for b, t in below.values()}

    def load(self, site, offsets: np.ndarray, em: np.ndarray, lanes: np.ndarray, regs: list[int],
             sunk: bool = False, emit=None) -> None:
        """An ldmatrix executed by `lanes` (`em`: those that gave row addresses, what it costs), its
        fragments now in registers `regs`; or (`sunk`) a sunk load, which costs on the lanes that read it.
        `emit(lanes)`: how a sunk global load records its lanes (the memory ledger's path, not the shared one)."""
        rec = {"site": site, "off": None if offsets is None else offsets.copy(), "em": em.copy(),
               "read": np.zeros_like(lanes), "alive": {r: lanes.copy() for r in regs}, "regs": regs, "sunk": sunk,
               "emit": emit}  # alive: per register, the lanes holding it
        for r in regs:
            self._by_reg[r].append(rec)

    def hold(self, pc: int, em: np.ndarray, emit) -> None:
        """A load that ptxas moved below its block's branch, executed by lanes `em`: recorded, by `emit(lanes)`, on
        those of them that go the branch's way to its readers (`branch`)."""
        self._at_branch[self.below[pc][0]].append((em.copy(), emit))

    def holding(self, pc: int) -> bool:
        """Whether loads wait for branch `pc`."""
        return pc in self._at_branch

    def branch(self, pc: int, to_readers: np.ndarray) -> None:
        """Branch `pc` sent lanes `to_readers` to the side that reads the loads held for it."""
        for em, emit in self._at_branch.pop(pc, ()):
            live = em & to_readers
            if live.any():
                emit(live)

    def read(self, r: int, m: np.ndarray, on: np.ndarray | None = None) -> None:
        """Lanes `m` of the executing instruction read register `r`; `on`: those whose guard is on, where
        it has one."""
        for rec in self._by_reg.get(r, ()):
            rec["read"] |= (m if on is None or not rec["sunk"] else on) & rec["alive"][r]

    def write(self, r: int, m: np.ndarray) -> None:
        for rec in list(self._by_reg.get(r, ())):
            rec["alive"][r] &= ~m
            if not any(a.any() for a in rec["alive"].values()):
                self._resolve(rec)

    def _resolve(self, rec: dict) -> None:
        for r in rec["regs"]:  # by identity: the records hold arrays, which == does not compare as a whole
            self._by_reg[r] = [x for x in self._by_reg.get(r, ()) if x is not rec]
        live = rec["read"] & rec["em"] if rec["sunk"] else (
            np.repeat(rec["read"].reshape(self.W, WARP).any(axis=1), WARP) & rec["em"])
        if live.any() and rec["emit"] is not None:
            rec["emit"](live)
        elif live.any():
            self.ledger.record(rec["site"], rec["off"], live, int(live.reshape(self.W, WARP).any(axis=1).sum()))

    def finish(self) -> None:
        pending = {id(rec): rec for lst in self._by_reg.values() for rec in lst}
        for rec in pending.values():
            self._resolve(rec)
