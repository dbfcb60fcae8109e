"""Kernels written in Python as people write them (tools/analyze_truth/kernels/robust_*.py) that broke
`smemlab analyze`: each test is one of them, run as a user runs it.

Counts derived by hand (4-byte banks, 32 of them; a request is one warp's instruction):
- complex64 in shared memory is 8 bytes an element: a warp's 32 consecutive elements are 256 bytes, two
  wavefronts. 64 threads store t[i] once (2 requests, 4 wavefronts) and read t[63 - i] and t[i] (4, 8).
- a 16x16 float tile, 16x16 threads: a warp is two rows ty, ty + 1 of 16 lanes. Unpadded, tile[tx, ty] is
  word 16 tx + ty: bank ty for even tx, 16 + ty for odd, 8 lanes a bank: 8 wavefronts for each of the 8
  warps' loads (64); the stores tile[ty, tx] are rows, 1 each. Padded to 17 columns, the stores' words
  17 ty + tx and the loads' 17 tx + ty each wrap once onto a bank the warp already uses (lane (ty + 1, 15)
  and (ty, 0) for the stores): 2-way, 16 wavefronts each. The padding a 32-wide tile wants does not fix a
  16-wide one.
- global: a thread a row of a 64x16 float matrix, summing along it: each of 16 column steps has its 32 lanes
  64 bytes apart, 32 sectors where 4 would do; 2 warps x 16 = 32 requests, 1,024 sectors, ideal 128.
  One thread an element (add1d, block 7 of 8 with n = 1000: 104 lanes from element 896): 13 sectors an
  array, as few as can hold the bytes.
"""

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import smemlab.analyze as sa
from smemlab.analyze import pyargs
from smemlab.analyze.render import notes

from test_analyze_python import KERNELS, NUMBA, TRITON, _cli, needs_numba, needs_nvcc, needs_triton

# the corpus's kernels, recorded on an H100 into the truth fixture (robust.* cases), so their lines are pinned there
ROBUST = Path(__file__).resolve().parents[1] / "tools" / "analyze_truth" / "kernels"


