// Parallel sum (seeds 000/001 "reducing global memory access", 5.3, and seed 003's array reduction):
// the same tree in global memory, in shared memory, unrolled four blocks a thread, in dynamic shared
// memory, and with warp shuffles.
//
// Every kernel writes one partial sum per block to out[blockIdx.x]; the host adds the partials (as the
// seeds do), so each launch is one kernel and every kernel's traffic is comparable.
//
// Changes from the seeds, each for a reason:
// - the block size is the macro DIM (the host launches DIM threads) and the element type the macro REAL
//   (int, or float to measure rounding error), so the level tests are resolved at compile time;
// - any n >= 1 works: elements past n count as 0 instead of the seeds' early `return` (which lets the
//   tree read past the array and skip barriers), and indices are 64-bit;
// - the last warp synchronises with __syncwarp. The seeds' `volatile` unrolled warp relied on its 32
//   lanes running in lock step, which no longer holds since Volta; it is kept, as reduceSmemVolatile,
//   to show the hazard;
// - the global-memory versions do not add in place into the input: their first level reads the input and
//   writes a scratch array, every later level works in the scratch. The global loads and stores are the
//   seeds' own, and the input survives, so a launch can be repeated for timing without a copy.

#ifndef DIM
#define DIM 128
#endif
#ifndef REAL
#define REAL int
#endif
typedef REAL real;

static_assert(DIM >= 128 && DIM <= 1024 && (DIM & (DIM - 1)) == 0, "DIM: a power of two from 128 to 1024");

// x[i], or 0 past the end: a partial last block adds nothing for its missing elements
__device__ __forceinline__ real at(const real *__restrict__ x, size_t i, size_t n)
{
    return i < n ? x[i] : (real)0;
}

// The last 64 values of the tree (s[0..63]) summed by warp 0 (tid < 32, all 32 lanes); the result is
// valid in lane 0. Each step reads, waits for every lane to have read, then writes and waits again:
// without the two __syncwarp a lane could overwrite s[tid] before the lane `offset` below it read it.
__device__ __forceinline__ real warpReduce(real *s, unsigned int tid)
{
    real v = s[tid];
#pragma unroll
    for (unsigned int offset = 32; offset > 1; offset >>= 1) {
        v += s[tid + offset];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
    }
    return v + s[tid + 1];
}

// seed 003's reduce_global: halving in global memory, one level per iteration
extern "C" __global__ void reduce_global(const real *__restrict__ d_x, real *d_work, real *d_y, unsigned long long n)
{
    const unsigned int tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * DIM;
    real *x = d_work + (size_t)blockIdx.x * (DIM / 2);  // this block's scratch: DIM / 2 values

    if (tid < DIM / 2)
        x[tid] = at(d_x, base + tid, n) + at(d_x, base + tid + DIM / 2, n);
    __syncthreads();

    for (unsigned int offset = DIM >> 2; offset > 0; offset >>= 1) {
        if (tid < offset)
            x[tid] += x[tid + offset];
        __syncthreads();  // the next level reads what this one wrote
    }

    if (tid == 0)
        d_y[blockIdx.x] = x[0];
}

// seed 000/001's reduceGmem: the levels unrolled, the last warp without block barriers
extern "C" __global__ void reduceGmem(const real *__restrict__ g_idata, real *g_work, real *g_odata, unsigned long long n)
{
    unsigned int tid = threadIdx.x;
    size_t base = (size_t)blockIdx.x * DIM;
    real *idata = g_work + (size_t)blockIdx.x * (DIM / 2);

    if (tid < DIM / 2)
        idata[tid] = at(g_idata, base + tid, n) + at(g_idata, base + tid + DIM / 2, n);
    __syncthreads();

    if (DIM >= 1024 && tid < 256)
        idata[tid] += idata[tid + 256];
    __syncthreads();

    if (DIM >= 512 && tid < 128)
        idata[tid] += idata[tid + 128];
    __syncthreads();

    if (DIM >= 256 && tid < 64)
        idata[tid] += idata[tid + 64];
    __syncthreads();

    if (tid < 32) {
        real sum = warpReduce(idata, tid);
        if (tid == 0)
            g_odata[blockIdx.x] = sum;
    }
}

// seed 003's reduce_shared: the same loop as reduce_global, in shared memory, a barrier at every level
extern "C" __global__ void reduce_shared(const real *__restrict__ d_x, real *d_y, unsigned long long n)
{
    __shared__ real s_y[DIM];
    const unsigned int tid = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * DIM + tid;

    s_y[tid] = at(d_x, i, n);
    __syncthreads();

    for (unsigned int offset = DIM >> 1; offset > 0; offset >>= 1) {
        if (tid < offset)
            s_y[tid] += s_y[tid + offset];
        __syncthreads();
    }

    if (tid == 0)
        d_y[blockIdx.x] = s_y[0];
}

