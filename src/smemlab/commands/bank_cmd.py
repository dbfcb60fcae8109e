"""`smemlab bank EXPR`: predicted shared-memory wavefronts of one access, per warp, with a bank map.

No GPU needed: the model (smemlab.banks.model) reproduces Nsight Compute's wavefront counts on
Hopper for loads and stores of 1 to 16 bytes.
"""

from __future__ import annotations

import argparse

from smemlab.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "bank", help="predict shared-memory bank conflicts of one access (no GPU needed)",
        description="Wavefronts (passes through the 32 banks) that one shared-memory access costs each warp of "
                    "a block, as Nsight Compute counts them on Hopper; a bank map; and, with --suggest, the least "
                    "padding and an XOR swizzle that remove the conflicts.",
        epilog="examples:\n"
               "  smemlab bank 'tile[threadIdx.x][threadIdx.y]' --shape 32,32 --dtype int --block 32,32 --suggest\n"
               "  smemlab bank 'tile[(ty*32+tx)%16][(ty*32+tx)/16]' --shape 16,32 --dtype int --block 32,16 --pad 2\n"
               "  smemlab bank 's[tx+64]' --shape 128 --dtype float --block 128 --active 'tx < 64' --json\n\n"
               "EXPR names: tx ty tz, bdx bdy bdz, lane, warp (int), and threadIdx.x/y/z, blockDim.x/y/z\n"
               "(unsigned, as in CUDA); operators + - * / % ^ & | << >> with C's integer semantics: / truncates,\n"
               "a u suffix makes a literal unsigned and unsigned arithmetic wraps modulo 2^32, a signed\n"
               "overflow is an error. --active also takes < <= > >= == != && || !.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("expr", metavar="EXPR", help="the subscript, as in CUDA C (tile[ty][tx]) or Python (s[ty, tx])")
    p.add_argument("--shape", required=True, metavar="D0[,D1[,D2]]",
                   help="declared shape of the array, row-major, padding included (e.g. 32,33)")
    p.add_argument("--dtype", required=True, metavar="TYPE",
                   help="element type: char short int float double half long long, int2 float2 int4 float4 "
                        "double2, or int8 ... float64")
    p.add_argument("--block", required=True, metavar="X[,Y[,Z]]", help="thread block shape (at most 1024 threads)")
    p.add_argument("--op", default="load", choices=["load", "store", "ld", "st"],
                   help="load (LDS) or store (STS); default load")
    p.add_argument("--pad", default="0", metavar="N", help="add N elements to the last dimension (default 0)")
    p.add_argument("--active", metavar="COND", help="only threads where COND holds access (e.g. 'tx < 64')")
    p.add_argument("--bank-width", default="4", choices=["4", "8"],
                   help="bank width in bytes (default 4); 8 models Kepler's 8-byte mode (not on any current GPU)")
    p.add_argument("--warp", metavar="W", help="warp whose bank map to show (default: the costliest)")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument("--png", metavar="FILE.png", help="also draw the bank map and per-warp costs to a PNG")
    p.add_argument("--suggest", action="store_true", help="the least padding and an XOR swizzle that reach the ideal")
    p.set_defaults(func=run)


def png_path(text: str):
    """--png FILE.png: a file name ending in .png, in a folder that exists; else a UserError."""
    from pathlib import Path

    if not text.strip():
        raise UserError("--png needs a file name, like --png map.png")
    path = Path(text)
    if path.is_dir():
        raise UserError(f"--png {text}: that is a folder; give a file name, like {path / 'map.png'}")
    if path.suffix.lower() != ".png":
        raise UserError(f"--png {text}: give a file name ending in .png (the map is drawn as a PNG)")
    if not path.parent.is_dir():
        raise UserError(f"--png {text}: folder {path.parent} does not exist")
    return path


