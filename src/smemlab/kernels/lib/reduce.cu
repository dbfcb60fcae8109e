// smemlab.ops.reduce_sum: the sum of n elements in one launch.
//
// Each thread of a grid sized to the SMs (grid-stride) reads 16-byte vectors, UNROLL of them in
// flight, and adds every element into its own accumulator (UNROLL x elements-per-vector
// independent accumulators, so the adds never wait on each other and each accumulator's chain
// stays short: better rounding than one running sum). The accumulators are summed in the
// thread, then across the warp with shuffles, then across the block's warps through shared memory.
// Each block writes its partial (in FIN precision: double for floating point, int64 for int32)
// and the last block to finish (threadfence + atomic counter) adds the partials, writes the
// result and resets the counter to 0 for the next launch (a grid of one block, which the host
// launches for small inputs, writes its sum directly). An unaligned head and the tail that fills no
// whole vector are added element by element by the first threads.
//
// Instantiations (extern "C"): input / per-thread accumulator / output
//   reduce_i32_i64   int32  / int64  / int64    (exact; dtype=int32 output wraps like NumPy)
//   reduce_f32_f32   float32/ float32/ float32  (partials and the final sum in double)
//   reduce_f32_f64   float32/ double / float64
//   reduce_f64_f64   float64/ double / float64
#ifndef UNROLL
#define UNROLL 8
#endif
#define NT 256
// EVEN_SHARE 1: contiguous segment per block (CUB's even share); 0: grid-stride interleaved.
// Even share is the default: on an H200 (smemlab.bench._sweep, 2^28 elements) it read 4,506 GB/s
// for int32 and 4,511 for float32 against 4,481 and 4,455 interleaved (CUB's float sum: 4,460).
#ifndef EVEN_SHARE
#define EVEN_SHARE 1
#endif
// LDNC 1: loads through the read-only path (ld.global.nc); 0: plain ld.global
#ifndef LDNC
#define LDNC 1
#endif
#if LDNC
#define LOAD(p) __ldg(p)
#else
#define LOAD(p) (*(p))
#endif
// The register cap for BLOCKS_PER_SM resident blocks: with it ptxas keeps all UNROLL loads in
// flight before the first add (without it, it recycled registers and left 2 in flight). The host
// launches one wave of resident blocks (tools/reduce_grid_sweep.py, H200: as fast as two waves at
// 2^28 elements, 3-11% faster from 2^22 to 2^26 where the second wave's tail shows).
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 2
#endif

typedef unsigned long long u64;
typedef long long i64;

template <typename ACC>
__device__ __forceinline__ ACC warp_sum(ACC v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// a[0] = sum of a[0..N) as a balanced tree; every index a compile-time constant
template <int N, typename ACC>
__device__ __forceinline__ void pairwise(ACC *a)
{
    if constexpr (N > 1) {
#pragma unroll
        for (int i = 0; i < N / 2; ++i) a[i] += a[i + N / 2];
        pairwise<N / 2>(a);
    }
}

template <typename ACC>
__device__ __forceinline__ ACC block_sum(ACC v, ACC *ws)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) ws[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < NT / 32 ? ws[lane] : ACC(0);
        v = warp_sum(v);
    }
    return v;  // valid in thread 0
}

