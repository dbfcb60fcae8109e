"""docs/ptx-support.md is the emulator's registry as it is (tools/dev/ptx_table.py regenerates it)."""

from pathlib import Path

from smemlab.analyze.ptx_support import markdown, rows

DOC = Path(__file__).resolve().parents[1] / "docs" / "ptx-support.md"


def test_the_table_is_current():
    assert DOC.read_text() == markdown(), "docs/ptx-support.md is stale: run python tools/dev/ptx_table.py"


def test_the_table_lists_what_the_emulator_runs():
    names = {name for name, _, _ in rows()}
    assert {"ld", "st", "atom", "cp.async", "mma", "wgmma.mma_async", "shfl", "add", "ldmatrix"} <= names
