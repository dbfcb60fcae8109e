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

from smemlab import device
from smemlab.ops._args import Dtypes, check_dtype_arg, read

SOURCE = "lib/reduce.cu"
NT = 256
DTYPES = Dtypes("int32", "float32", "float64")
RANKS = (1, 2, 3, 4)
_OUT = {  # (input, output) -> kernel; the kernels of int32 input write int64 (keyed by dtype objects:
    # dtype.name costs 1.9 us a call)
    (np.dtype(i), np.dtype(o)): k for (i, o), k in {
        ("int32", "int64"): "reduce_i32_i64",
        ("int32", "int32"): "reduce_i32_i64",
        ("float32", "float32"): "reduce_f32_f32",
        ("float32", "float64"): "reduce_f32_f64",
        ("float64", "float64"): "reduce_f64_f64",
    }.items()
}
_DEFAULT = {np.dtype(k): np.dtype(v) for k, v in {"int32": "int64", "float32": "float32", "float64": "float64"}.items()}
_I64 = np.dtype(np.int64)
# A block's tile: NT threads x UNROLL (8, the kernel's default) 16-byte vectors. The grid has at most
# one block per tile (a block with no whole tile would only add its zero to the second phase), and
# up to ONE_BLOCK bytes one block sums everything and writes the result itself: the two-phase grid
# (partials, then the last block) costs a threadfence and an atomic round trip that dominate a sum
# of a few thousand elements.
TILE_BYTES = NT * 8 * 16
ONE_BLOCK = 2 * TILE_BYTES


class _Workspace:
    """Per (device, stream): the partials and the last-block counter, which the last block resets
    to 0, so a launch needs no memset. Zeroed once, with the device synchronised, when made."""

    def __init__(self, blocks: int):
        import cupy

        self.partials = cupy.empty(blocks, dtype=np.float64)  # 8-byte slots: int64 or float64
        self.counter = cupy.zeros(1, dtype=np.uint32)
        cupy.cuda.runtime.deviceSynchronize()  # the zeroing ran on CuPy's stream, not the caller's
        self.partials_ptr, self.counter_ptr = self.partials.data.ptr, self.counter.data.ptr


_WS: dict[tuple[int, int], _Workspace] = {}
_WS_LOCK = threading.Lock()
_PLANS: dict[tuple[int, str], tuple[device.Kernel, int]] = {}


def _plan(dev: int, name: str) -> tuple[device.Kernel, int]:
    """(kernel, grid: the resident blocks, one wave; see kernels/lib/reduce.cu) for kernel `name` on `dev`."""
    plan = _PLANS.get((dev, name))
    if plan is None:
        k = device.kernel(SOURCE, name, device=dev)
        per_sm = k.blocks_per_sm(NT)
        plan = _PLANS[(dev, name)] = (k, device.facts(dev).sms * max(1, min(per_sm, 8)))
    return plan


def _workspace(dev: int, stream: int, blocks: int) -> _Workspace:
    ws = _WS.get((dev, stream))
    if ws is None:
        with _WS_LOCK:
            if len(_WS) > 32:  # streams long gone
                _WS.clear()
            ws = _WS[(dev, stream)] = _Workspace(blocks)
    return ws


def result_dtype(x_dtype: Any, dtype: Any = None) -> np.dtype:
    """The output dtype reduce_sum gives for an input dtype and a `dtype=` argument."""
    x_dtype = np.dtype(x_dtype)
    if dtype is None:
        return _DEFAULT[x_dtype]
    return check_dtype_arg(dtype, "dtype", [o for (i, o) in _OUT if i == x_dtype])


_CALLS: dict[tuple[np.dtype, Any], tuple[str, np.dtype, np.dtype, bool]] = {}


def _call_plan(x_dtype: np.dtype, dtype: Any) -> tuple[str, np.dtype, np.dtype, bool]:
    """(kernel, the kernel's output dtype, the result's dtype, whether the result is cast from the
    kernel's) for an input dtype and a `dtype=` argument; kept per pair where the argument can be a
    key, so that a call compares no NumPy dtypes (0.3 us each)."""
    key = (x_dtype, dtype)
    try:
        plan = _CALLS.get(key)
    except TypeError:  # an unhashable dtype= argument: checked (and refused) below
        key, plan = None, None
    if plan is None:
        out_dtype = _DEFAULT[x_dtype] if dtype is None else result_dtype(x_dtype, dtype)
        kernel_out = _I64 if x_dtype.kind == "i" else out_dtype
        plan = (_OUT[(x_dtype, out_dtype)], kernel_out, out_dtype, kernel_out != out_dtype)
        if key is not None:
            _CALLS[key] = plan
    return plan


def kernel_name(x_dtype: Any, out_dtype: Any) -> str:
    """The kernel that sums `x_dtype` into `out_dtype` (int32 input: an int64 result, whatever `out_dtype`)."""
    return _OUT[(np.dtype(x_dtype), np.dtype(out_dtype))]


def launch(kernel: str, x_ptr: int, n: int, itemsize: int, out_ptr: int, dev: int, stream: int) -> None:
    """Enqueue the sum of the n >= 1 elements at `x_ptr` into the one value at `out_ptr` with `kernel`
    (kernel_name) on the raw stream handle `stream`: what `reduce_sum` launches, and what the reduce
    experiment times as its last variants. One launch; the partials and the counter are the stream's
    workspace."""
    k, grid = _plan(dev, kernel)
    ws = _workspace(dev, stream, grid)
    device.launch(k, _blocks(grid, n * itemsize), NT, (x_ptr, n, ws.partials_ptr, ws.counter_ptr, out_ptr), stream)


def _blocks(grid: int, nbytes: int) -> int:
    """Blocks of a launch over `nbytes`: one up to ONE_BLOCK, else one per tile, at most `grid`."""
    return 1 if nbytes <= ONE_BLOCK else min(grid, -(-nbytes // TILE_BYTES))


def launch_blocks(kernel: str, n: int, itemsize: int, dev: int) -> int:
    """The blocks `launch` runs for n elements of `itemsize` bytes on device `dev` (NT threads each)."""
    return _blocks(_plan(dev, kernel)[1], n * itemsize)


def reduce_sum(x: Any, dtype: Any = None) -> Any:
    """The sum of all elements of `x` (int32, float32 or float64, contiguous, any rank 1-4, on the
    GPU) as a 0-d array of the caller's type, computed on the caller's current stream. `dtype`:
    see the module doc (None matches `cupy.sum`: int32 -> int64). An empty array sums to 0."""
    a = read(x, "x", DTYPES, RANKS, allow_empty=True)
    name, kernel_out, out_dtype, cast = _call_plan(a.dtype, dtype)
    with a.on_device():
        n = a.size
        stream = a.stream()
        if n == 0:
            out, _ = a.zeros((), out_dtype, stream)
            return out
        out, out_ptr = a.scalar(kernel_out)
        launch(name, a.ptr, n, a.dtype.itemsize, out_ptr, a.device, stream)
        if cast:
            out = a.astype(out, out_dtype)  # int64 -> int32 wraps modulo 2^32, like NumPy
        return out
