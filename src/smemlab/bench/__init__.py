"""`smemlab bench`: each library op against what users have today and a plain copy, in one run.

Registry API (for bench/<op>.py modules; add the module name to MODULES below)::

    from smemlab.bench import register, Bench

    @register("transpose", order=10)          # the name `smemlab bench transpose` selects
    def bench_transpose(b: Bench) -> None:
        for rows, cols in b.sizes([(16384, 16384), (12000, 7000)], quick=[(4096, 4096)]):
            x = b.random((rows, cols), "float32")              # seeded, never zeros
            ref = ...                                          # what every output must equal
            b.case(
                f"{rows}x{cols} f32",                          # the case's label
                bytes=2 * x.nbytes,                            # bytes read + written, once each
                impls={                                        # name -> fn() returning the output
                    "smemlab": lambda: ops.transpose(x),
                    "cupy": lambda: cupy.ascontiguousarray(x.T),
                    **b.torch_impls(x, lambda t: t.t().contiguous()),  # absent without torch
                },
                check=lambda out: b.assert_close(out, ref),   # raise AssertionError if wrong
                copy=True,                                     # also time the copy kernel on `bytes`
                target=("copy", 0.90),                        # optional goal(s), checked after the run:
            )                                                  # ("copy", r), ("cupy", r), (("torch", "cupy"), r)

`Bench.case` verifies every implementation's output before timing it (with the memory pool
poisoned first, so an output that is never written fails), then times each with CUDA events
(warm-up, then the median of `reps` samples, each `batch` back-to-back calls; min and max kept) on the current CuPy stream, and appends one Row
per implementation: milliseconds, GB/s (decimal, `bytes` / time) or TFLOP/s (`flops=`), the ratio
to the copy kernel moving the same bytes in the same run, and the first implementation's speed
over each other one ("x vs smemlab"). A failed check records the error and skips timing.
A target names what the first implementation is compared with: "copy" (its bandwidth over the copy
kernel's), or one or several other implementations of the same case (the best of their times over
ours); `evaluate_targets` fills in the measured ratio and whether it was met, after every case of
the benchmark has run. Slow implementations get fewer samples (at least MIN_REPS, one call each)
so that a sweep stays within minutes. `Bench.rows` holds the results; the command prints them,
writes JSON and plots.
"""

from __future__ import annotations

import importlib
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

SLOW_MS = 2.0  # a call slower than this is timed one call per sample ...
BUDGET_MS = 400.0  # ... with about this much GPU time for its samples
MIN_REPS = 7

MODULES = [
    "smemlab.bench.transpose",
    "smemlab.bench.reduce",
    "smemlab.bench.stencil",
    "smemlab.bench.histogram",
    "smemlab.bench.matmul",
]

REGISTRY: dict[str, tuple[int, Callable[["Bench"], None]]] = {}


def register(name: str, order: int = 100):
    """Decorator: register `fn(b: Bench)` as the benchmark `name` (order: listing order)."""

    def deco(fn):
        REGISTRY[name] = (order, fn)
        return fn

    return deco


def load_all() -> dict[str, Callable[["Bench"], None]]:
    """Import every benchmark module (missing ones are skipped) and return name -> fn, in order."""
    for mod in MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise
    return {name: fn for name, (order, fn) in sorted(REGISTRY.items(), key=lambda kv: (kv[1][0], kv[0]))}


