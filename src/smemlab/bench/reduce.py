"""Benchmark: smemlab.ops.reduce_sum against `t.sum()` (torch) and `cupy.sum` (CUB), int32 (exact,
an int64 result) and float32, from 2^12 to 2^28 elements."""

from __future__ import annotations

import math

import numpy as np

from smemlab.bench import Bench, register
from smemlab.bench.goals import goal, per_call


def exact_int64(b: Bench, ref: int):
    def check(out):
        o = b.to_cupy(out)
        if o.shape != () or o.dtype != np.int64 or int(o) != ref:
            raise AssertionError(f"got {o!r} ({o.dtype}, shape {o.shape}), expected {ref} as an int64 0-d array")

    return check


def within(b: Bench, ref: float, bound: float):
    """A float32 sum against the float64 reference: |error| at most 2 eps sqrt(n) ||x||."""

    def check(out):
        o = b.to_cupy(out)
        if o.shape != () or o.dtype != np.float32:
            raise AssertionError(f"got {o.dtype} of shape {o.shape}, expected a float32 0-d array")
        err = abs(float(o) - ref)
        if not err <= bound:
            raise AssertionError(f"sum {float(o)!r}, float64 reference {ref!r}: error {err:.3g} > bound {bound:.3g}")

    return check


@register("reduce", order=20)
def bench_reduce(b: Bench) -> None:
    import cupy

    from smemlab.ops import reduce_sum

    for dtype in ("int32", "float32"):
        for lg in b.sizes([12, 16, 20, 24, 28], quick=[12, 16, 20]):
            n = 1 << lg
            x = b.random(n, dtype) if dtype == "int32" else b.random(n, dtype, 0.0, 1.0)
            if dtype == "int32":
                check = exact_int64(b, int(cupy.sum(x.astype(cupy.int64))))
            else:
                x64 = x.astype(cupy.float64)
                ref = float(cupy.sum(x64))  # CUB's float64 sum; float32 rounding is far larger
                bound = 2 * float(np.finfo(np.float32).eps) * math.sqrt(n) * float(cupy.sqrt(cupy.dot(x64, x64)))
                check = within(b, ref, bound)
                x64 = None
            targets = per_call(n, "torch", "cupy")
            if lg == 28:
                targets.append(goal("smemlab (cupy)", "throughput", "cupy", 1.0))
            b.case(f"2^{lg} {dtype}", bytes=x.nbytes, family=dtype, size=n, check=check, targets=targets,
                   impls=b.both(reduce_sum, lambda t: t.sum(), cupy.sum, x))
            x = None
