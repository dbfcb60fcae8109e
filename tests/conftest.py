"""Shared fixtures. GPU tests ask for `rt` or `run_case` (or carry the `gpu` marker) and skip, with the
reason, where there is no CUDA GPU: CI runs on a machine without one."""

import functools

import pytest


@functools.lru_cache(maxsize=1)
def _no_gpu_reason():
    from smemlab.device import no_gpu_reason

    return no_gpu_reason()


def pytest_collection_modifyitems(config, items):
    reason = _no_gpu_reason()
    if not reason:
        return
    skip = pytest.mark.skip(reason=f"needs a CUDA GPU: {reason}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


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
