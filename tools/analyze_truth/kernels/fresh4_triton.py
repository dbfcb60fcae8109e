"""A fourth fresh batch of Triton kernels written as they sit in real repositories (layer-norm backward with partial
sums, fused linear+GELU, batched and grouped matmuls, implicit-GEMM conv, int8 dots, Welford, histograms, sorts),
run through `smemlab analyze --triton` as a held-out checker would (written for smemlab)."""

import triton
import triton.language as tl


# --- layer norm backward, pass 1: a [BLOCK_M, BLOCK_N] tile of rows at once, dX per row and the tile's dW/dB
#     column sums written to this program's row of the partial buffers (no lock, no atomics)
@triton.jit
def ln_bwd_tile_partial(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_part_ptr, db_part_ptr, M, N, stride,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    cmask = cols < N
    m2 = rmask[:, None] & cmask[None, :]
    offs = rows[:, None].to(tl.int64) * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=m2, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=m2, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    mean = tl.load(mean_ptr + rows, mask=rmask, other=0.0)
    rstd = tl.load(rstd_ptr + rows, mask=rmask, other=0.0)
    xhat = tl.where(m2, (x - mean[:, None]) * rstd[:, None], 0.0)
    wdy = w[None, :] * dy
    c1 = tl.sum(xhat * wdy, axis=1) / N
    c2 = tl.sum(wdy, axis=1) / N
    dx = (wdy - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
    tl.store(dx_ptr + offs, dx.to(dx_ptr.dtype.element_ty), mask=m2)
    tl.store(dw_part_ptr + pid * N + cols, tl.sum(dy * xhat, axis=0), mask=cmask)
    tl.store(db_part_ptr + pid * N + cols, tl.sum(dy, axis=0), mask=cmask)


# --- layer norm backward, pass 2: each program sums a column strip of the partial buffers a row at a time
@triton.jit
def ln_bwd_colsum(dw_part_ptr, db_part_ptr, dw_ptr, db_ptr, P, N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    dw = tl.zeros([BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_N], dtype=tl.float32)
    for p in tl.range(0, P, num_stages=2):
        dw += tl.load(dw_part_ptr + p * N + cols, mask=cmask, other=0.0, cache_modifier=".cg")
        db += tl.load(db_part_ptr + p * N + cols, mask=cmask, other=0.0, cache_modifier=".cg")
    tl.store(dw_ptr + cols, dw.to(dw_ptr.dtype.element_ty), mask=cmask)
    tl.store(db_ptr + cols, db.to(db_ptr.dtype.element_ty), mask=cmask)


@triton.jit
def _gelu_tanh(x):
    k0 = 0.7978845608028654
    inner = k0 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    return 0.5 * x * (1.0 + t)


# --- fused linear + bias + GELU(tanh) epilogue
@triton.jit
def linear_gelu(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_wk, stride_cm,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    w_ptrs = w_ptr + rk[:, None] * stride_wk + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kmask = rk < K - k * BK
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & kmask[None, :], other=0.0)
        w = tl.load(w_ptrs, mask=kmask[:, None] & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, w, acc)
        a_ptrs += BK
        w_ptrs += BK * stride_wk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    out = _gelu_tanh(acc + bias[None, :])
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], out.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- batched matmul, batch on program_id(2) with int64 batch offsets (tl.make_block_ptr is gone from Triton 3.9)
@triton.jit
def bmm_batched(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_bb, stride_cb,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bid = tl.program_id(2).to(tl.int64)
    a_ptr += bid * stride_ab
    b_ptr += bid * stride_bb
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k0 in tl.range(0, K, BK, num_stages=2):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + bid * stride_cb + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- swizzled (grouped) program order, fp16 in, bf16 out
@triton.jit
def matmul_swizzle_bf16(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                        GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    width = GROUP_M * num_n
    group = pid // width
    first_m = group * GROUP_M
    gsize = min(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % width) % gsize)
    pid_n = (pid % width) // gsize
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BM), BM)
    offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BN), BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_bn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=3):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc.to(tl.bfloat16),
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


