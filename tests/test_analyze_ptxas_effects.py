"""What ptxas does to the PTX that analyze must follow to count as Nsight Compute counts: the merging
of a line's narrow accesses into the SASS's wider ones (ledger._coalesce: where ptxas unrolled a loop
again and vectorised it, the pieces of one aligned chunk may come in any order, as in a row-major tile
read down its columns, and a piece read again before its chunk is complete is a second access), and the
line an access takes where NVVM gave it none. The hardware cases are corpus.column_blocked_f32_k8 and
corpus.radix_sort_block in the truth fixture; these check the rules on hand-made input."""

from pathlib import Path

import numpy as np

from smemlab.analyze.ledger import Ledger
from smemlab.analyze.ptx import Loc

ROOT = Path(__file__).resolve().parents[1]
WARPS = 2
PTX_HEAD = """.version 8.5
.target sm_90
.address_size 64
.file 1 "k.cu"
"""  # the module header of the hand-written PTX kernels below
THREADS = 32 * WARPS


def ledger_for(pc: int, width: int) -> tuple[Ledger, object]:
    led = Ledger(WARPS)
    led.coalesce = {pc: width}
    return led, led.site(pc, "load", 4, Loc(1, 7), "tile[...]")


def counts(led: Ledger) -> dict[int, tuple[int, int]]:
    """bytes of each recorded access -> (requests, wavefronts)."""
    led.finish()
    out: dict[int, tuple[int, int]] = {}
    for s in led.sites.values():
        if not s.requests:
            continue
        r, w = out.get(s.size, (0, 0))
        out[s.size] = (r + s.requests, w + s.wavefronts)
    return out


def rows_of_the_block() -> np.ndarray:
    """Each warp reads one row of 8 floats (all lanes the same row, as a register-blocked product does)."""
    return (np.arange(THREADS) // 32) * 32


def test_pieces_of_a_chunk_in_any_order_become_one_wide_access():
    led, site = ledger_for(3, 16)
    em = np.ones(THREADS, dtype=bool)
    base = rows_of_the_block()
    for piece in (8, 0, 12, 4, 20, 16, 28, 24):  # two 16-byte chunks, their pieces interleaved and shuffled
        led.record(site, base + piece, em, WARPS)
    assert counts(led) == {16: (2 * WARPS, 2 * 2 * WARPS)}  # 16-byte broadcasts: 2 wavefronts each


def test_a_piece_read_again_before_its_chunk_is_complete_is_its_own_access():
    led, site = ledger_for(3, 16)
    em = np.ones(THREADS, dtype=bool)
    base = rows_of_the_block()
    for piece in (0, 4, 8, 0, 4, 8, 12):  # the second read of bytes 0-3 ends the first group as it is
        led.record(site, base + piece, em, WARPS)
    assert counts(led) == {4: (3 * WARPS, 3 * WARPS), 16: (WARPS, 2 * WARPS)}


def test_lanes_at_different_places_in_their_chunks_are_not_merged():
    led, site = ledger_for(3, 16)
    em = np.ones(THREADS, dtype=bool)
    skew = np.arange(THREADS) % 2 * 4  # odd lanes one float further: no single SASS vector covers both
    for piece in (0, 4, 8):
        led.record(site, rows_of_the_block() + piece + skew, em, WARPS)
    assert set(counts(led)) == {4}


def test_an_access_at_line_0_keeps_the_line_before_it_as_ptxas_does():
    # NVVM writes `.loc 1 0 0` ("no line") after a barrier and at some joins; ptxas's line table then
    # keeps the line before, which is where Nsight Compute's source view puts the access
    # (corpus.radix_sort_block in the truth fixture: its loads after each __syncthreads())
    from smemlab.analyze.ptx import parse_module

    ptx = PTX_HEAD + """.visible .entry k()
{
    .reg .b32 %r<3>;
    .shared .align 4 .b8 s[128];
    .loc 1 12 5
    bar.sync 0;
    .loc 1 0 0
    ld.shared.u32 %r1, [s];
    .loc 1 14 3
    st.shared.u32 [s+4], %r1;
    ret;
}
"""
    body = parse_module(ptx).kernels["k"]
    lines = {i.opcode: i.loc.line for i in body.body if hasattr(i, "opcode")}
    assert lines["ld.shared.u32"] == 12 and lines["st.shared.u32"] == 14


def _planned(ptx: str, listing) -> tuple:
    """(plan, instructions, shared accesses) of kernel k of `ptx` against the hand-made SASS `listing`."""
    from smemlab.analyze import sass
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.ptx import parse_module
    from smemlab.analyze.session import shared_accesses

    module = parse_module(ptx)
    flow = build_flow(module.kernels["k"].body)
    sites = shared_accesses(flow.instrs)
    return sass.plan(flow.instrs, flow.block_of, sites, listing, module.files, flow=flow), flow.instrs, sites


GUARDED_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .shared .align 4 .b8 a[1024];
    .shared .align 4 .b8 b[1024];
    ld.param.u32 %r1, [k_p];
    mov.u32 %r2, a;
    mov.u32 %r3, b;
    setp.eq.s32 %p1, %r1, 0;
    .loc 1 10 5
    st.shared.u32 [%r2], %r1;
    .loc 1 11 5
    @%p1 bra $L__BB0_2;
    .loc 1 12 9
    st.shared.u32 [%r2], %r1;
$L__BB0_2:
    .loc 1 20 5
    st.shared.u32 [%r3], %r1;
    .loc 1 21 5
    @%p1 bra $L__BB0_4;
    .loc 1 22 9
    st.shared.u32 [%r3], %r1;
$L__BB0_4:
    .loc 1 30 5
    ld.shared.u32 %r4, [%r2];
    ret;
}
"""


def _plan_of(ptx: str, listing):
    plan, instrs, sites = _planned(ptx, listing)
    return plan, {pc: instrs[pc].loc.line for pc, (op, _) in sites.items() if op == "store"}


def _sts(line: int, base: str = "R5", op: str = "store"):
    from smemlab.analyze.sass import SassAccess

    return SassAccess("k.cu", line, op, 4, base, 0, f"STS [{base}]")


def test_a_store_and_its_guarded_overwrite_made_one_by_ptxas_count_once_where_the_sass_stands():
    # Rodinia's srad: ptxas made each pair one STS (the second's load predicated into the first's
    # register), one on the line of the `if` and the other on the line of the unguarded store
    listing = [_sts(11), _sts(20, "R6"), _sts(30, "R7", "load")]
    plan, stores = _plan_of(GUARDED_PTX, listing)
    assert sorted(stores.values()) == [10, 12, 20, 22]
    counted = sorted(plan.lines.get(pc, line) for pc, line in stores.items() if plan.sizes.get(pc, 4) != 0)
    assert counted == [11, 20]  # one store a pair: line 10's (or 12's) on line 11, line 20's where it is


def test_accesses_the_sass_keeps_on_their_lines_are_left_alone():
    listing = [_sts(10), _sts(12), _sts(20, "R6"), _sts(22, "R6"), _sts(30, "R7", "load")]
    plan, stores = _plan_of(GUARDED_PTX, listing)
    assert len(stores) == 4 and not plan.lines and not any(v == 0 for v in plan.sizes.values()) and not plan.removed


def test_an_atomic_ptxas_makes_one_lanes_after_a_redux_costs_a_wavefront_a_warp():
    # ptxas aggregates atomicMax/atomicOr on one shared word, result unused: REDUX, then one lane's ATOMS
    # on a uniform register; two REDUXes may come before their two ATOMS (corpus.block_max_bits measures
    # 1 wavefront a warp each); an ATOMS on a per-lane address stays the lanes' (corpus.per_lane_min)
    import numpy as np

    from smemlab.analyze.ledger import atomic_costs
    from smemlab.analyze.sass import parse_sass

    listing = """
