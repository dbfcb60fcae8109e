"""`smemlab list`: the experiments and their variants (no GPU needed)."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("list", help="list experiments and their variants",
                       description="List every experiment, the seed section it reproduces, and its variants.")
    p.add_argument("experiment", nargs="*", help="only these experiments")
    p.set_defaults(func=run)


def run(args) -> int:
    from smemlab.commands.common import experiments_named
    from smemlab.report import console as make_console

    console = make_console()
    for exp in experiments_named(args.experiment):
        console.print(f"[bold]{exp.name}[/]: {exp.title}  [dim](seed: {exp.seed}; --size {exp.size_help}, "
                      f"default {','.join(map(str, exp.default_size))})[/]")
        for v in exp.variants():
            mark = " [yellow](hazard kept on purpose)[/]" if v.hazard else ""
            console.print(f"  {v.name:<28} {v.summary}{mark}")
    return 0