def _kernels(module: str, present: bool, why: str):
    if not present:
        pytest.skip(why)
    spec = importlib.util.spec_from_file_location(f"robust_corpus_{module}", ROBUST / f"{module}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def rn():
    return _kernels("robust_numba", NUMBA, "numba-cuda is not installed")


@pytest.fixture(scope="module")
def rtk():
    return _kernels("robust_triton", TRITON, "triton is not installed")


def _json(done) -> dict:
    """The one JSON object --json printed (json.loads refuses anything around it)."""
    return json.loads(done.stdout)


# ---------------------------------------------------------------- arguments

def test_bool_none_and_complex_arguments_parse():
    assert pyargs.parse("flag=True").value is True and pyargs.parse("flag=False").text == "flag=0"
    assert pyargs.parse("bias=None").is_none and not pyargs.parse("n=0").is_none
    z = pyargs.parse("z=complex64[4,8]")
    assert z.dtype == np.complex64 and z.shape == (4, 8) and z.text == "z=float32[64]"
    assert pyargs.parse("w=complex128[3]").text == "w=float64[6]"


@needs_triton
@pytest.mark.parametrize("text, value", [("ACT=leaky_relu", "leaky_relu"), ("ACT=''", ""), ('P="ieee"', "ieee"),
                                         ("N=None", None), ("B=0x40", 64), ("S=0.5", 0.5), ("F=true", True)])
def test_triton_constexpr_values(text, value):
    from smemlab.analyze.triton_front import _constexpr

    name, got = _constexpr(text)
    assert name == text.split("=")[0] and got == value and type(got) is type(value)


@needs_triton
def test_triton_constexpr_dtype():
    import triton.language as tl

    from smemlab.analyze.triton_front import _constexpr

    assert _constexpr("D=tl.float16") == ("D", tl.float16)
    assert _constexpr("D=triton.language.bfloat16") == ("D", tl.bfloat16)


# ---------------------------------------------------------------- Triton

@needs_triton
def test_triton_string_constexpr_picks_the_activation(rtk):
    rng = np.random.default_rng(0)
    M, N, K = 64, 48, 40
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    r = sa.triton(rtk.matmul_grouped, 4, a, b, np.zeros((M, N), np.float16), M, N, K, K, 1, N, 1, N, 1,
                  BM=32, BN=32, BK=32, GROUP_M=2, ACT="leaky")
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(r.buffers["c_ptr"][:32, :32], np.where(ref >= 0, ref, 0.01 * ref)[:32, :32],
                               atol=0.05, rtol=0.01)
    assert (r.buffers["c_ptr"][:32, :32] < 0).any()  # the leaky branch ran: negatives survive it


@needs_triton
def test_triton_string_constexpr_from_the_cli(rtk):
    path = ROBUST / "robust_triton.py"
    common = ["--kernel", "dot_precision", "--triton", "--grid", "1", "--constexpr", "B=32",
              "--arg", "a_ptr=float32[32,32]", "--arg", "b_ptr=float32[32,32]", "--arg", "c_ptr=float32[32,32]",
              "--json"]
    bare = _cli(path, *common, "--constexpr", "PREC=ieee")
    quoted = _cli(path, *common, "--constexpr", 'PREC="ieee"')
    assert bare.returncode == 0 and quoted.returncode == 0, bare.stdout + bare.stderr
    assert _json(bare)["load"] == _json(quoted)["load"]


@needs_triton
def test_triton_autotuned_kernel_takes_its_first_config(rtk):
    x = np.arange(1000, dtype=np.float32)
    r = sa.triton(rtk.add_tuned, 4, x, np.zeros_like(x), 1000)
    assert r.block == (128, 1, 1)  # the first config's num_warps=4
    assert any("autotuned" in n and "BLOCK=128" in n for n in notes(r))
    np.testing.assert_array_equal(r.buffers["out_ptr"][:128], x[:128] + 1)
    r = sa.triton(rtk.add_tuned, 4, x, np.zeros_like(x), 1000, BLOCK=256, num_warps=8)
    assert r.block == (256, 1, 1) and not any("autotuned" in n for n in notes(r))
    np.testing.assert_array_equal(r.buffers["out_ptr"][:256], x[:256] + 1)


@needs_triton
def test_triton_autotuned_kernel_from_the_cli():
    done = _cli(ROBUST / "robust_triton.py", "--kernel", "add_tuned", "--triton", "--grid", "4",
                "--arg", "x_ptr=float32[1000]", "--arg", "out_ptr=float32[1000]", "--arg", "n=1000", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = _json(done)
    assert doc["block"] == [128, 1, 1] and any("autotuned" in n for n in doc["notes"])
    listed = subprocess.run([sys.executable, "-m", "smemlab", "analyze", str(ROBUST / "robust_triton.py"), "--triton",
                             "--list"], capture_output=True, text=True)
    assert "add_tuned(x_ptr, out_ptr, n, BLOCK)" in listed.stdout and "add_heur(" in listed.stdout


@needs_triton
@pytest.mark.parametrize("n, even", [(1024, True), (1000, False)])
def test_triton_heuristics_are_evaluated_on_the_arguments(rtk, n, even):
    x = np.arange(1024, dtype=np.float32)
    r = sa.triton(rtk.add_heur, 4, x, np.zeros_like(x), n, BLOCK=256, program=(3, 0, 0))
    assert any(f"EVEN={even}" in note for note in notes(r))
    got = r.buffers["out_ptr"][768:]
    np.testing.assert_array_equal(got[: n - 768], 2 * x[768:n])
    assert not got[n - 768:].any()  # the masked tail stays unwritten


@needs_triton
def test_triton_none_pointer_argument(rtk):
    x = np.arange(100, dtype=np.float32)
    r = sa.triton(rtk.optional_bias, 1, x, None, np.zeros_like(x), 100, HAS_BIAS=False, BLOCK=128)
    np.testing.assert_array_equal(r.buffers["out_ptr"], x)
    done = _cli(ROBUST / "robust_triton.py", "--kernel", "optional_bias", "--triton", "--grid", "1",
                "--constexpr", "HAS_BIAS=False", "--constexpr", "BLOCK=128", "--arg", "x_ptr=float32[100]",
                "--arg", "b_ptr=None", "--arg", "out_ptr=float32[100]", "--arg", "n=100", "--json")
    assert done.returncode == 0 and _json(done)["global_load"]["requests"] > 0, done.stdout + done.stderr


@needs_triton
def test_triton_ptxas_failure_is_one_json_object():
    done = _cli(ROBUST / "robust_triton.py", "--kernel", "ptxas_rejects", "--triton", "--grid", "1",
                "--constexpr", "BLOCK=128", "--arg", "x_ptr=float32[128]", "--arg", "out_ptr=float32[128]", "--json")
    doc = _json(done)  # Triton prints the failed PTX to stdout: none of it may come out there
    assert "Traceback" not in done.stderr
    if done.returncode:  # a Triton that emits PTX ptxas takes passes; one that does not says why in one line
        assert done.returncode == 2 and "ptxas" in doc["error"] and "\n" not in doc["error"]
        assert "/tmp/" not in doc["error"]


@needs_triton
def test_triton_float64_dot_runs_on_mma_f64(rtk):
    """Triton 3.9 multiplies float64 tiles with m8n8k4, 3.6 with sm_90's m16n8k16: the product is a @ b either way."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((16, 16)), rng.standard_normal((16, 16))
    r = sa.triton(rtk.dot_precision, 1, a, b, np.zeros((16, 16)), B=16, PREC="ieee")
    assert re.search(r"mma\.sync\.aligned\.m(8n8k4|16n8k(4|8|16))\.row\.col\.f64", r.ptx)
    np.testing.assert_allclose(r.buffers["c_ptr"], a @ b, rtol=1e-12, atol=1e-12)


@needs_triton
@pytest.mark.parametrize("block", [32, 64])  # mma.sync and wgmma
def test_triton_tf32x3_dot_is_accurate(rtk, block):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((block, block)).astype(np.float32)
    b = rng.standard_normal((block, block)).astype(np.float32)
    r = sa.triton(rtk.dot_precision, 1, a, b, np.zeros_like(a), B=block, PREC="tf32x3")
    assert "cvt.rna.tf32.f32" in r.ptx
    # three tf32 products recover float32's accuracy; tf32 alone is off by about 1e-2 here
    np.testing.assert_allclose(r.buffers["c_ptr"], a.astype(np.float64) @ b, atol=1e-4)


@needs_triton
def test_triton_atomic_add_over_contiguous_offsets(rtk):
    # Triton makes this atom.global.add.v2.f32: two elements a lane, each its own atomic
    rng = np.random.default_rng(3)
    x, acc = rng.standard_normal(256).astype(np.float32), rng.standard_normal(256).astype(np.float32)
    r = sa.triton(rtk.accumulate, 1, x, acc.copy(), np.zeros(256, np.float32), BLOCK=256)
    assert ".v2.f32" in r.ptx
    np.testing.assert_array_equal(r.buffers["acc_ptr"], acc + x)
    np.testing.assert_array_equal(r.buffers["old_ptr"], acc)
    # 4 warps, each 32 lanes x 8 contiguous bytes: 256 bytes, 8 sectors
    got = r.to_json()["global_atomic"]
    assert (got["requests"], got["sectors"]) == (4, 32)


@needs_triton
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_triton_half_precision_atomics(rtk, dtype):
    done = _cli(ROBUST / "robust_triton.py", "--kernel", "atomic_half", "--triton", "--grid", "1", "--constexpr",
                "BLOCK=128", "--arg", f"x_ptr={dtype}[128]", "--arg", f"acc_ptr={dtype}[8]:0..0", "--arg", "n=100",
                "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _json(done)["global_atomic"]["requests"] > 0
    if dtype == "float16":
        x = np.linspace(-1, 1, 128).astype(np.float16)
        r = sa.triton(rtk.atomic_half, 1, x, np.zeros(8, np.float16), 100, BLOCK=128)
        want = [x[:100][i::8].astype(np.float64).sum() for i in range(8)]
        np.testing.assert_allclose(r.buffers["acc_ptr"].astype(np.float64), want, atol=1e-2)


@needs_nvcc
def test_half_precision_atomics_in_cuda():
    src = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k(__half *h, __half2 *h2, __nv_bfloat16 *b, const float *x, __half *olds) {
    int t = threadIdx.x;
    olds[t] = atomicAdd(&h[t % 4], __float2half(x[t]));
    atomicAdd(&h2[t % 2], __floats2half2_rn(x[t], -x[t]));
    atomicAdd(&b[t % 3], __float2bfloat16(x[t]));
}
"""
    x = (np.arange(64) / 16).astype(np.float32)  # sixteenths: every partial sum is exact in float16
    r = sa.source(src, "k", block=(64,), args={"h": np.zeros(4, np.float16), "h2": np.zeros(4, np.float16),
                                                 "b": "bfloat16[3]:0..0", "x": x, "olds": np.zeros(64, np.float16)})
    np.testing.assert_array_equal(r.buffers["h"], [x[i::4].sum() for i in range(4)])
    np.testing.assert_array_equal(r.buffers["h2"], [x[0::2].sum(), -x[0::2].sum(), x[1::2].sum(), -x[1::2].sum()])
    bf = (r.buffers["b"].view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)
    np.testing.assert_allclose(bf, [x[i::3].sum() for i in range(3)], rtol=2 ** -7)
    # thread t read the partial sum of the threads before it on its address, in thread order
    olds = np.array([x[t % 4:t:4].sum() for t in range(64)], np.float16)
    np.testing.assert_array_equal(r.buffers["olds"], olds)


@needs_nvcc
def test_cvt_to_tf32_rounds_the_mantissa():
    src = r"""
extern "C" __global__ void k(const float *x, unsigned *rna, unsigned *rn) {
    unsigned a, b;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a) : "f"(x[threadIdx.x]));
    asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(b) : "f"(x[threadIdx.x]));
    rna[threadIdx.x] = a;
    rn[threadIdx.x] = b;
}
"""
    bits = np.array([0x3F800FFF, 0x3F801000, 0x3F801001, 0xBF803000, 0x3F802FFF, 0x7F800000, 0x7FC00001,
                     0x00000000, 0x3F9FFFFF, 0xC0000000] + [0x3F800000] * 22, np.uint32)
    x = bits.view(np.float32)
    r = sa.source(src, "k", block=(32,), args={"x": x, "rna": np.zeros(32, np.uint32), "rn": np.zeros(32, np.uint32)})
    sign, mag = bits & np.uint32(0x80000000), bits & np.uint32(0x7FFFFFFF)
    special = (bits & np.uint32(0x7F800000)) == np.uint32(0x7F800000)
    keep = np.uint32(0x7FFFE000)  # 8 exponent and 10 mantissa bits
    rna = np.where(special, bits, sign | ((mag + np.uint32(0x1000)) & keep))
    even = (mag >> np.uint32(13)) & np.uint32(1)
    rn = np.where(special, bits, sign | ((mag + np.uint32(0xFFF) + even) & keep))
    np.testing.assert_array_equal(r.buffers["rna"], rna)
    np.testing.assert_array_equal(r.buffers["rn"], rn)
    # 1 + 2^-11 is a tie: away from zero goes up, to even stays at 1; 1 + 3 * 2^-11 goes up both ways
    assert r.buffers["rna"][1] == 0x3F802000 and r.buffers["rn"][1] == 0x3F800000
    assert r.buffers["rn"][3] == 0xBF804000


# ---------------------------------------------------------------- Numba

@needs_numba
def test_numba_float16_arithmetic_links_its_operators(rn):
    x = np.linspace(-2, 2, 32).astype(np.float16)
    r = sa.numba(rn.float16_math, (32,), x, np.zeros_like(x))
    np.testing.assert_array_equal(r.buffers["out"], x * x + x)
    # the operators are cuda_fp16.h's, called from the kernel's line: the rows name that line
    assert any(ls.line == _line(rn.float16_math, "out[i] = x[i] * x[i] + x[i]") for ls in r.memory_lines
               if r.file_name(ls.file).endswith("robust_numba.py"))


def _line(dispatcher, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(dispatcher.py_func)
    return first + next(i for i, x in enumerate(lines) if x.strip() == text)


@needs_numba
def test_numba_complex_shared_tile(rn):
    z = (np.arange(64) + 1j * np.arange(64, 0, -1)).astype(np.complex64)
    r = sa.numba(rn.complex_tile, (64,), z, np.zeros_like(z))
    t = z * 2j
    np.testing.assert_allclose(r.buffers["out"], t[::-1] + t.conj())
    assert r.buffers["out"].dtype == np.complex64
    assert (r.totals("store")["requests"], r.totals("store")["wavefronts"]) == (2, 4)
    assert (r.totals("load")["requests"], r.totals("load")["wavefronts"]) == (4, 8)


@needs_numba
def test_numba_complex_from_the_cli():
    done = _cli(ROBUST / "robust_numba.py", "--kernel", "complex_tile", "--block", "64",
                "--arg", "inp=complex64[64]", "--arg", "out=complex64[64]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _json(done)["store"]["wavefronts"] == 4


@needs_numba
def test_numba_bool_and_none_arguments(rn):
    x = np.arange(32, dtype=np.float32)
    r = sa.numba(rn.flag_arg, (32,), x, np.zeros_like(x), True)
    np.testing.assert_array_equal(r.buffers["out"], -x)
    r = sa.numba(rn.optional_arr, (32,), x, np.zeros_like(x), None)
    np.testing.assert_array_equal(r.buffers["out"], x)
    done = _cli(ROBUST / "robust_numba.py", "--kernel", "flag_arg", "--block", "32", "--arg", "x=float32[32]",
                "--arg", "out=float32[32]", "--arg", "negate=False", "--json")
    assert done.returncode == 0, done.stdout + done.stderr


@needs_numba
def test_numba_grid_sync_is_refused_in_one_line():
    done = _cli(ROBUST / "robust_numba.py", "--kernel", "grid_sync_kernel", "--block", "32", "--grid", "2",
                "--arg", "x=float32[64]")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "this_grid().sync()" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@needs_numba
def test_numba_script_with_a_top_level_launch():
    from numba import cuda

    path = KERNELS / "numba_script.py"
    done = _cli(path, "--kernel", "double", "--block", "32", "--arg", "a=float32[64]", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert _json(done)["global_load"]["requests"] == 1
    if not cuda.is_available():  # cuda.to_device at line 16 fails while the file imports, then the launch
        assert "(line 16)" in done.stderr and "(line 17)" in done.stderr
    # the import went on past them: the kernel defined below is there too
    late = _cli(path, "--kernel", "after_the_launch", "--block", "32", "--arg", "a=float32[64]", "--json")
    assert late.returncode == 0 and _json(late)["global_store"]["requests"] == 1, late.stdout + late.stderr


@needs_triton
def test_triton_tutorial_style_file_with_gpu_work_at_the_top_level():
    try:  # the script imports torch; without it (CI's environment) that line fails too and the import goes on
        import torch
    except ImportError:
        torch = None

    path = KERNELS / "triton_script.py"
    done = _cli(path, "--triton", "--kernel", "add_kernel", "--grid", "97", "--block-index", "96,0,0",
                "--constexpr", "BLOCK=1024", "--arg", "x_ptr=float32[98432]", "--arg", "y_ptr=float32[98432]",
                "--arg", "out_ptr=float32[98432]", "--arg", "n=98432", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    # the last program holds 98432 - 96 * 1024 = 128 elements. 128 threads hold 8 floats each, as two
    # 16-byte pieces 512 elements apart (lane l of warp w: 4 (32 w + l) and 512 more): only warp 0's first
    # load of each pointer has lanes on, 32 of them over 512 bytes, 16 sectors
    got = _json(done)["global_load"]
    assert (got["requests"], got["sectors"]) == (2, 32)
    if torch is None:
        assert "(line 4)" in done.stderr and "add_kernel is analysed" in done.stderr
    elif not torch.cuda.is_available():
        # the device lookup (line 8) is answered by the stand-in driver; torch.rand on it (line 26) fails
        assert "(line 26)" in done.stderr and "add_kernel is analysed" in done.stderr


@needs_numba
def test_numba_eager_signature_is_the_one_compiled():
    path = KERNELS / "numba_eager.py"
    done = _cli(path, "--kernel", "axpy_sig", "--block", "32", "--arg", "x=float32[32]", "--arg", "y=float32[32]",
                "--arg", "a=2.5", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    r = sa.numba(str(path), (32,), name="axpy_sig", x="float32[32]", y="float32[32]", a=2.5)
    assert ".param .f32" in r.ptx and ".param .f64" not in r.ptx  # a is the signature's float32, not a double
    for dtype in ("float32", "float64"):  # of two signatures, the one the array fits
        done = _cli(path, "--kernel", "fill_multi", "--block", "8,8", "--arg", f"m={dtype}[8,8]", "--arg", "v=3",
                    "--json")
        assert done.returncode == 0 and _json(done)["global_store"]["requests"] == 2, done.stdout + done.stderr
    done = _cli(path, "--kernel", "fill_multi", "--block", "8,8", "--arg", "m=int32[8,8]", "--arg", "v=3")
    assert done.returncode == 2 and "array(float32, 2d, A), int32) or (array(float64" in done.stderr
    assert "Traceback" not in done.stderr
    for kernel, args in (("typed_obj", ["m=float32[8,8]", "v=3"]), ("tuple_sig", ["x=float32[32]", "n=32"])):
        done = _cli(path, "--kernel", kernel, "--block", "32", *[x for a in args for x in ("--arg", a)], "--json")
        assert done.returncode == 0, done.stdout + done.stderr


@needs_triton
def test_triton_constexpr_given_as_an_arg():
    common = ["--kernel", "add", "--triton", "--grid", "4", "--arg", "x_ptr=float32[1000]", "--arg",
              "y_ptr=float32[1000]", "--arg", "out_ptr=float32[1000]", "--arg", "n=1000", "--json"]
    as_arg = _cli(ROBUST / "robust_triton.py", *common, "--arg", "BLOCK=256")
    as_constexpr = _cli(ROBUST / "robust_triton.py", *common, "--constexpr", "BLOCK=256")
    assert as_arg.returncode == 0, as_arg.stdout + as_arg.stderr
    assert _json(as_arg)["global_load"] == _json(as_constexpr)["global_load"]
    both = _cli(ROBUST / "robust_triton.py", *common, "--arg", "BLOCK=256", "--constexpr", "BLOCK=128")
    assert both.returncode == 2 and "given twice" in _json(both)["error"]


@needs_triton
def test_triton_autotune_configs_picked_by_the_target_at_import():
    path = KERNELS / "triton_autotune_by_target.py"
    done = _cli(path, "--triton", "--kernel", "mm", "--grid", "2,2", "--arg", "a_ptr=float16[100,64]", "--arg",
                "b_ptr=float16[64,96]", "--arg", "c_ptr=float16[100,96]", "--arg", "M=100", "--arg", "N=96",
                "--arg", "K=64", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = _json(done)
    # the driver answered with the target analysed (sm_90): the NVIDIA configs, the first of them
    assert doc["block"] == [128, 1, 1] and any("BM=64" in n and "num_stages=3" in n for n in doc["notes"])
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((100, 64)).astype(np.float16), rng.standard_normal((64, 96)).astype(np.float16)
    r = sa.triton(str(path), (2, 2), name="mm", values={"a_ptr": a, "b_ptr": b, "c_ptr": np.zeros((100, 96), np.float16),
                                                         "M": 100, "N": 96, "K": 64}, program=(1, 0, 0))
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(r.buffers["c_ptr"][64:100, :64].astype(np.float32), ref[64:100, :64], atol=0.05,
                               rtol=0.01)


@pytest.mark.skipif(not (NUMBA and TRITON), reason="needs numba-cuda and triton")
def test_the_other_front_end_is_named():
    done = _cli(ROBUST / "robust_triton.py", "--kernel", "add", "--block", "32", "--arg", "x_ptr=float32[8]")
    assert done.returncode == 2 and "analysed with --triton" in done.stderr and "Traceback" not in done.stderr
    done = _cli(ROBUST / "robust_numba.py", "--triton", "--kernel", "add1d", "--grid", "1", "--arg", "a=float32[8]")
    assert done.returncode == 2 and "without --triton" in done.stderr and "add1d" in done.stderr


@needs_numba
def test_numba_padded_and_unpadded_16_wide_tiles(rn):
    a = np.arange(1024, dtype=np.float32).reshape(32, 32)
    got = {}
    for name in ("unpadded_transpose", "padded_transpose"):
        r = sa.numba(getattr(rn, name), (16, 16), a, np.zeros_like(a), grid=(2, 2), block_index=(1, 0, 0))
        np.testing.assert_array_equal(r.buffers["out"][16:32, 0:16], a.T[16:32, 0:16])
        got[name] = tuple((r.totals(k)["requests"], r.totals(k)["wavefronts"]) for k in ("store", "load"))
    assert got["unpadded_transpose"] == ((8, 8), (8, 64))
    assert got["padded_transpose"] == ((8, 16), (8, 16))


@needs_numba
def test_numba_strided_and_coalesced_global_reads(rn):
    r = sa.numba(rn.column_read, (64,), np.ones((64, 16), np.float32), np.zeros(64, np.float32))
    assert r.memory_totals("global load")["sectors"] == 1024 and r.memory_totals("global load")["ideal_sectors"] == 128
    np.testing.assert_array_equal(r.buffers["out"], np.full(64, 16, np.float32))
    x = np.arange(1000, dtype=np.float32)
    r = sa.numba(rn.add1d, (128,), x, x, np.zeros_like(x), grid=(8,), block_index=(7, 0, 0))
    t = r.memory_totals("global load")
    assert (t["requests"], t["sectors"], t["ideal_sectors"]) == (8, 26, 26)


@needs_numba
def test_numba_kernel_calling_a_linked_cuda_function():
    # cuda.declare_device + @cuda.jit(link=[FILE.cu]): the .cu compiled by NVRTC and merged into the module
    x = np.arange(32, dtype=np.float32)
    r = sa.numba(str(KERNELS / "numba_linked.py"), (32,), name="use_foreign", x=x, out=np.zeros_like(x))
    np.testing.assert_array_equal(r.buffers["out"], x * x + 1)
    assert "mul_add" in r.ptx and ".extern .func" not in r.ptx.split("mul_add")[0].splitlines()[-1]


@needs_triton
def test_triton_parameter_named_num_stages_takes_the_launch_keyword():
    # Triton's fused-softmax tutorial: `num_stages=2` at the launch binds to the kernel's parameter of that name
    # (it crashed the front end: "got multiple values for keyword argument 'num_stages'"); with the parameter at 1
    # the row loop is not pipelined (no cp.async), at 2 its loads go through cp.async
    common = [str(KERNELS / "triton_softmax_tutorial.py"), "--triton", "--grid", "4", "--arg",
              "output_ptr=float32[16,781]", "--arg", "input_ptr=float32[16,781]", "--arg", "input_row_stride=781",
              "--arg", "output_row_stride=781", "--arg", "n_rows=16", "--arg", "n_cols=781", "--constexpr",
              "BLOCK_SIZE=1024", "--json"]
    runs = {how: _cli(*common, *how) for how in (("--num-stages", "1"), ("--num-stages", "2"),
                                                  ("--constexpr", "num_stages=2"))}
    for how, done in runs.items():
        assert done.returncode == 0, (how, done.stdout + done.stderr)
    one, two, named = (_json(d) for d in runs.values())
    assert any("has a parameter named num_stages" in n for n in two["notes"])
    # 4 rows a program, each 781 floats from a 16-byte-aligned row start: 100 requests of 4-byte lanes
    assert "ldgsts" not in one and one["global_load"]["requests"] > 0  # no cp.async at all
    assert two["ldgsts"]["requests"] > 0 and two["global_ldgsts"] == named["global_ldgsts"]


@needs_triton
def test_triton_kernel_whose_decorator_fails_without_a_gpu():
    # the fused-attention tutorial's `@triton.autotune(configs=list(filter(keep_tma, configs)))`: keep_tma asks
    # torch for the device; the kernel is defined without that decorator (it was "not among what ran")
    path = KERNELS / "triton_failing_decorator.py"
    done = _cli(path, "--triton", "--kernel", "scale_rows", "--grid", "4", "--constexpr", "BLOCK=256", "--arg",
                "x_ptr=float32[1024]", "--arg", "y_ptr=float32[1024]", "--arg", "n=1024", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "scale_rows is defined without @triton.autotune(" in done.stderr
    # 256 floats a program, 4 warps of 2 floats a lane (n a multiple of 16: one 8-byte load a lane): 4 load
    # requests of 256 bytes, 8 sectors each
    assert (_json(done)["global_load"]["requests"], _json(done)["global_load"]["sectors"]) == (4, 32)


@needs_triton
def test_triton_kernel_that_triton_refuses_names_the_reason():
    path = KERNELS / "triton_failing_decorator.py"
    done = _cli(path, "--triton", "--kernel", "old_style", "--grid", "1", "--arg", "x_ptr=float32[64]", "--arg", "n=64")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) >= (3, 9):  # Triton 3.9 refuses **meta when it is defined
        assert "its definition (line 20) raised TypeError" in done.stderr and "**meta" in done.stderr
    else:  # 3.6 takes `meta` for a parameter, which the launch must give
        assert "old_style needs 1 more --arg: meta" in done.stderr


@needs_triton
def test_triton_kernel_under_torch_compiles_caching_autotuner():
    """torch.compile's generated kernels sit under @triton_heuristics.pointwise (a CachingAutotuner): analyze takes
    its first config as it does @triton.autotune's (XBLOCK 256, 4 warps: 2 consecutive elements a thread). With
    xnumel = 1000 (not a multiple of 16) Triton cannot prove a thread's pair under one mask and loads it as two
    4-byte accesses: each warp-access's lanes are 8 bytes apart, 8 sectors where 4 would do, 4 warps x 2 = 8
    requests a line (64 sectors, ideal 32, for in_ptr0 and out_ptr0); in_ptr1[x // 4] is 16 floats a warp-access,
    2 sectors (16). With xnumel = 1024 the pair is one 8-byte access and nothing is wasted."""
    path = KERNELS / "triton_inductor_style.py"
    spec = importlib.util.spec_from_file_location("triton_inductor_style", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    a, b = np.arange(1, 1001, dtype=np.float32), np.arange(1, 251, dtype=np.float32)
    r = sa.triton(mod.triton_poi_fused_mul_0, 4, a, b, np.zeros_like(a), 1000)
    assert r.block == (128, 1, 1) and any("autotuned" in n and "XBLOCK=256" in n for n in notes(r))
    np.testing.assert_array_equal(r.buffers["out_ptr0"][:256], a[:256] * b[:64].repeat(4))
    args = ("--kernel", "triton_poi_fused_mul_0", "--triton", "--grid", "4")
    done = _cli(path, *args, "--arg", "in_ptr0=float32[1000]", "--arg", "in_ptr1=float32[250]",
                "--arg", "out_ptr0=float32[1000]", "--arg", "xnumel=1000", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = _json(done)
    assert doc["global_load"] == {"requests": 16, "sectors": 80, "ideal_sectors": 48}
    assert doc["global_store"] == {"requests": 8, "sectors": 64, "ideal_sectors": 32}
    shown = _cli(path, *args, "--arg", "in_ptr0=float32[1000]", "--arg", "in_ptr1=float32[250]",
                 "--arg", "out_ptr0=float32[1000]", "--arg", "xnumel=1000")
    assert "Triton gave each thread 2 consecutive elements" in " ".join(shown.stdout.split())
    even = _json(_cli(path, *args, "--arg", "in_ptr0=float32[1024]", "--arg", "in_ptr1=float32[256]",
                      "--arg", "out_ptr0=float32[1024]", "--arg", "xnumel=1024", "--json"))
    assert even["global_store"] == {"requests": 4, "sectors": 32, "ideal_sectors": 32}
    assert even["global_load"]["sectors"] == even["global_load"]["ideal_sectors"]
    listed = subprocess.run([sys.executable, "-m", "smemlab", "analyze", str(path), "--triton", "--list"],
                            capture_output=True, text=True)
    assert "triton_poi_fused_mul_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK)" in listed.stdout, listed.stdout
