"""The lane-order processes tried for the global-atomic sector count, against every recorded warp
(tests/data/global_atomic_truth.json, all kinds and forms, 3,742 warp-forms) at the tables' recorded device
address: exact warps per variant. The one kept is banks/coalescing.atomic_sector_costs (with `base`).

    python tools/truth/global_atomic_truth/fit_variants.py
    python tools/truth/global_atomic_truth/fit_variants.py --bases   # the earlier probes (which printed no
        # address) with their tables k lines (k = 0..255) past the third probe's: exact warps per k, best first

Two families, both over the active lanes in lane order, with H(line) the parity pair of line-bit masks
(absolute 128-byte line numbers, address >> 7):
  slot     (kept) a lane joins the first group of its unit (128-byte line, or 32-byte sector), in the warp's
           order of opening, opened after the group the latest earlier lane on its slot joined, else opens one;
           slot = (H(line), offset in the line: the byte, or the 8-byte slot); 'newest' tries the unit's newest
           group only
  poison   a lane joins the first group of its unit that does not hold its address and that no lane of
           another line with the same H and offset followed since the group was opened ('open') or since its
           latest lane ('last')
A group costs one trip to each of its sectors.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = json.loads((HERE.parents[2] / "tests" / "data" / "global_atomic_truth.json").read_text())
ADDRESS = {k: int(v, 16) for k, v in DOC["provenance"]["probe3_recorded"]["table_address"].items()}
FORMS = ("red_inc", "red_add", "red_addf", "red_add64", "atom_add", "red_max", "atom_min", "red_or", "atom_exch",
         "atom_cas")
H7 = (0b0110101, 0b1011010)  # bits 0..6 (the kept hash)
H8 = (0b10110101, 0b11011010)  # bit 7 in both as well (no recorded warp tells)
H5 = (0b10101, 0b11010)  # bits 0..4 only (the third probe's sweep)


def hasher(masks):
    if masks == "line":  # no aliasing: the multiplicity rule
        return lambda line: line
    if masks == "none":  # every line aliases
        return lambda line: 0
    return lambda line: tuple(bin(line & m).count("1") & 1 for m in masks)


def slot_process(addrs, H, unit="line", offset="byte", newest=False) -> int:
    groups, last, opened = {}, {}, 0
    for a in addrs:
        line = a >> 7
        slot = (H(line), (a & 127) if offset == "byte" else (a & 127) >> 3)
        after = last.get(slot, -1)
        mine = groups.setdefault(line if unit == "line" else a >> 5, [])
        cand = [g for g in (mine[-1:] if newest else mine) if g[0] > after]
        if cand:
            g = cand[0]
        else:
            g = (opened, set())
            opened += 1
            mine.append(g)
        g[1].add(a >> 5)
        last[slot] = g[0]
    return sum(len(g[1]) for mine in groups.values() for g in mine)


def poison_process(addrs, H, unit="line", ref="open") -> int:
    groups, seen = {}, []
    for t, a in enumerate(addrs):
        line, key, h = a >> 7, a & 127, H(a >> 7)
        mine = groups.setdefault(line if unit == "line" else a >> 5, [])
        g = next((g for g in mine if a not in g["addrs"] and not any(
            tt >= g["ref"] and ln != line and hh == h and kk == key for tt, ln, hh, kk in seen)), None)
        if g is None:
            g = {"addrs": set(), "secs": set(), "ref": t}
            mine.append(g)
        g["addrs"].add(a)
        g["secs"].add(a >> 5)
        if ref == "last":
            g["ref"] = t
        seen.append((t, line, h, key))
    return sum(len(g["secs"]) for mine in groups.values() for g in mine)


def records(shift: int = 0, kinds=None):
    for c in DOC["cases"]:
        if kinds and not c["kind"].startswith(kinds):
            continue
        for f in FORMS:
            if f in c:
                size, base = (8, ADDRESS["d"]) if f == "red_add64" else (4, ADDRESS["g"])
                base += shift
                yield c["kind"].split(".")[0], f, [base + size * w for w in c["words"] if w >= 0], c[f]["sectors"]


def bases() -> None:
    H = hasher(H7)
    earlier = ("designed", "random", "histGlobal", "hist_global", "probe2")
    n = sum(1 for _ in records(kinds=earlier))
    fit = {k: sum(slot_process(a, H) == m for _, _, a, m in records(128 * k, earlier)) for k in range(256)}
    best = sorted(fit, key=lambda k: -fit[k])
    print(f"the earlier probes' {n} warp-forms, tables k lines past the third probe's: exact")
    print("  " + ", ".join(f"k {k}: {fit[k]}" for k in best[:8]))


def main() -> None:
    import sys

    if sys.argv[1:] == ["--bases"]:
        bases()
        return
    recs = list(records())
    variants = [("slot, line groups, byte offset, H bits 0..6 (kept)", slot_process, {"H": H7}),
                ("slot, line groups, byte offset, H bits 0..6, bit 7 in both", slot_process, {"H": H8}),
                ("slot, line groups, byte offset, H bits 0..4", slot_process, {"H": H5}),
                ("slot, line groups, no aliasing (the multiplicity rule)", slot_process, {"H": "line"}),
                ("slot, line groups, every line aliases (no hash)", slot_process, {"H": "none"}),
                ("slot, line groups, 8-byte slot offset", slot_process, {"H": H7, "offset": "slot8"}),
                ("slot, line groups, newest group only", slot_process, {"H": H7, "newest": True}),
                ("slot, sector groups", slot_process, {"H": H7, "unit": "sector"}),
                ("slot, sector groups, newest group only", slot_process, {"H": H7, "unit": "sector", "newest": True}),
                ("poison since the group opened, line groups", poison_process, {"H": H7}),
                ("poison since the group opened, sector groups", poison_process, {"H": H7, "unit": "sector"}),
                ("poison since the group's latest lane, line groups", poison_process, {"H": H7, "ref": "last"}),
                ("poison since the group's latest lane, sector groups", poison_process,
                 {"H": H7, "unit": "sector", "ref": "last"})]
    for name, fn, kw in variants:
        kw = dict(kw, H=hasher(kw["H"]))
        by: dict = {}
        for kind, form, addrs, measured in recs:
            t = by.setdefault(kind, [0, 0])
            t[0] += 1
            t[1] += fn(addrs, **kw) == measured
        exact = sum(v[1] for v in by.values())
        print(f"{exact:>5} / {len(recs)}  {name}: " + ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in by.items()))


if __name__ == "__main__":
    main()
