"""Rewrite the README's library table from the recorded run: python tools/readme_tables.py

The table sits between the markers <!-- bench-table --> and <!-- /bench-table -->; a CPU test
(tests/test_records_report.py) fails when it differs from what results/run.json renders."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from smemlab.bench.render import goal_table  # noqa: E402
from smemlab.records import RunRecord  # noqa: E402

BEGIN, END = "<!-- bench-table -->", "<!-- /bench-table -->"


def rendered(readme: str, record: RunRecord) -> str:
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + "\n".join(goal_table(record.bench)) + "\n" + END + tail


if __name__ == "__main__":
    path = ROOT / "README.md"
    path.write_text(rendered(path.read_text(), RunRecord.load(ROOT / "results" / "run.json")))
    print(f"rewrote the library table in {path}")
