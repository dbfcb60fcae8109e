"""What one compiled call of a library op runs on the GPU and costs on the host (issue 29): the kernels
torch.profiler sees for 20 calls of `torch.compile(fullgraph=True)` of smemlab's transpose and reduce_sum and of
torch's own, and the host time a call (a loop of 200 with no synchronize) against the time back to back (CUDA
events around the same loop). Prints Inductor's generated call for ours (TORCH_LOGS=output_code is noisier)."""

from __future__ import annotations

import time

import torch

import smemlab.ops as ops


def timed(fn, x, calls=200):
    for _ in range(5):
        fn(x)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(x)
    host = (time.perf_counter() - t0) / calls * 1e6
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(calls):
        fn(x)
    b.record()
    b.synchronize()
    return host, a.elapsed_time(b) / calls * 1e3


def kernels(fn, x):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA, torch.profiler.ProfilerActivity.CPU]) as p:
        for _ in range(20):
            fn(x)
        torch.cuda.synchronize()
    rows = [(e.key, e.count, e.device_time_total / max(e.count, 1)) for e in p.key_averages() if e.device_time_total > 0]
    return sorted(rows, key=lambda r: -r[1] * r[2])[:8]


def main():
    x = torch.randn(4096, 4096, device="cuda")
    v = torch.randn(1 << 24, device="cuda")
    cases = {
        "transpose ours": (lambda t: ops.transpose(t), x),
        "transpose torch": (lambda t: t.t().contiguous(), x),
        "reduce ours": (lambda t: ops.reduce_sum(t), v),
        "reduce torch": (lambda t: t.sum(), v),
    }
    for name, (fn, inp) in cases.items():
        eager_host, eager_b2b = timed(fn, inp)
        c = torch.compile(fn, fullgraph=True, dynamic=False)
        host, b2b = timed(c, inp)
        again_host, again_b2b = timed(c, inp)
        print(f"{name:16s} eager host {eager_host:7.1f} b2b {eager_b2b:7.1f} | compiled host {host:7.1f} b2b {b2b:7.1f}"
              f" | again host {again_host:7.1f} b2b {again_b2b:7.1f} us")
        for key, count, us in kernels(c, inp):
            print(f"    {count:4d} x {us:8.1f} us  {key[:110]}")
    from torch._inductor.utils import run_and_get_code

    for name in ("transpose ours", "reduce ours"):
        fn, inp = cases[name]
        torch._dynamo.reset()
        _, code = run_and_get_code(torch.compile(fn, fullgraph=True, dynamic=False), inp)
        body = code[0]
        start = body.find("def call(")
        print(f"--- {name}: inductor's call ---")
        print(body[start:start + 1500])


if __name__ == "__main__":
    main()
