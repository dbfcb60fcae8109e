// Shared helpers of the sixth held-out batch (fresh6_kernels.cu, fresh6_apps.cu): the CUDA C++ library headers
// (WMMA, libcu++ pipelines and barriers, cooperative groups, CUB), an XOR swizzle for 16-byte chunks, ldmatrix
// wrappers, the particle layouts and a float <-> radix-key union.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline_primitives.h>
#include <cub/cub.cuh>
#include <mma.h>

namespace cg = cooperative_groups;

#define F6_FULL 0xffffffffu

// ---- swizzled tiles: a row of 64 halfs is eight 16-byte chunks; chunk c of row r lives at c ^ (r & 7)
__device__ __forceinline__ int f6_swz_chunk(int row, int chunk) { return chunk ^ (row & 7); }
// offset in halfs of element (row, col) of a swizzled [rows][64] half tile
__device__ __forceinline__ int f6_swz_offset(int row, int col)
{
    return row * 64 + (f6_swz_chunk(row, col >> 3) << 3) + (col & 7);
}

// ---- ldmatrix through inline PTX (what CUTLASS's SM75_U32x4_LDSM_N does)
__device__ __forceinline__ void f6_ldmatrix_x4(uint32_t (&r)[4], const void *smem)
{
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
__device__ __forceinline__ void f6_ldmatrix_x2_trans(uint32_t (&r)[2], const void *smem)
{
    const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
}

// ---- particles: a 20-byte AoS record, and the float3/float4 layouts
struct F6Particle {
    float x, y, z;
    float mass;
    int cell;
};
static_assert(sizeof(F6Particle) == 20, "20-byte particle");

// ---- radix keys: a float's bits flipped so that unsigned order is float order
union F6FloatBits {
    float f;
    unsigned int u;
    int i;
};
__device__ __forceinline__ unsigned f6_float_to_key(float v)
{
    F6FloatBits b;
    b.f = v;
    return (b.i < 0) ? ~b.u : (b.u | 0x80000000u);
}

// an RGB565 pixel as bitfields
struct F6Rgb565 {
    unsigned short b : 5;
    unsigned short g : 6;
    unsigned short r : 5;
};

struct F6MaxOp {
    template <typename T>
    __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

__device__ __forceinline__ float f6_warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(F6_FULL, v, o);
    return v;
}

// double max in global memory through a 64-bit compare-and-swap loop
__device__ __forceinline__ double f6_atomic_max_f64(double *addr, double v)
{
    unsigned long long *p = reinterpret_cast<unsigned long long *>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= v)
            break;
        old = atomicCAS(p, assumed, __double_as_longlong(v));
    } while (assumed != old);
    return __longlong_as_double(old);
}
