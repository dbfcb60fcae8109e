// The sixth held-out batch, part 1: the CUDA C++ library idioms of modern code (WMMA fragments from and to shared
// and global memory, libcu++ cuda::pipeline and cooperative_groups::memcpy_async double buffering, the
// __pipeline_memcpy_async primitives, CUB's block and warp primitives with their TempStorage in shared memory,
// thread block clusters with distributed shared memory, warp tiles of cooperative groups). Written for smemlab's
// truth fixture, before their first recording; compiled by nvcc.
#include "fresh6_common.cuh"

using namespace nvcuda;

// ---------------------------------------------------------------------------------------------------------------
// WMMA GEMM, C = A * B + bias (A [M,K] and B [K,N] half, row-major; C float): a 32x32 block tile, four warps of
// 16x16, A and B staged through shared with uint4 copies and a row padding of PAD halfs, the accumulators stored
// to a shared float tile and written out with the bias
template <int PAD>
__global__ void __launch_bounds__(128) wmma_gemm_smem(float *__restrict__ C, const half *__restrict__ A,
                                                      const half *__restrict__ B, const float *__restrict__ bias,
                                                      int M, int N, int K)
{
    constexpr int BM = 32, BN = 32, BK = 32, LDS = BK + PAD, LDC = BN + 4;
    __shared__ __align__(32) half As[BM][LDS];
    __shared__ __align__(32) half Bs[BK][BN + PAD];
    __shared__ __align__(32) float Cs[BM][LDC];

    const int tid = threadIdx.x, warp = tid >> 5;
    const int wm = warp >> 1, wn = warp & 1;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int lr = tid >> 2, lc = (tid & 3) * 8;  // one 16-byte chunk of each tile a thread

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += BK) {
        *reinterpret_cast<uint4 *>(&As[lr][lc]) = *reinterpret_cast<const uint4 *>(&A[(size_t)(m0 + lr) * K + k0 + lc]);
        *reinterpret_cast<uint4 *>(&Bs[lr][lc]) = *reinterpret_cast<const uint4 *>(&B[(size_t)(k0 + lr) * N + n0 + lc]);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
            wmma::load_matrix_sync(a, &As[wm * 16][kk], LDS);
            wmma::load_matrix_sync(b, &Bs[kk][wn * 16], BN + PAD);
            wmma::mma_sync(acc, a, b, acc);
        }
        __syncthreads();
    }
    wmma::store_matrix_sync(&Cs[wm * 16][wn * 16], acc, LDC, wmma::mem_row_major);
    __syncthreads();
    for (int i = tid; i < BM * BN; i += blockDim.x) {
        const int r = i / BN, c = i % BN;
        C[(size_t)(m0 + r) * N + n0 + c] = Cs[r][c] + bias[n0 + c];
    }
}

// WMMA with bf16 inputs straight from global memory: A [M,K] row-major, B given as Bt [N,K] (col-major B), a warp a
// 16x16 output tile, (32, 4) blocks; the accumulator stored to global row- or column-major
template <bool COL_MAJOR_OUT>
__global__ void wmma_bf16_direct(float *__restrict__ C, const __nv_bfloat16 *__restrict__ A,
                                 const __nv_bfloat16 *__restrict__ Bt, int M, int N, int K)
{
    const int tiles_n = N / 16;
    const int tile = blockIdx.x * blockDim.y + threadIdx.y;
    if (tile >= (M / 16) * tiles_n)
        return;
    const int tm = tile / tiles_n, tn = tile % tiles_n;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)tm * 16 * K + k, K);
        wmma::load_matrix_sync(b, Bt + (size_t)tn * 16 * K + k, K);
        wmma::mma_sync(acc, a, b, acc);
    }
    if (COL_MAJOR_OUT)
        wmma::store_matrix_sync(C + (size_t)tn * 16 * M + tm * 16, acc, M, wmma::mem_col_major);
    else
        wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// WMMA with a column-major A (as BLAS stores it) and a row-major B from global, the accumulator stored column-major
