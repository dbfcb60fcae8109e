"""The recorded Nsight Compute truth for `smemlab analyze` (tests/data/analyze_truth.json) is
consistent with itself and with the sources it was measured on, with no GPU.

The fixture comes from tools/analyze_truth/measure.py (see tools/analyze_truth/README.md): each case
is one thread block of a package or corpus kernel, with Nsight Compute's totals and its per-SASS
source counters attributed to source lines.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze.sass import WARPGROUP_MMA

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "data" / "analyze_truth.json"
TOOL = REPO / "tools" / "analyze_truth"
OPS = ("load", "store", "atomic")


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"analyze_truth_{name}", TOOL / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@lru_cache(maxsize=None)
def tools():
    sys.path.insert(0, str(TOOL))
    try:
        return _module("cases"), _module("measure")
    finally:
        sys.path.remove(str(TOOL))


@lru_cache(maxsize=None)
def fixture() -> dict:
    return json.loads(FIXTURE.read_text())


def cases() -> list[dict]:
    return fixture()["cases"]


def test_provenance_names_the_machine_and_the_tools():
    prov = fixture()["provenance"]
    for key in ("gpu", "driver", "ncu", "nvrtc", "cuda_core", "date", "script"):
        assert prov.get(key), key
    assert prov["script"] == "tools/analyze_truth/measure.py"
    assert (REPO / prov["script"]).exists()
    assert "H200" in prov["gpu"] or "H100" in prov["gpu"]
    ids = {c["id"] for c in cases()}
    for added in prov.get("added", []):  # later recordings of some cases (measure.py fixture --merge)
        for key in ("gpu", "driver", "ncu", "nvrtc", "cuda_core", "date"):
            assert added.get(key), (added.get("date"), key)
        assert added["cases"] and set(added["cases"]) <= ids


def waiting(spec) -> list[dict]:
    """cases.py's cases of kernels that SKIPS names: written, not yet recorded on the GPU."""
    return [c for c in spec.CASES if f"{c['file']}:{c['kernel']}" in spec.SKIPS]


def nvcc_missing() -> bool:
    sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import nvcc

    return nvcc.find() is None or nvcc.host_compiler([]) is None


def _file(file: str) -> str:
    """A case's file by its package name: the fixture's older recordings name package kernels by their
    aliases (package:book/NAME.cu, package:lib/NAME.cu: compiler.ALIASES)."""
    from smemlab.compiler import canonical

    return "package:" + canonical(file.removeprefix("package:")) if file.startswith("package:") else file


def test_cases_are_those_of_cases_py():
    """The fixture's launches are cases.py's, field for field (a changed case needs a new recording), but
    the cases waiting for their first recording, whose arguments still match their kernels."""
    spec, measure = tools()
    keys = ("id", "file", "kernel", "defines", "block", "grid", "block_index", "dynamic_shared", "args")
    later = {c["id"] for c in waiting(spec)}
    want = {c["id"]: {k: _file(c[k]) if k == "file" else c[k] for k in keys} for c in spec.CASES if c["id"] not in later}
    got = {c["id"]: {k: _file(c[k]) if k == "file" else c[k] for k in keys} for c in cases()}
    assert got == want
    assert not later & {c["id"] for c in cases()}  # recorded: its SKIPS entry goes
    for c in waiting(spec):
        if c.get("compiler") in measure.PYTHON:  # compiled by a front end: test_every_python_case_builds
            continue
        path = measure.source_path(c["file"])
        params = measure.kernel_params(path.read_text(), c["kernel"])
        if c.get("compiler") == "nvcc" and any("*" not in t and t not in measure.SCALAR_TYPES for t, _ in params):
            continue  # a template's scalar (T wCenter): the instance's type comes with its recording's compile
        measure.check_args(c, params)


