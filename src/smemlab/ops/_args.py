"""How an op reads its array arguments: metadata once, checks on plain Python values, no copies.

    a = read(x, "x", F32, (1,))          # TypeError / ValueError before any GPU call
    with a.on_device():                  # the input's device current (a no-op when it already is)
        out, out_ptr = a.empty(shape, dtype)   # the caller's framework, on the input's device
        device.launch(k, grid, block, (out_ptr, a.ptr, ...), a.stream())
        return out

Accepted inputs: `cupy.ndarray`; a `torch.Tensor` on a CUDA device (its pointer, shape and
stream read from the tensor itself: no DLPack round trip); any other CUDA object with `__dlpack__`
(JAX, ...: taken in through `cupy.from_dlpack`, which hands the producer the consumer's stream, so
the producer orders its writes before our reads) or with `__cuda_array_interface__` (Numba, ...:
a v3 `stream` is made to wait for by an event on the stream the op runs on, no host sync; the
device is the pointer's). Results of those come back as CuPy arrays. Host data (NumPy arrays,
lists, scalars, CPU tensors) is refused, never copied silently; so are FakeTensors and meta
tensors (they have no data: torch.compile calls the registered ops, whose fake implementations
serve them).

Strided views are accepted: the kernels read dense rows, so a view that is not C-contiguous is
copied to a contiguous array by its own framework (`Tensor.contiguous()`, `cupy.ascontiguousarray`)
on the call's stream, once, before the launch; except where an op has kernels for the view's layout
(matmul reads a column-major operand, `column_major`, in place).

The stream: an op runs on the caller's current stream, the one its framework would use: torch's
current stream of the tensor's device (`torch.cuda.current_stream`), or CuPy's current stream.
Outputs are allocated by the caller's framework on that stream, so its caching allocator sees
them used where they were made.

Every check here looks at metadata alone, so the CPU tests run them with no GPU.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Iterable, Sequence

import numpy as np

_HOST_HINT = "move it to the GPU first (cupy.asarray(x), or torch.as_tensor(x, device='cuda'))"

# bfloat16 has no NumPy dtype (and CuPy arrays cannot hold it): a torch bfloat16 tensor is read with
# this stand-in, a 2-byte structured dtype that no CuPy array or __cuda_array_interface__ typestr
# carries, so only torch tensors ever have it. Kernels see its raw 16-bit words.
BF16 = np.dtype([("bfloat16", "<u2")])


def as_dtype(d: Any) -> np.dtype:
    """A dtype from a NumPy dtype, a name, or a torch dtype; "bfloat16" is BF16."""
    if isinstance(d, np.dtype):
        return d
    if type(d).__module__.startswith("torch"):
        d = str(d).replace("torch.", "")
    return BF16 if (isinstance(d, str) and d == "bfloat16") else np.dtype(d)


def dtype_name(d: np.dtype) -> str:
    return "bfloat16" if d == BF16 else d.name


class Dtypes:
    """A set of accepted dtypes, built once per op (membership tests on the hot path are set look-ups)."""

    def __init__(self, *names: str):
        self.dtypes = tuple(as_dtype(n) for n in names)
        self.set = frozenset(self.dtypes)
        self.text = fmt_list(dtype_name(d) + (" (torch tensors only)" if d == BF16 else "") for d in self.dtypes)

    def __contains__(self, dtype) -> bool:
        return dtype in self.set


def fmt_list(items: Iterable[Any]) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _describe(x: Any) -> str:
    t = type(x)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


# ---- the frameworks' types, looked up without importing either -------------------------------------------
_TYPES: dict[str, Any] = {}


def _cupy_type():
    t = _TYPES.get("cupy")
    if t is None:
        try:
            import cupy

            t = cupy.ndarray
        except Exception:  # the [gpu] extra is not installed: no CuPy array can exist
            t = ()
        _TYPES["cupy"] = t
    return t


def _torch():
    """The torch module where it is already imported (a torch tensor implies it is), else None."""
    return sys.modules.get("torch")


_TORCH_TO_NP: dict[Any, np.dtype | None] = {}
_NP_TO_TORCH: dict[np.dtype, Any] = {}


def _torch_dtype_maps(torch) -> None:
    for name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
                 "complex64", "complex128"):
        td = getattr(torch, name)
        _TORCH_TO_NP[td] = np.dtype(name)
        _NP_TO_TORCH[np.dtype(name)] = td
    _TORCH_TO_NP[torch.bfloat16] = BF16
    _NP_TO_TORCH[BF16] = torch.bfloat16


def torch_dtype_of(dtype: np.dtype) -> Any:
    """The torch dtype of a NumPy dtype (or BF16)."""
    if not _NP_TO_TORCH:
        _torch_dtype_maps(_torch())
    return _NP_TO_TORCH[dtype]


def numpy_dtype_of(dtype: Any) -> np.dtype | None:
    """The NumPy dtype (or BF16) of a torch dtype; None for one with no kernel type (complex32, ...)."""
    if not _TORCH_TO_NP:
        _torch_dtype_maps(_torch())
    return _TORCH_TO_NP.get(dtype)


def kind_of(x: Any) -> str:
    """'cupy', 'torch', 'dlpack' (another object with __dlpack__), 'cai' (another
    __cuda_array_interface__ object), 'host' or 'other'."""
    t = type(x)
    if t is _cupy_type():
        return "cupy"
    torch = _torch()
    if torch is not None and isinstance(x, torch.Tensor):
        return "torch"
    cp_type = _cupy_type()
    if cp_type and isinstance(x, cp_type):
        return "cupy"
    if isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, complex, bool)):
        return "host"
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        return "dlpack"
    if hasattr(x, "__cuda_array_interface__"):
        return "cai"
    return "other"


def cai_contiguous(shape: tuple[int, ...], strides: tuple[int, ...] | None, itemsize: int) -> bool:
    if strides is None:
        return True
    expected = itemsize
    for dim, stride in zip(reversed(shape), reversed(strides)):
        if dim != 1 and stride != expected:
            return False
        expected *= dim
    return True


class _NoSwitch:
    """The context of a call whose device is already current."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NO_SWITCH = _NoSwitch()
