// fresh9_kernels.cu -- async copies, barriers and fences, clusters, warp-level reductions of wide types, cache
// hints, global atomics, reduced-precision pairs and a kernel squeezed by __launch_bounds__.
//
// Needs nvcc (cuda/barrier, cuda_pipeline.h, cooperative_groups, cuda_fp16.h, cuda_bf16.h). Self test:
//     nvcc -std=c++17 -arch=sm_90 -O3 fresh9_kernels.cu -o fresh9_kernels && ./fresh9_kernels
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "fresh9_common.cuh"

namespace cg = cooperative_groups;

#define CUDA_OK(x)                                                                                            \
    do {                                                                                                      \
        cudaError_t err_ = (x);                                                                               \
        if (err_ != cudaSuccess) {                                                                            \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            std::exit(1);                                                                                     \
        }                                                                                                     \
    } while (0)

// -------------------------------------------------------------------------------------------------------------
// A. cp.async through the pipeline primitives, BYTES (4, 8 or 16) a copy: 2-stage tiles of 1024 floats; the
//    tail of the last tile zero-filled. out[j] = s[j] + 0.5 * s[j ^ 1] (a neighbour in the tile).
// -------------------------------------------------------------------------------------------------------------
template <int BYTES>
__global__ void cp_async_pairs(const float *__restrict__ in, float *__restrict__ out, int n)
{
    constexpr int TILE = 1024;
    constexpr int W = BYTES / 4;  // floats a copy
    __shared__ __align__(16) float stage[2][TILE];
    const int ntiles = DIV_UP(n, TILE);

    auto issue = [&](int tile, int buf) {
        const int base = tile * TILE;
        for (int j = threadIdx.x * W; j < TILE; j += blockDim.x * W) {
            const int g = base + j;
            const bool ok = g + W <= n;
            __pipeline_memcpy_async(&stage[buf][j], in + (ok ? g : 0), BYTES, ok ? 0 : BYTES);
        }
        __pipeline_commit();
    };

    int buf = 0;
    if ((int)blockIdx.x < ntiles)
        issue(blockIdx.x, 0);
    for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const int nt = t + gridDim.x;
        if (nt < ntiles)
            issue(nt, buf ^ 1);
        __pipeline_wait_prior(nt < ntiles ? 1 : 0);
        __syncthreads();
        for (int j = threadIdx.x; j < TILE; j += blockDim.x) {
            const int g = t * TILE + j;
            if (g < n)
                out[g] = stage[buf][j] + 0.5f * stage[buf][j ^ 1];
        }
        __syncthreads();
        buf ^= 1;
    }
}

// -------------------------------------------------------------------------------------------------------------
// B. Row normalisation: each row (cols floats, a multiple of 4) arrives in one cuda::memcpy_async of
//    aligned_size_t<16> bytes onto a block-scoped cuda::barrier (a bulk copy on sm_90), then the block scales it
//    by its largest magnitude.
// -------------------------------------------------------------------------------------------------------------
#pragma nv_diag_suppress static_var_with_dynamic_init
__global__ void bulk_row_normalize(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    extern __shared__ __align__(16) float row_buf[];
    __shared__ float warp_max[32];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();

    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        cuda::memcpy_async(block, row_buf, in + (size_t)r * cols, cuda::aligned_size_t<16>(sizeof(float) * cols),
                           bar);
        bar.arrive_and_wait();
        float m = 0.f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            m = fmaxf(m, fabsf(row_buf[c]));
        for (int o = 16; o > 0; o >>= 1)
            m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
        if (LANE() == 0)
            warp_max[WARPID()] = m;
        block.sync();
        m = 0.f;
        for (int w = 0; w < (int)(blockDim.x / 32); ++w)
            m = fmaxf(m, warp_max[w]);
        const float inv = m > 0.f ? 1.f / m : 0.f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            out[(size_t)r * cols + c] = row_buf[c] * inv;
        block.sync();  // row_buf and warp_max are rewritten by the next row
    }
}

