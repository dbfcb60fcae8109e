// fresh12_apps.cu -- kernels in the manner of the CUDA samples and of the PMPP textbook (4th edition), the way a
// course or a benchmark harness carries them: histogram64/256, sorting networks, separable convolution, shuffle
// scan, an 8x8 DCT, the fast Walsh transform, binomial options, a single-pass threadfence reduction, a shared
// merge sort, the transpose family and the AS/BS matrix multiply; then the book's constant-memory convolutions,
// 3-D stencils, privatised histograms, scans, a circular-buffer merge, JDS SpMV, a BFS step with a privatised
// frontier and a radix-sort pass. Plain CUDA C++ with no library headers, so that NVRTC builds it too.
#include "fresh12_common.cuh"

// =============================================================================================================
// 1. histogram64: per-thread byte counters in shared memory, the threads' columns swizzled so that the byte
//    increments of a warp spread over the banks
// =============================================================================================================
#define HISTOGRAM64_BIN_COUNT 64
#define HISTOGRAM64_THREADBLOCK_SIZE 64
#define SHARED_MEMORY_BANKS 16
#define MERGE_THREADBLOCK_SIZE 256

__device__ __forceinline__ void addByte64(uchar *s_ThreadBase, uint data)
{
    s_ThreadBase[UMUL(data, HISTOGRAM64_THREADBLOCK_SIZE)]++;
}

__device__ __forceinline__ void addWord64(uchar *s_ThreadBase, uint data)
{
    // the top six bits of each byte
    addByte64(s_ThreadBase, (data >> 2) & 0x3FU);
    addByte64(s_ThreadBase, (data >> 10) & 0x3FU);
    addByte64(s_ThreadBase, (data >> 18) & 0x3FU);
    addByte64(s_ThreadBase, (data >> 26) & 0x3FU);
}

// dataCount counts uint4 words; a thread sees at most 15 of them per launch so that a byte counter cannot wrap
extern "C" __global__ void histogram64Kernel(uint *d_PartialHistograms, const uint4 *d_Data, uint dataCount)
{
    // thread 4*b + q of each 64-thread group writes column (b & 15) * 4 + ... : consecutive threads land four
    // bytes apart, i.e. in different banks
    const uint threadPos = ((threadIdx.x & ~(SHARED_MEMORY_BANKS * 4 - 1)) << 0) |
                           ((threadIdx.x & (SHARED_MEMORY_BANKS - 1)) << 2) |
                           ((threadIdx.x & (SHARED_MEMORY_BANKS * 3)) >> 4);

    __shared__ uchar s_Hist[HISTOGRAM64_THREADBLOCK_SIZE * HISTOGRAM64_BIN_COUNT];
    uchar *s_ThreadBase = s_Hist + threadPos;

    // clear as words
#pragma unroll
    for (uint i = 0; i < (HISTOGRAM64_BIN_COUNT / 4); i++)
        ((uint *)s_Hist)[threadIdx.x + i * HISTOGRAM64_THREADBLOCK_SIZE] = 0;
    __syncthreads();

    for (uint pos = UMAD(blockIdx.x, blockDim.x, threadIdx.x); pos < dataCount; pos += UMUL(blockDim.x, gridDim.x)) {
        const uint4 data = d_Data[pos];
        addWord64(s_ThreadBase, data.x);
        addWord64(s_ThreadBase, data.y);
        addWord64(s_ThreadBase, data.z);
        addWord64(s_ThreadBase, data.w);
    }
    __syncthreads();

    // a thread a bin: sum the bin's 64 byte counters, starting at a rotated position so that a warp's 32 bins
    // read different banks
    if (threadIdx.x < HISTOGRAM64_BIN_COUNT) {
        const uchar *s_HistBase = s_Hist + UMUL(threadIdx.x, HISTOGRAM64_THREADBLOCK_SIZE);
        uint sum = 0;
        uint pos = 4 * (threadIdx.x & (SHARED_MEMORY_BANKS - 1));
#pragma unroll
        for (uint i = 0; i < HISTOGRAM64_THREADBLOCK_SIZE; i++) {
            sum += s_HistBase[pos];
            pos = (pos + 1) & (HISTOGRAM64_THREADBLOCK_SIZE - 1);
        }
        d_PartialHistograms[blockIdx.x * HISTOGRAM64_BIN_COUNT + threadIdx.x] = sum;
    }
}

// one block a bin: sum that bin over histogramCount partial histograms, a tree in shared memory
extern "C" __global__ void mergeHistogram64Kernel(uint *d_Histogram, const uint *d_PartialHistograms,
                                                  uint histogramCount)
{
    __shared__ uint data[MERGE_THREADBLOCK_SIZE];
    uint sum = 0;
    for (uint i = threadIdx.x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE)
        sum += d_PartialHistograms[blockIdx.x + i * HISTOGRAM64_BIN_COUNT];
    data[threadIdx.x] = sum;
    for (uint stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride)
            data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        d_Histogram[blockIdx.x] = data[0];
}

// =============================================================================================================
// 2. histogram256: one 256-bin sub-histogram a warp; the counters keep their top bits for a warp tag
// =============================================================================================================
#define LOG2_WARP_SIZE 5U
#define HISTOGRAM256_BIN_COUNT 256
#define WARP_COUNT 6
#define HISTOGRAM256_THREADBLOCK_SIZE (WARP_COUNT << LOG2_WARP_SIZE)
#define HISTOGRAM256_THREADBLOCK_MEMORY (WARP_COUNT * HISTOGRAM256_BIN_COUNT)
#define TAG_MASK ((1U << (32U - LOG2_WARP_SIZE)) - 1U)

__device__ __forceinline__ void addByte256(uint *s_WarpHist, uint data) { atomicAdd(s_WarpHist + data, 1); }

__device__ __forceinline__ void addWord256(uint *s_WarpHist, uint data)
{
    addByte256(s_WarpHist, (data >> 0) & 0xFFU);
    addByte256(s_WarpHist, (data >> 8) & 0xFFU);
    addByte256(s_WarpHist, (data >> 16) & 0xFFU);
    addByte256(s_WarpHist, (data >> 24) & 0xFFU);
}

