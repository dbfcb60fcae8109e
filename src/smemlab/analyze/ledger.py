"""Shared-memory traffic, counted per PTX instruction (a site) and summed per source line.

Every time a warp executes a shared-memory instruction, the byte offsets of its active lanes go to
the bank model (`smemlab.banks.model.simulate`): one request per warp with at least one active
lane, the model's wavefronts, and its ideal (the phases with an active lane). Addresses are
buffered and handed to the model in batches of many warps, so the model runs a few times per
kernel rather than once per warp-instruction.

Kinds of site: "load", "store" (1 to 16 bytes, vector forms as one access of the full width),
"atomic" (atom/red on shared memory), "ldgsts" (cp.async's shared-memory side, counted apart as
Nsight Compute does: in neither the load nor the store totals) and "wgmma" (the operand reads of Hopper's
warpgroup MMA, HGMMA: also apart, as the L1 load counter leaves them out; wgmma.operand_wavefronts). Distributed shared memory
(.shared::cluster, mapa): the whole cluster is emulated; the lanes of an access on the block's own
shared memory count as a shared load, store or atomic, those on another block's as remote requests
(`Site.remote`, no wavefronts), as Nsight Compute counts them per instruction (memops.py).

Shared atomics, measured on an H200 with Nsight Compute (tools/truth/atomic_truth: 46 patterns of one
warp, three forms, every one reproduced): a general ATOMS (add of a variable, max, ...) costs the
largest number of active lanes that address one bank, lanes on the same word counted apart (the
unit serialises them); `atomicAdd(&x, 1)` with its result unused, which ptxas turns into
ATOMS.POPC.INC (the warp's lanes on one word merged into one increment), costs the largest number of
distinct words in one bank, as a store does; ATOMS.CAS costs twice the ATOMS figure (ideal 2).
Which form a site is comes from the SASS (sass.py), else from the PTX (an add of the immediate 1 whose
result is never read). Ideal: one per request. The compare-and-swap loops ptxas emits for float and
64-bit atomicAdd on shared memory ("spin") count each execution of the loop's LDS as a load and of its
ATOMS.CAST.SPIN as the atomic, 2 wavefronts per phase with an active lane (casloop.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

import numpy as np

from smemlab.analyze.hoisting import HoistRuns
from smemlab.banks.model import WARP, simulate
from smemlab.errors import UserError

MODELLED = ("load", "store", "atomic")  # kinds whose wavefronts are modelled
LDGSTS_MODELLED = (4, 8, 16)  # cp.async sizes whose wavefronts are modelled (all three, measured)


def is_modelled(kind: str, size: int) -> bool:
    return kind in MODELLED or kind == "wgmma" or (kind == "ldgsts" and size in LDGSTS_MODELLED)
FLUSH_ROWS = 1 << 15  # warps buffered before the model runs
MAX_OPEN_CHUNKS = 256  # a line's chunks being merged into SASS-width accesses at once, per warp (_coalesce)


@dataclass
class Site:
    pc: int
    kind: str  # load, store, atomic, ldgsts, wgmma
    size: int  # bytes per thread (vector width included)
    file: int
    line: int
    text: str  # the PTX instruction
    generic: bool = False  # reached shared memory through a generic address
    call: tuple[int, int] | None = None  # (file, line) of the kernel's own line it was inlined from, if elsewhere
    requests: int = 0  # warps with an active lane
    issued: int = 0  # warps that executed it, guard on or off (what Nsight counts as executed)
    wavefronts: int = 0
    ideal: int = 0
    degree: int = 0  # worst phase of any warp: 1 = conflict-free
    # global memory: the sectors Nsight Compute's kernel counters count, where `wavefronts` holds the source view's
    # per-instruction ones; they differ for 16-byte cp.async only (coalescing.copy_counted_sectors)
    counted: int = 0
    per_lane_atomic: bool = False  # a global atomic each lane makes (not one ptxas makes for the warp)
    no_ideal: bool = False  # Nsight Compute reports no ideal for it (RED, local memory: coalescing.has_ideal)
    worst_wavefronts: int = -1
    worst_addresses: np.ndarray | None = None  # the costliest warp's 32 byte offsets (-1: inactive)
    worst_warp: int = 0  # its warp index in the block
    atomic_rule: str = "lanes"  # atomics: "lanes" (ATOMS), "words" (ATOMS.POPC.INC), "cas" (ATOMS.CAS), "warp"
    # (one lane's ATOMS after a REDUX of the warp's values),
    # "spin" (one execution of a compare-and-swap loop's ATOMS.CAST.SPIN)
    remote: int = 0  # warp requests with lanes on another block's shared memory (distributed shared memory)
    zfill: bool = False  # cp.async with a source size (LDGSTS...ZFILL): ideal 2 a quarter-warp, not 1
    pending: list = field(default_factory=list)
    sources: list = field(default_factory=list)  # cp.async: each lane's global 16-byte chunk, as `pending`
    partners: list = field(default_factory=list)  # a 16-byte cp.async's global read: each lane's shared 32-byte chunk
    kept_chunks: list = field(default_factory=list)  # those chunks of every kept request (MemoryLedger.keep)


class PlanMisaligned(Exception):
    """A vector width sass.plan gave an access (the SASS's, matched to the PTX's accesses of a line) that its
    addresses do not meet: where two arrays' accesses on one line take the same shape (cosTable[tx][k] and
    block[tz][ty][k], 8 floats each, one of them read by ptxas as LDS.128), the match was the other one."""

    def __init__(self, pc: int, width: int, message: str):
        super().__init__(message)
        self.pc, self.width = pc, width


class Ledger:
    def __init__(self, warps: int, plan=None, block_of=(), *, atomic_rules: dict | None = None,
                 wgmma_places: dict | None = None, copy_forms: dict | None = None,
                 copy_predicates: dict | None = None):
        """`plan`: how ptxas made the PTX's accesses (sass.Plan, for the flow whose PTX basic block of each pc is
        `block_of`); none: every access as the PTX wrote it. The other facts of the SASS, each by pc or line."""
        self.W = warps
        self.sites: dict[int, Site] = {}
        self.plan: dict[int, int] = {}  # pc -> bytes of the SASS access (0: merged into another), see sass.py
        self.coalesce: dict[int, int] = {}  # pc -> width to merge consecutive accesses into (sass.py)
        self.block_of: dict[int, int] = {}  # pc -> its PTX basic block (a vector of ptxas's is in one loop body)
        self.whole: set[int] = set()  # coalesced loads whose line ptxas loads only at the full width (sass.py)
        self.shift: dict[int, int] = {}  # pc -> bytes from its address to where its access starts (sass.py)
        self.relocate: dict[int, int] = {}  # pc -> the source line ptxas's line table gives its access (sass.py)
        self.joins: dict[int, int] = {}  # pc -> the line whose vectors it may complete, where they stand (sass.py)
        self.unions: dict[int, int] = {}  # pc -> its twin's pc: two branches' accesses made one (sass._twins)
        # pc -> (loop's first pc, U, its last pc): a loop ptxas unrolled again (_regroup)
        self.unrolled: dict[int, tuple[int, int, int]] = {}
        # pc -> [(load | store, bytes)]: ptxas's shared accesses of a run of tensormap.replace (tensormaps.py)
        self.tensormap_costs: dict[int, list[tuple[str, int]]] = {}
        if plan is not None:
            self.plan, self.coalesce, self.whole = plan.sizes, plan.coalesce, plan.whole
            self.shift, self.relocate, self.joins = plan.shift, plan.lines, plan.joins
            self.unions = {pc: t for pc, t in plan.unions.items() if pc not in plan.coalesce and t not in plan.coalesce}
            mixed = {v[0] for pc, v in plan.unrolled.items() if pc in plan.coalesce or pc in plan.unions}
            self.unrolled = {pc: v for pc, v in plan.unrolled.items() if v[0] not in mixed}
            self.block_of = dict(enumerate(block_of)) if plan.coalesce else {}
        self.atomic_rules: dict[int, str] = atomic_rules or {}  # pc -> "lanes" | "words" | "spin"
        # pc -> (file, line) of its HGMMA (sass.wgmma_places)
        self.wgmma_places: dict[int, tuple[int, int]] = wgmma_places or {}
        # (file, line) -> the SASS's cp.async form: (zero-filling, prefetching) (sass.copy_forms)
        self.copy_forms: dict[tuple[int, int], tuple[bool, bool]] = copy_forms or {}
        self.copy_predicates: dict[int, str] = copy_predicates or {}  # pc -> its LDGSTS's source predicate (sass.py)
        self._runs: dict[tuple, dict] = {}  # (file, kind) -> the chunks being filled (_coalesce)
        self._open_unions: dict[tuple, list] = {}  # (twin pc, kind, warp) -> [site, offsets, lanes, pcs] (_union)
        self._trips: dict[int, dict] = {}  # loop -> its accesses so far, with each lane's trip (_regroup)
        # loads ptxas hoisted out of their loop (hoisting.py): counted when the paths leave it
        self.hoisted = HoistRuns({}, lambda site, off, lanes: self._record(
            site, off, lanes, int(lanes.reshape(self.W, WARP).any(axis=1).sum())))
        self._rows = 0
        self._pending: list[Site] = []

    def site(self, pc: int, kind: str, size: int, loc, text: str, generic: bool = False) -> Site:
        s = Site(pc, kind, size, loc.file if loc else 0, self.relocate.get(pc, loc.line if loc else 0), text, generic)
        if loc is not None and loc.inlined_at and loc.inlined_at != (s.file, s.line):
            s.call = loc.inlined_at
        if kind == "atomic":
            s.atomic_rule = self.atomic_rules.get(pc, "lanes")
        self.sites[(pc, kind, len(self.sites))] = s
        return s

    def record(self, site: Site, offsets: np.ndarray, em: np.ndarray, issued_warps: int) -> None:
        """offsets: byte offsets in shared memory (int64, one per thread); em: active lanes."""
        if site.pc in self.shift:
            offsets = offsets + self.shift[site.pc]
        if site.pc in self.hoisted.hoists:
            self.hoisted.record(site, offsets, em)
            return
        if site.pc in self.unrolled:  # a run ends where the paths leave its loop (`leave`) or at `finish`
            loop, unroll, last = self.unrolled[site.pc]
            run = self._trips.setdefault(loop, {"unroll": unroll, "last": last, "items": [], "trips": {}})
            trips = run["trips"].setdefault(site.pc, np.zeros(len(em), dtype=np.int64))
            run["items"].append((site, offsets.copy(), em.copy(), trips.copy()))
            trips += em
            return
        if site.pc in self.coalesce:
            self._coalesce(site, offsets, em, issued_warps, self.coalesce[site.pc])
            return
        if site.pc in self.unions:
            self._union(site, offsets, em)
            return
        self._record(site, offsets, em, issued_warps)

    def leave(self, pc: int) -> None:
        """The block's paths are at `pc` (a basic block's first instruction, executor.py): the runs of the loops it
        lies outside are done, the lanes that left them early waiting there too (a loop inside a loop: the inner
        one's runs, one an outer trip)."""
        for loop in [loop for loop, run in self._trips.items() if not loop <= pc <= run["last"]]:
            self._regroup(loop)
        self.hoisted.leave(pc)

    def _regroup(self, loop: int) -> None:
        """A run of a loop ptxas unrolled again by U (sass.unrolled_loops), its accesses as its SASS makes them:
        a lane with T trips makes its first U * (T // U) in the SASS loop, U a pass, its SASS loop's k-th
        access of a pass at its trip U * pass + k (lanes in that pass only: those with U more trips to go);
        then its remainder T % U in the blocks of U/2, U/4 ... 1 copies whose bit the remainder has, largest
        first. One request a warp for each SASS access and pass or block, of the lanes there, whatever PTX trip
        each is at (the PTX runs a warp's trips in lock step)."""
        run = self._trips.pop(loop)
        unroll = run["unroll"]
        total = np.max(np.stack(list(run["trips"].values())), axis=0)
        main = total // unroll * unroll
        rest = total - main
        made: dict[tuple, list] = {}  # (site, slot) -> [addresses, lanes]: each lane there at one of its trips
        for site, off, em, trip in run["items"]:
            slot = np.where(trip < main, trip, -1)
            left, start, size = trip - main, np.zeros_like(trip), unroll // 2
            while size:
                has = (rest & size) != 0
                here = has & (trip >= main) & (left >= start) & (left < start + size)
                slot = np.where(here, (1 << 40) + size * unroll + (left - start), slot)
                start = start + np.where(has, size, 0)
                size //= 2
            for s in np.unique(slot[em]):
                lanes = em & (slot == s)
                have = made.setdefault((site.pc, site.kind, int(s)), [site, np.zeros_like(off), np.zeros_like(em)])
                have[1] = np.where(lanes, off, have[1])
                have[2] |= lanes
        for site, off, lanes in made.values():
            self._record(site, off, lanes, int(lanes.reshape(self.W, WARP).any(axis=1).sum()))

    def _union(self, site: Site, off: np.ndarray, em: np.ndarray) -> None:
        """One of two branches' accesses of one address that ptxas made one access (sass._twins): a warp's lanes
        of the two arms are one request, made when both arms have run or when an arm comes again (a loop);
        an arm that runs alone is its own request (`finish` ends what is still open)."""
        lanes = em.reshape(self.W, WARP)
        offs = off.reshape(self.W, WARP)
        for w in np.flatnonzero(lanes.any(axis=1)):
            key = (self.unions[site.pc], site.kind, int(w))
            open_ = self._open_unions.get(key)
            if open_ is not None and (site.pc in open_[3] or (open_[2] & lanes[w]).any()):
                self._union_out(self._open_unions.pop(key), int(w))
                open_ = None
            if open_ is None:
                self._open_unions[key] = [site, offs[w].copy(), lanes[w].copy(), {site.pc}]
                continue
            open_[1] = np.where(lanes[w], offs[w], open_[1])
            open_[2] |= lanes[w]
            open_[3].add(site.pc)
            if len(open_[3]) == 2:
                self._union_out(self._open_unions.pop(key), int(w))

    def _union_out(self, open_: list, w: int) -> None:
        site, offs, lanes, _ = open_
        off = np.zeros(self.W * WARP, dtype=np.int64)
        em = np.zeros(self.W * WARP, dtype=bool)
        off[w * WARP:(w + 1) * WARP], em[w * WARP:(w + 1) * WARP] = offs, lanes
        self._record(site, off, em, 1)

    def record_copy(self, site: Site, offsets: np.ndarray, em: np.ndarray, issued_warps: int, chunks: np.ndarray) -> None:
        """A cp.async: as `record`, with each thread's global unit of the copy's size (address // size), which
        decides, with the shared side, what the copy costs."""
        site.sources.append(np.where(em, chunks, -1))
        self._record(site, offsets, em, issued_warps)

    def record_operands(self, site: Site, warps: int, wavefronts: int) -> None:
        """One warpgroup's tensor-core operand reads (wgmma.py): a request at each of its `warps`, `wavefronts`
        in all, ideal the same (the canonical layouts read every 128 bytes in one wavefront)."""
        site.issued += warps
        site.requests += warps
        site.wavefronts += wavefronts
        site.ideal += wavefronts
        site.degree = max(site.degree, 1)

    def _record(self, site: Site, offsets: np.ndarray, em: np.ndarray, issued_warps: int) -> None:
        site.issued += issued_warps
        if not site.pending:
            self._pending.append(site)
        site.pending.append(np.where(em, offsets, -1))
        self._rows += self.W
        if self._rows >= FLUSH_ROWS:
            self.flush()

    def _coalesce(self, site: Site, off: np.ndarray, em: np.ndarray, issued: int, width: int) -> None:
        """One line's accesses that together read or write whole aligned `width`-byte chunks, the same
        chunk for each lane in each, become one access of `width` bytes per chunk (what ptxas made of
        an unrolled loop, in whatever order the loop visits the pieces: a row-by-row loop may be
        vectorised along its other index); anything else goes through as it is. A piece that comes
        again before its chunk is complete ends that chunk's group as it is. The pieces of one vector
        come from one PTX loop body (basic block): a chunk filled from two (a loop's unrolled body and
        its remainder loop) is not one access. A load group that ends incomplete, made by distinct
        instructions of one body, covering the chunk from some piece to its end in a size that is not a
        power of two (words 1 to 3 of 4), is the one wide load of the whole chunk ptxas makes of it,
        reading a word it does not use (a thread's loop over a block's warp partials from index 1:
        LDS.128 of words 0-3, then LDS of word 4). Where every SASS load of the line has the chunk's
        width (`whole`), any part of a chunk one body loads is the whole chunk's load: a loop over up to
        4 words that ptxas unrolled to its largest trip count and made one LDS.128, whatever the count.
        Three words of a 16-byte chunk, the fourth anywhere, are read whole too (an unrolled loop over an
        array of 20-byte structs: 4 structs' fields are 5 LDS.128, the unread words with them). A chunk's
        pieces may stand on several lines (one struct's last field, the next one's first three): it
        stands on the line of its lowest piece (`_wide`, as Nsight Compute's source view puts it)."""
        pos = off % width
        plain = np.zeros_like(em)
        for w in np.flatnonzero(em.reshape(self.W, WARP).any(axis=1)):  # each warp's pieces apart
            lanes = slice(w * WARP, (w + 1) * WARP)
            mine = np.zeros_like(em)
            mine[lanes] = em[lanes]
            at = pos[lanes][em[lanes]]
            p = int(at[0])
            if p % site.size or width % site.size or (at != p).any():
                plain |= mine
            else:
                self._piece(site, off, pos, mine, int(w), p, width)
        if plain.any():
            self._record(site, off, plain, int(plain.reshape(self.W, WARP).any(axis=1).sum()))

    def _piece(self, site: Site, off: np.ndarray, pos: np.ndarray, em: np.ndarray, w: int, p: int, width: int) -> None:
        """One warp's piece `p` (its byte in the chunk) of a vector being assembled (`_coalesce`)."""
        groups = self._runs.setdefault((site.file, site.kind), {})
        lanes = slice(w * WARP, (w + 1) * WARP)
        gkey = (site.size, w, np.where(em[lanes], (off - pos)[lanes], -1).tobytes())
        g = groups.get(gkey)
        if g is not None and (p in g["have"] or not self._may_join(g["pcs"], site.pc)):
            self._end_group(groups, gkey)
            g = None
        if g is None:
            if len(groups) >= MAX_OPEN_CHUNKS * self.W:  # chunks that never fill: the oldest goes through as it is
                self._end_group(groups, next(iter(groups)))
            g = groups[gkey] = {"members": [], "have": set(), "em": em, "chunk": off - pos, "width": width, "pcs": []}
        g["pcs"].append(site.pc)
        g["members"].append((site, off, 1, p))
        g["have"].add(p)
        if len(g["have"]) * site.size == width:
            first = min(g["members"], key=lambda m: m[3])[0]
            del groups[gkey]
            self._record(self._wide(first, width), g["chunk"], em, 1)

    def _wide(self, site: Site, width: int) -> Site:
        """The merged access of `width` bytes whose lowest piece is `site`, on that piece's line (the line whose
        vectors it completes, `joins`, where it has one): where a chunk's pieces stand on several lines (one
        struct's last field, the next one's first three), the line Nsight Compute's source view gives its
        LDS.128."""
        line = self.joins.get(site.pc, site.line)
        key = (site.pc, site.kind, "wide", width, line)
        w = self.sites.get(key)
        if w is None:
            w = self.sites[key] = Site(site.pc, site.kind, width, site.file, line, site.text + f"  (merged: {width} bytes)",
                                       site.generic, call=site.call, per_lane_atomic=site.per_lane_atomic,
                                       no_ideal=site.no_ideal, atomic_rule=site.atomic_rule, zfill=site.zfill)
        return w

    def _end_group(self, groups: dict, gkey) -> None:
        g = groups.pop(gkey)
        members = g["members"]
        if self._over_read(members, g["width"]):
            first = min(members, key=lambda m: m[3])
            self._record(self._wide(first[0], g["width"]), g["chunk"], g["em"], first[2])
            return
        for s, off, issued, _ in members:
            self._record(s, off, g["em"], issued)

    def _may_join(self, pcs: list, pc: int) -> bool:
        """Pieces of one vector: instructions of one basic block (repeated where ptxas unrolled its loop),
        or distinct instructions of several (an unrolled loop's guarded steps, each once); not a loop's
        instruction again next to another block's (a loop and its remainder loop)."""
        blocks = {self.block_of.get(x) for x in pcs} | {self.block_of.get(pc)}
        return len(blocks) == 1 or (pc not in pcs and len(set(pcs)) == len(pcs))

    def _over_read(self, members: list, width: int) -> bool:
        """The incomplete load chunk ptxas reads whole (`_coalesce`)."""
        sites = [m[0] for m in members]
        spans = sorted((m[3], m[3] + m[0].size) for m in members)
        if sites[0].kind != "load":
            return False
        if all(s.pc in self.whole for s in sites):
            return True
        if len({s.pc for s in sites}) != len(sites) or len({self.block_of.get(s.pc) for s in sites}) != 1:
            return False
        if sum(b - a for a, b in spans) * 4 == width * 3 and width == 16:
            return True  # three words of four, a gap anywhere: the fields of an array of structs a loop reads
        if not all(a[1] == b[0] for a, b in zip(spans, spans[1:])):
            return False
        covered = spans[-1][1] - spans[0][0]
        return spans[-1][1] == width and covered & (covered - 1) != 0

    def finish(self) -> None:
        """The end of the kernel: chunks still open go through as they are, then the model runs."""
        for loop in list(self._trips):
            self._regroup(loop)
        self.hoisted.finish()
        for groups in self._runs.values():
            for gkey in list(groups):
                self._end_group(groups, gkey)
        for (*_, w), open_ in self._open_unions.items():
            self._union_out(open_, w)
        self._open_unions = {}
        self.flush()

    def flush(self) -> None:
        for site in self._pending:
            a = np.stack(site.pending).reshape(-1, WARP)
            warp_of = np.tile(np.arange(self.W), len(site.pending))
            lines = np.stack(site.sources).reshape(-1, WARP) if site.sources else None
            site.pending, site.sources = [], []
            live = (a >= 0).any(axis=1)
            a, warp_of = a[live], warp_of[live]
            if lines is not None:
                lines = lines[live]
            site.requests += int(a.shape[0])
            if not a.shape[0] or not is_modelled(site.kind, site.size):
                if a.shape[0] and site.worst_addresses is None:
                    site.worst_addresses, site.worst_warp = a[0].copy(), int(warp_of[0])
                continue
            if site.kind == "atomic":
                wavefronts, ideal, degree = atomic_costs(a, site.size, site.atomic_rule)
            elif site.kind == "ldgsts":
                zfill, prefetch = self.copy_forms.get((site.file, site.line), (site.zfill, False))
                wavefronts, ideal, degree = ldgsts_costs(a, zfill, site.size, lines, prefetch,
                                                         self.copy_predicates.get(site.pc, ""))
            else:
                try:
                    wavefronts, ideal, degree = costs_of(a, site.size, site.kind)
                except UserError as exc:
                    if self.plan.get(site.pc) == site.size:  # a width sass.plan gave it, not the PTX's
                        raise PlanMisaligned(site.pc, site.size, str(exc)) from None
                    raise
            site.wavefronts += int(wavefronts.sum())
            site.ideal += int(ideal.sum())
            site.degree = max(site.degree, int(degree.max()))
            k = int(np.argmax(wavefronts))
            if int(wavefronts[k]) > site.worst_wavefronts:
                site.worst_wavefronts = int(wavefronts[k])
                site.worst_addresses = a[k].copy()
                site.worst_warp = int(warp_of[k])
        self._pending = []
        self._rows = 0


def costs_of(a: np.ndarray, size: int, kind: str):
    """(wavefronts, ideal, degree) per row of warp addresses (rows, 32), -1 = inactive lane.

    Moving every address of a warp by a multiple of 128 bytes (32 banks of 4 bytes) changes no bank
    and no word's distinctness, so rows are first shifted to start in the first 128 bytes and only
    the distinct patterns go through the model (a loop repeats a handful of them)."""
    act = a >= 0
    base = np.where(act, a, np.iinfo(np.int64).max).min(axis=1) // 128 * 128
    norm = np.where(act, a - base[:, None], -1)
    # group equal rows by a 64-bit hash (sorting integers is fast; sorting rows is not), then make sure
    with np.errstate(over="ignore"):
        h = (norm.astype(np.uint64) * _HASH).sum(axis=1, dtype=np.uint64)
    _, first, inv = np.unique(h, return_index=True, return_inverse=True)
    uniq = norm[first]
    if not np.array_equal(uniq[inv], norm):  # a hash collision: no shortcut
        uniq, inv = norm, np.arange(norm.shape[0])
    costs = simulate(uniq.ravel(), size, kind)
    return costs.wavefronts[inv], costs.ideal[inv], costs.degree[inv]


# a 16-byte cp.async lane whose source size is 0 (it reads nothing) has the chunk ZERO_SOURCE - its source's chunk
ZERO_SOURCE = -2


def ldgsts_costs(a: np.ndarray, zfill: bool, size: int = 16, chunks: np.ndarray | None = None,
                 prefetch: bool = False, source_predicate: str = ""):
    """(wavefronts, ideal, degree) per warp of a cp.async (LDGSTS) of `size` bytes into shared memory;
    `a`: each lane's shared byte offset, `chunks`: its global unit of the copy's size (address // size), -1
    where inactive. Measured on an H200 (tests/data/analyze_truth.json: the cp_async pattern corpus, one warp
    each, and the package's copies):

    - 4 bytes (`chunks`: the lanes' source 4-byte words): lanes in lane order, each in the first
      wavefront at or after its rank among the lanes reading the same word position of a 128-byte line
      (the k-th lane at position p: wavefront k or later) whose destination bank and source position are
      still free there. So k lanes on one position of k lines into contiguous words cost k; a line read at
      distinct positions into 32 banks 1, whatever its alignment (a row one word off a line's start, a
      stride of 33 words); k-way source and m-way destination conflicts on the same lanes max(k, m), on
      crossing lanes k + m - 1. Exact on all 21 one-warp patterns (H100, 2026-11-27: cp_async.b4.*, 14 of
      them designed for it); ideal: the warp's as a store. A lane of source size 0 reads no word and waits
      only for its bank (a halo's out-of-range lanes all naming element 0 cost one wavefront, not one a
      lane: fresh8.blur1d_pipeline_prims, H200 2026-11-29).
    - 8 bytes (`chunks`: the lanes' source 8-byte units): as 4 bytes, in 8-byte units: each lane in the first
      wavefront at or after its rank among the lanes reading the same 8-byte position of a 128-byte line whose
      destination slot (8 bytes of a 128-byte row) and source position are still free (the corpus's patterns:
      one line into 32 distinct banks 1 wavefront a half-warp's row, a line a lane 32, one slot 32). A lane of
      source size 0 waits only for its slot. Measured on an H200, 2026-11-29: fresh8.triton.w8a16_matmul's
      int8 rows of 32 bytes 96 bytes apart, two rows on each position of their lines, 2 wavefronts a warp (the
      lines read, 6); fresh7.triton.w4a16_linear's rows 128 bytes apart, all on one position, 8; its copies past
      K, 256 contiguous bytes that read nothing, 2.
    - 16 bytes, by quarter-warp: the lanes copying from one global line into one 128-byte shared row
      move together where their shared and global addresses agree in bits 4 and 5 up to one XOR (the
      copy path can swap 16-byte halves and 32-byte sectors, and place 64-byte halves anywhere), so a
      quarter costs one wavefront per distinct (global line, shared row, (dst ^ src) >> 4 & 3): aligned
      and contiguous 1, any permutation of 32-byte sectors or of their halves 1, shifted 16, 32, 48 or
      64 bytes 3, 2, 4, 2, a line or a row a lane 8. The zero-filling form (LDGSTS...ZFILL) adds, per
      quarter, the largest of 1, the global lines whose first 16 bytes it copies, the (line, row) groups
      that write a row's first 16 bytes and the lines it reads only in their second half (the corpus has
      no such quarter; a ragged Triton tile's edge warp, two rows' second halves, costs 4: fresh10.triton.
      linear_bias_relu, H200 2026-11-29). Ideal: 1 a quarter, 2 zero-filling. Exact on all 38 of
      the corpus's patterns in each form. In the zero-filling form a lane of source size 0 costs nothing
      of its own, whatever it names: it writes its zeros with the quarter's other lanes, and a quarter of
      such lanes only costs 1, ideal 1 (a row's tail past K, every zero lane naming the row's start:
      fresh8.gemv_cp_async_zfill, H200 2026-11-29). A lane of the plain form whose source size is 0 (the SASS's
      ignore-source predicate: Triton's masked-off tiles, `p ? 16 : 0`; its chunk ZERO_SOURCE) reads
      nothing and writes zeros: such lanes move together by shared row, whatever their source addresses
      (the H100's tiles past K: 1 wavefront a quarter where the lines they would have read cost 2;
      fresh.triton.matmul_split_k, triton.matmul.*); except where the SASS's copy carries the L2 prefetch
      hint (LDGSTS...LTC128B, what ptxas makes for sm_80: `prefetch`), whose zero lanes cost as the lines
      they name would (triton.matmul.*.sm80, exact that way on the H100).
    - The source predicate of the plain 16-byte form (`source_predicate`: what ptxas made of the PTX's source
      size, `LDGSTS ... [R4.64], P1`): where it is P0, Nsight Compute's per-instruction counts (its source view)
      cost the copy as if every lane's source size were 0, and where it is !P0 as if none were, whatever the
      lanes' predicate holds: the view reads P0 as true there. Measured on an H200 (2026-11-29,
      kernels/staged_probe_triton.py: one Triton matmul, the same lanes and addresses, 1 wavefront a quarter for
      its A tile's two-line quarters where ptxas chose P0, 2 where P1 or P4; with EVEN_K the loop's `!P0` copies
      past the last tile cost as the lines they name), and it made 19 staged matmuls exact (Triton's and
      overlap.cu's, STAGED_A_COPY until then). The same copies' global sectors are counted as read, and the 4-
      and 8-byte forms and the zero-filling one count their predicate as it is.
    - A warp of the plain 16-byte form some of whose lanes read and some of source size 0 (a ragged tile's
      last rows or columns) costs as the zero-filling form would, ideal too: the plain form's rules hold for a
      warp whose lanes all read or all read nothing (H200, 2026-11-29: fresh5.triton.kl_div_rows, a quarter of 4
      lanes each, 360 wavefronts and 268 ideal measured and so emulated; fresh4.triton.linear_gelu_64, two
      quarters of each, 272 and 200).
    """
    if chunks is None:
        raise ValueError("a cp.async's cost needs each lane's global chunk")
    if size == 16 and not zfill:  # the source view's reading of the predicate register (above)
        if source_predicate == "P0":  # every lane as if of source size 0
            chunks = np.where(chunks >= 0, ZERO_SOURCE - chunks, chunks)
        prefetch = prefetch or source_predicate == "!P0"  # none of source size 0
    if prefetch:  # zero lanes as the lines they name
        chunks = np.where(chunks <= ZERO_SOURCE, ZERO_SOURCE - chunks, chunks)
    if size != 16:
        return _word_copy_costs(a, chunks, size)
    mixed = (chunks >= 0).any(axis=1) & (chunks <= ZERO_SOURCE).any(axis=1)
    if zfill or not mixed.any():
        return _ldgsts16_costs(a, zfill, chunks)
    plain, filling = _ldgsts16_costs(a, False, chunks), _ldgsts16_costs(a, True, chunks)
    return tuple(np.where(mixed, f, p) for p, f in zip(plain, filling))


def _word_copy_costs(a: np.ndarray, words: np.ndarray, size: int = 4):
    """ldgsts_costs for 4 and 8 bytes (`words`: the sources' `size`-byte units): the distinct (destination
    slot, source position) patterns of the warps, each scheduled once."""
    act = a >= 0
    # a lane of source size 0 reads no word: a place of its own, only its slot can make it wait
    place = np.where(words <= ZERO_SOURCE, WARP + np.arange(WARP)[None, :], words % (128 // size))
    key = np.concatenate([np.where(act, (a % 128) // size, -1), np.where(act, place, -1)], axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    wf = np.empty(len(uniq), dtype=np.int64)
    for k, row in enumerate(uniq):
        waves: list[tuple[set, set]] = []
        rank: dict[int, int] = {}
        for b, p in zip(row[:WARP].tolist(), row[WARP:].tolist()):
            if b < 0:
                continue
            w = rank.get(p, 0)
            rank[p] = w + 1
            while True:
                while w >= len(waves):
                    waves.append((set(), set()))
                banks, places = waves[w]
                if b not in banks and p not in places:
                    banks.add(b)
                    places.add(p)
                    break
                w += 1
        wf[k] = sum(1 for banks, _ in waves if banks)
    wavefronts = wf[inv.reshape(-1)]
    _, ideal, _ = costs_of(a, size, "store")
    return wavefronts, ideal, wavefronts


def _ldgsts16_costs(a: np.ndarray, zfill: bool, chunks: np.ndarray):
    """ldgsts_costs for 16 bytes: the distinct (shared, global) patterns of the warps, each costed once
    (moving every shared offset by whole rows, or every global chunk by whole lines, changes nothing)."""
    act = a >= 0
    read = act & (chunks >= 0)
    big = np.iinfo(np.int64).max
    dbase = np.where(act, a, big).min(axis=1) // 128 * 128
    cbase = np.where(read, chunks, big).min(axis=1)
    cbase = np.where(cbase == big, 0, cbase) // 8 * 8
    key = np.concatenate([np.where(act, a - dbase[:, None], -1),
                          np.where(read, chunks - cbase[:, None], np.where(act, ZERO_SOURCE, -1))], axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    wf = np.empty(len(uniq), dtype=np.int64)
    deg = np.empty(len(uniq), dtype=np.int64)
    for k, row in enumerate(uniq):
        wf[k], deg[k] = _ldgsts16_warp(row[:WARP], row[WARP:], zfill)
    quarters = act.reshape(a.shape[0], WARP // 8, 8).any(axis=2).sum(axis=1)
    inv = inv.reshape(-1)
    if zfill:  # 2 a quarter that reads, 1 a quarter of zero lanes only
        return wf[inv], quarters + read.reshape(a.shape[0], WARP // 8, 8).any(axis=2).sum(axis=1), deg[inv]
    return wf[inv], quarters, deg[inv]


def _ldgsts16_warp(d: np.ndarray, c: np.ndarray, zfill: bool) -> tuple[int, int]:
    """(wavefronts, the costliest quarter's) of one warp's 16-byte copies (see ldgsts_costs); `c`: the
    lanes' global 16-byte chunks."""
    total = worst = 0
    for q in range(WARP // 8):
        dq, cq = d[8 * q:8 * q + 8], c[8 * q:8 * q + 8]
        on = dq >= 0
        if not on.any():
            continue
        lanes = list(zip(dq[on].tolist(), cq[on].tolist()))  # (shared byte offset, global chunk)
        if zfill:  # a lane of source size 0 writes its zeros with the others, at no cost of its own
            lanes = [(x, y) for x, y in lanes if y != ZERO_SOURCE]
        cost = len({(y // 8, x // 128, ((x >> 4) ^ y) & 3) if y != ZERO_SOURCE else (ZERO_SOURCE, x // 128)
                    for x, y in lanes})
        if zfill:
            line_starts = {y // 8 for x, y in lanes if y % 8 == 0}
            row_starts = {(y // 8, x // 128) for x, y in lanes if x % 128 < 16}
            first = {}  # line -> the first 16-byte chunk of it the quarter reads
            for _, y in lanes:
                first[y // 8] = min(first.get(y // 8, 8), y % 8)
            second_halves = sum(1 for c in first.values() if c >= 4)  # lines read only in their second half
            cost += max(1, len(line_starts), len(row_starts), second_halves)
        total += cost
        worst = max(worst, cost)
    return total, worst


def atomic_costs(a: np.ndarray, size: int, rule: str):
    """(wavefronts, ideal, degree) per warp of a shared atomic (see the module docstring)."""
    if rule == "words":
        return costs_of(a, size, "store")
    if rule == "warp":  # REDUX, then one lane's ATOMS: one wavefront a warp (measured: Nsight Compute)
        one = (a >= 0).any(axis=1).astype(np.int64)
        return one, one, one
    if rule == "cas":  # ATOMS.CAS: twice the ATOMS figure, ideal 2 (measured)
        worst, ideal, degree = atomic_costs(a, size, "lanes")
        return 2 * worst, 2 * ideal, degree
    if rule == "spin":  # one execution of a compare-and-swap loop's ATOMS.CAST.SPIN (casloop.py)
        per = 128 // size  # lanes per phase, bank groups per phase
        act = (a >= 0).reshape(a.shape[0], WARP // per, per)
        group = np.where(a >= 0, (a // size) % per, per).reshape(act.shape)
        counts = np.zeros((a.shape[0], WARP // per, per + 1), dtype=np.int64)
        np.add.at(counts, (np.arange(a.shape[0])[:, None, None], np.arange(WARP // per)[None, :, None], group), 1)
        return 2 * act.any(axis=2).sum(axis=1), 2 * -(-act.sum(axis=(1, 2)) // per), counts[:, :, :per].max(axis=(1, 2))
    act = a >= 0
    words = max(1, size // 4)
    rows = np.arange(a.shape[0])[:, None]
    counts = np.zeros((a.shape[0], 32), dtype=np.int64)
    for k in range(words):
        bank = ((a // 4 + k) % 32)
        np.add.at(counts, (np.broadcast_to(rows, a.shape)[act], bank[act]), 1)
    worst = counts.max(axis=1)
    return worst, (worst > 0).astype(np.int64), worst


_HASH = np.random.default_rng(12).integers(1, 2**63, size=WARP, dtype=np.uint64) | np.uint64(1)


@dataclass
class LineStats:
    """One source line's traffic of one kind, summed over its PTX instructions."""

    file: int
    line: int
    kind: str
    bytes: int  # bytes per thread (the widest instruction's, where the line has several)
    requests: int = 0
    issued: int = 0
    wavefronts: int = 0
    ideal: int = 0
    degree: int = 0
    instructions: int = 0  # PTX instructions of the line of this kind
    generic: bool = False
    remote: int = 0  # warp requests with lanes on another block's shared memory
    worst: Site | None = None  # the instruction of the line with the costliest warp
    calls: list = field(default_factory=list)  # the kernel's own lines (file, line) it was inlined from

    @property
    def excess(self) -> int:
        return self.wavefronts - self.ideal


def on_statements(sites, instrs) -> list[Site] | None:
    """The sites with each inline asm's accesses moved to its statement's line (Instr.asm_line), or None where
    none moves. A line (and kind) moves only as a whole, where every access on it is of inline asm begun on one
    other line: a line that also holds accesses of its own keeps them all, as the line table gives them."""
    starts: dict[tuple[int, int, str], set] = defaultdict(set)
    for s in sites:
        ins = instrs[s.pc] if 0 <= s.pc < len(instrs) else None
        own = ins is not None and ins.loc is not None and (ins.loc.file, ins.loc.line) == (s.file, s.line)
        starts[(s.file, s.line, s.kind)].add(ins.asm_line if own else None)
    moves = {k: next(iter(v)) for k, v in starts.items() if len(v) == 1 and None not in v}
    if not moves:
        return None
    return [replace(s, line=moves[(s.file, s.line, s.kind)]) if (s.file, s.line, s.kind) in moves else s
            for s in sites]


def per_line(sites) -> list[LineStats]:
    lines: dict[tuple[int, int, str], LineStats] = {}
    for s in sorted(sites, key=lambda s: s.pc):
        if s.issued == 0:
            continue
        key = (s.file, s.line, s.kind, s.remote > 0)  # Nsight Compute lists these apart, as distributed
        ls = lines.get(key)
        if ls is None:
            ls = lines[key] = LineStats(s.file, s.line, s.kind, s.size)
        ls.bytes = max(ls.bytes, s.size)
        ls.requests += s.requests
        ls.issued += s.issued
        ls.wavefronts += s.wavefronts
        ls.ideal += s.ideal
        ls.degree = max(ls.degree, s.degree)
        ls.instructions += 1
        ls.generic |= s.generic
        ls.remote += s.remote
        if s.call is not None and s.call not in ls.calls:
            ls.calls.append(s.call)
        if ls.worst is None or s.worst_wavefronts > ls.worst.worst_wavefronts:
            ls.worst = s
    return list(lines.values())
