"""The GPU's time per launch of small kernels, back to back between CUDA events on one non-default
stream: python3 tools/probes/launch_floor.py [--ncu]

Sets smemlab's small kernels beside an empty kernel (launched through smemlab.device and through a
CuPy RawKernel) and beside torch's kernels for the same work, captured in a CUDA graph so that the
host path does not hide the GPU's time. With --ncu, each op runs 3 times only (for
`ncu --metrics gpu__time_duration.sum`, which gives each kernel's own duration)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us

EMPTY = r'extern "C" __global__ void empty_kernel(int *p, long long n) { if (n < 0) p[0] = 1; }'


def graph_us(fn, torch, calls=200, reps=20) -> float:
    """GPU time per call of `fn` (torch work) replayed from a CUDA graph of `calls` calls."""
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        for _ in range(calls):
            fn()
    g.replay()
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(reps):
        g.replay()
    e1.record()
    e1.synchronize()
    return e0.elapsed_time(e1) / (calls * reps) * 1e3


def main() -> None:
    import cupy
    import torch

    from smemlab import device, ops

    ncu = "--ncu" in sys.argv
    x12 = torch.rand(1 << 12, device="cuda")
    x20 = torch.rand(1 << 20, device="cuda")
    t64 = torch.rand(64, 64, device="cuda")
    t256 = torch.rand(256, 256, device="cuda")
    p = cupy.zeros(1, dtype=cupy.int32)
    src = "\n".join(["// smemlab launch floor probe", EMPTY])
    raw = cupy.RawKernel(src, "empty_kernel")
    calls = {
        "smemlab reduce_sum 2^12": lambda: ops.reduce_sum(x12),
        "torch sum 2^12": lambda: x12.sum(),
        "smemlab reduce_sum 2^20": lambda: ops.reduce_sum(x20),
        "torch sum 2^20": lambda: x20.sum(),
        "smemlab transpose 64x64": lambda: ops.transpose(t64),
        "torch transpose 64x64": lambda: t64.t().contiguous(),
        "smemlab transpose 256x256": lambda: ops.transpose(t256),
        "torch transpose 256x256": lambda: t256.t().contiguous(),
    }
    if ncu:
        for fn in calls.values():
            for _ in range(3):
                fn()
        torch.cuda.synchronize()
        return
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        raw((1,), (32,), (p, cupy.int64(1)))
        print(f"{'empty kernel, CuPy RawKernel':34s} {gpu_us(lambda: raw((1,), (32,), (p, cupy.int64(1)))):7.2f} us per launch (events)")
    print(f"{'op':34s} {'graph replay us/call':>22s}")
    for name, fn in calls.items():
        print(f"{name:34s} {graph_us(fn, torch):22.2f}")
    del device


if __name__ == "__main__":
    main()
