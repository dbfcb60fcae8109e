"""A twelfth fresh batch of Triton kernels: the official tutorials as a checker would retype them, and the language
features around them. Vector add; the fused softmax with one row a program in a tl.range over rows (BLOCK the next
power of two of the row); the grouped-ordering matmul (GROUP_SIZE_M) with a leaky-ReLU epilogue and the tutorial's
wrapped (% M) row offsets; the persistent matmul (tl.range with flatten=True and warp_specialize=False, max_contiguous
and multiple_of hints); the grouped GEMM whose problems' addresses come from int64 pointer tables; low-memory dropout
by tl.rand(seed, offsets); the layer-norm forward over column chunks and its backward (dx with dW/dB partials under a
tl.atomic_cas lock, then the column sums of the partials); fused attention forward with plain pointers (causal by
the two-stage off-band / diagonal split, and full) and with host tensor descriptors; libdevice asin with tl.math.exp2
behind a NaN guard, tl.clamp and tl.fma; tl.static_range unrolled rows with int64 offsets; a multiplicative hash
reduced to buckets by tl.umulhi; an RMS norm over a 3-D [:, None, None] tile with tl.sum(keep_dims=True); planar to
interleaved complex by tl.interleave; space-to-depth by tl.reshape and tl.permute; and an fp32 GEMM with
tl.dot(acc=, input_precision="tf32x3") (written for smemlab, by someone who had not seen it)."""

import triton
import triton.language as tl


# --- tutorial 01: vector addition
@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


# --- tutorial 02: fused softmax, fewer programs than rows, each walking rows pid, pid + num_programs, ...
@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, NUM_STAGES: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=NUM_STAGES):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float("inf")).to(tl.float32)
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        out_row_ptr = output_ptr + row_idx * output_row_stride
        tl.store(out_row_ptr + col_offsets, softmax_output.to(output_ptr.dtype.element_ty), mask=mask)


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


# --- tutorial 03: matmul with grouped program ordering (L2 reuse), the K tail masked, an optional leaky-ReLU
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(tl.float16)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def _tile_coords(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


# --- tutorial 09: persistent matmul, NUM_SMS programs striding over the output tiles, the tile loop flattened with
#     the K loop; row and column offsets clamped to 0 past the edge and hinted contiguous
@triton.jit
def matmul_kernel_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                             stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n

    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=False):
        pid_m, pid_n = _tile_coords(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        start_m = pid_m * BLOCK_SIZE_M
        start_n = pid_n * BLOCK_SIZE_N
        offs_am = start_m + tl.arange(0, BLOCK_SIZE_M)
        offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_SIZE_N), BLOCK_SIZE_N)

        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
            b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
            a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)

        tile_id_c += NUM_SMS
        pid_m, pid_n = _tile_coords(tile_id_c, num_pid_in_group, num_pid_m, GROUP_SIZE_M)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, accumulator.to(tl.float16), mask=c_mask)


# --- tutorial 08: grouped GEMM; each problem's A, B, C addresses are read from int64 tables, its (m, n, k) and leading
#     dimensions from int32 tables; NUM_SM programs hand the problems' tiles out round-robin
@triton.jit
def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                          NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                          BLOCK_SIZE_K: tl.constexpr):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_in_gemm // num_n_tiles
            tile_n_idx = tile_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            offs_k = tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(gk, BLOCK_SIZE_K)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_SIZE_K
                b_ptrs += BLOCK_SIZE_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = tile_n_idx * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            tl.store(c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :], c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


# --- tutorial 04: low-memory dropout, the keep mask regenerated from (seed, offset) instead of stored
@triton.jit
def seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


# --- tutorial 05: layer norm forward, one row a program, the row walked in BLOCK_SIZE chunks three times
@triton.jit
def layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


