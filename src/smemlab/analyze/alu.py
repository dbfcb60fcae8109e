"""Arithmetic, logic, comparison, selection, moves and conversions: PTX semantics on NumPy arrays.

Each builder takes one decoded instruction and the machine and returns `fn(mask, full)`, which
computes the result for every thread of the block and stores it where `mask` is set. Integers wrap
as the hardware's do (NumPy's fixed-width dtypes), shifts clamp their amount, division truncates,
`mul.hi`/`mul.wide`/`mad` are exact, float-to-integer conversions round as asked and saturate, and
`prmt`, `bfe`, `bfi`, `bmsk`, `fns`, `popc`, `clz`, `brev`, `bfind`, `dp4a`, `dp2a` follow the ISA's
pseudo-code. Floating-point
arithmetic is IEEE round-to-nearest in the instruction's precision; `.approx` functions (ex2, lg2,
sin, cos, rsqrt, tanh) use NumPy's correctly rounded ones, so their last bit may differ from the
GPU's; directed rounding modes of float arithmetic are computed as round-to-nearest.
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze import fp8, halves
from smemlab.analyze.halves import is_half
from smemlab.analyze.machine import DTYPES, SIGNED, UNSIGNED, Machine
from smemlab.analyze.ptx import Imm, Instr, Pair, PTXError, Reg, Sym, Addr, Vec

BUILDERS: dict = {}  # PTX opcode prefix -> the function that builds the instruction's step
CONTEXT: set = set()  # the builders that take the run's context: ledger=, pc=, ex= (memory accesses, warp state)


def builder(*names, context: bool = False):
    """Register `f(ins, mach)` as the builder of the PTX instructions `names` (an opcode or a prefix of its
    dotted parts); with `context`, `f(ins, mach, ledger=, pc=, ex=)`: the ledger that counts its memory
    accesses, its pc and the executor."""
    def deco(f):
        for n in names:
            BUILDERS[n] = f
        if context:
            CONTEXT.add(f)
        return f
    return deco


def dtype_of(t: str) -> np.dtype:
    try:
        return np.dtype(DTYPES[t])
    except KeyError:
        raise PTXError(f"type .{t} is not supported") from None


def type_part(ins: Instr, skip=()) -> str:
    """The instruction's data type: the last part that names one."""
    for p in reversed(ins.parts[1:]):
        if p in DTYPES and p not in skip:
            return p
    raise PTXError(f"{ins.opcode}: no type")


def srcs(ins: Instr, mach: Machine, dt, start=1):
    return [mach.getter(o, dt) for o in ins.operands[start:]]


# ------------------------------------------------------------------------------ float helpers


half_codec = halves.codec  # f16/bf16 bits to float32 and back


def float_op(ins: Instr, mach: Machine, n_src: int, f):
    """Float arithmetic for f32/f64 directly and f16/bf16 (x2) through float64, rounded once (halves.py)."""
    t = type_part(ins)
    sat = "sat" in ins.parts
    if is_half(t):
        raw = np.uint32 if t.endswith("x2") else np.uint16
        gets = srcs(ins, mach, raw)
        dec, enc = half_codec(t)
        w = mach.writer(ins.operands[0], raw)
        relu = "relu" in ins.parts

        def fn(m, full):
            x = np.asarray(f(*[dec(g()).astype(np.float64) for g in gets]), dtype=np.float64)
            if sat:
                x = np.clip(np.nan_to_num(x, nan=0.0), 0, 1)
            if relu:
                x = np.where(np.isnan(x), x, np.maximum(x, 0))
            w(enc(x), m, full)
        return fn
    dt = dtype_of(t)
    gets = srcs(ins, mach, dt)
    w = mach.writer(ins.operands[0], dt)
    if len(gets) != n_src:
        raise PTXError(f"{ins.opcode}: expected {n_src} sources")
    if sat:
        def fs(m, full):
            w(np.clip(np.nan_to_num(f(*[g() for g in gets]).astype(dt), nan=0.0), 0, 1).astype(dt), m, full)
        return fs
    if n_src == 1:
        (ga,) = gets
        return lambda m, full: w(f(ga()).astype(dt, copy=False), m, full)
    if n_src == 2:
        ga, gb = gets
        return lambda m, full: w(f(ga(), gb()).astype(dt, copy=False), m, full)
    ga, gb, gc = gets
    return lambda m, full: w(f(ga(), gb(), gc()).astype(dt, copy=False), m, full)


def _fma(a, b, c):
    """Fused multiply-add: for float32 the product is exact in float64, and the sum rounded twice
    differs from a single rounding only in rare ties; float64 is not fused."""
    if a.dtype == np.float32:
        return np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64).astype(np.float32)
    return a * b + c


def _is_float(t: str) -> bool:
    return t.startswith("f") or t.startswith("bf")


# ------------------------------------------------------------------------------ integer helpers


def _wide(dt: np.dtype) -> np.dtype:
    return np.dtype(SIGNED[min(dt.itemsize * 2, 8)] if dt.kind == "i" else UNSIGNED[min(dt.itemsize * 2, 8)])


def mul_hi(a, b):
    dt = a.dtype
    if dt.itemsize <= 4:
        wd = _wide(dt)
        return ((a.astype(wd) * b.astype(wd)) >> (8 * dt.itemsize)).astype(dt)
    # 64-bit: exact through Python integers
    prod = [(int(x) * int(y)) >> 64 for x, y in zip(a.tolist(), b.tolist())]
    return np.array([p & 0xFFFFFFFFFFFFFFFF for p in prod], dtype=np.uint64).view(dt)


