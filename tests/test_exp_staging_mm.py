"""overlap, fourth part: the tiled matmul staged into shared memory (plain, cp.async, TMA). Its side and
items, its static tiles, one block emulated on the CPU by `smemlab analyze` (cp.async and the bulk
copies with their mbarriers included), its notes; every variant verified on the GPU at odd sides.
(Its declared bank accesses are checked against analyze with every other declaration, in
tests/test_analyze_declarations.py.)"""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.overlap import staging_mm
from smemlab.records import VariantRecord


def test_side_is_the_root_down_to_a_multiple_of_four_and_capped():
    assert staging_mm.side_for(1 << 28) == staging_mm.MAX_SIDE == 2048
    assert staging_mm.side_for(100003) == 316  # isqrt 316
    assert staging_mm.side_for(1050) == 32  # isqrt 32
    assert staging_mm.side_for(1300) == 36  # isqrt 36
    assert staging_mm.side_for(1400) == 36  # isqrt 37
    for n in (1024, 4096, 1 << 20, 1 << 30):
        assert staging_mm.check_side(staging_mm.side_for(n)) == staging_mm.side_for(n)


@pytest.mark.parametrize("bad", [0, 2, 6, 77, -4])
def test_side_not_a_positive_multiple_of_four_is_refused(bad):
    with pytest.raises(UserError, match="multiple of 4"):
        staging_mm.check_side(bad)


