"""The 9-point 1-D stencil with its coefficients in constant memory, the read-only cache or global
memory (the book's program 001 "使用常量内存实现一维模板", "与只读缓存比较").

out[i] = sum_{k=1..4} c_k (in[i+4+k] - in[i+4-k]) over an input padded with 4 halo points on each
side, the points staged in shared memory with their halo, in a grid-stride loop. The constant-memory
coefficients are written from Python (`Runtime.set_constant`, the cudaMemcpyToSymbol equivalent):
new coefficients between launches, no recompiling. The book's loop without the barrier between
iterations is kept as a named hazard variant for the sanitizer table. Last, the library's stencil
(smemlab.ops.stencil1d: constant-memory coefficients, 16-byte loads, four outputs a thread) with the
same nine weights over the same padded input, launched as the op launches it (zero padding outside
the input, so its valid region is the book's output).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.counters import GLOBAL_LD_REQUESTS
from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, GlobalAccess, SmemAccess, Variant
from smemlab.ops.stencil import SOURCE as LIBRARY_SOURCE

SOURCE = "lab/stencil/stencil.cu"
LIBRARY = "smemlab.ops.stencil1d"
RADIUS = 4
BDIM = 256
DEFINES = {"RADIUS": RADIUS, "BDIM": BDIM}
# the book's coefficients a0..a4 (a0 is never used: the stencil is antisymmetric)
BOOK_COEF = np.array([0.0, 0.8, -0.2, 0.03809524, -0.00357143], dtype=np.float32)
MAX_N = 1 << 32


def reference(padded: np.ndarray, coef: np.ndarray, radius: int = RADIUS) -> np.ndarray:
    """out[i] = sum_{k=1..radius} coef[k] * (in[i+radius+k] - in[i+radius-k]), i in [0, len - 2 radius),
    in float64. `padded` holds the halo: its first and last `radius` points are inputs only."""
    x = np.asarray(padded, dtype=np.float64)
    n = x.size - 2 * radius
    if n < 1:
        raise ValueError(f"the input needs more than 2 * radius = {2 * radius} points")
    out = np.zeros(n)
    for k in range(1, radius + 1):
        out += float(coef[k]) * (x[radius + k : radius + k + n] - x[radius - k : radius - k + n])
    return out


def correlate_weights(coef: np.ndarray, radius: int = RADIUS) -> np.ndarray:
    """The same stencil as weights for a correlation: w[radius + k] = c_k, w[radius - k] = -c_k."""
    w = np.zeros(2 * radius + 1, dtype=np.float32)
    for k in range(1, radius + 1):
        w[radius + k] = coef[k]
        w[radius - k] = -coef[k]
    return w


def launch_grid(n: int, sms: int, bdim: int = BDIM) -> int:
    """Blocks of the grid-stride loop: enough to fill the GPU (8 blocks of 256 threads an SM), but at
    most half the tiles, so every block with work loops at least twice whenever there are 2 tiles
    (the hazard needs a second iteration to show)."""
    tiles = -(-n // bdim)
    return max(1, min(8 * sms, -(-tiles // 2)))


def stencil_smem(iterations: int, bdim: int = BDIM, radius: int = RADIUS) -> tuple[SmemAccess, ...]:
    shape = (bdim + 2 * radius,)
    acc = [
        SmemAccess("smem[sidx] store", f"smem[tx+{radius}]", shape, "float", "store", per_warp=iterations),
        SmemAccess("left halo store", "smem[tx]", shape, "float", "store", active=f"tx < {radius}", per_warp=iterations),
        SmemAccess("right halo store", f"smem[tx+{radius + bdim}]", shape, "float", "store", active=f"tx < {radius}",
                   per_warp=iterations),
    ]
    for k in range(1, radius + 1):
        acc.append(SmemAccess(f"smem[sidx+{k}] load", f"smem[tx+{radius + k}]", shape, "float", "load", per_warp=iterations))
        acc.append(SmemAccess(f"smem[sidx-{k}] load", f"smem[tx+{radius - k}]", shape, "float", "load", per_warp=iterations))
    return tuple(acc)


def stencil_gmem(iterations: int, coef_loads: bool, bdim: int = BDIM, radius: int = RADIUS) -> tuple[GlobalAccess, ...]:
    """Every global load and store of a block of the book's stencil per grid-stride iteration (block 1
    standing for all: each iteration's tile is a translate by whole blocks). `coef_loads`: the
    coefficients are read from global memory (a pointer, __restrict__ or __ldg), each of the
    RADIUS a uniform load by every warp, every iteration, as Nsight Compute counts them."""
    n = 4 * bdim + 2 * radius
    one = (1, 0, 0)

    def acc(label, expr, op="load", active=None, length=n):
        return GlobalAccess(label, expr, (length,), "float", op, active, iterations, one)

    out = [acc("in[idx+RADIUS]", f"in[bx*{bdim}+tx+{radius}]"),
           acc("left halo in[idx]", f"in[bx*{bdim}+tx]", active=f"tx < {radius}"),
           acc("right halo in[idx+BDIM+RADIUS]", f"in[bx*{bdim}+tx+{bdim + radius}]", active=f"tx < {radius}")]
    if coef_loads:
        out += [acc(f"dcoef[{k}]", f"dcoef[{k}]", length=radius + 1) for k in range(1, radius + 1)]
    return (*out, acc("out[idx]", f"out[bx*{bdim}+tx]", "store"))


class StencilExperiment(Experiment):
    name = "stencil"
    title = "1-D 9-point stencil: coefficients in constant memory vs read-only cache vs global memory"
    seed = "the book's section 5.5, constant memory: a 1-D stencil, and the read-only cache (stancli1DGPU, stancliReadOnly)"
    source = SOURCE
    size_help = "N (output points; the input has N + 8 with the halo)"
    default_size = (1 << 28,)
    small_sizes = ((10007,), (1,), (255,), (257,), (100003,))
    bank_check_size = (1024,)
    columns = ("coef_in", "grid", "iterations")
    library_source = LIBRARY_SOURCE
    column_titles = {"coef_in": "coefficients in", "grid": "blocks", "iterations": "grid-stride iterations"}

    def variants(self) -> list[Variant]:
        # per-warp counts for the default size on a 132-SM H100 (cases() redoes them for the real run)
        iterations = -(-(-(-self.default_size[0] // BDIM)) // (8 * 132))
        smem = stencil_smem(iterations)
        constant, pointer = stencil_gmem(iterations, False), stencil_gmem(iterations, True)
        b = (BDIM, 1, 1)
        return [
            Variant("stancli1DGPU", "coefficients in __constant__ memory (cudaMemcpyToSymbol from Python): "
                    "one address a warp, the constant cache's broadcast", "stancli1DGPU", b, smem, gmem=constant),
            Variant("stancliReadOnly", "coefficients through const float *__restrict__ (the read-only path if the "
                    "compiler proves it safe)", "stancliReadOnly", b, smem, gmem=pointer),
            Variant("stancliLdg", "coefficients through __ldg() (the read-only data cache, forced)", "stancliLdg", b, smem, gmem=pointer),
            Variant("stancliGlobal", "coefficients in plain global memory (re-read each iteration: the store to out "
                    "may alias them)", "stancliGlobal", b, smem, gmem=pointer),
            Variant("stancli1DGPU_nosync", "the book's loop: no __syncthreads() after the compute, so the next "
                    "iteration may overwrite shared memory still being read", "stancli1DGPU_nosync", b, smem, gmem=constant,
                    hazard="racecheck: shared-memory write-after-read hazard between grid-stride iterations "
                           "(no barrier before smem is refilled)"),
            Variant("cupyx_correlate1d", "cupyx.scipy.ndimage.correlate1d with the same 9 weights (the library a user "
                    "would pick), valid region", None),
            Variant(LIBRARY, "the library's stencil with the same 9 weights: coefficients as a kernel parameter (constant "
                    "memory), 16-byte loads, four outputs a thread; valid region", "stencil1d_f32_p", b, library=LIBRARY),
        ]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = tuple(int(v) for v in values)
        if len(values) != 1:
            raise UserError(f"stencil --size takes one number N (output points); got {len(values)}")
        if not 1 <= values[0] <= MAX_N:
            raise UserError(f"stencil --size: N must be in 1..{MAX_N}; got {values[0]}")
        return values

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        (n,) = self.parse_size(size)
        rng = cupy.random.default_rng(5)
        x = rng.uniform(-1.0, 1.0, n + 2 * RADIUS, dtype=cupy.float32)
        out = cupy.empty(n, dtype=cupy.float32)
        coef = BOOK_COEF.copy()
        ref = reference(cupy.asnumpy(x), coef)
        dcoef = cupy.asarray(coef)
        grid = launch_grid(n, rt.facts.sms)
        tiles = -(-n // BDIM)
        iterations = -(-tiles // grid)
        moved = 4 * (n + 2 * RADIUS) + 4 * n
        shape = launch_shape(grid, BDIM)
        scale = float(np.abs(ref).max()) or 1.0

        def verdict(result) -> Check:
            got = cupy.asnumpy(result).astype(np.float64)
            if not np.all(np.isfinite(got)):
                bad = int(np.argmin(np.isfinite(got)))
                return Check(False, f"out[{bad}] = {got[bad]} (not written?)")
            err = float(np.abs(got - ref).max() / scale)
            return Check(err <= 1e-5, f"max |out - ref| / max |ref| = {err:.3g} (float64 NumPy, tolerance 1e-5)", err)

        for v in variants:
            extra: dict[str, Any] = {"grid": grid, "iterations": iterations}
            if v.library:
                yield self._library_case(rt, v, x, coef, verdict)
                continue
            if v.kernel is None:
                from cupyx.scipy.ndimage import correlate1d

                w = cupy.asarray(correlate_weights(coef))
                box: dict[str, Any] = {}

                def launch(box=box, w=w):
                    box["y"] = correlate1d(x, w, mode="constant")

                extra["coef_in"] = "weights array"
                yield Case(v, launch, lambda box=box: verdict(box["y"][RADIUS:RADIUS + n]), (), moved, 0,
                           f"correlate1d over {n + 2 * RADIUS} points", extra)
                continue
            kernel = rt.kernel(SOURCE, v.kernel, DEFINES)
            v = dataclasses.replace(v, smem=stencil_smem(iterations),
                                    gmem=tuple(dataclasses.replace(a, per_warp=iterations) for a in v.gmem))
            if v.kernel in ("stancli1DGPU", "stancli1DGPU_nosync"):
                rt.set_constant(SOURCE, "coef", coef, DEFINES)  # cudaMemcpyToSymbol
                extra["coef_in"] = "__constant__"

                def launch(kernel=kernel):
                    rt.launch(kernel, grid, BDIM, x, out, np.int64(n))
            else:
                extra["coef_in"] = {"stancliReadOnly": "const __restrict__", "stancliLdg": "__ldg",
                                    "stancliGlobal": "global"}[v.kernel]

                def launch(kernel=kernel):
                    rt.launch(kernel, grid, BDIM, x, out, np.int64(n), dcoef)

            yield Case(v, launch, lambda: verdict(out), (out,), moved, 0, shape, extra)

    @staticmethod
    def _library_case(rt, v: Variant, x, coef: np.ndarray, verdict) -> Case:
        """The library's stencil over the padded input x (all of it, zero padded outside), launched by
        the op's own launch function; the check reads the valid region, the book's output."""
        import cupy

        from smemlab.gpu import launch_shape
        from smemlab.ops.stencil import TILE, coefficients
        from smemlab.ops.stencil import launch as library_launch

        total = x.size
        n = total - 2 * RADIUS
        y = cupy.empty(total, dtype=cupy.float32)
        w = coefficients(correlate_weights(coef))

        def launch():
            library_launch(y.data.ptr, x.data.ptr, total, w, rt.device, rt.stream_handle)

        extra = {"coef_in": "kernel parameter", "grid": -(-total // TILE)}
        return Case(v, launch, lambda: verdict(y[RADIUS:RADIUS + n]), (y,), 2 * 4 * total, 0,
                    launch_shape(extra["grid"], 256), extra)

    def notes(self, records: Sequence[Any]) -> list[str]:
        ok = [r for r in records if getattr(r, "ok", False) and r.median_ms]
        by = {r.variant: r for r in ok}
        out = []
        const = by.get("stancli1DGPU")
        for r in ok:
            if r is const or r.gbps is None:
                continue
            if const and const.median_ms:
                out.append(f"{r.variant} ({r.extra.get('coef_in')}): {r.gbps:.0f} GB/s, "
                           f"{r.median_ms / const.median_ms:.2f}x the time of the __constant__ version")
        if const and const.gbps:
            out.insert(0, f"stancli1DGPU (__constant__): {const.gbps:.0f} GB/s"
                       + (f", {const.pct_copy:.0f}% of the run's copy" if const.pct_copy else ""))
        # one global load request is one warp's load instruction: the coefficients show here unless
        # they come from the constant bank
        base = (const.counters or {}).get(GLOBAL_LD_REQUESTS) if const else None
        for r in records:
            requests = (getattr(r, "counters", {}) or {}).get(GLOBAL_LD_REQUESTS)
            if requests:
                line = f"{r.variant}: {requests:.3g} global load requests (Nsight Compute)"
                if base and r is not const:
                    line += f", {requests / base:.2f}x the __constant__ version's"
                out.append(line + ": the coefficient loads show here unless they come from the constant bank")
        return out
