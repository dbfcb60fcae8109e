"""`smemlab analyze` on every kernel the package ships (the book's and the library's), no GPU.

The launches are smemlab.lab.launches: each mirrors how its experiment or op launches the
kernel. Every one must run, its counts must be consistent, and where the result is easy to know the
emulated block must compute it exactly (so the addresses it fed the bank model are the right ones).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from smemlab.analyze.args import fill, parse_arg
from smemlab.compiler import KERNEL_DIR, canonical, kernel_sources, source_name
from smemlab.lab.launches import all_launches

LAUNCHES = all_launches()
BY_ID = {f"{x.experiment}:{x.variant}": x for x in LAUNCHES}


@pytest.fixture(scope="module")
def reports():
    return {}


def report(reports, key):
    if key not in reports:
        reports[key] = BY_ID[key].analyze()
    return reports[key]


def inputs(launch):
    return {a.split("=")[0]: fill(a.split("=")[0], parse_arg(a)[1]) for a in launch.args() if "[" in a}


def test_every_kernel_of_the_package_has_a_launch():
    launched = {(canonical(x.source), x.kernel) for x in LAUNCHES}  # a launch may name its source by an alias
    missing = []
    for path in [p for p in kernel_sources() if p.suffix == ".cu"]:
        text = re.sub(r"//[^\n]*", "", path.read_text())
        for name in re.findall(r'extern "C"\s+__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)', text):
            if (source_name(path), name) not in launched:
                missing.append(f"{source_name(path)}:{name}")
    assert not missing, f"kernels analyze never runs: {missing}"


@pytest.mark.parametrize("key", sorted(BY_ID))
def test_every_kernel_runs_with_consistent_counts(key, reports):
    r = report(reports, key)
    assert r.steps > 0
    ptx_shared = bool(re.search(r"\b(ld|st|atom|red)(\.\w+)*\.shared", r.ptx.split(f".entry {r.symbol}(")[1]
                                .split(".entry ")[0]))
    total = sum(r.totals(k)["requests"] for k in ("load", "store", "atomic", "ldgsts"))
    assert (total > 0) == ptx_shared
    for kind in ("load", "store"):
        t = r.totals(kind)
        assert t["wavefronts"] >= t["ideal_wavefronts"] >= t["requests"] >= 0
        assert t["requests"] <= t["instructions"]
    for ls in r.lines:
        assert ls.requests <= ls.issued and ls.bytes in (1, 2, 4, 8, 16)
        if ls.kind in ("load", "store") and ls.requests:
            assert 1 <= ls.degree <= 32


def test_layout_column_reads_are_32_way_and_padding_fixes_them(reports):
    col = report(reports, "layout:setRowReadCol").totals("load")
    pad = report(reports, "layout:setRowReadColPad").totals("load")
    assert col["wavefronts"] == 32 * col["requests"] == 1024
    assert pad["wavefronts"] == pad["requests"] == 32


def test_transposes_compute_the_transpose(reports):
    for name in ("transposeSmem", "transposeSmemPad", "transposeSmemUnrollPad", "transposeSmemUnrollPadDyn"):
        launch = BY_ID[f"transpose:{name}"]
        r = report(reports, f"transpose:{name}")
        a = inputs(launch)["in"].reshape(64, 64)
        out = r.buffers["out"].reshape(64, 64)
        cols = 64 if "Unroll" in name else 32
        assert np.array_equal(out[:cols, :16], a[:16, :cols].T), name  # block (0,0)'s tile


def test_reductions_sum_their_block(reports):
    for key in ("reduce:reduceSmem", "reduce:reduceShfl", "reduce:reduceSmemUnroll", "reduce:reduce_shared"):
        launch, r = BY_ID[key], report(reports, key)
        ins = inputs(launch)
        x = next(v for k, v in ins.items() if k in ("g_idata", "d_x"))
        span = 128 * (4 if "Unroll" in key or "Shfl" in key else 1)
        out = r.buffers["g_odata" if "g_odata" in r.buffers else "d_y"]
        assert int(out[0]) == int(x[:span].astype(np.int64).sum()), key


def test_histograms_count_every_key(reports):
    for key in ("histogram:histSmem", "histogram:clusterHist_kernel", "histogram:clusterHist_kernel_2x",
                "histogram:histGlobal"):
        launch, r = BY_ID[key], report(reports, key)
        ins = inputs(launch)
        keys = ins["input"]
        bins = r.buffers["bins"].astype(np.int64) - ins["bins"].astype(np.int64)  # added to the random start
        assert np.array_equal(bins, np.bincount(keys, minlength=256)), key


def test_library_histogram_and_transpose(reports):
    r = report(reports, "ops:histogram hist_smem AGG=0 COPIES=32")
    launch = BY_ID["ops:histogram hist_smem AGG=0 COPIES=32"]
    ins = inputs(launch)
    got = r.buffers["out"].astype(np.int64) - ins["out"].astype(np.int64)
    assert np.array_equal(got, np.bincount(ins["keys"], minlength=256))
    # 32 copies: every lane its own bank, so the atomics never meet in a bank
    assert r.totals("load")["wavefronts"] == r.totals("load")["ideal_wavefronts"]
    t = report(reports, "ops:transpose 128x128")
    assert t.totals("store")["wavefronts"] == t.totals("store")["ideal_wavefronts"]  # the swizzle works
    assert t.totals("load")["wavefronts"] == t.totals("load")["ideal_wavefronts"]


def scalars(launch):
    return {n: int(v) for n, v in (a.split("=") for a in launch.args()) if "[" not in v}


def test_library_transposes_compute_the_transpose(reports):
    """Every element size and tile size, whole vectors (a batch of two tiles) and any shape (at offsets
    from 16-byte boundaries), and every element kernel (2 x 2 tiles, one inside the matrix): one block
    walking every tile writes exactly the transpose, nothing before the output's offset; every shared store
    is conflict-free, and so is every load of the 16-byte kernels' whole tiles (in a ragged tile of 8 chunks
    a side, a warp's few active lanes spread over four quarter-warps) and of the element kernels' tiles."""
    from smemlab.ops.transpose import element_kernels

    keys = sorted(k for k in BY_ID if k.startswith("ops:transpose_e"))
    assert len(keys) == 12 + len(element_kernels())  # the 16-byte kernels, the element kernels
    for key in keys:
        launch, r = BY_ID[key], report(reports, key)
        ins, n = inputs(launch), scalars(launch)
        rows, cols, in_off, out_off = n["rows"], n["cols"], n["in_off"], n["out_off"]
        batch = (ins["in"].size - in_off) // (rows * cols)
        want = ins["in"][in_off:].reshape(batch, rows, cols).transpose(0, 2, 1).ravel()
        got = r.buffers["out"]
        assert np.array_equal(got[out_off:], want), key
        assert np.array_equal(got[:out_off], ins["out"][:out_off]), key
        for kind in ("load", "store") if not key.split()[0].endswith("_any") else ("store",):
            assert r.totals(kind)["wavefronts"] == r.totals(kind)["ideal_wavefronts"], (key, kind)


def as_float(a, suffix_type):
    """A kernel buffer's values as float64 (bfloat16 buffers hold the upper 16 bits of float32)."""
    return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64) if suffix_type == "bf16" else a.astype(np.float64)


