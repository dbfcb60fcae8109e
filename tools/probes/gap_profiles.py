"""The launches behind the README's "goals still missed" figures, each output verified, for Nsight Compute
to profile side by side (no timing here):

    ncu --clock-control none -k regex:"mm_|gemm|hist_ranges|hist_cluster_exchange|transpose_e2|cupy_copy__float16_float16" \\
        --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \\
        --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \\
        --metrics sm__inst_executed.sum,sm__inst_executed_pipe_fma.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,\\
    sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__sass_inst_executed_op_shared_ld.sum,\\
    smsp__sass_inst_executed_op_dshared_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum \\
        python3 tools/probes/gap_profiles.py

- matmul 4096^3 float32: smemlab's kernel and cuBLAS's (torch.mm, TF32 off), both against a float64 product;
- histogram of 2^26 uniform keys into 262144 bins: `ranges` (the best single-block design) and
  `cluster_exchange` (the distributed-shared-memory design the bench judged; the histogram experiment's
  since it left the library, launched by smemlab.lab.histogram.cluster_methods), both exact against CuPy;
- transpose of a 7001x5003 float16 matrix (the pair kernel) and a plain copy of the same bytes.
Each runs twice (the first launch also compiles and warms)."""

from __future__ import annotations

import sys


def lab_histogram(keys, bins: int, method: str):
    """A cluster design's counts of the CuPy `keys` (the histogram experiment's, no longer the op's)."""
    import cupy

    from smemlab.lab.histogram import cluster_methods

    out = cupy.zeros(bins, dtype=cupy.int32)
    cluster_methods.launch(keys.data.ptr, keys.size, out.data.ptr, bins, keys.device.id, cupy.cuda.get_current_stream().ptr,
                           method)
    return out


def main() -> int:
    import cupy
    import torch

    from smemlab.frameworks import torch_tf32_off
    from smemlab.ops import histogram, matmul, transpose

    torch_tf32_off(torch)
    bad = []
    n = 4096
    a, b = torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")
    ref = a.double() @ b.double()
    for name, fn in (("matmul smemlab", lambda: matmul(a, b)), ("matmul cuBLAS", lambda: torch.mm(a, b))):
        for _ in range(2):
            c = fn()
        err = float((c.double() - ref).norm() / ref.norm())
        print(f"{name}: relative error {err:.2e}", flush=True)
        if not err < 1e-5:
            bad.append(name)
    del a, b, ref, c
    torch.cuda.empty_cache()

    keys = cupy.random.default_rng(1).integers(0, 262144, size=1 << 26, dtype=cupy.int32)
    want = cupy.bincount(keys, minlength=262144).astype(cupy.int32)
    for method in ("ranges", "cluster_exchange"):
        for _ in range(2):
            got = histogram(keys, 262144, method=method) if method == "ranges" else lab_histogram(keys, 262144, method)
        ok = bool((got == want).all())
        print(f"histogram {method}: {'exact' if ok else 'WRONG'}", flush=True)
        if not ok:
            bad.append(method)
    del keys, want, got

    x = cupy.random.default_rng(2).random((7001, 5003), dtype=cupy.float32).astype(cupy.float16)
    y = cupy.empty_like(x)
    cupy.cuda.runtime.deviceSynchronize()
    for _ in range(2):
        t = transpose(x)
        cupy.copyto(y, x)
    ok = bool((t == x.T).all()) and bool((y == x).all())
    print(f"transpose 7001x5003 float16 and its copy: {'exact' if ok else 'WRONG'}", flush=True)
    if not ok:
        bad.append("transpose")
    cupy.cuda.runtime.deviceSynchronize()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
