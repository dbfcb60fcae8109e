"""Benchmark: the library's ops where PyTorch users put them, against torch's own ops put there too:
inside `torch.compile(fullgraph=True)`, replayed from a CUDA graph (`torch.cuda.graph`, captured on
the bench's stream), and forward plus backward through autograd (`torch.autograd.grad`).

Every row is verified before it is timed, as the eager rows are: a graph's static output is poisoned
before the replay that is checked, so a replay that writes nothing fails; a gradient is compared
with what the op's derivative gives on the same data. torch is required (the rows are skipped
without it)."""

from __future__ import annotations

import gc

import numpy as np

from smemlab.bench import Bench, Impl, register
from smemlab.bench.goals import goal

COEF = [float(c) for c in np.random.default_rng(7).uniform(-1, 1, 9).astype(np.float32)]


def _cases(b: Bench):
    """(case name, bytes moved, smemlab's call, torch's call, inputs as torch tensors, reference, tolerance)."""
    import torch

    from smemlab.ops import histogram, matmul, reduce_sum, stencil1d, transpose

    t = b.as_torch
    n2 = 2048 if b.quick else 4096
    x2 = t(b.random((n2, n2), "float32"))
    n1 = 1 << (20 if b.quick else 24)
    x1 = t(b.random(n1, "float32"))
    keys = t(b.random(n1, "float32", 0, 256)).to(torch.int32)
    m = 512 if b.quick else 1024
    a, w = t(b.random((m, m), "float32")), t(b.random((m, m), "float32"))
    conv_w = torch.tensor(COEF, device=x1.device).view(1, 1, -1)
    return [
        (f"transpose {n2}^2 f32", 2 * x2.numel() * 4, transpose, lambda v: v.t().contiguous(), (x2,),
         lambda: x2.t().contiguous(), 0.0),
        (f"reduce_sum 2^{n1.bit_length() - 1} f32", n1 * 4, reduce_sum, torch.sum, (x1,),
         lambda: x1.double().sum().float(), 1e-6 * n1 ** 0.5),
        (f"stencil1d 2^{n1.bit_length() - 1} r=4", 2 * n1 * 4, lambda v: stencil1d(v, COEF),
         lambda v: torch.nn.functional.conv1d(v.view(1, 1, -1), conv_w, padding=4).view(-1), (x1,),
         lambda: torch.nn.functional.conv1d(x1.double().view(1, 1, -1), conv_w.double(), padding=4).view(-1).float(),
         1e-5 * sum(abs(c) for c in COEF)),
        # torch.bincount sizes its output from the keys' maximum (a sync no graph can hold): histc with its range
        (f"histogram 2^{n1.bit_length() - 1} keys 256 bins", n1 * 4, lambda k: histogram(k, 256),
         lambda k: torch.histc(k.float(), bins=256, min=0, max=256).to(torch.int32), (keys,),
         lambda: torch.bincount(keys, minlength=256).to(torch.int32), 0.0),
        (f"matmul {m}^3 f32", 3 * m * m * 4, matmul, torch.matmul, (a, w),
         lambda: (a.double() @ w.double()).float(), 2e-3),
    ]


def _close(b: Bench, ref_fn, tol):
    """Bench.assert_close against the reference `ref_fn()` gives: exact for tol 0, else within tol + 1e-4 of it."""
    def check(out):
        b.assert_close(out, b.to_cupy(ref_fn()), atol=tol, rtol=1e-4, exact=tol == 0.0)

    return check


STEADY_CALLS = 300


def _steady(compiled, inputs):
    """`compiled` (a compiled function, or a training step) after the calls that run before its host path
    settles: the first few hundred calls after compiling cost up to twice the host time of later ones, ours and
    torch's alike (H100, 2026-11-28, docs/notes/2026-11-compiled-host-path.md), and a training loop makes
    thousands; the benchmark times what such a loop's calls cost, not the transient after the compile."""
    import torch

    for _ in range(STEADY_CALLS):
        compiled(*inputs)
    torch.cuda.synchronize()
    gc.collect()  # the compile's garbage, collected here rather than inside a timed sample
    return compiled


def _graphed(b: Bench, fn, inputs):
    """A call captured into a CUDA graph on the bench's stream; the Impl replays it and returns its static
    output, poisoned before each verification so that only a replay can make it right."""
    import torch

    stream = torch.cuda.current_stream()  # the bench's stream: the replays run where the events are recorded
    for _ in range(2):  # warm-up off the graph: registration, compiles, caches
        fn(*inputs)
    stream.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        out = fn(*inputs)

    def replay():
        graph.replay()
        return out

    def poison():
        out.fill_(-7 if not out.is_floating_point() else float("nan"))

    return replay, poison


@register("frameworks", order=60)
def bench_frameworks(b: Bench) -> None:
    if b.torch is None:
        b.log("  frameworks: torch is not installed; no rows")
        return
    import torch

    from smemlab.ops._route import registered

    registered()  # before the first trace: torch.compile cannot trace the registration itself
    # The objects the other benchmarks left in this process (records, compiled graphs, their caches) out of the
    # collector's scans: an autograd or compiled step allocates Python objects, so the collections it triggers
    # would scan that heap too, a cost of the benchmark's process rather than of either side's call
    gc.collect()
    gc.freeze()
    try:
        _compiled_and_graphed(b, torch)
        _backward(b)
    finally:
        gc.unfreeze()


