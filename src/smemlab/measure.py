"""The one measuring harness: what the experiments (smemlab.runner) and the library benchmark
(smemlab.bench) do to every piece of GPU work before a figure of it is recorded.

1. poison: an output the caller owns is filled with NaN or 0xDEADBEEF (`poison`); a library call's
   fresh output is caught by leaving a freed block of 0xFF bytes on top of CuPy's and torch's pools
   (`poison_pools`), which the next allocation of that size very likely reuses;
2. verify: one call, waited for (a launch error surfaces here), then checked by the caller
   (`checked_call`); a call that fails is never timed;
3. time (`time_calls`): calls back to back between two CUDA events, the time divided by the calls,
   so that the host path of each call (Python, the launch) overlaps the GPU's work on the previous
   one (a sample's first call too: an untimed lead-in call runs before the start event); the median,
   min and max over the samples. The caller fixes the calls a sample holds (the benchmark: 5) or lets
   the timer size it to about SAMPLE_MS of GPU time (the experiments: a kernel of a few microseconds
   then runs hundreds of times a sample, and the time is the kernel's, not its launch's; where a
   kernel is shorter than a launch, the time is the launch rate, which the runner's launch floor
   measures). A call slower than SLOW_MS is timed one call a sample. Work done on the host is timed
   on the host clock, one call a sample (`time_host`);
4. latency (`latency`): one call then a synchronize, each timed alone on the host clock, in runs of
   calls to one implementation (a user's loop), the implementations taking turns run by run: what a
   user calling from Python waits for;
5. the memcpy ceiling (`DeviceCopy`): cudaMemcpyAsync device to device, verified and timed like
   the rest; bandwidth is measured against it, never against a copy kernel of our own;
6. provenance: where and with what a run was made.
"""

from __future__ import annotations

import datetime as _dt
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

POISON_INT = 0xDEADBEEF
SLOW_MS = 2.0  # a call slower than this is timed one call a sample ...
BUDGET_MS = 300.0  # ... with about this much GPU time for its samples, where the caller sets a budget
MIN_REPS = 7
SAMPLE_MS = 1.0  # a batch sized by the timer lasts about this long ...
MAX_BATCH = 1000  # ... in at most this many calls
LATENCY_BUDGET_S = 0.15  # host time per implementation for the single calls (at least MIN_REPS)
LATENCY_RUN = 8  # single calls an implementation makes in a row (the first not counted)


@dataclass
class Timing:
    """Milliseconds per call: median, min and max over `reps` samples of `batch` calls each."""

    median_ms: float
    min_ms: float
    max_ms: float
    reps: int
    batch: int = 1


# -- poison and verify ------------------------------------------------------------------------------
def poison(array) -> None:
    """Fill an output so that any element the work fails to write cannot pass the check."""
    if array.dtype.kind == "f":
        array.fill(np.nan)
    else:  # the 0xDEADBEEF pattern, wrapped to the dtype's width
        array.fill(np.array(POISON_INT, dtype=np.uint64).astype(array.dtype))


def poison_pools(nbytes: int, torch: Any = None, device: int = 0) -> None:
    """Leave a freed block of `nbytes` 0xFF bytes (NaN / -1) on top of CuPy's pool and torch's
    cache, so that a fresh output of that size very likely reuses it: unwritten elements show."""
    if nbytes <= 0:
        return
    import cupy

    p = cupy.empty(nbytes, dtype=np.uint8)
    p.fill(0xFF)
    del p
    if torch is not None:
        t = torch.empty(nbytes, dtype=torch.uint8, device=f"cuda:{device}")
        t.fill_(0xFF)
        del t


def checked_call(call: Callable[[], Any], wait: Callable[[], None], outputs: Iterable[Any] = ()) -> Any:
    """The one call a result is checked on (never timed): poison `outputs`, call, wait for the
    stream, so that a launch error surfaces here; returns what the call returned, for the check."""
    for out in outputs:
        poison(out)
    result = call()
    wait()
    return result


