"""The Python front ends of `smemlab analyze` (no GPU): a CUDA source string or a CuPy RawKernel, Numba's
@cuda.jit and Triton's @triton.jit kernels, from Python and from the command line.

Counts derived by hand (4-byte banks, 32 of them; a request is one warp's instruction):
- a 32x32 float tile read down a column: 32 lanes on one bank, 32 wavefronts per request; padded to 33
  columns, lane i is on bank (33 i) % 32 = i: 1. Stores along a row: 1.
- float64: a row of a 32x32 tile is 256 bytes, so a column read puts all 32 lanes on banks 0-1: 32 wavefronts;
  a warp's 256 bytes need 2 at best, which padding to 33 doubles reaches (lanes i and i+16 share a bank pair).
- a sequential-addressing tree reduction of 256 floats: steps of 128, 64, 32 have 4, 2, 1 warps active, the
  five below 32 one warp each: 12 warp-steps of 2 loads and 1 store, plus the 8 warps' first store and
  thread 0's read of the sum: 25 loads, 20 stores, none conflicted.
- a stencil of radius 3 over a 128-thread block: 4 warps x 7 taps = 28 loads; 4 stores and 1 for the halo.
"""

import importlib
import importlib.util
import json
import linecache
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import smemlab.analyze as sa
from smemlab.errors import UserError

KERNELS = Path(__file__).parent / "data" / "python_kernels"
NUMBA = importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numba.cuda") is not None
TRITON = importlib.util.find_spec("triton") is not None
needs_numba = pytest.mark.skipif(not NUMBA, reason="numba-cuda is not installed (pip install 'smemlab[numba]')")
needs_triton = pytest.mark.skipif(not TRITON, reason="triton is not installed (pip install 'smemlab[triton]')")
needs_nvcc = pytest.mark.skipif(importlib.util.find_spec("nvidia") is None, reason="the analyze extra is not installed")


def counts(r, kind):
    t = r.totals(kind)
    return t["requests"], t["wavefronts"]


def _kernels(module: str, present: bool, why: str):
    if not present:
        pytest.skip(why)
    sys.path.insert(0, str(KERNELS))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(KERNELS))


@pytest.fixture(scope="module")
def nk():
    return _kernels("numba_kernels", NUMBA, "numba-cuda is not installed")


@pytest.fixture(scope="module")
def tk():
    return _kernels("triton_kernels", TRITON, "triton is not installed")


# ---------------------------------------------------------------- Numba

@needs_numba
@pytest.mark.parametrize("name, dtype, load, store", [
    ("transpose", np.float32, (32, 1024), (32, 32)),
    ("transpose_padded", np.float32, (32, 32), (32, 32)),
    ("transpose64", np.float64, (32, 1024), (32, 64)),
    ("transpose64_padded", np.float64, (32, 64), (32, 64)),
])
def test_numba_tile_transposes(nk, name, dtype, load, store):
    inp = np.arange(1024, dtype=dtype).reshape(32, 32)
    r = sa.numba(getattr(nk, name), (32, 8), np.zeros_like(inp), inp)
    assert counts(r, "load") == load
    assert counts(r, "store") == store
    np.testing.assert_array_equal(r.buffers["out"], inp.T)
    read = [ls for ls in r.lines if ls.kind == "load"]
    assert len(read) == 1 and r.file_name(read[0].file).endswith("numba_kernels.py")
    assert r.source_text(read[0].file, read[0].line) == "out[y + j, x] = tile[x, y + j]"


@needs_numba
def test_numba_tree_reduction(nk):
    inp = np.random.default_rng(0).uniform(-1, 1, 256).astype(np.float32)
    r = sa.numba(nk.reduce_sum, 256, np.zeros(1, np.float32), inp)
    assert counts(r, "load") == (25, 25) and counts(r, "store") == (20, 20)
    assert r.buffers["out"][0] == pytest.approx(float(inp.astype(np.float64).sum()), abs=1e-4)


