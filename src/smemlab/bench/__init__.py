"""`smemlab bench`: each library op against what users have today, measured as users call it.

Each op's module registers a function that sweeps sizes from host-bound to memory-bound and calls
`Bench.case` for each (smemlab.bench.harness: verify every implementation, then time it one call
at a time and back to back), with goals (smemlab.bench.goals) judged after the op's cases ran::

    @register("transpose", order=10)
    def bench_transpose(b: Bench) -> None:
        x = b.random((4096, 4096), "float32")
        ref = cupy.ascontiguousarray(x.T)
        b.case("4096x4096 f32", bytes=2 * x.nbytes, out_bytes=x.nbytes, family="f32", size=x.size,
               impls=b.both(transpose, lambda t: t.t().contiguous(), lambda a: cupy.ascontiguousarray(a.T), x),
               check=lambda out: b.assert_close(out, ref, exact=True),
               targets=[goal("smemlab (cupy)", "ceiling", "cudaMemcpy", 0.90)])
"""

from __future__ import annotations

import time
from typing import Callable

from smemlab.bench.goals import evaluate
from smemlab.bench.harness import Bench, Impl, Row, format_row

__all__ = ["Bench", "Impl", "Row", "format_row", "register", "load_all", "run_benchmarks"]

REGISTRY: dict[str, tuple[int, Callable[[Bench], None]]] = {}


def register(name: str, order: int = 100):
    """Decorator: register `fn(b: Bench)` as the benchmark `name` (order: listing order)."""

    def deco(fn):
        REGISTRY[name] = (order, fn)
        return fn

    return deco


def load_all() -> dict[str, Callable[[Bench], None]]:
    """Every registered benchmark, name -> fn, in order."""
    from smemlab.bench import frameworks, histogram, matmul, reduce, stencil, transpose  # noqa: F401  (they register)

    return {name: fn for name, (order, fn) in sorted(REGISTRY.items(), key=lambda kv: (kv[1][0], kv[0]))}


def check_names(names: list[str] | None) -> list[str]:
    """The benchmarks to run (all where `names` is empty), or a UserError naming the unknown ones."""
    from smemlab.errors import UserError

    table = load_all()
    unknown = [n for n in names or [] if n not in table]
    if unknown:
        raise UserError(f"unknown benchmark {', '.join(unknown)}; known: {', '.join(table)}")
    return list(names or table)


def run_benchmarks(names: list[str] | None = None, *, quick: bool = False, log: Callable[[str], None] = print,
                   reps: int | None = None, device: int = 0) -> Bench:
    """Run the named benchmarks (default: all) on `device` and return the Bench with its rows."""
    selected = check_names(names)
    table = load_all()
    with Bench(quick=quick, log=log, reps=reps or (10 if quick else 20), device=device) as b:
        for name in selected:
            b.op = name
            t0 = time.perf_counter()
            log(f"[{name}]")
            try:
                table[name](b)
            except Exception as exc:  # one benchmark's crash is recorded; the others still run
                b.rows.append(Row(name, "-", "-", False, error=f"{type(exc).__name__}: {exc}"[:300]))
                log(f"  {name}: FAILED {type(exc).__name__}: {exc}")
            evaluate([r for r in b.rows if r.op == name])
            log(f"  ({time.perf_counter() - t0:.1f} s)")
            import cupy

            cupy.get_default_memory_pool().free_all_blocks()
            if b.torch is not None:
                b.torch.cuda.empty_cache()
    return b


def problems(rows: list[Row], facts) -> list[str]:
    """What makes a benchmark run fail: an output that failed its check, a goal left unjudged because
    a baseline failed, a figure no device can reach (`facts`: smemlab.device.DeviceFacts)."""
    from smemlab.bench.goals import blocked_by_failure
    from smemlab.bench.harness import implausible

    out = [f"{r.op} {r.case} {r.impl}: FAILED {r.error}" for r in rows if not r.ok]
    out += [f"not judged: {line}" for line in blocked_by_failure(rows)]
    out += [f"impossible figure: {line}" for line in implausible(rows, facts.peak_gbps, facts.peak_fp32_tflops, facts.l2_bytes)]
    return out
