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
    heights = [0.5 + 0.28 * len(sel) for sel in per_case]
    fig, axes = plt.subplots(len(cases), 1, figsize=(8, 0.6 + sum(heights)), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    for ax, (op, case), sel in zip(axes[:, 0], cases, per_case):
        vals = [r["gbps"] if r.get("gbps") is not None else r["tflops"] for r in sel]
        unit = "GB/s" if sel[0].get("gbps") is not None else "TFLOP/s"
        colors = ["#888888" if r["impl"] == "copy kernel" else "#33aa77" if r["impl"] == "smemlab" else "#4477aa"
                  for r in sel]
        ax.barh([r["impl"] for r in sel], vals, color=colors)
        for i, v in enumerate(vals):
            ax.text(v, i, f" {v:,.0f}" if v >= 10 else f" {v:.1f}", va="center", fontsize=7)
        ax.set_title(f"{op}: {case} ({unit})", fontsize=8, loc="left")
        ax.tick_params(labelsize=7)
        ax.invert_yaxis()
    fig.suptitle(f"smemlab bench on {device}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
