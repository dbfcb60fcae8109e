"""The whole launch's global and local traffic: every block of a small grid, or a sample, summed.

Nsight Compute counts the grid; one emulated block is one term of the sum. `--blocks all` emulates
every block where the grid has at most ALL_EMULATED of them (each total exact); past that, and for
`--blocks N`, a sample is emulated (`sample`: the first block, its neighbours along each dimension,
the last block of each dimension, the far corner, then blocks spread evenly) and the rest follows from
the translation rule, or failing it from the sample's mean (each total marked extrapolated):

Translation rule. Where every sampled block makes the same requests as block (0,0,0) (the same sites,
in the same order, with the same active lanes), each moved by a fixed number of bytes per step of
blockIdx in each dimension (Dx, Dy, Dz per site, read off the neighbours and checked on every other
sampled block), every block's requests are taken to be block 0's moved by x*Dx + y*Dy + z*Dz. Moving
a request by t bytes changes its sectors only through t mod 32 (sectors are 32-byte aligned) and
never its ideal, so a site costs the sum over the residues r of (blocks whose move is r mod 32) x
(block 0's requests moved by r): at most 32 costings a site, whatever the grid. A transpose's 16,384
blocks are the few residues its row and column steps make. Local memory (each thread's own frame)
must not move at all. A 16-byte cp.async's counted sectors go by 128-byte lines and its shared
destinations (coalescing.copy_counted_sectors): its residues are mod 128, and its destinations must be
the same in every sampled block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd

import numpy as np

from smemlab.banks.coalescing import LINE, SECTOR
from smemlab.analyze.globalledger import MEMORY_KINDS, site_costs

ALL_EMULATED = 64  # --blocks all emulates every block of a grid this small
DEFAULT_SAMPLE = 12


@dataclass
class LaunchTotals:
    blocks: int  # in the grid
    emulated: list[tuple[int, int, int]]
    method: str  # "every block", "translation", "sample mean"
    totals: dict[str, dict] = field(default_factory=dict)  # kind -> requests, sectors, ideal_sectors, exact

    @property
    def exact(self) -> bool:
        return self.method == "every block"


def sample(grid: tuple[int, int, int], n: int) -> list[tuple[int, int, int]]:
    """Up to `n` blocks (at least the first, its neighbours and the last of each dimension): the
    blocks most likely to differ (edges of a grid that does not divide the data), then spread evenly."""
    last = tuple(g - 1 for g in grid)
    must = [(0, 0, 0)] + [tuple(int(i == d) for i in range(3)) for d in range(3) if grid[d] > 1] \
        + [tuple(last[i] if i == d else 0 for i in range(3)) for d in range(3) if grid[d] > 1] + [last]
    out = list(dict.fromkeys(must))
    total = grid[0] * grid[1] * grid[2]
    for k in np.linspace(0, total - 1, num=max(0, n - len(out)) + 2, dtype=np.int64)[1:-1]:
        b = (int(k % grid[0]), int(k // grid[0] % grid[1]), int(k // (grid[0] * grid[1])))
        if b not in out:
            out.append(b)
    return out[:max(n, len(dict.fromkeys(must)))]


def every_block(grid) -> list[tuple[int, int, int]]:
    return [(x, y, z) for z in range(grid[2]) for y in range(grid[1]) for x in range(grid[0])]


def whole_launch(run, grid: tuple[int, int, int], blocks: str | int,
                 cluster: tuple[int, int, int] = (1, 1, 1)) -> LaunchTotals:
    """`run(block_index)`: the Report of one block (of its whole cluster where the launch has clusters of shape
    `cluster`: the sum then goes over the clusters, each emulated once at its first block), with its requests'
    addresses kept. `blocks`: "all" or how many blocks (clusters) to emulate at most."""
    units = tuple(g // c for g, c in zip(grid, cluster))  # what one run covers: a block, or a cluster
    total = units[0] * units[1] * units[2]
    in_grid = total * cluster[0] * cluster[1] * cluster[2]

    def origin(u):
        return tuple(i * c for i, c in zip(u, cluster))

    if blocks == "all" and total <= ALL_EMULATED or (blocks != "all" and int(blocks) >= total):
        chosen = every_block(units)
    else:
        chosen = sample(units, DEFAULT_SAMPLE if blocks == "all" else int(blocks))
    reports = dict(zip(chosen, in_order(run, [origin(u) for u in chosen])))
    emulated = [origin(u) for u in chosen]
    if len(chosen) == total:
        return LaunchTotals(in_grid, emulated, "every block", _summed(reports.values(), exact=True))
    moves = _moves(reports, units)
    if moves is not None:
        return LaunchTotals(in_grid, emulated, "translation", _translated(reports[(0, 0, 0)], moves, units))
    mean = _summed(reports.values(), exact=False)
    for t in mean.values():
        for k in ("requests", "sectors", "ideal_sectors"):
            t[k] = round(t[k] * total / len(chosen))
    return LaunchTotals(in_grid, emulated, "sample mean", mean)


def in_order(run, origins) -> list:
    """The reports of `run(origin)` for each block (cluster) in turn, each starting from the global memory the one
    before it left: the launch as if its blocks ran one after another in that order. A block that reads what
    another wrote sees it: the last block of a threadfence reduction, which counts the others in with an atomic
    ticket, finds itself last and sums their partials; the blocks after the first to take a lock find the
    partial sums it left. Each block emulated alone would find itself first everywhere."""
    from smemlab.analyze.args import carried

    reports, left = [], None
    for o in origins:
        with carried(left):
            r = run(o)
        left = getattr(r, "buffers", None)
        reports.append(r)
    return reports


def _summed(reports, exact: bool) -> dict:
    out = {k: {"requests": 0, "sectors": 0, "ideal_sectors": 0, "exact": exact} for k in MEMORY_KINDS}
    for r in reports:
        for k in MEMORY_KINDS:
            t = r.memory_totals(k)
            for f in ("requests", "sectors", "ideal_sectors"):
                out[k][f] += t[f]
    return out


def _rows(report) -> dict[tuple, np.ndarray]:
    """(pc, kind, size) -> every request of the site in order, (requests, 32) addresses, -1 inactive."""
    out = {}
    for s in report.memory_sites:
        if s.sources:
            out[(s.pc, s.kind, s.size)] = np.concatenate(s.sources)
    return out


def _chunks(report) -> dict[tuple, np.ndarray]:
    """(pc, kind, size) -> a 16-byte cp.async's shared 32-byte destination chunks, as _rows' addresses."""
    return {(s.pc, s.kind, s.size): np.concatenate(s.kept_chunks) for s in report.memory_sites if s.kept_chunks}


def _move(a: np.ndarray, b: np.ndarray) -> int | None:
    """The bytes every active lane of `a` moved by to give `b`; None where they are not one move."""
    if a.shape != b.shape or not np.array_equal(a < 0, b < 0):
        return None
    d = (b - a)[a >= 0]
    return int(d[0]) if d.size and np.all(d == d[0]) else (0 if not d.size else None)


def _moves(reports: dict, grid) -> dict[tuple, tuple[int, int, int]] | None:
    """Per site of block 0, its move per step of blockIdx (Dx, Dy, Dz), where the translation rule
    holds on every sampled block; else None."""
    base = _rows(reports[(0, 0, 0)])
    rows = {b: _rows(r) for b, r in reports.items()}
    if any(set(r) != set(base) for r in rows.values()):
        return None
    dests = _chunks(reports[(0, 0, 0)])
    for r in reports.values():  # a copy's destinations decide its sectors: they must not move
        mine = _chunks(r)
        if set(mine) != set(dests) or any(not np.array_equal(mine[k], dests[k]) for k in dests):
            return None
    steps = {}
    for key, a in base.items():
        d = []
        for dim in range(3):
            nb = tuple(int(i == dim) for i in range(3))
            m = _move(a, rows[nb][key]) if nb in rows else 0
            if m is None or (key[1].startswith("local") and m):
                return None
            d.append(m)
        steps[key] = tuple(d)
    for b, r in rows.items():
        for key, a in base.items():
            want = sum(bi * di for bi, di in zip(b, steps[key]))
            if _move(a, r[key]) != want:
                return None
    return steps


def _residues(count: int, step: int, mod: int = SECTOR) -> np.ndarray:
    """How many of i = 0 .. count-1 have i * step = r (mod `mod`), for each r."""
    out = np.zeros(mod, dtype=np.int64)
    s = step % mod
    period = mod // gcd(s, mod)
    for i in range(min(period, count)):
        out[i * s % mod] += count // period + (i < count % period)
    return out


def _translated(report, moves: dict, grid) -> dict:
    out = {k: {"requests": 0, "sectors": 0, "ideal_sectors": 0, "exact": False} for k in MEMORY_KINDS}
    blocks = grid[0] * grid[1] * grid[2]
    base, dests = _rows(report), _chunks(report)
    sites = {(s.pc, s.kind, s.size): s for s in report.memory_sites}
    for key, a in base.items():
        chunks = dests.get(key)
        mod = SECTOR if chunks is None else LINE
        hist = np.zeros(mod, dtype=np.int64)
        hist[0] = 1
        for dim in range(3):  # the residues of x*Dx + y*Dy + z*Dz: a cyclic convolution per dimension
            h = _residues(grid[dim], moves[key][dim], mod)
            hist = np.array([sum(hist[(r - q) % mod] * h[q] for q in np.flatnonzero(h)) for r in range(mod)])
        _, kind, size = key
        t = out[kind]
        t["requests"] += a.shape[0] * blocks
        for r in np.flatnonzero(hist):
            moved = np.where(a >= 0, a + int(r), -1)
            _, sectors, ideal = site_costs(sites[key], moved, chunks)
            t["sectors"] += int(sectors.sum()) * int(hist[r])
            t["ideal_sectors"] += int(ideal.sum()) * int(hist[r])
    return out
