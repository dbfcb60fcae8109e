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
from smemlab.lab.launches import transpose_alternatives, transpose_instance  # noqa: E402
from smemlab.ops.transpose import element_kernels  # noqa: E402


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


# 2- and 8-byte elements: 1, a tile side (128 for 2 bytes, 32 for 8) +- 1, primes, and sides that are or are not
# multiples of the 16-byte vector (8 and 2 elements)
ODD_SHAPES = [(1, 1), (1, 9), (9, 1), (8, 8), (31, 33), (33, 31), (32, 32), (127, 129), (128, 128), (129, 127),
              (128, 136), (1001, 999), (4099, 4093)]


@pytest.mark.parametrize("shape", ODD_SHAPES)
@pytest.mark.parametrize("dtype", ["float16", "int16", "float64", "int64"])
def test_transpose_2_and_8_byte(shape, dtype):
    h = rand(shape, dtype, seed=sum(shape), low=-30000, high=30000) if dtype.startswith("int") else rand(shape, dtype, seed=sum(shape))
    x = cupy.asarray(h)
    poison_pool(x.nbytes)
    out = ops.transpose(x)
    assert out.shape == shape[::-1] and out.dtype == x.dtype and out.flags.c_contiguous
    np.testing.assert_array_equal(cupy.asnumpy(out), h.T)


def element_kernel_shapes(tile):
    """Sides 1, a tile side - 1 and + 1, primes, whole tiles inside the matrix, batches, for a (rows, cols) tile."""
    tr, tc = tile
    return [(1, 1), (1, tc + 1), (tr + 1, 1), (tr - 1, tc - 1), (tr + 1, tc + 1), (tr, tc), (2 * tr + 1, 3 * tc - 1),
            (257, 131), (389, 263), (3, tr + 1, tc - 1), (2, 131, 3 * tc + 1)]


# the op's element and pair kernels and the alternatives tools/ times them against (template instances it does
# not ship: lab/launches.py)
ELEMENT_KERNELS = element_kernels() + transpose_alternatives()


