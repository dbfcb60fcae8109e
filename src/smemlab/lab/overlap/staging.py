"""Inside the SM, third part of the `overlap` experiment: the 1-D stencil's halo tile staged into
shared memory three ways (lab/overlap/overlap.cu):

- `stagedPlain`: through registers, as the book's stencil does (ld.global, then st.shared), and
  `stagedPlainV4`, the same 16 bytes a thread (as wide as the cp.async copies);
- `stagedCpAsyncS`: cp.async (Ampere's global-to-shared copy, no registers), S = 1..4 tiles in
  flight, one commit group a tile;
- `stagedTmaS`: Hopper's bulk-copy engine (cp.async.bulk), one thread issuing a whole tile, its
  bytes counted on an mbarrier, S = 1..4 stages.

Each runs a persistent grid of 1 block per SM (8 warps: too few plain loads in flight to cover the
memory's latency, where prefetching stages should pay) and of as many blocks as fit (where every
variant should be memory-bound). Verified against a float64 reference computed on the device.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.counters import STALL_BARRIER, STALL_LONG_SCOREBOARD, STALL_SHORT_SCOREBOARD
from smemlab.lab.base import Case, Check, SmemAccess, Variant
from smemlab.lab.stencil import BOOK_COEF

SOURCE = "lab/overlap/overlap.cu"
RADIUS = 4
BDIM = 256
TILE = 1024
STAGES = (1, 2, 3, 4)
TOLERANCE = 1e-5
# variant -> (method, stages, bytes one thread moves per load or copy; 0: one thread copies the whole tile)
METHODS = {"stagedPlain": ("plain", 1, 4), "stagedPlainV4": ("plain", 1, 16),
           **{f"stagedCpAsync{s}": ("cp.async", s, 16) for s in STAGES},
           **{f"stagedTma{s}": ("TMA", s, 0) for s in STAGES}}
PAYS = 1.1  # async copies "pay" from this ratio to the better plain loads on
# warp cycles stalled per issued instruction, by reason (Nsight Compute): a plain load's wait shows
# as long_scoreboard (a register waiting on memory); an async copy's as barrier and short_scoreboard
STALL_METRICS = (STALL_LONG_SCOREBOARD, STALL_BARRIER, STALL_SHORT_SCOREBOARD)
STALL_NAMES = {STALL_LONG_SCOREBOARD: "long scoreboard", STALL_BARRIER: "barrier",
               STALL_SHORT_SCOREBOARD: "short scoreboard"}


SPAN = TILE + 2 * RADIUS  # floats a stage holds: the tile and its halo


def staged_smem(name: str, tiles: int = 1) -> tuple[SmemAccess, ...]:
    """The shared accesses of one block of variant `name` that stages `tiles` whole tiles: the
    stencil's 2 x RADIUS loads a point (every variant alike), and the stores of the plain staging
    (4 or 16 bytes a thread; the tile's last 2 x RADIUS floats by the first lanes of warp 0). The
    asynchronous copies write shared memory without a store instruction (cp.async's LDGSTS, the bulk
    copy engine): Nsight Compute counts no shared store for them, and nothing is declared."""
    method, _, width = METHODS[name]
    shape, per_tile = (SPAN,), TILE // BDIM
    out = [SmemAccess(f"buf[j+{RADIUS}{d:+d}] load", f"buf[tx+{RADIUS + d}]", shape, "float", "load",
                      per_warp=per_tile * tiles) for k in range(1, RADIUS + 1) for d in (k, -k)]
    if method == "plain" and width == 4:
        out += [SmemAccess("buf[i] store", "buf[tx]", shape, "float", "store", per_warp=per_tile * tiles),
                SmemAccess("buf[i] store, the halo's end", f"buf[tx+{TILE}]", shape, "float", "store",
                           active=f"tx < {2 * RADIUS}", per_warp=tiles)]
    elif method == "plain":
        # `#pragma unroll 2` over a loop of 258 float4s: the first two lanes (two trips) run the
        # unrolled pair of stores, every other lane (one trip) the remainder's store: three instructions
        vecs, whole = (SPAN // 4,), SPAN // 4
        out += [SmemAccess("float4 buf[i] store (one trip)", "buf4[tx]", vecs, "float4", "store",
                           active=f"tx >= {whole - BDIM}", per_warp=tiles),
                SmemAccess("float4 buf[i] store (two trips: the first)", "buf4[tx]", vecs, "float4", "store",
                           active=f"tx < {whole - BDIM}", per_warp=tiles),
                SmemAccess("float4 buf[i] store (two trips: the second)", f"buf4[tx+{BDIM}]", vecs, "float4", "store",
                           active=f"tx < {whole - BDIM}", per_warp=tiles)]
    return tuple(out)


def variants() -> list[Variant]:
    b = (BDIM, 1, 1)
    out = [Variant("stagedPlain", "the stencil's tile and halo staged through registers (ld.global, st.shared), as "
                   "the book's stencil does; one tile at a time", "stagedPlain", b, staged_smem("stagedPlain")),
           Variant("stagedPlainV4", "the same 16 bytes a thread (float4 loads and stores): as wide as the cp.async "
                   "copies, so that only the asynchrony differs", "stagedPlainV4", b, staged_smem("stagedPlainV4"))]
    out += [Variant(f"stagedCpAsync{s}", f"the tile copied by cp.async.cg (16 bytes a thread, no registers), {s} "
                    f"tile{'s' if s > 1 else ''} in flight", f"stagedCpAsync{s}", b, staged_smem(f"stagedCpAsync{s}"))
            for s in STAGES]
    out += [Variant(f"stagedTma{s}", f"the tile copied by the bulk-copy engine (TMA, cp.async.bulk; sm_90), one "
                    f"thread a tile, an mbarrier counting its bytes, {s} stage{'s' if s > 1 else ''}", f"stagedTma{s}", b,
                    staged_smem(f"stagedTma{s}")) for s in STAGES]
    return out


def reference(x, coef: np.ndarray, radius: int = RADIUS):
    """The stencil over a padded input, in float64, on the array's own device (NumPy or CuPy)."""
    n = x.size - 2 * radius
    x = x.astype("float64")
    out = float(coef[1]) * (x[radius + 1:radius + 1 + n] - x[radius - 1:radius - 1 + n])
    for k in range(2, radius + 1):
        out += float(coef[k]) * (x[radius + k:radius + k + n] - x[radius - k:radius - k + n])
    return out


def cases(rt, n: int, chosen: Sequence[Variant]) -> Iterator[Case]:
    import cupy

    chosen = [v for v in chosen if v.name in METHODS]
    if not chosen:
        return
    x = cupy.random.default_rng(17).uniform(-1.0, 1.0, n + 2 * RADIUS, dtype=cupy.float32)
    out = cupy.empty(n, dtype=cupy.float32)
    coef = BOOK_COEF.copy()
    ref = reference(x, coef)
    scale = float(cupy.abs(ref).max()) or 1.0
    tiles = -(-n // TILE)
    rt.set_constant(SOURCE, "scoef", coef)
    hopper = has_bulk_copies(rt)

    def check() -> Check:
        if not bool(cupy.isfinite(out).all()):
            bad = int(cupy.argmin(cupy.isfinite(out)))
            return Check(False, f"out[{bad}] = {float(out[bad])} (not written?)")
        err = float(cupy.abs(out - ref).max()) / scale
        return Check(err <= TOLERANCE, f"max |out - ref| / max |ref| = {err:.3g} (float64 on the device, tolerance "
                                       f"{TOLERANCE:g})", err)

    for v in chosen:
        method, stages, width = METHODS[v.name]
        if method == "TMA" and not hopper:
            yield skipped_without_bulk_copies(rt, v)
            continue
        kernel = rt.kernel(SOURCE, v.kernel)
        for per_sm in occupancy_levels(kernel, BDIM):
            grid = max(1, min(tiles, per_sm * rt.facts.sms))

            def launch(kernel=kernel, grid=grid):
                rt.launch(kernel, grid, BDIM, x, out, n)

            extra = case_extra(method, stages, width, per_sm)
            yield Case(v, launch, check, (out,), 4 * (n + 2 * RADIUS) + 4 * n, 0,
                       f"grid ({grid}, 1, 1) block ({BDIM}, 1, 1), {kernel.static_smem} B static smem", extra)


def has_bulk_copies(rt) -> bool:
    return int(rt.facts.compute_capability.split(".")[0]) >= 9


def skipped_without_bulk_copies(rt, v: Variant) -> Case:
    """A TMA variant's case before sm_90: recorded as skipped, with the reason."""
    return Case(v, lambda: None, lambda: Check(True, "skipped: bulk copies need sm_90"), (), 0, 0, "-",
                {"skipped": f"bulk copies (TMA) need compute capability 9.0; this GPU has {rt.facts.compute_capability}"})


def occupancy_levels(kernel, threads: int) -> list[int]:
    """Blocks per SM a staged kernel runs at: one (where only stages keep copies in flight), and as
    many as fit."""
    return sorted({1, kernel.blocks_per_sm(threads)})


def case_extra(method: str, stages: int, width: int, per_sm: int) -> dict[str, Any]:
    """The columns of one staged case: how it stages, and at which occupancy."""
    what = f"{width} B a thread" if method == "plain" else f"{stages} stage{'s' if stages > 1 else ''}"
    return {"case": f"{method}, {what}, {per_sm} block{'s' if per_sm > 1 else ''}/SM",
            "method": method, "stages": stages, "width": width, "blocks_per_sm": per_sm}


# ---- what the record shows -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Figure:
    """The figure the notes compare staging methods by: a record's field, shown in `unit`."""

    field: str  # "gbps" or "gflops"
    unit: str
    scale: float  # the field's value / scale is what is shown
    spec: str  # its format

    def of(self, r: Any) -> float:
        return getattr(r, self.field) or 0.0

    def text(self, r: Any) -> str:
        return f"{self.of(r) / self.scale:{self.spec}}"


BANDWIDTH = Figure("gbps", "GB/s", 1.0, ",.0f")


def staging_notes(records: Sequence[Any], methods: dict = METHODS, figure: Figure = BANDWIDTH, threads: int = BDIM,
                  subject: str = "") -> list[str]:
    """Per occupancy: the plain loads against each asynchronous method at its best number of stages,
    then when the asynchronous copies pay. `methods`, `figure`, `threads` and `subject` (a prefix
    naming the kernel) are the stencil's unless another staged kernel's are given."""
    timed = [r for r in records if r.ok and figure.of(r) and r.variant in methods]
    unit = figure.unit
    out, verdicts = [], []
    # two levels: one block per SM, and as many as fit (which the compiler's register use may make differ)
    for full in (False, True):
        here = [r for r in timed if (r.extra.get("blocks_per_sm") != 1) == full]
        plains = sorted((r for r in here if r.extra.get("method") == "plain"), key=lambda r: r.extra.get("width", 0))
        if not plains:
            continue
        plain = max(plains, key=figure.of)
        levels = sorted({r.extra.get("blocks_per_sm") for r in here})
        blocks = "/".join(map(str, levels))
        where = (f"{blocks} block{'s' if levels != [1] else ''} per SM "
                 f"({'/'.join(str(b * threads // 32) for b in levels)} warps)")
        parts = [f"{subject}{where}: plain loads " + ", ".join(f"{figure.text(r)} {unit} ({r.extra.get('width')} B a thread)"
                                                               for r in plains)]
        best_async = None
        for method in ("cp.async", "TMA"):
            mine = sorted((r for r in here if r.extra.get("method") == method), key=lambda r: r.extra["stages"])
            if not mine:
                continue
            best = max(mine, key=figure.of)
            best_async = best if best_async is None or figure.of(best) > figure.of(best_async) else best_async
            by_stage = ", ".join(f"{r.extra['stages']}: {figure.text(r)}" for r in mine)
            parts.append(f"{method} best at {best.extra['stages']} stage{'s' if best.extra['stages'] > 1 else ''}, "
                         f"{figure.text(best)} {unit}, {figure.of(best) / figure.of(plain):.2f}x the better plain loads "
                         f"({unit} by stages: {by_stage})")
        out.append("; ".join(parts))
        if best_async is not None:
            ratio = figure.of(best_async) / figure.of(plain)
            verdicts.append(f"at {where} they {'pay' if ratio >= PAYS else 'do not pay'}: {ratio:.2f}x "
                            f"({best_async.variant} against {plain.variant})")
    if verdicts:
        out.append(f"{subject}asynchronous copies into shared memory on this GPU (paying: at least {PAYS}x the better "
                   f"plain loads): " + "; ".join(verdicts) + ". Stages keep a block's copies in flight across its "
                   "barriers; with few blocks on an SM, nothing else does")
    out += stall_notes(timed, subject)
    return out


def stall_notes(records: Sequence[Any], subject: str = "") -> list[str]:
    """Where the warps of each staged variant wait (Nsight Compute's stall reasons), per occupancy:
    what the asynchronous copies take away from the plain loads."""
    out = []
    for full in (False, True):
        here = [r for r in records if (r.extra.get("blocks_per_sm") != 1) == full
                and r.counters.get(STALL_LONG_SCOREBOARD) is not None]
        if not here:
            continue
        per_sm = "/".join(sorted({str(r.extra.get("blocks_per_sm")) for r in here}))
        parts = [f"{r.variant} " + ", ".join(f"{STALL_NAMES[m]} {r.counters[m]:.2f}" for m in STALL_METRICS
                                              if r.counters.get(m) is not None) for r in here]
        out.append(f"{subject}warp cycles stalled per issued instruction at {per_sm} block(s) per SM (Nsight Compute): "
                   + "; ".join(parts))
    return out
