"""The 8-bit floats of cvt's e4m3x2 and e5m2x2 forms (Hopper's FP8): values rounded into them and read back.

e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinity, NaN is S.1111.111, the largest
finite value 448. e5m2: sign, 5 exponent bits (bias 15), 2 mantissa bits, IEEE-like (infinities,
NaNs), the largest finite value 57344. PTX converts to them only with .satfinite: an overflow, or an
infinity, becomes the largest finite value of its sign, a NaN stays NaN. Rounding is to nearest even:
a value's quantum (the spacing of the format where it lies) is a power of two, so dividing by it is
exact and np.rint rounds the quotient as the format would.
"""

from __future__ import annotations

import numpy as np

# name -> (exponent bits, mantissa bits, bias, largest finite, NaN code without sign)
FORMATS = {"e4m3": (4, 3, 7, 448.0, 0x7F), "e5m2": (5, 2, 15, 57344.0, 0x7E)}


def encode(x: np.ndarray, fmt: str) -> np.ndarray:
    """uint8 codes of float values, rounded to nearest even, .satfinite."""
    ebits, mbits, bias, top, nan = FORMATS[fmt]
    x = np.asarray(x, dtype=np.float64)
    sign = np.where(np.signbit(x), 0x80, 0).astype(np.uint8)
    a = np.abs(np.nan_to_num(x, nan=0.0, posinf=top, neginf=top))
    _, e = np.frexp(np.where(a > 0, a, 1.0))  # a = f * 2**e with f in [0.5, 1)
    e = np.maximum(e - 1, 1 - bias)  # below the normal range: the subnormals' quantum
    q = np.minimum(np.rint(a / np.exp2(e - mbits)) * np.exp2(e - mbits), top)
    _, qe = np.frexp(np.where(q > 0, q, 1.0))
    normal = q >= 2.0 ** (1 - bias)
    exp = np.where(normal, qe - 1 + bias, 0)
    mant = np.where(normal, q / np.exp2(qe - 1 - mbits) - 2 ** mbits, q / 2.0 ** (1 - bias - mbits))
    code = ((exp.astype(np.int64) << mbits) | mant.astype(np.int64)).astype(np.uint8)
    return np.where(np.isnan(x), np.uint8(nan), code) | sign


def decode(code: np.ndarray, fmt: str) -> np.ndarray:
    """float32 values of uint8 codes."""
    ebits, mbits, bias, _, nan = FORMATS[fmt]
    c = code.astype(np.int64)
    exp, mant = (c >> mbits) & ((1 << ebits) - 1), c & ((1 << mbits) - 1)
    mag = np.where(exp == 0, mant * 2.0 ** (1 - bias - mbits), (1 + mant / 2 ** mbits) * np.exp2(exp - bias))
    if fmt == "e5m2":
        top = exp == (1 << ebits) - 1
        mag = np.where(top, np.where(mant == 0, np.inf, np.nan), mag)
    else:
        mag = np.where((c & 0x7F) == nan, np.nan, mag)
    return np.where(c & 0x80, -mag, mag).astype(np.float32)
