"""Local memory that ptxas makes: register spills, counted as Nsight Compute counts them.

Where ptxas runs out of registers it stores values to the thread's local frame and loads them back
(STL/LDL `[R1+offset]`, which nvdisasm marks `(*"SpillRefill"*)`). The PTX has nothing of it, so the
emulator never executes it: this module finds the spills in the SASS and works out how often each one
runs per warp, and with which lanes, from the SASS's control flow against what the emulator executed.
Each spill then counts as a "local load" or "local store" on the source line the SASS names, by the
local-memory rules of banks/coalescing.py (the lanes' words interleaved; every lane at the same frame
offset: one 128-byte row of 4 sectors a 4-byte word for a full warp).

The rule, per spill instruction S in SASS basic block B:

1. Anchors. The instructions of one (file, line, kind) (kinds: barrier, shared/global load/store/atomic,
   ldmatrix, shuffle, cp.async, conditional branch) lie in some SASS blocks and some PTX blocks; where
   there are as many of one as of the other, they are the same code in the same order (a prologue's
   copy, then the loop's), paired in order. A pair anchors the SASS block to the PTX block where it has
   as many PTX instructions as SASS ones, or more for a memory access ptxas may merge (never fewer:
   ptxas copied the code, unrolling a loop), none merged at run time (sass.Plan.coalesce), and one of
   the SASS ones is not predicated (`@P0 LDG`: ptxas may have if-converted a branch of the PTX). A
   branch pair anchors its sides instead: the side that is not the branch's reconvergence point, in
   each, entered only from the branch (where neither side reconverges, the fall-through with the
   fall-through). The SASS block then runs whenever the PTX block does, with the same lanes: once per
   emulated visit of it, per warp with a lane in it.
2. Control equivalence. Blocks A and B of the SASS that are in the same loops, where A dominates B and
   B post-dominates A (or the other way round), run equally often with the same lanes: B takes the
   visits of the first anchored block equivalent to it (the block of a loop's back branch, with its
   BAR.SYNC, gives the loop's head its iterations; the entry block's barrier gives a spill before a
   loop its one run per warp).
3. Loop edges. A block outside a SASS loop whose only successor is the loop's head (its preheader), or
   whose predecessors are all in the loop (the landing after it), runs once each time a warp enters
   the loop: the PTX loop (a natural loop of the PTX's flow graph) that holds the PTX block of an
   anchor of the SASS loop's own body, entered by the warp from outside it (the emulator's trace of
   blocks, in order), with the lanes it enters with. Rules 2 and 3 repeat until nothing changes.
4. What none of these places is not counted (`Report.uncounted_spills`, named in the notes).

A spill is predicated rarely; its predicate is ignored (the block's lanes). Checked against Nsight Compute
on an H100 (docs/notes/2026-11-spills.md: tools/analyze_truth/kernels/spills.cu and the package kernels
that spill, every spill's runs exact).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_INSN = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(@!?U?P[T\d]+\s+)?([A-Z][A-Za-z0-9_.]*)\s*(.*?)\s*;")
_LABEL = re.compile(r"^\s*(\.L_x_\d+):")
_TARGET = re.compile(r"`\((\.L_x_\d+)\)")
_PREDICATE_OPERAND = re.compile(r"^!?U?P[T\d]+\s*,")

# SASS opcode (without modifiers) -> the kind it shares with the PTX (_ptx_kind)
_SASS_KIND = {"BAR": "barrier", "LDS": "shared load", "STS": "shared store", "ATOMS": "shared atomic",
              "LDG": "global load", "STG": "global store", "ATOMG": "global atomic", "REDG": "global atomic",
              "RED": "global atomic", "LDSM": "ldmatrix", "SHFL": "shuffle", "LDGSTS": "cp.async"}
MERGEABLE = ("shared load", "shared store", "global load", "global store")  # ptxas may make one of several


@dataclass(frozen=True)
class SassInsn:
    pc: int  # the address nvdisasm prints
    file: str  # base name of the source file
    line: int
    guarded: bool
    opcode: str  # with its modifiers
    operands: str
    text: str
    target: str | None = None  # a branch's label


@dataclass(frozen=True)
class Spill:
    pc: int
    op: str  # "local load" | "local store"
    width: int  # bytes per lane
    offset: int  # bytes into the thread's frame
    file: str
    line: int
    text: str


def parse(text: str, symbol: str) -> tuple[list[SassInsn], dict[str, int]]:
    """Kernel `symbol`'s instructions in listing order, and label -> the index of the instruction it marks."""
    from smemlab.analyze.sass import _kernel_lines

    out, labels, pending = [], {}, []
    for file, line, raw in _kernel_lines(text, symbol):
        lab = _LABEL.match(raw)
        if lab:
            pending.append(lab.group(1))
            continue
        m = _INSN.match(raw)
        if not m:
            continue
        for name in pending:
            labels[name] = len(out)
        pending = []
        tgt = _TARGET.search(m.group(4))
        out.append(SassInsn(int(m.group(1), 16), file, line, bool(m.group(2)), m.group(3), m.group(4), raw.strip(),
                            tgt.group(1) if tgt else None))
    return out, labels


