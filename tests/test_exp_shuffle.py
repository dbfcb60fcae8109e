"""shuffle: NumPy models of each instruction (CPU) against the CUDA documentation's rules, and every
demo and reduction on the GPU."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.shuffle import (DEMOS, model_swap, model_xor_array, model_xor_array_swap,
                                         reduction_reference, shfl, shfl_down, shfl_up, shfl_xor)

LANES = np.arange(32)
widths = st.sampled_from([2, 4, 8, 16, 32])


def test_broadcast_as_in_the_seed_figure():
    assert shfl(LANES, 2).tolist() == [2] * 32
    assert shfl(LANES, 2, 16).tolist() == [2] * 16 + [18] * 16


@given(st.integers(0, 63), widths)
def test_shfl_takes_src_lane_modulo_width_in_the_segment(src, width):
    out = shfl(LANES, src, width)
    assert out.tolist() == [(i // width) * width + src % width for i in range(32)]


@given(st.integers(0, 31), widths)
def test_up_and_down_keep_their_own_value_at_the_segment_edge(delta, width):
    up, down = shfl_up(LANES, delta, width), shfl_down(LANES, delta, width)
    for i in range(32):
        assert up[i] == (i - delta if i % width >= delta else i)
        assert down[i] == (i + delta if i % width + delta < width else i)


@given(st.integers(0, 31), widths)
def test_xor_reads_earlier_segments_but_not_later_ones(mask, width):
    out = shfl_xor(LANES, mask, width)
    for i in range(32):
        j = i ^ mask
        assert out[i] == (j if j // width <= i // width else i)


def test_butterfly_reduction_gives_every_lane_the_sum():
    v = np.arange(1, 33)
    for m in (16, 8, 4, 2, 1):
        v = v + shfl_xor(v, m)
    assert set(v.tolist()) == {528}


def test_a_missing_source_lane_is_undefined():
    with pytest.raises(ValueError):
        shfl(np.arange(4), 7, 16)


def test_array_demos():
    v = np.arange(16).reshape(4, 4)
    assert model_xor_array(v, 1).tolist() == [[4, 5, 6, 7], [0, 1, 2, 3], [12, 13, 14, 15], [8, 9, 10, 11]]
    # swap: value[0] of lane 0 and value[3] of lane 1 trade places; lanes 2 and 3 (not below the
    # mask) just exchange value[3]
    s = model_swap(v, 1, 0, 3)
    want = v.copy()
    want[0, 0], want[1, 3] = v[1, 3], v[0, 0]
    want[2, 3], want[3, 3] = v[3, 3], v[2, 3]
    assert s.tolist() == want.tolist()
    a = model_xor_array_swap(v, 1, 0, 3)
    assert sorted(a.reshape(-1).tolist()) == list(range(16))  # a permutation


def test_reduction_reference_handles_the_tail():
    assert reduction_reference(np.arange(5), 2).tolist() == [1, 5, 4]


@pytest.mark.parametrize("bad", [(0,), (1, 2), (1 << 31,)])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        get("shuffle").parse_size(bad)


@pytest.mark.parametrize("defines", [{"BDIMX": 16, "SEGM": 4, "DIM": 128}, {"BDIMX": 32, "SEGM": 4, "DIM": 128},
                                     {"DIM": 256}, {"DIM": 64}])
def test_compiles(defines):
    kernels = static_shared_bytes(compile_cubin("lab/shuffle/shuffle.cu", "sm_90", defines))
    assert {d[0] for d in DEMOS.values()} <= set(kernels)
    dim = defines.get("DIM", 128)
    assert kernels["warpReduceShfl"] == 0 and kernels["test_shfl_xor"] == 0
    assert kernels["reduceSmem"] - dim * 4 in (0, 1024)


@pytest.mark.gpu
@pytest.mark.parametrize("size", get("shuffle").small_sizes)
def test_every_variant_verifies(rt, run_case, size):
    exp = get("shuffle")
    for case in exp.cases(rt, size, exp.variants()):
        verdict = run_case(case)
        assert verdict.ok, f"{case.variant.name} {size}: {verdict.detail}"
        if case.variant.name in DEMOS:
            assert case.extra["lanes_out"] == case.extra["lanes_model"]
