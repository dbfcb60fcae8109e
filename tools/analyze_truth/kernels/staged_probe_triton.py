"""Probe (issue 30): what a staged Triton matmul's A-tile copy costs. A float16 A tile of BK = 32 (64-byte rows)
is copied by cp.async, a quarter-warp taking two rows (two global lines) into one 128-byte shared row; Nsight
Compute's source view counts 1 wavefront a quarter for some of these copies and 2 for others (STAGED_A_COPY in
tests/test_analyze_truth.py). One program a launch, the pitch of A (stride_am, elements), K, the stages and the K
mask varied, B's rows 128 bytes (one line a quarter)."""

import triton
import triton.language as tl


@triton.jit
def mm_probe(a_ptr, b_ptr, c_ptr, K, stride_am, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             EVEN_K: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        if EVEN_K:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
            b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))
