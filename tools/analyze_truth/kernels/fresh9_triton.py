"""A ninth fresh batch of Triton kernels, the everyday building blocks of a 2026 model codebase: a fused bias + exact
(erf) GELU + residual epilogue, a log-softmax with an online max, a batched matmul with all strides of its 3-D
operands passed in, a float16 matmul with a K loop (64x64x32 and 128x128x64 tiles, three stages: the larger one
runs on wgmma on sm_90), a non-causal attention forward for head_dim 64, RMSNorm forward with a weight, a 2-D transpose
through tl.trans, a per-row top-1 by tl.argmax, a cumulative product by tl.associative_scan, a histogram by
tl.histogram with integer atomics, column sums of a column-major matrix, a per-row absmax int8 quantiser writing int8
values and float32 scales, and a masked 2-D copy between differently strided non-power-of-two views (written for
smemlab, by someone who had not seen it)."""

import triton
import triton.language as tl


# --- y = gelu(x + bias) + residual over a [M, N] activation, exact GELU through erf; a BM x BN tile a program
@triton.jit
def bias_gelu_residual(x_ptr, bias_ptr, res_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    r = tl.load(res_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    h = x + b[None, :]
    g = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(y_ptr + offs, (g + r).to(y_ptr.dtype.element_ty), mask=mask)


# --- log-softmax of each row: one pass over the row in BLOCK chunks keeping a running max and a rescaled sum, then a
#     second pass writing x - (max + log(sum))
@triton.jit
def log_softmax_online(x_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    xr = x_ptr + row * stride
    yr = y_ptr + row * stride
    m_run = tl.full([BLOCK], float("-inf"), tl.float32)
    s_run = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(xr + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m_run, x)
        s_run = s_run * tl.exp(m_run - m_new) + tl.exp(x - m_new)
        m_run = tl.where(m_new == float("-inf"), m_run, m_new)
        s_run = tl.where(m_new == float("-inf"), 0.0, s_run)
    m = tl.max(m_run, axis=0)
    s = tl.sum(s_run * tl.exp(m_run - m), axis=0)
    lse = m + tl.log(s)
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(xr + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(yr + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=cols < N)


# --- C[b] = A[b] @ B[b] for 3-D operands with arbitrary strides (batch, row, column of each passed in), program
#     (m tile, n tile, batch), fp32 accumulation
@triton.jit
def bmm_strided(a_ptr, b_ptr, c_ptr, M, N, K, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn, BM: tl.constexpr,
                BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    bat = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_base = a_ptr + bat * sab
    b_base = b_ptr + bat * sbb
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_base + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        b = tl.load(b_base + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    c = c_ptr + bat * scb + rm[:, None] * scm + rn[None, :] * scn
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- the plain float16 GEMM with a K loop, row-major A [M, K], B [K, N], C [M, N], grouped program order so that
#     neighbouring programs share A rows; pipelined by num_stages at launch
@triton.jit
def matmul_kloop(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                 GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    gsize = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % gsize
    pid_n = (pid % per_group) // gsize
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * N + cn[None, :], acc.to(tl.float16), mask=(cm[:, None] < M) & (cn[None, :] < N))


# --- attention forward without a mask over q, k, v [Z*H, T, D] (float16): a BLOCK_M query tile a program, every key
#     tile visited, online softmax in base 2, keys past T masked to -inf
@triton.jit
def attn_fwd_full(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, T, D: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    zh = tl.program_id(1).to(tl.int64)
    base = zh * T * D
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < T, other=0.0)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for n0 in range(0, T, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < T, other=0.0)
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < T, other=0.0)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where(rn[None, :] < T, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], out.to(tl.float16), mask=rm[:, None] < T)


# --- RMSNorm forward: y = x / sqrt(mean(x^2) + eps) * w, one row a program, the reciprocal rms kept for backward
@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, rstd_ptr, N, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=m, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=m)


# --- out = x.T for x [M, N]: a BM x BN tile loaded row-major, transposed in registers by tl.trans and stored as a
#     BN x BM tile of out [N, M]
@triton.jit
def transpose_trans(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tile = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0)
    t = tl.trans(tile)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], t, mask=(rn[:, None] < N) & (rm[None, :] < M))


# --- greedy decoding's top-1: the index and value of each row's maximum logit by tl.argmax / tl.max, ROWS rows a
#     program as a [ROWS, BV] tile
@triton.jit
def row_top1(logits_ptr, idx_ptr, val_ptr, M, V, stride, ROWS: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BV)
    mask = (rows[:, None] < M) & (cols[None, :] < V)
    x = tl.load(logits_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=float("-inf"))
    idx = tl.argmax(x, axis=1)
    val = tl.max(x, axis=1)
    tl.store(idx_ptr + rows, idx.to(tl.int32), mask=rows < M)
    tl.store(val_ptr + rows, val, mask=rows < M)


@triton.jit
def _mul(a, b):
    return a * b


# --- cumulative product along each row (a survival curve from per-step keep probabilities) by tl.associative_scan
#     with a multiply combine, one row of up to BLOCK entries a program
@triton.jit
def cumprod_rows(p_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    p = tl.load(p_ptr + row * stride + cols, mask=m, other=1.0)
    c = tl.associative_scan(p, 0, _mul)
    tl.store(out_ptr + row * stride + cols, c, mask=m)


# --- histogram of int32 class ids in [0, NBINS): each program bins a BLOCK slice with tl.histogram (the tail masked
#     out), then adds its counts to the global bins with integer tl.atomic_add
@triton.jit
def class_histogram(ids_ptr, hist_ptr, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    ids = tl.load(ids_ptr + offs, mask=m, other=0)
    h = tl.histogram(ids, NBINS, mask=m)
    tl.atomic_add(hist_ptr + tl.arange(0, NBINS), h)


# --- column sums of a column-major matrix (element (i, j) at i + j * ld, as a Fortran / transposed-view array comes
#     in): BN columns a program, the rows walked BM at a time
@triton.jit
def colsum_colmajor(x_ptr, out_ptr, M, N, ld, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BN + tl.arange(0, BN)
    acc = tl.zeros([BN], dtype=tl.float32)
    for r0 in range(0, M, BM):
        rows = r0 + tl.arange(0, BM)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] + cols[None, :] * ld, mask=mask, other=0.0)
        acc += tl.sum(x.to(tl.float32), axis=0)
    tl.store(out_ptr + cols, acc, mask=cols < N)


# --- symmetric per-row int8 quantisation: scale = absmax / 127 (1 for an all-zero row), q = round(x / scale)
#     clamped to [-127, 127], ROWS rows a program
@triton.jit
def quant_int8_rows(x_ptr, q_ptr, scale_ptr, M, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=1)
    scale = tl.where(amax > 0.0, amax / 127.0, 1.0)
    y = x / scale[:, None]
    q = tl.where(y >= 0.0, tl.floor(y + 0.5), tl.ceil(y - 0.5))
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + rows[:, None] * N + cols[None, :], q.to(tl.int8), mask=mask)
    tl.store(scale_ptr + rows, scale, mask=rows < M)


# --- copy of an M x N window between two strided 2-D views (source rows of stride ld_src, destination of ld_dst,
#     both wider than N), the tile masked on both edges
@triton.jit
def copy2d_masked(src_ptr, dst_ptr, M, N, ld_src, ld_dst, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(src_ptr + rm[:, None] * ld_src + rn[None, :], mask=mask)
    tl.store(dst_ptr + rm[:, None] * ld_dst + rn[None, :], v, mask=mask)
