"""Argument checking of smemlab.ops, with no GPU: every wrong argument is refused with a
TypeError/ValueError that names what was given and what is accepted, before any GPU call."""

import numpy as np
import pytest

from smemlab import ops
from smemlab.ops import _args as A


class FakeCAI:
    """A device array as seen through __cuda_array_interface__: metadata only, never touched."""

    def __init__(self, shape, typestr="<f4", strides=None):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "strides": strides,
                                         "data": (0x7F0000000000, False), "version": 3}


HOST = [np.ones((4, 4), np.float32), [[1.0, 2.0], [3.0, 4.0]], (1.0, 2.0), 3.0, 7]


@pytest.mark.parametrize("x", HOST, ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("call", [ops.transpose, ops.reduce_sum, lambda x: ops.stencil1d(x, [1.0, 2.0, 1.0])],
                         ids=["transpose", "reduce_sum", "stencil1d"])
def test_host_data_refused(call, x):
    with pytest.raises(TypeError, match="GPU array"):
        call(x)


def test_message_names_given_and_accepted():
    with pytest.raises(TypeError) as e:
        ops.transpose(np.ones((3, 5), np.float64))
    msg = str(e.value)
    assert "NumPy array (float64, shape (3, 5))" in msg and "float32" in msg and "cupy.asarray" in msg


def test_other_objects_refused():
    with pytest.raises(TypeError, match="str"):
        ops.reduce_sum("abc")
    with pytest.raises(TypeError, match="object"):
        ops.transpose(object())


def test_wrong_dtype():
    with pytest.raises(TypeError, match=r"dtype complex64 is not accepted; accepted: float16, bfloat16 \(torch tensors "
                                        r"only\), int16, float32, int32, float64 or int64"):
        ops.transpose(FakeCAI((4, 4), "<c8"))
    with pytest.raises(TypeError, match="dtype int8 is not accepted"):
        ops.transpose(FakeCAI((4, 4), "|i1"))
    with pytest.raises(TypeError, match="dtype int16 is not accepted; accepted: bool, uint8, int32, int64, float16"):
        ops.reduce_sum(FakeCAI((8,), "<i2"))
    with pytest.raises(TypeError, match="accepted: float32"):
        ops.stencil1d(FakeCAI((8,), "<i4"), [1.0])


def test_wrong_rank():
    with pytest.raises(ValueError, match="expected a 2-D, 3-D or 4-D array, got 1-D"):
        ops.transpose(FakeCAI((16,)))
    with pytest.raises(ValueError, match="got 5-D"):
        ops.transpose(FakeCAI((2, 2, 2, 2, 2)))
    with pytest.raises(ValueError, match="expected a 1-D array, got 2-D"):
        ops.stencil1d(FakeCAI((4, 4)), [1.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="got 0-D"):
        ops.reduce_sum(FakeCAI(()))


def test_non_contiguous_views_are_accepted_and_marked_for_a_copy():
    # a transposed view: strides (4, 16) for a 4x4 float32 array; the copy is made on the GPU (on_device)
    info = A.read(FakeCAI((4, 4), "<f4", strides=(4, 16)), "x", A.Dtypes("float32"), (2,))
    assert info.strided and info.kind == "cai"
    assert A.read(FakeCAI((8,), "<f4", strides=(8,)), "x", A.Dtypes("float32"), (1,)).strided
    assert not A.read(FakeCAI((0, 4), "<f4", strides=(4, 16)), "x", A.Dtypes("float32"), (2,), allow_empty=True).strided


def test_contiguity_rule():
    assert A.cai_contiguous((4, 4), None, 4)
    assert A.cai_contiguous((4, 4), (16, 4), 4)
    assert A.cai_contiguous((1, 4), (999, 4), 4)  # size-1 dims may have any stride
    assert not A.cai_contiguous((4, 4), (4, 16), 4)


def test_empty_where_meaningless():
    with pytest.raises(ValueError, match="non-empty"):
        A.read(FakeCAI((0,)), "x", A.Dtypes("float32"), (1,))
    info = A.read(FakeCAI((0, 3)), "x", A.Dtypes("float32"), (2,), allow_empty=True)
    assert info.size == 0 and info.kind == "cai" and info.ptr == 0x7F0000000000 and info.shape == (0, 3)
    assert info.device == A.CURRENT  # read with no GPU call; the op resolves it on the device


def test_reduce_dtype_argument():
    x = FakeCAI((8,), "<f4")
    with pytest.raises(TypeError, match="accepted: float32 or float64"):
        ops.reduce_sum(x, dtype=np.int32)
    with pytest.raises(TypeError, match="accepted"):
        ops.reduce_sum(FakeCAI((8,), "<i4"), dtype="float16")
    from smemlab.ops.reduce import result_dtype

    assert result_dtype("int32") == np.int64  # like cupy.sum / numpy.sum
    assert result_dtype("float32") == np.float32
    assert result_dtype("float64") == np.float64
    assert result_dtype("int32", "int32") == np.int32
    assert result_dtype("float32", np.float64) == np.float64


def test_reduce_new_dtypes_result_types():
    from smemlab.ops._args import BF16
    from smemlab.ops.reduce import result_dtype

    # torch.sum's and cupy.sum's result types, which agree on every accepted input
    assert result_dtype("int64") == np.int64
    assert result_dtype("float16") == np.float16
    assert result_dtype("bfloat16") == BF16
    assert result_dtype("float16", "float32") == np.float32
    assert result_dtype("bfloat16", np.float32) == np.float32
    with pytest.raises(TypeError, match="accepted: float16 or float32"):
        result_dtype("float16", "float64")
    with pytest.raises(TypeError, match="accepted: bfloat16 or float32"):
        result_dtype("bfloat16", "float16")
    with pytest.raises(TypeError, match="accepted: int64"):
        ops.reduce_sum(FakeCAI((8,), "<i8"), dtype="int32")


def test_bfloat16_only_from_torch():
    """CuPy cannot hold bfloat16; an array interface naming a 2-byte raw type is not taken for one."""
    with pytest.raises(TypeError, match=r"dtype void16 is not accepted; .*bfloat16 \(torch tensors only\)"):
        ops.reduce_sum(FakeCAI((8,), "|V2"))
    with pytest.raises(TypeError, match=r"bfloat16 \(torch tensors only\)"):
        ops.transpose(FakeCAI((4, 4), "|V2"))
    with pytest.raises(TypeError, match="dtype float16 is not accepted; accepted: float32"):
        ops.stencil1d(FakeCAI((8,), "<f2"), [1.0])


@pytest.mark.parametrize("axis,exc,match", [
    (0, ValueError, "axis: 0 is not supported for a 2-D array; .* last axis"),
    (-2, ValueError, "axis: -2 is not supported"),
    (2, ValueError, "axis: 2 is not supported"),
    ((0, 1), TypeError, r"axis: expected None or -1 \(the last axis\), got \(0, 1\)"),
    (True, TypeError, "got True"),
    ("-1", TypeError, "got '-1'"),
])
def test_reduce_axis_refused(axis, exc, match):
    with pytest.raises(exc, match=match):
        ops.reduce_sum(FakeCAI((4, 6), "<f4"), axis=axis)


def test_reduce_axis_checked_after_the_array():
    with pytest.raises(TypeError, match="GPU array"):
        ops.reduce_sum(np.ones((4, 4), np.float32), axis=0)
    with pytest.raises(TypeError, match="accepted: float32 or float64"):
        ops.reduce_sum(FakeCAI((4, 6), "<f4"), dtype="int32", axis=-1)


def test_row_plan():
    from smemlab.ops.reduce import TILE_BYTES, row_plan

    resident, slots = 264, 2112  # an H200's 132 SMs with 2 blocks each; 16 partial slots an SM
    # short rows: groups of lanes sized so that two batches of 8 vectors a lane cover a row
    assert row_plan(1 << 20, 256, 4, resident, slots) == ("warp", (1 << 20) // 8 // 8, 4)  # 64 vectors: 4 lanes
    assert row_plan(1000, 3, 4, resident, slots)[0::2] == ("warp", 1)
    kind, grid, lanes = row_plan(10, TILE_BYTES // 4 - 1, 4, resident, slots)
    assert (kind, lanes) == ("warp", 32) and grid * 8 * 32 // lanes >= 10
    # long rows: one block a row while that fills the waves of resident blocks, else as many as fill them
    assert row_plan(1 << 14, 1 << 14, 4, resident, slots) == ("block", 1 << 14, 1)
    assert row_plan(256, 1 << 20, 4, resident, slots) == ("block", 256, 1)  # 256 of 264 slots: one wave
    assert row_plan(100, 1 << 20, 4, resident, slots) == ("block", 500, 5)  # 500 blocks: 95% of two waves
    assert row_plan(2, TILE_BYTES // 2, 2, resident, slots) == ("block", 8, 4)  # no block under 8 KB of a row
    for rows in (1, 3, 50, 200, 300, 600):  # never more partials and counters than the workspace holds
        kind, grid, segs = row_plan(rows, 1 << 22, 4, resident, slots)
        assert grid == rows * segs and (segs == 1 or (grid <= slots and rows <= slots // 2))


def test_transpose_plan():
    from smemlab.ops.transpose import plan

    assert plan((4096, 4096), 4, True) == ("transpose_e4", 64, 64, 4096, 256)
    assert plan((4096, 4100), 4, True)[0] == "transpose_e4"  # sides multiples of 4 elements
    # any shape or alignment: the element kernels, 256 threads, the tile per element size
    assert plan((4096, 4098), 4, True) == ("transpose_e4_pr128x64", 32, 65, 32 * 65, 256)
    assert plan((4096, 4096), 4, False)[0] == "transpose_e4_pr128x64"  # a pointer off 16-byte alignment
    assert plan((1023, 1025), 4, True) == ("transpose_e4_el64x32", 16, 33, 16 * 33, 256)  # few tall tiles: shorter
    assert plan((16, 2000, 1000), 2, True) == ("transpose_e2", 16, 8, 16 * 128, 256)  # 128x128 tiles of 2 bytes
    assert plan((8, 2000, 1001), 2, True) == ("transpose_e2_pr128x64", 16, 16, 8 * 16 * 16, 256)
    assert plan((2, 2000, 1001), 2, True) == ("transpose_e2_el64x64", 32, 16, 2 * 32 * 16, 256)
    assert plan((7001, 5003), 8, True)[0] == "transpose_e8_el64x32"
    assert plan((8, 3, 256, 256), 8, True) == ("transpose_e8", 8, 8, 24 * 64, 256)  # 32x32 tiles of 8 bytes
    # too few 16-chunk tiles for the GPU, or tiles mostly empty: tiles of 8 chunks
    assert plan((1024, 1024), 2, True) == ("transpose_e2_small", 16, 16, 256, 64)
    assert plan((2048, 2048), 4, True)[0] == "transpose_e4_small"
    assert plan((512, 2048, 64), 2, True) == ("transpose_e2_small", 32, 1, 512 * 32, 64)
    assert plan((7, 5), 8, True) == ("transpose_e8_el64x32", 1, 1, 1, 256)
    # 2- and 4-byte elements, enough tiles: the pair kernels; too few: the element kernels as above
    assert plan((7001, 5003), 2, True) == ("transpose_e2_pr128x64", 55, 79, 55 * 79, 256)
    assert plan((32, 1000, 999), 2, False)[0] == "transpose_e2_pr128x64"
    assert plan((7001, 5003), 4, False)[0] == "transpose_e4_pr128x64"
    assert plan((3001, 2999), 2, True)[0] == "transpose_e2_el64x64"  # 1128 tiles of 128x64
    assert plan((3001, 2999), 4, True)[0] == "transpose_e4_el128x32"


def test_transpose_plan_takes_element_kernels_that_exist():
    from smemlab.ops.transpose import ELEMENT_TILES, PAIR_TILES, SMALL_TILE_E4, element_kernel, element_kernels

    names = {name for name, _, _ in element_kernels()}
    assert len(names) >= 3
    chosen = [element_kernel(e, tile) for e, tile in ELEMENT_TILES.items()] + [element_kernel(4, SMALL_TILE_E4)]
    chosen += [element_kernel(e, tile, "pr") for e, tile in PAIR_TILES.items()]
    assert set(chosen) <= names


@pytest.mark.parametrize("coef,exc,match", [
    ([1.0, 2.0], ValueError, "odd length"),
    ([], ValueError, "odd length"),
    (np.ones(67), ValueError, "radius 0..32"),
    ([[1.0]], ValueError, "1-D"),
    ("abc", ValueError, "1-D"),
    ([1.0, float("nan"), 1.0], ValueError, "finite"),
    ([1.0, "a", 2.0], TypeError, "numbers"),
])
def test_stencil_coefficients(coef, exc, match):
    with pytest.raises(exc, match=match):
        ops.stencil1d(FakeCAI((8,)), coef)


def test_coefficients_checked_before_array():
    # a bad coefficient list is reported even when x is also wrong (no GPU call either way)
    with pytest.raises(ValueError, match="odd length"):
        ops.stencil1d(np.ones(8, np.float32), [1.0, 1.0])


def test_torch_cpu_tensor_refused():
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="CUDA tensor"):
        ops.transpose(torch.ones(4, 4))
    if torch.cuda.is_available():
        return
    with pytest.raises(TypeError, match="CUDA tensor"):
        ops.reduce_sum(torch.ones(4, dtype=torch.int32))


def test_public_api_and_lazy_import():
    assert set(ops.__all__) == {"transpose", "reduce_sum", "stencil1d", "histogram", "matmul"}
    assert callable(ops.transpose) and callable(ops.reduce_sum) and callable(ops.stencil1d)
    with pytest.raises(AttributeError):
        ops.nonexistent  # noqa: B018


def test_bench_registry():
    from smemlab.bench import load_all

    names = list(load_all())
    assert names[:3] == ["transpose", "reduce", "stencil"]


def test_bench_cli_arguments(tmp_path, capsys):
    from smemlab.cli import main

    assert main(["bench", "--plot", str(tmp_path / "x.svg")]) == 2
    assert "png" in capsys.readouterr().err
    assert main(["bench", "--json", str(tmp_path / "missing" / "x.json")]) == 2
    assert main(["bench", "--list"]) == 0
    assert "transpose" in capsys.readouterr().out


def test_kernels_compile_without_gpu():
    from smemlab.compiler import compile_cubin
    from smemlab.ops import kernel_instances

    for source in ("ops/transpose/transpose.cu", "ops/reduce/reduce.cu", "ops/stencil/stencil.cu"):
        assert compile_cubin(source, "sm_90", name_expressions=kernel_instances(source))[:4] == b"\x7fELF"


def test_ops_are_functions_even_after_their_modules_are_imported():
    import smemlab.ops.histogram  # noqa: F401
    import smemlab.ops.matmul  # noqa: F401
    import smemlab.ops.transpose  # noqa: F401
    from smemlab.ops import histogram, matmul, transpose

    assert all(callable(f) and type(f).__name__ == "function" for f in (histogram, matmul, transpose))


def test_reduce_call_plans_agree_with_result_dtype_and_refuse_unhashable_dtypes():
    from smemlab.ops import reduce as R

    for x_dtype in R.DTYPES.dtypes:
        for arg in (None, "int32", "int64", "float32", "float64", np.float64):
            try:
                want = R.result_dtype(x_dtype, arg)
            except TypeError:
                with pytest.raises(TypeError, match="dtype"):
                    R._call_plan(x_dtype, arg)
                continue
            name, kernel_out, out, cast = R._call_plan(x_dtype, arg)
            assert out == want and name.startswith("reduce_") and cast == (kernel_out != out)
            assert R._call_plan(x_dtype, arg) is R._call_plan(x_dtype, arg)  # kept for the next call
    with pytest.raises(TypeError, match="dtype: \\['float32'\\] is not accepted"):
        R._call_plan(np.dtype("float32"), ["float32"])


@pytest.mark.parametrize("coef", [[0.75], [0.25, 0.5, 0.25], list(np.linspace(-1, 1, 65))], ids=["r0", "r1", "r32"])
def test_stencil_coefficients_travel_as_the_kernels_struct_parameter(monkeypatch, coef):
    """stencil1d_f32_p takes a struct of 2r+1 floats by value: its bytes, or for one coefficient the 4-byte
    int the packed launcher takes a 4-byte parameter for (the driver reports sizes, not types)."""
    from smemlab import device
    from smemlab.ops import stencil as S

    launched = []
    monkeypatch.setattr(device, "kernel", lambda source, name, device: name)
    monkeypatch.setattr(S, "_KERNELS", {})  # the fake kernels stay in this test
    monkeypatch.setattr(device, "launch", lambda k, grid, block, args, stream: launched.append((k, args)))
    c = S.coefficients(coef)
    S.launch(0x1000, 0x2000, 100, c, 0, 7)
    name, args = launched[0]
    assert name == S.KERNELS[(len(coef) - 1) // 2] == f"stencil1d_f32_p<{(len(coef) - 1) // 2}>"
    packed = device.param_struct([(0, 8), (8, 8), (16, 8), (24, 4), (28, 4 * len(coef))]).pack(*args)
    assert packed[28:] == c.tobytes()


@pytest.mark.parametrize("typestr", ["<f2", "<f8"])
def test_matmul_other_float_dtypes_name_the_alternatives(typestr):
    """float16 (and bfloat16, float64): refused before any GPU call, naming float32, torch.matmul and the conversion."""
    for a, b in ((FakeCAI((4, 8), typestr), FakeCAI((8, 2))), (FakeCAI((4, 8)), FakeCAI((8, 2), typestr))):
        with pytest.raises(TypeError, match=r"float32 only.*torch\.matmul / cupy\.matmul.*a\.float\(\)"):
            ops.matmul(a, b)


def test_matmul_bfloat16_fake_names_the_alternatives():
    torch = pytest.importorskip("torch")
    from smemlab.ops._route import registered

    a, b = (torch.empty(*shape, device="meta", dtype=torch.bfloat16) for shape in ((4, 8), (8, 2)))
    with pytest.raises(TypeError, match=r"bfloat16.*torch\.matmul"):
        registered().matmul(a, b)


def test_stencil_coefficients_alternating_are_checked_once_each(monkeypatch):
    """A forward and backward pass alternate the coefficients and their reverse: both stay checked; the
    cache holds a bounded number, and a changed list is checked again."""
    import smemlab.ops.stencil as S

    checked = []
    real = S._check_coefficients
    monkeypatch.setattr(S, "_check_coefficients", lambda coef: checked.append(tuple(coef)) or real(coef))
    monkeypatch.setattr(S, "_CHECKED", {})
    fwd, bwd = [0.1, 0.2, 0.7], [0.7, 0.2, 0.1]
    for _ in range(5):
        assert S.coefficients(fwd).tolist() == pytest.approx(fwd) and S.coefficients(bwd).tolist() == pytest.approx(bwd)
    assert checked == [tuple(fwd), tuple(bwd)]
    for i in range(2 * S._CHECKED_MAX):
        S.coefficients([float(i)])
    assert len(S._CHECKED) == S._CHECKED_MAX and len(checked) == 2 + 2 * S._CHECKED_MAX
    with pytest.raises(ValueError, match="odd length"):
        S.coefficients([1.0, 2.0])
    with pytest.raises(ValueError, match="odd length"):
        S.coefficients([1.0, 2.0])  # a refused list is not kept
