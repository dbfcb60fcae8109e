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
    for text in ("warps 0-31", "32-way conflict", "32 requests, 1024 wavefronts (ideal 32): 32 wavefronts per request "
                 "(ideal 1), 992 bank conflicts", "bank map of warp 0",
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


def test_suggest_finds_the_row_stride_of_a_1d_array(capsys):
    # the book's dynamic shared memory: a 1-D tile read by column, fixed with a row stride of 33
    book = ["tile[((ty*32+tx)%32)*32+((ty*32+tx)/32)]", "--shape", "1024", "--dtype", "int", "--block", "32,32"]
    s = run_json(capsys, [*book, "--suggest"])["suggestion"]
    assert (s["pad"], s["pad_row_stride"], s["pad_wavefronts"], s["pad_reaches_ideal"]) == (1, 33, 32, True)
    assert s["pad_declaration"] == "__shared__ int tile[1056];"
    assert s["pad_expr"] == "tile[((ty*32+tx)%32)*33+((ty*32+tx)/32)]"
    assert s["swizzle_wavefronts"] == 32
    # the rewritten expressions are what they claim to be
    d = run_json(capsys, [s["pad_expr"], "--shape", "1056", "--dtype", "int", "--block", "32,32"])
    assert d["wavefronts_per_request"] == 1
    d = run_json(capsys, [s["swizzle"], "--shape", "1024", "--dtype", "int", "--block", "32,32"])
    assert d["wavefronts_per_request"] == 1
    assert main(["bank", *book, "--suggest"]) == 0
    out = capsys.readouterr().out
    assert "row stride 33: __shared__ int tile[1056];  tile[((ty*32+tx)%32)*33+((ty*32+tx)/32)]" in out


@pytest.mark.parametrize("expr,shape,block,stride", [
    ("tile[((ty*32+tx)%16)*32+((ty*32+tx)/16)]", "512", "32,16", 34),  # the rectangle needs two
    ("s[32*tx + 1]", "1056", "32", 33),  # W first, and a column term
    ("s[tx*32]", "1024", "32", 33),  # no column term
])
def test_row_stride_forms(capsys, expr, shape, block, stride):
    s = run_json(capsys, [expr, "--shape", shape, "--dtype", "int", "--block", block, "--suggest"])["suggestion"]
    assert s["pad_row_stride"] == stride and s["pad_reaches_ideal"]


def test_a_1d_index_that_is_not_rows_keeps_the_plain_answer(capsys):
    s = run_json(capsys, ["s[(tx*2)%64]", "--shape", "64", "--dtype", "int", "--block", "32", "--suggest"])
    assert s["wavefronts"] == 2
    assert s["suggestion"]["pad"] == 0 and s["suggestion"]["swizzle"] is None
    assert s["suggestion"]["pad_expr"] == "s[(tx*2)%64]"


@pytest.mark.parametrize("png,message", [
    ("x.xyz", "ending in .png"), ("noext", "ending in .png"), ("", "needs a file name"), ("/tmp", "that is a folder"),
])
def test_png_names_are_checked(capsys, png, message):
    assert main(["bank", *SEED, "--png", png]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_dtype_is_printed_as_c_declares_it(capsys):
    assert main(["bank", "s[tx]", "--shape", "64", "--dtype", "np.float32", "--block", "32"]) == 0
    assert capsys.readouterr().out.startswith("__shared__ float s[64];")


@pytest.mark.parametrize("option,value", [("--block", "٣٢"), ("--shape", "1_024"), ("--shape", "64.0"),
                                          ("--pad", "1.9"), ("--warp", "٣")])
def test_only_ascii_integers(capsys, option, value):
    argv = {"--block": "32", "--shape": "64", "--pad": "0"}
    argv[option] = value
    args = ["s[tx]", "--dtype", "int"] + [x for k, v in argv.items() for x in (k, v)]
    if option == "--warp":
        args += ["--warp", value]
    assert main(["bank", *args]) == 2
    assert "integer" in capsys.readouterr().err


def test_op_spellings_match_the_api(capsys):
    assert run_json(capsys, ["s[tx]", "--shape", "64", "--dtype", "int", "--block", "32", "--op", "st"])["op"] == "store"
    assert main(["bank", "s[tx]", "--shape", "64", "--dtype", "int", "--block", "32", "--op", "LD"]) == 2
