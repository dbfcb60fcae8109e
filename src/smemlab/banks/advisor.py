"""Fixes for a conflicted access: the least padding, and an XOR swizzle that costs no memory.

Both searches reuse the index tuples the analysis already computed and only redo the address
arithmetic, so a full search over a 1024-thread block stays interactive.

- Padding: P extra elements in the last dimension (`--pad P`, relative to the declared shape
  without padding). Bank positions repeat once a row grows by 32 banks' worth of bytes, so trying
  P = 0 .. 32 * bank_width / element_bytes covers every distinct outcome; the smallest P that
  reaches the ideal wins, else the smallest with the fewest wavefronts.
- Swizzle (arrays of 2 or more dimensions): the column index c becomes c ^ g(r), r being the
  next-to-last index and g(r) = ((r / d) % m) * k with d, m, k powers of two and m * k dividing the
  row length, so each row is permuted in place (no extra memory). Simplest forms are tried first.
  The same swizzle must be applied to every access of the array, reads and writes alike.
"""

from __future__ import annotations

import re

import numpy as np

from smemlab.banks.analysis import MAX_SHARED_BYTES, Analysis, analyze
from smemlab.banks.expr import parse_access
from smemlab.banks.model import BANKS, simulate


def _flat_addresses(a: Analysis, indices: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    active = indices[:, 0] >= 0
    flat = np.zeros(indices.shape[0], dtype=np.int64)
    for k, n in enumerate(dims):
        flat = flat * n + indices[:, k]
    return np.where(active, flat * a.element_bytes, -1)


def _cost(a: Analysis, indices: np.ndarray, dims: tuple[int, ...]) -> int:
    return int(simulate(_flat_addresses(a, indices, dims), a.element_bytes, a.op, a.bank_width).wavefronts.sum())


def _paren(text: str) -> str:
    return text if re.fullmatch(r"[\w.]+", text) else f"({text})"


def _swizzle_text(a: Analysis, texts: tuple[str, ...], d: int, m: int, k: int) -> str:
    """`name[...][c ^ g(r)]` written the way a person would, without redundant parts."""
    r = _paren(texts[-2])
    g = f"{r} / {d}" if d > 1 else r
    if -(-a.shape[-2] // d) > m:  # the modulo matters only where r / d can reach m
        g = f"({g}) % {m}" if d > 1 else f"{g} % {m}"
    if k > 1:
        g = f"({g}) * {k}" if g != r else f"{g} * {k}"
    term = g if g == r else f"({g})"
    subs = "".join(f"[{t}]" for t in texts[:-1]) + f"[{_paren(texts[-1])} ^ {term}]"
    return f"{a.array}{subs}"


def _pow2_divisor(n: int) -> int:
    return n & -n


def suggest(expr: str, shape, dtype: str, block, op: str = "load", pad: int = 0, active: str | None = None,
            bank_width: int = 4) -> dict:
    """{"pad", "pad_wavefronts", "swizzle", "swizzle_wavefronts", ...}: see the module docstring."""
    base = analyze(expr, shape, dtype, block, op=op, pad=0, active=active, bank_width=bank_width)
    ideal = base.ideal_wavefronts
    dims0 = base.shape
    idx = base.indices
    texts = parse_access(expr).texts

    best_pad, best_w = 0, None
    for p in range(0, BANKS * bank_width // min(base.element_bytes, bank_width) + 1):
        dims = dims0[:-1] + (dims0[-1] + p,)
        if np.prod(dims) * base.element_bytes > MAX_SHARED_BYTES:
            break
        w = _cost(base, idx, dims)
        if best_w is None or w < best_w:
            best_pad, best_w = p, w
        if w <= ideal:
            break
    padded = dims0[:-1] + (dims0[-1] + best_pad,)
    result = {
        "ideal_wavefronts": ideal,
        "pad": best_pad, "pad_wavefronts": best_w, "pad_reaches_ideal": best_w <= ideal,
        "pad_declaration": base.declaration(padded),
        "swizzle": None, "swizzle_wavefronts": None,
        "swizzle_declaration": base.declaration(),
    }
    if len(dims0) < 2 or base.wavefronts <= ideal:
        return result  # nothing to permute, or nothing to fix

    span = _pow2_divisor(dims0[-1])  # g(r) stays below this, so c ^ g(r) stays inside the row
    pows = [1 << i for i in range(12) if (1 << i) <= max(span, 1)]
    candidates = [(d, m, k) for d in [1 << i for i in range(8)] for m in pows[1:] for k in pows if m * k <= span]
    candidates.sort(key=lambda c: ((c[0] > 1) + (c[2] > 1), c[1], c[0], c[2]))
    act = idx[:, 0] >= 0
    for d, m, k in candidates:
        sw = idx.copy()
        sw[act, -1] = idx[act, -1] ^ (((idx[act, -2] // d) % m) * k)
        if _cost(base, sw, dims0) <= ideal:
            text = _swizzle_text(base, texts, d, m, k)
            check = analyze(text, dims0, dtype, block, op=op, active=active, bank_width=bank_width)
            result["swizzle"], result["swizzle_wavefronts"] = text, check.wavefronts
            break
    return result

