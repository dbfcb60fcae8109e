"""A fourteenth fresh batch of Triton kernels: what the 2025-2026 open-source ML projects write. Mamba-2's SSD kernels
(the chunked dt cumsum with softplus and dt_bias, the chunk states by a tl.dot over the chunk, the state passing between
chunks, a simplified chunk scan with the causal C.B^T block and the previous state); a causal_conv1d forward over
(batch, dim, seqlen) with width-4 taps and SiLU; flash-linear-attention's chunk_local_cumsum (forward and reversed),
fused_recurrent linear attention with the state in registers and a scalar gate, and the chunk_fwd_h state kernel;
a selective scan by tl.associative_scan of a user combine function; RWKV-4's wkv recurrence; block-sparse attention
over a layout LUT of int32 column-block indices; a w8a8 int8 scaled matmul (int8 tl.dot into int32, per-row and
per-column float scales); a DeepSeek-style block-wise fp8 matmul with per-128 block scales; moe_align_block_size in
Triton (its four stages: per-program counts, the cumsum over programs, the padded cumsum, the scatter) and an atomic
expert histogram; a top-k / top-p renormalisation of probabilities by threshold bisection; a repetition penalty by a
gather and scatter of token ids; an embedding bag (sum, per-sample weights) over int64 offsets; a KV-cache scatter
by an int64 slot mapping; speculative decoding's rejection sampling and recovered-token sampling
(written for smemlab, by someone who had not seen it)."""

import triton
import triton.language as tl


# ==== Mamba-2 SSD ======================================================================================================

@triton.jit
def _chunk_cumsum_fwd_kernel(dt_ptr, A_ptr, dt_bias_ptr, dt_out_ptr, dA_cumsum_ptr, batch, seqlen, nheads,
                             chunk_size, dt_min, dt_max, stride_dt_batch, stride_dt_seqlen, stride_dt_head,
                             stride_A_head, stride_dt_bias_head, stride_dt_out_batch, stride_dt_out_head,
                             stride_dt_out_chunk, stride_dt_out_csize, stride_dA_cs_batch, stride_dA_cs_head,
                             stride_dA_cs_chunk, stride_dA_cs_csize, DT_SOFTPLUS: tl.constexpr,
                             HAS_DT_BIAS: tl.constexpr, BLOCK_SIZE_H: tl.constexpr, BLOCK_SIZE_CHUNK: tl.constexpr):
    pid_b = tl.program_id(axis=0)
    pid_c = tl.program_id(axis=1)
    pid_h = tl.program_id(axis=2)
    dt_ptr += pid_b * stride_dt_batch + pid_c * chunk_size * stride_dt_seqlen
    dt_out_ptr += pid_b * stride_dt_out_batch + pid_c * stride_dt_out_chunk
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk

    offs_h = pid_h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
    offs_c = tl.arange(0, BLOCK_SIZE_CHUNK)
    dt_ptrs = dt_ptr + (offs_h[:, None] * stride_dt_head + offs_c[None, :] * stride_dt_seqlen)
    A_ptrs = A_ptr + offs_h * stride_A_head
    dt_out_ptrs = dt_out_ptr + (offs_h[:, None] * stride_dt_out_head + offs_c[None, :] * stride_dt_out_csize)
    dA_cs_ptrs = dA_cumsum_ptr + (offs_h[:, None] * stride_dA_cs_head + offs_c[None, :] * stride_dA_cs_csize)
    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)

    dt = tl.load(dt_ptrs, mask=(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size_limit),
                 other=0.0).to(tl.float32)
    if HAS_DT_BIAS:
        dt_bias = tl.load(dt_bias_ptr + offs_h * stride_dt_bias_head, mask=offs_h < nheads, other=0.0).to(tl.float32)
        dt += dt_bias[:, None]
    if DT_SOFTPLUS:
        dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
    dt = tl.minimum(tl.maximum(dt, dt_min), dt_max)
    dt = tl.where((offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size_limit), dt, 0.0)
    tl.store(dt_out_ptrs, dt, mask=(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size))
    A = tl.load(A_ptrs, mask=offs_h < nheads, other=0.0).to(tl.float32)
    dA = dt * A[:, None]
    dA_cs = tl.cumsum(dA, axis=1)
    tl.store(dA_cs_ptrs, dA_cs, mask=(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size))


