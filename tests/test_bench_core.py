"""The library benchmark's bookkeeping, with no GPU: goals parsed and checked against constructed
rows, the rows rendered into the recorded run's report, and `--record` refusing a folder with no
run. (The timings themselves come from the GPU run; see tests/test_ops_gpu.py and results/.)"""

import pytest

from smemlab import report
from smemlab.bench import Row, evaluate_targets, load_all, target_specs
from smemlab.bench.render import goals, markdown_lines, plot, target_text
from smemlab.records import RunRecord


def test_every_op_has_a_registered_benchmark():
    assert list(load_all()) == ["transpose", "reduce", "stencil", "histogram", "matmul"]


def test_target_specs_take_one_goal_or_several():
    assert [t["impls"] for t in target_specs(("copy", 0.9))] == [["copy"]]
    both = target_specs([("copy", 0.9), (("torch", "cupy"), 5)])
    assert [(t["vs"], t["want"]) for t in both] == [("copy", 0.9), ("best of torch, cupy", 5.0)]
    assert target_specs(None) == []


def case_rows(ours_ms=1.0, vs_copy=0.95, torch_ms=4.0, cupy_ms=6.0):
    rows = [Row("histogram", "c", "smemlab", True, median_ms=ours_ms, min_ms=ours_ms, max_ms=ours_ms, gbps=100.0,
                vs_copy=vs_copy),
            Row("histogram", "c", "torch", True, median_ms=torch_ms, min_ms=torch_ms, max_ms=torch_ms, gbps=25.0),
            Row("histogram", "c", "cupy", True, median_ms=cupy_ms, min_ms=cupy_ms, max_ms=cupy_ms, gbps=16.0),
            Row("histogram", "other case", "torch", True, median_ms=0.1, min_ms=0.1, max_ms=0.1, gbps=1.0)]
    rows[0].targets = target_specs([("copy", 0.9), (("torch", "cupy"), 5)])
    return rows


def test_goals_compare_with_the_best_baseline_of_the_same_case():
    rows = case_rows()
    evaluate_targets(rows)
    copy, best = rows[0].targets
    assert copy["got"] == pytest.approx(0.95) and copy["met"]
    assert best["got"] == pytest.approx(4.0) and not best["met"]  # torch (4 ms) is the best, not "other case"
    assert target_text(rows[0].to_dict()) == "copy >= 0.9: 0.95 met; best of torch, cupy >= 5: 4.00 MISSED"
    assert goals([r.to_dict() for r in rows]) == (1, 2)


def test_a_goal_whose_comparison_did_not_run_is_not_met():
    rows = case_rows()[:1]
    evaluate_targets(rows)
    assert rows[0].targets[1]["got"] is None and rows[0].targets[1]["met"] is False
    assert "not measured MISSED" in target_text(rows[0].to_dict())


def test_a_failed_row_meets_no_goal():
    rows = case_rows()
    rows[0].ok = False
    evaluate_targets(rows)
    assert not any(t["met"] for t in rows[0].targets)


def test_bench_rows_render_into_the_report_with_a_plot(tmp_path):
    rows = case_rows()
    evaluate_targets(rows)
    failed = Row("matmul", "8x8x8 f32", "smemlab", False, error="AssertionError: bad")
    dicts = [r.to_dict() for r in rows + [failed]]
    lines = "\n".join(markdown_lines(dicts))
    assert "Goals met: 1 of 2." in lines and "**MISSED**" in lines and "FAILED: AssertionError: bad" in lines
    run = RunRecord(provenance={"gpu": {"name": "Test GPU"}}, copy_gbps=None, experiments=[], bench=dicts)
    path = report.write_all(run, tmp_path)
    assert "## Library benchmark" in path.read_text() and (tmp_path / "bench.png").exists()
    assert RunRecord.load(tmp_path / "run.json").bench == dicts
    assert not plot([failed.to_dict()], tmp_path / "none.png", "GPU")


@pytest.mark.parametrize("command", ["bench", "check"])
def test_record_needs_a_recorded_run(tmp_path, capsys, command):
    from smemlab.cli import main

    assert main([command, "--record", str(tmp_path)]) == 2
    assert "no run.json" in capsys.readouterr().err


@pytest.mark.gpu
def test_quick_benchmark_verifies_every_implementation():
    import cupy

    from smemlab.bench import run_benchmarks

    # on a non-blocking stream, as under `smemlab suite`: torch's work must still run between the events
    with cupy.cuda.Stream(non_blocking=True):
        rows = run_benchmarks(quick=True, log=lambda line: None).rows
    assert {r.op for r in rows} == {"transpose", "reduce", "stencil", "histogram", "matmul"}
    assert [f"{r.op} {r.case} {r.impl}: {r.error}" for r in rows if not r.ok] == []
    assert all(r.median_ms > 0 for r in rows)
    assert all(t["got"] is not None for r in rows for t in r.targets)
    # a measurement, not a performance claim: nothing moves bytes 5x faster than the copy kernel
    # unless its work ran outside the timed region
    copy = {(r.op, r.case): r.gbps for r in rows if r.impl == "copy kernel"}
    assert [r.impl for r in rows if (r.op, r.case) in copy and r.gbps > 5 * copy[(r.op, r.case)]] == []
