// y = A x, A row-major rows x cols, x staged in shared memory a tile at a time.
//   gemv_smem        one thread per row: every lane reads the same xs[j] (a broadcast)
//   blas::gemv_warp  one warp per row (C++ in a namespace, mangled): lanes read consecutive xs[j],
//                    the row's partial sums finished with __shfl_down_sync
#define XTILE 256

extern "C" __global__ void gemv_smem(const float *A, const float *x, float *y, int rows, int cols)
{
    __shared__ float xs[XTILE];
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < cols; t += XTILE) {
        for (int j = threadIdx.x; j < XTILE; j += blockDim.x)
            xs[j] = t + j < cols ? x[t + j] : 0.0f;
        __syncthreads();
        if (row < rows) {
            const int len = min(XTILE, cols - t);
            for (int j = 0; j < len; ++j)
                sum += A[(size_t)row * cols + t + j] * xs[j];
        }
        __syncthreads();
    }
    if (row < rows) y[row] = sum;
}

namespace blas {
__global__ void gemv_warp(const float *A, const float *x, float *y, int rows, int cols)
{
    __shared__ float xs[XTILE];
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    float sum = 0.0f;
    for (int t = 0; t < cols; t += XTILE) {
        for (int j = threadIdx.x; j < XTILE; j += blockDim.x)
            xs[j] = t + j < cols ? x[t + j] : 0.0f;
        __syncthreads();
        if (row < rows)
            for (int j = lane; j < XTILE && t + j < cols; j += 32)
                sum += A[(size_t)row * cols + t + j] * xs[j];
        __syncthreads();
    }
    for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (row < rows && lane == 0) y[row] = sum;
}
}  // namespace blas
