"""The third global-atomic probe (measure.sh --three over patterns3.txt, from gen_patterns3.py) against the
per-sector multiplicity rule (banks/coalescing.atomic_sector_costs): a compact report on stdout.

    python tools/truth/global_atomic_truth/analyse3.py OUTDIR   # the folder measure.sh --three wrote to

OUTDIR holds global_atomics3.csv (ncu --csv, one row per launch and metric, the program's own lines ahead of the
table) and table_address.txt (`table_address g=0x... d=0x...`; read from the CSV where the file is missing).
The report: the table's address, the xzy and zxy sweeps as L1 x L2 grids of measured sectors (the rule gives 2
in every cell), the line pairs that count an extra sector in absolute line numbers (address >> 7) and whether
the extra depends only on their xor, then every pattern of the smaller blocks, and a count of misfits a block.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gen_patterns3 import build, patterns  # noqa: E402
from to_json import launches  # noqa: E402

from smemlab.banks.coalescing import atomic_sector_costs  # noqa: E402

WORD, LINE = 4, 128  # red_inc's 4-byte words; a 128-byte line


def table_address(out: Path) -> int:
    """g, the u32 table's device address, from table_address.txt or else the CSV's own copy of the line."""
    for name in ("table_address.txt", "global_atomics3.csv"):
        path = out / name
        if path.exists():
            m = re.search(r"table_address g=(0x[0-9a-fA-F]+)", path.read_text())
            if m:
                return int(m.group(1), 16)
    raise SystemExit(f"no `table_address g=0x...` line in {out}/table_address.txt or global_atomics3.csv")


def rule(words: np.ndarray) -> np.ndarray:
    """atomic_sector_costs's sectors for each row of word indices (-1 off) as 4-byte words."""
    return atomic_sector_costs(np.where(words >= 0, words * WORD, -1), WORD)[0]


