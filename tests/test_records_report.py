"""Records round-trip through JSON; reports render from records (a constructed one, and the
recorded GPU run in results/ where it exists); the ncu CSV parser reads a recorded CSV."""

import json
from pathlib import Path

import pytest

from smemlab.render import report
from smemlab.counters import SHARED_LD_INST, SHARED_LD_WAVEFRONTS, SHARED_ST_INST, SHARED_ST_WAVEFRONTS
from smemlab.profile import METRICS, assign, parse_raw_csv
from smemlab.records import AccessRecord, ExperimentRecord, RunRecord, VariantRecord

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"


def make_run() -> RunRecord:
    conflict = VariantRecord(
        variant="setColReadCol", summary="column access", ok=True, median_ms=2.0, min_ms=1.9, max_ms=2.5, reps=20,
        bytes_moved=4_000_000, gbps=2.0, pct_copy=0.1, accesses=[
            AccessRecord("store", "tile[tx][ty]", "store", 32.0, 1.0, predicted_requests=32, predicted_wavefronts=1024),
            AccessRecord("load", "tile[tx][ty]", "load", 32.0, 1.0, predicted_requests=32, predicted_wavefronts=1024)],
        counters={SHARED_LD_WAVEFRONTS: 1024.0, SHARED_LD_INST: 32.0,
                  SHARED_ST_WAVEFRONTS: 992.0, SHARED_ST_INST: 32.0},
    )
    broken = VariantRecord(variant="broken", summary="does not verify", ok=False, failure="verification failed: x[3]")
    exp = ExperimentRecord("layout", "Shared memory layouts", "seed 000", [1], ["note"], [conflict, broken], ["a note"])
    return RunRecord(provenance={"gpu": {"name": "Test GPU"}, "date": "2026-11-22"}, copy_gbps=2000.0, experiments=[exp])


def test_run_record_round_trips_through_json(tmp_path):
    run = make_run()
    path = tmp_path / "run.json"
    run.save(path)
    again = RunRecord.load(path)
    assert again == run
    assert json.loads(path.read_text())["experiments"][0]["variants"][0]["accesses"][0]["expr"] == "tile[tx][ty]"


def test_table_flags_a_bank_model_mismatch_and_a_failure():
    exp = make_run().experiments[0]
    header, table, flags = report.rows(exp)
    ld, st = header.index("smem ld meas"), header.index("smem st meas")
    assert table[0][ld] == "32" and not flags[0][ld]  # 1024/32 measured = predicted
    assert table[0][st] == "31" and flags[0][st]  # 992/32 measured, 32 predicted: flagged
    assert table[1][1] == "FAILED" and flags[1][1]


def test_markdown_and_csv_hold_every_variant(tmp_path):
    run = make_run()
    md = report.markdown(run)
    assert "| setColReadCol |" in md and "verification failed" in md and "Test GPU" in md
    csv_text = report.to_csv(run)
    assert csv_text.count("\n") == 3  # header + two variants


def test_write_all_writes_json_csv_plot_and_report(tmp_path):
    path = report.write_all(make_run(), tmp_path)
    assert path.read_text().startswith("# smemlab")
    assert (tmp_path / "run.json").exists() and (tmp_path / "layout.png").exists()


RECORDED = ROOT / "results" / "run.json"


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_recorded_run_renders_with_its_own_figures():
    run = RunRecord.load(RECORDED)
    assert run.provenance["kernel_sources_sha256"] and run.provenance["gpu"]["name"]
    md = report.markdown(run)
    for exp in run.experiments:
        assert f"## {exp.name}" in md
        for v in exp.variants:
            assert f"| {v.variant} |" in md
            if v.median_ms is not None:  # the median the report prints is the recorded one
                assert f"{v.median_ms:.4g} (" in md


NCU_CSV = DATA / "ncu_layout.csv"


@pytest.mark.skipif(not NCU_CSV.exists(), reason="no recorded ncu CSV yet")
def test_parse_recorded_ncu_csv_and_assign_to_variants():
    rows = parse_raw_csv(NCU_CSV.read_text())
    assert rows and all(isinstance(r[METRICS[0]], float) for r in rows)
    launches = json.loads((DATA / "ncu_layout_launches.json").read_text())
    counters = assign(rows, [(v, k) for v, k in launches])
    assert [v for v, _ in counters] == [v for v, _ in launches]
    for variant, c in counters:
        assert c[SHARED_LD_INST] > 0 or c[SHARED_ST_INST] > 0, variant


