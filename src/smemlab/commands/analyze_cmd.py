"""`smemlab analyze FILE.cu --kernel NAME --block ...`: a kernel's shared-memory traffic line by line, no GPU.

NVRTC compiles the file to PTX with line information; one thread block (with --cluster, the
cluster's blocks) is emulated on the CPU (all warps, divergence and reconvergence, barriers,
shuffles, atomics, distributed shared memory); every shared-memory
instruction a warp executes goes through the bank model, and the counts are summed per source line.
"""

from __future__ import annotations

import argparse

from smemlab.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "analyze", help="shared-memory bank conflicts of a whole kernel, line by line (no GPU needed)",
        description="Compile a CUDA file with NVRTC, emulate one thread block of the launch on the CPU, and count "
                    "the shared-memory requests and wavefronts of every source line as Nsight Compute counts them "
                    "on Hopper (H100/H200), worst line first, with a bank map of any line. A kernel launched as "
                    "thread-block clusters (--cluster, or its __cluster_dims__) has the whole cluster emulated: its "
                    "distributed shared memory is each block's own, and the counts are the cluster's.",
        epilog="examples:\n"
               "  smemlab analyze transpose.cu --kernel transposeNaive --block 32,8 --grid 4,4 \\\n"
               "      --arg out=float32[16384] --arg in=float32[16384] --arg n=128\n"
               "  smemlab analyze hist.cu --kernel histo --block 256 --dynamic-shared 1024 \\\n"
               "      --arg keys=int32[8192]:0..255 --arg bins=int32[256] --arg n=8192 --line 17 --png line17.png\n"
               "  smemlab analyze gemm.cu --kernel 'sgemm<128>' --block 256 --define BK=8 --json\n"
               "  smemlab analyze package:lab/histogram/histogram.cu --kernel clusterHist_kernel --block 256 --grid 4 \\\n"
               "      --cluster 4 --dynamic-shared 256 --arg bins=int32[256] --arg nbins=256 \\\n"
               "      --arg bins_per_block=64 --arg input=int32[8192]:0..255 --arg array_size=8192\n\n"
               "--arg VALUE: an integer or a float for a scalar parameter; DTYPE[COUNT] for a pointer to COUNT\n"
               "seeded random elements (int32, float32, ... or int, float, float4 ...), DTYPE[COUNT]:LO..HI for\n"
               "values in a range, FILE.npy for given data, ptrs(ITEM,...) for a pointer to a table of pointers to\n"
               "each item's buffer (batched pointer arrays, Triton's grouped-GEMM tables: ptrs(4*float16[4096]),\n"
               "item i filled as NAME[i]). Random integers are 0..1023 and floats -1..1 unless a\n"
               "range is given; a buffer NAME is filled from numpy.random.default_rng(zlib.crc32(NAME)). A struct\n"
               "passed by value takes DTYPE[COUNT] or FILE.npy of its size: the bytes of its fields, padding included.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE.cu", help="a CUDA source file as it sits (host code, launches and headers "
                                                   "included), or package:lab/NAME/NAME.cu, package:ops/NAME/NAME.cu: "
                                                   "the package's own (package:book/NAME.cu, package:lib/NAME.cu: "
                                                   "their old names, kept for one release); or FILE.py with a Numba @cuda.jit kernel "
                                                   "(--triton: a @triton.jit one) or a CuPy RawKernel or RawModule "
                                                   "(--kernel NAME, or MODULE.KERNEL)")
    p.add_argument("--list", action="store_true", help="list the file's kernels with their parameters, and stop")
    p.add_argument("--kernel", metavar="NAME", help="the kernel as written in the source: a name, a template instance "
                                                    "('k<float, 128>', instantiated if the file does not), or the "
                                                    "mangled symbol (optional where the file has one kernel)")
    p.add_argument("--block", metavar="X[,Y[,Z]]", help="threads per block")
    p.add_argument("--grid", default="1", metavar="X[,Y[,Z]]", help="blocks of the launch (default 1)")
    p.add_argument("--block-index", default="0,0,0", metavar="X,Y,Z",
                   help="the block to emulate (default 0,0,0; with --cluster, the cluster holding it)")
    p.add_argument("--cluster", default=None, metavar="X[,Y[,Z]]",
                   help="the thread-block cluster's shape (default: the kernel's __cluster_dims__, else none); all "
                        "its blocks are emulated and counted, each with its own shared memory")
    p.add_argument("--dynamic-shared", default="0", metavar="BYTES", help="dynamic shared memory per block")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE", help="a kernel argument (repeat)")
    p.add_argument("--define", "-D", action="append", default=[], metavar="NAME[=VALUE]", help="a macro (repeat)")
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR", help="an include directory")
    p.add_argument("-X", dest="options", action="append", default=[], metavar="OPTION",
                   help="an option for the compiler, as the repository's build passes it (repeat; write "
                        "-X=--expt-relaxed-constexpr for one that starts with a dash)")
    p.add_argument("--compiler", default="auto", choices=("auto", "nvcc", "nvrtc"),
                   help="nvcc compiles a file as it sits (host code too); NVRTC device code only; auto (default): "
                        "nvcc where installed, NVRTC for package: sources (what runs them)")
    py = p.add_argument_group("Python kernels (FILE.py)", "a @cuda.jit (Numba) kernel by default; with --triton "
                              "a @triton.jit one, one program of --grid emulated")
    py.add_argument("--triton", action="store_true", help="FILE.py's kernel is a @triton.jit function")
    py.add_argument("--num-warps", metavar="W", help="Triton: warps per program (default 4; an autotuned kernel: "
                                                      "its first config's)")
    py.add_argument("--num-stages", metavar="S", help="Triton: software-pipeline stages (default 3; an autotuned "
                                                       "kernel: its first config's)")
    py.add_argument("--constexpr", action="append", default=[], metavar="NAME=VALUE",
                    help="Triton: a tl.constexpr parameter's value (repeat)")
    p.add_argument("--line", metavar="N", help="also draw the bank map of line N's costliest warp")
    p.add_argument("--png", metavar="FILE", help="with --line: the bank map as a PNG")
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument("--blocks", default=None, metavar="all|N",
                   help="also count the whole launch's global and local traffic: every block of a small grid "
                        "(all), or N sampled blocks (first, neighbours, last of each dimension) with the rest "
                        "from the translation rule; each total marked exact or extrapolated. CUDA, Numba, CuPy "
                        "(blocks) and Triton (programs) kernels; a launch in clusters counts each cluster once")
    p.add_argument("--max-steps", default=None, metavar="N",
                   help="stop after N warp-instructions (default 10,000,000)")
    p.add_argument("--time-limit", default=None, metavar="SECONDS",
                   help="stop the emulation after SECONDS of wall clock (default 120; 0: no limit)")
    p.set_defaults(func=run)


