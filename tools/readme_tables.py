"""Rewrite the README's library tables from the recorded run: python tools/readme_tables.py

Each table sits between markers <!-- NAME --> and <!-- /NAME -->: `latency-table` (one call at a
time, smemlab against the best baseline called the same way, per size), `crossover-list` (where
smemlab becomes the fastest) and `bench-table` (the throughput goals). A CPU test
(tests/test_records_report.py) fails when any differs from what results/run.json renders."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from smemlab.render.bench import crossover_text, crossovers, goal_table, goals_line, latency_table  # noqa: E402
from smemlab.records import RunRecord  # noqa: E402


def tables(record: RunRecord) -> dict[str, list[str]]:
    rows = record.bench
    return {
        "latency-table": latency_table(rows),
        "crossover-list": [f"- {c['op']} {c['family']}, {c['impl']}: {crossover_text(c)}" for c in crossovers(rows)],
        "bench-table": [goals_line(rows), ""] + goal_table(rows),
    }


def rendered(readme: str, record: RunRecord) -> str:
    for name, lines in tables(record).items():
        begin, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        head, rest = readme.split(begin, 1)
        _, tail = rest.split(end, 1)
        readme = head + begin + "\n" + "\n".join(lines) + "\n" + end + tail
    return readme


if __name__ == "__main__":
    path = ROOT / "README.md"
    path.write_text(rendered(path.read_text(), RunRecord.load(ROOT / "results" / "run.json")))
    print(f"rewrote the library tables in {path}")
