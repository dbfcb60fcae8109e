"""What issue 29's changes cost: python3 tools/probes/torch_ops_probe.py

(a) stencil1d's coefficients as a kernel parameter (stencil1d_f32_p, the library's now) against the
    `__constant__` array (stencil1d_f32): both verified against each other, then kernel time at 2^26;
(b) the host path (loop of 2,000 calls at 2^16 elements, us a call) of the eager direct path, the
    registered op (torch.ops.smemlab.*, what autograd and torch.compile take) and torch's own op;
(c) replay latency of one op captured in a CUDA graph against torch's op captured the same way.
Ratios within this run only (DESIGN.md: timings are noisy).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us, loop_us


def main():
    import cupy
    import torch

    from smemlab import device, ops
    from smemlab.ops import stencil as S
    from smemlab.ops._route import registered

    torch.backends.cuda.matmul.allow_tf32 = False
    sm = registered()
    coef = np.array([0.05, -0.1, 0.2, 0.3, 0.1, 0.3, 0.2, -0.1, 0.05], np.float32)
    n = 1 << 26
    x = cupy.random.default_rng(0).standard_normal(n, dtype=cupy.float32)
    y_const, y_param = cupy.full(n, np.nan, cupy.float32), cupy.full(n, np.nan, cupy.float32)
    stream = cupy.cuda.get_current_stream().ptr
    k_const = device.kernel(S.SOURCE, "stencil1d_f32<4>", None, 0)
    grid = min(-(-n // S.TILE), 2**31 - 1)

    def const():
        device.launch(k_const, grid, 256, (y_const.data.ptr, x.data.ptr, n, 1), stream)

    def param():
        S.launch(y_param.data.ptr, x.data.ptr, n, coef, 0, stream)

    device.set_constant(S.SOURCE, "c_coef", coef, defines, 0, stream)
    const(), param()
    cupy.cuda.Device().synchronize()
    assert bool(cupy.isfinite(y_param).all()) and bool((y_const == y_param).all()), "the two kernels differ"
    print("== (a) stencil 2^26 f32, 9 taps, kernel time (us) ==")
    for _ in range(2):
        print(f"  __constant__ {gpu_us(const, 200):8.1f}   parameter {gpu_us(param, 200):8.1f}")

    print("== (b) host path, loop of 2000 calls at 2^16 (us a call) ==")
    t = torch.randn(1 << 16, device="cuda")
    m = torch.randn(256, 256, device="cuda")
    w = torch.tensor(coef, device="cuda").view(1, 1, -1)
    c = coef.tolist()
    sync = torch.cuda.synchronize
    rows = [
        ("reduce_sum", lambda: ops.reduce_sum(t), lambda: sm.reduce_sum(t), lambda: t.sum()),
        ("transpose 256^2", lambda: ops.transpose(m), lambda: sm.transpose(m), lambda: m.t().contiguous()),
        ("stencil1d", lambda: ops.stencil1d(t, c), lambda: sm.stencil1d(t, c),
         lambda: torch.nn.functional.conv1d(t.view(1, 1, -1), w, padding=4)),
        ("matmul 256^2", lambda: ops.matmul(m, m), lambda: sm.matmul(m, m), lambda: m @ m),
    ]
    print(f"  {'op':18s} {'direct':>8s} {'torch.ops':>10s} {'torch':>8s}")
    for name, direct, op, ref in rows:
        print(f"  {name:18s} {loop_us(direct, sync, 2000):8.1f} {loop_us(op, sync, 2000):10.1f} {loop_us(ref, sync, 2000):8.1f}")

    print("== (c) one op in a CUDA graph, replay latency (us), 2^20 f32 ==")
    v = torch.randn(1 << 20, device="cuda")
    for name, fn, ref in (("reduce_sum", lambda: ops.reduce_sum(v), lambda: v.sum()),
                          ("stencil1d", lambda: ops.stencil1d(v, c),
                           lambda: torch.nn.functional.conv1d(v.view(1, 1, -1), w, padding=4))):
        times = []
        for f in (fn, ref):
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                f()
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                f()
            times.append(loop_us(g.replay, sync, 2000))
        print(f"  {name:12s} smemlab {times[0]:7.1f}   torch {times[1]:7.1f}")


if __name__ == "__main__":
    main()
