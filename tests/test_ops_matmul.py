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


def test_unknown_splits_and_splits_of_a_kernel_that_cannot():
    with pytest.raises(ValueError, match="splits"):
        MM.matmul(None, None, splits=0)
    with pytest.raises(ValueError, match="splits"):
        MM.matmul(None, None, splits=2.0)
    with pytest.raises(ValueError, match="does not split"):
        MM.plan(64, 64, 64, 132, "warptile_db16", 2)
    with pytest.raises(ValueError, match="1 to 16"):
        MM.plan(64, 64, 64, 132, "async", 17)


def test_plans():
    p = MM.plan(1024, 1024, 1024, 132, "async")
    assert p == MM.Plan("async", (8, 8, 4), 256, MM.DYNAMIC_SMEM["async"], 4)
    assert MM.plan(1000, 999, 4093, 132, "pack", 1).grid == (8, 8, 1)
    assert MM.plan(1024, 1024, 1024, 132, splits=2) == MM.Plan("async", (8, 8, 2), 256, MM.DYNAMIC_SMEM["async"], 2)
    assert MM.plan(33, 65, 17, 132, "tiled").grid == (3, 2, 1)  # the old kernels never split


def test_splits_fill_idle_sms_and_leave_full_grids_alone():
    sms = 132
    # 64 tiles: 4 slices put 2 blocks on nearly every SM
    assert MM.choose_splits("async", 1024, 1024, 1024, sms) == 4
    # a grid of 2 or more blocks an SM, or slices shorter than MIN_SLICE: no split
    for m, n, k in ((4096, 4096, 4096), (2048, 2048, 2048), (8192, 8192, 8192), (4097, 4095, 4093), (1024, 1024, 200)):
        assert MM.choose_splits("async", m, n, k, sms) == 1, (m, n, k)
    assert MM.choose_splits("warptile_db16", 128, 128, 8192, sms) == 1
    # any split the model picks keeps MIN_SLICE of K per slice and at most MAX_SPLITS
    for m, n, k in ((128, 128, 1 << 16), (300, 200, 5000), (1000, 1000, 1000), (128, 4096, 700)):
        s = MM.choose_splits("pack", m, n, k, sms)
        assert 1 <= s <= MM.MAX_SPLITS and (s == 1 or k >= s * MM.MIN_SLICE), (m, n, k, s)
    assert MM.choose_splits("async", 128, 128, 1 << 16, sms) == MM.MAX_SPLITS


def test_the_default_picks_what_the_sweep_measured_fastest():
    """`choose` on the H200's 132 SMs against the table in ops/matmul: the best measured variant
    at every measured shape, and the best split or one within 2% of it (3001x4999x2003: 2 splits,
    0.903 of cuBLAS, against 3 at 0.913; 1000^3 and 1024^3: 4)."""
    sms = 132
    assert MM.choose(256, 256, 256, sms) == ("tiled", 1)
    for size, splits in ((512, 4), (768, 3), (1000, 4), (1024, 4)):
        assert MM.choose(size, size, size, sms) == ("async", splits), size
    assert MM.choose(3001, 4999, 2003, sms) == ("async", 2)
    for shape in ((2048, 2048, 2048), (4096, 4096, 4096), (4097, 4095, 4093), (8192, 8192, 8192)):
        assert MM.choose(*shape, sms) == ("warptile_db16", 1), shape
    assert MM.plan(1024, 1024, 1024, sms).variant == "async" and MM.plan(4096, 4096, 4096, sms).splits == 1


def test_kernel_args_carry_the_workspace_for_the_split_kernels():
    assert len(MM.kernel_args(16, 32, 48, 4, 4, 4, "warptile_db16")) == 9
    args = MM.kernel_args(16, 32, 48, 4, 4, 4, "async", 64, 80)
    assert len(args) == 11 and args[-2:] == (64, 80) and args[6:9] == (1, 1, 1)
    assert MM.kernel_args(20, 32, 48, 4, 5, 4, "async")[6:9] == (0, 0, 0)  # A 4 bytes off 16; N % 4 != 0


