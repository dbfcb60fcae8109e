"""stencil: the reference with its boundaries on the CPU; every variant on the GPU, and new
__constant__ coefficients without recompiling."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.stencil import BDIM, BOOK_COEF, DEFINES, RADIUS, correlate_weights, launch_grid, reference


def test_reference_matches_the_formula_at_the_boundaries():
    rng = np.random.default_rng(2)
    x = rng.standard_normal(20 + 2 * RADIUS)
    out = reference(x, BOOK_COEF)
    assert out.shape == (20,)
    for i in (0, 1, 19):  # the first output reaches back to x[0], the last forward to x[-1]
        want = sum(float(BOOK_COEF[k]) * (x[i + RADIUS + k] - x[i + RADIUS - k]) for k in range(1, RADIUS + 1))
        assert out[i] == pytest.approx(want)
    assert reference(np.arange(9.0), BOOK_COEF).shape == (1,)
    with pytest.raises(ValueError):
        reference(np.arange(8.0), BOOK_COEF)


def test_reference_of_a_linear_function_is_its_slope_times_the_weights():
    x = 3.0 * np.arange(50.0)
    expected = sum(float(BOOK_COEF[k]) * 2 * k * 3.0 for k in range(1, RADIUS + 1))
    assert np.allclose(reference(x, BOOK_COEF), expected)


def test_correlation_weights_give_the_same_stencil():
    rng = np.random.default_rng(3)
    x = rng.standard_normal(40)
    w = correlate_weights(BOOK_COEF).astype(np.float64)
    valid = np.correlate(x, w, mode="valid")
    assert np.allclose(valid, reference(x, BOOK_COEF))


def test_grid_loops_at_least_twice():
    assert launch_grid(1, 132) == 1
    assert launch_grid(10007, 132) == 20  # 40 tiles -> 20 blocks, 2 iterations each
    assert launch_grid(1 << 28, 132) == 8 * 132


@pytest.mark.parametrize("bad", [(0,), (1, 2), (1 << 40,)])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        get("stencil").parse_size(bad)


def test_compiles_with_the_halo_in_static_shared_memory():
    kernels = static_shared_bytes(compile_cubin("lab/stencil/stencil.cu", "sm_90", DEFINES))
    assert set(kernels) == {"stancli1DGPU", "stancliReadOnly", "stancliLdg", "stancliGlobal", "stancli1DGPU_nosync"}
    for name, size in kernels.items():
        assert size - (BDIM + 2 * RADIUS) * 4 in (0, 1024), name


def test_hazard_variant_is_named():
    v = {v.name: v for v in get("stencil").variants()}
    assert v["stancli1DGPU_nosync"].hazard.startswith("racecheck")
    assert all(x.hazard is None for n, x in v.items() if n != "stancli1DGPU_nosync")


@pytest.mark.gpu
@pytest.mark.parametrize("size", get("stencil").small_sizes)
def test_every_variant_verifies(rt, run_case, size):
    exp = get("stencil")
    for case in exp.cases(rt, size, [v for v in exp.variants() if not v.hazard]):
        verdict = run_case(case)
        assert verdict.ok, f"{case.variant.name} {size}: {verdict.detail}"


@pytest.mark.gpu
def test_new_constant_coefficients_without_recompiling(rt):
    import cupy

    n = 5000
    kernel = rt.kernel("lab/stencil/stencil.cu", "stancli1DGPU", DEFINES)
    from smemlab import device

    compiled = len(device._MODULES)
    x = cupy.random.default_rng(9).uniform(-1, 1, n + 2 * RADIUS, dtype=cupy.float32)
    out = cupy.empty(n, dtype=cupy.float32)
    for coef in (BOOK_COEF, np.array([0, 1.5, 0.25, -0.5, 0.125], dtype=np.float32)):
        rt.set_constant("lab/stencil/stencil.cu", "coef", coef, DEFINES)
        rt.launch(kernel, launch_grid(n, rt.facts.sms), BDIM, x, out, np.int64(n))
        rt.sync()
        assert np.allclose(cupy.asnumpy(out), reference(cupy.asnumpy(x), coef), atol=1e-5)
    assert len(device._MODULES) == compiled
