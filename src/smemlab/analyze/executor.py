"""Run one thread block: every warp, 32 lanes in lock step, on a SIMT reconvergence stack.

All warps of the block execute together while they agree: the active mask has one entry per thread
of the block, and an instruction runs once for every thread under it (NumPy arrays of warps * 32).
A branch on which the threads disagree splits the mask (`brx.idx`: one path per target its threads
pick): the paths run one after the other, each with its own threads, and the threads meet again at
the branch's immediate post-dominator (`cfg.py`), as on a stack-based SIMT machine. Per warp this is
exactly the warp's own reconvergence stack (a warp whose lanes agree takes one path only; a warp
with no lane on a path issues nothing there), so per-warp counts are those of warps running
separately, and a race-free kernel computes what it computes on the GPU. Paths of one divergent
region that meet at a block before their reconvergence point run it once, together (`_join`): NVVM
writes a short-circuit condition as two paths into the block it guards, and ptxas's SASS runs that
block once for the warp.

Barriers (`bar.sync`, `barrier.sync`, `bar.red`, `bar.arrive`) are each block's 16 named barriers: a
thread that reaches one arrives and waits (`arrive`: does not wait), and the barrier completes for a
block when every thread of that block that has not exited has arrived, or, with a thread count, when
that many have, from whatever instruction (warp-specialised producers and consumers). A cluster of
several blocks is emulated as one machine whose warps are the blocks' warps, block after block; its
barrier (`barrier.cluster.wait`) completes when every thread of the cluster has arrived
(`barrier.cluster.arrive` alone does not wait). A path that waits lets another path run meanwhile
(one not holding a reconvergence point for paths still running), which may exit, arrive or reach the
barrier. When every path waits, or
only reconvergence points are left, the barrier can never complete: reported as the hazard it is (a
divergent `__syncthreads()`: undefined behaviour, a hang or a wrong result on the GPU).

Warp-synchronous instructions with a membermask (`shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`,
`elect.sync`, `bar.warp.sync`) wait the same way: a path that reaches one before the other lanes its
membermask names waits and lets the other paths run; the instruction executes once, for all the lanes
that met there, when every non-exited lane of the mask has arrived (`warpsync.py`). Lanes of the mask
that never arrive are reported as the undefined behaviour they are; lanes that reach a different
shfl/vote/match/redux/elect instruction (NVVM emits one per branch for a call written in both) are
reported too, as analyze does not pair two instructions' operands; `bar.warp.sync`s carry no data, and
those at different places meet.

A compare-and-swap loop (an `atom.cas` with a backward branch around it) is a spin loop to ptxas, which puts a
YIELD in it, and a YIELD lets the lanes that wait at the reconvergence point of the divergent region around it
go on: they do not wait there for the lanes still in the loop, and the warp runs as two groups until a
warp-synchronous instruction or a barrier brings them together (the lanes that a shuffle's membermask names
all meet there). Measured on an H200 (fresh6.row_max_cas_f64: `if (lane == 0)` a CAS loop on the row's
maximum, then the next row's loads, then a shuffle reduction): from a warp's second row on, the loads of
line 375 run twice, lane 0 apart from lanes 1-31 (30 executions of the first load for 16 rows of 2 warps,
512 threads; 72 of the last 4 for 40 rows of 8 warps, 160 threads), which this reproduces exactly
(`Executor._releases`: such a branch's paths meet at the enclosing region's point instead of their own).
"""

from __future__ import annotations

import time

import numpy as np

from smemlab.analyze import alu, carry, memops, mma, tensormaps, tma, warpops, warpsync, wgmma, wmma  # noqa: F401  (registers the builders)
from smemlab.analyze.cfg import EXIT, Flow
from smemlab.analyze.externs import Runtime
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.ptx import Instr, PTXError, Reg
from smemlab.analyze.spin import CHECK_EVERY, SpinWatch
from smemlab.errors import UserError

PLAIN, BRANCH, THREAD_END, BARRIER, TRAP, SWITCH, WARP_SYNC = range(7)
CLUSTER_BARRIER = -1  # the key of barrier.cluster (the blocks' named barriers are 0..15)


class AnalyzeError(UserError):
    """A problem found while emulating (unsupported instruction, memory fault, hazard, step limit)."""


class Unsupported(Exception):
    pass


