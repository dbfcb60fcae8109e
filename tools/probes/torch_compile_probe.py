"""Why a call of smemlab.ops inside torch.compile costs more than the eager call (issue 29: transpose
4096^2 float32 ~99 us a call compiled against ~40 us eager, and torch's own compiled transpose faster):

    python3 tools/probes/torch_compile_probe.py REPORT.txt [--quick]

For each op (transpose, reduce_sum, histogram, histogram with weights, matmul, stencil1d) at a small and a
large size, every result verified against torch's first (never on zeros), then:
  1. GPU time a call, calls back to back between CUDA events (warm, median of REPS samples of BATCH calls):
     eager (smemlab.ops.<op>, the direct path), the registered op called directly (torch.ops.smemlab.<op>:
     the dispatcher's path through the op's Autograd and CUDA kernels, what the compiled code calls),
     torch.compile(fullgraph=True),
     a CUDA graph of the eager call replayed, and torch's own op eager, compiled and replayed;
  2. host time a call (a loop of calls, no synchronize: where it passes the GPU time, the host path is the
     bound, not the kernels);
  3. torch.profiler of COMPILED_CALLS compiled calls: every kernel and host op per call (an extra copy, an
     allocation, a clone of the output, a contiguous() of the input shows here);
  4. the code inductor generates for the compiled call (torch._inductor.utils.run_and_get_code);
  5. the fake implementation's output strides against the real output's (a mismatch makes inductor copy).
Then the eager host path in a loop of 2,000 calls at small sizes, every op against torch's (issue 29's
stencil1d 2^16 row: 28.9 us against conv1d's 18.3 before), and what the registration costs: the
project's (torch.library.Library define + impl, with its own Autograd kernel: smemlab.ops.torch_ops)
against transpose registered with no Autograd kernel at all (the dispatcher's plain Python-kernel
path: the floor) and with torch.library.custom_op + register_autograd (how the ops were registered
before: its Python layers cost ~30 us a call on an H100 host).
Writes the plain-text report to REPORT (and prints it).
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
import traceback
from pathlib import Path

REPS, BATCH = 21, 20
COMPILED_CALLS = 10
STENCIL = [0.05, -0.1, 0.2, 0.3, 0.1, 0.3, 0.2, -0.1, 0.05]


class Report:
    def __init__(self, path: str):
        self.path, self.buf = path, io.StringIO()

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        self.buf.write(line + "\n")
        Path(self.path).write_text(self.buf.getvalue())  # as it goes: a crash leaves what was measured


def gpu_us(fn, reps=REPS, batch=BATCH) -> float:
    """Median GPU time a call: `batch` calls back to back between two CUDA events, `reps` samples."""
    import torch

    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(batch):
            fn()
        e1.record()
        e1.synchronize()
        samples.append(e0.elapsed_time(e1) * 1e3 / batch)
    return statistics.median(samples)


def host_us(fn, n=200) -> float:
    """Host time a call: n calls, no synchronize inside (the queue may fill: then it is the GPU's pace)."""
    import torch

    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def loop_us(fn, n=2000) -> float:
    """A user's loop: n calls, one synchronize at the end, us a call (host path and GPU overlapped)."""
    import torch

    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


def graphed(fn):
    """fn captured into a CUDA graph (warmed on a side stream, as torch.cuda.graph's doc shows): replay."""
    import torch

    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = fn()
    return g, out


def cases(quick: bool):
    """(name, smemlab's call, the registered op's call, torch's call, inputs, tolerance); inputs random."""
    import torch

    from smemlab import ops

    sm = torch.ops.smemlab
    g = torch.Generator(device="cuda").manual_seed(29)

    def randn(*shape):
        return torch.randn(*shape, device="cuda", generator=g)

    conv_w = torch.tensor(STENCIL, device="cuda").view(1, 1, -1)
    out = []
    for n2 in ((256, 2048) if quick else (256, 4096)):
        out.append((f"transpose {n2}^2 f32", ops.transpose, sm.transpose, lambda v: v.t().contiguous(), (randn(n2, n2),), 0.0))
    for n1 in ((1 << 16, 1 << 22) if quick else (1 << 16, 1 << 24)):
        e = n1.bit_length() - 1
        out.append((f"reduce_sum 2^{e} f32", ops.reduce_sum, sm.reduce_sum, torch.sum, (randn(n1),), 1e-5))
        out.append((f"stencil1d 2^{e} r=4", lambda v: ops.stencil1d(v, STENCIL), lambda v: sm.stencil1d(v, STENCIL),
                    lambda v: torch.nn.functional.conv1d(v.view(1, 1, -1), conv_w, padding=4).view(-1), (randn(n1),), 1e-5))
        keys = torch.randint(0, 256, (n1,), device="cuda", generator=g, dtype=torch.int32)
        out.append((f"histogram 2^{e} keys 256 bins", lambda k: ops.histogram(k, 256), lambda k: sm.histogram(k, 256),
                    lambda k: torch.histc(k.float(), bins=256, min=0, max=256).to(torch.int32), (keys,), 0.0))
        w = torch.rand(n1, device="cuda", generator=g)
        out.append((f"histogram 2^{e} keys 256 bins weighted", lambda k, v: ops.histogram(k, 256, weights=v),
                    lambda k, v: sm.histogram(k, 256, "auto", None, v),
                    lambda k, v: torch.bincount(k, weights=v, minlength=256), (keys, w), 1e-4))
    for m in (256, 1024):
        out.append((f"matmul {m}^3 f32", ops.matmul, sm.matmul, torch.matmul, (randn(m, m), randn(m, m)), 1e-4))
    return out


def check(name, got, want, tol) -> str:
    import torch

    got, want = got.double(), want.double()
    if tuple(got.shape) != tuple(want.shape):
        raise AssertionError(f"{name}: shape {tuple(got.shape)} against {tuple(want.shape)}")
    if float(want.abs().max()) == 0.0:
        raise AssertionError(f"{name}: the reference is all zeros: nothing verified")
    err = float((got - want).abs().max() / want.abs().max())
    if err > tol:
        raise AssertionError(f"{name}: max error {err:.3g} of the largest value (tolerance {tol})")
    return f"verified (max error {err:.2g} of max |ref|)" if not torch.equal(got, want) else "verified (exact)"


def fake_strides(fn, inputs) -> tuple:
    """The output's shape and strides that fn's fake implementation gives for `inputs`."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode(allow_non_fake_inputs=False) as mode:
        fakes = [mode.from_tensor(x) for x in inputs]
        o = fn(*fakes)
    return tuple(o.shape), tuple(o.stride())


def profile_lines(fn, calls: int) -> list[str]:
    """torch.profiler over `calls` calls of fn: each CUDA kernel and each host op, counts per call."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    lines = []
    for ev in sorted(prof.key_averages(), key=lambda e: -e.count):
        dev = getattr(ev, "device_time_total", None) or getattr(ev, "cuda_time_total", 0)
        kind = "gpu " if (getattr(ev, "device_type", None) is not None and "CUDA" in str(ev.device_type)) else "host"
        lines.append(f"      {kind} {ev.count / calls:5.1f}/call  cpu {ev.cpu_time_total / calls:8.1f} us  "
                     f"gpu {dev / calls:8.1f} us  {ev.key[:110]}")
    return lines[:40]


def inductor_code(fn, inputs) -> str:
    import torch
    from torch._inductor.utils import run_and_get_code

    torch._dynamo.reset()
    _, codes = run_and_get_code(torch.compile(fn, fullgraph=True, dynamic=False), *inputs)
    keep = []
    for code in codes:  # the call function: allocations, extern calls, copies
        lines = code.splitlines()
        start = next((i for i, ln in enumerate(lines) if ln.strip().startswith("def call(")), 0)
        keep += lines[start:start + 40]
    return "\n".join("      " + ln for ln in keep)


def probe_transposes():
    """transpose registered twice more, beside the project's torch.ops.smemlab.transpose: with the
    low-level API and no Autograd kernel (torch.library.Library + impl + register_fake: the dispatcher's
    plain Python-kernel path, the floor), and with torch.library.custom_op + register_fake +
    register_autograd (the project's registration before). Returns the Library (keep it: the
    registrations go with it) and the two ops."""
    import importlib

    import torch

    T = importlib.import_module("smemlab.ops.transpose")  # the module (smemlab.ops.transpose is the function)
    lib = torch.library.Library("smemlab_probe", "FRAGMENT")
    lib.define("transpose(Tensor x) -> Tensor")
    lib.impl("transpose", T.run, "CUDA")

    def fake(x):
        return x.new_empty(x.shape[:-2] + (x.shape[-1], x.shape[-2]))

    torch.library.register_fake("smemlab_probe::transpose", fake, lib=lib)

    # the schema given: this module's annotations are strings (from __future__), which custom_op can't read here
    transpose_custom_op = torch.library.custom_op("smemlab_probe::transpose_custom_op", T.run, mutates_args=(),
                                                  device_types="cuda", schema="(Tensor x) -> Tensor")
    transpose_custom_op.register_fake(fake)
    transpose_custom_op.register_autograd(lambda ctx, g: torch.ops.smemlab_probe.transpose_custom_op(g))
    return lib, torch.ops.smemlab_probe.transpose, torch.ops.smemlab_probe.transpose_custom_op


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="the plain-text report's path")
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer samples")
    args = ap.parse_args()
    global REPS
    if args.quick:
        REPS = 7
    import torch

    from smemlab import ops
    from smemlab.ops._route import registered

    torch.backends.cuda.matmul.allow_tf32 = False
    registered()
    out = Report(args.report)
    out(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, smemlab from {Path(ops.__file__).parent}")
    out(f"GPU us a call: median of {REPS} samples of {BATCH} back-to-back calls between CUDA events; "
        f"host us: a loop of calls with no synchronize")
    for name, ours, registered_op, theirs, inputs, tol in cases(args.quick):
        out()
        out(f"== {name}")
        try:
            want = theirs(*inputs)
            out(f"  eager smemlab: {check(name, ours(*inputs), want, tol)}")
            torch._dynamo.reset()
            c_ours = torch.compile(ours, fullgraph=True, dynamic=False)
            c_theirs = torch.compile(theirs, fullgraph=True, dynamic=False)
            out(f"  compiled smemlab: {check(name, c_ours(*inputs), want, tol)}")
            rows = [("smemlab eager (direct path)", lambda: ours(*inputs)),
                    ("torch.ops.smemlab (dispatcher)", lambda: registered_op(*inputs)),
                    ("smemlab torch.compile", lambda: c_ours(*inputs)),
                    ("torch eager", lambda: theirs(*inputs)),
                    ("torch torch.compile", lambda: c_theirs(*inputs))]
            for label, fn in (("smemlab CUDA graph replay", ours), ("torch CUDA graph replay", theirs)):
                try:
                    g, static = graphed(lambda fn=fn: fn(*inputs))
                    static.fill_(-7 if not static.is_floating_point() else float("nan"))  # only a replay rewrites it
                    g.replay()
                    out(f"  {label}: {check(name, static, want, tol)}")
                    rows.append((label, g.replay))
                except Exception as exc:
                    out(f"  {label}: cannot be captured: {str(exc).splitlines()[0][:200]}")
                    torch.cuda.synchronize()
            for label, fn in rows:
                out(f"  {label:34s} GPU {gpu_us(fn):9.1f} us   host {host_us(fn):8.1f} us")
            try:
                real = ours(*inputs)
                shape, strides = fake_strides(registered_op, inputs)
                same = (shape, strides) == (tuple(real.shape), tuple(real.stride()))
                out(f"  fake output {shape} strides {strides}; real {tuple(real.shape)} strides {tuple(real.stride())}: "
                    f"{'the same' if same else 'DIFFERENT (inductor would copy)'}")
            except Exception as exc:
                out(f"  fake strides: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            out(f"  profile of {COMPILED_CALLS} compiled calls (per call):")
            for line in profile_lines(lambda: c_ours(*inputs), COMPILED_CALLS):
                out(line)
            out(f"  profile of {COMPILED_CALLS} eager calls (per call):")
            for line in profile_lines(lambda: ours(*inputs), COMPILED_CALLS):
                out(line)
            out("  inductor's call():")
            out(inductor_code(ours, inputs))
        except Exception:
            out("  FAILED:\n" + "\n".join("    " + ln for ln in traceback.format_exc().splitlines()))
    out()
    out("== the registration's cost: transpose 256^2, host us a call (a loop of calls), and a loop with one sync")
    try:
        _lib, low, custom = probe_transposes()
        ours = torch.ops.smemlab.transpose
        x = torch.randn(256, 256, device="cuda")
        for op in (ours, low, custom):
            assert torch.equal(op(x), x.t())
        torch._dynamo.reset()
        # a code object each (one lambda for the three would give one Dynamo cache with three guarded entries)
        c_ours, c_low, c_custom = (torch.compile(f, fullgraph=True, dynamic=False)
                                   for f in (ops.transpose, lambda v: low(v), lambda v: custom(v)))
        for c in (c_ours, c_low, c_custom):
            assert torch.equal(c(x), x.t())
        for label, fn in (("transpose.run (no dispatcher)", lambda: ops.transpose(x)),
                          ("torch.ops.smemlab.transpose (the project's)", lambda: ours(x)),
                          ("Library.impl, no Autograd kernel (the floor)", lambda: low(x)),
                          ("custom_op + register_autograd (before)", lambda: custom(x)),
                          ("compiled torch.ops.smemlab.transpose", lambda: c_ours(x)),
                          ("compiled Library.impl, no Autograd kernel", lambda: c_low(x)),
                          ("compiled custom_op", lambda: c_custom(x)),
                          ("torch x.t().contiguous()", lambda: x.t().contiguous())):
            out(f"  {label:48s} host {host_us(fn, 2000):7.1f}   loop {loop_us(fn):7.1f}")
        with torch.inference_mode():
            for label, op in (("torch.ops.smemlab.transpose", ours), ("custom_op", custom)):
                out(f"  {label + ' under inference_mode':48s} host {host_us(lambda op=op: op(x), 2000):7.1f}")
        xg = torch.randn(256, 256, device="cuda", requires_grad=True)
        for label, op in (("torch.ops.smemlab.transpose", ours), ("custom_op", custom)):
            out(f"  {label + ' recording its backward':48s} host {host_us(lambda op=op: op(xg), 2000):7.1f}")
    except Exception:
        out("  FAILED:\n" + "\n".join("    " + ln for ln in traceback.format_exc().splitlines()))
    out()
    out("== eager host path: a loop of 2,000 calls, one synchronize, us a call (small sizes)")
    g = torch.Generator(device="cuda").manual_seed(3)
    t = torch.randn(1 << 16, device="cuda", generator=g)
    m = torch.randn(256, 256, device="cuda", generator=g)
    k = torch.randint(0, 256, (1 << 16,), device="cuda", generator=g, dtype=torch.int32)
    w = torch.rand(1 << 16, device="cuda", generator=g)
    conv_w = torch.tensor(STENCIL, device="cuda").view(1, 1, -1)
    loops = [
        ("reduce_sum 2^16", lambda: ops.reduce_sum(t), lambda: t.sum(), 1e-5),
        ("transpose 256^2", lambda: ops.transpose(m), lambda: m.t().contiguous(), 0.0),
        ("stencil1d 2^16 r=4", lambda: ops.stencil1d(t, STENCIL),
         lambda: torch.nn.functional.conv1d(t.view(1, 1, -1), conv_w, padding=4).view(-1), 1e-5),
        ("histogram 2^16 / 256", lambda: ops.histogram(k, 256), lambda: torch.histc(k.float(), 256, 0, 256).int(), 0.0),
        ("histogram 2^16 / 256 weighted", lambda: ops.histogram(k, 256, weights=w),
         lambda: torch.bincount(k, weights=w, minlength=256), 1e-4),
        ("matmul 256^3", lambda: ops.matmul(m, m), lambda: m @ m, 1e-4),
    ]
    for name, ours, theirs, tol in loops:
        try:
            check(name, ours(), theirs(), tol)
            a, b = loop_us(ours), loop_us(theirs)
            out(f"  {name:30s} smemlab {a:6.1f}  torch {b:6.1f}  ratio {a / b:5.2f}")
        except Exception:
            out(f"  {name}: FAILED " + traceback.format_exc().splitlines()[-1])


if __name__ == "__main__":
    main()
