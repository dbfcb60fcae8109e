// Warp shuffle instructions (seed 001 "线程束洗牌指令"; the book's simpleShfl.cu and
// reduceIntegerShfl.cu), with the *_sync forms that replaced __shfl/__shfl_up/... in CUDA 9.
//
// Demos (one block, int values): BDIMX is the `width` of every shuffle (the segment size), SEGM the
// values each thread holds in the array demos. The mask names exactly the lanes launched: a block of
// fewer than 32 threads is a partial warp, and its missing lanes must not be named in the mask.
//
// Reductions (int, DIM threads a block, one element a thread): a per-block sum with a shared-memory
// tree (reduceSmem) or with shuffles (reduceShfl), and a per-warp sum with shared memory
// (warpReduceSmem) or with shuffles (warpReduceShfl).
#ifndef BDIMX
#define BDIMX 16
#endif
#ifndef SEGM
#define SEGM 4
#endif
#ifndef DIM
#define DIM 128
#endif
#define SMEMDIM (DIM / 32)
static_assert(DIM >= 64 && DIM <= 1024 && (DIM & (DIM - 1)) == 0, "DIM: a power of two, 64..1024");

__device__ __forceinline__ unsigned launched_lanes()
{
    return blockDim.x >= 32 ? 0xffffffffu : ((1u << blockDim.x) - 1u);
}

// ---- demos ------------------------------------------------------------------------------------
// every lane of a segment receives the value of lane srcLane of its segment
extern "C" __global__ void test_shfl_broadcast(int *d_out, const int *d_in, const int srcLane)
{
    int value = d_in[threadIdx.x];
    value = __shfl_sync(launched_lanes(), value, srcLane, BDIMX);
    d_out[threadIdx.x] = value;
}

// a shift with wrap-around: lane i receives lane (i + offset) mod BDIMX of its segment
extern "C" __global__ void test_shfl_wrap(int *d_out, const int *d_in, const int offset)
{
    int value = d_in[threadIdx.x];
    value = __shfl_sync(launched_lanes(), value, threadIdx.x + offset, BDIMX);
    d_out[threadIdx.x] = value;
}

// lane i receives lane i - delta; the first delta lanes of a segment keep their own value
extern "C" __global__ void test_shfl_up(int *d_out, const int *d_in, const unsigned int delta)
{
    int value = d_in[threadIdx.x];
    value = __shfl_up_sync(launched_lanes(), value, delta, BDIMX);
    d_out[threadIdx.x] = value;
}

// lane i receives lane i + delta; the last delta lanes of a segment keep their own value
extern "C" __global__ void test_shfl_down(int *d_out, const int *d_in, const unsigned int delta)
{
    int value = d_in[threadIdx.x];
    value = __shfl_down_sync(launched_lanes(), value, delta, BDIMX);
    d_out[threadIdx.x] = value;
}

// the butterfly: lane i receives lane i ^ mask
extern "C" __global__ void test_shfl_xor(int *d_out, const int *d_in, const int mask)
{
    int value = d_in[threadIdx.x];
    value = __shfl_xor_sync(launched_lanes(), value, mask, BDIMX);
    d_out[threadIdx.x] = value;
}

// SEGM values a thread, each exchanged with lane ^ mask
extern "C" __global__ void test_shfl_xor_array(int *d_out, const int *d_in, const int mask)
{
    const int idx = threadIdx.x * SEGM;
    int value[SEGM];
#pragma unroll
    for (int i = 0; i < SEGM; i++)
        value[i] = d_in[idx + i];
#pragma unroll
    for (int i = 0; i < SEGM; i++)
        value[i] = __shfl_xor_sync(launched_lanes(), value[i], mask, BDIMX);
#pragma unroll
    for (int i = 0; i < SEGM; i++)
        d_out[idx + i] = value[i];
}

// the same with an int4 (four shuffles of its members)
extern "C" __global__ void test_shfl_xor_int4(int *d_out, const int *d_in, const int mask)
{
    const int idx = threadIdx.x * 4;
    int4 value = make_int4(d_in[idx], d_in[idx + 1], d_in[idx + 2], d_in[idx + 3]);
    const unsigned m = launched_lanes();
    value.x = __shfl_xor_sync(m, value.x, mask, BDIMX);
    value.y = __shfl_xor_sync(m, value.y, mask, BDIMX);
    value.z = __shfl_xor_sync(m, value.z, mask, BDIMX);
    value.w = __shfl_xor_sync(m, value.w, mask, BDIMX);
    d_out[idx] = value.x;
    d_out[idx + 1] = value.y;
    d_out[idx + 2] = value.z;
    d_out[idx + 3] = value.w;
}

// element srcIdx receives element dstIdx of lane ^ mask
extern "C" __global__ void test_shfl_xor_element(int *d_out, const int *d_in, const int mask, const int srcIdx, const int dstIdx)
{
    const int idx = threadIdx.x * SEGM;
    int value[SEGM];
    for (int i = 0; i < SEGM; i++)
        value[i] = d_in[idx + i];
    value[srcIdx] = __shfl_xor_sync(launched_lanes(), value[dstIdx], mask, BDIMX);
    for (int i = 0; i < SEGM; i++)
        d_out[idx + i] = value[i];
}

// lanes whose bit 0 differs from mask swap two elements, shuffle one, and swap back
extern "C" __global__ void test_shfl_xor_array_swap(int *d_out, const int *d_in, const int mask, const int srcIdx, const int dstIdx)
{
    const int idx = threadIdx.x * SEGM;
    int value[SEGM];
    for (int i = 0; i < SEGM; i++)
        value[i] = d_in[idx + i];
    const bool pred = ((int)(threadIdx.x & 1) != mask);
    if (pred) {
        const int tmp = value[srcIdx];
        value[srcIdx] = value[dstIdx];
        value[dstIdx] = tmp;
    }
    value[dstIdx] = __shfl_xor_sync(launched_lanes(), value[dstIdx], mask, BDIMX);
    if (pred) {
        const int tmp = value[srcIdx];
        value[srcIdx] = value[dstIdx];
        value[dstIdx] = tmp;
    }
    for (int i = 0; i < SEGM; i++)
        d_out[idx + i] = value[i];
}

