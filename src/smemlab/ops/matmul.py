"""matmul(a, b): float32 C = A @ B on the CUDA cores (FFMA; no tensor cores, no TF32).

    c = matmul(a, b)

- `a` (M, K) and `b` (K, N): 2-D, contiguous (row-major) float32 CuPy arrays or CUDA torch tensors,
  of one type and on one device; any M, N, K >= 1 (each < 2^31).
- Returns c (M, N) float32 of the caller's array type, computed on the caller's current stream.
- Every product is plain IEEE float32 arithmetic (fused multiply-adds, K-order accumulation per
  thread): compare with cuBLAS SGEMM with TF32 off, not with torch's default TF32 matmul.

`variant` picks a step of the climb (kernels/lib/matmul.cu): "tiled", "blocktile1d",
"blocktile2d", "vectorized", "warptile", "warptile_db", "warptile_db16"; by default the one that
was fastest for the output's size (`BY_SIZE`: 32x32 tiles for small outputs). Each is
correct for any shape: guarded loads (zero outside the matrices), predicated stores, and 16-byte
accesses only where a row's start is 16-byte aligned.
"""

from __future__ import annotations

from typing import Any

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
}
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


def kernel_args(a_ptr: int, b_ptr: int, c_ptr: int, m: int, n: int, k: int) -> tuple:
    """The arguments of every mm_* kernel: the three pointers, M, N, K and the flags that allow
    16-byte accesses (a row's start 16-byte aligned), as Python ints (see smemlab.device.launch)."""
    return (a_ptr, b_ptr, c_ptr, m, n, k, int(k % 4 == 0 and a_ptr % 16 == 0),
            int(n % 4 == 0 and b_ptr % 16 == 0), int(n % 4 == 0 and c_ptr % 16 == 0))


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


def matmul(a: Any, b: Any, *, variant: str | None = None) -> Any:
    """a @ b in float32 on the CUDA cores, of the caller's array type (see the module doc).
    `variant`: a step of the climb; None picks by size (`choose`)."""
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)} is accepted")
    va = read(a, "a", DTYPES, (2,))
    vb = read(b, "b", DTYPES, (2,))
    same_framework(va, vb, ("a", "b"))
    (m, k), (k2, n) = va.shape, vb.shape
    if k != k2:
        raise ValueError(f"shapes {tuple(va.shape)} and {tuple(vb.shape)} were given; a (M, K) and b (K, N) with "
                         f"equal K are accepted")
    if max(m, n, k) > MAX_DIM:
        raise ValueError(f"shapes {tuple(va.shape)} and {tuple(vb.shape)}: each dimension must be below 2^31")
    variant = variant or choose(m, n)
    grid, threads = launch_shape(variant, m, n)
    with va.on_device():
        c, c_ptr = va.empty((m, n), _F32)
        kern = device.kernel(SOURCE, f"mm_{variant}", device=va.device)
        device.launch(kern, grid, threads, kernel_args(va.ptr, vb.ptr, c_ptr, m, n, k), va.stream())
        return c
