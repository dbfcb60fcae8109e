"""The block's memories: shared, local (per thread), param, const and global, and generic addresses.

A cluster of several blocks is emulated whole (`SharedSpace`): each block has its own shared
memory, the program's shared offsets are its own block's, and a shared::cluster address names a
block by its rank in the bits above CLUSTER_RANK_SHIFT (`ClusterWindow`; an offset without them is
the block's own, as the shared::cta window lies inside the shared::cluster one).

Each space is one flat byte array with views of 1, 2, 4 and 8-byte words, so a warp's (or the whole
block's) access is one NumPy gather or scatter. Every access is bounds- and alignment-checked and a
bad one raises `MemoryFault` naming the first offending thread and address; the executor adds the
source line.

Generic addresses (64-bit) are split into windows by their top bits, as the hardware does:

    0x7000_0000_0000 + ...  global (buffers, 1 KiB aligned, a guard gap between neighbours)
    0x7A00_0000_0000 + ...  distributed shared memory (mapa of a generic address: a shared::cluster address)
    0x7B00_0000_0000 + ...  kernel parameters
    0x7C00_0000_0000 + ...  constant memory
    0x7D00_0000_0000 + ...  local memory (each thread its own)
    0x7E00_0000_0000 + ...  shared memory
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GLOBAL_BASE = 0x7000 << 32
DSMEM_BASE = 0x7A00 << 32
PARAM_BASE = 0x7B00 << 32
CONST_BASE = 0x7C00 << 32
LOCAL_BASE = 0x7D00 << 32
SHARED_BASE = 0x7E00 << 32
WINDOW_SHIFT = 40
WINDOWS = {GLOBAL_BASE >> WINDOW_SHIFT: "global", DSMEM_BASE >> WINDOW_SHIFT: "dsmem",
           PARAM_BASE >> WINDOW_SHIFT: "param", CONST_BASE >> WINDOW_SHIFT: "const",
           LOCAL_BASE >> WINDOW_SHIFT: "local", SHARED_BASE >> WINDOW_SHIFT: "shared"}
WINDOW_BASE = {"global": 0, "dsmem": DSMEM_BASE, "param": PARAM_BASE, "const": CONST_BASE, "local": LOCAL_BASE,
               "shared": SHARED_BASE}
CLUSTER_RANK_SHIFT = 24  # a shared::cluster address: (rank + 1) << 24 | the offset in block `rank`'s shared memory
GUARD = 256  # bytes between two global buffers, so that running off one end is caught
# Each global buffer starts on a 1 KiB boundary, as the buffers of every recording do (CuPy's and torch's
# allocators hand out 512-byte multiples, large ones whole pages): the L1's slot of a global atomic hashes
# address bits 7-13 (coalescing.atomic_sector_costs), so where a data-dependent histogram's bins start within
# 1 KiB changes its sectors (hist_global and fresh.histo_global_u8.*: exact at 1 KiB, not at 256 bytes).
BUFFER_ALIGN = 1024
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


class MemoryFault(Exception):
    """An access outside every buffer, or misaligned; `thread` is the linear thread index."""

    def __init__(self, message: str, thread: int):
        super().__init__(message)
        self.thread = thread


@dataclass
class Buffer:
    name: str
    base: int  # address in its space
    size: int  # bytes
    data: np.ndarray | None = None  # the bytes given (None: zeros)
    dtype: str = "uint8"


def swizzled(addr, chunks: int):
    """Hopper's shared-memory swizzle of byte addresses `addr`, `chunks` 16-byte chunks a swizzle row (2, 4, 8 for
    the 32-, 64- and 128-byte modes; 1 or 0: none): a chunk's index (address bits 4..) XOR its 128-byte row's
    index modulo `chunks` (bits 7..). TMA's tensor maps (tma.py) and wgmma's descriptors (wgmma.py) lay tiles
    out so (CUDA driver API, CUtensorMapSwizzle; PTX ISA, the wgmma shared-memory matrix layouts)."""
    return addr if chunks <= 1 else addr ^ (((addr >> 7) & (chunks - 1)) << 4)


def _round_up(n: int, a: int) -> int:
    return -(-n // a) * a


class Space:
    """One flat, byte-addressed memory with word views; addresses are offsets from `origin`."""

    def __init__(self, name: str, size: int, origin: int = 0, regions: list[tuple[int, int, str]] | None = None):
        self.name = name
        self.size = size
        self.origin = origin
        self.bytes = np.zeros(_round_up(max(size, 16), 16), dtype=np.uint8)
        self.views = {n: self.bytes.view(t) for n, t in UINT.items()}
        # regions that are valid (start, end, name), sorted; None = [0, size) is one region
        self.regions = sorted(regions) if regions else None
        if self.regions:
            self.starts = np.array([r[0] for r in self.regions], dtype=np.int64)
            self.ends = np.array([r[1] for r in self.regions], dtype=np.int64)

    def check(self, off: np.ndarray, em: np.ndarray, size: int, what: str) -> None:
        """off: byte offsets (int64, relative to origin) of the active lanes `em`; raises MemoryFault."""
        bad = em & ((off < 0) | (off + size > self.size))
        if self.regions is not None and not bad.any():
            i = np.searchsorted(self.starts, off, side="right") - 1
            ic = np.clip(i, 0, len(self.starts) - 1)
            bad = em & ((i < 0) | (off + size > self.ends[ic]))
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise MemoryFault(f"{what} of {size} bytes at {self.describe(int(off[t]))} is out of bounds", t)
        if size > 1:
            mis = em & ((off & (size - 1)) != 0)
            if mis.any():
                t = int(np.flatnonzero(mis)[0])
                raise MemoryFault(f"{what} of {size} bytes at {self.describe(int(off[t]))} is misaligned "
                                  f"(it must be a multiple of {size})", t)

    def describe(self, off: int) -> str:
        addr = self.origin + off
        text = f"{self.name} address 0x{addr:x}" if self.origin else f"{self.name} offset {off}"
        if self.regions is not None:
            i = int(np.searchsorted(self.starts, off, side="right")) - 1
            if 0 <= i < len(self.starts) and off < self.ends[i]:
                text += f" ({self.regions[i][2]} + {off - self.regions[i][0]})"
            else:
                # the user's own buffers and variables before objects a header makes for itself (libcu++'s
                # customisation points, `_INTERNAL_` names), which a stray address lands nearer to by chance
                named = [r for r in self.regions if "_INTERNAL_" not in r[2]] or self.regions
                near = min(named, key=lambda r: min(abs(off - r[0]), abs(off - r[1])))
                if off >= near[1]:
                    text += f" ({off - near[1]} bytes past the end of {near[2]}, {near[1] - near[0]} bytes)"
                elif off < near[0]:
                    text += f" ({near[0] - off} bytes before {near[2]})"
        elif off < 0 or off >= self.size:
            text += f" (the {self.name} memory holds {self.size} bytes{getattr(self, 'past_end', '')})"
        return text

    def absolute(self, off: np.ndarray) -> np.ndarray:
        """Positions in self.bytes of offsets (SharedSpace: of the threads' own blocks)."""
        return off

    def load(self, off: np.ndarray, em: np.ndarray, size: int) -> np.ndarray:
        idx = np.where(em, off, 0) >> _SHIFT[size]
        return self.views[size][idx]

    def store(self, off: np.ndarray, em: np.ndarray, size: int, raw: np.ndarray) -> None:
        self.views[size][off[em] >> _SHIFT[size]] = raw[em]

    def _safe(self, a0: np.ndarray, total: int) -> bool:
        """Quick test on offsets whose inactive lanes are 0: all in bounds and aligned."""
        return a0.min() >= 0 and a0.max() <= self.size - total and not (a0 & (total - 1)).any()

    def gather(self, off: np.ndarray, em: np.ndarray, es: int, n: int, what: str = "load") -> list[np.ndarray]:
        """Checked load of n consecutive elements of es bytes (one access of n * es bytes)."""
        a0 = np.where(em, off, 0)
        if not self._safe(a0, es * n):
            self.check(off, em, es * n, what)
        view, sh = self.views[es], _SHIFT[es]
        idx = a0 >> sh
        return [view[idx + k] if k else view[idx] for k in range(n)]

    def scatter(self, off: np.ndarray, em: np.ndarray, es: int, values: list[np.ndarray], what: str = "store") -> None:
        a0 = np.where(em, off, 0)
        if not self._safe(a0, es * len(values)):
            self.check(off, em, es * len(values), what)
        idx = off[em] >> _SHIFT[es]
        view = self.views[es]
        for k, v in enumerate(values):
            view[idx + k if k else idx] = v[em]


_SHIFT = {1: 0, 2: 1, 4: 2, 8: 3}


def _gather_each(sp: Space, off, em, es: int, n: int, what: str) -> list[np.ndarray]:
    """Checked load of n consecutive elements, one element load at a time (spaces whose offsets are mapped
    per thread: local memory, a cluster's shared memories)."""
    sp.check(off, em, es * n, what)
    return [sp.load(off + k * es, em, es) for k in range(n)]


def _scatter_each(sp: Space, off, em, es: int, values, what: str) -> None:
    sp.check(off, em, es * len(values), what)
    for k, v in enumerate(values):
        sp.store(off + k * es, em, es, v)


class LocalSpace(Space):
    """Per-thread local memory: thread t's offset o lives at t * stride + o."""

    def __init__(self, size: int, threads: int):
        self.stride = _round_up(max(size, 16), 16)
        super().__init__("local", size)
        self.bytes = np.zeros(self.stride * threads, dtype=np.uint8)
        self.views = {n: self.bytes.view(t) for n, t in UINT.items()}
        self.lane_base = np.arange(threads, dtype=np.int64) * self.stride

    def load(self, off, em, size):
        idx = (np.where(em, off, 0) + self.lane_base) >> _SHIFT[size]
        return self.views[size][idx]

    def store(self, off, em, size, raw):
        self.views[size][(off + self.lane_base)[em] >> _SHIFT[size]] = raw[em]

    def gather(self, off, em, es, n, what="load"):
        return _gather_each(self, off, em, es, n, what)

    def scatter(self, off, em, es, values, what="store"):
        _scatter_each(self, off, em, es, values, what)


class GlobalSpace(Space):
    """Buffers at distinct BUFFER_ALIGN-aligned addresses with a guard gap between neighbours."""

    def __init__(self, buffers: list[Buffer]):
        regions, pos = [], 0
        for b in buffers:
            pos = _round_up(pos, BUFFER_ALIGN)
            b.base = GLOBAL_BASE + pos
            regions.append((pos, pos + b.size, b.name))
            pos += b.size + GUARD
        super().__init__("global", max(pos, 16), origin=GLOBAL_BASE, regions=regions or [(0, 0, "nothing")])
        for b, (start, end, _) in zip(buffers, regions):
            if b.data is not None:
                raw = np.ascontiguousarray(b.data).view(np.uint8).ravel()
                self.bytes[start:start + raw.size] = raw[: end - start]
        self.buffers = buffers

    def _safe(self, a0, total):
        return False  # the regions need the full check

    def contents(self, buf: Buffer) -> np.ndarray:
        start = buf.base - GLOBAL_BASE
        return self.bytes[start:start + buf.size]


class SharedSpace(Space):
    """The shared memories of the emulated blocks (a cluster's, or one block's), `stride` bytes apart;
    `size` is one block's. Offsets are the thread's own block's: thread t's offset o is byte
    block_base[t] + o. The stride is a multiple of 128 bytes, so an offset keeps its bank."""

    def __init__(self, size: int, blocks: int, threads_per_block: int, threads: int):
        super().__init__("shared", size)
        self.blocks = blocks
        self.stride = _round_up(max(size, 16), 1024)
        if blocks > 1:
            self.bytes = np.zeros(self.stride * blocks, dtype=np.uint8)
            self.views = {n: self.bytes.view(t) for n, t in UINT.items()}
        self.rank = np.arange(threads, dtype=np.int64) // threads_per_block
        self.block_base = self.rank * self.stride

    def absolute(self, off: np.ndarray) -> np.ndarray:
        """Byte positions in self.bytes of the threads' offsets (one per thread)."""
        return off if self.blocks == 1 else off + self.block_base

    def block(self, rank: int) -> Space:
        """Block `rank`'s shared memory alone (a view of the same bytes), for offsets of any shape."""
        one = Space("shared", self.size)
        one.bytes = self.bytes[rank * self.stride:(rank + 1) * self.stride]
        one.views = {n: one.bytes.view(t) for n, t in UINT.items()}
        return one

    def load(self, off, em, size):
        return super().load(self.absolute(off), em, size)

    def store(self, off, em, size, raw):
        super().store(self.absolute(off), em, size, raw)

    def gather(self, off, em, es, n, what="load"):
        if self.blocks == 1:
            return super().gather(off, em, es, n, what)
        return _gather_each(self, off, em, es, n, what)

    def scatter(self, off, em, es, values, what="store"):
        if self.blocks == 1:
            super().scatter(off, em, es, values, what)
        else:
            _scatter_each(self, off, em, es, values, what)


class ClusterWindow(Space):
    """Shared memory through shared::cluster addresses: (rank + 1) << CLUSTER_RANK_SHIFT | offset in
    block `rank`'s shared memory, or a plain offset in the thread's own block's."""

    MASK = (1 << CLUSTER_RANK_SHIFT) - 1

    def __init__(self, shared: SharedSpace):
        self.name, self.size, self.origin, self.regions = "distributed shared", shared.size, 0, None
        self.shared = shared
        self.bytes, self.views = shared.bytes, shared.views

    def split(self, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(block rank, offset in that block's shared memory) of each thread's address."""
        hi = off >> CLUSTER_RANK_SHIFT
        return np.where(hi > 0, hi - 1, self.shared.rank), off & self.MASK

    def check(self, off, em, size, what):
        rank, local = self.split(off)
        bad = em & ((rank >= self.shared.blocks) | (off < 0))
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise MemoryFault(f"{what} at shared::cluster address 0x{int(off[t]) & 0xFFFFFFFF:x}: it names block rank "
                              f"{int(rank[t])} of a cluster of {self.shared.blocks}", t)
        self.shared.check(local, em, size, what)

    def describe(self, off):
        return f"shared::cluster address 0x{off & 0xFFFFFFFF:x}"

    def absolute(self, off):
        rank, local = self.split(off)
        return rank * self.shared.stride + local

    def load(self, off, em, size):
        return Space.load(self, self.absolute(off), em, size)

    def store(self, off, em, size, raw):
        Space.store(self, self.absolute(off), em, size, raw)

    def gather(self, off, em, es, n, what="load"):
        return _gather_each(self, off, em, es, n, what)

    def scatter(self, off, em, es, values, what="store"):
        _scatter_each(self, off, em, es, values, what)
