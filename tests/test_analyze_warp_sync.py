"""Warp-synchronous instructions reached from divergent code (tests/data/analyze/warp_sync.cu, no GPU).

A path that reaches a shfl/vote/bar.warp.sync before the other lanes of its membermask waits for
them; the expected values are computed here from the PTX ISA with the --arg fill contract's inputs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from smemlab.analyze import analyze_source
from smemlab.analyze.args import fill, parse_arg
from smemlab.errors import UserError

SRC = str(Path(__file__).parent / "data" / "analyze" / "warp_sync.cu")
N = 64  # two warps


def run(kernel, *buffers):
    args = [f"v_=int32[{N}]", *buffers, f"out=int32[{2 * N}]"]
    r = analyze_source(SRC, kernel, (N,), args=args)
    ins = {a.split("=")[0]: fill(a.split("=")[0], parse_arg(a)[1]).tolist() for a in args}  # "out": as filled
    return r.buffers["out"].tolist(), ins


def ballot(lanes):
    return sum(1 << (t % 32) for t in lanes)


def s32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def test_a_half_warp_shuffle_in_a_branch():
    out, ins = run("half_warp_shfl")
    v = ins["v_"]
    for t in range(N):
        lane = t % 32
        # down 1 within width 32: lane 15's source (16) is in range but not in the mask: it keeps its own value
        want = -7 if lane >= 16 else v[t + 1] if lane < 15 else v[t]
        assert out[t] == want, f"thread {t}"


def test_activemask_in_a_branch_names_the_lanes_that_took_it():
    out, ins = run("active_shfl", f"on_=int32[{N}]:0..1")
    v, on = ins["v_"], ins["on_"]
    for w in range(N // 32):
        lanes = [t for t in range(32 * w, 32 * w + 32) if on[t]]
        assert lanes, "the seeded inputs leave a warp with no lane on"
        first = lanes[0]
        for t in range(32 * w, 32 * w + 32):
            assert out[t] == (s32(ballot(lanes)) if on[t] else -7), f"thread {t}"
            assert out[N + t] == (v[first] if on[t] else -7), f"thread {t}"


def test_a_ballot_in_a_branch():
    out, ins = run("ballot_in_branch", f"on_=int32[{N}]:0..1")
    v, on = ins["v_"], ins["on_"]
    for w in range(N // 32):
        want = s32(ballot([t for t in range(32 * w, 32 * w + 32) if on[t] and v[t] & 1]))
        assert 0 < want != s32(ballot(range(32))), "the seeded inputs do not exercise the ballot"
        for t in range(32 * w, 32 * w + 32):
            assert out[t] == (want if on[t] else -7), f"thread {t}"


def test_syncwarp_in_both_branches_makes_each_half_see_the_others_store():
    out, ins = run("syncwarp_branches")
    v = ins["v_"]
    for t in range(N):
        o = t ^ 16
        want = v[o] + 1000 + 1 if t % 32 < 16 else v[o] * 3 * 2
        assert out[t] == want, f"thread {t}"


def test_a_full_mask_shuffle_waits_only_for_lanes_that_have_not_exited():
    out, ins = run("exited_member")
    v = ins["v_"]
    for t in range(N):
        lane = t % 32
        if lane >= 16:
            assert out[t] == ins["out"][t] and out[N + t] == ins["out"][N + t], f"thread {t} returned before"
            continue
        # source lane + 8: in range (predicate on) for every lane, but lanes 16-23 have exited: own value
        assert out[N + t] == 1, f"thread {t}"
        assert out[t] == (v[t + 8] if lane < 8 else v[t]), f"thread {t}"


@pytest.mark.parametrize("kernel, message", [
    ("split_halves", ["warp_sync.cu:44", "threads 16-31 execute it but threads 0-15 named in the mask do not",
                      "a different shfl instruction, at", "warp_sync.cu:42", "call it once, after the branches"]),
    ("missing_member", ["warp_sync.cu:71", ("membermask 0xffffffff in warp 0: threads 0-15 execute it but "
                                            "threads 16-31"), "undefined"]),
    ("stray_lane", ["warp_sync.cu:77", "thread 0 (", "membermask 0xfffffffe, which does not name its own lane"]),
])
def test_undefined_warp_synchronisation_is_a_clear_error(kernel, message):
    with pytest.raises(UserError) as err:
        run(kernel)
    text = str(err.value)
    assert "\n" not in text
    for part in message:
        assert part in text
