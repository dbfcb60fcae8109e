"""The experiments' GPU runtime: a stream, kernels, launches, constants, timing.

One `Runtime` per process and device; its `facts` are smemlab.device's (the one place device facts
are read). CuPy owns the arrays and the stream; kernels load and launch through smemlab.device (the
package's one kernel cache and launch path) on that same stream, so CuPy's work and ours stay
ordered without syncs.
A launch error surfaces at the next synchronisation; `Runtime.sync(kernel, shape)` turns it into
a `KernelError` naming the kernel and its launch shape.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from smemlab import device as dev
from smemlab import measure
from smemlab.device import Kernel, launch_shape  # noqa: F401  (the experiments import them from here)
from smemlab.errors import KernelError
from smemlab.measure import Timing


class Runtime:
    """The GPU a run uses: facts, a stream, compiled kernels and timing."""

    def __init__(self, device: int = 0):
        import cupy

        self.facts = dev.facts(device)
        cupy.cuda.Device(device).use()
        dev.ensure_context(device)
        self.device = device
        self.arch = self.facts.arch
        self.cupy_stream = cupy.cuda.Stream(non_blocking=True)
        self.cupy_stream.use()
        self.stream_handle = int(self.cupy_stream.ptr)
        self.stream = dev.core_stream(self.stream_handle)
        # inside `record_launches()`: the kernel names launched, in order (else None), and (variant, its
        # kernels) for each variant the runner ran meanwhile
        self.launch_log: list[str] | None = None
        self.variant_launches: list[tuple[str, list[str]]] = []

    @contextmanager
    def record_launches(self) -> Iterator[list[str]]:
        """Record the kernels launched inside the block (smemlab.device.recording_launches), for the
        profiler's and the sanitizer's child runs: the runner files them by variant, and an experiment
        leaves out launches outside its cases while `launch_log` is set."""
        with dev.recording_launches() as log:
            self.launch_log = log
            try:
                yield log
            finally:
                self.launch_log = None

    # -- kernels -------------------------------------------------------------------------------
    def kernel(self, source: str, name: str, defines: Mapping[str, object] | None = None) -> Kernel:
        """The kernel `name` of the package's <source>, compiled with `defines` (cached)."""
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
        """Write `values` into the `__constant__` symbol of the package's <source> (cudaMemcpyToSymbol):
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

    def time(self, fn: Callable[[], Any], warmup: int = 3, reps: int = 20, host: bool = False,
             batch: int | None = None) -> Timing:
        """Milliseconds per call of `fn` (which enqueues work on the runtime's stream), by
        smemlab.measure: `reps` samples of back-to-back calls between CUDA events (`batch` calls a
        sample; None: as many as last about a millisecond), median, min and max; with `host`, work
        done on the host, each call timed alone on the host clock."""
        if host:
            return measure.time_host(fn, reps=reps, warmup=warmup)
        return measure.time_calls(fn, self.cupy_stream, reps=reps, warmup=warmup, batch=batch)


def kernel_arg(value: Any) -> Any:
    """A launch argument: a CuPy array becomes its device pointer; NumPy scalars and Python ints
    (integer parameters of any width: smemlab.device.launch) pass as they are."""
    if hasattr(value, "data") and hasattr(value.data, "ptr"):
        return value.data.ptr
    if isinstance(value, (np.generic, np.ndarray, int)):
        return value
    raise TypeError(f"kernel argument {value!r}: pass a CuPy array, a Python int or a NumPy scalar (np.float32(...)), "
                    f"not {type(value).__name__}")
