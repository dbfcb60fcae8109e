"""The subscript parser: accepted forms, C semantics, and one-line errors for every mistake."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smemlab.banks import analyze
from smemlab.banks.expr import parse_access, parse_condition
from smemlab.errors import UserError


def addrs(expr, shape=(32, 33), dtype="int", block=(32, 32), **kw):
    return analyze(expr, shape, dtype, block, **kw).addresses


@pytest.mark.parametrize("a,b", [
    ("tile[threadIdx.x][threadIdx.y]", "tile[tx][ty]"),
    ("s[tx, ty]", "tile[tx][ty]"),
    ("s[ tx ,ty ]", "t[tx][ty]"),
    ("tile[blockDim.x - 1 - tx][ty]", "tile[bdx-1-tx][ty]"),
    ("tile[(ty*32+tx)%32][(ty*32+tx)/32]", "tile[tx][ty]"),
    ("tile[lane][warp]", "tile[tx][ty]"),
    ("tile[tx][ty ^ 0x0]", "tile[tx][ty << 0 >> 0 | 0 & 1]"),
])
def test_equivalent_spellings(a, b):
    assert np.array_equal(addrs(a), addrs(b))


def test_c_integer_semantics():
    a = analyze("s[(tx - 5) / 2 + 2]", (64,), "int", (32,))  # -5/2 == -2 in C, not -3
    assert a.indices[0, 0] == 0 and a.indices[1, 0] == 0 and a.indices[5, 0] == 2
    b = analyze("s[(tx - 5) % 3 + 2]", (64,), "int", (32,))  # -5 % 3 == -2 in C
    assert b.indices[0, 0] == 0
    assert analyze("s[~tx & 31]", (32,), "int", (32,)).indices[0, 0] == 31


def test_active_condition_and_short_circuit():
    a = analyze("s[tx+64]", (128,), "float", (128,), active="tx < 64")
    assert (a.requests, a.wavefronts) == (2, 2)
    assert a.per_warp[3].active_threads == 0
    # the right side of && runs only where the left holds: no division by zero for thread 0
    b = analyze("s[64 / tx]", (65,), "int", (32,), active="tx > 0 && 64 / tx > 2 || !(tx != 0) && 0")
    assert b.requests == 1
    c = analyze("s[tx]", (32,), "int", (32,), active="lane == 0 || tx >= 30")
    assert c.per_warp[0].active_threads == 3


@pytest.mark.parametrize("expr,match", [
    ("tile[tx][ty", r"expected '\]'"),
    ("tile[foo][ty]", "unknown name 'foo'"),
    ("tile[tx][ty] + 1", "after the subscript"),
    ("tile[tx < 3][ty]", "belongs in --active"),
    ("tile[tx][ty / (tx - tx)]", "division by zero .* thread 0"),
    ("tile[tx][ty % 0]", "remainder by zero"),
    ("tile[tx][ty << 40]", "shift count"),
    ("tile[tx][ty * 100000 * 100000]", "overflows"),
    ("tile[tx+1][ty]", r"index 0 \(tx\+1\) is 32 for thread 31"),
    ("tile[tx][ty-1]", "is -1"),
    ("tile[tx]", "1 subscript"),
    ("tx[ty]", "thread index, not an array"),
    ("tx + 1", "not an array"),
    ("tile[tx][ty]; import os", "unexpected ';'"),
    ("__import__('os')[0][0]", "unexpected"),
    ("tile[tx][010]", "octal"),
    ("tile[tx][99999999999]", "32-bit"),
    ("", "empty"),
    ("tile" + "[(" * 100 + "tx" + ")]" * 100, "nesting|expected"),
])
def test_errors_are_one_line_user_errors(expr, match):
    with pytest.raises(UserError, match=match) as e:
        addrs(expr)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("kw,match", [
    (dict(block=(32, 33)), "1056 threads"),
    (dict(block=(2000,)), "over the limit"),
    (dict(block=(0, 1)), "positive"),
    (dict(dtype="quad"), "unknown dtype"),
    (dict(shape=(32, -1)), "positive"),
    (dict(shape=(1024, 1024)), "bytes of shared memory"),
    (dict(op="load4"), "load or store"),
    (dict(active="tx <"), "ends too early"),
    (dict(active="tx = 1"), "unexpected"),
])
def test_bad_arguments(kw, match):
    args = dict(expr="tile[tx][ty]", shape=(32, 33), dtype="int", block=(32, 32))
    args.update(kw)
    with pytest.raises(UserError, match=match):
        analyze(**args)


@pytest.mark.parametrize("dtype,size", [("char", 1), ("unsigned char", 1), ("short", 2), ("half", 2), ("int", 4),
                                        ("unsigned", 4), ("float", 4), ("double", 8), ("long long", 8),
                                        ("int2", 8), ("float2", 8), ("int4", 16), ("float4", 16),
                                        ("double2", 16), ("int8", 1), ("uint16", 2), ("float16", 2),
                                        ("int32", 4), ("float32", 4), ("int64", 8), ("float64", 8)])
def test_dtypes(dtype, size):
    assert analyze("s[tx]", (32,), dtype, (32,)).element_bytes == size


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_random_text_never_crashes(text):
    for fn in (parse_access, parse_condition):
        try:
            fn(text)
        except UserError as e:
            assert "\n" not in str(e)


ALPHABET = list("txyz0123456789+-*/%^&|<>!=()[], ~") + ["tx", "ty", "lane", "warp", "s[", "]", "<<", ">>", "&&"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=20), st.sampled_from([None, "tx < 16", "lane % 3 == 0"]))
def test_random_token_soup_only_raises_user_errors(tokens, active):
    text = "s[" + "".join(tokens) + "]"
    try:
        analyze(text, (4096,), "int", (32, 2), active=active)
    except UserError as e:
        assert "\n" not in str(e)


@pytest.mark.parametrize("expr,first", [
    ("s[(tx - 1u) % 32]", [31, 0, 1]),  # unsigned: 0 - 1 wraps to 2^32 - 1
    ("s[(threadIdx.x - 1) % 32]", [31, 0, 1]),  # threadIdx.x is unsigned in CUDA
    ("s[-1u % 64]", [63, 63, 63]),
    ("s[(0u - tx) * 3u % 64]", [0, 61, 58]),  # the product wraps modulo 2^32
    ("s[~0u % 64 ^ tx]", [63, 62, 61]),
    ("s[tx * 0x10000000u >> 28]", [0, 1, 2]),
    ("s[0xFFFFFFFF % 64]", [63, 63, 63]),  # a hex literal above INT_MAX is unsigned in C
    ("s[(tx - 1) % 32 + 1]", [0, 1, 2]),  # int: -1 % 32 is -1 in C
])
def test_unsigned_arithmetic_is_c(expr, first):
    assert analyze(expr, (64,), "int", (32,)).indices[:3, 0].tolist() == first


def test_unsigned_comparisons_in_conditions():
    # thread 0: threadIdx.x - 1 is 4294967295, not -1, so it is not active
    a = analyze("s[tx]", (64,), "int", (64,), active="threadIdx.x - 1 < 16")
    assert a.per_warp[0].active_threads == 16
    b = analyze("s[tx]", (64,), "int", (64,), active="tx - 1 < 16")
    assert b.per_warp[0].active_threads == 17


@pytest.mark.parametrize("expr,column,match", [
    ("s[1.5]", 4, "floating-point"),
    ("s[32f]", 5, "unexpected 'f'"),
    ("s[1_024]", 4, "digit separators"),
    ("s[10l]", 5, "long"),
    ("s[10ul]", 6, "long"),
    ("s[1uu]", 5, "one u suffix"),
    ("s[٣]", 3, "unexpected"),
    ("s[tx\u00b2]", 5, "unexpected"),
    ("s[2147483648]", 3, "2147483648u"),
    ("s[0x100000000]", 3, "32-bit"),
])
def test_literals_point_at_the_offending_character(expr, column, match):
    with pytest.raises(UserError, match=match) as e:
        analyze(expr, (64,), "int", (32,))
    assert f"column {column} " in str(e.value) + " "


def test_a_long_chain_is_refused_in_one_line():
    text = "s[" + "+".join(["0"] * 992) + "]"
    with pytest.raises(UserError, match="more than 256 operations") as e:
        analyze(text, (64,), "int", (32,))
    assert len(str(e.value)) < 200  # the expression is shortened in the message
    assert analyze("s[" + "+".join(["1"] * 200) + "]", (256,), "int", (32,)).indices[0, 0] == 200


@pytest.mark.parametrize("kw,match", [
    (dict(block=32.0), "integer"), (dict(block=31.9), "integer"), (dict(shape="64", pad=1.9), "integer"),
    (dict(shape=(float("inf"),)), "integer"), (dict(pad=None), "integer"), (dict(op="LD"), "load or store"),
    (dict(op=None), "load or store"), (dict(shape=(True,)), "integer"), (dict(expr=None), "text"),
    (dict(active=1), "condition"), (dict(bank_width=4.0), "integer"), (dict(dtype=object()), "dtype"),
])
def test_api_follows_the_command_lines_rules(kw, match):
    args = dict(expr="s[tx]", shape=(64,), dtype="int", block=(32,))
    args.update(kw)
    with pytest.raises(UserError, match=match):
        analyze(**args)


def test_api_accepts_what_the_command_line_accepts():
    want = analyze("tile[tx][ty]", (32, 33), "int", (32, 32)).addresses
    for shape, block in [("32,33", "32,32"), ("32x33", (32, 32)), (np.array([32, 33]), [np.int64(32), 32])]:
        assert np.array_equal(analyze("tile[tx][ty]", shape, "int", block).addresses, want)
    assert analyze("s[tx]", "64", "int", 32).shape == (64,)  # one number, not the digits 6 and 4
    assert analyze("s[tx]", 64, np.float32, 32).declaration() == "__shared__ float s[64];"
    assert analyze("s[tx]", 64, "np.float32", 32).declaration() == "__shared__ float s[64];"
    assert analyze("s[tx]", 64, "unsigned  int", 32).declaration() == "__shared__ unsigned int s[64];"
    assert analyze("s[tx]", 64, "int", 32, op="ld").op == "load"


def test_addresses_past_shared_memory_are_refused():
    from smemlab.banks import wavefronts_per_warp

    with pytest.raises(UserError, match="past shared memory"):
        wavefronts_per_warp([2**43], 4)
    with pytest.raises(UserError, match="past shared memory"):
        wavefronts_per_warp([227 * 1024], 4)
    assert wavefronts_per_warp([227 * 1024 - 4], 4).tolist() == [1]
    with pytest.raises(UserError, match="integers"):
        wavefronts_per_warp([1.5], 4)


def test_an_analysis_shows_its_bank_map_in_jupyter():
    png = analyze("tile[tx][ty]", (32, 32), "int", (32, 32))._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
