"""A Report as the per-line table, the totals, fix hints, a bank map, and the one JSON object."""

from __future__ import annotations

import numpy as np

from smemlab.analyze import render_memory as memory
from smemlab.analyze.ledger import MODELLED, LineStats, Site, is_modelled
from smemlab.analyze.session import EXTRA_KINDS, KINDS, Report

ATOMIC_NOTE = ("shared-memory atomics: an ATOMS costs the most active lanes on one bank (lanes on one word count "
               "apart); where ptxas made ATOMS.POPC.INC (atomicAdd of 1, result unused) it costs the most distinct "
               "words in one bank: the rule measured on an H200 for 4-byte atomics (tools/truth/atomic_truth)")
LOOP_NOTE = ("64-bit and float atomicAdd (and 64-bit and/or/xor/min/max) on shared memory are compare-and-swap "
             "loops in SASS: each execution's LDS counts as a load of the line, its ATOMS.CAST.SPIN as 2 atomic "
             "wavefronts per phase; trips are those of each warp alone (with several warps on the same words the "
             "GPU's depend on timing, usually more)")
MAPPED = ("load", "store")  # kinds with a bank map (the load/store model's phases)
REQUESTS_NOTE = ("requests count warps with at least one active lane; Nsight Compute also counts warps whose "
                 "predicate is off everywhere where ptxas turned a short branch into predicated code (at zero "
                 "wavefronts), so its instruction counts can be higher")


def _modelled(ls: LineStats) -> bool:
    return is_modelled(ls.kind, ls.bytes)


def _extra_modelled(r: Report, kind: str) -> bool:
    """Every executed site of an extra kind (cp.async) has its wavefronts modelled."""
    return all(is_modelled(s.kind, s.size) for s in r.sites if s.kind == kind and s.issued)


def line_dict(r: Report, ls: LineStats) -> dict:
    modelled = _modelled(ls)
    d = {"file": r.file_name(ls.file), "line": ls.line, "source": r.source_text(ls.file, ls.line), "op": ls.kind,
         "bytes": ls.bytes, "requests": ls.requests,
         "wavefronts": ls.wavefronts if modelled else None,
         "ideal_wavefronts": ls.ideal if modelled else None,
         "conflict_degree": ls.degree if modelled else None,
         "instructions": ls.instructions, "executed": ls.issued}
    if ls.calls:  # inlined from a header or a helper: the kernel's own lines that called it
        d["called_from"] = [{"file": r.file_name(f), "line": n, "source": r.source_text(f, n)} for f, n in ls.calls]
    if ls.generic:
        d["generic"] = True
    if ls.remote:
        d["dsmem"] = True
        d["remote_requests"] = ls.remote
    return d


def to_json(r: Report) -> dict:
    doc = {"kernel": r.kernel, "symbol": r.symbol, "block": list(r.block), "grid": list(r.grid),
           "block_index": list(r.block_index), "cluster": list(r.cluster), "dynamic_shared": r.dynamic_shared,
           "static_shared": r.static_shared}
    for kind in KINDS:
        t = r.totals(kind)
        if kind not in MODELLED:
            t["wavefronts"] = t["ideal_wavefronts"] = None
            t["modelled"] = False
        doc[kind] = t
    for kind in EXTRA_KINDS:
        t = r.totals(kind)
        if t["requests"] or t["instructions"]:
            if not _extra_modelled(r, kind):
                t["wavefronts"] = t["ideal_wavefronts"] = None
            doc[kind] = t
    doc.update(memory.totals_json(r))
    if r.launch is not None:
        doc["launch"] = memory.launch_json(r)
    # shared and global lines in one list, worst first by excess (wavefronts or sectors beyond the ideal)
    both = [(ls, line_dict(r, ls)) for ls in r.ordered_lines()] + [(ls, memory.line_dict(r, ls))
                                                                    for ls in memory.ordered(r.memory_lines)]
    doc["lines"] = [d for _, d in sorted(both, key=lambda x: -x[0].excess)]
    doc["warp_instructions"] = r.steps
    doc["notes"] = notes(r)
    return doc


