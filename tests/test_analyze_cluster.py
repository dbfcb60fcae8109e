"""Thread-block clusters in `smemlab analyze` (no GPU): every block of the cluster is emulated with its
own shared memory; distributed shared memory reaches the other blocks; a block's barrier waits for its
own threads, the cluster's for all; lanes on other blocks' shared memory count as remote requests
(the per-line counts are checked against Nsight Compute in test_analyze_truth.py, cases *.cs2/*.cs4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from smemlab.analyze import analyze_source as analyze
from smemlab.errors import UserError

SRC = str(Path(__file__).parent / "data" / "analyze" / "cluster.cu")


def analyze_source(*args, **kw):  # the kernels include the package's cluster.cuh
    from smemlab.compiler import include_dir

    return analyze(*args, include_dirs=[str(include_dir())], **kw)


@pytest.mark.parametrize("cluster", [(2, 1, 1), (4, 1, 1), (2, 2, 1)])
def test_each_block_has_its_ids_and_its_own_shared_memory(cluster):
    n = cluster[0] * cluster[1]
    grid = (cluster[0] * 2, cluster[1], 1)
    block_index = (cluster[0], 0, 0)  # the second cluster along x: blockIdx.x starts at cluster[0]
    r = analyze_source(SRC, "cluster_ids", (128,), grid, block_index, args=[f"out=int32[{5 * 128 * 64}]"],
                       cluster=cluster)
    out = r.buffers["out"].reshape(-1, 128, 5)
    for rank in range(n):
        bx, by = cluster[0] + rank % cluster[0], rank // cluster[0]  # rank: x fastest
        got = out[by * grid[0] + bx]
        assert (got[:, 0] == rank).all() and (got[:, 1] == n).all() and (got[:, 2] == bx + 100 * by).all()
        assert got[:, 3].tolist() == [1000 * ((rank + 1) % n) + t for t in range(128)]
        assert (got[:, 4] == (rank + n - 1) % n).all()
    assert r.cluster == cluster


def test_a_blocks_barrier_waits_for_its_own_threads_only():
    n = 4
    r = analyze_source(SRC, "per_block_barriers", (128,), (n, 1, 1), args=[f"out=int32[{64 * n}]"], cluster=(n, 1, 1))
    assert (r.buffers["out"] == n * (n + 1)).all()
    atomics = [ls for ls in r.lines if ls.kind == "atomic"]
    assert atomics and all(ls.remote > 0 for ls in atomics)
    # each warp reaches the block's own counters once (r == its rank) in the n trips of the loop
    assert sum(ls.requests for ls in atomics) == n * 4
    assert sum(ls.remote for ls in atomics) == n * 4 * (n - 1)


def test_a_cluster_barrier_some_blocks_skip_is_reported():
    with pytest.raises(UserError, match="divergent barrier.*of the cluster"):
        analyze_source(SRC, "cluster_barrier_skipped", (64,), (2, 1, 1), args=["out=int32[64]"], cluster=(2, 1, 1))


def test_cluster_dims_in_the_source_set_the_cluster():
    r = analyze_source(SRC, "fixed_pair", (32,), (2, 1, 1), args=["out=int32[64]"])
    assert r.cluster == (2, 1, 1)
    assert r.buffers["out"].tolist() == [0] * 32 + [1] * 32
    with pytest.raises(UserError, match=r"compiled for clusters of 2,1,1.*--cluster 4,1,1 differs"):
        analyze_source(SRC, "fixed_pair", (32,), (4, 1, 1), args=["out=int32[128]"], cluster=(4, 1, 1))


@pytest.mark.parametrize("grid, cluster, message", [
    ((3, 1, 1), (2, 1, 1), "not a whole number of clusters"),
    ((32, 1, 1), (32, 1, 1), "at most 16 blocks"),
    ((2, 1, 1), (0, 1, 1), "positive sizes"),
])
def test_bad_cluster_shapes_are_refused(grid, cluster, message):
    with pytest.raises(UserError, match=message):
        analyze_source(SRC, "cluster_ids", (128,), grid, args=["out=int32[20480]"], cluster=cluster)


def test_mapa_past_the_cluster_names_the_rank_and_the_option():
    with pytest.raises(UserError, match=r"mapa to block rank 1, in a cluster of 1 block \(--cluster"):
        analyze_source(SRC, "map_next", (32,), (1, 1, 1), args=["out=int32[32]"])
    with pytest.raises(UserError, match=r"mapa to block rank 2, in a cluster of 2 blocks"):
        analyze_source(SRC, "map_next", (32,), (2, 1, 1), args=["out=int32[32]"], cluster=(2, 1, 1))


def test_the_book_cluster_histogram_counts_every_key_once():
    keys = "input=int32[8192]:0..255"
    r = analyze_source("package:book/histogram.cu", "clusterHist_kernel", (256,), (4, 1, 1), dynamic_shared=256,
                       args=["bins=int32[256]:0..0", "nbins=256", "bins_per_block=64", keys, "array_size=8192"],
                       cluster=(4, 1, 1))
    from smemlab.analyze.args import fill, parse_arg

    want = np.bincount(fill("input", parse_arg(keys)[1]), minlength=256)
    assert np.array_equal(r.buffers["bins"], want)
    (line,) = [ls for ls in r.lines if ls.kind == "atomic"]
    assert line.remote > 0 and line.requests > 0
