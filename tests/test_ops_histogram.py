"""smemlab.ops.histogram: argument checks, plans, cubins (no GPU); exact counts against NumPy (GPU)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import smemlab.ops.histogram  # noqa: F401  (loads the module: the package attribute `histogram` is the function)
from smemlab.device import no_gpu_reason

H = sys.modules["smemlab.ops.histogram"]  # the module itself

HOPPER = {"sms": 132, "smem_optin": 232448, "smem_per_sm": 233472, "cc": (9, 0), "name": "H100"}
AMPERE = {"sms": 108, "smem_optin": 166912, "smem_per_sm": 167936, "cc": (8, 0), "name": "A100"}
GPU_REASON = no_gpu_reason()
gpu = pytest.mark.skipif(GPU_REASON is not None, reason=f"needs a CUDA GPU: {GPU_REASON}")


# ---- no GPU ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bins", [0, -1, 1 << 31])
def test_bins_out_of_range(bins):
    with pytest.raises(ValueError, match="bins"):
        H.histogram(np.zeros(4, np.int32), bins)


@pytest.mark.parametrize("bins", [2.0, "8", True, None])
def test_bins_wrong_type(bins):
    with pytest.raises(TypeError, match="bins"):
        H.histogram(np.zeros(4, np.int32), bins)


def test_host_array_rejected():
    with pytest.raises(TypeError, match="GPU array.*NumPy array"):
        H.histogram(np.arange(10, dtype=np.int32), 16)
    with pytest.raises(TypeError, match="host"):
        H.histogram([1, 2, 3], 16)


def test_unknown_type_rejected():
    with pytest.raises(TypeError, match="got str"):
        H.histogram("keys", 16)


def test_choose_copies():
    assert H.choose_copies(256, 32 * 1024) == 32
    assert H.choose_copies(4096, 64 * 1024) == 4
    assert H.choose_copies(4096, 128 * 1024) == 8
    assert H.choose_copies(50000, 232448) == 1
    assert H.choose_copies(1, 1024) == 32


def test_counter_bytes_round_to_16():
    assert H.counter_bytes(256, 32) == 1024 and H.counter_bytes(256, 16) == 512
    assert H.counter_bytes(5, 32) == 32 and H.counter_bytes(5, 16) == 16
    assert H.counter_bytes(116224, 16) == HOPPER["smem_optin"]  # the most 16-bit counters one block holds


def test_plan_unroll():
    with pytest.raises(ValueError, match="unroll"):
        H.plan(4096, HOPPER, "smem", unroll=4)
    with pytest.raises(ValueError, match="unroll"):
        H.plan(262144, HOPPER, "ranges", unroll=3)
    assert H.plan(262144, HOPPER, "ranges", unroll=4).unroll == 4


def test_plan_8_bit_counters():
    p = H.plan(262144, HOPPER, "ranges", counter_bits=8)
    assert (p.passes, p.bins_per_pass, p.smem) == (2, 131072, 131072 + H.SPARE)
    assert H.plan(1 << 20, HOPPER, "ranges", counter_bits=8).passes == 5
    assert H.counter_bytes(5, 8) == 16 and H.counter_bytes(17, 8) == 32
    for m in ("partition", "smem"):
        with pytest.raises(ValueError, match="counter_bits=8"):
            H.plan(4096, HOPPER, m, counter_bits=8)
    with pytest.raises(ValueError, match="8, 16 or 32"):
        H.plan(262144, HOPPER, "ranges", counter_bits=4)


def test_plan_partition():
    p = H.plan(1 << 20, HOPPER, "partition")
    assert (p.method, p.passes, p.bins_per_pass, p.counter_bits, p.block) == ("partition", 16, 65536, 16, 1024)
    assert p.smem == 128 * 1024 + H.SPARE and p.segments == H.PARTITION_SEGMENTS and p.unroll == H.PARTITION_UNROLL
    assert p.atomic_ranks  # 16 ranges: a shared atomic a key; 4 ranges: ballots
    assert not H.plan(262144, HOPPER, "partition").atomic_ranks
    assert H.plan(H.PARTITION_ATOMIC_RANKS * 65536, HOPPER, "partition").atomic_ranks
    assert not H.plan((H.PARTITION_ATOMIC_RANKS - 1) * 65536, HOPPER, "partition").atomic_ranks
    assert H.plan(H.PARTITION_MAX_BINS, HOPPER, "partition").passes == 32
    assert H.plan(5, HOPPER, "partition").passes == 1
    assert H.plan(1 << 20, HOPPER, "partition", unroll=1).unroll == 1
    with pytest.raises(ValueError, match="at most 2097152"):
        H.plan(H.PARTITION_MAX_BINS + 1, HOPPER, "partition")
    with pytest.raises(ValueError, match="16-bit counters only"):
        H.plan(1 << 20, HOPPER, "partition", counter_bits=32)
    with pytest.raises(ValueError, match="counter_bits=8"):
        H.plan(1 << 20, HOPPER, "partition", counter_bits=8)
    with pytest.raises(ValueError, match="does not take copies=2; it takes block"):
        H.plan(1 << 20, HOPPER, "partition", copies=2)
    with pytest.raises(ValueError, match="shared memory"):
        H.plan(1 << 20, {**HOPPER, "smem_optin": 99 * 1024}, "partition")
    r15 = H.plan(1 << 20, HOPPER, "partition", range_bits=15)
    assert (r15.passes, r15.bins_per_pass, r15.smem) == (32, 32768, 64 * 1024 + H.SPARE)
    assert H.plan(1 << 20, HOPPER, "partition", block=512).block == 512
    with pytest.raises(ValueError, match="64 ranges of 2\\^15; at most 32"):
        H.plan(1 << 21, HOPPER, "partition", range_bits=15)
    for bad in (7, 17, 15.0, True):
        with pytest.raises(ValueError, match=f"range_bits={bad!r}"):
            H.plan(1 << 16, HOPPER, "partition", range_bits=bad)
    with pytest.raises(ValueError, match="block=256"):
        H.plan(1 << 20, HOPPER, "partition", block=256)


def test_plan_rejects_options_its_method_does_not_take():
    """No option is silently ignored: each method names the ones it takes; auto's choice is said."""
    with pytest.raises(ValueError, match="method 'partition' does not take copies=2, agg=1"):
        H.plan(1 << 20, HOPPER, "partition", copies=2, agg=1)
    with pytest.raises(ValueError, match="'smem' \\(what method='auto' takes for these bins\\) does not take unroll=4"):
        H.plan(4096, HOPPER, unroll=4)
    with pytest.raises(ValueError, match="'global' does not take range_bits=15"):
        H.plan(4096, HOPPER, "global", range_bits=15)
    for method, takes in H.OPTIONS.items():  # every option a method lists is one plan() has
        assert set(takes) <= {"copies", "agg", "block", "counter_bits", "unroll", "range_bits"}, method
    assert set(H.OPTIONS) == set(H.METHODS) - {"auto"}
    assert H.plan(1 << 20, HOPPER, unroll=2).unroll == 2  # auto's partition takes unroll


