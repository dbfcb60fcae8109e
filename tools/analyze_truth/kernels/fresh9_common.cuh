// fresh9_common.cuh -- helpers shared by fresh9_kernels.cu (nvcc) and fresh9_apps.cu (NVRTC): index macros, the
// block-shape constants of the shared-memory chapter, the small structs of the AoS experiments, and warp
// reductions. Header-only and device-only, so that both compilers take it.
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

#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif
#define FULL_MASK 0xffffffffu

#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define GTID_X() ((int)(blockIdx.x * blockDim.x + threadIdx.x))
#define GSTRIDE_X() ((int)(gridDim.x * blockDim.x))
#define LANE() ((int)(threadIdx.x % WARP_SIZE))
#define WARPID() ((int)(threadIdx.x / WARP_SIZE))

// the book's square and rectangular shared tiles
#define BDIMX_SQ 32
#define BDIMY_SQ 32

// --- structs for the array-of-structures experiments: 8, 12, 16 and 24 bytes, all 4-byte aligned --------------
struct Pt2 {  // 8 bytes
    float x, y;
};
struct Pt3 {  // 12 bytes
    float x, y, z;
};
struct Rgba {  // 16 bytes, but only 4-byte aligned (not a float4)
    float r, g, b, a;
};
struct Body {  // 24 bytes: position and velocity
    float px, py, pz;
    float vx, vy, vz;
};

namespace f9 {

template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
    for (int off = WARP_SIZE / 2; off > 0; off /= 2)
        v += __shfl_down_sync(FULL_MASK, v, off);
    return v;
}

__device__ __forceinline__ int warp_max(int v)
{
    for (int off = WARP_SIZE / 2; off > 0; off /= 2)
        v = max(v, __shfl_xor_sync(FULL_MASK, v, off));
    return v;
}

// the book's last-warp unrolling on a volatile pointer (needs 64 valid entries from s)
template <typename T>
__device__ __forceinline__ void warp_unroll_volatile(volatile T *s, int tid)
{
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

// field sums of the AoS structs, each field read on its own
__device__ __forceinline__ float weigh(const Pt2 *p, int i) { return p[i].x * 0.5f + p[i].y; }
__device__ __forceinline__ float weigh(const Pt3 *p, int i) { return p[i].x + p[i].y * 2.f + p[i].z * 3.f; }
__device__ __forceinline__ float weigh(const Rgba *p, int i)
{
    return (0.299f * p[i].r + 0.587f * p[i].g + 0.114f * p[i].b) * p[i].a;  // premultiplied luma
}
__device__ __forceinline__ float weigh(const Body *p, int i)
{
    const float kin = p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz;
    return 0.5f * kin + 9.81f * p[i].pz;
}

}  // namespace f9
