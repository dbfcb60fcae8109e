"""mma.sync in `smemlab analyze` (no GPU): one warp's D = A B + C for each shape and type it emulates,
against NumPy; 16-bit inputs loaded with ldmatrix as tensor-core kernels load them. With a GPU, the
same kernels' outputs on the device are compared too (the fragment layouts against the hardware)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze import analyze_source
from smemlab.errors import UserError

SRC = Path(__file__).parent / "data" / "analyze" / "mma.cu"
RNG = np.random.default_rng(7)


def _bf16_bits(x: np.ndarray) -> np.ndarray:
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _inputs(kernel: str) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The kernel's buffers and the D NumPy expects."""
    k = {"mma_f16_k16": 16, "mma_bf16_k16": 16, "mma_f16_k8": 8, "mma_tf32_k8": 8, "mma_s8_k32": 32, "mma_f64_k4": 4,
         "mma_f64_k16": 16}[kernel]
    if kernel.startswith("mma_f64"):
        a, bt, c = RNG.uniform(-2, 2, (16, k)), RNG.uniform(-2, 2, (8, k)), RNG.uniform(-2, 2, (16, 8))
        return {"A": a, "Bt": bt, "C": c, "D": np.zeros((16, 8))}, a @ bt.T + c
    if kernel == "mma_s8_k32":
        a = RNG.integers(-128, 128, (16, k)).astype(np.int8)
        bt = RNG.integers(-128, 128, (8, k)).astype(np.int8)
        c = RNG.integers(-10**6, 10**6, (16, 8)).astype(np.int32)
        want = a.astype(np.int64) @ bt.astype(np.int64).T + c
        return {"A": a, "Bt": bt, "C": c, "D": np.zeros((16, 8), np.int32)}, want
    a = RNG.uniform(-2, 2, (16, k))
    bt = RNG.uniform(-2, 2, (8, k))
    c = RNG.uniform(-2, 2, (16, 8)).astype(np.float32)
    if kernel == "mma_bf16_k16":
        ab, bb = _bf16_bits(a), _bf16_bits(bt)
        a = (ab.astype(np.uint32) << 16).view(np.float32)
        bt = (bb.astype(np.uint32) << 16).view(np.float32)
        bufs = {"A": ab, "Bt": bb}
    elif kernel == "mma_tf32_k8":
        a, bt = a.astype(np.float32), bt.astype(np.float32)
        bufs = {"A": a, "Bt": bt}
    else:
        a, bt = a.astype(np.float16), bt.astype(np.float16)
        bufs = {"A": a.view(np.uint16), "Bt": bt.view(np.uint16)}
    want = a.astype(np.float64) @ bt.astype(np.float64).T + c
    return {**bufs, "C": c, "D": np.zeros((16, 8), np.float32)}, want


def _analyze(kernel: str, tmp_path: Path):
    bufs, want = _inputs(kernel)
    args = []
    for name, a in bufs.items():
        np.save(tmp_path / f"{name}.npy", np.ascontiguousarray(a).ravel())
        args.append(f"{name}={tmp_path / f'{name}.npy'}")
    r = analyze_source(str(SRC), kernel, (32,), args=args)
    return r, bufs, want


KERNELS = ["mma_f16_k16", "mma_bf16_k16", "mma_f16_k8", "mma_tf32_k8", "mma_s8_k32", "mma_f64_k4", "mma_f64_k16"]


@pytest.mark.parametrize("kernel", KERNELS)
def test_one_warp_multiplies_its_fragments(kernel, tmp_path):
    r, _, want = _analyze(kernel, tmp_path)
    got = r.buffers["D"].reshape(16, 8)
    if kernel == "mma_s8_k32":
        assert np.array_equal(got, want.astype(np.int32))
    else:  # tf32 keeps 10 bits of mantissa on the GPU; analyze multiplies the float32 values
        assert np.allclose(got, want, rtol=1e-5, atol=1e-5)
    assert got.any()


def test_the_ldmatrix_loads_count_as_shared_loads(tmp_path):
    r, _, _ = _analyze("mma_f16_k16", tmp_path)
    loads = [ls for ls in r.lines if ls.kind == "load"]
    assert loads and all(ls.bytes == 16 for ls in loads)
    assert r.totals("load")["requests"] == 2  # one ldmatrix.x4 and one .x2, one warp


def test_a_partial_warp_is_refused(tmp_path):
    src = tmp_path / "partial.cu"
    src.write_text(SRC.read_text().replace("const int g = threadIdx.x / 4, t = threadIdx.x % 4;\n    unsigned a[4], b[2];\n"
                                           "    float c[4], d[4];",
                                           "const int g = threadIdx.x / 4, t = threadIdx.x % 4;\n    if (threadIdx.x >= 16) return;\n"
                                           "    unsigned a[4], b[2];\n    float c[4], d[4];", 1))
    with pytest.raises(UserError, match="only some of its lanes"):
        analyze_source(str(src), "mma_tf32_k8", (32,), args=["A=float32[128]", "Bt=float32[64]", "C=float32[128]",
                                                            "D=float32[128]"])


@pytest.mark.gpu
@pytest.mark.parametrize("kernel", KERNELS)
def test_the_gpu_computes_what_analyze_does(kernel, tmp_path):
    cupy = pytest.importorskip("cupy")
    r, bufs, _ = _analyze(kernel, tmp_path)
    mod = cupy.RawModule(code=SRC.read_text(), options=("-arch=sm_90",))
    dev = {n: cupy.asarray(a) for n, a in bufs.items()}
    mod.get_function(kernel)((1,), (32,), tuple(dev[n] for n in ("A", "Bt", "C", "D")))
    gpu = cupy.asnumpy(dev["D"]).ravel()
    got = r.buffers["D"]
    if kernel == "mma_s8_k32":
        assert np.array_equal(gpu, got)
    else:  # the tensor cores round in their own order (and tf32 drops mantissa bits)
        tol = 2e-2 if kernel == "mma_tf32_k8" else 1e-4
        assert np.allclose(gpu, got, rtol=tol, atol=tol), np.abs(gpu - got).max()