def test_enqueue_checks_the_scratch():
    """partition's launches take scratch from alloc: none given, or a pointer off 16 bytes, is a clear
    error before any launch (the launches here are never made)."""
    launches = [(None, 264, 512, 0, None, (1 << 20, H.Scratch(16, 4)))]
    with pytest.raises(ValueError, match="pass alloc"):
        H.enqueue(launches, 0, 1000, 0, 0, None)
    with pytest.raises(ValueError, match="0x1008 that is not 16-byte aligned"):
        H.enqueue(launches, 0, 1000, 0, 0, lambda nbytes: (None, 0x1008))


def test_partition_macros_that_shape_the_scratch_are_refused():
    """UNROLL or PRANGE through launches_for's macros would size the tiles apart from the scratch."""
    p = H.plan(1 << 20, HOPPER, "partition")
    for macro in ("UNROLL", "PRANGE", "PTHREADS"):
        with pytest.raises(ValueError, match=macro):
            H.launches_for(1 << 20, p, 0, 0, {macro: 2})


def test_partition_scratch_follows_the_kernels_layout():
    """Tiles of 512 * 4 * unroll keys after the unaligned head; the scratch: the blocks' counts a range,
    the tiles' range starts (ranges + 1 a tile), 2 bytes a key of the tiles (part_layout)."""
    per = 512 * 4 * 2
    assert H.partition_tiles(0, per, 2) == 1 and H.partition_tiles(0, per + 1, 2) == 1  # the tail's key is not a tile's
    assert H.partition_tiles(0, per + 4, 2) == 2 and H.partition_tiles(4, per + 3, 2) == 1  # a head of 3 keys
    assert H.partition_tiles(0, 3, 2) == 0
    tiles, ranges, grid = 3, 16, 132
    n = tiles * per
    assert H.partition_scratch_bytes(0, n, ranges, grid, 2) == 4 * grid * ranges + 4 * 52 + tiles * per * 2


def test_plan_ranges_is_multipass_at_once():
    """ranges splits the bins as multipass does; its one launch runs every range together."""
    for bins in (65536, 262144, 100003, 1 << 20):
        m, r = H.plan(bins, HOPPER, "multipass"), H.plan(bins, HOPPER, "ranges")
        assert r.method == "ranges" and (r.passes, r.bins_per_pass, r.smem, r.counter_bits) == (
            m.passes, m.bins_per_pass, m.smem, m.counter_bits)
    assert H.plan(1 << 20, HOPPER, "ranges").passes == 10


def test_plan_16_bit_counters_halve_the_passes():
    p32, p16 = H.plan(262144, HOPPER, "multipass", counter_bits=32), H.plan(262144, HOPPER, "multipass", counter_bits=16)
    assert (p32.passes, p16.passes, p16.counter_bits) == (5, 3, 16)
    assert H.plan(262144, HOPPER, "multipass") == p16  # 16-bit counters where they save passes
    assert H.plan(4096, HOPPER, "multipass").counter_bits == 32  # one pass either way
    assert H.plan(65536, HOPPER, "multipass").passes == 1  # 16-bit: 128 KB, one pass
    assert p16.smem <= HOPPER["smem_optin"] and p16.passes * p16.bins_per_pass >= 262144
    with pytest.raises(ValueError, match="one copy"):
        H.plan(262144, HOPPER, "multipass", counter_bits=16, copies=2)


