"""matmul(a, b): float32 C = A @ B on the CUDA cores (FFMA; no tensor cores, no TF32).

    c = matmul(a, b)

- `a` (M, K) and `b` (K, N): 2-D, contiguous (row-major) float32 CuPy arrays or CUDA torch tensors,
  of one type and on one device; any M, N, K >= 1 (each < 2^31).
- Returns c (M, N) float32 of the caller's array type, computed on the caller's current stream.
- Every product is plain IEEE float32 arithmetic (fused multiply-adds, K-order accumulation per
  thread): compare with cuBLAS SGEMM with TF32 off, not with torch's default TF32 matmul.

`variant` picks a step of the climb (kernels/lib/matmul.cu): "tiled", "blocktile1d",
"blocktile2d", "vectorized", "warptile", "warptile_db", "warptile_db16", "pack", "async", "wide";
by default the one that was fastest for the output's size (`BY_SIZE`: 32x32 tiles for small
outputs). Each is correct for any shape: guarded loads (zero outside the matrices), predicated
stores, and 16-byte accesses only where a row's start is 16-byte aligned.

`splits`: the last three split K over that many blocks per output tile when the tiles alone would
leave SMs idle (`choose_splits`: 1024 x 1024 is 64 tiles for 132 SMs); the last block of a tile
adds the partials in a fixed order, so the result does not depend on which block finishes first.
"""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

import numpy as np

from smemlab import device
from smemlab.ops._args import Dtypes, read, same_framework

SOURCE = "lib/matmul.cu"
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
    "wide": (128, 128, 128),
}
# the kernels that keep their stages in dynamic shared memory (bytes: stages x BK x (BM + 4 + BN)
# floats) and take the split-K workspace (two more arguments)
DYNAMIC_SMEM = {"pack": 2 * 16 * 260 * 4, "async": 3 * 16 * 260 * 4, "wide": 4 * 8 * 260 * 4}
RESIDENT = 2  # blocks of each of them an SM holds (__launch_bounds__ min blocks; registers)
MAX_SPLITS = 16
MIN_SLICE = 128  # K per split at least: shorter slices spend more on the hand-off than they gain
DEFAULT = "warptile_db16"  # fastest in the recorded run (H100: 86-90% of cuBLAS)
MAX_DIM = (1 << 31) - 1
DTYPES = Dtypes("float32")
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


def kernel_args(a_ptr: int, b_ptr: int, c_ptr: int, m: int, n: int, k: int, variant: str = DEFAULT, ws_ptr: int = 0,
                counters_ptr: int = 0) -> tuple:
    """The arguments of the mm_`variant` kernel: the three pointers, M, N, K and the flags that allow
    16-byte accesses (a row's start 16-byte aligned), as Python ints (see smemlab.device.launch);
    for the kernels of DYNAMIC_SMEM also the split-K workspace and tile counters (unread, may be 0,
    when not split)."""
    args = (a_ptr, b_ptr, c_ptr, m, n, k, int(k % 4 == 0 and a_ptr % 16 == 0),
            int(n % 4 == 0 and b_ptr % 16 == 0), int(n % 4 == 0 and c_ptr % 16 == 0))
    return args + (ws_ptr, counters_ptr) if variant in DYNAMIC_SMEM else args


class Plan(NamedTuple):
    """One launch of matmul: the kernel mm_`variant`, its grid (x over N, y over M, z over the
    splits of K), threads, dynamic shared memory (bytes) and the splits of K."""
    variant: str
    grid: tuple[int, int, int]
    threads: int
    smem: int
    splits: int


