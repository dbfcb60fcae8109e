"""Benchmark: smemlab.ops.transpose against `x.t().contiguous()` (torch) and
`cupy.ascontiguousarray(a.T)` (CuPy), square float32 from 64x64 to 16384x16384, and two
non-square shapes (one with sides that are not multiples of 4: the scalar kernel)."""

from __future__ import annotations

from smemlab.bench import Bench, register
from smemlab.bench.goals import goal, per_call


@register("transpose", order=10)
def bench_transpose(b: Bench) -> None:
    import cupy

    from smemlab.ops import transpose

    sweep = [(s, s) for s in b.sizes([64, 256, 1024, 2048, 4096, 16384], quick=[64, 256, 1024])]
    shapes = b.sizes([(12000, 7000), (7001, 5003)], quick=[(1001, 999)])
    for rows, cols in sweep + shapes:
        x = b.random((rows, cols), "float32")
        ref = cupy.ascontiguousarray(x.T)
        square = rows == cols
        targets = per_call(x.size, "torch", "cupy") if square else []
        if x.size >= 1 << 26 and rows % 4 == 0 and cols % 4 == 0:  # memory-bound, the 16-byte kernel
            targets += [goal("smemlab (cupy)", "ceiling", "cudaMemcpy", 0.90),
                        goal("smemlab (cupy)", "throughput", ("cupy", "torch"), 3.0)]
        b.case(f"{rows}x{cols} f32", bytes=2 * x.nbytes, out_bytes=x.nbytes, family="f32" if square else "",
               size=x.size, impls=b.both(transpose, lambda t: t.t().contiguous(), lambda a: cupy.ascontiguousarray(a.T), x),
               check=lambda out: b.assert_close(out, ref, exact=True), targets=targets,
               note="" if rows % 4 == 0 and cols % 4 == 0 else "sides not multiples of 4: the scalar 32x32 kernel")
        x = ref = None  # free before the next size
