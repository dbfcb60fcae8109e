"""Reports from a RunRecord: terminal tables, Markdown, CSV and bar charts.

Every figure comes from the record; nothing here measures or invents a number. A table follows
the book's tables (time, and the counters that explain it), plus GB/s and % of the copy kernel
(or FLOP/s, for an experiment that computes rather than moves: see Experiment.metric). How a
column is headed and what the chart draws come from the experiment's definition where it still
exists (its column titles, metric and sweep columns); the words and figures of the run, from the
record.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from smemlab.records import ExperimentRecord, RunRecord, VariantRecord

# Nsight Compute metric names (DESIGN.md); profile.py collects these
SHARED_LD_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SHARED_ST_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
SHARED_LD_INST = "smsp__sass_inst_executed_op_shared_ld.sum"
SHARED_ST_INST = "smsp__sass_inst_executed_op_shared_st.sum"
GLOBAL_LD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_LD_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_ST_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
GLOBAL_ST_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value == 0:
            return "0"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 0.01:
            return f"{value:.{digits}g}"
        return f"{value:.2e}"
    if isinstance(value, (list, tuple)):
        return " ".join(_fmt(v) for v in value)
    return str(value)


def _ratio(num: float | None, den: float | None) -> float | None:
    if num is None or not den:
        return None
    return num / den


def predicted_per_request(v: VariantRecord, op: str) -> float | None:
    """Shared wavefronts per request the bank model predicts for all declared accesses of `op`."""
    accs = [a for a in v.accesses if a.op == op]
    requests = sum(a.predicted_requests for a in accs)
    return sum(a.predicted_wavefronts for a in accs) / requests if requests else None


def measured_per_request(v: VariantRecord, op: str, isolated: bool = True) -> float | None:
    """Shared wavefronts per request measured: at the bank-check size where there is one
    (`isolated`), else at the run's size."""
    counters = v.bank_counters if isolated and v.bank_counters else v.counters
    wave, inst = (SHARED_LD_WAVEFRONTS, SHARED_LD_INST) if op == "load" else (SHARED_ST_WAVEFRONTS, SHARED_ST_INST)
    return _ratio(counters.get(wave), counters.get(inst))


def bank_mismatch(v: VariantRecord, op: str) -> bool:
    """True where the profiler measured shared wavefronts that the declared accesses do not predict
    (at the bank-check size where there is one: see Experiment.bank_check_size)."""
    measured, predicted = measured_per_request(v, op), predicted_per_request(v, op)
    if measured is None:
        return False
    counters = v.bank_counters or v.counters
    if predicted is None:
        return counters.get(SHARED_LD_INST if op == "load" else SHARED_ST_INST, 0) > 0 and bool(v.accesses)
    return abs(measured - predicted) > 1e-6


def _experiment(name: str):
    """The experiment's current definition, or None for a record of one that no longer exists."""
    from smemlab.errors import UserError
    from smemlab.experiments import get

    try:
        return get(name)
    except UserError:
        return None


def uses_flops(exp: ExperimentRecord) -> bool:
    """True where the experiment is judged in FLOP/s (matmul), not in bytes moved."""
    experiment = _experiment(exp.name)
    if experiment is not None:
        return experiment.metric == "flops"
    return any(v.gflops for v in exp.variants) and not any(v.gbps for v in exp.variants)


def column_title(exp: ExperimentRecord, key: str) -> str:
    """An experiment's own column in plain words (its column_titles), not the record's key."""
    experiment = _experiment(exp.name)
    titles = experiment.column_titles if experiment is not None else {}
    return titles.get(key, key.replace("_", " "))


def source(exp: ExperimentRecord) -> str:
    """Which part of the book (or the Programming Guide) the experiment reproduces: a citation, so
    the current definition's words where it exists, else the record's."""
    experiment = _experiment(exp.name)
    return experiment.seed if experiment is not None and experiment.seed else exp.seed


def _tflops(gflops: float | None) -> str:
    return _fmt(gflops / 1000 if gflops else gflops)