@pytest.mark.parametrize("kind", ["reduce", "rows_warp", "rows_block"])
def test_library_sums_compute_the_sums(kind, reports):
    """Every (input, output) pair of reduce_sum: the full sum, the row sums by groups of lanes (rows that
    start unaligned) and by two blocks a row, against float64 sums of the same inputs."""
    keys = sorted(k for k in BY_ID if k.startswith(f"ops:reduce_sum {kind}_"))
    assert len(keys) == 9
    for key in keys:
        launch, r = BY_ID[key], report(reports, key)
        tin, tout = key.rsplit("_", 2)[-2:]
        ins, n = inputs(launch), scalars(launch)
        x = as_float(ins["x"], tin)
        want = np.atleast_1d(x.sum()) if kind == "reduce" else x.reshape(n["rows"], n["cols"]).sum(axis=1)
        got = as_float(r.buffers["out"], tout)
        if tin.startswith("i"):
            assert np.array_equal(got, want), key
        else:  # the result's own rounding: 2^-10 for float16, 2^-7 for bfloat16, far less for the others
            rel = {"f16": 2.0**-10, "bf16": 2.0**-7}.get(tout, 1e-6)
            assert np.allclose(got, want, rtol=rel, atol=rel), (key, got, want)


def test_lab_exchange_counts_every_key(reports):
    """The lab's hist_cluster_exchange (the library's once) as a cluster of one: ranked, scattered to its
    stage, read back, counted."""
    for bits in (32, 16):
        key = f"histogram:hist_cluster_exchange<1, 512, 1> AGG=0 CBITS={bits}"
        ins = inputs(BY_ID[key])
        got = report(reports, key).buffers["out"].astype(np.int64) - ins["out"].astype(np.int64)
        assert np.array_equal(got, np.bincount(ins["keys"], minlength=256)), bits


def test_matmul_block_computes_its_tile(reports):
    for key in ("matmul:MatMulKernel16", "matmul:mm_tiled", "matmul:mm_warptile_db16"):
        launch, r = BY_ID[key], report(reports, key)
        ins = inputs(launch)
        names = list(ins)
        a, b = ins[names[0]].reshape(64, 64).astype(np.float64), ins[names[1]].reshape(64, 64).astype(np.float64)
        c = r.buffers[names[2]].reshape(64, 64)
        n = 16 if key.endswith("16") else 32 if "tiled" in key else 64
        assert np.allclose(c[:n, :n], (a @ b)[:n, :n], rtol=1e-5, atol=1e-5), key


def test_ptxas_merged_loads_are_counted_as_the_sass_does(reports):
    """MatMulKernel's four scalar As[row][e..e+3] reads are one LDS.128 in the SASS: a 16-byte broadcast."""
    r = report(reports, "matmul:MatMulKernel16")
    if r.sass is None or not r.sass.available:
        pytest.skip("nvdisasm (the nvidia-cuda-nvdisasm wheel) is not installed")
    widths = {w for _, _, w in r.sass.merged}
    assert widths == {16}
    loads = [s for s in r.sites if s.kind == "load" and s.requests]
    assert sorted({s.size for s in loads}) == [4, 16]