@pytest.mark.parametrize("name, itemsize, tile", ELEMENT_KERNELS)
def test_every_element_kernel(name, itemsize, tile):
    """Every element and pair kernel (the plan's and the alternatives tools/sweeps/transpose_any_sweep.py and
    tools/probes/transpose_pair_probe.py time), launched directly, on odd sizes and at offsets from 16-byte
    boundaries on both sides, against NumPy."""
    from smemlab import device

    dtype = {2: "int16", 4: "float32", 8: "float64"}[itemsize]
    k = device.kernel("ops/transpose/transpose.cu", transpose_instance(name))
    for n, shape in enumerate(element_kernel_shapes(tile)):
        rows, cols = shape[-2:]
        size = math.prod(shape)
        off = n % 3  # elements of offset: the kernels take 16-byte aligned pointers and element offsets
        h = rand(off + size, dtype, seed=n, low=-30000, high=30000)
        x = cupy.asarray(h)
        out = cupy.full(size + off, -1, dtype=dtype)
        ty, tx = -(-rows // tile[0]), -(-cols // tile[1])
        nt = size // (rows * cols) * ty * tx
        device.launch(k, nt, 256, (out.data.ptr, off, x.data.ptr, off, rows, cols, ty, tx, nt), 0)
        got = cupy.asnumpy(out)
        want = np.swapaxes(h[off:].reshape(shape), -1, -2).ravel()
        np.testing.assert_array_equal(got[off:], want, err_msg=f"{name} {shape}")
        assert (got[:off] == -1).all()


@pytest.mark.parametrize("dtype, shape, offset", [("float16", (4099, 3073), 1), ("float16", (2, 2049, 3071), 3),
                                                  ("float32", (3, 2049, 2047), 1), ("float32", (4097, 3071), 0)])
def test_transpose_pair_kernels_through_the_plan(dtype, shape, offset):
    """Ragged matrices with enough tiles for the plan's pair kernels, views off word alignment included."""
    from smemlab.ops.transpose import plan

    assert "_pr" in plan(shape, np.dtype(dtype).itemsize, False)[0]
    base = cupy.asarray(rand(offset + math.prod(shape), dtype, seed=offset))
    x = base[offset:].reshape(shape)
    np.testing.assert_array_equal(cupy.asnumpy(ops.transpose(x)), np.swapaxes(cupy.asnumpy(x), -1, -2))


@pytest.mark.parametrize("shape", [(7001, 5003), (8191, 8193), (4097, 4095), (2, 3), (5, 65)])
def test_transpose_float32_odd_sides(shape):
    h = rand(shape, "float32", seed=sum(shape))
    x = cupy.asarray(h)
    poison_pool(x.nbytes)
    np.testing.assert_array_equal(cupy.asnumpy(ops.transpose(x)), h.T)


@pytest.mark.parametrize("shape", [(3, 5, 7), (4, 128, 64), (5, 129, 127), (64, 64, 64), (1, 1, 1), (7, 1, 13),
                                   (2, 3, 33, 65), (16, 1000, 1001)])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_transpose_batched(shape, dtype):
    h = rand(shape, dtype, seed=len(shape) + shape[-1])
    x = cupy.asarray(h)
    poison_pool(x.nbytes)
    out = ops.transpose(x)
    assert out.shape == shape[:-2] + (shape[-1], shape[-2]) and out.flags.c_contiguous
    np.testing.assert_array_equal(cupy.asnumpy(out), np.swapaxes(h, -1, -2))
    np.testing.assert_array_equal(cupy.asnumpy(out), cupy.asnumpy(cupy.ascontiguousarray(x.swapaxes(-1, -2))))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("offset", [1, 3, 5])
def test_transpose_unaligned_views_every_size(dtype, offset):
    base = cupy.asarray(rand(offset + 3 * 130 * 67, dtype, seed=offset))
    x = base[offset:].reshape(3, 130, 67)  # contiguous, off 16-byte alignment by `offset` elements
    np.testing.assert_array_equal(cupy.asnumpy(ops.transpose(x)), np.swapaxes(cupy.asnumpy(x), -1, -2))


def test_transpose_bfloat16_torch():
    torch = pytest.importorskip("torch")
    for shape in [(1, 1), (129, 127), (1001, 999), (3, 128, 136), (4, 33, 65)]:
        t = torch.randn(shape, device="cuda").to(torch.bfloat16)
        out = ops.transpose(t)
        assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16 and out.is_contiguous()
        assert torch.equal(out, t.transpose(-1, -2).contiguous()), shape


def test_transpose_float16_64bit_indexing():
    free, _ = cupy.cuda.runtime.memGetInfo()
    rows, cols = 46341, 46343  # 2.15e9 elements > 2^31, sides not multiples of 8
    if free < 2.3 * rows * cols * 2:
        pytest.skip(f"needs {2.3 * rows * cols * 2 / 1e9:.0f} GB free, {free / 1e9:.0f} GB free")
    x = cupy.empty((rows, cols), dtype=cupy.float16)
    x[...] = (cupy.arange(cols) % 2048).astype(cupy.float16)[None, :]
    x[-1, :] = -(cupy.arange(cols) % 1024).astype(cupy.float16)
    out = ops.transpose(x)
    picks = [0, 1, 12345, cols - 2, cols - 1]
    np.testing.assert_array_equal(cupy.asnumpy(out[picks]), cupy.asnumpy(x[:, picks]).T)
    np.testing.assert_array_equal(cupy.asnumpy(out[:, -1]), cupy.asnumpy(x[-1]))
    del x, out


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


# 1, 2 and 3 below a vector, a block's tile (256 threads x 8 vectors) +- 1, primes, 2^20 + 7
SUM_SIZES = [1, 2, 3, 7, 8, 9, 4095, 4096, 4097, 16383, 16385, 1_000_003, (1 << 20) + 7]


@pytest.mark.parametrize("n", SUM_SIZES + [(1 << 26) + 5])
def test_reduce_int64_exact(n):
    h = rand(n, "int64", seed=n, low=-(2**40), high=2**40)
    out = ops.reduce_sum(cupy.asarray(h))
    assert out.shape == () and out.dtype == np.int64
    assert int(out) == int(h.sum())


def test_reduce_int64_wraps_like_numpy():
    h = np.full(1001, 2**62, dtype=np.int64)
    with np.errstate(over="ignore"):
        assert int(ops.reduce_sum(cupy.asarray(h))) == int(h.sum())


@pytest.mark.parametrize("n", SUM_SIZES + [(1 << 25) + 3])
def test_reduce_float64(n):
    h = rand(n, "float64", seed=n)
    out = ops.reduce_sum(cupy.asarray(h))
    assert out.dtype == np.float64 and abs(float(out) - math.fsum(h)) <= 1e-13 * np.abs(h).sum() + 1e-300


def half_bound(h64, out_dtype):
    """A float32-accumulated sum rounded once to out_dtype: 2 eps32 sqrt(n) ||x|| plus the output's ulp."""
    n = h64.size
    acc = 2 * float(np.finfo(np.float32).eps) * math.sqrt(n) * float(np.sqrt(np.dot(h64, h64)))
    return acc + float(np.spacing(np.asarray(abs(h64.sum()), dtype=out_dtype)))


@pytest.mark.parametrize("n", SUM_SIZES + [(1 << 25) + 3])
def test_reduce_float16(n):
    h = rand(n, "float16", seed=n)  # mean 0: the sum fits in float16
    h64 = h.astype(np.float64)
    x = cupy.asarray(h)
    out = ops.reduce_sum(x)
    assert out.dtype == np.float16 and out.shape == ()  # cupy.sum's result type
    assert abs(float(out) - h64.sum()) <= half_bound(h64, np.float16)
    assert cupy.sum(x).dtype == np.float16
    f = ops.reduce_sum(x, dtype="float32")
    assert f.dtype == np.float32 and abs(float(f) - h64.sum()) <= half_bound(h64, np.float32)


def test_reduce_bfloat16_torch():
    torch = pytest.importorskip("torch")
    for n in SUM_SIZES + [(1 << 24) + 3]:
        t = (torch.rand(n, device="cuda") * 2 - 1).to(torch.bfloat16)
        t64 = t.double().cpu().numpy()
        out = ops.reduce_sum(t)
        assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16 and out.shape == ()  # torch.sum's type
        ref = t.sum()
        bound = half_bound(t64, np.float32) + 2.0**-7 * abs(t64.sum())  # bfloat16 keeps 8 significant bits
        assert abs(float(out) - t64.sum()) <= bound, n
        assert abs(float(out) - float(ref)) <= bound, n
        f = ops.reduce_sum(t, dtype=torch.float32)
        assert f.dtype == torch.float32 and abs(float(f) - t64.sum()) <= half_bound(t64, np.float32), n


def test_reduce_torch_result_types():
    torch = pytest.importorskip("torch")
    for dt in (torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64):
        t = torch.ones(1000, dtype=dt, device="cuda")
        assert ops.reduce_sum(t).dtype == t.sum().dtype == torch.sum(t, dim=-1).dtype, dt
        assert ops.reduce_sum(t.view(10, 100), axis=-1).dtype == t.view(10, 100).sum(-1).dtype, dt


def test_reduce_torch_scalars_kept_past_the_pool_stay_their_own():
    """Full sums on torch tensors come from a pool of 0-d tensors carved from one allocation: results
    kept across more calls than the pool holds, on two streams, each keep their own value."""
    torch = pytest.importorskip("torch")
    from smemlab.ops._args import SCALAR_POOL

    xs = [torch.full((1000 + i,), float(i % 7) - 3.0, device="cuda") for i in range(SCALAR_POOL + 9)]
    side = torch.cuda.Stream()
    kept = []
    for i, x in enumerate(xs):
        if i % 5 == 0:
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                kept.append(ops.reduce_sum(x))
            torch.cuda.current_stream().wait_stream(side)
        else:
            kept.append(ops.reduce_sum(x))
    torch.cuda.synchronize()
    assert len({r.data_ptr() for r in kept}) == len(kept)
    assert [float(r) for r in kept] == [float(x.double().sum()) for x in xs]
    kept[0] += 1  # a result is its own element: in place on one leaves the others alone
    assert float(kept[0]) == float(xs[0].double().sum()) + 1 and float(kept[1]) == float(xs[1].double().sum())


# -- reduce_sum(x, axis=-1): one sum per row ---------------------------------------------------------
ROW_SHAPES = [(1, 1), (1, 7), (7, 1), (3, 5), (5, 67), (33, 255), (1000, 256), (1001, 257), (17, 8191), (9, 8193),
              (2, 16381), (3, 100_003), (5, 1 << 18), (1 << 16, 3), (4099, 4093)]


def row_bound(h64):
    """Per row: 2 eps32 sqrt(cols) ||row|| (the float32-accumulation bound of the full-sum tests)."""
    return 2 * float(np.finfo(np.float32).eps) * math.sqrt(h64.shape[-1]) * np.sqrt((h64 * h64).sum(axis=-1))


@pytest.mark.parametrize("shape", ROW_SHAPES)
@pytest.mark.parametrize("dtype", ["int32", "int64", "float16", "float32", "float64"])
def test_reduce_rows(shape, dtype):
    if dtype.startswith("int"):
        h = rand(shape, dtype, seed=sum(shape), low=-(2**31), high=2**31 - 1)
    else:
        h = rand(shape, dtype, seed=sum(shape))
    x = cupy.asarray(h)
    poison_pool(8 * shape[0])
    out = ops.reduce_sum(x, axis=-1)
    h64 = h.astype(np.float64)
    want = h.astype(np.int64).sum(axis=-1) if dtype.startswith("int") else h64.sum(axis=-1)
    assert out.shape == shape[:-1] and out.dtype == cupy.sum(x, axis=-1).dtype
    got = cupy.asnumpy(out)
    if dtype.startswith("int"):
        np.testing.assert_array_equal(got, want)
    else:
        bound = row_bound(h64) + (np.spacing(np.abs(want).astype(np.float16)).astype(np.float64) if dtype == "float16" else 0)
        assert np.all(np.abs(got.astype(np.float64) - want) <= bound + 1e-300), shape


def test_reduce_rows_dtypes_views_and_ranks():
    h = rand((33, 1001), "float32", seed=1)
    x = cupy.asarray(h)
    np.testing.assert_allclose(cupy.asnumpy(ops.reduce_sum(x, dtype="float64", axis=1)), h.astype(np.float64).sum(1),
                               rtol=1e-12)
    hi = rand((40, 999), "int32", seed=2, low=-(2**31), high=2**31 - 1)
    got = ops.reduce_sum(cupy.asarray(hi), dtype="int32", axis=-1)
    assert got.dtype == np.int32 and np.array_equal(cupy.asnumpy(got), hi.sum(axis=-1, dtype=np.int32))
    h16 = rand((7, 300), "float16", seed=3)
    got = ops.reduce_sum(cupy.asarray(h16), dtype="float32", axis=-1)
    assert got.dtype == np.float32
    np.testing.assert_allclose(cupy.asnumpy(got), h16.astype(np.float64).sum(1), rtol=1e-5, atol=1e-5)
    base = cupy.asarray(rand(3 + 6 * 7 * 131, "float32", seed=4))
    for off in (1, 2, 3):  # an unaligned 3-D view: rows of 131 at any alignment
        v = base[off:off + 6 * 7 * 131].reshape(6, 7, 131)
        got = cupy.asnumpy(ops.reduce_sum(v, axis=-1))
        np.testing.assert_allclose(got, cupy.asnumpy(v).astype(np.float64).sum(-1), rtol=1e-5, atol=1e-5)
        assert got.shape == (6, 7)
    one = ops.reduce_sum(cupy.asarray(h[0]), axis=0)  # a 1-D array's last axis: the full sum
    assert one.shape == () and abs(float(one) - h[0].astype(np.float64).sum()) < 1e-4


def test_reduce_rows_empty():
    assert ops.reduce_sum(cupy.empty((0, 5), dtype=cupy.float32), axis=-1).shape == (0,)
    z = ops.reduce_sum(cupy.empty((4, 0), dtype=cupy.int32), axis=-1)
    assert z.dtype == np.int64 and cupy.asnumpy(z).tolist() == [0, 0, 0, 0]


def test_reduce_rows_repeat_and_streams():
    """The split rows' counters come back to 0 after every launch, on every stream."""
    h = rand((3, 1 << 20), "float32", seed=5)
    x = cupy.asarray(h)
    want = h.astype(np.float64).sum(1)
    for _ in range(4):
        np.testing.assert_allclose(cupy.asnumpy(ops.reduce_sum(x, axis=-1)), want, rtol=1e-5)
    with cupy.cuda.Stream(non_blocking=True) as st:
        got = cupy.asnumpy(ops.reduce_sum(x, axis=-1))
        st.synchronize()
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_reduce_rows_torch():
    torch = pytest.importorskip("torch")
    for shape in [(1000, 256), (16, 1 << 16), (3, 5, 77)]:
        for dt in (torch.float32, torch.float16, torch.bfloat16, torch.int64):
            t = (torch.randn(shape, device="cuda") * (100 if dt == torch.int64 else 1)).to(dt)  # float16 sums fit
            out = ops.reduce_sum(t, axis=-1)
            ref = t.double().sum(-1)
            assert isinstance(out, torch.Tensor) and out.dtype == t.sum(-1).dtype and out.shape == shape[:-1]
            rtol = {torch.float16: 2e-3, torch.bfloat16: 1e-2}.get(dt, 1e-5)
            assert torch.allclose(out.double(), ref, rtol=rtol, atol=rtol * shape[-1] ** 0.5), (shape, dt)


def test_reduce_rows_64bit_indexing():
    free, _ = cupy.cuda.runtime.memGetInfo()
    cols = (1 << 30) + 3
    if free < 2.3 * 2 * cols * 2:
        pytest.skip("not enough GPU memory")
    x = cupy.ones((2, cols), dtype=cupy.float16)  # 2^31 + 6 elements
    x[1, -1] = 5.0
    got = cupy.asnumpy(ops.reduce_sum(x, dtype="float32", axis=-1))
    # exact integers in the float64 partials, rounded once to float32
    assert got.tolist() == [float(np.float32(cols)), float(np.float32(cols + 4))]
    del x


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
