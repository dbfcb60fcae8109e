"""The library benchmark's bookkeeping, with no GPU: goals judged against constructed rows (and
never against a baseline that failed), crossovers, per-call goals, impossible figures, the rows
rendered into a report with its charts, and the command's argument errors. One GPU test runs
`smemlab bench --quick` on its own, as a user would."""

import json
import subprocess
import sys

import pytest

from smemlab.render import report
from smemlab.bench import Row, load_all, problems
from smemlab.bench.goals import attach, blocked_by_failure, evaluate, goal, per_call, tally, text
from smemlab.bench.harness import implausible
from smemlab.render.bench import crossovers, goal_table, latency_table, markdown_lines, plot, plot_latency
from smemlab.records import RunRecord


def test_every_op_has_a_registered_benchmark():
    assert list(load_all()) == ["transpose", "reduce", "stencil", "histogram", "matmul", "frameworks"]


def row(impl, ms=1.0, lat=10.0, ok=True, case="c", gbps=None, framework="", size=0, family="", op="histogram"):
    return Row(op, case, impl, ok, median_ms=ms, min_ms=ms, max_ms=ms, latency_us=lat, latency_min_us=lat,
               latency_max_us=lat, gbps=gbps, framework=framework, size=size, family=family,
               error="" if ok else "AssertionError: wrong")


def case_rows(torch_ok=True):
    rows = [row("cudaMemcpy", ms=1.0, gbps=4000.0), row("smemlab (cupy)", ms=1.0, lat=12.0, gbps=3800.0),
            row("torch", ms=4.0, lat=11.0, ok=torch_ok), row("cupy", ms=6.0, lat=20.0),
            row("torch", ms=0.1, case="other case")]
    attach(rows, [goal("smemlab (cupy)", "ceiling", "cudaMemcpy", 0.9),
                  goal("smemlab (cupy)", "throughput", ("torch", "cupy"), 5.0),
                  goal("smemlab (cupy)", "latency", "cupy", 1.25),
                  goal("smemlab (cupy)", "latency", "torch", 1.0)])
    return rows


def test_goals_compare_with_the_best_baseline_of_the_same_case():
    rows = case_rows()
    evaluate(rows)
    ceiling, speed, lat_cupy, lat_torch = rows[1].targets
    assert ceiling["got"] == pytest.approx(0.95) and ceiling["status"] == "met"
    assert speed["got"] == pytest.approx(4.0) and speed["status"] == "missed"  # torch (4 ms), not "other case"
    assert lat_cupy["got"] == pytest.approx(0.6) and lat_cupy["status"] == "met"  # latency: at most 1.25x
    assert lat_torch["got"] == pytest.approx(12 / 11) and lat_torch["status"] == "missed"
    assert text(ceiling) == "0.95 of cudaMemcpy (at least 0.90): met"
    assert text(speed) == "4.00x the best of torch, cupy (at least 5x): missed"
    assert text(lat_cupy) == "latency 0.60x cupy's (at most 1.25x): met"
    assert tally(rows) == {"met": 2, "missed": 2, "not judged": 0}


def test_a_goal_against_a_failed_baseline_is_not_judged_never_met():
    rows = case_rows(torch_ok=False)
    evaluate(rows)
    speed, lat_torch = rows[1].targets[1], rows[1].targets[3]
    # cupy alone would make the first "met" at 6.0x: judged on what is left, it would lie
    assert speed["status"] == "not judged" and speed["got"] is None and "torch failed its check" in speed["why"]
    assert lat_torch["status"] == "not judged"
    assert len(blocked_by_failure([r.to_dict() for r in rows])) == 2
    assert "not judged (torch failed its check)" in text(speed)


def test_a_goal_whose_baseline_did_not_run_is_not_judged():
    rows = case_rows()[:2]
    attach(rows, [goal("smemlab (cupy)", "throughput", "cupy", 1.0)])
    evaluate(rows)
    assert rows[1].targets[-1]["status"] == "not judged" and "did not run" in rows[1].targets[-1]["why"]
    assert blocked_by_failure(rows) == []  # absent (not installed) is no failure


def test_a_failed_row_misses_its_goals():
    rows = case_rows()
    rows[1].ok = False
    evaluate(rows)
    assert {t["status"] for t in rows[1].targets} == {"missed"}


def test_a_goal_for_an_implementation_that_did_not_run_is_dropped():
    rows = [row("cupy")]
    attach(rows, [goal("smemlab (torch)", "latency", "torch", 1.25)])
    assert rows[0].targets == []


