"""The backward passes of the registered torch ops, on the library's own kernels.

- transpose: the gradient's transpose.
- reduce_sum: the gradient broadcast over what was summed (a view, as torch.sum's backward), in the
  input's dtype.
- stencil1d: out = correlate(x, c) with zeros outside [0, n), so dL/dx[j] = sum_i g[i] c[j - i + r]
  = correlate(g, reversed(c))[j], again with zeros outside [0, n): the same kernel, coefficients
  reversed, and the boundary comes out right by itself. The coefficients are constants.
- matmul: dA = dC @ B^T, dB = A^T @ dC (the transposed operands are copied to row-major first: see
  smemlab.ops.matmul).
Each backward calls torch.ops.smemlab.*, so a compiled backward traces and captures them as well.
"""

from __future__ import annotations

import torch


def add_autograd(transpose, reduce_sum, stencil1d, matmul) -> None:
    transpose.register_autograd(_transpose_backward)
    reduce_sum.register_autograd(_reduce_backward, setup_context=_reduce_setup)
    stencil1d.register_autograd(_stencil_backward, setup_context=_stencil_setup)
    matmul.register_autograd(_matmul_backward, setup_context=_matmul_setup)


def _transpose_backward(ctx, g):
    return torch.ops.smemlab.transpose(g)


def _reduce_setup(ctx, inputs, output):
    x, _, axis = inputs
    ctx.shape, ctx.dtype, ctx.rows = x.shape, x.dtype, axis is not None and x.dim() > 1


def _reduce_backward(ctx, g):
    if not ctx.dtype.is_floating_point:
        return None, None, None
    g = g.unsqueeze(-1) if ctx.rows else g
    return g.to(ctx.dtype).expand(ctx.shape), None, None


def _stencil_setup(ctx, inputs, output):
    ctx.reversed = list(reversed(inputs[1]))


def _stencil_backward(ctx, g):
    return torch.ops.smemlab.stencil1d(g, ctx.reversed), None


def _matmul_setup(ctx, inputs, output):
    a, b, _, _ = inputs
    ctx.save_for_backward(a, b)


def _matmul_backward(ctx, g):
    a, b = ctx.saved_tensors
    mm = torch.ops.smemlab.matmul
    ga = mm(g, b.t()) if ctx.needs_input_grad[0] else None
    gb = mm(a.t(), g) if ctx.needs_input_grad[1] else None
    return ga, gb, None, None
