"""A fresh batch of Triton kernels written as people write them (the tutorials, vLLM/SGLang-, Liger- and
unsloth-style ops), run through `smemlab analyze --triton` as a held-out checker would (written for smemlab)."""

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def _gelu_tanh(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + libdevice.tanh(inner))


# --- vLLM-style RMS norm: one program a token, fp16 in, fp32 math, the weight applied after the cast
@triton.jit
def rms_norm(x_ptr, w_ptr, out_ptr, x_stride, out_stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * x_stride + cols, mask=mask, other=0.0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0, eviction_policy="evict_last")
    y = (x * rstd).to(out_ptr.dtype.element_ty) * w
    tl.store(out_ptr + row * out_stride + cols, y, mask=mask)


# --- neox-style rotary embedding: program (token, head), cos/sin cache rows picked by the token's position
@triton.jit
def rotary_neox(q_ptr, pos_ptr, cos_ptr, sin_ptr, q_stride_t, q_stride_h, cache_stride, HEAD_DIM: tl.constexpr):
    tok = tl.program_id(0)
    head = tl.program_id(1)
    half: tl.constexpr = HEAD_DIM // 2
    pos = tl.load(pos_ptr + tok)
    d = tl.arange(0, half)
    cos = tl.load(cos_ptr + pos * cache_stride + d)
    sin = tl.load(sin_ptr + pos * cache_stride + d)
    base = q_ptr + tok * q_stride_t + head * q_stride_h
    x1 = tl.load(base + d).to(tl.float32)
    x2 = tl.load(base + half + d).to(tl.float32)
    tl.store(base + d, (x1 * cos - x2 * sin).to(q_ptr.dtype.element_ty))
    tl.store(base + half + d, (x2 * cos + x1 * sin).to(q_ptr.dtype.element_ty))


# --- fused SiLU-and-mul (SwiGLU): x is [tokens, 2 * d], out [tokens, d], a 2-D grid over tokens and columns
@triton.jit
def silu_and_mul(x_ptr, out_ptr, d, stride_x, stride_out, BLOCK: tl.constexpr):
    tok = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < d
    gate = tl.load(x_ptr + tok * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + tok * stride_x + d + cols, mask=mask, other=0.0)
    out = _silu(gate).to(up.dtype) * up
    tl.store(out_ptr + tok * stride_out + cols, out, mask=mask)


# --- per-token dynamic int8 quantization: absmax, scale, round to nearest
@triton.jit
def quant_int8_row(x_ptr, q_ptr, scale_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=0)
    scale = tl.maximum(amax, 1e-10) / 127.0
    q = libdevice.rint(x / scale)
    q = tl.clamp(q, -127.0, 127.0).to(tl.int8)
    tl.store(q_ptr + row * stride + cols, q, mask=mask)
    tl.store(scale_ptr + row, scale)


# --- per-token fp8 (e4m3) quantization, columns looped in chunks: absmax pass, then the scaled store
@triton.jit
def quant_fp8_row(x_ptr, q_ptr, scale_ptr, N, stride, FP8_MAX: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    amax = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        amax = tl.maximum(amax, tl.abs(x))
    scale = tl.max(amax, axis=0) / FP8_MAX
    scale = tl.maximum(scale, 1e-12)
    tl.store(scale_ptr + row, scale)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=0.0).to(tl.float32)
        q = tl.clamp(x / scale, -FP8_MAX, FP8_MAX)
        tl.store(q_ptr + row * stride + cols, q.to(tl.float8e4nv), mask=cols < N)


# --- paged KV gather: a sequence's blocks listed in its block table, copied out to a contiguous buffer
@triton.jit
def paged_gather(cache_ptr, block_table_ptr, out_ptr, seq_len, max_blocks, stride_cb, stride_ct,
                 BLOCK_SIZE: tl.constexpr, HEAD_DIM: tl.constexpr):
    seq = tl.program_id(0)
    blk = tl.program_id(1)
    phys = tl.load(block_table_ptr + seq * max_blocks + blk).to(tl.int64)
    t = tl.arange(0, BLOCK_SIZE)
    d = tl.arange(0, HEAD_DIM)
    tok = blk * BLOCK_SIZE + t
    src = cache_ptr + phys * stride_cb + t[:, None] * stride_ct + d[None, :]
    vals = tl.load(src, mask=(tok < seq_len)[:, None], other=0.0)
    dst = out_ptr + (seq * max_blocks * BLOCK_SIZE + tok)[:, None] * HEAD_DIM + d[None, :]
    tl.store(dst, vals, mask=(tok < seq_len)[:, None])


# --- Liger-style cross-entropy: online logsumexp over the vocabulary, loss and the gradient in place
@triton.jit
def cross_entropy_fwd(logits_ptr, labels_ptr, loss_ptr, stride, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * stride
    label = tl.load(labels_ptr + row)
    m = float("-inf")
    d = 0.0
    for off in tl.range(0, V, BLOCK, num_stages=2):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(d)
    x_label = tl.load(logits_ptr + label).to(tl.float32)
    tl.store(loss_ptr + row, lse - x_label)
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < V, other=0.0).to(tl.float32)
        g = tl.exp(x - lse) - tl.where(cols == label, 1.0, 0.0)
        tl.store(logits_ptr + cols, g.to(logits_ptr.dtype.element_ty), mask=cols < V)


