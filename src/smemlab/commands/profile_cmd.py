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
        epilog="example:\n  smemlab profile layout\n  smemlab profile transpose --variant transposeSmem --variant transposeSmemPad"
               "\n  smemlab profile reduce transpose --record results   (their counters in the recorded run, measured again)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("experiment", nargs="+", help="the experiment (see `smemlab list`); several with --record")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="only this variant (repeatable)")
    p.add_argument("--size", type=int_list, metavar="N[,M]", help="problem size")
    p.add_argument("--json", metavar="FILE", help="write the record, counters included, as JSON")
    p.add_argument("--record", metavar="DIR",
                   help="profile these experiments of the recorded run in DIR (run.json) at its sizes, replace their "
                        "counters and rewrite its report (the times are the record's: they are not measured again)")
    add_device(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from smemlab.commands.common import load_record, require_single

    if args.record:
        return _into_record(args, load_record(args.record))
    require_single(args.experiment, "without --record, profile")
    return _profile_one(args)


def _profile_one(args) -> int:
    from smemlab import lab
    from smemlab.counters import bank_mismatch
    from smemlab.derive import derive
    from smemlab.profile import attach
    from smemlab.render import report
    from smemlab.runner import run_suite

    exp = lab.get(args.experiment[0])
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


def _into_record(args, record) -> int:
    """Counters for the named experiments of a recorded run, measured again and put in its place: what a failed or
    stale profile of part of a run needs, without timing every experiment again."""
    from types import SimpleNamespace

    from smemlab.commands.common import experiments_named
    from smemlab.derive import derive
    from smemlab.errors import UserError
    from smemlab.profile import attach
    from smemlab.render import report

    if args.size or args.variant or args.json:
        raise UserError("--record profiles the recorded experiments at their recorded sizes: --size, --variant and "
                        "--json do not apply")
    names = [e.name for e in experiments_named(args.experiment)]
    chosen = [e for e in record.experiments if e.name in names]
    missing = sorted(set(names) - {e.name for e in chosen})
    if missing:
        raise UserError(f"--record {args.record}: the recorded run has no {', '.join(missing)}")
    runtime(args.device)  # a clear NoGPU error before starting ncu
    part = SimpleNamespace(experiments=chosen, profile_status="")
    attach(part, args.device)
    # the record's status names each experiment whose profile failed ("name: why", "name at size: why")
    kept = [s for s in (record.profile_status or "").split("; ") if s and not s.startswith(tuple(
        f"{n}{sep}" for n in names for sep in (": ", " at "))) and not s.startswith(("Nsight Compute", "not profiled"))]
    fresh = [] if part.profile_status.startswith("Nsight Compute") else [part.profile_status]
    record.profile_status = "; ".join(kept + fresh) or part.profile_status
    derive(record)
    print(f"profile: {record.profile_status}")
    print(f"report: {report.write_all(record, args.record)}")
    return 0 if not fresh else 1