def int_div(a, b):
    with np.errstate(all="ignore"):
        zero = b == 0
        bs = np.where(zero, 1, b).astype(a.dtype)
        if a.dtype.kind == "u":  # the hardware's quotient of a division by zero: all ones
            return np.where(zero, np.iinfo(a.dtype).max, a // bs).astype(a.dtype)
        q = a // bs
        fix = (a % bs != 0) & ((a < 0) != (bs < 0))
        q = q + fix.astype(a.dtype)
        return np.where(zero, np.array(-1, dtype=a.dtype), q).astype(a.dtype)


def int_rem(a, b):
    with np.errstate(all="ignore"):
        q = int_div(a, b)
        return np.where(b == 0, a, a - q * b).astype(a.dtype)


def shift_left(a, b):
    bits = a.dtype.itemsize * 8
    bb = np.minimum(b.astype(np.uint32), bits - 1).astype(a.dtype)
    return np.where(b.astype(np.uint32) >= bits, np.zeros(1, a.dtype)[0], a << bb)


def shift_right(a, b):
    bits = a.dtype.itemsize * 8
    big = b.astype(np.uint32) >= bits
    bb = np.minimum(b.astype(np.uint32), bits - 1).astype(a.dtype)
    r = a >> bb
    if a.dtype.kind == "i":
        return r  # arithmetic: a shift of bits-1 already gives the sign everywhere
    return np.where(big, np.zeros(1, a.dtype)[0], r)


def popc(a):
    return np.bitwise_count(a.view(UNSIGNED[a.dtype.itemsize])).astype(np.uint32)


def _bit_length(u: np.ndarray) -> np.ndarray:
    """Bits needed for each unsigned value (0 -> 0)."""
    u = u.astype(np.uint64)
    hi = (u >> np.uint64(32)).astype(np.float64)
    lo = (u & np.uint64(0xFFFFFFFF)).astype(np.float64)
    _, ehi = np.frexp(hi)
    _, elo = np.frexp(lo)
    return np.where(hi > 0, ehi + 32, elo).astype(np.int64)


def clz(a):
    bits = a.dtype.itemsize * 8
    return (bits - _bit_length(a.view(UNSIGNED[a.dtype.itemsize]))).astype(np.uint32)


_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def brev(a):
    u = np.ascontiguousarray(a.view(UNSIGNED[a.dtype.itemsize]))
    by = u.view(np.uint8).reshape(u.size, -1)
    return _REV8[by[:, ::-1]].copy().view(u.dtype).ravel().view(a.dtype)


def bfind(a, shiftamt: bool):
    bits = a.dtype.itemsize * 8
    u = a.view(UNSIGNED[a.dtype.itemsize])
    if a.dtype.kind == "i":
        u = np.where(a < 0, ~u, u)
    n = _bit_length(u) - 1
    res = np.where(n < 0, -1, (bits - 1 - n) if shiftamt else n)
    return res.astype(np.int64).astype(np.uint32)


def bfe(a, pos, length):
    bits = a.dtype.itemsize * 8
    pos = (pos.astype(np.uint32) & 0xFF).astype(np.int64)
    ln = (length.astype(np.uint32) & 0xFF).astype(np.int64)
    u = a.view(UNSIGNED[a.dtype.itemsize]).astype(np.uint64)
    msb = bits - 1
    top = np.minimum(pos + ln - 1, msb)
    n = np.clip(np.minimum(ln, bits - pos), 0, bits)  # bits taken from a
    sh = np.minimum(pos, 63).astype(np.uint64)
    field = np.where(pos > msb, 0, u >> sh)
    mask = np.where(n >= 64, np.uint64(0xFFFFFFFFFFFFFFFF),
                    (np.uint64(1) << np.minimum(n, 63).astype(np.uint64)) - np.uint64(1))
    field = field & mask
    if a.dtype.kind == "i":
        sbit = (u >> np.clip(top, 0, msb).astype(np.uint64)) & np.uint64(1)
        sbit = np.where(ln == 0, 0, sbit).astype(np.uint64)
        fill = np.where(sbit == 1, ~mask, np.uint64(0))
        field = field | (fill & np.uint64((1 << bits) - 1))
    field = np.where(ln == 0, 0, field).astype(np.uint64)
    return field.astype(UNSIGNED[a.dtype.itemsize]).view(a.dtype)


def bfi(a, b, pos, length):
    bits = a.dtype.itemsize * 8
    pos = (pos.astype(np.uint32) & 0xFF).astype(np.int64)
    ln = (length.astype(np.uint32) & 0xFF).astype(np.int64)
    n = np.clip(np.minimum(ln, bits - pos), 0, bits)
    ua = a.view(UNSIGNED[a.dtype.itemsize]).astype(np.uint64)
    ub = b.view(UNSIGNED[b.dtype.itemsize]).astype(np.uint64)
    mask = np.where(n >= 64, np.uint64(0xFFFFFFFFFFFFFFFF),
                    (np.uint64(1) << np.minimum(n, 63).astype(np.uint64)) - np.uint64(1))
    sh = np.minimum(pos, 63).astype(np.uint64)
    placed = np.where(pos >= bits, np.uint64(0), (mask & ua) << sh)
    pmask = np.where(pos >= bits, np.uint64(0), mask << sh)
    out = (ub & ~pmask) | placed
    return (out & np.uint64((1 << bits) - 1)).astype(UNSIGNED[a.dtype.itemsize]).view(a.dtype)


_PRMT_MODES = {
    "f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
    "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
    "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
    "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
    "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
}


def prmt(a, b, c, mode=None):
    x = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
    c = c.astype(np.uint32)
    out = np.zeros(a.shape, dtype=np.uint64)
    if mode is None:
        for i in range(4):
            nib = ((c >> np.uint32(4 * i)) & np.uint32(0xF)).astype(np.uint64)
            byte = (x >> ((nib & np.uint64(7)) * np.uint64(8))) & np.uint64(0xFF)
            sign = (nib & np.uint64(8)) != 0
            byte = np.where(sign, np.where(byte & np.uint64(0x80), np.uint64(0xFF), np.uint64(0)), byte)
            out |= byte << np.uint64(8 * i)
    else:
        table = np.array(_PRMT_MODES[mode], dtype=np.uint64)  # [selector][output byte] -> source byte
        sel = (c & np.uint32(3)).astype(np.int64)
        for i in range(4):
            src = table[sel, i]
            out |= ((x >> (src * np.uint64(8))) & np.uint64(0xFF)) << np.uint64(8 * i)
    return out.astype(np.uint32)


def bmsk(a, b, clamp: bool):
    """A mask of b bits from bit a; .wrap takes both mod 32, .clamp gives up past bit 31 (the ISA's pseudo-code)."""
    a, b = a.astype(np.uint64), b.astype(np.uint64)
    a1, b1 = a & np.uint64(31), b & np.uint64(31)
    ones = np.uint64(0xFFFFFFFF)
    mask0 = (ones << a1) & ones
    total = a1 + b1
    mask1 = (ones << np.minimum(total, 63)) & ones
    zero_hi = total >= 32
    if clamp:
        mask0 = np.where(a >= 32, np.uint64(0), mask0)
        zero_hi = zero_hi | (a >= 32) | (b >= 32)
    mask1 = np.where(zero_hi, np.uint64(0), np.where(b1 == 0, ones, mask1))
    return (mask0 & ~mask1 & ones).astype(np.uint32)


def fns(mask, base, offset):
    """The bit position of the |offset|-th set bit of mask from base, upward for offset > 0, downward
    for offset < 0; offset 0 asks whether bit base itself is set; 0xffffffff when there is none."""
    mask, base, off = mask.astype(np.uint64), base.astype(np.int64), offset.astype(np.int32).astype(np.int64)
    out = np.full(mask.shape, 0xFFFFFFFF, dtype=np.uint64)
    step = np.where(off < 0, -1, 1)
    need = np.where(off == 0, 1, np.abs(off))
    pos = base.copy()
    for _ in range(32):
        inside = (pos >= 0) & (pos < 32) & (out == 0xFFFFFFFF)
        bit = inside & (((mask >> np.clip(pos, 0, 31).astype(np.uint64)) & np.uint64(1)) == 1)
        need = need - bit
        out = np.where(bit & (need == 0), pos.astype(np.uint64), out)
        pos = np.where(off == 0, -1, pos + step)  # offset 0 looks at bit base only
    return out.astype(np.uint32)


def lop3(a, b, c, lut: int):
    a, b, c = (v.view(np.uint32) if v.dtype.itemsize == 4 else v for v in (a, b, c))
    out = np.zeros_like(a)
    for i in range(8):
        if lut >> i & 1:
            ta = a if i & 4 else ~a
            tb = b if i & 2 else ~b
            tc = c if i & 1 else ~c
            out |= ta & tb & tc
    return out


def funnel(a, b, n, left: bool, clamp: bool):
    x = (b.astype(np.uint64) << np.uint64(32)) | a.astype(np.uint64)
    n = n.astype(np.uint32)
    n = np.minimum(n, 32) if clamp else (n & np.uint32(31))
    n = n.astype(np.uint64)
    if left:
        return ((x << n) >> np.uint64(32)).astype(np.uint32)
    return (x >> n).astype(np.uint32)


# ------------------------------------------------------------------------------ builders


def _binary(ins, mach, f, dt=None):
    t = type_part(ins)
    dt = dt or dtype_of(t)
    ga, gb = srcs(ins, mach, dt)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(f(ga(), gb()), m, full)


def _agnostic_dtype(ins, mach, t):
    """Add, sub, mul.lo, logic and shl give the same bits for any integer type of one size: compute
    in the destination register's own dtype and skip the views."""
    dt = dtype_of(t)
    d = ins.operands[0]
    if isinstance(d, Reg) and d.name in mach.index:
        sd = mach.dtype[mach.index[d.name]]
        if sd.kind in "iu" and sd.itemsize == dt.itemsize:
            return sd
    return dt


def _sat_add(a, b, sub=False):
    wd = np.int64
    r = a.astype(wd) - b.astype(wd) if sub else a.astype(wd) + b.astype(wd)
    info = np.iinfo(a.dtype)
    return np.clip(r, info.min, info.max).astype(a.dtype)


@builder("add", "sub")
def b_addsub(ins, mach):
    t = type_part(ins)
    sub = ins.parts[0] == "sub"
    if _is_float(t):
        return float_op(ins, mach, 2, np.subtract if sub else np.add)
    if "sat" in ins.parts:
        return _binary(ins, mach, lambda a, b: _sat_add(a, b, sub))
    dt = _agnostic_dtype(ins, mach, t)
    return _binary(ins, mach, np.subtract if sub else np.add, dt)


@builder("mul")
def b_mul(ins, mach):
    t = type_part(ins)
    if _is_float(t):
        return float_op(ins, mach, 2, np.multiply)
    dt = dtype_of(t)
    if "wide" in ins.parts:
        wd = _wide(dt)
        ga, gb = srcs(ins, mach, dt)
        w = mach.writer(ins.operands[0], wd)
        return lambda m, full: w(ga().astype(wd) * gb().astype(wd), m, full)
    if "hi" in ins.parts:
        return _binary(ins, mach, mul_hi)
    return _binary(ins, mach, np.multiply, _agnostic_dtype(ins, mach, t))


@builder("mul24", "mad24")
def b_mul24(ins, mach):
    t = type_part(ins)
    dt = dtype_of(t)
    gets = srcs(ins, mach, dt)
    w = mach.writer(ins.operands[0], dt)
    hi = "hi" in ins.parts

    def f(m, full):
        a, b = gets[0](), gets[1]()
        if dt.kind == "i":
            a24 = ((a.astype(np.int64) << 40) >> 40)
            b24 = ((b.astype(np.int64) << 40) >> 40)
        else:
            a24, b24 = a.astype(np.int64) & 0xFFFFFF, b.astype(np.int64) & 0xFFFFFF
        p = a24 * b24
        r = (p >> 16) if hi else p
        r = (r & 0xFFFFFFFF).astype(np.uint32).view(dt)
        if len(gets) == 3:
            r = r + gets[2]()
        w(r.astype(dt), m, full)
    return f


@builder("mad", "fma")
def b_mad(ins, mach):
    t = type_part(ins)
    if _is_float(t):
        return float_op(ins, mach, 3, _fma)
    dt = dtype_of(t)
    if "wide" in ins.parts:
        wd = _wide(dt)
        ga, gb, gc = mach.getter(ins.operands[1], dt), mach.getter(ins.operands[2], dt), mach.getter(ins.operands[3], wd)
        w = mach.writer(ins.operands[0], wd)
        return lambda m, full: w(ga().astype(wd) * gb().astype(wd) + gc(), m, full)
    if "hi" in ins.parts:
        ga, gb, gc = srcs(ins, mach, dt)
        w = mach.writer(ins.operands[0], dt)
        if "sat" in ins.parts:
            def fsat(m, full):
                r = mul_hi(ga(), gb()).astype(np.int64) + gc().astype(np.int64)
                w(np.clip(r, -2**31, 2**31 - 1).astype(dt), m, full)
            return fsat
        return lambda m, full: w(mul_hi(ga(), gb()) + gc(), m, full)
    dt = _agnostic_dtype(ins, mach, t)
    ga, gb, gc = srcs(ins, mach, dt)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(ga() * gb() + gc(), m, full)


@builder("div")
def b_div(ins, mach):
    t = type_part(ins)
    if _is_float(t):
        return float_op(ins, mach, 2, np.divide)
    return _binary(ins, mach, int_div)


@builder("rem")
def b_rem(ins, mach):
    return _binary(ins, mach, int_rem)


@builder("min", "max")
def b_minmax(ins, mach):
    t = type_part(ins)
    is_min = ins.parts[0] == "min"
    if _is_float(t):
        if "NaN" in ins.parts:
            return float_op(ins, mach, 2, np.minimum if is_min else np.maximum)
        return float_op(ins, mach, 2, np.fmin if is_min else np.fmax)
    if "relu" in ins.parts:
        f = np.minimum if is_min else np.maximum
        return _binary(ins, mach, lambda a, b: np.maximum(f(a, b), 0).astype(a.dtype))
    return _binary(ins, mach, np.minimum if is_min else np.maximum)


@builder("abs", "neg")
def b_absneg(ins, mach):
    t = type_part(ins)
    f = np.abs if ins.parts[0] == "abs" else np.negative
    if _is_float(t):
        return float_op(ins, mach, 1, f)
    dt = dtype_of(t)
    (ga,) = srcs(ins, mach, dt)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(f(ga()), m, full)


@builder("and", "or", "xor", "not", "cnot")
def b_logic(ins, mach):
    t = type_part(ins)
    op = ins.parts[0]
    if t == "pred":
        gets = srcs(ins, mach, np.bool_)
        w = mach.writer(ins.operands[0], np.bool_)
        f = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}.get(op)
        if op in ("not", "cnot"):
            return lambda m, full: w(~gets[0](), m, full)
        ga, gb = gets
        return lambda m, full: w(f(ga(), gb()), m, full)
    dt = _agnostic_dtype(ins, mach, t)
    if op == "not":
        (ga,) = srcs(ins, mach, dt)
        w = mach.writer(ins.operands[0], dt)
        return lambda m, full: w(~ga(), m, full)
    if op == "cnot":
        (ga,) = srcs(ins, mach, dt)
        w = mach.writer(ins.operands[0], dt)
        return lambda m, full: w((ga() == 0).astype(dt), m, full)
    f = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
    return _binary(ins, mach, f, dt)


