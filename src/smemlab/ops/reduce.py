"""smemlab.ops.reduce_sum: the sum of all elements, in one kernel launch.

dtype=None follows CuPy and NumPy: int32 sums into int64, float32 into float32, float64 into
float64. dtype may also be given: int32 input -> int32 (the int64 sum wrapped modulo 2^32, as
NumPy's `x.sum(dtype=np.int32)`) or int64; float32 input -> float32 or float64 (accumulated in
float64 per thread); float64 input -> float64.

Accuracy: integer sums are exact. A float32 sum keeps 32 independent float32 accumulators per
thread (chains of roughly n / (16 x threads in the grid) elements), adds them pairwise, then
across the warp and block in float32; the per-block partials and the final sum are added in
float64 and rounded once to float32. Its error is that of a sum of chains of n / 4M elements,
far under the sqrt(n) x eps x ||x|| bound the tests check (and no worse than CuPy's CUB sum).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from smemlab.ops import _common as C

SOURCE = "ops_reduce.cu"
NT = 256
DTYPES = ("int32", "float32", "float64")
_OUT = {  # (input, output) -> kernel, partial dtype
    ("int32", "int64"): ("reduce_i32_i64", "int64"),
    ("int32", "int32"): ("reduce_i32_i64", "int64"),
    ("float32", "float32"): ("reduce_f32_f32", "float64"),
    ("float32", "float64"): ("reduce_f32_f64", "float64"),
    ("float64", "float64"): ("reduce_f64_f64", "float64"),
}
_DEFAULT = {"int32": "int64", "float32": "float32", "float64": "float64"}


class _Workspace:
    """Per (device, stream): the partials buffer and the last-block counter (kept at 0 between
    launches: the last block resets it), so a launch needs no memset."""

    def __init__(self, blocks: int):
        import cupy

        self.partials = cupy.empty(blocks, dtype=np.float64)  # 8-byte slots: int64 or float64
        self.counter = cupy.zeros(1, dtype=np.uint32)


_WS: dict[tuple[int, int], _Workspace] = {}
_WS_LOCK = threading.Lock()
_GRID: dict[tuple[int, str], int] = {}


def _grid(name: str) -> int:
    dev = C._device_id()
    g = _GRID.get((dev, name))
    if g is None:
        k = C.kernel(SOURCE, name)
        try:
            per_sm = int(k.handle.occupancy.max_active_blocks_per_multiprocessor(NT, 0))
        except Exception:
            per_sm = 2
        g = _GRID[(dev, name)] = C.sm_count() * max(1, min(2 * per_sm, 8))
    return g


def _workspace(blocks: int):
    import cupy

    key = (C._device_id(), int(cupy.cuda.get_current_stream().ptr))
    with _WS_LOCK:
        ws = _WS.get(key)
        if ws is None or ws.partials.size < blocks:
            if len(_WS) > 32:
                _WS.clear()
            ws = _WS[key] = _Workspace(blocks)  # zeroed on this stream, before our launch
    return ws


def result_dtype(x_dtype: Any, dtype: Any = None) -> np.dtype:
    """The output dtype reduce_sum gives for an input dtype and a `dtype=` argument."""
    x_dtype = np.dtype(x_dtype)
    if dtype is None:
        return np.dtype(_DEFAULT[x_dtype.name])
    ok = [o for (i, o) in _OUT if i == x_dtype.name]
    d = C.check_dtype_arg(dtype, "dtype", ok)
    return d


def reduce_sum(x: Any, dtype: Any = None) -> Any:
    """The sum of all elements of `x` (int32, float32 or float64, contiguous, any rank 1-4, on the
    GPU) as a 0-d array of the caller's type, computed on the caller's current stream. `dtype`:
    see the module doc (None matches `cupy.sum`: int32 -> int64). An empty array sums to 0."""
    info = C.check_array(x, "x", DTYPES, (1, 2, 3, 4), allow_empty=True)
    out_dtype = result_dtype(info.dtype, dtype)
    a, back = C.as_cupy(x, "x", DTYPES, (1, 2, 3, 4), allow_empty=True)
    import cupy

    name, _ = _OUT[(info.dtype.name, out_dtype.name)]
    kernel_out = np.dtype(np.int64) if info.dtype.name == "int32" else out_dtype
    with C.caller_stream(x):
        out = cupy.empty((), dtype=kernel_out)
        n = int(a.size)
        if n == 0:
            out.fill(0)
        else:
            k = C.kernel(SOURCE, name)
            blocks = min(_grid(name), max(1, -(-n // (NT * 4))))  # (each thread at least one vector)
            ws = _workspace(_grid(name))
            C.launch(k, blocks, NT, a, np.uint64(n), ws.partials, ws.counter, out)
        if kernel_out != out_dtype:
            out = out.astype(out_dtype)  # int64 -> int32 wraps modulo 2^32, like NumPy
        return back(out)
