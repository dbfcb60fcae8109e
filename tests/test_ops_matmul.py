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


# ---- transposed operands (layouts), no GPU ----------------------------------------------------------------
class _CAI:
    """A device array as __cuda_array_interface__ shows it (strides in bytes): metadata only."""

    def __init__(self, shape, strides=None):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": "<f4", "strides": strides,
                                         "data": (0x7F0000000000, False), "version": 3}


def _col(rows, cols):  # the transpose of a contiguous cols x rows array
    return _CAI((rows, cols), (4, 4 * rows))


def _read(x, name="a"):
    from smemlab.ops._args import read

    return read(x, name, MM.DTYPES, (2,), allow_empty=True)


def test_layout_kernels_and_plans():
    assert [MM.kernel_name("async", lay) for lay in MM.LAYOUTS] == ["mm_async", "mm_async_tn", "mm_async_nt", "mm_async_tt"]
    with pytest.raises(ValueError, match="only tiled, warptile_db16, async"):
        MM.kernel_name("pack", "tn")
    with pytest.raises(ValueError, match="layout"):
        MM.kernel_name("tiled", "tx")
    for lay in MM.LAYOUTS:  # the layout changes the kernel and its stages, never the tiles or the splits
        for shape in ((256, 256, 256), (1024, 1024, 1024), (4096, 4096, 4096), (1000, 999, 1)):
            p, q = MM.plan(*shape, 132), MM.plan(*shape, 132, layout=lay)
            assert (q.variant, q.grid, q.threads, q.splits) == (p.variant, p.grid, p.threads, p.splits)
            assert q.kernel == MM.kernel_name(p.variant, lay)
    assert MM.plan(4096, 4096, 4096, 132, layout="tt").kernel == "mm_warptile_db16_tt"
    # async's 3 stages of BK = 16: rows of 128 floats where an operand is stored K-major, 132 where stored transposed
    assert [MM.dynamic_smem("async", lay) for lay in MM.LAYOUTS] == [3 * 16 * f * 4 for f in (132 + 128, 256, 264, 260)]
    assert MM.plan(1024, 1024, 1024, 132, layout="nt").smem == 3 * 16 * 264 * 4
    assert MM.plan(4096, 4096, 4096, 132, layout="tt").smem == 0  # warptile_db16: static
    with pytest.raises(ValueError, match="only"):
        MM.plan(64, 64, 64, 132, "vectorized", layout="nt")


def test_kernel_args_flags_follow_the_stored_rows():
    # M = 8, N = 6, K = 12: A's stored rows are K = 12 floats (M = 8 transposed), B's N = 6 (K = 12 transposed)
    flags = {lay: MM.kernel_args(16, 32, 48, 8, 6, 12, "tiled", layout=lay)[6:9] for lay in MM.LAYOUTS}
    assert flags == {"nn": (1, 0, 0), "tn": (1, 0, 0), "nt": (1, 1, 0), "tt": (1, 1, 0)}
    assert MM.kernel_args(16, 32, 48, 6, 8, 12, "tiled", layout="tn")[6:9] == (0, 1, 1)  # A^T rows of M = 6
    assert MM.kernel_args(20, 32, 48, 8, 8, 12, "async", 64, 80, layout="tt")[6:] == (0, 1, 1, 64, 80)


def test_column_major_operands_are_read_in_place():
    a, b = _read(_col(300, 200)), _read(_col(200, 100), "b")  # A^T and B^T as stored contiguous arrays
    assert a.strided and b.strided
    assert MM.read_layout(a, b, None) == "tt" and not a.strided and not b.strided  # no copy to come
    row = _CAI((200, 100))
    assert MM.read_layout(_read(_col(300, 200)), _read(row, "b"), None) == "tn"
    assert MM.read_layout(_read(_CAI((300, 200))), _read(_col(200, 100), "b"), "async") == "nt"


def test_other_strided_views_are_still_copied():
    # every other column (strides 8 bytes along a row): neither layout, so `resolve` copies it
    sliced = _read(_CAI((300, 200), (1600, 8)))
    assert MM.read_layout(sliced, _read(_CAI((200, 100)), "b"), None) == "nn" and sliced.strided
    # a column-major view with a padded leading dimension (a slice of a bigger transposed array)
    padded = _read(_CAI((300, 200), (4, 4 * 304)))
    assert MM.read_layout(padded, _read(_CAI((200, 100)), "b"), None) == "nn" and padded.strided
    # a variant with no kernel for transposed operands: the view is copied, as before
    a = _read(_col(300, 200))
    assert MM.read_layout(a, _read(_CAI((200, 100)), "b"), "pack") == "nn" and a.strided


def test_torch_transposed_views_by_their_strides():
    torch = pytest.importorskip("torch")
    from smemlab.ops._args import GpuArray, column_major

    def view(t):  # what `read` makes of a CUDA tensor, from a CPU one's metadata
        return GpuArray(t, "torch", 0, tuple(t.shape), np.dtype(np.float32), 0, strided=not t.is_contiguous())

    w = torch.empty(512, 1024)
    assert column_major(view(w.t())) and not column_major(view(w))  # contiguous: nothing to do
    col = view(torch.empty(1, 1024).t())  # (1024, 1): row-major too, so never strided: read as it is
    assert not col.strided and not column_major(col)
    assert not column_major(view(w[:, ::2].t())) and not column_major(view(w[:, :1000].t()))
    assert column_major(view(w[:100].t()))  # rows of w: a dense column-major block


