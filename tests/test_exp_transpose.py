"""The transpose experiment: kernels compile with the declared tiles, the index maths and bounds of the
kernels (simulated in NumPy) transpose any shape, declared accesses give the book's conflicts (CPU);
every variant verifies on the GPU at odd shapes (skipped without one)."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import transpose as T
from smemlab.lab.layout import flat_index

EXP = T.TransposeExperiment()
BOOK = [v for v in EXP.variants() if not v.library]  # the book's kernels (the library's is the last variant)
SM90_RESERVED = 1024  # sm_90 cubins count the block's 1 KB of system shared memory in .nv.shared.<kernel>


def test_kernels_compile_with_their_tiles():
    sizes = static_shared_bytes(compile_cubin("lab/transpose/transpose.cu", "sm_90"))
    base = sizes["transposeSmemUnrollPadDyn"]  # no static array: 0, or the reserved 1 KB
    assert base in (0, SM90_RESERVED)
    want = {"transposeSmem": 16 * 32 * 4, "transposeSmemPad": 16 * 34 * 4, "transposeSmemUnrollPad": 16 * 66 * 4,
            "transpose1": 32 * 32 * 4, "transpose1Pad": 32 * 33 * 4, "transposeSmemUnrollPadDyn": 0}
    for k, v in want.items():
        assert sizes[k] - base == v, k
    assert sizes["copyGmem"] in (0, SM90_RESERVED) and sizes["naiveGmem"] in (0, SM90_RESERVED)  # global only
    # and transpose_v4, the library's first transpose, which the truth fixture and tools/ launch themselves:
    # a 64 x 16 float4 tile
    assert sizes["transpose_v4"] - base == 64 * 16 * 16
    assert set(sizes) == {v.kernel for v in BOOK} | {"transpose_v4"}


def test_variants_and_specs_agree():
    for v in BOOK:
        s = EXP.spec(v.name)
        assert v.kernel == s.kernel and v.block == s.block and v.on_gpu
        n = s.block[0] * s.block[1]
        per_thread = s.tile[0] * s.tile[1] // n
        assert per_thread in (1, 2)
        assert sum(a.op == "load" for a in v.smem) == sum(a.op == "store" for a in v.smem) == (per_thread if v.smem else 0)
    assert EXP.spec("transposeSmemUnrollPadDyn").dynamic_bytes == 16 * 66 * 4


def _wavefronts(expr, shape, block):
    bx, by, _ = block
    t = np.arange(bx * by)
    flat = flat_index(expr, shape, {"tx": t % bx, "ty": t // bx, "lane": t % 32, "warp": t // 32})
    return max(np.bincount(np.unique(flat[w:w + 32]) % 32, minlength=32).max() for w in range(0, t.size, 32))


@pytest.mark.parametrize("name, load", [("transposeSmem", 16), ("transposeSmemPad", 1), ("transposeSmemUnrollPad", 1),
                                        ("transposeSmemUnrollPadDyn", 1), ("transpose1", 32), ("transpose1Pad", 1)])
def test_declared_accesses_give_the_books_conflicts(name, load):
    v = next(v for v in EXP.variants() if v.name == name)
    for a in v.smem:
        assert _wavefronts(a.expr, a.shape, v.block) == (load if a.op == "load" else 1), a.label


def test_declarations_parse_in_the_bank_models_language():
    expr = pytest.importorskip("smemlab.banks.expr", reason="smemlab.banks not written yet")
    for v in EXP.variants():
        for a in v.smem:
            expr.parse_access(a.expr)


def test_bank_model_predicts_what_the_declarations_mean():
    banks = pytest.importorskip("smemlab.banks", reason="smemlab.banks not written yet")
    if not hasattr(banks, "analyze"):
        pytest.skip("smemlab.banks.analyze not written yet")
    for v in EXP.variants():
        for a in v.smem:
            r = banks.analyze(a.expr, a.shape, a.dtype, v.block, op=a.op, active=a.active)
            assert r.wavefronts_per_request == pytest.approx(_wavefronts(a.expr, a.shape, v.block)), (v.name, a.label)


# -- the kernels' index maths, line by line in NumPy, over every thread of every block ---------------
def simulate(name, a):
    """Run the kernel `name` of transpose.cu on the host: every block, every thread, the same index
    maths and bounds checks; unwritten elements stay NaN."""
    rows, cols = a.shape
    s = EXP.spec(name)
    bx_, by_, _ = s.block
    gx, gy, _ = T.grid_of(s, rows, cols)
    out = np.full((rows, cols) if not s.transposes else (cols, rows), np.nan, np.float32)
    B = np.arange(gx * gy)
    bidx_x, bidx_y = (B % gx)[:, None], (B // gx)[:, None]
    t = np.arange(bx_ * by_)[None, :]
    tx, ty = t % bx_, t // bx_
    if name in ("copyGmem", "naiveGmem"):
        col, row = bidx_x * bx_ + tx, bidx_y * by_ + ty
        ok = (row < rows) & (col < cols)
        r, c = np.broadcast_arrays(row, col)
        if name == "copyGmem":
            out[r[ok], c[ok]] = a[r[ok], c[ok]]
        else:
            out[c[ok], r[ok]] = a[r[ok], c[ok]]
        return out
    if name.startswith("transpose1"):  # tile S[TILE][TILE(+1)] per block
        bx, by = bidx_x * T.TILE, bidx_y * T.TILE
        S = np.full((B.size, T.TILE, T.TILE), np.nan, np.float32)
        nx1, ny1 = bx + tx, by + ty
        ok = np.broadcast_to((nx1 < cols) & (ny1 < rows), (B.size, t.size))
        bb = np.broadcast_to(B[:, None], ok.shape)
        S[bb[ok], np.broadcast_to(ty, ok.shape)[ok], np.broadcast_to(tx, ok.shape)[ok]] = a[
            np.broadcast_to(ny1, ok.shape)[ok], np.broadcast_to(nx1, ok.shape)[ok]]
        nx2, ny2 = bx + ty, by + tx
        ok = np.broadcast_to((nx2 < cols) & (ny2 < rows), ok.shape)
        out[np.broadcast_to(nx2, ok.shape)[ok], np.broadcast_to(ny2, ok.shape)[ok]] = S[
            bb[ok], np.broadcast_to(tx, ok.shape)[ok], np.broadcast_to(ty, ok.shape)[ok]]
        return out
    u = 2 if "Unroll" in name else 1  # elements a thread, BDIMX apart
    tile = np.full((B.size, T.BDIMY, T.BDIMX * u), np.nan, np.float32)
    bb = np.broadcast_to(B[:, None], (B.size, t.size))
    row = np.broadcast_to(bidx_y * T.BDIMY + ty, bb.shape)
    for k in range(u):
        col = np.broadcast_to(u * bidx_x * T.BDIMX + tx + k * T.BDIMX, bb.shape)
        ok = (row < rows) & (col < cols)
        tile[bb[ok], np.broadcast_to(ty, bb.shape)[ok], np.broadcast_to(tx + k * T.BDIMX, bb.shape)[ok]] = a[row[ok], col[ok]]
    bidx = ty * T.BDIMX + tx
    irow, icol = bidx // T.BDIMY, bidx % T.BDIMY
    col = np.broadcast_to(bidx_y * T.BDIMY + icol, bb.shape)
    for k in range(u):
        row = np.broadcast_to(u * bidx_x * T.BDIMX + irow + k * T.BDIMX, bb.shape)
        ok = (row < cols) & (col < rows)
        val = tile[bb[ok], np.broadcast_to(icol, bb.shape)[ok], np.broadcast_to(irow + k * T.BDIMX, bb.shape)[ok]]
        assert not np.isnan(val).any(), "a thread reads a tile element nobody wrote"
        out[row[ok], col[ok]] = val
    return out


@pytest.mark.parametrize("shape", T.TransposeExperiment.small_sizes + ((64, 64), (31, 95)))
@pytest.mark.parametrize("name", [n for n in T._SPECS])
def test_kernel_index_maths_transposes_any_shape(name, shape):
    a = T.make_input(*shape)
    want = a if name == "copyGmem" else a.T
    assert np.array_equal(simulate(name, a), want)


def test_input_is_seeded_without_zeros():
    a = T.make_input(40, 30)
    assert np.array_equal(a, T.make_input(40, 30)) and np.all(a >= 1) and np.unique(a).size > 1000


@pytest.mark.parametrize("bad", [[0], [0, 5], [5, -1], [T.MAX_ROWS + 1, 1], [1 << 20, 1 << 20], [1, 2, 3], []])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        EXP.parse_size(bad)


def test_parse_size_accepts():
    assert EXP.parse_size([100]) == (100, 100)
    for s in EXP.small_sizes + (EXP.default_size,):
        assert EXP.parse_size(s) == s


def test_notes_fill_the_copy_column():
    from smemlab.records import VariantRecord

    recs = [VariantRecord(variant=n, summary="", ok=True, median_ms=t) for n, t in
            [("copyGmem", 1.0), ("naiveGmem", 4.0), ("transposeSmem", 2.0), ("transposeSmemPad", 1.25)]]
    lines = EXP.notes(recs)
    assert recs[1].extra[T.COL_PCT_COPYGMEM] == pytest.approx(25.0)
    assert any("transposeSmemPad" in ln and "80%" in ln for ln in lines)
    assert any("naiveGmem" in ln and "25%" in ln for ln in lines)


# -- GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("size", T.TransposeExperiment.small_sizes)
def test_every_variant_verifies_on_the_gpu(rt, run_case, size):
    for case in EXP.cases(rt, size, EXP.variants()):
        run_case(case, times=2, verify=True)
