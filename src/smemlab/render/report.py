"""Reports from a RunRecord: terminal tables, Markdown and CSV (the charts: smemlab.render.charts).

Every figure comes from the record; nothing here measures, derives or invents a number, and
nothing here imports an experiment. A table follows the book's tables (time, and the counters that
explain it), plus GB/s and % of the run's copy (or FLOP/s, for an experiment that computes rather
than moves: the record's metric), the limit that binds each variant (smemlab.limits, stored by
smemlab.derive), and the experiment's own columns under the titles the record gives them.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import Any

from smemlab.render.charts import detail_chart, plot_bandwidth
from smemlab.counters import (bank_mismatch, global_mismatch, measured_global_per_request, measured_per_request,
                              predicted_global_per_request, predicted_per_request)
from smemlab.limits import NOT_MEASURED, SHARE_OF
from smemlab.records import ExperimentRecord, RunRecord


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


def binding_cell(limits: dict[str, Any]) -> str:
    """'shared memory 74%': the limit that binds and the share of the time it alone would take;
    'none (launch 49%)' where no limit takes half; '-' where the variant has no time."""
    if not limits:
        return "-"
    largest = limits.get("largest")
    if limits.get("binding") == NOT_MEASURED or largest is None:
        return NOT_MEASURED
    # whole percents, rounded down, so that a share just below half never shows as 50% beside "none"
    share = f"{largest} {math.floor(100 * limits[SHARE_OF[largest]] + 1e-9):d}%"
    return share if limits["binding"] == largest else f"none ({share})"


def _tflops(gflops: float | None) -> str:
    return _fmt(gflops / 1000 if gflops else gflops)


def rows(exp: ExperimentRecord) -> tuple[list[str], list[list[str]], list[list[bool]]]:
    """Header, formatted cells, and which cells to flag (a bank-model mismatch, a failure)."""
    profiled = any(v.counters for v in exp.variants)
    flops = exp.uses_flops()
    header = ["variant", "verified", "time ms (min-max)"] + (["TFLOP/s"] if flops else ["GB/s", "% copy", "% peak"])
    limited = profiled and any(v.limits for v in exp.variants)
    if limited:
        header += ["binding limit"]
    header += ["smem ld wf/req pred", "smem st wf/req pred"]
    isolated = any(v.bank_counters for v in exp.variants)
    if profiled:
        header += ["smem ld meas", "smem st meas"]
        if isolated:
            header += ["smem ld at size", "smem st at size"]
    declared = _global_declared(exp)
    if declared or profiled:  # global sectors per request: predicted (where declared) beside measured
        for op in ("ld", "st"):
            header += ([f"g{op} sectors/req pred"] if declared else []) + ([f"g{op} sectors/req"] if profiled else [])
    header += [exp.column_title(c) for c in exp.columns]
    table, flags = [], []
    for v in exp.variants:
        time = "-" if v.median_ms is None else f"{v.median_ms:.4g} ({v.min_ms:.3g}-{v.max_ms:.3g})"
        skipped = not v.ok and not v.failure
        verified = "yes" if v.ok else ("skipped" if skipped else "FAILED" if "verification" in v.failure else "error")
        cells = [v.variant, verified, time]
        cells += [_tflops(v.gflops)] if flops else [_fmt(v.gbps), _fmt(v.pct_copy), _fmt(v.pct_peak)]
        if limited:
            cells.append(binding_cell(v.limits))
        flag = [False, not v.ok and not skipped] + [False] * (len(cells) - 2)
        cells += [_fmt(predicted_per_request(v, "load")), _fmt(predicted_per_request(v, "store"))]
        flag += [False, False]
        if profiled:
            cells += [_fmt(measured_per_request(v, "load")), _fmt(measured_per_request(v, "store"))]
            flag += [bank_mismatch(v, "load"), bank_mismatch(v, "store")]
            if isolated:
                cells += [_fmt(measured_per_request(v, "load", False)), _fmt(measured_per_request(v, "store", False))]
                flag += [False, False]
        for op in ("load", "store"):
            if declared:
                cells.append(_fmt(predicted_global_per_request(v, op)))
                flag.append(False)
            if profiled:
                cells.append(_fmt(measured_global_per_request(v, op)))
                flag.append(global_mismatch(v, op))
        for col in exp.columns:
            cells.append(_fmt(v.extra.get(col)))
            flag.append(False)
        table.append(cells)
        flags.append(flag)
    return header, table, flags


def _global_declared(exp: ExperimentRecord) -> bool:
    """True where a variant holds declared global accesses (none in a record from before them)."""
    return any(v.global_accesses for v in exp.variants)


def failures(exp: ExperimentRecord) -> list[str]:
    """Why a variant failed, or why it was skipped on this GPU; why the run stopped before the experiment."""
    lines = [f"{v.variant}: {v.failure or v.check}" for v in exp.variants if not v.ok and (v.failure or v.check)]
    return lines + ([f"stopped: {exp.stopped}"] if exp.stopped else [])


def ceilings_text(run: RunRecord) -> str | None:
    """What the binding limits are set against, each with where it comes from; None where the
    record was not derived."""
    c = run.ceilings
    if not c:
        return None

    def figure(value, fmt: str) -> str:
        return "not measured" if value is None else fmt.format(value)

    clock = figure(c.get("sm_clock_mhz"), "{:,.0f} MHz")
    return (f"DRAM {figure(c.get('dram_gbps'), '{:,.0f} GB/s')} ({c.get('dram_source')}); shared memory one wavefront "
            f"per SM per cycle, {c.get('sms') or '?'} SMs at {clock} ({c.get('sm_clock_source')}); launch floor "
            f"{figure(c.get('launch_floor_ms') and c['launch_floor_ms'] * 1e3, '{:.1f} us')} ({c.get('launch_floor_source')})")


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
                  + (f"; {copy_words(run)[0]} {run.copy_gbps:,.0f} GB/s" if run.copy_gbps else ""))
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
    limits = ceilings_text(run)
    if limits:
        console_.print(f"binding limits set against: {limits}")


def copy_words(run: RunRecord) -> tuple[str, str]:
    """What the run's copy figure timed, bare and in a sentence: ("copy kernel", "the copy kernel")
    in a record from before the runner timed cudaMemcpyAsync."""
    if run.copy_by == "cudaMemcpy":
        return ("cudaMemcpyAsync device to device",) * 2
    return run.copy_by, f"the {run.copy_by}"


def _time_words(run: RunRecord) -> str:
    """How the variants' times were taken: per launch over samples of launches back to back, or, in a
    record from before (no variant's `batch` recorded), one launch a sample."""
    if any(v.batch for exp in run.experiments for v in exp.variants):
        return ("per launch, the median over the timed samples, each of launches back to back between CUDA events "
                "(about a millisecond of them, or one where a launch takes longer; host work: one call a sample)")
    return "the median of the timed launches"


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
        f"- {copy_words(run)[0]} in this run: {run.copy_gbps:,.0f} GB/s (bytes read + written)" if run.copy_gbps
        else f"- {copy_words(run)[0]}: not measured",
        f"- hardware counters: {run.profile_status}",
    ]
    if ceilings_text(run):
        out.append(f"- binding limits set against: {ceilings_text(run)}")
    out += [
        "",
        f"Columns: time is {_time_words(run)} (min-max); GB/s counts bytes read and written once each "
        f"(% copy: of {copy_words(run)[1]} in this run, % peak: of the datasheet's memory bandwidth); TFLOP/s counts "
        "2 FLOPs per multiply-add; "
        "`smem ld/st wf/req pred` is the bank model's prediction of shared wavefronts per request; `smem ld/st meas` "
        "is Nsight Compute's (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st / smsp__sass_inst_executed_op_shared_ld/st), "
        "taken at a few blocks where the experiment has a bank-check size, and `at size` at the run's size, where loads "
        "also pay for arbitration with other warps' traffic; **(!)** marks a prediction the counters contradict.",
    ]
    if any(_global_declared(exp) for exp in run.experiments):
        out[-1] += (" `gld/gst sectors/req pred` is the sector rules' prediction (smemlab.banks.sectors, the rules "
                    "`smemlab analyze` applies) of global sectors per request from the variant's declared loads and "
                    "stores, each weighed by how often a warp runs it; `gld/gst sectors/req` is Nsight Compute's "
                    "(l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st / l1tex__t_requests_..., the whole launch); `-` "
                    "where a variant declares none, or not all, of its kernel's global accesses; **(!)** marks a "
                    "prediction the counters contradict here too.")
    if any(v.limits for exp in run.experiments for v in exp.variants):
        out[-1] += (" `binding limit`: of DRAM (the bytes Nsight Compute saw cross DRAM, at the DRAM figure above), shared "
                    "memory (the shared load and store wavefronts at one per SM per cycle) and launch (the launch floor "
                    "above), the one that alone would take the largest share of the time, with that share, where it is at "
                    "least half; `none` where none of the three takes half (latency, atomics, stores that stay in L2 and "
                    "instruction issue are not among them); `not measured` where the variant has no counters.")
    out.append("")
    for exp in run.experiments:
        header, table, flags = rows(exp)
        out += [f"## {exp.name}: {exp.title}", "", f"Source: {exp.seed}. Size: {' x '.join(map(str, exp.size))}.", ""]
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
        from smemlab.render.bench import markdown_lines

        out += markdown_lines(run.bench, plots)
    return "\n".join(out)