extern "C" __global__ void histogram256Kernel(uint *d_PartialHistograms, const uint *d_Data, uint dataCount)
{
    __shared__ uint s_Hist[HISTOGRAM256_THREADBLOCK_MEMORY];
    uint *s_WarpHist = s_Hist + (threadIdx.x >> LOG2_WARP_SIZE) * HISTOGRAM256_BIN_COUNT;

#pragma unroll
    for (uint i = 0; i < (HISTOGRAM256_THREADBLOCK_MEMORY / HISTOGRAM256_THREADBLOCK_SIZE); i++)
        s_Hist[threadIdx.x + i * HISTOGRAM256_THREADBLOCK_SIZE] = 0;
    __syncthreads();

    for (uint pos = UMAD(blockIdx.x, blockDim.x, threadIdx.x); pos < dataCount; pos += UMUL(blockDim.x, gridDim.x))
        addWord256(s_WarpHist, d_Data[pos]);
    __syncthreads();

    for (uint bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += HISTOGRAM256_THREADBLOCK_SIZE) {
        uint sum = 0;
        for (uint i = 0; i < WARP_COUNT; i++)
            sum += s_Hist[bin + i * HISTOGRAM256_BIN_COUNT] & TAG_MASK;
        d_PartialHistograms[blockIdx.x * HISTOGRAM256_BIN_COUNT + bin] = sum;
    }
}

