"""The bank model against recorded hardware truth (Nsight Compute on an H100) and the seeds' counts."""

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from smemlab.banks import analyze, simulate, wavefronts_per_warp
from smemlab.errors import UserError

TRUTH = json.loads((Path(__file__).parent / "data" / "bank_truth.json").read_text())
CASES = TRUTH["cases"]


def test_fixture_covers_what_the_model_claims():
    kinds = Counter((c["size"], c["op"]) for c in CASES)
    assert set(kinds) == {(s, op) for s in (1, 2, 4, 8, 16) for op in ("ld", "st")}
    assert min(kinds.values()) >= 200
    assert any(len(c["addr"]) % 32 for c in CASES)  # partial warps
    assert any(c["block"][2] > 1 for c in CASES)  # 3-D blocks
    assert sum("expr" in c for c in CASES) >= 100


def test_model_matches_every_recorded_case():
    wrong = []
    for c in CASES:
        r = simulate(c["addr"], c["size"], c["op"])
        got = (int(r.wavefronts.sum()), int((r.active > 0).sum()), int((r.wavefronts - r.ideal).sum()))
        want = (c["wavefronts"], c["instructions"], c["bank_conflicts"])
        if got != want:
            wrong.append((c["id"], c["kind"], c["size"], c["op"], got, want))
    assert not wrong, f"{len(wrong)} of {len(CASES)} cases differ (id, kind, size, op, model, hardware): {wrong[:10]}"


@pytest.mark.parametrize("case", [c for c in CASES if "expr" in c], ids=lambda c: f"{c['id']}-{c['expr']}-{c['dtype']}-{c['op']}")
def test_analyze_matches_recorded_expression_cases(case):
    a = analyze(case["expr"], tuple(case["shape"]), case["dtype"], tuple(case["block"]),
                op="load" if case["op"] == "ld" else "store")
    assert a.addresses.tolist() == case["addr"]  # the analysis computes the addresses the GPU used
    assert (a.requests, a.wavefronts) == (case["instructions"], case["wavefronts"])
    assert a.bank_conflicts == case["bank_conflicts"]


@pytest.mark.parametrize("expr,shape,block,pad,per_request", [
    ("tile[tx][ty]", (32, 32), (32, 32), 0, 32),  # setColReadCol
    ("tile[tx][ty]", (32, 32), (32, 32), 1, 1),  # padded to 32x33
    ("tile[ty][tx]", (32, 32), (32, 32), 0, 1),  # setRowReadRow
    ("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 32), (32, 16), 0, 16),  # rectangular, read by column
    ("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 32), (32, 16), 2, 1),  # IPAD 2
])
@pytest.mark.parametrize("op", ["load", "store"])
def test_seed_counts(expr, shape, block, pad, per_request, op):
    a = analyze(expr, shape, "int", block, op=op, pad=pad)
    assert a.requests == block[0] * block[1] // 32
    assert a.wavefronts_per_request == per_request
    assert a.ideal_wavefronts == a.requests


def test_low_level_api_masks_and_partial_warps():
    lanes = np.arange(48)
    w = wavefronts_per_warp(lanes * 4 * 32, 4, "load")  # stride 32 words: 32-way, then 16-way
    assert w.tolist() == [32, 16]
    mask = lanes < 8
    assert wavefronts_per_warp(lanes * 128, 4, "ld", active=mask).tolist() == [8, 0]
    assert wavefronts_per_warp([-1] * 32, 4).tolist() == [0]


@pytest.mark.parametrize("size,op,want", [(4, "load", 1), (8, "load", 1), (16, "load", 2), (8, "store", 2),
                                          (16, "store", 4), (1, "store", 1)])
def test_broadcast_of_one_address(size, op, want):
    assert wavefronts_per_warp(np.zeros(32, int), size, op).tolist() == [want]


def test_pairing_rule_for_wide_loads():
    # lanes (2k, 2k+1) share 16-byte chunks: packed into half-warps (2 wavefronts, not 4) ...
    assert wavefronts_per_warp(np.arange(32) // 2 * 16, 16, "load").tolist() == [2]
    # ... but lanes 4 apart sharing chunks do not pack: four quarter-warps
    assert wavefronts_per_warp(np.arange(32) % 4 * 16, 16, "load").tolist() == [4]
    assert wavefronts_per_warp(np.arange(32) // 2 * 16, 16, "store").tolist() == [4]


def test_subword_bytes_of_one_word_do_not_conflict():
    lane = np.arange(32)
    assert wavefronts_per_warp(lane % 4 + 128 * (lane // 4), 1, "store").tolist() == [8]
    assert wavefronts_per_warp(lane, 1, "load").tolist() == [1]


def test_misaligned_and_bad_sizes_are_user_errors():
    with pytest.raises(UserError, match="aligned"):
        wavefronts_per_warp([2], 4)
    with pytest.raises(UserError):
        wavefronts_per_warp([0], 3)
    with pytest.raises(UserError):
        wavefronts_per_warp([0], 4, op="atomic")


def test_kepler_eight_byte_banks_is_a_model():
    a4 = analyze("s[tx]", (64,), "double", (32,))
    a8 = analyze("s[tx]", (64,), "double", (32,), bank_width=8)
    assert (a4.wavefronts, a8.wavefronts) == (2, 1)
    # every other float: one 8-byte bank word each at width 8, a 2-way conflict at width 4
    assert analyze("s[2*tx]", (64,), "float", (32,), bank_width=8).wavefronts == 1
    assert analyze("s[2*tx]", (64,), "float", (32,)).wavefronts == 2


def test_packing_is_decided_for_the_whole_warp():
    # first half agrees in lane^1 pairs, second half in lane^2 pairs: neither holds warp-wide,
    # so a 16-byte load stays in four quarter-warps (measured: 4, not the 2 a per-half rule gives)
    lane = np.arange(32)
    addr = np.where(lane < 16, lane >> 1, 16 + (lane & ~2) % 8) * 16
    assert wavefronts_per_warp(addr, 16, "load").tolist() == [4]
    recorded = [c for c in CASES if c["kind"].startswith("halves_x1_x2")]
    assert recorded and all(
        int(simulate(c["addr"], c["size"], c["op"]).wavefronts.sum()) == c["wavefronts"] for c in recorded)


@pytest.mark.parametrize("mask, broadcast, pairs", [
    (0x00FF00FF, 1, 2), (0xFF00FF00, 1, 2), (0xFF0000FF, 1, 2), (0x00FFFF00, 1, 2), (0xFF00FFFF, 2, 2),
    (0x000F000F, 1, 2), (0x0000FFFF, 1, 1), (0xFFFFFFFF, 2, 2)])
def test_a_16_byte_broadcast_packs_its_active_quarters_two_by_two(mask, broadcast, pairs):
    """One address for every active lane: the active quarter-warps pack two by two whichever they are; lane pairs on
    16 distinct float4s in a row keep the half-warps (an H200, 2026-11-29: the analyze fixture's
    probe.lds128_masked.*, modes 0 and 1)."""
    lane = np.arange(32)
    on = (mask >> lane) & 1 == 1
    assert wavefronts_per_warp(np.where(on, 0, -1), 16, "load").tolist() == [broadcast]
    assert wavefronts_per_warp(np.where(on, (lane >> 1) * 16, -1), 16, "load").tolist() == [pairs]
    quarters = len({q for q in range(4) if mask >> 8 * q & 0xFF})
    assert wavefronts_per_warp(np.where(on, 0, -1), 16, "store").tolist() == [quarters]  # stores never pack
