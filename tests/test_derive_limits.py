"""The derive step and the binding limits, on constructed records (no GPU): the ceilings a run's
variants are set against, each variant's shares, the notes computed after the counters, and the
renderer that only reads what derive stored."""

import json
import subprocess
import sys

import pytest

from smemlab import limits
from smemlab.counters import (DRAM_READ_BYTES, DRAM_WRITE_BYTES, GLOBAL_LD_SECTORS, SHARED_LD_INST, SHARED_LD_WAVEFRONTS,
                              SHARED_ST_INST, SHARED_ST_WAVEFRONTS)
from smemlab.derive import derive
from smemlab.records import AccessRecord, BenchRow, ExperimentRecord, RunRecord, VariantRecord
from smemlab.render import report

SMS, CLOCK_MHZ = 100, 2000.0  # 2e11 wavefronts a second: 1 ms is 2e8 wavefronts


def smem(wavefronts: float) -> dict[str, float]:
    return {SHARED_LD_WAVEFRONTS: wavefronts / 2, SHARED_ST_WAVEFRONTS: wavefronts / 2,
            SHARED_LD_INST: 1.0, SHARED_ST_INST: 1.0, DRAM_READ_BYTES: 0.0, DRAM_WRITE_BYTES: 0.0}


def variant(name, ms, counters=None, accesses=(), shape="grid (64, 1, 1) block (32, 32, 1)", **kw) -> VariantRecord:
    return VariantRecord(variant=name, summary="", ok=True, median_ms=ms, min_ms=ms, max_ms=ms, reps=20,
                         counters=dict(counters or {}), accesses=list(accesses), launch_shape=shape, **kw)


def gpu(**extra) -> dict:
    return {"gpu": dict({"name": "Test GPU", "sms": SMS, "sm_clock_mhz": CLOCK_MHZ}, **extra)}


CEIL = {"sms": SMS, "sm_clock_mhz": CLOCK_MHZ, "dram_gbps": 1000.0, "launch_floor_ms": 0.010}


def test_each_limit_is_the_share_of_the_time_it_alone_would_take():
    # 1 GB across DRAM at 1000 GB/s is 1 ms: 80% of 1.25 ms
    dram = variant("dram", 1.25, {DRAM_READ_BYTES: 0.5e9, DRAM_WRITE_BYTES: 0.5e9})
    got = limits.shares(dram, CEIL)
    assert got["dram_share"] == pytest.approx(0.8) and got["binding"] == "DRAM"
    assert got["launch_share"] == pytest.approx(0.008)
    # 1.6e8 wavefronts at 100 SMs x 2 GHz is 0.8 ms: 80% of 1 ms
    shared = limits.shares(variant("smem", 1.0, smem(1.6e8)), CEIL)
    assert shared["smem_ms"] == pytest.approx(0.8) and shared["binding"] == "shared memory"
    # 12 us where the empty launch takes 10: the launch binds
    assert limits.shares(variant("tiny", 0.012, smem(100)), CEIL)["binding"] == "launch"
    # nothing reaches half: none binds, and the largest is kept
    idle = limits.shares(variant("idle", 0.1, smem(4e6)), CEIL)
    assert idle["binding"] == "none" and idle["largest"] == "shared memory" and idle["smem_share"] == pytest.approx(0.2)


def test_a_limit_the_record_cannot_compute_is_left_out_not_guessed():
    assert limits.shares(variant("host", 5.0), CEIL) == {"binding": limits.NOT_MEASURED}  # no counters
    assert limits.shares(variant("untimed", None, smem(10)), CEIL) == {}
    failed = variant("failed", 1.0, smem(10))
    failed.ok = False
    assert limits.shares(failed, CEIL) == {}
    no_clock = limits.shares(variant("v", 1.0, smem(1e8)), dict(CEIL, sm_clock_mhz=None))
    assert "smem_share" not in no_clock and "smem_ms" not in no_clock
    nothing = limits.shares(variant("v", 1.0, smem(1e8)), {"sms": SMS})
    assert nothing["binding"] == limits.NOT_MEASURED


