"""Benchmark: smemlab.ops.histogram against `torch.bincount`, `torch.histc` (where its float32
counts are exact), `cupy.bincount` and CUB's histogram (`cupy.histogram` with CuPy's CUB
accelerator on).

Two parts: a sweep of 256 bins over 2^12 to 2^28 uniform keys (per-call latency, from host-bound
to memory-bound), then throughput at 2^26 and 2^28 keys for 256 to 2^20 bins, uniform and
skewed ("hot90": 90% of the keys in 8 random bins, the rest uniform: most atomics of a warp land
on a few words). Bandwidth counts the keys read, 4 bytes each (the counts are noise beside them).

Goals: smemlab against the baselines, 5x up to 65536 bins, 4x at 262144, 3x at 2^20. Where one block
cannot hold the bins even at 16 bits a counter (262144 and 2^20), each method the library ships for them
is timed beside auto's choice ("smemlab ranges", "smemlab partition", "smemlab multipass", "smemlab
global"). The distributed-shared-memory designs the library no longer ships (cluster_exchange and the
others, which auto never took) are timed by the histogram experiment's variants (`smemlab run histogram`).
"""

from __future__ import annotations

from smemlab.bench import Bench, Impl, register
from smemlab.bench.goals import goal, per_call
from smemlab.ops.histogram import counter_bytes, device_facts, plan

DISTS = ("uniform", "hot90")
BINS = (256, 4096, 65536, 262144, 1 << 20)
TORCH = ("torch bincount", "torch histc")
CUPY = ("cupy bincount", "CUB histogram")
EXACT_FLOAT = 1 << 24  # torch.histc counts in float32: exact up to here


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


def cub_histogram(keys, bins: int):
    """CUB's DeviceHistogram through `cupy.histogram`, with the CUB accelerator on for the call."""
    import cupy as cp
    from cupy._core import _accelerator

    before = _accelerator.get_routine_accelerators()
    _accelerator.set_routine_accelerators(["cub"])
    try:
        return cp.histogram(keys, bins=bins, range=(0, bins))[0]
    finally:
        _accelerator.set_routine_accelerators(before)


def baselines(b: Bench, keys, bins: int, max_count: int) -> dict[str, Impl]:
    """The implementations a user has today, torch's on a torch view of `keys`."""
    import cupy as cp

    impls: dict[str, Impl] = {}
    if b.torch is not None:
        tk = b.as_torch(keys)
        impls[TORCH[0]] = Impl(lambda: tk.bincount(minlength=bins), "torch")
        if max_count < EXACT_FLOAT:
            tf = tk.float()  # histc takes floats: a user with float data, so the conversion is not timed
            impls[TORCH[1]] = Impl(lambda: b.torch.histc(tf, bins=bins, min=0, max=bins), "torch")
    impls[CUPY[0]] = Impl(lambda: cp.bincount(keys, minlength=bins), "cupy")
    impls[CUPY[1]] = Impl(lambda: cub_histogram(keys, bins), "cupy")
    return impls


def fits_one_block(bins: int, device: int) -> bool:
    """Whether one block's shared memory holds the bins (at 16 bits a counter, as multipass counts):
    past that, the methods for more bins are timed each."""
    return counter_bytes(bins, 16) <= device_facts(device)["smem_optin"]


@register("histogram", order=40)
def bench_histogram(b: Bench) -> None:
    import cupy as cp

    from smemlab.ops import histogram

    bins = 256
    sweep = b.sizes([12, 16, 20, 24, 28], quick=[12, 16, 20])
    table = b.sizes([26, 28], quick=[22])
    for lg in sweep:
        keys = make_keys(1 << lg, bins, "uniform", seed=lg)
        ref = cp.bincount(keys, minlength=bins)
        impls = b.both(lambda k: histogram(k, bins), None, None, keys)
        theirs = baselines(b, keys, bins, int(ref.max()))
        impls.update(theirs)
        targets = per_call(keys.size, [n for n in TORCH if n in impls], CUPY)
        if lg in table:  # this point of the sweep is also the throughput table's (not run twice)
            targets.append(goal("smemlab (cupy)", "throughput", list(theirs), 5.0))
        b.case(f"2^{lg} keys {bins} bins uniform", bytes=keys.nbytes, out_bytes=8 * bins, memcpy=False,
               family=f"{bins} bins uniform", size=keys.size, impls=impls,
               check=lambda out: b.assert_close(out, ref, exact=True), targets=targets)
        keys = ref = None
    for lg in table:
        n = 1 << lg
        for bins in b.sizes(BINS, quick=(256, 262144)):
            for dist in DISTS:
                if bins == 256 and dist == "uniform" and lg in sweep:
                    continue
                keys = make_keys(n, bins, dist, seed=1000 * lg + bins % 997 + DISTS.index(dist))
                ref = cp.bincount(keys, minlength=bins)
                impls = {"smemlab (cupy)": Impl(lambda: histogram(keys, bins), "cupy")}
                targets = []
                if not fits_one_block(bins, b.device):
                    singles = ("smemlab ranges", "smemlab partition", "smemlab multipass", "smemlab global")
                    for name in singles:
                        impls[name] = Impl(lambda m=name.split()[1]: histogram(keys, bins, method=m), "cupy")
                theirs = baselines(b, keys, bins, int(ref.max()))
                impls.update(theirs)
                want = 5.0 if bins <= 65536 else 4.0 if bins <= 262144 else 3.0
                targets.append(goal("smemlab (cupy)", "throughput", list(theirs), want))
                chosen = plan(bins, device_facts(b.device))
                b.case(f"2^{lg} keys {bins} bins {dist}", bytes=keys.nbytes, out_bytes=8 * bins, memcpy=False,
                       impls=impls, check=lambda out: b.assert_close(out, ref, exact=True), targets=targets,
                       note=chosen.method)
                keys = ref = None  # free the keys before the next point
                cp.get_default_memory_pool().free_all_blocks()
