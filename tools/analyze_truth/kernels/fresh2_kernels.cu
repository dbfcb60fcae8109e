// The second held-out batch, part 1: kernels in the style of the CUDA samples (reductions with templates and
// shuffles, 64- and 256-bin histograms, separable convolution, 8x8 DCT blocks, bitonic merge steps, tiled and
// diagonal transposes, a column-major matrix product, a padded-scan stream compaction, a double dot product
// with a volatile last warp), written for the truth of analyze's global and shared counts. One thread block
// walks the whole problem where the samples launch a grid.
#include "fresh2_common.cuh"

// ---- reduction: grid-stride loads, two per iteration when n is a power of two, shuffles, one partial a warp ----
template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void __launch_bounds__(blockSize) reduceShfl(const T *__restrict__ g_idata, T *__restrict__ g_odata,
                                                        unsigned int n)
{
    T *sdata = SharedMemory<T>();
    const unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockSize * gridDim.x;
    T mySum = 0;
    if (nIsPow2) {
        unsigned int i = blockIdx.x * blockSize * 2 + tid;
        gridSize <<= 1;
        while (i < n) {
            mySum += g_idata[i];
            if (i + blockSize < n)
                mySum += g_idata[i + blockSize];
            i += gridSize;
        }
    } else {
        for (unsigned int i = blockIdx.x * blockSize + tid; i < n; i += gridSize)
            mySum += g_idata[i];
    }
    mySum = warpReduceSum<T>(0xffffffffu, mySum);
    if ((tid & (WARP_SIZE - 1)) == 0)
        sdata[tid / WARP_SIZE] = mySum;
    __syncthreads();
    const unsigned int nWarps = blockSize / WARP_SIZE;
    if (tid < WARP_SIZE) {
        mySum = tid < nWarps ? sdata[tid] : (T)0;
        mySum = warpReduceSum<T>(0xffffffffu, mySum);
        if (tid == 0)
            g_odata[blockIdx.x] = mySum;
    }
}
template __global__ void reduceShfl<float, 256, true>(const float *, float *, unsigned int);
template __global__ void reduceShfl<double, 96, false>(const double *, double *, unsigned int);

// ---- 64-bin histogram: per-thread byte counters in shared memory, packed 4 samples a word ----
#define HIST64_THREADS 64
#define HIST64_BINS 64

__device__ inline void addByte64(unsigned char *s_ThreadBase, unsigned int data)
{
    s_ThreadBase[UMUL(data, HIST64_THREADS)]++;
}

__device__ inline void addWord64(unsigned char *s_ThreadBase, unsigned int data)
{
    // the top 6 bits of each byte
    addByte64(s_ThreadBase, (data >> 2) & 0x3FU);
    addByte64(s_ThreadBase, (data >> 10) & 0x3FU);
    addByte64(s_ThreadBase, (data >> 18) & 0x3FU);
    addByte64(s_ThreadBase, (data >> 26) & 0x3FU);
}

extern "C" __global__ void histogram64_bytes(unsigned int *d_Histogram, const unsigned int *d_Data, unsigned int dataCount)
{
    // a thread's column of counters, its lanes interleaved so that a warp's counters spread over the banks
    const unsigned int threadPos = ((threadIdx.x & ~(16 * 4 - 1)) << 0) | ((threadIdx.x & 15) << 2) | ((threadIdx.x & 48) >> 4);
    __shared__ unsigned char s_Hist[HIST64_THREADS * HIST64_BINS];
    unsigned int *s_HistWords = (unsigned int *)s_Hist;
#pragma unroll
    for (int i = 0; i < HIST64_BINS / 4; i++)
        s_HistWords[threadIdx.x + i * HIST64_THREADS] = 0;
    unsigned char *s_ThreadBase = s_Hist + threadPos;
    __syncthreads();
    for (unsigned int pos = UMUL(blockIdx.x, blockDim.x) + threadIdx.x; pos < dataCount; pos += UMUL(blockDim.x, gridDim.x))
        addWord64(s_ThreadBase, d_Data[pos]);  // at most 63 words a thread: the byte counters do not wrap
    __syncthreads();
    // merge the 64 counters of a bin, each thread starting at another one
    if (threadIdx.x < HIST64_BINS) {
        unsigned char *s_HistBase = s_Hist + UMUL(threadIdx.x, HIST64_THREADS);
        unsigned int sum = 0;
        unsigned int pos = 4 * (threadIdx.x & 15);
#pragma unroll
        for (unsigned int i = 0; i < (HIST64_THREADS / 4); i++) {
            sum += s_HistBase[pos + 0] + s_HistBase[pos + 1] + s_HistBase[pos + 2] + s_HistBase[pos + 3];
            pos = (pos + 4) & (HIST64_THREADS - 1);
        }
        d_Histogram[blockIdx.x * HIST64_BINS + threadIdx.x] = sum;
    }
}

