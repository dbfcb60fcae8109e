"""Triton kernels of the analyze truth corpus (issue 30), written for smemlab from the algorithms'
descriptions. Each case (tools/analyze_truth/cases.py, ids `triton.*`) launches ONE program, so a kernel
here does a whole small problem in one program: Triton's shared memory is what its layout conversions,
cross-warp reductions, scans and pipelined dot operands need, and that is what the truth records.
"""

import triton
import triton.language as tl


@triton.jit
def softmax_rows(out_ptr, x_ptr, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    # a tile of whole rows: the max and the sum run along each row, across the warps that share it
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    live = c < n_cols  # rows shorter than the tile: the tail is -inf, so it adds exp(-inf) = 0
    x = tl.load(x_ptr + r * n_cols + c, mask=live, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=1)[:, None])
    tl.store(out_ptr + r * n_cols + c, e / tl.sum(e, axis=1)[:, None], mask=live)


@triton.jit
def layer_norm(out_ptr, x_ptr, w_ptr, b_ptr, n_cols, eps, BLOCK: tl.constexpr):
    # one row over every warp of the program: mean, then variance, each a block-wide sum
    c = tl.arange(0, BLOCK)
    live = c < n_cols
    x = tl.load(x_ptr + c, mask=live, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(live, x - mean, 0.0)
    inv = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + c, mask=live, other=1.0)
    b = tl.load(b_ptr + c, mask=live, other=0.0)
    tl.store(out_ptr + c, d * inv * w + b, mask=live)


@triton.jit
def matmul(c_ptr, a_ptr, b_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[BM, BN] = A[BM, K] @ B[K, BN], row-major fp16 in, fp32 out. The tiles' pointers walk K: BK columns of A
    # and BK rows of B a step; Triton stages both tiles in shared memory (cp.async ahead of use with
    # num_stages > 1) and feeds the tensor cores from there
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_tile = a_ptr + rm[:, None] * K + rk[None, :]
    b_tile = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a_tile), tl.load(b_tile), acc)
        a_tile += BK
        b_tile += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def transpose_tile(out_ptr, in_ptr, R: tl.constexpr, C: tl.constexpr):
    # an R x C tile read along its rows and written along the rows of its transpose: the layout change
    # between the two coalesced accesses goes through shared memory
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(in_ptr + r[:, None] * C + c[None, :])
    tl.store(out_ptr + c[:, None] * R + r[None, :], tl.trans(x))


@triton.jit
def cumsum_block(out_ptr, x_ptr, BLOCK: tl.constexpr):
    # an inclusive prefix sum over the whole program: per-warp scans joined through shared memory
    i = tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.cumsum(tl.load(x_ptr + i), axis=0))


@triton.jit
def histogram_block(out_ptr, keys_ptr, BLOCK: tl.constexpr, BINS: tl.constexpr):
    # the counts of BLOCK small integer keys in BINS bins (keys are in range)
    keys = tl.load(keys_ptr + tl.arange(0, BLOCK))
    tl.store(out_ptr + tl.arange(0, BINS), tl.histogram(keys, BINS))