# -- time -------------------------------------------------------------------------------------------
def time_calls(fn: Callable[[], Any], stream, *, reps: int, warmup: int, batch: int | None = None,
               budget_ms: float | None = None) -> Timing:
    """Milliseconds per call of `fn` (work enqueued on the CuPy stream `stream`): `reps` samples of
    `batch` back-to-back calls between two CUDA events, each sample divided by its calls. `batch`
    None: as many calls as last about SAMPLE_MS, the warm-up being one such batch, timed, from which
    the batch is sized again; else `warmup` calls first. A call slower than SLOW_MS is timed alone,
    with `reps` samples, or with as many as `budget_ms` allows (at least MIN_REPS) where a budget
    is given."""
    import cupy

    events = cupy.cuda.Event(), cupy.cuda.Event()

    def elapsed(calls: int, lead_in: bool = True) -> float:
        # The lead-in call keeps the GPU busy while the host enqueues the sample's first call: without
        # it, that call's host path (the GPU idle after the start event) was timed as GPU work, a share
        # that grows as the calls shorten (measured: docs/notes/2026-11-timing.md)
        return events_ms(fn, stream, calls, lead_in=lead_in, events=events)

    stream.synchronize()
    once = elapsed(1, lead_in=False)
    if once > SLOW_MS:  # a first call may run cold (a module loaded, clocks rising from idle): look again
        once = min(once, elapsed(1, lead_in=False))
    slow = once > SLOW_MS  # its host path is nothing beside it: no lead-in, which would double its time
    if slow:
        batch, warmup = 1, 0  # the second look was its warm-up
        if budget_ms is not None:
            reps = max(MIN_REPS, min(reps, int(budget_ms / once)))
    elif batch is None:
        first = _batch_for(once)
        batch, warmup = _batch_for(elapsed(first) / first), 0
    for _ in range(warmup):
        fn()
    stream.synchronize()
    samples = [elapsed(batch, lead_in=not slow) / batch for _ in range(reps)]
    return _timing(samples, batch)


def events_ms(fn: Callable[[], Any], stream, calls: int, *, lead_in: bool = False, events=None) -> float:
    """Milliseconds between two CUDA events on `stream` around `calls` back-to-back calls of `fn` (the span,
    not per call): one sample of `time_calls`. `lead_in`: one untimed call first, which keeps the GPU busy
    while the host enqueues the first timed one. `events`: the (start, stop) pair to record (else new ones)."""
    import cupy

    start, stop = events or (cupy.cuda.Event(), cupy.cuda.Event())
    if lead_in:
        fn()
    start.record(stream)
    for _ in range(calls):
        fn()
    stop.record(stream)
    stop.synchronize()
    return cupy.cuda.get_elapsed_time(start, stop)


def _batch_for(ms_per_call: float) -> int:
    """Calls that last about SAMPLE_MS (1 to MAX_BATCH)."""
    return max(1, min(MAX_BATCH, round(SAMPLE_MS / max(ms_per_call, 1e-3))))


def time_host(fn: Callable[[], Any], *, reps: int, warmup: int, batch: int = 1,
              sync: Callable[[], None] | None = None) -> Timing:
    """Milliseconds of `fn`, work done on the host, each call timed alone on the host clock. `batch`: calls
    in a row a sample, the sample divided by them; `sync`: a wait that ends each sample (and the warm-up),
    so that a sample is the host's time for its calls with the GPU's work on them overlapped."""
    for _ in range(warmup):
        fn()
    samples = []
    if batch == 1 and sync is None:
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - t0) * 1e3)
        return _timing(samples, 1)
    if sync is not None:
        sync()
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        if sync is not None:
            sync()
        samples.append((time.perf_counter() - t0) * 1e3 / batch)
    return _timing(samples, batch)


def _timing(samples: Sequence[float], batch: int) -> Timing:
    return Timing(statistics.median(samples), min(samples), max(samples), len(samples), batch)


