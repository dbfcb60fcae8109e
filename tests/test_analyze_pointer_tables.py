"""Tables of pointers (`--arg NAME=ptrs(...)`): cuBLAS-style batched pointer arrays and Triton's grouped GEMM
tables, and the loads ptxas moves below a branch onto the side that reads them (deadloads.loads_below_branch).
No GPU; the recorded hardware truth is in the fixture (ptrs.*)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from smemlab.analyze import analyze_source
from smemlab.analyze import args as A
from smemlab.analyze import pyargs
from smemlab.errors import UserError

# the truth fixture's kernels (ptrs.*): a jagged array of rows, one pointer a row
KERNELS = Path(__file__).parent.parent / "tools" / "analyze_truth" / "kernels" / "pointer_tables.cu"
JAGGED = KERNELS.read_text()


def _jagged(tmp_path, lengths):
    np.save(tmp_path / "len.npy", np.array(lengths, np.int32))
    items = ",".join(f"float64[{max(n, 1)}]" for n in lengths)
    return analyze_source(str(KERNELS), "jagged_row_sums", (32 * len(lengths),), (1, 1, 1), (0, 0, 0), 0,
                          [f"rows=ptrs({items})", f"lengths={tmp_path / 'len.npy'}", f"sums=float64[{len(lengths)}]",
                           f"nrows={len(lengths)}"], compiler="nvrtc")


def _line_requests(r, needle):
    text = JAGGED.splitlines()
    rows = [m for m in r.memory_lines if m.kind == "global load" and needle in text[m.line - 1]]
    return sum(m.requests for m in rows), sum(m.wavefronts for m in rows)


@pytest.mark.parametrize("lengths", [[70, 0, 33, 1], [0, 0, 5, 0], [3, 3, 3, 3]])
def test_a_row_pointer_is_loaded_only_by_warps_that_enter_the_row_loop(tmp_path, lengths):
    r = _jagged(tmp_path, lengths)
    # ptxas loads rows[warp] past the loop's entry test: a warp whose row is empty never loads it
    assert _line_requests(r, "rows[warp]") == (sum(n > 0 for n in lengths),) * 2
    # the lengths are read by the test itself: every warp loads its length
    assert _line_requests(r, "lengths[warp]")[0] == len(lengths)
    # the rows' elements: one request a warp and trip, the sectors their bytes
    want = sum(-(-n // 32) for n in lengths)
    assert _line_requests(r, "s += r[i]")[0] == want


def test_the_table_holds_the_items_addresses(tmp_path):
    src = tmp_path / "copy.cu"
    src.write_text("__global__ void first_of_each(const float *const *t, float *out) {\n"
                   "    out[threadIdx.x] = t[threadIdx.x][0];\n}\n")
    r = analyze_source(str(src), "first_of_each", (3,), (1, 1, 1), (0, 0, 0), 0,
                       ["t=ptrs(float32[4],float32[8]:5..6,float32[16])", "out=float32[3]"], compiler="nvrtc")
    items = A.table_items("t", A.parse_arg("t=ptrs(float32[4],float32[8]:5..6,float32[16])")[1])
    assert np.array_equal(r.buffers["out"], [items[0][0], items[1][0], items[2][0]])
    assert 5 <= items[1][0] <= 6  # each item its own fill, named t[i]
    np.testing.assert_array_equal(items[0], A.fill("t[0]", A.parse_arg("x=float32[4]")[1]))


def test_ptrs_forms():
    spec = A.parse_arg("a=ptrs(3*float16[64], float32[8]:0..1)")[1]
    assert [s.count for s in spec.items] == [64, 64, 64, 8] and spec.items[3].hi == 1
    py = pyargs.parse("a=ptrs(2*float16[8,8],float16[4,16])")
    assert py.shape == (3,) and py.dtype == np.int64 and "float16[64]" in py.text
    for bad in ("a=ptrs()", "a=ptrs(4)", "a=ptrs(float32[4],,float32[4])", "a=ptrs(5000*float32[1])"):
        with pytest.raises(UserError):
            A.parse_arg(bad)


def test_a_python_list_of_arrays_is_a_table(tmp_path):
    xs = [np.arange(4, dtype=np.float16), np.ones((2, 3), np.float16)]
    (arg,) = pyargs.from_values({"ptrs": xs}, Path(tmp_path))
    spec = A.parse_arg(arg.text)[1]
    got = A.table_items("ptrs", spec)
    assert [g.size for g in got] == [4, 6] and np.array_equal(got[0], xs[0])
    with pytest.raises(UserError):
        pyargs.from_values({"p": [np.array(["a"])]}, Path(tmp_path))


def test_a_scalar_parameter_refuses_a_table(tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(int n, float *o) { o[threadIdx.x] = n; }\n")
    with pytest.raises(UserError, match="not a pointer"):
        analyze_source(str(src), "k", (32,), (1, 1, 1), (0, 0, 0), 0, ["n=ptrs(float32[4])", "o=float32[32]"],
                       compiler="nvrtc")


SUM_AFTER_BARRIER = """
extern "C" __global__ void normalise(float *out, const float *in, int n)
{
    __shared__ float buffer[129];
    buffer[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0;
        for (int i = 0; i < blockDim.x; i++)
            s += buffer[i];
        buffer[128] = s;
    }
    __syncthreads();
    float sum = buffer[128];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = in[i] / sum;
}
"""


@pytest.mark.parametrize("n, warps", [(21, 1), (40, 2), (128, 4), (300, 4)])
def test_a_shared_load_only_a_loop_reads_is_made_by_the_warps_that_enter_it(tmp_path, n, warps):
    """A shared load after its barrier read only inside the loop past it: ptxas loads it behind the loop's entry
    test, so only the warps with an element load it (THCUNN's softmax over 21 classes by 128 threads, the block's
    sum: fresh14.cunn_SoftMax_updateOutput_kernel, 1 warp of 4 measured)."""
    src = tmp_path / "normalise.cu"
    src.write_text(SUM_AFTER_BARRIER)
    r = analyze_source(str(src), "normalise", (128,), args=[f"out=float32[{max(n, 128)}]",
                                                           f"in=float32[{max(n, 128)}]", f"n={n}"], compiler="nvrtc")
    line = SUM_AFTER_BARRIER.splitlines().index("    float sum = buffer[128];") + 1
    assert sum(ls.requests for ls in r.lines if ls.line == line and ls.kind == "load") == warps
