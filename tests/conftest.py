"""Shared fixtures. GPU tests ask for `rt` (or carry the `gpu` marker) and skip, with the reason,
where there is no CUDA GPU: CI runs on a machine without one."""

import functools

import pytest


@functools.lru_cache(maxsize=1)
def _no_gpu_reason():
    from smemlab.gpu import no_gpu_reason

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
