"""Triton kernels in the styles people write (tutorials, ML kernels), for tests/test_analyze_python_robust.py
(written for smemlab). Each ran through `smemlab analyze --triton`; the tests keep the ones that broke it."""

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_rows(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr,
                 STAGES: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=STAGES):
        base = in_ptr + row * in_stride
        cols = tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, num / den, mask=cols < n_cols)


@triton.jit
def layernorm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        c = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + c, mask=c < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        c = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + c, mask=c < N, other=0.).to(tl.float32)
        v = tl.where(c < N, v - mean, 0.)
        var_acc += v * v
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        c = off + tl.arange(0, BLOCK)
        m = c < N
        w = tl.load(w_ptr + c, mask=m)
        b = tl.load(b_ptr + c, mask=m)
        v = tl.load(x_ptr + c, mask=m, other=0.).to(tl.float32)
        tl.store(y_ptr + c, (v - mean) * rstd * w + b, mask=m)


@triton.jit
def layernorm_bwd_dx(dx_ptr, dy_ptr, dw_part, db_part, x_ptr, w_ptr, mean_ptr, rstd_ptr, lock_ptr, stride, N,
                     GROUP: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x_ptr += row * stride
    dy_ptr += row * stride
    dx_ptr += row * stride
    gid = row % GROUP
    lock_ptr += gid
    count_ptr = lock_ptr + GROUP
    dw_part = dw_part + gid * N + cols
    db_part = db_part + gid * N + cols
    x = tl.load(x_ptr + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(dy_ptr + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(dx_ptr + cols, dx, mask=mask)
    pdw = (dy * xhat).to(w.dtype)
    pdb = dy.to(w.dtype)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    count = tl.load(count_ptr)
    if count == 0:
        tl.atomic_xchg(count_ptr, 1)
    else:
        pdw += tl.load(dw_part, mask=mask)
        pdb += tl.load(db_part, mask=mask)
    tl.store(dw_part, pdw, mask=mask)
    tl.store(db_part, pdb, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def layernorm_bwd_dw(dw_part, db_part, dw_ptr, db_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BN + tl.arange(0, BN)
    dw = tl.zeros((BM, BN), dtype=tl.float32)
    db = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(0, M, BM):
        rows = i + tl.arange(0, BM)
        m = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(dw_part + offs, mask=m, other=0.)
        db += tl.load(db_part + offs, mask=m, other=0.)
    tl.store(dw_ptr + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(db_ptr + cols, tl.sum(db, axis=0), mask=cols < N)


@triton.jit
def leaky(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def matmul_grouped(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                   ACT: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    per_group = GROUP_M * num_n
    group = pid // per_group
    first_m = group * GROUP_M
    gsize = min(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % per_group) % gsize)
    pid_n = (pid % per_group) // gsize
    offs_m = (pid_m * BM + tl.arange(0, BM)) % M
    offs_n = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    if ACT == "leaky":
        acc = leaky(acc)
    c = acc.to(tl.float16)
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + scm * cm[:, None] + scn * cn[None, :], c, mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def dot_precision(a_ptr, b_ptr, c_ptr, B: tl.constexpr, PREC: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    c = tl.dot(a, b, input_precision=PREC)
    tl.store(c_ptr + r[:, None] * B + r[None, :], c)


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.rand(seed, offs)
    keep = r > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


@triton.jit
def max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def scan_sort_reduce(x_ptr, cs_ptr, sorted_ptr, red_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    pos = tl.where(x > 0, x, 0)
    tl.store(cs_ptr + offs, tl.cumsum(pos, axis=0), mask=offs < n)
    tl.store(sorted_ptr + offs, tl.sort(x), mask=offs < n)
    tl.store(red_ptr, tl.reduce(x, 0, max_combine))


@triton.jit
def histogram(x_ptr, hist_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, BINS)
    tl.atomic_add(hist_ptr + tl.arange(0, BINS), h)


@triton.jit
def copy2d(src, dst, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rm = tl.max_contiguous(tl.multiple_of(rm, BM), BM)
    rn = tl.max_contiguous(tl.multiple_of(rn, BN), BN)
    off = rm.to(tl.int64)[:, None] * stride_m + rn[None, :]
    m = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(src + off, mask=m, eviction_policy="evict_first")
    tl.store(dst + off, v * 2, mask=m, cache_modifier=".cs")


@triton.jit
def scaled(x_ptr, out_ptr, n, SCALE: tl.constexpr, NEG: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = x * SCALE
    if NEG:
        y = -y
    tl.store(out_ptr + offs, y, mask=offs < n)


@triton.jit
def unrolled_sum(x_ptr, out_ptr, CHUNKS: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.static_range(CHUNKS):
        acc += tl.load(x_ptr + i * BLOCK + tl.arange(0, BLOCK)).to(tl.float32)
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def gelu_half(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    y = 0.5 * x * (1 + tl.erf(x * 0.7071067811865476))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def axpy64(x_ptr, y_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(y_ptr + offs, a * x + y, mask=m)


@triton.jit
def transpose_tile(in_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    x = tl.load(in_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M) & (rn[None, :] < N))
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], tl.trans(x), mask=(rn[:, None] < N) & (rm[None, :] < M))


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, L, sm_scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start = tl.program_id(0) * BM
    rm = start + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :], mask=rm[:, None] < L, other=0.)
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    for n0 in range(0, L, BN):
        rn = n0 + tl.arange(0, BN)
        k = tl.load(k_ptr + rn[None, :] * D + rd[:, None], mask=rn[None, :] < L, other=0.)
        s = tl.dot(q, k) * sm_scale
        s = tl.where(rn[None, :] < L, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2((s - m_new[:, None]) * 1.44269504)
        alpha = tl.math.exp2((m_i - m_new) * 1.44269504)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + rn[:, None] * D + rd[None, :], mask=rn[:, None] < L, other=0.)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], acc.to(tl.float16), mask=rm[:, None] < L)


@triton.jit
def argmax_rows(x_ptr, idx_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + c, mask=c < N, other=float("-inf"))
    tl.store(idx_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def int_ops(a_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n, other=0)
    b = (a >> 3) ^ (a << 2) | (a & 7)
    b = b // 3 + b % 5
    b = tl.minimum(b, 1000)
    tl.store(out_ptr + offs, b.to(tl.int64) * 3, mask=offs < n)


@triton.jit
def atomics_global(x_ptr, sum_ptr, max_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.)
    tl.atomic_add(sum_ptr, tl.sum(x, 0))
    tl.atomic_max(max_ptr + (offs % 4), x, mask=m)
    tl.atomic_min(max_ptr + 4 + (offs % 4), x, mask=m, sem="relaxed")


@triton.jit
def reshape_join(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(x_ptr + BLOCK + offs)
    z = tl.join(x, y)  # [BLOCK, 2]
    z = tl.reshape(z, [2 * BLOCK])
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), z)
    a, b = tl.split(tl.reshape(z, [BLOCK, 2]))
    tl.store(out_ptr + 2 * BLOCK + offs, a - b)


@triton.jit
def fp8_cast(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.)
    y = x.to(tl.float8e4nv).to(tl.float32)
    tl.store(out_ptr + offs, y, mask=offs < n)


@triton.jit
def math_fns(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.)
    y = tl.sin(x) + tl.cos(x) + tl.log(tl.abs(x) + 1) + tl.sqrt_rn(tl.abs(x)) + tl.rsqrt(tl.abs(x) + 1)
    y += tl.sigmoid(x)
    y += tl.exp2(x) + tl.log2(tl.abs(x) + 2) + tl.floor(x) + tl.ceil(x) + tl.fma(x, x, 1.)
    y += tl.div_rn(x, 3.0) + tl.clamp(x, -1., 1.) + tl.exp(1.5 * tl.log(tl.abs(x) + 1))
    tl.store(out_ptr + offs, y, mask=offs < n)


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 256}, num_warps=8)],
                 key=["n"])
@triton.jit
def add_tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def add_heur(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)
    else:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


@triton.jit(do_not_specialize=["n"])
def add_nospec(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


@triton.jit
def libdevice_fns(x_ptr, out_ptr, n, BLOCK: tl.constexpr):

    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.)
    y = libdevice.tanh(x) + libdevice.pow(tl.abs(x), 1.5) + libdevice.erf(x) + libdevice.rint(x)
    tl.store(out_ptr + offs, y, mask=offs < n)


@triton.jit
def optional_bias(x_ptr, b_ptr, out_ptr, n, HAS_BIAS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if HAS_BIAS:
        x += tl.load(b_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x, mask=offs < n)


@triton.jit
def pair_add(a0, a1, b0, b1):
    return a0 + b0, tl.maximum(a1, b1)


@triton.jit
def assoc_scan(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s, m = tl.associative_scan((x, x), 0, pair_add)
    tl.store(out_ptr + offs, s + m)


@triton.jit
def int8_dot(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    # the tiles' type is the pointers': int8 here, also run with float8_e4m3fn and float8_e5m2 arrays
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b))


@triton.jit
def fp16_out_dot(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b, out_dtype=tl.float16))


@triton.jit
def permute_gather(x_ptr, idx_ptr, out_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    y = tl.permute(x, (1, 0))
    idx = tl.load(idx_ptr + r)
    g = tl.gather(tl.load(x_ptr + r), idx, 0)
    tl.store(out_ptr + r[:, None] * B + r[None, :], y + g[None, :])


@triton.jit
def randint_kernel(out_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.randint(seed, offs)
    rn = tl.randn(seed, offs)
    tl.store(out_ptr + offs, r.to(tl.float32) * 0 + rn, mask=offs < n)


@triton.jit
def swizzled(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m, pid_n = tl.swizzle2d(tl.program_id(0), tl.program_id(1), M // BM, N // BN, 2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], x + 1)


@triton.jit
def static_checks(x_ptr, out_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.device_assert(x == x, "nan")
    tl.store(out_ptr + offs, tl.cast(x, tl.int32, bitcast=True))


@triton.jit
def ptxas_rejects(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # Triton 3.9 emits ld.global.cg.L1::evict_first for this, which ptxas refuses
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, eviction_policy="evict_first", cache_modifier=".cg"))


@triton.jit
def grid3(x_ptr, out_ptr, B: tl.constexpr):
    i = tl.program_id(0)
    j = tl.program_id(1)
    k = tl.program_id(2)
    offs = tl.arange(0, B)
    base = ((k * tl.num_programs(1) + j) * tl.num_programs(0) + i) * B
    tl.store(out_ptr + base + offs, tl.load(x_ptr + base + offs) + k)


@triton.jit
def atomic_half(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.)
    tl.atomic_add(acc_ptr + offs % 8, x, mask=offs < n)


@triton.jit
def bf16_out(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, (x * 3).to(tl.bfloat16))


@triton.jit
def shape_ops(x_ptr, out_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r)
    y = tl.flip(x, 0)
    z = tl.interleave(x, y)
    w = tl.broadcast_to(tl.expand_dims(x, 0), (B, B))
    tl.store(out_ptr + tl.arange(0, 2 * B), z)
    tl.store(out_ptr + 2 * B + r[:, None] * B + r[None, :], w)


@triton.jit
def max_with_index(x_ptr, v_ptr, i_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + row * N + c)
    v, i = tl.max(x, axis=0, return_indices=True)
    tl.store(v_ptr + row, v)
    tl.store(i_ptr + row, i)


@triton.jit
def big_n(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs % 1024, tl.load(x_ptr + offs % 1024, mask=m), mask=m)


@triton.jit
def inline_asm(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r", [x], dtype=tl.int32, is_pure=True,
                                  pack=1)
    tl.store(out_ptr + offs, y)


@triton.jit
def volatile_load(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, volatile=True))


@triton.jit
def device_print(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.device_print("x", x)


@triton.jit
def int8_to_float(x_ptr, s_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    q = tl.load(x_ptr + offs)
    s = tl.load(s_ptr)
    tl.store(out_ptr + offs, q.to(tl.float32) * s)


@triton.jit
def batched_dot(a_ptr, b_ptr, c_ptr, NB: tl.constexpr, B: tl.constexpr):
    i = tl.arange(0, NB)[:, None, None]
    r = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, B)[None, None, :]
    a = tl.load(a_ptr + i * B * B + r * B + c)
    b = tl.load(b_ptr + i * B * B + r * B + c)
    tl.store(c_ptr + i * B * B + r * B + c, tl.dot(a, b))


@triton.jit
def persistent(x_ptr, out_ptr, n_tiles, BLOCK: tl.constexpr, NUM_SMS: tl.constexpr):
    start = tl.program_id(0)
    for t in tl.range(start, n_tiles, NUM_SMS, flatten=True):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)


@triton.jit
def cat_kernel(x_ptr, out_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(x_ptr + r)
    b = tl.load(x_ptr + B + r)
    tl.store(out_ptr + tl.arange(0, 2 * B), tl.cat(a, b, can_reorder=True))


@triton.jit
def accumulate(x_ptr, acc_ptr, old_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(acc_ptr + offs, tl.load(x_ptr + offs))
    tl.store(old_ptr + offs, old)