// =============================================================================================================
// 3. sortingNetworks: bitonic sort and Batcher's odd-even merge sort of keys and values in shared memory; a block
//    sorts SHARED_SIZE_LIMIT elements as SHARED_SIZE_LIMIT / arrayLength independent arrays
// =============================================================================================================
template <uint SHARED_SIZE_LIMIT>
__global__ void bitonicSortShared(uint *d_DstKey, uint *d_DstVal, const uint *d_SrcKey, const uint *d_SrcVal,
                                  uint arrayLength, uint dir)
{
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[0];
    s_val[threadIdx.x + 0] = d_SrcVal[0];
    s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
    s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

    for (uint size = 2; size < arrayLength; size <<= 1) {
        // the bitonic merge direction of this thread's half
        const uint ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            f12::Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }
    // the last merge, in the requested direction
    for (uint stride = arrayLength / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        f12::Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
    }
    __syncthreads();
    d_DstKey[0] = s_key[threadIdx.x + 0];
    d_DstVal[0] = s_val[threadIdx.x + 0];
    d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
    d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

template <uint SHARED_SIZE_LIMIT>
__global__ void oddEvenMergeSortShared(uint *d_DstKey, uint *d_DstVal, const uint *d_SrcKey, const uint *d_SrcVal,
                                       uint arrayLength, uint dir)
{
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    const uint base = blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[base];
    s_val[threadIdx.x + 0] = d_SrcVal[base];
    s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[base + (SHARED_SIZE_LIMIT / 2)];
    s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[base + (SHARED_SIZE_LIMIT / 2)];

    for (uint size = 2; size <= arrayLength; size <<= 1) {
        uint stride = size / 2;
        const uint offset = threadIdx.x & (stride - 1);
        {
            __syncthreads();
            const uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            f12::Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
            stride >>= 1;
        }
        for (; stride > 0; stride >>= 1) {
            __syncthreads();
            const uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            if (offset >= stride)
                f12::Comparator(s_key[pos - stride], s_val[pos - stride], s_key[pos + 0], s_val[pos + 0], dir);
        }
    }
    __syncthreads();
    d_DstKey[base] = s_key[threadIdx.x + 0];
    d_DstVal[base] = s_val[threadIdx.x + 0];
    d_DstKey[base + (SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
    d_DstVal[base + (SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

// =============================================================================================================
// 4. convolutionSeparable: rows then columns, a KERNEL_LENGTH-tap filter in constant memory; a block stages
//    RESULT_STEPS tiles plus a halo tile on either side and writes RESULT_STEPS outputs a thread. The image must
//    tile exactly (width a multiple of RESULT_STEPS * BLOCKDIM_X for the rows, as the sample asks)
// =============================================================================================================
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
__constant__ float c_Kernel[KERNEL_LENGTH];

template <int ROWS_BLOCKDIM_X, int ROWS_BLOCKDIM_Y, int ROWS_RESULT_STEPS, int ROWS_HALO_STEPS>
__global__ void convolutionRowsKernel(float *d_Dst, const float *d_Src, int imageW, int imageH, int pitch)
{
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];

    // the first column of the left halo
    const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
    const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;

#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[i * ROWS_BLOCKDIM_X];
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
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
        d_Dst[i * ROWS_BLOCKDIM_X] = sum;
    }
}

template <int COLUMNS_BLOCKDIM_X, int COLUMNS_BLOCKDIM_Y, int COLUMNS_RESULT_STEPS, int COLUMNS_HALO_STEPS>
__global__ void convolutionColumnsKernel(float *d_Dst, const float *d_Src, int imageW, int imageH, int pitch)
{
    // one column of the tile a thread column; +1 so that a warp's column walk does not hit one bank
    __shared__ float s_Data[COLUMNS_BLOCKDIM_X][(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];

    const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
    const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;
    d_Src += baseY * pitch + baseX;
    d_Dst += baseY * pitch + baseX;

#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = d_Src[i * COLUMNS_BLOCKDIM_Y * pitch];
#pragma unroll
    for (int i = 0; i < COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
         i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++)
        s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;

    __syncthreads();
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
        float sum = 0;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
        d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
    }
}

// =============================================================================================================
// 5. shfl_scan: an inclusive scan a block -- warp scans by __shfl_up_sync, the warp totals scanned by the first
//    warp through dynamic shared memory, then added back; and the uniform add of the block totals
// =============================================================================================================
extern "C" __global__ void shfl_scan_test(int *data, int width, int *partial_sums)
{
    extern __shared__ int sums[];
    const int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    const int lane_id = id % warpSize;
    const int warp_id = threadIdx.x / warpSize;

    int value = data[id];
#pragma unroll
    for (int i = 1; i <= width; i *= 2) {
        const int n = __shfl_up_sync(FULL_MASK, value, i, width);
        if (lane_id >= i)
            value += n;
    }
    if (threadIdx.x % warpSize == warpSize - 1)
        sums[warp_id] = value;
    __syncthreads();

    const int nwarps = blockDim.x / warpSize;
    if (warp_id == 0 && lane_id < nwarps) {
        int warp_sum = sums[lane_id];
        const unsigned mask = (1u << nwarps) - 1;
        for (int i = 1; i <= nwarps; i *= 2) {
            const int n = __shfl_up_sync(mask, warp_sum, i, nwarps);
            if (lane_id >= i)
                warp_sum += n;
        }
        sums[lane_id] = warp_sum;
    }
    __syncthreads();

    int blockSum = 0;
    if (warp_id > 0)
        blockSum = sums[warp_id - 1];
    value += blockSum;
    data[id] = value;
    if (partial_sums != NULL && threadIdx.x == blockDim.x - 1)
        partial_sums[blockIdx.x] = value;
}

extern "C" __global__ void uniform_add(int *data, const int *partial_sums, int len)
{
    __shared__ int buf;
    const int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    if (id >= len)
        return;
    if (threadIdx.x == 0)
        buf = partial_sums[blockIdx.x];
    __syncthreads();
    data[id] += buf;
}

// =============================================================================================================
// 6. dct8x8: a block of (8, KER2_BLOCK_WIDTH / 8, KER2_BLOCK_HEIGHT / 8) threads transforms a
//    KER2_BLOCK_WIDTH x KER2_BLOCK_HEIGHT strip of 8x8 blocks in a shared array whose rows are
//    KER2_BLOCK_WIDTH + PAD floats apart: a thread a column of 8, then a thread a row of 8
// =============================================================================================================
#define BLOCK_SIZE8 8
#define KER2_BLOCK_WIDTH 32
#define KER2_BLOCK_HEIGHT 16

template <int PAD>
__global__ void CUDAkernel2DCT(float *dst, const float *src, int ImgStride)
{
    constexpr int KER2_SMEMBLOCK_STRIDE = KER2_BLOCK_WIDTH + PAD;
    __shared__ float block[KER2_BLOCK_HEIGHT * KER2_SMEMBLOCK_STRIDE];

    const int OffsThreadInRow = threadIdx.y * BLOCK_SIZE8 + threadIdx.x;
    const int OffsThreadInCol = threadIdx.z * BLOCK_SIZE8;
    src += IMUL(blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol, ImgStride) + blockIdx.x * KER2_BLOCK_WIDTH +
           OffsThreadInRow;
    dst += IMUL(blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol, ImgStride) + blockIdx.x * KER2_BLOCK_WIDTH +
           OffsThreadInRow;
    float *bl_ptr = block + OffsThreadInCol * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow;

#pragma unroll
    for (int i = 0; i < BLOCK_SIZE8; i++)
        bl_ptr[i * KER2_SMEMBLOCK_STRIDE] = src[i * ImgStride];
    __syncthreads();

    // columns: thread (x, y, z) takes column OffsThreadInRow of the z-th band
    f12::dct8_inplace(block + OffsThreadInCol * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow, KER2_SMEMBLOCK_STRIDE);
    __syncthreads();

    // rows: thread (x, y, z) takes row x of the y-th 8x8 block of the z-th band
    f12::dct8_inplace(block + (OffsThreadInCol + threadIdx.x) * KER2_SMEMBLOCK_STRIDE + threadIdx.y * BLOCK_SIZE8, 1);
    __syncthreads();

#pragma unroll
    for (int i = 0; i < BLOCK_SIZE8; i++)
        dst[i * ImgStride] = bl_ptr[i * KER2_SMEMBLOCK_STRIDE];
}

// =============================================================================================================
// 7. fastWalshTransform: a block a vector of N = 2^log2N in dynamic shared memory, radix-4 butterflies at strides
//    N/4, N/16, ... and a last radix-2 stage when log2N is odd (blockDim = N / 4); and a plain radix-2 version
//    (strides N/2 down to 1, any block size)
// =============================================================================================================
extern "C" __global__ void fwtBatch1Kernel(float *d_Output, const float *d_Input, int log2N)
{
    const int N = 1 << log2N;
    const int base = blockIdx.x << log2N;
    extern __shared__ float s_data[];
    const float *d_Src = d_Input + base;
    float *d_Dst = d_Output + base;

    for (int pos = threadIdx.x; pos < N; pos += blockDim.x)
        s_data[pos] = d_Src[pos];

    const int pos = threadIdx.x;
    for (int stride = N >> 2; stride > 0; stride >>= 2) {
        const int lo = pos & (stride - 1);
        const int i0 = ((pos - lo) << 2) + lo;
        const int i1 = i0 + stride;
        const int i2 = i1 + stride;
        const int i3 = i2 + stride;

        __syncthreads();
        float D0 = s_data[i0];
        float D1 = s_data[i1];
        float D2 = s_data[i2];
        float D3 = s_data[i3];

        float T;
        T = D0;
        D0 = D0 + D2;
        D2 = T - D2;
        T = D1;
        D1 = D1 + D3;
        D3 = T - D3;
        T = D0;
        s_data[i0] = D0 + D1;
        s_data[i1] = T - D1;
        T = D2;
        s_data[i2] = D2 + D3;
        s_data[i3] = T - D3;
    }

    if (log2N & 1) {
        __syncthreads();
        for (int p = threadIdx.x; p < N / 2; p += blockDim.x) {
            const int i0 = p << 1;
            const int i1 = i0 + 1;
            const float D0 = s_data[i0];
            const float D1 = s_data[i1];
            s_data[i0] = D0 + D1;
            s_data[i1] = D0 - D1;
        }
    }

    __syncthreads();
    for (int p = threadIdx.x; p < N; p += blockDim.x)
        d_Dst[p] = s_data[p];
}

extern "C" __global__ void fwt_radix2_shared(float *d_Data, int log2N)
{
    extern __shared__ float s_vec[];
    const int N = 1 << log2N;
    float *v = d_Data + ((size_t)blockIdx.x << log2N);
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        s_vec[i] = v[i];
    for (int stride = 1; stride < N; stride <<= 1) {
        __syncthreads();
        for (int p = threadIdx.x; p < N / 2; p += blockDim.x) {
            const int lo = p & (stride - 1);
            const int i0 = ((p - lo) << 1) + lo;
            const float a = s_vec[i0], b = s_vec[i0 + stride];
            s_vec[i0] = a + b;
            s_vec[i0 + stride] = a - b;
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        v[i] = s_vec[i];
}

// =============================================================================================================
// 8. binomialOptions: a block an option; each thread keeps ELEMS_PER_THREAD leaves of the tree in registers and
//    trades its first value with its left neighbour through a shared array at every one of NUM_STEPS steps.
//    opt holds S, X, vDt, puByDf, pdByDf per option
// =============================================================================================================
template <typename real, int NUM_STEPS>
__device__ __forceinline__ real expiryCallValue(real S, real X, real vDt, int i)
{
    const real d = S * f12::exp_(vDt * (real)(2 * i - NUM_STEPS)) - X;
    return (d > (real)0) ? d : (real)0;
}

template <typename real, int NUM_STEPS, int THREADBLOCK_SIZE>
__global__ void binomialOptionsKernel(const real *__restrict__ opt, real *__restrict__ d_CallValue)
{
    constexpr int ELEMS_PER_THREAD = NUM_STEPS / THREADBLOCK_SIZE;
    __shared__ real call_exchange[THREADBLOCK_SIZE + 1];

    const int tid = threadIdx.x;
    const real S = opt[5 * blockIdx.x + 0];
    const real X = opt[5 * blockIdx.x + 1];
    const real vDt = opt[5 * blockIdx.x + 2];
    const real puByDf = opt[5 * blockIdx.x + 3];
    const real pdByDf = opt[5 * blockIdx.x + 4];

    real call[ELEMS_PER_THREAD + 1];
#pragma unroll
    for (int i = 0; i < ELEMS_PER_THREAD; ++i)
        call[i] = expiryCallValue<real, NUM_STEPS>(S, X, vDt, tid * ELEMS_PER_THREAD + i);

    if (tid == 0)
        call_exchange[THREADBLOCK_SIZE] = expiryCallValue<real, NUM_STEPS>(S, X, vDt, NUM_STEPS);

    const int final_it = max(0, tid * ELEMS_PER_THREAD - 1);

#pragma unroll 4
    for (int i = NUM_STEPS; i > 0; --i) {
        call_exchange[tid] = call[0];
        __syncthreads();
        call[ELEMS_PER_THREAD] = call_exchange[tid + 1];
        __syncthreads();

        if (i > final_it) {
#pragma unroll
            for (int j = 0; j < ELEMS_PER_THREAD; ++j)
                call[j] = puByDf * call[j + 1] + pdByDf * call[j];
        }
    }

    if (tid == 0)
        d_CallValue[blockIdx.x] = call[0];
}

// =============================================================================================================
// 9. threadFenceReduction: every block reduces its part, the last block to retire (an atomicInc ticket after a
//    __threadfence) reduces the blocks' partial sums in the same launch
// =============================================================================================================
__device__ unsigned int retirementCount = 0;

template <unsigned int blockSize>
__device__ __forceinline__ float reduceBlockShared(volatile float *sdata, float mySum, const unsigned int tid)
{
    sdata[tid] = mySum;
    __syncthreads();
    if (blockSize >= 512) {
        if (tid < 256)
            sdata[tid] = mySum = mySum + sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128)
            sdata[tid] = mySum = mySum + sdata[tid + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64)
            sdata[tid] = mySum = mySum + sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        if (blockSize >= 64)
            mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2)
            mySum += __shfl_down_sync(FULL_MASK, mySum, offset);
    }
    return mySum;
}

template <unsigned int blockSize, bool nIsPow2>
__global__ void reduceSinglePass(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[blockSize];
    __shared__ bool amLast;
    const unsigned int tid = threadIdx.x;

    // each thread adds pairs of elements a grid-width apart
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    const unsigned int gridSize = blockSize * 2 * gridDim.x;
    float mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (nIsPow2 || i + blockSize < n)
            mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    mySum = reduceBlockShared<blockSize>(sdata, mySum, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = mySum;

    if (gridDim.x > 1) {
        __threadfence();
        if (tid == 0) {
            const unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
            amLast = (ticket == gridDim.x - 1);
        }
        __syncthreads();

        if (amLast) {
            unsigned int k = tid;
            float lastSum = 0;
            while (k < gridDim.x) {
                lastSum += g_odata[k];
                k += blockSize;
            }
            lastSum = reduceBlockShared<blockSize>(sdata, lastSum, tid);
            if (tid == 0) {
                g_odata[0] = lastSum;
                retirementCount = 0;
            }
        }
    }
}

// =============================================================================================================
// 10. mergeSort, the shared pass: runs of 1, 2, 4, ... merged in place; every key finds its place in the other run
//     by a binary search in shared memory (exclusive from the left run, inclusive from the right one)
// =============================================================================================================
template <uint SHARED_SIZE_LIMIT>
__global__ void mergeSortSharedKernel(uint *d_DstKey, uint *d_DstVal, const uint *d_SrcKey, const uint *d_SrcVal,
                                      uint arrayLength, uint sortDir)
{
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[0];
    s_val[threadIdx.x + 0] = d_SrcVal[0];
    s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
    s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

    for (uint stride = 1; stride < arrayLength; stride <<= 1) {
        const uint lPos = threadIdx.x & (stride - 1);
        uint *baseKey = s_key + 2 * (threadIdx.x - lPos);
        uint *baseVal = s_val + 2 * (threadIdx.x - lPos);

        __syncthreads();
        const uint keyA = baseKey[lPos + 0];
        const uint valA = baseVal[lPos + 0];
        const uint keyB = baseKey[lPos + stride];
        const uint valB = baseVal[lPos + stride];
        const uint posA = f12::binarySearchExclusive(keyA, baseKey + stride, stride, stride, sortDir) + lPos;
        const uint posB = f12::binarySearchInclusive(keyB, baseKey + 0, stride, stride, sortDir) + lPos;

        __syncthreads();
        baseKey[posA] = keyA;
        baseVal[posA] = valA;
        baseKey[posB] = keyB;
        baseVal[posB] = valB;
    }

    __syncthreads();
    d_DstKey[0] = s_key[threadIdx.x + 0];
    d_DstVal[0] = s_val[threadIdx.x + 0];
    d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
    d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

// =============================================================================================================
// 11. the transpose sample's kernels: TILE_DIM x TILE_DIM tiles, BLOCK_ROWS rows of threads, each thread
//     TILE_DIM / BLOCK_ROWS elements; width and height multiples of TILE_DIM
// =============================================================================================================
#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    const int index_in = xIndex + (yIndex)*width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    const int index_out = xIndex + (yIndex)*height;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

extern "C" __global__ void transposeNoBankConflicts(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    const int index_in = xIndex + (yIndex)*width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    const int index_out = xIndex + (yIndex)*height;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

// moves whole tiles to their transposed place without transposing inside them
extern "C" __global__ void transposeCoarseGrained(float *odata, const float *idata, int width, int height)
{
    __shared__ float block[TILE_DIM][TILE_DIM + 1];
    int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    const int index_in = xIndex + (yIndex)*width;
    xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
    const int index_out = xIndex + (yIndex)*height;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        block[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = block[threadIdx.y + i][threadIdx.x];
}

// transposes inside each tile, leaving the tiles where they are
extern "C" __global__ void transposeFineGrained(float *odata, const float *idata, int width, int height)
{
    __shared__ float block[TILE_DIM][TILE_DIM + 1];
    const int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
    const int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
    const int index = xIndex + (yIndex)*width;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        block[threadIdx.y + i][threadIdx.x] = idata[index + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index + i * height] = block[threadIdx.x][threadIdx.y + i];
}

// diagonal block order, so that the blocks running together touch different partitions
extern "C" __global__ void transposeDiagonal(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int blockIdx_x, blockIdx_y;
    if (width == height) {
        blockIdx_y = blockIdx.x;
        blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;
    } else {
        const int bid = blockIdx.x + gridDim.x * blockIdx.y;
        blockIdx_y = bid % gridDim.y;
        blockIdx_x = ((bid / gridDim.y) + blockIdx_y) % gridDim.x;
    }
    int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
    int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
    const int index_in = xIndex + (yIndex)*width;
    xIndex = blockIdx_y * TILE_DIM + threadIdx.x;
    yIndex = blockIdx_x * TILE_DIM + threadIdx.y;
    const int index_out = xIndex + (yIndex)*height;

    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
}

// =============================================================================================================
// 12. matrixMul: C = A * B, a BLOCK_SIZE x BLOCK_SIZE tile a block, the operands' tiles in As / Bs behind the
//     sample's AS / BS macros; wA and wB multiples of BLOCK_SIZE
// =============================================================================================================
#define AS(i, j) As[i][j]
#define BS(i, j) Bs[i][j]

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const float *A, const float *B, int wA, int wB)
{
    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;

    const int aBegin = wA * BLOCK_SIZE * by;
    const int aEnd = aBegin + wA - 1;
    const int aStep = BLOCK_SIZE;
    const int bBegin = BLOCK_SIZE * bx;
    const int bStep = BLOCK_SIZE * wB;

    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        AS(ty, tx) = A[a + wA * ty + tx];
        BS(ty, tx) = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += AS(ty, k) * BS(k, tx);
        __syncthreads();
    }
    const int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}

// #############################################################################################################
// PMPP (4th edition), as a course's exercises carry the book's kernels
// #############################################################################################################

// =============================================================================================================
// 13. 2-D convolution, the (2r+1)^2 filter in constant memory: the input-tile kernel (a thread per input pixel of
//     the tile, the border threads idle during the compute), the output-tile kernel (a thread per output pixel,
//     the input tile loaded by a strided loop), and the cached-halo kernel (only the block's own pixels in shared
//     memory, the halo read from global memory through the caches)
// =============================================================================================================
#define FILTER_RADIUS 2
__constant__ float F_c[2 * FILTER_RADIUS + 1][2 * FILTER_RADIUS + 1];

template <int IN_TILE_DIM>
__global__ void convolution_tiled_2D_const_mem_kernel(const float *N, float *P, int width, int height)
{
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2 * FILTER_RADIUS;
    const int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
    const int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;
    __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];
    if (row >= 0 && row < height && col >= 0 && col < width)
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    else
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();

    const int tileCol = threadIdx.x - FILTER_RADIUS;
    const int tileRow = threadIdx.y - FILTER_RADIUS;
    if (col >= 0 && col < width && row >= 0 && row < height) {
        if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 && tileRow < OUT_TILE_DIM) {
            float Pvalue = 0.0f;
            for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++)
                for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++)
                    Pvalue += F_c[fRow][fCol] * N_s[tileRow + fRow][tileCol + fCol];
            P[row * width + col] = Pvalue;
        }
    }
}

template <int OUT_TILE_DIM>
__global__ void convolution_out_tile_kernel(const float *N, float *P, int width, int height)
{
    constexpr int IN_DIM = OUT_TILE_DIM + 2 * FILTER_RADIUS;
    __shared__ float N_s[IN_DIM][IN_DIM];
    const int x0 = blockIdx.x * OUT_TILE_DIM - FILTER_RADIUS;
    const int y0 = blockIdx.y * OUT_TILE_DIM - FILTER_RADIUS;
    for (int i = threadIdx.y * OUT_TILE_DIM + threadIdx.x; i < IN_DIM * IN_DIM; i += OUT_TILE_DIM * OUT_TILE_DIM) {
        const int r = i / IN_DIM, c = i % IN_DIM;
        const int gy = y0 + r, gx = x0 + c;
        N_s[r][c] = (gy >= 0 && gy < height && gx >= 0 && gx < width) ? N[gy * width + gx] : 0.0f;
    }
    __syncthreads();
    const int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x;
    const int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y;
    if (col < width && row < height) {
        float Pvalue = 0.0f;
#pragma unroll
        for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++)
#pragma unroll
            for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++)
                Pvalue += F_c[fRow][fCol] * N_s[threadIdx.y + fRow][threadIdx.x + fCol];
        P[row * width + col] = Pvalue;
    }
}

