"""A kernel as torch.compile's generated code holds it: under @triton_heuristics.pointwise, which makes a
CachingAutotuner that keeps the JITFunction as .fn and its triton.Config list as .configs. torch is not imported
here: the stand-in below has the two attributes analyze reads, and the generated kernel's names and shape."""

import triton
import triton.language as tl


class CachingAutotuner:
    def __init__(self, fn, configs):
        self.fn, self.configs = fn, configs


def pointwise(size_hints, filename=None, triton_meta=None, inductor_meta=None):
    def decorator(fn):
        return CachingAutotuner(fn, [triton.Config({"XBLOCK": 256}, num_warps=4, num_stages=1),
                                     triton.Config({"XBLOCK": 1024}, num_warps=8, num_stages=1)])
    return decorator


@pointwise(size_hints={"x": 1024}, filename=__file__, triton_meta={"device_type": "cuda"}, inductor_meta={})
@triton.jit
def triton_poi_fused_mul_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    x1 = xindex // 4
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x0), tmp2, xmask)
