"""The backward passes of the registered torch ops, on the library's own kernels.

- transpose: the gradient's transpose, as a view (`g.transpose(-2, -1)`), as torch's own gradient of
  `x.t().contiguous()` is: no kernel runs in the backward pass; a consumer that needs the gradient
  contiguous pays for the copy where it needs it, and accumulating it into a contiguous `.grad` copies it
  there, as for torch's transpose.
- reduce_sum: the gradient broadcast over what was summed (a view, as torch.sum's backward), in the
  input's dtype.
- stencil1d: out = correlate(x, c) with zeros outside [0, n), so dL/dx[j] = sum_i g[i] c[j - i + r]
  = correlate(g, reversed(c))[j], again with zeros outside [0, n): the same kernel, coefficients
  reversed, and the boundary comes out right by itself. The coefficients are constants.
- matmul: dA = dC @ B^T, dB = A^T @ dC, the transposed views `b.t()` and `a.t()` passed as they are:
  the kernels read a column-major operand in place (smemlab.ops.matmul: layouts), so no copy is made.
- histogram: the counts have no gradient; weighted counts out[b] = sum of w[i] over the keys i in bin b
  have dL/dw[i] = g[bin of key i] (0 for a key outside the bins): a gather, by torch (torch.bincount's
  weights have no gradient at all).
Each backward calls torch.ops.smemlab.*, so a compiled backward traces and captures them as well.

The Autograd kernel of each op (at the dispatcher's Autograd key, above the CUDA, Python (FakeTensor,
dispatch modes) and Meta keys) does what the one torch.library.register_autograd registers does, with
less work a call: where grad mode is on and an input requires grad, a torch.autograd.Function runs
the op below autograd and records the backward; else, for plain CUDA tensors (nothing but the CUDA
key left: no FakeTensor, no mode, no functionalization) it calls the CUDA kernel itself, and for
anything else it redispatches below autograd (to the fake implementation, a mode, ...). The plain
case is every call of a compiled graph that records no gradient: one Python call, no second trip
through the dispatcher. An eager call on plain CUDA tensors that records a gradient takes none of
this: smemlab.ops._route hands it to the op's `eager_functions` Function, whose forward calls the
CUDA kernel itself.
"""

from __future__ import annotations

import torch


def _formulas() -> dict:
    """Each op's formula, (backward, setup_context) as torch.library.register_autograd takes them:
    setup_context(ctx, inputs, output) with every argument in inputs (defaults filled in), and
    backward(ctx, *grads) returning a gradient or None for each."""
    return {"transpose": (_transpose_backward, None), "reduce_sum": (_reduce_backward, _reduce_setup),
            "stencil1d": (_stencil_backward, _stencil_setup), "matmul": (_matmul_backward, _matmul_setup),
            "histogram": (_histogram_backward, _histogram_setup)}


def add_autograd(lib, cuda) -> None:
    """An Autograd kernel for each op of `lib`, the smemlab library; cuda: each op's CUDA kernel by name."""
    for name, (backward, setup) in _formulas().items():
        op = getattr(torch.ops.smemlab, name).default
        lib.impl(name, autograd_kernel(op, cuda[name], backward, setup), "Autograd", with_keyset=True)


def eager_functions(cuda) -> dict:
    """Each op as a torch.autograd.Function whose forward calls the CUDA kernel `cuda[name]` itself, by
    name: the same gradient as the op's Autograd kernel records, for the eager call on plain CUDA
    tensors that records one (smemlab.ops._route sends no other there), without the dispatcher's two
    trips (into the Autograd kernel, then below it to the CUDA kernel), which cost about as much again
    as the Function itself (docs/notes/2026-11-compiled-host-path.md)."""
    functions = {}
    for name, (backward, setup) in _formulas().items():
        op = getattr(torch.ops.smemlab, name).default
        functions[name] = _eager_function(op, cuda[name], backward, setup)
    return functions


def _eager_function(op, kernel, backward, setup_context):
    defaults = tuple(a.default_value for a in op._schema.arguments)
    nargs = len(defaults)

    def forward(ctx, *args):
        out = kernel(*args)
        if setup_context is not None:
            setup_context(ctx, args, out)
        return out

    function = type(f"smemlab_{op._opname}_eager", (torch.autograd.Function,),
                    {"forward": staticmethod(forward), "backward": staticmethod(backward)})
    apply = function.apply

    def call(*args):
        return apply(*args, *defaults[len(args):]) if len(args) < nargs else apply(*args)

    call.__name__ = f"smemlab_{op._opname}"
    return call


def autograd_kernel(op, kernel, backward, setup_context, backend: str = "CUDA"):
    """The Autograd kernel of `op` (an OpOverload with no keyword-only arguments), whose kernel for the
    dispatch key `backend` is `kernel` (called directly where nothing but that key is left)."""
    C = torch._C
    after_autograd, below_autograd = C._after_autograd_keyset, C._AutoDispatchBelowAutograd
    grad_enabled, any_requires_grad = C.is_grad_enabled, C._any_requires_grad
    backend_only = C.DispatchKeySet(getattr(C.DispatchKey, backend)).raw_repr()
    redispatch = op.redispatch
    defaults = tuple(a.default_value for a in op._schema.arguments)

    def forward(ctx, keyset, *args):
        with below_autograd():
            out = redispatch(keyset, *args)
        if setup_context is not None:
            setup_context(ctx, args, out)
        return out

    def backward_(ctx, *grads):
        needs = ctx.needs_input_grad
        ctx.needs_input_grad = needs[1:]  # as the op's inputs, without the keyset
        try:
            g = backward(ctx, *grads)
        finally:
            ctx.needs_input_grad = needs
        return (None, *g) if isinstance(g, tuple) else (None, g)

    function = type(f"smemlab_{op._opname}", (torch.autograd.Function,),
                    {"forward": staticmethod(forward), "backward": staticmethod(backward_)})
    apply = function.apply

    def autograd(keyset, *args):
        keyset = keyset & after_autograd
        if grad_enabled() and any_requires_grad(*args):
            return apply(keyset, *args, *defaults[len(args):])  # the dispatcher leaves out trailing defaults
        if keyset.raw_repr() == backend_only:
            return kernel(*args)
        return redispatch(keyset, *args)

    autograd.__name__ = f"smemlab_{op._opname}_autograd"
    return autograd


def _transpose_backward(ctx, g):
    return g.transpose(-2, -1)


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