@needs_numba
def test_numba_local_array_and_shuffles(nk):
    inp = np.random.default_rng(1).uniform(-1, 1, 1024).astype(np.float32)
    r = sa.numba(nk.reduce_shuffle, 256, np.zeros(1, np.float32), inp)
    assert counts(r, "store") == (8, 8)  # one lane of each warp writes its warp's sum
    assert r.buffers["out"][0] == pytest.approx(float(inp.astype(np.float64).sum()), abs=1e-3)


@needs_numba
def test_numba_privatised_histogram(nk):
    keys = np.random.default_rng(2).integers(0, 256, 4096).astype(np.int32)
    r = sa.numba(nk.histogram, 256, np.zeros(256, np.int32), keys, 4096)
    requests, wavefronts = counts(r, "atomic")
    assert requests == 4096 // 32  # 16 rounds of 8 warps
    assert wavefronts > requests  # random keys meet in banks
    assert counts(r, "load") == (8, 8) and counts(r, "store") == (8, 8)
    np.testing.assert_array_equal(r.buffers["bins"], np.bincount(keys, minlength=256))


@needs_numba
def test_numba_stencil_with_halo_in_dynamic_shared(nk):
    inp = np.random.default_rng(3).uniform(-1, 1, 128 + 6).astype(np.float32)
    r = sa.numba(nk.stencil, 128, np.zeros(128, np.float32), inp, dynamic_shared=(128 + 6) * 4)
    assert counts(r, "load") == (28, 28) and counts(r, "store") == (5, 5)
    np.testing.assert_allclose(r.buffers["out"], np.convolve(inp, np.ones(7, np.float32), "valid"), rtol=1e-5)


def _cli(*argv):
    return subprocess.run([sys.executable, "-m", "smemlab", "analyze", *argv], capture_output=True, text=True)


@needs_numba
def test_numba_cli_json_matches_the_api(nk):
    done = _cli(str(KERNELS / "numba_kernels.py"), "--kernel", "transpose", "--block", "32,8",
                "--arg", "out=float32[32,32]", "--arg", "inp=float32[32,32]", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["kernel"] == "transpose" and doc["load"]["wavefronts"] == 1024
    top = doc["lines"][0]
    assert top["file"].endswith("numba_kernels.py") and top["conflict_degree"] == 32
    assert top["source"] == "out[y + j, x] = tile[x, y + j]"
    r = sa.numba(str(KERNELS / "numba_kernels.py"), (32, 8), name="transpose", out="float32[32,32]",
                 inp="float32[32,32]")
    assert r.to_json()["lines"] == doc["lines"]


@needs_numba
def test_numba_user_mistakes_are_one_line():
    path = str(KERNELS / "numba_kernels.py")
    done = _cli(path, "--kernel", "nope", "--block", "32")
    assert done.returncode == 2 and "no @cuda.jit kernel of that name" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    done = _cli(path, "--kernel", "transpose", "--block", "32,8", "--arg", "out=float32[32,32]")
    assert done.returncode == 2 and "needs 1 more --arg: inp" in done.stderr
    done = _cli(path, "--block", "32")
    assert done.returncode == 2 and "name one with --kernel" in done.stderr


def test_missing_numba_names_the_extra(monkeypatch):
    from smemlab.analyze import numba_front

    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(UserError, match=r'pip install "smemlab\[numba\]"'):
        numba_front.require()


def test_missing_triton_names_the_extra(monkeypatch):
    from smemlab.analyze import triton_front

    monkeypatch.setitem(sys.modules, "triton", None)
    with pytest.raises(UserError, match=r'pip install "smemlab\[triton\]"'):
        triton_front.require()


def test_shaped_args():
    from smemlab.analyze import pyargs

    a = pyargs.parse("inp=float32[32,32]:0..1")
    assert a.shape == (32, 32) and a.strides == (128, 4) and a.text == "inp=float32[1024]:0..1"
    assert pyargs.parse("n=4096").value == 4096 and not pyargs.parse("n=4096").is_array
    with pytest.raises(UserError):
        pyargs.parse("inp=float32[0,4]")
    # elements NumPy has no type for, as their bits with the format named
    b = pyargs.parse("w=bfloat16[4,8]")
    assert (b.shape, b.dtype, b.fmt, b.type_name, b.strides) == ((4, 8), np.dtype(np.uint16), "bfloat16", "bfloat16",
                                                                 (16, 2))
    assert pyargs.parse("q=float8_e4m3fn[16]").fmt == "e4m3" and pyargs.parse("q=float8_e5m2[16]").fmt == "e5m2"


@needs_numba
def test_numba_refuses_a_bfloat16_array_in_one_line(nk):
    done = _cli(str(KERNELS / "numba_kernels.py"), "--kernel", "transpose", "--block", "32,8",
                "--arg", "out=float32[32,32]", "--arg", "inp=bfloat16[32,32]")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--arg inp: Numba has no bfloat16 arrays" in done.stderr


# ---------------------------------------------------------------- Triton

@needs_triton
def test_triton_transpose_through_tl_trans(tk):
    inp = np.arange(1024, dtype=np.float32).reshape(32, 32)
    r = sa.triton(tk.transpose, 1, np.zeros_like(inp), inp, 32, BLOCK=32)
    assert r.block == (128, 1, 1) and r.dynamic_shared == 4096
    assert counts(r, "load") == (32, 32) and counts(r, "store") == (32, 32)  # Triton's layouts avoid conflicts
    np.testing.assert_array_equal(r.buffers["out_ptr"], inp.T)
    assert all(r.file_name(ls.file).endswith("triton_kernels.py") for ls in r.lines)


@needs_triton
def test_triton_row_softmax_one_program(tk):
    x = np.random.default_rng(4).uniform(-1, 1, (4, 100)).astype(np.float32)
    r = sa.triton(tk.softmax, 4, np.zeros_like(x), x, 100, BLOCK=128, program=(2, 0, 0))
    e = np.exp(x[2] - x[2].max())
    np.testing.assert_allclose(r.buffers["out_ptr"][2], e / e.sum(), atol=1e-6)
    assert not r.buffers["out_ptr"][[0, 1, 3]].any()  # only program 2 ran


@needs_triton
def test_triton_small_dot_uses_ldmatrix_and_mma(tk):
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (32, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, 32)).astype(np.float16)
    r = sa.triton(tk.matmul, 1, np.zeros((32, 32), np.float32), a, b, 64, BM=32, BN=32, BK=32)
    np.testing.assert_allclose(r.buffers["c_ptr"], a.astype(np.float32) @ b.astype(np.float32), atol=1e-3)
    assert "ldmatrix" in r.ptx and "mma.sync" in r.ptx