def test_plan_auto():
    assert H.plan(256, HOPPER).method == "smem" and H.plan(256, HOPPER).copies == 32
    p = H.plan(4096, HOPPER)
    assert (p.method, p.copies, p.smem) == ("smem", 4, 4096 * 4 * 4)
    p = H.plan(65536, HOPPER)  # one block with 16-bit counters
    assert (p.method, p.passes, p.counter_bits, p.smem, p.block) == ("multipass", 1, 16, 128 * 1024 + H.SPARE, 1024)
    p = H.plan(262144, HOPPER)
    assert (p.method, p.passes, p.counter_bits, p.bins_per_pass) == ("ranges", 3, 16, 87382)
    p = H.plan(1 << 20, HOPPER)  # 10 ranges of ranges: partitioned into 16 ranges instead
    assert (p.method, p.passes, p.counter_bits, p.unroll) == ("partition", 16, 16, H.PARTITION_UNROLL)
    per16 = (HOPPER["smem_optin"] - H.SPARE) // 16 * 8  # 16-bit counters a block
    assert H.plan(H.AUTO_MAX_RANGES * per16, HOPPER).method == "ranges"
    assert H.plan(H.AUTO_MAX_RANGES * per16 + 1, HOPPER).method == "partition"
    assert H.plan(H.PARTITION_MAX_BINS, HOPPER).method == "partition" and H.plan(H.PARTITION_MAX_BINS + 1, HOPPER).method == "global"
    assert H.plan(262144, AMPERE).method == "ranges"  # 4 ranges (no clusters needed)
    small = {**AMPERE, "smem_optin": 99 * 1024}  # (sm_86) no room for partition's 2^16 counters: ranges, then global
    per16s = (small["smem_optin"] - H.SPARE) // 16 * 8
    assert H.plan(H.RANGES_BEFORE_GLOBAL * per16s, small).method == "ranges"
    assert H.plan(H.RANGES_BEFORE_GLOBAL * per16s + 1, small).method == "global"
    assert H.plan(65536, AMPERE).method == "multipass"
    assert H.plan(1, HOPPER).method == "smem"


@pytest.mark.parametrize("method", ["cluster_exchange", "cluster_rep", "cluster_share", "cluster"])
def test_cluster_designs_moved_to_the_lab(method):
    """The cluster designs auto never took are the histogram experiment's variants: asking the op for one, or
    for the option only they took, is a ValueError that says where they went, before any GPU work."""
    with pytest.raises(ValueError, match=f"method '{method}': the library no longer ships it.*smemlab run histogram"):
        H.plan(65536, HOPPER, method)
    with pytest.raises(ValueError, match=f"method '{method}'.*moved to the histogram experiment"):
        H.histogram(_FakeKeys(), 65536, method=method)
    with pytest.raises(ValueError, match="cluster=8: no method of the library takes it.*smemlab run histogram"):
        H.histogram(_FakeKeys(), 65536, cluster=8)
    assert method not in H.METHODS and method in H.MOVED_TO_LAB


class _FakeKeys:
    """Stands for a GPU array of int32 keys where the call fails before reading them."""


def test_plan_multipass_covers_all_bins():
    for bins in (65536, 262144, 100003):
        p = H.plan(bins, HOPPER, "multipass")
        assert p.passes * p.bins_per_pass >= bins > (p.passes - 1) * p.bins_per_pass
        assert p.smem <= HOPPER["smem_optin"]


def test_plan_rejects():
    with pytest.raises(ValueError, match="method"):
        H.plan(256, HOPPER, "fastest")
    with pytest.raises(ValueError, match="shared memory"):
        H.plan(65536, HOPPER, "smem")
    with pytest.raises(ValueError, match="copies"):
        H.plan(256, HOPPER, "smem", copies=3)


@pytest.mark.parametrize(
    "params",
    [dict(COPIES=32, AGG=0), dict(COPIES=4, AGG=1), dict(COPIES=1, AGG=0), dict(AGG=1), dict(AGG=0, UNROLL=4),
     dict(CBITS=16), dict(CBITS=16, AGG=1), dict(CBITS=8)],
)
def test_kernels_compile_for_sm90(params):
    pytest.importorskip("cuda.core")
    from smemlab.compiler import compile_package
    from smemlab.cubin import static_shared_bytes

    params = {"COPIES": 1, "AGG": 0, "CBITS": 32, "UNROLL": H.UNROLL, **params}
    names = [H.instance(k, params) for k in ("hist_global", "hist_smem", "hist_ranges")] + list(H.KERNELS.values())
    compiled = compile_package(H.SOURCE, "sm_90", {}, names)
    static = static_shared_bytes(compiled.cubin)
    assert set(static) == set(compiled.lowered.values())  # every kernel of the module is an instance named
    smem, ranges = (static[compiled.lowered[H.instance(k, params)]] for k in ("hist_smem", "hist_ranges"))
    assert smem == ranges == 0  # dynamic shared memory only: the plan's


