"""The warp matrix functions of `mma.h` (`wmma.load`, `wmma.store`, `wmma.mma`), so that kernels on them run.

Which element of a tile each lane's fragment slot holds is not in the PTX ISA: it was read off an H200
(tools/probes/wmma_layout.cu loads tiles of element indices and writes every lane's slots out;
data/wmma_layouts.json holds what it printed). A fragment kind that was not measured is refused with
the list of those that were. The f16 a and b fragments of m16n16k16 hold each element twice (16 slots
for 8 elements a lane), as the hardware showed.

The fragments' memory traffic is emulated (every slot read or written at its address) but not
counted: how ptxas lowers a fragment load or store on sm_90 (LDS, LDSM, their widths) has not been
measured, so the report says so instead of guessing (`Report.uncounted`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from smemlab.analyze.alu import builder
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.mma import ELEMENTS_PER_REG, pack, unpack, whole_warps
from smemlab.analyze.ptx import Instr, PTXError, Vec



@lru_cache(maxsize=1)
def layouts() -> dict:
    """(shape 'm16n16k16', use 'a'|'b'|'c', type, 'row'|'col') -> (rows, cols) arrays of shape (32, slots)."""
    doc = json.loads((Path(__file__).parent / "data" / "wmma_layouts.json").read_text())
    out = {}
    for f in doc["fragments"]:
        m, n, k = f["shape"]
        rc = np.array(f["slots"], dtype=np.int64)
        layout = f["layout"].removeprefix("mem_").removesuffix("_major")
        keys = [layout] if f["use"] != "c" else ["row", "col"]  # a c fragment's slots do not depend on memory
        for lay in keys:
            out[(f"m{m}n{n}k{k}", f["use"], f["type"], lay)] = (rc[..., 0], rc[..., 1])
    return out


def _fragment(shape: str, use: str, typ: str, layout: str):
    got = layouts().get((shape, use, typ, layout))
    if got is None:
        known = ", ".join(f"{u}.{lay}.{s}.{t}" for s, u, t, lay in sorted(layouts()))
        raise PTXError(f"wmma: the {use} fragment of {shape} .{typ} ({layout}) has not been measured; measured: {known}")
    return got


def _shape(parts) -> str:
    shape = next((p for p in parts if p.startswith("m") and "n" in p and "k" in p), None)
    if shape is None:
        raise PTXError(f"wmma.{'.'.join(parts[1:])}: no shape")
    return shape


def _tile(shape: str, use: str) -> tuple[int, int]:
    m, rest = shape[1:].split("n")
    n, k = (int(x) for x in rest.split("k"))
    m = int(m)
    return {"a": (m, k), "b": (k, n), "c": (m, n), "d": (m, n)}[use]


def _addresses(mach, ins, addr_op, stride_op, rows, cols, layout, es):
    """Every thread's byte address of each of its slots, and the getter of the base."""
    from smemlab.analyze.memops import address_getter

    from smemlab.analyze.memops import space_of

    space = space_of(ins)
    ga = address_getter(mach, addr_op, space)
    if stride_op is None:
        raise PTXError(f"{ins.text}: the stride operand is needed")
    gs = mach.getter(stride_op, np.int64)
    lane = mach.lane.astype(np.int64)
    r, c = rows[lane], cols[lane]  # (threads, slots)

    def at():
        base, stride = ga(), gs()
        elem = r * stride[:, None] + c if layout == "row" else c * stride[:, None] + r
        return base[:, None] + elem * es
    return space, at


def _memory_io(mach, space: str, addr: np.ndarray, m: np.ndarray, es: int, values=None):
    """Load (values None) or store the elements at `addr` (threads, slots) for the threads in `m`."""
    from smemlab.analyze.memops import _check, resolve

    out = np.zeros(addr.shape, dtype=np.uint64)
    for k in range(addr.shape[1]):
        for _name, sp, off, em in resolve(mach, space, addr[:, k], m):
            _check(sp, off, em, es, "wmma fragment element")
            if values is None:
                out[em, k] = sp.load(off, em, es)[em]
            else:
                sp.store(off, em, es, values[:, k])
    return out


@builder("wmma")
def b_wmma(ins: Instr, mach: Machine, **_):
    parts = ins.parts
    if "sync" not in parts:
        raise PTXError(f"{ins.opcode}: only the .sync forms are supported")
    op = parts[1]
    if op == "load":
        return _load(ins, mach)
    if op == "store":
        return _store(ins, mach)
    if op == "mma":
        return _mma(ins, mach)
    raise PTXError(f"{ins.opcode}: not supported")


def _regs(op) -> list:
    return list(op.items) if isinstance(op, Vec) else [op]


