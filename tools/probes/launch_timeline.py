"""When a single call's kernel runs, measured from the GPU: python3 tools/probes/launch_timeline.py

For one call at a time on an idle stream: an event recorded just before the call (e0), one just
after it (e1), then a synchronize. e0 -> e1 on the GPU is the host time from the event to the
launch, plus the launch's latency, plus the kernel; the host clock gives the whole call with its
synchronize. Medians over many calls, implementations taking turns. Run for smemlab's ops against
torch's, and for one kernel launched by the different mechanisms."""

from __future__ import annotations

import ctypes
import statistics
import time


def timeline(fns: dict, stream, reps=400) -> None:
    import cupy

    e0, e1 = cupy.cuda.Event(), cupy.cuda.Event()
    samples = {name: ([], []) for name in fns}
    for _ in range(30):
        for fn in fns.values():
            fn()
            stream.synchronize()
    for _ in range(reps):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            e0.record(stream)
            fn()
            e1.record(stream)
            e1.synchronize()
            host = time.perf_counter() - t0
            samples[name][0].append(cupy.cuda.get_elapsed_time(e0, e1) * 1e3)
            samples[name][1].append(host * 1e6)
    for name, (gpu, host) in samples.items():
        print(f"  {name:44s} e0->e1 {statistics.median(gpu):7.2f} us   host, with sync {statistics.median(host):7.2f} us")


def main() -> None:
    import cupy
    import torch
    from cupy_backends.cuda.api.driver import launchKernel

    from smemlab import device, ops

    stream = cupy.cuda.Stream(non_blocking=True)
    tstream = torch.cuda.ExternalStream(stream.ptr)
    with stream, torch.cuda.stream(tstream):
        x20 = torch.rand(1 << 20, device="cuda")
        x24 = torch.rand(1 << 24, device="cuda")
        t64 = torch.rand(64, 64, device="cuda")
        print("ops, one call at a time:")
        timeline({
            "smemlab reduce_sum 2^20": lambda: ops.reduce_sum(x20),
            "torch sum 2^20": lambda: x20.sum(),
            "smemlab reduce_sum 2^24": lambda: ops.reduce_sum(x24),
            "torch sum 2^24": lambda: x24.sum(),
            "smemlab transpose 64x64": lambda: ops.transpose(t64),
            "torch transpose 64x64": lambda: t64.t().contiguous(),
        }, stream)
        x = cupy.random.rand(64, 64, dtype=cupy.float32)
        out = cupy.empty_like(x)
        k = device.kernel("lab/transpose/transpose.cu", "transpose_v4", device=0)
        args = (out.data.ptr, x.data.ptr, 64, 64, 1, 1)
        s = stream.ptr
        device.launch(k, 1, 256, args, s)
        p = device._packed(k)
        vals = [ctypes.c_int64(v) for v in args]
        ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.addressof(v) for v in vals])
        print("one kernel (transpose 64x64, output preallocated), by launch mechanism:")
        timeline({
            "device.launch (packed buffer)": lambda: device.launch(k, 1, 256, args, s),
            "launchKernel, packed buffer": lambda: launchKernel(p.func, 1, 1, 1, 256, 1, 1, 0, s, 0, p.extra),
            "launchKernel, param pointers": lambda: launchKernel(p.func, 1, 1, 1, 256, 1, 1, 0, s, ctypes.addressof(ptrs), 0),
            "nothing (events only)": lambda: None,
        }, stream)


if __name__ == "__main__":
    main()
