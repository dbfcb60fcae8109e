"""Benchmark: smemlab.ops.reduce_sum against `t.sum()` (torch) and `cupy.sum` (CUB), from 2^12 to
2^28 elements: int32 and int64 (exact, an int64 result), float32, float64, float16 (a float16 result,
float32 accumulation; CuPy's float16 sum accumulates in float16 and is held to that bound) and bfloat16 (torch tensors only: CuPy has no bfloat16); then the sums along
the last axis, `reduce_sum(x, axis=-1)` against `t.sum(dim=-1)` and `cupy.sum(a, axis=-1)`, for short
rows, square and long rows."""

from __future__ import annotations

import math

import numpy as np

from smemlab.bench import Bench, Impl, register
from smemlab.bench.goals import goal, per_call

EPS32 = float(np.finfo(np.float32).eps)
EPS16 = float(np.finfo(np.float16).eps)
# every dtype with its result dtype (torch's and CuPy's), and the inputs' range: the 16-bit types' sums
# must fit in float16, so they get a zero mean
DTYPES = {"int32": ("int64", None), "int64": ("int64", None), "float32": ("float32", (0.0, 1.0)),
          "float64": ("float64", (0.0, 1.0)), "float16": ("float16", (-1.0, 1.0)), "bfloat16": ("bfloat16", (-1.0, 1.0))}
ROWS = [(1 << 14, 1 << 14), (1 << 20, 256), (256, 1 << 20), (4099, 4093)]


def dtype_of(out) -> str:
    return str(out.dtype).replace("torch.", "")


def exact_int64(b: Bench, ref: int):
    def check(out):
        o = b.to_cupy(out)
        if o.shape != () or o.dtype != np.int64 or int(o) != ref:
            raise AssertionError(f"got {o!r} ({o.dtype}, shape {o.shape}), expected {ref} as an int64 0-d array")

    return check


def within(ref: float, bound: float, dtype: str):
    """A floating-point sum against the float64 reference: |error| at most `bound`, as a 0-d `dtype`
    array (CuPy or torch: bfloat16 lives in torch alone)."""

    def check(out):
        if tuple(out.shape) != () or dtype_of(out) != dtype:
            raise AssertionError(f"got {dtype_of(out)} of shape {tuple(out.shape)}, expected a {dtype} 0-d array")
        err = abs(float(out) - ref)
        if not err <= bound:
            raise AssertionError(f"sum {float(out)!r}, float64 reference {ref!r}: error {err:.3g} > bound {bound:.3g}")

    return check


def accumulation_bound(x64, eps: float) -> float:
    """2 eps sqrt(n) ||x||: the bound on the rounding error of a sum of x accumulated at precision eps."""
    import cupy

    return 2 * eps * math.sqrt(x64.size) * float(cupy.sqrt(cupy.dot(x64, x64)))


def float_bound(x64, out_dtype: str) -> tuple[float, float]:
    """(the float64 sum, the bound on a float32-accumulated sum's error: 2 eps32 sqrt(n) ||x||, plus 2 to 4
    units in the last place of the result where it is rounded to 16 bits: a tighter bound failed CuPy's
    float16 sum, docs/notes/2026-11-reduce-bounds.md)."""
    import cupy

    ref = float(cupy.sum(x64))
    bound = accumulation_bound(x64, EPS32)
    if out_dtype in ("float16", "bfloat16"):
        bound += abs(ref) * (2.0**-8 if out_dtype == "float16" else 2.0**-5)
    elif out_dtype == "float64":
        bound = 1e-12 * float(cupy.sum(cupy.abs(x64)))
    return ref, bound