def _compiled_and_graphed(b: Bench, torch) -> None:
    """Each op inside torch.compile and inside a CUDA graph, against torch's own captured the same way."""
    for case, moved, ours, theirs, inputs, ref, tol in _cases(b):
        check = _close(b, ref, tol)
        impls: dict[str, Impl] = {}
        compiled_ours = _steady(torch.compile(ours, fullgraph=True, dynamic=False), inputs)
        compiled_theirs = _steady(torch.compile(theirs, fullgraph=True, dynamic=False), inputs)
        impls["smemlab in torch.compile"] = Impl(lambda f=compiled_ours: f(*inputs), "torch")
        impls["torch in torch.compile"] = Impl(lambda f=compiled_theirs: f(*inputs), "torch")
        poisons, uncaptured = {}, []
        for name, fn in (("smemlab in a CUDA graph", ours), ("torch in a CUDA graph", theirs)):
            try:
                replay, poison = _graphed(b, fn, inputs)
            except RuntimeError as exc:  # what cannot be captured is a finding, not a failed measurement
                uncaptured.append(name)
                b.log(f"  frameworks {case} {name}: cannot be captured ({str(exc).splitlines()[0][:160]})")
                torch.cuda.synchronize()
                continue
            poisons[name] = poison
            impls[name] = Impl(replay, "torch")

        def after_poison(name):
            def run(out):  # the static output, poisoned, then rewritten by a replay
                poisons[name]()
                check(impls[name].fn())
            return run

        checks = {name: after_poison(name) for name in poisons}
        faster = case.startswith(("transpose", "stencil", "histogram"))  # ahead of torch when called eagerly
        targets = [goal("smemlab in a CUDA graph", "throughput", "torch in a CUDA graph", 1.0),
                   goal("smemlab in torch.compile", "throughput", "torch in torch.compile", 1.0)] if faster else []
        targets = [t for t in targets if not set(t["vs"]) & set(uncaptured)]
        b.case(case, bytes=moved, family="", size=inputs[0].numel(), memcpy=False, impls=impls,
               check=check, checks=checks, targets=targets)


def _backward(b: Bench) -> None:
    """Forward and backward through autograd: the gradients the ops' backward passes (on the library's
    kernels) give, against torch's ops differentiated the same way."""
    import torch

    from smemlab.ops import matmul, stencil1d, transpose

    n2 = 2048 if b.quick else 4096
    m = 512 if b.quick else 1024
    n1 = 1 << (20 if b.quick else 24)
    x2 = b.as_torch(b.random((n2, n2), "float32")).requires_grad_()
    g2 = b.as_torch(b.random((n2, n2), "float32"))
    x1 = b.as_torch(b.random(n1, "float32")).requires_grad_()
    g1 = b.as_torch(b.random(n1, "float32"))
    a = b.as_torch(b.random((m, m), "float32")).requires_grad_()
    w = b.as_torch(b.random((m, m), "float32")).requires_grad_()
    gm = b.as_torch(b.random((m, m), "float32"))
    conv_w = torch.tensor(COEF, device=x1.device).view(1, 1, -1)

    def conv(v):
        return torch.nn.functional.conv1d(v.view(1, 1, -1), conv_w, padding=4).view(-1)

    cases = [
        (f"transpose {n2}^2 fwd+bwd", 4 * x2.numel() * 4, (x2,), g2, transpose, lambda v: v.t().contiguous(),
         lambda: (g2.t(),), 0.0),
        (f"stencil1d 2^{n1.bit_length() - 1} fwd+bwd", 4 * n1 * 4, (x1,), g1, lambda v: stencil1d(v, COEF), conv,
         # a correlation's gradient is the correlation of the output's gradient with the reversed coefficients
         lambda: (torch.nn.functional.conv_transpose1d(g1.double().view(1, 1, -1), conv_w.double(),
                                                      padding=4).view(-1).float(),),
         1e-5 * sum(abs(c) for c in COEF)),
        (f"matmul {m}^3 fwd+bwd", 9 * m * m * 4, (a, w), gm, matmul, torch.matmul,
         lambda: ((gm.double() @ w.double().t()).float(), (a.double().t() @ gm.double()).float()), 4e-3),
    ]
    for case, moved, inputs, grad_out, ours, theirs, ref, tol in cases:
        def grads(fn, inputs=inputs, grad_out=grad_out):
            return torch.autograd.grad(fn(*inputs), inputs, grad_out)

        def check(out, ref=ref, tol=tol):
            for got, want in zip(out, ref()):
                _close(b, lambda want=want: want, tol)(got.detach())

        # a training loop's steps, not the first ones: ours and torch's alike, as for the compiled rows
        for fn in (ours, theirs):
            _steady(lambda *xs, fn=fn: grads(fn), inputs)
        b.case(case, bytes=moved, family="", size=inputs[0].numel(), memcpy=False,
               impls={"smemlab (torch)": Impl(lambda o=ours: grads(o), "torch"),
                      "torch": Impl(lambda t=theirs: grads(t), "torch")},
               check=check, targets=[goal("smemlab (torch)", "throughput", "torch", 1.0)]
               if not case.startswith("matmul") else [])
