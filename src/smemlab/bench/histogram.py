"""Benchmark: smemlab.ops.histogram against `torch.bincount` and `cupy.bincount`.

Targets (issue 5): at least 5x the best of torch.bincount and cupy.bincount at every point; and
where the bins do not fit one block's shared memory, the distributed-shared-memory (cluster) kernel
faster than the best single-block design ("multipass": one pass over the keys per bin range that
fits a block; "global": atomics on the output in L2).

Key distributions: "uniform" over [0, bins); "hot90": 90% of the keys in 8 random bins, the rest
uniform (heavily skewed: most atomics of a warp land on a few words). Bandwidth counts the keys
read, 4 bytes each (the counts are noise beside them).
"""

from __future__ import annotations

import importlib

from smemlab.bench import Bench, register

H = importlib.import_module("smemlab.ops.histogram")  # the module (the package attribute `histogram` is the function)

DISTS = ("uniform", "hot90")
BINS = (256, 4096, 65536, 262144)


def make_keys(n: int, bins: int, dist: str, seed: int):
    """n seeded int32 keys in [0, bins) on the GPU, drawn in chunks to bound the temporaries."""
    import cupy as cp

    rs = cp.random.RandomState(seed)
    keys = cp.empty(n, dtype=cp.int32)
    hot = rs.randint(0, bins, 8).astype(cp.int32)
    chunk = 1 << 25
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        uniform = rs.randint(0, bins, m, dtype=cp.int32)
        if dist == "uniform":
            keys[s:s + m] = uniform
        elif dist == "hot90":
            keys[s:s + m] = cp.where(rs.random_sample(m) < 0.9, hot[rs.randint(0, 8, m)], uniform)
        else:
            raise ValueError(f"distribution {dist!r}: one of {', '.join(DISTS)} is accepted")
    return keys


def fits_one_block(bins: int) -> bool:
    import cupy as cp

    return 4 * bins <= H.device_facts(cp.cuda.Device().id)["smem_optin"]


@register("histogram", order=40)
def bench_histogram(b: Bench) -> None:
    import cupy as cp

    from smemlab.ops import histogram

    baselines = ("torch bincount", "cupy bincount")
    for lg in b.sizes([26, 28], quick=[22]):
        n = 1 << lg
        for bins in b.sizes(BINS, quick=(256, 65536)):
            for dist in DISTS:
                keys = make_keys(n, bins, dist, seed=1000 * lg + bins % 997 + DISTS.index(dist))
                ref = cp.bincount(keys, minlength=bins)
                impls = {"smemlab": lambda: histogram(keys, bins)}
                targets = [(baselines, 5.0)]
                if not fits_one_block(bins):
                    singles = ("smemlab multipass", "smemlab global")
                    impls[singles[0]] = lambda: histogram(keys, bins, method="multipass")
                    impls[singles[1]] = lambda: histogram(keys, bins, method="global")
                    targets.append((singles, 1.0))
                impls.update(b.torch_impls(keys, lambda t: t.bincount(minlength=bins), name=baselines[0]))
                impls[baselines[1]] = lambda: cp.bincount(keys, minlength=bins)
                plan = H.plan(bins, H.device_facts(keys.device.id))
                b.case(f"2^{lg} keys {bins} bins {dist}", bytes=keys.nbytes, out_bytes=8 * bins, copy=False,
                       impls=impls, check=lambda out: b.assert_close(out, ref, exact=True), target=targets,
                       note=f"{plan.method}" + (f", cluster {plan.cluster}" if plan.cluster else ""))
                keys = ref = None  # free the keys before the next point
                cp.get_default_memory_pool().free_all_blocks()
