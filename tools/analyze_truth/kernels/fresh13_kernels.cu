// fresh13_kernels.cu -- PolyBench-GPU (the CUDA versions of atax, bicg, mvt, gesummv, gemm, syr2k, covariance,
// correlation, Gram-Schmidt, FDTD-2D, Jacobi-2D and the 2-D/3-D convolutions: a thread an element or a row, no
// shared memory, sizes as macros), SHOC (Stencil2D with a shared halo, the templated reduction with its volatile
// warp tail, a Blelloch scan with bank-conflict offsets, MD's Lennard-Jones force over a neighbour list, Triad,
// and the radix sort's reduce / top_scan / bottom_scan with 4-bit digits), and CUDA samples (SobolQRNG,
// quasirandomGenerator and its inverse CND, boxFilter's running sums, an NLM denoiser over a shared window,
// FDTD3d, n-body, the eigenvalue bisection's Sturm counts and compaction, lineOfSight's angles, max-scan and
// visibilities). One file as a benchmark driver would carry them, with its host code and a main().
//
// Build and self test (the truth recording launches the kernels itself and never runs main()):
//     nvcc -std=c++17 -arch=sm_90 -O3 fresh13_kernels.cu -o fresh13_kernels && ./fresh13_kernels
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "fresh13_common.cuh"

namespace cg = cooperative_groups;

#define CUDA_SAFE_CALL(call)                                                                                           \
    do {                                                                                                               \
        cudaError_t err = call;                                                                                        \
        if (cudaSuccess != err) {                                                                                      \
            fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
            exit(EXIT_FAILURE);                                                                                        \
        }                                                                                                              \
    } while (0)

// =============================================================================================================
// PolyBench-GPU. Each program's problem size and thread-block shape are macros of its own header; gathered in one
// file, each section sets them and takes them back. DATA_TYPE is float, as the suite ships.
// =============================================================================================================
typedef float DATA_TYPE;

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

// ---- atax: y = A^T (A x) ----------------------------------------------------------------------------------------
#ifndef ATAX_NX
#define ATAX_NX 600
#endif
#ifndef ATAX_NY
#define ATAX_NY 500
#endif
#define NX ATAX_NX
#define NY ATAX_NY

__global__ void atax_kernel1(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < NX) {
        int j;
        for (j = 0; j < NY; j++) {
            tmp[i] += A[i * NY + j] * x[j];
        }
    }
}

__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (j < NY) {
        int i;
        for (i = 0; i < NX; i++) {
            y[j] += A[i * NY + j] * tmp[i];
        }
    }
}
#undef NX
#undef NY

// ---- bicg: s = r^T A, q = A p --------------------------------------------------------------------------------------
#define NX 400
#define NY 520

// Distributed (split) from initial loop and permuted into reverse order to allow parallelism...
__global__ void bicg_kernel1(DATA_TYPE *A, DATA_TYPE *r, DATA_TYPE *s)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (j < NY) {
        s[j] = 0.0f;

        int i;
        for (i = 0; i < NX; i++) {
            s[j] += A[i * NY + j] * r[i];
        }
    }
}

// Distributed (split) from initial loop to allow parallelism
__global__ void bicg_kernel2(DATA_TYPE *A, DATA_TYPE *p, DATA_TYPE *q)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < NX) {
        q[i] = 0.0f;

        int j;
        for (j = 0; j < NY; j++) {
            q[i] += A[i * NY + j] * p[j];
        }
    }
}
#undef NX
#undef NY

// ---- mvt: x1 += A y1, x2 += A^T y2 --------------------------------------------------------------------------------
#define N 640

__global__ void mvt_kernel1(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y_1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < N) {
        int j;
        for (j = 0; j < N; j++) {
            x1[i] += a[i * N + j] * y_1[j];
        }
    }
}

__global__ void mvt_kernel2(DATA_TYPE *a, DATA_TYPE *x2, DATA_TYPE *y_2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < N) {
        int j;
        for (j = 0; j < N; j++) {
            x2[i] += a[j * N + i] * y_2[j];
        }
    }
}
#undef N

// ---- gesummv: y = alpha A x + beta B x ---------------------------------------------------------------------------
#define N 512
#define ALPHA 43532.0f
#define BETA 12313.0f

__global__ void gesummv_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < N) {
        int j;
        for (j = 0; j < N; j++) {
            tmp[i] += a[i * N + j] * x[j];
            y[i] += b[i * N + j] * x[j];
        }
        y[i] = ALPHA * tmp[i] + BETA * y[i];
    }
}
#undef N
#undef ALPHA
#undef BETA

// ---- gemm and syr2k: a thread an element of C, blocks of 32 x 8 ----------------------------------------------------
#define NI 24
#define NJ 96
#define NK 80
#define ALPHA 32412.0f
#define BETA 2123.0f

__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NI) && (j < NJ)) {
        c[i * NJ + j] *= BETA;
        int k;
        for (k = 0; k < NK; k++) {
            c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
        }
    }
}
#undef NI
#undef NJ
#undef NK

#define N 40
#define M 30

__global__ void syr2k_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < N) && (j < N)) {
        c[i * N + j] *= BETA;

        int k;
        for (k = 0; k < M; k++) {
            c[i * N + j] += ALPHA * a[i * M + k] * b[j * M + k] + ALPHA * b[i * M + k] * a[j * M + k];
        }
    }
}
#undef N
#undef M
#undef ALPHA
#undef BETA

// ---- covariance and correlation: M columns (variables) of N rows (observations) ------------------------------------
#define M 96
#define N 64
#define FLOAT_N 3214212.01f
#define EPS 0.005f

__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (j < M) {
        mean[j] = 0.0;

        int i;
        for (i = 0; i < N; i++) {
            mean[j] += data[i * M + j];
        }
        mean[j] /= (DATA_TYPE)FLOAT_N;
    }
}

__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < N) && (j < M)) {
        data[i * M + j] -= mean[j];
    }
}

__global__ void covar_kernel(DATA_TYPE *symmat, DATA_TYPE *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    int i, j2;

    if (j1 < M) {
        for (j2 = j1; j2 < M; j2++) {
            symmat[j1 * M + j2] = 0.0;
            for (i = 0; i < N; i++) {
                symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
            }
            symmat[j2 * M + j1] = symmat[j1 * M + j2];
        }
    }
}

__global__ void std_kernel(DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (j < M) {
        std[j] = 0.0;

        int i;
        for (i = 0; i < N; i++) {
            std[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
        }
        std[j] /= (FLOAT_N);
        std[j] = sqrt(std[j]);
        if (std[j] <= EPS) {
            std[j] = 1.0;
        }
    }
}

__global__ void corr_reduce_kernel(DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < N) && (j < M)) {
        data[i * M + j] -= mean[j];
        data[i * M + j] /= (sqrt(FLOAT_N) * std[j]);
    }
}

__global__ void corr_kernel(DATA_TYPE *symmat, DATA_TYPE *data)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;

    int i, j2;
    if (j1 < (M - 1)) {
        symmat[j1 * M + j1] = 1.0;

        for (j2 = (j1 + 1); j2 < M; j2++) {
            symmat[j1 * M + j2] = 0.0;

            for (i = 0; i < N; i++) {
                symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
            }
            symmat[j2 * M + j1] = symmat[j1 * M + j2];
        }
    }
}
#undef M
#undef N

// ---- gramschmidt: M rows, N columns -------------------------------------------------------------------------------
#define M 300
#define N 160

__global__ void gramschmidt_kernel1(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid == 0) {
        DATA_TYPE nrm = 0.0;
        int i;
        for (i = 0; i < M; i++) {
            nrm += a[i * N + k] * a[i * N + k];
        }
        r[k * N + k] = sqrt(nrm);
    }
}

__global__ void gramschmidt_kernel2(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < M) {
        q[i * N + k] = a[i * N + k] / r[k * N + k];
    }
}

__global__ void gramschmidt_kernel3(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if ((j > k) && (j < N)) {
        r[k * N + j] = 0.0;

        int i;
        for (i = 0; i < M; i++) {
            r[k * N + j] += q[i * N + k] * a[i * N + j];
        }

        for (i = 0; i < M; i++) {
            a[i * N + j] -= q[i * N + k] * r[k * N + j];
        }
    }
}
#undef M
#undef N

