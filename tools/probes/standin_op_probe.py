"""The host cost of a torch operator registered as smemlab's are, on the CPU (no GPU needed):

    python3 tools/probes/standin_op_probe.py

A stand-in op `smemlab_probe::tr` (Library define + impl for the CPU, register_fake, and the Autograd
kernel smemlab.ops.torch_autograd.autograd_kernel makes) whose kernel only allocates its result, so that
what is timed is the path around a kernel, us a call (min and median of REPS loops of N calls):
  - the kernel alone; the op through the dispatcher; variants of the Autograd kernel (none at all: the
    dispatcher's C++ fallback; no keyset, a Python check; the keyset's decision cached);
  - each inside torch.compile(fullgraph=True, dynamic=False), against aten's `x.t().contiguous()` and a
    graph with no extern op (`v + 1`): what the compiled call's own wrapper costs;
  - forward alone and forward+backward (torch.autograd.grad) through the op, through a torch.autograd.Function
    that calls the kernel itself (smemlab.ops.torch_autograd's eager Functions), through
    torch.library.register_autograd, and aten's;
  - Python's garbage collector: collections and their time over STEPS forward+backward steps.
"""

from __future__ import annotations

import gc
import statistics
import time

import torch

from smemlab.ops.torch_autograd import _eager_function, autograd_kernel

N, REPS, STEPS = 2000, 9, 20000


def timed(fn, n=N):
    for _ in range(50):
        fn()
    samples = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n * 1e6)
    return min(samples), statistics.median(samples)


def main() -> None:
    C = torch._C
    lib = torch.library.Library("smemlab_probe", "DEF")

    def kernel(x):
        return x.new_empty((x.shape[1], x.shape[0]))

    def backward(ctx, g):
        return g.t()

    for name in ("tr", "tr_none", "tr_nokeyset", "tr_cached", "tr_registered"):
        lib.define(f"{name}(Tensor x) -> Tensor")
        lib.impl(name, kernel, "CPU")
        torch.library.register_fake(f"smemlab_probe::{name}", lambda x: x.new_empty((x.shape[1], x.shape[0])), lib=lib)
    ops = torch.ops.smemlab_probe
    lib.impl("tr", autograd_kernel(ops.tr.default, kernel, backward, None, backend="CPU"), "Autograd", with_keyset=True)
    torch.library.register_autograd("smemlab_probe::tr_registered", backward, lib=lib)
    below, nstack, level = C._AutoDispatchBelowAutograd, C._len_torch_dispatch_stack, C._functorch.maybe_current_level

    def nokeyset(*args):  # a Python check instead of the keyset (the gradient path is left out: no tensor needs one)
        if nstack() == 0 and type(args[0]) is torch.Tensor and level() is None:
            return kernel(*args)
        with below():
            return ops.tr_nokeyset.default(*args)

    lib.impl("tr_nokeyset", nokeyset, "Autograd")
    after, cpu_only, plain = C._after_autograd_keyset, C.DispatchKeySet(C.DispatchKey.CPU).raw_repr(), {}

    def cached(keyset, *args):
        raw = keyset.raw_repr()
        p = plain.get(raw)
        if p is None:
            p = plain[raw] = (keyset & after).raw_repr() == cpu_only
        return kernel(*args) if p else ops.tr_cached.default.redispatch(keyset & after, *args)

    lib.impl("tr_cached", cached, "Autograd", with_keyset=True)
    eager = _eager_function(ops.tr.default, kernel, backward, None)

    x = torch.randn(8, 8)
    xg = torch.randn(8, 8, requires_grad=True)
    g = torch.randn(8, 8)
    rows = [("kernel alone", timed(lambda: kernel(x)))]
    calls = {"op (the project's Autograd kernel)": ops.tr.default, "no Autograd kernel": ops.tr_none.default,
             "Autograd kernel, no keyset": ops.tr_nokeyset.default, "Autograd kernel, keyset cached": ops.tr_cached.default,
             "aten x.t().contiguous()": lambda v: v.t().contiguous(), "aten v + 1": lambda v: v + 1}
    for name, fn in calls.items():
        rows.append((f"{name}: eager", timed(lambda fn=fn: fn(x))))
        compiled = torch.compile(lambda v, fn=fn: fn(v), fullgraph=True, dynamic=False)
        rows.append((f"{name}: compiled", timed(lambda c=compiled: c(x))))
    grads = {"op": ops.tr.default, "eager Function (kernel itself)": eager,
             "register_autograd": ops.tr_registered.default, "aten": lambda v: v.t().contiguous()}
    for name, fn in grads.items():
        rows.append((f"{name}: forward, requires grad", timed(lambda fn=fn: fn(xg), n=N // 2)))
        rows.append((f"{name}: forward+backward", timed(lambda fn=fn: torch.autograd.grad(fn(xg), (xg,), g), n=N // 2)))
    for name, (lo, med) in rows:
        print(f"{name:60s} min {lo:7.2f}  median {med:7.2f} us")

    log, t = [], {}

    def on_gc(phase, info):
        if phase == "start":
            t[0] = time.perf_counter()
        else:
            log.append((info["generation"], time.perf_counter() - t[0]))

    gc.callbacks.append(on_gc)
    for name, fn in grads.items():
        gc.collect()
        log.clear()
        for _ in range(STEPS):
            torch.autograd.grad(fn(xg), (xg,), g)
        per_gen = {k: sum(1 for gen, _ in log if gen == k) for k in range(3)}
        print(f"gc over {STEPS} forward+backward steps, {name}: collections by generation {per_gen}, "
              f"{sum(s for _, s in log) * 1e3:.2f} ms in all")
    gc.callbacks.remove(on_gc)


if __name__ == "__main__":
    main()
