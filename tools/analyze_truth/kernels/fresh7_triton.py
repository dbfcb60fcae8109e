"""A seventh fresh batch of Triton kernels, the 2026 training and serving code the earlier batches left out:
seeded philox dropout, top-k/sort sampling prep, tl.histogram, a chunked selective-scan recurrence by a tuple
associative scan, cumprod, batched 3-D dots, int8 dots into int32, dots with acc= and out_dtype=float16, tf32x3,
interleave/cat/reshape reductions, libdevice activations, cache and eviction hints, a layer-norm backward that
accumulates its weight gradients under an atomic_cas lock, a grouped GEMM whose operand addresses come from an int64
table, nan-padded tensor descriptors walked tile by tile (block pointers are gone in Triton 3.9), swizzle2d with
multiple_of/max_contiguous hints, per-token fp8 quantisation, int4 weights unpacked before a dot, a fused linear
cross-entropy chunk and chunked linear attention; run through `smemlab analyze --triton` as a held-out checker would
(written for smemlab)."""

import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


# --- inverted dropout on a [R, N] activation, one seed a row (as a data-parallel trainer hands them out); the mask is
#     never stored, it is regenerated from (seed, offset) by philox in tl.rand
@triton.jit
def dropout_rowseed(x_ptr, seed_ptr, out_ptr, N, stride, p, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    seed = tl.load(seed_ptr + row)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < N
        x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0)
        r = tl.rand(seed, row * N + cols)
        y = tl.where(r > p, x / (1.0 - p), 0.0)
        tl.store(out_ptr + row * stride + cols, y, mask=m)


# --- sampling prep for one row of logits: temperature, the top-K (value, token) pairs found by tl.topk over int64
#     keys (order-preserving float bits above the token id), their softmax, then an ascending tl.sort of the
#     probabilities and its cumsum for a top-p cut
@triton.jit
def topk_sampling_prep(logits_ptr, probs_ptr, ids_ptr, cdf_ptr, V, stride, inv_temp, BV: tl.constexpr,
                       K: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BV)
    x = tl.load(logits_ptr + row * stride + cols, mask=cols < V, other=float("-inf")).to(tl.float32) * inv_temp
    bits = x.to(tl.int32, bitcast=True)
    key = tl.where(bits >= 0, bits, bits ^ 0x7FFFFFFF)
    packed = (key.to(tl.int64) << 32) | cols.to(tl.int64)
    top = tl.topk(packed, K)
    ids = top.to(tl.int32)  # the low half: the token id
    hi = (top >> 32).to(tl.int32)
    vals = tl.where(hi >= 0, hi, hi ^ 0x7FFFFFFF).to(tl.float32, bitcast=True)
    e = tl.exp(vals - tl.max(vals, axis=0))
    probs = e / tl.sum(e, axis=0)
    k = tl.arange(0, K)
    tl.store(probs_ptr + row * K + k, probs)
    tl.store(ids_ptr + row * K + k, ids)
    asc = tl.sort(probs)
    tl.store(cdf_ptr + row * K + k, tl.cumsum(asc, axis=0))


