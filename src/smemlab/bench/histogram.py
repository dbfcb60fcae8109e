"""Benchmark of smemlab.ops.histogram against torch.bincount and cupy.bincount.

    PYTHONPATH=src python3 -m smemlab.bench.histogram [--log2n 26 28] [--bins ...] [--dists ...]

For every point (number of keys, bins, key distribution) it draws seeded keys on the GPU, checks
every method's counts exactly against cupy.bincount (outputs poisoned first), then times each with
CUDA events (warm-up, median of `reps`). Figures: keys per second and GB/s of keys read (4 bytes a
key), the ratio of our best-planned ("auto") method to the best baseline, and, where the bins do not
fit one block, the cluster kernel's ratio to the best single-block design (multipass, global).

Distributions: "uniform" over [0, bins); "hot90": 90% of the keys in 8 random bins, the rest
uniform; "zipf": bin ranks Zipf(s=1.1) over [0, bins), the ranks scattered over the bins by a
random permutation.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


import importlib

H = importlib.import_module("smemlab.ops.histogram")  # the module (the package attribute `histogram` is the function)

DISTS = ("uniform", "hot90", "zipf")
BINS = (256, 4096, 65536, 262144)


def make_keys(n: int, bins: int, dist: str, seed: int):
    import cupy as cp

    rs = cp.random.RandomState(seed)
    keys = cp.empty(n, dtype=cp.int32)
    chunk = 1 << 25
    hot = rs.randint(0, bins, 8).astype(cp.int32)
    if dist == "zipf":
        ranks = cp.arange(1, bins + 1, dtype=cp.float64)
        cdf = cp.cumsum(ranks ** -1.1)
        cdf /= cdf[-1]
        perm = rs.permutation(bins).astype(cp.int32)
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        if dist == "uniform":
            keys[s : s + m] = rs.randint(0, bins, m, dtype=cp.int32)
        elif dist == "hot90":
            u = rs.randint(0, bins, m, dtype=cp.int32)
            h = hot[rs.randint(0, 8, m)]
            keys[s : s + m] = cp.where(rs.random_sample(m) < 0.9, h, u)
        elif dist == "zipf":
            r = cp.searchsorted(cdf, rs.random_sample(m)).clip(0, bins - 1)
            keys[s : s + m] = perm[r]
        else:
            raise ValueError(dist)
    return keys


def candidates(bins: int, facts: dict) -> list[tuple[str, dict]]:
    """(label, histogram() options) to time at `bins`; "auto" first."""
    out: list[tuple[str, dict]] = [("auto", {})]
    optin = facts["smem_optin"]
    if bins * 4 <= optin:
        for c in (32, 8, 4, 1):
            if bins * c * 4 <= optin and not (c == 1 and bins <= 256):
                out.append((f"smem c{c}", dict(method="smem", copies=c, agg=0)))
        out.append(("smem agg1", dict(method="smem", agg=1)))  # warp-aggregated (match_any)
    else:
        for cs in (2, 4, 8, 16):
            try:
                H.plan(bins, facts, "cluster_rep", cluster=cs)
            except ValueError:
                continue
            out.append((f"cluster_rep {cs}", dict(method="cluster_rep", cluster=cs)))
        for cs in (2, 4, 8, 16):
            try:
                H.plan(bins, facts, "cluster_share", cluster=cs)
            except ValueError:
                continue
            out.append((f"cluster_share {cs}", dict(method="cluster_share", cluster=cs)))
        for agg in (1, 0):
            out.append((f"cluster(dsmem atomics) agg{agg}", dict(method="cluster", agg=agg)))
        out.append(("multipass", dict(method="multipass", agg=0)))
    for agg in (1, 0):
        out.append((f"global agg{agg}", dict(method="global", agg=agg)))
    return out


def time_fn(fn, stream, warmup: int, reps: int) -> dict:
    import cupy as cp

    for _ in range(warmup):
        fn()
    stream.synchronize()
    ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(stream)
        fn()
        b.record(stream)
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    return {"median_ms": statistics.median(ts), "min_ms": min(ts), "max_ms": max(ts), "reps": reps}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, nargs="+", default=[26, 28])
    ap.add_argument("--bins", type=int, nargs="+", default=list(BINS))
    ap.add_argument("--dists", nargs="+", default=list(DISTS))
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--json", default=None, help="write every record here")
    args = ap.parse_args(argv)

    import cupy as cp

    try:
        import torch
    except Exception:  # torch is optional
        torch = None
    dev = cp.cuda.Device().id
    facts = H.device_facts(dev)
    print(f"# device {facts['name']} sms={facts['sms']} smem_optin={facts['smem_optin']} cupy {cp.__version__}"
          f" torch {getattr(torch, '__version__', None)}", flush=True)
    stream = cp.cuda.Stream(non_blocking=True)
    records = []
    summary = []
    with stream:
        for lg in args.log2n:
            n = 1 << lg
            for bins in args.bins:
                for dist in args.dists:
                    t0 = time.time()
                    keys = make_keys(n, bins, dist, seed=1000 * lg + bins % 997 + DISTS.index(dist))
                    ref = cp.bincount(keys, minlength=bins).astype(cp.int64)
                    tkeys = torch.as_tensor(keys, device="cuda") if torch is not None else None
                    rows = {}
                    methods = []
                    if torch is not None:
                        tstream = torch.cuda.ExternalStream(stream.ptr)  # torch on the timed stream too

                        def torch_bincount():
                            with torch.cuda.stream(tstream):
                                return torch.bincount(tkeys, minlength=bins)

                        methods.append(("torch.bincount", torch_bincount, True))
                    methods.append(("cupy.bincount", lambda: cp.bincount(keys, minlength=bins), True))
                    for label, opts in candidates(bins, facts):
                        p = H.plan(bins, facts, **({"method": "auto"} | opts))
                        out = cp.empty(bins, dtype=cp.int32)

                        def fn(p=p, out=out):
                            out.fill(0)
                            H.run_plan(keys, out, bins, p)
                            return out

                        methods.append((f"{label} [{p.method} blk{p.block} c{p.copies} cs{p.cluster} agg{p.agg} p{p.passes}]", fn, False))
                    for label, fn, baseline in methods:
                        res = fn()  # once, checked exactly, before any timing
                        stream.synchronize()
                        got = cp.asarray(res).astype(cp.int64) if not hasattr(res, "cpu") else cp.asarray(res.to(torch.int64))
                        ok = bool((got == ref).all())
                        if not ok:
                            bad = int(cp.nonzero(got != ref)[0][0])
                            print(f"FAIL {label} n=2^{lg} bins={bins} {dist}: bin {bad} got {int(got[bad])} want {int(ref[bad])}", flush=True)
                            rows[label] = None
                            continue
                        t = time_fn(fn, stream, 2, args.reps)
                        rows[label] = t
                        rec = {"n": n, "bins": bins, "dist": dist, "method": label, **t,
                               "gkeys_s": n / t["median_ms"] / 1e6, "gb_s": 4 * n / t["median_ms"] / 1e6}
                        records.append(rec)
                    base = [rows[k]["median_ms"] for k in ("torch.bincount", "cupy.bincount") if rows.get(k)]
                    best_base = min(base) if base else float("nan")
                    auto = next(v for k, v in rows.items() if k.startswith("auto"))
                    ours = [v["median_ms"] for k, v in rows.items() if v and not k.endswith("bincount")]
                    single = [v["median_ms"] for k, v in rows.items() if v and (k.startswith("multipass") or k.startswith("global"))]
                    clus = [v["median_ms"] for k, v in rows.items() if v and k.startswith("cluster")]
                    if clus:
                        line_extra = {"best_cluster": min((v["median_ms"], k) for k, v in rows.items() if v and k.startswith("cluster"))[1]}
                    else:
                        line_extra = {}
                    print(f"\n## n=2^{lg} bins={bins} {dist}  ({time.time() - t0:.1f} s)")
                    for k, v in rows.items():
                        if v:
                            print(f"  {k:60s} {v['median_ms']:8.3f} ms  {4 * n / v['median_ms'] / 1e6:8.1f} GB/s  x{best_base / v['median_ms']:6.2f} vs best baseline")
                    line = {"n": f"2^{lg}", "bins": bins, "dist": dist, "best_baseline_GBs": 4 * n / best_base / 1e6,
                            "auto_GBs": 4 * n / auto["median_ms"] / 1e6 if auto else None,
                            "auto_x": best_base / auto["median_ms"] if auto else None,
                            "best_ours_x": best_base / min(ours) if ours else None}
                    if clus and single:
                        line["cluster_vs_single"] = min(single) / min(clus)
                    line.update(line_extra)
                    summary.append(line)
                    keys = tkeys = ref = methods = None  # free the keys before the next point
                    cp.get_default_memory_pool().free_all_blocks()
    print("\n# summary: GB/s of keys (4 B/key); x = speed-up over the best of torch/cupy bincount")
    print(f"{'n':>5} {'bins':>7} {'dist':>8} {'baseline':>9} {'auto':>8} {'auto x':>7} {'best x':>7} {'clus/1blk':>9}")
    for s in summary:
        print(f"{s['n']:>5} {s['bins']:>7} {s['dist']:>8} {s['best_baseline_GBs']:9.1f} {s['auto_GBs'] or 0:8.1f} {s['auto_x'] or 0:7.2f} {s['best_ours_x'] or 0:7.2f} {s.get('cluster_vs_single', float('nan')):9.2f}  {s.get('best_cluster', '')}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": facts, "records": records, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