// into a padded per-warp shared tile, then a ReLU epilogue writing half outputs row-major, eight a lane
extern "C" __global__ void wmma_colmajor_relu(half *__restrict__ C, const half *__restrict__ A,
                                              const half *__restrict__ B, int M, int N, int K)
{
    constexpr int LDT = 16 + 4;
    __shared__ __align__(32) float stage[4][16 * LDT];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int warps = blockDim.x >> 5;
    const int tiles_n = N / 16, ntiles = (M / 16) * tiles_n;
    for (int tile = blockIdx.x * warps + warp; tile < ntiles; tile += gridDim.x * warps) {
        const int tm = tile / tiles_n, tn = tile % tiles_n;
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        for (int k = 0; k < K; k += 16) {
            wmma::load_matrix_sync(a, A + (size_t)k * M + tm * 16, M);
            wmma::load_matrix_sync(b, B + (size_t)k * N + tn * 16, N);
            wmma::mma_sync(acc, a, b, acc);
        }
        float *t = stage[warp];
        wmma::store_matrix_sync(t, acc, LDT, wmma::mem_col_major);
        __syncwarp();
        const int r = lane >> 1, c0 = (lane & 1) * 8;
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const float v = t[(c0 + j) * LDT + r];
            C[(size_t)(tm * 16 + r) * N + tn * 16 + c0 + j] = __float2half(fmaxf(v, 0.f));
        }
        __syncwarp();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// RMSNorm of rows, each row brought into shared by a block-scoped libcu++ pipeline of two stages (the next row's
// copy in flight while this one is normalised), the sum of squares by cub::BlockReduce
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) rmsnorm_rows_pipelined(float *__restrict__ out, const float *__restrict__ in,
                                                                 const float *__restrict__ gamma, int rows, int cols)
{
    constexpr int STAGES = 2, MAXC = 512;
    __shared__ __align__(16) float tile[STAGES][MAXC];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage red;
    __shared__ float s_inv;

    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const int first = blockIdx.x, stride = gridDim.x;
    const int mine = rows > first ? (rows - first + stride - 1) / stride : 0;
    for (int s = 0; s < STAGES && s < mine; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, tile[s], in + (size_t)(first + s * stride) * cols, sizeof(float) * cols, pipe);
        pipe.producer_commit();
    }
    for (int i = 0; i < mine; ++i) {
        const int row = first + i * stride, st = i % STAGES;
        pipe.consumer_wait();
        float ss = 0.f;
        for (int c = threadIdx.x; c < cols; c += BLOCK)
            ss += tile[st][c] * tile[st][c];
        const float total = BlockReduce(red).Sum(ss);
        if (threadIdx.x == 0)
            s_inv = rsqrtf(total / cols + 1e-6f);
        __syncthreads();
        const float inv = s_inv;
        for (int c = threadIdx.x; c < cols; c += BLOCK)
            out[(size_t)row * cols + c] = tile[st][c] * inv * gamma[c];
        __syncthreads();
        pipe.consumer_release();
        if (i + STAGES < mine) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, tile[st], in + (size_t)(row + STAGES * stride) * cols, sizeof(float) * cols, pipe);
            pipe.producer_commit();
        }
    }
}

// column sums and means of a row-major matrix, a block a strip of W columns, chunks of 8 rows double-buffered
// through cooperative_groups::memcpy_async and cg::wait_prior
template <int W>
__global__ void colsum_cg_async(float *__restrict__ colsum, float *__restrict__ colmean, const float *__restrict__ A,
                                int rows, int cols)
{
    constexpr int CH = 8;
    __shared__ __align__(16) float buf[2][CH * W];
    auto block = cg::this_thread_block();
    const int c0 = blockIdx.x * W;
    const int width = min(W, cols - c0);
    const int nchunks = (rows + CH - 1) / CH;
    auto issue = [&](int chunk) {
        const int r0 = chunk * CH, nr = min(CH, rows - r0);
        for (int r = 0; r < nr; ++r)
            cg::memcpy_async(block, &buf[chunk & 1][r * W], A + (size_t)(r0 + r) * cols + c0, sizeof(float) * width);
    };
    float acc = 0.f;
    issue(0);
    for (int chunk = 0; chunk < nchunks; ++chunk) {
        if (chunk + 1 < nchunks) {
            issue(chunk + 1);
            cg::wait_prior<1>(block);
        } else {
            cg::wait(block);
        }
        const int nr = min(CH, rows - chunk * CH);
        if (threadIdx.x < width)
            for (int r = 0; r < nr; ++r)
                acc += buf[chunk & 1][r * W + threadIdx.x];
        block.sync();
    }
    if (threadIdx.x < width) {
        colsum[c0 + threadIdx.x] = acc;
        colmean[c0 + threadIdx.x] = acc / rows;
    }
}

