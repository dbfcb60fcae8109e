"""Single calls from a plain torch script, as a user writes one: python3 tools/record/torch_calls.py

No streams set up, no smemlab harness: torch's default stream, tensors made by torch, each op
called in a Python loop. Prints, per op and size, microseconds per call for smemlab and for what
the user would call in torch instead: "loop" (N calls, then one torch.cuda.synchronize) and
"alone" (each call followed by torch.cuda.synchronize, median). Every output is checked first.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import alone_us, loop_us


def per_call(fn, n):
    import torch

    return loop_us(fn, torch.cuda.synchronize, n), alone_us(fn, torch.cuda.synchronize, max(20, n // 4))


def main() -> None:
    import torch

    from smemlab import ops

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    dev = "cuda"
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"{'op':34s} {'smemlab loop':>13s} {'alone':>8s} {'torch loop':>11s} {'alone':>8s}  ratio (alone)")
    rows = []
    for side in (256, 1024, 4096):
        a = torch.rand(side, side, device=dev)
        rows.append((f"transpose {side}x{side}", lambda a=a: ops.transpose(a), lambda a=a: a.t().contiguous(),
                     lambda o, a=a: torch.equal(o, a.t().contiguous())))
    for lg in (16, 20, 24):
        x = torch.rand(1 << lg, device=dev)
        rows.append((f"reduce_sum 2^{lg} f32", lambda x=x: ops.reduce_sum(x), lambda x=x: x.sum(),
                     lambda o, x=x: abs(float(o) - float(x.double().sum())) < 1e-3 * float(x.sum())))
        w = torch.rand(9, device=dev)
        coef = w.tolist()
        rows.append((f"stencil1d 2^{lg} r=4", lambda x=x, c=coef: ops.stencil1d(x, c),
                     lambda x=x, w=w: torch.nn.functional.conv1d(x.view(1, 1, -1), w.view(1, 1, -1), padding=4).view(-1),
                     lambda o, x=x, w=w: torch.allclose(o, torch.nn.functional.conv1d(x.view(1, 1, -1), w.view(1, 1, -1), padding=4).view(-1), atol=1e-5)))
        k = torch.randint(0, 256, (1 << lg,), device=dev, dtype=torch.int32)
        rows.append((f"histogram 2^{lg} keys 256 bins", lambda k=k: ops.histogram(k, 256), lambda k=k: torch.bincount(k, minlength=256),
                     lambda o, k=k: torch.equal(o.long(), torch.bincount(k, minlength=256))))
        # 2^20 bins: the partition method, whose scratch comes from torch's allocator on every call
        k = torch.randint(0, 1 << 20, (1 << lg,), device=dev, dtype=torch.int32)
        rows.append((f"histogram 2^{lg} keys 2^20 bins", lambda k=k: ops.histogram(k, 1 << 20),
                     lambda k=k: torch.bincount(k, minlength=1 << 20),
                     lambda o, k=k: torch.equal(o.long(), torch.bincount(k, minlength=1 << 20))))
    for s in (128, 1024):
        m = torch.rand(s, s, device=dev)
        rows.append((f"matmul {s}^3", lambda m=m: ops.matmul(m, m), lambda m=m: m @ m,
                     lambda o, m=m: float((o.double() - m.double() @ m.double()).norm() / (m.double() @ m.double()).norm()) < 1e-5))
    for name, ours, theirs, check in rows:
        assert check(ours()), f"{name}: smemlab's output is wrong"
        n = 2000 if "2^24" not in name and "4096" not in name else 300
        lo, ao = per_call(ours, n)
        lt, at = per_call(theirs, n)
        print(f"{name:34s} {lo:13.1f} {ao:8.1f} {lt:11.1f} {at:8.1f}  {ao / at:5.2f}x")


if __name__ == "__main__":
    main()