# 16- and 8-bit counters that wrap: every digit starts at CTR_INIT, so a few keys a bin take it past its
# top (CTR_INIT at the top: every word all ones, so that an add's carry runs through every digit above
# it). One block emulated on the CPU (smemlab analyze: a cluster of one), its output against NumPy.
WRAPS = [("hist_smem", {"COPIES": 1, "AGG": 0}, ["lo=0", "nlocal=255"]), ("hist_smem", {"COPIES": 1, "AGG": 1}, ["lo=0", "nlocal=255"]),
         ("hist_ranges", {"COPIES": 1, "AGG": 0}, ["bins=255", "per=255"]),
         ("hist_ranges", {"COPIES": 1, "AGG": 0, "CBITS": 8}, ["bins=255", "per=255"]),
         ("hist_smem", {"COPIES": 1, "AGG": 1, "CBITS": 8}, ["lo=0", "nlocal=255"])]


@pytest.mark.parametrize("kernel,defines,tail", WRAPS, ids=[f"{k}-{d}" for k, d, _ in WRAPS])
@pytest.mark.parametrize("below_top", [35, 0])
def test_narrow_counters_wrap_exactly(kernel, defines, tail, below_top):
    pytest.importorskip("cuda.core")
    from smemlab.analyze import analyze_source
    from smemlab.analyze.args import fill, parse_arg

    bits = defines.get("CBITS", 16)
    n, bins = 8192 * 2 + 3, 255
    keys = f"keys=int32[{n}]:-2..{bins + 2}" if defines.get("AGG") != 1 else f"keys=int32[{n}]:0..4"  # AGG: few keys, adds of up to 32
    smem = H.counter_bytes(bins, bits)
    if defines.get("AGG") != 1:
        smem += H.SPARE  # the lanes without a key of the block add there
    args = [keys, f"n={n}", f"out=uint32[{bins}]:0..0"] + tail
    kernel = H.instance(kernel, {**defines, "CBITS": bits, "UNROLL": H.UNROLL})
    r = analyze_source(f"package:{H.SOURCE}", kernel, (512, 1, 1), (1, 1, 1), (0, 0, 0), smem, args,
                       {"CTR_INIT": str((1 << bits) - 1 - below_top)})
    k = fill("keys", parse_arg(keys)[1])
    assert np.array_equal(r.buffers["out"].astype(np.int64), _reference(k, bins))


@pytest.mark.parametrize("bits", [16, 8])
def test_narrow_counters_wrap_for_real(tmp_path, bits):
    """hist_ranges with its counters from 0 (CTR_INIT=0: with 16 bits, the 64-bit merge of two bins a
    word) and 3 bins that take nearly every key, so that their digits wrap many times, carries included."""
    pytest.importorskip("cuda.core")
    from smemlab.analyze import analyze_source

    rng = np.random.default_rng(5)
    n, bins = 400_003, 255
    keys = np.where(rng.random(n) < 0.98, rng.integers(0, 3, n), rng.integers(-2, bins + 2, n)).astype(np.int32)
    path = tmp_path / "keys.npy"
    np.save(path, keys)
    r = analyze_source(f"package:{H.SOURCE}", f"hist_ranges<1, 0, {bits}, 2>", (512, 1, 1), (1, 1, 1), (0, 0, 0),
                       H.counter_bytes(bins, bits) + H.SPARE,
                       [f"keys={path}", f"n={n}", f"out=uint32[{bins}]:0..0", f"bins={bins}", f"per={bins + 1}"], {})
    assert np.array_equal(r.buffers["out"].astype(np.int64), _reference(keys, bins))


def test_ranges_block_counts_its_range_only():
    """hist_ranges with two ranges: block 0 (emulated) counts bins [0, per) of every key of its slice (the
    whole input: one slice) and adds nothing to the other range's bins; wraps included."""
    pytest.importorskip("cuda.core")
    from smemlab.analyze import analyze_source
    from smemlab.analyze.args import fill, parse_arg

    n, bins, per = 4 * 4096 + 1, 255, 128
    keys = f"keys=int32[{n}]:-2..{bins + 2}"
    r = analyze_source(f"package:{H.SOURCE}", "hist_ranges<1, 0, 16, 2>", (512, 1, 1), (2, 1, 1), (0, 0, 0), H.counter_bytes(per, 16) + H.SPARE,
                       [keys, f"n={n}", f"out=uint32[{bins}]:0..0", f"bins={bins}", f"per={per}"], {"CTR_INIT": "65530"})
    want = _reference(fill("keys", parse_arg(keys)[1]), bins)
    got = r.buffers["out"].astype(np.int64)
    assert np.array_equal(got[:per], want[:per]) and not got[per:].any()


# hist_partition then hist_part_count emulated on the CPU, every block of each grid in turn (g1 sort
# blocks, g2 count blocks: the count blocks share the ranges out, one block looping over every range's
# virtual blocks when g2 = 1), against NumPy. hot: keys in two bins, an even and an odd one, past 65535
# each (real wraps, 64-bit moves). rank: the places from ballots (0) or shared atomics (1). The last case
# is whole tiles of keys all in range: its stage fills to the last slot, so a scratch sized too small
# (the emulator checks every access against its buffer) fails it.
PARTITIONS = [(3 * 65536 + 7, 3 * 4096 + 5, 0.0, 16, 1, 1), (1 << 21, 50001, 0.0, 16, 2, 3), (1000, 7, 0.0, 16, 1, 2),
              (196608, 150003, 0.98, 16, 1, 1), (1 << 20, 4 * 4096 + 9, 0.0, 15, 3, 5), (70001, 2 * 4096, 0.0, 14, 2, 7)]


