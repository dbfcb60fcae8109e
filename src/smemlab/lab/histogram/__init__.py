"""Histograms in global memory, in one block's shared memory, and in a cluster's distributed
shared memory (Programming Guide "Distributed Shared Memory"; the book's program 001 "分布式共享内存").

clusterHist_kernel is the book's kernel: the cluster size is chosen at run time from the number of
bins (the smallest power of two whose blocks' shared memory holds them; 1 means block-local shared
memory only) and the kernel is launched with clusters. It is compared with global atomics, with a
per-block shared-memory histogram (only where all the bins fit one block), and with the libraries
(cupy.bincount; torch.bincount where torch is installed), for bins from 256 to 2^18 and uniform and
skewed (Zipf) keys, verified against numpy.bincount. The bins are zeroed inside every launch (a
memset on the stream, counted in the time). On a GPU without clusters (before sm_90) the cluster
variants are skipped and say so. Then the four cluster designs the library once carried and its plan
never took (cluster_methods.py, cluster_methods.cu: the keys sent to their bins' owner block by remote
atomics, by every block reading every key from L2 or from its peers' staged copies, or sorted by owner
and read once through distributed shared memory), each in the shape the library planned it. Last, the
library's histogram (smemlab.ops.histogram: 32 copies of the bins a block where they fit, more bins in
ranges of 16-bit counters or partitioned by range), launched as the op launches it.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, Variant
from smemlab.lab.histogram import cluster_methods
from smemlab.ops.histogram import SOURCE as LIBRARY_SOURCE

SOURCE = "lab/histogram/histogram.cu"
LIBRARY = "smemlab.ops.histogram"
THREADS = 512
DEFAULT_BINS = (256, 4096, 65536, 1 << 18)
DISTRIBUTIONS = ("uniform", "skewed")
PORTABLE_CLUSTER = 8
MAX_CLUSTER = 16  # with the non-portable cluster size attribute
MAX_BINS = 1 << 24


def choose_cluster_size(nbins: int, smem_per_block: int, max_cluster: int = MAX_CLUSTER) -> tuple[int, int] | None:
    """(cluster size, bins per block): the smallest power-of-two cluster whose blocks hold `nbins`
    int counters in `smem_per_block` bytes each (the book: 'the cluster size depends on the
    histogram size'); 1 means one block's shared memory is enough. None where even `max_cluster`
    blocks cannot hold them (then only global atomics can count them)."""
    if nbins < 1:
        raise ValueError("nbins must be at least 1")
    c = 1
    while c <= max_cluster:
        per_block = -(-nbins // c)
        if per_block * 4 <= smem_per_block:
            return c, per_block
        c *= 2
    return None


def make_keys(n: int, nbins: int, distribution: str, seed: int = 11) -> np.ndarray:
    """int32 keys in [0, nbins): uniform, or skewed (Zipf with a = 1.3, folded into the bins: about
    a quarter of the keys land in bin 0, so atomics on it collide)."""
    rng = np.random.default_rng(seed)
    if distribution == "uniform":
        return rng.integers(0, nbins, n, dtype=np.int32)
    if distribution == "skewed":
        return ((rng.zipf(1.3, n) - 1) % nbins).astype(np.int32)
    raise ValueError(f"unknown distribution {distribution!r}")


def reference(keys: np.ndarray, nbins: int) -> np.ndarray:
    """numpy.bincount with the book's clamping (keys below 0 in bin 0, at or above nbins in the last)."""
    return np.bincount(np.clip(keys, 0, nbins - 1), minlength=nbins)


def _torch():
    try:
        import torch  # noqa: F401

        return torch if torch.cuda.is_available() else None
    except Exception:
        return None


def _skipped(v: Variant, reason: str, extra: dict) -> Case:
    extra = dict(extra, skipped=reason)
    return Case(v, lambda: None, lambda: Check(False, f"skipped: {reason}"), (), 0, 0, "skipped", extra)


class HistogramExperiment(Experiment):
    name = "histogram"
    title = "Histogram: global atomics vs block shared memory vs cluster distributed shared memory"
    seed = "the CUDA Programming Guide, Distributed Shared Memory (clusterHist_kernel)"
    source = SOURCE
    size_help = "KEYS[,BINS] (int32 keys; without BINS: 256, 4096, 65536 and 262144 bins)"
    default_size = (1 << 26,)
    small_sizes = ((10007, 300), (4099,), (1, 1), (100003, 70001))
    columns = ("bins", "keys", "dist", "cluster", "smem_per_block")
    column_titles = {"dist": "keys drawn", "cluster": "cluster size", "smem_per_block": "shared memory per block (B)"}
    case_columns = ("dist", "bins")
    more_sources = (cluster_methods.SOURCE,)
    library_source = LIBRARY_SOURCE

    def variants(self) -> list[Variant]:
        b = (THREADS, 1, 1)
        return [
            Variant("histGlobal", "every key an atomicAdd on the bins in global memory; bins zeroed in the launch "
                    "(memset, timed)", "histGlobal", b),
            Variant("histSmem", "block-private histogram of all bins in dynamic shared memory, then global atomics; "
                    "only where the bins fit one block (shared atomics: data-dependent, not declared)", "histSmem", b),
            Variant("clusterHist_kernel", "the Programming Guide's kernel: bins spread over a cluster's shared memories, cluster "
                    "size chosen from the bins (1 = block-local), atomics into distributed shared memory "
                    "(data-dependent, not declared)", "clusterHist_kernel", b),
            Variant("clusterHist_kernel_2x", "the same with twice the chosen cluster size (at least 2): more of the "
                    "atomics cross to other blocks' shared memory", "clusterHist_kernel", b),
            Variant("cupy_bincount", "cupy.bincount(keys, minlength=bins)", None),
            Variant("torch_bincount", "torch.bincount(keys, minlength=bins) on the same stream (where torch is "
                    "installed)", None),
            *CLUSTER_VARIANTS,
            Variant(LIBRARY, "the library's histogram: block-private copies of the bins (one per lane where they fit, "
                    "no two lanes on one bank), ranges of 16-bit counters or the keys partitioned by range where "
                    "one block cannot hold them; bins zeroed in the launch (memset, timed)", "hist_smem", b, library=LIBRARY),
        ]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = tuple(int(v) for v in values)
        if len(values) not in (1, 2):
            raise UserError(f"histogram --size takes KEYS or KEYS,BINS; got {len(values)} numbers")
        if not 1 <= values[0] <= (1 << 32):
            raise UserError(f"histogram --size: KEYS must be in 1..{1 << 32}; got {values[0]}")
        if len(values) == 2 and not 1 <= values[1] <= MAX_BINS:
            raise UserError(f"histogram --size: BINS must be in 1..{MAX_BINS}; got {values[1]}")
        return values

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        size = self.parse_size(size)
        n = size[0]
        bins_list = (size[1],) if len(size) == 2 else DEFAULT_BINS
        facts = rt.facts
        major = int(facts.compute_capability.split(".")[0])
        clusters_ok = facts.cluster_launch and major >= 9
        no_cluster = (f"this GPU ({facts.name}, compute capability {facts.compute_capability}) has no "
                      "thread-block clusters (they need 9.0 or later)")
        torch = _torch()
        for dist in DISTRIBUTIONS:
            host_keys = make_keys(n, max(bins_list), dist)
            for nbins in bins_list:
                keys_np = host_keys % np.int32(nbins) if nbins != max(bins_list) else host_keys
                keys = cupy.asarray(keys_np)
                ref = reference(keys_np, nbins)
                bins = cupy.empty(nbins, dtype=cupy.int32)
                moved = 4 * n + 4 * nbins
                base_extra = {"bins": nbins, "keys": n, "dist": dist}

                def verdict(result, ref=ref) -> Check:
                    got = cupy.asnumpy(result).astype(np.int64)
                    if got.shape == ref.shape and np.array_equal(got, ref):
                        return Check(True, f"{ref.size} bins of {n} keys equal numpy.bincount")
                    if got.shape != ref.shape:
                        return Check(False, f"{got.size} bins, numpy.bincount has {ref.size}")
                    bad = int(np.argmax(got != ref))
                    return Check(False, f"bin {bad}: got {got[bad]}, numpy.bincount {ref[bad]}")

                for v in variants:
                    extra = dict(base_extra)
                    if v.name == "cupy_bincount":
                        box: dict[str, Any] = {}

                        def launch(box=box, keys=keys, nbins=nbins):
                            box["b"] = cupy.bincount(keys, minlength=nbins)

                        yield Case(v, launch, lambda box=box, verdict=verdict: verdict(box["b"]), (), moved, 0,
                                   "cupy.bincount", extra)
                        continue
                    if v.name == "torch_bincount":
                        if torch is None:
                            yield _skipped(v, "torch with CUDA is not installed", extra)
                            continue
                        tkeys = torch.from_dlpack(keys)
                        tstream = torch.cuda.ExternalStream(rt.cupy_stream.ptr)
                        box = {}

                        def launch(box=box, tkeys=tkeys, tstream=tstream, nbins=nbins):
                            with torch.cuda.stream(tstream):
                                box["b"] = torch.bincount(tkeys, minlength=nbins)

                        yield Case(v, launch, lambda box=box, verdict=verdict: verdict(cupy.from_dlpack(box["b"])),
                                   (), moved, 0, "torch.bincount", extra)
                        continue

                    if v.library:
                        yield self._library_case(rt, v, keys, bins, verdict, moved, extra)
                        continue
                    if v.name in CLUSTER_METHOD_OF:
                        yield (_cluster_method_case(rt, v, keys, bins, verdict, moved, extra) if clusters_ok
                               else _skipped(v, no_cluster, extra))
                        continue
                    kernel = rt.kernel(SOURCE, v.kernel)
                    if v.name == "histGlobal":
                        grid = _persistent_grid(rt, kernel, 0, n, 1)
                        extra.update(cluster="-", smem_per_block=0)

                        def launch(kernel=kernel, grid=grid, bins=bins, keys=keys, nbins=nbins):
                            bins.fill(0)
                            rt.launch(kernel, grid, THREADS, bins, np.int32(nbins), keys, np.uint64(n))

                        yield Case(v, launch, lambda bins=bins, verdict=verdict: verdict(bins), (bins,), moved, 0,
                                   launch_shape(grid, THREADS) + " + memset", extra)
                        continue
                    if v.name == "histSmem":
                        need = 4 * nbins
                        limit = facts.shared_per_block_optin - kernel.static_smem
                        if need > limit:
                            yield _skipped(v, f"{nbins} bins need {need} B of shared memory, one block can have {limit} B "
                                              "(that is what the cluster is for)", extra)
                            continue
                        grid = _persistent_grid(rt, kernel, need, n, 1)
                        extra.update(cluster="-", smem_per_block=need)

                        def launch(kernel=kernel, grid=grid, bins=bins, keys=keys, nbins=nbins, need=need):
                            bins.fill(0)
                            rt.launch(kernel, grid, THREADS, bins, np.int32(nbins), keys, np.uint64(n), shmem=need)

                        yield Case(v, launch, lambda bins=bins, verdict=verdict: verdict(bins), (bins,), moved, 0,
                                   launch_shape(grid, THREADS, need) + " + memset", extra)
                        continue
                    # the cluster kernel
                    if not clusters_ok:
                        yield _skipped(v, no_cluster, extra)
                        continue
                    limit = facts.shared_per_block_optin - kernel.static_smem
                    chosen = choose_cluster_size(nbins, limit)
                    if chosen is None:
                        yield _skipped(v, f"{nbins} bins do not fit {MAX_CLUSTER} blocks of {limit} B", extra)
                        continue
                    c, per_block = chosen
                    if v.name.endswith("_2x"):
                        c = max(2, 2 * c)
                        if c > MAX_CLUSTER:
                            yield _skipped(v, f"twice the chosen cluster size is more than {MAX_CLUSTER}", extra)
                            continue
                        per_block = -(-nbins // c)
                    if c > PORTABLE_CLUSTER:
                        kernel.allow_nonportable_cluster()
                    shmem = 4 * per_block
                    grid = _persistent_grid(rt, kernel, shmem, n, c)
                    extra.update(cluster=c, smem_per_block=shmem)

                    def launch(kernel=kernel, grid=grid, bins=bins, keys=keys, nbins=nbins, c=c, per_block=per_block,
                               shmem=shmem):
                        bins.fill(0)
                        rt.launch(kernel, grid, THREADS, bins, np.int32(nbins), np.int32(per_block), keys,
                                  np.uint64(n), shmem=shmem, cluster=(c, 1, 1))

                    yield Case(v, launch, lambda bins=bins, verdict=verdict: verdict(bins), (bins,), moved, 0,
                               launch_shape(grid, THREADS, shmem, (c, 1, 1)) + " + memset", extra)

    @staticmethod
    def _library_case(rt, v: Variant, keys, bins, verdict, moved: int, extra: dict) -> Case:
        """The library's histogram of `keys` into `bins`, launched by the op's own launch function."""
        from smemlab.ops.histogram import MAX_KEYS, cupy_scratch, device_facts, plan
        from smemlab.ops.histogram import launch as library_launch

        n, nbins = keys.size, bins.size
        if n > MAX_KEYS:
            return _skipped(v, f"{n} keys: the library counts at most {MAX_KEYS} keys (int32 counts)", extra)
        p = plan(nbins, device_facts(rt.device))
        extra = dict(extra, cluster="-", smem_per_block=p.smem)

        def launch():
            bins.fill(0)
            library_launch(keys.data.ptr, n, bins.data.ptr, nbins, rt.device, rt.stream_handle, alloc=cupy_scratch)

        shape = f"method {p.method}, block {p.block}"
        return Case(v, launch, lambda: verdict(bins), (bins,), moved, 0, shape + " + memset", extra)

    def notes(self, records: Sequence[Any]) -> list[str]:
        out = []
        ok = [r for r in records if getattr(r, "ok", False) and r.median_ms]
        groups: dict[tuple, list] = {}
        for r in ok:
            groups.setdefault((r.extra.get("dist"), r.extra.get("bins")), []).append(r)
        for (dist, nbins), rs in sorted(groups.items(), key=lambda kv: (str(kv[0][0]), kv[0][1] or 0)):
            best = min(rs, key=lambda r: r.median_ms)
            keys = best.extra.get("keys") or 0
            rate = keys / (best.median_ms * 1e-3) / 1e9
            line = f"{dist} keys, {nbins} bins: fastest {best.variant}"
            if best.extra.get("cluster") not in (None, "-"):
                line += f" (cluster {best.extra['cluster']})"
            line += f", {rate:.1f} Gkeys/s"
            others = [f"{r.variant} {keys / (r.median_ms * 1e-3) / 1e9:.1f}" for r in rs if r is not best]
            if others:
                line += "; " + ", ".join(others)
            out.append(line)
        skipped = {r.extra.get("skipped") for r in records if r.extra.get("skipped")}
        out += [f"skipped: {s}" for s in sorted(skipped)]
        return out


# The library's former cluster designs (cluster_methods), a variant each, named after its kernel
CLUSTER_VARIANTS = (
    Variant("hist_cluster_exchange", "the keys of a tile ranked by owner block, staged as 16-bit local bins in shared "
            "memory, each owner reading its segment of every peer's stage through distributed shared memory (each "
            "key crosses once); the library's plan for cluster_exchange", "hist_cluster_exchange", (1024, 1, 1)),
    Variant("hist_cluster_rep", "every block of a cluster reads all the cluster's keys (L2 serves the repeats) and "
            "counts the ones whose bins it owns in its own shared memory", "hist_cluster_rep", (1024, 1, 1)),
    Variant("hist_cluster_share", "each block stages a share of the keys in shared memory, every block reads every "
            "stage through distributed shared memory (16-byte loads) and counts the keys it owns", "hist_cluster_share",
            (1024, 1, 1)),
    Variant("hist_cluster", "every key a remote atomic add (red.shared::cluster) into the owner block's shared memory, "
            "warp-aggregated", "hist_cluster", (512, 1, 1)),
)
CLUSTER_METHOD_OF = {f"hist_{m}": m for m in cluster_methods.METHODS}


def _cluster_method_case(rt, v: Variant, keys, bins, verdict, moved: int, extra: dict) -> Case:
    """A cluster design of `keys` into `bins`, planned and launched as the library once did (cluster_methods)."""
    from smemlab.ops.histogram import MAX_KEYS, device_facts

    method, n, nbins = CLUSTER_METHOD_OF[v.name], keys.size, bins.size
    if n > MAX_KEYS:
        return _skipped(v, f"{n} keys: the cluster designs count at most {MAX_KEYS} keys (int32 counts)", extra)
    try:
        p = cluster_methods.plan(nbins, device_facts(rt.device), method)
    except ValueError as exc:
        return _skipped(v, str(exc), extra)
    extra = dict(extra, cluster=p.cluster, smem_per_block=p.smem)

    def launch():
        bins.fill(0)
        cluster_methods.launch(keys.data.ptr, n, bins.data.ptr, nbins, rt.device, rt.stream_handle, method)

    shape = f"block {p.block}, cluster {p.cluster}, {p.counter_bits}-bit counters"
    return Case(v, launch, lambda: verdict(bins), (bins,), moved, 0, shape + " + memset", extra)


def _persistent_grid(rt, kernel, shmem: int, n: int, cluster: int) -> int:
    """Blocks for the grid-stride loop: what fits on the GPU at once (occupancy API), no more than
    the keys need, a multiple of the cluster size."""
    try:
        per_sm = kernel.blocks_per_sm(THREADS, shmem)
    except Exception:
        per_sm = 1
    grid = max(1, per_sm) * rt.facts.sms
    grid = min(grid, -(-n // THREADS))
    return max(cluster, (grid // cluster) * cluster)
