"""Inside the SM, fourth part of the `overlap` experiment: the book's tiled matrix multiply staged into
shared memory the same three ways as the stencil (smemlab.lab.overlap.staging), kernels in
lab/overlap/overlap.cu:

- `mmStagedPlain`: A's and B's tiles (the book's As and Bs) through registers, 16 bytes a thread;
- `mmStagedCpAsyncS`: the same 16 bytes a thread by cp.async, S = 1..4 K tiles in flight;
- `mmStagedTmaS`: each row of the tiles by a bulk copy (TMA) from warp 0, an mbarrier a stage.

Where the stencil does 8 multiply-adds a staged float and stays memory-bound, this tile is
compute-heavy: a block of 256 threads owns 64 x 64 of C, each thread 4 x 4 (the register blocking of
the library's climb, smemlab.ops.matmul), over K tiles of 16, so a staged float feeds 64 multiply-adds
(16 threads, 4 each). K tiles of 16, not 32: 4 stages of 64 x 32 tiles of A and B would be 64 KiB,
past the 48 KiB of static shared memory a block may declare. Every variant is held to 64 registers
(4 blocks per SM) so that at full occupancy all run with the same 32 warps.

The matrices are square, of side `side_for(N)`: sqrt(N) down to a multiple of 4 (rows of whole
16-byte pieces, what the 16-byte copies need), at most 2048 (2 x 2048^3 = 17 GFLOP, about a
millisecond a launch; A, B and C together 48 MiB, the L2-resident working set a compute-heavy tile
sees). Verified against a float64 product on the device; timed at one block per SM and at as many
as fit, as the stencil is.
"""

from __future__ import annotations

from math import isqrt
from typing import Iterator, Sequence

import numpy as np

from smemlab.errors import UserError
from smemlab.lab.overlap import staging
from smemlab.lab.base import Case, Check, SmemAccess, Variant
from smemlab.lab.matmul import TOLERANCE

SOURCE = staging.SOURCE
TILE = 64  # a block's square of C
BK = 16  # K per staged tile
THREADS = 256
MAX_SIDE = 2048
STAGES = staging.STAGES
# variant -> (method, stages, bytes one thread moves per load or copy; 0: warp 0 copies whole rows)
METHODS = {"mmStagedPlain": ("plain", 1, 16),
           **{f"mmStagedCpAsync{s}": ("cp.async", s, 16) for s in STAGES},
           **{f"mmStagedTma{s}": ("TMA", s, 0) for s in STAGES}}
TFLOPS = staging.Figure("gflops", "TFLOP/s", 1e3, ".2f")


def side_for(n: int) -> int:
    """The square's side for the experiment's N: sqrt(N) down to a multiple of 4, at most MAX_SIDE."""
    return min(MAX_SIDE, isqrt(n)) // 4 * 4


def check_side(side: int) -> int:
    if side < 4 or side % 4:
        raise UserError(f"the staged matmul's side must be a positive multiple of 4 (rows of whole 16-byte pieces); "
                        f"got {side}")
    return side


