// Shared helpers of the third held-out batch (fresh3_kernels.cu, fresh3_apps.cu): grid indexing macros of the
// finite-difference codes, a 16-bit float pair of its own (NVRTC's pip wheel has no cuda_fp16.h), warp sums.
#pragma once

#define IX2(x, y, nx) ((y) * (nx) + (x))
#define IX3(x, y, z, nx, ny) (((z) * (ny) + (y)) * (nx) + (x))
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

__device__ __forceinline__ int warp_sum_int(int v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, o);
    return v;
}

// two IEEE halves in one 32-bit word, the way __half2 lays them out (low half first)
struct half2_t {
    unsigned int bits;
};

__device__ __forceinline__ float2 h2_to_f2(half2_t h)
{
    unsigned short lo = (unsigned short)(h.bits & 0xffffu), hi = (unsigned short)(h.bits >> 16);
    float a, b;
    asm("cvt.f32.f16 %0, %1;" : "=f"(a) : "h"(lo));
    asm("cvt.f32.f16 %0, %1;" : "=f"(b) : "h"(hi));
    return make_float2(a, b);
}

__device__ __forceinline__ unsigned short f_to_h(float f)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

// a particle as the molecular-dynamics codes keep it: position and mass, velocity and charge
struct __align__(16) Particle {
    float4 posm;
    float4 velq;
};

// a cell of the 2-D Euler equations: density, momenta, energy, pressure (20 bytes, packed)
struct EulerCell {
    float rho, mu, mv, E, p;
};
