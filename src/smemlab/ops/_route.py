"""Which calls on torch tensors go through the registered ops (torch.ops.smemlab.<op>).

Every call that a tracer or autograd must see does: while torch.compile traces (Dynamo, then
FakeTensors), where autograd records the call (grad mode on and an input that requires grad), and
for tensors with no data (FakeTensor, meta, other subclasses, which dispatch through the op to its
fake implementation or their own handler). A plain eager call on CUDA tensors that needs no
gradient calls the kernels directly: the dispatcher's path (into the op's Python Autograd kernel,
smemlab.ops.torch_autograd) costs microseconds a call that the ops' host path is measured without,
and it would do nothing for such a call.

Nothing here imports torch: a caller whose arguments are torch tensors has imported it already.
Registration happens at `import smemlab.ops` where torch is imported already, else at the first call
made while torch is imported, outside a trace (torch.compile cannot trace the registration itself).
"""

from __future__ import annotations

import sys
from typing import Any

_REGISTERED: list = []  # [torch.ops.smemlab] once registered
_TORCH: list = []  # [torch.Tensor, torch.compiler.is_compiling, torch.is_grad_enabled]: no attribute look-ups a call


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
    for x in xs:
        t = type(x)
        if t is tensor:
            if x.is_meta or (x.requires_grad and grad_enabled()):
                return _REGISTERED[0]
        elif isinstance(x, tensor) and (t.__name__ != "Parameter" or x.is_meta or grad_enabled()):
            return _REGISTERED[0]  # a subclass (FakeTensor, ...), or a parameter that records its gradient
    return None


def registered() -> Any:
    """torch.ops.smemlab, registered on first use (smemlab.ops.torch_ops)."""
    if not _REGISTERED:
        from smemlab.ops import torch_ops

        _REGISTERED.append(torch_ops.register())
    return _REGISTERED[0]