@needs_triton
def test_triton_wgmma_tiles_compute_the_product(tk):
    """Two warpgroups of wgmma.mma_async on 128-byte swizzled tiles (descriptors, fragments) give A @ B."""
    rng = np.random.default_rng(9)
    a = rng.uniform(-1, 1, (128, 128)).astype(np.float16)
    b = rng.uniform(-1, 1, (128, 128)).astype(np.float16)
    r = sa.triton(tk.matmul, 1, np.zeros((128, 128), np.float32), a, b, 128, BM=128, BN=128, BK=64, num_warps=8)
    assert "wgmma.mma_async" in r.ptx
    np.testing.assert_allclose(r.buffers["c_ptr"], a.astype(np.float32) @ b.astype(np.float32), atol=1e-3)
    # each warpgroup's HGMMA reads its A (64 x 16) and B (16 x 128) tiles: counted apart from the loads
    wg = r.totals("wgmma")
    assert wg["requests"] == 2 * 8 * 4  # 2 K steps of 4 k16 instructions, at each of the 4 warps of 2 warpgroups
    assert wg["wavefronts"] == 2 * 2 * 4 * (64 * 32 + 128 * 32) // 128
    assert r.totals("load")["wavefronts"] == sum(ls.wavefronts for ls in r.lines if ls.kind == "load")