# --- row softmax whose max goes through tl.reduce with a jit combine function, loads with .cg
@triton.jit
def softmax_custom_reduce(x_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf"), cache_modifier=".cg")
    x = x.to(tl.float32)
    mx = tl.reduce(x, 0, _max_combine)
    e = tl.exp(x - mx)
    s = tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride + cols, e / s, mask=cols < N)


# --- log-softmax + NLL with ignore_index, per-row loss
@triton.jit
def nll_log_softmax(logits_ptr, target_ptr, loss_ptr, V, stride, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    tgt = tl.load(target_ptr + row)
    base = logits_ptr + row * stride
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for v0 in range(0, V, BLOCK):
        cols = v0 + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf"), eviction_policy="evict_first").to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    gmax = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - gmax), axis=0)
    lse = gmax + tl.log(total)
    valid = tgt != ignore_index
    safe_tgt = tl.where(valid, tgt, 0)
    xt = tl.load(base + safe_tgt).to(tl.float32)
    loss = tl.where(valid, lse - xt, 0.0)
    tl.store(loss_ptr + row, loss)


# --- 2-D convolution as implicit GEMM: NHWC input, [KH*KW*C, OC] weights, stride 1, padding 1
@triton.jit
def conv2d_implicit_gemm(x_ptr, w_ptr, y_ptr, H, W, C, OC, KH: tl.constexpr, KW: tl.constexpr,
                         BP: tl.constexpr, BOC: tl.constexpr, BC: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_o = tl.program_id(1)
    n = tl.program_id(2)
    p = pid_p * BP + tl.arange(0, BP)
    oh = p // W
    ow = p % W
    oc = pid_o * BOC + tl.arange(0, BOC)
    cc = tl.arange(0, BC)
    acc = tl.zeros([BP, BOC], dtype=tl.float32)
    for kh in tl.static_range(KH):
        for kw in tl.static_range(KW):
            ih = oh + kh - 1
            iw = ow + kw - 1
            inb = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W) & (p < H * W)
            for c0 in range(0, C, BC):
                ch = c0 + cc
                xa = tl.load(x_ptr + ((n * H + ih[:, None]) * W + iw[:, None]) * C + ch[None, :],
                             mask=inb[:, None] & (ch[None, :] < C), other=0.0)
                krow = (kh * KW + kw) * C + ch
                wb = tl.load(w_ptr + krow[:, None] * OC + oc[None, :], mask=(ch[:, None] < C) & (oc[None, :] < OC),
                             other=0.0)
                acc = tl.dot(xa, wb, acc)
    tl.store(y_ptr + (n * H * W + p[:, None]) * OC + oc[None, :], acc.to(tl.float16),
             mask=(p[:, None] < H * W) & (oc[None, :] < OC))


# --- depthwise causal 1-D conv along the last axis (Mamba-style), one (batch, channel-block) per program
@triton.jit
def depthwise_conv1d(x_ptr, w_ptr, y_ptr, C, L, KSIZE: tl.constexpr, BC: tl.constexpr, BL: tl.constexpr):
    pid_c = tl.program_id(0)
    pid_l = tl.program_id(1)
    b = tl.program_id(2)
    ch = pid_c * BC + tl.arange(0, BC)
    t = pid_l * BL + tl.arange(0, BL)
    acc = tl.zeros([BC, BL], dtype=tl.float32)
    for k in tl.static_range(KSIZE):
        src = t - (KSIZE - 1) + k
        xv = tl.load(x_ptr + (b * C + ch[:, None]) * L + src[None, :],
                     mask=(ch[:, None] < C) & (src[None, :] >= 0) & (src[None, :] < L), other=0.0)
        wv = tl.load(w_ptr + ch * KSIZE + k, mask=ch < C, other=0.0)
        acc += xv.to(tl.float32) * wv[:, None].to(tl.float32)
    acc = acc * tl.sigmoid(acc)
    tl.store(y_ptr + (b * C + ch[:, None]) * L + t[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(ch[:, None] < C) & (t[None, :] < L))


# --- int8 x int8 -> int32 GEMM with per-row / per-column dequant scales
@triton.jit
def int8_matmul_dequant(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                        BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.int32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K),
                    other=0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0)
        acc += tl.dot(a, b, out_dtype=tl.int32)
    sa = tl.load(sa_ptr + rm, mask=rm < M, other=0.0)
    sb = tl.load(sb_ptr + rn, mask=rn < N, other=0.0)
    out = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], out.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- [B, M, N] -> [B, N, M] transpose with tl.trans
