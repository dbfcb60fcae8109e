"""Shared-memory wavefronts per warp: the rule measured on Hopper (H100, Nsight Compute 2025.3).

Shared memory has 32 banks, 4 bytes wide; byte address A lies in word A // 4, bank (A // 4) % 32.
A *wavefront* is one pass through the banks, in which each bank delivers one word (to any number
of threads). Nsight Compute counts them as l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st.

The rule, which reproduces every one of the 2874 recorded cases in tests/data/bank_truth.json
(loads and stores; 1, 2, 4, 8 and 16-byte accesses; broadcasts, masks, partial warps, 2-D/3-D
blocks), and also the hardware's bank-conflict counter, is:

1. An access of S bytes returns R = max(1, S / 4) 32-bit registers per thread, and the datapath
   moves one register per thread of a warp (128 bytes) per wavefront. So the warp is cut into R
   *phases* of 32 / R consecutive lanes: one phase of 32 lanes for 1, 2 and 4 bytes, two half-warps
   for 8 bytes, four quarter-warps for 16 bytes.
2. Loads only: if the active threads agree in pairs -- every lane has the same address as lane^1
   wherever both are active, or else the same as lane^2 -- the returned registers are packed two to
   one and the phases halve (8 bytes: the whole warp in one phase; 16 bytes: two half-warps). This
   covers a warp-wide broadcast. The test is on the whole warp (a 16-byte load whose first half
   agrees in lane^1 pairs and second half in lane^2 pairs does not pack; 18 recorded cases tell
   the two readings apart). Packing is never more than two to one. Stores never pack.
   Where every active lane of a 16-byte load reads one address, its active quarter-warps pack two by
   two in lane order, whichever they are: quarters 0 and 2, 1 and 3, 0 and 3 or 1 and 2 are one
   wavefront, 0, 1 and 3 two (a ragged tile's warps reading a broadcast filter by LDS.128; measured
   on an H200, 2026-11-29: tools/analyze_truth's probe.lds128_masked.*, 36 one-warp launches of
   9 masks and 4 address patterns). Lane pairs on distinct addresses keep the halves: quarters 0 and 3 are 2 wavefronts
   with no bank in common.
3. A phase costs the largest number of *distinct words* that its active threads touch in any one
   bank (an access of S >= 4 bytes touches S / 4 consecutive words; 1 and 2-byte accesses touch the
   word that holds them, so threads reading different bytes of one word do not conflict), and
   nothing if none of its threads is active.
4. The instruction's wavefronts are the sum over its phases; a warp with no active thread issues no
   instruction (no request). Warps are cut from the linear thread id, x fastest.

The textbook rule "most threads on one bank" fails on several counts: threads reading the same
word do not conflict (broadcast), 8 and 16-byte accesses cost 2 and 4 wavefronts with no conflict
at all, lanes in different phases never conflict with each other, and one identical broadcast costs
1 wavefront for an 8-byte load but 2 for a 16-byte load and 2 or 4 for stores.

*Ideal* wavefronts are the number of phases with an active thread: what the access width costs with
no conflict. On every recorded case the hardware's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_*
counter equals wavefronts minus this ideal.

`bank_width=8` models Kepler's optional 8-byte bank mode (sm_3x) for teaching only: words of 8 bytes,
R = max(1, S / 8) phases, no packing. No GPU made since 2014 has it; it was not measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smemlab.errors import UserError

WARP = 32
BANKS = 32
MAX_SHARED_BYTES = 227 * 1024  # the most shared memory one block can have on Hopper (with the opt-in)
OPS = {"load": "load", "ld": "load", "store": "store", "st": "store"}  # as the command line takes them


def normalize_op(op: str) -> str:
    if isinstance(op, str) and op in OPS:
        return OPS[op]
    raise UserError(f"op must be load or store (or ld, st), got {op!r}")


@dataclass
class WarpCosts:
    """Per-warp results of the model (arrays of one entry per warp)."""

    wavefronts: np.ndarray  # wavefronts of each warp's instruction (0: no active thread)
    ideal: np.ndarray  # phases with an active thread (the conflict-free cost)
    active: np.ndarray  # active threads
    degree: np.ndarray  # the worst phase's cost: 1 = conflict-free, n = n-way conflict
    phases: np.ndarray  # phases the warp was cut into (after load packing)


def _pairs_agree(addr: np.ndarray, act: np.ndarray, partner: int) -> np.ndarray:
    """Per warp: every lane whose partner lane^partner is also active has the partner's address."""
    lanes = np.arange(WARP) ^ partner
    both = act & act[:, lanes]
    return ~(both & (addr != addr[:, lanes])).any(axis=1)


