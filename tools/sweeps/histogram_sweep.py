"""smemlab.ops.histogram past one block's shared memory, every design side by side: each variant
(kernel x cluster size x counter width x block size) at 262144 and 1048576 bins, uniform and hot90
keys (bench/histogram.py's), 2^26 and 2^28 keys, verified exactly against NumPy's bincount before it
is timed (CUDA events around back-to-back calls, median), with the baselines (torch.bincount,
torch.histc where its float32 counts are exact, CuPy's bincount, CUB's histogram) verified and timed
the same way, in one process on one stream. Prints GB/s of keys and the ratio to the best baseline;
a variant's fixed cost (zeroing and merging its counters) is timed on 2^16 keys.

    python3 tools/sweeps/histogram_sweep.py [--bins 262144 1048576] [--logs 26 28] [--json FILE] [--budget S]

What chose `method="auto"` in ops/histogram and the cluster_exchange defaults (their figures are quoted
there). The cluster designs (cluster_rep, cluster_exchange, ...) left the library for the histogram
experiment (smemlab.lab.histogram.cluster_methods): their rows plan and launch through it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

# ranges' variants measured wherever they take more than one range: 16- and 8-bit counters, loads in flight
RANGES = [
    ("ranges c16", "ranges", {"counter_bits": 16}),
    ("ranges c16 u4", "ranges", {"counter_bits": 16, "unroll": 4}),
    ("ranges c16 u1", "ranges", {"counter_bits": 16, "unroll": 1}),
    ("ranges c8", "ranges", {"counter_bits": 8}),
    ("ranges c8 u4", "ranges", {"counter_bits": 8, "unroll": 4}),
]

# partition's variants: loads in flight in hist_partition (unroll: a tile is 512 * 4 * unroll keys; the
# plan's 4), the segments a warp of hist_part_count reads at once (PU), the places from warp ballots
# (PRANK=0) or a shared atomic a key (PRANK=1; the plan's from 8 ranges), ranges of 2^15 bins (r15:
# 64 KB of counters, so that 2 or 3 count blocks could share an SM; PCMINB the blocks an SM its registers
# are sized for), hist_partition's registers sized for 3 blocks an SM (PMINB=3)
PARTITION = [
    ("partition", "partition", {}),
    ("partition u2", "partition", {"unroll": 2}),
    ("partition pu2", "partition", {}, {"PU": 2}),
    ("partition ballots", "partition", {}, {"PRANK": 0}),
    ("partition atomics", "partition", {}, {"PRANK": 1}),
    ("partition pminb3", "partition", {}, {"PMINB": 3}),
    ("partition r15", "partition", {"range_bits": 15}),
    ("partition r15 minb2", "partition", {"range_bits": 15}, {"PCMINB": 2}),
    ("partition r15 b512 minb3", "partition", {"range_bits": 15, "block": 512}, {"PCMINB": 3}),
]

# (label, method, options[, macros]): the designs for bins that one block cannot hold; macros (a
# kernel's compile-time choices that the op does not offer: template arguments by their parameters' names,
# PU, PRANK, PMINB, PCMINB, or the header's macros MERGE64, XSYNC) launch the op's plan directly
VARIANTS = {
    65536: [
        ("global", "global", {}),
        ("multipass c32", "multipass", {"counter_bits": 32}),
        ("multipass c16", "multipass", {"counter_bits": 16}),
        ("cluster_rep cs2", "cluster_rep", {"cluster": 2}),
        ("exchange cs2 c32 b1024", "cluster_exchange", {"cluster": 2, "counter_bits": 32, "block": 1024}),
        ("exchange cs4 c32 b1024", "cluster_exchange", {"cluster": 4, "counter_bits": 32, "block": 1024}),
        ("exchange cs2 c16 b512", "cluster_exchange", {"cluster": 2, "counter_bits": 16, "block": 512}),
    ],
    262144: [
        ("global", "global", {}),
        ("multipass c32", "multipass", {"counter_bits": 32}),
        ("multipass c16", "multipass", {"counter_bits": 16}),
        ("multipass c16 u4", "multipass", {"counter_bits": 16, "unroll": 4}),
        *RANGES,
        *PARTITION,
        ("ranges c16 merge32", "ranges", {"counter_bits": 16}, {"MERGE64": 0}),
        ("ranges c32", "ranges", {"counter_bits": 32}),
        ("ranges c32 u4", "ranges", {"counter_bits": 32, "unroll": 4}),
        ("ranges c16 b512", "ranges", {"counter_bits": 16, "block": 512}),
        ("cluster_rep cs8", "cluster_rep", {"cluster": 8}),
        ("cluster_rep cs4 c16", "cluster_rep", {"cluster": 4, "counter_bits": 16}),
        ("exchange cs8 c32 b1024", "cluster_exchange", {"cluster": 8, "counter_bits": 32, "block": 1024}),
        ("exchange cs8 c32 b1024 agg", "cluster_exchange", {"cluster": 8, "counter_bits": 32, "block": 1024, "agg": 1}),
        ("exchange cs8 c32 b1024 xsync0", "cluster_exchange", {"cluster": 8, "counter_bits": 32, "block": 1024}, {"XSYNC": 0}),
        ("exchange cs8 c32 b512 u4", "cluster_exchange", {"cluster": 8, "counter_bits": 32, "block": 512, "unroll": 4}),
        ("exchange cs4 c16 b1024", "cluster_exchange", {"cluster": 4, "counter_bits": 16, "block": 1024}),
        ("exchange cs8 c16 b512", "cluster_exchange", {"cluster": 8, "counter_bits": 16, "block": 512}),
        ("exchange cs16 c32 b512", "cluster_exchange", {"cluster": 16, "counter_bits": 32, "block": 512}),
        ("exchange cs16 c16 b512", "cluster_exchange", {"cluster": 16, "counter_bits": 16, "block": 512}),
    ],
    1048576: [
        ("global", "global", {}),
        ("multipass c32", "multipass", {"counter_bits": 32}),
        ("multipass c16", "multipass", {"counter_bits": 16}),
        *RANGES,
        *PARTITION,
        ("cluster_rep cs16 c16", "cluster_rep", {"cluster": 16, "counter_bits": 16}),
        ("exchange cs16 c16 b1024", "cluster_exchange", {"cluster": 16, "counter_bits": 16, "block": 1024}),
        ("exchange cs16 c16 b1024 agg", "cluster_exchange", {"cluster": 16, "counter_bits": 16, "block": 1024, "agg": 1}),
        ("exchange cs16 c16 b1024 xsync0", "cluster_exchange", {"cluster": 16, "counter_bits": 16, "block": 1024}, {"XSYNC": 0}),
        ("exchange cs16 c16 b512 u4", "cluster_exchange", {"cluster": 16, "counter_bits": 16, "block": 512, "unroll": 4}),
    ],
}
SINGLE_BLOCK = ("global", "multipass", "ranges", "partition")  # the designs that count in one block's shared memory (or none)


def caller(keys, bins: int, method: str, options: dict, macros: dict | None):
    """The call that a variant is: the op itself, or (with macros) the op's plan launched directly; a cluster
    design, the lab's plan and launch (smemlab.lab.histogram.cluster_methods)."""
    import cupy

    from smemlab.lab.histogram import cluster_methods
    from smemlab.ops import histogram
    from smemlab.ops.histogram import cupy_scratch, device_facts, enqueue, launches_for, plan

    dev = keys.device.id
    stream = cupy.cuda.get_current_stream().ptr
    if method in cluster_methods.METHODS:
        launches = cluster_methods.launches_for(bins, cluster_methods.plan(bins, device_facts(dev), method, **options), dev,
                                                stream, macros)
    elif not macros:
        return lambda: histogram(keys, bins, method=method, **options)
    else:
        launches = launches_for(bins, plan(bins, device_facts(dev), method, **options), dev, stream, macros)

    def run():
        out = cupy.zeros(bins, dtype=cupy.int32)
        enqueue(launches, keys.data.ptr, keys.size, out.data.ptr, stream, cupy_scratch)
        return out

    return run


