// fresh11_apps.cu -- library-style kernels as they sit in public code: ATen-like normalisation, softmax, scans,
// sorts and selection; OpenCV/NPP-like image filters; finite-difference stencils; faiss-like distance tiles and
// selection; MAGMA-like transposes, GEMV and SYRK; sparse matrix-vector products; and a set of global-memory
// access patterns (element sizes, strides, misaligned bases, partial warps, gathers, atomics, local arrays).
// Plain CUDA C++ with no library headers: it also builds at run time with NVRTC.
#include "fresh11_common.cuh"

#define GAUSS_MAX_TAPS 16
#define FD_MAX_RADIUS 4

__constant__ float c_gauss[GAUSS_MAX_TAPS];    // the separable Gaussian's taps
__constant__ float c_fd[FD_MAX_RADIUS + 1];    // central-difference coefficients, c_fd[1..R]

// =============================================================================================================
// 1. normalisation and softmax (ATen style)
// =============================================================================================================

// LayerNorm forward: a block a row, Welford per thread, combined across the warp by shuffles and across warps
// through shared memory; the row's mean and rstd broadcast through shared memory.
template <typename scalar_t, typename acc_t>
__global__ void layer_norm_fwd_welford(const scalar_t *__restrict__ X, const scalar_t *__restrict__ gamma,
                                       const scalar_t *__restrict__ beta, scalar_t *__restrict__ Y,
                                       acc_t *__restrict__ mean, acc_t *__restrict__ rstd, int N, float eps)
{
    using WD = f11::WelfordData<acc_t>;
    __shared__ acc_t s_mean[C10_WARP_SIZE];
    __shared__ acc_t s_m2[C10_WARP_SIZE];
    __shared__ acc_t s_n[C10_WARP_SIZE];
    __shared__ acc_t s_stats[2];
    const int64_t row = blockIdx.x;
    const scalar_t *x = X + row * N;
    const int lane = threadIdx.x % C10_WARP_SIZE, wid = threadIdx.x / C10_WARP_SIZE;

    WD w = {acc_t(0), acc_t(0), acc_t(0)};
    for (int j = threadIdx.x; j < N; j += blockDim.x)
        w = f11::welford_update(w, static_cast<acc_t>(x[j]));
    w = f11::warp_welford(w);
    if (lane == 0) {
        s_mean[wid] = w.mean;
        s_m2[wid] = w.m2;
        s_n[wid] = w.n;
    }
    __syncthreads();
    if (wid == 0) {
        const int nw = blockDim.x / C10_WARP_SIZE;
        WD p = {acc_t(0), acc_t(0), acc_t(0)};
        if (lane < nw) {
            p.mean = s_mean[lane];
            p.m2 = s_m2[lane];
            p.n = s_n[lane];
        }
        p = f11::warp_welford(p);
        if (lane == 0) {
            const acc_t rs = f11::rsqrt_(p.m2 / p.n + static_cast<acc_t>(eps));
            s_stats[0] = p.mean;
            s_stats[1] = rs;
            mean[row] = p.mean;
            rstd[row] = rs;
        }
    }
    __syncthreads();
    const acc_t mu = s_stats[0], rs = s_stats[1];
    for (int j = threadIdx.x; j < N; j += blockDim.x) {
        const acc_t v = (static_cast<acc_t>(x[j]) - mu) * rs;
        Y[row * N + j] = static_cast<scalar_t>(v * static_cast<acc_t>(gamma[j]) + static_cast<acc_t>(beta[j]));
    }
}