def test_kernels_compile_for_sm90():
    pytest.importorskip("cuda.core")
    from smemlab.compiler import compile_package
    from smemlab.cubin import static_shared_bytes

    compiled = compile_package(MM.SOURCE, "sm_90", None, tuple(MM.KERNELS.values()))
    kernels = static_shared_bytes(compiled.cubin)
    assert {f"mm_{v}" for v in MM.VARIANTS} <= set(kernels)
    # every layout's kernel: the extern "C" kernel (nn) or the template instance KERNELS names
    symbols = {compiled.lowered.get(MM.KERNELS.get(n, n), n) for n in
               (MM.kernel_name(v, lay) for v in MM.IN_PLACE for lay in MM.LAYOUTS)}
    assert len(symbols) == 12 and symbols <= set(kernels)
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


# ---- transposed operands, read in place (GPU) -------------------------------------------------------------
def _operands(torch, m, n, k, layout, seed):
    """a (M, K) and b (K, N) as torch tensors stored as `layout` says (t: the transposed view of a
    contiguous array, as `w.t()` is), with their float64 values."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand((k, m) if layout[0] == "t" else (m, k), device="cuda", generator=g) * 2 - 1
    b = torch.rand((n, k) if layout[1] == "t" else (k, n), device="cuda", generator=g) * 2 - 1
    a, b = (a.t() if layout[0] == "t" else a), (b.t() if layout[1] == "t" else b)
    return a, b


def _no_copy(monkeypatch):
    from smemlab.ops import _args

    def refuse(self):
        raise AssertionError("a transposed operand was copied")

    monkeypatch.setattr(_args.GpuArray, "_contiguous", refuse)


def _check_torch(a, b, c):
    ref = a.double() @ b.double()
    err = float((c.double() - ref).norm() / ref.norm())
    assert c.shape == ref.shape and err < 1e-5, err


@gpu
@pytest.mark.parametrize("layout", ["nn", "tn", "nt", "tt"])
@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1000), (1024, 1024, 1024), (4097, 4095, 4093), (1000, 999, 1),
                                   (1, 7, 3), (33, 65, 17), (130, 260, 68)])
def test_transposed_operands_read_in_place(layout, m, n, k, monkeypatch):
    torch = pytest.importorskip("torch")
    a, b = _operands(torch, m, n, k, layout, m + n + k)
    _no_copy(monkeypatch)
    _check_torch(a, b, MM.matmul(a, b))


@gpu
@pytest.mark.parametrize("layout", ["tn", "nt", "tt"])
@pytest.mark.parametrize("variant,splits", [("tiled", None), ("warptile_db16", None), ("async", 1), ("async", 3)])
@pytest.mark.parametrize("m,n,k", [(257, 383, 191), (130, 260, 68), (128, 128, 4096), (17, 33, 5)])
def test_every_layout_kernel(layout, variant, splits, m, n, k, monkeypatch):
    """Each kernel of a layout at ragged shapes (guarded loads, the 4-byte paths where a stored row is not
    16-byte aligned) and in split-K."""
    torch = pytest.importorskip("torch")
    a, b = _operands(torch, m, n, k, layout, 3 * m + k)
    _no_copy(monkeypatch)
    c = MM.matmul(a, b, variant=variant, splits=splits)
    assert not bool(torch.isnan(c).any())
    _check_torch(a, b, c)


@gpu
def test_cupy_f_ordered_operands_and_other_views():
    import cupy as cp

    rs = cp.random.RandomState(5)
    a = cp.asfortranarray(rs.uniform(-1, 1, (300, 200), dtype=cp.float32))
    b = rs.uniform(-1, 1, (100, 200), dtype=cp.float32).T  # F-ordered too
    _check(cp.asnumpy(a), cp.asnumpy(b), cp.asnumpy(MM.matmul(a, b)))
    wide = rs.uniform(-1, 1, (200, 300), dtype=cp.float32)
    for view in (wide[:, ::3], wide[:, :100], wide.T[:100, :]):  # none dense column-major: copied, as before
        _check(cp.asnumpy(view.T), cp.asnumpy(view), cp.asnumpy(MM.matmul(view.T, view)))
    _check(cp.asnumpy(a), cp.asnumpy(a.T), cp.asnumpy(MM.matmul(a, a.T, variant="pack")))  # pack copies


@gpu
def test_backward_passes_transposed_views_in_place(monkeypatch):
    torch = pytest.importorskip("torch")
    from smemlab import ops

    x = (torch.rand(513, 1024, device="cuda") - 0.5).requires_grad_()
    w = (torch.rand(768, 1024, device="cuda") - 0.5).requires_grad_()  # nn.Linear's (out, in)
    g = torch.rand(513, 768, device="cuda") - 0.5
    _no_copy(monkeypatch)
    y = ops.matmul(x, w.t())
    gx, gw = torch.autograd.grad(y, (x, w), g)
    _check_torch(x, w.t(), y.detach())
    _check_torch(g, w, gx)          # dX = G @ (W^T)^T
    _check_torch(g.t(), x, gw)      # dW = (X^T @ G)^T = G^T @ X
