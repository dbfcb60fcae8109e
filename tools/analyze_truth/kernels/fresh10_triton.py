"""A tenth fresh batch of Triton kernels, the ones an ML engineer writes first and then keeps rewriting: a row softmax
(a row a program, and several rows a program as a 2-D tile), LayerNorm forward (a chunked two-pass over wide rows,
mean and rstd saved) and backward (dx, with per-program partial sums of dw and db), a general strided matmul at
small tiles (32x32x32, float16 and bfloat16) and an unmasked fast-path matmul at large tiles (128x128x64 and
128x256x64, float16 and float8e4nv, for wgmma), a float32 matmul whose input precision (tf32 or ieee) is a
constexpr, a matmul with a fused bias + ReLU epilogue, a matmul through tensor descriptors (block pointers are gone
from Triton 3.9), a split-K matmul adding its partial tiles with atomics, a float16 transpose by tl.trans at square
and rectangular tiles, tl.cumsum along either axis of a tile, histograms by tl.histogram and by tl.atomic_add on
global counters, an attention forward (causal or not, head_dim 32/64/128, ragged sequence lengths) and a
cross-entropy forward looping over a vocabulary wider than its block (written for smemlab, by someone who had not
seen it)."""

import triton
import triton.language as tl


# --- softmax of each row, the whole row in one BLOCK (BLOCK >= n_cols), computed in fp32 and stored in y's dtype
@triton.jit
def softmax_row(x_ptr, y_ptr, n_cols, x_stride, y_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(y_ptr + row * y_stride + cols, (num / den).to(y_ptr.dtype.element_ty), mask=mask)


# --- softmax of ROWS short rows at a time: a [ROWS, BLOCK_N] tile a program, the reductions along axis 1
@triton.jit
def softmax_rows2d(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    e = tl.where(mask, e, 0.0)
    s = tl.sum(e, axis=1)
    s = tl.where(s > 0.0, s, 1.0)  # the masked rows of the last program
    tl.store(y_ptr + offs, e / s[:, None], mask=mask)


# --- LayerNorm forward over rows wider than the block: a pass for the mean, one for the variance, one normalising,
#     each walking the row in BLOCK chunks; mean and 1/std saved for the backward pass
@triton.jit
def layernorm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


# --- LayerNorm backward: dx for ROWS_PER consecutive rows a program, and that program's partial dw = sum dy * xhat
#     and db = sum dy over its rows written to its own row of dw_part / db_part (summed by a second, tiny kernel)
@triton.jit
def layernorm_bwd(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_part_ptr, db_part_ptr, M, N,
                  ROWS_PER: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cmask = cols < N
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(ROWS_PER):
        row = pid * ROWS_PER + i
        if row < M:
            x = tl.load(x_ptr + row * N + cols, mask=cmask, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + row * N + cols, mask=cmask, other=0.0).to(tl.float32)
            mean = tl.load(mean_ptr + row)
            rstd = tl.load(rstd_ptr + row)
            xhat = tl.where(cmask, (x - mean) * rstd, 0.0)
            wdy = w * dy
            c1 = tl.sum(xhat * wdy, axis=0) / N
            c2 = tl.sum(wdy, axis=0) / N
            dx = (wdy - (xhat * c1 + c2)) * rstd
            tl.store(dx_ptr + row * N + cols, dx.to(dx_ptr.dtype.element_ty), mask=cmask)
            dw += dy * xhat
            db += dy
    tl.store(dw_part_ptr + pid * N + cols, dw, mask=cmask)
    tl.store(db_part_ptr + pid * N + cols, db, mask=cmask)


# --- the general matmul C = A @ B with every stride passed in, masks on all three edges, a 1-D launch mapped to
#     (m, n) tiles in GROUP_M-row groups, fp32 accumulation, C stored in its own dtype
@triton.jit
def matmul_strided(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BM)
    grid_n = tl.cdiv(N, BN)
    width = GROUP_M * grid_n
    group_id = pid // width
    first_m = group_id * GROUP_M
    group_size = tl.minimum(grid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % group_size
    pid_n = (pid % width) // group_size
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] + k < K), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] + k < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


# --- the fast path for shapes that divide the tiles: contiguous A [M, K], B [K, N], no masks, grouped program
#     order; the big tiles (128 x 128/256 x 64, 8 warps) are the ones that go to wgmma on Hopper
@triton.jit
def matmul_even(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = M // BM
    grid_n = N // BN
    width = GROUP_M * grid_n
    first_m = (pid // width) * GROUP_M
    group_size = tl.minimum(grid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % group_size
    pid_n = (pid % width) // group_size
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K // BK):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty))


# --- float32 matmul whose dot precision is chosen at compile time (PRECISION = "tf32" or "ieee"), 2-D launch
@triton.jit
def matmul_fp32(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- a linear layer with its epilogue fused: y = relu(x @ w + bias), float16 in and out, 2-D launch
@triton.jit
def linear_bias_relu(x_ptr, w_ptr, bias_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, w)
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = tl.maximum(acc + bias[None, :], 0.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- matmul through tensor descriptors (Triton 3.9 removed tl.make_block_ptr; this is the block-pointer matmul
#     rewritten for its successor): A, B and C described once, whole tiles loaded and stored by offsets, the ragged
#     edges zero-filled on load and clipped on store by the descriptors' shapes
@triton.jit
def matmul_desc(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[BM, BN])
    off_m = pid_m * BM
    off_n = pid_n * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([off_m, k])
        b = b_desc.load([k, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


# --- split-K matmul for a deep K: program (tile, split) sums every SPLIT_K-th BK slice of K and adds its partial
#     tile into the float32 C (zeroed beforehand) with tl.atomic_add
@triton.jit
def matmul_splitk(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BN)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BK * SPLIT_K)):
        k_left = K - k0 * BK * SPLIT_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * SPLIT_K
        b_ptrs += BK * SPLIT_K * N
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=mask)


# --- out = x.T of a float16 matrix, a BM x BN tile a program, flipped in registers by tl.trans
@triton.jit
def transpose_f16(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N))
    xt = tl.trans(x)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], xt, mask=(rn[:, None] < N) & (rm[None, :] < M))


# --- inclusive prefix sums of a row-major [M, N] matrix along AXIS (1: each row, a program covering BM whole rows;
#     0: each column, a program covering BN whole columns) by tl.cumsum over the tile
@triton.jit
def cumsum_2d(x_ptr, y_ptr, M, N, AXIS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    if AXIS == 1:
        rows = pid * BM + tl.arange(0, BM)
        cols = tl.arange(0, BN)
    else:
        rows = tl.arange(0, BM)
        cols = pid * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.cumsum(x, axis=AXIS)
    tl.store(y_ptr + offs, y, mask=mask)


# --- histogram of float samples over NBINS equal bins of [lo, hi) (values outside clamped into the end bins): each
#     program bins its BLOCK samples with tl.histogram and writes its own row of counts
@triton.jit
def hist_bins_partial(x_ptr, counts_ptr, n, lo, hi, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    b = ((x - lo) * (NBINS / (hi - lo))).to(tl.int32)
    b = tl.minimum(tl.maximum(b, 0), NBINS - 1)
    h = tl.histogram(b, NBINS, mask=m)
    tl.store(counts_ptr + pid * NBINS + tl.arange(0, NBINS), h)


# --- token frequency counts: one tl.atomic_add on the global counter of each token id (int64 ids)
@triton.jit
def token_count_atomic(ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    ids = tl.load(ids_ptr + offs, mask=m, other=0)
    tl.atomic_add(counts_ptr + ids, 1, mask=m)


# --- attention forward over q, k, v, o [B*H, T, HEAD_D] (float16), a BLOCK_M query tile a program, online softmax
#     in base 2; CAUSAL stops the key loop at the tile's diagonal and masks within it, keys past T masked out
@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, T, sm_scale, CAUSAL: tl.constexpr, HEAD_D: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * T * HEAD_D
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_D)
    q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_D + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    scale = sm_scale * 1.44269504
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_D], dtype=tl.float32)
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, T)
    else:
        hi = T
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = offs_n[:, None] < T
        k = tl.load(k_ptr + base + offs_n[:, None] * HEAD_D + offs_d[None, :], mask=kv_mask, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * scale
        keep = offs_n[None, :] < T
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= offs_n[None, :])
        qk = tl.where(keep, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + offs_n[:, None] * HEAD_D + offs_d[None, :], mask=kv_mask, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    l_i = tl.where(l_i > 0.0, l_i, 1.0)  # query rows past T
    o = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_D + offs_d[None, :], o.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < T)


# --- cross-entropy loss of one row of logits over a vocabulary of V > BLOCK entries: an online logsumexp over the
#     row in BLOCK chunks, the label's logit loaded once; rows labelled ignore_index get loss 0; lse saved
@triton.jit
def cross_entropy_fwd(logits_ptr, labels_ptr, loss_ptr, lse_ptr, V, stride, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    label = tl.load(labels_ptr + row)
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = tl.where(m_new == -float("inf"), 0.0, s * tl.exp(m - m_new) + tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - mx)), axis=0)
    lse = mx + tl.log(total)
    tl.store(lse_ptr + row, lse)
    if label == ignore_index:
        tl.store(loss_ptr + row, 0.0)
    else:
        target = tl.load(base + label).to(tl.float32)
        tl.store(loss_ptr + row, lse - target)
