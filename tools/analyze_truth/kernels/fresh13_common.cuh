// fresh13_common.cuh -- helpers shared by fresh13_apps.cu (NVRTC) and fresh13_kernels.cu (nvcc): the integer
// typedefs NVRTC lacks, the CUDA samples' SharedMemory<T> (helper_cuda's extern-shared trick, with its double
// specialisation), a piece of helper_math.h (float4 arithmetic), the samples' 24-bit multiply macro and the usual
// min/max/clamp macros of the benchmark suites. Device-only and header-only, so that both compilers take it.
#pragma once

#ifdef __CUDACC_RTC__
typedef unsigned int uint32_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define FLT_MAX 3.402823466e+38F
#else
#include <cfloat>
#include <cstdint>
#endif

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;

#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif

#define MUL(a, b) __umul24((a), (b))
#define IMUL(a, b) __mul24((a), (b))
#define iDivUp(a, b) (((a) % (b) != 0) ? ((a) / (b) + 1) : ((a) / (b)))

// ---- SharedMemory<T>: a typed view of the dynamic shared memory (the samples' reduction/nbody idiom) ----------
template <class T>
struct SharedMemory {
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

template <>
struct SharedMemory<double> {
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

// ---- helper_math.h, the float4 part the box filter needs ------------------------------------------------------
inline __device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
inline __device__ float4 operator-(float4 a, float4 b) { return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
inline __device__ float4 operator*(float4 a, float b) { return make_float4(a.x * b, a.y * b, a.z * b, a.w * b); }
inline __device__ void operator+=(float4 &a, float4 b)
{
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
    a.w += b.w;
}
inline __device__ void operator-=(float4 &a, float4 b)
{
    a.x -= b.x;
    a.y -= b.y;
    a.z -= b.z;
    a.w -= b.w;
}
inline __device__ float3 make_float3_(float4 a) { return make_float3(a.x, a.y, a.z); }

// ---- Rodinia's / Parboil's little macros -------------------------------------------------------------------------
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
#define MAX(a, b) ((a) >= (b) ? (a) : (b))
