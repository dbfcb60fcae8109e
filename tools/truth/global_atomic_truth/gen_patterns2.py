"""Write patterns2.txt: a second probe of the global-atomic sector count, built from warps of the first
recording (tests/data/global_atomic_truth.json) that count more than the per-sector multiplicity rule
(banks/coalescing.atomic_sector_costs), and controls that count exactly it.

    python tools/truth/global_atomic_truth/gen_patterns2.py

Blocks (the header of patterns2.txt lists each block's line range):
  delete   excess warps, then each with one lane switched off (lane 0..31): which lanes make the extra sectors
  permute  the same words in other lane orders (reversed, sorted up/down, rotations, lane xor 1/16, 2 random):
           whether the count depends on lane order, and on which lane structure
  move     excess warps and controls moved in memory: +8 words (one sector: new line grouping), +32 words (one
           line), +1024, +2048, +4096 words (4, 8, 16 KiB), lines reversed (line i -> 7-i), lines spread 512 B
           apart, sectors rotated inside their line: whether line/sector identity or absolute address bits matter
  prefix   excess warp 387 with only its first k lanes on (k = 2..31): the lane where the extra appears
  pairs    two lanes alone in one sector (u64 words as red_add64): case 125's pair (lanes 13, 16; u64 slots 1, 0
           of sector 409, counted twice) and variants (lanes swapped, slots (3,0) (0,1) (2,3), sectors 306 and 0):
           whether a pair's split needs the other lanes, and whether it depends on slots, lane order or address
  tables   uniform random warps over 128, 512 and 1024 words, and 256 words without repeats: the excess's
           dependence on the number of lines and sectors touched
Word indices: 4-byte words for red_inc (form i), 8-byte for red_add64 (form d) over the same lines.
"""
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DOC = json.loads((HERE.parents[2] / "tests" / "data" / "global_atomic_truth.json").read_text())
CASES = DOC["cases"]
rng = np.random.default_rng(2026_11_28)
L = np.arange(32)
blocks: list[tuple[str, list[list[int]]]] = []


def words(i: int) -> np.ndarray:
    return np.array(CASES[i]["words"], dtype=np.int64)


# the recording's cases (indices into the json): 387, 540 histogram warps whose multi-lane sectors are all pairs of
# distinct words (counted rule+1); 98 random, 424 hist_global with no repeated word (rule+2); 125 random over
# 2048 words (rule+1 as red_add64 only); 206, 253 pairs-only controls (counted exactly the rule)
EXCESS = (387, 540, 98, 424, 125)
CONTROLS = (206, 253)

rows = []
for i in EXCESS:
    w = words(i)
    rows.append(w)
    for lane in range(32):
        v = w.copy()
        v[lane] = -1
        rows.append(v)
blocks.append(("delete", rows))

rows = []
for i in EXCESS:
    w = words(i)
    on = w[w >= 0]
    pad = np.full(32 - on.size, -1)
    rows += [w[::-1], np.concatenate([np.sort(on), pad]), np.concatenate([np.sort(on)[::-1], pad]),
             np.roll(w, 1), np.roll(w, 8), np.roll(w, 16), w[L ^ 1], w[L ^ 16], rng.permutation(w), rng.permutation(w)]
blocks.append(("permute", rows))

rows = []
for i in EXCESS[:4] + CONTROLS:
    w = words(i)
    on = w >= 0
    line, off = w // 32, w % 32
    sec_rot = line * 32 + ((off // 8 + 1) % 4) * 8 + off % 8
    for v in (w + 8, w + 32, w + 1024, w + 2048, w + 4096, (7 - line) * 32 + off, line * 128 + off, sec_rot):
        rows.append(np.where(on, v, -1))
blocks.append(("move", rows))

rows = []
for i in (387,):
    w = words(i)
    for k in range(2, 32):
        rows.append(np.where(L < k, w, -1))
blocks.append(("prefix", rows))

rows = []
for lanes in ((13, 16), (16, 13)):  # case 125's one shared sector as red_add64 (u64 words 1637, 1636 at lanes 13, 16)
    for slots in ((1, 0), (3, 0), (0, 1), (2, 3)):
        for sector in (409, 306, 0):
            v = np.full(32, -1)
            v[list(lanes)] = [4 * sector + slots[0], 4 * sector + slots[1]]
            rows.append(v)
blocks.append(("pairs", rows))

rows = [rng.integers(0, n, 32) for n in (128, 512, 1024) for _ in range(16)]
rows += [rng.choice(256, 32, replace=False) for _ in range(16)]
blocks.append(("tables", rows))

head, body, n = [], [], 0
for name, rs in blocks:
    head.append(f"# block {name}: lines {n} to {n + len(rs) - 1} (0-based pattern numbers)")
    body += [" ".join(str(int(x)) for x in r) for r in rs]
    n += len(rs)
assert n <= 400, n
doc = __doc__.splitlines()
note = doc[:3] + doc[doc.index("    python tools/truth/global_atomic_truth/gen_patterns2.py") + 2:]
text = "".join(f"# {s}".rstrip() + "\n" for s in note if s) + "# 32 word indices a line, -1: lane off\n"
text += "".join(h + "\n" for h in head) + "".join(b + "\n" for b in body)
(HERE / "patterns2.txt").write_text(text)
print(n, "patterns:", ", ".join(f"{name} {len(rs)}" for name, rs in blocks))
