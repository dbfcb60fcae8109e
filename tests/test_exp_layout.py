"""The layout experiment: kernels compile, tiles have the declared size, the expected permutations and
the declared accesses agree with the seeds (CPU); every variant verifies on the GPU (skipped without one)."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab.layout import (DEFAULT_PASSES, MAX_PASSES, RECT, RECT_PAD1, SQUARE, LayoutExperiment,
                                       expected_output, flat_index, permutation)

EXP = LayoutExperiment()
DEFINE_SETS = [SQUARE, RECT, RECT_PAD1]
SM90_RESERVED = 1024  # sm_90 cubins count the block's 1 KB of system shared memory in .nv.shared.<kernel>


def _user_static(cubin: bytes) -> dict[str, int]:
    """Static shared bytes the source declares: relative to setRowReadColDyn, which declares none, so
    the test holds whether or not cubin.static_shared_bytes counts the reserved 1 KB."""
    sizes = static_shared_bytes(cubin)
    base = sizes["setRowReadColDyn"]
    assert base in (0, SM90_RESERVED)
    return {k: v - base for k, v in sizes.items()}


@pytest.mark.parametrize("defines", DEFINE_SETS, ids=lambda d: f"{d['BDIMX']}x{d['BDIMY']}pad{d['IPAD']}")
def test_kernels_compile_and_declare_their_tiles(defines):
    cubin = compile_cubin("lab/layout/layout.cu", "sm_90", defines)
    bx, by, pad = defines["BDIMX"], defines["BDIMY"], defines["IPAD"]
    tile = bx * by * 4
    want = {
        "setRowReadRow": tile, "setRowReadRow2": tile, "setColReadCol": tile, "setColReadCol2": tile,
        "setColReadRow": tile, "setRowReadCol": tile, "setRowReadColDyn": 0, "setRowReadColDynPad": 0,
        "setRowReadColPad": by * (bx + pad) * 4,
    }
    got = _user_static(cubin)
    assert got == want
    raw = static_shared_bytes(cubin)
    for k, v in want.items():
        assert raw[k] in (v, v + SM90_RESERVED)


def test_padded_square_tile_is_4224_bytes():
    assert _user_static(compile_cubin("lab/layout/layout.cu", "sm_90", SQUARE))["setRowReadColPad"] == 32 * 33 * 4 == 4224


def test_every_variant_names_a_kernel_of_its_cubin_and_a_tile_that_fits():
    for v in EXP.variants():
        spec = EXP.spec(v.name)
        assert v.kernel in static_shared_bytes(compile_cubin("lab/layout/layout.cu", "sm_90", spec.defines)), v.name
        assert v.block == (spec.defines["BDIMX"], spec.defines["BDIMY"], 1)
        assert [a.op for a in v.smem] == ["store", "load"]
        for a in v.smem:
            assert a.shape == spec.shape and a.dtype == "int" and a.per_warp == 1


def test_names_are_unique_and_seed_kernels_all_present():
    names = [v.name for v in EXP.variants()]
    assert len(names) == len(set(names)) == 18
    for k in ("setRowReadRow", "setColReadCol", "setColReadRow", "setRowReadCol", "setRowReadColDyn",
              "setRowReadColPad", "setRowReadColDynPad"):
        assert k in names and f"{k}_rect" in names
    assert {"setRowReadRow2_rect", "setColReadCol2_rect", "setRowReadColPad1_rect", "setRowReadColDynPad1_rect"} <= set(names)


def _grid_t(bx, by):
    return np.arange(bx * by).reshape(by, bx)  # [ty][tx] -> idx


def test_permutations_match_the_seeds():
    sq = _grid_t(32, 32)
    identity = np.arange(1024)
    transpose = sq.T.ravel()  # out[ty*32+tx] = tx*32+ty
    for name in ("setRowReadRow", "setColReadCol"):
        assert np.array_equal(permutation(EXP.spec(name)), identity)
    for name in ("setRowReadCol", "setRowReadColDyn", "setRowReadColPad", "setRowReadColDynPad", "setColReadRow"):
        assert np.array_equal(permutation(EXP.spec(name)), transpose), name
    # 32x16: out[idx] = icol * 32 + irow with irow = idx / 16, icol = idx % 16 (seed 002)
    idx = np.arange(512)
    rowcol = (idx % 16) * 32 + idx // 16
    for name in ("setRowReadCol_rect", "setRowReadColDyn_rect", "setRowReadColPad_rect", "setRowReadColDynPad_rect",
                 "setRowReadColPad1_rect", "setRowReadColDynPad1_rect"):
        assert np.array_equal(permutation(EXP.spec(name)), rowcol), name
    for name in ("setRowReadRow_rect", "setRowReadRow2_rect", "setColReadCol_rect", "setColReadCol2_rect"):
        assert np.array_equal(permutation(EXP.spec(name)), np.arange(512)), name
    # write columns, read rows: the inverse permutation of setRowReadCol
    colrow = permutation(EXP.spec("setColReadRow_rect"))
    assert np.array_equal(colrow[rowcol], idx)


def _wavefronts(expr, shape, block, active=None):
    """A minimal 4-byte bank model: per warp, the most distinct words any one bank must serve."""
    bx, by, _ = block
    t = np.arange(bx * by)
    env = {"tx": t % bx, "ty": t // bx, "lane": t % 32, "warp": t // 32}
    on = np.ones(t.size, bool) if active is None else np.broadcast_to(eval(active, {"__builtins__": {}}, env), t.shape)
    flat = flat_index(expr, shape, env, on)
    per_warp = []
    for w in range(t.size // 32):
        sel = slice(32 * w, 32 * w + 32)
        words = np.unique(flat[sel][on[sel]])
        if words.size:
            per_warp.append(np.bincount(words % 32, minlength=32).max())
    return sum(per_warp) / len(per_warp)


@pytest.mark.parametrize("name, store, load", [
    ("setRowReadRow", 1, 1), ("setColReadCol", 32, 32), ("setColReadRow", 32, 1), ("setRowReadCol", 1, 32),
    ("setRowReadColDyn", 1, 32), ("setRowReadColPad", 1, 1), ("setRowReadColDynPad", 1, 1),
    ("setRowReadRow_rect", 1, 1), ("setRowReadRow2_rect", 1, 1), ("setColReadCol_rect", 16, 16),
    ("setColReadCol2_rect", 16, 16), ("setColReadRow_rect", 16, 1), ("setRowReadCol_rect", 1, 16),
    ("setRowReadColDyn_rect", 1, 16), ("setRowReadColPad_rect", 1, 1), ("setRowReadColDynPad_rect", 1, 1),
    ("setRowReadColPad1_rect", 1, 2), ("setRowReadColDynPad1_rect", 1, 2),
])
def test_declared_accesses_give_the_books_conflicts(name, store, load):
    v = next(v for v in EXP.variants() if v.name == name)
    got = {a.op: _wavefronts(a.expr, a.shape, v.block, a.active) for a in v.smem}
    assert got == {"store": store, "load": load}


def test_declarations_parse_in_the_bank_models_language():
    expr = pytest.importorskip("smemlab.banks.expr", reason="smemlab.banks not written yet")
    for v in EXP.variants():
        for a in v.smem:
            assert expr.parse_access(a.expr).array == "tile"
            if a.active:
                expr.parse_condition(a.active)


def test_bank_model_agrees_where_it_exists():
    banks = pytest.importorskip("smemlab.banks", reason="smemlab.banks not written yet")
    if not hasattr(banks, "analyze"):
        pytest.skip("smemlab.banks.analyze not written yet")
    for v in EXP.variants():
        for a in v.smem:
            r = banks.analyze(a.expr, a.shape, a.dtype, v.block, op=a.op, active=a.active)
            assert r.wavefronts_per_request == pytest.approx(_wavefronts(a.expr, a.shape, v.block, a.active)), (v.name, a.label)


@pytest.mark.parametrize("bad", [[0], [-3], [(1 << 20) + 1], [1, 0], [1, MAX_PASSES + 1], [1, 2, 3], []])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        EXP.parse_size(bad)


def test_parse_size_accepts():
    assert EXP.parse_size([1]) == (1, DEFAULT_PASSES)
    assert EXP.parse_size([1, 1]) == (1, 1)  # the book's launch: one block, one pass
    assert EXP.parse_size(EXP.default_size) == EXP.default_size
    for s in EXP.small_sizes:
        assert EXP.parse_size(s) == s
    assert EXP.small_sizes[0][1] >= 2  # the sanitizer's size: racecheck sees the barrier between passes


def _run_on_the_host(spec, blocks, passes):
    """The kernel pass by pass in NumPy, as the GPU runs it: store base + idx + p, then everyone reads
    and adds, in unsigned 32-bit arithmetic."""
    bx, by, _ = spec.block
    ty, tx = np.divmod(np.arange(bx * by, dtype=np.int64), bx)
    env = {"tx": tx, "ty": ty}
    stores, loads = flat_index(spec.store, spec.shape, env), flat_index(spec.load, spec.shape, env)
    out = []
    for b in range(blocks):
        tile = np.zeros(int(np.prod(spec.shape)), dtype=np.uint32)
        acc = np.zeros(bx * by, dtype=np.uint32)
        for p in range(passes):
            tile[stores] = (b * bx * by + ty * bx + tx + p).astype(np.uint32)
            acc += tile[loads]
        out.append(acc.view(np.int32))
    return np.concatenate(out)


@pytest.mark.parametrize("name", ["setRowReadRow", "setRowReadCol", "setColReadRow_rect", "setRowReadColDynPad1_rect"])
@pytest.mark.parametrize("blocks, passes", [(1, 1), (3, 2), (2, 7)])
def test_expected_output_is_the_sum_of_every_pass(name, blocks, passes):
    spec = EXP.spec(name)
    assert np.array_equal(expected_output(spec, blocks, passes), _run_on_the_host(spec, blocks, passes))


def test_the_sum_still_tells_the_layouts_apart():
    """Summed over the default passes (modulo 2^32), a kernel that read rows where it should read
    columns, or another block's tile, gives other sums."""
    for blocks in (1, 4096):
        a = expected_output(EXP.spec("setRowReadRow"), blocks, DEFAULT_PASSES)
        b = expected_output(EXP.spec("setRowReadCol"), blocks, DEFAULT_PASSES)
        moved = expected_output(EXP.spec("setRowReadRow"), blocks + 1, DEFAULT_PASSES)[1024:]
        assert np.unique(a).size == a.size and (a != b).sum() == a.size - 32 * blocks  # the diagonal is the same
        assert not np.intersect1d(moved[-1024:], a[:1024]).size


def test_notes_come_from_the_records():
    from smemlab.records import VariantRecord

    recs = [VariantRecord(variant=n, summary="", ok=True, median_ms=t) for n, t in
            [("setRowReadRow", 1.0), ("setColReadCol", 3.0), ("setRowReadCol", 2.0), ("setRowReadColPad", 1.0),
             ("setRowReadColDyn", 2.2)]]
    lines = EXP.notes(recs)
    assert any("3.00x" in ln and "setColReadCol" in ln for ln in lines)
    assert any("2.00x" in ln and "padding" in ln for ln in lines)
    assert EXP.notes([]) == []


# -- GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("size", LayoutExperiment.small_sizes)
def test_every_variant_verifies_on_the_gpu(rt, run_case, size):
    for case in EXP.cases(rt, size, EXP.variants()):
        run_case(case, times=2, verify=True)
