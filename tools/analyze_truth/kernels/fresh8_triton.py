"""An eighth fresh batch of Triton kernels, the fused training and serving kernels of 2026 (the Liger-Kernel / unsloth
/ vLLM kind) that the earlier batches left out: GeGLU (tanh) and SwiGLU forward and backward, NeoX RoPE on
(batch, heads, seq, dim) with cos/sin tables, a cross-entropy forward with label smoothing and ignore_index that
writes its gradient in the same pass, RMSNorm backward with per-program partial dW, a KL-divergence loss, a causal
flash-attention forward, a paged-attention decode over an int32 block table, MoE expert counts by tl.atomic_add and
the block-aligned token sort, an int8 weight-only matmul with per-channel scales, a 2:4 magnitude-pruned matmul,
a KV-cache append into vLLM's split-x key layout through a slot mapping, fused residual add + LayerNorm, group norm,
Mamba's causal depthwise conv1d (width 4), a top-p mask by tl.sort and tl.cumsum, ragged varlen padding with masked
2-D loads, a weight gradient through tl.trans, and a column-major operand read through a tensor descriptor (the
order=(0, 1) block pointer's replacement: Triton 3.9 has no block pointers); written for smemlab by someone who had
not seen it."""

import triton
import triton.language as tl


@triton.jit
def _tanh(x):
    return 2.0 * tl.sigmoid(2.0 * x) - 1.0


