"""Global and local memory in the report: JSON fields, the per-line table, totals rows, the advice for
an uncoalesced line and the picture of which lanes touch which sectors (render.py calls these)."""

from __future__ import annotations

from smemlab.banks.coalescing import SECTOR, diagnose, lane_sectors, sector_costs
from smemlab.analyze.globalledger import EXTRA_KINDS, GLOBAL_KINDS
from smemlab.analyze.ledger import LineStats

SECTOR_NOTE = ("global and local memory: a request is a warp-instruction with an active lane; its sectors are the "
               "distinct 32-byte pieces of memory its active lanes' bytes fall in, its ideal min(sectors, ceil(active "
               "lanes x bytes / 32)), at the SASS's access widths (LDG.E.128 ...), as Nsight Compute's "
               "l1tex__t_sectors_pipe_lsu_mem_global_op_* and its source view's L2 Theoretical Sectors Global (Ideal) "
               "count them on an H200 (reductions and local memory have no ideal there; cp.async's reads count "
               "as global loads)")


def json_key(kind: str) -> str:
    return kind.replace(" ", "_")


def totals_json(r) -> dict:
    """{"global_load": {...}, "global_store": ..., "global_atomic": ...}, and the extra kinds where they occur."""
    from smemlab.banks.coalescing import LOAD_TOTALS

    out = {}
    for kind in GLOBAL_KINDS + EXTRA_KINDS:
        t = r.memory_totals(kind)
        if kind in GLOBAL_KINDS or t["instructions"]:
            out[json_key(kind)] = {k: t[k] for k in ("requests", "sectors", "ideal_sectors")}
    load = out["global_load"]
    for kind in LOAD_TOTALS[1:]:  # cp.async's reads: in Nsight Compute's global-load counters
        if json_key(kind) in out:
            for k in load:
                load[k] += out[json_key(kind)][k]
    return out


def line_dict(r, ls: LineStats) -> dict:
    d = {"file": r.file_name(ls.file), "line": ls.line, "source": r.source_text(ls.file, ls.line), "op": ls.kind,
         "bytes": ls.bytes, "requests": ls.requests, "sectors": ls.wavefronts,
         "ideal_sectors": ls.ideal,
         "instructions": ls.instructions, "executed": ls.issued}
    if ls.calls:
        d["called_from"] = [{"file": r.file_name(f), "line": n, "source": r.source_text(f, n)} for f, n in ls.calls]
    if ls.generic:
        d["generic"] = True
    why = cause(ls)
    if why is not None:
        d["cause"] = why
    return d


def cause(ls: LineStats) -> dict | None:
    """diagnose() of the line's costliest warp, where the line touches more sectors than it needs."""
    if ls.excess <= 0 or ls.worst is None or ls.worst.worst_addresses is None:
        return None
    if ls.kind.startswith("local"):  # no ideal is reported for local memory: the packed one decides
        sectors, ideal = sector_costs(ls.worst.worst_addresses[None, :], ls.worst.size, local=True)
        return {"cause": "local index"} if sectors[0] > ideal[0] else None
    return diagnose(ls.worst.worst_addresses, ls.worst.size)


