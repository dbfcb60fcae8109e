"""The device runtime's calls, as real files make them (compiled by the CUDA 13 wheel's nvcc, whose
headers declare them): a failed assert stops the analysis with the GPU's message, printf prints each
thread's line, malloc serves a heap in global memory."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze import externs
from smemlab.analyze.args import fill, parse_arg
from smemlab.analyze.session import analyze_ptx
from smemlab.errors import UserError

SRC = Path(__file__).parent / "data" / "analyze" / "device_runtime.cu"


@pytest.fixture(scope="module")
def run(nvcc_ptx):
    def go(kernel: str, args: list[str], block: int = 32):
        r = analyze_ptx(nvcc_ptx(SRC), kernel, (block,), args=args, source=SRC.read_text())
        assert r.refused == []
        return r.buffers, {a.split("=")[0]: fill(a.split("=")[0], parse_arg(a)[1]) for a in args if "[" in a}
    return go


def test_a_passing_assert_costs_nothing(run):
    out, ins = run("checked", ["in=int32[32]:0..9", "out=int32[32]", "n=10"])
    assert out["out"].tolist() == (ins["in"] * 2).tolist()


def test_a_failed_assert_stops_with_the_gpus_message(run):
    with pytest.raises(UserError) as exc:
        run("checked", ["in=int32[32]:0..9", "out=int32[32]", "n=5"])
    first = int(np.flatnonzero(fill("in", parse_arg("in=int32[32]:0..9")[1]) >= 5)[0])
    assert re.fullmatch(rf"\S*device_runtime\.cu:7: void checked\(const int \*, int \*, int\): block: \[0,0,0\], "
                        rf"thread: \[{first},0,0\] Assertion `x < n` failed\. .*--define NDEBUG.*", str(exc.value))


def test_printf_prints_each_threads_line_and_returns_its_length(run, capsys):
    out, ins = run("prints", ["in=int32[64]", "f=float32[64]", "out=int32[64]"], block=64)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == externs.MAX_LINES + 1 and err[-1] == f"... {64 - externs.MAX_LINES} more lines"
    for t in range(64):
        x, f = int(ins["in"][t]), float(ins["f"][t])
        text = "t=%d x=%5d|%-4u|%x|%08.3f|%e|%g|%s|%c|%d|%d|%%\n" % (
            t, x, x, x, f, f * 1e5, f, "odd" if x & 1 else "even", chr(97 + x % 26),
            x << 33, x)
        assert out["out"][t] == len(text)
        if t < externs.MAX_LINES:
            assert err[t] == f"[block (0,0,0) thread ({t},0,0)] {text[:-1]}"


def test_malloc_serves_aligned_memory_from_the_heap(run):
    out, ins = run("heap", ["in=int32[32]", "out=int32[32]"])
    assert out["out"].tolist() == (ins["in"] * 2 + 3).tolist()  # p[0] + p[3], and p 16-byte aligned


def test_printf_formats_as_c_does():
    raw = struct.pack("<iiixxxxdQ", -42, 7, 99, 2.5, 0x1234)  # each argument at its own alignment
    assert externs.format_printf("%+05d|%*d|%.2e|%p|%s", externs.Args(raw + struct.pack("<Q", 0)),
                                 lambda a: "?") == "-0042|     99|2.50e+00|0x1234|(null)"


NVRTC_SOURCE = """__global__ void k(const int* in, int* out, int n)
{
    int x = in[threadIdx.x];
    assert(x < n);
    out[threadIdx.x] = x;
}
"""


def test_the_cli_reports_a_failed_assert_and_ndebug_removes_it(tmp_path, capsys):
    from smemlab.cli import main

    src = tmp_path / "k.cu"
    src.write_text(NVRTC_SOURCE)  # NVRTC declares assert itself
    argv = ["analyze", str(src), "--kernel", "k", "--block", "32", "--arg", "in=int32[32]:0..9", "--arg",
            "out=int32[32]", "--arg", "n=5"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "k.cu:4: void k(const int *, int *, int): block: [0,0,0], thread: [" in err
    assert "Assertion `x < n` failed." in err and len(err.strip().splitlines()) == 1
    assert main(argv + ["--define", "NDEBUG"]) == 0