def test_ceilings_come_from_the_record_and_say_where_from():
    memcpy = [BenchRow("reduce", c, "cudaMemcpy", True, bytes=b, gbps=g)
              for c, b, g in (("small", 1 << 20, 5000.0), ("large", 1 << 31, 4200.0), ("mid", 1 << 27, 3700.0))]
    memcpy.append(BenchRow("reduce", "bad", "cudaMemcpy", False, bytes=1 << 33, gbps=9e9))
    fast = variant("one warp", 0.008, smem(0), shape="grid (1, 1, 1) block (32, 1, 1)")
    slow = variant("big", 1.0, smem(1e6))
    unprofiled = variant("host", 0.0001)
    run = RunRecord(provenance=gpu(), copy_gbps=3000.0, bench=memcpy,
                    experiments=[ExperimentRecord("e", "", "", [1], [], [slow, fast, unprofiled])])
    c = limits.ceilings(run)
    # the largest copy sets the ceiling (a small one runs from L2); one that failed never does
    assert c["dram_gbps"] == 4200.0 and "large" in c["dram_source"]
    assert c["launch_floor_ms"] == 0.008 and "e/one warp" in c["launch_floor_source"]  # not the host baseline
    assert c["sm_clock_mhz"] == CLOCK_MHZ and c["sm_clock_source"].startswith("recorded") and c["sms"] == SMS
    run.bench = []
    c = limits.ceilings(run)  # the runner's copy, where the record has no benchmark
    assert c["dram_gbps"] == 3000.0 and c["dram_source"].startswith("the copy kernel")  # a record from before
    run.copy_by = "cudaMemcpy"
    assert limits.ceilings(run)["dram_source"].startswith("cudaMemcpyAsync device to device, timed by the runner")
    run.copy_gbps = None
    assert limits.ceilings(run)["dram_gbps"] is None


def test_a_measured_empty_launch_is_the_launch_floor():
    """A run that timed an empty launch sets its variants against it, not against its shortest kernel
    (a run of one experiment whose kernels all do real work would take the fastest for the floor)."""
    long_ones = [variant("a", 0.130, smem(2.6e7)), variant("b", 4.1, smem(8.4e8))]
    run = RunRecord(provenance=gpu(), copy_gbps=None, launch_floor_ms=0.006,
                    experiments=[ExperimentRecord("layout", "", "", [4096, 128], [], long_ones)])
    c = limits.ceilings(run)
    assert c["launch_floor_ms"] == 0.006 and c["launch_floor_source"].startswith("an empty launch")
    derive(run)
    assert long_ones[0].limits["launch_share"] == pytest.approx(0.006 / 0.130)
    assert long_ones[0].limits["binding"] == "shared memory"  # 2.6e7 wavefronts: 0.13 ms at 2e11 a second
    run.launch_floor_ms = None  # a record from before: the shortest kernel timed and profiled
    assert limits.ceilings(run)["launch_floor_ms"] == 0.130


def test_a_clock_the_run_did_not_record_is_the_datasheet_s_and_says_so():
    run = RunRecord(provenance={"gpu": {"name": "NVIDIA H200", "sms": 132}}, copy_gbps=None, experiments=[])
    c = limits.ceilings(run)
    assert c["sm_clock_mhz"] == 1980.0 and "not recorded" in c["sm_clock_source"] and "datasheet" in c["sm_clock_source"]
    run.provenance["gpu"]["name"] = "Some Future GPU"
    c = limits.ceilings(run)
    assert c["sm_clock_mhz"] is None and "not recorded" in c["sm_clock_source"]


def test_binding_cell_rounds_down_so_a_share_below_half_never_reads_50():
    assert report.binding_cell({"binding": "DRAM", "largest": "DRAM", "dram_share": 0.587}) == "DRAM 58%"
    assert report.binding_cell({"binding": "none", "largest": "launch", "launch_share": 0.4996}) == "none (launch 49%)"
    assert report.binding_cell({"binding": limits.NOT_MEASURED}) == "not measured"
    assert report.binding_cell({}) == "-"