def _emulate_partition(tmp_path, keys: np.ndarray, bins: int, rank: int, range_bits: int, g1: int, g2: int) -> np.ndarray:
    from smemlab.analyze import analyze_source

    n, ranges = keys.size, -(-bins // (1 << range_bits))
    params = {"PTHREADS": H.PARTITION_THREADS, "PMINB": H.PARTITION_MIN_BLOCKS, "PRBITS": (ranges - 1).bit_length(), "PRANK": rank,
              "PRANGE": range_bits, "PCTHREADS": 1024, "PCMINB": H.PART_COUNT_MIN_BLOCKS, "PU": 1, "UNROLL": H.UNROLL}
    files = {name: tmp_path / f"{name}.npy" for name in ("keys", "out", "scratch")}
    np.save(files["keys"], keys)
    np.save(files["out"], np.zeros(bins, np.uint32))
    np.save(files["scratch"], np.zeros(H.partition_scratch_bytes(0, n, ranges, g1, H.UNROLL), np.uint8))
    args = [f"keys={files['keys']}", f"n={n}", f"out={files['out']}", f"bins={bins}", f"scratch={files['scratch']}"]
    smem = H.plan(bins, HOPPER, "partition", range_bits=range_bits).smem
    for kernel, threads, grid, shared, tail in (("hist_partition", H.PARTITION_THREADS, g1, 0, []),
                                                ("hist_part_count", 1024, g2, smem, [f"g1={g1}"])):
        for b in range(grid):
            r = analyze_source(f"package:{H.SOURCE}", H.instance(kernel, params), (threads, 1, 1), (grid, 1, 1), (b, 0, 0), shared,
                               args + tail, {})
            np.save(files["out"], r.buffers["out"])
            np.save(files["scratch"], r.buffers["scratch"])
    return np.load(files["out"]).astype(np.int64)


@pytest.mark.parametrize("bins,n,hot,range_bits,g1,g2", PARTITIONS)
@pytest.mark.parametrize("rank", [0, 1])
def test_partition_counts_exactly(tmp_path, bins, n, hot, range_bits, g1, g2, rank):
    pytest.importorskip("cuda.core")
    rng = np.random.default_rng(n)
    keys = rng.integers(-3, bins + 3, n).astype(np.int32)
    if n % (4 * H.PARTITION_THREADS * H.UNROLL) == 0:
        keys = rng.integers(0, bins, n).astype(np.int32)  # every key in range: the stages fill
    m = rng.random(n) < hot
    keys[m] = rng.integers(65530, 65532, int(m.sum()))
    assert np.array_equal(_emulate_partition(tmp_path, keys, bins, rank, range_bits, g1, g2), _reference(keys, bins))


class FakeCAI:
    """A device array seen through __cuda_array_interface__: metadata only, never touched (no GPU)."""

    def __init__(self, shape, typestr="<f4"):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "strides": None,
                                         "data": (0x7F0000000000, False), "version": 3}


def test_weights_are_checked_before_any_gpu_call():
    keys = FakeCAI((8,), "<i4")
    for typestr in ("<f2", "<i4", "|u1"):
        with pytest.raises(TypeError, match="weights: dtype .* accepted: float32 or float64 .*convert"):
            H.histogram(keys, 4, weights=FakeCAI((8,), typestr))
    with pytest.raises(ValueError, match=r"weights: shape \(7,\) .* keys' shape \(8,\)"):
        H.histogram(keys, 4, weights=FakeCAI((7,)))
    with pytest.raises(ValueError, match="weights: expected a 1-D"):
        H.histogram(keys, 4, weights=FakeCAI((2, 4)))
    with pytest.raises(TypeError, match="weights: expected a GPU array"):
        H.histogram(keys, 4, weights=np.ones(8, np.float32))
    with pytest.raises(ValueError, match="no method or options.*method='smem'"):
        H.histogram(keys, 4, weights=FakeCAI((8,)), method="smem")
    with pytest.raises(ValueError, match="no method or options.*copies=4"):
        H.histogram(keys, 4, weights=FakeCAI((8,)), copies=4)


