"""Shared loads that ptxas hoisted out of a loop: the PTX reads every trip, the SASS once before the loop.

NVVM cannot hoist a read of a `__shared__` scalar out of a loop that stores through a plain pointer (a
generic address may point into shared memory), so its PTX reads `s_variance` every trip of a normalisation
loop `for (i = tid; i < n; i += BLOCK) out[i] = x[i] * s_variance`. ptxas, which knows the store is global
(`STG`), loads it once into a register before the loop. Nsight Compute counts the LDS ptxas kept: once a warp
and loop entry, not once a trip (fresh7.fused_add_rms_norm_vec8: 6 executions measured for 6 warps of 4 trips,
the PTX's 24).

ptxas may also split a counted loop into a loop of the remainder (T mod U trips, one copy of the body) and a
loop unrolled U times (T div U passes), each with its own copy of the hoisted load in front: a lane runs the
first copy when T mod U is not 0, the second when T >= U. `hoisted_loads` recognises the shapes it has seen (one
loop; NVVM's remainder and unrolled loops, each its own SASS loop; ptxas's remainder and U-times loops), nothing
else, from the listing: the line's LDS stand outside every SASS loop that holds the accesses of the PTX loops'
other lines, one in front of each of those loops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from smemlab.analyze import sass as S

# a memory instruction of the listing (any space): what tells which SASS loop a PTX loop became
_MEMORY_OP = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?(LDG|STG|LDS|STS|LDL|STL|LD|ST|ATOMS|ATOMG|ATOM|RED|"
                        r"LDGSTS|LDSM)\b")
_MEMORY_PTX = ("ld", "st", "atom", "red", "cp")


@dataclass(frozen=True)
class Hoist:
    start: int  # the PTX loop's first pc
    end: int  # its backward branch's pc
    # 1: one SASS loop; U: a loop of the remainder and a loop of U copies, a hoisted load before each; 0: another
    # read of the line in the loop (NVVM unrolled it) that ptxas's one load stands for
    unroll: int


def hoisted_loads(text: str | None, symbol: str, flow, sites: dict[int, tuple[str, int]],
                  files: dict[int, str]) -> dict[int, Hoist]:
    """pc -> its Hoist for the shared loads `sites` (pc -> (op, size)) whose line ptxas loads outside the loop
    the PTX reads it in (module docstring). A line qualifies when all its PTX loads lie in loops, the SASS loops
    holding those loops' other memory lines are as many (each PTX loop, NVVM's remainder loop and its unrolled
    one, became one SASS loop), or two for one PTX loop (ptxas's remainder loop and its U-times one), and the
    line's LDS are exactly one in front of each of them (between it and the loop before)."""
    if text is None or flow is None:
        return {}
    loops, placed, _ = S.listing_loops(text, symbol)
    if not loops:
        return {}
    ptx_loops = flow.loops()
    by_line: dict[tuple[str, int], list[int]] = {}
    for pc, (op, _) in sites.items():
        if op == "load":
            by_line.setdefault(S.source_line(flow.instrs[pc].loc, files), []).append(pc)
    memory = [(at, (file, line)) for at, file, line, raw in placed if _MEMORY_OP.search(raw)]
    out: dict[int, Hoist] = {}
    for key, pcs in by_line.items():
        inner = {pc: min(((s, e) for s, e in ptx_loops if s <= pc <= e), key=lambda x: x[1] - x[0], default=None)
                 for pc in pcs}
        if None in inner.values():
            continue
        mine = sorted(set(inner.values()))
        others: dict[tuple[str, int], int] = {}
        for start, end in mine:
            for pc in range(start, end + 1):
                ins = flow.instrs[pc]
                where = S.source_line(ins.loc, files)
                if ins.parts[0] in _MEMORY_PTX and where != key and where[1]:
                    others[where] = others.get(where, 0) + 1
        if not others:
            continue
        image = [(lo, hi) for lo, hi in loops if any(lo <= at <= hi and w in others for at, w in memory)]
        lds = [at for at, file, line, raw in placed if (file, line) == key and " LDS" in raw and "@!PT" not in raw]
        if not image or not lds or any(lo <= at <= hi for at in lds for lo, hi in image):
            continue
        fronts = [lo for lo, _ in image]
        backs = [-1] + [hi for _, hi in image[:-1]]
        if len(lds) != len(image) or any(not b < at < f for at, b, f in zip(sorted(lds), backs, fronts)):
            continue
        if len(mine) == len(image):  # each PTX loop (NVVM's remainder and unrolled loops) its own SASS loop
            unroll = {loop: 1 for loop in mine}
        elif len(mine) == 1 and len(image) == 2:  # ptxas split the one PTX loop
            copies = sorted(sum(1 for at, w in memory if lo <= at <= hi and w in others) for lo, hi in image)
            body = sum(others.values())
            if copies[0] != body or copies[1] % body or copies[1] // body not in S.UNROLLS:
                continue
            unroll = {mine[0]: copies[1] // body}  # (a lane's passes are the same whichever loop comes first)
        else:
            continue
        first = {loop: min(pc for pc in pcs if inner[pc] == loop) for loop in mine}
        for pc in pcs:  # the loop's first read of the line stands for the others ptxas made one register
            loop = inner[pc]
            out[pc] = Hoist(loop[0], loop[1], unroll[loop] if pc == first[loop] else 0)
    return out


class HoistRuns:
    """The executions of hoisted loads (pc -> Hoist) during one entry of their loop, counted as the SASS makes
    them when the block's paths leave it (`leave`): each lane's address at its first trip and its trips T; one
    request a warp of the lanes with T >= 1 (one loop), or of those with T mod U != 0 and of those with T >= U."""

    def __init__(self, hoists: dict[int, Hoist], emit):
        self.hoists = hoists
        self.emit = emit  # (site, offsets, lanes) -> None: the ledger's record of one access
        self.runs: dict[int, dict] = {}  # loop start -> {pc: [site, first offsets, trips]}

    def record(self, site, offsets: np.ndarray, em: np.ndarray) -> None:
        h = self.hoists[site.pc]
        run = self.runs.setdefault(h.start, {})
        have = run.setdefault((site.pc, site.kind), [site, np.zeros_like(offsets), np.zeros(len(em), dtype=np.int64)])
        first = em & (have[2] == 0)
        have[1] = np.where(first, offsets, have[1])
        have[2] += em

    def leave(self, pc: int) -> None:
        for start in [s for s, run in self.runs.items() if not s <= pc <= self._end(run)]:
            self._out(start)

    def finish(self) -> None:
        for start in list(self.runs):
            self._out(start)

    def _end(self, run: dict) -> int:
        return self.hoists[next(iter(run))[0]].end

    def _out(self, start: int) -> None:
        for (pc, _), (site, off, trips) in self.runs.pop(start).items():
            u = self.hoists[pc].unroll
            if not u:
                continue
            parts = [trips > 0] if u == 1 else [trips % u != 0, trips >= u]
            for lanes in parts:
                if lanes.any():
                    self.emit(site, off, lanes)