def is_spill(ins: SassInsn, ptx_has_local: bool) -> bool:
    """An STL/LDL of ptxas's: marked SpillRefill, or any where the PTX has no local memory of its own."""
    base = ins.opcode.split(".")[0]
    return base in ("STL", "LDL") and ("SpillRefill" in ins.text or not ptx_has_local)


def spill_of(ins: SassInsn) -> Spill:
    from smemlab.analyze.sass import memory_operand

    width, _, offset = memory_operand(ins.opcode.split(".")[1:], ins.operands) or (4, "", 0)
    op = "local store" if ins.opcode.startswith("STL") else "local load"
    return Spill(ins.pc, op, width, offset, ins.file, ins.line, ins.text.split("(*")[0].strip())


# ---------------------------------------------------------------------------------------- graphs


@dataclass
class Graph:
    """A flow graph of `n` blocks entered at block 0: dominators, post-dominators (`n`: the virtual
    exit) and natural loops."""

    n: int
    succ: list[list[int]]  # may name n, the exit
    idom: list[int | None] = None
    ipdom: list[int | None] = None
    loops: dict[int, set[int]] = None  # head -> its body (the head included)
    within: list[frozenset] = None  # block -> the heads of the loops it is in

    def __post_init__(self):
        from smemlab.analyze.cfg import _postdominators

        n = self.n
        self.preds = [[] for _ in range(n + 1)]
        for b in range(n):
            for s in self.succ[b]:
                self.preds[s].append(b)
        # dominators: post-dominators of the reversed graph, whose exit (n) leads to the entry
        rev = [[p for p in self.preds[b]] + ([n] if b == 0 else []) for b in range(n)]
        idom = _postdominators(n, rev)
        self.idom = [None if d is None or d == n else d for d in idom]
        self.idom[0] = None
        self.reach = self._reachable()
        self.ipdom = _postdominators(n, self.succ)
        self.loops = {}
        for b in range(n):
            if b not in self.reach:
                continue
            for h in self.succ[b]:
                if h < n and self.dominates(h, b):
                    body = self.loops.setdefault(h, {h})
                    todo = [b]
                    while todo:
                        x = todo.pop()
                        if x in body:
                            continue
                        body.add(x)
                        todo.extend(p for p in self.preds[x] if p in self.reach)
        within = [set() for _ in range(n)]
        for h, body in self.loops.items():
            for b in body:
                within[b].add(h)
        self.within = [frozenset(w) for w in within]

    def _reachable(self) -> set[int]:
        seen, todo = set(), [0] if self.n else []
        while todo:
            x = todo.pop()
            if x in seen or x >= self.n:
                continue
            seen.add(x)
            todo.extend(self.succ[x])
        return seen

    def dominates(self, a: int, b: int) -> bool:
        while b is not None:
            if a == b:
                return True
            b = self.idom[b]
        return False

    def post_dominates(self, a: int, b: int) -> bool:
        seen = 0
        while b is not None and seen <= self.n:
            if a == b:
                return True
            b = self.ipdom[b] if b < self.n else None
            seen += 1
        return False

    def equivalent(self, a: int, b: int) -> bool:
        """Whether `a` and `b` run equally often: the same loops, one dominating and the other post-dominating."""
        if self.within[a] != self.within[b]:
            return False
        return ((self.dominates(a, b) and self.post_dominates(b, a))
                or (self.dominates(b, a) and self.post_dominates(a, b)))

    def innermost(self, b: int) -> int | None:
        """The head of the smallest loop `b` is in."""
        heads = self.within[b]
        return min(heads, key=lambda h: len(self.loops[h])) if heads else None


