"""The backward passes of the registered torch ops, on the library's own kernels.

- transpose: the gradient's transpose.
- reduce_sum: the gradient broadcast over what was summed (a view, as torch.sum's backward), in the
  input's dtype.
- stencil1d: out = correlate(x, c) with zeros outside [0, n), so dL/dx[j] = sum_i g[i] c[j - i + r]
  = correlate(g, reversed(c))[j], again with zeros outside [0, n): the same kernel, coefficients
  reversed, and the boundary comes out right by itself. The coefficients are constants.
- matmul: dA = dC @ B^T, dB = A^T @ dC (the transposed operands are copied to row-major first: see
  smemlab.ops.matmul).
- histogram: the counts have no gradient; weighted counts out[b] = sum of w[i] over the keys i in bin b
  have dL/dw[i] = g[bin of key i] (0 for a key outside the bins): a gather, by torch (torch.bincount's
  weights have no gradient at all).
Each backward calls torch.ops.smemlab.*, so a compiled backward traces and captures them as well.
"""

from __future__ import annotations

import torch


def add_autograd(transpose, reduce_sum, stencil1d, matmul, histogram) -> None:
    transpose.register_autograd(_transpose_backward)
    histogram.register_autograd(_histogram_backward, setup_context=_histogram_setup)
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


def _histogram_setup(ctx, inputs, output):
    keys, bins, _, value_range, weights = inputs
    ctx.bins, ctx.value_range = bins, value_range
    ctx.save_for_backward(keys if weights is not None else None)


def _histogram_backward(ctx, g):
    from smemlab.ops.histogram import torch_bins

    keys, = ctx.saved_tensors
    gw = None
    if keys is not None and ctx.needs_input_grad[4]:
        k = torch_bins(keys, ctx.bins, ctx.value_range)
        gw = torch.where(k >= 0, g[k.clamp(min=0)], 0)
    return None, None, None, None, gw
