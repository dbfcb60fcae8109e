"""histogram: cluster-size choice, keys and reference on the CPU; every variant on the GPU."""

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.histogram import choose_cluster_size, make_keys, reference

H100_OPTIN = 227 * 1024


@pytest.mark.parametrize("nbins, expected", [
    (256, (1, 256)),            # block-local shared memory only
    (4096, (1, 4096)),
    (65536, (2, 32768)),        # 256 KB: two blocks of 128 KB
    (1 << 18, (8, 32768)),      # 1 MB: eight blocks of 128 KB (the portable maximum)
    (58112, (1, 58112)),        # exactly 227 KB
    (58113, (2, 29057)),
    (1 << 20, (None)),          # 4 MB: more than 16 blocks can hold
])
def test_cluster_size_from_bins_and_shared_memory(nbins, expected):
    assert choose_cluster_size(nbins, H100_OPTIN) == expected


def test_cluster_size_respects_the_limit_given():
    assert choose_cluster_size(1 << 18, H100_OPTIN, max_cluster=4) is None
    assert choose_cluster_size(1 << 18, 64 * 1024, max_cluster=16) == (16, 16384)
    assert choose_cluster_size(1 << 18, 48 * 1024, max_cluster=16) is None
    with pytest.raises(ValueError):
        choose_cluster_size(0, H100_OPTIN)


def test_keys_and_reference():
    u = make_keys(100000, 300, "uniform")
    s = make_keys(100000, 300, "skewed")
    assert u.dtype == np.int32 and u.min() >= 0 and u.max() < 300
    assert s.min() >= 0 and s.max() < 300
    assert np.bincount(s).max() > 5 * np.bincount(u).max()  # skewed: one bin far fuller
    assert reference(np.array([-5, 0, 1, 7, 2], np.int32), 3).tolist() == [2, 1, 2]  # clamped as the seed


@pytest.mark.parametrize("bad", [(0,), (10, 0), (1, 2, 3), (10, 1 << 25)])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        get("histogram").parse_size(bad)


def test_compiles():
    kernels = static_shared_bytes(compile_cubin("lab/histogram/histogram.cu", "sm_90"))
    assert set(kernels) == {"histGlobal", "histSmem", "clusterHist_kernel"}
    assert all(v <= 1024 for v in kernels.values())  # dynamic shared memory only


@pytest.mark.gpu
@pytest.mark.parametrize("size", get("histogram").small_sizes + ((100003, 1 << 18), (5000, 65536)))
def test_every_variant_verifies(rt, run_case, size):
    exp = get("histogram")
    for case in exp.cases(rt, size, exp.variants()):
        verdict = run_case(case)
        if case.extra.get("skipped"):
            assert verdict.detail.startswith("skipped:")
            continue
        assert verdict.ok, f"{case.variant.name} {size} {case.extra}: {verdict.detail}"
        if case.variant.kernel:  # re-runnable: the bins are zeroed inside the launch
            case.launch()
            rt.sync()
            assert case.check().ok, f"{case.variant.name}: second launch"


@pytest.mark.gpu
def test_cluster_variants_run_on_hopper(rt):
    if not rt.facts.cluster_launch:
        pytest.skip("no thread-block clusters on this GPU")
    exp = get("histogram")
    cases = [c for c in exp.cases(rt, (100003, 1 << 18), exp.variants()) if c.variant.name == "clusterHist_kernel"]
    assert cases and all(c.extra["cluster"] > 1 for c in cases)


def test_the_library_s_former_cluster_designs_are_variants():
    """The cluster designs the library's plan never took are the experiment's variants, one a design, their
    kernels in lab/histogram/cluster_methods.cu (a source the experiment names, so profile finds them)."""
    from smemlab.lab.histogram import cluster_methods

    exp = get("histogram")
    names = [v.name for v in exp.variants()]
    assert {f"hist_{m}" for m in cluster_methods.METHODS} <= set(names)
    assert names[-1] == "smemlab.ops.histogram"  # the library still last
    assert cluster_methods.SOURCE in exp.sources()


@pytest.mark.gpu
def test_cluster_designs_run_on_hopper(rt):
    if not rt.facts.cluster_launch:
        pytest.skip("no thread-block clusters on this GPU")
    exp = get("histogram")
    designs = [v for v in exp.variants() if v.name.startswith("hist_cluster")]
    cases = list(exp.cases(rt, (100003, 1 << 18), designs))
    assert len(cases) == 2 * len(designs) and all(c.extra["cluster"] > 1 for c in cases)