def sass_graph(insns: list[SassInsn], labels: dict[str, int]) -> tuple[Graph, list[int]]:
    """The SASS's flow graph, and the block of each instruction. Branches go to their label (and on, where
    predicated); EXIT and RET end a thread (predicated: or go on); a call returns to the next instruction."""
    n = len(insns)
    lead = [False] * n
    if n:
        lead[0] = True
    for i, ins in enumerate(insns):
        base = ins.opcode.split(".")[0]
        if base in ("BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "BREAK") and i + 1 < n:
            lead[i + 1] = True
        if base in ("BRA", "JMP") and ins.target in labels:
            lead[labels[ins.target]] = True
    starts = [i for i in range(n) if lead[i]]
    block_of, b = [0] * n, -1
    for i in range(n):
        b += lead[i]
        block_of[i] = b
    nb = len(starts)
    succ = []
    for k in range(nb):
        last = insns[(starts[k + 1] if k + 1 < nb else n) - 1]
        base = last.opcode.split(".")[0]
        conditional = last.guarded or bool(_PREDICATE_OPERAND.match(last.operands)) or ".ANY" in last.opcode
        nxt = [k + 1] if k + 1 < nb else [nb]
        if base in ("BRA", "JMP"):
            to = [block_of[labels[last.target]]] if last.target in labels else [nb]
            out = to + (nxt if conditional else [])
        elif base in ("EXIT", "RET"):
            out = [nb] + (nxt if last.guarded else [])
        elif base in ("BRX", "JMX"):  # an indirect branch: anywhere (no spill is placed through it)
            out = [nb]
        else:
            out = nxt
        succ.append(sorted(set(out)))
    return Graph(nb, succ), block_of


def ptx_graph(flow) -> Graph:
    nb = len(flow.starts)
    return Graph(nb, [list(s) for s in flow.bsucc])


# ---------------------------------------------------------------------------------------- anchors


def _ptx_kind(ins) -> str | None:
    from smemlab.analyze.memops import space_of

    op = ins.parts[0]
    if op in ("bar", "barrier") and (len(ins.parts) < 2 or ins.parts[1] != "warp") and "cluster" not in ins.parts:
        return "barrier"
    if op == "ldmatrix":
        return "ldmatrix"
    if op == "shfl":
        return "shuffle"
    if op == "cp" and "async" in ins.parts and "bulk" not in ins.parts:
        return "cp.async"
    if op in ("ld", "st", "atom", "red"):
        space = space_of(ins)
        space = "global" if space == "generic" and op in ("atom", "red") else space
        what = {"ld": "load", "st": "store"}.get(op, "atomic")
        if space in ("shared", "global"):
            return f"{space} {what}"
    return None


def _sass_kind(ins: SassInsn) -> str | None:
    return _SASS_KIND.get(ins.opcode.split(".")[0])


def anchors(insns: list[SassInsn], block_of: list[int], flow, files: dict[int, str], sg: Graph, pg: Graph,
            merged: frozenset = frozenset()) -> dict[int, int]:
    """SASS block -> the PTX block it runs with (rule 1 of the module). `merged`: PTX pcs whose accesses
    merge at run time (sass.Plan.coalesce)."""
    sass_at: dict[tuple, list[int]] = defaultdict(list)
    for i, ins in enumerate(insns):
        k = _sass_kind(ins) or ("branch" if _conditional(ins) else None)
        if k is not None:
            sass_at[(ins.file, ins.line, k)].append(i)
    ptx_at: dict[tuple, list[int]] = defaultdict(list)
    for pc, ins in enumerate(flow.instrs):
        k = _ptx_kind(ins) or ("branch" if ins.parts[0] == "bra" and ins.guard is not None else None)
        if k is not None and ins.loc is not None:
            ptx_at[(Path(files.get(ins.loc.file, "")).name, ins.loc.line, k)].append(pc)
    out: dict[int, int] = {}
    for key, idx in sorted(sass_at.items(), key=lambda kv: kv[1][0]):
        pcs = ptx_at.get(key)
        if not pcs or any(pc in merged for pc in pcs):
            continue
        sblocks = _grouped(idx, lambda i: block_of[i])
        pblocks = _grouped(pcs, lambda pc: flow.block_of[pc])
        if len(sblocks) != len(pblocks):
            continue
        for (sb, si), (pb, pp) in zip(sblocks, pblocks):  # the same code, in the same order
            if key[2] == "branch":
                for a, b in _branch_sides(sg, sb, pg, pb):
                    out.setdefault(a, b)
                continue
            if len(pp) < len(si) or (len(pp) > len(si) and key[2] not in MERGEABLE):
                continue
            if not all(insns[i].guarded for i in si):
                out.setdefault(sb, pb)
    return out


def _conditional(ins: SassInsn) -> bool:
    return (ins.opcode == "BRA" and ins.target is not None
            and (ins.guarded or bool(_PREDICATE_OPERAND.match(ins.operands))))


def _grouped(items: list[int], block) -> list[tuple[int, list[int]]]:
    """(block, its items) in the order of the blocks' first items."""
    out: dict[int, list[int]] = {}
    for x in sorted(items):
        out.setdefault(block(x), []).append(x)
    return list(out.items())


def _branch_sides(sg: Graph, sb: int, pg: Graph, pb: int) -> list[tuple[int, int]]:
    """(SASS block, PTX block) of the two sides of a conditional branch ending SASS block `sb` and PTX block
    `pb` (rule 1: the side that is the branch's reconvergence point in one is it in the other, the side that
    runs only after the branch in each is the same code; where neither side reconverges, the two keep the
    PTX's layout: the fall-through is the fall-through). Sides entered from elsewhere too are left out."""
    def sides(g: Graph, b: int):
        if len(g.succ[b]) != 2 or b + 1 not in g.succ[b]:
            return None
        target = next(x for x in g.succ[b] if x != b + 1)
        return b + 1, target, g.ipdom[b]

    s, p = sides(sg, sb), sides(pg, pb)
    if s is None or p is None:
        return []
    (sf, st, sj), (pf, pt, pj) = s, p
    if (sj == st) != (pj == pt) and (sj == sf) != (pj == pf):
        pairs = [(sf, pt), (st, pf)]  # the condition inverted
    else:
        pairs = [(sf, pf), (st, pt)]
    return [(a, b) for a, b in pairs if a < sg.n and b < pg.n and a != sj and b != pj
            and sg.preds[a] == [sb] and pg.preds[b] == [pb]]


# ---------------------------------------------------------------------------------------- counting


def place(sg: Graph, anchored: dict[int, int], pg: Graph, blocks: set[int]) -> dict[int, tuple]:
    """SASS block -> ("block", PTX block) or ("entries", PTX loop head) for each block of `blocks` (and
    whatever rules 2 and 3 need on the way), from the anchored blocks."""
    placed: dict[int, tuple] = {b: ("block", p) for b, p in anchored.items()}
    reach = sorted(sg.reach)

    def loop_entries(head: int) -> tuple | None:
        """The PTX loop an anchor of the SASS loop's own body lies in."""
        body = sg.loops[head]
        for b in sorted(body):
            if sg.innermost(b) == head and placed.get(b, ("",))[0] == "block":
                ph = pg.innermost(placed[b][1])
                if ph is not None:
                    return ("entries", ph)
        return None

    changed = True
    while changed:
        changed = False
        for b in reach:  # 2
            if b in placed:
                continue
            src = next((a for a in sorted(placed) if sg.equivalent(a, b)), None)
            if src is not None:
                placed[b] = placed[src]
                changed = True
        for head, body in sg.loops.items():  # 3
            edges = [b for b in reach if b not in body and b not in placed
                     and ((sg.succ[b] == [head]) or (sg.preds[b] and all(p in body for p in sg.preds[b])))]
            if not edges:
                continue
            how = loop_entries(head)
            if how is not None:
                for b in edges:
                    placed[b] = how
                    changed = True
        if all(b in placed for b in blocks):
            break
    return placed


def count(text: str, symbol: str, flow, files: dict[int, str], merged: frozenset = frozenset()):
    """(spills, their SASS blocks' places) of kernel `symbol`, or None where it has no spill."""
    insns, labels = parse(text, symbol)
    ptx_has_local = any(ins.parts[0] in ("ld", "st") and "local" in ins.parts for ins in flow.instrs)
    where = [(i, spill_of(ins)) for i, ins in enumerate(insns) if is_spill(ins, ptx_has_local)]
    if not where:
        return None
    sg, block_of = sass_graph(insns, labels)
    pg = ptx_graph(flow)
    anchored = anchors(insns, block_of, flow, files, sg, pg, merged)
    wanted = {block_of[i] for i, _ in where}
    placed = place(sg, anchored, pg, wanted)
    return [(s, placed.get(block_of[i]) if block_of[i] in sg.reach else ("never",)) for i, s in where], pg


class Trace:
    """The emulator's visits of PTX basic blocks, in order: (first pc, the block's threads, packed bits)."""

    LIMIT = 1 << 28  # bytes of packed masks kept; past it the spills are left uncounted

    def __init__(self, leaders_block: dict[int, int], threads: int):
        self.block_at = leaders_block  # leader pc -> PTX block
        self.N = threads
        self.blocks: list[int] = []
        self.masks: list[np.ndarray] = []
        self.full = False

    def visit(self, pc: int, mask: np.ndarray) -> None:
        if len(self.blocks) * (self.N + 7) // 8 >= self.LIMIT:
            self.full = True
            return
        self.blocks.append(self.block_at[pc])
        self.masks.append(np.packbits(mask, bitorder="little"))

    def mask(self, i: int) -> np.ndarray:
        return np.unpackbits(self.masks[i], count=self.N, bitorder="little").astype(bool)

    def of_block(self, b: int) -> list[np.ndarray]:
        return [self.mask(i) for i, x in enumerate(self.blocks) if x == b]

    def entries(self, pg: Graph, head: int, warps: int) -> list[np.ndarray]:
        """The threads that enter the PTX loop at `head` from outside it, each time some do."""
        body = pg.loops[head]
        inside = np.zeros(warps, dtype=bool)
        out = []
        for i, b in enumerate(self.blocks):
            m = self.mask(i)
            active = m.reshape(warps, -1).any(axis=1)
            if b == head:
                new = active & ~inside
                if new.any():
                    out.append(m & np.repeat(new, m.size // warps))
            inside = np.where(active, b in body, inside)
        return out


def record(memory, placed_spills, pg: Graph, trace: Trace, files: dict[int, str], warps: int) -> list[Spill]:
    """Each spill's runs into the memory ledger as a local load or store on its line (negative pcs: the
    SASS address, no PTX instruction); the spills left uncounted."""
    from types import SimpleNamespace

    index = {Path(p).name: i for i, p in files.items()}
    uncounted = []
    cache: dict[tuple, list] = {}
    for spill, how in placed_spills:
        if how is None or trace.full:
            uncounted.append(spill)
            continue
        if how[0] == "never":
            continue
        if how not in cache:
            cache[how] = trace.of_block(how[1]) if how[0] == "block" else trace.entries(pg, how[1], warps)
        loc = SimpleNamespace(file=index.get(spill.file, 0), line=spill.line, inlined_at=None)
        site = memory.site(-1 - spill.pc, spill.op, spill.width, loc, spill.text)
        site.no_ideal = True
        for m in cache[how]:
            offsets = np.full(m.size, spill.offset, dtype=np.int64)
            memory.record(site, offsets, m, int(m.reshape(warps, -1).any(axis=1).sum()))
    return uncounted


__all__ = ["Spill", "SassInsn", "Graph", "Trace", "parse", "sass_graph", "ptx_graph", "anchors", "place", "count",
           "record", "is_spill", "spill_of"]