@triton.jit
def _chunk_state_fwd_kernel(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, hdim, dstate, chunk_size, batch, seqlen,
                            nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_x_hdim,
                            stride_b_batch, stride_b_seqlen, stride_b_head, stride_b_dstate, stride_states_batch,
                            stride_states_chunk, stride_states_head, stride_states_hdim, stride_states_dstate,
                            stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dt_csize, stride_dA_cs_batch,
                            stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize, BLOCK_SIZE_M: tl.constexpr,
                            BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr):
    pid_bc = tl.program_id(axis=1)
    pid_c = pid_bc // batch
    pid_b = pid_bc - pid_c * batch
    pid_h = tl.program_id(axis=2)
    num_pid_n = tl.cdiv(dstate, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + \
        (pid_h // nheads_ngroups_ratio) * stride_b_head
    x_ptr += pid_b * stride_x_batch + pid_c * chunk_size * stride_x_seqlen + pid_h * stride_x_head
    dt_ptr += pid_b * stride_dt_batch + pid_c * stride_dt_chunk + pid_h * stride_dt_head
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk + pid_h * stride_dA_cs_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    x_ptrs = x_ptr + (offs_m[:, None] * stride_x_hdim + offs_k[None, :] * stride_x_seqlen)
    b_ptrs = b_ptr + (offs_n[None, :] * stride_b_dstate + offs_k[:, None] * stride_b_seqlen)
    dt_ptrs = dt_ptr + offs_k * stride_dt_csize
    dA_cs_last = tl.load(dA_cumsum_ptr + (chunk_size - 1) * stride_dA_cs_csize).to(tl.float32)
    dA_cumsum_ptrs = dA_cumsum_ptr + offs_k * stride_dA_cs_csize

    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, chunk_size_limit, BLOCK_SIZE_K):
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < hdim) & (offs_k[None, :] < chunk_size_limit - k), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < chunk_size_limit - k) & (offs_n[None, :] < dstate), other=0.0)
        b = b.to(tl.float32)
        dA_cs_k = tl.load(dA_cumsum_ptrs, mask=offs_k < chunk_size_limit - k, other=0.0).to(tl.float32)
        dt_k = tl.load(dt_ptrs, mask=offs_k < chunk_size_limit - k, other=0.0).to(tl.float32)
        scale = tl.exp(dA_cs_last - dA_cs_k) * dt_k
        b *= scale[:, None]
        b = b.to(x_ptr.dtype.element_ty)
        acc += tl.dot(x, b)
        x_ptrs += BLOCK_SIZE_K * stride_x_seqlen
        b_ptrs += BLOCK_SIZE_K * stride_b_seqlen
        dt_ptrs += BLOCK_SIZE_K * stride_dt_csize
        dA_cumsum_ptrs += BLOCK_SIZE_K * stride_dA_cs_csize

    states_ptr += pid_b * stride_states_batch + pid_c * stride_states_chunk + pid_h * stride_states_head
    states_ptrs = states_ptr + (offs_m[:, None] * stride_states_hdim + offs_n[None, :] * stride_states_dstate)
    c_mask = (offs_m[:, None] < hdim) & (offs_n[None, :] < dstate)
    tl.store(states_ptrs, acc, mask=c_mask)


@triton.jit
def _state_passing_fwd_kernel(states_ptr, out_ptr, final_states_ptr, dA_cs_ptr, dim, nchunks, stride_states_batch,
                              stride_states_chunk, stride_states_head, stride_states_dim, stride_out_batch,
                              stride_out_chunk, stride_out_head, stride_out_dim, stride_final_states_batch,
                              stride_final_states_head, stride_final_states_dim, stride_dA_cs_batch,
                              stride_dA_cs_head, stride_dA_cs_chunk, BLOCK_SIZE: tl.constexpr):
    pid_b = tl.program_id(axis=1)
    pid_h = tl.program_id(axis=2)
    pid_m = tl.program_id(axis=0)
    states_ptr += pid_b * stride_states_batch + pid_h * stride_states_head
    dA_cs_ptr += pid_b * stride_dA_cs_batch + pid_h * stride_dA_cs_head
    out_ptr += pid_b * stride_out_batch + pid_h * stride_out_head
    final_states_ptr += pid_b * stride_final_states_batch + pid_h * stride_final_states_head

    offs_m = pid_m * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    states_ptrs = states_ptr + offs_m * stride_states_dim
    out_ptrs = out_ptr + offs_m * stride_out_dim
    final_states_ptrs = final_states_ptr + offs_m * stride_final_states_dim

    states = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    tl.store(out_ptrs, states, mask=offs_m < dim)
    out_ptrs += stride_out_chunk
    for c in range(nchunks):
        new_states = tl.load(states_ptrs, mask=offs_m < dim, other=0.0).to(tl.float32)
        dA_cs = tl.load(dA_cs_ptr).to(tl.float32)
        scale = tl.exp(dA_cs)
        states = scale * states + new_states
        if c < nchunks - 1:
            tl.store(out_ptrs, states, mask=offs_m < dim)
        else:
            tl.store(final_states_ptrs, states, mask=offs_m < dim)
        states_ptrs += stride_states_chunk
        dA_cs_ptr += stride_dA_cs_chunk
        out_ptrs += stride_out_chunk


