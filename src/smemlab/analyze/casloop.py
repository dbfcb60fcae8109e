"""The compare-and-swap loop that ptxas builds for a shared atomic with no ATOMS form on sm_90.

`atomicAdd` on a shared float, double or 64-bit integer (and 64-bit and/or/xor/min/max) is one
`atom.shared` in the PTX but a loop in the SASS:

    loop:  LDS.64 R8, [R7]                      the lane's word, as it is now
           (min/max: a lane whose update would change nothing leaves here)
           ATOMS.CAST.SPIN.64 P, [R7], R8, R10   store R10 if the word still holds R8
           @!P0 BRA loop                         lanes whose attempt failed go round again

Which attempts succeed, measured on an H200 (tests/data/analyze_truth.json, `atomic.add64.*`, 31
one-warp patterns): the CAS runs in the phases of a store of its width (half-warps for 8 bytes), one
after the other. In a phase, of the lanes whose words share a bank (a bank pair for 8 bytes) only the
lowest lane's attempt goes through; the others fail and retry. It succeeds unless an earlier phase
of the same execution wrote that word, which leaves its compare value stale (so lanes 0 and 16 on
one word cannot both succeed in one execution). Costs per execution: the LDS as any load (the bank
model), and 2 wavefronts per phase with an active lane for the CAS, ideal 2 per 32/R active lanes
(R = 2 for 8 bytes). This reproduces the executions, lane-executions, CAS wavefronts and ideal of all
31 patterns, and the LDS.64's wavefronts of all 31 (as the source view counts them in 28; as the L1
counter does in the 3 whose lanes agree in lane^2 pairs, which only the L1 counter packs). Of the 8
variants tried (lowest or highest lane of a bank, lowest or highest lane of a word, which half-warp
first), no other fits. The 4-byte form (float) is taken to work the same way with the whole warp as
one phase (R = 1): its 2 wavefronts per execution are measured, which lanes succeed is not (no
one-warp recording).

Between warps, the trips depend on timing (another warp's write makes a lane's compare value stale):
warps are taken here as if each ran its loop alone, which is exact for one warp; with several warps
on the same words the GPU makes more trips (corpus.histogram_float: 892 emulated, 1004 to 1038
measured in three runs).
"""

from __future__ import annotations

import numpy as np

# (operation, PTX types) that ptxas (NVRTC 13, sm_90) turns into the loop; min/max leave it early
LOOPED = {"add": ("u64", "s64", "f32", "f64"), "and": ("b64", "u64", "s64"), "or": ("b64", "u64", "s64"),
          "xor": ("b64", "u64", "s64"), "min": ("u64", "s64"), "max": ("u64", "s64")}
WARP = 32


def looped(op: str, ptx_type: str) -> bool:
    """Whether a shared atomic of this operation and type is a compare-and-swap loop in SASS."""
    return ptx_type in LOOPED.get(op, ())


def succeeding(off: np.ndarray, rem: np.ndarray, size: int) -> np.ndarray:
    """The lanes (indices into the block) whose compare-and-swap succeeds in this execution, for the
    remaining lanes `rem` at byte offsets `off`, each warp on its own (see the module docstring)."""
    per = 128 // size  # lanes per phase, and bank groups per phase
    lanes = np.flatnonzero(rem)
    if lanes.size == 0:
        return lanes
    word = off[lanes] // size
    group = word % per
    phase = (lanes % WARP) // per
    slot = (lanes // WARP) * per + group  # (warp, bank group)
    key = slot * (WARP // per) + phase
    _, first = np.unique(key, return_index=True)  # lanes are in order: the lowest lane of each group
    cand = first
    if per < WARP:  # half-warps: a phase-1 attempt on the word that phase 0 wrote is stale
        p0 = cand[phase[cand] == 0]
        written = np.full(int(slot.max()) + 1, -1, dtype=np.int64)
        written[slot[p0]] = word[p0]
        cand = cand[(phase[cand] == 0) | (written[slot[cand]] != word[cand])]
    return lanes[cand]


def run(off: np.ndarray, em: np.ndarray, size: int, load, leave, cas, apply) -> None:
    """Drive the loop for the lanes `em`: per execution `load(rem)` (the LDS), `leave(rem)` (lanes
    that quit before the CAS, or None), `cas(rem)` (the CAS), `apply(lanes)` (the successful updates).
    Every execution completes at least one lane of every warp still in the loop."""
    rem = em.copy()
    while rem.any():
        load(rem)
        if leave is not None:
            rem &= ~leave(rem)
            if not rem.any():
                break
        cas(rem)
        won = succeeding(off, rem, size)
        apply(won)
        rem[won] = False
