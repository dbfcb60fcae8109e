"""The ops as torch custom ops: torch.ops.smemlab.{transpose, reduce_sum, stencil1d, histogram, matmul}.

    import torch, smemlab.ops as ops
    f = torch.compile(lambda x, w: ops.reduce_sum(ops.matmul(x, w)), fullgraph=True)

Each op is a `torch.library.custom_op` on CUDA with a fake implementation (register_fake: the result's
shape, dtype and device, for FakeTensors and meta tensors), so torch.compile traces through it with no
graph break and CUDA graphs (mode="reduce-overhead") capture it; transpose, reduce_sum, stencil1d and
matmul have a backward on the library's own kernels (register_autograd); histogram's counts are
integers, with no gradient (its weighted counts have one in the weights: a gather). The CUDA implementations call the ops' `run` functions, which never see a
FakeTensor (smemlab.ops._args refuses one). The public functions of smemlab.ops come here themselves
when a tracer or autograd needs it (smemlab.ops._route); `register` runs on first use, never at
import, since torch is never imported by smemlab.ops itself.
"""

from __future__ import annotations

import importlib
import threading
from typing import Optional

import torch

from smemlab.ops._args import numpy_dtype_of, torch_dtype_of
from smemlab.ops.torch_autograd import add_autograd

# the modules, not the functions smemlab.ops binds to the same names
_histogram, _matmul, _reduce, _stencil, _transpose = (
    importlib.import_module(f"smemlab.ops.{name}") for name in ("histogram", "matmul", "reduce", "stencil", "transpose"))
_LOCK = threading.Lock()
_DONE: list = []


def register():
    """Register the ops (once per process) and return torch.ops.smemlab."""
    with _LOCK:
        if not _DONE:
            _define()
            _DONE.append(True)
    return torch.ops.smemlab


def _define() -> None:
    @torch.library.custom_op("smemlab::transpose", mutates_args=(), device_types="cuda")
    def transpose(x: torch.Tensor) -> torch.Tensor:
        return _transpose.run(x)

    @transpose.register_fake
    def _(x):
        _check_rank(x, _transpose.RANKS)
        return x.new_empty(x.shape[:-2] + (x.shape[-1], x.shape[-2]))

    @torch.library.custom_op("smemlab::reduce_sum", mutates_args=(), device_types="cuda")
    def reduce_sum(x: torch.Tensor, dtype: Optional[torch.dtype] = None, axis: Optional[int] = None) -> torch.Tensor:
        return _reduce.run(x, dtype, axis=axis, pooled=False)

    @reduce_sum.register_fake
    def _(x, dtype=None, axis=None):
        _check_rank(x, _reduce.RANKS)
        if axis is not None:
            _reduce._last_axis(axis, x.dim())
        out = torch_dtype_of(_reduce.result_dtype(_numpy_dtype(x), dtype))
        shape = x.shape[:-1] if axis is not None and x.dim() > 1 else ()
        return x.new_empty(shape, dtype=out)

    @torch.library.custom_op("smemlab::stencil1d", mutates_args=(), device_types="cuda")
    def stencil1d(x: torch.Tensor, coef: list[float]) -> torch.Tensor:
        return _stencil.run(x, coef)

    @stencil1d.register_fake
    def _(x, coef):
        _stencil.coefficients(list(coef))
        _check_rank(x, (1,))
        return torch.empty_like(x, memory_format=torch.contiguous_format)

    @torch.library.custom_op("smemlab::histogram", mutates_args=(), device_types="cuda")
    def histogram(keys: torch.Tensor, bins: int, method: str = "auto", value_range: Optional[list[float]] = None,
                  weights: Optional[torch.Tensor] = None) -> torch.Tensor:
        return _histogram.run(keys, bins, range=value_range, weights=weights, method=method)

    @histogram.register_fake
    def _(keys, bins, method="auto", value_range=None, weights=None):
        bins = _histogram._check_bins(bins)
        _histogram.check_range(value_range)
        _check_rank(keys, (1,))
        if method not in _histogram.METHODS:
            raise ValueError(f"method {method!r}: one of {', '.join(_histogram.METHODS)} is accepted")
        if weights is None:
            return keys.new_empty((bins,), dtype=torch.int32)
        _check_weights(keys, weights, method)
        return keys.new_empty((bins,), dtype=weights.dtype)

    @torch.library.custom_op("smemlab::matmul", mutates_args=(), device_types="cuda")
    def matmul(a: torch.Tensor, b: torch.Tensor, variant: Optional[str] = None, splits: Optional[int] = None) -> torch.Tensor:
        return _matmul.run(a, b, variant=variant, splits=splits)

    @matmul.register_fake
    def _(a, b, variant=None, splits=None):
        _check_rank(a, (2,))
        _check_rank(b, (2,))
        if a.shape[1] != b.shape[0]:
            raise ValueError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} were given; a (M, K) and b (K, N) with "
                             f"equal K are accepted")
        if a.dtype != torch.float32 or b.dtype != torch.float32:
            raise TypeError(f"a, b: float32 is accepted, got {a.dtype} and {b.dtype}. {_matmul.DTYPE_HINT}")
        return a.new_empty((a.shape[0], b.shape[1]), dtype=torch.float32)

    add_autograd(transpose, reduce_sum, stencil1d, matmul, histogram)


def _numpy_dtype(x: torch.Tensor):
    d = numpy_dtype_of(x.dtype)
    if d is None or d not in _reduce.DTYPES:
        raise TypeError(f"x: dtype {x.dtype} is not accepted; accepted: {_reduce.DTYPES.text}")
    return d


def _check_weights(keys: torch.Tensor, weights: torch.Tensor, method: str) -> None:
    """histogram's weights, as _histogram.check_weights refuses them (on metadata alone)."""
    if method != "auto":
        raise ValueError(f"weights: the weighted counts take no method or options (method={method!r} was given)")
    if weights.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"weights: dtype {weights.dtype} is not accepted; accepted: {_histogram.WEIGHT_DTYPES.text}")
    if weights.shape != keys.shape:
        raise ValueError(f"weights: shape {tuple(weights.shape)} was given; the keys' shape {tuple(keys.shape)} is expected")
    if weights.device != keys.device:
        raise ValueError(f"keys are on {keys.device} and weights on {weights.device}; both on one GPU is accepted")


def _check_rank(x: torch.Tensor, ranks) -> None:
    """The fake implementations refuse what the CUDA ones would, at trace time."""
    if x.dim() not in ranks:
        raise ValueError(f"expected a {' or '.join(f'{r}-D' for r in ranks)} tensor, got {x.dim()}-D with shape "
                         f"{tuple(x.shape)}")