template <int TILE_DIM_C>
__global__ void convolution_cached_tiled_2D_const_mem_kernel(const float *N, float *P, int width, int height)
{
    const int col = blockIdx.x * TILE_DIM_C + threadIdx.x;
    const int row = blockIdx.y * TILE_DIM_C + threadIdx.y;
    __shared__ float N_s[TILE_DIM_C][TILE_DIM_C];
    if (row < height && col < width)
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    else
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();

    if (col < width && row < height) {
        float Pvalue = 0.0f;
        for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++) {
            for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++) {
                const int tx = (int)threadIdx.x - FILTER_RADIUS + fCol;
                const int ty = (int)threadIdx.y - FILTER_RADIUS + fRow;
                if (tx >= 0 && tx < TILE_DIM_C && ty >= 0 && ty < TILE_DIM_C) {
                    Pvalue += F_c[fRow][fCol] * N_s[ty][tx];
                } else {
                    const int r = row - FILTER_RADIUS + fRow, c = col - FILTER_RADIUS + fCol;
                    if (r >= 0 && r < height && c >= 0 && c < width)
                        Pvalue += F_c[fRow][fCol] * N[r * width + c];
                }
            }
        }
        P[row * width + col] = Pvalue;
    }
}

// =============================================================================================================
// 14. 3-D seven-point stencil on an N^3 grid, thread coarsening in z: a block walks OUT_TILE_DIM planes keeping
//     the previous, current and next planes in shared memory; and the register-tiled version that keeps only the
//     current plane in shared memory and the z neighbours in registers
// =============================================================================================================
template <int IN_TILE_DIM>
__global__ void stencil_coarsened_kernel(const float *in, float *out, unsigned int N, float c0, float c1, float c2,
                                         float c3, float c4, float c5, float c6)
{
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2;
    const int iStart = blockIdx.z * OUT_TILE_DIM;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    const int n = (int)N;
    __shared__ float inPrev_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];
    __shared__ float inNext_s[IN_TILE_DIM][IN_TILE_DIM];

    const bool jk_in = j >= 0 && j < n && k >= 0 && k < n;
    if (iStart - 1 >= 0 && iStart - 1 < n && jk_in)
        inPrev_s[threadIdx.y][threadIdx.x] = in[(iStart - 1) * n * n + j * n + k];
    if (iStart >= 0 && iStart < n && jk_in)
        inCurr_s[threadIdx.y][threadIdx.x] = in[iStart * n * n + j * n + k];
    for (int i = iStart; i < iStart + OUT_TILE_DIM; ++i) {
        if (i + 1 >= 0 && i + 1 < n && jk_in)
            inNext_s[threadIdx.y][threadIdx.x] = in[(i + 1) * n * n + j * n + k];
        __syncthreads();
        if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1) {
            if (threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
                out[i * n * n + j * n + k] = c0 * inCurr_s[threadIdx.y][threadIdx.x] +
                                             c1 * inCurr_s[threadIdx.y][threadIdx.x - 1] +
                                             c2 * inCurr_s[threadIdx.y][threadIdx.x + 1] +
                                             c3 * inCurr_s[threadIdx.y - 1][threadIdx.x] +
                                             c4 * inCurr_s[threadIdx.y + 1][threadIdx.x] +
                                             c5 * inPrev_s[threadIdx.y][threadIdx.x] +
                                             c6 * inNext_s[threadIdx.y][threadIdx.x];
            }
        }
        __syncthreads();
        inPrev_s[threadIdx.y][threadIdx.x] = inCurr_s[threadIdx.y][threadIdx.x];
        inCurr_s[threadIdx.y][threadIdx.x] = inNext_s[threadIdx.y][threadIdx.x];
    }
}