// LayerNorm backward, the gamma/beta gradients: a column reduction over M rows. Thread (tx, ty) walks rows
// ty, ty + blockDim.y, ... of column blockIdx.x * 32 + tx; the partials go through a [32][33] tile and each warp
// reduces one column of the tile with shuffles.
template <typename scalar_t, typename acc_t>
__global__ void layer_norm_bwd_gamma_beta(const scalar_t *__restrict__ dY, const scalar_t *__restrict__ X,
                                          const acc_t *__restrict__ mean, const acc_t *__restrict__ rstd,
                                          scalar_t *__restrict__ dgamma, scalar_t *__restrict__ dbeta, int M, int N)
{
    __shared__ acc_t g_tile[32][33];
    __shared__ acc_t b_tile[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j = blockIdx.x * 32 + tx;
    acc_t dg = acc_t(0), db = acc_t(0);
    if (j < N) {
        for (int i = ty; i < M; i += blockDim.y) {
            const int64_t idx = (int64_t)i * N + j;
            const acc_t dy = static_cast<acc_t>(dY[idx]);
            dg += dy * (static_cast<acc_t>(X[idx]) - mean[i]) * rstd[i];
            db += dy;
        }
    }
    g_tile[ty][tx] = dg;
    b_tile[ty][tx] = db;
    __syncthreads();
    for (int c = ty; c < 32; c += blockDim.y) {
        acc_t sg = tx < (int)blockDim.y ? g_tile[tx][c] : acc_t(0);
        acc_t sb = tx < (int)blockDim.y ? b_tile[tx][c] : acc_t(0);
        sg = f11::warp_all_reduce(sg, f11::SumOp());
        sb = f11::warp_all_reduce(sb, f11::SumOp());
        const int col = blockIdx.x * 32 + c;
        if (tx == 0 && col < N) {
            dgamma[col] = static_cast<scalar_t>(sg);
            dbeta[col] = static_cast<scalar_t>(sb);
        }
    }
}

// GroupNorm statistics: a block per (n, group); sum and sum of squares of group_size contiguous elements.
template <typename T>
__global__ void group_norm_moments(const T *__restrict__ X, T *__restrict__ mean, T *__restrict__ rstd,
                                   int group_size, float eps)
{
    __shared__ T s_sum[C10_WARP_SIZE];
    __shared__ T s_sq[C10_WARP_SIZE];
    const int64_t base = (int64_t)blockIdx.x * group_size;
    T sum = T(0), sq = T(0);
    for (int i = threadIdx.x; i < group_size; i += blockDim.x) {
        const T v = X[base + i];
        sum += v;
        sq += v * v;
    }
    sum = f11::block_all_reduce(sum, f11::SumOp(), T(0), s_sum);
    sq = f11::block_all_reduce(sq, f11::SumOp(), T(0), s_sq);
    if (threadIdx.x == 0) {
        const T mu = sum / T(group_size);
        T var = sq / T(group_size) - mu * mu;
        var = var < T(0) ? T(0) : var;
        mean[blockIdx.x] = mu;
        rstd[blockIdx.x] = f11::rsqrt_(var + T(eps));
    }
}

// GroupNorm apply: element-wise over N * C * HW, per-channel affine, per-group statistics.
template <typename T>
__global__ void group_norm_apply(const T *__restrict__ X, const T *__restrict__ mean, const T *__restrict__ rstd,
                                 const T *__restrict__ gamma, const T *__restrict__ beta, T *__restrict__ Y, int N,
                                 int C, int HW, int G)
{
    const int64_t total = (int64_t)N * C * HW;
    const int D = C / G;
    CUDA_KERNEL_LOOP(i, total)
    {
        const int64_t nc = i / HW;
        const int c = (int)(nc % C);
        const int64_t ng = nc / D;
        Y[i] = (X[i] - mean[ng]) * rstd[ng] * gamma[c] + beta[c];
    }
}

// Softmax forward, a block a row: the row's max, then the sum of exponentials, each through a block reduction with
// one shared value per warp (all warps read every partial), then the normalised row.
template <typename scalar_t, typename acc_t, int BLOCK>
__global__ void softmax_fwd_block(const scalar_t *__restrict__ input, scalar_t *__restrict__ output, int cols)
{
    __shared__ acc_t sbuf[BLOCK / C10_WARP_SIZE];
    const int64_t off = (int64_t)blockIdx.x * cols;
    const scalar_t *in = input + off;
    scalar_t *out = output + off;
    acc_t m = -f11::numeric_max<acc_t>();
    for (int j = threadIdx.x; j < cols; j += BLOCK)
        m = f11::MaxOp()(m, static_cast<acc_t>(in[j]));
    m = f11::block_all_reduce(m, f11::MaxOp(), -f11::numeric_max<acc_t>(), sbuf);
    acc_t s = acc_t(0);
    for (int j = threadIdx.x; j < cols; j += BLOCK)
        s += f11::exp_(static_cast<acc_t>(in[j]) - m);
    s = f11::block_all_reduce(s, f11::SumOp(), acc_t(0), sbuf);
    const acc_t inv = acc_t(1) / s;
    for (int j = threadIdx.x; j < cols; j += BLOCK)
        out[j] = static_cast<scalar_t>(f11::exp_(static_cast<acc_t>(in[j]) - m) * inv);
}

// =============================================================================================================
// 2. indexing, scans, sorting, selection
// =============================================================================================================

// index_select along dim 0 with int64 indices: dst[i, :] = src[idx[i], :]
template <typename scalar_t, typename index_t>
__global__ void index_select_rows(const scalar_t *__restrict__ src, const index_t *__restrict__ idx,
                                  scalar_t *__restrict__ dst, int64_t nidx, int64_t dim)
{
    CUDA_KERNEL_LOOP(linear, nidx * dim)
    {
        const int64_t i = linear / dim, j = linear % dim;
        dst[linear] = src[idx[i] * dim + j];
    }
}

// Embedding backward over sorted indices: warp ty takes the runs of equal indices that start at its positions;
// each lane owns one feature of the block's 32-feature slab and sums the run's gradient rows (no atomics).
template <typename scalar_t>
__global__ void embedding_backward_sorted(const int64_t *__restrict__ sorted_idx, const int64_t *__restrict__ orig_pos,
                                          const scalar_t *__restrict__ grad_out, scalar_t *__restrict__ grad_weight,
                                          int64_t n, int64_t dim)
{
    const int64_t f = (int64_t)blockIdx.x * 32 + threadIdx.x;
    for (int64_t s = threadIdx.y; s < n; s += blockDim.y) {
        const int64_t w = sorted_idx[s];
        if (s > 0 && sorted_idx[s - 1] == w)
            continue;  // not the start of a run
        scalar_t acc = scalar_t(0);
        for (int64_t k = s; k < n && sorted_idx[k] == w; ++k)
            if (f < dim)
                acc += grad_out[orig_pos[k] * dim + f];
        if (f < dim)
            grad_weight[w * dim + f] = acc;
    }
}

// cumsum of each row: a Kogge-Stone scan of BLOCK elements in a double-buffered shared array, with the running
// total of the earlier chunks carried through shared memory.
template <typename scalar_t, int BLOCK>
__global__ void cumsum_rows_kogge_stone(const scalar_t *__restrict__ in, scalar_t *__restrict__ out, int cols)
{
    __shared__ scalar_t buf[2][BLOCK];
    __shared__ scalar_t carry;
    const int tid = threadIdx.x;
    const int64_t row = (int64_t)blockIdx.x * cols;
    if (tid == 0)
        carry = scalar_t(0);
    for (int base = 0; base < cols; base += BLOCK) {
        const int j = base + tid;
        int pout = 0, pin = 1;
        buf[pout][tid] = j < cols ? in[row + j] : scalar_t(0);
        __syncthreads();
        for (int off = 1; off < BLOCK; off <<= 1) {
            pout = 1 - pout;
            pin = 1 - pout;
            if (tid >= off)
                buf[pout][tid] = buf[pin][tid] + buf[pin][tid - off];
            else
                buf[pout][tid] = buf[pin][tid];
            __syncthreads();
        }
        const scalar_t s = buf[pout][tid] + carry;
        if (j < cols)
            out[row + j] = s;
        __syncthreads();
        if (tid == BLOCK - 1)
            carry = s;
        __syncthreads();
    }
}

// Blelloch's work-efficient exclusive scan of 2 * BLOCK ints a block (GPU Gems 3, 39.2), optionally with the
// CONFLICT_FREE_OFFSET padding; the block's total goes to block_sums.
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
template <int BLOCK, bool AVOID_CONFLICTS>
__global__ void blelloch_scan(const int *__restrict__ in, int *__restrict__ out, int *__restrict__ block_sums, int n)
{
    constexpr int NE = 2 * BLOCK;
    __shared__ int temp[NE + NE / 32];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * NE;
    int ai = tid, bi = tid + BLOCK;
    const int bankA = AVOID_CONFLICTS ? CONFLICT_FREE_OFFSET(ai) : 0;
    const int bankB = AVOID_CONFLICTS ? CONFLICT_FREE_OFFSET(bi) : 0;
    temp[ai + bankA] = base + ai < n ? in[base + ai] : 0;
    temp[bi + bankB] = base + bi < n ? in[base + bi] : 0;
    int offset = 1;
    for (int d = NE >> 1; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
            if (AVOID_CONFLICTS) {
                a += CONFLICT_FREE_OFFSET(a);
                b += CONFLICT_FREE_OFFSET(b);
            }
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (tid == 0) {
        const int last = NE - 1 + (AVOID_CONFLICTS ? CONFLICT_FREE_OFFSET(NE - 1) : 0);
        block_sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < NE; d *= 2) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
            if (AVOID_CONFLICTS) {
                a += CONFLICT_FREE_OFFSET(a);
                b += CONFLICT_FREE_OFFSET(b);
            }
            const int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n)
        out[base + ai] = temp[ai + bankA];
    if (base + bi < n)
        out[base + bi] = temp[bi + bankB];
}

// Bitonic sort of N (key, value) pairs in shared memory, a block an array; ascending keys.
template <int N>
__global__ void bitonic_sort_kv_shared(float *__restrict__ keys, int *__restrict__ vals)
{
    __shared__ float sk[N];
    __shared__ int sv[N];
    const int base = blockIdx.x * N;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        sk[i] = keys[base + i];
        sv[i] = vals[base + i];
    }
    __syncthreads();
    for (int k = 2; k <= N; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < N; i += blockDim.x) {
                const int ixj = i ^ j;
                if (ixj > i) {
                    const bool up = (i & k) == 0;
                    const float a = sk[i], b = sk[ixj];
                    if ((a > b) == up) {
                        sk[i] = b;
                        sk[ixj] = a;
                        const int t = sv[i];
                        sv[i] = sv[ixj];
                        sv[ixj] = t;
                    }
                }
            }
            __syncthreads();
        }
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        keys[base + i] = sk[i];
        vals[base + i] = sv[i];
    }
}

