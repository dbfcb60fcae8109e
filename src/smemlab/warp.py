"""The warp's shuffle rule, once: which lane each lane of a `shfl.sync` reads, from the PTX definition.

The emulator executes it (analyze/warpops.py) and the shuffle experiment's NumPy models check the GPU
against it (lab/shuffle): one model of the instruction for both.

PTX `shfl.sync.MODE d|p, a, b, c, membermask`: lane L computes a source lane j and takes a[j] where
pval holds, else keeps its own value. `b` is the source lane or the offset (its low 5 bits count);
`c` packs the segment mask, c[12:8], and the clamp value, c[4:0]. CUDA's `__shfl*_sync(..., width)`
passes c = ((32 - width) << 8) | 0x1f for idx, down and bfly, and c = (32 - width) << 8 for up.
"""

from __future__ import annotations

import numpy as np

WARP = 32
SHFL_MODES = ("up", "down", "bfly", "idx")


def shfl_c(mode: str, width: int) -> int:
    """The `c` operand CUDA's `__shfl*_sync(..., width)` passes for `mode`."""
    return ((WARP - width) << 8) | (0 if mode == "up" else 0x1F)


def shfl_source(mode: str, lane, b, c) -> tuple[np.ndarray, np.ndarray]:
    """(j, pval) of each lane: the lane it reads and whether it may (else it keeps its own value), elementwise
    over `lane` (lanes 0..31 of their warp), with `b` and `c` the instruction's operands (arrays or numbers)."""
    lane = np.asarray(lane, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64) & 31
    c = np.asarray(c, dtype=np.int64)
    cval = c & 31
    seg = (c >> 8) & 31
    max_lane = (lane & seg) | (cval & ~seg)
    if mode == "up":
        j = lane - b
        return j, j >= max_lane
    if mode == "down":
        j = lane + b
    elif mode == "bfly":
        j = lane ^ b
    elif mode == "idx":
        j = (lane & seg) | (b & ~seg)
    else:
        raise ValueError(f"shfl mode {mode!r}: one of {', '.join(SHFL_MODES)}")
    return j, j <= max_lane
