"""matmul with transposed operands read in place, against torch (cuBLAS, TF32 off) and against our own
row-major path: python3 tools/probes/matmul_layouts_probe.py [SIZE ...] (default 1024 4096).

Per size and layout (nt: `x @ w.t()`, tn: `a.t() @ b`, tt: `a.t() @ w.t()`), us a call back-to-back
between CUDA events (median of 5 batches), for: smemlab on the views (read in place), smemlab on
row-major copies made before timing (the kernel alone, nn), smemlab on the views with the copy made in
each call (what the op did before it read them in place), torch.matmul on the views; and, for tt, the
two kernels that could take it where the grid fills (warptile_db16_tt, async_tt). Every output is
checked against float64 before it is timed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us


def bench_us(fn, calls: int, batches: int = 5) -> float:
    """Median of `batches` runs of tools/dev/timing.gpu_us (events on CuPy's current stream, torch's
    legacy default stream too: the one these calls run on)."""
    return sorted(gpu_us(fn, n=calls, warm=2) for _ in range(batches))[batches // 2]


def main(sizes):
    import torch

    from smemlab.ops import matmul as mm_fn

    mm = sys.modules["smemlab.ops.matmul"]
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for s in sizes:
        calls = max(3, min(50, int(2e10 / s ** 3)))
        g = torch.Generator(device="cuda").manual_seed(s)
        stored = {n: torch.rand(s, s, device="cuda", generator=g) * 2 - 1 for n in "ab"}
        for layout in ("nn", "nt", "tn", "tt"):
            a = stored["a"].t() if layout[0] == "t" else stored["a"]
            b = stored["b"].t() if layout[1] == "t" else stored["b"]
            ac, bc = a.contiguous(), b.contiguous()
            ref = a.double() @ b.double()
            impls = {"smemlab (in place)": lambda: mm_fn(a, b),
                     "smemlab (row-major copies, kernel alone)": lambda: mm_fn(ac, bc),
                     "smemlab (copy each call)": lambda: mm_fn(a.contiguous(), b.contiguous()),
                     "torch.matmul": lambda: torch.matmul(a, b)}
            if layout == "tt":
                for v in ("warptile_db16", "async"):
                    impls[f"smemlab variant={v}"] = lambda v=v: mm_fn(a, b, variant=v)
            p = mm.plan(s, s, s, torch.cuda.get_device_properties(0).multi_processor_count, layout=mm.read_layout(
                *(mm.read(x, n, mm.DTYPES, (2,)) for x, n in ((a, "a"), (b, "b"))), None))
            for name, fn in impls.items():
                out = fn()
                err = float((out.double() - ref).norm() / ref.norm())
                assert err < 1e-5 and float(out.abs().max()) > 0, (s, layout, name, err)
            row = {name: bench_us(fn, calls) for name, fn in impls.items()}
            print(f"{s}^3 {layout} (kernel {p.kernel}, splits {p.splits}): " +
                  ", ".join(f"{k} {v:.1f} us" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1024, 4096])
