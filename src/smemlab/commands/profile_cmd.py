"""`smemlab profile`: hardware counters (Nsight Compute) beside the bank model's predictions."""

from __future__ import annotations

import argparse

from smemlab.commands.common import add_device, check_run_arguments, int_list, runtime


def register(sub) -> None:
    p = sub.add_parser(
        "profile", help="hardware counters from Nsight Compute, joined with the bank model",
        description="Run an experiment's variants once each (verified) under `ncu --clock-control none` and show "
                    "shared-memory wavefronts per request, measured and predicted by the bank model (a mismatch is "
                    "flagged in red), and global sectors per request: the book's nvprof tables for today's GPUs.",
        epilog="example:\n  smemlab profile layout\n  smemlab profile transpose --variant transposeSmem --variant transposeSmemPad",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("experiment", help="the experiment (see `smemlab list`)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="only this variant (repeatable)")
    p.add_argument("--size", type=int_list, metavar="N[,M]", help="problem size")
    p.add_argument("--json", metavar="FILE", help="write the record, counters included, as JSON")
    add_device(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from smemlab import lab
    from smemlab.counters import bank_mismatch
    from smemlab.derive import derive
    from smemlab.profile import attach
    from smemlab.render import report
    from smemlab.runner import run_suite

    exp = lab.get(args.experiment)
    check_run_arguments([exp], args.size, args.variant)  # mistakes first: status 2 even with no GPU
    rt = runtime(args.device)
    sizes = {exp.name: args.size} if args.size else None
    record = run_suite(rt, [exp], sizes, args.variant or None, reps=0, progress=False)
    attach(record, args.device)
    derive(record)
    report.print_terminal(record)
    if args.json:
        record.save(args.json)
    mismatches = [v.variant for e in record.experiments for v in e.variants
                  if bank_mismatch(v, "load") or bank_mismatch(v, "store")]
    if mismatches:
        print(f"bank model and counters disagree for: {', '.join(mismatches)}")
    return 1 if mismatches else 0
