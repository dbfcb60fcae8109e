"""The pair kernels (transpose_eE_prRxC in ops/transpose/transpose.cu: a 32- or 64-bit word of two elements a
lane and access) against the element kernels (ELEMENT_TILES, SMALL_TILE_E4), for ragged shapes, the plan's
choice marked *: each kernel checked bit for
bit against CuPy at tools/sweeps/transpose_any_sweep.py's small shapes, on whole arrays and on unaligned views
(x[k:] of a flat buffer, reshaped, into an output view at another offset), then timed against
cudaMemcpyAsync on the same bytes, ROUNDS rounds apart in time, as tools/probes/transpose_tile_probe.py times:

    python3 tools/probes/transpose_pair_probe.py            # checks, then timings
    python3 tools/probes/transpose_pair_probe.py --check    # only the checks, each array its own cudaMalloc
                                                     # (what compute-sanitizer runs: no pool hides a stray access)

What chose ops/transpose's PAIR_TILES and the pair kernels' blocks an SM. The pair kernels at other
occupancies than the op's (EXTRA) are other instances of transpose.cu's `transpose_pairs` template."""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sweeps"))  # tools/sweeps/dtype_sweep.py and transpose_any_sweep.py
from dtype_sweep import copy_ms, kernel_ms
from transpose_any_sweep import ELEMENT_TYPE, SMALL, run_kernel, same

DTYPE = {2: "float16", 4: "float32"}
# (element bytes, tile rows, tile columns, resident 256-thread blocks asked for)
EXTRA = [(2, 64, 64, 6), (2, 64, 64, 8), (2, 128, 64, 5), (2, 128, 64, 3), (4, 64, 64, 4), (4, 128, 64, 4)]
SHAPES = [("float16", (7001, 5003)), ("float16", (8191, 8193)), ("float16", (32, 1000, 999)), ("float16", (1023, 1025)),
          ("float32", (7001, 5003)), ("float32", (8191, 8193)), ("float32", (100, 999, 1001)), ("float32", (1023, 1025)),
          # either side of the plan's FEW_TILES switch between the element and the pair kernels
          ("float16", (3001, 2999)), ("float16", (4096, 4093)), ("float32", (3001, 2999)), ("float32", (4096, 4093))]
# (input, output) element offsets from the start of a flat buffer: views off 16-byte and word boundaries
OFFSETS = [(1, 0), (0, 1), (1, 3), (3, 2), (5, 7)]
ROUNDS = 2


def extra_kernels() -> list:
    """EXTRA's kernels (template instance, element bytes, tile)."""
    return [(f"transpose_pairs<{ELEMENT_TYPE[e]}, {r}, {c}, {minb}>", e, (r, c)) for e, r, c, minb in EXTRA]


def check(b, cupy, device, source: str, kernels) -> list:
    """Every kernel at SMALL's shapes, on whole arrays and at OFFSETS, bit for bit: the wrong ones."""
    bad = []
    for name, e, tile in kernels:
        for n, shape in enumerate(SMALL):
            size = math.prod(shape)
            for ioff, ooff in [(0, 0)] + [OFFSETS[n % len(OFFSETS)]]:
                flat = b.random(size + ioff, DTYPE[e])
                x = flat[ioff:].reshape(shape)
                ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
                oflat = cupy.empty(size + ooff, dtype=x.dtype)
                oflat.view(cupy.uint8).fill(0xFF)
                out = oflat[ooff:].reshape(ref.shape)
                run_kernel(b, device, name, tile, x, out, source)
                b.sync()
                ok = same(cupy, out, ref) and bool((oflat[:ooff].view(cupy.uint8) == 0xFF).all())  # nothing before out
                if not ok:
                    bad.append((name, shape, ioff, ooff))
    return bad


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.ops.transpose import (
        ELEMENT_TILES,
        SMALL_TILE_E4,
        SOURCE,
        element_kernel,
        element_kernels,
        plan,
    )

    only_check = "--check" in sys.argv
    if only_check:
        cupy.cuda.set_allocator(None)
    source, extra = SOURCE, extra_kernels()
    pairs = [k for k in element_kernels() if "_pr" in k[0]]
    with Bench(reps=15) as b:
        checked = pairs + ([] if only_check else extra)
        bad = check(b, cupy, device, source, checked)
        print(f"small shapes and views, {len(checked)} pair kernels: {len(bad)} wrong {bad}", flush=True)
        if only_check:
            sys.exit(1 if bad else 0)
        for dtype, shape in SHAPES:
            x = b.random(shape, dtype)
            ref = cupy.ascontiguousarray(x.swapaxes(-1, -2))
            out = cupy.empty_like(ref)
            copy = copy_ms(b, x.nbytes, x.size)
            shipped = plan(shape, x.itemsize, False)[0]
            size = x.itemsize
            plain = [element_kernel(size, ELEMENT_TILES[size])] + ([element_kernel(4, SMALL_TILE_E4)] if size == 4 else [])
            timed = [k for k in element_kernels() if k[0] == shipped or k[0] in plain]
            line = [f"{'x'.join(map(str, shape))} {dtype}: memcpy {2 * x.nbytes / copy / 1e6:,.0f} GB/s"]
            for name, e, tile in (timed + [k for k in pairs if k[0] != shipped] + extra) * ROUNDS:
                if e != x.itemsize:
                    continue
                out.view(cupy.uint8).fill(0xFF)
                k, grid, args = run_kernel(b, device, name, tile, x, out, source)
                b.sync()
                if not same(cupy, out, ref):
                    line.append(f"{name}: WRONG")
                    continue
                ms = kernel_ms(b, lambda k=k, grid=grid, args=args: device.launch(k, grid, 256, args, b.stream.ptr), x.size)
                line.append(f"{'*' if name == shipped else ''}{name} ({k.blocks_per_sm(256)}/SM): {copy / ms:.3f}")
            print("  ".join(line), flush=True)
            x = ref = out = None
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