// -------------------------------------------------------------------------------------------------------------
// C. 5-point smoothing over block tiles: the tile and its 2-element halos staged with cg::memcpy_async (the
//    halo clipped at the array's ends, zeros there), waited on with cg::wait.
// -------------------------------------------------------------------------------------------------------------
__global__ void cg_halo_smooth(const float *__restrict__ in, float *__restrict__ out, int n)
{
    constexpr int H = 2, MAXT = 512;
    __shared__ float s[MAXT + 2 * H];
    auto block = cg::this_thread_block();
    const int T = blockDim.x;
    for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
        const int lo = max(0, base - H), hi = min(n, base + T + H);
        if (threadIdx.x < H) {  // zeros where the halo leaves the array
            s[threadIdx.x] = 0.f;
            s[T + H + threadIdx.x] = 0.f;
        }
        block.sync();
        cg::memcpy_async(block, s + (lo - (base - H)), in + lo, sizeof(float) * (hi - lo));
        cg::wait(block);
        const int g = base + threadIdx.x;
        if (g < n) {
            const float *c = s + threadIdx.x + H;
            out[g] = 0.1f * c[-2] + 0.2f * c[-1] + 0.4f * c[0] + 0.2f * c[1] + 0.1f * c[2];
        }
        block.sync();
    }
}

// -------------------------------------------------------------------------------------------------------------
// D. Distributed-shared-memory histogram: a cluster of CS blocks shares NBINS bins, block r owning bins
//    [r * NBINS / CS, (r + 1) * NBINS / CS); every thread adds into the owner's shared memory through
//    map_shared_rank. The cluster's bins are then added to the global histogram.
// -------------------------------------------------------------------------------------------------------------
__global__ void cluster_histogram(const unsigned *__restrict__ keys, int n, int nbins, unsigned *__restrict__ hist)
{
    extern __shared__ unsigned my_bins[];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), cs = cluster.num_blocks();
    const int per = nbins / (int)cs;  // nbins a multiple of the cluster size
    for (int b = threadIdx.x; b < per; b += blockDim.x)
        my_bins[b] = 0;
    cluster.sync();

    for (int i = GTID_X(); i < n; i += GSTRIDE_X()) {
        const int bin = (int)(keys[i] % (unsigned)nbins);
        unsigned *owner = cluster.map_shared_rank(my_bins, bin / per);
        atomicAdd(owner + bin % per, 1u);
    }
    cluster.sync();
    for (int b = threadIdx.x; b < per; b += blockDim.x)
        if (my_bins[b])
            atomicAdd(&hist[rank * per + b], my_bins[b]);
}

// -------------------------------------------------------------------------------------------------------------
// E. Block votes: per tile, how many elements pass, whether all and whether any do (__syncthreads_count,
//    _and, _or); the per-thread flags also kept in shared memory for a neighbour test.
// -------------------------------------------------------------------------------------------------------------
__global__ void block_votes(const int *__restrict__ v, int n, int thr, int *__restrict__ counts,
                            int *__restrict__ all_any, int *__restrict__ edges)
{
    __shared__ unsigned char pass[1024];
    const int tiles = DIV_UP(n, (int)blockDim.x);
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int i = t * blockDim.x + threadIdx.x;
        const int p = i < n && v[i] > thr;
        pass[threadIdx.x] = (unsigned char)p;
        const int cnt = __syncthreads_count(p);
        const int all = __syncthreads_and(p || i >= n);
        const int any = __syncthreads_or(p);
        // a rising edge: this element passes, its left neighbour in the tile does not
        const int edge = threadIdx.x > 0 && p && !pass[threadIdx.x - 1];
        const int nedges = __syncthreads_count(edge);
        if (threadIdx.x == 0) {
            counts[t] = cnt;
            all_any[2 * t] = all;
            all_any[2 * t + 1] = any;
            edges[t] = nedges;
        }
    }
}

// -------------------------------------------------------------------------------------------------------------
// F. Sum with a last-block finish: every block writes its partial, fences it with __threadfence and takes a
//    ticket; the block that draws the last ticket reads all the partials through a volatile pointer, in order,
//    writes the total and then publishes a ready flag (after another fence).
// -------------------------------------------------------------------------------------------------------------
__device__ unsigned g_tickets = 0;

__global__ void sum_last_block(const float *__restrict__ x, int n, float *partials, float *total, int *ready)
{
    __shared__ float red[32];
    __shared__ bool am_last;
    float s = 0.f;
    for (int i = GTID_X(); i < n; i += GSTRIDE_X())
        s += x[i];
    s = f9::warp_sum(s);
    if (LANE() == 0)
        red[WARPID()] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float b = 0.f;
        for (int w = 0; w < (int)(blockDim.x / 32); ++w)
            b += red[w];
        partials[blockIdx.x] = b;
        __threadfence();
        const unsigned ticket = atomicInc(&g_tickets, gridDim.x - 1);  // wraps to 0 for the next launch
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last && threadIdx.x == 0) {
        volatile float *vp = partials;
        float t = 0.f;
        for (unsigned b = 0; b < gridDim.x; ++b)
            t += vp[b];
        *total = t;
        __threadfence();
        *(volatile int *)ready = 1;
    }
}

