// Shared types and helpers of the fresh held-out batch (fresh_global.cu, fresh_apps.cu), in the way a
// small project keeps its structs and warp helpers in one header.
#pragma once

#define FULL_MASK 0xffffffffu
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))  // column-major, as cuBLAS's examples write it

// a particle as an N-body or SPH code lays it out: 32 bytes
struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    float charge;
};

// a mesh vertex: position and normal, 24 bytes
struct Vertex {
    float3 pos;
    float3 normal;
};

// a tagged sample: 20 bytes, 4-byte aligned
struct Record20 {
    int id;
    float x, y, z, w;
};

// a key and its value: 8 bytes, read as one 64-bit word
struct __align__(8) KeyVal {
    int key;
    float val;
};

// an FIR filter's settings, kept in global memory and copied by each thread
struct FilterParams {
    int taps;
    float coef[9];
    float gain;
    float bias;
};

__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__device__ __forceinline__ float warp_all_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
}

__device__ __forceinline__ int clamp_i(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

// 16-bit float pairs without cuda_fp16.h / cuda_bf16.h (NVRTC's pip wheel ships neither), as header-free
// NVRTC projects write them: the bits, converted with cvt
struct __align__(4) half2_t {
    unsigned short x, y;
};
struct __align__(4) bf162_t {
    unsigned short x, y;
};

__device__ __forceinline__ float half_to_float(unsigned short h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}

__device__ __forceinline__ unsigned short float_to_half(float f)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}

__device__ __forceinline__ float2 half2_to_float2(half2_t v)
{
    return make_float2(half_to_float(v.x), half_to_float(v.y));
}

__device__ __forceinline__ half2_t float2_to_half2(float a, float b)
{
    half2_t r;
    r.x = float_to_half(a);
    r.y = float_to_half(b);
    return r;
}

__device__ __forceinline__ float2 bf162_to_float2(bf162_t v)
{
    return make_float2(__uint_as_float((unsigned)v.x << 16), __uint_as_float((unsigned)v.y << 16));
}

__device__ __forceinline__ unsigned short float_to_bf16(float f)  // round to nearest even
{
    unsigned u = __float_as_uint(f);
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

__device__ __forceinline__ bf162_t float2_to_bf162(float a, float b)
{
    bf162_t r;
    r.x = float_to_bf16(a);
    r.y = float_to_bf16(b);
    return r;
}
