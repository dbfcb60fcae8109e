"""f16 and bf16: their bits decoded, and values rounded into them once, by any of cvt's rounding modes.

Half-precision arithmetic is computed in float64 and rounded once into the format, as the hardware
rounds once: the product of two halves is exact in float64, so fma, add and mul round exactly as a
fused half operation does. float64 reaches f16 through NumPy's direct conversion (round to nearest
even, subnormals and overflow included); bf16 through float32 rounded to odd, which keeps a second
rounding to nearest even exact (the float32 has more than 8 + 2 significand bits). The directed
modes (rz, rm, rp) step the nearest value one unit toward zero, down or up where it lies past the
exact value; both formats are sign and magnitude, so a step is the magnitude's bits plus or minus 1.
"""

from __future__ import annotations

import numpy as np

# the largest finite value's bits: where .satfinite clamps an overflow
MAX_FINITE = {"f16": np.uint16(0x7BFF), "bf16": np.uint16(0x7F7F)}


def is_half(t: str) -> bool:
    return t in ("f16", "bf16", "f16x2", "bf16x2")


def bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16(x: np.ndarray) -> np.ndarray:
    b = np.asarray(x, dtype=np.float32).view(np.uint32)
    rounded = ((b.astype(np.uint64) + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), rounded)


def _to_odd_f32(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounded to odd: truncated, its last bit set where anything was cut off."""
    r = x.astype(np.float32)
    back = r.astype(np.float64)
    r = np.where(np.abs(back) > np.abs(x), np.nextafter(r, np.float32(0)), r)
    inexact = np.isfinite(x) & (r.astype(np.float64) != x)
    return np.where(inexact, (r.view(np.uint32) | np.uint32(1)).view(np.float32), r)


def decode(bits: np.ndarray, t: str) -> np.ndarray:
    """float32 values of f16/bf16 bits (uint16)."""
    if t == "f16":
        return bits.view(np.float16).astype(np.float32)
    return bf16_to_f32(bits)


def _step(bits: np.ndarray, up) -> np.ndarray:
    """The next representable value up (or down) from each value's bits."""
    sign = bits & np.uint16(0x8000)
    mag = (bits & np.uint16(0x7FFF)).astype(np.int32)
    grow = np.where(sign != 0, ~up, up)  # up from a positive, down from a negative: a larger magnitude
    zero = mag == 0
    mag = np.where(grow | zero, mag + 1, mag - 1)
    sign = np.where(zero, np.where(up, np.uint16(0), np.uint16(0x8000)), sign)
    return (sign | mag.astype(np.uint16)).astype(np.uint16)


def encode(x: np.ndarray, t: str, mode: str = "rn", satfinite: bool = False) -> np.ndarray:
    """Bits (uint16) of float values rounded into f16/bf16 by mode rn (nearest even), rz, rm or rp."""
    x = np.asarray(x, dtype=np.float64)
    bits = x.astype(np.float16).view(np.uint16) if t == "f16" else f32_to_bf16(_to_odd_f32(x))
    if mode in ("rz", "rm", "rp"):
        back = decode(bits, t).astype(np.float64)
        if mode == "rz":
            fix, up = np.abs(back) > np.abs(x), back < 0
        elif mode == "rm":
            fix, up = back > x, np.zeros(x.shape, dtype=bool)
        else:
            fix, up = back < x, np.ones(x.shape, dtype=bool)
        bits = np.where(fix, _step(bits, up), bits)
    if satfinite:
        inf = np.isinf(decode(bits, t)) & ~np.isnan(x)
        bits = np.where(inf, MAX_FINITE[t] | (bits & np.uint16(0x8000)), bits)
    return bits.astype(np.uint16)


def codec(t: str):
    """(decode to float32, encode from float32 or float64 to nearest) for f16/bf16 and their x2 forms
    on 32-bit words."""
    base = t[:-2] if t.endswith("x2") else t
    if t.endswith("x2"):
        return (lambda v: decode(np.ascontiguousarray(v).view(np.uint16), base)), \
            (lambda x: encode(x, base).view(np.uint32))
    return (lambda v: decode(v.view(np.uint16), base)), (lambda x: encode(x, base))