class _Entry:
    __slots__ = ("pc", "mask", "rpc", "full", "nw", "waiting", "holder", "lanes")

    def __init__(self, pc, mask, rpc, W):
        self.pc, self.mask, self.rpc = pc, mask, rpc
        self.waiting = None  # the barrier its threads wait at (("warp", key) for a warp-synchronous one)
        self.lanes = None  # at a warp-synchronous instruction: its lanes that execute it (guard on)
        self.holder = False  # it waits at a reconvergence point for the paths above it
        self.refresh(W)

    def refresh(self, W):
        self.full = bool(self.mask.all())
        self.nw = int(self.mask.reshape(W, WARP).any(axis=1).sum())


def _builder_for(opcode: str):
    parts = opcode.split(".")
    for k in range(len(parts), 0, -1):
        b = alu.BUILDERS.get(".".join(parts[:k]))
        if b is not None:
            return b
    return None


def _build(ins: Instr, mach: Machine, ledger, pc: int, ex):
    b = _builder_for(ins.opcode)
    if b is None:
        raise Unsupported(f"PTX instruction `{ins.opcode}` is not supported by the emulator")
    return b(ins, mach, ledger=ledger, pc=pc, ex=ex) if b in alu.CONTEXT else b(ins, mach)


class Executor:
    def __init__(self, flow: Flow, mach: Machine, ledger, max_steps: int, where, describe_thread,
                 time_limit: float | None = None):
        self.flow = flow
        self.mach = mach
        self.ledger = ledger
        self.max_steps = max_steps
        self.time_limit = time_limit  # seconds of wall clock, None: no limit
        self.spin = SpinWatch(mach)
        self.spun: set[bytes] = set()  # states where a spin let another path run (spin.py)
        self.spin_pcs: set[int] = set()  # backward branches of loops seen spinning
        self.ran_ahead = self.ran_ahead_exited = None  # threads that went on past a join (_run_ahead_parked)
        self.runtime = Runtime(mach, where)  # assert, printf, malloc, free
        self.where = where  # pc -> "file:line (source)"
        self.describe_thread = describe_thread  # linear thread id -> "thread 37 (threadIdx 5,1,0)"
        self.steps = 0
        self.issued_warps = 0
        self.trace = None  # spills.Trace: every visit of a basic block, where the SASS spills (spills.py)
        self.on_block = None  # called with a basic block's first pc at each visit (ledger.Ledger.leave)
        self.barriers = 0
        self.arrived: dict[int, np.ndarray] = {}  # barrier -> threads arrived in its current phase
        # warp-synchronous key (pc, or warpsync.BAR_WARP) -> (threads arrived, the membermask each gave)
        self.warp_arrived: dict = {}
        n = len(flow.instrs)
        self.refused: dict[int, str] = {}  # pc -> why the emulator cannot run it (raised only if reached)
        self.kinds = [PLAIN] * n
        self.ops = [None] * n
        for pc, ins in enumerate(flow.instrs):
            self.kinds[pc], self.ops[pc] = self._decode(pc, ins)
        # compare-and-swap atomics inside a loop: spin loops, which ptxas gives a YIELD (module docstring)
        loops = flow.loops()
        self.cas_loops = [pc for pc, ins in enumerate(flow.instrs) if ins.parts[0] == "atom" and "cas" in ins.parts
                          and any(t <= pc <= b for t, b in loops)]
        self._released_at: dict[int, bool] = {}
        # straight runs of plain instructions, cut before every block leader and control instruction
        self.run_end = [0] * n
        stop = n
        for pc in range(n - 1, -1, -1):
            if self.kinds[pc] != PLAIN:
                self.run_end[pc] = pc
                stop = pc
                continue
            self.run_end[pc] = stop
            if flow.leaders[pc]:
                stop = pc

    # ------------------------------------------------------------------ decoding

    def _decode(self, pc: int, ins: Instr):
        op = ins.parts[0]
        if op == "bra":
            return BRANCH, None
        if op == "brx":
            return SWITCH, self.mach.getter(ins.operands[0], np.uint32)
        if op in ("ret", "exit"):
            return THREAD_END, None
        if op == "trap":
            return TRAP, None
        if op in ("bar", "barrier") and (len(ins.parts) < 2 or ins.parts[1] != "warp"):
            return BARRIER, self._barrier_op(ins)
        k = warpsync.membermask_operand(ins)
        if k is not None:
            members = self.mach.getter(ins.operands[k], np.uint32)
            if op == "bar":
                return WARP_SYNC, (None, members, warpsync.BAR_WARP)
            try:  # the guard is applied when the instruction is reached (the lanes that wait)
                return WARP_SYNC, (_build(ins, self.mach, self.ledger, pc, self), members, pc)
            except (Unsupported, PTXError) as exc:
                return PLAIN, self._raiser(pc, str(exc))
        if op == "call":
            try:
                fn = self.runtime.build(ins, pc)
            except PTXError as exc:
                return PLAIN, self._raiser(pc, str(exc))
            return PLAIN, fn if ins.guard is None else self._guarded(fn, ins.guard)
        try:
            fn = _build(ins, self.mach, self.ledger, pc, self)
        except (Unsupported, PTXError) as exc:
            return PLAIN, self._raiser(pc, str(exc))
        if ins.guard is not None:
            fn = self._guarded(fn, ins.guard)
        return PLAIN, fn

    def _raiser(self, pc, message):
        self.refused[pc] = message

        def fn(m, full):
            raise Unsupported(message)
        return fn

    def _guarded(self, fn, guard: Reg):
        R = self.mach.R
        i = self.mach.reg_index(guard.name)
        if self.mach.dead is not None and self.mach.dead.sunk:  # the lanes that read a sunk load (deadloads.py)
            mach, neg = self.mach, guard.neg

            def run(m, full):
                on = m & (~R[i] if neg else R[i])
                mach.on = on
                try:
                    fn(on, False)
                finally:
                    mach.on = None
            return run
        if guard.neg:
            return lambda m, full: fn(m & ~R[i], False)
        return lambda m, full: fn(m & R[i], False)

    def _barrier_op(self, ins: Instr):
        """(kind, barrier getter, count getter, reduction) of a barrier: kind 'sync', 'arrive', 'red', or
        'skip' (barrier.cluster.arrive: its wait synchronises the cluster)."""
        parts, ops, mach = ins.parts, ins.operands, self.mach
        if "cluster" in parts:
            return ("skip" if "arrive" in parts and "wait" not in parts else "sync"), None, None, None
        if "red" in parts:
            red = next(p for p in parts if p in ("popc", "and", "or"))
            c = mach.getter(ops[-1], np.bool_)
            w = mach.writer(ops[0], np.uint32 if red == "popc" else np.bool_)
            count = mach.getter(ops[2], np.uint32) if len(ops) == 4 else None
            return "red", mach.getter(ops[1], np.uint32), count, (red, c, w)
        bid = mach.getter(ops[0], np.uint32) if ops else None
        count = mach.getter(ops[1], np.uint32) if len(ops) > 1 else None
        return ("arrive" if "arrive" in parts else "sync"), bid, count, None

    # ------------------------------------------------------------------ running

    def run(self) -> None:
        mach = self.mach
        W = mach.W
        live = mach.valid.copy()
        self.live = live
        self.ran_ahead = np.zeros(mach.N, dtype=bool)
        self.ran_ahead_exited = np.zeros(mach.N, dtype=bool)
        stack = [_Entry(0, live.copy(), EXIT, W)]
        self.stack = stack
        kinds, ops, run_end, instrs, leaders = self.kinds, self.ops, self.run_end, self.flow.instrs, self.flow.leaders
        max_steps = self.max_steps
        trace = self.trace
        on_block = self.on_block
        deadline = time.monotonic() + self.time_limit if self.time_limit else None
        with np.errstate(all="ignore"):
            while stack:
                e = stack[-1]
                e.holder = False  # on top: no path above it is left
                pc = e.pc
                if pc == e.rpc or pc == EXIT or not e.nw:
                    stack.pop()
                    continue
                if leaders[pc] and len(stack) > 1 and e.waiting is None and self._join(e):
                    continue
                if trace is not None and leaders[pc] and e.waiting is None:
                    trace.visit(pc, e.mask)
                if on_block is not None and leaders[pc] and e.waiting is None:
                    on_block(pc)
                kind = kinds[pc]
                if kind == PLAIN:
                    end = run_end[pc]
                    m, full = e.mask, e.full
                    self.issued_warps = e.nw
                    mach.steps = self.steps
                    i = pc
                    mach.cur = m
                    try:
                        while i < end:
                            ops[i](m, full)
                            i += 1
                    except memops.Fault as exc:
                        raise AnalyzeError(f"{self.where(i)}: {self.describe_thread(exc.thread)}: {exc}") from None
                    except (Unsupported, PTXError) as exc:
                        raise AnalyzeError(f"{self.where(i)}: {exc}") from None
                    self.steps += (end - pc) * e.nw
                    e.pc = end
                    if self.steps > max_steps:
                        raise AnalyzeError(
                            f"stopped after {self.steps:,} warp-instructions (--max-steps {max_steps:,}), last at "
                            f"{self.where(end - 1)}: the kernel may loop forever with these arguments, or needs a "
                            f"larger --max-steps")
                    if deadline is not None and time.monotonic() > deadline:
                        raise AnalyzeError(
                            f"stopped after {self.time_limit:g} s (--time-limit) and {self.steps:,} warp-instructions, "
                            f"last at {self.where(end - 1)}: the kernel may loop forever with these arguments, or "
                            f"needs a larger --time-limit")
                    continue
                self.steps += e.nw
                if kind == BRANCH:
                    self._branch(e, pc, instrs[pc])
                elif kind == SWITCH:
                    self._switch(e, pc, instrs[pc])
                elif kind == THREAD_END:
                    self._exit(e, pc, instrs[pc])
                elif kind == BARRIER:
                    self._barrier(e, pc)
                elif kind == WARP_SYNC:
                    self._warp_sync(e, pc)
                elif kind == TRAP:
                    ins = instrs[pc]
                    m = e.mask if ins.guard is None else e.mask & self._pred(ins.guard)
                    if m.any():
                        t = int(np.flatnonzero(m)[0])
                        raise AnalyzeError(f"{self.where(pc)}: {self.describe_thread(t)} executed trap "
                                           f"(the kernel aborts on the GPU)")
                    e.pc = pc + 1

    def _join(self, e: _Entry) -> bool:
        """Paths of one divergent region that meet at a block before their reconvergence point run it
        once, together, as ptxas's code does: NVVM writes `if (a || (b && c)) x = y;` as two paths into
        one block, and ptxas makes one store of it. A path at a block that another path of the region
        (same reconvergence point) is still on its way to waits for it (it goes below it in the stack);
        a path that comes to a block where one waits joins it. True when the stack changed."""
        st, flow, pc, r = self.stack, self.flow, e.pc, e.rpc
        for j in range(len(st) - 2, -1, -1):
            s = st[j]
            if s.holder and s.pc == r:
                break  # the region's holder: what lies below is outside it
            if s.rpc != r or s.holder or s.waiting is not None:
                continue
            if s.pc == pc:
                s.mask = s.mask | e.mask
                s.refresh(self.mach.W)
                st.pop()
                return True
        for j in range(len(st) - 2, -1, -1):
            s = st[j]
            if s.holder and s.pc == r:
                break
            if s.rpc != r or s.holder or s.waiting is not None or s.pc == pc:
                continue
            # only a path coming in this iteration: one still in a loop that it leaves for this block later
            # (a probe loop's `if (k == q) { v = vals[slot]; break; }`) runs it on its own, as ptxas's code does
            if flow.reaches(s.pc, pc, r, forward=True) and not flow.reaches(pc, s.pc, r):
                st.insert(j, st.pop())
                return True
        return False

    def _pred(self, guard: Reg) -> np.ndarray:
        p = self.mach.R[self.mach.reg_index(guard.name)]
        return ~p if guard.neg else p

    def _branch(self, e: _Entry, pc: int, ins: Instr) -> None:
        target = self.flow.targets[pc]
        if target <= pc:
            state = self.spin.stuck(pc, self.stack, self.arrived, self.warp_arrived)
            if state is not None:
                self.spin_pcs.add(pc)
                if state in self.spun or not (self._bring_up_another(self.spin_pcs) or self._run_ahead_parked()):
                    self._spinning(e, pc, target)
                self.spun.add(state)  # another path runs; the spinning one branches again when it is back on top
                return
        dead = self.mach.dead
        if dead is not None and dead.holding(pc):  # loads ptxas moved below this branch (deadloads.py)
            went = e.mask if ins.guard is None else e.mask & self._pred(ins.guard)
            dead.branch(pc, went if dead.taken_side[pc] else e.mask & ~went)
        if ins.guard is None:
            e.pc = target
            return
        m = e.mask
        taken = m & self._pred(ins.guard)
        if not taken.any():
            e.pc = pc + 1
            return
        not_taken = m & ~taken
        if not not_taken.any():
            e.pc = target
            return
        W = self.mach.W
        r = self.flow.ipdom[pc]
        if self.cas_loops and self._releases(pc, target, r):
            r = e.rpc  # a YIELD in the region lets its paths go on past its reconvergence point (docstring)
        if e.rpc != r:  # the entry waits at the reconvergence point with all its threads
            e.pc, e.holder = r, True
            self.stack.append(_Entry(pc + 1, not_taken, r, W))
        else:  # it already reconverges there: it becomes the not-taken path
            e.pc, e.mask = pc + 1, not_taken
            e.refresh(W)
        self.stack.append(_Entry(target, taken, r, W))

    def _releases(self, pc: int, target: int, r: int) -> bool:
        """Whether the divergent region of branch `pc` (reconverging at `r`) holds a compare-and-swap loop,
        whose YIELD lets the lanes that wait at `r` go on (module docstring)."""
        hit = self._released_at.get(pc)
        if hit is None:
            reaches = self.flow.reaches
            hit = self._released_at[pc] = any(reaches(a, c, r) for c in self.cas_loops for a in (target, pc + 1)
                                               if a != r)
        return hit

    def _merge_released(self, released: list) -> None:
        """Paths that a warp-synchronous instruction or a barrier released together at one instruction, next
        to each other on the stack and bound for the same point, go on as one (the hardware's warp
        reconverges there): paths that a YIELD kept apart (module docstring)."""
        st, W = self.stack, self.mach.W
        ids = {id(x) for x in released}
        for i in range(len(st) - 1, 0, -1):
            a, b = st[i], st[i - 1]
            if id(a) in ids and id(b) in ids and a.pc == b.pc and a.rpc == b.rpc and a.waiting is None \
                    and b.waiting is None and not a.holder and not b.holder:
                b.mask = b.mask | a.mask
                b.refresh(W)
                del st[i]

    def _spinning(self, e: _Entry, pc: int, target: int) -> None:
        warps = np.flatnonzero(e.mask.reshape(self.mach.W, WARP).any(axis=1))
        who = f"warp {warps[0]}" if len(warps) == 1 else f"warps {_ranges(warps).split(' ', 1)[1]}"
        head = self.where(target)
        loop = "this loop" if head == self.where(pc) else f"the loop back to {head}"
        raise AnalyzeError(
            f"{self.where(pc)}: {loop} makes no progress: {who} came back to it {CHECK_EVERY} times with the "
            f"same registers, predicates and memory, and no other thread can run, so it spins forever. It waits "
            f"for something no emulated thread changes: a flag another block or the host writes (analyze runs "
            f"one block, or one cluster), or a condition that never comes true with these arguments")

    def _switch(self, e: _Entry, pc: int, ins: Instr) -> None:
        """brx.idx: the threads split by their index over the list's targets (a guard that is off: on
        to the next instruction), and meet again at the branch's reconvergence point."""
        m = e.mask if ins.guard is None else e.mask & self._pred(ins.guard)
        table = self.flow.tables[pc]
        idx = self.ops[pc]()
        bad = m & (idx >= len(table))
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise AnalyzeError(f"{self.where(pc)}: {self.describe_thread(t)}: brx.idx index {int(idx[t])} is past "
                               f"the {len(table)} targets of its list")
        paths = [(table[int(v)], m & (idx == v)) for v in np.unique(idx[m])]
        if ins.guard is not None and (e.mask & ~m).any():
            paths.append((pc + 1, e.mask & ~m))
        if len(paths) == 1:
            e.pc = paths[0][0]
            return
        W = self.mach.W
        r = self.flow.ipdom[pc]
        if e.rpc != r:
            e.pc, e.holder = r, True
        else:
            self.stack.pop()
        for target, mask in reversed(paths):
            self.stack.append(_Entry(target, mask, r, W))

    def _exit(self, e: _Entry, pc: int, ins: Instr) -> None:
        m = e.mask
        leaving = m if ins.guard is None else m & self._pred(ins.guard)
        if leaving.any():
            self.live &= ~leaving
            self.ran_ahead_exited |= leaving & self.ran_ahead
            W = self.mach.W
            for entry in self.stack:
                if (entry.mask & leaving).any():
                    entry.mask = entry.mask & ~leaving
                    entry.refresh(W)
        e.pc = pc + 1

    def _barrier(self, e: _Entry, pc: int) -> None:
        kind, bid, count, red = self.ops[pc]
        if kind == "skip":
            e.pc = pc + 1
            return
        first = int(np.flatnonzero(e.mask)[0])
        key = int(bid()[first]) if bid is not None else CLUSTER_BARRIER
        n = int(count()[first]) if count is not None else None
        arrived = self.arrived.get(key)
        if arrived is None:
            arrived = self.arrived[key] = np.zeros(self.mach.N, dtype=bool)
        if e.waiting is None:
            arrived |= e.mask
            if kind == "arrive":
                e.pc = pc + 1
                self._complete(key, n, None)
                return
            e.waiting = key
        else:
            self.steps -= e.nw  # looking again at a barrier it waits at is no instruction
        if self._complete(key, n, red):
            return
        if not self._let_another_run(run_ahead=True):
            self._stuck(e, pc, key, n)

    def _let_another_run(self, run_ahead: bool = False) -> bool:
        """Bring a path that can run to the top of the stack (the one there waits): it may exit, arrive,
        or reach what the waiting paths wait at. False when none can. `run_ahead` (a barrier of the block
        waits): whole warps parked at a join may go on past it (_run_ahead_parked)."""
        st = self.stack
        while True:
            if st[-1].waiting is None or self._bring_up_another():
                return True
            # exits since a warp-synchronous instruction was last checked may have completed it
            if not any(self._complete_warp(k) for k, (arrived, _) in list(self.warp_arrived.items())
                       if arrived.any()):
                return run_ahead and self._run_ahead_parked()

    def _run_ahead_parked(self) -> bool:
        """Threads parked at a reconvergence point, waiting for the other paths of their branch, while those
        paths wait at a barrier that the parked threads reach only past that point (or spin for what they do
        there): the GPU's warps do not wait
        for each other at a branch's join (independent thread scheduling), so the parked threads go on alone.
        Warp specialisation is built so: Triton's worker warp groups leave their partition's code and meet the
        default partition at `barrier.sync 1` in a dispatch loop further on. False when no thread is parked."""
        st, W = self.stack, self.mach.W
        above = np.zeros(self.mach.N, dtype=bool)
        for j in range(len(st) - 1, -1, -1):
            h = st[j]
            if h.holder and h.waiting is None and 0 <= h.pc < len(self.flow.instrs):
                parked = h.mask & ~above
                # whole warps only: lanes of one warp on both sides would be a divergent `bar.sync`
                warps = parked.reshape(W, WARP).any(axis=1)
                if parked.any() and (h.mask & above).any() and not above.reshape(W, WARP)[warps].any():
                    h.mask = h.mask & ~parked
                    h.refresh(W)
                    st.append(_Entry(h.pc, parked, h.rpc, W))
                    self.ran_ahead |= parked
                    return True
            above |= h.mask
        return False

    def _bring_up_another(self, spinning: set[int] = frozenset()) -> bool:
        """Move the topmost path below the top that neither waits nor holds a reconvergence point to the top;
        one not at a loop seen spinning (`spinning`: its branch pcs) first, so that two spinning paths do not
        take turns while the one they wait for never runs. When every such path sits in a spinning loop, the
        bottom-most: the one that ran least recently, so that they take turns round-robin, as the GPU's warp
        schedulers let every resident warp issue. Taking the topmost instead starves a third: two paths that
        spin swap places at the top of the stack forever, and the one below them, which may since have been
        released (an mbarrier phase completed by a path that ran meanwhile), never runs again (a warp-specialised
        kernel's default partition and first consumer group spinning on mbarriers that the second consumer
        group, spinning below them for a phase already complete, would arrive on)."""
        st = self.stack
        free = [j for j in range(len(st) - 2, -1, -1) if st[j].waiting is None and not st[j].holder]
        if not free:
            return False
        j = next((j for j in free if not self._spins_at(st[j].pc, spinning)), free[-1])
        st.append(st.pop(j))
        return True

    def _spins_at(self, pc: int, spinning: set[int]) -> bool:
        """Whether a path at `pc` sits in a loop seen spinning (its pc between the loop's head and branch)."""
        targets = self.flow.targets
        return any(targets[b] <= pc <= b for b in spinning)

    # ------------------------------------------------------------------ warp-synchronous instructions

    def _warp_sync(self, e: _Entry, pc: int) -> None:
        _, members, key = self.ops[pc]
        if e.waiting is None:
            ins = self.flow.instrs[pc]
            mm = members()
            if e.full and ins.guard is None and mm[0] == 0xFFFFFFFF and (mm == mm[0]).all():
                self._execute_warp(key, e.mask)  # every lane of the block, full masks: converged code
                e.pc = pc + 1
                return
            lanes = e.mask if ins.guard is None else e.mask & self._pred(ins.guard)
            if not lanes.any():
                e.pc = pc + 1
                return
            stray = lanes & (((mm >> self.mach.lane) & np.uint32(1)) == 0)
            if stray.any():
                t = int(np.flatnonzero(stray)[0])
                raise AnalyzeError(
                    f"{self.where(pc)}: {self.describe_thread(t)} executes {ins.opcode} with membermask "
                    f"0x{int(mm[t]):08x}, which does not name its own lane: undefined behaviour (PTX ISA)")
            pending = self.warp_arrived.get(key)
            if (pending is None or not pending[0].any()) and \
                    not warpsync.waiting_for(lanes, mm, self.live, self.mach.W).any():
                self._execute_warp(key, lanes)  # all its lanes are here (converged code): no waiting
                e.pc = pc + 1
                return
            if key not in self.warp_arrived:
                self.warp_arrived[key] = (np.zeros(self.mach.N, dtype=bool), np.zeros(self.mach.N, dtype=np.uint32))
            arrived, masks = self.warp_arrived[key]
            arrived |= lanes
            masks[lanes] = mm[lanes]
            e.waiting, e.lanes = ("warp", key), lanes
        else:
            self.steps -= e.nw  # looking again at an instruction it waits at is no instruction
        self._complete_warp(key)
        if e.waiting is not None and not self._let_another_run():
            self._warp_stuck(e, pc, key)

    def _can_come(self) -> np.ndarray:
        return self.live & ~self._bound_to_exit()

    def _complete_warp(self, key) -> bool:
        """Execute warp-synchronous instruction `key` for the lanes whose membermask is complete, and
        release them (a waiting path whose lanes are only partly complete splits). True if any were."""
        arrived, masks = self.warp_arrived[key]
        W = self.mach.W
        ready = arrived & (warpsync.waiting_for(arrived, masks, self._can_come(), W) == 0)
        if not ready.any():
            return False
        arrived &= ~ready
        self._execute_warp(key, ready)
        released, whole = [], []
        for entry in self.stack:
            if entry.waiting != ("warp", key):
                continue
            done = entry.lanes & ready
            if not done.any():
                continue
            if not (entry.lanes & ~done).any():
                entry.waiting = entry.lanes = None
                entry.pc += 1
                whole.append(entry)
                continue
            # part of its lanes go on (with its lanes whose guard is off); the rest keep waiting
            go = (entry.mask & ~entry.lanes) | done
            entry.mask = entry.lanes = entry.lanes & ~done
            entry.refresh(W)
            released.append(_Entry(entry.pc + 1, go, entry.rpc, W))
        self.stack.extend(released)
        if self.cas_loops and len(whole) > 1:
            self._merge_released(whole)
        return True

    def _execute_warp(self, key, lanes: np.ndarray) -> None:
        if isinstance(key, int):  # bar.warp.sync has nothing to compute
            try:
                self.mach.cur = lanes
                self.ops[key][0](lanes, False)
            except (Unsupported, PTXError) as exc:
                raise AnalyzeError(f"{self.where(key)}: {exc}") from None

    def _warp_stuck(self, e: _Entry, pc: int, key) -> None:
        """No path can run: lanes that a warp-synchronous instruction waits for never execute it."""
        arrived, masks = self.warp_arrived[key]
        W = self.mach.W
        waits = warpsync.waiting_for(arrived, masks, self._can_come(), W)
        t = int(np.flatnonzero(e.lanes & (waits != 0))[0])
        warp, mm = t // WARP, int(masks[t])
        here = warpsync.lane_ids(int(warpsync.ballot(arrived & (masks == mm), W)[warp]), warp)
        missing = warpsync.lane_ids(int(waits[t]), warp)
        gone = np.zeros(self.mach.N, dtype=bool)
        gone[missing] = True
        ins = self.flow.instrs[pc]
        elsewhere = ""
        why = (". Every non-exited thread of the membermask must execute it with the same mask, or the behaviour is "
               "undefined (the GPU may hang or return garbage)")
        for other in reversed(self.stack):
            if not (other.mask & gone).any() or not 0 <= other.pc < len(self.flow.instrs):
                continue
            elsewhere = f"; they wait at {self.where(other.pc)}"
            w = other.waiting
            if isinstance(w, tuple) and w[1] != key and self.flow.instrs[other.pc].parts[0] == ins.parts[0]:
                elsewhere = f"; they execute a different {ins.parts[0]} instruction, at {self.where(other.pc)}"
                why = (": analyze models a warp-synchronous instruction only when the lanes of its membermask meet "
                       "at one instruction (the CUDA guide: all non-exited threads named in mask must execute the "
                       "same intrinsic), and NVVM emits one per branch; call it once, after the branches")
            break
        raise AnalyzeError(
            f"{self.where(pc)}: {ins.opcode} with membermask 0x{mm:08x} in warp {warp}: {_ranges(here)} execute it "
            f"but {_ranges(missing)} named in the mask do not{elsewhere}{why}")

    def _groups(self, key: int) -> int:
        """How many thread groups barrier `key` synchronises apart: each block, or the whole cluster."""
        return 1 if key == CLUSTER_BARRIER else self.mach.blocks

    def _complete(self, key: int, n: int | None, red) -> bool:
        """Complete barrier `key` for each block (or the cluster) where every thread it waits for has
        arrived: release those threads of its waiting paths."""
        arrived = self.arrived[key]
        g = self._groups(key)
        per = self.mach.N // g
        came = arrived.reshape(g, per).any(axis=1)
        if n is None:
            # a thread that ran ahead of a join and then left never came to this barrier: a __syncthreads() in
            # divergent code, not a partition meeting the others further on (_run_ahead_parked)
            short = (self.live | self.ran_ahead_exited) & ~arrived
            if short.any():
                short &= ~self._bound_to_exit()
            done = came & ~short.reshape(g, per).any(axis=1)
        else:
            done = came & (arrived.reshape(g, per).sum(axis=1) >= n)
        if not done.any():
            return False
        go = np.repeat(done, per)
        released = arrived & go
        self.arrived[key] = arrived & ~go
        W = self.mach.W
        split, whole = [], []
        for entry in self.stack:
            if entry.waiting != key or not (entry.mask & go).any():
                continue
            if not (entry.mask & ~go).any():
                entry.waiting = None
                entry.pc += 1
                whole.append(entry)
                continue
            # its threads of blocks whose barrier completed go on; the others keep waiting
            split.append(_Entry(entry.pc + 1, entry.mask & go, entry.rpc, W))
            entry.mask = entry.mask & ~go
            entry.refresh(W)
        self.stack.extend(split)
        if self.cas_loops and len(whole) > 1:
            self._merge_released(whole)
        self.barriers += int(done.sum())
        if red is not None:
            op, c, w = red
            v = (c() & released).reshape(g, per)
            if op == "popc":
                value = v.sum(axis=1).astype(np.uint32)
            elif op == "and":
                value = v.sum(axis=1) == released.reshape(g, per).sum(axis=1)
            else:
                value = v.any(axis=1)
            w(np.repeat(value, per), released, False)
        return True

    def _bound_to_exit(self) -> np.ndarray:
        """Threads parked in the stack below the top at a `ret`/`exit` (an early return): they exit
        without doing anything else, and a barrier on the GPU does not wait for exited threads."""
        out = np.zeros(self.mach.N, dtype=bool)
        above = self.stack[-1].mask.copy()
        instrs = self.flow.instrs
        for entry in reversed(self.stack[:-1]):
            parked = entry.mask & ~above
            if parked.any() and (entry.pc == EXIT or (instrs[entry.pc].parts[0] in ("ret", "exit")
                                                      and instrs[entry.pc].guard is None)):
                out |= parked
            above |= entry.mask
        return out

    def _stuck(self, e: _Entry, pc: int, key: int, n: int | None):
        """No path can run: the threads that barrier `key` waits for never arrive."""
        arrived = self.arrived[key] & self.live
        g = self._groups(key)
        came = np.repeat(arrived.reshape(g, -1).any(axis=1), self.mach.N // g)  # the blocks it waits in
        missing = (self.live | self.ran_ahead_exited) & ~arrived & came
        elsewhere = ""
        for other in reversed(self.stack):
            if (other.mask & missing).any() and 0 <= other.pc < len(self.flow.instrs):
                elsewhere = f"; they wait at {self.where(other.pc)}"
                break
        if n is None:
            raise AnalyzeError(
                f"{self.where(pc)}: divergent barrier: {_ranges(np.flatnonzero(arrived))} reach it but "
                f"{_ranges(np.flatnonzero(missing))} of the {'cluster' if key == CLUSTER_BARRIER else 'block'} do "
                f"not{elsewhere}. A __syncthreads() that not "
                f"every thread reaches is undefined behaviour (the GPU may hang or go on with wrong data)")
        raise AnalyzeError(
            f"{self.where(pc)}: barrier {key} waits for {n} threads, but only {int(arrived.sum())} arrive "
            f"({_ranges(np.flatnonzero(arrived))}) and no other thread can{elsewhere}: the GPU would hang")


def _ranges(ids: np.ndarray) -> str:
    """'threads 0-31, 64-95' from sorted thread ids."""
    ids = [int(i) for i in ids]
    if not ids:
        return "no threads"
    parts, start, prev = [], ids[0], ids[0]
    for i in ids[1:] + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    word = "thread" if len(ids) == 1 else "threads"
    if len(parts) > 6:
        parts = parts[:6] + ["..."]
    return f"{word} {', '.join(parts)}"