// radix select, the counting pass: a histogram of one byte of the keys that match the desired prefix, in shared
// memory, one histogram a block.
extern "C" __global__ void radix_select_count_byte(const unsigned *__restrict__ keys, int n, unsigned desired,
                                                   unsigned desired_mask, int digit_pos, int *__restrict__ counts)
{
    __shared__ int s_counts[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        s_counts[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const unsigned k = keys[i];
        if ((k & desired_mask) == desired)
            atomicAdd(&s_counts[(k >> digit_pos) & 255u], 1);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        counts[blockIdx.x * 256 + b] = s_counts[b];
}

// the same pass with ATen's 2-bit digits: per-warp ballots and popcounts, lane 0 adding into shared counts
extern "C" __global__ void radix_select_count_ballot(const unsigned *__restrict__ keys, int n, unsigned desired,
                                                     unsigned desired_mask, int digit_pos, int *__restrict__ counts)
{
    constexpr int RADIX_SIZE = 4;
    __shared__ int smem[RADIX_SIZE];
    if (threadIdx.x < RADIX_SIZE)
        smem[threadIdx.x] = 0;
    __syncthreads();
    int local[RADIX_SIZE] = {0, 0, 0, 0};
    const int stride = blockDim.x * gridDim.x;
    for (int i0 = blockIdx.x * blockDim.x; i0 < n; i0 += stride) {  // whole warps step together
        const int i = i0 + threadIdx.x;
        const bool in = i < n;
        const unsigned k = in ? keys[i] : 0u;
        const bool has = in && (k & desired_mask) == desired;
        const unsigned digit = (k >> digit_pos) & (RADIX_SIZE - 1);
#pragma unroll
        for (int j = 0; j < RADIX_SIZE; ++j) {
            const unsigned vote = __ballot_sync(F11_FULL_MASK, has && digit == (unsigned)j);
            local[j] += __popc(vote);
        }
    }
    if (threadIdx.x % 32 == 0) {
#pragma unroll
        for (int j = 0; j < RADIX_SIZE; ++j)
            atomicAdd(&smem[j], local[j]);
    }
    __syncthreads();
    if (threadIdx.x < RADIX_SIZE)
        counts[blockIdx.x * RADIX_SIZE + threadIdx.x] = smem[threadIdx.x];
}

// =============================================================================================================
// 3. images (OpenCV / NPP style)
// =============================================================================================================

// Separable Gaussian, the row pass: a BY x (BX + 2R) shared strip with replicated borders, taps in c_gauss.
// Blocks walk the rows in steps of gridDim.y * BY.
template <typename T, int KSIZE>
__global__ void gauss_row_filter(const T *__restrict__ src, int src_step, float *__restrict__ dst, int dst_step,
                                 int width, int height)
{
    constexpr int BX = 32, BY = 8, R = KSIZE / 2;
    __shared__ float smem[BY][BX + 2 * R];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx;
    for (int y0 = blockIdx.y * BY; y0 < height; y0 += gridDim.y * BY) {
        const int y = y0 + ty;
        const T *row = src + f11::clamp_idx(y, height) * src_step;
        smem[ty][tx + R] = (float)row[f11::clamp_idx(x, width)];
        if (tx < R) {
            smem[ty][tx] = (float)row[f11::clamp_idx(x - R, width)];
            smem[ty][tx + BX + R] = (float)row[f11::clamp_idx(x + BX, width)];
        }
        __syncthreads();
        if (x < width && y < height) {
            float sum = 0.f;
#pragma unroll
            for (int k = 0; k < KSIZE; ++k)
                sum += c_gauss[k] * smem[ty][tx + k];
            dst[y * dst_step + x] = sum;
        }
        __syncthreads();
    }
}

// the column pass: a (BY + 2R) x BX shared strip, its halo rows loaded by the first R rows of threads
template <typename D, int KSIZE>
__global__ void gauss_col_filter(const float *__restrict__ src, int src_step, D *__restrict__ dst, int dst_step,
                                 int width, int height)
{
    constexpr int BX = 32, BY = 8, R = KSIZE / 2;
    __shared__ float smem[BY + 2 * R][BX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx;
    const int xc = f11::clamp_idx(x, width);
    for (int y0 = blockIdx.y * BY; y0 < height; y0 += gridDim.y * BY) {
        const int y = y0 + ty;
        smem[ty + R][tx] = src[f11::clamp_idx(y, height) * src_step + xc];
        if (ty < R) {
            smem[ty][tx] = src[f11::clamp_idx(y - R, height) * src_step + xc];
            smem[ty + BY + R][tx] = src[f11::clamp_idx(y0 + BY + ty, height) * src_step + xc];
        }
        __syncthreads();
        if (x < width && y < height) {
            float sum = 0.f;
#pragma unroll
            for (int k = 0; k < KSIZE; ++k)
                sum += c_gauss[k] * smem[ty + k][tx];
            dst[y * dst_step + x] = f11::SaturateCast<D>::cast(sum);
        }
        __syncthreads();
    }
}

// 3x3 median of uchar through a shared (BY + 2) x (BX + 2) tile loaded cooperatively; a 19-exchange network
#define F11_SORT2(a, b)                 \
    {                                   \
        const unsigned char lo_ = min(a, b); \
        b = max(a, b);                  \
        a = lo_;                        \
    }
extern "C" __global__ void median3x3_u8(const unsigned char *__restrict__ src, unsigned char *__restrict__ dst,
                                        int width, int height, int step)
{
    constexpr int BX = 32, BY = 8, TW = BX + 2, TH = BY + 2;
    __shared__ unsigned char tile[TH][TW];
    const int tid = threadIdx.y * BX + threadIdx.x;
    const int x0 = blockIdx.x * BX;
    for (int y0 = blockIdx.y * BY; y0 < height; y0 += gridDim.y * BY) {
        for (int i = tid; i < TW * TH; i += BX * BY) {
            const int r = i / TW, c = i % TW;
            const int gy = f11::clamp_idx(y0 + r - 1, height), gx = f11::clamp_idx(x0 + c - 1, width);
            tile[r][c] = src[gy * step + gx];
        }
        __syncthreads();
        const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
        if (x < width && y < height) {
            unsigned char p0 = tile[threadIdx.y][threadIdx.x], p1 = tile[threadIdx.y][threadIdx.x + 1],
                          p2 = tile[threadIdx.y][threadIdx.x + 2], p3 = tile[threadIdx.y + 1][threadIdx.x],
                          p4 = tile[threadIdx.y + 1][threadIdx.x + 1], p5 = tile[threadIdx.y + 1][threadIdx.x + 2],
                          p6 = tile[threadIdx.y + 2][threadIdx.x], p7 = tile[threadIdx.y + 2][threadIdx.x + 1],
                          p8 = tile[threadIdx.y + 2][threadIdx.x + 2];
            F11_SORT2(p1, p2); F11_SORT2(p4, p5); F11_SORT2(p7, p8);
            F11_SORT2(p0, p1); F11_SORT2(p3, p4); F11_SORT2(p6, p7);
            F11_SORT2(p1, p2); F11_SORT2(p4, p5); F11_SORT2(p7, p8);
            F11_SORT2(p0, p3); F11_SORT2(p5, p8); F11_SORT2(p4, p7);
            F11_SORT2(p3, p6); F11_SORT2(p1, p4); F11_SORT2(p2, p5);
            F11_SORT2(p4, p7); F11_SORT2(p4, p2); F11_SORT2(p6, p4);
            F11_SORT2(p4, p2);
            dst[y * step + x] = p4;
        }
        __syncthreads();
    }
}

// bilinear resize of 4-channel 8-bit pixels (half-pixel centres, replicated border)
extern "C" __global__ void resize_bilinear_u8c4(const uchar4 *__restrict__ src, int src_w, int src_h, int src_step,
                                                uchar4 *__restrict__ dst, int dst_w, int dst_h, float fx, float fy)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= dst_w)
        return;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < dst_h; y += gridDim.y * blockDim.y) {
        const float sx = (x + 0.5f) * fx - 0.5f, sy = (y + 0.5f) * fy - 0.5f;
        const int x0 = (int)floorf(sx), y0 = (int)floorf(sy);
        const float ax = sx - x0, ay = sy - y0;
        const int xa = f11::clamp_idx(x0, src_w), xb = f11::clamp_idx(x0 + 1, src_w);
        const int ya = f11::clamp_idx(y0, src_h), yb = f11::clamp_idx(y0 + 1, src_h);
        const uchar4 p00 = src[ya * src_step + xa], p01 = src[ya * src_step + xb];
        const uchar4 p10 = src[yb * src_step + xa], p11 = src[yb * src_step + xb];
        const float w00 = (1.f - ax) * (1.f - ay), w01 = ax * (1.f - ay), w10 = (1.f - ax) * ay, w11 = ax * ay;
        uchar4 o;
        o.x = f11::saturate_u8(w00 * p00.x + w01 * p01.x + w10 * p10.x + w11 * p11.x);
        o.y = f11::saturate_u8(w00 * p00.y + w01 * p01.y + w10 * p10.y + w11 * p11.y);
        o.z = f11::saturate_u8(w00 * p00.z + w01 * p01.z + w10 * p10.z + w11 * p11.z);
        o.w = f11::saturate_u8(w00 * p00.w + w01 * p01.w + w10 * p10.w + w11 * p11.w);
        dst[y * dst_w + x] = o;
    }
}

