"""The one way smemlab loads and launches a kernel: one kernel cache, one launch function.

Everything that runs a kernel goes through here: the library ops (smemlab.ops), the experiments'
Runtime (smemlab.gpu), the benchmark and the sanitizer's self-check.

- `kernel(source, name, defines, device)`: the package's <source> compiled by smemlab.compiler (cached on
  disk by source hash), loaded once per process and device. A `Kernel` carries its attributes
  (dynamic shared memory opt-in, non-portable cluster sizes, carveout) per device.
- `launch(kernel, grid, block, args, stream, shmem=0, cluster=None)`: enqueue on the raw stream
  handle `stream`. Arguments are passed as given. A Python int is stored as a 64-bit integer and
  serves any integer parameter (pointers, 64-, 32-, 16-bit integers): the driver reads each
  parameter's own width from the kernel's image, here the low bytes of that integer (little-endian
  x86-64 and Arm), which hold its value for any value of the parameter's type. Floating-point
  parameters take NumPy scalars of their type (np.float32(x)): a Python float is a double.
  How it launches: integer arguments are packed into the kernel's parameter buffer and launched
  through CuPy's typed cuLaunchKernel (`_Packed`, the cheapest path measured); anything else, and
  cluster launches, through cuda.core's `launch` with its LaunchConfig cached per launch shape and
  its Stream cached per handle (what each path costs, against cuda.bindings, ctypes on libcuda and
  CuPy's RawKernel: docs/notes/2026-11-host-path.md).
- `recording_launches()`: a block inside which every launch's kernel name is recorded, in order (the
  profiler's and the sanitizer's child runs; nothing is recorded outside one).
- `set_constant(source, symbol, values, defines, device, stream)`: a `__constant__` symbol written in
  stream order (kernels enqueued before see the old values), skipped when unchanged.
- `facts(device)`: what the device says about its on-chip memories (SMs, shared memory, L2, clock,
  compute capability), read once per device: what the ops plan with and the experiments record.

A launch error raised by the driver becomes a KernelError naming the kernel and its launch shape;
an error inside the kernel surfaces at the next synchronisation, as in CUDA C.
"""

from __future__ import annotations

import struct
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from smemlab import datasheet
from smemlab.errors import KernelError, NoGPU, UserError

PORTABLE_CLUSTER = 8  # blocks per cluster any sm_90 GPU launches; up to 16 with the non-portable opt-in


# ---- device facts: read once per device, for the ops' plans and the experiments alike ----------------------
@dataclass
class DeviceFacts:
    """What the device says about its on-chip memories (bytes unless named otherwise)."""

    index: int
    name: str
    compute_capability: str
    sms: int
    shared_per_block: int
    shared_per_block_optin: int
    shared_per_sm: int
    registers_per_sm: int
    l2_bytes: int
    constant_bytes: int
    global_bytes: int
    warp_size: int
    banks: int
    bank_bytes: int
    max_threads_per_block: int
    cluster_launch: bool
    peak_gbps: float | None  # smemlab.datasheet's, for "% of peak"
    peak_fp32_tflops: float | None
    driver: str
    # the SM clock the device reports (its boost clock, MHz): the binding limits set the shared
    # wavefronts against SMs x clock (smemlab.limits); None where the device does not say
    sm_clock_mhz: float | None = None

    @property
    def cc(self) -> tuple[int, int]:
        """The compute capability as numbers, (9, 0)."""
        major, minor = self.compute_capability.split(".")
        return int(major), int(minor)

    @property
    def arch(self) -> str:
        """The architecture NVRTC compiles for, "sm_90"."""
        return "sm_%d%d" % self.cc

    def to_dict(self) -> dict:
        return asdict(self)


def _driver_version() -> str:
    import cupy

    v = cupy.cuda.runtime.driverGetVersion()
    return f"{v // 1000}.{(v % 1000) // 10}"


def device_count() -> int:
    """Number of usable CUDA devices; 0 where there is no driver or no GPU."""
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def no_gpu_reason() -> str | None:
    """Why there is no GPU to run on, in one line; None where there is one."""
    try:
        import cupy

        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        import ctypes.util

        if not ctypes.util.find_library("cuda"):
            return "no CUDA GPU found (no NVIDIA driver, libcuda, on this machine)"
        return f"no CUDA GPU found ({exc})"
    return None if n else "no CUDA GPU found (the driver reports 0 devices)"