def latency(fns: Sequence[Callable[[], Any]], per_call_ms: Sequence[float], sync: Callable[[], None]
            ) -> list[tuple[float, float, float]]:
    """(median, min, max) microseconds of one call followed by `sync`, each timed alone, for each of
    `fns`. Each implementation makes LATENCY_RUN calls in a row, the first not counted, as a user's
    loop of single calls does: a call right after another implementation's pays for what that one
    left behind (a small histogram called right after CUB's took far longer than in a loop of its own:
    docs/notes/2026-11-timing.md). The
    implementations take turns run by run, the first of a round rotating, so that a drift of the
    clocks (the GPU's rising from idle, the CPU's) reaches all of them alike. `per_call_ms` (their
    back-to-back times) sizes the rounds."""
    counted = LATENCY_RUN - 1
    per_round_ms = sum(max(ms, 1e-3) for ms in per_call_ms) * LATENCY_RUN
    budget_ms = LATENCY_BUDGET_S * 1e3 * len(fns)
    rounds = max(-(-MIN_REPS // counted), min(-(-400 // counted), int(budget_ms / per_round_ms)))
    for _ in range(2):
        for fn in fns:
            fn()
            sync()
    samples: list[list[float]] = [[] for _ in fns]
    clock = time.perf_counter
    turns = list(zip(fns, samples))
    for r in range(rounds):
        first = r % len(turns)
        for fn, out in turns[first:] + turns[:first]:
            fn()
            sync()
            for _ in range(counted):
                t0 = clock()
                fn()
                sync()
                out.append(clock() - t0)
    return [(statistics.median(s) * 1e6, min(s) * 1e6, max(s) * 1e6) for s in samples]


# -- the memcpy ceiling -----------------------------------------------------------------------------
class DeviceCopy:
    """cudaMemcpyAsync device to device of `src` into a poisoned copy of its shape, on `stream`:
    the ceiling every bandwidth is set against (2 x src.nbytes moved a call)."""

    def __init__(self, src, stream):
        import cupy

        self.src, self.dst = src, cupy.empty_like(src)
        poison(self.dst)
        self.stream = stream
        self.moved = 2 * src.nbytes
        self._memcpy = cupy.cuda.runtime.memcpyAsync
        self._kind = cupy.cuda.runtime.memcpyDeviceToDevice

    def __call__(self) -> None:
        self._memcpy(self.dst.data.ptr, self.src.data.ptr, self.src.nbytes, self._kind, self.stream.ptr)

    def verify(self) -> bool:
        """One copy, waited for: True where the destination equals the source."""
        import cupy

        checked_call(self, self.stream.synchronize)
        return bool(cupy.array_equal(self.dst, self.src))


def copy_ceiling_gbps(stream, nbytes: int, *, reps: int, seed: int = 1) -> float:
    """GB/s of cudaMemcpyAsync device to device over `nbytes` of seeded random floats (read +
    written), verified, then timed as everything else is."""
    import cupy

    src = cupy.random.default_rng(seed).random(max(1, nbytes // 4), dtype=cupy.float32) + cupy.float32(1)
    copy = DeviceCopy(src, stream)
    if not copy.verify():
        raise RuntimeError("cudaMemcpyAsync did not copy: the GPU is not behaving")
    t = time_calls(copy, stream, reps=reps, warmup=3)
    return copy.moved / (t.median_ms * 1e-3) / 1e9


# -- provenance -------------------------------------------------------------------------------------
def provenance(facts: dict | None = None) -> dict:
    """Where and with what a run was made: enough to tell two recorded runs apart. `facts`: the
    device's (smemlab.device.DeviceFacts.to_dict())."""
    from importlib import metadata

    from smemlab import __version__
    from smemlab.compiler import sources_hash

    def version(pkg: str) -> str | None:
        try:
            return metadata.version(pkg)
        except metadata.PackageNotFoundError:
            return None

    packages = {p: version(p) for p in ("cupy-cuda13x", "cuda-core", "cuda-bindings", "nvidia-cuda-nvrtc", "numpy", "torch")}
    try:
        from cuda.bindings import nvrtc

        _, major, minor = nvrtc.nvrtcVersion()
        packages["nvrtc"] = f"{major}.{minor}"
    except Exception:
        pass
    prov = {
        "smemlab": __version__,
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": packages,
        "kernel_sources_sha256": sources_hash(),
    }
    if facts is not None:
        prov["gpu"] = facts
    return prov