@builder("lop3")
def b_lop3(ins, mach):
    t = type_part(ins)
    dt = dtype_of(t)
    lut = ins.operands[4]
    if not isinstance(lut, Imm):
        raise PTXError("lop3: the lookup table must be an immediate")
    ga, gb, gc = [mach.getter(o, dt) for o in ins.operands[1:4]]
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(lop3(ga(), gb(), gc(), int(lut.value)).view(dt), m, full)


@builder("shl", "shr")
def b_shift(ins, mach):
    t = type_part(ins)
    dt = _agnostic_dtype(ins, mach, t) if ins.parts[0] == "shl" else dtype_of(t)
    if ins.parts[0] == "shr" and t.startswith("b"):
        dt = np.dtype(UNSIGNED[dt.itemsize])
    ga = mach.getter(ins.operands[1], dt)
    gb = mach.getter(ins.operands[2], np.uint32)
    w = mach.writer(ins.operands[0], dt)
    f = shift_left if ins.parts[0] == "shl" else shift_right
    return lambda m, full: w(f(ga(), gb()), m, full)


@builder("shf")
def b_shf(ins, mach):
    left = "l" in ins.parts
    clamp = "clamp" in ins.parts
    ga, gb, gc = [mach.getter(o, np.uint32) for o in ins.operands[1:4]]
    w = mach.writer(ins.operands[0], np.uint32)
    return lambda m, full: w(funnel(ga(), gb(), gc(), left, clamp), m, full)