@pytest.mark.parametrize("side, grid", [(128, 2), (2048, 132), (316, 7), (32, 1), (64, 3)])
def test_the_blocks_items_cover_every_square_and_k_tile_once(side, grid):
    squares, ktiles = (-(-side // 64)) ** 2, -(-side // 16)
    counts = [staging_mm.items(side, grid, b) for b in range(grid)]
    assert sum(counts) == squares * ktiles
    assert max(counts) - min(counts) <= ktiles  # squares dealt round the blocks
    assert all(c % ktiles == 0 for c in counts)


def test_compiles_with_one_pair_of_tiles_per_stage():
    smem = static_shared_bytes(compile_cubin("lab/overlap/overlap.cu", "sm_90"))
    pair = 4 * 2 * staging_mm.TILE * staging_mm.BK
    assert smem["mmStagedPlain"] == pair
    for s in staging_mm.STAGES:
        assert smem[f"mmStagedCpAsync{s}"] == s * pair
        assert smem[f"mmStagedTma{s}"] >= s * pair + 8 * s  # and an mbarrier a stage
    assert max(smem[n] for n in staging_mm.METHODS) <= 48 * 1024  # static: at most 48 KiB a block


def test_variants_are_grouped_profiled_and_name_their_kernels():
    vs = [v for v in get("overlap").variants() if v.name in staging_mm.METHODS]
    assert [v.name for v in vs] == list(staging_mm.METHODS)  # together, in the order of the methods
    assert all(v.kernel == v.name and v.profiled and v.block == (staging_mm.THREADS, 1, 1) for v in vs)
    stores = {v.name: [a for a in v.smem if a.op == "store"] for v in vs}
    assert len(stores["mmStagedPlain"]) == 2 and not stores["mmStagedCpAsync2"] and not stores["mmStagedTma3"]


@pytest.mark.parametrize("name", list(staging_mm.METHODS))
def test_staged_block_computes_the_product_on_the_cpu(name):
    """analyze emulates block 0 of a grid of 2 over four 64x64 squares of a 128x128 product: block 0
    computes squares 0 and 2 (its stages wrap round within and across them)."""
    from smemlab.analyze.args import fill, parse_arg
    from smemlab.lab.launches import for_experiment

    launch = next(x for x in for_experiment("overlap") if x.variant == name)
    r = launch.analyze()
    args = launch.args()
    side = int(launch.values[-1])
    a, b = (fill(n, parse_arg(t)[1]).astype(np.float64).reshape(side, side) for n, t in zip("ab", args))
    want = a @ b
    got = r.buffers["c"].reshape(side, side)
    t = staging_mm.TILE
    for row in (0, t):  # squares 0 and 2: the left column of squares
        assert np.allclose(got[row:row + t, :t], want[row:row + t, :t], rtol=1e-5, atol=1e-4), (name, row)


def _rec(name, tflops, per_sm):
    from smemlab.lab.overlap.staging import METHODS as STENCIL_METHODS

    method, stages, width = {**STENCIL_METHODS, **staging_mm.METHODS}[name]
    r = VariantRecord(name, "", True, median_ms=1.0, extra={"method": method, "stages": stages, "width": width,
                                                            "blocks_per_sm": per_sm, "part": "matmul", "side": 2048})
    r.gflops = tflops * 1e3
    r.gbps = 50.0
    return r


def test_notes_compare_the_methods_in_tflops_and_say_when_they_pay():
    recs = [_rec("mmStagedPlain", 10.0, 1), _rec("mmStagedCpAsync1", 9.0, 1), _rec("mmStagedCpAsync3", 14.0, 1),
            _rec("mmStagedTma2", 12.5, 1), _rec("mmStagedPlain", 20.0, 4), _rec("mmStagedCpAsync2", 20.4, 4),
            _rec("stagedPlain", 99.0, 1)]  # a stencil's record: not the matmul's
    notes = staging_mm.mm_notes(recs)
    assert notes[0] == ("tiled matmul 2048x2048, 1 block per SM (8 warps): plain loads 10.00 TFLOP/s (16 B a thread); "
                        "cp.async best at 3 stages, 14.00 TFLOP/s, 1.40x the better plain loads (TFLOP/s by stages: "
                        "1: 9.00, 3: 14.00); TMA best at 2 stages, 12.50 TFLOP/s, 1.25x the better plain loads "
                        "(TFLOP/s by stages: 2: 12.50)")
    assert notes[1].startswith("tiled matmul 2048x2048, 4 blocks per SM (32 warps): plain loads 20.00 TFLOP/s")
    assert ("at 1 block per SM (8 warps) they pay: 1.40x (mmStagedCpAsync3 against mmStagedPlain); at 4 blocks per SM "
            "(32 warps) they do not pay: 1.02x (mmStagedCpAsync2 against mmStagedPlain)") in notes[2]
    assert staging_mm.mm_notes([]) == []
    assert any(n.startswith("tiled matmul") for n in get("overlap").notes(recs))


def test_chart_draws_the_matmul_panel_apart_from_the_stencils(tmp_path, monkeypatch):
    from smemlab.render import overlap_charts

    panels = []
    original = overlap_charts._staging_panel
    monkeypatch.setattr(overlap_charts, "_staging_panel", lambda ax, recs, value, *a, **k:
                        panels.append([value(r) for r in recs]) or original(ax, recs, value, *a, **k))
    stencil = VariantRecord("stagedPlain", "", True, median_ms=1.0, extra={"method": "plain", "blocks_per_sm": 1})
    stencil.gbps = 3000.0
    recs = [stencil, _rec("mmStagedPlain", 10.0, 1), _rec("mmStagedTma4", 12.0, 6)]
    assert overlap_charts.overlap_chart(recs, tmp_path / "o.png", 4000.0)
    assert panels == [[3000.0], [10.0, 12.0]]
    assert (tmp_path / "o.png").stat().st_size > 10000


# ---- on the GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("side", [4, 20, 68, 132, 316])
def test_every_variant_verifies_at_odd_sides(rt, run_case, side):
    """Sides that end in part-squares and part-K tiles (and one smaller than a K tile), at both grids."""
    seen = set()
    for case in staging_mm.side_cases(rt, side, staging_mm.variants()):
        verdict = run_case(case, times=2)
        assert verdict.ok, f"{case.variant.name} {case.extra.get('case')}: {verdict.detail}"
        seen.add(case.variant.name)
    assert seen == set(staging_mm.METHODS)


@pytest.mark.gpu
def test_a_wrong_side_is_refused_before_anything_runs(rt):
    with pytest.raises(UserError):
        next(staging_mm.side_cases(rt, 30, staging_mm.variants()))
