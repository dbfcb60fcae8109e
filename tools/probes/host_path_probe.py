"""Where a Python call into a GPU kernel spends its time: python3 tools/probes/host_path_probe.py

Prints microseconds per call for (a) the calls users make today (torch, CuPy), (b) the pieces of
a call (stream look-ups, allocation, tensor metadata), and (c) the ways Python can launch one
kernel (cuda.core, cuda.bindings, ctypes on libcuda, CuPy's RawKernel), so the library's call path
is built from the fastest pieces measured on the machine, not guessed.

"loop": N calls back to back, then one synchronize (host path, GPU overlapped);
"alone": each call followed by a synchronize, timed alone (what one call costs a waiting user).
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import alone_us, host_us, loop_us


def main():
    import cupy
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda", 0)
    tsync = torch.cuda.synchronize
    csync = cupy.cuda.Device().synchronize
    n = 1 << 16
    x = torch.rand(n, device=dev)
    xi = torch.randint(0, 256, (n,), device=dev, dtype=torch.int32)
    a = torch.rand(256, 256, device=dev)
    m = torch.rand(128, 128, device=dev)
    w = torch.rand(1, 1, 9, device=dev)
    cx, cxi, ca, cm = (cupy.from_dlpack(t) for t in (x, xi, a, m))
    cw = cupy.random.random(9, dtype=cupy.float32)
    from cupyx.scipy.ndimage import correlate1d

    print("== what users call today (us per call) ==")
    rows = {
        "torch x.sum()": (lambda: x.sum(), tsync),
        "torch a.t().contiguous() 256^2": (lambda: a.t().contiguous(), tsync),
        "torch conv1d 2^16 r=4": (lambda: torch.nn.functional.conv1d(x.view(1, 1, -1), w, padding=4), tsync),
        "torch bincount 256": (lambda: torch.bincount(xi, minlength=256), tsync),
        "torch histc 256": (lambda: torch.histc(x, 256, 0, 1), tsync),
        "torch mm 128^3": (lambda: m @ m, tsync),
        "torch x*2": (lambda: x * 2, tsync),
        "torch.empty_like": (lambda: torch.empty_like(x), tsync),
        "cupy sum": (lambda: cupy.sum(cx), csync),
        "cupy ascontiguousarray(a.T)": (lambda: cupy.ascontiguousarray(ca.T), csync),
        "cupyx correlate1d": (lambda: correlate1d(cx, cw, mode="constant"), csync),
        "cupy bincount 256": (lambda: cupy.bincount(cxi, minlength=256), csync),
        "cupy matmul 128^3": (lambda: cupy.matmul(cm, cm), csync),
        "cupy.empty": (lambda: cupy.empty(n, dtype=cupy.float32), csync),
    }
    for name, (fn, sync) in rows.items():
        print(f"{name:40s} loop {loop_us(fn, sync):7.2f}   alone {alone_us(fn, sync):7.2f}")

    print("== pieces of a call (us, host only) ==")
    pieces = {
        "torch.cuda.current_stream(dev)": lambda: torch.cuda.current_stream(dev),
        "torch.cuda.current_stream().cuda_stream": lambda: torch.cuda.current_stream(dev).cuda_stream,
        "torch._C._cuda_getCurrentRawStream(0)": lambda: torch._C._cuda_getCurrentRawStream(0),
        "x.data_ptr()": lambda: x.data_ptr(),
        "x.is_contiguous()": lambda: x.is_contiguous(),
        "x.dtype": lambda: x.dtype,
        "x.shape": lambda: x.shape,
        "x.device": lambda: x.device,
        "x.get_device()": lambda: x.get_device(),
        "x.is_cuda": lambda: x.is_cuda,
        "type(x) is torch.Tensor": lambda: type(x) is torch.Tensor,
        "x.__cuda_array_interface__": lambda: x.__cuda_array_interface__,
        "torch.empty((), f32, device)": lambda: torch.empty((), dtype=torch.float32, device=dev),
        "torch.empty(n, device=x.device)": lambda: torch.empty(n, dtype=torch.float32, device=x.device),
        "torch.cuda.current_device()": lambda: torch.cuda.current_device(),
        "cupy.cuda.get_current_stream().ptr": lambda: cupy.cuda.get_current_stream().ptr,
        "cx.data.ptr": lambda: cx.data.ptr,
        "cx.device.id": lambda: cx.device.id,
        "cx.flags.c_contiguous": lambda: cx.flags.c_contiguous,
        "cx.__cuda_array_interface__": lambda: cx.__cuda_array_interface__,
        "cupy.cuda.runtime.getDevice()": lambda: cupy.cuda.runtime.getDevice(),
        "cupy.empty(n)": lambda: cupy.empty(n, dtype=cupy.float32),
    }
    for name, fn in pieces.items():
        print(f"{name:40s} {host_us(fn):7.3f}")

    print("== launching one kernel (copy 2^16 floats, torch.empty_like output, torch's stream) ==")
    from cuda.bindings import driver
    from cuda.core import Device, LaunchConfig, ObjectCode, Stream, launch

    from smemlab.compiler import compile_cubin

    Device(0).set_current()
    cubin = compile_cubin("lab/copy.cu", "sm_90")
    ker = ObjectCode.from_cubin(cubin).get_kernel("copyKernel")
    n4 = n // 4
    grid, block = 64, 256
    cfg = LaunchConfig(grid=grid, block=block)
    raw = torch._C._cuda_getCurrentRawStream
    core_streams = {}

    def via_core():
        out = torch.empty_like(x)
        s = raw(0)
        st = core_streams.get(s)
        if st is None:
            st = core_streams[s] = Stream.from_handle(s)
        launch(st, cfg, ker, out.data_ptr(), x.data_ptr(), np.uint64(n4))
        return out

    libcuda = ctypes.CDLL("libcuda.so.1")
    cuLaunchKernel = libcuda.cuLaunchKernel
    cuLaunchKernel.restype = ctypes.c_int
    cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 6 + [ctypes.c_uint, ctypes.c_void_p,
                                                                          ctypes.c_void_p, ctypes.c_void_p]
    fptr = int(ker.handle)
    p_out, p_in, p_n = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64(n4)
    params = (ctypes.c_void_p * 3)(ctypes.addressof(p_out), ctypes.addressof(p_in), ctypes.addressof(p_n))

    def via_ctypes():
        out = torch.empty_like(x)
        p_out.value = out.data_ptr()
        p_in.value = x.data_ptr()
        err = cuLaunchKernel(fptr, grid, 1, 1, block, 1, 1, 0, raw(0), params, None)
        if err:
            raise RuntimeError(f"cuLaunchKernel {err}")
        return out

    def via_ctypes_fresh():  # parameter storage built per call (thread-safe without a lock)
        out = torch.empty_like(x)
        vals = (ctypes.c_uint64(out.data_ptr()), ctypes.c_uint64(x.data_ptr()), ctypes.c_uint64(n4))
        ps = (ctypes.c_void_p * 3)(*[ctypes.addressof(v) for v in vals])
        err = cuLaunchKernel(fptr, grid, 1, 1, block, 1, 1, 0, raw(0), ps, None)
        if err:
            raise RuntimeError(f"cuLaunchKernel {err}")
        return out

    def via_bindings():
        out = torch.empty_like(x)
        args = ((out.data_ptr(), x.data_ptr(), n4), (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64))
        (err,) = driver.cuLaunchKernel(fptr, grid, 1, 1, block, 1, 1, 0, raw(0), args, 0)
        return out

    import tempfile

    cubin_path = Path(tempfile.mkdtemp()) / "copy.cubin"
    cubin_path.write_bytes(cubin)
    fn = cupy.RawModule(path=str(cubin_path)).get_function("copyKernel")
    grid_, block_ = (grid,), (block,)
    cupy_ext = cupy.cuda.ExternalStream(raw(0))

    def via_cupy():
        out = torch.empty_like(x)
        with cupy_ext:
            fn(grid_, block_, (out.data_ptr(), x.data_ptr(), np.uint64(n4)))
        return out

    variants = {"cuda.core launch": via_core, "ctypes cuLaunchKernel (cached params)": via_ctypes,
                "ctypes cuLaunchKernel (fresh params)": via_ctypes_fresh, "cuda.bindings cuLaunchKernel": via_bindings,
                "cupy RawModule + ExternalStream block": via_cupy}
    for name, f in variants.items():
        out = f()
        torch.cuda.synchronize()
        ok = bool(torch.equal(out, x))
        print(f"{name:40s} loop {loop_us(f, tsync):7.2f}   alone {alone_us(f, tsync):7.2f}   ok={ok}")

    print("== launch alone (output preallocated), us host per call ==")
    out = torch.empty_like(x)
    o_ptr, x_ptr = out.data_ptr(), x.data_ptr()
    st0 = Stream.from_handle(0)
    n4_i = n4
    vals = (ctypes.c_uint64(o_ptr), ctypes.c_uint64(x_ptr), ctypes.c_uint64(n4))
    pv = (ctypes.c_void_p * 3)(*[ctypes.addressof(v) for v in vals])
    pv_addr = ctypes.addressof(pv)
    ext0 = cupy.cuda.ExternalStream(0)
    launches = {
        "cuda.core launch, python ints": lambda: launch(st0, cfg, ker, o_ptr, x_ptr, n4_i),
        "cuda.core launch, np.uint64 last": lambda: launch(st0, cfg, ker, o_ptr, x_ptr, np.uint64(n4)),
        "cuda.bindings cuLaunchKernel, params address": lambda: driver.cuLaunchKernel(fptr, grid, 1, 1, block, 1, 1, 0, 0, pv_addr, 0),
        "ctypes cuLaunchKernel, params cached": lambda: cuLaunchKernel(fptr, grid, 1, 1, block, 1, 1, 0, 0, pv, None),
        "cupy RawKernel(stream=ExternalStream)": lambda: fn(grid_, block_, (o_ptr, x_ptr, np.uint64(n4)), stream=ext0),
        "cupy RawKernel(args cupy arrays)": lambda: fn(grid_, block_, (cout, cxx, np.uint64(n4)), stream=ext0),
    }
    cout, cxx = cupy.from_dlpack(out), cupy.from_dlpack(x)
    for name, f in launches.items():
        f()
        torch.cuda.synchronize()
        print(f"{name:48s} {host_us(f, 20000):7.3f}")
        torch.cuda.synchronize()
    dev0 = torch.device("cuda", 0)
    z = torch.empty((), device=dev0)
    empties = {
        "torch.empty((), dtype, device=x.device)": lambda: torch.empty((), dtype=torch.float32, device=x.device),
        "torch.empty((), dtype, device=cached dev)": lambda: torch.empty((), dtype=torch.float32, device=dev0),
        "torch.empty((), dtype, device=0)": lambda: torch.empty((), dtype=torch.float32, device=0),
        "x.new_empty(())": lambda: x.new_empty(()),
        "torch.empty_like(z)": lambda: torch.empty_like(z),
        "torch.empty((256,256), device=cached dev)": lambda: torch.empty((256, 256), dtype=torch.float32, device=dev0),
        "a.new_empty((256, 256))": lambda: a.new_empty((256, 256)),
        "torch.zeros(256, int32, cached dev)": lambda: torch.zeros(256, dtype=torch.int32, device=dev0),
        "cupy.empty(())": lambda: cupy.empty((), dtype=cupy.float32),
        "cupy.zeros(256, int32)": lambda: cupy.zeros(256, dtype=cupy.int32),
        "cupy.cuda.runtime.getDevice": cupy.cuda.runtime.getDevice,
        "np.int64(7)": lambda: np.int64(7),
        "np.dtype('float32').name": lambda: np.dtype("float32").name,
    }
    for name, f in empties.items():
        print(f"{name:48s} {host_us(f, 20000):7.3f}")
    torch.cuda.synchronize()

    print("== smemlab.ops today (us per call) ==")
    from smemlab import ops

    for name, f in {"reduce_sum torch": lambda: ops.reduce_sum(x), "transpose torch": lambda: ops.transpose(a),
                    "reduce_sum cupy": lambda: ops.reduce_sum(cx), "transpose cupy": lambda: ops.transpose(ca)}.items():
        f()
        print(f"{name:40s} loop {loop_us(f, tsync, 1000):7.2f}   alone {alone_us(f, tsync, 300):7.2f}")


if __name__ == "__main__":
    main()
