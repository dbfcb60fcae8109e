"""Element-tile transposes with tile shapes the package does not ship, against the shipped ones: other
instances of ops/transpose/transpose.cu's `transpose_elements<T, R, C, BLOCKS>` template (NVRTC name
expressions), each output checked bit for bit against CuPy,
then timed against cudaMemcpyAsync on the same bytes, as tools/sweeps/transpose_any_sweep.py times them:

    python3 tools/probes/transpose_tile_probe.py

What chose the 4-byte 128x32 element kernel's 5 blocks an SM (see its comment in the source). The
shipped kernels are the ones ops.transpose's plan takes; EXTRA holds what they are measured against."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sweeps"))  # tools/sweeps/dtype_sweep.py and transpose_any_sweep.py
from dtype_sweep import copy_ms, kernel_ms
from transpose_any_sweep import ELEMENT_TYPE, SMALL, run_kernel, same

# (element bytes, tile rows, tile columns, resident 256-thread blocks asked for, dynamic shared bytes
# launched with: unused, they cap the blocks an SM holds)
EXTRA = [(4, 128, 32, 6, 0), (4, 128, 32, 4, 40 << 10), (4, 128, 32, 4, 60 << 10), (4, 128, 32, 6, 22 << 10),
         (4, 128, 64, 3, 40 << 10), (2, 64, 64, 6, 22 << 10), (2, 64, 64, 6, 40 << 10)]
SHAPES = [("float32", (7001, 5003)), ("float32", (8191, 8193)), ("float32", (100, 999, 1001)), ("float32", (1023, 1025)),
          ("float16", (7001, 5003)), ("float16", (8191, 8193)), ("float16", (32, 1000, 999))]
DTYPE = {2: "float16", 4: "float32", 8: "float64"}
ROUNDS = 2


def extra_kernels() -> list:
    """EXTRA's kernels (template instance, element bytes, tile, dynamic shared bytes)."""
    return [(f"transpose_elements<{ELEMENT_TYPE[e]}, {r}, {c}, {minb}>", e, (r, c), dyn) for e, r, c, minb, dyn in EXTRA]


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.ops.transpose import ELEMENT_TILES, SOURCE, element_kernel

    source, extra = SOURCE, extra_kernels()
    shipped = [(element_kernel(e, ELEMENT_TILES[e]), e, ELEMENT_TILES[e], 0) for e in (2, 4)]
    with Bench(reps=15) as b:
        bad = []
        for name, e, tile, dyn in shipped + extra:
            for shape in SMALL:
                x = b.random(shape, DTYPE[e])
                ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
                out = cupy.empty_like(ref)
                out.view(cupy.uint8).fill(0xFF)
                run_kernel(b, device, name, tile, x, out, source, dyn)
                b.sync()
                if not same(cupy, out, ref):
                    bad.append((name, shape))
        print(f"small shapes: {len(bad)} wrong {bad}", flush=True)
        for dtype, shape in SHAPES:
            x = b.random(shape, dtype)
            ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
            out = cupy.empty_like(ref)
            copy = copy_ms(b, x.nbytes, x.size)
            line = [f"{'x'.join(map(str, shape))} {dtype}: memcpy {2 * x.nbytes / copy / 1e6:,.0f} GB/s"]
            for name, e, tile, dyn in (shipped + extra) * ROUNDS:  # rounds: each figure twice, apart in time
                if e != x.itemsize:
                    continue
                out.view(cupy.uint8).fill(0xFF)
                k, grid, args = run_kernel(b, device, name, tile, x, out, source, dyn)
                b.sync()
                if not same(cupy, out, ref):
                    line.append(f"{name}: WRONG")
                    continue
                ms = kernel_ms(b, lambda k=k, grid=grid, args=args, dyn=dyn: device.launch(k, grid, 256, args, b.stream.ptr, dyn),
                               x.size)
                line.append(f"{name} ({k.blocks_per_sm(256, dyn)}/SM): {copy / ms:.3f}")
            print("  ".join(line), flush=True)
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
