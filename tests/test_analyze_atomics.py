"""Shared-memory atomics against Nsight Compute (tests/data/atomic_truth.json, recorded on an H200 by
tools/truth/atomic_truth): 46 address patterns of one warp, three forms (ATOMS.POPC.INC, ATOMS.ADD,
ATOMS.MAX). No GPU."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smemlab.analyze import analyze_source
from smemlab.analyze.ledger import atomic_costs

ROOT = Path(__file__).resolve().parent.parent
TRUTH = json.loads((ROOT / "tests" / "data" / "atomic_truth.json").read_text())
SOURCE = str(ROOT / "tools" / "truth" / "atomic_truth" / "atomics.cu")
RULE = {"atom_inc": "words", "atom_add": "lanes", "atom_max": "lanes"}


def _addresses(pattern):
    p = np.array(pattern, dtype=np.int64)
    return np.where(p >= 0, p * 4, -1).reshape(1, 32)


def test_the_rule_reproduces_every_measurement():
    wrong = []
    for c in TRUTH["cases"]:
        wf, ideal, _ = atomic_costs(_addresses(TRUTH["patterns"][c["pattern"]]), 4, RULE[c["kernel"]])
        if int(wf[0]) != c["wavefronts"] or int(ideal[0]) != c["wavefronts"] - c["bank_conflicts"]:
            wrong.append((c["pattern"], c["kernel"], int(wf[0]), c["wavefronts"]))
    assert not wrong, wrong


@pytest.mark.parametrize("kernel", sorted(RULE))
@pytest.mark.parametrize("pattern", [1, 3, 7, 15, 38])
def test_analyze_tells_the_forms_apart(kernel, pattern, tmp_path):
    """End to end: the SASS says which form each atomic is, and the counts follow."""
    pat = tmp_path / "pat.npy"
    np.save(pat, np.array(TRUTH["patterns"][pattern], dtype=np.int32))
    r = analyze_source(SOURCE, kernel, (32,), args=[f"pat={pat}", "out=int32[32]"])
    want = next(c for c in TRUTH["cases"] if c["pattern"] == pattern and c["kernel"] == kernel)
    got = r.totals("atomic")
    assert (got["requests"], got["wavefronts"]) == (want["instructions"], want["wavefronts"])


SLOTS = """
extern "C" __global__ void hand_out_slots(const int *keep, int *slots)
{
    __shared__ int count_s;
    if (threadIdx.x == 0) count_s = 0;
    __syncthreads();
    if (keep[threadIdx.x]) {
        int at = atomicAdd(&count_s, 1);  // the result used: a slot a kept lane
        slots[threadIdx.x] = at;
    }
}
"""


def test_an_increment_whose_result_is_used_costs_one_wavefront_a_warp(tmp_path):
    """ptxas aggregates `atomicAdd(&count_s, 1)` over the warp (VOTEU.ANY, FLO, POPC, the leader's guarded
    ATOMS.ADD, SHFL.IDX): one lane's atomic a warp, where 32 lanes on one word would cost 32 (as measured:
    fresh12.bfs_private_frontier, 40 wavefronts for 40 requests)."""
    path = tmp_path / "slots.cu"
    path.write_text(SLOTS)
    keep = np.zeros(128, dtype=np.int32)
    keep[[0, 3, 5, 40, 41, 100]] = 1  # warps 0, 1 and 3 keep some lanes; warp 2 none
    np.save(tmp_path / "keep.npy", keep)
    r = analyze_source(str(path), "hand_out_slots", (128, 1, 1), args=[f"keep={tmp_path / 'keep.npy'}",
                       "slots=int32[128]:-1..-1"], compiler="nvrtc")
    t = r.totals("atomic")
    assert (t["requests"], t["wavefronts"]) == (3, 3)
    slots = r.buffers["slots"].view(np.int32)
    assert sorted(slots[keep == 1].tolist()) == list(range(6))  # each kept lane its own slot
