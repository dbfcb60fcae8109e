"""Where a compiled call of a library op spends its host time (issue 29), against torch's own compiled op:
after 2,000 warm-up calls (past the transient right after a compile), the host time a call (loops of 500
with no synchronize: min / median of 7) and back to back (CUDA events), for each layer of our call (the
CUDA kernel's Python function, the op through the dispatcher, the compiled function), then cProfile over
1,000 compiled calls of each, the top functions by own time. Results verified against torch before timing.

    python tools/probes/compiled_call_profile.py [--size 4096] [--out FILE.txt]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import statistics
import sys

import torch
from compiled_kernels_probe import timed  # this folder's: run as a script from the repository root

import smemlab.ops as ops
from smemlab.ops import _route, torch_ops


def host_and_b2b(fn, x, calls=500, rounds=7):
    """(host min, host median, back-to-back min, median) in us a call over `rounds` loops of `calls`."""
    hosts, b2bs = zip(*(timed(fn, x, calls) for _ in range(rounds)))
    return min(hosts), statistics.median(hosts), min(b2bs), statistics.median(b2bs)


def profile(fn, x, calls=1000, top=28):
    torch.cuda.synchronize()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(calls):
        fn(x)
    pr.disable()
    torch.cuda.synchronize()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(top)
    return s.getvalue()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=4096)
    args = ap.parse_args()
    n = args.size
    x = torch.randn(n, n, device="cuda")
    _route.registered()
    op = torch.ops.smemlab.transpose.default
    ref = x.t().contiguous()
    layers = {
        "ours: run() (the CUDA kernel's function)": lambda t: torch_ops.transpose_cuda(t),
        "ours: ops.transpose eager": lambda t: ops.transpose(t),
        "ours: torch.ops.smemlab.transpose.default": lambda t: op(t),
        "ours: op under no_grad": None,
        "torch: x.t().contiguous() eager": lambda t: t.t().contiguous(),
    }
    compiled = {
        "ours compiled": torch.compile(lambda t: ops.transpose(t), fullgraph=True, dynamic=False),
        "ours op compiled": torch.compile(lambda t: op(t), fullgraph=True, dynamic=False),
        "torch compiled": torch.compile(lambda t: t.t().contiguous(), fullgraph=True, dynamic=False),
        "torch view compiled (wrapper alone)": torch.compile(lambda t: t.t(), fullgraph=True, dynamic=False),
        "torch add compiled": torch.compile(lambda t: t + 1, fullgraph=True, dynamic=False),
    }

    def nograd(t):
        with torch.no_grad():
            return op(t)

    layers["ours: op under no_grad"] = nograd
    fns = {**layers, **compiled}
    for name, fn in fns.items():
        out = fn(x)
        if "view" in name:
            ok = torch.equal(out, ref)
        elif "add" in name:
            ok = torch.equal(out, x + 1)
        else:
            ok = torch.equal(out, ref)
        if not ok:
            print(f"{name}: WRONG RESULT", flush=True)
            sys.exit(1)
        for _ in range(2000):
            fn(x)
    gc.collect()
    print(f"transpose {n}^2 float32, {torch.cuda.get_device_name()}, torch {torch.__version__}; us a call")
    print(f"{'call':48s} {'host min':>9s} {'host med':>9s} {'b2b min':>9s} {'b2b med':>9s}")
    for round_ in range(2):
        for name, fn in fns.items():
            h, hm, b, bm = host_and_b2b(fn, x)
            print(f"{name:48s} {h:9.1f} {hm:9.1f} {b:9.1f} {bm:9.1f}", flush=True)
        print()
    for name in ("ours compiled", "ours op compiled", "torch compiled"):
        print(f"===== cProfile: {name} (1000 calls) =====")
        print(profile(compiled[name], x))
    xg = x.clone().requires_grad_(True)
    g = torch.randn(n, n, device="cuda")

    def fwd_bwd(transpose):
        def step(t):
            y = transpose(t)
            (dx,) = torch.autograd.grad(y, t, g)
            return dx
        return step

    pairs = {"fwd+bwd ours": fwd_bwd(ops.transpose), "fwd+bwd torch": fwd_bwd(lambda t: t.t().contiguous())}
    for name, fn in pairs.items():
        if not torch.equal(fn(xg), g.t()):
            print(f"{name}: WRONG GRADIENT", flush=True)
            sys.exit(1)
        for _ in range(1000):
            fn(xg)
    for name, fn in pairs.items():
        h, hm, b, bm = host_and_b2b(fn, xg)
        print(f"{name:48s} {h:9.1f} {hm:9.1f} {b:9.1f} {bm:9.1f}", flush=True)
    for name, fn in pairs.items():
        print(f"===== cProfile: {name} (1000 calls) =====")
        print(profile(fn, xg))
    from torch._inductor.utils import run_and_get_code

    torch._dynamo.reset()
    _, code = run_and_get_code(torch.compile(lambda t: ops.transpose(t), fullgraph=True, dynamic=False), x)
    print("===== inductor's code for ours =====")
    print(code[0][-3000:])


if __name__ == "__main__":
    main()
