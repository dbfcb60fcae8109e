"""Issue 13's kernels at several settings, each output checked, then timed against cudaMemcpyAsync on the
same bytes and against the baselines, in one run:

    python3 tools/sweeps/dtype_sweep.py [transpose] [reduce] [rows]

Kernel time: back-to-back launches between CUDA events, or the replay of a CUDA graph of 20 launches where
one launch is shorter than the host path (under 2^24 elements), cudaMemcpy timed the same way. What chose
the tile size per shape (ops/transpose) and the occupancy targets (MINB_*) in ops/transpose/transpose.cu,
BLOCKS_PER_SM and UNROLL for the new sums in ops/reduce/reduce.cu, and the row kernels' plan (lanes and
blocks per row, ROWS_BLOCKS_PER_SM; ops/reduce)."""

from __future__ import annotations

import sys

import numpy as np

SMALL = 1 << 24


def graph_ms(b, fn, calls: int = 20) -> float:
    """Milliseconds per call of `fn` replayed from a CUDA graph of `calls` calls (host path excluded)."""
    import cupy

    s = b.stream
    fn()
    s.synchronize()
    s.begin_capture()
    try:
        for _ in range(calls):
            fn()
    except Exception:
        try:
            s.end_capture()
        except Exception:
            pass
        raise
    g = s.end_capture()
    g.launch(s)
    s.synchronize()
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    samples = []
    for _ in range(7):
        start.record(s)
        g.launch(s)
        stop.record(s)
        stop.synchronize()
        samples.append(cupy.cuda.get_elapsed_time(start, stop) / calls)
    return float(np.median(samples))


def kernel_ms(b, fn, elements: int) -> float:
    if elements < SMALL:
        try:
            return graph_ms(b, fn)
        except Exception as exc:  # a baseline that cannot be captured (allocations): timed back to back
            print(f"    (graph capture failed: {type(exc).__name__}: {exc}; timed back to back)")
            b.stream.synchronize()
    return b.throughput(fn)[0]


def copy_ms(b, nbytes: int, elements: int) -> float:
    import cupy

    rt = cupy.cuda.runtime
    src = cupy.empty(nbytes, dtype=cupy.uint8)
    dst = cupy.empty_like(src)
    return kernel_ms(b, lambda: rt.memcpyAsync(dst.data.ptr, src.data.ptr, nbytes, rt.memcpyDeviceToDevice, b.stream.ptr),
                     elements)


