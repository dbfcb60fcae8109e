"""Parallel sum (the book's programs 000/001, book section 5.3 "reducing global memory access", and program 003's array
reduction): the tree in global memory, in shared memory, unrolled, dynamic, with warp shuffles; int32 as
in the book and float32 for rounding error.

How the sum is finished: every GPU kernel writes one partial sum per block, and the host adds the
partials in check() (as the book's programs do), outside the timed launch. So the time, GB/s and the speedup over
the CPU are those of the kernel, and bytes_moved counts what it must move: n input elements read and one
partial per block written. The global-memory trees also write and re-read a scratch array; that extra
traffic is the point of the comparison and shows in the profiler's sectors, not in the effective GB/s.

Float32: each variant's result (partials added in float32 on the host, pairwise) against a float64
reference, and program 003's observation that a sequential float32 sum of 1.23s stops growing at 2^25.

Last, the library's sum (smemlab.ops.reduce_sum), int32 and float32, launched as the op launches it:
the whole sum in one launch (16-byte loads, a grid of resident blocks, the last block adding the
partials), so its time includes what the book's kernels leave to the host.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, GlobalAccess, SmemAccess, Variant
from smemlab.ops.reduce import NT as LIBRARY_THREADS
from smemlab.ops.reduce import SOURCE as LIBRARY_SOURCE

MAX_N = 1 << 34
STALL_N = 100_000_000  # the book's program 003 (the book's N): a sequential float32 sum of N x 1.23 ends at 33554432
STALL_VALUE = np.float32(1.23)
STALL_MIN_N = 1 << 20  # the 400 MB stall demonstration runs only at sizes where timing matters too (and never
# under the profiler or the sanitizer: see cases())
U32 = 2.0**-24  # unit roundoff of float32

COL_SPEEDUP = "speedup_vs_cpu"
COL_ERROR = "rel_err_vs_f64"
COL_STALL = "sum_1e8_x_1.23"


@dataclass(frozen=True)
class _Spec:
    kernel: str | None  # None: the CPU baseline
    dim: int = 128
    real: str = "int"  # "int" or "float": the REAL macro
    per_thread: int = 1  # elements a thread adds before the tree
    scratch: bool = False  # the global-memory trees need a scratch array (DIM / 2 values a block)
    dynamic: bool = False

    @property
    def defines(self) -> dict:
        return {"DIM": self.dim, "REAL": self.real}

    @property
    def span(self) -> int:
        """Input elements per block."""
        return self.dim * self.per_thread

    @property
    def dtype(self):
        return np.int32 if self.real == "int" else np.float32


_INT = [
    ("cpu_sum", "CPU: NumPy sum on the host (the baseline)", _Spec(None)),
    ("reduce_global", "array reduction: a halving loop in global memory", _Spec("reduce_global", scratch=True)),
    ("reduceGmem", "unrolled tree in global memory, last warp with __syncwarp", _Spec("reduceGmem", scratch=True)),
    ("reduce_shared", "array reduction: a halving loop in shared memory, a barrier every level", _Spec("reduce_shared")),
    ("reduceSmem", "unrolled tree in shared memory, last warp with __syncwarp", _Spec("reduceSmem")),
    ("reduceSmemVolatile", "reduceSmem with the book's volatile last warp (no __syncwarp)", _Spec("reduceSmemVolatile")),
    ("reduceSmemUnroll", "reduceSmem, four blocks of input a thread", _Spec("reduceSmemUnroll", per_thread=4)),
    ("reduceSmemUnrollDyn", "reduceSmemUnroll in dynamic shared memory", _Spec("reduceSmemUnrollDyn", per_thread=4, dynamic=True)),
    ("reduceShfl", "warp shuffles, shared memory only between warps; four blocks a thread", _Spec("reduceShfl", per_thread=4)),
] + [
    (f"reduceSmemUnroll_b{d}", f"reduceSmemUnroll with {d}-thread blocks", _Spec("reduceSmemUnroll", dim=d, per_thread=4))
    for d in (256, 512, 1024)
]

_FLOAT = [("cpu_sum_f32", "CPU: sequential float32 sum (the array reduction's loop), NumPy", _Spec(None, real="float"))] + [
    (f"{name}_f32", f"{summary} (float32)", _Spec(s.kernel, s.dim, "float", s.per_thread, s.scratch, s.dynamic))
    for name, summary, s in _INT
    if s.kernel and s.dim == 128 and name != "reduceSmemVolatile"
]

_SPECS = {name: (summary, spec) for name, summary, spec in _INT + _FLOAT}
# the library's sum: variant -> (its input, its result, summary)
LIBRARY = "smemlab.ops.reduce_sum"
_LIBRARY = {
    LIBRARY: ("int", np.int64, "the library's sum of the int32 input into an int64, the whole sum in one launch"),
    f"{LIBRARY}_f32": ("float", np.float32, "the library's float32 sum (32 accumulators a thread, partials in "
                                            "float64), the whole sum in one launch"),
}

HAZARD = ("racecheck: shared-memory read/write hazards between lanes of the last warp (volatile, no __syncwarp "
          "between the steps: it relied on lock-step warps, gone since Volta)")


def smem_accesses(spec: _Spec) -> tuple[SmemAccess, ...]:
    """Every shared load and store a block of `spec.kernel` executes, in program order."""
    k, dim = spec.kernel, spec.dim
    dt = spec.real
    if k in (None, "reduce_global", "reduceGmem"):
        return ()
    if k == "reduceShfl":
        return (
            SmemAccess("store warp partial", "smem[warp]", (dim // 32,), dt, "store", active="lane == 0"),
            SmemAccess("load warp partials", "smem[lane]", (dim // 32,), dt, "load", active=f"tx < {dim // 32}"),
        )
    name = "s_y" if k == "reduce_shared" else "smem"
    shape = (dim,)
    acc = [SmemAccess(f"store {name}[tx]", f"{name}[tx]", shape, dt, "store")]

    def level(offset: int, active: str, tag: str = "") -> list[SmemAccess]:
        """One `s[tx] += s[tx + offset]` by the threads where `active` holds: two loads, one store."""
        return [
            SmemAccess(f"{tag}{offset}: load {name}[tx]", f"{name}[tx]", shape, dt, "load", active),
            SmemAccess(f"{tag}{offset}: load {name}[tx+{offset}]", f"{name}[tx+{offset}]", shape, dt, "load", active),
            SmemAccess(f"{tag}{offset}: store {name}[tx]", f"{name}[tx]", shape, dt, "store", active),
        ]

    if k == "reduce_shared":  # the loop all the way down, then thread 0 reads s_y[0]
        offset = dim // 2
        while offset >= 1:
            acc += level(offset, f"tx < {offset}", "level ")
            offset //= 2
        acc.append(SmemAccess("thread 0: load s_y[0]", "s_y[0]", shape, dt, "load", "tx == 0"))
        return tuple(acc)
    offset = dim // 2
    while offset >= 64:  # the unrolled block levels, down to 64
        acc += level(offset, f"tx < {offset}", "level ")
        offset //= 2
    if k == "reduceSmemVolatile":  # all of warp 0 does six volatile read-read-write steps; thread 0 reads smem[0]
        for off in (32, 16, 8, 4, 2, 1):
            acc += level(off, "tx < 32", "warp ")
        acc.append(SmemAccess("thread 0: load smem[0]", "smem[0]", shape, dt, "load", "tx == 0"))
        return tuple(acc)
    # warpReduce: v = s[tx]; then five (load s[tx+off], store s[tx]) steps, then the last load s[tx+1]
    w = "tx < 32"
    acc.append(SmemAccess("warp: load smem[tx]", "smem[tx]", shape, dt, "load", w))
    for off in (32, 16, 8, 4, 2):
        acc.append(SmemAccess(f"warp {off}: load smem[tx+{off}]", f"smem[tx+{off}]", shape, dt, "load", w))
        acc.append(SmemAccess(f"warp {off}: store smem[tx]", "smem[tx]", shape, dt, "store", w))
    acc.append(SmemAccess("warp 1: load smem[tx+1]", "smem[tx+1]", shape, dt, "load", w))
    return tuple(acc)


def gmem_accesses(spec: _Spec) -> tuple[GlobalAccess, ...]:
    """Every global load and store a block of `spec.kernel` executes, in program order (block 1
    standing for all: the others read and write translates of its by whole blocks)."""
    k, dim, dt = spec.kernel, spec.dim, spec.real
    if k is None:
        return ()
    span, one = spec.span, (1, 0, 0)

    def acc(label, expr, length, op="load", active=None):
        return GlobalAccess(label, expr, (length,), dt, op, active, block_index=one)

    half = dim // 2
    out = acc("store y[bx]", "y[bx]", 4, "store", "tx == 0")
    if k not in ("reduce_global", "reduceGmem"):
        loads = [acc(f"load x[i + {j * dim}]" if j else "load x[i]", f"x[bx*{span}+tx+{j * dim}]", 2 * span)
                 for j in range(spec.per_thread)]
        return (*loads, out)
    w = f"w[bx*{half}+"  # this block's scratch: DIM / 2 values
    first = (acc("load x[i]", f"x[bx*{dim}+tx]", 2 * dim, active=f"tx < {half}"),
             acc(f"load x[i + {half}]", f"x[bx*{dim}+tx+{half}]", 2 * dim, active=f"tx < {half}"),
             acc("store w[tx]", f"{w}tx]", dim, "store", f"tx < {half}"))

    def level(offset: int, active: str) -> list[GlobalAccess]:
        """`w[tx] += w[tx + offset]` where `active` holds: two loads, one store."""
        return [acc(f"{offset}: load w[tx]", f"{w}tx]", dim, active=active),
                acc(f"{offset}: load w[tx+{offset}]", f"{w}tx+{offset}]", dim, active=active),
                acc(f"{offset}: store w[tx]", f"{w}tx]", dim, "store", active)]

    body: list[GlobalAccess] = []
    if k == "reduce_global":  # the halving loop from DIM / 4 down to 1, then thread 0 reads w[0]
        offset = dim // 4
        while offset >= 1:
            body += level(offset, f"tx < {offset}")
            offset //= 2
        body.append(acc("thread 0: load w[0]", f"{w}0]", dim, active="tx == 0"))
        return (*first, *body, out)
    offset = dim // 4
    while offset >= 64:  # the unrolled block levels, down to 64
        body += level(offset, f"tx < {offset}")
        offset //= 2
    # warpReduce on the scratch: v = w[tx]; five (load w[tx+off], store w[tx]); the last load w[tx+1]
    body.append(acc("warp: load w[tx]", f"{w}tx]", dim, active="tx < 32"))
    for off in (32, 16, 8, 4, 2):
        body += [acc(f"warp {off}: load w[tx+{off}]", f"{w}tx+{off}]", dim, active="tx < 32"),
                 acc(f"warp {off}: store w[tx]", f"{w}tx]", dim, "store", "tx < 32")]
    body.append(acc("warp 1: load w[tx+1]", f"{w}tx+1]", dim, active="tx < 32"))
    return (*first, *body, out)


def sequential_sum_f32(chunks: Iterable[np.ndarray]) -> np.float32:
    """for (i...) sum += x[i] in float32, exactly as a C loop would (np.add.accumulate is sequential),
    over the chunks in order, carrying the running sum between them."""
    acc = np.float32(0)
    for chunk in chunks:
        c = np.asarray(chunk, dtype=np.float32)
        if c.size:
            acc = np.add.accumulate(np.concatenate(([acc], c)), dtype=np.float32)[-1]
    return np.float32(acc)


def _chunks(x: np.ndarray, size: int = 1 << 22) -> Iterator[np.ndarray]:
    for i in range(0, x.size, size):
        yield x[i:i + size]


def stall_chunks(count: int = STALL_N, value: np.float32 = STALL_VALUE, size: int = 1 << 22) -> Iterator[np.ndarray]:
    for i in range(0, count, size):
        yield np.full(min(size, count - i), value, dtype=np.float32)


def wrap_int32(value: int) -> int:
    """A sum as int32 arithmetic leaves it (two's complement, modulo 2^32)."""
    return (int(value) + (1 << 31)) % (1 << 32) - (1 << 31)


def block_sums(xh: np.ndarray, span: int) -> np.ndarray:
    """The sum of each run of `span` elements (the last run may be short): int64 for ints, float64 for floats."""
    acc = np.int64 if xh.dtype.kind == "i" else np.float64
    full = xh.size // span
    head = xh[: full * span].reshape(full, span).sum(axis=1, dtype=acc)
    if xh.size % span:
        head = np.append(head, xh[full * span:].sum(dtype=acc))
    return head


def make_input(n: int, real: str, seed: int = 5) -> np.ndarray:
    """Seeded, no zeros, not all equal. ints: +-1..99 (mean 0, so the int32 sum never overflows in
    practice); floats: [0.5, 1.5) (positive, so the relative error is well defined)."""
    rng = np.random.default_rng(seed)
    if real == "int":
        mag = rng.integers(1, 100, size=n, dtype=np.int32)
        return np.where(rng.random(n) < 0.5, -mag, mag).astype(np.int32)
    return (rng.random(n, dtype=np.float32) + np.float32(0.5)).astype(np.float32)


class ReduceExperiment(Experiment):
    name = "reduce"
    title = "parallel sum: global vs shared memory, unrolling, warp shuffles"
    seed = "the book's section 5.3, reducing global memory access; and its array reduction on the CPU, in global and in shared memory"
    source = "lab/reduce/reduce.cu"
    size_help = "N (elements; int32 and float32)"
    default_size = (1 << 24,)
    small_sizes = ((4099,), (1,), (127,), (129,), (1000,), (65537,), (1000003,))
    bank_check_size = (4096,)
    columns = (COL_SPEEDUP, COL_ERROR, COL_STALL)
    column_titles = {COL_SPEEDUP: "times faster than the CPU", COL_ERROR: "relative error (vs float64)",
                     COL_STALL: "sum of 10^8 x 1.23"}

    library_source = LIBRARY_SOURCE

    def variants(self) -> list[Variant]:
        out = []
        for name, (summary, spec) in _SPECS.items():
            out.append(Variant(
                name, summary, kernel=spec.kernel, block=(spec.dim, 1, 1), smem=smem_accesses(spec), gmem=gmem_accesses(spec),
                hazard=HAZARD if spec.kernel == "reduceSmemVolatile" else None, on_gpu=spec.kernel is not None,
            ))
        for name, (_, _, summary) in _LIBRARY.items():
            # the op's reduce_i32_i64 or reduce_f32_f32: instances of one template, which ncu names by its name
            out.append(Variant(name, summary, kernel="reduce_all", block=(LIBRARY_THREADS, 1, 1), library=LIBRARY))
        return out

    def spec(self, name: str) -> _Spec:
        return _SPECS[name][1]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = list(values)
        if len(values) != 1:
            raise UserError(f"reduce --size takes one number, the elements to sum (1 to {MAX_N}); got {values}")
        n = int(values[0])
        if not 1 <= n <= MAX_N:
            raise UserError(f"reduce --size {n}: the number of elements must be 1 to {MAX_N} (2^34)")
        return (n,)

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        (n,) = self.parse_size(size)
        specs = {v.name: self.spec(v.name) for v in variants if not v.library}
        reals = sorted({s.real for s in specs.values()} | {_LIBRARY[v.name][0] for v in variants if v.library})
        gpu_f32 = [name for name, s in specs.items() if s.kernel and s.real == "float"]
        # The stall demonstration launches kernels outside any case: skip it in the profiler's and the
        # sanitizer's child runs (they log launches), where extra launches would be taken for a variant's.
        stall = (n >= STALL_MIN_N and any(s.real == "float" for s in specs.values())
                 and getattr(rt, "launch_log", None) is None)
        # inputs of each type, the biggest scratch, and the 400 MB of the stall demonstration
        need = 4 * n * len(reals) + (2 * n + 4 * n // 128 + 4096 if any(s.scratch for s in specs.values()) else 0)
        need += 4 * n // 128 + 4096
        if stall and gpu_f32:
            need += 4 * STALL_N + 2 * STALL_N
        if need > 0.85 * rt.facts.global_bytes:
            raise UserError(f"reduce --size {n}: needs about {need / 1e9:.1f} GB on the GPU, which has "
                            f"{rt.facts.global_bytes / 1e9:.1f} GB")

        hosts = {real: make_input(n, real) for real in reals}
        devs = {real: cupy.asarray(h) for real, h in hosts.items()}
        refs: dict[tuple[str, int], np.ndarray] = {}
        totals = {real: h.sum(dtype=np.int64 if real == "int" else np.float64) for real, h in hosts.items()}

        stall_results = self._stall(rt, specs, gpu_f32) if stall else {}

        for v in variants:
            if v.library:
                real = _LIBRARY[v.name][0]
                yield self._library_case(rt, v, devs[real], totals[real], {})
                continue
            spec = specs[v.name]
            real = spec.real
            xh, xd = hosts[real], devs[real]
            extra: dict[str, Any] = {}
            if real == "float" and stall:
                extra[COL_STALL] = stall_results.get(v.name)
            if spec.kernel is None:
                yield self._cpu_case(v, xh, totals[real], extra)
                continue
            if (real, spec.span) not in refs:
                refs[(real, spec.span)] = block_sums(xh, spec.span)
            ref_partials = refs[(real, spec.span)]
            launch, partials, shape = self._launcher(rt, spec, xd, n)
            yield Case(
                variant=v, launch=launch, check=self._checker(spec, partials, ref_partials, totals[real], n, extra),
                outputs=(partials,), bytes_moved=n * xh.itemsize + partials.size * partials.itemsize,
                launch_shape=shape, extra=extra,
            )

    # -- pieces of cases() ----------------------------------------------------------------------
    def _launcher(self, rt, spec: _Spec, xd, n: int):
        """launch() for one GPU variant over the device array xd, its partials array, and its shape."""
        import cupy

        from smemlab.gpu import launch_shape

        grid = -(-n // spec.span)
        partials = cupy.empty(grid, dtype=spec.dtype)
        work = cupy.empty(grid * (spec.dim // 2), dtype=spec.dtype) if spec.scratch else None
        kernel = rt.kernel(self.source, spec.kernel, spec.defines)
        shmem = spec.dim * 4 if spec.dynamic else 0
        args = (xd, work, partials) if spec.scratch else (xd, partials)

        def launch():
            rt.launch(kernel, grid, spec.dim, *args, np.uint64(n), shmem=shmem)

        return launch, partials, launch_shape(grid, spec.dim, shmem)

    def _checker(self, spec: _Spec, partials, ref_partials: np.ndarray, total, n: int, extra: dict):
        import cupy

        def check() -> Check:
            got = cupy.asnumpy(partials)
            if spec.real == "int":
                want = ((ref_partials + (1 << 31)) % (1 << 32)) - (1 << 31)  # as int32 arithmetic wraps
                bad = np.flatnonzero(got.astype(np.int64) != want)
                if bad.size:
                    i = int(bad[0])
                    return Check(False, f"{bad.size} of {got.size} block sums wrong; block {i}: {got[i]}, expected {want[i]}")
                result = wrap_int32(got.astype(np.int64).sum())
                expected = wrap_int32(total)
                if result != expected:
                    return Check(False, f"sum {result}, expected {expected}")
                return Check(True, f"sum {result} and all {got.size} block sums exact (partials added on the host)")
            # float: each block sum close to its float64 value, then the partials added in float32
            tol_block = (math.log2(spec.span) + 8) * U32
            err_blocks = np.abs(got.astype(np.float64) - ref_partials) / np.abs(ref_partials)
            if not np.all(err_blocks <= tol_block):  # NaN (an unwritten partial) fails here too
                i = int(np.flatnonzero(~(err_blocks <= tol_block))[0])
                return Check(False, f"block {i}: {got[i]!r}, expected {ref_partials[i]!r} (float64)")
            result = np.sum(got, dtype=np.float32)  # pairwise, in float32: all of the arithmetic stays float32
            err = abs(float(result) - float(total)) / abs(float(total))
            extra[COL_ERROR] = err
            tol = (math.log2(max(n, 2)) + 32) * U32
            ok = err <= tol
            return Check(ok, f"sum {float(result)!r} vs float64 {float(total)!r}: relative error {err:.2e} "
                             f"({'within' if ok else 'beyond'} {tol:.1e})", error=err)

        return check

    def _library_case(self, rt, v: Variant, xd, total, extra: dict) -> Case:
        """The library's sum of the device array xd, launched by the op's own launch function."""
        import cupy

        from smemlab.gpu import launch_shape
        from smemlab.ops.reduce import kernel_name, launch_blocks
        from smemlab.ops.reduce import launch as library_launch

        real, result, _ = _LIBRARY[v.name]
        n = xd.size
        out = cupy.empty((), dtype=result)
        kernel = kernel_name(xd.dtype, result)

        def launch():
            library_launch(kernel, xd.data.ptr, n, xd.itemsize, out.data.ptr, rt.device, rt.stream_handle)

        def check() -> Check:
            got = out.get()[()]
            if real == "int":
                return Check(int(got) == int(total), f"sum {int(got)}, expected {int(total)} (exact, int64)")
            err = abs(float(got) - float(total)) / abs(float(total))  # NaN (the poison) fails below
            extra[COL_ERROR] = err
            tol = (math.log2(max(n, 2)) + 32) * U32
            ok = err <= tol
            return Check(ok, f"sum {float(got)!r} vs float64 {float(total)!r}: relative error {err:.2e} "
                             f"({'within' if ok else 'beyond'} {tol:.1e})", error=err)

        return Case(variant=v, launch=launch, check=check, outputs=(out,), bytes_moved=n * xd.itemsize + out.nbytes,
                    launch_shape=f"{kernel}: " + launch_shape(launch_blocks(kernel, n, xd.itemsize, rt.device),
                                                              LIBRARY_THREADS), extra=extra)

    def _cpu_case(self, v: Variant, xh: np.ndarray, total, extra: dict) -> Case:
        result: dict[str, Any] = {}
        n = xh.size
        if xh.dtype == np.int32:
            def launch():
                result["sum"] = int(xh.sum(dtype=np.int64))

            def check() -> Check:
                got, want = wrap_int32(result["sum"]), wrap_int32(total)
                return Check(got == want, f"sum {got}, expected {want}")
        else:
            def launch():
                result["sum"] = sequential_sum_f32(_chunks(xh))

            def check() -> Check:
                err = abs(float(result["sum"]) - float(total)) / abs(float(total))
                extra[COL_ERROR] = err
                bound = max(n - 1, 1) * U32  # the textbook bound of a sequential sum of positive numbers
                ok = err <= bound
                return Check(ok, f"sequential float32 sum {float(result['sum'])!r} vs float64 {float(total)!r}: "
                                 f"relative error {err:.2e} ({'within' if ok else 'beyond'} the bound (n-1)u = {bound:.1e})",
                             error=err)
        return Case(variant=v, launch=launch, check=check, outputs=(), bytes_moved=n * xh.itemsize,
                    launch_shape="host (NumPy)", extra=extra)

    def _stall(self, rt, specs: dict[str, _Spec], gpu_f32: list[str]) -> dict[str, float]:
        """The book's program 003's float32 stall: the CPU's sequential sum of STALL_N x 1.23, and each float32 GPU
        variant's sum of the same input (partials added in float32 on the host)."""
        import cupy

        out: dict[str, float] = {}
        for name, spec in specs.items():
            if spec.real == "float" and spec.kernel is None:
                out[name] = float(sequential_sum_f32(stall_chunks()))
        if not gpu_f32:
            return out
        x = cupy.full(STALL_N, STALL_VALUE, dtype=cupy.float32)
        try:
            for name in gpu_f32:
                launch, partials, shape = self._launcher(rt, specs[name], x, STALL_N)
                launch()
                rt.sync(specs[name].kernel, shape)
                out[name] = float(np.sum(cupy.asnumpy(partials), dtype=np.float32))
                del partials
        finally:
            del x
            cupy.get_default_memory_pool().free_all_blocks()
        return out

    # -- report ------------------------------------------------------------------------------------
    def notes(self, records: Sequence[Any]) -> list[str]:
        """Lines for the report. Also fills the speedup column, which needs the CPU baseline's time
        and so cannot be known when a case is built."""
        ok = {r.variant: r for r in records if getattr(r, "ok", False)}

        def ms(name):
            r = ok.get(name)
            return r.median_ms if r is not None and r.median_ms else None

        for r in ok.values():
            base = ms("cpu_sum_f32" if r.variant.endswith("_f32") else "cpu_sum")
            if base and r.median_ms:
                r.extra[COL_SPEEDUP] = base / r.median_ms

        lines = ["GPU times are the kernel that leaves one partial sum per block; the host adds the partials, untimed "
                 "(as in the book's programs)"]
        gpu = [r for r in ok.values() if r.median_ms and r.variant in _SPECS and self.spec(r.variant).kernel
               and self.spec(r.variant).real == "int"]
        if gpu:
            best = min(gpu, key=lambda r: r.median_ms)
            speed = f", {best.extra[COL_SPEEDUP]:.0f}x the CPU" if best.extra.get(COL_SPEEDUP) else ""
            gbps = f" ({best.gbps:,.0f} GB/s{speed})" if best.gbps else ""
            lines.append(f"fastest int32 kernel: {best.variant}{gbps}")
            lib = ok.get(LIBRARY)
            if lib is not None and lib.median_ms and lib.gbps:
                lines.append(f"the library ({LIBRARY}), the whole int32 sum in one launch: {lib.gbps:,.0f} GB/s, "
                             f"{best.median_ms / lib.median_ms:.2f}x as fast as {best.variant}, which leaves its "
                             f"partials to the host")
        for a, b, what in (("reduceGmem", "reduceSmem", "the tree in shared instead of global memory"),
                           ("reduceSmem", "reduceSmemUnroll", "four blocks a thread"),
                           ("reduceSmemUnroll", "reduceShfl", "warp shuffles instead of the shared-memory tree"),
                           ("reduceSmem", "reduceSmemVolatile", "dropping the __syncwarp (the book's volatile warp)")):
            ta, tb = ms(a), ms(b)
            if ta and tb:
                lines.append(f"{b} takes {tb / ta:.2f}x the time of {a}: {what}")
        cpu = ok.get("cpu_sum_f32")
        if cpu is not None and cpu.extra.get(COL_STALL) is not None:
            seq = cpu.extra[COL_STALL]
            lines.append(f"the array reduction on the CPU: a sequential float32 sum of {STALL_N:,} x 1.23 gives {seq:,.1f} (2^25 = {2**25:,}): "
                         f"once the sum reaches 2^25, adding 1.23 rounds back to the same number; exact "
                         f"{float(STALL_VALUE) * STALL_N:,.1f}")
            gpu_stall = {name: r.extra.get(COL_STALL) for name, r in ok.items() if name != "cpu_sum_f32"
                         and r.extra.get(COL_STALL) is not None}
            if gpu_stall:
                lo, hi = min(gpu_stall.values()), max(gpu_stall.values())
                lines.append(f"the float32 GPU trees on the same input give {lo:,.1f} to {hi:,.1f}: partial sums stay "
                             f"small, nothing stalls")
        errs = {name: r.extra.get(COL_ERROR) for name, r in ok.items() if r.extra.get(COL_ERROR) is not None}
        if "cpu_sum_f32" in errs and len(errs) > 1:
            worst_gpu = max(v for k, v in errs.items() if k != "cpu_sum_f32")
            lines.append(f"float32 relative error vs float64: sequential CPU {errs['cpu_sum_f32']:.1e}, worst GPU tree "
                         f"{worst_gpu:.1e}")
        return lines
