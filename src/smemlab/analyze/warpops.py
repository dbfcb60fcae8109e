"""Warp-wide instructions: shfl.sync, vote.sync, match.sync, redux.sync, activemask, elect.sync.

The block's lanes are viewed as (warps, 32); "active" is the executing mask, which with the SIMT
stack is exactly the set of lanes that met at the instruction (the executor makes the lanes of a
membermask wait for each other, `warpsync.py`); membermask bits of exited lanes name no one.
Each lane's vote, match and redux are over the lanes of its own membermask: the halves of a warp
that cooperative_groups splits into two tiles of 16 run one redux with two masks, one per tile.
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze.alu import builder, dtype_of
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.ptx import Instr, Pair, PTXError
from smemlab.warp import SHFL_MODES, shfl_source

_BITS = (np.uint64(1) << np.arange(WARP, dtype=np.uint64))


def ballot(pred: np.ndarray, W: int) -> np.ndarray:
    """Per warp, the 32-bit mask of lanes where pred holds (uint32, shape (W,))."""
    return (pred.reshape(W, WARP).astype(np.uint64) @ _BITS).astype(np.uint32)


def _per_lane(v: np.ndarray) -> np.ndarray:
    return np.repeat(v, WARP)


_LANE_BIT = np.uint32(1) << np.arange(WARP, dtype=np.uint32)


def _groups(mach: Machine, op, m) -> np.ndarray:
    """[warp, lane, other lane]: the active lanes each lane's membermask names (all active lanes without one)."""
    W = mach.W
    act = m.reshape(W, 1, WARP)
    if op is None:
        return np.broadcast_to(act, (W, WARP, WARP))
    mm = mach.getter(op, np.uint32)().reshape(W, WARP, 1)
    return ((mm & _LANE_BIT) != 0) & act


@builder("shfl")
def b_shfl(ins: Instr, mach: Machine, **_):
    mode = next((p for p in ins.parts[1:] if p in SHFL_MODES), None)
    if mode is None:
        raise PTXError(f"{ins.opcode} is not supported")
    if "sync" not in ins.parts:
        raise PTXError(f"{ins.opcode}: shfl without .sync is not supported on sm_70 and later")
    d = ins.operands[0]
    wd, wp = (mach.writer(d.first, np.uint32), mach.writer(d.second, np.bool_)) if isinstance(d, Pair) else \
        (mach.writer(d, np.uint32), None)
    ga, gb, gc = (mach.getter(o, np.uint32) for o in ins.operands[1:4])
    lane = mach.lane.astype(np.int64)
    base = (mach.thread_ids // WARP) * WARP

    def fn(m, full):
        j, ok = shfl_source(mode, lane, gb().astype(np.int64), gc().astype(np.int64))
        # a source lane that does not execute this shuffle has no defined value (PTX): the lane keeps its own
        j = np.where(ok & m[base + np.where(ok, j, lane)], j, lane)
        wd(ga()[base + j], m, full)
        if wp is not None:
            wp(ok, m, full)
    return fn


@builder("vote")
def b_vote(ins: Instr, mach: Machine, **_):
    mode = next((p for p in ins.parts[1:] if p in ("all", "any", "uni", "ballot")), None)
    if mode is None:
        raise PTXError(f"{ins.opcode} is not supported")
    W = mach.W
    gp = mach.getter(ins.operands[1], np.bool_)
    mask_op = ins.operands[2] if len(ins.operands) > 2 else None
    if mode == "ballot":
        w = mach.writer(ins.operands[0], np.uint32)
    else:
        w = mach.writer(ins.operands[0], np.bool_)

    def fn(m, full):
        g = _groups(mach, mask_op, m)
        pw = gp().reshape(W, 1, WARP)
        if mode == "ballot":
            w(((g & pw).astype(np.uint64) @ _BITS).astype(np.uint32).ravel(), m, full)
            return
        if mode == "all":
            r = (pw | ~g).all(axis=2)
        elif mode == "any":
            r = (pw & g).any(axis=2)
        else:
            r = ~((pw & g).any(axis=2) & (~pw & g).any(axis=2))
        w(r.ravel(), m, full)
    return fn


@builder("activemask")
def b_activemask(ins: Instr, mach: Machine, **_):
    w = mach.writer(ins.operands[0], np.uint32)
    W = mach.W
    return lambda m, full: w(_per_lane(ballot(m, W)), m, full)


@builder("match")
def b_match(ins: Instr, mach: Machine, **_):
    mode = "all" if "all" in ins.parts else "any"
    dt = dtype_of(ins.parts[-1])
    ga = mach.getter(ins.operands[1], dt)
    d = ins.operands[0]
    wd, wp = (mach.writer(d.first, np.uint32), mach.writer(d.second, np.bool_)) if isinstance(d, Pair) else \
        (mach.writer(d, np.uint32), None)
    W = mach.W

    def fn(m, full):
        g = _groups(mach, ins.operands[2], m)
        a = ga().reshape(W, WARP)
        eq = a[:, :, None] == a[:, None, :]  # [warp, lane, other lane]
        if mode == "any":
            wd(((eq & g).astype(np.uint64) @ _BITS).astype(np.uint32).ravel(), m, full)
            return
        same = (eq | ~g).all(axis=2)
        bits = np.where(same, (g.astype(np.uint64) @ _BITS).astype(np.uint32), 0).astype(np.uint32)
        wd(bits.ravel(), m, full)
        if wp is not None:
            wp(same.ravel(), m, full)
    return fn


@builder("redux")
def b_redux(ins: Instr, mach: Machine, **_):
    op = next((p for p in ins.parts[1:] if p in ("add", "min", "max", "and", "or", "xor")), None)
    if op is None:
        raise PTXError(f"{ins.opcode} is not supported")
    t = ins.parts[-1]
    dt = dtype_of(t if not t.startswith("b") else "u" + t[1:])
    if dt.kind == "f":
        raise PTXError(f"{ins.opcode}: floating-point redux is not supported")
    ga = mach.getter(ins.operands[1], dt)
    w = mach.writer(ins.operands[0], dt)
    W = mach.W
    info = np.iinfo(dt)
    ident = {"add": 0, "min": info.max, "max": info.min, "and": info.max if dt.kind == "u" else -1, "or": 0,
             "xor": 0}[op]
    red = {"add": np.add, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
           "xor": np.bitwise_xor}[op]

    def fn(m, full):
        g = _groups(mach, ins.operands[2], m)
        a = np.where(g, ga().reshape(W, 1, WARP), np.array(ident).astype(dt))
        r = red.reduce(a, axis=2, dtype=dt) if op == "add" else red.reduce(a, axis=2)
        w(r.astype(dt).ravel(), m, full)
    return fn


@builder("elect")
def b_elect(ins: Instr, mach: Machine, **_):
    d = ins.operands[0]
    wd, wp = (mach.writer(d.first, np.uint32), mach.writer(d.second, np.bool_)) if isinstance(d, Pair) else \
        (None, mach.writer(d, np.bool_))

    def fn(m, full):
        lanes = np.argmax(_groups(mach, ins.operands[1], m), axis=2).astype(np.uint32).ravel()
        if wd is not None:
            wd(lanes, m, full)
        wp(mach.lane == lanes, m, full)
    return fn