def phases_of(addr: np.ndarray, act: np.ndarray, size: int, op: str, bank_width: int = 4):
    """Rules 1 and 2: phases per warp, and the phase of each lane; addr/act are (warps, 32)."""
    regs = max(1, size // bank_width)  # registers per thread = phases before packing
    pack = np.ones(addr.shape[0], dtype=np.int64)
    if normalize_op(op) == "load" and regs > 1 and bank_width == 4:
        pack[_pairs_agree(addr, act, 1) | _pairs_agree(addr, act, 2)] = 2
    phases = regs // pack
    lane_phase = np.arange(WARP)[None, :] // (WARP // phases)[:, None]
    if regs == 4:  # rule 2's one address: the active quarter-warps two by two, in lane order
        first = np.where(act, addr, -1).max(axis=1)
        one = (pack == 2) & ~(act & (addr != first[:, None])).any(axis=1)
        quarter = np.arange(WARP) // 8
        busy = np.stack([act[:, quarter == q].any(axis=1) for q in range(4)], axis=1)  # (warps, 4)
        rank = np.cumsum(busy, axis=1) - 1
        lane_phase = np.where(one[:, None], rank[:, quarter] // 2, lane_phase)
        phases = np.where(one, (busy.sum(axis=1) + 1) // 2, phases)
    return phases, lane_phase


def simulate(addresses, size: int, op: str = "load", bank_width: int = 4) -> WarpCosts:
    """Run the model on per-thread byte addresses (linear thread-id order; negative = inactive)."""
    op = normalize_op(op)
    if not _is_int(size) or size not in (1, 2, 4, 8, 16):
        raise UserError(f"access size must be 1, 2, 4, 8 or 16 bytes, got {size!r}")
    if not _is_int(bank_width) or bank_width not in (4, 8):
        raise UserError(f"bank width must be 4 or 8 bytes, got {bank_width!r}")
    size, bank_width = int(size), int(bank_width)
    addr = _addresses(addresses)
    n_warps = -(-addr.size // WARP)
    full = np.full(n_warps * WARP, -1, dtype=np.int64)
    full[: addr.size] = addr
    addr = full.reshape(n_warps, WARP)
    act = addr >= 0
    if (addr[act] % size).any():
        t = int(np.flatnonzero(act.ravel() & (full % size != 0))[0])
        raise UserError(f"thread {t}: address {int(full[t])} is not aligned to the {size}-byte access")
    past = act & (addr + size > MAX_SHARED_BYTES)
    if past.any():
        t = int(np.flatnonzero(past.ravel())[0])
        raise UserError(f"thread {t}: address {int(full[t])} is past shared memory (a block has at most "
                        f"{MAX_SHARED_BYTES} bytes)")

    phases, lane_phase = phases_of(addr, act, size, op, bank_width)
    words_per_access = max(1, size // bank_width)
    word = (addr // bank_width)[:, :, None] + np.arange(words_per_access)  # (warps, 32, words)
    slot = (np.arange(n_warps)[:, None] * 4 + lane_phase)[:, :, None]  # one slot per (warp, phase)
    sel = np.broadcast_to(act[:, :, None], word.shape)
    keys = np.unique(np.broadcast_to(slot, word.shape)[sel] * (1 << 40) + word[sel])  # distinct words
    slot_bank = (keys >> 40) * BANKS + (keys & ((1 << 40) - 1)) % BANKS
    per_bank = np.bincount(slot_bank, minlength=n_warps * 4 * BANKS).reshape(n_warps, 4, BANKS)
    per_phase = per_bank.max(axis=2)  # (warps, 4): a phase costs its busiest bank
    return WarpCosts(
        wavefronts=per_phase.sum(axis=1),
        ideal=(per_phase > 0).sum(axis=1),
        active=act.sum(axis=1),
        degree=per_phase.max(axis=1),
        phases=phases,
    )


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _addresses(addresses) -> np.ndarray:
    """Byte addresses as int64; integers only (a float or a string is a mistake, not an address)."""
    try:
        arr = np.asarray(addresses)
    except (TypeError, ValueError) as exc:
        raise UserError(f"addresses must be integers: {exc}") from None
    if arr.dtype == bool or (arr.size and arr.dtype.kind not in "iu"):
        raise UserError(f"addresses must be integers (byte offsets, -1 for no access), got {arr.dtype} values")
    if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
        raise UserError("addresses past shared memory")
    return arr.astype(np.int64).ravel()


def wavefronts_per_warp(addresses, size: int, op: str = "load", active=None, bank_width: int = 4) -> np.ndarray:
    """Wavefronts of each warp's access, from per-thread byte addresses.

    addresses: one byte offset per thread, in linear thread-id order (x fastest); -1 (any negative)
    marks a thread that does not access, and so does False in the optional boolean `active` mask.
    size: bytes per access (1, 2, 4, 8, 16); op: "load"/"ld" or "store"/"st".
    """
    addr = _addresses(addresses)
    if active is not None:
        mask = np.asarray(active, dtype=bool).ravel()
        if mask.shape != addr.shape:
            raise UserError(f"active mask has {mask.size} entries for {addr.size} addresses")
        addr = np.where(mask, addr, -1)
    return simulate(addr, size, op, bank_width).wavefronts