def test_assign_sums_counts_and_averages_ratios_over_a_cases_launches():
    from smemlab.counters import SHARED_LD_WAVEFRONTS, STALL_BARRIER

    rows = [{"Kernel Name": "k1", SHARED_LD_WAVEFRONTS: 10.0, STALL_BARRIER: 1.0},
            {"Kernel Name": "k2", SHARED_LD_WAVEFRONTS: 30.0, STALL_BARRIER: 3.0}]
    ((variant, counters),) = assign(rows, [("v", ["k1", "k2"])], [SHARED_LD_WAVEFRONTS, STALL_BARRIER])
    assert variant == "v" and counters == {SHARED_LD_WAVEFRONTS: 40.0, STALL_BARRIER: 2.0}


def test_assign_refuses_rows_that_do_not_match_the_log():
    rows = [{"Kernel Name": "other", METRICS[0]: 1.0}]
    with pytest.raises(ValueError, match="other"):
        assign(rows, [("v", ["mine"])])


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_recorded_report_is_what_smemlab_report_renders_from_the_record(tmp_path):
    import shutil

    from smemlab.cli import main

    shutil.copy(RECORDED, tmp_path / "run.json")
    assert main(["report", str(tmp_path), "--quiet"]) == 0
    # report.md and run.csv are written by the same recording as run.json: rendered again, byte for byte
    for name in ("report.md", "run.csv"):
        assert (tmp_path / name).read_text() == (ROOT / "results" / name).read_text(), name