// ---- fdtd-2d: ex is NX x (NY+1), ey (NX+1) x NY, hz NX x NY ---------------------------------------------------------
#define NX 20
#define NY 90

__global__ void fdtd_step1_kernel(DATA_TYPE *_fict_, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NX) && (j < NY)) {
        if (i == 0) {
            ey[i * NY + j] = _fict_[t];
        } else {
            ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
        }
    }
}

__global__ void fdtd_step2_kernel(DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NX) && (j < NY) && (j > 0)) {
        ex[i * (NY + 1) + j] = ex[i * (NY + 1) + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
    }
}

__global__ void fdtd_step3_kernel(DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    if ((i < NX) && (j < NY)) {
        hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j] +
                                                  ey[(i + 1) * NY + j] - ey[i * NY + j]);
    }
}
#undef NX
#undef NY

// ---- jacobi-2d ----------------------------------------------------------------------------------------------------
#ifndef JACOBI_N
#define JACOBI_N 46
#endif
#define N JACOBI_N

__global__ void runJacobiCUDA_kernel1(int n, DATA_TYPE *A, DATA_TYPE *B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if ((i >= 1) && (i < (N - 1)) && (j >= 1) && (j < (N - 1))) {
        B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] +
                               A[(i - 1) * N + j]);
    }
}

__global__ void runJacobiCUDA_kernel2(int n, DATA_TYPE *A, DATA_TYPE *B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if ((i >= 1) && (i < (N - 1)) && (j >= 1) && (j < (N - 1))) {
        A[i * N + j] = B[i * N + j];
    }
}
#undef N

// ---- 2DConvolution and 3DConvolution: odd coefficients, no shared memory ---------------------------------------
#define NI 24
#define NJ 90

__global__ void Convolution2D_kernel(DATA_TYPE *A, DATA_TYPE *B)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;

    DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;

    c11 = +0.2;
    c21 = +0.5;
    c31 = -0.8;
    c12 = -0.3;
    c22 = +0.6;
    c32 = -0.9;
    c13 = +0.4;
    c23 = +0.7;
    c33 = +0.10;

    if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0)) {
        B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] + c31 * A[(i - 1) * NJ + (j + 1)] +
                        c12 * A[(i + 0) * NJ + (j - 1)] + c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)] +
                        c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] + c33 * A[(i + 1) * NJ + (j + 1)];
    }
}
#undef NI
#undef NJ

#define NI 8
#define NJ 24
#define NK 70

__global__ void convolution3D_kernel(DATA_TYPE *A, DATA_TYPE *B, int i)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;

    DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;

    c11 = +2;
    c21 = +5;
    c31 = -8;
    c12 = -3;
    c22 = +6;
    c32 = -9;
    c13 = +4;
    c23 = +7;
    c33 = +10;

    if ((i < (NI - 1)) && (j < (NJ - 1)) && (k < (NK - 1)) && (i > 0) && (j > 0) && (k > 0)) {
        B[i * (NK * NJ) + j * NK + k] = c11 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] +
                                        c13 * A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] +
                                        c21 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] +
                                        c23 * A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] +
                                        c31 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] +
                                        c33 * A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k - 1)] +
                                        c12 * A[(i + 0) * (NK * NJ) + (j - 1) * NK + (k + 0)] +
                                        c22 * A[(i + 0) * (NK * NJ) + (j + 0) * NK + (k + 0)] +
                                        c32 * A[(i + 0) * (NK * NJ) + (j + 1) * NK + (k + 0)] +
                                        c11 * A[(i - 1) * (NK * NJ) + (j - 1) * NK + (k + 1)] +
                                        c13 * A[(i + 1) * (NK * NJ) + (j - 1) * NK + (k + 1)] +
                                        c21 * A[(i - 1) * (NK * NJ) + (j + 0) * NK + (k + 1)] +
                                        c23 * A[(i + 1) * (NK * NJ) + (j + 0) * NK + (k + 1)] +
                                        c31 * A[(i - 1) * (NK * NJ) + (j + 1) * NK + (k + 1)] +
                                        c33 * A[(i + 1) * (NK * NJ) + (j + 1) * NK + (k + 1)];
    }
}
#undef NI
#undef NJ
#undef NK

// =============================================================================================================
// SHOC
// =============================================================================================================

// ---- Stencil2D: a 9-point stencil; a block a strip of nStripItems rows by blockDim.x columns, the strip and its
// one-cell halo in dynamic shared memory; the matrix's rows padded to a multiple of `alignment` elements -------------
template <class T>
__global__ void StencilKernel(T *data, T *newData, int alignment, int nStripItems, T wCenter, T wCardinal, T wDiagonal)
{
    // determine our location in the coordinate system (interior coordinates: the halo is row 0 / column 0)
    int gRowBase = blockIdx.y * nStripItems;
    int gCol = blockIdx.x * blockDim.x + threadIdx.x;
    int nCols = gridDim.x * blockDim.x;
    int pitch = ((nCols + 2 + alignment - 1) / alignment) * alignment;

    // the local tile: (nStripItems + 2) rows of (blockDim.x + 2)
    T *sh = SharedMemory<T>();
    int shPitch = blockDim.x + 2;

    // load our strip with its halo rows; the first and last threads bring the halo columns
    for (int i = 0; i < nStripItems + 2; i++) {
        int r = gRowBase + i;
        sh[i * shPitch + threadIdx.x + 1] = data[r * pitch + gCol + 1];
        if (threadIdx.x == 0) {
            sh[i * shPitch] = data[r * pitch + gCol];
        }
        if (threadIdx.x == blockDim.x - 1) {
            sh[i * shPitch + blockDim.x + 1] = data[r * pitch + gCol + 2];
        }
    }
    __syncthreads();

    int c = threadIdx.x + 1;
    for (int i = 1; i <= nStripItems; i++) {
        T center = sh[i * shPitch + c];
        T cardinal = sh[(i - 1) * shPitch + c] + sh[(i + 1) * shPitch + c] + sh[i * shPitch + c - 1] +
                     sh[i * shPitch + c + 1];
        T diagonal = sh[(i - 1) * shPitch + c - 1] + sh[(i - 1) * shPitch + c + 1] + sh[(i + 1) * shPitch + c - 1] +
                     sh[(i + 1) * shPitch + c + 1];
        newData[(gRowBase + i) * pitch + gCol + 1] = wCenter * center + wCardinal * cardinal + wDiagonal * diagonal;
    }
}

// ---- Reduction: each thread sums pairs a grid apart, then the block's tree, the last warp unrolled on volatile --
template <class T, int blockSize>
__global__ void reduce(const T *__restrict__ g_idata, T *__restrict__ g_odata, const unsigned int n)
{
    const unsigned int tid = threadIdx.x;
    unsigned int i = (blockIdx.x * (blockDim.x * 2)) + tid;
    const unsigned int gridSize = blockDim.x * 2 * gridDim.x;

    volatile T *sdata = SharedMemory<T>();

    sdata[tid] = 0;

    // Reduce multiple elements per thread
    while (i < n) {
        sdata[tid] += g_idata[i] + g_idata[i + blockSize];
        i += gridSize;
    }
    __syncthreads();

    // Reduce the contents of shared memory
    // NB: This is an unrolled loop, and assumes warp-syncrhonous
    // execution.
    if (blockSize >= 512) {
        if (tid < 256) {
            sdata[tid] += sdata[tid + 256];
        }
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128) {
            sdata[tid] += sdata[tid + 128];
        }
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64) {
            sdata[tid] += sdata[tid + 64];
        }
        __syncthreads();
    }
    if (tid < warpSize) {
        // NB2: This section would also need __sync calls if warp
        // synchronous execution were not assumed
        if (blockSize >= 64) {
            sdata[tid] += sdata[tid + 32];
        }
        if (blockSize >= 32) {
            sdata[tid] += sdata[tid + 16];
        }
        if (blockSize >= 16) {
            sdata[tid] += sdata[tid + 8];
        }
        if (blockSize >= 8) {
            sdata[tid] += sdata[tid + 4];
        }
        if (blockSize >= 4) {
            sdata[tid] += sdata[tid + 2];
        }
        if (blockSize >= 2) {
            sdata[tid] += sdata[tid + 1];
        }
    }

    // Write result for this block to global memory
    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}

