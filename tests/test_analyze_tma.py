"""Hopper's TMA (analyze/tma.py): the tensor map's encoding and swizzle, a cp.async.bulk.tensor load and store
completing on an mbarrier, and Triton's host tensor descriptors end to end (issue 30)."""

from __future__ import annotations

import numpy as np
import pytest
from smemlab.analyze import analyze_ptx, tma
from smemlab.analyze.memops import MBarrier
from smemlab.errors import UserError


def test_a_tensor_map_reads_back_what_was_encoded():
    tm = tma.TensorMap(0x7F0000001000, 2, (40, 24, 3), (80, 1920), (32, 8, 1), 2, True)
    raw = tma.encode(tm)
    assert len(raw) == tma.SIZE and tma.decode(raw) == tm
    assert tma.decode(bytes(128)) is None  # a map analyze did not build


@pytest.mark.parametrize("bad", [dict(box=(64, 8)), dict(strides=(72,)), dict(elem_size=3), dict(box=(0, 8))])
def test_maps_the_driver_refuses_are_refused(bad):
    fields = dict(address=0x1000, elem_size=4, dims=(64, 32), strides=(256,), box=(32, 8), swizzle=3)
    fields.update(bad)
    with pytest.raises(ValueError):
        tma.TensorMap(**fields)


