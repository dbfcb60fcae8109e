// A shared-memory matrix transpose as it is usually first written (after the CUDA samples'
// transposeCoalesced): a 32x32 tile per block, 32x8 threads, each thread moving 4 elements.
// Global reads and writes are coalesced; the tile is read by columns, so the 32 lanes of a warp
// read 32 floats 32 words apart: one bank, 32 different words. transposePadded adds one column.
// transposeFirstTry is the attempt before both: it fills the tile by columns and each thread writes
// its own element down a column of out, 32 sectors a request (the README's analyze example).
//
//   smemlab analyze examples/transpose_naive.cu --kernel transposeNaive --block 32,8 --grid 4,4 \
//       --arg out=float32[16384] --arg in=float32[16384] --arg n=128
#define TILE 32
#define ROWS 8

extern "C" __global__ void transposeNaive(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transposePadded(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transposeFirstTry(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.x][threadIdx.y + j] = in[(y + j) * n + x];
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS)
        out[x * n + (y + j)] = tile[threadIdx.x][threadIdx.y + j];
}
