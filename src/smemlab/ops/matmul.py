"""matmul(a, b): float32 C = A @ B on the CUDA cores (FFMA; no tensor cores, no TF32).

    c = matmul(a, b)

- `a` (M, K) and `b` (K, N): 2-D, contiguous (row-major) float32 CuPy arrays or CUDA torch tensors,
  of one type and on one device; any M, N, K >= 1 (each < 2^31).
- Returns c (M, N) float32 of the caller's array type, computed on the caller's current stream.
- Every product is plain IEEE float32 arithmetic (fused multiply-adds, K-order accumulation per
  thread): compare with cuBLAS SGEMM with TF32 off, not with torch's default TF32 matmul.

`variant` picks a step of the climb (kernels/ops_matmul.cu): "tiled", "blocktile1d",
"blocktile2d", "vectorized", "warptile", "warptile_db", "warptile_db16" (the default). Each is
correct for any shape: guarded loads (zero outside the matrices), predicated stores, and 16-byte
accesses only where a row's start is 16-byte aligned.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smemlab.ops import _common as C

SOURCE = "ops_matmul.cu"
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


def launch_shape(variant: str, m: int, n: int) -> tuple[tuple[int, int], int]:
    """(grid (x over N, y over M), threads per block) for `variant` on an M x N output."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)} is accepted")
    bm, bn, threads = VARIANTS[variant]
    gy = -(-m // bm)
    if gy > 65535:
        raise ValueError(f"M = {m}: at most {65535 * bm} rows for variant {variant}")
    return (-(-n // bn), gy), threads


def matmul(a: Any, b: Any, *, variant: str = DEFAULT) -> Any:
    """a @ b in float32 on the CUDA cores, of the caller's array type (see the module doc)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: one of {', '.join(VARIANTS)} is accepted")
    if type(a).__module__.split(".")[0] != type(b).__module__.split(".")[0] and all(
        type(x).__module__.split(".")[0] in ("cupy", "torch") for x in (a, b)
    ):
        raise TypeError(f"a is a {type(a).__module__}.{type(a).__name__} and b a {type(b).__module__}.{type(b).__name__}; two arrays of one type (CuPy or torch) are accepted")
    va, back = C.as_cupy(a, "a", ("float32",), (2,))
    vb, _ = C.as_cupy(b, "b", ("float32",), (2,))
    (m, k), (k2, n) = va.shape, vb.shape
    if k != k2:
        raise ValueError(f"shapes {va.shape} and {vb.shape} were given; a (M, K) and b (K, N) with equal K are accepted")
    if va.device.id != vb.device.id:
        raise ValueError(f"a is on GPU {va.device.id} and b on GPU {vb.device.id}; both on one GPU is accepted")
    import cupy

    with cupy.cuda.Device(va.device.id), C.caller_stream(a, b):
        c = cupy.empty((m, n), dtype=cupy.float32)
        run(va, vb, c, variant)
        return back(c)


def kernel_args(a, b, c) -> tuple:
    """The arguments every mm_* kernel takes after its three pointers' arrays: M, N, K and the
    flags that allow 16-byte accesses (a row's start 16-byte aligned)."""
    (m, k), n = a.shape, b.shape[1]
    vec_a = int(k % 4 == 0 and a.data.ptr % 16 == 0)
    vec_b = int(n % 4 == 0 and b.data.ptr % 16 == 0)
    vec_c = int(n % 4 == 0 and c.data.ptr % 16 == 0)
    i32 = np.int32
    return a, b, c, i32(m), i32(n), i32(k), i32(vec_a), i32(vec_b), i32(vec_c)


def run(a, b, c, variant: str) -> None:
    """Enqueue the kernel of `variant` on CuPy's current stream: c = a @ b (CuPy arrays, all
    C-contiguous, c of shape (M, N))."""
    grid, threads = launch_shape(variant, a.shape[0], b.shape[1])
    C.launch(C.kernel(SOURCE, f"mm_{variant}"), grid, threads, *kernel_args(a, b, c))
