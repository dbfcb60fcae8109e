"""Write patterns.txt (designed one-warp patterns) and patterns_hist.txt (the warps of the truth fixture's
256-bin histograms, as smemlab analyze emulates them) for global_atomics.cu: 32 word indices a line, -1 off.

    python tools/truth/global_atomic_truth/gen_patterns.py HIST.npy AGG.npy
HIST/AGG: (requests, 32) byte addresses of histogram.histGlobal's and ops_histogram.hist_global's atomics.
"""
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
rng = np.random.default_rng(2026_11_27)
L = np.arange(32)
pats = []


def add(p):
    pats.append([int(x) for x in p])


add(L)                      # 32 words, 4 sectors
add(0 * L)                  # one word
add(8 * L)                  # one lane a sector, 32 sectors
add(32 * L)                 # one lane a line
add(L % 2); add(L // 2); add(L // 4); add(L // 8); add(L // 16)
add(np.where(L < 16, L, -1)); add(np.where(L == 0, 0, -1)); add(np.where(L < 8, L, -1))
add(np.where(L < 16, 0, 8))  # two sectors, 16 lanes on one word each
for m in (2, 3, 4, 5, 6, 8, 16, 32):  # m lanes on word 0, the others distinct words in other sectors
    add(np.where(L < m, 0, 8 * L))
for m in (2, 3, 4, 6, 8):  # m lanes on word 0, the others distinct words of sector 0..3
    add(np.where(L < m, 0, L))
for n in (1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 28, 32):  # n sectors, lanes spread round-robin
    add(8 * (L % n) + (L // n) % 8)
for n in (1, 2, 4, 8, 16, 32):  # n sectors, the same word of each, 32/n lanes on it
    add(8 * (L % n))
for k in (2, 3, 4, 5, 6, 7, 8):  # k distinct words of one sector, lanes round-robin
    add(L % k)
for s in range(1, 34):  # strides 1 to 33 words
    add(L * s)
for r in range(24):
    add(rng.integers(0, 256, 32))
for r in range(8):
    add(rng.integers(0, 64, 32))
for r in range(8):
    add(rng.integers(0, 2048, 32))
for r in range(8):  # random with lanes off
    p = rng.integers(0, 256, 32)
    p[rng.random(32) < 0.3] = -1
    add(p)
(HERE / "patterns.txt").write_text("".join(" ".join(map(str, p)) + "\n" for p in pats))

hist = []
for f in sys.argv[1:3]:
    a = np.load(f)
    base = a[a >= 0].min()
    assert base % 128 == 0, base
    hist += [[int((x - base) // 4) if x >= 0 else -1 for x in r] for r in a]
(HERE / "patterns_hist.txt").write_text("".join(" ".join(map(str, p)) + "\n" for p in hist))
print(len(pats), "designed,", len(hist), "histogram warps")