@builder("popc", "clz", "brev", "bfind")
def b_bits(ins, mach):
    t = type_part(ins)
    dt = dtype_of(t)
    (ga,) = srcs(ins, mach, dt)
    op = ins.parts[0]
    if op == "brev":
        w = mach.writer(ins.operands[0], dt)
        return lambda m, full: w(brev(ga()), m, full)
    w = mach.writer(ins.operands[0], np.uint32)
    if op == "bfind":
        sa = "shiftamt" in ins.parts
        return lambda m, full: w(bfind(ga(), sa), m, full)
    f = popc if op == "popc" else clz
    return lambda m, full: w(f(ga()), m, full)


@builder("bmsk")
def b_bmsk(ins, mach):
    ga, gb = [mach.getter(o, np.uint32) for o in ins.operands[1:3]]
    w = mach.writer(ins.operands[0], np.uint32)
    clamp = "clamp" in ins.parts
    return lambda m, full: w(bmsk(ga(), gb(), clamp), m, full)


@builder("fns")
def b_fns(ins, mach):
    ga, gb, gc = [mach.getter(o, np.uint32) for o in ins.operands[1:4]]
    w = mach.writer(ins.operands[0], np.uint32)
    return lambda m, full: w(fns(ga(), gb(), gc()), m, full)


