"""Global and local memory traffic, counted per PTX instruction (a site) and summed per source line.

The shared-memory ledger's machinery (ledger.Ledger: sites, batches of warps, the SASS widths ptxas
chose, the run-time merge of a line's narrow accesses into its SASS vectors) with the sector rules of
coalescing.py in place of the bank model. A site's `wavefronts` and `ideal` hold its 32-byte sectors
and ideal sectors as the source view counts them, `counted` its sectors as the kernel's counters do (the
same but for 16-byte cp.async). Kinds: "global load", "global store", "global atomic", "global ldgsts" (cp.async's
global read), "local load", "local store".
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze import sass
from smemlab.banks.coalescing import (WARP, atomic_sector_costs, copy_counted_sectors, copy_sector_costs, has_ideal,
                                     local_requests, sector_costs)
from smemlab.analyze.ledger import Ledger
from smemlab.analyze.memory import GLOBAL_BASE

GLOBAL_KINDS = ("global load", "global store", "global atomic")
EXTRA_KINDS = ("global ldgsts", "local load", "local store")
MEMORY_KINDS = GLOBAL_KINDS + EXTRA_KINDS


class MemoryLedger(Ledger):
    keep = False  # keep every request's addresses (site.sources), for the whole launch (launch.py)

    def __init__(self, warps: int, plan=None, block_of=(), *, keep: bool = False, reductions: frozenset = frozenset(),
                 aggregated: frozenset = frozenset()):
        super().__init__(warps, plan, block_of)
        self.keep = keep or type(self).keep
        self.reductions = reductions  # pcs of atomics whose result nothing reads: ptxas makes them RED
        self.aggregated = aggregated  # pcs of atomics ptxas makes once for the warp (sass.aggregated_atomic_lines)

    def flush(self) -> None:
        for site in self._pending:
            a = np.stack(site.pending).reshape(-1, WARP)
            warp_of = np.tile(np.arange(self.W), len(site.pending))
            site.pending = []
            live = (a >= 0).any(axis=1)
            a, warp_of = a[live], warp_of[live]
            chunks = None
            if site.partners:
                chunks = np.stack(site.partners).reshape(-1, WARP)[live]
                site.partners = []
            if self.keep:
                site.sources.append(a)
                if chunks is not None:
                    site.kept_chunks.append(chunks)
            site.requests += int(a.shape[0]) * (local_requests(site.size) if site.kind.startswith("local") else 1)
            if not a.shape[0]:
                continue
            sectors, counted, ideal = site_costs(site, a, chunks)
            site.wavefronts += int(sectors.sum())
            site.counted += int(counted.sum())
            site.ideal += int(ideal.sum())
            site.degree = max(site.degree, int(sectors.max()))
            # the costliest warp: the most sectors beyond its ideal, then the most sectors
            k = int(np.lexsort((sectors, sectors - ideal))[-1])
            if int(sectors[k]) > site.worst_wavefronts:
                site.worst_wavefronts = int(sectors[k])
                site.worst_addresses = a[k].copy()
                site.worst_warp = int(warp_of[k])
        self._pending = []
        self._rows = 0

    def access(self, acc, space: str, offsets: np.ndarray, lanes: np.ndarray, chunks: np.ndarray | None = None) -> None:
        """One warp-instruction's lanes in `space` (global: byte offsets from the global window's
        aligned base; local: each thread's offset in its own frame). `chunks`: a 16-byte cp.async's shared
        32-byte destination chunks, which decide its sectors with the source's (copy_sector_costs)."""
        kind = f"{space} {acc.kind}"
        if kind not in MEMORY_KINDS:
            return
        cache = acc.__dict__.setdefault("_memory_sites", {})
        if kind not in cache:
            size = self.plan.get(acc.pc, acc.size) if acc.kind in ("load", "store") else acc.size
            s = self.site(acc.pc, kind, size, acc.ins.loc, acc.ins.text, generic=acc.space == "generic") if size else None
            if s is not None:
                s.per_lane_atomic = kind == "global atomic" and acc.pc not in self.aggregated
                s.no_ideal = not has_ideal(kind, acc.ins.text) or acc.pc in self.reductions
            cache[kind] = s
        s = cache[kind]
        if s is not None:
            if chunks is not None:
                s.partners.append(np.where(lanes, chunks, -1))
            self.record(s, offsets, lanes, acc.ex.issued_warps)


