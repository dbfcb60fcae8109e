"""Where the host time of smemlab's torch ops goes inside torch.compile and autograd (issue 29):

    python3 tools/probes/compiled_host_probe.py REPORT.json [--refs] [--diag PREFIX]
    python3 tools/probes/compiled_host_probe.py --ab REPORT.json      (this branch's code only: see `ab`)

Run once per code version (PYTHONPATH naming the version's src) in the same process layout, so two
reports compare the versions. For transpose 4096^2 and 256^2 f32, reduce_sum 2^24 f32 and stencil1d
2^24 (r=4), each result verified first (transpose and its gradient exact; sums and stencils within
their rounding bounds of a float64 reference), then for each way of calling it:
  - host: a loop of HOST_N calls with no synchronize inside, us a call (the host path alone while the
    GPU keeps up: the queue never fills in HOST_N calls), min and median of REPS loops;
  - b2b: BATCH calls back to back between two CUDA events, us a call (the larger of host path and
    GPU time), min and median of REPS samples;
  - latency: one call then a synchronize, timed on the host clock, min and median of LAT_N calls.
Ways: the public function eagerly; the registered op called directly (torch.ops.smemlab.<op>.default:
what a compiled graph calls); torch.compile(fullgraph=True, dynamic=False) of the public function;
forward plus backward through torch.autograd.grad (transpose, stencil1d). With --refs, torch's own ops
the same ways, and a compiled graph that launches nothing (`x.t()`, a view: the compiled call's own
wrapper, with no kernel). With --diag, the code inductor generates for the compiled transpose, a
cProfile of compiled calls and of forward+backward calls, and torch.profiler's table of
forward+backward calls (both threads), written to PREFIX.*.txt.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import time

import torch

HOST_N, REPS, BATCH, LAT_N = 100, 9, 40, 60
COEF = [0.05, -0.1, 0.2, 0.3, 0.1, 0.3, 0.2, -0.1, 0.05]


def host_us(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(HOST_N):
            fn()
        samples.append((time.perf_counter() - t0) / HOST_N * 1e6)
        torch.cuda.synchronize()
    return min(samples), statistics.median(samples)


def b2b_us(fn):
    fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(REPS):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        fn()  # lead-in: the host path of the first timed call overlaps GPU work
        e0.record()
        for _ in range(BATCH):
            fn()
        e1.record()
        e1.synchronize()
        samples.append(e0.elapsed_time(e1) * 1e3 / BATCH)
    return min(samples), statistics.median(samples)


def latency_us(fn):
    samples = []
    for _ in range(LAT_N):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) * 1e6)
    return min(samples), statistics.median(samples)


def measure(fn):
    return {"host": host_us(fn), "b2b": b2b_us(fn), "latency": latency_us(fn)}


def conv(v, coef=COEF, dtype=None):
    w = torch.tensor(coef, device=v.device, dtype=dtype or v.dtype).view(1, 1, -1)
    return torch.nn.functional.conv1d(v.view(1, 1, -1), w, padding=len(coef) // 2).view(-1)


def close(got, want, atol):
    err = float((got.double() - want.double()).abs().max())
    assert err <= atol + 1e-4 * float(want.double().abs().max()), (err, atol)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("report")
    p.add_argument("--refs", action="store_true")
    p.add_argument("--diag")
    args = p.parse_args()
    from smemlab import ops

    torch.manual_seed(29)
    sm = torch.ops.smemlab
    ops.transpose(torch.ones(2, 2, device="cuda"))  # registers the ops
    rows: dict = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(), "rows": {}}
    coef_abs = sum(abs(c) for c in COEF)

    def row(name, fn):
        rows["rows"][name] = measure(fn)
        print(name, rows["rows"][name], flush=True)
        with open(args.report, "w") as f:  # as it goes: a run cut short keeps what it measured
            json.dump(rows, f, indent=1)

    for n in (4096, 256):
        x = torch.randn(n, n, device="cuda")
        want = x.t().contiguous()
        c = torch.compile(ops.transpose, fullgraph=True, dynamic=False)
        for label, fn in (("eager", ops.transpose), ("op", sm.transpose.default), ("compiled", c)):
            assert torch.equal(fn(x), want), label
            row(f"transpose {n}^2 {label}", lambda fn=fn: fn(x))
        xg, g = x.clone().requires_grad_(), torch.randn(n, n, device="cuda")
        (gx,) = torch.autograd.grad(ops.transpose(xg), (xg,), g)
        assert torch.equal(gx, g.t())
        row(f"transpose {n}^2 fwd+bwd", lambda: torch.autograd.grad(ops.transpose(xg), (xg,), g))
        if args.refs:
            ct = torch.compile(lambda v: v.t().contiguous(), fullgraph=True, dynamic=False)
            cv = torch.compile(lambda v: v.t(), fullgraph=True, dynamic=False)
            assert torch.equal(ct(x), want)
            row(f"transpose {n}^2 torch eager", lambda: x.t().contiguous())
            row(f"transpose {n}^2 torch compiled", lambda: ct(x))
            row(f"transpose {n}^2 torch compiled view (no kernel)", lambda: cv(x))
            row(f"transpose {n}^2 torch fwd+bwd", lambda: torch.autograd.grad(xg.t().contiguous(), (xg,), g))

    n1 = 1 << 24
    x1 = torch.randn(n1, device="cuda")
    ref = x1.double().sum()
    c = torch.compile(ops.reduce_sum, fullgraph=True, dynamic=False)
    for label, fn in (("eager", ops.reduce_sum), ("op", sm.reduce_sum.default), ("compiled", c)):
        close(fn(x1), ref, 1e-6 * n1 ** 0.5)
        row(f"reduce_sum 2^24 {label}", lambda fn=fn: fn(x1))
    if args.refs:
        ct = torch.compile(torch.sum, fullgraph=True, dynamic=False)
        close(ct(x1), ref, 1e-6 * n1 ** 0.5)
        row("reduce_sum 2^24 torch compiled", lambda: ct(x1))

    want = conv(x1.double())
    st = lambda v: ops.stencil1d(v, COEF)  # noqa: E731
    c = torch.compile(st, fullgraph=True, dynamic=False)
    for label, fn in (("eager", st), ("op", lambda v: sm.stencil1d.default(v, COEF)), ("compiled", c)):
        close(fn(x1), want, 1e-5 * coef_abs)
        row(f"stencil1d 2^24 {label}", lambda fn=fn: fn(x1))
    xg, g = x1.clone().requires_grad_(), torch.randn(n1, device="cuda")
    (gx,) = torch.autograd.grad(st(xg), (xg,), g)
    close(gx, conv(g.double(), COEF[::-1]), 1e-5 * coef_abs)  # the correlation with reversed coefficients
    row("stencil1d 2^24 fwd+bwd", lambda: torch.autograd.grad(st(xg), (xg,), g))
    if args.refs:
        ct = torch.compile(conv, fullgraph=True, dynamic=False)
        row("stencil1d 2^24 torch compiled", lambda: ct(x1))
        row("stencil1d 2^24 torch fwd+bwd", lambda: torch.autograd.grad(conv(xg), (xg,), g))

    if args.diag:
        diagnose(args.diag)


def diagnose(prefix: str) -> None:
    from torch._inductor.utils import run_and_get_code

    from smemlab import ops

    x = torch.randn(4096, 4096, device="cuda")
    torch._dynamo.reset()
    c = torch.compile(ops.transpose, fullgraph=True, dynamic=False)
    _, code = run_and_get_code(c, x)
    with open(f"{prefix}.inductor.txt", "w") as f:
        f.write("\n\n".join(code))
    xg, g = x.clone().requires_grad_(), torch.randn(4096, 4096, device="cuda")
    x1 = torch.randn(1 << 24, device="cuda")
    cr = torch.compile(ops.reduce_sum, fullgraph=True, dynamic=False)
    for name, fn in (("compiled", lambda: c(x)), ("compiled_reduce", lambda: cr(x1)),
                     ("fwdbwd", lambda: torch.autograd.grad(ops.transpose(xg), (xg,), g))):
        for _ in range(20):
            fn()
        torch.cuda.synchronize()
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(200):
            fn()
        pr.disable()
        torch.cuda.synchronize()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(35)
        pstats.Stats(pr, stream=s).sort_stats("cumtime").print_stats(35)
        with open(f"{prefix}.cprofile.{name}.txt", "w") as f:
            f.write(s.getvalue())
    from torch.profiler import ProfilerActivity, profile

    for name, fn in (("fwdbwd", lambda: torch.autograd.grad(ops.transpose(xg), (xg,), g)), ("compiled", lambda: c(x)),
                     ("compiled_reduce", lambda: cr(x1))):
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                fn()
            torch.cuda.synchronize()
        with open(f"{prefix}.profiler.{name}.txt", "w") as f:
            f.write(prof.key_averages().table(sort_by="cpu_time_total", row_limit=40))


def ab(report: str, rounds: int = 9) -> None:
    """The eager gradient path with and without this branch's two changes, interleaved in one process
    (a process's host speed drifts more than the changes move): "op" routes every call that records a
    gradient through the registered op and keeps one checked coefficient list (the code before), "eager"
    takes the eager Functions and keeps a few; rounds alternate which goes first."""
    from smemlab import ops
    from smemlab.ops import _route
    from smemlab.ops import stencil as S

    plain_cuda, checked_max = _route._plain_cuda, S._CHECKED_MAX
    variants = {"op": (lambda xs: False, 1), "eager": (plain_cuda, checked_max)}
    cases = {}
    for n in (4096, 256):
        xg, g = torch.randn(n, n, device="cuda", requires_grad=True), torch.randn(n, n, device="cuda")
        cases[f"transpose {n}^2 fwd+bwd"] = lambda xg=xg, g=g: torch.autograd.grad(ops.transpose(xg), (xg,), g)
    for e in (16, 24):
        xg, g = torch.randn(1 << e, device="cuda", requires_grad=True), torch.randn(1 << e, device="cuda")
        cases[f"stencil1d 2^{e} fwd+bwd"] = lambda xg=xg, g=g: torch.autograd.grad(ops.stencil1d(xg, COEF), (xg,), g)
        x = xg.detach()
        cases[f"stencil1d 2^{e} eager, no grad (control)"] = lambda x=x: ops.stencil1d(x, COEF)
    samples = {(c, v): {"host": [], "b2b": []} for c in cases for v in variants}
    for r in range(rounds):
        order = list(variants) if r % 2 == 0 else list(variants)[::-1]
        for case, fn in cases.items():
            for v in order:
                _route._plain_cuda, S._CHECKED_MAX = variants[v]
                S._CHECKED.clear()
                got = samples[(case, v)]
                got["host"].append(host_us(fn)[1])
                got["b2b"].append(b2b_us(fn)[1])
    _route._plain_cuda, S._CHECKED_MAX = plain_cuda, checked_max
    out = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(), "rounds": rounds, "rows": {}}
    for (case, v), got in samples.items():
        out["rows"][f"{case} [{v}]"] = {k: (min(vals), statistics.median(vals)) for k, vals in got.items()}
        print(f"{case} [{v}]", out["rows"][f"{case} [{v}]"], flush=True)
    with open(report, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--ab"]:
        ab(sys.argv[2])
    else:
        main()
