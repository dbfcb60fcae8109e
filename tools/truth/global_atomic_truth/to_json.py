"""global_atomics.csv + global_atomics_hist.csv (+ global_atomics2.csv) (measure.sh's, on a GPU machine) -> tests/data/global_atomic_truth.json.

    python tools/truth/global_atomic_truth/to_json.py OUTDIR GPU DATE   # the folder measure.sh wrote to
    python tools/truth/global_atomic_truth/to_json.py --ops OUTDIR GPU DATE   # measure.sh --ops's: added to the
                                                                              # designed and random patterns
    python tools/truth/global_atomic_truth/to_json.py --three OUTDIR GPU DATE DRIVER   # measure.sh --three's:
                      # patterns3.txt's warps appended as kinds probe3.<block>, with the table's device address
"""

import csv
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FORMS = {"i": "red_inc", "a": "red_add", "f": "red_addf", "d": "red_add64", "r": "atom_add",
         "M": "red_max", "N": "atom_min", "O": "red_or", "X": "atom_exch", "C": "atom_cas"}
SASS = {"red_inc": "REDG.E.ADD.STRONG.GPU", "red_add": "REDG.E.ADD.STRONG.GPU",
        "red_addf": "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", "red_add64": "REDG.E.ADD.64.STRONG.GPU",
        "atom_add": "ATOMG.E.ADD.STRONG.GPU", "red_max": "REDG.E.MAX.STRONG.GPU", "atom_min": "ATOMG.E.MIN.STRONG.GPU",
        "red_or": "REDG.E.OR.STRONG.GPU", "atom_exch": "ATOMG.E.EXCH.STRONG.GPU", "atom_cas": "ATOMG.E.CAS.STRONG.GPU"}
OPS_FORMS = "MNOXC"  # measure.sh --ops's


