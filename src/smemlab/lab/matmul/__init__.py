"""Matrix multiplication with and without shared memory (Programming Guide "Shared Memory"; the book's
program 001 "共享内存").

The book's two MatMulKernels in float32 for any M, N, K: one thread per element of C reading A and
B from global memory, and the tiled version (GetElement / SetElement / GetSubMatrix, BLOCK_SIZE 16
and 32) that stages tiles in shared memory, so A is read ceil(N / BLOCK_SIZE) times instead of N
times. Then the library's climb from those tiles towards cuBLAS (ops/matmul/matmul.cu: register
blocking, 16-byte loads, warp tiles, double buffering), one variant a step. cuBLAS (CuPy `matmul`,
TF32 off) is measured in the same run. Every result is compared with
a float64 NumPy product by relative error (Frobenius norm).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.counters import GLOBAL_LD_SECTORS
from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, GlobalAccess, SmemAccess, Variant
from smemlab.frameworks import cupy_tf32_off
from smemlab.ops.matmul import SOURCE as LIBRARY_SOURCE

SOURCE = "lab/matmul/matmul.cu"
# the library's kernels (ops/matmul/matmul.cu), one step of the climb each, after siboehm/SGEMM_CUDA
CLIMB = {
    "tiled": "32x32 shared-memory tiles, one output per thread",
    "blocktile1d": "64x64 block tile, 8 outputs per thread (a column): more FMAs per shared load",
    "blocktile2d": "128x128 block tile, 8x8 outputs per thread (register blocking)",
    "vectorized": "16-byte global and shared loads, A's tile stored transposed",
    "warptile": "each warp owns a 64x32 tile: every fragment load a broadcast",
    "warptile_db": "double buffering: the next tile's loads in flight during the FMAs",
    "warptile_db16": "BK=16: half the barriers",
    "pack": "lanes paired: every fragment load 2 wavefronts (B's took 4), A's stores conflict-free "
            "(measured slower than warptile_db16)",
    "async": "cp.async: tiles copied global to shared without registers, 3 stages in flight; "
             "K split over blocks where the tiles leave SMs idle",
}
# float32 accumulating K products: the norm-wise relative error grows like sqrt(K) * 6e-8; TF32
# (10-bit mantissa) would give ~1e-4 to 1e-3 and fail this
TOLERANCE = 5e-5
MAX_DIM = 1 << 16


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A @ B in float64."""
    return a.astype(np.float64) @ b.astype(np.float64)


def relative_error(c: np.ndarray, ref: np.ndarray) -> float:
    """Norm-wise relative error ||C - ref||_F / ||ref||_F (NaN where C has a NaN)."""
    c = np.asarray(c, dtype=np.float64)
    if not np.all(np.isfinite(c)):
        return float("nan")
    denom = float(np.linalg.norm(ref)) or 1.0
    return float(np.linalg.norm(c - ref) / denom)


