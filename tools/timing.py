"""The timers the measurement tools share (tools/*.py import it; not part of the package).

host_us: host time per call of `fn` (nothing synchronised); loop_us: N calls then one synchronize
(host path, GPU overlapped); alone_us: each call followed by a synchronize (median); gpu_us: calls
back to back between two CUDA events on CuPy's current stream (the GPU's time where it is the
bottleneck)."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a source tree


def host_us(fn, n=20000):
    for _ in range(100):
        fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def loop_us(fn, sync, n=3000):
    for _ in range(200):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    sync()
    return (time.perf_counter() - t0) / n * 1e6


def alone_us(fn, sync, n=1000, warm=50):
    for _ in range(warm):
        fn()
        sync()
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        sync()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def gpu_us(fn, n=2000, warm=50):
    import cupy

    s = cupy.cuda.get_current_stream()
    for _ in range(min(warm, n)):
        fn()
    e0, e1 = cupy.cuda.Event(), cupy.cuda.Event()
    e0.record(s)
    for _ in range(n):
        fn()
    e1.record(s)
    e1.synchronize()
    return cupy.cuda.get_elapsed_time(e0, e1) / n * 1e3
