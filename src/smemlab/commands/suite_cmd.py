"""`smemlab suite`: the main job of `make run`.

With a GPU: every experiment, verified and timed, then profiled (where ncu can read counters),
checked with compute-sanitizer (where it is installed), and the library benchmarked against CuPy
and PyTorch; the record and report go to --out.
With no GPU: the bank-conflict analysis of every shared-memory access the experiments declare,
`smemlab analyze`'s per-line table of their kernels, and a plain word that no GPU was found.
"""

from __future__ import annotations

import sys

from smemlab.commands.common import add_device, nonneg_int


def register(sub) -> None:
    p = sub.add_parser("suite", help="the full suite (what `make run` runs)",
                       description="Run every experiment on the GPU, profile and sanitize it, and write the record and "
                                   "report to --out. Without a GPU, print the bank-conflict analysis of every experiment.")
    p.add_argument("--out", default="results", metavar="DIR", help="where to write run.json, report.md and plots (default results)")
    p.add_argument("--reps", type=nonneg_int, default=20, help="timed launches per variant (default 20)")
    p.add_argument("--no-profile", action="store_true", help="skip Nsight Compute")
    p.add_argument("--no-check", action="store_true", help="skip compute-sanitizer")
    p.add_argument("--no-bench", action="store_true", help="skip the library benchmark (smemlab bench)")
    add_device(p)
    p.set_defaults(func=run)


def bank_analysis() -> list[tuple[str, str, str, str, str, float, float]]:
    """(experiment, variant, access, expr, op, predicted wavefronts/request, ideal) for every declared access."""
    from smemlab.experiments import all_experiments
    from smemlab.runner import predict_accesses

    out = []
    for exp in all_experiments():
        for v in exp.variants():
            for a in predict_accesses(v):
                out.append((exp.name, v.name, a.label, a.expr, a.op, a.predicted_wavefronts_per_request,
                            a.ideal_wavefronts_per_request))
    return out


def print_bank_analysis() -> None:
    from smemlab.report import console
    from rich.table import Table

    t = Table(title="Shared-memory bank analysis of every experiment (predicted, no GPU needed)", title_justify="left")
    for col in ("experiment", "variant", "access", "expression", "op", "wavefronts/request", "ideal"):
        t.add_column(col)
    for exp, var, label, expr, op, wf, ideal in bank_analysis():
        style = "bold red" if wf > ideal else ""
        t.add_row(exp, var, label, expr, op, f"[{style}]{wf:g}[/]" if style else f"{wf:g}", f"{ideal:g}")
    console().print(t)


def print_analyze_tables() -> None:
    """`smemlab analyze`'s per-line table for each experiment's kernels (one block each, no GPU)."""
    from rich.markup import escape
    from rich.table import Table

    from smemlab.errors import UserError
    from smemlab.experiments import all_experiments
    from smemlab.experiments.launches import for_experiment
    from smemlab.report import console

    for exp in all_experiments():
        t = Table(title=f"{exp.name}: shared-memory traffic per source line (smemlab analyze, one block)",
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
                modelled = ls.kind in ("load", "store", "atomic")
                conflict = "-" if not modelled else ("none" if ls.degree <= 1 else f"{ls.degree}-way")
                t.add_row(launch.variant, f"{escape(r.file_name(ls.file))}:{ls.line}",
                          escape(r.source_text(ls.file, ls.line)[:48]), ls.kind, f"{ls.requests:,}",
                          f"{ls.wavefronts:,}" if modelled else "-", f"{ls.ideal:,}" if modelled else "-", conflict,
                          style="red" if modelled and ls.excess > 0 else None)
        if t.row_count:
            console().print(t)


def run(args) -> int:
    from smemlab.gpu import no_gpu_reason

    reason = no_gpu_reason()
    if reason:
        print_bank_analysis()
        print_analyze_tables()
        print(f"\nNo GPU: {reason}.\nThe experiments, timings and counters need a CUDA GPU; above is the bank-conflict "
              "analysis, which needs none. The last recorded GPU run is in results/report.md.")
        return 0
    from smemlab import report
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
        record.bench = [r.to_dict() for r in run_benchmarks(log=lambda line: print(line, file=sys.stderr)).rows]
    report.print_terminal(record)
    path = report.write_all(record, args.out)
    print(f"report: {path}")
    failed = unexpected_failures(record) + [f"bench {r['op']} {r['case']} {r['impl']}" for r in record.bench if not r["ok"]]
    if failed:
        print(f"not verified: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0
