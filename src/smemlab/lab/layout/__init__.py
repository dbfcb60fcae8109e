"""Shared-memory data layout (the book's programs 000 and 002, book section 5.2): row- and column-major access to an
int tile, static and dynamic, with and without padding, on a square 32x32 block and a 32x16 rectangle.

Every kernel writes each thread's global index into the tile in one order and reads it back in another,
so `out` is a known permutation; the reference simulates the kernel's index maths in NumPy from the very
expressions declared for the bank model, so a declaration that does not match the kernel fails the check.

--size BLOCKS[,PASSES]: the book's programs launch one block and make one pass over its tile, a few microseconds
that are mostly the launch. Here each block writes its own slice of `out`, thousands of blocks fill the
GPU, and each makes PASSES passes over its tile (the NPASS macro of lab/layout/layout.cu: pass p stores
idx + p, and each thread sums what it reads), so the shared-memory wavefronts, which differ 32x
between the layouts, set the time rather than the launch. The sum is checked exactly (modulo 2^32).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.counters import measured_per_request, predicted_per_request
from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, GlobalAccess, SmemAccess, Variant
from smemlab.limits import time_against_wavefronts

SQUARE = {"BDIMX": 32, "BDIMY": 32, "IPAD": 1}
RECT = {"BDIMX": 32, "BDIMY": 16, "IPAD": 2}
RECT_PAD1 = {"BDIMX": 32, "BDIMY": 16, "IPAD": 1}  # one column of padding is not enough for 32x16
MAX_BLOCKS = 1 << 20  # out stays below 2^31 ints, as the kernels store unsigned int indices into int
MAX_PASSES = 1 << 16
# 4096 blocks of 128 passes: the conflict-free 32x32 kernels' wavefronts alone take about 0.13 ms on a
# 132-SM H200 (at one wavefront per SM per cycle), over ten times an empty launch; the 32-way ones 32x that
DEFAULT_PASSES = 128


@dataclass(frozen=True)
class _Spec:
    """How to launch one variant and what its shared-memory accesses are (index expressions)."""

    kernel: str
    defines: dict
    shape: tuple[int, ...]  # the tile as declared (1-D for dynamic shared memory)
    store: str  # "tile[...]..." in the bank model's language (tx, ty, C operators)
    load: str
    dynamic: bool = False

    @property
    def block(self) -> tuple[int, int, int]:
        return (self.defines["BDIMX"], self.defines["BDIMY"], 1)

    @property
    def threads(self) -> int:
        return self.defines["BDIMX"] * self.defines["BDIMY"]

    @property
    def smem_bytes(self) -> int:
        return int(np.prod(self.shape)) * 4


def _specs() -> dict[str, tuple[str, _Spec]]:
    """name -> (summary, spec), in the book's order: the square kernels, then the rectangle's."""
    out: dict[str, tuple[str, _Spec]] = {}

    def add(name, summary, kernel, d, shape, store, load, dynamic=False):
        out[name] = (summary, _Spec(kernel, d, shape, store, load, dynamic))

    for suffix, d in (("", SQUARE), ("_rect", RECT)):
        bx, by, pad = d["BDIMX"], d["BDIMY"], d["IPAD"]
        shape = f"{bx}x{by}"
        idx = f"(ty*{bx}+tx)"
        irow, icol = f"({idx}/{by})", f"({idx}%{by})"  # transposed coordinates, as in layout.cu
        add(f"setRowReadRow{suffix}", f"{shape}: write rows, read rows (no conflict)", "setRowReadRow", d,
            (by, bx), "tile[ty][tx]", "tile[ty][tx]")
        if suffix:
            add(f"setRowReadRow2{suffix}", f"{shape}: rows through the linear index", "setRowReadRow2", d,
                (by, bx), f"tile[({idx}/{bx})][({idx}%{bx})]", f"tile[({idx}/{bx})][({idx}%{bx})]")
        add(f"setColReadCol{suffix}", f"{shape}: write columns, read columns (tile[{bx}][{by}])", "setColReadCol", d,
            (bx, by), "tile[tx][ty]", "tile[tx][ty]")
        if suffix:
            add(f"setColReadCol2{suffix}", f"{shape}: columns of a [{by}][{bx}] tile", "setColReadCol2", d,
                (by, bx), f"tile[{icol}][{irow}]", f"tile[{icol}][{irow}]")
        add(f"setColReadRow{suffix}", f"{shape}: write columns, read rows", "setColReadRow", d,
            (by, bx), f"tile[{icol}][{irow}]", "tile[ty][tx]")
        add(f"setRowReadCol{suffix}", f"{shape}: write rows, read columns (a transpose)", "setRowReadCol", d,
            (by, bx), "tile[ty][tx]", f"tile[{icol}][{irow}]")
        add(f"setRowReadColDyn{suffix}", f"{shape}: setRowReadCol in dynamic shared memory", "setRowReadColDyn", d,
            (by * bx,), f"tile[{idx}]", f"tile[{icol}*{bx}+{irow}]", dynamic=True)
        pads = [(pad, "")] if not suffix else [(2, ""), (1, "1")]
        for p, tag in pads:
            dp = dict(d, IPAD=p)
            why = "" if not suffix else (" (enough for 32x16)" if p == 2 else " (not enough for 32x16)")
            add(f"setRowReadColPad{tag}{suffix}", f"{shape}: read columns, rows padded by {p}{why}", "setRowReadColPad", dp,
                (by, bx + p), "tile[ty][tx]", f"tile[{icol}][{irow}]")
            add(f"setRowReadColDynPad{tag}{suffix}", f"{shape}: padded by {p} by hand in dynamic shared memory{why}",
                "setRowReadColDynPad", dp, (by * (bx + p),), f"tile[ty*{bx + p}+tx]", f"tile[{icol}*{bx + p}+{irow}]",
                dynamic=True)
    return out


_SPECS = _specs()
_ACCESS = re.compile(r"^(\w+)((?:\[[^\[\]]+\])+)$")


def flat_index(expr: str, shape: Sequence[int], env: dict[str, Any], mask: np.ndarray | None = None) -> np.ndarray:
    """Evaluate an access like 'tile[(ty*32+tx)%16][(ty*32+tx)/16]' for every thread (`env` maps tx, ty,
    lane, ... to arrays): the flat element index into an array of `shape`. Non-negative integers and
    + - * / % only, where C's / and % equal Python's // and %. Threads outside `mask` (those that do
    not execute the access) get index 0 and are not bounds-checked."""
    m = _ACCESS.match(expr.replace(" ", ""))
    if not m:
        raise ValueError(f"not an array access: {expr!r}")
    subs = re.findall(r"\[([^\[\]]+)\]", m.group(2))
    if len(subs) != len(shape):
        raise ValueError(f"{expr!r} has {len(subs)} subscripts for shape {tuple(shape)}")
    like = next(iter(env.values()))
    scope = dict(env, __builtins__={})
    parts = [np.broadcast_to(np.asarray(eval(s.replace("/", "//"), scope), dtype=np.int64), np.shape(like)) for s in subs]
    if mask is not None:
        parts = [np.where(mask, p, 0) for p in parts]
    for p, n in zip(parts, shape):
        if p.min() < 0 or p.max() >= n:
            raise ValueError(f"{expr!r} indexes outside {tuple(shape)}")
    return np.ravel_multi_index(parts, tuple(shape))


def expected_output(spec: _Spec, blocks: int, passes: int) -> np.ndarray:
    """What the kernel leaves in `out` (int32): each thread's sum, over the passes, of what it read,
    where pass p stored base + idx + p, in unsigned 32-bit arithmetic as on the GPU."""
    nt = spec.threads
    read = np.arange(blocks, dtype=np.uint64)[:, None] * nt + permutation(spec).astype(np.uint64)[None, :]
    total = read * np.uint64(passes) + np.uint64(passes * (passes - 1) // 2)
    return (total % np.uint64(1 << 32)).astype(np.uint32).view(np.int32).ravel()


def permutation(spec: _Spec) -> np.ndarray:
    """What one block writes to out[idx], idx = threadIdx.y * BDIMX + threadIdx.x: simulate the store
    of each thread's idx into the tile, then the load (block 0; block b adds b * BDIMX * BDIMY)."""
    bx, by, _ = spec.block
    ty, tx = np.divmod(np.arange(bx * by, dtype=np.int64), bx)
    tile = np.full(int(np.prod(spec.shape)), -1, dtype=np.int64)
    env = {"tx": tx, "ty": ty}
    stores = flat_index(spec.store, spec.shape, env)
    if len(np.unique(stores)) != stores.size:
        raise ValueError(f"{spec.kernel}: two threads store to the same element")
    tile[stores] = ty * bx + tx
    out = tile[flat_index(spec.load, spec.shape, env)]
    if (out < 0).any():
        raise ValueError(f"{spec.kernel}: a thread reads an element nobody wrote")
    return out


