"""Benchmark: smemlab.ops.stencil1d (radius 4) vs `cupyx.scipy.ndimage.correlate1d`, torch
`conv1d` and the copy kernel on the same bytes (targets: >= 0.90 of copy, >= 3x CuPy's correlate1d)."""

from __future__ import annotations

import numpy as np

from smemlab.bench import Bench, register


def reference(x, coef):
    """float64 zero-padded correlation on the GPU: sum_k coef[k] * x[i + k - r]."""
    import cupy

    r = (len(coef) - 1) // 2
    xp = cupy.pad(x.astype(cupy.float64), r)
    n = x.size
    out = cupy.zeros(n, dtype=cupy.float64)
    for k, c in enumerate(np.asarray(coef, dtype=np.float64)):
        out += c * xp[k:k + n]
    return out


@register("stencil", order=30)
def bench_stencil(b: Bench) -> None:
    import cupy

    from smemlab.ops import stencil1d

    coef = np.random.default_rng(7).uniform(-1, 1, 9).astype(np.float32)
    for n in b.sizes([1 << 28, (1 << 26) + 3], quick=[1 << 22, 1_000_003]):
        x = b.random(n, "float32")
        ref = reference(x, coef)
        tol = 1e-5 * float(np.abs(coef).sum())
        impls = {"smemlab": lambda: stencil1d(x, coef)}
        try:
            from cupyx.scipy.ndimage import correlate1d

            cg = cupy.asarray(coef)
            impls["cupyx correlate1d"] = lambda: correlate1d(x, cg, mode="constant", cval=0.0)
        except Exception:
            pass
        w = b.torch_view(cupy.asarray(coef))
        if w is not None:
            import torch

            conv = torch.nn.functional.conv1d
            impls.update(b.torch_impls(x, lambda t: conv(t.view(1, 1, -1), w.view(1, 1, -1), padding=4).view(-1),
                                       name="torch conv1d"))
        vec = n % 4 == 0
        b.case(f"2^{n.bit_length() - 1} r=4 f32" if n & (n - 1) == 0 else f"{n} r=4 f32", bytes=2 * x.nbytes,
               out_bytes=x.nbytes, impls=impls, check=lambda out: b.assert_close(out, ref, atol=tol, rtol=1e-5),
               target=[("copy", 0.90), ("cupyx correlate1d", 3.0)] if vec else None)
        x = ref = None  # free before the next size