# a simplified chunk scan: out[l] = sum_{s <= l in the chunk} (C[l].B[s]) exp(dA[l] - dA[s]) dt[s] x[s]
#                                  + exp(dA[l]) C[l] . prev_state + D x[l]
@triton.jit
def _chunk_scan_fwd_kernel(x_ptr, cb_b_ptr, cb_c_ptr, dt_ptr, dA_cumsum_ptr, prev_states_ptr, D_ptr, out_ptr,
                           chunk_size, hdim, batch, seqlen, nheads, ngroups_ratio, BLOCK_SIZE_M: tl.constexpr,
                           BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, BLOCK_SIZE_DSTATE: tl.constexpr):
    pid_bc = tl.program_id(axis=1)
    pid_c = pid_bc // batch
    pid_b = pid_bc - pid_c * batch
    pid_h = tl.program_id(axis=2)
    num_pid_n = tl.cdiv(hdim, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    nchunks = tl.cdiv(seqlen, chunk_size)
    stride_x_seqlen = nheads * hdim
    stride_bc_seqlen = (nheads // ngroups_ratio) * BLOCK_SIZE_DSTATE
    group = pid_h // ngroups_ratio
    seq_start = (pid_b * seqlen + pid_c * chunk_size).to(tl.int64)
    x_ptr += seq_start * stride_x_seqlen + pid_h * hdim
    out_ptr += seq_start * stride_x_seqlen + pid_h * hdim
    cb_b_ptr += seq_start * stride_bc_seqlen + group * BLOCK_SIZE_DSTATE
    cb_c_ptr += seq_start * stride_bc_seqlen + group * BLOCK_SIZE_DSTATE
    cs_off = ((pid_b * nheads + pid_h) * nchunks + pid_c) * chunk_size
    dt_ptr += cs_off
    dA_cumsum_ptr += cs_off
    prev_states_ptr += ((pid_b * nchunks + pid_c) * nheads + pid_h).to(tl.int64) * hdim * BLOCK_SIZE_DSTATE

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_ds = tl.arange(0, BLOCK_SIZE_DSTATE)
    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
    dA_cs_m = tl.load(dA_cumsum_ptr + offs_m, mask=offs_m < chunk_size, other=0.0).to(tl.float32)

    c_ptrs = cb_c_ptr + (offs_m[:, None] * stride_bc_seqlen + offs_ds[None, :])
    C = tl.load(c_ptrs, mask=offs_m[:, None] < chunk_size_limit, other=0.0)
    prev_ptrs = prev_states_ptr + (offs_ds[:, None] + offs_n[None, :] * BLOCK_SIZE_DSTATE)
    prev_states = tl.load(prev_ptrs, mask=offs_n[None, :] < hdim, other=0.0).to(C.dtype)
    acc = tl.dot(C, prev_states) * tl.exp(dA_cs_m)[:, None]

    offs_k = tl.arange(0, BLOCK_SIZE_K)
    hi = min((pid_m + 1) * BLOCK_SIZE_M, chunk_size_limit)
    for k in range(0, hi, BLOCK_SIZE_K):
        kk = k + offs_k
        bt_ptrs = cb_b_ptr + (kk[None, :] * stride_bc_seqlen + offs_ds[:, None])
        Bt = tl.load(bt_ptrs, mask=kk[None, :] < chunk_size_limit, other=0.0)
        cb = tl.dot(C, Bt)
        dA_cs_k = tl.load(dA_cumsum_ptr + kk, mask=kk < chunk_size, other=0.0).to(tl.float32)
        dt_k = tl.load(dt_ptr + kk, mask=kk < chunk_size, other=0.0).to(tl.float32)
        cb *= tl.exp(dA_cs_m[:, None] - dA_cs_k[None, :]) * dt_k[None, :]
        cb = tl.where(offs_m[:, None] >= kk[None, :], cb, 0.0)
        x_ptrs = x_ptr + (kk[:, None] * stride_x_seqlen + offs_n[None, :])
        x = tl.load(x_ptrs, mask=(kk[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim), other=0.0)
        acc += tl.dot(cb.to(x.dtype), x)

    D = tl.load(D_ptr + pid_h).to(tl.float32)
    x_res = tl.load(x_ptr + (offs_m[:, None] * stride_x_seqlen + offs_n[None, :]),
                    mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim), other=0.0).to(tl.float32)
    acc += x_res * D
    out_ptrs = out_ptr + (offs_m[:, None] * stride_x_seqlen + offs_n[None, :])
    tl.store(out_ptrs, acc, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim))


# ==== causal_conv1d ====================================================================================================

@triton.jit
def _causal_conv1d_fwd_kernel(x_ptr, w_ptr, bias_ptr, o_ptr, dim, seqlen, stride_x_batch, stride_x_dim,
                              stride_x_seqlen, stride_w_dim, stride_w_width, stride_o_batch, stride_o_dim,
                              stride_o_seqlen, KERNEL_WIDTH: tl.constexpr, HAS_BIAS: tl.constexpr,
                              SILU_ACTIVATION: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    pid_l = tl.program_id(2)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    offs_l = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    mask_d = offs_d < dim
    x_base = x_ptr + pid_b.to(tl.int64) * stride_x_batch + offs_d[:, None] * stride_x_dim
    if HAS_BIAS:
        acc = tl.load(bias_ptr + offs_d, mask=mask_d, other=0.0).to(tl.float32)[:, None] + \
            tl.zeros((BLOCK_D, BLOCK_L), dtype=tl.float32)
    else:
        acc = tl.zeros((BLOCK_D, BLOCK_L), dtype=tl.float32)
    for j in tl.static_range(KERNEL_WIDTH):
        pos = offs_l - (KERNEL_WIDTH - 1) + j
        w = tl.load(w_ptr + offs_d * stride_w_dim + j * stride_w_width, mask=mask_d, other=0.0).to(tl.float32)
        xv = tl.load(x_base + pos[None, :] * stride_x_seqlen,
                     mask=mask_d[:, None] & (pos[None, :] >= 0) & (pos[None, :] < seqlen), other=0.0)
        acc += xv.to(tl.float32) * w[:, None]
    if SILU_ACTIVATION:
        acc = acc / (1.0 + tl.exp(-acc))
    o_ptrs = o_ptr + pid_b.to(tl.int64) * stride_o_batch + offs_d[:, None] * stride_o_dim + \
        offs_l[None, :] * stride_o_seqlen
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=mask_d[:, None] & (offs_l[None, :] < seqlen))


# ==== flash-linear-attention ===========================================================================================

@triton.jit
def chunk_local_cumsum_scalar_kernel(s, o, T, H: tl.constexpr, BT: tl.constexpr, REVERSE: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    bos = i_b * T
    o_t = i_t * BT + tl.arange(0, BT)
    m_t = o_t < T
    p_s = s + (bos + o_t).to(tl.int64) * H + i_h
    p_o = o + (bos + o_t).to(tl.int64) * H + i_h
    b_s = tl.load(p_s, mask=m_t, other=0).to(tl.float32)
    b_o = tl.cumsum(b_s, axis=0)
    if REVERSE:
        b_z = tl.sum(b_s, axis=0)
        b_o = -b_o + b_z[None] + b_s
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=m_t)


@triton.jit
def fused_recurrent_fwd_kernel(q, k, v, g, o, h0, ht, scale, T, B: tl.constexpr, H: tl.constexpr, K: tl.constexpr,
                               V: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, USE_G: tl.constexpr,
                               USE_INITIAL_STATE: tl.constexpr, STORE_FINAL_STATE: tl.constexpr):
    i_v, i_k, i_nh = tl.program_id(0).to(tl.int64), tl.program_id(1).to(tl.int64), tl.program_id(2).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    bos = i_n * T
    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    p_q = q + (bos * H + i_h) * K + o_k
    p_k = k + (bos * H + i_h) * K + o_k
    p_v = v + (bos * H + i_h) * V + o_v
    p_o = o + ((i_k * B * T + bos) * H + i_h) * V + o_v
    p_g = g + bos * H + i_h
    mask_k = o_k < K
    mask_v = o_v < V
    mask_h = mask_k[:, None] & mask_v[None, :]
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = h0 + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        b_h += tl.load(p_h0, mask=mask_h, other=0).to(tl.float32)
    for _ in range(0, T):
        b_q = tl.load(p_q, mask=mask_k, other=0).to(tl.float32) * scale
        b_k = tl.load(p_k, mask=mask_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=mask_v, other=0).to(tl.float32)
        if USE_G:
            b_g = tl.load(p_g).to(tl.float32)
            b_h = b_h * tl.exp(b_g)
        b_h += b_k[:, None] * b_v[None, :]
        b_o = tl.sum(b_h * b_q[:, None], 0)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=mask_v)
        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_o += H * V
        p_g += H
    if STORE_FINAL_STATE:
        p_ht = ht + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), mask=mask_h)


