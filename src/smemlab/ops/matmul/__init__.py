"""matmul(a, b): float32 C = A @ B on the CUDA cores (FFMA; no tensor cores, no TF32).

    c = matmul(a, b)

- `a` (M, K) and `b` (K, N): 2-D float32 CuPy arrays or CUDA torch tensors (or other GPU arrays, see
  smemlab.ops._args), of one type and on one device (float16, bfloat16 and float64 are refused with a
  TypeError that names torch.matmul / cupy.matmul and the conversion: DTYPE_HINT); any M, N, K >= 0 (each < 2^31).
  A transposed operand (a column-major array: torch `w.t()` of a contiguous w, so `x @ w.t()` and
  `a.t() @ b`; a CuPy F-ordered array) is read in place, with no copy, by kernels for its layout
  (`read_layout`, LAYOUTS); any other strided view is copied to a contiguous one first by its framework, on the
  call's stream, as is a transposed one for a variant outside IN_PLACE. K = 0 gives zeros, as torch does.
- Returns c (M, N) float32 of the caller's array type, computed on the caller's current stream.
  Differentiable for torch tensors: dA = dC @ B^T and dB = A^T @ dC, on these kernels, the
  transposed operands read in place.
- Every product is plain IEEE float32 arithmetic (fused multiply-adds, K-order accumulation per
  thread): compare with cuBLAS SGEMM with TF32 off, not with torch's default TF32 matmul.

`variant` picks a step of the climb (matmul.cu, in this folder): "tiled", "blocktile1d",
"blocktile2d", "vectorized", "warptile", "warptile_db", "warptile_db16", "pack", "async"; by
default (`choose`) the one measured fastest for the shape: 32x32 tiles for the smallest products,
warptile_db16 for grids of 128x128 tiles that fill the GPU, async with K split over several blocks
per tile for the grids that do not (1024 x 1024 is 64 tiles for 132 SMs). Each is correct for any
shape: guarded loads (zero outside the matrices), predicated stores, and 16-byte accesses only
where a row's start is 16-byte aligned.

The kernels of a layout: mm_<variant> reads A and B row-major ("nn"), mm_<variant>_<layout> for the
others, the layout's first letter A's, the second B's (t: stored transposed). Only the variants
`choose` picks have them (IN_PLACE).

`splits` (pack and async only): K shared by that many blocks per output tile; the last block of a
tile adds the partials in a fixed order, so the result does not depend on which block finishes
first. None picks by shape (`choose_splits`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from smemlab import device
from smemlab.ops._args import Dtypes, GpuArray, column_major, cupy_scratch, read, same_framework, workspace
from smemlab.ops._route import torch_ops

SOURCE = "ops/matmul/matmul.cu"
# variant -> (block tile M, block tile N, threads)
VARIANTS = {
    "tiled": (32, 32, 1024),
    "blocktile1d": (64, 64, 512),
    "blocktile2d": (128, 128, 256),
    "vectorized": (128, 128, 256),
    "warptile": (128, 128, 256),
    "warptile_db": (128, 128, 256),
    "warptile_db16": (128, 128, 256),
    "pack": (128, 128, 256),
    "async": (128, 128, 256),
}
# the kernels that keep their stages in dynamic shared memory (bytes: stages x BK x (BM + 4 + BN)
# floats) and take the split-K workspace (two more arguments)
DYNAMIC_SMEM = {"pack": 2 * 16 * 260 * 4, "async": 3 * 16 * 260 * 4}
# how A and B lie in memory, A's letter first: n row-major (A: M x K rows; B: K x N rows), t transposed
# (A: K x M rows, i.e. column-major; B: N x K rows)
LAYOUTS = ("nn", "tn", "nt", "tt")
IN_PLACE = ("tiled", "warptile_db16", "async")  # the variants with a kernel for every layout: those `choose` picks
DEFAULT = "warptile_db16"  # the fastest where the grid fills the GPU (H200: 0.865-0.877 of cuBLAS)
SPLIT = "async"  # the fastest where it does not, with K split (1024^3: 0.844 of cuBLAS)

# The model `choose` and `split_model` use, calibrated on the sweep below (an H200, 132 SMs):
ALONE = 1.05  # an SM with one block does ~95% of the work it does with two (1024^3, async: 2 splits,
# 128 blocks, one an SM: 69.8 us; 4 splits, 256 blocks, two an SM, half the K each: 66.8 us)
ASYNC_COST = 1.06  # async's tile takes 1.04-1.08x warptile_db16's (4096^3: 3296 against 3118 us)
MAX_SPLITS = 16
MIN_SLICE = 128  # K of a slice at least
SHARED_SLICE = 192  # ... and where two blocks share an SM (768^3: 6 splits of 128, 46.2 us; 3 of 256, 41.9)
TILED_WORK = 5 * 256 ** 3  # M*N*K up to this: the 32x32 tiles (see the table)
MAX_DIM = (1 << 31) - 1
DTYPES = Dtypes("float32")
# float16/bfloat16: cuBLAS multiplies them on the tensor cores, which these FFMA kernels do not use; on the
# CUDA cores with float32 accumulation they would trail cuBLAS's half-precision GEMMs by several times, so
# they are refused with the two ways a user has
DTYPE_HINT = ("smemlab.ops.matmul multiplies float32 only (on the CUDA cores, no tensor cores); for float16, "
              "bfloat16 or float64 use torch.matmul / cupy.matmul, or convert: matmul(a.float(), b.float())")
_F32 = np.dtype(np.float32)


def launch_shape(variant: str, m: int, n: int) -> tuple[tuple[int, int], int]:
    """(grid (x over N, y over M), threads per block) for `variant` on an M x N output."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)} is accepted")
    bm, bn, threads = VARIANTS[variant]
    gy = -(-m // bm)
    if gy > 65535:
        raise ValueError(f"M = {m}: at most {65535 * bm} rows for variant {variant}")
    return (-(-n // bn), gy), threads


# The kernels of the transposed layouts, by name -> template instance (matmul.cu's section 10): one template a
# step, on how A and B lie (TA, TB); the row-major ("nn") kernels are the climb's steps, extern "C" by name
_TEMPLATES = {"tiled": "mm_tiled_t<{}>", "warptile_db16": "mm_warptile_t<16, {}>", "async": "mm_async_t<2, 4, 8, 16, 3, {}>"}
KERNELS = {f"mm_{step}_{layout}": t.format(f"{str(layout[0] == 't').lower()}, {str(layout[1] == 't').lower()}")
           for step, t in _TEMPLATES.items() for layout in LAYOUTS if layout != "nn"}
_INSTANCES = tuple(KERNELS.values())  # compiled with the extern "C" kernels: one NVRTC compile for the op


def kernel(name: str, dev: int) -> device.Kernel:
    """The op's kernel `name` (kernel_name's: mm_async, mm_warptile_db16_tt, ...) on device `dev`."""
    return device.kernel(SOURCE, KERNELS.get(name, name), device=dev, names=_INSTANCES)


def kernel_name(variant: str, layout: str = "nn") -> str:
    """The kernel of `variant` for operands stored as `layout` (LAYOUTS)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout {layout!r}: one of {', '.join(LAYOUTS)} is accepted")
    if layout != "nn" and variant not in IN_PLACE:
        raise ValueError(f"variant {variant}: only {', '.join(IN_PLACE)} read transposed operands (layout {layout!r})")
    return f"mm_{variant}" if layout == "nn" else f"mm_{variant}_{layout}"


def dynamic_smem(variant: str, layout: str = "nn") -> int:
    """Bytes of dynamic shared memory of mm_`variant` for `layout` (0: static only): its stages of A's
    and B's slabs, each K-major, in rows of BM (BN) floats where stored K-major (A transposed, B as
    is) and BM + 4 (BN + 4) where stored transposed into them (matmul.cu, SlabCopy)."""
    if variant not in DYNAMIC_SMEM or layout == "nn":
        return DYNAMIC_SMEM.get(variant, 0)
    bm, bn, _ = VARIANTS[variant]
    stages = DYNAMIC_SMEM[variant] // (16 * (bm + 4 + bn) * 4)
    return stages * 16 * (bm + 4 * (layout[0] == "n") + bn + 4 * (layout[1] == "t")) * 4


def kernel_args(a_ptr: int, b_ptr: int, c_ptr: int, m: int, n: int, k: int, variant: str = DEFAULT, ws_ptr: int = 0,
                counters_ptr: int = 0, layout: str = "nn") -> tuple:
    """The arguments of the mm_`variant` kernel (of `layout`): the three pointers, M, N, K and the flags
    that allow 16-byte accesses (a stored row's start 16-byte aligned: A's rows are K floats long,
    M where A is transposed; B's N, K where B is), as Python ints (see smemlab.device.launch); for the
    kernels of DYNAMIC_SMEM also the split-K workspace and tile counters (unread, may be 0, when not
    split)."""
    a_row = m if layout[0] == "t" else k
    b_row = k if layout[1] == "t" else n
    args = (a_ptr, b_ptr, c_ptr, m, n, k, int(a_row % 4 == 0 and a_ptr % 16 == 0),
            int(b_row % 4 == 0 and b_ptr % 16 == 0), int(n % 4 == 0 and c_ptr % 16 == 0))
    return args + (ws_ptr, counters_ptr) if variant in DYNAMIC_SMEM else args


class Plan(NamedTuple):
    """One launch of matmul: the variant, its grid (x over N, y over M, z over the splits of K),
    threads, dynamic shared memory (bytes), the splits of K and the operands' layout (LAYOUTS): the
    kernel is `kernel_name(variant, layout)`."""
    variant: str
    grid: tuple[int, int, int]
    threads: int
    smem: int
    splits: int
    layout: str = "nn"

    @property
    def kernel(self) -> str:
        return kernel_name(self.variant, self.layout)


def choose_splits(variant: str, m: int, n: int, k: int, sms: int) -> int:
    """How many blocks share each output tile's K for mm_`variant` (1 for the kernels that cannot
    split): `split_model` on its tiles."""
    if variant not in DYNAMIC_SMEM:
        return 1
    bm, bn, _ = VARIANTS[variant]
    return split_model(-(-m // bm) * -(-n // bn), k, sms)


def grid_cost(tiles: int, k: int, splits: int, sms: int) -> float:
    """The time of `tiles` x `splits` blocks, each multiplying K / splits, in units of one K step of
    a block on an SM it shares with another: the grid's blocks go to the SMs evenly and the busiest
    SM decides (two at once each take twice as long, so n blocks on an SM cost n; one alone, ALONE)."""
    per_sm = -(-tiles * splits // sms)
    return -(-k // splits) * (ALONE if per_sm == 1 else per_sm)


def split_model(tiles: int, k: int, sms: int) -> int:
    """The splits of K with the least `grid_cost`; a split must buy 3% (each one writes and reads
    back a partial tile), and slices keep MIN_SLICE of K (SHARED_SLICE where blocks share SMs)."""
    best, best_cost = 1, grid_cost(tiles, k, 1, sms)
    for s in range(2, min(MAX_SPLITS, k // MIN_SLICE) + 1):
        if tiles * s > sms and k < s * SHARED_SLICE:
            continue
        cost = grid_cost(tiles, k, s, sms)
        if cost < best_cost * 0.97:
            best, best_cost = s, cost
    return best


def plan(m: int, n: int, k: int, sms: int, variant: str | None = None, splits: int | None = None,
         layout: str = "nn") -> Plan:
    """The launch `matmul` makes for (M, K) @ (K, N) on a GPU of `sms` SMs, the operands stored as
    `layout`: with neither given, the variant and splits `choose` picks (the same for every layout:
    the loads differ, not the tiles); a variant alone splits as `choose_splits` says; splits alone
    run on SPLIT."""
    if variant is None and splits is None:
        variant, splits = choose(m, n, k, sms)
    variant = variant or SPLIT  # splits given alone: the kernel that splits best
    (gx, gy), threads = launch_shape(variant, m, n)
    if splits is None:
        splits = choose_splits(variant, m, n, k, sms)
    elif splits != 1 and variant not in DYNAMIC_SMEM:
        raise ValueError(f"splits={splits}: variant {variant} does not split K (only {', '.join(DYNAMIC_SMEM)} do)")
    elif not 1 <= splits <= MAX_SPLITS:
        raise ValueError(f"splits={splits}: 1 to {MAX_SPLITS} are accepted")
    kernel_name(variant, layout)  # a layout the variant has no kernel for: refused here
    return Plan(variant, (gx, gy, splits), threads, dynamic_smem(variant, layout), splits, layout)


_PLANS: dict[tuple, Plan] = {}  # a call's plan by its shape and arguments: choose_splits costs microseconds


def split_workspace(p: Plan, stream: int, alloc=cupy_scratch, own_pool: bool = False) -> tuple[Any, int, int]:
    """(holder, partials pointer, counters pointer) for launching plan `p` on `stream`: a split launch's
    own partial tiles (splits x tiles x 64 KB: 126 MB for 3001x4999 in 2 splits) and tile counters
    (zeroed on the stream; the last block of a tile leaves its counter at 0 too) from `alloc`, the
    caller's allocator (_args.workspace); (None, 0, 0) when it does not split: the kernel never reads
    them."""
    if p.splits == 1:
        return None, 0, 0
    bm, bn, _ = VARIANTS[p.variant]
    tiles = p.grid[0] * p.grid[1]
    held, counters, partials = workspace(alloc, tiles, 4 * tiles * p.splits * bm * bn, stream, own_pool)
    return held, partials, counters


# What chose `choose` (an H200, 2026-11-22, tools/sweeps/matmul_sweep.py): kernel time, back-to-back launches
# between CUDA events (median of 5 batches), as a fraction of the best cuBLAS (TF32 off; CuPy or
# torch), async at its best splits (in brackets); cuBLAS's own time last:
#   M x N x K         tiled  warptile_db16  pack       async      cuBLAS
#   256^3             2.116  0.779          0.844 (2)  0.902 (2)     23.3 us
#   512^3             0.691  0.418          0.833 (4)  0.878 (4)     23.8
#   768^3             0.292  0.409          0.751 (3)  0.818 (3)     34.3
#   1000^3            0.207  0.456          0.710 (4)  0.758 (4)     50.8
#   1024^3            0.231  0.505          0.787 (4)  0.844 (4)     56.4
#   2048^3            -      0.867          0.747 (1)  0.806 (1)    342.6
#   3001x4999x2003    -      0.886          0.787 (3)  0.913 (3)   1453.1  (2 splits: 0.903)
#   4096^3            -      0.865          0.744 (1)  0.818 (1)   2696.2
#   4097x4095x4093    -      0.869          0.734 (1)  0.837 (1)   2840.7
#   8192^3            -      0.877          0.753 (1)  0.833 (1)  21523.2
# The 32x32 tiles win at 256^3 and lose at 512^3 (TILED_WORK: where the two lines cross, 5 x 256^3,
# not measured itself); pack (register staging and the paired lanes) is slower than warptile_db16
# everywhere; 64x64 warp tiles (8x16 outputs a thread, the sweep's "wide") were slower still.
#
# Tried for issue 13 (target 0.90 everywhere), none faster, so `choose` is as above (an H200, 2026-11-22,
# two runs of tools/sweeps/matmul_sweep.py, same timing; best split in brackets; the rows are in
# tools/sweeps/data/matmul_sweep_issue13_h200.jsonl, where wt_split16 is named warptile_split):
#   M x N x K         warptile_db16  wt_pair16  wt_pa16  wt_pa8  wt_split16  async      db_w128_p8
#   1024^3            0.506          0.511      0.455    0.504   0.856 (4)   0.843 (4)  0.697 (4)
#   1000^3            0.455          0.457      0.414    0.445   0.768 (4)   0.766-0.772 (4)
#   768^3             0.405          -          -        -       0.793 (3)   0.811 (3)
#   2048^3            0.867          0.860      0.814    0.843   -           0.806      0.846
#   3001x4999x2003    0.884          0.880      0.830    0.831   0.880 (3)   0.912 (3)  0.787 (3)
#   4096^3            0.861          0.858      0.812    0.840   -           0.816      0.838
#   4097x4095x4093    0.869          0.864      0.815    0.818   -           0.834      0.771
#   8192^3            0.877          0.872      0.823    0.852   -           0.833      0.836
# wt_* are warptile_db16 with one change each: flags on warptile_body, kept out of the library's source
# (`git apply tools/sweeps/data/matmul_issue13_variants.patch` adds them and the sweep's WT_CONFIGS; the
# library's kernels compile to the same SASS with them). pair16: mm_pack's paired lanes (a fragment
# load 2 wavefronts, not 4): no gain, so shared-memory wavefronts are not what limits it.
# pa16: also A's loads 16 rows x 2 quads a warp (transposed stores conflict-free): 5% slower (our
# reading, not profiled: each warp's load then touches 16 rows' cache lines, not 8). pa8: the same at
# BK = 8. split16: the loop over a slice of K with async's hand-off (24 bytes spilled): 1.5% faster than
# async at 1024^3 (one run), equal at 1000^3, slower at 768^3 and 3001x4999x2003, though warptile_db16's
# loop beats async's at 4096^3 (0.861 against 0.816): the split grids' time is not the loop's.
# db_w128_p8 and four more (not kept): a register-staged template with dynamic stages, paired lanes,
# unchecked loads inside the matrices and split-K; 128x128 tiles 0.69-0.78 (they spilled
# in the loop: at 128 registers for 2 blocks an SM, several changes to warptile_db16's loop tipped NVRTC
# into spilling, e.g. AMAP alone 56 bytes; check with cuobjdump -res-usage), 64x64 warp tiles of 128
# threads above, 128x256 tiles a block an SM 0.74. Not tried: smaller tiles or stream-K instead of
# split-K at 1024^3 (4 splits write and read back 16 MB of partial tiles; that cost was not measured).


def choose(m: int, n: int, k: int, sms: int) -> tuple[str, int]:
    """(variant, splits) that `matmul` uses by default for (M, K) @ (K, N) on `sms` SMs: the 32x32
    tiles up to TILED_WORK, else warptile_db16 unless async at its modelled splits is cheaper in
    `grid_cost` (ASYNC_COST per tile): where the 128x128 tiles leave SMs idle or end on a short wave."""
    if m * n * k <= TILED_WORK:
        return "tiled", 1
    bm, bn, _ = VARIANTS[SPLIT]
    tiles = -(-m // bm) * -(-n // bn)
    s = split_model(tiles, k, sms)
    if grid_cost(tiles, k, s, sms) * ASYNC_COST < grid_cost(tiles, k, 1, sms):
        return SPLIT, s
    return DEFAULT, 1


def matmul(a: Any, b: Any, *, variant: str | None = None, splits: int | None = None) -> Any:
    """a @ b in float32 on the CUDA cores, of the caller's array type (see the module doc).
    `variant`: a step of the climb; None picks by shape (`choose`). `splits`: blocks per output
    tile sharing K (pack and async; given alone: async); None picks by shape."""
    ops = torch_ops(a, b)
    if ops is not None:
        return ops.matmul(a, b, variant, splits)
    return run(a, b, variant=variant, splits=splits)


def read_layout(va: GpuArray, vb: GpuArray, variant: str | None) -> str:
    """The layout (LAYOUTS) the launch reads `va` and `vb` in: a column-major operand is read in place
    (its `strided` cleared: no copy) where the variant has kernels for it (IN_PLACE; None picks
    among them); any other strided view stays strided, and `resolve` copies it to row-major."""
    in_place = variant is None or variant in IN_PLACE
    ta, tb = (in_place and column_major(v) for v in (va, vb))
    for v, t in ((va, ta), (vb, tb)):
        if t:
            v.strided = False
    return ("t" if ta else "n") + ("t" if tb else "n")


def run(a: Any, b: Any, *, variant: str | None = None, splits: int | None = None) -> Any:
    """`matmul` without the torch dispatcher: what torch.ops.smemlab.matmul runs."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)} is accepted")
    if splits is not None and (type(splits) is not int or not 1 <= splits <= MAX_SPLITS):
        raise ValueError(f"splits={splits!r}: an int from 1 to {MAX_SPLITS} is accepted")
    try:
        va = read(a, "a", DTYPES, (2,), allow_empty=True)
        vb = read(b, "b", DTYPES, (2,), allow_empty=True)
    except TypeError as exc:
        if "dtype" in str(exc):
            raise TypeError(f"{exc}. {DTYPE_HINT}") from None
        raise
    same_framework(va, vb, ("a", "b"))
    layout = read_layout(va, vb, variant)
    (m, k), (k2, n) = va.shape, vb.shape
    if k != k2:
        raise ValueError(f"shapes {tuple(va.shape)} and {tuple(vb.shape)} were given; a (M, K) and b (K, N) with "
                         f"equal K are accepted")
    if max(m, n, k) > MAX_DIM:
        raise ValueError(f"shapes {tuple(va.shape)} and {tuple(vb.shape)}: each dimension must be below 2^31")
    with va.on_device():  # the device known from here on (an array that names none: its pointer's)
        vb.resolve()
        if vb.device != va.device:
            raise ValueError(f"a is on GPU {va.device} and b on GPU {vb.device}; both on one GPU is accepted")
        stream = va.stream()
        vb.wait_for_producer(stream)
        if 0 in (m, n, k):  # nothing to multiply: an empty product, or K = 0's zeros
            return va.zeros((m, n), _F32, stream)[0]
        key = (m, n, k, variant, splits, va.device, layout)
        p = _PLANS.get(key)
        if p is None:
            if len(_PLANS) > 4096:
                _PLANS.clear()
            p = _PLANS[key] = plan(m, n, k, device.facts(va.device).sms, variant, splits, layout)
        c, c_ptr = va.empty((m, n), _F32)
        kern = kernel(p.kernel, va.device)
        held, ws_ptr, counters_ptr = split_workspace(p, stream, va.scratch, va.kind == "torch")
        device.launch(kern, p.grid, p.threads,
                      kernel_args(va.ptr, vb.ptr, c_ptr, m, n, k, p.variant, ws_ptr, counters_ptr, layout), stream, p.smem)
        del held
        return c