def describe(bins: int, method: str, options: dict, dev: int, stream: int) -> str:
    """The plan and the grid it launches: what a line of the table was."""
    from smemlab.lab.histogram import cluster_methods
    from smemlab.ops.histogram import device_facts, launches_for, plan

    if method in cluster_methods.METHODS:
        p = cluster_methods.plan(bins, device_facts(dev), method, **options)
        grid = cluster_methods.launches_for(bins, p, dev, stream)[0][1]
        what = f"block {p.block}, {p.smem // 1024} KB, {grid // p.cluster} clusters of {p.cluster}"
        return what + (f", min {p.min_blocks}/SM" if p.method == "cluster_exchange" else "")
    p = plan(bins, device_facts(dev), method, **options)
    launches = launches_for(bins, p, dev, stream)
    grid = launches[0][1]
    return f"block {p.block}, {p.smem // 1024} KB, grid {grid}" + (f", {len(launches)} passes" if len(launches) > 1 else "")


def diagnose(got: np.ndarray, want: np.ndarray, owners: int) -> str:
    """Where a wrong histogram is wrong: the count of bad bins, the totals, the errors by slice."""
    bad = np.flatnonzero(got != want)
    slices = np.add.reduceat(np.abs(got - want), np.linspace(0, got.size, owners + 1).astype(int)[:-1])
    return (f"{bad.size} bins wrong (first {bad[:4].tolist()}), total {int(got.sum())} vs {int(want.sum())}, "
            f"abs error by 1/{owners} of the bins {slices.tolist()}")


