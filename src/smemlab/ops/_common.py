"""What every op shares: argument checking, zero-copy conversion, the caller's stream, kernels.

Use from an op, in this order::

    from smemlab.ops import _common as C

    def my_op(x):
        a, back = C.as_cupy(x, "x", ("float32",), (1, 2))   # checks: no GPU call before they pass
        with C.caller_stream(x):                                # CuPy's current stream = the caller's
            out = cupy.empty(...)                               # allocated on that stream
            k = C.kernel("ops_my.cu", "myKernel", {"TILE": 64})
            C.launch(k, grid, block, out, a, np.int64(a.size))  # enqueued on that stream
            return back(out)                                    # CuPy in -> CuPy out, torch in -> torch out

`check_array` looks only at metadata (type, device, dtype, rank, shape, strides), so wrong
arguments are rejected with a TypeError/ValueError before anything touches a GPU; the CPU tests
rely on that. Accepted inputs:

* `cupy.ndarray` (returned as is, or as the result's type: CuPy);
* `torch.Tensor` on a CUDA device (viewed through DLPack, zero copy; results go back through
  DLPack as torch tensors sharing the memory);
* any other object exposing `__cuda_array_interface__` (Numba, JAX via CAI, ...), viewed zero
  copy; results come back as CuPy arrays.

Host data (NumPy arrays, lists, scalars, CPU tensors) is refused, never copied silently.

The stream: an op runs on the caller's current stream: CuPy's current stream for CuPy inputs,
`torch.cuda.current_stream()` for torch inputs. `caller_stream(x)` makes that stream CuPy's current
stream for the duration of the op (so CuPy allocations and CuPy kernels inside the op are ordered
on it), and `launch` enqueues our kernels on CuPy's current stream.

Kernels: a small per-process, per-device cache (`kernel`) over smemlab.compiler.compile_cubin and
smemlab.gpu.Kernel; lighter than gpu.Runtime (no stream of its own, no facts).
`set_constant` writes a `__constant__` symbol, ordered on the current stream.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

# ------------------------------------------------------------------------------------------------
# argument checking (metadata only: no GPU call)
# ------------------------------------------------------------------------------------------------

_HOST_HINT = "move it to the GPU first (cupy.asarray(x), or torch.as_tensor(x, device='cuda'))"


def _torch_module(x: Any):
    """The torch module if `x` is a torch.Tensor, else None (never imports torch itself)."""
    mod = type(x).__module__ or ""
    if mod.startswith("torch"):
        import sys

        torch = sys.modules.get("torch")
        if torch is not None and isinstance(x, torch.Tensor):
            return torch
    return None


def _cupy_ndarray_type():
    try:
        import cupy
    except Exception:  # pragma: no cover - cupy is a dependency
        return None
    return cupy.ndarray


def kind_of(x: Any) -> str:
    """'cupy', 'torch', 'cai' (other __cuda_array_interface__ objects) or 'host'/'other'."""
    cp_type = _cupy_ndarray_type()
    if cp_type is not None and isinstance(x, cp_type):
        return "cupy"
    if _torch_module(x) is not None:
        return "torch"
    if isinstance(x, np.ndarray) or isinstance(x, (list, tuple, int, float, complex, bool, np.generic)):
        return "host"
    if hasattr(x, "__cuda_array_interface__"):
        return "cai"
    return "other"


def _describe(x: Any) -> str:
    t = type(x)
    name = f"{t.__module__}.{t.__qualname__}" if t.__module__ not in ("builtins",) else t.__qualname__
    return name


def _fmt_list(items: Iterable[Any]) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@functools.lru_cache(maxsize=64)
def _dtypes(names: tuple) -> tuple:
    return tuple(np.dtype(d) for d in names)


class _Lazy:
    """A string computed when formatted (error messages only: the fast path builds none)."""

    def __init__(self, fn):
        self.fn = fn

    def __format__(self, spec):
        return format(self.fn(), spec)

    def __str__(self):
        return self.fn()


class ArrayInfo:
    """What check_array learnt about an argument: its kind, dtype, shape and contiguity."""

    __slots__ = ("kind", "dtype", "shape", "contiguous")

    def __init__(self, kind: str, dtype: np.dtype, shape: tuple[int, ...], contiguous: bool):
        self.kind, self.dtype, self.shape, self.contiguous = kind, dtype, shape, contiguous

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n


def _torch_np_dtype(t: Any) -> np.dtype | None:
    name = str(t.dtype).replace("torch.", "")
    try:
        return np.dtype(name)
    except TypeError:
        return None  # bfloat16 and friends: no NumPy dtype, never accepted here


def _cai_contiguous(shape: tuple[int, ...], strides: tuple[int, ...] | None, itemsize: int) -> bool:
    if strides is None:
        return True
    expected = itemsize
    for dim, stride in zip(reversed(shape), reversed(strides)):
        if dim != 1 and stride != expected:
            return False
        expected *= dim
    return True


def check_array(
    x: Any,
    name: str,
    dtypes: Sequence[Any],
    ndims: Sequence[int],
    *,
    allow_empty: bool = False,
) -> ArrayInfo:
    """Check `x` without touching the GPU; raise TypeError/ValueError naming what was given and
    what is accepted. `dtypes`: accepted dtypes (NumPy names or dtypes); `ndims`: accepted ranks."""
    accepted = _dtypes(tuple(dtypes))
    acc_text = _Lazy(lambda: _fmt_list(d.name for d in accepted))  # built only for a message
    rank_text = _Lazy(lambda: _fmt_list(f"{n}-D" for n in ndims))
    kind = kind_of(x)
    if kind == "host":
        what = f"a NumPy array ({x.dtype}, shape {x.shape})" if isinstance(x, np.ndarray) else f"a host {_describe(x)}"
        raise TypeError(
            f"{name}: expected a GPU array (CuPy array or CUDA torch tensor) of {acc_text}, "
            f"got {what}; {_HOST_HINT}"
        )
    if kind == "other":
        raise TypeError(
            f"{name}: expected a GPU array (CuPy array, CUDA torch tensor, or an object with "
            f"__cuda_array_interface__) of {acc_text}, got {_describe(x)}"
        )
    if kind == "cupy":
        dtype, shape, contiguous = x.dtype, tuple(x.shape), bool(x.flags.c_contiguous)
    elif kind == "torch":
        if x.device.type != "cuda":
            raise TypeError(
                f"{name}: expected a CUDA tensor, got a torch tensor on device '{x.device}'; "
                f"move it with x.cuda() or x.to('cuda')"
            )
        dtype = _torch_np_dtype(x)
        if dtype is None:
            raise TypeError(f"{name}: dtype {x.dtype} is not accepted; accepted: {acc_text}")
        shape, contiguous = tuple(x.shape), bool(x.is_contiguous())
    else:  # cai
        cai = x.__cuda_array_interface__
        dtype = np.dtype(cai["typestr"])
        shape = tuple(int(s) for s in cai["shape"])
        contiguous = _cai_contiguous(shape, cai.get("strides"), dtype.itemsize)
    if dtype not in accepted:
        raise TypeError(f"{name}: dtype {dtype.name} is not accepted; accepted: {acc_text}")
    if len(shape) not in ndims:
        raise ValueError(f"{name}: expected a {rank_text} array, got {len(shape)}-D with shape {shape}")
    if not contiguous:
        raise ValueError(
            f"{name}: expected a C-contiguous array, got a strided view of shape {shape}; "
            f"pass a contiguous copy (cupy.ascontiguousarray(x) or x.contiguous())"
        )
    info = ArrayInfo(kind, dtype, shape, contiguous)
    if not allow_empty and info.size == 0:
        raise ValueError(f"{name}: expected a non-empty array, got shape {shape}")
    return info


def check_dtype_arg(dtype: Any, name: str, accepted: Sequence[Any]) -> np.dtype:
    """A `dtype=` argument: None passes through as None; otherwise one of `accepted`."""
    d = None
    if type(dtype).__module__.startswith("torch"):  # torch.float32 and friends
        dtype_text = str(dtype).replace("torch.", "")
    else:
        dtype_text = dtype
    try:
        d = np.dtype(dtype_text)
    except TypeError:
        d = None
    acc = [np.dtype(a) for a in accepted]
    if d is None or d not in acc:
        raise TypeError(f"{name}: {dtype!r} is not accepted; accepted: {_fmt_list(a.name for a in acc)}")
    return d


# ------------------------------------------------------------------------------------------------
# conversion: zero-copy CuPy views in, the caller's type out
# ------------------------------------------------------------------------------------------------


def _identity(r):
    return r


def _to_torch(r):
    import torch

    return torch.from_dlpack(r)


def as_cupy(
    x: Any,
    name: str,
    dtypes: Sequence[Any],
    ndims: Sequence[int],
    *,
    allow_empty: bool = False,
) -> tuple[Any, Callable[[Any], Any]]:
    """Check `x` (see check_array), then return (a contiguous CuPy view of it, zero copy;
    a function turning a CuPy result into the caller's type: CuPy -> CuPy, torch -> torch
    through DLPack sharing memory, other __cuda_array_interface__ objects -> CuPy)."""
    info = check_array(x, name, dtypes, ndims, allow_empty=allow_empty)
    import cupy

    if info.kind == "cupy":
        return x, _identity
    if info.kind == "torch":
        with caller_stream(x):  # DLPack exchange ordered on the caller's stream: no extra sync
            return cupy.from_dlpack(x), _to_torch
    return cupy.asarray(x), _identity


# ------------------------------------------------------------------------------------------------
# the caller's stream
# ------------------------------------------------------------------------------------------------


def caller_stream_ptr(*arrays: Any) -> int:
    """The handle of the stream an op on `arrays` runs on: torch's current stream if any argument
    is a torch tensor, else CuPy's current stream."""
    for a in arrays:
        torch = _torch_module(a)
        if torch is not None:
            return int(torch.cuda.current_stream(a.device).cuda_stream)
    import cupy

    return int(cupy.cuda.get_current_stream().ptr)


