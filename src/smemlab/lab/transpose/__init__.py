"""Matrix transpose (the book's program 001, book section 5.4 "coalesced global memory access", and program 003's
transpose1): a copy as the upper bound, the naive transpose, and the shared-memory tile with padding,
unrolling and dynamic allocation; float32, any ROWS x COLS. Last, the library's transpose
(smemlab.ops.transpose: 64x64 swizzled tiles, 16-byte accesses), launched as the op launches it.

bytes_moved is the matrix read once and written once (2 x ROWS x COLS x 4) for every variant, the copy
included, so GB/s compare directly. The declared shared-memory accesses are those of a full tile; the
blocks on the edge of a shape that is not a multiple of the tile run them with fewer lanes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import numpy as np

from smemlab.errors import UserError
from smemlab.lab.base import Case, Check, Experiment, GlobalAccess, SmemAccess, Variant
from smemlab.limits import time_against_wavefronts
from smemlab.ops.transpose import SOURCE as LIBRARY_SOURCE

BDIMX, BDIMY, IPAD, TILE = 32, 16, 2, 32  # the defaults of lab/transpose/transpose.cu
LIBRARY = "smemlab.ops.transpose"
MAX_ROWS = 65535 * BDIMY  # gridDim.y is at most 65535, one block row per BDIMY rows
MAX_COLS = 1 << 30
MAX_ELEMENTS = 1 << 34
COL_PCT_COPYGMEM = "pct_copyGmem"


@dataclass(frozen=True)
class _Spec:
    kernel: str
    block: tuple[int, int, int]
    tile: tuple[int, int]  # (rows, cols) of in that one block covers: the grid is ceil(ROWS/r) x ceil(COLS/c)
    smem: tuple[SmemAccess, ...] = ()
    dynamic_bytes: int = 0
    transposes: bool = True  # False: copyGmem, out has the shape of in
    in_first: bool = False  # program 003's argument order (A, B) instead of program 001's (out, in)
    defines: dict = field(default_factory=dict)


def _specs() -> dict[str, tuple[str, _Spec]]:
    b = (BDIMX, BDIMY, 1)
    idx = f"(ty*{BDIMX}+tx)"
    irow, icol = f"({idx}/{BDIMY})", f"({idx}%{BDIMY})"  # the renumbered threads of transposeSmem

    def tile2d(cols: int, name: str = "tile") -> tuple[SmemAccess, ...]:
        shape = (BDIMY, cols)
        return (SmemAccess(f"store {name}[ty][tx]", f"{name}[ty][tx]", shape, "float", "store"),
                SmemAccess(f"load {name}[icol][irow]", f"{name}[{icol}][{irow}]", shape, "float", "load"))

    unroll_shape = (BDIMY, 2 * BDIMX + IPAD)
    unroll = (
        SmemAccess("store tile[ty][tx]", "tile[ty][tx]", unroll_shape, "float", "store"),
        SmemAccess(f"store tile[ty][tx+{BDIMX}]", f"tile[ty][tx+{BDIMX}]", unroll_shape, "float", "store"),
        SmemAccess("load tile[icol][irow]", f"tile[{icol}][{irow}]", unroll_shape, "float", "load"),
        SmemAccess(f"load tile[icol][irow+{BDIMX}]", f"tile[{icol}][{irow}+{BDIMX}]", unroll_shape, "float", "load"),
    )
    stride = 2 * BDIMX + IPAD
    dyn_shape = (BDIMY * stride,)
    unroll_dyn = (
        SmemAccess("store tile[row_idx]", f"tile[ty*{stride}+tx]", dyn_shape, "float", "store"),
        SmemAccess(f"store tile[row_idx+{BDIMX}]", f"tile[ty*{stride}+tx+{BDIMX}]", dyn_shape, "float", "store"),
        SmemAccess("load tile[col_idx]", f"tile[{icol}*{stride}+{irow}]", dyn_shape, "float", "load"),
        SmemAccess(f"load tile[col_idx+{BDIMX}]", f"tile[{icol}*{stride}+{irow}+{BDIMX}]", dyn_shape, "float", "load"),
    )

    def transpose1_tile(pad: int) -> tuple[SmemAccess, ...]:
        """transpose1's accesses to its S tile, each row padded by `pad`."""
        shape = (TILE, TILE + pad)
        return (SmemAccess("store S[ty][tx]", "S[ty][tx]", shape, "float", "store"),
                SmemAccess("load S[tx][ty]", "S[tx][ty]", shape, "float", "load"))

    t = (TILE, TILE, 1)
    return {
        "copyGmem": ("copy, not a transpose: reads and writes coalesced (the upper bound)",
                     _Spec("copyGmem", b, (BDIMY, BDIMX), transposes=False)),
        "naiveGmem": ("reads rows, writes columns of out (strided stores)", _Spec("naiveGmem", b, (BDIMY, BDIMX))),
        "transposeSmem": (f"{BDIMY}x{BDIMX} shared tile, column read conflicts",
                          _Spec("transposeSmem", b, (BDIMY, BDIMX), tile2d(BDIMX))),
        "transposeSmemPad": (f"tile rows padded by {IPAD}: no conflicts",
                             _Spec("transposeSmemPad", b, (BDIMY, BDIMX), tile2d(BDIMX + IPAD))),
        "transposeSmemUnrollPad": ("padded, two elements a thread",
                                   _Spec("transposeSmemUnrollPad", b, (BDIMY, 2 * BDIMX), unroll)),
        "transposeSmemUnrollPadDyn": ("transposeSmemUnrollPad in dynamic shared memory",
                                      _Spec("transposeSmemUnrollPadDyn", b, (BDIMY, 2 * BDIMX), unroll_dyn,
                                            dynamic_bytes=BDIMY * stride * 4)),
        "transpose1": (f"another version of the book's transpose: {TILE}x{TILE} tile, 32-way conflicts on the column read",
                       _Spec("transpose1", t, (TILE, TILE), transpose1_tile(0), in_first=True)),
        "transpose1Pad": (f"its fix: S[{TILE}][{TILE}+1]",
                          _Spec("transpose1Pad", t, (TILE, TILE), transpose1_tile(1), in_first=True)),
    }


