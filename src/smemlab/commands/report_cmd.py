"""`smemlab report DIR`: render a recorded run again, with no GPU."""

from __future__ import annotations

import argparse

from smemlab.commands.common import load_record


def register(sub) -> None:
    p = sub.add_parser("report", help="render a recorded run (run.json) again: tables, report.md, CSV, plots; no GPU",
                       description="Read DIR/run.json, written by `smemlab suite` or `smemlab run --report`, print its "
                                   "tables and rewrite report.md, run.csv and the plots beside it. Needs no GPU: every "
                                   "figure comes from the record.",
                       epilog="examples:\n  smemlab report\n  smemlab report /tmp/run --quiet",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_record_folder(p)
    p.set_defaults(func=run)


def add_record_folder(p: argparse.ArgumentParser) -> None:
    """DIR and --quiet, as the commands that rewrite a recorded run take them."""
    p.add_argument("folder", nargs="?", default="results", metavar="DIR", help="the recorded run's folder (default results)")
    p.add_argument("--quiet", action="store_true", help="rewrite the files without printing the tables")


def render(record, args) -> int:
    """Print the record's tables (unless --quiet) and rewrite its folder: run.json, run.csv, plots, report.md."""
    from smemlab.render import report

    if not args.quiet:
        report.print_terminal(record)
    print(f"report: {report.write_all(record, args.folder)}")
    return 0


def run(args) -> int:
    return render(load_record(args.folder, "report"), args)
