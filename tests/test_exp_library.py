"""Each topic told in one place: where the library has the fast version of an experiment, the
experiment ends with it, a variant that runs the op's kernel (ops/<op>/<op>.cu) through the op's own
launch function, verified, timed and profiled like the book's kernels (CPU: the declarations; GPU:
the cases verify and launch the library's kernels)."""

import pytest

import smemlab.ops
from smemlab.lab import get
from smemlab.lab.launches import all_launches
from smemlab.profile import kernel_symbols

# experiment -> the ops its library variants run
LIBRARY = {"transpose": {"smemlab.ops.transpose"}, "reduce": {"smemlab.ops.reduce_sum"},
           "stencil": {"smemlab.ops.stencil1d"}, "histogram": {"smemlab.ops.histogram"},
           "matmul": {"smemlab.ops.matmul"}}


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_the_library_variants_run_the_ops(name):
    exp = get(name)
    lib = [v for v in exp.variants() if v.library]
    assert {v.library for v in lib} == LIBRARY[name]
    for v in lib:
        assert callable(getattr(smemlab.ops, v.library.rsplit(".", 1)[1]))
        assert v.kernel and v.on_gpu and not v.smem and not v.hazard
    assert exp.library_source.startswith("ops/") and exp.sources() == (exp.source, *exp.more_sources, exp.library_source)


@pytest.mark.parametrize("name", sorted(set(LIBRARY) - {"matmul"}))
def test_the_library_comes_last(name):
    """After the book's kernels and the baselines a user would pick: the climb ends with the library's."""
    variants = get(name).variants()
    first = min(i for i, v in enumerate(variants) if v.library)
    assert all(v.library for v in variants[first:]) and not any(v.library for v in variants[:first])


def test_matmul_climbs_through_every_kernel_the_op_picks_then_cublas():
    from smemlab.ops.matmul import DEFAULT, SPLIT, VARIANTS

    names = [v.name for v in get("matmul").variants()]
    lib = [v.name for v in get("matmul").variants() if v.library]
    assert lib == [f"mm_{v}" for v in VARIANTS] and {f"mm_{DEFAULT}", f"mm_{SPLIT}", "mm_tiled"} <= set(lib)
    assert names[-1] == "cublas" and names.index(lib[-1]) == len(names) - 2


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_the_profiler_asks_for_every_kernel_a_variant_launches(name):
    exp = get(name)
    asked = {k for source in exp.sources() for k in kernel_symbols(source)}
    missing = [v.name for v in exp.variants() if v.kernel and v.kernel not in asked]
    assert not missing


def test_analyze_runs_the_library_kernels_once_as_the_library():
    """The experiments' library variants are the ops' kernels, which analyze runs as the library's."""
    launches = all_launches()
    # matmul's climb is analysed at the experiment's own sizes, step by step
    assert {x.experiment for x in launches if x.source.startswith("ops/")} == {"ops", "matmul"}
    assert {x.source for x in launches if x.experiment == "ops"} >= {get(n).library_source for n in LIBRARY
                                                                      if n != "matmul"}


def test_transpose_notes_set_the_library_beside_the_books_best():
    from smemlab.lab.transpose import COL_PCT_COPYGMEM
    from smemlab.records import VariantRecord

    recs = [VariantRecord(variant=n, summary="", ok=True, median_ms=t) for n, t in
            [("copyGmem", 1.0), ("transposeSmemPad", 1.25), ("smemlab.ops.transpose", 0.5)]]
    lines = get("transpose").notes(recs)
    assert recs[2].extra[COL_PCT_COPYGMEM] == pytest.approx(200.0)
    assert any("transposeSmemPad, 80%" in ln for ln in lines)  # the book's best, not the library
    assert any(ln.startswith("the library (smemlab.ops.transpose): 200%") and "2.50x as fast as transposeSmemPad" in ln
               for ln in lines)


# -- GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_the_library_variants_verify_and_launch_the_library_kernels(rt, run_case, name):
    exp = get(name)
    lib = [v for v in exp.variants() if v.library]
    allowed = set(kernel_symbols(exp.library_source))
    for size in exp.small_sizes[:2]:
        with rt.record_launches() as launched:
            for case in exp.cases(rt, size, lib):
                if case.extra.get("skipped"):
                    continue
                assert run_case(case, times=2, verify=True).ok
        assert launched and set(launched) <= allowed, (size, launched)
