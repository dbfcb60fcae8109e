"""The element-tile transpose kernels (transpose_eE_elRxC in ops/transpose/transpose.cu, any shape) against
the kernel that ops.transpose's plan picks, for ragged shapes and a few aligned ones: each output checked bit
for bit against CuPy, then timed against cudaMemcpyAsync on the same bytes (GB/s read + written, and the
fraction of cudaMemcpy's):

    python3 tools/sweeps/transpose_any_sweep.py            # every element kernel checked at small sizes, then timed
    python3 tools/sweeps/transpose_any_sweep.py --check    # only the checks (what compute-sanitizer runs)

What chose ops/transpose's ELEMENT_TILES."""

from __future__ import annotations

import sys

from dtype_sweep import copy_ms, kernel_ms  # tools/sweeps/ is the script's directory

from smemlab.lab.launches import transpose_instance

DTYPE = {2: "float16", 4: "float32", 8: "float64"}
SHAPES = [("float32", (7001, 5003)), ("float32", (8191, 8193)), ("float32", (100, 999, 1001)), ("float32", (1023, 1025)),
          ("float32", (4096, 4096)), ("float16", (7001, 5003)), ("float16", (8191, 8193)), ("float16", (32, 1000, 999)),
          ("float16", (1023, 1025)), ("float16", (4096, 4096)), ("float64", (7001, 5003)), ("float64", (4099, 4096)),
          ("float64", (50, 999, 1001)), ("float64", (4096, 4096))]
# sides 1, a tile side - 1, + 1, primes, batches, and shapes with whole tiles inside
SMALL = [(1, 1), (1, 63), (65, 1), (31, 33), (63, 65), (64, 64), (65, 64), (127, 129), (128, 128), (129, 31), (3, 33, 65),
         (2, 129, 31), (257, 131), (3, 130, 67), (300, 389), (2, 389, 263), (521, 256)]


def run_kernel(b, device, name: str, tile: tuple[int, int], x, out, source: str = "ops/transpose/transpose.cu", dyn: int = 0) -> tuple:
    """Launch element or pair kernel `name` of `source` (tiles of `tile`; an ops/transpose kernel name, or a
    template instance of transpose.cu such as "transpose_pairs<u16, 128, 64, 4>") on x into out once, the pointers
    rounded down to 16 bytes with their element offsets as ops.transpose passes them (x and out may be
    views), with `dyn` bytes of dynamic shared memory (unused: they cap the blocks an SM holds);
    (kernel, grid, args) to time it."""
    rows, cols = x.shape[-2:]
    ty, tx = -(-rows // tile[0]), -(-cols // tile[1])
    nt = x.size // (rows * cols) * ty * tx
    k = device.kernel(source, name if "<" in name else transpose_instance(name), None, b.device)
    if dyn > 48 << 10:
        k.allow_dynamic_smem(dyn)
    ip, op = x.data.ptr, out.data.ptr
    args = (op & ~15, (op & 15) // x.itemsize, ip & ~15, (ip & 15) // x.itemsize, rows, cols, ty, tx, nt)
    device.launch(k, nt, 256, args, b.stream.ptr, dyn)
    return k, nt, args


ELEMENT_TYPE = {2: "u16", 4: "unsigned", 8: "u64"}


def same(cupy, out, ref) -> bool:
    return bool(cupy.array_equal(out.view(cupy.uint8), ref.view(cupy.uint8)))


def check_small(b, cupy, device, kernels) -> int:
    """Every element kernel at SMALL's shapes, bit for bit; prints and returns the number wrong."""
    bad = []
    for name, e, tile in kernels:
        for shape in SMALL:
            x = b.random(shape, DTYPE[e])
            ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
            out = cupy.empty_like(ref)
            out.view(cupy.uint8).fill(0xFF)
            run_kernel(b, device, name, tile, x, out)
            b.sync()
            if not same(cupy, out, ref):
                bad.append((name, shape))
    print(f"small shapes, {len(kernels)} element kernels: {len(bad)} wrong {bad}", flush=True)
    return len(bad)


def time_shape(b, cupy, device, kernels, dtype: str, shape: tuple[int, ...]) -> str:
    from smemlab.ops.transpose import plan

    x = b.random(shape, dtype)
    ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
    out = cupy.empty_like(ref)
    rows, cols = shape[-2:]
    copy = copy_ms(b, x.nbytes, x.size)
    chosen, ty, tx, nt, threads = plan(shape, x.itemsize, True)
    line = [f"{'x'.join(map(str, shape))} {dtype}: memcpy {2 * x.nbytes / copy / 1e6:,.0f} GB/s"]

    def timed(label: str, k, grid: int, block: int, args) -> None:
        b.sync()
        if not same(cupy, out, ref):
            line.append(f"{label}: WRONG")
            return
        ms = kernel_ms(b, lambda: device.launch(k, grid, block, args, b.stream.ptr), x.size)
        line.append(f"{'*' if label == chosen else ''}{label} ({k.blocks_per_sm(block)}/SM): "
                    f"{2 * x.nbytes / ms / 1e6:,.0f} ({copy / ms:.3f})")

    if "_el" not in chosen:  # the 16-byte kernel the plan takes for this aligned shape
        k = device.kernel("ops/transpose/transpose.cu", transpose_instance(chosen), None, b.device)
        args = (out.data.ptr, 0, x.data.ptr, 0, rows, cols, ty, tx, nt)
        out.view(cupy.uint8).fill(0xFF)
        device.launch(k, nt, threads, args, b.stream.ptr)
        timed(chosen, k, nt, threads, args)
    for name, e, tile in kernels:
        if e == x.itemsize:
            out.view(cupy.uint8).fill(0xFF)
            k, grid, args = run_kernel(b, device, name, tile, x, out)
            timed(name, k, grid, 256, args)
    return "  ".join(line)


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.lab.launches import transpose_alternatives
    from smemlab.ops.transpose import element_kernels

    kernels = sorted(element_kernels() + transpose_alternatives())  # the op's and the alternatives measured
    with Bench(reps=15) as b:
        wrong = check_small(b, cupy, device, kernels)
        if "--check" in sys.argv:
            sys.exit(1 if wrong else 0)
        for dtype, shape in SHAPES:
            print(time_shape(b, cupy, device, kernels, dtype, shape), flush=True)
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