def notes(r: Report) -> list[str]:
    out = [REQUESTS_NOTE] + list(getattr(r, "chosen", []))
    if any(s.kind == "atomic" and s.atomic_rule != "spin" and s.issued for s in r.sites):
        out.append(ATOMIC_NOTE)
    if any(s.kind == "atomic" and s.atomic_rule == "spin" and s.issued for s in r.sites):
        out.append(LOOP_NOTE)
    if any(s.remote for s in r.sites):
        out.append("distributed shared memory: lanes on another block's shared memory count as remote requests, "
                   "with no wavefronts at the instruction (Nsight Compute counts none there: the other SM serves "
                   "them); the lanes on the block's own count as shared accesses, and their instruction is listed "
                   "as dsmem")
    if any(s.kind == "ldgsts" and s.issued for s in r.sites):
        out.append("cp.async copies are counted apart (op ldgsts, in neither the load nor the store totals, as "
                   "Nsight Compute counts them), by the rule measured on an H200: a 16-byte copy's quarter-warp costs "
                   "one wavefront per (global line, shared row, bits 4-5 of dst XOR src), more in the zero-filling "
                   "form; 8-byte copies go by global line, each group as a store; a 4-byte copy's lanes serialise "
                   "on their source word position within the line and on their shared bank (measured on an H100)")
    if any(s.kind == "wgmma" and s.issued for s in r.sites):
        out.append("Hopper's warpgroup MMA (wgmma, HGMMA) reads its shared-memory operands apart from the loads (op "
                   "wgmma: in neither the load nor the store totals, as Nsight Compute's load counters leave them out; "
                   "its source view lists them with the loads): one wavefront for every 128 bytes of A and B tiles, "
                   "a quarter at each warp of the warpgroup, on the line ptxas gives the HGMMA (measured on an H100)")
    if any(s.issued for s in r.memory_sites):
        out.append(memory.SECTOR_NOTE)
    if r.uncounted_spills:
        out.append(f"{len(r.uncounted_spills)} register spills of ptxas's (STL/LDL) are not counted: no rule places "
                   f"their SASS block on what the emulator ran (analyze/spills.py): "
                   + "; ".join(r.uncounted_spills[:5]) + (" ..." if len(r.uncounted_spills) > 5 else ""))
    if any(s.generic and not s.remote and s.issued for s in r.sites):
        out.append("some shared-memory traffic goes through generic pointers (LD/ST, not LDS/STS); it is counted "
                   "with the shared loads and stores")
    return out


def _conflict(ls: LineStats) -> str:
    if not _modelled(ls):
        return "-"
    return "none" if ls.degree <= 1 else f"{ls.degree}-way"


def hint(r: Report, ls: LineStats) -> str | None:
    """A plain-language fix for a conflicted line."""
    if ls.kind not in MODELLED or ls.excess <= 0:
        return None
    where = f"{r.file_name(ls.file)}:{ls.line}"
    if ls.calls:
        where = ", ".join(f"{r.file_name(f)}:{n}" for f, n in ls.calls) + f" (through {where})"
    if ls.kind == "atomic":
        return (f"{where}: shared atomics meet in one bank ({ls.degree} lanes at worst, "
                f"{ls.wavefronts / max(ls.requests, 1):.3g} wavefronts per request where 1 would do): spread the "
                f"counters (one copy per lane or per few lanes, bin-major), or aggregate the lanes that hit one word "
                f"first (__match_any_sync, then one atomicAdd of the count).")
    per = ls.wavefronts / max(ls.requests, 1)
    ideal = ls.ideal / max(ls.requests, 1)
    text = (f"{where}: a {ls.degree}-way bank conflict ({per:.3g} wavefronts per request where {ideal:.3g} would do). "
            f"Lanes of one warp read different words of one bank: ")
    if ls.bytes >= 8:
        text += (f"with {ls.bytes}-byte accesses, make the lanes of each {'half' if ls.bytes == 8 else 'quarter'}-warp "
                 f"touch consecutive addresses, or XOR-swizzle the vector index (e.g. col ^ (row % 8)).")
    else:
        text += ("pad each row of the array (e.g. tile[32][33] instead of tile[32][32]) so that a column spreads over "
                 "the banks, or XOR-swizzle the column index (tile[r][c ^ r]); `smemlab bank EXPR --suggest` finds the "
                 "least padding for a subscript.")
    return text