// ---- Scan: the work-efficient (Blelloch) exclusive scan of 2 * blockDim.x elements a block, the shared indices
// padded by CONFLICT_FREE_OFFSET; the block totals out for the next level -----------------------------------------
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) (((n) >> LOG_NUM_BANKS) + ((n) >> (2 * LOG_NUM_BANKS)))

__global__ void prescan(float *g_odata, const float *g_idata, float *g_sums, int n)
{
    extern __shared__ float temp[];  // allocated on invocation
    int thid = threadIdx.x;
    int blockN = 2 * blockDim.x;
    int base = blockIdx.x * blockN;
    int offset = 1;

    int ai = thid;
    int bi = thid + (blockN / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = (base + ai < n) ? g_idata[base + ai] : 0.0f;
    temp[bi + bankOffsetB] = (base + bi < n) ? g_idata[base + bi] : 0.0f;

    for (int d = blockN >> 1; d > 0; d >>= 1) {  // build sum in place up the tree
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += CONFLICT_FREE_OFFSET(ai);
            bi += CONFLICT_FREE_OFFSET(bi);
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }

    if (thid == 0) {
        g_sums[blockIdx.x] = temp[blockN - 1 + CONFLICT_FREE_OFFSET(blockN - 1)];
        temp[blockN - 1 + CONFLICT_FREE_OFFSET(blockN - 1)] = 0;  // clear the last element
    }

    for (int d = 1; d < blockN; d *= 2) {  // traverse down tree & build scan
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += CONFLICT_FREE_OFFSET(ai);
            bi += CONFLICT_FREE_OFFSET(bi);
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();

    if (base + ai < n)
        g_odata[base + ai] = temp[ai + bankOffsetA];
    if (base + bi < n)
        g_odata[base + bi] = temp[bi + bankOffsetB];
}

// ---- MD: the Lennard-Jones force of each atom over its neighbour list (column-major: neighbour j of atom i at
// j * inum + i), the neighbours' positions gathered ------------------------------------------------------------------
template <class T, class forceVecType, class posVecType, bool useLdg>
__global__ void compute_lj_force(forceVecType *__restrict__ force, const posVecType *__restrict__ position,
                                 const int neighCount, const int *__restrict__ neighList, const T cutsq, const T lj1,
                                 const T lj2, const int inum)
{
    uint idx = blockIdx.x * blockDim.x + threadIdx.x;

    posVecType ipos = position[idx];
    forceVecType f = {0.0f, 0.0f, 0.0f, 0.0f};

    int j = 0;
    while (j < neighCount) {
        int jidx = neighList[j * inum + idx];
        posVecType jpos;
        if constexpr (useLdg) {
            jpos = __ldg(&position[jidx]);
        } else {
            jpos = position[jidx];
        }
        // Calculate distance
        T delx = ipos.x - jpos.x;
        T dely = ipos.y - jpos.y;
        T delz = ipos.z - jpos.z;
        T r2inv = delx * delx + dely * dely + delz * delz;

        // If distance is less than cutoff, calculate force
        // and add to accumulator
        if (r2inv < cutsq) {
            r2inv = (T)1.0 / r2inv;
            T r6inv = r2inv * r2inv * r2inv;
            T forceC = r2inv * r6inv * (lj1 * r6inv - lj2);

            f.x += delx * forceC;
            f.y += dely * forceC;
            f.z += delz * forceC;
        }
        j++;
    }
    // store the results
    force[idx] = f;
}

// ---- Triad ---------------------------------------------------------------------------------------------------------
__global__ void triad(float *A, float *B, float *C, float s)
{
    int gid = threadIdx.x + (blockIdx.x * blockDim.x);
    C[gid] = A[gid] + s * B[gid];
}

// ---- Sort: the radix sort's three kernels, 4-bit digits; a block's region of the keys, counted (a private
// histogram a thread, summed by a shared tree), the counts scanned, then each key scattered ---------------------------
#define SORT_BLOCK_SIZE 256

__device__ uint scanLocalMem(const uint val, uint *s_data)
{
    // Shared mem is 512 uints long, set first half to 0
    int idx = threadIdx.x;
    s_data[idx] = 0.0f;
    __syncthreads();

    // Set 2nd half to thread local sum (sum of the 4 elems from global mem)
    idx += blockDim.x;  // += 256

    // Some of these __sync's are unnecessary due to warp synchronous
    // execution.  Right now these are left in to be consistent with
    // opencl version, since that has to execute on platforms where
    // thread groups are not synchronous (i.e. CPUs)
    uint t;
    s_data[idx] = val;
    __syncthreads();
    t = s_data[idx - 1];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 2];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 4];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 8];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 16];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 32];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 64];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();
    t = s_data[idx - 128];
    __syncthreads();
    s_data[idx] += t;
    __syncthreads();

    return s_data[idx - 1];
}

__global__ void sort_reduce(uint *in, uint *isums, const int n, const int shift)
{
    __shared__ uint sdata[SORT_BLOCK_SIZE];

    // First, calculate the bounds of the region of the array
    // that this block will sum.  We need these regions to match
    // perfectly with those in the bottom-level scan, so we index
    // as if vector types of length 4 were in use.  This prevents
    // errors due to slightly misaligned regions.
    int region_size = ((n / 4) / gridDim.x) * 4;
    int block_start = blockIdx.x * region_size;

    // Give the last block any extra elements
    int block_stop = (blockIdx.x == gridDim.x - 1) ? n : block_start + region_size;

    // Calculate starting index for this thread/work item
    int tid = threadIdx.x;
    int i = block_start + tid;

    // The per thread histogram, initially 0's.
    int digit_counts[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    // Reduce multiple elements per thread
    while (i < block_stop) {
        // This statement
        // 1) Loads the value in from global memory
        // 2) Shifts to the right to have the 4 bits of interest
        //    in the least significant places
        // 3) Masks any more significant bits away. This leaves us
        // with the relevant digit (which is also the index into the
        // histogram). Next increment the histogram to count this occurrence.
        digit_counts[(in[i] >> shift) & 0xFU]++;
        i += blockDim.x;
    }

    for (int d = 0; d < 16; d++) {
        // Load this thread's sum into local/shared memory
        sdata[tid] = digit_counts[d];
        __syncthreads();

        // Reduce the contents of shared/local memory
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
            if (tid < s) {
                sdata[tid] += sdata[tid + s];
            }
            __syncthreads();
        }

        // Write result for this block to global memory
        if (tid == 0) {
            isums[(d * gridDim.x) + blockIdx.x] = sdata[0];
        }
    }
}

__global__ void top_scan(uint *isums, const int n)
{
    __shared__ uint lmem[SORT_BLOCK_SIZE * 2];
    __shared__ int s_seed;
    s_seed = 0;
    __syncthreads();

    // Decide if this is the last thread that needs to
    // propagate the seed value
    int last_thread = (threadIdx.x < n && (threadIdx.x + 1) == n) ? 1 : 0;

    for (int d = 0; d < 16; d++) {
        uint val = 0;
        // Load each block's count for digit d
        if (threadIdx.x < n) {
            val = isums[(n * d) + threadIdx.x];
        }
        // Exclusive scan the counts in local memory
        uint res = scanLocalMem(val, lmem);
        // Write scanned value out to global
        if (threadIdx.x < n) {
            isums[(n * d) + threadIdx.x] = res + s_seed;
        }
        __syncthreads();

        if (last_thread) {
            s_seed += res + val;
        }
        __syncthreads();
    }
}

