"""The one measuring harness (smemlab.measure) that the experiments and the benchmark share.

With no GPU, the timer runs against a scripted CUDA clock (CUDA events that read a count of calls,
each call taking a set time), so how it batches, warms up and samples is checked exactly; the
latency's turn-taking, poisoning and the checked call are plain Python. On a GPU, the same timer
times real launches through the experiments' runtime."""

import sys
import types

import numpy as np
import pytest

from smemlab import measure
from smemlab.records import BenchRow, RunRecord, VariantRecord, plain


class ScriptedGPU:
    """A CuPy stand-in whose events read a scripted clock: each call enqueued takes `ms_per_call` of
    GPU time (the first one `first_ms`, where given: a cold first call) and `host_ms` of host time
    to enqueue. A call starts when both the GPU is free and the host has enqueued it; an event fires
    when the work before it is done, or when it is recorded on an idle stream."""

    def __init__(self, ms_per_call: float, first_ms: float | None = None, host_ms: float = 0.0):
        self.ms_per_call, self.first_ms, self.host_ms = ms_per_call, first_ms, host_ms
        self.calls, self.host, self.gpu_free = 0, 0.0, 0.0
        gpu = self

        class Event:
            def record(self, stream):
                self.at = max(gpu.host, gpu.gpu_free)

            def synchronize(self):
                gpu.host = max(gpu.host, self.at)

        self.module = types.SimpleNamespace(cuda=types.SimpleNamespace(
            Event=Event, get_elapsed_time=lambda a, b: b.at - a.at))

    def call(self):
        first = self.calls == 0 and self.first_ms is not None
        self.host += self.host_ms
        self.gpu_free = max(self.gpu_free, self.host) + (self.first_ms if first else self.ms_per_call)
        self.calls += 1

    def synchronize(self):  # the stream
        self.host = max(self.host, self.gpu_free)


@pytest.fixture
def gpu(monkeypatch):
    def make(ms_per_call, first_ms=None, host_ms=0.0):
        g = ScriptedGPU(ms_per_call, first_ms, host_ms)
        monkeypatch.setitem(sys.modules, "cupy", g.module)
        return g

    return make


def test_a_short_call_is_timed_in_batches_of_about_a_millisecond(gpu):
    g = gpu(0.01)
    t = measure.time_calls(g.call, g, reps=20, warmup=3)
    batch = round(measure.SAMPLE_MS / 0.01)
    assert t.batch == batch and t.reps == 20
    assert t.median_ms == pytest.approx(0.01) and t.min_ms == pytest.approx(t.max_ms)  # per call, not per sample
    assert g.calls == 1 + (1 + batch) + 20 * (1 + batch)  # the probe, a batch of warm-up, the samples (each led in)


def test_a_cold_first_call_does_not_make_a_short_call_look_slow(gpu):
    g = gpu(0.01, first_ms=5.0)  # a module loaded on the first launch, clocks rising from idle
    t = measure.time_calls(g.call, g, reps=20, warmup=3)
    assert t.batch == round(measure.SAMPLE_MS / 0.01) and t.median_ms == pytest.approx(0.01)
    g = gpu(0.01, first_ms=0.5)  # cold but not slow: the batch is sized again from the timed warm-up
    assert measure.time_calls(g.call, g, reps=20, warmup=3).batch == round(measure.SAMPLE_MS / 0.01)


def test_the_batch_the_caller_fixes_is_kept(gpu):
    g = gpu(0.01)
    t = measure.time_calls(g.call, g, reps=20, warmup=5, batch=5)  # the benchmark's
    assert (t.batch, t.reps, g.calls) == (5, 20, 1 + 5 + 20 * (1 + 5))


def test_a_samples_first_call_has_its_host_path_overlapped_too(gpu):
    # 20 us kernels whose host path takes 4 us: back to back, the GPU never waits after the first call;
    # a sample that started on an idle GPU would time 5 calls as (4 + 5 x 20) / 5 = 20.8 us each
    g = gpu(0.020, host_ms=0.004)
    t = measure.time_calls(g.call, g, reps=20, warmup=5, batch=5)
    assert t.median_ms == pytest.approx(0.020) and t.max_ms == pytest.approx(0.020)
    g = gpu(0.002, host_ms=0.004)  # a call shorter than its host path: the time is the launch rate
    assert measure.time_calls(g.call, g, reps=20, warmup=5, batch=5).median_ms == pytest.approx(0.004)


def test_a_slow_call_is_timed_alone_and_a_budget_caps_its_samples(gpu):
    g = gpu(5.0)
    t = measure.time_calls(g.call, g, reps=20, warmup=3)  # the experiments: every sample asked for
    assert (t.batch, t.reps, g.calls) == (1, 20, 1 + 1 + 20)  # looked at twice (the second, a warm-up)
    assert t.median_ms == pytest.approx(5.0)
    g = gpu(100.0)
    t = measure.time_calls(g.call, g, reps=20, warmup=5, batch=5, budget_ms=measure.BUDGET_MS)  # the benchmark
    assert (t.batch, t.reps) == (1, measure.MIN_REPS)
    g = gpu(5.0)
    assert measure.time_calls(g.call, g, reps=20, warmup=5, batch=5, budget_ms=300.0).reps == 20  # 60 would fit


