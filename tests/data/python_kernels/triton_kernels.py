"""Triton kernels for tests/test_analyze_python.py (written for smemlab)."""

import triton
import triton.language as tl


@triton.jit
def transpose(out_ptr, in_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)[:, None]
    c = tl.arange(0, BLOCK)[None, :]
    x = tl.load(in_ptr + r * n + c)
    tl.store(out_ptr + r * n + c, tl.trans(x))


@triton.jit
def softmax(out_ptr, in_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * cols + c, mask=c < cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * cols + c, e / tl.sum(e, axis=0), mask=c < cols)


@triton.jit
def matmul(c_ptr, a_ptr, b_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.arange(0, BM)[:, None]
    n = tl.arange(0, BN)[None, :]
    k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + m * K + (k0 + k)[None, :])
        b = tl.load(b_ptr + (k0 + k)[:, None] * BN + n)
        acc += tl.dot(a, b)
    tl.store(c_ptr + m * BN + n, acc)
