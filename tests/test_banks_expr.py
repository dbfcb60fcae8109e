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
