"""Row sums of long rows (one block a row, rows_block_*) at other grid sizes than one block per row: the
same kernel looping over rows with a persistent grid, against CuPy's sum(axis=-1) (CUB), outputs checked
against float64 first; back-to-back time per call (tools/dev/timing.gpu_us):

    python3 tools/probes/reduce_rows_probe.py"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us

SHAPES = [(16384, 16384), (4096, 65536), (65536, 4096), (256, 1 << 20)]
# rows_block compiled for (ROWS_UNROLL vectors in flight a thread, ROWS_BLOCKS_PER_SM blocks an SM)
CAPS = [(8, 2), (8, 3), (8, 4), (16, 3), (4, 4), (4, 6), (12, 2)]


def checked_and_timed(b, device, label: str, k, grid: int, args: tuple, out, ref, gb: float) -> str:
    """One launch of row-sum kernel `k` checked against the float64 sums `ref` (out poisoned first), then
    timed back to back: the cell of the table (GB/s of input)."""
    import cupy

    from smemlab.ops import reduce as R

    stream = b.stream.ptr
    out.fill(cupy.nan)
    device.launch(k, grid, R.NT, args, stream)
    b.sync()
    err = float(cupy.max(cupy.abs(out - ref) / ref))
    if not err < 1e-5:
        return f"{label}: WRONG ({err:.2e})"
    us = gpu_us(lambda: device.launch(k, grid, R.NT, args, stream), 200)
    return f"{label} ({k.blocks_per_sm(R.NT)}/SM) {gb / us:,.0f}"


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.ops import reduce as R

    with Bench(reps=20) as b:
        k0 = device.kernel(R.SOURCE, R.KERNELS["rows_block_f32_f32"], device=b.device)
        capped = [(f"a row, u{u} {m}/SM cap", device.kernel(R.SOURCE, R.KERNELS["rows_block_f32_f32"], {"ROWS_BLOCKS_PER_SM": m, "ROWS_UNROLL": u}, b.device))
                  for u, m in CAPS]
        kw = device.kernel(R.SOURCE, R.KERNELS["rows_warp_f32_f32"], device=b.device)
        resident = device.facts(b.device).sms * k0.blocks_per_sm(R.NT)
        for rows, cols in SHAPES:
            x = b.random((rows, cols), "float32", 0.0, 1.0)
            ref = x.astype(cupy.float64).sum(axis=-1)
            out = cupy.empty(rows, dtype=cupy.float32)
            gb = x.nbytes / 1e3
            cells = [(f"{rows}x{cols}: plan {R.row_plan(rows, cols, 4, resident, R._slots(b.device))}, cupy "
                      f"{gb / gpu_us(lambda x=x: cupy.sum(x, axis=-1), 200):,.0f} GB/s")]
            for label, grid, k in [("a row", rows, k0), ("resident", resident, k0)] + [(lab, rows, k) for lab, k in capped]:
                grid = min(grid, rows)
                cells.append(checked_and_timed(b, device, f"{label} ({grid})", k, grid,
                                               (x.data.ptr, rows, cols, 1, 0, 0, out.data.ptr), out, ref, gb))
            for lanes in (32, 16):  # groups of `lanes` threads a row (rows_warp), one group's rows after another
                grid = min(-(-rows // (R.NT // lanes)), 2**31 - 1)
                cells.append(checked_and_timed(b, device, f"{lanes} lanes a row", kw, grid,
                                               (x.data.ptr, rows, cols, lanes, out.data.ptr), out, ref, gb))
            print("  ".join(cells), flush=True)
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
