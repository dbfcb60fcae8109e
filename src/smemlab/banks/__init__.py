"""Shared-memory bank conflicts, predicted: the wavefront model measured on Hopper.

    from smemlab.banks import analyze, suggest
    a = analyze("tile[tx][ty]", (32, 32), "int", (32, 32))
    a.requests, a.wavefronts, a.wavefronts_per_request, a.ideal_wavefronts   # 32, 1024, 32.0, 32

`wavefronts_per_warp(addresses, size, op)` is the model itself, on per-thread byte addresses; the
rule and its evidence are in `smemlab.banks.model`.
"""

from smemlab.banks.advisor import suggest
from smemlab.banks.analysis import Analysis, WarpRecord, analyze, dtype_size
from smemlab.banks.model import WarpCosts, simulate, wavefronts_per_warp

__all__ = ["analyze", "Analysis", "WarpRecord", "suggest", "wavefronts_per_warp", "simulate", "WarpCosts",
           "dtype_size"]
