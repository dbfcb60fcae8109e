"""smemlab.ops on a GPU: every op against NumPy (float64 where rounding matters) at odd, aligned,
unaligned, tiny and large sizes; torch in -> torch out; the caller's stream. Skipped, with the
reason, where there is no GPU."""

import math

import numpy as np
import pytest

from smemlab.device import no_gpu_reason

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(no_gpu_reason() is not None, reason=f"needs a CUDA GPU: {no_gpu_reason()}")]

cupy = pytest.importorskip("cupy")
from smemlab import ops  # noqa: E402


def rand(shape, dtype="float32", seed=0, low=-1.0, high=1.0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(int(low), int(high), size=shape, dtype=dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


def poison_pool(nbytes):
    """Leave a freed block of 0xFF bytes for the next allocation of that size (NaN / -1)."""
    p = cupy.empty(max(nbytes, 1), dtype=np.uint8)
    p.fill(0xFF)
    del p


# -- transpose -------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (4, 4), (64, 64), (65, 63), (128, 4), (4, 132),
                                   (1001, 999), (12000, 7000), (4096, 4100), (333, 4096)])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_transpose(shape, dtype):
    h = rand(shape, dtype, seed=sum(shape), low=-1000 if dtype == "int32" else -1, high=1000 if dtype == "int32" else 1)
    x = cupy.asarray(h)
    poison_pool(x.nbytes)
    out = ops.transpose(x)
    assert isinstance(out, cupy.ndarray) and out.shape == shape[::-1] and out.dtype == x.dtype and out.flags.c_contiguous
    np.testing.assert_array_equal(cupy.asnumpy(out), h.T)


def test_transpose_unaligned_view():
    base = cupy.asarray(rand(4 * 64 + 1, seed=3))
    x = base[1:].reshape(4, 64)  # contiguous, 4 bytes off 16-byte alignment: the scalar kernel
    np.testing.assert_array_equal(cupy.asnumpy(ops.transpose(x)), cupy.asnumpy(x).T)


def test_transpose_empty():
    out = ops.transpose(cupy.empty((0, 5), dtype=cupy.float32))
    assert out.shape == (5, 0)


def test_transpose_64bit_indexing():
    free, _ = cupy.cuda.runtime.memGetInfo()
    side = 46400  # 2.15e9 elements > 2^31: row * cols overflows 32 bits
    if free < 2.3 * side * side * 4:
        pytest.skip(f"needs {2.3 * side * side * 4 / 1e9:.0f} GB free, {free / 1e9:.0f} GB free")
    x = cupy.empty((side, side), dtype=cupy.float32)
    x[...] = cupy.arange(side, dtype=cupy.float32)[None, :] + 0.5
    x[-1, :] = -cupy.arange(side, dtype=cupy.float32)
    out = ops.transpose(x)
    rows = [0, 1, 12345, side - 2, side - 1]
    np.testing.assert_array_equal(cupy.asnumpy(out[rows]), cupy.asnumpy(x[:, rows]).T)
    np.testing.assert_array_equal(cupy.asnumpy(out[:, -1]), cupy.asnumpy(x[-1]))
    del x, out


# -- reduce_sum ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 3, 4, 5, 17, 1000, 4097, 1_000_003, 1 << 24, (1 << 26) + 7])
def test_reduce_int32_exact(n):
    h = rand(n, "int32", seed=n, low=-(2**31), high=2**31 - 1)  # the full range: int32 overflows at once
    out = ops.reduce_sum(cupy.asarray(h))
    assert out.shape == () and out.dtype == np.int64
    assert int(out) == int(h.astype(np.int64).sum())
    assert int(out) == int(cupy.sum(cupy.asarray(h)))  # CuPy's semantics: int64, exact


def test_reduce_int32_dtype_int32_wraps_like_numpy():
    h = rand(100_001, "int32", seed=5, low=-(2**31), high=2**31 - 1)
    out = ops.reduce_sum(cupy.asarray(h), dtype=np.int32)
    assert out.dtype == np.int32 and int(out) == int(h.sum(dtype=np.int32))


@pytest.mark.parametrize("n", [1, 2, 7, 1023, 1_000_003, 1 << 24, (1 << 27) + 5])
def test_reduce_float32_accuracy(n):
    h = rand(n, "float32", seed=n, low=0.0, high=1.0)
    h64 = h.astype(np.float64)
    ref = float(h64.sum())
    bound = 2 * float(np.finfo(np.float32).eps) * math.sqrt(n) * float(np.sqrt(np.dot(h64, h64)))
    x = cupy.asarray(h)
    out = ops.reduce_sum(x)
    assert out.dtype == np.float32 and out.shape == ()
    err = abs(float(out) - ref)
    cupy_err = abs(float(cupy.sum(x)) - ref)
    assert err <= bound, f"error {err} > bound {bound}"
    # CuPy's accuracy or better (up to the float32 rounding of the result itself)
    assert err <= max(2 * cupy_err, 2 * float(np.spacing(np.float32(ref)))), (err, cupy_err)


def test_reduce_float32_to_float64_and_float64():
    h = rand(3_000_001, "float32", seed=9)
    out = ops.reduce_sum(cupy.asarray(h), dtype="float64")
    assert out.dtype == np.float64
    assert abs(float(out) - float(h.astype(np.float64).sum())) < 1e-9 * np.abs(h).sum()
    d = rand(2_000_003, "float64", seed=10)
    out = ops.reduce_sum(cupy.asarray(d))
    assert out.dtype == np.float64 and abs(float(out) - math.fsum(d)) < 1e-12 * np.abs(d).sum()


