"""A chunked pipeline over N streams, second part of the `overlap` experiment (the book's program 004:
"重叠内存传输和计算").

The input (pinned host memory) is cut into chunks; chunk c goes to stream c % N: copy in, compute,
copy out, each chunk's three steps in order on its stream, so that one chunk's copy in, another's
kernel and a third's copy out can run at once (the GPU has a copy engine for each direction). The
kernel (`pipelineCompute` in lab/overlap/overlap.cu) does K fused multiply-adds per element, K chosen in
the run so that computing alone takes about as long as copying in and out alone: the case where
overlap pays the most.

Each step is also timed alone, on the whole buffer (`pipelineCopyIn`, `pipelineCompute`,
`pipelineCopyOut`), and the pipeline is set against the ideal max(copy in + copy out, compute)
(`pipeline_notes`). After a pipeline is verified it runs once more with a CUDA event before and after
every step: its timeline (`Case.extra['timeline']`: [stream, step, start ms, end ms]). An event
before a step completes when the stream reaches the step, so a bar starts when the step could start
(it may wait there for a copy engine another stream holds) and ends when it is done.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import numpy as np

from smemlab.lab.base import Case, Check, Variant
from smemlab.lab.overlap.hostlink import d2h, h2d, pinned_array, size_text

SOURCE = "lab/overlap/overlap.cu"
MAX_FLOATS = 1 << 26  # 256 MiB each way: long enough to overlap, short enough for 16 settings
STREAMS = (1, 2, 4, 8)
CHUNKS = (4, 16, 64, 256)
A = 1.0 - 2.0 ** -6  # y <- y * A + x converges to 64 x; float32 errors shrink by A every step
THREADS = 256
TOLERANCE = 1e-5
COMPONENTS = ("pipelineCopyIn", "pipelineCompute", "pipelineCopyOut")
NAMES = (*COMPONENTS, "pipeline")


def variants() -> list[Variant]:
    # one call a sample, whatever the size: the ideal is set from the steps' times, so the steps and the
    # pipelines are timed alike, one run over the whole buffer each (at the default size a run takes
    # milliseconds, one call a sample anyway; at a small --size a step would be batched, the pipeline not)
    off = {"profiled": False, "batched": False}
    return [
        Variant("pipelineCopyIn", "the pipeline's input copied to the device alone, one cudaMemcpyAsync (pinned)", None,
                **off),
        Variant("pipelineCompute", "the pipeline's kernel alone over the whole input: K fused multiply-adds per "
                "element, K chosen in the run so that it takes as long as the two copies", "pipelineCompute",
                (THREADS, 1, 1), **off),
        Variant("pipelineCopyOut", "the pipeline's output copied back alone, one cudaMemcpyAsync (pinned)", None, **off),
        Variant("pipeline", "copy in, compute, copy out in chunks over N streams (N = 1, 2, 4, 8; 4 to 256 chunks), "
                "against the ideal max(copy in + copy out, compute)", "pipelineCompute", (THREADS, 1, 1), **off),
    ]


def reference(x: np.ndarray, iters: int, a: float = A) -> np.ndarray:
    """K steps of y <- y * a + x from y = x, in float64: x (a^K + (1 - a^K) / (1 - a))."""
    ak = a ** iters
    return np.asarray(x, dtype=np.float64) * (ak + (1.0 - ak) / (1.0 - a))


def chunk_bounds(n: int, chunks: int) -> list[tuple[int, int]]:
    """[start, stop) of each chunk: `chunks` pieces of ceil(n / chunks) elements (fewer where n is small)."""
    size = -(-n // chunks)
    return [(s, min(s + size, n)) for s in range(0, n, size)]


def iterations_for(target_ms: float, k1: int, t1: float, k2: int, t2: float) -> int:
    """K at which the kernel takes `target_ms`, from two timed K: time = fixed + K * per step (the
    fixed part is the memory traffic and the launch)."""
    per = (t2 - t1) / (k2 - k1)
    if per <= 0:
        return k2
    return int(min(1 << 20, max(16, round(k1 + (target_ms - t1) / per))))


class Pipeline:
    """The buffers, streams and kernel of the pipeline, and the one function that enqueues it."""

    def __init__(self, rt, n: int):
        import cupy

        self.rt, self.n = rt, n
        self.x_host = pinned_array(n)
        self.x_host[:] = np.random.default_rng(16).uniform(0.5, 1.5, n).astype(np.float32)
        self.y_host = pinned_array(n)
        self.x_dev = cupy.empty(n, dtype=cupy.float32)
        self.y_dev = cupy.empty(n, dtype=cupy.float32)
        self.kernel = rt.kernel(SOURCE, "pipelineCompute")
        self.streams = [cupy.cuda.Stream(non_blocking=True) for _ in range(max(STREAMS))]
        self.fork = cupy.cuda.Event(disable_timing=True)
        self.joins = [cupy.cuda.Event(disable_timing=True) for _ in self.streams]
        self.iters = 16
        self.ref: np.ndarray | None = None

    def grid(self, count: int) -> int:
        return max(1, min(-(-count // THREADS), 8 * self.rt.facts.sms))

    def copy_in(self, stream: int | None = None) -> None:
        h2d(self.x_dev.data.ptr, self.x_host, 4 * self.n, self.rt.stream_handle if stream is None else stream)

    def copy_out(self, stream: int | None = None) -> None:
        d2h(self.y_host, self.y_dev.data.ptr, 4 * self.n, self.rt.stream_handle if stream is None else stream)

    def compute(self, start: int = 0, stop: int | None = None, stream: int | None = None) -> None:
        stop = self.n if stop is None else stop
        self.rt.launch(self.kernel, self.grid(stop - start), THREADS, self.x_dev.data.ptr + 4 * start,
                       self.y_dev.data.ptr + 4 * start, stop - start, self.iters, np.float32(A), stream=stream)

    def calibrate(self) -> None:
        """Choose K so that the kernel alone takes as long as copying in and out alone."""
        rt = self.rt
        target = rt.time(self.copy_in, warmup=1, reps=3).median_ms + rt.time(self.copy_out, warmup=1, reps=3).median_ms
        timed = []
        for k in (64, 512):
            self.iters = k
            timed.append((k, rt.time(self.compute, warmup=1, reps=3).median_ms))
        self.iters = iterations_for(target, *timed[0], *timed[1])
        self.ref = reference(self.x_host, self.iters)

    def run(self, streams: int, chunks: int, trace: Callable[[int, str, bool], None] | None = None) -> None:
        """Enqueue the chunked pipeline on `streams` streams, forked from and joined back to the
        runtime's stream (so that events on it time the whole). `trace(stream, step, after)` is
        called before and after each step is enqueued (it records events)."""
        main = self.rt.cupy_stream
        used = self.streams[:streams]
        self.fork.record(main)
        for s in used:
            s.wait_event(self.fork)
        x, y = self.x_dev.data.ptr, self.y_dev.data.ptr
        for c, (start, stop) in enumerate(chunk_bounds(self.n, chunks)):
            i = c % streams
            s = used[i].ptr
            nbytes, off = 4 * (stop - start), 4 * start
            steps = (("H2D", lambda: h2d(x + off, self.x_host[start:stop], nbytes, s)),
                     ("kernel", lambda: self.compute(start, stop, s)),
                     ("D2H", lambda: d2h(self.y_host[start:stop], y + off, nbytes, s)))
            for step, enqueue in steps:
                if trace:
                    trace(i, step, False)
                enqueue()
                if trace:
                    trace(i, step, True)
        for s, join in zip(used, self.joins):
            join.record(s)
            main.wait_event(join)

    def timeline(self, streams: int, chunks: int) -> list[list]:
        """Run the pipeline once with an event around every step: [[stream, step, start ms, end ms], ...]."""
        import cupy

        t0 = cupy.cuda.Event()
        marks: list[tuple[int, str, bool, Any]] = []

        def trace(i: int, step: str, after: bool) -> None:
            e = cupy.cuda.Event()
            e.record(self.streams[i])
            marks.append((i, step, after, e))

        t0.record(self.rt.cupy_stream)
        self.run(streams, chunks, trace)
        self.rt.sync("pipeline (traced)")
        out = []
        for (i, step, _, begin), (_, _, _, end) in zip(marks[0::2], marks[1::2]):
            out.append([i, step, round(cupy.cuda.get_elapsed_time(t0, begin), 4),
                        round(cupy.cuda.get_elapsed_time(t0, end), 4)])
        return out

    def check_output(self, y: np.ndarray) -> Check:
        got = y.astype(np.float64)
        if not np.all(np.isfinite(got)):
            bad = int(np.argmin(np.isfinite(got)))
            return Check(False, f"out[{bad}] = {got[bad]} (not written?)")
        scale = float(np.abs(self.ref).max())
        err = float(np.abs(got - self.ref).max() / scale)
        return Check(err <= TOLERANCE, f"max |out - ref| / max |ref| = {err:.3g} (K = {self.iters} steps, float64 "
                                       f"NumPy, tolerance {TOLERANCE:g})", err)


def cases(rt, n: int, chosen: Sequence[Variant]) -> Iterator[Case]:
    import cupy

    chosen = [v for v in chosen if v.name in NAMES]
    if not chosen:
        return
    n = min(n, MAX_FLOATS)
    p = Pipeline(rt, n)
    p.copy_in()
    p.calibrate()
    p.compute()  # the output the copy out moves, whichever cases run
    rt.sync("pipelineCompute")
    total = size_text(4 * n)
    x_ref = cupy.asarray(p.x_host)
    flops = 2 * p.iters * n
    for v in chosen:
        extra: dict[str, Any] = {"iterations": p.iters, "bytes": 4 * n}
        if v.name == "pipelineCopyIn":
            def check() -> Check:
                ok = bool(cupy.array_equal(p.x_dev, x_ref))
                return Check(ok, f"the device copy {'equals' if ok else 'differs from'} the pinned input ({4 * n:,} bytes)")

            yield Case(v, p.copy_in, check, (p.x_dev,), 0, 0, f"cudaMemcpyAsync H2D of {4 * n:,} bytes",
                       dict(extra, case=f"{total} in"))
        elif v.name == "pipelineCopyOut":
            yield Case(v, p.copy_out, lambda: p.check_output(p.y_host), (p.y_host,), 0, 0,
                       f"cudaMemcpyAsync D2H of {4 * n:,} bytes", dict(extra, case=f"{total} out"))
        elif v.name == "pipelineCompute":
            yield Case(v, p.compute, lambda: p.check_output(cupy.asnumpy(p.y_dev)), (p.y_dev,), 8 * n, flops,
                       f"grid ({p.grid(n)}, 1, 1) block ({THREADS}, 1, 1)", dict(extra, case=f"K = {p.iters}"))
        else:
            for chunks in CHUNKS:
                for streams in STREAMS:
                    yield _pipeline_case(v, p, streams, chunks, extra, flops)


def _pipeline_case(v: Variant, p: Pipeline, streams: int, chunks: int, extra: dict, flops: int) -> Case:
    bounds = chunk_bounds(p.n, chunks)  # fewer than asked where the buffer is small
    chunk_bytes = 4 * (bounds[0][1] - bounds[0][0])
    case_extra = dict(extra, streams=streams, chunks=len(bounds), chunk_bytes=chunk_bytes,
                      case=f"{streams} stream{'s' if streams > 1 else ''}, {len(bounds)} chunks of {size_text(chunk_bytes)}")

    def launch():
        p.run(streams, chunks)

    def check() -> Check:
        verdict = p.check_output(p.y_host)
        if verdict.ok:  # a verified pipeline runs once more, traced, for the timeline chart
            case_extra["timeline"] = p.timeline(streams, chunks)
        return verdict

    return Case(v, launch, check, (p.y_host, p.x_dev, p.y_dev), 0, flops,
                f"{len(bounds)} chunks over {streams} streams, grid ({p.grid(chunk_bytes // 4)}, 1, 1) block ({THREADS}, 1, 1)",
                case_extra)


# ---- what the record shows -------------------------------------------------------------------------------
def pipeline_notes(records: Sequence[Any]) -> list[str]:
    """Fill each pipeline record's ideal and the share of it reached, and say what they show."""
    alone = {r.variant: r.median_ms for r in records if r.ok and r.median_ms and r.variant in COMPONENTS}
    runs = [r for r in records if r.ok and r.median_ms and r.variant == "pipeline"]
    if len(alone) < len(COMPONENTS) or not runs:
        return []
    t_in, t_k, t_out = (alone[c] for c in COMPONENTS)
    ideal = max(t_in + t_out, t_k)
    serial = t_in + t_k + t_out
    for r in runs:
        r.extra["ideal_ms"] = round(ideal, 4)
        r.extra["of_ideal"] = round(ideal / r.median_ms, 4)
    best = max(runs, key=lambda r: r.extra["of_ideal"])
    one = [r for r in runs if r.extra.get("streams") == 1 and r.extra.get("chunks") == best.extra.get("chunks")]
    out = [f"alone: copy in {t_in:.3g} ms, compute {t_k:.3g} ms (K = {best.extra.get('iterations')}), copy out "
           f"{t_out:.3g} ms; one after the other {serial:.3g} ms; the ideal max(copy in + copy out, compute) = {ideal:.3g} ms",
           f"best: {best.extra['case']}: {best.median_ms:.3g} ms, {best.extra['of_ideal']:.2f} of the ideal, "
           f"{serial / best.median_ms:.2f}x faster than the steps one after the other"]
    if best.extra["of_ideal"] > 1:
        kernel = next(r for r in records if r.ok and r.variant == "pipelineCompute")
        out.append(f"above 1: the pipeline took less than its kernel alone over the whole buffer (min-max "
                   f"{kernel.min_ms:.3g}-{kernel.max_ms:.3g} ms): chunks of the kernel on several streams fill the GPU at "
                   f"least as well as one launch, and the copies hide behind them")
    if one:
        o = one[0]
        out.append(f"one stream ({o.extra['case']}): {o.median_ms:.3g} ms, {o.extra['of_ideal']:.2f} of the ideal: "
                   f"a stream runs its steps in order, so nothing overlaps")
    return out
