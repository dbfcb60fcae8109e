// Configuring shared memory (seeds 000/001 "配置共享内存", "同步"):
//
//   bigSmem       one block using more than 48 KB of dynamic shared memory: it needs the opt-in
//                 (cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
//                 without it the launch fails. It writes the whole buffer and reads it back reversed.
//   smemHeavy     a copy through shared memory (TILE floats a block, reversed within the tile) that
//                 asks for a chosen amount of dynamic shared memory: the more it asks for, the fewer
//                 blocks fit on an SM (the occupancy the host reads from the occupancy API)
//   sum           the Programming Guide's __threadfence() example: each block writes its partial
//                 sum, fences, and counts itself done with atomicInc; the last block to finish adds
//                 the partial sums and resets the counter
#ifndef THREADS
#define THREADS 256
#endif
#ifndef TILE
#define TILE 1024
#endif

extern "C" __global__ void bigSmem(float *out, const float *in, int nwords)
{
    extern __shared__ float buf[];
    for (int i = threadIdx.x; i < nwords; i += blockDim.x)
        buf[i] = in[i];
    __syncthreads();
    for (int i = threadIdx.x; i < nwords; i += blockDim.x)
        out[i] = buf[nwords - 1 - i];
}

// Launch: block THREADS, grid ceil(n / TILE), dynamic shared memory >= TILE * 4 bytes (the rest is
// only reserved, to lower the occupancy).
extern "C" __global__ void smemHeavy(float *out, const float *in, size_t n)
{
    extern __shared__ float buf[];
    const size_t base = (size_t)blockIdx.x * TILE;
    for (int j = threadIdx.x; j < TILE; j += THREADS)
        buf[j] = base + j < n ? in[base + j] : 0.0f;
    __syncthreads();
    for (int j = threadIdx.x; j < TILE; j += THREADS)
        if (base + j < n)
            out[base + j] = buf[TILE - 1 - j];
}

// ---- __threadfence(): the last block adds the partial sums ------------------------------------
__device__ unsigned int count = 0;

// the block's sum of `array` (grid-stride), in thread 0
__device__ float calculatePartialSum(const float *array, size_t N)
{
    __shared__ float part[THREADS];
    float s = 0.0f;
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < N; i += (size_t)gridDim.x * THREADS)
        s += array[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    return part[0];
}

// the sum of the gridDim.x partial sums, in thread 0 (read through volatile: written by other blocks)
__device__ float calculateTotalSum(volatile float *result)
{
    __shared__ float part[THREADS];
    float s = 0.0f;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += THREADS)
        s += result[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    return part[0];
}

// result holds gridDim.x floats; result[0] is the total at the end. Block THREADS.
extern "C" __global__ void sum(const float *array, size_t N, volatile float *result)
{
    __shared__ bool isLastBlockDone;
    const float partialSum = calculatePartialSum(array, N);
    if (threadIdx.x == 0) {
        // thread 0 of each block stores the partial sum to global memory; the compiler uses a
        // store operation that bypasses the L1 cache because `result` is volatile
        result[blockIdx.x] = partialSum;
        // the partial sum is visible to all threads before the counter says this block is done
        __threadfence();
        // signal that this block is done
        const unsigned int value = atomicInc(&count, gridDim.x);
        // is this block the last one?
        isLastBlockDone = (value == (gridDim.x - 1));
    }
    // every thread reads the right value of isLastBlockDone
    __syncthreads();
    if (isLastBlockDone) {
        // the last block sums the partial sums stored in result[0 .. gridDim.x-1]
        const float totalSum = calculateTotalSum(result);
        if (threadIdx.x == 0) {
            // thread 0 of the last block stores the total and resets the count, so that the next
            // launch works properly
            result[0] = totalSum;
            count = 0;
        }
    }
}