@pytest.mark.parametrize("mode,span", [(1, 32), (2, 64), (3, 128)])
def test_the_swizzle_xors_the_chunk_with_the_row_as_wgmmas_does(mode, span):
    off = np.arange(0, 8 * span * 2, 16, dtype=np.int64)
    out = tma.swizzle(off, mode)
    # CUTLASS's Swizzle<log2(span / 16), 4, 3>: the 16-byte chunk within its span XORs with the 128-byte line
    line, chunk = off // 128, (off % span) // 16
    np.testing.assert_array_equal(out, off - chunk * 16 + ((chunk ^ (line % (span // 16))) * 16))
    assert sorted(out) == list(off)  # a permutation of the 16-byte chunks
    np.testing.assert_array_equal(tma.swizzle(off, 0), off)


def test_a_box_over_the_edge_marks_the_outside():
    tm = tma.TensorMap(0x1000, 4, (6, 5), (32,), (4, 2))
    goff, inside, soff = tma.box_elements(tm, (4, 4))
    np.testing.assert_array_equal(soff, np.arange(8) * 4)
    np.testing.assert_array_equal(inside, [1, 1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(goff[:2], [4 * 32 + 16, 4 * 32 + 20])


def test_mbarrier_parity_flips_per_phase():
    b = MBarrier(2)
    assert b.arrive() == 0 and b.phase == 0
    assert b.arrive(1, tx=64) == 0 and b.phase == 0
    b.transact(-64)
    assert b.phase == 1 and b.pending == 2


# one box of 8 rows x 32 floats (128 bytes, 128-byte swizzle) by TMA into shared memory, waited on by
# try_wait.parity in a loop, each thread reading word tid of the tile back; then the tile stored by TMA at box
# coordinates (32, 8) of the output
PTX = """
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 src[128], .param .align 64 .b8 dst[128], .param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 1024 .b8 tile[1024];
    .shared .align 8 .b64 bar;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, tile;
    mov.u32 %r3, bar;
    mov.b64 %rd1, src;
    cvta.param.u64 %rd1, %rd1;
    mov.b64 %rd2, dst;
    cvta.param.u64 %rd2, %rd2;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;
    bar.sync 0;
    mov.u32 %r4, 0;
    @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 1024;
    @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1, {%r4, %r4}], [%r3];
$wait:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], %r4;
    @!%p2 bra $wait;
    shl.b32 %r5, %r1, 2;
    add.u32 %r6, %r2, %r5;
    ld.shared.u32 %r7, [%r6];
    ld.param.u64 %rd3, [out];
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd3, %rd4;
    st.global.u32 [%rd5], %r7;
    fence.proxy.async.shared::cta;
    bar.sync 0;
    mov.u32 %r8, 32;
    mov.u32 %r9, 8;
    @%p1 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd2, {%r8, %r9}], [%r2];
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group.read 0;
    @%p1 mbarrier.inval.shared::cta.b64 [%r3];
    ret;
}
"""
SOURCE = "__global__ void k(CUtensorMap src, CUtensorMap dst, unsigned *out);"
MAP = "@tensormap(dims=64x16,strides=256,box=32x8,elem=4,type=7,swizzle=3)"


def test_a_tma_load_waits_on_its_mbarrier_and_lands_swizzled():
    src = np.arange(16 * 64, dtype=np.uint32)
    r = analyze_ptx(PTX, "k", (256,), source=SOURCE,
                    args=[f"src=uint32[1024]:0..100000{MAP}", f"dst=uint32[1024]:0..0{MAP}", "out=uint32[256]"])
    got_src = r.buffers["src"]
    tile = got_src.reshape(16, 64)[:8, :32].ravel()  # the box in its dense order
    where = tma.swizzle(np.arange(256, dtype=np.int64) * 4, 3) // 4
    smem = np.empty(256, dtype=np.uint32)
    smem[where] = tile
    np.testing.assert_array_equal(r.buffers["out"], smem)
    dst = r.buffers["dst"].reshape(16, 64)
    np.testing.assert_array_equal(dst[8:16, 32:64], tile.reshape(8, 32))  # the store undoes the swizzle
    assert not dst[:8].any() and not dst[:, :32].any()
    assert r.totals("store")["requests"] == 0  # the copy engine's shared writes are no LSU requests
    del src


def test_a_map_the_kernel_did_not_get_is_refused():
    with pytest.raises(UserError, match="tensor map"):
        analyze_ptx(PTX, "k", (256,), source=SOURCE, args=["src=uint32[32]", f"dst=uint32[1024]{MAP}", "out=uint32[256]"])


def test_triton_tma_copy_through_a_host_descriptor():
    pytest.importorskip("triton")
    from smemlab.analyze import triton_front

    path = "tools/analyze_truth/kernels/triton_kernels.py"
    r = triton_front.analyze(path, (1, 1, 1), name="tma_edge", num_stages=1, constexprs={"BR": 16, "BC": 32},
                             args=["out_desc=float32[24,40]@16x32", "in_desc=float32[24,40]@16x32"])
    o, i = r.buffers["out_desc"], r.buffers["in_desc"]
    np.testing.assert_array_equal(o[8:24, 16:40], i[8:24, 16:40] * 2)
    with pytest.raises(UserError, match="block of 1 sizes"):
        triton_front.analyze(path, (1, 1, 1), name="tma_edge", constexprs={"BR": 16, "BC": 32},
                             args=["out_desc=float32[24,40]@16", "in_desc=float32[24,40]@16x32"])


def test_tma_reductions_combine_as_ptx_red_does():
    f = np.array([1.5, -2.0, 3.0], dtype=np.float32).view(np.uint32)
    g = np.array([0.25, 4.0, -1.0], dtype=np.float32).view(np.uint32)
    assert tma.reduced(f, g, "add", "f32").view(np.float32).tolist() == [1.75, 2.0, 2.0]
    assert tma.reduced(f, g, "max", "f32").view(np.float32).tolist() == [1.5, 4.0, 3.0]
    from smemlab.analyze import halves

    one, third = halves.encode(np.array([1.0]), "bf16"), halves.encode(np.array([1 / 3]), "bf16")
    got = halves.decode(tma.reduced(one, third, "add", "bf16"), "bf16")
    assert got.tolist() == halves.decode(halves.encode(np.array([1 + float(halves.decode(third, "bf16")[0])]),
                                                       "bf16"), "bf16").tolist()  # rounded to bf16 once
    s = np.array([-5, 7], dtype=np.int32).view(np.uint32)
    t = np.array([3, -9], dtype=np.int32).view(np.uint32)
    assert tma.reduced(s, t, "min", "s32").view(np.int32).tolist() == [-5, -9]
    u = np.array([0, 4, 5], dtype=np.uint32)
    assert tma.reduced(u, np.full(3, 4, np.uint32), "inc", "u32").tolist() == [1, 0, 0]
    assert tma.reduced(u, np.full(3, 4, np.uint32), "dec", "u32").tolist() == [4, 3, 4]
    with pytest.raises(ValueError):
        tma.reduced(f, g, "xor", "f32")
    with pytest.raises(ValueError, match="no element type"):
        tma.reduced(u, u, "add", "")


def test_triton_tma_reduction_adds_the_tile_into_the_tensor():
    pytest.importorskip("triton")
    from smemlab.analyze import triton_front

    path = "tools/analyze_truth/kernels/triton_kernels.py"
    r = triton_front.analyze(path, (1, 1, 1), name="tma_accumulate_tiles", constexprs={"C": 64, "BR": 16},
                             args=["dst_desc=float32[32,64]:1..1@16x64", "src_ptr=float32[32,64]:-4..4"])
    np.testing.assert_array_equal(r.buffers["dst_desc"], r.buffers["src_ptr"] + 1)