def items(side: int, grid: int, block: int = 0) -> int:
    """(square, K tile) pairs block `block` of `grid` works through: what each stage holds once."""
    squares = (-(-side // TILE)) ** 2
    mine = (squares - 1 - block) // grid + 1 if block < squares else 0
    return mine * -(-side // BK)


def mm_smem(name: str, count: int = 1) -> tuple[SmemAccess, ...]:
    """The shared accesses of one block of variant `name` over `count` items: each thread's 16-byte
    loads of A's rows ty + 16 i (4 rows, 4 k a load: two rows a warp, 2 wavefronts) and of B's
    columns 4 tx .. 4 tx + 3 (16 k: 16 distinct pieces a warp, 4 wavefronts), every variant alike;
    and the plain staging's 16-byte stores (a warp's 512 contiguous bytes, 4 wavefronts). All the
    ideal for 16-byte accesses. The asynchronous copies store without a store instruction: nothing
    is declared for them."""
    out = [SmemAccess("As[ty+16i][k..k+3] load", "As4[tx/16][0]", (TILE, BK // 4), "float4", "load", per_warp=16 * count),
           SmemAccess("Bs[k][4tx..4tx+3] load", "Bs4[0][tx%16]", (BK, TILE // 4), "float4", "load", per_warp=BK * count)]
    if METHODS[name][0] == "plain":
        out += [SmemAccess(f"{tile} store", f"{tile}4[tx]", (TILE * BK // 4,), "float4", "store", per_warp=count)
                for tile in ("As", "Bs")]
    return tuple(out)


def variants() -> list[Variant]:
    b = (THREADS, 1, 1)
    tile = f"the book's tiled matmul (As and Bs in shared memory; {TILE}x{TILE} of C a block, 4x4 a thread, K tiles of {BK})"
    out = [Variant("mmStagedPlain", f"{tile}, staged through registers (16-byte ld.global, st.shared)", "mmStagedPlain", b,
                   mm_smem("mmStagedPlain"))]
    out += [Variant(f"mmStagedCpAsync{s}", f"{tile}, copied by cp.async.cg (16 bytes a thread), {s} K tile"
                    f"{'s' if s > 1 else ''} in flight", f"mmStagedCpAsync{s}", b, mm_smem(f"mmStagedCpAsync{s}"))
            for s in STAGES]
    out += [Variant(f"mmStagedTma{s}", f"{tile}, each tile row copied by the bulk-copy engine (TMA; sm_90) from warp 0, an "
                    f"mbarrier counting the bytes, {s} stage{'s' if s > 1 else ''}", f"mmStagedTma{s}", b,
                    mm_smem(f"mmStagedTma{s}")) for s in STAGES]
    return out


def cases(rt, n: int, chosen: Sequence[Variant]) -> Iterator[Case]:
    yield from side_cases(rt, side_for(n), chosen)


def side_cases(rt, side: int, chosen: Sequence[Variant]) -> Iterator[Case]:
    import cupy

    check_side(side)
    chosen = [v for v in chosen if v.name in METHODS]
    if not chosen:
        return
    rng = cupy.random.default_rng(20240220)
    a = rng.uniform(-1.0, 1.0, (side, side), dtype=cupy.float32)
    b = rng.uniform(-1.0, 1.0, (side, side), dtype=cupy.float32)
    c = cupy.empty((side, side), dtype=cupy.float32)
    ref = a.astype(cupy.float64) @ b.astype(cupy.float64)
    scale = float(cupy.linalg.norm(ref)) or 1.0
    squares = (-(-side // TILE)) ** 2

    def check() -> Check:
        err = float(cupy.linalg.norm(c.astype(cupy.float64) - ref)) / scale
        return Check(err <= TOLERANCE, f"||C - C64|| / ||C64|| = {err:.3g} (float64 product on the device, tolerance "
                                       f"{TOLERANCE:g})", err)  # NaN (an unwritten element) fails

    for v in chosen:
        method, stages, width = METHODS[v.name]
        if method == "TMA" and not staging.has_bulk_copies(rt):
            yield staging.skipped_without_bulk_copies(rt, v)
            continue
        kernel = rt.kernel(SOURCE, v.kernel)
        for per_sm in staging.occupancy_levels(kernel, THREADS):
            grid = max(1, min(squares, per_sm * rt.facts.sms))

            def launch(kernel=kernel, grid=grid):
                rt.launch(kernel, grid, THREADS, a, b, c, np.int32(side))

            extra = staging.case_extra(method, stages, width, per_sm)
            extra.update(case=f"matmul {side}x{side}, {extra['case']}", part="matmul", side=side)
            yield Case(v, launch, check, (c,), 3 * 4 * side * side, 2 * side ** 3,
                       f"grid ({grid}, 1, 1) block ({THREADS}, 1, 1), {kernel.static_smem} B static smem", extra)


def mm_notes(records) -> list[str]:
    """The stencil's comparison of the staging methods, in TFLOP/s, for the tiled matmul."""
    side = next((r.extra.get("side") for r in records if r.variant in METHODS and r.extra.get("side")), None)
    return staging.staging_notes(records, METHODS, TFLOPS, THREADS, f"tiled matmul {side}x{side}, " if side else "")
