"""histogram(keys, bins): count int32 keys into `bins` counters, in shared memory.

    counts = histogram(keys, bins)

- `keys`: a 1-D, contiguous int32 CuPy array or CUDA torch tensor (at most 2^31 - 1 keys).
- `bins`: an int >= 1 (at most 2^30).
- Returns int32 counts of length `bins`, of the caller's array type, on the keys' device, computed
  on the caller's current stream (CuPy's current stream, or torch.cuda.current_stream()).
  counts[b] is the number of keys equal to b: what `torch.bincount(keys, minlength=bins)` and
  `cupy.bincount(keys, minlength=bins)` give for keys in [0, bins), except that the counts are
  int32 (they cannot overflow: there are fewer than 2^31 keys) where those return int64.
- Keys outside [0, bins), negative ones included, are ignored (as `torch.histc` ignores values
  outside its range); the output never grows past `bins`, where bincount would grow or raise.

How (`method="auto"` picks by the number of bins and the device's shared memory: `plan` and its
`AUTO_*` table, with the measurements that chose them):
- "smem": bins that fit one block's shared memory (up to ~58 K int32 counters on Hopper) are counted
  in block-private histograms, several copies per block for few bins (lane l of each warp adds into
  copy l % copies, so with 32 copies no two lanes of a warp share a word or a bank, however skewed
  the keys), merged into the output at the end; persistent grid, 16-byte key loads.
- "multipass": one pass over the keys per range of bins that one block holds, with 16-bit counters
  where they save passes (two bins a 32-bit word: up to ~116 K bins a block on Hopper; a count that
  passes 65535 moves to the output 65536 at a time, exactly, see histogram.cu in this folder). auto
  takes it for one pass (65536 bins).
- "ranges": multipass's passes at once, in one launch: a group of blocks for each range of bins, the
  blocks of every group reading the same slices of the keys at the same pace, so that DRAM is read
  once and L2 serves the other ranges' reads. auto takes it from 2 to 5 ranges (262144 bins in 3).
- "partition": up to 2^21 bins, in two kernels: the first reads the keys once and writes each tile of
  them back sorted by range of 2^16 bins, as 16-bit local bins, into scratch memory (2 bytes a key,
  from the caller's allocator); the second shares its blocks out to the ranges in proportion to their
  keys, each counting its range's part of each tile in 2^16 16-bit counters. Each key is counted once,
  where `ranges` tests it in every range. auto takes it past 5 ranges (2^20 bins: 16 ranges of 2^16).
  A key's place in its tile comes from warp ballots, or from 8 ranges up from a shared atomic a key.
- "global" (atomics on the output in L2) past 2^21 bins.
The designs over a thread-block cluster's shared memories (cluster_exchange, cluster_rep, cluster_share,
cluster), which auto never took since ranges and partition beat them all, are the histogram experiment's
variants now (`smemlab run histogram`; smemlab.lab.histogram.cluster_methods): asking the op for one is
a ValueError that says so.
Options (for comparisons; auto chooses them): copies, agg, block, counter_bits (16 or 32;
8 for multipass and ranges: four bins a word, so 262144 bins take 2 ranges and 2^20 take 5; faster than
16 on uniform keys, but several times slower on skewed ones, whose hot bins wrap their 8-bit digits every
256 adds: auto stays at 16; measured: docs/notes/2026-11-histogram-planning.md), unroll (int4
loads in flight a thread; partition's a tile), range_bits (partition: 2^range_bits
bins a range, 8 to 16, at most 32 ranges; 16 by default). Each method takes the options in `OPTIONS`;
any other given is an error, never silently ignored (with auto, the error names the method it took).

In this folder: the op (here), its plan (planning.py: pure Python, no GPU) and its kernels (histogram.cu:
templates, each launch a template instance named by an NVRTC name expression, `kernel_instances`; the
instances the plans take, KERNELS, compiled together).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

from smemlab import device
from smemlab.ops._args import Dtypes, cupy_scratch, read, same_framework  # noqa: F401 (cupy_scratch: `alloc` for CuPy callers)
from smemlab.ops._route import torch_ops
from smemlab.ops.histogram.planning import (  # noqa: F401 (the plan, planning.py: the op's names as they were)
    METHODS, MOVED_TO_LAB, refuse_moved, UNROLL, Plan, choose_copies, SPARE, narrow_bins_per_block, counter_bytes,
    PARTITION_RANGE_BITS, PARTITION_RANGE, PARTITION_MAX_RANGES, PARTITION_MAX_BINS, PARTITION_THREADS,
    PARTITION_UNROLL, PARTITION_SEGMENTS, PARTITION_ATOMIC_RANKS, Scratch, PARTITION_SHAPING, partition_tiles,
    partition_scratch_bytes, AUTO_MAX_RANGES, RANGES_BEFORE_GLOBAL, auto_method, OPTIONS, plan,
)

SOURCE = "ops/histogram/histogram.cu"
MAX_BINS = 1 << 30
MAX_KEYS = (1 << 31) - 1
DTYPES = Dtypes("int32", "int64", "int16", "int8", "uint8")
VALUE_DTYPES = Dtypes("float32", "float64", "float16", "bfloat16", "int32", "int64", "int16", "int8", "uint8")
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)


def device_facts(dev: int) -> dict:
    """The facts `plan` takes, for device `dev` (sms, smem_optin, smem_per_sm, cc, name)."""
    f = device.facts(dev)
    return {"sms": f.sms, "smem_optin": f.shared_per_block_optin, "smem_per_sm": f.shared_per_sm, "cc": f.cc, "name": f.name}


# ---- the op ----------------------------------------------------------------------------------------------
def _check_bins(bins: Any) -> int:
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)):
        raise TypeError(f"bins: {type(bins).__name__} {bins!r} was given; an int from 1 to {MAX_BINS} is accepted")
    bins = int(bins)
    if not 1 <= bins <= MAX_BINS:
        raise ValueError(f"bins: {bins} was given; an int from 1 to {MAX_BINS} is accepted")
    return bins


def histogram(keys: Any, bins: int, *, range: Any = None, weights: Any = None, method: str = "auto", **options: Any) -> Any:
    """Counts of the integer `keys` in [0, bins), int32, of the caller's array type (module doc).
    int8, int16, uint8 and int64 keys are converted to int32 by their framework first (int64 clamped
    to [-1, bins], so that a key past int32's range stays outside the bins); no keys give zeros. Not
    differentiable (integer counts, as torch.bincount's).

    range=(lo, hi): `keys` are values (float16, bfloat16, float32, float64 or integers) counted into
    `bins` equal bins over [lo, hi] by torch.histc's formula (bin (v - lo) * bins / (hi - lo), truncated,
    in the values' precision, float32 for 16-bit ones; v == hi in the last bin; values outside and NaN
    ignored), by a pass of the values' framework that writes the bin numbers, then the kernels. A value
    within a rounding of a bin edge may land one bin over from histc's, where the two frameworks'
    arithmetic rounds differently. The counts are int32 (torch.histc's are of the values' float type).

    weights=w: a float32 or float64 array of the keys' shape, type and device; each bin gets the sum of
    its keys' weights, of w's dtype: what torch.bincount(keys, weights=w, minlength=bins) and
    np.histogram(..., weights=w) give for float32 and float64 weights (np.bincount and cupy.bincount
    always give float64; float16, bfloat16 and integer weights are refused: convert them, as
    torch.bincount would give float64 for them). Summed with float atomics in shared memory (a
    weighted_plan), in no fixed order: equal to the exact sum within rounding, not bit for bit from
    run to run. With range=(lo, hi) the bins are the values' as above. Takes no method or options."""
    if not options:
        ops = torch_ops(keys, weights) if weights is not None else torch_ops(keys)
        if ops is not None:
            return ops.histogram(keys, bins, method, None if range is None else [float(v) for v in range], weights)
    return run(keys, bins, range=range, weights=weights, method=method, **options)


def run(keys: Any, bins: int, *, range: Any = None, weights: Any = None, method: str = "auto", **options: Any) -> Any:
    """`histogram` without the torch dispatcher: what torch.ops.smemlab.histogram runs."""
    refuse_moved(method, options.get("cluster"))  # before any work: where the cluster designs went
    bins = _check_bins(bins)
    lo_hi = check_range(range)
    a = read(keys, "keys", DTYPES if lo_hi is None else VALUE_DTYPES, (1,), allow_empty=True)
    if a.shape[0] > MAX_KEYS:
        raise ValueError(f"keys: {a.shape[0]} keys were given; at most {MAX_KEYS} are accepted (int32 counts)")
    w = None if weights is None else check_weights(a, weights, method, options)
    with a.on_device():
        stream = a.stream()
        out, out_ptr = a.zeros((bins,), _I32 if w is None else w.dtype, stream)
        if w is not None:
            w.resolve()  # a strided view's copy; the device of an array that names none
            if w.device != a.device:
                raise ValueError(f"keys are on GPU {a.device} and weights on GPU {w.device}; both on one GPU is accepted")
            w.wait_for_producer(stream)
        if a.shape[0]:
            if lo_hi is not None:
                a = read(_range_keys(a, bins, *lo_hi), "keys", DTYPES, (1,))
            elif a.dtype != _I32:
                a = read(_int32_keys(a, bins), "keys", DTYPES, (1,))
            if w is not None:
                launch_weighted(a.ptr, w.ptr, a.shape[0], out_ptr, bins, w.dtype, a.device, stream)
            else:
                launch(a.ptr, a.shape[0], out_ptr, bins, a.device, stream, method, a.scratch, **options)
        return out


WEIGHT_DTYPES = Dtypes("float32", "float64")


def check_weights(a, weights: Any, method: str = "auto", options: dict | None = None) -> Any:
    """The weights' GpuArray, checked against the keys' (`a`): float32 or float64, the keys' shape, one
    framework and device; no method or options with them (the weighted kernels have one plan)."""
    if method != "auto" or options:
        given = ", ".join([f"method={method!r}"] * (method != "auto") + [f"{k}={v!r}" for k, v in (options or {}).items()])
        raise ValueError(f"weights: the weighted counts take no method or options ({given} was given)")
    try:
        w = read(weights, "weights", WEIGHT_DTYPES, (1,), allow_empty=True)
    except TypeError as exc:
        if "dtype" in str(exc):
            raise TypeError(f"{exc} (convert them first, e.g. weights.float(): torch.bincount gives float64 "
                            f"counts for other weights, np.histogram the weights' own type)") from None
        raise
    same_framework(a, w, ("keys", "weights"))
    if tuple(w.shape) != tuple(a.shape):
        raise ValueError(f"weights: shape {tuple(w.shape)} was given; the keys' shape {tuple(a.shape)} is expected")
    return w


def check_range(range: Any) -> tuple[float, float] | None:
    """(lo, hi) of a `range=` argument: two finite numbers, lo < hi (None: keys, not values)."""
    if range is None:
        return None
    try:
        lo, hi = (float(v) for v in range)
    except (TypeError, ValueError):
        raise TypeError(f"range: expected (lo, hi), two numbers, got {range!r:.80}") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"range: expected finite lo < hi, got ({lo}, {hi})")
    return lo, hi