def grid(order: str, cases: list[dict], g: int) -> list[str]:
    """The sweep of one order as a 16 x 16 grid: rows L1, columns L2 (relative lines, absolute line & 0x3f as
    hex beside them); '.' where the count is the rule's, else the count, '-' the diagonal (not probed)."""
    cell = {(c["meta"]["L1"], c["meta"]["L2"]): c for c in cases}
    rules = {c["rule"] for c in cases}
    head = f"{order}: measured sectors, L1 (rows) x L2 (columns); the rule gives {sorted(rules)}; '.' = the rule's"
    absl = lambda rel: ((g + LINE * rel) // LINE) & 0x3F
    out = [head, "   L1 abs | L2 " + " ".join(f"{l2:>2}" for l2 in range(16)),
           "          | abs" + " ".join(f"{absl(l2):>2x}" for l2 in range(16))]
    for l1 in range(16):
        row = []
        for l2 in range(16):
            c = cell.get((l1, l2))
            row.append(" -" if c is None else " ." if c["sectors"] == c["rule"] else f"{c['sectors']:>2}")
        out.append(f"   {l1:>2} {absl(l1):>3x} |    " + " ".join(row))
    return out


def xor_summary(order: str, cases: list[dict], g: int) -> list[str]:
    """The line pairs of one sweep that count more than the rule, in absolute lines (of X/Y's and Z's words)."""
    out = [f"{order}: pairs counting more than the rule (absolute line = address >> 7; its low 6 bits: address "
           "bits 7..12)"]
    by_xor: dict[int, list[int]] = {}
    bad = []
    for c in cases:
        m = c["meta"]
        a1 = (g + WORD * (32 * m["L1"] + m["p"])) // LINE
        a2 = (g + WORD * (32 * m["L2"] + m["pz"])) // LINE
        extra = c["sectors"] - c["rule"]
        by_xor.setdefault(a1 ^ a2, []).append(extra)
        if extra:
            bad.append((m["L1"], m["L2"], a1, a2, extra))
    if not bad:
        out.append("   none: every pair counts the rule's 2")
        return out
    out.append("   L1 L2  abs L1  abs L2  L1&63  L2&63   xor     extra")
    for l1, l2, a1, a2, extra in bad:
        out.append(f"   {l1:>2} {l2:>2} {a1:>#7x} {a2:>#7x} {a1 & 63:06b} {a2 & 63:06b} {a1 ^ a2:06b} {extra:>+3}")
    out.append("   by xor of the absolute lines: xor: pairs with an extra / pairs")
    items = [f"{x:06b}: {sum(1 for e in v if e)}/{len(v)}" for x, v in sorted(by_xor.items())]
    out += ["     " + "   ".join(items[k:k + 6]) for k in range(0, len(items), 6)]
    only_xor = all(len(set(v)) == 1 for v in by_xor.values())
    out.append(f"   the extra depends on the xor alone: {'yes' if only_xor else 'no'}")
    if only_xor:
        split = {x for x, v in by_xor.items() if v[0]}
        closed = all(a ^ b in split | {0} for a in split for b in split if (a ^ b) in by_xor)
        out.append(f"   xors that split: {sorted(f'{x:06b}' for x in split)}; closed under xor where probed (a linear "
                   f"hash's equal-index set): {'yes' if closed else 'no'}")
    sym = {(c["meta"]["L1"], c["meta"]["L2"]): c["sectors"] - c["rule"] for c in cases}
    asym = [k for k, e in sym.items() if sym.get(k[::-1], e) != e]
    out.append(f"   symmetric in L1, L2: {'yes' if not asym else 'no: ' + str(sorted(asym)[:8])}")
    return out


def describe(c: dict, g: int) -> str:
    m = c["meta"]
    absl = lambda rel: (g + LINE * rel) // LINE & 0x3F
    if "warp" in m:
        what = f"warp {m['warp']:>3} {m['note']}"
    else:
        lines = " ".join(f"{k} {m[k]:>2} ({absl(m[k]):02x})" for k in ("L1", "L2") if m.get(k) is not None)
        pos = " ".join(f"{k} {m[k]:>2}" for k in ("q", "p", "pz") if k in m)
        what = f"{m['order']:<3} {lines} {pos} lanes {m['lanes']}" + (f" ({m['note']})" if "note" in m else "")
    extra = c["sectors"] - c["rule"]
    ref = f"  [xzy sweep {c['xzy']:+d}]" if c.get("xzy") is not None else ""
    return f"   {what}: {c['sectors']} sectors, rule {c['rule']}, {extra:+d}{ref}"


def main() -> None:
    out = Path(sys.argv[1])
    g = table_address(out)
    blocks = build()
    flat = [(name, meta, words) for name, rows in blocks for meta, words in rows]
    assert [w for _, _, w in flat] == patterns(HERE / "patterns3.txt"), \
        "patterns3.txt is not gen_patterns3.py's: run gen_patterns3.py (and measure again)"
    rows = launches(out / "global_atomics3.csv")
    assert len(rows) == len(flat), f"{len(rows)} launches in the CSV, {len(flat)} patterns"
    assert all(r["kernel"] == "red_inc" for r in rows), {r["kernel"] for r in rows}
    reqs = sorted({r["requests"] for r in rows})
    predicted = rule(np.array([w for _, _, w in flat], dtype=np.int64))
    cases = [{"block": name, "meta": meta, "words": w, "sectors": r["sectors"], "rule": int(p)}
             for (name, meta, w), r, p in zip(flat, rows, predicted)]
    sweep = {(c["meta"]["L1"], c["meta"]["L2"]): c["sectors"] - c["rule"] for c in cases if c["block"] == "xzy"}
    for c in cases:
        m = c["meta"]
        c["xzy"] = sweep.get((m.get("L1"), m.get("L2"))) if c["block"] not in ("xzy", "alone", "replay") else None

    print(f"table g = {g:#x}: {g % LINE} bytes past a 128-byte line; the table's line 0 is absolute line "
          f"{g // LINE:#x} (& 0x3f = {(g // LINE) & 63:#04x}); requests a launch: {reqs}")
    for order in ("xzy", "zxy"):
        sel = [c for c in cases if c["block"] == order]
        print()
        print("\n".join(grid(order.upper(), sel, g)))
        print("\n".join(xor_summary(order.upper(), sel, g)))
    for name, _ in blocks[2:]:
        print(f"\n{name}:")
        for c in cases:
            if c["block"] == name:
                print(describe(c, g))
    print("\nmisfits a block (more / fewer sectors than the rule, of all):")
    for name, _ in blocks:
        sel = [c for c in cases if c["block"] == name]
        more = sum(c["sectors"] > c["rule"] for c in sel)
        fewer = sum(c["sectors"] < c["rule"] for c in sel)
        print(f"   {name:<10} {more:>3} more, {fewer:>3} fewer, of {len(sel)}")


if __name__ == "__main__":
    main()