def _launch(args, report):
    """The whole launch (--blocks): each chosen block emulated as the report's was, its addresses kept."""
    from smemlab.analyze import analyze_source
    from smemlab.analyze.launch import whole_launch

    cupy = getattr(report, "cupy", None)  # (the CuPy kernel, its name) where the report is of one
    blocks = args.blocks.strip().lower()
    if blocks != "all":
        blocks = _count(blocks, "blocks", 1)

    def run(b):
        if args.file.endswith(".py") and cupy is None:  # a Numba kernel's block, a Triton kernel's program
            return _python(args, b, keep_addresses=True)
        if cupy is not None:
            from smemlab.analyze import cupy_front

            return cupy_front.analyze(args.file, *cupy, report.block, report.grid, b, report.dynamic_shared, args.arg,
                                      keep_addresses=True)
        return analyze_source(args.file, report.kernel, report.block, report.grid, b, report.dynamic_shared, args.arg,
                              _defines(args.define), args.include, compiler=args.compiler,
                              options=_options(args.options), keep_addresses=True, cluster=cluster)
    cluster = tuple(report.cluster)  # a report of a clustered launch holds its whole cluster: sum the clusters
    return whole_launch(run, report.grid, blocks, cluster)


def _dims(text: str, what: str, zero_ok: bool = False) -> tuple[int, ...]:
    parts = str(text).replace("x", ",").replace("X", ",").split(",")
    try:
        values = tuple(int(p.strip(), 0) for p in parts)
    except ValueError:
        raise UserError(f"--{what} {text!r}: write 1 to 3 integers separated by commas, like 32,8") from None
    if not 1 <= len(values) <= 3 or any(v < 0 or (v == 0 and not zero_ok) for v in values):
        raise UserError(f"--{what} {text!r}: give 1 to 3 {'non-negative' if zero_ok else 'positive'} integers")
    return values


def _count(text, what: str, minimum: int = 0) -> int:
    try:
        v = int(str(text), 0)
    except ValueError:
        raise UserError(f"--{what} {text!r} is not an integer") from None
    if v < minimum:
        raise UserError(f"--{what} must be at least {minimum}, got {v}")
    return v


def _options(items: list[str]) -> list[str]:
    out = []
    for o in items:
        out += o.split() if o.strip() else []
    return out