// ---- 256-bin histogram: one sub-histogram a warp, shared integer atomics, merged into the global bins ----
#define HIST256_BINS 256

extern "C" __global__ void histogram256_warps(unsigned int *__restrict__ d_Histogram, const unsigned int *__restrict__ d_Data,
                                              unsigned int dataCount)
{
    extern __shared__ unsigned int s_Hist256[];  // warps x 256 counters
    const unsigned int warpCount = blockDim.x / WARP_SIZE;
    for (unsigned int i = threadIdx.x; i < warpCount * HIST256_BINS; i += blockDim.x)
        s_Hist256[i] = 0;
    unsigned int *s_WarpHist = s_Hist256 + (threadIdx.x >> LOG2_WARP_SIZE) * HIST256_BINS;
    __syncthreads();
    for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x) {
        unsigned int data = d_Data[pos];
        atomicAdd(s_WarpHist + ((data >> 0) & 0xFFU), 1u);
        atomicAdd(s_WarpHist + ((data >> 8) & 0xFFU), 1u);
        atomicAdd(s_WarpHist + ((data >> 16) & 0xFFU), 1u);
        atomicAdd(s_WarpHist + ((data >> 24) & 0xFFU), 1u);
    }
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < HIST256_BINS; bin += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int w = 0; w < warpCount; w++)
            sum += s_Hist256[bin + w * HIST256_BINS];
        atomicAdd(d_Histogram + bin, sum);
    }
}

// ---- separable convolution (rows, then columns), a __constant__ kernel of radius 8 ----
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
__constant__ float c_Kernel[KERNEL_LENGTH];

#ifndef ROWS_BLOCKDIM_X
#define ROWS_BLOCKDIM_X 16
#endif
#ifndef ROWS_BLOCKDIM_Y
#define ROWS_BLOCKDIM_Y 4
#endif
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

extern "C" __global__ void convolutionRows(float *d_Dst, const float *d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
    // the first element of the main data, one halo step in
    const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
    const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++)  // left halo
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
#pragma unroll
    for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
    __syncthreads();
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
        if (imageW - baseX > i * ROWS_BLOCKDIM_X)
            d_Dst[i * ROWS_BLOCKDIM_X] = sum;
    }
}

#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 4
#define COLUMNS_HALO_STEPS 1

extern "C" __global__ void convolutionColumns(float *d_Dst, const float *d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[COLUMNS_BLOCKDIM_X][(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];
    const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
    const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;
#pragma unroll
    for (int i = 0; i < COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS; i++) {
        int y = baseY + i * COLUMNS_BLOCKDIM_Y;
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (y >= 0 && y < imageH) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
    }
    __syncthreads();
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
        if (baseY + i * COLUMNS_BLOCKDIM_Y < imageH)
            d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
    }
}

// ---- 8x8 DCT: blockDim.z blocks of 8x8 pixels a thread block, a row pass and a column pass in shared memory ----
#define BLOCK_SIZE8 8

extern "C" __global__ void dct8x8_blocks(float *dst, const unsigned char *src, int width, int srcStride, int dstStride)
{
    __shared__ float cosTable[BLOCK_SIZE8][BLOCK_SIZE8];
    __shared__ float block[4][BLOCK_SIZE8][BLOCK_SIZE8 + 1];
    __shared__ float rows[4][BLOCK_SIZE8][BLOCK_SIZE8 + 1];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    if (tz == 0) {
        float cu = tx == 0 ? 0.353553390593f : 0.5f;  // sqrt(1/8), sqrt(2/8)
        cosTable[tx][ty] = cu * cospif((2 * ty + 1) * tx / 16.0f);
    }
    const int blocksPerRow = width / BLOCK_SIZE8;
    const int bx = tz % blocksPerRow, by = tz / blocksPerRow;
    const int px = bx * BLOCK_SIZE8 + tx, py = by * BLOCK_SIZE8 + ty;
    block[tz][ty][tx] = (float)src[py * srcStride + px] - 128.0f;
    __syncthreads();
    float s = 0.0f;  // rows: coefficient tx of row ty
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE8; k++)
        s += cosTable[tx][k] * block[tz][ty][k];
    rows[tz][ty][tx] = s;
    __syncthreads();
    s = 0.0f;  // columns: coefficient ty of column tx
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE8; k++)
        s += cosTable[ty][k] * rows[tz][k][tx];
    dst[py * dstStride + px] = s;
}