__global__ void bottom_scan(uint *out, uint *in, uint *isums, const int n, const int shift)
{
    // Use local memory to cache the scanned seeds
    __shared__ uint l_scanned_seeds[16];

    // Keep a shared histogram of all instances seen by the current
    // block
    __shared__ uint l_block_counts[16];

    // Keep a private histogram as well
    uint histogram[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

    __shared__ uint lmem[SORT_BLOCK_SIZE * 2];

    // Prepare for reading 4-element vectors
    // Assume n is divisible by 4
    uint4 *in4 = (uint4 *)in;
    int n4 = n / 4;  // vector type is 4 wide

    int region_size = n4 / gridDim.x;
    int block_start = blockIdx.x * region_size;
    // Give the last block any extra elements
    int block_stop = (blockIdx.x == gridDim.x - 1) ? n4 : block_start + region_size;

    // Calculate starting index for this thread/work item
    int i = block_start + threadIdx.x;
    int window = block_start;

    // Set the histogram in local memory to zero
    // and read in the scanned seeds from gmem
    if (threadIdx.x < 16) {
        l_block_counts[threadIdx.x] = 0;
        l_scanned_seeds[threadIdx.x] = isums[(threadIdx.x * gridDim.x) + blockIdx.x];
    }
    __syncthreads();

    // Scan multiple elements per thread
    while (window < block_stop) {
        // Reset histogram
        for (int q = 0; q < 16; q++)
            histogram[q] = 0;
        uint4 val_4;
        uint4 key_4;

        if (i < block_stop)  // Make sure we don't read out of bounds
        {
            val_4 = in4[i];

            // Mask the keys to get the appropriate digit
            key_4.x = (val_4.x >> shift) & 0xFU;
            key_4.y = (val_4.y >> shift) & 0xFU;
            key_4.z = (val_4.z >> shift) & 0xFU;
            key_4.w = (val_4.w >> shift) & 0xFU;

            // Update the histogram
            histogram[key_4.x]++;
            histogram[key_4.y]++;
            histogram[key_4.z]++;
            histogram[key_4.w]++;
        }

        // Scan the digit counts in local memory
        for (int digit = 0; digit < 16; digit++) {
            histogram[digit] = scanLocalMem(histogram[digit], lmem);
            __syncthreads();
        }

        if (i < block_stop) {
            // Now, perform the scatter
            uint address;
            address = histogram[key_4.x] + l_scanned_seeds[key_4.x] + l_block_counts[key_4.x];
            out[address] = val_4.x;
            histogram[key_4.x]++;

            address = histogram[key_4.y] + l_scanned_seeds[key_4.y] + l_block_counts[key_4.y];
            out[address] = val_4.y;
            histogram[key_4.y]++;

            address = histogram[key_4.z] + l_scanned_seeds[key_4.z] + l_block_counts[key_4.z];
            out[address] = val_4.z;
            histogram[key_4.z]++;

            address = histogram[key_4.w] + l_scanned_seeds[key_4.w] + l_block_counts[key_4.w];
            out[address] = val_4.w;
            histogram[key_4.w]++;
        }

        // Before proceeding, make sure everyone has finished their current
        // indexing computations.
        __syncthreads();
        // Now update the seed array.
        if (threadIdx.x == blockDim.x - 1) {
            for (int q = 0; q < 16; q++) {
                l_block_counts[q] += histogram[q];
            }
        }
        __syncthreads();

        // Advance window
        window += blockDim.x;
        i += blockDim.x;
    }
}

// =============================================================================================================
// CUDA samples
// =============================================================================================================

// ---- SobolQRNG: a dimension a grid row (blockIdx.y), the 32 direction numbers in shared memory, Gray-code steps --
#define n_directions 32
#define k_2powneg32 2.3283064E-10F

__global__ void sobolGPU_kernel(unsigned n_vectors, unsigned n_dimensions, unsigned *d_directions, float *d_output)
{
    __shared__ unsigned int v[n_directions];

    // Offset into the correct dimension as specified by the
    // block y coordinate
    d_directions = d_directions + n_directions * blockIdx.y;
    d_output = d_output + n_vectors * blockIdx.y;

    // Copy the direction numbers for this dimension into shared
    // memory - there are only 32 direction numbers so only the
    // first 32 (n_directions) threads need participate.
    if (threadIdx.x < n_directions) {
        v[threadIdx.x] = d_directions[threadIdx.x];
    }

    __syncthreads();

    // Set initial index (i.e. which vector this thread is
    // computing first) and stride (i.e. step to the next vector
    // for this thread)
    int i0 = threadIdx.x + blockIdx.x * blockDim.x;
    int stride = gridDim.x * blockDim.x;

    // Get the gray code of the index
    // c.f. Numerical Recipes in C, chapter 20
    // http://www.nrbook.com/a/bookcpdf/c20-2.pdf
    unsigned int g = i0 ^ (i0 >> 1);

    // Initialisation for first point x[i0]
    // In the Bratley and Fox paper this is equation (*), where
    // we are computing the value for x[n] without knowing the
    // value of x[n-1].
    unsigned int X = 0;
    unsigned int mask;

    for (unsigned int k = 0; k < __ffs(stride) - 1; k++) {
        // We want X ^= g_k * v[k], where g_k is one or zero.
        // We do this by setting a mask with all bits equal to
        // g_k. In reality we keep shifting g so that g_k is the
        // LSB of g. This way we avoid multiplying by v[k] and
        // can just use bitwise AND.
        mask = -(g & 1);
        X ^= mask & v[k];
        g = g >> 1;
    }

    if (i0 < n_vectors) {
        d_output[i0] = (float)X * k_2powneg32;
    }

    // Now do rest of points, using the stride
    // Here we want to generate x[i] from x[i-stride] where we
    // don't have any of the x in between, therefore we have to
    // revisit the equation (**), this is easiest with an example
    // so assume stride is 16.
    // ...
    // Initialisation for loop
    unsigned int v_log2stridem1 = v[__ffs(stride) - 2];
    unsigned int v_stridemask = stride - 1;

    for (unsigned int i = i0 + stride; i < n_vectors; i += stride) {
        // x[i] = x[i-stride] ^ v[b] ^ v[c]
        //  where b is log2(stride) minus 1 for C (the bits of the stride
        //  minus one), and c is the position of the least significant
        //  zero of (i - stride) | (stride - 1)
        X ^= v_log2stridem1 ^ v[__ffs(~((i - stride) | v_stridemask)) - 1];
        d_output[i] = (float)X * k_2powneg32;
    }
}

// ---- quasirandomGenerator: Niederreiter base-2 points from a __constant__ table, then Moro's inverse CND ------------
#define QRNG_DIMENSIONS 3
#define QRNG_RESOLUTION 31
#define INT_SCALE (1.0f / (float)0x80000001U)

__constant__ unsigned int c_Table[QRNG_DIMENSIONS][QRNG_RESOLUTION];

__global__ void quasirandomGeneratorKernel(float *d_Output, unsigned int seed, unsigned int N)
{
    unsigned int *dimBase = &c_Table[threadIdx.y][0];
    unsigned int tid = MUL(blockDim.x, blockIdx.x) + threadIdx.x;
    unsigned int threadN = MUL(blockDim.x, gridDim.x);

    for (unsigned int pos = tid; pos < N; pos += threadN) {
        unsigned int result = 0;
        unsigned int data = seed + pos;

        for (int bit = 0; bit < QRNG_RESOLUTION; bit++, data >>= 1)
            if (data & 1) {
                result ^= dimBase[bit];
            }

        d_Output[MUL(threadIdx.y, N) + pos] = (float)(result + 1) * INT_SCALE;
    }
}

// Moro's Inverse Cumulative Normal Distribution function approximation
__device__ inline float MoroInvCNDgpu(unsigned int x)
{
    const float a1 = 2.50662823884f;
    const float a2 = -18.61500062529f;
    const float a3 = 41.39119773534f;
    const float a4 = -25.44106049637f;
    const float b1 = -8.4735109309f;
    const float b2 = 23.08336743743f;
    const float b3 = -21.06224101826f;
    const float b4 = 3.13082909833f;
    const float c1 = 0.337475482272615f;
    const float c2 = 0.976169019091719f;
    const float c3 = 0.160797971491821f;
    const float c4 = 2.76438810333863E-02f;
    const float c5 = 3.8405729373609E-03f;
    const float c6 = 3.951896511919E-04f;
    const float c7 = 3.21767881768E-05f;
    const float c8 = 2.888167364E-07f;
    const float c9 = 3.960315187E-07f;

    float z;

    bool negate = false;

    // Ensure the conversion to floating point will give a value in the
    // range (0,0.5] by restricting the input to the bottom half of the
    // input domain. We will later reflect the result if the input was
    // originally in the top half of the input domain
    if (x >= 0x80000000UL) {
        x = 0xffffffffUL - x;
        negate = true;
    }

    // x is now in the range [0,0x80000000) (i.e. [0,0x7fffffff])
    // Convert to floating point in (0,0.5]
    const float x1 = 1.0f / static_cast<float>(0xffffffffUL);
    const float x2 = x1 / 2.0f;
    float p1 = x * x1 + x2;
    // Convert to floating point in (-0.5,0]
    float p2 = p1 - 0.5f;

    // The input to the Moro inversion is p2 which is in the range
    // (-0.5,0]. This means that our output will be the negative side
    // of the bell curve (which we will reflect if "negate" is true).

    // Main body of the bell curve for |p| < 0.42
    if (p2 > -0.42f) {
        z = p2 * p2;
        z = p2 * (((a4 * z + a3) * z + a2) * z + a1) / ((((b4 * z + b3) * z + b2) * z + b1) * z + 1.0f);
    }
    // Special case (Chebychev) for tail
    else {
        z = __logf(-__logf(p1));
        z = -(c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * (c6 + z * (c7 + z * (c8 + z * c9))))))));
    }

    // If the original input (x) was in the top half of the range, reflect
    // to get the positive side of the bell curve
    return negate ? -z : z;
}