def to_csv(run: RunRecord) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    declared = any(_global_declared(exp) for exp in run.experiments)
    w.writerow(["experiment", "variant", "ok", "median_ms", "min_ms", "max_ms", "gbps", "pct_copy", "pct_peak", "gflops",
                "error", "smem_ld_pred", "smem_st_pred", "smem_ld_meas", "smem_st_meas", "binding_limit", "dram_share",
                "smem_share", "launch_share"]
               # the global predictions' columns where the record holds them (a record from before: as it was)
               + (["gld_pred", "gld_meas", "gst_pred", "gst_meas"] if declared else []))
    for exp in run.experiments:
        for v in exp.variants:
            row = [exp.name, v.variant, v.ok, v.median_ms, v.min_ms, v.max_ms, v.gbps, v.pct_copy, v.pct_peak, v.gflops,
                   v.error, predicted_per_request(v, "load"), predicted_per_request(v, "store"),
                   measured_per_request(v, "load"), measured_per_request(v, "store"), v.limits.get("binding"),
                   v.limits.get("dram_share"), v.limits.get("smem_share"), v.limits.get("launch_share")]
            if declared:
                row += [f(v, op) for op in ("load", "store") for f in (predicted_global_per_request, measured_global_per_request)]
            w.writerow(row)
    return buf.getvalue()


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
        if detail_chart(exp, folder / detail):
            plots[f"{exp.name}-detail"] = detail
    if run.bench:
        from smemlab.render.bench import plot, plot_latency

        gpu = run.provenance.get("gpu", {}).get("name", "GPU")
        if plot(run.bench, folder / "bench.png", gpu):
            plots["bench"] = "bench.png"
        if plot_latency(run.bench, folder / "bench-latency.png", gpu):
            plots["bench-latency"] = "bench-latency.png"
    report = folder / "report.md"
    report.write_text(markdown(run, plots))
    return report