// ---- bitonic sort's global merge step: one (size, stride) pass over key/value pairs ----
__device__ inline void ComparatorKV(unsigned int &keyA, unsigned int &valA, unsigned int &keyB, unsigned int &valB,
                                    unsigned int dir)
{
    if ((keyA > keyB) == dir) {
        unsigned int t = keyA;
        keyA = keyB;
        keyB = t;
        t = valA;
        valA = valB;
        valB = t;
    }
}

extern "C" __global__ void bitonicMergeGlobal(unsigned int *d_DstKey, unsigned int *d_DstVal, const unsigned int *d_SrcKey,
                                              const unsigned int *d_SrcVal, unsigned int arrayLength, unsigned int size,
                                              unsigned int stride, unsigned int dir)
{
    for (unsigned int comparatorI = blockIdx.x * blockDim.x + threadIdx.x; comparatorI < arrayLength / 2;
         comparatorI += blockDim.x * gridDim.x) {
        unsigned int ddd = dir ^ ((comparatorI & (size / 2)) != 0);
        unsigned int pos = 2 * comparatorI - (comparatorI & (stride - 1));
        unsigned int keyA = d_SrcKey[pos + 0];
        unsigned int valA = d_SrcVal[pos + 0];
        unsigned int keyB = d_SrcKey[pos + stride];
        unsigned int valB = d_SrcVal[pos + stride];
        ComparatorKV(keyA, valA, keyB, valB, ddd);
        d_DstKey[pos + 0] = keyA;
        d_DstVal[pos + 0] = valA;
        d_DstKey[pos + stride] = keyB;
        d_DstVal[pos + stride] = valB;
    }
}

// ---- transposes: diagonal block order (float), a padded double tile, a conjugate float2 tile ----
#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transposeDiagonalWalk(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const int tilesX = width / TILE_DIM, tilesY = height / TILE_DIM;
    for (int bid = 0; bid < tilesX * tilesY; ++bid) {  // the sample's diagonal block ids, walked by one block
        int blockIdx_y = bid % tilesY;
        int blockIdx_x = ((bid / tilesY) + blockIdx_y) % tilesX;
        int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
        int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
        int index_in = xIndex + yIndex * width;
        xIndex = blockIdx_y * TILE_DIM + threadIdx.x;
        yIndex = blockIdx_x * TILE_DIM + threadIdx.y;
        int index_out = xIndex + yIndex * height;
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
        __syncthreads();
        for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
            odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
        __syncthreads();
    }
}

extern "C" __global__ void transposeDouble33(double *__restrict__ odata, const double *__restrict__ idata, int width, int height)
{
    __shared__ double tile[TILE_DIM][TILE_DIM + 1];
    for (int by = 0; by < height; by += TILE_DIM)
        for (int bx = 0; bx < width; bx += TILE_DIM) {
            int x = bx + threadIdx.x;
            for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
                int y = by + threadIdx.y + j;
                if (x < width && y < height)
                    tile[threadIdx.y + j][threadIdx.x] = idata[(size_t)y * width + x];
            }
            __syncthreads();
            x = by + threadIdx.x;  // the transposed tile's origin
            for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
                int y = bx + threadIdx.y + j;
                if (x < height && y < width)
                    odata[(size_t)y * height + x] = tile[threadIdx.x][threadIdx.y + j];
            }
            __syncthreads();
        }
}

#define CTILE 16
extern "C" __global__ void conjTransposeComplex(float2 *out, const float2 *in, int rows, int cols)
{
    // out (cols x rows) = conj(in (rows x cols))^T, row-major complex
    __shared__ float2 tile[CTILE][CTILE + 1];
    for (int r0 = 0; r0 < rows; r0 += CTILE)
        for (int c0 = 0; c0 < cols; c0 += CTILE) {
            int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
            if (r < rows && c < cols)
                tile[threadIdx.y][threadIdx.x] = in[r * cols + c];
            __syncthreads();
            r = c0 + threadIdx.y;
            c = r0 + threadIdx.x;
            if (r < cols && c < rows) {
                float2 v = tile[threadIdx.x][threadIdx.y];
                out[r * rows + c] = make_float2(v.x, -v.y);
            }
            __syncthreads();
        }
}

