"""A loop that makes no progress stops the analysis in seconds, saying where; a long loop that does
progress runs to its end; the wall-clock limit stops what runs too long."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from smemlab.analyze import AnalyzeError, analyze_source

SRC = str(Path(__file__).parent / "data" / "analyze" / "spin.cu")


@pytest.mark.parametrize("kernel, args, line", [
    ("spin_on_flag", ["flag=int32[1]:0..0", "out=int32[64]"], 8),
    ("spin_with_backoff", ["counter=int32[1]:0..0", "out=int32[64]", "total=2"], 17),
])
def test_a_spin_on_what_no_emulated_thread_changes_is_found_at_once(kernel, args, line):
    start = time.monotonic()
    with pytest.raises(AnalyzeError) as exc:
        analyze_source(SRC, kernel, (64,), grid=(2,), args=args)
    assert time.monotonic() - start < 10  # compile included; the step limit took 97 s
    message = str(exc.value)
    assert message.startswith(f"{SRC}:{line} `while") and "makes no progress" in message
    assert "warps 0-1" in message and "another block" in message


def test_a_long_loop_that_progresses_is_not_a_spin():
    r = analyze_source(SRC, "poll_with_budget", (64,), args=["flag=int32[1]:0..0", "out=int32[64]", "budget=3000"])
    assert r.buffers["out"].tolist() == [3000] * 64


def test_the_time_limit_stops_a_long_run():
    with pytest.raises(AnalyzeError, match=r"stopped after 0.3 s \(--time-limit\) .*spin.cu:\d+"):
        analyze_source(SRC, "poll_with_budget", (64,), args=["flag=int32[1]:0..0", "out=int32[64]", "budget=100000000"],
                       time_limit=0.3)


@pytest.mark.parametrize("order", [0, 1])
def test_a_warp_waiting_for_a_warp_on_the_other_path_lets_it_run(order):
    r = analyze_source(SRC, "handoff", (64,), args=["out=int32[64]", f"order={order}"])
    waiter = [7] * 32
    assert r.buffers["out"].tolist() == (waiter + [-1] * 32 if order else [-1] * 32 + waiter)