def _range_keys(a, bins: int, lo: float, hi: float) -> Any:
    """The bin number of each value over [lo, hi] as torch.histc computes it ((v - lo) * bins / (hi - lo)
    in the values' float type, truncated), -1 outside (NaN too), as int32, by the values' framework on
    the call's stream (scalars only: no host-to-device copy, so a CUDA graph captures it)."""
    if a.kind == "torch":
        import torch as xp

        x = a.obj if a.obj.dtype in (xp.float32, xp.float64) else a.obj.float()
        ftype = np.float64 if x.dtype == xp.float64 else np.float32
    else:
        import cupy as xp

        x = xp.asarray(a.obj)
        x = x if x.dtype in (np.float32, np.float64) else x.astype(np.float32)
        ftype = x.dtype.type
    width = float(ftype(hi) - ftype(lo))  # in the values' precision, as histc's (max - min)
    if a.kind == "torch":
        # a true division, as histc's: torch divides by a host scalar as a multiplication by its
        # reciprocal, which moves values at bin edges; a 0-d device tensor (a fill kernel, no copy) does not
        width = xp.full((), width, dtype=x.dtype, device=x.device)
    k = xp.where((x >= lo) & (x <= hi), (x - lo) * bins / width, -1.0)
    k = k.int() if a.kind == "torch" else k.astype(np.int32)
    return xp.where(k == bins, bins - 1, k)