// a 7-point 1-D stencil, its tile of 4 floats a thread copied by __pipeline_memcpy_async (16 bytes) and its halo
// by 4-byte copies, then __pipeline_commit / __pipeline_wait_prior; a grid-stride loop over tiles
extern "C" __global__ void stencil7_pipeline_prims(float *__restrict__ out, const float *__restrict__ in, int n)
{
    constexpr int R = 3, OFF = 4, MAXT = 256 * 4;
    __shared__ __align__(16) float s[OFF + MAXT + OFF];
    const float w[R + 1] = {0.4f, 0.2f, 0.08f, 0.02f};
    const int tile = blockDim.x * 4;
    for (int start = blockIdx.x * tile; start < n; start += gridDim.x * tile) {
        const int g = start + threadIdx.x * 4;
        float *dst = &s[OFF + threadIdx.x * 4];
        if (g + 3 < n)
            __pipeline_memcpy_async(dst, in + g, 16);
        else
            for (int j = 0; j < 4; ++j)
                dst[j] = (g + j < n) ? in[g + j] : 0.f;
        if (threadIdx.x < R) {
            const int gl = start - R + threadIdx.x;
            if (gl >= 0)
                __pipeline_memcpy_async(&s[OFF - R + threadIdx.x], in + gl, 4);
            else
                s[OFF - R + threadIdx.x] = 0.f;
        } else if (threadIdx.x < 2 * R) {
            const int j = threadIdx.x - R, gr = start + tile + j;
            if (gr < n)
                __pipeline_memcpy_async(&s[OFF + tile + j], in + gr, 4);
            else
                s[OFF + tile + j] = 0.f;
        }
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int i = threadIdx.x * 4 + j;
            if (start + i < n) {
                float v = w[0] * s[OFF + i];
#pragma unroll
                for (int k = 1; k <= R; ++k)
                    v += w[k] * (s[OFF + i - k] + s[OFF + i + k]);
                out[start + i] = v;
            }
        }
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// CUB: a tile of BLOCK*ITEMS floats a block, loaded by cub::BlockLoad (ALGO 0: WARP_TRANSPOSE, 1: TRANSPOSE,
// 2: VECTORIZE), GELU applied, stored back by the matching cub::BlockStore; the two TempStorage in a union
template <int ALGO>
struct F6LoadStoreAlgo;
template <>
struct F6LoadStoreAlgo<0> {
    static constexpr cub::BlockLoadAlgorithm load = cub::BLOCK_LOAD_WARP_TRANSPOSE;
    static constexpr cub::BlockStoreAlgorithm store = cub::BLOCK_STORE_WARP_TRANSPOSE;
};
template <>
struct F6LoadStoreAlgo<1> {
    static constexpr cub::BlockLoadAlgorithm load = cub::BLOCK_LOAD_TRANSPOSE;
    static constexpr cub::BlockStoreAlgorithm store = cub::BLOCK_STORE_TRANSPOSE;
};
template <>
struct F6LoadStoreAlgo<2> {
    static constexpr cub::BlockLoadAlgorithm load = cub::BLOCK_LOAD_VECTORIZE;
    static constexpr cub::BlockStoreAlgorithm store = cub::BLOCK_STORE_VECTORIZE;
};

template <int BLOCK, int ITEMS, int ALGO>
__global__ void __launch_bounds__(BLOCK) cub_gelu_tiles(float *__restrict__ out, const float *__restrict__ in, int n)
{
    using Load = cub::BlockLoad<float, BLOCK, ITEMS, F6LoadStoreAlgo<ALGO>::load>;
    using Store = cub::BlockStore<float, BLOCK, ITEMS, F6LoadStoreAlgo<ALGO>::store>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } temp;
    constexpr int TILE = BLOCK * ITEMS;
    for (int off = blockIdx.x * TILE; off < n; off += gridDim.x * TILE) {
        float v[ITEMS];
        const int valid = min(TILE, n - off);
        if (valid == TILE)
            Load(temp.load).Load(in + off, v);
        else
            Load(temp.load).Load(in + off, v, valid, 0.f);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
            v[i] = 0.5f * v[i] * (1.f + tanhf(0.7978845608f * (v[i] + 0.044715f * v[i] * v[i] * v[i])));
        __syncthreads();
        if (valid == TILE)
            Store(temp.store).Store(out + off, v);
        else
            Store(temp.store).Store(out + off, v, valid);
        __syncthreads();
    }
}

