"""cp.async's shared-memory side (LDGSTS) against Nsight Compute, with no GPU.

Measured on an H200 (tests/data/analyze_truth.json: the cp_async pattern corpus, overlap.stagedCpAsync1-4,
ops_matmul.mm_async): a 16-byte copy costs, per quarter-warp, one wavefront per (global line, shared
row, bits 4-5 of dst XOR src), and the zero-filling form (which the SASS decides, not the PTX) more on
top (smemlab.analyze.ledger's ldgsts_costs); the source view's ideal is 1 a quarter-warp, 2 for the
zero-filling form. 4- and 8-byte copies write, group by group of the lanes that read one global 128-byte line, as
a shared store of that width would. The copies count in neither the load nor the store totals."""

from __future__ import annotations

import numpy as np
import pytest

from smemlab.analyze import analyze_source
from smemlab.analyze.ledger import ldgsts_costs


def _warp(start: int, lanes: int = 32) -> np.ndarray:
    """One warp's byte offsets: `lanes` consecutive 16-byte pieces from `start`, the rest inactive."""
    a = np.full(32, -1, dtype=np.int64)
    a[:lanes] = start + 16 * np.arange(lanes)
    return a.reshape(1, 32)


# (start, active lanes, zero-fill, wavefronts, ideal): the SASS rows of the recorded cases
MEASURED = [
    (0, 32, True, 8, 8),  # stage 0 of the staged stencil: 128-byte aligned
    (4128, 32, True, 12, 8),  # stage 1: 4128 = 32 mod 128, every quarter straddles two rows
    (8256, 32, True, 12, 8),  # stage 2: 64 mod 128
    (4096, 2, True, 2, 2),  # the tile's last 2 pieces (32 bytes, one row)
    (12384, 4, True, 3, 2),  # 4 pieces from 96 mod 128: two rows
    (8464, 32, False, 12, 4),  # mm_async's B tile: 16 mod 128, no source size
]


@pytest.mark.parametrize("start,lanes,zfill,wavefronts,ideal", MEASURED)
def test_the_rule_reproduces_the_measured_rows(start, lanes, zfill, wavefronts, ideal):
    chunks = np.where(_warp(start, lanes) >= 0, np.arange(32), -1)  # read from consecutive aligned global chunks
    wf, ide, _ = ldgsts_costs(_warp(start, lanes), zfill, 16, chunks)
    assert (int(wf[0]), int(ide[0])) == (wavefronts, ideal)