_SPECS = _specs()
GLOBAL_SHAPE = (4096, 4096)  # the default size: the ratio is the same at any size of whole tiles


def gmem_accesses(kernel: str) -> tuple[GlobalAccess, ...]:
    """Every global load and store of a block of the book's `kernel` (a full tile, block (1, 1)
    standing for all: the others are translates by whole rows and tiles)."""
    shape, one = GLOBAL_SHAPE, (1, 1, 0)

    def ld(label, expr):
        return GlobalAccess(label, expr, shape, "float", "load", block_index=one)

    def st(label, expr):
        return GlobalAccess(label, expr, shape, "float", "store", block_index=one)

    row, col = f"by*{BDIMY}+ty", f"bx*{BDIMX}+tx"  # program 001's thread -> element of in
    if kernel in ("copyGmem", "naiveGmem"):
        out = f"out[{row}][{col}]" if kernel == "copyGmem" else f"out[{col}][{row}]"
        return ld("in[row][col]", f"in[{row}][{col}]"), st("out[row][col]" if kernel == "copyGmem" else "out[col][row]", out)
    irow, icol = f"(ty*{BDIMX}+tx)/{BDIMY}", f"(ty*{BDIMX}+tx)%{BDIMY}"  # transposeSmem's renumbered threads
    if kernel in ("transposeSmem", "transposeSmemPad"):
        return (ld("in[row][col]", f"in[{row}][{col}]"),
                st("out[row][col] (tile's column)", f"out[bx*{BDIMX}+{irow}][{row.replace('ty', icol)}]"))
    if kernel in ("transposeSmemUnrollPad", "transposeSmemUnrollPadDyn"):
        col2 = f"2*bx*{BDIMX}+tx"
        orow, ocol = f"2*bx*{BDIMX}+{irow}", f"by*{BDIMY}+{icol}"
        return (ld("in[row][col]", f"in[{row}][{col2}]"), ld(f"in[row][col+{BDIMX}]", f"in[{row}][{col2}+{BDIMX}]"),
                st("out[row][col]", f"out[{orow}][{ocol}]"), st(f"out[row+{BDIMX}][col]", f"out[{orow}+{BDIMX}][{ocol}]"))
    if kernel in ("transpose1", "transpose1Pad"):
        return (ld("A[ny1][nx1]", f"A[by*{TILE}+ty][bx*{TILE}+tx]"), st("B[nx2][ny2]", f"B[bx*{TILE}+ty][by*{TILE}+tx]"))
    return ()


