"""`smemlab analyze` on whole files as they sit (tests/data/analyze/files): host code, CUB, templates,
struct fields by name, reduced-precision types, the compile cache, and the errors a user meets."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from smemlab.analyze import nvcc
from smemlab.errors import UserError

FILES = Path(__file__).parent / "data" / "analyze" / "files"

pytestmark = pytest.mark.skipif(nvcc.find() is None or nvcc.host_compiler([]) is None,
                                reason="nvcc (the nvidia-cuda-nvcc wheel) or a host C++ compiler is not installed")


def _analyze(name, kernel, block, args, **kw):
    from smemlab.analyze import analyze_source

    return analyze_source(str(FILES / name), kernel, block, args=args, **kw)


def test_a_program_with_main_launches_and_a_subfolder_header():
    r = _analyze("transpose_app.cu", "transpose_tiled<32>", (32, 8),
                 ["out=float32[1024]", "in=float32[1024]", "width=32", "height=32"])
    inp = np.asarray(r.buffers["in"]).reshape(32, 32)
    assert np.array_equal(np.asarray(r.buffers["out"]).reshape(32, 32), inp.T)
    assert r.totals("load")["wavefronts"] == r.totals("load")["ideal_wavefronts"] == 32  # the padded tile


def test_an_edit_to_a_nested_header_compiles_again(tmp_path, monkeypatch):
    monkeypatch.setenv("SMEMLAB_CACHE", str(tmp_path / "cache"))
    work = tmp_path / "files"
    shutil.copytree(FILES, work)
    args = ["out=float32[1024]", "in=float32[1024]", "width=32", "height=32"]
    from smemlab.analyze import analyze_source

    before = analyze_source(str(work / "transpose_app.cu"), "transpose_tiled<32>", (32, 8), args=args)
    header = work / "helpers" / "tile.cuh"
    header.write_text(header.read_text().replace("#define TILE_PAD 1", "#define TILE_PAD 0"))
    after = analyze_source(str(work / "transpose_app.cu"), "transpose_tiled<32>", (32, 8), args=args)
    assert before.totals("load")["wavefronts"] == 32
    assert after.totals("load")["wavefronts"] == 1024  # the unpadded tile's column reads: 32-way
    assert (before.static_shared, after.static_shared) == (32 * 33 * 4, 32 * 32 * 4)


def test_cub_rows_name_the_users_line_above_the_header_line():
    from smemlab.analyze import render

    r = _analyze("cub_blocks.cu", "block_max<256, cub::BLOCK_REDUCE_RAKING>", (256,),
                 ["in=float32[256]", "out=float32[1]", "n=256"])
    assert np.isclose(np.asarray(r.buffers["out"])[0], np.asarray(r.buffers["in"]).max())
    lines = [d for d in render.to_json(r)["lines"] if d["op"] in ("load", "store", "atomic")]  # shared memory's
    assert lines and all(d["file"].startswith("cub/") for d in lines)
    assert {c["line"] for d in lines for c in d["called_from"]} == {46}
    assert all(c["file"].endswith("cub_blocks.cu") for d in lines for c in d["called_from"])


def test_template_instances_by_enum_name_alias_and_namespace():
    r = _analyze("templates_overloads.cu", "lab::stage_and_reverse<float, 128>", (128,),
                 ["data=float32[128]", "n=128"])  # the file instantiates none: the name does
    r2 = _analyze("templates_overloads.cu", "lab::strided<33>", (32,), ["data=float32[32]"])
    assert r.symbol != r2.symbol
    assert r2.totals("store")["wavefronts"] == 1  # stride 33 spreads the lanes over the banks
    r3 = _analyze("templates_overloads.cu", "lab::strided<2>", (32,), ["data=float32[32]"])
    assert r3.totals("store")["wavefronts"] == 2


def test_the_one_kernel_needs_no_name_and_several_need_one():
    r = _analyze("params_struct.cu", None, (128,), _conv_args())
    assert r.kernel.startswith("causal_conv_fwd<128, 4>")
    with pytest.raises(UserError, match="has 2 kernels .*name one with --kernel"):
        _analyze("transpose_app.cu", None, (32, 8), [])


def _conv_args():
    return ["params.x=float32[512]", "params.weight=float32[16]", "params.out=float32[512]", "params.seqlen=128",
            "params.strides.stride_x=128", "params.strides.stride_out=128", "params.dim=4"]


def test_struct_fields_by_name_pointers_included():
    r = _analyze("params_struct.cu", "causal_conv_fwd<128, 4>", (128,), _conv_args())
    x, w = np.asarray(r.buffers["params.x"])[:128], np.asarray(r.buffers["params.weight"])[:4]
    padded = np.concatenate([np.zeros(3, np.float32), x])
    want = np.array([np.dot(w, padded[t:t + 4]) for t in range(128)], np.float32)
    assert np.allclose(np.asarray(r.buffers["params.out"])[:128], want, rtol=1e-5, atol=1e-6)
    with pytest.raises(UserError, match="no parameter nope"):
        _analyze("params_struct.cu", None, (128,), ["nope.x=float32[4]"])
    with pytest.raises(UserError, match="could not lay out"):
        _analyze("params_struct.cu", None, (128,), ["params.nofield=4"])


def test_every_missing_argument_in_one_message_with_its_type():
    with pytest.raises(UserError) as e:
        _analyze("mixed_precision.cu", "half_dot", (256,), [])
    text = str(e.value)
    assert "needs 4 more --args" in text
    for part in ("a (const __half2*)", "b (const __half2*)", "out (float*)", "n2 (int)"):
        assert part in text


@pytest.mark.parametrize("kernel,args,out,ref", [
    ("bf16_scale_rows", ["in=bfloat16[256]", "out=bfloat16[256]", "cols=256"], "out", "bf16"),
    ("half_dot", ["a=half2[512]", "b=half2[512]", "out=float32[1]", "n2=512"], "out", "dot"),
])
def test_reduced_precision_buffers_hold_real_values(kernel, args, out, ref):
    from smemlab.analyze.args import from_bits

    r = _analyze("mixed_precision.cu", kernel, (256,) if kernel == "half_dot" else (128,), args)
    if ref == "bf16":
        x = from_bits(np.asarray(r.buffers["in"]), "bfloat16")
        y = from_bits(np.asarray(r.buffers["out"]), "bfloat16")
        assert np.abs(x).max() > 0.5 and np.allclose(y, x - x[0], atol=1e-2)
    else:
        a = np.asarray(r.buffers["a"]).astype(np.float64)
        b = np.asarray(r.buffers["b"]).astype(np.float64)
        assert np.isclose(np.asarray(r.buffers["out"])[0], np.dot(a, b), rtol=2e-2)


def test_fp8_and_bfloat16_bits_round_to_nearest():
    from smemlab.analyze.args import from_bits, to_bits

    v = np.array([0.1, -0.5, 1.0, 300.0, 448.0, 0.001953125])
    assert np.allclose(from_bits(to_bits(v, "bfloat16"), "bfloat16"), v, rtol=4e-3)
    assert list(from_bits(to_bits(v, "e4m3"), "e4m3")) == [0.1015625, -0.5, 1.0, 288.0, 448.0, 0.001953125]
    assert list(from_bits(to_bits(v, "e5m2"), "e5m2"))[:3] == [0.09375, -0.5, 1.0]


def test_list_names_instances_parameters_and_uninstantiated_templates(capsys):
    from smemlab.cli import main

    assert main(["analyze", str(FILES / "cub_blocks.cu"), "--list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = [k["name"] for k in doc["kernels"]]
    assert "sort_tiles<128, 4>" in names and len(names) >= 6  # some CCCL releases add an EmptyKernel of CUB's own
    assert not any("_SM_" in n for n in names)  # CCCL's versioned inline namespace left out
    sort = doc["kernels"][names.index("sort_tiles<128, 4>")]
    assert sort["params"] == [{"name": "keys_in", "type": "int const*"}, {"name": "keys_out", "type": "int*"}]
    assert main(["analyze", str(FILES / "templates_overloads.cu"), "--list"]) == 0
    text = capsys.readouterr().out
    assert "fill<float>(float* out, float value)" in text
    assert "stage_and_reverse<...>" in text and "strided<...>" in text


def test_compiler_options_pass_through_and_errors_are_json(capsys):
    from smemlab.cli import main

    status = main(["analyze", str(FILES / "transpose_app.cu"), "--kernel", "row_sums", "--block", "256",
                   "-X", "--this-option-does-not-exist", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 2 and "does not compile" in doc["error"] and "this-option-does-not-exist" in doc["error"]


def test_a_folder_and_a_missing_compiler_are_clear(monkeypatch, tmp_path):
    with pytest.raises(UserError, match="is a folder"):
        _analyze(str(FILES), "k", (32,), [])
    monkeypatch.setattr(nvcc, "find", lambda: None)
    with pytest.raises(UserError, match=r"smemlab\[analyze\]"):
        nvcc.compile_file(FILES / "transpose_app.cu", "transpose_app.cu")


def test_an_instance_the_file_lacks_with_a_wrong_name_is_refused():
    with pytest.raises(UserError):
        _analyze("templates_overloads.cu", "lab::no_such_kernel<1>", (32,), [])


def _cuda_library_headers() -> bool:
    """ATen's CUDA headers include cuSPARSE's and cuBLAS's, which a CUDA build of torch brings (its nvidia-*
    wheels) and a CPU build does not."""
    found = nvcc.find()
    return found is not None and any((d / "cusparse.h").is_file() for d in found.resolve().parents[1].glob("include"))


@pytest.mark.skipif(importlib.util.find_spec("torch") is None or not _cuda_library_headers(),
                    reason="PyTorch with its CUDA libraries' headers (cusparse.h) is not installed here")
def test_a_pytorch_extension_file_as_it_sits():
    r = _analyze("torch_ext.cu", "rowwise_shift<float>", (128,), ["in=float32[256]", "out=float32[256]", "cols=256"])
    x = np.asarray(r.buffers["in"])
    assert np.array_equal(np.asarray(r.buffers["out"]), np.roll(x, -1))


def test_restrict_pointer_fields_launch_bounds_with_braces_and_a_null_pointer(capsys):
    from smemlab.cli import main

    r = _analyze("declarations.cu", "add_views", (128,), ["v.n=128", "v.x=float32[128]", "v.y=float32[128]"])
    assert r.totals("load")["requests"] == 4  # the block's four warps read s[127 - tid] once each
    r = _analyze("declarations.cu", "scaled<Shape>", (64,), ["in=float32[64]", "out=float32[64]",
                                                          "maybe_norms=0", "n=64"])  # NULL, as callers pass it
    assert np.array_equal(np.asarray(r.buffers["out"]), 2 * np.asarray(r.buffers["in"])[::-1])
    assert main(["analyze", str(FILES / "declarations.cu"), "--list"]) == 0
    text = capsys.readouterr().out
    assert "scaled<Shape>(float const* in, float* out, float* maybe_norms, int n)" in text
    assert "__launch_bounds__" not in text


def test_a_missing_library_header_names_its_wheel(tmp_path):
    from smemlab.analyze.nvrtc import CompileFailed

    src = tmp_path / "uses_cublas.cu"
    src.write_text('#include <cublas_v2.h>\n__global__ void k(float *x) { x[threadIdx.x] = 0.f; }\n')
    found = nvcc.find()
    places = [found.resolve().parents[1] / "include"] + [Path(d) for d in nvcc.toolkit_fallback(found)]
    if any((d / "cublas_v2.h").is_file() for d in places):
        pytest.skip("cuBLAS's headers are installed here")
    with pytest.raises(CompileFailed, match="pip install nvidia-cublas"):
        nvcc.compile_file(src, "uses_cublas.cu")


@pytest.mark.parametrize("b_layout", ["col_major", "row_major"])
def test_wmma_tiles_multiply_as_numpy_does(b_layout):
    """wmma.load/mma/store with the fragment layouts measured on an H200 (analyze/data/wmma_layouts.json):
    two k-tiles of A (row-major) times B, against NumPy."""
    r = _analyze("wmma_gemm.cu", f"wmma_tile<nvcuda::wmma::row_major, nvcuda::wmma::{b_layout}>", (32,),
                 ["a=float16[512]", "b=float16[512]", "c=float32[256]", "k_tiles=2"])
    a = np.asarray(r.buffers["a"]).astype(np.float64).reshape(2, 16, 16)
    b = np.asarray(r.buffers["b"]).astype(np.float64).reshape(2, 16, 16)
    if b_layout == "col_major":  # element (k, n) of a column-major tile sits at n * 16 + k
        b = b.transpose(0, 2, 1)
    want = a[0] @ b[0] + a[1] @ b[1]
    assert np.allclose(np.asarray(r.buffers["c"]).reshape(16, 16), want, rtol=1e-5, atol=1e-5)
    # each fragment load is one LDSM.16.M88.4 (or .MT88.4): 16-byte rows 32 bytes apart put rows r and r + 4
    # of a matrix in the same banks, 2 wavefronts a matrix, 8 a load; a and b in each of two k-tiles
    assert r.totals("load")["wavefronts"] == 2 * 2 * 8


def test_an_overload_picked_by_its_type_keeps_its_parameter_names():
    r = _analyze("templates_overloads.cu", "static_cast<void (*)(double *, double)>(scale)", (64,),
                 ["x=float64[64]", "s=2"])
    assert r.symbol == "_Z5scalePdd"
    x = np.asarray(r.buffers["x"])
    assert x.dtype == np.float64 and r.totals("store")["wavefronts"] == 4  # 8-byte stores: 2 a warp
    with pytest.raises(UserError, match="2 kernels have that name"):
        _analyze("templates_overloads.cu", "scale", (64,), ["x=float32[64]", "s=2"])


def test_the_tables_fit_80_columns(capsys, monkeypatch):
    from smemlab.cli import main

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["analyze", str(FILES / "cub_blocks.cu"), "--kernel", "block_max<256, cub::BLOCK_REDUCE_RAKING>",
                 "--block", "256", "--arg", "in=float32[256]", "--arg", "out=float32[1]", "--arg", "n=256"]) == 0
    out = capsys.readouterr().out
    table = out.split("shared-memory traffic per source line", 1)[1].split("kernel totals", 1)[0]
    assert table.strip() and max(len(line.rstrip()) for line in table.splitlines()) <= 80
    assert "cub_blocks.cu:46" in table  # the user's line, whole


def test_wmma_fragments_cost_each_warp_of_a_block():
    """Two warps each load, double and store the same accumulator tile through shared memory: twice one warp's
    traffic (4 LDS.64 and 4 STS.64 of 4 wavefronts at a 64-byte row stride, files.wmma_c.m16n16k16.f32.row.ld16)."""
    r = _analyze("wmma_shared.cu", "c_through_shared<16, 16, 16, float, 16, false>", (64,),
                 ["in=float32[512]", "out=float32[512]"])
    lines = {ls.line: (ls.requests, ls.wavefronts) for ls in r.lines if ls.kind in ("load", "store") and ls.bytes == 8}
    assert sorted(lines.values()) == [(2 * 4, 2 * 16), (2 * 4, 2 * 16)]
