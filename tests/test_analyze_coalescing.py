"""The sector rules of smemlab.banks.coalescing on hand-made warps: every expected count below was
worked out by hand from the rule (distinct 32-byte sectors the active lanes' bytes fall in; ideal =
ceil(distinct bytes / 32)), not computed by the code under test. No GPU."""

from __future__ import annotations

import numpy as np
import pytest

from smemlab.banks.coalescing import diagnose, lane_sectors, sector_costs

LANE = np.arange(32, dtype=np.int64)
BASE = 1 << 20  # a buffer's start, 256-byte aligned as cudaMalloc's are


def costs(addresses, size, local=False):
    sectors, ideal = sector_costs(np.asarray(addresses, dtype=np.int64)[None, :], size, local)
    return int(sectors[0]), int(ideal[0])


# stride s floats between lanes: lane l at 4*s*l bytes, in sector s*l // 8; for s <= 8 every sector from 0 to
# 31*s // 8 is hit (4s of them), from s = 8 on each lane has its own; 128 distinct bytes: ideal 4
STRIDE_SECTORS = {1: 4, 2: 8, 3: 12, 4: 16, 5: 20, 6: 24, 7: 28, **{s: 32 for s in range(8, 34)}}


@pytest.mark.parametrize("stride", range(1, 34))
def test_float_stride_between_lanes(stride):
    assert costs(BASE + 4 * stride * LANE, 4) == (STRIDE_SECTORS[stride], 4)


@pytest.mark.parametrize("offset, sectors", [(0, 4), (4, 5), (28, 5), (32, 4), (64, 4), (96, 4), (100, 5)])
def test_misaligned_base(offset, sectors):
    # 128 consecutive bytes starting `offset` bytes into a sector: 4 sectors, or 5 where they straddle
    assert costs(BASE + offset + 4 * LANE, 4) == (sectors, 4)


@pytest.mark.parametrize("size, sectors", [(1, 1), (2, 2), (4, 4), (8, 8), (16, 16)])
def test_access_widths_consecutive(size, sectors):
    # 32 lanes x size bytes, back to back from an aligned base: 32*size bytes, size sectors
    assert costs(BASE + size * LANE, size) == (sectors, sectors)


def test_doubles_every_other_element():
    # lane l at 16*l: two lanes a sector, 16 sectors, for 256 bytes (ideal 8)
    assert costs(BASE + 16 * LANE, 8) == (16, 8)


def test_bytes_four_apart():
    # char at 4*l: 128 bytes spanned, 4 sectors, 32 distinct bytes: ideal 1
    assert costs(BASE + 4 * LANE, 1) == (4, 1)


def test_partial_warps():
    a = np.where(LANE < 8, BASE + 4 * LANE, -1)
    assert costs(a, 4) == (1, 1)  # 8 lanes, 32 bytes, one sector
    a = np.where(LANE == 5, BASE + 4 * 1000, -1)
    assert costs(a, 4) == (1, 1)
    a = np.where(LANE % 2 == 0, BASE + 4 * LANE, -1)  # even lanes of a consecutive run: 4 sectors, 64 bytes
    assert costs(a, 4) == (4, 2)


def test_broadcast_and_gathers():
    assert costs(np.full(32, BASE + 40), 4) == (1, 1)
    assert costs(BASE + 4 * ((LANE * 7) % 32), 4) == (4, 4)  # a permutation of one 128-byte line
    two = np.where(LANE % 2 == 0, BASE, BASE + 400)  # two words, 2 sectors, 8 distinct bytes
    assert costs(two, 4) == (2, 2)  # ideal: min(sectors, packed lanes' bytes), as the H200 counts it
    scattered = BASE + 4 * np.array([0, 1, 9, 8, 17, 1000, 1001, 5000] * 4)  # sectors 0, 1, 2, 125, 625
    assert costs(scattered, 4) == (5, 4)  # 32 lanes x 4 bytes packed: 4 sectors, fewer than the 5 touched


def test_transpose_column_store():
    # out[x * n + y] with n = 4096 floats: every lane on its own row, 32 sectors for 128 bytes
    assert costs(BASE + 4 * 4096 * LANE, 4) == (32, 4)


def test_rows_of_several_warps_at_once():
    rows = np.stack([BASE + 4 * LANE, BASE + 128 * LANE, np.full(32, -1)])
    sectors, ideal = sector_costs(rows, 4)
    assert sectors.tolist() == [4, 32, 0] and ideal.tolist() == [4, 4, 0]