# --- token-frequency counts for a batch of ids (n-gram blocking, MoE load stats): a tl.histogram per program,
#     masked at the tail, added into the global counts with one atomic per bin
@triton.jit
def token_histogram(ids_ptr, hist_ptr, N, NB: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    ids = tl.load(ids_ptr + offs, mask=m, other=0)
    h = tl.histogram(ids, NB, mask=m)
    tl.atomic_add(hist_ptr + tl.arange(0, NB), h)


@triton.jit
def _affine_combine(a_l, b_l, a_r, b_r):
    # composing h -> a_l*h + b_l then h -> a_r*h + b_r
    return a_l * a_r, b_l * a_r + b_r


# --- the selective-scan recurrence h[t] = a[t] * h[t-1] + b[t] (Mamba's, after discretisation) over [B, D, L],
#     BD channels a program, CHUNK steps at a time by an associative scan of (a, b) pairs, the state carried across
#     chunks; the last state of every channel is written too
@triton.jit
def selective_scan_chunked(a_ptr, b_ptr, h_ptr, hlast_ptr, D, L, BD: tl.constexpr, CHUNK: tl.constexpr):
    pid_d = tl.program_id(0)
    pid_b = tl.program_id(1)
    d = pid_d * BD + tl.arange(0, BD)
    dm = d < D
    base = pid_b * D * L
    h = tl.zeros([BD], dtype=tl.float32)
    steps = tl.arange(0, CHUNK)
    for t0 in range(0, L, CHUNK):
        t = t0 + steps
        m = dm[:, None] & (t[None, :] < L)
        offs = base + d[:, None] * L + t[None, :]
        a = tl.load(a_ptr + offs, mask=m, other=1.0)
        b = tl.load(b_ptr + offs, mask=m, other=0.0)
        ca, cb = tl.associative_scan((a, b), axis=1, combine_fn=_affine_combine)
        hs = ca * h[:, None] + cb
        tl.store(h_ptr + offs, hs, mask=m)
        h = tl.sum(tl.where(steps[None, :] == CHUNK - 1, hs, 0.0), axis=1)
    tl.store(hlast_ptr + pid_b * D + d, h, mask=dm)


# --- discrete-time survival curves S[t] = prod_{u<=t} (1 - hazard[u]) by tl.cumprod, and the expected lifetime
#     sum_t S[t], one row a program
@triton.jit
def survival_cumprod(hazard_ptr, surv_ptr, life_ptr, L, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    t = tl.arange(0, BLOCK)
    m = t < L
    hz = tl.load(hazard_ptr + row * stride + t, mask=m, other=0.0)
    s = tl.cumprod(1.0 - hz, axis=0)
    tl.store(surv_ptr + row * stride + t, s, mask=m)
    tl.store(life_ptr + row, tl.sum(tl.where(m, s, 0.0), axis=0))


# --- batched matmul C[b] = A[b] @ B[b] with 3-D blocks: BB batch entries a program, tl.dot on [BB, BM, BK] x
#     [BB, BK, BN] tiles, fp16 in, fp32 accumulate
@triton.jit
def bmm_3d_dot(a_ptr, b_ptr, c_ptr, NB, M, N, K, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(2)
    bb = pid_b * BB + tl.arange(0, BB)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BB, BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a_m = (bb[:, None, None] < NB) & (rm[None, :, None] < M) & (rk[None, None, :] < K)
        b_m = (bb[:, None, None] < NB) & (rk[None, :, None] < K) & (rn[None, None, :] < N)
        a = tl.load(a_ptr + bb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :], mask=a_m, other=0.0)
        b = tl.load(b_ptr + bb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :], mask=b_m, other=0.0)
        acc = tl.dot(a, b, acc)
    c_m = (bb[:, None, None] < NB) & (rm[None, :, None] < M) & (rn[None, None, :] < N)
    tl.store(c_ptr + bb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], acc.to(tl.float16), mask=c_m)


