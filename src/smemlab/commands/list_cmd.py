"""`smemlab list`: the experiments and their variants (no GPU needed)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("list", help="list experiments and their variants (no GPU needed)",
                       description="List every experiment, the part of the book it reproduces, and its variants; "
                                   "with --accesses, every shared-memory access each variant declares, with the "
                                   "bank model's wavefronts per request.",
                       epilog="examples:\n  smemlab list\n  smemlab list transpose\n  smemlab list --accesses layout",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("experiment", nargs="*", help="only these experiments")
    p.add_argument("--accesses", action="store_true",
                   help="each variant's shared-memory accesses and their predicted cost (the bank model)")
    p.set_defaults(func=run)


def run(args) -> int:
    from rich.markup import escape

    from smemlab.commands.common import experiments_named
    from smemlab.render.report import console as make_console

    console = make_console(highlight=False)
    exps = experiments_named(args.experiment)
    if args.accesses:
        from smemlab.commands.bank_survey import access_listing, declared_accesses

        access_listing(console, declared_accesses(exps), exps)
        return 0
    for exp in exps:
        console.print(f"[bold]{exp.name}[/]: {escape(exp.title)}  [dim]({escape(exp.seed)}; --size "
                      f"{escape(exp.size_help)}, default {','.join(map(str, exp.default_size))})[/]")
        for v in exp.variants():
            mark = " [yellow](hazard kept on purpose)[/]" if v.hazard else ""
            console.print(f"  {v.name:<28} {escape(v.summary)}{mark}")
    return 0