//--------------------- .text.k --------------------------
        //## File "k.cu", line 18
        /*0160*/                   REDUX.MAX.S32 UR10, R2 ;
        //## File "k.cu", line 19
        /*0170*/                   REDUX.OR UR11, R0 ;
        //## File "k.cu", line 18
        /*0190*/               @P1 ATOMS.MAX.S32 RZ, [UR7], R3 ;
        //## File "k.cu", line 19
        /*01b0*/               @P1 ATOMS.OR RZ, [UR4], R4 ;
        //## File "k.cu", line 33
        /*0180*/                   ATOMS.MIN.S32 RZ, [R4], R3 ;
    """
    got = [(a.line, a.warp) for a in parse_sass(listing, "k")]
    assert got == [(18, True), (19, True), (33, False)]
    one_word = np.zeros((3, 32), dtype=np.int64)  # three warps, every lane on one word
    assert atomic_costs(one_word, 4, "warp")[0].tolist() == [1, 1, 1]
    assert atomic_costs(one_word, 4, "lanes")[0].tolist() == [32, 32, 32]


TWO_SCALARS_PTX = PTX_HEAD + """.visible .entry k()
{
    .reg .f32 %f<4>;
    .shared .align 4 .f32 s_max;
    .shared .align 4 .f32 s_sum;
    .loc 1 49 5
    ld.shared.f32 %f1, [s_max];
    ld.shared.f32 %f2, [s_sum];
    add.f32 %f3, %f1, %f2;
    ret;
}
"""


def test_two_shared_scalars_ptxas_loads_as_one_vector_on_another_line_merge_there():
    # a softmax (RouteTrace's) reads s_max_val and s_sum at its last loop's head; ptxas placed them side
    # by side and loads both with one LDS.64 on the loop body's line: they merge at run time, on that line
    from smemlab.analyze import sass

    plan, _, sites = _planned(TWO_SCALARS_PTX, [sass.SassAccess("k.cu", 51, "load", 8, "UR4", 0, "LDS.64 R16, [UR4]")])
    assert len(sites) == 2 and all(plan.coalesce.get(pc) == 8 and plan.lines.get(pc) == 51 for pc in sites)


FOUR_SCALARS_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .b32 %r<12>;
    .shared .align 4 .b32 begin_A;
    .shared .align 4 .b32 begin_B;
    .shared .align 4 .b32 step_A;
    .shared .align 4 .b32 step_B;
    .shared .align 4 .b8 t[1024];
    ld.param.u32 %r1, [k_p];
    mov.u32 %r2, t;
    .loc 1 811 5
    st.shared.u32 [begin_A], %r1;
    .loc 1 812 5
    st.shared.u32 [begin_B], %r1;
    .loc 1 813 5
    st.shared.u32 [step_A], %r1;
    .loc 1 814 5
    st.shared.u32 [step_B], %r1;
    .loc 1 83 5
    ld.shared.u8 %r3, [%r2];
    ld.shared.u32 %r4, [t+160];
    .loc 1 85 5
    ld.shared.u8 %r5, [%r2+1];
    ld.shared.u32 %r6, [t+164];
    .loc 1 87 5
    ld.shared.u8 %r7, [%r2+2];
    ld.shared.u32 %r8, [t+168];
    .loc 1 89 5
    ld.shared.u8 %r9, [%r2+3];
    ld.shared.u32 %r10, [t+172];
    add.s32 %r11, %r3, %r4;
    ret;
}
"""


def test_a_vector_on_one_line_takes_what_near_lines_have_in_their_ptx_and_not_in_their_sass():
    """sass._into_wider: four `__shared__` ints set one a line, stored by one STS.128 on the last line (Garcia's k-NN
    distances, fresh14.knn_compute_distances), and a round key a line among byte loads (`... ^ rk[40];`, `... ^
    rk[41];`), loaded by one LDS.128 on the first line (AES's last round, fresh14.aes128_encrypt_ttable): the lines'
    accesses merge at run time into the vector's width, the orphan lines' on its line."""
    from smemlab.analyze import sass

    S = sass.SassAccess
    plan, instrs, sites = _planned(FOUR_SCALARS_PTX, [
        S("k.cu", 814, "store", 16, "UR4", 0, "STS.128 [UR4], R4"),
        S("k.cu", 83, "load", 16, "UR5", 0xa0, "LDS.128 R8, [UR5+0xa0]"),
        *(S("k.cu", line, "load", 1, "R2", line - 83, "LDS.U8 R3, [R2]") for line in (83, 85, 87, 89))])
    line_of = {pc: instrs[pc].loc.line for pc in sites}
    stores = [pc for pc in sites if sites[pc][0] == "store"]
    assert [plan.coalesce.get(pc) for pc in stores] == [16] * 4
    assert [plan.lines.get(pc, line_of[pc]) for pc in stores] == [814] * 4
    words = [pc for pc in sites if sites[pc] == ("load", 4)]
    assert [plan.coalesce.get(pc) for pc in words] == [16] * 4 and all(pc not in plan.lines for pc in words)
    assert not set(plan.unmatched) - {83, 814}  # the lenders' byte loads are their SASS's


SPLIT_CONDITION_PTX = PTX_HEAD + """.visible .entry k(.param .u64 k_p)
{
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [k_p];
    cvta.to.global.u64 %rd2, %rd1;
    .loc 1 561 12
    ld.global.u64 %rd3, [%rd2];
    ld.global.u64 %rd4, [%rd2+-8];
    add.s64 %rd5, %rd3, %rd4;
    st.global.u64 [%rd2+8], %rd5;
    ret;
}
"""


def test_an_access_the_line_table_puts_on_a_near_line_with_no_ptx_moves_there():
    """sass._onto_foreign: `if (idx < numel\n && (idx == 0 || input[idx] != input[idx - 1])`: NVVM's two loads stand
    on the second line, ptxas's line table puts the first LDG on the `if` line (THCUNN's LookupTable backward,
    fresh14.cunn_LookupTable_accGradParametersKernel): the first in PTX order moves there, the second stays."""
    from smemlab.analyze import sass
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.globalledger import memory_accesses
    from smemlab.analyze.ptx import parse_module

    S = sass.SassAccess
    module = parse_module(SPLIT_CONDITION_PTX)
    flow = build_flow(module.kernels["k"].body)
    sites = memory_accesses(flow.instrs)
    listing = [S("k.cu", 560, "global load", 8, "R2", 0, "LDG.E.64 R4, desc[UR4][R2.64]"),
               S("k.cu", 561, "global load", 8, "R2", -8, "LDG.E.64 R6, desc[UR4][R2.64+-0x8]"),
               S("k.cu", 561, "global store", 8, "R2", 8, "STG.E.64 desc[UR4][R2.64+0x8], R4")]
    plan = sass.plan(flow.instrs, flow.block_of, sites, listing, module.files, flow=flow)
    loads = sorted(pc for pc in sites if sites[pc][0] == "global load")
    assert [plan.lines.get(pc) for pc in loads] == [560, None]


HOISTED_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .shared .align 4 .b8 s[1024];
    ld.param.u32 %r1, [k_p];
    mov.u32 %r2, s;
    setp.eq.s32 %p1, %r1, 0;
    .loc 1 109 9
    ld.shared.u32 %r3, [%r2];
    @%p1 bra $L__BB0_2;
    .loc 1 110 13
    ld.shared.u32 %r4, [%r2+4];
    add.s32 %r3, %r3, %r4;
