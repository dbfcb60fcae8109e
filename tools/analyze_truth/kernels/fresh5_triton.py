"""A fifth fresh batch of Triton kernels, LLM training and serving kernels with loops and control flow (RMSNorm and
SwiGLU backward, paged-attention decode over a block table, rotary backward, int8 KV-cache stores with per-token
scales, an fp8 matmul, top-k prep, ragged batches over cu_seqlens, unrolled and flattened loops, early returns, a
3-D reduction), run through `smemlab analyze --triton` as a held-out checker would (written for smemlab)."""

import triton
import triton.language as tl


# --- RMSNorm backward (Liger/unsloth style): ROWS rows a program, dx per row, this program's partial dw
@triton.jit
def rmsnorm_bwd(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_part_ptr, M, N, stride, ROWS: tl.constexpr,
                BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    row0 = pid * ROWS
    for r in range(row0, tl.minimum(row0 + ROWS, M)):
        dy = tl.load(dy_ptr + r * stride + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + r * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + r)
        xhat = x * rstd
        wdy = w * dy
        c = tl.sum(xhat * wdy, axis=0) / N
        dx = (wdy - xhat * c) * rstd
        tl.store(dx_ptr + r * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * xhat
    tl.store(dw_part_ptr + pid * N + cols, dw, mask=mask)


# --- fused SwiGLU backward: h = silu(g) * u; dg and du from dh, written over the inputs' layout
@triton.jit
def swiglu_bwd(dh_ptr, g_ptr, u_ptr, dg_ptr, du_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    start = tl.program_id(1) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n_cols
    dh = tl.load(dh_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(g_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(u_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    sig = tl.sigmoid(g)
    silu = g * sig
    du = dh * silu
    dg = dh * u * sig * (1.0 + g * (1.0 - sig))
    tl.store(dg_ptr + row * stride + offs, dg.to(dg_ptr.dtype.element_ty), mask=mask)
    tl.store(du_ptr + row * stride + offs, du.to(du_ptr.dtype.element_ty), mask=mask)


# --- paged-attention decode: one query (a sequence, a head) a program, a loop over the sequence's block table
#     (block ids loaded from memory), an online softmax over each KV block
@triton.jit
def paged_attn_decode(q_ptr, k_cache_ptr, v_cache_ptr, block_table_ptr, seq_lens_ptr, out_ptr, scale,
                      max_blocks, num_heads, D: tl.constexpr, BS: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    d = tl.arange(0, D)
    t = tl.arange(0, BS)
    q = tl.load(q_ptr + (seq * num_heads + head) * D + d).to(tl.float32)
    seq_len = tl.load(seq_lens_ptr + seq)
    m = float("-inf")
    l = 0.0
    acc = tl.zeros([D], dtype=tl.float32)
    n_blocks = tl.cdiv(seq_len, BS)
    for b in range(0, n_blocks):
        block_id = tl.load(block_table_ptr + seq * max_blocks + b).to(tl.int64)
        tok = b * BS + t
        valid = tok < seq_len
        base = (block_id * BS + t[:, None]) * num_heads * D + head * D + d[None, :]
        k = tl.load(k_cache_ptr + base, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * scale
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=0))
        p = tl.exp(s - m_new)
        alpha = tl.exp(m - m_new)
        v = tl.load(v_cache_ptr + base, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        l = l * alpha + tl.sum(p, axis=0)
        m = m_new
    tl.store(out_ptr + (seq * num_heads + head) * D + d, (acc / l).to(out_ptr.dtype.element_ty))


# --- rotary embedding backward (NeoX halves): the inverse rotation of the gradient, a (token, head) grid,
#     int64 strides
@triton.jit
def rotary_bwd(dq_ptr, cos_ptr, sin_ptr, pos_ptr, stride_tok, stride_head, HALF: tl.constexpr):
    tok = tl.program_id(0)
    head = tl.program_id(1)
    pos = tl.load(pos_ptr + tok)
    i = tl.arange(0, HALF)
    cos = tl.load(cos_ptr + pos * HALF + i)
    sin = tl.load(sin_ptr + pos * HALF + i)
    base = dq_ptr + tok.to(tl.int64) * stride_tok + head * stride_head
    d1 = tl.load(base + i).to(tl.float32)
    d2 = tl.load(base + HALF + i).to(tl.float32)
    tl.store(base + i, (d1 * cos + d2 * sin).to(dq_ptr.dtype.element_ty))
    tl.store(base + HALF + i, (d2 * cos - d1 * sin).to(dq_ptr.dtype.element_ty))


# --- KV cache quantise-and-store: a token's K row to int8 with its own scale, written at its paged slot;
#     padded tokens (slot < 0) return at once
@triton.jit
def kv_quant_store_int8(k_ptr, slot_ptr, cache_ptr, scale_ptr, HD: tl.constexpr, BLOCK: tl.constexpr):
    tok = tl.program_id(0)
    slot = tl.load(slot_ptr + tok).to(tl.int64)
    if slot < 0:
        return
    offs = tl.arange(0, BLOCK)
    mask = offs < HD
    k = tl.load(k_ptr + tok * HD + offs, mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(k), axis=0)
    scale = tl.maximum(amax, 1e-6) / 127.0
    qk = tl.extra.cuda.libdevice.rint(k / scale)
    qk = tl.clamp(qk, -127.0, 127.0).to(tl.int8)
    tl.store(cache_ptr + slot * HD + offs, qk, mask=mask)
    tl.store(scale_ptr + slot, scale)


# --- fp8 (e4m3) matmul with per-tensor scales (the dequantised product in fp16), K tail masked, hinted offsets
@triton.jit
def fp8_matmul_scaled(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = tl.max_contiguous(tl.multiple_of(pid_n * BN + tl.arange(0, BN), BN), BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        k_left = K - k * BK
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    acc = acc * (tl.load(a_scale_ptr) * tl.load(b_scale_ptr))
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- top-k sampling prep: logits / temperature, the row's K largest kept, the rest -inf
@triton.jit
def topk_mask_logits(logits_ptr, temp_ptr, out_ptr, V, stride, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < V
    t = tl.load(temp_ptr + row)
    x = tl.load(logits_ptr + row * stride + offs, mask=mask, other=float("-inf")) / t
    top = tl.topk(x, K)
    kth = tl.min(top, axis=0)
    y = tl.where(x >= kth, x, float("-inf"))
    tl.store(out_ptr + row * stride + offs, y, mask=mask)


# --- ragged batch (varlen): the mean of each sequence's tokens, starts from cu_seqlens, a masked loop over
#     BLOCK_T tokens at a time, a (sequence, feature block) grid
@triton.jit
def varlen_mean_pool(x_ptr, cu_seqlens_ptr, out_ptr, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    seq = tl.program_id(0)
    dblk = tl.program_id(1)
    start = tl.load(cu_seqlens_ptr + seq)
    end = tl.load(cu_seqlens_ptr + seq + 1)
    d = dblk * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = d < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for t0 in range(start, end, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        m = (t < end)[:, None] & dmask[None, :]
        x = tl.load(x_ptr + t[:, None] * D + d[None, :], mask=m, other=0.0)
        acc += tl.sum(x.to(tl.float32), axis=0)
    n = tl.maximum(end - start, 1)
    tl.store(out_ptr + seq * D + d, acc / n, mask=dmask)


# --- a residual scale-add over a row in chunks, the chunk loop unrolled twice (tl.range loop_unroll_factor)
@triton.jit
def scale_add_unrolled(x_ptr, r_ptr, y_ptr, alpha, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for c in tl.range(0, N, BLOCK, loop_unroll_factor=2):
        offs = c + tl.arange(0, BLOCK)
        mask = offs < N
        x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0)
        r = tl.load(r_ptr + row * N + offs, mask=mask, other=0.0, eviction_policy="evict_first")
        tl.store(y_ptr + row * N + offs, x * alpha + r, mask=mask)


# --- a 2-level loop (rows of a tile, chunks of a row) flattened into one (tl.range flatten=True): squared norms
@triton.jit
def tile_sq_norms_flat(x_ptr, out_ptr, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    for r in tl.range(0, ROWS, flatten=True):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for c in tl.range(0, N, BLOCK):
            x = tl.load(x_ptr + (pid * ROWS + r) * N + c + offs, mask=c + offs < N, other=0.0)
            acc += x * x
        tl.store(out_ptr + pid * ROWS + r, tl.sum(acc, axis=0))


# --- programs past the live batch return at once (a CUDA-graph padded launch): bias + GELU per row
@triton.jit
def bias_gelu_live(x_ptr, b_ptr, y_ptr, n_live_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    n_live = tl.load(n_live_ptr)
    if row >= n_live:
        return
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    h = x + b
    y = 0.5 * h * (1.0 + tl.extra.cuda.libdevice.erf(h * 0.7071067811865476))
    tl.store(y_ptr + row * N + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


# --- a 3-D reduction over [B, H, N]: each b's sum over both H and N (two reduction axes), N in chunks
@triton.jit
def sum_over_h_n(x_ptr, out_ptr, H, N, stride_b, stride_h, BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    h = tl.arange(0, BLOCK_H)
    acc = tl.zeros([BLOCK_H, BLOCK_N], dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        n = n0 + tl.arange(0, BLOCK_N)
        m = (h[:, None] < H) & (n[None, :] < N)
        acc += tl.load(x_ptr + b * stride_b + h[:, None] * stride_h + n[None, :], mask=m, other=0.0)
    tl.store(out_ptr + b, tl.sum(tl.sum(acc, axis=1), axis=0))


# --- repetition penalty (vLLM sampler): the logits of the row's previous tokens gathered, penalised, scattered
@triton.jit
def repetition_penalty(logits_ptr, tokens_ptr, n_tokens_ptr, penalty, V, max_tokens, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    n = tl.load(n_tokens_ptr + row)
    for t0 in tl.static_range(0, 64, BLOCK):
        offs = t0 + tl.arange(0, BLOCK)
        mask = (offs < n) & (offs < max_tokens)
        tok = tl.load(tokens_ptr + row * max_tokens + offs, mask=mask, other=0)
        x = tl.load(logits_ptr + row * V + tok, mask=mask, other=0.0)
        y = tl.where(x > 0, x / penalty, x * penalty)
        tl.store(logits_ptr + row * V + tok, y, mask=mask)


# --- KL divergence forward over a vocabulary in chunks (Liger style), log-probabilities in, a loss a row
@triton.jit
def kl_div_rows(logp_ptr, logq_ptr, loss_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for v0 in tl.range(0, V, BLOCK, num_stages=2):
        offs = v0 + tl.arange(0, BLOCK)
        mask = offs < V
        lq = tl.load(logq_ptr + row * stride + offs, mask=mask, other=0.0, cache_modifier=".cg")
        lp = tl.load(logp_ptr + row * stride + offs, mask=mask, other=0.0)
        acc += tl.where(mask, tl.exp(lq) * (lq - lp), 0.0)
    tl.store(loss_ptr + row, tl.sum(acc, axis=0))


# --- ALiBi causal scores on a 3-D grid (batch*head, query block, key block): blocks above the diagonal return
@triton.jit
def alibi_causal_scores(s_ptr, slopes_ptr, T, H, BQ: tl.constexpr, BKV: tl.constexpr):
    bh = tl.program_id(0)
    qb = tl.program_id(1)
    kb = tl.program_id(2)
    if kb * BKV > qb * BQ + BQ - 1:
        return
    slope = tl.load(slopes_ptr + bh % H)
    q = qb * BQ + tl.arange(0, BQ)
    k = kb * BKV + tl.arange(0, BKV)
    m = (q[:, None] < T) & (k[None, :] < T)
    ptrs = s_ptr + bh.to(tl.int64) * T * T + q[:, None] * T + k[None, :]
    s = tl.load(ptrs, mask=m, other=0.0)
    bias = slope * (k[None, :] - q[:, None]).to(tl.float32)
    s = tl.where(k[None, :] <= q[:, None], s + bias, float("-inf"))
    tl.store(ptrs, s, mask=m)


# --- Gemma-style logit soft-capping in place, autotuned block size, EVEN_N from a heuristic (no mask then)
@triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=4), triton.Config({"BLOCK": 2048}, num_warps=8)],
                 key=["V"])
@triton.heuristics({"EVEN_N": lambda args: args["V"] % args["BLOCK"] == 0})
@triton.jit
def logit_softcap(logits_ptr, V, stride, cap, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    for v0 in tl.range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        ptrs = logits_ptr + row * stride + offs
        if EVEN_N:
            x = tl.load(ptrs).to(tl.float32)
        else:
            x = tl.load(ptrs, mask=offs < V, other=0.0).to(tl.float32)
        y = cap * (2.0 * tl.sigmoid(2.0 * x / cap) - 1.0)
        if EVEN_N:
            tl.store(ptrs, y.to(logits_ptr.dtype.element_ty))
        else:
            tl.store(ptrs, y.to(logits_ptr.dtype.element_ty), mask=offs < V)
