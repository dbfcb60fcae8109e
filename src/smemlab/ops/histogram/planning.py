"""The histogram op's plan: which method and shape (block, copies, passes, counter width, shared
bytes) counts `bins` bins on a device with the given facts. Pure Python: no GPU needed (the tests check
every choice without one). The op (this package's __init__) launches what the plan says.
"""

from __future__ import annotations

from dataclasses import dataclass

METHODS = ("auto", "smem", "ranges", "partition", "multipass", "global")
# The designs over a thread-block cluster's shared memories that auto never took (ranges and partition beat
# them all): the histogram experiment's variants now (smemlab.lab.histogram.cluster_methods)
MOVED_TO_LAB = ("cluster_exchange", "cluster_rep", "cluster_share", "cluster")
# int4 loads in flight per thread (the kernels' default): 2 ahead of 1 and 4 for ranges, whose old words of
# a batch stay in registers (measured: docs/notes/2026-11-histogram-planning.md)
UNROLL = 2


@dataclass(frozen=True)
class Plan:
    method: str  # smem | multipass | ranges | partition | global
    block: int
    copies: int = 1  # smem: copies of the histogram per block
    smem: int = 0  # dynamic shared memory per block, bytes
    passes: int = 1  # multipass: passes over the keys (ranges, partition: ranges of bins counted at once)
    bins_per_pass: int = 0
    agg: int = 0  # warp-aggregated atomics
    counter_bits: int = 32  # 16 or 8: two or four counters a 32-bit word (counts past a counter's top move to the output)
    unroll: int = UNROLL  # int4 loads in flight a thread (partition: a tile is PARTITION_THREADS * 4 * unroll keys)
    segments: int = 0  # partition: the segments a warp of the count kernel reads at once (PU)
    atomic_ranks: bool = False  # partition: a key's place in its tile from a shared atomic (PRANK=1), not ballots


def choose_copies(bins: int, budget: int) -> int:
    """Copies of the histogram per block: as many as fit `budget` bytes, at most 32 (one per lane)."""
    copies = 32
    while copies > 1 and bins * copies * 4 > budget:
        copies //= 2
    return copies


SPARE = 128  # hist_smem/hist_ranges with 16- or 8-bit counters: 32 words where the lanes without a key of the block add


def narrow_bins_per_block(optin: int, bits: int) -> int:
    """The most 16- or 8-bit counters one block holds (hist_smem, hist_ranges), its SPARE words beside them."""
    return (optin - SPARE) // 16 * (128 // bits)


