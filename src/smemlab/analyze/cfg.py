"""Control flow of one kernel: instruction indices of labels, successors, and where branches reconverge.

A warp that diverges at a branch reconverges at the branch's immediate post-dominator (the first
instruction every path from the branch must pass through), the rule of the SIMT reconvergence stack
in GPGPU-Sim and of the hardware before Volta. Post-dominators are computed on basic blocks with
the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm") on the
reversed graph, from a virtual exit that every `ret`/`exit` reaches.
"""

from __future__ import annotations

from dataclasses import dataclass

from smemlab.analyze.ptx import Instr, Label, PTXError, Sym, Targets

EXIT = -1  # the virtual exit: "reconverges only when the threads have exited"
ENDS_THREAD = ("ret", "exit", "trap")


@dataclass
class Flow:
    instrs: list[Instr]
    labels: dict[str, int]  # label -> index of the instruction it marks
    leaders: list[bool]  # instruction starts a basic block
    ipdom: dict[int, int]  # branch index -> reconvergence index (EXIT when paths only meet at the end)
    targets: dict[int, int]  # branch index -> target index
    tables: dict[int, list[int]]  # brx.idx index -> its target indices, in the order of its list
    block_of: list[int] = None  # instruction index -> its basic block
    starts: list[int] = None  # basic block -> index of its first instruction
    bsucc: list[list[int]] = None  # basic block -> its successors (len(starts): the exit)
    _reach: dict = None
    _back: set = None

    def back_edges(self) -> set[tuple[int, int]]:
        """The (block, successor) edges that close a loop: to a block on the depth-first path from the entry."""
        if self._back is None:
            self._back = set()
            on_path, done = set(), set()
            stack = [(0, iter(self.bsucc[0]))] if self.starts else []
            on_path.add(0)
            while stack:
                b, it = stack[-1]
                y = next(it, None)
                if y is None:
                    stack.pop()
                    on_path.discard(b)
                    done.add(b)
                elif y >= len(self.starts) or y in done:
                    continue
                elif y in on_path:
                    self._back.add((b, y))
                else:
                    on_path.add(y)
                    stack.append((y, iter(self.bsucc[y])))
        return self._back

    def loops(self) -> list[tuple[int, int]]:
        """(first instruction, backward branch) of every loop: a branch to itself or before it, sorted."""
        return sorted((t, pc) for pc, t in self.targets.items() if t <= pc)

    def reaches(self, a: int, b: int, stop: int, forward: bool = False) -> bool:
        """Whether a thread at instruction `a` can come to instruction `b` without passing `stop` (an
        instruction index or EXIT); `forward`: without closing a loop (`back_edges`: in this trip of the
        loops around it)."""
        if a == EXIT or b == EXIT:
            return False
        ba, bb = self.block_of[a], self.block_of[b]
        if ba == bb and a <= b:
            return True
        key = (ba, bb, stop, forward)
        if self._reach is None:
            self._reach = {}
        if key not in self._reach:
            avoid = self.block_of[stop] if stop != EXIT else -1
            back = self.back_edges() if forward else set()
            seen, todo, found = set(), [y for y in self.bsucc[ba] if (ba, y) not in back], False
            while todo:
                x = todo.pop()
                if x in seen or x == avoid or x >= len(self.starts):
                    continue
                if x == bb:
                    found = True
                    break
                seen.add(x)
                todo.extend(y for y in self.bsucc[x] if (x, y) not in back)
            self._reach[key] = found
        return self._reach[key]


def is_branch(ins: Instr) -> bool:
    return ins.parts[0] in ("bra", "brx")


def flatten(body: list) -> tuple[list[Instr], dict[str, int], dict[str, list[str]]]:
    instrs, labels, lists = [], {}, {}
    for item in body:
        if isinstance(item, Label):
            labels[item.name] = len(instrs)
        elif isinstance(item, Targets):
            lists[item.name] = item.labels
        else:
            instrs.append(item)
    return instrs, labels, lists


def _label(ins: Instr, labels: dict[str, int], name: str) -> int:
    if name not in labels:
        raise PTXError(f"branch {ins.text!r}: no label {name}")
    return labels[name]


