"""The GPU runtime: device facts, kernels (compiled by smemlab.compiler), launches, constants, timing.

One `Runtime` per process and device. CuPy owns the arrays and the stream; cuda.core loads the
cubins and launches on that same stream, so CuPy's work and ours stay ordered without syncs.
A launch error surfaces at the next synchronisation; `Runtime.sync(kernel, shape)` turns it into
a `KernelError` naming the kernel and its launch shape.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from smemlab.compiler import compile_cubin
from smemlab.errors import KernelError, NoGPU, UserError

# Datasheet peaks (decimal GB/s of HBM, FP32 TFLOP/s) by marketing name; leads, not measurements.
DATASHEET = {
    "H200": (4800.0, 67.0),
    "H100 80GB HBM3": (3350.0, 67.0),
    "H100 SXM": (3350.0, 67.0),
    "H100 PCIe": (2000.0, 51.0),
    "H100 NVL": (3900.0, 60.0),
    "A100-SXM4-80GB": (2039.0, 19.5),
    "A100-SXM4-40GB": (1555.0, 19.5),
}


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
    peak_gbps: float | None  # datasheet, for "% of peak"
    peak_fp32_tflops: float | None
    driver: str

    def to_dict(self) -> dict:
        return asdict(self)


def _datasheet(name: str) -> tuple[float | None, float | None]:
    for key, peaks in DATASHEET.items():
        if key in name:
            return peaks
    return None, None


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


def read_facts(index: int = 0) -> DeviceFacts:
    import cupy

    reason = no_gpu_reason()
    if reason:
        raise NoGPU(reason)
    n = cupy.cuda.runtime.getDeviceCount()
    if not 0 <= index < n:
        raise NoGPU(f"no GPU with index {index}: this machine has {n} (0..{n - 1})")
    p = cupy.cuda.runtime.getDeviceProperties(index)
    name = p["name"].decode() if isinstance(p["name"], bytes) else str(p["name"])
    peak_gbps, peak_tflops = _datasheet(name)
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
    )


@dataclass
class Timing:
    """Milliseconds of one launch: median, min and max over `reps` timed launches."""

    median_ms: float
    min_ms: float
    max_ms: float
    reps: int


def _dim3(value: int | Sequence[int]) -> tuple[int, int, int]:
    dims = (value,) if isinstance(value, int) else tuple(int(v) for v in value)
    return tuple(dims + (1,) * (3 - len(dims)))  # type: ignore[return-value]


class Kernel:
    """A loaded kernel: its name, the source it came from, and the cuda.core handle."""

    def __init__(self, name: str, source: str, handle: Any, static_smem: int):
        self.name = name
        self.source = source
        self.handle = handle
        self.static_smem = static_smem
        self._dyn_limit = 48 * 1024

    def allow_dynamic_smem(self, nbytes: int) -> None:
        """Raise the kernel's dynamic shared-memory limit (needed above 48 KB: the opt-in)."""
        if nbytes <= self._dyn_limit:
            return
        from cuda.bindings import driver

        attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        handle = self.handle.handle
        if isinstance(handle, driver.CUkernel):
            import cupy

            (err,) = driver.cuKernelSetAttribute(attr, nbytes, handle, cupy.cuda.Device().id)
        else:
            (err,) = driver.cuFuncSetAttribute(handle, attr, nbytes)
        if err != driver.CUresult.CUDA_SUCCESS:
            raise UserError(f"kernel {self.name}: cannot raise dynamic shared memory to {nbytes} bytes ({err.name})")
        self._dyn_limit = nbytes