# --- tutorial 05: layer norm backward, dx of a row, its dW / dB contribution added into one of GROUP_SIZE_M partial
#     rows under a spin lock (tl.atomic_cas), a count word telling the first writer
@triton.jit
def layer_norm_bwd_dx_fused(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr,
                            BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.0)
    wdy = tl.where(mask, wdy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(DW.dtype.element_ty)
    partial_db = dy.to(DB.dtype.element_ty)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


# --- tutorial 05: the column sums of the partial dW / dB rows
@triton.jit
def layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.0).to(tl.float32)
        db += tl.load(DB + offs, mask=mask, other=0.0).to(tl.float32)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, start_m, qk_scale, T, offs_m, offs_n, offs_d,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_D: tl.constexpr, STAGE: tl.constexpr):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, T
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        kt = tl.load(k_base + cols[None, :] * HEAD_D + offs_d[:, None], mask=cols[None, :] < T, other=0.0)
        qk = tl.dot(q, kt)
        if STAGE == 2:
            causal = offs_m[:, None] >= cols[None, :]
            qk = qk * qk_scale + tl.where(causal, 0, -1.0e6)
        else:
            qk = qk * qk_scale
        qk = tl.where(cols[None, :] < T, qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk -= m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * HEAD_D + offs_d[None, :], mask=cols[:, None] < T, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


# --- tutorial 06: fused attention forward on [Z*H, T, D] float16 with plain pointers; STAGE 3 = causal (the blocks
#     left of the diagonal, then the diagonal block masked), STAGE 1 = full; the log-sum-exp row goes to M
@triton.jit
def attn_fwd(Q, K, V, M, Out, sm_scale, T, HEAD_D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             STAGE: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * T * HEAD_D
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_D)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(Q + base + offs_m[:, None] * HEAD_D + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + base, V + base, start_m, qk_scale, T, offs_m, offs_n,
                                        offs_d, BLOCK_M, BLOCK_N, HEAD_D, 4 - STAGE)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + base, V + base, start_m, qk_scale, T, offs_m, offs_n,
                                        offs_d, BLOCK_M, BLOCK_N, HEAD_D, 2)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * T + offs_m, m_i, mask=offs_m < T)
    tl.store(Out + base + offs_m[:, None] * HEAD_D + offs_d[None, :], acc.to(Out.dtype.element_ty),
             mask=offs_m[:, None] < T)


# --- tutorial 06 with host tensor descriptors over the [Z*H*T, D] view (T a multiple of both blocks), non-causal
@triton.jit
def attn_fwd_tdesc(desc_q, desc_k, desc_v, desc_o, sm_scale, T, HEAD_D: tl.constexpr, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    row_q = off_hz * T + start_m * BLOCK_M
    row_kv = off_hz * T
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([row_q, 0])
    for start_n in tl.range(0, T, BLOCK_N, num_stages=2):
        k = desc_k.load([row_kv + start_n, 0])
        qk = tl.dot(q, k.T) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = desc_v.load([row_kv + start_n, 0])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_ij
    acc = acc / l_i[:, None]
    desc_o.store([row_q, 0], acc.to(tl.float16))


# --- libdevice asin and tl.math.exp2 of a clamped input, NaNs zeroed first, blended by tl.fma
@triton.jit
def asin_exp2_guarded(x_ptr, y_ptr, n, lo, hi, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x = tl.where(x != x, 0.0, x)
    c = tl.clamp(x, lo, hi)
    a = tl.extra.cuda.libdevice.asin(c)
    e = tl.math.exp2(c)
    y = tl.fma(a, e, c)
    tl.store(y_ptr + offs, y, mask=mask)


# --- out = alpha * x + beta * y over ROWS rows a program, the rows unrolled by tl.static_range, the row offsets in
#     int64, the column offsets hinted contiguous, the columns walked in BLOCK chunks
@triton.jit
def axpby_rows_unrolled(x_ptr, y_ptr, out_ptr, n_rows, n_cols, stride, alpha, beta, ROWS: tl.constexpr,
                        BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    cols = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK), BLOCK), BLOCK)
    for r in tl.static_range(ROWS):
        row = pid * ROWS + r
        base = row * stride
        for c0 in tl.range(0, n_cols, BLOCK, num_stages=2):
            c = c0 + cols
            m = (c < n_cols) & (row < n_rows)
            x = tl.load(x_ptr + base + c, mask=m, other=0.0)
            y = tl.load(y_ptr + base + c, mask=m, other=0.0)
            tl.store(out_ptr + base + c, alpha * x + beta * y, mask=m)


