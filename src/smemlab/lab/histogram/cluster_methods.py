"""The library histogram's cluster designs, which its plan (`smemlab.ops.histogram`'s `auto_method`) never
took, kept as variants of the histogram experiment: their plans and launches (kernels: cluster_methods.cu).

- "cluster_exchange": each block ranks its tile of keys by owner, writes them as 16-bit local bin numbers
  into a stage in its shared memory, sorted by owner, and every owner reads its segment of each peer's
  stage through distributed shared memory: each key crosses the cluster once, at 2 bytes. With 16-bit
  counters an owner's warp groups its entries by bin where they repeat (skewed keys).
- "cluster_rep": every block of the cluster reads the cluster's keys and counts the ones it owns with
  local shared atomics; the blocks are co-scheduled and kept in step, so DRAM is read once and L2 serves
  the other reads.
- "cluster_share": each block stages 1/CS of a chunk of keys in its shared memory and reads its peers'
  stages through distributed shared memory (16-byte ld.shared::cluster), double-buffered.
- "cluster": each key is an atomic add into the owner's shared memory through distributed shared memory
  (red.shared::cluster), warp-aggregated by default. Simple, but remote atomics run at a fraction of a key
  per clock per SM.
Block r of a cluster owns bins [r*per, (r+1)*per) (hist_cluster: bin b in block b % CS). Why the library
dropped them: ranges and partition beat them all (the figures in docs/notes/2026-11-histogram-planning.md).
Planning is pure Python (no GPU); `launch` enqueues a plan's kernel as the op once did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from smemlab.device import PORTABLE_CLUSTER
from smemlab.ops.histogram.planning import UNROLL, counter_bytes

SOURCE = "lab/histogram/cluster_methods.cu"
METHODS = ("cluster_exchange", "cluster_rep", "cluster_share", "cluster")
MAX_CLUSTER = 16  # with the non-portable cluster size attribute (Hopper)
KERNELS = {"cluster": "hist_cluster", "cluster_rep": "hist_cluster_rep", "cluster_share": "hist_cluster_share",
           "cluster_exchange": "hist_cluster_exchange"}


@dataclass(frozen=True)
class ClusterPlan:
    method: str  # one of METHODS
    block: int
    cluster: int  # blocks a cluster
    smem: int  # dynamic shared memory a block, bytes
    agg: int = 0  # warp-aggregated adds (hist_cluster: remote atomics; cluster_exchange: an owner's entries by bin)
    counter_bits: int = 32  # 16: two counters a 32-bit word (not hist_cluster: its adds are remote)
    min_blocks: int = 1  # cluster_exchange: blocks per SM its registers are sized for (__launch_bounds__)
    unroll: int = UNROLL  # int4 loads in flight a thread (cluster_exchange: a tile is block * 4 * unroll keys)


def choose_cluster_size(bins: int, smem_optin: int, nonportable: bool = True, target: int = 128 * 1024,
                        bits: int = 32) -> int:
    """Blocks per cluster for `bins` counters of `bits` bits spread over the cluster's shared
    memories: the smallest power of two whose share per block is at most `target` bytes (and fits the
    block's opt-in limit); 0 where no cluster holds them (more than 8 blocks need the non-portable
    size, at most 16)."""
    limit = MAX_CLUSTER if nonportable else PORTABLE_CLUSTER
    for cap in (min(target, smem_optin), smem_optin):  # the target, then (too tight) the hardware limit
        cs = 2
        while cs <= limit:
            if counter_bytes(-(-bins // cs), bits) <= cap:
                return cs
            cs *= 2
    return 0


# hist_cluster_exchange: local bin numbers travel as 16-bit entries, so a block owns at most 2^16 bins
EXCHANGE_MAX_PER_BLOCK = 1 << 16
# hist_cluster_exchange's owners group a warp's entries by bin before adding (AGG: only where its first
# entries repeat a bin), with 16-bit counters, whose adds to one word serialise behind the wrap check:
# it gains on skewed keys and costs uniform ones a little; with 32-bit counters it lost everywhere
# (measured: docs/notes/2026-11-histogram-planning.md).
EXCHANGE_AGG = {16: 1, 32: 0}


def exchange_smem(bins: int, cluster: int, bits: int, block: int, unroll: int = UNROLL) -> tuple[int, int]:
    """(dynamic, static) shared memory of hist_cluster_exchange: the counters, two stages of
    block * 4 * unroll 16-bit entries; two [warp][owner] int tables and two [peer] int2 tables."""
    dynamic = counter_bytes(-(-bins // cluster), bits) + 2 * block * 4 * unroll * 2
    return dynamic, 2 * (block // 32) * cluster * 4 + 2 * cluster * 8


def _exchange_plan(bins: int, facts: dict, cluster: int | None, bits: int | None, block: int | None,
                   unroll: int | None, agg: int | None = None) -> ClusterPlan:
    optin = facts["smem_optin"]
    u = unroll or UNROLL  # checked by plan()
    # 32-bit counters in the smallest cluster that holds them, then 16-bit ones; 1024 threads (each ahead
    # of the alternatives measured: docs/notes/2026-11-histogram-planning.md)
    for b in ((bits,) if bits else (32, 16)):
        for cs in ((cluster,) if cluster else (2, 4, 8, 16)):
            for threads in ((block,) if block else (1024, 512)):
                if (cs & (cs - 1) or not 2 <= cs <= MAX_CLUSTER or b not in (16, 32) or threads % 32
                        or not 32 * cs <= threads <= 1024 or -(-bins // cs) > EXCHANGE_MAX_PER_BLOCK):
                    continue
                dynamic, static = exchange_smem(bins, cs, b, threads, u)
                if dynamic + static <= optin:
                    per_sm = facts.get("smem_per_sm", optin + 1024) // (dynamic + static + 1024)
                    regs = 64 if u <= 2 else 128  # a thread's registers that hold its keys and ranks without spills
                    minb = max(1, min(65536 // (regs * threads), per_sm))
                    return ClusterPlan("cluster_exchange", threads, cluster=cs, smem=dynamic, counter_bits=b, min_blocks=minb,
                                       unroll=u, agg=EXCHANGE_AGG[b] if agg is None else agg)
    raise ValueError(f"method 'cluster_exchange': {bins} bins do not fit a cluster of at most {MAX_CLUSTER} blocks "
                     f"of at most {EXCHANGE_MAX_PER_BLOCK} bins each (cluster={cluster}, counter_bits={bits}, block={block})")


# The options each method takes (plan's keyword arguments); any other given (not None) is an error.
OPTIONS = {
    "cluster_exchange": ("cluster", "agg", "block", "counter_bits", "unroll"),
    "cluster_rep": ("cluster", "block", "counter_bits"),
    "cluster_share": ("cluster", "block", "counter_bits"),
    "cluster": ("cluster", "agg", "block", "counter_bits"),
}


def plan(bins: int, facts: dict, method: str, *, cluster: int | None = None, agg: int | None = None,
         block: int | None = None, counter_bits: int | None = None, unroll: int | None = None) -> ClusterPlan:
    """How cluster design `method` counts `bins` bins on a device with `facts` (sms, smem_optin, cc)."""
    if method not in METHODS:
        raise ValueError(f"method {method!r}: one of {', '.join(METHODS)} is accepted")
    given = dict(cluster=cluster, agg=agg, block=block, counter_bits=counter_bits, unroll=unroll)
    foreign = {k: v for k, v in given.items() if v is not None and k not in OPTIONS[method]}
    if foreign:
        raise ValueError(f"method {method!r} does not take {', '.join(f'{k}={v!r}' for k, v in foreign.items())}; "
                         f"it takes {', '.join(OPTIONS[method])}")
    if (unroll or UNROLL) not in (1, 2, 4):
        raise ValueError(f"unroll={unroll}: 1, 2 or 4 is accepted")
    if counter_bits not in (None, 16, 32):
        raise ValueError(f"counter_bits={counter_bits}: 16 or 32 is accepted (method {method!r})")
    if tuple(facts["cc"]) < (9, 0):
        raise ValueError(f"method {method!r}: thread-block clusters need compute capability 9.0 or newer, this GPU is {facts['cc'][0]}.{facts['cc'][1]}")
    optin = facts["smem_optin"]
    if method == "cluster_exchange":
        return _exchange_plan(bins, facts, cluster, counter_bits, block, unroll, agg)
    if method in ("cluster_rep", "cluster_share"):
        bits = counter_bits or 32
        for b in ((block,) if block else (1024, 512)):
            staging = 2 * b * UNROLL * 16 if method == "cluster_share" else 0
            cs = cluster or choose_cluster_size(bins, optin - staging, target=min(128 * 1024, optin - staging), bits=bits)
            if cs and not cs & (cs - 1) and 2 <= cs <= MAX_CLUSTER:
                smem = counter_bytes(-(-bins // cs), bits) + staging  # the counters, then the stages
                if smem <= optin:
                    if not block and method == "cluster_rep" and smem <= optin // 2:
                        b = 512
                    return ClusterPlan(method, b, cluster=cs, smem=smem, agg=0, counter_bits=bits)
        raise ValueError(f"method {method!r}: {bins} bins do not fit a cluster of at most {MAX_CLUSTER} blocks (cluster={cluster}, block={block})")
    if counter_bits == 16:
        raise ValueError("method 'cluster': 32-bit counters only (its adds are remote)")
    cs = cluster or choose_cluster_size(bins, optin)
    if not cs or cs & (cs - 1) or not 2 <= cs <= MAX_CLUSTER:
        raise ValueError(f"method 'cluster': {bins} bins do not fit a cluster of at most {MAX_CLUSTER} blocks (cluster={cluster})")
    smem = -(-bins // cs) * 4
    if smem > optin:
        raise ValueError(f"method 'cluster': {bins} bins over {cs} blocks need {smem} bytes per block, more than {optin}")
    b = block or (1024 if smem > optin // 2 else 512)
    return ClusterPlan("cluster", b, cluster=cs, smem=smem, agg=1 if agg is None else agg)


def instance(p: ClusterPlan) -> str:
    """The kernel template instance (NVRTC name expression) plan `p` launches: the cluster size, then
    hist_cluster_exchange's block and blocks an SM, then the header's parameters the kernel takes (AGG,
    CBITS, UNROLL: hist_cluster's adds are remote, so it takes no CBITS; the others' owners add locally)."""
    k = KERNELS[p.method]
    if p.method == "cluster_exchange":
        return f"{k}<{p.cluster}, {p.block}, {p.min_blocks}, {p.agg}, {p.counter_bits}, {p.unroll}>"
    if p.method == "cluster":
        return f"{k}<{p.cluster}, {p.agg}, {p.unroll}>"
    return f"{k}<{p.cluster}, {p.counter_bits}, {p.unroll}>"


# The instances analyze runs (lab/launches.py) and the hardware truth records (clusters of 1, 2 and 4 blocks
# of 512 threads), which test_compile compiles; the variants compile the instance their plan names.
INSTANCES = tuple(f"hist_cluster<{cs}, 1, {UNROLL}>" for cs in (1, 2, 4)) + tuple(
    f"{k}<{cs}, 32, {UNROLL}>" for k in ("hist_cluster_rep", "hist_cluster_share") for cs in (1, 2, 4)) + tuple(
    f"hist_cluster_exchange<{cs}, 512, 1, {agg}, {bits}, {UNROLL}>" for cs in (1, 2, 4) for agg, bits in ((0, 32), (1, 16))) + (
    f"hist_cluster_exchange<1, 512, 1, 0, 16, {UNROLL}>",)


def kernel_defines(p: ClusterPlan, extra: dict | None = None) -> dict:
    """The macros plan `p`'s kernel is compiled with: `extra` (the tests' CTR_INIT, the sweep's XSYNC and
    MERGE64); the plan's own are template arguments (instance). Pure, no GPU."""
    return dict(extra or {})