def test_host_work_is_timed_one_call_a_sample():
    calls = []
    t = measure.time_host(lambda: calls.append(1), reps=9, warmup=2)
    assert (t.batch, t.reps, len(calls)) == (1, 9, 11) and t.min_ms <= t.median_ms <= t.max_ms


def test_host_work_in_batches_ends_each_sample_with_the_wait():
    """The tools' loop timing (tools/dev/timing.py): calls in a row, one wait, the sample divided by the calls."""
    order = []
    t = measure.time_host(lambda: order.append("call"), reps=2, warmup=3, batch=4, sync=lambda: order.append("sync"))
    assert (t.batch, t.reps) == (4, 2)
    assert order == ["call"] * 3 + ["sync"] + (["call"] * 4 + ["sync"]) * 2


def test_one_span_between_events_is_a_sample_of_the_timer(gpu):
    g = gpu(0.01)
    assert measure.events_ms(g.call, g, 50) == pytest.approx(0.5) and g.calls == 50
    assert measure.events_ms(g.call, g, 50, lead_in=True) == pytest.approx(0.5) and g.calls == 101


def test_latency_times_runs_of_calls_taking_turns_run_by_run():
    order = []
    fns = [lambda: order.append("a"), lambda: order.append("b"), lambda: order.append("c")]
    figures = measure.latency(fns, [0.01, 0.01, 0.01], lambda: order.append("sync"))
    assert len(figures) == 3 and all(lo <= med <= hi for med, lo, hi in figures)
    calls = [c for c in order if c != "sync"]
    assert order.count("sync") == len(calls)  # every call waited for, alone
    timed = calls[6:]  # after two warm-up calls each
    run = measure.LATENCY_RUN
    runs = [timed[i:i + run] for i in range(0, len(timed), run)]
    assert all(len(set(r)) == 1 and len(r) == run for r in runs)  # runs of one implementation
    firsts = [runs[i][0] for i in range(0, len(runs), 3)]  # the first of each round rotates
    assert firsts[:3] == ["a", "b", "c"] and len(runs) >= 3 * -(-measure.MIN_REPS // (run - 1))


def test_poison_fills_floats_with_nan_and_integers_with_deadbeef():
    f, i, u = np.zeros(4, np.float32), np.zeros(4, np.int32), np.zeros(4, np.uint16)
    for a in (f, i, u):
        measure.poison(a)
    assert np.isnan(f).all() and (i.view(np.uint32) == 0xDEADBEEF).all() and (u == 0xBEEF).all()


def test_the_checked_call_poisons_then_calls_then_waits():
    out = np.zeros(3)
    seen = []
    result = measure.checked_call(lambda: seen.append(("call", np.isnan(out).all())) or 7,
                                  lambda: seen.append(("wait", None)), (out,))
    assert result == 7 and seen == [("call", True), ("wait", None)]


def test_variants_and_benchmark_rows_share_the_measured_fields():
    t = measure.Timing(2.0, 1.5, 3.0, 20, batch=50)
    v, r = VariantRecord("v", "", True), BenchRow("op", "case", "impl", True)
    for rec in (v, r):
        rec.set_time(t)
        assert rec.bandwidth(4_000_000) == pytest.approx(2.0)  # 4 MB in 2 ms
        assert (rec.median_ms, rec.min_ms, rec.max_ms, rec.reps) == (2.0, 1.5, 3.0, 20)
    # in JSON a record's name comes first, then `ok` and the measured figures
    assert list(plain(v))[:4] == ["variant", "summary", "ok", "median_ms"]
    assert list(r.to_dict())[:5] == ["op", "case", "impl", "ok", "median_ms"]
    run = RunRecord({}, 1.0, [], bench=[r], copy_by="cudaMemcpy")
    assert RunRecord.from_dict(plain(run)) == run


@pytest.mark.gpu
def test_launches_are_timed_back_to_back_on_the_gpu(rt):
    """An empty launch is timed in batches of many launches; a variant kept to one launch a sample is."""
    import cupy

    kernel = rt.kernel("lab/copy.cu", "copyKernel")
    nothing = cupy.empty(4, dtype=cupy.float32)
    launched = []

    def launch():
        launched.append(1)
        rt.launch(kernel, 1, 32, nothing, nothing, np.uint64(0))

    t = rt.time(launch, reps=10)  # its first launch is the kernel's first: cold
    assert t.batch > 1 and t.reps == 10 and 0 < t.min_ms <= t.median_ms <= t.max_ms
    assert len(launched) > 10 * t.batch
    alone = rt.time(launch, reps=10, batch=1)
    assert alone.batch == 1 and alone.reps == 10
