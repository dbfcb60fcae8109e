"""Hopper's warpgroup matrix multiply-accumulate (`wgmma.mma_async`), so that kernels on its tensor cores run
and their shared-memory operand reads are counted.

A warpgroup is four consecutive warps of a block (warps 4g..4g+3). `wgmma.mma_async` computes, for each
warpgroup, D = A B + D (or A B where the scale-d operand is false) with A 64 x K, B K x N and D 64 x N. A comes
from shared memory through a 64-bit matrix descriptor, or from registers; B always from shared memory. The
instruction is asynchronous: its operands may be read and its accumulators written at any time until
`wgmma.wait_group`, and the PTX ISA makes touching them before then undefined, so for a kernel that is correct
computing it where it is issued gives what the GPU gives. `wgmma.fence`, `commit_group` and `wait_group` (and
`fence.proxy.async`) only order things: nothing to do here.

Matrix descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0-13 the start address, 16-29 the leading
dimension byte offset (LBO), 32-45 the stride dimension byte offset (SBO), each in units of 16 bytes; bits
49-51 the base offset; bits 62-63 the swizzle mode (0 none, 1 128-byte, 2 64-byte, 3 32-byte). The operand is
a tile in one of the canonical layouts (CUTLASS's cute/atom/mma_traits_sm90_gmma.hpp writes them out), in
units of 16-byte chunks of T = 16 / element-size elements, with W = 1, 2, 4 or 8 chunks a swizzle row (none,
32, 64, 128 bytes). Rows are M (A) or N (B); the K extent of one instruction is always 32 bytes (two chunks):

    K-major (the default; `imm-trans` 0):  row r, chunk c of K
        none: 16 (r % 8) + SBO (r / 8) + LBO c          swizzled: 16 W (r % 8) + SBO (r / 8) + 16 c
    MN-major (`imm-trans` 1): chunk c of the row index, k of K
        none: SBO c + 16 (k % 8) + LBO (k / 8)          swizzled: 16 (c % W) + LBO (c / W) + 16 W (k % 8) + SBO (k / 8)

plus the element's place in its chunk, then the swizzle of the byte address: bits 4.. of the address
XOR its bits 7.. (log2 W bits: Swizzle<log2 W, 4, 3>). The pattern repeats every 8 W x 16 bytes; a start
address inside a repeat (or a base offset) is what the base-offset field is for, whose effect the ISA leaves
open: refused.

Register fragments (the PTX ISA's wgmma layouts, CUTLASS's CLayout_64xN and ALayout_64x16): lane l of warp q
of the warpgroup, g = l / 4, t = l % 4, holds D's element i at row 16 q + g + 8 ((i / 2) % 2), column
8 (i / 4) + 2 t + i % 2 (N / 2 elements: f32 one a register, f16 two); A's (from registers, 16-bit types,
eight a thread, two a register) at row 16 q + g + 8 ((i / 2) % 2), column 2 t + i % 2 + 8 (i / 4).

Shapes and types (N = 8 to 256 in steps of 8; A from shared memory or registers), one instruction always 32
bytes of K: m64nNk16 with f16 or bf16 inputs and an f32 accumulator, or f16 inputs and an f16 one; m64nNk8
with tf32 inputs (what Triton's `tl.dot` of float32 tiles emits), f32 accumulator; m64nNk32 with e4m3/e5m2
inputs (either of each), f32 or f16 accumulator; m64nNk32 with s8/u8 inputs, s32 accumulator (`.satfinite`
clamps instead of wrapping). Only the 16-bit forms take the transpose immediates (the others are K-major in
shared memory), and the integer form takes no scale immediates. A register of A holds 4 / size elements, in
the 16-bit layout's 4-byte words: register j at row 16 q + g + 8 (j % 2), word column t + 4 (j / 2). tf32
inputs lose their low 13 mantissa bits, as the tensor cores read them. Arithmetic as mma.py's: float64,
rounded once to D's type. Sparse and single-bit forms are refused where reached.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smemlab.analyze import fp8
from smemlab.analyze import memory as M
from smemlab.analyze.alu import builder
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.memops import Fault, noop
from smemlab.analyze.mma import pack, unpack, whole_warps
from smemlab.analyze.ptx import Imm, Instr, Loc, PTXError, Reg, Vec

WARPGROUP = 4  # warps
M_ROWS = 64  # A's and D's rows per warpgroup
K_BYTES = 32  # one instruction's extent along K, whatever the type
SWIZZLE_CHUNKS = {0: 1, 1: 8, 2: 4, 3: 2}  # the descriptor's mode -> 16-byte chunks a swizzle row (W)
SWIZZLE_NAME = {1: "none", 2: "32-byte", 4: "64-byte", 8: "128-byte"}
WAVEFRONT_BYTES = 128  # what one shared-memory wavefront delivers (32 banks of 4 bytes)
TYPE_BYTES = {"f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1}
FP8 = ("e4m3", "e5m2")
INT8 = ("s8", "u8")
TF32_MASK = np.uint32(0xFFFFE000)  # the bits of a float32 the tensor cores read as tf32


def family(td: str, ta: str, tb: str) -> str | None:
    """Which of wgmma's dense input families (.td.ta.tb) is: "16-bit", "tf32", "fp8" or "int8"; None where the
    combination is not one the PTX ISA defines."""
    if ta == tb in ("f16", "bf16") and (td == "f32" or td == ta == "f16"):
        return "16-bit"
    if ta == tb == "tf32" and td == "f32":
        return "tf32"
    if ta in FP8 and tb in FP8 and td in ("f32", "f16"):
        return "fp8"
    if ta in INT8 and tb in INT8 and td == "s32":
        return "int8"
    return None


@dataclass(frozen=True)
class Descriptor:
    """A decoded matrix descriptor; addresses and offsets in bytes."""

    start: int
    lbo: int
    sbo: int
    base_offset: int
    chunks: int  # W: 16-byte chunks a swizzle row (1 = no swizzle)

    @property
    def swizzle(self) -> str:
        return SWIZZLE_NAME[self.chunks]


def decode(desc: int) -> Descriptor:
    """The fields of a 64-bit matrix descriptor (the PTX ISA's Matrix Descriptor Format)."""
    desc = int(desc)
    return Descriptor(start=(desc & 0x3FFF) << 4, lbo=((desc >> 16) & 0x3FFF) << 4, sbo=((desc >> 32) & 0x3FFF) << 4,
                      base_offset=(desc >> 49) & 7, chunks=SWIZZLE_CHUNKS[(desc >> 62) & 3])


def operand_offsets(d: Descriptor, rows: int, esize: int, mn_major: bool) -> np.ndarray:
    """(rows, K) byte offsets in shared memory of the tile's elements (rows: M for A, N for B; K = 32 bytes of
    `esize`-byte elements), by the canonical layouts of the module docstring. Raises PTXError for a start
    address that is not at the start of a swizzle repeat, or a base offset."""
    W = d.chunks
    if d.base_offset or (d.start >> 7) & (W - 1):
        raise PTXError(f"wgmma: a matrix descriptor with start address {d.start} and base offset {d.base_offset} in "
                       f"{d.swizzle} swizzle mode: the start is not at the start of its {128 * W}-byte swizzle "
                       f"pattern, and how the hardware swizzles such a tile is not modelled")
    T = 16 // esize
    K = K_BYTES // esize
    r = np.arange(rows, dtype=np.int64)[:, None]
    k = np.arange(K, dtype=np.int64)[None, :]
    if not mn_major:
        c, e = k // T, k % T
        if W == 1:
            off = 16 * (r % 8) + d.sbo * (r // 8) + d.lbo * c
        else:
            off = 16 * W * (r % 8) + d.sbo * (r // 8) + 16 * c
    else:
        c, e = r // T, r % T
        if W == 1:
            off = d.sbo * c + 16 * (k % 8) + d.lbo * (k // 8)
        else:
            off = 16 * (c % W) + d.lbo * (c // W) + 16 * W * (k % 8) + d.sbo * (k // 8)
    addr = d.start + off + esize * e
    return M.swizzled(addr, W)


def d_places(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols), each (128, n / 2): where thread l of the warpgroup holds D's element i."""
    lane = np.arange(WARPGROUP * WARP)[:, None]
    i = np.arange(n // 2)[None, :]
    q, g, t = lane // WARP, (lane % WARP) // 4, lane % 4
    return 16 * q + g + 8 * ((i // 2) % 2), 8 * (i // 4) + 2 * t + i % 2


def a_places(esize: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols), each (128, 16 / esize): where thread l of the warpgroup holds A's element i, for
    `esize`-byte elements, 4 / esize a register: register j = i / (4 / esize) is the 4-byte word at row
    16 q + g + 8 (j % 2), word column t + 4 (j / 2)."""
    per = 4 // esize
    lane = np.arange(WARPGROUP * WARP)[:, None]
    i = np.arange(4 * per)[None, :]
    j, e = i // per, i % per
    q, g, t = lane // WARP, (lane % WARP) // 4, lane % 4
    return 16 * q + g + 8 * (j % 2), per * t + e + 4 * per * (j // 2)


def operand_wavefronts(n: int, a_in_shared: bool) -> int:
    """Shared-memory wavefronts of one warpgroup's HGMMA (m64nNkK): one for every 128 bytes of its operands in
    shared memory, the A tile's 64 x 32 bytes where it is read from there, and B's N x 32 bytes, whatever the
    swizzle mode and major-ness (a canonical tile puts every 8 x 16-byte core matrix on all 32 banks). Nsight
    Compute's source view lists them per HGMMA with the shared loads (0 bytes an access), a quarter at each warp
    of the warpgroup, ideal the same; the kernel's L1 load counter
    (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld) and load instruction counts leave them out.

    Measured with Nsight Compute 2025.3.1 on an H100 (2026-11-27, tests/data/analyze_truth.json: Triton 3.9's
    tiles, every HGMMA exact), wavefronts a warpgroup:
      m64n128k16, A and B 128-byte swizzled (K-, MN-major)  48   triton.matmul.128x128x64 (two warpgroups)
      m64n64k16,  A 32-byte, B 128-byte (MN)                 32   triton.matmul.64x64x16
      m64n16k16,  A 64-byte, B 32-byte (MN)                  20   triton.matmul.64x16x32
      m64n32k16,  A 128-byte, B 64-byte (MN)                 24   triton.matmul.64x32x64
      m64n256k16, A 32-byte, B 128-byte (MN, 4 atoms)        80   triton.matmul.64x256x16
      m64n64k16,  A, B 128-byte (K-major B = K^T)            32   triton.attention_fwd.64 (Q K^T)
      m64n64k16,  A in registers, B 128-byte (MN)            16   triton.attention_fwd.64 (P V)
      m64n16k16 / m64n32k16, 32- / 64-byte, A shared / regs  20, 4 / 24, 8   triton.attention_fwd.d16 / .d32
    The rule is by bytes of K, whatever the element size: the other families (ptxas's HGMMA for tf32, QGMMA for
    e4m3/e5m2, IGMMA for s8) read 32 bytes of K an instruction too, and every one of their lines matches
    (2026-11-27, H100: triton.matmul_typed.* m64n64k8/m64n128k8 tf32, m64n64k16 bf16, m64n64k32 and m64n128k32
    e4m3/e5m2 into f32 or f16, m64n64k32 s8; triton.attention_typed.* tf32 with A from registers, e4m3, bf16).
    Tiles with no swizzle (Triton makes none for wgmma) are counted by the same rule, unmeasured."""
    return ((M_ROWS * K_BYTES if a_in_shared else 0) + n * K_BYTES) // WAVEFRONT_BYTES


def _warpgroups(m: np.ndarray, mach: Machine, what: str) -> list[int]:
    """The first warp (index among the machine's warps) of each warpgroup with lanes on in `m`, refusing a
    warpgroup with only some of its warps (or a warp with only some lanes): wgmma needs all 128 threads."""
    busy = whole_warps(m, mach.W, what)
    bw = mach.block_warps
    out: list[int] = []
    for w in np.flatnonzero(busy):
        pos = int(w) % bw  # the warp's place in its block
        first = int(w) - pos % WARPGROUP
        if first in out:
            continue
        lo = pos - pos % WARPGROUP
        if lo + WARPGROUP > bw or not busy[first:first + WARPGROUP].all():
            raise PTXError(f"{what} in the warpgroup of warps {lo}-{lo + WARPGROUP - 1} of the block with only some "
                           f"of them (the block has {bw} warps): it needs all four (undefined behaviour otherwise)")
        out.append(first)
    return out


def _bits_of(mat: np.ndarray, typ: str) -> np.ndarray:
    """float64 values of `typ` elements given as their unsigned bits (TYPE_BYTES[typ] bytes each)."""
    if typ == "f16":
        return mat.view(np.float16).astype(np.float64)
    if typ == "bf16":
        return (mat.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if typ == "tf32":
        return (mat.astype(np.uint32) & TF32_MASK).view(np.float32).astype(np.float64)
    if typ in FP8:
        return fp8.decode(mat.astype(np.uint8), typ).astype(np.float64)
    return mat.astype(np.uint8).view(np.int8 if typ == "s8" else np.uint8).astype(np.float64)


def _registers_of(words: list[np.ndarray], typ: str) -> np.ndarray:
    """(threads, elements) float64 values of A's registers, element 0 in the lowest bits."""
    w = np.ascontiguousarray(np.stack(words, axis=1).astype(np.uint32))
    return _bits_of(w.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[TYPE_BYTES[typ]]), typ)


def _imm(op, what: str, allowed: tuple[int, ...]) -> int:
    if not isinstance(op, Imm) or int(op.value) not in allowed:
        raise PTXError(f"wgmma: {what} must be an immediate {' or '.join(map(str, allowed))}, got {op}")
    return int(op.value)


@builder("wgmma.mma_async", context=True)
def b_wgmma(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    parts = ins.parts
    shape = next((p for p in parts if p.startswith("m64n") and "k" in p[4:]), None)
    types = [p for p in parts[2:] if p in ("f32", "f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "s32", "b1")]
    supported = ("dense wgmma.mma_async.sync.aligned.m64nNkK: .f32/.f16 with f16 or bf16 (k16), .f32 with tf32 (k8), "
                 ".f32/.f16 with e4m3/e5m2 (k32), .s32 with s8/u8 (k32)")
    if "sp" in parts or shape is None or len(types) != 3:
        raise PTXError(f"{ins.opcode}: only {supported} is supported")
    td, ta, tb = types
    kind = family(td, ta, tb)
    if kind is None:
        raise PTXError(f"{ins.opcode}: .{td}.{ta}.{tb} is not supported ({supported})")
    esize = TYPE_BYTES[ta]
    n_text, _, k_text = shape[4:].partition("k")
    n = int(n_text)
    if n % 8 or not 8 <= n <= 256 or k_text != str(K_BYTES // esize):
        raise PTXError(f"{ins.opcode}: {shape} is not a wgmma shape for .{ta} (m64nNk{K_BYTES // esize}, N = 8 to 256 "
                       f"in steps of 8)")
    ops = ins.operands
    if not ops or len(ops) < 2 or not isinstance(ops[0], Vec):
        raise PTXError(f"{ins.text}: expected {{d}}, then A, B's descriptor, scale-d and the immediates")
    a_regs = isinstance(ops[1], Vec)
    # only the 16-bit forms have transpose immediates, only the float forms scale immediates
    names = ["d", "{a}" if a_regs else "a-desc", "b-desc", "scale-d"]
    names += [] if kind == "int8" else ["imm-scale-a", "imm-scale-b"]
    names += (["imm-trans-b"] if a_regs else ["imm-trans-a", "imm-trans-b"]) if kind == "16-bit" else []
    if len(ops) != len(names):
        raise PTXError(f"{ins.text}: {len(ops)} operands where {len(names)} were expected ({', '.join(names)})")
    per_reg = 2 if td == "f16" else 1
    nd = n // 2 // per_reg
    d_regs = list(ops[0].items)
    if len(d_regs) != nd:
        raise PTXError(f"{ins.text}: {len(d_regs)} accumulator registers, {nd} expected for {shape}.{td}")
    if a_regs and len(ops[1].items) != 4:
        raise PTXError(f"{ins.text}: {len(ops[1].items)} registers for A, 4 expected")
    scale_a = 1 if kind == "int8" else _imm(ops[4], "imm-scale-a", (1, -1))
    scale_b = 1 if kind == "int8" else _imm(ops[5], "imm-scale-b", (1, -1))
    trans_a = not a_regs and kind == "16-bit" and bool(_imm(ops[6], "imm-trans-a", (0, 1)))
    trans_b = kind == "16-bit" and bool(_imm(ops[-1], "imm-trans-b", (0, 1)))
    saturate = "satfinite" in parts
    k_elems = K_BYTES // esize
    scale_d = ops[3]
    if isinstance(scale_d, Imm):
        const = bool(scale_d.value)
        get_scale = lambda: const  # noqa: E731
    elif isinstance(scale_d, Reg):
        g = mach.getter(scale_d, np.bool_)
        get_scale = g
    else:
        raise PTXError(f"{ins.text}: scale-d must be a predicate or an immediate")
    writers = [mach.writer(r, np.uint32) for r in d_regs]
    gd = [mach.getter(r, np.uint32) for r in d_regs]
    ga = [mach.getter(r, np.uint32) for r in ops[1].items] if a_regs else None
    gdesc_a = None if a_regs else mach.getter(ops[1], np.uint64)
    gdesc_b = mach.getter(ops[2], np.uint64)
    dr, dc = d_places(n)
    ar, ac = a_places(esize)
    site = None
    if ledger is not None:
        place = ledger.wgmma_places.get(pc)
        loc = ins.loc if place is None or ins.loc is None else Loc(place[0], place[1])
        site = ledger.site(pc, "wgmma", (0 if a_regs else M_ROWS * K_BYTES) + n * K_BYTES, loc, ins.text)
    wavefronts = operand_wavefronts(n, not a_regs)
    sp = mach.shared
    threads = WARPGROUP * WARP

    def tile(desc: np.ndarray, t0: int, rows: int, mn_major: bool, what: str) -> np.ndarray:
        """The (rows, K) operand of the warpgroup starting at thread t0, as float64."""
        vals = desc[t0:t0 + threads]
        if (vals != vals[0]).any():
            raise PTXError(f"wgmma: the {what} descriptor differs across the warpgroup (threads {t0} and "
                           f"{t0 + int(np.flatnonzero(vals != vals[0])[0])}): undefined behaviour")
        off = operand_offsets(decode(vals[0]), rows, esize, mn_major)
        mine = sp.block(int(sp.rank[t0]))
        flat = off.ravel()
        try:
            mine.check(flat, np.ones(flat.size, dtype=bool), esize, f"wgmma {what} operand read")
        except M.MemoryFault as exc:
            raise Fault(str(exc), t0) from None
        return _bits_of(mine.views[esize][off // esize], ta if what == "A" else tb)

    def fn(m, full):
        groups = _warpgroups(m, mach, ins.opcode)
        if not groups:
            return
        d_all = unpack([g() for g in gd], td)  # (threads, n / 2)
        da = gdesc_a() if gdesc_a is not None else None
        db = gdesc_b()
        a_all = _registers_of([g() for g in ga], ta) if ga is not None else None
        scale = get_scale()
        out = d_all.copy()
        for w0 in groups:
            t0 = w0 * WARP
            if a_all is not None:
                A = np.zeros((M_ROWS, k_elems))
                A[ar, ac] = a_all[t0:t0 + threads]
            else:
                A = tile(da, t0, M_ROWS, trans_a, "A")
            B = tile(db, t0, n, trans_b, "B").T  # (K, n): the tile's rows are B's columns
            D = (scale_a * A) @ (scale_b * B)
            on = scale[t0:t0 + threads] if isinstance(scale, np.ndarray) else np.full(threads, scale)
            if on.any() and not on.all():
                raise PTXError("wgmma: the scale-d predicate differs across the warpgroup: undefined behaviour")
            if on[0]:
                C = np.zeros((M_ROWS, n))
                C[dr, dc] = d_all[t0:t0 + threads]
                D = D + C
            if kind == "int8":  # exact in float64 (|D| < 2^53); the register wraps or, .satfinite, clamps
                D = np.rint(D).astype(np.int64)
                D = np.clip(D, -2 ** 31, 2 ** 31 - 1) if saturate else D
            out[t0:t0 + threads] = D[dr, dc]
            if site is not None:
                ledger.record_operands(site, WARPGROUP, wavefronts)
        # each group's lanes are all in `m`: the groups' threads get D, the others keep their registers
        for wr, bits in zip(writers, pack(out, td)):
            wr(bits, m, full)
    return fn


for _name in ("wgmma.fence", "wgmma.commit_group", "wgmma.wait_group"):
    builder(_name)(noop)


__all__ = ["Descriptor", "decode", "operand_offsets", "operand_wavefronts", "d_places", "a_places"]