$L__BB0_2:
    .loc 1 113 13
    st.shared.u32 [%r2+8], %r3;
    ret;
}
"""


def test_a_load_nvvm_hoisted_onto_the_if_line_counts_where_ptxas_puts_it():
    # a Hillis-Steele scan loads shmem[in + tid] in both branches; NVVM hoists that load onto the `if`
    # line, ptxas's line table puts it on the first branch's line (two LDS there, one PTX load): it moves
    # there and keeps counting (it ran for every warp), rather than being taken for a removed access
    from smemlab.analyze import sass

    listing = [sass.SassAccess("k.cu", 110, "load", 4, "R2", 0, "LDS R3, [R2]"),
               sass.SassAccess("k.cu", 110, "load", 4, "R5", 4, "LDS R4, [R5+0x4]"),
               sass.SassAccess("k.cu", 113, "store", 4, "R2", 8, "STS [R2+0x8], R3")]
    plan, instrs, sites = _planned(HOISTED_PTX, listing)
    hoisted = next(pc for pc, (op, _) in sites.items() if op == "load" and instrs[pc].loc.line == 109)
    assert plan.lines.get(hoisted) == 110 and plan.sizes.get(hoisted, 4) == 4 and not plan.removed


PAIRS_PTX = PTX_HEAD + """.visible .entry k()
{
    .reg .b32 %r<4>;
    .reg .f64 %fd<6>;
    .shared .align 16 .b8 As[1024];
    mov.u32 %r1, As;
    .loc 1 90 5
    ld.shared.f64 %fd1, [%r1];
    .loc 1 92 5
    ld.shared.f64 %fd2, [%r1+8];
    .loc 1 95 5
    ld.shared.f64 %fd3, [%r1+256];
    .loc 1 97 5
    ld.shared.f64 %fd4, [%r1+264];
    ret;
}
"""


def test_a_vector_made_of_loads_on_some_of_the_neighbouring_lines_stands_on_the_first():
    # a double A^T*B product reads As[k][ty] (lines 90, 95) and As[k][ty + 1] (lines 92, 97); ptxas loads
    # each pair with one LDS.128 on the first line of the pair: line 90 takes line 92's load, not 97's
    from smemlab.analyze import sass

    listing = [sass.SassAccess("k.cu", 90, "load", 16, "R4", 0, "LDS.128 R8, [R4]"),
               sass.SassAccess("k.cu", 95, "load", 16, "R4", 256, "LDS.128 R12, [R4+0x100]")]
    plan, instrs, sites = _planned(PAIRS_PTX, listing)
    pcs = {instrs[pc].loc.line: pc for pc in sites}
    assert [plan.sizes.get(pcs[line]) for line in (90, 92, 95, 97)] == [16, 0, 16, 0] and not plan.removed


def test_a_loop_vectorised_in_part_merges_to_the_width_most_of_its_sass_has():
    # a matrix product read down its tile's columns: ptxas unrolled the loop and made mostly LDS.64 of it,
    # with one LDS.128; the run-time merge takes the width most of the line's wider SASS accesses have
    from smemlab.analyze import sass

    ptx = PTX_HEAD + """.visible .entry k()
{
    .reg .b32 %r<4>;
    .reg .f32 %f<4>;
    .shared .align 16 .b8 sA[1024];
    mov.u32 %r1, sA;
    .loc 1 41 5
    ld.shared.f32 %f1, [%r1];
    ld.shared.f32 %f2, [%r1+4];
    ret;
}
"""
    listing = [sass.SassAccess("k.cu", 41, "load", 8, "R19", 0, "LDS.64 R8, [R19]"),
               sass.SassAccess("k.cu", 41, "load", 8, "R19", 8, "LDS.64 R10, [R19+0x8]"),
               sass.SassAccess("k.cu", 41, "load", 16, "R20", 0, "LDS.128 R12, [R20]")]
    plan, _, sites = _planned(ptx, listing)
    assert len(sites) == 2 and all(plan.coalesce.get(pc) == 8 for pc in sites)


JOIN_SRC = r'''
extern "C" __global__ void join(const int *a, const int *b, int *out)
{
    __shared__ int s[256];
    const int t = threadIdx.x;
    s[t] = 0;
    __syncthreads();
    if (a[t] > 0 || (a[t] == 0 && b[t] > 0))  // NVVM: two paths into the store's block
        s[t] = 1;
    __syncthreads();
    out[t] = s[t];
}
'''


def test_paths_that_meet_before_reconverging_store_once(tmp_path):
    """A warp whose lanes reach one block by two paths of a branch executes it once (ptxas's code: one
    STS), not once a path: requests are the warps with a lane storing, and the result is right."""
    from smemlab.analyze import analyze_source
    from smemlab.analyze.args import fill, parse_arg

    src = tmp_path / "join.cu"
    src.write_text(JOIN_SRC)
    args = ["a=int32[256]:-1..1", "b=int32[256]:-1..1", "out=int32[256]"]
    r = analyze_source(str(src), "join", (256,), args=args)
    a, b = (fill(n, parse_arg(x)[1]) for n, x in (("a", args[0]), ("b", args[1])))
    want = (a > 0) | ((a == 0) & (b > 0))
    assert np.array_equal(r.buffers["out"], want.astype(np.int32))
    (store,) = [ls for ls in r.lines if ls.kind == "store" and ls.line == 9]
    assert store.requests == int(want.reshape(8, 32).any(axis=1).sum())
    assert store.wavefronts == store.requests  # each warp's lanes on distinct banks: one wavefront


def test_reaches_stops_at_the_reconvergence_point():
    from smemlab.analyze.cfg import EXIT, build_flow
    from smemlab.analyze.ptx import parse_module

    module = parse_module(PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    ld.param.u32 %r1, [k_p];
    setp.eq.s32 %p1, %r1, 0;
    @%p1 bra $L__A;
    bra.uni $L__B;
$L__A:
    add.s32 %r2, %r1, 1;
    bra.uni $L__END;
$L__B:
    setp.eq.s32 %p2, %r1, 1;
    @%p2 bra $L__END;
    bra.uni $L__A;
$L__END:
    ret;
}
""")
    flow = build_flow(module.kernels["k"].body)
    a, b, end = flow.labels["$L__A"], flow.labels["$L__B"], flow.labels["$L__END"]
    assert flow.reaches(b, a, end) and not flow.reaches(a, b, end)
    assert flow.reaches(a, end, EXIT) and not flow.reaches(end, a, EXIT)


def test_an_ldmatrix_execution_counts_once_its_fragments_are_read():
    """deadloads.DeadLoads: an execution counts for the warps where a lane reads one of its registers
    before all are overwritten; one whose registers are overwritten unread, or left unread at the end,
    counts nothing (ptxas removes the LDSM of a pipeline's peeled last trip)."""
    from smemlab.analyze.deadloads import DeadLoads

    led = Ledger(WARPS)
    site = led.site(3, "load", 16, Loc(1, 9), "ldmatrix")
    dead = DeadLoads(led, WARPS)
    every = np.ones(THREADS, dtype=bool)
    off = np.arange(THREADS, dtype=np.int64) * 16 % 512
    warp0 = np.arange(THREADS) < 32
    dead.load(site, off, every, every, [5, 6])
    dead.read(6, warp0)  # warp 0 uses the fragments, warp 1 does not
    dead.write(5, every)
    assert site.requests == 0 and site.pending == []  # register 6 still holds them: not decided
    dead.write(6, every)  # both overwritten: decided
    dead.load(site, off, every, every, [5, 6])  # the next step's, never read
    dead.finish()
    led.finish()
    assert site.requests == 1  # warp 0's first execution only


STAGES_PTX = PTX_HEAD + """.visible .entry k()
{
    .reg .b32 %r<8>;
    .reg .f32 %f<6>;
    .shared .align 16 .b8 s[2048];
    mov.u32 %r3, s;
    add.u32 %r6, %r3, 512;
    .loc 1 227 17
    st.shared.f32 [%r3], %f1;
    .loc 1 228 17
    st.shared.f32 [%r3+4], %f2;
    .loc 1 227 17
    st.shared.f32 [%r6], %f3;
    .loc 1 228 17
    st.shared.f32 [%r6+8], %f4;
    ret;
}
"""


def test_a_swap_of_neighbours_on_two_lines_is_one_vector_on_the_second_in_that_stage_only():
    # a bitonic stage NVVM unrolled: `s[i] = b;` (line 227) and `s[j] = a;` (line 228) with j = i + 1 in the
    # stride-1 stage, i + 2 in the next: ptxas makes the first pair one STS.64 on line 228, keeps the second
    # as two STS on their own lines (line 227 has SASS of its own, one STS fewer than its PTX)
    from smemlab.analyze import sass

    listing = [sass.SassAccess("k.cu", 228, "store", 8, "R7", 0, "STS.64 [R7], R14"),
               sass.SassAccess("k.cu", 227, "store", 4, "R9", 0, "STS [R9], R2"),
               sass.SassAccess("k.cu", 228, "store", 4, "R9", 8, "STS [R9+0x8], R3")]
    plan, instrs, sites = _planned(STAGES_PTX, listing)
    first = [pc for pc in sorted(sites) if instrs[pc].loc.line == 227]
    assert plan.joins.get(first[0]) == 228 and plan.coalesce[first[0]] == 8
    # the second stage's store may try too (sass._into_wider lends line 227's surplus): its partner is 8 bytes on,
    # so it completes no vector and counts on its own line (the ledger test below)
    assert set(plan.joins.values()) == {228}


def test_a_piece_from_another_line_completes_a_vector_where_it_stands_or_counts_on_its_own_line():
    led = Ledger(WARPS)
    led.coalesce = {1: 8, 2: 8}
    led.joins = {1: 228}
    a = led.site(1, "store", 4, Loc(1, 227), "s[i] = b")
    b = led.site(2, "store", 4, Loc(1, 228), "s[j] = a")
    em = np.ones(THREADS, dtype=bool)
    i = 8 * np.arange(THREADS)  # i = 2t: j = i + 1, the pair one aligned 8-byte chunk
    led.record(a, i, em, WARPS)
    led.record(b, i + 4, em, WARPS)
    led.record(a, 16 * np.arange(THREADS), em, WARPS)  # a stage whose j = i + 2: no chunk fills
    led.record(b, 16 * np.arange(THREADS) + 8, em, WARPS)
    led.finish()
    by_line = {}
    for s in led.sites.values():
        if s.requests:
            r, w = by_line.get((s.line, s.size), (0, 0))
            by_line[(s.line, s.size)] = (r + s.requests, w + s.wavefronts)
    assert by_line == {(228, 8): (WARPS, 2 * WARPS), (227, 4): (WARPS, 4 * WARPS), (228, 4): (WARPS, 4 * WARPS)}