# --- W8A8 linear: int8 activations [M, K] times int8 weights stored [N, K], exact int32 accumulation by tl.dot,
#     then per-token and per-channel scales into fp16
@triton.jit
def w8a8_linear(x_ptr, w_ptr, xs_ptr, ws_ptr, y_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
        w = tl.load(w_ptr + rn[:, None] * K + rk[None, :], mask=(rn[:, None] < N) & (rk[None, :] < K), other=0)
        acc = tl.dot(x, tl.trans(w), acc, out_dtype=tl.int32)
    xs = tl.load(xs_ptr + rm, mask=rm < M, other=0.0)
    ws = tl.load(ws_ptr + rn, mask=rn < N, other=0.0)
    y = acc.to(tl.float32) * xs[:, None] * ws[None, :]
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- a LoRA-augmented linear y = x @ W + scaling * (x @ A) @ B: the base and the rank-R down projection accumulate
#     over K through acc=, the up projection is one dot with out_dtype=float16
@triton.jit
def lora_linear(x_ptr, w_ptr, a_ptr, b_ptr, y_ptr, M, N, K, scaling, R: tl.constexpr, BM: tl.constexpr,
                BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rr = tl.arange(0, R)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    xa = tl.zeros((BM, R), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        a = tl.load(a_ptr + rk[:, None] * R + rr[None, :], mask=rk[:, None] < K, other=0.0)
        acc = tl.dot(x, w, acc=acc)
        xa = tl.dot(x, a, acc=xa)
    b = tl.load(b_ptr + rr[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
    delta = tl.dot(xa.to(tl.float16), b, out_dtype=tl.float16)
    y = acc + scaling * delta.to(tl.float32)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- cross-covariance of two float32 feature sets over n samples, C = (X - mx).T @ (Y - my) / (n - 1), dots in
#     tf32x3 (near-fp32 accuracy on tensor cores)
@triton.jit
def cross_cov_tf32x3(x_ptr, y_ptr, mx_ptr, my_ptr, c_ptr, n, P, Q, BP: tl.constexpr, BQ: tl.constexpr,
                     BK: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_q = tl.program_id(1)
    rp = pid_p * BP + tl.arange(0, BP)
    rq = pid_q * BQ + tl.arange(0, BQ)
    mx = tl.load(mx_ptr + rp, mask=rp < P, other=0.0)
    my = tl.load(my_ptr + rq, mask=rq < Q, other=0.0)
    acc = tl.zeros((BP, BQ), dtype=tl.float32)
    for k0 in range(0, n, BK):
        rk = k0 + tl.arange(0, BK)
        xm = (rk[None, :] < n) & (rp[:, None] < P)
        xt = tl.load(x_ptr + rk[None, :] * P + rp[:, None], mask=xm, other=0.0)
        xt = tl.where(xm, xt - mx[:, None], 0.0)
        ym = (rk[:, None] < n) & (rq[None, :] < Q)
        y = tl.load(y_ptr + rk[:, None] * Q + rq[None, :], mask=ym, other=0.0)
        y = tl.where(ym, y - my[None, :], 0.0)
        acc = tl.dot(xt, y, acc, input_precision="tf32x3")
    acc = acc / (n - 1)
    tl.store(c_ptr + rp[:, None] * Q + rq[None, :], acc, mask=(rp[:, None] < P) & (rq[None, :] < Q))


# --- packs K and V rows of BT tokens into one interleaved [T, 2D] buffer (tl.interleave), the block's absolute
#     maximum over both by tl.cat, and each token's squared K norm by reshaping the flat block back to rows
@triton.jit
def pack_kv_interleaved(k_ptr, v_ptr, kv_ptr, amax_ptr, knorm_ptr, T, D: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    rt = pid * BT + tl.arange(0, BT)
    rd = tl.arange(0, D)
    m = rt[:, None] < T
    k = tl.load(k_ptr + rt[:, None] * D + rd[None, :], mask=m, other=0.0)
    v = tl.load(v_ptr + rt[:, None] * D + rd[None, :], mask=m, other=0.0)
    kv = tl.interleave(k, v)
    rd2 = tl.arange(0, 2 * D)
    tl.store(kv_ptr + rt[:, None] * (2 * D) + rd2[None, :], kv, mask=m)
    kf = tl.reshape(k, [BT * D]).to(tl.float32)
    vf = tl.reshape(v, [BT * D]).to(tl.float32)
    both = tl.cat(tl.abs(kf), tl.abs(vf), can_reorder=True)
    tl.atomic_max(amax_ptr, tl.max(both, axis=0))
    sq = tl.reshape(kf * kf, [BT, D])
    tl.store(knorm_ptr + rt, tl.sum(sq, axis=1), mask=rt < T)


# --- elementwise activations through libdevice: exact GELU with erf, the tanh approximation with pow(x, 3), and
#     a smooth squared ReLU with pow(max(x,0), 2)
@triton.jit
def activation_libdevice(x_ptr, y_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    if ACT == "gelu_erf":
        y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
    elif ACT == "gelu_tanh":
        inner = 0.7978845608028654 * (x + 0.044715 * libdevice.pow(x, 3.0))
        y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    else:
        y = libdevice.pow(tl.maximum(x, 0.0), 2.0)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=m)


# --- fused residual add + RMSNorm, one row a program, with cache hints: the input bypasses L1 (.cg), the old residual
#     goes first (evict_first), the weight stays (evict_last), the normed output is streamed out (.cs), the new residual kept
@triton.jit
def add_rmsnorm_hints(x_ptr, res_ptr, w_ptr, out_ptr, res_out_ptr, N, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0, cache_modifier=".cg").to(tl.float32)
    r = tl.load(res_ptr + row * stride + cols, mask=m, other=0.0, eviction_policy="evict_first").to(tl.float32)
    w = tl.load(w_ptr + cols, mask=m, other=0.0, eviction_policy="evict_last").to(tl.float32)
    h = x + r
    tl.store(res_out_ptr + row * stride + cols, h.to(tl.float16), mask=m, eviction_policy="evict_last")
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=0) / N + eps)
    tl.store(out_ptr + row * stride + cols, (h * rstd * w).to(tl.float16), mask=m, cache_modifier=".cs")


# --- layer-norm backward: each program ROWS rows of dx, its partial dW and dB summed in registers, then added into
#     one of GROUP fp32 accumulator rows under a spin lock (tl.atomic_cas), the first writer found by tl.atomic_xchg
#     on the group's flag
@triton.jit
def ln_bwd_grouped_lock(x_ptr, dy_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_acc_ptr, db_acc_ptr, lock_ptr, M, N,
                        ROWS: tl.constexpr, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    cm = cols < N
    w = tl.load(w_ptr + cols, mask=cm, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(ROWS):
        row = pid * ROWS + i
        m = cm & (row < M)
        x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + row, mask=row < M, other=0.0)
        rstd = tl.load(rstd_ptr + row, mask=row < M, other=0.0)
        xhat = tl.where(m, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + row * N + cols, dx.to(tl.float16), mask=m)
        dw += dy * xhat
        db += dy
    g = pid % GROUP
    lock = lock_ptr + g
    flag = lock_ptr + GROUP + g
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    seen = tl.atomic_xchg(flag, 1)
    if seen != 0:
        dw += tl.load(dw_acc_ptr + g * N + cols, mask=cm, other=0.0)
        db += tl.load(db_acc_ptr + g * N + cols, mask=cm, other=0.0)
    tl.store(dw_acc_ptr + g * N + cols, dw, mask=cm)
    tl.store(db_acc_ptr + g * N + cols, db, mask=cm)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


# --- grouped GEMM over G independent problems (MoE experts, LoRA adapters): a persistent loop over every group's
#     tiles, each group's A, B and C addresses built from an int64 table of byte offsets into packed buffers and
#     cast back to pointers (tl.pointer_type), its sizes from an int32 table
@triton.jit
def grouped_gemm_table(a_base, b_base, c_base, a_off_ptr, b_off_ptr, c_off_ptr, dims_ptr, G, NUM_PROGS: tl.constexpr,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    first = 0
    for g in range(G):
        gm = tl.load(dims_ptr + 3 * g)
        gn = tl.load(dims_ptr + 3 * g + 1)
        gk = tl.load(dims_ptr + 3 * g + 2)
        tiles_n = tl.cdiv(gn, BN)
        count = tl.cdiv(gm, BM) * tiles_n
        while (tile >= first) & (tile < first + count):
            a = (a_base.to(tl.int64) + tl.load(a_off_ptr + g)).to(tl.pointer_type(tl.float16))
            b = (b_base.to(tl.int64) + tl.load(b_off_ptr + g)).to(tl.pointer_type(tl.float16))
            c = (c_base.to(tl.int64) + tl.load(c_off_ptr + g)).to(tl.pointer_type(tl.float16))
            local = tile - first
            rm = (local // tiles_n) * BM + tl.arange(0, BM)
            rn = (local % tiles_n) * BN + tl.arange(0, BN)
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k0 in range(0, gk, BK):
                rk = k0 + tl.arange(0, BK)
                x = tl.load(a + rm[:, None] * gk + rk[None, :], mask=(rm[:, None] < gm) & (rk[None, :] < gk), other=0.0)
                y = tl.load(b + rk[:, None] * gn + rn[None, :], mask=(rk[:, None] < gk) & (rn[None, :] < gn), other=0.0)
                acc += tl.dot(x, y)
            tl.store(c + rm[:, None] * gn + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < gm) & (rn[None, :] < gn))
            tile += NUM_PROGS
        first += count


# --- per-column maximum of a [M, N] float32 matrix whose tiles come from an in-kernel tensor descriptor padded with
#     NaN past the edges; each program walks its column band down the rows, its row offset advanced a tile at a time
@triton.jit
def desc_nanpad_colmax(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN], padding_option="nan")
    n0 = pid * BN
    best = tl.full([BN], float("-inf"), dtype=tl.float32)
    m0 = 0
    while m0 < M:
        t = desc.load([m0, n0])
        t = tl.where(t == t, t, float("-inf"))
        best = tl.maximum(best, tl.max(t, axis=0))
        m0 += BM
    cols = n0 + tl.arange(0, BN)
    tl.store(out_ptr + cols, best, mask=cols < N)


# --- fp16 matmul with the output tiles reordered by tl.swizzle2d for L2 reuse, wrapped row/column offsets marked
#     with tl.multiple_of / tl.max_contiguous as the matmul tutorial does, only K masked
@triton.jit
def matmul_swizzle2d(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BM: tl.constexpr,
                     BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    pid_m, pid_n = tl.swizzle2d(pid // num_n, pid % num_n, num_m, num_n, GROUP)
    rm = tl.max_contiguous(tl.multiple_of((pid_m * BM + tl.arange(0, BM)) % M, BM), BM)
    rn = tl.max_contiguous(tl.multiple_of((pid_n * BN + tl.arange(0, BN)) % N, BN), BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :], acc.to(tl.float16),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


# --- per-token fp8 (e4m3) quantisation of bf16 activations: BT tokens a program, a row absmax, scale = amax / 448,
#     the fp8 values and the float32 scales stored
@triton.jit
def fp8_per_token_quant(x_ptr, q_ptr, s_ptr, T, H, BT: tl.constexpr, BH: tl.constexpr):
    pid = tl.program_id(0)
    rt = pid * BT + tl.arange(0, BT)
    rh = tl.arange(0, BH)
    m = (rt[:, None] < T) & (rh[None, :] < H)
    x = tl.load(x_ptr + rt[:, None] * H + rh[None, :], mask=m, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), axis=1), 1e-6)
    scale = amax / 448.0
    q = tl.clamp(x / scale[:, None], -448.0, 448.0)
    tl.store(q_ptr + rt[:, None] * H + rh[None, :], q.to(tl.float8e4nv), mask=m)
    tl.store(s_ptr + rt, scale, mask=rt < T)


# --- W4A16 linear: weights [N, K] packed two int4 a byte along K (low nibble first), unpacked with & 15 and >> 4,
#     interleaved back into K order, centred at 8 and scaled per group of G columns, then x @ w.T in fp16
@triton.jit
def w4a16_linear(x_ptr, wq_ptr, sc_ptr, y_ptr, M, N, K, G: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rkh = tl.arange(0, BK // 2)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        x = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=rm[:, None] < M, other=0.0)
        p = tl.load(wq_ptr + rn[:, None] * (K // 2) + (k0 // 2 + rkh)[None, :], mask=rn[:, None] < N, other=0)
        lo = (p & 15).to(tl.int8)
        hi = (p >> 4).to(tl.int8)
        q = tl.interleave(lo, hi)
        s = tl.load(sc_ptr + rn * (K // G) + k0 // G, mask=rn < N, other=0.0)
        w = (q - 8).to(tl.float16) * s[:, None]
        acc = tl.dot(x, tl.trans(w), acc)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- fused linear + cross-entropy over a chunk of tokens: logits tiles h @ W[v0:v0+BV].T by tl.dot, never stored,
#     an online log-sum-exp across the vocabulary and the target's logit picked on the way; per-token loss and lse
@triton.jit
def linear_xent_chunk(h_ptr, w_ptr, tgt_ptr, loss_ptr, lse_ptr, T, V, D: tl.constexpr, BT: tl.constexpr,
                      BV: tl.constexpr):
    pid = tl.program_id(0)
    rt = pid * BT + tl.arange(0, BT)
    rd = tl.arange(0, D)
    tm = rt < T
    h = tl.load(h_ptr + rt[:, None] * D + rd[None, :], mask=tm[:, None], other=0.0)
    tgt = tl.load(tgt_ptr + rt, mask=tm, other=-1)
    m = tl.full([BT], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BT], dtype=tl.float32)
    tgt_logit = tl.zeros([BT], dtype=tl.float32)
    for v0 in range(0, V, BV):
        rv = v0 + tl.arange(0, BV)
        w = tl.load(w_ptr + rv[:, None] * D + rd[None, :], mask=rv[:, None] < V, other=0.0)
        logits = tl.dot(h, tl.trans(w))
        logits = tl.where(rv[None, :] < V, logits, float("-inf"))
        m_new = tl.maximum(m, tl.max(logits, axis=1))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(logits - m_new[:, None]), axis=1)
        m = m_new
        tgt_logit += tl.sum(tl.where(rv[None, :] == tgt[:, None], logits, 0.0), axis=1)
    lse = m + tl.log(s)
    tl.store(lse_ptr + rt, lse, mask=tm)
    tl.store(loss_ptr + rt, lse - tgt_logit, mask=tm)


# --- causal linear attention in chunks of C tokens, one (batch, head) a program: within a chunk the masked
#     (q k^T) v, across chunks the running D x D state S += k^T v; all 16x16 dots
@triton.jit
def chunked_linear_attn(q_ptr, k_ptr, v_ptr, o_ptr, T, D: tl.constexpr, C: tl.constexpr):
    bh = tl.program_id(0)
    base = bh * T * D
    rc = tl.arange(0, C)
    rd = tl.arange(0, D)
    causal = rc[:, None] >= rc[None, :]
    S = tl.zeros((D, D), dtype=tl.float32)
    for c0 in range(0, T, C):
        rt = c0 + rc
        m = rt[:, None] < T
        offs = base + rt[:, None] * D + rd[None, :]
        q = tl.load(q_ptr + offs, mask=m, other=0.0)
        k = tl.load(k_ptr + offs, mask=m, other=0.0)
        v = tl.load(v_ptr + offs, mask=m, other=0.0)
        o = tl.dot(q, S.to(tl.float16))
        att = tl.where(causal, tl.dot(q, tl.trans(k)), 0.0)
        o = tl.dot(att.to(tl.float16), v, o)
        tl.store(o_ptr + offs, o.to(tl.float16), mask=m)
        S = tl.dot(tl.trans(k), v, S)
