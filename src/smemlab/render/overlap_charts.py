"""The `overlap` experiment's two charts, drawn from its variant records alone:

- `overlap_chart`: five panels, the host link's bandwidth against the transfer size, many small
  transfers against one grouped one, the pipeline's share of the ideal overlap per setting, the
  stencil's bandwidth for each way of staging its tile into shared memory, and the tiled matmul's
  FLOP/s for each way of staging its tiles (the records whose `part` is "matmul");
- `timeline_chart`: the traced run of the best pipeline (of those within 0.02 of the best share of
  the ideal, the one with the fewest chunks) against one stream with the same chunks, one row per
  stream, copies and kernels as bars.

Every figure is one the record holds (`link_gbps`, `of_ideal`: derived by the experiment's notes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

TRANSFERS = ("pageableH2D", "pinnedH2D", "pageableD2H", "pinnedD2H")
GROUPING = ("smallCopiesH2D", "smallCopiesGraphH2D", "groupedH2D", "mappedGatherH2D")
STEP_COLORS = {"H2D": "#4477aa", "kernel": "#ee7733", "D2H": "#228833"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _timed(records: Sequence[Any]) -> list[Any]:
    return [r for r in records if getattr(r, "ok", False) and r.median_ms]


def overlap_chart(records: Sequence[Any], path: str | Path, copy_gbps: float | None = None) -> bool:
    """The five panels; False where the record holds none of them."""
    timed = _timed(records)
    link = [r for r in timed if r.variant in TRANSFERS and r.extra.get("link_gbps")]
    grouping = [r for r in timed if r.variant in GROUPING and r.extra.get("link_gbps")]
    pipes = [r for r in timed if r.variant == "pipeline" and r.extra.get("of_ideal")]
    staged = [r for r in timed if r.extra.get("method") and r.extra.get("part") != "matmul" and r.gbps]
    staged_mm = [r for r in timed if r.extra.get("method") and r.extra.get("part") == "matmul" and r.gflops]
    if not (link or grouping or pipes or staged or staged_mm):
        return False
    plt = _pyplot()
    fig = plt.figure(figsize=(14, 14))
    grid = fig.add_gridspec(3, 2)
    _link_panel(fig.add_subplot(grid[0, 0]), link)
    _grouping_panel(fig.add_subplot(grid[0, 1]), grouping)
    _pipeline_panel(fig.add_subplot(grid[1, 0]), pipes)
    _staging_panel(fig.add_subplot(grid[1, 1]), staged, lambda r: r.gbps, "effective GB/s (bytes read + written)",
                   "1-D stencil tile staged into shared memory", "no staged stencils in this record", copy_gbps)
    side = staged_mm[0].extra.get("side", "?") if staged_mm else "?"
    _staging_panel(fig.add_subplot(grid[2, :]), staged_mm, lambda r: r.gflops / 1e3, "TFLOP/s (FP32)",
                   f"tiled matmul ({side}x{side}, FP32) tiles staged into shared memory",
                   "no staged matmul in this record")
    fig.suptitle("overlap: the host link, a stream pipeline, and asynchronous copies into shared memory")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _empty(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="0.4")
    ax.set_xticks([])
    ax.set_yticks([])


def _link_panel(ax, recs) -> None:
    if not recs:
        return _empty(ax, "no host-link sweep in this record")
    for name in TRANSFERS:
        pts = sorted((r.extra["bytes"], r.extra["link_gbps"]) for r in recs if r.variant == name)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                    linestyle="-" if "pinned" in name else "--", label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bytes per cudaMemcpyAsync")
    ax.set_ylabel("GB/s across the link")
    ax.set_title("host link: pageable vs pinned host memory")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)


def _grouping_panel(ax, recs) -> None:
    if not recs:
        return _empty(ax, "no grouping cases in this record")
    recs = sorted(recs, key=lambda r: GROUPING.index(r.variant))
    ys = [r.extra["link_gbps"] for r in recs]
    ax.bar(range(len(recs)), ys, color=["#cc3311", "#ee7733", "#4477aa", "#228833"][:len(recs)])
    for i, (r, y) in enumerate(zip(recs, ys)):
        ax.annotate(f"{r.median_ms:.3g} ms", (i, y), xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
    ax.set_xticks(range(len(recs)), [r.variant for r in recs], rotation=15, ha="right", rotation_mode="anchor")
    if max(ys) / min(ys) > 30:
        ax.set_yscale("log")
    ax.set_ylabel("GB/s across the link")
    ax.set_title(f"the same bytes: {recs[0].extra.get('case', '')} pieces, or grouped")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)


def _pipeline_panel(ax, recs) -> None:
    if not recs:
        return _empty(ax, "no pipeline in this record (or its steps alone were not timed)")
    chunks = sorted({r.extra["chunks"] for r in recs})
    streams = sorted({r.extra["streams"] for r in recs})
    slot = 0.8 / len(streams)
    colors = _pyplot().get_cmap("viridis")
    for i, s in enumerate(streams):
        xs, ys = [], []
        for r in recs:
            if r.extra["streams"] == s:
                xs.append(chunks.index(r.extra["chunks"]) - 0.4 + slot * (i + 0.5))
                ys.append(r.extra["of_ideal"])
        ax.bar(xs, ys, width=slot * 0.95, color=colors(i / max(1, len(streams) - 1)),
               label=f"{s} stream{'s' if s > 1 else ''}")
    size = {r.extra["chunks"]: r.extra.get("chunk_bytes", 0) for r in recs}
    ax.set_xticks(range(len(chunks)), [f"{c} chunks\n{size[c] / (1 << 20):.3g} MiB" for c in chunks])
    ax.axhline(1.0, color="#cc3311", linestyle="--", linewidth=1.0)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("ideal time / measured time")
    ax.set_title("pipeline: share of the ideal max(copy in + copy out, compute)")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, loc="lower right")


def _staging_panel(ax, recs, value, ylabel: str, title: str, missing: str, copy_gbps: float | None = None) -> None:
    """Bars of `value`, one a variant at one block per SM and one at as many as fit (which may
    differ between variants: the legend lists them), and the copy ceiling where given."""
    if not recs:
        return _empty(ax, missing)
    names = list(dict.fromkeys(r.variant for r in recs))
    groups = [[r for r in recs if (r.extra.get("blocks_per_sm") != 1) == full] for full in (False, True)]
    groups = [g for g in groups if g]
    slot = 0.8 / len(groups)
    for i, group in enumerate(groups):
        levels = "/".join(map(str, sorted({r.extra.get("blocks_per_sm") for r in group})))
        ax.bar([names.index(r.variant) - 0.4 + slot * (i + 0.5) for r in group], [value(r) for r in group],
               width=slot * 0.95, color=["#bbbbbb", "#4477aa"][i % 2],
               label=f"{levels} block{'s' if levels != '1' else ''} per SM")
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right", rotation_mode="anchor")
    if copy_gbps:
        from smemlab.render.charts import copy_line

        copy_line(ax, copy_gbps)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, loc="lower right")


def timeline_chart(records: Sequence[Any], path: str | Path) -> bool:
    """The best pipeline's timeline under the one-stream run of the same chunks; False where the
    record holds no traced pipeline with its share of the ideal."""
    pipes = [r for r in _timed(records) if r.variant == "pipeline" and r.extra.get("timeline") and r.extra.get("of_ideal")]
    if not pipes:
        return False
    # of the settings within 0.02 of the best share, the one with the fewest chunks: its bars stay readable
    top = max(r.extra["of_ideal"] for r in pipes)
    best = min((r for r in pipes if r.extra["of_ideal"] >= top - 0.02), key=lambda r: (r.extra["chunks"], -r.extra["of_ideal"]))
    one = next((r for r in pipes if r.extra["streams"] == 1 and r.extra["chunks"] == best.extra["chunks"]), None)
    return _draw_timelines([best] if one is None or one is best else [one, best], path)


def _draw_timelines(shown: Sequence[Any], path: str | Path) -> bool:
    plt = _pyplot()
    rows = [max(e[0] for e in r.extra["timeline"]) + 1 for r in shown]
    fig, axes = plt.subplots(len(shown), 1, figsize=(13, 1.6 + 0.45 * sum(rows) + 1.0 * len(shown)), squeeze=False,
                             gridspec_kw={"height_ratios": rows})
    end = max(e[3] for r in shown for e in r.extra["timeline"])
    for ax, r, n in zip(axes[:, 0], shown, rows):
        for step, color in STEP_COLORS.items():
            for stream in range(n):
                bars = [(e[2], e[3] - e[2]) for e in r.extra["timeline"] if e[0] == stream and e[1] == step]
                if bars:
                    ax.broken_barh(bars, (stream - 0.38, 0.76), facecolors=color, edgecolor="white", linewidth=0.3,
                                   label=step if stream == 0 else None)
        ax.set_yticks(range(n), [f"stream {i}" for i in range(n)])
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0, end * 1.01)
        ax.set_title(f"{r.extra['case']}: {r.median_ms:.3g} ms (median), {r.extra['of_ideal']:.2f} of the ideal "
                     f"{r.extra.get('ideal_ms', 0):.3g} ms", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_axisbelow(True)
    axes[0, 0].legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), fontsize=8, ncol=3, frameon=False)
    axes[-1, 0].set_xlabel("ms from the start of the traced run (CUDA events before and after each step)")
    fig.suptitle("pipeline timeline: copy in, kernel, copy out per chunk")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