@pytest.mark.parametrize("bins", [1, 256, 4096, 58112, 58113, 232448, 232449, 1 << 22])
@pytest.mark.parametrize("itemsize", [4, 8])
def test_weighted_plan_covers_every_bin_once(bins, itemsize):
    optin = HOPPER["smem_optin"]
    launches = H.weighted_plan(bins, itemsize, optin)
    if len(launches) == 1 and launches[0][3] == 0:  # atomics on the output
        assert -(-bins // (optin // itemsize)) > H.WEIGHTED_MAX_PASSES
        return
    covered = 0
    for block, smem, lo, nlocal, copies in launches:
        assert lo == covered and nlocal >= 1 and nlocal * copies * itemsize <= smem <= optin
        assert copies & (copies - 1) == 0 and block in (512, 1024)
        covered += nlocal
    assert covered == bins and len(launches) <= H.WEIGHTED_MAX_PASSES
    assert H.weighted_plan(256, 4, optin)[0][4] == 32  # one bank a lane for few bins


# ---- GPU ----------------------------------------------------------------------------------------------
def _reference(keys: np.ndarray, bins: int) -> np.ndarray:
    inside = keys[(keys >= 0) & (keys < bins)]
    return np.bincount(inside, minlength=bins)


def _keys(rng, n, bins, skew=False):
    k = rng.integers(-3, bins + 3, n, dtype=np.int64)  # a few keys outside [0, bins) on both sides
    if skew:
        hot = rng.integers(0, bins, 3)
        k = np.where(rng.random(n) < 0.9, hot[rng.integers(0, 3, n)], k)
    k[: min(n, 2)] = [np.iinfo(np.int32).min, np.iinfo(np.int32).max][: min(n, 2)]
    return k.astype(np.int32)


CASES = [
    (1, 1, "auto"), (5, 7, "auto"), (1000003, 256, "auto"), (1000003, 4096, "auto"), (999999, 50000, "auto"),
    (1 << 22, 65536, "auto"), ((1 << 22) + 3, 262144, "auto"), (1000001, (1 << 20) + 1, "auto"),
    (1000003, 256, "global"), (1000003, 65536, "multipass"), (1000003, 262144, "multipass"),
    (1000003, 262144, "ranges"), (2000003, 1 << 20, "ranges"),
    (2000003, 1 << 20, "partition"), (1000003, 262145, "partition"), ((1 << 22) + 1, 1 << 21, "partition"), (333333, 5, "partition"),
    (7, 100, "partition"), (1, 1, "partition"), (8192 * 7 + 3, 65537, "partition"), (1000003, 262145, "ranges8"), (2000003, 1 << 20, "ranges8"), (333333, 5, "ranges"), (7, 100, "ranges"), (1, 1, "ranges"),
]


@gpu
@pytest.mark.parametrize("n,bins,method", CASES)
@pytest.mark.parametrize("skew", [False, True])
def test_counts_exact(n, bins, method, skew):
    import cupy as cp

    rng = np.random.default_rng(n + bins)
    keys = _keys(rng, n, bins, skew)
    opts = {"method": "ranges", "counter_bits": 8} if method == "ranges8" else {"method": method}
    got = H.histogram(cp.asarray(keys), bins, **opts)
    assert isinstance(got, cp.ndarray) and got.dtype == cp.int32 and got.shape == (bins,)
    np.testing.assert_array_equal(cp.asnumpy(got), _reference(keys, bins))


@gpu
@pytest.mark.parametrize("opts", [dict(method="smem", copies=c, agg=a) for c in (1, 8, 32) for a in (0, 1)]
                         + [dict(method="multipass", counter_bits=16, agg=a) for a in (0, 1)]
                         + [dict(method="ranges", counter_bits=b, unroll=u) for b in (8, 16, 32) for u in (1, 2, 4)]
                         + [dict(method="partition", unroll=u) for u in (1, 2, 4)] + [dict(method="partition", range_bits=15, block=512)]
                         + [dict(method="multipass", counter_bits=8, agg=a) for a in (0, 1)]
                         + [dict(method="global", agg=0), dict(method="multipass", agg=1)])
def test_every_variant_exact(opts):
    import cupy as cp

    bins = 4096 if opts["method"] == "smem" else 65536 + 5
    rng = np.random.default_rng(7)
    keys = _keys(rng, 2_000_003, bins, skew=True)
    got = H.histogram(cp.asarray(keys), bins, **opts)
    np.testing.assert_array_equal(cp.asnumpy(got), _reference(keys, bins))


@gpu
@pytest.mark.parametrize("rank", [0, 1])
@pytest.mark.parametrize("bins,skew", [((1 << 20) + 3, False), ((1 << 20) + 3, True), (262145, True), (1 << 21, False)])
def test_partition_either_ranking_exact(rank, bins, skew):
    """The partition plan with its places from ballots and from shared atomics, whichever the plan takes."""
    import cupy as cp

    rng = np.random.default_rng(bins + rank)
    keys = _keys(rng, 3_000_017, bins, skew)
    d = cp.asarray(keys)
    dev, stream = d.device.id, cp.cuda.get_current_stream().ptr
    out = cp.zeros(bins, cp.uint32)
    launches = H.launches_for(bins, H.plan(bins, H.device_facts(dev), "partition"), dev, stream, {"PRANK": rank})
    H.enqueue(launches, d.data.ptr, d.size, out.data.ptr, stream, H.cupy_scratch)
    np.testing.assert_array_equal(cp.asnumpy(out).astype(np.int64), _reference(keys, bins))


@gpu
@pytest.mark.parametrize("offset", [1, 2, 3])
@pytest.mark.parametrize("method", ["auto", "partition"])
def test_unaligned_start(offset, method):
    import cupy as cp

    rng = np.random.default_rng(offset)
    keys = _keys(rng, 100_000, 300)
    d = cp.asarray(keys)[offset:]  # contiguous, not 16-byte aligned
    np.testing.assert_array_equal(cp.asnumpy(H.histogram(d, 300, method=method)), _reference(keys[offset:], 300))


@gpu
def test_bad_arrays():
    import cupy as cp

    # int64 keys (what cp.arange and torch.randint make) are counted, as torch.bincount counts them
    np.testing.assert_array_equal(cp.asnumpy(H.histogram(cp.arange(10), 16)), np.bincount(np.arange(10), minlength=16))
    with pytest.raises(ValueError, match="got 2-D"):
        H.histogram(cp.zeros((2, 3), cp.int32), 16)
    keys = cp.arange(20, dtype=cp.int32) % 7
    np.testing.assert_array_equal(cp.asnumpy(H.histogram(keys[::2], 16)), _reference(cp.asnumpy(keys)[::2], 16))  # a view: copied
    np.testing.assert_array_equal(cp.asnumpy(H.histogram(cp.zeros(0, cp.int32), 16)), np.zeros(16))  # no keys: zeros


@gpu
def test_torch_in_torch_out_on_callers_stream():
    torch = pytest.importorskip("torch")
    import cupy as cp

    rng = np.random.default_rng(3)
    keys = rng.integers(0, 1000, 3_000_001).astype(np.int32)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.as_tensor(keys, device="cuda")
        got = H.histogram(t, 1000)
        want = torch.bincount(t, minlength=1000)
    s.synchronize()
    assert isinstance(got, torch.Tensor) and got.dtype == torch.int32 and got.is_cuda
    assert torch.equal(got.long(), want)
    with pytest.raises(TypeError, match="CUDA tensor"):
        H.histogram(torch.as_tensor(keys), 16)
    del cp


@gpu
def test_matches_cupy_bincount_in_range():
    import cupy as cp

    keys = cp.random.RandomState(5).randint(0, 4096, 5_000_000, dtype=cp.int32)
    assert bool((H.histogram(keys, 4096) == cp.bincount(keys, minlength=4096)).all())


@gpu
@pytest.mark.parametrize("method,opts", [("multipass", {}), ("ranges", {}), ("ranges", {"counter_bits": 8}), ("partition", {})])
def test_narrow_counters_past_their_top(method, opts):
    """Two bins, an even and an odd one (a pair of the 64-bit moves and merges), take 99% of 2^25 keys:
    about 2^24 each, so that each block's counters of them pass 65535 (255) many times however the
    method spreads the keys over its blocks (real wraps, their moves made by 64-bit adds where the merge
    is 64-bit); then again with every digit started 35 below its top (CTR_INIT: 32-bit moves), so that
    every bin wraps after a few counts."""
    import cupy as cp

    bins = 131073
    rng = np.random.default_rng(11)
    keys = np.where(rng.random(1 << 25) < 0.99, rng.integers(65530, 65532, 1 << 25), rng.integers(-2, bins + 2, 1 << 25)).astype(np.int32)
    d = cp.asarray(keys)
    bits = opts.get("counter_bits", 16)
    opts = {**opts, "counter_bits": bits}
    got = H.histogram(d, bins, method=method, **opts)
    np.testing.assert_array_equal(cp.asnumpy(got), _reference(keys, bins))
    dev = d.device.id
    p = H.plan(bins, H.device_facts(dev), method, **opts)
    stream = cp.cuda.get_current_stream().ptr
    out = cp.zeros(bins, cp.uint32)
    H.enqueue(H.launches_for(bins, p, dev, stream, {"CTR_INIT": (1 << bits) - 36}), d.data.ptr, d.size, out.data.ptr, stream,
              H.cupy_scratch)
    np.testing.assert_array_equal(cp.asnumpy(out).astype(np.int64), _reference(keys, bins))


# ---- weighted counts (GPU) --------------------------------------------------------------------------------
def _weighted_reference(keys: np.ndarray, w: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """(the sums in float64: exact for float32 weights, rounded as the kernel's for float64 ones; a bin's |w| summed,
    which bounds a float sum's rounding)."""
    inside = (keys >= 0) & (keys < bins)
    ref = np.bincount(keys[inside], weights=w[inside].astype(np.float64), minlength=bins)
    mass = np.bincount(keys[inside], weights=np.abs(w[inside].astype(np.float64)), minlength=bins)
    return ref, mass


def _sum_error_bound(keys: np.ndarray, mass: np.ndarray, bins: int, dtype: str) -> np.ndarray:
    """A bin's largest rounding error, summed in `dtype` in any order (atomics, partial sums): k terms round at
    most k - 1 times, each by at most u of the running sum, so |error| <= gamma(k - 1) sum|w|, gamma(m) = m u / (1 - m u) (Higham, Accuracy and
    Stability of Numerical Algorithms, 4.2), u = 2^-24 (float32) or 2^-53 (float64); a subnormal's absolute error
    at most. A fixed multiple of u sum|w| is exceeded by hot bins of skewed keys (thousands of terms a bin)."""
    inside = (keys >= 0) & (keys < bins)
    k = np.bincount(keys[inside], minlength=bins).astype(np.float64)
    u = 2.0 ** -24 if dtype == "float32" else 2.0 ** -53
    ku = np.maximum(k - 1, 1) * u
    # float64 weights: the reference (np.bincount, float64) rounds as often as the kernel, so the two may differ by
    # both errors (the H100 run of 2026-11-27 exceeded the single bound on 6 of 16 float64 cases, by up to 2x)
    both = 2.0 if dtype == "float64" else 1.0
    return both * ku / (1 - ku) * mass + np.finfo(dtype).smallest_subnormal


# bins: one block's worth (copies 32, 8, 1), ranges of bins a launch (float32 to 4, float64 2 and 4), and
# past WEIGHTED_MAX_PASSES ranges (float64 at 200000: atomics on the output)
@gpu
@pytest.mark.parametrize("n,bins", [(1, 1), (9, 5), (1_000_003, 256), (1_000_003, 4096), (999_999, 50_000),
                                    (2_000_003, 100_000), (2_000_003, 200_000), (3_000_001, 1 << 20)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("skew", [False, True])
def test_weighted_counts_match_bincount(n, bins, dtype, skew):
    import cupy as cp

    rng = np.random.default_rng(n + bins)
    keys = _keys(rng, n, bins, skew)
    w = rng.standard_normal(n).astype(dtype) + 0.5  # signed, non-trivial weights
    got = H.histogram(cp.asarray(keys), bins, weights=cp.asarray(w))
    assert isinstance(got, cp.ndarray) and got.dtype == np.dtype(dtype) and got.shape == (bins,)
    ref, mass = _weighted_reference(keys, w, bins)
    # the check sees real sums, not zeros: half the bins hold some (an eighth when skewed; the first two keys are
    # always outside the range)
    assert np.count_nonzero(ref) >= (max(1, min(bins, n - 2) // (8 if skew else 2)) if n > 2 else 0)
    err = np.abs(cp.asnumpy(got).astype(np.float64) - ref)
    assert np.all(err <= _sum_error_bound(keys, mass, bins, dtype)), float(np.max(err))


@gpu
def test_weighted_counts_torch_as_bincount_and_histogram():
    """torch: the result dtype and values of torch.bincount(keys, weights=w) for float32 and float64 weights;
    int64 and uint8 keys, strided weights (copied), value ranges (np.histogram's bins), empty keys, and the
    caller's stream."""
    torch = pytest.importorskip("torch")
    from smemlab import ops

    g = torch.Generator(device="cuda").manual_seed(5)
    n, bins = 1_000_003, 3000
    keys = torch.randint(0, bins, (n,), device="cuda", generator=g)  # int64, as torch.randint gives
    for dtype, tol in ((torch.float32, 1e-3), (torch.float64, 1e-10)):
        w = torch.randn(2 * n, device="cuda", dtype=dtype, generator=g)[::2]  # a strided view
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            got = ops.histogram(keys, bins, weights=w)
            want = torch.bincount(keys, weights=w, minlength=bins)
        s.synchronize()
        assert got.dtype == want.dtype == dtype and got.shape == (bins,)
        assert want.abs().max() > 1 and torch.allclose(got, want, rtol=0, atol=tol * float(want.abs().max()))
    k8 = torch.randint(0, 256, (n,), device="cuda", generator=g, dtype=torch.uint8)
    w = torch.rand(n, device="cuda", generator=g)
    assert torch.allclose(ops.histogram(k8, 200, weights=w), torch.bincount(k8.long(), weights=w, minlength=256)[:200],
                          rtol=1e-4, atol=1e-3)
    x = torch.randn(n, device="cuda", generator=g, dtype=torch.float64)
    got = ops.histogram(x, 50, range=(-2.0, 2.5), weights=w.double())
    want, _ = np.histogram(x.cpu().numpy(), 50, range=(-2.0, 2.5), weights=w.double().cpu().numpy())
    # a value within a rounding of an edge may land one bin over (histogram's doc): the totals agree
    assert abs(float(got.sum()) - want.sum()) < 1e-6 * n and np.abs(got.cpu().numpy() - want).max() < 2.0
    empty = ops.histogram(keys[:0], 9, weights=w[:0])
    assert empty.dtype == torch.float32 and torch.equal(empty, torch.zeros(9, device="cuda"))
    with pytest.raises(ValueError, match="weights: shape"):
        ops.histogram(keys, 9, weights=w[:5])
    with pytest.raises(TypeError, match="float32 or float64"):
        ops.histogram(keys, 9, weights=w.half()[:n])


@gpu
def test_weighted_counts_gradient_and_compile():
    """The weights' gradient (a gather of the output's gradient at each key's bin, 0 outside) by gradcheck;
    the weighted op inside torch.compile(fullgraph=True)."""
    torch = pytest.importorskip("torch")
    from smemlab import ops

    keys = torch.tensor([0, 3, 3, -1, 7, 2, 9, 3, 1, 0], device="cuda")
    w = torch.randn(10, device="cuda", dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: ops.histogram(keys, 8, weights=v), (w,))
    g = torch.randn(8, device="cuda", dtype=torch.float64)
    (gw,) = torch.autograd.grad(ops.histogram(keys, 8, weights=w), w, g)
    inside = (keys >= 0) & (keys < 8)
    assert torch.equal(gw, torch.where(inside, g[keys.clamp(0, 7)], 0.0))
    f = torch.compile(lambda k, v: ops.histogram(k, 8, weights=v) * 2, fullgraph=True)
    v = torch.randn(10, device="cuda")
    assert torch.allclose(f(keys, v), 2 * torch.bincount(keys[inside], weights=v[inside], minlength=8))
