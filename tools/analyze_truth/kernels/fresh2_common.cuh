// Shared helpers of the second held-out batch (fresh2_kernels.cu, fresh2_apps.cu), kept the way the CUDA
// samples keep theirs: the SharedMemory<T> trick for templated dynamic shared memory, the scan's bank
// padding macros, 24-bit multiplies and a couple of warp helpers.
#pragma once

#define IMUL(a, b) __mul24(a, b)
#define UMUL(a, b) __umul24(a, b)
#define WARP_SIZE 32
#define LOG2_WARP_SIZE 5

// the scan's padding (GPU Gems 3, ch. 39): one extra word every NUM_BANKS words
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

#ifndef iDivUp
#define iDivUp(a, b) (((a) + (b) - 1) / (b))
#endif

// dynamic shared memory of a template's element type (reduction sample's helper)
template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
    __device__ inline operator const T *() const
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};
template <> struct SharedMemory<double> {
    __device__ inline operator double *()
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
    __device__ inline operator const double *() const
    {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <typename T> __device__ __forceinline__ T warpReduceSum(unsigned mask, T v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(mask, v, offset);
    return v;
}

__device__ __forceinline__ float warpAllReduceMax(float v)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
}

__device__ __forceinline__ float warpAllReduceSum(float v)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, mask);
    return v;
}

// a body of an N-body code: position and mass in one float4, velocity in another
struct Body {
    float4 pos;  // x, y, z, mass
    float4 vel;  // x, y, z, unused
};
