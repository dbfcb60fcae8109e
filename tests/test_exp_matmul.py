"""matmul: the reference and the read-count model on the CPU; every variant on the GPU at odd sizes."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.matmul import TOLERANCE, global_reads, reference, relative_error, tiled_smem


def test_reference_is_float64_matmul():
    rng = np.random.default_rng(0)
    a, b = rng.random((5, 7), dtype=np.float32), rng.random((7, 3), dtype=np.float32)
    ref = reference(a, b)
    assert ref.dtype == np.float64
    assert np.allclose(ref, [[sum(float(a[i, e]) * float(b[e, j]) for e in range(7)) for j in range(3)] for i in range(5)])


def test_relative_error_catches_nan_and_tf32_sized_errors():
    rng = np.random.default_rng(1)
    ref = rng.standard_normal((64, 64))
    assert relative_error(ref.astype(np.float32), ref) < 1e-7
    bad = ref.copy()
    bad[3, 3] = np.nan
    assert np.isnan(relative_error(bad, ref))
    tf32_like = ref * (1 + rng.uniform(-2**-11, 2**-11, ref.shape))
    assert relative_error(tf32_like, ref) > TOLERANCE


def test_read_counts():
    assert global_reads(100, 200, 300, None) == (200, 100)
    assert global_reads(100, 200, 300, 16) == (13, 7)
    assert global_reads(4096, 4096, 4096, 32) == (128, 128)


def test_tiled_declarations_count_tiles():
    acc = {a.label: a for a in tiled_smem(16, 33)}
    assert acc["As store"].per_warp == 3
    assert acc["Bs[e][col] load"].per_warp == 48


@pytest.mark.parametrize("bad", [(0,), (1, 2), (4, 4, 0), (70000, 1, 1), (-3,)])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        get("matmul").parse_size(bad)


def test_parse_size_square():
    assert get("matmul").parse_size((100,)) == (100, 100, 100)


@pytest.mark.parametrize("bs", [16, 32])
def test_compiles_with_static_tiles(bs):
    kernels = static_shared_bytes(compile_cubin("lab/matmul/matmul.cu", "sm_90", {"BLOCK_SIZE": bs}))
    assert kernels["MatMulKernelNaive"] == 0
    # As and Bs (sm_90 cubins add the 1 KB the system reserves to a kernel using shared memory)
    assert kernels["MatMulKernel"] - 2 * bs * bs * 4 in (0, 1024)


@pytest.mark.gpu
@pytest.mark.parametrize("size", get("matmul").small_sizes + ((1, 1, 1), (33, 1, 65)))
def test_every_variant_verifies(rt, run_case, size):
    exp = get("matmul")
    for case in exp.cases(rt, size, exp.variants()):
        verdict = run_case(case)
        assert verdict.ok, f"{case.variant.name} {size}: {verdict.detail}"
