"""The ranges histogram once, verified, for Nsight Compute to say where its time goes: whether L2
serves the other ranges' reads of the keys (DRAM bytes read against the keys' size), and how busy the
shared-memory atomics and the issue slots are. On an H200, 262144 bins, 2^26 uniform keys: 269.5 MB read
from DRAM for 268 MB of keys (read once, where its three ranges read them three times), 62.8% issue
active, 46.8% of warp time stalled on the loads (long scoreboard), 57 registers a thread.

    ncu --clock-control none --kernel-name hist_ranges \\
        --metrics dram__bytes_read.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,... \\
        python3 tools/probes/histogram_l2_probe.py [--log 26] [--bins 262144] [--unroll 2]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--log", type=int, default=26)
    ap.add_argument("--bins", type=int, default=262144)
    ap.add_argument("--unroll", type=int, default=2)
    args = ap.parse_args(argv)
    import cupy

    from smemlab.bench.histogram import make_keys
    from smemlab.ops import histogram

    keys = make_keys(1 << args.log, args.bins, "uniform", seed=3)
    want = np.bincount(cupy.asnumpy(keys), minlength=args.bins)
    got = cupy.asnumpy(histogram(keys, args.bins, method="ranges", unroll=args.unroll)).astype(np.int64)
    ok = np.array_equal(got, want)
    print(f"ranges, {args.bins} bins, 2^{args.log} keys: {'exact' if ok else 'WRONG'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
