"""Benchmark: smemlab.ops.matmul against cuBLAS SGEMM (TF32 off) through PyTorch and CuPy, square
from 128^3 to 8192^3 and the odd shapes of issue 13 (M x N x K: A is M x K, B is K x N).

Goals: from 1024^3 on and at every odd shape, at least 0.90 of the best cuBLAS's back-to-back
throughput; from 1024^3 on, called one at a time, at least 0.85 of its own framework's cuBLAS
(latency at most 1/0.85 of it); up to 256^3 the host path's per-call goals.

Every implementation is checked against a float64 product on the GPU by ||C - ref|| / ||ref||,
which float32 keeps near 1e-6 and TF32 (its ~1e-4) fails: so the check also proves that the
baselines ran without TF32. The climb from the book's tiled kernel to this one is the matmul
experiment's (`smemlab run matmul`).
"""

from __future__ import annotations

from smemlab.bench import Bench, register
from smemlab.bench.goals import goal, per_call

TOL = 1e-5  # up to K = 4096; float32 rounding grows like sqrt(K) beyond
CUBLAS = ("cuBLAS (torch)", "cuBLAS (cupy)")
ODD = [(3001, 4999, 2003), (1000, 1000, 1000), (4097, 4095, 4093)]
THROUGHPUT = 0.90  # of the best cuBLAS, back to back: from 1024^3 on and at every odd shape
PER_CALL = 0.85  # of the framework's own cuBLAS, one call at a time: from 1024^3 on


def relative_error(out, ref) -> float:
    import cupy as cp

    o = Bench.to_cupy(out).astype(cp.float64)
    return float(cp.linalg.norm(o - ref) / cp.linalg.norm(ref))


@register("matmul", order=50)
def bench_matmul(b: Bench) -> None:
    import cupy as cp

    from smemlab.ops import matmul

    squares = [(s, s, s) for s in b.sizes([128, 256, 512, 1024, 2048, 4096, 8192], quick=[128, 256, 512])]
    for m, n, k in squares + b.sizes(ODD, quick=[(301, 499, 203)]):
        x = b.random((m, k), "float32")
        y = b.random((k, n), "float32")
        ref = x.astype(cp.float64) @ y.astype(cp.float64)
        tol = TOL * max(1.0, (k / 4096) ** 0.5)

        def check(out):
            err = relative_error(out, ref)
            if not err < tol:  # NaN (an unwritten element) fails too
                raise AssertionError(f"||C - ref|| / ||ref|| = {err:.3g}, tolerance {tol:.3g}")

        square = m == n == k
        targets = per_call(m * n * k, CUBLAS[0], CUBLAS[1], large=1 << 60) if square and m <= 256 else []
        if m * n * k >= 1024 ** 3 or (m, n, k) in ODD:
            targets.append(goal("smemlab (cupy)", "throughput", CUBLAS, THROUGHPUT))
        if m * n * k >= 1024 ** 3:
            targets += [goal("smemlab (torch)", "latency", CUBLAS[0], 1 / PER_CALL),
                        goal("smemlab (cupy)", "latency", CUBLAS[1], 1 / PER_CALL)]
        b.case(f"{m}x{n}x{k} f32", flops=2 * m * n * k, out_bytes=4 * m * n, memcpy=False,
               family="f32" if square else "", size=m * n * k, check=check, targets=targets,
               impls=b.both(matmul, lambda p, q: p @ q, cp.matmul, x, y, torch_name=CUBLAS[0], cupy_name=CUBLAS[1]))
        x = y = ref = None
        cp.get_default_memory_pool().free_all_blocks()
