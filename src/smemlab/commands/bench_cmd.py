"""`smemlab bench`: the library's ops against CuPy, PyTorch and a plain copy kernel, in one run."""

from __future__ import annotations

from pathlib import Path

from smemlab.commands.common import load_record
from smemlab.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="time the library ops against CuPy, PyTorch and a plain copy kernel",
        description="Verify, then time (CUDA events, median of many launches) each op of smemlab.ops against "
                    "what users have today (CuPy, PyTorch where installed) and a plain float4 copy kernel moving "
                    "the same bytes in the same run. Bandwidth counts bytes read + written once each, decimal GB/s.",
    )
    p.add_argument("ops", nargs="*", metavar="OP", help="benchmarks to run (default: all): transpose, reduce, stencil, histogram, matmul")
    p.add_argument("--json", metavar="FILE", type=Path, help="write every row, with the device and the kernel sources' hash, as JSON")
    p.add_argument("--plot", metavar="FILE.png", type=Path, help="bar chart of GB/s (or TFLOP/s) per case and implementation")
    p.add_argument("--record", metavar="DIR", type=Path, help="add the rows to the recorded run in DIR (run.json) and rewrite its report")
    p.add_argument("--quick", action="store_true", help="small sizes, few repetitions (a smoke test, not a measurement)")
    p.add_argument("--list", action="store_true", help="list the registered benchmarks and exit")
    p.set_defaults(func=run)


def run(args) -> int:
    import json

    from smemlab.bench import format_row, load_all, run_benchmarks
    from smemlab.bench.render import goals, target_text

    if args.list:
        for name in load_all():
            print(name)
        return 0
    for path, suffix in ((args.json, None), (args.plot, ".png")):
        if path is not None and not path.parent.exists():
            raise UserError(f"{path}: folder {path.parent} does not exist")
        if path is not None and suffix and path.suffix.lower() != suffix:
            raise UserError(f"--plot {path}: give a .png file name")
    record = load_record(args.record) if args.record is not None else None
    from smemlab.gpu import read_facts

    facts = read_facts(0)  # a clear NoGPU error first
    print(f"device: {facts.name} ({facts.sms} SMs, L2 {facts.l2_bytes // 2**20} MiB), driver {facts.driver}")
    b = run_benchmarks(args.ops or None, quick=args.quick)
    rows = [r.to_dict() for r in b.rows]
    print()
    print("summary (ratios within this run; 'x' = that implementation's time over smemlab's)")
    for r, d in zip(b.rows, rows):
        goal = target_text(d)
        print(format_row(r) + (f"   [{goal}]" if goal else "") + (f"   {r.note}" if r.note else ""))
    met, total = goals(rows)
    print(f"goals met: {met} of {total}")
    failed = [r for r in b.rows if not r.ok]
    if args.json:
        from smemlab.compiler import sources_hash

        doc = {"device": facts.to_dict(), "quick": args.quick, "kernel_sources_sha256": sources_hash(), "rows": rows}
        args.json.write_text(json.dumps(doc, indent=1, default=str))
        print(f"wrote {args.json}")
    if args.plot:
        from smemlab.bench.render import plot

        if not plot(rows, args.plot, facts.name):
            raise UserError("nothing to plot: no case produced a timing")
        print(f"wrote {args.plot}")
    if record is not None:
        from smemlab import report

        record.bench = rows
        print(f"report: {report.write_all(record, args.record)}")
    if failed:
        print(f"{len(failed)} row(s) FAILED verification or raised; see above")
        return 1
    return 0