def _holds(new, old) -> bool:
    """Every key of `old` is in `new` with the same value (new may add keys with their defaults)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and _holds(new[k], v) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(new) == len(old) and all(_holds(n, o) for n, o in zip(new, old))
    return new == old


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_the_recorded_run_saves_again_with_every_field_it_had(tmp_path):
    """Read into the record types and written again, the recorded run keeps every key and value
    (variants and benchmark rows alike): the JSON layout is the one it was recorded in."""
    RunRecord.load(RECORDED).save(tmp_path / "run.json")
    old, new = json.loads(RECORDED.read_text()), json.loads((tmp_path / "run.json").read_text())
    assert old["bench"] and _holds(new, old)
    assert not _holds(dict(new, bench=new["bench"][1:]), old)  # the check sees a row gone


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_recorded_run_is_complete():
    from smemlab.lab import all_experiments
    from smemlab.runner import unexpected_failures

    from smemlab.compiler import sources_hash

    run = RunRecord.load(RECORDED)
    # a kernel changed since the run was recorded: run tools/record/gpu_suite.sh and tools/record/gpu_bench_check.sh again
    assert run.provenance["kernel_sources_sha256"] == sources_hash()
    assert [e.name for e in run.experiments] == [e.name for e in all_experiments()]
    assert unexpected_failures(run) == []
    assert run.profile_status.startswith("Nsight Compute")
    assert run.sanitizer and all(r.get("memcheck") for r in run.sanitizer)
    ops = {"transpose", "reduce", "stencil", "histogram", "matmul"}
    assert {r.op for r in run.bench} == ops | {"frameworks"}  # the ops inside torch.compile, graphs, autograd
    assert [f"{r.op} {r.case} {r.impl}" for r in run.bench if not r.ok] == []
    assert all(r.latency_us and r.median_ms for r in run.bench)  # both figures on every row
    assert any(r.impl == "cudaMemcpy" for r in run.bench)  # the ceiling, measured in the same run
    for op in ops:  # a sweep from host-bound to memory-bound, at least five sizes
        sizes = {r.size for r in run.bench if r.op == op and r.family}
        assert len(sizes) >= 5, (op, sorted(sizes))
    from smemlab.bench.goals import blocked_by_failure

    assert blocked_by_failure(run.bench) == []


def test_report_command_explains_a_missing_record(tmp_path, capsys):
    from smemlab.cli import main

    assert main(["report", str(tmp_path)]) == 2
    assert "no run.json" in capsys.readouterr().err


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_readme_library_table_is_the_recorded_run():
    import importlib.util

    spec = importlib.util.spec_from_file_location("readme_tables", ROOT / "tools" / "record" / "readme_tables.py")
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    found = set()
    for page in tables.PAGES:
        text = (ROOT / page).read_text()
        assert tables.rendered(text, RunRecord.load(RECORDED)) == text, f"{page}: run python tools/record/readme_tables.py"
        found |= {name for name in tables.tables(RunRecord.load(RECORDED)) if f"<!-- {name} -->" in text}
    assert found == set(tables.tables(RunRecord.load(RECORDED)))  # every table sits on some page


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_tables_show_the_columns_that_fit_each_experiment_in_plain_words():
    run = RunRecord.load(RECORDED)
    by = {e.name: e for e in run.experiments}
    header = report.rows(by["matmul"])[0]
    assert "TFLOP/s" in header and "GB/s" not in header and "% copy" not in header
    assert "reads of each A element" in header and "A_reads" not in header
    header = report.rows(by["reduce"])[0]
    assert "GB/s" in header and "GFLOP/s" not in header and "TFLOP/s" not in header
    assert "times faster than the CPU" in header and "relative error (vs float64)" in header
    md = report.markdown(run)
    for raw in ("speedup_vs_cpu", "rel_err_vs_f64", "pct_copyGmem", "smem_per_block", "Seed:"):
        assert raw not in md
    sources = [line for line in md.splitlines() if line.startswith("Source: ")]
    assert len(sources) == len(run.experiments) and not any("seed" in line for line in sources)


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_charts_of_the_recorded_run_are_legible(tmp_path):
    import matplotlib.image

    run = RunRecord.load(RECORDED)
    report.write_all(run, tmp_path)
    for png in tmp_path.glob("*.png"):
        if png.name == "bench.png":  # the benchmark's chart is drawn by smemlab.bench
            continue
        h, w = matplotlib.image.imread(png).shape[:2]
        assert w <= 1700 and h >= 400 and w / h < 3.2, (png.name, w, h)
    assert (tmp_path / "config.png").exists() and (tmp_path / "config-detail.png").exists()
    exp = {e.name: e for e in run.experiments}["histogram"]
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    assert report.plot_bandwidth(exp, tmp_path / "h.png", run.copy_gbps)
    assert set(plt.get_fignums()) == before  # closed after drawing


def test_the_layout_chart_shows_time_and_marks_the_predicted_conflicts(tmp_path, monkeypatch):
    from smemlab.render import charts

    run = RunRecord.load(RECORDED)
    layout = {e.name: e for e in run.experiments}["layout"]
    drawn = {}

    def bar(self, x, heights, color=None, **kw):
        drawn.update(heights=list(heights), colors=list(color))
        return original(self, x, heights, color=color, **kw)

    import matplotlib.axes

    original = matplotlib.axes.Axes.bar
    monkeypatch.setattr(matplotlib.axes.Axes, "bar", bar)
    assert charts.layout_chart(layout.variants, tmp_path / "l.png", None)
    ok = [v for v in layout.variants if v.ok and v.median_ms]
    assert drawn["heights"] == [v.median_ms for v in ok]
    red = [v.variant for v, c in zip(ok, drawn["colors"]) if c == "#cc3311"]
    assert "setColReadCol" in red and "setRowReadRow" not in red and "setRowReadColPad" not in red
    assert not charts.layout_chart([], tmp_path / "e.png", None)


def test_wrapped_titles_fit_the_figure():
    from smemlab.render.charts import wrapped_title

    title = wrapped_title("transpose: matrix transpose: coalescing through a shared-memory tile, padding, unrolling", 5.6)
    assert all(len(line) <= 62 for line in title.splitlines()) and "shared-memory" in title


def test_assign_matches_a_template_instance_by_its_function_name():
    """ncu's "Kernel Name" of a template instance is its demangled signature, the launch log its function name."""
    from smemlab.profile import function_name

    rows = [{"Kernel Name": "void transpose_tiles<unsigned int, 16, 0, 4>(T1 *, long long, const T1 *, long long)",
             SHARED_LD_WAVEFRONTS: 7.0},
            {"Kernel Name": "histGlobal(const int *, int, unsigned int *, int)", SHARED_LD_WAVEFRONTS: 2.0}]
    ((_, first), (_, second)) = assign(rows, [("a", ["transpose_tiles"]), ("b", ["histGlobal"])], [SHARED_LD_WAVEFRONTS])
    assert first[SHARED_LD_WAVEFRONTS] == 7.0 and second[SHARED_LD_WAVEFRONTS] == 2.0
    assert function_name("void stencil1d_f32_p<4>(float *, const float *, long long, int, Coef<T1>)") == "stencil1d_f32_p"
    with pytest.raises(ValueError, match="transpose_tiles"):
        assign(rows[:1], [("a", ["transpose_pairs"])], [SHARED_LD_WAVEFRONTS])
