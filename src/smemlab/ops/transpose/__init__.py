"""smemlab.ops.transpose: the last two axes swapped, as a new contiguous array.

2-D x (rows, cols) gives x.T; a batch (B, rows, cols), or (B1, B2, rows, cols), gives each matrix
transposed, as `x.transpose(-1, -2).contiguous()` (torch) or `cupy.ascontiguousarray(x.swapaxes(-1,
-2))` (not x.T's reversal of every axis). Elements of 2, 4 or 8 bytes: float16, bfloat16 (torch),
int16, float32, int32, float64, int64 (the kernels move bits: one kernel per element size).

The kernels (transpose.cu, in this folder): where both sides are multiples of the 16-byte vector and both
pointers are 16-byte aligned, square tiles of 16 x 16 16-byte chunks (128x128 elements of 2 bytes, 64x64
of 4, 32x32 of 8; 8 x 8 chunks for matrices too small or too narrow to fill such tiles) move through a
swizzled shared-memory tile with 16-byte loads and stores. Any other shape or alignment takes the element
kernels (`_el`): 256 threads move a tile of single elements (a warp reads or writes 32 consecutive
elements of a row, coalesced whatever the row's alignment), tall tiles so that each output row segment
is long and its partial 32-byte sectors few (ELEMENT_TILES); for 2- and 4-byte elements, where the matrix
gives enough tiles, the pair kernels (`_pr`, PAIR_TILES) move two elements a lane and access: aligned 32-
or 64-bit words, rows that start at an odd element realigned in registers. 64-bit indexing: any size that
fits on the GPU.
"""

from __future__ import annotations

import math
import re
from typing import Any

from smemlab import device
from smemlab.ops._args import Dtypes, read
from smemlab.ops._route import torch_ops

SOURCE = "ops/transpose/transpose.cu"
DTYPES = Dtypes("float16", "bfloat16", "int16", "float32", "int32", "float64", "int64")
RANKS = (2, 3, 4)
# Tiles of 16 chunks of 16 bytes a side (256 threads) for aligned shapes large enough to give the GPU
# FEW_TILES of them, mostly full; else tiles of 8 chunks (64 threads), a quarter of the area: below that
# the small tiles keep more of the GPU busy, above it the large ones are a little ahead
# (measured: docs/notes/2026-11-transpose-tiles.md).
FEW_TILES = 1536
LOW_FILL = 0.75
# Ragged shapes and unaligned pointers: element size -> the element kernel's tile (input rows, input
# columns); 4-byte elements take SMALL_TILE_E4 where the tall tile would give fewer than FEW_TILES tiles.
# Each tile is the fastest measured for its element size, well ahead of the 16-byte kernels' _any form that
# these replace; 4-byte 128x32 runs 5 blocks an SM, not 6 (measured: docs/notes/2026-11-transpose-tiles.md).
# Why tall tiles, why 5 blocks, and what else was tried: the comments above the element kernels.
ELEMENT_TILES = {2: (64, 64), 4: (128, 32), 8: (64, 32)}
SMALL_TILE_E4 = (64, 32)
# Ahead of those, where it gives at least FEW_TILES tiles: the pair kernel (`_pr`, a 32- or 64-bit word of
# two elements a lane and access) of this tile: ahead of the element kernels on large arrays, behind them
# where a few large tiles leave SMs idle, hence FEW_TILES (on the safe side for 2 bytes;
# measured: docs/notes/2026-11-transpose-tiles.md).
PAIR_TILES = {2: (128, 64), 4: (128, 64)}
_PLANS: dict[tuple, tuple[device.Kernel, int, int, int, int]] = {}


_TYPES = {2: "u16", 4: "unsigned", 8: "u64"}
_NAME = re.compile(r"transpose_e([248])(?:(_small)?(_any)?|_(el|pr)(\d+)x(\d+))")


def kernel_expression(name: str, blocks: int | str) -> str:
    """The template instance (NVRTC name expression) of kernel `name` ("transpose_e4", "transpose_e2_small_any",
    "transpose_e4_el128x32", "transpose_e2_pr128x64") compiled for `blocks` resident blocks an SM (of 256
    threads; a `_small` kernel's 64-thread blocks count 4x): how the op, the sweeps and the truth cases name
    one instance of transpose.cu's templates."""
    m = _NAME.fullmatch(name)
    if m is None:
        raise ValueError(f"{name}: not a kernel name of ops/transpose")
    e, small, any_, form, tr, tc = m.groups()
    t = _TYPES[int(e)]
    if form:
        return f"transpose_{'elements' if form == 'el' else 'pairs'}<{t}, {tr}, {tc}, {blocks}>"
    return f"transpose_tiles<{t}, {8 if small else 16}, {'true' if any_ else 'false'}, {'4 * ' if small else ''}{blocks}>"


# The kernels the plan launches, by name -> template instance, each at the resident blocks an SM its
# registers allow without spilling (the tiles' through the MINB_E* macros, which sweeps vary; the element
# and pair kernels' measured: the comments above them in transpose.cu). The `_any` forms and the other tiles
# are not shipped: tools/ and the truth cases instantiate them with kernel_expression.
KERNELS = {
    **{f"transpose_e{e}{small}": kernel_expression(f"transpose_e{e}{small}", f"MINB_E{e}")
       for e in (2, 4, 8) for small in ("", "_small")},
    **{name: kernel_expression(name, blocks) for name, blocks in (
        ("transpose_e2_el64x64", 6), ("transpose_e4_el128x32", 4), ("transpose_e4_el64x32", 8),
        ("transpose_e8_el64x32", 6), ("transpose_e2_pr128x64", 4), ("transpose_e4_pr128x64", 3))},
}

