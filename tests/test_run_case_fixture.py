"""The GPU tests' one way to run a case (conftest.run_case), checked on the CPU with a stand-in
runtime: it poisons the outputs before every launch, waits naming the kernel, returns the verdict,
and asserts it where asked (except for a variant kept to show a hazard, where asked)."""

import numpy as np
import pytest

from smemlab.lab.base import Case, Check, Variant


class FakeRuntime:
    def __init__(self):
        self.synced = []

    def sync(self, what="", shape=""):
        self.synced.append((what, shape))


@pytest.fixture
def rt():  # overrides conftest's GPU runtime for this module only
    return FakeRuntime()


def case_of(writes: list, hazard=None) -> Case:
    """A case whose launch writes the next value of `writes` into its output (None: writes nothing)."""
    out = np.zeros(4, dtype=np.float32)
    seen = []

    def launch():
        value = writes[len(seen)]
        seen.append(np.isnan(out).all())  # poisoned before each launch
        if value is not None:
            out.fill(value)

    def check():
        return Check(bool(np.all(out == 1.0)), f"out = {out[0]}")

    case = Case(Variant("v", "", "k", hazard=hazard), launch, check, outputs=(out,), launch_shape="grid (1, 1, 1)")
    case.seen = seen
    return case


def test_it_poisons_launches_waits_and_returns_the_verdict(rt, run_case):
    case = case_of([1.0, 2.0])
    verdict = run_case(case, times=2)
    assert case.seen == [True, True] and rt.synced == [("v", "grid (1, 1, 1)")] * 2
    assert not verdict.ok and verdict.detail == "out = 2.0"  # the last launch's


def test_an_unwritten_output_fails_the_check(run_case):
    assert not run_case(case_of([None])).ok


def test_verify_asserts_every_launch(run_case):
    with pytest.raises(AssertionError, match="v grid"):
        run_case(case_of([2.0, 1.0]), times=2, verify=True)  # the first launch is wrong, the second right
    run_case(case_of([1.0, 1.0]), times=2, verify=True)


def test_a_hazard_may_fail_only_where_asked(run_case):
    assert not run_case(case_of([2.0], hazard="racecheck"), verify=True, hazards_may_fail=True).ok
    with pytest.raises(AssertionError):
        run_case(case_of([2.0], hazard="racecheck"), verify=True)