def test_banks_do_not_matter_rows_do():
    """Lanes spread over 32 banks but a row each cost a wavefront each (a store would be conflict-free):
    as the corpus's dst_row_a_lane, 32 for the warp."""
    a = (np.arange(32) % 8 * 528 + np.arange(32) // 8 * 16).reshape(1, 32)
    wf, ideal, degree = ldgsts_costs(a, False, 16, np.arange(32).reshape(1, 32))
    assert (int(wf[0]), int(ideal[0]), int(degree[0])) == (32, 4, 8)


SOURCE = r'''
extern "C" __global__ void stage(const float *in, float *out, int shift, int zfill)
{
    __shared__ __align__(128) float buf[2048];
    unsigned dst = (unsigned)__cvta_generic_to_shared(buf + shift) + 16 * threadIdx.x;
    const float *src = in + 4 * threadIdx.x;
    if (zfill < 0)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(16) : "memory");
    else if (zfill)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(zfill) : "memory");
    else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    out[threadIdx.x] = buf[shift + 4 * threadIdx.x];
}
'''


# zfill: the source size, a parameter (16: the whole piece), so that ptxas makes the zero-filling form
# (a constant 16, -1 here, is the plain one in the SASS, whatever the PTX says); 0: the plain form
@pytest.mark.parametrize("shift,zfill,wavefronts,ideal", [(0, 16, 16, 16), (8, 16, 24, 16), (4, 0, 24, 8), (0, -1, 8, 8)])
def test_analyze_counts_cp_async_apart(tmp_path, shift, zfill, wavefronts, ideal):
    """End to end: two warps copy 16 bytes a lane to a stage `shift` floats past a 128-byte boundary."""
    src = tmp_path / "stage.cu"
    src.write_text(SOURCE)
    r = analyze_source(str(src), "stage", (64,), args=["in=float32[256]", "out=float32[64]", f"shift={shift}",
                                                        f"zfill={zfill}"])
    t = r.totals("ldgsts")
    assert (t["requests"], t["wavefronts"], t["ideal_wavefronts"]) == (2, wavefronts, ideal)
    assert r.totals("store")["requests"] == 0  # the copy is not a store
    assert r.totals("load")["requests"] == 2


# 4- and 8-byte copies (the cp_async.b4/b8 pattern corpus, one warp each): lane by lane in the first wavefront from
# its rank on its source position (4- or 8-byte unit of the line) with its destination slot and position free
# (ldgsts_costs)
LANE = np.arange(32)
NARROW = [
    (4, 4 * LANE, 4 * LANE, 1, 1),  # one line into 32 banks
    (4, (LANE % 8) * 528 + (LANE // 8) * 4 + 16, 4 * LANE, 1, 1),  # 8 rows, still 32 distinct banks
    (4, 8 * LANE, 4 * LANE, 2, 1),  # a 2-word stride: two lanes a bank
    (4, 4 * LANE, 128 * LANE, 32, 1),  # a line a lane: one write a lane
    (4, 128 * LANE, 4 * LANE, 32, 1),  # one line into one bank
    # 4 bytes, the source side (cp_async.b4.srcpos_*, H100): k lanes on one word position of k lines serialise,
    # and with m-way destination conflicts on crossing lanes the two add up less one
    (4, 4 * LANE, 128 * (LANE % 4) + 4 * (LANE // 4), 4, 1),
    (4, 4 * LANE, 132 * LANE, 1, 1),  # a line a lane, but each at its own word position
    (4, 4 * LANE, 0 * LANE, 32, 1),  # every lane on one word
    (4, 128 * (LANE // 16) + 4 * (LANE % 16), 128 * (LANE % 2) + 4 * (LANE // 2), 3, 1),
    (4, 128 * (LANE // 4) + 4 * (LANE % 4), 128 * (LANE % 4) + 4 * (LANE // 4), 11, 1),
    (4, 128 * (LANE % 4) + 4 * (LANE // 4), 128 * (LANE % 4) + 4 * (LANE // 4), 4, 1),  # the same lanes: max
    (8, 8 * LANE, 8 * LANE, 2, 2),  # two lines, each 128 contiguous bytes
    (8, 64 * LANE, 8 * LANE, 16, 2),  # two lines, each 8 lanes to a bank pair
]


@pytest.mark.parametrize("size,dst,src,wavefronts,ideal", NARROW)
def test_narrow_copies_cost_as_measured(size, dst, src, wavefronts, ideal):
    wf, ide, _ = ldgsts_costs(dst.reshape(1, 32).astype(np.int64), False, size, (src // size).reshape(1, 32))
    assert (int(wf[0]), int(ide[0])) == (wavefronts, ideal)


def test_copies_need_the_global_chunks():
    with pytest.raises(ValueError, match="global chunk"):
        ldgsts_costs((4 * LANE).reshape(1, 32), False, 4)


# 16 bytes, one warp (the cp_async.b16 corpus, measured; plain form, zero-filling form): the copy path
# takes, per quarter-warp, the lanes of one global line and one shared row whose addresses agree in
# bits 4-5 up to one XOR in one wavefront
SIXTEEN = [
    (16 * LANE, 16 * LANE, 4, 8),  # contiguous, aligned
    (16 * (31 - LANE), 16 * LANE, 4, 8),  # reversed: 32-byte sectors and their halves permuted
    (16 * (LANE ^ 2), 16 * LANE, 4, 8),  # 32-byte sectors swapped
    (16 + 16 * LANE, 16 * LANE, 12, 16),  # shifted 16 bytes: two classes in one row, one in the next
    (48 + 16 * LANE, 16 * LANE, 16, 20),  # shifted 48
    (64 + 16 * LANE, 16 * LANE, 8, 12),  # shifted 64: the 64-byte halves move freely, two rows
    (32 * LANE, 16 * LANE, 32, 40),  # a 32-byte stride: four classes a row
    (48 * LANE, 16 * LANE, 24, 28),  # a 48-byte stride: two classes in each of three rows
    (128 * LANE, 16 * LANE, 32, 64),  # a row a lane
    (16 * LANE, 256 * LANE, 32, 64),  # a global line a lane, each its first 16 bytes
    (16 * LANE, 16 + 16 * LANE, 12, 16),  # the global side shifted 16
]


@pytest.mark.parametrize("dst,src,plain,zfill", SIXTEEN)
def test_sixteen_byte_copies_as_measured(dst, src, plain, zfill):
    a, c = dst.reshape(1, 32).astype(np.int64), (src // 16).reshape(1, 32)
    assert int(ldgsts_costs(a, False, 16, c)[0][0]) == plain
    assert int(ldgsts_costs(a, True, 16, c)[0][0]) == zfill


MASKED = r'''
extern "C" __global__ void masked(const float *in, float *out, int live)
{
    __shared__ __align__(128) float buf[256];
    unsigned dst = (unsigned)__cvta_generic_to_shared(buf) + 16 * threadIdx.x;
    int bytes = threadIdx.x < live ? 16 : 0;  // 0: the lane's piece is zero-filled, nothing read
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(in + 4 * threadIdx.x), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    out[threadIdx.x] = buf[4 * threadIdx.x];
}
'''


@pytest.mark.parametrize("live,requests,sectors", [(64, 2, 32), (40, 2, 20), (32, 1, 16), (0, 0, 0)])
def test_a_copy_of_source_size_0_reads_no_global_memory(tmp_path, live, requests, sectors):
    """Lanes whose source size is 0 read nothing (as Triton's copies of a tile past K: the recorded
    triton.matmul.32x32x32 counts 512 sectors, not the 768 of every lane's address): no sectors, and no
    request for a warp with no lane that reads."""
    src = tmp_path / "masked.cu"
    src.write_text(MASKED)
    r = analyze_source(str(src), "masked", (64,), args=["in=float32[256]", "out=float32[64]", f"live={live}"])
    t = r.memory_totals("global ldgsts")
    assert (t["requests"], t["sectors"], t["ideal_sectors"]) == (requests, sectors, sectors)
    assert r.totals("ldgsts")["requests"] == 2  # the shared side is written (zeros) by every lane


def test_lanes_that_read_nothing_write_their_row_together():
    """A Triton tile past K (source size 0, the SASS's ignore-source predicate): its quarter-warps cost one
    wavefront a shared row, where the two global lines they name would cost two (the H100:
    fresh.triton.matmul_split_k's copies past K, 4 a warp); with the sm_80 prefetch hint (LTC128B) as the
    lines they name (triton.matmul.*.sm80)."""
    from smemlab.analyze.ledger import ZERO_SOURCE

    a = (16 * LANE).reshape(1, 32).astype(np.int64)  # each quarter fills one 128-byte row
    src = (LANE % 4) * 16 + (LANE // 4) % 2 * 512 + (LANE // 8) * 1024  # each quarter: two lines, 64 bytes each
    c = (src // 16).reshape(1, 32)
    assert int(ldgsts_costs(a, False, 16, c)[0][0]) == 8
    zero = ZERO_SOURCE - c
    assert int(ldgsts_costs(a, False, 16, zero)[0][0]) == 4
    assert int(ldgsts_costs(a, False, 16, zero, prefetch=True)[0][0]) == 8
    # in each quarter one line read and one past the end (not recorded yet): the read line's group and the zeros' row
    half = np.where(LANE.reshape(1, 32) % 8 < 4, c, zero)
    assert int(ldgsts_costs(a, False, 16, half)[0][0]) == 8


def test_zero_filling_lanes_of_source_size_0_cost_nothing_of_their_own():
    """The zero-filling form (LDGSTS...ZFILL), a row's tail past K: 20 lanes of source size 0 all naming the
    row's first chunk cost nothing of their own (the H200, fresh8.gemv_cp_async_zfill: 8.8 wavefronts a
    copy measured where naming that chunk gives 13); a quarter of such lanes only costs 1, ideal 1."""
    from smemlab.analyze.ledger import ZERO_SOURCE

    a = (16 * LANE).reshape(1, 32).astype(np.int64)
    c = (1024 // 16 + LANE).reshape(1, 32)  # contiguous 16-byte chunks from a line's start
    tail = np.where(LANE.reshape(1, 32) < 12, c, ZERO_SOURCE - 0)  # lanes 12-31 name the row's start, read nothing
    wavefronts, ideal, _ = ldgsts_costs(a, True, 16, tail)
    # quarter 0: 1 line + 1 (zero-filling); quarter 1: lanes 8-11's line + 1; quarters 2, 3: zeros only, 1 each
    assert (int(wavefronts[0]), int(ideal[0])) == (6, 6)
    whole = ldgsts_costs(a, True, 16, c)
    assert (int(whole[0][0]), int(whole[1][0])) == (8, 8)


def test_word_copies_of_source_size_0_wait_only_for_their_bank():
    """4-byte copies (`__pipeline_memcpy_async(dst, src, 4, 4)`, a halo's out-of-range lanes): lanes that read
    nothing do not queue on the word they name (H200, fresh8.blur1d_pipeline_prims: one wavefront for a warp
    whose lanes all name element 0, not 32)."""
    from smemlab.analyze.ledger import ZERO_SOURCE

    a = (4 * LANE).reshape(1, 32).astype(np.int64)
    same = np.zeros((1, 32), dtype=np.int64)  # every lane names word 0
    assert int(ldgsts_costs(a, False, 4, same)[0][0]) == 32
    assert int(ldgsts_costs(a, False, 4, ZERO_SOURCE - same)[0][0]) == 1
    one_bank = (128 * LANE).reshape(1, 32).astype(np.int64)  # their own bank still serialises them
    assert int(ldgsts_costs(one_bank, False, 4, ZERO_SOURCE - same)[0][0]) == 32


def test_the_source_view_reads_a_p0_source_predicate_as_true():
    """A plain 16-byte copy whose source predicate ptxas put in P0 (`LDGSTS ... [R4.64], P0`): Nsight Compute's
    source view costs it as if every lane's source size were 0, and with `!P0` as if none were (H200,
    kernels/staged_probe_triton.py: a Triton matmul's A-tile copies, two 64-byte rows a quarter, 4 wavefronts a
    warp under P0, 8 under P1 or P4, the same lanes)."""
    from smemlab.analyze.ledger import ZERO_SOURCE

    a = (16 * LANE).reshape(1, 32).astype(np.int64)
    src = (LANE % 4) * 16 + (LANE // 4) % 2 * 512 + (LANE // 8) * 1024  # each quarter: two lines, 64 bytes each
    c = (src // 16).reshape(1, 32)
    assert [int(ldgsts_costs(a, False, 16, c, source_predicate=p)[0][0]) for p in ("", "P1", "P0", "!P1")] == \
        [8, 8, 4, 8]
    zero = ZERO_SOURCE - c  # a tile past the loop's last: source size 0
    assert [int(ldgsts_costs(a, False, 16, zero, source_predicate=p)[0][0]) for p in ("", "P2", "!P0", "P0")] == \
        [4, 4, 8, 4]
    # the zero-filling form and the narrower copies count their predicate as it is
    assert int(ldgsts_costs(a, True, 16, c, source_predicate="P0")[0][0]) == \
        int(ldgsts_costs(a, True, 16, c)[0][0])
    words = (4 * LANE).reshape(1, 32).astype(np.int64)
    assert int(ldgsts_costs(words, False, 4, (LANE * 8).reshape(1, 32), source_predicate="P0")[0][0]) == \
        int(ldgsts_costs(words, False, 4, (LANE * 8).reshape(1, 32))[0][0])


def test_each_copy_s_source_predicate_is_read_from_the_listing():
    """sass.copy_predicates: the predicate after a LDGSTS's source, by line in address order ("" for none),
    whatever guards the instruction."""
    from smemlab.analyze import sass

    listing = "\n".join([
        "//--------------------- .text.k --------------------------",
        '\t//## File "/x/k.py", line 7',
        "        /*0100*/                   LDGSTS.E.BYPASS.128 [R31], desc[UR12][R20.64], P0 ;",
        "        /*0110*/                   LDGSTS.E.BYPASS.128 [R31+0x800], desc[UR12][R22.64+0x40], !P3 ;",
        "        /*0120*/               @P4 LDGSTS.E.BYPASS.128 [R7], desc[UR8][R8.64] ;",
        '\t//## File "/x/k.py", line 9',
        "        /*0130*/                   LDGSTS.E.BYPASS.128.ZFILL [R5], desc[UR8][R2.64], P1 ;",
        "        /*0140*/                   LDS.128 R4, [R2] ;",
    ])
    assert sass.copy_predicates(listing, "k") == {("k.py", 7): ["P0", "!P3", ""], ("k.py", 9): ["P1"]}


def test_a_warp_of_read_and_unread_lanes_costs_as_the_zero_filling_form():
    """A plain 16-byte copy whose warp has lanes that read and lanes of source size 0 (a ragged tile's edge)
    costs as LDGSTS...ZFILL would, ideal too (H200: fresh4.triton.linear_gelu_64, a warp of two reading
    quarters and two past the tile, 8 wavefronts and 6 ideal measured where the plain rule gives 6 and 4);
    warps all of one kind keep the plain rule."""
    from smemlab.analyze.ledger import ZERO_SOURCE

    a = (16 * LANE).reshape(1, 32).astype(np.int64)
    src = (LANE % 4) * 16 + 64 + (LANE // 4) % 2 * 192 + (LANE // 8) * 1024  # a quarter: halves of two lines
    c = (src // 16).reshape(1, 32)
    edge = np.where(LANE.reshape(1, 32) < 16, c, ZERO_SOURCE - c)
    wavefronts, ideal, _ = ldgsts_costs(a, False, 16, edge)
    assert (int(wavefronts[0]), int(ideal[0])) == (8, 6)
    both = np.concatenate([c, ZERO_SOURCE - c, edge])
    wavefronts, ideal, _ = ldgsts_costs(np.repeat(a, 3, axis=0), False, 16, both)
    assert wavefronts.tolist() == [8, 4, 8] and ideal.tolist() == [4, 4, 6]


def test_eight_byte_copies_queue_by_source_position():
    """8-byte copies (H200): lanes on one 8-byte position of different lines serialise, as 4-byte ones do, and
    lanes that read nothing wait only for their slot. fresh8.triton.w8a16_matmul's int8 rows of 32 bytes, 96
    bytes apart: two rows on each position, 2 wavefronts (the 6 lines they read do not matter);
    fresh7.triton.w4a16_linear's rows 128 bytes apart: 8 on one position, 8; its copies past K: 2, and with the
    prefetch hint as the lines they name."""
    from smemlab.analyze.ledger import ZERO_SOURCE

    a = (8 * LANE).reshape(1, 32).astype(np.int64)
    rows96 = ((LANE // 4) * 96 + (LANE % 4) * 8) // 8
    rows128 = ((LANE // 4) * 128 + 32 + (LANE % 4) * 8) // 8
    assert [int(ldgsts_costs(a, False, 8, u.reshape(1, 32))[0][0]) for u in (rows96, rows128)] == [2, 8]
    zero = ZERO_SOURCE - rows128.reshape(1, 32)
    assert int(ldgsts_costs(a, False, 8, zero)[0][0]) == 2
    assert int(ldgsts_costs(a, False, 8, zero, prefetch=True)[0][0]) == 8


def test_zero_filling_quarters_pay_for_lines_read_in_their_second_half():
    """The zero-filling form's extra cost counts the lines a quarter reads only in their second half (H200,
    fresh10.triton.linear_bias_relu: a ragged edge's warp, one quarter reading the second halves of two rows'
    lines, costs 4 where the corpus's terms give 3); reading a line's second half then the next line's first
    (the corpus's src_plus64) stays 3."""
    a = (16 * np.arange(8)).reshape(1, 8).astype(np.int64)
    a = np.concatenate([a, np.full((1, 24), -1)], axis=1)
    second = np.array([4, 5, 6, 7, 12, 13, 14, 15] + [-1] * 24).reshape(1, 32)  # lines 0 and 1, second halves
    straddle = np.array([4, 5, 6, 7, 8, 9, 10, 11] + [-1] * 24).reshape(1, 32)  # line 0's second half, line 1's first
    assert int(ldgsts_costs(a, True, 16, second)[0][0]) == 4
    assert int(ldgsts_costs(a, True, 16, straddle)[0][0]) == 3