SUNK_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .shared .align 4 .b8 re[1024];
    ld.param.u32 %r1, [k_p];
    mov.u32 %r2, re;
    .loc 1 41 9
    ld.shared.f32 %f1, [%r2];
    .loc 1 42 9
    ld.shared.f32 %f2, [%r2+4];
    .loc 1 0 0
    st.shared.f32 [%r2], %f2;
    st.shared.f32 [%r2+4], %f1;
    .loc 1 43 9
    setp.eq.s32 %p1, %r1, 0;
    @%p1 bra $L__BB0_2;
    .loc 1 51 13
    add.f32 %f1, %f1, %f1;
$L__BB0_2:
    .loc 1 0 0
    st.shared.f32 [%r2], %f1;
    st.shared.f32 [%r2+8], %f1;
    ret;
}
"""


def _sunk_listing(last_offset: int) -> list:
    """SUNK_PTX's SASS: its loads on their lines, its four stores on lines 41, 40, 41, 39 (the last at
    `last_offset`: 8 as in the PTX)."""
    from smemlab.analyze.sass import SassAccess

    stores = [(41, 0), (40, 4), (41, 0), (39, last_offset)]
    return [SassAccess("k.cu", 41, "load", 4, "R2", 0, "LDS R3, [R2]"),
            SassAccess("k.cu", 42, "load", 4, "R2", 4, "LDS R4, [R2+0x4]")] + \
        [SassAccess("k.cu", line, "store", 4, "R2", off, f"STS [R2+{off:#x}], R3") for line, off in stores]


def test_stores_sunk_to_a_join_at_line_0_take_the_lines_ptxas_spreads_them_over():
    # two stages of an FFT butterfly whose `if (k == 0) {..} else {..}` NVVM sank into the join at `.loc 0`
    # (the line before: 42, then 51, the else arm's); ptxas's line table put the stores on lines 39, 40
    # and 41 (dd.fft.split_table: the next stage's address arithmetic scheduled between them)
    plan, stores = _plan_of(SUNK_PTX, _sunk_listing(8))
    assert sorted(stores.values()) == [42, 42, 51, 51]
    assert [plan.lines[pc] for pc in sorted(stores)] == [41, 40, 41, 39] and not plan.unmatched


def test_sunk_stores_whose_sass_is_not_one_to_one_keep_the_line_before():
    plan, stores = _plan_of(SUNK_PTX, _sunk_listing(12))
    assert not any(pc in plan.lines for pc in stores)


GUARDED_LOAD_PTX = PTX_HEAD + """.visible .entry sunk(.param .u64 sunk_param_0)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .shared .align 16 .b8 s[512];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 2;
    add.s32 %r4, %r2, %r3;
    st.shared.b32 [%r4], %r1;
    bar.sync 0;
    and.b32 %r5, %r1, 15;
    shl.b32 %r6, %r5, 2;
    add.s32 %r7, %r2, %r6;
    .loc 1 12 5
    ld.shared.b32 %r8, [%r7];
    and.b32 %r9, %r1, 112;
    setp.eq.b32 %p1, %r9, 0;
    ld.param.u64 %rd1, [sunk_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd2, %rd2, %rd3;
    @%p1 st.global.b32 [%rd2], %r8;
    ret;
}
"""


def test_a_load_only_guarded_instructions_read_counts_on_their_lanes():
    """deadloads.sunk_loads: Triton's end of a reduction, `ld.shared; setp; @p st.global` of the loaded
    value, is `@!P EXIT; LDS; STG` in ptxas's SASS (triton.argmax_rows: 1 warp of 16 lanes loads, 1
    wavefront, not the PTX's 4 warps and 4): the load counts for the lanes whose guard is on."""
    from smemlab.analyze import analyze_ptx

    r = analyze_ptx(GUARDED_LOAD_PTX, "sunk", (128,), args=["out=int32[128]"], source="__global__ void sunk(int* out)")
    assert r.buffers["out"][:16].tolist() == list(range(16))
    (load,) = [ls for ls in r.lines if ls.kind == "load"]
    assert (load.requests, load.wavefronts) == (1, 1)  # warp 0 only; its 16 lanes read 16 banks


def test_a_load_read_unguarded_or_across_a_barrier_is_not_sunk():
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.deadloads import sunk_loads
    from smemlab.analyze.ptx import parse_module

    def sunk(ptx):
        flow = build_flow(parse_module(ptx).kernels["sunk"].body)
        return [flow.instrs[pc].text.split()[0] for pc in sunk_loads(flow.instrs, flow.block_of)]

    assert sunk(GUARDED_LOAD_PTX) == ["ld.shared.b32"]
    assert sunk(GUARDED_LOAD_PTX.replace("@%p1 st.global", "st.global")) == []  # every lane uses it
    assert sunk(GUARDED_LOAD_PTX.replace("    and.b32 %r9", "    bar.sync 0;\n    and.b32 %r9")) == []  # not moved past it
    assert sunk(GUARDED_LOAD_PTX.replace("    and.b32 %r9", "    add.s32 %r10, %r8, 1;\n    and.b32 %r9")) == []


def test_a_load_is_sunk_only_under_one_guard_and_where_the_kernel_ends():
    """ptxas exits the threads a guard leaves off only where the kernel ends after the guarded readers, and
    only under one guard (robust.triton.layernorm_fwd's vector store under two masks, layernorm_bwd_dw's first
    of two guarded stores: every warp loads); a global load read only by the guarded store at the end is
    sunk too (robust.triton.static_checks: 2 of 4 warps load)."""
    from smemlab.analyze import analyze_ptx
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.deadloads import sunk_loads
    from smemlab.analyze.ptx import parse_module

    def sunk(ptx):
        flow = build_flow(parse_module(ptx).kernels["sunk"].body)
        return [flow.instrs[pc].text.split()[0] for pc in sunk_loads(flow.instrs, flow.block_of)]

    two_guards = GUARDED_LOAD_PTX.replace("    @%p1 st.global.b32 [%rd2], %r8;",
                                          "    setp.lt.u32 %p2, %r1, 8;\n    @%p1 st.global.b32 [%rd2], %r8;\n"
                                          "    @%p2 st.global.b32 [%rd2+512], %r8;")
    assert sunk(two_guards) == []
    more_work = GUARDED_LOAD_PTX.replace("    ret;", "    bar.sync 0;\n    st.shared.b32 [%r4], %r9;\n    ret;")
    assert sunk(more_work) == []
    global_load = GUARDED_LOAD_PTX.replace("    ld.shared.b32 %r8, [%r7];", "    ld.global.b32 %r8, [%rd2];").replace(
        "    ld.param.u64 %rd1, [sunk_param_0];\n    cvta.to.global.u64 %rd2, %rd1;\n    mul.wide.u32 %rd3, %r1, 4;\n"
        "    add.s64 %rd2, %rd2, %rd3;\n", "").replace(
        "    .loc 1 12 5\n", "    ld.param.u64 %rd1, [sunk_param_0];\n    cvta.to.global.u64 %rd2, %rd1;\n"
        "    mul.wide.u32 %rd3, %r1, 4;\n    add.s64 %rd2, %rd2, %rd3;\n    .loc 1 12 5\n")
    assert sunk(global_load) == ["ld.global.b32"]
    r = analyze_ptx(global_load, "sunk", (128,), args=["out=int32[128]"], source="__global__ void sunk(int* out)")
    doc = __import__("smemlab.analyze.render", fromlist=["to_json"]).to_json(r)
    assert doc["global_load"]["requests"] == 1  # warp 0, whose 16 lanes store; the PTX's 4 warps load


def test_global_atomics_after_a_redux_are_the_warps_leaders():
    # fresh.int_atomics_mix: atomicMin and atomicMax of one word, result unused: one VOTEU/UFLO election on the
    # first line serves both, each line reduces with REDUX and the leader makes one RED (1 sector a request each)
    from smemlab.analyze.sass import aggregated_atomic_lines

    listing = """
//--------------------- .text.k --------------------------
        //## File "k.cu", line 10
        /*01f0*/                   VOTEU.ANY UR4, UPT, PT ;
        /*0220*/                   REDUX.MIN.S32 UR11, R12 ;
        //## File "k.cu", line 11
        /*0250*/                   REDUX.MAX.S32 UR12, R12 ;
        //## File "k.cu", line 10
        /*0380*/               @P2 REDG.E.MIN.S32.STRONG.GPU desc[UR6][R2.64], R17 ;
        //## File "k.cu", line 11
        /*0390*/               @P2 REDG.E.MAX.S32.STRONG.GPU desc[UR6][R4.64], R25 ;
        //## File "k.cu", line 12
        /*03a0*/                   ATOMG.E.EXCH.STRONG.GPU PT, RZ, desc[UR6][R18.64], R13 ;
    """
    assert aggregated_atomic_lines(listing, "k") == {("k.cu", 10), ("k.cu", 11)}