__global__ void inverseCNDKernel(float *d_Output, unsigned int *d_Input, unsigned int pathN)
{
    unsigned int distance = ((unsigned int)-1) / (pathN + 1);
    unsigned int tid = MUL(blockDim.x, blockIdx.x) + threadIdx.x;
    unsigned int threadN = MUL(blockDim.x, gridDim.x);

    // Transform input number sequence if it's supplied
    if (d_Input) {
        for (unsigned int pos = tid; pos < pathN; pos += threadN) {
            unsigned int d = d_Input[pos];
            d_Output[pos] = (float)MoroInvCNDgpu(d);
        }
    }
    // Else generate input uniformly placed samples on the fly
    // and write to destination
    else {
        for (unsigned int pos = tid; pos < pathN; pos += threadN) {
            unsigned int d = (pos + 1) * distance;
            d_Output[pos] = (float)MoroInvCNDgpu(d);
        }
    }
}

// ---- boxFilter: running sums along a row (a thread a row: strided) and down a column (a thread a column) ----------
// process row
__device__ void d_boxfilter_x(float *id, float *od, int w, int h, int r)
{
    float scale = 1.0f / (float)((r << 1) + 1);

    float t;
    // do left edge
    t = id[0] * r;

    for (int x = 0; x < (r + 1); x++) {
        t += id[x];
    }

    od[0] = t * scale;

    for (int x = 1; x < (r + 1); x++) {
        t += id[x + r];
        t -= id[0];
        od[x] = t * scale;
    }

    // main loop
    for (int x = (r + 1); x < w - r; x++) {
        t += id[x + r];
        t -= id[x - r - 1];
        od[x] = t * scale;
    }

    // do right edge
    for (int x = w - r; x < w; x++) {
        t += id[w - 1];
        t -= id[x - r - 1];
        od[x] = t * scale;
    }
}

// process column
__device__ void d_boxfilter_y(float *id, float *od, int w, int h, int r)
{
    float scale = 1.0f / (float)((r << 1) + 1);

    float t;
    // do left edge
    t = id[0] * r;

    for (int y = 0; y < (r + 1); y++) {
        t += id[y * w];
    }

    od[0] = t * scale;

    for (int y = 1; y < (r + 1); y++) {
        t += id[(y + r) * w];
        t -= id[0];
        od[y * w] = t * scale;
    }

    // main loop
    for (int y = (r + 1); y < (h - r); y++) {
        t += id[(y + r) * w];
        t -= id[((y - r) * w) - w];
        od[y * w] = t * scale;
    }

    // do right edge
    for (int y = h - r; y < h; y++) {
        t += id[(h - 1) * w];
        t -= id[((y - r) * w) - w];
        od[y * w] = t * scale;
    }
}

__global__ void d_boxfilter_x_global(float *id, float *od, int w, int h, int r)
{
    unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
    d_boxfilter_x(&id[y * w], &od[y * w], w, h, r);
}

__global__ void d_boxfilter_y_global(float *id, float *od, int w, int h, int r)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    d_boxfilter_y(&id[x], &od[x], w, h, r);
}

// convert floating point rgba color to 32-bit integer
__device__ unsigned int rgbaFloatToInt(float4 rgba)
{
    rgba.x = __saturatef(fabs(rgba.x));  // clamp to [0.0, 1.0]
    rgba.y = __saturatef(fabs(rgba.y));
    rgba.z = __saturatef(fabs(rgba.z));
    rgba.w = __saturatef(fabs(rgba.w));
    return ((unsigned int)(rgba.w * 255.0f) << 24) | ((unsigned int)(rgba.z * 255.0f) << 16) |
           ((unsigned int)(rgba.y * 255.0f) << 8) | ((unsigned int)(rgba.x * 255.0f));
}

__device__ float4 rgbaIntToFloat(unsigned int c)
{
    float4 rgba;
    rgba.x = (c & 0xff) * 0.003921568627f;          //  /255.0f;
    rgba.y = ((c >> 8) & 0xff) * 0.003921568627f;   //  /255.0f;
    rgba.z = ((c >> 16) & 0xff) * 0.003921568627f;  //  /255.0f;
    rgba.w = ((c >> 24) & 0xff) * 0.003921568627f;  //  /255.0f;
    return rgba;
}

// column pass using coalesced global memory reads
__global__ void d_boxfilter_rgba_y(unsigned int *id, unsigned int *od, int w, int h, int r)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    id = &id[x];
    od = &od[x];

    float scale = 1.0f / (float)((r << 1) + 1);

    float4 t;
    // do left edge
    t = rgbaIntToFloat(id[0]) * r;

    for (int y = 0; y < (r + 1); y++) {
        t += rgbaIntToFloat(id[y * w]);
    }

    od[0] = rgbaFloatToInt(t * scale);

    for (int y = 1; y < (r + 1); y++) {
        t += rgbaIntToFloat(id[(y + r) * w]);
        t -= rgbaIntToFloat(id[0]);
        od[y * w] = rgbaFloatToInt(t * scale);
    }

    // main loop
    for (int y = (r + 1); y < (h - r); y++) {
        t += rgbaIntToFloat(id[(y + r) * w]);
        t -= rgbaIntToFloat(id[((y - r) * w) - w]);
        od[y * w] = rgbaFloatToInt(t * scale);
    }

    // do right edge
    for (int y = h - r; y < h; y++) {
        t += rgbaIntToFloat(id[(h - 1) * w]);
        t -= rgbaIntToFloat(id[((y - r) * w) - w]);
        od[y * w] = rgbaFloatToInt(t * scale);
    }
}

// ---- imageDenoising: NLM2, the block's pixels and their window (clamped at the image's edges) staged in shared
// memory as uchar4 instead of read through a texture; the block's weights shared as the sample shares them --------
#define BLOCKDIM_X 8
#define BLOCKDIM_Y 8
#define NLM_WINDOW_RADIUS 3
#define NLM_BLOCK_RADIUS 3
#define NLM_WINDOW_AREA ((2 * NLM_WINDOW_RADIUS + 1) * (2 * NLM_WINDOW_RADIUS + 1))
#define INV_NLM_WINDOW_AREA (1.0f / (float)NLM_WINDOW_AREA)
#define NLM_WEIGHT_THRESHOLD 0.10f
#define NLM_LERP_THRESHOLD 0.10f
#define NLM_APRON_LO (NLM_WINDOW_RADIUS)
#define NLM_APRON_HI (NLM_WINDOW_RADIUS + 1 + NLM_BLOCK_RADIUS)
#define NLM_TILE_W (BLOCKDIM_X + NLM_APRON_LO + NLM_APRON_HI)
#define NLM_TILE_H (BLOCKDIM_Y + NLM_APRON_LO + NLM_APRON_HI)

__device__ float lerpf(float a, float b, float c) { return a + (b - a) * c; }

__device__ float vecLen(float4 a, float4 b)
{
    return ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y) + (b.z - a.z) * (b.z - a.z));
}

__device__ float4 uchar4ToFloat(uchar4 c) { return make_float4(c.x / 255.0f, c.y / 255.0f, c.z / 255.0f, c.w / 255.0f); }

__device__ uchar4 make_color(float r, float g, float b, float a)
{
    return make_uchar4((unsigned char)(r * 255.0f), (unsigned char)(g * 255.0f), (unsigned char)(b * 255.0f),
                       (unsigned char)(a * 255.0f));
}