@contextlib.contextmanager
def caller_stream(*arrays: Any):
    """Make the caller's current stream CuPy's current stream inside the block (a no-op for CuPy
    inputs: it already is). Also makes the arrays' device current."""
    torch_arg = next((a for a in arrays if _torch_module(a) is not None), None)
    if torch_arg is None:
        yield
        return
    import cupy

    torch = _torch_module(torch_arg)
    dev = torch_arg.device.index if torch_arg.device.index is not None else torch.cuda.current_device()
    with cupy.cuda.Device(dev):
        ptr = int(torch.cuda.current_stream(torch_arg.device).cuda_stream)
        if ptr == int(cupy.cuda.get_current_stream().ptr):
            yield
            return
        with cupy.cuda.ExternalStream(ptr, dev):
            yield


def _core_stream(ptr: int):
    """A cuda.core Stream for the raw handle `ptr` (0 = legacy default, 2 = per-thread)."""
    from cuda.core import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM, Stream

    if ptr in (0, 1):
        return LEGACY_DEFAULT_STREAM
    if ptr == 2:
        return PER_THREAD_DEFAULT_STREAM
    cached = _STREAMS.get(ptr)
    if cached is None:
        if len(_STREAMS) > 64:
            _STREAMS.clear()
        cached = _STREAMS[ptr] = Stream.from_handle(ptr)
    return cached