// the book's swap(): lanes below `mask` swap elements firstIdx and secondIdx around the shuffle of
// secondIdx, so element firstIdx of lane i and element secondIdx of lane i ^ mask trade places
__device__ __forceinline__ void swap(int *value, int laneIdx, int mask, int firstIdx, int secondIdx)
{
    const bool pred = ((laneIdx / mask + 1) == 1);
    if (pred) {
        const int tmp = value[firstIdx];
        value[firstIdx] = value[secondIdx];
        value[secondIdx] = tmp;
    }
    value[secondIdx] = __shfl_xor_sync(launched_lanes(), value[secondIdx], mask, BDIMX);
    if (pred) {
        const int tmp = value[firstIdx];
        value[firstIdx] = value[secondIdx];
        value[secondIdx] = tmp;
    }
}

extern "C" __global__ void test_shfl_swap(int *d_out, const int *d_in, const int mask, const int firstIdx, const int secondIdx)
{
    const int idx = threadIdx.x * SEGM;
    int value[SEGM];
    for (int i = 0; i < SEGM; i++)
        value[i] = d_in[idx + i];
    swap(value, threadIdx.x, mask, firstIdx, secondIdx);
    for (int i = 0; i < SEGM; i++)
        d_out[idx + i] = value[i];
}

// ---- reductions ---------------------------------------------------------------------------------
// the book's warpReduce: a butterfly, after which every lane holds the warp's sum
__device__ __forceinline__ int warpReduce(int localSum)
{
    localSum += __shfl_xor_sync(0xffffffffu, localSum, 16);
    localSum += __shfl_xor_sync(0xffffffffu, localSum, 8);
    localSum += __shfl_xor_sync(0xffffffffu, localSum, 4);
    localSum += __shfl_xor_sync(0xffffffffu, localSum, 2);
    localSum += __shfl_xor_sync(0xffffffffu, localSum, 1);
    return localSum;
}

// Block sum with a shared-memory tree; the last warp steps are warp-synchronous, with __syncwarp
// between them (the book's `volatile` alone is not enough since Volta's independent scheduling).
extern "C" __global__ void reduceSmem(const int *g_idata, int *g_odata, size_t n)
{
    __shared__ int smem[DIM];
    const unsigned int tid = threadIdx.x;
    const size_t idx = (size_t)blockIdx.x * DIM + tid;
    smem[tid] = idx < n ? g_idata[idx] : 0;
    __syncthreads();
#if DIM >= 1024
    if (tid < 512) smem[tid] += smem[tid + 512];
    __syncthreads();
#endif
#if DIM >= 512
    if (tid < 256) smem[tid] += smem[tid + 256];
    __syncthreads();
#endif
#if DIM >= 256
    if (tid < 128) smem[tid] += smem[tid + 128];
    __syncthreads();
#endif
#if DIM >= 128
    if (tid < 64) smem[tid] += smem[tid + 64];
    __syncthreads();
#endif
    if (tid < 32) {
        int v = smem[tid] + smem[tid + 32];
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1) {
            __syncwarp();
            smem[tid] = v;
            __syncwarp();
            v += smem[tid + offset];
        }
        if (tid == 0) g_odata[blockIdx.x] = v;
    }
}

// Block sum with shuffles: each warp reduces with warpReduce, lane 0 of each warp puts the warp's
// sum in shared memory, and the first warp reduces those (the book's reduceShfl).
extern "C" __global__ void reduceShfl(const int *g_idata, int *g_odata, size_t n)
{
    __shared__ int smem[SMEMDIM];
    const size_t idx = (size_t)blockIdx.x * DIM + threadIdx.x;
    int mySum = idx < n ? g_idata[idx] : 0;
    const int laneIdx = threadIdx.x % warpSize;
    const int warpIdx = threadIdx.x / warpSize;
    mySum = warpReduce(mySum);
    if (laneIdx == 0) smem[warpIdx] = mySum;
    __syncthreads();
    if (warpIdx == 0) {
        mySum = (laneIdx < SMEMDIM) ? smem[laneIdx] : 0;
        mySum = warpReduce(mySum);
        if (laneIdx == 0) g_odata[blockIdx.x] = mySum;
    }
}

// Warp sums (one per 32 elements) through shared memory: a tree over the warp's 32 words.
extern "C" __global__ void warpReduceSmem(const int *g_idata, int *g_odata, size_t n)
{
    __shared__ int smem[DIM];
    const unsigned int tid = threadIdx.x, lane = tid % 32;
    const size_t idx = (size_t)blockIdx.x * DIM + tid;
    int v = idx < n ? g_idata[idx] : 0;
    int *w = smem + (tid - lane);  // this warp's 32 words
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        w[lane] = v;
        __syncwarp();
        v += w[lane ^ offset];
        __syncwarp();
    }
    if (lane == 0 && idx < n) g_odata[idx / 32] = v;
}

// Warp sums with shuffles.
extern "C" __global__ void warpReduceShfl(const int *g_idata, int *g_odata, size_t n)
{
    const size_t idx = (size_t)blockIdx.x * DIM + threadIdx.x;
    int v = idx < n ? g_idata[idx] : 0;
    v = warpReduce(v);
    if (threadIdx.x % 32 == 0 && idx < n) g_odata[idx / 32] = v;
}