def _lanes_of(x: np.ndarray, bits: int, signed: bool) -> list[np.ndarray]:
    """The 32-bit words x cut into 32 / bits fields, lowest first, each sign- or zero-extended (int64)."""
    u = x.astype(np.uint32).astype(np.int64)
    fields = []
    for k in range(32 // bits):
        f = (u >> (bits * k)) & ((1 << bits) - 1)
        fields.append(np.where(f >= 1 << (bits - 1), f - (1 << bits), f) if signed else f)
    return fields


@builder("dp4a", "dp2a")
def b_dot(ins, mach):
    """dp4a.atype.btype d, a, b, c: c plus the dot product of a's and b's four bytes; dp2a.lo/hi: of a's two
    16-bit halves and b's low or high two bytes (the PTX ISA's integer dot products), modulo 2^32."""
    types = [x for x in ins.parts[1:] if x in ("u32", "s32")]
    sa, sb = types[0] == "s32", types[1] == "s32"
    ga, gb, gc = [mach.getter(o, np.uint32) for o in ins.operands[1:4]]
    out_dt = np.int32 if (sa or sb) else np.uint32
    w = mach.writer(ins.operands[0], out_dt)
    hi = "hi" in ins.parts

    def f(m, full):
        if ins.parts[0] == "dp4a":
            pairs = zip(_lanes_of(ga(), 8, sa), _lanes_of(gb(), 8, sb))
        else:
            bb = _lanes_of(gb(), 8, sb)
            pairs = zip(_lanes_of(ga(), 16, sa), bb[2:] if hi else bb[:2])
        acc = gc().astype(np.uint32).astype(np.int64)
        for x, y in pairs:
            acc = acc + x * y
        w((acc & 0xFFFFFFFF).astype(np.uint32).view(out_dt), m, full)
    return f


@builder("bfe")
def b_bfe(ins, mach):
    dt = dtype_of(type_part(ins))
    ga = mach.getter(ins.operands[1], dt)
    gb, gc = mach.getter(ins.operands[2], np.uint32), mach.getter(ins.operands[3], np.uint32)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(bfe(ga(), gb(), gc()), m, full)


@builder("bfi")
def b_bfi(ins, mach):
    dt = dtype_of(type_part(ins))
    ga, gb = mach.getter(ins.operands[1], dt), mach.getter(ins.operands[2], dt)
    gc, gd = mach.getter(ins.operands[3], np.uint32), mach.getter(ins.operands[4], np.uint32)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(bfi(ga(), gb(), gc(), gd()), m, full)


@builder("prmt")
def b_prmt(ins, mach):
    mode = next((p for p in ins.parts[2:] if p in _PRMT_MODES), None)
    ga, gb, gc = [mach.getter(o, np.uint32) for o in ins.operands[1:4]]
    w = mach.writer(ins.operands[0], np.uint32)
    return lambda m, full: w(prmt(ga(), gb(), gc(), mode), m, full)


@builder("sad")
def b_sad(ins, mach):
    dt = dtype_of(type_part(ins))
    ga, gb, gc = srcs(ins, mach, dt)
    w = mach.writer(ins.operands[0], dt)

    def f(m, full):
        a, b = ga(), gb()
        w((np.where(a < b, b - a, a - b) + gc()).astype(dt), m, full)
    return f


@builder("copysign")
def b_copysign(ins, mach):
    return float_op(ins, mach, 2, lambda a, b: np.copysign(b, a))


def _rcp(a):
    with np.errstate(all="ignore"):
        return np.divide(np.ones(1, a.dtype)[0], a)


def _rsqrt(a):
    with np.errstate(all="ignore"):
        return np.divide(np.ones(1, a.dtype)[0], np.sqrt(a))


_UNARY_FLOAT = {
    "rcp": _rcp, "sqrt": np.sqrt, "rsqrt": _rsqrt, "ex2": np.exp2, "lg2": np.log2, "sin": np.sin, "cos": np.cos,
    "tanh": np.tanh,
}


@builder(*_UNARY_FLOAT)
def b_unary_float(ins, mach):
    return float_op(ins, mach, 1, _UNARY_FLOAT[ins.parts[0]])


# ------------------------------------------------------------------------------ compare, select


def compare(cmp: str, a, b):
    fl = a.dtype.kind == "f"
    if cmp in ("eq",):
        return a == b
    if cmp == "ne":
        return (a != b) & ~np.isnan(a) & ~np.isnan(b) if fl else a != b
    if cmp in ("lt", "lo"):
        return a < b
    if cmp in ("le", "ls"):
        return a <= b
    if cmp in ("gt", "hi"):
        return a > b
    if cmp in ("ge", "hs"):
        return a >= b
    if cmp == "equ":
        return (a == b) | np.isnan(a) | np.isnan(b)
    if cmp == "neu":
        return a != b
    if cmp == "ltu":
        return ~(a >= b)
    if cmp == "leu":
        return ~(a > b)
    if cmp == "gtu":
        return ~(a <= b)
    if cmp == "geu":
        return ~(a < b)
    if cmp == "num":
        return ~np.isnan(a) & ~np.isnan(b)
    if cmp == "nan":
        return np.isnan(a) | np.isnan(b)
    raise PTXError(f"comparison .{cmp} is not supported")


_CMPS = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu",
         "num", "nan"}