// Sobel on a pitched 8-bit image: gradients as shorts and the magnitude as floats on planes pitched in bytes
extern "C" __global__ void sobel_pitched(const unsigned char *__restrict__ src, int src_pitch, short *__restrict__ gx,
                                         short *__restrict__ gy, float *__restrict__ mag, int dst_pitch, int width,
                                         int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    const int xl = f11::clamp_idx(x - 1, width), xr = f11::clamp_idx(x + 1, width);
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y) {
        const unsigned char *ru = src + f11::clamp_idx(y - 1, height) * src_pitch;
        const unsigned char *rc = src + y * src_pitch;
        const unsigned char *rd = src + f11::clamp_idx(y + 1, height) * src_pitch;
        const int dx = (ru[xr] + 2 * rc[xr] + rd[xr]) - (ru[xl] + 2 * rc[xl] + rd[xl]);
        const int dy = (rd[xl] + 2 * rd[x] + rd[xr]) - (ru[xl] + 2 * ru[x] + ru[xr]);
        short *gxr = (short *)((char *)gx + (size_t)y * dst_pitch);
        short *gyr = (short *)((char *)gy + (size_t)y * dst_pitch);
        float *mr = (float *)((char *)mag + (size_t)y * dst_pitch);
        gxr[x] = (short)dx;
        gyr[x] = (short)dy;
        mr[x] = sqrtf((float)(dx * dx + dy * dy));
    }
}

// integral image, pass 1: an inclusive scan of each row (a block a row, rows strided by gridDim.x), warp shuffle
// scans with the warps' totals in shared memory and a carry between chunks of blockDim.x pixels
extern "C" __global__ void integral_rows_u8(const unsigned char *__restrict__ src, int *__restrict__ sum, int width,
                                            int height)
{
    __shared__ int warp_tot[32];
    __shared__ int carry;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (int y = blockIdx.x; y < height; y += gridDim.x) {
        if (threadIdx.x == 0)
            carry = 0;
        __syncthreads();
        for (int base = 0; base < width; base += blockDim.x) {
            const int x = base + threadIdx.x;
            int v = x < width ? src[y * width + x] : 0;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                const int u = __shfl_up_sync(F11_FULL_MASK, v, o);
                if (lane >= o)
                    v += u;
            }
            if (lane == 31)
                warp_tot[wid] = v;
            __syncthreads();
            int before = carry;
            for (int w = 0; w < wid; ++w)
                before += warp_tot[w];
            v += before;
            if (x < width)
                sum[y * width + x] = v;
            __syncthreads();
            if (threadIdx.x == blockDim.x - 1)
                carry = v;
            (void)nw;
            __syncthreads();
        }
    }
}