def torch_bins(keys: Any, bins: int, value_range: Any = None) -> Any:
    """The bin of each of the torch tensor `keys` (int64, -1 outside the bins), as the counts take it:
    the key itself, or the value's bin over value_range=(lo, hi) as _range_keys computes it (the
    weighted counts' backward)."""
    if value_range is not None:
        k = _range_keys(SimpleNamespace(kind="torch", obj=keys), bins, *check_range(value_range)).long()
    else:
        k = keys.long()
    return k.masked_fill((k < 0) | (k >= bins), -1)


def _int32_keys(a, bins: int) -> Any:
    """The keys as int32, by their framework, on the call's stream (int64 clamped to [-1, bins] first)."""
    x = a.obj
    if a.dtype == _I64:
        x = x.clamp(-1, bins) if a.kind == "torch" else a.astype(x, _I64).clip(-1, bins)
    return a.astype(x, _I32)


_LAUNCHES: dict[tuple, tuple[list, bool]] = {}  # (launches, whether they take scratch), by (device, bins, method, options)


def launch(keys_ptr: int, n: int, out_ptr: int, bins: int, dev: int, stream: int, method: str = "auto",
           alloc: Callable[[int], tuple[Any, int]] | None = None, **options: Any) -> None:
    """Enqueue the counting of the n int32 keys at `keys_ptr` into the `bins` int32 counters at
    `out_ptr` (zeroed by the caller, in stream order) on the raw stream handle `stream`, planned once
    per (device, bins, method, options): what `histogram` launches, and what the histogram experiment
    times as its last variant. `alloc(nbytes) -> (holder, pointer)`: scratch memory on the stream, for
    the partition method (enqueue; `cupy_scratch` from CuPy code)."""
    key = (dev, bins, method, tuple(sorted(options.items())) if options else ())
    entry = _LAUNCHES.get(key)
    if entry is None:
        launches = launches_for(bins, plan(bins, device_facts(dev), method, **options), dev, stream)
        entry = _LAUNCHES[key] = (launches, any(isinstance(a, Scratch) for *_, tail in launches for a in tail))
    launches, needs_scratch = entry
    if needs_scratch:
        enqueue(launches, keys_ptr, n, out_ptr, stream, alloc)
        return
    for k, grid, block, shmem, cluster, tail in launches:  # the common path: as few steps as possible a call
        device.launch(k, grid, block, (keys_ptr, n, out_ptr) + tail, stream, shmem, cluster)