def _list(args) -> int:
    import json

    from rich.console import Console
    from rich.markup import escape

    from smemlab.analyze.unit import list_kernels

    if args.file.endswith(".py"):
        return _list_python(args)
    kernels, pending = list_kernels(args.file, _defines(args.define), args.include, _options(args.options),
                                    args.compiler)
    if args.json:
        print(json.dumps({"kernels": [{"name": k.name, "symbol": k.symbol,
                                       "params": [{"name": n, "type": t} for n, t in k.params]} for k in kernels],
                          "templates": pending}))
        return 0
    con = Console(highlight=False, soft_wrap=True)
    if not kernels:
        con.print(f"{escape(args.file)}: no kernel is compiled")
    for k in kernels:
        params = ", ".join(f"{t} {n}" if n else t for n, t in k.params)
        con.print(f"[bold]{escape(k.name)}[/]({escape(params)})")
    for t in pending:
        con.print(f"[bold]{escape(t)}[/]<...>  a template kernel: name an instance, --kernel '{escape(t)}<...>'")
    return 0


def _list_python(args) -> int:
    """The @cuda.jit (or with --triton, @triton.jit) kernels of a Python file, with their parameters."""
    import json
    import sys

    from smemlab.analyze import cupy_front, numba_front, pyfile, triton_front

    front = triton_front if args.triton else numba_front
    raw, generated = {}, {}
    if not args.triton and cupy_front.mentions(args.file):
        module = cupy_front.load(args.file)
        found, generated = cupy_front.kernels(module)
        raw = {id(k): k for k in found.values()}
        generated = {v: kind for v, kind in generated.items() if v in vars(module)}  # by variable, not kernel name
    params = {}
    try:
        front.require()
    except UserError:
        if not raw:  # a file of CuPy kernels alone needs no Numba
            raise
    else:
        module = triton_front.load(args.file) if args.triton else numba_front.load(args.file)
        found = {n: v for n, v in vars(module).items() if front.is_kernel(v) and pyfile.defined_here(v, module)}
        params = {n: [p.name for p in triton_front.unwrap(v)[0].params] if args.triton else numba_front.parameters(v)
                  for n, v in found.items()}
    cupy_kernels = [{"name": k.kernel or k.variable, "cupy": "RawKernel" if k.kernel else "RawModule",
                     **({} if k.kernel else {"kernels": [f"{k.variable}.{n}" for n in k.names]})}
                    for k in raw.values()]
    if args.json:
        print(json.dumps({"kernels": [{"name": n, "params": [{"name": p} for p in ps]} for n, ps in params.items()]
                          + cupy_kernels}))
        return 0
    for n, ps in sorted(params.items()):
        sys.stdout.write(f"{n}({', '.join(ps)})\n")
    for k in cupy_kernels:
        if k["cupy"] == "RawModule":
            held = ", ".join(k["kernels"]) or "none found: name a template instance as --kernel " + k["name"] + ".NAME<...>"
            sys.stdout.write(f"{k['name']}  (a cupy.RawModule; its kernels, as --kernel takes them: {held})\n")
        else:
            sys.stdout.write(f"{k['name']}  (a cupy.RawKernel)\n")
    for n, kind in sorted(generated.items()):  # named, so that a file of these alone does not read as empty
        sys.stdout.write(f"{n}  ({cupy_front._what(kind)}: not analysed, CuPy writes its CUDA code when it is "
                         "first called)\n")
    if not params and not cupy_kernels and not generated:
        sys.stdout.write(f"{args.file}: no {'@triton.jit' if args.triton else '@cuda.jit or CuPy'} kernel\n")
    return 0


def _seconds(text) -> float | None:
    try:
        v = float(str(text))
    except ValueError:
        raise UserError(f"--time-limit {text!r} is not a number of seconds") from None
    if not v >= 0:
        raise UserError(f"--time-limit must be at least 0, got {text}")
    return v or None  # 0: no limit


def _defines(items: list[str]) -> dict[str, str]:
    out = {}
    for d in items:
        name, _, value = d.partition("=")
        if not name.strip() or not name.strip().replace("_", "a").isalnum():
            raise UserError(f"--define {d!r}: write NAME or NAME=VALUE")
        out[name.strip()] = value
    return out


def run(args) -> int:
    if not args.json:
        return _run(args)
    import json
    import sys

    try:
        return _run(args)
    except UserError as exc:  # under --json an error is one JSON object too, with the same status
        print(json.dumps({"error": str(exc)}))
        sys.stdout.flush()
        return exc.exit_status