def run(args) -> int:
    import json

    from smemlab.banks import analyze, suggest
    from smemlab.banks.analysis import to_int

    png = png_path(args.png) if args.png is not None else None
    call = dict(expr=args.expr, shape=args.shape, dtype=args.dtype, block=args.block, op=args.op, pad=args.pad,
                active=args.active, bank_width=int(args.bank_width))
    a = analyze(**call)
    warp = None
    if args.warp is not None:
        warp = to_int(args.warp, "--warp")
        if warp >= len(a.per_warp):
            raise UserError(f"--warp {warp}: the block has {len(a.per_warp)} warp(s), 0..{len(a.per_warp) - 1}")
    advice = suggest(**call) if args.suggest else None
    if png is not None:
        from smemlab.banks.pictures import save_png

        try:
            save_png(a, png, warp)
        except OSError as exc:
            raise UserError(f"--png {args.png}: {exc.strerror or exc}") from None
    if args.json:
        doc = a.to_dict()
        if advice is not None:
            doc["suggestion"] = advice
        print(json.dumps(doc))
        return 0
    _print_text(a, warp, advice, args.png)
    return 0


def plural(n: int, word: str) -> str:
    return f"{n:g} {word}" + ("" if n == 1 else "s")


def _warp_lines(a) -> list[str]:
    """Per-warp costs, runs of identical warps folded into one line."""
    lines, i = [], 0
    ws = a.per_warp
    while i < len(ws):
        j = i
        key = lambda w: (w.active_threads, w.wavefronts, w.ideal_wavefronts, w.conflict_degree)  # noqa: E731
        while j + 1 < len(ws) and key(ws[j + 1]) == key(ws[i]):
            j += 1
        w = ws[i]
        name = f"warp {i}" if i == j else f"warps {i}-{j}"
        if w.active_threads == 0:
            lines.append(f"  {name:<12} no active thread: no request")
        else:
            conflict = "conflict-free" if w.conflict_degree <= 1 else f"{w.conflict_degree}-way conflict"
            lines.append(f"  {name:<12} {plural(w.active_threads, 'thread'):>10}  "
                         f"{plural(w.wavefronts, 'wavefront'):>14}  (ideal {w.ideal_wavefronts}, {conflict})")
        i = j + 1
    return lines


def _print_text(a, warp, advice, png) -> None:
    from rich.markup import escape

    from smemlab.banks.pictures import text_map
    from smemlab.render.report import console

    con = console(highlight=False, soft_wrap=True)  # the bank map is 102 columns wide
    active = f", active where {escape(a.active)}" if a.active is not None else ""
    con.print(f"[bold]{escape(a.declaration())}[/]  {a.op} [bold]{escape(a.expr)}[/]  "
              f"block {'x'.join(map(str, a.block))}{active}  ({a.element_bytes}-byte access)")
    for line in _warp_lines(a):
        con.print(line)
    ideal = a.ideal_wavefronts / a.requests if a.requests else 0
    con.print(f"{plural(a.requests, 'request')}, {plural(a.wavefronts, 'wavefront')} (ideal {a.ideal_wavefronts}): "
              f"[bold]{plural(a.wavefronts_per_request, 'wavefront')} per request[/] (ideal {ideal:g}), "
              f"{plural(a.bank_conflicts, 'bank conflict')}")
    if a.requests:
        con.print(text_map(a, warp))
    if png:
        con.print(f"bank map written to {escape(png)}")
    if advice is not None:
        _print_advice(con, a, advice)


def _print_advice(con, a, s) -> None:
    from rich.markup import escape

    def per(w):
        return f"{plural(w, 'wavefront')} ({w / a.requests:g} per request)" if a.requests else plural(w, "wavefront")

    if a.wavefronts <= s["ideal_wavefronts"] and a.pad == s["pad"]:
        con.print("[green]already at the ideal: nothing to fix[/]")
        return
    how = "reaches the ideal" if s["pad_reaches_ideal"] else "the best padding; it does not reach the ideal"
    if s["pad_expr"] != a.expr:  # a 1-D array: the row stride in the expression changes
        what = f"row stride {s['pad_row_stride']}"
    else:
        what = f"--pad {s['pad']}"
    con.print(f"[bold]pad[/] {what}: {escape(s['pad_declaration'])}  {escape(s['pad_expr'])}  -> "
              f"{per(s['pad_wavefronts'])}, {how}")
    if s["swizzle"]:
        con.print(f"[bold]swizzle[/]: {escape(s['swizzle_declaration'])}  {escape(s['swizzle'])}  -> "
                  f"{per(s['swizzle_wavefronts'])}, no extra memory (swizzle every access of the array alike)")
    else:
        con.print("[dim]swizzle: no XOR swizzle of the column index reaches the ideal[/]")
