"""Write patterns3.txt: a third probe of the global-atomic sector count, on warps of two or three active lanes.
The recorded warps that count more than the per-sector multiplicity rule (banks/coalescing.atomic_sector_costs)
lose their extra sector when one of a few lanes is switched off (patterns2's delete block): two lanes X, Y of
one sector of a line L1 and, between them in lane order, a lane Z of another line L2 at Y's 4-byte position in
its line (warp 540: X lane 5 word 194, Z lane 22 word 32, Y lane 26 word 192; lines 6 and 1 of the table;
warps 98 and 424 the same with lines 2 and 5). Here X, Y, Z alone, over the table's lines, orders and positions.

    python tools/truth/global_atomic_truth/gen_patterns3.py

Names: X at position q and Y at position p (4-byte words in the 128-byte line) of one sector of line L1, Z at
position p of line L2 (line numbers relative to the table base: word 32*L + pos); an order such as XZY lists
the lanes in lane order. Unless a block says otherwise: q 2, p 0 (warp 540's), lanes 0, 1, 2. global_atomics.cu
prints the table's device address (table_address g=0x...), so the absolute line is (g + 4*word) >> 7.
Blocks (the header of patterns3.txt lists each block's line range):
  xzy        order XZY for every L1, L2 in 0..15, L1 != L2 (240): which line pairs split X, Y's sector
  zxy        order ZXY for every L1, L2 in 0..15, L1 != L2 (240): whether Z must come between X and Y
  orders     the other orders XYZ, YXZ, YZX, ZYX at the pairs (L1, L2) (6,1) (1,6) (2,5) (5,2), which split in
             the recorded warps, and (3,4) (4,3) (0,7) (7,0), which did not (32): YZX has Z between them at the
             earlier lane's position
  positions  XZY at the four splitting pairs with (q, p) (0,2) (7,0) (10,8) (18,16) (26,24) (31,29) (24): whether
             the split depends on the sector or on the positions within it
  zpos       XZY at the four splitting pairs with Z not at Y's position: at X's (q), at q+1 (no lane's), at p+8
             (another sector's), and X moved to another sector of L1 (q+8: X and Y then two sectors) (16)
  placement  XZY at the four splitting pairs on lanes (5,22,26) (warp 540's), (0,16,31), (29,30,31) (12):
             whether lane numbers matter beyond order
  alone      X, Y alone (lanes 0, 2) for L1 in 0..15 (16), Z alone (lane 1) on lines 0, 1, 6, 15 (4): rule 1 each
  replay     the recorded excess warps (387, 540, 98, 424 of tests/data/global_atomic_truth.json) in full, their
             essential lanes E (those whose deletion removed an extra sector) alone in place, E compacted to
             lanes 0.., E moved by one line (+32 words), warp 98's E with its lanes 5, 6, 29, and warp 387's
             subsets of 3 and 4 of its E (lanes 5, 18, 26, 28, 29) (32): whether the 3-lane effect is all of it
Word indices: 4-byte words, form i (red_inc) only: measure.sh --three.
"""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLIT_PAIRS = ((6, 1), (1, 6), (2, 5), (5, 2))  # (L1, L2) that split X, Y in the recorded warps
OTHER_PAIRS = ((3, 4), (4, 3), (0, 7), (7, 0))  # that did not
# the recorded excess warps (red_inc words; tests/data/global_atomic_truth.json cases 387, 540, 98, 424) and the
# lanes whose deletion (patterns2's delete block) removed an extra sector
WARPS = {
    387: ([20, 58, 197, 224, 98, 70, 5, 228, 13, 203, 170, 187, 94, 68, 113, 183, 38, 160, 181, 88, 100, 252, 9,
           244, 151, 167, 82, 232, 222, 85, 218, 43], (5, 18, 26, 28, 29)),
    540: ([214, 158, 75, 174, 119, 194, 27, -1, 246, 190, 34, 82, 161, 176, 46, 70, 179, 5, 110, 96, 41, 111, 32,
           170, 146, 100, 192, 234, 203, 72, 56, 226], (5, 22, 26)),
    98: ([66, 229, 206, 201, 27, 51, 214, 69, 184, 170, 228, 35, 146, 209, 239, 255, 52, 77, 218, 9, 198, 95, 67,
          212, 150, 222, 171, 75, 226, 53, 108, 119], (16, 17, 23, 26, 27)),
    424: ([80, 233, 22, 246, 179, 206, 36, 12, 183, 194, 202, 35, 127, 155, 61, 91, 74, 106, 172, 65, 24, 140, 39,
           200, 230, 76, 87, 98, 224, 190, -1, 144], (0, 8, 16, 18, 25, 26)),
}


def warp(placed: dict[int, int]) -> list[int]:
    """32 word indices: lane -> word for the lanes given, -1 for the others."""
    w = [-1] * 32
    for lane, word in placed.items():
        assert 0 <= lane < 32 and 0 <= word < 8192 and w[lane] == -1, (lane, word)
        w[lane] = word
    return w


