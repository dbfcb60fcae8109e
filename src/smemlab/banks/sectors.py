"""Global-memory sectors of one declared access, as the bank model prices a shared one.

    from smemlab.banks.sectors import analyze_global
    g = analyze_global("out[tx][bx * 16 + ty]", (32, 64), "float", (32, 16, 1), op="store")
    g.requests, g.sectors, g.sectors_per_request, g.ideal_sectors   # 16, 512, 32.0, 64

The subscript is the bank model's (smemlab.banks.expr: C's integer arithmetic over tx ty tz, bdx bdy
bdz, lane, warp) with the block's coordinates added (bx by bz, blockIdx.x/y/z), evaluated for every
thread of the block at `block_index` (row-major in an array of `shape`, whose start is 256-byte
aligned, as cudaMalloc's are). `dtype` is the width the SASS accesses with (float4 where ptxas made
an LDG.E.128), `active` the lanes that execute it. Each warp's addresses are priced by
smemlab.banks.coalescing, the rules `smemlab analyze` applies (measured on an H200 against Nsight
Compute): sectors are the distinct 32-byte pieces the active lanes touch, a request a warp with at
least one active lane, the ideal min(sectors, ceil(active lanes x bytes / 32)).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from smemlab.banks import expr as E
from smemlab.banks.analysis import block_addresses, dtype_size, normalize_block, thread_env, to_ints
from smemlab.banks.model import WARP, normalize_op
from smemlab.errors import UserError


@dataclass
class GlobalAnalysis:
    expr: str
    array: str
    shape: tuple[int, ...]
    element_bytes: int
    block: tuple[int, int, int]
    block_index: tuple[int, int, int]
    op: str
    active: str | None
    requests: int  # warps with an active lane
    sectors: int  # 32-byte sectors over all of them
    ideal_sectors: int
    per_warp: list[tuple[int, int]] = field(repr=False)  # (sectors, ideal) of each warp; (0, 0) if idle
    addresses: np.ndarray = field(repr=False)  # byte offset per thread, -1 = no access

    @property
    def sectors_per_request(self) -> float:
        return self.sectors / self.requests if self.requests else 0.0


def analyze_global(expr: str, shape, dtype: str, block, op: str = "load", active: str | None = None,
                   block_index=(0, 0, 0)) -> GlobalAnalysis:
    """Sectors of one global access by every warp of the block at `block_index` (module docstring)."""
    from smemlab.banks.coalescing import sector_costs  # the one implementation of the rules

    op = normalize_op(op)
    size = dtype_size(dtype)
    block = normalize_block(block)
    dims = to_ints(shape, "shape", "4096,4096 or 1024")
    bi = tuple(block_index) if isinstance(block_index, (tuple, list)) else (block_index,)
    if not 1 <= len(bi) <= 3 or not all(isinstance(v, (int, np.integer)) and v >= 0 for v in bi):
        raise UserError(f"block_index must be 1 to 3 integers, 0 or more (like 0,0,0), got {block_index!r}")
    bi = tuple(int(v) for v in bi + (0, 0))[:3]
    env = thread_env(block)
    for name, v in zip(("bx", "by", "bz"), bi):
        env[name] = np.full(env["tx"].size, v, dtype=np.int64)
    access, _, addresses = block_addresses(expr, dims, size, env, active, E.BLOCK_NAMES)
    warps = -(-addresses.size // WARP)
    rows = np.full(warps * WARP, -1, dtype=np.int64)
    rows[:addresses.size] = addresses
    sectors, ideal = sector_costs(rows.reshape(warps, WARP), size)
    on = (rows.reshape(warps, WARP) >= 0).any(axis=1)
    return GlobalAnalysis(expr=expr, array=access.array, shape=dims, element_bytes=size, block=block, block_index=bi,
                          op=op, active=active, requests=int(on.sum()), sectors=int(sectors.sum()),
                          ideal_sectors=int(ideal.sum()),
                          per_warp=[(int(s), int(i)) for s, i in zip(sectors, ideal)], addresses=addresses)
