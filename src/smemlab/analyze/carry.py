"""Extended-precision integer arithmetic: `add.cc`, `addc`, `sub.cc`, `subc`, `mad.lo.cc`,
`mad.hi.cc`, `madc` (.u32, .s32, .u64, .s64), as the PTX ISA defines them.

The carry flag CC.CF is one bit per thread (`Machine.carry`): the `.cc` forms write the carry-out
(for `sub.cc`/`subc{.cc}` the borrow-out), the `c` forms read it as carry-in (`addc`: a + b + CF,
`subc`: a - (b + CF), `madc`: the product's low or high half + c + CF). Signed and unsigned types
give the same bits; the carry is that of the unsigned sum.
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze.alu import builder, dtype_of, mul_hi, srcs, type_part
from smemlab.analyze.machine import UNSIGNED
from smemlab.analyze.ptx import PTXError


def _carry_out(a, b, c):
    """(a + b + c, carry-out) of unsigned arrays, c in {0, 1}."""
    s = a + b
    r = s + c
    return r, (s < a) | (r < s)


def _borrow_out(a, b, c):
    """(a - (b + c), borrow-out) of unsigned arrays, c in {0, 1}."""
    s = a - b
    return s - c, (a < b) | (s < c)


def _types(ins):
    t = type_part(ins)
    if t not in ("u32", "s32", "u64", "s64"):
        raise PTXError(f"{ins.opcode}: extended-precision arithmetic takes .u32, .s32, .u64 or .s64")
    dt = dtype_of(t)
    return dt, np.dtype(UNSIGNED[dt.itemsize])


def _flag_writer(mach, write: bool):
    if not write:
        return lambda flag, m, full: None

    def set_flag(flag, m, full):
        mach.carry = flag if full else np.where(m, flag, mach.carry)
    return set_flag


@builder("add.cc", "addc", "sub.cc", "subc")
def b_carry_add(ins, mach):
    _, ut = _types(ins)
    op = ins.parts[0]
    step = _borrow_out if op.startswith("sub") else _carry_out
    carry_in = op in ("addc", "subc")
    ga, gb = srcs(ins, mach, ut)
    w = mach.writer(ins.operands[0], ut)
    set_flag = _flag_writer(mach, "cc" in ins.parts)

    def fn(m, full):
        r, flag = step(ga(), gb(), mach.carry.astype(ut) if carry_in else ut.type(0))
        w(r, m, full)
        set_flag(flag, m, full)
    return fn


@builder("mad.lo.cc", "mad.hi.cc", "madc")
def b_carry_mad(ins, mach):
    dt, ut = _types(ins)
    if "lo" not in ins.parts and "hi" not in ins.parts:
        raise PTXError(f"{ins.opcode}: .lo or .hi is required")
    hi = "hi" in ins.parts
    carry_in = ins.parts[0] == "madc"
    ga, gb = srcs(ins, mach, dt)[:2]
    gc = mach.getter(ins.operands[3], ut)
    w = mach.writer(ins.operands[0], ut)
    set_flag = _flag_writer(mach, "cc" in ins.parts)

    def fn(m, full):
        a, b = ga(), gb()
        prod = (mul_hi(a, b) if hi else a * b).view(ut)
        r, flag = _carry_out(prod, gc(), mach.carry.astype(ut) if carry_in else ut.type(0))
        w(r, m, full)
        set_flag(flag, m, full)
    return fn