def enqueue(launches: list[tuple], keys_ptr: int, n: int, out_ptr: int, stream: int,
            alloc: Callable[[int], tuple[Any, int]] | None) -> None:
    """Launch `launches` (launches_for) on the keys and the output; alloc(nbytes) -> (holder, pointer)
    gives the scratch the partition method needs, in the order of `stream` (the first launch that takes
    a Scratch sizes it with its grid): held here until every launch is enqueued, after which the
    caller's allocator may reuse it in stream order."""
    held, scratch = None, None
    for k, grid, block, shmem, cluster, tail in launches:
        marker = next((a for a in tail if isinstance(a, Scratch)), None)
        if marker is not None:
            if scratch is None:
                if alloc is None:
                    raise ValueError("method 'partition' needs scratch memory: pass alloc")
                held, scratch = alloc(partition_scratch_bytes(keys_ptr, n, marker.ranges, grid, marker.unroll))
                if scratch % 16:
                    raise ValueError(f"alloc gave a pointer {scratch:#x} that is not 16-byte aligned; the partition kernels need 16")
            tail = tuple(scratch if a is marker else a for a in tail)
        device.launch(k, grid, block, (keys_ptr, n, out_ptr) + tail, stream, shmem, cluster)
    del held


# ---- weighted counts ------------------------------------------------------------------------------------
WEIGHTED_KERNELS = {np.dtype(np.float32): "hist_weighted<float>", np.dtype(np.float64): "hist_weighted<double>"}
WEIGHTED_MAX_PASSES = 4  # more ranges of bins than this: atomics on the output in L2 (nlocal = 0), not passes


