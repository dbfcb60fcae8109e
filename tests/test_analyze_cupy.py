"""`smemlab analyze FILE.py` on the CuPy kernels of a script (tests/data/python_kernels/cupy_kernels.py), no GPU:
RawKernel and RawModule objects analysed from their source, rows on the script's lines; with CuPy installed
and with the stand-in the front end brings where it is not.

Counts by hand (4-byte banks, 32 of them):
- transpose (32x8 threads, a 32x32 float tile): the column read `tile[threadIdx.x][threadIdx.y + j]` puts a
  warp's 32 lanes on one bank: 4 trips x 8 warps = 32 requests of 32 wavefronts; the row store 32 of 1.
- column_sum<1> (32x32 threads, rows padded to 33): warp 0 reads tile[lane][r], bank (33 lane + r) % 32 =
  (lane + r) % 32, distinct: 32 requests of 1; the 32 warps' row stores 32 of 1.
- scale (32 threads): `s[threadIdx.x * 32 % 64]` puts the lanes on words 0 and 32, one bank: 2 wavefronts.
- cscale (64 threads, complex<float> from CuPy's own header): a warp's 8-byte elements, 256 bytes, 2 wavefronts a
  request, 2 warps, for the store and the reversed load alike.
"""

import contextlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from smemlab.analyze import cupy_front
from smemlab.cli import main
from smemlab.errors import UserError

FILE = Path(__file__).parent / "data" / "python_kernels" / "cupy_kernels.py"
pytestmark = pytest.mark.skipif(importlib.util.find_spec("nvidia") is None, reason="the analyze extra is not installed")
TEXT = FILE.read_text().splitlines()


