"""The host link, first part of the `overlap` experiment (the book's program 004:
"组团传输减少小块数据的频繁传输").

- pageable against pinned (page-locked) host memory, host to device and back, one cudaMemcpyAsync
  per size from 4 KiB up to the largest buffer: the link's bandwidth, and the size from which it is
  saturated;
- many small transfers against one grouped transfer of the same bytes: 4 KiB pieces copied one
  cudaMemcpyAsync each (from Python, and again as one CUDA graph of those copies), one copy of all
  of them, and a kernel that gathers the pieces itself from mapped pinned memory (zero-copy: each
  piece read through its own offset, so they could lie anywhere in host memory).

Every transfer moves seeded random floats in [0.5, 1.5) (never zero) and is checked byte for byte.
The link's figure is bytes across the link (each once) over the time between CUDA events around
the copies; `link_gbps` is derived from the record (`link_notes`), not measured apart.
"""

from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.lab.base import Case, Check, Variant

FIRST_BYTES = 4096
PIECE_BYTES = 4096
MAX_PIECES = 10_000
SATURATED = 0.9  # the link is saturated from the size that reaches this share of its best bandwidth
# variant -> (direction, host memory)
TRANSFERS = {"pageableH2D": ("H2D", "pageable"), "pinnedH2D": ("H2D", "pinned"),
             "pageableD2H": ("D2H", "pageable"), "pinnedD2H": ("D2H", "pinned")}
GROUPING = ("smallCopiesH2D", "smallCopiesGraphH2D", "groupedH2D", "mappedGatherH2D")


def variants() -> list[Variant]:
    # copies only: nothing for Nsight Compute. Each sample is one call: the sweep's figure is what one
    # transfer of that size costs, its fixed cost included (back to back, the small ones would overlap
    # their fixed costs), and the grouping compares one call of each way of moving the pieces
    off = {"profiled": False, "batched": False}
    return [
        Variant("pageableH2D", "cudaMemcpyAsync host to device from pageable memory (the driver stages it through "
                "a pinned buffer), 4 KiB up to the largest size", None, **off),
        Variant("pinnedH2D", "cudaMemcpyAsync host to device from pinned memory (cudaHostAlloc): DMA straight "
                "from the pages", None, **off),
        Variant("pageableD2H", "cudaMemcpyAsync device to host into pageable memory", None, **off),
        Variant("pinnedD2H", "cudaMemcpyAsync device to host into pinned memory", None, **off),
        Variant("smallCopiesH2D", "10,000 pieces of 4 KiB, one cudaMemcpyAsync each from Python (pinned memory)",
                None, **off),
        Variant("smallCopiesGraphH2D", "the same 10,000 copies captured once into a CUDA graph, launched as one",
                None, **off),
        Variant("groupedH2D", "the same bytes grouped: one cudaMemcpyAsync of 10,000 x 4 KiB (pinned memory)", None,
                **off),
        Variant("mappedGatherH2D", "a kernel reads the 10,000 pieces itself from mapped pinned host memory "
                "(zero-copy over the link), each through its own offset", "gatherPieces", (256, 1, 1), batched=False),
    ]


# ---- sizes -----------------------------------------------------------------------------------------------
def sweep_sizes(max_bytes: int) -> list[int]:
    """4 KiB, 16 KiB, 64 KiB ... (x4) up to `max_bytes`, and `max_bytes` itself."""
    sizes, s = [], FIRST_BYTES
    while s <= max_bytes:
        sizes.append(s)
        s *= 4
    if not sizes or sizes[-1] != max_bytes:
        sizes.append(max_bytes)
    return sizes


