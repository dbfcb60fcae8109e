"""The charts of a recorded run, drawn from the record alone: each experiment's bar chart (GB/s, or
TFLOP/s where it computes), and the charts an experiment has of its own, keyed by its name
(OWN_BAR_CHARTS, DETAIL_CHARTS). Nothing here imports an experiment: a chart reads the variant
records' figures and the columns they hold. matplotlib is imported only when a chart is drawn.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, Sequence

from smemlab.records import ExperimentRecord
from smemlab.render.overlap_charts import overlap_chart, timeline_chart


def wrapped_title(text: str, width_in: float) -> str:
    """A title wrapped to a width in inches (about 11 characters an inch at 12 points), so that
    no line runs past the figure's edges."""
    return "\n".join(textwrap.wrap(text, max(30, int(width_in * 11)), break_on_hyphens=False))


def copy_line(ax, copy_gbps: float) -> None:
    """The run's copy bandwidth (cudaMemcpyAsync; the copy kernel in a record from before) as a dashed
    line, named on the line itself (no legend needed)."""
    from matplotlib.transforms import blended_transform_factory

    ax.axhline(copy_gbps, color="#cc3311", linestyle="--", linewidth=1.2)
    ax.annotate(f"copy, {copy_gbps:,.0f} GB/s", (0.995, copy_gbps), xytext=(0, 3), textcoords="offset points",
                xycoords=blended_transform_factory(ax.transAxes, ax.transData), color="#cc3311", fontsize=8,
                ha="right", va="bottom")
    ax.set_ylim(top=max(ax.get_ylim()[1], copy_gbps * (1.6 if ax.get_yscale() == "log" else 1.08)))


def plot_bandwidth(exp: ExperimentRecord, path: str | Path, copy_gbps: float | None = None) -> bool:
    """The experiment's chart: its own where it has one (OWN_BAR_CHARTS), else GB/s (or TFLOP/s where
    it computes: the record's metric) per variant, grouped by case where the experiment sweeps one
    variant over several (the record's case_columns). False where there is nothing to draw."""
    own = OWN_BAR_CHARTS.get(exp.name)
    if own is not None:
        return own(exp.variants, path, copy_gbps)
    flops = exp.uses_flops()
    value = (lambda v: v.gflops / 1000 if v.gflops else None) if flops else (lambda v: v.gbps)
    points = [(v, value(v)) for v in exp.variants if value(v)]
    if not points:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    case_cols = tuple(exp.case_columns)
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
        ax.set_xlabel(", ".join(exp.column_title(c) for c in case_cols))
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


def detail_chart(exp: ExperimentRecord, path: str | Path) -> bool:
    """The experiment's second chart, beside its bar chart, where it has one (DETAIL_CHARTS); False
    where it has none or the record holds nothing to draw."""
    draw = DETAIL_CHARTS.get(exp.name)
    return draw(exp.variants, path) if draw is not None else False


def occupancy_bandwidth_chart(records: Sequence[Any], path, copy_gbps: float | None) -> bool:
    """smemHeavy's bandwidth at each shared-memory size, each bar coloured by the blocks per SM that
    size leaves: the cost of occupancy. False where no size was timed."""
    heavy = [r for r in records if getattr(r, "variant", None) == "smemHeavy" and r.gbps
             and r.extra.get("smem_per_block") is not None]
    if not heavy:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = [int(r.extra.get("blocks_per_sm") or 0) for r in heavy]
    levels = sorted(set(blocks), reverse=True)
    colors = plt.get_cmap("viridis")
    fig, ax = plt.subplots(figsize=(9, 4.8))
    for level in levels:
        idx = [i for i, b in enumerate(blocks) if b == level]
        ax.bar(idx, [heavy[i].gbps for i in idx], color=colors(level / max(levels)),
               label=f"{level} block{'s' if level != 1 else ''} per SM")
    ax.set_xticks(range(len(heavy)), [f"{r.extra['smem_per_block'] / 1024:g}" for r in heavy])
    if copy_gbps:
        copy_line(ax, copy_gbps)
    ax.set_xlabel("shared memory per block (KB)")
    ax.set_ylabel("effective GB/s (bytes read + written)")
    ax.set_title("config: smemHeavy's bandwidth as each block asks for more shared memory\n"
                 "(fewer blocks fit on an SM, so fewer loads are in flight)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def occupancy_chart(records: Sequence[Any], path) -> bool:
    """Active blocks per SM against shared memory per block, one line per carveout preference.
    Returns False where the records hold no occupancy data."""
    heavy = [r for r in records if getattr(r, "variant", None) == "smemHeavy" and r.extra.get("blocks_per_sm_by_carveout")]
    if not heavy:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [r.extra["smem_per_block"] / 1024 for r in heavy]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    series = {c: [r.extra["blocks_per_sm_by_carveout"][c] for r in heavy]
              for c in heavy[0].extra["blocks_per_sm_by_carveout"]}
    names = {c: "no preference" if c == "-1" else f"carveout {c}%" for c in series}
    for c, ys in series.items():
        same = [names[o] for o in series if o != c and series[o] == ys]
        if c == "-1" and same:
            # the driver's default equals a carveout: a wide pale band under that carveout's line, so both show
            ax.step(xs, ys, where="post", color="0.6", linewidth=7, alpha=0.45, solid_capstyle="butt",
                    label=f"no preference (the same as {same[0]})")
        else:
            ax.step(xs, ys, where="post", marker="o", markersize=4, label=names[c])
    ax.set_xlabel("shared memory per block (KB)")
    ax.set_ylabel("active blocks per SM (256 threads)")
    ax.set_title("Occupancy of smemHeavy as its shared memory grows")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def layout_chart(records: Sequence[Any], path, copy_gbps: float | None) -> bool:
    """The layout experiment's time per variant, each bar labelled with the shared wavefronts per
    request the bank model predicts for its load and its store: its kernels move few bytes through
    global memory and many through shared memory, so GB/s would show nothing, time shows the banks."""
    from smemlab.counters import predicted_per_request

    points = [v for v in records if v.ok and v.median_ms]
    if not points:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width_in = min(15.0, max(7.0, 0.55 * len(points) + 3))
    fig, ax = plt.subplots(figsize=(width_in, 5.4))
    labels, colors = [], []
    for v in points:
        ld, st = predicted_per_request(v, "load"), predicted_per_request(v, "store")
        labels.append("ld {} / st {}".format(*(f"{x:g}" if x is not None else "-" for x in (ld, st))))
        colors.append("#cc3311" if max(x or 1 for x in (ld, st)) > 1 else "#4477aa")
    bars = ax.bar(range(len(points)), [v.median_ms for v in points], color=colors)
    for bar, text in zip(bars, labels):
        ax.annotate(text, (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom",
                    fontsize=7, rotation=90, xytext=(0, 2), textcoords="offset points")
    ax.set_xticks(range(len(points)), [v.variant for v in points], rotation=40, ha="right", rotation_mode="anchor")
    ax.set_ylabel("time per launch (ms)")
    ax.set_ylim(0, max(v.median_ms for v in points) * 1.3)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_title(wrapped_title("layout: time per launch; bars labelled with the bank model's shared wavefronts per "
                               "request (load / store); red where a bank conflict is predicted", width_in * 0.8))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# experiment name -> its own chart, where the bar chart of its variants does not fit it
OWN_BAR_CHARTS = {"config": occupancy_bandwidth_chart, "overlap": overlap_chart, "layout": layout_chart}
DETAIL_CHARTS = {"config": occupancy_chart, "overlap": timeline_chart}