_FACTS: dict[int, DeviceFacts] = {}


def facts(device: int = 0) -> DeviceFacts:
    """The facts of `device`, read once per process (read_facts)."""
    f = _FACTS.get(device)
    if f is None:
        f = _FACTS[device] = read_facts(device)
    return f


def read_facts(index: int = 0) -> DeviceFacts:
    """What the device says, read now; NoGPU (one plain sentence) where there is no such GPU."""
    import cupy

    reason = no_gpu_reason()
    if reason:
        raise NoGPU(reason)
    n = cupy.cuda.runtime.getDeviceCount()
    if not 0 <= index < n:
        raise NoGPU(f"no GPU with index {index}: this machine has {n} (0..{n - 1})")
    p = cupy.cuda.runtime.getDeviceProperties(index)
    name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
    peak_gbps, peak_tflops = datasheet.peaks(name)
    return DeviceFacts(
        index=index,
        name=name,
        compute_capability=f"{p['major']}.{p['minor']}",
        sms=p["multiProcessorCount"],
        shared_per_block=p["sharedMemPerBlock"],
        shared_per_block_optin=p["sharedMemPerBlockOptin"],
        shared_per_sm=p["sharedMemPerMultiprocessor"],
        registers_per_sm=p["regsPerMultiprocessor"],
        l2_bytes=p["l2CacheSize"],
        constant_bytes=p["totalConstMem"],
        global_bytes=p["totalGlobalMem"],
        warp_size=p["warpSize"],
        # 32 banks of 4 bytes since Maxwell; the bank-size query of Kepler is gone (always 4)
        banks=32,
        bank_bytes=4,
        max_threads_per_block=p["maxThreadsPerBlock"],
        cluster_launch=bool(p.get("clusterLaunch", p["major"] >= 9)),
        peak_gbps=peak_gbps,
        peak_fp32_tflops=peak_tflops,
        driver=_driver_version(),
        sm_clock_mhz=_sm_clock_mhz(index),
    )


def _sm_clock_mhz(index: int) -> float | None:
    """cudaDevAttrClockRate in MHz (the attribute is in kHz), or None where the runtime lacks it."""
    import cupy

    try:
        khz = cupy.cuda.runtime.deviceGetAttribute(cupy.cuda.runtime.cudaDevAttrClockRate, index)
    except Exception:  # a runtime without the attribute: the record says the clock was not recorded
        return None
    return khz / 1000 if khz else None



def current_device() -> int:
    """The CUDA runtime's current device (shared by CuPy and PyTorch)."""
    import cupy

    return cupy.cuda.runtime.getDevice()


# ---- kernels -------------------------------------------------------------------------------------------
def launch_shape(grid, block, shmem: int = 0, cluster=None) -> str:
    text = f"grid {dim3(grid)} block {dim3(block)}"
    if shmem:
        text += f" dynamic smem {shmem} B"
    if cluster is not None:
        text += f" cluster {dim3(cluster)}"
    return text


def dim3(value: int | Sequence[int]) -> tuple[int, int, int]:
    dims = (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)
    return tuple(dims + (1,) * (3 - len(dims)))  # type: ignore[return-value]