def rows(exp: ExperimentRecord) -> tuple[list[str], list[list[str]], list[list[bool]]]:
    """Header, formatted cells, and which cells to flag (a bank-model mismatch, a failure)."""
    profiled = any(v.counters for v in exp.variants)
    flops = uses_flops(exp)
    header = ["variant", "verified", "time ms (min-max)"] + (["TFLOP/s"] if flops else ["GB/s", "% copy", "% peak"])
    header += ["smem ld wf/req pred", "smem st wf/req pred"]
    isolated = any(v.bank_counters for v in exp.variants)
    if profiled:
        header += ["smem ld meas", "smem st meas"]
        if isolated:
            header += ["smem ld at size", "smem st at size"]
        header += ["gld sectors/req", "gst sectors/req"]
    header += [column_title(exp, c) for c in exp.columns]
    table, flags = [], []
    for v in exp.variants:
        time = "-" if v.median_ms is None else f"{v.median_ms:.4g} ({v.min_ms:.3g}-{v.max_ms:.3g})"
        skipped = not v.ok and not v.failure
        verified = "yes" if v.ok else ("skipped" if skipped else "FAILED" if "verification" in v.failure else "error")
        cells = [v.variant, verified, time]
        cells += [_tflops(v.gflops)] if flops else [_fmt(v.gbps), _fmt(v.pct_copy), _fmt(v.pct_peak)]
        flag = [False, not v.ok and not skipped] + [False] * (len(cells) - 2)
        cells += [_fmt(predicted_per_request(v, "load")), _fmt(predicted_per_request(v, "store"))]
        flag += [False, False]
        if profiled:
            cells += [_fmt(measured_per_request(v, "load")), _fmt(measured_per_request(v, "store"))]
            flag += [bank_mismatch(v, "load"), bank_mismatch(v, "store")]
            if isolated:
                cells += [_fmt(measured_per_request(v, "load", False)), _fmt(measured_per_request(v, "store", False))]
                flag += [False, False]
            cells += [
                _fmt(_ratio(v.counters.get(GLOBAL_LD_SECTORS), v.counters.get(GLOBAL_LD_REQUESTS))),
                _fmt(_ratio(v.counters.get(GLOBAL_ST_SECTORS), v.counters.get(GLOBAL_ST_REQUESTS))),
            ]
            flag += [False, False]
        for col in exp.columns:
            cells.append(_fmt(v.extra.get(col)))
            flag.append(False)
        table.append(cells)
        flags.append(flag)
    return header, table, flags


def failures(exp: ExperimentRecord) -> list[str]:
    """Why a variant failed, or why it was skipped on this GPU."""
    return [f"{v.variant}: {v.failure or v.check}" for v in exp.variants if not v.ok and (v.failure or v.check)]


def console(**kwargs):
    """A rich console; off a terminal (a log, a pipe) wide enough that tables are not folded.

    A reader that goes away (`| head`) raises BrokenPipeError, which the command line turns into a
    quiet exit, instead of rich's own SystemExit(1)."""
    import sys

    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    if not sys.stdout.isatty() and "width" not in kwargs:
        kwargs["width"] = 240
    return _Console(**kwargs)


def print_terminal(run: RunRecord, out=None) -> None:
    from rich.table import Table

    console_ = out or console()
    gpu = run.provenance.get("gpu", {})
    console_.print(f"[bold]{gpu.get('name', 'GPU')}[/] (CC {gpu.get('compute_capability', '?')}, driver {gpu.get('driver', '?')})"
                  + (f"; copy kernel {run.copy_gbps:,.0f} GB/s" if run.copy_gbps else ""))
    for exp in run.experiments:
        header, table, flags = rows(exp)
        t = Table(title=f"{exp.name}: {exp.title}  (size {'x'.join(map(str, exp.size))})", title_justify="left")
        for h in header:
            t.add_column(h, overflow="fold")
        for cells, flag in zip(table, flags):
            t.add_row(*[f"[bold red]{c}[/]" if f else c for c, f in zip(cells, flag)])
        console_.print(t)
        for line in exp.notes:
            console_.print(f"  {line}")
        for line in failures(exp):
            console_.print(f"  [red]{line}[/]")
        for v in exp.variants:
            if v.extra.get("lanes_in") is not None:
                console_.print(f"  {v.variant}: in  {_fmt(v.extra['lanes_in'])}\n  {' ' * len(v.variant)}  out {_fmt(v.extra['lanes_out'])}")
    console_.print(f"profile: {run.profile_status}")


