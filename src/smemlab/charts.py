"""Small helpers the charts share (report.py's and the experiments' own); matplotlib is imported by
the caller, only when a chart is drawn."""

from __future__ import annotations

import textwrap


def wrapped_title(text: str, width_in: float) -> str:
    """A title wrapped to a width in inches (about 11 characters an inch at 12 points), so that
    no line runs past the figure's edges."""
    return "\n".join(textwrap.wrap(text, max(30, int(width_in * 11)), break_on_hyphens=False))


def copy_line(ax, copy_gbps: float) -> None:
    """The copy kernel's bandwidth as a dashed line, named on the line itself (no legend needed)."""
    from matplotlib.transforms import blended_transform_factory

    ax.axhline(copy_gbps, color="#cc3311", linestyle="--", linewidth=1.2)
    ax.annotate(f"copy kernel, {copy_gbps:,.0f} GB/s", (0.995, copy_gbps), xytext=(0, 3), textcoords="offset points",
                xycoords=blended_transform_factory(ax.transAxes, ax.transData), color="#cc3311", fontsize=8,
                ha="right", va="bottom")
    ax.set_ylim(top=max(ax.get_ylim()[1], copy_gbps * (1.6 if ax.get_yscale() == "log" else 1.08)))
