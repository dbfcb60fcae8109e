"""A thirteenth fresh batch of Triton kernels: what ML engineers write today, in the style of vLLM, SGLang, LightLLM,
unsloth, Liger, FlagGems and of torch.compile's generated code. A fused MoE GEMM over expert-sorted token ids (block
expert ids, padded rows masked, B read as [E, N, K], the top-k routing weight folded in); split-KV decode attention
over a paged KV cache (stage 1: a query head against its pages through a block table, online softmax per split; stage
2: the log-sum-exp merge of the splits); prefix/extend attention over ragged sequences (cu_seqlens for queries and
keys, a cached prefix before the causal diagonal); unsloth's SwiGLU forward and backward (in place) and exact GeGLU
forward; Liger's RMSNorm backward with per-program dW partial rows; neox-style RoPE from a cos/sin cache over every
head of a token (partial rotary); a Welford var_mean over rows with tl.reduce of a combine function (autotuned); an MoE
router's softmax and top-k by tl.topk over packed (probability, expert) keys; cross entropy with label smoothing over a
large vocabulary in two tl.range passes, the gradient written in place; fp8 per-token and per-token-group
quantisation (tl.float8e4nv outputs, tl.clamp, ue8m0 scales); a punica bgmv LoRA shrink (a lora index a token, -1
skipped, split-K by tl.atomic_add); inductor-style kernels written by hand (a pointwise with eviction hints and
tl.full, a 2-D clone/permute over ynumel/xnumel, a persistent softmax reduction with tl.broadcast_to/tl.where, a
looped RMSNorm reduction over rindex/rmask); a linear layer on block pointers (tl.make_block_ptr over x and a K-major
weight, tl.advance, boundary_check) and the same with in-kernel tensor descriptors; and an autotuned batched matmul on program_id(2) with int64 batch offsets
(written for smemlab, by someone who had not seen it). Everything here compiles with Triton 3.6; everything but
linear_block_ptr_kernel with 3.9 too (Triton 3.9 removed tl.make_block_ptr)."""

import triton
import triton.language as tl


# ==== MoE ==============================================================================================================

# --- vLLM-style fused MoE GEMM: each program a BLOCK_SIZE_M block of expert-sorted token slots (all of one expert,
#     padded with num_valid_tokens), C[slot] = A[slot // top_k] @ B[expert].T, optionally times the slot's routing weight
@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
                     num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_ak, stride_be,
                     stride_bk, stride_bn, stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr,
                     BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                     MUL_ROUTED_WEIGHT: tl.constexpr, top_k: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(EM, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_SIZE_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens

    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_token[:, None] // top_k * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + off_experts * stride_be + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_SIZE_K), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        accumulator = accumulator * moe_weight[:, None]
    accumulator = accumulator.to(c_ptr.dtype.element_ty)

    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator, mask=c_mask)


