// fresh11_kernels.cu -- library kernels that need nvcc's headers: fused add + RMSNorm and bias + GELU on half2 /
// bfloat162 / float4 (apex / FasterTransformer style), row softmax, cumsum and a block sort through cub's block
// primitives, a k-means assignment with cooperative_groups' cg::reduce, a two-stage cuda::pipeline smoothing pass
// and a warp-a-row LayerNorm on halves.
//
// Self test:
//     nvcc -std=c++17 -arch=sm_90 -O3 fresh11_kernels.cu -o fresh11_kernels && ./fresh11_kernels
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cuda/pipeline>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "fresh11_common.cuh"

namespace cg = cooperative_groups;

#define CHECK_CUDA(x)                                                                                        \
    do {                                                                                                     \
        cudaError_t e_ = (x);                                                                                \
        if (e_ != cudaSuccess) {                                                                             \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

// ---- packed pair traits ---------------------------------------------------------------------------------------
template <typename T>
struct PackedOf;
template <>
struct PackedOf<__half> {
    using type = __half2;
    __device__ static float2 to_float2(__half2 v) { return __half22float2(v); }
    __device__ static __half2 from_float2(float2 v) { return __float22half2_rn(v); }
};
template <>
struct PackedOf<__nv_bfloat16> {
    using type = __nv_bfloat162;
    __device__ static float2 to_float2(__nv_bfloat162 v) { return __bfloat1622float2(v); }
    __device__ static __nv_bfloat162 from_float2(float2 v) { return __float22bfloat162_rn(v); }
};

// -------------------------------------------------------------------------------------------------------------
// A. fused residual add + RMSNorm (a block a row, hidden even): residual = input + residual; input =
//    residual * rsqrt(mean(residual^2) + eps) * weight. The variance reaches every thread through
//    `__shared__ float s_variance`, read inside the output loop.
// -------------------------------------------------------------------------------------------------------------
template <typename T>
__global__ void fused_add_rmsnorm(T *__restrict__ input, T *__restrict__ residual, const T *__restrict__ weight,
                                  float eps, int hidden)
{
    using P = PackedOf<T>;
    using T2 = typename P::type;
    __shared__ float s_partial[32];
    __shared__ float s_variance;
    const int npairs = hidden / 2;
    T2 *in2 = reinterpret_cast<T2 *>(input + (int64_t)blockIdx.x * hidden);
    T2 *res2 = reinterpret_cast<T2 *>(residual + (int64_t)blockIdx.x * hidden);
    const T2 *w2 = reinterpret_cast<const T2 *>(weight);

    float var = 0.f;
    for (int i = threadIdx.x; i < npairs; i += blockDim.x) {
        const float2 a = P::to_float2(in2[i]);
        const float2 r = P::to_float2(res2[i]);
        const float2 s = make_float2(a.x + r.x, a.y + r.y);
        res2[i] = P::from_float2(s);
        var += s.x * s.x + s.y * s.y;
    }
    var = f11::block_all_reduce(var, f11::SumOp(), 0.f, s_partial);
    if (threadIdx.x == 0)
        s_variance = rsqrtf(var / hidden + eps);
    __syncthreads();
    for (int i = threadIdx.x; i < npairs; i += blockDim.x) {
        const float2 r = P::to_float2(res2[i]);
        const float2 w = P::to_float2(w2[i]);
        in2[i] = P::from_float2(make_float2(r.x * s_variance * w.x, r.y * s_variance * w.y));
    }
}

// -------------------------------------------------------------------------------------------------------------
// B. bias + GELU in place on an m x n matrix, float4 over the flat buffer with a scalar tail (m * n need not be a
//    multiple of 4, rows need not be 16-byte aligned: the bias column is taken element by element)
// -------------------------------------------------------------------------------------------------------------
__global__ void add_bias_gelu_f4(float *__restrict__ out, const float *__restrict__ bias, int m, int n)
{
    const int total = m * n;
    const int nvec = total / 4;
    float4 *out4 = reinterpret_cast<float4 *>(out);
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nvec; v += blockDim.x * gridDim.x) {
        float4 x = out4[v];
        const int e = 4 * v;
        x.x = f11::gelu_tanh(x.x + __ldg(bias + (e + 0) % n));
        x.y = f11::gelu_tanh(x.y + __ldg(bias + (e + 1) % n));
        x.z = f11::gelu_tanh(x.z + __ldg(bias + (e + 2) % n));
        x.w = f11::gelu_tanh(x.w + __ldg(bias + (e + 3) % n));
        out4[v] = x;
    }
    const int tail = 4 * nvec + blockIdx.x * blockDim.x + threadIdx.x;
    if (tail < total)
        out[tail] = f11::gelu_tanh(out[tail] + bias[tail % n]);
}

// the half2 version: n even, a half2 of the row and of the bias a thread
__global__ void add_bias_gelu_h2(__half *__restrict__ out, const __half *__restrict__ bias, int m, int n)
{
    const int n2 = n / 2;
    __half2 *out2 = reinterpret_cast<__half2 *>(out);
    const __half2 *bias2 = reinterpret_cast<const __half2 *>(bias);
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < m * n2; v += blockDim.x * gridDim.x) {
        const float2 x = __half22float2(__hadd2(out2[v], __ldg(bias2 + v % n2)));
        out2[v] = __floats2half2_rn(f11::gelu_tanh(x.x), f11::gelu_tanh(x.y));
    }
}