// row sums and row maxima, a block a row, cub::BlockReduce with the default algorithm (RAKING = 0) or
// BLOCK_REDUCE_RAKING, its TempStorage reused for the second reduction
template <int BLOCK, int RAKING>
__global__ void __launch_bounds__(BLOCK) row_sum_max_cub(float *__restrict__ rsum, float *__restrict__ rmax,
                                                         const float *__restrict__ X, int rows, int cols)
{
    using Reduce = cub::BlockReduce<float, BLOCK, RAKING ? cub::BLOCK_REDUCE_RAKING : cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    __shared__ typename Reduce::TempStorage temp;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float *x = X + (size_t)row * cols;
        float s = 0.f, m = -3.0e38f;
        for (int c = threadIdx.x; c < cols; c += BLOCK) {
            const float v = x[c];
            s += v;
            m = fmaxf(m, v);
        }
        const float ts = Reduce(temp).Sum(s);
        __syncthreads();
        const float tm = Reduce(temp).Reduce(m, F6MaxOp());
        if (threadIdx.x == 0) {
            rsum[row] = ts;
            rmax[row] = tm;
        }
        __syncthreads();
    }
}

// stream compaction of the positive values, a tile a block written to the block's own segment (out + tile start),
// positions from cub::BlockScan (WARP_SCANS) exclusive sums of the flags, the count a tile to counts[]
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) compact_positive_scan(float *__restrict__ out, int *__restrict__ counts,
                                                               const float *__restrict__ in, int n)
{
    using Scan = cub::BlockScan<int, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename Scan::TempStorage temp;
    constexpr int TILE = BLOCK * ITEMS;
    for (int t = blockIdx.x; t * TILE < n; t += gridDim.x) {
        const int off = t * TILE;
        float v[ITEMS];
        int flag[ITEMS], pos[ITEMS];
        cub::LoadDirectBlocked(threadIdx.x, in + off, v, n - off, -1.f);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
            flag[i] = v[i] > 0.f;
        int total;
        Scan(temp).ExclusiveSum(flag, pos, total);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
            if (flag[i])
                out[off + pos[i]] = v[i];
        if (threadIdx.x == 0)
            counts[t] = total;
        __syncthreads();
    }
}

// running maximum and drawdown of price series, a series a block: BlockLoad (TRANSPOSE) to a blocked
// arrangement, an inclusive max-scan by cub::BlockScan (RAKING_MEMOIZE), the drawdown stored striped
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) running_max_drawdown(float *__restrict__ runmax, float *__restrict__ drawdown,
                                                              const float *__restrict__ price, int len)
{
    using Load = cub::BlockLoad<float, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Scan = cub::BlockScan<float, BLOCK, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
    } temp;
    const float *p = price + (size_t)blockIdx.x * len;
    float v[ITEMS], m[ITEMS];
    Load(temp.load).Load(p, v, len, -3.0e38f);
    __syncthreads();
    Scan(temp.scan).InclusiveScan(v, m, F6MaxOp());
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int idx = threadIdx.x * ITEMS + i;
        if (idx < len) {
            runmax[(size_t)blockIdx.x * len + idx] = m[i];
            drawdown[(size_t)blockIdx.x * len + idx] = (m[i] - v[i]) / m[i];
        }
    }
}