def build_flow(body: list) -> Flow:
    instrs, labels, lists = flatten(body)
    n = len(instrs)
    targets: dict[int, int] = {}
    tables: dict[int, list[int]] = {}
    for i, ins in enumerate(instrs):
        if ins.parts[0] == "brx":  # brx.idx{.uni} index, list
            if len(ins.operands) != 2 or not isinstance(ins.operands[1], Sym) or ins.operands[1].name not in lists:
                raise PTXError(f"branch {ins.text!r}: brx.idx needs a .branchtargets list of the kernel")
            tables[i] = [_label(ins, labels, t) for t in lists[ins.operands[1].name]]
        elif is_branch(ins):
            if len(ins.operands) != 1 or not isinstance(ins.operands[0], Sym):
                raise PTXError(f"branch {ins.text!r}: only direct branches to a label are supported")
            targets[i] = _label(ins, labels, ins.operands[0].name)

    def succs(i: int) -> list[int]:
        ins = instrs[i]
        op = ins.parts[0]
        nxt = i + 1 if i + 1 < n else EXIT
        if op in ENDS_THREAD:
            return [EXIT] if ins.guard is None else [EXIT, nxt]
        if op in ("bra", "brx"):
            to = tables[i] if op == "brx" else [targets[i]]
            return to if ins.guard is None else to + [nxt]
        return [nxt]

    leaders = [False] * n
    if n:
        leaders[0] = True
    for i, ins in enumerate(instrs):
        for t in tables.get(i, [targets[i]] if i in targets else []):
            leaders[t] = True
        if (is_branch(ins) or ins.parts[0] in ENDS_THREAD) and i + 1 < n:
            leaders[i + 1] = True
    # basic blocks
    starts = [i for i in range(n) if leaders[i]]
    block_of = [0] * n
    for b, s in enumerate(starts):
        e = starts[b + 1] if b + 1 < len(starts) else n
        for i in range(s, e):
            block_of[i] = b
    nb = len(starts)
    ends = [(starts[b + 1] if b + 1 < nb else n) - 1 for b in range(nb)]
    bsucc = []
    for b in range(nb):
        out = []
        for s in succs(ends[b]):
            out.append(nb if s == EXIT else block_of[s])
        bsucc.append(sorted(set(out)))
    ipdom_b = _postdominators(nb, bsucc)
    ipdom: dict[int, int] = {}
    for i in list(targets) + list(tables):
        p = ipdom_b[block_of[i]]
        ipdom[i] = EXIT if p is None or p == nb else starts[p]
    return Flow(instrs, labels, leaders, ipdom, targets, tables, block_of, starts, bsucc)


def _postdominators(nb: int, succ: list[list[int]]) -> list[int | None]:
    """Immediate post-dominator of every block (index nb is the virtual exit); None: none found."""
    exit_ = nb
    preds_rev: list[list[int]] = [[] for _ in range(nb + 1)]  # successors in the reversed graph
    for b in range(nb):
        for s in succ[b]:
            preds_rev[s].append(b)
    # reverse postorder of the reversed graph, from the exit
    order, seen = [], [False] * (nb + 1)
    stack = [(exit_, iter(preds_rev[exit_]))]
    seen[exit_] = True
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            order.append(node)
            stack.pop()
        elif not seen[nxt]:
            seen[nxt] = True
            stack.append((nxt, iter(preds_rev[nxt])))
    order.reverse()
    rpo = {b: i for i, b in enumerate(order)}
    idom: list[int | None] = [None] * (nb + 1)
    idom[exit_] = exit_

    def intersect(a: int, b: int) -> int:
        while a != b:
            while rpo[a] > rpo[b]:
                a = idom[a]
            while rpo[b] > rpo[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in order:
            if b == exit_:
                continue
            # predecessors in the reversed graph = successors in the CFG
            cands = [s for s in succ[b] if idom[s] is not None and s in rpo]
            if not cands:
                continue
            new = cands[0]
            for s in cands[1:]:
                new = intersect(s, new)
            if idom[b] != new:
                idom[b] = new
                changed = True
    return idom[:nb]