def launches_for(bins: int, p: ClusterPlan, dev: int, stream: int, extra: dict | None = None) -> list[tuple]:
    """Plan `p`'s launch on device `dev`, as the op's launches_for gives them: [(kernel, grid, block, dynamic
    smem, cluster, the arguments after (keys, n, out))]. It adds the counts of the keys into `out`."""
    from smemlab import device
    from smemlab.ops.histogram import device_facts

    k = device.kernel(SOURCE, instance(p), kernel_defines(p, extra), dev)
    facts = device_facts(dev)
    clusters = k.max_active_clusters(p.block, p.smem, p.cluster, stream)
    if clusters <= 0:  # unknown: stay well inside one wave (GPCs rarely fill with clusters)
        per_sm = max(1, min(2048 // p.block, facts["smem_per_sm"] // (p.smem + 1024)))
        clusters = max(1, facts["sms"] * per_sm // p.cluster * 3 // 4)
    return [(k, clusters * p.cluster, p.block, p.smem, p.cluster, (bins,))]


_LAUNCHES: dict[tuple, list] = {}  # by (device, bins, method, options)


def launch(keys_ptr: int, n: int, out_ptr: int, bins: int, dev: int, stream: int, method: str, **options: Any) -> None:
    """Enqueue the counting of the n int32 keys at `keys_ptr` into the `bins` int32 counters at `out_ptr`
    (zeroed by the caller, in stream order) by cluster design `method`, planned once per (device, bins,
    method, options)."""
    from smemlab import device
    from smemlab.ops.histogram import device_facts

    key = (dev, bins, method, tuple(sorted(options.items())))
    launches = _LAUNCHES.get(key)
    if launches is None:
        launches = _LAUNCHES[key] = launches_for(bins, plan(bins, device_facts(dev), method, **options), dev, stream)
    for k, grid, block, shmem, cluster, tail in launches:
        device.launch(k, grid, block, (keys_ptr, n, out_ptr) + tail, stream, shmem, cluster)