// a sorted tile of 32-bit keys a block: cub::BlockRadixSort, sorted blocked-to-striped and stored striped
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) radix_sort_tile_keys(unsigned *__restrict__ sorted,
                                                              const unsigned *__restrict__ keys, int n)
{
    using Sort = cub::BlockRadixSort<unsigned, BLOCK, ITEMS>;
    __shared__ typename Sort::TempStorage temp;
    constexpr int TILE = BLOCK * ITEMS;
    const int off = blockIdx.x * TILE;
    unsigned k[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, keys + off, k, n - off, 0xffffffffu);
    Sort(temp).SortBlockedToStriped(k);
    cub::StoreDirectStriped<BLOCK>(threadIdx.x, sorted + off, k, n - off);
}

// key-value sort of a tile, descending float scores with their int ids (top-k candidates), cub::BlockRadixSort
// with values, items loaded striped (coalesced) and stored blocked
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) radix_sort_scores_desc(float *__restrict__ out_score, int *__restrict__ out_id,
                                                                const float *__restrict__ score, int n)
{
    using Sort = cub::BlockRadixSort<float, BLOCK, ITEMS, int>;
    __shared__ typename Sort::TempStorage temp;
    constexpr int TILE = BLOCK * ITEMS;
    const int off = blockIdx.x * TILE;
    float k[ITEMS];
    int id[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
        const int idx = off + i * BLOCK + threadIdx.x;
        k[i] = idx < n ? score[idx] : -3.0e38f;
        id[i] = idx;
    }
    Sort(temp).SortDescending(k, id);
    cub::StoreDirectBlocked(threadIdx.x, out_score + off, k, n - off);
    cub::StoreDirectBlocked(threadIdx.x, out_id + off, id, n - off);
}

// a byte histogram: full tiles through cub::BlockHistogram (SORT = 1: BLOCK_HISTO_SORT, 0: BLOCK_HISTO_ATOMIC)
// composited into a shared histogram, the tail by shared atomics, then merged into the global one
template <int BLOCK, int ITEMS, int SORT>
__global__ void __launch_bounds__(BLOCK) byte_histogram_cub(unsigned *__restrict__ hist, const unsigned char *__restrict__ data,
                                                            int n)
{
    using Histo = cub::BlockHistogram<unsigned char, BLOCK, ITEMS, 256,
                                      SORT ? cub::BLOCK_HISTO_SORT : cub::BLOCK_HISTO_ATOMIC>;
    __shared__ typename Histo::TempStorage temp;
    __shared__ unsigned bins[256];
    constexpr int TILE = BLOCK * ITEMS;
    Histo(temp).InitHistogram(bins);
    __syncthreads();
    const int full = n / TILE;
    for (int t = blockIdx.x; t < full; t += gridDim.x) {
        unsigned char items[ITEMS];
        cub::LoadDirectStriped<BLOCK>(threadIdx.x, data + t * TILE, items);
        Histo(temp).Composite(items, bins);
        __syncthreads();
    }
    if (blockIdx.x == gridDim.x - 1)
        for (int i = full * TILE + threadIdx.x; i < n; i += BLOCK)
            atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += BLOCK)
        if (bins[b])
            atomicAdd(&hist[b], bins[b]);
}

