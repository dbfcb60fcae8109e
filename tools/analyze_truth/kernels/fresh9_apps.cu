// fresh9_apps.cu -- the shared- and global-memory chapters, worked through: bank-conflict demos on square and
// rectangular tiles, the reduction ladder, transposes, tiled matrix products, 1-D stencils with constant and
// read-only coefficients, and a set of global-memory access patterns (strides, offsets, element sizes, partial
// warps, gathers, arrays of structures, local memory).
// Plain CUDA C++ with no library headers: it also builds at run time with NVRTC.
#include "fresh9_common.cuh"

#define IPAD_DEFAULT 1
#define MAX_RADIUS 8

__constant__ float c_coef[MAX_RADIUS + 1];

// =============================================================================================================
// 1. bank conflicts
// =============================================================================================================

// A 32x32 float tile written one way and read another, the book's setRowReadRow / setRowReadCol /
// setColReadRow in one kernel: mode 0 row/row, 1 write rows read columns, 2 write columns read rows.
// PAD = 1 gives the [32][33] tile. One block of 32x32 per 1024 outputs.
template <int PAD>
__global__ void square_tile_modes(int *out, int mode)
{
    __shared__ int tile[BDIMY_SQ][BDIMX_SQ + PAD];
    const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned base = blockIdx.x * (blockDim.x * blockDim.y);
    if (mode == 2)
        tile[threadIdx.x][threadIdx.y] = idx;
    else
        tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    if (mode == 1)
        out[base + idx] = tile[threadIdx.x][threadIdx.y];
    else
        out[base + idx] = tile[threadIdx.y][threadIdx.x];
}

// Rectangular tiles: BDIMY rows of BDIMX ints plus IPAD. The block's linear index is re-cut into the transposed
// shape (irow, icol) for the read, as in the book's setRowReadColRect / ...Pad.
template <int BDIMX, int BDIMY, int IPAD>
__global__ void rect_tile_transposed_read(int *out)
{
    __shared__ int tile[BDIMY][BDIMX + IPAD];
    const unsigned idx = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned irow = idx / blockDim.y;
    const unsigned icol = idx % blockDim.y;
    tile[threadIdx.y][threadIdx.x] = idx;
    __syncthreads();
    out[blockIdx.x * BDIMX * BDIMY + idx] = tile[icol][irow];
}

// Dynamic shared tile of n x n ints (n = blockDim.x = blockDim.y) indexed row * (n + pad) + col: written by
// columns, read by rows.
extern "C" __global__ void dyn_tile_col_write(int *out, int pad)
{
    extern __shared__ int dtile[];
    const int n = blockDim.x;
    const unsigned row_idx = threadIdx.y * (n + pad) + threadIdx.x;
    const unsigned col_idx = threadIdx.x * (n + pad) + threadIdx.y;
    const unsigned g = blockIdx.x * n * n + threadIdx.y * n + threadIdx.x;
    dtile[col_idx] = g;
    __syncthreads();
    out[g] = dtile[row_idx] * 2;
}

// Element-size experiment: a 32x32 tile of T (double or char) loaded by rows, stored out by columns.
template <typename T, int PAD>
__global__ void elem_tile_colread(const T *in, T *out)
{
    __shared__ T tile[32][32 + PAD];
    const int tx = threadIdx.x, ty = threadIdx.y;  // 32 x 8
    const int base = blockIdx.x * 32 * 32;
    for (int r = ty; r < 32; r += blockDim.y)
        tile[r][tx] = in[base + r * 32 + tx];
    __syncthreads();
    for (int r = ty; r < 32; r += blockDim.y)
        out[base + r * 32 + tx] = tile[tx][r];
}

// =============================================================================================================
// 2. the reduction ladder (int data, one partial per block)
// =============================================================================================================

