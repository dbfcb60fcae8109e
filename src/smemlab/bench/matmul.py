"""Benchmark: smemlab.ops.matmul, step by step, against cuBLAS SGEMM (TF32 off) through CuPy and
PyTorch. Target (issue 5): at least 0.80 of cuBLAS on the CUDA cores, at 4096 and 8192 square and an
odd non-square shape.

Shapes are M x N x K (A is M x K, B is K x N). Every implementation is checked against a float64
product on the GPU by ||C - ref|| / ||ref||, which float32 keeps near 1e-6 and TF32 (its ~1e-4)
fails: so the check also proves the baselines ran without TF32.
"""

from __future__ import annotations

import importlib

from smemlab.bench import Bench, register

MM = importlib.import_module("smemlab.ops.matmul")  # the module (the package attribute `matmul` is the function)

TOL = 1e-5  # up to K = 4096; float32 rounding grows like sqrt(K) beyond


def tf32_off() -> None:
    """cuBLAS in plain float32 for both baselines, whatever the environment asked for."""
    from smemlab.experiments.matmul import _set_tf32_off

    _set_tf32_off()
    try:
        import torch

        torch.backends.cuda.matmul.allow_tf32 = False
    except ImportError:
        pass


def relative_error(out, ref) -> float:
    import cupy as cp

    o = Bench.to_cupy(out).astype(cp.float64)
    return float(cp.linalg.norm(o - ref) / cp.linalg.norm(ref))


@register("matmul", order=50)
def bench_matmul(b: Bench) -> None:
    import cupy as cp

    tf32_off()
    steps = [v for v in MM.VARIANTS if v != MM.DEFAULT]
    cublas = ("cuBLAS (cupy)", "cuBLAS (torch)")
    for m, n, k in b.sizes([(4096, 4096, 4096), (8192, 8192, 8192), (3001, 4999, 2003)],
                           quick=[(512, 512, 512), (301, 499, 203)]):
        x = b.random((m, k), "float32")
        y = b.random((k, n), "float32")
        ref = x.astype(cp.float64) @ y.astype(cp.float64)
        tol = TOL * max(1.0, (k / 4096) ** 0.5)

        def check(out):
            err = relative_error(out, ref)
            if not err < tol:  # NaN (an unwritten element) fails too
                raise AssertionError(f"||C - ref|| / ||ref|| = {err:.3g}, tolerance {tol:.3g}")

        impls = {"smemlab": lambda: MM.matmul(x, y)}
        impls.update({f"step {s}": (lambda s=s: MM.matmul(x, y, variant=s)) for s in steps})
        impls[cublas[0]] = lambda: cp.matmul(x, y)
        ty = b.torch_view(y)
        impls.update(b.torch_impls(x, lambda tx: tx @ ty, name=cublas[1]))
        b.case(f"{m}x{n}x{k} f32", flops=2 * m * n * k, out_bytes=4 * m * n, copy=False, impls=impls,
               check=check, target=(cublas, 0.80), note=f"variant {MM.DEFAULT}")
        x = y = ref = ty = None
        cp.get_default_memory_pool().free_all_blocks()