__global__ void NLM2(uchar4 *dst, const uchar4 *__restrict__ src, int imageW, int imageH, float Noise, float lerpC)
{
    // Weights cache
    __shared__ float fWeights[BLOCKDIM_X * BLOCKDIM_Y];
    // The block's pixels with the window's apron
    __shared__ uchar4 sImage[NLM_TILE_H][NLM_TILE_W];

    const int ix = blockDim.x * blockIdx.x + threadIdx.x;
    const int iy = blockDim.y * blockIdx.y + threadIdx.y;
    const int ox = blockDim.x * blockIdx.x - NLM_APRON_LO;
    const int oy = blockDim.y * blockIdx.y - NLM_APRON_LO;

    for (int ty = threadIdx.y; ty < NLM_TILE_H; ty += BLOCKDIM_Y)
        for (int tx = threadIdx.x; tx < NLM_TILE_W; tx += BLOCKDIM_X) {
            const int gx = min(max(ox + tx, 0), imageW - 1);
            const int gy = min(max(oy + ty, 0), imageH - 1);
            sImage[ty][tx] = src[gy * imageW + gx];
        }
    __syncthreads();

    // Center of the NLM block (in the tile)
    const int cx = NLM_APRON_LO + NLM_WINDOW_RADIUS + 1;
    const int cy = NLM_APRON_LO + NLM_WINDOW_RADIUS + 1;
    const int x = threadIdx.x + NLM_APRON_LO;
    const int y = threadIdx.y + NLM_APRON_LO;

    // Find color distance from current texel to the center of NLM window
    float weight = 0;

    for (int n = -NLM_BLOCK_RADIUS; n <= NLM_BLOCK_RADIUS; n++)
        for (int m = -NLM_BLOCK_RADIUS; m <= NLM_BLOCK_RADIUS; m++)
            weight += vecLen(uchar4ToFloat(sImage[cy + n][cx + m]), uchar4ToFloat(sImage[y + n][x + m]));

    // Geometric distance from current texel to the center of NLM window
    float dist = (threadIdx.x - NLM_WINDOW_RADIUS) * (threadIdx.x - NLM_WINDOW_RADIUS) +
                 (threadIdx.y - NLM_WINDOW_RADIUS) * (threadIdx.y - NLM_WINDOW_RADIUS);

    // Derive final weight from color and geometric distance
    weight = __expf(-(weight * Noise + dist * INV_NLM_WINDOW_AREA));

    // Write the result to shared memory
    fWeights[threadIdx.y * BLOCKDIM_X + threadIdx.x] = weight;
    // Wait until all the weights are ready
    __syncthreads();

    if (ix < imageW && iy < imageH) {
        // Normalized counter for the NLM weight threshold
        float fCount = 0;
        // Total sum of pixel weights
        float sumWeights = 0;
        // Result accumulator
        float3 clr = {0, 0, 0};

        int idx = 0;

        // Cycle through NLM window, surrounding (x, y) texel
        for (int i = -NLM_WINDOW_RADIUS; i <= NLM_WINDOW_RADIUS + 1; i++)
            for (int j = -NLM_WINDOW_RADIUS; j <= NLM_WINDOW_RADIUS + 1; j++) {
                // Load precomputed weight
                float weightIJ = fWeights[idx++];

                // Accumulate (x + j, y + i) texel color with computed weight
                float4 clrIJ = uchar4ToFloat(sImage[y + i][x + j]);
                clr.x += clrIJ.x * weightIJ;
                clr.y += clrIJ.y * weightIJ;
                clr.z += clrIJ.z * weightIJ;

                // Sum of weights for color normalization to [0..1] range
                sumWeights += weightIJ;

                // Update weight counter, if NLM weight for current window texel
                // exceeds the weight threshold
                fCount += (weightIJ > NLM_WEIGHT_THRESHOLD) ? INV_NLM_WINDOW_AREA : 0;
            }

        // Normalize result color by sum of weights
        sumWeights = 1.0f / sumWeights;
        clr.x *= sumWeights;
        clr.y *= sumWeights;
        clr.z *= sumWeights;

        // Choose LERP quotent basing on how many texels
        // within the NLM window exceeded the weight threshold
        float lerpQ = (fCount > NLM_LERP_THRESHOLD) ? lerpC : 1.0f - lerpC;

        // Write final result to global memory
        float4 clr00 = uchar4ToFloat(sImage[y][x]);
        clr.x = lerpf(clr.x, clr00.x, lerpQ);
        clr.y = lerpf(clr.y, clr00.y, lerpQ);
        clr.z = lerpf(clr.z, clr00.z, lerpQ);
        dst[imageW * iy + ix] = make_color(clr.x, clr.y, clr.z, 0);
    }
}

// ---- FDTD3d: a radius-4 stencil, the xy tile with its halo in shared memory, z in registers (behind/infront) -----
#define RADIUS 4
#define k_blockDimX 32
#define k_blockDimMaxY 16

__constant__ float stencil[RADIUS + 1];

__global__ void FiniteDifferencesKernel(float *output, const float *input, const int dimx, const int dimy,
                                        const int dimz)
{
    bool validr = true;
    bool validw = true;
    const int gtidx = blockIdx.x * blockDim.x + threadIdx.x;
    const int gtidy = blockIdx.y * blockDim.y + threadIdx.y;
    const int ltidx = threadIdx.x;
    const int ltidy = threadIdx.y;
    const int workx = blockDim.x;
    const int worky = blockDim.y;
    // Handle to thread block group
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float tile[k_blockDimMaxY + 2 * RADIUS][k_blockDimX + 2 * RADIUS];

    const int stride_y = dimx + 2 * RADIUS;
    const int stride_z = stride_y * (dimy + 2 * RADIUS);

    int inputIndex = 0;
    int outputIndex = 0;

    // Advance inputIndex to start of inner volume
    inputIndex += RADIUS * stride_y + RADIUS;

    // Advance inputIndex to target element
    inputIndex += gtidy * stride_y + gtidx;

    float infront[RADIUS];
    float behind[RADIUS];
    float current;

    const int tx = ltidx + RADIUS;
    const int ty = ltidy + RADIUS;

    // Check in bounds
    if ((gtidx >= dimx + RADIUS) || (gtidy >= dimy + RADIUS))
        validr = false;

    if ((gtidx >= dimx) || (gtidy >= dimy))
        validw = false;

    // Preload the "infront" and "behind" data
    for (int i = RADIUS - 2; i >= 0; i--) {
        if (validr)
            behind[i] = input[inputIndex];

        inputIndex += stride_z;
    }

    if (validr)
        current = input[inputIndex];

    outputIndex = inputIndex;
    inputIndex += stride_z;

    for (int i = 0; i < RADIUS; i++) {
        if (validr)
            infront[i] = input[inputIndex];

        inputIndex += stride_z;
    }

    // Step through the xy-planes
#pragma unroll 9

    for (int iz = 0; iz < dimz; iz++) {
        // Advance the slice (move the thread-front)
        for (int i = RADIUS - 1; i > 0; i--)
            behind[i] = behind[i - 1];

        behind[0] = current;
        current = infront[0];
#pragma unroll 4

        for (int i = 0; i < RADIUS - 1; i++)
            infront[i] = infront[i + 1];

        if (validr)
            infront[RADIUS - 1] = input[inputIndex];

        inputIndex += stride_z;
        outputIndex += stride_z;
        cg::sync(cta);

        // Note that for the work items on the boundary of the problem, the
        // supplied index when reading the halo (below) may wrap to the
        // previous/next row or even the previous/next xy-plane. This is
        // acceptable since a) we disable the output write for these work
        // items and b) there is at least one xy-plane before/after the
        // current plane, so the access will be within bounds.

        // Update the data slice in the local tile
        // Halo above & below
        if (ltidy < RADIUS) {
            tile[ltidy][tx] = input[outputIndex - RADIUS * stride_y];
            tile[ltidy + worky + RADIUS][tx] = input[outputIndex + worky * stride_y];
        }

        // Halo left & right
        if (ltidx < RADIUS) {
            tile[ty][ltidx] = input[outputIndex - RADIUS];
            tile[ty][ltidx + workx + RADIUS] = input[outputIndex + workx];
        }

        tile[ty][tx] = current;
        cg::sync(cta);

        // Compute the output value
        float value = stencil[0] * current;
#pragma unroll 4

        for (int i = 1; i <= RADIUS; i++) {
            value += stencil[i] *
                     (infront[i - 1] + behind[i - 1] + tile[ty - i][tx] + tile[ty + i][tx] + tile[ty][tx - i] + tile[ty][tx + i]);
        }

        // Store the output value
        if (validw)
            output[outputIndex] = value;
    }
}