// pass 2: a thread a column adds down the rows (coalesced across the columns)
extern "C" __global__ void integral_cols(int *__restrict__ sum, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    int acc = 0;
    for (int y = 0; y < height; ++y) {
        acc += sum[y * width + x];
        sum[y * width + x] = acc;
    }
}

// erosion with a (2R+1)^2 square element through a shared tile with an R halo (outside the image: 255)
template <int R>
__global__ void erode_u8(const unsigned char *__restrict__ src, unsigned char *__restrict__ dst, int width,
                         int height)
{
    constexpr int BX = 32, BY = 8, TW = BX + 2 * R, TH = BY + 2 * R;
    __shared__ unsigned char tile[TH][TW];
    const int tid = threadIdx.y * BX + threadIdx.x;
    const int x0 = blockIdx.x * BX;
    for (int y0 = blockIdx.y * BY; y0 < height; y0 += gridDim.y * BY) {
        for (int i = tid; i < TW * TH; i += BX * BY) {
            const int r = i / TW, c = i % TW;
            const int gy = y0 + r - R, gx = x0 + c - R;
            tile[r][c] = (gx >= 0 && gx < width && gy >= 0 && gy < height) ? src[gy * width + gx] : (unsigned char)255;
        }
        __syncthreads();
        const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
        if (x < width && y < height) {
            unsigned char m = 255;
#pragma unroll
            for (int dy = 0; dy <= 2 * R; ++dy)
#pragma unroll
                for (int dx = 0; dx <= 2 * R; ++dx)
                    m = min(m, tile[threadIdx.y + dy][threadIdx.x + dx]);
            dst[y * width + x] = m;
        }
        __syncthreads();
    }
}

// =============================================================================================================
// 4. finite differences
// =============================================================================================================

// x-derivative, 8th order, periodic in x, on 64 x sPencils pencils (Harris' finite-difference code): block
// (64, 4), grid (my / 4, mz); the 4-point halo filled from the pencil's own far end.
template <int MX>
__global__ void fd_deriv_x_pencil(const float *__restrict__ f, float *__restrict__ df, int my, float scale)
{
    constexpr int SP = 4;
    __shared__ float s_f[SP][MX + 8];
    const int i = threadIdx.x, j = blockIdx.x * blockDim.y + threadIdx.y, k = blockIdx.y;
    const int si = i + 4, sj = threadIdx.y;
    const int g = k * MX * my + j * MX + i;
    s_f[sj][si] = f[g];
    __syncthreads();
    if (i < 4) {
        s_f[sj][si - 4] = s_f[sj][si + MX - 5];
        s_f[sj][si + MX] = s_f[sj][si + 1];
    }
    __syncthreads();
    df[g] = scale * (c_fd[1] * (s_f[sj][si + 1] - s_f[sj][si - 1]) + c_fd[2] * (s_f[sj][si + 2] - s_f[sj][si - 2]) +
                     c_fd[3] * (s_f[sj][si + 3] - s_f[sj][si - 3]) + c_fd[4] * (s_f[sj][si + 4] - s_f[sj][si - 4]));
}

// y-derivative on a transposed pencil: block (4, MY), the shared pencil [MY + 8][4] walked down a column
template <int MY>
__global__ void fd_deriv_y_pencil(const float *__restrict__ f, float *__restrict__ df, int mx, float scale)
{
    constexpr int SP = 4;
    __shared__ float s_f[MY + 8][SP];
    const int i = blockIdx.x * SP + threadIdx.x, j = threadIdx.y, k = blockIdx.y;
    const int si = threadIdx.x, sj = j + 4;
    const int g = k * mx * MY + j * mx + i;
    s_f[sj][si] = f[g];
    __syncthreads();
    if (j < 4) {
        s_f[sj - 4][si] = s_f[sj + MY - 5][si];
        s_f[sj + MY][si] = s_f[sj + 1][si];
    }
    __syncthreads();
    df[g] = scale * (c_fd[1] * (s_f[sj + 1][si] - s_f[sj - 1][si]) + c_fd[2] * (s_f[sj + 2][si] - s_f[sj - 2][si]) +
                     c_fd[3] * (s_f[sj + 3][si] - s_f[sj - 3][si]) + c_fd[4] * (s_f[sj + 4][si] - s_f[sj - 4][si]));
}

// z-derivative straight from global memory: a thread an (x, y) column walks z, reading planes nx * ny apart
template <int R>
__global__ void fd_deriv_z_global(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz,
                                  float scale)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    const int plane = nx * ny;
    for (int z = R; z < nz - R; ++z) {
        float d = 0.f;
#pragma unroll
        for (int k = 1; k <= R; ++k)
            d += c_fd[k] * (in[(z + k) * ny * nx + y * nx + x] - in[(z - k) * ny * nx + y * nx + x]);
        out[z * plane + y * nx + x] = scale * d;
    }
}

// 2-D Laplacian of order 2R with a shared (BY + 2R) x (BX + 2R) tile; interior points only
template <int R>
__global__ void laplace2d_shared(const float *__restrict__ u, float *__restrict__ lap, int nx, int ny)
{
    constexpr int BX = 32, BY = 8;
    __shared__ float t[BY + 2 * R][BX + 2 * R];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx;
    for (int y0 = blockIdx.y * BY; y0 < ny; y0 += gridDim.y * BY) {
        const int y = y0 + ty;
        const int xc = min(x, nx - 1), yc = min(y, ny - 1);
        t[ty + R][tx + R] = u[yc * nx + xc];
        if (tx < R) {
            t[ty + R][tx] = u[yc * nx + max(x - R, 0)];
            t[ty + R][tx + BX + R] = u[yc * nx + min(x + BX, nx - 1)];
        }
        if (ty < R) {
            t[ty][tx + R] = u[max(y - R, 0) * nx + xc];
            t[ty + BY + R][tx + R] = u[min(y0 + BY + ty, ny - 1) * nx + xc];
        }
        __syncthreads();
        if (x >= R && x < nx - R && y >= R && y < ny - R) {
            float s = 2.f * c_fd[0] * t[ty + R][tx + R];
#pragma unroll
            for (int k = 1; k <= R; ++k)
                s += c_fd[k] * (t[ty + R][tx + R + k] + t[ty + R][tx + R - k] + t[ty + R + k][tx + R] +
                                t[ty + R - k][tx + R]);
            lap[y * nx + x] = s;
        }
        __syncthreads();
    }
}

