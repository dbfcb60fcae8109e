"""Warp-specialised kernels: paths that all spin on mbarriers take turns, so a consumer group that
spun before its phase completed runs again (Executor._bring_up_another); Triton's warp_specialize
matmul analyses to the same data movement as the plain one."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze import analyze_source

DATA = Path(__file__).parent / "data" / "analyze"


@pytest.mark.parametrize("first, second", list(itertools.permutations(range(3), 2)))
def test_spinning_paths_take_turns_so_the_one_spinning_longest_runs_again(first, second):
    # warp `first` spins until x is set, then sets y; the other two spin on y. Taking the topmost spinning
    # path each time let the two later spinners swap places at the top forever, the first never ran again
    r = analyze_source(str(DATA / "spin.cu"), "relay", (96,),
                       args=["out=int32[96]", f"first={first}", f"second={second}"])
    want = np.empty(96, dtype=np.int64)
    third = 3 - first - second
    want[first * 32:(first + 1) * 32] = 1
    want[second * 32:(second + 1) * 32] = 12
    want[third * 32:(third + 1) * 32] = 18
    assert r.buffers["out"].tolist() == want.tolist()


def test_triton_warp_specialized_matmul_moves_what_the_plain_one_does():
    pytest.importorskip("triton")
    from smemlab.analyze import triton_front

    rng = np.random.default_rng(0)
    a = (rng.standard_normal((256, 256)) / 8).astype(np.float16)
    b = (rng.standard_normal((256, 256)) / 8).astype(np.float16)
    runs = {}
    for name in ("mm_ws", "mm_plain"):
        runs[name] = triton_front.analyze(
            str(DATA / "ws_matmul.py"), (2, 2, 1), name=name, num_warps=4,
            values={"a_ptr": a, "b_ptr": b, "c_ptr": np.zeros((256, 256), np.float16), "M": 256, "N": 256, "K": 256},
            constexprs={"BM": 128, "BN": 128, "BK": 64})
    ws, plain = runs["mm_ws"], runs["mm_plain"]
    assert ws.block == (384, 1, 1)  # the default partition and two consumer warp groups
    want = a[:128].astype(np.float32) @ b[:128].astype(np.float32).T
    for r in (ws, plain):
        c = np.asarray(r.buffers["c_ptr"], dtype=np.float32).reshape(256, 256)
        assert np.allclose(c[:128, :128], want, atol=2e-2, rtol=2e-2)  # every k-step's tiles loaded and multiplied
    assert ws.totals("wgmma")["wavefronts"] == plain.totals("wgmma")["wavefronts"] == 1536
    assert ws.totals("global store")["sectors"] == plain.totals("global store")["sectors"] == 1024
