"""A third fresh batch of Triton kernels written as people write them (FlashAttention-2, Liger-, unsloth-, vLLM-
and SGLang-style ops: MoE routing, int8 GEMV, RoPE, AdamW, top-p prep, segmented scans), run through
`smemlab analyze --triton` as a held-out checker would (written for smemlab)."""

import triton
import triton.language as tl


# --- FlashAttention-2 forward: one [BM, D] query tile, a loop over K/V tiles with an online softmax
@triton.jit
def flash_fwd(q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, sm_scale, seq_len, stride_h, stride_n,
              D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    base = head * stride_h
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_n + offs_d[None, :], mask=offs_m[:, None] < seq_len,
                other=0.0)
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in tl.range(0, seq_len, BN, num_stages=2):
        kv = start_n + offs_n
        k = tl.load(k_ptr + base + kv[None, :] * stride_n + offs_d[:, None], mask=kv[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(kv[None, :] < seq_len, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + kv[:, None] * stride_n + offs_d[None, :], mask=kv[:, None] < seq_len, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * stride_n + offs_d[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < seq_len)
    tl.store(lse_ptr + head * seq_len + offs_m, m_i + tl.math.log2(l_i), mask=offs_m < seq_len)


# --- FlashAttention backward preprocess: delta = rowsum(o * do)
@triton.jit
def attn_bwd_preprocess(o_ptr, do_ptr, delta_ptr, n_rows, D: tl.constexpr, BM: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, D)
    mask = rows[:, None] < n_rows
    o = tl.load(o_ptr + rows[:, None] * D + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    do = tl.load(do_ptr + rows[:, None] * D + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(delta_ptr + rows, tl.sum(o * do, axis=1), mask=rows < n_rows)


# --- fused residual add + RMSNorm (vLLM's fused_add_rms_norm): writes the new residual and the normed output
@triton.jit
def fused_add_rmsnorm(x_ptr, res_ptr, w_ptr, out_ptr, res_out_ptr, N, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(res_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    h = x + r
    tl.store(res_out_ptr + row * stride + cols, h.to(res_out_ptr.dtype.element_ty), mask=mask)
    var = tl.sum(h * h, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
    tl.store(out_ptr + row * stride + cols, (h * rstd * w).to(out_ptr.dtype.element_ty), mask=mask)


# --- MoE routing: gather the rows of the tokens routed to experts (sorted_ids) into a contiguous buffer
@triton.jit
def moe_gather_rows(x_ptr, sorted_ids_ptr, out_ptr, num_valid, H, TOPK: tl.constexpr, BT: tl.constexpr,
                    BH: tl.constexpr):
    pid = tl.program_id(0)
    slots = pid * BT + tl.arange(0, BT)
    ids = tl.load(sorted_ids_ptr + slots, mask=slots < num_valid, other=0)
    tok = ids // TOPK
    for h0 in range(0, H, BH):
        cols = h0 + tl.arange(0, BH)
        m = (slots[:, None] < num_valid) & (cols[None, :] < H)
        rows = tl.load(x_ptr + tok[:, None] * H + cols[None, :], mask=m, other=0.0)
        tl.store(out_ptr + slots[:, None] * H + cols[None, :], rows, mask=m)


# --- MoE combine: each expert output row scaled by its routing weight, scatter-added into its token's row
@triton.jit
def moe_scatter_add(y_ptr, ids_ptr, wts_ptr, out_ptr, num_valid, H, TOPK: tl.constexpr, BH: tl.constexpr):
    slot = tl.program_id(0)
    blk = tl.program_id(1)
    tok = tl.load(ids_ptr + slot) // TOPK
    wt = tl.load(wts_ptr + slot)
    cols = blk * BH + tl.arange(0, BH)
    m = cols < H
    y = tl.load(y_ptr + slot * H + cols, mask=m, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr + tok * H + cols, y * wt, mask=m & (slot < num_valid), sem="relaxed")


# --- W8A16 GEMV: int8 weights [N, K] with a per-output-channel scale, fp16 activations
@triton.jit
def int8_gemv(x_ptr, w_ptr, scale_ptr, y_ptr, N, K, stride_wn, BN: tl.constexpr, BK: tl.constexpr):
    rn = tl.program_id(0) * BN + tl.arange(0, BN)
    rn = tl.max_contiguous(tl.multiple_of(rn, BN), BN)
    acc = tl.zeros([BN], tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rk, mask=rk < K, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + rn[:, None] * stride_wn + rk[None, :], mask=(rn[:, None] < N) & (rk[None, :] < K),
                    other=0, cache_modifier=".cg")
        acc += tl.sum(w.to(tl.float32) * x[None, :], axis=1)
    s = tl.load(scale_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    tl.store(y_ptr + rn, (acc * s).to(tl.float16), mask=rn < N)


# --- RoPE (GPT-NeoX halves) in place over q[seq, heads, dim]: grid (seq blocks, heads, batch)
@triton.jit
def rope_3d(q_ptr, cos_ptr, sin_ptr, seq_len, stride_b, stride_s, stride_h, HALF: tl.constexpr, BS: tl.constexpr):
    pid_s = tl.program_id(0)
    head = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    pos = pid_s * BS + tl.arange(0, BS)
    d = tl.arange(0, HALF)
    m = pos[:, None] < seq_len
    base = q_ptr + b * stride_b + head * stride_h + pos[:, None] * stride_s
    x1 = tl.load(base + d[None, :], mask=m, other=0.0).to(tl.float32)
    x2 = tl.load(base + HALF + d[None, :], mask=m, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos[:, None] * HALF + d[None, :], mask=m, other=1.0)
    s = tl.load(sin_ptr + pos[:, None] * HALF + d[None, :], mask=m, other=0.0)
    tl.store(base + d[None, :], (x1 * c - x2 * s).to(q_ptr.dtype.element_ty), mask=m)
    tl.store(base + HALF + d[None, :], (x2 * c + x1 * s).to(q_ptr.dtype.element_ty), mask=m)


@triton.jit
def _seg_combine(v_a, f_a, v_b, f_b):
    return tl.where(f_b != 0, v_b, v_a + v_b), f_a | f_b


# --- a segmented inclusive sum of one chunk: associative_scan over (value, segment-start flag) pairs
@triton.jit
def segmented_cumsum(x_ptr, flag_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    f = tl.load(flag_ptr + offs, mask=m, other=1).to(tl.int32)
    v, _ = tl.associative_scan((x, f), 0, _seg_combine)
    tl.store(out_ptr + offs, v, mask=m)


# --- top-p sampling prep: softmax of a row of logits, sorted descending, cumulative sums, the keep mask
@triton.jit
def top_p_prep(logits_ptr, sorted_ptr, keep_ptr, V, top_p, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(logits_ptr + row * stride + cols, mask=cols < V, other=float("-inf"))
    p = tl.exp(x - tl.max(x, 0))
    p = p / tl.sum(p, 0)
    ps = tl.sort(p, 0, descending=True)
    cum = tl.cumsum(ps, 0)
    keep = (cum - ps) < top_p
    tl.store(sorted_ptr + row * stride + cols, ps, mask=cols < V)
    tl.store(keep_ptr + row * stride + cols, keep.to(tl.int8), mask=cols < V)


# --- a fused AdamW step on four arrays (param, grad, exp_avg, exp_avg_sq), updated in place
@triton.jit
def adamw_step(p_ptr, g_ptr, m_ptr, v_ptr, n, lr, beta1, beta2, eps, wd, bc1, bc2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask).to(tl.float32)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    p = p * (1.0 - lr * wd)
    p = p - lr * (m / bc1) / (tl.sqrt(v / bc2) + eps)
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


# --- softmax over a row too long for one tile: an online max/sum pass over chunks, then a normalising pass
@triton.jit
def softmax_long_row(x_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        s = tl.where(m_new == float("-inf"), 0.0, s)
        m = m_new
    row_max = tl.max(m, 0)
    total = tl.sum(s * tl.exp(m - row_max), 0)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, tl.exp(x - row_max) / total, mask=cols < N)


# --- im2col for a 3x3, stride-1, pad-1 convolution of an NCHW image: one program per output-row tile
@triton.jit
def im2col3x3(x_ptr, col_ptr, C, H, W, BP: tl.constexpr, BC: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_c = tl.program_id(1)
    p = pid_p * BP + tl.arange(0, BP)
    oh = p // W
    ow = p % W
    c = pid_c * BC + tl.arange(0, BC)
    for kk in tl.static_range(9):
        ih = oh + (kk // 3) - 1
        iw = ow + (kk % 3) - 1
        inb = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W) & (p < H * W)
        m = inb[:, None] & (c[None, :] < C)
        v = tl.load(x_ptr + c[None, :] * H * W + ih[:, None] * W + iw[:, None], mask=m, other=0.0)
        tl.store(col_ptr + p[:, None] * (C * 9) + c[None, :] * 9 + kk, v,
                 mask=(p[:, None] < H * W) & (c[None, :] < C))


# --- per-row max and argmax over a ragged [M, N] tile: 2-D masks on both edges, other=-inf
@triton.jit
def ragged_row_argmax(x_ptr, lens_ptr, max_ptr, idx_ptr, M, stride, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    lens = tl.load(lens_ptr + rows, mask=rows < M, other=0)
    mask = (rows[:, None] < M) & (cols[None, :] < lens[:, None])
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=float("-inf"))
    best, where = tl.max(x, axis=1, return_indices=True)
    tl.store(max_ptr + rows, best, mask=rows < M)
    tl.store(idx_ptr + rows, where, mask=rows < M)


# --- matmul over host TensorDescriptors (Triton 3.9 removed block pointers), a leaky-ReLU epilogue, 8 warps
@triton.jit
def matmul_desc_leaky(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([k, pid_n * BN])
        acc = tl.dot(a, b, acc)
    acc = tl.where(acc > 0, acc, 0.01 * acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


# --- vLLM-style reshape_and_cache: new K/V rows written to their paged slots (slot_mapping), int64 offsets
@triton.autotune(configs=[triton.Config({"BD": 128}, num_warps=2), triton.Config({"BD": 64}, num_warps=1)],
                 key=["HD"])
@triton.heuristics({"EVEN": lambda args: args["HD"] % args["BD"] == 0})
@triton.jit
def reshape_and_cache(k_ptr, v_ptr, kc_ptr, vc_ptr, slot_ptr, HD, BD: tl.constexpr, EVEN: tl.constexpr):
    tok = tl.program_id(0)
    slot = tl.load(slot_ptr + tok).to(tl.int64)
    d = tl.arange(0, BD)
    for d0 in range(0, HD, BD):
        dd = d0 + d
        if EVEN:
            k = tl.load(k_ptr + tok * HD + dd)
            v = tl.load(v_ptr + tok * HD + dd)
            tl.store(kc_ptr + slot * HD + dd, k)
            tl.store(vc_ptr + slot * HD + dd, v)
        else:
            k = tl.load(k_ptr + tok * HD + dd, mask=dd < HD)
            v = tl.load(v_ptr + tok * HD + dd, mask=dd < HD)
            tl.store(kc_ptr + slot * HD + dd, k, mask=dd < HD)
            tl.store(vc_ptr + slot * HD + dd, v, mask=dd < HD)
