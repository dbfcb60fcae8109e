"""A fresh batch of Python kernels (tools/analyze_truth/kernels/fresh_*.py) run as a held-out checker runs them:
the mistakes and failures it met, each answered in one line that says what to do."""

import textwrap
from pathlib import Path

import pytest

from smemlab.errors import UserError

from test_analyze_python import needs_numba, needs_triton

FRESH = Path(__file__).resolve().parents[1] / "tools" / "analyze_truth" / "kernels"


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


@needs_triton
def test_triton_helper_named_as_kernel_is_refused_before_compiling():
    from smemlab.analyze import triton_front

    # `_silu` is a @triton.jit helper (`return x * tl.sigmoid(x)`): Triton's pipeline would fail in MLIR
    with pytest.raises(UserError, match=r"_silu returns a value: it is a @triton.jit helper"):
        triton_front.analyze(str(FRESH / "fresh_triton.py"), 1, name="_silu", args=["x=1.0"])


@needs_triton
def test_triton_compilation_error_names_the_file_line_and_the_statement(tmp_path):
    from smemlab.analyze import triton_front

    path = _write(tmp_path, "bad_kernel.py", """\
        import triton
        import triton.language as tl


        @triton.autotune(configs=[triton.Config({}, num_warps=4)],
                         key=["n"])
        @triton.jit
        def scale(x_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            x = tl.load(x_ptr + offs, mask=offs < n)
            tl.store(x_ptr + offs,
                     not_defined_anywhere(x), mask=offs < n)
        """)
    with pytest.raises(UserError) as err:
        triton_front.analyze(path, 1, name="scale", args=["x_ptr=float32[128]", "n=128"], constexprs={"BLOCK": 128})
    text = str(err.value)
    # the statement's own line (12: the call's, under three decorator lines), its code, Triton's message; no
    # caret line or source excerpt flattened into the message
    assert "bad_kernel.py:12: `not_defined_anywhere(x), mask=offs < n)`" in text, text
    assert "not_defined_anywhere" in text.split("`: ", 1)[1] and "^" not in text, text


@needs_numba
def test_numba_shared_array_shape_computed_in_the_kernel_gets_a_hint(tmp_path):
    from smemlab.analyze import numba_front

    path = _write(tmp_path, "padded.py", """\
        from numba import cuda, float32

        TILE = 16


        @cuda.jit
        def padded(a, out):
            tile = cuda.shared.array((TILE, TILE + 1), float32)
            i = cuda.threadIdx.x
            tile[i, 0] = a[i]
            out[i] = tile[i, 0]
        """)
    with pytest.raises(UserError, match=r"cuda\.shared\.array's shape must be constants.*TILE1 = TILE \+ 1"):
        numba_front.analyze(path, (32,), name="padded", args=["a=float32[32]", "out=float32[32]"])


@needs_numba
def test_dynamic_shared_array_without_bytes_says_to_give_them():
    from smemlab.analyze import numba_front

    # scan_dyn64's buffer is cuda.shared.array(0, dtype=float64): launched with no --dynamic-shared, its first
    # store faults, and the fault says why
    args = ["x=float64[128]", "out=float64[128]"]
    with pytest.raises(UserError, match=r"shared memory holds 0 bytes; .* give --dynamic-shared BYTES"):
        numba_front.analyze(str(FRESH / "fresh_numba.py"), (128,), name="scan_dyn64", args=args)
    report = numba_front.analyze(str(FRESH / "fresh_numba.py"), (128,), (1, 1, 1), (0, 0, 0), 2048,
                                 name="scan_dyn64", args=args)
    assert report.totals("store")["requests"] == 32  # 4 warps: the first copy, then 7 steps of the scan
