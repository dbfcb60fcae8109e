"""Properties the bank model must keep, whatever the pattern (hypothesis), and its speed."""

import time

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from smemlab.banks import analyze, suggest, wavefronts_per_warp

SIZES = st.sampled_from([1, 2, 4, 8, 16])
OPS = st.sampled_from(["load", "store"])


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(32)), st.lists(st.integers(0, 40), min_size=32, max_size=32), OPS)
def test_any_permutation_of_the_banks_is_conflict_free(perm, rows, op):
    # each lane on its own bank, in any row: one wavefront
    addr = (np.array(perm) + 32 * np.array(rows)) * 4
    assert wavefronts_per_warp(addr, 4, op).tolist() == [1]
    # and within one row, for every width: exactly the ideal
    for size in (1, 2, 4, 8, 16):
        a = analyze("s[p]".replace("p", "tx"), (32,), {1: "char", 2: "short", 4: "int", 8: "double", 16: "int4"}[size],
                    (32,), op=op)
        assert a.wavefronts == a.ideal_wavefronts


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(32, 32), (32, 16), (16, 32), (8, 32), (32, 8), (32, 4, 2)]), OPS)
def test_padding_an_int_tile_by_one_never_hurts_a_column_read(block, op):
    bx, by = block[0], block[1]
    rows, cols = bx, 32
    for expr in ("t[tx][ty]", "t[tx][ty % 32]", "t[(ty*32+tx)%32][(ty*32+tx)/32 % 32]"):
        plain = analyze(expr, (rows, cols), "int", block, op=op)
        padded = analyze(expr, (rows, cols), "int", block, op=op, pad=1)
        assert padded.wavefronts <= plain.wavefronts


@settings(max_examples=100, deadline=None)
@given(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,10}", fullmatch=True), SIZES, OPS)
def test_results_do_not_depend_on_the_array_name(name, size, op):
    if name in ("tx", "ty", "tz", "bdx", "bdy", "bdz", "lane", "warp"):
        return
    dtype = {1: "char", 2: "short", 4: "int", 8: "double", 16: "float4"}[size]
    a = analyze("tile[tx][ty]", (32, 32), dtype, (32, 32), op=op)
    b = analyze(f"{name}[tx][ty]", (32, 32), dtype, (32, 32), op=op)
    assert (a.requests, a.wavefronts, a.ideal_wavefronts) == (b.requests, b.wavefronts, b.ideal_wavefronts)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1, 300), min_size=1, max_size=96), SIZES, OPS)
def test_wavefronts_bounded_by_ideal_and_per_thread_serialisation(words, size, op):
    addr = np.array([w * size if w >= 0 else -1 for w in words])
    w = wavefronts_per_warp(addr, size, op)
    a = np.full(len(w) * 32, -1)
    a[: addr.size] = addr
    for k, warp in enumerate(a.reshape(-1, 32)):
        active = int((warp >= 0).sum())
        if active == 0:
            assert w[k] == 0
        else:
            # at least one wavefront; never more than one per active thread and register
            assert 1 <= w[k] <= active * max(1, size // 4)


def test_a_full_block_is_analysed_fast():
    analyze("tile[tx][ty]", (32, 32), "int", (32, 32))  # warm-up (imports)
    t0 = time.perf_counter()
    for _ in range(10):
        analyze("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 65), "float4", (32, 32), active="tx % 3 != 1")
    assert (time.perf_counter() - t0) / 10 < 0.1


def test_suggest_reaches_the_ideal_for_the_seeds():
    s = suggest("tile[tx][ty]", (32, 32), "int", (32, 32))
    assert (s["pad"], s["pad_wavefronts"]) == (1, 32)
    assert s["swizzle"] == "tile[tx][ty ^ tx]" and s["swizzle_wavefronts"] == 32
    r = suggest("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 32), "int", (32, 16))
    assert (r["pad"], r["pad_wavefronts"]) == (2, 16)
    assert r["swizzle_wavefronts"] == 16
    # the swizzle is real: analysing its text gives the same count, on the unpadded shape
    assert analyze(r["swizzle"], (16, 32), "int", (32, 16)).wavefronts == 16


@settings(max_examples=40, deadline=None)
@given(SIZES, st.sampled_from([8, 16, 32, 64]), OPS)
def test_suggested_fixes_never_cost_more(size, cols, op):
    dtype = {1: "char", 2: "short", 4: "int", 8: "double", 16: "float4"}[size]
    base = analyze("t[tx][ty]", (32, cols), dtype, (32, min(cols, 32)), op=op)
    s = suggest("t[tx][ty]", (32, cols), dtype, (32, min(cols, 32)), op=op)
    assert s["pad_wavefronts"] <= base.wavefronts
    if s["swizzle"] is not None:
        assert s["swizzle_wavefronts"] == s["ideal_wavefronts"]
