// cuda_fp16 / cuda_bf16: conversions with rounding modes, packed arithmetic, min/max, relu and saturation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void half_ops(const float* a, const float* b, float* out)
{
    int t = threadIdx.x;
    float x = a[t], y = b[t];
    float* o = out + t * 16;
    __half hx = __float2half_rn(x), hy = __float2half_rz(y);
    o[0] = __half2float(hx);
    o[1] = __half2float(hy);
    o[2] = __half2float(__float2half_rd(x));
    o[3] = __half2float(__float2half_ru(x));
    __half2 p = __floats2half2_rn(x, y), q = __floats2half2_rn(y, 0.5f);
    __half2 f = __hfma2(p, q, p);
    o[4] = __low2float(f);
    o[5] = __high2float(f);
    __half2 mn = __hmin2(p, q), mx = __hmax2(p, q);
    o[6] = __low2float(mn) + __high2float(mx) * 8.0f;
    o[7] = __half2float(__hfma_relu(hx, hy, hx));
    o[8] = __half2float(__hadd_sat(hx, hy));
    __nv_bfloat16 bx = __float2bfloat16_rn(x), by = __float2bfloat16_rz(y);
    o[9] = __bfloat162float(bx) + __bfloat162float(by) * 4.0f;
    __nv_bfloat162 bp = __floats2bfloat162_rn(x, y), bq = __floats2bfloat162_rn(y, x);
    __nv_bfloat162 bf = __hfma2(bp, bq, bp);
    o[10] = __low2float(bf);
    o[11] = __high2float(bf);
    __nv_bfloat162 bmn = __hmin2(bp, bq), bmx = __hmax2(bp, bq);
    o[12] = __low2float(bmn) - __high2float(bmx);
    o[13] = __half2float(__float2half_rn(x * 70000.0f));  // overflow to inf
    o[14] = (float)__half2int_rz(__float2half_rn(x * 100.0f)) + (float)__bfloat162int_rd(__float2bfloat16(y * 100.0f)) * 1000.0f;
    o[15] = __bfloat162float(__hmax2(bp, __float2bfloat162_rn(0.0f)).x);
}

__global__ void fast_math(const float* a, float* out)
{
    int t = threadIdx.x;
    float x = a[t];
    out[t * 4 + 0] = exp2f(x);
    out[t * 4 + 1] = __expf(x);
    out[t * 4 + 2] = tanhf(x);
    out[t * 4 + 3] = __saturatef(x * 2.0f);
}

// Half-precision math functions (packed comparisons inside), FP8 conversions and bit casts.
#include <cuda/std/bit>
#include <cuda_fp8.h>

__global__ void half_functions(const float* a, float* out)
{
    int t = threadIdx.x;
    __half h = __float2half(a[t]);
    float* o = out + t * 8;
    o[0] = __half2float(hexp(h));
    o[1] = __half2float(hsqrt(__habs(h)));
    o[2] = __half2float(htanh_approx(h));
    __nv_fp8_e4m3 f8(a[t] * 10.0f);
    o[3] = (float)f8;
    __nv_fp8x2_e5m2 pair(make_float2(a[t], -a[t]));
    float2 back = (float2)pair;
    o[4] = back.x + back.y * 3;
    o[5] = cuda::std::bit_cast<float>(cuda::std::bit_cast<unsigned>(a[t]) ^ 0x80000000u);
    __half2 h2 = __floats2half2_rn(a[t], 1.0f);
    o[6] = __low2float(h2exp(h2)) + __high2float(__hneg2(h2));
    o[7] = __half2float(__hdiv(h, __float2half(0.75f)));
}
