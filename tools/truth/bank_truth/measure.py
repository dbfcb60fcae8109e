"""Record shared-memory hardware truth for smemlab's bank model (tests/data/bank_truth.json).

Two steps, so the GPU is needed only for the first:

  on the GPU machine (nvcc, ncu):   python3 tools/truth/bank_truth/measure.py device OUT1
                                    python3 tools/truth/bank_truth/measure.py device OUT2 --set extra
      generates the cases (seeded, numpy only), builds bank_truth.cu, dumps its SASS (check: one
      LDS/STS of each width), and runs every case as its own launch inside ONE
      `ncu --clock-control none` process; writes cases.json, ncu.csv, sass.txt and env.txt.
      `main` is 2504 cases (about 4 minutes under ncu on an H100), `extra` 370 (40 s).
  anywhere:                         python3 tools/truth/bank_truth/measure.py fixture OUT1 OUT2 [--out FILE]
      joins the cases with the counters and writes the fixture the tests read.

A case is one block: per-thread byte offsets into a 48 KiB shared buffer (-1: the thread does not
access), one access width (1, 2, 4, 8, 16 bytes) and one op (ld, st). Some cases also carry the
smemlab expression that produces their offsets, so the tests can run the full `analyze` path.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SMEM_BYTES = 49152
SIZES = (1, 2, 4, 8, 16)
DTYPE_OF_SIZE = {1: "char", 2: "short", 4: "int", 8: "double", 16: "float4"}
METRICS = [
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
]

# ---------------------------------------------------------------------------------------------
# cases


def _tid_grid(block):
    """tx, ty, tz arrays in linear-thread-id order (x fastest)."""
    bx, by, bz = block
    t = np.arange(bx * by * bz)
    return t % bx, (t // bx) % by, t // (bx * by)


# Expression-level cases: (expr, shape, block, index function of (tx, ty, tz) -> index tuple).
TILE_CASES = [
    ("tile[ty][tx]", (32, 32), (32, 32, 1), lambda x, y, z: (y, x)),
    ("tile[tx][ty]", (32, 32), (32, 32, 1), lambda x, y, z: (x, y)),
    ("tile[tx][ty]", (32, 33), (32, 32, 1), lambda x, y, z: (x, y)),
    ("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 32), (32, 16, 1),
     lambda x, y, z: ((y * 32 + x) % 16, (y * 32 + x) // 16)),
    ("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 34), (32, 16, 1),
     lambda x, y, z: ((y * 32 + x) % 16, (y * 32 + x) // 16)),
    ("tile[(ty*32+tx)%16][(ty*32+tx)/16]", (16, 33), (32, 16, 1),
     lambda x, y, z: ((y * 32 + x) % 16, (y * 32 + x) // 16)),
    ("tile[ty][tx]", (16, 32), (32, 16, 1), lambda x, y, z: (y, x)),
    ("tile[tx][ty]", (16, 16), (16, 16, 1), lambda x, y, z: (x, y)),
    ("tile[tx][ty]", (16, 17), (16, 16, 1), lambda x, y, z: (x, y)),
    ("s[tz][ty][tx]", (4, 8, 8), (8, 8, 4), lambda x, y, z: (z, y, x)),
    ("s[tx][ty][tz]", (8, 8, 4), (8, 8, 4), lambda x, y, z: (x, y, z)),
    ("s[tx][ty][tz]", (4, 4, 4), (4, 4, 4), lambda x, y, z: (x, y, z)),
    ("s[tx][tz][ty]", (8, 3, 5), (8, 5, 3), lambda x, y, z: (x, z, y)),
    ("tile[ty][tx]", (3, 33), (33, 3, 1), lambda x, y, z: (y, x)),
    ("tile[tx][ty]", (33, 3), (33, 3, 1), lambda x, y, z: (x, y)),
    ("s[tx*2][ty]", (64, 7), (32, 7, 1), lambda x, y, z: (2 * x, y)),
    ("s[tx^ty]", (64,), (32, 2, 1), lambda x, y, z: (x ^ y,)),
    ("tile[ty][tx^ty]", (32, 32), (32, 32, 1), lambda x, y, z: (y, x ^ y)),
    ("tile[tx][ty^tx]", (32, 32), (32, 32, 1), lambda x, y, z: (x, y ^ x)),
]


def _flat(shape, idx):
    flat = np.zeros_like(idx[0])
    for n, i in zip(shape, idx):
        flat = flat * n + i
    return flat


def _tile_cases(size):
    for expr, shape, block, fn in TILE_CASES:
        if int(np.prod(shape)) * size > SMEM_BYTES:
            continue
        tx, ty, tz = _tid_grid(block)
        addr = _flat(shape, fn(tx, ty, tz)) * size
        yield dict(kind="expr", block=list(block), addr=addr,
                   expr=expr, shape=list(shape), dtype=DTYPE_OF_SIZE[size])


def _warp_cases(size, rng):
    """32-thread patterns, as element indices (or byte offsets where said)."""
    lane = np.arange(32)
    n_elems = SMEM_BYTES // size
    out = []  # (kind, byte offsets)
    for k in list(range(34)) + [48, 64, 65, 96, 128, 129, 256]:
        out.append((f"stride{k}", lane * k * size))
    # broadcasts: groups of g threads share one element, groups B bytes apart
    for g in (2, 4, 8, 16, 32):
        for step in sorted({size, 2 * size, 4, 8, 16, 64, 128, 256, 128 + size, 512}):
            if step % size == 0:
                out.append((f"group{g}_step{step}", (lane // g) * step))
                out.append((f"mod{g}_step{step}", (lane % g) * step))
    # sub-word accesses sharing a word: the k bytes of one word in k threads, words in one bank
    if size < 4:
        per = 4 // size
        out.append(("subword_samebank", (lane % per) * size + 128 * (lane // per)))
        out.append(("subword_spread", (lane % per) * size + 4 * (lane // per)))
        out.append(("subword_rev", (per - 1 - lane % per) * size + 132 * (lane // per)))
    # permutations of 32 consecutive elements, and of the 32 banks with random rows
    for _ in range(6):
        out.append(("perm", rng.permutation(32) * size))
    for _ in range(4):
        row = rng.integers(0, 16, 32) * 128
        out.append(("bankperm_rows", (rng.permutation(32) * 4 // size) * size + row if size <= 4
                    else rng.permutation(32) * size + row))
    # random addresses over several ranges
    for r in (8, 32, 64, 128, 256, 1024, n_elems):
        for _ in range(4):
            out.append((f"random{r}", rng.integers(0, min(r, n_elems), 32) * size))
    # threads choosing among a few random elements (broadcast mixed with conflicts)
    for p in (1, 2, 3, 4, 6, 8, 16):
        for _ in range(3):
            pool = rng.integers(0, min(512, n_elems), p)
            out.append((f"pool{p}", pool[rng.integers(0, p, 32)] * size))
    # two half-warps / four quarter-warps given related patterns (for the 8/16-byte rules)
    for pat in ("halves_same", "halves_samebank", "quarters_same", "quarters_samebank"):
        q = 16 if pat.startswith("halves") else 8
        base = lane % q
        shift = (lane // q) * (0 if pat.endswith("same") else 128 * 8)
        out.append((pat, (base * size + shift)))
    return out


def _masked(rng, addr, p):
    a = addr.copy()
    a[rng.random(a.size) >= p] = -1
    return a


def generate_cases(seed: int = 20261115) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    for size in SIZES:
        n_elems = SMEM_BYTES // size
        patterns = []  # (kind, block, byte offsets)
        for kind, addr in _warp_cases(size, rng):
            patterns.append((kind, (32, 1, 1), addr))
        # random active masks on a few patterns
        lane = np.arange(32)
        for k in (1, 2, 32, 33):
            for p in (0.25, 0.5, 0.9):
                patterns.append((f"mask{p}_stride{k}", (32, 1, 1), _masked(rng, lane * k * size, p)))
        for _ in range(6):
            patterns.append(("mask_random", (32, 1, 1),
                             _masked(rng, rng.integers(0, 128, 32) * size, rng.uniform(0.1, 0.9))))
        patterns.append(("one_thread", (32, 1, 1), np.where(lane == 5, 7 * size, -1)))
        patterns.append(("odd_threads", (32, 1, 1), np.where(lane % 2 == 1, lane * 32 * size, -1)))
        patterns.append(("first_half", (32, 1, 1), np.where(lane < 16, lane * 2 * size, -1)))
        patterns.append(("second_half", (32, 1, 1), np.where(lane >= 16, lane * size, -1)))
        # partial warps and several warps: per-warp pattern, each warp shifted by one element
        for nthreads in (1, 17, 48, 100, 1000):
            t = np.arange(nthreads)
            w, l = t // 32, t % 32
            for k in (1, 2, 32):
                patterns.append((f"block{nthreads}_stride{k}", (nthreads, 1, 1), (l * k + w) % n_elems * size))
            patterns.append((f"block{nthreads}_random", (nthreads, 1, 1), rng.integers(0, 256, nthreads) * size))
        # threads 32 apart with y: 2-D blocks whose rows are not warps
        for bx, by in ((8, 12), (20, 5), (48, 2)):
            tx, ty, _ = _tid_grid((bx, by, 1))
            patterns.append((f"block{bx}x{by}_col", (bx, by, 1), (tx * 32 + ty) % n_elems * size))
        for kind, block, addr in patterns:
            if addr.max() >= SMEM_BYTES:  # e.g. wide strides of 16-byte elements
                continue
            for op in ("ld", "st"):
                cases.append(dict(kind=kind, size=size, op=op, block=list(block),
                                  addr=[int(a) for a in addr]))
        for c in _tile_cases(size):
            for op in ("ld", "st"):
                cases.append(dict(c, size=size, op=op, addr=[int(a) for a in c["addr"]]))
    # interleave the widths, so that a run cut short still covers every width and op
    by_width = [[c for c in cases if c["size"] == s] for s in SIZES]
    cases = [c for group in zip(*by_width) for c in group] + [
        c for group in by_width for c in group[min(map(len, by_width)):]]
    for i, c in enumerate(cases):
        c["id"] = i
        assert max(c["addr"]) < SMEM_BYTES and all(a % c["size"] == 0 for a in c["addr"] if a >= 0), c
    return cases


# second batch: is load packing decided per warp or per half-warp? and more expression cases
EXTRA_EXPRS = [  # (expr, shape, block, index function of tx, ty, tz), lane = tx and warp = tx // 32 here
    ("s[tx/2]", (512,), (64, 1, 1), lambda x, y, z: (x // 2,)),
    ("s[tx%16]", (512,), (64, 1, 1), lambda x, y, z: (x % 16,)),
    ("s[tx/16]", (512,), (64, 1, 1), lambda x, y, z: (x // 16,)),
    ("s[tx*2]", (512,), (100, 1, 1), lambda x, y, z: (x * 2,)),
    ("s[tx*3]", (512,), (48, 1, 1), lambda x, y, z: (x * 3,)),
    ("s[(tx*5)%32]", (512,), (32, 1, 1), lambda x, y, z: (x * 5 % 32,)),
    ("s[31-tx]", (512,), (32, 1, 1), lambda x, y, z: (31 - x,)),
    ("s[tx^1]", (512,), (64, 1, 1), lambda x, y, z: (x ^ 1,)),
    ("s[lane/4]", (512,), (96, 1, 1), lambda x, y, z: (x % 32 // 4,)),
    ("s[warp]", (512,), (128, 1, 1), lambda x, y, z: (x // 32,)),
    ("s[(tx/2)*8]", (512,), (64, 1, 1), lambda x, y, z: (x // 2 * 8,)),
    ("s[(tx%4)*9]", (512,), (64, 1, 1), lambda x, y, z: (x % 4 * 9,)),
    ("t[ty][tx*2]", (8, 64), (32, 8, 1), lambda x, y, z: (y, x * 2)),
    ("t[tx][ty]", (16, 17), (16, 16, 1), lambda x, y, z: (x, y)),
    ("t[tx][ty]", (16, 16), (16, 16, 1), lambda x, y, z: (x, y)),
    ("s[tz][tx][ty]", (4, 8, 9), (8, 8, 4), lambda x, y, z: (z, x, y)),
    ("s[ty][tz][tx]", (6, 3, 10), (10, 6, 3), lambda x, y, z: (y, z, x)),
]


def _pair_pattern(rng, kind, size, span):
    """32 element indices whose lanes agree in pairs of the given kind ('x1': lane^1, 'x2': lane^2,
    'uni': all one address, 'none': free)."""
    lane = np.arange(32)
    key = {"x1": lane >> 1, "x2": (lane & ~2), "uni": lane * 0, "none": lane}[kind]
    table = rng.integers(0, span, 32)
    return table[key]


def generate_extra(seed: int = 20261116) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    kinds = ("x1", "x2", "uni", "none")
    for size in (8, 16):
        for op in ("ld", "st"):
            for k0 in kinds:  # half 0 agrees one way, half 1 another
                for k1 in kinds:
                    for span in (8, 64):
                        a = np.where(np.arange(32) < 16, _pair_pattern(rng, k0, size, span),
                                     _pair_pattern(rng, k1, size, span))
                        cases.append(dict(kind=f"halves_{k0}_{k1}_span{span}", size=size, op=op,
                                          block=[32, 1, 1], addr=a * size))
            for kind in ("x1", "x2", "uni"):  # pairs, then one lane broken or masked
                for _ in range(6):
                    a = _pair_pattern(rng, kind, size, 32) * size
                    lane = int(rng.integers(0, 32))
                    if rng.random() < 0.5:
                        a[lane] = -1
                        tag = "masked"
                    else:
                        a[lane] = (a[lane] // size + 1 + int(rng.integers(0, 31))) % 512 * size
                        tag = "broken"
                    cases.append(dict(kind=f"pairs_{kind}_{tag}", size=size, op=op, block=[32, 1, 1], addr=a))
    for size in SIZES:
        for expr, shape, block, fn in EXTRA_EXPRS:
            if int(np.prod(shape)) * size > SMEM_BYTES:
                continue
            addr = _flat(shape, fn(*_tid_grid(block))) * size
            for op in ("ld", "st"):
                cases.append(dict(kind="expr", size=size, op=op, block=list(block), addr=addr, expr=expr,
                                  shape=list(shape), dtype=DTYPE_OF_SIZE[size]))
    for c in cases:
        c["addr"] = [int(x) for x in c["addr"]]
        assert max(c["addr"]) < SMEM_BYTES
    return cases


def write_cases_txt(cases, path):
    with open(path, "w") as f:
        for c in cases:
            op = 0 if c["op"] == "ld" else 1
            f.write(f"{c['size']} {op} {' '.join(map(str, c['block']))} {' '.join(map(str, c['addr']))}\n")


# ---------------------------------------------------------------------------------------------
# device step


def _sh(cmd, out_file=None, timeout=None):
    print("+", cmd, flush=True)
    with open(out_file, "w") if out_file else open(os.devnull, "w") as f:
        r = subprocess.run(cmd, shell=True, stdout=f if out_file else None, stderr=subprocess.STDOUT if out_file else None,
                           timeout=timeout)
    return r.returncode


CASE_SETS = {"main": lambda: generate_cases(), "extra": lambda: generate_extra()}


def device(outdir: Path, ncu_timeout: int, case_set: str = "main") -> int:
    outdir.mkdir(parents=True, exist_ok=True)
    cases = CASE_SETS[case_set]()
    for i, c in enumerate(cases):
        c["id"], c["set"] = i, case_set
    (outdir / "cases.json").write_text(json.dumps(cases, separators=(",", ":")))
    build = Path("/tmp/bank_truth_build")
    build.mkdir(exist_ok=True)
    write_cases_txt(cases, build / "cases.txt")
    _sh(f"(nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; nvcc --version; ncu --version) ",
        outdir / "env.txt")
    if _sh(f"nvcc -O3 -arch=sm_90 -o {build}/bank_truth {HERE}/bank_truth.cu", outdir / "nvcc.txt"):
        print(open(outdir / "nvcc.txt").read())
        return 1
    _sh(f"cuobjdump --dump-sass {build}/bank_truth", outdir / "sass.txt")
    sass = open(outdir / "sass.txt").read()
    print("shared-memory instructions in SASS:",
          sorted({w for w in sass.split() if w.startswith(("LDS", "STS"))}))
    t0 = time.time()
    # plain run first: it must work without the profiler
    if _sh(f"{build}/bank_truth {build}/cases.txt", outdir / "plain.txt"):
        print(open(outdir / "plain.txt").read())
        return 1
    print(f"plain run {time.time() - t0:.1f} s", flush=True)
    t0 = time.time()
    try:
        rc = _sh(f"ncu --clock-control none --csv --print-units base -k regex:bank_ "
                 f"--metrics {','.join(METRICS)} {build}/bank_truth {build}/cases.txt",
                 outdir / "ncu.csv", timeout=ncu_timeout)
    except subprocess.TimeoutExpired:
        rc = "timeout"
    print(f"ncu rc={rc} after {time.time() - t0:.1f} s", flush=True)
    rows = parse_ncu(outdir / "ncu.csv")
    print(f"{len(rows)} of {len(cases)} launches profiled")
    return 0


# ---------------------------------------------------------------------------------------------
# fixture step


def parse_ncu(path: Path) -> list[dict]:
    """ncu --csv (details page) -> one dict of metric values per profiled launch, in launch order."""
    lines = [ln for ln in open(path, errors="replace") if ln.startswith('"')]
    by_id: dict[int, dict] = {}
    for row in csv.DictReader(lines):
        try:
            kid = int(row["ID"])
        except (KeyError, ValueError):
            continue
        rec = by_id.setdefault(kid, {"kernel": row.get("Kernel Name", "")})
        name = row["Metric Name"]
        if name in METRICS:
            rec[name] = int(float(row["Metric Value"].replace(",", "")))
    return [by_id[k] for k in sorted(by_id)]


def fixture(outdirs: list[Path], out: Path) -> int:
    cases, rows, env = [], [], []
    for outdir in outdirs:  # one device run each; a run cut short contributes its measured prefix
        c = json.loads((outdir / "cases.json").read_text())
        r = parse_ncu(outdir / "ncu.csv")
        cases += c[: len(r)]
        rows += r
        if (outdir / "env.txt").exists():
            env += [ln for ln in (outdir / "env.txt").read_text().splitlines() if ln not in env]
    records = []
    for i, (c, r) in enumerate(zip(cases, rows)):
        op = c["op"]
        c = dict(c, id=i, set=c.get("set", "main"))
        rec = {k: c[k] for k in ("id", "set", "kind", "size", "op", "block", "addr") if k in c}
        for k in ("expr", "shape", "dtype"):
            if k in c:
                rec[k] = c[k]
        rec["wavefronts"] = r[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]
        rec["instructions"] = r[f"smsp__sass_inst_executed_op_shared_{op}.sum"]
        rec["bank_conflicts"] = r[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"]
        records.append(rec)
    doc = {
        "about": "Shared-memory wavefronts and instructions measured with Nsight Compute, one block per case "
                 "(tools/truth/bank_truth/measure.py and bank_truth.cu). addr: per-thread byte offsets in linear "
                 "thread-id order, -1 = no access.",
        "metrics": METRICS,
        "environment": env,
        "cases": records,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w") as f:  # one case per line: small diffs, still one JSON document
        f.write("{\n")
        for k in ("about", "metrics", "environment"):
            f.write(f"{json.dumps(k)}: {json.dumps(doc[k])},\n")
        f.write('"cases": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in records))
        f.write("\n]}\n")
    print(f"wrote {len(records)} cases to {out}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    d = sub.add_parser("device")
    d.add_argument("outdir", type=Path)
    d.add_argument("--ncu-timeout", type=int, default=400)
    d.add_argument("--set", choices=sorted(CASE_SETS), default="main")
    fx = sub.add_parser("fixture")
    fx.add_argument("outdir", type=Path, nargs="+", help="device output folders, in order")
    fx.add_argument("--out", type=Path, default=HERE.parents[2] / "tests" / "data" / "bank_truth.json")
    sub.add_parser("count")
    a = ap.parse_args(argv)
    if a.step == "device":
        return device(a.outdir, a.ncu_timeout, a.set)
    if a.step == "fixture":
        return fixture(a.outdir, a.out)
    for name, make in CASE_SETS.items():
        cases = make()
        print(name, len(cases), "cases,", sum(len(c["addr"]) for c in cases), "offsets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
