"""The ops as torch operators: torch.ops.smemlab.{transpose, reduce_sum, stencil1d, histogram, matmul}.

    import torch, smemlab.ops as ops
    f = torch.compile(lambda x, w: ops.reduce_sum(ops.matmul(x, w)), fullgraph=True)

Each op is defined with the low-level `torch.library.Library` API (define + impl), not with
`torch.library.custom_op`, whose Python layers around every call (a wrapper of the CUDA kernel that
checks aliasing, an autograd kernel that builds a dataclass and enters a context manager even when
no gradient is needed) cost several times what the dispatcher itself costs a call (measured:
docs/notes/2026-11-host-path.md); a compiled graph calls the op through the dispatcher every time:
- the CUDA kernel: the op's `run` function, which never sees a FakeTensor (smemlab.ops._args refuses one);
- a fake implementation (`torch.library.register_fake`: the result's shape, dtype and device, for
  FakeTensors and, as the op's Meta kernel, meta tensors), so torch.compile traces through it with no
  graph break and CUDA graphs (mode="reduce-overhead") capture it;
- an Autograd kernel (smemlab.ops.torch_autograd): transpose, reduce_sum, stencil1d and matmul have a
  backward on the library's own kernels; histogram's counts are integers, with no gradient (its
  weighted counts have one in the weights: a gather).
No kernel for the CPU: a CPU tensor through torch.ops.smemlab.<op> gets the dispatcher's "Could not
run ... with arguments from the 'CPU' backend", as custom_op(device_types="cuda") gave; the public
functions refuse one themselves. The schemas are those custom_op inferred before (int as SymInt), with
its pt2_compliant tag. The public functions of smemlab.ops come here themselves when a tracer or
autograd needs it (smemlab.ops._route), except an eager call on plain CUDA tensors that records a
gradient, which takes the op's eager Function (EAGER_GRAD, the same backward with no dispatcher:
docs/notes/2026-11-compiled-host-path.md); `register` runs on first use, never at import, since torch
is never imported by smemlab.ops itself.
"""

from __future__ import annotations

import importlib
import threading

import torch

from smemlab.ops._args import numpy_dtype_of, torch_dtype_of
from smemlab.ops.torch_autograd import add_autograd, eager_functions

# the modules, not the functions smemlab.ops binds to the same names
_histogram, _matmul, _reduce, _stencil, _transpose = (
    importlib.import_module(f"smemlab.ops.{name}") for name in ("histogram", "matmul", "reduce", "stencil", "transpose"))
_LOCK = threading.Lock()
_LIB: list = []  # [the Library]: its registrations last as long as it does
EAGER_GRAD: list = []  # [a namespace of eager_functions by op name], made with the registration

SCHEMAS = {
    "transpose": "transpose(Tensor x) -> Tensor",
    "reduce_sum": "reduce_sum(Tensor x, ScalarType? dtype=None, SymInt? axis=None) -> Tensor",
    "stencil1d": "stencil1d(Tensor x, float[] coef) -> Tensor",
    "histogram": 'histogram(Tensor keys, SymInt bins, str method="auto", float[]? value_range=None, '
                 'Tensor? weights=None) -> Tensor',
    "matmul": "matmul(Tensor a, Tensor b, str? variant=None, SymInt? splits=None) -> Tensor",
}


def register():
    """Register the ops (once per process) and return torch.ops.smemlab."""
    with _LOCK:
        if not _LIB:
            lib = torch.library.Library("smemlab", "DEF")
            _define(lib)
            _LIB.append(lib)
            functions = eager_functions(CUDA)
            EAGER_GRAD.append(type("smemlab_eager_grad", (), {n: staticmethod(f) for n, f in functions.items()}))
    return torch.ops.smemlab


# ---- the CUDA kernels: the dispatcher leaves out trailing arguments equal to their defaults ----------------
def transpose_cuda(x):
    return _transpose.run(x)


def reduce_sum_cuda(x, dtype=None, axis=None):
    return _reduce.run(x, dtype, axis=axis, pooled=False)


def stencil1d_cuda(x, coef):
    return _stencil.run(x, coef)


def histogram_cuda(keys, bins, method="auto", value_range=None, weights=None):
    return _histogram.run(keys, bins, range=value_range, weights=weights, method=method)


def matmul_cuda(a, b, variant=None, splits=None):
    return _matmul.run(a, b, variant=variant, splits=splits)


CUDA = {"transpose": transpose_cuda, "reduce_sum": reduce_sum_cuda, "stencil1d": stencil1d_cuda,
        "histogram": histogram_cuda, "matmul": matmul_cuda}


# ---- the fake implementations: they refuse what the CUDA kernels would, at trace time ----------------------
def transpose_fake(x):
    _check_rank(x, _transpose.RANKS)
    return x.new_empty(x.shape[:-2] + (x.shape[-1], x.shape[-2]))


def reduce_sum_fake(x, dtype=None, axis=None):
    _check_rank(x, _reduce.RANKS)
    if axis is not None:
        _reduce._last_axis(axis, x.dim())
    out = torch_dtype_of(_reduce.result_dtype(_numpy_dtype(x), dtype))
    shape = x.shape[:-1] if axis is not None and x.dim() > 1 else ()
    return x.new_empty(shape, dtype=out)


def stencil1d_fake(x, coef):
    _stencil.coefficients(list(coef))
    _check_rank(x, (1,))
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def histogram_fake(keys, bins, method="auto", value_range=None, weights=None):
    bins = _histogram._check_bins(bins)
    _histogram.check_range(value_range)
    _check_rank(keys, (1,))
    if method not in _histogram.METHODS:
        raise ValueError(f"method {method!r}: one of {', '.join(_histogram.METHODS)} is accepted")
    if weights is None:
        return keys.new_empty((bins,), dtype=torch.int32)
    _check_weights(keys, weights, method)
    return keys.new_empty((bins,), dtype=weights.dtype)


def matmul_fake(a, b, variant=None, splits=None):
    _check_rank(a, (2,))
    _check_rank(b, (2,))
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} were given; a (M, K) and b (K, N) with "
                         f"equal K are accepted")
    if a.dtype != torch.float32 or b.dtype != torch.float32:
        raise TypeError(f"a, b: float32 is accepted, got {a.dtype} and {b.dtype}. {_matmul.DTYPE_HINT}")
    return a.new_empty((a.shape[0], b.shape[1]), dtype=torch.float32)


FAKE = {"transpose": transpose_fake, "reduce_sum": reduce_sum_fake, "stencil1d": stencil1d_fake,
        "histogram": histogram_fake, "matmul": matmul_fake}


def _define(lib) -> None:
    for name, schema in SCHEMAS.items():
        lib.define(schema, tags=(torch.Tag.pt2_compliant_tag,))
        lib.impl(name, CUDA[name], "CUDA")
        torch.library.register_fake(f"smemlab::{name}", FAKE[name], lib=lib)
    add_autograd(lib, CUDA)


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
