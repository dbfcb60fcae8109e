"""Hopper's tensor memory accelerator (TMA): `cp.async.bulk.tensor` loads and stores of a box of a tensor,
described by a tensor map (CUtensorMap), between global and shared memory.

The tensor map. A CUtensorMap is 128 opaque bytes that cuTensorMapEncodeTiled fills on the host from the
tensor's global address, element type, rank, sizes (`dims`, innermost first), byte strides of the outer
dimensions, the box's sizes, element strides, interleave, swizzle, L2 promotion and out-of-bounds fill (CUDA
driver API, "Tensor Map Object Managment"). Its bytes are not documented, so analyze writes its own: the
tensor maps of a kernel's arguments are built by the front end (Triton's launcher builds them from a
`TensorDescriptor` with triton/backends/nvidia/driver.c's fillTMADescriptorTiled, and analyze builds the same
fields from the same arguments), encoded by `encode` into the parameter's 128 bytes, and decoded where a copy
reads them. The layout (little-endian): magic "SMLTMAP1" (8), global address (u64), rank, element bytes,
swizzle (0 none, 1 32-byte, 2 64-byte, 3 128-byte: CUtensorMapSwizzle), OOB fill (0 zeros, 1 NaN) (u32
each), dims[5] (u32), strides[4] (u64, bytes, of dims 1..4), box[5] (u32), the element type (u32: an index
into ELEMENT_TYPES, 0 where unknown; what a TMA reduction adds up as).

The copy. A box at element coordinates c (one a dimension, innermost first, signed: a box may hang over any
edge) covers elements c + i for 0 <= i < box; in shared memory it is dense, innermost dimension first, at the
destination (128-byte aligned), with the swizzle applied to the byte address: in a swizzled mode of S bytes
(32, 64, 128) the 16-byte chunk index (address bits 4..) is XORed with address bits 7.. (log2(S / 16) bits),
the pattern of wgmma's descriptors (wgmma.py), repeating every 8 S bytes; the box's inner extent
(box[0] x element bytes) must not exceed S. A load fills elements outside the tensor with zeros (or NaN where
the fill says so) and completes box-bytes transaction bytes on the mbarrier (at once, here); a store writes
only the elements inside the tensor.

Costs: the copy engine
moves the data, so none are recorded on UTMALDG/UTMASTG lines: neither shared-memory wavefronts of the LSU pipe nor
global sectors of l1tex__t_sectors_pipe_lsu_* (as for cp.async.bulk). Measured on an H100 (2026-11-27, the six
triton.tma_* launches of the truth fixture: tiles in each swizzle mode, a pipelined matmul with wgmma, stmatrix and
a TMA store, a box over the tensor's edge): the source view lists UTMALDG/UTMASTG with no wavefronts and no LSU
sectors, and analyze matches every launch in total and per line.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from smemlab.analyze import memory as M
from smemlab.analyze.alu import builder
from smemlab.analyze.machine import Machine
from smemlab.analyze.memops import Fault, _mbarrier_at, address_getter, noop, resolve
from smemlab.analyze.ptx import Instr, PTXError, TensorAddr

MAGIC = b"SMLTMAP1"
SIZE = 128
SWIZZLE_BYTES = {0: 0, 1: 32, 2: 64, 3: 128}  # CUtensorMapSwizzle -> the swizzle span S
_HEAD = struct.Struct("<8sQIIII5I4Q5II")  # 8 + 8 + 16 + 20 + 32 + 20 + 4 = 108 bytes
# the element types a map may name (index = its code in the map); CUtensorMapDataType -> ours (TF32 and FTZ
# forms are float32 in memory)
ELEMENT_TYPES = ("", "u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16")
FROM_DRIVER = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f64", 9: "bf16",
               10: "f32", 11: "f32", 12: "f32"}


@dataclass(frozen=True)
class TensorMap:
    address: int  # the tensor's global address
    elem_size: int  # bytes
    dims: tuple[int, ...]  # elements, innermost first
    strides: tuple[int, ...]  # bytes, of dims 1.. (len(dims) - 1 of them)
    box: tuple[int, ...]  # elements, innermost first
    swizzle: int = 0  # CUtensorMapSwizzle
    fill_nan: bool = False
    element_type: str = ""  # one of ELEMENT_TYPES ("": not given)

    def __post_init__(self):
        rank = len(self.dims)
        if not 1 <= rank <= 5 or len(self.box) != rank or len(self.strides) != rank - 1:
            raise ValueError(f"a tensor map of rank {rank} needs {rank} box sizes and {rank - 1} strides")
        if self.elem_size not in (1, 2, 4, 8):
            raise ValueError(f"element size {self.elem_size}: 1, 2, 4 or 8 bytes")
        if self.swizzle not in SWIZZLE_BYTES:
            raise ValueError(f"swizzle mode {self.swizzle}: 0 to 3")
        if any(not 1 <= b <= 256 for b in self.box):
            raise ValueError(f"box {self.box}: every size from 1 to 256 (cuTensorMapEncodeTiled)")
        if self.address % 16 or any(s % 16 for s in self.strides):
            raise ValueError("the global address and the strides must be multiples of 16 bytes")
        span = SWIZZLE_BYTES[self.swizzle]
        if span and self.box[0] * self.elem_size > span:
            raise ValueError(f"the box's inner extent, {self.box[0] * self.elem_size} bytes, exceeds the "
                             f"{span}-byte swizzle")

    @property
    def box_bytes(self) -> int:
        return int(np.prod(self.box)) * self.elem_size


def encode(tm: TensorMap) -> bytes:
    rank = len(tm.dims)
    pad = lambda xs, n: tuple(xs) + (0,) * (n - len(xs))  # noqa: E731
    raw = _HEAD.pack(MAGIC, tm.address, rank, tm.elem_size, tm.swizzle, int(tm.fill_nan), *pad(tm.dims, 5),
                     *pad(tm.strides, 4), *pad(tm.box, 5), ELEMENT_TYPES.index(tm.element_type))
    return raw + bytes(SIZE - len(raw))


def decode(raw: bytes) -> TensorMap | None:
    """The tensor map in 128 bytes `encode` wrote; None for other bytes."""
    if len(raw) < _HEAD.size or raw[:8] != MAGIC:
        return None
    f = _HEAD.unpack_from(raw)
    rank = f[2]
    if not 1 <= rank <= 5:
        return None
    return TensorMap(f[1], f[3], tuple(f[6:6 + rank]), tuple(f[11:11 + rank - 1]), tuple(f[15:15 + rank]), f[4],
                     bool(f[5]), ELEMENT_TYPES[f[20]] if f[20] < len(ELEMENT_TYPES) else "")


def swizzle(offsets: np.ndarray, mode: int) -> np.ndarray:
    """Byte addresses of shared memory after a tensor map's swizzle (CUtensorMapSwizzle `mode`)."""
    return M.swizzled(offsets, SWIZZLE_BYTES[mode] // 16)


def box_elements(tm: TensorMap, coords) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(global byte offsets from the tensor's address, inside-the-tensor mask, shared byte offsets before the
    swizzle) of the box's elements at element coordinates `coords`, in the box's dense order."""
    rank = len(tm.dims)
    grids = np.meshgrid(*[np.arange(b, dtype=np.int64) for b in reversed(tm.box)], indexing="ij")
    idx = [g.ravel() for g in reversed(grids)]  # idx[d]: the element's place along dimension d
    inside = np.ones(idx[0].size, dtype=bool)
    goff = np.zeros(idx[0].size, dtype=np.int64)
    for d in range(rank):
        c = idx[d] + np.int64(coords[d])
        inside &= (c >= 0) & (c < tm.dims[d])
        goff += c * (tm.elem_size if d == 0 else tm.strides[d - 1])
    soff = np.arange(idx[0].size, dtype=np.int64) * tm.elem_size
    return goff, inside, soff


def map_words(mach: Machine, space: str, addr: int, thread: int, what: str) -> tuple[str, M.Space, np.ndarray]:
    """(window name, the memory, the offsets of its 16 words) of the 128-byte tensor map at `addr` in `space`, as
    `thread` sees it (shared memory: its own block's), checked."""
    em = np.zeros(mach.N, dtype=bool)
    em[thread] = True
    a = np.full(mach.N, addr, dtype=np.int64)
    (name, sp, off, _), = resolve(mach, space, a, em)
    if name == "shared":
        sp = mach.shared.block(int(mach.shared.rank[thread]))
    words = int(off[thread]) + np.arange(0, SIZE, 8, dtype=np.int64)
    try:
        sp.check(words, np.ones(words.size, dtype=bool), 8, what)
    except M.MemoryFault as exc:
        raise Fault(str(exc), thread) from None
    return name, sp, words


def read_words(sp: M.Space, words: np.ndarray) -> bytes:
    return sp.load(words, np.ones(words.size, dtype=bool), 8).astype("<u8").tobytes()


def write_words(sp: M.Space, words: np.ndarray, raw: bytes) -> None:
    sp.store(words, np.ones(words.size, dtype=bool), 8, np.frombuffer(raw, dtype="<u8").copy())


def _read_map(mach: Machine, addr: int, thread: int) -> TensorMap:
    name, sp, words = map_words(mach, "generic", addr, thread, "tensor map read")
    tm = decode(read_words(sp, words))
    if tm is None:
        raise Fault(f"the tensor map at {sp.describe(int(words[0]))} ({name}) is not one analyze built: only "
                    f"tensor maps of the kernel's arguments (Triton's TensorDescriptor) are understood", thread)
    return tm


REDUCTIONS = ("add", "min", "max", "inc", "dec", "and", "or", "xor")
_INTS = {"u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "s32": np.int32, "u64": np.uint64, "s64": np.int64}


def reduced(old: np.ndarray, new: np.ndarray, op: str, element_type: str) -> np.ndarray:
    """The elements' bits after a TMA reduction `op` of `new` into `old` (both the raw unsigned words of the map's
    element type): as PTX's red of that type, f16/bf16 rounded to nearest even."""
    from smemlab.analyze import halves

    raw = old.dtype
    if element_type in ("f16", "bf16", "f32", "f64"):
        if op not in ("add", "min", "max"):
            raise ValueError(f".{op} of {element_type} elements: add, min and max only")
        if element_type in ("f16", "bf16"):
            a, b = halves.decode(old, element_type), halves.decode(new, element_type)
        else:
            a, b = old.view(np.float32 if element_type == "f32" else np.float64), \
                new.view(np.float32 if element_type == "f32" else np.float64)
        r = a + b if op == "add" else (np.fmin(a, b) if op == "min" else np.fmax(a, b))
        return halves.encode(r, element_type) if element_type in ("f16", "bf16") else r.astype(a.dtype).view(raw)
    if element_type not in _INTS:
        raise ValueError("the tensor map names no element type (give type= in its --arg)")
    t = _INTS[element_type]
    a, b = old.view(t), new.view(t)
    with np.errstate(over="ignore"):
        r = {"add": lambda: a + b, "min": lambda: np.minimum(a, b), "max": lambda: np.maximum(a, b),
             "and": lambda: a & b, "or": lambda: a | b, "xor": lambda: a ^ b,
             "inc": lambda: np.where(a >= b, 0, a + 1), "dec": lambda: np.where((a == 0) | (a > b), b, a - 1)}[op]()
    return r.astype(t).view(raw)


@builder("cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor")
def b_tensor_copy(ins: Instr, mach: Machine, **_):
    """cp.async.bulk.tensor.Nd{.tile}.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes [dst], [tmap,
    {c...}], [mbar] (a load), and .global.shared::cta.bulk_group [tmap, {c...}], [src] (a store; `cp.reduce...
    .OP.bulk_group`: the box reduced into the tensor, OP of `reduced`): the box copied at once. Multicast, im2col
    and cache hints' other forms are refused."""
    parts = ins.parts
    op = next((p for p in parts if p in REDUCTIONS), None) if "reduce" in parts else None
    if "reduce" in parts and op is None:
        raise PTXError(f"{ins.opcode}: a TMA reduction of {', '.join(REDUCTIONS)} expected")
    if any(p.startswith(("multicast", "im2col")) for p in parts):
        raise PTXError(f"{ins.opcode}: multicast and im2col tensor copies are not supported")
    load = parts.index("global") > next((i for i, p in enumerate(parts) if p.startswith("shared")), 99)
    ops = ins.operands
    ref = ops[1] if load else ops[0]
    if not isinstance(ref, TensorAddr):
        raise PTXError(f"{ins.text}: expected [tensor map, {{coordinates}}]")
    rank = int(next((p[:-1] for p in parts if p.endswith("d") and p[:-1].isdigit()), "0"))
    if len(ref.coords.items) != rank:
        raise PTXError(f"{ins.text}: {len(ref.coords.items)} coordinates for a {rank}-d copy")
    gmap = address_getter(mach, ref.base, "generic")
    gcs = [mach.getter(c, np.int32) for c in ref.coords.items]
    gsh = address_getter(mach, ops[0] if load else ops[1], "shared")
    gbar = address_getter(mach, ops[2], "shared") if load else None
    sp, gsp = mach.shared, mach.global_

    def fn(m, full):
        maps, sh, cs = gmap(), gsh(), [g() for g in gcs]
        bars = gbar() if gbar is not None else None
        for t in np.flatnonzero(m):
            t = int(t)
            tm = _read_map(mach, int(maps[t]), t)
            if len(tm.dims) != rank:
                raise Fault(f"a {rank}-d tensor copy with a tensor map of rank {len(tm.dims)}", t)
            if int(sh[t]) % 128:
                raise Fault(f"a tensor copy's shared address, offset {int(sh[t])}, must be a multiple of 128", t)
            goff, inside, soff = box_elements(tm, [int(c[t]) for c in cs])
            g = goff + np.int64(tm.address - M.GLOBAL_BASE)
            s = swizzle(soff + np.int64(sh[t]), tm.swizzle)
            es = tm.elem_size
            mine = sp.block(int(sp.rank[t]))
            every = np.ones(s.size, dtype=bool)
            try:
                mine.check(s, every, es, "tensor copy's shared memory")
                gsp.check(g, inside, es, "tensor copy's global memory")
            except M.MemoryFault as exc:
                raise Fault(str(exc), t) from None
            if load:
                vals = np.zeros(s.size, dtype=mine.views[es].dtype)
                if tm.fill_nan:
                    vals[:] = {2: 0x7FFF, 4: 0x7FFFFFFF, 8: 0x7FFFFFFFFFFFFFFF}.get(es, 0)
                vals[inside] = gsp.load(g, inside, es)[inside]
                mine.store(s, every, es, vals)
                _mbarrier_at(mach, int(bars[t]), t, "cp.async.bulk.tensor's mbarrier").transact(-tm.box_bytes)
            elif op is not None:
                try:
                    vals = reduced(gsp.load(g, inside, es), mine.load(s, every, es), op, tm.element_type)
                except ValueError as exc:
                    raise Fault(f"{ins.opcode}: {exc}", t) from None
                gsp.store(g, inside, es, vals)
            else:
                gsp.store(g, inside, es, mine.load(s, every, es))
    return fn


# bulk groups: the copies are done when issued, so committing and waiting on them (.read too) does nothing;
# a prefetch of a box into L2 moves nothing the counters here see
for _name in ("cp.async.bulk.commit_group", "cp.async.bulk.wait_group", "cp.async.bulk.prefetch"):
    builder(_name)(noop)