def transpose_part(b) -> None:
    import cupy

    from smemlab import device
    from smemlab.lab.launches import transpose_instance
    from smemlab.ops.transpose import plan

    stream = b.stream.ptr
    shapes = [(d, (n, n)) for n in (1024, 2048, 4096, 16384) for d in ("float32", "float16", "float64")]
    shapes += [("float32", (12000, 7000)), ("float32", (64, 1024, 1024)), ("float16", (512, 2048, 64)),
               ("float16", (256, 1024, 128)), ("float64", (1024, 128, 128)), ("float32", (7001, 5003)),
               ("float16", (7001, 5003)), ("float64", (7001, 5003)), ("float32", (8191, 8193)), ("float16", (4096, 4093)),
               ("float64", (4099, 4096)), ("float32", (100, 999, 1001)), ("float16", (32, 1000, 999))]
    for dtype, shape in shapes:
        x = b.random(shape, dtype)
        ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
        out = cupy.empty_like(ref)
        e, n = x.itemsize, x.size
        copy = copy_ms(b, x.nbytes, n)
        name = plan(shape, e, True)[0]
        rows, cols = shape[-2:]
        batch = x.size // (rows * cols)
        # the plan's kernel, the other tile size, transpose_v4 (float32)
        other = name.replace("_small", "") if "_small" in name else name.replace(f"_e{e}", f"_e{e}_small")
        variants = [(name, {}), (other, {})]
        if e == 4 and len(shape) == 2 and not name.endswith("_any"):
            variants.append(("transpose_v4", {}))
        line = [f"{'x'.join(map(str, shape))} {dtype}: memcpy {2 * x.nbytes / copy / 1e6:,.0f} GB/s"]
        for kname, defines in variants:
            chunks = 8 if "_small" in kname else 16
            side = chunks * 16 // e
            ty, tx = -(-rows // side), -(-cols // side)
            nt = batch * ty * tx
            k = (device.kernel("lab/transpose/transpose.cu", kname, defines, b.device) if kname == "transpose_v4" else
                 device.kernel("ops/transpose/transpose.cu", transpose_instance(kname), defines, b.device))
            if kname == "transpose_v4":
                args = (out.data.ptr, x.data.ptr, rows, cols, tx, nt)
            else:
                args = (out.data.ptr, 0, x.data.ptr, 0, rows, cols, ty, tx, nt)
            out.view(cupy.uint8).fill(0xFF)
            device.launch(k, nt, chunks * chunks, args, stream)
            b.sync()
            if not bool(cupy.array_equal(out.view(cupy.uint8), ref.view(cupy.uint8))):
                line.append(f"{kname}: WRONG")
                continue
            ms = kernel_ms(b, lambda: device.launch(k, nt, chunks * chunks, args, stream), n)
            gbps = 2 * x.nbytes / ms / 1e6
            mark = "*" if (kname, defines) == (name, {}) else ""
            line.append(f"{mark}{kname}{defines or ''} ({k.blocks_per_sm(chunks * chunks)}/SM): {gbps:,.0f} ({copy / ms:.3f})")
        base = kernel_ms(b, lambda: cupy.ascontiguousarray(x.swapaxes(-1, -2)), n)
        line.append(f"cupy {2 * x.nbytes / base / 1e6:,.0f}")
        if b.torch is not None:
            t = b.as_torch(x)
            tb = b.throughput(lambda: t.transpose(-1, -2).contiguous())[0]
            line.append(f"torch {2 * x.nbytes / tb / 1e6:,.0f}")
        print("  ".join(line), flush=True)
        x = ref = out = None
        cupy.get_default_memory_pool().free_all_blocks()


SUFFIX = {"float64": "f64_f64", "int64": "i64_i64", "float16": "f16_f16", "bfloat16": "bf16_bf16", "float32": "f32_f32",
          "int32": "i32_i64"}


def reduce_part(b) -> None:
    import cupy

    from smemlab import device
    from smemlab.ops.reduce import KERNELS as REDUCE_KERNELS

    stream = b.stream.ptr
    sms = device.facts(b.device).sms
    n = 1 << 28
    print(f"cudaMemcpy of 2^28 x 4 bytes: {2 * 4 * n / copy_ms(b, 4 * n, n) / 1e6:,.0f} GB/s (read + write)")
    for dtype in ("float64", "int64", "float16", "bfloat16"):
        if dtype == "bfloat16":
            if b.torch is None:
                continue
            t = b.as_torch(b.random(n, "float32")).to(b.torch.bfloat16)
            x, ref, nbytes = None, float(t.double().sum()), 2 * n
            xptr = t.data_ptr()
        else:
            x = b.random(n, dtype) if dtype == "int64" else b.random(n, dtype, -1.0, 1.0)
            ref, nbytes, xptr = float(cupy.sum(x.astype(cupy.float64))), x.nbytes, x.data.ptr
            t = b.as_torch(x)
        line = [f"reduce 2^28 {dtype}:"]
        for defines in ({}, {"BLOCKS_PER_SM": 3}, {"BLOCKS_PER_SM": 4}, {"UNROLL": 16, "BLOCKS_PER_SM": 1}):
            k = device.kernel("ops/reduce/reduce.cu", REDUCE_KERNELS["reduce_" + SUFFIX[dtype]], defines, b.device)
            occ = k.blocks_per_sm(256)
            grid = sms * max(1, min(occ, 8))
            part = cupy.empty(grid, dtype=cupy.float64)
            cnt = cupy.zeros(1, dtype=cupy.uint32)
            out = cupy.empty(1, dtype=cupy.int64 if dtype == "int64" else cupy.float64)  # 8 bytes: room for any output
            args = (xptr, n, part.data.ptr, cnt.data.ptr, out.data.ptr)
            device.launch(k, grid, 256, args, stream)
            b.sync()
            got = _value(out, dtype)
            ok = got == ref if dtype == "int64" else abs(got - ref) <= 1e-6 * abs(ref) + (abs(ref) * 2.0**-7 if dtype in ("float16", "bfloat16") else 1e-6)
            ms = b.throughput(lambda: device.launch(k, grid, 256, args, stream))[0]
            line.append(f"{defines or 'default'} ({occ}/SM): {nbytes / ms / 1e6:,.0f} GB/s{'' if ok else ' WRONG'}")
        if x is not None:
            line.append(f"cupy {nbytes / b.throughput(lambda: cupy.sum(x))[0] / 1e6:,.0f}")
        if t is not None:
            line.append(f"torch {nbytes / b.throughput(lambda: t.sum())[0] / 1e6:,.0f}")
        print("  ".join(line), flush=True)
        x = t = None
        cupy.get_default_memory_pool().free_all_blocks()


def _value(out, dtype: str) -> float:
    import cupy

    raw = cupy.asnumpy(out.view(cupy.uint16 if dtype in ("float16", "bfloat16") else out.dtype))
    if dtype == "float16":
        return float(raw[:1].view(np.float16)[0])
    if dtype == "bfloat16":
        return float((raw[:1].astype(np.uint32) << 16).view(np.float32)[0])
    return float(raw[0]) if dtype != "int64" else int(raw[0])


def rows_part(b) -> None:
    import cupy

    from smemlab import device
    from smemlab.ops.reduce import KERNELS as REDUCE_KERNELS
    from smemlab.ops.reduce import _slots, row_plan

    stream = b.stream.ptr
    sms = device.facts(b.device).sms
    for rows, cols in ((1 << 14, 1 << 14), (1 << 20, 256), (256, 1 << 20), (1 << 16, 1000), (4096, 4099), (100, 1 << 20),
                       (1 << 17, 2048)):
        x = b.random((rows, cols), "float32")
        ref = cupy.sum(x.astype(cupy.float64), axis=-1)
        out = cupy.empty(rows, dtype=cupy.float32)
        resident = sms * device.kernel("ops/reduce/reduce.cu", REDUCE_KERNELS["rows_block_f32_f32"], {}, b.device).blocks_per_sm(256)
        kind, grid, per = row_plan(rows, cols, 4, resident, _slots(b.device))
        line = [f"rows {rows}x{cols} f32: plan {kind} {per}"]
        variants = [(kind, per, {}), (kind, per, {"ROWS_BLOCKS_PER_SM": 3}), (kind, per, {"ROWS_BLOCKS_PER_SM": 4})]
        variants += [("warp", lanes, {}) for lanes in (2, 4, 8, 16, 32) if (kind, lanes) != ("warp", per)]
        variants += [("block", segs, {}) for segs in (1, 2, 4, 8) if (kind, segs) != ("block", per)]
        part = cupy.empty(max(8, _slots(b.device)), dtype=cupy.float64)
        cnt = cupy.zeros(max(rows, 1), dtype=cupy.uint32)
        for kind_v, per_v, defines in variants:
            if kind_v == "block" and (per_v * rows > part.size and per_v > 1 or per_v * rows > 1 << 18):
                continue
            if kind_v == "warp" and cols * 4 > 4 * 32 * 1024:
                continue
            k = device.kernel("ops/reduce/reduce.cu", REDUCE_KERNELS[f"rows_{kind_v}_f32_f32"], defines, b.device)
            if kind_v == "warp":
                g = -(-(-(-rows // (32 // per_v))) // 8)
                args = (x.data.ptr, rows, cols, per_v, out.data.ptr)
            else:
                g = rows * per_v
                args = (x.data.ptr, rows, cols, per_v, part.data.ptr, cnt.data.ptr, out.data.ptr)
            out.fill(np.nan)
            device.launch(k, g, 256, args, stream)
            b.sync()
            ok = bool(cupy.allclose(out, ref, rtol=1e-5, atol=1e-3))
            ms = b.throughput(lambda: device.launch(k, g, 256, args, stream))[0]
            tag = f"{kind_v} {per_v}" + (f" {defines}" if defines else "")
            line.append(f"{tag} ({k.blocks_per_sm(256)}/SM): {x.nbytes / ms / 1e6:,.0f}{'' if ok else ' WRONG'}")
        line.append(f"cupy {x.nbytes / b.throughput(lambda: cupy.sum(x, axis=-1))[0] / 1e6:,.0f}")
        if b.torch is not None:
            t = b.as_torch(x)
            line.append(f"torch {x.nbytes / b.throughput(lambda: t.sum(dim=-1))[0] / 1e6:,.0f}")
        print("  ".join(line), flush=True)
        x = ref = out = part = None
        cupy.get_default_memory_pool().free_all_blocks()


def main() -> None:
    from smemlab.bench import Bench

    parts = sys.argv[1:] or ["transpose", "reduce", "rows"]
    with Bench(reps=15) as b:
        for p in parts:
            {"transpose": transpose_part, "reduce": reduce_part, "rows": rows_part}[p](b)


if __name__ == "__main__":
    main()