template <typename T, typename ACC, typename FIN, typename OUT>
__device__ __forceinline__ void reduce_impl(const T *__restrict__ x, u64 n, FIN *__restrict__ partials,
                                            unsigned int *__restrict__ counter, OUT *__restrict__ out)
{
    constexpr int EPV = 16 / sizeof(T);  // elements per 16-byte vector
    __shared__ FIN ws[NT / 32];
    __shared__ bool last;

    u64 head = ((16 - ((u64)x & 15)) & 15) / sizeof(T);
    if (head > n) head = n;
    const u64 nv = (n - head) / EPV;
    const u64 tail0 = head + nv * EPV;
    const int4 *__restrict__ xv = reinterpret_cast<const int4 *>(x + head);

    ACC acc[UNROLL * EPV];
#pragma unroll
    for (int a = 0; a < UNROLL * EPV; ++a) acc[a] = ACC(0);

    const u64 tid = (u64)blockIdx.x * NT + threadIdx.x;
#if EVEN_SHARE
    // each block streams through its own contiguous segment (whole tiles of NT x UNROLL vectors)
    const u64 tiles = nv / (NT * UNROLL);
    const u64 per = tiles / gridDim.x, extra = tiles % gridDim.x;
    const u64 t0 = blockIdx.x * per + (blockIdx.x < extra ? blockIdx.x : extra);
    const u64 t1 = t0 + per + (blockIdx.x < extra ? 1 : 0);
    for (u64 tl = t0; tl < t1; ++tl) {
        const u64 i = tl * (NT * UNROLL) + threadIdx.x;
        int4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = LOAD(xv + i + u * NT);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const T *e = reinterpret_cast<const T *>(&v[u]);
#pragma unroll
            for (int k = 0; k < EPV; ++k) acc[u * EPV + k] += (ACC)e[k];
        }
    }
    const u64 stride = (u64)gridDim.x * NT;
    u64 i = tiles * (NT * UNROLL) + tid;  // the vectors after the last whole tile
#else
    const u64 stride = (u64)gridDim.x * NT;
    u64 i = tid;
    for (; i + (UNROLL - 1) * stride < nv; i += UNROLL * stride) {
        int4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = LOAD(xv + i + u * stride);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const T *e = reinterpret_cast<const T *>(&v[u]);
#pragma unroll
            for (int k = 0; k < EPV; ++k) acc[u * EPV + k] += (ACC)e[k];
        }
    }
#endif
    for (; i < nv; i += stride) {
        int4 v = LOAD(xv + i);
        const T *e = reinterpret_cast<const T *>(&v);
#pragma unroll
        for (int k = 0; k < EPV; ++k) acc[k] += (ACC)e[k];
    }
    if (tid < head) acc[0] += (ACC)x[tid];
    if (tid < n - tail0) acc[EPV > 1 ? 1 : 0] += (ACC)x[tail0 + tid];

    pairwise<UNROLL * EPV>(acc);  // compile-time indices only: acc stays in registers
    FIN s = block_sum<FIN>((FIN)acc[0], ws);
    if (gridDim.x == 1) {  // small inputs get one block: no partials, no counter, one phase
        if (threadIdx.x == 0) out[0] = (OUT)s;
        return;
    }
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
        __threadfence();
        const unsigned int done = atomicAdd(counter, 1u);
        last = (done == gridDim.x - 1);
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    FIN t = FIN(0);
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += NT) t += __ldcg(partials + b);
    __syncthreads();  // ws is reused
    t = block_sum<FIN>(t, ws);
    if (threadIdx.x == 0) {
        out[0] = (OUT)t;
        *counter = 0u;  // ready for the next launch on this stream
    }
}

extern "C" __global__ void __launch_bounds__(NT, BLOCKS_PER_SM) reduce_i32_i64(const int *__restrict__ x, u64 n, i64 *partials,
                                                               unsigned int *counter, i64 *out)
{
    reduce_impl<int, i64, i64, i64>(x, n, partials, counter, out);
}

extern "C" __global__ void __launch_bounds__(NT, BLOCKS_PER_SM) reduce_f32_f32(const float *__restrict__ x, u64 n, double *partials,
                                                               unsigned int *counter, float *out)
{
    reduce_impl<float, float, double, float>(x, n, partials, counter, out);
}

extern "C" __global__ void __launch_bounds__(NT, BLOCKS_PER_SM) reduce_f32_f64(const float *__restrict__ x, u64 n, double *partials,
                                                               unsigned int *counter, double *out)
{
    reduce_impl<float, double, double, double>(x, n, partials, counter, out);
}

extern "C" __global__ void __launch_bounds__(NT, BLOCKS_PER_SM) reduce_f64_f64(const double *__restrict__ x, u64 n, double *partials,
                                                               unsigned int *counter, double *out)
{
    reduce_impl<double, double, double, double>(x, n, partials, counter, out);
}
