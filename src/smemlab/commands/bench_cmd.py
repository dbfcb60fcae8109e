"""`smemlab bench`: the library's ops against CuPy, PyTorch and a plain copy kernel, in one run."""

from __future__ import annotations

from pathlib import Path

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
    p.add_argument("--quick", action="store_true", help="small sizes, few repetitions (a smoke test, not a measurement)")
    p.add_argument("--list", action="store_true", help="list the registered benchmarks and exit")
    p.set_defaults(func=run)


def _plot(rows, path: Path, device: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cases = []
    for r in rows:
        key = (r.op, r.case)
        if key not in cases and r.ok and (r.gbps or r.tflops):
            cases.append(key)
    if not cases:
        raise UserError("nothing to plot: no case produced a timing")
    fig, axes = plt.subplots(len(cases), 1, figsize=(8, 1.2 + 0.45 * max(4, len(rows) // max(1, len(cases))) * len(cases)), squeeze=False)
    for ax, (op, case) in zip(axes[:, 0], cases):
        sel = [r for r in rows if r.op == op and r.case == case and r.ok]
        vals = [(r.gbps if r.gbps is not None else r.tflops) for r in sel]
        unit = "GB/s" if sel and sel[0].gbps is not None else "TFLOP/s"
        ax.barh([r.impl for r in sel], vals, color=["#888" if r.impl == "copy kernel" else "#3a7" if i == 1 or r.impl == "smemlab" else "#47a" for i, r in enumerate(sel)])
        for i, v in enumerate(vals):
            ax.text(v, i, f" {v:.0f}", va="center", fontsize=8)
        ax.set_title(f"{op}: {case}", fontsize=9, loc="left")
        ax.set_xlabel(unit, fontsize=8)
        ax.invert_yaxis()
    fig.suptitle(f"smemlab bench on {device}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(args) -> int:
    import json

    from smemlab.bench import format_row, load_all, run_benchmarks

    if args.list:
        for name in load_all():
            print(name)
        return 0
    for path, suffix in ((args.json, None), (args.plot, ".png")):
        if path is not None and not path.parent.exists():
            raise UserError(f"{path}: folder {path.parent} does not exist")
        if path is not None and suffix and path.suffix.lower() != suffix:
            raise UserError(f"--plot {path}: give a .png file name")
    from smemlab.gpu import read_facts

    facts = read_facts(0)  # a clear NoGPU error first
    print(f"device: {facts.name} ({facts.sms} SMs, L2 {facts.l2_bytes // 2**20} MiB), driver {facts.driver}")
    b = run_benchmarks(args.ops or None, quick=args.quick)
    print()
    print("summary (ratios within this run; 'x' = that implementation's time over the first's)")
    for r in b.rows:
        print(format_row(r) + (f"   [{r.target}]" if r.target else "") + (f"   {r.note}" if r.note else ""))
    failed = [r for r in b.rows if not r.ok]
    if args.json:
        from smemlab.compiler import sources_hash

        doc = {"device": facts.to_dict(), "quick": args.quick, "kernel_sources_sha256": sources_hash(),
               "rows": [r.to_dict() for r in b.rows]}
        args.json.write_text(json.dumps(doc, indent=1, default=str))
        print(f"wrote {args.json}")
    if args.plot:
        _plot(b.rows, args.plot, facts.name)
        print(f"wrote {args.plot}")
    if failed:
        print(f"{len(failed)} row(s) FAILED verification or raised; see above")
        return 1
    return 0
