"""Where one smemlab.ops call spends its host time, step by step: python3 tools/probes/call_steps.py

Each step of reduce_sum and transpose on torch tensors and CuPy arrays is timed alone (host time
per call over many calls), then the whole op, then the kernel alone on the GPU (back-to-back
launches of a preallocated output between events), and a cProfile of the op's calls."""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us, host_us


def main() -> None:
    import cupy
    import torch

    from smemlab import device
    from smemlab.ops import _args as A
    from smemlab.ops import reduce as R
    from smemlab.ops import reduce_sum, transpose, histogram

    x = torch.rand(1 << 16, device="cuda")
    a = torch.rand(256, 256, device="cuda")
    cx = cupy.from_dlpack(x)
    reduce_sum(x), transpose(a), reduce_sum(cx)
    torch.cuda.synchronize()
    ga = A.read(x, "x", R.DTYPES, R.RANKS)
    k, grid = R._plan(0, "reduce_f32_f32")
    out, out_ptr = ga.empty((), np.dtype("float32"))
    ws = R._workspace(0, ga.stream())
    args = (ga.ptr, np.uint64(x.numel()), ws.partials_ptr, ws.counter_ptr, out_ptr)
    steps = {
        "read (torch)": lambda: A.read(x, "x", R.DTYPES, R.RANKS),
        "read (cupy)": lambda: A.read(cx, "x", R.DTYPES, R.RANKS),
        "on_device": lambda: ga.on_device(),
        "with on_device": lambda: ga.on_device().__enter__(),
        "device.current_device": device.current_device,
        "stream (torch)": ga.stream,
        "empty () torch": lambda: ga.empty((), np.dtype("float32")),
        "scalar () torch (pool)": lambda: ga.scalar(np.dtype("float32"), ga.stream()),
        "R._plan": lambda: R._plan(0, "reduce_f32_f32"),
        "R._workspace": lambda: R._workspace(0, 0),
        "device.kernel (transpose)": lambda: device.kernel("lab/transpose/transpose.cu", "transpose_v4", device=0),
        "np.uint64(n)": lambda: np.uint64(12345),
        "device.launch (reduce, no alloc)": lambda: device.launch(k, 64, 256, args, 0),
        "core_stream(0)": lambda: device.core_stream(0),
        "_config": lambda: device._config(64, 256, 0, None),
        "reduce_sum(torch)": lambda: reduce_sum(x),
        "reduce_sum(cupy)": lambda: reduce_sum(cx),
        "transpose(torch)": lambda: transpose(a),
        "torch x.sum()": lambda: x.sum(),
        "torch a.t().contiguous()": lambda: a.t().contiguous(),
    }
    for name, fn in steps.items():
        print(f"{name:36s} {host_us(fn, 5000 if 'sum' in name or 'transpose' in name else 20000):7.2f} us host")
        torch.cuda.synchronize()
    print(f"{'reduce kernel alone (GPU, 2^16)':36s} {gpu_us(lambda: device.launch(k, 64, 256, args, 0)):7.2f} us GPU")
    tk, _ = device.kernel("lab/transpose/transpose.cu", "transpose_v4", device=0), None
    to, to_ptr = ga.empty((256, 256), np.dtype("float32"))
    targs = (to_ptr, a.data_ptr(), np.int64(256), np.int64(256), np.int64(4), np.int64(16))
    print(f"{'transpose kernel alone (GPU, 256^2)':36s} {gpu_us(lambda: device.launch(tk, 16, 256, targs, 0)):7.2f} us GPU")
    for lg in (12, 16, 20):
        xs = torch.rand(1 << lg, device="cuda")
        g = A.read(xs, "x", R.DTYPES, R.RANKS)
        blocks = min(grid, -(-xs.numel() // 1024))
        a2 = (g.ptr, np.uint64(xs.numel()), ws.partials_ptr, ws.counter_ptr, out_ptr)
        print(f"reduce kernel alone 2^{lg} ({blocks} blocks)      {gpu_us(lambda: device.launch(k, blocks, 256, a2, 0)):7.2f} us GPU")
        print(f"torch.sum 2^{lg} back-to-back              {gpu_us(lambda: xs.sum()):7.2f} us GPU")
    keys = torch.randint(0, 256, (1 << 16,), device="cuda", dtype=torch.int32)
    print(f"{'histogram(torch) host':36s} {host_us(lambda: histogram(keys, 256), 3000):7.2f} us host")
    torch.cuda.synchronize()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(3000):
        reduce_sum(x)
        transpose(a)
    pr.disable()
    torch.cuda.synchronize()
    pstats.Stats(pr).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
