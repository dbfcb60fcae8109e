"""config: the occupancy model and helpers on the CPU; every case on the GPU."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.render.charts import occupancy_chart as plot
from smemlab.lab.config import DEFINES, blocks_by_smem_limit, smem_heavy_reference


def test_occupancy_model():
    per_sm = 228 * 1024
    assert blocks_by_smem_limit(0, per_sm) == 8  # 256 threads: the thread limit
    assert blocks_by_smem_limit(48 * 1024, per_sm) == 4
    assert blocks_by_smem_limit(100 * 1024, per_sm) == 2
    assert blocks_by_smem_limit(227 * 1024, per_sm) == 1


def test_smem_heavy_reference_reverses_each_tile():
    x = np.arange(2500, dtype=np.float32)
    y = smem_heavy_reference(x, 1024)
    assert y[0] == 1023 and y[1023] == 0 and y[1024] == 2047
    assert y[2048] == 0  # the partial tile reversed as if padded with zeros: 3071 - 2048 >= 2500


@pytest.mark.parametrize("bad", [(0,), (1, 2)])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        get("config").parse_size(bad)


@pytest.mark.parametrize("extra", [{}, {"OPTIN": 0}, {"OPTIN": 1}, {"CARVEOUT": 50}])
def test_compiles(extra):
    kernels = static_shared_bytes(compile_cubin("lab/config/config.cu", "sm_90", dict(DEFINES, **extra)))
    assert set(kernels) == {"bigSmem", "smemHeavy", "sum"}
    assert kernels["bigSmem"] <= 1024 and kernels["smemHeavy"] <= 1024  # dynamic only


def test_plot_without_data_draws_nothing(tmp_path):
    assert plot([], tmp_path / "x.png") is False


def test_plot_draws_occupancy(tmp_path):
    from smemlab.records import VariantRecord

    recs = [VariantRecord("smemHeavy", "", True, extra={"smem_per_block": s, "blocks_per_sm_by_carveout": {"-1": b, "0": b}})
            for s, b in ((4096, 8), (65536, 3), (200000, 1))]
    assert plot(recs, tmp_path / "occ.png") is True
    assert (tmp_path / "occ.png").stat().st_size > 1000


@pytest.mark.gpu
@pytest.mark.parametrize("size", get("config").small_sizes)
def test_every_case_verifies(rt, run_case, size):
    exp = get("config")
    seen = set()
    for case in exp.cases(rt, size, exp.variants()):
        verdict = run_case(case)
        assert verdict.ok, f"{case.variant.name} {size}: {verdict.detail}"
        seen.add(case.variant.name)
        if case.variant.name == "sum":  # the counter was reset: a second launch works too
            case.launch()
            rt.sync()
            assert case.check().ok
    assert seen == {v.name for v in exp.variants()}


@pytest.mark.gpu
def test_occupancy_falls_as_shared_memory_grows(rt):
    exp = get("config")
    heavy = [c for c in exp.cases(rt, (4096,), [v for v in exp.variants() if v.name == "smemHeavy"])]
    blocks = [c.extra["blocks_per_sm"] for c in heavy]
    assert blocks == sorted(blocks, reverse=True) and blocks[-1] >= 1 and blocks[0] > blocks[-1]