@triton.jit
def attention_fwd(o_ptr, q_ptr, k_ptr, v_ptr, seq, scale, BM: tl.constexpr, BN: tl.constexpr,
                  D: tl.constexpr):
    # one query block against every key block, online softmax (running max m, running sum l): the
    # S = Q K^T and P V products stage their operands in shared memory
    qm = tl.arange(0, BM)
    kn = tl.arange(0, BN)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + qm[:, None] * D + d[None, :])
    m = tl.full((BM,), -float("inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n0 in range(0, seq, BN):
        k = tl.load(k_ptr + (n0 + kn)[:, None] * D + d[None, :])
        v = tl.load(v_ptr + (n0 + kn)[:, None] * D + d[None, :])
        s = tl.dot(q, tl.trans(k)) * scale
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m = m_new
    tl.store(o_ptr + qm[:, None] * D + d[None, :], acc / l[:, None])


@triton.jit
def column_sums(out_ptr, x_ptr, R: tl.constexpr, C: tl.constexpr):
    # tl.sum down the columns of an R x C tile: the reduced axis spans the warps
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r * C + c[None, :])
    tl.store(out_ptr + c, tl.sum(x, axis=0))


@triton.jit
def copy_2d(out_ptr, in_ptr, in_stride, out_stride, R: tl.constexpr, C: tl.constexpr):
    # a strided 2-D tile copy (a window of a wider matrix into a narrower one): global memory only
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    tl.store(out_ptr + r * out_stride + c, tl.load(in_ptr + r * in_stride + c))


@triton.jit
def axpy_tail(y_ptr, x_ptr, a, n, BLOCK: tl.constexpr):
    # y = a x + y over n elements, n not a multiple of the block: the mask keeps the tail's lanes off
    i = tl.arange(0, BLOCK)
    live = i < n
    x = tl.load(x_ptr + i, mask=live)
    y = tl.load(y_ptr + i, mask=live)
    tl.store(y_ptr + i, a * x + y, mask=live)


@triton.jit
def argmax_rows(out_ptr, x_ptr, ROWS: tl.constexpr, C: tl.constexpr):
    # the index of each row's largest element: a reduction of (value, index) pairs across the warps
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(out_ptr + tl.arange(0, ROWS), tl.argmax(x, axis=1))


@triton.jit
def sort_block(out_ptr, x_ptr, BLOCK: tl.constexpr):
    # tl.sort of one block of keys (a bitonic network: its exchanges across warps go through shared memory)
    i = tl.arange(0, BLOCK)
    tl.store(out_ptr + i, tl.sort(tl.load(x_ptr + i)))


if __name__ == "__main__":  # smemlab analyze imports the file: nothing here runs then
    raise SystemExit("launch these through tools/analyze_truth/measure.py on a GPU")


# ---- Hopper's TMA (issue 30): tensor descriptors (Triton's host TensorDescriptor, `--arg NAME=DTYPE[R,C]@BRxBC`)
# load and store whole boxes through the copy engine; Triton waits on an mbarrier for each load and stages a
# store's box in shared memory (stmatrix from a wgmma accumulator)


@triton.jit
def tma_add_tiles(out_desc, in_desc, R: tl.constexpr, C: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr):
    # every BR x BC box of an R x C tensor in turn: a TMA load (an mbarrier phase each), one added, a TMA store
    for r in range(0, R, BR):
        for c in range(0, C, BC):
            out_desc.store([r, c], in_desc.load([r, c]) + 1)


@triton.jit
def tma_matmul(c_desc, a_desc, b_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[BM, BN] = A[BM, K] @ B[K, BN] in fp16 with an fp32 accumulator: A's and B's boxes arrive by TMA through
    # Triton's multi-stage mbarrier ring, the fp16 result leaves through shared memory and one TMA store
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([0, k]), b_desc.load([k, 0]), acc)
    c_desc.store([0, 0], acc.to(tl.float16))


@triton.jit
def tma_edge(out_desc, in_desc, BR: tl.constexpr, BC: tl.constexpr):
    # one box hanging over the tensor's bottom-right corner: the load fills the outside with zeros, the
    # store writes only the inside
    out_desc.store([BR // 2, BC // 2], in_desc.load([BR // 2, BC // 2]) * 2)


# ---- wgmma of every input family Triton emits on sm_90 (issue 30): tl.dot of float32 tiles runs as tf32
# (m64nNk8), of float8 as e4m3/e5m2 (k32) and of int8 as s8 (k32, an int32 accumulator); the accumulator takes
# the result's element type (float16 makes an f16 accumulator for fp8)


@triton.jit
def matmul_typed(c_ptr, a_ptr, b_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[BM, BN] = A[BM, K] @ B[K, BN], row-major, accumulated in C's element type
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=c_ptr.dtype.element_ty)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc, out_dtype=c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def attention_typed(o_ptr, q_ptr, k_ptr, v_ptr, seq, scale, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # attention_fwd with P converted to V's element type: float32 inputs keep P in float32 registers, the
    # P V product's A operand from registers as tf32
    qm = tl.arange(0, BM)
    kn = tl.arange(0, BN)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + qm[:, None] * D + d[None, :])
    m = tl.full((BM,), -float("inf"), tl.float32)
    l = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n0 in range(0, seq, BN):
        k = tl.load(k_ptr + (n0 + kn)[:, None] * D + d[None, :])
        v = tl.load(v_ptr + (n0 + kn)[:, None] * D + d[None, :])
        s = tl.dot(q, tl.trans(k)) * scale
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m = m_new
    tl.store(o_ptr + qm[:, None] * D + d[None, :], acc / l[:, None])


# ---- tensor descriptors made in the kernel (tl.make_tensor_descriptor): Triton builds each 128-byte tensor map
# in shared memory (tensormap.replace of its fields), copies it to the launch's global scratch
# (tensormap.cp_fenceproxy) and hands that address to the TMA copies


@triton.jit
def tma_add_tiles_device(out_ptr, in_ptr, R: tl.constexpr, C: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr):
    # tma_add_tiles with the descriptors made here from plain pointers
    src = tl.make_tensor_descriptor(in_ptr, shape=[R, C], strides=[C, 1], block_shape=[BR, BC])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[R, C], strides=[C, 1], block_shape=[BR, BC])
    for r in range(0, R, BR):
        for c in range(0, C, BC):
            dst.store([r, c], src.load([r, c]) + 1)


@triton.jit
def tma_matmul_device(c_ptr, a_ptr, b_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # tma_matmul with in-kernel descriptors over runtime shapes (M, N, K): A's and B's boxes by TMA, the fp16
    # result by one TMA store
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([0, k]), b_desc.load([k, 0]), acc)
    c_desc.store([0, 0], acc.to(tl.float16))


@triton.jit
def tma_accumulate_tiles(dst_desc, src_ptr, C: tl.constexpr, BR: tl.constexpr):
    # a TMA reduction: each BR-row tile of src added into the tensor through its host descriptor (atomic_add)
    cols = tl.arange(0, C)
    for r in range(0, 2 * BR, BR):
        rows = r + tl.arange(0, BR)
        dst_desc.atomic_add([r, 0], tl.load(src_ptr + rows[:, None] * C + cols[None, :]))


@triton.jit
def tma_max_tiles_device(dst_ptr, src_ptr, R: tl.constexpr, C: tl.constexpr, BR: tl.constexpr):
    # a TMA max-reduction through a descriptor made here
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[R, C], strides=[C, 1], block_shape=[BR, C])
    cols = tl.arange(0, C)
    for r in range(0, R, BR):
        rows = r + tl.arange(0, BR)
        dst.atomic_max([r, 0], tl.load(src_ptr + rows[:, None] * C + cols[None, :]))
