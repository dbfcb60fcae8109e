"""Benchmark: smemlab.ops.transpose vs `cupy.ascontiguousarray(a.T)`, torch `t.t().contiguous()`
and the copy kernel on the same bytes (targets: >= 0.90 of copy, >= 3x the best of CuPy and torch)."""

from __future__ import annotations

from smemlab.bench import Bench, register


@register("transpose", order=10)
def bench_transpose(b: Bench) -> None:
    import cupy

    from smemlab.ops import transpose

    for rows, cols in b.sizes([(16384, 16384), (12000, 7000), (7001, 5003)], quick=[(4096, 4096), (1200, 700), (1001, 999)]):
        x = b.random((rows, cols), "float32")
        ref = cupy.ascontiguousarray(x.T)
        vec = rows % 4 == 0 and cols % 4 == 0
        b.case(
            f"{rows}x{cols} f32",
            bytes=2 * x.nbytes,
            out_bytes=x.nbytes,
            impls={
                "smemlab": lambda: transpose(x),
                "cupy": lambda: cupy.ascontiguousarray(x.T),
                **b.torch_impls(x, lambda t: t.t().contiguous()),
            },
            check=lambda out: b.assert_close(out, ref, exact=True),
            target=[("copy", 0.90), (("cupy", "torch"), 3.0)] if vec else None,
            note="" if vec else "sides not multiples of 4: the scalar 32x32 kernel",
        )
        x = ref = None  # free before the next size