@register("reduce", order=20)
def bench_reduce(b: Bench) -> None:
    from smemlab.ops import reduce_sum

    for dtype, (out_dtype, span) in DTYPES.items():
        if dtype == "bfloat16" and b.torch is None:
            continue
        for lg in b.sizes([12, 16, 20, 24, 28], quick=[12, 16, 20]):
            _full_sum(b, reduce_sum, dtype, out_dtype, span, lg)
    for rows, cols in b.sizes(ROWS, quick=[(1000, 257), (3, 100_003)]):
        _row_sums(b, reduce_sum, rows, cols)


def _full_sum(b: Bench, reduce_sum, dtype: str, out_dtype: str, span, lg: int) -> None:
    import cupy

    n = 1 << lg
    checks = None
    if span is None:
        x = b.random(n, dtype)
        check = exact_int64(b, int(cupy.sum(x.astype(cupy.int64))))
    else:
        x = b.random(n, "float32" if dtype == "bfloat16" else dtype, *span)
        if dtype == "bfloat16":  # a torch tensor only; its float64 values for the reference
            t = b.as_torch(x).to(b.torch.bfloat16)
            x = None
            x64 = cupy.from_dlpack(t.double())
        else:
            x64 = x.astype(cupy.float64)
        ref, bound = float_bound(x64, out_dtype)
        check = within(ref, bound, out_dtype)
        if dtype == "float16":
            # CuPy's float16 sum (CUB's DeviceReduce) accumulates in float16: its error is that of a
            # float16 sum, past what float32 accumulation allows (docs/notes/2026-11-reduce-bounds.md)
            checks = {"cupy": within(ref, accumulation_bound(x64, EPS16), out_dtype)}
        x64 = None
    if dtype == "bfloat16":
        impls = {"smemlab (torch)": Impl(lambda: reduce_sum(t), "torch"), "torch": Impl(lambda: t.sum(), "torch")}
        targets = per_call(n, "torch", None)
        nbytes = 2 * n
    else:
        impls = b.both(reduce_sum, lambda v: v.sum(), cupy.sum, x)
        targets = per_call(n, "torch", "cupy")
        nbytes = x.nbytes
    if lg == 28:  # kernel throughput: CUB's sum, or torch's where CuPy has no such dtype
        targets.append(goal("smemlab (torch)", "throughput", "torch", 1.0) if dtype == "bfloat16"
                       else goal("smemlab (cupy)", "throughput", "cupy", 1.0))
    b.case(f"2^{lg} {dtype}", bytes=nbytes, family=dtype, size=n, check=check, checks=checks, targets=targets,
           impls=impls)


def _row_sums(b: Bench, reduce_sum, rows: int, cols: int) -> None:
    """float32 sums along the last axis: every row within 2 eps32 sqrt(cols) ||row|| of float64."""
    import cupy

    x = b.random((rows, cols), "float32")
    x64 = x.astype(cupy.float64)
    ref = cupy.sum(x64, axis=-1)
    bound = 2 * EPS32 * math.sqrt(cols) * cupy.sqrt(cupy.sum(x64 * x64, axis=-1))
    x64 = None

    def check(out):
        o = b.to_cupy(out)
        if o.shape != (rows,) or o.dtype != np.float32:
            raise AssertionError(f"got {o.dtype} of shape {o.shape}, expected float32 of shape ({rows},)")
        bad = int(cupy.count_nonzero(~(cupy.abs(o.astype(cupy.float64) - ref) <= bound)))
        if bad:
            raise AssertionError(f"{bad} of {rows} row sums off by more than 2 eps sqrt(cols) ||row||")

    targets = []
    if x.size >= 1 << 24:
        targets = [goal("smemlab (torch)", "throughput", "torch", 1.0), goal("smemlab (cupy)", "throughput", "cupy", 1.0)]
    b.case(f"rows {rows}x{cols} float32", bytes=x.nbytes + 4 * rows, out_bytes=4 * rows, size=x.size, check=check,
           targets=targets, impls=b.both(lambda a: reduce_sum(a, axis=-1), lambda t: t.sum(dim=-1),
                                         lambda a: cupy.sum(a, axis=-1), x))
    x = ref = bound = None