def make_input(rows: int, cols: int, seed: int = 7) -> np.ndarray:
    """Seeded float32 in [1, 2): no zeros, no two rows alike."""
    rng = np.random.default_rng(seed)
    return (rng.random((rows, cols), dtype=np.float32) + np.float32(1.0)).astype(np.float32)


def grid_of(spec: _Spec, rows: int, cols: int) -> tuple[int, int, int]:
    tr, tc = spec.tile
    return (-(-cols // tc), -(-rows // tr), 1)


class TransposeExperiment(Experiment):
    name = "transpose"
    title = "matrix transpose: coalescing through a shared-memory tile, padding, unrolling"
    seed = "the book's section 5.4, coalescing global memory accesses; and another version of its transpose (transpose1)"
    source = "lab/transpose/transpose.cu"
    size_help = "ROWS,COLS (or N for N x N; float32)"
    default_size = (4096, 4096)
    small_sizes = ((33, 47), (1, 1), (17, 3), (16, 32), (129, 257), (1000, 1), (1, 1000), (97, 193))
    bank_check_size = (64, 64)
    columns = (COL_PCT_COPYGMEM,)
    column_titles = {COL_PCT_COPYGMEM: "% of copyGmem"}
    library_source = LIBRARY_SOURCE

    def variants(self) -> list[Variant]:
        book = [Variant(name, summary, kernel=s.kernel, block=s.block, smem=s.smem, gmem=gmem_accesses(s.kernel))
                for name, (summary, s) in _SPECS.items()]
        return book + [Variant(LIBRARY, "the library's transpose: 64x64 tiles through a swizzled shared-memory tile, "
                                        "16-byte loads and stores (32x32 tiles for small matrices; where a side is not "
                                        "a multiple of 4, tall tiles of single elements)",
                               kernel="transpose_tiles", block=(256, 1, 1), library=LIBRARY)]

    def spec(self, name: str) -> _Spec:
        return _SPECS[name][1]

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = [int(v) for v in values]
        if len(values) == 1:
            values = values * 2
        if len(values) != 2:
            raise UserError(f"transpose --size takes ROWS,COLS or N (for N x N); got {values}")
        rows, cols = values
        if rows < 1 or cols < 1:
            raise UserError(f"transpose --size {rows},{cols}: both dimensions must be at least 1")
        if rows > MAX_ROWS:
            raise UserError(f"transpose --size {rows},{cols}: at most {MAX_ROWS} rows (the grid's y dimension "
                            f"holds 65535 blocks of {BDIMY} rows)")
        if cols > MAX_COLS or rows * cols > MAX_ELEMENTS:
            raise UserError(f"transpose --size {rows},{cols}: {rows * cols:,} elements is more than any GPU holds "
                            f"(limit {MAX_ELEMENTS:,})")
        return (rows, cols)

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        import cupy

        from smemlab.gpu import launch_shape

        rows, cols = self.parse_size(size)
        nbytes = rows * cols * 4
        if 2 * nbytes > 0.85 * rt.facts.global_bytes:
            raise UserError(f"transpose --size {rows},{cols}: input and output need {2 * nbytes / 1e9:.1f} GB, "
                            f"this GPU has {rt.facts.global_bytes / 1e9:.1f} GB")
        host = make_input(rows, cols)
        x = cupy.asarray(host)
        out_t = cupy.empty((cols, rows), dtype=cupy.float32)
        out_c = cupy.empty((rows, cols), dtype=cupy.float32)
        def checker(out, want):
            def check() -> Check:
                got = cupy.asnumpy(out)
                if np.array_equal(got, want):
                    return Check(True, f"all {got.size} elements exact")
                bad = np.argwhere(~(got == want))
                r, c = (int(i) for i in bad[0])
                return Check(False, f"{len(bad)} of {got.size} wrong; out[{r},{c}] = {got[r, c]!r}, expected {want[r, c]!r}")
            return check

        for v in variants:
            if v.library:
                yield self._library_case(rt, v, x, out_t, checker(out_t, host.T))
                continue
            spec = self.spec(v.name)
            out = out_t if spec.transposes else out_c
            want = host.T if spec.transposes else host
            grid = grid_of(spec, rows, cols)
            kernel = rt.kernel(self.source, spec.kernel, spec.defines)
            args = (x, out) if spec.in_first else (out, x)

            def launch(kernel=kernel, grid=grid, spec=spec, args=args):
                rt.launch(kernel, grid, spec.block, *args, np.uint32(rows), np.uint32(cols), shmem=spec.dynamic_bytes)

            yield Case(variant=v, launch=launch, check=checker(out, want), outputs=(out,), bytes_moved=2 * nbytes,
                       launch_shape=launch_shape(grid, spec.block, spec.dynamic_bytes))

    @staticmethod
    def _library_case(rt, v: Variant, x, out, check) -> Case:
        """The library's transpose of `x` into `out`, launched by the op's own launch function."""
        from smemlab.gpu import launch_shape
        from smemlab.ops.transpose import launch as library_launch
        from smemlab.ops.transpose import plan

        rows, cols = x.shape
        name, _, _, ntiles, threads = plan(x.shape, x.itemsize, (x.data.ptr | out.data.ptr) & 15 == 0)
        side = 16 // x.itemsize * (8 if threads == 64 else 16)  # 8 or 16 chunks of 16 bytes a side

        def launch():
            library_launch(out.data.ptr, x.data.ptr, rows, cols, rt.device, rt.stream_handle, x.itemsize)

        return Case(variant=v, launch=launch, check=check, outputs=(out,), bytes_moved=2 * x.nbytes,
                    launch_shape=f"{name}: " + launch_shape(min(ntiles, 2**31 - 1), threads) + f"; {side}x{side} tiles")

    def notes(self, records: Sequence[Any]) -> list[str]:
        """Lines for the report. Also fills the % of copyGmem column, which needs copyGmem's time."""
        ok = {r.variant: r for r in records if getattr(r, "ok", False) and r.median_ms}
        copy = ok.get("copyGmem")
        lines = []
        if copy is not None:
            for r in ok.values():
                r.extra[COL_PCT_COPYGMEM] = 100 * copy.median_ms / r.median_ms
            book = [r for r in ok.values() if r.variant not in ("copyGmem", LIBRARY)]
            if book:
                best = min(book, key=lambda r: r.median_ms)
                lines.append(f"fastest of the book's transposes: {best.variant}, {best.extra[COL_PCT_COPYGMEM]:.0f}% of "
                             f"copyGmem's speed")
                lib = ok.get(LIBRARY)
                if lib is not None:
                    lines.append(f"the library ({LIBRARY}): {lib.extra[COL_PCT_COPYGMEM]:.0f}% of copyGmem's speed, "
                                 f"{best.median_ms / lib.median_ms:.2f}x as fast as {best.variant}"
                                 + (f", {lib.pct_copy:.0f}% of the run's copy" if lib.pct_copy else ""))
            if "naiveGmem" in ok:
                lines.append(f"naiveGmem (strided stores) runs at {ok['naiveGmem'].extra[COL_PCT_COPYGMEM]:.0f}% of copyGmem")

        def ratio(a, b, what):
            if a in ok and b in ok:
                lines.append(f"{b} takes {ok[b].median_ms / ok[a].median_ms:.2f}x the time of {a}: {what}")

        ratio("naiveGmem", "transposeSmem", "coalesced stores through the tile")
        ratio("transposeSmemPad", "transposeSmemUnrollPad", "two elements a thread")
        # the bank conflicts: each conflicted tile beside its padded fix, the time ratio beside the wavefront ratio
        for fast, slow, what in (("transposeSmemPad", "transposeSmem", "the column read's bank conflicts, padded away"),
                                 ("transpose1Pad", "transpose1", "transpose1's bank conflicts, and its +1 pad")):
            line = time_against_wavefronts(what, ok[fast], ok[slow]) if fast in ok and slow in ok else None
            if line:
                lines.append(line)
        return lines