template <int IN_TILE_DIM>
__global__ void stencil_register_tiled_kernel(const float *in, float *out, unsigned int N, float c0, float c1,
                                              float c2, float c3, float c4, float c5, float c6)
{
    constexpr int OUT_TILE_DIM = IN_TILE_DIM - 2;
    const int iStart = blockIdx.z * OUT_TILE_DIM;
    const int j = blockIdx.y * OUT_TILE_DIM + threadIdx.y - 1;
    const int k = blockIdx.x * OUT_TILE_DIM + threadIdx.x - 1;
    const int n = (int)N;
    float inPrev = 0.0f, inCurr = 0.0f, inNext = 0.0f;
    __shared__ float inCurr_s[IN_TILE_DIM][IN_TILE_DIM];

    const bool jk_in = j >= 0 && j < n && k >= 0 && k < n;
    if (iStart - 1 >= 0 && iStart - 1 < n && jk_in)
        inPrev = in[(iStart - 1) * n * n + j * n + k];
    if (iStart >= 0 && iStart < n && jk_in) {
        inCurr = in[iStart * n * n + j * n + k];
        inCurr_s[threadIdx.y][threadIdx.x] = inCurr;
    }
    for (int i = iStart; i < iStart + OUT_TILE_DIM; ++i) {
        if (i + 1 >= 0 && i + 1 < n && jk_in)
            inNext = in[(i + 1) * n * n + j * n + k];
        __syncthreads();
        if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1) {
            if (threadIdx.y >= 1 && threadIdx.y < IN_TILE_DIM - 1 && threadIdx.x >= 1 && threadIdx.x < IN_TILE_DIM - 1) {
                out[i * n * n + j * n + k] = c0 * inCurr + c1 * inCurr_s[threadIdx.y][threadIdx.x - 1] +
                                             c2 * inCurr_s[threadIdx.y][threadIdx.x + 1] +
                                             c3 * inCurr_s[threadIdx.y - 1][threadIdx.x] +
                                             c4 * inCurr_s[threadIdx.y + 1][threadIdx.x] + c5 * inPrev + c6 * inNext;
            }
        }
        __syncthreads();
        inPrev = inCurr;
        inCurr = inNext;
        inCurr_s[threadIdx.y][threadIdx.x] = inNext;
    }
}