def hint(r, ls: LineStats) -> str | None:
    """What makes the line uncoalesced, and the fix that applies."""
    why = cause(ls)
    if why is None:
        return None
    where = f"{r.file_name(ls.file)}:{ls.line}"
    per, ideal = ls.wavefronts / max(ls.requests, 1), ls.ideal / max(ls.requests, 1)
    head = (f"{where}: uncoalesced {ls.kind} ({per:.3g} sectors per request where {ideal:.3g} would do, "
            f"{ls.excess:,} sectors too many). ")
    size = ls.worst.size
    c = why["cause"]
    if c == "local index":
        return head + ("Lanes read different offsets of a local array (an index known only at run time): index it "
                       "with compile-time constants (unrolled loops) so it stays in registers, or keep the array "
                       "in shared memory, one column per thread.")
    if c == "stride":
        k = why["stride"]
        text = head + f"Neighbouring lanes are {k} elements ({k * size} bytes) apart. "
        if getattr(r, "front_end", "") == "triton" and 1 < k and k * size <= 16:
            text += (f"Triton gave each thread {k} consecutive elements and split the access into {k} of "
                     f"{size} bytes, as it does where it cannot prove the thread's run aligned and its mask the same "
                     f"over the run: an integer argument in the offsets or the mask (a length, a stride) that is "
                     f"not a multiple of 16, which Triton specialises and then vectorises on. Pad the length to a "
                     f"multiple of 16, or tell Triton what holds (tl.multiple_of, tl.max_contiguous on the "
                     f"offsets). ")
        elif k * size <= 64:
            text += (f"An array of {k * size}-byte structures read one field at a time: keep the field in its own "
                     f"array (structure of arrays), or load whole structures as {min(16, k * size)}-byte vectors. ")
        else:
            text += ("Make threadIdx.x walk the index that is contiguous in memory (the last subscript of a "
                     "row-major array). Where the lanes must cross rows (a transpose's column), stage a tile "
                     "through shared memory as the transposes do: read rows into tile[32][33] coalesced, "
                     "__syncthreads(), write rows of the result from tile[threadIdx.x][threadIdx.y + j]; the "
                     "padding keeps the tile's column read conflict-free, which analyze then checks. ")
        return text + _narrow(size)
    if c == "misaligned":
        return head + (f"Consecutive lanes read consecutive elements, but the run starts {why['offset']} bytes into a "
                       f"32-byte sector and spills into one more: align the base (a row pitch that is a multiple of "
                       f"{SECTOR} bytes, cudaMallocPitch), or start the lanes at the aligned element and read the "
                       f"halo with a few extra lanes. " + _narrow(size))
    if c == "rows":
        n, k = why["rows"], why["lanes"]
        return head + (f"The warp's lanes form {n} runs of {k} consecutive elements (a block {k} threads wide: a warp "
                       f"covers {n} of its rows): each run is coalesced, but the runs lie apart and a run that starts "
                       f"or ends inside a 32-byte sector costs a sector more. Make the block 32 threads wide (a warp a "
                       f"row), or start each row on a sector ({SECTOR // size if size < SECTOR else 1}-element "
                       f"multiples: a padded pitch, the halo's x - 1 read by extra lanes). " + _narrow(size))
    if c == "gather":
        return head + ("The lanes' addresses follow no single step (an index read from memory, a hash): sort or bin "
                       "the indices so that neighbouring lanes read neighbouring elements, or gather once into "
                       "shared memory and reuse it there. " + _narrow(size))
    return head + _narrow(size) if size < 4 else None


def _narrow(size: int) -> str:
    if size >= 4:
        return ""
    return (f"Each lane moves {size} byte{'s' if size > 1 else ''}: load 4 or 16 bytes a thread (uchar4, int4, a "
            f"float4 reinterpretation) and unpack them in registers.")


def ordered(lines: list[LineStats]) -> list[LineStats]:
    order = GLOBAL_KINDS + EXTRA_KINDS
    return sorted(lines, key=lambda ls: (-ls.excess, -ls.wavefronts, -ls.requests, ls.file, ls.line,
                                         order.index(ls.kind) if ls.kind in order else 9))


