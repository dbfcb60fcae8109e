"""`smemlab suite`: the main job of `make run`.

With a GPU: every experiment, verified and timed, then profiled (where ncu can read counters),
checked with compute-sanitizer (where it is installed), and the library benchmarked against CuPy
and PyTorch; the record and report go to --out.
With no GPU (or without the GPU packages): `smemlab analyze`'s per-line table of the book's kernels
(where the analyze extra is installed), then the shared-memory accesses that the bank model finds
conflicted, each with its fix and a ready `smemlab bank` command, and a plain word that no GPU was found.
"""

from __future__ import annotations

import argparse
import sys

from smemlab.commands.common import add_device, nonneg_int


def register(sub) -> None:
    p = sub.add_parser("suite", help="the full suite (what `make run` runs)",
                       description="Run every experiment on the GPU, profile and sanitize it, and write the record and "
                                   "report to --out. Without a GPU, print the shared-memory accesses of the book's "
                                   "programs that the bank model finds conflicted, with their fixes.",
                       epilog="examples:\n  smemlab suite\n  smemlab suite --out /tmp/run --no-bench --reps 5\n\n"
                              "Every declared access, conflicted or not: smemlab list --accesses",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="results", metavar="DIR", help="where to write run.json, report.md and plots (default results)")
    p.add_argument("--reps", type=nonneg_int, default=20, help="timed samples per variant, each of launches back to back (default 20)")
    p.add_argument("--no-profile", action="store_true", help="skip Nsight Compute")
    p.add_argument("--no-check", action="store_true", help="skip compute-sanitizer")
    p.add_argument("--no-bench", action="store_true", help="skip the library benchmark (smemlab bench)")
    add_device(p)
    p.set_defaults(func=run)


def no_gpu_reason() -> str | None:
    """Why the suite cannot run on a GPU here (no GPU packages, no driver, no device), or None."""
    from smemlab.commands.common import GPU_EXTRA, missing_gpu_package

    missing = missing_gpu_package()
    if missing:
        return f"the GPU packages are not installed ({missing} is missing; {GPU_EXTRA})"
    from smemlab.device import no_gpu_reason as reason

    return reason()


def print_no_gpu_run(reason: str, out=None) -> None:
    """What `make run` shows with no GPU: the conflicted accesses of the book's programs, with their
    fixes and the `smemlab bank` command of each, then a plain word on what needs the GPU."""
    from rich.markup import escape

    from smemlab.commands.bank_survey import conflict_summary, declared_accesses
    from smemlab.lab import all_experiments
    from smemlab.render.report import console

    con = out or console(highlight=False)
    conflict_summary(con, declared_accesses(all_experiments()))
    con.print()
    con.print("Every access, conflicted or not: [cyan]smemlab list --accesses[/] (or one experiment: "
              "[cyan]smemlab list --accesses layout[/]).")
    con.print(f"\n[bold]No GPU[/]: {escape(reason)}.")
    con.print("The experiments, timings and hardware counters need a CUDA GPU; the bank conflicts above need "
              "none. The last recorded GPU run is in results/report.md.")


def print_analyze_tables() -> tuple[int, int]:
    """`smemlab analyze`'s per-line table for each experiment's kernels (one block each, no GPU), or
    one line naming the extra it needs; (rows that cost more than the ideal, rows) of those tables."""
    from rich.markup import escape
    from rich.table import Table

    from smemlab.commands.common import missing_analyze_package

    missing = missing_analyze_package()
    if missing:
        print(f"(smemlab analyze's per-line tables of the book's kernels need the analyze packages: {missing} is "
              f"not installed; pip install 'smemlab[analyze]')\n")
        return 0, 0

    from smemlab.analyze.ledger import is_modelled
    from smemlab.errors import UserError
    from smemlab.lab import all_experiments
    from smemlab.lab.launches import for_experiment
    from smemlab.render.report import console

    conflicted = rows = 0
    for exp in all_experiments():
        t = Table(title=f"{exp.name}: shared-memory traffic per source line (smemlab analyze, one block or cluster)",
                  title_justify="left")
        for col in ("variant", "line", "source", "op", "requests", "wavefronts", "ideal", "conflict"):
            t.add_column(col, justify="right" if col in ("requests", "wavefronts", "ideal") else "left")
        for launch in for_experiment(exp.name):
            try:
                r = launch.analyze()
            except UserError as exc:
                t.add_row(launch.variant, "", escape(str(exc)), "", "", "", "", "")
                continue
            for ls in r.ordered_lines():
                modelled = is_modelled(ls.kind, ls.bytes)
                conflict = "-" if not modelled else ("none" if ls.degree <= 1 else f"{ls.degree}-way")
                rows += 1
                conflicted += bool(modelled and ls.excess > 0)
                t.add_row(launch.variant, f"{escape(r.file_name(ls.file))}:{ls.line}",
                          escape(r.source_text(ls.file, ls.line)[:48]), ls.kind + (" dsmem" if ls.remote else ""),
                          f"{ls.requests:,}" + (f" +{ls.remote:,} remote" if ls.remote else ""),
                          f"{ls.wavefronts:,}" if modelled else "-", f"{ls.ideal:,}" if modelled else "-", conflict,
                          style="red" if modelled and ls.excess > 0 else None)
        if t.row_count:
            console().print(t)
    return conflicted, rows


def run(args) -> int:
    reason = no_gpu_reason()
    if reason:
        conflicted, rows = print_analyze_tables()
        if rows:
            print(f"{conflicted} of the {rows} per-line rows above (variant, line, op) cost more wavefronts than "
                  f"the ideal (in red).\n")
        print_no_gpu_run(reason)
        return 0
    from smemlab.render import report
    from smemlab.commands.common import experiments_named, runtime
    from smemlab.runner import run_suite, unexpected_failures

    rt = runtime(args.device)
    record = run_suite(rt, experiments_named([]), reps=args.reps)
    if not args.no_profile:
        from smemlab.profile import attach

        print("profiling with Nsight Compute ...", file=sys.stderr)
        attach(record, args.device)
    if not args.no_check:
        from smemlab.sanitize import sanitize_all

        print("checking with compute-sanitizer ...", file=sys.stderr)
        record.sanitizer = sanitize_all(args.device)
    if not args.no_bench:
        from smemlab.bench import run_benchmarks

        print("benchmarking the library (smemlab bench) ...", file=sys.stderr)
        bench = run_benchmarks(log=lambda line: print(line, file=sys.stderr), device=args.device)
        record.bench = list(bench.rows)
    from smemlab.derive import derive

    derive(record)  # notes and limits, after the counters, the sanitizer and the benchmark's memcpy ceiling
    report.print_terminal(record)
    path = report.write_all(record, args.out)
    print(f"report: {path}")
    from smemlab.bench import problems

    failed = unexpected_failures(record) + [f"bench {line}" for line in problems(record.bench, rt.facts)]
    if failed:
        print(f"not verified: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0
