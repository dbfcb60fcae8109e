"""Does the order in which a case's implementations take turns change their single-call latency?
python3 tools/probes/latency_order_probe.py

The benchmark times one call at a time, the implementations of a case taking turns in a fixed
order. In the recorded H200 run, smemlab's histogram on torch tensors (first in each round, right
after CUB's histogram of the round before) measured 1.5-1.7x torch.histc, while the same op on CuPy
arrays measured 0.18x CuPy's, with equal back-to-back figures. This sets three orders side by side
for that case: the fixed turn order, a shuffled order each round (seeded), and each implementation
alone in a block of its own calls. Every output is checked first."""

from __future__ import annotations

import random
import statistics
import time


def one(fn, sync) -> float:
    t0 = time.perf_counter()
    fn()
    sync()
    return (time.perf_counter() - t0) * 1e6


def main() -> None:
    import cupy
    import numpy as np
    import torch

    from smemlab import ops

    stream = cupy.cuda.Stream(non_blocking=True)
    tstream = torch.cuda.ExternalStream(stream.ptr)
    sync = stream.synchronize
    n, bins = 1 << 12, 256
    with stream, torch.cuda.stream(tstream):
        keys = torch.randint(0, bins, (n,), device="cuda", dtype=torch.int32)
        fkeys = keys.float()
        ckeys = cupy.asarray(keys.cpu().numpy())
        want = np.bincount(keys.cpu().numpy(), minlength=bins)
        impls = {
            "smemlab (torch)": lambda: ops.histogram(keys, bins),
            "torch bincount": lambda: torch.bincount(keys, minlength=bins),
            "torch histc": lambda: torch.histc(fkeys, bins=bins, min=0, max=bins),
            "smemlab (cupy)": lambda: ops.histogram(ckeys, bins),
            "cupy bincount": lambda: cupy.bincount(ckeys, minlength=bins),
            "CUB histogram": lambda: cupy.histogram(ckeys, bins=bins, range=(0, bins))[0],
        }
        for name, fn in impls.items():
            out = fn()
            sync()
            got = out.cpu().numpy() if hasattr(out, "cpu") else cupy.asnumpy(out)
            assert np.array_equal(got.astype(np.int64), want), name
        rounds = 300
        fixed = {k: [] for k in impls}
        shuffled = {k: [] for k in impls}
        alone = {k: [] for k in impls}
        rng = random.Random(7)
        for _ in range(20):
            for fn in impls.values():
                fn()
                sync()
        for _ in range(rounds):
            for name, fn in impls.items():
                fixed[name].append(one(fn, sync))
            order = list(impls.items())
            rng.shuffle(order)
            for name, fn in order:
                shuffled[name].append(one(fn, sync))
        for name, fn in impls.items():
            for _ in range(rounds):
                alone[name].append(one(fn, sync))
    print(f"histogram 2^12 keys, {bins} bins, single calls (us, median of {rounds})")
    print(f"{'implementation':18s} {'fixed order':>12s} {'shuffled':>10s} {'alone':>8s}")
    for name in impls:
        print(f"{name:18s} {statistics.median(fixed[name]):12.1f} {statistics.median(shuffled[name]):10.1f} "
              f"{statistics.median(alone[name]):8.1f}")


if __name__ == "__main__":
    main()