def line_analysis(r: Report, ls: LineStats):
    """A banks.Analysis of the line's costliest warp, for the bank-map pictures."""
    from smemlab.banks.analysis import Analysis, WarpRecord
    from smemlab.banks.model import simulate

    site: Site = ls.worst
    warp = site.worst_warp
    addr = np.full((warp + 1) * 32, -1, dtype=np.int64)
    addr[warp * 32:] = site.worst_addresses
    costs = simulate(site.worst_addresses, site.size, site.kind)
    recs = [WarpRecord(w, 0, 0, 0, 0) for w in range(warp)]
    recs.append(WarpRecord(warp, int(costs.active[0]), int(costs.wavefronts[0]), int(costs.ideal[0]),
                           int(costs.degree[0])))
    src = r.source_text(ls.file, ls.line)
    return Analysis(expr=src, array="", shape=(max(1, r.static_shared + r.dynamic_shared),), dtype="uint8",
                    element_bytes=site.size, block=r.block, op=site.kind, pad=0, active=None, bank_width=4,
                    requests=1, wavefronts=int(costs.wavefronts[0]), wavefronts_per_request=float(costs.wavefronts[0]),
                    ideal_wavefronts=int(costs.ideal[0]), per_warp=recs, addresses=addr,
                    indices=np.zeros((addr.size, 1), dtype=np.int64))


def find_line(r: Report, line: int) -> LineStats | None:
    cands = [ls for ls in r.lines if ls.line == line and ls.kind in MAPPED and ls.worst is not None
             and ls.worst.worst_addresses is not None]
    if not cands:
        return None
    main = [ls for ls in cands if ls.file == min(r.files, default=1)]
    return max(main or cands, key=lambda ls: (ls.worst.worst_wavefronts, ls.kind == "load"))


def require_line(r: Report, line: int) -> LineStats:
    from smemlab.errors import UserError

    ls = find_line(r, line) or memory.find_line(r, line)
    if ls is None:
        touching = sorted({x.line for x in r.lines if x.kind in MAPPED} | {x.line for x in r.memory_lines})
        raise UserError(f"--line {line}: no shared, global or local load or store of this kernel is on that line"
                        + (f" (lines with some: {', '.join(map(str, touching))})" if touching else ""))
    return ls


