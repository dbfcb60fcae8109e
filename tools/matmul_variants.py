"""Kernel time (the launch alone, output preallocated) of every smemlab.ops.matmul variant at
small and medium sizes, against cuBLAS (TF32 off), back-to-back launches between CUDA events,
outputs checked first: python3 tools/matmul_variants.py. What chose BY_SIZE in
smemlab/ops/matmul.py."""

from __future__ import annotations

from timing import gpu_us


def main() -> None:
    import cupy as cp

    from smemlab import device
    from smemlab.frameworks import cupy_tf32_off
    from smemlab.ops.matmul import SOURCE, VARIANTS, kernel_args, launch_shape, matmul

    cupy_tf32_off()
    s = cp.cuda.Stream(non_blocking=True)
    s.use()

    print("size   " + " ".join(f"{v:>13s}" for v in VARIANTS) + "       cuBLAS")
    for m in (128, 256, 384, 512, 768, 1024, 1536, 2048, 4096):
        a = cp.random.default_rng(1).random((m, m), dtype=cp.float32)
        b = cp.random.default_rng(2).random((m, m), dtype=cp.float32)
        ref = a.astype(cp.float64) @ b.astype(cp.float64)
        cells = []
        for v in VARIANTS:
            c = matmul(a, b, variant=v)
            err = float(cp.linalg.norm(c - ref) / cp.linalg.norm(ref))
            assert err < 1e-5, (v, m, err)
            k = device.kernel(SOURCE, f"mm_{v}")
            grid, threads = launch_shape(v, m, m)
            args = kernel_args(a.data.ptr, b.data.ptr, c.data.ptr, m, m, m)
            cells.append(f"{gpu_us(lambda: device.launch(k, grid, threads, args, s.ptr), 50 if m >= 2048 else 200):13.1f}")
        cells.append(f"{gpu_us(lambda: cp.matmul(a, b), 50 if m >= 2048 else 200):13.1f}")
        print(f"{m:5d}  " + " ".join(cells))


if __name__ == "__main__":
    main()
