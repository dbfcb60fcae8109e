// Shared helpers of the seventh held-out batch (fresh7_kernels.cu, built by nvcc, and fresh7_apps.cu, built by
// NVRTC): fixed-width integer types where NVRTC has no <cstdint>, warp reductions, a Welford accumulator, the
// ATen-style grid-stride loop macro and OpenCV-style border and saturation helpers. Header-only, device-only.
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
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#else
#include <cstdint>
#endif

#define F7_WARP_SIZE 32
#define F7_FULL_MASK 0xffffffffu

#define F7_DIV_UP(a, b) (((a) + (b) - 1) / (b))

// ATen's CUDA_KERNEL_LOOP with 64-bit indices: the loop variable runs over [0, n) across the whole grid
#define F7_KERNEL_LOOP(i, n)                                                                                   \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, _f7_step = (int64_t)blockDim.x * gridDim.x; \
         i < (int64_t)(n); i += _f7_step)

namespace f7 {

template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(F7_FULL_MASK, v, off, F7_WARP_SIZE);
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_max(T v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const T o = __shfl_xor_sync(F7_FULL_MASK, v, off, F7_WARP_SIZE);
        v = v > o ? v : o;
    }
    return v;
}

// sum of one float a thread over the whole block; `scratch` holds at least 32 floats. Every thread gets the sum.
__device__ __forceinline__ float block_sum(float v, float *scratch)
{
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    v = warp_sum(v);
    __syncthreads();  // scratch may still be read by a previous call
    if (lane == 0)
        scratch[wid] = v;
    __syncthreads();
    v = lane < nwarps ? scratch[lane] : 0.f;
    return warp_sum(v);
}

__device__ __forceinline__ float block_max(float v, float *scratch)
{
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    v = warp_max(v);
    __syncthreads();
    if (lane == 0)
        scratch[wid] = v;
    __syncthreads();
    v = lane < nwarps ? scratch[lane] : -3.402823466e38f;
    return warp_max(v);
}

// Welford's running mean / M2, with Chan's merge of two partial results
struct WelfordData {
    float mean;
    float m2;
    float n;
};

__device__ __forceinline__ WelfordData welford_push(WelfordData a, float x)
{
    a.n += 1.f;
    const float d = x - a.mean;
    a.mean += d / a.n;
    a.m2 += d * (x - a.mean);
    return a;
}

__device__ __forceinline__ WelfordData welford_merge(WelfordData a, WelfordData b)
{
    const float n = a.n + b.n;
    if (n == 0.f)
        return a;
    const float d = b.mean - a.mean;
    const float nb_over_n = b.n / n;
    WelfordData r;
    r.mean = a.mean + d * nb_over_n;
    r.m2 = a.m2 + b.m2 + d * d * a.n * nb_over_n;
    r.n = n;
    return r;
}

__device__ __forceinline__ WelfordData welford_warp(WelfordData a)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        WelfordData b;
        b.mean = __shfl_down_sync(F7_FULL_MASK, a.mean, off);
        b.m2 = __shfl_down_sync(F7_FULL_MASK, a.m2, off);
        b.n = __shfl_down_sync(F7_FULL_MASK, a.n, off);
        a = welford_merge(a, b);
    }
    return a;
}

// ---- OpenCV-ish helpers
__device__ __forceinline__ uint8_t saturate_u8(float v)
{
    const int i = __float2int_rn(v);
    return (uint8_t)(i < 0 ? 0 : (i > 255 ? 255 : i));
}
__device__ __forceinline__ short saturate_s16(int v)
{
    return (short)(v < -32768 ? -32768 : (v > 32767 ? 32767 : v));
}
__device__ __forceinline__ int border_replicate(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }
__device__ __forceinline__ int border_reflect101(int i, int n)
{
    if (n == 1)
        return 0;
    while (i < 0 || i >= n) {
        if (i < 0)
            i = -i;
        if (i >= n)
            i = 2 * n - 2 - i;
    }
    return i;
}

// a row of an image whose rows are `step` bytes apart (cv::cuda::PtrStep)
template <typename T>
__device__ __forceinline__ T *row_ptr(T *base, size_t step, int y)
{
    return reinterpret_cast<T *>(reinterpret_cast<unsigned char *>(base) + (size_t)y * step);
}
template <typename T>
__device__ __forceinline__ const T *row_ptr(const T *base, size_t step, int y)
{
    return reinterpret_cast<const T *>(reinterpret_cast<const unsigned char *>(base) + (size_t)y * step);
}

}  // namespace f7