def site_costs(site, a: np.ndarray, chunks: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sectors as the source view counts them, sectors as the kernel counter counts them, ideal) per request
    of `site` (its addresses `a`, a 16-byte copy's shared chunks `chunks`), by the rules of coalescing.py."""
    if chunks is not None:
        sectors, ideal = copy_sector_costs(a, chunks, site.size)
        counted = copy_counted_sectors(a, chunks)
    elif site.per_lane_atomic:  # the global window's offsets: absolute at GLOBAL_BASE, as the emulation lays them out
        counted, ideal = atomic_sector_costs(a, site.size, base=GLOBAL_BASE)
        # The source page's "L2 Theoretical Sectors Global" of an atomic that returns its value (ATOMG) is the
        # sectors its lanes touch, each once, where the kernel counter also counts the sectors the lanes' order
        # makes the L1 split (measured on an H100: fresh.int_atomics_mix's exchange and compare-and-swap, 127
        # a line against 194, robust.triton.atomics_global's 4-word max/min, 1 a request against 83 a line).
        # A reduction (RED) has no sectors on that page: its line keeps the counter's.
        sectors = counted if site.no_ideal else sector_costs(a, site.size)[0]
    else:
        sectors, ideal = sector_costs(a, site.size, local=site.kind.startswith("local"))
        counted = sectors
    if site.no_ideal:  # none reported (coalescing.py)
        ideal = np.zeros_like(ideal)
    return sectors, counted, ideal


def memory_accesses(instrs) -> dict[int, tuple[str, int]]:
    """pc -> ("global load" | "global store" | "local load" | "local store", bytes) of every ld/st of
    the PTX on global, local or generic addresses (generic ones are matched with LD/ST, which ptxas
    makes of them)."""
    from smemlab.analyze.machine import DTYPES
    from smemlab.analyze.memops import space_of

    out = {}
    for pc, ins in enumerate(instrs):
        if ins.parts[0] not in ("ld", "ldu", "st") or ins.parts[-1] not in DTYPES:
            continue
        space = {"generic": "global"}.get(space_of(ins), space_of(ins))
        if space not in ("global", "local"):
            continue
        vec = next((int(p[1:]) for p in ins.parts if p in ("v2", "v4", "v8")), 1)
        op = "store" if ins.parts[0] == "st" else "load"
        out[pc] = (f"{space} {op}", vec * np.dtype(DTYPES[ins.parts[-1]]).itemsize)
    return out


def unread_atomics(instrs, forms: dict | None = None, files: dict | None = None) -> frozenset:
    """The pcs of global `atom`s whose destination register no instruction reads: ptxas issues those as RED,
    which Nsight Compute reports with no ideal. Not where the SASS (`forms`: sass.global_atomic_forms) has only
    ATOMG on the atom's line: ptxas keeps the returning form for an acquire (`atom.acq_rel`, Triton's default
    for tl.atomic_*), and Nsight Compute gives those an ideal (measured on an H100: the robustness corpus's
    Triton histogram, atomics and lock kernels, 2026-11-27)."""
    read = sass.registers_read(instrs) | {None}  # None: a destination that is not a register
    out = set()
    for pc, ins in enumerate(instrs):
        if ins.parts[0] != "atom" or "global" not in ins.parts or not ins.operands:
            continue
        made = forms.get(sass.source_line(ins.loc, files or {})) if forms is not None else None
        # only REDs on the line: ptxas found the value unused where the PTX still moves it somewhere (Triton's
        # relaxed tl.atomic_min/max: robust.triton.atomics_global, line 312)
        if made != {"RED"} and (getattr(ins.operands[0], "name", None) in read or made == {"ATOMG"}):
            continue
        out.add(pc)
    return frozenset(out)


def attach(ledger: Ledger, flow, cubin: bytes, symbol: str, files: dict[int, str], keep: bool = False) -> MemoryLedger:
    """A memory ledger for the run, with the SASS's widths of its global and local loads and stores
    (sass.plan, as for shared memory), hung on the shared ledger where memops.py finds it; `keep`: with
    every request's addresses kept in its site's `sources`."""
    text = sass.listing_text(cubin) if cubin else None
    listing = sass.parse_memory_sass(text, symbol) if text is not None else None
    sites = memory_accesses(flow.instrs)
    plan = sass.plan(flow.instrs, flow.block_of, sites, listing, files, flow=flow)
    plan.unrolled = sass.unrolled_loops(text, symbol, flow, sites, listing, files)
    aggregated, forms = frozenset(), None
    if text is not None:
        forms = sass.global_atomic_forms(text, symbol)
        lines = sass.aggregated_atomic_lines(text, symbol)
        aggregated = frozenset(pc for pc, ins in enumerate(flow.instrs)
                               if ins.parts[0] in ("atom", "red") and sass.source_line(ins.loc, files) in lines)
    mem = MemoryLedger(ledger.W, plan, flow.block_of, keep=keep, reductions=unread_atomics(flow.instrs, forms, files),
                       aggregated=aggregated)
    ledger.memory = mem
    return mem


__all__ = ["MemoryLedger", "memory_accesses", "attach", "GLOBAL_KINDS", "EXTRA_KINDS", "MEMORY_KINDS"]