def pair(fast_ms, slow_ms, fast_wf, slow_wf, pred=(32, 1024)):
    acc = lambda w: [AccessRecord("a", "t[tx]", "load", 1.0, 1.0, predicted_requests=32, predicted_wavefronts=w)]
    a = variant("fast", fast_ms, smem(fast_wf), acc(pred[0]))
    b = variant("slow", slow_ms, smem(slow_wf), acc(pred[1]))
    for v in (a, b):
        v.limits = limits.shares(v, CEIL)
    return a, b


def test_a_time_ratio_far_below_the_wavefront_ratio_is_explained_with_the_figures():
    a, b = pair(0.016, 0.043, 2e5, 6e6)  # 1 us and 30 us of wavefronts; the launch floor is 10 us
    line = limits.time_against_wavefronts("32x32", a, b)
    assert line.startswith("32x32: slow takes 2.69x the time of fast")
    assert "the bank model predicts 32x the shared wavefronts" in line and "Nsight Compute counts 30x" in line
    assert "the launch floor is 10.0 us" in line and "its wavefronts at one per SM per cycle 1.0 us" in line
    assert "slow's wavefronts take 30.0 us of its 43.0 us" in line
    # 15 us of fast's time is not its wavefronts: with it added to slow's 30 us, 2.81x, near the 2.69x measured
    assert line.endswith("With the 15.0 us of fast's time that is not its wavefronts paid by both, the wavefronts give "
                         "2.81x: that time, which both pay, hides most of the wavefront ratio")


def test_what_both_pay_besides_the_wavefronts_explains_a_ratio_the_launch_does_not():
    """The layout figures of an H200 run (4096 blocks x 128 passes): the launch is 3% of the fast
    kernel's time, its barriers and latency half of it; both pay them, which leaves 15.3x of 32x."""
    a, b = pair(0.2787, 4.321, 2.57e7, 8.2176e8)
    line = limits.time_against_wavefronts("32x32", a, b)
    assert line.startswith("32x32: slow takes 15.50x the time of fast") and "Nsight Compute counts 32x" in line
    assert "With the 150.2 us of fast's time that is not its wavefronts paid by both, the wavefronts give 15.28x" in line
    # one pad column against two on the rectangle: 1.5x the wavefronts, the same time; the fast kernel is
    # not bound by shared memory, and the extra wavefronts overlap its waiting
    a, b = pair(0.1430, 0.1428, 1.284e7, 1.928e7, pred=(32, 48))
    line = limits.time_against_wavefronts("32x16", a, b)
    assert "the wavefronts give 1.23x, more than measured" in line and "overlap the time it spends waiting" in line
    a, b = pair(0.100, 0.400, 1e7, 2e7, pred=(32, 64))  # 4x the time for 2x the wavefronts
    assert limits.time_against_wavefronts("x", a, b).endswith("something besides shared memory grows too")


def test_a_time_ratio_that_follows_or_has_nothing_to_follow_says_so():
    a, b = pair(1.0, 30.0, 2e8, 6e9)
    assert limits.time_against_wavefronts("x", a, b).endswith("the time follows the wavefronts")
    a, b = pair(1.0, 0.95, 2e8, 2e8, pred=(32, 32))
    assert "the same shared-memory work" in limits.time_against_wavefronts("x", a, b)
    a, b = pair(0.016, 0.043, 2e5, 6e6)
    b.accesses, b.counters = [], {}
    assert limits.time_against_wavefronts("x", a, b) == "x: slow takes 2.69x the time of fast"  # nothing to set beside
    b.median_ms = None
    assert limits.time_against_wavefronts("x", a, b) is None


def test_the_prediction_is_compared_only_between_equal_grids():
    a, b = pair(0.016, 0.043, 2e5, 6e6)
    b.launch_shape = "grid (32, 1, 1) block (32, 32, 1)"  # half the blocks: per-block predictions do not compare
    line = limits.time_against_wavefronts("x", a, b)
    assert "bank model" not in line and "Nsight Compute counts 30x" in line