def print_report(r: Report, con, line: int | None = None, png: str | None = None, max_source: int = 60) -> None:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    blocks = r.cluster[0] * r.cluster[1] * r.cluster[2]
    emulated = (f"block {','.join(map(str, r.block_index))} emulated" if blocks == 1 else
                f"its cluster of {'x'.join(map(str, r.cluster))} blocks emulated")
    con.print(f"[bold]{escape(r.kernel)}[/]  block {'x'.join(map(str, r.block))}  grid {'x'.join(map(str, r.grid))}"
              f"  ({emulated})  shared memory {r.static_shared} B static"
              + (f" + {r.dynamic_shared} B dynamic" if r.dynamic_shared else "")
              + f"  {r.steps:,} warp-instructions")
    ordered = r.ordered_lines()
    if not ordered:
        con.print("no shared-memory access was executed")
    else:
        narrow = con.width < 110
        t = Table(title="shared-memory traffic per source line, worst first", title_justify="left",
                  box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD, padding=(0, 1) if not narrow else (0, 0, 0, 1))
        columns = [("line", "left"), ("source", "left"), ("op", "left"), ("bytes", "right"), ("requests", "right"),
                   ("wavefronts", "right"), ("ideal", "right"), ("wf/req", "right"), ("conflict", "right")]
        if narrow:  # 80 columns: the widths in the op column, short headings, no ratio (the conflict says it)
            columns = [("line", "left"), ("source", "left"), ("op", "left"), ("req", "right"), ("wf", "right"),
                       ("ideal", "right"), ("conflict", "right")]
        line_width = max(14, min(32, con.width // 4))
        for name, just in columns:
            t.add_column(name, justify=just, no_wrap=name != "source",
                         min_width=(12 if narrow else 24) if name == "source" else None,
                         max_width=line_width if name == "line" else None, overflow="fold")
        for ls in ordered:
            src = r.source_text(ls.file, ls.line)
            if len(src) > max_source:
                src = src[: max_source - 3] + "..."
            modelled = _modelled(ls)
            wf = f"{ls.wavefronts:,}" if modelled else "-"
            style = "red" if modelled and ls.excess > 0 else None
            where = left_cut(f"{r.file_name(ls.file)}:{ls.line}", line_width)
            if ls.calls:  # the kernel's own line first, the header's line it reached beneath
                where = "\n".join([left_cut(f"{r.file_name(f)}:{n}", line_width) for f, n in ls.calls[:3]]
                                  + [left_cut("└ " + f"{r.file_name(ls.file)}:{ls.line}", line_width)])
            op = ls.kind + (" dsmem" if ls.remote else "")
            req = f"{ls.requests:,}" + (f" +{ls.remote:,} remote" if ls.remote else "")
            ideal = f"{ls.ideal:,}" if modelled else "-"
            if narrow:
                t.add_row(escape(where), escape(src), f"{op} {ls.bytes}B", req, wf, ideal, _conflict(ls), style=style)
            else:
                t.add_row(escape(where), escape(src), op, str(ls.bytes), req, wf, ideal,
                          f"{ls.wavefronts / ls.requests:.3g}" if modelled and ls.requests else "-", _conflict(ls),
                          style=style)
        con.print(t)
    memory.print_table(r, con, max_source)
    tt = Table(title="kernel totals (one block)" if blocks == 1 else f"kernel totals (the cluster's {blocks} blocks)",
               title_justify="left")
    for name in ("op", "requests", "wavefronts", "ideal", "wf/req", "excess"):
        tt.add_column(name, justify="left" if name == "op" else "right")
    for kind in KINDS + EXTRA_KINDS:
        tot = r.totals(kind)
        if kind in EXTRA_KINDS and not tot["instructions"]:
            continue
        if kind in MODELLED or _extra_modelled(r, kind):
            req, wf, ideal = tot["requests"], tot["wavefronts"], tot["ideal_wavefronts"]
            tt.add_row(kind, f"{req:,}", f"{wf:,}", f"{ideal:,}", f"{wf / req:.3g}" if req else "-", f"{wf - ideal:,}")
        else:
            tt.add_row(kind, f"{tot['requests']:,}", "not modelled", "-", "-", "-")
    for row in memory.totals_rows(r):
        tt.add_row(*row)
    con.print(tt)
    memory.print_launch(r, con)
    for ls in ordered:
        h = hint(r, ls)
        if h:
            con.print(f"[yellow]fix[/] {escape(h)}")
    for ls in memory.ordered(r.memory_lines):
        h = memory.hint(r, ls)
        if h:
            con.print(f"[yellow]fix[/] {escape(h)}")
    for n in notes(r)[1:]:
        con.print(f"[dim]note: {escape(n)}[/]")
    if line is not None:
        print_line_map(r, con, line, png)


def left_cut(text: str, width: int) -> str:
    """A path cut from the left to `width` characters, so that its file name and line number stay."""
    if len(text) <= width:
        return text
    tail = text[len(text) - width + 1:]
    cut = tail.find("/")
    return "…" + (tail[cut:] if 0 <= cut < len(tail) - 8 else tail)


def print_line_map(r: Report, con, line: int, png: str | None) -> None:
    from rich.markup import escape

    from smemlab.banks.pictures import save_png, text_map
    from smemlab.errors import UserError

    require_line(r, line)
    wide = memory.find_line(r, line)
    if wide is not None:
        memory.print_sector_map(r, con, wide)
    ls = find_line(r, line)
    if ls is None:
        if png:
            raise UserError(f"--png draws a bank map: line {line} has no shared load or store")
        return
    a = line_analysis(r, ls)
    site = ls.worst
    con.print(f"[bold]{escape(r.file_name(ls.file))}:{ls.line}[/] {ls.kind} ({site.size} bytes): "
              f"[dim]{escape(r.source_text(ls.file, ls.line))}[/]")
    con.print(f"[dim]PTX: {escape(site.text)}[/]")
    con.print(text_map(a, site.worst_warp))
    if png:
        try:
            save_png(a, png, site.worst_warp, costs=False,
                     title=f"{r.file_name(ls.file)}:{ls.line} {ls.kind}  {r.source_text(ls.file, ls.line)}")
        except OSError as exc:
            raise UserError(f"--png {png}: {exc.strerror or exc}") from None
        con.print(f"bank map written to {escape(png)}")