_STREAMS: dict[int, Any] = {}


def current_stream():
    """CuPy's current stream as a cuda.core Stream (what `launch` enqueues on)."""
    import cupy

    return _core_stream(int(cupy.cuda.get_current_stream().ptr))


# ------------------------------------------------------------------------------------------------
# kernels: compiled once per process and device
# ------------------------------------------------------------------------------------------------

_LOCK = threading.Lock()
_KERNELS: dict[tuple, Any] = {}
_MODULES: dict[tuple, Any] = {}
_ARCH: dict[int, str] = {}
_TLS = threading.local()


def _device_id() -> int:
    import cupy

    return int(cupy.cuda.Device().id)


def _ensure_core_device(dev: int) -> None:
    current = getattr(_TLS, "devices", None)
    if current is None:
        current = _TLS.devices = set()
    if dev not in current:
        from cuda.core import Device

        Device(dev).set_current()
        current.add(dev)


def arch(dev: int | None = None) -> str:
    """'sm_90' for the current (or given) device."""
    import cupy

    dev = _device_id() if dev is None else dev
    if dev not in _ARCH:
        cc = cupy.cuda.Device(dev).compute_capability  # e.g. '90'
        _ARCH[dev] = f"sm_{cc}"
    return _ARCH[dev]


def _module(source: str, defines: Mapping[str, object], dev: int):
    key = (dev, source, tuple(sorted(defines.items())))
    mod = _MODULES.get(key)
    if mod is None:
        from cuda.core import ObjectCode

        from smemlab.compiler import compile_cubin

        _ensure_core_device(dev)
        cubin = compile_cubin(source, arch(dev), defines)
        mod = _MODULES[key] = (ObjectCode.from_cubin(cubin, name=source), cubin)
    return mod


def kernel(source: str, name: str, defines: Mapping[str, object] | None = None):
    """The smemlab.gpu.Kernel `name` of kernels/<source> compiled with `defines`, for the current
    device (compiled once per process; the cubin is cached on disk by compile_cubin)."""
    defines = dict(defines or {})
    dev = _device_id()
    key = (dev, source, name, tuple(sorted(defines.items())))
    k = _KERNELS.get(key)
    if k is None:
        with _LOCK:
            k = _KERNELS.get(key)
            if k is None:
                from smemlab.cubin import static_shared_bytes
                from smemlab.gpu import Kernel

                module, cubin = _module(source, defines, dev)
                k = _KERNELS[key] = Kernel(name, source, module.get_kernel(name), static_shared_bytes(cubin).get(name, 0))
    return k


