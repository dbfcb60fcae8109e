"""Which lanes may execute a warp-synchronous instruction that divergent paths reach at different times.

PTX: `shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`, `elect.sync` and `bar.warp.sync` with
membermask M make a thread wait until every non-exited thread named in M has executed the
instruction with the same M, and a thread not named in its own M is undefined behaviour. On the
SIMT stack (executor.py) the lanes of a warp reach the instruction one path at a time; here, from
the lanes that have arrived (each with the M it gave) and the lanes that can still arrive, is
computed which arrived lanes are complete. The executor does the waiting and the scheduling.
"""

from __future__ import annotations

import numpy as np

from smemlab.analyze.machine import WARP
from smemlab.analyze.ptx import Instr
from smemlab.analyze.warpops import ballot

_BITS = (np.uint64(1) << np.arange(WARP, dtype=np.uint64))

# where the membermask is among each instruction's operands (d|p, a, b, c, membermask for shfl)
_MEMBERMASK = {"shfl": 4, "vote": 2, "match": 2, "redux": 2, "elect": 1}

BAR_WARP = "bar.warp.sync"  # one key for every bar.warp.sync: it carries no data, so any instance meets any other


def membermask_operand(ins: Instr) -> int | None:
    """The operand index of a `.sync` warp instruction's membermask, None for any other instruction."""
    parts = ins.parts
    if "sync" not in parts:
        return None
    if parts[0] == "bar" and len(parts) > 1 and parts[1] == "warp":
        return 0 if ins.operands else None
    i = _MEMBERMASK.get(parts[0])
    return i if i is not None and len(ins.operands) > i else None


def waiting_for(arrived: np.ndarray, masks: np.ndarray, can_come: np.ndarray, W: int) -> np.ndarray:
    """Per lane that has arrived, the 32-bit mask of the lanes of its warp it still waits for: those its
    membermask names that can still come (not exited) and have not arrived with that same membermask
    (uint32, 0 for lanes that have not arrived)."""
    arr = arrived.reshape(W, WARP)
    mm = masks.reshape(W, WARP)
    if ((np.where(arr, mm, 0).max(axis=1) == np.where(arr, mm, 0xFFFFFFFF).min(axis=1)) | ~arr.any(axis=1)).all():
        same_bits = ballot(arrived, W)[:, None]  # one membermask per warp (every warp that has arrived lanes)
    else:
        same = (mm[:, :, None] == mm[:, None, :]) & arr[:, None, :]  # [warp, lane, other lane]
        same_bits = (same.astype(np.uint64) @ _BITS).astype(np.uint32)
    coming = ballot(can_come, W)[:, None]
    return np.where(arr, mm & coming & ~same_bits, np.uint32(0)).astype(np.uint32).ravel()


def lane_ids(bits: int, warp: int) -> np.ndarray:
    """Thread ids of the lanes set in a warp's 32-bit mask."""
    return np.array([warp * WARP + k for k in range(WARP) if bits >> k & 1], dtype=np.int64)
