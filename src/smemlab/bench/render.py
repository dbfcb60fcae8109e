"""The library benchmark's rows (smemlab.bench.Row as dicts) as Markdown and as a bar chart.

Shared by `smemlab bench` and the recorded run's report; every figure comes from the rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def target_text(row: dict[str, Any]) -> str:
    """'copy >= 0.9: 1.03 met; best of torch, cupy >= 5: 2.07 MISSED' (empty without goals)."""
    parts = []
    for t in row.get("targets") or []:
        got = "not measured" if t.get("got") is None else f"{t['got']:.2f}"
        parts.append(f"{t['vs']} >= {t['want']:g}: {got} {'met' if t.get('met') else 'MISSED'}")
    return "; ".join(parts)


def _speed(row: dict[str, Any]) -> str:
    if row.get("gbps") is not None:
        return f"{row['gbps']:,.0f} GB/s"
    if row.get("tflops") is not None:
        return f"{row['tflops']:.2f} TFLOP/s"
    return "-"


def goals(rows: list[dict[str, Any]]) -> tuple[int, int]:
    """(goals met, goals set) over all rows."""
    ts = [t for r in rows for t in r.get("targets") or []]
    return sum(bool(t.get("met")) for t in ts), len(ts)


def markdown_lines(rows: list[dict[str, Any]]) -> list[str]:
    met, total = goals(rows)
    out = [
        "## Library benchmark (`smemlab bench`)", "",
        "smemlab.ops against what users have today, verified then timed in the same run (CUDA events, median). "
        "`of copy`: bandwidth over the plain float4 copy kernel's on the same bytes; `x`: that implementation's "
        "time over smemlab's (above 1: smemlab is faster); goals are issue 5's targets, checked against this run.",
        "", f"Goals met: {met} of {total}.", "",
        "| op | case | implementation | ms (min-max) | speed | of copy | x | goal |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if not r.get("ok"):
            out.append(f"| {r['op']} | {r['case']} | {r['impl']} | FAILED: {r.get('error', '')} | | | | |")
            continue
        ms = f"{r['median_ms']:.4g}" + (f" ({r['min_ms']:.4g}-{r['max_ms']:.4g})" if r.get("min_ms") is not None else "")
        copy = f"{r['vs_copy']:.2f}" if r.get("vs_copy") is not None else "-"
        x = f"{r['speedup']:.2f}" if r.get("speedup") is not None and r["impl"] != "copy kernel" else "-"
        goal = target_text(r)
        goal = goal.replace("MISSED", "**MISSED**")
        note = f" ({r['note']})" if r.get("note") else ""
        out.append(f"| {r['op']} | {r['case']} | {r['impl']}{note} | {ms} | {_speed(r)} | {copy} | {x} | {goal} |")
    out.append("")
    return out


def plot(rows: list[dict[str, Any]], path: str | Path, device: str) -> bool:
    """One bar chart a case (GB/s or TFLOP/s per implementation); False if nothing timed."""
    cases: list[tuple[str, str]] = []
    for r in rows:
        key = (r["op"], r["case"])
        if key not in cases and r.get("ok") and (r.get("gbps") or r.get("tflops")):
            cases.append(key)
    if not cases:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per_case = [[r for r in rows if (r["op"], r["case"]) == key and r.get("ok")] for key in cases]
    ncols = 2 if len(cases) > 1 else 1
    nrows = -(-len(cases) // ncols)
    tallest = max(len(sel) for sel in per_case)
    fig, axes = plt.subplots(nrows, ncols, figsize=(7 * ncols, 0.4 + (0.8 + 0.22 * tallest) * nrows), squeeze=False,
                             layout="constrained")
    for ax in axes.flat[len(cases):]:
        ax.set_visible(False)
    for ax, (op, case), sel in zip(axes.flat, cases, per_case):
        vals = [r["gbps"] if r.get("gbps") is not None else r["tflops"] for r in sel]
        unit = "GB/s" if sel[0].get("gbps") is not None else "TFLOP/s"
        colors = ["#888888" if r["impl"] == "copy kernel" else "#33aa77" if r["impl"] == "smemlab" else "#4477aa"
                  for r in sel]
        ax.barh([r["impl"] for r in sel], vals, color=colors)
        for i, v in enumerate(vals):
            ax.text(v, i, f" {v:,.0f}" if v >= 10 else f" {v:.1f}", va="center", fontsize=7)
        ax.set_title(f"{op}: {case} ({unit})", fontsize=8, loc="left")
        ax.tick_params(labelsize=7)
        ax.set_xlim(0, max(vals) * 1.15)
        ax.invert_yaxis()
    fig.suptitle(f"smemlab bench on {device}", fontsize=10)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def goal_table(rows: list[dict[str, Any]]) -> list[str]:
    """One Markdown row per case with goals: smemlab's speed, the best baseline's, and each goal
    as measured. (The README's library table is this, rendered from results/run.json.)"""
    out = ["| op | case | smemlab | best baseline | goals (measured) |", "|---|---|---|---|---|"]
    for r in rows:
        if not r.get("targets") or not r.get("ok"):
            continue
        others = [o for o in rows if (o["op"], o["case"]) == (r["op"], r["case"]) and o.get("ok")
                  and o["impl"] != "copy kernel" and not o["impl"].startswith(("smemlab", "step "))]
        best = min(others, key=lambda o: o["median_ms"], default=None)
        ours = _speed(r) + (f", {r['vs_copy']:.2f} of copy" if r.get("vs_copy") is not None else "")
        base = f"{best['impl']}: {_speed(best)}" if best else "-"
        out.append(f"| {r['op']} | {r['case']} | {ours} | {base} | {target_text(r)} |")
    return out