def choose_splits(variant: str, m: int, n: int, k: int, sms: int) -> int:
    """How many blocks share each output tile's K for mm_`variant` (1 for the kernels that cannot
    split): `split_model` on its tiles."""
    if variant not in DYNAMIC_SMEM:
        return 1
    bm, bn, _ = VARIANTS[variant]
    return split_model(-(-m // bm) * -(-n // bn), k, sms)


def split_model(tiles: int, k: int, sms: int, resident: int = RESIDENT) -> int:
    """The splits of K that finish first in a model where every SM runs `resident` blocks at once at
    its full rate (one alone at about 2/3 of it) and the grid's blocks go to the SMs evenly:
    time ~ ceil(blocks / sms) x the K of a slice. Ties go to fewer splits (each split writes and
    reads back a partial tile), and a split must buy 3%. Slices keep MIN_SLICE of K."""
    best, best_cost = 1, None
    for s in range(1, MAX_SPLITS + 1):
        if s > 1 and k < s * MIN_SLICE:
            break
        per_sm = -(-tiles * s // sms)
        cost = -(-k // s) * (per_sm if per_sm >= resident else 1.5 * per_sm)
        if best_cost is None or cost < best_cost * 0.97:
            best, best_cost = s, cost
    return best


def plan(m: int, n: int, k: int, sms: int, variant: str | None = None, splits: int | None = None) -> Plan:
    """The launch `matmul` makes for (M, K) @ (K, N) on a GPU of `sms` SMs: the variant by size
    (`choose`) unless given, the splits of K by `choose_splits` unless given."""
    variant = variant or choose(m, n)
    (gx, gy), threads = launch_shape(variant, m, n)
    if splits is None:
        splits = choose_splits(variant, m, n, k, sms)
    elif splits != 1 and variant not in DYNAMIC_SMEM:
        raise ValueError(f"splits={splits}: variant {variant} does not split K (only {', '.join(DYNAMIC_SMEM)} do)")
    elif not 1 <= splits <= min(MAX_SPLITS, 65535):
        raise ValueError(f"splits={splits}: 1 to {MAX_SPLITS} are accepted")
    return Plan(variant, (gx, gy, splits), threads, DYNAMIC_SMEM.get(variant, 0), splits)


class _Workspace:
    """Per (device, stream): the split-K partial tiles and the tile counters, which the last block
    of each tile resets to 0, so a launch needs no memset. Grown (never shrunk) with the device
    synchronised, so that no launch still in flight uses the memory given back."""

    def __init__(self):
        self.floats = self.tiles = 0
        self.ws = self.counters = None
        self.ws_ptr = self.counters_ptr = 0

    def fit(self, floats: int, tiles: int) -> None:
        if floats <= self.floats and tiles <= self.tiles:
            return
        import cupy

        cupy.cuda.runtime.deviceSynchronize()
        self.floats, self.tiles = max(floats, self.floats), max(tiles, self.tiles)
        self.ws = cupy.empty(self.floats, dtype=np.float32)
        self.counters = cupy.zeros(self.tiles, dtype=np.uint32)
        cupy.cuda.runtime.deviceSynchronize()  # the zeroing ran on CuPy's stream, not the caller's
        self.ws_ptr, self.counters_ptr = self.ws.data.ptr, self.counters.data.ptr


_WS: dict[tuple[int, int], _Workspace] = {}
_PLANS: dict[tuple, Plan] = {}  # a call's plan by its shape and arguments: choose_splits costs microseconds
_WS_LOCK = threading.Lock()


def workspace(p: Plan, dev: int, stream: int) -> tuple[int, int]:
    """(partials pointer, counters pointer) for launching plan `p` on `stream` of device `dev`
    ((0, 0) when it does not split: the kernel never reads them)."""
    if p.splits == 1:
        return 0, 0
    bm, bn, _ = VARIANTS[p.variant]
    tiles = p.grid[0] * p.grid[1]
    with _WS_LOCK:
        ws = _WS.get((dev, stream))
        if ws is None:
            if len(_WS) > 32:  # streams long gone
                _WS.clear()
            ws = _WS[(dev, stream)] = _Workspace()
        ws.fit(tiles * p.splits * bm * bn, tiles)
        return ws.ws_ptr, ws.counters_ptr


# The variant for an M x N output, by the number of output elements (the kernel alone, square
# sizes, an H200, 2026-11-22, tools/matmul_variants.py, microseconds; cuBLAS TF32 off):
#   size        128   256   384   512   768  1024  1536  2048  4096
#   tiled       6.5  11.2  26.4  34.5   117   244   804  1930 16472
#   blocktile1d 12.1 22.2  32.9  42.9  91.8   122   462  1027  8581
#   warptile_db16 16.4 29.9 43.3  56.9  83.6   111   296   394  3103
#   cuBLAS     17.0  20.7  20.9  20.9  34.0  56.2   188   341  2673
# Small outputs fill the GPU only with small tiles: 32x32 tiles up to 512 x 512, then the 128x128
# warp tiles, which win from 768 x 768 on.
BY_SIZE = ((512 * 512, "tiled"), (None, DEFAULT))


def choose(m: int, n: int) -> str:
    """The variant `matmul` uses for an M x N output (BY_SIZE)."""
    for limit, variant in BY_SIZE:
        if limit is None or m * n <= limit:
            return variant
    return DEFAULT


def matmul(a: Any, b: Any, *, variant: str | None = None, splits: int | None = None) -> Any:
    """a @ b in float32 on the CUDA cores, of the caller's array type (see the module doc).
    `variant`: a step of the climb; None picks by size (`choose`). `splits`: blocks per output
    tile sharing K (the last three variants); None picks by shape (`choose_splits`)."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)} is accepted")
    if splits is not None and (type(splits) is not int or not 1 <= splits <= MAX_SPLITS):
        raise ValueError(f"splits={splits!r}: an int from 1 to {MAX_SPLITS} is accepted")
    va = read(a, "a", DTYPES, (2,))
    vb = read(b, "b", DTYPES, (2,))
    same_framework(va, vb, ("a", "b"))
    (m, k), (k2, n) = va.shape, vb.shape
    if k != k2:
        raise ValueError(f"shapes {tuple(va.shape)} and {tuple(vb.shape)} were given; a (M, K) and b (K, N) with "
                         f"equal K are accepted")
    if max(m, n, k) > MAX_DIM:
        raise ValueError(f"shapes {tuple(va.shape)} and {tuple(vb.shape)}: each dimension must be below 2^31")
    key = (m, n, k, variant, splits, va.device)
    p = _PLANS.get(key)
    if p is None:
        if len(_PLANS) > 4096:
            _PLANS.clear()
        p = _PLANS[key] = plan(m, n, k, device.facts(va.device).sms, variant, splits)
    with va.on_device():
        c, c_ptr = va.empty((m, n), _F32)
        stream = va.stream()
        kern = device.kernel(SOURCE, f"mm_{p.variant}", device=va.device)
        ws_ptr, counters_ptr = workspace(p, va.device, stream)
        device.launch(kern, p.grid, p.threads, kernel_args(va.ptr, vb.ptr, c_ptr, m, n, k, p.variant, ws_ptr, counters_ptr),
                      stream, p.smem)
        return c
