"""atomics.csv + patterns.txt (from measure.sh on a GPU machine) -> tests/data/atomic_truth.json.

    python tools/truth/atomic_truth/to_json.py OUTDIR   # the folder measure.sh wrote to
"""

import csv
import io
import json
import sys
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
text = (out / "atomics.csv").read_text()
rows = list(csv.reader(io.StringIO(text[text.index('"ID"'):])))
hdr, rows = rows[0], rows[1:]
iid, ik, im, iv = (hdr.index(h) for h in ("ID", "Kernel Name", "Metric Name", "Metric Value"))
by: dict = {}
for r in rows:
    by.setdefault(int(r[iid]), {"kernel": r[ik]})[r[im]] = float(r[iv].replace(",", ""))
pats = [list(map(int, line.split())) for line in (out / "patterns.txt").read_text().splitlines()]
cases = []
for n, i in enumerate(sorted(by)):  # three launches per pattern: atom_inc, atom_add, atom_max
    d = by[i]
    cases.append({"pattern": n // 3, "kernel": d["kernel"].split("(")[0],
                  "instructions": int(d["smsp__sass_inst_executed_op_shared_atom.sum"]),
                  "wavefronts": int(d["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"]),
                  "bank_conflicts": int(d["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"])})
doc = {"provenance": {"gpu": "NVIDIA H200", "tool": "Nsight Compute (ncu --clock-control none)", "date": "2026-11-22",
                      "source": "tools/truth/atomic_truth/atomics.cu, built with nvcc -arch=sm_90 -lineinfo",
                      "sass": {"atom_inc": "ATOMS.POPC.INC.32", "atom_add": "ATOMS.ADD", "atom_max": "ATOMS.MAX.S32"}},
       "patterns": pats, "cases": cases}
dest = Path(__file__).resolve().parents[3] / "tests" / "data" / "atomic_truth.json"
dest.write_text(json.dumps(doc, indent=1))
print(f"{len(cases)} cases -> {dest}")
