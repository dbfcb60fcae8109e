"""Fixes for a conflicted access: the least padding, and an XOR swizzle that costs no memory.

Both searches reuse the index tuples the analysis already computed and only redo the address
arithmetic, so a full search over a 1024-thread block stays interactive.

- Padding: P extra elements in each row, so the row stride grows from W to W + P. For an array of
  2 or more dimensions a row is the last dimension (`--pad P`, relative to the declared shape).
  For a 1-D array indexed as `row*W + col` (the book's dynamic shared memory, e.g.
  `tile[(ty*32+tx)%32*32 + (ty*32+tx)/32]`), the row stride is the literal W, and the rewritten
  expression uses W + P (and the array grows to rows * (W + P) elements). Bank positions repeat
  once a row grows by 32 banks' worth of bytes, so trying P = 0 .. 32 * bank_width / element_bytes
  covers every distinct outcome; the smallest P that reaches the ideal wins, else the smallest
  with the fewest wavefronts.
- Swizzle: the column index c becomes c ^ g(r), r being the row index and g(r) =
  ((r / d) % m) * k with d, m, k powers of two and m * k dividing the row length, so each row is
  permuted in place (no extra memory). Simplest forms are tried first. The same swizzle must be
  applied to every access of the array, reads and writes alike.

`suggest` returns a dict: ideal_wavefronts; pad, pad_row_stride, pad_wavefronts, pad_reaches_ideal,
pad_declaration, pad_expr (the access as written after padding); swizzle (the access, or None),
swizzle_wavefronts, swizzle_declaration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from smemlab.banks import expr as E
from smemlab.banks.analysis import MAX_SHARED_BYTES, Analysis, analyze, thread_env
from smemlab.banks.model import BANKS, simulate


@dataclass
class _Rows:
    """The access seen as rows: index tuples whose last two entries are (row, column)."""

    dims: tuple[int, ...]  # the last one is the row length W
    indices: np.ndarray  # (threads, len(dims)), -1 rows = no access
    texts: tuple[str | None, ...]  # each index as written (None: a 1-D row*W with no column term)
    stride: E.Node | None = None  # 1-D `row*W + col`: the literal W in the expression


def _flat_addresses(a: Analysis, indices: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    active = indices[:, 0] >= 0
    flat = np.zeros(indices.shape[0], dtype=np.int64)
    for k, n in enumerate(dims):
        flat = flat * n + indices[:, k]
    return np.where(active, flat * a.element_bytes, -1)


def _cost(a: Analysis, indices: np.ndarray, dims: tuple[int, ...]) -> int:
    return int(simulate(_flat_addresses(a, indices, dims), a.element_bytes, a.op, a.bank_width).wavefronts.sum())


def _paren(text: str) -> str:
    return text if re.fullmatch(r"[\w.]+", text) or _wrapped(text) else f"({text})"


def _wrapped(text: str) -> bool:
    """True where the outer parentheses of `text` enclose all of it: (a+b), not (a)+(b)."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def _row_split(a: Analysis, expr: str, active: str | None) -> _Rows | None:
    """A 1-D index of the form row*W + col (or W*row + col, col + row*W, row*W) with 0 <= col < W
    for every thread that accesses: the same access as a 2-D array of W-element rows."""
    node = E.parse_access(expr).indices[0]

    def stride_of(n: E.Node):
        if n.kind == "binary" and n.value == "*":
            for row, lit in (n.args, n.args[::-1]):
                if lit.kind == "num" and lit.value >= 2:
                    return row, lit
        return None

    forms = []
    if node.kind == "binary" and node.value == "+":
        for prod, col in (node.args, node.args[::-1]):
            if stride_of(prod):
                forms.append((*stride_of(prod), col))
    elif stride_of(node):
        forms.append((*stride_of(node), None))
    if not forms:
        return None
    env = thread_env(a.block)
    act = a.indices[:, 0] >= 0
    flat = a.indices[:, 0]
    ev = E.Evaluator(expr, env, lambda i: f"thread {i}")
    for row, lit, col in forms:
        w = int(lit.value)
        try:
            r = np.broadcast_to(ev.eval(row, act), act.shape)
            c = np.zeros_like(r) if col is None else np.broadcast_to(ev.eval(col, act), act.shape)
        except Exception:  # a part that errs on its own (never where the whole evaluated): not this form
            continue
        if ((r[act] < 0) | (c[act] < 0) | (c[act] >= w)).any() or (r[act] * w + c[act] != flat[act]).any():
            continue
        rows = -(-a.shape[0] // w)
        idx = np.where(act[:, None], np.stack([r, c], axis=1), -1)
        col_text = None if col is None else expr[slice(*col.span)]
        return _Rows((rows, w), idx, (expr[slice(*row.span)], col_text), stride=lit)
    return None


def _g_text(r: str, rows: int, d: int, m: int, k: int) -> str:
    """g(r) = ((r / d) % m) * k, written the way a person would, without redundant parts."""
    r = _paren(r)
    g = f"{r} / {d}" if d > 1 else r
    if -(-rows // d) > m:  # the modulo matters only where r / d can reach m
        g = f"({g}) % {m}" if d > 1 else f"{g} % {m}"
    if k > 1:
        g = f"({g}) * {k}" if g != r else f"{g} * {k}"
    return g if g == r else f"({g})"


def _swizzle_text(a: Analysis, expr: str, layout: _Rows, d: int, m: int, k: int) -> str:
    g = _g_text(layout.texts[-2], layout.dims[-2], d, m, k)
    if layout.stride is not None:  # 1-D: row*W + (col ^ g(row))
        row, w = _paren(layout.texts[0]), expr[slice(*layout.stride.span)]
        col = f"({layout.texts[1]} ^ {g})" if layout.texts[1] is not None else g
        return f"{a.array}[{row}*{w} + {col}]"
    subs = "".join(f"[{t}]" for t in layout.texts[:-1]) + f"[{_paren(layout.texts[-1])} ^ {g}]"
    return f"{a.array}{subs}"


def _pow2_divisor(n: int) -> int:
    return n & -n


def suggest(expr: str, shape, dtype: str, block, op: str = "load", pad: int = 0, active: str | None = None,
            bank_width: int = 4) -> dict:
    """{"pad", "pad_wavefronts", "swizzle", "swizzle_wavefronts", ...}: see the module docstring."""
    base = analyze(expr, shape, dtype, block, op=op, pad=0, active=active, bank_width=bank_width)
    ideal = base.ideal_wavefronts
    layout = None
    if len(base.shape) == 1 and base.wavefronts > ideal:
        layout = _row_split(base, expr, active)
    if layout is None:
        layout = _Rows(base.shape, base.indices, E.parse_access(expr).texts)
    dims0, idx = layout.dims, layout.indices

    best_pad, best_w = 0, None
    for p in range(0, BANKS * base.bank_width // min(base.element_bytes, base.bank_width) + 1):
        dims = dims0[:-1] + (dims0[-1] + p,)
        if np.prod(dims) * base.element_bytes > MAX_SHARED_BYTES:
            break
        w = _cost(base, idx, dims)
        if best_w is None or w < best_w:
            best_pad, best_w = p, w
        if w <= ideal:
            break
    stride = dims0[-1] + best_pad
    if layout.stride is not None:
        lo, hi = layout.stride.span
        pad_expr = expr[:lo] + str(stride) + expr[hi:] if best_pad else expr
        padded = (dims0[0] * stride,) if best_pad else base.shape
    else:
        pad_expr, padded = expr, dims0[:-1] + (stride,)
    result = {
        "ideal_wavefronts": ideal,
        "pad": best_pad, "pad_row_stride": stride, "pad_wavefronts": best_w, "pad_reaches_ideal": best_w <= ideal,
        "pad_declaration": base.declaration(padded), "pad_expr": pad_expr,
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
            text = _swizzle_text(base, expr, layout, d, m, k)
            check = analyze(text, base.shape, dtype, block, op=op, active=active, bank_width=bank_width)
            result["swizzle"], result["swizzle_wavefronts"] = text, check.wavefronts
            break
    return result
