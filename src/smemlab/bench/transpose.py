"""Benchmark: smemlab.ops.transpose against `x.transpose(-1, -2).contiguous()` (torch) and
`cupy.ascontiguousarray(a.swapaxes(-1, -2))` (CuPy): square float32, float16 and float64 from 64x64
(float16 and float64 from 1024x1024) to 16384x16384; shapes with odd and prime sides (the element
kernels); int16, int64 and bfloat16 (torch only) once each; and batches of matrices, the case ML
code calls most."""

from __future__ import annotations

from smemlab.bench import Bench, Impl, register
from smemlab.bench.goals import goal, per_call

SHORT = {"float16": "f16", "bfloat16": "bf16", "int16": "i16", "float32": "f32", "int32": "i32", "float64": "f64",
         "int64": "i64"}
MEMORY_BOUND = 1 << 24  # elements: from here the kernel, not the host path, sets the time


def bandwidth_goals(size: int, torch_only: bool = False) -> list:
    """At least 0.90 of cudaMemcpy and 3x the baselines, where the size makes it a measure of the kernel."""
    if size < MEMORY_BOUND:
        return []
    if torch_only:
        return [goal("smemlab (torch)", "ceiling", "cudaMemcpy", 0.90), goal("smemlab (torch)", "throughput", "torch", 3.0)]
    return [goal("smemlab (cupy)", "ceiling", "cudaMemcpy", 0.90), goal("smemlab (cupy)", "throughput", ("cupy", "torch"), 3.0)]


@register("transpose", order=10)
def bench_transpose(b: Bench) -> None:
    import cupy

    from smemlab.ops import transpose

    squares = [("float32", s) for s in b.sizes([64, 256, 1024, 2048, 4096, 16384], quick=[64, 256, 1024])]
    for dtype in ("float16", "float64"):
        squares += [(dtype, s) for s in b.sizes([1024, 4096, 16384], quick=[1024])]
    for dtype, side in squares:
        _case(b, cupy, transpose, dtype, (side, side), family=SHORT[dtype],
              targets=per_call(side * side, "torch", "cupy") + bandwidth_goals(side * side))
    odd = b.sizes([("float32", (12000, 7000)), ("float32", (7001, 5003)), ("float32", (8191, 8193)),
                   ("float16", (7001, 5003)), ("float64", (7001, 5003)), ("int16", (4096, 4096)), ("int64", (4096, 4096)),
                   ("float32", (64, 1024, 1024)), ("float16", (512, 2048, 64)), ("float16", (256, 1024, 128)),
                   ("float64", (1024, 128, 128)), ("float32", (100, 999, 1001))],
                  quick=[("float32", (1001, 999)), ("float16", (8, 129, 64)), ("int64", (3, 33, 65))])
    for dtype, shape in odd:
        size = 1
        for s in shape:
            size *= s
        _case(b, cupy, transpose, dtype, shape, targets=bandwidth_goals(size))
    if b.torch is not None:
        _bf16(b, transpose, b.sizes([(8192, 8192), (512, 2048, 64)], quick=[(129, 127)]))


def _case(b: Bench, cupy, transpose, dtype: str, shape: tuple[int, ...], targets: list, family: str = "") -> None:
    x = b.random(shape, "int32").astype(dtype) if dtype == "int16" else b.random(shape, dtype)  # CuPy draws no int16
    ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
    rows, cols = shape[-2:]
    whole = all(s % (16 // x.itemsize) == 0 for s in (rows, cols))
    b.case(f"{'x'.join(map(str, shape))} {SHORT[dtype]}", bytes=2 * x.nbytes, out_bytes=x.nbytes, family=family,
           size=x.size, impls=b.both(transpose, lambda t: t.transpose(-1, -2).contiguous(),
                                     lambda a: cupy.ascontiguousarray(a.swapaxes(-1, -2)), x),
           check=lambda out: b.assert_close(out, ref, exact=True), targets=targets,
           note="" if whole else "sides not multiples of the 16-byte vector: the element kernels")


def _bf16(b: Bench, transpose, shapes) -> None:
    """bfloat16, torch only (CuPy has none): compared bit for bit as int16 views."""
    import cupy

    for shape in shapes:
        t = b.as_torch(b.random(shape, "float32")).to(b.torch.bfloat16)
        ref = cupy.from_dlpack(t.view(b.torch.int16).transpose(-1, -2).contiguous())

        def check(out):
            if out.dtype != b.torch.bfloat16:
                raise AssertionError(f"got {out.dtype}, expected torch.bfloat16")
            b.assert_close(cupy.from_dlpack(out.view(b.torch.int16)), ref, exact=True)

        impls = {"smemlab (torch)": Impl(lambda: transpose(t), "torch"),
                 "torch": Impl(lambda: t.transpose(-1, -2).contiguous(), "torch")}
        b.case(f"{'x'.join(map(str, shape))} bf16", bytes=2 * t.nbytes, out_bytes=t.nbytes, size=t.numel(), impls=impls,
               check=check, targets=bandwidth_goals(t.numel(), torch_only=True))
        t = ref = None
