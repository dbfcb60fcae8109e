"""`smemlab derive DIR`: compute a recorded run's derived fields again from its measurements, no GPU."""

from __future__ import annotations

import argparse

from smemlab.commands.common import load_record


def register(sub) -> None:
    p = sub.add_parser("derive", help="recompute a recorded run's notes and binding limits from its measurements; no GPU",
                       description="Read DIR/run.json, compute again what the record derives from its measurements "
                                   "(each experiment's notes and derived columns, each variant's binding limit, the "
                                   "ceilings they are set against), then write the record and its report as `smemlab "
                                   "report` does. The measured figures (times, counters, the sanitizer's table, the "
                                   "benchmark's rows) are not touched. `smemlab report` only renders.",
                       epilog="examples:\n  smemlab derive results\n  smemlab derive /tmp/run --quiet",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("folder", nargs="?", default="results", metavar="DIR", help="the recorded run's folder (default results)")
    p.add_argument("--quiet", action="store_true", help="rewrite the files without printing the tables")
    p.set_defaults(func=run)


def run(args) -> int:
    from smemlab.derive import derive
    from smemlab.render import report

    record = derive(load_record(args.folder, "derive"))
    if not args.quiet:
        report.print_terminal(record)
    print(f"report: {report.write_all(record, args.folder)}")
    return 0
