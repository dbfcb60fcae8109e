"""Warp-wide instructions: shfl.sync, vote.sync, match.sync, redux.sync, activemask, elect.sync.

The block's lanes are viewed as (warps, 32); "active" is the executing mask, which with the SIMT
stack is exactly the set of lanes that met at the instruction (the executor makes the lanes of a
membermask wait for each other, `warpsync.py`); membermask bits of exited lanes name no one.
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze.alu import builder, dtype_of
from smemlab.analyze.machine import WARP, Machine
from smemlab.analyze.ptx import Instr, Pair, PTXError

_BITS = (np.uint64(1) << np.arange(WARP, dtype=np.uint64))


def ballot(pred: np.ndarray, W: int) -> np.ndarray:
    """Per warp, the 32-bit mask of lanes where pred holds (uint32, shape (W,))."""
    return (pred.reshape(W, WARP).astype(np.uint64) @ _BITS).astype(np.uint32)


def _per_lane(v: np.ndarray) -> np.ndarray:
    return np.repeat(v, WARP)


def _members(mach: Machine, op, m):
    """Active lanes that the membermask names."""
    mm = mach.getter(op, np.uint32)()
    return m & (((mm >> mach.lane) & np.uint32(1)) != 0)


@builder("shfl")
def b_shfl(ins: Instr, mach: Machine, **_):
    mode = next((p for p in ins.parts[1:] if p in ("up", "down", "bfly", "idx")), None)
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
        b = gb().astype(np.int64) & 31
        c = gc().astype(np.int64)
        cval = c & 31
        seg = (c >> 8) & 31
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - b
            ok = j >= max_lane
        elif mode == "down":
            j = lane + b
            ok = j <= max_lane
        elif mode == "bfly":
            j = lane ^ b
            ok = j <= max_lane
        else:
            j = min_lane | (b & ~seg)
            ok = j <= max_lane
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
        act = _members(mach, mask_op, m) if mask_op is not None else m
        p = gp()
        if mode == "ballot":
            w(_per_lane(ballot(p & act, W)), m, full)
            return
        a = act.reshape(W, WARP)
        pw = p.reshape(W, WARP)
        if mode == "all":
            r = (pw | ~a).all(axis=1)
        elif mode == "any":
            r = (pw & a).any(axis=1)
        else:
            r = ~((pw & a).any(axis=1) & (~pw & a).any(axis=1))
        w(_per_lane(r), m, full)
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
        act = _members(mach, ins.operands[2], m).reshape(W, WARP)
        a = ga().reshape(W, WARP)
        eq = (a[:, :, None] == a[:, None, :]) & act[:, None, :]  # [warp, lane, other lane]
        if mode == "any":
            bits = (eq.astype(np.uint64) @ _BITS).astype(np.uint32).ravel()
            wd(bits, m, full)
            return
        first = np.argmax(act, axis=1)
        ref = a[np.arange(W), first]
        same = ((a == ref[:, None]) | ~act).all(axis=1)
        bits = np.where(same, ballot(act.ravel(), W), 0).astype(np.uint32)
        wd(_per_lane(bits), m, full)
        if wp is not None:
            wp(_per_lane(same), m, full)
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
        act = _members(mach, ins.operands[2], m).reshape(W, WARP)
        a = np.where(act, ga().reshape(W, WARP), np.array(ident).astype(dt))
        r = red.reduce(a, axis=1, dtype=dt) if op == "add" else red.reduce(a, axis=1)
        w(_per_lane(r.astype(dt)), m, full)
    return fn


@builder("elect")
def b_elect(ins: Instr, mach: Machine, **_):
    d = ins.operands[0]
    wd, wp = (mach.writer(d.first, np.uint32), mach.writer(d.second, np.bool_)) if isinstance(d, Pair) else \
        (None, mach.writer(d, np.bool_))
    W = mach.W

    def fn(m, full):
        act = _members(mach, ins.operands[1], m).reshape(W, WARP)
        leader = np.argmax(act, axis=1).astype(np.uint32)
        lanes = _per_lane(leader)
        if wd is not None:
            wd(lanes, m, full)
        wp(mach.lane == lanes, m, full)
    return fn