# --- group norm: program (sample, group), the group's channels x spatial elements as one flat range
@triton.jit
def group_norm(x_ptr, y_ptr, w_ptr, b_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    cpg = C // G
    count = cpg * HW
    base = n * C * HW + g * cpg * HW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, count, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + idx, mask=idx < count, other=0.0)
        acc += v
        acc2 += v * v
    mean = tl.sum(acc, axis=0) / count
    var = tl.sum(acc2, axis=0) / count - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for off in range(0, count, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < count
        c = g * cpg + idx // HW
        v = tl.load(x_ptr + base + idx, mask=m, other=0.0)
        w = tl.load(w_ptr + c, mask=m)
        b = tl.load(b_ptr + c, mask=m)
        tl.store(y_ptr + base + idx, (v - mean) * rstd * w + b, mask=m)


# --- a matmul with block pointers (tl.make_block_ptr, tl.advance, boundary_check), fp16 in, fp32 accumulate
@triton.jit
def matmul_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_blk = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_blk = tl.advance(a_blk, (0, BK))
        b_blk = tl.advance(b_blk, (BK, 0))
    c_blk = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_blk, acc.to(tl.float16), boundary_check=(0, 1))


# --- split-K matmul: program_id(2) takes a slice of K, partial tiles added into the fp32 output by atomics
@triton.jit
def matmul_split_k(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rn = tl.max_contiguous(tl.multiple_of(rn, BN), BN)
    rk = pid_k * BK + tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK * SPLIT_K)):
        k_left = K - k * BK * SPLIT_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BK * SPLIT_K
        b_ptrs += BK * SPLIT_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :]
    tl.atomic_add(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- greedy sampling: the argmax of each row's logits over vocabulary chunks, with the winning value
@triton.jit
def argmax_vocab(logits_ptr, out_idx_ptr, out_val_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    best_val = tl.full([BLOCK], float("-inf"), tl.float32)
    best_idx = tl.zeros([BLOCK], dtype=tl.int32)
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + row * stride + cols, mask=cols < V, other=float("-inf"),
                    cache_modifier=".cg").to(tl.float32)
        better = x > best_val
        best_val = tl.where(better, x, best_val)
        best_idx = tl.where(better, cols, best_idx)
    val, pos = tl.max(best_val, axis=0, return_indices=True)
    idx = tl.sum(tl.where(tl.arange(0, BLOCK) == pos, best_idx, 0), axis=0)
    tl.store(out_idx_ptr + row, idx)
    tl.store(out_val_ptr + row, val)


# --- top-k of each row by sorting a tile (k small, vocab fits one tile)
@triton.jit
def topk_rows(x_ptr, out_ptr, N, stride, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf"))
    s = tl.sort(x, descending=True)
    ks = tl.arange(0, BLOCK)
    tl.store(out_ptr + row * K + ks, s, mask=ks < K)


# --- an autotuned, heuristic GELU: the first config's BLOCK, EVEN_N from the arguments, streaming loads
@triton.autotune(configs=[triton.Config({"BLOCK": 512}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.heuristics({"EVEN_N": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def gelu_tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        x = tl.load(x_ptr + offs, eviction_policy="evict_first")
        tl.store(out_ptr + offs, _gelu_tanh(x), cache_modifier=".cs")
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0, eviction_policy="evict_first")
        tl.store(out_ptr + offs, _gelu_tanh(x), mask=offs < n, cache_modifier=".cs")


# --- a batched transpose of the last two dims with a 3-D grid (tile row, tile column, batch), int64 offsets
@triton.jit
def batched_transpose(x_ptr, y_ptr, M, N, stride_b, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tile = tl.load(x_ptr + b * stride_b + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(y_ptr + b * stride_b + rn[None, :] * M + rm[:, None], tile, mask=mask)


# --- the FlashAttention tutorial's inner loop, unrolled over static heads (tl.static_range), one query block
@triton.jit
def mha_heads(q_ptr, k_ptr, v_ptr, o_ptr, seq, sm_scale, H: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
              D: tl.constexpr):
    start_m = tl.program_id(0)
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    for h in tl.static_range(H):
        off = h * seq * D
        q = tl.load(q_ptr + off + rm[:, None] * D + rd[None, :], mask=rm[:, None] < seq, other=0.0)
        m_i = tl.full([BM], float("-inf"), tl.float32)
        l_i = tl.zeros([BM], dtype=tl.float32)
        acc = tl.zeros([BM, D], dtype=tl.float32)
        for start_n in range(0, seq, BN):
            rn = start_n + tl.arange(0, BN)
            k = tl.load(k_ptr + off + rn[None, :] * D + rd[:, None], mask=rn[None, :] < seq, other=0.0)
            qk = tl.dot(q, k) * sm_scale
            qk = tl.where(rn[None, :] < seq, qk, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.exp(qk - m_new[:, None])
            alpha = tl.exp(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            v = tl.load(v_ptr + off + rn[:, None] * D + rd[None, :], mask=rn[:, None] < seq, other=0.0)
            acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
            m_i = m_new
        acc = acc / l_i[:, None]
        tl.store(o_ptr + off + rm[:, None] * D + rd[None, :], acc.to(tl.float16), mask=rm[:, None] < seq)


# --- an embedding lookup: int64 token ids, rows of the table gathered, columns in chunks
@triton.jit
def embedding_gather(ids_ptr, table_ptr, out_ptr, D, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    idx = tl.load(ids_ptr + tok)
    for off in range(0, D, BLOCK_D):
        d = off + tl.arange(0, BLOCK_D)
        row = tl.load(table_ptr + idx * D + d, mask=d < D)
        tl.store(out_ptr + tok * D + d, row, mask=d < D)
