"""`smemlab check`: every variant under compute-sanitizer's four tools."""

from __future__ import annotations

import argparse

from smemlab.commands.common import add_device, experiments_named, load_record, require_gpu_packages


def register(sub) -> None:
    p = sub.add_parser("check", help="run every variant under compute-sanitizer (memcheck, racecheck, synccheck, initcheck)",
                       description="Run each experiment's variants once, at a small size, under compute-sanitizer's "
                                   "memcheck, racecheck, synccheck and initcheck, and the library's kernels at small and "
                                   "odd sizes (`library`: every op, every histogram method, every matmul variant), and "
                                   "print one table: clean, or the finding. Variants kept on purpose to show a hazard "
                                   "are marked as expected.",
                       epilog="examples:\n  smemlab check\n  smemlab check library\n  smemlab check reduce stencil --record results",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("experiment", nargs="*", help="experiments to check, or `library` (default: all, then the library)")
    p.add_argument("--record", metavar="DIR", help="add the table to the recorded run in DIR (run.json) and rewrite its report")
    add_device(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from rich.table import Table

    from smemlab.device import read_facts
    from smemlab.render.report import console
    from smemlab.sanitize import LIBRARY, TOOLS, sanitize_all, sanitizer_path

    record = load_record(args.record) if args.record else None
    # an unknown name: status 2 before any GPU is looked for (the library's self-check is `library`)
    experiments_named([n for n in args.experiment if n != LIBRARY])
    require_gpu_packages()
    read_facts(args.device)  # a clear NoGPU error before starting child processes
    if not sanitizer_path():
        print("compute-sanitizer not found on PATH (it ships with the CUDA toolkit); nothing checked")
        return 1
    rows = sanitize_all(args.device, args.experiment)
    t = Table(title="compute-sanitizer", title_justify="left")
    for col in ("experiment", "variant", *TOOLS, "expected"):
        t.add_column(col, overflow="fold")
    unexpected = 0
    for row in rows:
        cells = []
        for tool in TOOLS:
            value = row.get(tool, "-")
            bad = value != "clean"
            if bad and not row["expected"]:
                unexpected += 1
            cells.append(f"[red]{value}[/]" if bad and not row["expected"] else value)
        t.add_row(row["experiment"], row["variant"], *cells, row["expected"] or "")
    console().print(t)
    if record is not None:
        from smemlab.render import report

        from smemlab.derive import derive

        record.sanitizer = rows
        derive(record)  # every change to a record is followed by the derive step, whatever it reads
        print(f"report: {report.write_all(record, args.record)}")
    return 1 if unexpected else 0