# --- an MoE router: softmax over the experts of BLOCK_T tokens, the top TOPK by tl.topk over int64 keys packing the
#     probability's bits (non-negative floats order as their bits) above the reversed expert id, renormalised
@triton.jit
def router_topk_softmax(logits_ptr, weights_ptr, ids_ptr, n_tokens, n_experts, stride_l, BLOCK_T: tl.constexpr,
                        BLOCK_E: tl.constexpr, TOPK: tl.constexpr, RENORMALIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs_t = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    offs_e = tl.arange(0, BLOCK_E)
    t_mask = offs_t < n_tokens
    mask = t_mask[:, None] & (offs_e[None, :] < n_experts)
    x = tl.load(logits_ptr + offs_t[:, None] * stride_l + offs_e[None, :], mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x = x - tl.max(x, axis=1, keep_dims=True)
    p = tl.exp(x)
    p = p / tl.sum(p, axis=1, keep_dims=True)

    rev = (BLOCK_E - 1 - offs_e).to(tl.int64)
    keys = (p.to(tl.int32, bitcast=True).to(tl.int64) << 32) | rev[None, :]
    top = tl.topk(keys, TOPK)
    ids = (BLOCK_E - 1 - (top & 0xFFFF)).to(tl.int32)
    w = (top >> 32).to(tl.int32).to(tl.float32, bitcast=True)
    if RENORMALIZE:
        w = w / tl.sum(w, axis=1, keep_dims=True)

    offs_k = tl.arange(0, TOPK)
    out_offs = offs_t[:, None] * TOPK + offs_k[None, :]
    tl.store(weights_ptr + out_offs, w, mask=t_mask[:, None])
    tl.store(ids_ptr + out_offs, ids, mask=t_mask[:, None])


# ==== attention ========================================================================================================

# --- split-KV decode attention, stage 1: program (batch, head, split) takes its split of the sequence, looks each
#     token's page up in the block table, and leaves the split's normalised output and its log-sum-exp
@triton.jit
def _fwd_kernel_stage1(Q, K_Cache, V_Cache, sm_scale, Block_Tables, Seq_Lens, Att_Out, stride_qbs, stride_qh,
                       stride_kb, stride_kt, stride_kh, stride_bt, stride_mid_ob, stride_mid_oh, stride_mid_os,
                       kv_group_num: tl.constexpr, PAGE_SIZE: tl.constexpr, BLOCK_DMODEL: tl.constexpr,
                       BLOCK_N: tl.constexpr, NUM_KV_SPLITS: tl.constexpr, Lk: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    split_kv_id = tl.program_id(2)
    cur_kv_head = cur_head // kv_group_num

    offs_d = tl.arange(0, BLOCK_DMODEL)
    mask_d = offs_d < Lk
    cur_batch_seq_len = tl.load(Seq_Lens + cur_batch)

    off_q = cur_batch * stride_qbs + cur_head * stride_qh + offs_d
    q = tl.load(Q + off_q, mask=mask_d, other=0.0)

    kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
    split_kv_start = kv_len_per_split * split_kv_id
    split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)

    e_max = -float("inf")
    e_sum = 0.0
    acc = tl.zeros([BLOCK_DMODEL], dtype=tl.float32)

    if split_kv_end > split_kv_start:
        for start_n in range(split_kv_start, split_kv_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            n_mask = offs_n < split_kv_end
            page = tl.load(Block_Tables + cur_batch * stride_bt + offs_n // PAGE_SIZE, mask=n_mask, other=0)
            offs_buf = (page[:, None].to(tl.int64) * stride_kb + (offs_n % PAGE_SIZE)[:, None] * stride_kt
                        + cur_kv_head * stride_kh + offs_d[None, :])
            k = tl.load(K_Cache + offs_buf, mask=n_mask[:, None] & mask_d[None, :], other=0.0)
            qk = tl.sum(q[None, :] * k, 1)
            qk *= sm_scale
            qk = tl.where(n_mask, qk, float("-inf"))

            v = tl.load(V_Cache + offs_buf, mask=n_mask[:, None] & mask_d[None, :], other=0.0)
            n_e_max = tl.maximum(tl.max(qk, 0), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max)
            acc *= re_scale
            acc += tl.sum(p[:, None] * v, 0)
            e_sum = e_sum * re_scale + tl.sum(p, 0)
            e_max = n_e_max

        offs_mid_o = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + offs_d
        tl.store(Att_Out + offs_mid_o, acc / e_sum, mask=mask_d)
        offs_mid_o_1 = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lk
        tl.store(Att_Out + offs_mid_o_1, e_max + tl.log(e_sum))


# --- split-KV decode attention, stage 2: merge the splits' outputs by their log-sum-exps
@triton.jit
def _fwd_kernel_stage2(Mid_O, O, Seq_Lens, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_obs, stride_oh,
                       NUM_KV_SPLITS: tl.constexpr, BLOCK_DV: tl.constexpr, Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    cur_batch_seq_len = tl.load(Seq_Lens + cur_batch)

    offs_d = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lv

    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)

    offs_v = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + offs_d
    offs_logic = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + Lv

    for split_kv_id in range(0, NUM_KV_SPLITS):
        kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
        split_kv_start = kv_len_per_split * split_kv_id
        split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)
        if split_kv_end > split_kv_start:
            tv = tl.load(Mid_O + offs_v + split_kv_id * stride_mid_os, mask=mask_d, other=0.0)
            tlogic = tl.load(Mid_O + offs_logic + split_kv_id * stride_mid_os)
            n_e_max = tl.maximum(tlogic, e_max)

            old_scale = tl.exp(e_max - n_e_max)
            acc *= old_scale
            exp_logic = tl.exp(tlogic - n_e_max)
            acc += exp_logic * tv

            e_sum = e_sum * old_scale + exp_logic
            e_max = n_e_max

    tl.store(O + cur_batch * stride_obs + cur_head * stride_oh + offs_d, acc / e_sum, mask=mask_d)


# --- prefix/extend attention over ragged sequences: the queries of sequence b are its last q_len tokens (rows
#     cu_seqlens_q[b]..), its keys all k_len tokens (rows cu_seqlens_k[b]..), the first k_len - q_len a cached prefix
#     every query sees; causal past it. Program (batch, head, query block); GQA by kv_group_num
@triton.jit
def _fwd_kernel_prefix(Q, K, V, sm_scale, Cu_Seqlens_Q, Cu_Seqlens_K, Out, stride_qbs, stride_qh, stride_kbs,
                       stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    start_m = tl.program_id(2)
    cur_kv_head = cur_head // kv_group_num

    q_start = tl.load(Cu_Seqlens_Q + cur_batch)
    q_len = tl.load(Cu_Seqlens_Q + cur_batch + 1) - q_start
    k_start = tl.load(Cu_Seqlens_K + cur_batch)
    k_len = tl.load(Cu_Seqlens_K + cur_batch + 1) - k_start
    prefix_len = k_len - q_len

    block_start_loc = BLOCK_M * start_m
    if block_start_loc >= q_len:
        return

    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    off_q = (q_start + offs_m[:, None]) * stride_qbs + cur_head * stride_qh + offs_d[None, :]
    q = tl.load(Q + off_q, mask=offs_m[:, None] < q_len, other=0.0)

    k_ptrs = K + k_start * stride_kbs + cur_kv_head * stride_kh + offs_n[None, :] * stride_kbs + offs_d[:, None]
    v_ptrs = V + k_start * stride_vbs + cur_kv_head * stride_vh + offs_n[:, None] * stride_vbs + offs_d[None, :]

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)

    end_n = tl.minimum(prefix_len + (start_m + 1) * BLOCK_M, k_len)
    for start_n in range(0, end_n, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(k_ptrs + start_n * stride_kbs, mask=(start_n + offs_n[None, :]) < k_len, other=0.0)
        qk = tl.dot(q, k)
        qk *= sm_scale
        keep = (prefix_len + offs_m[:, None] >= start_n + offs_n[None, :]) & (start_n + offs_n[None, :] < k_len)
        qk = tl.where(keep, qk, -1.0e8)

        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        l_ij = tl.sum(p, 1)
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_vbs, mask=(start_n + offs_n[:, None]) < k_len, other=0.0)
        acc += tl.dot(p.to(v.dtype), v)
        m_i = m_ij

    acc = acc / l_i[:, None]
    off_o = (q_start + offs_m[:, None]) * stride_obs + cur_head * stride_oh + offs_d[None, :]
    tl.store(Out + off_o, acc.to(Out.dtype.element_ty), mask=offs_m[:, None] < q_len)


# ==== activations (unsloth) ============================================================================================

# --- SwiGLU forward: h = silu(e) * g, silu in float32, the product in the input's dtype
@triton.jit
def _fg_kernel(e, g, h, n_elements, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements

    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    g_row = tl.load(g + offsets, mask=mask, other=0)

    f_row = e_row * tl.sigmoid(e_row)
    f_row = f_row.to(g_row.dtype)
    h_row = f_row * g_row

    tl.store(h + offsets, h_row, mask=mask)


# --- SwiGLU backward in place: DW <- h (the forward recomputed), e <- df, g <- de
@triton.jit
def _DWf_DW_dfg_kernel(DW, e, g, n_elements, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements

    DW_row = tl.load(DW + offsets, mask=mask, other=0)
    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    g_row = tl.load(g + offsets, mask=mask, other=0)

    se_row = tl.sigmoid(e_row)
    f_row = se_row * e_row
    f_row = f_row.to(DW_row.dtype)
    h_row = f_row * g_row
    df_row = DW_row * f_row
    dg_row = DW_row * g_row
    de_row = dg_row.to(tl.float32) * se_row * (1.0 + e_row * (1.0 - se_row))
    de_row = de_row.to(DW_row.dtype)

    tl.store(DW + offsets, h_row, mask=mask)
    tl.store(e + offsets, df_row, mask=mask)
    tl.store(g + offsets, de_row, mask=mask)


# --- exact GeGLU forward: h = 0.5 * e * (1 + erf(e / sqrt(2))) * g
@triton.jit
def _exact_forward_kernel(e, g, h, n_elements, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements

    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    g_row = tl.load(g + offsets, mask=mask, other=0)

    f_row = 0.5 * e_row * (tl.math.erf(tl.math.rsqrt(2.0) * e_row) + 1.0)
    f_row = f_row.to(g_row.dtype)
    h_row = f_row * g_row

    tl.store(h + offsets, h_row, mask=mask)


# ==== normalisation, RoPE, statistics ==================================================================================

# --- Liger-style RMSNorm backward: each program a run of rows_per_program rows; dX per row, dW accumulated in
#     registers and left as the program's partial row (summed over programs on the host)
@triton.jit
def _rms_norm_backward_kernel(dY_ptr, dY_row_stride, dX_ptr, dX_row_stride, X_ptr, X_row_stride, W_ptr, RSTD_ptr,
                              RSTD_row_stride, dW_ptr, dW_row_stride, n_rows, n_cols, offset,
                              rows_per_program: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row_block_id = tl.program_id(0)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    dW_row = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)

    dY_ptr += row_start * dY_row_stride
    dX_ptr += row_start * dX_row_stride
    X_ptr += row_start * X_row_stride
    RSTD_ptr += row_start

    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0)
    W_row = W_row + offset

    for _ in range(row_start, row_end):
        dY_row = tl.load(dY_ptr + col_offsets, mask=mask, other=0.0)
        X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0.0)
        rstd_row = tl.load(RSTD_ptr)

        X_row = X_row.to(tl.float32)
        m = (dY_row * W_row).to(tl.float32)
        dX_row = rstd_row * m
        dX_row += rstd_row * (-(1 / n_cols) * rstd_row * rstd_row * tl.sum(m * X_row, axis=0) * X_row)
        dW_row += dY_row.to(tl.float32) * (X_row * rstd_row)

        tl.store(dX_ptr + col_offsets, dX_row.to(dX_ptr.dtype.element_ty), mask=mask)

        dY_ptr += dY_row_stride
        dX_ptr += dX_row_stride
        X_ptr += X_row_stride
        RSTD_ptr += RSTD_row_stride

    tl.store(dW_ptr + row_block_id * dW_row_stride + col_offsets, dW_row, mask=mask)


# --- neox-style rotary embedding in place: one program a token, all its query and key heads at once; the first
#     ROT_DIM dims of a head rotate as two halves, cos and sin read from the cache row of the token's position
@triton.jit
def rotary_embedding_neox(positions_ptr, q_ptr, k_ptr, cos_sin_cache_ptr, q_stride_t, k_stride_t, cache_stride,
                          num_q_heads, num_kv_heads, HEAD_SIZE: tl.constexpr, ROT_DIM: tl.constexpr,
                          BLOCK_HQ: tl.constexpr, BLOCK_HK: tl.constexpr):
    tok = tl.program_id(0)
    pos = tl.load(positions_ptr + tok)
    HALF: tl.constexpr = ROT_DIM // 2
    offs_d = tl.arange(0, HALF)
    cos = tl.load(cos_sin_cache_ptr + pos * cache_stride + offs_d).to(tl.float32)
    sin = tl.load(cos_sin_cache_ptr + pos * cache_stride + HALF + offs_d).to(tl.float32)

    offs_hq = tl.arange(0, BLOCK_HQ)
    q_mask = offs_hq[:, None] < num_q_heads
    q_base = q_ptr + tok * q_stride_t + offs_hq[:, None] * HEAD_SIZE
    q1 = tl.load(q_base + offs_d[None, :], mask=q_mask, other=0.0).to(tl.float32)
    q2 = tl.load(q_base + HALF + offs_d[None, :], mask=q_mask, other=0.0).to(tl.float32)
    tl.store(q_base + offs_d[None, :], (q1 * cos - q2 * sin).to(q_ptr.dtype.element_ty), mask=q_mask)
    tl.store(q_base + HALF + offs_d[None, :], (q2 * cos + q1 * sin).to(q_ptr.dtype.element_ty), mask=q_mask)

    offs_hk = tl.arange(0, BLOCK_HK)
    k_mask = offs_hk[:, None] < num_kv_heads
    k_base = k_ptr + tok * k_stride_t + offs_hk[:, None] * HEAD_SIZE
    k1 = tl.load(k_base + offs_d[None, :], mask=k_mask, other=0.0).to(tl.float32)
    k2 = tl.load(k_base + HALF + offs_d[None, :], mask=k_mask, other=0.0).to(tl.float32)
    tl.store(k_base + offs_d[None, :], (k1 * cos - k2 * sin).to(k_ptr.dtype.element_ty), mask=k_mask)
    tl.store(k_base + HALF + offs_d[None, :], (k2 * cos + k1 * sin).to(k_ptr.dtype.element_ty), mask=k_mask)


@triton.jit
def welford_combine(mean_x, count_x, m2_x, mean_y, count_y, m2_y):
    count = count_x + count_y
    _count = tl.maximum(count, 1.0)
    delta = mean_y - mean_x
    mean = mean_x + delta * (count_y / _count)
    m2 = m2_x + m2_y + delta * delta * (count_x * count_y / _count)
    return mean, count, m2


# --- FlagGems-style var_mean over the rows of X [M, N]: a running Welford state a lane over BLOCK_N chunks, merged
#     across the lanes by tl.reduce with welford_combine
@triton.autotune(configs=[triton.Config({"BLOCK_M": 1, "BLOCK_N": 1024}, num_warps=8, num_stages=2),
                          triton.Config({"BLOCK_M": 4, "BLOCK_N": 256}, num_warps=4, num_stages=3),
                          triton.Config({"BLOCK_M": 8, "BLOCK_N": 128}, num_warps=4, num_stages=1)],
                 key=["M", "N"])
@triton.jit
def var_mean_welford_kernel(X, Var, Mean, M, N, correction, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    X = X + rows * N

    _mean = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    _m2 = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    _count = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)[None, :]
        mask = row_mask & (cols < N)
        x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
        count = _count + mask.to(tl.float32)
        cnt = tl.maximum(count, 1.0)
        cur_mean = _mean + tl.where(mask, x - _mean, 0.0) / cnt
        _m2 += tl.where(mask, (x - cur_mean) * (x - _mean), 0.0)
        _mean = cur_mean
        _count = count

    mean, _, m2 = tl.reduce((_mean, _count, _m2), axis=1, combine_fn=welford_combine)
    var = m2 / (N - correction)
    tl.store(Mean + rows, mean[:, None], row_mask)
    tl.store(Var + rows, var[:, None], row_mask)


# ==== losses, quantisation, LoRA =======================================================================================

# --- Liger-style cross entropy with label smoothing: one program a row of logits; an online max / sum-of-exp pass
#     (and the smoothing term) over the vocabulary, then the gradient written over the logits; ignore_index rows zeroed
@triton.jit
def liger_cross_entropy_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, n_cols, n_non_ignore,
                               ignore_index, label_smoothing: tl.constexpr, reduction: tl.constexpr,
                               BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    Y_ptr += program_id * Y_stride
    y = tl.load(Y_ptr)
    X_ptr += program_id * X_stride

    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            X_offsets = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X_ptr + X_offsets, 0.0, mask=X_offsets < n_cols)
        return

    loss_ptr += program_id * loss_stride

    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)
    scaled_x_sum = 0.0
    eps = label_smoothing / n_cols

    for i in tl.range(0, n_cols, BLOCK_SIZE, num_stages=2):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        block_max = tl.max(X_block)
        if label_smoothing > 0:
            scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new

    lse = m + tl.log(d)

    for i in tl.range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        if reduction == "mean":
            X_block = (tl.exp(X_block - m) / d - eps) / n_non_ignore
        else:
            X_block = tl.exp(X_block - m) / d - eps
        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)

    tl.debug_barrier()

    loss = lse - ori_X_y
    if label_smoothing > 0:
        smooth_loss = scaled_x_sum + label_smoothing * lse
        loss = loss * (1 - label_smoothing) + smooth_loss
    if reduction == "mean":
        loss = loss / n_non_ignore

    X_y = tl.load(X_ptr + y)
    if reduction == "mean":
        X_y += -(1 - label_smoothing) / n_non_ignore
    else:
        X_y += -(1 - label_smoothing)

    tl.store(loss_ptr, loss)
    tl.store(X_ptr + y, X_y)


# --- dynamic per-token fp8 (e4m3) quantisation: a row's absmax gives its scale, the row scaled, clamped and cast
@triton.jit
def _per_token_quant_fp8(y_ptr, y_q_ptr, y_s_ptr, stride_y, H, eps, fp8_min, fp8_max, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    y_ptr += row * stride_y
    y_q_ptr += row * stride_y
    y_s_ptr += row

    cols = tl.arange(0, BLOCK)
    mask = cols < H

    y = tl.load(y_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    _absmax = tl.maximum(tl.max(tl.abs(y)), eps)
    y_s = _absmax / fp8_max
    y_q = tl.clamp(y / y_s, fp8_min, fp8_max).to(y_q_ptr.dtype.element_ty)

    tl.store(y_q_ptr + cols, y_q, mask=mask)
    tl.store(y_s_ptr, y_s)


# --- per-token-group fp8 quantisation (groups of group_size columns, one program a group), the scale optionally
#     rounded up to a power of two (ue8m0)
@triton.jit
def _per_token_group_quant_fp8(y_ptr, y_q_ptr, y_s_ptr, group_size, y_num_columns, y_row_stride, eps, fp8_min,
                               fp8_max, use_ue8m0: tl.constexpr, BLOCK: tl.constexpr):
    groups_per_row = y_num_columns // group_size
    g_id = tl.program_id(0)
    row = g_id // groups_per_row
    row_g_id = g_id % groups_per_row

    y_ptr += (row * y_row_stride) + (row_g_id * group_size)
    y_q_ptr += g_id * group_size
    y_s_ptr += g_id

    cols = tl.arange(0, BLOCK)
    mask = cols < group_size

    y = tl.load(y_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    _absmax = tl.maximum(tl.max(tl.abs(y)), eps)
    scale_raw = _absmax / fp8_max
    y_s = tl.math.exp2(tl.ceil(tl.log2(scale_raw))) if use_ue8m0 else scale_raw
    y_q = tl.clamp(y / y_s, fp8_min, fp8_max).to(y_q_ptr.dtype.element_ty)

    tl.store(y_q_ptr + cols, y_q, mask=mask)
    tl.store(y_s_ptr, y_s)


# --- punica bgmv shrink: out[b] = scaling * A[lora_indices[b]] @ x[b] (A: [loras, rank, K]), one program a token and
#     a K split; a token without a LoRA (-1) does nothing; split-K partials added atomically
@triton.jit
def _bgmv_shrink_kernel(input_ptr, lora_ptr, out_ptr, N, K, lora_indices, scaling, xm_stride, xk_stride, l0_stride,
                        lora_k_stride, lora_n_stride, cm_stride, cn_stride, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_sk = tl.program_id(axis=0)
    cur_batch = tl.program_id(axis=1)
    lora_index = tl.load(lora_indices + cur_batch)
    if lora_index == -1:
        return

    offset_n = tl.arange(0, BLOCK_N)
    offset_k = tl.arange(0, BLOCK_K) + pid_sk * BLOCK_K
    a_ptr = input_ptr + cur_batch * xm_stride
    b_ptr = lora_ptr + l0_stride * lora_index
    accumulator = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K * SPLIT_K):
        current_k = k + offset_k
        current_k_c = tl.max_contiguous(current_k, BLOCK_K)
        tiled_a = tl.load(a_ptr + current_k_c * xk_stride, mask=current_k < K, other=0.0)
        b_ptr_mask = (offset_n[:, None] < N) & (current_k[None, :] < K)
        tiled_b = tl.load(b_ptr + offset_n[:, None] * lora_k_stride + current_k[None, :] * lora_n_stride,
                          mask=b_ptr_mask, other=0.0)
        accumulator += tl.sum(tiled_a * tiled_b, 1)
    accumulator *= scaling

    offset_cn = tl.arange(0, BLOCK_N)
    c_ptr = out_ptr + cur_batch * cm_stride + offset_cn * cn_stride
    c_mask = offset_cn < N
    if SPLIT_K == 1:
        tl.store(c_ptr, accumulator, mask=c_mask)
    else:
        tl.atomic_add(c_ptr, accumulator, mask=c_mask)


# ==== torch.compile-style (inductor) kernels, written by hand =========================================================

# --- a pointwise: (x + bias) * silu(gate), bias broadcast along a 768-wide row, kept in L2 (evict_last), bf16 in and
#     out through float32, the result stored over x; a ReLU floor from tl.full as inductor emits it
@triton.jit
def triton_poi_fused_add_mul_relu_silu_0(in_out_ptr0, in_ptr0, in_ptr1, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = xindex % 768
    tmp0 = tl.load(in_out_ptr0 + (x2), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp3 = tl.load(in_ptr1 + (x2), xmask).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp4 = tl.sigmoid(tmp3)
    tmp5 = tmp3 * tmp4
    tmp6 = tmp2 * tmp5
    tmp7 = tl.full([1], 0, tl.float32)
    tmp8 = tl.maximum(tmp7, tmp6)
    tl.store(in_out_ptr0 + (x2), tmp8, xmask)


# --- a 2-D pointwise clone, k.transpose(-1, -2).contiguous() of a [B*H, 128, 64] tensor as inductor tiles a permute:
#     y (the B*H*64 output rows) on program_id(1), x (the 128 positions) on program_id(0), the masks crossed
@triton.jit
def triton_poi_fused_clone_1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[None, :]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = yindex % 64
    y1 = (yindex // 64)
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + (64 * x2) + (8192 * y1)), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (x2 + (128 * y3)), tmp0, xmask & ymask)


# --- a persistent softmax over rows of 100 (RBLOCK 128), XBLOCK rows a program
@triton.jit
def triton_per_fused__softmax_2(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK: tl.constexpr):
    RBLOCK: tl.constexpr = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (100 * x0)), rmask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, float("-inf"))
    tmp4 = tl.max(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = tl.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
    tmp9 = tl.where(rmask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = tmp6 / tmp10
    tl.store(out_ptr2 + (r1 + (100 * x0)), tmp11, rmask & xmask)


# --- a looped-reduction RMSNorm over rows of 2048 bf16: the mean of squares accumulated over rindex/rmask chunks in an
#     [XBLOCK, RBLOCK] accumulator, rsqrt stored per row, then a second loop scales x by it and the weight
@triton.jit
def triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_3(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, rnumel,
                                                       XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (2048 * x0)), rmask & xmask, eviction_policy='evict_last',
                       other=0.0).to(tl.float32)
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(rmask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tmp5 = 2048.0
    tmp6 = tmp3 / tmp5
    tmp7 = 1e-06
    tmp8 = tmp6 + tmp7
    tmp9 = tl.rsqrt(tmp8)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp10 = tl.load(in_ptr1 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp11 = tl.load(in_ptr0 + (r1 + (2048 * x0)), rmask & xmask, eviction_policy='evict_first',
                        other=0.0).to(tl.float32)
        tmp12 = tmp11 * tmp9
        tmp13 = tmp10 * tmp12
        tl.store(out_ptr0 + (r1 + (2048 * x0)), tmp13, rmask & xmask)


# ==== matmuls ==========================================================================================================

# --- y = x @ w.T on block pointers: x [M, K] row-major, w [N, K] (a Linear weight) viewed as [K, N] with order
#     (0, 1); grouped program order; tl.advance along K; ragged edges by boundary_check with zero padding
@triton.jit
def linear_block_ptr_kernel(x_ptr, w_ptr, y_ptr, M, N, K, stride_xm, stride_xk, stride_wn, stride_wk, stride_ym,
                            stride_yn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    x_block_ptr = tl.make_block_ptr(base=x_ptr, shape=(M, K), strides=(stride_xm, stride_xk),
                                    offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    w_block_ptr = tl.make_block_ptr(base=w_ptr, shape=(K, N), strides=(stride_wk, stride_wn),
                                    offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(0, 1))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        x = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        w = tl.load(w_block_ptr, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(x, w)
        x_block_ptr = tl.advance(x_block_ptr, (0, BLOCK_K))
        w_block_ptr = tl.advance(w_block_ptr, (BLOCK_K, 0))

    y = acc.to(y_ptr.dtype.element_ty)
    y_block_ptr = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_ym, stride_yn),
                                    offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N),
                                    order=(1, 0))
    tl.store(y_block_ptr, y, boundary_check=(0, 1))


# --- the same linear layer as Triton 3.9 wants it written (block pointers are gone there): tensor descriptors made in
#     the kernel over x [M, K], w [N, K] and y [M, N], the weight tile loaded [BLOCK_N, BLOCK_K] and fed to tl.dot
#     transposed; the ragged edges zero-filled by the TMA loads and clipped by the store
@triton.jit
def linear_tensor_desc_kernel(x_ptr, w_ptr, y_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    w_desc = tl.make_tensor_descriptor(w_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])

    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K):
        x = x_desc.load([off_m, k])
        w = w_desc.load([off_n, k])
        acc = tl.dot(x, w.T, acc)
    y_desc.store([off_m, off_n], acc.to(y_desc.dtype))


# --- a batched matmul, the batch on program_id(2) and its offsets in int64 (FlagGems' bmm), autotuned over tiles
@triton.autotune(configs=[triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}, num_warps=4, num_stages=2),
                          triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=3),
                          triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=8, num_stages=4)],
                 key=["M", "N", "K"])
@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
               stride_cb, stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_b = tl.program_id(2).to(tl.int64)

    a_ptr += pid_b * stride_ab
    b_ptr += pid_b * stride_bb
    c_ptr += pid_b * stride_cb

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N

    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_rem = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=mask_m[:, None] & (offs_k[None, :] < k_rem), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_rem) & mask_n[None, :], other=0.0)
        acc += tl.dot(a, b, allow_tf32=False)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])