@triton.jit
def chunk_fwd_kernel_h(k, v, h, g, ht, T, NT, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr,
                       BK: tl.constexpr, BV: tl.constexpr, USE_G: tl.constexpr, STORE_FINAL_STATE: tl.constexpr):
    i_k, i_v, i_nh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_n, i_h = i_nh // H, i_nh % H
    bos = i_n * T
    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    for i_t in range(NT):
        o_t = i_t * BT + tl.arange(0, BT)
        m_t = o_t < T
        p_h = h + ((i_n * NT + i_t) * H + i_h).to(tl.int64) * K * V + o_k[:, None] * V + o_v[None, :]
        tl.store(p_h, b_h.to(p_h.dtype.element_ty), mask=(o_k[:, None] < K) & (o_v[None, :] < V))
        p_k = k + ((bos + o_t[None, :]).to(tl.int64) * H + i_h) * K + o_k[:, None]
        p_v = v + ((bos + o_t[:, None]).to(tl.int64) * H + i_h) * V + o_v[None, :]
        b_k = tl.load(p_k, mask=m_t[None, :] & (o_k[:, None] < K), other=0.0)
        b_v = tl.load(p_v, mask=m_t[:, None] & (o_v[None, :] < V), other=0.0)
        if USE_G:
            last_idx = min((i_t + 1) * BT, T) - 1
            b_g_last = tl.load(g + (bos + last_idx) * H + i_h)
            b_g = tl.load(g + (bos + o_t) * H + i_h, mask=m_t, other=0.0)
            b_h *= tl.exp(b_g_last)
            b_v = (b_v * tl.exp(b_g_last - b_g)[:, None]).to(b_v.dtype)
        b_h += tl.dot(b_k, b_v)
    if STORE_FINAL_STATE:
        p_ht = ht + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        tl.store(p_ht, b_h, mask=(o_k[:, None] < K) & (o_v[None, :] < V))


