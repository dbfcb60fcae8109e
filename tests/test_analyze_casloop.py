"""The compare-and-swap loops ptxas builds for shared atomics with no ATOMS form (casloop.py): the
rule against the one-warp patterns recorded on an H200 (tests/data/analyze_truth.json,
`atomic.add64.*`), and the loop's semantics (old values, final memory, min/max leaving early). No GPU."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smemlab.analyze import analyze_ptx, analyze_source, casloop
from smemlab.analyze.args import fill, parse_arg
from smemlab.analyze.ledger import atomic_costs
from smemlab.analyze.nvrtc import compile_ptx

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "analyze_truth.json"
SRC = str(ROOT / "tests" / "data" / "analyze" / "casloop.cu")
PATTERNS = ROOT / "tests" / "data" / "analyze_truth" / "atomic_patterns.npy"
PATTERN_SRC = ROOT / "tools" / "analyze_truth" / "kernels" / "atomic_patterns.cu"


def _add64_cases():
    if not FIXTURE.is_file():
        return []
    return [c for c in json.loads(FIXTURE.read_text())["cases"] if c["id"].startswith("atomic.add64.")]


def _pattern(case) -> int:
    return int(next(a for a in case["args"] if a.startswith("pattern=")).split("=")[1])


def _trips(words: np.ndarray):
    """Run the loop on one warp updating 8-byte word words[l] // 2 (none where -1): per execution the
    remaining lanes' offsets (-1: not in the loop)."""
    off = np.where(words >= 0, words // 2 * 8, -1).astype(np.int64)
    rows = []
    casloop.run(off, words >= 0, 8, load=lambda rem: rows.append(np.where(rem, off, -1)), leave=None,
                cas=lambda rem: None, apply=lambda lanes: None)
    return np.array(rows)


@pytest.mark.parametrize("case", _add64_cases(), ids=lambda c: c["id"])
def test_the_rule_gives_every_recorded_trip_and_cas(case):
    """Executions, lane-executions, and the ATOMS.CAST.SPIN.64's wavefronts and ideal of all 31 patterns
    (the LDS.64's wavefronts are checked end to end in test_analyze_truth.py)."""
    rows = _trips(np.load(PATTERNS)[_pattern(case)].astype(np.int64))
    lds = next(s for s in case["sass"] if s["opcode"] == "LDS.64" and s["line"] == 47)
    cas = next(s for s in case["sass"] if s["opcode"] == "ATOMS.CAST.SPIN.64")
    wavefronts, ideal, _ = atomic_costs(rows, 8, "spin")
    assert (len(rows), int((rows >= 0).sum())) == (lds["instructions_executed"], lds["threads"])
    assert (len(rows), int((rows >= 0).sum())) == (cas["instructions_executed"], cas["threads"])
    assert (int(wavefronts.sum()), int(ideal.sum())) == (cas["wavefronts"], cas["ideal_wavefronts"])


def test_a_stale_compare_value_fails_across_half_warps():
    """Lanes 0 and 16 on one word: lane 0's half-warp goes first, so lane 16's compare value is stale
    and it retries; on different words both succeed (the execution count of the recorded patterns
    two_addresses_one_bank (17) and sixteen_addresses_one_bank_pairs (16) hangs on this)."""
    off = np.full(32, -1, dtype=np.int64)
    rem = np.zeros(32, dtype=bool)
    rem[[0, 16]] = True
    off[[0, 16]] = 0
    assert casloop.succeeding(off, rem, 8).tolist() == [0]
    off[16] = 128  # same bank pair, another word: no conflict between half-warps
    assert casloop.succeeding(off, rem, 8).tolist() == [0, 16]
    off[16] = 0
    assert casloop.succeeding(off, rem, 4).tolist() == [0]  # 4 bytes: one phase, one bank, one winner


def _run(kernel, block, args):
    r = analyze_source(SRC, kernel, (block,), args=args)
    ins = {a.split("=")[0]: fill(a.split("=")[0], parse_arg(a)[1]) for a in args if "[" in a}
    return r, ins


def test_the_loop_computes_what_the_atomics_compute():
    r, ins = _run("loop_ops", 64, ["k_=int32[64]", "v_=uint64[64]:1..1023", "out=int64[1024]"])
    assert [s.atomic_rule for s in r.sites if s.kind == "atomic"] == ["spin"] * 7  # ptxas looped every one
    got = r.buffers["out"][: 9 * 64].reshape(9, 64)
    t = np.arange(64)
    k = ins["k_"] & 7
    v = ins["v_"].astype(object)
    for key in range(8):
        lanes = np.flatnonzero(k == key)
        olds = got[0, lanes]  # the running sums of the lanes' values, in some serial order
        order = np.argsort(olds, kind="stable")
        assert np.array_equal(olds[order], np.concatenate([[0], np.cumsum(ins["v_"][lanes][order])[:-1]]))
        assert int(got[4, key]) == int(sum(v[lanes]))
        assert int(got[5, key]) == max([0] + [int(v[i]) - 512 for i in lanes])
        assert all(int(got[1, i]) <= int(got[5, key]) for i in lanes)
        assert got[6, key].astype(np.int32).view(np.float32) == np.float32(((t[lanes] & 7) * 0.25).sum())
        assert got[7, key].view(np.float64) == (t[lanes] * 0.5).sum()
    xor = 0
    for x in v:
        xor ^= int(x)
    assert [int(x) & (2**64 - 1) for x in got[8, :3]] == [2**64 - 1, 0, xor]


@pytest.mark.parametrize("start, trips, cas", [(0, 1, 0), (1000, 2, 1)])
def test_min_lanes_that_change_nothing_leave_before_the_cas(start, trips, cas):
    """All 32 lanes atomicMin one word with threadIdx + 5: from 0 nothing changes (one LDS, no CAS);
    from 1000 lane 0 writes 5 in the first execution, and in the second every other lane reads 5 and
    leaves."""
    r = analyze_source(SRC, "min_leaves", (32,), args=[f"start={start}", "out=uint64[33]"])
    out = r.buffers["out"]
    assert out[32] == min(start, 5)
    assert out[:32].tolist() == [start] + [min(start, 5)] * 31
    loop_load = sum(ls.requests for ls in r.lines if ls.kind == "load") - 1  # less the final read of s
    assert (loop_load, r.totals("atomic")["requests"], r.totals("atomic")["wavefronts"]) == (trips, cas, 4 * cas)


@pytest.mark.parametrize("pattern", [1, 11, 30])
def test_without_the_sass_the_ptx_says_which_atomics_loop(pattern):
    """analyze_ptx has no cubin to disassemble: the PTX type and operation decide, with the same counts."""
    args = [f"addr={PATTERNS}", f"pattern={pattern}", "out=uint64[512]"]
    with_sass = analyze_source(str(PATTERN_SRC), "atomic_add64_pattern", (32,), args=args)
    text = PATTERN_SRC.read_text()
    alone = analyze_ptx(compile_ptx(text, str(PATTERN_SRC)).ptx, "atomic_add64_pattern", (32,), args=args, source=text)
    for op in ("load", "store", "atomic"):
        assert alone.totals(op) == with_sass.totals(op), op
    assert with_sass.totals("atomic")["requests"] > 1  # the loop went round
