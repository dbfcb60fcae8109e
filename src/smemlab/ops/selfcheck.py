"""Every kernel of the library once, at small and odd sizes, checked against NumPy.

`smemlab check` runs this under compute-sanitizer's four tools (as it runs the experiments' variants),
so that the library's own kernels are checked for out-of-bounds accesses, races, barrier misuse and
reads of uninitialised memory at the sizes where edge code runs: one element, tile +- 1, primes,
unaligned views, every histogram method and every matmul variant.

    python -m smemlab.ops.selfcheck [--device N] [--launch-log FILE] [--only OP]

prints one line a case and exits 1 if any output is wrong; `--launch-log` writes
[[case, [kernel names]], ...] so that findings can be attributed to cases.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable

import numpy as np


def _rand(shape, dtype, seed, lo=-1.0, hi=1.0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(int(lo), int(hi), size=shape, dtype=dtype)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def _transpose(shape, dtype="float32", offset=0):
    def run():
        import cupy

        from smemlab.ops import transpose

        h = _rand(int(np.prod(shape)) + offset, dtype, sum(shape), -1000, 1000)
        x = cupy.asarray(h)[offset:].reshape(shape)
        np.testing.assert_array_equal(cupy.asnumpy(transpose(x)), np.swapaxes(h[offset:].reshape(shape), -1, -2))

    return run


def _reduce(shape, dtype, out=None, axis=None):
    """reduce_sum of `shape` random elements (all of them, or each row with axis=-1) against NumPy;
    float16 inputs in [-1, 1) (their sums fit in float16)."""

    def run():
        import cupy

        from smemlab.ops import reduce_sum

        n = int(np.prod(shape))
        h = _rand(shape, dtype, n, -1, 1) if dtype == "float16" else _rand(shape, dtype, n, -1000, 1000)
        got = cupy.asnumpy(reduce_sum(cupy.asarray(h), dtype=out, axis=axis)).astype(np.float64)
        sums = h.astype(np.float64).sum(axis=axis)
        if np.dtype(dtype).kind == "i":
            want = h.astype(np.int64).sum(axis=axis).astype(out or np.int64)
            assert np.array_equal(got, want.astype(np.float64)), (got, want)
        else:  # float32 accumulation, and float16's rounding of the result
            tol = 1e-4 * np.abs(h).astype(np.float64).sum(axis=axis) + 1e-6 + (np.abs(sums) * 2.0**-10 if out is None and dtype == "float16" else 0)
            assert np.all(np.abs(got - sums) <= tol), (got, sums)

    return run


def _stencil(n, radius, offset=0):
    def run():
        import cupy

        from smemlab.ops import stencil1d

        coef = _rand(2 * radius + 1, "float32", radius + 1)
        h = _rand(n + offset, "float32", n)
        got = cupy.asnumpy(stencil1d(cupy.asarray(h)[offset:], coef))
        want = np.correlate(np.pad(h[offset:].astype(np.float64), radius), coef.astype(np.float64), "valid")
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(coef).sum())

    return run


def _histogram(n, bins, method, **options):
    def run():
        import cupy

        from smemlab.ops import histogram

        h = _rand(n, "int32", bins + n, -3, bins + 3)  # a few keys outside [0, bins) on both sides
        got = cupy.asnumpy(histogram(cupy.asarray(h), bins, method=method, **options))
        inside = h[(h >= 0) & (h < bins)]
        np.testing.assert_array_equal(got, np.bincount(inside, minlength=bins))

    return run


def _matmul(m, n, k, variant, splits=None):
    def run():
        import cupy

        from smemlab.ops import matmul

        a, b = _rand((m, k), "float32", m), _rand((k, n), "float32", n)
        got = cupy.asnumpy(matmul(cupy.asarray(a), cupy.asarray(b), variant=variant, splits=splits))
        want = a.astype(np.float64) @ b.astype(np.float64)
        err = np.linalg.norm(got - want) / np.linalg.norm(want)
        assert err < 1e-5, err

    return run


def cases() -> list[tuple[str, Callable[[], None]]]:
    """(label, check) for every case; the labels are what the sanitizer's table shows."""
    from smemlab.ops.histogram import METHODS
    from smemlab.ops.matmul import VARIANTS

    out = [
        ("transpose 1x1 f32", _transpose((1, 1))),
        ("transpose 65x63 f32 (any shape)", _transpose((65, 63))),
        ("transpose 128x68 i32 (whole vectors)", _transpose((128, 68), "int32")),
        ("transpose 60x36 f32, unaligned view", _transpose((60, 36), offset=1)),
        ("transpose 129x127 f16 (any shape)", _transpose((129, 127), "float16")),
        ("transpose 128x136 i16 (whole vectors)", _transpose((128, 136), "int16")),
        ("transpose 33x31 f64 (any shape)", _transpose((33, 31), "float64")),
        ("transpose 32x66 i64 (whole vectors)", _transpose((32, 66), "int64")),
        ("transpose 3x33x65 f32 batch", _transpose((3, 33, 65))),
        ("transpose 2x17x9 f16 batch, unaligned view", _transpose((2, 17, 9), "float16", offset=3)),
        ("reduce_sum 1 int32", _reduce((1,), "int32")),
        ("reduce_sum 1000003 int32", _reduce((1_000_003,), "int32")),
        ("reduce_sum 4097 int32 -> int32", _reduce((4097,), "int32", "int32")),
        ("reduce_sum 4099 float32", _reduce((4099,), "float32")),
        ("reduce_sum 1001 float32 -> float64", _reduce((1001,), "float32", "float64")),
        ("reduce_sum 1001 float64", _reduce((1001,), "float64")),
        ("reduce_sum 4097 int64", _reduce((4097,), "int64")),
        ("reduce_sum 100003 float16", _reduce((100_003,), "float16")),
        ("reduce_sum 4099 float16 -> float32", _reduce((4099,), "float16", "float32")),
        ("reduce_sum rows 33x255 float32 (groups of lanes)", _reduce((33, 255), "float32", axis=-1)),
        ("reduce_sum rows 7x1001 float16 (groups of lanes)", _reduce((7, 1001), "float16", axis=-1)),
        ("reduce_sum rows 5x9001 int32 (a block a row)", _reduce((5, 9001), "int32", axis=-1)),
        ("reduce_sum rows 2x70001 float64 (blocks a row)", _reduce((2, 70_001), "float64", axis=-1)),
        ("reduce_sum rows 3x40001 int64 -> int64 (blocks a row)", _reduce((3, 40_001), "int64", axis=-1)),
        ("stencil1d 1 r=4", _stencil(1, 4)),
        ("stencil1d 4097 r=0", _stencil(4097, 0)),
        ("stencil1d 4097 r=32", _stencil(4097, 32)),
        ("stencil1d 12289 r=4, unaligned view", _stencil(12289, 4, offset=1)),
    ]
    for method, bins, options in (("auto", 256, {}), ("smem", 4099, {}), ("global", 1000, {}), ("multipass", 65537, {}),
                                  ("multipass", 65537, {"counter_bits": 16}),
                                  ("ranges", 262147, {}), ("ranges", 262147, {"counter_bits": 32}), ("auto", 262147, {}),
                                  ("partition", 262147, {}), ("auto", 1 << 20, {})):
        assert method in METHODS
        label = " ".join([f"histogram {bins} bins {method}"] + [f"{k}={v}" for k, v in options.items()])
        out.append((label, _histogram(100_003, bins, method, **options)))
    for variant in VARIANTS:
        out.append((f"matmul 33x65x17 {variant}", _matmul(33, 65, 17, variant)))
    out.append(("matmul 128x132x64 warptile_db16 (16-byte loads)", _matmul(128, 132, 64, "warptile_db16")))
    for variant in ("pack", "async"):  # interior tiles (no checks), edges, and K in 3 slices
        out.append((f"matmul 260x264x100 {variant} (16-byte loads, K in 3 splits)", _matmul(260, 264, 100, variant, 3)))
    out.append(("matmul 131x133x77 async (4-byte copies, K in 2 splits)", _matmul(131, 133, 77, "async", 2)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m smemlab.ops.selfcheck", description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--launch-log", metavar="FILE")
    parser.add_argument("--only", metavar="OP", help="only the cases of this op (e.g. matmul)")
    args = parser.parse_args(argv)
    import cupy

    from smemlab import device

    cupy.cuda.Device(args.device).use()
    launches: list[tuple[str, list[str]]] = []
    failed = 0
    for label, check in cases():
        if args.only and label.split()[0] != args.only:
            continue
        with device.recording_launches() as launched:
            try:
                check()
                cupy.cuda.Device().synchronize()
                print(f"ok      {label}")
            except Exception as exc:  # reported, and the other cases still run
                failed += 1
                print(f"FAILED  {label}: {type(exc).__name__}: {exc}"[:400])
        launches.append((label, launched))
    if args.launch_log:
        with open(args.launch_log, "w") as f:
            json.dump(launches, f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