// interleaved pairs, stride doubling, with the % test (divergent)
extern "C" __global__ void reduce_neighbored_mod(const int *g_in, int *g_out, unsigned n)
{
    extern __shared__ int sdata[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? g_in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

// interleaved pairs with a contiguous thread index (no divergence, bank conflicts)
extern "C" __global__ void reduce_neighbored_contig(const int *g_in, int *g_out, unsigned n)
{
    extern __shared__ int sdata[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? g_in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        const unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

// sequential addressing
extern "C" __global__ void reduce_sequential(const int *g_in, int *g_out, unsigned n)
{
    extern __shared__ int sdata[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? g_in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

// first add during the load: each block covers 2 * blockDim.x inputs
extern "C" __global__ void reduce_first_add(const int *g_in, int *g_out, unsigned n)
{
    extern __shared__ int sdata[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = i < n ? g_in[i] : 0;
    if (i + blockDim.x < n)
        v += g_in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

// first add of 4 during the load, tree down to 64, then the last warp unrolled on a volatile pointer
extern "C" __global__ void reduce_unroll4_warp(const int *g_in, int *g_out, unsigned n)
{
    extern __shared__ int sdata[];
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int v = 0;
    for (int k = 0; k < 4; ++k) {
        const unsigned i = base + k * blockDim.x;
        if (i < n)
            v += g_in[i];
    }
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        f9::warp_unroll_volatile(sdata, tid);
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

// completely unrolled on the block size, grid-stride first add (Harris' #6 in our words)
template <unsigned BLOCK>
__global__ void reduce_complete_unroll(const int *g_in, int *g_out, unsigned n)
{
    __shared__ int sdata[BLOCK];
    const unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK * 2) + tid;
    const unsigned step = BLOCK * 2 * gridDim.x;
    int sum = 0;
    while (i < n) {
        sum += g_in[i];
        if (i + BLOCK < n)
            sum += g_in[i + BLOCK];
        i += step;
    }
    sdata[tid] = sum;
    __syncthreads();
    if (BLOCK >= 512) {
        if (tid < 256)
            sdata[tid] = sum = sum + sdata[tid + 256];
        __syncthreads();
    }
    if (BLOCK >= 256) {
        if (tid < 128)
            sdata[tid] = sum = sum + sdata[tid + 128];
        __syncthreads();
    }
    if (BLOCK >= 128) {
        if (tid < 64)
            sdata[tid] = sum = sum + sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *vs = sdata;
        vs[tid] = sum = sum + vs[tid + 32];
        vs[tid] = sum = sum + vs[tid + 16];
        vs[tid] = sum = sum + vs[tid + 8];
        vs[tid] = sum = sum + vs[tid + 4];
        vs[tid] = sum = sum + vs[tid + 2];
        vs[tid] = sum = sum + vs[tid + 1];
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

// =============================================================================================================
// 3. transposes (out is ny x nx when in is nx wide and ny tall)
// =============================================================================================================

// naive: read rows (coalesced), write columns (strided)
extern "C" __global__ void transpose_naive_rows(const float *in, float *out, int nx, int ny)
{
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    const int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix < nx && iy < ny)
        out[ix * ny + iy] = in[iy * nx + ix];
}

// naive: read columns (strided), write rows (coalesced)
extern "C" __global__ void transpose_naive_cols(const float *in, float *out, int nx, int ny)
{
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    const int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ix < nx && iy < ny)
        out[iy * nx + ix] = in[ix * ny + iy];
}

// naive, two elements a thread along x (the book's "unroll" transpose)
extern "C" __global__ void transpose_naive_unroll2(const float *in, float *out, int nx, int ny)
{
    const int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    const int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (iy >= ny)
        return;
    if (ix < nx)
        out[ix * ny + iy] = in[iy * nx + ix];
    if (ix + (int)blockDim.x < nx)
        out[(ix + blockDim.x) * ny + iy] = in[iy * nx + ix + blockDim.x];
}

// the 32x32 tile walked by a 32x8 block (each thread 4 rows), PAD 0 or 1; ragged edges guarded
#define TDIM 32
#define TROWS 8
template <int PAD>
__global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[TDIM][TDIM + PAD];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += TROWS)
        if (x < nx && y + j < ny)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
    __syncthreads();
    x = blockIdx.y * TDIM + threadIdx.x;  // swapped block offsets
    y = blockIdx.x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += TROWS)
        if (x < ny && y + j < nx)
            out[(y + j) * ny + x] = tile[threadIdx.x][threadIdx.y + j];
}

// diagonal block reordering on a square grid of square tiles (nx = ny = gridDim.x * TDIM)
extern "C" __global__ void transpose_diagonal(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float tile[TDIM][TDIM + 1];
    const int bid_y = blockIdx.x;
    const int bid_x = (blockIdx.x + blockIdx.y) % gridDim.x;
    int x = bid_x * TDIM + threadIdx.x;
    int y = bid_y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += blockDim.y)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = bid_y * TDIM + threadIdx.x;
    y = bid_x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += blockDim.y)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// shared tile of BDIMY rows x 2*BDIMX columns: each thread loads two elements of a row, then the block writes the
// transposed 2*BDIMX x BDIMY tile, each thread two elements. nx a multiple of 2 * BDIMX, ny of BDIMY.
template <int BDIMX, int BDIMY, int IPAD>
__global__ void transpose_smem_unroll2(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[BDIMY][BDIMX * 2 + IPAD];
    const int c0 = blockIdx.x * BDIMX * 2, r0 = blockIdx.y * BDIMY;
    const int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = in[(r0 + ty) * nx + c0 + tx];
    tile[ty][tx + BDIMX] = in[(r0 + ty) * nx + c0 + tx + BDIMX];
    __syncthreads();
    const int t = ty * BDIMX + tx;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int e = t + k * BDIMX * BDIMY;
        const int orow = e / BDIMY, ocol = e % BDIMY;
        out[(c0 + orow) * ny + r0 + ocol] = tile[ocol][orow];
    }
}

// =============================================================================================================
// 4. tiled matrix products, C = A (M x K) * B (K x N), row-major, any sizes
// =============================================================================================================
template <int TILE>
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.f;
    for (int t = 0; t < DIV_UP(K, TILE); ++t) {
        const int ka = t * TILE + tx, kb = t * TILE + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// two shared buffers: load tile t+1 while computing on tile t, one barrier a step
template <int TILE>
__global__ void matmul_double_buffered(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    const int nt = DIV_UP(K, TILE);
    As[0][ty][tx] = (row < M && tx < K) ? A[row * K + tx] : 0.f;
    Bs[0][ty][tx] = (ty < K && col < N) ? B[ty * N + col] : 0.f;
    __syncthreads();
    float acc = 0.f;
    for (int t = 0; t < nt; ++t) {
        const int cur = t & 1, nxt = cur ^ 1;
        if (t + 1 < nt) {
            const int ka = (t + 1) * TILE + tx, kb = (t + 1) * TILE + ty;
            As[nxt][ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.f;
            Bs[nxt][ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.f;
        }
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// a 16 x 4 block computes a 16 x 16 tile of C: each thread the 4 rows ty, ty + 4, ty + 8, ty + 12 of its column
#define RT 16
#define RROWS 4
extern "C" __global__ void matmul_reg4x1(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[RT][RT];
    __shared__ float Bs[RT][RT];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * RT + tx;
    const int row0 = blockIdx.y * RT;
    float acc[RROWS] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += RT) {
#pragma unroll
        for (int r = 0; r < RROWS; ++r) {
            const int lr = ty + r * (RT / RROWS);
            const int ar = row0 + lr, ak = k0 + tx;
            As[lr][tx] = (ar < M && ak < K) ? A[ar * K + ak] : 0.f;
            const int bk = k0 + lr;
            Bs[lr][tx] = (bk < K && col < N) ? B[bk * N + col] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < RT; ++k) {
            const float b = Bs[k][tx];
#pragma unroll
            for (int r = 0; r < RROWS; ++r)
                acc[r] += As[ty + r * (RT / RROWS)][k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < RROWS; ++r) {
        const int row = row0 + ty + r * (RT / RROWS);
        if (row < M && col < N)
            C[row * N + col] = acc[r];
    }
}

// =============================================================================================================
// 5. 1-D stencils with a RADIUS halo in shared memory: the book's 8th-order derivative, coefficients from
//    __constant__ memory or through the read-only path
// =============================================================================================================
template <int RADIUS>
__global__ void stencil1d_const(const float *in, float *out, int n)
{
    extern __shared__ float smem[];  // blockDim.x + 2 * RADIUS
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int s = threadIdx.x + RADIUS;
    smem[s] = g < n ? in[g] : 0.f;
    if (threadIdx.x < RADIUS) {
        const int lo = g - RADIUS;
        const int hi = g + blockDim.x;
        smem[threadIdx.x] = lo >= 0 ? in[lo] : 0.f;
        smem[s + blockDim.x] = hi < n ? in[hi] : 0.f;
    }
    __syncthreads();
    if (g >= n)
        return;
    float v = 0.f;
#pragma unroll
    for (int r = 1; r <= RADIUS; ++r)
        v += c_coef[r] * (smem[s + r] - smem[s - r]);
    out[g] = v;
}

template <int RADIUS>
__global__ void stencil1d_readonly(const float *__restrict__ in, float *__restrict__ out,
                                   const float *__restrict__ coef, int n)
{
    extern __shared__ float smem[];
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int s = threadIdx.x + RADIUS;
    smem[s] = g < n ? __ldg(&in[g]) : 0.f;
    if (threadIdx.x < RADIUS) {
        const int lo = g - RADIUS;
        const int hi = g + blockDim.x;
        smem[threadIdx.x] = lo >= 0 ? __ldg(&in[lo]) : 0.f;
        smem[s + blockDim.x] = hi < n ? __ldg(&in[hi]) : 0.f;
    }
    __syncthreads();
    if (g >= n)
        return;
    float v = 0.f;
#pragma unroll
    for (int r = 1; r <= RADIUS; ++r)
        v += __ldg(&coef[r]) * (smem[s + r] - smem[s - r]);
    out[g] = v;
}

// =============================================================================================================
// 6. global-memory access patterns
// =============================================================================================================

// strided read, coalesced write; the stride a run-time value
extern "C" __global__ void read_stride(const float *__restrict__ in, float *__restrict__ out, int n, int stride)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(long long)i * stride] + 1.f;
}

// coalesced read, strided write; the stride a template value
template <int STRIDE>
__global__ void write_stride(const float *__restrict__ in, float *__restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i * STRIDE] = 2.f * in[i];
}

// y[i + yoff] = a * x[i + xoff] + y[i + yoff]: bases off the allocation's alignment by whole elements
extern "C" __global__ void axpy_offset(const float *x, float *y, int n, int xoff, int yoff, float a)
{
    for (int i = GTID_X(); i < n; i += GSTRIDE_X())
        y[i + yoff] = a * x[i + xoff] + y[i + yoff];
}

// plain copies of 1- to 16-byte elements; launched on partial warps (48, 80, 100, 200 threads)
template <typename T>
__global__ void copy_elems(const T *__restrict__ in, T *__restrict__ out, int n)
{
    for (int i = GTID_X(); i < n; i += GSTRIDE_X())
        out[i] = in[i];
}

// gather through an index array, scatter-free output
extern "C" __global__ void gather_by_index(const int *__restrict__ idx, const float *__restrict__ src,
                                           float *__restrict__ dst, int n)
{
    const int i = GTID_X();
    if (i < n)
        dst[i] = src[idx[i]];
}

// arrays of structures read field by field
template <typename S>
__global__ void aos_weigh(const S *__restrict__ items, float *__restrict__ w, int n)
{
    for (int i = GTID_X(); i < n; i += GSTRIDE_X())
        w[i] = f9::weigh(items, i);
}

// a per-thread window indexed by a run-time value (it lives in local memory)
extern "C" __global__ void local_window_pick(const float *__restrict__ in, const int *__restrict__ sel,
                                            float *__restrict__ out, int n)
{
    const int i = GTID_X();
    if (i >= n)
        return;
    float win[16];
#pragma unroll
    for (int k = 0; k < 16; ++k)
        win[k] = in[i * 16 + k];
    const int s = sel[i];
    out[i] = win[s & 15] - win[(s >> 4) & 15];
}

// a large per-thread histogram (64 bins, 256 bytes of local memory) over the thread's own 64-byte chunk
extern "C" __global__ void local_hist_mode(const unsigned char *__restrict__ bytes, int *__restrict__ mode,
                                          int nchunks)
{
    const int c = GTID_X();
    if (c >= nchunks)
        return;
    int hist[64];
    for (int b = 0; b < 64; ++b)
        hist[b] = 0;
    for (int k = 0; k < 64; ++k)
        hist[bytes[c * 64 + k] >> 2]++;
    int best = 0;
    for (int b = 1; b < 64; ++b)
        if (hist[b] > hist[best])
            best = b;
    mode[c] = best;
}