// per-row statistics a logical warp of LW lanes a row: cub::WarpReduce sums the row, cub::WarpScan gives each lane
// the offset of its above-threshold values; one TempStorage of each per logical warp in shared memory
template <int LW>
__global__ void warp_row_stats_cub(float *__restrict__ rsum, int *__restrict__ lane_off, int *__restrict__ rcount,
                                   const float *__restrict__ X, int rows, int cols, float thr)
{
    constexpr int MAXW = 256 / LW;
    using WReduce = cub::WarpReduce<float, LW>;
    using WScan = cub::WarpScan<int, LW>;
    __shared__ typename WReduce::TempStorage red[MAXW];
    __shared__ typename WScan::TempStorage scan[MAXW];
    const int w = threadIdx.x / LW, lane = threadIdx.x % LW;
    const int nw = blockDim.x / LW;
    for (int row = blockIdx.x * nw + w; row < rows; row += gridDim.x * nw) {
        float s = 0.f;
        int cnt = 0;
        for (int c = lane; c < cols; c += LW) {
            const float v = X[(size_t)row * cols + c];
            s += v;
            cnt += v > thr;
        }
        const float total = WReduce(red[w]).Sum(s);
        int off, agg;
        WScan(scan[w]).ExclusiveSum(cnt, off, agg);
        lane_off[row * LW + lane] = off;
        if (lane == 0) {
            rsum[row] = total;
            rcount[row] = agg;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// heat diffusion along rods of 2 blocks' points, a cluster of 2 a rod (__cluster_dims__): each block keeps its half
// in shared, the point past its edge read from the other block's shared memory (map_shared_rank), cluster.sync()
// between steps
extern "C" __global__ void __cluster_dims__(2, 1, 1) rod_diffusion_cluster2(float *__restrict__ u,
                                                                            const float *__restrict__ u0, float alpha,
                                                                            int steps)
{
    __shared__ float cur[2][256];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    const int n = blockDim.x, i = threadIdx.x;
    const size_t g = (size_t)blockIdx.x * n + i;
    cur[0][i] = u0[g];
    cluster.sync();
    for (int s = 0; s < steps; ++s) {
        const int src = s & 1, dst = src ^ 1;
        float left, right;
        if (i > 0)
            left = cur[src][i - 1];
        else
            left = rank == 0 ? cur[src][i] : cluster.map_shared_rank(&cur[src][0], 0)[n - 1];
        if (i < n - 1)
            right = cur[src][i + 1];
        else
            right = rank == 1 ? cur[src][i] : cluster.map_shared_rank(&cur[src][0], 1)[0];
        cur[dst][i] = cur[src][i] + alpha * (left - 2.f * cur[src][i] + right);
        cluster.sync();
    }
    u[g] = cur[steps & 1][i];
}

// a histogram of 256 bins distributed over a cluster of 4 blocks (64 bins each in shared memory): every block
// counts its keys into the owner block's bins with atomics through map_shared_rank; a histogram per cluster
extern "C" __global__ void __cluster_dims__(4, 1, 1) dsmem_histogram_cluster4(unsigned *__restrict__ hist,
                                                                              const unsigned *__restrict__ keys, int n)
{
    constexpr int PER = 64;
    __shared__ unsigned bins[PER];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), csize = cluster.num_blocks();
    for (int b = threadIdx.x; b < PER; b += blockDim.x)
        bins[b] = 0;
    cluster.sync();
    const int cid = blockIdx.x / csize, nclusters = gridDim.x / csize;
    const int per_cluster = (n + nclusters - 1) / nclusters;
    const int beg = cid * per_cluster, end = min(n, beg + per_cluster);
    for (int i = beg + rank * blockDim.x + threadIdx.x; i < end; i += csize * blockDim.x) {
        const unsigned bin = keys[i] & 255u;
        unsigned *owner = cluster.map_shared_rank(bins, bin / PER);
        atomicAdd(owner + bin % PER, 1u);
    }
    cluster.sync();
    for (int b = threadIdx.x; b < PER; b += blockDim.x)
        hist[cid * 256 + rank * PER + b] = bins[b];
}

// softmax of rows split over a cluster (its shape given at launch): each block reduces its slice to a max and a sum
// in shared memory, every block reads all the partials through distributed shared memory, then normalises its slice
extern "C" __global__ void cluster_row_softmax(float *__restrict__ out, const float *__restrict__ in, int cols)
{
    __shared__ float red[32];
    __shared__ float part[2];
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), csize = cluster.num_blocks();
    const int row = blockIdx.x / csize;
    const int slice = (cols + csize - 1) / csize;
    const int c0 = rank * slice, c1 = min(cols, c0 + slice);
    const float *x = in + (size_t)row * cols;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;

    float m = -3.0e38f;
    for (int c = c0 + threadIdx.x; c < c1; c += blockDim.x)
        m = fmaxf(m, x[c]);
    for (int o = 16; o; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(F6_FULL, m, o));
    if (lane == 0)
        red[warp] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        float bm = red[0];
        for (int w = 1; w < nwarps; ++w)
            bm = fmaxf(bm, red[w]);
        part[0] = bm;
    }
    cluster.sync();
    float gmax = -3.0e38f;
    for (unsigned r = 0; r < csize; ++r)
        gmax = fmaxf(gmax, cluster.map_shared_rank(part, r)[0]);
    float s = 0.f;
    for (int c = c0 + threadIdx.x; c < c1; c += blockDim.x)
        s += __expf(x[c] - gmax);
    s = f6_warp_sum(s);
    __syncthreads();
    if (lane == 0)
        red[warp] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float bs = 0.f;
        for (int w = 0; w < nwarps; ++w)
            bs += red[w];
        part[1] = bs;
    }
    cluster.sync();
    float gsum = 0.f;
    for (unsigned r = 0; r < csize; ++r)
        gsum += cluster.map_shared_rank(part, r)[1];
    const float inv = 1.f / gsum;
    for (int c = c0 + threadIdx.x; c < c1; c += blockDim.x)
        out[(size_t)row * cols + c] = __expf(x[c] - gmax) * inv;
    cluster.sync();  // no block leaves while another still reads its partials
}

