"""The library benchmark's rows (smemlab.records.BenchRow) as Markdown and charts.

Shared by `smemlab bench` and the recorded run's report; every figure comes from the rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from smemlab.bench.goals import tally, text
from smemlab.records import BenchRow

OURS = ("smemlab (torch)", "smemlab (cupy)")


def _speed(row: BenchRow) -> str:
    if row.gbps is not None:
        return f"{row.gbps:,.0f} GB/s"
    if row.tflops is not None:
        return f"{row.tflops:.2f} TFLOP/s"
    return "-"


def _us(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def goals_line(rows: list[BenchRow]) -> str:
    t = tally(rows)
    return f"Goals met: {t['met']} of {sum(t.values())} ({t['missed']} missed, {t['not judged']} not judged)."


def _families(rows: list[BenchRow]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for r in rows:
        key = (r.op, r.family or "")
        if key[1] and key not in out:
            out.append(key)
    return out


def _baselines(rows: list[BenchRow], framework: str) -> list[BenchRow]:
    """The rows of what users call instead, called on `framework`'s arrays (not smemlab's own)."""
    return [r for r in rows if r.framework == framework and not r.impl.startswith("smemlab")]


def crossovers(rows: list[BenchRow]) -> list[dict[str, Any]]:
    """For each sweep (op, family) and each way of calling smemlab (torch tensors, CuPy arrays): the
    smallest size from which smemlab's one-call latency is below every baseline called the same way
    at that size and every larger one. `size` None: at no size of the sweep; `case`: its label."""
    out = []
    for op, fam in _families(rows):
        sweep = [r for r in rows if r.op == op and r.family == fam and r.ok]
        for ours in OURS:
            framework = ours[len("smemlab ("):-1]
            sizes = sorted({r.size for r in sweep if r.impl == ours})
            if not sizes:
                continue
            wins = {}
            for s in sizes:
                at = [r for r in sweep if r.size == s]
                mine = next(r for r in at if r.impl == ours)
                theirs = _baselines(at, framework)
                wins[s] = bool(theirs) and all(mine.latency_us < r.latency_us for r in theirs)
            first = None
            for s in reversed(sizes):
                if not wins[s]:
                    break
                first = s
            case = next((r.case for r in sweep if r.size == first), None) if first is not None else None
            out.append({"op": op, "family": fam, "impl": ours, "size": first, "case": case,
                        "all": first == sizes[0]})
    return out


def crossover_text(c: dict[str, Any]) -> str:
    if c["size"] is None:
        return "slower than a baseline at the largest size"
    return "fastest at every size" if c["all"] else f"fastest from {c['case']}"


def markdown_lines(rows: list[BenchRow], plots: dict[str, str] | None = None) -> list[str]:
    out = [
        "## Library benchmark (`smemlab bench`)", "",
        "smemlab.ops against what users have today, every output verified before it is timed, every "
        "implementation on one stream. `latency`: one call at a time from Python, host path included "
        "(each call followed by a synchronize, timed alone, in runs of calls to one implementation as a user's "
        "loop makes them; median, min-max). `back-to-back`: calls in a row "
        "between CUDA events, per call (the host path overlaps the GPU). Speed and `of memcpy` come from the "
        "back-to-back time: bytes read + written once each, against cudaMemcpyAsync device-to-device moving "
        "the same bytes in the same run.", "",
        goals_line(rows), "",
    ]
    cross = crossovers(rows)
    if cross:
        out += ["Where smemlab is the fastest, one call at a time (against the baselines called the same way):", ""]
        out += [f"- {c['op']} {c['family']}, {c['impl']}: {crossover_text(c)}" for c in cross]
        out.append("")
    if plots and "bench-latency" in plots:
        out += [f"![latency against size]({plots['bench-latency']})", ""]
    out += ["| op | case | implementation | latency us (min-max) | back-to-back us | speed | of memcpy | goals |",
            "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r.ok:
            goals = "; ".join(text(t) for t in r.targets or [])
            out.append(f"| {r.op} | {r.case} | {r.impl} | FAILED: {r.error} | | | | {goals} |")
            continue
        lat = f"{_us(r.latency_us)} ({_us(r.latency_min_us)}-{_us(r.latency_max_us)})"
        copy = f"{r.vs_copy:.2f}" if r.vs_copy is not None else "-"
        goals = "; ".join(text(t) for t in r.targets or []).replace("missed", "**missed**")
        note = f" ({r.note})" if r.note else ""
        out.append(f"| {r.op} | {r.case} | {r.impl}{note} | {lat} | {_us(r.median_ms * 1e3)} | "
                   f"{_speed(r)} | {copy} | {goals} |")
    out.append("")
    if plots and "bench" in plots:
        out += [f"![throughput]({plots['bench']})", ""]
    return out


def latency_table(rows: list[BenchRow]) -> list[str]:
    """The README's per-call table: for each sweep, smemlab and the baselines of each framework at
    each size (microseconds one call at a time), then where smemlab becomes the fastest."""
    out = ["| op | case | smemlab (torch) | best torch | smemlab (cupy) | best CuPy |", "|---|---|---|---|---|---|"]
    for op, fam in _families(rows):
        sweep = [r for r in rows if r.op == op and r.family == fam and r.ok]
        for case in dict.fromkeys(r.case for r in sweep):
            at = [r for r in sweep if r.case == case]
            cells = []
            for fw in ("torch", "cupy"):
                mine = next((r for r in at if r.impl == f"smemlab ({fw})"), None)
                best = min(_baselines(at, fw),
                           key=lambda r: r.latency_us, default=None)
                cells.append(f"{_us(mine.latency_us)} us" if mine else "-")
                cells.append(f"{_us(best.latency_us)} us ({best.impl})" if best else "-")
            out.append(f"| {op} | {case} | " + " | ".join(cells) + " |")
    return out


def goal_table(rows: list[BenchRow]) -> list[str]:
    """One Markdown row per case with throughput goals: smemlab's speed, the best baseline's, and each
    goal as measured. (The README's library table is this, rendered from results/run.json.)"""
    out = ["| op | case | smemlab | best baseline | goals (measured) |", "|---|---|---|---|---|"]
    for r in rows:
        ts = [t for t in r.targets or [] if t.get("kind") != "latency"]
        if not ts:
            continue
        others = [o for o in rows if (o.op, o.case) == (r.op, r.case) and o.ok
                  and o.impl != "cudaMemcpy" and not o.impl.startswith("smemlab")]
        best = min(others, key=lambda o: o.median_ms, default=None)
        ours = (_speed(r) + (f", {r.vs_copy:.2f} of memcpy" if r.vs_copy is not None else "")) if r.ok \
            else "FAILED"
        base = f"{best.impl}: {_speed(best)}" if best else "-"
        out.append(f"| {r.op} | {r.case} | {ours} | {base} | {'; '.join(text(t) for t in ts)} |")
    return out


def _axes(n: int, ncols: int, width: float, height: float):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False, layout="constrained")
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return plt, fig, axes.flat