// =============================================================================================================
// 15. text histogram (letters in bins of four, a-d, e-h, ...): privatised in shared memory, with thread
//     coarsening by contiguous and by interleaved partitioning, and with aggregation of runs of one bin
// =============================================================================================================
#define NUM_BINS 7

extern "C" __global__ void histo_private_coarse_contiguous(const char *data, unsigned int length,
                                                           unsigned int *histo, unsigned int cfactor)
{
    __shared__ unsigned int histo_s[NUM_BINS];
    for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x)
        histo_s[bin] = 0u;
    __syncthreads();

    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned int i = tid * cfactor; i < min((tid + 1) * cfactor, length); ++i) {
        const int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26)
            atomicAdd(&(histo_s[alphabet_position / 4]), 1);
    }
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        const unsigned int binValue = histo_s[bin];
        if (binValue > 0)
            atomicAdd(&(histo[bin]), binValue);
    }
}

extern "C" __global__ void histo_private_coarse_interleaved(const char *data, unsigned int length,
                                                            unsigned int *histo)
{
    __shared__ unsigned int histo_s[NUM_BINS];
    for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x)
        histo_s[bin] = 0u;
    __syncthreads();

    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned int i = tid; i < length; i += blockDim.x * gridDim.x) {
        const int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26)
            atomicAdd(&(histo_s[alphabet_position / 4]), 1);
    }
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        const unsigned int binValue = histo_s[bin];
        if (binValue > 0)
            atomicAdd(&(histo[bin]), binValue);
    }
}

extern "C" __global__ void histo_private_aggregated(const char *data, unsigned int length, unsigned int *histo)
{
    __shared__ unsigned int histo_s[NUM_BINS];
    for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x)
        histo_s[bin] = 0u;
    __syncthreads();

    unsigned int accumulator = 0;
    int prevBinIdx = -1;
    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned int i = tid; i < length; i += blockDim.x * gridDim.x) {
        const int alphabet_position = data[i] - 'a';
        if (alphabet_position >= 0 && alphabet_position < 26) {
            const int bin = alphabet_position / 4;
            if (bin == prevBinIdx) {
                ++accumulator;
            } else {
                if (accumulator > 0)
                    atomicAdd(&(histo_s[prevBinIdx]), accumulator);
                accumulator = 1;
                prevBinIdx = bin;
            }
        }
    }
    if (accumulator > 0)
        atomicAdd(&(histo_s[prevBinIdx]), accumulator);
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < NUM_BINS; bin += blockDim.x) {
        const unsigned int binValue = histo_s[bin];
        if (binValue > 0)
            atomicAdd(&(histo[bin]), binValue);
    }
}