def _python(args, block_index=None, keep_addresses: bool = False):
    """A kernel in a Python file: Numba's @cuda.jit, or with --triton a @triton.jit function; `block_index`: the
    block (program) to emulate where not --block-index's, `keep_addresses`: for --blocks (launch.py)."""
    from smemlab.analyze import DEFAULT_MAX_STEPS, DEFAULT_TIME_LIMIT

    run = {"max_steps": _count(args.max_steps, "max-steps", 1) if args.max_steps is not None else DEFAULT_MAX_STEPS,
           "time_limit": _seconds(args.time_limit) if args.time_limit is not None else DEFAULT_TIME_LIMIT}
    if keep_addresses:
        run["keep_addresses"] = True
    index = tuple(block_index) if block_index is not None else _dims(args.block_index, "block-index", zero_ok=True)
    if args.define or args.include or args.options or args.compiler != "auto":
        raise UserError("--define, -I, -X and --compiler are for CUDA C++ files; a Python file's kernel is compiled "
                        "by its own compiler (Numba or Triton), a CuPy kernel with the options and backend its "
                        "RawKernel or RawModule is given (CuPy's way)")
    if args.triton:
        from smemlab.analyze import triton_front

        if args.block is not None or args.dynamic_shared != "0" or args.cluster is not None:
            raise UserError("--block, --dynamic-shared and --cluster are not for a Triton kernel: its program has "
                            "--num-warps warps and Triton sizes its shared memory")
        return triton_front.analyze(
            args.file, _dims(args.grid, "grid"), name=args.kernel, args=args.arg, constexprs=args.constexpr,
            num_warps=None if args.num_warps is None else _count(args.num_warps, "num-warps", 1),
            num_stages=None if args.num_stages is None else _count(args.num_stages, "num-stages", 1),
            program=index, **run)
    from smemlab.analyze import cupy_front, numba_front

    hit = cupy_front.pick(args.file, args.kernel) if cupy_front.mentions(args.file) else None
    if args.block is None:
        raise UserError("--block X[,Y[,Z]] is needed: the threads of a block (or --triton for a Triton kernel)")
    if args.constexpr:
        raise UserError("--constexpr is for a Triton kernel (--triton)")
    if hit is not None:  # a cupy.RawKernel or a kernel of a cupy.RawModule
        found, name = hit
        report = cupy_front.analyze(
            args.file, found, name, _dims(args.block, "block"), _dims(args.grid, "grid"),
            index, _count(args.dynamic_shared, "dynamic-shared"),
            args=args.arg, cluster=_dims(args.cluster, "cluster") if args.cluster is not None else None, **run)
        report.cupy = (found, name)  # what --blocks analyses again, block by block
        return report
    return numba_front.analyze(
        args.file, _dims(args.block, "block"), _dims(args.grid, "grid"),
        index, _count(args.dynamic_shared, "dynamic-shared"),
        args=args.arg, name=args.kernel,
        cluster=_dims(args.cluster, "cluster") if args.cluster is not None else None, **run)


def _run(args) -> int:
    import json
    import os

    from smemlab.analyze import DEFAULT_MAX_STEPS, DEFAULT_TIME_LIMIT, analyze_source

    if args.list:
        return _list(args)
    if args.triton and not args.file.endswith(".py"):
        raise UserError(f"--triton takes a .py file's @triton.jit kernels; {args.file} is CUDA C++ (drop --triton "
                        f"and give --block)")
    if args.block is None and not args.file.endswith(".py"):
        raise UserError("--block X[,Y[,Z]] is needed: the threads of a block (or --list to see the kernels)")
    if args.png and args.line is None:
        raise UserError("--png draws the bank map of --line N: give --line too")
    line = _count(args.line, "line", 1) if args.line is not None else None
    if args.file.endswith(".py"):
        report = _python(args)
    else:
        report = analyze_source(
            args.file, args.kernel, _dims(args.block, "block"), _dims(args.grid, "grid"),
            _dims(args.block_index, "block-index", zero_ok=True), _count(args.dynamic_shared, "dynamic-shared"),
            args.arg, _defines(args.define), args.include,
            _count(args.max_steps, "max-steps", 1) if args.max_steps is not None else DEFAULT_MAX_STEPS,
            cluster=_dims(args.cluster, "cluster") if args.cluster is not None else None,
            options=_options(args.options), compiler=args.compiler,
            time_limit=_seconds(args.time_limit) if args.time_limit is not None else DEFAULT_TIME_LIMIT)
    if args.blocks is not None:
        report.launch = _launch(args, report)
    from smemlab.analyze import render

    if line is not None:
        render.require_line(report, line)
    if args.json:
        doc = render.to_json(report)
        if line is not None:
            if args.png:
                from rich.console import Console

                render.print_line_map(report, Console(stderr=True, quiet=True), line, args.png)
        print(json.dumps(doc))
        return 0
    from rich.console import Console

    con = Console(highlight=False, soft_wrap=True)
    if not con.is_terminal and not os.environ.get("COLUMNS"):  # piped: wide enough for the table and the bank map
        con = Console(highlight=False, soft_wrap=True, width=140)
    render.print_report(report, con, line, args.png)
    return 0
