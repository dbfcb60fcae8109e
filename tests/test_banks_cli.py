"""`smemlab bank`: JSON, text, PNG, suggestions, and one-line errors with a non-zero exit."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from smemlab.cli import main

SEED = ["tile[threadIdx.x][threadIdx.y]", "--shape", "32,32", "--dtype", "int", "--block", "32,32"]


def run_json(capsys, argv):
    assert main(["bank", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)


def test_json_seed_and_padding(capsys):
    d = run_json(capsys, SEED)
    assert (d["requests"], d["wavefronts"], d["wavefronts_per_request"], d["ideal_wavefronts"]) == (32, 1024, 32.0, 32)
    d = run_json(capsys, [*SEED, "--pad", "1"])
    assert d["wavefronts_per_request"] == 1.0 and d["shape"] == [32, 33]
    d = run_json(capsys, ["tile[(ty*32+tx)%16][(ty*32+tx)/16]", "--shape", "16,32", "--dtype", "int",
                          "--block", "32,16", "--op", "store"])
    assert d["wavefronts_per_request"] == 16.0


def test_json_suggestion(capsys):
    d = run_json(capsys, [*SEED, "--suggest"])
    s = d["suggestion"]
    assert {"pad", "pad_wavefronts", "swizzle", "swizzle_wavefronts"} <= set(s)
    assert (s["pad"], s["pad_wavefronts"], s["swizzle_wavefronts"]) == (1, 32, 32)
    d = run_json(capsys, ["s[tx]", "--shape", "32", "--dtype", "float", "--block", "32", "--suggest"])
    assert d["suggestion"]["swizzle"] is None and d["suggestion"]["pad"] == 0


def test_text_output_has_map_totals_and_advice(capsys):
    assert main(["bank", *SEED, "--suggest"]) == 0
    out = capsys.readouterr().out
    for text in ("warps 0-31", "32-way conflict", "wavefronts/request 32", "bank map of warp 0",
                 "__shared__ int tile[32][33];", "tile[threadIdx.x][threadIdx.y ^ threadIdx.x]"):
        assert text in out


def test_active_partial_warps_and_3d_blocks(capsys):
    d = run_json(capsys, ["s[tx+64]", "--shape", "128", "--dtype", "float", "--block", "128", "--active", "tx < 64"])
    assert (d["requests"], d["wavefronts"]) == (2, 2)
    d = run_json(capsys, ["s[tz][ty][tx]", "--shape", "3,5,7", "--dtype", "double", "--block", "7,5,3"])
    assert d["requests"] == 4 and len(d["per_warp"]) == 4 and d["per_warp"][-1]["active_threads"] == 105 - 96


def test_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "map.png"
    assert main(["bank", *SEED, "--png", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["bank", *SEED, "--png", str(tmp_path / "no" / "such" / "dir.png")]) == 2


@pytest.mark.parametrize("argv", [
    ["tile[tx][ty", "--shape", "32,32", "--dtype", "int", "--block", "32,32"],
    ["tile[tx][zz]", "--shape", "32,32", "--dtype", "int", "--block", "32,32"],
    ["tile[tx][ty+1]", "--shape", "32,32", "--dtype", "int", "--block", "32,32"],
    ["tile[tx][ty/0]", "--shape", "32,32", "--dtype", "int", "--block", "32,32"],
    ["tile[tx][ty]", "--shape", "32,32", "--dtype", "int", "--block", "64,32"],
    ["tile[tx][ty]", "--shape", "32,32", "--dtype", "int9", "--block", "32,32"],
    ["tile[tx][ty]", "--shape", "32,a", "--dtype", "int", "--block", "32,32"],
    ["tile[tx][ty]", "--shape", "32,32", "--dtype", "int", "--block", "32,32", "--pad", "-1"],
    ["tile[tx][ty]", "--shape", "32,32", "--dtype", "int", "--block", "32,32", "--warp", "99"],
    ["tile[tx][ty]", "--shape", "32,32", "--dtype", "int", "--block", "32,32", "--active", "tx <"],
])
def test_errors_are_one_line_and_exit_2(argv, capsys):
    assert main(["bank", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("smemlab: ") and err.count("\n") == 1 and "Traceback" not in err


def test_subprocess_exit_status_and_no_traceback():
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    r = subprocess.run([sys.executable, "-m", "smemlab", "bank", "s[tx % 0]", "--shape", "32", "--dtype", "int",
                        "--block", "32"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "remainder by zero" in r.stderr
