"""Hopper's wgmma in `smemlab analyze` (no GPU): the matrix descriptor's fields, the canonical shared-memory
layouts it describes (read back from tile images a small NumPy reference writes), the register fragments, and
the refusals. The products themselves are checked against NumPy on Triton's tiles (test_analyze_python.py)
and the operand reads' costs against Nsight Compute (test_analyze_truth.py, the triton.* wgmma cases)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze import analyze_ptx, mma, wgmma
from smemlab.analyze.ptx import PTXError
from smemlab.errors import UserError

RNG = np.random.default_rng(30)
BASE = 2048  # a tile's start: a multiple of every swizzle pattern's 1024 bytes
MODE = {1: 0, 8: 1, 4: 2, 2: 3}  # chunks a swizzle row -> the descriptor's mode


def _encode(start: int, lbo: int, sbo: int, chunks: int, base_offset: int = 0) -> int:
    """A descriptor as the PTX ISA lays out its bits (addresses and offsets in bytes)."""
    return ((start >> 4) & 0x3FFF) | ((lbo >> 4) & 0x3FFF) << 16 | ((sbo >> 4) & 0x3FFF) << 32 \
        | (base_offset & 7) << 49 | MODE[chunks] << 62


def _swizzle(addr: np.ndarray, chunks: int) -> np.ndarray:
    return addr ^ (((addr >> 7) & (chunks - 1)) << 4)


def test_decode_reads_each_field():
    d = wgmma.decode(_encode(0x1230, 8192, 1024, 8, base_offset=5))
    assert (d.start, d.lbo, d.sbo, d.base_offset, d.chunks, d.swizzle) == (0x1230, 8192, 1024, 5, 8, "128-byte")
    # Triton's constant for its 128-byte swizzled tiles (SBO 1024) or'ed with a start address
    d = wgmma.decode(0x4000004000000000 | (0xC000 >> 4))
    assert (d.start, d.lbo, d.sbo, d.chunks) == (0xC000, 0, 1024, 8)
    assert [wgmma.decode(m << 62).chunks for m in range(4)] == [1, 8, 4, 2]


def _image(x: np.ndarray, chunks: int, mn_major: bool) -> tuple[np.ndarray, list[int]]:
    """x (rows, K) written into a shared image in a canonical layout; the descriptors of its k16 steps.
    No swizzle: core matrices of 128 contiguous bytes (8 rows x 16 bytes of K, or MN-major 8 K-rows x 16 bytes of
    the row index), the K-direction ones next to each other (LBO 128), the row groups after them (SBO).
    K-major swizzled: each row one swizzle row (16 * chunks bytes) wide. MN-major swizzled: K rows of 8 * chunks
    elements (an atom), the atoms LBO apart."""
    rows, k = x.shape
    img = np.zeros(BASE + rows * k * 2 + 4096, dtype=np.uint16)
    r, kk = np.meshgrid(np.arange(rows), np.arange(k), indexing="ij")
    if chunks == 1:
        sbo = 128 * (k // 8)
        inner = (kk % 8) * 16 + (r % 8) * 2 if mn_major else (r % 8) * 16 + (kk % 8) * 2
        addr = BASE + (r // 8) * sbo + (kk // 8) * 128 + inner
        descs = [_encode(BASE + 2 * 128 * j, 128, sbo, 1) for j in range(k // 16)]
    elif mn_major:
        atom = 8 * chunks
        lbo = k * 16 * chunks
        addr = _swizzle(BASE + (r // atom) * lbo + kk * 16 * chunks + (r % atom) * 2, chunks)
        descs = [_encode(BASE + 16 * 16 * chunks * j, lbo, 128 * chunks, chunks) for j in range(k // 16)]
    else:
        assert k * 2 == 16 * chunks
        addr = _swizzle(BASE + r * 16 * chunks + kk * 2, chunks)
        descs = [_encode(BASE + 32 * j, 0, 128 * chunks, chunks) for j in range(k // 16)]
    img[addr // 2] = x.view(np.uint16)
    return img, descs


@pytest.mark.parametrize("chunks", [1, 2, 4, 8], ids=["none", "32B", "64B", "128B"])
@pytest.mark.parametrize("mn_major", [False, True], ids=["K-major", "MN-major"])
@pytest.mark.parametrize("rows", [64, 128])
def test_descriptors_read_back_the_canonical_tiles(chunks, mn_major, rows):
    k = 64 if mn_major or chunks == 1 else 8 * chunks
    x = RNG.uniform(-4, 4, (rows, k)).astype(np.float16)
    img, descs = _image(x, chunks, mn_major)
    assert descs
    for j, desc in enumerate(descs):
        off = wgmma.operand_offsets(wgmma.decode(desc), rows, 2, mn_major)
        assert off.shape == (rows, 16)
        np.testing.assert_array_equal(img[off // 2].view(np.float16), x[:, 16 * j:16 * j + 16])


def test_a_start_inside_a_swizzle_pattern_is_refused():
    with pytest.raises(PTXError, match="not at the start of its 1024-byte swizzle pattern"):
        wgmma.operand_offsets(wgmma.decode(_encode(BASE + 128, 0, 1024, 8)), 64, 2, False)
    with pytest.raises(PTXError, match="base offset 3"):
        wgmma.operand_offsets(wgmma.decode(_encode(BASE, 0, 1024, 8, base_offset=3)), 64, 2, False)
    # 32 bytes into a 128-byte row (the next k16 step of a K-major tile) is where the ISA's tiles start
    wgmma.operand_offsets(wgmma.decode(_encode(BASE + 96, 0, 1024, 8)), 64, 2, False)


@pytest.mark.parametrize("n", [8, 24, 128, 256])
def test_the_accumulator_fragment_is_four_warps_of_mma_tiles(n):
    rows, cols = wgmma.d_places(n)
    assert rows.shape == (128, n // 2)
    assert len({(int(r), int(c)) for r, c in zip(rows.ravel(), cols.ravel())}) == 64 * n  # every element once
    # warp q holds rows 16q..16q+15; each 8 columns of its part are mma.sync's m16n8 C fragment
    c_rows, c_cols = mma._places(mma._c, 4)
    for q in range(4):
        mine = slice(32 * q, 32 * q + 32)
        for j in range(n // 8):
            np.testing.assert_array_equal(rows[mine, 4 * j:4 * j + 4], c_rows + 16 * q)
            np.testing.assert_array_equal(cols[mine, 4 * j:4 * j + 4], c_cols + 8 * j)


@pytest.mark.parametrize("esize, layout", [(2, ("m16n8k16", "16")), (4, ("m16n8k8", "tf32")), (1, ("m16n8k32", "8"))],
                         ids=["16-bit", "tf32", "8-bit"])
def test_the_register_a_fragment_is_four_warps_of_mma_a_fragments(esize, layout):
    rows, cols = wgmma.a_places(esize)
    k = 32 // esize
    assert len({(int(r), int(c)) for r, c in zip(rows.ravel(), cols.ravel())}) == 64 * k
    a_rows, a_cols = mma._places(mma.LAYOUTS[layout][3], 16 // esize)
    for q in range(4):
        np.testing.assert_array_equal(rows[32 * q:32 * q + 32], a_rows + 16 * q)
        np.testing.assert_array_equal(cols[32 * q:32 * q + 32], a_cols)


def test_the_input_families_are_the_ptx_isas():
    assert [wgmma.family(*t.split(".")) for t in ("f32.f16.f16", "f16.f16.f16", "f32.bf16.bf16", "f32.tf32.tf32",
                                                  "f16.e4m3.e5m2", "s32.u8.s8")] == \
        ["16-bit", "16-bit", "16-bit", "tf32", "fp8", "int8"]
    assert {wgmma.family(*t.split(".")) for t in ("f16.bf16.bf16", "f16.tf32.tf32", "f32.f16.bf16", "s32.e4m3.e4m3",
                                                   "f32.s8.s8", "s32.b1.b1")} == {None}


# one m64n8k16 of a tile of zeros, no swizzle (A: 8 row groups 256 bytes apart, B after it); %r3 != 0 makes
# lane 5's B descriptor differ
PTX = """
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 odd)
{
    .reg .pred %p<2>;
    .reg .f32 %f<5>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<8>;
    .shared .align 1024 .b8 tile[4096];
    mov.u32 %r1, tile;
    shr.u32 %r2, %r1, 4;
    cvt.u64.u32 %rd1, %r2;
    or.b64 %rd1, %rd1, 68720001024;
    add.s64 %rd2, %rd1, 128;
    ld.param.u32 %r3, [odd];
    mov.u32 %r4, %tid.x;
    setp.eq.u32 %p1, %r4, 5;
    selp.b32 %r5, %r3, 0, %p1;
    cvt.u64.u32 %rd3, %r5;
    add.s64 %rd2, %rd2, %rd3;
    wgmma.fence.sync.aligned;
    wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 0, 1, 1, 0, 0;
    wgmma.commit_group.sync.aligned;
    wgmma.wait_group.sync.aligned 0;
    ld.param.u64 %rd4, [out];
    mul.wide.u32 %rd5, %r4, 4;
    add.s64 %rd6, %rd4, %rd5;
    st.global.f32 [%rd6], %f1;
    ret;
}
"""

SOURCE = "__global__ void k(float *out, unsigned odd);"


def test_one_warpgroup_runs_and_counts_its_operands():
    r = analyze_ptx(PTX, "k", (128,), args=["out=float32[128]:5..5", "odd=0"], source=SOURCE)
    assert not r.buffers["out"].any()  # zeros times zeros, the accumulator not added (scale-d 0)
    t = r.totals("wgmma")
    assert t["requests"] == 4 and t["wavefronts"] == (64 * 32 + 8 * 32) // 128 and r.totals("load")["requests"] == 0


def test_a_partial_warpgroup_and_a_split_descriptor_are_refused():
    with pytest.raises(UserError, match="only some of them"):
        analyze_ptx(PTX, "k", (64,), args=["out=float32[64]", "odd=0"], source=SOURCE)
    with pytest.raises(UserError, match="B descriptor differs across the warpgroup"):
        analyze_ptx(PTX, "k", (128,), args=["out=float32[128]", "odd=1"], source=SOURCE)


def test_triton_attention_with_a_in_registers_computes_softmax_qk_v():
    """The attention's P V takes A (P, converted to f16 in registers) from the register fragment."""
    pytest.importorskip("triton")
    import importlib.util

    import smemlab.analyze as sa

    spec = importlib.util.spec_from_file_location(
        "truth_triton_kernels", Path(__file__).resolve().parents[1] / "tools/analyze_truth/kernels/triton_kernels.py")
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    q, k, v = (RNG.uniform(-1, 1, (64, 16)).astype(np.float16) for _ in range(3))
    r = sa.triton(kernels.attention_fwd, 1, np.zeros((64, 16), np.float32), q, k, v, 64, 0.25, BM=64, BN=16, D=16,
                  num_warps=4)
    assert re.search(r"wgmma\.mma_async\S+ \{[^}]+\}, \{%r", r.ptx)  # a form with A in registers
    s = q.astype(np.float64) @ k.astype(np.float64).T * 0.25
    p = np.exp(s - s.max(axis=1, keepdims=True))
    want = (p / p.sum(axis=1, keepdims=True)) @ v.astype(np.float64)
    np.testing.assert_allclose(r.buffers["o_ptr"].reshape(64, 16), want, atol=2e-3)  # P is rounded to f16


