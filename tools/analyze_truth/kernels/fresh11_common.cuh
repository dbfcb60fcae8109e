// fresh11_common.cuh -- helpers shared by fresh11_kernels.cu (nvcc) and fresh11_apps.cu (NVRTC): accumulate-type
// traits, Welford statistics, warp and block reductions through one shared value per warp, saturating casts,
// border handling for the image kernels and the finite-difference coefficients. Header-only and device-only, so
// that both compilers take it.
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

#ifndef C10_WARP_SIZE
#define C10_WARP_SIZE 32
#endif
#define F11_FULL_MASK 0xffffffffu
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define CUDA_KERNEL_LOOP(i, n) \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (int64_t)blockDim.x * gridDim.x)

namespace f11 {

// ---- accumulate types, as ATen's acc_type<scalar_t, /*is_cuda=*/true> -----------------------------------------
template <typename T>
struct AccType {
    typedef T type;
};
template <>
struct AccType<unsigned char> {
    typedef int type;
};
template <typename T>
using acc_type = typename AccType<T>::type;

template <typename T>
__device__ __forceinline__ T numeric_max();
template <>
__device__ __forceinline__ float numeric_max<float>() { return __int_as_float(0x7f800000); }
template <>
__device__ __forceinline__ double numeric_max<double>() { return __longlong_as_double(0x7ff0000000000000LL); }
template <>
__device__ __forceinline__ int numeric_max<int>() { return 0x7fffffff; }

__device__ __forceinline__ float exp_(float x) { return expf(x); }
__device__ __forceinline__ double exp_(double x) { return exp(x); }
__device__ __forceinline__ float rsqrt_(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt_(double x) { return rsqrt(x); }

// ---- functors ------------------------------------------------------------------------------------------------
struct SumOp {
    template <typename T>
    __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};
struct MaxOp {
    template <typename T>
    __device__ __forceinline__ T operator()(T a, T b) const { return a > b ? a : b; }
};

template <typename T, typename Op>
__device__ __forceinline__ T warp_all_reduce(T v, Op op)
{
#pragma unroll
    for (int off = C10_WARP_SIZE / 2; off > 0; off >>= 1)
        v = op(v, __shfl_xor_sync(F11_FULL_MASK, v, off));
    return v;
}

// Every thread gets the block's result. smem holds one value per warp; the leading __syncthreads lets the caller
// run reductions back to back on the same buffer. blockDim.x a multiple of 32.
template <typename T, typename Op>
__device__ __forceinline__ T block_all_reduce(T v, Op op, T ident, T *smem)
{
    const int lane = threadIdx.x % C10_WARP_SIZE, wid = threadIdx.x / C10_WARP_SIZE;
    v = warp_all_reduce(v, op);
    __syncthreads();
    if (lane == 0)
        smem[wid] = v;
    __syncthreads();
    const int nw = blockDim.x / C10_WARP_SIZE;
    v = lane < nw ? smem[lane] : ident;
    return warp_all_reduce(v, op);
}

// ---- Welford ------------------------------------------------------------------------------------------------
template <typename acc_t>
struct WelfordData {
    acc_t mean;
    acc_t m2;
    acc_t n;
};

template <typename acc_t>
__device__ __forceinline__ WelfordData<acc_t> welford_update(WelfordData<acc_t> w, acc_t x)
{
    const acc_t n = w.n + acc_t(1);
    const acc_t delta = x - w.mean;
    const acc_t mean = w.mean + delta / n;
    WelfordData<acc_t> r = {mean, w.m2 + delta * (x - mean), n};
    return r;
}

template <typename acc_t>
__device__ __forceinline__ WelfordData<acc_t> welford_combine(WelfordData<acc_t> a, WelfordData<acc_t> b)
{
    if (b.n == acc_t(0))
        return a;
    const acc_t n = a.n + b.n;
    const acc_t delta = b.mean - a.mean;
    const acc_t nb_over_n = b.n / n;
    WelfordData<acc_t> r = {a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * a.n * nb_over_n, n};
    return r;
}

template <typename acc_t>
__device__ __forceinline__ WelfordData<acc_t> warp_welford(WelfordData<acc_t> w)
{
#pragma unroll
    for (int off = C10_WARP_SIZE / 2; off > 0; off >>= 1) {
        WelfordData<acc_t> o = {__shfl_down_sync(F11_FULL_MASK, w.mean, off), __shfl_down_sync(F11_FULL_MASK, w.m2, off),
                                __shfl_down_sync(F11_FULL_MASK, w.n, off)};
        w = welford_combine(w, o);
    }
    return w;
}

// ---- image helpers (OpenCV's saturate_cast and BORDER_REPLICATE) ---------------------------------------------
__device__ __forceinline__ unsigned char saturate_u8(float v)
{
    const int i = __float2int_rn(v);
    return (unsigned char)(i < 0 ? 0 : (i > 255 ? 255 : i));
}
__device__ __forceinline__ int clamp_idx(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

template <typename D>
struct SaturateCast {
    __device__ __forceinline__ static D cast(float v) { return (D)v; }
};
template <>
struct SaturateCast<unsigned char> {
    __device__ __forceinline__ static unsigned char cast(float v) { return saturate_u8(v); }
};

// ---- complex<double> as MAGMA spells it -----------------------------------------------------------------------
__device__ __forceinline__ double2 zconj(double2 a) { return make_double2(a.x, -a.y); }

// ---- GELU, the tanh approximation of FasterTransformer --------------------------------------------------------
__device__ __forceinline__ float gelu_tanh(float x)
{
    const float cdf = 0.5f * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
    return x * cdf;
}

}  // namespace f11
