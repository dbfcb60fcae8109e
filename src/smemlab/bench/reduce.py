"""Benchmark: smemlab.ops.reduce_sum vs `cupy.sum` (CUB), torch `t.sum()` and the copy kernel on
the same bytes (target: >= 1.0x CuPy), int32 (exact, int64 result) and float32."""

from __future__ import annotations

import math

import numpy as np

from smemlab.bench import Bench, register


def _check_float(b: Bench, ref: float, bound: float, errors: dict, name: str):
    def check(out):
        v = float(b.to_cupy(out))
        err = abs(v - ref)
        errors[name] = err
        if not err <= bound:
            raise AssertionError(f"sum {v!r}, float64 reference {ref!r}: error {err:.3g} > bound {bound:.3g}")

    return check


@register("reduce", order=20)
def bench_reduce(b: Bench) -> None:
    import cupy

    from smemlab.ops import reduce_sum

    n = 1 << 28 if not b.quick else 1 << 24
    for dtype in ("int32", "float32"):
        x = b.random(n, dtype) if dtype == "int32" else b.random(n, dtype, 0.0, 1.0)
        host = cupy.asnumpy(x)
        if dtype == "int32":
            ref = int(host.astype(np.int64).sum())
            expect = np.dtype(np.int64)

            def check(out, ref=ref, expect=expect):
                o = b.to_cupy(out)
                if o.shape != () or o.dtype != expect or int(o) != ref:
                    raise AssertionError(f"got {o!r} ({o.dtype}, shape {o.shape}), expected {ref} int64 0-d")

            errors = {}
            checks = {name: check for name in ("smemlab", "cupy", "torch")}
        else:
            h64 = host.astype(np.float64)
            ref = float(h64.sum())  # NumPy's pairwise sum in float64
            bound = 2 * float(np.finfo(np.float32).eps) * math.sqrt(n) * float(np.sqrt(np.dot(h64, h64)))
            errors: dict = {}
            checks = {name: _check_float(b, ref, bound, errors, name) for name in ("smemlab", "cupy", "torch")}
            del h64
        del host
        impls = {"smemlab": lambda: reduce_sum(x), "cupy": lambda: cupy.sum(x), **b.torch_impls(x, lambda t: t.sum())}
        rows = []
        first = True
        for name, fn in impls.items():
            # each implementation as its own call so its error is recorded; the copy once
            rows += b.case(f"2^{n.bit_length() - 1} {dtype}", bytes=x.nbytes, impls={name: fn}, check=checks[name],
                           copy=first, target=("cupy", 1.0) if name == "smemlab" else None)
            first = False
        ours = next((r for r in rows if r.impl == "smemlab" and r.ok), None)
        for r in rows:
            if r.ok and ours is not None and r.impl not in ("smemlab", "copy kernel"):
                r.speedup = r.median_ms / ours.median_ms
            if r.impl in errors:
                r.note = f"|error| {errors[r.impl]:.3g}"
        x = None
