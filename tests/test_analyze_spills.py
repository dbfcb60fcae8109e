"""ptxas's register spills (analyze/spills.py): found in the SASS, placed on what the emulator executed."""

import numpy as np

from smemlab.analyze import spills
from smemlab.analyze.spills import Graph, Trace

# entry block (a spill and a barrier), a branch past a loop, the loop's preheader (a spill), a one-block loop
# (a shared load and a refill), the landing
SASS = """\
//--------------------- .text.k                --------------------------
        .text.k:
        //## File "k.cu", line 3
        /*0000*/                   STL [R1], R4                  (*"SpillRefill"*);
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0020*/              @!P0 BRA `(.L_x_2) ;
        //## File "k.cu", line 5
        /*0030*/                   STL.64 [R1+0x8], R6           (*"SpillRefill"*);
.L_x_1:
        //## File "k.cu", line 6
        /*0040*/                   LDS R8, [R3] ;
        /*0050*/                   LDL R9, [R1]                  (*"SpillRefill"*);
        /*0060*/               @P1 BRA `(.L_x_1) ;
.L_x_2:
        //## File "k.cu", line 9
        /*0070*/                   EXIT ;
"""


def _sass():
    insns, labels = spills.parse(SASS, "k")
    return insns, labels, *spills.sass_graph(insns, labels)


def test_the_listing_becomes_blocks_with_a_loop():
    insns, labels, g, block_of = _sass()
    assert [i.pc for i in insns] == [0x0, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70]
    assert labels == {".L_x_1": 4, ".L_x_2": 7}
    assert block_of == [0, 0, 0, 1, 2, 2, 2, 3]
    assert g.succ == [[1, 3], [2], [2, 3], [4]]
    assert g.loops == {2: {2}}
    assert [sorted(w) for w in g.within] == [[], [], [2], []]


def test_spills_are_the_marked_stl_and_ldl():
    insns, *_ = _sass()
    found = [spills.spill_of(i) for i in insns if spills.is_spill(i, ptx_has_local=True)]
    assert [(s.pc, s.op, s.width, s.offset, s.line) for s in found] == [
        (0x0, "local store", 4, 0, 3), (0x30, "local store", 8, 8, 5), (0x50, "local load", 4, 0, 6)]


def test_blocks_that_run_equally_often():
    *_, g, _ = _sass()
    assert g.equivalent(0, 3)  # the landing post-dominates the entry, which dominates it
    assert not g.equivalent(1, 2)  # the preheader runs once, the loop as often as it iterates
    assert not g.equivalent(0, 1)  # the branch may skip the preheader


def test_a_preheader_runs_once_per_entry_into_the_loop_the_equivalent_blocks_with_their_anchor():
    *_, g, _ = _sass()
    ptx = Graph(4, [[1, 3], [2], [2, 3], [4]])  # the PTX's own flow, block for block
    placed = spills.place(g, {0: 0, 2: 2}, ptx, {0, 1, 2})
    assert placed == {0: ("block", 0), 1: ("entries", 2), 2: ("block", 2), 3: ("block", 0)}


def test_without_an_anchor_in_the_loop_the_preheader_is_not_placed():
    *_, g, _ = _sass()
    placed = spills.place(g, {0: 0}, Graph(4, [[1, 3], [2], [2, 3], [4]]), {1})
    assert 1 not in placed and placed[3] == ("block", 0)


def _mask(*warps_lanes, warps=2):
    m = np.zeros(warps * 32, dtype=bool)
    for w, lanes in warps_lanes:
        m[w * 32 + np.asarray(lanes)] = True
    return m


def test_loop_entries_from_the_trace():
    pg = Graph(4, [[1, 3], [2], [2, 3], [4]])
    t = Trace({0: 0, 10: 1, 20: 2, 30: 3}, 64)
    both, first = _mask((0, range(32)), (1, range(32))), _mask((0, range(32)))
    for pc, m in [(0, both), (10, both), (20, both), (20, both), (30, both), (10, first), (20, first), (30, first)]:
        t.visit(pc, m)
    got = t.entries(pg, 2, warps=2)
    assert [int(m.sum()) for m in got] == [64, 32]
    assert len(t.of_block(2)) == 3


def test_a_spill_counts_each_warp_with_its_lanes():
    """One visit of the block by a full warp and by lanes 16..31 of another: 4-byte words interleaved by lane, so
    4 and 2 sectors; an 8-byte spill is two words, two requests a warp."""
    from smemlab.analyze.globalledger import MemoryLedger

    t = Trace({0: 0}, 64)
    t.visit(0, _mask((0, range(32)), (1, range(16, 32))))
    mem = MemoryLedger(2)
    s4 = spills.Spill(0x10, "local store", 4, 0, "k.cu", 3, "STL [R1], R4")
    s8 = spills.Spill(0x20, "local load", 8, 8, "k.cu", 4, "LDL.64 R4, [R1+0x8]")
    left = spills.record(mem, [(s4, ("block", 0)), (s8, ("block", 0)), (s4, None)], Graph(1, [[1]]), t,
                         {0: "/x/k.cu"}, 2)
    mem.finish()
    got = {s.kind: (s.requests, s.wavefronts, s.ideal, s.line, s.pc) for s in mem.sites.values()}
    assert got == {"local store": (2, 6, 0, 3, -1 - 0x10), "local load": (4, 12, 0, 4, -1 - 0x20)}
    assert left == [s4]


def test_local_requests_are_one_per_4_byte_word():
    from smemlab.banks.coalescing import local_requests

    assert [local_requests(n) for n in (1, 2, 4, 8, 16)] == [1, 1, 1, 2, 4]


def test_spills_are_left_out_of_the_plan_of_the_ptx_accesses():
    from smemlab.analyze.sass import parse_memory_sass

    assert parse_memory_sass(SASS, "k") == []