CURRENT = -1  # the device of an array that names none: the current device when the op runs
_CUPY: list = []  # [the cupy module, cupy.cuda.runtime], bound at the first call: no import statement per call


def _cupy():
    if not _CUPY:
        import cupy

        _CUPY.extend((cupy, cupy.cuda.runtime))
    return _CUPY[0]


def _runtime():
    if not _CUPY:
        _cupy()
    return _CUPY[1]


class GpuArray:
    """An array argument, read once: the object, its framework, pointer, shape, dtype and device
    (CURRENT until `on_device` for arrays that do not say); `producer`: the stream a
    __cuda_array_interface__ v3 object says is still writing it (None: ready); `strided`: a view that
    `on_device` copies to a contiguous array first."""

    __slots__ = ("obj", "kind", "ptr", "shape", "dtype", "device", "producer", "strided", "pooled")

    def __init__(self, obj: Any, kind: str, ptr: int, shape: tuple[int, ...], dtype: np.dtype, device: int,
                 producer: int | None = None, strided: bool = False):
        self.obj, self.kind, self.ptr, self.shape, self.dtype, self.device = obj, kind, ptr, shape, dtype, device
        self.producer, self.strided = producer, strided
        self.pooled = True  # `scalar` may hand out pooled 0-d tensors (not inside a registered op: see there)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def on_device(self):
        """A context in which the array's device is the current one, restored after (a no-op, and
        nearly free, when it already is: the common case)."""
        current = self.resolve()
        if self.device == current:
            return _NO_SWITCH
        return _cupy().cuda.Device(self.device)

    def resolve(self) -> int:
        """Settle what `read` left to the GPU: the device of an array that names none (the pointer's
        own, asked of the driver: no synchronisation; a Numba or JAX array on GPU 1 while GPU 0 is
        current), and a strided view's contiguous copy. Returns the current device."""
        current = _runtime().getDevice()
        if self.device == CURRENT:
            self.device = _pointer_device(self.ptr, current)
        if self.strided:
            self._contiguous()
        return current

    def _contiguous(self) -> None:
        """Replace a strided view by a contiguous copy made by its framework, on its device and the
        stream the call runs on (the kernels read dense rows)."""
        if self.kind == "torch":
            self.obj = self.obj.contiguous()
            self.ptr = self.obj.data_ptr()
        else:
            cupy = _cupy()
            with cupy.cuda.Device(self.device):
                src = self.obj if self.kind == "cupy" else cupy.asarray(self.obj)
                self.wait_for_producer(cupy.cuda.get_current_stream().ptr)
                self.obj, self.kind = cupy.ascontiguousarray(src), "cupy"
            self.ptr = self.obj.data.ptr
        self.strided = False

    def wait_for_producer(self, stream: int) -> None:
        """Make `stream` wait, on the device, for the stream a __cuda_array_interface__ v3 object
        named as still writing it (an event recorded there: no host sync). Once per argument."""
        producer, self.producer = self.producer, None
        handle = 0 if producer == 1 else producer  # v3's 1 is the legacy default stream, whose handle is 0
        if producer is None or handle == stream:
            return
        runtime = _runtime()
        ev = _cupy().cuda.Event(block=False, disable_timing=True)
        runtime.eventRecord(ev.ptr, handle)
        runtime.streamWaitEvent(stream, ev.ptr, 0)

    def stream(self) -> int:
        """The raw handle of the stream the caller's framework would run this call on."""
        if self.kind == "torch":
            return _torch_stream(self.device)
        stream = _cupy().cuda.get_current_stream().ptr
        if self.producer is not None:
            self.wait_for_producer(stream)
        return stream

    def empty(self, shape: tuple[int, ...], dtype: np.dtype) -> tuple[Any, int]:
        """(a new array of the caller's type on the current device and stream, its pointer)."""
        if self.kind == "torch":
            # Tensor.new_empty: the input's device without building a torch.device, cheaper than
            # torch.empty(..., device=x.device) (measured: docs/notes/2026-11-host-path.md)
            out = self.obj.new_empty(shape, dtype=_NP_TO_TORCH[dtype])
            return out, out.data_ptr()
        out = _cupy().empty(shape, dtype=dtype)
        return out, out.data.ptr

    def scratch(self, nbytes: int) -> tuple[Any, int]:
        """(nbytes of scratch memory from the caller's framework, its pointer): an op's `alloc`,
        allocated in the order of the current stream, so freeing it once the kernels that use it are
        enqueued is safe (the caching allocators reuse freed memory in stream order)."""
        return self.empty((nbytes,), _U8)

    def scalar(self, dtype: np.dtype, stream: int) -> tuple[Any, int]:
        """`empty((), dtype)` for an output written on `stream`, faster for torch: the next of
        SCALAR_POOL 0-d tensors carved at once from one allocation made on this device and stream
        (Tensor.unbind: cheaper a result than torch.empty_like or new_empty; measured:
        docs/notes/2026-11-host-path.md). Each result is its own element of that allocation, which
        lives while any of them does; made on the stream that writes them, as torch's allocator
        expects."""
        if self.kind == "torch" and self.pooled:
            # inference tensors apart: a result made inside inference_mode is one (as torch.sum's
            # would be), one made outside is not, whichever the pool was made under
            key = (self.device, stream, dtype, _torch().is_inference_mode_enabled())
            pool = _SCALARS.get(key)
            if not pool:
                if len(_SCALARS) > 64:  # streams long gone
                    _SCALARS.clear()
                pool = _SCALARS[key] = list(self.obj.new_empty((SCALAR_POOL,), dtype=_NP_TO_TORCH[dtype]).unbind())
            out = pool.pop()
            return out, out.data_ptr()
        return self.empty((), dtype)

    def zeros(self, shape: tuple[int, ...], dtype: np.dtype, stream: int) -> tuple[Any, int]:
        """As `empty`, zeroed in the order of `stream` (a memset, cheaper than torch.zeros:
        docs/notes/2026-11-host-path.md)."""
        out, ptr = self.empty(shape, dtype)
        nbytes = dtype.itemsize
        for s in shape:
            nbytes *= s
        if nbytes:
            _runtime().memsetAsync(ptr, 0, nbytes, stream)
        return out, ptr

    def astype(self, out: Any, dtype: np.dtype) -> Any:
        """`out` (an output of this call) converted to `dtype` in stream order, as NumPy casts."""
        if self.kind == "torch":
            return out.to(_NP_TO_TORCH[dtype])
        return (out if self.kind == "cupy" else _cupy().asarray(out)).astype(dtype)