// the same Laplacian with every neighbour read from global memory
template <int R>
__global__ void laplace2d_global(const float *__restrict__ u, float *__restrict__ lap, int nx, int ny)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < ny; y += gridDim.y * blockDim.y) {
        if (x >= R && x < nx - R && y >= R && y < ny - R) {
            float s = 2.f * c_fd[0] * u[y * nx + x];
#pragma unroll
            for (int k = 1; k <= R; ++k)
                s += c_fd[k] * (u[y * nx + x + k] + u[y * nx + x - k] + u[(y + k) * nx + x] + u[(y - k) * nx + x]);
            lap[y * nx + x] = s;
        }
    }
}

// =============================================================================================================
// 5. distances and selection (faiss / k-means style)
// =============================================================================================================

// squared L2 distances of nq queries to nc centroids: a thread a query (kept in registers), centroids TC at a
// time in a shared tile, every thread reading the same centroid element (broadcast)
template <int D, int TC>
__global__ void l2_dist_centroid_tile(const float *__restrict__ queries, const float *__restrict__ centroids,
                                      float *__restrict__ dist, int nq, int nc)
{
    __shared__ float s_c[TC][D];
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    float qv[D];
#pragma unroll
    for (int d = 0; d < D; ++d)
        qv[d] = q < nq ? queries[q * D + d] : 0.f;
    for (int c0 = 0; c0 < nc; c0 += TC) {
        for (int i = threadIdx.x; i < TC * D; i += blockDim.x) {
            const int c = c0 + i / D;
            s_c[i / D][i % D] = c < nc ? centroids[c * D + i % D] : 0.f;
        }
        __syncthreads();
        const int nt = min(TC, nc - c0);
        for (int c = 0; c < nt; ++c) {
            float acc = 0.f;
#pragma unroll
            for (int d = 0; d < D; ++d) {
                const float diff = qv[d] - s_c[c][d];
                acc += diff * diff;
            }
            if (q < nq)
                dist[q * nc + c0 + c] = acc;
        }
        __syncthreads();
    }
}

// argmin of each row with a warp a row: lanes stride the row, then a shuffle reduction of (value, index) pairs
// with ties to the lower index
extern "C" __global__ void argmin_rows_warp(const float *__restrict__ dist, int nrows, int ncols,
                                            int *__restrict__ assign, float *__restrict__ best)
{
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int nwarps = (gridDim.x * blockDim.x) >> 5;
    for (int r = warp; r < nrows; r += nwarps) {
        float v = __int_as_float(0x7f800000);
        int idx = 0x7fffffff;
        for (int j = lane; j < ncols; j += 32) {
            const float d = dist[(int64_t)r * ncols + j];
            if (d < v) {
                v = d;
                idx = j;
            }
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(F11_FULL_MASK, v, o);
            const int oi = __shfl_xor_sync(F11_FULL_MASK, idx, o);
            if (ov < v || (ov == v && oi < idx)) {
                v = ov;
                idx = oi;
            }
        }
        if (lane == 0) {
            assign[r] = idx;
            best[r] = v;
        }
    }
}

// warp-select top-K (smallest): a warp a row; the warp's sorted queue of K candidates in shared memory; the lanes
// whose value beats the queue's last are inserted one at a time (ballot order), the first K lanes shifting the
// queue in parallel
template <int K>
__global__ void warp_select_topk(const float *__restrict__ dist, int nrows, int ncols, float *__restrict__ out_d,
                                 int *__restrict__ out_i)
{
    __shared__ float q_d[8][K];
    __shared__ int q_i[8][K];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int nwarps = (gridDim.x * blockDim.x) >> 5;
    const float inf = __int_as_float(0x7f800000);
    for (int r = warp; r < nrows; r += nwarps) {
        if (lane < K) {
            q_d[w][lane] = inf;
            q_i[w][lane] = -1;
        }
        __syncwarp();
        for (int base = 0; base < ncols; base += 32) {
            const int j = base + lane;
            const float v = j < ncols ? dist[(int64_t)r * ncols + j] : inf;
            unsigned m = __ballot_sync(F11_FULL_MASK, v < q_d[w][K - 1]);
            while (m) {
                const int src = __ffs(m) - 1;
                m &= m - 1;
                const float cv = __shfl_sync(F11_FULL_MASK, v, src);
                if (!(cv < q_d[w][K - 1]))
                    continue;
                float nd = 0.f;
                int ni = 0;
                if (lane < K) {
                    const float my = q_d[w][lane];
                    const int mi = q_i[w][lane];
                    const float prev = lane > 0 ? q_d[w][lane - 1] : -inf;
                    const int previ = lane > 0 ? q_i[w][lane - 1] : -1;
                    if (my <= cv) {
                        nd = my;
                        ni = mi;
                    } else if (prev <= cv) {
                        nd = cv;
                        ni = base + src;
                    } else {
                        nd = prev;
                        ni = previ;
                    }
                }
                __syncwarp();
                if (lane < K) {
                    q_d[w][lane] = nd;
                    q_i[w][lane] = ni;
                }
                __syncwarp();
            }
        }
        if (lane < K) {
            out_d[r * K + lane] = q_d[w][lane];
            out_i[r * K + lane] = q_i[w][lane];
        }
        __syncwarp();
    }
}

// =============================================================================================================
// 6. dense linear algebra (MAGMA / cuBLAS style, column-major)
// =============================================================================================================

// batched out-of-place transpose, a matrix per blockIdx.z: B_b (n x m) = A_b^T (A_b m x n), 32x33 tiles, 32x8 blocks
template <typename T>
__global__ void batched_transpose_tile(const T *__restrict__ A, int lda, int strideA, T *__restrict__ B, int ldb,
                                       int strideB, int m, int n)
{
    __shared__ T tile[32][33];
    A += (int64_t)blockIdx.z * strideA;
    B += (int64_t)blockIdx.z * strideB;
    const int i0 = blockIdx.x * 32, j0 = blockIdx.y * 32;
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += 8)
        if (i0 + tx < m && j0 + r < n)
            tile[r][tx] = A[i0 + tx + (int64_t)(j0 + r) * lda];
    __syncthreads();
    for (int r = ty; r < 32; r += 8)
        if (j0 + tx < n && i0 + r < m)
            B[j0 + tx + (int64_t)(i0 + r) * ldb] = tile[tx][r];
}