COLORS = {"smemlab (torch)": "#117733", "smemlab (cupy)": "#44bb99", "cudaMemcpy": "#888888"}


def plot_latency(rows: list[BenchRow], path: str | Path, device: str) -> bool:
    """Latency of one call against size, log-log, one panel per sweep, one line per implementation."""
    fams = _families(rows)
    if not fams:
        return False
    plt, fig, axes = _axes(len(fams), 2 if len(fams) > 1 else 1, 6.2, 3.6)
    palette = ["#4477aa", "#ee6677", "#aa3377", "#ccbb44", "#66ccee", "#bbbbbb"]
    for ax, (op, fam) in zip(axes, fams):
        sweep = [r for r in rows if r.op == op and r.family == fam and r.ok]
        others = iter(palette)
        for impl in dict.fromkeys(r.impl for r in sweep if r.impl != "cudaMemcpy"):
            pts = sorted((r.size, r.latency_us) for r in sweep if r.impl == impl)
            ours = impl.startswith("smemlab")
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3.5,
                    linewidth=2.2 if ours else 1.3, color=COLORS.get(impl) or next(others, "#333333"), label=impl)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("multiply-adds (M*N*K)" if op == "matmul" else "elements" if "bins" not in fam else "keys")
        ax.set_ylabel("latency per call (us)")
        ax.set_title(f"{op}, {fam}", fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    fig.suptitle(f"smemlab bench on {device}: one call at a time from Python, host path included", fontsize=11)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot(rows: list[BenchRow], path: str | Path, device: str) -> bool:
    """Throughput bars (GB/s or TFLOP/s) for every case with a throughput goal; False if none timed."""
    cases: list[tuple[str, str]] = []
    for r in rows:
        key = (r.op, r.case)
        if key not in cases and any(t.get("kind") != "latency" for t in r.targets or []):
            cases.append(key)
    per_case = [[r for r in rows if (r.op, r.case) == key and r.ok and (r.gbps or r.tflops)]
                for key in cases]
    pairs = [(key, sel) for key, sel in zip(cases, per_case) if sel]
    if not pairs:
        return False
    tallest = max(len(sel) for _, sel in pairs)
    plt, fig, axes = _axes(len(pairs), 2 if len(pairs) > 1 else 1, 7.0, 0.9 + 0.24 * tallest)
    for ax, ((op, case), sel) in zip(axes, pairs):
        vals = [r.gbps if r.gbps is not None else r.tflops for r in sel]
        unit = "GB/s" if sel[0].gbps is not None else "TFLOP/s"
        colors = [COLORS.get(r.impl, "#33aa77" if r.impl.startswith("smemlab") else "#4477aa") for r in sel]
        ax.barh([r.impl for r in sel], vals, color=colors)
        for i, v in enumerate(vals):
            ax.text(v, i, f" {v:,.0f}" if v >= 10 else f" {v:.1f}", va="center", fontsize=8)
        ax.set_title(f"{op}: {case} ({unit}, back-to-back)", fontsize=9, loc="left")
        ax.tick_params(labelsize=8)
        ax.set_xlim(0, max(vals) * 1.18)
        ax.invert_yaxis()
    fig.suptitle(f"smemlab bench on {device}: throughput where the goals are set", fontsize=11)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
