"""A sixth fresh batch of Triton kernels, what 2025-2026 training and serving code looks like: tensor descriptors
made in the kernel (a tiled cast-copy, a matmul over K, a persistent matmul, a causal attention-forward tile),
pointer matmuls pipelined with 1 to 4 stages, fp32 IEEE dots, interleaved rotary by split/join, head splits by
reshape/permute, tl.gather, custom associative scans (segmented, max-plus), an argmax tl.reduce, a column cumsum,
2-D atomics, ragged rows, heuristics, int64 offsets and load hints; run through `smemlab analyze --triton` as a
held-out checker would (written for smemlab)."""

import triton
import triton.language as tl


# --- fp16 -> bf16 cast-copy with a per-row scale (a dequant step between two layers), tiles through device-side
#     tensor descriptors: each program walks the columns of its row band
@triton.jit
def desc_rowscale_cast(src_ptr, dst_ptr, scale_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_tensor_descriptor(src_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(dst_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    rows = pid * BM + tl.arange(0, BM)
    scale = tl.load(scale_ptr + rows, mask=rows < M, other=1.0)
    for n0 in range(0, N, BN):
        x = src.load([pid * BM, n0]).to(tl.float32)
        dst.store([pid * BM, n0], (x * scale[:, None]).to(tl.bfloat16))


# --- C = A @ B with A, B, C behind in-kernel descriptors (shapes from runtime M, N, K), the K loop pipelined by
#     tl.range, fp16 in, fp32 accumulate, an fp16 result
@triton.jit
def desc_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                STAGES: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    off_m = pid_m * BM
    off_n = pid_n * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES):
        a = a_desc.load([off_m, k * BK])
        b = b_desc.load([k * BK, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


# --- persistent matmul (NUM_SMS programs loop over the output tiles, tl.range flattened with the K loop):
#     x @ w.T with the weight stored [N, K] like nn.Linear, bf16 in, fp32 accumulate, bf16 out
@triton.jit
def persistent_linear(x_ptr, w_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(0)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    w_desc = tl.make_tensor_descriptor(w_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = x_desc.load([pid_m * BM, ki * BK])
            b = w_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        y_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.bfloat16))


# --- causal attention forward, one (query block, batch*head) a program: Q, K, V tiles through in-kernel
#     descriptors over the [Z*H*T, D] view, online softmax in base 2, a tl.where causal mask on the diagonal block
@triton.jit
def attn_fwd_causal_desc(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, T, ZH, HEAD_D: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_zh = tl.program_id(1)
    rows = ZH * T
    q_desc = tl.make_tensor_descriptor(q_ptr, shape=[rows, HEAD_D], strides=[HEAD_D, 1], block_shape=[BLOCK_M, HEAD_D])
    k_desc = tl.make_tensor_descriptor(k_ptr, shape=[rows, HEAD_D], strides=[HEAD_D, 1], block_shape=[BLOCK_N, HEAD_D])
    v_desc = tl.make_tensor_descriptor(v_ptr, shape=[rows, HEAD_D], strides=[HEAD_D, 1], block_shape=[BLOCK_N, HEAD_D])
    o_desc = tl.make_tensor_descriptor(o_ptr, shape=[rows, HEAD_D], strides=[HEAD_D, 1], block_shape=[BLOCK_M, HEAD_D])
    base = off_zh * T
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    qk_scale = sm_scale * 1.44269504
    q = q_desc.load([base + start_m * BLOCK_M, 0])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_D], tl.float32)
    hi = (start_m + 1) * BLOCK_M
    for start_n in range(0, hi, BLOCK_N):
        k = k_desc.load([base + start_n, 0])
        qk = tl.dot(q, k.T) * qk_scale
        causal = offs_m[:, None] >= (start_n + offs_n)[None, :]
        qk = tl.where(causal, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = v_desc.load([base + start_n, 0])
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_desc.store([base + start_m * BLOCK_M, 0], acc.to(tl.float16))


# --- the classic pointer matmul (bf16 in, fp32 accumulate), grouped tile order for L2, K tail masked; launched
#     with 1, 2 and 4 pipeline stages and different BLOCK_K
@triton.jit
def matmul_grouped_bf16(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                        stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_in_group = GROUP_M * num_pid_n
    group_id = pid // num_in_group
    first_m = group_id * GROUP_M
    group_size = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % num_in_group) % group_size)
    pid_n = (pid % num_in_group) // group_size
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(tl.bfloat16), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


# --- Gram matrix X^T X of fp32 features (a covariance / Shampoo-style preconditioner step) in exact fp32:
#     tl.dot with input_precision="ieee", the transposed operand loaded by index arithmetic
@triton.jit
def gram_fp32_ieee(x_ptr, g_ptr, n_rows, D, BD: tl.constexpr, BK: tl.constexpr):
    pid_i = tl.program_id(0)
    pid_j = tl.program_id(1)
    di = pid_i * BD + tl.arange(0, BD)
    dj = pid_j * BD + tl.arange(0, BD)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BD, BD), dtype=tl.float32)
    for r0 in range(0, n_rows, BK):
        r = r0 + rk
        xt = tl.load(x_ptr + r[None, :] * D + di[:, None], mask=(r[None, :] < n_rows) & (di[:, None] < D), other=0.0)
        xj = tl.load(x_ptr + r[:, None] * D + dj[None, :], mask=(r[:, None] < n_rows) & (dj[None, :] < D), other=0.0)
        acc = tl.dot(xt, xj, acc, input_precision="ieee")
    tl.store(g_ptr + di[:, None] * D + dj[None, :], acc, mask=(di[:, None] < D) & (dj[None, :] < D))


# --- GPT-J style interleaved rotary embedding: a [BT, D] tile reshaped to [BT, D/2, 2], tl.split into the even
#     and odd lanes, rotated, tl.join'ed back and reshaped; one (token block, head) a program
@triton.jit
def rope_interleaved(x_ptr, cos_ptr, sin_ptr, out_ptr, T, stride_t, stride_h, D: tl.constexpr, BT: tl.constexpr):
    pid_t = tl.program_id(0)
    head = tl.program_id(1)
    t = pid_t * BT + tl.arange(0, BT)
    d = tl.arange(0, D)
    half = tl.arange(0, D // 2)
    tmask = t < T
    ptrs = t[:, None] * stride_t + head * stride_h + d[None, :]
    x = tl.load(x_ptr + ptrs, mask=tmask[:, None], other=0.0).to(tl.float32)
    x_even, x_odd = tl.split(tl.reshape(x, [BT, D // 2, 2]))
    cos = tl.load(cos_ptr + t[:, None] * (D // 2) + half[None, :], mask=tmask[:, None], other=1.0)
    sin = tl.load(sin_ptr + t[:, None] * (D // 2) + half[None, :], mask=tmask[:, None], other=0.0)
    y = tl.join(x_even * cos - x_odd * sin, x_even * sin + x_odd * cos)
    y = tl.reshape(y, [BT, D])
    tl.store(out_ptr + ptrs, y.to(out_ptr.dtype.element_ty), mask=tmask[:, None])


# --- split heads: the Q part of a fused [T, 3*H*D] QKV projection to a [H, T, D] layout, a [BT, H*D] tile
#     reshaped to [BT, H, D] and tl.permute'd to [H, BT, D]
@triton.jit
def qkv_split_heads(qkv_ptr, q_out_ptr, T, H: tl.constexpr, D: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    t = pid * BT + tl.arange(0, BT)
    c = tl.arange(0, H * D)
    tile = tl.load(qkv_ptr + t[:, None] * (3 * H * D) + c[None, :], mask=(t < T)[:, None], other=0.0)
    heads = tl.permute(tl.reshape(tile, [BT, H, D]), (1, 0, 2))
    h = tl.arange(0, H)[:, None, None]
    tt = t[None, :, None]
    d = tl.arange(0, D)[None, None, :]
    tl.store(q_out_ptr + h * T * D + tt * D + d, heads, mask=tt < T)


# --- rows reordered by per-row index vectors (a within-row sort permutation applied to its payload): tl.gather
#     along axis 1 of a [BR, BC] tile
@triton.jit
def apply_row_permutation(vals_ptr, perm_ptr, out_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BR + tl.arange(0, BR)
    c = tl.arange(0, C)
    rmask = (r < R)[:, None]
    vals = tl.load(vals_ptr + r[:, None] * C + c[None, :], mask=rmask, other=0.0)
    perm = tl.load(perm_ptr + r[:, None] * C + c[None, :], mask=rmask, other=0)
    out = tl.gather(vals, perm, 1)
    tl.store(out_ptr + r[:, None] * C + c[None, :], out, mask=rmask)


@triton.jit
def _segsum_combine(v1, f1, v2, f2):
    # a segment start on the right restarts the sum
    return tl.where(f2 != 0, v2, v1 + v2), f1 | f2


# --- packed-sequence running totals: per-token values summed from each document's first token (a BOS flag),
#     tl.associative_scan over (value, flag) along axis 1 of BR rows at once
@triton.jit
def packed_doc_cumsum(val_ptr, bos_ptr, out_ptr, R, L: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BR + tl.arange(0, BR)
    c = tl.arange(0, L)
    offs = r[:, None] * L + c[None, :]
    m = (r < R)[:, None]
    v = tl.load(val_ptr + offs, mask=m, other=0.0)
    f = tl.load(bos_ptr + offs, mask=m, other=0).to(tl.int32)
    s, _ = tl.associative_scan((v, f), 1, _segsum_combine)
    tl.store(out_ptr + offs, s, mask=m)


@triton.jit
def _maxplus_combine(a1, b1, a2, b2):
    # composition of h -> max(h + a1, b1) then h -> max(h + a2, b2)
    return a1 + a2, tl.maximum(b1 + a2, b2)


# --- max-plus recurrence h_t = max(h_{t-1} + a_t, b_t) (a running best score with a reset option, as in a
#     Viterbi / local alignment pass), scanned a chunk at a time with the carry from the previous chunk
@triton.jit
def maxplus_recurrence(a_ptr, b_ptr, h_ptr, L, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    carry = float("-inf")
    for c0 in range(0, L, BLOCK):
        cols = c0 + offs
        m = cols < L
        a = tl.load(a_ptr + row * stride + cols, mask=m, other=0.0)
        b = tl.load(b_ptr + row * stride + cols, mask=m, other=float("-inf"))
        A, B = tl.associative_scan((a, b), 0, _maxplus_combine)
        h = tl.maximum(carry + A, B)
        tl.store(h_ptr + row * stride + cols, h, mask=m)
        carry = tl.max(tl.where(cols == tl.minimum(L, c0 + BLOCK) - 1, h, float("-inf")), axis=0)


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    take2 = (v2 > v1) | ((v2 == v1) & (i2 < i1))
    return tl.where(take2, v2, v1), tl.where(take2, i2, i1)


# --- greedy decoding: the argmax token of each row of logits (ties to the lower id), tl.reduce over
#     (value, index) of a [BR, BV] tile per chunk, a running best per row across chunks
@triton.jit
def greedy_argmax(logits_ptr, out_ptr, R, V, stride, BR: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BR + tl.arange(0, BR)
    cols = tl.arange(0, BV)
    best_v = tl.full([BR], float("-inf"), tl.float32)
    best_i = tl.zeros([BR], tl.int32)
    for v0 in range(0, V, BV):
        c = v0 + cols
        m = (r < R)[:, None] & (c < V)[None, :]
        x = tl.load(logits_ptr + r[:, None] * stride + c[None, :], mask=m, other=float("-inf")).to(tl.float32)
        idx = tl.broadcast_to(c[None, :], [BR, BV])
        cv, ci = tl.reduce((x, idx), 1, _argmax_combine)
        take = (cv > best_v) | ((cv == best_v) & (ci < best_i))
        best_v = tl.where(take, cv, best_v)
        best_i = tl.where(take, ci, best_i)
    tl.store(out_ptr + r, best_i, mask=r < R)


# --- cumulative sums over time of per-channel values (a [T, C] sequence, e.g. a linear-attention state or a
#     running token count): tl.cumsum along axis 0 of a [BT, BC] tile, the carry across time chunks
@triton.jit
def time_cumsum(x_ptr, y_ptr, T, C, BT: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    ch = pid * BC + tl.arange(0, BC)
    tt = tl.arange(0, BT)
    carry = tl.zeros([BC], tl.float32)
    for t0 in range(0, T, BT):
        t = t0 + tt
        m = (t < T)[:, None] & (ch < C)[None, :]
        x = tl.load(x_ptr + t[:, None] * C + ch[None, :], mask=m, other=0.0)
        s = tl.cumsum(x, axis=0) + carry[None, :]
        tl.store(y_ptr + t[:, None] * C + ch[None, :], s, mask=m)
        carry += tl.sum(x, axis=0)


# --- embedding backward: dY rows added into the rows of dW their token ids name, tl.atomic_add on a
#     [BN, BD] block of pointers, masked on the token tail and the hidden tail
@triton.jit
def embedding_bwd_atomic(ids_ptr, dy_ptr, dw_ptr, N, D, BN: tl.constexpr, BD: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_d = tl.program_id(1)
    n = pid_n * BN + tl.arange(0, BN)
    d = pid_d * BD + tl.arange(0, BD)
    m = (n < N)[:, None] & (d < D)[None, :]
    ids = tl.load(ids_ptr + n, mask=n < N, other=0).to(tl.int64)
    g = tl.load(dy_ptr + n[:, None] * D + d[None, :], mask=m, other=0.0).to(tl.float32)
    tl.atomic_add(dw_ptr + ids[:, None] * D + d[None, :], g, mask=m)


# --- MoE router statistics: each token's top-k experts counted (tl.atomic_add) and the last token routed to each
#     expert recorded (tl.atomic_max), both on [BT, TOPK] blocks of pointers with a token-tail mask
@triton.jit
def moe_router_stats(topk_ids_ptr, counts_ptr, last_tok_ptr, n_tokens, TOPK: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    tok = pid * BT + tl.arange(0, BT)
    k = tl.arange(0, TOPK)
    m = (tok < n_tokens)[:, None] & (k < TOPK)[None, :]
    experts = tl.load(topk_ids_ptr + tok[:, None] * TOPK + k[None, :], mask=m, other=0)
    ones = tl.full([BT, TOPK], 1, tl.int32)
    tl.atomic_add(counts_ptr + experts, ones, mask=m)
    tl.atomic_max(last_tok_ptr + experts, tl.broadcast_to(tok[:, None], [BT, TOPK]), mask=m)


# --- log-softmax over ragged rows of a padded [B, LMAX] batch (each row's length from lens): masked loads with
#     other=-inf past a row's end, the padding written as 0; several rows a program
@triton.jit
def ragged_log_softmax(x_ptr, lens_ptr, y_ptr, B, LMAX, BR: tl.constexpr, BL: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BR + tl.arange(0, BR)
    c = tl.arange(0, BL)
    lens = tl.load(lens_ptr + r, mask=r < B, other=0)
    inrow = (r < B)[:, None] & (c[None, :] < LMAX)
    valid = inrow & (c[None, :] < lens[:, None])
    x = tl.load(x_ptr + r[:, None] * LMAX + c[None, :], mask=valid, other=float("-inf"),
                eviction_policy="evict_first")
    mx = tl.max(x, axis=1)
    mx = tl.where(mx == float("-inf"), 0.0, mx)
    e = tl.exp(x - mx[:, None])
    lse = tl.log(tl.sum(e, axis=1)) + mx
    y = tl.where(valid, x - lse[:, None], 0.0)
    tl.store(y_ptr + r[:, None] * LMAX + c[None, :], y, mask=inrow)


# --- bf16 GEMV y = W x (a decode-time projection), BM rows a program; EVEN_N from a heuristic drops the column
#     mask; W streamed with .cg, x kept with evict_last, hinted contiguous offsets
@triton.heuristics({"EVEN_N": lambda args: args["N"] % args["BN"] == 0})
@triton.jit
def gemv_bf16(w_ptr, x_ptr, y_ptr, M, N, stride_wm, BM: tl.constexpr, BN: tl.constexpr, EVEN_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    rmask = rows < M
    acc = tl.zeros([BM], tl.float32)
    for n0 in range(0, N, BN):
        cols = tl.max_contiguous(tl.multiple_of(n0 + tl.arange(0, BN), BN), BN)
        if EVEN_N:
            x = tl.load(x_ptr + cols, eviction_policy="evict_last")
            w = tl.load(w_ptr + rows[:, None] * stride_wm + cols[None, :], mask=rmask[:, None], other=0.0,
                        cache_modifier=".cg")
        else:
            x = tl.load(x_ptr + cols, mask=cols < N, other=0.0, eviction_policy="evict_last")
            w = tl.load(w_ptr + rows[:, None] * stride_wm + cols[None, :],
                        mask=rmask[:, None] & (cols < N)[None, :], other=0.0, cache_modifier=".cg")
        acc += tl.sum(w.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    tl.store(y_ptr + rows, acc.to(tl.bfloat16), mask=rmask)


# --- vLLM-style copy_blocks: whole KV-cache blocks copied src -> dst by a block mapping, int64 block offsets
#     (a cache of many blocks overflows int32), hinted 16-aligned contiguous chunks
@triton.jit
def kv_copy_blocks(key_cache_ptr, value_cache_ptr, mapping_ptr, block_numel, BLOCK: tl.constexpr):
    pair = tl.program_id(0)
    src = tl.load(mapping_ptr + 2 * pair).to(tl.int64)
    dst = tl.load(mapping_ptr + 2 * pair + 1).to(tl.int64)
    src_base = src * block_numel
    dst_base = dst * block_numel
    for i in range(0, block_numel, BLOCK):
        offs = tl.max_contiguous(tl.multiple_of(i + tl.arange(0, BLOCK), 16), BLOCK)
        m = offs < block_numel
        k = tl.load(key_cache_ptr + src_base + offs, mask=m, cache_modifier=".cg")
        tl.store(key_cache_ptr + dst_base + offs, k, mask=m)
        v = tl.load(value_cache_ptr + src_base + offs, mask=m, cache_modifier=".cg")
        tl.store(value_cache_ptr + dst_base + offs, v, mask=m)


# --- MSE loss forward and backward in one pass over each row: the chunk loop software-pipelined
#     (tl.range num_stages), the gradient 2 (p - t) / N written, the row's loss stored
@triton.jit
def mse_fwd_bwd(pred_ptr, target_ptr, grad_ptr, loss_ptr, N, stride, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    inv_n = 1.0 / N
    for c0 in tl.range(0, N, BLOCK, num_stages=STAGES):
        cols = c0 + offs
        m = cols < N
        p = tl.load(pred_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
        t = tl.load(target_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
        diff = p - t
        acc += diff * diff
        tl.store(grad_ptr + row * stride + cols, (2.0 * inv_n * diff).to(grad_ptr.dtype.element_ty), mask=m)
    tl.store(loss_ptr + row, tl.sum(acc, axis=0) * inv_n)
