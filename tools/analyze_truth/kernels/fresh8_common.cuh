// fresh8_common.cuh -- small device helpers shared by fresh8_kernels.cu (nvcc) and fresh8_apps.cu (NVRTC).
// Warp and block scans/reductions, index helpers, the particle structs, and a few macros.
// Header-only, device-only; builds under both compilers.
#pragma once

#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <cstdint>
#endif

#define WARP 32
#define ALL_LANES 0xffffffffu
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define LANE_ID() ((int)(threadIdx.x & (WARP - 1)))
#define WARP_ID() ((int)(threadIdx.x / WARP))

// flat thread index of a 1-, 2- or 3-D block
#define TID_FLAT() ((int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)))

// 12-byte and 20-byte particles for the AoS/SoA kernels
struct Vec3f {
    float x, y, z;
};

struct Particle {
    float x, y, z;  // position
    int cell;       // owning cell, recomputed by the update
    float mass;
};

namespace f8 {

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int o = WARP / 2; o > 0; o >>= 1)
        v += __shfl_down_sync(ALL_LANES, v, o);
    return v;  // lane 0 holds the total
}

__device__ __forceinline__ int warp_allreduce_sum(int v)
{
#pragma unroll
    for (int o = WARP / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(ALL_LANES, v, o);
    return v;  // every lane holds the total
}

// inclusive warp scan (Kogge-Stone with shfl_up)
template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T v)
{
    const int lane = LANE_ID();
#pragma unroll
    for (int o = 1; o < WARP; o <<= 1) {
        T n = __shfl_up_sync(ALL_LANES, v, o);
        if (lane >= o)
            v += n;
    }
    return v;
}

// exclusive block scan of one int a thread (1-D blocks, a multiple of 32 threads); `warp_sums` holds >= 32 ints.
// Returns the exclusive prefix and the block total. Every thread of the block must call it.
__device__ __forceinline__ int block_exclusive_scan(int v, int *warp_sums, int &total)
{
    const int lane = LANE_ID(), wid = WARP_ID();
    const int nw = CEIL_DIV((int)blockDim.x, WARP);
    int inc = warp_inclusive_scan(v);
    if (lane == WARP - 1)
        warp_sums[wid] = inc;
    __syncthreads();
    if (wid == 0) {
        int s = lane < nw ? warp_sums[lane] : 0;
        s = warp_inclusive_scan(s);
        if (lane < nw)
            warp_sums[lane] = s;
    }
    __syncthreads();
    total = warp_sums[nw - 1];
    int base = wid > 0 ? warp_sums[wid - 1] : 0;
    __syncthreads();  // warp_sums is free again when this returns
    return base + inc - v;
}

// sum over a 1-D block; `scratch` holds >= 32 floats; every thread gets the total
__device__ __forceinline__ float block_reduce_sum(float v, float *scratch)
{
    v = warp_reduce_sum(v);
    const int nw = CEIL_DIV((int)blockDim.x, WARP);
    if (LANE_ID() == 0)
        scratch[WARP_ID()] = v;
    __syncthreads();
    if (WARP_ID() == 0) {
        v = LANE_ID() < nw ? scratch[LANE_ID()] : 0.f;
        v = warp_reduce_sum(v);
        if (LANE_ID() == 0)
            scratch[0] = v;
    }
    __syncthreads();
    v = scratch[0];
    __syncthreads();
    return v;
}

template <typename T>
__device__ __forceinline__ T clampv(T v, T lo, T hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

// 32-bit integer hash (murmur3 finaliser)
__device__ __forceinline__ unsigned hash32(unsigned k)
{
    k ^= k >> 16;
    k *= 0x85ebca6bu;
    k ^= k >> 13;
    k *= 0xc2b2ae35u;
    k ^= k >> 16;
    return k;
}

}  // namespace f8