_BOOLOPS = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}


def _cmp_sources(ins, mach, t):
    if is_half(t):  # a packed pair decodes to (threads, 2): the lower half first
        dec, _ = half_codec(t)
        raw = np.uint32 if t.endswith("x2") else np.uint16
        ga, gb = [mach.getter(o, raw) for o in ins.operands[1:3]]
        if t.endswith("x2"):
            return (lambda: dec(ga()).reshape(-1, 2)), (lambda: dec(gb()).reshape(-1, 2))
        return (lambda: dec(ga())), (lambda: dec(gb()))
    dt = dtype_of(t)
    if t.startswith("b"):
        dt = np.dtype(UNSIGNED[dt.itemsize])
    return mach.getter(ins.operands[1], dt), mach.getter(ins.operands[2], dt)


@builder("setp")
def b_setp(ins, mach):
    cmp = next(p for p in ins.parts[1:] if p in _CMPS)
    boolop = next((p for p in ins.parts[1:] if p in _BOOLOPS), None)
    t = ins.parts[-1]
    ga, gb = _cmp_sources(ins, mach, t)
    bf = _BOOLOPS.get(boolop)
    dest = ins.operands[0]
    gc = mach.getter(ins.operands[3], np.bool_) if boolop else None
    if t.endswith("x2"):  # setp.f16x2 p|q: p from the lower halves, q from the upper ones
        wp, wq = mach.writer(dest.first, np.bool_), mach.writer(dest.second, np.bool_)

        def pair(m, full):
            r = compare(cmp, ga(), gb())
            if bf is not None:
                r = bf(r, gc()[:, None])
            wp(r[:, 0], m, full)
            wq(r[:, 1], m, full)
        return pair
    if isinstance(dest, Pair):
        wp, wq = mach.writer(dest.first, np.bool_), mach.writer(dest.second, np.bool_)
    else:
        wp, wq = mach.writer(dest, np.bool_), None

    def f(m, full):
        r = compare(cmp, ga(), gb())
        if bf is not None:
            c = gc()
            wp(bf(r, c), m, full)
            if wq:
                wq(bf(~r, c), m, full)
        else:
            wp(r, m, full)
            if wq:
                wq(~r, m, full)
    return f


@builder("set")
def b_set(ins, mach):
    cmp = next(p for p in ins.parts[1:] if p in _CMPS)
    boolop = next((p for p in ins.parts[1:] if p in _BOOLOPS), None)
    dtyp, styp = ins.parts[-2], ins.parts[-1]
    ga, gb = _cmp_sources(ins, mach, styp)
    gc = mach.getter(ins.operands[3], np.bool_) if boolop else None
    ddt = dtype_of(dtyp)
    if is_half(dtyp):  # 1.0 of the half type (each half of a pair), written as its bits
        ddt = np.dtype(np.uint32 if dtyp.endswith("x2") else np.uint16)
        one = halves.encode(np.ones(1), dtyp.removesuffix("x2"))[0]
    else:
        one = np.array(1.0, ddt) if ddt.kind == "f" else np.array(-1).astype(ddt)
    w = mach.writer(ins.operands[0], ddt)
    bf = _BOOLOPS.get(boolop)
    packed = styp.endswith("x2")
    half_one = np.uint32(one) if is_half(dtyp) else np.uint32(0xFFFF)  # a packed result: per half

    def f(m, full):
        r = compare(cmp, ga(), gb())
        if bf is not None:
            r = bf(r, gc()[:, None] if packed else gc())
        if packed:
            w((np.where(r[:, 1], half_one, 0) << np.uint32(16) | np.where(r[:, 0], half_one, 0)).astype(ddt), m, full)
            return
        w(np.where(r, one, np.zeros(1, ddt)[0]).astype(ddt), m, full)
    return f


@builder("selp")
def b_selp(ins, mach):
    dt = dtype_of(type_part(ins))
    ga, gb = mach.getter(ins.operands[1], dt), mach.getter(ins.operands[2], dt)
    gp = mach.getter(ins.operands[3], np.bool_)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(np.where(gp(), ga(), gb()), m, full)


@builder("slct")
def b_slct(ins, mach):
    dt = dtype_of(ins.parts[-2])
    ct = dtype_of(ins.parts[-1])
    ga, gb = mach.getter(ins.operands[1], dt), mach.getter(ins.operands[2], dt)
    gc = mach.getter(ins.operands[3], ct)
    w = mach.writer(ins.operands[0], dt)
    return lambda m, full: w(np.where(gc() >= 0, ga(), gb()), m, full)


@builder("testp")
def b_testp(ins, mach):
    kind = ins.parts[1]
    dt = dtype_of(ins.parts[-1])
    ga = mach.getter(ins.operands[1], dt)
    w = mach.writer(ins.operands[0], np.bool_)
    tiny = np.finfo(dt).tiny
    f = {"finite": np.isfinite, "infinite": np.isinf, "number": lambda a: ~np.isnan(a), "notanumber": np.isnan,
         "normal": lambda a: np.isfinite(a) & (np.abs(a) >= tiny),
         "subnormal": lambda a: (np.abs(a) < tiny) & (a != 0)}.get(kind)
    if f is None:
        raise PTXError(f"{ins.opcode} is not supported")
    return lambda m, full: w(f(ga()), m, full)


