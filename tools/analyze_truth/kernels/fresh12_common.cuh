// fresh12_common.cuh -- helpers shared by fresh12_apps.cu (NVRTC) and fresh12_kernels.cu (nvcc): the small
// integer typedefs NVRTC lacks, the cuda-samples' multiply macros, warp reductions, the comparator and binary
// searches of the sorting samples, an 8-point DCT, and the textbook's co-rank functions for the tiled merge.
// Device-only and header-only, so that both compilers take it.
#pragma once

#ifdef __CUDACC_RTC__
typedef unsigned int uint32_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <cstdint>
#endif

#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif
#define FULL_MASK 0xffffffffu
#define UINT_MAX_ 0xffffffffu

// the samples' 24-bit multiplies (fast on the GPUs the samples were written for, kept as they wrote them)
#define UMUL(a, b) __umul24((a), (b))
#define UMAD(a, b, c) (UMUL((a), (b)) + (c))
#define IMUL(a, b) __mul24((a), (b))

#define iDivUp(a, b) (((a) % (b) != 0) ? ((a) / (b) + 1) : ((a) / (b)))

typedef unsigned int uint;
typedef unsigned char uchar;

namespace f12 {

__device__ __forceinline__ float exp_(float x) { return expf(x); }
__device__ __forceinline__ double exp_(double x) { return exp(x); }

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, off));
    return v;
}

// ---- sortingNetworks / mergeSort ------------------------------------------------------------------------------
__device__ __forceinline__ void Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint dir)
{
    uint t;
    if ((keyA > keyB) == dir) {
        t = keyA;
        keyA = keyB;
        keyB = t;
        t = valA;
        valA = valB;
        valB = t;
    }
}

// positions of val in a sorted run of L keys: the number of keys ordered before it (exclusive: equal keys not
// counted; inclusive: counted); stride is a power of two >= L
__device__ __forceinline__ uint binarySearchInclusive(uint val, const uint *data, uint L, uint stride, uint sortDir)
{
    if (L == 0)
        return 0;
    uint pos = 0;
    for (; stride > 0; stride >>= 1) {
        const uint newPos = umin(pos + stride, L);
        if ((sortDir && data[newPos - 1] <= val) || (!sortDir && data[newPos - 1] >= val))
            pos = newPos;
    }
    return pos;
}

__device__ __forceinline__ uint binarySearchExclusive(uint val, const uint *data, uint L, uint stride, uint sortDir)
{
    if (L == 0)
        return 0;
    uint pos = 0;
    for (; stride > 0; stride >>= 1) {
        const uint newPos = umin(pos + stride, L);
        if ((sortDir && data[newPos - 1] < val) || (!sortDir && data[newPos - 1] > val))
            pos = newPos;
    }
    return pos;
}

// ---- an orthonormal 8-point DCT-II over v[0], v[stride], ..., v[7 * stride], in place ------------------------
__device__ __forceinline__ void dct8_inplace(float *v, int stride)
{
    float x[8];
#pragma unroll
    for (int n = 0; n < 8; ++n)
        x[n] = v[n * stride];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        const float ck = k == 0 ? 0.35355339f : 0.5f;
        float s = 0.f;
#pragma unroll
        for (int n = 0; n < 8; ++n)
            s += x[n] * cospif((2 * n + 1) * k / 16.0f);
        v[k * stride] = ck * s;
    }
}

// ---- PMPP's co-rank: how many of the first k outputs of merge(A, B) come from A --------------------------------
__device__ __forceinline__ int co_rank(int k, const int *A, int m, const int *B, int n)
{
    int i = k < m ? k : m;
    int j = k - i;
    int i_low = 0 > (k - n) ? 0 : k - n;
    int j_low = 0 > (k - m) ? 0 : k - m;
    int delta;
    bool active = true;
    while (active) {
        if (i > 0 && j < n && A[i - 1] > B[j]) {
            delta = ((i - i_low + 1) >> 1);
            j_low = j;
            j = j + delta;
            i = i - delta;
        } else if (j > 0 && i < m && B[j - 1] >= A[i]) {
            delta = ((j - j_low + 1) >> 1);
            i_low = i;
            i = i + delta;
            j = j - delta;
        } else {
            active = false;
        }
    }
    return i;
}

// the same over circular buffers of tile_size elements whose first live element sits at A_S_start / B_S_start
__device__ __forceinline__ int co_rank_circular(int k, const int *A, int m, const int *B, int n, int A_S_start,
                                                int B_S_start, int tile_size)
{
    int i = k < m ? k : m;
    int j = k - i;
    int i_low = 0 > (k - n) ? 0 : k - n;
    int j_low = 0 > (k - m) ? 0 : k - m;
    int delta;
    bool active = true;
    while (active) {
        const int i_cir = (A_S_start + i) % tile_size;
        const int i_m_1_cir = (A_S_start + i - 1) % tile_size;
        const int j_cir = (B_S_start + j) % tile_size;
        const int j_m_1_cir = (B_S_start + j - 1) % tile_size;
        if (i > 0 && j < n && A[i_m_1_cir] > B[j_cir]) {
            delta = ((i - i_low + 1) >> 1);
            j_low = j;
            i = i - delta;
            j = j + delta;
        } else if (j > 0 && i < m && B[j_m_1_cir] >= A[i_cir]) {
            delta = ((j - j_low + 1) >> 1);
            i_low = i;
            i = i + delta;
            j = j - delta;
        } else {
            active = false;
        }
    }
    return i;
}

__device__ __forceinline__ void merge_sequential_circular(const int *A, int m, const int *B, int n, int *C,
                                                          int A_S_start, int B_S_start, int tile_size)
{
    int i = 0, j = 0, k = 0;
    while (i < m && j < n) {
        const int i_cir = (A_S_start + i) % tile_size;
        const int j_cir = (B_S_start + j) % tile_size;
        if (A[i_cir] <= B[j_cir]) {
            C[k++] = A[i_cir];
            i++;
        } else {
            C[k++] = B[j_cir];
            j++;
        }
    }
    if (i == m) {
        for (; j < n; j++)
            C[k++] = B[(B_S_start + j) % tile_size];
    } else {
        for (; i < m; i++)
            C[k++] = A[(A_S_start + i) % tile_size];
    }
}

}  // namespace f12
