// Kernels that take tables of pointers: the pointer arrays of cuBLAS's batched routines (`const T *const A[]`)
// and a grouped problem list, each matrix a buffer of its own.

// y[b] += alpha * x[b], one row of blocks a batch entry (blockIdx.y).
__global__ void batched_axpy(const float *const *x, float *const *y, float alpha, int n) {
    const float *xb = x[blockIdx.y];
    float *yb = y[blockIdx.y];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        yb[i] += alpha * xb[i];
}

// C[b] = A[b] * B[b] for small square matrices, 16x16 tiles staged in shared memory; n need not be a multiple of 16.
#define TS 16
__global__ void batched_sgemm_tiles(const float *const *A, const float *const *B, float *const *C, int n) {
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS + 1];
    const float *a = A[blockIdx.z];
    const float *b = B[blockIdx.z];
    int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.f;
    for (int k0 = 0; k0 < n; k0 += TS) {
        As[threadIdx.y][threadIdx.x] = (row < n && k0 + threadIdx.x < n) ? a[row * n + k0 + threadIdx.x] : 0.f;
        Bs[threadIdx.y][threadIdx.x] = (col < n && k0 + threadIdx.y < n) ? b[(k0 + threadIdx.y) * n + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        C[blockIdx.z][row * n + col] = acc;
}

// Rows of differing lengths, one pointer a row (a jagged array): each warp sums a row, lane 0 writes it.
__global__ void jagged_row_sums(const double *const *rows, const int *lengths, double *sums, int nrows) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (warp >= nrows)
        return;
    const double *r = rows[warp];
    double s = 0.0;
    for (int i = lane; i < lengths[warp]; i += 32)
        s += r[i];
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0)
        sums[warp] = s;
}