def _run(script, *argv):
    """`smemlab analyze SCRIPT ARGV...` in this process (a child per call made this module slow): its status,
    standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["analyze", str(script), *argv])
    return SimpleNamespace(returncode=rc, stdout=out.getvalue(), stderr=err.getvalue())


def _cli(*argv):
    done = _run(FILE, *argv, "--json")
    return done.returncode, json.loads(done.stdout)


def _rows(doc):
    return {(Path(r["file"]).name, r["line"], r["op"]): r for r in doc["lines"]}


def test_a_raw_kernel_is_analysed_on_the_scripts_own_lines():
    rc, doc = _cli("--kernel", "transpose", "--block", "32,8", "--arg", "out=float32[1024]",
                   "--arg", "in=float32[1024]", "--arg", "n=32")
    assert rc == 0, doc
    assert (doc["load"]["requests"], doc["load"]["wavefronts"]) == (32, 1024)
    assert (doc["store"]["requests"], doc["store"]["wavefronts"]) == (32, 32)
    rows = _rows(doc)
    read = next(i + 1 for i, ln in enumerate(TEXT) if "= tile[threadIdx.x][threadIdx.y + j]" in ln)
    write = next(i + 1 for i, ln in enumerate(TEXT) if "tile[threadIdx.y + j][threadIdx.x] = in" in ln)
    assert rows[("cupy_kernels.py", read, "load")]["conflict_degree"] == 32
    assert rows[("cupy_kernels.py", write, "store")]["wavefronts"] == 32
    assert rows[("cupy_kernels.py", read, "load")]["source"] == TEXT[read - 1].strip()


@pytest.mark.parametrize("kernel", ["column_sum<1>", "module.column_sum<1>"])
def test_a_raw_modules_template_kernel_by_its_name_expression(kernel):
    rc, doc = _cli("--kernel", kernel, "--block", "32,32", "--arg", "out=float32[32]", "--arg", "in=float32[1024]")
    assert rc == 0, doc
    assert (doc["load"]["requests"], doc["load"]["wavefronts"]) == (32, 32)
    assert (doc["store"]["requests"], doc["store"]["wavefronts"]) == (32, 32)
    assert {Path(r["file"]).name for r in doc["lines"]} == {"cupy_kernels.py"}


def test_a_kernel_built_at_run_time_is_named_by_its_variable():
    rc, doc = _cli("--kernel", "scale", "--block", "32", "--arg", "x=float32[32]", "--arg", "a=2")
    assert rc == 0, doc
    assert (doc["store"]["requests"], doc["store"]["wavefronts"]) == (1, 2)
    assert {r["file"] for r in doc["lines"]} == {f"{FILE}[scale]"}


@pytest.mark.skipif(importlib.util.find_spec("cupy") is None, reason="CuPy is not installed: its headers come with it")
def test_a_kernel_that_includes_cupys_headers_compiles_as_cupy_compiles_it():
    rc, doc = _cli("--kernel", "cscale", "--block", "64", "--arg", "x=complex64[64]", "--arg", "a=2")
    assert rc == 0, doc
    assert (doc["store"]["requests"], doc["store"]["wavefronts"]) == (2, 4)
    assert (doc["load"]["requests"], doc["load"]["wavefronts"]) == (2, 4)


@pytest.mark.parametrize("argv, message", [
    (["--kernel", "axpy", "--block", "32"], "cupy.ElementwiseKernel"),
    (["--kernel", "module", "--block", "32"], "a cupy.RawModule"),
    (["--block", "32"], "name one with --kernel"),
    (["--kernel", "nosuch", "--block", "32"], "no CuPy kernel of that name (its CuPy kernels: cscale, module, scale, transpose)"),
])
def test_what_cannot_be_analysed_is_one_line(argv, message):
    rc, doc = _cli(*argv)
    assert rc == 2 and message in doc["error"]


def test_the_stand_in_reads_the_same_kernels_where_cupy_is_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    found, generated = cupy_front.kernels(cupy_front.load(str(FILE)))
    assert found["transpose"].kernel == "transpose" and found["transpose"].code.lstrip().startswith('extern "C"')
    assert found["module"].kernel is None and found["module"].options == ("-std=c++17",)
    assert generated["axpy"] == "ElementwiseKernel"
    assert cupy_front.pick(str(FILE), "module.column_sum<0>")[1] == "column_sum<0>"
    with pytest.raises(UserError, match="CuPy kernels"):
        cupy_front.pick(str(FILE), None)


def test_list_names_the_cupy_kernels():
    done = _run(FILE, "--list", "--json")
    names = {k["name"]: k.get("cupy") for k in json.loads(done.stdout)["kernels"]}
    assert names == {"transpose": "RawKernel", "module": "RawModule", "scale": "RawKernel", "cscale": "RawKernel"}


def test_the_whole_launch_of_a_raw_kernel():
    """--blocks all on a 4x4 grid of the 128x128 transpose: each block reads and writes 32 rows of 128 bytes
    (4 sectors a request, 32 requests), as the one-block report counts."""
    rc, doc = _cli("--kernel", "transpose", "--block", "32,8", "--grid", "4,4", "--arg", "out=float32[16384]",
                   "--arg", "in=float32[16384]", "--arg", "n=128", "--blocks", "all")
    assert rc == 0, doc
    launch = doc["launch"]
    assert launch["blocks"] == launch["emulated"] == 16 and launch["exact"]
    for kind in ("global_load", "global_store"):
        assert (launch[kind]["requests"], launch[kind]["sectors"]) == (16 * 32, 16 * 128)


def test_a_kernel_made_inside_a_function_is_named_as_unseen(tmp_path):
    script = tmp_path / "made_late.py"
    script.write_text("import cupy as cp\n\ndef make():\n"
                      "    return cp.RawKernel('extern \"C\" __global__ void k(float* x) { x[0] = 1; }', 'k')\n")
    done = _run(script, "--kernel", "k", "--block", "32")
    assert done.returncode == 2 and "top level" in done.stderr and "Traceback" not in done.stderr


MORE = FILE.parent / "cupy_more_kernels.py"
MORE_TEXT = MORE.read_text().splitlines()


def test_a_plain_strings_escaped_newline_keeps_the_scripts_line_numbers():
    """printf("...\\\\n") in a plain string is one line whose text differs from the kernel's; the other lines still
    place the kernel on the script's lines. The column read of the 32x32 tile: 32 warps, 32 wavefronts each."""
    done = _run(MORE, "--kernel", "colread", "--block", "32,32", "--arg", "out=float32[1024]",
                "--arg", "in=float32[1024]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert (doc["load"]["requests"], doc["load"]["wavefronts"]) == (33, 1025)  # and printf's one read of tile[0][0]
    rows = _rows(doc)
    read = next(i + 1 for i, ln in enumerate(MORE_TEXT) if "= tile[threadIdx.x][threadIdx.y]" in ln)
    assert (rows[("cupy_more_kernels.py", read, "load")]["requests"],
            rows[("cupy_more_kernels.py", read, "load")]["wavefronts"]) == (32, 1024)
    assert {r["file"] for r in doc["lines"]} == {str(MORE)}


def test_a_script_with_no_kernel_at_all_says_so(tmp_path):
    script = tmp_path / "nothing.py"
    script.write_text("import cupy\nx = 1\n")
    done = _run(script, "--block", "32")
    assert done.returncode == 2 and "has no @cuda.jit kernel at its top level" in done.stderr
    assert "0 @cuda.jit kernels" not in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("cupy") is None, reason="CuPy is not installed: its headers come with it")