# --- GeGLU forward, tanh approximation of GELU on the gate, one row a program; bf16 in and out, fp32 math
@triton.jit
def geglu_tanh_fwd(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    a = tl.load(a_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + cols, mask=m, other=0.0)
    inner = 0.7978845608028654 * (a + 0.044715 * a * a * a)
    gelu = 0.5 * a * (1.0 + _tanh(inner))
    c = gelu.to(b.dtype) * b
    tl.store(c_ptr + row * stride + cols, c, mask=m)


# --- GeGLU backward: gradients of the gate (through the tanh-GELU) and of the up projection from dc, recomputing
#     the activation instead of storing it
@triton.jit
def geglu_tanh_bwd(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    off = row * stride + cols
    dc = tl.load(dc_ptr + off, mask=m, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + off, mask=m, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + off, mask=m, other=0.0).to(tl.float32)
    k = 0.7978845608028654
    th = _tanh(k * (a + 0.044715 * a * a * a))
    gelu = 0.5 * a * (1.0 + th)
    dgelu = 0.5 * (1.0 + th) + 0.5 * a * (1.0 - th * th) * k * (1.0 + 3.0 * 0.044715 * a * a)
    tl.store(db_ptr + off, (dc * gelu).to(db_ptr.dtype.element_ty), mask=m)
    tl.store(da_ptr + off, (dc * b * dgelu).to(da_ptr.dtype.element_ty), mask=m)


# --- SwiGLU forward on a packed [M, 2N] gate|up projection (as vLLM's silu_and_mul gets it): BR rows a program, the
#     columns walked BLOCK at a time
@triton.jit
def silu_and_mul_fwd(x_ptr, y_ptr, M, N, BR: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BR + tl.arange(0, BR)
    rm = rows[:, None] < M
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = rm & (cols[None, :] < N)
        g = tl.load(x_ptr + rows[:, None] * (2 * N) + cols[None, :], mask=m, other=0.0).to(tl.float32)
        u = tl.load(x_ptr + rows[:, None] * (2 * N) + N + cols[None, :], mask=m, other=0.0).to(tl.float32)
        y = g * tl.sigmoid(g) * u
        tl.store(y_ptr + rows[:, None] * N + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=m)


# --- SwiGLU backward on the packed layout: d(gate) and d(up) written side by side into dx [M, 2N]
@triton.jit
def silu_and_mul_bwd(dy_ptr, x_ptr, dx_ptr, M, N, BR: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BR + tl.arange(0, BR)
    rm = rows[:, None] < M
    for c0 in range(0, N, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = rm & (cols[None, :] < N)
        gi = rows[:, None] * (2 * N) + cols[None, :]
        g = tl.load(x_ptr + gi, mask=m, other=0.0).to(tl.float32)
        u = tl.load(x_ptr + gi + N, mask=m, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + rows[:, None] * N + cols[None, :], mask=m, other=0.0).to(tl.float32)
        sig = tl.sigmoid(g)
        silu = g * sig
        dg = dy * u * (sig + silu * (1.0 - sig))
        du = dy * silu
        tl.store(dx_ptr + gi, dg.to(dx_ptr.dtype.element_ty), mask=m)
        tl.store(dx_ptr + gi + N, du.to(dx_ptr.dtype.element_ty), mask=m)


# --- NeoX-style rotary embedding on q [B, H, S, D]: the first and second halves of each head rotated by cos/sin
#     tables [S, D/2]; program (batch*head, block of positions)
@triton.jit
def rope_neox_bhsd(q_ptr, cos_ptr, sin_ptr, out_ptr, S, stride_bh, stride_s, HALF: tl.constexpr, BS: tl.constexpr):
    bh = tl.program_id(0)
    pid_s = tl.program_id(1)
    s = pid_s * BS + tl.arange(0, BS)
    d = tl.arange(0, HALF)
    m = s[:, None] < S
    base = bh * stride_bh + s[:, None] * stride_s + d[None, :]
    x1 = tl.load(q_ptr + base, mask=m, other=0.0).to(tl.float32)
    x2 = tl.load(q_ptr + base + HALF, mask=m, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + s[:, None] * HALF + d[None, :], mask=m, other=1.0)
    sn = tl.load(sin_ptr + s[:, None] * HALF + d[None, :], mask=m, other=0.0)
    tl.store(out_ptr + base, (x1 * c - x2 * sn).to(out_ptr.dtype.element_ty), mask=m)
    tl.store(out_ptr + base + HALF, (x2 * c + x1 * sn).to(out_ptr.dtype.element_ty), mask=m)


# --- cross-entropy forward with label smoothing and ignore_index, one row a program: an online log-sum-exp over
#     the vocabulary in BLOCK chunks, then a second pass writing d(loss)/d(logits) into grad (ignored rows: zeros)
@triton.jit
def xent_smooth_fwd(logits_ptr, labels_ptr, loss_ptr, grad_ptr, V, stride, ignore_index, smoothing,
                    BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = logits_ptr + row * stride
    g_row = grad_ptr + row * stride
    label = tl.load(labels_ptr + row)
    if label == ignore_index:
        for c0 in range(0, V, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            tl.store(g_row + cols, tl.zeros([BLOCK], dtype=tl.float32), mask=cols < V)
        tl.store(loss_ptr + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    xsum = 0.0
    for c0 in range(0, V, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        xsum += tl.sum(tl.where(cols < V, x, 0.0), axis=0)
        m = m_new
    lse = m + tl.log(d)
    x_y = tl.load(x_row + label).to(tl.float32)
    eps = smoothing / V
    loss = (1.0 - smoothing) * (lse - x_y) + smoothing * (lse - xsum / V)
    tl.store(loss_ptr + row, loss)
    for c0 in range(0, V, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < V, other=0.0).to(tl.float32)
        p = tl.exp(x - lse)
        g = p - eps - tl.where(cols == label, 1.0 - smoothing, 0.0)
        tl.store(g_row + cols, g, mask=cols < V)


# --- RMSNorm backward: dx for ROWS_PER rows a program and that program's partial dW (summed over its rows) into
#     its own row of dw_part, reduced later on the host
@triton.jit
def rmsnorm_bwd(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_part_ptr, M, N, ROWS_PER: tl.constexpr,
                BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    w = tl.load(w_ptr + cols, mask=cm, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    row0 = pid * ROWS_PER
    for r in range(row0, tl.minimum(row0 + ROWS_PER, M)):
        dy = tl.load(dy_ptr + r * N + cols, mask=cm, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + r * N + cols, mask=cm, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + r)
        xhat = x * rstd
        wdy = w * dy
        c = tl.sum(wdy * xhat, axis=0) / N
        dx = (wdy - xhat * c) * rstd
        tl.store(dx_ptr + r * N + cols, dx.to(dx_ptr.dtype.element_ty), mask=cm)
        dw += dy * xhat
    tl.store(dw_part_ptr + pid * N + cols, dw, mask=cm)


# --- KL(target || pred) per row with pred given as log-probabilities, target as probabilities or (LOG_TARGET) as
#     log-probabilities; zero-probability targets contribute nothing
@triton.jit
def kl_div_rows(logp_ptr, tgt_ptr, loss_ptr, V, stride, LOG_TARGET: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, V, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < V
        lp = tl.load(logp_ptr + row * stride + cols, mask=m, other=0.0)
        if LOG_TARGET:
            lt = tl.load(tgt_ptr + row * stride + cols, mask=m, other=float("-inf"))
            term = tl.where(m, tl.exp(lt) * (lt - lp), 0.0)
        else:
            t = tl.load(tgt_ptr + row * stride + cols, mask=m, other=0.0)
            term = tl.where(t > 0.0, t * (tl.log(tl.maximum(t, 1e-30)) - lp), 0.0)
        acc += term
    tl.store(loss_ptr + row, tl.sum(acc, axis=0))


# --- causal flash-attention forward over q, k, v [Z*H, T, D]: a BLOCK_M query tile a program, key tiles up to the
#     diagonal, scores by tl.dot(q, tl.trans(k)), online softmax in exp2
@triton.jit
def flash_attn_causal_fwd(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, T, HEAD_D: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    zh = tl.program_id(1)
    base = zh * T * HEAD_D
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, HEAD_D)
    q = tl.load(q_ptr + base + rm[:, None] * HEAD_D + rd[None, :], mask=rm[:, None] < T, other=0.0)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_D], dtype=tl.float32)
    hi = tl.minimum((pid_m + 1) * BLOCK_M, T)
    for n0 in range(0, hi, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        kv_m = rn[:, None] < T
        k = tl.load(k_ptr + base + rn[:, None] * HEAD_D + rd[None, :], mask=kv_m, other=0.0)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where((rn[None, :] <= rm[:, None]) & (rn[None, :] < T), s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + rn[:, None] * HEAD_D + rd[None, :], mask=kv_m, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * HEAD_D + rd[None, :], out.to(o_ptr.dtype.element_ty), mask=rm[:, None] < T)


# --- single-query paged attention (decode): one program a (head, sequence), the KV pages of the sequence found
#     through an int32 block table, cache layout [num_blocks, PAGE, H, D], an online softmax across pages
@triton.jit
def paged_attn_decode(q_ptr, k_cache_ptr, v_cache_ptr, block_table_ptr, seq_lens_ptr, out_ptr, sm_scale,
                      max_blocks, H: tl.constexpr, D: tl.constexpr, PAGE: tl.constexpr):
    h = tl.program_id(0)
    b = tl.program_id(1)
    seq_len = tl.load(seq_lens_ptr + b)
    d = tl.arange(0, D)
    tok = tl.arange(0, PAGE)
    q = tl.load(q_ptr + (b * H + h) * D + d).to(tl.float32)
    m_i = float("-inf")
    l_i = 0.0
    acc = tl.zeros([D], dtype=tl.float32)
    n_pages = tl.cdiv(seq_len, PAGE)
    for p in range(0, n_pages):
        blk = tl.load(block_table_ptr + b * max_blocks + p).to(tl.int64)
        pos = p * PAGE + tok
        valid = pos < seq_len
        kv_off = blk * (PAGE * H * D) + tok[:, None] * (H * D) + h * D + d[None, :]
        k = tl.load(k_cache_ptr + kv_off, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1) * sm_scale
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        w = tl.exp(s - m_new)
        alpha = tl.exp(m_i - m_new)
        v = tl.load(v_cache_ptr + kv_off, mask=valid[:, None], other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(w[:, None] * v, axis=0)
        l_i = l_i * alpha + tl.sum(w, axis=0)
        m_i = m_new
    tl.store(out_ptr + (b * H + h) * D + d, (acc / l_i).to(out_ptr.dtype.element_ty))


# --- MoE routing, step 1: tokens per expert, BLOCK flattened top-k ids a program, one tl.atomic_add per id
@triton.jit
def moe_count_experts(topk_ids_ptr, counts_ptr, numel, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < numel
    e = tl.load(topk_ids_ptr + offs, mask=m, other=0)
    tl.atomic_add(counts_ptr + e, tl.full([BLOCK], 1, dtype=tl.int32), mask=m)


# --- MoE routing, step 2 (one program): expert segments padded to BLOCK_SIZE (tl.cumsum of the padded counts),
#     the expert of every block, the sorted token list prefilled with the sentinel numel, then each flattened id
#     placed at its expert's running cursor (kept as a register vector) in token order
@triton.jit
def moe_align_sort(topk_ids_ptr, counts_ptr, sorted_ids_ptr, expert_of_block_ptr, offsets_ptr, numel, capacity,
                   E: tl.constexpr, BLOCK_SIZE: tl.constexpr, MAX_BLOCKS: tl.constexpr, FILL: tl.constexpr):
    ex = tl.arange(0, E)
    cnt = tl.load(counts_ptr + ex)
    padded = tl.cdiv(cnt, BLOCK_SIZE) * BLOCK_SIZE
    ends = tl.cumsum(padded, axis=0)
    starts = ends - padded
    tl.store(offsets_ptr + ex, starts)
    total = tl.sum(padded, axis=0)
    tl.store(offsets_ptr + E, total)
    for c0 in range(0, capacity, FILL):
        k = c0 + tl.arange(0, FILL)
        tl.store(sorted_ids_ptr + k, tl.full([FILL], 0, dtype=tl.int32) + numel, mask=k < capacity)
    blk = tl.arange(0, MAX_BLOCKS)
    owner = tl.sum((ends[None, :] <= blk[:, None] * BLOCK_SIZE).to(tl.int32), axis=1)
    tl.store(expert_of_block_ptr + blk, owner, mask=blk * BLOCK_SIZE < total)
    tl.debug_barrier()
    cur = starts
    for i in range(0, numel):
        e = tl.load(topk_ids_ptr + i)
        hit = ex == e
        pos = tl.sum(tl.where(hit, cur, 0), axis=0)
        tl.store(sorted_ids_ptr + pos, i)
        cur += hit.to(tl.int32)


# --- weight-only int8 linear: fp16 activations [M, K] times int8 weights [K, N] dequantised to fp16 in the K loop,
#     the per-output-channel scale applied once to the fp32 accumulator
@triton.jit
def w8a16_matmul(x_ptr, w_ptr, scale_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(x, w.to(tl.float16))
    sc = tl.load(scale_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = acc * sc[None, :]
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- a 2:4 semi-structured sparse matmul emulated densely: in every group of 4 consecutive K entries of A the two
#     largest magnitudes are kept (ranked by a pairwise compare inside the group), the rest zeroed before the dot
@triton.jit
def sparse24_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        mag = tl.reshape(tl.abs(a.to(tl.float32)), [BM, BK // 4, 4])
        beaten = (mag[:, :, None, :] > mag[:, :, :, None]).to(tl.int32)
        rank = tl.sum(beaten, axis=3)
        keep = tl.reshape(rank < 2, [BM, BK])
        a = tl.where(keep, a, 0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- KV-cache append (vLLM reshape_and_cache): token t's key and value [H, D] written to slot slot_mapping[t]
#     (-1: padding, skipped); keys into [blocks, H, D/X, PAGE, X], values into [blocks, H, D, PAGE]
@triton.jit
def kv_cache_append_splitx(key_ptr, value_ptr, k_cache_ptr, v_cache_ptr, slot_ptr, H: tl.constexpr, D: tl.constexpr,
                           PAGE: tl.constexpr, X: tl.constexpr):
    t = tl.program_id(0)
    slot = tl.load(slot_ptr + t)
    if slot < 0:
        return
    blk = slot // PAGE
    off = slot % PAGE
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    src = t * H * D + h[:, None] * D + d[None, :]
    k = tl.load(key_ptr + src)
    v = tl.load(value_ptr + src)
    k_dst = blk * (H * D * PAGE) + h[:, None] * (D * PAGE) + (d[None, :] // X) * (PAGE * X) + off * X + d[None, :] % X
    v_dst = blk * (H * D * PAGE) + h[:, None] * (D * PAGE) + d[None, :] * PAGE + off
    tl.store(k_cache_ptr + k_dst, k)
    tl.store(v_cache_ptr + v_dst, v)


# --- fused residual add + LayerNorm, ROWS rows a program as one 2-D tile: h = x + residual stored as the new
#     residual, then (h - mean) * rstd * w + b, the mean and rstd kept for the backward
@triton.jit
def add_layernorm_rows(x_ptr, res_ptr, w_ptr, b_ptr, out_ptr, res_out_ptr, mean_ptr, rstd_ptr, M, N, eps,
                       ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    off = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + off, mask=m, other=0.0).to(tl.float32)
    r = tl.load(res_ptr + off, mask=m, other=0.0).to(tl.float32)
    h = x + r
    tl.store(res_out_ptr + off, h.to(res_out_ptr.dtype.element_ty), mask=m)
    mean = tl.sum(h, axis=1) / N
    hc = tl.where(m, h - mean[:, None], 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(hc * hc, axis=1) / N + eps)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    y = hc * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(out_ptr + off, y.to(out_ptr.dtype.element_ty), mask=m)
    tl.store(mean_ptr + rows, mean, mask=rows < M)
    tl.store(rstd_ptr + rows, rstd, mask=rows < M)


# --- group norm over x [N, C, HW]: one program a (group, sample), the group's C/G channels x HW contiguous
#     elements walked BLOCK at a time for the sums, then normalised with per-channel weight and bias
@triton.jit
def group_norm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, C, HW, eps, G: tl.constexpr, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    n = tl.program_id(1)
    cpg = C // G
    size = cpg * HW
    base = n * C * HW + g * size
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for i0 in range(0, size, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + i, mask=i < size, other=0.0)
        s1 += v
        s2 += v * v
    mean = tl.sum(s1, axis=0) / size
    var = tl.sum(s2, axis=0) / size - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for i0 in range(0, size, BLOCK):
        i = i0 + tl.arange(0, BLOCK)
        m = i < size
        ch = g * cpg + i // HW
        v = tl.load(x_ptr + base + i, mask=m, other=0.0)
        w = tl.load(w_ptr + ch, mask=m, other=1.0)
        b = tl.load(b_ptr + ch, mask=m, other=0.0)
        tl.store(y_ptr + base + i, (v - mean) * rstd * w + b, mask=m)


# --- Mamba's causal depthwise conv1d over x [B, D, L] with a width-W filter per channel, bias and SiLU; tiles of
#     BD channels x BL steps, the W shifted loads masked at the sequence start
@triton.jit
def causal_conv1d_silu(x_ptr, w_ptr, bias_ptr, y_ptr, D, L, W: tl.constexpr, BD: tl.constexpr, BL: tl.constexpr):
    pid_l = tl.program_id(0)
    pid_d = tl.program_id(1)
    b = tl.program_id(2)
    rd = pid_d * BD + tl.arange(0, BD)
    rl = pid_l * BL + tl.arange(0, BL)
    dm = rd < D
    base = b * D * L
    acc = tl.zeros((BD, BL), dtype=tl.float32) + tl.load(bias_ptr + rd, mask=dm, other=0.0)[:, None]
    for k in tl.static_range(W):
        src = rl - (W - 1) + k
        m = dm[:, None] & (src[None, :] >= 0) & (src[None, :] < L)
        xv = tl.load(x_ptr + base + rd[:, None] * L + src[None, :], mask=m, other=0.0).to(tl.float32)
        wk = tl.load(w_ptr + rd * W + k, mask=dm, other=0.0).to(tl.float32)
        acc += wk[:, None] * xv
    y = acc * tl.sigmoid(acc)
    tl.store(y_ptr + base + rd[:, None] * L + rl[None, :], y.to(tl.bfloat16), mask=dm[:, None] & (rl[None, :] < L))


# --- nucleus (top-p) filtering of one row of logits: probabilities sorted descending by tl.sort, their tl.cumsum,
#     the smallest kept probability found, every logit below it set to -inf
@triton.jit
def top_p_mask(logits_ptr, out_ptr, V, stride, top_p, BV: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BV)
    m = cols < V
    x = tl.load(logits_ptr + row * stride + cols, mask=m, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    p = e / tl.sum(e, axis=0)
    ps = tl.sort(p, descending=True)
    cum = tl.cumsum(ps, axis=0)
    keep = (cum - ps) < top_p
    thresh = tl.min(tl.where(keep, ps, 2.0), axis=0)
    y = tl.where(p >= thresh, x, float("-inf"))
    tl.store(out_ptr + row * stride + cols, y, mask=m)


# --- varlen to padded: sequences packed [total, D] with cumulative lengths cu_seqlens [B + 1] copied into a padded
#     [B, LMAX, D] batch (pad value past each length, D not a power of two), plus an int8 attention mask
@triton.jit
def varlen_to_padded(x_ptr, cu_ptr, out_ptr, amask_ptr, LMAX, D, pad_value, BT: tl.constexpr, BD: tl.constexpr):
    pid_t = tl.program_id(0)
    b = tl.program_id(1)
    start = tl.load(cu_ptr + b)
    length = tl.load(cu_ptr + b + 1) - start
    t = pid_t * BT + tl.arange(0, BT)
    d = tl.arange(0, BD)
    live = t < length
    inb = (t[:, None] < LMAX) & (d[None, :] < D)
    v = tl.load(x_ptr + (start + t[:, None]) * D + d[None, :], mask=live[:, None] & inb, other=pad_value)
    v = tl.where(live[:, None], v, pad_value)
    tl.store(out_ptr + b * LMAX * D + t[:, None] * D + d[None, :], v, mask=inb)
    tl.store(amask_ptr + b * LMAX + t, tl.where(live, 1, 0).to(tl.int8), mask=t < LMAX)


# --- linear layer weight gradient dW [N, K] = dY^T @ X over the tokens: dY tiles [BT, BN] loaded as stored and
#     transposed by tl.trans for the dot, bf16 in and out
@triton.jit
def linear_bwd_weight(dy_ptr, x_ptr, dw_ptr, T, N, K, BT: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    acc = tl.zeros((BN, BK), dtype=tl.float32)
    for t0 in range(0, T, BT):
        rt = t0 + tl.arange(0, BT)
        dy = tl.load(dy_ptr + rt[:, None] * N + rn[None, :], mask=(rt[:, None] < T) & (rn[None, :] < N), other=0.0)
        x = tl.load(x_ptr + rt[:, None] * K + rk[None, :], mask=(rt[:, None] < T) & (rk[None, :] < K), other=0.0)
        acc = tl.dot(tl.trans(dy), x, acc)
    tl.store(dw_ptr + rn[:, None] * K + rk[None, :], acc.to(tl.bfloat16), mask=(rn[:, None] < N) & (rk[None, :] < K))


# --- C = A @ B with A column-major (stored as its transpose, [K, M] row-major): A's tiles come from a tensor
#     descriptor over the stored [K, M] array and are transposed in registers, B and C through descriptors too
@triton.jit
def matmul_colmajor_a_desc(at_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(at_ptr, shape=[K, M], strides=[M, 1], block_shape=[BK, BM])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    m0 = pid_m * BM
    n0 = pid_n * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.trans(a_desc.load([k0, m0]))
        b = b_desc.load([k0, n0])
        acc = tl.dot(a, b, acc)
    c_desc.store([m0, n0], acc.to(tl.float16))