// conjugate transpose of a complex<double> matrix (double2) through a [32][32 + PAD] tile
template <int PAD>
__global__ void zconj_transpose(const double2 *__restrict__ A, int lda, double2 *__restrict__ B, int ldb, int m, int n)
{
    __shared__ double2 tile[32][32 + PAD];
    const int i0 = blockIdx.x * 32, j0 = blockIdx.y * 32;
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < 32; r += blockDim.y)
        if (i0 + tx < m && j0 + r < n)
            tile[r][tx] = A[i0 + tx + (j0 + r) * lda];
    __syncthreads();
    for (int r = ty; r < 32; r += blockDim.y)
        if (j0 + tx < n && i0 + r < m)
            B[j0 + tx + (i0 + r) * ldb] = f11::zconj(tile[tx][r]);
}

// in-place transpose of a square n x n matrix: the diagonal blocks transpose their own tile, the blocks below the
// diagonal swap their tile with the mirror one, the blocks above leave
extern "C" __global__ void transpose_inplace_square(float *__restrict__ A, int n, int lda)
{
    __shared__ float ta[32][33];
    __shared__ float tb[32][33];
    const int bx = blockIdx.x, by = blockIdx.y;
    if (bx > by)
        return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = by * 32, c0 = bx * 32;
    for (int r = ty; r < 32; r += 8) {
        if (r0 + r < n && c0 + tx < n)
            ta[r][tx] = A[(c0 + tx) * lda + r0 + r];
        if (bx != by && c0 + r < n && r0 + tx < n)
            tb[r][tx] = A[(r0 + tx) * lda + c0 + r];
    }
    __syncthreads();
    for (int r = ty; r < 32; r += 8) {
        if (c0 + r < n && r0 + tx < n)
            A[(r0 + tx) * lda + c0 + r] = ta[tx][r];
        if (bx != by && r0 + r < n && c0 + tx < n)
            A[(c0 + tx) * lda + r0 + r] = tb[tx][r];
    }
}

// y = alpha * A^T x + beta * y: a block a column, its NB_WARPS warps striding down the column, the warps' partial
// dots in shared memory
template <int NB_WARPS>
__global__ void gemv_t_colwarp(int m, int n, float alpha, const float *__restrict__ A, int lda,
                               const float *__restrict__ x, float beta, float *__restrict__ y)
{
    __shared__ float part[NB_WARPS];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    for (int j = blockIdx.x; j < n; j += gridDim.x) {
        float s = 0.f;
        for (int i = threadIdx.x; i < m; i += NB_WARPS * 32)
            s += A[(int64_t)j * lda + i] * x[i];
        s = f11::warp_all_reduce(s, f11::SumOp());
        if (lane == 0)
            part[w] = s;
        __syncthreads();
        if (threadIdx.x == 0) {
            float t = 0.f;
#pragma unroll
            for (int k = 0; k < NB_WARPS; ++k)
                t += part[k];
            y[j] = alpha * t + beta * y[j];
        }
        __syncthreads();
    }
}

// y = alpha * A x + beta * y: a thread a row, x staged through shared memory BLK elements at a time
template <int BLK>
__global__ void gemv_n_shared_x(int m, int n, float alpha, const float *__restrict__ A, int lda,
                                const float *__restrict__ x, float beta, float *__restrict__ y)
{
    __shared__ float sx[BLK];
    const int i = blockIdx.x * BLK + threadIdx.x;
    float s = 0.f;
    for (int j0 = 0; j0 < n; j0 += BLK) {
        if (j0 + threadIdx.x < n)
            sx[threadIdx.x] = x[j0 + threadIdx.x];
        __syncthreads();
        const int nj = min(BLK, n - j0);
        if (i < m)
            for (int jj = 0; jj < nj; ++jj)
                s += A[(int64_t)(j0 + jj) * lda + i] * sx[jj];
        __syncthreads();
    }
    if (i < m)
        y[i] = alpha * s + beta * y[i];
}

// C = alpha * A A^T + beta * C, lower triangle (n x n, A n x k, column-major): the blocks above the diagonal skip
template <int T>
__global__ void syrk_lower_tile(int n, int k, float alpha, const float *__restrict__ A, int lda, float beta,
                                float *__restrict__ C, int ldc)
{
    if (blockIdx.x > blockIdx.y)
        return;
    __shared__ float sa[T][T + 1];
    __shared__ float sb[T][T + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + tx, col = blockIdx.x * T + ty;
    float acc = 0.f;
    for (int k0 = 0; k0 < k; k0 += T) {
        // sa[kk][r] = A(row0 + r, k0 + kk), sb[kk][c] = A(col0 + c, k0 + kk)
        sa[ty][tx] = (row < n && k0 + ty < k) ? A[row + (k0 + ty) * lda] : 0.f;
        sb[ty][tx] = (blockIdx.x * T + tx < n && k0 + ty < k) ? A[blockIdx.x * T + tx + (k0 + ty) * lda] : 0.f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < T; ++kk)
            acc += sa[kk][tx] * sb[kk][ty];
        __syncthreads();
    }
    if (row < n && col < n && row >= col)
        C[row + col * ldc] = alpha * acc + beta * C[row + col * ldc];
}

// =============================================================================================================
// 7. sparse
// =============================================================================================================

extern "C" __global__ void csr_spmv_scalar(int nrows, const int *__restrict__ row_ptr, const int *__restrict__ cols,
                                           const float *__restrict__ vals, const float *__restrict__ x,
                                           float *__restrict__ y)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += blockDim.x * gridDim.x) {
        float s = 0.f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
            s += vals[k] * x[cols[k]];
        y[r] = s;
    }
}

// TPR threads a row (32: a warp), shuffles within the row's group
template <int TPR>
__global__ void csr_spmv_vector(int nrows, const int *__restrict__ row_ptr, const int *__restrict__ cols,
                                const float *__restrict__ vals, const float *__restrict__ x, float *__restrict__ y)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % TPR;
    const int ngroups = blockDim.x * gridDim.x / TPR;
    for (int r = t / TPR; r < nrows + (ngroups - nrows % ngroups) % ngroups; r += ngroups) {  // whole warps iterate
        float s = 0.f;
        if (r < nrows) {
            const int beg = row_ptr[r], end = row_ptr[r + 1];
            for (int k = beg + lane; k < end; k += TPR)
                s += vals[k] * __ldg(x + cols[k]);
        }
#pragma unroll
        for (int o = TPR / 2; o > 0; o >>= 1)
            s += __shfl_down_sync(F11_FULL_MASK, s, o, TPR);
        if (lane == 0 && r < nrows)
            y[r] = s;
    }
}

