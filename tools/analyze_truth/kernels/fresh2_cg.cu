// The second held-out batch, part 3, compiled by nvcc as `smemlab analyze` compiles a user's file (NVRTC here
// has no CUDA headers): cooperative groups (thread_block, tiled_partition, cg::reduce, cg::inclusive_scan), cuda_fp16/cuda_bf16
// vector pairs, and 64-bit shared atomics (double and unsigned long long, one copy a warp).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

// a block sum: float4 grid-stride loads, cg::reduce in each warp, the warps' sums through shared memory, one atomic
__global__ void __launch_bounds__(256) cg_block_sum(const float4 *__restrict__ in, float *__restrict__ total, int n4)
{
    __shared__ float warpSums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    float v = 0.0f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n4; i += block.size() * gridDim.x) {
        float4 q = in[i];
        v += (q.x + q.y) + (q.z + q.w);
    }
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0)
        warpSums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        v = tile.thread_rank() < tile.meta_group_size() ? warpSums[tile.thread_rank()] : 0.0f;
        v = cg::reduce(tile, v, cg::plus<float>());
        if (tile.thread_rank() == 0)
            atomicAdd(total, v);
    }
}

// row sums and row maxima: a tile of 16 threads a row, tile.shfl_down
__global__ void cg_tile16_rows(const float *__restrict__ A, int rows, int cols, int lda, float *__restrict__ sums,
                               float *__restrict__ maxs)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const int tilesPerBlock = block.size() / 16;
    for (int r = tile.meta_group_rank(); r < rows; r += tilesPerBlock) {
        float s = 0.0f, m = -1e30f;
        for (int c = tile.thread_rank(); c < cols; c += tile.size()) {
            float a = A[r * lda + c];
            s += a;
            m = fmaxf(m, a);
        }
        for (int off = tile.size() / 2; off > 0; off /= 2) {
            s += tile.shfl_down(s, off);
            m = fmaxf(m, tile.shfl_down(m, off));
        }
        if (tile.thread_rank() == 0) {
            sums[r] = s;
            maxs[r] = m;
        }
    }
}

// an exclusive scan of a block's counts with cg::exclusive_scan in warps and a shared carry: offsets for a bucketing pass
__global__ void cg_bucket_offsets(const int *__restrict__ counts, int *__restrict__ offsets, int n)
{
    __shared__ int warpTotals[32];
    __shared__ int carry;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    if (block.thread_rank() == 0)
        carry = 0;
    block.sync();
    for (int base = 0; base < n; base += block.size()) {
        int i = base + block.thread_rank();
        int c = i < n ? counts[i] : 0;
        int incl = cg::inclusive_scan(tile, c);
        if (tile.thread_rank() == 31)
            warpTotals[tile.meta_group_rank()] = incl;
        block.sync();
        int before = carry;
        for (int w = 0; w < (int)tile.meta_group_rank(); w++)
            before += warpTotals[w];
        if (i < n)
            offsets[i] = before + incl - c;
        block.sync();
        if (block.thread_rank() == block.size() - 1)
            carry = before + incl;
        block.sync();
    }
}

// y = a x + y in half2 at a runtime offset (half2 units), __hfma2
__global__ void haxpy_half2(int n2, float a, const __half2 *__restrict__ x, __half2 *__restrict__ y, int off)
{
    const __half2 a2 = __float2half2_rn(a);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += blockDim.x * gridDim.x)
        y[off + i] = __hfma2(a2, x[off + i], y[off + i]);
}

// bf16 rows scaled by a per-column gain held in float, written as bf16 pairs (a row of cols/2 pairs)
__global__ void bf16_scale_cols(const __nv_bfloat162 *__restrict__ in, const float2 *__restrict__ gain,
                                __nv_bfloat162 *__restrict__ out, int rows, int cols2)
{
    for (int r = threadIdx.y; r < rows; r += blockDim.y)
        for (int c = threadIdx.x; c < cols2; c += blockDim.x) {
            float2 v = __bfloat1622float2(in[r * cols2 + c]);
            float2 g = gain[c];
            out[r * cols2 + c] = __floats2bfloat162_rn(v.x * g.x, v.y * g.y);
        }
}

// a weighted 16-bin histogram in double and an event count in 64 bits: one copy of both a warp, in shared memory
#define WBINS 16
__global__ void weighted_hist_f64(const int *__restrict__ bins, const double *__restrict__ weights, int n,
                                  double *__restrict__ hist, unsigned long long *__restrict__ events)
{
    extern __shared__ double s_hist[];  // warps x WBINS doubles, then warps counters
    const int warps = blockDim.x / 32, warp = threadIdx.x / 32;
    unsigned long long *s_events = (unsigned long long *)(s_hist + warps * WBINS);
    for (int i = threadIdx.x; i < warps * WBINS; i += blockDim.x)
        s_hist[i] = 0.0;
    if (threadIdx.x < warps)
        s_events[threadIdx.x] = 0ull;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = bins[i];
        atomicAdd(&s_hist[warp * WBINS + b], weights[i]);
        atomicAdd(&s_events[warp], 1ull);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < WBINS; b += blockDim.x) {
        double s = 0.0;
        for (int w = 0; w < warps; w++)
            s += s_hist[w * WBINS + b];
        hist[b] = s;
    }
    if (threadIdx.x == 0) {
        unsigned long long e = 0;
        for (int w = 0; w < warps; w++)
            e += s_events[w];
        atomicAdd(events, e);
    }
}