class Kernel:
    """A loaded kernel on one device: its name, the source it came from, the cuda.core handle, the
    static shared memory it declares, and the attributes set on it so far."""

    def __init__(self, name: str, source: str, handle: Any, static_smem: int, device: int):
        self.name = name
        # a template instance's function name, as Nsight Compute names it (--kernel-name-base function)
        self.base = name.split("<")[0].strip()
        self.source = source
        self.handle = handle  # cuda.core Kernel
        self.static_smem = static_smem
        self.device = device
        # without the opt-in, static and dynamic shared memory together may take 48 KB
        self._dyn_limit = 48 * 1024 - static_smem
        self._nonportable = False
        self._packed: _Packed | None | bool = None  # built at the first launch; False: none possible

    def set_attribute(self, attr: str, value: int) -> None:
        """cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_<attr>, value) for this kernel on its device."""
        from cuda.bindings import driver

        attribute = getattr(driver.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{attr}")
        handle = self.handle.handle
        if isinstance(handle, driver.CUkernel):
            (err,) = driver.cuKernelSetAttribute(attribute, value, handle, self.device)
        else:
            (err,) = driver.cuFuncSetAttribute(handle, attribute, value)
        if err != driver.CUresult.CUDA_SUCCESS:
            raise UserError(f"kernel {self.name}: cannot set {attr} to {value} ({err.name})")

    def allow_dynamic_smem(self, nbytes: int) -> None:
        """Raise the kernel's dynamic shared-memory limit (needed above 48 KB: the opt-in)."""
        if nbytes > self._dyn_limit:
            self.set_attribute("MAX_DYNAMIC_SHARED_SIZE_BYTES", nbytes)
            self._dyn_limit = nbytes

    def allow_nonportable_cluster(self) -> None:
        """Clusters of more than 8 blocks (up to 16 on Hopper)."""
        if not self._nonportable:
            self.set_attribute("NON_PORTABLE_CLUSTER_SIZE_ALLOWED", 1)
            self._nonportable = True

    def function(self):
        """The CUfunction of this kernel in the current context (for the occupancy API)."""
        from cuda.bindings import driver

        handle = self.handle.handle
        if isinstance(handle, driver.CUkernel):
            err, func = driver.cuKernelGetFunction(handle)
            if err != driver.CUresult.CUDA_SUCCESS:
                raise RuntimeError(f"cuKernelGetFunction: {err.name}")
            return func
        return handle

    def blocks_per_sm(self, block: int, shmem: int = 0) -> int:
        """The occupancy API's resident blocks per SM at `block` threads and `shmem` dynamic bytes."""
        self.allow_dynamic_smem(shmem)
        return int(self.handle.occupancy.max_active_blocks_per_multiprocessor(block, shmem))

    def max_active_clusters(self, block: int, shmem: int, cluster: int, stream: int) -> int:
        """How many clusters of `cluster` blocks the GPU runs at once (0 where the API cannot say)."""
        from cuda.core import LaunchConfig

        self.allow_dynamic_smem(shmem)
        if cluster > PORTABLE_CLUSTER:
            self.allow_nonportable_cluster()
        config = LaunchConfig(grid=cluster, cluster=cluster, block=block, shmem_size=shmem)
        try:
            return int(self.handle.occupancy.max_active_clusters(config, stream=core_stream(stream)))
        except Exception:
            return 0


class _Packed:
    """A kernel's parameters laid out as the device reads them (offsets and sizes from the driver),
    packed per launch into one buffer passed with CU_LAUNCH_PARAM_BUFFER_POINTER, and launched through
    CuPy's typed binding of cuLaunchKernel: cheaper than cuda.core's launch, which builds an array of
    pointers to each argument, in Python, every call (measured: docs/notes/2026-11-host-path.md).
    Integers only.

    Two buffers: the thread that made the launcher (the one that calls the ops, nearly always)
    packs into its own with no lock (a lock is a measurable share of a launch); every other thread shares
    the second one under the lock. The driver has copied the parameters when cuLaunchKernel returns."""

    __slots__ = ("func", "struct", "owner", "buf", "extra", "lock", "shared_buf", "shared_extra", "_keep")

    def __init__(self, func: int, layout: list[tuple[int, int]]):
        self.struct = param_struct(layout)
        self.func = func
        self.owner = threading.get_ident()
        (self.buf, self.extra, keep), (self.shared_buf, self.shared_extra, shared_keep) = (
            self._buffer(self.struct.size), self._buffer(self.struct.size))
        self._keep = (keep, shared_keep)
        self.lock = threading.Lock()

    @staticmethod
    def _buffer(end: int):
        """(parameter buffer, address of its `extra` array, what must stay alive with them)."""
        import ctypes

        buf = (ctypes.c_char * max(end, 1))()
        size_arg = ctypes.c_size_t(end)
        # CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END
        extra = (ctypes.c_void_p * 5)(1, ctypes.addressof(buf), 2, ctypes.addressof(size_arg), 0)
        return buf, ctypes.addressof(extra), (size_arg, extra)

    @classmethod
    def of(cls, kernel: "Kernel") -> "_Packed":
        """The launcher of a loaded kernel: its parameters' offsets and sizes as the driver reports them."""
        from cuda.bindings import driver

        handle = kernel.handle.handle
        layout = []
        while True:
            err, offset, size = driver.cuKernelGetParamInfo(handle, len(layout))
            if err != driver.CUresult.CUDA_SUCCESS:
                break
            layout.append((int(offset), int(size)))
        return cls(int(handle), layout)


_INT_SLOTS = {8: "q", 4: "i", 2: "h", 1: "b"}


def param_struct(layout: list[tuple[int, int]]) -> struct.Struct:
    """The packing of integer parameters at (offset, size) in the parameter buffer: little-endian,
    signed, padded to each offset; a parameter of another size (a struct passed by value) is given
    as its bytes."""
    fmt, end = "<", 0
    for offset, size in layout:
        fmt += "x" * (offset - end) + _INT_SLOTS.get(size, f"{size}s")
        end = offset + size
    return struct.Struct(fmt)


def _packed(k: "Kernel"):
    """The kernel's packed launcher, or False where the driver or the bindings cannot give one."""
    if k._packed is None:
        try:
            k._packed = _Packed.of(k)
        except Exception:  # an old driver, a struct parameter: cuda.core's launch serves
            k._packed = False
    return k._packed


_LOCK = threading.Lock()
_KERNELS: dict[tuple, Kernel] = {}
_MODULES: dict[tuple, tuple[Any, bytes, dict[str, str]]] = {}
_CORE_CURRENT = threading.local()


def _define_key(defines: Mapping[str, object] | None) -> tuple:
    return tuple(sorted(defines.items())) if defines else ()


def ensure_context(device: int) -> None:
    """Make cuda.core aware of `device` on this thread (once per thread and device)."""
    seen = getattr(_CORE_CURRENT, "devices", None)
    if seen is None:
        seen = _CORE_CURRENT.devices = set()
    if device not in seen:
        from cuda.core import Device

        Device(device).set_current()
        seen.add(device)


def module(source: str, defines: Mapping[str, object] | None, device: int,
           names: Sequence[str] = ()) -> tuple[Any, bytes, dict[str, str]]:
    """(cuda.core ObjectCode, cubin, name expression -> symbol) of the package's <source> compiled with
    `defines` and the template instances `names` for `device`."""
    key = (device, source, _define_key(defines), tuple(names))
    mod = _MODULES.get(key)
    if mod is None:
        from cuda.core import ObjectCode

        from smemlab.compiler import compile_package

        ensure_context(device)
        compiled = compile_package(source, facts(device).arch, dict(defines or {}), names)
        mod = _MODULES[key] = (ObjectCode.from_cubin(compiled.cubin, name=source), compiled.cubin, compiled.lowered)
    return mod


def kernel(source: str, name: str, defines: Mapping[str, object] | None = None, device: int = 0,
           names: Sequence[str] | None = None) -> Kernel:
    """The kernel `name` of the package's <source> compiled with `defines`, loaded on `device` (once per process).
    `name`: an `extern "C"` kernel's name or a template instance's NVRTC name expression; `names`: the
    instances to compile the module with (an op's whole list, so that its kernels share one compile; by
    default `name` alone where it is a template instance)."""
    key = (device, source, name, _define_key(defines))
    k = _KERNELS.get(key)
    if k is None:
        with _LOCK:
            k = _KERNELS.get(key)
            if k is None:
                from smemlab.cubin import static_shared_bytes

                if names is None:
                    names = (name,) if "<" in name else ()
                elif "<" in name and name not in names:
                    names = (*names, name)
                mod, cubin, lowered = module(source, defines, device, tuple(names))
                symbol = lowered.get(name, name)
                k = _KERNELS[key] = Kernel(name, source, mod.get_kernel(symbol),
                                           static_shared_bytes(cubin).get(symbol, 0), device)
    return k


# ---- launching -----------------------------------------------------------------------------------------
_STREAMS: dict[int, Any] = {}
_CONFIGS: dict[tuple, Any] = {}
_DIMS: dict[tuple, tuple[int, ...]] = {}
# The lists of the `recording_launches()` blocks the process is in (none, the usual case)
_launch_logs: tuple[list[str], ...] = ()


@contextmanager
def recording_launches() -> Iterator[list[str]]:
    """The function names of the kernels launched inside the block (a template instance's without its arguments,
    as Nsight Compute names it), in launch order: how the profiler's and the
    sanitizer's child runs tell which kernels each variant or case launched. Blocks nest: a launch is
    recorded in every block it is inside."""
    global _launch_logs
    outer, log = _launch_logs, []
    _launch_logs = outer + (log,)
    try:
        yield log
    finally:
        _launch_logs = outer


def core_stream(handle: int):
    """A cuda.core Stream for the raw handle (0 = the legacy default stream, 2 = per-thread default)."""
    s = _STREAMS.get(handle)
    if s is None:
        from cuda.core import LEGACY_DEFAULT_STREAM, PER_THREAD_DEFAULT_STREAM, Stream

        if handle in (0, 1):
            s = LEGACY_DEFAULT_STREAM
        elif handle == 2:
            s = PER_THREAD_DEFAULT_STREAM
        else:
            if len(_STREAMS) > 256:  # handles of streams long gone
                _STREAMS.clear()
            s = Stream.from_handle(handle)
        _STREAMS[handle] = s
    return s


def _config(grid, block, shmem: int, cluster):
    key = (grid, block, shmem, cluster)
    cfg = _CONFIGS.get(key)
    if cfg is None:
        from cuda.core import LaunchConfig

        grid3, block3 = dim3(grid), dim3(block)
        if cluster is not None:
            cluster3 = dim3(cluster)
            if any(g % c for g, c in zip(grid3, cluster3)):
                raise UserError(f"grid {grid3} is not a multiple of cluster {cluster3}")
            cfg = LaunchConfig(grid=tuple(g // c for g, c in zip(grid3, cluster3)), cluster=cluster3, block=block3,
                               shmem_size=shmem)
        else:
            cfg = LaunchConfig(grid=grid3, block=block3, shmem_size=shmem)
        if len(_CONFIGS) > 4096:
            _CONFIGS.clear()
        _CONFIGS[key] = cfg
    return cfg


def launch(k: Kernel, grid, block, args: tuple, stream: int, shmem: int = 0, cluster=None) -> None:
    """Enqueue `k` on the stream with raw handle `stream`. With `cluster`, `grid` counts blocks (as in
    CUDA C) and must be a multiple of it. See the module doc for how arguments are passed."""
    # as few steps as possible on the common path: this runs once per op call
    if _launch_logs:
        for log in _launch_logs:
            log.append(k.base)
    p = k._packed
    if p is None:
        p = _packed(k)
    if shmem > k._dyn_limit:
        k.allow_dynamic_smem(shmem)
    if p and cluster is None:
        dims = _DIMS.get((grid, block)) or _dims(grid, block)
        try:
            if p.owner == _get_ident():
                p.struct.pack_into(p.buf, 0, *args)
                _launch_kernel(p.func, *dims, shmem, stream, 0, p.extra)
            else:
                # another thread (torch's autograd engine runs backward passes on its own) may have
                # no current context: the driver's launch needs one, the runtime's calls do not
                ensure_context(k.device)
                with p.lock:
                    p.struct.pack_into(p.shared_buf, 0, *args)
                    _launch_kernel(p.func, *dims, shmem, stream, 0, p.shared_extra)
            return
        except struct.error:
            pass  # a floating-point argument, or an integer out of its slot's range: cuda.core's path
        except Exception as exc:
            raise KernelError(k.name, launch_shape(grid, block, shmem), exc) from exc
    elif cluster is not None and not k._nonportable and max(dim3(cluster)) > PORTABLE_CLUSTER:
        k.allow_nonportable_cluster()
    s = _STREAMS.get(stream) or core_stream(stream)
    ensure_context(k.device)
    try:
        cfg = _CONFIGS.get((grid, block, shmem, cluster)) or _config(grid, block, shmem, cluster)
        _core_launch(s, cfg, k.handle, *args)
    except UserError as exc:
        raise UserError(f"kernel {k.name}: {exc}") from None
    except Exception as exc:
        raise KernelError(k.name, launch_shape(grid, block, shmem, cluster), exc) from exc


_get_ident = threading.get_ident


def _dims(grid, block) -> tuple[int, ...]:
    dims = _DIMS[(grid, block)] = dim3(grid) + dim3(block)
    return dims


def _launch_kernel(*a):
    from cupy_backends.cuda.api.driver import launchKernel

    global _launch_kernel
    _launch_kernel = launchKernel  # bound on first use: no import on the hot path
    return launchKernel(*a)


def _core_launch(*a):
    from cuda.core import launch as core_launch

    global _core_launch
    _core_launch = core_launch  # bound on first use: no import on the hot path
    return core_launch(*a)


# ---- __constant__ memory, in stream order ----------------------------------------------------------------
class _Constant:
    __slots__ = ("ptr", "size", "data", "stream", "event")

    def __init__(self, ptr: int, size: int):
        self.ptr, self.size = ptr, size
        self.data: bytes | None = None
        self.stream: int | None = None  # the one stream that has used the symbol, while there is one
        self.event: Any = None  # once several streams have: recorded after each read


_CONSTANTS: dict[tuple, _Constant] = {}


def _constant(source: str, symbol: str, defines: Mapping[str, object] | None, device: int) -> _Constant:
    key = (device, source, _define_key(defines), symbol)
    c = _CONSTANTS.get(key)
    if c is None:
        from cuda.bindings import driver

        mod = module(source, defines, device)[0]
        handle = mod.handle
        if isinstance(handle, driver.CUlibrary):
            err, dptr, size = driver.cuLibraryGetGlobal(handle, symbol.encode())
        else:
            err, dptr, size = driver.cuModuleGetGlobal(handle, symbol.encode())
        if err != driver.CUresult.CUDA_SUCCESS:
            raise UserError(f"{source}: no __constant__ symbol {symbol!r} ({err.name})")
        c = _CONSTANTS[key] = _Constant(int(dptr), int(size))
    return c


def set_constant(source: str, symbol: str, values: np.ndarray, defines: Mapping[str, object] | None = None,
                 device: int = 0, stream: int = 0) -> None:
    """Write `values` into the `__constant__` symbol of the package's <source> (compiled with `defines`) in
    the order of `stream`: kernels enqueued before see the old values, kernels after the new. Skips
    the copy when the symbol already holds these bytes. Kernels that read the symbol must be followed
    by `constant_read(...)`, so that a write from another stream never overtakes them."""
    import cupy

    c = _constant(source, symbol, defines, device)
    if c.event is not None:  # several streams: wait for the last reads, wherever they were enqueued
        cupy.cuda.runtime.streamWaitEvent(stream, c.event.ptr, 0)
    elif c.stream is None:
        c.stream = stream
    elif c.stream != stream:
        # A second stream: the first one's readers may still run (and that stream may be gone, so
        # no event can be recorded on it now). Wait for the device once, then keep an event.
        cupy.cuda.runtime.deviceSynchronize()
        c.event = cupy.cuda.Event(block=False, disable_timing=True)
    data = np.ascontiguousarray(values)
    raw = data.tobytes()
    if c.data == raw:
        return
    if len(raw) > c.size:
        raise UserError(f"{source}: {symbol} holds {c.size} bytes, {len(raw)} given")
    # From pageable memory the driver stages the bytes before it returns: `data` may go at once.
    cupy.cuda.runtime.memcpyAsync(c.ptr, data.ctypes.data, len(raw), cupy.cuda.runtime.memcpyHostToDevice, stream)
    c.data = raw


def constant_read(source: str, symbol: str, defines: Mapping[str, object] | None = None, device: int = 0,
                  stream: int = 0) -> None:
    """After a launch that reads the symbol: where several streams use it, record that read."""
    c = _constant(source, symbol, defines, device)
    if c.event is not None:
        import cupy

        cupy.cuda.runtime.eventRecord(c.event.ptr, stream)