def test_reduce_unaligned_and_nd():
    h = rand(10_007, "int32", seed=1, low=-100, high=100)
    base = cupy.asarray(h)
    for off in (1, 2, 3):
        assert int(ops.reduce_sum(base[off:])) == int(h[off:].astype(np.int64).sum())
    m = cupy.asarray(rand((37, 41), "float32", seed=2))
    assert abs(float(ops.reduce_sum(m)) - float(cupy.asnumpy(m).astype(np.float64).sum())) < 1e-3


def test_reduce_empty_and_repeat():
    assert int(ops.reduce_sum(cupy.empty(0, dtype=cupy.int32))) == 0
    x = cupy.asarray(rand(1 << 20, "int32", seed=4, low=-5, high=5))
    ref = int(cupy.asnumpy(x).astype(np.int64).sum())
    for _ in range(5):  # the last-block counter must come back to 0 after every launch
        assert int(ops.reduce_sum(x)) == ref


# -- stencil1d -------------------------------------------------------------------------------
def stencil_ref(h, coef):
    r = (len(coef) - 1) // 2
    return np.correlate(np.pad(h.astype(np.float64), r), np.asarray(coef, np.float64), "valid")


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 9, 4095, 4096, 4097, 12_289, 1_000_003, (1 << 22) + 1])
@pytest.mark.parametrize("radius", [0, 1, 4, 7, 32])
def test_stencil(n, radius):
    coef = rand(2 * radius + 1, "float32", seed=radius + 100)
    h = rand(n, "float32", seed=n)
    x = cupy.asarray(h)
    poison_pool(x.nbytes)
    out = ops.stencil1d(x, coef)
    assert out.shape == (n,) and out.dtype == np.float32
    ref = stencil_ref(h, coef)
    np.testing.assert_allclose(cupy.asnumpy(out), ref, rtol=1e-5, atol=1e-5 * np.abs(coef).sum())


def test_stencil_matches_cupyx_and_changes_coefficients():
    from cupyx.scipy.ndimage import correlate1d

    h = rand(100_003, "float32", seed=11)
    x = cupy.asarray(h)
    for seed in (1, 2, 1):  # new coefficients each call, then the first again
        coef = rand(9, "float32", seed=seed)
        got = cupy.asnumpy(ops.stencil1d(x, coef))
        want = cupy.asnumpy(correlate1d(x, cupy.asarray(coef), mode="constant", cval=0.0))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got, stencil_ref(h, coef), rtol=1e-5, atol=1e-5)


def test_stencil_unaligned_and_coef_types():
    h = rand(10_001, "float32", seed=12)
    base = cupy.asarray(h)
    coef = [0.25, 0.5, 0.25]
    for off in (1, 2, 3):
        np.testing.assert_allclose(cupy.asnumpy(ops.stencil1d(base[off:], coef)), stencil_ref(h[off:], coef), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(cupy.asnumpy(ops.stencil1d(base, cupy.asarray(coef))), stencil_ref(h, coef), rtol=1e-5, atol=1e-6)


def test_stencil_64bit_indexing():
    n = (1 << 31) + 9
    free, _ = cupy.cuda.runtime.memGetInfo()
    if free < 2.5 * n * 4:
        pytest.skip("not enough GPU memory")
    x = cupy.empty(n, dtype=cupy.float32)
    x[...] = 1.0
    x[-5:] = cupy.arange(1, 6, dtype=cupy.float32)
    out = ops.stencil1d(x, [1.0, 2.0, 3.0])
    tail = cupy.asnumpy(x[-20:])
    ref = stencil_ref(np.concatenate([tail, []]).astype(np.float32), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(cupy.asnumpy(out[-19:]), ref[1:], rtol=1e-6)
    del x, out


# -- torch and streams -------------------------------------------------------------------------
def test_torch_in_torch_out_zero_copy():
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(rand((300, 200), seed=21)).cuda()
    out = ops.transpose(t)
    assert isinstance(out, torch.Tensor) and out.is_cuda and out.shape == (200, 300)
    assert torch.equal(out, t.t().contiguous())
    ti = torch.from_numpy(rand(10_000, "int32", seed=22, low=-1000, high=1000)).cuda()
    s = ops.reduce_sum(ti)
    assert isinstance(s, torch.Tensor) and s.dtype == torch.int64 and int(s) == int(ti.sum())
    tf = torch.from_numpy(rand(5000, seed=23)).cuda()
    st = ops.stencil1d(tf, [1.0, -2.0, 1.0])
    ref = torch.nn.functional.conv1d(tf.view(1, 1, -1), torch.tensor([[[1.0, -2.0, 1.0]]], device="cuda"), padding=1).view(-1)
    assert isinstance(st, torch.Tensor) and torch.allclose(st, ref, atol=1e-5)


def test_torch_side_stream():
    torch = pytest.importorskip("torch")
    s = torch.cuda.Stream()
    t = torch.from_numpy(rand((2048, 1024), seed=31)).cuda()
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        y = t * 2  # work on the side stream that our op must follow
        out = ops.transpose(y)
        z = out * 1  # and work after it, on the same stream
    s.synchronize()
    assert torch.equal(z, (t * 2).t().contiguous())


def test_cupy_side_stream():
    h = rand(1 << 22, "float32", seed=41)
    with cupy.cuda.Stream(non_blocking=True) as st:
        x = cupy.asarray(h) * 2
        out = ops.stencil1d(x, [1.0, 1.0, 1.0])
        total = ops.reduce_sum(out)
        v = float(total)
        st.synchronize()
    ref = stencil_ref(h * 2, [1.0, 1.0, 1.0]).sum()
    assert abs(v - ref) < 1e-3 * np.abs(h).sum()