def _arg(value: Any) -> Any:
    if hasattr(value, "data") and hasattr(value.data, "ptr"):  # CuPy array: its device pointer
        return np.uintp(value.data.ptr)
    if isinstance(value, (np.generic, np.ndarray)):
        return value
    raise TypeError(f"kernel argument {value!r}: pass a CuPy array or a NumPy scalar (np.int64(...)), not {type(value).__name__}")


def _dim3(v: int | Sequence[int]) -> tuple[int, int, int]:
    dims = (int(v),) if isinstance(v, (int, np.integer)) else tuple(int(d) for d in v)
    return tuple(dims + (1,) * (3 - len(dims)))  # type: ignore[return-value]


def launch(k: Any, grid: int | Sequence[int], block: int | Sequence[int], *args: Any, shmem: int = 0) -> None:
    """Enqueue kernel `k` on CuPy's current stream (inside `caller_stream`, the caller's stream).
    CuPy arrays pass as pointers; other arguments must be NumPy scalars of the parameter's type."""
    from cuda.core import LaunchConfig
    from cuda.core import launch as _launch

    from smemlab.errors import KernelError
    from smemlab.gpu import launch_shape

    _ensure_core_device(_device_id())
    g, b = _dim3(grid), _dim3(block)
    if shmem:
        k.allow_dynamic_smem(shmem)
    config = LaunchConfig(grid=g, block=b, shmem_size=shmem)
    try:
        _launch(current_stream(), config, k.handle, *(_arg(a) for a in args))
    except Exception as exc:
        raise KernelError(k.name, launch_shape(g, b, shmem), exc) from exc


def sm_count() -> int:
    """Multiprocessors of the current device (cached)."""
    import cupy

    dev = _device_id()
    n = _SMS.get(dev)
    if n is None:
        n = _SMS[dev] = int(cupy.cuda.Device(dev).attributes["MultiProcessorCount"])
    return n


_SMS: dict[int, int] = {}


# ------------------------------------------------------------------------------------------------
# __constant__ memory, ordered on the caller's stream
# ------------------------------------------------------------------------------------------------


class _ConstState:
    __slots__ = ("stream", "data", "event")

    def __init__(self):
        self.stream = None
        self.data = None
        self.event = None


_CONST: dict[tuple, _ConstState] = {}


def set_constant(source: str, symbol: str, values: np.ndarray, defines: Mapping[str, object] | None = None) -> None:
    """Write `values` into the `__constant__` symbol of kernels/<source> (the module compiled with
    `defines`), ordered on CuPy's current stream: kernels enqueued before see the old values, after
    it the new. Skips the copy when the symbol already holds these bytes. A kernel reading the
    symbol must be followed by `constant_used(...)` so a later write from another stream waits for it."""
    from cuda.bindings import driver

    defines = dict(defines or {})
    dev = _device_id()
    module, _ = _module(source, defines, dev)
    key = (dev, source, tuple(sorted(defines.items())), symbol)
    data = np.ascontiguousarray(values)
    raw = data.tobytes()
    import cupy

    stream = cupy.cuda.get_current_stream()
    state = _CONST.setdefault(key, _ConstState())
    if state.stream is not None and state.stream != stream.ptr and state.event is not None:
        stream.wait_event(state.event)  # the other stream's kernels must finish reading first
    if state.data == raw:
        state.stream = stream.ptr
        return
    handle = module.handle
    if isinstance(handle, driver.CUlibrary):
        err, dptr, size = driver.cuLibraryGetGlobal(handle, symbol.encode())
    else:
        err, dptr, size = driver.cuModuleGetGlobal(handle, symbol.encode())
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"{source}: no __constant__ symbol {symbol!r} ({err.name})")
    if data.nbytes > size:
        raise ValueError(f"{source}: {symbol} holds {size} bytes, {data.nbytes} given")
    # From pageable memory the driver stages the bytes before returning, so `data` may be freed.
    (err,) = driver.cuMemcpyHtoDAsync(dptr, data.ctypes.data, data.nbytes, stream.ptr)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"copy to {symbol} failed: {err.name}")
    state.stream, state.data = stream.ptr, raw


def constant_used(source: str, symbol: str, defines: Mapping[str, object] | None = None) -> None:
    """Record, after a launch that reads the symbol, an event on the current stream."""
    import cupy

    key = (_device_id(), source, tuple(sorted(dict(defines or {}).items())), symbol)
    state = _CONST.setdefault(key, _ConstState())
    if state.event is None:
        state.event = cupy.cuda.Event(block=False, disable_timing=True)
    stream = cupy.cuda.get_current_stream()
    state.event.record(stream)
    state.stream = stream.ptr
