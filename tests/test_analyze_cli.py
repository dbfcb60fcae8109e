"""`smemlab analyze` through the command line: output, JSON, bank maps, and every bad input gets one
clear line and exit status 2 (no traceback, no hang). No GPU needed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smemlab.cli import main

DATA = Path(__file__).parent / "data" / "analyze"
BAD = str(DATA / "bad.cu")
EXAMPLE = str(Path(__file__).parent.parent / "examples" / "transpose_naive.cu")
EXAMPLE_ARGS = ["--kernel", "transposeNaive", "--block", "32,8", "--grid", "4,4", "--arg", "out=float32[16384]",
                "--arg", "in=float32[16384]", "--arg", "n=128"]


def run_cli(capsys, *argv):
    rc = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_table_worst_line_first_with_a_fix(capsys):
    rc, out, err = run_cli(capsys, EXAMPLE, *EXAMPLE_ARGS)
    assert rc == 0, err
    rows = [ln for ln in out.splitlines() if "transpose_naive.cu:" in ln and "│" in ln]
    assert "32-way" in rows[0] and "load" in rows[0]  # the column read of the tile comes first
    assert "store" in rows[1] and "none" in rows[1]
    assert "fix" in out and "32-way bank conflict" in out


def test_json_is_one_object_with_the_documented_keys(capsys):
    rc, out, err = run_cli(capsys, EXAMPLE, *EXAMPLE_ARGS, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    for key in ("kernel", "block", "grid", "load", "store", "atomic", "lines"):
        assert key in doc
    assert doc["load"] == {"requests": 32, "wavefronts": 1024, "ideal_wavefronts": 32, "instructions": 32}
    assert doc["store"]["wavefronts"] == doc["store"]["ideal_wavefronts"] == 32
    assert doc["atomic"] == {"requests": 0, "wavefronts": 0, "ideal_wavefronts": 0, "instructions": 0}
    line = doc["lines"][0]
    for key in ("file", "line", "source", "op", "bytes", "requests", "wavefronts", "ideal_wavefronts"):
        assert key in line
    assert line["op"] == "load" and line["bytes"] == 4 and "tile[threadIdx.x]" in line["source"]


def test_line_bank_map_text_and_png(capsys, tmp_path):
    png = tmp_path / "map.png"
    line = json.loads(run_cli(capsys, EXAMPLE, *EXAMPLE_ARGS, "--json")[1])["lines"][0]["line"]
    rc, out, err = run_cli(capsys, EXAMPLE, *EXAMPLE_ARGS, "--line", str(line), "--png", str(png))
    assert rc == 0, err
    assert "bank map of warp" in out and "32 wavefronts" in out
    assert png.stat().st_size > 1000


BAD_CASES = {
    "compile error": (["--kernel", "k", "--block", "32"], "does not compile"),
    "shared out of bounds": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=float32[64]", "--arg", "n=1"],
                             "thread 63 (threadIdx 63,0,0, warp 1 lane 31): load of 4 bytes at shared offset 256"),
    "global out of bounds": (["--kernel", "global_oob", "--block", "64", "--arg", "out=float32[64]", "--arg", "n=1"],
                             "bytes past the end of out"),
    "divergent barrier": (["--kernel", "divergent_barrier", "--block", "256", "--arg", "out=float32[256]"],
                          "divergent barrier: threads 0-63 reach it but threads 64-255"),
    "named barrier that never completes": (["--kernel", "named_barrier_hang", "--block", "128", "--arg",
                                            "out=float32[128]"], "barrier 1 waits for 96 threads, but only 64 arrive"),
    "jump table index past its list": (["--kernel", "jump_past_the_list", "--block", "32", "--arg", "out=float32[32]"],
                                       "thread 2 (threadIdx 2,0,0, warp 0 lane 2): brx.idx index 2 is past the 2"),
    "endless loop": (["--kernel", "spins", "--block", "32", "--arg", "flag=float32[4]:0..1"],
                     "bad.cu:27 `while (flag[0] < 2.0f) {`: this loop makes no progress: warp 0 came back"),
    "loop past the step limit": (["--kernel", "spins", "--block", "32", "--arg", "flag=float32[4]:0..1",
                                  "--max-steps", "100"], "--max-steps 100"),
    "bad time limit": (["--kernel", "spins", "--block", "32", "--time-limit", "soon"],
                       "--time-limit 'soon' is not a number of seconds"),
    "unsupported instruction": (["--kernel", "unsupported", "--block", "32", "--arg", "out=float32[32]"],
                                "`stacksave.u64` is not supported"),
    "trap": (["--kernel", "traps", "--block", "32", "--arg", "out=float32[32]"], "thread 5"),
    "misaligned": (["--kernel", "misaligned", "--block", "32", "--arg", "out=float32[32]"], "misaligned"),
    "struct by value given a number": (["--kernel", "by_value", "--block", "32", "--arg", "p=3", "--arg",
                                        "out=int32[32]"], "a struct of 8 bytes (Pair) passed by value; give its bytes"),
    "struct by value given the wrong size": (["--kernel", "by_value", "--block", "32", "--arg", "p=int32[3]", "--arg",
                                              "out=int32[32]"], "12 bytes for parameter p, a struct of 8 bytes"),
    "struct by value with no argument": (["--kernel", "by_value", "--block", "32", "--arg", "out=int32[32]"],
                                         "p (Pair, a struct of 8 bytes: --arg p.FIELD=... for each field it uses"),
    "missing argument": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=float32[64]"],
                         "needs 1 more --arg: n (int): e.g. --arg n=1024"),
    "unknown argument": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=float32[64]", "--arg", "n=0",
                          "--arg", "m=1"], "has no parameter of that name (its parameters: out, n)"),
    "scalar for a pointer": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=3", "--arg", "n=0"],
                             "is a pointer"),
    "buffer for a scalar": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=float32[64]",
                             "--arg", "n=int32[4]"], "is not a pointer"),
    "float for an int": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=float32[64]", "--arg", "n=1.5"],
                         "give an integer"),
    "bad dtype": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=flaot[64]", "--arg", "n=0"],
                  "unknown dtype"),
    "range outside the dtype": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=int8[64]:0..1000",
                                 "--arg", "n=0"], "does not fit int8"),
    "missing npy": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=nothere.npy", "--arg", "n=0"],
                    "no file nothere.npy"),
    "unknown kernel": (["--kernel", "nope", "--block", "64"], "has no kernel of that name"),
    "block too big": (["--kernel", "shared_oob", "--block", "64,32"], "a block holds at most 1024"),
    "block index outside the grid": (["--kernel", "shared_oob", "--block", "64", "--grid", "2",
                                      "--block-index", "2,0,0"], "outside the grid"),
    "line without shared memory": (["--kernel", "shared_oob", "--block", "64", "--arg", "out=float32[64]",
                                    "--arg", "n=0", "--line", "99"], "--line 99"),
    "png without line": (["--kernel", "shared_oob", "--block", "64", "--png", "x.png"], "give --line too"),
}


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_input_is_one_line_and_status_2(name, capsys, tmp_path):
    argv, needle = BAD_CASES[name]
    src = BAD
    if name == "compile error":
        src = str(tmp_path / "broken.cu")
        Path(src).write_text('extern "C" __global__ void k(int *a) { a[threadIdx.x] = undefined_thing; }\n')
    rc, out, err = run_cli(capsys, src, *argv)
    assert rc == 2, (out, err)
    assert "Traceback" not in err and out == ""
    assert needle in err, err
    if name == "compile error":
        assert "broken.cu(1): error" in err  # NVRTC's log, with the file's line numbers
    else:
        assert len(err.strip().splitlines()) == 1, err


def test_missing_file(capsys):
    rc, out, err = run_cli(capsys, "no/such/file.cu", "--kernel", "k", "--block", "32")
    assert rc == 2 and "no such file" in err


def test_early_return_before_a_barrier_is_fine(capsys):
    rc, out, err = run_cli(capsys, BAD, "--kernel", "early_return", "--block", "256", "--arg", "out=float32[256]",
                           "--arg", "n=100", "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["store"]["requests"] == 4  # warps 0-3 hold threads below 100


def test_help_has_examples(capsys):
    assert main(["analyze", "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "--arg" in out


def test_a_struct_passed_by_value_takes_its_bytes(tmp_path):
    # Pair {int a, b} by value: from a buffer's fill with a range, or from a .npy of its fields
    from smemlab.analyze import analyze_source

    r = analyze_source(BAD, "by_value", (32,), args=["p=int32[2]:5..5", "out=int32[32]"])
    assert r.buffers["out"].tolist() == [10] * 32
    np.save(tmp_path / "pair.npy", np.array([3, 4], dtype=np.int32))
    r = analyze_source(BAD, "by_value", (32,), args=[f"p={tmp_path / 'pair.npy'}", "out=int32[32]"])
    assert r.buffers["out"].tolist() == [7] * 32


CLUSTER_HIST = ["package:book/histogram.cu", "--kernel", "clusterHist_kernel", "--block", "256", "--grid", "4",
                "--dynamic-shared", "256", "--arg", "bins=int32[256]", "--arg", "nbins=256", "--arg",
                "bins_per_block=64", "--arg", "input=int32[8192]:0..255", "--arg", "array_size=8192"]


def test_cluster_runs_every_block_and_marks_remote_lines(capsys):
    rc, out, err = run_cli(capsys, *CLUSTER_HIST, "--cluster", "4", "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["cluster"] == [4, 1, 1]
    (atomic,) = [ln for ln in doc["lines"] if ln["op"] == "atomic"]
    assert atomic["dsmem"] and atomic["remote_requests"] > 0 and atomic["requests"] > 0
    assert any("distributed shared memory" in n for n in doc["notes"])
    rc, out, err = run_cli(capsys, *CLUSTER_HIST, "--cluster", "4")
    assert rc == 0, err
    assert "cluster of 4x1x1 blocks emulated" in out and "atomic dsmem" in out and "remote" in out


@pytest.mark.parametrize("cluster, message", [("3", "not a whole number of clusters"), ("2,0", "positive integers"),
                                              ("1", "mapa to block rank")])
def test_bad_cluster_is_one_line_and_status_2(cluster, message, capsys):
    rc, out, err = run_cli(capsys, *CLUSTER_HIST, "--cluster", cluster)
    assert rc == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("kernel", ["transposeFirstTry", "transposePadded"])
def test_readme_analyze_example_is_a_real_run(kernel):
    """The README's analyze example: each of its table rows for `kernel` is a line of the real output
    at 100 columns (the uncoalesced store beside the 32-way conflict, then the fix for both)."""
    import os
    import re
    import subprocess
    import sys

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme.split(f"`{kernel}`", 1)[1].split("```", 2)[1]
    rows = [ln.rstrip() for ln in block.splitlines() if ln.startswith("  …/transpose_naive.cu")]
    assert rows
    env = dict(os.environ, COLUMNS="100")
    out = subprocess.run([sys.executable, "-m", "smemlab", "analyze", EXAMPLE, "--kernel", kernel, "--block", "32,8",
                          "--grid", "4,4", "--arg", "out=float32[16384]", "--arg", "in=float32[16384]", "--arg", "n=128"],
                         capture_output=True, text=True, env=env, check=True).stdout
    lines = {re.sub(r"\s+$", "", ln) for ln in out.splitlines()}
    assert all(r in lines for r in rows), [r for r in rows if r not in lines]


@pytest.mark.slow  # Numba and Triton imported and compiled, 4 s on 2 cores: make test runs it, the inner loop does not
def test_readme_python_kernels_example_is_a_real_run():
    """The README's Numba and Triton example: each command, run from the repository root at 100
    columns, prints each of the table rows shown under it (rows cut to their first line)."""
    import os
    import re
    import shlex
    import subprocess
    import sys

    pytest.importorskip("numba")
    pytest.importorskip("triton")
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    block = readme.split("A Numba and a Triton kernel of", 1)[1].split("```", 2)[1]
    runs, lines = [], block.strip("\n").splitlines()
    for ln in lines:
        if ln.startswith("$ smemlab ") or (runs and runs[-1][0].endswith("\\") and not runs[-1][1]):
            if ln.startswith("$ "):
                runs.append([ln[2:], []])
            else:
                runs[-1][0] = runs[-1][0][:-1] + ln.strip()
        elif ln.startswith("  …/"):
            runs[-1][1].append(ln.rstrip())
    assert [bool(rows) for _, rows in runs] == [True, True] and "--triton" in runs[1][0]
    env = dict(os.environ, COLUMNS="100")
    for command, rows in runs:
        argv = shlex.split(command)
        out = subprocess.run([sys.executable, "-m", "smemlab", *argv[1:]], capture_output=True, text=True, env=env,
                             cwd=root, check=True).stdout
        got = {re.sub(r"\s+$", "", ln) for ln in out.splitlines()}
        assert all(r in got for r in rows), (command, [r for r in rows if r not in got])


def test_readme_cub_example_is_a_real_run():
    """The README's CUB example, each command run from the repository root at 100 columns: `--list`
    prints the instances shown, the analysis the table rows shown (rows cut to their first line)."""
    import os
    import re
    import shlex
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    block = readme.split("A file with CUB as it sits", 1)[1].split("```", 2)[1]
    runs = []
    for ln in block.strip("\n").splitlines():
        if ln.startswith("$ "):
            runs.append([ln[2:], []])
        elif runs and runs[-1][0].endswith("\\") and not runs[-1][1]:
            runs[-1][0] = runs[-1][0][:-1] + ln.strip()
        elif ln.strip() and ln.strip() != "...":
            runs[-1][1].append(ln.rstrip())
    assert len(runs) == 2 and all(rows for _, rows in runs) and "--list" in runs[0][0]
    env = dict(os.environ, COLUMNS="100")
    for command, rows in runs:
        argv = shlex.split(command)
        done = subprocess.run([sys.executable, "-m", "smemlab", *argv[1:]], capture_output=True, text=True, env=env,
                              cwd=root)
        if done.returncode and "nvcc" in done.stderr:  # no compiler on this machine: said, not wrong
            pytest.skip(done.stderr.strip().splitlines()[-1])
        assert done.returncode == 0, done.stderr
        lines = {re.sub(r"\s+$", "", ln) for ln in done.stdout.splitlines()}
        assert all(r in lines for r in rows), [r for r in rows if r not in lines]