def counter_bytes(bins: int, bits: int) -> int:
    """Shared memory for `bins` counters of `bits` bits (16, 8: two, four a 32-bit word), rounded to 16 bytes."""
    words = -(-bins // (32 // bits))
    return -(-words // 4) * 16


# "partition": hist_partition sorts each tile of PARTITION_THREADS * 4 * unroll keys by range of
# 2^range_bits bins (at most 2^16: a local bin travels as 16 bits), writing them as local bins to a
# scratch buffer; hist_part_count counts a range a block (2^range_bits 16-bit counters). At most 32
# ranges (the ranks take a ballot a bit of the range).
PARTITION_RANGE_BITS = 16
PARTITION_RANGE = 1 << PARTITION_RANGE_BITS
PARTITION_MAX_RANGES = 32
PARTITION_MAX_BINS = PARTITION_MAX_RANGES * PARTITION_RANGE
PARTITION_THREADS = 512
# unroll (hist_partition's int4 loads in flight a thread, a tile 2048 * unroll keys): 4, the fastest of 1, 2
# and 4; segments a warp of hist_part_count reads at once (PU): 1, no slower than 2 or 4 (measured: docs/notes/2026-11-histogram-planning.md)
PARTITION_UNROLL = 4
PARTITION_SEGMENTS = 1
# A key's place among its warp's keys of its range: from warp ballots (a ballot a bit of the range, the
# same work whatever the keys), or from one shared atomic a key on its warp's count of the range (lanes
# of one range serialise). Atomics won at 16 ranges (2^20 bins), ballots at 4 (262144 bins: more lanes a
# range, so more of them serialise on an atomic); atomics from 8 ranges, between the two measured. Each key
# is kept as one word past its rank (stage_entry), so that hist_partition does not spill at 64 registers
# (measured: docs/notes/2026-11-histogram-planning.md).
PARTITION_ATOMIC_RANKS = 8
# Ranges of 2^15 bins (range_bits=15, 32 ranges for 2^20 bins: the count blocks' 64 KB of counters
# would let 2 share an SM) lose: hist_partition takes longer, bound by its L1 (measured: docs/notes/2026-11-histogram-planning.md). range_bits stays an option for comparisons.


@dataclass(frozen=True)
class Scratch:
    """A launch argument that enqueue fills with the call's scratch pointer (partition_scratch_bytes)."""
    ranges: int
    unroll: int


# The partition kernels' macros that shape the tiles, the ranges or the blocks: the plan's alone
PARTITION_SHAPING = frozenset({"UNROLL", "PTHREADS", "PRANGE", "PRBITS", "PCTHREADS", "CBITS"})


def _partition_plan(bins: int, facts: dict, bits: int | None, block: int | None, unroll: int | None,
                    range_bits: int | None) -> Plan:
    if bits not in (None, 16):
        raise ValueError(f"method 'partition': counter_bits={bits}; 16-bit counters only")
    if block not in (None, 512, 1024):
        raise ValueError(f"method 'partition': block={block}; 512 or 1024 (the count kernel's threads) is accepted")
    if range_bits is None:
        range_bits = PARTITION_RANGE_BITS
    elif isinstance(range_bits, bool) or not isinstance(range_bits, int) or not 8 <= range_bits <= 16:
        raise ValueError(f"method 'partition': range_bits={range_bits!r}; an int from 8 to 16 (2^range_bits bins a range) is accepted")
    ranges = -(-bins // (1 << range_bits))
    if ranges > PARTITION_MAX_RANGES:
        raise ValueError(f"method 'partition': {bins} bins are {ranges} ranges of 2^{range_bits}; at most {PARTITION_MAX_RANGES} "
                         f"ranges (at most {PARTITION_MAX_BINS} bins, with range_bits=16)")
    smem = counter_bytes(1 << range_bits, 16) + SPARE
    if smem > facts["smem_optin"]:
        raise ValueError(f"method 'partition': a range of {1 << range_bits} bins needs {smem} bytes of shared memory, more than {facts['smem_optin']}")
    return Plan("partition", block or 1024, smem=smem, passes=ranges, bins_per_pass=1 << range_bits, counter_bits=16,
                unroll=unroll or PARTITION_UNROLL, segments=PARTITION_SEGMENTS, atomic_ranks=ranges >= PARTITION_ATOMIC_RANKS)


def partition_tiles(keys_ptr: int, n: int, unroll: int) -> int:
    """hist_partition's tiles of the n keys at keys_ptr (the keys after the unaligned head, by int4s)."""
    head = min(n, ((16 - keys_ptr % 16) % 16) // 4)
    n4 = (n - head) // 4
    per = PARTITION_THREADS * unroll  # int4s a tile
    return -(-n4 // per)


def partition_scratch_bytes(keys_ptr: int, n: int, ranges: int, grid: int, unroll: int) -> int:
    """The scratch of hist_partition and hist_part_count (part_layout in the kernel), for `ranges` ranges
    of bins and hist_partition's `grid` blocks: the blocks' keys a range, the tiles' range starts, 2
    bytes a key of the tiles."""
    tiles = partition_tiles(keys_ptr, n, unroll)

    def round4(words: int) -> int:
        return -(-words // 4) * 4

    return 4 * round4(grid * ranges) + 4 * round4(tiles * (ranges + 1)) + tiles * PARTITION_THREADS * 4 * unroll * 2


# method="auto" past one block's 32-bit counters follows a measured table of every method at 65536, 262144
# and 2^20 bins (docs/notes/2026-11-histogram-planning.md): multipass in one pass of 16-bit counters where a block holds them. Each range of
# `ranges` reads every key (from L2 but the first), so its rate falls as 1/ranges, where partition's stays
# flat whatever the bins (to 2^21): auto takes ranges up to AUTO_MAX_RANGES ranges (where the two rates
# cross), partition past it, and global (atomics in L2, a flat rate whatever the bins) past 2^21 bins (or,
# where a block cannot hold partition's 2^16 counters, past RANGES_BEFORE_GLOBAL).
AUTO_MAX_RANGES = 5
RANGES_BEFORE_GLOBAL = 10


def auto_method(bins: int, optin: int) -> str:
    """The method `method="auto"` takes for `bins` bins (the table above)."""
    if bins * 4 <= optin:
        return "smem"
    ranges = -(-bins // narrow_bins_per_block(optin, 16))
    if ranges == 1:
        return "multipass"
    if ranges <= AUTO_MAX_RANGES:
        return "ranges"
    if bins <= PARTITION_MAX_BINS and counter_bytes(PARTITION_RANGE, 16) + SPARE <= optin:
        return "partition"
    return "ranges" if ranges <= RANGES_BEFORE_GLOBAL else "global"


def _check_bits(bits: int | None, method: str) -> None:
    if bits == 8 and method not in ("multipass", "ranges"):
        raise ValueError(f"counter_bits=8: methods 'multipass' and 'ranges' only (method {method!r})")
    if bits not in (None, 8, 16, 32):
        raise ValueError(f"counter_bits={bits}: 8, 16 or 32 is accepted")


# The options each method takes (plan's keyword arguments); any other given (not None) is an error, never
# silently ignored.
OPTIONS = {
    "smem": ("copies", "agg", "block"),
    "multipass": ("copies", "agg", "block", "counter_bits", "unroll"),
    "ranges": ("copies", "agg", "block", "counter_bits", "unroll"),
    "partition": ("block", "counter_bits", "unroll", "range_bits"),
    "global": ("agg", "block"),
}


def _check_options(method: str, chosen_by_auto: bool, given: dict) -> None:
    foreign = {k: v for k, v in given.items() if v is not None and k not in OPTIONS[method]}
    if foreign:
        how = f"method {method!r}" + (" (what method='auto' takes for these bins)" if chosen_by_auto else "")
        raise ValueError(f"{how} does not take {', '.join(f'{k}={v!r}' for k, v in foreign.items())}; "
                         f"it takes {', '.join(OPTIONS[method])}")


def refuse_moved(method: str, cluster: int | None) -> None:
    """The cluster designs and their `cluster` option left the library: say where they went."""
    where = ("the histogram experiment's variants: `smemlab run histogram` (smemlab.lab.histogram.cluster_methods "
             "plans and launches them)")
    if method in MOVED_TO_LAB:
        raise ValueError(f"method {method!r}: the library no longer ships it (method='auto' never took it); "
                         f"it moved to {where}")
    if cluster is not None:
        raise ValueError(f"cluster={cluster!r}: no method of the library takes it; the cluster designs that took it "
                         f"moved to {where}")


def plan(bins: int, facts: dict, method: str = "auto", *, copies: int | None = None, cluster: int | None = None,
         agg: int | None = None, block: int | None = None, counter_bits: int | None = None,
         unroll: int | None = None, range_bits: int | None = None) -> Plan:
    """How `histogram` counts `bins` bins on a device with `facts` (sms, smem_optin, cc). `cluster` is only
    refused, with where the designs that took it went."""
    refuse_moved(method, cluster)
    if method not in METHODS:
        raise ValueError(f"method {method!r}: one of {', '.join(METHODS)} is accepted")
    if (unroll or UNROLL) not in (1, 2, 4):
        raise ValueError(f"unroll={unroll}: 1, 2 or 4 is accepted")
    optin = facts["smem_optin"]
    chosen_by_auto = method == "auto"
    if chosen_by_auto:
        method = auto_method(bins, optin)
    _check_bits(counter_bits, method)
    _check_options(method, chosen_by_auto, dict(copies=copies, agg=agg, block=block, counter_bits=counter_bits,
                                                unroll=unroll, range_bits=range_bits))
    if method == "smem":
        if bins * 4 > optin:
            raise ValueError(f"method 'smem': {bins} bins need {bins * 4} bytes, more than one block's {optin} bytes of shared memory")
        c = copies or choose_copies(bins, 64 * 1024 if bins > 256 else 32 * 1024)
        if c & (c - 1) or not 1 <= c <= 32:
            raise ValueError(f"copies={c}: a power of two from 1 to 32 is accepted")
        c = min(c, choose_copies(bins, optin))
        smem = bins * c * 4
        b = block or (1024 if smem > optin // 2 else 512)
        return Plan("smem", b, copies=c, smem=smem, agg=0 if agg is None else agg)
    if method in ("multipass", "ranges"):
        c = copies or 1
        # 16-bit counters where they save a pass (one copy): fewer passes over the keys beat wider counters
        # (measured: docs/notes/2026-11-histogram-planning.md)
        bits = counter_bits or (16 if c == 1 and bins > optin // 4 else 32)
        if bits != 32 and c != 1:
            raise ValueError(f"method {method!r}: {bits}-bit counters take one copy (copies={c})")
        per = min(bins, optin // (4 * c) if bits == 32 else narrow_bins_per_block(optin, bits))
        passes = -(-bins // per)
        per = -(-bins // passes)  # balance the passes
        if bits == 16:
            per += per & 1  # even: every range starts at an even bin, where the merge adds two counters at once
        smem = per * c * 4 if bits == 32 else counter_bytes(per, bits) + SPARE
        return Plan(method, block or 1024, copies=c, smem=smem, passes=passes, bins_per_pass=per,
                    agg=0 if agg is None else agg, counter_bits=bits, unroll=unroll or UNROLL)
    if method == "partition":
        return _partition_plan(bins, facts, counter_bits, block, unroll, range_bits)
    return Plan("global", block or 512, agg=1 if agg is None else agg)