def test_per_call_goals_loosen_only_below_the_large_size():
    small = per_call(1 << 16, "torch", "cupy")
    large = per_call(1 << 20, ["torch bincount", "torch histc"], "cupy bincount")
    assert [(g["impl"], g["want"]) for g in small] == [("smemlab (torch)", 1.25), ("smemlab (cupy)", 1.25)]
    assert [(g["impl"], g["vs"], g["want"]) for g in large] == [
        ("smemlab (torch)", ["torch bincount", "torch histc"], 1.0), ("smemlab (cupy)", ["cupy bincount"], 1.0)]
    with pytest.raises(ValueError, match="kind"):
        goal("smemlab (cupy)", "speed", "cupy", 1.0)


def sweep_rows():
    """reduce f32 at four sizes: smemlab (cupy) wins from 2^20 on, smemlab (torch) never at 2^28."""
    out = []
    for size, ours, theirs, t_ours, t_theirs in [(1 << 12, 30, 20, 12, 11), (1 << 16, 30, 21, 12, 11),
                                                 (1 << 20, 25, 30, 14, 13), (1 << 28, 300, 310, 300, 290)]:
        case = f"2^{size.bit_length() - 1} f32"
        kw = dict(op="reduce", case=case, size=size, family="f32")
        out += [row("smemlab (torch)", lat=t_ours, framework="torch", **kw), row("torch", lat=t_theirs, framework="torch", **kw),
                row("smemlab (cupy)", lat=ours, framework="cupy", **kw), row("cupy", lat=theirs, framework="cupy", **kw)]
    return out


def test_crossover_is_the_size_from_which_smemlab_stays_fastest():
    by = {c["impl"]: c for c in crossovers(sweep_rows())}
    assert by["smemlab (cupy)"]["size"] == 1 << 20 and by["smemlab (cupy)"]["case"] == "2^20 f32"
    assert by["smemlab (torch)"]["size"] is None  # slower at the largest size: no crossover
    table = latency_table(sweep_rows())
    assert "| reduce | 2^20 f32 | 14.0 us | 13.0 us (torch) | 25.0 us | 30.0 us (cupy) |" in table


def test_impossible_figures_are_caught():
    big, small = 1 << 34, 1 << 20
    rows = [Row("t", "a", "x", True, gbps=20_000.0, bytes=small),  # 4x the peak even from L2: impossible
            Row("t", "b", "x", True, gbps=6_000.0, bytes=small),  # from L2: possible
            Row("t", "c", "x", True, gbps=6_000.0, bytes=big),  # from DRAM, above its peak: impossible
            Row("m", "d", "x", True, tflops=90.0), Row("t", "e", "x", False, gbps=1e9)]
    found = implausible(rows, peak_gbps=4800.0, peak_tflops=67.0, l2_bytes=60 << 20)
    assert [line.split(":")[0] for line in found] == ["t a x", "t c x", "m d x"]


def test_problems_name_failures_unjudged_goals_and_impossible_figures():
    class Facts:
        peak_gbps, peak_fp32_tflops, l2_bytes = 4800.0, 67.0, 60 << 20

    rows = case_rows(torch_ok=False)
    evaluate(rows)
    found = problems(rows, Facts())
    assert any("FAILED" in f for f in found) and any(f.startswith("not judged") for f in found)


def test_bench_rows_render_into_the_report_with_charts(tmp_path):
    rows = case_rows()
    evaluate(rows)
    failed = Row("matmul", "8x8x8 f32", "smemlab (cupy)", False, error="AssertionError: bad")
    every = rows + [failed] + sweep_rows()
    lines = "\n".join(markdown_lines(every))
    assert "Goals met: 2 of 4 (2 missed, 0 not judged)." in lines
    assert "**missed**" in lines and "FAILED: AssertionError: bad" in lines
    assert "reduce f32, smemlab (cupy): fastest from 2^20 f32" in lines
    assert any("0.95 of cudaMemcpy" in line for line in goal_table(every))
    run = RunRecord(provenance={"gpu": {"name": "Test GPU"}}, copy_gbps=None, experiments=[], bench=every)
    path = report.write_all(run, tmp_path)
    text_ = path.read_text()
    assert "## Library benchmark" in text_ and "bench-latency.png" in text_
    assert (tmp_path / "bench.png").exists() and (tmp_path / "bench-latency.png").exists()
    assert RunRecord.load(tmp_path / "run.json").bench == every
    assert json.loads((tmp_path / "run.json").read_text())["bench"] == [r.to_dict() for r in every]  # flat, one key a field
    assert not plot([failed], tmp_path / "none.png", "GPU")
    assert not plot_latency([failed], tmp_path / "none.png", "GPU")


