"""The reduce experiment: kernels compile for every block size and type, declared shared accesses match
the kernels' code, the NumPy references and seed 003's float32 stall are right (CPU); every variant
verifies on the GPU at odd sizes (skipped without one)."""

import math

import numpy as np
import pytest

from smemlab.compiler import compile_cubin
from smemlab.cubin import static_shared_bytes
from smemlab.errors import UserError
from smemlab.lab import reduce as R
from smemlab.lab.layout import flat_index

EXP = R.ReduceExperiment()
BOOK = [v for v in EXP.variants() if not v.library]  # the book's kernels and the CPU (the library's are last)
KERNELS = {"reduce_global", "reduceGmem", "reduce_shared", "reduceSmem", "reduceSmemVolatile", "reduceSmemUnroll",
           "reduceSmemUnrollDyn", "reduceShfl"}
SM90_RESERVED = 1024  # sm_90 cubins count the block's 1 KB of system shared memory in .nv.shared.<kernel>


@pytest.mark.parametrize("dim", [128, 256, 512, 1024])
@pytest.mark.parametrize("real", ["int", "float"])
def test_kernels_compile_with_their_shared_arrays(dim, real):
    sizes = static_shared_bytes(compile_cubin("lab/reduce/reduce.cu", "sm_90", {"DIM": dim, "REAL": real}))
    assert set(sizes) == KERNELS
    base = sizes["reduceSmemUnrollDyn"]  # declares no static array: 0, or the reserved 1 KB
    assert base in (0, SM90_RESERVED)
    want = {k: dim * 4 for k in ("reduce_shared", "reduceSmem", "reduceSmemVolatile", "reduceSmemUnroll")}
    want.update(reduceShfl=dim // 32 * 4, reduceSmemUnrollDyn=0)
    for k, v in want.items():
        assert sizes[k] - base == v, k
    for k in ("reduce_global", "reduceGmem"):  # global memory only
        assert sizes[k] - base in (0, -base), k


def test_every_gpu_variant_names_a_kernel_of_its_cubin():
    for v in BOOK:
        spec = EXP.spec(v.name)
        if spec.kernel is None:
            assert not v.on_gpu and not v.smem
            continue
        assert v.on_gpu and v.block == (spec.dim, 1, 1)
        assert spec.kernel in static_shared_bytes(compile_cubin("lab/reduce/reduce.cu", "sm_90", spec.defines))


def test_variant_list():
    names = [v.name for v in EXP.variants()]
    assert len(names) == len(set(names))
    for n in ("cpu_sum", "reduce_global", "reduceGmem", "reduceSmem", "reduceSmemUnroll", "reduceSmemUnrollDyn",
              "reduceShfl", "reduceSmemVolatile", "cpu_sum_f32", "reduceSmem_f32"):
        assert n in names
    hazards = [v for v in EXP.variants() if v.hazard]
    assert [v.name for v in hazards] == ["reduceSmemVolatile"] and hazards[0].hazard.startswith("racecheck")
    assert all(EXP.spec(v.name).real == "float" for v in BOOK if v.name.endswith("_f32"))


def _count(v, op):
    return sum(1 for a in v.smem if a.op == op)


@pytest.mark.parametrize("dim", [128, 256, 512, 1024])
def test_declared_access_counts_follow_the_code(dim):
    """Loads and stores per block as the kernels execute them (checked against the SASS, converged
    path, of the sm_90 build: a level is 2 LDS + 1 STS; warpReduce is 7 LDS + 5 STS)."""
    levels = int(math.log2(dim)) - 6  # block levels of the unrolled trees: dim/2 ... 64
    smem = R.smem_accesses(R._Spec("reduceSmem", dim=dim))
    v = type("V", (), {"smem": smem})
    assert (_count(v, "load"), _count(v, "store")) == (2 * levels + 7, 1 + levels + 5)
    v.smem = R.smem_accesses(R._Spec("reduceSmemVolatile", dim=dim))
    assert (_count(v, "load"), _count(v, "store")) == (2 * levels + 12 + 1, 1 + levels + 6)
    v.smem = R.smem_accesses(R._Spec("reduce_shared", dim=dim))
    lg = int(math.log2(dim))
    assert (_count(v, "load"), _count(v, "store")) == (2 * lg + 1, 1 + lg)
    v.smem = R.smem_accesses(R._Spec("reduceShfl", dim=dim))
    assert (_count(v, "load"), _count(v, "store")) == (1, 1)
    assert R.smem_accesses(R._Spec("reduceGmem", dim=dim)) == ()


def _wavefronts(expr, shape, block, active=None):
    """A minimal 4-byte bank model: per active warp, the most distinct words one bank serves."""
    t = np.arange(block[0])
    env = {"tx": t, "lane": t % 32, "warp": t // 32}
    on = np.ones(t.size, bool) if active is None else np.broadcast_to(eval(active, {"__builtins__": {}}, env), t.shape)
    flat = flat_index(expr, shape, env, on)
    per = []
    for w in range(t.size // 32):
        words = np.unique(flat[32 * w:32 * w + 32][on[32 * w:32 * w + 32]])
        if words.size:
            per.append(np.bincount(words % 32, minlength=32).max())
    return per


def test_reduction_accesses_are_conflict_free_and_stay_in_bounds():
    for v in EXP.variants():
        for a in v.smem:
            per = _wavefronts(a.expr, a.shape, v.block, a.active)  # flat_index raises if out of bounds
            assert per and max(per) == 1, (v.name, a.label)


def test_bank_model_predicts_what_the_declarations_mean():
    banks = pytest.importorskip("smemlab.banks", reason="smemlab.banks not written yet")
    if not hasattr(banks, "analyze"):
        pytest.skip("smemlab.banks.analyze not written yet")
    for v in EXP.variants():
        for a in v.smem:
            r = banks.analyze(a.expr, a.shape, a.dtype, v.block, op=a.op, active=a.active)
            per = _wavefronts(a.expr, a.shape, v.block, a.active)
            assert r.wavefronts_per_request == pytest.approx(sum(per) / len(per)), (v.name, a.label)


def test_declarations_parse_in_the_bank_models_language():
    expr = pytest.importorskip("smemlab.banks.expr", reason="smemlab.banks not written yet")
    for v in EXP.variants():
        for a in v.smem:
            expr.parse_access(a.expr)
            if a.active:
                expr.parse_condition(a.active)


def test_sequential_f32_is_a_c_loop():
    x = R.make_input(3001, "float")
    acc = np.float32(0)
    for value in x:
        acc = np.float32(acc + value)
    assert R.sequential_sum_f32(R._chunks(x, 64)) == acc
    assert R.sequential_sum_f32([]) == 0


def test_seed_003_float32_stall_is_reproduced_exactly():
    assert R.sequential_sum_f32(R.stall_chunks()) == np.float32(33554432.0) == 2**25


def test_block_sums_and_int32_wrap():
    x = np.arange(1, 11, dtype=np.int32)
    assert list(R.block_sums(x, 4)) == [10, 26, 19]
    assert list(R.block_sums(x, 20)) == [55]
    assert R.wrap_int32(2**31) == -(2**31) and R.wrap_int32(-1) == -1 and R.wrap_int32(2**32 + 5) == 5
    f = R.block_sums(np.ones(5, np.float32), 2)
    assert f.dtype == np.float64 and list(f) == [2, 2, 1]


@pytest.mark.parametrize("real", ["int", "float"])
def test_inputs_are_seeded_without_zeros(real):
    a, b = R.make_input(10000, real), R.make_input(10000, real)
    assert np.array_equal(a, b) and np.all(a != 0) and np.unique(a).size > 10
    assert a.dtype == (np.int32 if real == "int" else np.float32)


@pytest.mark.parametrize("bad", [[0], [-1], [R.MAX_N + 1], [1, 2], []])
def test_parse_size_rejects(bad):
    with pytest.raises(UserError):
        EXP.parse_size(bad)


def test_parse_size_accepts():
    for s in EXP.small_sizes + (EXP.default_size,):
        assert EXP.parse_size(s) == s


def test_notes_fill_the_speedup_and_report_the_stall():
    from smemlab.records import VariantRecord

    def rec(name, ms, **extra):
        return VariantRecord(variant=name, summary="", ok=True, median_ms=ms, gbps=100.0, extra=dict(extra))

    recs = [rec("cpu_sum", 10.0), rec("reduceGmem", 0.4), rec("reduceSmem", 0.2), rec("reduceSmemUnroll", 0.1),
            rec("cpu_sum_f32", 20.0, **{R.COL_STALL: 33554432.0, R.COL_ERROR: 1e-2}),
            rec("reduceSmem_f32", 0.25, **{R.COL_STALL: 123000000.0, R.COL_ERROR: 1e-7})]
    lines = EXP.notes(recs)
    assert recs[3].extra[R.COL_SPEEDUP] == pytest.approx(100.0)
    assert recs[5].extra[R.COL_SPEEDUP] == pytest.approx(80.0)
    text = "\n".join(lines)
    assert "reduceSmemUnroll" in text and "33,554,432" in text and "123,000,000" in text


@pytest.mark.parametrize("real", ["int", "float"])
def test_check_catches_a_wrong_or_unwritten_partial(real):
    """check() on host arrays (cupy.asnumpy passes NumPy through): right partials pass, one poisoned fails."""
    pytest.importorskip("cupy")
    n = 1000
    spec = R._Spec("reduceSmemUnroll", per_thread=4, real=real)
    x = R.make_input(n, real)
    ref = R.block_sums(x, spec.span)
    total = x.sum(dtype=np.int64 if real == "int" else np.float64)
    partials = (R.block_sums(x, spec.span) if real == "int" else ref).astype(spec.dtype)
    extra = {}
    verdict = EXP._checker(spec, partials, ref, total, n, extra)()
    assert verdict.ok, verdict.detail
    if real == "float":
        assert extra[R.COL_ERROR] == verdict.error and verdict.error < 1e-6
    partials[1] = np.float32("nan") if real == "float" else np.int32(-559038737)  # the runner's poison
    assert not EXP._checker(spec, partials, ref, total, n, {})().ok


# -- GPU --------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("size", R.ReduceExperiment.small_sizes)
def test_every_variant_verifies_on_the_gpu(rt, run_case, size):
    for case in EXP.cases(rt, size, EXP.variants()):
        run_case(case, times=2, verify=True, hazards_may_fail=True)


@pytest.mark.gpu
def test_gpu_trees_do_not_stall(rt):
    chosen = [v for v in EXP.variants() if v.name in ("cpu_sum_f32", "reduceSmem_f32", "reduceShfl_f32")]
    cases = list(EXP.cases(rt, (R.STALL_MIN_N,), chosen))
    stall = {c.variant.name: c.extra[R.COL_STALL] for c in cases}
    assert stall["cpu_sum_f32"] == 2**25
    exact = float(R.STALL_VALUE) * R.STALL_N
    for name in ("reduceSmem_f32", "reduceShfl_f32"):
        assert abs(stall[name] - exact) / exact < 1e-5, (name, stall[name])
