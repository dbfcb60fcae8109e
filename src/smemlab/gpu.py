"""The experiments' GPU runtime: device facts, a stream, kernels, launches, constants, timing.

One `Runtime` per process and device. CuPy owns the arrays and the stream; kernels load and launch
through smemlab.device (the package's one kernel cache and launch path) on that same stream, so
CuPy's work and ours stay ordered without syncs.
A launch error surfaces at the next synchronisation; `Runtime.sync(kernel, shape)` turns it into
a `KernelError` naming the kernel and its launch shape.
"""

from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from smemlab import device as dev
from smemlab.device import Kernel, launch_shape  # noqa: F401  (the experiments import them from here)
from smemlab.errors import KernelError, NoGPU

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
    # the SM clock the device reports (its boost clock, MHz): the binding limits set the shared
    # wavefronts against SMs x clock (smemlab.limits); None where the device does not say
    sm_clock_mhz: float | None = None

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


@dataclass
class Timing:
    """Milliseconds of one launch: median, min and max over `reps` timed launches."""

    median_ms: float
    min_ms: float
    max_ms: float
    reps: int


class Runtime:
    """The GPU a run uses: facts, a stream, compiled kernels and timing."""

    def __init__(self, device: int = 0):
        import cupy

        self.facts = read_facts(device)
        cupy.cuda.Device(device).use()
        dev.ensure_context(device)
        self.device = device
        major, minor = self.facts.compute_capability.split(".")
        self.arch = f"sm_{major}{minor}"
        self.cupy_stream = cupy.cuda.Stream(non_blocking=True)
        self.cupy_stream.use()
        self.stream_handle = int(self.cupy_stream.ptr)
        self.stream = dev.core_stream(self.stream_handle)
        self.variant_launches: list[tuple[str, list[str]]] = []  # (variant, its kernels), filled by the runner

    @property
    def launch_log(self) -> list[str] | None:
        """Kernel names in launch order, for the profiler and the sanitizer (smemlab.device's log)."""
        return dev.launch_log

    @launch_log.setter
    def launch_log(self, value: list[str] | None) -> None:
        dev.launch_log = value

    # -- kernels -------------------------------------------------------------------------------
    def kernel(self, source: str, name: str, defines: Mapping[str, object] | None = None) -> Kernel:
        """The kernel `name` of kernels/<source>, compiled with `defines` (cached)."""
        return dev.kernel(source, name, defines, self.device)

    def launch(
        self,
        kernel: Kernel,
        grid: int | Sequence[int],
        block: int | Sequence[int],
        *args: Any,
        shmem: int = 0,
        cluster: int | Sequence[int] | None = None,
        stream: int | None = None,
    ) -> None:
        """Enqueue `kernel` on the runtime's stream (or on the raw stream handle `stream`, for work
        spread over several streams). CuPy arrays pass as pointers, Python ints as integers of any
        width, floating-point values as NumPy scalars of the parameter's type (np.float32(x)). With
        `cluster`, `grid` counts blocks (as in CUDA C)."""
        dev.launch(kernel, grid, block, tuple(kernel_arg(a) for a in args),
                   self.stream_handle if stream is None else stream, shmem, cluster)

    def set_constant(self, source: str, symbol: str, values: np.ndarray, defines: Mapping[str, object] | None = None) -> None:
        """Write `values` into the `__constant__` symbol of kernels/<source> (cudaMemcpyToSymbol):
        new coefficients between launches, no recompiling."""
        dev.set_constant(source, symbol, values, defines, self.device, self.stream_handle)
        self.cupy_stream.synchronize()

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


def kernel_arg(value: Any) -> Any:
    """A launch argument: a CuPy array becomes its device pointer; NumPy scalars and Python ints
    (integer parameters of any width: smemlab.device.launch) pass as they are."""
    if hasattr(value, "data") and hasattr(value.data, "ptr"):
        return value.data.ptr
    if isinstance(value, (np.generic, np.ndarray, int)):
        return value
    raise TypeError(f"kernel argument {value!r}: pass a CuPy array, a Python int or a NumPy scalar (np.float32(...)), "
                    f"not {type(value).__name__}")
