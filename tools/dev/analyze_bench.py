"""How fast `smemlab analyze` emulates: warp-instructions per second on kernels of 256 threads.

    python tools/dev/analyze_bench.py            # the library's block-tiled SGEMM and a shared-memory stencil
    python tools/dev/analyze_bench.py --k 2048   # a longer K loop

Each kernel is analysed once to warm the PTX cache, then timed (compile excluded). The figure
to beat (issue 12): one million warp-instructions of a 256-thread block in under 10 s on a 2-core
machine with no GPU. No timing is asserted anywhere; this prints.
"""

from __future__ import annotations

import argparse
import os
import platform
import time


def cases(k: int):
    m = n = 128
    mm = [f"A=float32[{m * k}]", f"B=float32[{k * n}]", f"C=float32[{m * n}]", f"M={m}", f"N={n}", f"K={k}",
          "vecA=1", "vecB=1", "vecC=1"]
    yield "ops_matmul mm_blocktile2d (256 threads, 8x8 per thread)", "package:ops/matmul/matmul.cu", "mm_blocktile2d", mm, {}
    yield "ops_matmul mm_warptile_db16 (256 threads)", "package:ops/matmul/matmul.cu", "mm_warptile_db16", mm, {}
    n = 256 * 4 * 4 * 64
    yield ("lab/stencil/stencil.cu stancli1DGPU, 256 threads looping over 64 tiles", "package:lab/stencil/stencil.cu", "stancli1DGPU",
           [f"in=float32[{n + 8}]", f"out=float32[{n}]", f"size={n}", "coef=float32[5]"], {"RADIUS": "4", "BDIM": "256"})


def main() -> None:
    from smemlab.analyze import analyze_source
    from smemlab.analyze.args import signature  # noqa: F401  (import cost outside the timing)

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=int, default=1024, help="K of the SGEMM (its loop length)")
    a = ap.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for label, path, kernel, args, defines in cases(a.k):
        analyze_source(path, kernel, (256, 1, 1), args=args, defines=defines)
        t = time.perf_counter()
        r = analyze_source(path, kernel, (256, 1, 1), args=args, defines=defines, max_steps=100_000_000)
        dt = time.perf_counter() - t
        print(f"{label}: {r.steps:,} warp-instructions in {dt:.2f} s = {r.steps / dt:,.0f} per second "
              f"({r.steps / 1e6 / dt:.2f} M/s; 1 M in {1e6 / (r.steps / dt):.2f} s)")


if __name__ == "__main__":
    main()