class Runtime:
    """The GPU a run uses: facts, a stream, compiled kernels and timing."""

    def __init__(self, device: int = 0):
        import cupy

        self.facts = read_facts(device)
        cupy.cuda.Device(device).use()
        from cuda.core import Device

        self._dev = Device(device)
        self._dev.set_current()
        major, minor = self.facts.compute_capability.split(".")
        self.arch = f"sm_{major}{minor}"
        self.cupy_stream = cupy.cuda.Stream(non_blocking=True)
        self.cupy_stream.use()
        from cuda.core import Stream

        self.stream = Stream.from_handle(self.cupy_stream.ptr)
        self._modules: dict[tuple, Any] = {}
        self._kernels: dict[tuple, Kernel] = {}
        self.launch_log: list[str] | None = None  # kernel names in launch order, for the profiler
        self.variant_launches: list[tuple[str, list[str]]] = []  # (variant, its kernels), filled by the runner

    # -- kernels -------------------------------------------------------------------------------
    def _module(self, source: str, defines: Mapping[str, object]):
        key = (source, tuple(sorted(defines.items())))
        if key not in self._modules:
            from cuda.core import ObjectCode

            cubin = compile_cubin(source, self.arch, defines)
            self._modules[key] = (ObjectCode.from_cubin(cubin, name=source), cubin)
        return self._modules[key]

    def kernel(self, source: str, name: str, defines: Mapping[str, object] | None = None) -> Kernel:
        """The kernel `name` of kernels/<source>, compiled with `defines` (cached)."""
        defines = dict(defines or {})
        key = (source, name, tuple(sorted(defines.items())))
        if key not in self._kernels:
            from smemlab.cubin import static_shared_bytes

            module, cubin = self._module(source, defines)
            self._kernels[key] = Kernel(name, source, module.get_kernel(name), static_shared_bytes(cubin).get(name, 0))
        return self._kernels[key]

    def launch(
        self,
        kernel: Kernel,
        grid: int | Sequence[int],
        block: int | Sequence[int],
        *args: Any,
        shmem: int = 0,
        cluster: int | Sequence[int] | None = None,
    ) -> None:
        """Enqueue `kernel` on the runtime's stream. CuPy arrays pass as pointers; every other
        argument must be a NumPy scalar of the kernel parameter's exact type (np.int32(n)), so a
        wrong width is never passed silently. With `cluster`, `grid` counts blocks (as in CUDA C)."""
        from cuda.core import LaunchConfig, launch

        grid3, block3 = _dim3(grid), _dim3(block)
        if cluster is not None:
            cluster3 = _dim3(cluster)
            if any(g % c for g, c in zip(grid3, cluster3)):
                raise UserError(f"kernel {kernel.name}: grid {grid3} is not a multiple of cluster {cluster3}")
            config = LaunchConfig(grid=tuple(g // c for g, c in zip(grid3, cluster3)), cluster=cluster3, block=block3, shmem_size=shmem)
        else:
            config = LaunchConfig(grid=grid3, block=block3, shmem_size=shmem)
        kernel.allow_dynamic_smem(shmem)
        if self.launch_log is not None:
            self.launch_log.append(kernel.name)
        try:
            launch(self.stream, config, kernel.handle, *(_kernel_arg(a) for a in args))
        except Exception as exc:
            raise KernelError(kernel.name, launch_shape(grid3, block3, shmem, cluster), exc) from exc

    def set_constant(self, source: str, symbol: str, values: np.ndarray, defines: Mapping[str, object] | None = None) -> None:
        """Write `values` into the `__constant__` symbol of kernels/<source> (cudaMemcpyToSymbol):
        new coefficients between launches, no recompiling."""
        from cuda.bindings import driver

        module, _ = self._module(source, dict(defines or {}))
        data = np.ascontiguousarray(values)
        handle = module.handle
        if isinstance(handle, driver.CUlibrary):
            err, dptr, size = driver.cuLibraryGetGlobal(handle, symbol.encode())
        else:
            err, dptr, size = driver.cuModuleGetGlobal(handle, symbol.encode())
        if err != driver.CUresult.CUDA_SUCCESS:
            raise UserError(f"{source}: no __constant__ symbol {symbol!r} ({err.name})")
        if data.nbytes > size:
            raise UserError(f"{source}: {symbol} holds {size} bytes, {data.nbytes} given")
        (err,) = driver.cuMemcpyHtoDAsync(dptr, data.ctypes.data, data.nbytes, self.cupy_stream.ptr)
        if err != driver.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"copy to {symbol} failed: {err.name}")
        self.cupy_stream.synchronize()  # `data` may be freed once we return

    def max_cluster_size(self, kernel: Kernel, block: int = 128) -> int:
        """The largest cluster the occupancy API says `kernel` can be launched with (portable limit)."""
        from cuda.core import LaunchConfig

        config = LaunchConfig(grid=self.facts.sms, block=block, cluster=1)
        return int(kernel.handle.occupancy.max_potential_cluster_size(config, stream=self.stream))

    # -- synchronisation and timing ---------------------------------------------------------
    def sync(self, what: str = "", shape: str = "") -> None:
        """Wait for the stream; a CUDA error becomes a KernelError naming `what` and `shape`."""
        try:
            self.cupy_stream.synchronize()
        except Exception as exc:
            raise KernelError(what or "stream", shape, exc) from exc

    def time(self, fn: Callable[[], Any], warmup: int = 3, reps: int = 20, host: bool = False) -> Timing:
        """Time `fn` (which enqueues work): warm-up, then `reps` launches each between CUDA
        events (or the host clock for host work); median, min and max in milliseconds."""
        import time as _time

        import cupy

        for _ in range(warmup):
            fn()
        self.sync()
        samples = []
        for _ in range(reps):
            if host:
                t0 = _time.perf_counter()
                fn()
                samples.append((_time.perf_counter() - t0) * 1e3)
                continue
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()
            start.record(self.cupy_stream)
            fn()
            stop.record(self.cupy_stream)
            stop.synchronize()
            samples.append(cupy.cuda.get_elapsed_time(start, stop))
        return Timing(statistics.median(samples), min(samples), max(samples), reps)


def launch_shape(grid, block, shmem: int = 0, cluster=None) -> str:
    text = f"grid {tuple(_dim3(grid))} block {tuple(_dim3(block))}"
    if shmem:
        text += f" dynamic smem {shmem} B"
    if cluster is not None:
        text += f" cluster {tuple(_dim3(cluster))}"
    return text


def _kernel_arg(value: Any) -> Any:
    if hasattr(value, "data") and hasattr(value.data, "ptr"):  # a CuPy array: its device pointer
        return np.uintp(value.data.ptr)
    if isinstance(value, (np.generic, np.ndarray)) or hasattr(value, "handle"):
        return value
    raise TypeError(f"kernel argument {value!r}: pass a CuPy array or a NumPy scalar (np.int32(...)), not {type(value).__name__}")