@triton.jit
def batched_transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tile = tl.load(x_ptr + b * M * N + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N))
    tl.store(y_ptr + b * M * N + rn[:, None] * M + rm[None, :], tl.trans(tile),
             mask=(rn[:, None] < N) & (rm[None, :] < M))


# --- per-program histogram of token ids, accumulated into a global one with integer atomics
@triton.jit
def token_histogram(ids_ptr, hist_ptr, n, BLOCK: tl.constexpr, NBINS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ids = tl.load(ids_ptr + offs, mask=offs < n, other=NBINS)
    h = tl.histogram(ids, NBINS)
    # the out-of-range padding bin is dropped by histogram; remove nothing else
    bins = tl.arange(0, NBINS)
    tl.atomic_add(hist_ptr + bins, h, mask=h > 0)


# --- per-row sort (ascending) of scores and a top-k cut
@triton.jit
def row_sort_topk(x_ptr, out_ptr, N: tl.constexpr, K: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + cols)
    s = tl.sort(x, dim=0, descending=True)
    tl.store(out_ptr + row * K + cols, s, mask=cols < K)


# --- cumulative product of (1 - p) along a row (survival probabilities), with tl.cumprod
@triton.jit
def survival_cumprod(p_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    p = tl.load(p_ptr + row * stride + cols, mask=cols < N, other=0.0)
    s = tl.cumprod(1.0 - p, axis=0)
    tl.store(out_ptr + row * stride + cols, s, mask=cols < N)


# --- dropout with tl.rand seeded per program, scaled kept values, mask out as int8
@triton.jit
def dropout_seeded(x_ptr, y_ptr, keep_ptr, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    r = tl.rand(seed + pid, tl.arange(0, BLOCK))
    keep = r > p
    y = tl.where(keep, x / (1.0 - p), 0.0)
    tl.store(y_ptr + offs, y, mask=m)
    tl.store(keep_ptr + offs, keep.to(tl.int8), mask=m)


@triton.jit
def _welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    w_b = tl.where(n == 0, 0.0, n_b / tl.where(n == 0, 1.0, n))
    delta = mean_b - mean_a
    mean = mean_a + delta * w_b
    m2 = m2_a + m2_b + delta * delta * n_a * w_b
    return mean, m2, n


# --- per-row mean/variance by a Welford tl.reduce over tuples
@triton.jit
def welford_rows(x_ptr, mean_ptr, var_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    cnt = tl.where(m, 1.0, 0.0)
    zeros = tl.zeros([BLOCK], tl.float32)
    mean, m2, n = tl.reduce((x, zeros, cnt), 0, _welford_combine)
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, m2 / n)


# --- split-K GEMM, fp32 partials added into the output with atomics (each element touched by SPLIT_K programs,
#     but integer-free float adds on distinct (split, tile) pairs: the counts do not depend on ordering)
@triton.autotune(configs=[triton.Config({"BM": 32, "BN": 32, "BK": 32}, num_warps=4, num_stages=2)],
                 key=["M", "N", "K"])
@triton.heuristics({"EVEN_K": lambda args: args["K"] % (args["BK"] * args["SPLIT_K"]) == 0})
@triton.jit
def splitk_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k0 in range(0, K, BK * SPLIT_K):
        kk = k0 + rk
        if EVEN_K:
            a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=rm[:, None] < M, other=0.0)
            b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
        else:
            a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
