"""The tools' timers, in microseconds and with the tools' call counts: smemlab.measure's timers (the
package's one timer; the tools' scripts import this module through a path to tools/dev/; not part of
the package).

host_us: host time per call of `fn` (nothing synchronised); loop_us: N calls then one synchronize
(host path, GPU overlapped); alone_us: each call followed by a synchronize (median); gpu_us: calls
back to back between two CUDA events on CuPy's current stream (the GPU's time where it is the
bottleneck)."""

from __future__ import annotations

from smemlab import measure


def host_us(fn, n=20000):
    return measure.time_host(fn, reps=1, warmup=100, batch=n).median_ms * 1e3


def loop_us(fn, sync, n=3000):
    return measure.time_host(fn, reps=1, warmup=200, batch=n, sync=sync).median_ms * 1e3


def alone_us(fn, sync, n=1000, warm=50):
    return measure.time_host(fn, reps=n, warmup=warm, sync=sync).median_ms * 1e3


def gpu_us(fn, n=2000, warm=50):
    import cupy

    for _ in range(min(warm, n)):
        fn()
    return measure.events_ms(fn, cupy.cuda.get_current_stream(), n) / n * 1e3