def three(order: str, l1: int, l2: int, q: int = 2, p: int = 0, pz: int | None = None,
          lanes: tuple[int, ...] = (0, 1, 2)) -> tuple[dict, list[int]]:
    """X at (l1, q), Y at (l1, p), Z at (l2, pz, by default p), on `lanes` in the lane order `order` (e.g. 'XZY')."""
    pz = p if pz is None else pz
    word = {"X": 32 * l1 + q, "Y": 32 * l1 + p, "Z": 32 * l2 + pz}
    meta = {"order": order, "L1": l1, "L2": l2, "q": q, "p": p, "pz": pz, "lanes": list(lanes)}
    return meta, warp({lane: word[name] for lane, name in zip(lanes, order)})


def build() -> list[tuple[str, list[tuple[dict, list[int]]]]]:
    """The probe's blocks: (name, [(meta, 32 word indices)])."""
    blocks = []
    for order in ("XZY", "ZXY"):
        blocks.append((order.lower(), [three(order, l1, l2) for l1 in range(16) for l2 in range(16) if l1 != l2]))
    blocks.append(("orders", [three(order, l1, l2) for l1, l2 in SPLIT_PAIRS + OTHER_PAIRS
                              for order in ("XYZ", "YXZ", "YZX", "ZYX")]))
    blocks.append(("positions", [three("XZY", l1, l2, q, p) for l1, l2 in SPLIT_PAIRS
                                 for q, p in ((0, 2), (7, 0), (10, 8), (18, 16), (26, 24), (31, 29))]))
    rows = []
    for l1, l2 in SPLIT_PAIRS:
        for note, kw in (("Z at X's position", {"pz": 2}), ("Z at q+1", {"pz": 3}), ("Z at p+8", {"pz": 8}),
                         ("X in another sector", {"q": 10})):
            meta, w = three("XZY", l1, l2, **kw)
            rows.append(({**meta, "note": note}, w))
    blocks.append(("zpos", rows))
    blocks.append(("placement", [three("XZY", l1, l2, lanes=lanes) for l1, l2 in SPLIT_PAIRS
                                 for lanes in ((5, 22, 26), (0, 16, 31), (29, 30, 31))]))
    rows = [({"order": "XY", "L1": l1, "L2": None, "q": 2, "p": 0, "lanes": [0, 2]},
             warp({0: 32 * l1 + 2, 2: 32 * l1})) for l1 in range(16)]
    rows += [({"order": "Z", "L1": None, "L2": l2, "pz": 0, "lanes": [1]}, warp({1: 32 * l2})) for l2 in (0, 1, 6, 15)]
    blocks.append(("alone", rows))
    rows = []
    for n, (words, ess) in WARPS.items():
        rows.append(({"warp": n, "note": "full warp"}, list(words)))
        rows.append(({"warp": n, "note": f"E {list(ess)} alone"}, warp({lane: words[lane] for lane in ess})))
        rows.append(({"warp": n, "note": "E on lanes 0.."}, warp({k: words[lane] for k, lane in enumerate(ess)})))
        rows.append(({"warp": n, "note": "E +32 words"}, warp({lane: words[lane] + 32 for lane in ess})))
        if n == 98:
            more = sorted(ess + (5, 6, 29))
            rows.append(({"warp": n, "note": f"E and 5, 6, 29 {more}"}, warp({lane: words[lane] for lane in more})))
    words, ess = WARPS[387]
    for k in (3, 4):
        for sub in combinations(ess, k):
            rows.append(({"warp": 387, "note": f"lanes {list(sub)}"}, warp({lane: words[lane] for lane in sub})))
    blocks.append(("replay", rows))
    return blocks


def text(blocks) -> str:
    doc = __doc__.splitlines()
    note = doc[:6] + doc[doc.index("    python tools/truth/global_atomic_truth/gen_patterns3.py") + 2:]
    out = "".join(f"# {s}".rstrip() + "\n" for s in note if s) + "# 32 word indices a line, -1: lane off\n"
    n, head, body = 0, [], []
    for name, rows in blocks:
        head.append(f"# block {name}: lines {n} to {n + len(rows) - 1} (0-based pattern numbers)\n")
        body += [" ".join(str(x) for x in w) + "\n" for _, w in rows]
        n += len(rows)
    return out + "".join(head) + "".join(body)


def patterns(path: Path) -> list[list[int]]:
    """A pattern file's patterns, as global_atomics.cu reads them (lines starting with '#' are notes)."""
    return [list(map(int, s.split())) for s in path.read_text().splitlines() if s and not s.startswith("#")]


if __name__ == "__main__":
    blocks = build()
    n = sum(len(rows) for _, rows in blocks)
    assert n <= 620, n
    (HERE / "patterns3.txt").write_text(text(blocks))
    print(n, "patterns:", ", ".join(f"{name} {len(rows)}" for name, rows in blocks))
