"""`smemlab bench`: the library's ops against CuPy and PyTorch, measured as users call them."""

from __future__ import annotations

import argparse
from pathlib import Path

from smemlab.commands.common import add_device, load_record, require_gpu_packages
from smemlab.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="time the library ops against CuPy and PyTorch, one call at a time and back to back",
        description="Verify, then time each op of smemlab.ops against what users have today (CuPy, PyTorch where "
                    "installed), called the way users call them, on a sweep of sizes from host-bound to memory-bound. "
                    "Two figures per implementation: latency (one call at a time from Python, host path included) "
                    "and back-to-back throughput (CUDA events). Bandwidth counts bytes read + written once each, "
                    "decimal GB/s, against cudaMemcpyAsync device-to-device in the same run. Goals are judged only "
                    "against baselines that verified; the command exits 1 if any output failed its check or a goal "
                    "could not be judged because a baseline failed.",
        epilog="examples:\n  smemlab bench --quick                 a smoke test: small sizes, a minute\n"
               "  smemlab bench reduce transpose --json bench.json --plot bench.png\n"
               "  smemlab bench --record results        add the rows to a recorded run and re-render its report",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("ops", nargs="*", metavar="OP", help="benchmarks to run (default: all): transpose, reduce, stencil, histogram, matmul, "
                        "frameworks (the ops in torch.compile, CUDA graphs and autograd)")
    p.add_argument("--json", metavar="FILE", type=Path, help="write every row, with the device and the kernel sources' hash, as JSON")
    p.add_argument("--plot", metavar="FILE.png", type=Path,
                   help="latency against size (FILE.png) and throughput bars (FILE-throughput.png)")
    p.add_argument("--record", metavar="DIR", type=Path,
                   help="put the rows into the recorded run in DIR (run.json; the ops run replace theirs) and rewrite its report")
    p.add_argument("--quick", action="store_true", help="small sizes, few repetitions (a smoke test, not a measurement)")
    p.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    add_device(p)
    p.set_defaults(func=run)


def run(args) -> int:
    import json

    from smemlab.bench import check_names, format_row, load_all, problems, run_benchmarks
    from smemlab.bench.goals import text
    from smemlab.render.bench import crossover_text, crossovers, goals_line

    if args.list:
        for name in load_all():
            print(name)
        return 0
    names = check_names(args.ops)  # a mistake is status 2 before any GPU is looked for
    for path, suffix in ((args.json, None), (args.plot, ".png")):
        if path is not None and not path.parent.exists():
            raise UserError(f"{path}: folder {path.parent} does not exist")
        if path is not None and suffix and path.suffix.lower() != suffix:
            raise UserError(f"--plot {path}: give a .png file name")
    record = load_record(args.record) if args.record is not None else None
    require_gpu_packages()
    from smemlab.device import read_facts

    facts = read_facts(args.device)  # a clear NoGPU error first
    print(f"device: {facts.name} ({facts.sms} SMs, L2 {facts.l2_bytes // 2**20} MiB), driver {facts.driver}")
    b = run_benchmarks(names, quick=args.quick, device=args.device)
    rows = list(b.rows)
    print()
    print("summary (latency: one call at a time, host path included; back-to-back: calls in a row, per call)")
    for r in b.rows:
        goals = "; ".join(text(t) for t in r.targets)
        print(format_row(r) + (f"   [{goals}]" if goals else "") + (f"   {r.note}" if r.note else ""))
    for c in crossovers(rows):
        print(f"{c['op']} {c['family']}, {c['impl']}: {crossover_text(c)}")
    print(goals_line(rows))
    if args.json:
        from smemlab.compiler import sources_hash

        doc = {"device": facts.to_dict(), "quick": args.quick, "kernel_sources_sha256": sources_hash(),
               "rows": [r.to_dict() for r in rows]}
        args.json.write_text(json.dumps(doc, indent=1, default=str))
        print(f"wrote {args.json}")
    if args.plot:
        from smemlab.render.bench import plot, plot_latency

        if plot_latency(rows, args.plot, facts.name):
            print(f"wrote {args.plot}")
        bars = args.plot.with_name(args.plot.stem + "-throughput.png")
        if plot(rows, bars, facts.name):
            print(f"wrote {bars}")
    if record is not None:
        from smemlab.render import report

        # the ops run now replace their rows; the others' rows of the record stay
        order = list(load_all())
        kept = [r for r in record.bench if r.op not in names]
        record.bench = sorted(kept + rows, key=lambda r: order.index(r.op) if r.op in order else len(order))
        from smemlab.derive import derive

        derive(record)  # the DRAM ceiling of the binding limits is the benchmark's cudaMemcpy
        print(f"report: {report.write_all(record, args.record)}")
    failed = problems(rows, facts)
    for line in failed:
        print(line)
    return 1 if failed else 0
