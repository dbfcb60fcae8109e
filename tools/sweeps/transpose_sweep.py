"""The 16-byte transpose kernel at several occupancy hints (MINB: __launch_bounds__' minimum
blocks per SM) and tile orders (ORDER) against cudaMemcpyAsync on the same bytes, outputs
checked first: python3 tools/sweeps/transpose_sweep.py. What chose MINB and ORDER in
ops/transpose/transpose.cu."""

from __future__ import annotations


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench

    with Bench(reps=20) as b:
        for rows, cols in ((16384, 16384), (12000, 7000), (7000, 12000), (8192, 8192), (4096, 4096)):
            x = b.random((rows, cols), "float32")
            ref = cupy.ascontiguousarray(x.T)
            out = cupy.empty((cols, rows), dtype=cupy.float32)
            copy = b.memcpy(x.nbytes).gbps
            tiles_x = -(-cols // 64)
            ntiles = tiles_x * -(-rows // 64)
            line = [f"{rows}x{cols}: memcpy {copy:,.0f} GB/s;"]
            for defines in ({"ORDER": 0}, {"ORDER": 0, "MINB": 4}, {"ORDER": 1}, {"ORDER": 2}, {"ORDER": 3}, {"ORDER": 1, "MINB": 4}):
                k = device.kernel("lab/transpose/transpose.cu", "transpose_v4", defines, b.device)
                args = (out.data.ptr, x.data.ptr, rows, cols, tiles_x, ntiles)
                out.fill(float("nan"))
                device.launch(k, ntiles, 256, args, b.stream.ptr)
                b.sync()
                assert bool(cupy.array_equal(out, ref)), defines
                ms = b.throughput(lambda: device.launch(k, ntiles, 256, args, b.stream.ptr))[0]
                gbps = 2 * x.nbytes / ms / 1e6
                line.append(f"{defines} ({k.blocks_per_sm(256)}/SM): {gbps:,.0f} ({gbps / copy:.3f})")
            print(" ".join(line), flush=True)
            x = ref = out = None


if __name__ == "__main__":
    main()
