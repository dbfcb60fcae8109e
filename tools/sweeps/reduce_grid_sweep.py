"""reduce_sum's kernel at several grid sizes against cudaMemcpy and CUB (cupy.sum), float32 and int32
from 2^18 to 2^28 elements, outputs checked first: python3 tools/sweeps/reduce_grid_sweep.py. What chose the
grid rule in smemlab/ops/reduce."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us


def main() -> None:
    import cupy
    import numpy as np

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.ops import reduce as R

    with Bench(reps=20) as b:
        stream = b.stream.ptr
        for dtype, name in (("float32", "reduce_f32_f32"), ("int32", "reduce_i32_i64")):
            k, grid = R._plan(b.device, name)
            per_sm = k.blocks_per_sm(R.NT)
            sms = device.facts(b.device).sms
            ws = R._workspace(b.device, stream, grid)
            for lg in (18, 20, 22, 24, 26, 28):
                n = 1 << lg
                x = b.random(n, dtype, 0.0, 1.0) if dtype == "float32" else b.random(n, dtype)
                ref = float(cupy.sum(x.astype(cupy.float64)))
                out = cupy.empty((), dtype=np.float32 if dtype == "float32" else np.int64)
                tiles = -(-x.nbytes // R.TILE_BYTES)
                cells = [f"{dtype} 2^{lg}: cupy {gpu_us(lambda: cupy.sum(x), 200):7.1f} us"]
                for label, blocks in (("tiles", min(grid, tiles)), ("1/SM", min(sms, tiles)),
                                      ("resident", min(sms * per_sm, tiles)), ("2x resident", min(grid, tiles)),
                                      ("tiles/2", max(1, min(grid, tiles // 2))), ("tiles/4", max(1, min(grid, tiles // 4)))):
                    args = (x.data.ptr, n, ws.partials_ptr, ws.counter_ptr, out.data.ptr)
                    device.launch(k, blocks, R.NT, args, stream)
                    b.sync()
                    assert abs(float(out) - ref) <= 1e-3 * abs(ref) + 1, (label, float(out), ref)
                    cells.append(f"{label} ({blocks}) {gpu_us(lambda: device.launch(k, blocks, R.NT, args, stream), 200):7.1f}")
                print("  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
