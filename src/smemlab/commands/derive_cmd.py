"""`smemlab derive DIR`: compute a recorded run's derived fields again from its measurements, no GPU."""

from __future__ import annotations

import argparse

from smemlab.commands.common import load_record
from smemlab.commands.report_cmd import add_record_folder, render


def register(sub) -> None:
    p = sub.add_parser("derive", help="recompute a recorded run's notes and binding limits from its measurements; no GPU",
                       description="Read DIR/run.json, compute again what the record derives from its measurements "
                                   "(each experiment's notes and derived columns, each variant's binding limit, the "
                                   "ceilings they are set against), then write the record and its report as `smemlab "
                                   "report` does. The measured figures (times, counters, the sanitizer's table, the "
                                   "benchmark's rows) are not touched. `smemlab report` only renders.",
                       epilog="examples:\n  smemlab derive results\n  smemlab derive /tmp/run --quiet",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_record_folder(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from smemlab.derive import derive

    return render(derive(load_record(args.folder, "derive")), args)
