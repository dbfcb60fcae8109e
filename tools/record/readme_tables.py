"""Rewrite the tables of README.md and docs/library.md from the recorded run: python tools/record/readme_tables.py

Each table sits between markers <!-- NAME --> and <!-- /NAME -->: `layout-table` (the layout
experiment's times beside the bank model's wavefronts and Nsight Compute's), `latency-table` (one
call at a time, smemlab against the best baseline called the same way, per size), `crossover-list`
(where smemlab becomes the fastest) and `bench-table` (the throughput goals). A CPU test
(tests/test_records_report.py) fails when any differs from what results/run.json renders."""

from pathlib import Path

from smemlab.render.bench import crossover_text, crossovers, goal_table, goals_line, latency_table
from smemlab.counters import measured_per_request, predicted_per_request
from smemlab.records import RunRecord

ROOT = Path(__file__).resolve().parents[2]


# (the README's label, the layout experiment's variant)
LAYOUT_ROWS = [("setRowReadRow", "setRowReadRow"), ("setColReadCol", "setColReadCol"),
               ("setRowReadCol", "setRowReadCol"), ("setRowReadColPad (IPAD 1)", "setRowReadColPad"),
               ("32x16 block, setRowReadColPad1_rect (IPAD 1)", "setRowReadColPad1_rect"),
               ("32x16 block, setRowReadColPad_rect (IPAD 2)", "setRowReadColPad_rect")]


def _per_request(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def layout_table(record: RunRecord) -> list[str]:
    """The layout experiment's headline rows: time, and shared-load wavefronts per request as the
    bank model predicts them and as Nsight Compute counted them (at the bank check's few blocks,
    where recorded: there no other traffic shares the SM's banks)."""
    exp = next((e for e in record.experiments if e.name == "layout"), None)
    if exp is None:
        return ["(the recorded run has no layout experiment)"]
    variants = {v.variant: v for v in exp.variants}
    blocks, passes = (list(exp.size) + [1, 1])[:2]
    lines = [f"| layout (32x32 int tile; {blocks:,} blocks x {passes} pass{'es' if passes != 1 else ''}) | time ms | smem ld wf/req predicted | "
             "measured (ncu) |", "|---|---|---|---|"]
    for label, name in LAYOUT_ROWS:
        v = variants.get(name)
        if v is None or not v.ok:
            lines.append(f"| {label} | {'not run' if v is None else 'FAILED'} | | |")
            continue
        measured, predicted = measured_per_request(v, "load"), predicted_per_request(v, "load")
        measured = "-" if measured is None else _per_request(measured)
        predicted = "-" if predicted is None else _per_request(predicted)
        lines.append(f"| {label} | {v.median_ms:.3g} | {predicted} | {measured} |")
    return lines


def tables(record: RunRecord) -> dict[str, list[str]]:
    rows = record.bench
    return {
        "layout-table": layout_table(record),
        "latency-table": latency_table(rows),
        "crossover-list": [f"- {c['op']} {c['family']}, {c['impl']}: {crossover_text(c)}" for c in crossovers(rows)],
        "bench-table": [goals_line(rows), ""] + goal_table(rows),
    }


PAGES = ("README.md", "docs/library.md")  # where the tables sit: each page holds the markers of its own


def rendered(readme: str, record: RunRecord) -> str:
    for name, lines in tables(record).items():
        begin, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        if begin not in readme:
            continue
        head, rest = readme.split(begin, 1)
        _, tail = rest.split(end, 1)
        readme = head + begin + "\n" + "\n".join(lines) + "\n" + end + tail
    return readme


if __name__ == "__main__":
    record = RunRecord.load(ROOT / "results" / "run.json")
    for page in PAGES:
        path = ROOT / page
        path.write_text(rendered(path.read_text(), record))
        print(f"rewrote the tables in {path}")
