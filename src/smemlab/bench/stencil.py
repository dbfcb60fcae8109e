"""Benchmark: smemlab.ops.stencil1d (radius 4) against `torch.nn.functional.conv1d` (a
correlation, as ours) and `cupyx.scipy.ndimage.correlate1d`, float32 from 2^12 to 2^28 elements
and one length that is not a multiple of 4."""

from __future__ import annotations

import numpy as np

from smemlab.bench import Bench, register
from smemlab.bench.goals import goal, per_call


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
    from cupyx.scipy.ndimage import correlate1d

    from smemlab.ops import stencil1d

    coef = np.random.default_rng(7).uniform(-1, 1, 9).astype(np.float32)
    coef_list = [float(c) for c in coef]  # as a user writes coefficients
    cg = cupy.asarray(coef)
    w = b.as_torch(cg)
    conv1d = b.torch.nn.functional.conv1d if b.torch is not None else None
    lengths = b.sizes([1 << lg for lg in (12, 16, 20, 24, 28)] + [(1 << 26) + 3], quick=[1 << 12, 1 << 16, 1_000_003])
    for n in lengths:
        x = b.random(n, "float32")
        ref = reference(x, coef)
        tol = 1e-5 * float(np.abs(coef).sum())
        power = n & (n - 1) == 0
        targets = per_call(n, "torch conv1d", "cupyx correlate1d") if power else []
        if power and n >= 1 << 26:
            targets += [goal("smemlab (cupy)", "ceiling", "cudaMemcpy", 0.90),
                        goal("smemlab (cupy)", "throughput", "cupyx correlate1d", 3.0)]
        b.case(f"2^{n.bit_length() - 1} r=4 f32" if power else f"{n} r=4 f32", bytes=2 * x.nbytes, out_bytes=x.nbytes,
               family="r=4 f32" if power else "", size=n, targets=targets,
               impls=b.both(lambda v: stencil1d(v, coef_list),
                            (lambda t: conv1d(t.view(1, 1, -1), w.view(1, 1, -1), padding=4).view(-1)) if conv1d else None,
                            lambda a: correlate1d(a, cg, mode="constant", cval=0.0), x,
                            torch_name="torch conv1d", cupy_name="cupyx correlate1d"),
               check=lambda out: b.assert_close(out, ref, atol=tol, rtol=1e-5))
        x = ref = None
