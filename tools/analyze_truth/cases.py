"""The launches whose shared-memory traffic tools/analyze_truth/measure.py records.

Every kernel of the package (src/smemlab/{lab,ops}/**/*.cu, with the macros and argument values the
experiments and ops use) and every kernel of the corpus (tools/analyze_truth/kernels/*.cu), each
launched as ONE thread block (grid 1x1x1) with fixed arguments sized so that the block does real
work. A case is a dict:

    id              unique, stable name
    file            "package:PATH" (src/smemlab/PATH: "package:lab/layout/layout.cu"; the fixture's older
                    recordings name the same files by their aliases, "package:lab/layout/layout.cu") or a
                    repo-relative path
    kernel          the kernel's name as written in the source (a template: as instantiated,
                    "reduce6<256>"; in a namespace: "blas::gemv_warp"); an NVRTC name expression
    defines         macros, {NAME: "VALUE"}
    block, grid     [x, y, z]
    dynamic_shared  bytes
    args            in the kernel's parameter order, `smemlab analyze --arg` syntax:
                    NAME=INT, NAME=FLOAT, NAME=DTYPE[COUNT], NAME=DTYPE[COUNT]:LO..HI, NAME=PATH.npy
    cluster         launched as ONE thread-block cluster of this shape (grid = cluster); analyze
                    emulates the whole cluster
    constants       (measure only) __constant__ symbols written before the launch: addresses never
                    depend on them, but the outputs would be all zeros without them

SKIPS names the package kernels that are not recorded, with the reason. A skipped kernel may have its
case here already, waiting for the GPU (the fixture test leaves such cases out of its comparison): none
now. Kernels written after a recording get recorded on their
own and merged into the fixture (measure.py build/device with --only, fixture --merge), as the overlap
experiment's and issue 13's were. The cluster kernels run as a cluster of one block, and the
distributed-shared-memory cases (`kernels/dsmem.cu`, `*.cs2`, `*.cs4`) as one cluster of 2 or 4 blocks
(grid = cluster), all of which analyze emulates.

`python3 tools/analyze_truth/cases.py` writes the .npy inputs (tests/data/analyze_truth/) and prints
the number of cases.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DATA = "tests/data/analyze_truth"
K = "tools/analyze_truth/kernels"

CASES: list[dict] = []
SKIPS: dict[str, str] = {  # "package:FILE.cu:kernel" -> why it is not recorded
    **{f"package:ops/stencil/stencil.cu:stencil1d_f32_p<{r}>": "the body of stencil1d_f32 (stencil_body) with its "
       "coefficients in a struct passed by value, which the truth launcher cannot pass yet; analyze runs it "
       "(lab/launches.py)" for r in range(33)},
    # the instances of ops/histogram that method="auto" launches with no case of their own: the code of a
    # recorded instance with other template arguments (smem's copies, partition's ranges), not recorded yet
    **{f"package:ops/histogram/histogram.cu:hist_smem<{c}, 0, 32, 2>": "hist_smem<32, 0, 32, 2> (recorded: "
       "ops_histogram.hist_smem.copies32.*) with the fewer copies of more bins; not recorded yet" for c in (1, 2, 4, 8, 16)},
    "package:ops/histogram/histogram.cu:hist_smem<1, 0, 16, 2>": "multipass's 16-bit counters: count_bin_range as "
       "hist_ranges<1, 0, 16, 2> (recorded: ops_histogram.hist_ranges.b16) runs it; not recorded yet",
    **{f"package:ops/histogram/histogram.cu:hist_partition<512, 2, 16, {b}, {r}, 4>": "hist_partition<512, 2, 16, 4, "
       f"{r}, 4> (recorded: ops_histogram.hist_partition{'.atomics' if r else ''}) for another number of ranges (PRBITS); "
       "not recorded yet" for b, r in ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (5, 1))},
}


def case(id, file, kernel, block, args, defines=None, dyn=0, grid=(1, 1, 1), cluster=None, constants=None):
    block = list(block) + [1] * (3 - len(block))
    c = {"id": id, "file": file, "kernel": kernel, "defines": {k: str(v) for k, v in (defines or {}).items()},
         "block": block, "grid": list(grid), "block_index": [0, 0, 0], "dynamic_shared": int(dyn), "args": list(args)}
    if cluster:
        c["cluster"] = list(cluster)
    if constants:
        c["constants"] = {k: [float(x) for x in v] for k, v in constants.items()}
    CASES.append(c)
    return c


def npy(name: str) -> str:
    return f"{DATA}/{name}.npy"


# ---- input data (.npy): where shared addresses depend on the data ----------------------------------
def _zipf_keys(rng, n, bins):
    return ((rng.zipf(1.3, n) - 1) % bins).astype(np.int32)


ATOMIC_PATTERNS: list[tuple[str, np.ndarray]] = []  # (name, 32 word indices into 1024 words, -1 = no access)


def _patterns() -> list[tuple[str, np.ndarray]]:
    lane = np.arange(32)
    rng = np.random.default_rng(20261201)
    p = [
        ("distinct_banks", lane),
        ("one_address", lane * 0),
        ("one_bank_32_addresses", lane * 32),
        ("stride2", lane * 2),
        ("stride4", lane * 4),
        ("stride8", lane * 8),
        ("stride16", lane * 16),
        ("stride33", lane * 33 % 1024),
        ("pairs_same_address", lane // 2),
        ("quads_same_address", lane // 4),
        ("halves_same_addresses", lane % 16),
        ("two_addresses_one_bank", (lane % 2) * 32),
        ("four_addresses_one_bank", (lane % 4) * 32),
        ("eight_addresses_one_bank", (lane % 8) * 32),
        ("sixteen_addresses_one_bank_pairs", (lane // 2) * 32),
        ("two_addresses_two_banks", lane % 2),
        ("half_one_address_half_distinct", np.where(lane < 16, 0, lane)),
        ("odd_lanes_only", np.where(lane % 2 == 1, lane, -1)),
        ("one_lane", np.where(lane == 5, 40, -1)),
        ("first_16_lanes_stride32", np.where(lane < 16, lane * 32, -1)),
        ("bank0_random_rows", rng.integers(0, 32, 32) * 32),
    ]
    for s in range(4):
        p.append((f"random256_{s}", rng.integers(0, 256, 32)))
    for s in range(2):
        p.append((f"random32_{s}", rng.integers(0, 32, 32)))
    for s in range(2):
        p.append((f"random1024_{s}", rng.integers(0, 1024, 32)))
    for s in range(2):
        pool = rng.integers(0, 1024, 4)
        p.append((f"pool4_{s}", pool[rng.integers(0, 4, 32)]))
    return [(n, np.asarray(a, dtype=np.int32)) for n, a in p]


ATOMIC_PATTERNS = _patterns()


def _cp_async_patterns() -> dict[int, list[tuple[str, np.ndarray, np.ndarray]]]:
    """Copy size -> [(name, 32 shared byte offsets (-1: no copy), 32 global byte offsets)] for
    kernels/cp_async_patterns.cu: rows of 128 bytes, alignment, banks, active lanes, the global side's lines."""
    l = np.arange(32)
    qw_rows = (l // 4) * 256 + (l % 4) * 16  # 16-byte lanes: two 128-byte rows a quarter-warp
    p16 = [("contig", 16 * l, 16 * l), ("dst_plus16", 16 + 16 * l, 16 * l), ("dst_plus48", 48 + 16 * l, 16 * l),
           ("dst_plus64", 64 + 16 * l, 16 * l), ("dst_plus32", 32 + 16 * l, 16 * l), ("dst_plus80", 80 + 16 * l, 16 * l),
           ("dst_plus96", 96 + 16 * l, 16 * l), ("dst_plus112", 112 + 16 * l, 16 * l),
           ("src_plus32", 16 * l, 32 + 16 * l), ("src_plus64", 16 * l, 64 + 16 * l),
           ("dst_stride48", 48 * l, 16 * l), ("dst_stride64", 64 * l, 16 * l),
           ("dst_sectors_swapped", 16 * (l ^ 2), 16 * l),
           # single rows and pairs of lanes of the 48-byte stride and of the shifted two-line copy: which halves pair
           *((f"stride48_lanes_{''.join(map(str, ls))}", np.where(np.isin(l, ls), 48 * l, -1), 16 * l)
             for ls in ((0, 1, 2), (3, 4, 5), (6, 7), (0, 1), (0, 2), (1, 2), (0, 3), (1, 4))),
           *((f"shift16_two_lines_lanes_{''.join(map(str, ls))}", np.where(np.isin(l, ls), 16 + 16 * l, -1), qw_rows)
             for ls in ((0, 1, 2, 3), (4, 5, 6), (3, 4), (2, 3, 4, 5), (0, 1, 2, 3, 4, 5, 6))), ("src_two_lines_a_quarter", 16 * l, qw_rows),
           ("src_line_a_lane", 16 * l, 256 * l), ("src_plus16", 16 * l, 16 + 16 * l),
           ("dst_row_a_lane", 128 * l, 16 * l), ("dst_two_rows_a_quarter", qw_rows, 16 * l),
           ("dst_stride32", 32 * l, 16 * l), ("half_warp", np.where(l < 16, 16 * l, -1), 16 * l),
           ("one_lane", np.where(l == 0, 0, -1), 16 * l), ("reversed", 16 * (31 - l), 16 * l),
           ("pairs_swapped", 16 * (l ^ 1), 16 * l), ("quarters_0_2", np.where((l // 8) % 2 == 0, 16 * l, -1), 16 * l),
           ("dst_plus16_src_two_lines", 16 + 16 * l, qw_rows)]
    p8 = [("contig", 8 * l, 8 * l), ("dst_plus8", 8 + 8 * l, 8 * l), ("dst_stride64", 64 * l, 8 * l),
          ("src_line_a_lane", 8 * l, 256 * l), ("dst_row_a_lane", 128 * l, 8 * l),
          ("half_warp", np.where(l < 16, 8 * l, -1), 8 * l)]
    p4 = [("contig", 4 * l, 4 * l), ("mm_async_a_tile", (l % 8) * 528 + (l // 8) * 4 + 16, 4 * l),
          ("dst_row_a_lane", 128 * l, 4 * l), ("dst_plus4", 4 + 4 * l, 4 * l), ("dst_stride8", 8 * l, 4 * l),
          ("src_line_a_lane", 4 * l, 128 * l), ("half_warp", np.where(l < 16, 4 * l, -1), 4 * l),
          # the source side: k lanes on the same word position of k different lines, into contiguous shared
          # words; then with m-way destination bank conflicts, on the same lanes or on others
          *((f"srcpos_k{k}", 4 * l, 128 * (l % k) + 4 * (l // k)) for k in (2, 4, 8, 16)),
          ("src_lines_distinct_pos", 4 * l, 132 * l), ("src_one_word", 4 * l, 0 * l),
          *((f"srcpos_k{k}_dst_same_m{m}", 128 * (l % m) + 4 * (l // m), 128 * (l % k) + 4 * (l // k))
            for k, m in ((2, 2), (4, 4), (4, 2), (2, 4))),
          *((f"srcpos_k{k}_dst_other_m{m}", 128 * (l // (32 // m)) + 4 * (l % (32 // m)), 128 * (l % k) + 4 * (l // k))
            for k, m in ((2, 2), (4, 4), (4, 8), (8, 4)))]
    return {16: p16, 8: p8, 4: p4}


CP_ASYNC_PATTERNS = _cp_async_patterns()


def _partition_scratch(keys: np.ndarray) -> np.ndarray:
    """What hist_partition leaves for hist_part_count (part_layout: one block, one tile of 8192 keys, 16
    ranges of 2^16 bins): the block's keys a range, the tile's range starts, the local bins sorted by range."""
    ranges = 16
    r = keys.astype(np.int64) >> 16
    tot = np.bincount(r, minlength=ranges).astype(np.int32)
    tab = np.zeros(20, np.int32)  # ranges + 1 starts, rounded up to 4
    tab[1:ranges + 1] = np.cumsum(tot)
    part = (keys[np.argsort(r, kind="stable")] & 0xFFFF).astype(np.uint16)
    return np.concatenate([tot.view(np.uint8), tab.view(np.uint8), part.view(np.uint8)])


def _csr(rng, rows: int = 64, cols: int = 512) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A CSR matrix of varied row lengths for the SpMV cases (issue 32): empty rows, short ones, rows of a
    warp's width and past it, rows longer than two warps; columns sorted in a row, some clustered."""
    lengths = rng.choice([0, 1, 3, 7, 16, 31, 32, 33, 50, 70, 97], size=rows)
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    col = []
    for r, m in enumerate(lengths):
        if r % 3 == 0:  # clustered around the diagonal
            c = (r * 8 + np.arange(m) * rng.integers(1, 4)) % cols
        else:
            c = rng.choice(cols, size=m, replace=False)
        col.append(np.sort(c))
    colv = np.concatenate(col).astype(np.int32)
    return row_ptr, colv, rng.uniform(-1, 1, colv.size).astype(np.float32)


def _fresh_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fresh held-out batch (kernels/fresh_global.cu, fresh_apps.cu): permutations, an
    ELLPACK matrix, clustered bytes, sorted segment ids, packet offsets, an FIR filter's settings (their own
    generator, so that the inputs above stay as they were)."""
    rng = np.random.default_rng(20261201)
    rows, width, xn = 100, 6, 256
    ell = np.full((width, rows), -1, np.int32)  # column-major slots, -1 padding
    for r in range(rows):
        m = int(rng.integers(0, width + 1))
        band = np.clip(2 * r + rng.integers(-12, 13, m), 0, xn - 1)
        ell[:m, r] = np.sort(band)
    clustered = np.where(rng.random(4096) < 0.85, np.clip(np.round(rng.normal(128, 3, 4096)), 0, 255),
                         rng.integers(0, 256, 4096)).astype(np.uint8)
    sizes = 14 + rng.integers(0, 20, 64)  # a 12-byte header, a 16-bit sample, a payload: odd sizes too
    fir = np.concatenate([np.array([7], np.int32), np.array([.05, .1, .15, .4, .15, .1, .05, 0, 0, 1.5, .25],
                                                            np.float32).view(np.int32)])
    return {
        "fresh_perm_random_200": rng.permutation(200).astype(np.int32),
        "fresh_perm_local_200": (np.arange(200) // 8 * 8 + np.concatenate([rng.permutation(8) for _ in range(25)])
                                 ).astype(np.int32),
        "fresh_ell_cols": ell.reshape(-1),
        "fresh_bytes_clustered_4096": clustered,
        "fresh_segments_600": np.sort(rng.integers(0, 24, 600)).astype(np.int32),
        "fresh_packet_offsets": np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int32),
        "fresh_fir_params": fir,
    }


def _fresh2_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the second fresh batch (kernels/fresh2_*.cu): a COO row list of the CSR matrix above, and
    a BFS level over a graph of 300 nodes with skewed degrees (Rodinia's node records, a frontier mask and queue,
    visited flags, costs; their own generator)."""
    row_ptr, _, _ = _csr(np.random.default_rng(20261128))  # the csr_* inputs' matrix
    rng = np.random.default_rng(20261205)
    nodes = 300
    deg = np.minimum(rng.zipf(1.6, nodes), 60)  # mostly 1-3 neighbours, a few hubs
    deg[rng.integers(0, nodes, 10)] = 0
    edges = np.concatenate([np.where(rng.random(d) < 0.5, (v + rng.integers(-6, 7, d)) % nodes, rng.integers(0, nodes, d))
                            for v, d in enumerate(deg)]).astype(np.int32)
    start = np.concatenate([[0], np.cumsum(deg)[:-1]]).astype(np.int32)
    mask = rng.random(nodes) < 0.15
    visited = mask | (rng.random(nodes) < 0.3)
    cost = np.where(mask, 2, np.where(visited, rng.integers(0, 2, nodes), -1)).astype(np.int32)
    return {
        "fresh2_coo_rows": np.repeat(np.arange(len(row_ptr) - 1), np.diff(row_ptr)).astype(np.int32),
        "fresh2_bfs_nodes": np.stack([start, deg.astype(np.int32)], axis=1).reshape(-1),
        "fresh2_bfs_offsets": np.concatenate([[0], np.cumsum(deg)]).astype(np.int32),
        "fresh2_bfs_edges": edges,
        "fresh2_bfs_mask": mask,
        "fresh2_bfs_visited": visited,
        "fresh2_bfs_cost": cost,
        "fresh2_bfs_frontier": np.flatnonzero(mask).astype(np.int32),
    }


def _fresh3_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the third fresh batch (kernels/fresh3_*.cu): two sorted runs to merge, a text of words and
    lines, the CRC-32 table, a lower-triangular CSR matrix (diagonal last in a row) with its level schedule,
    clustered particle positions (their own generator)."""
    rng = np.random.default_rng(20261210)
    words = rng.choice(["a", "to", "the", "data", "kernel", "memory", "bandwidth", "x", "coalesced"], 700)
    seps = rng.choice([" ", " ", " ", "  ", "\n", "\t"], 700)
    text = np.frombuffer("".join(w + s for w, s in zip(words, seps)).encode()[:3001], np.uint8)
    crc = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        crc = np.where(crc & 1, (crc >> 1) ^ np.uint32(0xEDB88320), crc >> 1).astype(np.uint32)
    rows, ptr, cols, level = 160, [0], [], np.zeros(160, np.int64)
    for i in range(rows):
        m = min(i, int(rng.choice([0, 1, 2, 3, 5, 12, 33, 40])))
        deps = np.sort(rng.choice(i, size=m, replace=False)) if m else np.zeros(0, np.int64)
        level[i] = 1 + level[deps].max() if m else 0
        cols += [*deps.tolist(), i]
        ptr.append(len(cols))
    order = np.argsort(level, kind="stable")
    pos = rng.random((700, 3))
    pos = np.where(rng.random((700, 1)) < 0.6, 0.3 + 0.05 * rng.standard_normal((700, 3)), pos)
    return {
        "fresh3_merge_a": np.sort(rng.integers(0, 2000, 700)).astype(np.int32),
        "fresh3_merge_b": np.sort(rng.integers(500, 1500, 500)).astype(np.int32),
        "fresh3_text": text,
        "fresh3_crc_table": crc,
        "fresh3_tri_row_ptr": np.asarray(ptr, np.int32),
        "fresh3_tri_cols": np.asarray(cols, np.int32),
        "fresh3_tri_levels": order.astype(np.int32),
        "fresh3_tri_level_ptr": np.searchsorted(level[order], np.arange(level.max() + 2)).astype(np.int32),
        "fresh3_positions": np.clip(pos, 0, 0.999).astype(np.float32).reshape(-1),
    }


def _fresh4_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fourth fresh batch (kernels/fresh4_*.cu): token ids with repeats, COO row lists
    (sorted and scattered), an ELLPACK matrix in column-major slots, a graph in CSR with a frontier and a visited
    bitmap, a search pattern, a byte stream with runs (their own generator)."""
    rng = np.random.default_rng(20261215)
    rows, width, ld, xn = 120, 10, 128, 300
    ell = np.full((width, ld), -1, np.int32)
    for r in range(rows):
        m = int(rng.choice([0, 1, 2, 4, 6, 10]))
        ell[:m, r] = np.sort(rng.choice(xn, m, replace=False))
    nv = 512
    deg = rng.choice([0, 1, 2, 3, 4, 8, 20], nv)
    ptr = np.concatenate([[0], np.cumsum(deg)]).astype(np.int32)
    cols = np.concatenate([np.where(rng.random(d) < 0.5, (v + rng.integers(-20, 21, d)) % nv, rng.integers(0, nv, d))
                           for v, d in enumerate(deg)]).astype(np.int32)
    frontier = rng.random(nv) < 0.15
    visited = frontier | (rng.random(nv) < 0.3)
    pack = lambda b: np.packbits(b.reshape(-1, 32)[:, ::-1], axis=1).view(">u4").reshape(-1).astype(np.uint32)
    runs = np.repeat(rng.integers(0, 6, 800), rng.choice([1, 1, 2, 3, 5, 9, 40], 800))[:2000].astype(np.uint8)
    return {
        "fresh4_tokens_64": ((rng.zipf(1.5, 64) - 1) % 50).astype(np.int32),
        "fresh4_coo_rows_sorted": np.sort(rng.integers(0, 100, 2000)).astype(np.int32),
        "fresh4_coo_rows_random": rng.integers(0, 100, 2000).astype(np.int32),
        "fresh4_ell_cols": ell.reshape(-1),
        "fresh4_graph_row_ptr": ptr,
        "fresh4_graph_cols": cols,
        "fresh4_frontier_bits": pack(frontier),
        "fresh4_visited_bits": pack(visited),
        "fresh4_pat_the": np.frombuffer(b"the ", np.uint8).copy(),
        "fresh4_pat_bandwidth": np.frombuffer(b"bandwidth", np.uint8).copy(),
        "fresh4_runs_2000": runs,
    }


def _fresh5_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fifth fresh batch (kernels/fresh5_*.cu): ragged segment offsets, linked lists, a
    union-find forest of chains (one query a tree), sorted keys and queries, a non-uniform interpolation table, a
    banded matrix's column ranges, type tags, masks and a permutation, particles sorted by cell, a sorted dictionary
    of words, two CSR matrices with the ESC product's row slots, expansion counts, sorted keys in runs, work lists,
    polylines, Collatz starts and their memo table (their own generator)."""
    rng = np.random.default_rng(20261220)
    lens = rng.choice([0, 1, 5, 17, 31, 32, 33, 64, 100, 150], 48)
    ragged = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    seg = np.concatenate([[0], np.cumsum(np.minimum(rng.zipf(1.4, 200), 40))]).astype(np.int32)
    # linked lists: 128 heads over 1500 nodes, chains of geometric lengths (some empty) in scattered nodes
    nodes, nlists = 1500, 128
    order = rng.permutation(nodes)
    cuts = np.sort(rng.choice(np.arange(1, nodes), nlists - 1, replace=False))
    head, nxt = np.full(nlists, -1, np.int32), np.full(nodes, -1, np.int32)
    for li, chain in enumerate(np.split(order, cuts)):
        chain = chain[: int(rng.choice([0, 1, 3, 8, 20, 60]))] if li % 5 == 0 else chain
        if len(chain):
            head[li] = chain[0]
            nxt[chain[:-1]] = chain[1:]
    # union-find: 128 trees, each a chain of 1..40 nodes (random places), the query its deepest node
    uf_n = 2000
    place = rng.permutation(uf_n)
    parent, query, at = np.arange(uf_n, dtype=np.int32), np.zeros(128, np.int32), 0
    for t in range(128):
        m = int(rng.choice([1, 2, 4, 9, 17, 40]))
        chain = place[at:at + m]
        at += m
        parent[chain[1:]] = chain[:-1]  # chain[0] the root
        query[t] = chain[-1]
    keys = np.sort(rng.integers(0, 5000, 2048)).astype(np.int32)
    xp = np.cumsum(rng.exponential(1.0, 200)).astype(np.float32)
    xq = rng.uniform(xp[0], xp[-1], 1000).astype(np.float32)
    rows, cols = 60, 200
    centre = np.linspace(0, cols, rows)
    bw = rng.choice([0, 3, 17, 40, 70], rows)
    lo = np.clip(centre - bw, 0, cols).astype(np.int32)
    hi = np.clip(centre + bw, 0, cols).astype(np.int32)
    tags = np.repeat(rng.choice([0, 1, 2, 3, 4], 200, p=[.4, .2, .2, .15, .05]), rng.choice([1, 4, 32], 200))[:1000]
    # particles clustered in [0, 1)^3, sorted by cell of a 4^3 grid
    G, npart = 4, 500
    pos = np.where(rng.random((npart, 1)) < 0.5, rng.random((npart, 3)),
                   np.clip(0.6 + 0.08 * rng.standard_normal((npart, 3)), 0, 0.999))
    cell = (np.minimum((pos * G).astype(int), G - 1) * [1, G, G * G]).sum(1)
    o = np.argsort(cell, kind="stable")
    pos, cell = pos[o], cell[o]
    cs = np.full(G ** 3, -1, np.int32)
    ce = np.full(G ** 3, -1, np.int32)
    for c in np.unique(cell):
        w = np.flatnonzero(cell == c)
        cs[c], ce[c] = w[0], w[-1] + 1
    p4 = np.concatenate([pos, rng.uniform(0.5, 1.5, (npart, 1))], 1).astype(np.float32).reshape(-1)
    # a sorted dictionary with shared prefixes
    stems = ["mem", "memory", "memo", "band", "bandwidth", "ker", "kernel", "sector", "sect", "warp", "wave"]
    words = sorted({rng.choice(stems) + "".join(rng.choice(list("aeiost"), int(rng.integers(0, 6))))
                    for _ in range(400)})
    woff = np.concatenate([[0], np.cumsum([len(w) for w in words])]).astype(np.int32)
    # ESC: A (40 x 60) and B (60 x 100) in CSR, the product's row slots
    def csr(r, c, choices):
        ln = rng.choice(choices, r)
        ptr = np.concatenate([[0], np.cumsum(ln)]).astype(np.int32)
        ci = np.concatenate([np.sort(rng.choice(c, k, replace=False)) for k in ln]).astype(np.int32)
        return ptr, ci
    a_ptr, a_cols = csr(40, 60, [0, 1, 2, 4, 7])
    b_ptr, b_cols = csr(60, 100, [0, 1, 3, 12, 33, 50])
    out_len = [int(np.diff(b_ptr)[a_cols[a_ptr[r]:a_ptr[r + 1]]].sum()) for r in range(40)]
    counts = np.minimum(rng.zipf(1.8, 1000) - 1, 12).astype(np.int32)
    runs = np.repeat(np.arange(300), rng.choice([1, 1, 2, 3, 7, 16, 40], 300))[:2000].astype(np.int32)
    qlen = rng.choice([0, 1, 2, 5, 9, 20], 200).astype(np.int32)
    poly = np.concatenate([[0], np.cumsum(rng.choice([0, 1, 2, 3, 8, 30], 150))]).astype(np.int32)
    memo = np.zeros(1024, np.int32)
    for v in range(2, 1024):
        x, s = v, 0
        while x >= v:
            x, s = (3 * x + 1 if x & 1 else x >> 1), s + 1
        memo[v] = s + memo[x]
    return {
        "fresh5_ragged_offsets": ragged,
        "fresh5_seg_offsets_200": seg,
        "fresh5_list_head": head,
        "fresh5_list_next": nxt,
        "fresh5_uf_parent": parent,
        "fresh5_uf_query": query,
        "fresh5_sorted_keys": keys,
        "fresh5_key_queries": rng.integers(-10, 5100, 1000).astype(np.int32),
        "fresh5_interp_xp": xp,
        "fresh5_interp_x": xq,
        "fresh5_band_lo": lo,
        "fresh5_band_hi": hi,
        "fresh5_tags": tags.astype(np.uint8),
        "fresh5_tag_idx": rng.integers(0, 512, 1000).astype(np.int32),
        "fresh5_mask_random": (rng.random(1000) < 0.5).astype(np.int32),
        "fresh5_mask_runs": np.repeat(rng.integers(0, 2, 100), 10).astype(np.int32),
        "fresh5_perm_1000": rng.permutation(1000).astype(np.int32),
        "fresh5_sph_pos": p4,
        "fresh5_sph_cell_start": cs,
        "fresh5_sph_cell_end": ce,
        "fresh5_dict_chars": np.frombuffer("".join(words).encode(), np.uint8).copy(),
        "fresh5_dict_offsets": woff,
        "fresh5_esc_a_ptr": a_ptr,
        "fresh5_esc_a_cols": a_cols,
        "fresh5_esc_b_ptr": b_ptr,
        "fresh5_esc_b_cols": b_cols,
        "fresh5_esc_out_ptr": np.concatenate([[0], np.cumsum(out_len)]).astype(np.int32),
        "fresh5_expand_counts": counts,
        "fresh5_run_keys": runs,
        "fresh5_work_off": np.concatenate([[0], np.cumsum(qlen)[:-1]]).astype(np.int32),
        "fresh5_work_len": qlen,
        "fresh5_poly_offsets": poly,
        "fresh5_collatz_start": rng.integers(1, 200000, 1000).astype(np.int64),
        "fresh5_collatz_memo": memo,
    }


def _fresh6py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the sixth fresh batch's Python kernels (kernels/fresh6_numba.py, fresh6_triton.py): per-row
    permutations, packed-document start flags, distinct top-k expert ids per token, a KV-cache block copy mapping
    (sources and destinations disjoint) and ragged row lengths (their own generator)."""
    rng = np.random.default_rng(20261231)
    perm = np.stack([rng.permutation(64) for _ in range(24)]).astype(np.int32)
    bos = np.zeros((12, 128), np.int32)
    for r in range(12):
        bos[r, np.sort(rng.choice(np.arange(1, 128), int(rng.integers(1, 6)), replace=False))] = 1
        bos[r, 0] = 1
    topk = np.stack([rng.choice(16, 2, replace=False) for _ in range(200)]).astype(np.int32)
    blocks = rng.permutation(32)
    mapping = np.stack([blocks[:6], blocks[6:12]], axis=1).astype(np.int32)
    lens = rng.choice([1, 7, 33, 64, 100, 150, 200], 10).astype(np.int32)
    return {
        "fresh6py_row_perm_24x64": perm,
        "fresh6py_doc_bos_12x128": bos,
        "fresh6py_topk_ids_200x2": topk,
        "fresh6py_kv_block_mapping": mapping,
        "fresh6py_ragged_lens_10": lens,
    }


def _fresh7py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the seventh fresh batch's Python kernels (kernels/fresh7_triton.py): the grouped GEMM's
    tables, three problems (M, N, K) packed one after another into the A, B and C buffers, their byte offsets (int64)
    and their sizes (int32, flat M, N, K triples)."""
    dims = np.array([[48, 32, 64], [80, 64, 32], [16, 48, 48]], np.int32)
    def offsets(sizes):
        return (np.concatenate([[0], np.cumsum(sizes)[:-1]]) * 2).astype(np.int64)  # float16: 2 bytes
    return {
        "fresh7py_gg_a_off": offsets(dims[:, 0] * dims[:, 2]),
        "fresh7py_gg_b_off": offsets(dims[:, 2] * dims[:, 1]),
        "fresh7py_gg_c_off": offsets(dims[:, 0] * dims[:, 1]),
        "fresh7py_gg_dims": dims.reshape(-1).copy(),
    }


def _fresh8py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the eighth fresh batch's Python kernels (kernels/fresh8_numba.py, fresh8_triton.py): a
    skewed uint8 buffer (a dark image's pixel values), a CSR matrix of 48 rows x 200 columns with rows of 0 to 70
    nonzeros, MoE top-2 expert ids of 200 tokens over 8 experts (skewed, distinct per token) and their counts,
    paged-attention block tables and sequence lengths, a KV-cache slot mapping with padding (-1), varlen cumulative
    lengths (an empty sequence included) and cross-entropy labels with ignore_index (-100) (their own generator)."""
    rng = np.random.default_rng(20270211)
    dark = np.clip(rng.normal(40, 12, 6000), 0, 255).astype(np.uint8)
    dark[rng.choice(6000, 300, replace=False)] = 255  # saturated highlights
    lens = rng.choice([0, 1, 5, 31, 32, 33, 70], 48)
    row_ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    cols = np.concatenate([np.sort(rng.choice(200, k, replace=False)) for k in lens]).astype(np.int32)
    weights = np.array([0.3, 0.2, 0.15, 0.1, 0.1, 0.07, 0.05, 0.03])
    topk = np.stack([rng.choice(8, 2, replace=False, p=weights) for _ in range(200)]).astype(np.int32).reshape(-1)
    counts = np.bincount(topk, minlength=8).astype(np.int32)
    pages = rng.permutation(16)
    table = np.zeros((2, 6), np.int32)
    table[0, :6] = pages[:6]  # 83 tokens: 6 pages of 16
    table[1, :3] = pages[6:9]  # 37 tokens: 3 pages
    slots = rng.choice(128, 8, replace=False).astype(np.int64)
    slots[[2, 6]] = -1
    return {
        "fresh8py_u8_dark_6000": dark,
        "fresh8py_csr_row_ptr_48": row_ptr,
        "fresh8py_csr_cols_48x200": cols,
        "fresh8py_moe_topk_ids_400": topk,
        "fresh8py_moe_counts_8": counts,
        "fresh8py_block_table_2x6": table,
        "fresh8py_seq_lens_2": np.array([83, 37], np.int32),
        "fresh8py_slots_8_of_128": slots,
        "fresh8py_cu_seqlens_4": np.array([0, 64, 81, 81, 121], np.int32),
        "fresh8py_xent_labels_6": np.array([17, -100, 999, 512, -100, 3], np.int64),
    }


def _fresh9py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the ninth fresh batch's Python kernels (kernels/fresh9_numba.py, fresh9_triton.py): 32-bit
    radix-sort keys (full range), a gather index into 2000 values with repeats (clustered, as a sparse row order
    gives), a scatter permutation of 1500 slots (distinct, so the output has one writer a slot) and class ids in
    [0, 64) with a skewed, long-tailed distribution (their own generator)."""
    rng = np.random.default_rng(20270304)
    keys = rng.integers(0, 2**32, 3000, dtype=np.uint64).astype(np.uint32)
    base = np.sort(rng.integers(0, 2000, 1500))
    gather = np.clip(base + rng.integers(-3, 4, 1500), 0, 1999).astype(np.int32)
    scatter = rng.permutation(1500).astype(np.int32)
    ids = np.minimum(rng.geometric(0.08, 3000) - 1, 63).astype(np.int32)
    return {
        "fresh9py_radix_keys_3000": keys,
        "fresh9py_gather_idx_1500_of_2000": gather,
        "fresh9py_scatter_perm_1500": scatter,
        "fresh9py_class_ids_3000_of_64": ids,
    }


def _fresh10py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the tenth fresh batch's Python kernels (kernels/fresh10_numba.py, fresh10_triton.py): a
    60x200 uint8 image (a lit gradient with a dark disc, a bright stripe and sensor noise), a bimodal uint8 buffer
    (foreground and background peaks), float32 samples for a 32-bin histogram of [-3, 3) (a shifted normal with a few
    outliers past both ends), int64 token ids over a 512-word vocabulary (Zipf-skewed), cross-entropy labels over
    5000 classes with ignore_index (-100) rows and the split-K matmul's float16 operands, quarter-integers so that its
    float32 atomic adds are exact (their own generator)."""
    rng = np.random.default_rng(20270322)
    yy, xx = np.mgrid[0:60, 0:200]
    img = 60.0 + 0.6 * xx + 0.5 * yy
    img[(yy - 30) ** 2 + (xx - 70) ** 2 < 15 ** 2] = 20.0
    img[:, 150:158] = 250.0
    img = np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    fg = rng.normal(190, 15, 3000)
    bg = rng.normal(50, 20, 5000)
    bimodal = np.clip(rng.permutation(np.concatenate([fg, bg])), 0, 255).astype(np.uint8)
    samples = rng.normal(0.3, 1.0, 5000).astype(np.float32)
    samples[rng.choice(5000, 40, replace=False)] = rng.choice([-7.5, 9.0], 40).astype(np.float32)
    tokens = ((rng.zipf(1.2, 3000) - 1) % 512).astype(np.int64)
    labels = rng.integers(0, 5000, 8).astype(np.int64)
    labels[[1, 6]] = -100
    # split-K operands of quarter-integers in [-2, 2]: every product and partial sum is exact in float32, so the
    # atomic adds of the K slices give the same bits in any order
    ska = (rng.integers(-8, 9, (64, 500)) / 4).astype(np.float16)
    skb = (rng.integers(-8, 9, (500, 64)) / 4).astype(np.float16)
    return {
        "fresh10py_u8_image_60x200": img,
        "fresh10py_u8_bimodal_8000": bimodal,
        "fresh10py_samples_5000": samples,
        "fresh10py_token_ids_3000_of_512": tokens,
        "fresh10py_xent_labels_8": labels,
        "fresh10py_splitk_a_64x500": ska,
        "fresh10py_splitk_b_500x64": skb,
    }


def _fresh11py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the eleventh fresh batch's Python kernels (kernels/fresh11_numba.py, fresh11_triton.py):
    uint16 samples for a 1024-bin histogram (a 12-bit-like sensor signal with a second narrow peak and a few
    saturated codes), two correlated uint8 images for a joint histogram, segment ids over 64 segments (skewed) with a
    slot permutation, Horner degrees 0 to 15, integer-valued float32 scores with many ties for the row argmaxes,
    int64 token ids over a 1000-word vocabulary, a paged KV block table with its cu_seqlens and per-row column
    permutations (their own generator)."""
    rng = np.random.default_rng(20270412)
    u16 = np.concatenate([rng.normal(2200, 400, 4500), rng.normal(40000, 800, 1400), np.full(100, 65535.0)])
    u16 = np.clip(rng.permutation(u16), 0, 65535).astype(np.uint16)
    ja = rng.integers(0, 256, 4096)
    jb = np.clip(ja * 0.7 + rng.normal(40, 25, 4096), 0, 255)
    segs = np.minimum(rng.geometric(0.06, 3000) - 1, 63).astype(np.int32)
    ties_small = rng.integers(0, 10, (22, 64)).astype(np.float32)
    ties_wide = rng.integers(-20, 21, (30, 300)).astype(np.float32)
    table = rng.choice(32, 12, replace=False).astype(np.int32).reshape(3, 4)
    return {
        "fresh11py_u16_samples_6000": u16,
        "fresh11py_joint_a_4096": ja.astype(np.uint8),
        "fresh11py_joint_b_4096": jb.astype(np.uint8),
        "fresh11py_seg_ids_3000_of_64": segs,
        "fresh11py_perm_3000": rng.permutation(3000).astype(np.int32),
        "fresh11py_horner_deg_600": rng.integers(0, 16, 600).astype(np.int32),
        "fresh11py_ties_22x64": ties_small,
        "fresh11py_ties_30x300": ties_wide,
        "fresh11py_token_ids_200_of_1000": ((rng.zipf(1.3, 200) - 1) % 1000).astype(np.int64),
        "fresh11py_block_table_3x4": table,
        "fresh11py_cu_seqlens_3": np.array([0, 50, 67, 131], np.int32),
        "fresh11py_col_perm_16x64": np.stack([rng.permutation(64) for _ in range(16)]).astype(np.int32),
    }


def _fresh12py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the twelfth fresh batch's Python kernels (kernels/fresh12_numba.py, fresh12_triton.py):
    6000 bytes of ASCII-like text for the shared-atomics histogram (letters and spaces most, a few control and high
    bytes), 1000 int32 keys in 0..500 with many repeats (a Zipf head) for the shared hash-slot claims, and the (m, n, k)
    and (lda, ldb, ldc) tables of the grouped GEMM's three problems (every size a multiple of its 32 tiles)."""
    rng = np.random.default_rng(20270521)
    letters = rng.integers(97, 123, 4200)
    spaces = np.full(1000, 32)
    caps = rng.integers(65, 91, 500)
    other = rng.integers(0, 256, 300)
    text = rng.permutation(np.concatenate([letters, spaces, caps, other])).astype(np.uint8)
    keys = np.minimum(rng.zipf(1.4, 1000) - 1, 500).astype(np.int32)
    return {
        "fresh12py_text_bytes_6000": text,
        "fresh12py_dup_keys_1000_of_501": keys,
        "fresh12py_gg_sizes_3": np.array([64, 64, 64, 32, 64, 32, 64, 32, 96], np.int32),
        "fresh12py_gg_lds_3": np.array([64, 64, 64, 32, 64, 64, 96, 32, 32], np.int32),
    }


def _fresh13py_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the thirteenth fresh batch's Python kernels (kernels/fresh13_numba.py, fresh13_triton.py):
    1000 int32 keys in 0..63 with a Zipf head (whole warps of equal keys, others all distinct) for the match_any_sync
    histogram; 3000 int32 bins in 0..127, a third of them on four hot bins, for the weighted shared histogram; vLLM's
    moe_align_block_size output for 12 tokens routed to 2 of 3 experts (the slot ids token * 2 + k sorted by expert,
    each expert's run padded to the block size with the sentinel 24, the buffer as long as vLLM allocates it, the
    expert of each block and the padded total) at block sizes 32 and 16; the decode batch's sequence lengths (37, 90)
    and block tables (distinct pages of 16 tokens out of 16); cumulative query and key lengths of two ragged prefill
    sequences (50 new tokens after a cached prefix of 20, and 23 with none); 8 token positions and the neox cos/sin
    cache (64 positions, rotary dim 64, base 10000); cross-entropy targets over a 32000 vocabulary with one
    ignore_index (-100); the bgmv tokens' LoRA indices (one token without a LoRA: -1)."""
    rng = np.random.default_rng(20270611)
    keys = np.minimum(rng.zipf(1.5, 1000) - 1, 63).astype(np.int32)
    keys[256:288] = 17  # one warp all on one key
    keys[512:544] = np.arange(32) + 20  # one warp all distinct
    hot = rng.choice([3, 40, 41, 97], 1000)
    bins = rng.permutation(np.concatenate([hot, rng.integers(0, 128, 2000)])).astype(np.int32)

    n_tok, top_k, n_exp = 12, 2, 3
    topk_ids = np.stack([rng.choice(n_exp, top_k, replace=False) for _ in range(n_tok)]).reshape(-1)

    def align(bm):
        sentinel = n_tok * top_k
        runs, experts = [], []
        for e in range(n_exp):
            slots = np.flatnonzero(topk_ids == e)
            padded = -(-len(slots) // bm) * bm
            runs.append(np.concatenate([slots, np.full(padded - len(slots), sentinel)]))
            experts += [e] * (padded // bm)
        body = np.concatenate(runs)
        em = sentinel + n_exp * (bm - 1)
        ids = np.concatenate([body, np.full(em - len(body), sentinel)]).astype(np.int32)
        blocks = np.zeros(-(-em // bm), np.int32)
        blocks[:len(experts)] = experts
        return ids, blocks, np.array([len(body)], np.int32)

    s32, e32, p32 = align(32)
    s16, e16, p16 = align(16)
    pages = rng.permutation(16).astype(np.int32)
    tables = np.zeros((2, 8), np.int32)
    tables[0, :3] = pages[:3]  # 37 tokens: 3 pages
    tables[1, :6] = pages[3:9]  # 90 tokens: 6 pages
    pos = rng.integers(0, 64, 8).astype(np.int64)
    inv = 1.0 / (10000.0 ** (np.arange(0, 64, 2) / 64))
    freqs = np.outer(np.arange(64), inv)
    cache = np.concatenate([np.cos(freqs), np.sin(freqs)], axis=1).astype(np.float32)
    targets = rng.integers(0, 32000, 6).astype(np.int64)
    targets[2] = -100
    return {
        "fresh13py_warp_keys_1000_of_64": keys,
        "fresh13py_hot_bins_3000_of_128": bins,
        "fresh13py_moe_sorted_ids_bm32": s32, "fresh13py_moe_expert_ids_bm32": e32, "fresh13py_moe_padded_bm32": p32,
        "fresh13py_moe_sorted_ids_bm16": s16, "fresh13py_moe_expert_ids_bm16": e16, "fresh13py_moe_padded_bm16": p16,
        "fresh13py_decode_seq_lens_2": np.array([37, 90], np.int32),
        "fresh13py_decode_block_tables_2x8": tables,
        "fresh13py_prefix_cu_seqlens_q": np.array([0, 50, 73], np.int32),
        "fresh13py_prefix_cu_seqlens_k": np.array([0, 70, 93], np.int32),
        "fresh13py_rope_positions_8": pos,
        "fresh13py_rope_cos_sin_64x64": cache,
        "fresh13py_ce_targets_6": targets,
        "fresh13py_lora_indices_4": np.array([0, -1, 2, 1], np.int64),
    }


def _fresh14py_triton_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fourteenth fresh batch's Triton kernels (kernels/fresh14_triton.py): the block-sparse
    attention layout (4 query blocks of 64 over 230 keys: the diagonal, block 0 as a global block, block 2 for row 3;
    the LUT padded with 0 to 4 entries) and its row counts; moe_align_block_size's inputs at every stage for 16 tokens
    routed to 2 of 8 experts (block size 16, 4 ids a program): the top-k ids, the per-program counts after stage 1 and
    their prefix over programs after stage 2, the padded cumsum after stage 3; 200 top-k ids over 8 experts (a hot
    expert) for the atomic histogram; per-row top-k and top-p; 4 x 24 prior token ids over a 1000 vocabulary (repeats,
    padded with 1000); an embedding bag's 50 int64 indices and 7 offsets (one empty bag); a slot mapping of 8 tokens
    into 6 pages of 16 (one padding token, -1); speculative decoding's 3 requests (2, 1, 2 draft tokens), their draft
    token ids, bonus and recovered tokens."""
    rng = np.random.default_rng(20270701)
    lut = np.array([[0, 0, 0, 0], [0, 1, 0, 0], [0, 2, 0, 0], [0, 2, 3, 0]], np.int32)
    nnz = np.array([1, 2, 2, 3], np.int32)
    n_exp, numel, tpt = 8, 32, 4
    topk = np.stack([rng.choice(n_exp, 2, replace=False) for _ in range(16)]).reshape(-1).astype(np.int32)
    cnts1 = np.zeros((n_exp + 1, n_exp), np.int32)
    for p in range(n_exp):
        for i in range(p * tpt, min(p * tpt + tpt, numel)):
            cnts1[p + 1, topk[i]] += 1
    cnts2 = np.cumsum(cnts1, axis=0).astype(np.int32)
    padded = -(-cnts2[n_exp] // 16) * 16
    cumsum = np.concatenate([[0], np.cumsum(padded)]).astype(np.int32)
    hot = np.where(rng.random(200) < 0.4, 3, rng.integers(0, n_exp, 200)).astype(np.int32)
    rep = rng.integers(0, 1000, (4, 24)).astype(np.int64)
    rep[:, 6] = rep[:, 2]  # a repeated token
    rep[1, 18:] = 1000  # padding
    rep[3, 10:] = 1000
    offsets = np.array([0, 5, 12, 12, 30, 41, 50], np.int64)
    slots = rng.choice(96, 8, replace=False).astype(np.int64)
    slots[5] = -1
    return {
        "fresh14py_triton_bsa_lut_4x4": lut, "fresh14py_triton_bsa_nnz_4": nnz,
        "fresh14py_triton_moe_topk_ids_32": topk,
        "fresh14py_triton_moe_cnts_stage1": cnts1.ravel(), "fresh14py_triton_moe_cnts_stage2": cnts2.ravel(),
        "fresh14py_triton_moe_cumsum_9": cumsum,
        "fresh14py_triton_moe_hot_ids_200": hot,
        "fresh14py_triton_top_k_4": np.array([50, 1000, 5, 200], np.int32),
        "fresh14py_triton_top_p_4": np.array([0.9, 0.5, 1.0, 0.8], np.float32),
        "fresh14py_triton_rep_ids_4x24": rep,
        "fresh14py_triton_bag_indices_50": rng.integers(0, 1000, 50).astype(np.int64),
        "fresh14py_triton_bag_offsets_7": offsets,
        "fresh14py_triton_slot_mapping_8": slots,
        "fresh14py_triton_spec_cu_draft_3": np.array([2, 3, 5], np.int32),
        "fresh14py_triton_spec_draft_ids_5": rng.integers(0, 256, 5).astype(np.int32),
        "fresh14py_triton_spec_bonus_3": rng.integers(0, 256, 3).astype(np.int32),
        "fresh14py_triton_spec_recovered_5": rng.integers(0, 256, 5).astype(np.int32),
    }


def _fresh7_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the seventh fresh batch (kernels/fresh7_*.cu): ggml q4_0 / q8_0 blocks with real half
    scales, rope and rotary position ids, vLLM slot mappings (distinct slots, some -1 = padding), smooth remap
    maps, two inverse affine matrices, embedding_bag offsets (empty bags included), cross-entropy targets with
    ignore_index (-100) and a CSR matrix with rows of 0 to 50 nonzeros (their own generator)."""
    rng = np.random.default_rng(20270107)

    def blocks(n, qk_bytes, signed):
        d = rng.uniform(0.002, 0.02, n).astype(np.float16).view(np.uint8).reshape(n, 2)
        q = (rng.integers(-127, 128, (n, qk_bytes)).astype(np.int8).view(np.uint8) if signed
             else rng.integers(0, 256, (n, qk_bytes)).astype(np.uint8))
        return np.concatenate([d, q], axis=1).reshape(-1)

    def slots(ntok, nslots, pad):
        s = rng.choice(nslots, ntok, replace=False).astype(np.int64)
        s[rng.choice(ntok, pad, replace=False)] = -1
        return s

    def affine_inverse(angle_deg, scale, shear, cx, cy, tx, ty):
        a = np.deg2rad(angle_deg)
        fwd = np.array([[scale * np.cos(a), -scale * np.sin(a) + shear], [scale * np.sin(a), scale * np.cos(a)]])
        inv = np.linalg.inv(fwd)
        t = np.array([cx, cy]) - inv @ np.array([cx + tx, cy + ty])
        return np.concatenate([inv, t[:, None]], axis=1).reshape(-1).astype(np.float32)

    def bag_offsets(nbags, nnz):
        lens = rng.choice([0, 1, 2, 5, 9, 16], nbags).astype(np.int64)
        lens = np.floor(lens * nnz / max(1, lens.sum())).astype(np.int64)
        return np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)

    def targets(n, v):
        t = rng.integers(0, v, n).astype(np.int64)
        t[rng.choice(n, max(1, n // 4), replace=False)] = -100
        return t

    yy, xx = np.mgrid[0:20, 0:48].astype(np.float32)
    r2 = ((xx - 24) / 24) ** 2 + ((yy - 10) / 10) ** 2
    mx = (20 + (xx - 24) * (0.8 + 0.15 * r2) + 0.5).astype(np.float32)  # barrel-like lens map into a 40 x 30 image
    my = (15 + (yy - 10) * (1.3 + 0.2 * r2) + 0.25).astype(np.float32)
    lens = rng.choice([0, 1, 3, 8, 31, 32, 33, 50], 40)
    row_ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    cols = np.concatenate([np.sort(rng.choice(96, k, replace=False)) for k in lens]).astype(np.int32)
    return {
        "fresh7_q4_0_blocks_2048": blocks(2048, 16, False),
        "fresh7_q8_0_blocks_256": blocks(256, 32, True),
        "fresh7_rope_pos_16": np.concatenate([np.arange(500, 508), rng.integers(0, 4096, 8)]).astype(np.int32),
        "fresh7_rotary_pos_8": rng.integers(0, 256, 8).astype(np.int64),
        "fresh7_slots_8_of_96": slots(8, 96, 2),
        "fresh7_slots_6_of_32": slots(6, 32, 1),
        "fresh7_remap_mx_20x48": mx,
        "fresh7_remap_my_20x48": my,
        "fresh7_affine_rot20": affine_inverse(20, 0.8, 0.0, 30, 20, 2, -1),
        "fresh7_affine_shear": affine_inverse(-7, 1.1, 0.25, 16, 12, 0, 0),
        "fresh7_bag_offsets_24_of_200": bag_offsets(24, 200),
        "fresh7_bag_offsets_10_of_64": bag_offsets(10, 64),
        "fresh7_ce_target_8_v1000": targets(8, 1000),
        "fresh7_ce_target_6_v3001": targets(6, 3001),
        "fresh7_csr_row_ptr_40": row_ptr,
        "fresh7_csr_cols_40x96": cols,
    }


def _f8_hash32(k: np.ndarray) -> np.ndarray:
    """The murmur3 finaliser of kernels/fresh8_common.cuh (f8::hash32) on uint32."""
    k = k.astype(np.uint64)
    m = np.uint64(0xffffffff)
    k ^= k >> np.uint64(16)
    k = (k * np.uint64(0x85ebca6b)) & m
    k ^= k >> np.uint64(13)
    k = (k * np.uint64(0xc2b2ae35)) & m
    k ^= k >> np.uint64(16)
    return k.astype(np.uint32)


def _fresh8_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the eighth fresh CUDA batch (kernels/fresh8_*.cu): hash-table keys with repeats, an
    empty table and two tables built on the host with the kernels' hash and linear probing (with queries, half of
    them absent), a CSR graph with a frontier and its levels, small graphs' edge lists for union-find, runs for
    RLE, a sorted sparse vector's indices, sorted segment keys and radix-sort keys (their own generator)."""
    rng = np.random.default_rng(20270301)
    out: dict[str, np.ndarray] = {}
    for cap, nkeys, ndistinct in ((512, 600, 150), (256, 300, 110)):
        pool = rng.choice(2**31 - 1, ndistinct, replace=False).astype(np.uint32)
        out[f"fresh8_hash_keys_{nkeys}"] = pool[rng.integers(0, ndistinct, nkeys)]
        out[f"fresh8_hash_empty_{cap}"] = np.full(cap, 0xffffffff, np.uint32)
        keys = np.full(cap, 0xffffffff, np.uint32)
        vals = np.zeros(cap, np.uint32)
        for k in pool:
            slot = int(_f8_hash32(np.array([k]))[0]) & (cap - 1)
            while keys[slot] != 0xffffffff:
                slot = (slot + 1) & (cap - 1)
            keys[slot] = k
            vals[slot] = rng.integers(1, 9)
        nq = 400 if cap == 512 else 200
        absent = rng.integers(2**31, 2**32 - 2, nq // 2, dtype=np.uint64).astype(np.uint32)
        q = np.concatenate([pool[rng.integers(0, ndistinct, nq - nq // 2)], absent])
        rng.shuffle(q)
        out[f"fresh8_hash_table_keys_{cap}"] = keys
        out[f"fresh8_hash_table_vals_{cap}"] = vals
        out[f"fresh8_hash_queries_{nq}"] = q
    # a CSR graph of 300 vertices (degrees 0 to 45, some past a warp), a frontier of 40 and one of 100
    nv = 300
    deg = rng.choice([0, 1, 2, 3, 5, 8, 13, 31, 33, 45], nv)
    out["fresh8_bfs_row_ptr"] = np.concatenate([[0], np.cumsum(deg)]).astype(np.int32)
    out["fresh8_bfs_cols"] = np.concatenate([np.sort(rng.choice(nv, d, replace=False)) for d in deg]).astype(np.int32)
    level = np.full(nv, -1, np.int32)
    visited = rng.choice(nv, 120, replace=False)
    level[visited] = rng.integers(0, 3, 120)
    out["fresh8_bfs_level"] = level
    out["fresh8_bfs_frontier_40"] = rng.choice(visited, 40, replace=False).astype(np.int32)
    out["fresh8_bfs_frontier_100"] = rng.choice(visited, 100, replace=False).astype(np.int32)
    # union-find: 4 random graphs of 200 vertices, 3 path-like graphs of 500 (long chains)
    for ng, gnv, kind in ((4, 200, "random"), (3, 500, "chains")):
        offs, edges = [0], []
        for _ in range(ng):
            if kind == "random":
                m = int(rng.integers(0, 300))
                e = rng.integers(0, gnv, (m, 2))
            else:
                perm = rng.permutation(gnv)
                e = np.stack([perm[:-1], perm[1:]], 1)[rng.random(gnv - 1) < 0.9]
                e = e[rng.permutation(len(e))]
            edges.append(e)
            offs.append(offs[-1] + len(e))
        out[f"fresh8_uf_off_{ng}x{gnv}"] = np.array(offs, np.int32)
        out[f"fresh8_uf_edges_{ng}x{gnv}"] = np.concatenate(edges).astype(np.int32).reshape(-1)
    # RLE inputs: runs of 1 to 40, and a small alphabet
    runs = np.repeat(rng.integers(0, 50, 200), rng.integers(1, 41, 200))[:1000]
    out["fresh8_rle_runs_1000"] = runs.astype(np.int32)
    out["fresh8_rle_alpha_777"] = rng.integers(0, 3, 777).astype(np.int32)
    out["fresh8_sparse_idx_200_of_1000"] = np.sort(rng.choice(1000, 200, replace=False)).astype(np.int32)
    out["fresh8_sparse_idx_77_of_300"] = np.sort(rng.choice(300, 77, replace=False)).astype(np.int32)
    # sorted segment keys: segments of 1 to 100 (2000 keys), and mostly singletons (500 keys)
    lens = rng.integers(1, 101, 100)
    k = np.repeat(np.arange(100), lens)[:2000]
    out["fresh8_seg_keys_2000"] = k.astype(np.int32)
    lens = rng.choice([1, 1, 1, 2, 7], 500)
    out["fresh8_seg_keys_500"] = np.repeat(np.arange(500), lens)[:500].astype(np.int32)
    out["fresh8_radix_keys_1000"] = rng.integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32)
    out["fresh8_radix_keys_900"] = (rng.integers(0, 2**32, 900, dtype=np.uint64).astype(np.uint32) & 0xFFFF0F3F)
    return out


def _fresh9_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the ninth fresh CUDA batch (kernels/fresh9_*.cu): gather indices (a permutation,
    and clusters of 8 lanes around random 32-element windows), histogram keys (uniform and skewed), vote inputs whose tiles are all above, all below and mixed about the threshold, a local-memory
    selector, and atomic keys (their own generator)."""
    rng = np.random.default_rng(20270415)
    out: dict[str, np.ndarray] = {}
    out["fresh9_perm_1024"] = rng.permutation(1024).astype(np.int32)
    bases = rng.integers(0, 4096 // 32, 768 // 8) * 32
    lanes = np.concatenate([rng.permutation(32)[:8] for _ in range(768 // 8)])
    out["fresh9_clustered_768_of_4096"] = (np.repeat(bases, 8) + lanes).astype(np.int32)
    out["fresh9_hist_keys_uniform_4096"] = rng.integers(0, 2**32, 4096, dtype=np.uint64).astype(np.uint32)
    out["fresh9_hist_keys_skewed_3000"] = np.minimum(rng.zipf(1.3, 3000) - 1, 2**31).astype(np.uint32)
    # 4 tiles of 256 (the last ragged, 1000 in all): all above 500, all below, alternating runs, random
    v = np.concatenate([rng.integers(501, 1000, 256), rng.integers(0, 500, 256),
                        np.where((np.arange(256) // 7) % 2 == 0, 800, 100), rng.integers(0, 1000, 232)])
    out["fresh9_votes_1000"] = v.astype(np.int32)
    out["fresh9_local_sel_512"] = rng.integers(0, 256, 512).astype(np.int32)
    out["fresh9_atomic_keys_2000"] = rng.integers(0, 100000, 2000).astype(np.int32)
    return out


def _fresh11_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the eleventh fresh CUDA batch (kernels/fresh11_*.cu): int64 row indices for index_select
    and a sorted embedding backward (runs of equal indices, their original positions), radix-select keys half of
    which share the top byte 0x3A, a CSR matrix of 300 rows (empty to 97 entries), an ELL matrix (column-major,
    padded with -1), a sorted COO matrix of 2000 entries with rows longer than a block's chunk and the carries its
    segmented reduction leaves, gather indices (random with repeats, sorted and clustered, a permutation) and
    atomic keys (a permutation: distinct bins; random: colliding)."""
    rng = np.random.default_rng(20270702)
    out: dict[str, np.ndarray] = {}
    out["fresh11_idx64_300_of_500"] = rng.integers(0, 500, 300).astype(np.int64)
    emb = np.sort(rng.choice(60, 400, p=np.arange(1, 61) ** -1.0 / np.sum(np.arange(1, 61) ** -1.0)))
    out["fresh11_emb_sorted_400_of_60"] = emb.astype(np.int64)
    out["fresh11_emb_pos_400"] = rng.permutation(400).astype(np.int64)
    keys = rng.integers(0, 2**32, 4000, dtype=np.uint64).astype(np.uint32)
    top = rng.random(4000) < 0.5
    keys[top] = (keys[top] & np.uint32(0x00FFFFFF)) | np.uint32(0x3A000000)
    out["fresh11_radix_keys_4000"] = keys
    rp, cols, vals = _csr(rng, rows=300, cols=500)
    out["fresh11_csr_row_ptr_300"], out["fresh11_csr_cols_300"], out["fresh11_csr_vals_300"] = rp, cols, vals
    nrows, width = 200, 12
    ell_c = np.full((width, nrows), -1, np.int32)
    ell_v = np.zeros((width, nrows), np.float32)
    for r, m in enumerate(rng.integers(0, width + 1, nrows)):
        ell_c[:m, r] = np.sort(rng.choice(500, m, replace=False))
        ell_v[:m, r] = rng.uniform(-1, 1, m)
    out["fresh11_ell_cols_200x12"], out["fresh11_ell_vals_200x12"] = ell_c.ravel(), ell_v.ravel()
    lens = []
    while sum(lens) < 2000:
        lens.append(int(rng.choice([0, 1, 2, 5, 9, 40, 300])))
    coo_rows = np.repeat(np.arange(len(lens)), lens)[:2000].astype(np.int32)
    out["fresh11_coo_rows_2000"] = coo_rows
    out["fresh11_coo_cols_2000"] = rng.integers(0, 400, 2000).astype(np.int32)
    out["fresh11_coo_vals_2000"] = rng.uniform(-1, 1, 2000).astype(np.float32)
    out["fresh11_coo_carry_rows_8"] = coo_rows[[min((b + 1) * 256, 2000) - 1 for b in range(8)]].astype(np.int32)
    out["fresh11_gather_idx_2000_of_1024"] = rng.integers(0, 1024, 2000).astype(np.int32)
    bases = np.sort(rng.choice(4096 // 16, 1500 // 10, replace=False)) * 16
    out["fresh11_gather_clustered_1500_of_4096"] = (np.repeat(bases, 10) + np.tile(np.arange(10), 150)).astype(np.int32)
    out["fresh11_perm_keys_3000"] = rng.permutation(3000).astype(np.int32)
    out["fresh11_atomic_keys_3000"] = rng.integers(0, 100000, 3000).astype(np.int32)
    return out


def _fresh12_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the twelfth fresh CUDA batch (kernels/fresh12_*.cu): histogram words whose bytes are
    skewed, lower-case text in runs (with spaces) for the textbook's histograms, two sorted int arrays with shared
    values for the circular-buffer merge, a JDS matrix of 300 rows (0 to 17 entries), an undirected tree in CSR
    with the BFS levels and frontiers of two steps (every new vertex reached by exactly one frontier edge, so that
    the step's claims do not depend on timing), radix keys with one pass's locally sorted tiles and bucket offsets,
    token ids and classifier targets."""
    rng = np.random.default_rng(20270810)
    out: dict[str, np.ndarray] = {}
    skew = (np.minimum(rng.zipf(1.5, (700 * 4, 4)) - 1, 255)).astype(np.uint32)
    out["fresh12_skewed_words_2800"] = (skew[:, 0] | (skew[:, 1] << 8) | (skew[:, 2] << 16) | (skew[:, 3] << 24))
    text = []
    while len(text) < 4000:
        c = 32 if rng.random() < 0.12 else int(rng.integers(97, 123))
        text += [c] * int(rng.integers(1, 12))
    out["fresh12_text_runs_4000"] = np.array(text[:4000], np.int8)
    pool = np.sort(rng.integers(0, 3000, 400))
    out["fresh12_merge_a_1000"] = np.sort(np.concatenate([rng.integers(0, 3000, 800), rng.choice(pool, 200)])).astype(np.int32)
    out["fresh12_merge_b_700"] = np.sort(np.concatenate([rng.integers(0, 3000, 550), rng.choice(pool, 150)])).astype(np.int32)
    # JDS: rows sorted by length (descending), column-major iterations
    lens = rng.integers(0, 18, 300)
    order = np.argsort(-lens, kind="stable")
    cols = [np.sort(rng.choice(400, int(n), replace=False)) for n in lens]
    vals = [rng.uniform(-1, 1, int(n)) for n in lens]
    iter_ptr, jc, jv = [0], [], []
    for it in range(int(lens.max())):
        rows = [r for r in order if lens[r] > it]
        jc += [cols[r][it] for r in rows]
        jv += [vals[r][it] for r in rows]
        iter_ptr.append(len(jc))
    out["fresh12_jds_row_perm_300"] = order.astype(np.uint32)
    out["fresh12_jds_iter_ptr_300"] = np.array(iter_ptr, np.uint32)
    out["fresh12_jds_cols_300"] = np.array(jc, np.uint32)
    out["fresh12_jds_vals_300"] = np.array(jv, np.float32)
    # BFS on a tree of levels 1, 5, 30, 120, 500 (undirected: parent <-> child)
    sizes = [1, 5, 30, 120, 500]
    starts = np.cumsum([0] + sizes)
    nv = int(starts[-1])
    adj: list[list[int]] = [[] for _ in range(nv)]
    for lv in range(1, len(sizes)):
        for v in range(starts[lv], starts[lv + 1]):
            p = int(rng.integers(starts[lv - 1], starts[lv]))
            adj[p].append(v)
            adj[v].append(p)
    for a in adj:
        rng.shuffle(a)
    out["fresh12_bfs_src_ptrs_656"] = np.cumsum([0] + [len(a) for a in adj]).astype(np.uint32)
    out["fresh12_bfs_dst_656"] = np.array([v for a in adj for v in a], np.uint32)
    vlevel = np.repeat(np.arange(len(sizes)), sizes)
    for cur in (3, 4):  # the step that finds level `cur`: levels below it set, the rest unvisited
        out[f"fresh12_bfs_level_step{cur}"] = np.where(vlevel < cur, vlevel, 0xFFFFFFFF).astype(np.uint32)
        out[f"fresh12_bfs_frontier_step{cur}"] = rng.permutation(np.arange(starts[cur - 1], starts[cur])).astype(np.uint32)
    # radix sort: a 1-bit pass (bit 5) over 2000 keys in tiles of 256
    keys = rng.integers(0, 2**32, 2000, dtype=np.uint64).astype(np.uint32)
    out["fresh12_radix_keys_2000"] = keys
    tiles, zc = [], []
    for b in range(0, 2000, 256):
        t = keys[b:b + 256]
        bit = (t >> 5) & 1
        tiles.append(np.concatenate([t[bit == 0], t[bit == 1]]))
        zc.append(int(np.sum(bit == 0)))
    zc = np.array(zc, np.uint32)
    oc = np.array([len(t) for t in tiles], np.uint32) - zc
    out["fresh12_radix_tiles_bit5_2000"] = np.concatenate(tiles).astype(np.uint32)
    out["fresh12_radix_zero_counts_8"] = zc
    out["fresh12_radix_zero_offsets_8"] = (np.cumsum(zc) - zc).astype(np.uint32)
    out["fresh12_radix_one_offsets_8"] = (zc.sum() + np.cumsum(oc) - oc).astype(np.uint32)
    out["fresh12_tokens_80_of_300"] = rng.integers(0, 300, 80).astype(np.int32)
    out["fresh12_tokens_51_of_300"] = ((rng.zipf(1.4, 51) - 1) % 300).astype(np.int32)
    out["fresh12_targets_6_of_300"] = rng.integers(0, 300, 6).astype(np.int32)
    out["fresh12_targets_4_of_1003"] = np.array([0, 1002, 517, 999], np.int32)
    return out


def _fresh14py_numba_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fourteenth fresh batch's Numba kernels (kernels/fresh14_numba.py): a 40x40 int8 Ising
    lattice of +-1 spins (60% up); 600 SPH particles in a 0.5 box (a dense blob and a uniform gas) sorted by their cell
    of a 5x5x5 cell list of side 0.1, with each cell's [start, end) run (empty cells 0, 0); 2000 PIC particles on a
    32 x 20 domain (a Gaussian beam and a uniform background, x and y); 2000 uint8 DNA codes (ACGT = 0..3, with a few
    runs of N = 4); a 36 x 200 CSR matrix in float64 (rows of 0 to 90 nonzeros, one empty, sorted columns); a 32x32
    lower-triangular float32 tile with a dominant diagonal; a 2000-long boolean mask (30% set)."""
    rng = np.random.default_rng(20270701)
    spins = np.where(rng.random((40, 40)) < 0.6, 1, -1).astype(np.int8)

    ncell, cs = 5, 0.1
    blob = np.clip(rng.normal(0.25, 0.06, (300, 3)), 0.0, 0.4999)
    gas = rng.uniform(0.0, 0.4999, (300, 3))
    p = np.concatenate([blob, gas]).astype(np.float32)
    cidx = np.minimum((p / np.float32(cs)).astype(np.int64), ncell - 1)
    cell = (cidx[:, 2] * ncell + cidx[:, 1]) * ncell + cidx[:, 0]
    order = np.argsort(cell, kind="stable")
    p, cell = p[order], cell[order]
    start = np.zeros(ncell ** 3, np.int32)
    end = np.zeros(ncell ** 3, np.int32)
    for c in np.unique(cell):
        run = np.flatnonzero(cell == c)
        start[c], end[c] = run[0], run[-1] + 1

    beam = rng.normal((16.0, 10.0), (2.5, 1.5), (1200, 2))
    bg = rng.uniform((0.0, 0.0), (32.0, 20.0), (800, 2))
    xy = np.concatenate([beam, bg])
    xy[:, 0] = np.clip(xy[:, 0], 0.0, 31.99)
    xy[:, 1] = np.clip(xy[:, 1], 0.0, 19.99)
    xy = xy[rng.permutation(len(xy))].astype(np.float32)

    seq = rng.integers(0, 4, 2000).astype(np.uint8)
    for s0 in (300, 301, 302, 1111, 1500, 1501, 1502, 1503, 1504):
        seq[s0] = 4

    lens = rng.integers(0, 91, 36)
    lens[5] = 0
    lens[17] = 3
    indptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    cols = np.concatenate([np.sort(rng.choice(200, k, replace=False)) for k in lens]).astype(np.int32)
    vals = rng.uniform(-1.0, 1.0, len(cols))

    L = np.tril(rng.uniform(-0.1, 0.1, (32, 32)), -1) + np.diag(rng.uniform(2.0, 3.0, 32))
    mask = rng.random(2000) < 0.3
    return {
        "fresh14py_numba_spins_40x40": spins,
        "fresh14py_numba_sph_pos_600": p,
        "fresh14py_numba_sph_cell_start_125": start,
        "fresh14py_numba_sph_cell_end_125": end,
        "fresh14py_numba_pic_x_2000": np.ascontiguousarray(xy[:, 0]),
        "fresh14py_numba_pic_y_2000": np.ascontiguousarray(xy[:, 1]),
        "fresh14py_numba_dna_2000": seq,
        "fresh14py_numba_csr_indptr_36": indptr,
        "fresh14py_numba_csr_indices_36": cols,
        "fresh14py_numba_csr_data_36": vals,
        "fresh14py_numba_lower_32": L.astype(np.float32),
        "fresh14py_numba_mask_2000": mask,
    }


def _fresh13_bptree(rng, order: int, nrec: int, leaf_keys: int, nq: int) -> dict[str, np.ndarray]:
    """Rodinia b+tree's knode array for findK (int location; int indices[order + 1]; int keys[order + 1]; bool
    is_leaf; int num_keys: 2 * order + 5 ints a node), two levels of inner nodes over leaves of leaf_keys records:
    an inner node's keys are its children's smallest keys, INT_MAX past the last child; a leaf's are its records' keys,
    -1 past the last. The queries: keys of the tree (the smallest and the largest among them) and two that are not."""
    keys = np.sort(rng.choice(100000, nrec, replace=False)).astype(np.int64)
    leaves = [np.arange(i, min(i + leaf_keys, nrec)) for i in range(0, nrec, leaf_keys)]
    groups = np.array_split(np.arange(len(leaves)), -(-len(leaves) // order))
    n_inner = len(groups)
    width = 2 * order + 5
    nodes = np.zeros((1 + n_inner + len(leaves), width), np.int64)
    big = np.iinfo(np.int32).max

    def inner(row, children, firsts):
        nodes[row, 0] = row
        nodes[row, 1:1 + order + 1] = 0
        nodes[row, 1:1 + len(children)] = children
        nodes[row, 2 + order:2 + order + order + 1] = big
        nodes[row, 2 + order:2 + order + len(children)] = firsts
        nodes[row, 2 * order + 3] = 0
        nodes[row, 2 * order + 4] = len(children)

    leaf0 = 1 + n_inner
    inner(0, [1 + g for g in range(n_inner)], [keys[leaves[grp[0]][0]] for grp in groups])
    for g, grp in enumerate(groups):
        inner(1 + g, [leaf0 + int(l) for l in grp], [keys[leaves[int(l)][0]] for l in grp])
    for l, recs in enumerate(leaves):
        row = leaf0 + l
        nodes[row, 0] = row
        nodes[row, 1:1 + len(recs)] = recs
        nodes[row, 2 + order:2 + order + order + 1] = -1
        nodes[row, 2 + order:2 + order + len(recs)] = keys[recs]
        nodes[row, 2 * order + 3] = 1
        nodes[row, 2 * order + 4] = len(recs)
    present = rng.choice(nrec, nq - 4, replace=False)
    q = [keys[0], keys[-1], *keys[present]]
    absent = [int(k) for k in range(int(keys[0]) + 1, int(keys[-1])) if k not in set(keys.tolist())]
    q += [absent[3], absent[len(absent) // 2]]
    return {f"fresh13_bptree_o{order}_knodes": nodes.astype(np.int32).ravel(),
            f"fresh13_bptree_o{order}_records": rng.integers(1, 1 << 20, nrec).astype(np.int32),
            f"fresh13_bptree_o{order}_keys": np.array(q, np.int32)}


def _fresh13_lavamd_boxes(nbx: int, nby: int, nbz: int, par: int) -> np.ndarray:
    """lavaMD's box_str array as int32 words (x, y, z, number, long offset, nn, pad, nei[26] of (x, y, z, number,
    long offset)): the boxes of an nbx x nby x nbz grid, every other box within one step a neighbour."""
    coords = [(x, y, z) for z in range(nbz) for y in range(nby) for x in range(nbx)]
    arr = np.zeros((len(coords), 164), np.int32)
    for b, (x, y, z) in enumerate(coords):
        nei = [n for n, (u, v, w) in enumerate(coords)
               if n != b and abs(u - x) <= 1 and abs(v - y) <= 1 and abs(w - z) <= 1]
        arr[b, 0:5] = [x, y, z, b, b * par]
        arr[b, 6] = len(nei)
        for k, n in enumerate(nei):
            arr[b, 8 + 6 * k:8 + 6 * k + 5] = [*coords[n], n, n * par]
    return arr.ravel()


def _fresh13_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the thirteenth fresh CUDA batch (kernels/fresh13_*.cu): diagonally dominant matrices (LU
    and Gaussian elimination divide by their pivots), B+ trees of order 16 and 48 with their queries, streamcluster's
    points (weight, long assign, cost) and centre table, lavaMD's box tables (2x2x1 and 2x2x2 boxes), cutcp's atom
    bins (0 to 8 atoms a bin, packed), tpacf's unit vectors and angular bin boundaries, LBM grids with their flag
    field, MD positions on a jittered lattice with each atom's nearest neighbours, radix-sort keys with their scanned
    digit counts, and tridiagonal matrices with bisection intervals (eigenvalue counts at their ends)."""
    rng = np.random.default_rng(20270901)
    out: dict[str, np.ndarray] = {}
    for n in (64, 96, 200):
        a = rng.uniform(-1, 1, (n, n))
        a[np.arange(n), np.arange(n)] = n + rng.uniform(1, 2, n)
        out[f"fresh13_diagdom_{n}"] = a.astype(np.float32).ravel()
    out.update(_fresh13_bptree(rng, 16, 600, 12, 8))
    out.update(_fresh13_bptree(rng, 48, 2000, 40, 9))
    # streamcluster: Point_Struct {float weight; long assign; float cost} = 24 bytes, as int32 words
    n = 1000
    pts = np.zeros((n, 6), np.int32)
    pts[:, 0] = rng.uniform(1, 3, n).astype(np.float32).view(np.int32)
    pts[:, 2] = rng.integers(0, n, n)
    pts[:, 4] = rng.uniform(0, 40, n).astype(np.float32).view(np.int32)
    out["fresh13_sc_points_1000"] = pts.ravel()
    out["fresh13_sc_center_table_1000"] = rng.integers(0, 5, n).astype(np.int32)
    out["fresh13_lavamd_boxes_2x2x1_p100"] = _fresh13_lavamd_boxes(2, 2, 1, 100)
    out["fresh13_lavamd_boxes_2x2x2_p40"] = _fresh13_lavamd_boxes(2, 2, 2, 40)
    # cutcp: 6x6x6 bins of 8 float4 atoms (x, y, z, q); bin i spans [(i - 1) * 2, i * 2) along each axis
    bins = np.zeros((6, 6, 6, 8, 4), np.float32)
    for k in range(6):
        for j in range(6):
            for i in range(6):
                cnt = int(rng.integers(0, 9))
                lo = (np.array([i, j, k]) - 1) * 2.0
                bins[k, j, i, :cnt, :3] = lo + rng.uniform(0, 2.0, (cnt, 3))
                bins[k, j, i, :cnt, 3] = rng.choice([-1, 1], cnt) * rng.uniform(0.1, 1.0, cnt)
    out["fresh13_cutcp_bins_6x6x6"] = bins.ravel()
    # tpacf: unit vectors, and cosines of angles from 0 to pi (decreasing)
    v = rng.normal(size=(384, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    for c, name in enumerate("xyz"):
        out[f"fresh13_tpacf_{name}_384"] = v[:, c].astype(np.float32)
    out["fresh13_tpacf_binb_20"] = np.cos(np.pi * (np.arange(21) / 20.0) ** 1.5).astype(np.float32)
    # lbm: 19 distributions in 0.02..0.08 and the flags (0, obstacle 1, accel 2) as the 20th field's bits
    for sx, sy, sz in ((40, 3, 3), (64, 2, 4)):
        cells = sx * sy * (sz + 4)
        g = rng.uniform(0.02, 0.08, (20, cells)).astype(np.float32)
        g[19] = rng.choice(np.array([0, 0, 0, 1, 2], np.uint32), cells).view(np.float32)
        out[f"fresh13_lbm_src_{sx}x{sy}x{sz}"] = g.ravel()
    # md: a jittered lattice (spacing 1.2), the nearest neighbours of each atom, column-major (j * inum + i)
    for dims, count, dt in (((8, 8, 6), 16, np.float32), ((8, 6, 4), 12, np.float64)):
        grid = np.stack(np.meshgrid(*[np.arange(d) for d in dims], indexing="ij"), -1).reshape(-1, 3) * 1.2
        pos = grid + rng.uniform(-0.1, 0.1, grid.shape)
        inum = len(pos)
        d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
        np.fill_diagonal(d2, np.inf)
        near = np.argsort(d2, axis=1, kind="stable")[:, :count]
        p4 = np.zeros((inum, 4), dt)
        p4[:, :3] = pos
        tag = "f32" if dt == np.float32 else "f64"
        out[f"fresh13_md_pos_{tag}_{inum}"] = p4.ravel()
        out[f"fresh13_md_neigh_{inum}x{count}"] = np.ascontiguousarray(near.T).astype(np.int32).ravel()
    # radix sort: 5000 keys, the 4-bit digit at shift 4, 4 blocks (SHOC's regions: n/4/grid uint4s, the rest
    # to the last block); isums[d * grid + b] the exclusive scan of the counts in that order
    keys = rng.integers(0, 2**32, 5000, dtype=np.uint64).astype(np.uint32)
    out["fresh13_sort_keys_5000"] = keys
    grid, n4 = 4, 5000 // 4
    region = n4 // grid
    counts = np.zeros((16, grid), np.int64)
    for b in range(grid):
        stop = n4 if b == grid - 1 else (b + 1) * region
        dig = (keys[4 * b * region:4 * stop] >> 4) & 0xF
        counts[:, b] = np.bincount(dig, minlength=16)
    flat = counts.ravel()
    out["fresh13_sort_isums_5000_g4_s4"] = (np.cumsum(flat) - flat).astype(np.uint32)
    # eigenvalues: symmetric tridiagonal matrices, Gershgorin's interval cut into pieces, those holding eigenvalues
    for n, pieces in ((100, 80), (48, 50)):
        d = rng.uniform(-1, 1, n)
        s = rng.uniform(0.2, 1.0, n - 1)
        ev = np.linalg.eigvalsh(np.diag(d) + np.diag(s, 1) + np.diag(s, -1))
        rad = np.abs(np.concatenate([[0], s])) + np.abs(np.concatenate([s, [0]]))
        edges = np.linspace((d - rad).min() - 1e-3, (d + rad).max() + 1e-3, pieces + 1)
        lc = np.searchsorted(ev, edges[:-1])
        rc = np.searchsorted(ev, edges[1:])
        keep = rc > lc
        out[f"fresh13_bisect_d_{n}"] = d.astype(np.float32)
        out[f"fresh13_bisect_s_{n}"] = s.astype(np.float32)
        out[f"fresh13_bisect_left_{n}"] = edges[:-1][keep].astype(np.float32)
        out[f"fresh13_bisect_right_{n}"] = edges[1:][keep].astype(np.float32)
        out[f"fresh13_bisect_lcount_{n}"] = lc[keep].astype(np.uint32)
        out[f"fresh13_bisect_rcount_{n}"] = rc[keep].astype(np.uint32)
    return out


def _fresh14_apps_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fourteenth fresh batch's framework kernels (kernels/fresh14_apps.cu): THCUNN's lookup
    table backward over sorted 1-based token ids (with their 1-based positions and per-position counts, the
    padding id 3 among them), and ONNX Runtime's gather indices (int64, some negative: wrapped; one out of range)."""
    rng = np.random.default_rng(20271130)
    out = {}
    for numel, vocab in ((32, 40), (16, 12)):
        ids = rng.integers(1, vocab + 1, numel)
        ids[rng.integers(0, numel, 2)] = 3
        order = np.argsort(ids, kind="stable")
        srt = ids[order]
        counts = np.array([np.count_nonzero(ids == v) for v in srt])
        out[f"fresh14_apps_lut_input_{numel}_of_{vocab}"] = srt.astype(np.int64)
        out[f"fresh14_apps_lut_indices_{numel}"] = (order + 1).astype(np.int64)
        out[f"fresh14_apps_lut_count_{numel}_of_{vocab}"] = counts.astype(np.int64)
    g = rng.integers(0, 50, 12)
    g[[2, 7]] -= 50
    out["fresh14_apps_gather_idx_12_of_50"] = g.astype(np.int64)
    g = rng.integers(-30, 30, 7)
    g[4] = 31
    out["fresh14_apps_gather_idx_7_of_30"] = g.astype(np.int64)
    return out
def _fresh14_kernels_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fourteenth fresh batch's LLM inference kernels (kernels/fresh14_kernels.cu): ggml
    q8_1 blocks quantised from real vectors (half2 ds = (d, sum)), get_rows token ids, rope positions (int32) and
    vLLM rotary positions (int64), flash-layout slot mappings (distinct, some -1 = padding), MoE top-k expert ids
    (skewed towards a few experts) and FasterTransformer's padding offsets of a ragged batch."""
    rng = np.random.default_rng(20271129)

    def q8_1(nvals):
        x = rng.uniform(-1.5, 1.5, (nvals // 32, 32)).astype(np.float32)
        amax = np.abs(x).max(axis=1)
        d = amax / 127
        q = np.round(x / d[:, None]).astype(np.int8)
        ds = np.stack([d, x.sum(axis=1)], axis=1).astype(np.float16).view(np.uint8)
        return np.concatenate([ds, q.view(np.uint8)], axis=1).reshape(-1)

    def slots(ntok, nslots, pad):
        sl = rng.choice(nslots, ntok, replace=False).astype(np.int64)
        sl[rng.choice(ntok, pad, replace=False)] = -1
        return sl

    def topk_ids(ntok, k, nexp):
        p = rng.dirichlet(np.full(nexp, 0.4))
        return np.stack([rng.choice(nexp, k, replace=False, p=p) for _ in range(ntok)]).astype(np.int32).ravel()

    lens = [9, 8]  # two sequences padded to 12
    pad = np.concatenate([np.full(n, b * 12 - sum(lens[:b])) for b, n in enumerate(lens)]).astype(np.int32)
    return {
        "fresh14_q8_1_1024": q8_1(1024),
        "fresh14_q8_1_2x512": q8_1(1024),
        "fresh14_get_rows_ids_4_of_50": rng.integers(0, 50, 4).astype(np.int32),
        "fresh14_get_rows_ids_2x3_of_40": rng.integers(0, 40, 6).astype(np.int32),
        "fresh14_rope_pos_3": np.array([0, 17, 4095], np.int32),
        "fresh14_rotary_pos_6": rng.integers(0, 256, 6).astype(np.int64),
        "fresh14_slots_8_of_96": slots(8, 96, 2),
        "fresh14_moe_topk_40x2_e16": topk_ids(40, 2, 16),
        "fresh14_moe_topk_7x8_e64": topk_ids(7, 8, 64),
        "fresh14_padding_offset_17": pad,
    }


def _pointer_table_data() -> dict[str, np.ndarray]:
    """kernels/pointer_tables*: the grouped GEMM's (M, N, K) and leading dimensions of three groups (one a full
    64x64 problem, two narrow ones), and jagged row lengths of 0 to 70 elements."""
    return {"ptab_sizes": np.array([64, 64, 64, 32, 64, 32, 64, 32, 64], np.int32),
            "ptab_lds": np.array([64, 64, 64, 32, 64, 64, 64, 32, 32], np.int32),
            "ptab_lengths": np.array([70, 0, 33, 1, 64, 17, 40, 5], np.int32)}


def _f14_aes_tables() -> tuple[np.ndarray, np.ndarray]:
    """OpenSSL's encryption T-tables Te0..Te3 (big-endian words: 2s, s, s, 3s and its rotations) and the
    expanded key of a fixed AES-128 key (44 words)."""
    def xt(a):
        return ((a << 1) ^ 0x11B) if a & 0x80 else (a << 1)

    def mul(a, b):
        p = 0
        while b:
            if b & 1:
                p ^= a
            a, b = xt(a), b >> 1
        return p

    def inv(a):
        r, e = 1, 254
        while e:
            if e & 1:
                r = mul(r, a)
            a, e = mul(a, a), e >> 1
        return r if a else 0

    sbox = []
    for a in range(256):
        b = inv(a) if a else 0
        s = b
        for k in range(1, 5):
            s ^= ((b << k) | (b >> (8 - k))) & 0xFF
        sbox.append(s ^ 0x63)
    assert sbox[0] == 0x63 and sbox[1] == 0x7C and sbox[0x53] == 0xED
    te0 = [(mul(s, 2) << 24) | (s << 16) | (s << 8) | mul(s, 3) for s in sbox]

    def ror(x, n):
        return ((x >> n) | (x << (32 - n))) & 0xFFFFFFFF

    te = te0 + [ror(x, 8) for x in te0] + [ror(x, 16) for x in te0] + [ror(x, 24) for x in te0]
    key = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
    w = [int.from_bytes(key[4 * i:4 * i + 4], "big") for i in range(4)]
    rcon = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36]
    for i in range(4, 44):
        t = w[i - 1]
        if i % 4 == 0:
            t = ((t << 8) | (t >> 24)) & 0xFFFFFFFF
            t = (sbox[t >> 24] << 24) | (sbox[(t >> 16) & 255] << 16) | (sbox[(t >> 8) & 255] << 8) | sbox[t & 255]
            t ^= rcon[i // 4 - 1] << 24
        w.append(w[i - 4] ^ t)
    assert w[43] == 0xB6630CA6  # FIPS-197 appendix A.1
    return np.array(te, np.uint32), np.array(w, np.uint32)


def _f14_csr(rng, rows: int, cols: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    nnz = rng.integers(lo, hi + 1, rows)
    nnz[rng.integers(0, rows, 2)] = 0  # a couple of empty rows
    ci = [np.sort(rng.choice(cols, int(k), replace=False)) for k in nnz]
    ptr = np.concatenate([[0], np.cumsum(nnz)]).astype(np.int32)
    col = np.concatenate(ci).astype(np.int32)
    val = rng.uniform(0.1, 1.0, len(col)).astype(np.float32)
    return ptr, col, val


def _f14_merge_path(a: np.ndarray, b: np.ndarray, diag: int) -> int:
    begin, end = max(0, diag - len(b)), min(diag, len(a))
    while begin < end:
        mid = (begin + end) >> 1
        if not (b[diag - 1 - mid] < a[mid]):
            begin = mid + 1
        else:
            end = mid
    return begin


def _fresh14_algos_data() -> dict[str, np.ndarray]:
    """The .npy inputs of the fourteenth fresh batch's classic algorithms (kernels/fresh14_algos.cu): AES T-tables
    and an expanded key, CSR and ELL matrices (empty rows, rows longer than a warp), an in-edge CSR with out-degrees
    for PageRank, edge lists and distances for Bellman-Ford (sources never relaxed in the launch, distinct
    destinations, so that no branch depends on the order of the atomics), a random graph's sorted adjacency with
    its u < v edges (triangles), augmented [A | I] matrices for Gauss-Jordan, compaction input with its block
    offsets, and two sorted key arrays with their merge-path partitions."""
    rng = np.random.default_rng(20271114)
    out: dict[str, np.ndarray] = {}
    te, rk = _f14_aes_tables()
    out["fresh14_algos_aes_te"], out["fresh14_algos_aes_rk"] = te, rk
    for tag, rows, cols, lo, hi in (("r30", 30, 200, 1, 70), ("r37", 37, 300, 0, 90), ("r64", 64, 150, 0, 20)):
        p, c, v = _f14_csr(rng, rows, cols, lo, hi)
        out[f"fresh14_algos_csr_{tag}_ptr"], out[f"fresh14_algos_csr_{tag}_col"] = p, c
        out[f"fresh14_algos_csr_{tag}_val"] = v
    for tag, rows, pitch, width, cols, dt in (("f500", 500, 512, 7, 400, np.float32),
                                              ("d200", 200, 224, 12, 250, np.float64)):
        aj = np.full((width, pitch), -1, np.int32)
        ax = np.zeros((width, pitch), dt)
        for r in range(rows):
            k = int(rng.integers(2, width + 1))
            aj[:k, r] = np.sort(rng.choice(cols, k, replace=False))
            ax[:k, r] = rng.uniform(-1, 1, k)
        out[f"fresh14_algos_ell_{tag}_aj"], out[f"fresh14_algos_ell_{tag}_ax"] = aj.ravel(), ax.ravel()
    n = 1000
    indeg = rng.integers(0, 13, n)
    srcs = [np.sort(rng.choice(n, int(k), replace=False)) for k in indeg]
    out["fresh14_algos_pr_ptr"] = np.concatenate([[0], np.cumsum(indeg)]).astype(np.int32)
    allsrc = np.concatenate(srcs).astype(np.int32)
    out["fresh14_algos_pr_col"] = allsrc
    out["fresh14_algos_pr_outdeg"] = np.maximum(np.bincount(allsrc, minlength=n), 1).astype(np.int32)
    for tag, V, E, lowv, inf, dt in (("i4000", 4000, 2000, 1000, 0x3F3F3F3F, np.int32),
                                     ("l2400", 2400, 1100, 600, 0x3F3F3F3F3F3F3F3F, np.int64)):
        src = rng.integers(0, lowv, E).astype(np.int32)
        dst = (lowv + rng.permutation(V - lowv)[:E]).astype(np.int32)
        w = rng.integers(1, 101, E).astype(np.int32)
        dist = np.empty(V, dt)
        dist[:lowv] = rng.integers(0, 1000, lowv)
        dist[:lowv][rng.random(lowv) < 0.1] = inf
        dist[lowv:] = np.where(rng.random(V - lowv) < 0.5, inf, rng.integers(0, 1200, V - lowv))
        out[f"fresh14_algos_bf_{tag}_src"], out[f"fresh14_algos_bf_{tag}_dst"] = src, dst
        out[f"fresh14_algos_bf_{tag}_w"], out[f"fresh14_algos_bf_{tag}_dist"] = w, dist
    V = 200
    upper = np.triu(rng.random((V, V)) < 0.055, 1)
    adj = upper | upper.T
    eu, ev = np.nonzero(upper)
    assert len(eu) >= 1000
    keep = np.sort(rng.permutation(len(eu))[:1000])
    out["fresh14_algos_tri_src"], out["fresh14_algos_tri_dst"] = eu[keep].astype(np.int32), ev[keep].astype(np.int32)
    out["fresh14_algos_tri_ptr"] = np.concatenate([[0], np.cumsum(adj.sum(1))]).astype(np.int32)
    out["fresh14_algos_tri_col"] = np.concatenate([np.nonzero(r)[0] for r in adj]).astype(np.int32)
    for n_, dt in ((24, np.float64), (40, np.float32)):
        a = rng.uniform(-1, 1, (n_, n_))
        a[np.arange(n_), np.arange(n_)] += n_
        out[f"fresh14_algos_gj_{n_}"] = np.hstack([a, np.eye(n_)]).astype(dt).ravel()
    x = rng.uniform(-1, 1, 2000).astype(np.float32)
    out["fresh14_algos_compact_in_2000"] = x
    counts = [(x[i:i + 256] > 0.2).sum() for i in range(0, 2000, 256)]
    out["fresh14_algos_compact_offsets_b256"] = (np.cumsum(counts) - counts).astype(np.int32)
    a = np.sort(rng.integers(0, 3000, 600)).astype(np.int32)
    b = np.sort(rng.integers(0, 3000, 400)).astype(np.int32)
    out["fresh14_algos_merge_a600"], out["fresh14_algos_merge_b400"] = a, b
    for nv in (256, 384):
        parts = [_f14_merge_path(a, b, min(nv * p, 1000)) for p in range(-(-1000 // nv) + 1)]
        out[f"fresh14_algos_merge_parts_nv{nv}"] = np.array(parts, np.int32)
    return out


def data_files() -> dict[str, np.ndarray]:
    """Every .npy input, by name (deterministic: regenerated identically)."""
    from smemlab.lab.histogram import make_keys  # the experiment's own keys

    rng = np.random.default_rng(20261130)
    n = 8192
    i = np.arange(n)
    out = {
        "pkg_keys_uniform_256": make_keys(n, 256, "uniform"),
        "pkg_keys_skewed_256": make_keys(n, 256, "skewed"),
        "keys_random_u32": rng.integers(0, 2**32, n, dtype=np.uint32),
        "keys_uniform_256": rng.integers(0, 256, n).astype(np.uint32),
        "keys_skewed_256": _zipf_keys(rng, n, 256).astype(np.uint32),
        "pkg_keys_uniform_2p20": make_keys(n, 1 << 20, "uniform"),
        "pkg_partition_scratch_2p20": _partition_scratch(make_keys(n, 1 << 20, "uniform")),
        "keys_all_same": np.full(n, 7, dtype=np.uint32),
        "keys_conflict_free": (i % 256).astype(np.uint32),  # a warp: 32 consecutive bins, 32 banks
        "keys_one_bank": ((i % 8) * 32).astype(np.uint32),  # a warp: 8 bins of bank 0, 4 lanes each
        "sort_keys_1024": rng.integers(0, 2**32, 1024, dtype=np.uint32),
        # issue 32's data-dependent kernels: floats to sort with many ties, a CSR matrix (a separate generator,
        # so that the inputs above stay as they were)
        "sort_f32_dups_512": (np.random.default_rng(20261127).integers(-40, 40, 512) / 8).astype(np.float32),
        **dict(zip(("csr_row_ptr", "csr_cols", "csr_vals"), _csr(np.random.default_rng(20261128)))),
        "atomic_patterns": np.stack([a for _, a in ATOMIC_PATTERNS]),
        **_pointer_table_data(),
        **{f"cp_async{size}_dst": np.stack([d for _, d, _ in p]).astype(np.int32) for size, p in CP_ASYNC_PATTERNS.items()},
        **{f"cp_async{size}_src": np.stack([g for _, _, g in p]).astype(np.int32) for size, p in CP_ASYNC_PATTERNS.items()},
        **_fresh_data(),
        **_fresh2_data(),
        **_fresh3_data(),
        **_fresh4_data(),
        **_fresh5_data(),
        **_fresh6py_data(),
        **_fresh7py_data(),
        **_fresh8py_data(),
        **_fresh9py_data(),
        **_fresh10py_data(),
        **_fresh11py_data(),
        **_fresh12py_data(),
        **_fresh13py_data(),
        **_fresh14py_numba_data(),
        **_fresh14py_triton_data(),
        **_fresh7_data(),
        **_fresh8_data(),
        **_fresh9_data(),
        **_fresh11_data(),
        **_fresh12_data(),
        **_fresh13_data(),
        **_fresh14_apps_data(),
        **_fresh14_algos_data(),
        **_fresh14_kernels_data(),
    }
    return out


def write_data() -> None:
    d = REPO / DATA
    d.mkdir(parents=True, exist_ok=True)
    for name, a in data_files().items():
        np.save(d / f"{name}.npy", a, allow_pickle=False)


# =====================================================================================================
# The package's kernels
# =====================================================================================================
P = "package:"

# ---- lab/config/config.cu (lab/config: THREADS 256, TILE 1024) ------------------------------------------
CFG = {"THREADS": 256, "TILE": 1024}
case("config.bigSmem", P + "lab/config/config.cu", "bigSmem", (256,), ["out=float32[16384]", "in=float32[16384]", "nwords=16384"],
     dict(CFG, OPTIN=1), dyn=65536)
case("config.smemHeavy", P + "lab/config/config.cu", "smemHeavy", (256,), ["out=float32[1024]", "in=float32[1024]", "n=1024"],
     dict(CFG, CARVEOUT=-1), dyn=4096)
case("config.sum", P + "lab/config/config.cu", "sum", (256,), ["array=float32[4096]", "N=4096", "result=float32[1]"], CFG)

# ---- lab/copy.cu: no shared memory ------------------------------------------------------------------------
case("copy.copyKernel", P + "lab/copy.cu", "copyKernel", (256,), ["out=float32[4096]", "in=float32[4096]", "n4=1024"])

# ---- lab/histogram/histogram.cu (lab/histogram: 512 threads, 256 bins) -------------------------------------
for dist in ("uniform", "skewed"):
    keys = npy(f"pkg_keys_{dist}_256")
    if dist == "uniform":
        case("histogram.histGlobal", P + "lab/histogram/histogram.cu", "histGlobal", (512,),
             ["bins=int32[256]", "nbins=256", f"input={keys}", "array_size=8192"])
    case(f"histogram.histSmem.{dist}", P + "lab/histogram/histogram.cu", "histSmem", (512,),
         ["bins=int32[256]", "nbins=256", f"input={keys}", "array_size=8192"], dyn=1024)
    case(f"histogram.clusterHist_kernel.{dist}", P + "lab/histogram/histogram.cu", "clusterHist_kernel", (512,),
         ["bins=int32[256]", "nbins=256", "bins_per_block=256", f"input={keys}", "array_size=8192"], dyn=1024,
         cluster=(1, 1, 1))

# ---- lab/layout/layout.cu (lab/layout: the square 32x32 and the 32x16 rectangle) ------------------------
SQUARE = {"BDIMX": 32, "BDIMY": 32, "IPAD": 1}
RECT = {"BDIMX": 32, "BDIMY": 16, "IPAD": 2}
RECT_PAD1 = {"BDIMX": 32, "BDIMY": 16, "IPAD": 1}
for tag, d in (("square", SQUARE), ("rect", RECT)):
    bx, by = d["BDIMX"], d["BDIMY"]
    names = ["setRowReadRow", "setColReadCol", "setColReadRow", "setRowReadCol", "setRowReadColDyn"]
    if tag == "rect":
        names[1:1] = ["setRowReadRow2"]
        names.insert(3, "setColReadCol2")
    for name in names:
        case(f"layout.{name}.{tag}", P + "lab/layout/layout.cu", name, (bx, by), [f"out=int32[{bx * by}]"], d,
             dyn=bx * by * 4 if name.endswith("Dyn") else 0)
    for dp in ((d,) if tag == "square" else (RECT, RECT_PAD1)):
        sub = tag if dp is not RECT_PAD1 else "rect_pad1"
        case(f"layout.setRowReadColPad.{sub}", P + "lab/layout/layout.cu", "setRowReadColPad", (bx, by), [f"out=int32[{bx * by}]"], dp)
        case(f"layout.setRowReadColDynPad.{sub}", P + "lab/layout/layout.cu", "setRowReadColDynPad", (bx, by), [f"out=int32[{bx * by}]"],
             dp, dyn=(bx + dp["IPAD"]) * by * 4)

# ---- lab/matmul/matmul.cu (lab/matmul: BLOCK_SIZE 16 and 32; one block = one output tile) --------------
def mm_args(m, n, k):
    return [f"a=float32[{m * k}]", f"b=float32[{k * n}]", f"c=float32[{m * n}]", f"M={m}", f"N={n}", f"K={k}"]


case("matmul.MatMulKernelNaive.bs16", P + "lab/matmul/matmul.cu", "MatMulKernelNaive", (16, 16), mm_args(16, 16, 64), {"BLOCK_SIZE": 16})
for bs in (16, 32):
    case(f"matmul.MatMulKernel.bs{bs}", P + "lab/matmul/matmul.cu", "MatMulKernel", (bs, bs), mm_args(bs, bs, 64), {"BLOCK_SIZE": bs})

# ---- ops/matmul/matmul.cu (ops/matmul VARIANTS: one block tile each, K = 64, 16-byte rows) -----------------
for variant, (tile, threads) in {"tiled": (32, 1024), "blocktile1d": (64, 512), "blocktile2d": (128, 256),
                                 "vectorized": (128, 256), "warptile": (128, 256), "warptile_db": (128, 256),
                                 "warptile_db16": (128, 256)}.items():
    m = n = tile
    k = 64
    case(f"ops_matmul.mm_{variant}", P + "ops/matmul/matmul.cu", f"mm_{variant}", (threads,),
         [f"A=float32[{m * k}]", f"B=float32[{k * n}]", f"C=float32[{m * n}]", f"M={m}", f"N={n}", f"K={k}",
          "vecA=1", "vecB=1", "vecC=1"])
# the guarded element-by-element paths: a ragged shape with the 16-byte flags off
case("ops_matmul.mm_vectorized.ragged", P + "ops/matmul/matmul.cu", "mm_vectorized", (256,),
     ["A=float32[6000]", "B=float32[6000]", "C=float32[10000]", "M=100", "N=100", "K=60", "vecA=0", "vecB=0", "vecC=0"])

# ---- ops/histogram/histogram.cu (ops/histogram plans for 256 bins; the cluster kernels as clusters of 1) ------
KEYS_ARGS = [f"keys={npy('pkg_keys_uniform_256')}", "n=8192", "out=uint32[256]"]
case("ops_histogram.hist_global", P + "ops/histogram/histogram.cu", "hist_global<1, 2>", (512,), KEYS_ARGS + ["bins=256"])
for dist in ("uniform", "skewed"):
    case(f"ops_histogram.hist_smem.copies32.{dist}", P + "ops/histogram/histogram.cu", "hist_smem<32, 0, 32, 2>", (512,),
         [f"keys={npy(f'pkg_keys_{dist}_256')}", "n=8192", "out=uint32[256]", "lo=0", "nlocal=256"], dyn=256 * 32 * 4)
case("ops_histogram.hist_smem.copies1_agg.skewed", P + "ops/histogram/histogram.cu", "hist_smem<1, 1, 32, 2>", (512,),
     [f"keys={npy('pkg_keys_skewed_256')}", "n=8192", "out=uint32[256]", "lo=0", "nlocal=256"], dyn=256 * 4)
# ranges: every range at once (here one range, as one block of 16-bit counters counts 256 bins)
case("ops_histogram.hist_ranges.b16", P + "ops/histogram/histogram.cu", "hist_ranges<1, 0, 16, 2>", (512,),
     KEYS_ARGS + ["bins=256", "per=256"], dyn=512 + 128)
case("ops_histogram.hist_ranges.b8", P + "ops/histogram/histogram.cu", "hist_ranges<1, 0, 8, 2>", (512,),
     KEYS_ARGS + ["bins=256", "per=256"], dyn=256 + 128)
# partition (ops/histogram's plan for 2^20 bins, its places from ballots and from shared atomics, the
# plan's there): the keys of one tile sorted into 16 ranges, then
# every range counted by one block (its virtual blocks in turn), from a scratch laid out as the first leaves it
# (hist_partition<PTHREADS, PMINB, PRANGE, PRBITS, PRANK, UNROLL>, hist_part_count<PCTHREADS, PCMINB, PTHREADS,
# PRANGE, PU, UNROLL>)
case("ops_histogram.hist_partition", P + "ops/histogram/histogram.cu", "hist_partition<512, 2, 16, 4, 0, 4>", (512,),
     [f"keys={npy('pkg_keys_uniform_2p20')}", "n=8192", "out=uint32[1048576]", "bins=1048576", f"scratch=uint8[{64 + 80 + 2 * 8192}]"])
case("ops_histogram.hist_partition.atomics", P + "ops/histogram/histogram.cu", "hist_partition<512, 2, 16, 4, 1, 4>", (512,),
     [f"keys={npy('pkg_keys_uniform_2p20')}", "n=8192", "out=uint32[1048576]", "bins=1048576", f"scratch=uint8[{64 + 80 + 2 * 8192}]"])
case("ops_histogram.hist_part_count", P + "ops/histogram/histogram.cu", "hist_part_count<1024, 1, 512, 16, 1, 4>", (1024,),
     [f"keys={npy('pkg_keys_uniform_2p20')}", "n=8192", "out=uint32[1048576]", "bins=1048576",
      f"scratch={npy('pkg_partition_scratch_2p20')}", "g1=1"], dyn=131072 + 128)
# the library's cluster designs, the histogram experiment's now (lab/histogram/cluster_methods.cu: the cluster
# size a template parameter, then AGG, CBITS, UNROLL, those each takes); the case ids kept from when the library carried them
case("ops_histogram.hist_cluster.cs1", P + "lab/histogram/cluster_methods.cu", "hist_cluster<1, 1, 2>", (512,), KEYS_ARGS + ["bins=256"],
     dyn=1024, cluster=(1, 1, 1))
case("ops_histogram.hist_cluster_rep.cs1", P + "lab/histogram/cluster_methods.cu", "hist_cluster_rep<1, 32, 2>", (512,), KEYS_ARGS + ["bins=256"],
     dyn=1024, cluster=(1, 1, 1))
case("ops_histogram.hist_cluster_share.cs1", P + "lab/histogram/cluster_methods.cu", "hist_cluster_share<1, 32, 2>", (512,), KEYS_ARGS + ["bins=256"],
     dyn=1024 + 2 * 512 * 2 * 16, cluster=(1, 1, 1))

# ---- ops/reduce/reduce.cu (ops/reduce: 256 threads; two whole tiles of 256 x 8 vectors and a tail; a grid of
# one block takes the kernel's one-block path, as the op does for small inputs) --------------------------
from smemlab.ops.reduce import KERNELS as REDUCE_KERNELS  # noqa: E402

for name, x, n, part, out in (("reduce_i32_i64", "int32", 16391, "int64", "int64"),
                              ("reduce_f32_f32", "float32", 16391, "float64", "float32"),
                              ("reduce_f32_f64", "float32", 16391, "float64", "float64"),
                              ("reduce_f64_f64", "float64", 8199, "float64", "float64")):
    case(f"ops_reduce.{name}", P + "ops/reduce/reduce.cu", REDUCE_KERNELS[name], (256,),
         [f"x={x}[{n}]", f"n={n}", f"partials={part}[1]", "counter=uint32[1]:0..0", f"out={out}[1]"])

# ---- ops/stencil/stencil.cu (ops/stencil: RADIUS from the coefficients; two tiles, the second ragged) -----
for r in (4, 3):
    case(f"ops_stencil.stencil1d_f32.r{r}", P + "ops/stencil/stencil.cu", f"stencil1d_f32<{r}>", (256,),
         ["out=float32[4196]", "x=float32[4196]", "n=4196", "aligned=1"],
         constants={"c_coef": np.linspace(-1.0, 1.0, 2 * r + 1)})

# ---- transpose_v4 (lab/transpose/transpose.cu: the library's first transpose, float32; its ids kept) -------------
case("ops_transpose.transpose_v4", P + "lab/transpose/transpose.cu", "transpose_v4", (256,),
     ["out=float32[4096]", "in=float32[4096]", "rows=64", "cols=64", "tiles_x=1", "ntiles=1"])
case("ops_transpose.transpose_v4.two_tiles", P + "lab/transpose/transpose.cu", "transpose_v4", (256,),
     ["out=float32[8192]", "in=float32[8192]", "rows=128", "cols=64", "tiles_x=1", "ntiles=2"])

# ---- lab/reduce/reduce.cu (lab/reduce: DIM 128, REAL int; float32; larger blocks for the unrolled tree) ---
INT = {"DIM": 128, "REAL": "int"}
case("reduce.reduce_global", P + "lab/reduce/reduce.cu", "reduce_global", (128,),
     ["d_x=int32[128]", "d_work=int32[64]", "d_y=int32[1]", "n=128"], INT)
case("reduce.reduceGmem", P + "lab/reduce/reduce.cu", "reduceGmem", (128,),
     ["g_idata=int32[128]", "g_work=int32[64]", "g_odata=int32[1]", "n=128"], INT)
for real, dt in (("int", "int32"), ("float", "float32")):
    d = {"DIM": 128, "REAL": real}
    sfx = "" if real == "int" else ".f32"
    case(f"reduce.reduce_shared{sfx}", P + "lab/reduce/reduce.cu", "reduce_shared", (128,), [f"d_x={dt}[128]", f"d_y={dt}[1]", "n=128"], d)
    case(f"reduce.reduceSmem{sfx}", P + "lab/reduce/reduce.cu", "reduceSmem", (128,), [f"g_idata={dt}[128]", f"g_odata={dt}[1]", "n=128"], d)
    if real == "int":
        case("reduce.reduceSmemVolatile", P + "lab/reduce/reduce.cu", "reduceSmemVolatile", (128,),
             ["g_idata=int32[128]", "g_odata=int32[1]", "n=128"], d)
    case(f"reduce.reduceSmemUnroll{sfx}", P + "lab/reduce/reduce.cu", "reduceSmemUnroll", (128,),
         [f"g_idata={dt}[512]", f"g_odata={dt}[1]", "n=512"], d)
    case(f"reduce.reduceSmemUnrollDyn{sfx}", P + "lab/reduce/reduce.cu", "reduceSmemUnrollDyn", (128,),
         [f"g_idata={dt}[512]", f"g_odata={dt}[1]", "n=512"], d, dyn=128 * 4)
    case(f"reduce.reduceShfl{sfx}", P + "lab/reduce/reduce.cu", "reduceShfl", (128,), [f"g_idata={dt}[512]", f"g_odata={dt}[1]", "n=512"], d)
for dim in (256, 512, 1024):
    case(f"reduce.reduceSmemUnroll.b{dim}", P + "lab/reduce/reduce.cu", "reduceSmemUnroll", (dim,),
         [f"g_idata=int32[{4 * dim}]", "g_odata=int32[1]", f"n={4 * dim}"], {"DIM": dim, "REAL": "int"})

# ---- lab/shuffle/shuffle.cu (lab/shuffle: BDIMX 16 (32 for the whole-warp broadcast), SEGM 4, DIM 128) ---
SH = {"BDIMX": 16, "SEGM": 4, "DIM": 128}
case("shuffle.test_shfl_broadcast.warp", P + "lab/shuffle/shuffle.cu", "test_shfl_broadcast", (32,),
     ["d_out=int32[32]", "d_in=int32[32]", "srcLane=2"], dict(SH, BDIMX=32))
for name, extra in (("test_shfl_broadcast", ["srcLane=2"]), ("test_shfl_wrap", ["offset=2"]), ("test_shfl_up", ["delta=2"]),
                    ("test_shfl_down", ["delta=2"]), ("test_shfl_xor", ["mask=1"])):
    case(f"shuffle.{name}", P + "lab/shuffle/shuffle.cu", name, (32,), ["d_out=int32[32]", "d_in=int32[32]"] + extra, SH)
for name, extra in (("test_shfl_xor_array", ["mask=1"]), ("test_shfl_xor_int4", ["mask=1"]),
                    ("test_shfl_xor_element", ["mask=1", "srcIdx=0", "dstIdx=3"]),
                    ("test_shfl_xor_array_swap", ["mask=1", "srcIdx=0", "dstIdx=3"]),
                    ("test_shfl_swap", ["mask=1", "firstIdx=0", "secondIdx=3"])):
    case(f"shuffle.{name}", P + "lab/shuffle/shuffle.cu", name, (4,), ["d_out=int32[16]", "d_in=int32[16]"] + extra, SH)
for name, outs in (("reduceSmem", 1), ("reduceShfl", 1), ("warpReduceSmem", 4), ("warpReduceShfl", 4)):
    case(f"shuffle.{name}", P + "lab/shuffle/shuffle.cu", name, (128,), ["g_idata=int32[128]", f"g_odata=int32[{outs}]", "n=128"], SH)

# ---- lab/stencil/stencil.cu (lab/stencil: RADIUS 4, BDIM 256, the book's coefficients; 2 tiles) ---------
ST = {"RADIUS": 4, "BDIM": 256}
BOOK_COEF = [0.0, 0.8, -0.2, 0.03809524, -0.00357143]
for name in ("stancli1DGPU", "stancli1DGPU_nosync"):
    case(f"stencil.{name}", P + "lab/stencil/stencil.cu", name, (256,), ["in=float32[520]", "out=float32[512]", "size=512"], ST,
         constants={"coef": BOOK_COEF})
for name in ("stancliReadOnly", "stancliLdg", "stancliGlobal"):
    case(f"stencil.{name}", P + "lab/stencil/stencil.cu", name, (256,),
         ["in=float32[520]", "out=float32[512]", "size=512", "dcoef=float32[5]"], ST)

# ---- lab/transpose/transpose.cu (lab/transpose: the defaults BDIMX 32, BDIMY 16, IPAD 2, TILE 32) ---------
for name in ("copyGmem", "naiveGmem", "transposeSmem", "transposeSmemPad"):
    case(f"transpose.{name}", P + "lab/transpose/transpose.cu", name, (32, 16), ["out=float32[512]", "in=float32[512]", "rows=16", "cols=32"])
case("transpose.transposeSmemUnrollPad", P + "lab/transpose/transpose.cu", "transposeSmemUnrollPad", (32, 16),
     ["out=float32[1024]", "in=float32[1024]", "rows=16", "cols=64"])
case("transpose.transposeSmemUnrollPadDyn", P + "lab/transpose/transpose.cu", "transposeSmemUnrollPadDyn", (32, 16),
     ["out=float32[1024]", "in=float32[1024]", "rows=16", "cols=64"], dyn=16 * 66 * 4)
for name in ("transpose1", "transpose1Pad"):
    case(f"transpose.{name}", P + "lab/transpose/transpose.cu", name, (32, 32), ["A=float32[1024]", "B=float32[1024]", "rows=32", "cols=32"])

# ---- lab/overlap/overlap.cu (lab/overlap, pipeline, staging: block 256; one block walks all the tiles:
# three whole tiles of 1024 and a partial one of 5, so 2-4 stages wrap; the TMA tail is 1 float) --------
case("overlap.gatherPieces", P + "lab/overlap/overlap.cu", "gatherPieces", (256,),
     ["host=float32[4096]", "offsets=int64[4]:0..768", "dst=float32[4096]", "piece_vec4=256", "count=4"])
case("overlap.pipelineCompute", P + "lab/overlap/overlap.cu", "pipelineCompute", (256,),
     ["in=float32[512]", "out=float32[512]", "n=512", "iters=8", "a=0.984375"])
for _name in ("stagedPlain", "stagedPlainV4", *(f"staged{m}{s}" for m in ("CpAsync", "Tma") for s in (1, 2, 3, 4))):
    case(f"overlap.{_name}", P + "lab/overlap/overlap.cu", _name, (256,), ["in=float32[3085]", "out=float32[3077]", "n=3077"],
         constants={"scoef": BOOK_COEF})

# the staged tiled matmul (lab/overlap/staging_mm.py: 64x64 squares of C, K tiles of 16, 256 threads): one block
# walks the four squares of a 128x128 product, 32 items, so that every number of stages wraps
for _name in ("mmStagedPlain", *(f"mmStaged{m}{s}" for m in ("CpAsync", "Tma") for s in (1, 2, 3, 4))):
    case(f"overlap.{_name}", P + "lab/overlap/overlap.cu", _name, (256,),
         ["a=float32[16384]", "b=float32[16384]", "c=float32[16384]", "n=128"])

# ---- ops/matmul/matmul.cu, the fast kernels (ops/matmul: one 128x128 tile, K = 64, DYNAMIC_SMEM, K not split) ----
for _name, _dyn in (("pack", 2 * 16 * 260 * 4), ("async", 3 * 16 * 260 * 4)):
    case(f"ops_matmul.mm_{_name}", P + "ops/matmul/matmul.cu", f"mm_{_name}", (256,),
         ["A=float32[8192]", "B=float32[8192]", "C=float32[16384]", "M=128", "N=128", "K=64", "vecA=1", "vecB=1",
          "vecC=1", "ws=float32[1]", "counters=uint32[1]:0..0"], dyn=_dyn)

# ---- ops/matmul/matmul.cu, the kernels for transposed operands (ops/matmul LAYOUTS: A and/or B stored transposed;
# one block tile, K = 64, 16-byte rows; async with its layout's dynamic shared memory) ----------------------------
from smemlab.ops.matmul import KERNELS as MATMUL_KERNELS  # noqa: E402

for _v, _tile, _threads, _dyn in (("tiled", 32, 1024, None), ("warptile_db16", 128, 256, None),
                                  ("async", 128, 256, {"tn": 49152, "nt": 50688, "tt": 49920})):
    for _l in ("tn", "nt", "tt"):
        _extra = ["ws=float32[1]", "counters=uint32[1]:0..0"] if _dyn else []
        case(f"ops_matmul.mm_{_v}_{_l}", P + "ops/matmul/matmul.cu", MATMUL_KERNELS[f"mm_{_v}_{_l}"], (_threads,),
             [f"A=float32[{_tile * 64}]", f"B=float32[{64 * _tile}]", f"C=float32[{_tile * _tile}]", f"M={_tile}",
              f"N={_tile}", "K=64", "vecA=1", "vecB=1", "vecC=1"] + _extra, dyn=_dyn[_l] if _dyn else 0)

# ---- lab/histogram/cluster_methods.cu hist_cluster_exchange (the library's once, the ids kept; a cluster of one
# block, as analyze runs it: every key is owned by this block, the DSMEM reads land in its own shared memory) --
for _bits in (32, 16):
    _words = 256 if _bits == 32 else 128
    case(f"ops_histogram.hist_cluster_exchange.cs1.b{_bits}", P + "lab/histogram/cluster_methods.cu",
         f"hist_cluster_exchange<1, 512, 1, 0, {_bits}, 2>", (512,), KEYS_ARGS + ["bins=256"],
         dyn=-(-_words // 4) * 16 + 2 * 512 * 4 * 2 * 2, cluster=(1, 1, 1))
# with 16-bit counters the owners group a warp's repeated entries by bin (AGG=1, the plan's default)
case("ops_histogram.hist_cluster_exchange.cs1.b16.agg", P + "lab/histogram/cluster_methods.cu", "hist_cluster_exchange<1, 512, 1, 1, 16, 2>",
     (512,), KEYS_ARGS + ["bins=256"], dyn=-(-128 // 4) * 16 + 2 * 512 * 4 * 2 * 2, cluster=(1, 1, 1))

# ---- ops/reduce/reduce.cu, issue 13's dtypes and row sums (ops/reduce, as lab/launches.py runs them) ---
_AT = {"i32": "int32", "i64": "int64", "f16": "float16", "bf16": "uint16", "f32": "float32", "f64": "float64"}
for _sfx, _n in (("i64_i64", 8199), ("f16_f16", 32775), ("f16_f32", 32775), ("bf16_bf16", 32775), ("bf16_f32", 32775)):
    _x, _o = (_AT[t] for t in _sfx.split("_"))
    _part = "int64" if _x.startswith("int") else "float64"
    case(f"ops_reduce.reduce_{_sfx}", P + "ops/reduce/reduce.cu", REDUCE_KERNELS[f"reduce_{_sfx}"], (256,),
         [f"x={_x}[{_n}]", f"n={_n}", f"partials={_part}[1]", "counter=uint32[1]:0..0", f"out={_o}[1]"])
for _sfx in ("i32_i64", "i64_i64", "f16_f16", "f16_f32", "bf16_bf16", "bf16_f32", "f32_f32", "f32_f64", "f64_f64"):
    _x, _o = (_AT[t] for t in _sfx.split("_"))
    _part = "int64" if _x.startswith("int") else "float64"
    case(f"ops_reduce.rows_warp_{_sfx}", P + "ops/reduce/reduce.cu", REDUCE_KERNELS[f"rows_warp_{_sfx}"], (256,),
         [f"x={_x}[335]", "rows=5", "cols=67", "lanes=4", f"out={_o}[5]"])
    case(f"ops_reduce.rows_block_{_sfx}", P + "ops/reduce/reduce.cu", REDUCE_KERNELS[f"rows_block_{_sfx}"], (256,),
         [f"x={_x}[6002]", "rows=2", "cols=3001", "segs=2", f"partials={_part}[4]", "counters=uint32[2]:0..0",
          f"out={_o}[2]"])

# ---- ops/transpose/transpose.cu, issue 13's element sizes (ops/transpose): both tile sizes, whole tiles (a batch of
# two) and any shape (sides one past and three short of a tile, both arrays off a 16-byte boundary); the op's
# kernels by its names (ops/transpose KERNELS), the `_any` forms it no longer ships as template instances --------
from smemlab.lab.launches import transpose_alternatives, transpose_instance  # noqa: E402
from smemlab.ops.transpose import element_kernels  # noqa: E402

for _e, _dt in ((2, "uint16"), (4, "float32"), (8, "float64")):
    for _chunks, _small in ((16, ""), (8, "_small")):
        _side = _chunks * (16 // _e)
        for (_b, _r, _c), (_oo, _io), _form in (((2, _side, _side), (0, 0), ""), ((1, _side + 1, _side - 3), (3, 1), "_any")):
            _ty, _tx = -(-_r // _side), -(-_c // _side)
            _cnt = _b * _r * _c
            _name = f"transpose_e{_e}{_small}{_form}"
            case(f"ops_transpose.{_name}", P + "ops/transpose/transpose.cu", transpose_instance(_name),
                 (_chunks * _chunks,), [f"out={_dt}[{_cnt + _oo}]", f"out_off={_oo}", f"in={_dt}[{_cnt + _io}]",
                                        f"in_off={_io}", f"rows={_r}", f"cols={_c}", f"tiles_y={_ty}", f"tiles_x={_tx}",
                                        f"ntiles={_b * _ty * _tx}"])

# the element-tile kernels of ragged shapes: one block walks a tile and a ragged one (a row one past the
# tile, columns three short), both arrays off a 16-byte boundary. The op's (ops/transpose KERNELS) and the
# alternatives tools/ measured them against (lab/launches.py TRANSPOSE_ALTERNATIVES)
for _name, _e, (_tr, _tc) in element_kernels() + transpose_alternatives():
    _dt = {2: "uint16", 4: "float32", 8: "float64"}[_e]
    _r, _c = _tr + 1, _tc - 3
    case(f"ops_transpose.{_name}", P + "ops/transpose/transpose.cu", transpose_instance(_name), (256,),
         [f"out={_dt}[{_r * _c + 3}]", "out_off=3", f"in={_dt}[{_r * _c + 1}]", "in_off=1", f"rows={_r}", f"cols={_c}",
          "tiles_y=2", "tiles_x=1", "ntiles=2"])

# =====================================================================================================
# The corpus (tools/analyze_truth/kernels)
# =====================================================================================================
f = f"{K}/transpose.cu"
for name in ("transposeNaive", "transposeCoalesced", "transposeNoBankConflicts", "transposeSwizzled"):
    case(f"corpus.{name}", f, name, (32, 8), ["odata=float32[1024]", "idata=float32[1024]", "width=32", "height=32"])

case("corpus.sgemmVectorize", f"{K}/sgemm_blocktile.cu", "sgemmVectorize<128, 128, 8, 8, 8>", (256,),
     ["M=128", "N=128", "K=32", "alpha=1.0", "A=float32[4096]", "B=float32[4096]", "beta=0.5", "C=float32[16384]"])
case("corpus.sgemmWarptiling", f"{K}/sgemm_warptile.cu", "sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>", (128,),
     ["M=128", "N=128", "K=32", "alpha=1.0", "A=float32[4096]", "B=float32[4096]", "beta=0.5", "C=float32[16384]"])

f = f"{K}/reduce_harris.cu"
for name in ("reduce0", "reduce1", "reduce2"):
    case(f"corpus.{name}", f, name, (256,), ["g_idata=int32[256]", "g_odata=int32[1]", "n=256"], dyn=1024)
for name in ("reduce3", "reduce4"):
    case(f"corpus.{name}", f, name, (256,), ["g_idata=int32[512]", "g_odata=int32[1]", "n=512"], dyn=1024)
case("corpus.reduce6", f, "reduce6<256>", (256,), ["g_idata=int32[2048]", "g_odata=int32[1]", "n=2048"], dyn=1024)

f = f"{K}/softmax.cu"
case("corpus.softmax_forward_kernel2", f, "softmax_forward_kernel2", (256,),
     ["out=float32[1024]", "inp=float32[1024]", "N=1", "C=1024"], dyn=1024)
case("corpus.softmax_forward_kernel3", f, "softmax_forward_kernel3", (256,), ["out=float32[1024]", "inp=float32[1024]", "N=1", "C=1024"])

f = f"{K}/stencil.cu"
case("corpus.stencil_1d", f, "stencil_1d", (256,), ["in=int32[262]", "out=int32[256]"])
case("corpus.jacobi2d", f, "jacobi2d", (16, 16), ["in=float32[256]", "out=float32[256]", "nx=16", "ny=16"])

case("corpus.bitonicSortShared", f"{K}/bitonic.cu", "bitonicSortShared", (512,),
     ["d_DstKey=uint32[1024]", "d_DstVal=uint32[1024]", f"d_SrcKey={npy('sort_keys_1024')}", "d_SrcVal=uint32[1024]",
      "arrayLength=1024", "dir=1"])

f = f"{K}/gemv.cu"
case("corpus.gemv_smem", f, "gemv_smem", (256,), ["A=float32[131072]", "x=float32[512]", "y=float32[256]", "rows=256", "cols=512"])
case("corpus.gemv_warp", f, "blas::gemv_warp", (256,), ["A=float32[4096]", "x=float32[512]", "y=float32[8]", "rows=8", "cols=512"])

f = f"{K}/vector_tiles.cu"
for name in ("tile_f4_rowmajor", "tile_f4_swizzled", "tile_f2_rowmajor", "tile_f2_swizzled"):
    case(f"corpus.{name}", f, name, (256,), ["out=float32[1024]", "in=float32[1024]"])

f = f"{K}/block3d.cu"
case("corpus.volume_transpose_xz", f, "volume_transpose_xz", (8, 8, 8), ["out=float32[512]", "in=float32[512]"])
case("corpus.stencil3d_7pt", f, "stencil3d_7pt", (8, 8, 4), ["out=float32[256]", "in=float32[256]", "nx=8", "ny=8", "nz=4"])

f = f"{K}/types.cu"
case("corpus.char_access", f, "char_access", (256,), ["out=int8[256]:-128..127", "in=int8[1024]:-60..60"])
case("corpus.short_access", f, "short_access", (256,), ["out=int16[256]", "in=int16[512]"])
case("corpus.double_access", f, "double_access", (256,), ["out=float64[256]", "in=float64[512]"])
case("corpus.struct16_access", f, "struct16_access", (256,), ["out=float32[256]", "in=float32[1024]"])
case("corpus.float3_access", f, "float3_access", (256,), ["out=float32[256]", "in=float32[768]"])
# weighted counts (ops/histogram's weighted_plan for 256 bins: 32 copies, 512 threads, for 4- and 8-byte
# weights), and the atomics on the output (nlocal = 0)
for _t, _copies in (("float32", 32), ("float64", 32)):
    _w = "f32" if _t == "float32" else "f64"
    case(f"ops_histogram.hist_weighted_{_w}.copies{_copies}", P + "ops/histogram/histogram.cu",
         f"hist_weighted<{'float' if _t == 'float32' else 'double'}>", (512,),
         [f"keys={npy('pkg_keys_skewed_256')}", f"w={_t}[8192]:-1..1", "n=8192", f"out={_t}[256]", "bins=256", "lo=0",
          "nlocal=256", f"copies={_copies}"], dyn=256 * _copies * (4 if _t == "float32" else 8))
case("ops_histogram.hist_weighted_f32.global", P + "ops/histogram/histogram.cu", "hist_weighted<float>", (512,),
     [f"keys={npy('pkg_keys_uniform_256')}", "w=float32[8192]:-1..1", "n=8192", "out=float32[256]", "bins=256", "lo=0",
      "nlocal=0", "copies=1"])

f = f"{K}/histogram.cu"
case("corpus.histogram_hashed", f, "histogram_hashed", (256,), [f"keys={npy('keys_random_u32')}", "n=8192", "bins=uint32[256]"])
for dist in ("uniform", "skewed", "all_same", "conflict_free", "one_bank"):
    keys = npy(f"keys_{dist}" + ("_256" if dist in ("uniform", "skewed") else ""))
    case(f"corpus.histogram256.{dist}", f, "histogram256", (256,), [f"keys={keys}", "n=8192", "bins=uint32[256]"])
case("corpus.histogram256_weighted", f, "histogram256_weighted", (256,),
     [f"keys={npy('keys_uniform_256')}", "weights=uint32[8192]", "n=8192", "bins=uint32[256]"])
case("corpus.histogram_float", f, "histogram_float", (256,),
     [f"keys={npy('keys_uniform_256')}", "weights=float32[8192]:0..1", "n=8192", "bins=float32[256]"])

f = f"{K}/cp_async_patterns.cu"
_WARM = ("contig", "dst_plus16", "dst_plus48", "src_two_lines_a_quarter", "src_line_a_lane", "dst_stride32")
_INFLIGHT = ("contig", "dst_plus16", "src_two_lines_a_quarter", "src_line_a_lane", "dst_row_a_lane", "dst_stride32",
             "src_plus16")
for _size, _pats in CP_ASYNC_PATTERNS.items():
    for k, (pname, _, _) in enumerate(_pats):
        for _warm, _inflight in ((0, 0), (1, 0), (0, 1), (0, 2), (0, -1)):
            if (_warm or _inflight) and _size != 16:
                continue
            if (_warm and pname not in _WARM) or (_inflight and pname not in _INFLIGHT):
                continue
            _args = [f"dst={npy(f'cp_async{_size}_dst')}", f"src={npy(f'cp_async{_size}_src')}", f"pattern={k}",
                     "g=uint32[4096]", f"srcsize={_size}", f"warm={_warm}", f"inflight={_inflight}", "out=uint32[2048]"]
            _tag = (".warm" if _warm else "") + (f".inflight{_inflight}" if _inflight > 0 else "") + (
                ".same_lines_in_flight" if _inflight < 0 else "")
            case(f"cp_async.b{_size}.{pname}{_tag}", f, f"cp_async{_size}", (32,), _args)
            if _size == 16 or (_size == 4 and pname in ("contig", "mm_async_a_tile")):
                case(f"cp_async.b{_size}_zfill.{pname}{_tag}", f, f"cp_async{_size}_zfill", (32,), _args)
    if _size == 16:  # half the bytes from global, the rest zero-filled
        case("cp_async.b16_zfill.contig_half_filled", f, "cp_async16_zfill", (32,),
             [f"dst={npy('cp_async16_dst')}", f"src={npy('cp_async16_src')}", "pattern=0", "g=uint32[4096]",
              "srcsize=8", "warm=0", "inflight=0", "out=uint32[2048]"])

# issue 31: the staged matmul's A-tile copy alone (kernels/cp_async_stages.cu says what each launch separates)
f = f"{K}/cp_async_stages.cu"
for _stages in (1, 2, 4):
    for _step in (16, 32):
        for _threads in (32, 256):
            for _spin in (0, 2000):
                _args = ["a=float32[8192]", "out=float32[256]", "items=32", f"step={_step}", f"spin={_spin}"]
                _id = f"cp_async_stages.s{_stages}.step{_step}.t{_threads}.spin{_spin}"
                case(_id, f, "cp_async_stages", (_threads,), _args, {"STAGES": _stages})
                if _step == 16 and _threads == 256 and _spin == 0 and _stages > 1:
                    case(_id + ".again", f, "cp_async_stages", (_threads,), _args, {"STAGES": _stages})

f = f"{K}/atomic_patterns.cu"
for kname, out in (("atomic_inc_pattern", "uint32[1024]"), ("atomic_add_pattern", "uint32[1024]"),
                   ("atomic_cas_pattern", "uint32[1024]"), ("atomic_add64_pattern", "uint64[512]")):
    for k, (pname, _) in enumerate(ATOMIC_PATTERNS):
        case(f"atomic.{kname.replace('atomic_', '').replace('_pattern', '')}.{pname}", f, kname, (32,),
             [f"addr={npy('atomic_patterns')}", f"pattern={k}", f"out={out}"])

case("corpus.carve_dynamic", f"{K}/dynamic_smem.cu", "carve_dynamic", (256,),
     ["out=float32[256]", "fin=float32[200]", "iin=int32[100]", "nf=200", "ni=100"], dyn=(200 + 100) * 4)
f = f"{K}/divergent.cu"
case("corpus.divergent_branches", f, "divergent_branches", (256,), ["out=float32[256]", "in=float32[256]", "trips=int32[256]"])
case("corpus.short_predicated", f, "short_predicated", (256,), ["out=float32[256]", "in=float32[256]", "limit=100"])
case("corpus.local_sort_median", f"{K}/local_arrays.cu", "local_sort_median", (256,),
     ["out=float32[256]", "in=float32[256]", "perm=int32[2048]"])
case("corpus.shfl_scan_block", f"{K}/shfl_scan.cu", "shfl_scan_block", (256,), ["out=int32[256]", "in=int32[256]"])
case("corpus.generic_shared", f"{K}/generic_ptr.cu", "generic_shared", (256,),
     ["out=float32[256]", "in=float32[256]", "scratch=float32[256]", "use_global=0"])
for cf in ("false", "true"):
    case(f"corpus.prescan.{'conflict_free' if cf == 'true' else 'plain'}", f"{K}/scan.cu", f"prescan<{cf}>", (256,),
         ["g_odata=float32[512]", "g_idata=float32[512]", "n=512"], dyn=(512 + 16) * 4)
f = f"{K}/ldmatrix.cu"
for name in ("ldmatrix_x4_rows", "ldmatrix_x4_swizzled", "ldmatrix_x2_trans"):
    case(f"corpus.{name}", f, name, (64,), ["out=uint32[64]", "in=uint16[4096]"])
case("corpus.stmatrix_x4", f, "stmatrix_x4", (64,), ["out=uint16[4096]", "in=uint16[4096]"])

f = f"{K}/textbook.cu"  # written for the corpus in the textbook's form (not copied from a repository)
case("corpus.conv2d_tiled_in", f, "conv2d_tiled_in", (16, 16), ["N=float32[256]", "P=float32[256]", "width=16", "height=16"],
     constants={"F_c": np.full(25, 1.0 / 25)})
case("corpus.radix_sort_block", f, "radix_sort_block", (256,), [f"keys_in={npy('sort_keys_1024')}", "keys_out=uint32[256]"])
case("corpus.odd_even_transposition", f, "odd_even_transposition", (256,), ["in=int32[512]", "out=int32[512]", "n=512"],
     dyn=512 * 4)

f = f"{K}/wide_load_masks.cu"  # packed 16- and 8-byte loads of one warp under masks of non-adjacent quarters
for mask in (0xFFFFFFFF, 0x00FF00FF, 0xFF00FF00, 0xFF0000FF, 0x00FFFF00, 0xFF00FFFF, 0x000F000F, 0x0000FFFF, 0x00FF0000):
    for mode in (0, 1, 2, 3):
        for kern, vec in (("lds128_masked", 4), ("lds64_masked", 2)):
            if kern == "lds64_masked" and mode not in (0, 2):
                continue
            case(f"probe.{kern}.m{mask:08x}.mode{mode}", f, kern, (32,),
                 [f"in=float32[{256 * 4}]", "out=float32[32]", f"mask={mask}", f"mode={mode}"])

f = f"{K}/reordered_vectors.cu"  # ptxas vectorises a loop along the index the source's inner loop does not walk
for name, dt in (("column_blocked_f32_k8", "float32"), ("column_blocked_f32_k4", "float32"), ("column_blocked_f64", "float64")):
    case(f"corpus.{name}", f, name, (512,), [f"a={dt}[4096]", f"b={dt}[4096]", f"c={dt}[4096]", "k=32"])

f = f"{K}/across_lines.cu"  # SASS accesses on other lines than their PTX (sass._across_lines)
case("corpus.vector_from_lines", f, "vector_from_lines", (256,), ["in=float32[4096]", "out=float32[1024]"])
case("corpus.guarded_overwrite", f, "guarded_overwrite", (16, 16), ["in=float32[512]", "out=float32[256]", "edge=256"])

f = f"{K}/warp_atomics.cu"  # atomics ptxas aggregates per warp (REDUX, then one lane's ATOMS)
case("corpus.block_max_bits", f, "block_max_bits", (256,), ["keys=int32[256]:-100000..100000", "out=int32[2]"])
case("corpus.per_lane_min", f, "per_lane_min", (256,), ["keys=int32[256]:-100000..100000", "out=int32[64]"])

f = f"{K}/hoisted.cu"  # a guarded load ptxas hoists into the load before the branch (sass._hoisted)
case("corpus.argmin_pairs", f, "argmin_pairs", (256,), ["vals=int32[512]:0..15", "out=int32[2]"], dyn=4096)

f = f"{K}/loop_invariant.cu"  # shared scalars read in loops that store through plain pointers (hoisting.py)
for n, b in ((1000, 64), (100, 64), (4000, 128)):
    case(f"corpus.loop_invariant.scale_rows.n{n}.b{b}", f, "scale_rows", (b,), [f"x=float32[{n}]", f"y=float32[{n}]",
         f"n={n}"])
for n, b in ((1000, 64), (130, 32)):
    case(f"corpus.loop_invariant.scale_rows_unroll.n{n}.b{b}", f, "scale_rows_unroll", (b,),
         [f"x=float32[{n}]:0..1", f"y=float32[{n}]", f"n={n}"])
for c4, b, g in ((150, 128, 2), (600, 256, 1)):
    case(f"corpus.loop_invariant.norm_rows.c{c4}.b{b}", f, "norm_rows", (b,), [f"x=float32[{4 * c4 * g}]",
         f"gamma=float32[{4 * c4}]", f"beta=float32[{4 * c4}]", f"y=float32[{4 * c4 * g}]", f"cols4={c4}"],
         grid=(g, 1, 1))
case("corpus.loop_invariant.rescale_nested", f, "rescale_nested", (64,), ["x=float32[1500]", "y=float32[1500]",
     "rows=10", "cols=150"])
for k in ("bump_in_loop", "sync_in_loop"):
    case(f"corpus.loop_invariant.{k}", f, k, (64,), ["x=float32[1000]", "y=float32[1000]", "n=1000"])

f = f"{K}/sunk_tail.cu"  # the last item's load of a guarded striped store, below ptxas's early exit (deadloads.py)
for valid, g in ((150, 1), (200, 1), (300, 2), (440, 2)):
    case(f"corpus.sunk_tail.v{valid}.g{g}", f, "striped_tail", (64,), [f"in=uint32[{256 * g}]",
         f"out=uint32[{256 * g}]", f"valid={valid}"], grid=(g, 1, 1))

f = f"{K}/cg_big_tiles.cu"  # tiles of more than a warp: cooperative groups' reserved shared memory (machine.py)
for c in (case("corpus.cg_big_tiles.big_tile_sum.g2", f, "big_tile_sum", (256,), ["in=float32[512]", "out=float32[4]"],
               grid=(2, 1, 1)),
          case("corpus.cg_big_tiles.tile_reduce_64", f, "tile_reduce_64", (256,), ["in=float32[3000]", "out=float32[2]",
               "n=3000"], grid=(2, 1, 1)),
          case("corpus.cg_big_tiles.big_tile_shfl", f, "big_tile_shfl", (256,), ["in=int32[256]:-1000..1000",
               "out=int32[256]", "rounds=3"])):
    c["compiler"] = "nvcc"

f = f"{K}/data_dependent.cu"  # issue 32: data-dependent swaps, warp-aggregated atomics, CSR SpMV, in-place FFTs
DD_SORTF = npy("sort_f32_dups_512")
case("dd.kvsort.flags", f, "kv_bitonic_flags", (128,),
     ["keys=uint32[256]:0..40", "vals=int32[256]", "okeys=uint32[256]", "ovals=int32[256]", "n=200"])
case("dd.kvsort.index", f, "kv_bitonic_index", (128,), [f"keys={DD_SORTF}", "okeys=float32[256]", "oidx=int32[256]"])
case("dd.kvsort.select", f, "kv_bitonic_select", (128,),
     ["keys=uint32[256]:0..40", "vals=int32[256]", "okeys=uint32[256]", "ovals=int32[256]"])
case("dd.kvsort.pairs", f, "kv_bitonic_pairs", (256,), ["keys=uint32[256]:0..40", "out=uint32[512]"])
case("dd.fsort.xor", f, "fsort_xor", (512,), [f"in={DD_SORTF}", "out=float32[512]"])
case("dd.fsort.half", f, "fsort_half", (256,), [f"in={DD_SORTF}", "out=float32[512]"])
case("dd.fsort.half_random", f, "fsort_half", (256,), ["in=float32[512]", "out=float32[512]"])
case("dd.fsort.minmax", f, "fsort_minmax", (256,), [f"in={DD_SORTF}", "out=float32[512]"])
case("dd.fsort.refs", f, "fsort_refs", (128,), [f"in={DD_SORTF}", "out=float32[512]"])
for _k in ("match_leader", "peer_loop", "mixed"):
    for _dist in ("skewed", "uniform"):
        case(f"dd.wagg.{_k}.{_dist}", f, f"wagg_{_k}", (256,), [f"keys={npy('keys_' + _dist + '_256')}", "n=2048",
                                                               "hist=uint32[64]"])
case("dd.wagg.rank_slots.skewed", f, "wagg_rank_slots", (256,),
     [f"keys={npy('keys_skewed_256')}", "n=2048", "counts=uint32[16]", "slots=uint32[1024]"])
CSR = [f"row_ptr={npy('csr_row_ptr')}", f"cols={npy('csr_cols')}", f"vals={npy('csr_vals')}", "x=float32[512]",
       "y=float32[64]", "rows=64"]
for _k in ("vector_tree", "vector_shfl", "half_warp"):
    case(f"dd.spmv.{_k}", f, f"spmv_{_k}", (256,), CSR)
case("dd.spmv.scalar", f, "spmv_scalar", (128,), CSR)
case("dd.fft.float2_swap", f, "fft_float2_swap", (128,), ["in=float2[256]", "out=float2[256]"])
case("dd.fft.split_table", f, "fft_split_table", (128,),
     ["in_re=float32[256]", "in_im=float32[256]", "out_re=float32[256]", "out_im=float32[256]"])
case("dd.fft.dif_loop", f, "fft_dif_loop", (64,), ["in=float2[512]", "tw=float2[256]", "out=float2[512]"])

f = f"{K}/ldmatrix_pipeline.cu"  # the last trip's ldmatrix, whose fragments no one reads (deadloads.py)
case("corpus.ldmatrix_pipeline", f, "ldmatrix_pipeline", (32,), ["A=float16[1024]", "Bt=float16[512]", "D=float32[128]"])

f = f"{K}/dsmem.cu"  # distributed shared memory: one cluster of CS blocks (grid = cluster), all of it emulated
for cs in (2, 4):
    cl = dict(grid=(cs, 1, 1), cluster=(cs, 1, 1))
    for stride in (1, 2, 32):
        case(f"corpus.dsmem_read.cs{cs}.s{stride}", f, "dsmem_read", (256,),
             ["out=float32[1024]", "in=float32[8192]", f"stride={stride}"], **cl)
        case(f"corpus.dsmem_write.cs{cs}.s{stride}", f, "dsmem_write", (256,), ["out=float32[1024]", f"stride={stride}"], **cl)
        case(f"corpus.dsmem_generic.cs{cs}.s{stride}", f, "dsmem_generic", (256,),
             ["out=float32[1024]", "counts=int32[1024]", f"stride={stride}"], **cl)
    for stride in (1, 8):
        case(f"corpus.dsmem_vec.cs{cs}.s{stride}", f, "dsmem_vec", (256,), ["out=float32[1024]", "in=float32[2048]",
                                                                             f"stride={stride}"], **cl)
    # the package's cluster histograms as clusters of several blocks (256 bins over CS blocks)
    case(f"histogram.clusterHist_kernel.cs{cs}", P + "lab/histogram/histogram.cu", "clusterHist_kernel", (512,),
         ["bins=int32[256]", "nbins=256", f"bins_per_block={256 // cs}", f"input={npy('pkg_keys_uniform_256')}",
          "array_size=8192"], dyn=1024 // cs, **cl)
    # the library's cluster designs, the histogram experiment's now (ids kept)
    case(f"ops_histogram.hist_cluster.cs{cs}", P + "lab/histogram/cluster_methods.cu", f"hist_cluster<{cs}, 1, 2>", (512,),
         KEYS_ARGS + ["bins=256"], dyn=1024 // cs, **cl)
    case(f"ops_histogram.hist_cluster_rep.cs{cs}", P + "lab/histogram/cluster_methods.cu", f"hist_cluster_rep<{cs}, 32, 2>", (512,),
         KEYS_ARGS + ["bins=256"], dyn=1024 // cs, **cl)
    case(f"ops_histogram.hist_cluster_share.cs{cs}", P + "lab/histogram/cluster_methods.cu", f"hist_cluster_share<{cs}, 32, 2>", (512,),
         KEYS_ARGS + ["bins=256"], dyn=1024 // cs + 2 * 512 * 2 * 16, **cl)
    # the exchange: keys ranked by owner, read by the owners through DSMEM
    for bits, agg in ((32, 0), (16, 1)):
        words = -(-256 // cs) if bits == 32 else -(-256 // cs // 2)
        case(f"ops_histogram.hist_cluster_exchange.cs{cs}.b{bits}" + (".agg" if agg else ""), P + "lab/histogram/cluster_methods.cu",
             f"hist_cluster_exchange<{cs}, 512, 1, {agg}, {bits}, 2>", (512,), KEYS_ARGS + ["bins=256"],
             dyn=-(-words // 4) * 16 + 2 * 512 * 4 * 2 * 2, **cl)

# ---- whole files as they sit (host code, CUB, cooperative_groups, reduced precision, templates), compiled by
# nvcc as `smemlab analyze` compiles a user's file: tests/data/analyze/files
W = "tests/data/analyze/files/"


def whole(id, file, kernel, block, args, defines=None):
    c = case("files." + id, W + file, kernel, block, args, defines)
    c["compiler"] = "nvcc"
    return c


whole("transpose_tiled.pad1", "transpose_app.cu", "transpose_tiled<32>", (32, 8),
      ["out=float32[1024]", "in=float32[1024]", "width=32", "height=32"])
whole("transpose_tiled.pad0", "transpose_app.cu", "transpose_tiled<32>", (32, 8),
      ["out=float32[1024]", "in=float32[1024]", "width=32", "height=32"], {"TILE_PAD": 0})
whole("row_sums", "transpose_app.cu", "row_sums", (256,), ["in=float32[1024]", "sums=float32[1]", "width=1024"])
for block, items in ((128, 4), (256, 2)):
    whole(f"sort_tiles.{block}x{items}", "cub_blocks.cu", f"sort_tiles<{block}, {items}>", (block,),
          [f"keys_in=int32[{block * items}]:0..1000000", f"keys_out=int32[{block * items}]"])
for algo in ("BLOCK_SCAN_WARP_SCANS", "BLOCK_SCAN_RAKING", "BLOCK_SCAN_RAKING_MEMOIZE"):
    whole(f"scan_tiles.{algo.lower()}", "cub_blocks.cu", f"scan_tiles<128, 4, cub::{algo}>", (128,),
          ["in=int32[512]", "out=int32[512]"])
for algo in ("BLOCK_REDUCE_WARP_REDUCTIONS", "BLOCK_REDUCE_RAKING", "BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY"):
    whole(f"block_max.{algo.lower()}", "cub_blocks.cu", f"block_max<256, cub::{algo}>", (256,),
          ["in=float32[256]", "out=float32[1]", "n=256"])
whole("striped_to_blocked", "cub_blocks.cu", "striped_to_blocked<128, 4>", (128,),
      ["in=float32[512]", "out=float32[512]"])
whole("half_dot", "mixed_precision.cu", "half_dot", (256,),
      ["a=half2[512]", "b=half2[512]", "out=float32[1]", "n2=512"])
whole("bf16_scale_rows", "mixed_precision.cu", "bf16_scale_rows", (128,),
      ["in=bfloat16[256]", "out=bfloat16[256]", "cols=256"])
whole("float4_tile_copy", "mixed_precision.cu", "float4_tile_copy", (256,), ["in=float4[256]", "out=float4[256]"])
for t, b in (("float", 128), ("double", 64), ("short", 128)):
    # param2: the RowMajor tag, an empty struct (one byte nobody reads)
    whole(f"stage_and_reverse.{t}", "templates_overloads.cu", f"lab::stage_and_reverse<{t}, {b}>", (b,),
          [f"data={t}[{b}]", f"n={b}", "param2=0"])
for stride in (2, 33):  # param1: std::integral_constant, empty
    whole(f"strided.{stride}", "templates_overloads.cu", f"lab::strided<{stride}>", (32,),
          ["data=float32[32]", "param1=0"])
for t in ("float", "int"):
    whole(f"fill.{t}", "templates_overloads.cu", f"fill<{t}>", (128,), [f"out={t}[128]", "value=3"])
# tensor-core fragments through shared memory (wmma_shared.cu): how ptxas lowers wmma.load/store (LDSM, LDS, STS)
WMMA_MEM = {"half": "float16", "__nv_bfloat16": "bfloat16", "float": "float32"}
for (m, n, k), frag, mem, al, bl, lda, ldb in (
        ((16, 16, 16), "half", "half", "row", "col", 16, 16), ((16, 16, 16), "half", "half", "row", "col", 24, 24),
        ((16, 16, 16), "half", "half", "row", "col", 64, 64), ((16, 16, 16), "half", "half", "row", "row", 16, 16),
        ((16, 16, 16), "half", "half", "col", "col", 16, 16), ((16, 16, 16), "half", "half", "col", "row", 40, 72),
        ((16, 16, 16), "__nv_bfloat16", "__nv_bfloat16", "row", "col", 16, 16),
        ((16, 16, 16), "__nv_bfloat16", "__nv_bfloat16", "row", "col", 64, 64),
        ((16, 16, 16), "__nv_bfloat16", "__nv_bfloat16", "col", "row", 24, 40),
        ((16, 16, 8), "wmma::precision::tf32", "float", "row", "row", 8, 16),
        ((16, 16, 8), "wmma::precision::tf32", "float", "row", "row", 32, 32),
        ((16, 16, 8), "wmma::precision::tf32", "float", "col", "col", 16, 8),
        ((32, 8, 16), "half", "half", "row", "col", 16, 16), ((8, 32, 16), "half", "half", "row", "row", 16, 32)):
    short = {"half": "f16", "__nv_bfloat16": "bf16", "wmma::precision::tf32": "tf32"}[frag]
    whole(f"wmma_ab.m{m}n{n}k{k}.{short}.{al}_{bl}.ld{lda}_{ldb}", "wmma_shared.cu",
          f"ab_from_shared<{m}, {n}, {k}, {frag}, {mem}, wmma::{al}_major, wmma::{bl}_major, {lda}, {ldb}>", (32,),
          [f"a={WMMA_MEM[mem]}[{32 * lda}]", f"b={WMMA_MEM[mem]}[{32 * ldb}]", f"c=float32[{m * n}]"])
for (m, n, k), frag, mem, al, bl, lda, ldb in (
        ((16, 16, 16), "half", "half", "row", "col", 16, 16), ((16, 16, 16), "half", "half", "col", "row", 32, 32),
        ((16, 16, 16), "__nv_bfloat16", "__nv_bfloat16", "row", "col", 16, 16),
        ((16, 16, 8), "wmma::precision::tf32", "float", "row", "col", 8, 8)):
    short = {"half": "f16", "__nv_bfloat16": "bf16", "wmma::precision::tf32": "tf32"}[frag]
    whole(f"wmma_global.m{m}n{n}k{k}.{short}.{al}_{bl}.ld{lda}_{ldb}", "wmma_shared.cu",
          f"ab_from_global<{m}, {n}, {k}, {frag}, {mem}, wmma::{al}_major, wmma::{bl}_major, {lda}, {ldb}>", (32,),
          [f"a={WMMA_MEM[mem]}[{32 * lda}]", f"b={WMMA_MEM[mem]}[{32 * ldb}]", f"c=float32[{m * n}]"])
for (m, n, k), acc, ld, col in (((16, 16, 16), "float", 16, False), ((16, 16, 16), "float", 20, False),
                                ((16, 16, 16), "float", 32, False), ((16, 16, 16), "float", 16, True),
                                ((32, 8, 16), "float", 8, False), ((8, 32, 16), "float", 32, False),
                                ((16, 16, 16), "half", 16, False), ((16, 16, 16), "half", 24, False),
                                ((16, 16, 16), "half", 16, True), ((32, 8, 16), "half", 8, False)):
    whole(f"wmma_c.m{m}n{n}k{k}.{'f32' if acc == 'float' else 'f16'}.{'col' if col else 'row'}.ld{ld}", "wmma_shared.cu",
          f"c_through_shared<{m}, {n}, {k}, {acc}, {ld}, {'true' if col else 'false'}>", (32,),
          [f"in={WMMA_MEM[acc]}[{32 * ld}]", f"out={WMMA_MEM[acc]}[{32 * ld}]"])

# ---- global and local memory (issue 31): kernels/global_patterns.cu, one block of 64 threads (two warps) each, for
# the sector rules of src/smemlab/banks/coalescing.py; written before their first recording
G = f"{K}/global_patterns.cu"
GLOBAL_TYPES = {"char": "int8[{n}]:-100..100", "short": "int16[{n}]", "float": "float32[{n}]", "double": "float64[{n}]",
                "float4": "float4[{n}]"}


def global_case(id, kernel, t="float", stride=1, offset=0, active=32, block=64):
    """A strided case: `in` (loads) or `out` (stores) holds every element the lanes reach."""
    wide, narrow = GLOBAL_TYPES[t].format(n=offset + block * stride + 64), GLOBAL_TYPES[t].format(n=block)
    args = [f"out={narrow}", f"in={wide}"] if kernel != "global_stride_store" else [f"out={wide}", f"in={narrow}"]
    return case(f"global.{id}", G, kernel, (block,), args, {"ELEM": t, "GM_STRIDE": stride, "GM_OFFSET": offset, "GM_ACTIVE": active})


for stride in list(range(1, 34)) + [1024, 4096]:  # 4096: a transpose's column of a 4096-wide matrix
    global_case(f"load.stride{stride}", "global_stride_load", stride=stride)
    global_case(f"store.stride{stride}", "global_stride_store", stride=stride)
for offset in (1, 3, 7, 8, 9):
    global_case(f"load.offset{offset}", "global_stride_load", offset=offset)
    global_case(f"store.offset{offset}", "global_stride_store", offset=offset)
for t in GLOBAL_TYPES:
    for stride, offset in ((1, 0), (2, 0), (1, 1), (3, 0)):
        global_case(f"load.{t}.stride{stride}.offset{offset}", "global_stride_load", t, stride, offset)
        global_case(f"store.{t}.stride{stride}.offset{offset}", "global_stride_store", t, stride, offset)
for active in (1, 8, 17):
    for stride in (1, 2, 32):
        global_case(f"load.active{active}.stride{stride}", "global_stride_load", stride=stride, active=active)
        global_case(f"store.active{active}.stride{stride}", "global_stride_store", stride=stride, active=active)
for t, stride, offset in (("float", 1, 0), ("float", 2, 0), ("float", 33, 0), ("float", 1, 3), ("float4", 1, 0),
                          ("float4", 2, 1), ("char", 1, 0), ("char", 4, 0)):
    global_case(f"ldg.{t}.stride{stride}.offset{offset}", "global_ldg_load", t, stride, offset)
for name, hi in (("line", 31), ("rows", 63), ("wide", 4095)):
    case(f"global.gather.{name}", G, "global_gather", (64,), ["out=float32[64]", "in=float32[4096]",
                                                                f"idx=int32[64]:0..{hi}"])
    case(f"global.scatter.{name}", G, "global_scatter", (64,), ["out=float32[4096]", "in=float32[64]",
                                                                  f"idx=int32[64]:0..{hi}"])
for stride, active in ((1, 32), (2, 32), (8, 32), (32, 32), (0, 32), (1, 8)):  # stride 0: every lane on one word
    n = max(stride, 1) * 64 + 64
    case(f"global.red.stride{stride}.active{active}", G, "global_red_add", (64,), [f"counts=int32[{n}]"],
         {"GM_STRIDE": stride, "GM_OFFSET": 0, "GM_ACTIVE": active})
    case(f"global.atom.stride{stride}.active{active}", G, "global_atom_add", (64,), [f"counts=int32[{n}]", "old=int32[64]"],
         {"GM_STRIDE": stride, "GM_OFFSET": 0, "GM_ACTIVE": active})
for stride, offset, active in ((1, 0, 32), (2, 0, 32), (33, 0, 32), (1, 1, 32), (1, 0, 8)):
    case(f"global.cp_async4.stride{stride}.offset{offset}.active{active}", G, "global_cp_async4", (64,),
         ["out=float32[64]", f"in=float32[{offset + 64 * stride + 64}]"],
         {"GM_STRIDE": stride, "GM_OFFSET": offset, "GM_ACTIVE": active})
for stride, offset in ((1, 0), (2, 0), (1, 1), (8, 0)):
    case(f"global.cp_async16.stride{stride}.offset{offset}", G, "global_cp_async16", (64,),
         ["out=float4[64]", f"in=float4[{offset + 64 * stride + 64}]"], {"GM_STRIDE": stride, "GM_OFFSET": offset, "GM_ACTIVE": 32})
for uniform in (1, 0):
    case(f"global.local_array.uniform{uniform}", G, "global_local_array", (64,),
         ["out=float32[64]", "idx=int32[64]:0..63", f"uniform={uniform}"])

# ---- Python kernels (issue 30): kernels/numba_kernels.py and kernels/triton_kernels.py, compiled by analyze's
# front ends (measure.py compile_python) as `smemlab analyze FILE.py --kernel NAME` compiles them. `args` are the
# front end's --args (NumPy shapes: NAME=DTYPE[D0,D1]); a Triton case's block is its num_warps' threads, its
# program the block_index, and its dynamic shared memory what Triton sized (the build's `launch_shared`; 0 here).
# Recorded 2026-11-27 on an H100 (the same sm_90 counts as the H200's; provenance.added says which)
def numba_case(id, kernel, block, args, dyn=0):
    c = case("numba." + id, f"{K}/numba_kernels.py", kernel, block, args, dyn=dyn)
    c["compiler"] = "numba"
    return c


def triton_case(id, kernel, args, constexprs, num_warps=4, num_stages=3, arch=90):
    """A Triton launch; `arch` 80: compiled as `--arch sm_80` compiles it (Ampere's code: mma.sync, ldmatrix,
    cp.async, no wgmma or TMA), its PTX assembled for sm_90 so that the H100 runs it (measure.py)."""
    c = case("triton." + id + (f".sm{arch}" if arch != 90 else ""), f"{K}/triton_kernels.py", kernel,
             (32 * num_warps,), args)
    c.update(compiler="triton", constexprs=dict(constexprs), num_warps=num_warps, num_stages=num_stages)
    if arch != 90:
        c["arch"] = arch
    return c


for t, dt in (("f32", "float32"), ("f64", "float64")):
    for pad in ("", "_padded"):
        numba_case(f"transpose_{t}{pad}", f"transpose_{t}{pad}", (32, 8),
                   [f"dst={dt}[1024]", f"src={dt}[1024]", "width=32"])
numba_case("reduce_interleaved", "reduce_interleaved", (256,), ["out=float32[1]", "x=float32[256]"])
numba_case("reduce_sequential", "reduce_sequential", (256,), ["out=float32[1]", "x=float32[512]"])
numba_case("matmul_tiled", "matmul_tiled", (16, 16), ["c=float32[16,16]", "a=float32[16,64]", "b=float32[64,16]",
                                                      "k_total=64"])
numba_case("histogram_block", "histogram_block", (256,), ["bins=int32[256]:0..0", "keys=int32[4096]:0..255", "n=4096"])
numba_case("histogram_per_warp", "histogram_per_warp", (256,), ["bins=int32[64]:0..0", "keys=int32[2048]:0..63",
                                                                "n=2048"])
numba_case("stencil_2d", "stencil_2d", (16, 16), ["out=float32[16,16]", "grid=float32[18,18]"])
numba_case("scan_dynamic", "scan_dynamic", (256,), ["out=float32[256]", "x=float32[256]"], dyn=2 * 256 * 4)
numba_case("block_max_shuffle", "block_max_shuffle", (256,), ["out=float32[1]", "x=float32[2048]", "n=2048"])
numba_case("rows_f64", "rows_f64", (64,), ["out=float64[64]", "a=float64[64,32]"])

triton_case("softmax_rows", "softmax_rows", ["out_ptr=float32[8,100]", "x_ptr=float32[8,100]", "n_cols=100"],
            {"ROWS": 8, "BLOCK": 128})
triton_case("layer_norm", "layer_norm", ["out_ptr=float32[1000]", "x_ptr=float32[1000]", "w_ptr=float32[1000]",
                                         "b_ptr=float32[1000]", "n_cols=1000", "eps=1e-5"], {"BLOCK": 1024})
for bm, bn, bk, warps, stages in ((32, 32, 32, 4, 3), (128, 128, 64, 8, 3)):
    triton_case(f"matmul.{bm}x{bn}x{bk}", "matmul", [f"c_ptr=float32[{bm},{bn}]", f"a_ptr=float16[{bm},128]",
                                                     f"b_ptr=float16[128,{bn}]", "K=128"],
                {"BM": bm, "BN": bn, "BK": bk}, num_warps=warps, num_stages=stages)
triton_case("matmul.32x32x32.s1", "matmul", ["c_ptr=float32[32,32]", "a_ptr=float16[32,128]", "b_ptr=float16[128,32]",
                                             "K=128"], {"BM": 32, "BN": 32, "BK": 32}, num_stages=1)
triton_case("transpose_tile", "transpose_tile", ["out_ptr=float32[64,32]", "in_ptr=float32[32,64]"], {"R": 32, "C": 64})
triton_case("cumsum_block", "cumsum_block", ["out_ptr=float32[1024]", "x_ptr=float32[1024]"], {"BLOCK": 1024})
triton_case("histogram_block", "histogram_block", ["out_ptr=int32[64]:0..0", "keys_ptr=int32[1024]:0..63"],
            {"BLOCK": 1024, "BINS": 64})
triton_case("attention_fwd", "attention_fwd", ["o_ptr=float32[32,32]", "q_ptr=float16[32,32]", "k_ptr=float16[128,32]",
                                               "v_ptr=float16[128,32]", "seq=128", "scale=0.17677669529663687"],
            {"BM": 32, "BN": 32, "D": 32})
triton_case("attention_fwd.64", "attention_fwd", ["o_ptr=float32[64,64]", "q_ptr=float16[64,64]", "k_ptr=float16[128,64]",
                                                  "v_ptr=float16[128,64]", "seq=128", "scale=0.125"],
            {"BM": 64, "BN": 64, "D": 64})
# Hopper's wgmma in every swizzle mode Triton makes (the tile's inner extent: 32, 64 or 128 bytes), K-major
# (A, and B = K^T of the attention's Q K^T) and MN-major (B of the matmul, V of the attention), both operands
# in shared memory or A in registers (the attention's P V), N from 16 to 256: the probe of
# wgmma.operand_wavefronts's rule (issue 30)
for bm, bn, bk, k in ((64, 64, 16, 64), (64, 16, 32, 64), (64, 32, 64, 128), (64, 256, 16, 32)):
    triton_case(f"matmul.{bm}x{bn}x{bk}", "matmul", [f"c_ptr=float32[{bm},{bn}]", f"a_ptr=float16[{bm},{k}]",
                                                     f"b_ptr=float16[{k},{bn}]", f"K={k}"],
                {"BM": bm, "BN": bn, "BK": bk})
for d in (16, 32):
    triton_case(f"attention_fwd.d{d}", "attention_fwd", [f"o_ptr=float32[64,{d}]", f"q_ptr=float16[64,{d}]",
                                                         f"k_ptr=float16[64,{d}]", f"v_ptr=float16[64,{d}]", "seq=64",
                                                         f"scale={d ** -0.5!r}"], {"BM": 64, "BN": d, "D": d})
triton_case("column_sums", "column_sums", ["out_ptr=float32[64]", "x_ptr=float32[64,64]"], {"R": 64, "C": 64})
triton_case("copy_2d", "copy_2d", ["out_ptr=float32[32,64]", "in_ptr=float32[32,96]", "in_stride=96", "out_stride=64"],
            {"R": 32, "C": 64})
triton_case("axpy_tail", "axpy_tail", ["y_ptr=float32[1000]", "x_ptr=float32[1000]", "a=2.5", "n=1000"],
            {"BLOCK": 1024})
triton_case("argmax_rows", "argmax_rows", ["out_ptr=int32[16]", "x_ptr=float32[16,128]"], {"ROWS": 16, "C": 128})
triton_case("sort_block", "sort_block", ["out_ptr=float32[512]", "x_ptr=float32[512]"], {"BLOCK": 512})
# Hopper's TMA through Triton's host tensor descriptors (NAME=DTYPE[R,C]@BRxBC): boxes of 32, 64 and 128-byte
# inner extent (the three swizzles), an mbarrier phase a load, Triton's multi-stage ring in a matmul with its fp16
# result stored by stmatrix and one TMA store, and a box over the tensor's edge
for dt, bc in (("float32", 32), ("float16", 32), ("float16", 16)):
    triton_case(f"tma_add_tiles.{dt}.{bc}", "tma_add_tiles", [f"out_desc={dt}[32,64]@16x{bc}", f"in_desc={dt}[32,64]@16x{bc}"],
                {"R": 32, "C": 64, "BR": 16, "BC": bc})
for bm, bn, bk, k, warps in ((64, 64, 16, 64, 4), (128, 128, 64, 256, 8)):
    triton_case(f"tma_matmul.{bm}x{bn}x{bk}", "tma_matmul", [f"c_desc=float16[{bm},{bn}]@{bm}x{bn}",
                f"a_desc=float16[{bm},{k}]@{bm}x{bk}", f"b_desc=float16[{k},{bn}]@{bk}x{bn}", f"K={k}"],
                {"BM": bm, "BN": bn, "BK": bk}, num_warps=warps)
triton_case("tma_edge", "tma_edge", ["out_desc=float32[24,40]@16x32", "in_desc=float32[24,40]@16x32"],
            {"BR": 16, "BC": 32}, num_stages=1)
# wgmma's other input families (tf32 from float32 tiles, e4m3/e5m2, s8 into int32; bf16 beside them), both
# operands in shared memory or (the attention's P V) A in registers: wgmma.operand_wavefronts's rule is by bytes
# of K, whatever the element size
for c, ab, bm, bn, bk, k, warps in (("float32", "float32", 64, 64, 32, 128, 4), ("float32", "float32", 128, 128, 32, 128, 8),
                                    ("float32", "bfloat16", 64, 64, 32, 128, 4),
                                    ("float32", "float8_e4m3fn", 64, 64, 64, 256, 4),
                                    ("float32", "float8_e5m2", 64, 128, 64, 128, 4), ("int32", "int8", 64, 64, 64, 256, 4),
                                    ("float16", "float8_e4m3fn", 64, 64, 64, 128, 4)):
    triton_case(f"matmul_typed.{ab}.{c}.{bm}x{bn}x{bk}", "matmul_typed",
                [f"c_ptr={c}[{bm},{bn}]", f"a_ptr={ab}[{bm},{k}]", f"b_ptr={ab}[{k},{bn}]", f"K={k}"],
                {"BM": bm, "BN": bn, "BK": bk}, num_warps=warps)
for dt, d in (("float32", 32), ("float32", 64), ("float8_e4m3fn", 64), ("bfloat16", 64)):
    triton_case(f"attention_typed.{dt}.d{d}", "attention_typed", [f"o_ptr=float32[64,{d}]", f"q_ptr={dt}[64,{d}]",
                f"k_ptr={dt}[128,{d}]", f"v_ptr={dt}[128,{d}]", "seq=128", f"scale={d ** -0.5!r}"],
                {"BM": 64, "BN": 64, "D": d})
# `--arch sm_80`: Ampere's code for the same kernels (mma.sync m16n8k16 / tf32 m16n8k8 / s8 m16n8k32 from ldmatrix,
# cp.async with no TMA or wgmma), run on the H100 from its PTX assembled for sm_90
triton_case("matmul.32x32x32", "matmul", ["c_ptr=float32[32,32]", "a_ptr=float16[32,128]", "b_ptr=float16[128,32]",
                                          "K=128"], {"BM": 32, "BN": 32, "BK": 32}, arch=80)
triton_case("matmul.64x64x32", "matmul", ["c_ptr=float32[64,64]", "a_ptr=float16[64,128]", "b_ptr=float16[128,64]",
                                          "K=128"], {"BM": 64, "BN": 64, "BK": 32}, arch=80)
for c, ab, bk, k in (("float32", "float32", 32, 128), ("int32", "int8", 64, 256)):
    triton_case(f"matmul_typed.{ab}.{c}.64x64x{bk}", "matmul_typed",
                [f"c_ptr={c}[64,64]", f"a_ptr={ab}[64,{k}]", f"b_ptr={ab}[{k},64]", f"K={k}"],
                {"BM": 64, "BN": 64, "BK": bk}, arch=80)
triton_case("attention_fwd.64", "attention_fwd", ["o_ptr=float32[64,64]", "q_ptr=float16[64,64]", "k_ptr=float16[128,64]",
                                                  "v_ptr=float16[128,64]", "seq=128", "scale=0.125"],
            {"BM": 64, "BN": 64, "D": 64}, arch=80)
triton_case("softmax_rows", "softmax_rows", ["out_ptr=float32[8,100]", "x_ptr=float32[8,100]", "n_cols=100"],
            {"ROWS": 8, "BLOCK": 128}, arch=80)
triton_case("transpose_tile", "transpose_tile", ["out_ptr=float32[64,32]", "in_ptr=float32[32,64]"], {"R": 32, "C": 64},
            arch=80)
# in-kernel tensor descriptors (tl.make_tensor_descriptor): the tensor map written by tensormap.replace in shared
# memory and copied to the global scratch the launcher passes
for dt, bc in (("float32", 32), ("float16", 64)):
    triton_case(f"tma_add_tiles_device.{dt}.{bc}", "tma_add_tiles_device", [f"out_ptr={dt}[32,128]", f"in_ptr={dt}[32,128]"],
                {"R": 32, "C": 128, "BR": 16, "BC": bc})
triton_case("tma_matmul_device.64x64x32", "tma_matmul_device", ["c_ptr=float16[64,64]", "a_ptr=float16[64,128]",
            "b_ptr=float16[128,64]", "M=64", "N=64", "K=128"], {"BM": 64, "BN": 64, "BK": 32})
# TMA reductions (cp.reduce.async.bulk.tensor: a descriptor's atomic_add / atomic_max)
for dt in ("float32", "bfloat16"):
    triton_case(f"tma_accumulate_tiles.{dt}", "tma_accumulate_tiles", [f"dst_desc={dt}[32,64]@16x64",
                f"src_ptr={dt}[32,64]:-4..4"], {"C": 64, "BR": 16})
triton_case("tma_max_tiles_device.int32", "tma_max_tiles_device", ["dst_ptr=int32[32,32]:-50..50",
            "src_ptr=int32[32,32]:-100..100"], {"R": 32, "C": 32, "BR": 8})

# ---- tables of pointers (--arg NAME=ptrs(...)): kernels/pointer_tables.cu (cuBLAS-style batched pointer arrays, a
# jagged array of rows) and pointer_tables_triton.py (a grouped GEMM reading its groups' matrices through int64
# tables, and a row gather through one); each item a buffer of its own
PT = f"{K}/pointer_tables.cu"
case("ptrs.batched_axpy", PT, "batched_axpy", (128,), ["x=ptrs(3*float32[300])",
     "y=ptrs(float32[300],float32[300],float32[301])", "alpha=0.5", "n=300"], grid=(2, 3, 1))
case("ptrs.batched_sgemm_tiles", PT, "batched_sgemm_tiles", (16, 16), ["A=ptrs(2*float32[900])",
     "B=ptrs(2*float32[900])", "C=ptrs(2*float32[900])", "n=30"], grid=(2, 2, 2))
case("ptrs.jagged_row_sums", PT, "jagged_row_sums", (128,), ["rows=ptrs(float64[70],float64[1],float64[33],"
     "float64[1],float64[64],float64[17],float64[40],float64[5])", f"lengths={npy('ptab_lengths')}",
     "sums=float64[8]", "nrows=8"], grid=(2, 1, 1))
for _bi in (0, 5):  # group 0's first tile; a narrow group's tile
    _c = triton_case(f"ptrs.triton.grouped_mm.p{_bi}", "grouped_mm", [
        "a_ptrs=ptrs(float16[64,64],float16[32,32],float16[64,64])",
        "b_ptrs=ptrs(float16[64,64],float16[32,64],float16[64,32])",
        "c_ptrs=ptrs(float16[64,64],float16[32,64],float16[64,32])",
        f"sizes={npy('ptab_sizes')}", f"lds={npy('ptab_lds')}", "n_groups=3"],
        {"NUM_PROGRAMS": 8, "BM": 32, "BN": 32, "BK": 32})
    _c.update(id=f"ptrs.triton.grouped_mm.p{_bi}", file=f"{K}/pointer_tables_triton.py", grid=[8, 1, 1],
              block_index=[_bi, 0, 0])
_c = triton_case("ptrs.triton.gather_rows_from_table", "gather_rows_from_table", [
    "table=ptrs(4*float32[100])", "out=float32[4,100]", "n_cols=100"], {"BLOCK": 128}, num_warps=2)
_c.update(id="ptrs.triton.gather_rows_from_table", file=f"{K}/pointer_tables_triton.py", grid=[4, 1, 1],
          block_index=[3, 0, 0])

# ---- register spills (analyze/spills.py): local memory ptxas makes, and one local array of the source's own
SP = f"{K}/spills.cu"
case("spills.straight", SP, "spill_straight", (64,), ["out=float32[2560]", "in=float32[4096]:-1..1"])
case("spills.loop", SP, "spill_loop", (64,), ["out=float32[2560]", "in=float32[4096]:-1..1", "n=6"])
case("spills.partial_warp", SP, "spill_loop", (48,), ["out=float32[2560]", "in=float32[4096]:-1..1", "n=4"])
case("spills.half_warp", SP, "spill_half_warp", (64,), ["out=float32[2560]", "in=float32[4096]:-1..1", "n=5"])
case("spills.double", SP, "spill_double", (64,), ["out=float64[1280]", "in=float64[2048]:-1..1", "n=4"])
case("spills.vec4", SP, "spill_vec4", (64,), ["out=float4[640]", "in=float4[1024]:-1..1", "n=3"])
case("spills.bounds_shared", SP, "spill_bounds_shared", (256,), ["out=float32[10240]", "in=float32[4096]:-1..1", "n=4"])
case("spills.local_dynamic_quads", SP, "local_dynamic_quads", (64,),
     ["out=float4[128]", "in=float4[2048]:-1..1", "idx=int32[256]:0..1000"])




def package_kernels_without_case() -> list[str]:
    """'FILE.cu:kernel' for every extern "C" kernel of the package (src/smemlab/{lab,ops}), and every template
    instance an op launches (smemlab.ops.kernel_instances), that has no case and no skip."""
    from smemlab.lab import kernel_instances

    have = {(c["file"][len(P):], c["kernel"]) for c in CASES if c["file"].startswith(P)}
    missing = []
    package = REPO / "src/smemlab"
    for path in sorted(p for folder in ("lab", "ops") for p in (package / folder).rglob("*.cu")):
        name_in_package = path.relative_to(package).as_posix()
        for name in re.findall(r'extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(',
                               path.read_text()) + list(kernel_instances(name_in_package)):
            if (name_in_package, name) not in have and f"{P}{name_in_package}:{name}" not in SKIPS:
                missing.append(f"{name_in_package}:{name}")
    return missing


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "src"))
    write_data()
    print(f"{len(CASES)} cases ({sum(c['file'].startswith(P) for c in CASES)} of package kernels); "
          f"package kernels without a case: {package_kernels_without_case() or 'none'}")


# ---- a fresh held-out batch (global memory first): kernels/fresh_global.cu and kernels/fresh_apps.cu, written
# as public code writes them (N-body and mesh structs of 8-32 bytes, BLAS increments and leading dimensions,
# pitched 8/16-bit and RGB images, partial warps, vector types at runtime offsets, __ldg, ELLPACK and embedding
# gathers, a permutation scatter, global atomics of every kind, grid-stride loops, local arrays and a struct
# copied to local memory, byte copies at odd offsets, transposes and a matmul of other shapes) to check analyze
# on code it was not tuned on; written before their first recording, recorded on an H100 on 2026-11-28 (issue 31)
FG, FA = f"{K}/fresh_global.cu", f"{K}/fresh_apps.cu"


def fresh(id, file, kernel, block, args, **kw):
    return case("fresh." + id, file, kernel, block, args, **kw)


# structs: 32-byte particles (field by field, whole), 12-byte float3, 24-byte vertices, 20-byte records, 8-byte pairs
for b, n in ((100, 100), (96, 90)):
    fresh(f"particles_integrate.b{b}", FG, "particles_integrate", (b,),
          [f"p=float32[{8 * n}]:0.5..2", f"force=float3[{n}]", f"n={n}", "dt=0.01"])
fresh("kinetic_energy_aos_soa", FG, "kinetic_energy_aos_soa", (96,),
      ["aos=float32[768]:0.5..2", "vx=float32[96]", "vy=float32[96]", "vz=float32[96]", "mass=float32[96]:0.5..2",
       "e_aos=float32[96]", "e_soa=float32[96]", "n=96"])
fresh("center_positions", FG, "center_positions", (128,),
      ["pos=float3[120]", "out=float3[120]", "centroid=float32[3]", "n=120"])
fresh("renormalize_vertices", FG, "renormalize_vertices", (64,), ["in=float32[384]", "out=float32[384]", "n=64"])
fresh("unpack_records", FG, "unpack_records", (128,), ["rec=float32[640]", "ids=int32[128]", "xyzw=float4[128]", "n=128"])
fresh("split_pairs", FG, "split_pairs", (128,), ["kv=float32[600]", "keys=int32[300]", "vals=float32[300]", "n=300"])
# BLAS increments (runtime strides), a grid-stride loop of 200 over 128 threads
for incx, incy in [(s, 1) for s in (1, 2, 3, 4, 7, 8, 16, 17, 32, 33)] + [(1, 2), (1, 32)]:
    fresh(f"saxpy_inc.incx{incx}.incy{incy}", FG, "saxpy_inc", (128,),
          ["n=200", "a=2.0", f"x=float32[{200 * incx}]", f"incx={incx}", f"y=float32[{200 * incy}]", f"incy={incy}"])
# column-major GEMV both ways, leading dimensions aligned and not
for lda in (100, 101, 128):
    fresh(f"gemv_n_colmajor.lda{lda}", FG, "gemv_n_colmajor", (128,),
          ["m=100", "n=16", f"A=float32[{lda * 16}]", f"lda={lda}", "x=float32[16]", "y=float32[100]"])
for lda in (32, 33, 36):
    fresh(f"gemv_t_colmajor.lda{lda}", FG, "gemv_t_colmajor", (64,),
          ["m=32", "n=64", f"A=float32[{lda * 64}]", f"lda={lda}", "x=float32[32]", "y=float32[64]"])
# 3-D fields: a z-derivative (planes nx*ny apart), a variable-coefficient 7-point stencil with a 3-D block
for (bx, by), (nx, ny, nz) in (((32, 4), (28, 4, 10)), ((16, 8), (16, 8, 6))):
    fresh(f"ddz_central.{bx}x{by}", FG, "ddz_central", (bx, by),
          [f"f=float32[{nx * ny * nz}]", f"dfdz=float32[{nx * ny * nz}]", f"nx={nx}", f"ny={ny}", f"nz={nz}", "inv_2dz=0.5"])
for pitch in (10, 12, 16):
    size = 6 * 10 * pitch
    fresh(f"heat7_variable.pitch{pitch}", FG, "heat7_variable", (8, 8, 4),
          [f"u=float32[{size}]", f"kappa=float32[{size}]:0..1", f"unew=float32[{size}]", "nx=8", "ny=8", "nz=4",
           f"pitch={pitch}", f"slice={10 * pitch}", "dt=0.1"])
# partial warps: blocks of 48, 96, 100, 200 over 1000 elements
for b in (48, 96, 100, 200):
    fresh(f"bias_relu.b{b}", FG, "bias_relu", (b,), ["x=float32[1000]", "bias=float32[37]", "y=float32[1000]", "n=1000", "C=37"])
# vector types from runtime offsets
for off in (0, 1, 3):
    fresh(f"axpy_f4_offset.off{off}", FG, "axpy_f4_offset", (64,), ["x=float4[124]", "y=float4[124]", "a=0.5", f"off4={off}", "n4=60"])
for off in (0, 1):
    fresh(f"zmul_double2.off{off}", FG, "zmul_double2", (64,), ["a=double2[51]", "b=double2[50]", "c=double2[50]", "n=50", f"off={off}"])
for so, do in ((0, 0), (1, 3)):
    fresh(f"copy_int4_offset.src{so}.dst{do}", FG, "copy_int4_offset", (64,),
          ["src=int4[104]", "dst=int4[104]", f"src_off={so}", f"dst_off={do}", "n4=100"])
fresh("gelu_half2", FG, "gelu_half2", (128,), ["in=half2[128]", "out=half2[128]", "n2=120"])
fresh("rmsnorm_bf16x2", FG, "rmsnorm_bf16x2", (128,),
      ["x=bfloat162[240]", "w=bfloat162[40]", "y=bfloat162[240]", "rows=6", "cols2=40", "eps=1e-5"])
# the read-only path
fresh("bias_add_ldg_f4", FG, "bias_add_ldg_f4", (128,), ["in=float4[300]", "bias=float4[24]", "out=float4[300]", "n4=300", "C4=24"])
for (bx, by), (w, h, pitch) in (((20, 12), (18, 12, 21)), ((32, 8), (30, 8, 37))):
    fresh(f"blend_restrict.{bx}x{by}", FG, "blend_restrict", (bx, by),
          [f"a=float32[{h * pitch}]", f"b=float32[{h * pitch}]", f"out=float32[{h * pitch}]", f"width={w}", f"height={h}",
           f"pitch={pitch}", "t=0.25"])
# gathers and scatters
fresh("spmv_ell", FG, "spmv_ell", (128,),
      [f"cols={npy('fresh_ell_cols')}", "vals=float32[600]", "x=float32[256]", "y=float32[100]", "rows=100", "width=6"])
for C in (64, 48):
    fresh(f"encoder_forward.C{C}", FG, "encoder_forward", (256,),
          [f"out=float32[{16 * C}]", "tokens=int32[16]:0..499", f"wte=float32[{500 * C}]", f"wpe=float32[{16 * C}]", "T=16", f"C={C}"])
for kind in ("random", "local"):
    fresh(f"permute_scatter.{kind}", FG, "permute_scatter", (200,),
          ["in=float32[200]", f"perm={npy(f'fresh_perm_{kind}_200')}", "out=float32[200]", "n=200"])
# global atomics
for kind, data in (("clustered", npy("fresh_bytes_clustered_4096")), ("uniform", "uint8[4096]:0..255")):
    fresh(f"histo_global_u8.{kind}", FG, "histo_global_u8", (256,), [f"data={data}", "n=4096", "bins=uint32[256]"])
fresh("per_warp_atomic_sum", FG, "per_warp_atomic_sum", (200,), ["in=float32[190]", "out=float32[8]", "n=190"])
fresh("int_atomics_mix", FG, "int_atomics_mix", (128,),
      ["vals=int32[512]:0..1023", "n=512", "lo=int32[1]", "hi=int32[1]", "last=int32[64]", "owner=int32[64]:-1..-1",
       "slots=64", "found=int32[512]"])
fresh("segment_sum_f64", FG, "segment_sum_f64", (128,),
      ["x=float64[600]", f"seg={npy('fresh_segments_600')}", "sums=float64[24]", "n=600"])
# reductions: grid-stride loops into one atomic a block, per-warp partials
for n in (5000, 1000):
    fresh(f"sum_gridstride_atomic.n{n}", FG, "sum_gridstride_atomic", (256,), [f"in=float32[{n}]", "total=float32[1]", f"n={n}"])
fresh("warp_partials", FG, "warp_partials", (192,), ["in=float32[3000]", "partials=float32[6]", "n=3000"])
# local memory
fresh("nibble_histogram_local", FG, "nibble_histogram_local", (64,),
      ["words=uint32[512]:0..4294967295", "out=uint32[64]", "n_per_thread=8"])
fresh("fir_params_local", FG, "fir_params_local", (128,),
      [f"params={npy('fresh_fir_params')}", "in=float32[140]", "out=float32[140]", "n=134"])
# byte buffers at odd offsets, memcpy of packed headers, 16-bit pairs from an odd element
for so, do in ((0, 0), (1, 0), (3, 2), (0, 5)):
    fresh(f"copy_bytes_offset.src{so}.dst{do}", FG, "copy_bytes_offset", (128,),
          ["src=int8[1008]", "dst=int8[1008]", f"src_off={so}", f"dst_off={do}", "n=1000"])
fresh("parse_packets", FG, "parse_packets", (64,),
      ["stream=uint8[1536]", f"offsets={npy('fresh_packet_offsets')}", "scaled=float32[64]", "npackets=64"])
for off in (0, 1):
    fresh(f"widen_short_pairs.off{off}", FG, "widen_short_pairs", (128,), ["in=int16[245]", "out=int32[120]", f"off={off}", "n=120"])

# images: pitched RGBA, interleaved RGB bytes, uchar3, 8-bit box blur from global, a 16-bit tiled blur, a median
for (bx, by), (w, h, sp, dp) in (((20, 12), (19, 12, 21, 23)), ((32, 8), (30, 8, 40, 40))):
    fresh(f"rgba_to_gray.{bx}x{by}", FA, "rgba_to_gray", (bx, by),
          [f"rgba=uchar4[{h * sp}]", f"gray=uint8[{h * dp}]", f"width={w}", f"height={h}", f"src_pitch={sp}", f"dst_pitch={dp}"])
for (bx, by), (w, h, sp, dp) in (((32, 8), (32, 8, 100, 36)), ((16, 16), (16, 16, 50, 17))):
    fresh(f"rgb_to_gray_u8.{bx}x{by}", FA, "rgb_to_gray_u8", (bx, by),
          [f"rgb=uint8[{h * sp}]", f"gray=uint8[{h * dp}]", f"width={w}", f"height={h}", f"src_pitch={sp}", f"dst_pitch={dp}"])
fresh("rgb_to_gray_uchar3", FA, "rgb_to_gray_uchar3", (32, 4), ["rgb=uchar3[128]", "gray=uint8[128]", "width=32", "height=4"])
for (bx, by), (w, h, pitch), r in (((16, 16), (16, 16, 20), 1), ((16, 16), (16, 16, 20), 2), ((20, 12), (20, 12, 25), 1)):
    fresh(f"box_blur_u8.{bx}x{by}.r{r}", FA, "box_blur_u8", (bx, by),
          [f"in=uint8[{h * pitch}]", f"out=uint8[{h * pitch}]", f"width={w}", f"height={h}", f"pitch={pitch}", f"r={r}"])
for w, pitch in ((32, 40), (30, 33)):
    fresh(f"blur3_u16_tiled.w{w}.pitch{pitch}", FA, "blur3_u16_tiled", (32, 8),
          [f"in=uint16[{8 * pitch}]", f"out=uint16[{8 * pitch}]", f"width={w}", "height=8", f"pitch={pitch}"])
fresh("median3x3_u8", FA, "median3x3_u8", (16, 16), ["in=uint8[256]", "out=uint8[256]", "width=16", "height=16"])
# transposes of other shapes: bytes through a 32x33 tile, 16x16 floats padded or not, a 64x16 tile of doubles
for w, h in ((32, 32), (30, 28)):
    fresh(f"transpose_u8_tile.{w}x{h}", FA, "transpose_u8_tile", (32, 8),
          [f"in=uint8[{w * h}]", f"out=uint8[{w * h}]", f"width={w}", f"height={h}"])
for pad in (0, 1):
    fresh(f"transpose_square.t16.pad{pad}", FA, f"transpose_square<16, {pad}>", (16, 16),
          ["in=float32[256]", "out=float32[256]", "width=16", "height=16"])
for w in (64, 60):
    fresh(f"transpose_f64_rect.w{w}", FA, "transpose_f64_rect", (16, 16),
          [f"in=float64[{16 * w}]", f"out=float64[{16 * w}]", f"width={w}", "height=16"])
# a matmul with leading dimensions (padded and not), llm.c's layer norm a warp a row, columns normalised by warps
for K_, lda, ldb, ldc in ((40, 43, 19, 17), (48, 48, 16, 16)):
    fresh(f"sgemm_tiled_ld.k{K_}.lda{lda}", FA, "sgemm_tiled_ld", (16, 16),
          ["M=16", "N=16", f"K={K_}", f"A=float32[{16 * lda}]", f"lda={lda}", f"B=float32[{K_ * ldb}]", f"ldb={ldb}",
           f"C=float32[{16 * ldc}]", f"ldc={ldc}"])
for C in (72, 64):
    fresh(f"layernorm_warp.C{C}", FA, "layernorm_warp", (128,),
          [f"out=float32[{8 * C}]", "mean=float32[8]", "rstd=float32[8]", f"inp=float32[{8 * C}]", f"weight=float32[{C}]",
           f"bias=float32[{C}]", "N=8", f"C={C}"])
for ld in (13, 12):
    fresh(f"normalize_columns.ld{ld}", FA, "normalize_columns", (128,), [f"A=float32[{40 * ld}]", "rows=40", "cols=12", f"ld={ld}"])


# ---- a second fresh held-out batch (both memories): kernels/fresh2_kernels.cu (CUDA samples style: templated shuffle
# and volatile reductions, 64/256-bin histograms, separable convolution, 8x8 DCT blocks, bitonic merge passes,
# diagonal/double/complex transposes, a column-major matmul, a padded-scan compaction), kernels/fresh2_apps.cu
# (k-means, N-body tiles, llm.c's softmax/layernorm backward/AdamW/cross-entropy, CSR SpMV in double a thread and a
# vector a row, COO SpMV with atomics, Rodinia's BFS and a queue expansion, bilinear resize, a 3-D box filter, a
# warp-synchronous AoS-to-SoA, a 2-D-block GEMV) and kernels/fresh2_cg.cu (cooperative groups, cuda_fp16/bf16
# pairs, 64-bit shared atomics; compiled by nvcc), written before their first recording, recorded on an H200 on 2026-11-28
F2K, F2A, F2C = f"{K}/fresh2_kernels.cu", f"{K}/fresh2_apps.cu", f"{K}/fresh2_cg.cu"
_F2 = _fresh2_data()
_F2_NNZ = int(_csr(np.random.default_rng(20261128))[0][-1])
_F2_FRONTIER = len(_F2["fresh2_bfs_frontier"])


def fresh2(id, file, kernel, block, args, **kw):
    c = case("fresh2." + id, file, kernel, block, args, **kw)
    if file == F2C:
        c["compiler"] = "nvcc"
    return c


# reductions: shuffles with one partial a warp (two instances), a double dot product with a volatile last warp
fresh2("reduceShfl.f32_256_pow2", F2K, "reduceShfl<float, 256, true>", (256,),
       ["g_idata=float32[4096]", "g_odata=float32[1]", "n=4096"], dyn=8 * 4)
fresh2("reduceShfl.f64_96", F2K, "reduceShfl<double, 96, false>", (96,),
       ["g_idata=float64[3001]", "g_odata=float64[1]", "n=3001"], dyn=3 * 8)
for bs, n in ((128, 2000), (64, 777)):
    fresh2(f"dotDouble.b{bs}", F2K, f"dotDouble<{bs}>", (bs,), [f"x=float64[{n}]", f"y=float64[{n}]", "result=float64[1]", f"n={n}"])
# histograms: per-thread byte counters (64 bins), per-warp copies with shared atomics (256 bins)
for kind, n in (("random", 2560), ("skewed", 4000)):
    fresh2(f"histogram64_bytes.{kind}", F2K, "histogram64_bytes", (64,),
           ["d_Histogram=uint32[64]", f"d_Data={npy('keys_' + ('random_u32' if kind == 'random' else 'skewed_256'))}", f"dataCount={n}"])
for kind, b in (("random", 192), ("skewed", 192), ("random", 96)):
    fresh2(f"histogram256_warps.{kind}.b{b}", F2K, "histogram256_warps", (b,),
           ["d_Histogram=uint32[256]", f"d_Data={npy('keys_' + ('random_u32' if kind == 'random' else 'skewed_256'))}",
            "dataCount=4096"], dyn=b // 32 * 256 * 4)
# separable convolution, radius 8, rows (two block shapes) and columns (aligned and 80-byte rows)
GAUSS17 = [float(v) for v in np.exp(-0.5 * (np.arange(-8, 9) / 3.0) ** 2) / np.exp(-0.5 * (np.arange(-8, 9) / 3.0) ** 2).sum()]
for (bx, by), w, pitch, h in (((16, 4), 136, 144, 4), ((16, 4), 100, 100, 4), ((32, 2), 260, 272, 2)):
    fresh2(f"convolutionRows.{bx}x{by}.w{w}.pitch{pitch}", F2K, "convolutionRows", (bx, by),
           [f"d_Dst=float32[{pitch * h}]", f"d_Src=float32[{pitch * h}]", f"imageW={w}", f"imageH={h}", f"pitch={pitch}"],
           defines={"ROWS_BLOCKDIM_X": bx, "ROWS_BLOCKDIM_Y": by}, constants={"c_Kernel": GAUSS17})
for w, pitch in ((40, 48), (20, 20)):
    fresh2(f"convolutionColumns.pitch{pitch}", F2K, "convolutionColumns", (16, 8),
           [f"d_Dst=float32[{pitch * 40}]", f"d_Src=float32[{pitch * 40}]", f"imageW={w}", "imageH=40", f"pitch={pitch}"],
           constants={"c_Kernel": GAUSS17})
# 8x8 DCT, four blocks a thread block: in a row, 2x2 with 20-byte source rows, in a column
for w, h, ss, ds in ((32, 8, 32, 32), (16, 16, 20, 16), (8, 32, 8, 8)):
    fresh2(f"dct8x8_blocks.w{w}.ss{ss}", F2K, "dct8x8_blocks", (8, 8, 4),
           [f"dst=float32[{ds * h}]", f"src=uint8[{ss * h}]", f"width={w}", f"srcStride={ss}", f"dstStride={ds}"])
# bitonic merge passes over 2048 pairs: the comparator distance from 1 to 1024, and a small size (direction flips)
for size, stride in ((2048, 1), (2048, 2), (2048, 16), (2048, 32), (2048, 64), (2048, 1024), (64, 8)):
    fresh2(f"bitonicMergeGlobal.size{size}.stride{stride}", F2K, "bitonicMergeGlobal", (256,),
           ["d_DstKey=uint32[2048]", "d_DstVal=uint32[2048]", f"d_SrcKey={npy('keys_random_u32')}", "d_SrcVal=uint32[2048]",
            "arrayLength=2048", f"size={size}", f"stride={stride}", "dir=1"])
# transposes
for w, h in ((96, 64), (128, 32)):
    fresh2(f"transposeDiagonalWalk.{w}x{h}", F2K, "transposeDiagonalWalk", (32, 8),
           [f"odata=float32[{w * h}]", f"idata=float32[{w * h}]", f"width={w}", f"height={h}"])
for w, h in ((64, 64), (40, 72)):
    fresh2(f"transposeDouble33.{w}x{h}", F2K, "transposeDouble33", (32, 8),
           [f"odata=float64[{w * h}]", f"idata=float64[{w * h}]", f"width={w}", f"height={h}"])
for r, c in ((48, 32), (20, 36)):
    fresh2(f"conjTransposeComplex.{r}x{c}", F2K, "conjTransposeComplex", (16, 16),
           [f"out=float2[{r * c}]", f"in=float2[{r * c}]", f"rows={r}", f"cols={c}"])
# column-major C = alpha A B + beta C, one output tile, two instances, leading dimensions
for bs, m, k, lda in ((16, 40, 72, 40), (16, 40, 72, 41), (16, 40, 72, 64), (8, 12, 36, 12)):
    fresh2(f"matrixMulColMajor.bs{bs}.lda{lda}", F2K, f"matrixMulColMajor<{bs}>", (bs, bs),
           [f"M={m}", f"N={m}", f"K={k}", "alpha=1.0", f"A=float32[{lda * k}]", f"lda={lda}", f"B=float32[{k * m}]", f"ldb={k}",
            "beta=0.5", f"C=float32[{lda * m}]", f"ldc={lda}"])
# stream compaction of the positive values (a padded scan a chunk)
for b, n in ((256, 1500), (128, 1000)):
    fresh2(f"compactPositive.b{b}", F2K, "compactPositive", (b,),
           [f"d_out=float32[{n}]", "d_count=int32[1]", f"d_in=float32[{n}]", f"n={n}"], dyn=(2 * b + 2 * b // 32) * 4)

# applications
for dims in (3, 4, 5):
    fresh2(f"kmeans_assign.d{dims}", F2A, "kmeans_assign", (128,),
           [f"points=float32[{600 * dims}]", f"centroids=float32[{8 * dims}]", "assignment=int32[600]", "counts=int32[8]",
            "cost=uint64[1]", "n=600", "k=8", f"dims={dims}"], dyn=4 * 8 + 8 * dims * 4 + 8 * 4)
for b, n in ((128, 512), (96, 384)):
    fresh2(f"nbody_tile.b{b}", F2A, "nbody_tile", (b,), [f"pos=float4[{n}]", f"vel=float4[{n}]", f"n={n}", "dt=0.01"], dyn=16 * b)
for C in (256, 100, 1024):
    fresh2(f"softmax_warp_f4.C{C}", F2A, "softmax_warp_f4", (128,), [f"out=float32[{8 * C}]", f"inp=float32[{8 * C}]", "N=8", f"C={C}"])
for C in (96, 200):
    fresh2(f"layernorm_backward.C{C}", F2A, "layernorm_backward", (128,),
           [f"dinp=float32[{12 * C}]", f"dweight=float32[{C}]", f"dbias=float32[{C}]", f"dout=float32[{12 * C}]",
            f"inp=float32[{12 * C}]", f"weight=float32[{C}]", "mean=float32[12]", "rstd=float32[12]:0.5..2", "N=12", f"C={C}"],
           dyn=2 * 4 * C * 4)
fresh2("adamw_kernel", F2A, "adamw_kernel", (160,),
       ["params_memory=float32[3000]", "grads_memory=float32[3000]", "m_memory=float32[3000]", "v_memory=float32[3000]:0..1",
        "num_parameters=3000", "learning_rate=0.001", "beta1=0.9", "beta2=0.999", "beta1_correction=0.1",
        "beta2_correction=0.001", "eps=1e-8", "weight_decay=0.01"])
fresh2("crossentropy_forward", F2A, "crossentropy_forward", (64,),
       ["losses=float32[48]", "probs=float32[24000]:0.001..1", "targets=int32[48]:0..499", "B=4", "T=12", "V=500"])
fresh2("crossentropy_softmax_backward", F2A, "crossentropy_softmax_backward", (256,),
       ["dlogits=float32[2400]", "dlosses=float32[8]", "probs=float32[2400]", "targets=int32[8]:0..299", "B=2", "T=4", "V=300"])
CSR_F64 = [f"num_rows=64", f"Ap={npy('csr_row_ptr')}", f"Aj={npy('csr_cols')}", f"Ax=float64[{_F2_NNZ}]", "x=float64[512]",
           "y=float64[64]"]
for b in (48, 64):
    fresh2(f"spmv_csr_scalar_f64.b{b}", F2A, "spmv_csr_scalar_f64", (b,), CSR_F64)
for v in (32, 8):
    fresh2(f"spmv_csr_vector_f64.v{v}", F2A, f"spmv_csr_vector_f64<{v}>", (128,), CSR_F64)
fresh2("spmv_coo_atomic", F2A, "spmv_coo_atomic", (256,),
       [f"nnz={_F2_NNZ}", f"rows={npy('fresh2_coo_rows')}", f"cols={npy('csr_cols')}", f"vals={npy('csr_vals')}",
        "x=float32[512]", "y=float32[64]"])
fresh2("bfs_rodinia", F2A, "bfs_rodinia", (300,),
       [f"g_graph_nodes={npy('fresh2_bfs_nodes')}", f"g_graph_edges={npy('fresh2_bfs_edges')}",
        f"g_graph_mask={npy('fresh2_bfs_mask')}", "g_updating_graph_mask=bool[300]:0..0",
        f"g_graph_visited={npy('fresh2_bfs_visited')}", f"g_cost={npy('fresh2_bfs_cost')}", "no_of_nodes=300"])
for kernel, b in (("bfs_expand_thread", 64), ("bfs_expand_warp", 128)):
    fresh2(kernel, F2A, kernel, (b,),
           [f"frontier={npy('fresh2_bfs_frontier')}", f"frontier_size={_F2_FRONTIER}", f"row_offsets={npy('fresh2_bfs_offsets')}",
            f"col_indices={npy('fresh2_bfs_edges')}", f"labels={npy('fresh2_bfs_cost')}", "next_labels=int32[300]", "depth=2"])
for name, (sw, sh, sp), (dw, dh, dp) in (("up", (24, 18, 24), (40, 30, 40)), ("down", (100, 60, 104), (40, 24, 40))):
    fresh2(f"resize_bilinear.{name}", F2A, "resize_bilinear", (32, 8),
           [f"src=float32[{sp * sh}]", f"srcW={sw}", f"srcH={sh}", f"srcPitch={sp}", f"dst=float32[{dp * dh}]", f"dstW={dw}",
            f"dstH={dh}", f"dstPitch={dp}"])
for nx, ny, nz in ((12, 10, 6), (8, 8, 4), (20, 9, 5)):
    fresh2(f"box3d_27.{nx}x{ny}x{nz}", F2A, "box3d_27", (8, 8, 4),
           [f"in=float32[{nx * ny * nz}]", f"out=float32[{nx * ny * nz}]", f"nx={nx}", f"ny={ny}", f"nz={nz}"])
for n in (1000, 77):
    fresh2(f"aos_to_soa_warp.n{n}", F2A, "aos_to_soa_warp", (128,),
           [f"xyz=float32[{3 * n}]", f"xs=float32[{n}]", f"ys=float32[{n}]", f"zs=float32[{n}]", f"n={n}"])
for lda in (100, 104):
    fresh2(f"gemv_colmajor_2d.lda{lda}", F2A, "gemv_colmajor_2d", (32, 4),
           ["m=100", "n=300", f"A=float32[{lda * 300}]", f"lda={lda}", "x=float32[300]", "y=float32[100]"])

# cooperative groups, cuda_fp16/bf16 pairs, 64-bit shared atomics (nvcc)
fresh2("cg_block_sum", F2C, "cg_block_sum", (256,), ["in=float4[1000]", "total=float32[1]", "n4=1000"])
for lda in (72, 75):
    fresh2(f"cg_tile16_rows.lda{lda}", F2C, "cg_tile16_rows", (128,),
           [f"A=float32[{20 * lda}]", "rows=20", "cols=72", f"lda={lda}", "sums=float32[20]", "maxs=float32[20]"])
fresh2("cg_bucket_offsets", F2C, "cg_bucket_offsets", (128,), ["counts=int32[700]:0..9", "offsets=int32[700]", "n=700"])
for off in (0, 3, 8):
    fresh2(f"haxpy_half2.off{off}", F2C, "haxpy_half2", (128,), ["n2=500", "a=0.5", "x=half2[520]", "y=half2[520]", f"off={off}"])
fresh2("bf16_scale_cols", F2C, "bf16_scale_cols", (32, 4),
       ["in=bfloat162[600]", "gain=float2[50]", "out=bfloat162[600]", "rows=12", "cols2=50"])
for name, bins in (("spread", "int32[1000]:0..15"), ("clustered", "int32[1000]:3..4")):
    fresh2(f"weighted_hist_f64.{name}", F2C, "weighted_hist_f64", (128,),
           [f"bins={bins}", "weights=float64[1000]", "n=1000", "hist=float64[16]", "events=uint64[1]"], dyn=4 * 16 * 8 + 4 * 8)


# ---- the third fresh held-out batch (kernels/fresh3_kernels.cu, fresh3_apps.cu): scientific and systems code,
# written before its first recording
F3K, F3A = f"{K}/fresh3_kernels.cu", f"{K}/fresh3_apps.cu"
_F3 = _fresh3_data()
_F3_LP = [int(v) for v in _F3["fresh3_tri_level_ptr"]]


def fresh3(id, file, kernel, block, args, **kw):
    return case("fresh3." + id, file, kernel, block, args, **kw)


# FDTD (Yee): E with a 3-D block and with a flat one, H marching in z
for (bx, by, bz), (nx, ny, nz) in (((8, 8, 4), (12, 10, 8)), ((32, 4, 1), (40, 9, 5))):
    n = nx * ny * nz
    fresh3(f"fdtd_update_e.{bx}x{by}x{bz}.{nx}x{ny}x{nz}", F3K, "fdtd_update_e", (bx, by, bz),
           [f"ex=float32[{n}]", f"ey=float32[{n}]", f"ez=float32[{n}]", f"hx=float32[{n}]", f"hy=float32[{n}]", f"hz=float32[{n}]",
            f"eps_inv=float32[{n}]:0.5..1", f"nx={nx}", f"ny={ny}", f"nz={nz}", "dt=0.5"])
for (bx, by), (nx, ny, nz) in (((16, 8), (20, 12, 6)), ((32, 4), (33, 8, 4))):
    n = nx * ny * nz
    fresh3(f"fdtd_update_h.{bx}x{by}.{nx}x{ny}x{nz}", F3K, "fdtd_update_h", (bx, by),
           [f"hx=float32[{n}]", f"hy=float32[{n}]", f"hz=float32[{n}]", f"ex=float32[{n}]", f"ey=float32[{n}]", f"ez=float32[{n}]",
            f"nx={nx}", f"ny={ny}", f"nz={nz}", "ch=0.5"])
# 2-D Jacobi with shared halos: every block of a small grid (edges clamp), a ragged domain
for nx, ny, grid in ((40, 30, (3, 2, 1)), (32, 16, (2, 1, 1)), (21, 37, (2, 3, 1))):
    fresh3(f"heat2d_jacobi.{nx}x{ny}", F3K, "heat2d_jacobi", (16, 16),
           [f"u=float32[{nx * ny}]", f"unew=float32[{nx * ny}]", f"nx={nx}", f"ny={ny}", "alpha=0.2"], grid=grid)
# 25-point star, register queue along z, two tile shapes
for bx, by, grid, nz in ((16, 8, (2, 2, 1), 14), (32, 4, (1, 3, 1), 12)):
    nx, ny = bx * grid[0] + 8, by * grid[1] + 8
    fresh3(f"star25_pencil.{bx}x{by}", F3K, f"star25_pencil<{bx}, {by}>", (bx, by),
           [f"in=float32[{nx * ny * nz}]", f"out=float32[{nx * ny * nz}]", f"nx={nx}", f"ny={ny}", f"nz={nz}", "coef=float32[5]"],
           grid=grid)
# D2Q9 stream, periodic: one block striding, two blocks of 96
for (nx, ny), b, g in (((30, 20), 128, 1), ((32, 16), 96, 2), ((17, 9), 64, 1)):
    fresh3(f"lbm_d2q9_stream.{nx}x{ny}.b{b}.g{g}", F3K, "lbm_d2q9_stream", (b,),
           [f"f_in=float32[{9 * nx * ny}]:0.1..1", f"f_out=float32[{9 * nx * ny}]", f"rho=float32[{nx * ny}]",
            f"ux=float32[{nx * ny}]", f"uy=float32[{nx * ny}]", f"nx={nx}", f"ny={ny}"], grid=(g, 1, 1))
# multigrid transfers: restriction reads the fine grid at stride 2 (double), prolongation adds into it
for (ncx, ncy), blk in (((16, 16), (16, 8)), ((20, 10), (32, 4))):
    fresh3(f"mg_restrict_fw.{ncx}x{ncy}", F3K, "mg_restrict_fw", blk,
           [f"fine=float64[{(2 * ncx + 1) * (2 * ncy + 1)}]", f"coarse=float64[{(ncx + 1) * (ncy + 1)}]", f"ncx={ncx}", f"ncy={ncy}"])
for (ncx, ncy), grid in (((16, 8), (2, 3, 1)), ((10, 12), (1, 4, 1))):
    fresh3(f"mg_prolong_add.{ncx}x{ncy}", F3K, "mg_prolong_add", (32, 8),
           [f"coarse=float32[{(ncx + 1) * (ncy + 1)}]", f"fine=float32[{(2 * ncx + 1) * (2 * ncy + 1)}]", f"ncx={ncx}", f"ncy={ncy}"],
           grid=grid)
# red-black Gauss-Seidel, both colours
for (nx, ny), blk in (((66, 20), (32, 4)), ((35, 35), (16, 8))):
    for color in (0, 1):
        fresh3(f"rb_gauss_seidel.{nx}x{ny}.c{color}", F3K, "rb_gauss_seidel", blk,
               [f"u=float32[{nx * ny}]", f"f=float32[{nx * ny}]", f"nx={nx}", f"ny={ny}", "h2=0.01", f"color={color}"])
# upwind fluxes in shared, velocities of both signs; a partial warp
for n, b in ((1000, 128), (300, 100)):
    fresh3(f"upwind_advect.n{n}.b{b}", F3K, "upwind_advect", (b,),
           [f"q=float32[{n}]", f"vel_face=float32[{n + 1}]:-1..1", f"q_new=float32[{n}]", f"n={n}", "dtdx=0.4"], dyn=(b + 1) * 4)
# 8th-order acoustic update, double
for (nx, ny), blk in (((48, 40), (32, 4)), ((37, 30), (16, 8))):
    fresh3(f"acoustic8_2d.{nx}x{ny}", F3K, "acoustic8_2d", blk,
           [f"p=float64[{nx * ny}]", f"p_prev=float64[{nx * ny}]", f"p_next=float64[{nx * ny}]", f"vel2=float64[{nx * ny}]:1..4",
            f"nx={nx}", f"ny={ny}", "dt2_h2=0.01"])
# 256-point FFT rows: bit-reversed gather, butterflies on float2 in shared
for rows in (4, 3):
    fresh3(f"fft256_rows.r{rows}", F3K, "fft256_rows", (128, 2),
           [f"in=float2[{256 * rows}]", f"out=float2[{256 * rows}]", f"rows={rows}"])
# blocked Floyd-Warshall, phase 3: every tile of a 4x4 grid (the pivot row and column return at once)
for n, pitch, kb in ((64, 64, 1), (60, 61, 2)):
    fresh3(f"fw_phase3.n{n}.pitch{pitch}.kb{kb}", F3K, "fw_phase3", (16, 16),
           [f"dist=int32[{n * pitch}]:0..100", f"n={n}", f"pitch={pitch}", f"kb={kb}"], grid=(4, 4, 1))

# radix sort local pass: 4 blocks of 256 (the last partial), digits at three shifts
for shift in (0, 4, 28):
    fresh3(f"radix_local_pass.shift{shift}", F3A, "radix_local_pass", (256,),
           [f"keys_in={npy('keys_random_u32')}", "keys_out=uint32[1000]", "block_counts=uint32[64]", "n=1000", f"shift={shift}"],
           grid=(4, 1, 1))
# merge path partition: binary searches in global
for b, ipt in ((128, 8), (96, 3)):
    fresh3(f"merge_path_partition.b{b}.ipt{ipt}", F3A, "merge_path_partition", (b,),
           [f"a={npy('fresh3_merge_a')}", "na=700", f"b={npy('fresh3_merge_b')}", "nb=500", f"a_split=int32[{b}]",
            f"items_per_thread={ipt}"])
# reduce by key over sorted segment ids, integer atomics at segment tails
for b in (128, 96):
    fresh3(f"reduce_by_key_warp.b{b}", F3A, "reduce_by_key_warp", (b,),
           [f"keys={npy('fresh_segments_600')}", "vals=int32[600]:0..9", "sums=int32[24]", "n=600"])
# text scanning, four bytes a load
for b, n in ((256, 3001), (96, 2048), (64, 1003)):
    fresh3(f"count_lines_words.b{b}.n{n}", F3A, "count_lines_words", (b,),
           [f"text={npy('fresh3_text')}", f"nbytes={n}", "lines=uint32[1]", "words=uint32[1]"])
# CRC-32 of records, a thread a record (bytes at a record's stride)
for rb, nr in ((16, 64), (37, 50), (64, 40)):
    fresh3(f"crc32_records.rb{rb}", F3A, "crc32_records", (64,),
           [f"data=uint8[{rb * nr}]", f"record_bytes={rb}", f"nrecords={nr}", f"table={npy('fresh3_crc_table')}",
            f"crc_out=uint32[{nr}]"])
# level-scheduled triangular solve, three levels
TRI = [f"row_ptr={npy('fresh3_tri_row_ptr')}", f"cols={npy('fresh3_tri_cols')}",
       f"vals=float32[{len(_F3['fresh3_tri_cols'])}]:0.5..1", "b=float32[160]", "x=float32[160]",
       f"level_rows={npy('fresh3_tri_levels')}"]
for lv in (0, 19, 21):
    fresh3(f"sptrsv_level_warp.level{lv}", F3A, "sptrsv_level_warp", (128,),
           TRI + [f"level_begin={_F3_LP[lv]}", f"level_end={_F3_LP[lv + 1]}"])
# histogram equalisation of an 8-bit image, pitched
for (w, h, pitch), blk in (((60, 64, 64), (32, 8)), ((100, 40, 100), (16, 16))):
    fresh3(f"hist_equalize.w{w}.pitch{pitch}", F3A, "hist_equalize", blk,
           [f"img={npy('fresh_bytes_clustered_4096')}", f"out=uint8[{pitch * h}]", f"width={w}", f"height={h}", f"pitch={pitch}"])
# half-precision GEMV, a warp a row, padded leading dimension
for cols2, lda2 in ((64, 64), (50, 52), (100, 100)):
    fresh3(f"hgemv_half2.c{cols2}.lda{lda2}", F3A, "hgemv_half2", (128,),
           [f"A=half2[{40 * lda2}]:-1..1", f"x=half2[{cols2}]:-1..1", "y=uint16[40]", "rows=40", f"cols2={cols2}", f"lda2={lda2}"])
# __ldg of structs
for n, b in ((96, 96), (200, 128)):
    fresh3(f"lj_forces_ldg.n{n}", F3A, "lj_forces_ldg", (b,),
           [f"parts=float32[{8 * n}]:0..4", f"force=float4[{n}]", f"n={n}", "cutoff2=2.0"])
for n, b in ((500, 128), (333, 100)):
    fresh3(f"center_of_mass_ldg.n{n}.b{b}", F3A, "center_of_mass_ldg", (b,),
           [f"bodies=float32[{4 * n}]:0..1", f"n={n}", "partial=float4[4]"])
# ring buffer: a producer warp, consumers a stage behind
for b, chunks in ((96, 8), (160, 5)):
    fresh3(f"ring_pipeline.b{b}", F3A, "ring_pipeline", (b,),
           [f"in=float32[{128 * chunks}]", f"out=float32[{128 * chunks}]", f"nchunks={chunks}", "scale=0.5"])
# cell lists: 12-byte positions, global atomics on clustered cells
for b, n in ((128, 700), (200, 450)):
    fresh3(f"cell_count.b{b}.n{n}", F3A, "cell_count", (b,),
           [f"pos={npy('fresh3_positions')}", f"n={n}", "inv_cell=4.0", "ncell=4", f"cell_of=int32[{n}]", "cell_counts=int32[64]"])
# batched 4x4 LU, a thread a 64-byte matrix
for batch, b in ((100, 128), (48, 64)):
    fresh3(f"batched_lu4.batch{batch}", F3A, "batched_lu4", (b,),
           [f"mats=float32[{16 * batch}]:-1..1", f"pivots=int32[{4 * batch}]", f"batch={batch}"])
# Bayer demosaic: pitched 8-bit mosaic to packed RGB, every block of the grid
for (w, h, rp, op), grid in (((90, 24, 100, 272), (3, 3, 1)), ((64, 16, 64, 192), (2, 2, 1))):
    fresh3(f"demosaic_rggb.w{w}.pitch{rp}", F3A, "demosaic_rggb", (32, 8),
           [f"raw=uint8[{rp * h}]", f"raw_pitch={rp}", f"rgb=uchar3[{op * h // 3 + 1}]", f"rgb_pitch={op}", f"width={w}",
            f"height={h}"], grid=grid)
# llm.c permute (B, T, 3, NH, HS) -> q, k, v; every block of the launch
for B, N, NH, d, b in ((2, 16, 4, 16, 256), (1, 12, 3, 20, 192)):
    tot = B * N * NH * d
    fresh3(f"permute_qkv.nh{NH}.d{d}", F3A, "permute_qkv", (b,),
           [f"q=float32[{tot}]", f"k=float32[{tot}]", f"v=float32[{tot}]", f"inp=float32[{3 * tot}]", f"B={B}", f"N={N}",
            f"NH={NH}", f"d={d}"], grid=(-(-tot // b), 1, 1))
# Euler flux from 20-byte cells
for (nx, ny), blk in (((40, 8), (32, 4)), ((17, 12), (16, 8))):
    fresh3(f"euler_flux_x.{nx}x{ny}", F3A, "euler_flux_x", blk,
           [f"cells=float32[{5 * nx * ny}]:0.5..2", f"flux=float32[{3 * (nx - 1) * ny}]", f"nx={nx}", f"ny={ny}", "gamma=1.4"])


# ---- the fourth fresh held-out batch (kernels/fresh4_kernels.cu, fresh4_apps.cu, fresh4_common.cuh; fresh4_cg.cu
# compiled by nvcc): machine-learning and data-processing kernels (llm.c-style layernorm/softmax, bias+GELU,
# causal attention scores, rotary embeddings, embedding backward, argmax, depthwise 1-D convolutions, im2col,
# batched small GEMMs, column sums, a templated 3-D permute; compaction, a 64-bit bitonic sort, sparse bookkeeping,
# ELL SpMV, a bitmap BFS, string search, RLE, image downsampling, I420 to RGBA, grid sampling, a batched 16-bit
# blur; cooperative-groups layernorm and bf16/half residuals), written before its first recording
F4K, F4A, F4C = f"{K}/fresh4_kernels.cu", f"{K}/fresh4_apps.cu", f"{K}/fresh4_cg.cu"


def fresh4(id, file, kernel, block, args, **kw):
    c = case("fresh4." + id, file, kernel, block, args, **kw)
    if file == F4C:
        c["compiler"] = "nvcc"
    return c


# layernorm, a warp a row with float4 loads (one block, then two blocks of a grid)
for N, C, b, g in ((8, 256, 128, 1), (13, 96, 96, 1), (16, 1000, 256, 2)):
    fresh4(f"layernorm_fwd_warp.n{N}.c{C}.b{b}", F4K, "layernorm_fwd_warp", (b,),
           [f"out=float32[{N * C}]", f"mean=float32[{N}]", f"rstd=float32[{N}]", f"inp=float32[{N * C}]",
            f"weight=float32[{C}]", f"bias=float32[{C}]", f"N={N}", f"C={C}"], grid=(g, 1, 1))
# online softmax, a warp a row of a (32, 8) block
for N, C, g in ((8, 100, 1), (16, 50, 2), (8, 1000, 1)):
    fresh4(f"softmax_online_fwd.n{N}.c{C}", F4K, "softmax_online_fwd", (32, 8),
           [f"out=float32[{N * C}]", f"inp=float32[{N * C}]:-4..4", f"N={N}", f"C={C}"], grid=(g, 1, 1))
# fused bias + GELU, a (64, 4) block over (rows, C)
for rows, C, gx in ((16, 100, 2), (10, 200, 4)):
    fresh4(f"bias_gelu_fwd.r{rows}.c{C}", F4K, "bias_gelu_fwd", (64, 4),
           [f"out=float32[{rows * C}]", f"inp=float32[{rows * C}]", f"bias=float32[{C}]", f"rows={rows}", f"C={C}"],
           grid=(gx, 1, 1))
# causal attention scores, 16x16 shared tiles, q/k rows in a fused qkv-strided buffer
for T, hs, ld in ((40, 32, 96), (64, 48, 144)):
    fresh4(f"attn_scores_causal.t{T}.hs{hs}", F4K, "attn_scores_causal", (16, 16),
           [f"att=float32[{T * T}]", f"q=float32[{T * ld}]", f"k=float32[{T * ld}]", f"T={T}", f"hs={hs}", f"ld={ld}",
            f"scale={hs ** -0.5:.6f}"])
# rotary embeddings: NeoX halves (a block a position), GPT-J float2 pairs on a 2-D grid
for (bx, by), seq, heads, dim in (((32, 4), 8, 6, 64), ((16, 8), 6, 8, 40)):
    fresh4(f"rope_neox.{bx}x{by}.h{heads}.d{dim}", F4K, "rope_neox", (bx, by),
           [f"x=float32[{seq * heads * dim}]", f"cos_t=float32[{seq * dim // 2}]", f"sin_t=float32[{seq * dim // 2}]",
            f"seq={seq}", f"heads={heads}", f"dim={dim}"], grid=(seq, 1, 1))
for seq, heads, dim, gy in ((6, 8, 64, 2), (4, 6, 48, 2)):
    fresh4(f"rope_interleaved_f2.h{heads}.d{dim}", F4K, "rope_interleaved_f2", (32, 4),
           [f"x=float2[{seq * heads * dim // 2}]", f"inv_freq=float32[{dim // 2}]", f"seq={seq}", f"heads={heads}",
            f"dim={dim}"], grid=(seq, gy, 1))
# embedding backward, integer atomics into token rows (repeated tokens)
for BT, C, b in ((64, 96, 256), (40, 128, 128)):
    fresh4(f"embedding_bwd_fixed.bt{BT}.c{C}", F4K, "embedding_bwd_fixed", (b,),
           [f"dwte_fx=int32[{50 * C}]", f"dout=float32[{BT * C}]", f"tokens={npy('fresh4_tokens_64')}", f"BT={BT}", f"C={C}"])
for rows, V, b in ((6, 1000, 96), (16, 257, 256)):
    fresh4(f"argmax_rows.r{rows}.v{V}", F4K, "argmax_rows", (b,),
           [f"idx_out=int32[{rows}]", f"val_out=float32[{rows}]", f"logits=float32[{rows * V}]", f"rows={rows}", f"V={V}"])
# depthwise 1-D convolutions: channels-last (templated kernel size), channels-first through shared memory
for k, T, C, b in ((3, 64, 48, 256), (7, 50, 100, 128)):
    fresh4(f"dwconv1d_cl.k{k}.c{C}", F4K, f"dwconv1d_cl<{k}>", (b,),
           [f"y=float32[{T * C}]", f"x=float32[{T * C}]", f"w=float32[{C * k}]", f"b=float32[{C}]", f"T={T}", f"C={C}"])
for k, T, C, b in ((5, 200, 8, 128), (7, 300, 6, 96)):
    fresh4(f"dwconv1d_cf.k{k}.t{T}", F4K, f"dwconv1d_cf<{k}>", (b,),
           [f"y=float32[{T * C}]", f"x=float32[{T * C}]", f"w=float32[{C * k}]", f"T={T}", f"C={C}"], dyn=4 * (T + k - 1))
for C, H, W, b, g in ((3, 20, 20, 256, 1), (4, 15, 17, 128, 4)):
    fresh4(f"im2col_3x3.c{C}.{H}x{W}", F4K, "im2col_3x3", (b,),
           [f"col=float32[{9 * C * H * W}]", f"img=float32[{C * H * W}]", f"C={C}", f"H={H}", f"W={W}"], grid=(g, 1, 1))
# batched small GEMMs: a thread a 4x4 product (float4 rows), a warp an 8x8 product
for batch, b, g in ((100, 128, 1), (200, 96, 3)):
    fresh4(f"batched_gemm4x4.batch{batch}.b{b}", F4K, "batched_gemm4x4", (b,),
           [f"Cm=float4[{4 * batch}]", f"Am=float4[{4 * batch}]", f"Bm=float4[{4 * batch}]", f"batch={batch}"], grid=(g, 1, 1))
for batch, b in ((12, 128), (5, 64)):
    fresh4(f"batched_gemm8x8_warp.batch{batch}", F4K, "batched_gemm8x8_warp", (b,),
           [f"Cm=float32[{64 * batch}]", f"Am=float32[{64 * batch}]", f"Bm=float32[{64 * batch}]", f"batch={batch}"])
# column sums of a row-major matrix: a warp a column (lanes down the rows), then the coalesced (32, 8) tiles
for rows, cols, b in ((64, 100, 256), (33, 48, 128)):
    fresh4(f"colsum_warp_per_col.{rows}x{cols}", F4K, "colsum_warp_per_col", (b,),
           [f"out=float32[{cols}]", f"A=float32[{rows * cols}]", f"rows={rows}", f"cols={cols}"])
for rows, cols in ((64, 100), (200, 40)):
    fresh4(f"colsum_tiled.{rows}x{cols}", F4K, "colsum_tiled", (32, 8),
           [f"out=float32[{cols}]", f"A=float32[{rows * cols}]", f"rows={rows}", f"cols={cols}"])
# 3-D permute (0 <-> 2) through shared tiles, two template instances; a block a d1 plane (grid z)
for t, tile, rws, dt, (D0, D1, D2) in (("float", 32, 8, "float32", (40, 3, 50)), ("float", 32, 8, "float32", (32, 4, 32)),
                                       ("unsigned short", 16, 16, "uint16", (20, 2, 36))):
    fresh4(f"permute_021_tiled.{dt}.{D0}x{D1}x{D2}", F4K, f"permute_021_tiled<{t}, {tile}, {rws}>", (tile, rws),
           [f"out={dt}[{D0 * D1 * D2}]", f"in={dt}[{D0 * D1 * D2}]", f"D0={D0}", f"D1={D1}", f"D2={D2}"], grid=(1, 1, D1))
# data processing
for n, b, th in ((3000, 256, 0.5), (1000, 96, -0.2)):
    fresh4(f"compact_above.n{n}.b{b}", F4A, "compact_above", (b,),
           [f"out=float32[{n}]", "out_count=int32[1]", f"in=float32[{n}]:-1..1", f"n={n}", f"threshold={th}"])
for seg, nseg in ((128, 4), (256, 3)):
    fresh4(f"bitonic_segments_u64.seg{seg}", F4A, f"bitonic_segments_u64<{seg}>", (seg // 2,),
           [f"keys=uint64[{seg * nseg}]", f"nseg={nseg}"])
for b in (64, 48):
    fresh4(f"csr_rowlen_hist.b{b}", F4A, "csr_rowlen_hist", (b,),
           ["hist=uint32[16]", f"row_ptr={npy('csr_row_ptr')}", "rows=64"])
for order, b in (("sorted", 256), ("random", 200)):
    fresh4(f"coo_row_count.{order}.b{b}", F4A, "coo_row_count", (b,),
           ["row_counts=int32[100]", f"coo_rows={npy('fresh4_coo_rows_' + order)}", "nnz=2000"])
for rows, b in ((120, 128), (90, 96)):
    fresh4(f"ell_spmv_colmajor.r{rows}.b{b}", F4A, "ell_spmv_colmajor", (b,),
           [f"y=float32[{rows}]", f"ell_cols={npy('fresh4_ell_cols')}", "ell_vals=float32[1280]", "x=float32[300]",
            f"rows={rows}", "width=10", "ld=128"])
for b, g in ((256, 1), (100, 2)):
    fresh4(f"bfs_bitmap_step.b{b}.g{g}", F4A, "bfs_bitmap_step", (b,),
           ["next=uint32[16]", f"visited={npy('fresh4_visited_bits')}", "parent=int32[512]",
            f"frontier={npy('fresh4_frontier_bits')}", f"row_ptr={npy('fresh4_graph_row_ptr')}",
            f"cols={npy('fresh4_graph_cols')}", "nv=512"], grid=(g, 1, 1))
for pat, m, b in (("the", 4, 256), ("bandwidth", 9, 128)):
    fresh4(f"find_pattern.{pat}.b{b}", F4A, "find_pattern", (b,),
           ["match_pos=int32[3001]", "nmatch=int32[1]", f"text={npy('fresh3_text')}", "n=3001",
            f"pat={npy('fresh4_pat_' + pat)}", f"m={m}"])
for n, b in ((2000, 256), (777, 96)):
    fresh4(f"rle_encode.n{n}.b{b}", F4A, "rle_encode", (b,),
           [f"run_vals=uint8[{n}]", f"run_starts=int32[{n}]", f"run_lens=int32[{n}]", "nruns=int32[1]",
            f"in={npy('fresh4_runs_2000')}", f"n={n}"])
# images: pitches that are not multiples of 128 bytes, grids of edge blocks
for w, h, sp, dp, g in ((64, 48, 72, 40, (2, 2, 1)), (50, 30, 50, 25, (2, 1, 1))):
    fresh4(f"downsample2x2_gray.w{w}.pitch{sp}", F4A, "downsample2x2_gray", (16, 16),
           [f"dst=uint8[{dp * h // 2}]", f"dst_pitch={dp}", f"src=uchar4[{sp * h}]", f"src_pitch={sp}", f"w={w}", f"h={h}"],
           grid=g)
for w, h, yp, uvp, rp, g in ((64, 32, 80, 48, 64, (2, 4, 1)), (50, 20, 50, 25, 52, (2, 3, 1))):
    fresh4(f"i420_to_rgba.w{w}.ypitch{yp}", F4A, "i420_to_rgba", (32, 8),
           [f"rgba=uchar4[{rp * h}]", f"rgba_pitch={rp}", f"Y=uint8[{yp * h}]", f"y_pitch={yp}",
            f"U=uint8[{uvp * h // 2}]", f"V=uint8[{uvp * h // 2}]", f"uv_pitch={uvp}", f"w={w}", f"h={h}"], grid=g)
for Ho, Wo, g in ((16, 16, (1, 1, 1)), (20, 24, (2, 2, 1))):
    fresh4(f"grid_sample_bilinear.{Ho}x{Wo}", F4A, "grid_sample_bilinear", (16, 16),
           [f"out=float32[{3 * Ho * Wo}]", "img=float32[6000]", f"grid=float2[{Ho * Wo}]:-1.1..1.1", "C=3", "H=40",
            "W=50", f"Ho={Ho}", f"Wo={Wo}"], grid=g)
for w, h, pitch, nimg, g in ((20, 12, 24, 4, (3, 2, 1)), (16, 16, 16, 6, (2, 2, 1))):
    fresh4(f"box3_u16_batch.w{w}.n{nimg}", F4A, "box3_u16_batch", (8, 8, 4),
           [f"out=uint16[{pitch * h * nimg}]", f"in=uint16[{pitch * h * nimg}]", f"w={w}", f"h={h}", f"pitch={pitch}",
            f"nimg={nimg}"], grid=g)
# nvcc: cooperative groups, bf16/half pairs
for N, C, b in ((8, 100, 128), (16, 768, 256)):
    fresh4(f"layernorm_cg.n{N}.c{C}", F4C, "layernorm_cg", (b,),
           [f"out=float32[{N * C}]", f"mean=float32[{N}]", f"rstd=float32[{N}]", f"inp=float32[{N * C}]",
            f"weight=float32[{C}]", f"bias=float32[{C}]", f"N={N}", f"C={C}"])
for off2, n2, b in ((0, 1000, 256), (3, 777, 96)):
    fresh4(f"residual_add_bf16x2.off{off2}.b{b}", F4C, "residual_add_bf16x2", (b,),
           [f"out=bfloat162[{off2 + n2}]", f"a=bfloat162[{off2 + n2}]", f"b=bfloat162[{off2 + n2}]", f"off2={off2}",
            f"n2={n2}"])
for n, b in ((1024, 128), (1000, 96)):
    fresh4(f"residual_axpy_half8.n{n}.b{b}", F4C, "residual_axpy_half8", (b,), [f"x=half[{n}]", f"h=half[{n}]", "alpha=0.5", f"n={n}"])
for rows, C, b in ((4, 512, 128), (3, 300, 96)):
    fresh4(f"fused_residual_rmsnorm_bf16.r{rows}.c{C}", F4C, "fused_residual_rmsnorm_bf16", (b,),
           [f"normed=bfloat16[{rows * C}]", f"resid=bfloat16[{rows * C}]", f"delta=bfloat16[{rows * C}]", f"w=bfloat16[{C}]",
            f"rows={rows}", f"C={C}"])


# ---- the fifth fresh held-out batch (kernels/fresh5_kernels.cu, fresh5_apps.cu, fresh5_common.cuh): control flow
# around memory accesses (ragged segments a warp or a thread each, CSR SpMV with 4 to 32 lanes a row and an
# unrolled row loop, linked-list and union-find walks, binary search, an interpolation index that walks, escape-time
# and Collatz loops, batched Thomas solves, unrolled tails, break/continue on data, a type-tag switch, boundary
# branches, SPH neighbour cells, a k-nearest insertion, string comparisons to the first difference, ESC expansion,
# scan-based expansion, run lengths, a uchar4 loop with a scalar tail, an __any_sync work list, a symmetric
# matrix-vector product from lower storage), written before its first recording; grids of up to 6 blocks
F5K, F5A = f"{K}/fresh5_kernels.cu", f"{K}/fresh5_apps.cu"
_F5 = _fresh5_data()
_F5N = {k: int(v[-1]) for k, v in _F5.items() if k.endswith(("offsets", "_ptr", "offsets_200"))}


def fresh5(id, file, kernel, block, args, **kw):
    return case("fresh5." + id, file, kernel, block, args, **kw)


_RAG = npy("fresh5_ragged_offsets")
for (wy, g) in ((8, 1), (4, 3)):
    fresh5(f"ragged_row_sum_warp.32x{wy}.g{g}", F5K, "ragged_row_sum_warp", (32, wy),
           ["sums=float32[48]", f"vals=float32[{_F5N['fresh5_ragged_offsets']}]", f"offsets={_RAG}", "nseg=48"], grid=(g, 1, 1))
for b in (128, 96):
    fresh5(f"ragged_softmax_warp.b{b}", F5K, "ragged_softmax_warp", (b,),
           [f"out=float32[{_F5N['fresh5_ragged_offsets']}]", f"in=float32[{_F5N['fresh5_ragged_offsets']}]:-3..3",
            f"offsets={_RAG}", "nseg=48"])
for L, b, g in ((4, 128, 1), (8, 256, 1), (16, 64, 2), (32, 256, 1), (32, 96, 2)):
    fresh5(f"csr_spmv_lanes.l{L}.b{b}.g{g}", F5K, f"csr_spmv_lanes<{L}>", (b,),
           ["y=float32[64]", f"row_ptr={npy('csr_row_ptr')}", f"cols={npy('csr_cols')}", f"vals={npy('csr_vals')}",
            "x=float32[512]", "rows=64"], grid=(g, 1, 1))
for b, g in ((96, 1), (64, 2)):
    fresh5(f"segment_sum_thread_i16.b{b}.g{g}", F5K, "segment_sum_thread_i16", (b,),
           ["sums=int32[200]", f"samples=int16[{_F5N['fresh5_seg_offsets_200']}]", f"offsets={npy('fresh5_seg_offsets_200')}",
            "nseg=200"], grid=(g, 1, 1))
for b, g, maxd in ((64, 2, 1000), (128, 1, 16)):
    fresh5(f"list_walk_sum.b{b}.max{maxd}", F5K, "list_walk_sum", (b,),
           ["out=float32[128]", "length=int32[128]", f"head={npy('fresh5_list_head')}", f"next={npy('fresh5_list_next')}",
            "val=float32[1500]", "nlists=128", f"maxd={maxd}"], grid=(g, 1, 1))
for b, g in ((128, 1), (48, 3)):
    fresh5(f"uf_find_halving.b{b}", F5K, "uf_find_halving", (b,),
           ["root=int32[128]", f"parent={npy('fresh5_uf_parent')}", f"query={npy('fresh5_uf_query')}", "nq=128"], grid=(g, 1, 1))
for b, nq in ((256, 1000), (200, 333)):
    fresh5(f"lower_bound_queries.b{b}.q{nq}", F5K, "lower_bound_queries", (b,),
           [f"pos=int32[{nq}]", f"keys={npy('fresh5_sorted_keys')}", "nkeys=2048", f"queries={npy('fresh5_key_queries')}",
            f"nq={nq}"])
for b, n in ((200, 1000), (64, 300)):
    fresh5(f"interp1d_walk.b{b}.n{n}", F5K, "interp1d_walk", (b,),
           [f"y=float32[{n}]", f"x={npy('fresh5_interp_x')}", f"n={n}", f"xp={npy('fresh5_interp_xp')}", "fp=float32[200]",
            "m=200"])
for (bx, by), w, h, pitch, g in (((16, 16), 40, 30, 44, (3, 2, 1)), ((32, 8), 64, 16, 64, (2, 2, 1))):
    fresh5(f"escape_time_palette.{bx}x{by}.w{w}.pitch{pitch}", F5K, "escape_time_palette", (bx, by),
           [f"img=uchar4[{pitch * h}]", f"pitch={pitch}", "palette=uchar4[64]", f"w={w}", f"h={h}", "x0=-2.1",
            "y0=-1.2", f"dx={2.4 / h:.6f}", "maxit=60"], grid=g)
for inter, nsys, m, b, g in ((1, 96, 16, 96, 1), (0, 96, 16, 96, 1), (1, 200, 9, 128, 2), (0, 200, 9, 128, 2)):
    fresh5(f"thomas_batch.{'interleaved' if inter else 'contiguous'}.s{nsys}.m{m}", F5K,
           f"thomas_batch<{'true' if inter else 'false'}>", (b,),
           [f"xout=float32[{nsys * m}]", f"cp=float32[{nsys * m}]", f"a=float32[{nsys * m}]:-1..1",
            f"b=float32[{nsys * m}]:4..5", f"c=float32[{nsys * m}]:-1..1", f"d=float32[{nsys * m}]", f"nsys={nsys}",
            f"m={m}"], grid=(g, 1, 1))
for ilp, n, b, g in ((4, 3000, 256, 1), (8, 1000, 96, 1), (4, 777, 64, 2)):
    fresh5(f"scale_shift_tail.ilp{ilp}.n{n}.b{b}", F5K, f"scale_shift_tail<{ilp}>", (b,),
           [f"y=float64[{n}]", f"x=float64[{n}]", "a=1.5", "b=-0.25", f"n={n}"], grid=(g, 1, 1))
for rows, cols, lda, b, thr in ((150, 40, 41, 96, 0.9), (64, 100, 128, 64, 0.99)):
    fresh5(f"first_above_break.r{rows}.lda{lda}", F5K, "first_above_break", (b,),
           [f"pos=int32[{rows}]", f"A=float32[{rows * lda}]:-1..1", f"rows={rows}", f"cols={cols}", f"lda={lda}",
            f"thr={thr}"])
for (wy, g), lda in (((4, 1), 200), ((8, 2), 203)):
    fresh5(f"banded_matvec_f64.32x{wy}.g{g}.lda{lda}", F5K, "banded_matvec_f64", (32, wy),
           ["y=float64[60]", f"A=float64[{60 * lda}]", f"lda={lda}", f"lo={npy('fresh5_band_lo')}",
            f"hi={npy('fresh5_band_hi')}", "x=float64[200]", "rows=60"], grid=(g, 1, 1))
for n, b, g in ((1000, 256, 1), (777, 96, 2)):
    fresh5(f"gridstride_clean_f2.n{n}.b{b}", F5K, "gridstride_clean_f2", (b,),
           [f"mag=float32[{n}]", "kept=int32[1]", f"in=float2[{n}]:-1..1", f"n={n}"], grid=(g, 1, 1))
for n, b, g in ((1000, 256, 4), (500, 96, 6)):
    fresh5(f"typed_gather_switch.n{n}.b{b}", F5K, "typed_gather_switch", (b,),
           [f"out=float32[{n}]", f"tag={npy('fresh5_tags')}", f"idx={npy('fresh5_tag_idx')}", "f32=float32[512]",
            "f64=float64[512]", "i32=int32[512]", "i16=int16[512]", "scale16=0.001", f"n={n}"], grid=(g, 1, 1))
for mask, b, g in (("random", 256, 4), ("runs", 100, 10)):
    fresh5(f"select_two_sources.{mask}.b{b}", F5K, "select_two_sources", (b,),
           ["out=float32[1000]", f"mask={npy('fresh5_mask_' + mask)}", "a=float32[1000]", "b=float32[1000]",
            "w=float32[1000]", f"perm={npy('fresh5_perm_1000')}", "n=1000"], grid=(g, 1, 1))
for (bx, by), w, h, pitch, g in (((16, 16), 40, 36, 41, (3, 3, 1)), ((32, 8), 50, 20, 64, (2, 3, 1))):
    fresh5(f"diffuse_boundary_branches.{bx}x{by}.w{w}.pitch{pitch}", F5K, "diffuse_boundary_branches", (bx, by),
           [f"out=float32[{pitch * h}]", f"in=float32[{pitch * h}]", f"w={w}", f"h={h}", f"pitch={pitch}", "k=0.2"],
           grid=g)
for b, g, hh in ((128, 4, 0.2), (96, 6, 0.3)):
    fresh5(f"sph_density_cells.b{b}.h{hh}", F5K, "sph_density_cells", (b,),
           ["rho=float32[500]", f"pos={npy('fresh5_sph_pos')}", f"cell_start={npy('fresh5_sph_cell_start')}",
            f"cell_end={npy('fresh5_sph_cell_end')}", "n=500", "G=4", f"h={hh}"], grid=(g, 1, 1))
for nq, nref, b, g in ((64, 300, 64, 1), (100, 200, 64, 2)):
    fresh5(f"knn_shared_insertion.q{nq}.r{nref}", F5K, "knn_shared_insertion", (b,),
           [f"nbr=int32[{nq * 8}]", f"nbr_d=float32[{nq * 8}]", f"queries=float2[{nq}]:0..1", f"nq={nq}",
            f"refs=float2[{nref}]:0..1", f"nref={nref}"], grid=(g, 1, 1))
_NW = len(_F5["fresh5_dict_offsets"]) - 1
for b, g in ((128, 3), (96, 4)):
    fresh5(f"strcmp_adjacent.b{b}", F5A, "strcmp_adjacent", (b,),
           [f"cmp=int32[{_NW}]", f"common=int32[{_NW}]", f"chars={npy('fresh5_dict_chars')}",
            f"offsets={npy('fresh5_dict_offsets')}", f"nstr={_NW}"], grid=(g, 1, 1))
_ESC = _F5N["fresh5_esc_out_ptr"]
for wy, g in ((4, 1), (8, 2)):
    fresh5(f"spgemm_esc_expand.32x{wy}.g{g}", F5A, "spgemm_esc_expand", (32, wy),
           [f"out_cols=int32[{_ESC}]", f"out_vals=float32[{_ESC}]", f"out_ptr={npy('fresh5_esc_out_ptr')}",
            f"a_ptr={npy('fresh5_esc_a_ptr')}", f"a_cols={npy('fresh5_esc_a_cols')}",
            f"a_vals=float32[{_F5N['fresh5_esc_a_ptr']}]", f"b_ptr={npy('fresh5_esc_b_ptr')}",
            f"b_cols={npy('fresh5_esc_b_cols')}", f"b_vals=float32[{_F5N['fresh5_esc_b_ptr']}]", "rows=40"], grid=(g, 1, 1))
_EXP = int(_F5["fresh5_expand_counts"].sum())
for n, b in ((1000, 256), (500, 128)):
    fresh5(f"expand_by_counts.n{n}.b{b}", F5A, "expand_by_counts", (b,),
           [f"out_item=int32[{_EXP}]", f"out_rank=int16[{_EXP}]", f"counts={npy('fresh5_expand_counts')}", f"n={n}"])
for n, b, g in ((2000, 256, 1), (1500, 96, 3)):
    fresh5(f"run_lengths_walk.n{n}.b{b}", F5A, "run_lengths_walk", (b,),
           ["run_len=int32[300]", f"keys={npy('fresh5_run_keys')}", f"n={n}"], grid=(g, 1, 1))
for n, b, g in ((3001, 256, 1), (2998, 128, 2)):
    fresh5(f"byte_class_count.n{n}.b{b}", F5A, "byte_class_count", (b,),
           ["counts=uint32[6]", f"text={npy('fresh3_text')}", f"n={n}"], grid=(g, 1, 1))
for b, g in ((64, 4), (200, 1)):
    fresh5(f"worklist_warp_any.b{b}", F5A, "worklist_warp_any", (b,),
           ["out=int32[200]", f"items=int16[{int(_F5['fresh5_work_len'].sum())}]:-5..5", f"qoff={npy('fresh5_work_off')}",
            f"qlen={npy('fresh5_work_len')}", "nq=200"], grid=(g, 1, 1))
for n, lda, g in ((100, 100, 4), (70, 72, 3)):
    fresh5(f"symv_lower_tiled.n{n}.lda{lda}", F5A, "symv_lower_tiled", (32, 8),
           [f"y=float32[{n}]", f"A=float32[{n * lda}]", f"lda={lda}", f"x=float32[{n}]", f"n={n}"], grid=(g, 1, 1))
_PTS = _F5N["fresh5_poly_offsets"]
for b, g in ((64, 3), (160, 1)):
    fresh5(f"polyline_lengths_f64.b{b}", F5A, "polyline_lengths_f64", (b,),
           ["len=float64[150]", f"pts=double2[{_PTS}]", f"offsets={npy('fresh5_poly_offsets')}", "nlines=150"],
           grid=(g, 1, 1))
for tsize, n, b in ((1024, 1000, 256), (64, 500, 96)):
    fresh5(f"collatz_memo.t{tsize}.n{n}", F5A, "collatz_memo", (b,),
           [f"steps=int32[{n}]", f"start={npy('fresh5_collatz_start')}", f"memo={npy('fresh5_collatz_memo')}",
            f"tsize={tsize}", f"n={n}"])
for b, g in ((256, 1), (64, 2)):
    fresh5(f"segment_span_i16.b{b}.g{g}", F5A, "segment_span_i16", (b,),
           ["span=int16[48]", f"vals=int16[{_F5N['fresh5_ragged_offsets']}]:-3000..3000", f"offsets={_RAG}", "nseg=48"],
           grid=(g, 1, 1))


# ---- the sixth fresh held-out batch (kernels/fresh6_kernels.cu, fresh6_apps.cu, fresh6_common.cuh; compiled by
# nvcc, since NVRTC finds neither CUB, libcu++, cooperative groups, mma.h nor cuda_fp16.h on the include path): the
# CUDA C++ library idioms of modern code (WMMA from and to shared and global memory with half and bf16 inputs,
# cuda::pipeline and cooperative_groups::memcpy_async double buffering, __pipeline_memcpy_async, CUB's BlockLoad/
# BlockStore/BlockReduce/BlockScan/BlockRadixSort/BlockHistogram/WarpReduce/WarpScan, clusters with distributed
# shared memory (__cluster_dims__ and a cluster shape given at launch), tiled_partition/cg::reduce/coalesced_threads),
# GEMM and attention layouts (XOR-swizzled fp16 tiles, ldmatrix + mma.sync, M-major staging, online softmax) and data
# layouts (a 20-byte particle struct, float3/float4/SoA, a float/int union, bitfields, half2/bf16x2, uchar4/char4,
# double2 FFTs, 64-bit atomics and a CAS loop, templated grid-stride loops), written before its first recording;
# grids of up to 8 blocks
F6K, F6A = f"{K}/fresh6_kernels.cu", f"{K}/fresh6_apps.cu"


def fresh6(id, file, kernel, block, args, **kw):
    c = case("fresh6." + id, file, kernel, block, args, **kw)
    c["compiler"] = "nvcc"
    return c


# WMMA
for pad, M, N, Kd in ((0, 64, 64, 64), (8, 96, 64, 96), (8, 32, 32, 128)):
    fresh6(f"wmma_gemm_smem.pad{pad}.m{M}n{N}k{Kd}", F6K, f"wmma_gemm_smem<{pad}>", (128,),
           [f"C=float32[{M * N}]", f"A=float16[{M * Kd}]:-1..1", f"B=float16[{Kd * N}]:-1..1", f"bias=float32[{N}]",
            f"M={M}", f"N={N}", f"K={Kd}"], grid=(N // 32, M // 32, 1))
for col, M, N, Kd, wy, g in (("false", 64, 48, 64, 4, 3), ("true", 32, 64, 32, 2, 4)):
    fresh6(f"wmma_bf16_direct.{'colout' if col == 'true' else 'rowout'}.m{M}n{N}k{Kd}", F6K, f"wmma_bf16_direct<{col}>",
           (32, wy), [f"C=float32[{M * N}]", f"A=bfloat16[{M * Kd}]:-1..1", f"Bt=bfloat16[{N * Kd}]:-1..1", f"M={M}",
                      f"N={N}", f"K={Kd}"], grid=(g, 1, 1))
for M, N, Kd, b, g in ((64, 64, 48, 128, 2), (48, 32, 32, 64, 1)):
    fresh6(f"wmma_colmajor_relu.m{M}n{N}k{Kd}.b{b}", F6K, "wmma_colmajor_relu", (b,),
           [f"C=float16[{M * N}]", f"A=float16[{M * Kd}]:-1..1", f"B=float16[{Kd * N}]:-1..1", f"M={M}", f"N={N}",
            f"K={Kd}"], grid=(g, 1, 1))
# pipelines
for b, rows, cols, g in ((128, 12, 256, 3), (256, 8, 500, 2), (64, 5, 96, 1)):
    fresh6(f"rmsnorm_rows_pipelined.b{b}.r{rows}.c{cols}", F6K, f"rmsnorm_rows_pipelined<{b}>", (b,),
           [f"out=float32[{rows * cols}]", f"in=float32[{rows * cols}]:-2..2", f"gamma=float32[{cols}]", f"rows={rows}",
            f"cols={cols}"], grid=(g, 1, 1))
for w, rows, cols in ((128, 64, 256), (64, 50, 160)):
    fresh6(f"colsum_cg_async.w{w}.r{rows}.c{cols}", F6K, f"colsum_cg_async<{w}>", (w,),
           [f"colsum=float32[{cols}]", f"colmean=float32[{cols}]", f"A=float32[{rows * cols}]", f"rows={rows}",
            f"cols={cols}"], grid=((cols + w - 1) // w, 1, 1))
for n, b, g in ((2048, 128, 2), (1001, 64, 3)):
    fresh6(f"stencil7_pipeline_prims.n{n}.b{b}", F6K, "stencil7_pipeline_prims", (b,),
           [f"out=float32[{n}]", f"in=float32[{n}]", f"n={n}"], grid=(g, 1, 1))
# CUB
for b, items, algo, n, g in ((128, 4, 0, 2048, 2), (96, 4, 1, 1000, 2), (128, 4, 2, 1536, 3), (64, 2, 0, 300, 1)):
    fresh6(f"cub_gelu_tiles.b{b}.i{items}.a{algo}.n{n}", F6K, f"cub_gelu_tiles<{b}, {items}, {algo}>", (b,),
           [f"out=float32[{n}]", f"in=float32[{n}]:-3..3", f"n={n}"], grid=(g, 1, 1))
for b, rak, rows, cols, g in ((128, 0, 6, 1000, 3), (256, 1, 4, 256, 4), (80, 1, 5, 333, 2)):
    fresh6(f"row_sum_max_cub.b{b}.raking{rak}.c{cols}", F6K, f"row_sum_max_cub<{b}, {rak}>", (b,),
           [f"rsum=float32[{rows}]", f"rmax=float32[{rows}]", f"X=float32[{rows * cols}]:-1..1", f"rows={rows}",
            f"cols={cols}"], grid=(g, 1, 1))
for b, items, n, g in ((128, 4, 2048, 4), (96, 2, 1000, 2)):
    fresh6(f"compact_positive_scan.b{b}.i{items}.n{n}", F6K, f"compact_positive_scan<{b}, {items}>", (b,),
           [f"out=float32[{n}]", f"counts=int32[{-(-n // (b * items))}]", f"in=float32[{n}]:-1..1", f"n={n}"],
           grid=(g, 1, 1))
for b, items, ln, g in ((128, 2, 256, 3), (64, 4, 200, 2)):
    fresh6(f"running_max_drawdown.b{b}.i{items}.len{ln}", F6K, f"running_max_drawdown<{b}, {items}>", (b,),
           [f"runmax=float32[{g * ln}]", f"drawdown=float32[{g * ln}]", f"price=float32[{g * ln}]:1..2", f"len={ln}"],
           grid=(g, 1, 1))
for b, items, n in ((128, 4, 1024), (64, 8, 900)):
    fresh6(f"radix_sort_tile_keys.b{b}.i{items}.n{n}", F6K, f"radix_sort_tile_keys<{b}, {items}>", (b,),
           [f"sorted=uint32[{n}]", f"keys=uint32[{n}]", f"n={n}"], grid=(-(-n // (b * items)), 1, 1))
for b, items, n in ((128, 2, 512), (256, 1, 600)):
    fresh6(f"radix_sort_scores_desc.b{b}.i{items}.n{n}", F6K, f"radix_sort_scores_desc<{b}, {items}>", (b,),
           [f"out_score=float32[{n}]", f"out_id=int32[{n}]", f"score=float32[{n}]:-5..5", f"n={n}"],
           grid=(-(-n // (b * items)), 1, 1))
for b, items, srt, n, g in ((128, 4, 1, 4096, 4), (64, 8, 0, 3001, 3)):
    fresh6(f"byte_histogram_cub.b{b}.i{items}.{'sort' if srt else 'atomic'}.n{n}", F6K,
           f"byte_histogram_cub<{b}, {items}, {srt}>", (b,),
           ["hist=uint32[256]", f"data=uint8[{n}]", f"n={n}"], grid=(g, 1, 1))
for lw, rows, cols, b, g in ((32, 20, 100, 128, 2), (16, 40, 48, 64, 3)):
    fresh6(f"warp_row_stats_cub.lw{lw}.r{rows}.c{cols}", F6K, f"warp_row_stats_cub<{lw}>", (b,),
           [f"rsum=float32[{rows}]", f"lane_off=int32[{rows * lw}]", f"rcount=int32[{rows}]",
            f"X=float32[{rows * cols}]:-1..1", f"rows={rows}", f"cols={cols}", "thr=0.25"], grid=(g, 1, 1))
# clusters and distributed shared memory (grid = a multiple of the cluster)
for b, g in ((128, 2), (64, 4)):
    fresh6(f"rod_diffusion_cluster2.b{b}.g{g}", F6K, "rod_diffusion_cluster2", (b,),
           [f"u=float32[{b * g}]", f"u0=float32[{b * g}]", "alpha=0.2", "steps=4"], grid=(g, 1, 1), cluster=(2, 1, 1))
for b, g, n in ((128, 4, 2000), (64, 8, 1500)):
    fresh6(f"dsmem_histogram_cluster4.b{b}.g{g}", F6K, "dsmem_histogram_cluster4", (b,),
           [f"hist=uint32[{g // 4 * 256}]", f"keys=uint32[{n}]", f"n={n}"], grid=(g, 1, 1), cluster=(4, 1, 1))
for cs, g, cols, b in ((2, 2, 1000, 128), (2, 4, 300, 64), (4, 4, 777, 96)):
    fresh6(f"cluster_row_softmax.cs{cs}.g{g}.c{cols}", F6K, "cluster_row_softmax", (b,),
           [f"out=float32[{g // cs * cols}]", f"in=float32[{g // cs * cols}]:-3..3", f"cols={cols}"], grid=(g, 1, 1),
           cluster=(cs, 1, 1))
# warp-level cooperative groups
for t, nseg, ln, b, g in ((16, 50, 40, 128, 2), (8, 100, 13, 64, 3)):
    fresh6(f"segment_dot_tiles.t{t}.s{nseg}.len{ln}", F6K, f"segment_dot_tiles<{t}>", (b,),
           [f"dot=float32[{nseg}]", f"a=float32[{nseg * ln}]", f"b=float32[{nseg * ln}]", f"nseg={nseg}",
            f"seglen={ln}"], grid=(g, 1, 1))
for rows, cols, b, g in ((64, 64, 128, 2), (40, 24, 32, 3)):
    fresh6(f"transpose8_tile_shfl.{rows}x{cols}.b{b}", F6K, "transpose8_tile_shfl", (b,),
           [f"out=float32[{rows * cols}]", f"in=float32[{rows * cols}]", f"rows={rows}", f"cols={cols}"], grid=(g, 1, 1))
for n, b, g, chunk, thr in ((2048, 128, 2, 256, 0.3), (1000, 64, 2, 250, 0.0)):
    fresh6(f"filter_append_coalesced.n{n}.b{b}", F6K, "filter_append_coalesced", (b,),
           [f"out=float32[{n}]", f"warp_count=int32[{b * g // 32}]", f"in=float32[{n}]:-1..1", f"n={n}", f"thr={thr}",
            f"chunk={chunk}"], grid=(g, 1, 1))
# GEMM and attention layouts
for rows, cols in ((128, 64), (64, 192)):
    fresh6(f"transpose_f16_swizzled.{rows}x{cols}", F6A, "transpose_f16_swizzled", (128,),
           [f"out=float16[{rows * cols}]", f"in=float16[{rows * cols}]", f"rows={rows}", f"cols={cols}"],
           grid=(cols // 64, rows // 64, 1))
for M, Kd in ((128, 64), (64, 192)):
    fresh6(f"hgemm_ldmatrix_swizzle.m{M}k{Kd}", F6A, "hgemm_ldmatrix_swizzle", (128,),
           [f"C=float32[{M * 32}]", f"A=float16[{M * Kd}]:-1..1", f"B=float16[{Kd * 32}]:-1..1", f"M={M}", f"K={Kd}"],
           grid=(M // 64, 1, 1))
for pad, M, N, Kd in ((0, 64, 64, 32), (4, 32, 96, 40)):
    fresh6(f"sgemm_mmajor_staging.pad{pad}.m{M}n{N}k{Kd}", F6A, f"sgemm_mmajor_staging<{pad}>", (64,),
           [f"C=float32[{M * N}]", f"A=float32[{M * Kd}]:-1..1", f"B=float32[{Kd * N}]:-1..1", f"M={M}", f"N={N}",
            f"K={Kd}"], grid=(N // 32, M // 32, 1))
for nq, nk, b, g in ((64, 100, 64, 1), (128, 64, 64, 2), (80, 40, 32, 3)):
    fresh6(f"attention_online_softmax.q{nq}.k{nk}.b{b}", F6A, "attention_online_softmax", (b,),
           [f"O=float32[{nq * 32}]", f"Q=float32[{nq * 32}]:-1..1", f"Kmat=float32[{nk * 32}]:-1..1",
            f"V=float32[{nk * 32}]", f"nq={nq}", f"nk={nk}", "scale=0.1767767"], grid=(g, 1, 1))
# data layouts
for n, b, g in ((500, 128, 2), (333, 96, 4)):
    fresh6(f"advect_particles_aos20.n{n}.b{b}", F6A, "advect_particles_aos20", (b,),
           [f"p=float32[{5 * n}]:0..1", f"vel=float3[{n}]:-1..1", "dt=0.05", f"n={n}", "G=8"], grid=(g, 1, 1))
for n, b, g in ((1000, 256, 2), (333, 64, 3)):
    fresh6(f"advect_particles_soa.n{n}.b{b}", F6A, "advect_particles_soa", (b,),
           [f"x=float32[{n}]", f"y=float32[{n}]", f"z=float32[{n}]", f"vx=float32[{n}]:-1..1", f"vy=float32[{n}]:-1..1",
            f"vz=float32[{n}]:-1..1", f"mass=float32[{n}]:1..2", "dt=0.01", "drag=0.5", f"n={n}"], grid=(g, 1, 1))
for n, b, g in ((256, 128, 2), (300, 64, 5)):
    fresh6(f"nbody_accel_float4.n{n}.b{b}", F6A, "nbody_accel_float4", (b,),
           [f"acc=float4[{n}]", f"pos=float4[{n}]:0..1", f"n={n}", "eps2=0.01"], grid=(g, 1, 1), dyn=16 * b)
for n, b, g, shift in ((2000, 256, 2, 24), (1000, 128, 3, 0)):
    fresh6(f"float_radix_digit_hist.n{n}.shift{shift}", F6A, "float_radix_digit_hist", (b,),
           ["hist=uint32[256]", f"keys=uint32[{n}]", f"vals=float32[{n}]:-100..100", f"n={n}", f"shift={shift}"],
           grid=(g, 1, 1))
for (bx, by), w, h, pitch, g in (((16, 16), 50, 37, 52, (4, 3, 1)), ((32, 4), 70, 9, 72, (3, 3, 1))):
    fresh6(f"rgb565_to_rgba.{bx}x{by}.w{w}", F6A, "rgb565_to_rgba", (bx, by),
           [f"rgba=uchar4[{w * h}]", f"chroma=int8[{4 * w * h}]", f"src=uint16[{pitch * h}]", f"w={w}", f"h={h}",
            f"pitch={pitch}"], grid=g)
for w, h, pitch, g in ((50, 37, 52, (4, 3, 1)), (33, 20, 33, (3, 2, 1))):
    fresh6(f"box3_uchar4_smem.w{w}.h{h}.pitch{pitch}", F6A, "box3_uchar4_smem", (16, 16),
           [f"dst=uchar4[{pitch * h}]", f"src=uchar4[{pitch * h}]", f"w={w}", f"h={h}", f"pitch={pitch}"], grid=g)
for lg, b, g in ((8, 128, 2), (6, 16, 4)):
    fresh6(f"fft_radix2_double2.n{1 << lg}.b{b}", F6A, "fft_radix2_double2", (b,),
           [f"out=double2[{g << lg}]", f"in=double2[{g << lg}]:-1..1", f"log2n={lg}"], grid=(g, 1, 1), dyn=16 << lg)
for n, nb, b, g in ((2000, 64, 256, 2), (1000, 300, 128, 3)):
    fresh6(f"weighted_hist_fixed64.n{n}.bins{nb}", F6A, "weighted_hist_fixed64", (b,),
           [f"sum=uint64[{nb}]", f"maxw=int64[{nb}]:-5..0", f"bin=int32[{n}]:0..1000", f"weight=float32[{n}]:0..4",
            f"n={n}", f"nbins={nb}"], grid=(g, 1, 1))
for rows, cols, b, g in ((40, 100, 128, 2), (16, 33, 64, 1)):
    fresh6(f"row_max_cas_f64.r{rows}.c{cols}", F6A, "row_max_cas_f64", (b,),
           [f"rmax=float64[{rows}]:-1..0", f"X=float64[{rows * cols}]:0..10", f"rows={rows}", f"cols={cols}"],
           grid=(g, 1, 1))
for b, t, n, g in ((128, "float", 3000, 4), (256, "double", 5000, 2), (64, "float", 1000, 8)):
    dt = "float32" if t == "float" else "float64"
    fresh6(f"axpby_gridstride.b{b}.{t}.n{n}", F6A, f"axpby_gridstride<{b}, {t}>", (b,),
           [f"y={dt}[{n}]", f"x={dt}[{n}]", "a=1.5", "b=-0.5", f"n={n}"], grid=(g, 1, 1))
for rows, h2, b, g in ((4, 200, 128, (2, 2, 1)), (3, 77, 64, (1, 3, 1))):
    fresh6(f"geglu_bf16x2.r{rows}.h{2 * h2}", F6A, "geglu_bf16x2", (b,),
           [f"out=bfloat162[{rows * h2}]", f"in=bfloat162[{rows * 2 * h2}]:-2..2", f"rows={rows}", f"H2={h2}"], grid=g)
for rows, C, b, g in ((4, 512, 128, 2), (3, 301, 64, 3)):
    fresh6(f"layer_scale_residual_half2.r{rows}.c{C}", F6A, "layer_scale_residual_half2", (b,),
           [f"x=float16[{rows * C}]:-1..1", f"y=float16[{rows * C}]:-1..1", f"gamma=float16[{C}]:0..1", f"rows={rows}",
            f"C={C}"], grid=(g, 1, 1))


# ---- the seventh fresh held-out batch (kernels/fresh7_kernels.cu, compiled by nvcc, and fresh7_apps.cu, compiled
# by NVRTC, with fresh7_common.cuh): ports of public libraries' kernels as an engineer writes them in their own words,
# files as they sit (host launchers and a main() that the recording never runs, static kernels, namespaces,
# extern "C" kernels inside a namespace, `if constexpr`): ggml's 18- and 34-byte q4_0/q8_0 blocks (dequantisation,
# a warp-per-row quantised mat-vec with hand-written integer dot products, rms_norm, rope with position ids, a
# masked and scaled softmax cached in dynamic shared memory), vLLM's serving kernels (fused add + rms_norm with
# uint4/half2 vectors and CUB's BlockReduce, silu_and_mul with __ldcs/__stcs, reshape_and_cache with a slot mapping
# and __stwt, rotary embedding from a cos/sin cache, half2/bf16x2 atomics), OpenCV's pitched images (uchar3 BGR
# with odd steps, bilinear resize, remap, erode/dilate and Sobel on shared tiles with halos, a two-pass integral
# image, warpAffine with border modes), ATen's int64-indexed tensor kernels (index_select along dims 0 and 1,
# gather from a strided view, scatter_add, embedding_bag, max_pool2d with indices, adaptive average pooling, nearest
# upsampling on a 3-D grid, Welford batch-norm statistics, cross-entropy with __reduce_add_sync, a warp-per-row
# cumsum, a ticketed grid reduction read through volatile) and faiss/cuSPARSE/MAGMA kernels (L2 distance tiles in
# one carved extern buffer with an atomicMax on packed 64-bit keys, a register top-k, warp-per-row CSR SpMM, a
# transposed gemv with a volatile warp tail, a padded lower syrk tile), written before its first recording;
# grids of up to 8 blocks
F7K, F7A = f"{K}/fresh7_kernels.cu", f"{K}/fresh7_apps.cu"


def fresh7(id, file, kernel, block, args, **kw):
    c = case("fresh7." + id, file, kernel, block, args, **kw)
    if file == F7K:
        c["compiler"] = "nvcc"
    return c


# ---- ggml-style quantised blocks (nvcc)
_Q4, _Q8 = npy("fresh7_q4_0_blocks_2048"), npy("fresh7_q8_0_blocks_256")
for t, nb, b, g in (("float", 100, 128, 4), ("float", 333, 256, 8), ("half", 64, 96, 3)):
    fresh7(f"dequantize_block_q4_0.{t}.nb{nb}.b{b}", F7K, f"dequantize_block_q4_0<{t}>", (b,),
           [f"vx={_Q4}", f"y={'float32' if t == 'float' else 'float16'}[{nb * 32}]", f"nb={nb}"], grid=(g, 1, 1))
for nb, b, g in ((256, 256, 4), (50, 96, 3)):
    fresh7(f"dequantize_q8_0_bf16x2.nb{nb}.b{b}", F7K, "dequantize_q8_0_bf16x2", (b,),
           [f"x={_Q8}", f"y=bfloat16[{nb * 32}]", f"nb={nb}"], grid=(g, 1, 1))
for nw, ncols, nrows, g in ((4, 512, 32, 8), (2, 1024, 13, 7), (4, 2048, 30, 8)):
    fresh7(f"mul_mat_vec_q4_0_q8_0.w{nw}.c{ncols}.r{nrows}", F7K, f"mul_mat_vec_q4_0_q8_0<{nw}>", (32, nw),
           [f"vw={_Q4}", f"vy={_Q8}", f"dst=float32[{nrows}]", f"ncols={ncols}", f"nrows={nrows}"], grid=(g, 1, 1))
for wy, ncols, nrows, g in ((4, 256, 30, 8), (8, 1024, 8, 1)):
    fresh7(f"mul_mat_vec_q8_0_f32.32x{wy}.c{ncols}.r{nrows}", F7K, "mul_mat_vec_q8_0_f32", (32, wy),
           [f"w={_Q8}", f"x=float32[{ncols}]", f"dst=float32[{nrows}]", f"ncols={ncols}", f"nrows={nrows}"],
           grid=(g, 1, 1), dyn=4 * ncols)
for b, rows, cols in ((32, 6, 700), (256, 4, 4096), (1024, 2, 5000)):
    fresh7(f"rms_norm_f32.b{b}.r{rows}.c{cols}", F7K, f"rms_norm_f32<{b}>", (b,),
           [f"x=float32[{rows * cols}]:-2..2", f"dst=float32[{rows * cols}]", f"ncols={cols}", "eps=1e-6"],
           grid=(rows, 1, 1))
for neox, tok, heads, hd, nd, (bx, by) in ((0, 14, 2, 64, 64, (32, 4)), (1, 10, 4, 128, 64, (32, 8)),
                                            (0, 7, 3, 80, 80, (16, 4))):
    fresh7(f"rope_f16.{'neox' if neox else 'norm'}.t{tok}.h{heads}.d{hd}.nd{nd}", F7K,
           f"rope_f16<{'true' if neox else 'false'}>", (bx, by),
           [f"x=float16[{tok * heads * hd}]", f"pos={npy('fresh7_rope_pos_16')}", f"n_tokens={tok}", f"n_heads={heads}",
            f"head_dim={hd}", f"n_dims={nd}", "freq_base=10000.0"], grid=(heads, -(-tok // by), 1))
for sh, b, rows, cols, mrows in ((1, 128, 8, 500, 4), (0, 256, 6, 1000, 6), (1, 64, 3, 77, 1)):
    fresh7(f"soft_max_masked.{'shared' if sh else 'global'}.b{b}.r{rows}.c{cols}", F7K,
           f"soft_max_masked<{'true' if sh else 'false'}, {b}>", (b,),
           [f"x=float32[{rows * cols}]:-4..4", f"mask=float16[{mrows * cols}]:-1..0", f"dst=float32[{rows * cols}]",
            f"ncols={cols}", f"nrows_mask={mrows}", "scale=0.125"], grid=(rows, 1, 1),
           dyn=4 * (32 + cols) if sh else 128)
# ---- vLLM-style serving kernels (nvcc)
for b, tok, hid in ((256, 4, 1024), (128, 6, 776), (64, 3, 2048)):
    fresh7(f"fused_add_rms_norm_vec8.b{b}.t{tok}.h{hid}", F7K, f"vllm::fused_add_rms_norm_vec8<{b}>", (b,),
           [f"input=float16[{tok * hid}]", f"residual=float16[{tok * hid}]", f"weight=float16[{hid}]:0.5..1.5",
            "epsilon=1e-6", f"hidden_size={hid}"], grid=(tok, 1, 1))
for b, tok, d in ((128, 5, 1000), (64, 4, 333), (256, 8, 1408)):
    fresh7(f"silu_and_mul_bf16.b{b}.t{tok}.d{d}", F7K, "vllm::silu_and_mul_bf16", (b,),
           [f"out=bfloat16[{tok * d}]", f"input=bfloat16[{tok * 2 * d}]:-3..3", f"d={d}"], grid=(tok, 1, 1))
for tok, H, D, bs, nblk, stride, b, slots in ((8, 4, 64, 16, 6, 768, 128, "fresh7_slots_8_of_96"),
                                              (6, 2, 128, 8, 4, 256, 256, "fresh7_slots_6_of_32")):
    cache = nblk * H * D * bs
    fresh7(f"reshape_and_cache_f16.t{tok}.h{H}.d{D}.bs{bs}", F7K, "vllm::reshape_and_cache_f16", (b,),
           [f"key=float16[{tok * stride}]", f"value=float16[{tok * stride}]", f"key_cache=float16[{cache}]",
            f"value_cache=float16[{cache}]", f"slot_mapping={npy(slots)}", f"key_stride={stride}",
            f"value_stride={stride}", f"num_heads={H}", f"head_size={D}", f"block_size={bs}", "x=8"], grid=(tok, 1, 1))
for neox, tok, nh, nkv, hs, rot, b in ((1, 8, 4, 2, 64, 64, 128), (0, 5, 8, 8, 128, 64, 256)):
    fresh7(f"rotary_embedding_f16.{'neox' if neox else 'gptj'}.t{tok}.h{nh}.kv{nkv}.d{hs}.rot{rot}", F7K,
           f"vllm::rotary_embedding_f16<{'true' if neox else 'false'}>", (b,),
           [f"positions={npy('fresh7_rotary_pos_8')}", f"query=float16[{tok * nh * hs}]", f"key=float16[{tok * nkv * hs}]",
            f"cos_sin_cache=float32[{256 * rot}]", f"rot_dim={rot}", f"query_stride={nh * hs}",
            f"key_stride={nkv * hs}", f"num_heads={nh}", f"num_kv_heads={nkv}", f"head_size={hs}"], grid=(tok, 1, 1))
for t2, V, D, T, (bx, by), g in (("__half2", 50, 128, 40, (32, 8), 5), ("__nv_bfloat162", 30, 64, 64, (32, 8), 8)):
    dt = "float16" if t2 == "__half2" else "bfloat16"
    fresh7(f"embedding_backward_packed.{dt}.v{V}.d{D}.t{T}", F7K, f"embedding_backward_packed<{t2}>", (bx, by),
           [f"grad_weight={dt}[{V * D}]", f"grad_out={dt}[{T * D}]", f"ids=int64[{T}]:0..{V - 1}", f"n_tokens={T}",
            f"dim2={D // 2}"], grid=(g, 1, 1))

# ---- OpenCV-style image kernels (NVRTC; steps in bytes)
for cols, rows, sstep, dstep, (bx, by), g in ((50, 20, 157, 53, (32, 8), (2, 3, 1)),
                                              (100, 9, 304, 100, (64, 4), (2, 3, 1))):
    fresh7(f"bgr_to_gray_u8.{cols}x{rows}.step{sstep}", F7A, "cvdev::bgr_to_gray_u8", (bx, by),
           [f"src=uint8[{rows * sstep}]:0..255", f"src_step={sstep}", f"dst=uint8[{rows * dstep}]", f"dst_step={dstep}",
            f"cols={cols}", f"rows={rows}"], grid=g)
for t, (sc, sr, ss), (dc, dr, ds), blk, g in (("unsigned char", (37, 23, 40), (50, 30, 52), (32, 8), (2, 4, 1)),
                                              ("float", (64, 48, 268), (25, 19, 108), (16, 16), (2, 2, 1))):
    dt, es = ("uint8", 1) if t == "unsigned char" else ("float32", 4)
    fresh7(f"resize_linear.{dt}.{sc}x{sr}.to{dc}x{dr}", F7A, f"cvdev::resize_linear<{t}>", blk,
           [f"src={dt}[{sr * ss // es}]", f"src_step={ss}", f"src_cols={sc}", f"src_rows={sr}",
            f"dst={dt}[{dr * ds // es}]", f"dst_step={ds}", f"dst_cols={dc}", f"dst_rows={dr}", f"fx={sc / dc:.6f}",
            f"fy={sr / dr:.6f}"], grid=g)
for name, mx, my in (("lens", npy("fresh7_remap_mx_20x48"), npy("fresh7_remap_my_20x48")),
                     ("random", "float32[960]:-3..42", "float32[960]:-3..32")):
    fresh7(f"remap_linear_bgra.{name}.40x30.to48x20", F7A, "cvdev::remap_linear_bgra", (16, 16),
           [f"src=uint8[{30 * 176}]:0..255", "src_step=176", "src_cols=40", "src_rows=30", f"map_x={mx}", f"map_y={my}",
            f"dst=uint8[{20 * 192}]", "dst_step=192", "dst_cols=48", "dst_rows=20", "border_bgra=8421504"],
           grid=(3, 2, 1))
for dil, R, cols, rows, step, g in ((0, 1, 45, 30, 48, (3, 2, 1)), (1, 2, 60, 20, 63, (4, 2, 1))):
    fresh7(f"morph_square_u8.{'dilate' if dil else 'erode'}.r{R}.{cols}x{rows}.step{step}", F7A,
           f"cvdev::morph_square_u8<{'true' if dil else 'false'}, {R}>", (16, 16),
           [f"src=uint8[{rows * step}]:0..255", f"src_step={step}", f"dst=uint8[{rows * step}]", f"dst_step={step}",
            f"cols={cols}", f"rows={rows}"], grid=g)
for cols, rows, sstep, dstep, g in ((70, 16, 72, 150, (3, 2, 1)), (33, 24, 33, 68, (2, 3, 1))):
    fresh7(f"sobel3x3_s16.{cols}x{rows}.step{sstep}", F7A, "cvdev::sobel3x3_s16", (32, 8),
           [f"src=uint8[{rows * sstep}]:0..255", f"src_step={sstep}", f"dx=int16[{rows * dstep // 2}]",
            f"dy=int16[{rows * dstep // 2}]", f"dst_step={dstep}", f"cols={cols}", f"rows={rows}"], grid=g)
for cols, rows, sstep, sumstep, b in ((300, 8, 301, 1220, 128), (97, 5, 97, 400, 64)):
    fresh7(f"integral_rows_u8.{cols}x{rows}.b{b}", F7A, "cvdev::integral_rows_u8", (b,),
           [f"src=uint8[{rows * sstep}]:0..255", f"src_step={sstep}", f"sum=int32[{(rows + 1) * sumstep // 4}]",
            f"sum_step={sumstep}", f"cols={cols}", f"rows={rows}"], grid=(rows, 1, 1))
    fresh7(f"integral_cols.{cols}x{rows}.b{b}", F7A, "cvdev::integral_cols", (b,),
           [f"sum=int32[{(rows + 1) * sumstep // 4}]:0..255", f"sum_step={sumstep}", f"cols={cols}", f"rows={rows}"],
           grid=(-(-(cols + 1) // b), 1, 1))
for border, (sc, sr, ss), (dc, dr, ds), M, blk, g in ((0, (60, 40, 185), (64, 32, 192), "fresh7_affine_rot20", (16, 16), (4, 2, 1)),
                                                      (1, (33, 25, 101), (40, 20, 120), "fresh7_affine_shear", (32, 8), (2, 3, 1))):
    fresh7(f"warp_affine_bgr.{'replicate' if border else 'constant'}.{sc}x{sr}.to{dc}x{dr}", F7A, "cvdev::warp_affine_bgr",
           blk, [f"src=uint8[{sr * ss}]:0..255", f"src_step={ss}", f"src_cols={sc}", f"src_rows={sr}",
                 f"dst=uint8[{dr * ds}]", f"dst_step={ds}", f"dst_cols={dc}", f"dst_rows={dr}", f"M={npy(M)}",
                 f"border_mode={border}"], grid=g)

# ---- ATen-style tensor kernels (NVRTC)
for dim, n0, n1, k, b, g in ((0, 100, 48, 30, 128, 4), (1, 40, 70, 25, 256, 2)):
    out = k * n1 if dim == 0 else n0 * k
    fresh7(f"index_select_2d.dim{dim}.{n0}x{n1}.k{k}", F7A, f"at_native::index_select_2d<{dim}>", (b,),
           [f"out=float32[{out}]", f"self=float32[{n0 * n1}]", f"index=int64[{k}]:0..{(n0 if dim == 0 else n1) - 1}",
            f"n0={n0}", f"n1={n1}", f"k={k}"], grid=(g, 1, 1))
for name, (s0, s1, s2), (st0, st1, st2), selfn, b, g in (("contig", (6, 12, 40), (2000, 40, 1), 6 * 50 * 40, 256, 4),
                                                         ("permuted", (4, 10, 30), (960, 1, 32), 4 * 30 * 32, 128, 3)):
    bound = 49 if name == "contig" else 31
    fresh7(f"gather_dim1_3d.{name}.{s0}x{s1}x{s2}", F7A, "at_native::gather_dim1_3d", (b,),
           [f"out=float32[{s0 * s1 * s2}]", f"self=float32[{selfn}]", f"index=int64[{s0 * s1 * s2}]:0..{bound}",
            f"size0={s0}", f"size1={s1}", f"size2={s2}", f"self_stride0={st0}", f"self_stride1={st1}",
            f"self_stride2={st2}"], grid=(g, 1, 1))
for dim, a, bb, srows, scols, b, g in ((1, 20, 30, 20, 64, 128, 2), (0, 40, 50, 16, 50, 256, 4)):
    fresh7(f"scatter_add_2d.dim{dim}.{a}x{bb}.into{srows}x{scols}", F7A, f"at_native::scatter_add_2d<{dim}>", (b,),
           [f"self=float32[{srows * scols}]", f"index=int64[{a * bb}]:0..{(scols if dim == 1 else srows) - 1}",
            f"src=float32[{a * bb}]", f"a={a}", f"b={bb}", f"self_size1={scols}"], grid=(g, 1, 1))
for V, D, nnz, bags, (bx, by), g in ((100, 64, 200, 24, (32, 4), 6), (500, 40, 64, 10, (32, 2), 5)):
    fresh7(f"embedding_bag_sum.v{V}.d{D}.bags{bags}", F7A, "at_native::embedding_bag_sum", (bx, by),
           [f"output=float32[{bags * D}]", f"bag_size=int64[{bags}]", f"weight=float32[{V * D}]",
            f"indices=int64[{nnz}]:0..{V - 1}", f"offsets={npy(f'fresh7_bag_offsets_{bags}_of_{nnz}')}",
            f"num_indices={nnz}", f"num_bags={bags}", f"dim={D}"], grid=(g, 1, 1))
for nc, H, W, k, s, p, b, g in ((6, 20, 22, 3, 2, 1, 128, 3), (4, 17, 17, 2, 2, 0, 64, 2)):
    OH, OW = (H + 2 * p - k) // s + 1, (W + 2 * p - k) // s + 1
    fresh7(f"max_pool2d_with_indices.k{k}s{s}p{p}.{nc}x{H}x{W}", F7A, "at_native::max_pool2d_with_indices", (b,),
           [f"out=float32[{nc * OH * OW}]", f"indices=int64[{nc * OH * OW}]", f"in=float32[{nc * H * W}]", f"nc={nc}",
            f"H={H}", f"W={W}", f"OH={OH}", f"OW={OW}", f"k={k}", f"s={s}", f"p={p}"], grid=(g, 1, 1))
for planes, IH, IW, OH, OW, blk, g in ((12, 15, 20, 4, 6, (8, 4), 6), (5, 7, 7, 3, 3, (16, 16), 2)):
    fresh7(f"adaptive_avg_pool2d.p{planes}.{IH}x{IW}.to{OH}x{OW}", F7A, "at_native::adaptive_avg_pool2d", blk,
           [f"out=float32[{planes * OH * OW}]", f"in=float32[{planes * IH * IW}]", f"planes={planes}", f"IH={IH}",
            f"IW={IW}", f"OH={OH}", f"OW={OW}"], grid=(g, 1, 1))
for planes, IH, IW, OH, OW, blk, g in ((6, 10, 15, 20, 45, (32, 8), (2, 3, 1)), (8, 7, 9, 16, 20, (32, 4), (1, 4, 2))):
    fresh7(f"upsample_nearest2d.p{planes}.{IH}x{IW}.to{OH}x{OW}", F7A, "at_native::upsample_nearest2d", blk,
           [f"out=float32[{planes * OH * OW}]", f"in=float32[{planes * IH * IW}]", f"planes={planes}", f"IH={IH}",
            f"IW={IW}", f"OH={OH}", f"OW={OW}"], grid=g)
for N, C, HW, blk in ((4, 6, 100, (32, 4)), (3, 8, 49, (64, 2))):
    fresh7(f"batch_norm_collect_statistics.n{N}.c{C}.hw{HW}", F7A, "at_native::batch_norm_collect_statistics", blk,
           [f"save_mean=float32[{C}]", f"save_invstd=float32[{C}]", f"input=float32[{N * C * HW}]:0..3", f"N={N}",
            f"C={C}", f"HW={HW}", "eps=1e-5"], grid=(C, 1, 1))
for b, rows, V in ((256, 8, 1000), (128, 6, 3001)):
    fresh7(f"cross_entropy_fwd.b{b}.r{rows}.v{V}", F7A, f"at_native::cross_entropy_fwd<{b}>", (b,),
           [f"loss=float32[{rows}]", f"rank=int32[{rows}]", f"logits=float32[{rows * V}]:-4..4",
            f"target={npy(f'fresh7_ce_target_{rows}_v{V}')}", f"V={V}", "ignore_index=-100"], grid=(rows, 1, 1))
for rows, cols, b, g in ((20, 100, 128, 5), (7, 1000, 64, 4)):
    fresh7(f"cumsum_lastdim_warp.r{rows}.c{cols}.b{b}", F7A, "at_native::cumsum_lastdim_warp", (b,),
           [f"out=float32[{rows * cols}]", f"in=float32[{rows * cols}]", f"rows={rows}", f"cols={cols}"], grid=(g, 1, 1))
for n, b, g in ((5000, 256, 4), (777, 96, 3)):
    fresh7(f"weighted_mean_ticket.n{n}.b{b}.g{g}", F7A, "at_native::weighted_mean_ticket", (b,),
           ["result=float32[1]", f"partials=float32[{2 * g}]", "ticket=uint32[1]:0..0", f"loss=float32[{n}]:0..5",
            f"weight=float32[{n}]:0..1", f"n={n}"], grid=(g, 1, 1))

# ---- faiss / cuSPARSE / MAGMA-style kernels (NVRTC)
for nq, nb, d in ((32, 64, 40), (20, 50, 24)):
    fresh7(f"l2_distance_tiles.q{nq}.n{nb}.d{d}", F7A, "l2_distance_tiles", (16, 16),
           [f"dist=float32[{nq * nb}]", f"best=uint64[{nq}]:0..0", f"Q=float32[{nq * d}]", f"X=float32[{nb * d}]",
            f"nq={nq}", f"nb={nb}", f"d={d}"], grid=(4, 2, 1), dyn=2 * 16 * 17 * 4)
for k, nq, n, b, g in ((8, 16, 500, 128, 4), (4, 10, 77, 64, 5)):
    fresh7(f"warp_select_topk.k{k}.q{nq}.n{n}", F7A, f"warp_select_topk<{k}>", (b,),
           [f"out_dist=float32[{nq * k}]", f"out_idx=int32[{nq * k}]", f"dist=float32[{nq * n}]:0..10", f"nq={nq}",
            f"n={n}"], grid=(g, 1, 1))
_F7 = _fresh7_data()
_F7NNZ = int(_F7["fresh7_csr_row_ptr_40"][-1])
for n, ldb, ldc, b, g in ((48, 50, 48, 256, 5), (64, 64, 72, 160, 8)):
    fresh7(f"csr_spmm_warp_row.n{n}.ldb{ldb}.ldc{ldc}", F7A, "csr_spmm_warp_row", (b,),
           [f"C=float32[{40 * ldc}]", f"ldc={ldc}", f"row_ptr={npy('fresh7_csr_row_ptr_40')}",
            f"col_ind={npy('fresh7_csr_cols_40x96')}", f"val=float32[{_F7NNZ}]", f"B=float32[{96 * ldb}]", f"ldb={ldb}",
            "m=40", f"n={n}"], grid=(g, 1, 1))
for nt, tn, m, n, lda, g in ((256, 4, 300, 30, 301, 8), (128, 8, 1000, 20, 1000, 3)):
    fresh7(f"gemvt_shared_reduce.nt{nt}.tn{tn}.m{m}.n{n}", F7A, f"gemvt_shared_reduce<{nt}, {tn}>", (nt,),
           [f"m={m}", f"n={n}", "alpha=1.0", f"A=float32[{n * lda}]", f"lda={lda}", f"x=float32[{m}]", "beta=0.5",
            f"y=float32[{n}]"], grid=(g, 1, 1))
for n, k, lda, ldc in ((48, 40, 41, 50), (40, 37, 37, 40)):
    tiles = -(-n // 16)
    fresh7(f"syrk_lower_tiles.n{n}.k{k}.lda{lda}", F7A, "syrk_lower_tiles", (16, 16),
           [f"C=float32[{n * ldc}]", f"ldc={ldc}", f"A=float32[{n * lda}]", f"lda={lda}", f"n={n}", f"k={k}",
            "alpha=1.0", "beta=0.5"], grid=(tiles * (tiles + 1) // 2, 1, 1))


# ---- the eighth fresh held-out batch (kernels/fresh8_kernels.cu, compiled by nvcc, and fresh8_apps.cu, compiled
# by NVRTC, with fresh8_common.cuh): code a CUDA engineer writes in 2026, files as they sit (host code and a main()
# that the recording never runs, templates, macros, helpers in the header). nvcc: a WMMA 16x16x16 half GEMM staged
# in shared (padded and unpadded ldm, the accumulators back through shared), cuda::memcpy_async with a 2-stage
# cuda::pipeline, cg::memcpy_async with cg::reduce over thread_block_tile<16>/<8>, the __pipeline_memcpy_async
# primitives with zero-fill, inline-PTX cp.async.cg 16-byte with zero-fill, ldmatrix.x4.trans on an XOR-swizzled
# (and an unswizzled) tile, cuda::barrier arrive_and_wait with memcpy_async, tile shuffles, labeled_partition and
# coalesced_threads warp-aggregated atomics, a grid of clusters of 2 and 4 reducing through map_shared_rank, a
# linear-probing hash table (atomicCAS insert, lookup), a striped lock with a bounded __nanosleep back-off and
# __ldlu/__stcg. NVRTC: ballot/popc stream compaction, a 4-bit radix ranking pass, a warp-per-vertex BFS step over
# CSR, union-find with path halving in shared memory, RLE, a sorted sparse-dense dot, reduce-by-key with a segmented
# scan, a shared ring of shorts (atomicInc, atomicExch), a z-marching 7-point stencil, a 9-point stencil with a
# register queue, cyclic reduction, batched LU with pivoting in [16][17]/[32][33] double tiles, a 1-D convolution
# with __constant__ taps, an 8x8x4-block box filter, a 32x4x2-block batched double transpose, a bitonic sort in
# template-sized dynamic shared memory, float4/int2/double2 rows with odd pitches, 12- and 20-byte structs (AoS,
# a shared struct tile, SoA) and a partial-mask butterfly; written blind, before its first recording; grids of up
# to 8 blocks
F8K, F8A = f"{K}/fresh8_kernels.cu", f"{K}/fresh8_apps.cu"


def fresh8(id, file, kernel, block, args, **kw):
    c = case("fresh8." + id, file, kernel, block, args, **kw)
    if file == F8K:
        c["compiler"] = "nvcc"
    return c


# ---- tensor cores, async copies, cooperative groups, clusters, hash table (nvcc)
for pad, M, N, Kd in ((0, 64, 64, 64), (8, 64, 96, 48)):
    fresh8(f"wmma_gemm_bias_relu.pad{pad}.{M}x{N}x{Kd}", F8K, f"wmma_gemm_bias_relu<{pad}>", (128,),
           [f"A=float16[{M * Kd}]:-1..1", f"B=float16[{Kd * N}]:-1..1", f"bias=float32[{N}]", f"C=float32[{M * N}]",
            f"M={M}", f"N={N}", f"K={Kd}"], grid=(N // 32, M // 32, 1))
for tile, b, rows, n, g in ((256, 128, 6, 1000, 3), (128, 64, 5, 777, 5)):
    fresh8(f"pipelined_row_dot.t{tile}.b{b}.r{rows}.n{n}", F8K, f"pipelined_row_dot<{tile}>", (b,),
           [f"x=float32[{rows * n}]", f"w=float32[{n}]", f"out=float32[{rows}]", f"rows={rows}", f"n={n}"],
           grid=(g, 1, 1))
for ts, b, rows, cols, g in ((16, 128, 20, 48, 3), (8, 64, 30, 100, 4)):
    fresh8(f"layernorm_tiles.t{ts}.r{rows}.c{cols}", F8K, f"layernorm_tiles<{ts}>", (b,),
           [f"x=float32[{rows * cols}]:-2..2", f"gamma=float32[{cols}]:0.5..1.5", f"beta=float32[{cols}]",
            f"y=float32[{rows * cols}]", f"rows={rows}", f"cols={cols}", "eps=1e-5"], grid=(g, 1, 1),
           dyn=4 * (b // ts) * cols)
for r, n, b, g in ((3, 2000, 256, 3), (8, 1001, 128, 2)):
    fresh8(f"blur1d_pipeline_prims.r{r}.n{n}.b{b}", F8K, f"blur1d_pipeline_prims<{r}>", (b,),
           [f"in=float32[{n}]", f"out=float32[{n}]", f"n={n}"], grid=(g, 1, 1))
for M, Kd, lda, b, g in ((40, 301, 304, 128, 4), (13, 130, 132, 256, 2)):
    fresh8(f"gemv_cp_async_zfill.m{M}.k{Kd}.lda{lda}", F8K, "gemv_cp_async_zfill", (b,),
           [f"A=float32[{M * lda}]", f"lda={lda}", f"x=float32[{Kd}]", f"y=float32[{M}]", f"M={M}", f"K={Kd}"],
           grid=(g, 1, 1))
for swz, rows, cols, b in ((1, 64, 128, 128), (0, 128, 64, 64)):
    fresh8(f"ldmatrix_transpose_f16.{'swizzled' if swz else 'plain'}.{rows}x{cols}", F8K,
           f"ldmatrix_transpose_f16<{'true' if swz else 'false'}>", (b,),
           [f"in=float16[{rows * cols}]:-2..2", f"out=float16[{rows * cols}]", f"rows={rows}", f"cols={cols}"],
           grid=(cols // 64, rows // 64, 1))
for n, chunk, b, g in ((3000, 512, 256, 2), (1001, 100, 64, 3)):
    fresh8(f"barrier_moving_average.n{n}.chunk{chunk}", F8K, "barrier_moving_average", (b,),
           [f"in=float32[{n}]", f"out=float32[{n}]", f"n={n}", f"chunk={chunk}"], grid=(g, 1, 1))
for ts, nseg, ln, b, g in ((16, 50, 40, 128, 2), (8, 100, 13, 256, 3)):
    fresh8(f"segment_softmax_tiles.t{ts}.s{nseg}.len{ln}", F8K, f"segment_softmax_tiles<{ts}>", (b,),
           [f"x=float32[{nseg * ln}]:-4..4", f"y=float32[{nseg * ln}]", f"nseg={nseg}", f"seglen={ln}"],
           grid=(g, 1, 1))
for n, nbins, hi, b, g in ((3000, 64, 100000, 256, 4), (1000, 200, 999, 128, 2)):
    fresh8(f"labeled_bin_count.n{n}.bins{nbins}", F8K, "labeled_bin_count", (b,),
           [f"keys=uint32[{n}]:0..{hi}", f"n={n}", f"nbins={nbins}", f"counts=uint32[{nbins}]:0..0",
            "odd_count=uint32[1]:0..0"], grid=(g, 1, 1), dyn=4 * nbins)
for cs, rows, b, g in ((2, 100, 128, 4), (4, 50, 256, 8)):
    fresh8(f"cluster_column_sums.cs{cs}.r{rows}.g{g}", F8K, "cluster_column_sums", (b,),
           [f"m=float32[{g // cs * rows * 64}]", f"colsum=float32[{g // cs * 64}]", f"rows={rows}"], grid=(g, 1, 1),
           cluster=(cs, 1, 1))
for cap, nkeys, b, g in ((512, 600, 128, 4), (256, 300, 64, 3)):
    fresh8(f"hash_count_insert.cap{cap}.n{nkeys}", F8K, "hash_count_insert", (b,),
           [f"table_keys={npy(f'fresh8_hash_empty_{cap}')}", f"table_vals=uint32[{cap}]:0..0", f"capacity={cap}",
            f"keys={npy(f'fresh8_hash_keys_{nkeys}')}", f"n={nkeys}"], grid=(g, 1, 1))
for cap, nq, b, g in ((512, 400, 128, 4), (256, 200, 64, 4)):
    fresh8(f"hash_count_lookup.cap{cap}.q{nq}", F8K, "hash_count_lookup", (b,),
           [f"table_keys={npy(f'fresh8_hash_table_keys_{cap}')}", f"table_vals={npy(f'fresh8_hash_table_vals_{cap}')}",
            f"capacity={cap}", f"queries={npy(f'fresh8_hash_queries_{nq}')}", f"result=uint32[{nq}]", f"n={nq}"],
           grid=(g, 1, 1))
for n, nlocks, b, g in ((5000, 8, 256, 4), (777, 4, 96, 3)):
    fresh8(f"striped_lock_accumulate.n{n}.locks{nlocks}.g{g}", F8K, "striped_lock_accumulate", (b,),
           [f"x=float32[{n}]", f"n={n}", f"acc_rows=float32[{nlocks}]:0..0", f"locks=int32[{nlocks}]:0..0",
            f"nlocks={nlocks}", f"copy_out=float32[{n}]"], grid=(g, 1, 1))

# ---- irregular kernels (NVRTC)
for n, thr, chunk, b, g in ((2000, 0.3, 500, 128, 4), (777, -0.5, 259, 96, 3)):
    fresh8(f"compact_greater.n{n}.b{b}", F8A, "compact_greater", (b,),
           [f"in=float32[{n}]", f"n={n}", f"thr={thr}", f"out=float32[{n}]", f"out_idx=int32[{n}]",
            f"block_counts=int32[{g}]", f"chunk={chunk}"], grid=(g, 1, 1))
for bl, n, shift, g in ((256, 1000, 0, 4), (128, 900, 4, 8)):
    fresh8(f"radix_rank_pass.b{bl}.n{n}.shift{shift}", F8A, f"radix_rank_pass<{bl}>", (bl,),
           [f"keys_in={npy(f'fresh8_radix_keys_{n}')}", f"keys_out=uint32[{n}]", f"tile_hist=int32[{g * 16}]",
            f"n={n}", f"shift={shift}"], grid=(g, 1, 1))
for nf, b, g in ((40, 128, 4), (100, 256, 2)):
    fresh8(f"bfs_expand_warp.f{nf}.b{b}", F8A, "bfs_expand_warp", (b,),
           [f"row_ptr={npy('fresh8_bfs_row_ptr')}", f"col_idx={npy('fresh8_bfs_cols')}",
            f"frontier={npy(f'fresh8_bfs_frontier_{nf}')}", f"nfront={nf}", f"level_in={npy('fresh8_bfs_level')}",
            "level_out=int32[300]", "next_flag=uint8[300]:0..0", "depth=2", "discovered=int32[1]:0..0"],
           grid=(g, 1, 1))
for ng, gnv in ((4, 200), (3, 500)):
    fresh8(f"union_find_components.g{ng}.nv{gnv}", F8A, "union_find_components", (32,),
           [f"edge_off={npy(f'fresh8_uf_off_{ng}x{gnv}')}", f"edges={npy(f'fresh8_uf_edges_{ng}x{gnv}')}",
            f"nv={gnv}", f"labels=int32[{ng * gnv}]"], grid=(ng, 1, 1))
for name, n, b, g in (("runs_1000", 1000, 256, 4), ("alpha_777", 777, 128, 7)):
    fresh8(f"rle_tiles.{name}.b{b}", F8A, "rle_tiles", (b,),
           [f"in={npy(f'fresh8_rle_{name}')}", f"n={n}", f"run_vals=int32[{n}]", f"run_lens=int32[{n}]",
            f"tile_runs=int32[{g}]"], grid=(g, 1, 1))
for nnz, cols, ld, rows, b, g in ((200, 1000, 1003, 30, 128, 3), (77, 300, 300, 50, 64, 5)):
    fresh8(f"sparse_dense_rowdot.nnz{nnz}.ld{ld}.r{rows}", F8A, "sparse_dense_rowdot", (b,),
           [f"idx={npy(f'fresh8_sparse_idx_{nnz}_of_{cols}')}", f"val=float32[{nnz}]", f"nnz={nnz}",
            f"D=float32[{rows * ld}]", f"ld={ld}", f"rows={rows}", f"y=float32[{rows}]"], grid=(g, 1, 1))
for n, nkeys, b, g in ((2000, 100, 256, 4), (500, 500, 128, 2)):
    fresh8(f"segmented_sum_by_key.n{n}.b{b}", F8A, "segmented_sum_by_key", (b,),
           [f"keys={npy(f'fresh8_seg_keys_{n}')}", f"vals=float32[{n}]", f"n={n}", f"out=float32[{nkeys}]:0..0"],
           grid=(g, 1, 1))
for n, thr, b, g in ((4000, 200, 128, 4), (1000, 100, 64, 2)):
    fresh8(f"bright_byte_ring.n{n}.thr{thr}", F8A, "bright_byte_ring", (b,),
           [f"bytes=uint8[{n}]:0..255", f"n={n}", f"thr={thr}", f"ring_out=int16[{g * 64}]",
            f"last_out=int32[{g * 8}]", f"heads=uint32[{g}]"], grid=(g, 1, 1))

# ---- stencils and small solvers (NVRTC)
for nx, ny, nz in ((50, 20, 6), (32, 9, 10)):
    fresh8(f"stencil7_zmarch.{nx}x{ny}x{nz}", F8A, "stencil7_zmarch", (32, 8),
           [f"in=float32[{nx * ny * nz}]", f"out=float32[{nx * ny * nz}]", f"nx={nx}", f"ny={ny}", f"nz={nz}",
            "c0=0.4", "c1=0.1"], grid=(-(-nx // 32), -(-ny // 8), 1))
for bx, rows, cols, band in ((64, 40, 100, 16), (32, 25, 70, 13)):
    fresh8(f"stencil9_regqueue.bx{bx}.{rows}x{cols}.band{band}", F8A, f"stencil9_regqueue<{bx}>", (bx,),
           [f"in=float32[{rows * cols}]", f"out=float32[{rows * cols}]", f"rows={rows}", f"cols={cols}",
            f"band={band}"], grid=(-(-cols // bx), -(-rows // band), 1))
for n, nsys in ((128, 4), (64, 6)):
    fresh8(f"tridiag_cyclic_reduction.n{n}.s{nsys}", F8A, "tridiag_cyclic_reduction", (n // 2,),
           [f"A=float32[{nsys * n}]:-1..1", f"B=float32[{nsys * n}]:4..5", f"C=float32[{nsys * n}]:-1..1",
            f"D=float32[{nsys * n}]", f"X=float32[{nsys * n}]", f"n={n}"], grid=(nsys, 1, 1), dyn=5 * 4 * n)
for N, nmat in ((16, 6), (32, 3)):
    fresh8(f"batched_lu_pivot.n{N}.m{nmat}", F8A, f"batched_lu_pivot<{N}>", (N, 4),
           [f"mats=float64[{nmat * N * N}]", f"pivots=int32[{nmat * N}]"], grid=(nmat, 1, 1))
for r, n, b in ((4, 2000, 256), (7, 1000, 128)):
    fresh8(f"conv1d_const_taps.r{r}.n{n}.b{b}", F8A, f"conv1d_const_taps<{r}>", (b,),
           [f"x=float32[{n}]", f"y=float32[{n}]", f"n={n}"], grid=(-(-n // b), 1, 1), dyn=4 * (b + 2 * r),
           constants={"c_taps": np.concatenate([np.hanning(2 * r + 3)[1:-1] / np.hanning(2 * r + 3).sum(),
                                                np.zeros(33 - (2 * r + 1))])})
for nx, ny, nz in ((16, 12, 7), (9, 8, 4)):
    fresh8(f"box3d_mean.{nx}x{ny}x{nz}", F8A, "box3d_mean", (8, 8, 4),
           [f"in=float32[{nx * ny * nz}]", f"out=float32[{nx * ny * nz}]", f"nx={nx}", f"ny={ny}", f"nz={nz}"],
           grid=(-(-nx // 8), -(-ny // 8), -(-nz // 4)))
for rows, cols, batch in ((40, 33, 3), (32, 70, 2)):
    fresh8(f"transpose_f64_batched.{rows}x{cols}.b{batch}", F8A, "transpose_f64_batched", (32, 4, 2),
           [f"in=float64[{batch * rows * cols}]", f"out=float64[{batch * rows * cols}]", f"rows={rows}",
            f"cols={cols}", f"batch={batch}"], grid=(-(-cols // 32), -(-rows // 32), -(-batch // 2)))
for items, b, n, g in ((4, 128, 1000, 2), (2, 128, 700, 3)):
    fresh8(f"bitonic_sort_chunks.i{items}.b{b}.n{n}", F8A, f"bitonic_sort_chunks<{items}>", (b,),
           [f"keys=uint32[{n}]:0..4294967295", f"n={n}"], grid=(g, 1, 1), dyn=4 * items * b)

# ---- memory layouts (NVRTC)
for t, v, dt, rows, cols, pitch, b, g in (("float", "float4", "float32", 6, 301, 301, 64, 3),
                                          ("int", "int2", "int32", 5, 99, 99, 32, 5),
                                          ("double", "double2", "float64", 4, 150, 151, 64, 4)):
    fresh8(f"axpy_rows_vec.{v}.r{rows}.c{cols}.p{pitch}", F8A, f"axpy_rows_vec<{t}, {v}>", (b,),
           [f"x={dt}[{rows * pitch}]", f"y={dt}[{rows * pitch}]", f"rows={rows}", f"cols={cols}", f"pitch={pitch}",
            "alpha=1.5"], grid=(g, 1, 1))
for n, b, g in ((1000, 128, 4), (333, 64, 3)):
    fresh8(f"particles_aos_drift.n{n}.b{b}", F8A, "particles_aos_drift", (b,),
           [f"p=float32[{5 * n}]:0..10", f"vel=float32[{3 * n}]", f"n={n}", "dt=0.01", "inv_cell=0.5",
            "cells_per_side=5"], grid=(g, 1, 1))
for n, b, g in ((500, 128, 4), (200, 64, 4)):
    fresh8(f"nbody_tile_aos.n{n}.b{b}", F8A, "nbody_tile_aos", (b,),
           [f"p=float32[{5 * n}]:0..1", f"acc=float32[{3 * n}]", f"n={n}", "eps2=0.01"], grid=(g, 1, 1))
for n, b, g in ((3000, 256, 4), (1000, 96, 3)):
    fresh8(f"centroid_aos12.n{n}.b{b}", F8A, "centroid_aos12", (b,),
           [f"pts=float32[{3 * n}]", f"n={n}", "sum3=float32[3]:0..0"], grid=(g, 1, 1))
    fresh8(f"centroid_soa.n{n}.b{b}", F8A, "centroid_soa", (b,),
           [f"xs=float32[{n}]", f"ys=float32[{n}]", f"zs=float32[{n}]", f"n={n}", "sum3=float32[3]:0..0"],
           grid=(g, 1, 1))
for n, b, g in ((1000, 128, 8), (300, 64, 5)):
    fresh8(f"warp_sums_ragged.n{n}.b{b}", F8A, "warp_sums_ragged", (b,),
           [f"x=float32[{n}]:0.5..1.5", f"n={n}", f"warp_sum=float32[{g * b // 32}]", f"y=float32[{n}]"],
           grid=(g, 1, 1))


# ---- a probe of the staged A-tile copy (kernels/staged_probe_triton.py, issue 30): one program of a float16
# K-loop matmul, A's pitch, K, the stages and the K mask varied (STAGED_PROBE in tests/test_analyze_truth.py says what
# the recording of 2026-11-29 found)
def staged_probe(id, k, pitch, stages, even=False, bm=64):
    c = case(f"staged_probe.{id}", f"{K}/staged_probe_triton.py", "mm_probe", (128,),
             [f"a_ptr=float16[{bm},{pitch}]", f"b_ptr=float16[{k},64]", f"c_ptr=float16[{bm},64]", f"K={k}",
              f"stride_am={pitch}"])
    c.update(compiler="triton", constexprs={"BM": bm, "BN": 64, "BK": 32, "EVEN_K": int(even)}, num_warps=4,
             num_stages=stages)
    return c


for _k in (64, 96, 128, 160, 192, 256):
    staged_probe(f"k{_k}.p{_k}.s3", _k, _k, 3)
for _s in (2, 4):
    staged_probe(f"k96.p96.s{_s}", 96, 96, _s)
    staged_probe(f"k128.p128.s{_s}", 128, 128, _s)
staged_probe("k128.p160.s3", 128, 160, 3)
staged_probe("k128.p192.s3", 128, 192, 3)
staged_probe("k96.p128.s3", 96, 128, 3)
staged_probe("k128.p128.s3.even", 128, 128, 3, even=True)
staged_probe("k96.p96.s3.even", 96, 96, 3, even=True)
staged_probe("k96.p96.s3.bm32", 96, 96, 3, bm=32)
staged_probe("k256.p256.s1", 256, 256, 1)  # one stage: plain loads and stores, no cp.async


# ---- the ninth fresh held-out batch (kernels/fresh9_kernels.cu, compiled by nvcc, and fresh9_apps.cu, compiled
# by NVRTC, with fresh9_common.cuh): the shared- and global-memory chapters of the CUDA textbooks as students and
# engineers write them, files as they sit (host code and a main() that the recording never runs, templates, extern
# "C", helpers and structs in the header). NVRTC: a 32x32 int tile written and read by rows and columns ([32][32]
# and [32][33]), rectangular 32x16 / 16x32 tiles with IPAD 0, 1, 2 read through a re-cut linear index, a dynamic
# tile indexed row * (n + pad) + col, double and char 32x32 tiles read by columns; the reduction ladder on ints
# (interleaved with % and with the contiguous index, sequential addressing, first add during the load, unroll-4
# with a volatile last warp, completely unrolled templates on 128/256/512); naive transposes by rows, by columns
# and two elements a thread, the 32x32 tile walked by 32x8 blocks (padded, unpadded, a 70x45 matrix with ragged
# edge blocks), diagonal block reordering, a 16x64 unrolled shared tile; tiled matmuls (TILE 16 on ragged sizes and
# 32), double-buffered, register-tiled 4x1; the 8th-order 1-D derivative stencil with a RADIUS halo, its
# coefficients in __constant__ memory or read through __ldg; global patterns: strides 1, 3, 8, 17, 33 (a parameter)
# and 2, 4, 16, 32 (a template), bases 1, 3 and 7 elements off, copies of 1- to 16-byte elements (char, short,
# double, float4, char4, short2) on partial warps (48, 64, 80, 96, 100, 200 threads), gathers
# through a permutation, sorted indices with gaps and clustered indices, AoS structs of 8, 12, 16 and 24 bytes read
# field by field, a per-thread window indexed at run time and a 64-int per-thread histogram (local memory). nvcc:
# cp.async through __pipeline_memcpy_async at 4, 8 and 16 bytes (double-buffered, zero-filled tail),
# cuda::memcpy_async of aligned_size_t<16> rows onto a cuda::barrier, cg::memcpy_async of a clipped halo tile,
# a distributed-shared-memory histogram over clusters of 2 and 4 (map_shared_rank atomics), __syncthreads_count
# / _and / _or, a last-block sum with __threadfence, a ticket and a volatile read, half-warp exchanges with
# __syncwarp on partial masks and __threadfence_block, shuffle reductions of double and long long, a kernel that
# spills under __launch_bounds__(128, 16), __ldcs/__ldcg/__ldg/__stcs/__stwt, global atomics of every kind on
# distinct, 4 hot and one address, __half2 and __nv_bfloat162 axpy; written blind, before its first recording;
# grids of up to 9 blocks
F9K, F9A = f"{K}/fresh9_kernels.cu", f"{K}/fresh9_apps.cu"


def fresh9(id, file, kernel, block, args, **kw):
    c = case("fresh9." + id, file, kernel, block, args, **kw)
    if file == F9K:
        c["compiler"] = "nvcc"
    return c


# ---- bank-conflict demonstrations (NVRTC)
for pad, mode in ((0, 1), (1, 1), (0, 2)):
    fresh9(f"square_tile_modes.pad{pad}.mode{mode}", F9A, f"square_tile_modes<{pad}>", (32, 32),
           ["out=int32[2048]", f"mode={mode}"], grid=(2, 1, 1))
for bx, by, ipad in ((32, 16, 1), (32, 16, 2), (16, 32, 1)):
    fresh9(f"rect_tile_transposed_read.{bx}x{by}.ipad{ipad}", F9A, f"rect_tile_transposed_read<{bx}, {by}, {ipad}>",
           (bx, by), [f"out=int32[{2 * bx * by}]"], grid=(2, 1, 1))
for n, pad, g in ((32, 1, 2),):
    fresh9(f"dyn_tile_col_write.n{n}.pad{pad}", F9A, "dyn_tile_col_write", (n, n),
           [f"out=int32[{g * n * n}]", f"pad={pad}"], grid=(g, 1, 1), dyn=4 * n * (n + pad))
for t, dt, pad in (("double", "float64", 0), ("double", "float64", 1), ("char", "int8", 0)):
    rng_ = ":-100..100" if dt == "int8" else ""
    fresh9(f"elem_tile_colread.{t}.pad{pad}", F9A, f"elem_tile_colread<{t}, {pad}>", (32, 8),
           [f"in={dt}[3072]{rng_}", f"out={dt}[3072]"], grid=(3, 1, 1))

# ---- the reduction ladder (NVRTC)
for name, n, b, g in (("reduce_neighbored_mod", 2000, 256, 8), ("reduce_neighbored_contig", 2000, 256, 8),
                      ("reduce_sequential", 1000, 128, 8), ("reduce_first_add", 4000, 256, 8),
                      ("reduce_unroll4_warp", 7777, 256, 8)):
    fresh9(f"{name}.n{n}.b{b}", F9A, name, (b,), [f"g_in=int32[{n}]:-50..50", f"g_out=int32[{g}]", f"n={n}"],
           grid=(g, 1, 1), dyn=4 * b)
for b, n, g in ((128, 5000, 4), (256, 5000, 4), (512, 7000, 3)):
    fresh9(f"reduce_complete_unroll.b{b}.n{n}", F9A, f"reduce_complete_unroll<{b}>", (b,),
           [f"g_in=int32[{n}]:-50..50", f"g_out=int32[{g}]", f"n={n}"], grid=(g, 1, 1))

# ---- transposes (NVRTC)
for name in ("transpose_naive_rows", "transpose_naive_cols"):
    fresh9(f"{name}.64x48", F9A, name, (32, 16), ["in=float32[3072]", "out=float32[3072]", "nx=64", "ny=48"],
           grid=(2, 3, 1))
fresh9("transpose_naive_unroll2.128x32", F9A, "transpose_naive_unroll2", (32, 16),
       ["in=float32[4096]", "out=float32[4096]", "nx=128", "ny=32"], grid=(2, 2, 1))
for pad, nx, ny in ((0, 64, 64), (1, 64, 64), (1, 70, 45)):
    fresh9(f"transpose_tiled.pad{pad}.{nx}x{ny}", F9A, f"transpose_tiled<{pad}>", (32, 8),
           [f"in=float32[{nx * ny}]", f"out=float32[{nx * ny}]", f"nx={nx}", f"ny={ny}"],
           grid=(-(-nx // 32), -(-ny // 32), 1))
fresh9("transpose_diagonal.96", F9A, "transpose_diagonal", (32, 8),
       ["in=float32[9216]", "out=float32[9216]", "n=96"], grid=(3, 3, 1))
for ipad in (0, 2):
    fresh9(f"transpose_smem_unroll2.ipad{ipad}.128x32", F9A, f"transpose_smem_unroll2<32, 16, {ipad}>", (32, 16),
           ["in=float32[4096]", "out=float32[4096]", "nx=128", "ny=32"], grid=(2, 2, 1))

# ---- tiled matrix products (NVRTC)
for t, M, N, Kd in ((16, 30, 45, 37), (32, 64, 64, 64)):
    fresh9(f"matmul_tiled.t{t}.{M}x{N}x{Kd}", F9A, f"matmul_tiled<{t}>", (t, t),
           [f"A=float32[{M * Kd}]", f"B=float32[{Kd * N}]", f"C=float32[{M * N}]", f"M={M}", f"N={N}", f"K={Kd}"],
           grid=(-(-N // t), -(-M // t), 1))
fresh9("matmul_double_buffered.t16.32x48x64", F9A, "matmul_double_buffered<16>", (16, 16),
       ["A=float32[2048]", "B=float32[3072]", "C=float32[1536]", "M=32", "N=48", "K=64"], grid=(3, 2, 1))
for M, N, Kd in ((48, 32, 40), (45, 30, 33)):
    fresh9(f"matmul_reg4x1.{M}x{N}x{Kd}", F9A, "matmul_reg4x1", (16, 4),
           [f"A=float32[{M * Kd}]", f"B=float32[{Kd * N}]", f"C=float32[{M * N}]", f"M={M}", f"N={N}", f"K={Kd}"],
           grid=(-(-N // 16), -(-M // 16), 1))

# ---- 1-D stencils with a halo, coefficients constant or read-only (NVRTC)
_F9_COEF = [0.0, 4 / 5, -1 / 5, 4 / 105, -1 / 280, 0.0, 0.0, 0.0, 0.0]
fresh9("stencil1d_const.r4.n2000.b256", F9A, "stencil1d_const<4>", (256,),
       ["in=float32[2000]", "out=float32[2000]", "n=2000"], grid=(8, 1, 1), dyn=4 * (256 + 8),
       constants={"c_coef": _F9_COEF})
for r, n, b, g in ((4, 2000, 256, 8), (3, 1000, 200, 5)):
    fresh9(f"stencil1d_readonly.r{r}.n{n}.b{b}", F9A, f"stencil1d_readonly<{r}>", (b,),
           [f"in=float32[{n}]", f"out=float32[{n}]", "coef=float32[9]", f"n={n}"], grid=(g, 1, 1),
           dyn=4 * (b + 2 * r))

# ---- global-memory access patterns (NVRTC)
for s in (1, 3, 8, 17, 33):
    fresh9(f"read_stride.s{s}", F9A, "read_stride", (128,),
           [f"in=float32[{512 * s}]", "out=float32[512]", "n=512", f"stride={s}"], grid=(4, 1, 1))
for s in (2, 4, 16, 32):
    fresh9(f"write_stride.s{s}", F9A, f"write_stride<{s}>", (128,),
           ["in=float32[512]", f"out=float32[{512 * s}]", "n=512"], grid=(4, 1, 1))
for xo, yo in ((1, 0), (3, 3), (7, 1)):
    fresh9(f"axpy_offset.x{xo}.y{yo}", F9A, "axpy_offset", (128,),
           ["x=float32[1008]", "y=float32[1008]", "n=1000", f"xoff={xo}", f"yoff={yo}", "a=2.5"], grid=(4, 1, 1))
for t, dt, per, b, rng_ in (("char", "int8", 1, 100, ":-100..100"), ("short", "int16", 1, 48, ""),
                            ("double", "float64", 1, 200, ""), ("float4", "float32", 4, 80, ""),
                            ("char4", "int8", 4, 64, ":-100..100"),
                            ("short2", "int16", 2, 96, "")):
    fresh9(f"copy_elems.{t}.b{b}", F9A, f"copy_elems<{t}>", (b,),
           [f"in={dt}[{1000 * per}]{rng_}", f"out={dt}[{1000 * per}]", "n=1000"], grid=(4, 1, 1))
for name, n, src, b, g in (("perm_1024", 1024, 1024, 256, 4), ("clustered_768_of_4096", 768, 4096, 128, 6)):
    fresh9(f"gather_by_index.{name}", F9A, "gather_by_index", (b,),
           [f"idx={npy(f'fresh9_{name}')}", f"src=float32[{src}]", f"dst=float32[{n}]", f"n={n}"], grid=(g, 1, 1))
for s, words in (("Pt2", 2), ("Pt3", 3), ("Rgba", 4), ("Body", 6)):
    fresh9(f"aos_weigh.{s}.n1000", F9A, f"aos_weigh<{s}>", (128,),
           [f"items=float32[{1000 * words}]", "w=float32[1000]", "n=1000"], grid=(4, 1, 1))
fresh9("local_window_pick.n512", F9A, "local_window_pick", (128,),
       ["in=float32[8192]", f"sel={npy('fresh9_local_sel_512')}", "out=float32[512]", "n=512"], grid=(4, 1, 1))
fresh9("local_hist_mode.c256", F9A, "local_hist_mode", (64,),
       ["bytes=uint8[16384]:0..255", "mode=int32[256]", "nchunks=256"], grid=(4, 1, 1))

# ---- async copies, barriers, clusters, wide reductions, hints, atomics, reduced precision (nvcc)
for nb, n, b in ((4, 4000, 128), (8, 3000, 256), (16, 2500, 64)):
    fresh9(f"cp_async_pairs.b{nb}.n{n}", F9K, f"cp_async_pairs<{nb}>", (b,),
           [f"in=float32[{n}]", f"out=float32[{n}]", f"n={n}"], grid=(2, 1, 1))
fresh9("bulk_row_normalize.r12.c256", F9K, "bulk_row_normalize", (128,),
       ["in=float32[3072]", "out=float32[3072]", "rows=12", "cols=256"], grid=(4, 1, 1), dyn=4 * 256)
fresh9("cg_halo_smooth.n2000", F9K, "cg_halo_smooth", (256,), ["in=float32[2000]", "out=float32[2000]", "n=2000"],
       grid=(4, 1, 1))
for cs, keys, n, nbins, b, g in ((2, "uniform_4096", 4096, 64, 128, 4), (4, "skewed_3000", 3000, 128, 256, 8)):
    fresh9(f"cluster_histogram.cs{cs}.{keys}.bins{nbins}", F9K, "cluster_histogram", (b,),
           [f"keys={npy(f'fresh9_hist_keys_{keys}')}", f"n={n}", f"nbins={nbins}", f"hist=uint32[{nbins}]:0..0"],
           grid=(g, 1, 1), cluster=(cs, 1, 1), dyn=4 * nbins // cs)
fresh9("block_votes.n1000", F9K, "block_votes", (256,),
       [f"v={npy('fresh9_votes_1000')}", "n=1000", "thr=500", "counts=int32[4]", "all_any=int32[8]",
        "edges=int32[4]"], grid=(2, 1, 1))
fresh9("sum_last_block.n5000.g6", F9K, "sum_last_block", (256,),
       ["x=float32[5000]", "n=5000", "partials=float32[6]", "total=float32[1]", "ready=int32[1]:0..0"],
       grid=(6, 1, 1))
fresh9("half_warp_rotate.n1000.r3", F9K, "half_warp_rotate", (128,),
       ["in=float32[1000]", "out=float32[1000]", "n=1000", "rounds=3"], grid=(8, 1, 1))
for t, dt, n, b, g in (("double", "float64", 5000, 256, 4), ("long long", "int64", 3000, 128, 6)):
    fresh9(f"shfl_reduce_wide.{dt}.n{n}", F9K, f"shfl_reduce_wide<{t}>", (b,),
           [f"x={dt}[{n}]", f"n={n}", f"partial={dt}[{g}]"], grid=(g, 1, 1))
fresh9("autocorr_tight.w500", F9K, "autocorr_tight", (128,),
       ["x=float32[16000]", "r=float32[6000]", "nwin=500"], grid=(4, 1, 1))
fresh9("cache_hint_mix.n3000", F9K, "cache_hint_mix", (256,),
       ["a=float32[3000]", "b=float32[3000]", "gain=float32[7]", "y=float32[3000]", "z=float32[3000]", "n=3000",
        "ngain=7"], grid=(4, 1, 1))
for naddr, what in ((2048, "distinct"), (4, "hot4"), (1, "one")):
    fresh9(f"atomic_counters.{what}", F9K, "atomic_counters", (256,),
           [f"keys={npy('fresh9_atomic_keys_2000')}", "n=2000", f"naddr={naddr}", f"cnt=int32[{naddr}]:0..0",
            f"fsum=float32[{naddr}]:0..0", f"dsum=float64[{naddr}]:0..0", f"kmax=int32[{naddr}]:0..0",
            f"bits=uint32[{naddr}]:0..0", f"wraps=uint32[{naddr}]:0..0"], grid=(8, 1, 1))
for t2, dt, b in (("__half2", "float16", 128), ("__nv_bfloat162", "bfloat16", 80)):
    fresh9(f"axpy_pairs.{dt}.b{b}", F9K, f"axpy_pairs<{t2}>", (b,),
           [f"x={dt}[2000]", f"y={dt}[2000]", "npairs=1000", "alpha=0.75"], grid=(4, 1, 1))


# ---- the eleventh fresh held-out batch (kernels/fresh11_kernels.cu, compiled by nvcc, and fresh11_apps.cu, compiled
# by NVRTC, with fresh11_common.cuh): kernels in the style of the public GPU libraries, files as they sit (templates
# on scalar_t/acc_t, extern "C" and C++ names, host code and a main() that the recording never runs, helpers, traits
# and a Welford struct in the header). NVRTC: ATen-like LayerNorm forward (Welford per thread, shuffles, one shared
# value a warp, float and double), its gamma/beta backward through [32][33] tiles (blocks of 32x32 and 32x16),
# GroupNorm moments and apply (blocks of 100), softmax a block a row (128, 256, 1024 over rows of 1000-3000),
# index_select with int64 indices, a sorted embedding backward, Kogge-Stone cumsum with a carry, Blelloch's scan with
# and without CONFLICT_FREE_OFFSET, a bitonic sort of 1024 keys and values, radix-select counting (a byte histogram
# in shared atomics, 2-bit ballots); OpenCV/NPP-like separable Gaussian rows and columns (uchar and float, 5 and 7
# taps, replicated borders), a 3x3 uchar median, bilinear resize of uchar4, Sobel on pitched planes, an integral
# image (row scan, column scan), erosion with a shared halo; Harris-style 8th-order x and y derivatives on 64x4
# pencils, a z derivative read plane by plane, 2-D Laplacians with and without a shared tile; faiss-like L2 distance
# tiles (d = 32, 64, 100), a warp-a-row argmin and a warp-select top-k through a per-warp shared queue; MAGMA-like
# batched transposes (3-D grid, float and double 32x33 tiles), a double2 conjugate transpose, an in-place square
# transpose, GEMV "T" (a block a column, shared partials) and "N" (x staged in shared), a lower SYRK skipping upper
# tiles; CSR SpMV scalar and vector (8 and 32 threads a row), ELL, COO by a segmented scan with carries and their
# fix-up, a CSR row-length histogram; global patterns: 1-, 2-, 4-, 8- and 16-byte elements at strides 2, 3, 5, 7,
# 9, 31, 64 and bases 1 and 3 off, blocks of 40, 72 and 100, __ldg gathers through indices, atomics (add, max, CAS,
# 64-bit add, integer-valued float add) on distinct, five and one address, a per-thread insertion sort (local
# memory), uchar3 pixels. nvcc: fused add + RMSNorm on half2 and bfloat162 with a `__shared__ float s_variance`,
# bias + GELU on float4 with a tail and on half2, cub::BlockReduce softmax, cub BlockLoad/BlockScan/BlockStore
# cumsum with a running prefix, cub::BlockRadixSort pairs, a k-means assignment with cg::reduce, a two-stage
# cuda::pipeline row smoothing, a warp-a-row half LayerNorm; written blind, before its first recording; grids of
# 1 to 9 blocks
F11K, F11A = f"{K}/fresh11_kernels.cu", f"{K}/fresh11_apps.cu"
_F11_GAUSS5 = [0.0625, 0.25, 0.375, 0.25, 0.0625] + [0.0] * 11
_F11_GAUSS7 = [0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125] + [0.0] * 9
_F11_FD8 = [0.0, 4 / 5, -1 / 5, 4 / 105, -1 / 280]  # first derivative, 8th order
_F11_FD4 = [0.0, 2 / 3, -1 / 12, 0.0, 0.0]  # first derivative, 4th order
_F11_LAP4 = [-5 / 2, 4 / 3, -1 / 12, 0.0, 0.0]  # second derivative, 4th order
_F11_LAP8 = [-205 / 72, 8 / 5, -1 / 5, 8 / 315, -1 / 560]  # second derivative, 8th order


def fresh11(id, file, kernel, block, args, **kw):
    c = case("fresh11." + id, file, kernel, block, args, **kw)
    if file == F11K:
        c["compiler"] = "nvcc"
    return c


# ---- normalisation and softmax (NVRTC)
for st, dt, n, rows, b in (("float", "float32", 1000, 6, 128), ("float", "float32", 3000, 3, 256),
                           ("double", "float64", 1500, 4, 128)):
    fresh11(f"layer_norm_fwd_welford.{dt}.n{n}.b{b}", F11A, f"layer_norm_fwd_welford<{st}, {st}>", (b,),
            [f"X={dt}[{rows * n}]", f"gamma={dt}[{n}]", f"beta={dt}[{n}]", f"Y={dt}[{rows * n}]", f"mean={dt}[{rows}]",
             f"rstd={dt}[{rows}]", f"N={n}", "eps=1e-5"], grid=(rows, 1, 1))
for st, dt, by, M, N in (("float", "float32", 32, 130, 100), ("double", "float64", 16, 77, 70)):
    fresh11(f"layer_norm_bwd_gamma_beta.{dt}.32x{by}.{M}x{N}", F11A, f"layer_norm_bwd_gamma_beta<{st}, {st}>",
            (32, by), [f"dY={dt}[{M * N}]", f"X={dt}[{M * N}]", f"mean={dt}[{M}]", f"rstd={dt}[{M}]",
                       f"dgamma={dt}[{N}]", f"dbeta={dt}[{N}]", f"M={M}", f"N={N}"], grid=(-(-N // 32), 1, 1))
fresh11("group_norm_moments.g8.s400", F11A, "group_norm_moments<float>", (128,),
        ["X=float32[3200]", "mean=float32[8]", "rstd=float32[8]", "group_size=400", "eps=1e-5"], grid=(8, 1, 1))
fresh11("group_norm_apply.n2.c16.hw100.b100", F11A, "group_norm_apply<float>", (100,),
        ["X=float32[3200]", "mean=float32[8]", "rstd=float32[8]", "gamma=float32[16]", "beta=float32[16]",
         "Y=float32[3200]", "N=2", "C=16", "HW=100", "G=4"], grid=(9, 1, 1))
for b, cols, rows in ((128, 1000, 5), (256, 2000, 3), (1024, 3000, 2)):
    fresh11(f"softmax_fwd_block.b{b}.c{cols}", F11A, f"softmax_fwd_block<float, float, {b}>", (b,),
            [f"input=float32[{rows * cols}]", f"output=float32[{rows * cols}]", f"cols={cols}"], grid=(rows, 1, 1))

# ---- indexing, scans, sorting, selection (NVRTC)
for st, dt, dim, b, g in (("float", "float32", 13, 128, 9), ("double", "float64", 24, 256, 4)):
    fresh11(f"index_select_rows.{dt}.d{dim}", F11A, f"index_select_rows<{st}, int64_t>", (b,),
            [f"src={dt}[{500 * dim}]", f"idx={npy('fresh11_idx64_300_of_500')}", f"dst={dt}[{300 * dim}]",
             "nidx=300", f"dim={dim}"], grid=(g, 1, 1))
fresh11("embedding_backward_sorted.n400.d48", F11A, "embedding_backward_sorted<float>", (32, 4),
        [f"sorted_idx={npy('fresh11_emb_sorted_400_of_60')}", f"orig_pos={npy('fresh11_emb_pos_400')}",
         "grad_out=float32[19200]", "grad_weight=float32[2880]", "n=400", "dim=48"], grid=(2, 1, 1))
for st, dt, b, rows, cols, rng_ in (("float", "float32", 256, 4, 1500, ""), ("int", "int32", 128, 3, 1000, ":-50..50")):
    fresh11(f"cumsum_rows_kogge_stone.{dt}.b{b}.c{cols}", F11A, f"cumsum_rows_kogge_stone<{st}, {b}>", (b,),
            [f"in={dt}[{rows * cols}]{rng_}", f"out={dt}[{rows * cols}]", f"cols={cols}"], grid=(rows, 1, 1))
for b, avoid, n in ((128, "true", 1000), (256, "false", 2000)):
    fresh11(f"blelloch_scan.b{b}.{'padded' if avoid == 'true' else 'plain'}.n{n}", F11A, f"blelloch_scan<{b}, {avoid}>",
            (b,), [f"in=int32[{n}]:-50..50", f"out=int32[{n}]", "block_sums=int32[4]", f"n={n}"], grid=(4, 1, 1))
fresh11("bitonic_sort_kv_shared.n1024.b512", F11A, "bitonic_sort_kv_shared<1024>", (512,),
        ["keys=float32[3072]", "vals=int32[3072]"], grid=(3, 1, 1))
for what, desired, mask, pos, b, g in (("top_byte", 0, 0, 24, 256, 4), ("second_byte_of_3a", 0x3A000000, 0xFF000000, 16, 128, 8)):
    fresh11(f"radix_select_count_byte.{what}", F11A, "radix_select_count_byte", (b,),
            [f"keys={npy('fresh11_radix_keys_4000')}", "n=4000", f"desired={desired}", f"desired_mask={mask}",
             f"digit_pos={pos}", f"counts=int32[{256 * g}]"], grid=(g, 1, 1))
fresh11("radix_select_count_ballot.bits28.b96", F11A, "radix_select_count_ballot", (96,),
        [f"keys={npy('fresh11_radix_keys_4000')}", "n=4000", "desired=0", f"desired_mask={0xC0000000}", "digit_pos=28",
         "counts=int32[20]"], grid=(5, 1, 1))

# ---- images (NVRTC)
for t, dt, k, w, h, step, g, gauss in (("unsigned char", "uint8", 5, 100, 40, 100, (4, 2, 1), _F11_GAUSS5),
                                       ("float", "float32", 7, 90, 33, 96, (3, 3, 1), _F11_GAUSS7)):
    rng_ = ":0..255" if dt == "uint8" else ""
    fresh11(f"gauss_row_filter.{dt}.k{k}.{w}x{h}", F11A, f"gauss_row_filter<{t}, {k}>", (32, 8),
            [f"src={dt}[{step * h}]{rng_}", f"src_step={step}", f"dst=float32[{step * h}]", f"dst_step={step}",
             f"width={w}", f"height={h}"], grid=g, constants={"c_gauss": gauss})
    fresh11(f"gauss_col_filter.{dt}.k{k}.{w}x{h}", F11A, f"gauss_col_filter<{t}, {k}>", (32, 8),
            [f"src=float32[{step * h}]", f"src_step={step}", f"dst={dt}[{step * h}]{rng_}", f"dst_step={step}",
             f"width={w}", f"height={h}"], grid=g, constants={"c_gauss": gauss})
fresh11("median3x3_u8.90x40.step96", F11A, "median3x3_u8", (32, 8),
        ["src=uint8[3840]:0..255", "dst=uint8[3840]:0..255", "width=90", "height=40", "step=96"], grid=(3, 3, 1))
fresh11("resize_bilinear_u8c4.64x48_to_100x30", F11A, "resize_bilinear_u8c4", (32, 8),
        ["src=uint8[12288]:0..255", "src_w=64", "src_h=48", "src_step=64", "dst=uint8[12000]:0..255", "dst_w=100",
         "dst_h=30", "fx=0.64", "fy=1.6"], grid=(4, 2, 1))
fresh11("sobel_pitched.150x50.p160", F11A, "sobel_pitched", (32, 8),
        ["src=uint8[8000]:0..255", "src_pitch=160", "gx=int16[16000]", "gy=int16[16000]", "mag=float32[8000]",
         "dst_pitch=640", "width=150", "height=50"], grid=(5, 1, 1))
fresh11("integral_rows_u8.300x40", F11A, "integral_rows_u8", (128,),
        ["src=uint8[12000]:0..255", "sum=int32[12000]", "width=300", "height=40"], grid=(8, 1, 1))
fresh11("integral_cols.300x40", F11A, "integral_cols", (128,), ["sum=int32[12000]:0..255", "width=300", "height=40"],
        grid=(3, 1, 1))
fresh11("erode_u8.r2.70x45", F11A, "erode_u8<2>", (32, 8),
        ["src=uint8[3150]:0..255", "dst=uint8[3150]:0..255", "width=70", "height=45"], grid=(3, 3, 1))

# ---- finite differences (NVRTC)
fresh11("fd_deriv_x_pencil.64x8x4", F11A, "fd_deriv_x_pencil<64>", (64, 4),
        ["f=float32[2048]", "df=float32[2048]", "my=8", "scale=1.5"], grid=(2, 4, 1), constants={"c_fd": _F11_FD8})
fresh11("fd_deriv_y_pencil.8x64x2", F11A, "fd_deriv_y_pencil<64>", (4, 64),
        ["f=float32[1024]", "df=float32[1024]", "mx=8", "scale=1.5"], grid=(2, 2, 1), constants={"c_fd": _F11_FD8})
fresh11("fd_deriv_z_global.r4.40x12x20", F11A, "fd_deriv_z_global<4>", (32, 4),
        ["in=float32[9600]", "out=float32[9600]", "nx=40", "ny=12", "nz=20", "scale=2.0"], grid=(2, 3, 1),
        constants={"c_fd": _F11_FD8})
fresh11("laplace2d_shared.r2.70x50", F11A, "laplace2d_shared<2>", (32, 8),
        ["u=float32[3500]", "lap=float32[3500]", "nx=70", "ny=50"], grid=(3, 3, 1), constants={"c_fd": _F11_LAP4})
fresh11("laplace2d_global.r4.70x50", F11A, "laplace2d_global<4>", (32, 8),
        ["u=float32[3500]", "lap=float32[3500]", "nx=70", "ny=50"], grid=(3, 2, 1), constants={"c_fd": _F11_LAP8})

# ---- distances and selection (NVRTC)
for d, tc, nq, nc, b, g in ((32, 32, 300, 70, 128, 3), (64, 16, 200, 50, 64, 4), (100, 8, 150, 40, 96, 2)):
    fresh11(f"l2_dist_centroid_tile.d{d}.tc{tc}.q{nq}.c{nc}", F11A, f"l2_dist_centroid_tile<{d}, {tc}>", (b,),
            [f"queries=float32[{nq * d}]", f"centroids=float32[{nc * d}]", f"dist=float32[{nq * nc}]", f"nq={nq}",
             f"nc={nc}"], grid=(g, 1, 1))
fresh11("argmin_rows_warp.300x70", F11A, "argmin_rows_warp", (128,),
        ["dist=float32[21000]", "nrows=300", "ncols=70", "assign=int32[300]", "best=float32[300]"], grid=(9, 1, 1))
fresh11("warp_select_topk.k8.40x300", F11A, "warp_select_topk<8>", (128,),
        ["dist=float32[12000]", "nrows=40", "ncols=300", "out_d=float32[320]", "out_i=int32[320]"], grid=(5, 1, 1))

# ---- dense linear algebra (NVRTC)
for t, dt, m, n in (("float", "float32", 40, 50), ("double", "float64", 33, 64)):
    fresh11(f"batched_transpose_tile.{dt}.{m}x{n}.b2", F11A, f"batched_transpose_tile<{t}>", (32, 8),
            [f"A={dt}[{2 * m * n}]", f"lda={m}", f"strideA={m * n}", f"B={dt}[{2 * m * n}]", f"ldb={n}",
             f"strideB={m * n}", f"m={m}", f"n={n}"], grid=(-(-m // 32), -(-n // 32), 2))
fresh11("zconj_transpose.pad1.40x60", F11A, "zconj_transpose<1>", (32, 8),
        ["A=float64[4800]", "lda=40", "B=float64[4800]", "ldb=60", "m=40", "n=60"], grid=(2, 2, 1))
fresh11("transpose_inplace_square.n80", F11A, "transpose_inplace_square", (32, 8),
        ["A=float32[6400]", "n=80", "lda=80"], grid=(3, 3, 1))
fresh11("gemv_t_colwarp.w4.500x9", F11A, "gemv_t_colwarp<4>", (128,),
        ["m=500", "n=9", "alpha=1.5", "A=float32[4500]", "lda=500", "x=float32[500]", "beta=0.5", "y=float32[9]"],
        grid=(9, 1, 1))
fresh11("gemv_n_shared_x.b128.300x100.lda304", F11A, "gemv_n_shared_x<128>", (128,),
        ["m=300", "n=100", "alpha=1.5", "A=float32[30400]", "lda=304", "x=float32[100]", "beta=0.5",
         "y=float32[300]"], grid=(3, 1, 1))
fresh11("syrk_lower_tile.t16.n45.k40", F11A, "syrk_lower_tile<16>", (16, 16),
        ["n=45", "k=40", "alpha=1.0", "A=float32[1800]", "lda=45", "beta=0.5", "C=float32[2025]", "ldc=45"],
        grid=(3, 3, 1))

# ---- sparse (NVRTC)
_F11_CSR = [f"row_ptr={npy('fresh11_csr_row_ptr_300')}", f"cols={npy('fresh11_csr_cols_300')}",
            f"vals={npy('fresh11_csr_vals_300')}", "x=float32[500]", "y=float32[300]"]
fresh11("csr_spmv_scalar.r300", F11A, "csr_spmv_scalar", (128,), ["nrows=300"] + _F11_CSR, grid=(3, 1, 1))
for tpr, b, g in ((32, 128, 9), (8, 64, 4)):
    fresh11(f"csr_spmv_vector.t{tpr}.r300", F11A, f"csr_spmv_vector<{tpr}>", (b,), ["nrows=300"] + _F11_CSR,
            grid=(g, 1, 1))
fresh11("ell_spmv.r200.w12.b100", F11A, "ell_spmv", (100,),
        ["nrows=200", "width=12", f"ell_cols={npy('fresh11_ell_cols_200x12')}",
         f"ell_vals={npy('fresh11_ell_vals_200x12')}", "x=float32[500]", "y=float32[200]"], grid=(2, 1, 1))
fresh11("coo_spmv_segreduce.nnz2000", F11A, "coo_spmv_segreduce", (256,),
        [f"rows={npy('fresh11_coo_rows_2000')}", f"cols={npy('fresh11_coo_cols_2000')}",
         f"vals={npy('fresh11_coo_vals_2000')}", "x=float32[400]", "nnz=2000", "y=float32[2000]",
         "carry_row=int32[8]", "carry_val=float32[8]"], grid=(8, 1, 1))
fresh11("coo_carry_fixup.b8", F11A, "coo_carry_fixup", (32,),
        [f"rows={npy('fresh11_coo_rows_2000')}", "nnz=2000", f"carry_row={npy('fresh11_coo_carry_rows_8')}",
         "carry_val=float32[8]", "nblocks=8", "y=float32[2000]"])
fresh11("csr_row_length_hist.r300", F11A, "csr_row_length_hist", (64,),
        [f"row_ptr={npy('fresh11_csr_row_ptr_300')}", "nrows=300", "nbins=8", "hist=int32[8]:0..0"], grid=(3, 1, 1))

# ---- global-memory access patterns (NVRTC)
for t, dt, per, n, si, so, oi, oo, b, g, rng_ in (
        ("char", "int8", 1, 1000, 2, 1, 0, 0, 72, 4, ":-100..100"), ("short", "int16", 1, 700, 3, 5, 0, 0, 100, 3, ""),
        ("int", "int32", 1, 600, 7, 1, 1, 0, 40, 9, ""), ("float", "float32", 1, 300, 9, 31, 0, 0, 128, 3, ""),
        ("double", "float64", 1, 200, 64, 2, 0, 3, 72, 3, ""), ("float4", "float32", 4, 300, 2, 3, 0, 0, 40, 8, ""),
        ("short4", "int16", 4, 400, 5, 1, 3, 0, 100, 4, ""), ("uchar2", "uint8", 2, 1000, 1, 1, 1, 3, 72, 5, ":0..255")):
    fresh11(f"strided_gather_scatter.{t}.s{si}_{so}.o{oi}_{oo}.b{b}", F11A, f"strided_gather_scatter<{t}>", (b,),
            [f"in={dt}[{per * ((n - 1) * si + oi + 1)}]{rng_}", f"out={dt}[{per * ((n - 1) * so + oo + 1)}]{rng_}",
             f"n={n}", f"in_stride={si}", f"out_stride={so}", f"in_off={oi}", f"out_off={oo}"], grid=(g, 1, 1))
fresh11("dot_ldg_partial.a1.b3.b100", F11A, "dot_ldg_partial", (100,),
        ["a=float32[2003]", "b=float32[2003]", "n=2000", "aoff=1", "boff=3", "partial=float32[5]"], grid=(5, 1, 1))
for v, dt, per, name, n, rows, b, g in (("float", "float32", 1, "gather_idx_2000_of_1024", 2000, 1024, 256, 8),
                                        ("float2", "float32", 2, "gather_clustered_1500_of_4096", 1500, 4096, 128, 9)):
    fresh11(f"gather_rows_ldg.{v}.{name}", F11A, f"gather_rows_ldg<{v}>", (b,),
            [f"idx={npy('fresh11_' + name)}", f"table={dt}[{per * rows}]", f"out={dt}[{per * n}]", f"n={n}"],
            grid=(g, 1, 1))
for what, keys, nbins, b, g in (("distinct", "perm_keys_3000", 3000, 256, 9), ("five", "atomic_keys_3000", 5, 256, 6),
                                ("one", "atomic_keys_3000", 1, 100, 4)):
    fresh11(f"global_atomic_mix.{what}", F11A, "global_atomic_mix", (b,),
            [f"keys={npy('fresh11_' + keys)}", "n=3000", f"nbins={nbins}", f"counts=int32[{nbins}]:0..0",
             f"maxv=int32[{nbins}]:0..0", f"fsum=float32[{nbins}]:0..0", f"usum=uint64[{nbins}]:0..0",
             f"flags=int32[{nbins}]:0..0"], grid=(g, 1, 1))
fresh11("local_insertion_median.n500", F11A, "local_insertion_median", (128,),
        ["in=float32[4500]", "med=float32[500]", "range=float32[500]", "n=500"], grid=(4, 1, 1))
fresh11("rgb_to_gray_u8c3.n2000.b72", F11A, "rgb_to_gray_u8c3", (72,),
        ["rgb=uint8[6000]:0..255", "gray=uint8[2000]:0..255", "n=2000"], grid=(9, 1, 1))

# ---- library primitives and reduced precision (nvcc)
for t, dt, hidden, rows, b in (("__half", "float16", 1000, 5, 128), ("__nv_bfloat16", "bfloat16", 768, 4, 256)):
    fresh11(f"fused_add_rmsnorm.{dt}.h{hidden}", F11K, f"fused_add_rmsnorm<{t}>", (b,),
            [f"input={dt}[{rows * hidden}]", f"residual={dt}[{rows * hidden}]", f"weight={dt}[{hidden}]",
             "eps=1e-6", f"hidden={hidden}"], grid=(rows, 1, 1))
fresh11("add_bias_gelu_f4.9x250", F11K, "add_bias_gelu_f4", (128,),
        ["out=float32[2250]", "bias=float32[250]", "m=9", "n=250"], grid=(4, 1, 1))
fresh11("add_bias_gelu_h2.9x250", F11K, "add_bias_gelu_h2", (128,),
        ["out=float16[2250]", "bias=float16[250]", "m=9", "n=250"], grid=(4, 1, 1))
fresh11("cub_softmax_rows.b256.c1500", F11K, "cub_softmax_rows<256>", (256,),
        ["in=float32[4500]", "out=float32[4500]", "cols=1500"], grid=(3, 1, 1))
fresh11("cub_block_cumsum.b128.i4.c2000", F11K, "cub_block_cumsum<128, 4>", (128,),
        ["in=int32[6000]:-50..50", "out=int32[6000]", "cols=2000"], grid=(3, 1, 1))
fresh11("cub_block_sort_pairs.b128.i8", F11K, "cub_block_sort_pairs<128, 8>", (128,),
        ["keys=uint32[3072]:0..4294967295", "vals=int32[3072]"], grid=(3, 1, 1))
fresh11("kmeans_assign_cg.d64.k40.p300", F11K, "kmeans_assign_cg<64>", (128,),
        ["points=float32[19200]", "centroids=float32[2560]", "npoints=300", "k=40", "assign=int32[300]",
         "sizes=int32[40]:0..0"], grid=(6, 1, 1), dyn=40 * 64 * 4)
fresh11("pipeline_row_smooth.20x700", F11K, "pipeline_row_smooth", (256,),
        ["in=float32[14000]", "out=float32[14000]", "rows=20", "cols=700"], grid=(6, 1, 1))
fresh11("layernorm_warp_half.p4.h256.r36", F11K, "layernorm_warp_half<4>", (32, 4),
        ["x=float16[9216]", "gamma=float16[256]", "beta=float16[256]", "y=float16[9216]", "mean=float32[36]",
         "invvar=float32[36]", "rows=36", "hidden=256", "eps=1e-5"], grid=(9, 1, 1))


# ---- the twelfth fresh held-out batch (kernels/fresh12_apps.cu, compiled by NVRTC, and fresh12_kernels.cu, compiled
# by nvcc, with fresh12_common.cuh): the public kernels a held-out checker is most likely to take, in their authors'
# manner, files as they sit (macros, templates, extern "C" and C++ names, a __device__ retirement counter, host code
# and a main() the recording never runs). NVRTC, CUDA-samples style: histogram64 (byte counters a thread in shared
# memory behind the thread-position swizzle, blocks of 64) and its merge, histogram256 (a 256-bin sub-histogram a
# warp with a tag mask, blocks of 192, uniform and skewed bytes), bitonic and odd-even merge sorts of keys and values
# (both directions, arrays shorter than a block's), separable row and column convolutions (17 taps in __constant__,
# an apron of halo tiles, 8 or 4 outputs a thread, a padded pitch), the shuffle scan with its block totals in dynamic
# shared memory and the uniform add, an 8x8 DCT in a (8, 4, 2) block over a strided shared strip (stride 33 and 32),
# fast Walsh transforms (radix-4 with a last radix-2 stage; plain radix-2 over 384 threads), binomial options
# (float, 64 threads; double, 96 threads), the threadfence single-pass reduction (128 not a power of two n, 256),
# the shared merge sort's binary-search rank pass (ties, both directions), the transpose family (coalesced, no bank
# conflicts, coarse- and fine-grained, diagonal on a square and an oblong grid), matrixMul with AS/BS (16 and 32).
# PMPP: 2-D convolution with a 5x5 __constant__ mask (input tile 32 and 16, output tile, cached halo 16 and 32),
# 3-D seven-point stencils coarsened in z (shared planes; register tiling, 16x16 and 32x32 blocks, N 20 to 30),
# letter histograms privatised in shared memory (contiguous and interleaved coarsening, aggregated runs, blocks of
# 96 to 256), Kogge-Stone with double buffering (160 and 512), Brent-Kung, the three-phase scan (coarsening 4 and 3),
# a circular-buffer tiled merge by co-rank, JDS SpMV, a BFS step with a privatised frontier (and its overflow),
# a radix pass's local sort by a scan of bits and its coalesced scatter. nvcc, llm.c style: the encoder on Packed128
# bf16, LayerNorm a warp a row (cooperative groups) and with weights cached in shared memory (blockDim (32, 4) and
# (32, 8)), an online softmax (96, 128, 384 threads), the attention permute and unpermute (float and bf16), a fused
# residual + LayerNorm, GELU forward and backward on x128, AdamW (bf16 with a float master copy; float), the fused
# classifier (V 300 and 1003 with a tail), a matmul bias gradient through shared partials (blockDim (32, 8), (32, 4));
# written blind, before its first recording; grids of 1 to 9 blocks
F12K, F12A = f"{K}/fresh12_kernels.cu", f"{K}/fresh12_apps.cu"
_F12_GAUSS17 = [float(np.exp(-0.5 * (i / 3.0) ** 2)) for i in range(-8, 9)]
_F12_MASK5 = [float(x) for x in (np.outer([1, 4, 6, 4, 1], [1, 4, 6, 4, 1]) / 256.0).ravel()]
_F12_STENCIL = ["c0=-6.0", "c1=1.0", "c2=1.0", "c3=1.0", "c4=1.0", "c5=1.0", "c6=1.0"]


def fresh12(id, file, kernel, block, args, **kw):
    c = case("fresh12." + id, file, kernel, block, args, **kw)
    if file == F12K:
        c["compiler"] = "nvcc"
    return c


# ---- histograms (CUDA samples, NVRTC)
fresh12("histogram64.uniform.g4", F12A, "histogram64Kernel", (64,),
        ["d_PartialHistograms=uint32[256]", "d_Data=uint32[8000]", "dataCount=2000"], grid=(4, 1, 1))
fresh12("histogram64.skewed.g3", F12A, "histogram64Kernel", (64,),
        ["d_PartialHistograms=uint32[192]", f"d_Data={npy('fresh12_skewed_words_2800')}", "dataCount=700"],
        grid=(3, 1, 1))
fresh12("mergeHistogram64.p300", F12A, "mergeHistogram64Kernel", (256,),
        ["d_Histogram=uint32[64]", "d_PartialHistograms=uint32[19200]:0..1000", "histogramCount=300"], grid=(8, 1, 1))
fresh12("histogram256.uniform.g5", F12A, "histogram256Kernel", (192,),
        ["d_PartialHistograms=uint32[1280]", "d_Data=uint32[6000]", "dataCount=6000"], grid=(5, 1, 1))
fresh12("histogram256.skewed.g3", F12A, "histogram256Kernel", (192,),
        ["d_PartialHistograms=uint32[768]", f"d_Data={npy('fresh12_skewed_words_2800')}", "dataCount=2800"],
        grid=(3, 1, 1))

# ---- sorting networks and merge sort (CUDA samples, NVRTC)
for kern, lim, b, n_arr, d, g, rng_ in (("bitonicSortShared", 1024, 512, 1024, 1, 2, ""),
                                        ("bitonicSortShared", 1024, 512, 128, 0, 3, ":0..100"),
                                        ("bitonicSortShared", 512, 256, 512, 0, 2, ""),
                                        ("oddEvenMergeSortShared", 1024, 512, 1024, 1, 2, ""),
                                        ("oddEvenMergeSortShared", 256, 128, 64, 0, 3, ":0..50"),
                                        ("mergeSortSharedKernel", 1024, 512, 1024, 1, 2, ":0..500"),
                                        ("mergeSortSharedKernel", 256, 128, 256, 0, 3, ""),
                                        ("mergeSortSharedKernel", 1024, 512, 128, 1, 1, ":0..40")):
    tot = lim * g
    fresh12(f"{kern}.l{lim}.a{n_arr}.dir{d}{'.ties' if rng_ else ''}", F12A, f"{kern}<{lim}>", (b,),
            [f"d_DstKey=uint32[{tot}]", f"d_DstVal=uint32[{tot}]", f"d_SrcKey=uint32[{tot}]{rng_}",
             f"d_SrcVal=uint32[{tot}]:0..100000", f"arrayLength={n_arr}", f"{'sortDir' if 'merge' in kern else 'dir'}={d}"],
            grid=(g, 1, 1))

# ---- separable convolution (CUDA samples, NVRTC)
for bx, by, steps, w, h, pitch, g in ((16, 4, 8, 256, 12, 256, (2, 3, 1)), (32, 4, 4, 256, 8, 264, (2, 2, 1))):
    fresh12(f"convolutionRows.{bx}x{by}.s{steps}.{w}x{h}.p{pitch}", F12A, f"convolutionRowsKernel<{bx}, {by}, {steps}, 1>",
            (bx, by), [f"d_Dst=float32[{pitch * h}]", f"d_Src=float32[{pitch * h}]", f"imageW={w}", f"imageH={h}",
                       f"pitch={pitch}"], grid=g, constants={"c_Kernel": _F12_GAUSS17})
for bx, by, steps, w, h, pitch, g in ((16, 8, 8, 48, 128, 48, (3, 2, 1)), (32, 8, 4, 64, 64, 72, (2, 2, 1))):
    fresh12(f"convolutionColumns.{bx}x{by}.s{steps}.{w}x{h}.p{pitch}", F12A,
            f"convolutionColumnsKernel<{bx}, {by}, {steps}, 1>", (bx, by),
            [f"d_Dst=float32[{pitch * h}]", f"d_Src=float32[{pitch * h}]", f"imageW={w}", f"imageH={h}", f"pitch={pitch}"],
            grid=g, constants={"c_Kernel": _F12_GAUSS17})

# ---- scans, DCT, Walsh, options, reduction (CUDA samples, NVRTC)
for b, g in ((256, 4), (128, 6)):
    fresh12(f"shfl_scan_test.b{b}", F12A, "shfl_scan_test", (b,),
            [f"data=int32[{b * g}]:-50..50", "width=32", f"partial_sums=int32[{g}]"], grid=(g, 1, 1), dyn=4 * b // 32)
fresh12("uniform_add.b256.n1000", F12A, "uniform_add", (256,),
        ["data=int32[1024]:-50..50", "partial_sums=int32[4]:-500..500", "len=1000"], grid=(4, 1, 1))
for pad, w, h in ((1, 96, 48), (0, 64, 32)):
    fresh12(f"CUDAkernel2DCT.pad{pad}.{w}x{h}", F12A, f"CUDAkernel2DCT<{pad}>", (8, 4, 2),
            [f"dst=float32[{w * h}]", f"src=float32[{w * h}]", f"ImgStride={w}"], grid=(w // 32, h // 16, 1))
for log2n, b, g in ((10, 256, 2), (9, 128, 3)):
    fresh12(f"fwtBatch1Kernel.n{1 << log2n}", F12A, "fwtBatch1Kernel", (b,),
            [f"d_Output=float32[{g << log2n}]", f"d_Input=float32[{g << log2n}]", f"log2N={log2n}"], grid=(g, 1, 1),
            dyn=4 << log2n)
fresh12("fwt_radix2_shared.n2048.b384", F12A, "fwt_radix2_shared", (384,), ["d_Data=float32[4096]", "log2N=11"],
        grid=(2, 1, 1), dyn=8192)
for t, dt, steps, b, g in (("float", "float32", 256, 64, 3), ("double", "float64", 192, 96, 4)):
    fresh12(f"binomialOptions.{dt}.s{steps}.b{b}", F12A, f"binomialOptionsKernel<{t}, {steps}, {b}>", (b,),
            [f"opt={dt}[{5 * g}]:0.01..0.05", f"d_CallValue={dt}[{g}]"], grid=(g, 1, 1))
for b, pow2, n, g in ((128, "false", 5000, 8), (256, "true", 4096, 6)):
    fresh12(f"reduceSinglePass.b{b}.n{n}", F12A, f"reduceSinglePass<{b}, {pow2}>", (b,),
            [f"g_idata=float32[{n}]", f"g_odata=float32[{g}]", f"n={n}"], grid=(g, 1, 1))

# ---- transposes and matrixMul (CUDA samples, NVRTC)
for kern in ("transposeCoalesced", "transposeNoBankConflicts", "transposeCoarseGrained", "transposeFineGrained",
             "transposeDiagonal"):
    fresh12(f"{kern}.96x64", F12A, kern, (32, 8),
            ["odata=float32[6144]", "idata=float32[6144]", "width=96", "height=64"], grid=(3, 2, 1))
fresh12("transposeDiagonal.64x64", F12A, "transposeDiagonal", (32, 8),
        ["odata=float32[4096]", "idata=float32[4096]", "width=64", "height=64"], grid=(2, 2, 1))
for bs, ha, wa, wb in ((16, 48, 64, 32), (32, 64, 96, 64)):
    fresh12(f"MatrixMulCUDA.b{bs}.{ha}x{wa}x{wb}", F12A, f"MatrixMulCUDA<{bs}>", (bs, bs),
            [f"C=float32[{ha * wb}]", f"A=float32[{ha * wa}]", f"B=float32[{wa * wb}]", f"wA={wa}", f"wB={wb}"],
            grid=(wb // bs, ha // bs, 1))

# ---- PMPP convolution and stencils (NVRTC)
for t, w, h in ((32, 54, 30), (16, 40, 20)):
    o = t - 4
    fresh12(f"conv2d_in_tile.t{t}.{w}x{h}", F12A, f"convolution_tiled_2D_const_mem_kernel<{t}>", (t, t),
            [f"N=float32[{w * h}]", f"P=float32[{w * h}]", f"width={w}", f"height={h}"],
            grid=(-(-w // o), -(-h // o), 1), constants={"F_c": _F12_MASK5})
fresh12("conv2d_out_tile.t16.45x30", F12A, "convolution_out_tile_kernel<16>", (16, 16),
        ["N=float32[1350]", "P=float32[1350]", "width=45", "height=30"], grid=(3, 2, 1), constants={"F_c": _F12_MASK5})
for t, w, h in ((16, 45, 30), (32, 64, 30)):
    fresh12(f"conv2d_cached_halo.t{t}.{w}x{h}", F12A, f"convolution_cached_tiled_2D_const_mem_kernel<{t}>", (t, t),
            [f"N=float32[{w * h}]", f"P=float32[{w * h}]", f"width={w}", f"height={h}"],
            grid=(-(-w // t), -(-h // t), 1), constants={"F_c": _F12_MASK5})
for kern, t, n in (("stencil_coarsened_kernel", 16, 20), ("stencil_coarsened_kernel", 16, 23),
                   ("stencil_register_tiled_kernel", 16, 20), ("stencil_register_tiled_kernel", 32, 30)):
    g = -(-n // (t - 2))
    fresh12(f"{kern}.t{t}.n{n}", F12A, f"{kern}<{t}>", (t, t),
            [f"in=float32[{n ** 3}]", f"out=float32[{n ** 3}]", f"N={n}"] + _F12_STENCIL, grid=(g, g, g))

# ---- PMPP histograms, scans, merge, sparse, graphs, sorting (NVRTC)
_F12_TEXT = f"data={npy('fresh12_text_runs_4000')}"
fresh12("histo_private_coarse_contiguous.c8.b128", F12A, "histo_private_coarse_contiguous", (128,),
        [_F12_TEXT, "length=4000", "histo=uint32[7]:0..0", "cfactor=8"], grid=(4, 1, 1))
fresh12("histo_private_coarse_interleaved.b256", F12A, "histo_private_coarse_interleaved", (256,),
        [_F12_TEXT, "length=4000", "histo=uint32[7]:0..0"], grid=(3, 1, 1))
fresh12("histo_private_aggregated.b96", F12A, "histo_private_aggregated", (96,),
        [_F12_TEXT, "length=4000", "histo=uint32[7]:0..0"], grid=(5, 1, 1))
for s, n, g in ((160, 1000, 7), (512, 3000, 6)):
    fresh12(f"Kogge_Stone_scan_double_buffer.s{s}.n{n}", F12A, f"Kogge_Stone_scan_double_buffer<{s}>", (s,),
            [f"X=float32[{n}]", f"Y=float32[{n}]", f"N={n}"], grid=(g, 1, 1))
for s, n, g in ((512, 3000, 6), (128, 1000, 8)):
    fresh12(f"Brent_Kung_scan.s{s}.n{n}", F12A, f"Brent_Kung_scan_kernel<{s}>", (s // 2,),
            [f"X=float32[{n}]", f"Y=float32[{n}]", f"N={n}"], grid=(g, 1, 1))
for b, cf, n, g in ((128, 4, 2000, 4), (192, 3, 2500, 5)):
    fresh12(f"three_phase_scan.b{b}.c{cf}.n{n}", F12A, f"three_phase_scan_kernel<{b}, {cf}>", (b,),
            [f"X=float32[{n}]", f"Y=float32[{n}]", f"N={n}"], grid=(g, 1, 1))
for b, g, tile in ((128, 4, 256), (64, 3, 128)):
    fresh12(f"merge_tiled_circular.b{b}.t{tile}", F12A, "merge_tiled_circular_kernel", (b,),
            [f"A={npy('fresh12_merge_a_1000')}", "m=1000", f"B={npy('fresh12_merge_b_700')}", "n=700",
             "C=int32[1700]", f"tile_size={tile}"], grid=(g, 1, 1), dyn=8 * tile)
fresh12("spmv_jds.r300", F12A, "spmv_jds_kernel", (128,),
        ["numRows=300", "numIters=17", f"jdsRowPerm={npy('fresh12_jds_row_perm_300')}",
         f"iterPtr={npy('fresh12_jds_iter_ptr_300')}", f"colIdx={npy('fresh12_jds_cols_300')}",
         f"value={npy('fresh12_jds_vals_300')}", "x=float32[400]", "y=float32[300]"], grid=(3, 1, 1))
for cap, b, step, nprev, nnew in ((512, 128, 4, 120, 500), (64, 32, 3, 30, 120)):
    fresh12(f"bfs_private_frontier.cap{cap}.b{b}.step{step}", F12A, f"bfs_private_frontier_kernel<{cap}>", (b,),
            [f"srcPtrs={npy('fresh12_bfs_src_ptrs_656')}", f"dst={npy('fresh12_bfs_dst_656')}",
             f"level={npy(f'fresh12_bfs_level_step{step}')}", f"prevFrontier={npy(f'fresh12_bfs_frontier_step{step}')}",
             f"currFrontier=uint32[{nnew}]", f"numPrevFrontier={nprev}", "numCurrFrontier=uint32[1]:0..0",
             f"currLevel={step}"])
fresh12("radix_local_sort_bit.b256.bit5", F12A, "radix_local_sort_bit", (256,),
        [f"keys={npy('fresh12_radix_keys_2000')}", "tile_out=uint32[2000]", "zero_counts=uint32[8]",
         "one_counts=uint32[8]", "N=2000", "iter=5"], grid=(8, 1, 1), dyn=2048)
fresh12("radix_local_sort_bit.b192.bit0", F12A, "radix_local_sort_bit", (192,),
        ["keys=uint32[1500]", "tile_out=uint32[1500]", "zero_counts=uint32[8]", "one_counts=uint32[8]", "N=1500",
         "iter=0"], grid=(8, 1, 1), dyn=1536)
fresh12("radix_scatter_coalesced.b256.bit5", F12A, "radix_scatter_coalesced", (256,),
        [f"tile_keys={npy('fresh12_radix_tiles_bit5_2000')}", f"zero_offsets={npy('fresh12_radix_zero_offsets_8')}",
         f"one_offsets={npy('fresh12_radix_one_offsets_8')}", f"zero_counts={npy('fresh12_radix_zero_counts_8')}",
         "out=uint32[2000]", "N=2000", "iter=5"], grid=(8, 1, 1))

# ---- llm.c (nvcc)
for b, g, B, T, C, tok in ((256, 4, 2, 40, 96, "tokens_80_of_300"), (192, 7, 3, 17, 200, "tokens_51_of_300")):
    fresh12(f"encoder_forward_kernel3.{B}x{T}x{C}", F12K, "encoder_forward_kernel3", (b,),
            [f"out=bfloat16[{B * T * C}]", f"inp={npy('fresh12_' + tok)}", f"wte=bfloat16[{300 * C}]",
             f"wpe=bfloat16[{T * C}]", f"B={B}", f"T={T}", f"C={C}"], grid=(g, 1, 1))
for b, g, N, C in ((256, 7, 50, 130), (96, 9, 25, 48)):
    fresh12(f"layernorm_forward_kernel3.b{b}.{N}x{C}", F12K, "layernorm_forward_kernel3", (b,),
            [f"out=bfloat16[{N * C}]", f"mean=float32[{N}]", f"rstd=float32[{N}]", f"inp=bfloat16[{N * C}]",
             f"weight=bfloat16[{C}]", f"bias=bfloat16[{C}]", f"N={N}", f"C={C}"], grid=(g, 1, 1))
for by, g, N, C in ((4, 8, 30, 200), (8, 3, 20, 768)):
    fresh12(f"layernorm_forward_kernel6.32x{by}.{N}x{C}", F12K, "layernorm_forward_kernel6", (32, by),
            [f"out=bfloat16[{N * C}]", f"mean=float32[{N}]", f"rstd=float32[{N}]", f"inp=bfloat16[{N * C}]",
             f"weight=bfloat16[{C}]", f"bias=bfloat16[{C}]", f"N={N}", f"C={C}"], grid=(g, 1, 1),
            dyn=(2 + by) * C * 2)
for b, N, C in ((128, 6, 1000), (384, 3, 2500), (96, 9, 77)):
    fresh12(f"softmax_forward_online.b{b}.{N}x{C}", F12K, "softmax_forward_online_kernel", (b,),
            [f"out=float32[{N * C}]", f"inp=float32[{N * C}]", f"N={N}", f"C={C}"], grid=(N, 1, 1))
for t, dt, b, g in (("float", "float32", 192, 8), ("__nv_bfloat16", "bfloat16", 160, 9)):
    fresh12(f"permute_kernel.{dt}.2x12x3x20", F12K, f"permute_kernel<{t}>", (b,),
            [f"q={dt}[1440]", f"k={dt}[1440]", f"v={dt}[1440]", f"inp={dt}[4320]", "B=2", "N=12", "NH=3", "d=20"],
            grid=(g, 1, 1))
fresh12("unpermute_kernel.bfloat16.2x12x3x20", F12K, "unpermute_kernel<__nv_bfloat16>", (256,),
        ["inp=bfloat16[1440]", "out=bfloat16[1440]", "B=2", "N=12", "NH=3", "d=20"], grid=(6, 1, 1))
fresh12("fused_residual_forward_kernel5.32x4.30x256", F12K, "fused_residual_forward_kernel5", (32, 4),
        ["residual=bfloat16[7680]", "normed=bfloat16[7680]", "mean=float32[30]", "rstd=float32[30]",
         "inp1=bfloat16[7680]", "inp2=bfloat16[7680]", "weight=bfloat16[256]", "bias=bfloat16[256]", "N=30", "C=256"],
        grid=(8, 1, 1), dyn=3072)
fresh12("gelu_forward_kernel2.n7680.b192", F12K, "gelu_forward_kernel2", (192,),
        ["out=bfloat16[7680]", "inp=bfloat16[7680]", "N=7680"], grid=(5, 1, 1))
fresh12("gelu_backward_inplace.n6000.b128", F12K, "gelu_backward_inplace_kernel", (128,),
        ["d_in_out=bfloat16[6000]", "inp=bfloat16[6000]", "N=6000"], grid=(6, 1, 1))
for tp, tg, dp, dg, n, b, g in (("__nv_bfloat16", "__nv_bfloat16", "bfloat16", "bfloat16", 3000, 384, 8),
                                ("float", "float", "float32", "float32", 1000, 256, 4)):
    fresh12(f"adamw_kernel3.{dp}.n{n}", F12K, f"adamw_kernel3<{tp}, {tg}>", (b,),
            [f"params_memory={dp}[{n}]", f"master_params_memory=float32[{n}]", f"grads_memory={dg}[{n}]",
             f"m_memory=float32[{n}]", f"v_memory=float32[{n}]:0..1", f"num_parameters={n}", "learning_rate=0.0003",
             "beta1=0.9", "beta2=0.95", "beta1_correction=0.1", "beta2_correction=0.05", "eps=1e-8",
             "weight_decay=0.1", "grad_scale=1.0"], grid=(g, 1, 1))
for b, B, T, V, Vp, tg in ((128, 2, 3, 300, 304, "targets_6_of_300"), (256, 1, 4, 1003, 1008, "targets_4_of_1003")):
    fresh12(f"fused_classifier_kernel5.b{b}.v{V}", F12K, "fused_classifier_kernel5", (b,),
            [f"logits=bfloat16[{B * T * Vp}]", f"losses=bfloat16[{B * T}]", f"probs=bfloat16[{B * T * Vp}]",
             f"dloss={1.0 / (B * T)}", f"targets={npy('fresh12_' + tg)}", f"B={B}", f"T={T}", f"V={V}", f"P={Vp}"],
            grid=(B * T, 1, 1))
for by, B, T, OC in ((8, 1, 37, 504), (4, 4, 5, 768)):
    fresh12(f"matmul_backward_bias.32x{by}.{B * T}x{OC}", F12K, f"matmul_backward_bias_kernel<{by}>", (32, by),
            [f"dbias=bfloat16[{OC}]", f"dout=bfloat16[{B * T * OC}]", f"B={B}", f"T={T}", f"OC={OC}"],
            grid=(-(-OC // 256), 1, 1))



# ---- the thirteenth fresh held-out batch (kernels/fresh13_apps.cu, compiled by NVRTC, and fresh13_kernels.cu, compiled
# by nvcc, with fresh13_common.cuh): the benchmark suites' kernels as their authors wrote them and a harness gathers
# them (each suite's BLOCK_SIZE and problem-size macros set per section, their structs, their boundary tricks, host
# code and a main() the recording never runs). NVRTC, Rodinia: Needleman-Wunsch's anti-diagonal 16x16 tiles with the
# reference tile (both halves of the sweep), LU's diagonal / perimeter / internal tiles (BLOCK_SIZE 16 and 32, from a
# diagonally dominant matrix), HotSpot's pyramid (16x16 two steps, 12x12 one step, ragged grids) and 3-D opt1 (global
# only), PathFinder's shared prev/result rows (256 and 96 threads), SRAD v2's north/south/east/west tiles (its edge
# reads kept in bounds), Gaussian elimination's Fan1 and Fan2 (16x16, 12x8), back propagation's layerforward (the
# __log2f/__powf tree) and weight adjustment, the B+ tree's findK (orders 16 and 48, a data-dependent descent of
# knode structs), streamcluster's pgain cost (the candidate in dynamic shared memory, a 2-D grid, centre_table
# gathers), lavaMD (FOUR_VECTOR and double charges in shared memory, 100 particles by 128 threads and 40 by 32), a
# dwt2d-style 5/3 row lifting (int, a mirrored halo) and 9/7 column lifting (a padded float tile), k-means' inverted
# features and nearest centre with the centres in __constant__ (plain, and with the delta and new-centre
# reductions); Parboil: sgemm's register tiling (TILE_N 16, TILE_TB_HEIGHT 8), the 7-point stencil coarsened in x
# (32x4 and 16x8 blocks, ragged), histo's prescan (a warp-synchronous tail with no volatile) and its final
# saturating pass (ushort4, uint4 reads, uchar4 writes), MRI-Q (kValues in __constant__, odd and even numK),
# cutcp (block 8x2x8, whole bins a thread into a shared cache of float4 atoms), tpacf (a shared tile of 12-byte
# points, bisection over shared bin boundaries, shared sub-histograms, 64-bit results), LBM's D3Q19 step (SoA, 19
# loads and 19 pushed stores, blocks of 40 and 64 cells). nvcc, PolyBench-GPU: atax, bicg, mvt, gesummv (a thread
# a row: strided; a thread a column: coalesced), gemm, syr2k (32x10), covariance and correlation (mean, std,
# reduce over a 96x8 block, the triangular products), Gram-Schmidt's three kernels, FDTD-2D (rows of NY+1), Jacobi-2D
# (24x16 blocks), the 2-D and 3-D convolutions; SHOC: Stencil2D's shared strip with halo (float, 64 threads; double,
# 48), the templated reduction (float and double, 256 threads, the volatile tail), the Blelloch scan with
# CONFLICT_FREE_OFFSET (128 and 256 threads, ragged n), MD's Lennard-Jones over neighbour lists (float4 through
# __ldg, double4), Triad, the radix sort's reduce (a private digit histogram: local memory), top_scan and
# bottom_scan (uint4 keys, shared scans, a data-dependent scatter); CUDA samples: SobolQRNG (2-D grids of 64 and
# 128), the quasirandom generator (a __constant__ table, a 128x3 block) and Moro's inverse CND, boxFilter's
# running sums along rows, down columns and on RGBA words, NLM over a shared uchar4 window (8x8 blocks, a ragged
# image), FDTD3d (radius 4, 32x16 and 32x8, cooperative groups), n-body (float4, 96 threads; double4, 64), an
# eigenvalue bisection step (Sturm counts over a shared tridiagonal, a shared compaction), lineOfSight's angles,
# max-scan and visibilities (bytes); written blind, before its first recording; grids of 1 to 9 blocks
F13K, F13A = f"{K}/fresh13_kernels.cu", f"{K}/fresh13_apps.cu"


def fresh13(id, file, kernel, block, args, **kw):
    c = case("fresh13." + id, file, kernel, block, args, **kw)
    if file == F13K:
        c["compiler"] = "nvcc"
    return c


def _f13_double_bits(x: float) -> list[float]:
    """A double's 8 bytes as the two floats that hold them (the recorder writes __constant__ values as float32)."""
    import struct

    return list(struct.unpack("<2f", struct.pack("<d", x)))


_F13_RNG = np.random.default_rng(20270902)
_F13_CLUSTERS = [float(x) for x in _F13_RNG.uniform(-0.8, 0.8, 40)]
_F13_KVALUES = [float(x) for x in np.column_stack([_F13_RNG.uniform(-0.5, 0.5, (75, 3)),
                                                   _F13_RNG.uniform(0, 1, 75)]).ravel()]
_F13_QRNG = [float(x) for x in _F13_RNG.uniform(-1000, 1000, 93)]
_F13_FDTD = [-2.4, 0.5, -0.08, 0.01, -0.001]

# ---- Rodinia (NVRTC)
for kern, bw, i, g in (("needle_cuda_shared_1", 4, 3, 3), ("needle_cuda_shared_1", 4, 4, 4),
                       ("needle_cuda_shared_2", 4, 2, 2), ("needle_cuda_shared_2", 5, 3, 3)):
    cols = 16 * bw + 1
    fresh13(f"{kern}.w{bw}.i{i}", F13A, kern, (16,),
            [f"referrence=int32[{cols * cols}]:-4..11", f"matrix_cuda=int32[{cols * cols}]:-100..100", f"cols={cols}",
             "penalty=10", f"i={i}", f"block_width={bw}"], grid=(g, 1, 1))
for bs, dim, off, kern, block, grid in ((16, 64, 0, "lud_diagonal", (16,), (1, 1, 1)),
                                        (16, 64, 0, "lud_perimeter", (32,), (3, 1, 1)),
                                        (16, 64, 16, "lud_perimeter", (32,), (2, 1, 1)),
                                        (16, 64, 0, "lud_internal", (16, 16), (3, 3, 1)),
                                        (16, 64, 16, "lud_internal", (16, 16), (2, 2, 1)),
                                        (32, 96, 0, "lud_diagonal", (32,), (1, 1, 1)),
                                        (32, 96, 0, "lud_perimeter", (64,), (2, 1, 1)),
                                        (32, 96, 0, "lud_internal", (32, 32), (2, 2, 1))):
    fresh13(f"{kern}.bs{bs}.o{off}", F13A, kern, block,
            [f"m={npy(f'fresh13_diagdom_{dim}')}", f"matrix_dim={dim}", f"offset={off}"],
            defines={"LUD_BLOCK_SIZE": bs} if bs != 16 else None, grid=grid)
for bs, it, cols, rows, grid in ((16, 2, 30, 30, (3, 3, 1)), (12, 1, 20, 28, (2, 3, 1))):
    n = cols * rows
    fresh13(f"calculate_temp.b{bs}.p{it}.{cols}x{rows}", F13A, "calculate_temp", (bs, bs),
            [f"iteration={it}", f"power=float32[{n}]:0..1", f"temp_src=float32[{n}]:320..340", f"temp_dst=float32[{n}]",
             f"grid_cols={cols}", f"grid_rows={rows}", f"border_cols={it}", f"border_rows={it}", "Cap=0.5", "Rx=1.5",
             "Ry=1.5", "Rz=10.0", "step=0.001", "time_elapsed=0.001"],
            defines={"HOTSPOT_BLOCK_SIZE": bs} if bs != 16 else None, grid=grid)
for bx, by, nx, ny, nz in ((64, 4, 64, 12, 5), (32, 8, 96, 8, 4)):
    n = nx * ny * nz
    fresh13(f"hotspotOpt1.{bx}x{by}.{nx}x{ny}x{nz}", F13A, "hotspotOpt1", (bx, by),
            [f"p=float32[{n}]:0..1", f"tIn=float32[{n}]:320..340", f"tOut=float32[{n}]", "sdc=0.002", f"nx={nx}",
             f"ny={ny}", f"nz={nz}", "ce=0.1", "cw=0.1", "cn=0.1", "cs=0.1", "ct=0.1", "cb=0.1", "cc=0.4"],
            grid=(nx // bx, ny // by, 1))
for bs, it, cols, rows, start, g in ((256, 4, 1000, 20, 0, 5), (96, 3, 500, 12, 6, 6)):
    fresh13(f"dynproc_kernel.b{bs}.p{it}.c{cols}", F13A, "dynproc_kernel", (bs,),
            [f"iteration={it}", f"gpuWall=int32[{cols * (rows - 1)}]:0..9", f"gpuSrc=int32[{cols}]:0..9",
             f"gpuResults=int32[{cols}]", f"cols={cols}", f"rows={rows}", f"startStep={start}", f"border={it}"],
            defines={"PF_BLOCK_SIZE": bs} if bs != 256 else None, grid=(g, 1, 1))
for cols, rows in ((48, 48), (64, 32)):
    n = cols * rows
    fresh13(f"srad_cuda_1.{cols}x{rows}", F13A, "srad_cuda_1", (16, 16),
            [f"E_C=float32[{n}]", f"W_C=float32[{n}]", f"N_C=float32[{n}]", f"S_C=float32[{n}]",
             f"J_cuda=float32[{n}]:1.0..1.2", f"C_cuda=float32[{n}]", f"cols={cols}", f"rows={rows}", "q0sqr=0.05"],
            grid=(cols // 16, rows // 16, 1))
fresh13("srad_cuda_2.48x48", F13A, "srad_cuda_2", (16, 16),
        ["E_C=float32[2304]:-0.2..0.2", "W_C=float32[2304]:-0.2..0.2", "N_C=float32[2304]:-0.2..0.2",
         "S_C=float32[2304]:-0.2..0.2", "J_cuda=float32[2304]:1.0..1.2", "C_cuda=float32[2304]:0..1", "cols=48",
         "rows=48", "lambda=0.5", "q0sqr=0.05"], grid=(3, 3, 1))
fresh13("Fan1.b64.s200.t3", F13A, "Fan1", (64,),
        ["m_cuda=float32[40000]", f"a_cuda={npy('fresh13_diagdom_200')}", "Size=200", "t=3"], grid=(4, 1, 1))
for bx, by, size, t, grid in ((16, 16, 40, 5, (3, 3, 1)), (12, 8, 24, 2, (2, 3, 1))):
    fresh13(f"Fan2.{bx}x{by}.s{size}.t{t}", F13A, "Fan2", (bx, by),
            [f"m_cuda=float32[{size * size}]", f"a_cuda=float32[{size * size}]", f"b_cuda=float32[{size}]",
             f"Size={size}", f"j1={size}", f"t={t}"], grid=grid)
for inp in (64, 128):
    fresh13(f"bpnn_layerforward_CUDA.in{inp}", F13A, "bpnn_layerforward_CUDA", (16, 16),
            [f"input_cuda=float32[{inp + 1}]", "output_hidden_cuda=float32[17]",
             f"input_hidden_cuda=float32[{(inp + 1) * 17}]", f"hidden_partial_sum=float32[{inp}]", f"in={inp}", "hid=16"],
            grid=(1, inp // 16, 1))
fresh13("bpnn_adjust_weights_cuda.in64", F13A, "bpnn_adjust_weights_cuda", (16, 16),
        ["delta=float32[17]", "hid=16", "ly=float32[65]", "in=64", "w=float32[1105]", "oldw=float32[1105]"],
        grid=(1, 4, 1))
for order, q, nodes in ((16, 8, 55), (48, 9, 53)):
    fresh13(f"findK.o{order}.q{q}", F13A, "findK", (order,),
            ["height=2", f"knodesD={npy(f'fresh13_bptree_o{order}_knodes')}", f"knodes_elem={nodes}",
             f"recordsD={npy(f'fresh13_bptree_o{order}_records')}", f"currKnodeD=int64[{q}]:0..0",
             f"offsetD=int64[{q}]:0..0", f"keysD={npy(f'fresh13_bptree_o{order}_keys')}", f"ansD=int32[{q}]"],
            defines={"DEFAULT_ORDER": order} if order != 16 else None, grid=(q, 1, 1))
for b, grid, num, dim, x, k in ((128, (4, 2, 1), 1000, 20, 37, 12), (96, (4, 1, 1), 300, 7, 299, 5)):
    fresh13(f"kernel_compute_cost.b{b}.n{num}.d{dim}", F13A, "kernel_compute_cost", (b,),
            [f"num={num}", f"dim={dim}", f"x={x}", f"p={npy('fresh13_sc_points_1000')}", f"K={k}", f"stride={k + 1}",
             f"coord_d=float32[{num * dim}]", f"work_mem_d=float32[{num * (k + 1)}]",
             f"center_table_d={npy('fresh13_sc_center_table_1000')}", f"switch_membership_d=bool[{num}]:0..0"],
            grid=grid, dyn=4 * dim)
for par, thr, nb, boxes in ((100, 128, 4, "2x2x1_p100"), (40, 32, 8, "2x2x2_p40")):
    fresh13(f"kernel_gpu_cuda.p{par}.t{thr}.b{nb}", F13A, "kernel_gpu_cuda", (thr,),
            ["alpha=0.5", f"number_boxes={nb}", f"d_box_gpu={npy(f'fresh13_lavamd_boxes_{boxes}')}",
             f"d_rv_gpu=float4[{par * nb}]:0.1..1.0", f"d_qv_gpu=float32[{par * nb}]:0.1..1.0",
             f"d_fv_gpu=float4[{par * nb}]"],
            defines={"NUMBER_PAR_PER_BOX": par, "NUMBER_THREADS": thr} if par != 100 else None, grid=(nb, 1, 1))
for b, sx, sy in ((48, 128, 6), (64, 256, 3)):
    fresh13(f"fdwt53_rows.b{b}.{sx}x{sy}", F13A, "fdwt53_rows", (b,),
            [f"in=int32[{sx * sy}]:0..255", f"out=int32[{sx * sy}]", f"sx={sx}", f"sy={sy}"], grid=(sx // 128, sy, 1))
for tx, ty, sx, sy in ((16, 8, 48, 32), (32, 4, 40, 24)):
    fresh13(f"fdwt97_cols.{tx}x{ty}.{sx}x{sy}", F13A, f"fdwt97_cols<{tx}, {ty}>", (tx, ty),
            [f"in=float32[{sx * sy}]", f"out=float32[{sx * sy}]", f"sx={sx}", f"sy={sy}"],
            grid=(-(-sx // tx), sy // (2 * ty), 1))
fresh13("invert_mapping.n500.f9", F13A, "invert_mapping", (128,),
        ["input=float32[4500]", "output=float32[4500]", "npoints=500", "nfeatures=9"], grid=(4, 1, 1))
for tag, b, grid, npts, defs in (("plain", 256, (4, 1, 1), 1000, None),
                                 ("reductions", 128, (3, 2, 1), 768,
                                  {"GPU_DELTA_REDUCTION": 1, "GPU_NEW_CENTER_REDUCTION": 1, "THREADS_PER_BLOCK": 128})):
    nblk = grid[0] * grid[1]
    fresh13(f"kmeansPoint.{tag}.n{npts}.f8.k5", F13A, "kmeansPoint", (b,),
            [f"features=float32[{npts * 8}]", "nfeatures=8", f"npoints={npts}", "nclusters=5",
             f"membership=int32[{npts}]:0..4", "clusters=float32[40]", f"block_clusters=float32[{nblk * 40}]",
             f"block_deltas=int32[{nblk}]", f"features_flipped=float32[{npts * 8}]"],
            defines=defs, grid=grid, constants={"c_clusters": _F13_CLUSTERS})

# ---- Parboil (NVRTC)
for m, n, k, grid in ((128, 48, 40, (1, 3, 1)), (256, 32, 24, (2, 2, 1))):
    fresh13(f"mysgemmNT.{m}x{n}x{k}", F13A, "mysgemmNT", (16, 8),
            [f"A=float32[{m * k}]", f"lda={m}", f"B=float32[{n * k}]", f"ldb={n}", f"C=float32[{m * n}]", f"ldc={m}",
             f"k={k}", "alpha=1.0", "beta=0.5"], grid=grid)
for bx, by, nx, ny, nz in ((32, 4, 128, 12, 8), (16, 8, 50, 20, 6)):
    fresh13(f"block2D_hybrid_coarsen_x.{bx}x{by}.{nx}x{ny}x{nz}", F13A, "block2D_hybrid_coarsen_x", (bx, by),
            ["c0=0.1666", "c1=0.0277", f"A0=float32[{nx * ny * nz}]", f"Anext=float32[{nx * ny * nz}]", f"nx={nx}",
             f"ny={ny}", f"nz={nz}"], grid=(-(-nx // (2 * bx)), -(-ny // by), 1), dyn=2 * bx * by * 4)
fresh13("histo_prescan_kernel.b256.n16384", F13A, "histo_prescan_kernel", (256,),
        ["input=uint32[16384]:0..4095", "size=16384", "minmax=uint32[2]:0..1023"], grid=(4, 1, 1))
fresh13("histo_prescan_kernel.b128.n9000", F13A, "histo_prescan_kernel", (128,),
        ["input=uint32[9000]:0..4095", "size=9000", "minmax=uint32[2]:0..1023"], defines={"PRESCAN_THREADS": 128},
        grid=(3, 1, 1))
for b, g, lo, hi, h, w in ((256, 4, 1, 1, 96, 128), (96, 5, 0, 1, 100, 128)):
    fresh13(f"histo_final_kernel.b{b}.r{lo}{hi}.{h}x{w}", F13A, "histo_final_kernel", (b,),
            [f"sm_range_min={lo}", f"sm_range_max={hi}", f"histo_height={h}", f"histo_width={w}",
             f"global_subhisto=uint32[{h * w}]:0..200", f"global_histo=uint32[{h * w // 2}]:0..33554431",
             f"global_overflow=uint32[{h * w}]:0..100", f"final_histo=uint32[{h * w // 4}]"], grid=(g, 1, 1))
fresh13("ComputePhiMag_GPU.k1000", F13A, "ComputePhiMag_GPU", (512,),
        ["phiR=float32[1024]", "phiI=float32[1024]", "phiMag=float32[1024]", "numK=1000"], grid=(2, 1, 1))
for numk, nx in ((75, 768), (40, 512)):
    fresh13(f"ComputeQ_GPU.k{numk}.x{nx}", F13A, "ComputeQ_GPU", (256,),
            [f"numK={numk}", "kGlobalIndex=0", f"x=float32[{nx}]", f"y=float32[{nx}]", f"z=float32[{nx}]",
             f"Qr=float32[{nx}]", f"Qi=float32[{nx}]"], grid=(nx // 256, 1, 1),
            constants={"ck": _F13_KVALUES[:4 * numk]})
for zr in (1, 0):
    fresh13(f"cuda_cutoff_potential_lattice.z{zr}", F13A, "cuda_cutoff_potential_lattice", (8, 2, 8),
            ["binDim_x=6", "binDim_y=6", f"binZeroAddr={npy('fresh13_cutcp_bins_6x6x6')}", "h=0.5", "cutoff2=4.0",
             "inv_cutoff2=0.25", "regionZeroAddr=float32[4096]:0..0", f"zRegionIndex={zr}"], grid=(2, 2, 1))
for b, n, g in ((128, 384, 3), (96, 300, 4)):
    fresh13(f"gen_hists.b{b}.n{n}", F13A, "gen_hists", (b,),
            [f"histograms=uint64[{g * 20}]", f"all_x_data={npy('fresh13_tpacf_x_384')}",
             f"all_y_data={npy('fresh13_tpacf_y_384')}", f"all_z_data={npy('fresh13_tpacf_z_384')}",
             f"binb={npy('fresh13_tpacf_binb_20')}", f"NUM_ELEMENTS={n}"],
            defines={"TPACF_BLOCK_SIZE": b} if b != 128 else None, grid=(g, 1, 1))
for sx, sy, sz in ((40, 3, 3), (64, 2, 4)):
    cells = sx * sy * (sz + 4) * 20
    fresh13(f"performStreamCollide_kernel.{sx}x{sy}x{sz}", F13A, "performStreamCollide_kernel", (sx,),
            [f"srcGrid={npy(f'fresh13_lbm_src_{sx}x{sy}x{sz}')}", f"dstGrid=float32[{cells}]"],
            defines={"SIZE_X": sx, "SIZE_Y": sy, "SIZE_Z": sz} if sx != 40 else None, grid=(sy, sz, 1))

# ---- PolyBench-GPU (nvcc)
fresh13("atax_kernel1.600x500", F13K, "atax_kernel1", (256,),
        ["A=float32[300000]", "x=float32[500]", "tmp=float32[600]"], grid=(3, 1, 1))
fresh13("atax_kernel2.600x500", F13K, "atax_kernel2", (256,),
        ["A=float32[300000]", "y=float32[500]", "tmp=float32[600]"], grid=(2, 1, 1))
fresh13("bicg_kernel1.400x520", F13K, "bicg_kernel1", (256,),
        ["A=float32[208000]", "r=float32[400]", "s=float32[520]"], grid=(3, 1, 1))
fresh13("bicg_kernel2.400x520", F13K, "bicg_kernel2", (256,),
        ["A=float32[208000]", "p=float32[520]", "q=float32[400]"], grid=(2, 1, 1))
fresh13("mvt_kernel1.n640", F13K, "mvt_kernel1", (256,),
        ["a=float32[409600]", "x1=float32[640]", "y_1=float32[640]"], grid=(3, 1, 1))
fresh13("mvt_kernel2.n640", F13K, "mvt_kernel2", (256,),
        ["a=float32[409600]", "x2=float32[640]", "y_2=float32[640]"], grid=(3, 1, 1))
fresh13("gesummv_kernel.n512", F13K, "gesummv_kernel", (256,),
        ["a=float32[262144]", "b=float32[262144]", "x=float32[512]", "y=float32[512]", "tmp=float32[512]"],
        grid=(2, 1, 1))
fresh13("gemm_kernel.24x96x80", F13K, "gemm_kernel", (32, 8),
        ["a=float32[1920]", "b=float32[7680]", "c=float32[2304]"], grid=(3, 3, 1))
fresh13("syr2k_kernel.n40.m30.32x10", F13K, "syr2k_kernel", (32, 10),
        ["a=float32[1200]", "b=float32[1200]", "c=float32[1600]"], grid=(2, 4, 1))
fresh13("mean_kernel.96x64", F13K, "mean_kernel", (256,), ["mean=float32[96]", "data=float32[6144]"])
fresh13("reduce_kernel.96x64", F13K, "reduce_kernel", (96, 8), ["mean=float32[96]", "data=float32[6144]"],
        grid=(1, 8, 1))
fresh13("covar_kernel.96x64", F13K, "covar_kernel", (256,), ["symmat=float32[9216]", "data=float32[6144]"])
fresh13("std_kernel.96x64", F13K, "std_kernel", (256,),
        ["mean=float32[96]", "std=float32[96]", "data=float32[6144]"])
fresh13("corr_reduce_kernel.96x64", F13K, "corr_reduce_kernel", (96, 8),
        ["mean=float32[96]", "std=float32[96]:0.5..1.5", "data=float32[6144]"], grid=(1, 8, 1))
fresh13("corr_kernel.96x64", F13K, "corr_kernel", (256,), ["symmat=float32[9216]", "data=float32[6144]"])
for kern, g in (("gramschmidt_kernel1", 1), ("gramschmidt_kernel2", 2), ("gramschmidt_kernel3", 1)):
    fresh13(f"{kern}.300x160.k5", F13K, kern, (256,),
            ["a=float32[48000]", "r=float32[25600]:0.5..1.5", "q=float32[48000]", "k=5"], grid=(g, 1, 1))
fresh13("fdtd_step1_kernel.20x90", F13K, "fdtd_step1_kernel", (32, 8),
        ["_fict_=float32[10]", "ex=float32[1820]", "ey=float32[1890]", "hz=float32[1800]", "t=4"], grid=(3, 3, 1))
for kern in ("fdtd_step2_kernel", "fdtd_step3_kernel"):
    fresh13(f"{kern}.20x90", F13K, kern, (32, 8),
            ["ex=float32[1820]", "ey=float32[1890]", "hz=float32[1800]", "t=4"], grid=(3, 3, 1))
for kern in ("runJacobiCUDA_kernel1", "runJacobiCUDA_kernel2"):
    fresh13(f"{kern}.n46.24x16", F13K, kern, (24, 16), ["n=46", "A=float32[2116]", "B=float32[2116]"], grid=(2, 3, 1))
fresh13("Convolution2D_kernel.24x90", F13K, "Convolution2D_kernel", (32, 8),
        ["A=float32[2160]", "B=float32[2160]"], grid=(3, 3, 1))
fresh13("convolution3D_kernel.8x24x70.i3", F13K, "convolution3D_kernel", (32, 8),
        ["A=float32[13440]", "B=float32[13440]", "i=3"], grid=(3, 3, 1))

# ---- SHOC (nvcc)
for t, dt, b, grid, strip, align, size in (("float", "float32", 64, (2, 3, 1), 8, 16, 26 * 144),
                                           ("double", "float64", 48, (3, 2, 1), 6, 8, 14 * 152)):
    fresh13(f"StencilKernel.{dt}.b{b}.s{strip}", F13K, f"StencilKernel<{t}>", (b,),
            [f"data={dt}[{size}]", f"newData={dt}[{size}]", f"alignment={align}", f"nStripItems={strip}",
             "wCenter=0.25", "wCardinal=0.15", "wDiagonal=0.05"], grid=grid,
            dyn=(strip + 2) * (b + 2) * (4 if t == "float" else 8))
for t, dt, n, g in (("float", "float32", 6144, 3), ("double", "float64", 4096, 4)):
    fresh13(f"reduce.{dt}.b256.n{n}", F13K, f"reduce<{t}, 256>", (256,),
            [f"g_idata={dt}[{n}]", f"g_odata={dt}[{g}]", f"n={n}"], grid=(g, 1, 1), dyn=256 * (4 if t == "float" else 8))
for b, n, g in ((128, 1000, 4), (256, 3000, 6)):
    fresh13(f"prescan.b{b}.n{n}", F13K, "prescan", (b,),
            [f"g_odata=float32[{n}]", f"g_idata=float32[{n}]", f"g_sums=float32[{g}]", f"n={n}"], grid=(g, 1, 1),
            dyn=4 * (2 * b + ((2 * b - 1) >> 5) + ((2 * b - 1) >> 10) + 1))
fresh13("compute_lj_force.float4.ldg.n384", F13K, "compute_lj_force<float, float4, float4, true>", (128,),
        ["force=float4[384]", f"position={npy('fresh13_md_pos_f32_384')}", "neighCount=16",
         f"neighList={npy('fresh13_md_neigh_384x16')}", "cutsq=2.0", "lj1=1.5", "lj2=2.0", "inum=384"], grid=(3, 1, 1))
fresh13("compute_lj_force.double4.n192", F13K, "compute_lj_force<double, double4, double4, false>", (64,),
        ["force=double4[192]", f"position={npy('fresh13_md_pos_f64_192')}", "neighCount=12",
         f"neighList={npy('fresh13_md_neigh_192x12')}", "cutsq=2.0", "lj1=1.5", "lj2=2.0", "inum=192"], grid=(3, 1, 1))
fresh13("triad.n640", F13K, "triad", (128,), ["A=float32[640]", "B=float32[640]", "C=float32[640]", "s=1.75"],
        grid=(5, 1, 1))
fresh13("sort_reduce.n5000.s4", F13K, "sort_reduce", (256,),
        [f"in={npy('fresh13_sort_keys_5000')}", "isums=uint32[64]", "n=5000", "shift=4"], grid=(4, 1, 1))
fresh13("top_scan.g4", F13K, "top_scan", (256,), ["isums=uint32[64]:0..300", "n=4"])
fresh13("bottom_scan.n5000.s4", F13K, "bottom_scan", (256,),
        ["out=uint32[5000]", f"in={npy('fresh13_sort_keys_5000')}", f"isums={npy('fresh13_sort_isums_5000_g4_s4')}",
         "n=5000", "shift=4"], grid=(4, 1, 1))

# ---- CUDA samples (nvcc)
for b, gx, dims, nv in ((64, 4, 2, 1000), (128, 2, 3, 700)):
    fresh13(f"sobolGPU_kernel.b{b}.g{gx}x{dims}", F13K, "sobolGPU_kernel", (b,),
            [f"n_vectors={nv}", f"n_dimensions={dims}", f"d_directions=uint32[{32 * dims}]:0..4294967295",
             f"d_output=float32[{nv * dims}]"], grid=(gx, dims, 1))
fresh13("quasirandomGeneratorKernel.128x3.n1500", F13K, "quasirandomGeneratorKernel", (128, 3),
        ["d_Output=float32[4500]", "seed=0", "N=1500"], grid=(4, 1, 1), constants={"c_Table": _F13_QRNG})
fresh13("inverseCNDKernel.n2000", F13K, "inverseCNDKernel", (128,),
        ["d_Output=float32[2000]", "d_Input=uint32[2000]:0..4294967295", "pathN=2000"], grid=(6, 1, 1))
fresh13("d_boxfilter_x_global.w100.h192.r5", F13K, "d_boxfilter_x_global", (64,),
        ["id=float32[19200]", "od=float32[19200]", "w=100", "h=192", "r=5"], grid=(3, 1, 1))
fresh13("d_boxfilter_y_global.w192.h80.r7", F13K, "d_boxfilter_y_global", (64,),
        ["id=float32[15360]", "od=float32[15360]", "w=192", "h=80", "r=7"], grid=(3, 1, 1))
fresh13("d_boxfilter_rgba_y.w160.h48.r4", F13K, "d_boxfilter_rgba_y", (32,),
        ["id=uint32[7680]:0..4294967295", "od=uint32[7680]", "w=160", "h=48", "r=4"], grid=(5, 1, 1))
fresh13("NLM2.20x20", F13K, "NLM2", (8, 8),
        ["dst=uchar4[400]", "src=uchar4[400]:0..255", "imageW=20", "imageH=20", "Noise=0.05", "lerpC=0.2"],
        grid=(3, 3, 1))
for by, dimx, dimy, dimz, grid in ((16, 64, 32, 6, (2, 2, 1)), (8, 96, 20, 4, (3, 3, 1))):
    n = (dimx + 8) * (dimy + 8) * (dimz + 8)
    fresh13(f"FiniteDifferencesKernel.32x{by}.{dimx}x{dimy}x{dimz}", F13K, "FiniteDifferencesKernel", (32, by),
            [f"output=float32[{n}]", f"input=float32[{n}]", f"dimx={dimx}", f"dimy={dimy}", f"dimz={dimz}"],
            grid=grid, constants={"stencil": _F13_FDTD})
fresh13("integrateBodies.float.p96.n384", F13K, "integrateBodies<float>", (96,),
        ["newPos=float4[384]", "oldPos=float4[384]:0.1..1.0", "vel=float4[384]:-0.1..0.1", "deviceOffset=0",
         "deviceNumBodies=384", "deltaTime=0.016", "damping=0.995", "numTiles=4"], grid=(4, 1, 1), dyn=96 * 16,
        constants={"softeningSquared": [0.01]})
fresh13("integrateBodies.double.p64.n192", F13K, "integrateBodies<double>", (64,),
        ["newPos=double4[192]", "oldPos=double4[192]:0.1..1.0", "vel=double4[192]:-0.1..0.1", "deviceOffset=0",
         "deviceNumBodies=192", "deltaTime=0.016", "damping=0.995", "numTiles=3"], grid=(3, 1, 1), dyn=64 * 32,
        constants={"softeningSquared_fp64": _f13_double_bits(0.01)})
for n, b, k in ((100, 128, 53), (48, 64, 31)):
    fresh13(f"bisectKernelStep.n{n}.k{k}", F13K, "bisectKernelStep", (b,),
            [f"g_d={npy(f'fresh13_bisect_d_{n}')}", f"g_s={npy(f'fresh13_bisect_s_{n}')}", f"n={n}",
             f"g_left={npy(f'fresh13_bisect_left_{n}')}", f"g_right={npy(f'fresh13_bisect_right_{n}')}",
             f"g_left_count={npy(f'fresh13_bisect_lcount_{n}')}", f"g_right_count={npy(f'fresh13_bisect_rcount_{n}')}",
             f"num_intervals={k}", "g_left_out=float32[256]", "g_right_out=float32[256]", "g_left_count_out=uint32[256]",
             "g_right_count_out=uint32[256]", "g_num_out=uint32[1]"])
fresh13("computeAngles_kernel.n700", F13K, "computeAngles_kernel", (128,),
        ["heightMap=float32[4096]:0..100", "width=64", "height=64", "originX=2.5", "originY=3.0", "originZ=60.0",
         "dirX=0.07", "dirY=0.05", "angles=float32[700]", "numAngles=700"], grid=(6, 1, 1))
fresh13("maxScanKernel.b128.n700", F13K, "maxScanKernel", (128,),
        ["angles=float32[700]", "scannedAngles=float32[700]", "blockMax=float32[6]", "numAngles=700"],
        grid=(6, 1, 1), dyn=1024)
fresh13("computeVisibilities_kernel.n700", F13K, "computeVisibilities_kernel", (256,),
        ["angles=float32[700]", "scannedAngles=float32[700]", "numAngles=700", "visibilities=uint8[700]:0..0"],
        grid=(3, 1, 1))


# ---- the fourteenth fresh held-out batch (kernels/fresh14_apps.cu, NVRTC): the deep-learning frameworks' own CUDA
# kernels from before the cuDNN-era libraries took over, as they still sit in public repositories. Caffe, over its
# CUDA_KERNEL_LOOP grid-stride macro (blocks of 512, 256 and 128, grids smaller than the work): im2col (3x3 pad 1,
# float; 5x5 stride 2 dilation 1, double; 3x3 dilation 2 on a 17x19 image), col2im (5x5 stride 2), max pooling with
# its mask (ceil mode, the last window clipped), average pooling's backward, LRN's scale fill (its three while
# loops down the channels), the softmax's channel max (a classifier: spatial 1, a thread strides over 10 channels)
# and channel sum (spatial 49), BNLL; darknet (BLOCK 512, cuda_gridsize's 2-D grid, one case BLOCK 256): max pooling
# (size 2 stride 1 pad 1, yolov3-tiny's, and stride 2), reorg (the forward that calls it with forward = 0), the
# shortcut with a downsampled add, upsample forward and its backward of atomicAdds, the region layer's softmax over
# groups through softmax_device (the int val truncation kept), fast_mean / fast_variance with __shared__
# local[threads] summed by thread 0; the old Torch THC/THCUNN: nearest upscale (half), the lookup table's backward
# over sorted 1-based ids (a warp a run of equal ids, grid (numel/4, stride/128), counts, a padding id), the softmax
# with a shared buffer of max and sum (a 3-D grid over (frame, H, W) with stride0 = H*W; half over 300 classes);
# MXNet / ONNX Runtime style: a depthwise 3x3 convolution over a shared tile with its halo and the filter (dynamic
# shared memory; 16x16 stride 1, 8x8 stride 2 on a ragged 15x15, double 32x4), batch norm's training forward
# (THCUNN's reduce: shuffles, a [32] shared transpose, then the apply; float over 64 threads, half over 256), apex's
# LayerNorm over the channel axis as ONNX Runtime carries it ((32, 4) blocks, rows over gridDim.y, Welford shuffles,
# ubuf/ibuf halving in dynamic shared memory; float n2 96, half n2 514), NCHW->NHWC through a 32x33 tile (float,
# half), the gather with int64 indices (Embedding: 12 tokens of 64; negative wrap), an argmax along the middle
# axis with (value, index) pairs in shared memory; written blind, before its first recording; grids of 1 to 9 blocks
F14A = f"{K}/fresh14_apps.cu"


def fresh14_apps(id, kernel, block, args, **kw):
    return case("fresh14." + id, F14A, kernel, block, args, **kw)


# ---- Caffe
for dt, st, C, H, W, k, p, s, d, blk, g in (("float32", "float", 3, 20, 20, 3, 1, 1, 1, 512, 3),
                                            ("float64", "double", 4, 23, 23, 5, 2, 2, 1, 512, 1),
                                            ("float32", "float", 2, 17, 19, 3, 2, 1, 2, 256, 2)):
    hc = (H + 2 * p - (d * (k - 1) + 1)) // s + 1
    wc = (W + 2 * p - (d * (k - 1) + 1)) // s + 1
    fresh14_apps(f"im2col_gpu_kernel.{st}.c{C}.{H}x{W}.k{k}s{s}d{d}", f"caffe::im2col_gpu_kernel<{st}>", (blk,),
                 [f"n={C * hc * wc}", f"data_im={dt}[{C * H * W}]", f"height={H}", f"width={W}", f"kernel_h={k}",
                  f"kernel_w={k}", f"pad_h={p}", f"pad_w={p}", f"stride_h={s}", f"stride_w={s}", f"dilation_h={d}",
                  f"dilation_w={d}", f"height_col={hc}", f"width_col={wc}", f"data_col={dt}[{C * k * k * hc * wc}]"],
                 grid=(g, 1, 1))
fresh14_apps("col2im_gpu_kernel.float.c4.23x23.k5s2", "caffe::col2im_gpu_kernel<float>", (512,),
             ["n=2116", "data_col=float32[14400]", "height=23", "width=23", "channels=4", "kernel_h=5", "kernel_w=5",
              "pad_h=2", "pad_w=2", "stride_h=2", "stride_w=2", "dilation_h=1", "dilation_w=1", "height_col=12",
              "width_col=12", "data_im=float32[2116]"], grid=(5, 1, 1))
fresh14_apps("MaxPoolForward.n2c3.14x14.k3s2", "caffe::MaxPoolForward<float>", (256,),
             ["nthreads=294", "bottom_data=float32[1176]", "num=2", "channels=3", "height=14", "width=14",
              "pooled_height=7", "pooled_width=7", "kernel_h=3", "kernel_w=3", "stride_h=2", "stride_w=2", "pad_h=0",
              "pad_w=0", "top_data=float32[294]", "mask=int32[294]", "top_mask=float32[294]"], grid=(2, 1, 1))
fresh14_apps("AvePoolBackward.n2c4.14x14.k3s2p1", "caffe::AvePoolBackward<float>", (512,),
             ["nthreads=1568", "top_diff=float32[512]", "num=2", "channels=4", "height=14", "width=14",
              "pooled_height=8", "pooled_width=8", "kernel_h=3", "kernel_w=3", "stride_h=2", "stride_w=2", "pad_h=1",
              "pad_w=1", "bottom_diff=float32[1568]"], grid=(4, 1, 1))
fresh14_apps("LRNFillScale.n2c16.7x7.s5", "caffe::LRNFillScale<float>", (128,),
             ["nthreads=98", "in=float32[1568]", "num=2", "channels=16", "height=7", "width=7", "size=5",
              "alpha_over_size=0.00002", "k=1.0", "scale=float32[1568]"])
fresh14_apps("kernel_channel_max.n300c10.s1", "caffe::kernel_channel_max<float>", (512,),
             ["num=300", "channels=10", "spatial_dim=1", "data=float32[3000]", "out=float32[300]"])
fresh14_apps("kernel_channel_sum.n4c21.s49", "caffe::kernel_channel_sum<float>", (128,),
             ["num=4", "channels=21", "spatial_dim=49", "data=float32[4116]", "channel_sum=float32[196]"],
             grid=(2, 1, 1))
fresh14_apps("BNLLForward.n3000", "caffe::BNLLForward<float>", (512,),
             ["n=3000", "in=float32[3000]:-5..5", "out=float32[3000]"], grid=(3, 1, 1))

# ---- darknet
fresh14_apps("forward_maxpool_layer_kernel.13x13x16.s2t1p1", "forward_maxpool_layer_kernel", (512,),
             ["n=2704", "in_h=13", "in_w=13", "in_c=16", "stride=1", "size=2", "pad=1", "input=float32[2704]",
              "output=float32[2704]", "indexes=int32[2704]"], grid=(3, 2, 1))
fresh14_apps("forward_maxpool_layer_kernel.26x26x8.s2t2p1", "forward_maxpool_layer_kernel", (512,),
             ["n=1352", "in_h=26", "in_w=26", "in_c=8", "stride=2", "size=2", "pad=1", "input=float32[5408]",
              "output=float32[1352]", "indexes=int32[1352]"], grid=(3, 1, 1))
fresh14_apps("reorg_kernel.8x8x32.s2.f0", "reorg_kernel", (512,),
             ["N=2048", "x=float32[2048]", "w=8", "h=8", "c=32", "batch=1", "stride=2", "forward=0",
              "out=float32[2048]"], grid=(2, 2, 1))
fresh14_apps("shortcut_kernel.18x18x16.to9x9x32", "shortcut_kernel", (512,),
             ["size=1296", "minw=9", "minh=9", "minc=16", "stride=2", "sample=1", "batch=1", "w1=18", "h1=18",
              "c1=16", "add=float32[5184]", "w2=9", "h2=9", "c2=32", "s1=1.0", "s2=1.0", "out=float32[2592]"],
             grid=(3, 1, 1))
fresh14_apps("upsample_kernel.7x7x16.s2.fwd", "upsample_kernel", (512,),
             ["N=3136", "x=float32[784]", "w=7", "h=7", "c=16", "batch=1", "stride=2", "forward=1", "scale=1.0",
              "out=float32[3136]"], grid=(7, 1, 1))
fresh14_apps("upsample_kernel.5x5x12.s2.bwd", "upsample_kernel", (512,),
             ["N=1200", "x=float32[300]", "w=5", "h=5", "c=12", "batch=1", "stride=2", "forward=0", "scale=1.0",
              "out=float32[1200]"], grid=(3, 1, 1))
fresh14_apps("softmax_kernel.region13x13.a5.c20", "softmax_kernel", (512,),
             ["input=float32[21125]:-4..4", "n=20", "batch=5", "batch_offset=4225", "groups=169", "group_offset=1",
              "stride=169", "temp=1.0", "output=float32[21125]"], grid=(2, 1, 1))
fresh14_apps("fast_mean_kernel.b2.f6.s169", "fast_mean_kernel", (512,),
             ["x=float32[2028]", "batch=2", "filters=6", "spatial=169", "mean=float32[6]"], grid=(6, 1, 1))
fresh14_apps("fast_mean_kernel.B256.b1.f8.s676", "fast_mean_kernel", (256,),
             ["x=float32[5408]", "batch=1", "filters=8", "spatial=676", "mean=float32[8]"],
             defines={"BLOCK": 256}, grid=(8, 1, 1))
fresh14_apps("fast_variance_kernel.b2.f6.s169", "fast_variance_kernel", (512,),
             ["x=float32[2028]", "mean=float32[6]:-0.1..0.1", "batch=2", "filters=6", "spatial=169",
              "variance=float32[6]"], grid=(6, 1, 1))

# ---- Torch THC / THCUNN
fresh14_apps("upscale.half.c4.6x6.x2", "upscale<__half>", (256,),
             ["input=float16[144]", "output=float16[576]", "no_elements=576", "scale_factor=2", "d1=4", "d2=12",
              "d3=12"], grid=(3, 1, 1))
for numel, vocab, stride in ((32, 40, 100), (16, 12, 200)):
    fresh14_apps(f"cunn_LookupTable_accGradParametersKernel.n{numel}.v{vocab}.d{stride}",
                 "cunn_LookupTable_accGradParametersKernel<float, float>", (32, 4),
                 [f"input={npy(f'fresh14_apps_lut_input_{numel}_of_{vocab}')}",
                  f"indices={npy(f'fresh14_apps_lut_indices_{numel}')}", f"gradOutput=float32[{numel * stride}]",
                  f"gradWeight=float32[{vocab * stride}]", f"count={npy(f'fresh14_apps_lut_count_{numel}_of_{vocab}')}",
                  "defaultScale=1.0", f"numel={numel}", f"stride={stride}", "paddingValue=3"],
                 grid=(-(-numel // 4), -(-stride // 128), 1))
fresh14_apps("cunn_SoftMax_updateOutput_kernel.float.c21.3x3", "cunn_SoftMax_updateOutput_kernel<float, float>",
             (128,), ["output=float32[189]", "input=float32[189]:-3..3", "nframe=1", "dim=21", "stride0=9",
                      "stride1=3"], grid=(1, 3, 3))
fresh14_apps("cunn_SoftMax_updateOutput_kernel.half.f4.d300", "cunn_SoftMax_updateOutput_kernel<__half, float>",
             (128,), ["output=float16[1200]", "input=float16[1200]:-3..3", "nframe=4", "dim=300", "stride0=1",
                      "stride1=1"], grid=(4, 1, 1))

# ---- MXNet / ONNX Runtime style
for st, dt, C, H, W, s, blk in (("float", "float32", 2, 20, 20, 1, (16, 16)), ("float", "float32", 6, 15, 15, 2, (8, 8)),
                                ("double", "float64", 1, 10, 40, 1, (32, 4))):
    oh, ow = (H + 2 - 3) // s + 1, (W + 2 - 3) // s + 1
    tile = (blk[0] * s + 2) * (blk[1] * s + 2)
    fresh14_apps(f"DepthwiseConv2dForwardSmemKernel.{st}.c{C}.{H}x{W}.s{s}.{blk[0]}x{blk[1]}",
                 f"mxnet_op::DepthwiseConv2dForwardSmemKernel<{st}, 3, 3>", blk,
                 [f"input={dt}[{C * H * W}]", f"filter={dt}[{C * 9}]", f"output={dt}[{C * oh * ow}]", f"channels={C}",
                  f"in_height={H}", f"in_width={W}", f"out_height={oh}", f"out_width={ow}", f"stride={s}", "pad=1"],
                 dyn=(9 + tile) * (8 if st == "double" else 4),
                 grid=(-(-ow // blk[0]), -(-oh // blk[1]), C))
for st, dt, N, C, S, t in (("float", "float32", 4, 6, 49, 64), ("__half", "float16", 2, 8, 200, 256)):
    fresh14_apps(f"BatchNormalizationUpdateOutputKernel.{dt}.n{N}c{C}s{S}",
                 f"mxnet_op::BatchNormalizationUpdateOutputKernel<{st}, float>", (t,),
                 [f"input_={dt}[{N * C * S}]", f"output_={dt}[{N * C * S}]", f"weight={dt}[{C}]:0.5..1.5",
                  f"bias={dt}[{C}]", "epsilon=0.00001", "momentum=0.1", f"runningMean=float32[{C}]",
                  f"runningVar=float32[{C}]:0.5..1.5", f"saveMean=float32[{C}]", f"saveInvStd=float32[{C}]",
                  f"num={N}", f"channels={C}", f"spatial={S}"], grid=(C, 1, 1))
for st, dt, n1, n2 in (("float", "float32", 10, 96), ("__half", "float16", 6, 514)):
    fresh14_apps(f"cuApplyLayerNorm.{dt}.{n1}x{n2}", f"onnxruntime::cuda::cuApplyLayerNorm<{st}, float>", (32, 4),
                 [f"output_vals={dt}[{n1 * n2}]", f"mean=float32[{n1}]", f"invvar=float32[{n1}]",
                  f"vals={dt}[{n1 * n2}]", f"n1={n1}", f"n2={n2}", "epsilon=0.00001", f"gamma={dt}[{n2}]:0.5..1.5",
                  f"beta={dt}[{n2}]"], dyn=4 * 4 + 2 * 4, grid=(1, 6, 1))
for st, dt, N, C, HW in (("float", "float32", 2, 40, 49), ("__half", "float16", 1, 64, 100)):
    fresh14_apps(f"TransposeNCHWToNHWC.{dt}.n{N}c{C}hw{HW}", f"onnxruntime::cuda::TransposeNCHWToNHWC<{st}>", (32, 8),
                 [f"input={dt}[{N * C * HW}]", f"output={dt}[{N * C * HW}]", f"C={C}", f"HW={HW}"],
                 grid=(-(-HW // 32), -(-C // 32), N))
fresh14_apps("_GatherKernel.float.emb12of50.d64", "onnxruntime::cuda::_GatherKernel<float, int64_t>", (256,),
             ["input_block_size=3200", "indices_max=50", "output_block_size_=768", "block_size_=64",
              f"indices_data={npy('fresh14_apps_gather_idx_12_of_50')}", "input_data=float32[3200]",
              "output_data=float32[768]", "N=768"], grid=(3, 1, 1))
fresh14_apps("_GatherKernel.half.axis1.4x30x10.i7", "onnxruntime::cuda::_GatherKernel<__half, int64_t>", (128,),
             ["input_block_size=300", "indices_max=30", "output_block_size_=70", "block_size_=10",
              f"indices_data={npy('fresh14_apps_gather_idx_7_of_30')}", "input_data=float16[1200]",
              "output_data=float16[280]", "N=280"], grid=(3, 1, 1))
fresh14_apps("ArgMaxAxisKernel.float.3x50x40.y8", "onnxruntime::cuda::ArgMaxAxisKernel<float, 8>", (32, 8),
             ["in=float32[6000]", "out=int64[120]", "outer=3", "axis=50", "inner=40"], grid=(2, 3, 1))
fresh14_apps("ArgMaxAxisKernel.double.2x30x70.y4", "onnxruntime::cuda::ArgMaxAxisKernel<double, 4>", (32, 4),
             ["in=float64[4200]", "out=int64[140]", "outer=2", "axis=30", "inner=70"], grid=(3, 2, 1))

# ---- the fourteenth fresh held-out batch, classic algorithms (kernels/fresh14_algos.cu, NVRTC): GPU algorithms as
# their GitHub repositories write them. AES-128 with OpenSSL's four T-tables copied into shared memory (a uint4
# block a thread, 256 and 128 threads, ragged counts; and one [4][256] table with the block read as four words in
# a grid-stride loop): the table lookups' banks depend on the data; SHA-256 with K and H0 in __constant__, the
# message schedule in a local array (a SHA256_CTX struct, a device function) or in a shared row of 64 (+0, +1)
# words a thread; Smith-Waterman over anti-diagonals (three rotating shared rows of H, the target in dynamic
# shared memory, 64 and 128 threads, a tree max); CSR SpMV with a warp a row (__ldg, shuffle reduction) and cusp's
# vector kernel (shared row pointers, 4x32 and 16x8, rows longer than a warp); ELL SpMV column-major (float and
# double, padding -1); a PageRank pull step; Bellman-Ford relaxation with atomicMin (int and long long distances);
# triangle counting by merge intersection (warp shuffles, a shared warp table, a 64-bit atomicAdd); a radix-2
# Stockham FFT (float2 ping-pong, N 512 and 128); Gauss-Jordan (the pivot row normalised; elimination with the
# pivot row and the row factors in shared memory, double 16x16 and float 32x32); an integral image (Blelloch row
# scan of uchar into uint, 256 and 128 threads, then a column pass, global only); stream compaction (__ballot_sync,
# __popc, a shared warp-offset table scanned with __shfl_up_sync); merge path (partition; the block merge through
# shared memory, 64x4 and 128x3); Garcia's k-NN distance tiles (16x16, shared scalars written by every thread,
# pitched arrays); Mandelbrot (32x8) and Julia frames (a 16x4x4 block), uchar4 and global only; van Herk
# running maxima along rows (float K 7, uchar K 15 with two rows a block, dynamic shared memory). Written blind,
# before its first recording; grids of 1 to 9 blocks
F14G = f"{K}/fresh14_algos.cu"


def fresh14_algos(id, kernel, block, args, **kw):
    return case("fresh14." + id, F14G, kernel, block, args, **kw)


def _f14_u32_bits(words) -> list[float]:
    """uint32 words as the float32 values with their bits (the recorder writes __constant__ values as float32)."""
    return [float(x) for x in np.array(words, np.uint32).view(np.float32)]


_F14_SHA_K = _f14_u32_bits([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2])
_F14_SHA_H0 = _f14_u32_bits([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
_F14_SHA = {"dev_k": _F14_SHA_K, "dev_h0": _F14_SHA_H0}
_F14_U32 = "0..4294967295"
_F14_AES = [f"d_Te={npy('fresh14_algos_aes_te')}", f"d_rk={npy('fresh14_algos_aes_rk')}"]

# AES-128, SHA-256
for b, n in ((256, 600), (128, 300)):
    fresh14_algos(f"aes128_encrypt_ttable.b{b}.n{n}", "aes128_encrypt_ttable", (b,),
                  [f"pt=uint32[{4 * n}]:{_F14_U32}", f"ct=uint32[{4 * n}]"] + _F14_AES + [f"nblocks={n}"],
                  grid=(-(-n // b), 1, 1))
fresh14_algos("aes_encrypt_ecb_smem.b128.n700", "aes_encrypt_ecb_smem<128>", (128,),
              [f"in=uint32[2800]:{_F14_U32}", "out=uint32[2800]", f"te_global={npy('fresh14_algos_aes_te')}",
               f"rk={npy('fresh14_algos_aes_rk')}", "nblocks=700"], grid=(3, 1, 1))
fresh14_algos("sha256_cuda.b128.n200", "sha256_cuda", (128,),
              [f"msgs=uint32[3200]:{_F14_U32}", "digests=uint32[1600]", "n=200"], grid=(2, 1, 1), constants=_F14_SHA)
for pad, n in ((0, 100), (1, 128)):
    fresh14_algos(f"sha256_schedule_smem.p{pad}.n{n}", f"sha256_schedule_smem<64, {pad}>", (64,),
                  [f"msgs=uint32[{16 * n}]:{_F14_U32}", f"digests=uint32[{8 * n}]", f"n={n}"], grid=(2, 1, 1),
                  constants=_F14_SHA)

# Smith-Waterman
for q, m, n, pairs in ((64, 64, 100, 4), (128, 100, 77, 3)):
    fresh14_algos(f"sw_antidiagonal.q{q}.{m}x{n}", f"sw_antidiagonal<{q}>", (q,),
                  [f"query=uint8[{pairs * m}]:0..3", f"target=uint8[{pairs * n}]:0..3", f"m={m}", f"n={n}",
                   f"scores=int32[{pairs}]"], grid=(pairs, 1, 1), dyn=-(-n // 16) * 16)

# sparse matrix-vector products
fresh14_algos("spmv_csr_warp_per_row.r30", "spmv_csr_warp_per_row", (128,),
              ["num_rows=30", f"row_ptr={npy('fresh14_algos_csr_r30_ptr')}",
               f"col_idx={npy('fresh14_algos_csr_r30_col')}", f"vals={npy('fresh14_algos_csr_r30_val')}",
               "x=float32[200]", "y=float32[30]"], grid=(8, 1, 1))
for v, t, tag, rows, cols, g in ((4, 32, "r37", 37, 300, 5), (16, 8, "r64", 64, 150, 4)):
    fresh14_algos(f"spmv_csr_vector_cusp.{v}x{t}.{tag}", f"spmv_csr_vector_cusp<{v}, {t}>", (v * t,),
                  [f"num_rows={rows}", f"Ap={npy(f'fresh14_algos_csr_{tag}_ptr')}",
                   f"Aj={npy(f'fresh14_algos_csr_{tag}_col')}", f"Ax={npy(f'fresh14_algos_csr_{tag}_val')}",
                   f"x=float32[{cols}]", f"y=float32[{rows}]"], grid=(g, 1, 1))
for tag, ty, rows, pitch, width, cols, b in (("f500", "float", 500, 512, 7, 400, 128),
                                             ("d200", "double", 200, 224, 12, 250, 64)):
    dt = "float32" if ty == "float" else "float64"
    fresh14_algos(f"spmv_ell_colmajor.{tag}", f"spmv_ell_colmajor<{ty}>", (b,),
                  [f"num_rows={rows}", f"num_cols_per_row={width}", f"pitch={pitch}",
                   f"Aj={npy(f'fresh14_algos_ell_{tag}_aj')}", f"Ax={npy(f'fresh14_algos_ell_{tag}_ax')}",
                   f"x={dt}[{cols}]", f"y={dt}[{rows}]"], grid=(4, 1, 1))

# graphs
fresh14_algos("pagerank_pull.v1000", "pagerank_pull", (128,),
              ["num_vertices=1000", f"in_row_offsets={npy('fresh14_algos_pr_ptr')}",
               f"in_col_indices={npy('fresh14_algos_pr_col')}", "rank=float32[1000]:0.0001..0.002",
               f"out_degree={npy('fresh14_algos_pr_outdeg')}", "new_rank=float32[1000]", "damping=0.85"],
              grid=(8, 1, 1))
for tag, ty, E, b, g in (("i4000", "int", 2000, 256, 8), ("l2400", "long long", 1100, 128, 9)):
    fresh14_algos(f"bellman_ford_relax.{tag}.e{E}", f"bellman_ford_relax<{ty}>", (b,),
                  [f"num_edges={E}", f"src={npy(f'fresh14_algos_bf_{tag}_src')}",
                   f"dst={npy(f'fresh14_algos_bf_{tag}_dst')}", f"weight={npy(f'fresh14_algos_bf_{tag}_w')}",
                   f"dist={npy(f'fresh14_algos_bf_{tag}_dist')}", "changed=int32[1]:0..0"], grid=(g, 1, 1))
fresh14_algos("triangle_count_edge_merge.v200.e1000", "triangle_count_edge_merge", (128,),
              ["num_edges=1000", f"edge_src={npy('fresh14_algos_tri_src')}", f"edge_dst={npy('fresh14_algos_tri_dst')}",
               f"row_ptr={npy('fresh14_algos_tri_ptr')}", f"col_idx={npy('fresh14_algos_tri_col')}",
               "per_edge=int32[1000]", "total=uint64[1]:0..0"], grid=(8, 1, 1))

# FFT, Gauss-Jordan, integral image
for n, g in ((512, 2), (128, 3)):
    fresh14_algos(f"fft_stockham_radix2.n{n}.b{g}", f"fft_stockham_radix2<{n}>", (n // 2,),
                  [f"in=float2[{n * g}]", f"out=float2[{n * g}]", "dir=-1.0"], grid=(g, 1, 1))
fresh14_algos("gj_normalize_pivot_row.n24.k5", "gj_normalize_pivot_row<double>", (64,),
              [f"A={npy('fresh14_algos_gj_24')}", "n=24", "k=5"])
fresh14_algos("gj_eliminate.d16.n24.k5", "gj_eliminate<double, 16>", (16, 16),
              [f"A={npy('fresh14_algos_gj_24')}", "n=24", "k=5"], grid=(3, 2, 1))
fresh14_algos("gj_eliminate.f32.n40.k17", "gj_eliminate<float, 32>", (32, 32),
              [f"A={npy('fresh14_algos_gj_40')}", "n=40", "k=17"], grid=(3, 2, 1))
for b, w, h in ((256, 300, 5), (128, 200, 7)):
    fresh14_algos(f"integral_scan_rows.b{b}.{w}x{h}", f"integral_scan_rows<{b}>", (b,),
                  [f"img=uint8[{w * h}]:0..255", f"sum=uint32[{w * h}]", f"width={w}", f"height={h}"], grid=(h, 1, 1))
fresh14_algos("integral_scan_cols.300x40", "integral_scan_cols", (128,),
              ["sum=uint32[12000]:0..255", "width=300", "height=40"], grid=(3, 1, 1))

# stream compaction, merge path
fresh14_algos("compact_count.b128.n1000", "compact_count<128>", (128,),
              [f"in={npy('fresh14_algos_compact_in_2000')}", "n=1000", "threshold=0.2", "block_counts=int32[8]"],
              grid=(8, 1, 1))
fresh14_algos("compact_scatter.b256.n2000", "compact_scatter<256>", (256,),
              [f"in={npy('fresh14_algos_compact_in_2000')}", "n=2000", "threshold=0.2",
               f"block_offsets={npy('fresh14_algos_compact_offsets_b256')}", "out=float32[2000]",
               "out_idx=int32[2000]"], grid=(8, 1, 1))
_F14_MERGE = [f"a={npy('fresh14_algos_merge_a600')}", "aCount=600", f"b={npy('fresh14_algos_merge_b400')}",
              "bCount=400"]
fresh14_algos("merge_partition_kernel.nv256", "merge_partition_kernel", (64,),
              _F14_MERGE + ["nv=256", "partitions=int32[5]", "numPartitions=5"])
for nt, vt in ((64, 4), (128, 3)):
    nv = nt * vt
    fresh14_algos(f"merge_block_kernel.{nt}x{vt}.n1000", f"merge_block_kernel<{nt}, {vt}>", (nt,),
                  [f"a_global={npy('fresh14_algos_merge_a600')}", "aCount=600",
                   f"b_global={npy('fresh14_algos_merge_b400')}", "bCount=400",
                   f"partitions={npy(f'fresh14_algos_merge_parts_nv{nv}')}", "dest=int32[1000]"],
                  grid=(-(-1000 // nv), 1, 1))

# k-NN distances, fractals, van Herk
for rw, rp, qw, qp, hgt in ((40, 48, 30, 32, 20), (33, 64, 47, 64, 64)):
    fresh14_algos(f"knn_compute_distances.r{rw}.q{qw}.d{hgt}", "knn_compute_distances", (16, 16),
                  [f"ref=float32[{rp * hgt}]", f"ref_width={rw}", f"ref_pitch={rp}", f"query=float32[{qp * hgt}]",
                   f"query_width={qw}", f"query_pitch={qp}", f"height={hgt}", f"dist=float32[{rw * qp}]"],
                  grid=(-(-qw // 16), -(-rw // 16), 1))
fresh14_algos("mandelbrot_kernel.32x8.90x20", "mandelbrot_kernel", (32, 8),
              ["out=uchar4[1800]", "width=90", "height=20", "x0=-2.2", "y0=-1.2", "dx=0.034", "dy=0.12",
               "max_iter=64"], grid=(3, 3, 1))
fresh14_algos("julia_frames.16x4x4.32x8x6", "julia_frames", (16, 4, 4),
              ["out=uchar4[1536]", "width=32", "height=8", "frames=6", "radius=0.7885", "phase0=0.3", "dphase=0.5",
               "scale=1.5", "max_iter=48"], grid=(2, 2, 2))
fresh14_algos("vanherk_max_rows.f7.500x3", "vanherk_max_rows<float, 7>", (128,),
              ["src=float32[1500]", "dst=float32[1482]", "width=500", "height=3"], grid=(3, 1, 1), dyn=2 * 504 * 4)
fresh14_algos("vanherk_max_rows.u15.640x4", "vanherk_max_rows<uchar, 15>", (64, 2),
              ["src=uint8[2560]:0..255", "dst=uint8[2504]", "width=640", "height=4"], grid=(2, 1, 1),
              dyn=2 * 2 * 645)

# ---- the fourteenth fresh held-out batch, LLM inference kernels (kernels/fresh14_kernels.cu, nvcc): the serving
# projects' kernels as they are written today, cuda_fp16 / cuda_bf16 and CUB included. ggml-cuda / llama.cpp:
# rms_norm_f32 (a warp, and 1024 threads with the __shared__ s_sum[32] hop and a fused multiply; row / channel /
# sample strides, a 3-D grid), soft_max_f32 with the row in dynamic shared memory (a templated 256-column row, and a
# ragged run-time row with a half mask and ALiBi slopes), quantize_q8_1 (block_q8_1 with its union'd half2 ds, a
# padded row), the generic dequantize_block over dequantize_q4_0 to half, mul_mat_vec_q over q4_0 x q8_1 with
# __dp4a (one and two columns, the partial sums of warps 1..3 through a 4-D __shared__ array), rope_neox with YaRN
# (a (1, 64, 1) block a row, the unrotated tail copied), k_get_rows_float (half rows to float by int32 ids),
# cpy_f32_f16 over byte strides (a transposed source: strided; a contiguous one), k_argsort_f32_i32's bitonic sort
# in dynamic shared memory (64 and 128 padded columns); vLLM csrc: rms_norm_kernel (cub::BlockReduce<float, 1024>
# over fewer threads, a strided input; half and float), the vectorised fused_add_rms_norm_kernel (_f16Vec<half, 8>),
# act_and_mul_kernel with silu (half) and gelu (bf16) through __ldg, rotary_embedding_kernel (NeoX on float, GPT-J
# on bf16 with a partial rotary dim), reshape_and_cache_flash_kernel (bf16, int64 slot mapping with padding),
# MoE gating's moeSoftmax and moeTopK (cub::KeyValuePair arg-max), moe_align_block_size with shared counts by
# atomics, a shared cumsum and a shared scatter cursor; FasterTransformer / TensorRT-LLM: addBiasResidualPost-
# LayerNormHalf2 (half2 with a local array, blockReduceSum over warps), the masked attention softmax (a 3-D grid
# looping over queries, warp and block paths), add_fusedQKV_bias_transpose_kernel (half, a padding offset), and the
# decoder's masked_attention_kernel (one query token over a [step][batch][head][Dh] K/V cache, q and the logits in
# dynamic shared memory). Written blind, before its first recording; grids of 1 to 9 blocks
F14K = f"{K}/fresh14_kernels.cu"


def fresh14_nvcc(id, kernel, block, args, **kw):
    c = case("fresh14." + id, F14K, kernel, block, args, **kw)
    c["compiler"] = "nvcc"
    return c


_F14_Q4 = npy("fresh7_q4_0_blocks_2048")
# ---- ggml-cuda
fresh14_nvcc("rms_norm_f32.b32.r3x2.c700", "rms_norm_f32<32, false>", (32,),
             ["x=float32[4200]:-2..2", "dst=float32[4200]", "ncols=700", "stride_row=700", "stride_channel=2100",
              "stride_sample=4200", "eps=1e-6", "mul=float32[700]"], grid=(3, 2, 1))
fresh14_nvcc("rms_norm_f32.mul.b1024.r2.c3000", "rms_norm_f32<1024, true>", (1024,),
             ["x=float32[6400]:-2..2", "dst=float32[6000]", "ncols=3000", "stride_row=3200", "stride_channel=6400",
              "stride_sample=6400", "eps=1e-5", "mul=float32[3000]:0.5..1.5"], grid=(2, 1, 1))
fresh14_nvcc("soft_max_f32.c256.b128.r6", "soft_max_f32<true, 256, 128, half>", (128,),
             ["x=float32[1536]:-6..6", "mask=float16[768]:-1..0", "dst=float32[1536]", "ncols_par=256", "nrows_y=3",
              "scale=0.125", "max_bias=0.0", "m0=1.0", "m1=1.0", "n_head_log2=1"], grid=(6, 1, 1), dyn=4 * (32 + 256))
fresh14_nvcc("soft_max_f32.alibi.c333.b96.r8", "soft_max_f32<true, 0, 0, half>", (96,),
             ["x=float32[2664]:-6..6", "mask=float16[666]:-1..0", "dst=float32[2664]", "ncols_par=333", "nrows_y=2",
              "scale=0.0883883", "max_bias=8.0", "m0=0.0625", "m1=0.25", "n_head_log2=4"], grid=(8, 1, 1),
             dyn=4 * (32 + 333))
fresh14_nvcc("quantize_q8_1.k1000.p1024.r2", "quantize_q8_1", (256,),
             ["x=float32[2000]:-3..3", "vy=uint8[2304]", "kx=1000", "kx0_padded=1024"], grid=(4, 2, 1))
for nb, g in ((100, 7), (64, 4)):
    fresh14_nvcc(f"dequantize_block.q4_0.half.nb{nb}", "dequantize_block<QK4_0, QR4_0, dequantize_q4_0, half>", (256,),
                 [f"vx={_F14_Q4}", f"y=float16[{nb * 32}]", f"k={nb * 32}"], grid=(g, 1, 1))
fresh14_nvcc("mul_mat_vec_q.q4_0.y1.c1024.r8", "mul_mat_vec_q<1>", (32, 4),
             [f"vx={_F14_Q4}", f"vy={npy('fresh14_q8_1_1024')}", "dst=float32[8]", "ncols_x=1024", "nrows_x=8",
              "nrows_y=1024", "nrows_dst=8"], grid=(8, 1, 1))
fresh14_nvcc("mul_mat_vec_q.q4_0.y2.c512.r14", "mul_mat_vec_q<2>", (32, 4),
             [f"vx={_F14_Q4}", f"vy={npy('fresh14_q8_1_2x512')}", "dst=float32[28]", "ncols_x=512", "nrows_x=14",
              "nrows_y=512", "nrows_dst=14"], grid=(7, 1, 1))
fresh14_nvcc("rope_neox.ff.d128.nd96.h3.t3", "rope_neox<true, true, float>", (1, 64, 1),
             ["x=float32[1152]:-2..2", "dst=float32[1152]", "ne0=128", "ne1=3", "s1=128", "s2=384", "n_dims=96",
              f"pos={npy('fresh14_rope_pos_3')}", "freq_scale=0.25", "ext_factor=1.0", "attn_factor=1.0",
              "corr_dim0=12.0", "corr_dim1=40.0", "theta_scale=0.8246", "freq_factors=float32[48]:1..4"],
             grid=(9, 1, 1))
fresh14_nvcc("k_get_rows_float.half.c300.i4", "k_get_rows_float<half, float>", (256,),
             ["src0=float16[15000]", f"src1={npy('fresh14_get_rows_ids_4_of_50')}", "dst=float32[1200]", "ne00=300",
              "ne12=1", "s1=300", "s2=1200", "s3=1200", "nb01=600", "nb02=30000", "nb03=30000", "s10=1", "s11=4",
              "s12=4"], grid=(2, 4, 1))
fresh14_nvcc("k_get_rows_float.float.c64.i3x2", "k_get_rows_float<float, float>", (64,),
             ["src0=float32[5120]", f"src1={npy('fresh14_get_rows_ids_2x3_of_40')}", "dst=float32[384]", "ne00=64",
              "ne12=1", "s1=64", "s2=192", "s3=384", "nb01=256", "nb02=10240", "nb03=20480", "s10=1", "s11=3",
              "s12=6"], grid=(1, 3, 2))
fresh14_nvcc("cpy_f32_f16.transposed.17x16x2", "cpy_f32_f16<cpy_1_f32_f16>", (64,),
             ["cx=float32[544]", "cdst=float16[544]", "ne=544", "ne00=17", "ne01=16", "ne02=2", "nb00=64", "nb01=4",
              "nb02=1088", "nb03=2176", "ne10=17", "ne11=16", "ne12=2", "nb10=2", "nb11=34", "nb12=544",
              "nb13=1088"], grid=(9, 1, 1))
fresh14_nvcc("cpy_f32_f16.contiguous.1000", "cpy_f32_f16<cpy_1_f32_f16>", (128,),
             ["cx=float32[1000]", "cdst=float16[1000]", "ne=1000", "ne00=1000", "ne01=1", "ne02=1", "nb00=4",
              "nb01=4000", "nb02=4000", "nb03=4000", "ne10=1000", "ne11=1", "ne12=1", "nb10=2", "nb11=2000",
              "nb12=2000", "nb13=2000"], grid=(8, 1, 1))
for order, cols, pad, rows in (("GGML_SORT_ORDER_ASC", 40, 64, 3), ("GGML_SORT_ORDER_DESC", 100, 128, 2)):
    fresh14_nvcc(f"k_argsort_f32_i32.{order[16:].lower()}.c{cols}.r{rows}", f"k_argsort_f32_i32<{order}>", (pad,),
                 [f"x=float32[{rows * cols}]:-10..10", f"dst=int32[{rows * cols}]", f"ncols={cols}", f"ncols_pad={pad}"],
                 grid=(1, rows, 1), dyn=4 * pad)
# ---- vLLM csrc
fresh14_nvcc("rms_norm_kernel.half.t3.h640.s1920", "vllm::rms_norm_kernel<half>", (640,),
             ["out=float16[1920]", "input=float16[5760]", "input_stride=1920", "weight=float16[640]:0.5..1.5",
              "epsilon=1e-6", "num_tokens=3", "hidden_size=640"], grid=(3, 1, 1))
fresh14_nvcc("rms_norm_kernel.float.t2.h2500", "vllm::rms_norm_kernel<float>", (1024,),
             ["out=float32[5000]", "input=float32[5000]", "input_stride=2500", "weight=float32[2500]:0.5..1.5",
              "epsilon=1e-5", "num_tokens=2", "hidden_size=2500"], grid=(2, 1, 1))
fresh14_nvcc("fused_add_rms_norm_kernel.half8.t4.h1024", "vllm::fused_add_rms_norm_kernel<half, 8>", (128,),
             ["input=float16[4096]", "input_stride=1024", "residual=float16[4096]", "weight=float16[1024]:0.5..1.5",
              "epsilon=1e-6", "num_tokens=4", "hidden_size=1024"], grid=(4, 1, 1))
fresh14_nvcc("fused_add_rms_norm_kernel.half8.t3.h2048.s3072", "vllm::fused_add_rms_norm_kernel<half, 8>", (256,),
             ["input=float16[9216]", "input_stride=3072", "residual=float16[6144]", "weight=float16[2048]:0.5..1.5",
              "epsilon=1e-6", "num_tokens=3", "hidden_size=2048"], grid=(3, 1, 1))
fresh14_nvcc("act_and_mul_kernel.silu.half.t5.d700", "vllm::act_and_mul_kernel<half, vllm::silu_kernel<half>, true>",
             (700,), ["out=float16[3500]", "input=float16[7000]:-4..4", "d=700"], grid=(5, 1, 1))
fresh14_nvcc("act_and_mul_kernel.gelu.bf16.t3.d1408",
             "vllm::act_and_mul_kernel<__nv_bfloat16, vllm::gelu_kernel<__nv_bfloat16>, true>", (1024,),
             ["out=bfloat16[4224]", "input=bfloat16[8448]:-4..4", "d=1408"], grid=(3, 1, 1))
fresh14_nvcc("rotary_embedding_kernel.neox.float.t6.h8.kv2.d64", "vllm::rotary_embedding_kernel<float, true>", (256,),
             [f"positions={npy('fresh14_rotary_pos_6')}", "query=float32[3072]", "key=float32[768]",
              "cos_sin_cache=float32[16384]", "rot_dim=64", "query_stride=512", "key_stride=128", "head_stride=64",
              "num_heads=8", "num_kv_heads=2", "head_size=64"], grid=(6, 1, 1))
fresh14_nvcc("rotary_embedding_kernel.gptj.bf16.t4.h4.d128.rot64",
             "vllm::rotary_embedding_kernel<__nv_bfloat16, false>", (128,),
             [f"positions={npy('fresh14_rotary_pos_6')}", "query=bfloat16[2048]", "key=bfloat16[2048]",
              "cos_sin_cache=bfloat16[16384]", "rot_dim=64", "query_stride=512", "key_stride=512", "head_stride=128",
              "num_heads=4", "num_kv_heads=4", "head_size=128"], grid=(4, 1, 1))
fresh14_nvcc("reshape_and_cache_flash_kernel.bf16.t8.h4.d64.bs16",
             "vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16>", (256,),
             ["key=bfloat16[4096]", "value=bfloat16[4096]", "key_cache=bfloat16[24576]", "value_cache=bfloat16[24576]",
              f"slot_mapping={npy('fresh14_slots_8_of_96')}", "block_stride=4096", "page_stride=256",
              "head_stride=64", "key_stride=512", "value_stride=512", "num_heads=4", "head_size=64",
              "block_size=16"], grid=(8, 1, 1))
fresh14_nvcc("moeSoftmax.tpb256.t6.e60", "vllm::moeSoftmax<256>", (256,),
             ["input=float32[360]:-5..5", "finished=bool[6]:0..0", "output=float32[360]", "num_cols=60"],
             grid=(6, 1, 1))
fresh14_nvcc("moeTopK.tpb256.t6.e60.k2", "vllm::moeTopK<256, int>", (256,),
             ["inputs_after_softmax=float32[360]:0..0.2", "finished=bool[6]:0..0", "output=float32[12]",
              "indices=int32[12]", "source_rows=int32[12]", "num_experts=60", "k=2", "start_expert=0",
              "end_expert=60"], grid=(6, 1, 1))
for tok, k, ne, bsz, b in ((40, 2, 16, 16, 64), (7, 8, 64, 16, 128)):
    numel = tok * k
    cap = numel + ne * (bsz - 1)
    fresh14_nvcc(f"moe_align_block_size_kernel.t{tok}.k{k}.e{ne}.bm{bsz}", "vllm::moe_align_block_size_kernel<int>",
                 (b,), [f"topk_ids={npy(f'fresh14_moe_topk_{tok}x{k}_e{ne}')}", f"sorted_token_ids=int32[{cap}]",
                        f"expert_ids=int32[{-(-cap // bsz)}]", "total_tokens_post_pad=int32[1]", f"num_experts={ne}",
                        f"block_size={bsz}", f"numel={numel}"], dyn=4 * (3 * ne + 1))
# ---- FasterTransformer / TensorRT-LLM
for items, b, m, hid in ((2, 192, 4, 768), (4, 128, 3, 1000)):
    fresh14_nvcc(f"addBiasResidualPostLayerNormHalf2.i{items}.b{b}.m{m}.h{hid}",
                 f"addBiasResidualPostLayerNormHalf2<half, {items}>", (b,),
                 [f"out=float16[{m * hid}]", f"input=float16[{m * hid}]", f"bias=float16[{hid}]:-0.1..0.1",
                  f"gamma=float16[{hid}]:0.5..1.5", f"beta=float16[{hid}]:-0.1..0.1", "layernorm_eps=1e-6", f"m={m}",
                  f"n={hid // 2}"], grid=(m, 1, 1))
for items, b, bat, heads, s1, s2, gx in ((2, 32, 2, 2, 5, 50, 2), (4, 64, 1, 3, 7, 200, 3)):
    fresh14_nvcc(f"softmax_kernel.half.i{items}.b{b}.{bat}x{heads}x{s1}x{s2}", f"softmax_kernel<half, {items}>", (b,),
                 [f"attn_score=float16[{bat * heads * s1 * s2}]", f"qk=float16[{bat * heads * s1 * s2}]:-8..8",
                  f"attn_mask=float16[{bat * s1 * s2}]:0..1", f"batch_size={bat}", f"head_num={heads}",
                  f"seq_len_1={s1}", f"seq_len_2={s2}", "qk_scale=0.125"], grid=(gx, bat, heads))
fresh14_nvcc("add_fusedQKV_bias_transpose_kernel.half.b2.s12.t17.h4.d32", "add_fusedQKV_bias_transpose_kernel<half>",
             (256,), ["q_buf=float16[3072]", "k_buf=float16[3072]", "v_buf=float16[3072]", "QKV=float16[6528]",
                      "qkv_bias=float16[384]:-0.1..0.1", f"padding_offset={npy('fresh14_padding_offset_17')}",
                      "batch_size=2", "seq_len=12", "token_num=17", "head_num=4", "size_per_head=32"], grid=(8, 1, 1))
for dh, b, bat, heads, step in ((64, 64, 2, 4, 50), (32, 128, 1, 6, 100)):
    cache = step * bat * heads * dh
    qkv = bat * heads * dh
    fresh14_nvcc(f"masked_attention_kernel.d{dh}.b{b}.{bat}x{heads}.step{step}",
                 f"masked_attention_kernel<{dh}, {b}, float>", (b,),
                 [f"key_buf=float32[{qkv}]", f"value_buf=float32[{qkv}]", f"query_buf=float32[{qkv}]",
                  f"self_Q_bias=float32[{heads * dh}]:-0.1..0.1", f"key_cache=float32[{cache}]",
                  f"self_K_bias=float32[{heads * dh}]:-0.1..0.1", f"value_cache=float32[{cache}]",
                  f"self_V_bias=float32[{heads * dh}]:-0.1..0.1", f"context_buf=float32[{qkv}]",
                  f"batch_size={bat}", f"head_num={heads}", f"step={step}", f"scalar={dh ** -0.5}"],
                 grid=(bat * heads, 1, 1), dyn=4 * (dh + step))


# ---- Python kernels as people write them (issue 30): the robustness corpus's Triton and Numba kernels
# (kernels/robust_triton.py, kernels/robust_numba.py, which tests/test_analyze_python_robust.py also runs: their
# lines are the truth's), one program or block each
def robust_case(id, compiler, kernel, args, constexprs=None, num_warps=4, num_stages=3, block=None, dyn=0):
    if compiler == "triton":
        c = case(f"robust.triton.{id}", f"{K}/robust_triton.py", kernel, (32 * num_warps,), args)
        c.update(compiler="triton", constexprs=dict(constexprs or {}), num_warps=num_warps, num_stages=num_stages)
    else:
        c = case(f"robust.numba.{id}", f"{K}/robust_numba.py", kernel, block, args, dyn=dyn)
        c["compiler"] = "numba"
    return c


robust_case('add', 'triton', 'add', ['x_ptr=float32[1000]', 'y_ptr=float32[1000]', 'out_ptr=float32[1000]', 'n=1000'],
            constexprs={'BLOCK': 256})
robust_case('softmax_rows', 'triton', 'softmax_rows', ['out_ptr=float32[8,100]', 'in_ptr=float32[8,100]',
             'in_stride=100', 'out_stride=100', 'n_rows=8', 'n_cols=100'], constexprs={'BLOCK': 128, 'STAGES': 2})
robust_case('layernorm_fwd', 'triton', 'layernorm_fwd', ['x_ptr=float16[4,300]', 'y_ptr=float16[4,300]',
             'w_ptr=float16[300]', 'b_ptr=float16[300]', 'mean_ptr=float32[4]', 'rstd_ptr=float32[4]', 'stride=300',
             'N=300', 'eps=1e-5'], constexprs={'BLOCK': 256})
robust_case('layernorm_bwd_dx', 'triton', 'layernorm_bwd_dx', ['dx_ptr=float16[8,200]', 'dy_ptr=float16[8,200]',
             'dw_part=float16[4,200]', 'db_part=float16[4,200]', 'x_ptr=float16[8,200]', 'w_ptr=float16[200]',
             'mean_ptr=float32[8]', 'rstd_ptr=float32[8]', 'lock_ptr=int32[8]:0..0', 'stride=200', 'N=200'],
            constexprs={'GROUP': 4, 'BLOCK': 256})
robust_case('layernorm_bwd_dw', 'triton', 'layernorm_bwd_dw', ['dw_part=float32[4,200]', 'db_part=float32[4,200]',
             'dw_ptr=float32[200]', 'db_ptr=float32[200]', 'M=4', 'N=200'], constexprs={'BM': 32, 'BN': 64})
robust_case('matmul_grouped', 'triton', 'matmul_grouped', ['a_ptr=float16[100,70]', 'b_ptr=float16[70,90]',
             'c_ptr=float16[100,90]', 'M=100', 'N=90', 'K=70', 'sam=70', 'sak=1', 'sbk=90', 'sbn=1', 'scm=90',
             'scn=1'], constexprs={'BM': 32, 'BN': 32, 'BK': 32, 'GROUP_M': 2, 'ACT': 'leaky'})
robust_case('matmul_grouped_big', 'triton', 'matmul_grouped', ['a_ptr=float16[256,128]', 'b_ptr=float16[128,128]',
             'c_ptr=float16[256,128]', 'M=256', 'N=128', 'K=128', 'sam=128', 'sak=1', 'sbk=128', 'sbn=1', 'scm=128',
             'scn=1'], constexprs={'BM': 128, 'BN': 64, 'BK': 64, 'GROUP_M': 8, 'ACT': ''})
robust_case('matmul_bf16', 'triton', 'matmul_grouped', ['a_ptr=bfloat16[128,64]', 'b_ptr=bfloat16[64,128]',
             'c_ptr=float16[128,128]', 'M=128', 'N=128', 'K=64', 'sam=64', 'sak=1', 'sbk=128', 'sbn=1', 'scm=128',
             'scn=1'], constexprs={'BM': 64, 'BN': 64, 'BK': 32, 'GROUP_M': 8, 'ACT': 'none'}, num_stages=2)
robust_case('dot_ieee', 'triton', 'dot_precision', ['a_ptr=float32[32,32]', 'b_ptr=float32[32,32]',
             'c_ptr=float32[32,32]'], constexprs={'B': 32, 'PREC': 'ieee'})
robust_case('dot_tf32x3', 'triton', 'dot_precision', ['a_ptr=float32[32,32]', 'b_ptr=float32[32,32]',
             'c_ptr=float32[32,32]'], constexprs={'B': 32, 'PREC': 'tf32x3'})
robust_case('dot_tf32_64', 'triton', 'dot_precision', ['a_ptr=float32[64,64]', 'b_ptr=float32[64,64]',
             'c_ptr=float32[64,64]'], constexprs={'B': 64, 'PREC': 'tf32'})
robust_case('dot_f64', 'triton', 'dot_precision', ['a_ptr=float64[16,16]', 'b_ptr=float64[16,16]',
             'c_ptr=float64[16,16]'], constexprs={'B': 16, 'PREC': 'ieee'})
robust_case('dropout', 'triton', 'dropout', ['x_ptr=float32[1000]', 'out_ptr=float32[1000]', 'n=1000', 'p=0.5',
             'seed=123'], constexprs={'BLOCK': 512})
robust_case('scan_sort_reduce', 'triton', 'scan_sort_reduce', ['x_ptr=int32[128]', 'cs_ptr=int32[128]',
             'sorted_ptr=int32[128]', 'red_ptr=int32[1]', 'n=100'], constexprs={'BLOCK': 128})
robust_case('scan_sort_reduce_f', 'triton', 'scan_sort_reduce', ['x_ptr=float32[256]', 'cs_ptr=float32[256]',
             'sorted_ptr=float32[256]', 'red_ptr=float32[1]', 'n=256'], constexprs={'BLOCK': 256}, num_warps=2)
robust_case('histogram', 'triton', 'histogram', ['x_ptr=int32[1024]:0..63', 'hist_ptr=int32[64]', 'n=1024'],
            constexprs={'BINS': 64, 'BLOCK': 512})
robust_case('copy2d', 'triton', 'copy2d', ['src=float32[64,192]', 'dst=float32[64,192]', 'M=64', 'N=192',
             'stride_m=192'], constexprs={'BM': 32, 'BN': 64})
robust_case('scaled', 'triton', 'scaled', ['x_ptr=float32[64]', 'out_ptr=float32[64]', 'n=64'],
            constexprs={'SCALE': 0.5, 'NEG': True, 'BLOCK': 64}, num_warps=2)
robust_case('unrolled_sum', 'triton', 'unrolled_sum', ['x_ptr=bfloat16[512]', 'out_ptr=float32[128]'],
            constexprs={'CHUNKS': 4, 'BLOCK': 128}, num_warps=1)
robust_case('gelu_half', 'triton', 'gelu_half', ['x_ptr=float16[1000]', 'out_ptr=float16[1000]', 'n=1000'],
            constexprs={'BLOCK': 1024})
robust_case('gelu_bf16', 'triton', 'gelu_half', ['x_ptr=bfloat16[1000]', 'out_ptr=bfloat16[1000]', 'n=1000'],
            constexprs={'BLOCK': 1024})
robust_case('axpy64', 'triton', 'axpy64', ['x_ptr=float64[200]', 'y_ptr=float64[200]', 'a=2.5', 'n=200'],
            constexprs={'BLOCK': 256})
robust_case('transpose_tile', 'triton', 'transpose_tile', ['in_ptr=float32[100,120]', 'out_ptr=float32[120,100]',
             'M=100', 'N=120'], constexprs={'BM': 64, 'BN': 64})
robust_case('attention_fwd', 'triton', 'attention_fwd', ['q_ptr=float16[100,64]', 'k_ptr=float16[100,64]',
             'v_ptr=float16[100,64]', 'o_ptr=float16[100,64]', 'L=100', 'sm_scale=0.125'],
            constexprs={'D': 64, 'BM': 64, 'BN': 32}, num_stages=2)
robust_case('argmax_rows', 'triton', 'argmax_rows', ['x_ptr=float32[3,100]', 'idx_ptr=int32[3]', 'N=100'],
            constexprs={'BLOCK': 128}, num_warps=2)
robust_case('int_ops', 'triton', 'int_ops', ['a_ptr=int32[250]', 'out_ptr=int64[250]', 'n=250'],
            constexprs={'BLOCK': 256})
robust_case('atomics_global', 'triton', 'atomics_global', ['x_ptr=float32[250]', 'sum_ptr=float32[1]',
             'max_ptr=float32[8]', 'n=250'], constexprs={'BLOCK': 256})
robust_case('reshape_join', 'triton', 'reshape_join', ['x_ptr=float32[256]', 'out_ptr=float32[384]'],
            constexprs={'BLOCK': 128})
robust_case('fp8_cast', 'triton', 'fp8_cast', ['x_ptr=float32[256]', 'out_ptr=float32[256]', 'n=256'],
            constexprs={'BLOCK': 256})
robust_case('math_fns', 'triton', 'math_fns', ['x_ptr=float32[256]', 'out_ptr=float32[256]', 'n=256'],
            constexprs={'BLOCK': 256})
robust_case('add_tuned_c', 'triton', 'add_tuned', ['x_ptr=float32[1000]', 'out_ptr=float32[1000]', 'n=1000'],
            constexprs={'BLOCK': 256}, num_warps=8)
robust_case('add_heur_c', 'triton', 'add_heur', ['x_ptr=float32[1024]', 'out_ptr=float32[1024]', 'n=1000'],
            constexprs={'BLOCK': 256, 'EVEN': False})
robust_case('add_nospec', 'triton', 'add_nospec', ['x_ptr=float32[1024]', 'out_ptr=float32[1024]', 'n=1024'],
            constexprs={'BLOCK': 256})
robust_case('libdevice_fns', 'triton', 'libdevice_fns', ['x_ptr=float32[256]', 'out_ptr=float32[256]', 'n=256'],
            constexprs={'BLOCK': 256})
robust_case('optional_bias_none', 'triton', 'optional_bias', ['x_ptr=float32[100]', 'b_ptr=None',
             'out_ptr=float32[100]', 'n=100'], constexprs={'HAS_BIAS': False, 'BLOCK': 128})
robust_case('optional_bias', 'triton', 'optional_bias', ['x_ptr=float32[100]', 'b_ptr=float32[100]',
             'out_ptr=float32[100]', 'n=100'], constexprs={'HAS_BIAS': True, 'BLOCK': 128})
robust_case('assoc_scan', 'triton', 'assoc_scan', ['x_ptr=float32[256]', 'out_ptr=float32[256]'],
            constexprs={'BLOCK': 256})
robust_case('int8_dot', 'triton', 'int8_dot', ['a_ptr=int8[32,32]', 'b_ptr=int8[32,32]', 'c_ptr=int32[32,32]'],
            constexprs={'B': 32})
robust_case('int8_dot64', 'triton', 'int8_dot', ['a_ptr=int8[64,64]', 'b_ptr=int8[64,64]', 'c_ptr=int32[64,64]'],
            constexprs={'B': 64})
robust_case('fp16_out_dot', 'triton', 'fp16_out_dot', ['a_ptr=float16[32,32]', 'b_ptr=float16[32,32]',
             'c_ptr=float16[32,32]'], constexprs={'B': 32})
robust_case('permute_gather', 'triton', 'permute_gather', ['x_ptr=float32[32,32]', 'idx_ptr=int32[32]:0..31',
             'out_ptr=float32[32,32]'], constexprs={'B': 32})
robust_case('randint_kernel', 'triton', 'randint_kernel', ['out_ptr=float32[256]', 'seed=7', 'n=256'],
            constexprs={'BLOCK': 256})
robust_case('swizzled', 'triton', 'swizzled', ['x_ptr=float32[64,64]', 'out_ptr=float32[64,64]', 'M=64', 'N=64'],
            constexprs={'BM': 32, 'BN': 32})
robust_case('static_checks', 'triton', 'static_checks', ['x_ptr=float32[64]', 'out_ptr=int32[64]'],
            constexprs={'BLOCK': 64})
robust_case('matmul_grouped_q', 'triton', 'matmul_grouped', ['a_ptr=float16[100,70]', 'b_ptr=float16[70,90]',
             'c_ptr=float16[100,90]', 'M=100', 'N=90', 'K=70', 'sam=70', 'sak=1', 'sbk=90', 'sbn=1', 'scm=90',
             'scn=1'], constexprs={'BM': 32, 'BN': 32, 'BK': 32, 'GROUP_M': 2, 'ACT': 'leaky'})
robust_case('add1d', 'numba', 'add1d', ['a=float32[1000]', 'b=float32[1000]', 'out=float32[1000]'], block=(128,))
robust_case('saxpy_strided', 'numba', 'saxpy_strided', ['a=2.0', 'x=float32[1000]', 'y=float32[1000]'], block=(64,))
robust_case('scale2d', 'numba', 'scale2d', ['m=float32[20,30]', 'out=float32[20,30]', 'factor=3.0'], block=(16, 16))
robust_case('column_read', 'numba', 'column_read', ['m=float32[64,16]', 'out=float32[64]'], block=(64,))
robust_case('grid3d', 'numba', 'grid3d', ['vol=float32[4,8,16]', 'out=float32[4,8,16]'], block=(8, 4, 2))
robust_case('matmul_shared', 'numba', 'matmul_shared', ['A=float32[32,32]', 'B=float32[32,32]', 'C=float32[32,32]'],
            block=(16, 16))
robust_case('tile64', 'numba', 'tile64', ['inp=float64[32,32]', 'out=float64[32,32]'], block=(32, 8))
robust_case('tile_int64', 'numba', 'tile_int64', ['inp=int64[32,32]', 'out=int64[32,32]'], block=(32, 32))
robust_case('complex_tile', 'numba', 'complex_tile', ['inp=complex64[64]', 'out=complex64[64]'], block=(64,))
robust_case('local_sort', 'numba', 'local_sort', ['inp=int32[256]', 'out=int32[256]'], block=(32,))
robust_case('shared_atomics', 'numba', 'shared_atomics', ['data=float32[256]:0..1', 'hist=int32[32]',
             'mx=float32[1]', 'nbins=32'], block=(128,))
robust_case('warp_reduce', 'numba', 'warp_reduce', ['inp=float32[64]', 'out=float32[4]'], block=(64,))
robust_case('warp_shuffles', 'numba', 'warp_shuffles', ['inp=float32[64]', 'out=float32[64]'], block=(64,))
robust_case('math_kernel', 'numba', 'math_kernel', ['x=float64[64]', 'out=float64[64]'], block=(64,))
robust_case('math_kernel32', 'numba', 'math_kernel32', ['x=float32[64]', 'out=float32[64]'], block=(64,))
robust_case('early_exit', 'numba', 'early_exit', ['x=float32[100]:0..40', 'out=int32[100]', 'n=100'], block=(64,))
robust_case('idx_types', 'numba', 'idx_types', ['a=float32[64]', 'out=float32[64]', 'n=64'], block=(64,))
robust_case('reduce_interleaved', 'numba', 'reduce_interleaved', ['inp=float32[256]', 'out=float32[1]'], block=(256,))
robust_case('dyn_shared', 'numba', 'dyn_shared', ['inp=float32[128]', 'out=float32[128]'], block=(128,), dyn=512)
robust_case('uint_bits', 'numba', 'uint_bits', ['x=uint32[32]', 'out=int32[32]'], block=(32,))
robust_case('float16_math', 'numba', 'float16_math', ['x=float16[32]', 'out=float16[32]'], block=(32,))
robust_case('bool_and_tuples', 'numba', 'bool_and_tuples', ['flags=bool[32]', 'x=float32[32,2]', 'out=float32[32]'],
            block=(32,))
robust_case('three_d_block', 'numba', 'three_d_block', ['a=float32[4,8,8]'], block=(8, 8, 4))
robust_case('noncontig_view', 'numba', 'noncontig_view', ['a=float32[32,5]', 'out=float32[32]'], block=(32,))
robust_case('const_stencil', 'numba', 'const_stencil', ['x=float32[64]', 'out=float32[64]'], block=(64,))
robust_case('global_array_stencil', 'numba', 'global_array_stencil', ['x=float32[64]', 'out=float32[64]'],
            block=(64,))
robust_case('fast_rsqrt', 'numba', 'fast_rsqrt', ['x=float32[64]', 'out=float32[64]'], block=(64,))
robust_case('sync_counts', 'numba', 'sync_counts', ['x=float32[128]', 'out=int32[3]'], block=(128,))
robust_case('more_atomics', 'numba', 'more_atomics', ['x=float32[64]', 'cnt=uint32[8]', 'lo=float32[1]',
             'hi=float32[1]'], block=(64,))
robust_case('warp_misc', 'numba', 'warp_misc', ['x=float32[64]', 'out=float32[64]'], block=(64,))
robust_case('local2d', 'numba', 'local2d', ['x=float32[32]', 'out=float32[32]'], block=(32,))
robust_case('flag_arg', 'numba', 'flag_arg', ['x=float32[32]', 'out=float32[32]', 'negate=True'], block=(32,))
robust_case('optional_arr', 'numba', 'optional_arr', ['x=float32[32]', 'out=float32[32]', 'bias=None'], block=(32,))
robust_case('block_stride_loop', 'numba', 'block_stride_loop', ['x=float32[1000]', 'out=float32[1]'], block=(128,))
robust_case('image_u8', 'numba', 'image_u8', ['img=uint8[20,30,3]', 'out=uint8[20,30]'], block=(16, 16))
robust_case('tuple_return', 'numba', 'tuple_return', ['x=float32[32]', 'out=int32[32,2]'], block=(32,))
robust_case('padded_transpose', 'numba', 'padded_transpose', ['inp=float32[32,32]', 'out=float32[32,32]'],
            block=(16, 16))
robust_case('unpadded_transpose', 'numba', 'unpadded_transpose', ['inp=float32[32,32]', 'out=float32[32,32]'],
            block=(16, 16))
robust_case('global_cas_lock0', 'numba', 'global_cas_lock', ['lock=int32[1]:0..0', 'counter=int32[1]'], block=(32,))


# ---- a fresh batch of Python kernels as a held-out checker writes them (kernels/fresh_numba.py, fresh_triton.py:
# vLLM/Liger-style Triton ops, Numba's docs and GPU-Puzzles styles), one program or block each. fresh_triton.py's
# matmul_block_ptr has no case: tl.make_block_ptr is gone from the Triton that builds the cubins here (3.9)
def fresh_case(id, compiler, kernel, args, **launch):
    """robust_case's launch (constexprs, num_warps, num_stages, block, dyn) of a kernel of fresh_{compiler}.py."""
    c = robust_case(id, compiler, kernel, args, **launch)
    c.update(id=f"fresh.{compiler}.{id}", file=f"{K}/fresh_{compiler}.py")
    return c


fresh_case('sig_matmul', 'numba', 'sig_matmul', ['A=float32[40,36]', 'B=float32[36,44]', 'C=float32[40,44]'],
           block=(16, 16))
fresh_case('halo_stencil', 'numba', 'halo_stencil', ['x=float32[500]', 'out=float32[500]'], block=(128,))
fresh_case('heat_step', 'numba', 'heat_step', ['u=float64[32,32]', 'u_new=float64[32,32]', 'alpha=0.1'],
           block=(16, 16))
fresh_case('grid_stride_sum', 'numba', 'grid_stride_sum', ['x=float32[10000]', 'total=float32[1]'], block=(256,))
fresh_case('warp_compact', 'numba', 'warp_compact', ['x=float32[128]', 'out=float32[128]', 'counts=int32[4]',
           'threshold=0.0'], block=(128,))
fresh_case('block_votes', 'numba', 'block_votes', ['x=float32[128]', 'out=int32[1,3]', 'lo=-0.5', 'hi=0.5'],
           block=(128,))
fresh_case('hist2d', 'numba', 'hist2d', ['xs=int32[2048]:0..15', 'ys=int32[2048]:0..15', 'hist=int32[16,16]'],
           block=(128,))
fresh_case('row_max_claim', 'numba', 'row_max_claim', ['keys=int32[16,16]', 'row_max=int32[16]',
           'flags=int32[256]:0..0'], block=(16, 16))
fresh_case('bilinear_resize', 'numba', 'bilinear_resize', ['src=float32[20,24]', 'dst=float32[32,32]'],
           block=(16, 16))
fresh_case('median3x3', 'numba', 'median3x3', ['img=float32[16,16]', 'out=float32[16,16]'], block=(16, 16))
fresh_case('scan_dyn64', 'numba', 'scan_dyn64', ['x=float64[128]', 'out=float64[128]'], block=(128,), dyn=2048)
fresh_case('fft_twiddle', 'numba', 'fft_twiddle', ['x=complex64[128]', 'out=complex64[128]'], block=(64,))
fresh_case('half_axpby', 'numba', 'half_axpby', ['a=float16[2]', 'x=float16[128]', 'y=float16[128]',
           'out=float16[128]'], block=(128,))
fresh_case('laplace3d', 'numba', 'laplace3d', ['v=float32[4,8,8]', 'out=float32[4,8,8]'], block=(8, 8, 4))
fresh_case('segment_sum64', 'numba', 'segment_sum64', [f'offsets={npy("fresh_segment_offsets")}',
           'values=int64[400]', 'out=int64[4]'], block=(128,))
fresh_case('row_softmax', 'numba', 'row_softmax', ['x=float32[4,300]', 'out=float32[4,300]'], block=(128,))
fresh_case('rms_norm', 'triton', 'rms_norm', ['x_ptr=float16[8,300]', 'w_ptr=float16[300]', 'out_ptr=float16[8,300]',
           'x_stride=300', 'out_stride=300', 'N=300', 'eps=1e-6'], constexprs={'BLOCK_SIZE': 512})
fresh_case('rotary_neox', 'triton', 'rotary_neox', ['q_ptr=float16[16,8,64]', 'pos_ptr=int32[16]:0..127',
           'cos_ptr=float32[128,32]', 'sin_ptr=float32[128,32]', 'q_stride_t=512', 'q_stride_h=64',
           'cache_stride=32'], constexprs={'HEAD_DIM': 64}, num_warps=2)
fresh_case('silu_and_mul', 'triton', 'silu_and_mul', ['x_ptr=float16[16,2048]', 'out_ptr=float16[16,1024]', 'd=1024',
           'stride_x=2048', 'stride_out=1024'], constexprs={'BLOCK': 512})
fresh_case('quant_int8_row', 'triton', 'quant_int8_row', ['x_ptr=float16[4,1000]', 'q_ptr=int8[4,1000]',
           'scale_ptr=float32[4]', 'N=1000', 'stride=1000'], constexprs={'BLOCK': 1024}, num_warps=8)
fresh_case('quant_fp8_row', 'triton', 'quant_fp8_row', ['x_ptr=bfloat16[4,1000]', 'q_ptr=float8_e4m3fn[4,1000]',
           'scale_ptr=float32[4]', 'N=1000', 'stride=1000'], constexprs={'FP8_MAX': 448.0, 'BLOCK': 256})
fresh_case('paged_gather', 'triton', 'paged_gather', ['cache_ptr=float16[32,16,64]', 'block_table_ptr=int32[2,8]:0..31',
           'out_ptr=float16[2,128,64]', 'seq_len=100', 'max_blocks=8', 'stride_cb=1024', 'stride_ct=64'],
           constexprs={'BLOCK_SIZE': 16, 'HEAD_DIM': 64})
fresh_case('cross_entropy_fwd', 'triton', 'cross_entropy_fwd', ['logits_ptr=float32[4,5000]',
           'labels_ptr=int64[4]:0..4999', 'loss_ptr=float32[4]', 'stride=5000', 'V=5000'], constexprs={'BLOCK': 1024},
           num_warps=8)
fresh_case('group_norm', 'triton', 'group_norm', ['x_ptr=float32[2,32,8,8]', 'y_ptr=float32[2,32,8,8]',
           'w_ptr=float32[32]', 'b_ptr=float32[32]', 'C=32', 'HW=64', 'G=8', 'eps=1e-5'], constexprs={'BLOCK': 128})
fresh_case('matmul_split_k', 'triton', 'matmul_split_k', ['a_ptr=float16[64,256]', 'b_ptr=float16[256,64]',
           'c_ptr=float32[64,64]', 'M=64', 'N=64', 'K=256', 'stride_am=256', 'stride_bk=64', 'stride_cm=64'],
           constexprs={'BM': 32, 'BN': 32, 'BK': 32, 'SPLIT_K': 4})
fresh_case('argmax_vocab', 'triton', 'argmax_vocab', ['logits_ptr=float16[4,3000]', 'out_idx_ptr=int32[4]',
           'out_val_ptr=float32[4]', 'V=3000', 'stride=3000'], constexprs={'BLOCK': 1024})
fresh_case('topk_rows', 'triton', 'topk_rows', ['x_ptr=float32[8,200]', 'out_ptr=float32[8,8]', 'N=200', 'stride=200'],
           constexprs={'K': 8, 'BLOCK': 256})
fresh_case('gelu_tuned', 'triton', 'gelu_tuned', ['x_ptr=float32[4096]', 'out_ptr=float32[4096]', 'n=4096'],
           constexprs={'BLOCK': 512, 'EVEN_N': True})  # the autotuner's first config, the heuristic's value
fresh_case('batched_transpose', 'triton', 'batched_transpose', ['x_ptr=float32[4,100,80]', 'y_ptr=float32[4,80,100]',
           'M=100', 'N=80', 'stride_b=8000'], constexprs={'BM': 32, 'BN': 32})
fresh_case('mha_heads', 'triton', 'mha_heads', ['q_ptr=float16[2,128,64]', 'k_ptr=float16[2,128,64]',
           'v_ptr=float16[2,128,64]', 'o_ptr=float16[2,128,64]', 'seq=128', 'sm_scale=0.125'],
           constexprs={'H': 2, 'BM': 64, 'BN': 32, 'D': 64})
fresh_case('embedding_gather', 'triton', 'embedding_gather', ['ids_ptr=int64[16]:0..999', 'table_ptr=float32[1000,200]',
           'out_ptr=float32[16,200]', 'D=200'], constexprs={'BLOCK_D': 128})



# ---- a second fresh batch of Python kernels as a held-out checker writes them (kernels/fresh2_numba.py,
# fresh2_triton.py: shared tiles with halos, shuffle reductions, float64 transposes, integer atomics of every kind,
# a bitonic sort, N-body, CSR rows; Triton's axis reductions, cumsum/flip, reshape/permute, split/join/interleave,
# int4 dequantisation, layer-norm and softmax backward, causal attention in two stages, B read transposed, a
# persistent matmul, tl.histogram, ieee fp32 dot, a GEMV with num_stages=1), one program or block each, some on
# grids of several blocks (grid, block_index: the one emulated)
def fresh2_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh_case's launch (constexprs, num_warps, num_stages, block, dyn) of a kernel of fresh2_{compiler}.py."""
    c = robust_case(id, compiler, kernel, args, **launch)
    c.update(id=f"fresh2.{compiler}.{id}", file=f"{K}/fresh2_{compiler}.py",
             grid=list(grid) + [1] * (3 - len(grid)), block_index=list(block_index))
    return c


fresh2_case('jacobi_tile', 'numba', 'jacobi_tile', ['u=float32[40,40]', 'out=float32[40,40]'], block=(16, 16),
            grid=(3, 3), block_index=(2, 1, 0))
fresh2_case('xor_block_sum', 'numba', 'xor_block_sum', ['x=float32[5000]', 'partial=float32[4]'], block=(256,),
            grid=(4,))
fresh2_case('transpose64_padded', 'numba', 'transpose64_padded', ['a=float64[64,64]', 'b=float64[64,64]'],
            block=(32, 8), grid=(2, 2))
fresh2_case('transpose64_plain', 'numba', 'transpose64_plain', ['a=float64[64,64]', 'b=float64[64,64]'],
            block=(32, 8), grid=(2, 2))
fresh2_case('smooth3d_shared', 'numba', 'smooth3d_shared', ['v=float32[4,8,8]', 'out=float32[4,8,8]'],
            block=(8, 8, 4))
fresh2_case('int_atomic_mix', 'numba', 'int_atomic_mix', ['keys=int32[128]', 'wrap_counts=uint32[16]',
            'masks=uint32[8]', 'slots=int32[32]', 'summary=uint32[6]'], block=(128,))
fresh2_case('last_block_total', 'numba', 'last_block_total', ['x=float32[128]', 'partials=float32[1]',
            'ticket=uint32[1]:0..0', 'total=float32[1]'], block=(128,))
fresh2_case('warp_scan_syncwarp', 'numba', 'warp_scan_syncwarp', ['x=int32[128]', 'out=int32[128]'], block=(128,))
fresh2_case('pixel_hist', 'numba', 'pixel_hist', ['img=uint8[48,64]', 'hist=int32[256]'], block=(16, 16))
fresh2_case('bitonic256', 'numba', 'bitonic256', ['keys=float32[256]', 'out=float32[256]'], block=(256,))
fresh2_case('nbody_soa', 'numba', 'nbody_soa', ['px=float32[256]', 'py=float32[256]', 'pz=float32[256]',
            'm=float32[256]', 'ax=float32[256]', 'ay=float32[256]', 'az=float32[256]', 'eps2=0.01'], block=(128,),
            grid=(2,))
fresh2_case('lut_int16', 'numba', 'lut_int16', ['codes=int8[200]', 'table=uint16[256]', 'gain=uint16[16]:0..3',
            'out=int16[200]'], block=(128,), grid=(2,))
fresh2_case('saxpy_clamp', 'numba', 'saxpy_clamp', ['a=2.0', 'x=float32[300]', 'y=float32[300]', 'limit=1.5'],
            block=(128,), grid=(3,))
fresh2_case('column_pairs', 'numba', 'column_pairs', ['m=float32[16,32]', 'out=float32[16,16]'], block=(16, 16))
fresh2_case('csr_spmv_warp', 'numba', 'csr_spmv_warp', [f'indptr={npy("csr_row_ptr")}', f'indices={npy("csr_cols")}',
            f'data={npy("csr_vals")}', 'x=float32[512]', 'y=float32[64]'], block=(256,), grid=(8,))
fresh2_case('normalize_rows64', 'numba', 'normalize_rows64', ['a=float64[4,200]', 'out=float64[4,200]'], block=(64,),
            grid=(4,))
fresh2_case('tile_stats', 'triton', 'tile_stats', ['x_ptr=float32[60,50]', 'col_sum_ptr=float32[50]',
            'row_max_ptr=float32[60]', 'M=60', 'N=50', 'stride_m=50'], constexprs={'BM': 16, 'BN': 64}, grid=(4,))
fresh2_case('prefix_suffix_rows', 'triton', 'prefix_suffix_rows', ['x_ptr=int32[32,100]:0..9', 'pre_ptr=int32[32,100]',
            'suf_ptr=int32[32,100]', 'N=100', 'stride=100'], constexprs={'BM': 8, 'BN': 128}, num_warps=2, grid=(4,))
fresh2_case('pixel_shuffle2', 'triton', 'pixel_shuffle2', ['x_ptr=float16[16,8,32]', 'y_ptr=float16[4,16,64]', 'W=32'],
            constexprs={'C_OUT': 4, 'BW': 16}, num_warps=2, grid=(8, 2), block_index=(3, 1, 0))
fresh2_case('complex_mul', 'triton', 'complex_mul', ['a_ptr=float32[2000]', 'b_ptr=float32[2000]',
            'out_ptr=float32[2000]', 'n=1000'], constexprs={'BLOCK': 256}, grid=(4,))
fresh2_case('complex_conj_join', 'triton', 'complex_conj_join', ['a_ptr=float32[2000]', 'out_ptr=float32[2000]',
            'n=1000'], constexprs={'BLOCK': 256}, num_warps=1, grid=(4,))
fresh2_case('w4a16_matmul', 'triton', 'w4a16_matmul', ['a_ptr=float16[64,256]', 'qw_ptr=int32[32,128]',
            'scale_ptr=float16[4,128]', 'zero_ptr=float16[4,128]', 'c_ptr=float16[64,128]', 'M=64', 'N=128', 'K=256',
            'stride_am=256', 'stride_qk=128', 'stride_cm=128'], constexprs={'GROUP': 64, 'BM': 32, 'BN': 64, 'BK': 64},
            grid=(2, 2))
fresh2_case('layernorm_bwd_fused', 'triton', 'layernorm_bwd_fused', ['dy_ptr=float16[16,384]', 'x_ptr=float16[16,384]',
            'w_ptr=float16[384]', 'mean_ptr=float32[16]', 'rstd_ptr=float32[16]', 'dx_ptr=float16[16,384]',
            'dw_part_ptr=float32[4,384]', 'db_part_ptr=float32[4,384]', 'M=16', 'N=384', 'stride=384'],
            constexprs={'ROWS_PER_PROG': 4, 'BLOCK_N': 512}, grid=(4,))
fresh2_case('softmax_bwd', 'triton', 'softmax_bwd', ['dy_ptr=bfloat16[8,1500]', 'y_ptr=bfloat16[8,1500]',
            'dx_ptr=bfloat16[8,1500]', 'N=1500', 'stride=1500'], constexprs={'BLOCK': 2048}, num_warps=8, grid=(8,))
fresh2_case('attn_causal_fwd', 'triton', 'attn_causal_fwd', ['q_ptr=float16[2,256,64]', 'k_ptr=float16[2,256,64]',
            'v_ptr=float16[2,256,64]', 'o_ptr=float16[2,256,64]', 'sm_scale=0.125', 'stride_h=16384', 'stride_n=64'],
            constexprs={'D': 64, 'BM': 64, 'BN': 32}, num_stages=2, grid=(4, 2), block_index=(2, 1, 0))
fresh2_case('matmul_bt', 'triton', 'matmul_bt', ['a_ptr=float16[128,192]', 'b_ptr=float16[128,192]',
            'c_ptr=float16[128,128]', 'M=128', 'N=128', 'K=192', 'stride_am=192', 'stride_ak=1', 'stride_bn=192',
            'stride_bk=1', 'stride_cm=128', 'stride_cn=1'], constexprs={'BM': 64, 'BN': 64, 'BK': 32}, num_stages=4,
            grid=(2, 2))
fresh2_case('persistent_matmul', 'triton', 'persistent_matmul', ['a_ptr=float16[192,128]', 'b_ptr=float16[128,128]',
            'c_ptr=float16[192,128]', 'M=192', 'N=128', 'K=128', 'stride_am=128', 'stride_bk=128', 'stride_cm=128'],
            constexprs={'NUM_SMS': 4, 'BM': 64, 'BN': 64, 'BK': 32, 'GROUP_M': 2}, num_warps=8, grid=(4,))
fresh2_case('token_histogram', 'triton', 'token_histogram', ['ids_ptr=int32[1500]:0..63', 'counts_ptr=int32[64]:0..0',
            'n=1500'], constexprs={'NUM_BINS': 64, 'BLOCK': 1024}, grid=(2,))
fresh2_case('matmul_fp32_ieee', 'triton', 'matmul_fp32_ieee', ['a_ptr=float32[60,50]', 'b_ptr=float32[50,70]',
            'c_ptr=float32[60,70]', 'M=60', 'N=70', 'K=50', 'stride_am=50', 'stride_bk=70', 'stride_cm=70'],
            constexprs={'BM': 32, 'BN': 32, 'BK': 16}, grid=(2, 3), block_index=(1, 2, 0))
fresh2_case('gemv_tall', 'triton', 'gemv_tall', ['a_ptr=float16[1000,48]', 'x_ptr=float16[48]', 'y_ptr=float16[1000]',
            'M=1000', 'K=48', 'stride_am=48'], constexprs={'BM': 64, 'BK': 32}, num_warps=2, num_stages=1, grid=(16,))
fresh2_case('geglu_fwd', 'triton', 'geglu_fwd', ['x_ptr=float16[8,1600]', 'out_ptr=float16[8,800]', 'D=800',
            'stride_x=1600', 'stride_o=800'], constexprs={'BLOCK': 512}, num_warps=1, grid=(8, 2), block_index=(0, 1, 0))
fresh2_case('math_mix3d', 'triton', 'math_mix3d', ['x_ptr=float32[2,3,1500]', 'y_ptr=float32[2,3,1500]',
            'out_ptr=float32[2,3,1500]', 'B=2', 'H=3', 'N=1500'], constexprs={'BLOCK': 1024}, num_warps=8,
            grid=(2, 3, 2), block_index=(1, 2, 1))



# ---- a third fresh held-out batch (kernels/fresh3_numba.py, fresh3_triton.py): FlashAttention-2 forward at head
# dims 64 and 128 and its backward preprocess, fused residual RMSNorm, MoE gather/scatter-add, an int8 GEMV, a 3-D
# RoPE, a segmented associative scan, top-p prep, AdamW, two-pass long softmax, im2col, ragged argmax, a descriptor
# matmul, an autotuned+heuristics paged cache write; Numba Monte-Carlo xoroshiro states, a const-memory filter, a
# complex128 transpose, per-warp sub-histograms, ballot compaction, a padded Blelloch scan, device functions taking
# arrays, a float64 grid-stride sum, column sums coalesced and not, a 3-D int64 gradient, a local-array sort,
# cuda.fp16 intrinsics, shfl_down + atomic max on a 2-D array, syncthreads_count; written before their first
# recording. The whole small grid is replayed, as Nsight Compute counts the launch.
def fresh3_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh3_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh3.{compiler}.{id}", file=f"{K}/fresh3_{compiler}.py")
    return c


fresh3_case('mc_pi', 'numba', 'mc_pi', ['rng_states=xoroshiro128p[128]', 'iters=16', 'hits=int32[128]'], block=(128,))
fresh3_case('conv2d_const', 'numba', 'conv2d_const', ['img=float32[40,40]', 'out=float32[40,40]'], block=(16, 16),
            grid=(3, 3), block_index=(1, 2, 0))
fresh3_case('transpose_c128', 'numba', 'transpose_c128', ['a=complex128[64,64]', 'b=complex128[64,64]'],
            block=(32, 8), grid=(2, 2))
fresh3_case('warp_subhist', 'numba', 'warp_subhist', ['vals=int32[4096]:0..255', 'hist=uint32[64]:0..0'],
            block=(256,), grid=(2,))
fresh3_case('compact_ballot', 'numba', 'compact_ballot', ['x=float32[500]:-1..1', 'out=float32[512]',
            'counts=int32[2]'], block=(256,), grid=(2,))
fresh3_case('blelloch_padded', 'numba', 'blelloch_padded', ['x=int32[512]:0..9', 'out=int32[512]'], block=(256,))
fresh3_case('gemv_relu_dev', 'numba', 'gemv_relu_dev', ['a=float32[200,64]', 'v=float32[64]', 'bias=float32[200]',
            'y=float32[200]'], block=(128,), grid=(2,))
fresh3_case('sum64_gridstride', 'numba', 'sum64_gridstride', ['x=float64[10000]', 'total=float64[1]'], block=(256,),
            grid=(4,))
fresh3_case('col_sums_coalesced', 'numba', 'col_sums_coalesced', ['m=float32[64,128]', 'out=float32[128]'],
            block=(128,))
fresh3_case('row_sums_strided', 'numba', 'row_sums_strided', ['m=float32[64,128]', 'out=float32[64]'], block=(64,))
fresh3_case('grad3d_int64', 'numba', 'grad3d_int64', ['vol=int64[8,16,16]:0..100', 'mag=float64[8,16,16]'],
            block=(8, 8, 4), grid=(2, 2, 2))
fresh3_case('local_sort_median', 'numba', 'local_sort_median', ['x=float32[1024]', 'med=float32[128]'], block=(128,))
fresh3_case('fp16_fma_relu', 'numba', 'fp16_fma_relu', ['a=float16[1]', 'x=float16[256]', 'y=float16[256]',
            'out=float16[256]'], block=(128,))
fresh3_case('row_max_shfl', 'numba', 'row_max_shfl', ['q=int32[4,256]:-1000..1000', 'rowmax=int32[4,1]'],
            block=(128,), grid=(2, 4))
fresh3_case('count_above', 'numba', 'count_above', ['x=float32[4,180]', 'thresh=float32[4]', 'counts=int32[3]'],
            block=(64, 4), grid=(3,))
fresh3_case('flash_fwd_d64', 'triton', 'flash_fwd', ['q_ptr=float16[2,128,64]', 'k_ptr=float16[2,128,64]',
            'v_ptr=float16[2,128,64]', 'o_ptr=float16[2,128,64]', 'lse_ptr=float32[2,128]', 'sm_scale=0.125',
            'seq_len=128', 'stride_h=8192', 'stride_n=64'], constexprs={'D': 64, 'BM': 64, 'BN': 64}, grid=(2, 2))
fresh3_case('flash_fwd_d128', 'triton', 'flash_fwd', ['q_ptr=float16[2,100,128]', 'k_ptr=float16[2,100,128]',
            'v_ptr=float16[2,100,128]', 'o_ptr=float16[2,100,128]', 'lse_ptr=float32[2,100]', 'sm_scale=0.088',
            'seq_len=100', 'stride_h=12800', 'stride_n=128'], constexprs={'D': 128, 'BM': 64, 'BN': 32},
            num_warps=8, grid=(2, 2), block_index=(1, 1, 0))
fresh3_case('attn_bwd_preprocess', 'triton', 'attn_bwd_preprocess', ['o_ptr=float16[120,64]', 'do_ptr=float16[120,64]',
            'delta_ptr=float32[120]', 'n_rows=120'], constexprs={'D': 64, 'BM': 32}, grid=(4,))
fresh3_case('fused_add_rmsnorm', 'triton', 'fused_add_rmsnorm', ['x_ptr=bfloat16[4,896]', 'res_ptr=bfloat16[4,896]',
            'w_ptr=bfloat16[896]', 'out_ptr=bfloat16[4,896]', 'res_out_ptr=bfloat16[4,896]', 'N=896', 'stride=896',
            'eps=1e-6'], constexprs={'BLOCK': 1024}, grid=(4,))
fresh3_case('moe_gather_rows', 'triton', 'moe_gather_rows', ['x_ptr=float16[20,256]', 'sorted_ids_ptr=int32[48]:0..39',
            'out_ptr=float16[48,256]', 'num_valid=40', 'H=256'], constexprs={'TOPK': 2, 'BT': 16, 'BH': 128},
            grid=(3,))
fresh3_case('moe_scatter_add', 'triton', 'moe_scatter_add', ['y_ptr=float16[40,500]', 'ids_ptr=int32[40]:0..39',
            'wts_ptr=float32[40]', 'out_ptr=float32[20,500]', 'num_valid=40', 'H=500'],
            constexprs={'TOPK': 2, 'BH': 256}, grid=(4, 2), block_index=(3, 1, 0))
fresh3_case('int8_gemv', 'triton', 'int8_gemv', ['x_ptr=float16[300]', 'w_ptr=int8[256,300]', 'scale_ptr=float16[256]',
            'y_ptr=float16[256]', 'N=256', 'K=300', 'stride_wn=300'], constexprs={'BN': 64, 'BK': 128}, grid=(4,))
fresh3_case('rope_3d', 'triton', 'rope_3d', ['q_ptr=float16[2,24,4,64]', 'cos_ptr=float32[24,32]',
            'sin_ptr=float32[24,32]', 'seq_len=24', 'stride_b=6144', 'stride_s=256', 'stride_h=64'],
            constexprs={'HALF': 32, 'BS': 16}, num_warps=2, grid=(2, 4, 2), block_index=(1, 3, 1))
fresh3_case('segmented_cumsum', 'triton', 'segmented_cumsum', ['x_ptr=float32[1000]', 'flag_ptr=int8[1000]:0..1',
            'out_ptr=float32[1000]', 'n=1000'], constexprs={'BLOCK': 512}, grid=(2,))
fresh3_case('top_p_prep', 'triton', 'top_p_prep', ['logits_ptr=float32[4,1000]', 'sorted_ptr=float32[4,1000]',
            'keep_ptr=int8[4,1000]', 'V=1000', 'top_p=0.9', 'stride=1000'], constexprs={'BLOCK': 1024}, grid=(4,))
fresh3_case('adamw_step', 'triton', 'adamw_step', ['p_ptr=float32[4000]', 'g_ptr=bfloat16[4000]', 'm_ptr=float32[4000]',
            'v_ptr=float32[4000]', 'n=4000', 'lr=1e-3', 'beta1=0.9', 'beta2=0.999', 'eps=1e-8', 'wd=0.01', 'bc1=0.1',
            'bc2=0.001'], constexprs={'BLOCK': 1024}, grid=(4,))
fresh3_case('softmax_long_row', 'triton', 'softmax_long_row', ['x_ptr=float16[2,10000]', 'y_ptr=float32[2,10000]',
            'N=10000', 'stride=10000'], constexprs={'BLOCK': 2048}, num_warps=8, grid=(2,))
fresh3_case('im2col3x3', 'triton', 'im2col3x3', ['x_ptr=float32[24,16,16]', 'col_ptr=float32[256,216]', 'C=24',
            'H=16', 'W=16'], constexprs={'BP': 64, 'BC': 16}, grid=(4, 2), block_index=(2, 1, 0))
fresh3_case('ragged_row_argmax', 'triton', 'ragged_row_argmax', ['x_ptr=float32[40,100]', 'lens_ptr=int32[40]:1..100',
            'max_ptr=float32[40]', 'idx_ptr=int32[40]', 'M=40', 'stride=100'], constexprs={'BM': 16, 'BN': 128},
            grid=(3,))
fresh3_case('matmul_desc_leaky', 'triton', 'matmul_desc_leaky', ['a_desc=float16[100,80]@64x32',
            'b_desc=float16[80,120]@32x64', 'c_desc=float16[100,120]@64x64', 'K=80'],
            constexprs={'BM': 64, 'BN': 64, 'BK': 32}, num_warps=8, grid=(2, 2))
fresh3_case('reshape_and_cache', 'triton', 'reshape_and_cache', ['k_ptr=float16[8,200]', 'v_ptr=float16[8,200]',
            'kc_ptr=float16[64,200]', 'vc_ptr=float16[64,200]', 'slot_ptr=int64[8]:0..63', 'HD=200'],
            constexprs={'BD': 128, 'EVEN': False}, num_warps=2, num_stages=3, grid=(8,))



# ---- a fourth fresh held-out batch (kernels/fresh4_numba.py, fresh4_triton.py): a layer-norm backward on [rows, N]
# tiles with per-program partial dW/dB rows and a row-at-a-time column-sum second pass, a fused linear+bias+GELU(tanh)
# matmul at 64x64x32 (2 stages) and 128x128x64 (3 stages), a batched matmul on a 3-D grid, a swizzled GROUP_M matmul
# writing bf16, a softmax through tl.reduce with a jit combine and .cg loads, log-softmax+NLL with ignore_index, an
# implicit-GEMM 3x3 conv, a causal depthwise conv1d, an int8 GEMM with dequant scales, a [B,M,N] transpose with
# tl.trans, tl.histogram, tl.sort, tl.cumprod, seeded tl.rand dropout, a Welford tl.reduce over tuples, an autotuned +
# heuristics split-K matmul with atomics; Numba: a float64 tiled matmul, a 3-D heat step, shfl_xor + shared block
# sums, an int64 bitonic sort, an RGB uint8 histogram, an n-body splitting each body over 4 threads, a double-
# buffered scan, an eager 2-D signature, scattered compare-and-swap claims, cuda.fma/selp on int16, a device
# function's local array of 16, a constant-memory filter with a halo, complex64, activemask+ballot, 3-D int64 atomics;
# written before their first recording. The whole small grid is replayed, as Nsight Compute counts the launch.
def fresh4_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh4_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh4.{compiler}.{id}", file=f"{K}/fresh4_{compiler}.py")
    return c


fresh4_case('matmul_f64_tiled', 'numba', 'matmul_f64_tiled', ['a=float64[40,40]', 'b=float64[40,40]',
            'c=float64[40,40]'], block=(16, 16), grid=(3, 3), block_index=(1, 2, 0))
fresh4_case('heat3d_step', 'numba', 'heat3d_step', ['u=float32[8,16,16]', 'out=float32[8,16,16]', 'alpha=0.1'],
            block=(8, 8, 4), grid=(2, 2, 2))
fresh4_case('sum_xor_shared', 'numba', 'sum_xor_shared', ['x=float32[1000]', 'partial=float32[4]'], block=(256,),
            grid=(4,))
fresh4_case('bitonic_int64', 'numba', 'bitonic_int64', ['keys=int64[1024]', 'out=int64[1024]'], block=(256,),
            grid=(2,))
fresh4_case('rgb_hist_u8', 'numba', 'rgb_hist_u8', ['img=uint8[24,40,3]', 'hist=uint32[3,256]:0..0'],
            block=(128,), grid=(3,))
fresh4_case('nbody_split4', 'numba', 'nbody_split4', ['px=float32[300]', 'py=float32[300]', 'pz=float32[300]',
            'm=float32[300]', 'ax=float32[300]', 'ay=float32[300]', 'az=float32[300]', 'soft2=0.01'], block=(64, 4),
            grid=(5,), block_index=(4, 0, 0))
fresh4_case('scan_double_buffer', 'numba', 'scan_double_buffer', ['x=int32[500]:0..9', 'out=int32[500]'],
            block=(256,), grid=(2,))
fresh4_case('scale_rows_explicit', 'numba', 'scale_rows_explicit', ['a=float32[20,50]', 's=float32[20]',
            'out=float32[20,50]'], block=(32, 8), grid=(2, 3))
fresh4_case('scatter_claim_cas', 'numba', 'scatter_claim_cas', ['keys=int32[200]:0..100000', 'table=int32[256]:-1..-1',
            'slots=int32[200]'], block=(128,), grid=(2,))
fresh4_case('fma_selp_int16', 'numba', 'fma_selp_int16', ['a=int16[200]:-1000..1000', 'b=int16[200]:-1000..1000',
            'mask=uint8[200]:0..1', 'out=int16[200]', 'gain=3'], block=(128,), grid=(2,))
fresh4_case('window_kth', 'numba', 'window_kth', ['x=float32[140]', 'out=float32[128]'], block=(128,))
fresh4_case('smooth_const_halo', 'numba', 'smooth_const_halo', ['x=float32[1500]', 'y=float32[1500]'], block=(256,),
            grid=(2,))
fresh4_case('phase_shift_c64', 'numba', 'phase_shift_c64', ['z=complex64[32,32]', 'out=complex64[32,32]', 'k=0.1'],
            block=(16, 16), grid=(2, 2))
fresh4_case('positives_per_warp', 'numba', 'positives_per_warp', ['x=float32[250]', 'warp_counts=int32[8]'],
            block=(128,), grid=(2,))
fresh4_case('plane_counts_3d', 'numba', 'plane_counts_3d', ['v=float32[4,8,16]', 'thresh=0.5', 'counts=int64[4]:0..0'],
            block=(16, 8, 2), grid=(1, 1, 2))
fresh4_case('ln_bwd_tile_partial', 'triton', 'ln_bwd_tile_partial', ['x_ptr=float16[30,300]',
            'dy_ptr=float16[30,300]', 'w_ptr=float16[300]', 'mean_ptr=float32[30]', 'rstd_ptr=float32[30]',
            'dx_ptr=float16[30,300]', 'dw_part_ptr=float32[4,300]', 'db_part_ptr=float32[4,300]', 'M=30', 'N=300',
            'stride=300'], constexprs={'BLOCK_M': 8, 'BLOCK_N': 512}, num_warps=8, grid=(4,), block_index=(3, 0, 0))
fresh4_case('ln_bwd_colsum', 'triton', 'ln_bwd_colsum', ['dw_part_ptr=float32[40,300]', 'db_part_ptr=float32[40,300]',
            'dw_ptr=float16[300]', 'db_ptr=float16[300]', 'P=40', 'N=300'], constexprs={'BLOCK_N': 128}, grid=(3,))
fresh4_case('linear_gelu_64', 'triton', 'linear_gelu', ['a_ptr=float16[100,96]', 'w_ptr=float16[96,120]',
            'bias_ptr=float16[120]', 'c_ptr=float16[100,120]', 'M=100', 'N=120', 'K=96', 'stride_am=96',
            'stride_wk=120', 'stride_cm=120'], constexprs={'BM': 64, 'BN': 64, 'BK': 32}, num_stages=2, grid=(2, 2))
fresh4_case('linear_gelu_128', 'triton', 'linear_gelu', ['a_ptr=float16[256,192]', 'w_ptr=float16[192,128]',
            'bias_ptr=float16[128]', 'c_ptr=float16[256,128]', 'M=256', 'N=128', 'K=192', 'stride_am=192',
            'stride_wk=128', 'stride_cm=128'], constexprs={'BM': 128, 'BN': 128, 'BK': 64}, num_warps=8,
            num_stages=3, grid=(2, 1))
fresh4_case('bmm_batched', 'triton', 'bmm_batched', ['a_ptr=float16[3,50,40]', 'b_ptr=float16[3,40,60]',
            'c_ptr=float16[3,50,60]', 'M=50', 'N=60', 'K=40', 'stride_ab=2000', 'stride_bb=2400', 'stride_cb=3000'],
            constexprs={'BM': 32, 'BN': 32, 'BK': 32}, grid=(2, 2, 3), block_index=(1, 0, 2))
fresh4_case('matmul_swizzle_bf16', 'triton', 'matmul_swizzle_bf16', ['a_ptr=float16[128,64]', 'b_ptr=float16[64,96]',
            'c_ptr=bfloat16[128,96]', 'M=128', 'N=96', 'K=64'], constexprs={'BM': 32, 'BN': 32, 'BK': 32,
            'GROUP_M': 2}, grid=(12,), block_index=(5, 0, 0))
fresh4_case('softmax_custom_reduce', 'triton', 'softmax_custom_reduce', ['x_ptr=float16[4,1000]',
            'y_ptr=float32[4,1000]', 'N=1000', 'stride=1000'], constexprs={'BLOCK': 1024}, grid=(4,))
fresh4_case('nll_log_softmax', 'triton', 'nll_log_softmax', ['logits_ptr=bfloat16[6,1500]',
            'target_ptr=int64[6]:-100..1499', 'loss_ptr=float32[6]', 'V=1500', 'stride=1500', 'ignore_index=-100'],
            constexprs={'BLOCK': 512}, grid=(6,))
fresh4_case('conv2d_implicit_gemm', 'triton', 'conv2d_implicit_gemm', ['x_ptr=float16[2,16,16,24]',
            'w_ptr=float16[216,32]', 'y_ptr=float16[2,256,32]', 'H=16', 'W=16', 'C=24', 'OC=32'],
            constexprs={'KH': 3, 'KW': 3, 'BP': 64, 'BOC': 32, 'BC': 16}, grid=(4, 1, 2), block_index=(2, 0, 1))
fresh4_case('depthwise_conv1d', 'triton', 'depthwise_conv1d', ['x_ptr=float16[2,64,150]', 'w_ptr=float32[64,4]',
            'y_ptr=float16[2,64,150]', 'C=64', 'L=150'], constexprs={'KSIZE': 4, 'BC': 32, 'BL': 64},
            grid=(2, 3, 2), block_index=(1, 2, 1))
fresh4_case('int8_matmul_dequant', 'triton', 'int8_matmul_dequant', ['a_ptr=int8[100,128]:-127..127',
            'b_ptr=int8[128,100]:-127..127', 'sa_ptr=float32[100]', 'sb_ptr=float32[100]', 'c_ptr=float16[100,100]',
            'M=100', 'N=100', 'K=128'], constexprs={'BM': 64, 'BN': 64, 'BK': 64}, grid=(2, 2))
fresh4_case('batched_transpose', 'triton', 'batched_transpose', ['x_ptr=float32[2,60,70]', 'y_ptr=float32[2,70,60]',
            'M=60', 'N=70'], constexprs={'BM': 32, 'BN': 32}, grid=(2, 3, 2), block_index=(1, 2, 1))
fresh4_case('token_histogram', 'triton', 'token_histogram', ['ids_ptr=int32[4000]:0..63', 'hist_ptr=int32[64]:0..0',
            'n=4000'], constexprs={'BLOCK': 1024, 'NBINS': 64}, grid=(4,))
fresh4_case('row_sort_topk', 'triton', 'row_sort_topk', ['x_ptr=float32[4,256]', 'out_ptr=float32[4,16]'],
            constexprs={'N': 256, 'K': 16}, grid=(4,))
fresh4_case('survival_cumprod', 'triton', 'survival_cumprod', ['p_ptr=float32[3,400]', 'out_ptr=float32[3,400]',
            'N=400', 'stride=400'], constexprs={'BLOCK': 512}, grid=(3,))
fresh4_case('dropout_seeded', 'triton', 'dropout_seeded', ['x_ptr=float32[4000]', 'y_ptr=float32[4000]',
            'keep_ptr=int8[4000]', 'n=4000', 'p=0.1', 'seed=1234'], constexprs={'BLOCK': 1024}, grid=(4,))
fresh4_case('welford_rows', 'triton', 'welford_rows', ['x_ptr=float16[4,768]', 'mean_ptr=float32[4]',
            'var_ptr=float32[4]', 'N=768', 'stride=768'], constexprs={'BLOCK': 1024}, grid=(4,))
fresh4_case('splitk_matmul', 'triton', 'splitk_matmul', ['a_ptr=float16[64,256]', 'b_ptr=float16[256,64]',
            'c_ptr=float32[64,64]', 'M=64', 'N=64', 'K=256'], constexprs={'SPLIT_K': 2, 'BM': 32, 'BN': 32, 'BK': 32,
            'EVEN_K': True}, num_warps=4, num_stages=2, grid=(2, 2, 2))


# ---- a fifth fresh batch of Python kernels (kernels/fresh5_numba.py, fresh5_triton.py): loops and control flow
#      (ragged rows from offsets, CSR SpMV a thread and a warp a row, binary searches, union-find by path halving, a
#      sentinel break, run lengths, early returns, grid-stride loops, if/elif edges) and LLM kernels (RMSNorm and
#      SwiGLU backward, paged-attention decode over a block table, rotary backward, int8 KV-cache stores, an fp8 dot,
#      tl.topk, cu_seqlens, unrolled and flattened loops, an autotuned soft-cap), written before their first recording
def fresh5_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh5_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh5.{compiler}.{id}", file=f"{K}/fresh5_{compiler}.py")
    return c


fresh5_case('ragged_row_mean', 'numba', 'ragged_row_mean', [f"offsets={npy('fresh2_bfs_offsets')}",
            'vals=float32[2170]', 'out=float32[300]'], block=(128,), grid=(3,))
fresh5_case('csr_spmv_scalar', 'numba', 'csr_spmv_scalar', [f"row_ptr={npy('csr_row_ptr')}",
            f"cols={npy('csr_cols')}", f"vals={npy('csr_vals')}", 'x=float32[512]', 'y=float32[64]'], block=(64,))
fresh5_case('csr_spmv_warp', 'numba', 'csr_spmv_warp', [f"row_ptr={npy('csr_row_ptr')}", f"cols={npy('csr_cols')}",
            f"vals={npy('csr_vals')}", 'x=float32[512]', 'y=float32[64]'], block=(128,), grid=(16,), block_index=(3,
            0, 0))
fresh5_case('searchsorted_left', 'numba', 'searchsorted_left', [f"sorted_keys={npy('fresh3_merge_a')}",
            'queries=int32[200]:0..2000', 'out=int32[200]'], block=(128,), grid=(2,))
fresh5_case('find_root_halving', 'numba', 'find_root_halving', ['rnd=int32[500]:0..100000', 'roots=int32[500]'],
            block=(128,), grid=(4,), block_index=(2, 0, 0))
fresh5_case('word_length_at', 'numba', 'word_length_at', [f"text={npy('fresh3_text')}", 'n=3001', 'out=int32[3001]'],
            block=(256,), grid=(12,), block_index=(5, 0, 0))
fresh5_case('positive_log1p', 'numba', 'positive_log1p', ['x=float32[300]', 'y=float32[300]', 'n=300'], block=(128,),
            grid=(3,))
fresh5_case('dequant_int16_stride', 'numba', 'dequant_int16_stride', ['q=int16[1000]:-30000..30000',
            'scales=float32[16]', 'out=float32[1000]', 'group=64'], block=(128,), grid=(3,))
fresh5_case('laplace_u8_edges', 'numba', 'laplace_u8_edges', ['img=uint8[40,40]:0..255', 'out=int16[40,40]'],
            block=(16, 16), grid=(3, 3), block_index=(2, 2, 0))
fresh5_case('box_blur_nested', 'numba', 'box_blur_nested', ['a=float32[36,50]', 'out=float32[36,50]', 'radius=2'],
            block=(32, 8), grid=(2, 5), block_index=(1, 4, 0))
fresh5_case('lower_tri_matvec', 'numba', 'lower_tri_matvec', ['L=float32[100,100]', 'x=float32[100]',
            'y=float32[100]'], block=(64,), grid=(2,))
fresh5_case('ballot_compact', 'numba', 'ballot_compact', ['x=float32[300]', 'out=float32[384]', 'counts=int32[12]'],
            block=(128,), grid=(3,))
fresh5_case('run_lengths', 'numba', 'run_lengths', [f"data={npy('fresh4_runs_2000')}", 'lens=int32[2000]'],
            block=(256,), grid=(8,), block_index=(1, 0, 0))
fresh5_case('warp_ragged_max', 'numba', 'warp_ragged_max', [f"offsets={npy('fresh2_bfs_offsets')}",
            'vals=float32[2170]', 'out=float32[300]', 'nrows=300'], block=(128,), grid=(75,), block_index=(10, 0, 0))
fresh5_case('shared_scan_until', 'numba', 'shared_scan_until', ['data=uint8[500]:0..255', 'limit=200',
            'out=int32[500]'], block=(128,), grid=(4,), block_index=(3, 0, 0))
fresh5_case('collatz_steps', 'numba', 'collatz_steps', ['starts=int64[128]:1..100000', 'steps=int32[128]'],
            block=(128,))
fresh5_case('row_normalise_guarded', 'numba', 'row_normalise_guarded', ['a=float32[20,700]'], block=(256,),
            grid=(20,))
fresh5_case('rmsnorm_bwd', 'triton', 'rmsnorm_bwd', ['dy_ptr=float16[30,768]', 'x_ptr=float16[30,768]',
            'w_ptr=float16[768]', 'rstd_ptr=float32[30]:0.5..2', 'dx_ptr=float16[30,768]',
            'dw_part_ptr=float32[4,768]', 'M=30', 'N=768', 'stride=768'], constexprs={'ROWS': 8, 'BLOCK': 1024},
            grid=(4,), num_warps=4)
fresh5_case('swiglu_bwd', 'triton', 'swiglu_bwd', ['dh_ptr=bfloat16[4,1376]', 'g_ptr=bfloat16[4,1376]',
            'u_ptr=bfloat16[4,1376]', 'dg_ptr=bfloat16[4,1376]', 'du_ptr=bfloat16[4,1376]', 'n_cols=1376',
            'stride=1376'], constexprs={'BLOCK': 512}, grid=(4, 3), block_index=(1, 2, 0), num_warps=4)
fresh5_case('paged_attn_decode', 'triton', 'paged_attn_decode', ['q_ptr=float16[2,4,64]',
            'k_cache_ptr=float16[16,16,4,64]', 'v_cache_ptr=float16[16,16,4,64]', 'block_table_ptr=int32[2,4]:0..15',
            'seq_lens_ptr=int32[2]:20..64', 'out_ptr=float16[2,4,64]', 'scale=0.125', 'max_blocks=4', 'num_heads=4'],
            constexprs={'D': 64, 'BS': 16}, grid=(2, 4), block_index=(1, 2, 0), num_warps=4)
fresh5_case('rotary_bwd', 'triton', 'rotary_bwd', ['dq_ptr=float16[16,8,128]', 'cos_ptr=float32[256,64]',
            'sin_ptr=float32[256,64]', 'pos_ptr=int64[16]:0..255', 'stride_tok=1024', 'stride_head=128'],
            constexprs={'HALF': 64}, grid=(16, 8), block_index=(5, 3, 0), num_warps=2)
fresh5_case('kv_quant_store_int8', 'triton', 'kv_quant_store_int8', ['k_ptr=float16[8,128]',
            'slot_ptr=int32[8]:0..31', 'cache_ptr=int8[32,128]', 'scale_ptr=float32[32]'], constexprs={'HD': 128,
            'BLOCK': 128}, grid=(8,), block_index=(2, 0, 0), num_warps=4)
fresh5_case('fp8_matmul_scaled', 'triton', 'fp8_matmul_scaled', ['a_ptr=float8_e4m3fn[80,96]',
            'b_ptr=float8_e4m3fn[96,64]', 'c_ptr=float16[80,64]', 'a_scale_ptr=float32[1]:0.5..0.5',
            'b_scale_ptr=float32[1]:0.25..0.25', 'M=80', 'N=64', 'K=96', 'stride_am=96', 'stride_bk=64',
            'stride_cm=64'], constexprs={'BM': 64, 'BN': 64, 'BK': 32}, grid=(2, 1), block_index=(1, 0, 0),
            num_warps=4, num_stages=3)
fresh5_case('topk_mask_logits', 'triton', 'topk_mask_logits', ['logits_ptr=float32[4,1000]',
            'temp_ptr=float32[4]:0.5..1.5', 'out_ptr=float32[4,1000]', 'V=1000', 'stride=1000'], constexprs={'K': 8,
            'BLOCK': 1024}, grid=(4,), num_warps=4)
fresh5_case('varlen_mean_pool', 'triton', 'varlen_mean_pool', ['x_ptr=float16[136,96]',
            f"cu_seqlens_ptr={npy('fresh_packet_offsets')}", 'out_ptr=float32[5,96]', 'D=96'], constexprs={'BLOCK_T':
            16, 'BLOCK_D': 64}, grid=(5, 2), block_index=(3, 1, 0), num_warps=4)
fresh5_case('scale_add_unrolled', 'triton', 'scale_add_unrolled', ['x_ptr=float32[4,1000]', 'r_ptr=float32[4,1000]',
            'y_ptr=float32[4,1000]', 'alpha=0.5', 'N=1000'], constexprs={'BLOCK': 256}, grid=(4,), num_warps=4)
fresh5_case('tile_sq_norms_flat', 'triton', 'tile_sq_norms_flat', ['x_ptr=float32[16,300]', 'out_ptr=float32[16]',
            'N=300'], constexprs={'ROWS': 4, 'BLOCK': 128}, grid=(4,), num_warps=2)
fresh5_case('bias_gelu_live', 'triton', 'bias_gelu_live', ['x_ptr=float16[8,768]', 'b_ptr=float16[768]',
            'y_ptr=float16[8,768]', 'n_live_ptr=int32[1]:5..5', 'N=768'], constexprs={'BLOCK': 1024}, grid=(8,),
            block_index=(2, 0, 0), num_warps=4)
fresh5_case('sum_over_h_n', 'triton', 'sum_over_h_n', ['x_ptr=float32[3,12,200]', 'out_ptr=float32[3]', 'H=12',
            'N=200', 'stride_b=2400', 'stride_h=200'], constexprs={'BLOCK_H': 16, 'BLOCK_N': 64}, grid=(3,),
            block_index=(1, 0, 0), num_warps=4)
fresh5_case('repetition_penalty', 'triton', 'repetition_penalty', ['logits_ptr=float32[4,1000]',
            'tokens_ptr=int32[4,48]:0..999', 'n_tokens_ptr=int32[4]:10..48', 'penalty=1.2', 'V=1000',
            'max_tokens=48'], constexprs={'BLOCK': 32}, grid=(4,), block_index=(1, 0, 0), num_warps=1)
fresh5_case('kl_div_rows', 'triton', 'kl_div_rows', ['logp_ptr=float32[4,2000]', 'logq_ptr=float32[4,2000]',
            'loss_ptr=float32[4]', 'V=2000', 'stride=2000'], constexprs={'BLOCK': 512}, grid=(4,), num_warps=4)
fresh5_case('alibi_causal_scores', 'triton', 'alibi_causal_scores', ['s_ptr=float32[8,80,80]',
            'slopes_ptr=float32[4]', 'T=80', 'H=4'], constexprs={'BQ': 32, 'BKV': 32}, grid=(8, 3, 3), block_index=(5,
            2, 1), num_warps=4)
fresh5_case('logit_softcap', 'triton', 'logit_softcap', ['logits_ptr=bfloat16[2,4096]', 'V=4096', 'stride=4096',
            'cap=30.0'], constexprs={'BLOCK': 1024, 'EVEN_N': True}, grid=(2,), num_warps=4)
# ---- the sixth fresh held-out batch of Python kernels (kernels/fresh6_numba.py, fresh6_triton.py): 2025-2026 ML and
# HPC Python (Triton tensor descriptors made in the kernel, persistent and pipelined matmuls, causal attention,
# split/join/permute/gather, custom scans and reductions, 2-D atomics, heuristics, int64 offsets, load hints;
# Numba device functions over padded 2-D/3-D shared tiles, fp16 and int8, constant and local arrays, tuple-indexed
# shared atomics, warp shuffles and votes, 2-D/3-D grid-stride loops), written before its first recording
def fresh6_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh6_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh6.{compiler}.{id}", file=f"{K}/fresh6_{compiler}.py")
    return c


fresh6_case('reduce_sum_textbook', 'numba', 'reduce_sum_textbook', ['x=float32[5000]', 'partials=float32[4]'],
            block=(256,), grid=(4,), block_index=(2, 0, 0))
fresh6_case('matmul_f64_2rows', 'numba', 'matmul_f64_2rows', ['A=float64[40,48]', 'B=float64[48,36]',
            'C=float64[40,36]'], block=(16, 16), grid=(3, 2), block_index=(2, 1, 0))
fresh6_case('image_hist_u8', 'numba', 'image_hist_u8', ['img=uint8[60,90]:0..255', 'hist=int32[256]:0..0'],
            block=(32, 8), grid=(2, 2), block_index=(1, 0, 0))
fresh6_case('transpose_i16', 'numba', 'transpose_i16', ['src=int16[70,100]:-1000..1000', 'dst=int16[100,70]'],
            block=(32, 8), grid=(4, 3), block_index=(3, 2, 0))
fresh6_case('smooth9_halo', 'numba', 'smooth9_halo', ['a=float32[40,44]', 'out=float32[40,44]'], block=(16, 16),
            grid=(3, 3), block_index=(2, 0, 0))
fresh6_case('diffuse_fp16', 'numba', 'diffuse_fp16', ['x=float16[300]', 'y=float16[300]', 'alpha=float16[1]:0.2..0.2'],
            block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh6_case('int8_gemv_warp', 'numba', 'int8_gemv_warp', ['W=int8[40,320]:-127..127', 'x=int8[320]:-127..127',
            'scales=float32[40]:0.001..0.01', 'y=float32[40]'], block=(256,), grid=(5,), block_index=(4, 0, 0))
fresh6_case('gauss7_const_local', 'numba', 'gauss7_const_local', ['x=float32[1200]', 'y=float32[1200]'],
            block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh6_case('outlier_votes', 'numba', 'outlier_votes', ['x=float32[300]:-2..2', 'thresh=1.5', 'warp_counts=int32[10]',
            'first_lane=int32[10]', 'block_max=int32[3]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh6_case('warp_softmax64', 'numba', 'warp_softmax64', ['x=float32[20,64]:-4..4', 'y=float32[20,64]'],
            block=(128,), grid=(5,), block_index=(1, 0, 0))
fresh6_case('smooth7_3d', 'numba', 'smooth7_3d', ['u=float32[10,20,20]', 'out=float32[10,20,20]'], block=(8, 8, 4),
            grid=(3, 3, 3), block_index=(2, 1, 2))
fresh6_case('group_col_absmax', 'numba', 'group_col_absmax', ['q=int8[200,48]:-127..127', 'group_rows=16',
            'out=int32[4,48]:0..0'], block=(32, 8), grid=(2, 2), block_index=(1, 1, 0))
fresh6_case('affine_2d_gridstride', 'numba', 'affine_2d_gridstride', ['a=float32[100,130]', 'gain=float32[130]',
            'bias=float32[100]', 'out=float32[100,130]'], block=(32, 8), grid=(2, 3), block_index=(1, 2, 0))
fresh6_case('block_scan_shfl', 'numba', 'block_scan_shfl', ['counts=int32[700]:0..9', 'offsets=int32[700]',
            'block_totals=int32[3]'], block=(256,), grid=(3,), block_index=(2, 0, 0))
fresh6_case('layernorm_fwd_block', 'numba', 'layernorm_fwd_block', ['x=float32[6,700]', 'gamma=float32[700]',
            'beta=float32[700]', 'y=float32[6,700]', 'mean_out=float32[6]', 'rstd_out=float32[6]', 'eps=1e-5'],
            block=(256,), grid=(6,), block_index=(3, 0, 0))
fresh6_case('pack_mask_bits', 'numba', 'pack_mask_bits', ['x=float32[1000]:-1..1', 'threshold=0.3',
            'words=uint32[32]'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh6_case('desc_rowscale_cast', 'triton', 'desc_rowscale_cast', ['src_ptr=float16[96,200]',
            'dst_ptr=bfloat16[96,200]', 'scale_ptr=float32[96]:0.5..2', 'M=96', 'N=200'],
            constexprs={'BM': 32, 'BN': 64}, grid=(3,), block_index=(1, 0, 0), num_warps=4)
fresh6_case('desc_matmul', 'triton', 'desc_matmul', ['a_ptr=float16[128,96]', 'b_ptr=float16[96,128]',
            'c_ptr=float16[128,128]', 'M=128', 'N=128', 'K=96'], constexprs={'BM': 64, 'BN': 64, 'BK': 32,
            'STAGES': 3}, grid=(2, 2), block_index=(1, 0, 0), num_warps=4, num_stages=3)
fresh6_case('persistent_linear', 'triton', 'persistent_linear', ['x_ptr=bfloat16[192,128]', 'w_ptr=bfloat16[160,128]',
            'y_ptr=bfloat16[192,160]', 'M=192', 'N=160', 'K=128'], constexprs={'BM': 64, 'BN': 64, 'BK': 64,
            'NUM_SMS': 4}, grid=(4,), block_index=(1, 0, 0), num_warps=4, num_stages=3)
fresh6_case('attn_fwd_causal_desc', 'triton', 'attn_fwd_causal_desc', ['q_ptr=float16[2,128,64]',
            'k_ptr=float16[2,128,64]', 'v_ptr=float16[2,128,64]', 'o_ptr=float16[2,128,64]', 'sm_scale=0.125',
            'T=128', 'ZH=2'], constexprs={'HEAD_D': 64, 'BLOCK_M': 64, 'BLOCK_N': 32}, grid=(2, 2),
            block_index=(1, 1, 0), num_warps=4, num_stages=2)
for stages, bk in ((1, 16), (2, 32), (4, 64)):
    fresh6_case(f'matmul_grouped_bf16.s{stages}.k{bk}', 'triton', 'matmul_grouped_bf16', ['a_ptr=bfloat16[160,120]',
                'b_ptr=bfloat16[120,96]', 'c_ptr=bfloat16[160,96]', 'M=160', 'N=96', 'K=120', 'stride_am=120',
                'stride_ak=1', 'stride_bk=96', 'stride_bn=1', 'stride_cm=96', 'stride_cn=1'],
                constexprs={'BLOCK_M': 64, 'BLOCK_N': 32, 'BLOCK_K': bk, 'GROUP_M': 2}, grid=(9,),
                block_index=(4, 0, 0), num_warps=4, num_stages=stages)
fresh6_case('gram_fp32_ieee', 'triton', 'gram_fp32_ieee', ['x_ptr=float32[300,48]', 'g_ptr=float32[48,48]',
            'n_rows=300', 'D=48'], constexprs={'BD': 32, 'BK': 32}, grid=(2, 2), block_index=(1, 0, 0), num_warps=4,
            num_stages=2)
fresh6_case('rope_interleaved', 'triton', 'rope_interleaved', ['x_ptr=float16[40,4,64]', 'cos_ptr=float32[40,32]',
            'sin_ptr=float32[40,32]', 'out_ptr=float16[40,4,64]', 'T=40', 'stride_t=256', 'stride_h=64'],
            constexprs={'D': 64, 'BT': 16}, grid=(3, 4), block_index=(2, 1, 0), num_warps=2)
fresh6_case('qkv_split_heads', 'triton', 'qkv_split_heads', ['qkv_ptr=float16[50,384]', 'q_out_ptr=float16[4,50,32]',
            'T=50'], constexprs={'H': 4, 'D': 32, 'BT': 16}, grid=(4,), block_index=(3, 0, 0), num_warps=4)
fresh6_case('apply_row_permutation', 'triton', 'apply_row_permutation', ['vals_ptr=float32[24,64]',
            f"perm_ptr={npy('fresh6py_row_perm_24x64')}", 'out_ptr=float32[24,64]', 'R=24'], constexprs={'C': 64,
            'BR': 8}, grid=(3,), block_index=(1, 0, 0), num_warps=2)
fresh6_case('packed_doc_cumsum', 'triton', 'packed_doc_cumsum', ['val_ptr=float32[12,128]',
            f"bos_ptr={npy('fresh6py_doc_bos_12x128')}", 'out_ptr=float32[12,128]', 'R=12'], constexprs={'L': 128,
            'BR': 4}, grid=(3,), block_index=(2, 0, 0), num_warps=4)
fresh6_case('maxplus_recurrence', 'triton', 'maxplus_recurrence', ['a_ptr=float32[4,700]:-1..0.2',
            'b_ptr=float32[4,700]:-2..2', 'h_ptr=float32[4,700]', 'L=700', 'stride=700'], constexprs={'BLOCK': 256},
            grid=(4,), block_index=(1, 0, 0), num_warps=4)
fresh6_case('greedy_argmax', 'triton', 'greedy_argmax', ['logits_ptr=float16[10,1000]:-3..3', 'out_ptr=int32[10]',
            'R=10', 'V=1000', 'stride=1000'], constexprs={'BR': 4, 'BV': 256}, grid=(3,), block_index=(2, 0, 0),
            num_warps=4)
fresh6_case('time_cumsum', 'triton', 'time_cumsum', ['x_ptr=float32[300,96]', 'y_ptr=float32[300,96]', 'T=300',
            'C=96'], constexprs={'BT': 64, 'BC': 32}, grid=(3,), block_index=(1, 0, 0), num_warps=4)
fresh6_case('embedding_bwd_atomic', 'triton', 'embedding_bwd_atomic', ['ids_ptr=int32[100]:0..49',
            'dy_ptr=float16[100,96]', 'dw_ptr=float32[50,96]:0..0', 'N=100', 'D=96'], constexprs={'BN': 32,
            'BD': 64}, grid=(4, 2), block_index=(3, 1, 0), num_warps=4)
fresh6_case('moe_router_stats', 'triton', 'moe_router_stats', [f"topk_ids_ptr={npy('fresh6py_topk_ids_200x2')}",
            'counts_ptr=int32[16]:0..0', 'last_tok_ptr=int32[16]:0..0', 'n_tokens=200'], constexprs={'TOPK': 2,
            'BT': 64}, grid=(4,), block_index=(3, 0, 0), num_warps=2)
fresh6_case('ragged_log_softmax', 'triton', 'ragged_log_softmax', ['x_ptr=float32[10,200]',
            f"lens_ptr={npy('fresh6py_ragged_lens_10')}", 'y_ptr=float32[10,200]', 'B=10', 'LMAX=200'],
            constexprs={'BR': 4, 'BL': 256}, grid=(3,), block_index=(1, 0, 0), num_warps=4)
for n, even in ((512, True), (500, False)):
    fresh6_case(f'gemv_bf16.n{n}', 'triton', 'gemv_bf16', [f'w_ptr=bfloat16[96,{n}]', f'x_ptr=bfloat16[{n}]',
                'y_ptr=bfloat16[96]', 'M=96', f'N={n}', f'stride_wm={n}'], constexprs={'BM': 32, 'BN': 128,
                'EVEN_N': even}, grid=(3,), block_index=(1, 0, 0), num_warps=4)
fresh6_case('kv_copy_blocks', 'triton', 'kv_copy_blocks', ['key_cache_ptr=float16[32,16,4,32]',
            'value_cache_ptr=float16[32,16,4,32]', f"mapping_ptr={npy('fresh6py_kv_block_mapping')}",
            'block_numel=2048'], constexprs={'BLOCK': 1024}, grid=(6,), block_index=(2, 0, 0), num_warps=4)
fresh6_case('mse_fwd_bwd', 'triton', 'mse_fwd_bwd', ['pred_ptr=bfloat16[4,3000]', 'target_ptr=bfloat16[4,3000]',
            'grad_ptr=bfloat16[4,3000]', 'loss_ptr=float32[4]', 'N=3000', 'stride=3000'],
            constexprs={'BLOCK': 1024, 'STAGES': 3}, grid=(4,), block_index=(2, 0, 0), num_warps=4, num_stages=3)
# ---- the seventh fresh held-out batch of Python kernels (kernels/fresh7_numba.py, fresh7_triton.py): what Python GPU
# code of 2026 does that the earlier batches did not. Numba: complex64/complex128 (an in-shared FFT, a complex
# multiply-accumulate), cuda.fp16 intrinsics, uint16/bool/int64 arrays and int64 shared atomics, module-level arrays
# as constants beside cuda.const.array_like, dynamic shared memory sliced into views (one viewed as int32), a
# compare-and-swap spin lock with threadfence and selp, brev/clz/ffs/popc/fma, tuple-returning device functions, a
# local-array stack over a shared max-tree, a 3-D volume walked along its slow axis, odd-even merge sort, a float64
# accumulator over float32 tiles, a 2-D prefix sum. Triton: philox dropout, sort/topk sampling prep, histogram,
# a tuple associative scan (a chunked selective-scan recurrence), cumprod, batched 3-D dots, int8 dots to int32,
# out_dtype/acc= dots, tf32x3, interleave/cat/reshape reductions, libdevice, cache and eviction hints, a layer-norm
# backward under an atomic_cas lock, a grouped GEMM whose operand pointers come from an int64 table, nan-padded
# descriptors (Triton 3.9 removed block pointers), swizzle2d with multiple_of/max_contiguous, fp8 per-token
# quantisation, int4 unpacking before a dot, a fused linear cross-entropy chunk and chunked linear attention;
# written before its first recording
def fresh7_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh7_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh7.{compiler}.{id}", file=f"{K}/fresh7_{compiler}.py")
    return c


fresh7_case('fft64_shared_c64', 'numba', 'fft64_shared_c64', ['x=complex64[4,64]', 'out=complex64[4,64]'],
            block=(32,), grid=(4,), block_index=(2, 0, 0))
fresh7_case('cmac_rows_c128', 'numba', 'cmac_rows_c128', ['A=complex128[300,96]', 'x=complex128[96]',
            'y=complex128[300]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh7_case('fp16_leaky_flip', 'numba', 'fp16_leaky_flip', ['x=float16[1000]:-2..2', 'y=float16[1000]',
            'slope=float16[1]:0.1..0.1', 'scale=float16[1]:1.5..1.5'], block=(128,), grid=(8,), block_index=(7, 0, 0))
fresh7_case('masked_code_sums', 'numba', 'masked_code_sums', ['mask=bool[3000]:0..1', 'codes=uint16[3000]:0..65535',
            'weights=int64[3000]:-1000..1000', 'sums=int64[64]:0..0'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh7_case('cheb_approx_const', 'numba', 'cheb_approx_const', ['x=float32[1000]:-2..2', 'y=float32[1000]'],
            block=(128,), grid=(4,), block_index=(3, 0, 0))
fresh7_case('softmax_argmax_dyn', 'numba', 'softmax_argmax_dyn', ['x=float32[6,256]:-4..4', 'y=float32[6,256]',
            'amax=int32[6]'], block=(128,), grid=(6,), block_index=(4, 0, 0), dyn=(256 + 2 * 128) * 4)
fresh7_case('locked_sum_max', 'numba', 'locked_sum_max', ['x=float32[2000]', 'lock=int32[1]:0..0',
            'totals=float32[2]:0..0'], block=(256,), grid=(8,), block_index=(5, 0, 0))
fresh7_case('bitmask_stats', 'numba', 'bitmask_stats', ['words=uint32[1000]:0..300000', 'offsets=int32[1000]',
            'lowbit=int32[1000]', 'reversed_words=uint32[1000]', 'density=float32[1000]', 'clz_hist=int32[33]:0..0'],
            block=(128,), grid=(8,), block_index=(7, 0, 0))
fresh7_case('minmax_argmin', 'numba', 'minmax_argmin', ['x=float32[5000]', 'out_min=float32[4]', 'out_max=float32[4]',
            'out_arg=int32[4]'], block=(256,), grid=(4,), block_index=(1, 0, 0))
fresh7_case('maxtree_count_above', 'numba', 'maxtree_count_above', ['leaves=float32[4,128]:0..1',
            'queries=float32[4,128]:0.5..1', 'counts=int32[4,128]'], block=(128,), grid=(4,), block_index=(2, 0, 0))
fresh7_case('sum_over_y_slow_axis', 'numba', 'sum_over_y_slow_axis', ['v=float32[20,12,40]', 'out=float32[20,40]'],
            block=(16, 8), grid=(2, 3), block_index=(1, 2, 0))
fresh7_case('odd_even_merge_sort_kv', 'numba', 'odd_even_merge_sort_kv', ['keys=int32[768]:0..1000',
            'vals=float32[768]', 'out_keys=int32[768]', 'out_vals=float32[768]'], block=(128,), grid=(3,),
            block_index=(1, 0, 0))
for bi in ((2, 3, 0), (1, 1, 0)):
    fresh7_case(f'matmul_f32_tiles_f64_acc.b{bi[0]}{bi[1]}', 'numba', 'matmul_f32_tiles_f64_acc',
                ['A=float32[50,70]', 'B=float32[70,40]', 'C=float32[50,40]'], block=(16, 16), grid=(3, 4),
                block_index=bi)
fresh7_case('tile_summed_area', 'numba', 'tile_summed_area', ['img=float32[64,90]', 'sat=float32[64,90]'],
            block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh7_case('dropout_rowseed.b256', 'triton', 'dropout_rowseed', ['x_ptr=float32[6,1000]',
            'seed_ptr=int32[6]:0..100000', 'out_ptr=float32[6,1000]', 'N=1000', 'stride=1000', 'p=0.1'],
            constexprs={'BLOCK': 256}, grid=(6,), block_index=(3, 0, 0), num_warps=2)
fresh7_case('dropout_rowseed.b1024', 'triton', 'dropout_rowseed', ['x_ptr=float32[6,1000]',
            'seed_ptr=int32[6]:0..100000', 'out_ptr=float32[6,1000]', 'N=1000', 'stride=1000', 'p=0.1'],
            constexprs={'BLOCK': 1024}, grid=(6,), block_index=(5, 0, 0), num_warps=8)
fresh7_case('topk_sampling_prep', 'triton', 'topk_sampling_prep', ['logits_ptr=float16[6,1000]:-5..5',
            'probs_ptr=float32[6,16]', 'ids_ptr=int32[6,16]', 'cdf_ptr=float32[6,16]', 'V=1000', 'stride=1000',
            'inv_temp=1.25'], constexprs={'BV': 1024, 'K': 16}, grid=(6,), block_index=(2, 0, 0), num_warps=4)
fresh7_case('token_histogram', 'triton', 'token_histogram', ['ids_ptr=int32[3000]:0..127', 'hist_ptr=int32[128]:0..0',
            'N=3000'], constexprs={'NB': 128, 'BLOCK': 512}, grid=(6,), block_index=(5, 0, 0), num_warps=4)
for bd, chunk, nw, grid, bi in ((16, 64, 4, (2, 2), (1, 1, 0)), (32, 32, 2, (1, 2), (0, 1, 0))):
    fresh7_case(f'selective_scan_chunked.d{bd}c{chunk}', 'triton', 'selective_scan_chunked',
                ['a_ptr=float32[2,32,200]:0.8..1', 'b_ptr=float32[2,32,200]:-1..1', 'h_ptr=float32[2,32,200]',
                 'hlast_ptr=float32[2,32]', 'D=32', 'L=200'], constexprs={'BD': bd, 'CHUNK': chunk}, grid=grid,
                block_index=bi, num_warps=nw)
fresh7_case('survival_cumprod', 'triton', 'survival_cumprod', ['hazard_ptr=float32[6,300]:0..0.1',
            'surv_ptr=float32[6,300]', 'life_ptr=float32[6]', 'L=300', 'stride=300'], constexprs={'BLOCK': 512},
            grid=(6,), block_index=(4, 0, 0), num_warps=4)
fresh7_case('bmm_3d_dot', 'triton', 'bmm_3d_dot', ['a_ptr=float16[4,48,64]', 'b_ptr=float16[4,64,40]',
            'c_ptr=float16[4,48,40]', 'NB=4', 'M=48', 'N=40', 'K=64'], constexprs={'BB': 2, 'BM': 16, 'BN': 32,
            'BK': 32}, grid=(2, 3, 2), block_index=(1, 2, 1), num_warps=4, num_stages=2)
for stages in (2, 3):
    fresh7_case(f'w8a8_linear.s{stages}', 'triton', 'w8a8_linear', ['x_ptr=int8[96,128]:-127..127',
                'w_ptr=int8[64,128]:-127..127', 'xs_ptr=float32[96]:0.001..0.01', 'ws_ptr=float32[64]:0.001..0.01',
                'y_ptr=float16[96,64]', 'M=96', 'N=64', 'K=128'], constexprs={'BM': 32, 'BN': 64, 'BK': 64},
                grid=(3, 1), block_index=(1, 0, 0), num_warps=4, num_stages=stages)
fresh7_case('lora_linear', 'triton', 'lora_linear', ['x_ptr=float16[64,96]:-1..1', 'w_ptr=float16[96,64]:-0.1..0.1',
            'a_ptr=float16[96,16]:-0.1..0.1', 'b_ptr=float16[16,64]:-0.1..0.1', 'y_ptr=float16[64,64]', 'M=64', 'N=64',
            'K=96', 'scaling=0.5'], constexprs={'R': 16, 'BM': 32, 'BN': 32, 'BK': 32}, grid=(2, 2),
            block_index=(1, 1, 0), num_warps=4, num_stages=2)
fresh7_case('cross_cov_tf32x3', 'triton', 'cross_cov_tf32x3', ['x_ptr=float32[300,48]', 'y_ptr=float32[300,40]',
            'mx_ptr=float32[48]', 'my_ptr=float32[40]', 'c_ptr=float32[48,40]', 'n=300', 'P=48', 'Q=40'],
            constexprs={'BP': 32, 'BQ': 32, 'BK': 32}, grid=(2, 2), block_index=(1, 1, 0), num_warps=4,
            num_stages=2)
fresh7_case('pack_kv_interleaved', 'triton', 'pack_kv_interleaved', ['k_ptr=float16[50,64]', 'v_ptr=float16[50,64]',
            'kv_ptr=float16[50,128]', 'amax_ptr=float32[1]:0..0', 'knorm_ptr=float32[50]', 'T=50'],
            constexprs={'D': 64, 'BT': 16}, grid=(4,), block_index=(3, 0, 0), num_warps=4)
for act in ('gelu_erf', 'gelu_tanh', 'relu2'):
    fresh7_case(f'activation_libdevice.{act}', 'triton', 'activation_libdevice', ['x_ptr=bfloat16[3000]:-4..4',
                'y_ptr=bfloat16[3000]', 'n=3000'], constexprs={'ACT': act, 'BLOCK': 1024}, grid=(3,),
                block_index=(2, 0, 0), num_warps=4)
fresh7_case('add_rmsnorm_hints', 'triton', 'add_rmsnorm_hints', ['x_ptr=float16[8,768]', 'res_ptr=float16[8,768]',
            'w_ptr=float16[768]', 'out_ptr=float16[8,768]', 'res_out_ptr=float16[8,768]', 'N=768', 'stride=768',
            'eps=1e-6'], constexprs={'BLOCK': 1024}, grid=(8,), block_index=(6, 0, 0), num_warps=4)
fresh7_case('ln_bwd_grouped_lock', 'triton', 'ln_bwd_grouped_lock', ['x_ptr=float16[16,300]', 'dy_ptr=float16[16,300]',
            'w_ptr=float16[300]', 'mean_ptr=float32[16]:-0.1..0.1', 'rstd_ptr=float32[16]:0.5..2',
            'dx_ptr=float16[16,300]', 'dw_acc_ptr=float32[4,300]:0..0', 'db_acc_ptr=float32[4,300]:0..0',
            'lock_ptr=int32[8]:0..0', 'M=16', 'N=300'], constexprs={'ROWS': 2, 'GROUP': 4, 'BLOCK': 512},
            grid=(8,), block_index=(5, 0, 0), num_warps=4)
fresh7_case('grouped_gemm_table', 'triton', 'grouped_gemm_table', ['a_base=float16[6400]:-1..1',
            'b_base=float16[6400]:-1..1', 'c_base=float16[7424]', f"a_off_ptr={npy('fresh7py_gg_a_off')}",
            f"b_off_ptr={npy('fresh7py_gg_b_off')}", f"c_off_ptr={npy('fresh7py_gg_c_off')}",
            f"dims_ptr={npy('fresh7py_gg_dims')}", 'G=3'], constexprs={'NUM_PROGS': 4, 'BM': 32, 'BN': 32, 'BK': 32},
            grid=(4,), block_index=(1, 0, 0), num_warps=4, num_stages=2)
fresh7_case('desc_nanpad_colmax', 'triton', 'desc_nanpad_colmax', ['x_ptr=float32[100,200]', 'out_ptr=float32[200]',
            'M=100', 'N=200'], constexprs={'BM': 32, 'BN': 64}, grid=(4,), block_index=(3, 0, 0), num_warps=4)
fresh7_case('matmul_swizzle2d', 'triton', 'matmul_swizzle2d', ['a_ptr=float16[128,96]', 'b_ptr=float16[96,80]',
            'c_ptr=float16[128,80]', 'M=128', 'N=80', 'K=96', 'stride_am=96', 'stride_bk=80', 'stride_cm=80'],
            constexprs={'BM': 64, 'BN': 32, 'BK': 32, 'GROUP': 2}, grid=(6,), block_index=(3, 0, 0), num_warps=4,
            num_stages=3)
for nw, bi in ((4, 5), (1, 2)):
    fresh7_case(f'fp8_per_token_quant.w{nw}', 'triton', 'fp8_per_token_quant', ['x_ptr=bfloat16[24,512]:-3..3',
                'q_ptr=float8_e4m3fn[24,512]', 's_ptr=float32[24]', 'T=24', 'H=512'], constexprs={'BT': 4, 'BH': 512},
                grid=(6,), block_index=(bi, 0, 0), num_warps=nw)
fresh7_case('w4a16_linear', 'triton', 'w4a16_linear', ['x_ptr=float16[32,256]:-1..1', 'wq_ptr=uint8[128,128]:0..255',
            'sc_ptr=float16[128,4]:0.01..0.05', 'y_ptr=float16[32,128]', 'M=32', 'N=128', 'K=256'],
            constexprs={'G': 64, 'BM': 16, 'BN': 64, 'BK': 64}, grid=(2, 2), block_index=(1, 1, 0), num_warps=4,
            num_stages=2)
fresh7_case('linear_xent_chunk', 'triton', 'linear_xent_chunk', ['h_ptr=bfloat16[40,64]:-1..1',
            'w_ptr=bfloat16[500,64]:-0.2..0.2', 'tgt_ptr=int32[40]:0..499', 'loss_ptr=float32[40]',
            'lse_ptr=float32[40]', 'T=40', 'V=500'], constexprs={'D': 64, 'BT': 16, 'BV': 64}, grid=(3,),
            block_index=(2, 0, 0), num_warps=4)
fresh7_case('chunked_linear_attn', 'triton', 'chunked_linear_attn', ['q_ptr=float16[4,100,16]:-0.5..0.5',
            'k_ptr=float16[4,100,16]:-0.5..0.5', 'v_ptr=float16[4,100,16]:-0.5..0.5', 'o_ptr=float16[4,100,16]',
            'T=100'], constexprs={'D': 16, 'C': 16}, grid=(4,), block_index=(2, 0, 0), num_warps=2)


# ---- Triton warp specialisation (tests/data/analyze/ws_matmul.py): a tensor-descriptor matmul with
# `tl.range(..., warp_specialize=True)` (Triton 3.9 on sm_90: 384-thread programs, a default partition issuing the
# TMA loads and two wgmma consumer warp groups, mbarriers and named barriers between them) and the same without
for _k in ("mm_ws", "mm_plain"):
    _c = fresh7_case(_k, 'triton', _k, ['a_ptr=float16[256,256]', 'b_ptr=float16[256,256]', 'c_ptr=float16[256,256]',
                                        'M=256', 'N=256', 'K=256'], constexprs={'BM': 128, 'BN': 128, 'BK': 64},
                     grid=(2, 2), num_warps=4, num_stages=3)
    _c.update(id=f"ws.triton.{_k}", file="tests/data/analyze/ws_matmul.py")
    if _k == "mm_ws":
        _c["block"] = [384, 1, 1]  # the PTX's .reqntid: the consumers' warp groups beside the default partition
# ---- the eighth fresh held-out batch of Python kernels (kernels/fresh8_numba.py, fresh8_triton.py): the classics
# ported to numba-cuda and the fused LLM kernels of 2026 that the earlier batches did not cover. Numba: a heat-equation
# step over a haloed shared tile, an n-body tile (positions as three arrays), Mandelbrot escape times (data-dependent
# trip counts) with a shared histogram, a uint8 histogram with per-warp sub-histograms (uniform and skewed data), a
# transpose of src[::2, :] sliced in the kernel, a bitonic key/value sort, a Blelloch scan with conflict-free padding,
# a CSR mat-vec a warp a row (x gathered from shared, shfl_down_sync), a middle-axis reduction of a 3-D array, a
# float16 stencil on cuda.fp16, float32/int64 atomic max/min, atomic inc/exch on a shared ring, syncthreads_count/or
# with activemask/lanemask_lt compaction, a uint8 RGB box filter. Triton: GeGLU and SwiGLU forward and backward, NeoX
# RoPE on (B, H, S, D), a label-smoothed cross-entropy with ignore_index and its gradient, RMSNorm backward with
# partial dW, KL divergence, causal flash attention (head_dim 64 and 32), paged-attention decode over an int32 block
# table, MoE expert counts (tl.atomic_add) and block-aligned sort, an int8 weight-only matmul, a 2:4 pruned matmul, a
# KV-cache append into the split-x layout, fused add + LayerNorm, group norm, a causal conv1d (width 4), a top-p mask
# by tl.sort/tl.cumsum, varlen-to-padded ragged 2-D tiles, a weight gradient through tl.trans, a column-major operand
# read through a tensor descriptor (no block pointers in Triton 3.9); written before its first recording
def fresh8_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh8_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh8.{compiler}.{id}", file=f"{K}/fresh8_{compiler}.py")
    return c


_F8 = _fresh8py_data()
_F8NNZ = int(_F8["fresh8py_csr_row_ptr_48"][-1])
_F8TOK = int(_F8["fresh8py_cu_seqlens_4"][-1])
for bi in ((2, 2, 0), (1, 1, 0)):
    fresh8_case(f'heat2d_step.b{bi[0]}{bi[1]}', 'numba', 'heat2d_step', ['u=float32[40,44]', 'u_new=float32[40,44]',
                'r=0.2'], block=(16, 16), grid=(3, 3), block_index=bi)
fresh8_case('nbody_accel', 'numba', 'nbody_accel', ['px=float32[300]', 'py=float32[300]', 'pz=float32[300]',
            'mass=float32[300]:0.1..1', 'ax=float32[300]', 'ay=float32[300]', 'az=float32[300]', 'soft2=0.01'],
            block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh8_case('mandelbrot_escape', 'numba', 'mandelbrot_escape', ['img=uint8[4,200]', 'counts=int32[65]:0..0',
            'x0=-2.2', 'y0=-0.9', 'dx=0.0125', 'dy=0.6'], block=(128,), grid=(2, 4), block_index=(1, 1, 0))
fresh8_case('hist_u8_per_warp.uniform', 'numba', 'hist_u8_per_warp', ['data=uint8[6000]:0..255',
            'hist=int32[256]:0..0'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh8_case('hist_u8_per_warp.dark', 'numba', 'hist_u8_per_warp', [f"data={npy('fresh8py_u8_dark_6000')}",
            'hist=int32[256]:0..0'], block=(256,), grid=(4,), block_index=(1, 0, 0))
fresh8_case('transpose_even_rows', 'numba', 'transpose_even_rows', ['src=float32[100,72]', 'dst=float32[72,50]'],
            block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh8_case('bitonic_sort_kv', 'numba', 'bitonic_sort_kv', ['keys=int32[768]:0..5000', 'vals=float32[768]',
            'out_keys=int32[768]', 'out_vals=float32[768]'], block=(128,), grid=(3,), block_index=(1, 0, 0))
for b in (0, 2):
    fresh8_case(f'blelloch_scan_cf.b{b}', 'numba', 'blelloch_scan_cf', ['x=float32[1400]', 'y=float32[1400]',
                'sums=float32[3]'], block=(256,), grid=(3,), block_index=(b, 0, 0))
fresh8_case('csr_spmv_warp', 'numba', 'csr_spmv_warp', [f"row_ptr={npy('fresh8py_csr_row_ptr_48')}",
            f"col_idx={npy('fresh8py_csr_cols_48x200')}", f'vals=float32[{_F8NNZ}]', 'x=float32[200]',
            'y=float32[48]'], block=(128,), grid=(4,), block_index=(3, 0, 0))
fresh8_case('reduce_axis1_3d', 'numba', 'reduce_axis1_3d', ['a=float32[2,50,70]', 'out_sum=float32[2,70]',
            'out_max=float32[2,70]'], block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh8_case('smooth5_fp16', 'numba', 'smooth5_fp16', ['x=float16[500]:-1..1', 'y=float16[500]',
            'w=float16[5]:0.1..0.3'], block=(128,), grid=(4,), block_index=(3, 0, 0))
fresh8_case('column_extrema_atomic', 'numba', 'column_extrema_atomic', ['x=float32[400,32]:-10..10',
            'stamps=int64[400,32]:0..1000000000000', 'fmax=float32[32]:-1e30..-1e30', 'fmin=float32[32]:1e30..1e30',
            'tmax=int64[32]:0..0', 'tmin=int64[32]:2000000000000..2000000000000'], block=(32, 8), grid=(1, 4),
            block_index=(0, 3, 0))
fresh8_case('ring_inc_exch', 'numba', 'ring_inc_exch', ['vals=int32[500]:0..100000', 'displaced=int32[500]',
            'ring_out=int32[4,64]', 'ticks=uint32[4]'], block=(128,), grid=(4,), block_index=(2, 0, 0))
fresh8_case('compact_positive', 'numba', 'compact_positive', ['x=float32[1000]', 'out=float32[1024]',
            'kept=int32[4]', 'flags=int32[4]'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh8_case('rgb_gray_box3', 'numba', 'rgb_gray_box3', ['rgb=uint8[24,70,3]:0..255', 'out=uint8[24,70]'],
            block=(32, 8), grid=(3, 3), block_index=(2, 2, 0))
fresh8_case('geglu_tanh_fwd', 'triton', 'geglu_tanh_fwd', ['a_ptr=bfloat16[6,1000]:-3..3', 'b_ptr=bfloat16[6,1000]',
            'c_ptr=bfloat16[6,1000]', 'stride=1000', 'n_cols=1000'], constexprs={'BLOCK': 1024}, grid=(6,),
            block_index=(5, 0, 0), num_warps=4)
fresh8_case('geglu_tanh_bwd', 'triton', 'geglu_tanh_bwd', ['dc_ptr=bfloat16[6,1000]', 'a_ptr=bfloat16[6,1000]:-3..3',
            'b_ptr=bfloat16[6,1000]', 'da_ptr=bfloat16[6,1000]', 'db_ptr=bfloat16[6,1000]', 'stride=1000',
            'n_cols=1000'], constexprs={'BLOCK': 1024}, grid=(6,), block_index=(2, 0, 0), num_warps=8)
fresh8_case('silu_and_mul_fwd', 'triton', 'silu_and_mul_fwd', ['x_ptr=float16[20,704]:-3..3', 'y_ptr=float16[20,352]',
            'M=20', 'N=352'], constexprs={'BR': 4, 'BLOCK': 128}, grid=(5,), block_index=(4, 0, 0), num_warps=4)
fresh8_case('silu_and_mul_bwd', 'triton', 'silu_and_mul_bwd', ['dy_ptr=float16[20,352]', 'x_ptr=float16[20,704]:-3..3',
            'dx_ptr=float16[20,704]', 'M=20', 'N=352'], constexprs={'BR': 4, 'BLOCK': 256}, grid=(5,),
            block_index=(2, 0, 0), num_warps=2)
fresh8_case('rope_neox_bhsd', 'triton', 'rope_neox_bhsd', ['q_ptr=float16[2,2,40,64]', 'cos_ptr=float32[40,32]',
            'sin_ptr=float32[40,32]', 'out_ptr=float16[2,2,40,64]', 'S=40', 'stride_bh=2560', 'stride_s=64'],
            constexprs={'HALF': 32, 'BS': 16}, grid=(4, 3), block_index=(3, 2, 0), num_warps=2)
for row in (3, 4):  # a labelled row and an ignored one
    fresh8_case(f'xent_smooth_fwd.row{row}', 'triton', 'xent_smooth_fwd', ['logits_ptr=float32[6,1000]:-4..4',
                f"labels_ptr={npy('fresh8py_xent_labels_6')}", 'loss_ptr=float32[6]', 'grad_ptr=float32[6,1000]',
                'V=1000', 'stride=1000', 'ignore_index=-100', 'smoothing=0.1'], constexprs={'BLOCK': 256}, grid=(6,),
                block_index=(row, 0, 0), num_warps=4)
fresh8_case('rmsnorm_bwd', 'triton', 'rmsnorm_bwd', ['dy_ptr=float16[24,500]', 'x_ptr=float16[24,500]',
            'w_ptr=float16[500]', 'rstd_ptr=float32[24]:0.5..2', 'dx_ptr=float16[24,500]', 'dw_part_ptr=float32[4,500]',
            'M=24', 'N=500'], constexprs={'ROWS_PER': 6, 'BLOCK': 512}, grid=(4,), block_index=(3, 0, 0),
            num_warps=4)
for logt, lo, hi, nw in ((False, 0, 0.002, 4), (True, -9, -5, 2)):
    fresh8_case(f"kl_div_rows.{'logt' if logt else 'prob'}", 'triton', 'kl_div_rows', ['logp_ptr=float32[6,1000]:-9..-5',
                f'tgt_ptr=float32[6,1000]:{lo}..{hi}', 'loss_ptr=float32[6]', 'V=1000', 'stride=1000'],
                constexprs={'LOG_TARGET': logt, 'BLOCK': 512}, grid=(6,), block_index=(1, 0, 0), num_warps=nw)
fresh8_case('flash_attn_causal_fwd.d64', 'triton', 'flash_attn_causal_fwd', ['q_ptr=float16[2,64,64]',
            'k_ptr=float16[2,64,64]', 'v_ptr=float16[2,64,64]', 'o_ptr=float16[2,64,64]', 'sm_scale=0.125', 'T=64'],
            constexprs={'HEAD_D': 64, 'BLOCK_M': 32, 'BLOCK_N': 32}, grid=(2, 2), block_index=(1, 1, 0), num_warps=4,
            num_stages=2)
fresh8_case('flash_attn_causal_fwd.d32', 'triton', 'flash_attn_causal_fwd', ['q_ptr=float16[2,40,32]',
            'k_ptr=float16[2,40,32]', 'v_ptr=float16[2,40,32]', 'o_ptr=float16[2,40,32]', 'sm_scale=0.17677', 'T=40'],
            constexprs={'HEAD_D': 32, 'BLOCK_M': 16, 'BLOCK_N': 16}, grid=(3, 2), block_index=(2, 0, 0), num_warps=2,
            num_stages=1)
fresh8_case('paged_attn_decode', 'triton', 'paged_attn_decode', ['q_ptr=float16[2,4,64]',
            'k_cache_ptr=float16[16,16,4,64]', 'v_cache_ptr=float16[16,16,4,64]',
            f"block_table_ptr={npy('fresh8py_block_table_2x6')}", f"seq_lens_ptr={npy('fresh8py_seq_lens_2')}",
            'out_ptr=float16[2,4,64]', 'sm_scale=0.125', 'max_blocks=6'], constexprs={'H': 4, 'D': 64, 'PAGE': 16},
            grid=(4, 2), block_index=(2, 0, 0), num_warps=4)
fresh8_case('moe_count_experts', 'triton', 'moe_count_experts', [f"topk_ids_ptr={npy('fresh8py_moe_topk_ids_400')}",
            'counts_ptr=int32[8]:0..0', 'numel=400'], constexprs={'BLOCK': 128}, grid=(4,), block_index=(3, 0, 0),
            num_warps=4)
fresh8_case('moe_align_sort', 'triton', 'moe_align_sort', [f"topk_ids_ptr={npy('fresh8py_moe_topk_ids_400')}",
            f"counts_ptr={npy('fresh8py_moe_counts_8')}", 'sorted_ids_ptr=int32[528]', 'expert_of_block_ptr=int32[33]',
            'offsets_ptr=int32[9]', 'numel=400', 'capacity=528'], constexprs={'E': 8, 'BLOCK_SIZE': 16,
            'MAX_BLOCKS': 64, 'FILL': 256}, grid=(1,), num_warps=4)
fresh8_case('w8a16_matmul', 'triton', 'w8a16_matmul', ['x_ptr=float16[32,128]:-1..1', 'w_ptr=int8[128,96]:-127..127',
            'scale_ptr=float16[96]:0.001..0.01', 'y_ptr=float16[32,96]', 'M=32', 'N=96', 'K=128'],
            constexprs={'BM': 32, 'BN': 32, 'BK': 64}, grid=(1, 3), block_index=(0, 2, 0), num_warps=4, num_stages=3)
fresh8_case('sparse24_matmul', 'triton', 'sparse24_matmul', ['a_ptr=float16[64,128]', 'b_ptr=float16[128,64]',
            'c_ptr=float16[64,64]', 'M=64', 'N=64', 'K=128'], constexprs={'BM': 32, 'BN': 32, 'BK': 32}, grid=(2, 2),
            block_index=(1, 0, 0), num_warps=4, num_stages=2)
fresh8_case('kv_cache_append_splitx', 'triton', 'kv_cache_append_splitx', ['key_ptr=float16[8,4,32]',
            'value_ptr=float16[8,4,32]', 'k_cache_ptr=float16[8,4,4,16,8]', 'v_cache_ptr=float16[8,4,32,16]',
            f"slot_ptr={npy('fresh8py_slots_8_of_128')}"], constexprs={'H': 4, 'D': 32, 'PAGE': 16, 'X': 8},
            grid=(8,), block_index=(3, 0, 0), num_warps=2)
fresh8_case('add_layernorm_rows', 'triton', 'add_layernorm_rows', ['x_ptr=float16[8,768]', 'res_ptr=float16[8,768]',
            'w_ptr=float16[768]', 'b_ptr=float16[768]', 'out_ptr=float16[8,768]', 'res_out_ptr=float16[8,768]',
            'mean_ptr=float32[8]', 'rstd_ptr=float32[8]', 'M=8', 'N=768', 'eps=1e-5'],
            constexprs={'ROWS': 2, 'BLOCK': 1024}, grid=(4,), block_index=(2, 0, 0), num_warps=8)
fresh8_case('group_norm_fwd', 'triton', 'group_norm_fwd', ['x_ptr=float32[2,32,49]', 'w_ptr=float32[32]',
            'b_ptr=float32[32]', 'y_ptr=float32[2,32,49]', 'C=32', 'HW=49', 'eps=1e-5'],
            constexprs={'G': 4, 'BLOCK': 256}, grid=(4, 2), block_index=(3, 1, 0), num_warps=4)
fresh8_case('causal_conv1d_silu', 'triton', 'causal_conv1d_silu', ['x_ptr=bfloat16[2,64,100]',
            'w_ptr=bfloat16[64,4]:-0.5..0.5', 'bias_ptr=bfloat16[64]', 'y_ptr=bfloat16[2,64,100]', 'D=64', 'L=100'],
            constexprs={'W': 4, 'BD': 32, 'BL': 64}, grid=(2, 2, 2), block_index=(0, 1, 1), num_warps=4)
fresh8_case('top_p_mask', 'triton', 'top_p_mask', ['logits_ptr=float32[4,1000]:-6..6', 'out_ptr=float32[4,1000]',
            'V=1000', 'stride=1000', 'top_p=0.9'], constexprs={'BV': 1024}, grid=(4,), block_index=(1, 0, 0),
            num_warps=8)
fresh8_case('varlen_to_padded', 'triton', 'varlen_to_padded', [f'x_ptr=float16[{_F8TOK},48]',
            f"cu_ptr={npy('fresh8py_cu_seqlens_4')}", 'out_ptr=float16[4,64,48]', 'amask_ptr=int8[4,64]', 'LMAX=64',
            'D=48', 'pad_value=-1.0'], constexprs={'BT': 32, 'BD': 64}, grid=(2, 4), block_index=(1, 3, 0),
            num_warps=4)
fresh8_case('linear_bwd_weight', 'triton', 'linear_bwd_weight', ['dy_ptr=bfloat16[128,64]', 'x_ptr=bfloat16[128,96]',
            'dw_ptr=bfloat16[64,96]', 'T=128', 'N=64', 'K=96'], constexprs={'BT': 32, 'BN': 32, 'BK': 32},
            grid=(2, 3), block_index=(1, 2, 0), num_warps=4, num_stages=3)
fresh8_case('matmul_colmajor_a_desc', 'triton', 'matmul_colmajor_a_desc', ['at_ptr=float16[96,64]',
            'b_ptr=float16[96,64]', 'c_ptr=float16[64,64]', 'M=64', 'N=64', 'K=96'],
            constexprs={'BM': 32, 'BN': 32, 'BK': 32}, grid=(2, 2), block_index=(1, 1, 0), num_warps=4, num_stages=2)
assert len({c["id"] for c in CASES}) == len(CASES), "case ids must be unique"


# ---- the ninth fresh held-out batch of Python kernels (kernels/fresh9_numba.py, fresh9_triton.py): the
# image-processing, linear-algebra and data-parallel primitives a numba-cuda user writes, and the everyday Triton
# building blocks of a 2026 model codebase. Numba: a 5x5 convolution (filter in cuda.const.array_like) over a 20x20
# haloed shared tile, a float64-accumulating tiled matmul through 16x17 padded tiles, a warp-per-row softmax
# (shfl_xor_sync), a block max + argmax over (value, index) pairs in two shared arrays, a 4-bit radix-digit histogram
# by shared int32 atomics (low and high digit of random uint32 keys), a 3-D 7-point stencil marching along z with a
# 2-D shared plane, a complex64 transpose through a 32x33 tile, a Hillis-Steele double-buffered scan, an int32-indexed
# gather/scatter (a permutation: one writer a slot), a saturating uint8 add and an int16 3x3 box blur over an int16
# shared tile, a sum of squares over a dynamic shared array (cuda.shared.array(0, ...)) and a per-thread insertion
# sort of 8 values in cuda.local.array. Triton: fused bias + erf-GELU + residual, an online-max log-softmax, a
# batched matmul with all 3-D strides passed in (B read as a transposed view), the float16 K-loop GEMM with grouped
# program order at 64x64x32 and at 128x128x64 (wgmma on sm_90), both with three stages, a non-causal attention forward
# (head_dim 64, T = 100: a ragged last key tile), RMSNorm forward, a tl.trans transpose, a per-row top-1 (tl.argmax),
# a cumulative product by tl.associative_scan, a class histogram by tl.histogram (masked tail) and integer
# tl.atomic_add, column sums of a column-major matrix, a per-row absmax int8 quantiser and a masked 2-D copy between
# differently strided non-power-of-two views; written before its first recording, every output deterministic
def fresh9_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh9_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh9.{compiler}.{id}", file=f"{K}/fresh9_{compiler}.py")
    return c


for bi in ((0, 0, 0), (3, 2, 0)):  # a corner block (halo zero-padded on two sides) and the ragged far corner
    fresh9_case(f'conv2d_5x5_const.b{bi[0]}{bi[1]}', 'numba', 'conv2d_5x5_const', ['img=float32[40,50]',
                'out=float32[40,50]'], block=(16, 16), grid=(4, 3), block_index=bi)
for bi in ((1, 1, 0), (4, 3, 0)):
    fresh9_case(f'matmul_f64acc.b{bi[0]}{bi[1]}', 'numba', 'matmul_f64acc', ['a=float32[50,40]', 'b=float32[40,70]',
                'c=float32[50,70]'], block=(16, 16), grid=(5, 4), block_index=bi)
fresh9_case('softmax_warp_rows.wide', 'numba', 'softmax_warp_rows', ['x=float32[10,300]:-4..4', 'y=float32[10,300]'],
            block=(128,), grid=(3,), block_index=(2, 0, 0))  # rows 8..11 of 10: two warps leave at once
fresh9_case('softmax_warp_rows.narrow', 'numba', 'softmax_warp_rows', ['x=float32[16,64]:-4..4',
            'y=float32[16,64]'], block=(128,), grid=(4,), block_index=(1, 0, 0))
fresh9_case('block_argmax', 'numba', 'block_argmax', ['x=float32[5000]', 'best_val=float32[4]', 'best_idx=int32[4]'],
            block=(256,), grid=(4,), block_index=(2, 0, 0))
for shift in (0, 28):
    fresh9_case(f'radix_digit_hist.s{shift}', 'numba', 'radix_digit_hist', [f"keys={npy('fresh9py_radix_keys_3000')}",
                f'shift={shift}', 'counts=int32[4,16]'], block=(256,), grid=(4,), block_index=(1, 0, 0))
fresh9_case('stencil7_march_z', 'numba', 'stencil7_march_z', ['u=float32[6,18,70]', 'out=float32[6,18,70]',
            'c0=0.4', 'c1=0.1'], block=(32, 4), grid=(3, 5), block_index=(2, 4, 0))
fresh9_case('transpose_c64', 'numba', 'transpose_c64', ['a=complex64[70,50]', 'at=complex64[50,70]'], block=(32, 8),
            grid=(2, 3), block_index=(1, 2, 0))
fresh9_case('hillis_steele_scan', 'numba', 'hillis_steele_scan', ['x=float32[700]', 'y=float32[700]',
            'totals=float32[3]'], block=(256,), grid=(3,), block_index=(2, 0, 0))
fresh9_case('gather_scale_scatter', 'numba', 'gather_scale_scatter', ['x=float32[2000]',
            f"src_idx={npy('fresh9py_gather_idx_1500_of_2000')}", f"dst_idx={npy('fresh9py_scatter_perm_1500')}",
            'scale=float32[1500]', 'out=float32[1500]'], block=(256,), grid=(6,), block_index=(3, 0, 0))
fresh9_case('saturating_add_u8', 'numba', 'saturating_add_u8', ['a=uint8[30,100]:0..255', 'b=uint8[30,100]:0..255',
            'out=uint8[30,100]'], block=(32, 8), grid=(4, 4), block_index=(3, 3, 0))
fresh9_case('box3_int16', 'numba', 'box3_int16', ['img=int16[30,100]:-300..300', 'out=int16[30,100]'],
            block=(32, 8), grid=(4, 4), block_index=(1, 2, 0))
fresh9_case('sumsq_dyn_shared', 'numba', 'sumsq_dyn_shared', ['x=float32[3000]', 'partial=float32[4]'],
            block=(128,), grid=(4,), block_index=(3, 0, 0), dyn=128 * 4)
fresh9_case('row_sort8_local', 'numba', 'row_sort8_local', ['x=float32[300,8]', 'out=float32[300,8]',
            'trimmed=float32[300]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh9_case('bias_gelu_residual', 'triton', 'bias_gelu_residual', ['x_ptr=float16[50,300]:-3..3',
            'bias_ptr=float16[300]', 'res_ptr=float16[50,300]', 'y_ptr=float16[50,300]', 'M=50', 'N=300'],
            constexprs={'BM': 32, 'BN': 64}, grid=(2, 5), block_index=(1, 4, 0), num_warps=4)
fresh9_case('log_softmax_online', 'triton', 'log_softmax_online', ['x_ptr=float32[6,1000]:-5..5',
            'y_ptr=float32[6,1000]', 'N=1000', 'stride=1000'], constexprs={'BLOCK': 256}, grid=(6,),
            block_index=(4, 0, 0), num_warps=4)
fresh9_case('bmm_strided', 'triton', 'bmm_strided', ['a_ptr=float16[3,48,40]', 'b_ptr=float16[3,56,40]',
            'c_ptr=float32[3,48,56]', 'M=48', 'N=56', 'K=40', 'sab=1920', 'sam=40', 'sak=1', 'sbb=2240', 'sbk=1',
            'sbn=40', 'scb=2688', 'scm=56', 'scn=1'], constexprs={'BM': 32, 'BN': 32, 'BK': 16}, grid=(2, 2, 3),
            block_index=(1, 1, 2), num_warps=4, num_stages=2)
fresh9_case('matmul_kloop.64x64x32', 'triton', 'matmul_kloop', ['a_ptr=float16[200,96]', 'b_ptr=float16[96,136]',
            'c_ptr=float16[200,136]', 'M=200', 'N=136', 'K=96'], constexprs={'BM': 64, 'BN': 64, 'BK': 32,
            'GROUP_M': 2}, grid=(12,), block_index=(5, 0, 0), num_warps=4, num_stages=3)
fresh9_case('matmul_kloop.128x128x64', 'triton', 'matmul_kloop', ['a_ptr=float16[256,192]', 'b_ptr=float16[192,256]',
            'c_ptr=float16[256,256]', 'M=256', 'N=256', 'K=192'], constexprs={'BM': 128, 'BN': 128, 'BK': 64,
            'GROUP_M': 2}, grid=(4,), block_index=(3, 0, 0), num_warps=8, num_stages=3)
fresh9_case('attn_fwd_full', 'triton', 'attn_fwd_full', ['q_ptr=float16[2,100,64]', 'k_ptr=float16[2,100,64]',
            'v_ptr=float16[2,100,64]', 'o_ptr=float16[2,100,64]', 'sm_scale=0.125', 'T=100'],
            constexprs={'D': 64, 'BLOCK_M': 64, 'BLOCK_N': 32}, grid=(2, 2), block_index=(1, 1, 0), num_warps=4,
            num_stages=2)
fresh9_case('rmsnorm_fwd', 'triton', 'rmsnorm_fwd', ['x_ptr=float16[8,700]', 'w_ptr=float16[700]',
            'y_ptr=float16[8,700]', 'rstd_ptr=float32[8]', 'N=700', 'stride=700', 'eps=1e-6'],
            constexprs={'BLOCK': 1024}, grid=(8,), block_index=(5, 0, 0), num_warps=4)
fresh9_case('transpose_trans', 'triton', 'transpose_trans', ['x_ptr=float32[100,70]', 'out_ptr=float32[70,100]',
            'M=100', 'N=70'], constexprs={'BM': 32, 'BN': 32}, grid=(4, 3), block_index=(3, 2, 0), num_warps=4)
fresh9_case('row_top1', 'triton', 'row_top1', ['logits_ptr=float32[10,1000]:-6..6', 'idx_ptr=int32[10]',
            'val_ptr=float32[10]', 'M=10', 'V=1000', 'stride=1000'], constexprs={'ROWS': 2, 'BV': 1024}, grid=(5,),
            block_index=(4, 0, 0), num_warps=8)
fresh9_case('cumprod_rows', 'triton', 'cumprod_rows', ['p_ptr=float32[6,300]:0.9..1', 'out_ptr=float32[6,300]',
            'N=300', 'stride=300'], constexprs={'BLOCK': 512}, grid=(6,), block_index=(3, 0, 0), num_warps=4)
fresh9_case('class_histogram', 'triton', 'class_histogram', [f"ids_ptr={npy('fresh9py_class_ids_3000_of_64')}",
            'hist_ptr=int32[64]:0..0', 'n=3000'], constexprs={'NBINS': 64, 'BLOCK': 512}, grid=(6,),
            block_index=(5, 0, 0), num_warps=4)
fresh9_case('colsum_colmajor', 'triton', 'colsum_colmajor', ['x_ptr=float32[70,96]', 'out_ptr=float32[70]', 'M=90',
            'N=70', 'ld=96'], constexprs={'BM': 32, 'BN': 32}, grid=(3,), block_index=(2, 0, 0), num_warps=4)
fresh9_case('quant_int8_rows', 'triton', 'quant_int8_rows', ['x_ptr=float16[20,300]:-2..2', 'q_ptr=int8[20,300]',
            'scale_ptr=float32[20]', 'M=20', 'N=300'], constexprs={'ROWS': 4, 'BLOCK': 512}, grid=(5,),
            block_index=(2, 0, 0), num_warps=4)
fresh9_case('copy2d_masked', 'triton', 'copy2d_masked', ['src_ptr=float32[37,64]', 'dst_ptr=float32[37,60]', 'M=37',
            'N=53', 'ld_src=64', 'ld_dst=60'], constexprs={'BM': 16, 'BN': 32}, grid=(3, 2), block_index=(2, 1, 0),
            num_warps=2)
assert len({c["id"] for c in CASES}) == len(CASES), "case ids must be unique"


# ---- the tenth fresh held-out batch of Python kernels (kernels/fresh10_numba.py, fresh10_triton.py): the classics
# a held-out checker is sure to try, in the variants the earlier batches left out. Numba: transposes of float64
# through a plain 16x16 tile (16x16 block) and a 32x33 tile (32x8 block striding by blockDim.y), of float16 through a
# 32x33 tile and of int8 through an unpadded 32x32 tile (32x8 blocks); a sequential-addressing reduction with float64
# partials and a warp-unrolled tail between syncwarps (blocks of 512 and 128 over one 512-entry array), the
# interleaved reductions by tid % (2*s) (64 threads, float32) and by index = 2*s*tid (128 threads, float64); tiled
# matmuls at TILE 8, 16 (B transposed in shared, read sbt[tx, kk]) and 32 (a 32x32 block) over ragged sizes; a
# 256-bin uint8 image histogram (one shared copy a block, merged by global atomics) and one with a copy a warp laid
# out [bin, warp]; a radius-4 1-D stencil whose halo is loaded by 8 extra threads of a 136-thread block and a float64
# 2-D Jacobi step whose 18x18 window is filled by a loop; a running median of 5 over a local ring buffer; column sums
# through a (32, 8) shared array indexed [tx, ty]; a weighted mean over a dynamic shared buffer sliced into two.
# Triton: a row softmax (a row a program, float32 and float16, 4 and 8 warps) and a 4-row 2-D one, LayerNorm forward
# (chunked passes over 1500 columns) and backward (dx with partial dw/db rows), a strided matmul at 32x32x32 (float16
# with two stages, bfloat16 with B a transposed view and four), an unmasked matmul at 128x128x64 (float16, 3 stages)
# and 128x256x64 (float8e4nv, 4 stages), both 8 warps, a float32 matmul at input_precision tf32 and ieee, a linear
# layer with a bias + ReLU epilogue, the block-pointer matmul rewritten with tensor descriptors (bfloat16, ragged on
# all edges: tl.make_block_ptr is gone from Triton 3.9), a split-K matmul by tl.atomic_add (quarter-integer operands,
# so the float32 sums are exact in any order), a float16 tl.trans transpose at 64x64 and 32x128 tiles, tl.cumsum
# along rows and along columns, a tl.histogram of float samples into per-program rows, token counts by
# tl.atomic_add, an attention forward (causal d64 with 128x64 tiles, full d32 with 64x32, causal d128 with 64x32;
# ragged T of 300, 150, 200) and a cross-entropy forward over 5000 classes in 1024-wide chunks; written before its
# first recording, every output deterministic
def fresh10_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh10_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh10.{compiler}.{id}", file=f"{K}/fresh10_{compiler}.py")
    return c


fresh10_case('transpose_t16_f64', 'numba', 'transpose_t16_f64', ['a=float64[50,70]', 'at=float64[70,50]'],
             block=(16, 16), grid=(5, 4), block_index=(4, 3, 0))  # the ragged corner: 6 columns, 2 rows
fresh10_case('transpose_t32_f64_pad', 'numba', 'transpose_t32_f64_pad', ['a=float64[100,64]', 'at=float64[64,100]'],
             block=(32, 8), grid=(2, 4), block_index=(1, 3, 0))
fresh10_case('transpose_t32_f16_pad', 'numba', 'transpose_t32_f16_pad', ['a=float16[64,96]:-2..2',
             'at=float16[96,64]'], block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh10_case('transpose_t32_i8', 'numba', 'transpose_t32_i8', ['a=int8[80,40]:-100..100', 'at=int8[40,80]'],
             block=(32, 8), grid=(2, 3), block_index=(1, 2, 0))
fresh10_case('reduce_seq_f64.b512', 'numba', 'reduce_seq_f64', ['x=float32[3000]', 'partial=float64[3]'],
             block=(512,), grid=(3,), block_index=(2, 0, 0))
fresh10_case('reduce_seq_f64.b128', 'numba', 'reduce_seq_f64', ['x=float32[1000]', 'partial=float64[4]'],
             block=(128,), grid=(4,), block_index=(3, 0, 0))
fresh10_case('reduce_interleaved_mod', 'numba', 'reduce_interleaved_mod', ['x=float32[1000]',
             'partial=float32[16]'], block=(64,), grid=(16,), block_index=(15, 0, 0))
fresh10_case('reduce_interleaved_strided', 'numba', 'reduce_interleaved_strided', ['x=float64[1000]',
             'partial=float64[8]'], block=(128,), grid=(8,), block_index=(3, 0, 0))
fresh10_case('matmul_t8', 'numba', 'matmul_t8', ['a=float32[45,30]', 'b=float32[30,52]', 'c=float32[45,52]'],
             block=(8, 8), grid=(7, 6), block_index=(6, 5, 0))
fresh10_case('matmul_t16_bt', 'numba', 'matmul_t16_bt', ['a=float32[70,50]', 'b=float32[50,40]',
             'c=float32[70,40]'], block=(16, 16), grid=(3, 5), block_index=(1, 2, 0))
for bi in ((1, 1, 0), (2, 3, 0)):  # an interior block (its last K tile ragged) and the ragged corner
    fresh10_case(f'matmul_t32.b{bi[0]}{bi[1]}', 'numba', 'matmul_t32', ['a=float32[100,70]', 'b=float32[70,90]',
                 'c=float32[100,90]'], block=(32, 32), grid=(3, 4), block_index=bi)
fresh10_case('hist_u8_block', 'numba', 'hist_u8_block', [f"img={npy('fresh10py_u8_image_60x200')}",
             'hist=int32[256]:0..0'], block=(32, 8), grid=(2, 2), block_index=(1, 0, 0))
fresh10_case('hist_u8_warp_copies', 'numba', 'hist_u8_warp_copies', [f"data={npy('fresh10py_u8_bimodal_8000')}",
             'block_counts=int32[4,256]'], block=(256,), grid=(4,), block_index=(2, 0, 0))
fresh10_case('stencil1d_extra_threads', 'numba', 'stencil1d_extra_threads', ['x=float32[1000]',
             'w=float32[9]:0.05..0.2', 'y=float32[1000]'], block=(136,), grid=(8,), block_index=(7, 0, 0))
for bi in ((1, 2, 0), (3, 3, 0)):
    fresh10_case(f'stencil2d_loop_f64.b{bi[0]}{bi[1]}', 'numba', 'stencil2d_loop_f64', ['u=float64[50,60]',
                 'f=float64[50,60]', 'out=float64[50,60]', 'h2=0.01'], block=(16, 16), grid=(4, 4), block_index=bi)
fresh10_case('running_median5', 'numba', 'running_median5', ['x=float32[40,300]', 'out=float32[40,300]'],
             block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh10_case('colsum_txty', 'numba', 'colsum_txty', ['x=float32[300,100]', 'out=float32[100]'], block=(32, 8),
             grid=(4,), block_index=(3, 0, 0))
fresh10_case('weighted_sums_dyn', 'numba', 'weighted_sums_dyn', ['x=float32[5000]', 'wt=float32[5000]:0..1',
             'num=float32[4]', 'den=float32[4]'], block=(256,), grid=(4,), block_index=(1, 0, 0), dyn=2 * 256 * 4)
fresh10_case('softmax_row.f32', 'triton', 'softmax_row', ['x_ptr=float32[12,1000]:-5..5', 'y_ptr=float32[12,1000]',
             'n_cols=1000', 'x_stride=1000', 'y_stride=1000'], constexprs={'BLOCK': 1024}, grid=(12,),
             block_index=(5, 0, 0), num_warps=4)
fresh10_case('softmax_row.f16', 'triton', 'softmax_row', ['x_ptr=float16[4,3000]:-5..5', 'y_ptr=float16[4,3000]',
             'n_cols=3000', 'x_stride=3000', 'y_stride=3000'], constexprs={'BLOCK': 4096}, grid=(4,),
             block_index=(3, 0, 0), num_warps=8)
fresh10_case('softmax_rows2d', 'triton', 'softmax_rows2d', ['x_ptr=float32[30,200]:-5..5', 'y_ptr=float32[30,200]',
             'n_rows=30', 'n_cols=200', 'stride=200'], constexprs={'ROWS': 4, 'BLOCK_N': 256}, grid=(8,),
             block_index=(7, 0, 0), num_warps=4)  # rows 28..31 of 30
fresh10_case('layernorm_fwd', 'triton', 'layernorm_fwd', ['x_ptr=float16[8,1500]', 'w_ptr=float16[1500]:0.5..1.5',
             'b_ptr=float16[1500]', 'y_ptr=float16[8,1500]', 'mean_ptr=float32[8]', 'rstd_ptr=float32[8]',
             'stride=1500', 'N=1500', 'eps=1e-5'], constexprs={'BLOCK': 512}, grid=(8,), block_index=(6, 0, 0),
             num_warps=8)
fresh10_case('layernorm_bwd', 'triton', 'layernorm_bwd', ['dy_ptr=float16[22,300]', 'x_ptr=float16[22,300]',
             'w_ptr=float16[300]', 'mean_ptr=float32[22]:-0.2..0.2', 'rstd_ptr=float32[22]:0.5..2',
             'dx_ptr=float16[22,300]', 'dw_part_ptr=float32[4,300]', 'db_part_ptr=float32[4,300]', 'M=22', 'N=300'],
             constexprs={'ROWS_PER': 6, 'BLOCK': 512}, grid=(4,), block_index=(3, 0, 0), num_warps=4)  # 4 rows of 6
fresh10_case('matmul_strided.f16_32', 'triton', 'matmul_strided', ['a_ptr=float16[100,72]', 'b_ptr=float16[72,90]',
             'c_ptr=float16[100,90]', 'M=100', 'N=90', 'K=72', 'stride_am=72', 'stride_ak=1', 'stride_bk=90',
             'stride_bn=1', 'stride_cm=90', 'stride_cn=1'], constexprs={'BM': 32, 'BN': 32, 'BK': 32, 'GROUP_M': 4},
             grid=(12,), block_index=(11, 0, 0), num_warps=4, num_stages=2)
fresh10_case('matmul_strided.bf16_32_bt', 'triton', 'matmul_strided', ['a_ptr=bfloat16[64,96]',
             'b_ptr=bfloat16[64,96]', 'c_ptr=bfloat16[64,64]', 'M=64', 'N=64', 'K=96', 'stride_am=96', 'stride_ak=1',
             'stride_bk=1', 'stride_bn=96', 'stride_cm=64', 'stride_cn=1'],  # B given as B^T [N, K]
             constexprs={'BM': 32, 'BN': 32, 'BK': 32, 'GROUP_M': 2}, grid=(4,), block_index=(1, 0, 0), num_warps=4,
             num_stages=4)
fresh10_case('matmul_even.f16_128x128x64', 'triton', 'matmul_even', ['a_ptr=float16[256,320]',
             'b_ptr=float16[320,384]', 'c_ptr=float16[256,384]', 'M=256', 'N=384', 'K=320'],
             constexprs={'BM': 128, 'BN': 128, 'BK': 64, 'GROUP_M': 8}, grid=(6,), block_index=(4, 0, 0),
             num_warps=8, num_stages=3)
fresh10_case('matmul_even.f8_128x256x64', 'triton', 'matmul_even', ['a_ptr=float8_e4m3fn[256,256]',
             'b_ptr=float8_e4m3fn[256,512]', 'c_ptr=float16[256,512]', 'M=256', 'N=512', 'K=256'],
             constexprs={'BM': 128, 'BN': 256, 'BK': 64, 'GROUP_M': 8}, grid=(4,), block_index=(3, 0, 0),
             num_warps=8, num_stages=4)
for prec, bm, bk, ns, bi in (('tf32', 64, 32, 3, (1, 1, 0)), ('ieee', 32, 16, 2, (1, 0, 0))):
    fresh10_case(f'matmul_fp32.{prec}', 'triton', 'matmul_fp32', ['a_ptr=float32[96,80]', 'b_ptr=float32[80,72]',
                 'c_ptr=float32[96,72]', 'M=96', 'N=72', 'K=80'], constexprs={'BM': bm, 'BN': bm, 'BK': bk,
                 'PRECISION': prec}, grid=(-(-96 // bm), -(-72 // bm)), block_index=bi, num_warps=4, num_stages=ns)
fresh10_case('linear_bias_relu', 'triton', 'linear_bias_relu', ['x_ptr=float16[130,64]', 'w_ptr=float16[64,100]',
             'bias_ptr=float16[100]', 'y_ptr=float16[130,100]', 'M=130', 'N=100', 'K=64'],
             constexprs={'BM': 64, 'BN': 64, 'BK': 32}, grid=(3, 2), block_index=(2, 1, 0), num_warps=4,
             num_stages=3)
fresh10_case('matmul_desc', 'triton', 'matmul_desc', ['a_ptr=bfloat16[90,72]', 'b_ptr=bfloat16[72,112]',
             'c_ptr=bfloat16[90,112]', 'M=90', 'N=112', 'K=72', 'stride_am=72', 'stride_bk=112', 'stride_cm=112'],
             constexprs={'BM': 64, 'BN': 64, 'BK': 32}, grid=(2, 2), block_index=(1, 1, 0), num_warps=4,
             num_stages=3)  # ragged on all three edges (K: 72 = 2 x 32 + 8)
fresh10_case('matmul_splitk', 'triton', 'matmul_splitk', [f"a_ptr={npy('fresh10py_splitk_a_64x500')}",
             f"b_ptr={npy('fresh10py_splitk_b_500x64')}",
             'c_ptr=float32[64,64]:0..0', 'M=64', 'N=64', 'K=500'], constexprs={'BM': 32, 'BN': 32, 'BK': 32,
             'SPLIT_K': 4}, grid=(4, 4), block_index=(2, 3, 0), num_warps=4, num_stages=3)
fresh10_case('transpose_f16.sq64', 'triton', 'transpose_f16', ['x_ptr=float16[200,130]', 'out_ptr=float16[130,200]',
             'M=200', 'N=130'], constexprs={'BM': 64, 'BN': 64}, grid=(4, 3), block_index=(3, 2, 0), num_warps=4)
fresh10_case('transpose_f16.r32x128', 'triton', 'transpose_f16', ['x_ptr=float16[96,256]', 'out_ptr=float16[256,96]',
             'M=96', 'N=256'], constexprs={'BM': 32, 'BN': 128}, grid=(3, 2), block_index=(1, 1, 0), num_warps=8)
fresh10_case('cumsum_2d.rows', 'triton', 'cumsum_2d', ['x_ptr=float32[50,200]', 'y_ptr=float32[50,200]', 'M=50',
             'N=200'], constexprs={'AXIS': 1, 'BM': 8, 'BN': 256}, grid=(7,), block_index=(6, 0, 0), num_warps=4)
fresh10_case('cumsum_2d.cols', 'triton', 'cumsum_2d', ['x_ptr=float32[100,60]', 'y_ptr=float32[100,60]', 'M=100',
             'N=60'], constexprs={'AXIS': 0, 'BM': 128, 'BN': 16}, grid=(4,), block_index=(3, 0, 0), num_warps=8)
fresh10_case('hist_bins_partial', 'triton', 'hist_bins_partial', [f"x_ptr={npy('fresh10py_samples_5000')}",
             'counts_ptr=int32[5,32]', 'n=5000', 'lo=-3.0', 'hi=3.0'], constexprs={'NBINS': 32, 'BLOCK': 1024},
             grid=(5,), block_index=(4, 0, 0), num_warps=4)
fresh10_case('token_count_atomic', 'triton', 'token_count_atomic', [f"ids_ptr={npy('fresh10py_token_ids_3000_of_512')}",
             'counts_ptr=int32[512]:0..0', 'n=3000'], constexprs={'BLOCK': 256}, grid=(12,), block_index=(11, 0, 0),
             num_warps=4)
for name, bh, t, d, scale, causal, bm, bn, grid, bi, nw, ns in (
        ('causal_d64', 2, 300, 64, 0.125, True, 128, 64, (3, 2), (2, 1, 0), 8, 3),
        ('full_d32', 4, 150, 32, 0.17678, False, 64, 32, (3, 4), (1, 3, 0), 4, 2),
        ('causal_d128', 1, 200, 128, 0.088388, True, 64, 32, (4, 1), (3, 0, 0), 4, 2)):
    fresh10_case(f'attention_fwd.{name}', 'triton', 'attention_fwd', [f'q_ptr=float16[{bh},{t},{d}]',
                 f'k_ptr=float16[{bh},{t},{d}]', f'v_ptr=float16[{bh},{t},{d}]', f'o_ptr=float16[{bh},{t},{d}]',
                 f'T={t}', f'sm_scale={scale}'], constexprs={'CAUSAL': causal, 'HEAD_D': d, 'BLOCK_M': bm,
                 'BLOCK_N': bn}, grid=grid, block_index=bi, num_warps=nw, num_stages=ns)
fresh10_case('cross_entropy_fwd', 'triton', 'cross_entropy_fwd', ['logits_ptr=bfloat16[8,5000]:-6..6',
             f"labels_ptr={npy('fresh10py_xent_labels_8')}", 'loss_ptr=float32[8]', 'lse_ptr=float32[8]', 'V=5000',
             'stride=5000', 'ignore_index=-100'], constexprs={'BLOCK': 1024}, grid=(8,), block_index=(3, 0, 0),
             num_warps=8)


# ---- the eleventh fresh held-out batch of Python kernels (kernels/fresh11_numba.py, fresh11_triton.py): the second
# tier of numba-cuda and Triton code, in constructs the earlier batches left out. Numba: a 2-D grid-stride loop
# (cuda.grid(2) / cuda.gridsize(2)) clamping an int16 frame; device functions that take a shared 32x32 tile (a
# loader, a row and a column reducer: the column walk is a 32-way conflict); a 3-D (4, 8, 9) shared tile read across
# its diagonal and into the next slice by an (8, 8, 4) block; a per-thread 4x4 solve with partial pivoting in a 2-D
# cuda.local.array indexed at run time; a uint8 gamma LUT in cuda.const.array_like feeding a 3-tap blur over a shared
# row with corner halos; complex128 rows put into bit-reversed order through shared memory (16-byte elements) before
# a first butterfly; a tiled matmul with a 2x2 register-blocked output a thread (32x16 and 16x32 tiles, a 16x16
# block; ragged and even); transposes through a 16x64 tile padded by one and by two floats (64x4 blocks); a block
# scan by shfl_up_sync with a shared array of eight warp totals; a 1024-bin histogram of uint16 samples (blocks of
# 256 and 512); a joint 16x16 histogram by tuple-indexed shared and global atomics; per-segment maxima by
# cuda.atomic.max on int32 shared; a float64 5x5 box filter whose 2-cell halo strips and 2x2 corners are loaded by
# edge and corner threads; a row argmax over (value, index) pairs in one (4, 64, 2) shared array (many ties); Horner
# evaluation whose trip count comes from an argument array (lanes leave at different steps, 32 rows of 16 read
# column-wise); and the shared patterns sh[2*tx], sh[4*tx % 32], sh[33*tx % 1024] on float32 and sh[2*tx] on uint16.
# Triton: a descending tl.sort of int32 rows (4 rows of 256, 1 row of 1024), an embedding lookup gathering rows of a
# float16 table by int64 ids (D = 96), GPT-J interleaved rotary by reshape/split/join (float16 d64, bfloat16 d128), a
# persistent matmul over 8 output tiles by 3 programs (tl.range(start, num_tiles, NUM_SMS); 64x64x32 float16), an
# int8 x int8 -> int32 matmul with the weight as [N, K], a float8e5 matmul at 128x128x64 (8 warps, B as [N, K]), a
# batched matmul on a 3-D grid with out_dtype=tl.float16 accumulation, a row argmax by tl.reduce with a (value,
# index) combine, discounted returns by a reversed tl.associative_scan of a 2-tuple affine recurrence (axis 0),
# tl.argmin of float16 rows, tl.atomic_max segment maxima with tl.atomic_xchg slot claims, a paged KV-cache gather
# through an int32 block table and cu_seqlens (some programs idle), stochastic rounding to bfloat16 by tl.randint, a
# ragged 77x130 scale + bias with a .cg and an evict_last load and a .cs store (float16, and float32 through a
# wider row stride), the dq pass of an attention backward (causal d64 and full d32), the dw/db column sums of a
# LayerNorm backward by tl.sum over axis 0, a group-wise int4 quantiser packing nibbles by tl.split, and a per-row
# column shuffle by tl.gather; written before its first recording, every output deterministic
def fresh11_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh11_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh11.{compiler}.{id}", file=f"{K}/fresh11_{compiler}.py")
    return c


fresh11_case('gain_clip_i16_2d', 'numba', 'gain_clip_i16_2d', ['img=int16[70,300]:0..4000', 'out=int16[70,300]',
             'black=64', 'gain=300'], block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh11_case('tile_margins', 'numba', 'tile_margins', ['a=float32[70,100]', 'row_sums=float32[70,4]',
             'col_sums=float32[3,100]'], block=(32, 8), grid=(4, 3), block_index=(3, 2, 0))
fresh11_case('tile3d_mirror', 'numba', 'tile3d_mirror', ['v=float32[8,16,12]', 'out=float32[8,16,12]'],
             block=(8, 8, 4), grid=(2, 2, 2), block_index=(1, 1, 1))
fresh11_case('solve4_local', 'numba', 'solve4_local', ['a=float32[300,4,4]:-1..1', 'b=float32[300,4]:-1..1',
             'x=float32[300,4]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh11_case('gamma_blur_const', 'numba', 'gamma_blur_const', ['img=uint8[4,300]:0..255', 'out=float32[4,300]'],
             block=(128,), grid=(3, 4), block_index=(2, 3, 0))
fresh11_case('bitrev_butterfly_c128', 'numba', 'bitrev_butterfly_c128', ['x=complex128[6,64]', 'tw=complex128[32]',
             'y=complex128[6,64]'], block=(64,), grid=(6,), block_index=(5, 0, 0))
fresh11_case('matmul_reg2x2.ragged', 'numba', 'matmul_reg2x2', ['a=float32[90,70]', 'b=float32[70,80]',
             'c=float32[90,80]'], block=(16, 16), grid=(3, 3), block_index=(2, 2, 0))
fresh11_case('matmul_reg2x2.even', 'numba', 'matmul_reg2x2', ['a=float32[64,48]', 'b=float32[48,64]',
             'c=float32[64,64]'], block=(16, 16), grid=(2, 2), block_index=(1, 0, 0))
for pad in (1, 2):
    fresh11_case(f'transpose_16x64_pad{pad}', 'numba', f'transpose_16x64_pad{pad}', ['a=float32[40,150]',
                 'at=float32[150,40]'], block=(64, 4), grid=(3, 3), block_index=(2, 2, 0))
fresh11_case('scan_shfl_block', 'numba', 'scan_shfl_block', ['x=int32[1000]:-50..50', 'y=int32[1000]',
             'totals=int32[4]'], block=(256,), grid=(4,), block_index=(3, 0, 0))
for b, g in ((256, 4), (512, 2)):
    fresh11_case(f'hist1024_u16.b{b}', 'numba', 'hist1024_u16', [f"data={npy('fresh11py_u16_samples_6000')}",
                 'hist=int32[1024]:0..0'], block=(b,), grid=(g,), block_index=(g - 1, 0, 0))
fresh11_case('joint_hist_2d', 'numba', 'joint_hist_2d', [f"img_a={npy('fresh11py_joint_a_4096')}",
             f"img_b={npy('fresh11py_joint_b_4096')}", 'joint=int32[16,16]:0..0'], block=(256,), grid=(4,),
             block_index=(1, 0, 0))
fresh11_case('segment_max_i32', 'numba', 'segment_max_i32', [f"seg={npy('fresh11py_seg_ids_3000_of_64')}",
             'score=int32[3000]:-100000..100000', 'seg_max=int32[64]:-1000000..-1000000'], block=(128,), grid=(4,),
             block_index=(0, 0, 0))
fresh11_case('box5_f64_halo2', 'numba', 'box5_f64_halo2', ['u=float64[40,50]', 'out=float64[40,50]'],
             block=(16, 16), grid=(4, 3), block_index=(3, 2, 0))
fresh11_case('argmax_rows_pairs', 'numba', 'argmax_rows_pairs', [f"x={npy('fresh11py_ties_22x64')}",
             'idx_out=int32[22]', 'val_out=float32[22]'], block=(64, 4), grid=(6,), block_index=(5, 0, 0))
fresh11_case('horner_ragged', 'numba', 'horner_ragged', ['coef=float32[32,16]:-1..1',
             f"deg={npy('fresh11py_horner_deg_600')}", 'x=float32[600]:-1..1', 'y=float32[600]'], block=(128,),
             grid=(5,), block_index=(4, 0, 0))
fresh11_case('bank_strides', 'numba', 'bank_strides', ['x=float32[2048]', 'h=uint16[2048]:0..1000',
             'y=float32[512]'], block=(256,), grid=(2,), block_index=(1, 0, 0))
for name, shape, rows, block, nw in (('r4x256', (10, 200), 4, 256, 4), ('r1x1024', (3, 1000), 1, 1024, 8)):
    fresh11_case(f'sort_rows_desc.{name}', 'triton', 'sort_rows_desc', [f'x_ptr=int32[{shape[0]},{shape[1]}]:-1000..1000',
                 f'y_ptr=int32[{shape[0]},{shape[1]}]', f'n_rows={shape[0]}', f'n_cols={shape[1]}',
                 f'stride={shape[1]}'], constexprs={'ROWS': rows, 'BLOCK': block}, grid=(-(-shape[0] // rows),),
                 block_index=(2, 0, 0), num_warps=nw)
fresh11_case('embedding_lookup', 'triton', 'embedding_lookup', [f"ids_ptr={npy('fresh11py_token_ids_200_of_1000')}",
             'table_ptr=float16[1000,96]', 'out_ptr=float16[200,96]', 'n_tokens=200', 'D=96', 'scale=9.797959'],
             constexprs={'BT': 32, 'BD': 128}, grid=(7,), block_index=(6, 0, 0), num_warps=4)
for dt, t, d, bt in (('float16', 100, 64, 16), ('bfloat16', 40, 128, 8)):
    fresh11_case(f'rope_interleaved.{dt}_d{d}', 'triton', 'rope_interleaved', [f'x_ptr={dt}[{t},{d}]',
                 f'cos_ptr=float32[{t},{d // 2}]:-1..1', f'sin_ptr=float32[{t},{d // 2}]:-1..1',
                 f'out_ptr={dt}[{t},{d}]', f'T={t}'], constexprs={'BT': bt, 'D': d}, grid=(-(-t // bt),),
                 block_index=(-(-t // bt) - 1, 0, 0), num_warps=4)
fresh11_case('matmul_persistent', 'triton', 'matmul_persistent', ['a_ptr=float16[256,96]:-1..1',
             'b_ptr=float16[96,128]:-1..1', 'c_ptr=float16[256,128]', 'M=256', 'N=128', 'K=96'],
             constexprs={'BM': 64, 'BN': 64, 'BK': 32, 'NUM_SMS': 3}, grid=(3,), block_index=(0, 0, 0), num_warps=4,
             num_stages=3)  # 8 tiles: programs 0 and 1 take 3, program 2 takes 2
fresh11_case('matmul_i8_wt', 'triton', 'matmul_i8_wt', ['x_ptr=int8[96,128]:-100..100', 'w_ptr=int8[80,128]:-100..100',
             'c_ptr=int32[96,80]', 'M=96', 'N=80', 'K=128'], constexprs={'BM': 64, 'BN': 64, 'BK': 64}, grid=(2, 2),
             block_index=(1, 1, 0), num_warps=4, num_stages=3)
fresh11_case('matmul_f8e5_bt', 'triton', 'matmul_f8e5_bt', ['a_ptr=float8_e5m2[256,192]', 'b_ptr=float8_e5m2[256,192]',
             'c_ptr=float16[256,256]', 'M=256', 'N=256', 'K=192'], constexprs={'BM': 128, 'BN': 128, 'BK': 64},
             grid=(2, 2), block_index=(1, 0, 0), num_warps=8, num_stages=3)
fresh11_case('bmm_f16acc', 'triton', 'bmm_f16acc', ['a_ptr=float16[3,48,64]:-1..1', 'b_ptr=float16[3,64,40]:-1..1',
             'c_ptr=float16[3,48,40]', 'M=48', 'N=40', 'K=64', 'sab=3072', 'sam=64', 'sak=1', 'sbb=2560', 'sbk=40',
             'sbn=1', 'scb=1920', 'scm=40', 'scn=1'], constexprs={'BM': 32, 'BN': 32, 'BK': 32}, grid=(2, 2, 3),
             block_index=(1, 1, 2), num_warps=4, num_stages=2)
fresh11_case('row_argmax_reduce', 'triton', 'row_argmax_reduce', [f"x_ptr={npy('fresh11py_ties_30x300')}",
             'val_ptr=float32[30]', 'idx_ptr=int32[30]', 'n_rows=30', 'n_cols=300', 'stride=300'],
             constexprs={'ROWS': 4, 'BLOCK': 512}, grid=(8,), block_index=(7, 0, 0), num_warps=4)
for bc, nw in ((32, 4), (8, 1)):
    fresh11_case(f'discounted_returns.c{bc}', 'triton', 'discounted_returns', ['r_ptr=float32[50,96]:-1..1',
                 'g_ptr=float32[50,96]:0.9..0.99', 'out_ptr=float32[50,96]', 'T=50', 'C=96'],
                 constexprs={'BT': 64, 'BC': bc}, grid=(96 // bc,), block_index=(1, 0, 0),
                 num_warps=nw)
fresh11_case('argmin_rows', 'triton', 'argmin_rows', ['x_ptr=float16[20,300]:-2..2', 'idx_ptr=int32[20]',
             'val_ptr=float16[20]', 'n_rows=20', 'n_cols=300'], constexprs={'ROWS': 2, 'BLOCK': 512}, grid=(10,),
             block_index=(9, 0, 0), num_warps=4)
fresh11_case('seg_max_claim', 'triton', 'seg_max_claim', [f"seg_ptr={npy('fresh11py_seg_ids_3000_of_64')}",
             'score_ptr=int32[3000]:-100000..100000', f"perm_ptr={npy('fresh11py_perm_3000')}",
             'seg_max_ptr=int32[64]:-1000000..-1000000', 'slots_ptr=int32[3000]:-9..-1', 'old_ptr=int32[3000]',
             'n=3000'], constexprs={'BLOCK': 512}, grid=(6,), block_index=(5, 0, 0), num_warps=4)
fresh11_case('paged_kv_gather', 'triton', 'paged_kv_gather', ['cache_ptr=float16[32,16,128]',
             f"table_ptr={npy('fresh11py_block_table_3x4')}", f"cu_ptr={npy('fresh11py_cu_seqlens_3')}",
             'out_ptr=float16[131,128]', 'max_blocks=4'], constexprs={'ROW': 128, 'BS': 16}, grid=(4, 3),
             block_index=(3, 0, 0), num_warps=4)  # sequences of 50, 17 and 64 tokens: two programs of (4, 3) idle
fresh11_case('stochastic_round_bf16', 'triton', 'stochastic_round_bf16', ['x_ptr=float32[5000]:-3..3',
             'y_ptr=bfloat16[5000]', 'n=5000', 'seed=1234'], constexprs={'BLOCK': 1024}, grid=(5,),
             block_index=(4, 0, 0), num_warps=4)
fresh11_case('scale_bias_hints.f16', 'triton', 'scale_bias_hints', ['x_ptr=float16[77,130]', 'bias_ptr=float16[130]',
             'y_ptr=float16[77,130]', 'M=77', 'N=130', 'sxm=130', 'sym=130', 'scale=0.5'],
             constexprs={'BM': 32, 'BN': 64}, grid=(3, 3), block_index=(2, 2, 0), num_warps=4)
fresh11_case('scale_bias_hints.f32_stride144', 'triton', 'scale_bias_hints', ['x_ptr=float32[77,144]',
             'bias_ptr=float32[130]', 'y_ptr=float32[77,130]', 'M=77', 'N=130', 'sxm=144', 'sym=130', 'scale=0.5'],
             constexprs={'BM': 16, 'BN': 128}, grid=(5, 2), block_index=(4, 1, 0), num_warps=4)
for name, bh, t, d, scale, causal, bm, bn, grid, bi, odt in (
        ('causal_d64', 2, 150, 64, 0.125, True, 64, 32, (3, 2), (2, 1, 0), 'float16'),
        ('full_d32', 3, 80, 32, 0.17678, False, 32, 32, (3, 3), (1, 2, 0), 'float32')):
    fresh11_case(f'attn_bwd_dq.{name}', 'triton', 'attn_bwd_dq', [f'q_ptr=float16[{bh},{t},{d}]:-1..1',
                 f'k_ptr=float16[{bh},{t},{d}]:-1..1', f'v_ptr=float16[{bh},{t},{d}]:-1..1',
                 f'do_ptr=float16[{bh},{t},{d}]:-1..1', f'lse_ptr=float32[{bh},{t}]:2..4',
                 f'delta_ptr=float32[{bh},{t}]:-0.1..0.1', f'dq_ptr={odt}[{bh},{t},{d}]', f'T={t}',
                 f'sm_scale={scale}'], constexprs={'HEAD_D': d, 'BLOCK_M': bm, 'BLOCK_N': bn, 'CAUSAL': causal},
                 grid=grid, block_index=bi, num_warps=4, num_stages=2)
fresh11_case('ln_bwd_dwdb_sum0', 'triton', 'ln_bwd_dwdb_sum0', ['dw_part_ptr=float32[37,300]',
             'db_part_ptr=float32[37,300]', 'dw_ptr=float16[300]', 'db_ptr=float16[300]', 'G=37', 'N=300'],
             constexprs={'BG': 16, 'BN': 64}, grid=(5,), block_index=(4, 0, 0), num_warps=4)
fresh11_case('quant_int4_pack', 'triton', 'quant_int4_pack', ['x_ptr=float16[50,256]:-3..3', 'q_ptr=uint8[50,128]',
             's_ptr=float16[50,8]', 'M=50', 'N=256'], constexprs={'BM': 16, 'BN': 128, 'GS': 32}, grid=(4, 2),
             block_index=(3, 1, 0), num_warps=4)
fresh11_case('shuffle_cols_gather', 'triton', 'shuffle_cols_gather', ['x_ptr=float32[16,64]',
             f"perm_ptr={npy('fresh11py_col_perm_16x64')}", 'y_ptr=float32[16,64]', 'n_rows=16'],
             constexprs={'ROWS': 4, 'W': 64}, grid=(4,), block_index=(3, 0, 0), num_warps=4)
# ---- the twelfth fresh held-out batch of Python kernels (kernels/fresh12_numba.py, fresh12_triton.py), written blind:
# what a checker who never saw smemlab writes first. Numba: every GPU-Puzzles puzzle as its solutions are usually
# written (map, zip and guard on one block; map 2-D and broadcast with threadIdx.x as the row on 32x32 blocks; blocks
# and blocks 2-D; a shared staging array; pooling over a shared window with a two-cell left halo; a dot product summed
# by thread 0 from a shared cache; a 1-D convolution with a right halo and the taps in shared memory; block sums by
# the interleaved local_i % (2 * stride) tree; axis sums on a (1, 4) grid; a 16x16 shared-tile matmul with i from
# threadIdx.x, 40x40 ragged); the numba docs' fast_matmul in float32 (48x40 @ 40x56) and float64 (40x40); CUDA by
# Example ports (the dot product with cache[threadIdx.x] and a halving loop over a grid-stride sum, the ripple into
# a flat RGBA byte buffer, a ray tracer over 16 spheres in cuda.const.array_like, the shared-atomics uint32 histogram
# of text bytes); a grid-stride SAXPY on a stride-3 x by cuda.fma; a cuda.grid(2) map written for arr.T, the
# transposed element fetched by inline=True device functions; a 3x3 sharpen with uint8 and int16 shared arrays; a
# complex64 shared array reversing a rotated block; cuda.selp / cuda.cbrt / cuda.threadfence_block + syncwarp pair
# exchange / cuda.fma; dedupe by cuda.atomic.cas slot claims in a shared 512-entry table (a bijective hash: one probe
# each, whatever the order); a first-over-threshold flag by cuda.atomic.compare_and_swap on a global word a block;
# a median of seven in a float64 cuda.local.array. Triton: the tutorials retyped (vector add; fused softmax over a
# tl.range of rows, float32 781 wide at 4 warps and float16 3000 wide at 8; the grouped-ordering matmul with % M
# offsets and a leaky-ReLU epilogue at 64x64x32 / 3 stages, 128x128x64 / 8 warps / 4 stages, and 32x32x32 ragged /
# 2 warps / 2 stages; the persistent matmul with flatten=True, warp_specialize=False and max_contiguous/multiple_of;
# the grouped GEMM over int64 pointer tables (3 problems, 8 tiles, 4 programs); seeded dropout by tl.rand at 1 warp;
# layer norm forward over 256-wide chunks; its backward with the atomic_cas lock, one program a lock; the dW/dB
# column sums; attention forward with plain pointers, causal by the off-band and diagonal stages (d64) and full over
# a ragged T (d32), and with host tensor descriptors (d64)); libdevice asin with tl.math.exp2, a NaN guard, tl.clamp
# and tl.fma; tl.static_range rows with int64 offsets over a padded stride; tl.umulhi hash buckets gathering a table;
# a 3-D [:, None, None] RMS norm with keep_dims; tl.interleave; space-to-depth by reshape/permute; an fp32 GEMM with
# tl.dot(acc=, input_precision="tf32x3") at 2 warps and 1 stage
def fresh12_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh12_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh12.{compiler}.{id}", file=f"{K}/fresh12_{compiler}.py")
    return c


# GPU puzzles
fresh12_case('pz_map', 'numba', 'pz_map', ['out=float32[128]', 'a=float32[128]'], block=(128,))
fresh12_case('pz_zip', 'numba', 'pz_zip', ['out=float32[96]', 'a=float32[96]', 'b=float32[96]'], block=(96,))
fresh12_case('pz_guard', 'numba', 'pz_guard', ['out=float32[200]', 'a=float32[200]', 'size=200'], block=(256,))
fresh12_case('pz_map2d', 'numba', 'pz_map2d', ['out=float32[30,30]', 'a=float32[30,30]', 'size=30'], block=(32, 32))
fresh12_case('pz_broadcast', 'numba', 'pz_broadcast', ['out=float32[30,30]', 'a=float32[30,1]', 'b=float32[1,30]',
             'size=30'], block=(32, 32))
fresh12_case('pz_blocks', 'numba', 'pz_blocks', ['out=float32[230]', 'a=float32[230]', 'size=230'], block=(64,),
             grid=(4,), block_index=(3, 0, 0))
fresh12_case('pz_blocks2d', 'numba', 'pz_blocks2d', ['out=float32[40,40]', 'a=float32[40,40]', 'size=40'],
             block=(16, 16), grid=(3, 3), block_index=(2, 1, 0))
fresh12_case('pz_shared', 'numba', 'pz_shared', ['out=float32[250]', 'a=float32[250]', 'size=250'], block=(64,),
             grid=(4,), block_index=(3, 0, 0))
fresh12_case('pz_pooling', 'numba', 'pz_pooling', ['out=float32[500]', 'a=float32[500]', 'size=500'], block=(128,),
             grid=(4,), block_index=(1, 0, 0))
fresh12_case('pz_dot', 'numba', 'pz_dot', ['out=float32[1]', 'a=float32[200]', 'b=float32[200]', 'size=200'],
             block=(256,))
fresh12_case('pz_conv1d', 'numba', 'pz_conv1d', ['out=float32[300]', 'a=float32[300]', 'b=float32[5]', 'a_size=300',
             'b_size=5'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh12_case('pz_block_sum', 'numba', 'pz_block_sum', ['out=float32[4]', 'a=float32[1000]', 'size=1000'],
             block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh12_case('pz_axis_sum', 'numba', 'pz_axis_sum', ['out=float32[4,1]', 'a=float32[4,100]', 'size=100'],
             block=(128,), grid=(1, 4), block_index=(0, 2, 0))
fresh12_case('pz_matmul', 'numba', 'pz_matmul', ['out=float32[40,40]', 'a=float32[40,40]', 'b=float32[40,40]',
             'size=40'], block=(16, 16), grid=(3, 3), block_index=(1, 2, 0))
# numba docs, CUDA by Example
fresh12_case('fast_matmul_f32', 'numba', 'fast_matmul_f32', ['A=float32[48,40]', 'B=float32[40,56]',
             'C=float32[48,56]'], block=(16, 16), grid=(4, 3), block_index=(3, 2, 0))
fresh12_case('fast_matmul_f64', 'numba', 'fast_matmul_f64', ['A=float64[40,40]', 'B=float64[40,40]',
             'C=float64[40,40]'], block=(16, 16), grid=(3, 3), block_index=(1, 1, 0))
fresh12_case('cbe_dot', 'numba', 'cbe_dot', ['a=float32[3000]', 'b=float32[3000]', 'partial=float32[4]', 'n=3000'],
             block=(256,), grid=(4,), block_index=(2, 0, 0))
fresh12_case('cbe_ripple', 'numba', 'cbe_ripple', ['ptr=uint8[4096]', 'dim=32', 'ticks=5'], block=(16, 16),
             grid=(2, 2), block_index=(1, 1, 0))
fresh12_case('cbe_raytrace', 'numba', 'cbe_raytrace', ['img=uint8[32,64,4]'], block=(16, 16), grid=(4, 2),
             block_index=(2, 1, 0))
fresh12_case('cbe_histo_shared', 'numba', 'cbe_histo_shared', [f"buf={npy('fresh12py_text_bytes_6000')}",
             'size=6000', 'histo=uint32[256]:0..0'], block=(256,), grid=(4,), block_index=(0, 0, 0))
# idioms
fresh12_case('saxpy_strided', 'numba', 'saxpy_strided', ['alpha=2.5', 'x=float32[4500]', 'incx=3', 'y=float32[1500]',
             'incy=1', 'n=1500'], block=(128,), grid=(4,), block_index=(1, 0, 0))
fresh12_case('transposed_view_map', 'numba', 'transposed_view_map', ['src=float32[1200]', 'ld=30',
             'out=float32[30,40]', 'lo=-0.5', 'hi=0.5'], block=(32, 8), grid=(2, 4), block_index=(1, 3, 0))
fresh12_case('sharpen_u8_i16', 'numba', 'sharpen_u8_i16', ['img=uint8[16,90]:0..255', 'taps=int16[9]:-2..5',
             'out=int16[16,90]'], block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh12_case('rotate_reverse_c64', 'numba', 'rotate_reverse_c64', ['x=complex64[300]', 'phase=float32[300]:-3.2..3.2',
             'y=complex64[300]', 'n=300'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh12_case('cbrt_pair_blend', 'numba', 'cbrt_pair_blend', ['x=float32[1000]:-2..2', 'out=float32[1000]',
             'thresh=0.3', 'n=1000'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh12_case('dedupe_claim_shared', 'numba', 'dedupe_claim_shared', [f"keys={npy('fresh12py_dup_keys_1000_of_501')}",
             'slot_of=int32[1000]', 'table_out=int32[4,512]', 'n=1000'], block=(256,), grid=(4,),
             block_index=(3, 0, 0))
fresh12_case('first_over_flag', 'numba', 'first_over_flag', ['x=float32[1000]:0..1', 'thresh=0.9',
             'flags=int32[4]:0..0', 'winner_val=float32[4]', 'n=1000'], block=(256,), grid=(4,), block_index=(1, 0, 0))
fresh12_case('median7_local_f64', 'numba', 'median7_local_f64', ['x=float64[1000]', 'out=float64[1000]', 'n=1000'],
             block=(128,), grid=(8,), block_index=(7, 0, 0))
# Triton tutorials
fresh12_case('add_kernel', 'triton', 'add_kernel', ['x_ptr=float32[5000]', 'y_ptr=float32[5000]',
             'output_ptr=float32[5000]', 'n_elements=5000'], constexprs={'BLOCK_SIZE': 1024}, grid=(5,),
             block_index=(4, 0, 0), num_warps=4)
for name, dt, rows, cols, block, nw, st, g in (('f32_781', 'float32', 12, 781, 1024, 4, 2, 4),
                                               ('f16_3000', 'float16', 6, 3000, 4096, 8, 3, 3)):
    fresh12_case(f'softmax_kernel.{name}', 'triton', 'softmax_kernel', [f'output_ptr={dt}[{rows},{cols}]',
                 f'input_ptr={dt}[{rows},{cols}]:-4..4', f'input_row_stride={cols}', f'output_row_stride={cols}',
                 f'n_rows={rows}', f'n_cols={cols}'], constexprs={'BLOCK_SIZE': block, 'NUM_STAGES': st}, grid=(g,),
                 block_index=(g - 1, 0, 0), num_warps=nw, num_stages=st)
for name, m, n, k, bm, bn, bk, gm, act, nw, st, g, bi in (
        ('leaky_64x64x32', 128, 192, 96, 64, 64, 32, 8, 'leaky_relu', 4, 3, 6, 4),
        ('plain_128x128x64', 256, 256, 128, 128, 128, 64, 8, '', 8, 4, 4, 2),
        ('leaky_ragged_32', 90, 60, 50, 32, 32, 32, 4, 'leaky_relu', 2, 2, 6, 5)):
    fresh12_case(f'matmul_kernel.{name}', 'triton', 'matmul_kernel', [f'a_ptr=float16[{m},{k}]:-1..1',
                 f'b_ptr=float16[{k},{n}]:-1..1', f'c_ptr=float16[{m},{n}]', f'M={m}', f'N={n}', f'K={k}',
                 f'stride_am={k}', 'stride_ak=1', f'stride_bk={n}', 'stride_bn=1', f'stride_cm={n}', 'stride_cn=1'],
                 constexprs={'BLOCK_SIZE_M': bm, 'BLOCK_SIZE_N': bn, 'BLOCK_SIZE_K': bk, 'GROUP_SIZE_M': gm,
                             'ACTIVATION': act}, grid=(g,), block_index=(bi, 0, 0), num_warps=nw, num_stages=st)
fresh12_case('matmul_kernel_persistent', 'triton', 'matmul_kernel_persistent', ['a_ptr=float16[192,96]:-1..1',
             'b_ptr=float16[96,128]:-1..1', 'c_ptr=float16[192,128]', 'M=192', 'N=128', 'K=96', 'stride_am=96',
             'stride_ak=1', 'stride_bk=128', 'stride_bn=1', 'stride_cm=128', 'stride_cn=1'],
             constexprs={'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8, 'NUM_SMS': 4},
             grid=(4,), block_index=(1, 0, 0), num_warps=4, num_stages=3)  # 6 tiles: programs 0 and 1 take two
for _bi in (0, 3):  # tiles 0 and 4 (problem 0, then problem 1); tiles 3 and 7 (problem 0, then problem 2)
    fresh12_case(f'grouped_matmul_kernel.p{_bi}', 'triton', 'grouped_matmul_kernel', [
                 'group_a_ptrs=ptrs(float16[64,64],float16[32,32],float16[64,96])',
                 'group_b_ptrs=ptrs(float16[64,64],float16[32,64],float16[96,32])',
                 'group_c_ptrs=ptrs(float16[64,64],float16[32,64],float16[64,32])',
                 f"group_gemm_sizes={npy('fresh12py_gg_sizes_3')}", f"g_lds={npy('fresh12py_gg_lds_3')}",
                 'group_size=3'], constexprs={'NUM_SM': 4, 'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32},
                 grid=(4,), block_index=(_bi, 0, 0), num_warps=4, num_stages=3)
fresh12_case('seeded_dropout', 'triton', 'seeded_dropout', ['x_ptr=float32[3000]', 'output_ptr=float32[3000]',
             'n_elements=3000', 'p=0.3', 'seed=1234'], constexprs={'BLOCK_SIZE': 1024}, grid=(3,),
             block_index=(2, 0, 0), num_warps=1)
fresh12_case('layer_norm_fwd_fused', 'triton', 'layer_norm_fwd_fused', ['X=float16[6,1000]', 'Y=float16[6,1000]',
             'W=float16[1000]:0.5..1.5', 'B=float16[1000]:-0.5..0.5', 'Mean=float32[6]', 'Rstd=float32[6]',
             'stride=1000', 'N=1000', 'eps=1e-5'], constexprs={'BLOCK_SIZE': 256}, grid=(6,), block_index=(5, 0, 0),
             num_warps=1)
fresh12_case('layer_norm_bwd_dx_fused', 'triton', 'layer_norm_bwd_dx_fused', ['DX=float16[6,300]', 'DY=float16[6,300]',
             'DW=float16[8,300]:0..0', 'DB=float16[8,300]:0..0', 'X=float16[6,300]', 'W=float16[300]:0.5..1.5',
             'Mean=float32[6]:-0.1..0.1', 'Rstd=float32[6]:0.5..2', 'Lock=int32[16]:0..0', 'stride=300', 'N=300'],
             constexprs={'GROUP_SIZE_M': 8, 'BLOCK_SIZE_N': 512}, grid=(6,), block_index=(4, 0, 0),
             num_warps=2)  # 6 rows, 8 locks: each lock taken once, every count found 0
fresh12_case('layer_norm_bwd_dwdb', 'triton', 'layer_norm_bwd_dwdb', ['DW=float16[8,300]:-1..1',
             'DB=float16[8,300]:-1..1', 'FINAL_DW=float16[300]', 'FINAL_DB=float16[300]', 'M=8', 'N=300'],
             constexprs={'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 128}, grid=(3,), block_index=(2, 0, 0), num_warps=4)
for name, zh, t, d, bm, bn, stage, scale, grid, bi, st in (
        ('causal_d64', 2, 128, 64, 64, 32, 3, 0.125, (2, 2), (1, 1, 0), 3),
        ('full_d32_t80', 2, 80, 32, 32, 32, 1, 0.17678, (3, 2), (2, 1, 0), 2)):
    fresh12_case(f'attn_fwd.{name}', 'triton', 'attn_fwd', [f'Q=float16[{zh},{t},{d}]:-1..1',
                 f'K=float16[{zh},{t},{d}]:-1..1', f'V=float16[{zh},{t},{d}]:-1..1', f'M=float32[{zh},{t}]',
                 f'Out=float16[{zh},{t},{d}]', f'sm_scale={scale}', f'T={t}'],
                 constexprs={'HEAD_D': d, 'BLOCK_M': bm, 'BLOCK_N': bn, 'STAGE': stage}, grid=grid, block_index=bi,
                 num_warps=4, num_stages=st)
fresh12_case('attn_fwd_tdesc', 'triton', 'attn_fwd_tdesc', ['desc_q=float16[256,64]:-1..1@64x64',
             'desc_k=float16[256,64]:-1..1@64x64', 'desc_v=float16[256,64]:-1..1@64x64', 'desc_o=float16[256,64]@64x64',
             'sm_scale=0.125', 'T=128'], constexprs={'HEAD_D': 64, 'BLOCK_M': 64, 'BLOCK_N': 64}, grid=(2, 2),
             block_index=(0, 1, 0), num_warps=4, num_stages=3)
# language features
fresh12_case('asin_exp2_guarded', 'triton', 'asin_exp2_guarded', ['x_ptr=float32[4000]:-3..3', 'y_ptr=float32[4000]',
             'n=4000', 'lo=-0.99', 'hi=0.99'], constexprs={'BLOCK': 1024}, grid=(4,), block_index=(3, 0, 0),
             num_warps=8)
fresh12_case('axpby_rows_unrolled', 'triton', 'axpby_rows_unrolled', ['x_ptr=float32[30,208]', 'y_ptr=float32[30,208]',
             'out_ptr=float32[30,208]', 'n_rows=30', 'n_cols=200', 'stride=208', 'alpha=0.5', 'beta=-1.5'],
             constexprs={'ROWS': 4, 'BLOCK': 128}, grid=(8,), block_index=(7, 0, 0), num_warps=4)
fresh12_case('hash_bucket_gather', 'triton', 'hash_bucket_gather', ['keys_ptr=int32[3000]:0..2000000000',
             'table_ptr=float32[1000]', 'out_ptr=float32[3000]', 'bucket_ptr=int32[3000]', 'n=3000', 'n_buckets=1000'],
             constexprs={'BLOCK': 512}, grid=(6,), block_index=(5, 0, 0), num_warps=4)
fresh12_case('head_rms_norm_3d', 'triton', 'head_rms_norm_3d', ['x_ptr=bfloat16[50,4,64]', 'w_ptr=bfloat16[64]:0.5..1.5',
             'y_ptr=bfloat16[50,4,64]', 'T=50', 'eps=1e-6'], constexprs={'BT': 8, 'H': 4, 'D': 64}, grid=(7,),
             block_index=(6, 0, 0), num_warps=4)
fresh12_case('planar_to_interleaved', 'triton', 'planar_to_interleaved', ['re_ptr=float32[1000]', 'im_ptr=float32[1000]',
             'out_ptr=float32[2000]', 'n=1000'], constexprs={'BLOCK': 256}, grid=(4,), block_index=(3, 0, 0),
             num_warps=2)
fresh12_case('space_to_depth2', 'triton', 'space_to_depth2', ['x_ptr=float32[64,96]', 'y_ptr=float32[4,32,48]', 'H=64',
             'W=96'], constexprs={'BH': 16, 'BW': 16}, grid=(3, 2), block_index=(2, 1, 0), num_warps=4)
fresh12_case('matmul_f32_tf32x3', 'triton', 'matmul_f32_tf32x3', ['a_ptr=float32[70,40]:-1..1',
             'b_ptr=float32[40,50]:-1..1', 'c_ptr=float32[70,50]', 'M=70', 'N=50', 'K=40'],
             constexprs={'BM': 32, 'BN': 32, 'BK': 16}, grid=(3, 2), block_index=(2, 1, 0), num_warps=2, num_stages=1)
# ---- the thirteenth fresh held-out batch of Python kernels (kernels/fresh13_numba.py, fresh13_triton.py), written blind:
# what people port to numba-cuda and what ML engineers write in Triton today. Numba: Rodinia's pathfinder (dynproc_kernel,
# a pyramid of 8 rows over 1000 columns, 5 blocks) and hotspot (calculate_temp, a pyramid of 2 on a 36 x 24 grid, 3 x 2
# blocks) on flat arrays; a 2-D heat step whose one-cell halo the tile's edge threads load (48 x 30, ragged in y); a 3-D
# 7-point Laplacian on cuda.grid(3) with a six-face shared halo; GPU Gems' Hillis-Steele scan double-buffered by
# pout/pin and the Blelloch scan padded by an inline='always' CONFLICT_FREE_OFFSET; a bitonic key/value sort of 256 a
# block; Batcher's 8-input network in a cuda.local.array; k-means assignment against cuda.const.array_like centroids
# with shared per-block counts; mat-vecs with x staged in shared memory, a thread a row and a thread a column; a
# batched float64 matmul on a 3-D grid; a shfl_down_sync / shfl_xor_sync block sum (8 and 3 warps); ballot_sync +
# popc compaction into shared memory; a match_any_sync + activemask warp-aggregated histogram; float32 and int32
# shared-bin atomics with an int32 atomic.max; atomic.inc / exch / dec on a shared ring of int32 indices; eager signatures in layout A
# (a naive transpose) and layout C (a padded tiled transpose with an int32 width); a Gram matrix through a.T taken in
# the kernel; int8 -> uint16, float16 (cuda.fp16.hmul, a half tile) and complex128 (a Stockham FFT ping-ponging two
# shared buffers) data; a row softmax in dynamic shared memory at two sizes. Triton: vLLM's fused MoE GEMM over
# expert-sorted token slots (the w1 call at BLOCK_M 32 and the w2 call at 16 with the routing weights, N 48 wrapped by
# % N); an MoE router's softmax and tl.topk over packed keys; split-KV decode attention over a paged cache (stage 1
# through a block table, head dim 96 in 128 lanes, GQA 2) and its log-sum-exp merge (stage 2, 4 splits); prefix/extend
# attention over ragged cu_seqlens with a cached prefix (MHA at 32x32, GQA 2 at 64x16 and 1 stage); unsloth's SwiGLU
# forward and in-place backward and exact GeGLU; Liger's RMSNorm backward with dW partial rows (Gemma offset 1.0);
# neox RoPE, partial rotary 64 of 128, 6 query and 2 key heads a token; an autotuned FlagGems-style Welford var_mean by
# tl.reduce (float32 at 4 x 256, float16 at 1 x 1024 / 8 warps); Liger's cross entropy with label smoothing over 32000
# logits (BLOCK 4096, one ignored row); fp8 per-token and per-token-group (ue8m0, 1 warp) quantisation; punica's bgmv
# shrink (split-K 2 by atomics, and 1); inductor-style kernels (a bf16 pointwise with tl.full and eviction hints, a
# 2-D clone/transpose over ynumel/xnumel, a persistent softmax, a looped RMSNorm reduction); a linear layer on in-kernel
# tensor descriptors with a K-major weight (64x64x32 / 4 stages, 128x64x64 / 8 warps); an autotuned bmm on program_id(2) with
# int64 batch offsets. Every launch's whole grid (1 to 8 blocks or programs) is counted. linear_block_ptr_kernel (block
# pointers: tl.make_block_ptr, tl.advance, boundary_check) has no case: Triton 3.9, which builds the cubins here, removed
# block pointers ("in favor of the tensor descriptor API"); linear_tensor_desc_kernel, the same layer on in-kernel
# tensor descriptors, takes its two launches
def fresh13_case(id, compiler, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages, block, dyn) of a kernel of
    fresh13_{compiler}.py."""
    c = fresh2_case(id, compiler, kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh13.{compiler}.{id}", file=f"{K}/fresh13_{compiler}.py")
    return c


# Rodinia ports, stencils
fresh13_case('dynproc_kernel', 'numba', 'dynproc_kernel', ['iteration=8', 'gpuWall=int32[16000]:0..9',
             'gpuSrc=int32[1000]:0..9', 'gpuResults=int32[1000]', 'cols=1000', 'rows=17', 'startStep=0', 'border=8'],
             block=(256,), grid=(5,), block_index=(4, 0, 0))
fresh13_case('calculate_temp', 'numba', 'calculate_temp', ['iteration=2', 'power=float32[864]:0..0.01',
             'temp_src=float32[864]:320..340', 'temp_dst=float32[864]', 'grid_cols=36', 'grid_rows=24', 'border_cols=2',
             'border_rows=2', 'Cap=0.5', 'Rx=1.2', 'Ry=1.2', 'Rz=4.0', 'step=0.01'], block=(16, 16), grid=(3, 2),
             block_index=(2, 1, 0))
fresh13_case('heat_step_halo', 'numba', 'heat_step_halo', ['u=float32[30,48]:0..1', 'u_new=float32[30,48]',
             'alpha=0.2'], block=(16, 16), grid=(3, 2), block_index=(1, 1, 0))
fresh13_case('laplace3d_shared', 'numba', 'laplace3d_shared', ['u=float32[8,8,32]', 'out=float32[8,8,32]',
             'h2inv=4.0'], block=(16, 4, 4), grid=(2, 2, 2), block_index=(1, 1, 1))
# scans, sorts
fresh13_case('scan_hillis_steele', 'numba', 'scan_hillis_steele', ['g_odata=float32[1024]', 'g_idata=float32[1024]',
             'sums=float32[4]', 'n=256'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh13_case('scan_blelloch_padded', 'numba', 'scan_blelloch_padded', ['g_odata=float32[1024]',
             'g_idata=float32[1024]', 'sums=float32[2]', 'n=512'], block=(256,), grid=(2,), block_index=(1, 0, 0))
fresh13_case('bitonic_sort_block', 'numba', 'bitonic_sort_block', ['keys=float32[512]', 'vals=int32[512]'],
             block=(256,), grid=(2,), block_index=(1, 0, 0))
fresh13_case('sort8_network_local', 'numba', 'sort8_network_local', ['x=float32[300,8]', 'out=float32[300,8]',
             'med=float32[300]'], block=(64,), grid=(5,), block_index=(4, 0, 0))
# k-means, mat-vec, batched matmul
fresh13_case('kmeans_assign', 'numba', 'kmeans_assign', ['points=float32[1000,4]', 'labels=int32[1000]',
             'counts=int32[8]:0..0'], block=(128,), grid=(8,), block_index=(7, 0, 0))
fresh13_case('matvec_row_per_thread', 'numba', 'matvec_row_per_thread', ['A=float32[300,200]', 'x=float32[200]',
             'y=float32[300]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh13_case('matvec_col_walk', 'numba', 'matvec_col_walk', ['A=float32[200,300]', 'x=float32[200]',
             'y=float32[300]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
fresh13_case('batched_matmul_f64', 'numba', 'batched_matmul_f64', ['A=float64[4,20,24]', 'B=float64[4,24,16]',
             'C=float64[4,20,16]'], block=(16, 16), grid=(1, 2, 4), block_index=(0, 1, 3))
# warp primitives, atomics
fresh13_case('block_sum_shfl.w8', 'numba', 'block_sum_shfl', ['x=float32[5000]', 'out=float32[1]:0..0', 'n=5000'],
             block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh13_case('block_sum_shfl.w3', 'numba', 'block_sum_shfl', ['x=float32[1000]', 'out=float32[1]:0..0', 'n=1000'],
             block=(96,), grid=(2,), block_index=(1, 0, 0))
fresh13_case('compact_positive', 'numba', 'compact_positive', ['x=float32[1000]', 'out=float32[1024]',
             'block_counts=int32[4]', 'n=1000'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh13_case('warp_aggregated_hist', 'numba', 'warp_aggregated_hist',
             [f"keys={npy('fresh13py_warp_keys_1000_of_64')}", 'bins=int32[64]:0..0', 'n=1000'], block=(256,),
             grid=(4,), block_index=(3, 0, 0))
fresh13_case('weighted_hist', 'numba', 'weighted_hist', [f"idx={npy('fresh13py_hot_bins_3000_of_128')}",
             'w=float32[3000]:0..1', 'counts=int32[128]:0..0', 'sums=float32[128]:0..0', 'peak=int32[128]:0..0',
             'n=3000'], block=(256,), grid=(4,), block_index=(2, 0, 0))
fresh13_case('ring_claim', 'numba', 'ring_claim', ['x=float32[1000]:0..1', 'thresh=0.6', 'ring_out=int32[4,64]',
             'evicted=int32[4]', 'credits_out=uint32[4]', 'n=1000'], block=(256,), grid=(4,), block_index=(3, 0, 0))
# eager signatures, transposes
fresh13_case('transpose_naive_any', 'numba', 'transpose_naive_any', ['src=float32[24,64]', 'dst=float32[64,24]'],
             block=(32, 8), grid=(2, 3), block_index=(1, 2, 0))
fresh13_case('transpose_tiled_c', 'numba', 'transpose_tiled_c', ['idata=float32[64,96]', 'odata=float32[96,64]',
             'width=96'], block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh13_case('gram_via_transpose', 'numba', 'gram_via_transpose', ['a=float32[50,24]', 'g=float32[24,24]'],
             block=(16, 16), grid=(2, 2), block_index=(1, 1, 0))
# small and wide element types, dynamic shared memory
fresh13_case('box5_i8_u16', 'numba', 'box5_i8_u16', ['x=int8[1000]:-100..100', 'y=uint16[1000]', 'n=1000'],
             block=(128,), grid=(8,), block_index=(7, 0, 0))
fresh13_case('transpose_scale_f16', 'numba', 'transpose_scale_f16', ['idata=float16[64,80]', 'odata=float16[80,64]',
             'scale=float16[1]:0.5..2'], block=(32, 8), grid=(3, 2), block_index=(2, 1, 0))
fresh13_case('stockham_fft_c128', 'numba', 'stockham_fft_c128', ['x=complex128[8,64]', 'y=complex128[8,64]'],
             block=(32, 4), grid=(2,), block_index=(1, 0, 0))
for _name, _r, _c, _tpb, _g in (('r6x700', 6, 700, 256, 6), ('r4x1000', 4, 1000, 128, 4)):
    fresh13_case(f'softmax_rows_dyn.{_name}', 'numba', 'softmax_rows_dyn', [f'x=float32[{_r},{_c}]:-4..4',
                 f'y=float32[{_r},{_c}]'], block=(_tpb,), grid=(_g,), block_index=(_g - 1, 0, 0), dyn=4 * _c)
# MoE
for _name, _bm, _bn, _gm, _mul, _topk, _kk, _nn, _em, _g, _st in (('w1_bm32', 32, 32, 8, False, 2, 64, 64, 117, 8, 3),
                                                                 ('w2_bm16', 16, 64, 1, True, 1, 64, 48, 69, 5, 4)):
    fresh13_case(f'fused_moe_kernel.{_name}', 'triton', 'fused_moe_kernel', [
                 f'a_ptr=float16[{24 // _topk},{_kk}]:-1..1', f'b_ptr=float16[3,{_nn},{_kk}]:-1..1',
                 f'c_ptr=float16[24,{_nn}]', 'topk_weights_ptr=float32[24]:0.1..0.9',
                 f"sorted_token_ids_ptr={npy(f'fresh13py_moe_sorted_ids_bm{_bm}')}",
                 f"expert_ids_ptr={npy(f'fresh13py_moe_expert_ids_bm{_bm}')}",
                 f"num_tokens_post_padded_ptr={npy(f'fresh13py_moe_padded_bm{_bm}')}", f'N={_nn}', f'K={_kk}',
                 f'EM={_em}', 'num_valid_tokens=24', f'stride_am={_kk}', 'stride_ak=1', f'stride_be={_nn * _kk}',
                 'stride_bk=1', f'stride_bn={_kk}', f'stride_cm={_nn}', 'stride_cn=1'],
                 constexprs={'BLOCK_SIZE_M': _bm, 'BLOCK_SIZE_N': _bn, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': _gm,
                             'MUL_ROUTED_WEIGHT': _mul, 'top_k': _topk}, grid=(_g,), block_index=(0, 0, 0),
                 num_warps=4, num_stages=_st)
fresh13_case('router_topk_softmax', 'triton', 'router_topk_softmax', ['logits_ptr=float32[50,60]:-3..3',
             'weights_ptr=float32[50,4]', 'ids_ptr=int32[50,4]', 'n_tokens=50', 'n_experts=60', 'stride_l=60'],
             constexprs={'BLOCK_T': 8, 'BLOCK_E': 64, 'TOPK': 4, 'RENORMALIZE': True}, grid=(7,), block_index=(6, 0, 0),
             num_warps=2)
# attention
fresh13_case('_fwd_kernel_stage1', 'triton', '_fwd_kernel_stage1', ['Q=float16[2,2,96]', 'K_Cache=float16[16,16,1,96]',
             'V_Cache=float16[16,16,1,96]', 'sm_scale=0.10206', f"Block_Tables={npy('fresh13py_decode_block_tables_2x8')}",
             f"Seq_Lens={npy('fresh13py_decode_seq_lens_2')}", 'Att_Out=float32[2,2,2,97]', 'stride_qbs=192',
             'stride_qh=96', 'stride_kb=1536', 'stride_kt=96', 'stride_kh=96', 'stride_bt=8', 'stride_mid_ob=388',
             'stride_mid_oh=194', 'stride_mid_os=97'],
             constexprs={'kv_group_num': 2, 'PAGE_SIZE': 16, 'BLOCK_DMODEL': 128, 'BLOCK_N': 32, 'NUM_KV_SPLITS': 2,
                         'Lk': 96}, grid=(2, 2, 2), block_index=(1, 1, 1), num_warps=4, num_stages=2)
fresh13_case('_fwd_kernel_stage2', 'triton', '_fwd_kernel_stage2', ['Mid_O=float32[2,4,4,97]:-2..2',
             'O=float16[2,4,96]', f"Seq_Lens={npy('fresh13py_decode_seq_lens_2')}", 'stride_mid_ob=1552',
             'stride_mid_oh=388', 'stride_mid_os=97', 'stride_obs=384', 'stride_oh=96'],
             constexprs={'NUM_KV_SPLITS': 4, 'BLOCK_DV': 128, 'Lv': 96}, grid=(2, 4), block_index=(1, 3, 0),
             num_warps=4, num_stages=2)
for _name, _hq, _g, _bm, _bn, _st, _nw in (('mha_32x32', 2, (2, 2, 2), 32, 32, 3, 4),
                                            ('gqa2_64x16', 4, (2, 4, 1), 64, 16, 1, 4)):
    fresh13_case(f'_fwd_kernel_prefix.{_name}', 'triton', '_fwd_kernel_prefix', [f'Q=float16[73,{_hq},64]',
                 'K=float16[93,2,64]', 'V=float16[93,2,64]', 'sm_scale=0.125',
                 f"Cu_Seqlens_Q={npy('fresh13py_prefix_cu_seqlens_q')}",
                 f"Cu_Seqlens_K={npy('fresh13py_prefix_cu_seqlens_k')}", f'Out=float16[73,{_hq},64]',
                 f'stride_qbs={64 * _hq}', 'stride_qh=64', 'stride_kbs=128', 'stride_kh=64', 'stride_vbs=128',
                 'stride_vh=64', f'stride_obs={64 * _hq}', 'stride_oh=64'],
                 constexprs={'kv_group_num': _hq // 2, 'BLOCK_M': _bm, 'BLOCK_DMODEL': 64, 'BLOCK_N': _bn}, grid=_g,
                 block_index=(0, 0, 0), num_warps=_nw, num_stages=_st)
# activations, normalisation, RoPE, statistics
fresh13_case('_fg_kernel', 'triton', '_fg_kernel', ['e=float16[5000]:-4..4', 'g=float16[5000]:-2..2', 'h=float16[5000]',
             'n_elements=5000'], constexprs={'BLOCK_SIZE': 1024}, grid=(5,), block_index=(4, 0, 0), num_warps=4)
fresh13_case('_DWf_DW_dfg_kernel', 'triton', '_DWf_DW_dfg_kernel', ['DW=bfloat16[6000]', 'e=bfloat16[6000]:-4..4',
             'g=bfloat16[6000]:-2..2', 'n_elements=6000'], constexprs={'BLOCK_SIZE': 1024}, grid=(6,),
             block_index=(5, 0, 0), num_warps=4)
fresh13_case('_exact_forward_kernel', 'triton', '_exact_forward_kernel', ['e=bfloat16[3000]:-4..4',
             'g=bfloat16[3000]:-2..2', 'h=bfloat16[3000]', 'n_elements=3000'], constexprs={'BLOCK_SIZE': 1024},
             grid=(3,), block_index=(2, 0, 0), num_warps=2)
fresh13_case('_rms_norm_backward_kernel', 'triton', '_rms_norm_backward_kernel', ['dY_ptr=float16[20,300]',
             'dY_row_stride=300', 'dX_ptr=float16[20,300]', 'dX_row_stride=300', 'X_ptr=float16[20,300]',
             'X_row_stride=300', 'W_ptr=float16[300]:-0.5..0.5', 'RSTD_ptr=float32[20]:0.5..2', 'RSTD_row_stride=1',
             'dW_ptr=float32[7,300]', 'dW_row_stride=300', 'n_rows=20', 'n_cols=300', 'offset=1.0'],
             constexprs={'rows_per_program': 3, 'BLOCK_SIZE': 512}, grid=(7,), block_index=(6, 0, 0), num_warps=4)
fresh13_case('rotary_embedding_neox', 'triton', 'rotary_embedding_neox', [
             f"positions_ptr={npy('fresh13py_rope_positions_8')}", 'q_ptr=float16[8,6,128]', 'k_ptr=float16[8,2,128]',
             f"cos_sin_cache_ptr={npy('fresh13py_rope_cos_sin_64x64')}", 'q_stride_t=768', 'k_stride_t=256',
             'cache_stride=64', 'num_q_heads=6', 'num_kv_heads=2'],
             constexprs={'HEAD_SIZE': 128, 'ROT_DIM': 64, 'BLOCK_HQ': 8, 'BLOCK_HK': 2}, grid=(8,), block_index=(7, 0, 0),
             num_warps=2)
for _name, _dt, _m, _n, _corr, _bm, _bn, _nw, _st in (('f32_4x256', 'float32', 10, 1000, 1, 4, 256, 4, 3),
                                                       ('f16_1x1024', 'float16', 6, 3000, 0, 1, 1024, 8, 2)):
    fresh13_case(f'var_mean_welford_kernel.{_name}', 'triton', 'var_mean_welford_kernel', [
                 f'X={_dt}[{_m},{_n}]:-2..2', f'Var=float32[{_m}]', f'Mean=float32[{_m}]', f'M={_m}', f'N={_n}',
                 f'correction={_corr}'], constexprs={'BLOCK_M': _bm, 'BLOCK_N': _bn}, grid=(-(-_m // _bm),),
                 block_index=(0, 0, 0), num_warps=_nw, num_stages=_st)
# losses, quantisation, LoRA
fresh13_case('liger_cross_entropy_kernel', 'triton', 'liger_cross_entropy_kernel', ['X_ptr=float32[6,32000]:-5..5',
             'X_stride=32000', f"Y_ptr={npy('fresh13py_ce_targets_6')}", 'Y_stride=1', 'loss_ptr=float32[6]',
             'loss_stride=1', 'n_cols=32000', 'n_non_ignore=5', 'ignore_index=-100'],
             constexprs={'label_smoothing': 0.1, 'reduction': 'mean', 'BLOCK_SIZE': 4096}, grid=(6,),
             block_index=(5, 0, 0), num_warps=8, num_stages=3)
fresh13_case('_per_token_quant_fp8', 'triton', '_per_token_quant_fp8', ['y_ptr=bfloat16[6,1000]:-3..3',
             'y_q_ptr=float8_e4m3fn[6,1000]', 'y_s_ptr=float32[6]', 'stride_y=1000', 'H=1000', 'eps=1e-10',
             'fp8_min=-448.0', 'fp8_max=448.0'], constexprs={'BLOCK': 1024}, grid=(6,), block_index=(5, 0, 0),
             num_warps=4, num_stages=1)
fresh13_case('_per_token_group_quant_fp8', 'triton', '_per_token_group_quant_fp8', ['y_ptr=float16[4,256]:-3..3',
             'y_q_ptr=float8_e4m3fn[4,256]', 'y_s_ptr=float32[8]', 'group_size=128', 'y_num_columns=256',
             'y_row_stride=256', 'eps=1e-10', 'fp8_min=-448.0', 'fp8_max=448.0'],
             constexprs={'use_ue8m0': True, 'BLOCK': 128}, grid=(8,), block_index=(7, 0, 0), num_warps=1, num_stages=1)
for _name, _bk, _sk, _nw in (('split2', 128, 2, 4), ('split1', 256, 1, 2)):
    fresh13_case(f'_bgmv_shrink_kernel.{_name}', 'triton', '_bgmv_shrink_kernel', ['input_ptr=float16[4,512]',
                 'lora_ptr=float16[3,16,512]', 'out_ptr=float32[4,16]:0..0', 'N=16', 'K=512',
                 f"lora_indices={npy('fresh13py_lora_indices_4')}", 'scaling=0.5', 'xm_stride=512', 'xk_stride=1',
                 'l0_stride=8192', 'lora_k_stride=512', 'lora_n_stride=1', 'cm_stride=16', 'cn_stride=1'],
                 constexprs={'BLOCK_N': 16, 'BLOCK_K': _bk, 'SPLIT_K': _sk}, grid=(_sk, 4), block_index=(0, 0, 0),
                 num_warps=_nw, num_stages=2)
# inductor-style
fresh13_case('triton_poi_fused_add_mul_relu_silu_0', 'triton', 'triton_poi_fused_add_mul_relu_silu_0', [
             'in_out_ptr0=bfloat16[8,768]', 'in_ptr0=bfloat16[768]', 'in_ptr1=bfloat16[8,768]:-4..4', 'xnumel=6144'],
             constexprs={'XBLOCK': 1024}, grid=(6,), block_index=(5, 0, 0), num_warps=4, num_stages=1)
fresh13_case('triton_poi_fused_clone_1', 'triton', 'triton_poi_fused_clone_1', ['in_ptr0=float16[4,128,64]',
             'out_ptr0=float16[4,64,128]', 'ynumel=256', 'xnumel=128'], constexprs={'YBLOCK': 64, 'XBLOCK': 64},
             grid=(2, 4), block_index=(1, 3, 0), num_warps=4, num_stages=1)
fresh13_case('triton_per_fused__softmax_2', 'triton', 'triton_per_fused__softmax_2', ['in_ptr0=float32[40,100]:-4..4',
             'out_ptr2=float32[40,100]', 'xnumel=40', 'rnumel=100'], constexprs={'XBLOCK': 8}, grid=(5,),
             block_index=(4, 0, 0), num_warps=2, num_stages=1)
fresh13_case('triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_3', 'triton',
             'triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_3', ['in_out_ptr0=float32[16]',
             'in_ptr0=bfloat16[16,2048]:-2..2', 'in_ptr1=bfloat16[2048]:0.5..1.5', 'out_ptr0=bfloat16[16,2048]',
             'xnumel=16', 'rnumel=2048'], constexprs={'XBLOCK': 2, 'RBLOCK': 512}, grid=(8,), block_index=(7, 0, 0),
             num_warps=4, num_stages=1)
# matmuls
for _name, _m, _n, _k, _bm, _bn, _bk, _gm, _nw, _st in (('64x64x32_s4', 100, 120, 72, 64, 64, 32, 8, 4, 4),
                                                         ('128x64x64_w8', 200, 96, 128, 128, 64, 64, 4, 8, 2)):
    fresh13_case(f'linear_tensor_desc_kernel.{_name}', 'triton', 'linear_tensor_desc_kernel', [
                 f'x_ptr=float16[{_m},{_k}]:-1..1', f'w_ptr=float16[{_n},{_k}]:-1..1', f'y_ptr=float16[{_m},{_n}]',
                 f'M={_m}', f'N={_n}', f'K={_k}'], constexprs={'BLOCK_M': _bm, 'BLOCK_N': _bn, 'BLOCK_K': _bk,
                 'GROUP_M': _gm}, grid=(-(-_m // _bm) * -(-_n // _bn),), block_index=(0, 0, 0), num_warps=_nw,
                 num_stages=_st)
fresh13_case('bmm_kernel', 'triton', 'bmm_kernel', ['a_ptr=float16[2,48,40]:-1..1', 'b_ptr=float16[2,40,56]:-1..1',
             'c_ptr=float16[2,48,56]', 'M=48', 'N=56', 'K=40', 'stride_ab=1920', 'stride_am=40', 'stride_ak=1',
             'stride_bb=2240', 'stride_bk=56', 'stride_bn=1', 'stride_cb=2688', 'stride_cm=56', 'stride_cn=1'],
             constexprs={'BLOCK_M': 32, 'BLOCK_N': 32, 'BLOCK_K': 32}, grid=(2, 2, 2), block_index=(1, 1, 1),
             num_warps=4, num_stages=2)


# ---- the fourteenth fresh held-out batch of Python kernels (kernels/fresh14_numba.py): Numba kernels as scientific
# Python programmers write them for their own codes. A checkerboard Ising Metropolis sweep (an int8 shared tile with a
# periodic halo, the random numbers an array); an SPH poly6 density over a 5x5x5 cell list of cell-sorted particles;
# PIC charge deposition (cloud-in-cell by global float32 atomics on a periodic grid, nearest-grid-point into a whole
# 32x32 grid in shared memory flushed by atomics); a Sobel filter on uint8 images whose tile and halo are in dynamic
# shared memory ((blockDim.y + 2) x (blockDim.x + 2) bytes: 16x16 on a 40x45 image, 32x8 on a 30x60 one); a 5x5
# erosion on a 20x20 uint8 shared window; a two-pass integral image (a row scan in shared memory with a carry between
# chunks, rows grid-strided over 8 blocks; a column pass, a thread a column); a 31-tap FIR with its taps in
# cuda.const.array_like and the samples and their history in shared memory; a moving average by a float64 block scan
# over overlapping segments; k-mer counting (int64 keys of 21 uint8 codes, a Fibonacci hash into 4096 counters by
# atomics; a k = 4 spectrum in a shared histogram); CSR SpMV a warp a row by shfl_down_sync (float64, 36 ragged rows);
# a float64 Jacobi step with its residual reduced per block in shared memory; CG's float64 dot product (shfl_xor_sync,
# a shared partial a warp, one atomic a block); a 32x32 lower-triangular tile solve, a thread a right-hand side; a
# complex64 correlation against a shared template; a float16 scale by plain conversions; a bool-mask compaction on an
# atomic counter; 3x3 inverses in 2-D cuda.local.array matrices; a particle push through device functions that return
# tuples (inline='always', forceinline, neither); a 3-D gather with int64 index arithmetic over explicit large strides
def fresh14_numba_case(id, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, block, dyn) of a kernel of fresh14_numba.py."""
    c = fresh2_case(id, 'numba', kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh14.numba.{id}", file=f"{K}/fresh14_numba.py")
    return c


# physics and particles
fresh14_numba_case('ising_sweep_shared.L40', 'ising_sweep_shared', [f"spins={npy('fresh14py_numba_spins_40x40')}",
                   'rand=float32[40,40]:0..1', 'beta=0.44', 'color=0'], block=(16, 16), grid=(3, 3),
                   block_index=(2, 2, 0))
fresh14_numba_case('sph_density_cells.n600', 'sph_density_cells', [f"pos={npy('fresh14py_numba_sph_pos_600')}",
                   f"cell_start={npy('fresh14py_numba_sph_cell_start_125')}",
                   f"cell_end={npy('fresh14py_numba_sph_cell_end_125')}", 'rho=float32[600]', 'h=0.1', 'mass=0.02',
                   'ncell=5', 'cell_size=0.1'], block=(128,), grid=(5,), block_index=(4, 0, 0))
fresh14_numba_case('deposit_cic_atomic.n2000', 'deposit_cic_atomic', [f"px={npy('fresh14py_numba_pic_x_2000')}",
                   f"py={npy('fresh14py_numba_pic_y_2000')}", 'q=float32[2000]:0.5..1.5', 'rho=float32[40,64]:0..0',
                   'dx=0.5', 'dy=0.5'], block=(256,), grid=(8,), block_index=(7, 0, 0))
fresh14_numba_case('deposit_ngp_shared.n2000', 'deposit_ngp_shared', [f"px={npy('fresh14py_numba_pic_x_2000')}",
                   f"py={npy('fresh14py_numba_pic_y_2000')}", 'q=float32[2000]:0.5..1.5', 'rho=float32[32,32]:0..0',
                   'inv_dx=1.0'], block=(256,), grid=(4,), block_index=(3, 0, 0))
# images
fresh14_numba_case('sobel_u8_dyn.16x16.40x45', 'sobel_u8_dyn', ['img=uint8[40,45]:0..255', 'out=uint8[40,45]'],
                   block=(16, 16), grid=(3, 3), block_index=(2, 2, 0), dyn=18 * 18)
fresh14_numba_case('sobel_u8_dyn.32x8.30x60', 'sobel_u8_dyn', ['img=uint8[30,60]:0..255', 'out=uint8[30,60]'],
                   block=(32, 8), grid=(2, 4), block_index=(1, 3, 0), dyn=34 * 10)
fresh14_numba_case('erode5_u8_tile.40x45', 'erode5_u8_tile', ['img=uint8[40,45]:0..255', 'out=uint8[40,45]'],
                   block=(16, 16), grid=(3, 3), block_index=(2, 2, 0))
fresh14_numba_case('integral_row_scan.40x300', 'integral_row_scan', ['img=uint8[40,300]:0..255',
                   'rowsum=int32[40,300]'], block=(256,), grid=(8,), block_index=(7, 0, 0))
fresh14_numba_case('integral_col_pass.40x300', 'integral_col_pass', ['rowsum=int32[40,300]:0..2000',
                   'out=int32[40,300]'], block=(128,), grid=(3,), block_index=(2, 0, 0))
# signals
fresh14_numba_case('fir_taps_shared.n2000', 'fir_taps_shared', ['x=float32[2000]', 'y=float32[2000]'], block=(256,),
                   grid=(8,), block_index=(7, 0, 0))
fresh14_numba_case('moving_avg_scan.n1000', 'moving_avg_scan', ['x=float32[1000]', 'y=float32[1000]'], block=(256,),
                   grid=(5,), block_index=(4, 0, 0))
fresh14_numba_case('xcorr_c64_template.n1200', 'xcorr_c64_template', ['a=complex64[1200]', 'b=complex64[64]',
                   'out=complex64[1137]'], block=(128,), grid=(9,), block_index=(8, 0, 0))
# genomics
fresh14_numba_case('kmer_hash_count.k21', 'kmer_hash_count', [f"seq={npy('fresh14py_numba_dna_2000')}",
                   'counts=int32[4096]:0..0', 'k=21'], block=(256,), grid=(8,), block_index=(7, 0, 0))
fresh14_numba_case('kmer4_spectrum_shared.n2000', 'kmer4_spectrum_shared', [f"seq={npy('fresh14py_numba_dna_2000')}",
                   'spectrum=int32[256]:0..0'], block=(128,), grid=(4,), block_index=(3, 0, 0))
# linear algebra
fresh14_numba_case('spmv_csr_warp_shfl.r36', 'spmv_csr_warp_shfl', [f"indptr={npy('fresh14py_numba_csr_indptr_36')}",
                   f"indices={npy('fresh14py_numba_csr_indices_36')}", f"data={npy('fresh14py_numba_csr_data_36')}",
                   'x=float64[200]', 'y=float64[36]'], block=(128,), grid=(9,), block_index=(8, 0, 0))
fresh14_numba_case('jacobi_residual_f64.40x44', 'jacobi_residual_f64', ['u=float64[40,44]', 'f=float64[40,44]',
                   'u_new=float64[40,44]', 'block_res=float64[9]', 'h2=0.01'], block=(16, 16), grid=(3, 3),
                   block_index=(2, 2, 0))
fresh14_numba_case('cg_dot_xor.n5000', 'cg_dot_xor', ['a=float64[5000]', 'b=float64[5000]', 'out=float64[1]:0..0',
                   'n=5000'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh14_numba_case('trsm_lower_tile.rhs80', 'trsm_lower_tile', [f"L={npy('fresh14py_numba_lower_32')}",
                   'B=float32[32,80]', 'X=float32[32,80]'], block=(32,), grid=(3,), block_index=(2, 0, 0))
fresh14_numba_case('inv3x3_local.n500', 'inv3x3_local', ['A=float32[500,3,3]', 'Ainv=float32[500,3,3]',
                   'det=float32[500]'], block=(64,), grid=(8,), block_index=(7, 0, 0))
# device functions returning tuples, float16, compaction, strides
fresh14_numba_case('advect_reflect_tuples.n700', 'advect_reflect_tuples', ['pos=float32[700,2]:0..1',
                   'vel=float32[700,2]:-0.5..0.5', 'polar=float32[700,2]', 'dt=0.05', 'gamma=0.1', 'lo=0.0', 'hi=1.0'],
                   block=(128,), grid=(6,), block_index=(5, 0, 0))
fresh14_numba_case('scale_f16_plain.n3000', 'scale_f16_plain', ['x=float16[3000]:-4..4', 'y=float16[3000]',
                   'alpha=0.75', 'beta=0.125'], block=(256,), grid=(4,), block_index=(3, 0, 0))
fresh14_numba_case('compact_mask_atomic.n2000', 'compact_mask_atomic', ['x=float32[2000]',
                   f"mask={npy('fresh14py_numba_mask_2000')}", 'out=float32[2000]', 'out_idx=int32[2000]',
                   'counter=int32[1]:0..0'], block=(256,), grid=(8,), block_index=(7, 0, 0))
fresh14_numba_case('gather_strided_i64.plane_fastest', 'gather_strided_i64', ['src=float32[655000]',
                   'dst=float32[4,8,40]', 'offset=5', 's0=1', 's1=2053', 's2=16421'], block=(32, 4, 2), grid=(2, 2, 2),
                   block_index=(1, 1, 1))
fresh14_numba_case('gather_strided_i64.s0_2e20', 'gather_strided_i64', ['src=float32[1049700]', 'dst=float32[2,16,48]',
                   'offset=3', 's0=1048583', 's1=65', 's2=2'], block=(16, 8, 2), grid=(3, 2, 1), block_index=(2, 1, 0))
# ---- the fourteenth fresh held-out batch of Python kernels (kernels/fresh14_triton.py), written blind: Triton as the
# 2025-2026 open-source ML projects write it. Mamba-2's SSD kernels (_chunk_cumsum_fwd_kernel with softplus dt and
# dt_bias over 2 x 100 tokens, 4 heads in an 8-lane head block, chunks of 64; _chunk_state_fwd_kernel, x^T . (B
# scaled by exp(dA_last - dA) dt) by tl.dot over the chunk at 32x16x32; _state_passing_fwd_kernel over 2 chunks of
# 512-wide states; a simplified _chunk_scan_fwd_kernel with the causal C.B^T block, the previous state and D, 2 heads); a
# causal_conv1d forward over (batch, dim, seqlen) with width-4 taps (fp16 with bias and SiLU, fp32 without);
# flash-linear-attention's chunk_local_cumsum (forward at BT 64, reversed at 32), fused_recurrent linear attention with
# a scalar gate and the state in registers (1 warp, initial and final states), chunk_fwd_kernel_h (k^T v by tl.dot a
# chunk, gated); a Mamba-1 selective scan by tl.associative_scan of a user combine function (L 100 in 128 lanes);
# RWKV-4's wkv recurrence; block-sparse attention over an int32 layout LUT (230 keys, 64x64 blocks); a w8a8 int8 scaled
# matmul (int8 tl.dot into int32, per-row and per-column scales: 32x32x64 with bias over M 37, 128x128x64 / 8 warps
# over a K-major B); DeepSeek's block-wise fp8 matmul (float8_e4m3fn, per-128 block scales, 64x128x128); the four
# stages of moe_align_block_size in Triton (per-program counts, the cumsum over programs, the padded tl.cumsum, the
# scatter into sorted token ids) and an atomic expert histogram; top-k / top-p renormalisation by threshold bisection;
# a repetition penalty by gather/scatter of int64 token ids; an embedding bag (sum, per-sample weights) over int64
# offsets; vLLM's reshape_and_cache_flash by an int64 slot mapping (one -1, an early return); speculative decoding's
# rejection_random_sample_kernel (float64 uniforms) and sample_recovered_tokens_kernel (argmax of max(p - q, 0) / q,
# with and without draft probabilities). Grids of 1 to 8 programs
def fresh14_triton_case(id, kernel, args, grid=(1, 1, 1), block_index=(0, 0, 0), **launch):
    """fresh2_case's launch (grid, block_index, constexprs, num_warps, num_stages) of a kernel of fresh14_triton.py."""
    c = fresh2_case(id, 'triton', kernel, args, grid=grid, block_index=block_index, **launch)
    c.update(id=f"fresh14.triton.{id}", file=f"{K}/fresh14_triton.py")
    return c


# Mamba-2 SSD
fresh14_triton_case('_chunk_cumsum_fwd_kernel', '_chunk_cumsum_fwd_kernel', [
    'dt_ptr=float16[2,100,4]:-3..1', 'A_ptr=float32[4]:-2..-0.5', 'dt_bias_ptr=float32[4]:-1..0.5',
    'dt_out_ptr=float32[2,4,2,64]', 'dA_cumsum_ptr=float32[2,4,2,64]', 'batch=2', 'seqlen=100', 'nheads=4',
    'chunk_size=64', 'dt_min=0.001', 'dt_max=100.0', 'stride_dt_batch=400', 'stride_dt_seqlen=4', 'stride_dt_head=1',
    'stride_A_head=1', 'stride_dt_bias_head=1', 'stride_dt_out_batch=512', 'stride_dt_out_head=128',
    'stride_dt_out_chunk=64', 'stride_dt_out_csize=1', 'stride_dA_cs_batch=512', 'stride_dA_cs_head=128',
    'stride_dA_cs_chunk=64', 'stride_dA_cs_csize=1'], constexprs={'DT_SOFTPLUS': True, 'HAS_DT_BIAS': True,
    'BLOCK_SIZE_H': 8, 'BLOCK_SIZE_CHUNK': 64}, grid=(2, 2, 1), block_index=(1, 1, 0), num_warps=4, num_stages=1)
fresh14_triton_case('_chunk_state_fwd_kernel', '_chunk_state_fwd_kernel', [
    'x_ptr=float16[1,100,4,32]', 'b_ptr=float16[1,100,1,16]', 'states_ptr=float32[1,2,4,32,16]',
    'dt_ptr=float32[1,4,2,64]:0.01..0.2', 'dA_cumsum_ptr=float32[1,4,2,64]:-2..0', 'hdim=32', 'dstate=16',
    'chunk_size=64', 'batch=1', 'seqlen=100', 'nheads_ngroups_ratio=4', 'stride_x_batch=12800', 'stride_x_seqlen=128',
    'stride_x_head=32', 'stride_x_hdim=1', 'stride_b_batch=1600', 'stride_b_seqlen=16', 'stride_b_head=16',
    'stride_b_dstate=1', 'stride_states_batch=4096', 'stride_states_chunk=2048', 'stride_states_head=512',
    'stride_states_hdim=16', 'stride_states_dstate=1', 'stride_dt_batch=512', 'stride_dt_chunk=64',
    'stride_dt_head=128', 'stride_dt_csize=1', 'stride_dA_cs_batch=512', 'stride_dA_cs_chunk=64',
    'stride_dA_cs_head=128', 'stride_dA_cs_csize=1'], constexprs={'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 16,
    'BLOCK_SIZE_K': 32}, grid=(1, 2, 4), block_index=(0, 1, 3), num_warps=4, num_stages=2)
fresh14_triton_case('_state_passing_fwd_kernel', '_state_passing_fwd_kernel', [
    'states_ptr=float32[1,2,4,512]', 'out_ptr=float32[1,2,4,512]', 'final_states_ptr=float32[1,4,512]',
    'dA_cs_ptr=float32[1,4,2]:-1..0', 'dim=512', 'nchunks=2', 'stride_states_batch=4096', 'stride_states_chunk=2048',
    'stride_states_head=512', 'stride_states_dim=1', 'stride_out_batch=4096', 'stride_out_chunk=2048',
    'stride_out_head=512', 'stride_out_dim=1', 'stride_final_states_batch=2048', 'stride_final_states_head=512',
    'stride_final_states_dim=1', 'stride_dA_cs_batch=8', 'stride_dA_cs_head=2', 'stride_dA_cs_chunk=1'],
    constexprs={'BLOCK_SIZE': 256}, grid=(2, 1, 4), block_index=(1, 0, 3), num_warps=2, num_stages=1)
fresh14_triton_case('_chunk_scan_fwd_kernel', '_chunk_scan_fwd_kernel', [
    'x_ptr=float16[1,100,2,32]', 'cb_b_ptr=float16[1,100,1,16]', 'cb_c_ptr=float16[1,100,1,16]',
    'dt_ptr=float32[1,2,2,64]:0.01..0.2', 'dA_cumsum_ptr=float32[1,2,2,64]:-2..0',
    'prev_states_ptr=float32[1,2,2,32,16]', 'D_ptr=float32[2]:0.5..1.5', 'out_ptr=float32[1,100,2,32]',
    'chunk_size=64', 'hdim=32', 'batch=1', 'seqlen=100', 'nheads=2', 'ngroups_ratio=2'],
    constexprs={'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_DSTATE': 16},
    grid=(1, 2, 2), block_index=(0, 1, 1), num_warps=4, num_stages=2)
# causal_conv1d
fresh14_triton_case('_causal_conv1d_fwd_kernel.fp16_silu', '_causal_conv1d_fwd_kernel', [
    'x_ptr=float16[1,64,100]', 'w_ptr=float16[64,4]', 'bias_ptr=float16[64]', 'o_ptr=float16[1,64,100]', 'dim=64',
    'seqlen=100', 'stride_x_batch=6400', 'stride_x_dim=100', 'stride_x_seqlen=1', 'stride_w_dim=4',
    'stride_w_width=1', 'stride_o_batch=6400', 'stride_o_dim=100', 'stride_o_seqlen=1'],
    constexprs={'KERNEL_WIDTH': 4, 'HAS_BIAS': True, 'SILU_ACTIVATION': True, 'BLOCK_D': 32, 'BLOCK_L': 64},
    grid=(1, 2, 2), block_index=(0, 1, 1), num_warps=4, num_stages=1)
fresh14_triton_case('_causal_conv1d_fwd_kernel.fp32_l300', '_causal_conv1d_fwd_kernel', [
    'x_ptr=float32[1,48,300]', 'w_ptr=float32[48,4]', 'bias_ptr=float32[48]', 'o_ptr=float32[1,48,300]', 'dim=48',
    'seqlen=300', 'stride_x_batch=14400', 'stride_x_dim=300', 'stride_x_seqlen=1', 'stride_w_dim=4',
    'stride_w_width=1', 'stride_o_batch=14400', 'stride_o_dim=300', 'stride_o_seqlen=1'],
    constexprs={'KERNEL_WIDTH': 4, 'HAS_BIAS': False, 'SILU_ACTIVATION': False, 'BLOCK_D': 16, 'BLOCK_L': 256},
    grid=(1, 3, 2), block_index=(0, 2, 1), num_warps=8, num_stages=1)
# flash-linear-attention
fresh14_triton_case('chunk_local_cumsum_scalar_kernel.bt64', 'chunk_local_cumsum_scalar_kernel', [
    's=float32[1,100,4]', 'o=float32[1,100,4]', 'T=100'], constexprs={'H': 4, 'BT': 64, 'REVERSE': False},
    grid=(2, 4), block_index=(1, 3, 0), num_warps=2, num_stages=1)
fresh14_triton_case('chunk_local_cumsum_scalar_kernel.bt32_reverse', 'chunk_local_cumsum_scalar_kernel', [
    's=float32[1,120,2]', 'o=float32[1,120,2]', 'T=120'], constexprs={'H': 2, 'BT': 32, 'REVERSE': True},
    grid=(4, 2), block_index=(3, 1, 0), num_warps=1, num_stages=1)
fresh14_triton_case('fused_recurrent_fwd_kernel', 'fused_recurrent_fwd_kernel', [
    'q=float16[1,40,2,64]', 'k=float16[1,40,2,64]', 'v=float16[1,40,2,64]', 'g=float32[1,40,2]:-0.2..0',
    'o=float16[1,1,40,2,64]', 'h0=float32[1,2,64,64]', 'ht=float32[1,2,64,64]', 'scale=0.125', 'T=40'],
    constexprs={'B': 1, 'H': 2, 'K': 64, 'V': 64, 'BK': 64, 'BV': 32, 'USE_G': True, 'USE_INITIAL_STATE': True,
    'STORE_FINAL_STATE': True}, grid=(2, 1, 2), block_index=(1, 0, 1), num_warps=1, num_stages=1)
fresh14_triton_case('chunk_fwd_kernel_h', 'chunk_fwd_kernel_h', [
    'k=float16[1,150,2,64]', 'v=float16[1,150,2,64]', 'h=float16[1,3,2,64,64]', 'g=float32[1,150,2]:-0.5..0',
    'ht=float32[1,2,64,64]', 'T=150', 'NT=3'], constexprs={'H': 2, 'K': 64, 'V': 64, 'BT': 64, 'BK': 64, 'BV': 32,
    'USE_G': True, 'STORE_FINAL_STATE': True}, grid=(1, 2, 2), block_index=(0, 1, 1), num_warps=4, num_stages=2)
# selective scan, RWKV
fresh14_triton_case('selective_scan_fwd_kernel', 'selective_scan_fwd_kernel', [
    'u_ptr=float32[1,32,100]', 'delta_ptr=float32[1,32,100]:-2..0', 'A_ptr=float32[32,4]:-1..-0.1',
    'B_ptr=float32[1,4,100]', 'C_ptr=float32[1,4,100]', 'D_ptr=float32[32]', 'y_ptr=float32[1,32,100]', 'dim=32',
    'L=100'], constexprs={'DSTATE': 4, 'BLOCK_D': 16, 'BLOCK_L': 128}, grid=(1, 2), block_index=(0, 1, 0),
    num_warps=4, num_stages=1)
fresh14_triton_case('wkv_forward_kernel', 'wkv_forward_kernel', [
    'w_ptr=float32[128]:-1..-0.05', 'u_ptr=float32[128]:-0.5..0.5', 'k_ptr=float32[2,64,128]',
    'v_ptr=float32[2,64,128]', 'y_ptr=float32[2,64,128]', 'T=64', 'C=128'], constexprs={'BLOCK_C': 64},
    grid=(2, 2), block_index=(1, 1, 0), num_warps=2, num_stages=1)
# attention over a layout LUT
fresh14_triton_case('blocksparse_attn_fwd_kernel', 'blocksparse_attn_fwd_kernel', [
    'Q=float16[2,230,64]', 'K=float16[2,230,64]', 'V=float16[2,230,64]', 'Out=float16[2,230,64]',
    f"lut_ptr={npy('fresh14py_triton_bsa_lut_4x4')}", f"nnz_ptr={npy('fresh14py_triton_bsa_nnz_4')}",
    'sm_scale=0.125', 'seqlen=230', 'stride_h=14720', 'stride_t=64'], constexprs={'MAX_NNZ': 4, 'BLOCK_M': 64,
    'BLOCK_N': 64, 'BLOCK_D': 64}, grid=(4, 2), block_index=(3, 1, 0), num_warps=4, num_stages=2)
# quantised matmuls
fresh14_triton_case('scaled_mm_int8_kernel.32x32x64_bias', 'scaled_mm_int8_kernel', [
    'a_ptr=int8[37,128]:-127..127', 'b_ptr=int8[128,64]:-127..127', 'scale_a_ptr=float32[37]:0.001..0.01',
    'scale_b_ptr=float32[64]:0.001..0.01', 'c_ptr=float16[37,64]', 'bias_ptr=float16[64]', 'M=37', 'N=64', 'K=128',
    'stride_am=128', 'stride_ak=1', 'stride_bk=64', 'stride_bn=1', 'stride_cm=64', 'stride_cn=1'],
    constexprs={'HAS_BIAS': True, 'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8},
    grid=(4,), block_index=(3, 0, 0), num_warps=4, num_stages=3)
fresh14_triton_case('scaled_mm_int8_kernel.128x128x64_w8', 'scaled_mm_int8_kernel', [
    'a_ptr=int8[200,256]:-127..127', 'b_ptr=int8[256,256]:-127..127', 'scale_a_ptr=float32[200]:0.001..0.01',
    'scale_b_ptr=float32[256]:0.001..0.01', 'c_ptr=bfloat16[200,256]', 'bias_ptr=float32[256]', 'M=200', 'N=256',
    'K=256', 'stride_am=256', 'stride_ak=1', 'stride_bk=1', 'stride_bn=256', 'stride_cm=256', 'stride_cn=1'],
    constexprs={'HAS_BIAS': False, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8},
    grid=(4,), block_index=(3, 0, 0), num_warps=8, num_stages=3)
fresh14_triton_case('_w8a8_block_fp8_matmul', '_w8a8_block_fp8_matmul', [
    'A=float8_e4m3fn[96,384]', 'B=float8_e4m3fn[256,384]', 'C=bfloat16[96,256]', 'As=float32[96,3]:0.01..0.1',
    'Bs=float32[2,3]:0.01..0.1', 'M=96', 'N=256', 'K=384', 'group_n=128', 'group_k=128', 'stride_am=384',
    'stride_ak=1', 'stride_bk=1', 'stride_bn=384', 'stride_cm=256', 'stride_cn=1', 'stride_As_m=3', 'stride_As_k=1',
    'stride_Bs_k=1', 'stride_Bs_n=3'], constexprs={'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 128,
    'GROUP_SIZE_M': 8}, grid=(4,), block_index=(3, 0, 0), num_warps=4, num_stages=3)
# moe_align_block_size in Triton
fresh14_triton_case('moe_align_block_size_stage1', 'moe_align_block_size_stage1', [
    f"topk_ids_ptr={npy('fresh14py_triton_moe_topk_ids_32')}", 'tokens_cnts_ptr=int32[72]:0..0'],
    constexprs={'num_experts': 8, 'numel': 32, 'tokens_per_thread': 4}, grid=(8,), block_index=(7, 0, 0),
    num_warps=1, num_stages=1)
fresh14_triton_case('moe_align_block_size_stage2', 'moe_align_block_size_stage2', [
    f"tokens_cnts_ptr={npy('fresh14py_triton_moe_cnts_stage1')}"], constexprs={'num_experts': 8}, grid=(8,),
    block_index=(7, 0, 0), num_warps=1, num_stages=1)
fresh14_triton_case('moe_align_block_size_stage3', 'moe_align_block_size_stage3', [
    'total_tokens_post_pad_ptr=int32[1]:0..0', f"tokens_cnts_ptr={npy('fresh14py_triton_moe_cnts_stage2')}",
    'cumsum_ptr=int32[9]:0..0'], constexprs={'num_experts': 8, 'block_size': 16}, num_warps=1, num_stages=1)
fresh14_triton_case('moe_align_block_size_stage4', 'moe_align_block_size_stage4', [
    f"topk_ids_ptr={npy('fresh14py_triton_moe_topk_ids_32')}", 'sorted_token_ids_ptr=int32[152]:32..32',
    'expert_ids_ptr=int32[10]:100..100', f"tokens_cnts_ptr={npy('fresh14py_triton_moe_cnts_stage2')}",
    f"cumsum_ptr={npy('fresh14py_triton_moe_cumsum_9')}"], constexprs={'num_experts': 8, 'block_size': 16,
    'numel': 32, 'tokens_per_thread': 4}, grid=(8,), block_index=(7, 0, 0), num_warps=1, num_stages=1)
fresh14_triton_case('moe_count_experts_atomic_kernel', 'moe_count_experts_atomic_kernel', [
    f"topk_ids_ptr={npy('fresh14py_triton_moe_hot_ids_200')}", 'expert_counts_ptr=int32[8]:0..0', 'numel=200'],
    constexprs={'BLOCK': 64}, grid=(4,), block_index=(3, 0, 0), num_warps=2, num_stages=1)
# sampling
fresh14_triton_case('top_k_top_p_renorm_kernel', 'top_k_top_p_renorm_kernel', [
    'probs_ptr=float32[4,1000]:0.001..1', 'out_ptr=float32[4,1000]', f"top_k_ptr={npy('fresh14py_triton_top_k_4')}",
    f"top_p_ptr={npy('fresh14py_triton_top_p_4')}", 'vocab_size=1000', 'stride_row=1000'],
    constexprs={'BLOCK_V': 1024, 'ITERS': 12}, grid=(4,), block_index=(3, 0, 0), num_warps=4, num_stages=1)
fresh14_triton_case('apply_repetition_penalty_kernel', 'apply_repetition_penalty_kernel', [
    'logits_ptr=float32[4,1000]:-4..4', f"token_ids_ptr={npy('fresh14py_triton_rep_ids_4x24')}",
    'penalties_ptr=float32[4]:1.1..1.5', 'vocab_size=1000', 'num_ids=24'], constexprs={'BLOCK_T': 32}, grid=(4,),
    block_index=(3, 0, 0), num_warps=1, num_stages=1)
fresh14_triton_case('rejection_random_sample_kernel', 'rejection_random_sample_kernel', [
    'output_token_ids_ptr=int32[3,3]:-1..-1', f"cu_num_draft_tokens_ptr={npy('fresh14py_triton_spec_cu_draft_3')}",
    f"draft_token_ids_ptr={npy('fresh14py_triton_spec_draft_ids_5')}", 'draft_probs_ptr=float32[5,256]:0.1..1',
    'target_probs_ptr=float32[5,256]:0..1', f"bonus_token_ids_ptr={npy('fresh14py_triton_spec_bonus_3')}",
    f"recovered_token_ids_ptr={npy('fresh14py_triton_spec_recovered_5')}", 'uniform_probs_ptr=float64[5]:0..1',
    'max_spec_len=2', 'vocab_size=256'], constexprs={'NO_DRAFT_PROBS': False}, grid=(3,), block_index=(2, 0, 0),
    num_warps=1, num_stages=1)
for _name, _ndp in (('draft_probs', False), ('no_draft_probs', True)):
    fresh14_triton_case(f'sample_recovered_tokens_kernel.{_name}', 'sample_recovered_tokens_kernel', [
        'output_token_ids_ptr=int32[5]:-1..-1', f"cu_num_draft_tokens_ptr={npy('fresh14py_triton_spec_cu_draft_3')}",
        f"draft_token_ids_ptr={npy('fresh14py_triton_spec_draft_ids_5')}", 'draft_probs_ptr=float32[5,1000]:0..0.002',
        'target_probs_ptr=float32[5,1000]:0..0.002', 'q_ptr=float32[3,1000]:0.1..3', 'vocab_size=1000'],
        constexprs={'PADDED_VOCAB_SIZE': 1024, 'NO_DRAFT_PROBS': _ndp}, grid=(3, 2), block_index=(2, 1, 0),
        num_warps=4 if _ndp else 8, num_stages=1)
# embedding bag, KV cache
fresh14_triton_case('embedding_bag_sum_kernel', 'embedding_bag_sum_kernel', [
    f"indices_ptr={npy('fresh14py_triton_bag_indices_50')}", f"offsets_ptr={npy('fresh14py_triton_bag_offsets_7')}",
    'weight_ptr=float16[1000,128]', 'per_sample_weights_ptr=float32[50]:0.5..1.5', 'out_ptr=float32[6,128]', 'D=128'],
    constexprs={'HAS_WEIGHTS': True, 'BLOCK_D': 128}, grid=(6, 1), block_index=(5, 0, 0), num_warps=2, num_stages=1)
fresh14_triton_case('reshape_and_cache_flash_kernel', 'reshape_and_cache_flash_kernel', [
    'key_ptr=float16[8,4,64]', 'value_ptr=float16[8,4,64]', 'key_cache_ptr=float16[6,16,4,64]',
    'value_cache_ptr=float16[6,16,4,64]', f"slot_mapping_ptr={npy('fresh14py_triton_slot_mapping_8')}",
    'block_stride=4096', 'page_stride=256', 'key_stride=256', 'value_stride=256', 'num_heads=4', 'head_size=64',
    'block_size=16'], constexprs={'TILE_SIZE': 128}, grid=(8,), block_index=(7, 0, 0), num_warps=4, num_stages=1)
assert len({c["id"] for c in CASES}) == len(CASES), "case ids must be unique"