def cupy_scratch(nbytes: int) -> tuple[Any, int]:
    """An op's `alloc` from CuPy code: nbytes from CuPy's memory pool, on its current stream, and the
    pointer."""
    buf = _cupy().empty(nbytes, dtype=_U8)
    return buf, buf.data.ptr


def workspace(alloc, counters: int, slot_bytes: int, stream: int, own_pool: bool = True) -> tuple[Any, int, int]:
    """(holder, counters pointer, slots pointer): a call's own workspace of `counters` last-block
    counters, zeroed in the order of `stream`, then `slot_bytes` of partials, from `alloc` (the caller's
    allocator: torch's caching allocator, or a CUDA graph's pool while one is captured; CuPy's pool).
    Captured calls take one each: two graphs replayed at once on two streams, or a graph and an eager
    call, must share none. The holder may be dropped once the call's launches are enqueued, which the
    stream-ordered allocators allow; except where `own_pool` is False (CuPy, whose pool has no private
    pool for a graph) and the stream is being captured: the graph would write into memory the pool
    hands out again, so the workspace is kept for the process's life (one per captured call)."""
    head = -(-4 * counters // 16) * 16
    held, ptr = alloc(head + slot_bytes)
    runtime = _runtime()
    runtime.memsetAsync(ptr, 0, 4 * counters, stream)
    if not own_pool and runtime.streamIsCapturing(stream):
        _CAPTURED.append(held)
    return held, ptr, ptr + head


_CAPTURED: list = []  # workspaces of calls captured into CUDA graphs from CuPy code


SCALAR_POOL = 128
_U8 = np.dtype(np.uint8)
_SCALARS: dict[tuple[int, int, np.dtype, bool], list] = {}


def _pointer_device(ptr: int, current: int) -> int:
    """The device that holds device memory at `ptr` (`current` for a null pointer: an empty array)."""
    if not ptr:
        return current
    return _runtime().pointerGetAttributes(ptr).device
_RAW_STREAM: list = []


def column_major(x: GpuArray) -> bool:
    """Whether a strided 2-D view is dense column-major (the transpose of a contiguous array: a torch
    `w.t()`, a CuPy F-ordered array, a __cuda_array_interface__ with those strides); metadata only.
    An op with kernels that read such an operand in place clears `strided` on it, so no copy is made."""
    if not x.strided or len(x.shape) != 2:
        return False
    rows, cols = x.shape
    if x.kind == "torch":
        s0, s1 = x.obj.stride()
        return (s0 == 1 or rows == 1) and (s1 == rows or cols == 1)
    if x.kind == "cupy":
        return bool(x.obj.flags.f_contiguous)
    cai = x.obj.__cuda_array_interface__
    strides = cai.get("strides")
    return strides is not None and cai_contiguous((cols, rows), tuple(reversed(strides)), x.dtype.itemsize)


def _torch_stream(device: int) -> int:
    if not _RAW_STREAM:
        torch = _torch()
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        # the private fast path where this torch has it, else the public one, many times slower
        # (docs/notes/2026-11-host-path.md)
        _RAW_STREAM.append(raw or (lambda d: int(torch.cuda.current_stream(d).cuda_stream)))
    return _RAW_STREAM[0](device)


def read(x: Any, name: str, dtypes: Dtypes, ndims: Sequence[int], allow_empty: bool = False) -> GpuArray:
    """Check `x` without touching the GPU and return what the launch needs; raise TypeError /
    ValueError naming what was given and what is accepted."""
    t = type(x)
    if t is _TYPES.get("tensor"):
        kind = "torch"
    elif t is _cupy_type():
        kind = "cupy"
    else:
        kind = kind_of(x)
        if kind == "torch":
            _TYPES.setdefault("tensor", _torch().Tensor)
            _refuse_fake(x, name)
        elif kind == "dlpack":
            x, kind = from_dlpack(x, name, dtypes), "cupy"
    if kind == "torch":
        if not x.is_cuda:
            raise TypeError(f"{name}: expected a CUDA tensor, got a torch tensor on device '{x.device}'; "
                            f"move it with x.cuda() or x.to('cuda')")
        if not _TORCH_TO_NP:
            _torch_dtype_maps(_torch())
        dtype = _TORCH_TO_NP.get(x.dtype)
        if dtype is None:
            raise TypeError(f"{name}: dtype {x.dtype} is not accepted; accepted: {dtypes.text}")
        shape = x.shape
        contiguous = x.is_contiguous()
    elif kind == "cupy":
        dtype, shape, contiguous = x.dtype, x.shape, x.flags.c_contiguous
    elif kind == "cai":
        cai = x.__cuda_array_interface__
        dtype = np.dtype(cai["typestr"])
        shape = tuple(int(s) for s in cai["shape"])
        contiguous = cai_contiguous(shape, cai.get("strides"), dtype.itemsize)
    elif kind == "host":
        what = f"a NumPy array ({x.dtype}, shape {x.shape})" if isinstance(x, np.ndarray) else f"a host {_describe(x)}"
        raise TypeError(f"{name}: expected a GPU array (CuPy array or CUDA torch tensor) of {dtypes.text}, "
                        f"got {what}; {_HOST_HINT}")
    else:
        raise TypeError(f"{name}: expected a GPU array (CuPy array, CUDA torch tensor, or an object with "
                        f"__cuda_array_interface__) of {dtypes.text}, got {_describe(x)}")
    if dtype not in dtypes.set:
        raise TypeError(f"{name}: dtype {dtype_name(dtype)} is not accepted; accepted: {dtypes.text}")
    if len(shape) not in ndims:
        ranks = fmt_list(f"{n}-D" for n in ndims)
        raise ValueError(f"{name}: expected a {ranks} array, got {len(shape)}-D with shape {tuple(shape)}")
    if not allow_empty and 0 in shape:
        raise ValueError(f"{name}: expected a non-empty array, got shape {tuple(shape)}")
    strided = not contiguous and 0 not in shape
    # Metadata checked: now the reads that ask the framework for the pointer and the device.
    if kind == "torch":
        return GpuArray(x, kind, x.data_ptr(), tuple(shape), dtype, x.get_device(), strided=strided)
    if kind == "cupy":
        return GpuArray(x, kind, x.data.ptr, shape, dtype, x.device.id, strided=strided)
    # __cuda_array_interface__ names no device: `on_device` asks the driver for the pointer's (so that
    # every check above runs with no GPU)
    return GpuArray(x, kind, int(cai["data"][0]), shape, dtype, CURRENT, _cai_stream(cai), strided)


def _cai_stream(cai: dict) -> int | None:
    """The stream a v3 __cuda_array_interface__ says may still be writing the data (None: none)."""
    stream = cai.get("stream") if cai.get("version", 0) >= 3 else None
    if stream is not None and (isinstance(stream, bool) or not isinstance(stream, int) or stream == 0):
        raise ValueError(f"__cuda_array_interface__ stream {stream!r}: an int other than 0 (or None) is expected")
    return stream


_DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged


def from_dlpack(x: Any, name: str, dtypes: Dtypes) -> Any:
    """A CuPy array of the DLPack producer `x`'s data, on its device, zero copy. CuPy hands
    `x.__dlpack__` its current stream, and the producer orders its pending writes before it (the
    DLPack stream exchange): no host sync."""
    dev_type, dev_id = x.__dlpack_device__()
    if int(dev_type) not in _DLPACK_CUDA:
        raise TypeError(f"{name}: expected a GPU array of {dtypes.text}, got a {_describe(x)} on DLPack device type "
                        f"{int(dev_type)} (not CUDA); {_HOST_HINT}")
    cupy = _cupy()
    with cupy.cuda.Device(int(dev_id)):
        return cupy.from_dlpack(x)


def _refuse_fake(x: Any, name: str) -> None:
    """A FakeTensor has a device and a shape but no data: its pointer must never reach a launch."""
    fake = getattr(getattr(_torch(), "_subclasses", None), "fake_tensor", None)
    if fake is not None and fake.is_fake(x):
        raise TypeError(f"{name}: a FakeTensor has no data to compute on; under torch.compile or FakeTensorMode "
                        f"the ops run as torch.ops.smemlab.<op>, whose fake implementations give the result's "
                        f"shape (smemlab.ops routes there itself when a tracer is active)")


def check_dtype_arg(dtype: Any, name: str, accepted: Sequence[Any]) -> np.dtype:
    """A `dtype=` argument (NumPy or torch dtype, or a name): one of `accepted`."""
    try:
        d = as_dtype(dtype)
    except TypeError:
        d = None
    acc = [as_dtype(a) for a in accepted]
    if d is None or d not in acc:
        raise TypeError(f"{name}: {dtype!r} is not accepted; accepted: {fmt_list(dtype_name(a) for a in acc)}")
    return d


def same_framework(a: GpuArray, b: GpuArray, names: tuple[str, str]) -> None:
    """Two array arguments of one op: one framework, one device."""
    if a.kind != b.kind and "torch" in (a.kind, b.kind):
        raise TypeError(f"{names[0]} is a {_describe(a.obj)} and {names[1]} a {_describe(b.obj)}; two arrays of one "
                        f"type (CuPy or torch) are accepted")
    if CURRENT not in (a.device, b.device) and a.device != b.device:
        raise ValueError(f"{names[0]} is on GPU {a.device} and {names[1]} on GPU {b.device}; both on one GPU is accepted")
