"""A Report in a notebook: its source beside the per-line counts as HTML (conflicted lines marked), and a
line's bank map as plain text."""

from __future__ import annotations

from html import escape

from smemlab.analyze.ledger import MODELLED
from smemlab.analyze.session import KINDS, Report

CONTEXT = 2  # source lines shown above the first and below the last line with traffic
STYLE = ("<style>.smemlab td,.smemlab th{padding:1px 6px;text-align:right;font-family:monospace;white-space:pre}"
         ".smemlab td.src{text-align:left}.smemlab tr.bad td{background:#fdd}.smemlab tr.bad td.src{color:#a00}"
         "</style>")


def bank_map(r: Report, line: int, png: str | None = None) -> str:
    from rich.text import Text

    from smemlab.analyze import render
    from smemlab.banks.pictures import save_png, text_map

    ls = render.require_line(r, line)
    a = render.line_analysis(r, ls)
    if png:
        save_png(a, png, ls.worst.worst_warp, costs=False, title=f"{r.file_name(ls.file)}:{ls.line} {ls.kind}")
    head = f"{r.file_name(ls.file)}:{ls.line} {ls.kind} ({ls.worst.size} bytes): {r.source_text(ls.file, ls.line)}"
    return head + "\n" + Text.from_markup(text_map(a, ls.worst.worst_warp)).plain


def _cells(stats) -> list[str]:
    """op, requests, wavefronts, ideal and conflict of one line's accesses (several kinds: one row each)."""
    ops, req, wf, ideal, deg = [], [], [], [], []
    for ls in stats:
        modelled = ls.kind in MODELLED
        ops.append(f"{ls.kind} {ls.bytes}B")
        req.append(f"{ls.requests:,}")
        wf.append(f"{ls.wavefronts:,}" if modelled else "-")
        ideal.append(f"{ls.ideal:,}" if modelled else "-")
        deg.append(("none" if ls.degree <= 1 else f"{ls.degree}-way") if modelled else "-")
    return ["<br>".join(c) for c in (ops, req, wf, ideal, deg)]


def html(r: Report) -> str:
    totals = "".join(f"<tr><td class=src>{k}</td><td>{t['requests']:,}</td><td>{t['wavefronts']:,}</td>"
                     f"<td>{t['ideal_wavefronts']:,}</td><td>{t['wavefronts'] - t['ideal_wavefronts']:,}</td></tr>"
                     for k in KINDS for t in [r.totals(k)] if t["requests"])
    out = [STYLE, "<div class=smemlab>",
           f"<b>{escape(r.kernel)}</b> block {'x'.join(map(str, r.block))}, grid {'x'.join(map(str, r.grid))}: "
           f"shared memory {r.static_shared} B static + {r.dynamic_shared} B dynamic, {r.steps:,} warp-instructions",
           "<table><tr><th>op</th><th>requests</th><th>wavefronts</th><th>ideal</th><th>excess</th></tr>"
           f"{totals}</table>"]
    by_file: dict[int, dict[int, list]] = {}
    for ls in r.lines:
        by_file.setdefault(ls.file, {}).setdefault(ls.line, []).append(ls)
    for f, lines in sorted(by_file.items(), key=lambda kv: -len(kv[1])):
        text = r.sources.get(f) or []
        first, last = max(1, min(lines) - CONTEXT), min(max(len(text), max(lines)), max(lines) + CONTEXT)
        out.append(f"<p><b>{escape(r.file_name(f))}</b></p><table><tr><th>line</th><th class=src>source</th>"
                   "<th>op</th><th>requests</th><th>wavefronts</th><th>ideal</th><th>conflict</th></tr>")
        for n in range(first, last + 1):
            stats = lines.get(n, [])
            bad = any(ls.kind in MODELLED and ls.excess > 0 for ls in stats)
            src = escape(text[n - 1]) if n <= len(text) else ""
            cells = "".join(f"<td>{c}</td>" for c in (_cells(stats) if stats else [""] * 5))
            out.append(f"<tr{' class=bad' if bad else ''}><td>{n}</td><td class=src>{src}</td>{cells}</tr>")
        out.append("</table>")
    if not r.lines:
        out.append("<p>no shared-memory access was executed</p>")
    out.append("</div>")
    return "\n".join(out)
