"""The histogram experiment's cluster designs (smemlab.lab.histogram.cluster_methods, which the library once
carried): plans and cubins (no GPU); wrapping counters on the emulator; exact counts against NumPy (GPU)."""

from __future__ import annotations

import numpy as np
import pytest
from test_ops_histogram import _keys, _reference  # the library tests' keys (some outside the bins) and NumPy's counts

from smemlab.device import no_gpu_reason
from smemlab.lab.histogram import cluster_methods as C
from smemlab.ops.histogram import UNROLL, counter_bytes

HOPPER = {"sms": 132, "smem_optin": 232448, "smem_per_sm": 233472, "cc": (9, 0), "name": "H100"}
AMPERE = {"sms": 108, "smem_optin": 166912, "smem_per_sm": 167936, "cc": (8, 0), "name": "A100"}
GPU_REASON = no_gpu_reason()
gpu = pytest.mark.skipif(GPU_REASON is not None, reason=f"needs a CUDA GPU: {GPU_REASON}")


# ---- no GPU ---------------------------------------------------------------------------------------------
def test_choose_cluster_size():
    optin = HOPPER["smem_optin"]
    assert C.choose_cluster_size(65536, optin) == 2  # 128 KB per block
    assert C.choose_cluster_size(262144, optin) == 8  # 1 MB over 8 blocks of 128 KB
    assert C.choose_cluster_size(262144, optin, target=64 * 1024) == 16  # non-portable size
    assert C.choose_cluster_size(524288, optin) == 16  # 2 MB: 16 x 128 KB
    assert C.choose_cluster_size(524288, optin, nonportable=False) == 0
    assert C.choose_cluster_size(900000, optin) == 16  # over the target, under the hardware limit
    assert C.choose_cluster_size(1 << 20, optin) == 0  # 4 MB: no cluster holds it
    assert C.choose_cluster_size(262144, optin, bits=16) == 4  # 16-bit counters: 128 KB a block
    assert C.choose_cluster_size(1 << 20, optin, bits=16) == 16  # 2 MB over 16 blocks