# ==== selective scan (Mamba-1) by tl.associative_scan ==================================================================

@triton.jit
def _ssm_combine(a1, b1, a2, b2):
    return a1 * a2, a2 * b1 + b2


@triton.jit
def selective_scan_fwd_kernel(u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, D_ptr, y_ptr, dim, L,
                              DSTATE: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    offs_l = tl.arange(0, BLOCK_L)
    mask = (offs_d[:, None] < dim) & (offs_l[None, :] < L)
    base = pid_b.to(tl.int64) * dim * L
    ud = base + offs_d[:, None] * L + offs_l[None, :]
    u = tl.load(u_ptr + ud, mask=mask, other=0.0).to(tl.float32)
    delta = tl.load(delta_ptr + ud, mask=mask, other=0.0).to(tl.float32)
    delta = tl.where(delta <= 20.0, tl.log(1.0 + tl.exp(delta)), delta)
    y = tl.zeros((BLOCK_D, BLOCK_L), dtype=tl.float32)
    for n in tl.static_range(DSTATE):
        A = tl.load(A_ptr + offs_d * DSTATE + n, mask=offs_d < dim, other=0.0)
        Bn = tl.load(B_ptr + (pid_b * DSTATE + n) * L + offs_l, mask=offs_l < L, other=0.0)
        Cn = tl.load(C_ptr + (pid_b * DSTATE + n) * L + offs_l, mask=offs_l < L, other=0.0)
        dA = tl.exp(delta * A[:, None])
        dBu = delta * Bn[None, :] * u
        _, h = tl.associative_scan((dA, dBu), axis=1, combine_fn=_ssm_combine)
        y += h * Cn[None, :]
    D = tl.load(D_ptr + offs_d, mask=offs_d < dim, other=0.0)
    y += u * D[:, None]
    tl.store(y_ptr + ud, y, mask=mask)


# ==== RWKV-4 wkv =======================================================================================================

@triton.jit
def wkv_forward_kernel(w_ptr, u_ptr, k_ptr, v_ptr, y_ptr, T, C, BLOCK_C: tl.constexpr):
    b_idx = tl.program_id(0)
    c_idx = tl.program_id(1)
    cs = c_idx * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cs < C
    off = b_idx.to(tl.int64) * T * C
    w = tl.load(w_ptr + cs, mask=cmask, other=0.0)
    u = tl.load(u_ptr + cs, mask=cmask, other=0.0)
    aa = tl.zeros((BLOCK_C,), dtype=tl.float32)
    bb = tl.zeros((BLOCK_C,), dtype=tl.float32)
    pp = tl.full((BLOCK_C,), -1e38, dtype=tl.float32)
    for t in range(T):
        tc = off + t * C + cs
        kk = tl.load(k_ptr + tc, mask=cmask, other=0.0)
        vv = tl.load(v_ptr + tc, mask=cmask, other=0.0)
        ww = u + kk
        p = tl.maximum(pp, ww)
        e1 = tl.exp(pp - p)
        e2 = tl.exp(ww - p)
        tl.store(y_ptr + tc, (e1 * aa + e2 * vv) / (e1 * bb + e2), mask=cmask)
        ww = w + pp
        p = tl.maximum(ww, kk)
        e1 = tl.exp(ww - p)
        e2 = tl.exp(kk - p)
        aa = e1 * aa + e2 * vv
        bb = e1 * bb + e2
        pp = p


# ==== block-sparse attention over a layout LUT =========================================================================

@triton.jit
def blocksparse_attn_fwd_kernel(Q, K, V, Out, lut_ptr, nnz_ptr, sm_scale, seqlen, stride_h, stride_t,
                                MAX_NNZ: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_D: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    head = off_h.to(tl.int64) * stride_h
    q = tl.load(Q + head + offs_m[:, None] * stride_t + offs_d[None, :], mask=offs_m[:, None] < seqlen, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    nnz = tl.load(nnz_ptr + start_m)
    for i in range(nnz):
        col = tl.load(lut_ptr + start_m * MAX_NNZ + i)
        start_n = col * BLOCK_N
        cols = start_n + offs_n
        k = tl.load(K + head + cols[None, :] * stride_t + offs_d[:, None], mask=cols[None, :] < seqlen, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where((offs_m[:, None] >= cols[None, :]) & (cols[None, :] < seqlen), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + head + cols[:, None] * stride_t + offs_d[None, :], mask=cols[:, None] < seqlen, other=0.0)
        acc += tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + head + offs_m[:, None] * stride_t + offs_d[None, :], acc.to(Out.dtype.element_ty),
             mask=offs_m[:, None] < seqlen)


# ==== quantised matmuls ================================================================================================

@triton.jit
def scaled_mm_int8_kernel(a_ptr, b_ptr, scale_a_ptr, scale_b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_ak,
                          stride_bk, stride_bn, stride_cm, stride_cn, HAS_BIAS: tl.constexpr,
                          BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                          GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)).to(tl.int64)
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)).to(tl.int64)
    offs_k = tl.arange(0, BLOCK_SIZE_K).to(tl.int64)
    masks_am = offs_am < M
    masks_bn = offs_bn < N
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        masks_k = offs_k < K - k * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=masks_am[:, None] & masks_k[None, :], other=0)
        b = tl.load(b_ptrs, mask=masks_k[:, None] & masks_bn[None, :], other=0)
        accumulator = tl.dot(a, b, accumulator, out_dtype=tl.int32)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    scale_a = tl.load(scale_a_ptr + offs_am, mask=masks_am, other=0.0)
    scale_b = tl.load(scale_b_ptr + offs_bn, mask=masks_bn, other=0.0)
    c = accumulator.to(tl.float32) * scale_a[:, None] * scale_b[None, :]
    if HAS_BIAS:
        bias = tl.load(bias_ptr + offs_bn, mask=masks_bn, other=0.0).to(tl.float32)
        c += bias[None, :]
    c = c.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_am[:, None] * stride_cm + offs_bn[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=masks_am[:, None] & masks_bn[None, :])


