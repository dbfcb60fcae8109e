"""smemlab.ops.matmul: argument checks, launch shapes, cubins (no GPU); every variant against
float64 NumPy at odd and large shapes (GPU)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import smemlab.ops.matmul  # noqa: F401  (loads the module: the package attribute `matmul` is the function)
from smemlab.device import no_gpu_reason

MM = sys.modules["smemlab.ops.matmul"]  # the module itself

GPU_REASON = no_gpu_reason()
gpu = pytest.mark.skipif(GPU_REASON is not None, reason=f"needs a CUDA GPU: {GPU_REASON}")


def test_host_arrays_rejected():
    a = np.ones((4, 4), np.float32)
    with pytest.raises(TypeError, match="NumPy array"):
        MM.matmul(a, a)


def test_unknown_variant():
    with pytest.raises(ValueError, match="variant"):
        MM.matmul(None, None, variant="cutlass")


def test_launch_shape():
    assert MM.launch_shape("tiled", 33, 65) == ((3, 2), 1024)
    assert MM.launch_shape("blocktile1d", 64, 65) == ((2, 1), 512)
    assert MM.launch_shape("warptile_db", 3000, 5000) == ((40, 24), 256)
    with pytest.raises(ValueError, match="rows"):
        MM.launch_shape("tiled", 32 * 65535 + 1, 4)


def test_kernels_compile_for_sm90():
    pytest.importorskip("cuda.core")
    from smemlab.compiler import compile_cubin
    from smemlab.cubin import static_shared_bytes

    kernels = static_shared_bytes(compile_cubin(MM.SOURCE, "sm_90"))
    assert {f"mm_{v}" for v in MM.VARIANTS} <= set(kernels)
    # the double-buffered kernel holds two stages of A (padded) and B (+ 1 KB the sm_90 ABI reserves)
    assert kernels["mm_warptile_db"] - 2 * 8 * (132 + 128) * 4 in (0, 1024)


# ---- GPU ----------------------------------------------------------------------------------------------
SHAPES = [(1, 1, 1), (1, 7, 3), (17, 33, 5), (128, 128, 128), (130, 260, 68), (257, 383, 191), (1000, 999, 1001), (513, 1024, 2048)]


def _check(a, b, c):
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = np.linalg.norm(c.astype(np.float64) - ref) / np.linalg.norm(ref)
    assert err < 1e-5, err


@gpu
@pytest.mark.parametrize("variant", list(MM.VARIANTS))
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_variants_match_numpy(variant, m, n, k):
    import cupy as cp

    rng = np.random.default_rng(m * 31 + n * 7 + k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    c = MM.matmul(cp.asarray(a), cp.asarray(b), variant=variant)
    assert isinstance(c, cp.ndarray) and c.shape == (m, n) and c.dtype == cp.float32
    _check(a, b, cp.asnumpy(c))


@gpu
def test_every_element_written():
    import cupy as cp

    rng = np.random.default_rng(1)
    a = cp.asarray(rng.uniform(-1, 1, (300, 200)).astype(np.float32))
    b = cp.asarray(rng.uniform(-1, 1, (200, 301)).astype(np.float32))
    for v in MM.VARIANTS:
        poison = cp.full((300, 301), cp.nan, dtype=cp.float32)
        del poison  # the pool hands this NaN block to the next output of that size
        c = MM.matmul(a, b, variant=v)
        assert not bool(cp.isnan(c).any()), v
        _check(cp.asnumpy(a), cp.asnumpy(b), cp.asnumpy(c))


@gpu
def test_large_square():
    import cupy as cp

    rs = cp.random.RandomState(2)
    a = rs.uniform(-1, 1, (2048, 2048), dtype=cp.float32)
    b = rs.uniform(-1, 1, (2048, 2048), dtype=cp.float32)
    ref = a.astype(cp.float64) @ b.astype(cp.float64)
    c = MM.matmul(a, b)
    assert float(cp.linalg.norm(c - ref) / cp.linalg.norm(ref)) < 1e-5


@gpu
def test_unaligned_rows_use_the_scalar_path():
    import cupy as cp

    rng = np.random.default_rng(4)
    flat = cp.asarray(rng.uniform(-1, 1, 1 + 130 * 64).astype(np.float32))
    a = flat[1:].reshape(130, 64)  # K % 4 == 0 but the pointer is 4 bytes off 16
    b = cp.asarray(rng.uniform(-1, 1, (64, 72)).astype(np.float32))
    for v in ("vectorized", "warptile_db", "warptile_db16"):
        _check(cp.asnumpy(a), cp.asnumpy(b), cp.asnumpy(MM.matmul(a, b, variant=v)))


@gpu
def test_bad_arrays():
    import cupy as cp

    a = cp.ones((4, 5), cp.float32)
    with pytest.raises(TypeError, match="float64"):
        MM.matmul(a.astype(cp.float64), a.T.copy())
    with pytest.raises(ValueError, match="equal K"):
        MM.matmul(a, a)
    with pytest.raises(ValueError, match="C-contiguous"):
        MM.matmul(a, a.T)
    with pytest.raises(ValueError, match="1-D"):
        MM.matmul(cp.ones(4, cp.float32), a)
    with pytest.raises(ValueError, match="non-empty"):
        MM.matmul(cp.ones((0, 5), cp.float32), cp.ones((5, 3), cp.float32))


@gpu
def test_torch_in_torch_out():
    torch = pytest.importorskip("torch")
    torch.backends.cuda.matmul.allow_tf32 = False
    rng = np.random.default_rng(6)
    a = torch.as_tensor(rng.uniform(-1, 1, (333, 222)).astype(np.float32), device="cuda")
    b = torch.as_tensor(rng.uniform(-1, 1, (222, 111)).astype(np.float32), device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        c = MM.matmul(a, b)
    s.synchronize()
    assert isinstance(c, torch.Tensor) and c.is_cuda and c.shape == (333, 111)
    _check(a.cpu().numpy(), b.cpu().numpy(), c.cpu().numpy())
    import cupy as cp

    with pytest.raises(TypeError, match="one type"):
        MM.matmul(a, cp.ones((222, 4), cp.float32))