def markdown(run: RunRecord, plots: dict[str, str] | None = None) -> str:
    """The whole report as Markdown: provenance, then one table (and plot) per experiment."""
    p = run.provenance
    gpu = p.get("gpu", {})
    out = [
        "# smemlab: recorded run",
        "",
        f"- GPU: {gpu.get('name', '?')} (compute capability {gpu.get('compute_capability', '?')}, "
        f"{gpu.get('sms', '?')} SMs), driver {gpu.get('driver', '?')}",
        f"- date: {p.get('date', '?')}; smemlab {p.get('smemlab', '?')}; Python {p.get('python', '?')}",
        "- packages: " + ", ".join(f"{k} {v}" for k, v in p.get("packages", {}).items() if v),
        f"- kernel sources SHA-256: `{p.get('kernel_sources_sha256', '?')}`",
        f"- copy kernel in this run: {run.copy_gbps:,.0f} GB/s (bytes read + written)" if run.copy_gbps else "- copy kernel: not measured",
        f"- hardware counters: {run.profile_status}",
        "",
        "Columns: time is the median of the timed launches (min-max); GB/s counts bytes read and written once each "
        "(% copy: of the copy kernel in this run, % peak: of the datasheet's memory bandwidth); TFLOP/s counts "
        "2 FLOPs per multiply-add; "
        "`smem ld/st wf/req pred` is the bank model's prediction of shared wavefronts per request; `smem ld/st meas` "
        "is Nsight Compute's (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st / smsp__sass_inst_executed_op_shared_ld/st), "
        "taken at a few blocks where the experiment has a bank-check size, and `at size` at the run's size, where loads "
        "also pay for arbitration with other warps' traffic; **(!)** marks a prediction the counters contradict.",
        "",
    ]
    for exp in run.experiments:
        header, table, flags = rows(exp)
        out += [f"## {exp.name}: {exp.title}", "", f"Source: {source(exp)}. Size: {' x '.join(map(str, exp.size))}.", ""]
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" * len(header))
        for cells, flag in zip(table, flags):
            out.append("| " + " | ".join(f"**{c} (!)**" if f else c for c, f in zip(cells, flag)) + " |")
        out.append("")
        for line in exp.notes + failures(exp):
            out.append(f"- {line}")
        for v in exp.variants:
            if v.extra.get("lanes_in") is not None:
                out.append(f"- `{v.variant}`: in `{_fmt(v.extra['lanes_in'])}` → out `{_fmt(v.extra['lanes_out'])}`")
        if plots and exp.name in plots:
            out += ["", f"![{exp.name}]({plots[exp.name]})"]
        if plots and f"{exp.name}-detail" in plots:
            out += ["", f"![{exp.name} detail]({plots[exp.name + '-detail']})"]
        out.append("")
    if run.sanitizer:
        out += ["## compute-sanitizer", "",
                "Each variant once, at the experiment's smallest test size. A hazard kept on purpose is listed as expected.", "",
                "| experiment | variant | memcheck | racecheck | synccheck | initcheck | expected |", "|---|---|---|---|---|---|---|"]
        for row in run.sanitizer:
            tools = [row.get(t, "-") for t in ("memcheck", "racecheck", "synccheck", "initcheck")]
            if not row.get("expected"):  # an unexpected finding is the one to look at
                tools = [t if t == "clean" else f"**{t}**" for t in tools]
            out.append(f"| {row['experiment']} | {row['variant']} | " + " | ".join(tools) + f" | {row.get('expected', '')} |")
        out.append("")
    if run.bench:
        from smemlab.bench.render import markdown_lines

        out += markdown_lines(run.bench, plots)
    return "\n".join(out)


def to_csv(run: RunRecord) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["experiment", "variant", "ok", "median_ms", "min_ms", "max_ms", "gbps", "pct_copy", "pct_peak", "gflops",
                "error", "smem_ld_pred", "smem_st_pred", "smem_ld_meas", "smem_st_meas"])
    for exp in run.experiments:
        for v in exp.variants:
            w.writerow([exp.name, v.variant, v.ok, v.median_ms, v.min_ms, v.max_ms, v.gbps, v.pct_copy, v.pct_peak, v.gflops,
                        v.error, predicted_per_request(v, "load"), predicted_per_request(v, "store"),
                        measured_per_request(v, "load"), measured_per_request(v, "store")])
    return buf.getvalue()


