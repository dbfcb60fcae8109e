"""Host time of one cuLaunchKernel through CuPy's typed binding, by the handle and the argument form
it is given: python3 tools/probes/launch_variants.py

smemlab.device launches the CUkernel that cuda.core's cuLibrary load gives; the driver accepts a
CUkernel where a CUfunction is expected and resolves it for the current context at each launch.
This sets that beside the CUfunction got once from cuKernelGetFunction, with the packed parameter
buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) and with an array of pointers to each argument."""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us, host_us


def main() -> None:
    import cupy
    from cuda.bindings import driver
    from cupy_backends.cuda.api.driver import launchKernel

    from smemlab import device

    x = cupy.random.rand(64, 64, dtype=cupy.float32)
    out = cupy.empty_like(x)
    k = device.kernel("lab/transpose/transpose.cu", "transpose_v4", device=0)
    args = (out.data.ptr, x.data.ptr, 64, 64, 1, 1)
    stream = cupy.cuda.Stream(non_blocking=True)
    s = stream.ptr
    device.launch(k, 1, 256, args, s)
    p = device._packed(k)
    err, func = driver.cuKernelGetFunction(k.handle.handle)
    assert err == driver.CUresult.CUDA_SUCCESS, err
    func = int(func)
    vals = [ctypes.c_int64(v) for v in args]
    ptrs = (ctypes.c_void_p * len(vals))(*[ctypes.addressof(v) for v in vals])
    variants = {
        "device.launch (CUkernel, packed buffer)": lambda: device.launch(k, 1, 256, args, s),
        "launchKernel(CUkernel, packed buffer)": lambda: launchKernel(p.func, 1, 1, 1, 256, 1, 1, 0, s, 0, p.extra),
        "launchKernel(CUfunction, packed buffer)": lambda: launchKernel(func, 1, 1, 1, 256, 1, 1, 0, s, 0, p.extra),
        "launchKernel(CUkernel, param pointers)": lambda: launchKernel(p.func, 1, 1, 1, 256, 1, 1, 0, s, ctypes.addressof(ptrs), 0),
        "launchKernel(CUfunction, param pointers)": lambda: launchKernel(func, 1, 1, 1, 256, 1, 1, 0, s, ctypes.addressof(ptrs), 0),
    }
    with stream:
        for name, fn in variants.items():
            out.fill(0)
            fn()
            stream.synchronize()
            assert bool((out == x.T).all()), name
            print(f"{name:44s} {host_us(fn, 20000):7.3f} us host   {gpu_us(fn, 4000):7.3f} us per launch back-to-back")
            stream.synchronize()
        print("again, reversed order:")
        for name, fn in reversed(list(variants.items())):
            print(f"{name:44s} {host_us(fn, 20000):7.3f} us host")
            stream.synchronize()


if __name__ == "__main__":
    main()
