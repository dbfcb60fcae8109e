"""`smemlab run`: run experiments on the GPU, verify every variant, time them, report."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from smemlab.commands.common import (add_device, check_run_arguments, experiments_named, int_list, nonneg_int,
                                     require_single, runtime)


def register(sub) -> None:
    p = sub.add_parser(
        "run", help="run experiments: verify, time, report",
        description="Run experiments on the GPU. Every variant is checked against a NumPy reference before it is "
                    "timed (--reps samples, each of launches back to back between CUDA events, about a millisecond of "
                    "them, per launch: median, min and max); bandwidth counts bytes read and written once each and is "
                    "compared with cudaMemcpyAsync device to device measured in the same run.",
        epilog="examples:\n  smemlab run layout\n  smemlab run transpose --size 4096,4096 --variant transposeSmemPad\n"
               "  smemlab run reduce --size 16777216 --profile --json reduce.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("experiment", nargs="*", help="experiments to run (default: all; see `smemlab list`)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="only this variant (repeatable)")
    p.add_argument("--size", type=int_list, metavar="N[,M]", help="problem size (one experiment only; see `smemlab list`)")
    p.add_argument("--reps", type=nonneg_int, default=20, help="timed samples per variant, each of launches back to back (default 20; 0 verifies only)")
    p.add_argument("--profile", action="store_true", help="also read hardware counters with Nsight Compute (ncu)")
    p.add_argument("--json", metavar="FILE", help="write the run record as JSON")
    p.add_argument("--csv", metavar="FILE", help="write one CSV row per variant")
    p.add_argument("--plot", metavar="FILE.png", help="bar chart of bandwidth per variant (one experiment), or a folder prefix")
    p.add_argument("--report", metavar="DIR", help="write run.json, run.csv, plots and report.md into DIR")
    p.add_argument("--quiet", action="store_true", help="no tables, no progress")
    p.add_argument("--launch-log", metavar="FILE", help=argparse.SUPPRESS)  # used by the profiler's child run
    add_device(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from smemlab.derive import derive
    from smemlab.render import report
    from smemlab.runner import run_suite, unexpected_failures

    if args.size or args.variant:
        require_single(args.experiment, "--size/--variant")
    exps = experiments_named(args.experiment)
    check_run_arguments(exps, args.size, args.variant)  # mistakes first: status 2 even with no GPU
    rt = runtime(args.device)
    sizes = {exps[0].name: args.size} if args.size else None
    with rt.record_launches() if args.launch_log else contextlib.nullcontext():
        record = run_suite(rt, exps, sizes, args.variant or None, reps=args.reps, progress=not args.quiet)
    if args.launch_log:
        with open(args.launch_log, "w") as f:
            json.dump(rt.variant_launches, f)
    if args.profile:
        from smemlab.profile import attach

        attach(record, args.device)
    derive(record)  # notes and limits, once every measurement is in
    if not args.quiet:
        report.print_terminal(record)
    if args.json:
        record.save(args.json)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write(report.to_csv(record))
    if args.plot:
        for exp in record.experiments:
            path = args.plot if len(record.experiments) == 1 else args.plot.replace(".png", f"-{exp.name}.png")
            report.plot_bandwidth(exp, path, record.copy_gbps)
    if args.report:
        print(f"report: {report.write_all(record, args.report)}", file=sys.stderr)
    failed = unexpected_failures(record)
    if failed and not args.quiet:
        print(f"not verified: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0