def launches(path: Path) -> list[dict]:
    text = path.read_text()
    rows = list(csv.reader(io.StringIO(text[text.index('"ID"'):])))
    hdr, rows = rows[0], rows[1:]
    iid, ik, im, iv = (hdr.index(h) for h in ("ID", "Kernel Name", "Metric Name", "Metric Value"))
    by: dict = {}
    for r in rows:
        d = by.setdefault(int(r[iid]), {"kernel": r[ik].split("(")[0]})
        d[r[im]] = int(float(r[iv].replace(",", "")))
    out = []
    for i in sorted(by):
        d = by[i]
        op = "atom" if d["kernel"].startswith("atom") else "red"
        out.append({"kernel": d["kernel"],
                    "requests": d[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"],
                    "sectors": d[f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"]})
    return out


def cases(pats: list[list[int]], rows: list[dict], forms: str, kind) -> list[dict]:
    assert len(rows) == len(pats) * len(forms), (len(rows), len(pats), forms)
    out = []
    for n, p in enumerate(pats):
        c = {"words": p, "kind": kind(n)}
        for k, form in enumerate(forms):
            r = rows[n * len(forms) + k]
            assert r["kernel"] == FORMS[form], (r, form)
            c[r["kernel"]] = {"requests": r["requests"], "sectors": r["sectors"]}
        out.append(c)
    return out


def merge_ops(out: Path, gpu: str, date: str) -> None:
    """measure.sh --ops's forms added to the designed and random patterns of the recorded JSON (their order)."""
    dest = HERE.parents[2] / "tests" / "data" / "global_atomic_truth.json"
    doc = json.loads(dest.read_text())
    designed = [list(map(int, line.split())) for line in (HERE / "patterns.txt").read_text().splitlines()]
    head = doc["cases"][:len(designed)]
    assert [c["words"] for c in head] == designed, "the recorded JSON's first patterns are not patterns.txt's"
    for c, new in zip(head, cases(designed, launches(out / "global_atomics_ops.csv"), OPS_FORMS, lambda n: "")):
        c.update({FORMS[f]: new[FORMS[f]] for f in OPS_FORMS})
    doc["provenance"]["sass"] = SASS
    doc["provenance"]["ops_recorded"] = {"gpu": gpu, "date": date, "forms": [FORMS[f] for f in OPS_FORMS]}
    dest.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(head)} patterns gained {', '.join(FORMS[f] for f in OPS_FORMS)} -> {dest}")


def merge_three(out: Path, gpu: str, date: str, driver: str) -> None:
    """measure.sh --three's launches (patterns3.txt, red_inc only) appended to the recorded JSON as kinds
    probe3.<block> (gen_patterns3.py's blocks), replacing any earlier probe3 cases, with the table's device
    address (table_address.txt, or the CSV's copy of the program's line)."""
    import re

    from gen_patterns3 import build, patterns
    dest = HERE.parents[2] / "tests" / "data" / "global_atomic_truth.json"
    doc = json.loads(dest.read_text())
    flat = [(name, w) for name, rows in build() for _, w in rows]
    assert [w for _, w in flat] == patterns(HERE / "patterns3.txt"), "patterns3.txt is not gen_patterns3.py's"
    rows = launches(out / "global_atomics3.csv")
    assert len(rows) == len(flat) and all(r["kernel"] == "red_inc" for r in rows), (len(rows), len(flat))
    text = "".join((out / n).read_text() for n in ("table_address.txt", "global_atomics3.csv") if (out / n).exists())
    g, d = (int(x, 16) for x in re.search(r"table_address g=(0x[0-9a-fA-F]+) d=(0x[0-9a-fA-F]+)", text).groups())
    doc["cases"] = [c for c in doc["cases"] if not c["kind"].startswith("probe3.")]
    doc["cases"] += [{"words": w, "kind": f"probe3.{name}", "red_inc": {"requests": r["requests"], "sectors": r["sectors"]}}
                     for (name, w), r in zip(flat, rows)]
    doc["provenance"]["probe3_recorded"] = {
        "gpu": gpu, "date": date, "driver": driver, "forms": ["red_inc"],
        "source": "tools/truth/global_atomic_truth/patterns3.txt (gen_patterns3.py), measure.sh --three",
        "table_address": {"g": hex(g), "d": hex(d)},
        "earlier_probes": "printed no address; the same program and allocations: taken to be at this one (the "
                          "lane-order rule, coalescing.atomic_sector_costs, fits them there: README.md)"}
    dest.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(flat)} probe3 patterns (g={g:#x}) -> {dest}")


def main() -> None:
    if sys.argv[1] == "--ops":
        merge_ops(Path(sys.argv[2]), sys.argv[3], sys.argv[4])
        return
    if sys.argv[1] == "--three":
        merge_three(Path(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
        return
    out, gpu, date = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    read = lambda name: [list(map(int, line.split())) for line in (HERE / name).read_text().splitlines()]
    designed, hist = read("patterns.txt"), read("patterns_hist.txt")
    n_random = 48  # gen_patterns.py writes its random draws last: 24 + 8 + 8 + 8 (with lanes off)
    doc = {"provenance": {"gpu": gpu, "date": date, "tool": "Nsight Compute (ncu --clock-control none)",
                          "source": "tools/truth/global_atomic_truth/global_atomics.cu, nvcc -arch=sm_90 -lineinfo",
                          "sass": SASS, "word_bytes": {"red_add64": 8, "default": 4},
                          "histogram_rows": "the warps of histogram.histGlobal (first 256) and "
                                            "ops_histogram.hist_global (last 256) as smemlab analyze emulates them"},
           "cases": cases(designed, launches(out / "global_atomics.csv"), "iafdr",
                          lambda n: "random" if n >= len(designed) - n_random else "designed")
           + cases(hist, launches(out / "global_atomics_hist.csv"), "ir",
                   lambda n: "histGlobal" if n < 256 else "hist_global")}
    if (out / "global_atomics2.csv").exists():  # the second probe (gen_patterns2.py), kinds named by its blocks
        text = (HERE / "patterns2.txt").read_text().splitlines()
        probe = [list(map(int, line.split())) for line in text if line and not line.startswith("#")]
        spans = [(line.split()[2].rstrip(":"), int(line.split()[4])) for line in text if line.startswith("# block ")]
        block = lambda n: "probe2." + [name for name, first in spans if first <= n][-1]
        doc["cases"] += cases(probe, launches(out / "global_atomics2.csv"), "id", block)
    dest = HERE.parents[2] / "tests" / "data" / "global_atomic_truth.json"
    dest.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    print(f"{len(doc['cases'])} patterns -> {dest}")


if __name__ == "__main__":
    main()