@needs_triton
@pytest.mark.parametrize("bn, bk", [(64, 16), (16, 32), (32, 64)], ids=["A32B-B128B", "A64B-B32B", "A128B-B64B"])
def test_triton_wgmma_in_every_swizzle_mode_computes_the_product(tk, bn, bk):
    """One warpgroup on A tiles of 32-, 64- and 128-byte rows (K-major) and B tiles of 128, 32 and 64 (MN-major):
    every swizzle mode Triton makes."""
    rng = np.random.default_rng(bn + bk)
    a = rng.uniform(-1, 1, (64, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, bn)).astype(np.float16)
    r = sa.triton(tk.matmul, 1, np.zeros((64, bn), np.float32), a, b, 64, BM=64, BN=bn, BK=bk, num_warps=4)
    assert f"m64n{bn}k16" in r.ptx
    np.testing.assert_allclose(r.buffers["c_ptr"], a.astype(np.float32) @ b.astype(np.float32), atol=1e-3)


@needs_triton
def test_triton_cli(tk):
    path = str(KERNELS / "triton_kernels.py")
    done = _cli(path, "--kernel", "transpose", "--triton", "--grid", "1", "--num-warps", "4", "--constexpr",
                "BLOCK=32", "--arg", "out_ptr=float32[32,32]", "--arg", "in_ptr=float32[32,32]", "--arg", "n=32",
                "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["block"] == [128, 1, 1] and doc["load"]["wavefronts"] == 32
    done = _cli(path, "--kernel", "transpose", "--triton", "--arg", "out_ptr=float32[32,32]",
                "--arg", "in_ptr=float32[32,32]", "--arg", "n=32")
    assert done.returncode == 2 and "--constexpr for BLOCK" in done.stderr and "Traceback" not in done.stderr


# ---------------------------------------------------------------- CUDA C source text, CuPy

SOURCE = r"""
extern "C" __global__ void transpose(float *out, const float *in) {
    __shared__ float tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[y + j][x] = in[(y + j) * 32 + x];
    __syncthreads();
    for (int j = 0; j < 32; j += 8) out[(y + j) * 32 + x] = tile[x][y + j];
}
"""


@needs_nvcc
def test_source_string():
    inp = np.arange(1024, dtype=np.float32).reshape(32, 32)
    r = sa.source(SOURCE, block=(32, 8), args={"out": np.zeros_like(inp), "in": inp})
    assert counts(r, "load") == (32, 1024) and counts(r, "store") == (32, 32)
    assert {(r.file_name(ls.file), ls.line) for ls in r.lines} == {("<source>", 5), ("<source>", 7)}
    np.testing.assert_array_equal(r.buffers["out"].reshape(32, 32), inp.T)
    with pytest.raises(UserError, match="<source>"):
        sa.source(SOURCE.replace("__syncthreads();", "__syncthreads()"), block=(32, 8), args=["out=float32[1024]"])


@needs_nvcc
def test_cupy_raw_kernel_as_it_is():
    cupy = pytest.importorskip("cupy")
    k = cupy.RawKernel(SOURCE.replace("tile[32][32]", "tile[32][33]"), "transpose", options=("-DUNUSED=1",))
    r = sa.source(k, block=(32, 8), args=["out=float32[1024]", "in=float32[1024]"])
    assert r.kernel == "transpose" and counts(r, "load") == (32, 32)


# ---------------------------------------------------------------- the Report in a notebook

@needs_numba
def test_report_html_and_bank_map(nk):
    inp = np.arange(1024, dtype=np.float32).reshape(32, 32)
    r = sa.numba(nk.transpose, (32, 8), np.zeros_like(inp), inp)
    html = r._repr_html_()
    bad = [row for row in html.split("<tr") if "class=bad" in row]
    assert len(bad) == 1 and "tile[x, y + j]" in bad[0] and "32-way" in bad[0]
    line = r.ordered_lines()[0].line
    text = r.bank_map(line)
    assert text.splitlines()[0].endswith("out[y + j, x] = tile[x, y + j]") and "32 wavefronts" in text
    with pytest.raises(UserError, match="no shared, global or local load or store"):
        r.bank_map(1)


def test_example_notebook_runs():
    """examples/transpose_three_ways.ipynb, its code cells executed in order (Triton's where triton is there)."""
    if not NUMBA:
        pytest.skip("numba-cuda is not installed")
    nb = json.loads((Path(__file__).parents[1] / "examples" / "transpose_three_ways.ipynb").read_text())
    scope: dict = {"__name__": "notebook"}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        code = "".join(cell["source"])
        if "triton" in cell.get("metadata", {}).get("tags", []) and not TRITON:
            continue
        name = f"<notebook-cell-{i}>"  # as Jupyter does: the cell's text in linecache, where Triton reads it
        linecache.cache[name] = (len(code), None, code.splitlines(True), name)
        exec(compile(code, name, "exec"), scope)
    assert scope["numba_report"].totals("load")["wavefronts"] == 1024
    assert "class=bad" in scope["numba_report"]._repr_html_()  # the cell's lines, from linecache



EAGER = '''
from numba import cuda, float32

@cuda.jit("float32(float32)", device=True)
def square(v):
    return v * v

@cuda.jit("void(float32[:])")
def mirror(a):
    s = cuda.shared.array(32, float32)
    s[cuda.threadIdx.x] = square(a[cuda.threadIdx.x])
    cuda.syncthreads()
    a[cuda.threadIdx.x] = s[31 - cuda.threadIdx.x]

if __name__ == "__main__":
    raise SystemExit("not run by analyze")
'''


@needs_numba
def test_numba_eager_signatures_and_device_functions_compile_with_no_gpu(tmp_path):
    path = tmp_path / "eager.py"
    path.write_text(EAGER)
    done = _cli(str(path), "--block", "32", "--arg", "a=float32[32]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["kernel"] == "mirror" and doc["load"]["wavefronts"] == 1 and doc["store"]["wavefronts"] == 1
    done = _cli(str(path), "--list")
    assert done.stdout.strip() == "mirror(a)"


def test_triton_ptx_cached_from_a_copy_of_the_file_names_the_kernel_file():
    """Triton's cache is keyed on a kernel's source and first line, not its file: PTX first compiled
    from a copy of the file (another checkout) names the copy's path, whose lines the report would
    look up (source text missing, or another file's); a `.file` of the kernel file's name is taken as
    the kernel's file (triton_front._own_file)."""
    from types import SimpleNamespace

    from smemlab.analyze.triton_front import _own_file

    def kernel():
        pass

    own = kernel.__code__.co_filename
    files = {1: "/another/checkout/" + Path(own).name, 2: "/site-packages/triton/language/standard.py"}
    assert _own_file(files, SimpleNamespace(fn=kernel)) == {1: own, 2: files[2]}
    assert _own_file({1: own}, SimpleNamespace(fn=kernel)) == {1: own}
    assert _own_file(files, object()) == files  # no function to go by: as they are


MIRROR = '''
from numba import cuda


@cuda.jit
def mirror(a):
    s = cuda.shared.array(64, dtype=a.dtype)
    s[cuda.threadIdx.x] = a[cuda.blockIdx.x * 32 + cuda.threadIdx.x]
    cuda.syncthreads()
    a[cuda.blockIdx.x * 32 + cuda.threadIdx.x] = s[STRIDE * cuda.threadIdx.x % 64]
'''


@needs_numba
def test_numba_compiles_a_kernel_once_for_its_blocks_and_again_when_its_file_changes(tmp_path, monkeypatch):
    from smemlab.analyze import numba_front

    compiles = []
    real = numba_front._compiled
    monkeypatch.setattr(numba_front, "_compiled", lambda *a: compiles.append(a[1]) or real(*a))
    monkeypatch.setattr(numba_front, "_UNITS", {})
    path = tmp_path / "mirror.py"
    path.write_text(MIRROR.replace("STRIDE", "1"))
    reports = [numba_front.analyze(str(path), (32,), (4,), (b, 0, 0), args=["a=float32[128]"]) for b in range(4)]
    assert compiles == ["mirror"]
    assert [r.totals("load")["wavefronts"] for r in reports] == [1] * 4
    # the same kernel, a float64 array: another signature, another compile
    numba_front.analyze(str(path), (32,), (4,), args=["a=float64[128]"])
    assert compiles == ["mirror"] * 2
    path.write_text(MIRROR.replace("STRIDE", "2"))  # two lanes a bank: the edited file is compiled, not the first
    edited = numba_front.analyze(str(path), (32,), (4,), args=["a=float32[128]"])
    assert compiles == ["mirror"] * 3 and edited.totals("load")["wavefronts"] == 2