def weighted_plan(bins: int, itemsize: int, optin: int) -> list[tuple[int, int, int, int, int]]:
    """hist_weighted_*'s launches for `bins` bins of `itemsize`-byte weights with `optin` bytes of
    shared memory a block: (block, dynamic smem, lo, nlocal, copies) a launch; pure, no GPU. Bins that
    fit a block: one launch, copies as hist_smem takes them (32 for up to 256 4-byte bins); up to
    WEIGHTED_MAX_PASSES ranges of bins: a launch a range; more: one launch of atomics on the output."""
    per_block = optin // itemsize
    passes = -(-bins // per_block)
    if passes > WEIGHTED_MAX_PASSES:
        return [(512, 0, 0, 0, 1)]
    per = -(-bins // passes)
    words = itemsize // 4  # 4-byte words a weight
    copies = min(choose_copies(per * words, 64 * 1024 if per * words > 256 else 32 * 1024),
                 choose_copies(per * words, optin)) if passes == 1 else 1
    smem = per * copies * itemsize
    block = 1024 if smem > optin // 2 else 512
    return [(block, smem, lo, min(per, bins - lo), copies) for lo in range(0, bins, per)]


_WEIGHTED: dict[tuple, list] = {}  # (device, bins, weight dtype) -> [(kernel, grid, block, smem, (bins, lo, nlocal, copies))]


def launch_weighted(keys_ptr: int, w_ptr: int, n: int, out_ptr: int, bins: int, wdtype: np.dtype, dev: int, stream: int) -> None:
    """Enqueue the weighted counts of the n int32 keys at `keys_ptr` (their weights of `wdtype` at `w_ptr`)
    into the `bins` counters at `out_ptr` (zeroed by the caller, in stream order) on `stream`, planned
    once per (device, bins, dtype)."""
    key = (dev, bins, wdtype)
    launches = _WEIGHTED.get(key)
    if launches is None:
        k = device.kernel(SOURCE, WEIGHTED_KERNELS[wdtype], device=dev, names=_INSTANCES)
        f = device_facts(dev)
        launches = _WEIGHTED[key] = [(k, f["sms"] * k.blocks_per_sm(block, smem), block, smem, (bins, lo, nlocal, copies))
                                     for block, smem, lo, nlocal, copies in weighted_plan(bins, wdtype.itemsize, f["smem_optin"])]
    for k, grid, block, smem, tail in launches:
        device.launch(k, grid, block, (keys_ptr, w_ptr, n, out_ptr) + tail, stream, smem)


METHOD_KERNELS = {"global": ("hist_global",), "smem": ("hist_smem",), "multipass": ("hist_smem",), "ranges": ("hist_ranges",),
                  "partition": ("hist_partition", "hist_part_count")}
# Each kernel's template parameters, in order (histogram.cu names them as the macros they were)
TEMPLATE_PARAMETERS = {
    "hist_global": ("AGG", "UNROLL"),
    "hist_smem": ("COPIES", "AGG", "CBITS", "UNROLL"),
    "hist_ranges": ("COPIES", "AGG", "CBITS", "UNROLL"),
    "hist_partition": ("PTHREADS", "PMINB", "PRANGE", "PRBITS", "PRANK", "UNROLL"),
    "hist_part_count": ("PCTHREADS", "PCMINB", "PTHREADS", "PRANGE", "PU", "UNROLL"),
}
# The blocks an SM that hist_partition's and hist_part_count's registers are sized for (__launch_bounds__):
# the plan's; the sweep compares others (PMINB, PCMINB through `extra`)
PARTITION_MIN_BLOCKS = 2
PART_COUNT_MIN_BLOCKS = 1


def instance(kernel: str, params: dict) -> str:
    """The NVRTC name expression of `kernel` ("hist_smem") with the template arguments `params` (by the
    names of TEMPLATE_PARAMETERS: {"COPIES": 32, "AGG": 0, ...}): "hist_smem<32, 0, 32, 2>"."""
    return f"{kernel}<{', '.join(str(int(params[k])) for k in TEMPLATE_PARAMETERS[kernel])}>"


def kernel_parameters(p: Plan, extra: dict | None = None) -> dict:
    """The template arguments of plan `p`'s kernels (METHOD_KERNELS[p.method]), by parameter name, `extra`'s
    that are template parameters (the sweep's PU, PRANK, PMINB) taking their place; pure, no GPU. Refuses
    the ones that would shape partition's tiles or ranges apart from its scratch."""
    extra = extra or {}
    shaping = sorted(set(extra) & PARTITION_SHAPING) if p.method == "partition" else ()
    if shaping:  # the scratch and the grids follow the plan's tiles and ranges, never a macro's
        raise ValueError(f"method 'partition': the macros {', '.join(shaping)} shape its tiles or ranges; pass the plan's options instead")
    params = {"AGG": p.agg, "COPIES": p.copies, "CBITS": p.counter_bits, "UNROLL": p.unroll}
    if p.method == "partition":
        params.update(CBITS=16, PTHREADS=PARTITION_THREADS, PMINB=PARTITION_MIN_BLOCKS, PRBITS=(p.passes - 1).bit_length(),
                      PRANGE=p.bins_per_pass.bit_length() - 1, PCTHREADS=p.block, PCMINB=PART_COUNT_MIN_BLOCKS,
                      PU=p.segments, PRANK=int(p.atomic_ranks))
    used = {k for name in METHOD_KERNELS[p.method] for k in TEMPLATE_PARAMETERS[name]}
    params.update({k: int(v) for k, v in extra.items() if k in used})
    return params


def kernel_instances(p: Plan, extra: dict | None = None) -> tuple[str, ...]:
    """The template instances (NVRTC name expressions) plan `p` launches, in METHOD_KERNELS' order; pure."""
    params = kernel_parameters(p, extra)
    return tuple(instance(name, params) for name in METHOD_KERNELS[p.method])


def kernel_defines(p: Plan, extra: dict | None = None) -> dict:
    """The macros plan `p`'s kernels are compiled with: `extra`'s that are no template parameter of them (the
    tests' CTR_INIT, the sweep's MERGE64); {} for the plans' own. Pure, no GPU."""
    used = {k for name in METHOD_KERNELS[p.method] for k in TEMPLATE_PARAMETERS[name]}
    kernel_parameters(p, extra)  # the refusals
    return {k: v for k, v in (extra or {}).items() if k not in used}


def _auto_instances() -> dict[str, str]:
    """The instances method="auto" takes on any GPU, by a name of each: global with aggregated adds, smem with
    1 to 32 copies, multipass and ranges with 16-bit counters, partition for 1 to 32 ranges (its ranking by
    ballots or by atomics, as the ranges decide) and its count kernel; and the weighted counts'."""
    out = {"hist_global": instance("hist_global", {"AGG": 1, "UNROLL": UNROLL})}
    for c in (32, 16, 8, 4, 2, 1):
        out[f"hist_smem_copies{c}"] = instance("hist_smem", {"COPIES": c, "AGG": 0, "CBITS": 32, "UNROLL": UNROLL})
    for name in ("hist_smem", "hist_ranges"):
        out[f"{name}_b16"] = instance(name, {"COPIES": 1, "AGG": 0, "CBITS": 16, "UNROLL": UNROLL})
    for ranges in (1, 2, 3, 5, 8, 9, 17):  # each (PRBITS, PRANK) that 1 to 32 ranges give
        p = Plan("partition", 1024, passes=ranges, bins_per_pass=PARTITION_RANGE, counter_bits=16, unroll=PARTITION_UNROLL,
                 segments=PARTITION_SEGMENTS, atomic_ranks=ranges >= PARTITION_ATOMIC_RANKS)
        params = kernel_parameters(p)
        out[f"hist_partition_r{params['PRBITS']}" + ("_atomics" if params["PRANK"] else "")] = kernel_instances(p)[0]
    out["hist_part_count"] = kernel_instances(p)[1]
    out.update({f"hist_weighted_{w}": WEIGHTED_KERNELS[np.dtype(t)] for w, t in (("f32", "float32"), ("f64", "float64"))})
    return out


# The instances the op launches where method="auto" plans (and the weighted counts), by a name of each ->
# name expression, compiled together: one NVRTC compile. Another plan's (an option given) compiles on its own.
KERNELS = _auto_instances()
_INSTANCES = tuple(KERNELS.values())


def launches_for(bins: int, p: Plan, dev: int, stream: int, extra: dict | None = None) -> list[tuple]:
    """The launches of plan `p` on device `dev`: (kernel, grid, block, dynamic smem, cluster, the
    arguments after (keys, n, out)). Each adds the counts of the keys into `out` (zeroed first).
    `extra`: more macros for the kernels (the tests' CTR_INIT), or template arguments in their place (the
    sweep's PU, PRANK, PMINB: kernel_parameters)."""
    defines = kernel_defines(p, extra)
    facts = device_facts(dev)
    # with macros, the instances alone: CTR_INIT fails the 32-bit counters' instances
    kernels = [device.kernel(SOURCE, name, defines, dev, names=() if defines else _INSTANCES) for name in kernel_instances(p, extra)]
    k = kernels[0]
    if p.method == "global":
        return [(k, facts["sms"] * k.blocks_per_sm(p.block), p.block, 0, None, (bins,))]
    if p.method in ("smem", "multipass"):
        grid = facts["sms"] * k.blocks_per_sm(p.block, p.smem)
        per = p.bins_per_pass or bins
        return [(k, grid, p.block, p.smem, None, (lo, min(per, bins - lo)))
                for lo in range(0, bins, per)]
    if p.method == "ranges":
        resident = facts["sms"] * k.blocks_per_sm(p.block, p.smem)
        # a whole number of slices of the keys, each read by one block of every range
        grid = max(p.passes, resident // p.passes * p.passes)
        return [(k, grid, p.block, p.smem, None, (bins, p.bins_per_pass))]
    if p.method == "partition":
        k1, k2 = kernels
        g1 = facts["sms"] * k1.blocks_per_sm(PARTITION_THREADS)
        g2 = facts["sms"] * k2.blocks_per_sm(p.block, p.smem)
        scratch = Scratch(p.passes, p.unroll)
        return [(k1, g1, PARTITION_THREADS, 0, None, (bins, scratch)), (k2, g2, p.block, p.smem, None, (bins, scratch, g1))]
    raise AssertionError(p.method)  # pragma: no cover - plan() never returns another
