"""Which calls on torch tensors go through the registered ops (torch.ops.smemlab.<op>).

Every call that a tracer or autograd must see does: while torch.compile traces (Dynamo, then
FakeTensors), where autograd records the call (grad mode on and an input that requires grad), and
for tensors with no data (FakeTensor, meta, other subclasses, which dispatch through the op to its
fake implementation or their own handler). An eager call on plain CUDA tensors that records a
gradient, with no mode or transform active, goes to the op's torch.autograd.Function
(smemlab.ops.torch_autograd.eager_functions): the same gradient, without the dispatcher's two trips.
A plain eager call on CUDA tensors that needs no gradient calls the kernels directly: the
dispatcher's path (into the op's Python Autograd kernel, smemlab.ops.torch_autograd) costs
microseconds a call that the ops' host path is measured without, and it would do nothing for such a
call.

Nothing here imports torch: a caller whose arguments are torch tensors has imported it already.
Registration happens at `import smemlab.ops` where torch is imported already, else at the first call
made while torch is imported, outside a trace (torch.compile cannot trace the registration itself).
"""

from __future__ import annotations

import sys
from typing import Any

_REGISTERED: list = []  # [torch.ops.smemlab] once registered
_TORCH: list = []  # [torch.Tensor, torch.compiler.is_compiling, torch.is_grad_enabled]: no attribute look-ups a call
_EAGER: list = []  # [smemlab.ops.torch_ops.EAGER_GRAD's namespace] once registered
_PLAIN: list = []  # [torch.Tensor and the torch._C functions _plain_cuda asks]


def torch_ops(*xs: Any) -> Any:
    """torch.ops.smemlab where this call must go through it, else None."""
    if not _TORCH:
        torch = sys.modules.get("torch")
        if torch is None:
            return None
        _TORCH.extend((torch.Tensor, torch.compiler.is_compiling, torch.is_grad_enabled))
    tensor, compiling, grad_enabled = _TORCH
    if not _REGISTERED:
        if compiling():  # registering is no traceable code: it had to happen before the trace
            raise RuntimeError("smemlab.ops: the torch ops are not registered yet; import torch before smemlab.ops, "
                               "or call smemlab.ops.torch_ops.register() once before torch.compile")
        registered()
    if compiling():
        return _REGISTERED[0]
    grad = False
    for x in xs:
        t = type(x)
        if t is tensor or (t.__name__ == "Parameter" and isinstance(x, tensor)):
            if x.is_meta:
                return _REGISTERED[0]
            grad = grad or (x.requires_grad and grad_enabled())
        elif isinstance(x, tensor):
            return _REGISTERED[0]  # a subclass (FakeTensor, ...)
    if not grad:
        return None
    return _EAGER[0] if _plain_cuda(xs) else _REGISTERED[0]


def _plain_cuda(xs) -> bool:
    """Whether a call that records a gradient may skip the dispatcher: every tensor on a CUDA device
    and nothing that the op's Autograd kernel would redispatch to (a dispatch or function mode, a
    functorch transform); then the op's eager Function (smemlab.ops.torch_autograd.eager_functions)
    records what the Autograd kernel would, for half its host time
    (docs/notes/2026-11-compiled-host-path.md)."""
    if not _PLAIN:
        torch = sys.modules["torch"]
        C = torch._C
        _PLAIN.extend((torch.Tensor, C._len_torch_dispatch_stack, C._is_torch_function_mode_enabled,
                       C._functorch.maybe_current_level))
    tensor, dispatch_modes, function_mode, functorch_level = _PLAIN
    if dispatch_modes() or function_mode() or functorch_level() is not None:
        return False
    return all(isinstance(x, tensor) and x.is_cuda for x in xs)  # else the op's own error, as before


def registered() -> Any:
    """torch.ops.smemlab, registered on first use (smemlab.ops.torch_ops)."""
    if not _REGISTERED:
        from smemlab.ops import torch_ops

        namespace = torch_ops.register()
        _EAGER.append(torch_ops.EAGER_GRAD[0])
        _REGISTERED.append(namespace)
    return _REGISTERED[0]