// ELL, column-major and padded with column -1
extern "C" __global__ void ell_spmv(int nrows, int width, const int *__restrict__ ell_cols,
                                    const float *__restrict__ ell_vals, const float *__restrict__ x,
                                    float *__restrict__ y)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    float s = 0.f;
    for (int k = 0; k < width; ++k) {
        const int c = ell_cols[k * nrows + r];
        if (c >= 0)
            s += ell_vals[k * nrows + r] * x[c];
    }
    y[r] = s;
}

// COO SpMV by a segmented scan a block (rows sorted): segments that end inside the block write y; the block's last
// segment leaves a carry-out (row, partial) for coo_carry_fixup
#define COO_CHUNK 256
extern "C" __global__ void coo_spmv_segreduce(const int *__restrict__ rows, const int *__restrict__ cols,
                                              const float *__restrict__ vals, const float *__restrict__ x, int nnz,
                                              float *__restrict__ y, int *__restrict__ carry_row,
                                              float *__restrict__ carry_val)
{
    __shared__ int s_row[COO_CHUNK];
    __shared__ float s_val[COO_CHUNK];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * COO_CHUNK + tid;
    const int r = i < nnz ? rows[i] : -1;
    s_row[tid] = r;
    s_val[tid] = i < nnz ? vals[i] * x[cols[i]] : 0.f;
    __syncthreads();
    for (int off = 1; off < COO_CHUNK; off <<= 1) {
        const float left = (tid >= off && s_row[tid - off] == r) ? s_val[tid - off] : 0.f;
        __syncthreads();
        s_val[tid] += left;
        __syncthreads();
    }
    if (i >= nnz)
        return;
    const bool last = tid == COO_CHUNK - 1 || i == nnz - 1;
    if (last) {
        carry_row[blockIdx.x] = r;
        carry_val[blockIdx.x] = s_val[tid];
    } else if (s_row[tid + 1] != r) {
        y[r] = s_val[tid];
    }
}

extern "C" __global__ void coo_carry_fixup(const int *__restrict__ rows, int nnz, const int *__restrict__ carry_row,
                                           const float *__restrict__ carry_val, int nblocks, float *__restrict__ y)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    float running = 0.f;
    int prev = -1;
    for (int b = 0; b < nblocks; ++b) {
        const int r = carry_row[b];
        running = r == prev ? running + carry_val[b] : carry_val[b];
        prev = r;
        const int next_first = (b + 1) * COO_CHUNK < nnz ? rows[(b + 1) * COO_CHUNK] : -1;
        if (next_first != r)
            y[r] = running;  // the row ended with the block
        else if (carry_row[b + 1] != r)
            y[r] += running;  // the next block ended the row and wrote its part
    }
}

// histogram of CSR row lengths in log2 bins (bin 0: empty rows), shared then global atomics
extern "C" __global__ void csr_row_length_hist(const int *__restrict__ row_ptr, int nrows, int nbins,
                                               int *__restrict__ hist)
{
    __shared__ int s_hist[32];
    if (threadIdx.x < 32)
        s_hist[threadIdx.x] = 0;
    __syncthreads();
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < nrows; r += blockDim.x * gridDim.x) {
        const int len = row_ptr[r + 1] - row_ptr[r];
        const int b = min(len == 0 ? 0 : 32 - __clz(len), nbins - 1);
        atomicAdd(&s_hist[b], 1);
    }
    __syncthreads();
    if (threadIdx.x < nbins && s_hist[threadIdx.x])
        atomicAdd(&hist[threadIdx.x], s_hist[threadIdx.x]);
}

// =============================================================================================================
// 8. global-memory access patterns
// =============================================================================================================

// out[i * out_stride + out_off] = in[i * in_stride + in_off] for elements of 1 to 16 bytes
template <typename T>
__global__ void strided_gather_scatter(const T *__restrict__ in, T *__restrict__ out, int n, int in_stride,
                                       int out_stride, int in_off, int out_off)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[(int64_t)i * out_stride + out_off] = in[(int64_t)i * in_stride + in_off];
}

// a dot product through __ldg at misaligned bases, reduced in shared memory with a non-power-of-two block
extern "C" __global__ void dot_ldg_partial(const float *__restrict__ a, const float *__restrict__ b, int n, int aoff,
                                           int boff, float *__restrict__ partial)
{
    __shared__ float sdata[128];
    float s = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        s += __ldg(a + aoff + i) * __ldg(b + boff + i);
    sdata[threadIdx.x] = s;
    __syncthreads();
    for (int st = 64; st > 0; st >>= 1) {
        if (threadIdx.x < st && threadIdx.x + st < blockDim.x)
            sdata[threadIdx.x] += sdata[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sdata[0];
}

// gathers of VEC-wide rows through an index array, read-only path
template <typename V>
__global__ void gather_rows_ldg(const int *__restrict__ idx, const V *__restrict__ table, V *__restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = __ldg(table + __ldg(idx + i));
}

// global atomics: counts, maxima, integer-valued float sums and 64-bit sums into nbins bins (distinct or
// colliding), a compare-and-swap flag a bin whose old value is not used
extern "C" __global__ void global_atomic_mix(const int *__restrict__ keys, int n, int nbins, int *__restrict__ counts,
                                             int *__restrict__ maxv, float *__restrict__ fsum,
                                             unsigned long long *__restrict__ usum, int *__restrict__ flags)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int k = keys[i];
        const int b = (k & 0x7fffffff) % nbins;
        atomicAdd(&counts[b], 1);
        atomicMax(&maxv[b], k);
        atomicAdd(&fsum[b], (float)(k & 15));
        atomicAdd(&usum[b], (unsigned long long)(unsigned)k);
        atomicCAS(&flags[b], 0, 1);
    }
}

// a per-thread insertion sort of 9 values (run-time indices: local memory), the median and the range written
extern "C" __global__ void local_insertion_median(const float *__restrict__ in, float *__restrict__ med,
                                                  float *__restrict__ range, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float v[9];
    int cnt = 0;
    for (int k = 0; k < 9; ++k) {
        const float x = in[t * 9 + k];
        int p = cnt;
        while (p > 0 && v[p - 1] > x) {
            v[p] = v[p - 1];
            --p;
        }
        v[p] = x;
        ++cnt;
    }
    med[t] = v[4];
    range[t] = v[8] - v[0];
}

// 3-byte pixels (uchar3) to gray, one byte out
extern "C" __global__ void rgb_to_gray_u8c3(const uchar3 *__restrict__ rgb, unsigned char *__restrict__ gray, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const uchar3 p = rgb[i];
        gray[i] = f11::saturate_u8(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    }
}
