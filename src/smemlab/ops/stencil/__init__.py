"""smemlab.ops.stencil1d: a 1-D stencil (correlation) with coefficients in constant memory.

    out[i] = sum_{k=0}^{2r} coef[k] * x[i + k - r],   r = (len(coef) - 1) / 2,

with x taken as 0 outside [0, n): the output has x's length ('same', zero padded), exactly
`cupyx.scipy.ndimage.correlate1d(x, coef, mode='constant', cval=0.0)` and
`numpy.correlate(numpy.pad(x, r), coef, 'valid')`. Note: correlation, not convolution (no flip).

`coef` may be a sequence of numbers, a NumPy array, or a GPU array (copied to the host, which
waits for the device: pass a list or a NumPy array inside CUDA graphs and torch.compile); odd
length 1..65 (radius 0..32). The coefficients travel as a kernel parameter (stencil1d_f32_p: a
struct by value, read through the constant bank like a `__constant__` array), so a call writes no
device state: calls on several streams, and CUDA graphs captured with different coefficients, are
independent.

Differentiable in x for torch tensors: the gradient of a correlation with zero padding is the
correlation of the output's gradient, zero padded, with the coefficients reversed; the
coefficients themselves are constants (no gradient).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smemlab import device
from smemlab.ops._args import Dtypes, kind_of, read
from smemlab.ops._route import torch_ops

SOURCE = "ops/stencil/stencil.cu"
MAX_RADIUS = 32
TILE = 256 * 4 * 4
DTYPES = Dtypes("float32")


# the last few lists or tuples of coefficients -> (as checked, their launch argument); more than one, since a
# forward and backward pass alternate two, the coefficients and their reverse
# (docs/notes/2026-11-compiled-host-path.md)
_CHECKED: dict[tuple, tuple[np.ndarray, Any]] = {}
_CHECKED_MAX = 8


def coefficients(coef: Any) -> np.ndarray:
    """The coefficients as checked float32. A list or tuple equal to one of the last few is not checked
    again (a user's loop passes the same coefficients every call, and checking them is a good share of a
    small call's host time: docs/notes/2026-11-host-path.md)."""
    return _checked(coef)[0]


def _checked(coef: Any) -> tuple[np.ndarray, Any]:
    """(the checked coefficients, their launch argument), both kept for the last few lists or tuples given."""
    if type(coef) in (list, tuple):
        key = tuple(coef)
        try:
            return _CHECKED[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable element: refused by the check below
            return _check_coefficients(coef), None
        c = _check_coefficients(coef)
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.pop(next(iter(_CHECKED)))
        hit = _CHECKED[key] = (c, coef_argument(c))
        return hit
    c = _check_coefficients(coef)
    return c, coef_argument(c)


def _check_coefficients(coef: Any) -> np.ndarray:
    kind = kind_of(coef)
    if kind == "torch":
        coef = coef.detach().cpu().numpy()
    elif kind in ("cupy", "cai"):
        import cupy

        coef = cupy.asnumpy(cupy.asarray(coef))
    if isinstance(coef, (str, bytes)) or np.ndim(coef) != 1:
        raise ValueError(f"coef: expected a 1-D sequence of numbers (odd length, 1 to {2 * MAX_RADIUS + 1}), got {coef!r:.80}")
    try:
        c = np.asarray(coef, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"coef: expected numbers, got {coef!r:.80}") from None
    if c.size % 2 == 0 or c.size > 2 * MAX_RADIUS + 1:
        raise ValueError(f"coef: expected an odd length from 1 to {2 * MAX_RADIUS + 1} (radius 0..{MAX_RADIUS}), got length {c.size}")
    if not np.isfinite(c).all():
        raise ValueError("coef: every coefficient must be finite")
    return c.astype(np.float32)


# radius -> the kernel's template instance, one a radius (each compiled on its own, at its first call)
KERNELS = {r: f"stencil1d_f32_p<{r}>" for r in range(MAX_RADIUS + 1)}
_KERNELS: dict[tuple[int, int], Any] = {}  # (radius, device) -> the kernel: no name built a call


def coef_argument(c: np.ndarray) -> Any:
    """The checked coefficients as stencil1d_f32_p's struct parameter: their bytes, or for one coefficient
    the 4-byte int the launcher packs a 4-byte parameter as."""
    coef = c.tobytes()
    return int.from_bytes(coef, "little", signed=True) if len(coef) == 4 else coef


def launch(out_ptr: int, x_ptr: int, n: int, c: np.ndarray, dev: int, stream: int, arg: Any = None) -> None:
    """Enqueue the stencil of the n >= 1 float32 values at `x_ptr` with the checked float32
    coefficients `c` into `out_ptr` on the raw stream handle `stream` (the coefficients passed by
    value with the launch; `arg`: their coef_argument, where the caller has it): what `stencil1d`
    launches, and what the stencil experiment times as its last variant."""
    radius = (c.size - 1) // 2
    k = _KERNELS.get((radius, dev))
    if k is None:
        k = _KERNELS[(radius, dev)] = device.kernel(SOURCE, KERNELS[radius], device=dev)
    device.launch(k, min(-(-n // TILE), 2**31 - 1), 256,
                  (out_ptr, x_ptr, n, int(x_ptr % 16 == 0), coef_argument(c) if arg is None else arg), stream)


def stencil1d(x: Any, coef: Any) -> Any:
    """The 1-D stencil of float32 `x` (1-D, contiguous, on the GPU) with the odd-length `coef`:
    a new float32 array of x's length and the caller's type, computed on the caller's stream.
    Boundary: zero padding (see the module doc)."""
    ops = torch_ops(x)
    if ops is not None:
        # a list or tuple as it is (the op checks it, in its fake implementation too, where no
        # tracer sees NumPy); anything else checked here, outside a trace
        c = [float(v) for v in coef] if type(coef) in (list, tuple) else coefficients(coef).tolist()
        return ops.stencil1d(x, c)
    return run(x, coef)


def run(x: Any, coef: Any) -> Any:
    """`stencil1d` without the torch dispatcher: what torch.ops.smemlab.stencil1d runs."""
    c, arg = _checked(coef)
    a = read(x, "x", DTYPES, (1,), allow_empty=True)
    with a.on_device():
        n = a.shape[0]
        out, out_ptr = a.empty((n,), a.dtype)
        if n:
            launch(out_ptr, a.ptr, n, c, a.device, a.stream(), arg)
        return out