// ---- C = alpha A B + beta C, column-major with leading dimensions, tiles of BS x BS ----
template <int BS>
__global__ void matrixMulColMajor(int M, int N, int K, float alpha, const float *A, int lda, const float *B, int ldb,
                                  float beta, float *C, int ldc)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.x * BS + tx;  // column-major: consecutive threads walk down a column
    const int col = blockIdx.y * BS + ty;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BS) {
        As[tx][ty] = (row < M && k0 + ty < K) ? A[row + (k0 + ty) * lda] : 0.0f;
        Bs[tx][ty] = (k0 + tx < K && col < N) ? B[(k0 + tx) + col * ldb] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BS; ++k)
            sum += As[tx][k] * Bs[k][ty];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row + col * ldc] = alpha * sum + beta * C[row + col * ldc];
}
template __global__ void matrixMulColMajor<16>(int, int, int, float, const float *, int, const float *, int, float, float *, int);
template __global__ void matrixMulColMajor<8>(int, int, int, float, const float *, int, const float *, int, float, float *, int);

// ---- stream compaction: flags, a padded work-efficient scan of 2*blockDim flags, a scatter ----
extern "C" __global__ void compactPositive(float *d_out, int *d_count, const float *d_in, int n)
{
    extern __shared__ int temp[];  // 2 * blockDim + padding
    const int thid = threadIdx.x;
    const int nn = 2 * blockDim.x;
    int total = 0;
    for (int base = 0; base < n; base += nn) {
        int ai = thid, bi = thid + blockDim.x;
        int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
        float va = base + ai < n ? d_in[base + ai] : 0.0f;
        float vb = base + bi < n ? d_in[base + bi] : 0.0f;
        int fa = va > 0.0f, fb = vb > 0.0f;
        temp[ai + bankOffsetA] = fa;
        temp[bi + bankOffsetB] = fb;
        int offset = 1;
        for (int d = nn >> 1; d > 0; d >>= 1) {  // up-sweep
            __syncthreads();
            if (thid < d) {
                int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
                a += CONFLICT_FREE_OFFSET(a);
                b += CONFLICT_FREE_OFFSET(b);
                temp[b] += temp[a];
            }
            offset *= 2;
        }
        __syncthreads();
        int chunkTotal = temp[nn - 1 + CONFLICT_FREE_OFFSET(nn - 1)];
        __syncthreads();
        if (thid == 0)
            temp[nn - 1 + CONFLICT_FREE_OFFSET(nn - 1)] = 0;
        for (int d = 1; d < nn; d *= 2) {  // down-sweep
            offset >>= 1;
            __syncthreads();
            if (thid < d) {
                int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
                a += CONFLICT_FREE_OFFSET(a);
                b += CONFLICT_FREE_OFFSET(b);
                int t = temp[a];
                temp[a] = temp[b];
                temp[b] += t;
            }
        }
        __syncthreads();
        if (fa)
            d_out[total + temp[ai + bankOffsetA]] = va;
        if (fb)
            d_out[total + temp[bi + bankOffsetB]] = vb;
        total += chunkTotal;
        __syncthreads();
    }
    if (thid == 0)
        *d_count = total;
}

// ---- double dot product: a shared tree with the last warp unrolled through a volatile pointer ----
template <unsigned int blockSize> __device__ void warpReduceVolatile(volatile double *sdata, unsigned int tid)
{
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void __launch_bounds__(blockSize) dotDouble(const double *__restrict__ x, const double *__restrict__ y,
                                                       double *result, int n)
{
    __shared__ double sdata[blockSize];
    const unsigned int tid = threadIdx.x;
    double s = 0.0;
    for (int i = blockIdx.x * blockSize + tid; i < n; i += blockSize * gridDim.x)
        s += x[i] * y[i];
    sdata[tid] = s;
    __syncthreads();
    if (blockSize >= 256) { if (tid < 128) sdata[tid] += sdata[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32)
        warpReduceVolatile<blockSize>(sdata, tid);
    if (tid == 0)
        atomicAdd(result, sdata[0]);
}
template __global__ void dotDouble<128>(const double *, const double *, double *, int);
template __global__ void dotDouble<64>(const double *, const double *, double *, int);