def markdown(rows: list[dict]) -> str:
    """The sweep's tables (one per number of bins: GB/s of keys and the ratio to the best baseline,
    a column per key count and distribution), from its JSON rows."""
    cols = sorted({(r["keys"], r["dist"]) for r in rows if r["keys"] > 1 << 16}, key=lambda c: (c[0], c[1] != "uniform"))
    out = []
    for bins in sorted({r["bins"] for r in rows}, key=lambda b: (b != 65536, b)):
        mine = [r for r in rows if r["bins"] == bins and r["keys"] > 1 << 16]
        impls = list(dict.fromkeys(r["impl"] for r in mine))
        out += [f"## {bins} bins", "", "| implementation | " + " | ".join(f"2^{k.bit_length() - 1} {d}" for k, d in cols) + " |",
                "|---|" + "---|" * len(cols)]
        for impl in impls:
            cells = []
            for k, d in cols:
                r = next((r for r in mine if r["impl"] == impl and (r["keys"], r["dist"]) == (k, d)), None)
                cells.append(f"{r['gbps']:,.0f} ({r['x_best_baseline']:.2f}x)" if r and r["ok"] and "x_best_baseline" in r else "-")
            out.append(f"| {impl} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bins", type=int, nargs="+", default=[262144, 1048576, 65536])
    ap.add_argument("--logs", type=int, nargs="+", default=[26, 28])
    ap.add_argument("--dists", nargs="+", default=["uniform", "hot90"])
    ap.add_argument("--only", nargs="*", help="variant labels to run (default: all)")
    ap.add_argument("--no-baselines", action="store_true")
    ap.add_argument("--json", help="write every figure here")
    ap.add_argument("--budget", type=float, default=1e9, help="seconds: start no new data set after this")
    ap.add_argument("--markdown", metavar="JSON", help="print the tables of a sweep's JSON (no GPU) and stop")
    args = ap.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())["rows"]))
        return 0

    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.bench.histogram import baselines, make_keys

    t0 = time.time()
    rows: list[dict] = []
    with Bench(reps=15, warmup=3, batch=3) as b:
        facts = device.facts(b.device)
        copy = b.memcpy(1 << 30)
        print(f"{facts.name}: {facts.sms} SMs, {facts.shared_per_block_optin} B opt-in shared memory; "
              f"cudaMemcpy 1 GiB: {copy.gbps:,.0f} GB/s (read + write)", flush=True)
        for bins in args.bins:
            variants = [v for v in VARIANTS[bins] if not args.only or v[0] in args.only]
            small = make_keys(1 << 16, bins, "uniform", seed=5)
            small_want = np.bincount(cupy.asnumpy(small), minlength=bins)
            for label, method, options, *macros in variants:  # the fixed cost: zero, merge, launch
                print(f"{bins} bins {label}: {describe(bins, method, options, b.device, b.stream.ptr)}; ", end="", flush=True)
                row = {"bins": bins, "impl": label, "keys": 1 << 16, "dist": "uniform", "ok": False}
                try:
                    fn = caller(small, bins, method, options, macros[0] if macros else None)
                    got = cupy.asnumpy(fn()).astype(np.int64)
                    if np.array_equal(got, small_want):
                        row["ok"] = True
                        row["ms"] = b.throughput(fn)[0]
                        print(f"2^16 keys {row['ms'] * 1e3:.0f} us", flush=True)
                    else:
                        row["error"] = diagnose(got, small_want, 16)
                        print(f"WRONG: {row['error']}", flush=True)
                except Exception as exc:  # a variant that cannot launch is reported, the rest still run
                    row["error"] = f"{type(exc).__name__}: {exc}"
                    print(f"FAILED: {row['error']}", flush=True)
                rows.append(row)
            for lg in args.logs:
                for dist in args.dists:
                    if time.time() - t0 > args.budget:
                        print(f"budget of {args.budget:.0f} s spent: stopping before 2^{lg} {dist} {bins}", flush=True)
                        break
                    n = 1 << lg
                    keys = make_keys(n, bins, dist, seed=lg * 7 + bins % 101 + len(dist))
                    t1 = time.time()
                    want = np.bincount(cupy.asnumpy(keys), minlength=bins)
                    print(f"-- {bins} bins, 2^{lg} {dist} keys (NumPy reference in {time.time() - t1:.1f} s)", flush=True)
                    # ours as (method, options, macros) until called; the baselines as their calls
                    impls = {label: (method, options, macros[0] if macros else None) for label, method, options, *macros in variants}
                    if not args.no_baselines:
                        impls.update({name: impl.fn for name, impl in baselines(b, keys, bins, int(want.max())).items()})
                    case = []
                    for label, fn in impls.items():
                        row = {"bins": bins, "impl": label, "keys": n, "dist": dist, "ok": False, "baseline": callable(fn)}
                        try:
                            fn = fn if callable(fn) else caller(keys, bins, *fn)
                            b._poison(8 * bins)
                            out = b.to_cupy(fn())
                            got = cupy.asnumpy(out).astype(np.int64)
                            if got.shape != want.shape or not np.array_equal(got, want):
                                row["error"] = diagnose(got, want, 16) if got.shape == want.shape else f"shape {got.shape}"
                            else:
                                row["ok"] = True
                                row["ms"], row["min_ms"], row["max_ms"], _ = b.throughput(fn)
                                row["gbps"] = keys.nbytes / row["ms"] / 1e6
                        except Exception as exc:
                            row["error"] = f"{type(exc).__name__}: {exc}"
                        case.append(row)
                    base = [r for r in case if r["baseline"] and r["ok"]]
                    best = min(base, key=lambda r: r["ms"]) if base else None
                    singles = [r for r in case if r["ok"] and r["impl"].split()[0] in SINGLE_BLOCK]
                    single = min(singles, key=lambda r: r["ms"]) if singles else None
                    for r in case:
                        if r["ok"] and best:
                            r["x_best_baseline"] = best["ms"] / r["ms"]
                        if r["ok"] and single:
                            r["x_best_single_block"] = single["ms"] / r["ms"]
                        figures = (f"{r['gbps']:8,.0f} GB/s  {r['ms']:.3f} ms  {r.get('x_best_baseline', 0):5.2f}x best baseline"
                                   f"  {r.get('x_best_single_block', 0):5.2f}x best single-block" if r["ok"] else f"WRONG: {r.get('error')}")
                        print(f"   {r['impl']:<26} {figures}", flush=True)
                    if best:
                        print(f"   best baseline: {best['impl']} {best['gbps']:,.0f} GB/s", flush=True)
                    rows.extend(case)
                    keys = out = None
                    cupy.get_default_memory_pool().free_all_blocks()
    if args.json:
        Path(args.json).write_text(json.dumps({"device": facts.name, "memcpy_gbps": copy.gbps, "rows": rows}, indent=1))
    print(f"done in {time.time() - t0:.0f} s", flush=True)
    return 0 if all(r["ok"] or r.get("baseline") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
