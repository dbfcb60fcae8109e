"""Tensor maps made in the kernel (smemlab.analyze.tensormaps): tensormap.replace's fields, the copy to global
memory by tensormap.cp_fenceproxy, a TMA copy through the map made, and ptxas's shared accesses of the replaces
counted from the SASS. Against the hardware: the triton.tma_*_device cases of the truth fixture."""

from __future__ import annotations

import numpy as np
import pytest

from smemlab.analyze import analyze_ptx, tensormaps, tma
from smemlab.analyze.sass import SassAccess


def _fields(**kw):
    raw = bytes(tma.SIZE)
    for name, value in kw.items():
        field, _, ord_ = name.partition("_o")
        raw = tensormaps.replaced(raw, field, int(ord_ or 0), value)
    return tma.decode(raw)


def test_the_fields_read_back_as_a_host_map_of_them():
    tm = _fields(global_address=0x7000_0000_1000, rank=1, box_dim_o0=32, box_dim_o1=16, global_dim_o0=128,
                 global_dim_o1=32, global_stride_o0=512, element_stride_o0=1, element_stride_o1=1, elemtype=10,
                 swizzle_mode=2, fill_mode=1)
    assert tm == tma.TensorMap(0x7000_0000_1000, 2, (128, 32), (512,), (32, 16), 2, True, "bf16")


@pytest.mark.parametrize("code, size", [(0, 1), (1, 2), (3, 4), (5, 8), (6, 2), (7, 4), (9, 8), (10, 2), (11, 4)])
def test_element_types_are_ptxs_codes_not_the_drivers(code, size):
    raw = tensormaps.replaced(bytes(tma.SIZE), "elemtype", 0, code)
    assert tma._HEAD.unpack_from(raw)[3] == size


@pytest.mark.parametrize("field, ord_, value", [("element_stride", 0, 2), ("interleave_layout", 0, 1),
                                                ("elemtype", 0, 13), ("swizzle_mode", 0, 4), ("rank", 0, 5),
                                                ("box_dim", 5, 8), ("global_stride", 4, 64)])
def test_what_is_not_emulated_is_refused(field, ord_, value):
    with pytest.raises(ValueError):
        tensormaps.replaced(bytes(tma.SIZE), field, ord_, value)


# The map of test_analyze_tma's kernel (8 rows x 32 floats of a 16 x 64 tensor, 128-byte swizzle), made in shared
# memory by thread 0, copied to global scratch by warp 0, and read by the TMA load
PTX = """
.version 8.3
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 src, .param .u64 scratch, .param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 1024 .b8 tile[1024];
    .shared .align 128 .b8 map[128];
    .shared .align 8 .b64 bar;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, tile;
    mov.u32 %r3, bar;
    mov.u32 %r10, map;
    setp.lt.u32 %p3, %r1, 32;
    shl.b32 %r5, %r1, 2;
    add.u32 %r6, %r10, %r5;
    mov.u32 %r0, 0;
    @%p3 st.shared.u32 [%r6], %r0;
    bar.sync 0;
    setp.eq.u32 %p1, %r1, 0;
    ld.param.u64 %rd1, [src];
    cvt.u64.u32 %rd2, %r10;
    @%p1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%rd2], %rd1;
    @%p1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd2], 0x1;
    @%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd2], 0x0, 32;
    @%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd2], 0x1, 8;
    @%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd2], 0x0, 64;
    @%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd2], 0x1, 16;
    @%p1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%rd2], 0x0, 256;
    @%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd2], 0x0, 1;
    @%p1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%rd2], 0x2;
    @%p1 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%rd2], 0x3;
    bar.sync 0;
    ld.param.u64 %rd3, [scratch];
    @%p3 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd3], [%rd2], 128;
    @%p3 fence.proxy.tensormap::generic.acquire.gpu [%rd3], 128;
    @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;
    bar.sync 0;
    mov.u32 %r4, 0;
    @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], 1024;
    @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd3, {%r4, %r4}], [%r3];
$wait:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], %r4;
    @!%p2 bra $wait;
    add.u32 %r7, %r2, %r5;
    ld.shared.u32 %r8, [%r7];
    ld.param.u64 %rd4, [out];
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    st.global.u32 [%rd6], %r8;
    ret;
}
"""
SOURCE = "__global__ void k(unsigned *src, unsigned char *scratch, unsigned *out);"


def test_a_map_made_in_the_kernel_and_copied_to_global_memory_serves_a_tma_load():
    r = analyze_ptx(PTX, "k", (256,), source=SOURCE, args=["src=uint32[1024]:0..100000", "scratch=uint8[128]",
                                                           "out=uint32[256]"])
    tile = r.buffers["src"].reshape(16, 64)[:8, :32].ravel()
    smem = np.empty(256, dtype=np.uint32)
    smem[tma.swizzle(np.arange(256, dtype=np.int64) * 4, 3) // 4] = tile
    np.testing.assert_array_equal(r.buffers["out"], smem)
    assert tma.decode(r.buffers["scratch"].tobytes()).box == (32, 8)
    # the copy: warp 0's LDS of a word a lane (1 wavefront) and ATOMG.E.EXCH of them (4 sectors), as measured
    copy = [s for s in r.sites if "cp_fenceproxy" in s.text]
    assert [(s.kind, s.requests, s.wavefronts) for s in copy] == [("load", 1, 1)]
    swap = [s for s in r.memory_sites if "cp_fenceproxy" in s.text]
    assert [(s.kind, s.requests, s.wavefronts, s.ideal) for s in swap] == [("global atomic", 1, 4, 4)]


def test_the_replaces_costs_are_the_lines_sass_accesses_beyond_its_ptxs():
    from smemlab.analyze.ptx import Instr, Loc, parse_module

    instrs = [i for i in parse_module(PTX).kernels["k"].body if isinstance(i, Instr)]
    for ins in instrs:  # every instruction on line 7 of x.py
        ins.loc = Loc(1, 7)
    first = next(pc for pc, i in enumerate(instrs) if tuple(i.parts[:2]) == ("tensormap", "replace"))
    sites = {pc: ("store" if i.parts[0] == "st" else "load", 4) for pc, i in enumerate(instrs)
             if i.parts[0] in ("ld", "st") and "shared" in i.parts}

    def acc(op, base, width=4):
        return SassAccess("x.py", 7, op, width, base, 0, "")

    listing = ([acc("store", "R14"), acc("load", "R3+UR4"), acc("load", "R2")] + [acc("load", "UR4")] * 6
               + [acc("store", "UR4")] * 7 + [acc("store", "UR4", 8)] * 2)
    costs = tensormaps.sass_costs(instrs, [0] * len(instrs), sites, listing, {1: "x.py"})
    assert list(costs) == [first]
    assert sorted(costs[first]) == sorted([("load", 4)] * 6 + [("store", 4)] * 7 + [("store", 8)] * 2)
