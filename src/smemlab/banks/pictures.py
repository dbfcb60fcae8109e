"""Bank maps: one row per wavefront, one column per bank, each cell the lane whose word it serves.

The same grid feeds the terminal (rich) and the PNG (matplotlib, imported only when a PNG is asked
for). A cell marked `+` serves one word to several lanes (a broadcast); lanes of a 1 or 2-byte access
that share a word appear once; an 8 or 16-byte access fills 2 or 4 neighbouring banks of a row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smemlab.banks.analysis import Analysis
from smemlab.banks.model import BANKS, WARP, phases_of


@dataclass
class BankGrid:
    warp: int
    lanes: np.ndarray  # (wavefronts, 32): first lane served by each bank in each wavefront, -1 idle
    shared: np.ndarray  # (wavefronts, 32): True where the word goes to more than one lane
    words: np.ndarray  # (wavefronts, 32): the word index served, -1 idle
    phase_rows: list[tuple[int, int, int, int]]  # (phase, first lane, last lane, rows)


def worst_warp(a: Analysis) -> int:
    return max(a.per_warp, key=lambda w: (w.wavefronts, -w.warp)).warp if a.per_warp else 0


def bank_grid(a: Analysis, warp: int | None = None) -> BankGrid:
    warp = worst_warp(a) if warp is None else warp
    addr = np.full(WARP, -1, dtype=np.int64)
    chunk = a.addresses[warp * WARP:(warp + 1) * WARP]
    addr[: chunk.size] = chunk
    act = addr >= 0
    n_phases, lane_phase = phases_of(addr[None, :], act[None, :], a.element_bytes, a.op, a.bank_width)
    n_phases, lane_phase = int(n_phases[0]), lane_phase[0]
    per = max(1, a.element_bytes // a.bank_width)
    rows_l, rows_s, rows_w, phase_rows = [], [], [], []
    for p in range(n_phases):
        # bank -> {word: [lanes]}, in lane order, so the first lane to ask sets the pass order
        banks: list[dict[int, list[int]]] = [dict() for _ in range(BANKS)]
        for lane in np.flatnonzero(act & (lane_phase == p)):
            for k in range(per):
                word = int(addr[lane] // a.bank_width + k)
                banks[word % BANKS].setdefault(word, []).append(int(lane))
        depth = max((len(b) for b in banks), default=0)
        lanes_in_phase = np.flatnonzero(lane_phase == p)
        phase_rows.append((p, int(lanes_in_phase[0]), int(lanes_in_phase[-1]), depth))
        for row in range(depth):
            l, s, w = np.full(BANKS, -1), np.zeros(BANKS, bool), np.full(BANKS, -1)
            for b, words in enumerate(banks):
                if row < len(words):
                    word, who = list(words.items())[row]
                    l[b], s[b], w[b] = who[0], len(set(who)) > 1, word
            rows_l.append(l), rows_s.append(s), rows_w.append(w)
    empty = np.zeros((0, BANKS), dtype=np.int64)
    return BankGrid(warp, np.array(rows_l) if rows_l else empty, np.array(rows_s) if rows_s else empty.astype(bool),
                    np.array(rows_w) if rows_w else empty, phase_rows)


def text_map(a: Analysis, warp: int | None = None, max_rows: int = 32) -> str:
    """The bank map as rich markup: rows are wavefronts, columns banks, cells lanes."""
    g = bank_grid(a, warp)
    rec = a.per_warp[g.warp] if a.per_warp else None
    n = rec.wavefronts if rec else 0
    out = [f"[bold]bank map of warp {g.warp}[/]: {n} wavefront{'' if n == 1 else 's'}, "
           f"rows = wavefronts, columns = banks 0-31, cells = lane ([cyan]+[/] = several lanes, one word)"]
    out.append("      " + "".join(f"{b:>3}" for b in range(BANKS)))
    row = 0
    for p, first, last, depth in g.phase_rows:
        if len(g.phase_rows) > 1:
            out.append(f"[dim]phase {p}: lanes {first}-{last}[/]")
        for i in range(depth):
            if row >= max_rows:
                more = len(g.lanes) - max_rows
                out.append(f"[dim]... {more} more wavefront{'' if more == 1 else 's'}[/]")
                return "\n".join(out)
            cells = []
            for b in range(BANKS):
                lane, shared = g.lanes[row, b], g.shared[row, b]
                if lane < 0:
                    cells.append("[dim]  .[/]")
                else:
                    colour = "cyan" if shared else ("red" if i > 0 else "green")
                    cells.append(f"[{colour}]{lane:>2}{'+' if shared else ' '}[/]")
            out.append(f"{row:>4}  " + "".join(cells))
            row += 1
    return "\n".join(out)


def save_png(a: Analysis, path: str, warp: int | None = None, title: str | None = None, costs: bool = True) -> None:
    """Two panels: the bank map of one warp, and wavefronts per warp against the ideal (`costs`
    False: the bank map alone). `title` replaces the declaration-and-expression heading."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    g = bank_grid(a, warp)
    if costs:
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.5), gridspec_kw={"width_ratios": [3, 2]})
    else:
        fig, ax1 = plt.subplots(1, 1, figsize=(8.5, 5.5))
    grid = np.where(g.lanes >= 0, g.lanes, np.nan).astype(float)
    im = ax1.imshow(grid if grid.size else np.full((1, BANKS), np.nan), aspect="auto", cmap="viridis",
                    vmin=0, vmax=WARP - 1, interpolation="nearest")
    ys, xs = np.nonzero(g.shared)
    # white with a black edge: visible on every lane colour and on the legend's white background
    ax1.scatter(xs, ys, marker="P", s=45, facecolor="white", edgecolor="black", linewidths=0.7,
                label="one word, several lanes (broadcast)")
    ax1.set_xlabel("bank")
    ax1.set_ylabel("wavefront")
    ax1.set_title(f"warp {g.warp}: which lane each bank serves, per wavefront")
    fig.colorbar(im, ax=ax1, label="lane")
    if len(xs):
        ax1.legend(loc="lower right", fontsize=8, framealpha=0.9)
    axes = [ax1]
    if costs:
        _costs_panel(ax2, a)
        axes.append(ax2)
    for ax in axes:  # whole wavefronts, banks and warps only, even with one of them
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    fig.suptitle(title or f"{a.declaration()}  {a.expr}  ({a.op}, block {'x'.join(map(str, a.block))})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _costs_panel(ax2, a: Analysis) -> None:
    warps = [w.warp for w in a.per_warp]
    ideal = [w.ideal_wavefronts for w in a.per_warp]
    over = [w.wavefronts - w.ideal_wavefronts for w in a.per_warp]
    ax2.bar(warps, ideal, color="tab:green", label="ideal (no conflict)")
    if any(over):
        ax2.bar(warps, over, bottom=ideal, color="tab:red", label="over the ideal (bank conflicts)")
    ax2.set_xlabel("warp")
    ax2.set_ylabel("wavefronts")
    per = a.wavefronts_per_request
    ax2.set_title(f"{per:g} wavefront{'' if per == 1 else 's'} per request (ideal "
                  f"{a.ideal_wavefronts / max(a.requests, 1):g})")
    ax2.set_xlim(-0.6, max(len(warps), 1) - 0.4)
    ax2.set_ylim(0, max([w.wavefronts for w in a.per_warp] + [1]) * 1.15)
    ax2.legend(loc="upper right", fontsize=8, framealpha=0.9)