def test_a_guarded_reduction_has_no_ideal():
    # Triton's relaxed tl.atomic_min: `@%p4 red.global...` (robust.triton.atomics_global, line 312)
    from smemlab.banks.coalescing import has_ideal

    assert not has_ideal("global atomic", "@%p4 red.global.gpu.relaxed.min.s32 [ %rd4 + 0 ], %r9")
    assert not has_ideal("global atomic", "red.global.add.u32 [%rd1], 1")
    assert has_ideal("global atomic", "@!%p1 atom.global.gpu.acq_rel.max.s32 %r6, [ %rd3 + 0 ], %r9")


def test_a_shared_atomic_the_leader_makes_after_a_redux_with_its_address_in_a_register():
    # Numba's cuda.atomic.or_ on one shared word (fresh2.numba.int_atomic_mix): REDUX.OR, then `@P0 ATOMS.OR
    # RZ, [R15]` by the elected lane: 1 wavefront a warp (the H200); an unguarded ATOMS stays the lanes'
    from smemlab.analyze.sass import parse_sass

    listing = """
//--------------------- .text.k --------------------------
        //## File "k.py", line 151
        /*0340*/                   REDUX.OR UR5, R9 ;
        /*03e0*/               @P0 ATOMS.OR RZ, [R15], R2 ;
        //## File "k.py", line 160
        /*0400*/                   ATOMS.OR RZ, [R16], R2 ;
    """
    assert [(a.line, a.warp) for a in parse_sass(listing, "k")] == [(151, True), (160, False)]


DCT_ROWS = r'''
extern "C" __global__ void dct_rows(float *out, const float *in)
{
    __shared__ float cosTable[8][8];
    __shared__ float block[4][8][9];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    if (tz == 0)
        cosTable[tx][ty] = in[tx * 8 + ty];
    block[tz][ty][tx] = in[64 + (tz * 8 + ty) * 8 + tx];
    __syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k++)
        s += cosTable[tx][k] * block[tz][ty][k];
    out[(tz * 8 + ty) * 8 + tx] = s;
}
'''


def test_a_vector_matched_to_the_wrong_array_of_a_line_is_matched_again(tmp_path):
    # fresh2.dct8x8_blocks (H200): on one line ptxas reads cosTable's 32-byte rows as LDS.128 and block's 36-byte
    # rows one LDS a float; both PTX groups have the same shape, and the first match gave the vectors to block,
    # whose rows are not 16-byte aligned (analyze refused the kernel); the run is made again with the other match
    from smemlab.analyze import analyze_source

    src = tmp_path / "dct.cu"
    src.write_text(DCT_ROWS)
    r = analyze_source(str(src), "dct_rows", (8, 8, 4), args=["out=float32[256]", "in=float32[320]"])
    widths = sorted({s.size for s in r.sites if s.kind == "load" and s.requests})
    assert widths == [4, 16] and r.totals("load")["requests"] > 0


TWIN_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .shared .align 4 .b8 c[1024];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, c;
    shr.u32 %r3, %r1, 1;
    shl.b32 %r4, %r3, 2;
    add.s32 %r5, %r2, %r4;
    and.b32 %r6, %r1, 1;
    setp.eq.s32 %p1, %r6, 0;
    @%p1 bra $L__BB0_2;
    .loc 1 13 9
    ld.shared.f32 %f1, [%r5];
    ld.shared.f32 %f2, [%r5+4];
    add.f32 %f3, %f1, %f2;
    bra.uni $L__BB0_3;
$L__BB0_2:
    .loc 1 12 9
    ld.shared.f32 %f3, [%r5];
$L__BB0_3:
    .loc 1 14 5
    st.shared.f32 [%r5], %f3;
    ret;
}
"""


def test_two_arms_loading_one_address_that_ptxas_makes_one_load_are_twins_on_its_line():
    # fresh3.mg_prolong_add: `if (...) v = c[k]; else v = c[k] + c[k + 1];` on two lines, if-converted by ptxas
    # into one block with one load of c[k] on the second arm's line (its first line has no load of its own)
    from smemlab.analyze.sass import SassAccess

    listing = [SassAccess("k.cu", 13, "load", 4, "R2", 0, "LDS R3, [R2]"),
               SassAccess("k.cu", 13, "load", 4, "R2", 4, "@!P0 LDS R4, [R2+0x4]"), _sts(14, "R2")]
    plan, instrs, sites = _planned(TWIN_PTX, listing)
    loads = {instrs[pc].loc.line: pc for pc, (op, _) in sites.items() if op == "load" and "+4" not in instrs[pc].text}
    assert plan.unions == {loads[12]: loads[13], loads[13]: loads[13]}
    assert plan.lines[loads[12]] == 13 and not plan.removed


def test_a_warp_that_runs_both_twins_makes_one_request_and_one_that_runs_one_arm_its_own():
    led = Ledger(WARPS)
    led.unions = {5: 7, 7: 7}
    arm_a, arm_b = led.site(5, "load", 4, Loc(1, 13), "c[k]"), led.site(7, "load", 4, Loc(1, 13), "c[k]")
    lane = np.arange(THREADS) % 32
    offsets = (lane // 2) * 4
    even, odd = lane % 2 == 0, lane % 2 == 1
    warp0 = np.arange(THREADS) < 32
    led.record(arm_a, offsets, even, WARPS)  # both warps: the even lanes
    led.record(arm_b, offsets, odd & warp0, 1)  # warp 0 only: its odd lanes (warp 1's run arm a alone)
    led.record(arm_a, offsets, even & warp0, 1)  # warp 0 again (a loop's next trip): a request of its own
    led.finish()
    requests = {s.pc: s.requests for s in led.sites.values() if s.requests}
    assert sum(requests.values()) == 3  # warp 0: both arms once, then arm a alone; warp 1: arm a alone
    # each a broadcast of 16 words to 32 or 16 lanes: one wavefront a request
    assert sum(s.wavefronts for s in led.sites.values()) == 3


LOOP_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .shared .align 4 .b8 s[4096];
    ld.param.u32 %r1, [k_p];
    mov.u32 %r2, s;
    mov.u32 %r3, 0;
$L__BB0_1:
    .loc 1 5 9
    ld.shared.f32 %f1, [%r2];
    add.s32 %r2, %r2, 128;
    add.s32 %r3, %r3, 1;
    setp.lt.s32 %p1, %r3, %r1;
    @%p1 bra $L__BB0_1;
    .loc 1 6 5
    st.shared.f32 [%r2], %f1;
    ret;
}
"""


def _loop_listing(main: int, tail: list[int], predicated_last: bool = False, looped_last: bool = False) -> str:
    """An nvdisasm -g listing of kernel k: a SASS loop of `main` LDS on line 5, then blocks of `tail` LDS, each
    behind a branch (the last one predicated instead, `predicated_last`: corpus.divergent_branches's `@P0 LDS`;
    or a loop, `looped_last`: fresh4.argmax_rows's)."""
    out = ["//--------------------- .text.k --------------------------", '\t//## File "k.cu", line 5']
    at = 0

    def ins(text: str) -> None:
        nonlocal at
        out.append(f"        /*{at:04x}*/                   {text} ;")
        at += 16

    out.append(".L_x_0:")
    for i in range(main):
        ins(f"LDS R{4 + i}, [R2+{0x80 * i:#x}]")
    ins("@P0 BRA `(.L_x_0)")
    for b, n in enumerate(tail):
        last = predicated_last and b == len(tail) - 1
        if not last:
            ins("@!P1 BRA `(.L_x_9)")
        if looped_last and b == len(tail) - 1:
            out.append(".L_x_7:")
        for i in range(n):
            ins(f"{'@P0' if last else ''} LDS R{4 + i}, [R2+{0x80 * i:#x}]")
        if looped_last and b == len(tail) - 1:
            ins("@P2 BRA `(.L_x_7)")
    out.append(".L_x_9:")
    out.append('\t//## File "k.cu", line 6')
    ins("STS [R2], R4")
    ins("EXIT")
    return "\n".join(out) + "\n"