def print_table(r, con, max_source: int = 60) -> None:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    lines = ordered(r.memory_lines)
    if not lines:
        return
    from smemlab.analyze.render import left_cut

    narrow = con.width < 110
    t = Table(title="global and local memory per source line, worst first (32-byte sectors)", title_justify="left",
              box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD, padding=(0, 0, 0, 1) if narrow else (0, 1))
    width = max(14, min(32, con.width // 4))
    names = ("line", "source", "op", "req", "sectors", "ideal", "excess") if narrow else \
        ("line", "source", "op", "bytes", "requests", "sectors", "ideal", "sec/req", "excess")
    for name in names:
        t.add_column(name, justify="left" if name in ("line", "source", "op") else "right",
                     no_wrap=name != "source", overflow="fold", max_width=width if name == "line" else None,
                     min_width=12 if name == "source" else None)
    for ls in lines:
        src = r.source_text(ls.file, ls.line)
        if len(src) > max_source:
            src = src[: max_source - 3] + "..."
        where = left_cut(f"{r.file_name(ls.file)}:{ls.line}", width)
        style = "red" if ls.excess > 0 else None
        if narrow:  # the op's width in its cell, as the shared table does
            t.add_row(escape(where), escape(src), f"{ls.kind} {ls.bytes}B", f"{ls.requests:,}", f"{ls.wavefronts:,}",
                      f"{ls.ideal:,}", f"{ls.excess:,}", style=style)
            continue
        t.add_row(escape(where), escape(src), ls.kind, str(ls.bytes), f"{ls.requests:,}",
                  f"{ls.wavefronts:,}", f"{ls.ideal:,}", f"{ls.wavefronts / ls.requests:.3g}" if ls.requests else "-",
                  f"{ls.excess:,}", style=style)
    con.print(t)


def totals_rows(r) -> list[tuple[str, str, str, str, str, str]]:
    """Rows for the totals table: (op, requests, sectors, ideal, per request, excess)."""
    rows = []
    for kind in GLOBAL_KINDS + EXTRA_KINDS:
        t = r.memory_totals(kind)
        if not t["instructions"] and kind not in GLOBAL_KINDS:
            continue
        req, sec, ideal = t["requests"], t["sectors"], t["ideal_sectors"]
        rows.append((f"{kind} (sectors)", f"{req:,}", f"{sec:,}", f"{ideal:,}", f"{sec / req:.3g}" if req else "-",
                     f"{sec - ideal:,}"))
    return rows


def launch_json(r) -> dict | None:
    lt = r.launch
    if lt is None:
        return None
    doc = {"blocks": lt.blocks, "emulated": len(lt.emulated), "method": lt.method, "exact": lt.exact}
    for kind, t in lt.totals.items():
        if kind in GLOBAL_KINDS or t["requests"]:
            doc[json_key(kind)] = dict(t)
    return doc


def print_launch(r, con) -> None:
    from rich.table import Table

    lt = r.launch
    if lt is None:
        return
    how = {"every block": "every block emulated: exact",
           "translation": "blocks are translates of block 0: extrapolated by the translation rule",
           "sample mean": "extrapolated from the sampled blocks' mean"}[lt.method]
    t = Table(title=f"whole launch: {lt.blocks:,} blocks, {len(lt.emulated)} emulated ({how})", title_justify="left")
    for name in ("op", "requests", "sectors", "ideal", "sec/req", "excess", "total"):
        t.add_column(name, justify="left" if name in ("op", "total") else "right")
    for kind, v in lt.totals.items():
        if kind in GLOBAL_KINDS or v["requests"]:
            req, sec, ideal = v["requests"], v["sectors"], v["ideal_sectors"]
            t.add_row(kind, f"{req:,}", f"{sec:,}", f"{ideal:,}", f"{sec / req:.3g}" if req else "-", f"{sec - ideal:,}",
                      "exact" if v["exact"] else "extrapolated")
    con.print(t)


def find_line(r, line: int) -> LineStats | None:
    cands = [ls for ls in r.memory_lines if ls.line == line and ls.worst is not None
             and ls.worst.worst_addresses is not None]
    return max(cands, key=lambda ls: (ls.excess, ls.wavefronts), default=None)


def print_sector_map(r, con, ls: LineStats) -> None:
    """Which lanes of the line's costliest warp touch which 32-byte sectors, one row per sector."""
    from rich.markup import escape

    site = ls.worst
    addr = site.worst_addresses
    local = ls.kind.startswith("local")
    rows = lane_sectors(addr, site.size, local)
    active = int((addr >= 0).sum())
    con.print(f"[bold]{escape(r.file_name(ls.file))}:{ls.line}[/] {ls.kind} ({site.size} bytes): "
              f"[dim]{escape(r.source_text(ls.file, ls.line))}[/]")
    con.print(f"[dim]{'SASS' if site.pc < 0 else 'PTX'}: {escape(site.text)}[/]")  # a spill: no PTX (spills.py)
    con.print(f"sector map of warp {site.worst_warp}: {active} active lanes, {len(rows)} sectors"
              + (" (local memory: each lane's words interleaved with the warp's)" if local else ""))
    base = rows[0][0] if rows else 0
    for sector, lanes in rows:
        cells = "".join("#" if lane in lanes else "." for lane in range(32))
        con.print(f"  +{sector - base:>8}  {cells}  lanes {_spans(lanes)}")
    con.print("[dim]  (offset of the sector from the first one; one column a lane, 0 to 31)[/]")


def _spans(lanes: list[int]) -> str:
    out, start = [], None
    s = sorted(lanes)
    for i, x in enumerate(s):
        if start is None:
            start = x
        if i + 1 == len(s) or s[i + 1] != x + 1:
            out.append(f"{start}" if start == x else f"{start}-{x}")
            start = None
    return ",".join(out)


__all__ = ["totals_json", "line_dict", "hint", "print_table", "totals_rows", "find_line", "print_sector_map",
           "SECTOR_NOTE"]