def layout_run() -> RunRecord:
    """A layout record as the runner leaves it: times and counters, no notes, no limits."""
    def rect(name, ms, wf_per_req):
        ld = 16 * wf_per_req
        return variant(name, ms, {SHARED_LD_WAVEFRONTS: 4096 * ld, SHARED_LD_INST: 4096 * 16.0,
                                  SHARED_ST_WAVEFRONTS: 4096 * 16.0, SHARED_ST_INST: 4096 * 16.0},
                       [AccessRecord("store", "s", "store", 1.0, 1.0, 16, 16),
                        AccessRecord("load", "l", "load", wf_per_req, 1.0, 16, ld)],
                       bank_counters={SHARED_LD_WAVEFRONTS: ld, SHARED_LD_INST: 16.0})
    variants = [rect("setRowReadColPad_rect", 0.0105, 1), rect("setRowReadColPad1_rect", 0.0107, 2),
                variant("shfl", 0.008, smem(0), shape="grid (1, 1, 1) block (32, 1, 1)")]
    return RunRecord(provenance=gpu(), copy_gbps=3000.0, experiments=[
        ExperimentRecord("layout", "t", "s", [4096], [], variants)])


def test_derive_computes_notes_after_the_counters_and_stores_them():
    run = derive(layout_run())
    notes = run.experiments[0].notes
    # the counters are in when the notes are written: the figures are measured, not predicted
    assert any("2 shared wavefronts per request with IPAD 1 and 1 with IPAD 2 (measured)" in n for n in notes)
    assert any(n.startswith("32x16, one pad column against two: setRowReadColPad1_rect takes 1.02x") for n in notes)
    assert run.experiments[0].variants[0].limits["binding"] == "launch"  # 8 of 10.5 us is the launch floor
    assert run.ceilings["launch_floor_ms"] == 0.008
    assert run.experiments[0].metric == "bandwidth"  # a record without labels gets the definition's


def test_matmul_note_on_global_loads_appears_once_the_counters_are_in():
    v = variant("MatMulKernel16", 1.0, {GLOBAL_LD_SECTORS: 1e6}, gflops=1000.0, extra={"model_global_load_MB": 32.0})
    run = derive(RunRecord(provenance=gpu(), copy_gbps=None, experiments=[
        ExperimentRecord("matmul", "t", "s", [64, 64, 64], [], [v])]))
    assert "MatMulKernel16: 32 MB requested from global memory (ncu), model 32 MB" in run.experiments[0].notes


def test_derive_twice_gives_the_same_record():
    once = derive(layout_run()).to_json()
    assert derive(RunRecord.from_dict(json.loads(once))).to_json() == once


def test_derive_keeps_the_notes_of_an_experiment_it_no_longer_knows():
    run = layout_run()
    run.experiments[0].name, run.experiments[0].notes = "gone", ["what the old version said"]
    assert derive(run).experiments[0].notes == ["what the old version said"]


def test_report_only_renders_and_imports_no_experiment(tmp_path):
    derive(layout_run()).save(tmp_path / "run.json")
    before = (tmp_path / "run.json").read_text()
    code = ("import sys; from smemlab.cli import main; rc = main(['report', sys.argv[1], '--quiet']); "
            "print('EXPERIMENTS' if any(m.startswith('smemlab.lab') or m == 'smemlab.derive' "
            "for m in sys.modules) else 'NONE'); sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("NONE")
    assert (tmp_path / "run.json").read_text() == before  # nothing derived again
    md = (tmp_path / "report.md").read_text()
    assert "| binding limit |" in md and "| launch 76% |" in md
    assert "binding limits set against: " in md and "launch floor 8.0 us" in md


def test_derive_command_derives_a_recorded_run_and_renders_it(tmp_path, capsys):
    from smemlab.cli import main

    layout_run().save(tmp_path / "run.json")
    assert main(["derive", str(tmp_path), "--quiet"]) == 0
    again = RunRecord.load(tmp_path / "run.json")
    assert again.ceilings and again.experiments[0].notes and again.experiments[0].variants[0].limits
    assert "binding limit" in (tmp_path / "report.md").read_text()
    assert main(["derive", str(tmp_path / "nothing")]) == 2
    assert "no run.json" in capsys.readouterr().err