# --- a multiplicative hash of int32 keys brought into [0, n_buckets) by tl.umulhi, then a gather of each bucket's value
@triton.jit
def hash_bucket_gather(keys_ptr, table_ptr, out_ptr, bucket_ptr, n, n_buckets, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    k = tl.load(keys_ptr + offs, mask=mask, other=0).to(tl.uint32)
    h = k ^ (k >> 15)
    h = h * 739982445
    h = h ^ (h >> 13)
    b = tl.umulhi(h, n_buckets.to(tl.uint32)).to(tl.int32)
    v = tl.load(table_ptr + b, mask=mask, other=0.0)
    tl.store(out_ptr + offs, v, mask=mask)
    tl.store(bucket_ptr + offs, b, mask=mask)


# --- per-head RMS norm (QK-norm) of x [T, H, D] over D: a 3-D tile built from [:, None, None] aranges, the mean square
#     kept as [BT, H, 1] by tl.sum(keep_dims=True)
@triton.jit
def head_rms_norm_3d(x_ptr, w_ptr, y_ptr, T, eps, BT: tl.constexpr, H: tl.constexpr, D: tl.constexpr):
    t = tl.program_id(0) * BT + tl.arange(0, BT)
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    offs = t[:, None, None] * (H * D) + h[None, :, None] * D + d[None, None, :]
    m = t[:, None, None] < T
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=2, keep_dims=True) / D
    w = tl.load(w_ptr + d).to(tl.float32)
    y = x * tl.rsqrt(ms + eps) * w[None, None, :]
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=m)


# --- planar real / imaginary arrays to interleaved complex (re0, im0, re1, im1, ...) by tl.interleave
@triton.jit
def planar_to_interleaved(re_ptr, im_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    re = tl.load(re_ptr + offs, mask=mask, other=0.0)
    im = tl.load(im_ptr + offs, mask=mask, other=0.0)
    z = tl.interleave(re, im)
    o = pid * 2 * BLOCK + tl.arange(0, 2 * BLOCK)
    tl.store(out_ptr + o, z, mask=o < 2 * n)


# --- space-to-depth by 2 of an [H, W] image into [4, H/2, W/2]: a [2BH, 2BW] tile reshaped to (BH, 2, BW, 2),
#     permuted to (2, 2, BH, BW) and flattened to the four phase planes
@triton.jit
def space_to_depth2(x_ptr, y_ptr, H, W, BH: tl.constexpr, BW: tl.constexpr):
    pw = tl.program_id(0)
    ph = tl.program_id(1)
    r = ph * 2 * BH + tl.arange(0, 2 * BH)
    c = pw * 2 * BW + tl.arange(0, 2 * BW)
    m = (r[:, None] < H) & (c[None, :] < W)
    tile = tl.load(x_ptr + r[:, None] * W + c[None, :], mask=m, other=0.0)
    t4 = tl.reshape(tile, (BH, 2, BW, 2))
    planes = tl.reshape(tl.permute(t4, (1, 3, 0, 2)), (4, BH, BW))
    Ho = H // 2
    Wo = W // 2
    q = tl.arange(0, 4)
    oy = ph * BH + tl.arange(0, BH)
    ox = pw * BW + tl.arange(0, BW)
    offs = q[:, None, None] * (Ho * Wo) + oy[None, :, None] * Wo + ox[None, None, :]
    om = (oy[None, :, None] < Ho) & (ox[None, None, :] < Wo)
    tl.store(y_ptr + offs, planes, mask=om)


# --- an fp32 GEMM that keeps fp32 accuracy on tensor cores: tl.dot(acc=..., input_precision="tf32x3"), ragged edges
@triton.jit
def matmul_f32_tf32x3(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :], mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :], mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc=acc, input_precision="tf32x3")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
