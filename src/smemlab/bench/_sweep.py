"""Tuning sweep (not a registered benchmark): kernel variants by compile-time macros, each verified
then timed against CuPy and cudaMemcpy in one run. `python -m smemlab.bench._sweep`; with
`overhead`, the host cost of one op call and where it goes (cProfile)."""

from __future__ import annotations

import numpy as np


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.bench.stencil import reference

    with Bench(reps=30) as b:
        _sweep(b, cupy, device, reference)


def _sweep(b, cupy, device, reference) -> None:
    from smemlab.ops.reduce import KERNELS as REDUCE_KERNELS

    sms = device.facts(b.device).sms
    stream = b.stream.ptr
    n = 1 << 28
    copy_gbps = b.memcpy(n * 4).gbps
    print(f"cudaMemcpy 2x{n * 4 / 1e9:.2f} GB: {copy_gbps:.0f} GB/s")
    # -- reduce
    for dtype, kname, pdt, odt in (("int32", "reduce_i32_i64", np.int64, np.int64), ("float32", "reduce_f32_f32", np.float64, np.float32)):
        x = b.random(n, dtype) if dtype == "int32" else b.random(n, dtype, 0.0, 1.0)
        ref = cupy.sum(x.astype(cupy.int64 if dtype == "int32" else cupy.float64))
        t_cupy = b.throughput(lambda: cupy.sum(x))[0]
        print(f"reduce {dtype}: cupy {t_cupy:.4f} ms ({x.nbytes / t_cupy / 1e6:.0f} GB/s)")
        for d in ({}, {"EVEN_SHARE": 1}, {"LDNC": 0}, {"EVEN_SHARE": 1, "LDNC": 0}, {"UNROLL": 16},
                  {"UNROLL": 4}, {"BLOCKS_PER_SM": 1}, {"BLOCKS_PER_SM": 4}, {"UNROLL": 16, "BLOCKS_PER_SM": 1},
                  {"EVEN_SHARE": 1, "UNROLL": 16, "BLOCKS_PER_SM": 1}):
            k = device.kernel("ops/reduce/reduce.cu", REDUCE_KERNELS[kname], d)
            occ = k.blocks_per_sm(256)
            for per_sm in sorted({occ, 2 * occ}):
                grid = sms * per_sm
                part = cupy.empty(grid, dtype=pdt)
                cnt = cupy.zeros(1, dtype=cupy.uint32)
                out = cupy.empty((), dtype=odt)
                args = (x.data.ptr, np.uint64(n), part.data.ptr, cnt.data.ptr, out.data.ptr)
                fn = lambda: device.launch(k, grid, 256, args, stream)  # noqa: E731
                fn()
                err = abs(float(out) - float(ref))
                ok = err == 0 if dtype == "int32" else err < 40
                t = b.throughput(fn)[0]
                print(f"  {d} occ {occ} grid {per_sm}/SM: {t:.4f} ms {x.nbytes / t / 1e6:.0f} GB/s  {t_cupy / t:.3f}x cupy  ok={ok} err={err:.3g}")
        x = None
    # -- transpose
    for rows, cols in ((16384, 16384), (12000, 7000)):
        x = b.random((rows, cols), "float32")
        ref = cupy.ascontiguousarray(x.T)
        cg = b.memcpy(x.nbytes).gbps
        for d in ({}, {"MINB": 5}, {"MINB": 6}):
            k = device.kernel("lab/transpose/transpose.cu", "transpose_v4", d)
            out = cupy.empty((cols, rows), dtype=cupy.float32)
            tx = -(-cols // 64)
            nt = tx * -(-rows // 64)
            args = (out.data.ptr, x.data.ptr, np.int64(rows), np.int64(cols), np.int64(tx), np.int64(nt))
            fn = lambda: device.launch(k, nt, 256, args, stream)  # noqa: E731
            out.fill(np.nan)
            fn()
            ok = bool(cupy.array_equal(out, ref))
            t = b.throughput(fn)[0]
            gb = 2 * x.nbytes / t / 1e6
            print(f"transpose {rows}x{cols} {d}: {t:.4f} ms {gb:.0f} GB/s {gb / cg:.3f} of copy ({cg:.0f}) ok={ok}")
        x = ref = out = None
    # -- stencil
    coef = np.random.default_rng(7).uniform(-1, 1, 9).astype(np.float32)
    x = b.random(n, "float32")
    ref = reference(x, coef)
    cg = b.memcpy(x.nbytes).gbps
    for per in (2, 4, 8):
        d = {"PER": per}
        k = device.kernel("ops/stencil/stencil.cu", "stencil1d_f32<4>", d)
        device.set_constant("ops/stencil/stencil.cu", "c_coef", coef, d, b.device, stream)
        out = cupy.empty_like(x)
        tiles = -(-n // (256 * per * 4))
        for grid in (tiles, sms * k.blocks_per_sm(256)):
            args = (out.data.ptr, x.data.ptr, np.int64(n), np.int32(1))
            fn = lambda: device.launch(k, grid, 256, args, stream)  # noqa: E731
            out.fill(np.nan)
            fn()
            ok = bool(cupy.allclose(out, ref, rtol=1e-5, atol=1e-4))
            t = b.throughput(fn)[0]
            gb = 2 * x.nbytes / t / 1e6
            print(f"stencil PER={per} grid {grid}: {t:.4f} ms {gb:.0f} GB/s {gb / cg:.3f} of copy ({cg:.0f}) ok={ok}")




def overhead() -> None:
    """Host cost of one op call (enqueue only) and where it goes."""
    import cProfile
    import pstats
    import time

    import cupy

    from smemlab.ops import reduce_sum, transpose

    x = cupy.random.default_rng(1).integers(-9, 9, 1 << 20, dtype=cupy.int32)
    a = cupy.random.default_rng(2).random((1024, 1024), dtype=cupy.float32)
    for f, arg in ((reduce_sum, x), (transpose, a), (cupy.sum, x)):
        f(arg)
        cupy.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(200):
            f(arg)
        t1 = time.perf_counter()
        cupy.cuda.Device().synchronize()
        print(f"{getattr(f, '__name__', f)}: {(t1 - t0) / 200 * 1e6:.1f} us per call enqueued")
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(200):
        reduce_sum(x)
    pr.disable()
    cupy.cuda.Device().synchronize()
    pstats.Stats(pr).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    import sys

    overhead() if "overhead" in sys.argv[1:] else main()