// =============================================================================================================
// 16. scans: Kogge-Stone with two buffers (no barrier between read and write of one step), Brent-Kung (a
//     section of twice the block), and the three-phase segmented scan (coalesced load of a coarsened section,
//     a sequential scan of each thread's subsection, Kogge-Stone over the subsections' totals, the add back)
// =============================================================================================================
template <unsigned int SECTION_SIZE>
__global__ void Kogge_Stone_scan_double_buffer(const float *X, float *Y, unsigned int N)
{
    __shared__ float A_s[SECTION_SIZE];
    __shared__ float B_s[SECTION_SIZE];
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    A_s[threadIdx.x] = i < N ? X[i] : 0.0f;
    float *src = A_s, *dst = B_s;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (threadIdx.x >= stride)
            dst[threadIdx.x] = src[threadIdx.x] + src[threadIdx.x - stride];
        else
            dst[threadIdx.x] = src[threadIdx.x];
        float *t = src;
        src = dst;
        dst = t;
    }
    if (i < N)
        Y[i] = src[threadIdx.x];
}

template <unsigned int SECTION_SIZE>
__global__ void Brent_Kung_scan_kernel(const float *X, float *Y, unsigned int N)
{
    __shared__ float XY[SECTION_SIZE];
    const unsigned int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    XY[threadIdx.x] = i < N ? X[i] : 0.0f;
    XY[threadIdx.x + blockDim.x] = i + blockDim.x < N ? X[i + blockDim.x] : 0.0f;
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        const unsigned int index = (threadIdx.x + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE)
            XY[index] += XY[index - stride];
    }
    for (int stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned int index = (threadIdx.x + 1) * stride * 2 - 1;
        if (index + stride < SECTION_SIZE)
            XY[index + stride] += XY[index];
    }
    __syncthreads();
    if (i < N)
        Y[i] = XY[threadIdx.x];
    if (i + blockDim.x < N)
        Y[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
}

template <int BLOCK_DIM, int COARSE_FACTOR>
__global__ void three_phase_scan_kernel(const float *X, float *Y, unsigned int N)
{
    constexpr int SECTION = BLOCK_DIM * COARSE_FACTOR;
    __shared__ float XY[SECTION];
    __shared__ float last_s[BLOCK_DIM];
    const unsigned int base = blockIdx.x * SECTION;

    // phase 0: coalesced load of the whole section
    for (int j = threadIdx.x; j < SECTION; j += BLOCK_DIM)
        XY[j] = base + j < N ? X[base + j] : 0.0f;
    __syncthreads();

    // phase 1: each thread scans its own COARSE_FACTOR consecutive elements
    const int sub = threadIdx.x * COARSE_FACTOR;
    for (int k = 1; k < COARSE_FACTOR; ++k)
        XY[sub + k] += XY[sub + k - 1];
    __syncthreads();

    // phase 2: Kogge-Stone over the subsections' last elements
    last_s[threadIdx.x] = XY[sub + COARSE_FACTOR - 1];
    for (int stride = 1; stride < BLOCK_DIM; stride *= 2) {
        __syncthreads();
        const float t = threadIdx.x >= stride ? last_s[threadIdx.x - stride] : 0.0f;
        __syncthreads();
        last_s[threadIdx.x] += t;
    }
    __syncthreads();

    // phase 3: add the preceding subsections' total
    if (threadIdx.x > 0) {
        const float add = last_s[threadIdx.x - 1];
        for (int k = 0; k < COARSE_FACTOR; ++k)
            XY[sub + k] += add;
    }
    __syncthreads();
    for (int j = threadIdx.x; j < SECTION; j += BLOCK_DIM)
        if (base + j < N)
            Y[base + j] = XY[j];
}

// =============================================================================================================
// 17. tiled merge with circular buffers: a block merges its co-ranked share of A and B through two shared tiles
//     of tile_size elements refilled only where consumed; each thread co-ranks and merges its slice of a tile
// =============================================================================================================
extern "C" __global__ void merge_tiled_circular_kernel(const int *A, int m, const int *B, int n, int *C, int tile_size)
{
    extern __shared__ int shareAB[];
    int *A_S = &shareAB[0];
    int *B_S = &shareAB[tile_size];
    const int C_per_block = (m + n + gridDim.x - 1) / gridDim.x;
    const int C_curr = blockIdx.x * C_per_block;
    const int C_next = min((int)(blockIdx.x + 1) * C_per_block, m + n);

    if (threadIdx.x == 0) {
        A_S[0] = f12::co_rank(C_curr, A, m, B, n);
        A_S[1] = f12::co_rank(C_next, A, m, B, n);
    }
    __syncthreads();
    const int A_curr = A_S[0];
    const int A_next = A_S[1];
    const int B_curr = C_curr - A_curr;
    const int B_next = C_next - A_next;
    __syncthreads();

    int counter = 0;
    const int C_length = C_next - C_curr;
    const int A_length = A_next - A_curr;
    const int B_length = B_next - B_curr;
    const int total_iteration = (C_length + tile_size - 1) / tile_size;
    int C_completed = 0, A_consumed = 0, B_consumed = 0;
    int A_S_start = 0, B_S_start = 0;
    int A_S_consumed = tile_size, B_S_consumed = tile_size;  // the first round fills both tiles

    while (counter < total_iteration) {
        // refill the consumed slots; the live elements already in the tile run from A_S_start
        for (int i = 0; i < A_S_consumed; i += blockDim.x) {
            const int g = A_consumed + (tile_size - A_S_consumed) + i + threadIdx.x;
            if (i + (int)threadIdx.x < A_S_consumed && g < A_length)
                A_S[(A_S_start + (tile_size - A_S_consumed) + i + threadIdx.x) % tile_size] = A[A_curr + g];
        }
        for (int i = 0; i < B_S_consumed; i += blockDim.x) {
            const int g = B_consumed + (tile_size - B_S_consumed) + i + threadIdx.x;
            if (i + (int)threadIdx.x < B_S_consumed && g < B_length)
                B_S[(B_S_start + (tile_size - B_S_consumed) + i + threadIdx.x) % tile_size] = B[B_curr + g];
        }
        __syncthreads();

        const int remaining = C_length - C_completed;
        const int A_live = min(tile_size, A_length - A_consumed);
        const int B_live = min(tile_size, B_length - B_consumed);
        int c_curr = threadIdx.x * (tile_size / blockDim.x);
        int c_next = (threadIdx.x + 1) * (tile_size / blockDim.x);
        c_curr = (c_curr <= remaining) ? c_curr : remaining;
        c_next = (c_next <= remaining) ? c_next : remaining;
        const int a_curr = f12::co_rank_circular(c_curr, A_S, A_live, B_S, B_live, A_S_start, B_S_start, tile_size);
        const int b_curr = c_curr - a_curr;
        const int a_next = f12::co_rank_circular(c_next, A_S, A_live, B_S, B_live, A_S_start, B_S_start, tile_size);
        const int b_next = c_next - a_next;
        f12::merge_sequential_circular(A_S, a_next - a_curr, B_S, b_next - b_curr, C + C_curr + C_completed + c_curr,
                                       A_S_start + a_curr, B_S_start + b_curr, tile_size);
        counter++;

        const int step = min(tile_size, remaining);
        A_S_consumed = f12::co_rank_circular(step, A_S, A_live, B_S, B_live, A_S_start, B_S_start, tile_size);
        B_S_consumed = step - A_S_consumed;
        A_consumed += A_S_consumed;
        C_completed += step;
        B_consumed = C_completed - A_consumed;
        A_S_start = (A_S_start + A_S_consumed) % tile_size;
        B_S_start = (B_S_start + B_S_consumed) % tile_size;
        __syncthreads();
    }
}

