"""Two ways a Triton file fails to define a kernel with no GPU and no torch (for smemlab's tests): an autotune
decorator whose configs ask torch for the device, and a kernel with **meta, which Triton itself refuses."""
import torch
import triton
import triton.language as tl


def keep(conf):
    return torch.cuda.get_device_capability()[0] >= 9 or conf.num_stages < 3


@triton.autotune(configs=list(filter(keep, [triton.Config({"BLOCK": 256}, num_warps=4, num_stages=3)])), key=["n"])
@triton.jit
def scale_rows(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


@triton.jit
def old_style(x_ptr, n, **meta):
    offs = tl.arange(0, meta["BLOCK"])
    tl.store(x_ptr + offs, 0.0, mask=offs < n)