@dataclass
class Row:
    op: str
    case: str
    impl: str
    ok: bool
    error: str = ""
    median_ms: float | None = None  # None where the row did not verify (JSON has no NaN)
    min_ms: float | None = None
    max_ms: float | None = None
    reps: int = 0
    gbps: float | None = None
    tflops: float | None = None
    vs_copy: float | None = None  # this impl's bandwidth / the copy kernel's on the same bytes
    speedup: float | None = None  # the case's first impl's time over this one's (>1: first is faster)
    note: str = ""
    # one dict per goal: {"vs": "copy" or the implementations compared with, "want": ratio,
    # "got": the ratio measured in this run, "met": bool}; filled by evaluate_targets
    targets: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Bench:
    """The context a benchmark function gets: sizes, inputs, checks, timing, and the rows."""

    quick: bool = False
    reps: int = 30
    warmup: int = 5
    batch: int = 5  # calls per timed sample (see time_fn)
    seed: int = 1234
    log: Callable[[str], None] = print
    rows: list[Row] = field(default_factory=list)
    op: str = ""
    _copy_cache: dict[int, tuple[float, float]] = field(default_factory=dict)
    _rng_calls: int = 0

    # -- sizes and inputs -------------------------------------------------------------------
    def sizes(self, full: Iterable[Any], quick: Iterable[Any] | None = None) -> list[Any]:
        return list(quick if (self.quick and quick is not None) else full)

    def random(self, shape: Any, dtype: Any = "float32", low: float = -1.0, high: float = 1.0):
        """Seeded random CuPy data, never all zeros: uniform [low, high) for floats, integers in
        [low, high) for integer dtypes (defaults to [-1000, 1000))."""
        import cupy

        self._rng_calls += 1
        rng = cupy.random.default_rng(self.seed + self._rng_calls)
        dt = np.dtype(dtype)
        if dt.kind in "iu":
            lo, hi = (int(low), int(high)) if (low, high) != (-1.0, 1.0) else (-1000, 1000)
            return rng.integers(lo, hi, size=shape, dtype=dt)
        if dt == np.float32:
            return rng.random(size=shape, dtype=np.float32) * np.float32(high - low) + np.float32(low)
        return (rng.random(size=shape, dtype=np.float64) * (high - low) + low).astype(dt)

    def torch_impls(self, x, fn: Callable[[Any], Any], name: str = "torch") -> dict[str, Callable[[], Any]]:
        """{name: fn(t) on CuPy's current stream} with t a torch view of the CuPy array x (zero
        copy), or {} when torch is not installed."""
        t = self.torch_view(x)
        if t is None:
            return {}
        return {name: self.on_cupy_stream(lambda: fn(t))}

    @staticmethod
    def on_cupy_stream(fn: Callable[[], Any]) -> Callable[[], Any]:
        """fn, made to enqueue its torch work on CuPy's current stream, the one the events are
        recorded on. Left on torch's own stream, the work would run outside the events (times
        of microseconds) and pile up behind the next measurements."""
        import cupy
        import torch

        stream = torch.cuda.ExternalStream(cupy.cuda.get_current_stream().ptr)

        def run():
            with torch.cuda.stream(stream):
                return fn()

        return run

    @staticmethod
    def torch_view(x):
        try:
            import torch
        except Exception:
            return None
        return torch.from_dlpack(x)

    # -- checks ------------------------------------------------------------------------------
    @staticmethod
    def to_cupy(out):
        import cupy

        if isinstance(out, cupy.ndarray):
            return out
        return cupy.from_dlpack(out)

    def assert_close(self, out, ref, *, rtol: float = 0.0, atol: float = 0.0, exact: bool = False) -> None:
        """out (CuPy or torch) against ref (CuPy or NumPy): shape, dtype class, values."""
        import cupy

        o = self.to_cupy(out)
        r = cupy.asarray(ref)
        if o.shape != r.shape:
            raise AssertionError(f"shape {o.shape}, expected {r.shape}")
        if exact:
            bad = int(cupy.count_nonzero(o != r))
            if bad:
                raise AssertionError(f"{bad} of {o.size} elements differ")
            return
        of, rf = o.astype(cupy.float64), r.astype(cupy.float64)
        err = cupy.abs(of - rf)
        bad = int(cupy.count_nonzero(~(err <= atol + rtol * cupy.abs(rf))))
        if bad:
            raise AssertionError(f"{bad} of {o.size} elements off (max error {float(cupy.nanmax(err)):.3g}, NaN {int(cupy.isnan(of).sum())})")

    # -- timing ------------------------------------------------------------------------------
    def _poison(self, nbytes: int) -> None:
        """Leave a freed block of `nbytes` 0xFF bytes (NaN / -1) at the top of CuPy's pool, so a
        fresh output allocation of that size very likely reuses it: unwritten elements show."""
        import cupy

        if nbytes <= 0:
            return
        p = cupy.empty(nbytes, dtype=np.uint8)
        p.fill(0xFF)
        del p

    def time_fn(self, fn: Callable[[], Any], batch: int | None = None) -> tuple[float, float, float, int]:
        """(median, min, max) milliseconds per call and the number of samples. Each sample is
        `batch` back-to-back calls between two CUDA events, divided by `batch`: the host's per-call
        Python overhead (tens of microseconds for CuPy and for us alike) then overlaps the GPU work
        instead of being counted as GPU time, as it would be with one call per event pair. A call
        that takes longer than SLOW_MS is timed alone, with as many samples as BUDGET_MS allows
        (never fewer than MIN_REPS), so that one slow baseline does not hold a sweep up for minutes."""
        import cupy

        batch = batch or self.batch
        reps = self.reps
        stream = cupy.cuda.get_current_stream()
        cupy.cuda.Device().synchronize()  # nothing left over from other streams overlaps the samples
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(stream)
        fn()
        stop.record(stream)
        stop.synchronize()
        once = cupy.cuda.get_elapsed_time(start, stop)
        if once > SLOW_MS:
            batch, reps = 1, max(MIN_REPS, min(reps, int(BUDGET_MS / once)))
        for _ in range(self.warmup if once <= SLOW_MS else 1):
            fn()
        stream.synchronize()
        samples = []
        for _ in range(reps):
            start.record(stream)
            for _ in range(batch):
                fn()
            stop.record(stream)
            stop.synchronize()
            samples.append(cupy.cuda.get_elapsed_time(start, stop) / batch)
        return statistics.median(samples), min(samples), max(samples), reps

    def copy_time(self, nbytes_moved: int) -> tuple[tuple[float, float, float, int], float]:
        """((median, min, max ms, samples), GB/s) of the plain float4 copy kernel reading and
        writing nbytes_moved / 2 bytes each, measured once per size in this run (and verified)."""
        if nbytes_moved in self._copy_cache:
            return self._copy_cache[nbytes_moved]
        import cupy

        from smemlab.ops import _common as C

        n4 = max(1, nbytes_moved // 2 // 16)
        src = self.random(n4 * 4, "float32").view(np.float32)
        dst = cupy.empty_like(src)
        dst.fill(np.nan)
        k = C.kernel("ops_copy.cu", "ops_copy_f4")
        grid = C.sm_count() * 8

        def run():
            C.launch(k, grid, 256, dst, src, np.uint64(n4))

        run()
        if not bool(cupy.array_equal(dst, src)):
            raise AssertionError("the copy kernel's output differs from its input")
        timing = self.time_fn(run)
        result = (timing, 2 * n4 * 16 / timing[0] / 1e6)
        self._copy_cache[nbytes_moved] = result
        src = dst = None
        return result

    def case(
        self,
        case: str,
        *,
        impls: dict[str, Callable[[], Any]],
        check: Callable[[Any], None],
        bytes: int | None = None,
        flops: int | None = None,
        out_bytes: int = 0,
        copy: bool = True,
        target: Any = None,
        note: str = "",
    ) -> list[Row]:
        """Verify then time every implementation; append and return the rows (first = ours)."""
        import cupy

        rows: list[Row] = []
        copy_gbps = None
        if copy and bytes:
            try:
                (cms, cmin, cmax, creps), copy_gbps = self.copy_time(bytes)
                rows.append(Row(self.op, case, "copy kernel", True, median_ms=cms, min_ms=cmin, max_ms=cmax, reps=creps,
                                gbps=copy_gbps, vs_copy=1.0))
            except Exception as exc:  # pragma: no cover - reported, not fatal
                rows.append(Row(self.op, case, "copy kernel", False, error=str(exc)))
        first_ms = None
        for i, (name, fn) in enumerate(impls.items()):
            row = Row(self.op, case, name, True, note=note if i == 0 else "")
            if i == 0:  # the goals are ours, met or (when our output fails its check) missed
                row.targets = target_specs(target)
            try:
                self._poison(out_bytes)
                out = fn()
                cupy.cuda.get_current_stream().synchronize()
                check(out)
                del out
            except Exception as exc:
                row.ok, row.error = False, f"{type(exc).__name__}: {exc}"[:300]
                rows.append(row)
                self.log(f"  {self.op} {case} {name}: FAILED {row.error}")
                continue
            row.median_ms, row.min_ms, row.max_ms, row.reps = self.time_fn(fn)
            med = row.median_ms
            if bytes:
                row.gbps = bytes / med / 1e6
                if copy_gbps:
                    row.vs_copy = row.gbps / copy_gbps
            if flops:
                row.tflops = flops / med / 1e9
            if first_ms is None:
                first_ms = med
            row.speedup = med / first_ms if first_ms else None
            rows.append(row)
        self.rows.extend(rows)
        for r in rows:
            self.log("  " + format_row(r))
        return rows


def target_specs(target: Any) -> list[dict]:
    """("copy", 0.9) or [("copy", 0.9), (("torch", "cupy"), 5)] -> [{"vs": ..., "want": ...}]."""
    if not target:
        return []
    single = len(target) == 2 and isinstance(target[1], (int, float))
    items = [target] if single else list(target)
    out = []
    for vs, want in items:
        names = (vs,) if isinstance(vs, str) else tuple(vs)
        out.append({"vs": ", ".join(names) if len(names) == 1 else "best of " + ", ".join(names),
                    "impls": list(names), "want": float(want), "got": None, "met": None})
    return out


def evaluate_targets(rows: list[Row]) -> None:
    """Fill in each goal's measured ratio from the rows of the same (op, case): against "copy",
    the row's bandwidth over the copy kernel's; against implementations, the best (least) of their
    median times over the row's. A goal whose comparison did not run stays unmet, with got None."""
    for r in rows:
        for t in r.targets:
            t["got"], t["met"] = None, False
            if not r.ok:
                continue
            if t["impls"] == ["copy"]:
                t["got"] = r.vs_copy
            else:
                others = [o.median_ms for o in rows if o.op == r.op and o.case == r.case and o.ok
                          and o.impl in t["impls"]]
                t["got"] = min(others) / r.median_ms if others else None
            t["met"] = t["got"] is not None and t["got"] >= t["want"]


def format_row(r: Row) -> str:
    if not r.ok:
        return f"{r.op:10s} {r.case:22s} {r.impl:16s} FAILED: {r.error}"
    parts = [f"{r.op:10s} {r.case:22s} {r.impl:16s} {r.median_ms:9.4f} ms"]
    if r.gbps is not None:
        parts.append(f"{r.gbps:8.1f} GB/s")
    if r.tflops is not None:
        parts.append(f"{r.tflops:7.2f} TFLOP/s")
    if r.vs_copy is not None:
        parts.append(f"{r.vs_copy:5.2f} of copy")
    if r.speedup is not None and r.impl not in ("copy kernel",):
        parts.append(f"{r.speedup:6.2f}x")
    return "  ".join(parts)


def run_benchmarks(names: list[str] | None = None, *, quick: bool = False, log: Callable[[str], None] = print,
                   reps: int | None = None) -> Bench:
    """Run the named benchmarks (default: all registered) and return the Bench with its rows."""
    from smemlab.errors import UserError

    table = load_all()
    if names:
        unknown = [n for n in names if n not in table]
        if unknown:
            raise UserError(f"unknown benchmark {', '.join(unknown)}; known: {', '.join(table)}")
        selected = {n: table[n] for n in names}
    else:
        selected = table
    b = Bench(quick=quick, log=log, reps=reps or (10 if quick else 20))
    for name, fn in selected.items():
        b.op = name
        t0 = time.perf_counter()
        log(f"[{name}]")
        try:
            fn(b)
        except Exception as exc:  # one benchmark's crash is recorded; the others still run
            b.rows.append(Row(name, "-", "-", False, error=f"{type(exc).__name__}: {exc}"[:300]))
            log(f"  {name}: FAILED {type(exc).__name__}: {exc}")
        evaluate_targets([r for r in b.rows if r.op == name])
        log(f"  ({time.perf_counter() - t0:.1f} s)")
        import cupy

        cupy.get_default_memory_pool().free_all_blocks()
    return b