// =============================================================================================================
// 18. SpMV in the jagged diagonal format: rows sorted by length, column-major iterations (iterPtr[t] .. the t-th
//     nonzero of every row that has one), a thread a sorted row
// =============================================================================================================
extern "C" __global__ void spmv_jds_kernel(unsigned int numRows, unsigned int numIters, const unsigned int *jdsRowPerm,
                                           const unsigned int *iterPtr, const unsigned int *colIdx,
                                           const float *value, const float *x, float *y)
{
    const unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < numRows) {
        float sum = 0.0f;
        for (unsigned int it = 0; it < numIters; ++it) {
            const unsigned int begin = iterPtr[it];
            if (t < iterPtr[it + 1] - begin) {
                const unsigned int i = begin + t;
                sum += x[colIdx[i]] * value[i];
            }
        }
        y[jdsRowPerm[t]] = sum;
    }
}

// =============================================================================================================
// 19. BFS, one vertex-centric push step with a privatised frontier: newly visited neighbours go to a block-local
//     queue in shared memory (overflow straight to the global queue), then the block reserves its range of the
//     global frontier with one atomic and copies the local queue out coalesced
// =============================================================================================================
template <unsigned int LOCAL_FRONTIER_CAPACITY>
__global__ void bfs_private_frontier_kernel(const unsigned int *srcPtrs, const unsigned int *dst, unsigned int *level,
                                            const unsigned int *prevFrontier, unsigned int *currFrontier,
                                            unsigned int numPrevFrontier, unsigned int *numCurrFrontier,
                                            unsigned int currLevel)
{
    __shared__ unsigned int currFrontier_s[LOCAL_FRONTIER_CAPACITY];
    __shared__ unsigned int numCurrFrontier_s;
    if (threadIdx.x == 0)
        numCurrFrontier_s = 0;
    __syncthreads();

    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < numPrevFrontier) {
        const unsigned int vertex = prevFrontier[i];
        for (unsigned int edge = srcPtrs[vertex]; edge < srcPtrs[vertex + 1]; ++edge) {
            const unsigned int neighbor = dst[edge];
            if (atomicCAS(&level[neighbor], UINT_MAX_, currLevel) == UINT_MAX_) {
                const unsigned int currFrontierIdx_s = atomicAdd(&numCurrFrontier_s, 1);
                if (currFrontierIdx_s < LOCAL_FRONTIER_CAPACITY) {
                    currFrontier_s[currFrontierIdx_s] = neighbor;
                } else {
                    numCurrFrontier_s = LOCAL_FRONTIER_CAPACITY;
                    const unsigned int currFrontierIdx = atomicAdd(numCurrFrontier, 1);
                    currFrontier[currFrontierIdx] = neighbor;
                }
            }
        }
    }
    __syncthreads();

    __shared__ unsigned int currFrontierStartIdx;
    if (threadIdx.x == 0)
        currFrontierStartIdx = atomicAdd(numCurrFrontier, numCurrFrontier_s);
    __syncthreads();
    for (unsigned int j = threadIdx.x; j < numCurrFrontier_s; j += blockDim.x)
        currFrontier[currFrontierStartIdx + j] = currFrontier_s[j];
}

// =============================================================================================================
// 20. radix sort, one 1-bit pass with coalesced writes: a block sorts its tile by the bit locally (an exclusive
//     scan of the bits in shared memory gives each key its place), writes the locally sorted tile contiguously and
//     its bucket sizes for the global scan that the next kernel of the pass would use
// =============================================================================================================
extern "C" __global__ void radix_local_sort_bit(const unsigned int *keys, unsigned int *tile_out,
                                                unsigned int *zero_counts, unsigned int *one_counts, unsigned int N,
                                                unsigned int iter)
{
    extern __shared__ unsigned int sm[];
    unsigned int *bits_s = sm;                  // blockDim.x: the scan of the bits
    unsigned int *keys_s = sm + blockDim.x;     // blockDim.x: the locally sorted keys
    const unsigned int base = blockIdx.x * blockDim.x;
    const unsigned int i = base + threadIdx.x;
    const unsigned int tileN = min(blockDim.x, N - base);

    unsigned int key = 0, bit = 0;
    if (i < N) {
        key = keys[i];
        bit = (key >> iter) & 1u;
    }
    // exclusive scan of the bits (Kogge-Stone on an inclusive scan, shifted)
    bits_s[threadIdx.x] = bit;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        const unsigned int t = threadIdx.x >= stride ? bits_s[threadIdx.x - stride] : 0u;
        __syncthreads();
        bits_s[threadIdx.x] += t;
    }
    __syncthreads();
    const unsigned int onesBefore = bits_s[threadIdx.x] - bit;
    const unsigned int onesTotal = bits_s[tileN - 1];
    if (i < N) {
        const unsigned int dst = bit ? (tileN - onesTotal + onesBefore) : (threadIdx.x - onesBefore);
        keys_s[dst] = key;
    }
    __syncthreads();
    if (i < N)
        tile_out[i] = keys_s[threadIdx.x];
    if (threadIdx.x == 0) {
        zero_counts[blockIdx.x] = tileN - onesTotal;
        one_counts[blockIdx.x] = onesTotal;
    }
}

// the scatter of the pass: a block's locally sorted tile goes to the global positions of its two buckets (the
// block offsets already scanned); consecutive threads write consecutive addresses within each bucket
extern "C" __global__ void radix_scatter_coalesced(const unsigned int *tile_keys, const unsigned int *zero_offsets,
                                                   const unsigned int *one_offsets, const unsigned int *zero_counts,
                                                   unsigned int *out, unsigned int N, unsigned int iter)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;
    const unsigned int key = tile_keys[i];
    const unsigned int nz = zero_counts[blockIdx.x];
    const unsigned int dst = ((key >> iter) & 1u) ? one_offsets[blockIdx.x] + (threadIdx.x - nz)
                                                  : zero_offsets[blockIdx.x] + threadIdx.x;
    out[dst] = key;
}
