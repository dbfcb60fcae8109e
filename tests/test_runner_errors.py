"""A CUDA error in one variant, with no GPU: the runner names the variant and goes on where the
context survives, and stops with a clear message where it does not (never a traceback)."""

import pytest

from smemlab import runner
from smemlab.errors import KernelError
from smemlab.lab.base import Case, Check, Variant


class FakeRuntime:
    launch_log = None

    def sync(self, *args):
        pass


def failing_case(name="broken"):
    def launch():
        raise KernelError("brokenKernel", "grid (1,1,1) block (32,1,1)", RuntimeError("CUDA_ERROR_ILLEGAL_ADDRESS"))

    return Case(Variant(name, "plants an illegal address", "brokenKernel"), launch, lambda: Check(True, "unreachable"))


def test_a_kernel_error_is_recorded_with_the_variant_where_the_context_survives(monkeypatch):
    monkeypatch.setattr(runner, "_context_alive", lambda rt: True)
    rec = runner.run_case(FakeRuntime(), failing_case(), reps=5, copy_gbps=None)
    assert not rec.ok and rec.variant == "broken"
    assert "brokenKernel" in rec.failure and "ILLEGAL_ADDRESS" in rec.failure


def test_a_lost_context_stops_the_run_naming_the_variant(monkeypatch):
    monkeypatch.setattr(runner, "_context_alive", lambda rt: False)
    with pytest.raises(runner.ContextLost, match="broken: kernel brokenKernel .* did not survive"):
        runner.run_case(FakeRuntime(), failing_case(), reps=5, copy_gbps=None)