def test_plan_exchange():
    for bins in (65536, 262144, 262147, 1 << 20, 5):
        p = C.plan(bins, HOPPER, "cluster_exchange")
        per = -(-bins // p.cluster)
        assert p.method == "cluster_exchange" and per <= C.EXCHANGE_MAX_PER_BLOCK
        dynamic, static = C.exchange_smem(bins, p.cluster, p.counter_bits, p.block)
        assert p.smem == dynamic and dynamic + static <= HOPPER["smem_optin"]
        assert p.block >= 32 * p.cluster and p.block * p.min_blocks <= 1024  # 64 registers a thread
    p = C.plan(1 << 20, HOPPER, "cluster_exchange")
    assert (p.cluster, p.counter_bits) == (16, 16)  # 32-bit counters of 2^20 bins fit no cluster
    assert p.agg == 1 and C.plan(262144, HOPPER, "cluster_exchange").agg == 0  # grouping: 16-bit counters only
    assert C.plan(1 << 20, HOPPER, "cluster_exchange", agg=0).agg == 0
    p = C.plan(262144, HOPPER, "cluster_exchange", cluster=16, counter_bits=16, block=512)
    assert (p.smem, p.min_blocks) == (32768 + 2 * 512 * 8 * 2, 2)
    assert C.instance(p) == "hist_cluster_exchange<16, 512, 2, 1, 16, 2>"  # 16-bit counters group by bin (EXCHANGE_AGG)
    with pytest.raises(ValueError, match="do not fit"):
        C.plan((1 << 20) + 1, HOPPER, "cluster_exchange")  # more than 2^16 bins a block
    with pytest.raises(ValueError, match="do not fit"):
        C.plan(262144, HOPPER, "cluster_exchange", cluster=2)
    with pytest.raises(ValueError, match="do not fit"):
        C.plan(262144, HOPPER, "cluster_exchange", cluster=16, block=256)  # a warp a peer: 512 threads
    p = C.plan(262144, HOPPER, "cluster_exchange", cluster=8, block=512, unroll=4)
    assert (p.unroll, p.min_blocks, p.smem) == (4, 1, 131072 + 2 * 512 * 16 * 2)  # 128 registers a thread: one block an SM
    assert C.instance(p) == "hist_cluster_exchange<8, 512, 1, 0, 32, 4>" and C.kernel_defines(p) == {}
    with pytest.raises(ValueError, match="unroll"):
        C.plan(262144, HOPPER, "cluster_exchange", unroll=3)
    assert C.plan(524288, HOPPER, "cluster_exchange").cluster == 16
    assert C.plan(262144, HOPPER, "cluster_exchange").cluster == 8  # 32-bit counters, 8 blocks of 128 KB


def test_plan_counter_bits():
    for m in ("cluster_rep", "cluster_exchange"):
        with pytest.raises(ValueError, match="counter_bits=8"):
            C.plan(4096, HOPPER, m, counter_bits=8)
    p = C.plan(262144, HOPPER, "cluster_rep", counter_bits=16)
    assert p.cluster == 4 and C.instance(p) == "hist_cluster_rep<4, 16, 2>" and C.kernel_defines(p, {"CTR_INIT": 1}) == {"CTR_INIT": 1}
    with pytest.raises(ValueError, match="32-bit"):
        C.plan(65536, HOPPER, "cluster", counter_bits=16)


def test_plan_cluster():
    p = C.plan(65536, HOPPER, "cluster")
    assert (p.method, p.cluster, p.smem, p.agg) == ("cluster", 2, 128 * 1024, 1)
    assert C.instance(p) == "hist_cluster<2, 1, 2>"


def test_plan_cluster_share_fits_counters_and_stages():
    for bins in (65536, 262144, 100003):
        p = C.plan(bins, HOPPER, "cluster_share")
        per = -(-bins // p.cluster)
        assert p.smem == -(-per // 4) * 16 + 2 * p.block * UNROLL * 16 <= HOPPER["smem_optin"]
    assert C.plan(262144, HOPPER, "cluster_share").cluster == 8
    with pytest.raises(ValueError, match="do not fit"):
        C.plan(1 << 22, HOPPER, "cluster_rep")


def test_plan_rejects():
    with pytest.raises(ValueError, match="'cluster_rep' does not take agg=1"):
        C.plan(262144, HOPPER, "cluster_rep", agg=1)
    with pytest.raises(ValueError, match="one of"):
        C.plan(256, HOPPER, "ranges")  # the library's: not a cluster design
    for m in C.METHODS:
        with pytest.raises(ValueError, match="compute capability"):
            C.plan(65536, AMPERE, m)
    assert set(C.OPTIONS) == set(C.METHODS) == set(C.KERNELS)


def test_counter_bytes_are_the_library_s():
    assert C.exchange_smem(256, 1, 16, 512) == (counter_bytes(256, 16) + 2 * 512 * 4 * UNROLL * 2, 2 * 16 * 4 + 8 * 2)


@pytest.mark.parametrize("params,cs,threads", [({"AGG": 0}, 8, 1024), ({"AGG": 1}, 16, 1024), ({"AGG": 0, "UNROLL": 4}, 2, 1024),
                                               ({"CBITS": 16}, 16, 512), ({"CBITS": 16, "AGG": 1}, 4, 1024)])
def test_kernels_compile_for_sm90(params, cs, threads):
    pytest.importorskip("cuda.core")
    from smemlab.compiler import compile_package
    from smemlab.cubin import static_shared_bytes

    a = {"AGG": 0, "CBITS": 32, "UNROLL": UNROLL, **params}
    names = [f"hist_cluster<{cs}, {a['AGG']}, {a['UNROLL']}>", f"hist_cluster_rep<{cs}, {a['CBITS']}, {a['UNROLL']}>",
             f"hist_cluster_share<{cs}, {a['CBITS']}, {a['UNROLL']}>",
             f"hist_cluster_exchange<{cs}, {threads}, 1, {a['AGG']}, {a['CBITS']}, {a['UNROLL']}>"]
    compiled = compile_package(C.SOURCE, "sm_90", {}, names)
    static = static_shared_bytes(compiled.cubin)
    assert set(compiled.lowered) == set(names) and set(compiled.lowered.values()) <= set(static)
    assert static[compiled.lowered[names[3]]] == C.exchange_smem(1, cs, 32, threads)[1]  # the plan counts its tables


# 16-bit counters that wrap (as tests/test_ops_histogram.py's WRAPS for the library's kernels): every digit
# starts at CTR_INIT, one block emulated on the CPU (a cluster of one), its output against NumPy.
WRAPS = [("hist_cluster_rep<1, 16, 2>", {}), ("hist_cluster_exchange<1, 512, 1, 0, 16, 2>", {}),
         ("hist_cluster_exchange<1, 512, 1, 1, 16, 2>", {"AGG": 1})]


@pytest.mark.parametrize("kernel,defines", WRAPS, ids=[f"{k}-{d}" for k, d in WRAPS])
@pytest.mark.parametrize("below_top", [35, 0])
def test_narrow_counters_wrap_exactly(kernel, defines, below_top):
    pytest.importorskip("cuda.core")
    from smemlab.analyze import analyze_source
    from smemlab.analyze.args import fill, parse_arg

    n, bins = 8192 * 2 + 3, 255
    keys = f"keys=int32[{n}]:-2..{bins + 2}" if defines.get("AGG") != 1 else f"keys=int32[{n}]:0..4"  # AGG: few keys, adds of up to 32
    smem = C.exchange_smem(bins, 1, 16, 512)[0] if kernel.startswith("hist_cluster_exchange") else counter_bytes(bins, 16)
    args = [keys, f"n={n}", f"out=uint32[{bins}]:0..0", f"bins={bins}"]
    r = analyze_source(f"package:{C.SOURCE}", kernel, (512, 1, 1), (1, 1, 1), (0, 0, 0), smem, args,
                       {"CTR_INIT": str(65535 - below_top)})
    k = fill("keys", parse_arg(keys)[1])
    assert np.array_equal(r.buffers["out"].astype(np.int64), _reference(k, bins))


# ---- GPU ----------------------------------------------------------------------------------------------
def _count(keys: np.ndarray, bins: int, method: str, extra: dict | None = None, **options) -> np.ndarray:
    """The cluster design's counts of `keys`, launched as the experiment launches it (`extra`: more macros)."""
    import cupy as cp

    from smemlab.ops.histogram import device_facts

    d = cp.asarray(keys)
    dev, stream = d.device.id, cp.cuda.get_current_stream().ptr
    out = cp.zeros(bins, cp.uint32)
    if not device_facts(dev)["cc"] >= (9, 0):
        pytest.skip("thread-block clusters need compute capability 9.0")
    if extra is None:
        C.launch(d.data.ptr, d.size, out.data.ptr, bins, dev, stream, method, **options)
    else:
        for k, grid, block, shmem, cluster, tail in C.launches_for(bins, C.plan(bins, device_facts(dev), method, **options), dev, stream, extra):
            from smemlab import device

            device.launch(k, grid, block, (d.data.ptr, d.size, out.data.ptr) + tail, stream, shmem, cluster)
    return cp.asnumpy(out).astype(np.int64)


CASES = [
    (1000003, 4096, "cluster"), (333333, 3, "cluster"),
    (1000003, 65536, "cluster_rep"), ((1 << 22) + 1, 262144, "cluster_rep"), (333333, 5, "cluster_rep"),
    (1000003, 65536, "cluster_share"), ((1 << 22) + 2, 262144, "cluster_share"), (333333, 5, "cluster_share"), (7, 100, "cluster_share"),
    (1000003, 65536, "cluster_exchange"), ((1 << 22) + 3, 262144, "cluster_exchange"), (333333, 5, "cluster_exchange"),
    (7, 100, "cluster_exchange"), (1, 1, "cluster_exchange"), (2000003, 1 << 20, "cluster_exchange"), (999999, 50001, "cluster_exchange"),
]


@gpu
@pytest.mark.parametrize("n,bins,method", CASES)
@pytest.mark.parametrize("skew", [False, True])
def test_counts_exact(n, bins, method, skew):
    keys = _keys(np.random.default_rng(n + bins), n, bins, skew)
    np.testing.assert_array_equal(_count(keys, bins, method), _reference(keys, bins))


@gpu
@pytest.mark.parametrize("opts", [dict(method="cluster", cluster=cs, agg=a) for cs in (2, 4, 8, 16) for a in (0, 1)]
                         + [dict(method=m, cluster=cs) for m in ("cluster_rep", "cluster_share") for cs in (2, 4, 8, 16)]
                         + [dict(method="cluster_exchange", cluster=cs, counter_bits=b, block=t) for cs in (2, 4, 8, 16)
                            for b in (16, 32) for t in (512, 1024) if t >= 32 * cs]
                         + [dict(method="cluster_exchange", cluster=cs, counter_bits=b, agg=1) for cs in (2, 16) for b in (16, 32)]
                         + [dict(method="cluster_rep", cluster=cs, counter_bits=16) for cs in (2, 16)])
def test_every_shape_exact(opts):
    bins = 65536 + 5
    keys = _keys(np.random.default_rng(7), 2_000_003, bins, skew=True)
    np.testing.assert_array_equal(_count(keys, bins, **opts), _reference(keys, bins))


@gpu
@pytest.mark.parametrize("method,opts", [("cluster_rep", {"cluster": 4}), ("cluster_exchange", {"cluster": 8}),
                                         ("cluster_exchange", {"cluster": 16, "block": 512})])
def test_narrow_counters_past_their_top(method, opts):
    """As the library's test of the same name: two bins take 99% of 2^25 keys, so that each block's 16-bit
    counters of them pass 65535 many times; then again with every digit started 35 below its top."""
    bins = 131073
    rng = np.random.default_rng(11)
    keys = np.where(rng.random(1 << 25) < 0.99, rng.integers(65530, 65532, 1 << 25), rng.integers(-2, bins + 2, 1 << 25)).astype(np.int32)
    np.testing.assert_array_equal(_count(keys, bins, method, counter_bits=16, **opts), _reference(keys, bins))
    np.testing.assert_array_equal(_count(keys, bins, method, {"CTR_INIT": (1 << 16) - 36}, counter_bits=16, **opts),
                                  _reference(keys, bins))