def global_reads(m: int, n: int, k: int, block_size: int | None) -> tuple[int, int]:
    """How many times the kernel reads each element of A and of B from global memory:
    N and M without shared memory, ceil(N / BS) and ceil(M / BS) with BS x BS tiles."""
    if block_size is None:
        return n, m
    return -(-n // block_size), -(-m // block_size)


def tiled_smem(block_size: int, k: int) -> tuple[SmemAccess, ...]:
    """The shared-memory accesses of the tiled MatMulKernel, per warp per launch of one block."""
    tiles = -(-k // block_size)
    shape = (block_size, block_size)
    return (
        SmemAccess("As store", "As[ty][tx]", shape, "float", "store", per_warp=tiles),
        SmemAccess("Bs store", "Bs[ty][tx]", shape, "float", "store", per_warp=tiles),
        # As[row][e]: e is the same in every lane (a broadcast within each row), so the compiler
        # merges four e into one 128-bit load (LDS.128; SASS on sm_90): a float4 broadcast, which
        # costs 2 wavefronts where four float broadcasts would cost 4 over 4 requests
        SmemAccess("As[row][e..e+3] load", "As[ty][0]", (block_size, block_size // 4), "float4", "load",
                   per_warp=tiles * block_size // 4),
        SmemAccess("Bs[e][col] load", "Bs[0][tx]", shape, "float", "load", per_warp=tiles * block_size),
    )


def matmul_gmem(block_size: int, k: int, tiled: bool) -> tuple[GlobalAccess, ...]:
    """Every global load and store of a block (1, 1) of the book's kernels, square BLOCK_SIZE blocks:
    the naive kernel reads A[row][e] (one element per row: a warp covers 32 / BS rows) and B[e][col]
    K times; the tiled one reads a BS x BS tile of each, K / BS times (tile 1 standing for all). Both
    write C[row][col] once. The sizes are representative: rows are 16 KB apart either way."""
    shape, one, bs = (4096, 4096), (1, 1, 0), block_size
    row, col = f"by*{bs}+ty", f"bx*{bs}+tx"
    if tiled:
        tiles = -(-k // bs)
        loads = (GlobalAccess("A tile", f"A[{row}][{bs}+tx]", shape, "float", per_warp=tiles, block_index=one),
                 GlobalAccess("B tile", f"B[{bs}+ty][{col}]", shape, "float", per_warp=tiles, block_index=one))
    else:
        loads = (GlobalAccess("A[row][e]", f"A[{row}][0]", shape, "float", per_warp=k, block_index=one),
                 GlobalAccess("B[e][col]", f"B[0][{col}]", shape, "float", per_warp=k, block_index=one))
    return (*loads, GlobalAccess("C[row][col]", f"C[{row}][{col}]", shape, "float", "store", block_index=one))


class MatmulExperiment(Experiment):
    name = "matmul"
    title = "Matrix multiplication: global memory vs shared-memory tiles vs cuBLAS (float32)"
    seed = "the CUDA Programming Guide, Shared Memory (MatMulKernel, GetElement/SetElement/GetSubMatrix)"
    source = SOURCE
    size_help = "N (square) or M,N,K (C is M x N, A is M x K)"
    default_size = (4096, 4096, 4096)
    small_sizes = ((77, 45, 33), (128, 96, 64), (129, 257, 100))
    bank_check_size = (64, 64, 64)
    columns = ("M", "N", "K", "A_reads", "B_reads", "model_global_load_MB")
    column_titles = {"A_reads": "reads of each A element", "B_reads": "reads of each B element",
                     "model_global_load_MB": "global loads (MB, modelled)"}
    metric = "flops"
    library_source = LIBRARY_SOURCE

    def variants(self) -> list[Variant]:
        m, n, k = self.default_size
        return [
            Variant("MatMulKernelNaive", "no shared memory: each thread reads a row of A and a column of B "
                    "from global memory (A read N times, B read M times)", "MatMulKernelNaive", (16, 16, 1),
                    gmem=matmul_gmem(16, k, tiled=False)),
            Variant("MatMulKernel16", "shared-memory tiles, BLOCK_SIZE 16 (A read N/16 times, B M/16 times)",
                    "MatMulKernel", (16, 16, 1), tiled_smem(16, k), gmem=matmul_gmem(16, k, tiled=True)),
            Variant("MatMulKernel32", "shared-memory tiles, BLOCK_SIZE 32 (A read N/32 times, B M/32 times)",
                    "MatMulKernel", (32, 32, 1), tiled_smem(32, k), gmem=matmul_gmem(32, k, tiled=True)),
        ] + [
            Variant(f"mm_{step}", f"smemlab.ops.matmul, step {i + 1} of the climb to cuBLAS: {CLIMB[step]}", f"mm_{step}",
                    library="smemlab.ops.matmul")
            for i, step in enumerate(CLIMB)
        ] + [
            Variant("cublas", "cuBLAS SGEMM through cupy.matmul, compute type FP32 (TF32 off)", None, on_gpu=True),
        ]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = tuple(int(v) for v in values)
        if len(values) == 1:
            values = values * 3
        if len(values) != 3:
            raise UserError(f"matmul --size takes N or M,N,K; got {len(values)} numbers")
        for v in values:
            if not 1 <= v <= MAX_DIM:
                raise UserError(f"matmul --size: each of M, N, K must be in 1..{MAX_DIM}; got {v}")
        return values

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        m, n, k = self.parse_size(size)
        rng = cupy.random.default_rng(20240220)
        a = rng.uniform(-1.0, 1.0, (m, k), dtype=cupy.float32)
        b = rng.uniform(-1.0, 1.0, (k, n), dtype=cupy.float32)
        c = cupy.empty((m, n), dtype=cupy.float32)
        ref = reference(cupy.asnumpy(a), cupy.asnumpy(b))
        flops = 2 * m * n * k
        once = 4 * (m * k + k * n + m * n)

        def verdict(result) -> Check:
            err = relative_error(cupy.asnumpy(result), ref)
            ok = err <= TOLERANCE  # False for NaN (an unwritten element)
            return Check(ok, f"||C - C64|| / ||C64|| = {err:.3g} (float64 NumPy; tolerance {TOLERANCE:g})", err)

        for v in variants:
            extra: dict[str, Any] = {"M": m, "N": n, "K": k}
            if v.kernel is None:
                compute = cupy_tf32_off()
                box: dict[str, Any] = {}

                def launch(box=box):
                    box["c"] = cupy.matmul(a, b)  # CuPy's current stream is the runtime's

                extra["compute_type"] = compute
                yield Case(v, launch, lambda box=box: verdict(box["c"]), (), once, flops,
                           f"cupy.matmul {m}x{k} @ {k}x{n}, compute type {compute}", extra)
                continue
            if v.kernel.startswith("mm_"):
                from smemlab.ops.matmul import kernel_args, plan

                step_kernel = rt.kernel(LIBRARY_SOURCE, v.kernel)
                p = plan(m, n, k, 0, v.kernel[3:], 1)  # the kernel itself: K not split
                args = kernel_args(a.data.ptr, b.data.ptr, c.data.ptr, m, n, k, p.variant)[3:]

                def launch(step_kernel=step_kernel, p=p, args=args):
                    rt.launch(step_kernel, p.grid, (p.threads, 1, 1), a, b, c, *args, shmem=p.smem)

                yield Case(v, launch, lambda: verdict(c), (c,), once, flops, launch_shape(p.grid, (p.threads, 1, 1), p.smem), extra)
                continue
            bs = v.block[0]
            tiled = v.kernel == "MatMulKernel"
            kernel = rt.kernel(SOURCE, v.kernel, {"BLOCK_SIZE": bs})
            grid = (-(-n // bs), -(-m // bs), 1)
            ar, br = global_reads(m, n, k, bs if tiled else None)
            extra.update(A_reads=ar, B_reads=br, model_global_load_MB=round(4 * (m * k * ar + k * n * br) / 1e6, 3))
            v = dataclasses.replace(v, gmem=matmul_gmem(bs, k, tiled))
            if tiled:
                v = dataclasses.replace(v, smem=tiled_smem(bs, k))

            def launch(kernel=kernel, grid=grid, bs=bs):
                rt.launch(kernel, grid, (bs, bs, 1), a, b, c, np.int32(m), np.int32(n), np.int32(k))

            yield Case(v, launch, lambda: verdict(c), (c,), once, flops, launch_shape(grid, (bs, bs, 1)), extra)

    def notes(self, records: Sequence[Any]) -> list[str]:
        by = {r.variant: r for r in records if getattr(r, "ok", False) and r.gflops}
        out = []
        base = by.get("cublas")
        for name in ("MatMulKernelNaive", "MatMulKernel16", "MatMulKernel32", *(f"mm_{s}" for s in CLIMB)):
            r = by.get(name)
            if r is None:
                continue
            line = f"{name}: {r.gflops:.0f} GFLOP/s"
            if base:
                line += f", {100 * r.gflops / base.gflops:.1f}% of cuBLAS ({base.gflops:.0f} GFLOP/s, TF32 off)"
            reads = r.extra.get("A_reads")
            if reads:
                line += f"; reads each element of A {reads} times"
            out.append(line)
        naive, tiled = by.get("MatMulKernelNaive"), by.get("MatMulKernel32") or by.get("MatMulKernel16")
        if naive and tiled:
            out.append(f"tiles in shared memory: {tiled.gflops / naive.gflops:.1f}x the naive kernel ({tiled.variant})")
        for r in records:
            loaded = getattr(r, "counters", {}).get(GLOBAL_LD_SECTORS)  # 32-byte sectors
            if loaded and r.extra.get("model_global_load_MB"):
                out.append(f"{r.variant}: {loaded * 32 / 1e6:.0f} MB requested from global memory (ncu), "
                           f"model {r.extra['model_global_load_MB']:.0f} MB")
        return out