def _load(ins: Instr, mach: Machine):
    parts = ins.parts
    use = parts[2]
    shape = _shape(parts)
    layout = "row" if "row" in parts else "col"
    typ = parts[-1]
    rows, cols = _fragment(shape, "c" if use == "c" else use, typ if use != "c" else "f32", layout)
    if use == "c" and typ != "f32":
        raise PTXError(f"{ins.opcode}: only f32 accumulator fragments have been measured")
    es = 4 // ELEMENTS_PER_REG[typ]  # a fragment register is 32 bits
    regs = _regs(ins.operands[0])
    slots = rows.shape[1]
    if len(regs) * ELEMENTS_PER_REG[typ] != slots:
        raise PTXError(f"{ins.text}: {len(regs)} registers for {slots} .{typ} slots")
    space, at = _addresses(mach, ins, ins.operands[1], ins.operands[2] if len(ins.operands) > 2 else None,
                           rows, cols, layout, es)
    writers = [mach.writer(r, np.uint32) for r in regs]
    W = mach.W

    def fn(m, full):
        whole_warps(m, W, ins.opcode)
        raw = _memory_io(mach, space, at(), m, es)
        # a register holds its slots' bits as memory does: two 16-bit elements (the first low), or one 32-bit
        bits = np.ascontiguousarray(raw.astype(np.uint16)).view(np.uint32) if es == 2 else raw.astype(np.uint32)
        for j, wr in enumerate(writers):
            wr(bits[:, j], m, full)
    return fn


def _store(ins: Instr, mach: Machine):
    parts = ins.parts
    shape = _shape(parts)
    layout = "row" if "row" in parts else "col"
    typ = parts[-1]
    if typ != "f32":
        raise PTXError(f"{ins.opcode}: only f32 fragments have been measured")
    rows, cols = _fragment(shape, "c", "f32", layout)
    regs = _regs(ins.operands[1])
    if len(regs) != rows.shape[1]:
        raise PTXError(f"{ins.text}: {len(regs)} registers for {rows.shape[1]} slots")
    space, at = _addresses(mach, ins, ins.operands[0], ins.operands[2] if len(ins.operands) > 2 else None,
                           rows, cols, layout, 4)
    getters = [mach.getter(r, np.uint32) for r in regs]
    W = mach.W

    def fn(m, full):
        whole_warps(m, W, ins.opcode)
        values = np.stack([g() for g in getters], axis=1)
        _memory_io(mach, space, at(), m, 4, values)
    return fn


def _mma(ins: Instr, mach: Machine):
    parts = ins.parts
    shape = _shape(parts)
    lay = [p for p in parts if p in ("row", "col")]
    types = [p for p in parts[parts.index(shape) + 1:] if p in ("f32", "f16", "bf16", "tf32")]
    if len(lay) != 2 or not types:
        raise PTXError(f"{ins.opcode}: expected wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.SHAPE.types")
    td, tc = types[0], types[-1]
    ta = tb = "f16" if len(types) == 2 else types[1]  # .dtype.ctype for f16 inputs, .f32.atype.btype.f32 else
    if (td, tc) != ("f32", "f32"):
        raise PTXError(f"{ins.opcode}: only f32 accumulators have been measured")
    ar, ac = _fragment(shape, "a", ta, lay[0])
    br, bc = _fragment(shape, "b", tb, lay[1])
    cr, cc = _fragment(shape, "c", "f32", "row")
    M, K = _tile(shape, "a")
    N = _tile(shape, "b")[1]
    regs = [_regs(o) for o in ins.operands]
    if len(regs) != 4:
        raise PTXError(f"{ins.text}: expected {{d}}, {{a}}, {{b}}, {{c}}")
    writers = [mach.writer(r, np.uint32) for r in regs[0]]
    ga, gb, gc = ([mach.getter(r, np.uint32) for r in rs] for rs in regs[1:])
    W = mach.W

    def fn(m, full):
        idx = np.flatnonzero(whole_warps(m, W, ins.opcode))
        a = unpack([g() for g in ga], ta).reshape(W, WARP, -1)[idx]
        b = unpack([g() for g in gb], tb).reshape(W, WARP, -1)[idx]
        c = unpack([g() for g in gc], tc).reshape(W, WARP, -1)[idx]
        n = len(idx)
        A, B, C = np.zeros((n, M, K)), np.zeros((n, K, N)), np.zeros((n, M, N))
        A[:, ar, ac] = a  # duplicated slots write the same element twice
        B[:, br, bc] = b
        C[:, cr, cc] = c
        D = A @ B + C
        d = np.zeros((W, WARP, cr.shape[1]))
        d[idx] = D[:, cr, cc]
        for wr, bits in zip(writers, pack(d.reshape(W * WARP, -1), td)):
            wr(bits, m, full)
    return fn