// ---- nbody: a tile of bodies in dynamic shared memory (float4 or double4), every body of the tile against mine --
__constant__ float softeningSquared;
__constant__ double softeningSquared_fp64;

template <typename T>
struct vec3 {
    typedef float Type;
};  // dummy
template <>
struct vec3<float> {
    typedef float3 Type;
};
template <>
struct vec3<double> {
    typedef double3 Type;
};

template <typename T>
struct vec4 {
    typedef float Type;
};  // dummy
template <>
struct vec4<float> {
    typedef float4 Type;
};
template <>
struct vec4<double> {
    typedef double4 Type;
};

template <typename T>
__device__ T rsqrt_T(T x)
{
    return rsqrt(x);
}

template <>
__device__ float rsqrt_T<float>(float x)
{
    return rsqrtf(x);
}

template <>
__device__ double rsqrt_T<double>(double x)
{
    return rsqrt(x);
}

template <typename T>
__device__ T getSofteningSquared()
{
    return softeningSquared;
}
template <>
__device__ double getSofteningSquared<double>()
{
    return softeningSquared_fp64;
}

template <typename T>
__device__ typename vec3<T>::Type bodyBodyInteraction(typename vec3<T>::Type ai, typename vec4<T>::Type bi,
                                                      typename vec4<T>::Type bj)
{
    typename vec3<T>::Type r;

    // r_ij  [3 FLOPS]
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;

    // distSqr = dot(r_ij, r_ij) + EPS^2  [6 FLOPS]
    T distSqr = r.x * r.x + r.y * r.y + r.z * r.z;
    distSqr += getSofteningSquared<T>();

    // invDistCube =1/distSqr^(3/2)  [4 FLOPS (2 mul, 1 sqrt, 1 inv)]
    T invDist = rsqrt_T(distSqr);
    T invDistCube = invDist * invDist * invDist;

    // s = m_j * invDistCube [1 FLOP]
    T s = bj.w * invDistCube;

    // a_i =  a_i + s * r_ij [6 FLOPS]
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;

    return ai;
}

template <typename T>
__device__ typename vec3<T>::Type computeBodyAccel(typename vec4<T>::Type bodyPos, typename vec4<T>::Type *positions,
                                                   int numTiles, cg::thread_block cta)
{
    typename vec4<T>::Type *sharedPos = SharedMemory<typename vec4<T>::Type>();

    typename vec3<T>::Type acc = {0.0f, 0.0f, 0.0f};

    for (int tile = 0; tile < numTiles; tile++) {
        sharedPos[threadIdx.x] = positions[tile * blockDim.x + threadIdx.x];

        cg::sync(cta);

        // This is the "tile_calculation" from the GPUG3 article.
#pragma unroll 128

        for (unsigned int counter = 0; counter < blockDim.x; counter++) {
            acc = bodyBodyInteraction<T>(acc, bodyPos, sharedPos[counter]);
        }

        cg::sync(cta);
    }

    return acc;
}

template <typename T>
__global__ void integrateBodies(typename vec4<T>::Type *__restrict__ newPos, typename vec4<T>::Type *__restrict__ oldPos,
                                typename vec4<T>::Type *vel, unsigned int deviceOffset, unsigned int deviceNumBodies,
                                float deltaTime, float damping, int numTiles)
{
    // Handle to thread block group
    cg::thread_block cta = cg::this_thread_block();
    int index = blockIdx.x * blockDim.x + threadIdx.x;

    if (index >= deviceNumBodies) {
        return;
    }

    typename vec4<T>::Type position = oldPos[deviceOffset + index];

    typename vec3<T>::Type accel = computeBodyAccel<T>(position, oldPos, numTiles, cta);

    // acceleration = force / mass;
    // new velocity = old velocity + acceleration * deltaTime
    // note we factor out the body's mass from the equation, here and in
    // bodyBodyInteraction (because they cancel out).  Thus here force ==
    // acceleration
    typename vec4<T>::Type velocity = vel[deviceOffset + index];

    velocity.x += accel.x * deltaTime;
    velocity.y += accel.y * deltaTime;
    velocity.z += accel.z * deltaTime;

    velocity.x *= damping;
    velocity.y *= damping;
    velocity.z *= damping;

    // new position = old position + velocity * deltaTime
    position.x += velocity.x * deltaTime;
    position.y += velocity.y * deltaTime;
    position.z += velocity.z * deltaTime;

    // store new position and velocity
    newPos[deviceOffset + index] = position;
    vel[deviceOffset + index] = velocity;
}

// ---- eigenvalues: one bisection step of the small-matrix kernel; each thread an interval, the Sturm count of its
// midpoint against the tridiagonal matrix staged in shared memory, the children compacted by a shared scan ----------
#define MAX_THREADS_BLOCK_SMALL_MATRIX 128

__device__ inline int sign_f(const float &val) { return (val < 0.0f) ? -1 : 1; }

__device__ inline float computeMidpoint(const float left, const float right)
{
    float mid;

    if (sign_f(left) == sign_f(right)) {
        mid = left + (right - left) * 0.5f;
    } else {
        mid = (left + right) * 0.5f;
    }

    return mid;
}

__device__ inline unsigned int computeNumSmallerEigenvals(float *g_d, float *g_s, const unsigned int n, const float x,
                                                          const unsigned int tid,
                                                          const unsigned int num_intervals_active, float *s_d,
                                                          float *s_s, unsigned int converged, cg::thread_block cta)
{
    float delta = 1.0f;
    unsigned int count = 0;

    cg::sync(cta);

    // read data into shared memory
    if (threadIdx.x < n) {
        s_d[threadIdx.x] = *(g_d + threadIdx.x);
        s_s[threadIdx.x] = (threadIdx.x > 0) ? *(g_s + threadIdx.x - 1) : 0.0f;
    }

    cg::sync(cta);

    // perform loop only for active threads
    if ((tid < num_intervals_active) && (0 == converged)) {
        // perform (optimized) Gaussian elimination to determine the number
        // of eigenvalues that are smaller than n
        for (unsigned int k = 0; k < n; ++k) {
            delta = s_d[k] - x - (s_s[k] * s_s[k]) / delta;
            count += (delta < 0) ? 1 : 0;
        }

    }  // end if thread currently processing an interval

    return count;
}

__global__ void bisectKernelStep(float *g_d, float *g_s, const unsigned int n, float *g_left, float *g_right,
                                 unsigned int *g_left_count, unsigned int *g_right_count,
                                 const unsigned int num_intervals, float *g_left_out, float *g_right_out,
                                 unsigned int *g_left_count_out, unsigned int *g_right_count_out,
                                 unsigned int *g_num_out)
{
    // Handle to thread block group
    cg::thread_block cta = cg::this_thread_block();

    // intervals (store left and right because the subdivision tree is in general not dense)
    __shared__ float s_left[2 * MAX_THREADS_BLOCK_SMALL_MATRIX];
    __shared__ float s_right[2 * MAX_THREADS_BLOCK_SMALL_MATRIX];
    // number of eigenvalues that are smaller than s_left / s_right
    __shared__ unsigned int s_left_count[2 * MAX_THREADS_BLOCK_SMALL_MATRIX];
    __shared__ unsigned int s_right_count[2 * MAX_THREADS_BLOCK_SMALL_MATRIX];
    // helper for stream compaction
    __shared__ unsigned int s_compaction_list[MAX_THREADS_BLOCK_SMALL_MATRIX + 1];
    // the matrix
    __shared__ float s_d[MAX_THREADS_BLOCK_SMALL_MATRIX];
    __shared__ float s_s[MAX_THREADS_BLOCK_SMALL_MATRIX];

    const unsigned int tid = threadIdx.x;

    float left = 0.0f, right = 0.0f;
    unsigned int left_count = 0, right_count = 0;
    if (tid < num_intervals) {
        left = g_left[tid];
        right = g_right[tid];
        left_count = g_left_count[tid];
        right_count = g_right_count[tid];
    }

    float mid = computeMidpoint(left, right);
    unsigned int mid_count =
        computeNumSmallerEigenvals(g_d, g_s, n, mid, tid, num_intervals, s_d, s_s, 0, cta);

    // does the interval split into two non-empty children?
    unsigned int is_active_second = 0;
    if (tid < num_intervals) {
        if ((mid_count > left_count) && (right_count > mid_count)) {
            is_active_second = 1;
        }
    }
    s_compaction_list[tid] = is_active_second;
    cg::sync(cta);

    // inclusive scan of the second children (Hillis-Steele)
    for (unsigned int offset = 1; offset < blockDim.x; offset <<= 1) {
        unsigned int t = (tid >= offset) ? s_compaction_list[tid - offset] : 0;
        cg::sync(cta);
        s_compaction_list[tid] += t;
        cg::sync(cta);
    }

    if (tid < num_intervals) {
        if (mid_count > left_count) {
            // the left child stays in place
            s_left[tid] = left;
            s_right[tid] = mid;
            s_left_count[tid] = left_count;
            s_right_count[tid] = mid_count;
            if (is_active_second) {
                // the right child goes behind the intervals, compacted
                const unsigned int addr = num_intervals + s_compaction_list[tid] - 1;
                s_left[addr] = mid;
                s_right[addr] = right;
                s_left_count[addr] = mid_count;
                s_right_count[addr] = right_count;
            }
        } else {
            s_left[tid] = mid;
            s_right[tid] = right;
            s_left_count[tid] = mid_count;
            s_right_count[tid] = right_count;
        }
    }
    cg::sync(cta);

    const unsigned int num_out = num_intervals + s_compaction_list[blockDim.x - 1];
    for (unsigned int i = tid; i < num_out; i += blockDim.x) {
        g_left_out[i] = s_left[i];
        g_right_out[i] = s_right[i];
        g_left_count_out[i] = s_left_count[i];
        g_right_count_out[i] = s_right_count[i];
    }
    if (0 == tid) {
        *g_num_out = num_out;
    }
}