@triton.jit
def _w8a8_block_fp8_matmul(A, B, C, As, Bs, M, N, K, group_n, group_k, stride_am, stride_ak, stride_bk, stride_bn,
                           stride_cm, stride_cn, stride_As_m, stride_As_k, stride_Bs_k, stride_Bs_n,
                           BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                           GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = A + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = B + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    As_ptrs = As + offs_am * stride_As_m
    offs_bsn = offs_bn // group_n
    Bs_ptrs = Bs + offs_bsn * stride_Bs_n

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        k_start = k * BLOCK_SIZE_K
        offs_ks = k_start // group_k
        a_s = tl.load(As_ptrs + offs_ks * stride_As_k)
        b_s = tl.load(Bs_ptrs + offs_ks * stride_Bs_k)
        accumulator += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    c = accumulator.to(C.dtype.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = C + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# ==== moe_align_block_size in Triton ===================================================================================

@triton.jit
def moe_align_block_size_stage1(topk_ids_ptr, tokens_cnts_ptr, num_experts: tl.constexpr, numel: tl.constexpr,
                                tokens_per_thread: tl.constexpr):
    pid = tl.program_id(0)
    start_idx = pid * tokens_per_thread
    off_c = (pid + 1) * num_experts
    for i in range(tokens_per_thread):
        if start_idx + i < numel:
            idx = tl.load(topk_ids_ptr + start_idx + i)
            token_cnt = tl.load(tokens_cnts_ptr + off_c + idx)
            tl.store(tokens_cnts_ptr + off_c + idx, token_cnt + 1)


@triton.jit
def moe_align_block_size_stage2(tokens_cnts_ptr, num_experts: tl.constexpr):
    pid = tl.program_id(0)
    last_cnt = 0
    for i in range(1, num_experts + 1):
        token_cnt = tl.load(tokens_cnts_ptr + i * num_experts + pid)
        last_cnt = last_cnt + token_cnt
        tl.store(tokens_cnts_ptr + i * num_experts + pid, last_cnt)


# the padded cumsum, vectorised over the experts by tl.cumsum
@triton.jit
def moe_align_block_size_stage3(total_tokens_post_pad_ptr, tokens_cnts_ptr, cumsum_ptr, num_experts: tl.constexpr,
                                block_size: tl.constexpr):
    offs = tl.arange(0, num_experts)
    cnts = tl.load(tokens_cnts_ptr + num_experts * num_experts + offs)
    padded = tl.cdiv(cnts, block_size) * block_size
    cs = tl.cumsum(padded, axis=0)
    tl.store(cumsum_ptr + 1 + offs, cs)
    tl.store(cumsum_ptr, 0)
    tl.store(total_tokens_post_pad_ptr, tl.sum(padded, axis=0))


@triton.jit
def moe_align_block_size_stage4(topk_ids_ptr, sorted_token_ids_ptr, expert_ids_ptr, tokens_cnts_ptr, cumsum_ptr,
                                num_experts: tl.constexpr, block_size: tl.constexpr, numel: tl.constexpr,
                                tokens_per_thread: tl.constexpr):
    pid = tl.program_id(0)
    start_idx = tl.load(cumsum_ptr + pid)
    end_idx = tl.load(cumsum_ptr + pid + 1)
    for i in range(start_idx, end_idx, block_size):
        tl.store(expert_ids_ptr + i // block_size, pid)
    start_idx = pid * tokens_per_thread
    off_t = pid * num_experts
    for i in range(start_idx, tl.minimum(start_idx + tokens_per_thread, numel)):
        expert_id = tl.load(topk_ids_ptr + i)
        token_cnt = tl.load(tokens_cnts_ptr + off_t + expert_id)
        rank_post_pad = token_cnt + tl.load(cumsum_ptr + expert_id)
        tl.store(sorted_token_ids_ptr + rank_post_pad, i)
        tl.store(tokens_cnts_ptr + off_t + expert_id, token_cnt + 1)


@triton.jit
def moe_count_experts_atomic_kernel(topk_ids_ptr, expert_counts_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    ids = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(expert_counts_ptr + ids, 1, mask=mask)


# ==== sampling =========================================================================================================

@triton.jit
def top_k_top_p_renorm_kernel(probs_ptr, out_ptr, top_k_ptr, top_p_ptr, vocab_size, stride_row,
                              BLOCK_V: tl.constexpr, ITERS: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_V)
    mask = offs < vocab_size
    p = tl.load(probs_ptr + row.to(tl.int64) * stride_row + offs, mask=mask, other=0.0).to(tl.float32)
    p = p / tl.sum(p, axis=0)
    top_k = tl.load(top_k_ptr + row)
    top_p = tl.load(top_p_ptr + row)
    # top-k: the largest threshold keeping at least top_k tokens
    lo = 0.0
    hi = tl.max(p, axis=0)
    for _ in tl.static_range(ITERS):
        mid = (lo + hi) * 0.5
        cnt = tl.sum((p >= mid).to(tl.int32), axis=0)
        ok = cnt >= top_k
        lo = tl.where(ok, mid, lo)
        hi = tl.where(ok, hi, mid)
    p = tl.where(p >= lo, p, 0.0)
    # top-p: the largest threshold keeping at least top_p of the mass left
    total = tl.sum(p, axis=0)
    lo = 0.0
    hi = tl.max(p, axis=0)
    for _ in tl.static_range(ITERS):
        mid = (lo + hi) * 0.5
        mass = tl.sum(tl.where(p >= mid, p, 0.0), axis=0)
        ok = mass >= top_p * total
        lo = tl.where(ok, mid, lo)
        hi = tl.where(ok, hi, mid)
    p = tl.where(p >= lo, p, 0.0)
    p = p / tl.sum(p, axis=0)
    tl.store(out_ptr + row.to(tl.int64) * stride_row + offs, p, mask=mask)


@triton.jit
def apply_repetition_penalty_kernel(logits_ptr, token_ids_ptr, penalties_ptr, vocab_size, num_ids,
                                    BLOCK_T: tl.constexpr):
    row = tl.program_id(0)
    penalty = tl.load(penalties_ptr + row)
    offs = tl.arange(0, BLOCK_T)
    ids = tl.load(token_ids_ptr + row * num_ids + offs, mask=offs < num_ids, other=vocab_size)
    valid = ids < vocab_size
    ptrs = logits_ptr + row.to(tl.int64) * vocab_size + ids
    logit = tl.load(ptrs, mask=valid, other=0.0)
    logit = tl.where(logit > 0, logit / penalty, logit * penalty)
    tl.store(ptrs, logit, mask=valid)


@triton.jit
def rejection_random_sample_kernel(output_token_ids_ptr, cu_num_draft_tokens_ptr, draft_token_ids_ptr,
                                   draft_probs_ptr, target_probs_ptr, bonus_token_ids_ptr, recovered_token_ids_ptr,
                                   uniform_probs_ptr, max_spec_len, vocab_size, NO_DRAFT_PROBS: tl.constexpr):
    req_idx = tl.program_id(0)
    if req_idx == 0:
        start_idx = 0
    else:
        start_idx = tl.load(cu_num_draft_tokens_ptr + req_idx - 1)
    end_idx = tl.load(cu_num_draft_tokens_ptr + req_idx)
    num_draft_tokens = end_idx - start_idx

    rejected = False
    for pos in range(num_draft_tokens):
        if not rejected:
            draft_token_id = tl.load(draft_token_ids_ptr + start_idx + pos)
            if NO_DRAFT_PROBS:
                draft_prob = 1
            else:
                draft_prob = tl.load(draft_probs_ptr + (start_idx + pos) * vocab_size + draft_token_id)
            target_prob = tl.load(target_probs_ptr + (start_idx + pos) * vocab_size + draft_token_id)
            uniform_prob = tl.load(uniform_probs_ptr + start_idx + pos)
            if draft_prob > 0 and target_prob / draft_prob >= uniform_prob:
                token_id = draft_token_id
            else:
                rejected = True
                token_id = tl.load(recovered_token_ids_ptr + start_idx + pos)
            tl.store(output_token_ids_ptr + req_idx * (max_spec_len + 1) + pos, token_id)
    if not rejected:
        bonus_token_id = tl.load(bonus_token_ids_ptr + req_idx)
        tl.store(output_token_ids_ptr + req_idx * (max_spec_len + 1) + num_draft_tokens, bonus_token_id)


@triton.jit
def sample_recovered_tokens_kernel(output_token_ids_ptr, cu_num_draft_tokens_ptr, draft_token_ids_ptr,
                                   draft_probs_ptr, target_probs_ptr, q_ptr, vocab_size,
                                   PADDED_VOCAB_SIZE: tl.constexpr, NO_DRAFT_PROBS: tl.constexpr):
    req_idx = tl.program_id(0)
    if req_idx == 0:
        start_idx = 0
    else:
        start_idx = tl.load(cu_num_draft_tokens_ptr + req_idx - 1)
    end_idx = tl.load(cu_num_draft_tokens_ptr + req_idx)
    num_draft_tokens = end_idx - start_idx
    pos = tl.program_id(1)
    if pos >= num_draft_tokens:
        return
    vocab_offset = tl.arange(0, PADDED_VOCAB_SIZE)
    vmask = vocab_offset < vocab_size
    token_idx = start_idx + pos
    if NO_DRAFT_PROBS:
        draft_token_id = tl.load(draft_token_ids_ptr + token_idx)
        prob = tl.load(target_probs_ptr + token_idx * vocab_size + vocab_offset,
                       mask=vmask & (vocab_offset != draft_token_id), other=0)
    else:
        draft_prob = tl.load(draft_probs_ptr + token_idx * vocab_size + vocab_offset, mask=vmask, other=0)
        target_prob = tl.load(target_probs_ptr + token_idx * vocab_size + vocab_offset, mask=vmask, other=0)
        prob = tl.maximum(target_prob - draft_prob, 0)
    q = tl.load(q_ptr + req_idx * vocab_size + vocab_offset, mask=vmask, other=float("-inf"))
    recovered_id = tl.argmax(prob / q, axis=-1)
    tl.store(output_token_ids_ptr + token_idx, recovered_id)


# ==== embedding bag, KV cache ==========================================================================================

@triton.jit
def embedding_bag_sum_kernel(indices_ptr, offsets_ptr, weight_ptr, per_sample_weights_ptr, out_ptr, D,
                             HAS_WEIGHTS: tl.constexpr, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    pid_d = tl.program_id(1)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = offs_d < D
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    acc = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for i in range(start, end):
        idx = tl.load(indices_ptr + i)
        row = tl.load(weight_ptr + idx * D + offs_d, mask=dmask, other=0.0).to(tl.float32)
        if HAS_WEIGHTS:
            row *= tl.load(per_sample_weights_ptr + i)
        acc += row
    tl.store(out_ptr + bag.to(tl.int64) * D + offs_d, acc.to(out_ptr.dtype.element_ty), mask=dmask)


@triton.jit
def reshape_and_cache_flash_kernel(key_ptr, value_ptr, key_cache_ptr, value_cache_ptr, slot_mapping_ptr,
                                   block_stride, page_stride, key_stride, value_stride, num_heads, head_size,
                                   block_size, TILE_SIZE: tl.constexpr):
    token_idx = tl.program_id(axis=0)
    slot_idx = tl.load(slot_mapping_ptr + token_idx).to(tl.int64)
    if slot_idx < 0:
        return
    block_idx = slot_idx // block_size
    block_offset = slot_idx % block_size
    n = num_heads * head_size
    src_key_idx = token_idx.to(tl.int64) * key_stride
    src_value_idx = token_idx.to(tl.int64) * value_stride
    tgt_idx = block_idx * block_stride + block_offset * page_stride
    for t in tl.range(0, n, TILE_SIZE):
        tile_pos = t + tl.arange(0, TILE_SIZE)
        m = tile_pos < n
        key_tile = tl.load(key_ptr + src_key_idx + tile_pos, mask=m)
        value_tile = tl.load(value_ptr + src_value_idx + tile_pos, mask=m)
        tl.store(key_cache_ptr + tgt_idx + tile_pos, key_tile, mask=m)
        tl.store(value_cache_ptr + tgt_idx + tile_pos, value_tile, mask=m)