def test_the_api_compiles_a_raw_kernel_with_cupys_headers():
    from smemlab import analyze

    """The cupy.RawKernel object itself (made without a GPU), as the command line's cscale: 2 warps of 8-byte
    elements, 2 wavefronts a request."""
    kernel = vars(cupy_front.load(str(FILE)))["cscale"]
    report = analyze.source(kernel, block=(64,), args=["x=complex64[64]", "a=2"])
    load = report.totals("load")
    assert (load["requests"], load["wavefronts"]) == (2, 4)


def test_a_raw_kernel_named_what_its_code_lacks_says_so():
    done = _run(MORE, "--kernel", "misnamed", "--block", "32", "--arg", "x=float32[32]")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the cupy.RawKernel misnamed is given the name 'wrong_name'" in done.stderr and "real_name" in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba-cuda is not installed")
def test_a_numba_and_a_cupy_kernel_in_one_script_need_kernel(tmp_path):
    """Without --kernel the one CuPy kernel is not taken over the @cuda.jit one in silence."""
    script = tmp_path / "mixed.py"
    script.write_text("import cupy as cp\nfrom numba import cuda\n\n@cuda.jit\ndef nb(x):\n    x[0] = 1\n\n"
                      "k = cp.RawKernel('extern \"C\" __global__ void ck(float* x) { x[0] = 1; }', 'ck')\n")
    done = _run(script, "--block", "32", "--arg", "x=float32[32]")
    assert done.returncode == 2 and "1 @cuda.jit and 1 CuPy kernels (nb, ck): name one with --kernel" in done.stderr
    done = _run(script, "--kernel", "ck", "--block", "32", "--arg", "x=float32[32]", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["kernel"] == "ck"


@pytest.mark.parametrize("argv, message", [
    (["--kernel", "squared_diff", "--block", "32"], "--kernel squared_diff: a cupy.fuse function"),
])
def test_a_cupy_fuse_function_is_refused_in_one_line(argv, message):
    done = _run(MORE, *argv)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_a_script_of_generated_kernels_alone_names_them(tmp_path):
    script = tmp_path / "fused_only.py"
    script.write_text("import cupy\n\n@cupy.fuse\ndef f(x):\n    return x * 2\n\n"
                      "add = cupy.ElementwiseKernel('float32 x', 'float32 y', 'y = x + 1', 'add_one')\n")
    done = _run(script, "--block", "32")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no kernel to analyse: add (a cupy.ElementwiseKernel), f (a cupy.fuse function)" in done.stderr
    listed = _run(script, "--list").stdout
    assert "f  (a cupy.fuse function: not analysed" in listed and "no @cuda.jit or CuPy kernel" not in listed


def test_the_stand_in_records_cupy_fuse(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    assert cupy_front.kernels(cupy_front.load(str(MORE)))[1]["squared_diff"] == "Fusion"



def test_a_kernel_taken_with_get_function_is_named_by_its_variable():
    """`rowcopy_kernel = rows.get_function("rowcopy")` is skipped without a GPU; --kernel rowcopy_kernel is still
    that kernel of the module. Its row read of the 32x32 tile: 32 warps, 1 wavefront each."""
    done = _run(MORE, "--kernel", "rowcopy_kernel", "--block", "32,32", "--arg", "out=float32[1024]",
                "--arg", "in=float32[1024]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["kernel"] == "rowcopy" and (doc["load"]["requests"], doc["load"]["wavefronts"]) == (32, 32)
    read = next(i + 1 for i, ln in enumerate(MORE_TEXT) if "= tile[threadIdx.y][threadIdx.x];" in ln)
    assert _rows(doc)[("cupy_more_kernels.py", read, "load")]["source"] == MORE_TEXT[read - 1].strip()


def test_a_kernels_text_from_a_module_beside_the_script_is_on_that_modules_lines():
    """The rows name cupy_kernel_sources.py, where the text sits. The column read: 32 warps, 32 wavefronts each."""
    sources = FILE.parent / "cupy_kernel_sources.py"
    done = _run(FILE.parent / "cupy_imported_source.py", "--block", "32,32", "--arg", "out=float32[1024]",
                "--arg", "in=float32[1024]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    text = sources.read_text().splitlines()
    read = next(i + 1 for i, ln in enumerate(text) if "= tile[threadIdx.x][threadIdx.y]" in ln)
    row = _rows(doc)[("cupy_kernel_sources.py", read, "load")]
    assert (row["requests"], row["wavefronts"]) == (32, 1024) and row["source"] == text[read - 1].strip()


def test_compiler_options_for_a_cupy_kernel_are_refused_naming_its_own():
    done = _run(FILE, "--kernel", "transpose", "--block", "32,8", "-X=--use_fast_math")
    assert done.returncode == 2 and "the options and backend its RawKernel or RawModule is given" in done.stderr


@pytest.mark.skipif(importlib.util.find_spec("cupy") is None, reason="CuPy is not installed: its RawKernel checks")
def test_a_kernel_whose_statement_failed_is_not_taken_from_another_object(tmp_path):
    """CuPy takes a RawKernel's options as a tuple: `options=[...]` raises TypeError, so `padded` is never made.
    --kernel padded must not fall back on `nopad`, made from the same code under the kernel name padded."""
    script = tmp_path / "listed_options.py"
    script.write_text(
        "import cupy as cp\n\nsrc = r'''\nextern \"C\" __global__ void padded(float* x) {\n"
        "    __shared__ float t[32][32 + PAD];\n    t[threadIdx.x][0] = x[threadIdx.x];\n"
        "    __syncthreads();\n    x[threadIdx.x] = t[threadIdx.x][0];\n}\n'''\n"
        "padded = cp.RawKernel(src, 'padded', options=['-DPAD=1'])\n"
        "nopad = cp.RawKernel(src, 'padded', options=('-DPAD=0',))\n")
    done = _run(script, "--kernel", "padded", "--block", "32", "--arg", "x=float32[32]")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--kernel padded: the statement that makes it did not run: line 11 failed: TypeError" in done.stderr
    done = _run(script, "--kernel", "nopad", "--block", "32", "--arg", "x=float32[32]", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["store"]["wavefronts"] == 32  # t[lane][0]: one bank


def test_a_kernel_name_two_raw_kernels_share_is_named_by_variable(tmp_path):
    script = tmp_path / "two_builds.py"
    script.write_text(
        "import cupy as cp\n\nsrc = r'''\nextern \"C\" __global__ void padded(float* x) {\n"
        "    __shared__ float t[32][32 + PAD];\n    t[threadIdx.x][0] = x[threadIdx.x];\n"
        "    __syncthreads();\n    x[threadIdx.x] = t[threadIdx.x][0];\n}\n'''\n"
        "with_pad = cp.RawKernel(src, 'padded', options=('-DPAD=1',))\n"
        "without = cp.RawKernel(src, 'padded', options=('-DPAD=0',))\n")
    done = _run(script, "--kernel", "padded", "--block", "32", "--arg", "x=float32[32]")
    assert done.returncode == 2 and "RawKernel objects with_pad, without all compile it" in done.stderr
    done = _run(script, "--kernel", "with_pad", "--block", "32", "--arg", "x=float32[32]", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["store"]["wavefronts"] == 1  # rows of 33: 32 banks


def test_a_raw_module_of_one_kernel_needs_no_kernel_name():
    """`--kernel rows` (a RawModule whose code defines one kernel) is that kernel, as a RawKernel would be."""
    done = _run(MORE, "--kernel", "rows", "--block", "32,32", "--arg", "out=float32[1024]", "--arg",
                "in=float32[1024]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["kernel"] == "rowcopy" and (doc["load"]["requests"], doc["load"]["wavefronts"]) == (32, 32)


def test_list_names_a_raw_modules_kernels():
    doc = json.loads(_run(FILE, "--list", "--json").stdout)
    module = next(k for k in doc["kernels"] if k["name"] == "module")
    assert module["kernels"] == ["module.column_sum<0>", "module.column_sum<1>"]  # its name expressions
    more = json.loads(_run(MORE, "--list", "--json").stdout)
    assert next(k for k in more["kernels"] if k["name"] == "rows")["kernels"] == ["rows.rowcopy"]
    listed = _run(FILE, "--list").stdout
    assert "module  (a cupy.RawModule; its kernels, as --kernel takes them: module.column_sum<0>, " \
           "module.column_sum<1>)" in listed


def test_a_raw_modules_kernels_without_a_name_are_listed_in_the_error():
    rc, doc = _cli("--kernel", "module", "--block", "32")
    assert rc == 2 and "module.column_sum<0>, module.column_sum<1>" in doc["error"]


def test_module_kernels_reads_plain_kernels_and_name_expressions():
    code = ('template <int N> __global__ void t(float* x) {}\n'
            'extern "C" __global__ void __launch_bounds__(256) a(float* x) {}\n'
            '// __global__ void commented(float* x) {}\n'
            'extern "C" {\n__global__ void b(int* y, float z) {}\n}\n'
            'static __global__ void c() {}\n')
    assert cupy_front.module_kernels(code, ["t<4>"]) == ("t<4>", "a", "b", "c")
    assert cupy_front.module_kernels(code) == ("a", "b", "c")


def test_the_api_takes_a_raw_module_of_one_kernel_without_a_kernel_name(monkeypatch):
    from smemlab import analyze

    monkeypatch.setitem(sys.modules, "cupy", None)  # the stand-in's RawModule: no GPU, no CuPy needed
    rows = vars(cupy_front.load(str(MORE)))["rows"]
    report = analyze.source(rows, block=(32, 32), args=["out=float32[1024]", "in=float32[1024]"])
    load = report.totals("load")
    assert (load["requests"], load["wavefronts"]) == (32, 32)


def test_a_kernel_read_from_a_cu_file_has_that_files_lines(tmp_path):
    """`SRC = (Path(__file__).parent / "kern" / "colsum.cu").read_text()`: the rows are colsum.cu's lines. The
    tile's row store (32 warps, 1 wavefront each) on line 4, warp 0's 32 column reads of it on line 8."""
    (tmp_path / "kern").mkdir()
    cu = tmp_path / "kern" / "colsum.cu"
    cu.write_text('// a kernel kept in its own file\n'
                  'extern "C" __global__ void colsum(float* out, const float* in) {\n'
                  '    __shared__ float tile[32][32];\n'
                  '    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];\n'
                  '    __syncthreads();\n'
                  '    if (threadIdx.y == 0) {\n'
                  '        float s = 0;\n'
                  '        for (int r = 0; r < 32; ++r) s += tile[r][threadIdx.x];\n'
                  '        out[threadIdx.x] = s;\n'
                  '    }\n'
                  '}\n')
    script = tmp_path / "script.py"
    script.write_text('from pathlib import Path\nimport cupy as cp\n\n'
                      'SRC = (Path(__file__).parent / "kern" / "colsum.cu").read_text()\n'
                      'colsum = cp.RawKernel(SRC, "colsum")\n')
    done = _run(script, "--kernel", "colsum", "--block", "32,32", "--arg", "out=float32[32]", "--arg",
                "in=float32[1024]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {(r["file"], r["line"], r["op"]): (r["requests"], r["wavefronts"]) for r in json.loads(done.stdout)["lines"]
            if r["op"] in ("load", "store")}
    assert rows == {(str(cu), 4, "store"): (32, 32), (str(cu), 8, "load"): (32, 32)}