// ---------------------------------------------------------------------------------------------------------------
// dot products of short segment pairs, a tiled_partition<TILE> (16 or 8 lanes) a segment, cg::reduce for the sum
template <int TILE>
__global__ void segment_dot_tiles(float *__restrict__ dot, const float *__restrict__ a, const float *__restrict__ b,
                                  int nseg, int seglen)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<TILE>(block);
    const int per_block = blockDim.x / TILE;
    for (int seg = blockIdx.x * per_block + tile.meta_group_rank(); seg < nseg; seg += gridDim.x * per_block) {
        float v = 0.f;
        for (int i = tile.thread_rank(); i < seglen; i += TILE)
            v += a[(size_t)seg * seglen + i] * b[(size_t)seg * seglen + i];
        v = cg::reduce(tile, v, cg::plus<float>());
        if (tile.thread_rank() == 0)
            dot[seg] = v;
    }
}

// transpose of 8x8 blocks in registers: a thread_block_tile<8> a block, a row of 8 floats a lane (two float4
// loads), the diagonal exchange by tile.shfl, a column stored as two float4
extern "C" __global__ void transpose8_tile_shfl(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    const int nbc = cols / 8, nblocks = (rows / 8) * nbc;
    const int tiles_per_block = blockDim.x / 8;
    for (int blk = blockIdx.x * tiles_per_block + tile.meta_group_rank(); blk < nblocks;
         blk += gridDim.x * tiles_per_block) {
        const int br = blk / nbc, bc = blk % nbc;
        const int r = tile.thread_rank();
        const float4 *src = reinterpret_cast<const float4 *>(in + (size_t)(br * 8 + r) * cols + bc * 8);
        const float4 lo = src[0], hi = src[1];
        float v[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        float t[8];
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            // step j: lane r receives row (r + j) & 7's element r, the sender picks it by its own row index
            const int k = (r + j) & 7;
            float send = v[(r - j + 8) & 7];
            t[k] = tile.shfl(send, k);
        }
        float4 *dst = reinterpret_cast<float4 *>(out + (size_t)(bc * 8 + r) * rows + br * 8);
        dst[0] = make_float4(t[0], t[1], t[2], t[3]);
        dst[1] = make_float4(t[4], t[5], t[6], t[7]);
    }
}

// warp-aggregated append of the values above a threshold: cg::coalesced_threads() of the passing lanes, one atomic
// a group on the warp's own counter, the group's base broadcast by shfl; each warp fills its own output segment
extern "C" __global__ void filter_append_coalesced(float *__restrict__ out, int *__restrict__ warp_count,
                                                   const float *__restrict__ in, int n, float thr, int chunk)
{
    const int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    const int beg = gw * chunk, end = min(n, beg + chunk);
    if (lane == 0)
        warp_count[gw] = 0;
    __syncwarp();
    for (int base = beg; base < end; base += 32) {
        const int i = base + lane;
        if (i < end) {
            const float v = in[i];
            if (v > thr) {
                cg::coalesced_group g = cg::coalesced_threads();
                int pos = 0;
                if (g.thread_rank() == 0)
                    pos = atomicAdd(&warp_count[gw], (int)g.size());
                pos = g.shfl(pos, 0);
                out[beg + pos + g.thread_rank()] = v;
            }
        }
    }
}
