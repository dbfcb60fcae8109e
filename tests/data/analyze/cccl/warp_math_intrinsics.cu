// Warp intrinsics under partial and per-lane masks, and the integer and float PTX that CCCL's
// arithmetic helpers emit, written directly.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void warp_votes(const int* in, unsigned* out)
{
    int t = threadIdx.x, x = in[t];
    unsigned* o = out + t * 8;
    unsigned half = (t & 16) ? 0xFFFF0000u : 0x0000FFFFu;  // each half of the warp votes on its own
    o[0] = __uni_sync(half, x & 1);
    unsigned same;
    int pred;
    asm("{ .reg .pred p; match.all.sync.b32 %0|p, %2, %3; selp.s32 %1, 1, 0, p; }" : "=r"(same), "=r"(pred) : "r"(x & 1), "r"(half));
    o[1] = same;
    o[2] = pred;
    o[3] = __reduce_and_sync(half, x) ^ __reduce_or_sync(half, x);
    o[4] = __reduce_xor_sync(half, x) + __reduce_min_sync(half, (unsigned)x);
    o[5] = 0;
    if (x & 2) {
        __nanosleep(100);
        o[5] = __activemask();
    }
    o[6] = __match_any_sync(half, x & 3);
    unsigned leader;
    asm("{ .reg .pred p; elect.sync %0|p, %1; }" : "=r"(leader) : "r"(half));
    o[7] = leader;
}

__global__ void int_math(const int* a, const int* b, long long* out)
{
    int t = threadIdx.x, x = a[t], y = b[t];
    long long* o = out + t * 6;
    unsigned r;
    asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(x ^ y));
    o[0] = r;
    long long w;
    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(w) : "r"(x), "r"(y), "l"((long long)x << 20));
    o[1] = w;
    long long u = (long long)x * 0x9E3779B97F4A7C1 + y, v = (long long)y * 0x7F4A7C15F39CC06 - x;
    o[2] = __mul64hi(u, v);
    o[3] = (long long)__umul64hi((unsigned long long)u, (unsigned long long)v);
    o[4] = __mulhi(x, y) + __umulhi(x, y);
    int h;
    asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(h) : "r"(x), "r"(y), "r"(0x7FFFFF00));
    o[5] = h;
}

__global__ void float_math(const float* a, const float* b, float* out)
{
    int t = threadIdx.x;
    float x = a[t], y = b[t], r;
    float* o = out + t * 8;
    asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x * 4));
    o[0] = r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x * 10));
    o[1] = r;
    __half2 p = __floats2half2_rn(x, y), q = __floats2half2_rn(y, __int_as_float(0x7fc00000));
    __half2 mn;
    asm("min.NaN.f16x2 %0, %1, %2;" : "=r"(*(unsigned*)&mn) : "r"(*(unsigned*)&p), "r"(*(unsigned*)&q));
    o[2] = __low2float(mn);
    o[3] = __high2float(mn);  // NaN: .NaN propagates it
    __half2 mx = __hmax2(p, q);
    o[4] = __high2float(mx);  // without .NaN the other operand wins
    __nv_bfloat162 bp = __floats2bfloat162_rn(x, y), bq = __floats2bfloat162_rn(y, -1.0f);
    __nv_bfloat162 f = __hfma2_relu(bp, bq, bp);
    o[5] = __low2float(f) + 8 * __high2float(f);
    unsigned packed;
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(x * 100000), "f"(y));
    o[6] = __half2float(__ushort_as_half(packed >> 16)) + __half2float(__ushort_as_half(packed & 0xFFFF));
    unsigned short sat;
    asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(sat) : "f"(x * 100000));
    o[7] = __half2float(__ushort_as_half(sat));
}
