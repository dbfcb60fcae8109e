"""Shared fixtures. GPU tests ask for `rt` or `run_case` (or carry the `gpu` marker) and skip, with the
reason, where there is no CUDA GPU: CI runs on a machine without one."""

import functools

import pytest


@functools.lru_cache(maxsize=1)
def _no_gpu_reason():
    from smemlab.device import no_gpu_reason

    return no_gpu_reason()


# Test kinds, by module: `truth` replays recorded hardware counts through the emulator; `slow` compiles or
# emulates at length. `make test-fast` leaves both out (the inner loop); `make test` runs everything.
TRUTH_MODULES = {"test_analyze_truth", "test_analyze_truth_fixture", "test_analyze_global_truth",
                 "test_analyze_ptx_variants"}
SLOW_MODULES = {"test_ops_histogram", "test_analyze_python_robust", "test_analyze_cccl", "test_kernels_spill_free", "test_analyze_python",
                "test_analyze_files", "test_plain_install", "test_records_report", "test_histogram_carry_model",
                "test_analyze_device_runtime", "test_exp_layout", "test_analyze_package", "test_bench_core"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        if module in TRUTH_MODULES:
            item.add_marker(pytest.mark.truth)
        if module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
    reason = _no_gpu_reason()
    if not reason:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU: {reason}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_terminal_width(monkeypatch):
    """pytest-xdist's workers inherit COLUMNS=80 from their launcher, where a plain run has none: the command
    line's piped output then wraps its tables. Every test sees the plain run's environment."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture(scope="session")
def rt():
    """The GPU runtime, shared by every GPU test of the session."""
    reason = _no_gpu_reason()
    if reason:
        pytest.skip(f"needs a CUDA GPU: {reason}")
    from smemlab.gpu import Runtime

    return Runtime(0)


@pytest.fixture
def run_case(rt):
    """Run one experiment Case as the runner does before it times it: poison the outputs, launch,
    wait (a launch error names the kernel and its launch shape), check against the reference; the
    last verdict is returned. `times`: run it that often (launches must repeat). `verify`: assert
    every verdict, except, with `hazards_may_fail`, those of a variant kept to show a hazard (a
    race may or may not give the right answer)."""
    from smemlab.measure import checked_call

    def run(case, times: int = 1, verify: bool = False, hazards_may_fail: bool = False):
        for _ in range(times):
            checked_call(case.launch, lambda: rt.sync(case.variant.name, case.launch_shape), case.outputs)
            verdict = case.check()
            if verify and not (hazards_may_fail and case.variant.hazard):
                assert verdict.ok, f"{case.variant.name} {case.launch_shape}: {verdict.detail}"
        return verdict

    return run


FALLBACK_NVCC = "/tmp/nvccwh/nvidia/cu13/bin/nvcc"


def wheel_nvcc():
    """The nvcc of an installed nvidia-cuda-nvcc (CUDA 13) wheel, else one unpacked in /tmp; None if neither."""
    import sys
    from pathlib import Path

    for entry in sys.path:
        if "site-packages" in entry:
            cand = Path(entry) / "nvidia" / "cu13" / "bin" / "nvcc"
            if cand.is_file():
                return cand
    return Path(FALLBACK_NVCC) if Path(FALLBACK_NVCC).is_file() else None


@pytest.fixture(scope="session")
def nvcc_ptx(tmp_path_factory):
    """`nvcc_ptx(path)`: the PTX (sm_90, line info) that the CUDA 13 wheel's nvcc makes of a .cu file with
    its CCCL headers and host code, compiled once per session; skips where that nvcc is missing."""
    import subprocess

    nvcc = wheel_nvcc()
    if nvcc is None:
        pytest.skip("no CUDA 13 nvcc: install the nvidia-cuda-nvcc wheel (its nvidia/cu13/bin/nvcc) to compile "
                    "real CUDA files with their headers")
    out_dir = tmp_path_factory.mktemp("nvcc_ptx")
    cache: dict = {}

    def get(path) -> str:
        if path not in cache:
            out = out_dir / f"{len(cache)}.ptx"
            done = subprocess.run([str(nvcc), "-arch=sm_90", "-lineinfo", "-ptx", "-o", str(out), str(path)],
                                  capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
            cache[path] = out.read_text()
        return cache[path]
    return get
