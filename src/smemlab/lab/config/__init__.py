"""Configuring shared memory (the book's programs 000/001 "配置共享内存", "访问模式配置", "同步").

- the limits: shared memory per block (default and opt-in), per SM, reserved per block;
- a kernel with more than 48 KB of dynamic shared memory: it runs with the opt-in
  (cudaFuncAttributeMaxDynamicSharedMemorySize) and fails, with a clear error, without it;
- the L1/shared carveout preference (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) and the
  occupancy of a shared-memory-heavy kernel (cuOccupancyMaxActiveBlocksPerMultiprocessor) as its
  shared memory per block grows: smemlab.render.charts draws it from the record (occupancy_chart);
- the bank size: the book's cudaDeviceGetSharedMemConfig / 8-byte Kepler mode. Every GPU since
  Maxwell has 32 banks of 4 bytes and ignores the setting; the 8-byte mode lives on in the bank
  model (smemlab.banks.analyze(..., bank_width=8));
- __threadfence() in the Programming Guide's sum, where the last block (atomicInc on a counter)
  adds the partial sums;
- the number of memory-synchronisation domains (cudaDevAttrMemSyncDomainCount: 4 on Hopper).
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.device import current_device
from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, SmemAccess, Variant

SOURCE = "lab/config/config.cu"
THREADS = 256
TILE = 1024
DEFINES = {"THREADS": THREADS, "TILE": TILE}
DEFAULT_SMEM_KB = (4, 8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224)
# CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: -1 no preference, else % of the maximum shared
CARVEOUTS = (-1, 0, 25, 50, 100)


def set_carveout(kernel, percent: int) -> None:
    """cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent): the
    share of the unified L1/shared memory the kernel would like as shared memory (-1: no preference).
    A hint: the driver may pick another configuration."""
    kernel.set_attribute("PREFERRED_SHARED_MEMORY_CARVEOUT", percent)


def active_blocks_per_sm(kernel, block: int, dynamic_smem: int) -> int:
    """cuOccupancyMaxActiveBlocksPerMultiprocessor(func, block, dynamic shared memory)."""
    from cuda.bindings import driver

    err, blocks = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(kernel.function(), block, dynamic_smem)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"cuOccupancyMaxActiveBlocksPerMultiprocessor: {err.name}")
    return int(blocks)


def blocks_by_smem_limit(smem_per_block: int, shared_per_sm: int, reserved_per_block: int = 1024,
                         max_blocks: int = 32, threads: int = THREADS, max_threads: int = 2048) -> int:
    """What the occupancy API should say when shared memory (and threads) are the only limits:
    floor(shared per SM / (shared per block + the 1 KB the system reserves per block))."""
    by_smem = shared_per_sm // (smem_per_block + reserved_per_block) if smem_per_block else max_blocks
    return int(min(by_smem, max_blocks, max_threads // threads))


def smem_heavy_reference(x: np.ndarray, tile: int = TILE) -> np.ndarray:
    """smemHeavy: each tile of `tile` floats reversed (a partial last tile reversed as if padded with 0)."""
    n = x.size
    pad = (-n) % tile
    y = np.concatenate([x, np.zeros(pad, x.dtype)]).reshape(-1, tile)[:, ::-1].reshape(-1)
    return y[:n]


def bank_size_query() -> str:
    """The book's cudaDeviceGetSharedMemConfig (driver: cuCtxGetSharedMemConfig), where it still exists."""
    try:
        from cuda.bindings import driver

        err, cfg = driver.cuCtxGetSharedMemConfig()
        if err != driver.CUresult.CUDA_SUCCESS:
            return f"cuCtxGetSharedMemConfig: {err.name}"
        return str(getattr(cfg, "name", cfg))
    except Exception as exc:  # removed from newer CUDA
        return f"no bank-size query in this CUDA ({type(exc).__name__})"


def kepler_bank_model() -> dict[str, Any]:
    """The book's Kepler example through the bank model at 4- and 8-byte bank width: a column of a
    float tile[32][32] (32-way at 4 bytes, 16-way at 8) and a row of double (2 wavefronts at 4 bytes,
    1 at 8)."""
    out: dict[str, Any] = {}
    try:
        from smemlab.banks import analyze
    except Exception as exc:
        return {"bank_model": f"unavailable ({exc})"}
    cases = {"float tile[tx][ty]": ("tile[tx][ty]", (32, 32), "float"),
             "double row[tx]": ("row[tx]", (32,), "double")}
    for label, (expr, shape, dtype) in cases.items():
        for width in (4, 8):
            try:
                a = analyze(expr, shape, dtype, (32, 32, 1) if "ty" in expr else (32, 1, 1), bank_width=width)
                out[f"{label} @{width}B"] = round(float(a.wavefronts_per_request), 2)
            except TypeError:
                out[f"{label} @{width}B"] = "bank model has no bank_width"
            except Exception as exc:
                out[f"{label} @{width}B"] = f"error: {exc}"
    return out


