"""The host path of the ops' eager calls on torch tensors, as a user's loop sees it:
python3 tools/probes/host_loop_probe.py (PYTHONPATH chooses the source tree, so two trees compare in one run).

Loop of 2,000 calls at 2^16 elements (256x256 for transpose and matmul), us a call, against torch's
own op in the same loop; each result checked against torch's first.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import loop_us


def main():
    import torch

    from smemlab import ops

    torch.backends.cuda.matmul.allow_tf32 = False
    t = torch.randn(1 << 16, device="cuda")
    m = torch.randn(256, 256, device="cuda")
    c = [0.05, -0.1, 0.2, 0.3, 0.1, 0.3, 0.2, -0.1, 0.05]
    w = torch.tensor(c, device="cuda").view(1, 1, -1)
    rows = [
        ("reduce_sum 2^16", lambda: ops.reduce_sum(t), lambda: t.sum()),
        ("transpose 256^2", lambda: ops.transpose(m), lambda: m.t().contiguous()),
        ("stencil1d 2^16", lambda: ops.stencil1d(t, c), lambda: torch.nn.functional.conv1d(t.view(1, 1, -1), w, padding=4).view(-1)),
        ("matmul 256^2", lambda: ops.matmul(m, m), lambda: m @ m),
    ]
    sync = torch.cuda.synchronize
    for name, ours, ref in rows:
        err = float((ours().double() - ref().double()).norm() / ref().double().norm())
        assert err < 1e-5, (name, err)
        a, b = loop_us(ours, sync, 2000), loop_us(ref, sync, 2000)
        print(f"  {name:18s} smemlab {a:6.1f}  torch {b:6.1f}  ratio {a / b:5.2f}")


if __name__ == "__main__":
    main()