def _unrolled(listing: str, ptx: str = LOOP_PTX) -> dict:
    from smemlab.analyze import sass
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.ptx import parse_module
    from smemlab.analyze.session import shared_accesses

    module = parse_module(ptx)
    flow = build_flow(module.kernels["k"].body)
    sites = shared_accesses(flow.instrs)
    loads = [pc for pc, (op, _) in sites.items() if op == "load"]
    found = sass.unrolled_loops(listing, "k", flow, sites, sass.parse_sass(listing, "k"), module.files)
    return {flow.instrs[pc].text.split()[0]: v[1] for pc, v in found.items()}, loads


def test_a_loop_ptxas_unrolled_again_with_blocks_for_its_remainder_is_found():
    # dd.spmv.scalar, the CSR SpMVs: a SASS loop of U copies of the PTX loop's body, then U/2 ... 1 copies
    assert _unrolled(_loop_listing(4, [2, 1]))[0] == {"ld.shared.f32": 4}
    assert _unrolled(_loop_listing(2, [1]))[0] == {"ld.shared.f32": 2}
    assert _unrolled(_loop_listing(4, [2, 1], predicated_last=True))[0] == {"ld.shared.f32": 4}
    assert _unrolled(_loop_listing(4, [2, 1], looped_last=True))[0] == {"ld.shared.f32": 4}


def test_a_loop_whose_sass_is_not_unrolled_again_or_has_another_remainder_is_left_alone():
    assert _unrolled(_loop_listing(1, []))[0] == {}  # the PTX's trips are the SASS's
    assert _unrolled(_loop_listing(4, []))[0] == {}  # no remainder blocks: a count ptxas knows, or another form
    assert _unrolled(_loop_listing(4, [1, 1, 1]))[0] == {}  # one copy a remainder trip: not the blocks' grouping


def test_an_unrolled_loop_runs_each_lane_in_the_sass_pass_or_block_its_trip_falls_in():
    # lanes 0, 1, 2 run 6, 3 and 1 trips, each trip a row further in one bank: the PTX's lock step gives 6
    # requests (1 wavefront each: the lanes at one trip read one word); the SASS loop of 4 copies makes lane 0's
    # first 4 trips (4 requests); the 2-copy block lane 0's trips 4, 5 with lane 1's 0, 1, the 1-copy block lane 1's
    # trip 2 with lane 2's 0 (3 requests of two rows in one bank: 2 wavefronts each)
    led = Ledger(1)
    led.unrolled = {3: (3, 4, 9)}
    site = led.site(3, "load", 4, Loc(1, 5), "s[..]")
    trips = np.zeros(32, dtype=np.int64)
    trips[:3] = (6, 3, 1)
    for k in range(6):
        led.record(site, np.full(32, 128 * k), trips > k, 1)
    led.leave(10)  # the paths past the loop (pcs 3 to 9): the run is done
    led.finish()
    assert (site.requests, site.wavefronts) == (7, 4 + 3 * 2)


def test_runs_of_an_unrolled_loop_inside_a_loop_end_where_the_paths_leave_it():
    # fresh2.layernorm_backward: `for (i = tid; i < C; i += blockDim.x) for (w = 0; w < nWarps; w++) ...s[w*C+i]`,
    # an outer loop with no shared access of its own: each outer trip's inner run is regrouped on its own when
    # the paths come to a block outside the inner loop (executor.py calls Ledger.leave there), not summed with
    # the next trip's (whose trips would then count from the first run's)
    led = Ledger(1)
    led.unrolled = {3: (3, 4, 9)}
    site = led.site(3, "load", 4, Loc(1, 5), "s[..]")
    for k in range(3):
        led.record(site, np.full(32, 128 * k), np.ones(32, dtype=bool), 1)
    led.leave(5)  # a block inside the loop (pcs 3 to 9): the run goes on
    assert 3 in led._trips and site.requests == 0
    led.leave(12)  # past it: the run is made, its 3 trips as the 2- and 1-copy blocks
    assert not led._trips
    led.finish()
    assert site.requests == 3


UNLINED_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .f64 %fd<2>;
    .shared .align 8 .b8 s[2048];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, s;
    shl.b32 %r3, %r1, 3;
    add.s32 %r4, %r2, %r3;
    ld.shared.f64 %fd1, [%r4+1024];
    .loc 1 12 5
    ld.shared.f32 %f1, [%r4];
    ld.shared.f32 %f2, [%r4+4];
    add.f32 %f3, %f1, %f2;
    .loc 1 13 5
    st.shared.f32 [%r4], %f3;
    ret;
}
"""


def test_sass_of_code_with_no_line_on_a_line_leaves_that_lines_own_accesses_alone():
    # fresh4.numba.phase_shift_c64: libdevice's sin/cos slow path (PTX with no line) has an LDG.E.64 that
    # ptxas's line table puts on the line of the call, beside the line's own two 4-byte loads: not a vector
    # of those two
    from smemlab.analyze.sass import SassAccess

    listing = [SassAccess("k.cu", 12, "load", 4, "R2", 0, "LDS R3, [R2]"),
               SassAccess("k.cu", 12, "load", 4, "R2", 4, "LDS R4, [R2+0x4]"),
               SassAccess("k.cu", 12, "load", 8, "R9", 0, "LDS.64 R6, [R9]"), _sts(13, "R2")]
    plan, instrs, sites = _planned(UNLINED_PTX, listing)
    own = [pc for pc, (op, size) in sites.items() if op == "load" and size == 4]
    assert len(own) == 2 and not any(pc in plan.coalesce for pc in own) and 12 not in plan.unmatched
    wider = [x for x in listing if x.width != 8] + [SassAccess("k.cu", 12, "load", 16, "R9", 0, "LDS.128 R4, [R9]")]
    plan, _, _ = _planned(UNLINED_PTX, wider)  # SASS the code with no line does not make: as before
    assert 12 in plan.unmatched


YIELD_SRC = r'''
__global__ void cas_rows(unsigned long long *flag, const float *x, float *out, int rows)
{
    const int lane = threadIdx.x & 31;
    float s = 0.f;
#pragma unroll 1
    for (int row = 0; row < rows; ++row) {
        s += x[row * 32 + lane];
        s += __shfl_xor_sync(0xffffffffu, s, 1);
        if (lane == 0) {
#ifdef CAS_LOOP
            unsigned long long old = *flag, assumed;
            do {
                assumed = old;
                old = atomicCAS(flag, assumed, assumed + 1ull);
            } while (old != assumed);
#else
            atomicAdd(flag, 1ull);
#endif
        }
    }
    out[threadIdx.x] = s;
}
'''


def test_lanes_waiting_for_a_compare_and_swap_loop_run_ahead_to_the_next_shuffle(tmp_path):
    """A CAS loop is a spin loop to ptxas (a YIELD in it), and the YIELD lets the lanes waiting for it at the
    branch's reconvergence point go on: lanes 1-31 load the next row apart from lane 0, and the shuffle
    brings the warp together again (fresh6.row_max_cas_f64, H200: from a warp's second row on its loads run
    twice). A plain atomic (no loop) leaves the warp in lock step."""
    from smemlab.analyze import analyze_source, render

    src = tmp_path / "cas_rows.cu"
    src.write_text(YIELD_SRC)
    args = ["flag=uint64[1]:0..0", "x=float32[128]:0..1", "out=float32[32]", "rows=4"]

    def x_loads(defines):
        r = analyze_source(str(src), "cas_rows", (32,), args=args, defines=defines)
        doc = render.to_json(r)
        (line,) = [d for d in doc["lines"] if d["op"] == "global load" and d["line"] == 8]
        return line["requests"], line["sectors"], int(r.buffers["flag"][0])

    # row 0 together (4 sectors); rows 1-3 lane 0 (1 sector) apart from lanes 1-31 (4 sectors)
    assert x_loads({"CAS_LOOP": "1"}) == (1 + 3 * 2, 4 + 3 * 5, 4)
    assert x_loads({}) == (4, 4 * 4, 4)


WIDENED_PTX = PTX_HEAD + """.visible .entry k(.param .u32 k_p)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .f32 %f<8>;
    .shared .align 16 .b8 s[1040];
    ld.param.u32 %r1, [k_p];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, s;
    shl.b32 %r4, %r2, 4;
    add.s32 %r5, %r3, %r4;
    setp.ge.s32 %p1, %r2, %r1;
    @%p1 bra $L__BB0_2;
    .loc 1 36 5
    ld.shared.v2.f32 {%f1, %f2}, [%r5+8];
    ld.shared.f32 %f3, [%r5+4];
    .loc 1 37 5
    st.shared.f32 [%r5+1024], %f3;
$L__BB0_2:
    setp.ge.s32 %p2, %r2, 7;
    @%p2 bra $L__BB0_4;
    .loc 1 36 5
    ld.shared.v2.f32 {%f4, %f5}, [%r5+8];
    ld.shared.f32 %f6, [%r5+32];
    .loc 1 37 5
    st.shared.f32 [%r5+1024], %f6;