// -------------------------------------------------------------------------------------------------------------
// G. Half-warp exchanges with partial masks: the low and the high half of each warp rotate their values through
//    shared memory on their own schedule (__syncwarp with 0x0000ffff / 0xffff0000), fenced with
//    __threadfence_block; then the whole warp swaps halves.
// -------------------------------------------------------------------------------------------------------------
__global__ void half_warp_rotate(const float *__restrict__ in, float *__restrict__ out, int n, int rounds)
{
    __shared__ float buf[8][32];  // up to 8 warps
    const int lane = LANE(), w = WARPID();
    const unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    const int half = lane & ~15, hl = lane & 15;
    const int i = GTID_X();
    float v = i < n ? in[i] : 0.f;
    const int my_rounds = lane < 16 ? rounds : rounds + 1;
    for (int r = 0; r < my_rounds; ++r) {
        buf[w][lane] = v;
        __threadfence_block();
        __syncwarp(mask);
        v = 0.5f * (v + buf[w][half + ((hl + 1) & 15)]);
        __syncwarp(mask);
    }
    buf[w][lane] = v;
    __syncwarp();
    const float other = buf[w][lane ^ 16];
    if (i < n)
        out[i] = v - other;
}

// -------------------------------------------------------------------------------------------------------------
// H. Shuffle reductions of 64-bit types (double, long long): shfl_down within warps, the warps' sums in shared
//    memory, one partial a block.
// -------------------------------------------------------------------------------------------------------------
template <typename T>
__global__ void shfl_reduce_wide(const T *__restrict__ x, int n, T *__restrict__ partial)
{
    __shared__ T warp_part[32];
    T s = T(0);
    for (int i = GTID_X(); i < n; i += GSTRIDE_X())
        s += x[i];
    s = f9::warp_sum(s);
    if (LANE() == 0)
        warp_part[WARPID()] = s;
    __syncthreads();
    if (WARPID() == 0) {
        const int nw = blockDim.x / 32;
        s = LANE() < nw ? warp_part[LANE()] : T(0);
        s = f9::warp_sum(s);
        if (LANE() == 0)
            partial[blockIdx.x] = s;
    }
}

// -------------------------------------------------------------------------------------------------------------
// I. A 32-sample autocorrelation (12 lags) per thread squeezed under __launch_bounds__(128, 16) (32 registers at
//    most): the 32 samples and 12 lags all stay live, so ptxas may spill.
// -------------------------------------------------------------------------------------------------------------
__global__ void __launch_bounds__(128, 16) autocorr_tight(const float *__restrict__ x, float *__restrict__ r, int nwin)
{
    constexpr int NS = 32, NL = 12;
    const int w = GTID_X();
    if (w >= nwin)
        return;
    float v[NS];
#pragma unroll
    for (int k = 0; k < NS; ++k)
        v[k] = x[w * NS + k];
    float acc[NL];
#pragma unroll
    for (int lag = 0; lag < NL; ++lag) {
        float a = 0.f;
#pragma unroll
        for (int k = 0; k < NS; ++k)
            a += v[k] * v[(k + lag) % NS];
        acc[lag] = a;
    }
    const float inv = 1.f / (acc[0] + 1e-6f);
#pragma unroll
    for (int lag = 0; lag < NL; ++lag)
        r[w * NL + lag] = acc[lag] * inv;
}

// -------------------------------------------------------------------------------------------------------------
// J. Cache hints: the input streamed once (__ldcs), a second input cached in L2 only (__ldcg), gains through
//    __ldg, one output written streaming (__stcs), another written through (__stwt).
// -------------------------------------------------------------------------------------------------------------
__global__ void cache_hint_mix(const float *__restrict__ a, const float *__restrict__ b,
                               const float *__restrict__ gain, float *__restrict__ y, float *__restrict__ z, int n,
                               int ngain)
{
    for (int i = GTID_X(); i < n; i += GSTRIDE_X()) {
        const float va = __ldcs(a + i);
        const float vb = __ldcg(b + i);
        const float g = __ldg(gain + i % ngain);
        __stcs(y + i, g * va + vb);
        __stwt(z + i, va - vb);
    }
}

