"""smemlab.ops.reduce_sum: the sum of all elements, or of each row (axis=-1), in one kernel launch.

Result dtypes. dtype=None gives what both `torch.sum` (for torch tensors) and `cupy.sum` (for CuPy
arrays) give, which agree on every accepted input: int32 and int64 sum into int64; float16 into
float16, bfloat16 into bfloat16, float32 into float32 and float64 into float64 (the 16-bit types
accumulate in float32, as torch and CuPy do, and the result is rounded once to 16 bits). dtype may
also be given: int32 input -> int32 (the int64 sum wrapped modulo 2^32, as NumPy's
`x.sum(dtype=np.int32)`) or int64; float16 or bfloat16 input -> float32 (the float32 sum, not
rounded to 16 bits: `torch.sum(x, dtype=torch.float32)`); float32 input -> float64 (accumulated in
float64 per thread). bfloat16 comes from torch tensors only (NumPy and CuPy have no bfloat16).

axis: None (every element, a 0-d result) or the last axis (-1, or ndim - 1): one sum per row of the
array seen as (size / shape[-1], shape[-1]), a result of shape x.shape[:-1]. Rows shorter than 32 KB
are summed by groups of 1 to 32 threads each, longer rows by one or more blocks each
(reduce.cu, in this folder).

Accuracy: integer sums are exact (int64 wraps on overflow, as NumPy and torch do). A floating-point
sum keeps up to 32 independent accumulators per thread (chains of roughly n / (16 x threads in the
grid) elements for a full sum), adds them pairwise, then across the warp and block; the per-block
partials and the final sum are added in float64 and rounded once to the output type. Its error is
that of a sum of short chains, far under the sqrt(n) x eps x ||x|| bound the tests check (and no
worse than CuPy's CUB sum).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smemlab import device
from smemlab.ops._args import Dtypes, _runtime, as_dtype, check_dtype_arg, cupy_scratch, read, workspace
from smemlab.ops._route import torch_ops

SOURCE = "ops/reduce/reduce.cu"
NT = 256
UNROLL = 8  # 16-byte vectors in flight per thread: the kernels' default
DTYPES = Dtypes("bool", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64")
# inputs with no kernel of their own, summed as int32 after a conversion pass in the caller's framework
# (an integer result, as torch.sum gives: int64)
WIDEN = {np.dtype(np.bool_): np.dtype(np.int32), np.dtype(np.uint8): np.dtype(np.int32)}
RANKS = (1, 2, 3, 4)
# (input, output) -> the kernels' suffix (keyed by dtype objects: dtype.name costs host time a call,
# docs/notes/2026-11-host-path.md); the
# kernels of int32 input write int64, and dtype=int32 converts that
SUFFIX = {
    (as_dtype(i), as_dtype(o)): k for (i, o), k in {
        ("int32", "int64"): "i32_i64",
        ("int32", "int32"): "i32_i64",
        ("int64", "int64"): "i64_i64",
        ("float16", "float16"): "f16_f16",
        ("float16", "float32"): "f16_f32",
        ("bfloat16", "bfloat16"): "bf16_bf16",
        ("bfloat16", "float32"): "bf16_f32",
        ("float32", "float32"): "f32_f32",
        ("float32", "float64"): "f32_f64",
        ("float64", "float64"): "f64_f64",
    }.items()
}
_DEFAULT = {as_dtype(k): as_dtype(v) for k, v in {"int32": "int64", "int64": "int64", "float16": "float16",
                                                  "bfloat16": "bfloat16", "float32": "float32",
                                                  "float64": "float64"}.items()}
_I64 = np.dtype(np.int64)
# A block's tile: NT threads x UNROLL 16-byte vectors. The grid of a full sum has at most one block per
# tile (a block with no whole tile would only add its zero to the second phase), and up to ONE_BLOCK
# bytes one block sums everything and writes the result itself: the two-phase grid (partials, then
# the last block) costs a threadfence and an atomic round trip that dominate a sum of a few thousand
# elements.
TILE_BYTES = NT * UNROLL * 16
ONE_BLOCK = 2 * TILE_BYTES
# Row sums: rows shorter than a tile go to groups of lanes (rows_warp), two batches of UNROLL vectors per
# lane; longer ones to blocks (rows_block), SEG_BYTES or more of a row per block, as many per row as fill
# whole waves of resident blocks best (up to WAVES of them): two batches a lane (4 lanes for a row of 256
# floats) beat one (8 lanes), and one block a long row beats splitting it where the rows fill a wave. A
# persistent grid, a warp a row or 4 blocks an SM did not close the gap to CuPy's CUB on long rows without
# losing on another shape, so the plan stays. rows_block keeps 16 vectors in flight a thread (ROWS_UNROLL;
# reduce.cu), ahead of 8 (measured: docs/notes/2026-11-reduce-tuning.md).
SEG_BYTES = 8 * 1024
WAVES = 4
SLOTS_PER_SM = 16  # a split row sum's partials: rows x blocks per row of them at most


def _workspace(alloc, dev: int, stream: int, own_pool: bool) -> tuple[Any, int, int]:
    """(holder, counters pointer, partials pointer) for a launch of more than one block: 8-byte partials
    (int64 or float64), one a block, and the last-block counters (the full sum's first, then one a row
    of a split row sum), which the last block leaves at 0. Eager calls share one per (device, stream),
    made by the caller's allocator and zeroed on that stream when first needed (no sync); its launches
    are ordered by the stream. A call being captured into a CUDA graph takes one of its own
    (_args.workspace), so that graphs replayed at once on several streams share none."""
    slots = _slots(dev)
    if _runtime().streamIsCapturing(stream):
        return workspace(alloc, 1 + slots // 2, 8 * slots, stream, own_pool)
    ws = _WS.get((dev, stream))
    if ws is None:
        if len(_WS) > 32:  # streams long gone (the stream-ordered allocators reuse the memory safely)
            _WS.clear()
        ws = _WS[(dev, stream)] = workspace(alloc, 1 + slots // 2, 8 * slots, stream)
    return ws


# The kernels: kind (reduce, rows_warp, rows_block) and suffix -> the template instance of reduce.cu (its
# input, per-thread accumulator, partials and final sum, output types: the table at the end of reduce.cu)
_TYPES = {"i32_i64": "int, i64, i64, i64", "i64_i64": "i64, i64, i64, i64", "f16_f16": "f16, float, double, f16",
          "f16_f32": "f16, float, double, float", "bf16_bf16": "bf16, float, double, bf16",
          "bf16_f32": "bf16, float, double, float", "f32_f32": "float, float, double, float",
          "f32_f64": "float, double, double, double", "f64_f64": "double, double, double, double"}
KERNELS = {f"{kind}_{sfx}": f"{template}<{types}>" for kind, template in (
    ("reduce", "reduce_all"), ("rows_warp", "rows_warp"), ("rows_block", "rows_block")) for sfx, types in _TYPES.items()}
_INSTANCES = tuple(KERNELS.values())  # compiled together: one NVRTC compile for all of the op's kernels


def kernel(name: str, dev: int) -> device.Kernel:
    """The op's kernel `name` (reduce_f32_f32, rows_warp_f16_f32, ...) on device `dev`."""
    return device.kernel(SOURCE, KERNELS[name], device=dev, names=_INSTANCES)