$L__BB0_4:
    ret;
}
"""


def _lds(offset: int, width: int, base: str = "R17"):
    from smemlab.analyze.sass import SassAccess

    return SassAccess("k.cu", 36, "load", width, base, offset, f"LDS.{width * 8} [{base}+{offset:#x}]")


def test_loads_of_one_block_ptxas_makes_a_wider_vector_of_count_as_that_vector_at_its_start():
    # fresh6.stencil7_pipeline_prims (H200): a 7-point stencil's four points a thread, each in its own block; for
    # the first, NVVM's `ld.shared.f32 [%r5+4]` and `ld.shared.v2.f32 [%r5+8]` are one LDS.128 [R17] of bytes
    # 0-15 (the word at 0 not used); the other block's loads keep their widths
    listing = [_lds(0, 16), _lds(8, 8), _lds(32, 4), _sts(37, "R17"), _sts(37, "R17")]
    plan, instrs, sites = _planned(WIDENED_PTX, listing)
    loads = sorted((instrs[pc].operands[-1].offset, pc) for pc, (op, _) in sites.items() if op == "load")
    by_pc = {pc: off for off, pc in loads}
    lead = next(pc for pc, off in by_pc.items() if off == 4)
    mate = min(pc for pc, off in by_pc.items() if off == 8)
    assert plan.sizes.get(lead) == 16 and plan.shift.get(lead) == -4 and plan.sizes.get(mate) == 0
    assert all(pc not in plan.sizes for pc in by_pc if pc not in (lead, mate)) and 36 not in plan.unmatched


def test_a_wider_vector_is_not_made_of_loads_of_two_blocks_or_of_one_load():
    # an LDS.128 beside the first block's s[+4]: it would hold the v2 of the first block and the v2 of the second,
    # loads of two blocks; with the first block's v2 alone it holds one load: nothing is merged
    listing = [_lds(0, 16), _lds(4, 4), _lds(32, 4), _sts(37, "R17"), _sts(37, "R17")]
    plan, _, _ = _planned(WIDENED_PTX, listing)
    assert not plan.shift and not any(v in (0, 16) for v in plan.sizes.values())
    # SASS that leaves the second block's s[+32] out: the rest is not the PTX's one to one
    listing = [_lds(0, 16), _lds(4, 4), _lds(8, 8), _sts(37, "R17"), _sts(37, "R17")]
    plan, _, _ = _planned(WIDENED_PTX, listing)
    assert not plan.shift and not any(v in (0, 16) for v in plan.sizes.values())


STENCIL7 = r'''
extern "C" __global__ void st7(float *__restrict__ out, const float *__restrict__ in, int n)
{
    __shared__ __align__(16) float s[4 + 1024 + 4];
    const float w[4] = {0.4f, 0.2f, 0.08f, 0.02f};
    const int t = threadIdx.x;
    for (int j = 0; j < 4; ++j) s[4 + 4 * t + j] = in[4 * t + j];
    if (t < 4) { s[t] = 0.f; s[4 + 4 * blockDim.x + t] = 0.f; }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int i = t * 4 + j;
        if (i < n) {
            float v = w[0] * s[4 + i];
#pragma unroll
            for (int k = 1; k <= 3; ++k)
                v += w[k] * (s[4 + i - k] + s[4 + i + k]);
            out[i] = v;
        }
    }
}
'''


def test_a_stencils_first_point_is_one_lds128_reading_a_word_it_does_not_use(tmp_path):
    # NVRTC 13.5's ptxas makes 10 LDS a thread of the four points (2 + 3 + 3 + 2), the first point's
    # s[i-3], s[i-2..i-1] one LDS.128 with the word before them: 4 wavefronts a warp each, 40 a warp
    from smemlab.analyze import analyze_source

    src = tmp_path / "st7.cu"
    src.write_text(STENCIL7)
    r = analyze_source(str(src), "st7", (64, 1, 1), args=["out=float32[256]", "in=float32[256]", "n=250"])
    if not r.sass.available:
        import pytest

        pytest.skip("no nvdisasm: the SASS is not read")
    assert r.totals("load")["requests"] == 20 and r.totals("load")["wavefronts"] == 80


PROBE_SRC = r'''
extern "C" __global__ void probe(const unsigned *keys, const unsigned *vals, const unsigned *queries,
                                 unsigned *out, unsigned mask)
{
    const int i = threadIdx.x;
    const unsigned q = queries[i];
    unsigned slot = q & mask, found = 0;
    for (unsigned p = 0; p <= mask; ++p) {
        const unsigned k = keys[slot];
        if (k == q) {
            found = vals[slot];  // run at the trip a lane finds its key: one request a trip of the warp
            break;
        }
        slot = (slot + 1) & mask;
    }
    out[i] = found;
}
'''


def test_a_block_a_loop_leaves_by_break_runs_at_each_trip_its_lanes_leave(tmp_path):
    """`if (k == q) { v = vals[slot]; break; }` in a probe loop: lanes that find their key at different trips
    load `vals` at those trips, one request each (H200, fresh8.hash_count_lookup: 30 executions for 13 warps),
    not once when the warp's last lane leaves the loop: paths meet at a block only in one trip of a loop."""
    from smemlab.analyze import analyze_source

    from smemlab.analyze import render

    src = tmp_path / "probe.cu"
    src.write_text(PROBE_SRC)
    trips = np.arange(32) % 4  # lane l finds its key after l % 4 steps: 4 distinct trips
    queries = (1000 + 8 * np.arange(32)).astype(np.uint32)  # first slots 8 apart: no lane meets another's key
    table = np.full(256, 7, np.uint32)
    table[(queries.astype(np.int64) + trips) % 256] = queries
    np.save(tmp_path / "keys.npy", table)
    np.save(tmp_path / "queries.npy", queries)
    r = analyze_source(str(src), "probe", (32,), args=[f"keys={tmp_path / 'keys.npy'}", "vals=uint32[256]",
                                                       f"queries={tmp_path / 'queries.npy'}", "out=uint32[32]",
                                                       "mask=255"])
    (vals,) = [d for d in render.to_json(r)["lines"] if d["op"] == "global load" and d["line"] == 11]
    assert vals["requests"] == len(set(trips.tolist()))


AOS_SRC = r'''
struct Particle { float x, y, z; int cell; float mass; };

extern "C" __global__ void aos(const Particle *p, float *out, int n)
{
    __shared__ Particle tile[128];
    tile[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    float a = 0.f;
    for (int k = 0; k < n; ++k) {
        const float d = tile[k].x * tile[k].y - tile[k].z;
        a += d * tile[k].mass;
    }
    out[threadIdx.x] = a;
}
'''