// -------------------------------------------------------------------------------------------------------------
// C. row softmax with cub::BlockReduce (a block a row): max, then sum, each broadcast through a __shared__ float
// -------------------------------------------------------------------------------------------------------------
template <int BLOCK>
__global__ void cub_softmax_rows(const float *__restrict__ in, float *__restrict__ out, int cols)
{
    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage temp;
    __shared__ float s_max, s_sum;
    const float *x = in + (int64_t)blockIdx.x * cols;
    float *y = out + (int64_t)blockIdx.x * cols;
    float m = -f11::numeric_max<float>();
    for (int j = threadIdx.x; j < cols; j += BLOCK)
        m = fmaxf(m, x[j]);
    m = BlockReduce(temp).Reduce(m, f11::MaxOp());
    if (threadIdx.x == 0)
        s_max = m;
    __syncthreads();
    float s = 0.f;
    for (int j = threadIdx.x; j < cols; j += BLOCK)
        s += __expf(x[j] - s_max);
    s = BlockReduce(temp).Sum(s);
    if (threadIdx.x == 0)
        s_sum = s;
    __syncthreads();
    const float inv = 1.f / s_sum;
    for (int j = threadIdx.x; j < cols; j += BLOCK)
        y[j] = __expf(x[j] - s_max) * inv;
}

// -------------------------------------------------------------------------------------------------------------
// D. cumsum of rows with cub: BlockLoad (warp transpose), BlockScan::InclusiveSum with a running-prefix callback
//    across tiles of BLOCK * ITEMS, BlockStore (warp transpose); the tail tile guarded
// -------------------------------------------------------------------------------------------------------------
struct RunningPrefix {
    int total;
    __device__ RunningPrefix(int t) : total(t) {}
    __device__ int operator()(int block_aggregate)
    {
        const int old = total;
        total += block_aggregate;
        return old;
    }
};

template <int BLOCK, int ITEMS>
__global__ void cub_block_cumsum(const int *__restrict__ in, int *__restrict__ out, int cols)
{
    using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Scan = cub::BlockScan<int, BLOCK>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
    } temp;
    const int *x = in + (int64_t)blockIdx.x * cols;
    int *y = out + (int64_t)blockIdx.x * cols;
    RunningPrefix prefix(0);
    constexpr int TILE = BLOCK * ITEMS;
    for (int base = 0; base < cols; base += TILE) {
        const int valid = min(TILE, cols - base);
        int items[ITEMS];
        Load(temp.load).Load(x + base, items, valid, 0);
        __syncthreads();
        Scan(temp.scan).InclusiveSum(items, items, prefix);
        __syncthreads();
        Store(temp.store).Store(y + base, items, valid);
        __syncthreads();
    }
}

// -------------------------------------------------------------------------------------------------------------
// E. cub::BlockRadixSort of BLOCK * ITEMS (key, value) pairs a block, blocked arrangement in and out
// -------------------------------------------------------------------------------------------------------------
template <int BLOCK, int ITEMS>
__global__ void cub_block_sort_pairs(unsigned *__restrict__ keys, int *__restrict__ vals)
{
    using Sort = cub::BlockRadixSort<unsigned, BLOCK, ITEMS, int>;
    __shared__ typename Sort::TempStorage temp;
    const int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x * ITEMS;
    unsigned k[ITEMS];
    int v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        k[i] = keys[base + i];
        v[i] = vals[base + i];
    }
    Sort(temp).Sort(k, v);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        keys[base + i] = k[i];
        vals[base + i] = v[i];
    }
}

// -------------------------------------------------------------------------------------------------------------
// F. k-means assignment: all centroids staged in shared memory, a warp (thread_block_tile<32>) a point, lanes
//    splitting the dimensions, cg::reduce for each distance; cluster sizes counted with global atomics
// -------------------------------------------------------------------------------------------------------------
template <int D>
__global__ void kmeans_assign_cg(const float *__restrict__ points, const float *__restrict__ centroids, int npoints,
                                 int k, int *__restrict__ assign, int *__restrict__ sizes)
{
    extern __shared__ float s_cent[];  // k * D
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    for (int i = block.thread_rank(); i < k * D; i += block.size())
        s_cent[i] = centroids[i];
    block.sync();
    const int nwarps = (int)(block.size() / 32) * gridDim.x;
    for (int p = blockIdx.x * (block.size() / 32) + warp.meta_group_rank(); p < npoints; p += nwarps) {
        float best = f11::numeric_max<float>();
        int arg = 0;
        for (int c = 0; c < k; ++c) {
            float part = 0.f;
            for (int d = warp.thread_rank(); d < D; d += 32) {
                const float diff = points[p * D + d] - s_cent[c * D + d];
                part += diff * diff;
            }
            const float dist = cg::reduce(warp, part, cg::plus<float>());
            if (dist < best) {
                best = dist;
                arg = c;
            }
        }
        if (warp.thread_rank() == 0) {
            assign[p] = arg;
            atomicAdd(&sizes[arg], 1);
        }
    }
}

