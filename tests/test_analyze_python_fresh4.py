"""Failures of `smemlab analyze` that the fourth fresh held-out batch (tools/analyze_truth/kernels/fresh4_*.py)
met, each as a user meets it.

Counts derived by hand: out[i] = x[i] * 2 for 64 float32s, one block of 64 threads: two warps, each one 128-byte
load (4 sectors) and one 128-byte store."""

import numpy as np
import pytest

from smemlab.errors import UserError

from test_analyze_python import needs_numba

SCALE = '''
from numba import cuda


@cuda.jit
def scale2(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * 2
'''


@needs_numba
def test_numba_api_takes_positional_arguments_for_a_file_kernel(tmp_path):
    # api.numba("file.py", block, x, out, name=...) said "2 arguments for a kernel of 0 parameters ()"
    from smemlab.analyze import api

    f = tmp_path / "scale.py"
    f.write_text(SCALE)
    x, out = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    r = api.numba(str(f), (64,), x, out, name="scale2")
    got = {l.kind: (l.requests, l.wavefronts) for l in r.memory_lines}
    assert got == {"global load": (2, 8), "global store": (2, 8)}
    with pytest.raises(UserError, match="3 arguments for a kernel of 2 parameters"):
        api.numba(str(f), (64,), x, out, out, name="scale2")