def plot_bandwidth(exp: ExperimentRecord, path: str | Path, copy_gbps: float | None = None) -> bool:
    """The experiment's chart: GB/s (or TFLOP/s where it computes, see Experiment.metric) per variant,
    grouped by case where the experiment sweeps one variant over several (Experiment.case_columns),
    or the experiment's own chart (Experiment.bar_plot). False where there is nothing to draw."""
    experiment = _experiment(exp.name)
    if experiment is not None:
        drawn = experiment.bar_plot(exp.variants, path, copy_gbps)
        if drawn is not None:
            return drawn
    flops = uses_flops(exp)
    value = (lambda v: v.gflops / 1000 if v.gflops else None) if flops else (lambda v: v.gbps)
    points = [(v, value(v)) for v in exp.variants if value(v)]
    if not points:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from smemlab.charts import copy_line, wrapped_title

    case_cols = tuple(experiment.case_columns) if experiment is not None else ()
    names = list(dict.fromkeys(v.variant for v, _ in points))
    grouped = bool(case_cols) and len(names) < len(points)
    if grouped:  # cases along x, one bar per variant in each
        def case_of(v):
            return tuple(v.extra.get(c) for c in case_cols)

        cases = list(dict.fromkeys(case_of(v) for v, _ in points))
        width_in = min(15.0, max(7.0, 0.9 * len(cases) + 0.25 * len(points) + 3))
    else:
        width_in = min(15.0, max(7.0, 0.5 * len(points) + 3))
    fig, ax = plt.subplots(figsize=(width_in, 5.2))
    colors = plt.get_cmap("tab10").colors
    if grouped:
        slot = 0.8 / len(names)
        for i, name in enumerate(names):
            xs, ys = [], []
            for v, y in points:
                if v.variant == name:
                    xs.append(cases.index(case_of(v)) - 0.4 + slot * (i + 0.5))
                    ys.append(y)
            ax.bar(xs, ys, width=slot * 0.95, color=colors[i % len(colors)], label=name)
        labels = ["\n".join(_case_label(c, val) for c, val in zip(case_cols, case)) for case in cases]
        ax.set_xticks(range(len(cases)), labels)
        ax.set_xlabel(", ".join(column_title(exp, c) for c in case_cols))
    else:
        labels = [v.variant for v, _ in points]
        ax.bar(range(len(points)), [y for _, y in points], color="#4477aa")
        ax.set_xticks(range(len(points)), labels, rotation=40, ha="right", rotation_mode="anchor")
    ys = [y for _, y in points]
    if max(ys) / min(ys) > 100:  # a CPU baseline beside GPU kernels, an atomic-bound kernel: keep all visible
        ax.set_yscale("log")
    if copy_gbps and not flops:
        copy_line(ax, copy_gbps)
    if grouped:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    ax.set_ylabel("TFLOP/s" if flops else "effective GB/s (bytes read + written)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title(wrapped_title(f"{exp.name}: {exp.title}", width_in * 0.8))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _case_label(column: str, value) -> str:
    """One line of a case's label on the x axis: '256 bins', 'uniform', '4 KB'."""
    if value is None:
        return "-"
    if column == "bins":
        return f"{int(value):,} bins"
    if column == "smem_per_block":
        return f"{int(value) / 1024:g} KB"
    return str(value)


def _detail_plot(exp: ExperimentRecord, path: Path) -> bool:
    """The experiment's own plot (Experiment.detail_plot), where the experiment still exists."""
    from smemlab.errors import UserError
    from smemlab.experiments import get

    try:
        experiment = get(exp.name)
    except UserError:  # a record from a version with other experiments
        return False
    return experiment.detail_plot(exp.variants, path)


def write_all(run: RunRecord, folder: str | Path) -> Path:
    """results/-style output: run.json, run.csv, one PNG per experiment (and bench.png), and report.md."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    run.save(folder / "run.json")
    (folder / "run.csv").write_text(to_csv(run))
    plots = {}
    for exp in run.experiments:
        name = f"{exp.name}.png"
        if plot_bandwidth(exp, folder / name, run.copy_gbps):
            plots[exp.name] = name
        detail = f"{exp.name}-detail.png"
        if _detail_plot(exp, folder / detail):
            plots[f"{exp.name}-detail"] = detail
    if run.bench:
        from smemlab.bench.render import plot, plot_latency

        gpu = run.provenance.get("gpu", {}).get("name", "GPU")
        if plot(run.bench, folder / "bench.png", gpu):
            plots["bench"] = "bench.png"
        if plot_latency(run.bench, folder / "bench-latency.png", gpu):
            plots["bench-latency"] = "bench-latency.png"
    report = folder / "report.md"
    report.write_text(markdown(run, plots))
    return report