def test_kernels_compile_for_sm90():
    pytest.importorskip("cuda.core")
    from smemlab.compiler import compile_cubin
    from smemlab.cubin import static_shared_bytes

    kernels = static_shared_bytes(compile_cubin(MM.SOURCE, "sm_90"))
    assert {f"mm_{v}" for v in MM.VARIANTS} <= set(kernels)
    # the double-buffered kernel holds two stages of A (padded) and B (+ 1 KB the sm_90 ABI reserves)
    assert kernels["mm_warptile_db"] - 2 * 8 * (132 + 128) * 4 in (0, 1024)
    for v in MM.DYNAMIC_SMEM:  # the stages are dynamic: only the split-K flag is static
        assert kernels[f"mm_{v}"] <= 1024 + 16, v


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
@pytest.mark.parametrize("variant", list(MM.DYNAMIC_SMEM))
@pytest.mark.parametrize("m,n,k,splits", [(1, 1, 1, 2), (17, 33, 5, 3), (33, 65, 17, 4), (130, 260, 300, 3),
                                          (257, 383, 1001, 5), (128, 128, 4096, 16), (1000, 999, 1001, 2)])
def test_split_k_matches_numpy(variant, m, n, k, splits):
    """Slices of K in several blocks (some empty where K is short), the last adding the partials."""
    import cupy as cp

    rng = np.random.default_rng(m + n + k + splits)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    c = MM.matmul(cp.asarray(a), cp.asarray(b), variant=variant, splits=splits)
    _check(a, b, cp.asnumpy(c))


@gpu
def test_split_k_is_deterministic_and_resets_its_counters():
    """The same bits every call (partials added in a fixed order), which also needs every tile's
    counter back at 0 after each launch; and a larger call after a smaller one grows the workspace."""
    import cupy as cp

    rs = cp.random.RandomState(8)
    a = rs.uniform(-1, 1, (300, 3000), dtype=cp.float32)
    b = rs.uniform(-1, 1, (3000, 200), dtype=cp.float32)
    first = MM.matmul(a, b, variant="async", splits=6)
    for _ in range(3):
        assert bool((MM.matmul(a, b, variant="async", splits=6) == first).all())
    _check(cp.asnumpy(a), cp.asnumpy(b), cp.asnumpy(first))
    big_a = rs.uniform(-1, 1, (1024, 1024), dtype=cp.float32)
    big = MM.matmul(big_a, big_a, variant="pack", splits=8)
    _check(cp.asnumpy(big_a), cp.asnumpy(big_a), cp.asnumpy(big))


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
    for v in ("vectorized", "warptile_db", "warptile_db16", *MM.DYNAMIC_SMEM):
        _check(cp.asnumpy(a), cp.asnumpy(b), cp.asnumpy(MM.matmul(a, b, variant=v)))


@gpu
def test_bad_arrays():
    import cupy as cp

    a = cp.ones((4, 5), cp.float32)
    with pytest.raises(TypeError, match="float64"):
        MM.matmul(a.astype(cp.float64), a.T.copy())
    with pytest.raises(ValueError, match="equal K"):
        MM.matmul(a, a)
    with pytest.raises(ValueError, match="1-D"):
        MM.matmul(cp.ones(4, cp.float32), a)


@gpu
def test_strided_and_empty_operands_as_torch_gives_them():
    import cupy as cp

    a = cp.random.default_rng(3).standard_normal((4, 5), dtype=cp.float32)
    cp.testing.assert_allclose(MM.matmul(a, a.T), a @ a.T, rtol=1e-5)  # a transposed view: copied, not refused
    assert MM.matmul(cp.ones((0, 5), cp.float32), cp.ones((5, 3), cp.float32)).shape == (0, 3)
    assert (MM.matmul(cp.ones((2, 0), cp.float32), cp.ones((0, 3), cp.float32)) == 0).all()  # K = 0: zeros


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