// ---- lineOfSight: the elevation angle of each sample along a ray over a height map, a block max-scan of the angles
// (Hillis-Steele, double-buffered in shared memory), and the visibilities ----------------------------------------
typedef unsigned char Bool;

__device__ float getLocationHeight(const float *heightMap, int width, int height, float2 location)
{
    // bilinear, the texture's filtering done by hand
    float fx = fminf(fmaxf(location.x, 0.0f), (float)(width - 1) - 0.001f);
    float fy = fminf(fmaxf(location.y, 0.0f), (float)(height - 1) - 0.001f);
    int x0 = (int)fx;
    int y0 = (int)fy;
    float ax = fx - x0;
    float ay = fy - y0;
    float h00 = heightMap[y0 * width + x0];
    float h01 = heightMap[y0 * width + x0 + 1];
    float h10 = heightMap[(y0 + 1) * width + x0];
    float h11 = heightMap[(y0 + 1) * width + x0 + 1];
    return (1 - ay) * ((1 - ax) * h00 + ax * h01) + ay * ((1 - ax) * h10 + ax * h11);
}

__global__ void computeAngles_kernel(const float *heightMap, int width, int height, float originX, float originY,
                                     float originZ, float dirX, float dirY, float *angles, int numAngles)
{
    uint i = blockDim.x * blockIdx.x + threadIdx.x;

    if (i < numAngles) {
        float2 location = make_float2(originX + (i + 1) * dirX, originY + (i + 1) * dirY);
        float h = getLocationHeight(heightMap, width, height, location);
        float dx = location.x - originX;
        float dy = location.y - originY;
        float distance = sqrtf(dx * dx + dy * dy);
        angles[i] = atanf((h - originZ) / distance);
    }
}

__global__ void maxScanKernel(const float *angles, float *scannedAngles, float *blockMax, int numAngles)
{
    extern __shared__ float s_scan[];  // two buffers of blockDim.x
    const int tid = threadIdx.x;
    const int n = blockDim.x;
    const int i = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;

    s_scan[pout * n + tid] = (i < numAngles) ? angles[i] : -FLT_MAX;
    __syncthreads();

    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;  // swap double buffer indices
        pin = 1 - pout;
        if (tid >= offset)
            s_scan[pout * n + tid] = fmaxf(s_scan[pin * n + tid], s_scan[pin * n + tid - offset]);
        else
            s_scan[pout * n + tid] = s_scan[pin * n + tid];
        __syncthreads();
    }

    if (i < numAngles)
        scannedAngles[i] = s_scan[pout * n + tid];
    if (tid == n - 1)
        blockMax[blockIdx.x] = s_scan[pout * n + tid];
}

__global__ void computeVisibilities_kernel(const float *angles, const float *scannedAngles, int numAngles,
                                           Bool *visibilities)
{
    uint i = blockDim.x * blockIdx.x + threadIdx.x;

    if (i < numAngles) {
        visibilities[i] = scannedAngles[i] <= angles[i];
    }
}

// =============================================================================================================
// host side (never run by the truth recording): a few of the kernels on small inputs
// =============================================================================================================
static void fill(std::vector<float> &v, unsigned seed)
{
    srand(seed);
    for (auto &x : v)
        x = (float)rand() / RAND_MAX;
}

int main(int argc, char **argv)
{
    // PolyBench atax
    std::vector<float> A(ATAX_NX * ATAX_NY), x(ATAX_NY), y(ATAX_NY), tmp(ATAX_NX);
    fill(A, 1);
    fill(x, 2);
    float *A_gpu, *x_gpu, *y_gpu, *tmp_gpu;
    CUDA_SAFE_CALL(cudaMalloc(&A_gpu, A.size() * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&x_gpu, x.size() * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&y_gpu, y.size() * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&tmp_gpu, tmp.size() * sizeof(float)));
    CUDA_SAFE_CALL(cudaMemcpy(A_gpu, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemcpy(x_gpu, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemset(y_gpu, 0, y.size() * sizeof(float)));
    CUDA_SAFE_CALL(cudaMemset(tmp_gpu, 0, tmp.size() * sizeof(float)));
    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid1((size_t)(ceil(((float)ATAX_NX) / ((float)block.x))), 1);
    dim3 grid2((size_t)(ceil(((float)ATAX_NY) / ((float)block.x))), 1);
    atax_kernel1<<<grid1, block>>>(A_gpu, x_gpu, tmp_gpu);
    cudaDeviceSynchronize();
    atax_kernel2<<<grid2, block>>>(A_gpu, y_gpu, tmp_gpu);
    cudaDeviceSynchronize();
    CUDA_SAFE_CALL(cudaMemcpy(y.data(), y_gpu, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
    printf("atax: y[0] = %f\n", y[0]);

    // SHOC reduction and scan
    const unsigned int n = 4096;
    std::vector<float> h_in(n);
    fill(h_in, 3);
    float *d_in, *d_out, *d_sums;
    CUDA_SAFE_CALL(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_SAFE_CALL(cudaMalloc(&d_sums, 64 * sizeof(float)));
    CUDA_SAFE_CALL(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    reduce<float, 256><<<4, 256, 256 * sizeof(float)>>>(d_in, d_out, n);
    prescan<<<n / 256, 128, (256 + CONFLICT_FREE_OFFSET(255) + 1) * sizeof(float)>>>(d_out, d_in, d_sums, n);
    CUDA_SAFE_CALL(cudaDeviceSynchronize());

    // n-body
    const int numBodies = 384, p = 96;
    float4 *d_pos[2], *d_vel;
    std::vector<float> h_pos(4 * numBodies);
    fill(h_pos, 4);
    CUDA_SAFE_CALL(cudaMalloc(&d_pos[0], numBodies * sizeof(float4)));
    CUDA_SAFE_CALL(cudaMalloc(&d_pos[1], numBodies * sizeof(float4)));
    CUDA_SAFE_CALL(cudaMalloc(&d_vel, numBodies * sizeof(float4)));
    CUDA_SAFE_CALL(cudaMemcpy(d_pos[0], h_pos.data(), numBodies * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemset(d_vel, 0, numBodies * sizeof(float4)));
    const float soft = 0.01f;
    CUDA_SAFE_CALL(cudaMemcpyToSymbol(softeningSquared, &soft, sizeof(float)));
    integrateBodies<float><<<numBodies / p, p, p * sizeof(float4)>>>(d_pos[1], d_pos[0], d_vel, 0, numBodies, 0.016f,
                                                                      0.995f, numBodies / p);
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    printf("done\n");

    cudaFree(A_gpu);
    cudaFree(x_gpu);
    cudaFree(y_gpu);
    cudaFree(tmp_gpu);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    cudaFree(d_pos[0]);
    cudaFree(d_pos[1]);
    cudaFree(d_vel);
    return 0;
}
