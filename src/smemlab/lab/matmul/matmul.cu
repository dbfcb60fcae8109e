// C = A * B in float32, row-major (Programming Guide "Shared Memory"; seed 001 "共享内存").
//
//   MatMulKernelNaive  the seed's first MatMulKernel: one thread per element of C, reading a row of
//                      A and a column of B from global memory (A is read B.width times, B A.height times)
//   MatMulKernel       the seed's tiled MatMulKernel with GetElement / SetElement / GetSubMatrix and
//                      the stride: BLOCK_SIZE x BLOCK_SIZE tiles of A and B staged in shared memory
//                      (A is read B.width / BLOCK_SIZE times, B A.height / BLOCK_SIZE times)
//
// Unlike the seed, any M, N, K work: a sub-matrix at the edge is cut to what is left of the matrix
// (its width/height), GetElement returns 0 outside it and SetElement writes nothing outside it.
// Offsets are 64-bit (row * stride may pass 2^31). Launch: block (BLOCK_SIZE, BLOCK_SIZE),
// grid (ceil(N / BLOCK_SIZE), ceil(M / BLOCK_SIZE)).
#ifndef BLOCK_SIZE
#define BLOCK_SIZE 16
#endif

// M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
    int width;
    int height;
    int stride;
    float *elements;
} Matrix;

// A matrix element; 0 outside the (sub-)matrix.
__device__ float GetElement(const Matrix A, int row, int col)
{
    if (row >= A.height || col >= A.width)
        return 0.0f;
    return A.elements[(size_t)row * A.stride + col];
}

// Set a matrix element; nothing outside the (sub-)matrix.
__device__ void SetElement(Matrix A, int row, int col, float value)
{
    if (row >= A.height || col >= A.width)
        return;
    A.elements[(size_t)row * A.stride + col] = value;
}

// The BLOCK_SIZE x BLOCK_SIZE sub-matrix of A at block row `row`, block column `col`: BLOCK_SIZE
// rows down and columns across, with A's stride; cut to what is left of A at the edges.
__device__ Matrix GetSubMatrix(Matrix A, int row, int col)
{
    Matrix Asub;
    Asub.width = min(BLOCK_SIZE, A.width - BLOCK_SIZE * col);
    Asub.height = min(BLOCK_SIZE, A.height - BLOCK_SIZE * row);
    Asub.stride = A.stride;
    Asub.elements = &A.elements[(size_t)A.stride * BLOCK_SIZE * row + (size_t)BLOCK_SIZE * col];
    return Asub;
}

// A is M x K, B is K x N, C is M x N, all dense row-major (stride = width).
extern "C" __global__ void MatMulKernelNaive(const float *a, const float *b, float *c, int M, int N, int K)
{
    const Matrix A = {K, M, K, const_cast<float *>(a)};
    const Matrix B = {N, K, N, const_cast<float *>(b)};
    Matrix C = {N, M, N, c};
    // Each thread computes one element of C
    float Cvalue = 0;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= C.height || col >= C.width)
        return;
    for (int e = 0; e < A.width; ++e)
        Cvalue += A.elements[(size_t)row * A.width + e] * B.elements[(size_t)e * B.width + col];
    C.elements[(size_t)row * C.width + col] = Cvalue;
}

extern "C" __global__ void MatMulKernel(const float *a, const float *b, float *c, int M, int N, int K)
{
    const Matrix A = {K, M, K, const_cast<float *>(a)};
    const Matrix B = {N, K, N, const_cast<float *>(b)};
    const Matrix C = {N, M, N, c};
    // Block row and column
    const int blockRow = blockIdx.y;
    const int blockCol = blockIdx.x;
    // Each thread block computes one sub-matrix Csub of C
    Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
    // Each thread computes one element of Csub by accumulating results into Cvalue
    float Cvalue = 0;
    // Thread row and column within Csub
    const int row = threadIdx.y;
    const int col = threadIdx.x;
    // Shared memory used to store Asub and Bsub respectively
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    // Loop over all the sub-matrices of A and B that are required to compute Csub; multiply each
    // pair of sub-matrices together and accumulate the results (the last pair may be cut: its
    // missing elements load as 0 and add nothing)
    const int tiles = (A.width + BLOCK_SIZE - 1) / BLOCK_SIZE;
    for (int m = 0; m < tiles; ++m) {
        Matrix Asub = GetSubMatrix(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);
        // Each thread loads one element of each sub-matrix
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        // The sub-matrices are loaded before the computation starts
        __syncthreads();
#pragma unroll
        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += As[row][e] * Bs[e][col];
        // The computation is done before the next iteration loads two new sub-matrices
        __syncthreads();
    }
    // Write Csub to device memory; each thread writes one element
    SetElement(Csub, row, col, Cvalue);
}
