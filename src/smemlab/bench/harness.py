"""The benchmark's harness: one stream for every implementation, verify before timing, two figures.

The measuring is smemlab.measure's, as the experiments' is. For every implementation of a case,
`Bench.case`:
1. poisons the memory pools (CuPy's and torch's) so that an output nobody writes shows, calls the
   implementation once, and checks its output; a failed check records the error and skips timing;
2. times it two ways:
   - latency: one call at a time, host path included, each call followed by a synchronize and
     timed alone on the host clock; the median (and min, max) over many calls. This is what a user
     calling from Python waits for. Each implementation makes runs of calls in a row (a user's
     loop; the first call of a run, which pays for what the previous implementation left behind,
     is not counted), and the implementations take turns run by run, so a drift of the clocks
     while they are measured reaches all of them alike.
   - throughput: back-to-back calls between two CUDA events (a batch per sample, after an untimed
     lead-in call, so that the host path of every call overlaps the GPU work), divided by the batch; the median, min and max over the samples.
3. derives bandwidth (bytes read + written once each / throughput time, decimal GB/s) or TFLOP/s,
   and the ratio to cudaMemcpyAsync device-to-device moving the same bytes in the same run.

Every implementation runs on one stream, made current for CuPy and for torch for the whole run
(`Bench` is a context manager), the stream the events are recorded on: the library follows the
caller's current stream, CuPy and torch follow theirs, so nothing runs outside the timed region.
A row is a smemlab.records.BenchRow (`Row` here), the record type the report reads.
"""

from __future__ import annotations

import dataclasses
import zlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from smemlab import measure
from smemlab.frameworks import cupy_tf32_off, torch_tf32_off
from smemlab.measure import BUDGET_MS
from smemlab.records import BenchRow

Row = BenchRow  # one implementation of one case: verified, then timed


@dataclass
class Impl:
    """An implementation of a case: the call, and the array type it is called with."""

    fn: Callable[[], Any]
    framework: str = ""