def _triton_kernels():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "truth_triton_kernels", Path(__file__).resolve().parents[1] / "tools/analyze_truth/kernels/triton_kernels.py")
    kernels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kernels)
    return kernels


@pytest.mark.slow
@pytest.mark.parametrize("c, ab, family", [("float32", "float32", "tf32"), ("float32", "bfloat16", "bf16"),
                                           ("float32", "float8_e4m3fn", "e4m3"), ("float16", "float8_e5m2", "e5m2"),
                                           ("int32", "int8", "s8")])
def test_triton_matmuls_of_every_input_family_compute_a_times_b(c, ab, family):
    """tl.dot of float32 tiles runs as tf32 wgmma (the inputs' low 13 mantissa bits dropped), of float8 as
    e4m3/e5m2, of int8 as s8 into int32; bfloat16 and float8 pointers are given by name (NumPy has no such
    types: their bits, filled with values of the format)."""
    pytest.importorskip("triton")
    import smemlab.analyze as sa
    from smemlab.analyze import args as A

    r = sa.triton(_triton_kernels().matmul_typed, 1, f"{c}[64,64]", f"{ab}[64,128]", f"{ab}[128,64]", 128,
                  BM=64, BN=64, BK=64 if family in ("e4m3", "e5m2", "s8") else 32, num_warps=4)
    assert re.search(rf"wgmma\.mma_async\.sync\.aligned\.m64n64k\d+\.\w+\.{family}\.{family}", r.ptx)
    fmt = A.BITS_TYPES.get(ab)
    a, b = (A.from_bits(r.buffers[n], fmt) if fmt else r.buffers[n] for n in ("a_ptr", "b_ptr"))
    a, b = (x.astype(np.float64).reshape(s) for x, s in ((a, (64, 128)), (b, (128, 64))))
    if family == "tf32":
        a, b = ((x.astype(np.float32).view(np.uint32) & 0xFFFFE000).view(np.float32).astype(np.float64) for x in (a, b))
    want = a @ b
    assert np.abs(want).max() > 1  # not a product of zeros
    got = r.buffers["c_ptr"].reshape(64, 64).astype(np.float64)
    if c == "int32":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, atol=2e-2 if c == "float16" else 1e-4)
    assert r.totals("wgmma")["wavefronts"] == r.totals("wgmma")["requests"] * (64 * 32 + 64 * 32) // 128 // 4
