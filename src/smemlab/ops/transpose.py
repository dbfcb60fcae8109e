"""smemlab.ops.transpose: out = x.T as a new contiguous array, for 2-D float32/int32 arrays.

The kernel (kernels/lib/transpose.cu) moves 64x64 tiles through a swizzled shared-memory tile with
16-byte global loads and stores; shapes whose sides are not multiples of 4 (or unaligned views)
take a plain 32x32 padded-tile kernel. 64-bit indexing: any size that fits on the GPU.
"""

from __future__ import annotations

from typing import Any

from smemlab import device
from smemlab.ops._args import Dtypes, read

SOURCE = "lib/transpose.cu"
DTYPES = Dtypes("float32", "int32")


def plan(rows: int, cols: int, ptr_in: int, ptr_out: int) -> tuple[str, int, int, int]:
    """(kernel name, tile side, tiles across, tile count) for a rows x cols input."""
    vec = rows % 4 == 0 and cols % 4 == 0 and ptr_in % 16 == 0 and ptr_out % 16 == 0
    side = 64 if vec else 32
    tiles_x = -(-cols // side)
    return ("transpose_v4" if vec else "transpose_s1"), side, tiles_x, tiles_x * -(-rows // side)


def launch(out_ptr: int, in_ptr: int, rows: int, cols: int, dev: int, stream: int) -> None:
    """Enqueue out = in.T for the rows x cols matrix of 4-byte elements at `in_ptr` (both on device
    `dev`, rows and cols >= 1) on the raw stream handle `stream`: what `transpose` launches, and what
    the transpose experiment times as its last variant."""
    name, _, tiles_x, ntiles = plan(rows, cols, in_ptr, out_ptr)
    k = device.kernel(SOURCE, name, device=dev)
    device.launch(k, min(ntiles, 2**31 - 1), 256, (out_ptr, in_ptr, rows, cols, tiles_x, ntiles), stream)


def transpose(x: Any) -> Any:
    """The transpose of the 2-D array `x` (float32 or int32, C-contiguous, on the GPU) as a new
    C-contiguous array of shape (cols, rows), of the caller's type (CuPy -> CuPy, torch -> torch),
    computed on the caller's current stream. Same result as `cupy.ascontiguousarray(x.T)`."""
    a = read(x, "x", DTYPES, (2,), allow_empty=True)
    rows, cols = a.shape
    with a.on_device():
        out, out_ptr = a.empty((cols, rows), a.dtype)
        if rows and cols:
            launch(out_ptr, a.ptr, rows, cols, a.device, a.stream())
        return out