_WS: dict[tuple[int, int], tuple[Any, int, int]] = {}
_PLANS: dict[tuple[int, str], tuple[device.Kernel, int]] = {}
_ROW_PLANS: dict[tuple, tuple[device.Kernel, int, int, bool]] = {}


def _plan(dev: int, name: str) -> tuple[device.Kernel, int]:
    """(kernel, grid: the resident blocks, one wave; see reduce.cu) for kernel `name` on `dev`."""
    plan = _PLANS.get((dev, name))
    if plan is None:
        k = kernel(name, dev)
        per_sm = k.blocks_per_sm(NT)
        plan = _PLANS[(dev, name)] = (k, device.facts(dev).sms * max(1, min(per_sm, 8)))
    return plan


def _slots(dev: int) -> int:
    return device.facts(dev).sms * SLOTS_PER_SM


def row_plan(rows: int, cols: int, itemsize: int, resident: int, slots: int) -> tuple[str, int, int]:
    """("warp", grid, lanes per row) or ("block", grid, blocks per row) for a rows x cols row sum, where
    `resident` blocks of rows_block fit on the GPU at once and a split row sum may use `slots` partials
    (and slots / 2 row counters)."""
    row_bytes = cols * itemsize
    if row_bytes < TILE_BYTES:
        per_lane = -(-(row_bytes // 16) // (2 * UNROLL))  # two batches of UNROLL vectors per lane
        lanes = 1 if per_lane <= 1 else min(32, 1 << (per_lane - 1).bit_length())
        warps = -(-rows // (32 // lanes))
        return "warp", min(-(-warps // (NT // 32)), 2**31 - 1), lanes
    best, segs = 0.0, 1
    for s in range(1, max(1, min(row_bytes // SEG_BYTES, WAVES * resident // rows, slots // rows)) + 1):
        fill = rows * s / (-(-rows * s // resident) * resident)  # of the waves' blocks, those that work
        if fill > 1.02 * best:  # a larger split only for a clear gain
            best, segs = fill, s
    return "block", min(rows * segs, 2**31 - 1), segs


def _row_kernel(dev: int, name: str, rows: int, cols: int, itemsize: int) -> tuple[device.Kernel, int, int, bool]:
    """(kernel, grid, lanes or blocks per row, whether by blocks) of the row sums that go with the full
    sum's kernel `name` (reduce_<in>_<out>), kept per shape."""
    key = (dev, name, rows, cols)
    plan = _ROW_PLANS.get(key)
    if plan is None:
        pair = name.removeprefix("reduce_")
        block = kernel(f"rows_block_{pair}", dev)
        kind, grid, per_row = row_plan(rows, cols, itemsize, device.facts(dev).sms * block.blocks_per_sm(NT), _slots(dev))
        if len(_ROW_PLANS) > 4096:
            _ROW_PLANS.clear()
        k = block if kind == "block" else kernel(f"rows_warp_{pair}", dev)
        plan = _ROW_PLANS[key] = (k, grid, per_row, kind == "block")
    return plan


def result_dtype(x_dtype: Any, dtype: Any = None) -> np.dtype:
    """The output dtype reduce_sum gives for an input dtype and a `dtype=` argument."""
    x_dtype = as_dtype(x_dtype)
    x_dtype = WIDEN.get(x_dtype, x_dtype)
    if dtype is None:
        return _DEFAULT[x_dtype]
    return check_dtype_arg(dtype, "dtype", [o for (i, o) in SUFFIX if i == x_dtype])


_CALLS: dict[tuple[np.dtype, Any], tuple[str, np.dtype, np.dtype, bool]] = {}


def _call_plan(x_dtype: np.dtype, dtype: Any) -> tuple[str, np.dtype, np.dtype, bool]:
    """(full-sum kernel, the kernel's output dtype, the result's dtype, whether the result is cast from
    the kernel's) for an input dtype and a `dtype=` argument; kept per pair where the argument can be a
    key, so that a call compares no NumPy dtypes (each comparison costs host time: docs/notes/2026-11-host-path.md)."""
    x_dtype = WIDEN.get(x_dtype, x_dtype)  # summed as the int32 they are converted to
    key = (x_dtype, dtype)
    try:
        plan = _CALLS.get(key)
    except TypeError:  # an unhashable dtype= argument: checked (and refused) below
        key, plan = None, None
    if plan is None:
        out_dtype = result_dtype(x_dtype, dtype)
        kernel_out = _I64 if x_dtype.kind == "i" else out_dtype
        plan = (kernel_name(x_dtype, out_dtype), kernel_out, out_dtype, kernel_out != out_dtype)
        if key is not None:
            _CALLS[key] = plan
    return plan


def _last_axis(axis: Any, ndim: int) -> None:
    """Accept the last axis (-1 or ndim - 1); anything else is a clear error."""
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, (bool, np.bool_)):
        if axis == -1 or axis == ndim - 1:
            return
        raise ValueError(f"axis: {axis} is not supported for a {ndim}-D array; reduce_sum sums every element "
                         f"(axis=None) or along the last axis (axis=-1)")
    raise TypeError(f"axis: expected None or -1 (the last axis), got {axis!r}")


def kernel_name(x_dtype: Any, out_dtype: Any) -> str:
    """The full-sum kernel that sums `x_dtype` into `out_dtype` (int32 input: an int64 result, whatever
    `out_dtype`)."""
    return "reduce_" + SUFFIX[(as_dtype(x_dtype), as_dtype(out_dtype))]


def launch(kernel: str, x_ptr: int, n: int, itemsize: int, out_ptr: int, dev: int, stream: int,
           alloc=cupy_scratch, own_pool: bool = False) -> None:
    """Enqueue the sum of the n >= 1 elements at `x_ptr` into the one value at `out_ptr` with `kernel`
    (kernel_name) on the raw stream handle `stream`: what `reduce_sum` launches, and what the reduce
    experiment times as its last variants. One launch (after a memset of the counter where it takes
    more than one block); `alloc(nbytes) -> (holder, pointer)` gives the call's workspace (`own_pool`:
    whether alloc gives a captured graph memory of its own, as torch's allocator does; _args.workspace)."""
    k, grid = _plan(dev, kernel)
    blocks = _blocks(grid, n * itemsize)
    held, counter, partials = _workspace(alloc, dev, stream, own_pool) if blocks > 1 else (None, 0, 0)
    device.launch(k, blocks, NT, (x_ptr, n, partials, counter, out_ptr), stream)
    del held


def _blocks(grid: int, nbytes: int) -> int:
    """Blocks of a launch over `nbytes`: one up to ONE_BLOCK, else one per tile, at most `grid`."""
    return 1 if nbytes <= ONE_BLOCK else min(grid, -(-nbytes // TILE_BYTES))


def launch_blocks(kernel: str, n: int, itemsize: int, dev: int) -> int:
    """The blocks `launch` runs for n elements of `itemsize` bytes on device `dev` (NT threads each)."""
    return _blocks(_plan(dev, kernel)[1], n * itemsize)


def reduce_sum(x: Any, dtype: Any = None, *, axis: Any = None) -> Any:
    """The sum of the elements of `x` (int32, int64, float16, bfloat16 (torch), float32 or float64,
    contiguous, rank 1-4, on the GPU), as an array of the caller's type computed on the caller's
    current stream: of all elements as a 0-d array (axis=None), or along the last axis (axis=-1) as
    an array of shape x.shape[:-1]. `dtype`: see the module doc (None matches torch.sum and
    cupy.sum: int32 -> int64; bool and uint8 -> int64, as torch.sum). An empty sum is 0. Differentiable
    for floating-point torch tensors."""
    ops = torch_ops(x)
    if ops is not None:
        return ops.reduce_sum(x, torch_dtype(dtype), axis)
    return run(x, dtype, axis=axis)


def torch_dtype(dtype: Any) -> Any:
    """A `dtype=` argument as the torch dtype the registered op takes (None stays None)."""
    if dtype is None or type(dtype).__module__.startswith("torch"):
        return dtype
    from smemlab.ops._args import torch_dtype_of

    return torch_dtype_of(as_dtype(dtype))


def run(x: Any, dtype: Any = None, *, axis: Any = None, pooled: bool = True) -> Any:
    """`reduce_sum` without the torch dispatcher: what torch.ops.smemlab.reduce_sum runs (with
    pooled=False: a registered op's result must be a tensor of its own)."""
    a = read(x, "x", DTYPES, RANKS, allow_empty=True)
    a.pooled = pooled
    if a.dtype in WIDEN:
        with a.on_device():
            a = read(a.astype(a.obj, WIDEN[a.dtype]), "x", DTYPES, RANKS, allow_empty=True)
        a.pooled = pooled
    name, kernel_out, out_dtype, cast = _call_plan(a.dtype, dtype)
    if axis is not None:
        _last_axis(axis, len(a.shape))
        if len(a.shape) > 1:
            return _row_sums(a, name, kernel_out, out_dtype, cast)
    with a.on_device():
        n = a.size
        stream = a.stream()
        if n == 0:
            out, _ = a.zeros((), out_dtype, stream)
            return out
        out, out_ptr = a.scalar(kernel_out, stream)
        launch(name, a.ptr, n, a.dtype.itemsize, out_ptr, a.device, stream, a.scratch, a.kind == "torch")
        if cast:
            out = a.astype(out, out_dtype)  # int64 -> int32 wraps modulo 2^32, like NumPy
        return out


def _row_sums(a, name: str, kernel_out: np.dtype, out_dtype: np.dtype, cast: bool) -> Any:
    """One sum per row of `a` seen as (size / cols, cols): an array of shape a.shape[:-1]."""
    shape = a.shape[:-1]
    cols = a.shape[-1]
    rows = a.size // cols if cols else 0
    with a.on_device():
        stream = a.stream()
        if rows == 0 or cols == 0:  # no rows, or rows of nothing: sums of 0
            out, _ = a.zeros(shape, out_dtype, stream)
            return out
        k, grid, per_row, by_blocks = _row_kernel(a.device, name, rows, cols, a.dtype.itemsize)
        out, out_ptr = a.empty(shape, kernel_out)
        if not by_blocks:
            device.launch(k, grid, NT, (a.ptr, rows, cols, per_row, out_ptr), stream)
        elif per_row == 1:  # one block per row writes its sum: no partials, no counters
            device.launch(k, grid, NT, (a.ptr, rows, cols, 1, 0, 0, out_ptr), stream)
        else:
            held, counters, partials = _workspace(a.scratch, a.device, stream, a.kind == "torch")
            counters += 4  # the row counters follow the full sum's
            device.launch(k, grid, NT, (a.ptr, rows, cols, per_row, partials, counters, out_ptr), stream)
            del held
        if cast:
            out = a.astype(out, out_dtype)
        return out