class LayoutExperiment(Experiment):
    name = "layout"
    title = "shared-memory layout: row/column access, dynamic allocation, padding"
    seed = "the book's section 5.2, the data layout of shared memory: square and rectangular tiles"
    source = "lab/layout/layout.cu"
    size_help = (f"BLOCKS[,PASSES] (each block a 32x32 or 32x16 tile, PASSES passes over it, default "
                 f"{DEFAULT_PASSES}; the book launches 1,1)")
    default_size = (4096, DEFAULT_PASSES)
    # the first is the sanitizer's: two passes, so racecheck sees the barrier between them
    small_sizes = ((3, 2), (1, 1), (13, 3), (127, 1))
    bank_check_size = (1, 1)
    columns = ()

    def variants(self) -> list[Variant]:
        out = []
        for name, (summary, spec) in _SPECS.items():
            smem = (
                SmemAccess("store tile", spec.store, spec.shape, "int", op="store"),
                SmemAccess("load tile", spec.load, spec.shape, "int", op="load"),
            )
            # the kernel's one global access: each thread stores its sum at base + idx, a block's
            # threads in order (block 1 standing for all: each block's NT ints follow the last's)
            nt = spec.block[0] * spec.block[1]
            gmem = (GlobalAccess("out[base+idx]", f"out[bx*{nt}+ty*{spec.block[0]}+tx]", (2 * nt,), "int", "store",
                                 block_index=(1, 0, 0)),)
            out.append(Variant(name, summary, kernel=spec.kernel, block=spec.block, smem=smem, gmem=gmem))
        return out

    def spec(self, name: str) -> _Spec:
        return _SPECS[name][1]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = [int(v) for v in values]
        if len(values) not in (1, 2):
            raise UserError(f"layout --size takes BLOCKS or BLOCKS,PASSES (blocks 1 to {MAX_BLOCKS}, passes over "
                            f"each tile 1 to {MAX_PASSES}); got {values}")
        blocks, passes = values if len(values) == 2 else (values[0], DEFAULT_PASSES)
        if not 1 <= blocks <= MAX_BLOCKS:
            raise UserError(f"layout --size {blocks}: the number of blocks must be 1 to {MAX_BLOCKS}")
        if not 1 <= passes <= MAX_PASSES:
            raise UserError(f"layout --size {blocks},{passes}: the passes over each tile must be 1 to {MAX_PASSES}")
        return (blocks, passes)

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        blocks, passes = self.parse_size(size)
        biggest = max(self.spec(v.name).threads for v in variants) if variants else 0
        need = blocks * biggest * 4
        if need > rt.facts.global_bytes // 2:
            raise UserError(f"layout --size {blocks}: {need / 1e9:.1f} GB of output does not fit in this GPU's "
                            f"{rt.facts.global_bytes / 1e9:.1f} GB")
        for v in variants:
            spec = self.spec(v.name)
            nt = spec.threads
            expected = expected_output(spec, blocks, passes)
            out = cupy.empty(blocks * nt, dtype=cupy.int32)
            kernel = rt.kernel(self.source, spec.kernel, dict(spec.defines, NPASS=passes))
            shmem = spec.smem_bytes if spec.dynamic else 0
            # each warp runs the store and the load once a pass
            v = dataclasses.replace(v, smem=tuple(dataclasses.replace(a, per_warp=passes) for a in v.smem))

            def launch(kernel=kernel, out=out, spec=spec, shmem=shmem):
                rt.launch(kernel, blocks, spec.block, out, shmem=shmem)

            def check(out=out, expected=expected) -> Check:
                got = cupy.asnumpy(out)
                bad = np.flatnonzero(got != expected)
                if bad.size:
                    i = int(bad[0])
                    return Check(False, f"{bad.size} of {got.size} wrong; out[{i}] = {got[i]}, expected {expected[i]}")
                return Check(True, f"all {got.size} elements are the expected sums over {passes} pass(es)")

            yield Case(
                variant=v, launch=launch, check=check, outputs=(out,), bytes_moved=blocks * nt * 4,
                launch_shape=launch_shape(blocks, spec.block, shmem)
                + f"; tile {'x'.join(map(str, spec.shape))} int, {passes} pass{'es' if passes > 1 else ''}",
            )

    def notes(self, records: Sequence[Any]) -> list[str]:
        """Each pair's time ratio beside its wavefront ratio (smemlab.limits says why they differ),
        and what one pad column does to the 32x16 column read."""
        by = {r.variant: r for r in records if getattr(r, "ok", False)}
        lines = []
        for suffix, shape in (("", "32x32"), ("_rect", "32x16")):
            for fast, slow, what in (("setRowReadRow", "setColReadCol", ""),
                                     ("setRowReadColPad", "setRowReadCol", ", padding"),
                                     ("setRowReadCol", "setRowReadColDyn", ", dynamic shared memory")):
                a, b = by.get(fast + suffix), by.get(slow + suffix)
                line = time_against_wavefronts(f"{shape}{what}", a, b) if a and b else None
                if line:
                    lines.append(line)
        one, two = by.get("setRowReadColPad1_rect"), by.get("setRowReadColPad_rect")
        if one is not None and two is not None:
            measured = [measured_per_request(r, "load") for r in (one, two)]
            figures = measured if None not in measured else [predicted_per_request(r, "load") for r in (one, two)]
            if None not in figures:
                source = "measured" if None not in measured else "predicted"
                lines.append(f"32x16: the column read takes {figures[0]:.3g} shared wavefronts per request with IPAD 1 and "
                             f"{figures[1]:.3g} with IPAD 2 ({source}): one pad column is not enough when a warp spans two "
                             "tile rows")
            line = time_against_wavefronts("32x16, one pad column against two", two, one)
            if line:
                lines.append(line)
        return lines
