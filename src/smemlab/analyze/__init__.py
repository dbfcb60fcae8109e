"""`smemlab analyze`: the shared-memory traffic of a whole kernel, line by line, with no GPU.

    from smemlab.analyze import analyze_source
    r = analyze_source("book/transpose.cu", "transposeNaive", block=(32, 8, 1), args=["out=float32[1024]", ...])
    r.totals("load")        # {"requests", "wavefronts", "ideal_wavefronts", "instructions"}
    r.ordered_lines()       # per source line, worst first

For kernels written in Python (api.py): `source(text_or_cupy_kernel, ...)`, `numba(cuda_jit_kernel, block, *args)`
and `triton(triton_jit_kernel, grid, *args, **constexprs)` return the same Report, which has `.to_json()`,
`.lines`, `.totals(kind)`, `.bank_map(line)` and an HTML table for Jupyter.

The pipeline, one module each: `nvrtc` (CUDA C++ -> PTX with line info), `ptx` (parsing), `cfg`
(labels, branches, reconvergence points), `machine` (registers, memories, symbols), `alu`,
`memops`, `warpops` (instruction semantics; `halves` and `fp8` the 16- and 8-bit floats), `casloop`
(the compare-and-swap loops of some shared atomics), `executor` (one block on a SIMT stack,
barriers), `spin` (loops that make no progress), `externs` (assert, printf, malloc), `ledger`
(per-instruction and per-line counts through the bank model), `args` (--arg), `session` (one
analysis, the Report) and `render` (tables, JSON, bank maps).
"""

from smemlab.analyze.api import numba, source, triton
from smemlab.analyze.session import (DEFAULT_MAX_STEPS, DEFAULT_TIME_LIMIT, AnalyzeError, Report, analyze_ptx,
                                     analyze_source)

__all__ = ["source", "numba", "triton", "analyze_source", "analyze_ptx", "Report", "AnalyzeError", "DEFAULT_MAX_STEPS", "DEFAULT_TIME_LIMIT"]