def test_an_array_of_20_byte_structs_read_by_field_is_read_as_whole_16_byte_chunks(tmp_path):
    """ptxas unrolls the loop by 4 and reads the 4 structs' 80 bytes as 5 LDS.128, the unread `cell` words
    too, each chunk on the line of its lowest field (the H200, fresh8.nbody_tile_aos: 3 on the x/y/z line, 2
    on the mass line): 5 requests a warp for 4 trips, where reading by field would take 16."""
    from smemlab.analyze import analyze_source, render

    src = tmp_path / "aos.cu"
    src.write_text(AOS_SRC)
    r = analyze_source(str(src), "aos", (128,), args=["p=float32[640]", "out=float32[128]", "n=128"])
    if not r.sass.available:
        import pytest

        pytest.skip("no nvdisasm: the SASS is not read")
    doc = render.to_json(r)
    trips = 128 * 4  # 128 trips, 4 warps
    assert doc["load"]["requests"] == trips * 5 // 4
    by_line = {d["line"]: d["requests"] for d in doc["lines"] if d["op"] == "load"}
    assert by_line == {11: trips * 3 // 4, 12: trips * 2 // 4}


def test_instructions_that_never_run_are_no_accesses():
    """ptxas's `@!PT LDS RZ, [RZ]` fillers (beside a Triton ieee dot's fragment loads) never run: counted as
    accesses they left the line's PTX unmatched with its SASS (fresh10.triton.matmul_fp32.ieee: 24,768 load
    wavefronts emulated, 11,808 measured; exact without them)."""
    from smemlab.analyze import sass

    listing = "\n".join([
        "//--------------------- .text.k --------------------------",
        '\t//## File "/x/k.py", line 176',
        "        /*02c0*/              @!PT LDS RZ, [RZ] ;",
        "        /*0580*/                   LDS.128 R12, [R40+UR7+0x440] ;",
        "        /*0590*/               @P0 LDS.128 R8, [R40+UR7+0x400] ;",
        "        /*05a0*/              @!PT LDG.E R2, desc[UR4][R4.64] ;",
    ])
    assert [(a.line, a.width, a.offset) for a in sass.parse_sass(listing, "k")] == [(176, 16, 0x440), (176, 16, 0x400)]
    assert sass.parse_memory_sass(listing, "k") == []


def test_a_shared_scalar_ptxas_reads_before_its_loop_counts_once_a_warp_and_entry():
    """`y[i] = x[i] * s_scale` in a block-strided loop: NVVM reads s_scale every trip (the generic store might
    alias it), ptxas once before the loop (H200, fresh7.fused_add_rms_norm_vec8: 6 LDS executed for 6 warps of
    4 trips). A scalar the loop also writes stays a read a trip; a nested loop's read once an outer trip."""
    from smemlab.analyze import analyze_source, render

    src = ROOT / "tools" / "analyze_truth" / "kernels" / "loop_invariant.cu"
    data = ["x=float32[1000]", "y=float32[1000]", "n=1000"]

    def requests(kernel, args):
        r = analyze_source(str(src), kernel, (64,), args=args)
        if not r.sass.available:
            import pytest

            pytest.skip("no nvdisasm: the SASS is not read")
        return sum(d["requests"] for d in render.to_json(r)["lines"] if d["op"] == "load")

    assert requests("scale_rows", data) == 2  # 2 warps, 15 or 16 trips each
    assert requests("scale_rows_unroll", data) == 2
    assert requests("rescale_nested", ["x=float32[1500]", "y=float32[1500]", "rows=10", "cols=150"]) == 2 * 10
    assert requests("bump_in_loop", data) == 2 * 16 * 2  # not hoisted: the read and the bump's read, each trip


def test_a_hoisted_read_before_a_split_loop_runs_before_each_loop_a_lane_enters():
    """ptxas's remainder loop (T mod U trips) and its U-times loop (T div U passes), each with the hoisted read in
    front: a lane reads before the first when T mod U != 0, before the second when T >= U."""
    from smemlab.analyze.hoisting import Hoist, HoistRuns

    made = []
    runs = HoistRuns({5: Hoist(3, 9, 4)}, lambda site, off, lanes: made.append(lanes.copy()))

    class Site:
        pc, kind = 5, "load"

    trips = np.arange(64) % 9  # 0..8 trips
    for t in range(8):
        runs.record(Site, np.zeros(64, dtype=np.int64), trips > t)
    runs.leave(2)  # outside the loop: the entry is over
    assert [m.tolist() for m in made] == [((trips % 4) != 0).tolist(), (trips >= 4).tolist()]


def test_the_last_guarded_store_of_a_striped_tile_reads_below_the_early_exit():
    """`v[i] = buff[i * 64 + tid]` for 4 items, then `if (i * 64 + tid < valid) out[..] = v[i]`: ptxas loads items
    0-2 before their guarded stores on every lane, and the last item below the `@P EXIT` its guard became
    (H200, fresh6.radix_sort_tile_keys.b64.i8.n900: 30 wavefronts, the 8 items' loads on every warp 32). With
    valid = 150, neither warp has a lane in the last item: 2 warps x 3 loads."""
    from smemlab.analyze import analyze_source, render

    src = ROOT / "tools" / "analyze_truth" / "kernels" / "sunk_tail.cu"
    r = analyze_source(str(src), "striped_tail", (64,), args=["in=uint32[256]", "out=uint32[256]", "valid=150"])
    (line,) = [d for d in render.to_json(r)["lines"] if d["op"] == "load"]
    assert (line["requests"], line["wavefronts"]) == (6, 6)


REREAD_PTX = PTX_HEAD + """.visible .entry reread(.param .u64 reread_p)
{
    .reg .b32 %r<20>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b8 seg[1024];
    ld.param.u64 %rd1, [reread_p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 4;
    mov.u32 %r3, seg;
    add.s32 %r4, %r3, %r2;
    ld.shared.u32 %r5, [%r4];
    ld.shared.u32 %r6, [%r4+4];
    add.s32 %r7, %r5, %r6;
    shfl.sync.up.b32 %r8, %r7, 1, 0, -1;
    ld.shared.u32 %r9, [%r4];
    ld.shared.u32 %r10, [%r4+4];
    ld.shared.u32 %r11, [%r4+8];
    add.s32 %r12, %r9, %r8;
    add.s32 %r13, %r10, %r12;
    mul.lo.s32 %r14, %r11, 3;
    st.shared.u32 [%r4], %r12;
    ld.shared.u32 %r15, [%r4+4];
    st.global.u32 [%rd2], %r13;
    st.global.u32 [%rd2+4], %r15;
    ret;
}
"""


def test_a_load_of_what_its_block_loaded_before_and_a_load_nothing_uses_are_found():
    """deadloads.repeated_loads: CUB's raking scan reads a segment in the upsweep and again in the downsweep around a
    shuffle, which ptxas answers from the first loads' registers (files.scan_tiles, fresh11.cub_block_cumsum); a
    shared store between ends that (the read after it stays). useless_loads: a load whose value reaches no store
    (`%r11` feeds only an unused product), which ptxas removes (fresh11.triton.discounted_returns)."""
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.deadloads import repeated_loads, useless_loads
    from smemlab.analyze.ptx import parse_module

    flow = build_flow(parse_module(REREAD_PTX).kernels["reread"].body)
    dst = {pc: flow.instrs[pc].operands[0].name for pc, ins in enumerate(flow.instrs) if ins.parts[0] == "ld"
           and "shared" in ins.parts}
    again = repeated_loads(flow.instrs, flow.block_of)
    assert sorted(dst[pc] for pc in again) == ["%r10", "%r9"]
    assert {dst[again[pc]] for pc in again} == {"%r5", "%r6"}
    assert [dst[pc] for pc in useless_loads(flow.instrs)] == ["%r11"]


REREAD_GLOBAL_PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry reread_global(.param .u64 p_in, .param .u64 p_out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [p_in];
    ld.param.u64 %rd2, [p_out];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    ld.global.b32 %r1, [%rd3];
    ld.global.b32 %r2, [%rd3+4];
    ld.global.b32 %r3, [%rd3];
    ld.shared.b32 %r4, [%rd3];
    st.shared.b32 [%rd3], %r4;
    ld.global.b32 %r5, [%rd3+4];
    st.global.b32 [%rd4], %r1;
    ld.global.b32 %r6, [%rd3];
    ld.global.nc.b32 %r7, [%rd3+4];
    add.s32 %r8, %r2, %r3;
    add.s32 %r9, %r8, %r5;
    add.s32 %r10, %r9, %r6;
    add.s32 %r11, %r10, %r7;
    st.global.b32 [%rd4+4], %r11;
    ret;
}
"""


def test_a_global_load_of_what_its_block_loaded_before_is_found_until_a_global_store():
    """deadloads.repeated_loads on global memory: Triton's inline-asm loads, which NVVM leaves apart, load a tensor's
    addresses twice where two layouts hold it, and ptxas keeps one LDG (fresh13.triton.fused_moe_kernel.w2_bm16's
    token ids). A shared store does not end it, a global store does; `.nc` is another kind of load."""
    from smemlab.analyze.cfg import build_flow
    from smemlab.analyze.deadloads import repeated_loads
    from smemlab.analyze.ptx import parse_module

    flow = build_flow(parse_module(REREAD_GLOBAL_PTX).kernels["reread_global"].body)
    dst = {pc: flow.instrs[pc].operands[0].name for pc, ins in enumerate(flow.instrs) if ins.parts[0] == "ld"
           and "param" not in ins.parts}
    again = repeated_loads(flow.instrs, flow.block_of)
    assert {dst[pc]: dst[first] for pc, first in again.items()} == {"%r3": "%r1", "%r5": "%r2"}


def test_a_last_vector_may_read_past_the_ptx_last_byte():
    """Nine int16 taps k[0..8] (offsets 0..16), which ptxas loads as S16, U16 and two LDS.64 from byte 4, the second
    holding k[6..8] and 2 bytes after the array (fresh12.numba.sharpen_u8_i16, an H200): the vectors stand for the
    taps they hold, the lowest of each counting at the vector's width."""
    from smemlab.analyze.sass import _assign

    taps = [(2 * i, 2, 100 + i) for i in range(9)]
    got = _assign(taps, [(0, 2), (2, 2), (4, 8), (12, 8)])
    assert got == [([102, 103, 104, 105], 8), ([106, 107, 108], 8)]
    # a vector that holds a byte no PTX access reads anywhere but at its end does not stand for them
    assert _assign([(0, 4, 1), (8, 4, 2)], [(0, 16)]) is None