// The shared-memory tree of reduceSmem and its unrolled versions: DIM values in smem, result in thread 0.
__device__ __forceinline__ real smemTree(real *smem, unsigned int tid)
{
    if (DIM >= 1024 && tid < 512)
        smem[tid] += smem[tid + 512];
    __syncthreads();

    if (DIM >= 512 && tid < 256)
        smem[tid] += smem[tid + 256];
    __syncthreads();

    if (DIM >= 256 && tid < 128)
        smem[tid] += smem[tid + 128];
    __syncthreads();

    if (tid < 64)
        smem[tid] += smem[tid + 64];
    __syncthreads();

    real sum = 0;
    if (tid < 32)
        sum = warpReduce(smem, tid);
    return sum;
}

// seed 000/001's reduceSmem: the block's values copied once into shared memory, the tree there
extern "C" __global__ void reduceSmem(const real *__restrict__ g_idata, real *g_odata, unsigned long long n)
{
    __shared__ real smem[DIM];
    unsigned int tid = threadIdx.x;
    size_t idx = (size_t)blockIdx.x * DIM + tid;

    smem[tid] = at(g_idata, idx, n);
    __syncthreads();

    real sum = smemTree(smem, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = sum;
}

// reduceSmem as the seeds wrote it: the last warp through a volatile pointer, no barrier between steps.
// Kept on purpose: lane 0 may read smem[16] before or after lane 16 has updated it; only lock-step warps
// (before Volta) made that safe, and racecheck reports it.
extern "C" __global__ void reduceSmemVolatile(const real *__restrict__ g_idata, real *g_odata, unsigned long long n)
{
    __shared__ real smem[DIM];
    unsigned int tid = threadIdx.x;
    size_t idx = (size_t)blockIdx.x * DIM + tid;

    smem[tid] = at(g_idata, idx, n);
    __syncthreads();

    if (DIM >= 1024 && tid < 512)
        smem[tid] += smem[tid + 512];
    __syncthreads();

    if (DIM >= 512 && tid < 256)
        smem[tid] += smem[tid + 256];
    __syncthreads();

    if (DIM >= 256 && tid < 128)
        smem[tid] += smem[tid + 128];
    __syncthreads();

    if (tid < 64)
        smem[tid] += smem[tid + 64];
    __syncthreads();

    if (tid < 32) {
        volatile real *vsmem = smem;
        vsmem[tid] += vsmem[tid + 32];
        vsmem[tid] += vsmem[tid + 16];
        vsmem[tid] += vsmem[tid + 8];
        vsmem[tid] += vsmem[tid + 4];
        vsmem[tid] += vsmem[tid + 2];
        vsmem[tid] += vsmem[tid + 1];
    }

    if (tid == 0)
        g_odata[blockIdx.x] = smem[0];
}

// seed 000/001's reduceSmemUnroll: each thread first adds four elements one block apart, so a quarter of
// the blocks do the tree and more loads are in flight per thread
extern "C" __global__ void reduceSmemUnroll(const real *__restrict__ g_idata, real *g_odata, unsigned long long n)
{
    __shared__ real smem[DIM];
    unsigned int tid = threadIdx.x;
    size_t idx = (size_t)blockIdx.x * DIM * 4 + tid;

    real a1 = at(g_idata, idx, n);
    real a2 = at(g_idata, idx + DIM, n);
    real a3 = at(g_idata, idx + 2 * DIM, n);
    real a4 = at(g_idata, idx + 3 * DIM, n);
    smem[tid] = a1 + a2 + a3 + a4;
    __syncthreads();

    real sum = smemTree(smem, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = sum;
}

// reduceSmemUnroll with dynamic shared memory (launched with DIM * sizeof(real) bytes)
extern "C" __global__ void reduceSmemUnrollDyn(const real *__restrict__ g_idata, real *g_odata, unsigned long long n)
{
    extern __shared__ real dsmem[];
    unsigned int tid = threadIdx.x;
    size_t idx = (size_t)blockIdx.x * DIM * 4 + tid;

    real a1 = at(g_idata, idx, n);
    real a2 = at(g_idata, idx + DIM, n);
    real a3 = at(g_idata, idx + 2 * DIM, n);
    real a4 = at(g_idata, idx + 3 * DIM, n);
    dsmem[tid] = a1 + a2 + a3 + a4;
    __syncthreads();

    real sum = smemTree(dsmem, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = sum;
}

__device__ __forceinline__ real warpShfl(real v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Warp shuffles instead of the shared-memory tree: each warp sums its 32 values in registers, and shared
// memory only carries one value per warp to warp 0. Four elements a thread, as reduceSmemUnroll, so
// the two differ only in how the block sums.
extern "C" __global__ void reduceShfl(const real *__restrict__ g_idata, real *g_odata, unsigned long long n)
{
    __shared__ real smem[DIM / 32];  // one partial per warp
    unsigned int tid = threadIdx.x;
    unsigned int lane = tid % 32, warp = tid / 32;
    size_t idx = (size_t)blockIdx.x * DIM * 4 + tid;

    real sum = at(g_idata, idx, n) + at(g_idata, idx + DIM, n) + at(g_idata, idx + 2 * DIM, n) + at(g_idata, idx + 3 * DIM, n);
    sum = warpShfl(sum);
    if (lane == 0)
        smem[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        sum = 0;
        if (lane < DIM / 32)
            sum = smem[lane];
        sum = warpShfl(sum);
        if (lane == 0)
            g_odata[blockIdx.x] = sum;
    }
}