def test_local_memory_is_interleaved_by_words():
    same = np.zeros(32, dtype=np.int64)  # every lane's word 0: 32 words side by side
    assert costs(same, 4, local=True) == (4, 4)
    assert costs(same + 8, 8, local=True) == (8, 8)  # words 2 and 3: two rows of 128 bytes
    assert costs(same, 16, local=True) == (16, 16)
    # lane l reading its own word l (a local array indexed by the lane): word l sits 128*l + 4*l bytes in
    assert costs(4 * LANE, 4, local=True) == (32, 4)


def test_lane_sectors_picture():
    pic = lane_sectors(np.where(LANE < 4, BASE + 4 + 8 * LANE, -1), 4)
    # bytes 4, 12, 20 in the first sector, 28..31 too; nothing else
    assert pic == [(BASE, [0, 1, 2, 3])]
    pic = lane_sectors(BASE + 4 * 4096 * LANE, 4)
    assert len(pic) == 32 and all(lanes == [i] for i, (_, lanes) in enumerate(pic))


@pytest.mark.parametrize("addresses, size, want", [
    (BASE + 4 * 4096 * LANE, 4, {"cause": "stride", "stride": 4096}),
    (BASE + 8 * LANE, 4, {"cause": "stride", "stride": 2}),
    (BASE + 4 + 4 * LANE, 4, {"cause": "misaligned", "offset": 4}),
    (BASE + LANE, 1, {"cause": "narrow"}),
    (BASE + 4 * LANE, 4, {"cause": "coalesced"}),
    (BASE + 4 * ((LANE * 7) % 32), 4, {"cause": "gather"}),
    # a 16 x 16 block's warp: two rows of 16 floats, 1,000 floats apart, each from x - 1 (a halo)
    (BASE - 4 + 4 * (LANE % 16) + 4000 * (LANE // 16), 4, {"cause": "rows", "rows": 2, "lanes": 16}),
    (BASE + 4 * (LANE % 8) + 4096 * (LANE // 8), 4, {"cause": "rows", "rows": 4, "lanes": 8}),
    (np.full(32, BASE), 4, {"cause": "broadcast"}),
    (np.where(LANE % 2 == 0, BASE + 8 * LANE, -1), 4, {"cause": "stride", "stride": 2}),
])
def test_diagnose(addresses, size, want):
    assert diagnose(np.asarray(addresses, dtype=np.int64), size) == want


SASS = """\
//--------------------- .text.k                --------------------------
        .text.k:
        //## File "k.cu", line 7
        /*0080*/                   LDG.E.128.CONSTANT R4, desc[UR4][R2.64+0x10] ;
        /*0090*/              @!P0 STG.E.U8 desc[UR4][R6.64], R9 ;
        /*00a0*/                   LDS.128 R8, [R3] ;
        /*00b0*/                   LDL.64 R10, [R1+0x8] ;
        /*00c0*/                   ST.E.64 [R12.64], R14 ;
        /*00d0*/                   LDGSTS.E.BYPASS.128 [R5], desc[UR4][R2.64] ;
"""


def test_global_and_local_sass_widths():
    from smemlab.analyze.sass import parse_memory_sass

    got = [(a.op, a.width, a.base, a.offset) for a in parse_memory_sass(SASS, "k")]
    assert got == [("global load", 16, "R2.64", 16), ("global store", 1, "R6.64", 0), ("local load", 8, "R1", 8),
                   ("global store", 8, "R12.64", 0)]


def test_a_16_byte_copy_shares_a_sector_only_between_lanes_that_share_a_shared_chunk():
    """copy_sector_costs, as the H200's source view counts LDGSTS.E.BYPASS.128 (cp_async.b16.contig 16 sectors,
    .dst_plus16 and .src_plus16 32)."""
    from smemlab.banks.coalescing import copy_sector_costs

    lane = np.arange(32)
    src = (lane * 16)[None, :]
    aligned, _ = copy_sector_costs(src, (lane * 16 // 32)[None, :], 16)
    dst_off, ideal = copy_sector_costs(src, ((lane * 16 + 16) // 32)[None, :], 16)
    src_off, _ = copy_sector_costs(src + 16, (lane * 16 // 32)[None, :], 16)
    assert (int(aligned[0]), int(dst_off[0]), int(src_off[0]), int(ideal[0])) == (16, 32, 32, 16)


def test_the_kernel_counter_counts_a_16_byte_copy_by_global_line_and_shared_chunk():
    """copy_counted_sectors, as the H200's l1tex__t_sectors_pipe_lsu_mem_global_op_ld counts LDGSTS.E.BYPASS.128:
    one sector per (128-byte global line, shared 32-byte chunk) pair, where the source view (copy_sector_costs)
    counts one per (global sector, shared chunk) pair. Each expected value is a recorded launch's."""
    from smemlab.banks.coalescing import copy_counted_sectors, copy_sector_costs

    lane = np.arange(32)

    def both(src, dst):
        src, chunks = np.asarray(src)[None, :], (np.asarray(dst) // 32)[None, :]
        return int(copy_counted_sectors(src, chunks)[0]), int(copy_sector_costs(src, chunks, 16)[0][0])

    assert both(16 * lane, 16 * lane) == (16, 16)  # cp_async.b16.contig: the two rules agree
    assert both(16 * lane, 16 + 16 * lane) == (20, 32)  # .dst_plus16: 5 chunks a line of 8 lanes
    assert both(16 + 16 * lane, 16 * lane) == (20, 32)  # .src_plus16: a line's chunks, not its sectors
    assert both(16 * lane, 32 * lane) == (32, 32)  # .dst_stride32: a chunk a lane, however few the lines
    assert both(256 * lane, 16 * lane) == (32, 32)  # .src_line_a_lane: a line a lane
    assert both(32 * lane, 16 * lane) == (16, 32)  # global.cp_async16.stride2: 2 chunks a line of 4 lanes
    # .shift16_two_lines_lanes_0123456: the lanes off (-1) count nothing
    qw_rows = (lane // 4) * 256 + (lane % 4) * 16
    on = lane < 7
    assert both(np.where(on, qw_rows, -1), np.where(on, 16 + 16 * lane, -1)) == (5, 7)


PTX_ATOMS = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    .file 1 "k.cu"
    ld.param.u64 %rd1, [p];
    .loc 1 5 0
    atom.global.add.u32 %r1, [%rd1], 1;
    .loc 1 6 0
    atom.global.acq_rel.gpu.max.s32 %r2, [%rd1+4], 1;
    .loc 1 7 0
    atom.global.add.u32 %r3, [%rd1+8], 1;
    st.global.u32 [%rd1+12], %r3;
    ret;
}
"""


def test_an_unread_atomic_is_a_reduction_unless_ptxas_kept_the_returning_form():
    """ptxas issues an atom whose result no one reads as RED (no ideal in Nsight Compute), but keeps ATOMG for
    an acquire (Triton's acq_rel atomics): the SASS's form on the line decides where there is one."""
    from smemlab.analyze.globalledger import unread_atomics
    from smemlab.analyze.ptx import Instr, parse_module

    module = parse_module(PTX_ATOMS)
    instrs = [x for x in module.kernels["k"].body if isinstance(x, Instr)]
    pcs = {ins.loc.line: pc for pc, ins in enumerate(instrs) if ins.parts[0] == "atom"}
    files = {1: "k.cu"}
    assert unread_atomics(instrs) == {pcs[5], pcs[6]}  # line 7's result is stored
    forms = {("k.cu", 5): {"RED"}, ("k.cu", 6): {"ATOMG"}, ("k.cu", 7): {"ATOMG"}}
    assert unread_atomics(instrs, forms, files) == {pcs[5]}


def test_an_atomic_that_returns_its_value_lists_the_sectors_its_lanes_touch():
    # fresh.int_atomics_mix (H100): atomicExch and atomicCAS on 64 random words; the kernel counter counts the
    # sectors the lanes' order splits (atomic_sector_costs, 194 a line), the source page's theoretical sectors
    # each sector the lanes touch once (127 a line); a RED's line keeps the counter's (the page lists none)
    from types import SimpleNamespace

    from smemlab.analyze.globalledger import site_costs
    from smemlab.analyze.memory import GLOBAL_BASE
    from smemlab.banks.coalescing import atomic_sector_costs, sector_costs

    a = (np.random.default_rng(1).integers(0, 64, 32) * 4).reshape(1, 32)
    counter = atomic_sector_costs(a, 4, base=GLOBAL_BASE)[0]
    touched = sector_costs(a, 4)[0]
    assert int(counter[0]) > int(touched[0]) == 8
    atom = SimpleNamespace(per_lane_atomic=True, no_ideal=False, size=4, kind="global atomic")
    sectors, counted, ideal = site_costs(atom, a, None)
    assert (int(sectors[0]), int(counted[0]), int(ideal[0])) == (int(touched[0]), int(counter[0]), 4)
    red = SimpleNamespace(per_lane_atomic=True, no_ideal=True, size=4, kind="global atomic")
    sectors, counted, ideal = site_costs(red, a, None)
    assert (int(sectors[0]), int(counted[0]), int(ideal[0])) == (int(counter[0]), int(counter[0]), 0)
