"""Row sums of long rows (one block a row, rows_block_*) at other grid sizes than one block per row: the
same kernel looping over rows with a persistent grid, against CuPy's sum(axis=-1) (CUB), outputs checked
against float64 first; back-to-back time per call (tools/timing.gpu_us):

    python3 tools/reduce_rows_probe.py"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from timing import gpu_us

SHAPES = [(16384, 16384), (4096, 65536), (65536, 4096), (256, 1 << 20)]


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.ops import reduce as R

    with Bench(reps=20) as b:
        stream = b.stream.ptr
        k0 = device.kernel(R.SOURCE, "rows_block_f32_f32", device=b.device)
        resident = device.facts(b.device).sms * k0.blocks_per_sm(R.NT)
        for rows, cols in SHAPES:
            x = b.random((rows, cols), "float32", 0.0, 1.0)
            ref = x.astype(cupy.float64).sum(axis=-1)
            out = cupy.empty(rows, dtype=cupy.float32)
            gb = x.nbytes / 1e3
            cells = [f"{rows}x{cols}: plan {R.row_plan(rows, cols, 4, resident, R._slots(b.device))}, cupy {gb / gpu_us(lambda x=x: cupy.sum(x, axis=-1), 200):,.0f} GB/s"]
            k3 = device.kernel(R.SOURCE, "rows_block_f32_f32", {"ROWS_BLOCKS_PER_SM": 3}, b.device)
            k4 = device.kernel(R.SOURCE, "rows_block_f32_f32", {"ROWS_BLOCKS_PER_SM": 4}, b.device)
            for label, grid, k in (("a row", rows, k0), ("resident", resident, k0), ("2x", 2 * resident, k0),
                                   ("a row, 3/SM cap", rows, k3), ("a row, 4/SM cap", rows, k4)):
                grid = min(grid, rows)
                args = (x.data.ptr, rows, cols, 1, 0, 0, out.data.ptr)
                out.fill(cupy.nan)
                device.launch(k, grid, R.NT, args, stream)
                b.sync()
                err = float(cupy.max(cupy.abs(out - ref) / ref))
                if not err < 1e-5:
                    cells.append(f"{label}: WRONG ({err:.2e})")
                    continue
                us = gpu_us(lambda grid=grid, args=args, k=k: device.launch(k, grid, R.NT, args, stream), 200)
                cells.append(f"{label} ({grid}, {k.blocks_per_sm(R.NT)}/SM) {gb / us:,.0f}")
            kw = device.kernel(R.SOURCE, "rows_warp_f32_f32", device=b.device)
            for lanes in (32, 16):  # groups of `lanes` threads a row (rows_warp), one group's rows after another
                grid = min(-(-rows // (R.NT // lanes)), 2**31 - 1)
                args = (x.data.ptr, rows, cols, lanes, out.data.ptr)
                out.fill(cupy.nan)
                device.launch(kw, grid, R.NT, args, stream)
                b.sync()
                err = float(cupy.max(cupy.abs(out - ref) / ref))
                if not err < 1e-5:
                    cells.append(f"warp {lanes}: WRONG ({err:.2e})")
                    continue
                us = gpu_us(lambda grid=grid, args=args, kw=kw: device.launch(kw, grid, R.NT, args, stream), 200)
                cells.append(f"{lanes} lanes a row ({kw.blocks_per_sm(R.NT)}/SM) {gb / us:,.0f}")
            print("  ".join(cells), flush=True)
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