def sync_domain_count() -> int | str:
    try:
        from cuda.bindings import driver

        attr = driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT
        err, value = driver.cuDeviceGetAttribute(attr, current_device())
        if err != driver.CUresult.CUDA_SUCCESS:
            return f"not reported ({err.name})"
        return int(value)
    except Exception as exc:
        return f"not reported ({exc})"


def _info_case(v: Variant, values: dict[str, Any], detail: str) -> Case:
    extra = dict(values, value="; ".join(f"{k} {val}" for k, val in values.items()))
    return Case(v, lambda: None, lambda: Check(True, detail), (), 0, 0, "host query", extra)


class ConfigExperiment(Experiment):
    name = "config"
    title = "Configuring shared memory: limits, opt-in, carveout and occupancy, bank size, fences, sync domains"
    seed = "the book's section 5.1: configuring the amount of shared memory, the access mode, synchronization"
    source = SOURCE
    size_help = "N (floats copied by smemHeavy and summed by sum)"
    default_size = (1 << 24,)
    small_sizes = ((10007,), (1,), (1025,))
    bank_check_size = (4096,)
    columns = ("smem_per_block", "blocks_per_sm", "occupancy_pct", "value")
    column_titles = {"smem_per_block": "shared memory per block (B)", "blocks_per_sm": "blocks per SM",
                     "occupancy_pct": "occupancy %", "value": "what the GPU says"}
    case_columns = ("smem_per_block",)

    def variants(self) -> list[Variant]:
        return [
            Variant("sharedMemoryLimits", "shared memory per block (default and opt-in), per SM, reserved per block",
                    None, on_gpu=False),
            Variant("bigSmem", "one block with all the opt-in dynamic shared memory (> 48 KB: "
                    "cudaFuncAttributeMaxDynamicSharedMemorySize set first)", "bigSmem", (THREADS, 1, 1)),
            Variant("bigSmemNoOptin", "the same launch without the opt-in: the launch must fail with a clear error",
                    "bigSmem", (THREADS, 1, 1), on_gpu=False,
                    hazard="memcheck: the launch without the opt-in fails (CUDA_ERROR_INVALID_VALUE) on purpose"),
            Variant("smemHeavy", "a copy through shared memory asking for more and more dynamic shared memory: active "
                    "blocks per SM (occupancy API) at carveouts -1/0/25/50/100 %", "smemHeavy", (THREADS, 1, 1),
                    (SmemAccess("buf store", "buf[tx]", (TILE,), "float", "store", per_warp=TILE // THREADS),
                     SmemAccess("buf load", f"buf[{TILE - 1} - tx]", (TILE,), "float", "load", per_warp=TILE // THREADS))),
            Variant("bankSize", "the book's bank-size query (cudaDeviceGetSharedMemConfig): 4-byte banks on every GPU "
                    "since Maxwell; the 8-byte Kepler mode through the bank model", None, on_gpu=False),
            Variant("sum", "Programming Guide: partial sums, __threadfence(), atomicInc on a counter; the last "
                    "block adds the partial sums", "sum", (THREADS, 1, 1)),
            Variant("memSyncDomains", "cudaDevAttrMemSyncDomainCount: memory-synchronisation domains (Hopper: 4; "
                    "1 before)", None, on_gpu=False),
        ]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = tuple(int(v) for v in values)
        if len(values) != 1:
            raise UserError(f"config --size takes one number N (floats); got {len(values)}")
        if not 1 <= values[0] <= (1 << 31) - 1:
            raise UserError(f"config --size: N must be in 1..{(1 << 31) - 1}; got {values[0]}")
        return values

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        (n,) = self.parse_size(size)
        f = rt.facts
        reserved = _reserved_per_block()
        rng = cupy.random.default_rng(3)
        for v in variants:
            if v.name == "sharedMemoryLimits":
                yield _info_case(v, {"per_block": f.shared_per_block, "per_block_optin": f.shared_per_block_optin,
                                     "per_sm": f.shared_per_sm, "reserved_per_block": reserved},
                                 "device properties read")
            elif v.name in ("bigSmem", "bigSmemNoOptin"):
                optin = v.name == "bigSmem"
                # a fresh module for the failing launch, so the opt-in of bigSmem cannot leak into it
                kernel = rt.kernel(SOURCE, "bigSmem", dict(DEFINES, OPTIN=int(optin)))
                nbytes = (f.shared_per_block_optin - kernel.static_smem) // 16 * 16
                if nbytes <= 48 * 1024:
                    yield _info_case(v, {"skipped": f"this GPU gives a block at most {nbytes} B"}, "nothing to opt into")
                    continue
                nwords = nbytes // 4
                x = rng.uniform(0.5, 1.5, nwords, dtype=cupy.float32)
                out = cupy.empty(nwords, dtype=cupy.float32)
                extra: dict[str, Any] = {"smem_per_block": nbytes}
                if optin:
                    ref = cupy.asnumpy(x)[::-1]

                    def launch(kernel=kernel, x=x, out=out, nwords=nwords, nbytes=nbytes):
                        rt.launch(kernel, 1, THREADS, out, x, np.int32(nwords), shmem=nbytes)  # opts in first

                    def check(out=out, ref=ref) -> Check:
                        got = cupy.asnumpy(out)
                        ok = np.array_equal(got, ref)
                        return Check(ok, f"{got.size} floats through {got.size * 4} B of shared memory, reversed"
                                     if ok else "the buffer did not come back reversed")

                    extra["value"] = f"{nbytes} B dynamic shared memory with the opt-in"
                    yield Case(v, launch, check, (out,), 8 * nwords, 0, launch_shape(1, THREADS, nbytes), extra)
                else:
                    box: dict[str, Any] = {}

                    def launch(kernel=kernel, x=x, out=out, nwords=nwords, nbytes=nbytes, box=box):
                        box["error"] = launch_without_optin(rt, kernel, out, x, nwords, nbytes)

                    def check(box=box, extra=extra, nbytes=nbytes) -> Check:
                        err = box.get("error")
                        extra["value"] = err or "launched (unexpected)"
                        if err is None:
                            return Check(False, f"a launch with {nbytes} B of dynamic shared memory and no opt-in "
                                                "did not fail")
                        return Check(True, err)

                    yield Case(v, launch, check, (), 0, 0, launch_shape(1, THREADS, nbytes) + " (no opt-in)", extra)
            elif v.name == "smemHeavy":
                yield from self._occupancy_cases(rt, v, n, reserved, rng)
            elif v.name == "bankSize":
                values = {"query": bank_size_query(), "bank_bytes": 4, "banks": 32}
                values.update(kepler_bank_model())
                yield _info_case(v, values, "banks are 4 bytes wide on this GPU (fixed since Maxwell; "
                                 "the 8-byte mode is the bank model's)")
            elif v.name == "sum":
                kernel = rt.kernel(SOURCE, "sum", DEFINES)
                x = rng.uniform(0.0, 1.0, n, dtype=cupy.float32)
                expected = float(cupy.asnumpy(x).astype(np.float64).sum())
                grid = max(1, min(4 * f.sms, -(-n // THREADS)))
                result = cupy.empty(grid, dtype=cupy.float32)

                def launch(kernel=kernel, x=x, result=result, grid=grid):
                    rt.launch(kernel, grid, THREADS, x, np.uint64(n), result)

                def check(result=result, expected=expected, grid=grid) -> Check:
                    got = float(result[0].get())
                    err = abs(got - expected) / max(abs(expected), 1e-30)
                    return Check(err <= 1e-5, f"last of {grid} blocks summed {got:.7g}; float64 NumPy {expected:.7g} "
                                 f"(relative error {err:.2g}, tolerance 1e-5)", err)

                yield Case(v, launch, check, (result,), 4 * n + 8 * grid, n, launch_shape(grid, THREADS),
                           {"value": f"{grid} partial sums"})
            elif v.name == "memSyncDomains":
                yield _info_case(v, {"domains": sync_domain_count()}, "device attribute read")

    def _occupancy_cases(self, rt, v: Variant, n: int, reserved: int, rng) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        f = rt.facts
        x = rng.uniform(-1.0, 1.0, n, dtype=cupy.float32)
        out = cupy.empty(n, dtype=cupy.float32)
        ref = smem_heavy_reference(cupy.asnumpy(x))
        # one module per carveout, so one kernel's preference does not leak into another's
        kernels = {c: rt.kernel(SOURCE, "smemHeavy", dict(DEFINES, CARVEOUT=c)) for c in CARVEOUTS}
        static = kernels[-1].static_smem
        limit = f.shared_per_block_optin - static
        for c, k in kernels.items():
            k.allow_dynamic_smem(limit)
            if c >= 0:
                set_carveout(k, c)
        sizes = sorted({kb * 1024 for kb in DEFAULT_SMEM_KB if kb * 1024 <= limit} | {limit // 16 * 16})
        grid = -(-n // TILE)
        for smem in sizes:
            by_carveout = {str(c): active_blocks_per_sm(k, THREADS, smem) for c, k in kernels.items()}
            blocks = by_carveout["-1"]
            extra = {"smem_per_block": smem + static, "blocks_per_sm": blocks,
                     "occupancy_pct": round(100 * blocks * THREADS / 2048, 1),
                     "blocks_per_sm_by_carveout": by_carveout,
                     "blocks_by_smem_model": blocks_by_smem_limit(smem + static, f.shared_per_sm, reserved),
                     "value": " ".join(f"{c}%:{b}" for c, b in by_carveout.items())}
            kernel = kernels[-1]

            def launch(kernel=kernel, smem=smem):
                rt.launch(kernel, grid, THREADS, out, x, np.uint64(n), shmem=smem)

            def check() -> Check:
                got = cupy.asnumpy(out)
                if np.array_equal(got, ref):
                    return Check(True, f"{n} floats through shared memory, each tile reversed")
                bad = int(np.argmax(~(got == ref)))
                return Check(False, f"out[{bad}] = {got[bad]}, expected {ref[bad]}")

            yield Case(v, launch, check, (out,), 8 * n, 0, launch_shape(grid, THREADS, smem), extra)

    def notes(self, records: Sequence[Any]) -> list[str]:
        out = []
        heavy = [r for r in records if r.variant == "smemHeavy" and r.extra.get("blocks_per_sm") is not None]
        if heavy:
            first, last = heavy[0], heavy[-1]
            out.append(f"smemHeavy: {first.extra['blocks_per_sm']} blocks/SM at {first.extra['smem_per_block']} B of shared "
                       f"memory per block, {last.extra['blocks_per_sm']} at {last.extra['smem_per_block']} B")
            timed = [r for r in heavy if r.ok and r.gbps]
            if len(timed) >= 2:
                best = max(timed, key=lambda r: r.gbps)
                worst = min(timed, key=lambda r: r.gbps)
                out.append(f"smemHeavy bandwidth: {best.gbps:.0f} GB/s at {best.extra['blocks_per_sm']} blocks/SM, "
                           f"{worst.gbps:.0f} GB/s at {worst.extra['blocks_per_sm']} blocks/SM")
            differ = [r for r in heavy if len(set(r.extra.get("blocks_per_sm_by_carveout", {}).values())) > 1]
            if differ:
                out.append(f"the carveout preference changes the occupancy API's answer at {len(differ)} of "
                           f"{len(heavy)} sizes")
            else:
                out.append("the carveout preference does not change the occupancy API's answer at any size")
        for r in records:
            if r.variant == "bigSmemNoOptin" and r.extra.get("value"):
                out.append(f"without the opt-in: {r.extra['value']}")
            if r.variant == "bankSize":
                out.append(f"bank size: {r.extra.get('query')}; banks are {r.extra.get('bank_bytes')} bytes wide "
                           "(the 8-byte mode of Kepler is gone; the bank model still computes it)")
            if r.variant == "memSyncDomains":
                out.append(f"memory-synchronisation domains: {r.extra.get('domains')}")
        return out


def launch_without_optin(rt, kernel, out, x, nwords: int, nbytes: int) -> str | None:
    """Launch bigSmem with `nbytes` of dynamic shared memory WITHOUT raising its limit (bypassing
    Runtime.launch, which opts in): the error message, or None if it launched."""
    from cuda.core import LaunchConfig, launch

    from smemlab.gpu import kernel_arg

    config = LaunchConfig(grid=(1, 1, 1), block=(THREADS, 1, 1), shmem_size=nbytes)
    try:
        launch(rt.stream, config, kernel.handle, *(kernel_arg(a) for a in (out, x, np.int32(nwords))))
    except Exception as exc:
        return (f"kernel {kernel.name}: {nbytes} B of dynamic shared memory is above the {48 * 1024} B a kernel may "
                f"ask for without cudaFuncSetAttribute(MaxDynamicSharedMemorySize): {type(exc).__name__}: {exc}")
    return None


def _reserved_per_block() -> int:
    try:
        import cupy

        return int(cupy.cuda.runtime.deviceGetAttribute(cupy.cuda.runtime.cudaDevAttrReservedSharedMemoryPerBlock,
                                                        cupy.cuda.Device().id))
    except Exception:
        return 1024
