"""A second fresh batch of Python kernels (tools/analyze_truth/kernels/fresh2_*.py) run as a held-out checker runs
them, from the command line and from Python: what it found wrong, each fixed in general."""

import textwrap
from pathlib import Path

import numpy as np
import pytest

from smemlab.errors import UserError

from test_analyze_python import needs_numba

PAIRS = """\
    from numba import cuda


    @cuda.jit
    def column_pairs(m, out):
        r, c = cuda.grid(2)
        if r < m.shape[0] and c < m.shape[1] // 2:
            out[r, c] = m[r, 2 * c] + m[r, 2 * c + 1]
    """


def test_numpy_views_keep_their_strides_and_layout(tmp_path):
    from smemlab.analyze import pyargs

    m = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    got = {a.name: a for a in pyargs.from_values({"c": m, "f": np.asfortranarray(m), "s": m[:, ::2],
                                                  "z": (m[:, :8] + 1j).astype(np.complex64)[::2]}, tmp_path)}
    assert (got["c"].layout, got["f"].layout, got["s"].layout, got["z"].layout) == ("C", "F", "A", "A")
    assert got["f"].strides == (4, 64) and got["s"].strides == (256, 8) and got["z"].strides == (128, 8)
    # the span the view's elements lie in, from its first to its last: a slice's is the base's rows
    assert np.load(str(tmp_path / "s.npy")).size == 15 * 64 + 62 + 1
    with pytest.raises(UserError, match="negative"):
        pyargs.from_values({"r": m[::-1]}, tmp_path)


@needs_numba
def test_fortran_and_sliced_arrays_reach_a_numba_kernel_with_their_strides(tmp_path):
    import smemlab.analyze as sa

    path = tmp_path / "pairs.py"
    path.write_text(textwrap.dedent(PAIRS))
    m = np.random.default_rng(1).random((16, 64), dtype=np.float32)
    # Fortran order: lanes (r) walk down a column, contiguous: 2 sectors per load, not 16 as in C order
    f = np.asfortranarray(m[:, :32])
    r = sa.numba(str(path), (16, 16), name="column_pairs", m=f, out=np.zeros((16, 16), np.float32))
    assert r.totals("global_load") == r.memory_totals("global load")
    assert r.totals("global_load")["sectors"] == 64, r.totals("global_load")
    np.testing.assert_allclose(r.buffers["out"], f[:, 0::2] + f[:, 1::2])
    # a slice: every other column of the base, read through the base's memory
    s = m[:, ::2]
    r = sa.numba(str(path), (16, 16), name="column_pairs", m=s, out=np.zeros((16, 16), np.float32))
    np.testing.assert_allclose(r.buffers["out"], s[:, 0::2] + s[:, 1::2])
    assert r.buffers["m"].shape == (16, 32)
    np.testing.assert_array_equal(r.buffers["m"], s)
    with pytest.raises(UserError, match="no traffic of kind 'global loads'"):
        r.totals("global_loads")