_INSTANCES = tuple(KERNELS.values())  # compiled together: one NVRTC compile for all of the op's kernels


def element_kernel(itemsize: int, tile: tuple[int, int], form: str = "el") -> str:
    """The name of the element kernel (`form` "el") or pair kernel ("pr") for `itemsize`-byte elements and
    `tile` (input rows, input columns)."""
    return f"transpose_e{itemsize}_{form}{tile[0]}x{tile[1]}"


def element_kernels() -> list[tuple[str, int, tuple[int, int]]]:
    """(name, element size, tile) of every element kernel the op ships, one element a thread and access
    (`_el`) or two (`_pr`)."""
    found = [(name, _NAME.fullmatch(name).groups()) for name in KERNELS]
    return [(name, int(g[0]), (int(g[4]), int(g[5]))) for name, g in found if g[3]]


def plan(shape: tuple[int, ...], itemsize: int, aligned_ptrs: bool) -> tuple[str, int, int, int, int]:
    """(kernel name, tiles down, tiles across, tile count, threads a block) for an input of `shape`
    (..., rows, cols) of `itemsize`-byte elements."""
    rows, cols = shape[-2], shape[-1]
    batch = math.prod(shape[:-2])
    vec = 16 // itemsize
    if not (aligned_ptrs and rows % vec == 0 and cols % vec == 0):
        def tiles(tile: tuple[int, int]) -> int:
            return batch * -(-rows // tile[0]) * -(-cols // tile[1])

        form, tile = "pr", PAIR_TILES.get(itemsize)
        if tile is None or tiles(tile) < FEW_TILES:
            form, tile = "el", ELEMENT_TILES[itemsize]
            if itemsize == 4 and tiles(tile) < FEW_TILES:
                tile = SMALL_TILE_E4
        tiles_y, tiles_x = -(-rows // tile[0]), -(-cols // tile[1])
        return element_kernel(itemsize, tile, form), tiles_y, tiles_x, batch * tiles_y * tiles_x, 256
    side = 16 * vec
    ntiles = batch * -(-rows // side) * -(-cols // side)
    small = ntiles < FEW_TILES or batch * rows * cols < LOW_FILL * ntiles * side * side
    if small:
        side //= 2
    tiles_y, tiles_x = -(-rows // side), -(-cols // side)
    name = f"transpose_e{itemsize}" + ("_small" if small else "")
    return name, tiles_y, tiles_x, batch * tiles_y * tiles_x, 64 if small else 256


def _plan(dev: int, shape: tuple[int, ...], itemsize: int, aligned_ptrs: bool) -> tuple[device.Kernel, int, int, int, int]:
    key = (dev, shape, itemsize, aligned_ptrs)
    p = _PLANS.get(key)
    if p is None:
        name, tiles_y, tiles_x, ntiles, threads = plan(shape, itemsize, aligned_ptrs)
        if ntiles >= 2**32:  # the kernels' tile indices
            raise ValueError(f"x: {ntiles} tiles of a transpose of shape {shape}: at most 2^32 - 1")
        if len(_PLANS) > 4096:
            _PLANS.clear()
        p = _PLANS[key] = (device.kernel(SOURCE, KERNELS[name], device=dev, names=_INSTANCES), tiles_y, tiles_x, ntiles,
                                threads)
    return p


def launch(out_ptr: int, in_ptr: int, rows: int, cols: int, dev: int, stream: int, itemsize: int = 4,
           shape: tuple[int, ...] | None = None) -> None:
    """Enqueue the transpose of the last two axes of the array at `in_ptr` (shape `shape`, by default
    (rows, cols); rows and cols >= 1; `itemsize`-byte elements) into `out_ptr`, both on device `dev`, on
    the raw stream handle `stream`: what `transpose` launches, and what the transpose experiment times
    as its last variant."""
    k, tiles_y, tiles_x, ntiles, threads = _plan(dev, shape or (rows, cols), itemsize, (in_ptr | out_ptr) & 15 == 0)
    # pointers rounded down to 16 bytes, with the elements they were rounded by
    args = (out_ptr & ~15, (out_ptr & 15) // itemsize, in_ptr & ~15, (in_ptr & 15) // itemsize, rows, cols, tiles_y,
            tiles_x, ntiles)
    device.launch(k, min(ntiles, 2**31 - 1), threads, args, stream)


def transpose(x: Any) -> Any:
    """The transpose of the last two axes of `x` (2-D, or a batch of 3-D or 4-D; 2-, 4- or 8-byte
    elements; C-contiguous; on the GPU) as a new C-contiguous array of shape (..., cols, rows), of
    the caller's type (CuPy -> CuPy, torch -> torch), computed on the caller's current stream. Same
    result as `cupy.ascontiguousarray(x.swapaxes(-1, -2))` (x.T for 2-D). Differentiable for torch
    tensors (the gradient is the output gradient's transposed view, as torch's); a strided view is copied first."""
    ops = torch_ops(x)
    if ops is not None:
        return ops.transpose(x)
    return run(x)


def run(x: Any) -> Any:
    """`transpose` without the torch dispatcher: what torch.ops.smemlab.transpose runs."""
    a = read(x, "x", DTYPES, RANKS, allow_empty=True)
    shape = a.shape
    rows, cols = shape[-2], shape[-1]
    with a.on_device():
        out, out_ptr = a.empty(shape[:-2] + (cols, rows), a.dtype)
        if a.size:
            launch(out_ptr, a.ptr, rows, cols, a.device, a.stream(), a.dtype.itemsize, shape)
        return out