class Bench:
    """The context a benchmark function gets: sizes, inputs, checks, timing, and the rows."""

    def __init__(self, quick: bool = False, reps: int = 20, warmup: int = 5, batch: int = 5, seed: int = 1234,
                 log: Callable[[str], None] = print, device: int = 0):
        self.quick, self.reps, self.warmup, self.batch, self.seed = quick, reps, warmup, batch, seed
        self.log, self.device = log, device
        self.rows: list[Row] = []
        self.op = ""
        self._memcpy: dict[int, Row] = {}
        self._rng_calls: dict[str, int] = {}  # per benchmark: its data are the same run alone or with others
        self.torch = _torch_cuda()

    # -- one stream for everything -----------------------------------------------------------
    def __enter__(self) -> "Bench":
        import cupy

        self._device_ctx = cupy.cuda.Device(self.device)
        self._device_ctx.__enter__()
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self._prev_cupy = cupy.cuda.get_current_stream()
        self.stream.use()
        cupy_tf32_off()  # cuBLAS in plain float32, as smemlab's matmul
        if self.torch is not None:
            torch = self.torch
            self._prev_torch_device = torch.cuda.current_device()
            torch.cuda.set_device(self.device)
            self._prev_torch = torch.cuda.current_stream(self.device)
            torch.cuda.set_stream(torch.cuda.ExternalStream(self.stream.ptr, device=self.device))
            torch_tf32_off(torch)
        return self

    def __exit__(self, *exc) -> None:
        self.stream.synchronize()
        if self.torch is not None:
            self.torch.cuda.set_stream(self._prev_torch)
            self.torch.cuda.set_device(self._prev_torch_device)
        self._prev_cupy.use()
        self._device_ctx.__exit__(*exc)

    def sync(self) -> None:
        self.stream.synchronize()

    # -- sizes and inputs -------------------------------------------------------------------
    def sizes(self, full, quick=None) -> list:
        return list(quick if (self.quick and quick is not None) else full)

    def random(self, shape: Any, dtype: Any = "float32", low: float = -1.0, high: float = 1.0):
        """Seeded random CuPy data (the seed, the benchmark's name and the call's number within it:
        `smemlab bench reduce` draws what the full run draws for reduce), never all zeros: uniform [low, high) for floats, integers in
        [low, high) for integer dtypes (defaults to [-1000, 1000))."""
        import cupy

        calls = self._rng_calls[self.op] = self._rng_calls.get(self.op, 0) + 1
        key = np.random.SeedSequence([self.seed, zlib.crc32(self.op.encode()), calls]).generate_state(1)[0]
        rng = cupy.random.default_rng(int(key))
        dt = np.dtype(dtype)
        if dt.kind in "iu":
            lo, hi = (int(low), int(high)) if (low, high) != (-1.0, 1.0) else (-1000, 1000)
            return rng.integers(lo, hi, size=shape, dtype=dt)
        if dt == np.float32:
            return rng.random(size=shape, dtype=np.float32) * np.float32(high - low) + np.float32(low)
        return (rng.random(size=shape, dtype=np.float64) * (high - low) + low).astype(dt)

    def as_torch(self, x):
        """A torch view of the CuPy array `x` (zero copy), or None without torch."""
        return None if self.torch is None else self.torch.from_dlpack(x)

    def both(self, ours: Callable[..., Any], torch_fn: Callable[..., Any] | None, cupy_fn: Callable[..., Any] | None,
             *arrays, torch_name: str = "torch", cupy_name: str = "cupy") -> dict[str, Impl]:
        """The same work called as a user of each framework calls it: smemlab and the framework's own
        op on torch views of `arrays` (where torch is installed), then on the CuPy arrays themselves.
        A baseline given as None is left out."""
        impls: dict[str, Impl] = {}
        if self.torch is not None:
            views = [self.as_torch(a) for a in arrays]
            impls["smemlab (torch)"] = Impl(lambda: ours(*views), "torch")
            if torch_fn is not None:
                impls[torch_name] = Impl(lambda: torch_fn(*views), "torch")
        impls["smemlab (cupy)"] = Impl(lambda: ours(*arrays), "cupy")
        if cupy_fn is not None:
            impls[cupy_name] = Impl(lambda: cupy_fn(*arrays), "cupy")
        return impls

    # -- checks ------------------------------------------------------------------------------
    @staticmethod
    def to_cupy(out):
        import cupy

        if isinstance(out, cupy.ndarray):
            return out
        # a result that requires grad (a training step's) is read, not differentiated: DLPack refuses it attached
        return cupy.from_dlpack(out.detach() if hasattr(out, "detach") else out)

    def assert_close(self, out, ref, *, rtol: float = 0.0, atol: float = 0.0, exact: bool = False) -> None:
        """out (CuPy or torch) against ref (CuPy or NumPy): shape, then values."""
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
            raise AssertionError(f"{bad} of {o.size} elements off (max error {float(cupy.nanmax(err)):.3g}, "
                                 f"NaN {int(cupy.isnan(of).sum())})")

    def _poison(self, nbytes: int) -> None:
        measure.poison_pools(nbytes, self.torch, self.device)

    # -- timing ------------------------------------------------------------------------------
    def throughput(self, fn: Callable[[], Any]) -> tuple[float, float, float, int]:
        """(median, min, max) milliseconds per call and the number of samples, each sample `batch`
        back-to-back calls between two CUDA events (smemlab.measure.time_calls). A call slower than
        measure.SLOW_MS is timed alone, with as many samples as BUDGET_MS allows (at least
        measure.MIN_REPS), so one slow baseline does not hold a sweep up for minutes."""
        t = measure.time_calls(fn, self.stream, reps=self.reps, warmup=self.warmup, batch=self.batch,
                               budget_ms=BUDGET_MS)
        return t.median_ms, t.min_ms, t.max_ms, t.reps

    def latency(self, fns: list[Callable[[], Any]], per_call_ms: list[float]) -> list[tuple[float, float, float]]:
        """(median, min, max) microseconds of one call followed by a synchronize, each timed alone, for
        each of `fns`, in runs of calls taking turns (smemlab.measure.latency)."""
        return measure.latency(fns, per_call_ms, self.stream.synchronize)

    def memcpy(self, nbytes: int) -> Row:
        """cudaMemcpyAsync device-to-device of `nbytes` (read + write: 2 x nbytes moved), verified and
        timed like the implementations; measured once per size in this run."""
        row = self._memcpy.get(nbytes)
        if row is not None:
            return row
        copy = measure.DeviceCopy(self.random(max(1, nbytes // 4), "float32"), self.stream)
        row = Row(self.op, "", "cudaMemcpy", True, bytes=copy.moved)
        if not copy.verify():
            row.ok, row.error = False, "the copy differs from its source"
        else:
            self._time_row(row, copy)
        self._memcpy[nbytes] = row
        return row

    def _time_row(self, row: Row, fn: Callable[[], Any]) -> None:
        self._throughput_row(row, fn)
        self._latency_rows([(row, fn)])

    def _latency_rows(self, timed: list[tuple[Row, Callable[[], Any]]]) -> None:
        if timed:
            figures = self.latency([fn for _, fn in timed], [row.median_ms for row, _ in timed])
            for (row, _), (median, low, high) in zip(timed, figures):
                row.latency_us, row.latency_min_us, row.latency_max_us = median, low, high

    def _throughput_row(self, row: Row, fn: Callable[[], Any]) -> None:
        row.median_ms, row.min_ms, row.max_ms, row.reps = self.throughput(fn)
        row.bandwidth(row.bytes)
        if row.flops:
            row.tflops = row.flops / row.median_ms / 1e9

    def case(self, case: str, *, impls: dict[str, Impl], check: Callable[[Any], None], bytes: int = 0, flops: int = 0,
             out_bytes: int = 0, family: str = "", size: int = 0, memcpy: bool = True, targets: list | None = None,
             note: str = "", checks: dict[str, Callable[[Any], None]] | None = None) -> list[Row]:
        """Verify, then time, every implementation; append and return the rows (the cudaMemcpy row
        first where `memcpy`). `targets` (goal specs, smemlab.bench.goals) go on the row of the
        implementation each names as `impl`; `checks` overrides `check` per implementation. `note` (what
        the op chose) goes on the rows of the op as users call it ("smemlab (cupy)", "smemlab (torch)"),
        not on the rows of a method named outright ("smemlab ranges")."""
        from smemlab.bench.goals import attach

        if any(r.op == self.op and r.case == case for r in self.rows):
            # goals compare the rows of one case: two cases of one name would mix their baselines
            raise ValueError(f"{self.op}: case {case!r} was already run")
        rows: list[Row] = []
        timed: list[tuple[Row, Callable[[], Any]]] = []  # verified: their latencies are measured together
        copy = None
        if memcpy and bytes:
            base = self.memcpy(bytes // 2)
            copy = dataclasses.replace(base, op=self.op, case=case, family=family, size=size,
                                       targets=list(base.targets))
            rows.append(copy)
        for name, impl in impls.items():
            row = Row(self.op, case, name, True, family=family, size=size, framework=impl.framework, bytes=bytes,
                      flops=flops, note=note if name.startswith("smemlab (") else "")  # the op as users call it
            try:
                self._poison(out_bytes)
                out = measure.checked_call(impl.fn, self.sync)
                (checks or {}).get(name, check)(out)
                del out
            except Exception as exc:
                row.ok, row.error = False, f"{type(exc).__name__}: {exc}"[:300]
                rows.append(row)
                self.log(f"  {self.op} {case} {name}: FAILED {row.error}")
                continue
            self._throughput_row(row, impl.fn)
            timed.append((row, impl.fn))
            if copy is not None and copy.ok and row.gbps:
                row.vs_copy = row.gbps / copy.gbps
            rows.append(row)
        self._latency_rows(timed)
        attach(rows, targets or [])
        self.rows.extend(rows)
        for r in rows:
            self.log("  " + format_row(r))
        return rows


def format_row(r: Row) -> str:
    head = f"{r.op:9s} {r.case:26s} {r.impl:22s}"
    if not r.ok:
        return f"{head} FAILED: {r.error}"
    parts = [head, f"{r.latency_us:9.1f} us/call alone", f"{r.median_ms * 1e3:9.1f} us back-to-back"]
    if r.gbps is not None:
        parts.append(f"{r.gbps:8.1f} GB/s")
    if r.tflops is not None:
        parts.append(f"{r.tflops:6.2f} TFLOP/s")
    if r.vs_copy is not None:
        parts.append(f"{r.vs_copy:5.2f} of memcpy")
    return "  ".join(parts)


def _torch_cuda():
    """torch, where it is installed with CUDA; else None (the torch baselines are then absent)."""
    try:
        import torch
    except Exception:
        return None
    return torch if torch.cuda.is_available() else None


def implausible(rows: list, peak_gbps: float | None, peak_tflops: float | None, l2_bytes: int) -> list[str]:
    """Figures no device can reach, which mean work ran outside the timed region: bandwidth above
    the memory's peak (the datasheet's, or the fastest cudaMemcpy of the run where the device is
    unknown) on cases too large to stay in L2, or above three times it on any case (L2 is faster
    than DRAM, not 3x), and FLOP rates above the FP32 peak."""
    from smemlab.bench.goals import field as get

    copies = [get(r, "gbps") for r in rows if get(r, "impl") == "cudaMemcpy" and get(r, "ok") and get(r, "gbps")]
    ceiling = peak_gbps or (max(copies) * 1.25 if copies else None)
    out = []
    for r in rows:
        if not get(r, "ok"):
            continue
        gbps, tflops = get(r, "gbps"), get(r, "tflops")
        name = f"{get(r, 'op')} {get(r, 'case')} {get(r, 'impl')}"
        if gbps and ceiling:
            limit = ceiling if get(r, "bytes") > 4 * l2_bytes else 3 * ceiling
            if gbps > limit:
                out.append(f"{name}: {gbps:,.0f} GB/s is above {limit:,.0f} GB/s")
        if tflops and peak_tflops and tflops > 1.02 * peak_tflops:
            out.append(f"{name}: {tflops:.1f} TFLOP/s is above the FP32 peak of {peak_tflops:g}")
    return out
