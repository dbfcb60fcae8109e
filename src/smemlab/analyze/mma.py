"""Warp-level matrix multiply-accumulate (`mma.sync.aligned`), so that kernels on the tensor cores run.

Shared memory is not touched here (the tiles come from `ldmatrix` or `ld.shared`), but a kernel must
run through its mma's to the accesses after them. Each warp's fragments are gathered into A (M x K),
B (K x N) and C (M x N) by the PTX ISA's fragment layouts for the shapes below, D = A B + C is computed
(floating point in float64, then rounded once to D's type: not the tensor core's own rounding order,
which no address depends on; integers exactly, wrapping in 32 bits), and D is scattered back.

Shapes and types (row.col): m16n8k8 and m16n8k16 with f16 or bf16 inputs and f32 or f16 (f16 inputs
only) accumulators; m16n8k4 and m16n8k8 with tf32 inputs; m16n8k16 and m16n8k32 with s8/u8 inputs and
s32 accumulators; m8n8k4, and on sm_90 m16n8k4/k8/k16, in f64 (Triton's tl.dot of float64 tiles). In a fragment, lane l's element i is
at (row, col) with g = l / 4 and t = l % 4.
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze.alu import builder
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.ptx import Instr, PTXError, Vec


def _c(i, g, t):  # C and D: c0, c1 on row g, c2, c3 on row g + 8
    return g + 8 * (i // 2), 2 * t + i % 2


def _c8(i, g, t):  # m8n8k4's C and D: c0, c1 on row g
    return g, 2 * t + i


# (shape, input kind) -> (M, N, K, A's (row, col), B's (row, col), elements of A a lane, of B)
LAYOUTS = {
    ("m16n8k16", "16"): (16, 8, 16, lambda i, g, t: (g + 8 * ((i // 2) % 2), 2 * t + i % 2 + 8 * (i // 4)),
                         lambda i, g, t: (2 * t + i % 2 + 8 * (i // 2), g), 8, 4),
    ("m16n8k8", "16"): (16, 8, 8, lambda i, g, t: (g + 8 * (i // 2), 2 * t + i % 2),
                        lambda i, g, t: (2 * t + i, g), 4, 2),
    ("m16n8k8", "tf32"): (16, 8, 8, lambda i, g, t: (g + 8 * (i % 2), t + 4 * (i // 2)),
                          lambda i, g, t: (t + 4 * i, g), 4, 2),
    ("m16n8k4", "tf32"): (16, 8, 4, lambda i, g, t: (g + 8 * i, t), lambda i, g, t: (t, g), 2, 1),
    ("m16n8k16", "8"): (16, 8, 16, lambda i, g, t: (g + 8 * (i // 4), 4 * t + i % 4),
                        lambda i, g, t: (4 * t + i, g), 8, 4),
    ("m16n8k32", "8"): (16, 8, 32, lambda i, g, t: (g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)),
                        lambda i, g, t: (4 * t + i % 4 + 16 * (i // 4), g), 16, 8),
    ("m8n8k4", "f64"): (8, 8, 4, lambda i, g, t: (g, t), lambda i, g, t: (t, g), 1, 1),
    # sm_90's f64 shapes (Triton 3.6's tl.dot of float64 tiles): tf32's places, one element a 64-bit register
    ("m16n8k4", "f64"): (16, 8, 4, lambda i, g, t: (g + 8 * i, t), lambda i, g, t: (t, g), 2, 1),
    ("m16n8k8", "f64"): (16, 8, 8, lambda i, g, t: (g + 8 * (i % 2), t + 4 * (i // 2)),
                         lambda i, g, t: (t + 4 * i, g), 4, 2),
    ("m16n8k16", "f64"): (16, 8, 16, lambda i, g, t: (g + 8 * (i % 2), t + 4 * (i // 2)),
                          lambda i, g, t: (t + 4 * i, g), 8, 4),
}
_KIND = {"f16": "16", "bf16": "16", "tf32": "tf32", "s8": "8", "u8": "8", "f64": "f64"}
ELEMENTS_PER_REG = {"f16": 2, "bf16": 2, "tf32": 1, "s8": 4, "u8": 4, "f32": 1, "s32": 1, "f64": 1}


def _places(fn, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of shape (32, count): where lane l's element i sits in its matrix."""
    rc = np.array([[fn(i, lane // 4, lane % 4) for i in range(count)] for lane in range(WARP)], dtype=np.int64)
    return rc[..., 0], rc[..., 1]


def whole_warps(m: np.ndarray, W: int, what: str) -> np.ndarray:
    """The warps with lanes on in `m`, refusing one with only some: the warp-wide matrix instructions need
    all 32 lanes (undefined behaviour otherwise)."""
    warps = m.reshape(W, WARP)
    busy = warps.any(axis=1)
    partial = busy & ~warps.all(axis=1)
    if partial.any():
        raise PTXError(f"{what} in warp {int(np.flatnonzero(partial)[0])} with only some of its lanes: it needs all "
                       f"32 (undefined behaviour otherwise)")
    return busy


def unpack(words: list[np.ndarray], typ: str) -> np.ndarray:
    """(threads, elements) values of the registers' packed elements, element 0 in the lowest bits."""
    if typ == "f64":  # one element a 64-bit register, read as float64 already
        return np.stack(words, axis=1).astype(np.float64)
    w = np.stack(words, axis=1).astype(np.uint32)
    if typ in ("f32", "tf32"):
        return w.view(np.float32).astype(np.float64)
    if typ == "s32":
        return w.view(np.int32).astype(np.int64)
    if typ == "f16":
        return w.view(np.uint16).view(np.float16).astype(np.float64)  # little-endian: the low half first
    if typ == "bf16":
        return (w.view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if typ in ("s8", "u8"):
        return w.view(np.int8 if typ == "s8" else np.uint8).astype(np.int64)
    raise PTXError(f"mma: type .{typ} is not supported")


def pack(values: np.ndarray, typ: str) -> list[np.ndarray]:
    """The registers (uint32 bits) holding `values` (threads, elements) as `typ`."""
    if typ == "f64":
        return [values[:, j].astype(np.float64) for j in range(values.shape[1])]
    if typ == "f32":
        bits = values.astype(np.float32).view(np.uint32)
    elif typ == "s32":
        bits = (values & 0xFFFFFFFF).astype(np.uint64).astype(np.uint32)
    elif typ == "f16":
        bits = np.ascontiguousarray(values.astype(np.float16)).view(np.uint32)
    else:
        raise PTXError(f"mma: a .{typ} result is not supported")
    return [bits[:, j] for j in range(bits.shape[1])]


@builder("mma")
def b_mma(ins: Instr, mach: Machine, **_):
    parts = ins.parts
    shape = next((p for p in parts if p.startswith("m") and "n" in p and "k" in p), None)
    types = [p for p in parts if p in ("f32", "f16", "bf16", "tf32", "s8", "u8", "s32", "f64")]
    if "sync" not in parts or shape is None or len(types) != 4 or "row" not in parts or "col" not in parts:
        raise PTXError(f"{ins.opcode}: only mma.sync.aligned.SHAPE.row.col with four types is supported")
    td, ta, tb, tc = types
    kind = _KIND.get(ta)
    layout = LAYOUTS.get((shape, kind))
    if layout is None or _KIND.get(tb) != kind or (kind == "8") != (td == "s32") or (kind == "f64") != (td == "f64"):
        raise PTXError(f"{ins.opcode}: this shape and type are not supported (m16n8k8/k16 f16 and bf16, m16n8k4/k8 "
                       f"tf32, m16n8k16/k32 s8 and u8, m8n8k4 and m16n8k4/k8/k16 f64)")
    M, N, K, a_at, b_at, na, nb = layout
    ops = ins.operands
    if len(ops) != 4 or not all(isinstance(o, Vec) for o in ops[:3]):
        raise PTXError(f"{ins.text}: expected {{d}}, {{a}}, {{b}}, {{c}}")
    regs = [list(o.items) if isinstance(o, Vec) else [o] for o in ops]
    nc = M * N // WARP
    want = [nc // ELEMENTS_PER_REG[td], na // ELEMENTS_PER_REG[ta], nb // ELEMENTS_PER_REG[tb],
            nc // ELEMENTS_PER_REG[tc]]
    if [len(r) for r in regs] != want:
        raise PTXError(f"{ins.text}: {'/'.join(str(len(r)) for r in regs)} registers for d/a/b/c, "
                       f"{'/'.join(map(str, want))} expected")
    word = np.float64 if kind == "f64" else np.uint32  # f64 fragments sit one element a 64-bit register
    writers = [mach.writer(r, word) for r in regs[0]]
    ga, gb, gc = ([mach.getter(r, word) for r in rs] for rs in regs[1:])
    ar, ac = _places(a_at, na)
    br, bc = _places(b_at, nb)
    cr, cc = _places(_c8 if M == 8 else _c, nc)
    W = mach.W

    def fn(m, full):
        idx = np.flatnonzero(whole_warps(m, W, ins.opcode))
        a = unpack([g() for g in ga], ta).reshape(W, WARP, na)[idx]
        b = unpack([g() for g in gb], tb).reshape(W, WARP, nb)[idx]
        c = unpack([g() for g in gc], tc).reshape(W, WARP, nc)[idx]
        n = len(idx)
        A = np.zeros((n, M, K), dtype=a.dtype)
        B = np.zeros((n, K, N), dtype=b.dtype)
        C = np.zeros((n, M, N), dtype=c.dtype)
        A[:, ar, ac] = a
        B[:, br, bc] = b
        C[:, cr, cc] = c
        D = A @ B + C
        d = np.zeros((W, WARP, nc), dtype=D.dtype)
        d[idx] = D[:, cr, cc]
        for wr, bits in zip(writers, pack(d.reshape(W * WARP, nc), td)):
            wr(bits, m, full)
    return fn