def pieces_for(max_bytes: int) -> int:
    """How many 4 KiB pieces the grouping cases move: 10,000, or what the buffer holds."""
    return max(1, min(MAX_PIECES, max_bytes // PIECE_BYTES))


def size_text(nbytes: int) -> str:
    """'4 KiB', '1 GiB', '390.6 KiB': binary units, as the sizes are powers of two."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if nbytes >= scale:
            return f"{nbytes / scale:.4g} {unit}"
    return f"{nbytes} B"


def saturation(points: Sequence[tuple[int, float]], share: float = SATURATED) -> tuple[int, float] | None:
    """(size, GB/s) of the smallest size whose bandwidth reaches `share` of the best one; None for no points."""
    if not points:
        return None
    best = max(g for _, g in points)
    return min((s, g) for s, g in points if g >= share * best)


# ---- host memory -----------------------------------------------------------------------------------------
def pinned_array(count: int, dtype=np.float32) -> np.ndarray:
    """A NumPy array in page-locked host memory, mapped into the device's address space
    (cudaHostAlloc with cudaHostAllocMapped | Portable); the memory is freed with the array."""
    import cupy

    rt = cupy.cuda.runtime
    nbytes = max(1, count * np.dtype(dtype).itemsize)
    ptr = rt.hostAlloc(nbytes, rt.hostAllocMapped | rt.hostAllocPortable)
    raw = (ctypes.c_char * nbytes).from_address(ptr)
    weakref.finalize(raw, rt.freeHost, ptr)
    return np.frombuffer(raw, dtype=dtype, count=count)


def device_pointer(host: np.ndarray) -> int:
    """The device's address of mapped pinned host memory (cuMemHostGetDevicePointer)."""
    from cuda.bindings import driver

    err, ptr = driver.cuMemHostGetDevicePointer(host.ctypes.data, 0)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"cuMemHostGetDevicePointer: {err.name}")
    return int(ptr)


def h2d(dst_ptr: int, src: np.ndarray, nbytes: int, stream: int) -> None:
    import cupy

    cupy.cuda.runtime.memcpyAsync(dst_ptr, src.ctypes.data, nbytes, cupy.cuda.runtime.memcpyHostToDevice, stream)


def d2h(dst: np.ndarray, src_ptr: int, nbytes: int, stream: int) -> None:
    import cupy

    cupy.cuda.runtime.memcpyAsync(dst.ctypes.data, src_ptr, nbytes, cupy.cuda.runtime.memcpyDeviceToHost, stream)


def same_bytes(got: np.ndarray, want: np.ndarray, what: str) -> Check:
    """Byte-for-byte equality of two host arrays, naming the first difference."""
    if np.array_equal(got, want):
        return Check(True, f"{what}: all {got.nbytes:,} bytes equal the source (random floats, never zero)")
    bad = int(np.flatnonzero(got != want)[0])
    return Check(False, f"{what}: element {bad} is {got[bad]!r}, the source holds {want[bad]!r}")


@dataclass
class HostData:
    """The buffers of the host-link cases: one random source on the device (`ref`) and its copy on
    the host (pageable and pinned), a device buffer to copy into, and host buffers to copy back into."""

    ref: Any  # CuPy float32, the truth
    dev: Any  # CuPy float32, written by host-to-device copies
    host: np.ndarray  # pageable, equal to ref
    pinned: np.ndarray  # pinned, equal to ref
    back_pageable: np.ndarray
    back_pinned: np.ndarray

    @classmethod
    def make(cls, n: int) -> "HostData":
        import cupy

        ref = cupy.random.default_rng(15).uniform(0.5, 1.5, n, dtype=cupy.float32)
        host = cupy.asnumpy(ref)
        pinned = pinned_array(n)
        pinned[:] = host
        return cls(ref, cupy.empty_like(ref), host, pinned, np.empty_like(host), pinned_array(n))


# ---- cases -----------------------------------------------------------------------------------------------
def cases(rt, n: int, chosen: Sequence[Variant]) -> Iterator[Case]:
    chosen = [v for v in chosen if v.name in TRANSFERS or v.name in GROUPING]
    if not chosen:
        return
    data = HostData.make(n)
    for v in chosen:
        if v.name in TRANSFERS:
            yield from _transfer_cases(rt, v, data)
        else:
            yield _grouping_case(rt, v, data)


def _transfer_cases(rt, v: Variant, data: HostData) -> Iterator[Case]:
    import cupy

    direction, memory = TRANSFERS[v.name]
    stream = rt.stream_handle
    for nbytes in sweep_sizes(data.ref.nbytes):
        count = nbytes // 4
        extra = {"case": size_text(nbytes), "bytes": nbytes, "direction": direction, "host_memory": memory}
        shape = f"cudaMemcpyAsync {direction} of {nbytes:,} bytes, {memory} host memory"
        if direction == "H2D":
            src = (data.pinned if memory == "pinned" else data.host)[:count]
            dst = data.dev[:count]

            def launch(dst=dst, src=src, nbytes=nbytes):
                h2d(dst.data.ptr, src, nbytes, stream)

            def check(dst=dst, count=count) -> Check:
                return same_bytes(cupy.asnumpy(dst), data.host[:count], "device copy")
        else:
            dst = (data.back_pinned if memory == "pinned" else data.back_pageable)[:count]

            def launch(dst=dst, nbytes=nbytes):
                d2h(dst, data.ref.data.ptr, nbytes, stream)

            def check(dst=dst, count=count) -> Check:
                return same_bytes(dst, data.host[:count], "host copy")
        yield Case(v, launch, check, (dst,), 0, 0, shape, extra)


def _grouping_case(rt, v: Variant, data: HostData) -> Case:
    import cupy

    pieces = pieces_for(data.ref.nbytes)
    piece = PIECE_BYTES // 4  # floats
    nbytes = pieces * PIECE_BYTES
    dst = data.dev[:pieces * piece]
    src = data.pinned
    stream = rt.stream_handle
    extra: dict[str, Any] = {"case": f"{pieces:,} x {size_text(PIECE_BYTES)}", "bytes": nbytes, "pieces": pieces,
                             "piece_bytes": PIECE_BYTES}
    dst_ptr, src_ptr = dst.data.ptr, src.ctypes.data
    kind = cupy.cuda.runtime.memcpyHostToDevice
    memcpy = cupy.cuda.runtime.memcpyAsync
    shape = f"{pieces:,} cudaMemcpyAsync of {PIECE_BYTES} bytes"
    if v.name == "smallCopiesH2D":
        def launch():
            for i in range(0, nbytes, PIECE_BYTES):
                memcpy(dst_ptr + i, src_ptr + i, PIECE_BYTES, kind, stream)
    elif v.name == "smallCopiesGraphH2D":
        capture = cupy.cuda.Stream(non_blocking=True)
        capture.begin_capture()
        for i in range(0, nbytes, PIECE_BYTES):
            memcpy(dst_ptr + i, src_ptr + i, PIECE_BYTES, kind, capture.ptr)
        graph = capture.end_capture()
        graph.upload(rt.cupy_stream)
        shape = f"one CUDA graph of {pieces:,} copies of {PIECE_BYTES} bytes"

        def launch():
            graph.launch(rt.cupy_stream)
    elif v.name == "groupedH2D":
        shape = f"one cudaMemcpyAsync of {nbytes:,} bytes"

        def launch():
            memcpy(dst_ptr, src_ptr, nbytes, kind, stream)
    else:  # mappedGatherH2D
        kernel = rt.kernel("lab/overlap/overlap.cu", "gatherPieces")
        offsets = cupy.arange(pieces, dtype=cupy.int64) * (PIECE_BYTES // 16)  # in float4s
        host_on_device = device_pointer(src)
        grid = min(pieces, 8 * rt.facts.sms)
        shape = f"grid ({grid}, 1, 1) block (256, 1, 1), reading mapped pinned host memory"

        def launch():
            rt.launch(kernel, grid, 256, host_on_device, offsets, dst, PIECE_BYTES // 16, pieces)

    def check() -> Check:
        return same_bytes(cupy.asnumpy(dst), data.host[:pieces * piece], "device copy")

    return Case(v, launch, check, (dst,), 0, 0, shape, extra)


# ---- what the record shows -------------------------------------------------------------------------------
def link_gbps(rec) -> float | None:
    """Bytes across the link over the median time, in decimal GB/s."""
    nbytes = rec.extra.get("bytes")
    return nbytes / (rec.median_ms * 1e-3) / 1e9 if nbytes and rec.median_ms else None


def ns_per_kib(rec) -> str:
    """Time per KiB moved, in ns, as text."""
    ns = rec.median_ms * 1e6 / (rec.extra["bytes"] / 1024)
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.3g}"


def link_notes(records: Sequence[Any]) -> list[str]:
    """Fill each host-link record's `link_gbps`, and say what the sweep and the grouping show."""
    out = []
    timed = [r for r in records if r.ok and r.median_ms and r.variant in (*TRANSFERS, *GROUPING)]
    for r in timed:
        r.extra["link_gbps"] = round(link_gbps(r), 3)
    largest = {}
    for name in TRANSFERS:
        points = sorted((r.extra["bytes"], r.extra["link_gbps"]) for r in timed if r.variant == name)
        sat = saturation(points)
        if sat is None:
            continue
        best = max(points, key=lambda p: p[1])
        small, large = points[0], points[-1]
        largest[name] = large
        line = (f"{name}: {best[1]:.1f} GB/s at best ({size_text(best[0])}); it first reaches {SATURATED:.0%} of that "
                f"at {size_text(sat[0])} ({sat[1]:.1f} GB/s); {size_text(small[0])} moves at {small[1]:.2f} GB/s")
        if large[1] < SATURATED * best[1]:
            line += f"; it falls to {large[1]:.1f} GB/s at {size_text(large[0])}"
        out.append(line)
    for direction in ("H2D", "D2H"):
        pinned, pageable = largest.get(f"pinned{direction}"), largest.get(f"pageable{direction}")
        if pinned and pageable and pinned[0] == pageable[0]:
            out.append(f"{direction} of {size_text(pinned[0])}: pinned memory {pinned[1] / pageable[1]:.1f}x as fast as "
                       f"pageable")
    by = {r.variant: r for r in timed if r.variant in GROUPING}
    grouped = by.get("groupedH2D")
    if grouped:
        for name in ("smallCopiesH2D", "smallCopiesGraphH2D", "mappedGatherH2D"):
            r = by.get(name)
            if r:
                each = f", {r.median_ms * 1e3 / r.extra['pieces']:.2f} us a copy" if "Copies" in name else ""
                out.append(f"{name}: {r.extra['case']} in {r.median_ms:.3g} ms ({ns_per_kib(r)} ns per KiB, "
                           f"{r.extra['link_gbps']:.2f} GB/s{each}): {r.median_ms / grouped.median_ms:.1f}x the time of "
                           f"one grouped copy of the same bytes ({grouped.median_ms:.3g} ms, {ns_per_kib(grouped)} ns "
                           f"per KiB, {grouped.extra['link_gbps']:.1f} GB/s)")
    loop, graph = by.get("smallCopiesH2D"), by.get("smallCopiesGraphH2D")
    if loop and graph:
        pieces = graph.extra["pieces"]
        line = (f"the CUDA graph of the small copies takes {graph.median_ms / loop.median_ms:.2f}x the time of the Python "
                f"loop that enqueues them one by one: ")
        if graph.median_ms >= 0.8 * loop.median_ms:
            line += (f"the cost is each copy's own ({graph.median_ms * 1e3 / pieces:.2f} us with no host call between "
                     f"them), not the call from Python")
        else:
            line += (f"the calls from Python cost {(loop.median_ms - graph.median_ms) * 1e3 / pieces:.2f} us a copy, "
                     f"and each copy {graph.median_ms * 1e3 / pieces:.2f} us of its own")
        out.append(line)
    return out