@pytest.mark.parametrize("argv,message", [
    (["bench", "nosuch"], "unknown benchmark nosuch"),
    (["bench", "--plot", "x.svg"], "png"),
    (["bench", "--json", "missing/x.json"], "does not exist"),
])
def test_bench_mistakes_are_status_2_before_any_gpu(argv, message, capsys, monkeypatch, tmp_path):
    from smemlab.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["bench", "check"])
def test_record_needs_a_recorded_run(tmp_path, capsys, command):
    from smemlab.cli import main

    assert main([command, "--record", str(tmp_path)]) == 2
    assert "no run.json" in capsys.readouterr().err


@pytest.mark.gpu
def test_quick_benchmark_on_its_own_verifies_everything(tmp_path):
    """`smemlab bench --quick` as a user runs it, in its own process: every row verified, every goal
    judged, no figure above what the device can do, both figures on every row."""
    out = tmp_path / "bench.json"
    proc = subprocess.run([sys.executable, "-m", "smemlab", "bench", "--quick", "--json", str(out)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = json.loads(out.read_text())["rows"]
    assert {r["op"] for r in rows} == {"transpose", "reduce", "stencil", "histogram", "matmul", "frameworks"}
    assert [f"{r['op']} {r['case']} {r['impl']}: {r['error']}" for r in rows if not r["ok"]] == []
    assert all(r["latency_us"] > 0 and r["median_ms"] > 0 for r in rows)
    assert all(t["status"] in ("met", "missed") for r in rows for t in r["targets"])
    assert any(r["impl"] == "cudaMemcpy" for r in rows)
    assert "impossible figure" not in proc.stdout


def test_a_case_name_runs_once_per_op():
    from smemlab.bench import Bench

    b = Bench.__new__(Bench)  # no GPU: only the bookkeeping of Bench.case runs
    b.op, b.rows = "histogram", [Row("histogram", "2^28 keys 256 bins uniform", "smemlab (cupy)", True)]
    with pytest.raises(ValueError, match="already run"):
        b.case("2^28 keys 256 bins uniform", impls={}, check=lambda out: None)


def test_the_ops_choice_is_noted_on_the_rows_of_the_op_as_called_only():
    from smemlab.bench import Bench, Impl

    b = Bench.__new__(Bench)  # no GPU: the implementations fail, the rows are still made
    b.op, b.rows = "histogram", []
    b._poison, b.sync, b.log, b._latency_rows = (lambda n: None), (lambda: None), (lambda m: None), (lambda t: None)

    def no_gpu():
        raise RuntimeError("no GPU here")

    impls = {"smemlab (cupy)": Impl(no_gpu, "cupy"), "smemlab ranges": Impl(no_gpu, "cupy"), "torch bincount": Impl(no_gpu, "torch")}
    rows = b.case("2^26 keys 262144 bins uniform", impls=impls, check=lambda out: None, note="ranges")
    assert [(r.impl, r.note, r.ok) for r in rows] == [("smemlab (cupy)", "ranges", False), ("smemlab ranges", "", False),
                                                      ("torch bincount", "", False)]


def test_bench_record_replaces_only_the_ops_it_ran(tmp_path, monkeypatch, capsys):
    from smemlab import bench
    from smemlab.commands import bench_cmd

    old = [row("cupy", op=op) for op in ("transpose", "histogram")]
    RunRecord(provenance={"gpu": {"name": "Test GPU"}}, copy_gbps=None, experiments=[], bench=old).save(tmp_path / "run.json")

    class Facts:
        name, sms, l2_bytes, driver, peak_gbps, peak_fp32_tflops = "Test GPU", 1, 1 << 20, "0", None, None

        def to_dict(self):
            return {}

    class Ran:
        rows = [row("smemlab (cupy)", op="histogram")]

    monkeypatch.setattr(bench_cmd, "require_gpu_packages", lambda: None)
    monkeypatch.setattr("smemlab.device.read_facts", lambda device: Facts())
    monkeypatch.setattr(bench, "run_benchmarks", lambda *a, **k: Ran())
    from smemlab.cli import main

    assert main(["bench", "histogram", "--record", str(tmp_path)]) == 0
    kept = RunRecord.load(tmp_path / "run.json").bench
    assert [(r.op, r.impl) for r in kept] == [("transpose", "cupy"), ("histogram", "smemlab (cupy)")]
