"""The whole launch (--blocks): the translation rule against emulating every block, on grids whose blocks
move by amounts that are not multiples of a sector. No GPU."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smemlab.analyze import analyze_source
from smemlab.analyze.launch import _residues, sample, whole_launch
from smemlab.cli import main

FILE = str(Path(__file__).parent / "data" / "analyze" / "transpose_global.cu")


def runner(n, grid):
    def run(b):
        return analyze_source(FILE, "transposeNaiveGlobal", (32, 8), grid, b, 0,
                              [f"out=float32[{n * n + 64}]", f"in=float32[{n * n + 64}]", f"n={n}"],
                              compiler="nvrtc", keep_addresses=True)
    return run


@pytest.mark.parametrize("n", [128, 129, 136])
def test_translation_rule_equals_every_block(n):
    # n = 129: a row is 516 bytes, so block rows start at every residue mod 32 and the load's sectors vary
    grid = (3, 3, 1)
    exact = whole_launch(runner(n, grid), grid, "all")
    assert exact.method == "every block" and len(exact.emulated) == 9
    guess = whole_launch(runner(n, grid), grid, 5)
    # five asked for; the first block, its neighbours and the last of each dimension are always emulated
    assert guess.method == "translation" and len(guess.emulated) == 6
    for kind in ("global load", "global store"):
        want, got = exact.totals[kind], guess.totals[kind]
        assert (got["requests"], got["sectors"], got["ideal_sectors"]) == \
               (want["requests"], want["sectors"], want["ideal_sectors"])
        assert want["exact"] and not got["exact"]
    if n == 129:  # a misaligned row start costs the load an extra sector in most blocks
        assert exact.totals["global load"]["sectors"] > exact.totals["global load"]["ideal_sectors"]


def test_residue_counts():
    # 0, 4, ..., 28, then 32 = 0 and 36 = 4 again
    assert _residues(10, 4).tolist()[:12] == [2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]
    assert _residues(10, 4).sum() == 10
    assert _residues(100, 0)[0] == 100
    h = _residues(1000, 516)  # 516 = 4 mod 32: period 8
    assert h.sum() == 1000 and set(np.flatnonzero(h)) == {0, 4, 8, 12, 16, 20, 24, 28}


def test_sample_has_the_edges():
    s = sample((128, 64, 1), 8)
    assert {(0, 0, 0), (1, 0, 0), (0, 1, 0), (127, 0, 0), (0, 63, 0), (127, 63, 0)} <= set(s) and len(s) == 8


def test_cli_blocks_json(capsys):
    rc = main(["analyze", FILE, "--block", "32,8", "--grid", "4,4", "--arg", "out=float32[16384]",
               "--arg", "in=float32[16384]", "--arg", "n=128", "--blocks", "all", "--json", "--compiler", "nvrtc"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["launch"]["exact"] and doc["launch"]["blocks"] == 16
    assert doc["launch"]["global_store"]["sectors"] == 16 * doc["global_store"]["sectors"]
    (store,) = [ln for ln in doc["lines"] if ln["op"] == "global store"]
    assert store["sectors"] == 32 * store["requests"] and store["cause"] == {"cause": "stride", "stride": 128}


def _nine_blocks(name: str, kernel: str, args: list[str], kind: str):
    """(the block runner, the totals of `kind` over every block) of a kernel of tests/data/analyze launched as 9
    blocks of 64 threads, after checking that the translation rule from a sample of 4 gives those totals."""
    file = str(Path(__file__).parent / "data" / "analyze" / name)
    grid = (9, 1, 1)

    def run(b):
        return analyze_source(file, kernel, (64, 1, 1), grid, b, 0, args, compiler="nvrtc", keep_addresses=True)

    exact = whole_launch(run, grid, "all")
    guess = whole_launch(run, grid, 4)
    assert exact.method == "every block" and guess.method == "translation"
    want, got = exact.totals[kind], guess.totals[kind]
    assert (got["requests"], got["sectors"], got["ideal_sectors"]) == \
           (want["requests"], want["sectors"], want["ideal_sectors"])
    return run, want


def test_translation_rule_counts_16_byte_copies_by_line_and_destination():
    # nine blocks 16 bytes apart: their copies start at every 16-byte residue of a 128-byte line, and the
    # counted sectors (coalescing.copy_counted_sectors) change with the residue mod 128, not mod 32
    run, _ = _nine_blocks("copy_shifted.cu", "copyShifted", ["out=float32[576]", "in=float32[640]", "step=4"],
                          "global ldgsts")
    # the counter's sectors, not the source view's: block 0 alone, 2 warps of 5 chunks a line of 8 lanes
    assert run((0, 0, 0)).memory_totals("global ldgsts")["sectors"] == 2 * 20
    assert sum(s.wavefronts for s in run((0, 0, 0)).memory_sites if s.kind == "global ldgsts") == 2 * 32


def test_translation_rule_costs_atomics_by_their_busiest_word():
    # nine blocks 3 words apart: the residues of a sector change whether a warp's 8 words straddle two sectors
    run, want = _nine_blocks("atomic_shifted.cu", "atomicShifted",
                             ["counts=uint32[128]", "old=uint32[576]", "hits=int32[64]:1..3", "step=3"], "global atomic")
    block0 = run((0, 0, 0)).memory_totals("global atomic")
    assert (block0["requests"], block0["sectors"]) == (2, 2 * 4)  # block 0: its warps' 8 words in one sector each
    assert want["sectors"] > 9 * 2 * 4  # some blocks straddle two sectors


def test_a_grid_of_clusters_sums_each_cluster_once():
    # a report of a clustered launch holds its whole cluster: the launch is the sum over the clusters, each run at
    # its first block (a grid of 4 blocks in clusters of 2: two runs, at blocks 0 and 2)
    from types import SimpleNamespace

    from smemlab.analyze.globalledger import MEMORY_KINDS

    ran = []

    def run(b):
        ran.append(b)
        return SimpleNamespace(memory_totals=lambda k: {"requests": 4 if k == "global load" else 0, "sectors": 16
                                                        if k == "global load" else 0, "ideal_sectors": 0})
    got = whole_launch(run, (4, 1, 1), "all", (2, 1, 1))
    assert ran == [(0, 0, 0), (2, 0, 0)] and got.blocks == 4 and got.method == "every block"
    assert got.totals["global load"]["requests"] == 8 and got.totals["global load"]["sectors"] == 32
    assert set(got.totals) == set(MEMORY_KINDS)


def _truth(case_id: str) -> dict:
    fixture = json.loads((Path(__file__).parent / "data" / "analyze_truth.json").read_text())
    return next(c for c in fixture["cases"] if c["id"] == case_id)


@pytest.mark.parametrize("case_id, extra", [
    ("fresh5.numba.laplace_u8_edges", ["--block", "16,16"]),
    ("fresh5.triton.repetition_penalty", ["--triton", "--num-warps", "1"]),
])
def test_python_kernels_whole_launch_as_nsight_compute_counts_it(case_id, extra, capsys):
    case = _truth(case_id)
    pytest.importorskip(case["compiler"])
    from importlib.metadata import version

    here = {k: version(k.replace("_", "-")) for k in case.get("front_end", {})}
    if here != case.get("front_end"):  # another release compiles other PTX (test_analyze_truth._other_front_end)
        pytest.skip(f"the truth is of {case.get('front_end')}'s cubins; this machine has {here}")
    root = Path(__file__).parent.parent
    argv = ["analyze", str(root / case["file"]), "--kernel", case["kernel"], "--grid", ",".join(map(str, case["grid"])),
            "--blocks", "all", "--json", *extra]
    argv += [x for a in case["args"] for x in ("--arg", a)]
    argv += [x for k, v in (case.get("constexprs") or {}).items() for x in ("--constexpr", f"{k}={v}")]
    assert main(argv) == 0
    launch = json.loads(capsys.readouterr().out)["launch"]
    assert launch["exact"] and launch["emulated"] == launch["blocks"] == int(np.prod(case["grid"]))
    for kind in ("global load", "global store"):
        want = case["memory"]["totals"][kind]
        got = launch[kind.replace(" ", "_")]
        assert (got["requests"], got["sectors"], got["ideal_sectors"]) == \
               (want["requests"], want["sectors"], want["ideal_sectors"]), kind


TICKET = r'''
extern "C" __global__ void sum_with_ticket(const float *x, float *partial, unsigned *ticket, float *total, int n)
{
    __shared__ float s[128];
    __shared__ bool last;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        last = atomicInc(ticket, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x < gridDim.x)  // the last block to finish sums the partials
        atomicAdd(total, partial[threadIdx.x]);
}
'''


def test_blocks_run_in_order_and_see_what_earlier_blocks_wrote(tmp_path):
    # a threadfence reduction: each block takes a ticket; the one that finds itself last (whatever the order, one
    # block does) reads every partial. Emulated alone, every block found the ticket at 0 and none was last
    src = tmp_path / "ticket.cu"
    src.write_text(TICKET)
    grid = (5, 1, 1)

    def run(b):
        return analyze_source(str(src), "sum_with_ticket", (128,), grid, b, 0,
                              ["x=float32[600]", "partial=float32[5]", "ticket=uint32[1]:0..0", "total=float32[1]:0..0",
                               "n=600"], compiler="nvrtc", keep_addresses=True)
    got = whole_launch(run, grid, "all")
    # loads: 4 warps x 5 blocks of x (the last block's 600 - 512 = 88 elements: 3 warps), and the last block's one
    # warp reading the 5 partials
    assert got.totals["global load"]["requests"] == 4 * 4 + 3 + 1
    # atomics: a ticket a block, and the last block's warp adding the partials to the total (one request)
    assert got.totals["global atomic"]["requests"] == 5 + 1
    alone = [run((b, 0, 0)).memory_totals("global atomic")["requests"] for b in range(5)]
    assert sum(alone) == 5  # each block alone takes its ticket and is never last


def test_a_device_variable_is_carried_from_block_to_block(tmp_path):
    """The ticket of a threadfence reduction kept in a `__device__` variable (not an argument): the blocks run in
    order see what the earlier ones left in it, and the last block reads the partials (fresh9.sum_last_block)."""
    src = tmp_path / "ticket.cu"
    src.write_text(TICKET.replace("unsigned *ticket, ", "").replace("atomicInc(ticket,", "atomicInc(&g_ticket,")
                   .replace('extern "C"', '__device__ unsigned g_ticket = 0;\nextern "C"', 1))
    grid = (5, 1, 1)

    def run(b):
        return analyze_source(str(src), "sum_with_ticket", (128,), grid, b, 0,
                              ["x=float32[600]", "partial=float32[5]", "total=float32[1]:0..0", "n=600"],
                              compiler="nvrtc", keep_addresses=True)
    got = whole_launch(run, grid, "all")
    assert got.totals["global atomic"]["requests"] == 5 + 1
    assert got.totals["global load"]["requests"] == 4 * 4 + 3 + 1
