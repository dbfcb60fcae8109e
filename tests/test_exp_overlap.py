"""overlap: the host link's sizes, the pipeline's reference and chunks, the staged stencils (emulated
on the CPU by `smemlab analyze`, cp.async and TMA included), the notes and charts from records; every
case on the GPU."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.overlap import hostlink, pipeline, staging, staging_mm
from smemlab.lab.stencil import BOOK_COEF
from smemlab.lab.stencil import reference as stencil_reference
from smemlab.records import VariantRecord


def test_sweep_goes_by_four_and_ends_at_the_buffer():
    assert hostlink.sweep_sizes(1 << 30) == [4096 * 4 ** k for k in range(10)]
    assert hostlink.sweep_sizes(400012) == [4096, 16384, 65536, 262144, 400012]
    assert hostlink.sweep_sizes(4096) == [4096]


def test_pieces_and_sizes():
    assert hostlink.pieces_for(1 << 30) == 10_000
    assert hostlink.pieces_for(400012) == 97
    assert hostlink.size_text(4096) == "4 KiB" and hostlink.size_text(1 << 30) == "1 GiB"
    assert hostlink.size_text(400012) == "390.6 KiB"


def test_saturation_is_the_smallest_size_near_the_best():
    points = [(4096, 1.0), (65536, 10.0), (1 << 20, 46.0), (1 << 24, 50.0), (1 << 28, 49.0)]
    assert hostlink.saturation(points) == (1 << 20, 46.0)
    assert hostlink.saturation(points, share=0.99) == (1 << 24, 50.0)
    assert hostlink.saturation([]) is None


def test_pipeline_reference_is_the_recurrence():
    x = np.array([0.5, 1.0, 1.49], dtype=np.float32)
    for k in (0, 1, 7, 300):
        y = x.astype(np.float64)
        for _ in range(k):
            y = y * pipeline.A + x
        assert np.allclose(pipeline.reference(x, k), y, rtol=1e-12)


@pytest.mark.parametrize("n, chunks", [(100, 4), (101, 4), (3, 16), (1 << 20, 256), (1, 1)])
def test_chunks_cover_the_buffer_once(n, chunks):
    bounds = pipeline.chunk_bounds(n, chunks)
    assert bounds[0][0] == 0 and bounds[-1][1] == n and len(bounds) <= chunks
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    assert all(stop > start for start, stop in bounds)


def test_iterations_from_two_timings():
    # 0.1 ms fixed, 0.01 ms a step: 5 ms needs 490 steps
    assert pipeline.iterations_for(5.0, 64, 0.74, 512, 5.22) == 490
    assert pipeline.iterations_for(0.0, 64, 0.74, 512, 5.22) == 16  # never below 16
    assert pipeline.iterations_for(5.0, 64, 1.0, 512, 1.0) == 512  # no slope measured: the larger K


def test_staging_reference_is_the_stencils():
    x = np.random.default_rng(4).standard_normal(1000 + 8)
    assert np.allclose(staging.reference(x, BOOK_COEF), stencil_reference(x, BOOK_COEF))


@pytest.mark.parametrize("bad", [(0,), (1023,), (1, 2), ((1 << 30) + 1,)])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        get("overlap").parse_size(bad)


def test_compiles_with_one_stage_buffer_per_stage():
    smem = static_shared_bytes(compile_cubin("lab/overlap/overlap.cu", "sm_90"))
    span = 4 * (staging.TILE + 2 * staging.RADIUS)
    assert smem["stagedPlain"] == smem["stagedPlainV4"] == span
    for s in staging.STAGES:
        assert smem[f"stagedCpAsync{s}"] == s * span
        assert smem[f"stagedTma{s}"] >= s * span + 8 * s  # and an mbarrier a stage
    assert smem["gatherPieces"] == smem["pipelineCompute"] == 0


def test_variants_name_their_kernels_and_only_the_stencils_are_profiled():
    vs = {v.name: v for v in get("overlap").variants()}
    assert {n for n, v in vs.items() if v.profiled} == {"mappedGatherH2D", *staging.METHODS, *staging_mm.METHODS}
    assert vs["pipeline"].kernel == vs["pipelineCompute"].kernel == "pipelineCompute"
    assert all(vs[n].kernel == n for n in staging.METHODS)


@pytest.mark.parametrize("name", list(staging.METHODS))
def test_staged_block_computes_the_stencil_on_the_cpu(name):
    """analyze emulates block 0 of a grid of 2 over 3 tiles and a partial one: block 0 stages tiles
    0 and 2 (its stages wrap round), cp.async and the bulk copies with their mbarriers included."""
    from smemlab.analyze.args import fill, parse_arg
    from smemlab.lab.launches import for_experiment

    launch = next(x for x in for_experiment("overlap") if x.variant == name)
    r = launch.analyze()
    args = launch.args()
    x = fill("in", parse_arg(args[0])[1]).astype(np.float64)
    coef = fill("scoef", parse_arg(launch.extra_args[0])[1])
    want = stencil_reference(x, coef)
    got = r.buffers["out"]
    tile = staging.TILE
    for t in (0, 2):
        assert np.allclose(got[t * tile:(t + 1) * tile], want[t * tile:(t + 1) * tile], atol=1e-6), (name, t)


def test_mbarrier_completes_a_phase_on_arrivals_and_bytes_in_either_order():
    from smemlab.analyze.memops import MBarrier

    b = MBarrier(1)
    assert b.arrive(1, tx=4096) == 0 and b.phase == 0  # the bytes are still to come
    b.transact(-4096)
    assert b.phase == 1 and b.pending == 1
    b.transact(-32)  # a copy that completes before its arrival announces it
    assert b.phase == 1
    assert b.arrive(1, tx=32) == 1 and b.phase == 2


def _rec(variant, ms, **extra):
    return VariantRecord(variant, "", True, median_ms=ms, extra=dict(extra))


def _records():
    recs = [_rec("pinnedH2D", s / 50e9 * 1e3 + 0.01, bytes=s) for s in hostlink.sweep_sizes(1 << 30)]
    recs += [_rec("pageableH2D", s / 20e9 * 1e3 + 0.02, bytes=s) for s in hostlink.sweep_sizes(1 << 30)]
    # pageable memory that falls off past 16 MiB, as the H200's did
    recs += [_rec("pageableD2H", s / (15e9 if s <= 1 << 24 else 8e9) * 1e3, bytes=s) for s in hostlink.sweep_sizes(1 << 30)]
    recs += [_rec(name, ms, bytes=40960000, pieces=10000, case="10,000 x 4 KiB")
             for name, ms in (("smallCopiesH2D", 60.0), ("smallCopiesGraphH2D", 25.0), ("groupedH2D", 0.8),
                              ("mappedGatherH2D", 1.0))]
    recs += [_rec("pipelineCopyIn", 5.0, iterations=900), _rec("pipelineCompute", 11.0, iterations=900),
             _rec("pipelineCopyOut", 5.5, iterations=900)]
    for streams, ms in ((1, 21.5), (4, 11.4)):
        timeline = [[c % streams, step, c + i, c + i + 0.9] for c in range(4) for i, step in enumerate(("H2D", "kernel", "D2H"))]
        recs.append(_rec("pipeline", ms, streams=streams, chunks=4, chunk_bytes=1 << 26, iterations=900,
                         case=f"{streams} streams, 4 chunks of 64 MiB", timeline=timeline))
    for name, gbps in (("stagedPlain", 1000.0), ("stagedCpAsync3", 2500.0), ("stagedTma4", 2800.0)):
        method, stages, width = staging.METHODS[name]
        r = _rec(name, 1.0, method=method, stages=stages, width=width, blocks_per_sm=1)
        r.gbps = gbps
        recs.append(r)
    return recs


def test_notes_derive_the_link_and_the_share_of_the_ideal():
    recs = _records()
    notes = get("overlap").notes(recs)
    pinned = [r for r in recs if r.variant == "pinnedH2D"]
    assert pinned[-1].extra["link_gbps"] == pytest.approx((1 << 30) / (pinned[-1].median_ms * 1e-3) / 1e9, rel=1e-3)
    pipes = {r.extra["streams"]: r for r in recs if r.variant == "pipeline"}
    assert pipes[4].extra["ideal_ms"] == 11.0  # max(5 + 5.5, 11)
    assert pipes[4].extra["of_ideal"] == pytest.approx(11.0 / 11.4, abs=1e-4)
    text = "\n".join(notes)
    assert "best: 4 streams" in text and "one stream" in text
    assert "smallCopiesH2D" in text and "75.0x the time of one grouped copy" in text
    assert "1 block per SM (8 warps): plain loads 1,000 GB/s (4 B a thread)" in text
    assert "TMA best at 4 stages, 2,800 GB/s, 2.80x the better plain loads" in text
    assert "at 1 block per SM (8 warps) they pay: 2.80x (stagedTma4 against stagedPlain)" in text
    assert "pinnedH2D: 50.0 GB/s at best (1 GiB)" in text and "pageableD2H" in text and "it falls to 8.0 GB/s at 1 GiB" in text
    assert "it falls to" not in next(n for n in notes if n.startswith("pinnedH2D"))
    assert "H2D of 1 GiB: pinned memory 2.5x as fast as pageable" in text
    assert "2.50 us a copy" in text and "0.42x the time of the Python loop" in text
    assert "the calls from Python cost 3.50 us a copy, and each copy 2.50 us of its own" in text
    assert "(1,500 ns per KiB" in text
    assert get("overlap").notes(recs) == notes  # derived again: the same lines


def test_timeline_shows_the_fewest_chunks_near_the_best(tmp_path, monkeypatch):
    from smemlab.render import overlap_charts

    recs = [_rec("pipeline", 1.0, streams=s, chunks=c, of_ideal=f, case="", timeline=[[0, "H2D", 0, 1]])
            for s, c, f in ((1, 64, 0.4), (4, 64, 0.99), (4, 256, 1.0), (1, 256, 0.39))]
    drawn = []
    monkeypatch.setattr(overlap_charts, "_draw_timelines", lambda shown, path: drawn.extend(shown) or True)
    assert overlap_charts.timeline_chart(recs, tmp_path / "t.png")
    assert [(r.extra["streams"], r.extra["chunks"]) for r in drawn] == [(1, 64), (4, 64)]


def test_staging_notes_take_the_full_grid_as_one_level_whatever_its_blocks():
    recs = []
    for name, per_sm, gbps in (("stagedPlain", 8, 3000.0), ("stagedPlainV4", 6, 2900.0), ("stagedCpAsync2", 8, 3150.0)):
        method, stages, width = staging.METHODS[name]
        r = _rec(name, 1.0, method=method, stages=stages, width=width, blocks_per_sm=per_sm)
        r.gbps = gbps
        recs.append(r)
    notes = staging.staging_notes(recs)
    assert notes[0].startswith("6/8 blocks per SM (48/64 warps): plain loads 3,000 GB/s (4 B a thread), 2,900 GB/s (16 B")
    assert "at 6/8 blocks per SM (48/64 warps) they do not pay: 1.05x (stagedCpAsync2 against stagedPlain)" in notes[1]


def test_no_pipeline_note_without_its_steps_alone():
    recs = [r for r in _records() if r.variant != "pipelineCompute"]
    assert pipeline.pipeline_notes(recs) == []
    assert not any("of_ideal" in r.extra for r in recs)


def test_charts_draw_from_the_record(tmp_path):
    from smemlab.render.charts import detail_chart, plot_bandwidth
    from smemlab.records import ExperimentRecord

    recs = _records()
    get("overlap").notes(recs)
    exp = ExperimentRecord("overlap", "t", "s", [1 << 28], [], recs)
    assert plot_bandwidth(exp, tmp_path / "o.png", 4000.0) and (tmp_path / "o.png").stat().st_size > 10000
    assert detail_chart(exp, tmp_path / "d.png") and (tmp_path / "d.png").stat().st_size > 10000
    empty = ExperimentRecord("overlap", "t", "s", [1 << 28], [], [])
    assert not plot_bandwidth(empty, tmp_path / "e.png") and not detail_chart(empty, tmp_path / "e2.png")


def test_the_profiler_leaves_out_the_unprofiled_variants(monkeypatch):
    from smemlab import profile
    from smemlab.records import ExperimentRecord, RunRecord

    asked, metrics = [], []

    def fake(name, size, variants, device, kernels, timeout=900, extra_metrics=()):
        asked.extend(variants)
        metrics.extend(extra_metrics)
        return [], "fake"

    monkeypatch.setattr(profile, "profile_experiment", fake)
    monkeypatch.setattr(profile, "kernel_symbols", lambda source: [])
    recs = [_rec(n, 1.0) for n in ("pipeline", "pipelineCompute", "stagedPlain", "stagedTma2")]
    profile.attach(RunRecord({}, None, [ExperimentRecord("overlap", "t", "s", [1024], [], recs)]))
    # the run's size (with the stall reasons the notes read), then the bank check's few tiles
    assert asked == ["stagedPlain", "stagedTma2"] * 2
    assert metrics == list(staging.STALL_METRICS)


def test_stall_notes_set_each_variants_waits_side_by_side():
    from smemlab import counters as C

    recs = []
    for name, per_sm, long_sb in (("stagedPlainV4", 1, 4.54), ("stagedCpAsync3", 1, 0.12), ("stagedTma3", 8, 1.67)):
        method, stages, width = staging.METHODS[name]
        r = _rec(name, 1.0, method=method, stages=stages, width=width, blocks_per_sm=per_sm)
        r.gbps = 1000.0
        r.counters = {C.STALL_LONG_SCOREBOARD: long_sb, C.STALL_BARRIER: 0.5}
        recs.append(r)
    notes = staging.stall_notes(recs)
    assert notes == ["warp cycles stalled per issued instruction at 1 block(s) per SM (Nsight Compute): stagedPlainV4 "
                     "long scoreboard 4.54, barrier 0.50; stagedCpAsync3 long scoreboard 0.12, barrier 0.50",
                     "warp cycles stalled per issued instruction at 8 block(s) per SM (Nsight Compute): stagedTma3 "
                     "long scoreboard 1.67, barrier 0.50"]
    assert staging.stall_notes([_rec("stagedPlain", 1.0, blocks_per_sm=1)]) == []  # not profiled: no line


# ---- on the GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("size", get("overlap").small_sizes)
def test_every_case_verifies(rt, run_case, size):
    exp = get("overlap")
    seen = set()
    for case in exp.cases(rt, size, exp.variants()):
        verdict = run_case(case, times=2)
        assert verdict.ok, f"{case.variant.name} {case.extra.get('case')}: {verdict.detail}"
        seen.add(case.variant.name)
    assert seen == {v.name for v in exp.variants()}


@pytest.mark.gpu
def test_traced_pipeline_keeps_each_streams_steps_in_order(rt, run_case):
    exp = get("overlap")
    cases = [c for c in exp.cases(rt, (100003,), [v for v in exp.variants() if v.name == "pipeline"])]
    case = next(c for c in cases if c.extra["streams"] == 4 and c.extra["chunks"] == 16)
    assert run_case(case).ok
    timeline = case.extra["timeline"]
    assert len(timeline) == 3 * 16 and {e[0] for e in timeline} == {0, 1, 2, 3}
    for stream in range(4):
        mine = [e for e in timeline if e[0] == stream]  # in the order they were enqueued
        assert [e[1] for e in mine] == ["H2D", "kernel", "D2H"] * 4
        assert all(0 <= e[2] <= e[3] for e in mine)
        assert all(a[3] <= b[2] for a, b in zip(mine, mine[1:]))


@pytest.mark.gpu
def test_a_small_run_derives_its_notes_and_draws_its_charts(rt, tmp_path):
    from smemlab.derive import derive
    from smemlab.records import RunRecord
    from smemlab.render.charts import detail_chart, plot_bandwidth
    from smemlab.runner import run_experiment

    exp_rec = run_experiment(rt, get("overlap"), (100003,), reps=2)
    assert all(v.ok for v in exp_rec.variants), [v.failure for v in exp_rec.variants if not v.ok]
    derive(RunRecord({}, None, [exp_rec]))
    assert any(n.startswith("best:") for n in exp_rec.notes)
    assert all(0 < v.extra["of_ideal"] for v in exp_rec.variants if v.variant == "pipeline")
    assert plot_bandwidth(exp_rec, tmp_path / "o.png") and detail_chart(exp_rec, tmp_path / "d.png")