# ------------------------------------------------------------------------------ moves


@builder("mov")
def b_mov(ins, mach):
    t = type_part(ins)
    dt = dtype_of(t)
    d, s = ins.operands[0], ins.operands[1]
    if isinstance(d, Vec):  # unpack: mov.b64 {%r1, %r2}, %rd1
        n = len(d.items)
        part = np.dtype(UNSIGNED[dt.itemsize // n])
        gs = mach.getter(s, UNSIGNED[dt.itemsize])
        ws = [mach.writer(x, part) for x in d.items]

        def unpack(m, full):
            v = np.ascontiguousarray(gs()).view(part).reshape(-1, n)
            for k, wk in enumerate(ws):
                wk(v[:, k], m, full)
        return unpack
    if isinstance(s, Vec):  # pack: mov.b64 %rd1, {%r1, %r2}
        n = len(s.items)
        part = np.dtype(UNSIGNED[dt.itemsize // n])
        gs = [mach.getter(x, part) for x in s.items]
        w = mach.writer(d, UNSIGNED[dt.itemsize])

        def pack(m, full):
            w(np.stack([g() for g in gs], axis=1).view(UNSIGNED[dt.itemsize]).ravel(), m, full)
        return pack
    if isinstance(s, (Sym, Addr)):
        space, _ = mach.address_of(s)
        g = mach.getter(s, UNSIGNED[dt.itemsize] if space else dt)
    else:
        g = mach.getter(s, dt)
    w = mach.writer(d, dt)
    return lambda m, full: w(g(), m, full)


# ------------------------------------------------------------------------------ conversions

_IRND = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}
_FRND = ("rn", "rz", "rm", "rp", "rna")


def _directed(x64: np.ndarray, r32: np.ndarray, mode: str) -> np.ndarray:
    """Round float64 values to float32 (or a float64 result of an integer conversion) by `mode`,
    from the round-to-nearest value r32."""
    if mode in ("rn", None):
        return r32
    back = r32.astype(np.float64)
    if mode == "rz":
        over = np.abs(back) > np.abs(x64)
        return np.where(over, np.nextafter(r32, np.zeros(1, r32.dtype)[0]), r32)
    if mode == "rm":
        return np.where(back > x64, np.nextafter(r32, np.array(-np.inf, r32.dtype)), r32)
    if mode == "rp":
        return np.where(back < x64, np.nextafter(r32, np.array(np.inf, r32.dtype)), r32)
    if mode == "rna":
        return r32
    return r32


def convert_values(x, src_t: str, dst_t: str, mods: tuple[str, ...]):
    """cvt's semantics on arrays: x holds values of type src_t (f16/bf16 as raw bits)."""
    sat = "sat" in mods or "satfinite" in mods
    irnd = next((p for p in mods if p in _IRND), None)
    frnd = next((p for p in mods if p in _FRND), None)
    relu = "relu" in mods
    # decode the source to a NumPy value array
    if src_t in ("f16", "bf16"):
        dec, _ = half_codec(src_t)
        v = dec(x)
        src_float = True
    else:
        v = x
        src_float = src_t.startswith("f")
    ddt = dtype_of(dst_t)
    if dst_t in ("f16", "bf16"):
        f = v.astype(np.float64)
        if irnd:
            f = _IRND[irnd](f)
        if relu:
            f = np.where(np.isnan(f), f, np.maximum(f, 0))
        if "sat" in mods:
            f = np.clip(np.nan_to_num(f, nan=0.0), 0, 1)
        return halves.encode(f, dst_t, frnd or "rn", "satfinite" in mods)
    if dst_t.startswith("f"):
        if src_float:
            if irnd:
                r = _IRND[irnd](v).astype(ddt)
            else:
                r = v.astype(ddt)
                if ddt.itemsize < v.dtype.itemsize and frnd:
                    r = _directed(v.astype(np.float64), r, frnd)
        else:
            r = v.astype(ddt)
            if frnd and frnd != "rn":
                r = _directed(v.astype(np.float64), r, frnd)
        if sat:
            r = np.clip(np.nan_to_num(r, nan=0.0), 0, 1).astype(ddt)
        return r
    # integer destination
    if src_float:
        f = v.astype(np.float64)
        f = _IRND.get(irnd, np.trunc)(f)
        info = np.iinfo(ddt)
        f = np.where(np.isnan(f), 0, np.clip(f, info.min, info.max))
        if ddt.itemsize == 8:  # float64 cannot hold 2^63 - 1 exactly: clamp in integers
            big = f >= float(info.max)
            out = f.astype(np.float64)
            r = np.where(big, info.max, np.where(f <= float(info.min), info.min, 0)).astype(ddt)
            mid = ~big & (f > float(info.min))
            r[mid] = out[mid].astype(ddt)
            return r
        return f.astype(ddt)
    if sat:
        info = np.iinfo(ddt)
        wide = v.astype(np.float64) if v.dtype.itemsize == 8 else v.astype(np.int64)
        if v.dtype.itemsize == 8 and v.dtype.kind == "u":
            r = np.minimum(v, np.uint64(info.max)).astype(ddt)
            return r
        if v.dtype.itemsize == 8 and v.dtype.kind == "i":
            return np.clip(v, max(info.min, -2**63), min(info.max, 2**63 - 1)).astype(ddt)
        return np.clip(wide, info.min, info.max).astype(ddt)
    return v.astype(ddt)


def _cvt_fp8(ins, mach, fmt: str):
    """cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper byte) and cvt.rn.f16x2.{..}x2 d, a."""
    w = mach.writer(ins.operands[0], np.uint16 if ins.parts[-1] == "f32" else np.uint32)
    if ins.parts[-1] == "f32":
        ga, gb = mach.getter(ins.operands[1], np.float32), mach.getter(ins.operands[2], np.float32)
        return lambda m, full: w((fp8.encode(ga(), fmt).astype(np.uint16) << np.uint16(8))
                                 | fp8.encode(gb(), fmt).astype(np.uint16), m, full)
    if ins.parts[-2] != "f16x2":
        raise PTXError(f"{ins.opcode} is not supported")
    _, enc = half_codec("f16")
    g = mach.getter(ins.operands[1], np.uint16)

    def unpack(m, full):
        v = g()
        lo, hi = (enc(fp8.decode((v >> np.uint16(s)) & np.uint16(0xFF), fmt)).astype(np.uint32) for s in (0, 8))
        w((hi << np.uint32(16)) | lo, m, full)
    return unpack


def _cvt_tf32(ins, mach, src_t: str):
    """cvt.{rna,rn,rz}{.relu,.satfinite}.tf32.f32: the float32 rounded to tf32's 10 mantissa bits, held as a
    float32 whose low 13 bits are zero (Triton's tf32x3 dot splits a float into two such parts with it)."""
    if src_t != "f32":
        raise PTXError(f"{ins.opcode}: only a .f32 source is supported")
    g = mach.getter(ins.operands[1], np.uint32)
    w = mach.writer(ins.operands[0], np.uint32)
    mode = next((p for p in ins.parts if p in ("rna", "rn", "rz")), "rna")
    relu, sat = "relu" in ins.parts, "satfinite" in ins.parts
    low = np.uint32(0x1FFF)

    def f(m, full):
        bits = g()
        special = (bits & np.uint32(0x7F800000)) == np.uint32(0x7F800000)  # Inf and NaN pass through
        if mode == "rna":  # to nearest, ties away from zero: half an ulp added to the magnitude
            up = bits + np.uint32(0x1000)
        elif mode == "rn":  # to nearest, ties to even
            up = bits + np.uint32(0xFFF) + ((bits >> np.uint32(13)) & np.uint32(1))
        else:
            up = bits
        out = np.where(special, bits, up & ~low).astype(np.uint32)
        if sat:  # a finite value rounded past the largest tf32 stays the largest
            big = ((out & np.uint32(0x7F800000)) == np.uint32(0x7F800000)) & ~special
            out = np.where(big, (bits & np.uint32(0x80000000)) | np.uint32(0x7F7FE000), out)
        if relu:
            out = np.where((out >> np.uint32(31)).astype(bool) & ~special, np.uint32(0), out)
        w(out.astype(np.uint32), m, full)
    return f


@builder("cvt")
def b_cvt(ins, mach):
    fmt = next((p[:-2] for p in ins.parts if p in ("e4m3x2", "e5m2x2")), None)
    if fmt is not None:
        return _cvt_fp8(ins, mach, fmt)
    types = [p for p in ins.parts[1:] if p in DTYPES]
    if len(types) < 2:
        raise PTXError(f"{ins.opcode}: not understood")
    dst_t, src_t = types[-2], types[-1]
    if dst_t == "tf32":
        return _cvt_tf32(ins, mach, src_t)
    if dst_t.endswith("x2") or src_t.endswith("x2"):
        if dst_t.endswith("x2") and len(ins.operands) == 3:  # cvt.rn.f16x2.f32 d, a, b: a -> upper half
            ga, gb = mach.getter(ins.operands[1], np.float32), mach.getter(ins.operands[2], np.float32)
            w = mach.writer(ins.operands[0], np.uint32)
            mods, half = ins.parts[1:], dst_t[:-2]

            def pack(m, full):
                hi, lo = (convert_values(g(), src_t, half, mods).astype(np.uint32) for g in (ga, gb))
                w((hi << np.uint32(16)) | lo, m, full)
            return pack
        raise PTXError(f"{ins.opcode} is not supported")
    sdt = np.dtype(np.uint16) if src_t in ("f16", "bf16") else dtype_of(src_t)
    ddt = np.dtype(np.uint16) if dst_t in ("f16", "bf16") else dtype_of(dst_t)
    ga = mach.getter(ins.operands[1], sdt)
    w = mach.writer(ins.operands[0], ddt)
    mods = ins.parts[1:]
    if src_t == dst_t and not any(p in _IRND for p in mods) and "sat" not in mods:
        return lambda m, full: w(ga(), m, full)
    if sdt.kind in "iu" and ddt.kind in "iu" and "sat" not in mods and src_t not in ("f16", "bf16") \
            and dst_t not in ("f16", "bf16"):
        return lambda m, full: w(ga().astype(ddt), m, full)
    return lambda m, full: w(convert_values(ga(), src_t, dst_t, mods), m, full)


@builder("cvt.pack")
def b_cvt_pack(ins, mach):
    raise PTXError(f"{ins.opcode} is not supported")


@builder("szext")
def b_szext(ins, mach):
    dt = dtype_of(ins.parts[-1])
    signed = ins.parts[-1] == "s32"  # szext.mode.s32 sign-extends, .u32 zero-extends
    ga, gb = mach.getter(ins.operands[1], dt), mach.getter(ins.operands[2], np.uint32)
    w = mach.writer(ins.operands[0], dt)

    wrap = "wrap" in ins.parts

    def f(m, full):
        a = ga().view(np.uint32).astype(np.uint64)
        b = gb()
        n = (b & np.uint32(31) if wrap else np.minimum(b, 32)).astype(np.uint64)  # .wrap: N mod 32 (the ISA)
        mask = (np.uint64(1) << n) - np.uint64(1)
        v = a & mask
        if signed:
            sign = np.where(n > 0, (v >> np.maximum(n, 1) - np.uint64(1)) & np.uint64(1), 0).astype(bool)
            v = np.where(sign, v | (~mask & np.uint64(0xFFFFFFFF)), v)
        w(v.astype(np.uint32).view(dt), m, full)
    return f