// -------------------------------------------------------------------------------------------------------------
// K. Global atomics of every kind on naddr counters (element i goes to counter i % naddr: distinct words when
//    naddr >= n, a few hot words, or one). Only exactly-representable values are added, so float and double sums
//    do not depend on the order; atomicInc with a limit of 15 leaves the count mod 16.
// -------------------------------------------------------------------------------------------------------------
__global__ void atomic_counters(const int *__restrict__ keys, int n, int naddr, int *__restrict__ cnt,
                                float *__restrict__ fsum, double *__restrict__ dsum, int *__restrict__ kmax,
                                unsigned *__restrict__ bits, unsigned *__restrict__ wraps)
{
    for (int i = GTID_X(); i < n; i += GSTRIDE_X()) {
        const int k = keys[i];
        const int a = i % naddr;
        atomicAdd(&cnt[a], 1);
        atomicAdd(&fsum[a], (float)(k & 7));
        atomicAdd(&dsum[a], (double)(k & 1023));
        atomicMax(&kmax[a], k);
        atomicOr(&bits[a], 1u << (k & 31));
        atomicInc(&wraps[a], 15u);
    }
}

// -------------------------------------------------------------------------------------------------------------
// L. Paired reduced-precision axpy: y = alpha * x + y on __half2 / __nv_bfloat162 (4 bytes a thread).
// -------------------------------------------------------------------------------------------------------------
__device__ __forceinline__ __half2 splat2(float a, __half2) { return __float2half2_rn(a); }
__device__ __forceinline__ __nv_bfloat162 splat2(float a, __nv_bfloat162) { return __float2bfloat162_rn(a); }

template <typename T2>
__global__ void axpy_pairs(const T2 *__restrict__ x, T2 *__restrict__ y, int npairs, float alpha)
{
    const T2 a2 = splat2(alpha, T2());
    for (int i = GTID_X(); i < npairs; i += GSTRIDE_X())
        y[i] = __hfma2(a2, x[i], y[i]);
}

// =============================================================================================================
// host side (never run by the truth recording)
// =============================================================================================================
static void check_votes()
{
    const int n = 1000, thr = 500, threads = 256;
    const int tiles = DIV_UP(n, threads);
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 37) % 1000;
    int *dv, *dc, *da, *de;
    CUDA_OK(cudaMalloc(&dv, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&dc, tiles * sizeof(int)));
    CUDA_OK(cudaMalloc(&da, 2 * tiles * sizeof(int)));
    CUDA_OK(cudaMalloc(&de, tiles * sizeof(int)));
    CUDA_OK(cudaMemcpy(dv, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    block_votes<<<tiles, threads>>>(dv, n, thr, dc, da, de);
    CUDA_OK(cudaGetLastError());
    std::vector<int> c(tiles);
    CUDA_OK(cudaMemcpy(c.data(), dc, tiles * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < tiles; ++t) {
        int ref = 0;
        for (int i = t * threads; i < std::min(n, (t + 1) * threads); ++i)
            ref += h[i] > thr;
        std::printf("tile %d: %d passing (expect %d)\n", t, c[t], ref);
    }
    cudaFree(dv);
    cudaFree(dc);
    cudaFree(da);
    cudaFree(de);
}

static void check_cluster_histogram()
{
    const int n = 4096, nbins = 64, cs = 2, grid = 4;
    std::vector<unsigned> keys(n);
    for (int i = 0; i < n; ++i)
        keys[i] = (unsigned)(i * 2654435761u);
    unsigned *dk, *dh;
    CUDA_OK(cudaMalloc(&dk, n * sizeof(unsigned)));
    CUDA_OK(cudaMalloc(&dh, nbins * sizeof(unsigned)));
    CUDA_OK(cudaMemcpy(dk, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dh, 0, nbins * sizeof(unsigned)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(128);
    cfg.dynamicSmemBytes = sizeof(unsigned) * nbins / cs;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cs;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CUDA_OK(cudaLaunchKernelEx(&cfg, cluster_histogram, (const unsigned *)dk, n, nbins, dh));
    std::vector<unsigned> h(nbins);
    CUDA_OK(cudaMemcpy(h.data(), dh, nbins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned tot = 0;
    for (unsigned v : h)
        tot += v;
    std::printf("cluster_histogram: %u keys counted (expect %d)\n", tot, n);
    cudaFree(dk);
    cudaFree(dh);
}

int main()
{
    check_votes();
    check_cluster_histogram();
    CUDA_OK(cudaDeviceSynchronize());
    return 0;
}