// -------------------------------------------------------------------------------------------------------------
// G. a 3-point smoothing of rows through a two-stage cuda::pipeline (thread scope, as the programming guide's
//    example): each thread copies its elements of the next row while the current one is smoothed
// -------------------------------------------------------------------------------------------------------------
__global__ void pipeline_row_smooth(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    constexpr int STAGES = 2, MAXC = 1024;
    __shared__ float buf[STAGES][MAXC];
    auto pipe = cuda::make_pipeline();
    const int first = blockIdx.x, step = gridDim.x;
    auto fetch = [&](int r, int s) {
        pipe.producer_acquire();
        if (r < rows)
            for (int c = threadIdx.x; c < cols; c += blockDim.x)
                cuda::memcpy_async(&buf[s][c], in + (int64_t)r * cols + c, sizeof(float), pipe);
        pipe.producer_commit();
    };
    fetch(first, 0);
    fetch(first + step, 1);
    int s = 0;
    for (int r = first; r < rows; r += step) {
        pipe.consumer_wait();
        __syncthreads();
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            const float l = buf[s][c > 0 ? c - 1 : c], m = buf[s][c], rt = buf[s][c < cols - 1 ? c + 1 : c];
            out[(int64_t)r * cols + c] = 0.25f * l + 0.5f * m + 0.25f * rt;
        }
        __syncthreads();
        pipe.consumer_release();
        fetch(r + 2 * step, s);
        s ^= 1;
    }
}

// -------------------------------------------------------------------------------------------------------------
// H. LayerNorm with a warp a row (apex's small-hidden path): half2 loads kept in registers (hidden <= 64 * 32),
//    two-pass mean / variance by shuffles, float statistics written per row
// -------------------------------------------------------------------------------------------------------------
template <int PAIRS_PER_LANE>
__global__ void layernorm_warp_half(const __half *__restrict__ x, const __half *__restrict__ gamma,
                                    const __half *__restrict__ beta, __half *__restrict__ y, float *__restrict__ mean,
                                    float *__restrict__ invvar, int rows, int hidden, float eps)
{
    const int lane = threadIdx.x;  // blockDim (32, WARPS)
    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= rows)
        return;
    const int npairs = hidden / 2;
    const __half2 *x2 = reinterpret_cast<const __half2 *>(x + (int64_t)row * hidden);
    float2 v[PAIRS_PER_LANE];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < PAIRS_PER_LANE; ++k) {
        const int p = lane + 32 * k;
        v[k] = p < npairs ? __half22float2(x2[p]) : make_float2(0.f, 0.f);
        s += v[k].x + v[k].y;
    }
    const float mu = f11::warp_all_reduce(s, f11::SumOp()) / hidden;
    float q = 0.f;
#pragma unroll
    for (int k = 0; k < PAIRS_PER_LANE; ++k)
        if (lane + 32 * k < npairs)
            q += (v[k].x - mu) * (v[k].x - mu) + (v[k].y - mu) * (v[k].y - mu);
    const float rs = rsqrtf(f11::warp_all_reduce(q, f11::SumOp()) / hidden + eps);
    __half2 *y2 = reinterpret_cast<__half2 *>(y + (int64_t)row * hidden);
    const __half2 *g2 = reinterpret_cast<const __half2 *>(gamma);
    const __half2 *b2 = reinterpret_cast<const __half2 *>(beta);
#pragma unroll
    for (int k = 0; k < PAIRS_PER_LANE; ++k) {
        const int p = lane + 32 * k;
        if (p < npairs) {
            const float2 g = __half22float2(g2[p]), b = __half22float2(b2[p]);
            y2[p] = __floats2half2_rn((v[k].x - mu) * rs * g.x + b.x, (v[k].y - mu) * rs * g.y + b.y);
        }
    }
    if (lane == 0) {
        mean[row] = mu;
        invvar[row] = rs;
    }
}

// =============================================================================================================
// host side (never run by the truth recording)
// =============================================================================================================
int main()
{
    const int rows = 4, hidden = 1024;
    std::vector<__half> h(rows * hidden, __float2half(0.5f));
    __half *in, *res, *w;
    CHECK_CUDA(cudaMalloc(&in, h.size() * sizeof(__half)));
    CHECK_CUDA(cudaMalloc(&res, h.size() * sizeof(__half)));
    CHECK_CUDA(cudaMalloc(&w, hidden * sizeof(__half)));
    CHECK_CUDA(cudaMemcpy(in, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(res, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(w, h.data(), hidden * sizeof(__half), cudaMemcpyHostToDevice));
    fused_add_rmsnorm<__half><<<rows, 256>>>(in, res, w, 1e-6f, hidden);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h.data(), in, h.size() * sizeof(__half), cudaMemcpyDeviceToHost));
    std::printf("rmsnorm[0] = %f (expect 0.5)\n", __half2float(h[0]));
    cudaFree(in);
    cudaFree(res);
    cudaFree(w);
    return 0;
}
