"""The library's kernels, compiled with the macros the ops launch them with, keep everything in registers:
no local-memory store or load (STL, LDL) in their SASS. A spill is silent (every output stays right) and
costs bandwidth: rows_block for float32 -> float64 spilled 8 stores and 13 loads when its batch went from 8
to 16 vectors, until rows_batch kept it at 8 (ops/reduce/reduce.cu). NVRTC and nvdisasm only, no GPU."""

from __future__ import annotations

import importlib

import pytest

H = importlib.import_module("smemlab.ops.histogram")
stencil = importlib.import_module("smemlab.ops.stencil")
transpose = importlib.import_module("smemlab.ops.transpose")
MM = importlib.import_module("smemlab.ops.matmul")
reduce = importlib.import_module("smemlab.ops.reduce")

# Kernels of the library that spill, and why (only mm_warptile_db16_tt is one an op picks by default, for
# the layout a.t() @ b.t(), measured faster than the kernel that does not spill); each must still spill, so
# that the list stays true
KNOWN_SPILLS = {
    ("ops/matmul/matmul.cu", "mm_pack"): "a step of the climb the op never chooses: A and B staged in registers beside "
                                  "the 8x8 accumulators at 128 registers (2 blocks an SM)",
    ("ops/matmul/matmul.cu", MM.KERNELS["mm_warptile_db16_tt"]): "both operands stored transposed, picked for a.t() @ b.t() where "
                                  "the grid fills the GPU: a few local loads and stores a slab at 128 registers, "
                                  "and still faster there than async_tt, which does not spill (docs/library.md)",
}

HOPPER = {"sms": 132, "smem_optin": 232448, "smem_per_sm": 233472, "cc": (9, 0), "name": "H200"}

# (source, macros, kernels to check: None for every kernel of the module; template instances as NVRTC name
# expressions, the ones the op lists)
MODULES = [("ops/reduce/reduce.cu", {}, tuple(reduce.KERNELS.values())), ("ops/transpose/transpose.cu", {}, tuple(transpose.KERNELS.values())), ("ops/matmul/matmul.cu", {}, None),
           ("lab/copy.cu", {}, None)] + [("ops/stencil/stencil.cu", {}, tuple(stencil.KERNELS[r] for r in (1, stencil.MAX_RADIUS)))] + [
    ("ops/histogram/histogram.cu", {}, tuple(H.KERNELS.values()))]  # the instances auto launches, the weighted counts' among them
# histogram plans: what auto takes from 256 to 2^22 bins, then each method at its defaults
HISTOGRAM_PLANS = [(b, "auto", {}) for b in (256, 4096, 65536, 262144, 1 << 20, 1 << 22)] + [
    (262144, "ranges", {"counter_bits": 8}), (50000, "smem", {"copies": 1, "agg": 1})]
# the lab's cluster designs (lab/histogram/cluster_methods), each at the plan it once had in the library
CLUSTER_PLANS = [(262144, "cluster_exchange"), (1 << 20, "cluster_exchange"), (262144, "cluster_rep"),
                 (262144, "cluster_share"), (262144, "cluster")]


def _local_memory_ops(source: str, defines: dict, kernels) -> dict[str, list[str]]:
    from smemlab.analyze.sass import listing_text, opcodes_at
    from smemlab.compiler import compile_package
    from smemlab.cubin import static_shared_bytes

    from smemlab.lab import kernel_instances

    # the instances named, or with no list every kernel: the extern "C" ones and the instances the op launches
    instances = [k for k in kernels or () if "<" in k] if kernels else list(kernel_instances(source))
    compiled = compile_package(source, "sm_90", defines, instances)
    text = listing_text(compiled.cubin)
    if text is None:
        pytest.skip("nvdisasm is not installed (the nvidia-cuda-nvdisasm wheel or the CUDA toolkit)")
    named = {symbol: expr for expr, symbol in compiled.lowered.items()}  # an instance by its name expression
    names = kernels or sorted(named.get(s, s) for s in static_shared_bytes(compiled.cubin))
    assert names, source
    found = {}
    for name in names:
        ops = opcodes_at(text, compiled.lowered.get(name, name))
        assert ops, f"{name}: no SASS in the listing of {source}"
        local = sorted({op for op in ops.values() if op.split(".")[0] in ("STL", "LDL")})
        if local:
            found[name] = local
    return found


@pytest.mark.parametrize("source,defines,kernels", MODULES,
                         ids=[s.rsplit("/", 1)[-1] + "".join(f"-{k}{v}" for k, v in d.items()) for s, d, _ in MODULES])
def test_library_kernels_do_not_spill(source, defines, kernels):
    pytest.importorskip("cuda.core")
    found = _local_memory_ops(source, defines, kernels)
    # a known spill may vanish with another NVRTC (the GPU machine's 13.0 allocates mm_warptile_db16_tt without one);
    # a kernel that spills and is not known fails
    assert set(found) <= {k for src, k in KNOWN_SPILLS if src == source}, found


@pytest.mark.parametrize("bins,method,options", HISTOGRAM_PLANS,
                         ids=[f"{b}-{m}" + "".join(f"-{k}{v}" for k, v in o.items()) for b, m, o in HISTOGRAM_PLANS])
def test_histogram_plans_kernels_do_not_spill(bins, method, options):
    pytest.importorskip("cuda.core")
    p = H.plan(bins, HOPPER, method, **options)
    assert _local_memory_ops(H.SOURCE, H.kernel_defines(p), H.kernel_instances(p)) == {}, p


@pytest.mark.parametrize("bins,method", CLUSTER_PLANS, ids=[f"{b}-{m}" for b, m in CLUSTER_PLANS])
def test_cluster_designs_do_not_spill(bins, method):
    pytest.importorskip("cuda.core")
    from smemlab.lab.histogram import cluster_methods as C

    p = C.plan(bins, HOPPER, method)
    assert _local_memory_ops(C.SOURCE, C.kernel_defines(p), (C.instance(p),)) == {}, p


def test_a_spill_is_seen():
    """The check finds a spill where there is one: ranges with 4 int4 loads in flight a thread and 16-bit
    counters keeps each add's old word beside them and spills at 64 registers (an option auto never takes)."""
    pytest.importorskip("cuda.core")
    p = H.plan(262144, HOPPER, "ranges", unroll=4)
    (name,) = H.kernel_instances(p)
    found = _local_memory_ops(H.SOURCE, H.kernel_defines(p), (name,))
    assert set(found) == {name} and {"STL", "LDL"} <= {op.split(".")[0] for op in found[name]}


def test_every_method_names_its_kernels():
    """METHOD_KERNELS (what launches_for launches, and what the tests above compile) names a kernel of the
    module for every method, and each method's plan an instance of them that compiles."""
    assert set(H.METHOD_KERNELS) == set(H.METHODS) - {"auto"}
    pytest.importorskip("cuda.core")
    from smemlab.compiler import compile_package
    from smemlab.cubin import static_shared_bytes

    names = {n for m in H.METHOD_KERNELS for n in H.kernel_instances(H.plan(262144 if m != "smem" else 4096, HOPPER, m))}
    compiled = compile_package(H.SOURCE, "sm_90", {}, sorted(names))
    assert {n.split("<")[0] for n in names} == {k for ks in H.METHOD_KERNELS.values() for k in ks}
    assert {compiled.lowered[n] for n in names} <= set(static_shared_bytes(compiled.cubin))
