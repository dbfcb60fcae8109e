"""A Triton file that picks its autotune configs by asking the active driver for the target, in the
kernel's own decorator, as Triton's tutorials do (written for smemlab): with no GPU, that lookup is what
fails while the file imports."""

import triton
import triton.language as tl


def on_nvidia() -> bool:
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def configs():
    if on_nvidia():
        return [triton.Config({"BM": 64, "BN": 64, "BK": 32}, num_warps=4, num_stages=3),
                triton.Config({"BM": 128, "BN": 64, "BK": 32}, num_warps=8, num_stages=4)]
    return [triton.Config({"BM": 32, "BN": 32, "BK": 32}, num_warps=2, num_stages=2)]


@triton.autotune(configs=configs(), key=["M", "N", "K"])
@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rows[:, None] * K + (k0 + ks)[None, :], mask=(rows[:, None] < M) & (k0 + ks < K)[None, :],
                    other=0.0)
        b = tl.load(b_ptr + (k0 + ks)[:, None] * N + cols[None, :], mask=(k0 + ks < K)[:, None] & (cols < N)[None, :],
                    other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc.to(tl.float16),
             mask=(rows[:, None] < M) & (cols[None, :] < N))