def test_every_package_kernel_has_a_case_or_a_reason():
    spec, _ = tools()
    assert spec.package_kernels_without_case() == []
    recorded = {(_file(c["file"]), c["kernel"]) for c in cases()}
    from smemlab.compiler import kernel_sources, source_name
    from smemlab.lab import kernel_instances

    for path in [p for p in kernel_sources() if p.suffix == ".cu"]:
        names = re.findall(r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(', path.read_text())
        names += kernel_instances(source_name(path))  # the template instances its op launches
        assert names, path
        for name in names:
            key = f"package:{source_name(path)}"
            assert (key, name) in recorded or f"{key}:{name}" in spec.SKIPS, f"{key}:{name}"
    for reason in spec.SKIPS.values():
        assert len(reason) > 20  # a reason, not a placeholder


def test_launch_shapes_are_one_block_or_one_cluster():
    """What analyze emulates is what the truth launched: one block, or a small grid of blocks or of clusters, which
    the replays emulate block by block (cluster by cluster) and sum (test_analyze_truth.GridReport)."""
    for c in cases():
        cluster = c.get("cluster", [1, 1, 1])
        assert len(cluster) == 3 and 1 <= np.prod(cluster) <= 16, c["id"]
        assert all(g % k == 0 for g, k in zip(c["grid"], cluster)), c["id"]
        if np.prod(c["grid"]) == 1:
            assert c["block_index"] == [0, 0, 0], c["id"]
        else:
            assert len(c["grid"]) == 3 and np.prod(c["grid"]) <= 128, c["id"]
            assert all(0 <= b < g for b, g in zip(c["block_index"], c["grid"])), c["id"]
        assert len(c["block"]) == 3 and 1 <= np.prod(c["block"]) <= 1024, c["id"]
        assert 0 <= c["dynamic_shared"] <= 227 * 1024, c["id"]


def test_arguments_match_the_kernel_parameters():
    """`args` name every parameter in order, in `smemlab analyze --arg` syntax, and the buffers exist."""
    _, measure = tools()
    sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import args

    for c in cases():
        path = measure.source_path(c["file"])
        assert path.exists(), c["file"]
        if c.get("compiler") in measure.PYTHON:  # the front end's signature: test_every_python_case_builds
            continue
        if c.get("compiler") == "nvcc":  # a template instance's types are the compile's (its demangled name)
            if nvcc_missing():
                continue
            params = measure.compile_whole(c)[2]
        else:
            params = measure.kernel_params(path.read_text(), c["kernel"])
        measure.check_args(c, params)  # raises on a mismatch
        for arg in c["args"]:
            name, value = measure.parse_arg(arg)
            if value.endswith(".npy"):
                assert (REPO / value).exists(), value
            elif measure.BUF.match(value):
                a = measure.fill(name, value)  # the fill contract works for this dtype and range
                _, comps = args.resolve_dtype(measure.BUF.match(value).group(1))  # half2, float4: 2, 4 each
                assert a.size == int(measure.BUF.match(value).group(2)) * comps


def test_the_device_fills_buffers_as_analyze_does():
    """The GPU side (measure.fill) and analyze (smemlab.analyze.args.fill) give a buffer the same contents,
    narrow integer and C vector types too (a uint8 buffer with no range and a float4 buffer once failed
    on the device only, when measure.py had a fill of its own)."""
    _, measure = tools()
    from smemlab.analyze import args

    for value in ("uint8[300]", "int8[64]", "uint16[64]", "int32[64]", "uint32[64]:5..9", "float32[64]", "float64[8]:-2..3",
                  "float4[16]", "int2[8]:0..9"):
        spec = args.parse_arg(f"buf={value}")[1]
        assert np.array_equal(measure.fill("buf", value), args.fill("buf", spec)), value


def test_npy_inputs_regenerate_identically():
    spec, _ = tools()
    sys.path.insert(0, str(REPO / "src"))
    for name, a in spec.data_files().items():
        stored = np.load(REPO / spec.DATA / f"{name}.npy", allow_pickle=False)
        assert stored.dtype == a.dtype and np.array_equal(stored, a), name


def test_every_case_compiles_with_nvrtc_here():
    """Each (file, macros) compiles for sm_90 as analyze compiles it, with the case's kernels in it."""
    pytest.importorskip("cuda.core")
    from cuda.core import Program, ProgramOptions

    _, measure = tools()
    groups: dict[tuple, set] = defaultdict(set)
    for c in cases():
        if c.get("compiler") in ("nvcc", "numba", "triton"):  # whole files (nvcc's) and Python kernels: their own
            continue
        groups[(c["file"], tuple(sorted(c["defines"].items())))].add(c["kernel"])
    for (file, defines), kernels in sorted(groups.items()):
        path = measure.source_path(file)
        opts = ProgramOptions(arch="sm_90", std="c++17", lineinfo=True,
                              include_path=[str(path.parent), str(measure.INCLUDE_DIR)], define_macro=list(defines) or None)
        obj = Program(path.read_text(), "c++", options=opts).compile("cubin", name_expressions=sorted(kernels))
        code = bytes(obj.code)
        for k in kernels:
            lowered = obj.symbol_mapping.get(k, k)
            lowered = lowered.decode() if isinstance(lowered, bytes) else lowered
            assert lowered.encode() in code, (file, k)


def _python_cases() -> list[dict]:
    spec, measure = tools()
    return [c for c in spec.CASES if c.get("compiler") in measure.PYTHON]


@pytest.mark.parametrize("case", _python_cases(), ids=lambda c: c["id"])
def test_every_python_case_builds(case, tmp_path):
    """Each Numba and Triton case compiles through its front end as measure.py's build compiles it, its launch
    arguments line up with the kernel's parameters (names, and the sizes its cubin records, which the launcher's
    arguments_info check compares on the GPU) and the buffers fill as analyze fills them."""
    pytest.importorskip(case["compiler"])
    _, measure = tools()
    assert measure.build(tmp_path, [f"^{re.escape(case['id'])}$"]) == 0
    (c,) = json.loads((tmp_path / "manifest.json").read_text())["cases"]
    assert {k: c[k] for k in case} == case  # the fixture records the case as cases.py wrote it
    cubin = (tmp_path / "cubin" / c["cubin"]).read_bytes()
    sizes = measure.cubin_param_sizes(cubin, c["lowered"])
    assert [measure.param_size(p["ctype"]) for p in c["params"]] == sizes
    for p in c["params"]:
        if p["pointer"]:
            assert measure.fill(p["name"], p["value"]).size > 0
        else:  # what Launcher.run passes: a NumPy scalar of the parameter's size
            v = float(p["value"]) if p["dtype"].startswith("float") else int(p["value"])
            assert np.dtype(p["dtype"]).type(v).nbytes == measure.param_size(p["ctype"])
    if case["compiler"] == "triton":  # num_warps' threads, or the larger block warp specialisation requires
        need = measure.cubin_required_block(cubin, c["lowered"])
        assert c["block"] == (need or [32 * case["num_warps"], 1, 1])


def test_sass_rows_sum_to_lines():
    for c in cases():
        sums: dict[tuple, list] = defaultdict(lambda: [0, 0, 0])
        for s in c["sass"]:
            key = (s["file"], s["line"], s["op"])
            for i, k in enumerate(("instructions_executed", "wavefronts", "ideal_wavefronts")):
                sums[key][i] += s[k]
        lines = {(d["file"], d["line"], d["op"]): [d["instructions_executed"], d["wavefronts"], d["ideal_wavefronts"]]
                 for d in c["lines"]}
        assert lines == dict(sums), c["id"]


def _installed(path: Path) -> Path | None:
    """A header or module the recording machine's environment held (`.../site-packages/nvidia/cu13/include/x.h`,
    Triton's standard.py) in this environment's site-packages, or None where the package is not installed here."""
    import sysconfig

    if path.exists() or "site-packages/" not in str(path):
        return path
    inside = str(path).split("site-packages/", 1)[1]
    packages = Path(sysconfig.get_paths()["purelib"])
    return packages / inside if (packages / inside.split("/", 1)[0]).is_dir() else None


def test_lines_name_real_source_lines():
    _, measure = tools()
    for c in cases():
        for d in c["lines"]:
            path = _installed(measure.source_path(d["file"]))
            if path is None:
                continue
            assert path.exists(), (c["id"], d["file"])
            # Triton's line table can name a line past the end of a file whose last function is the kernel (its
            # epilogue's: triton.tma_edge's LDS.128 at line 181 of 177); analyze reports the line it names
            last = len(path.read_text().splitlines()) + (8 if c.get("compiler") == "triton" else 0)
            assert 1 <= d["line"] <= last, (c["id"], d)
            assert d["op"] in OPS + ("ldgsts",) or d["op"].startswith("dsmem_"), (c["id"], d)


def _remote(c) -> bool:
    """The case has instructions with lanes on other blocks' shared memory (Nsight Compute's dsmem_ ops)."""
    return any(d["op"].startswith("dsmem_") for d in c["lines"])


def _of(d, op: str) -> bool:
    """A line of `op`, its dsmem_ form included (the lanes on the block's own shared memory count there)."""
    return d["op"] in (op, "dsmem_" + op)


def test_wavefronts_are_at_least_ideal():
    for c in cases():
        for s in c["sass"]:
            # an instruction whose lanes are all on other blocks' shared memory costs nothing here
            # the source view's first prologue cp.async with 4 stages in flight counts nothing (test_analyze_truth's
            # STAGED_SOURCE_VIEW)
            staged = s["opcode"].startswith("LDGSTS") and c["id"].startswith("cp_async_stages.s4")
            if s["instructions_executed"] and s["threads"] and not s["op"].startswith("dsmem_") and not staged:
                assert s["wavefronts"] >= s["ideal_wavefronts"] >= 1, (c["id"], s)
            assert s["wavefronts"] >= s["ideal_wavefronts"], (c["id"], s)
        # a spin lock's trips differ from one profiled run to the next (not repeatable), and the source view and
        # the counters come from different runs: their totals need not bound each other (fresh7.triton.ln_bwd_grouped_lock)
        timing = c.get("repeatable") is False and not c["attributed"]
        for op in OPS if not _warpgroup_mma(c) and not timing else ():  # (its operand reads: below)
            t = c["totals"][op]
            # where the L1 counter is not the instructions' sum (timing-dependent contention: README), the sum is
            # what the source view's ideal belongs to
            assert t["wavefronts" if c["attributed"] else "sass_wavefronts"] >= t["ideal_wavefronts"], (c["id"], op)


def _warpgroup_mma(c) -> bool:
    """A warpgroup MMA (HGMMA) reads its operands from shared memory: the source view lists those wavefronts
    (and their ideal) as loads of its line, the SASS-attributed load counter leaves them out."""
    return any(s["opcode"].startswith(WARPGROUP_MMA) for s in c["sass"])


def test_per_line_wavefronts_sum_to_the_sass_attributed_totals():
    """The source view's per-instruction wavefronts add up to the SASS-attributed totals
    (sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*) wherever the kernel's counts repeat
    from one profiled process to the next."""
    for c in cases():
        if not c["repeatable"] or _warpgroup_mma(c):
            continue
        for op in OPS:
            assert sum(d["wavefronts"] for d in c["lines"] if _of(d, op)) == c["totals"][op]["sass_wavefronts"], (c["id"], op)


def test_hardware_totals_equal_the_sass_attributed_ones_but_in_a_few_cases():
    """l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* (the unit's counter, the issue's totals) equal
    the per-line sums except in the cases marked `attributed: false` (README: why), which stay few. In
    a cluster, the requests of other blocks reach this block's shared memory too, and its counter counts
    some of them (none for conflict-free reads and stores): never fewer than the per-line sums."""
    off = []
    for c in cases():
        same = all(c["totals"][op]["wavefronts"] == c["totals"][op]["sass_wavefronts"] for op in OPS)
        assert same == c["attributed"], c["id"]
        if _remote(c):
            assert all(c["totals"][op]["wavefronts"] >= c["totals"][op]["sass_wavefronts"] for op in OPS), c["id"]
        elif not same:
            off.append(c["id"])
    assert len(off) <= len(cases()) // 20, off
    assert all(c["repeatable"] is not None for c in cases())
    # a second run may differ by a few wavefronts (mostly kernels with shared atomics or a cluster: the
    # order the atomics land in, the peers' timing); by more than 1% in few cases
    assert sum(not c["repeatable"] for c in cases()) <= len(cases()) // 16
    assert sum(_second_run_differs(c) > 0.01 for c in cases()) <= len(cases()) // 20


def _second_run_differs(c) -> float:
    """The largest relative difference of a wavefront total between the two profiled runs (0: repeatable)."""
    if c["repeatable"]:
        return 0.0
    again = c["totals_second_run"]
    return max(abs(c["totals"][op]["wavefronts"] - again[op]["wavefronts"]) / max(1, c["totals"][op]["wavefronts"])
               for op in again)


def test_instruction_totals_leave_out_warps_predicated_off():
    """The totals count a warp's instruction when at least one of its threads is predicated on; the
    source view counts every warp that issued it. So the lines' count is never below the totals."""
    for c in cases():
        if not c["repeatable"]:
            continue
        for op in OPS:
            issued = sum(d["instructions_executed"] for d in c["lines"] if _of(d, op))
            assert issued >= c["totals"][op]["instructions"], (c["id"], op)


def test_cp_async_writes_are_in_neither_the_load_nor_the_store_totals():
    """cp.async (LDGSTS) costs shared wavefronts in the source view, but the load and store counters leave
    them out; the staged stencil's only shared stores are its copies."""
    c = next(c for c in cases() if c["id"] == "overlap.stagedCpAsync2")
    copies = [s for s in c["sass"] if s["op"] == "ldgsts"]
    assert copies and all(s["opcode"].startswith("LDGSTS") and s["wavefronts"] > 0 for s in copies)
    assert c["totals"]["store"]["wavefronts"] == c["totals"]["store"]["sass_wavefronts"] == 0
    assert sum(d["wavefronts"] for d in c["lines"] if d["op"] == "load") == c["totals"]["load"]["sass_wavefronts"]


def test_predicated_off_warps_issue_at_zero_wavefronts():
    """Somewhere in the corpus a shared instruction is issued by warps whose lanes are all predicated
    off: it counts instructions, not wavefronts (short_predicated)."""
    c = next(c for c in cases() if c["id"] == "corpus.short_predicated")
    assert any(s["instructions_executed"] > 0 and s["wavefronts"] < s["instructions_executed"] for s in c["sass"])
    assert c["totals"]["store"]["instructions"] < sum(s["instructions_executed"] for s in c["sass"] if s["op"] == "store")


def test_the_issue_histogram_costs_about_three_wavefronts_per_atomic():
    """8192 hashed keys over 256 bins, 256 threads: 256 atomic instructions, about 3 wavefronts each."""
    c = next(c for c in cases() if c["id"] == "corpus.histogram_hashed")
    t = c["totals"]["atomic"]
    assert t["instructions"] == 256
    assert 2.5 * 256 <= t["wavefronts"] <= 3.5 * 256


def _atomic_cost(words: np.ndarray, merge_same_word: bool) -> int:
    """The measured rule: the most updates that fall in one bank (4-byte words, 32 banks); lanes on
    one word count once where the instruction merges them."""
    w = np.unique(words) if merge_same_word else words
    return int(np.bincount(w % 32, minlength=32).max()) if w.size else 0


def test_the_shared_atomic_wavefront_rule_holds_for_every_pattern():
    """One warp, one atomic: ATOMS.POPC.INC (atomicAdd(p, 1), result unused) costs the most distinct
    words in one bank; ATOMS.ADD the most active lanes in one bank; ATOMS.CAS twice that (README)."""
    spec, _ = tools()
    by_id = {c["id"]: c for c in cases()}
    for k, (name, words) in enumerate(spec.ATOMIC_PATTERNS):
        active = words[words >= 0]
        for kind, opcode, cost in (("inc", "ATOMS.POPC.INC.32", _atomic_cost(active, True)),
                                   ("add", "ATOMS.ADD", _atomic_cost(active, False)),
                                   ("cas", "ATOMS.CAS", 2 * _atomic_cost(active, False))):
            c = by_id[f"atomic.{kind}.{name}"]
            rows = [s for s in c["sass"] if s["op"] == "atomic"]
            assert [s["opcode"] for s in rows] == [opcode], (c["id"], rows)
            assert rows[0]["instructions_executed"] == 1 and rows[0]["wavefronts"] == cost, (c["id"], rows[0], cost)
            assert c["totals"]["atomic"]["wavefronts"] == cost


def test_the_atomic_rule_predicts_the_multi_warp_histograms():
    """histogram256 (key & 255, 256 threads, 8192 keys): warp w of step j counts keys
    [256 j + 32 w, +32); its ATOMS.POPC.INC costs the most distinct bins in one bank."""
    by_id = {c["id"]: c for c in cases()}
    for dist in ("uniform", "skewed", "all_same", "conflict_free", "one_bank"):
        c = by_id[f"corpus.histogram256.{dist}"]
        keys = np.load(REPO / c["args"][0].split("=", 1)[1]).astype(np.int64) & 255
        want = sum(_atomic_cost(keys[i:i + 32], True) for i in range(0, keys.size, 32))
        assert c["totals"]["atomic"]["wavefronts"] == want, (c["id"], want)


def test_a_dtype_constexpr_written_by_name_reaches_the_kernel_as_the_dtype():
    """A case writes a dtype constexpr as `--constexpr` takes it ('tl.float16'); the build and the replay hand the
    kernel the dtype (a `x.to(DTYPE)` of the string fails to compile), the other values as written."""
    tl = pytest.importorskip("triton.language")
    _, measure = tools()
    got = measure.case_constexprs({"constexprs": {"OUT_DTYPE": "tl.bfloat16", "BLOCK": 64, "ACT": "relu",
                                                  "NAME": "tl.no_such_type"}})
    assert got == {"OUT_DTYPE": tl.bfloat16, "BLOCK": 64, "ACT": "relu", "NAME": "tl.no_such_type"}
