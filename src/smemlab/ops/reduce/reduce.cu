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
// The sums along the last axis (rows_warp_*, rows_block_*) reuse these pieces per row: see below.
// The kernels are template instances the op names <kind>_<input>_<output>; the table at the end of this
// file gives each one's per-thread accumulator. Integers sum exactly in int64; float16, bfloat16
// and float32 accumulate in float per thread (float32 -> float64 in double), float64 in double;
// partials and final sums of floating point are added in double and rounded once to the output.
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

// 16-bit floating-point elements as stored (NVRTC from its pip wheel has no cuda_fp16.h): widened to
// float when added; a result is rounded once, double -> float -> 16 bits, to nearest even.
struct f16 {
    unsigned short bits;
    __device__ __forceinline__ operator float() const
    {
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
        return f;
    }
    f16() = default;
    __device__ __forceinline__ explicit f16(double v) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"((float)v)); }
};

struct bf16 {  // the upper half of a float32
    unsigned short bits;
    __device__ __forceinline__ operator float() const { return __uint_as_float((unsigned)bits << 16); }
    bf16() = default;
    __device__ __forceinline__ explicit bf16(double v)
    {
        const unsigned u = __float_as_uint((float)v);
        bits = (u & 0x7fffffffu) > 0x7f800000u ? 0x7fc0 : (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
};

// Independent accumulators per thread: one per element of UNROLL vectors, at most 32 (float16 and
// bfloat16 give 64 elements per UNROLL vectors: 32 accumulators keep the registers for the loads).
template <typename T>
__host__ __device__ constexpr int accumulators()
{
    return UNROLL * (16 / (int)sizeof(T)) < 32 ? UNROLL * (16 / (int)sizeof(T)) : 32;
}

// Add the elements of 16-byte vector `v`, the u-th of its batch, into acc[0..NACC) (u compile-time)
template <typename T, int NACC, typename ACC>
__device__ __forceinline__ void add_vector(ACC *acc, const int4 &v, int u)
{
    constexpr int EPV = 16 / sizeof(T);
    const T *e = reinterpret_cast<const T *>(&v);
#pragma unroll
    for (int k = 0; k < EPV; ++k) acc[(u * EPV + k) % NACC] += (ACC)e[k];
}

template <typename T, typename ACC, typename FIN, typename OUT>
__global__ void __launch_bounds__(NT, BLOCKS_PER_SM) reduce_all(const T *__restrict__ x, u64 n, FIN *__restrict__ partials,
                                            unsigned int *__restrict__ counter, OUT *__restrict__ out)
{
    constexpr int EPV = 16 / sizeof(T);  // elements per 16-byte vector
    constexpr int NACC = accumulators<T>();
    __shared__ FIN ws[NT / 32];
    __shared__ bool last;

    u64 head = ((16 - ((u64)x & 15)) & 15) / sizeof(T);
    if (head > n) head = n;
    const u64 nv = (n - head) / EPV;
    const u64 tail0 = head + nv * EPV;
    const int4 *__restrict__ xv = reinterpret_cast<const int4 *>(x + head);

    ACC acc[NACC];
#pragma unroll
    for (int a = 0; a < NACC; ++a) acc[a] = ACC(0);

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
        for (int u = 0; u < UNROLL; ++u) add_vector<T, NACC>(acc, v[u], u);
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
        for (int u = 0; u < UNROLL; ++u) add_vector<T, NACC>(acc, v[u], u);
    }
#endif
    for (; i < nv; i += stride) {
        add_vector<T, NACC>(acc, LOAD(xv + i), 0);
    }
    if (tid < head) acc[0] += (ACC)x[tid];
    if (tid < n - tail0) acc[EPV > 1 ? 1 : 0] += (ACC)x[tail0 + tid];

    pairwise<NACC>(acc);  // compile-time indices only: acc stays in registers
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


// ---- Sums along the last axis: out[r] = the sum of row r of a contiguous rows x cols array ------------
//
// A row starts wherever r * cols puts it, so each row has its own head (the elements before its first
// 16-byte boundary) and tail, added element by element; its vectors are read a batch at a time per
// thread (UNROLL; rows_block: rows_batch), every load predicated on the row's end rather than looping over
// a remainder, so that a short row is still read with all its loads in flight.
//   rows_warp:  groups of `lanes` threads (a power of 2 up to 32) sum one row each, a warp's 32 / lanes
//               groups side by side, then add across the group with shuffles of that width. The host
//               picks lanes so that one batch of UNROLL vectors per thread covers a row of up to 32 KB.
//   rows_block: `segs` blocks per row, each summing an even share of the row's vectors (block_sum).
//               With one segment the block writes its row's sum; otherwise each writes a partial and
//               the row's last block (threadfence + the row's counter, reset to 0 after) adds the
//               row's partials across its threads, in an order that does not depend on which was last.
template <typename T>
struct Row {
    const T *x;     // the row's first element
    i64 head, nv;   // elements before the first 16-byte boundary; whole vectors after it
    const int4 *xv; // the vectors
    i64 tail0;      // the first element after the vectors
};

template <typename T>
__device__ __forceinline__ Row<T> row_of(const T *x, i64 r, i64 cols)
{
    Row<T> w;
    w.x = x + r * cols;
    w.head = ((16 - ((u64)w.x & 15)) & 15) / sizeof(T);
    if (w.head > cols) w.head = cols;
    w.nv = (cols - w.head) / (16 / (i64)sizeof(T));
    w.xv = reinterpret_cast<const int4 *>(w.x + w.head);
    w.tail0 = w.head + w.nv * (16 / (i64)sizeof(T));
    return w;
}

// rows_block's vectors in flight a thread (a batch; rows_warp's: UNROLL). 16: a row of 64 KB is one batch
// of a block. On an H200 (tools/reduce_rows_probe.py, float32, GB/s, 2 blocks an SM) 16 against 8 read
// 16384 x 16384 4,609 against 4,533 (CuPy 4,628), 4096 x 65536 4,620 against 4,570, 256 x 2^20 4,603
// against 4,569. 4 with 4 blocks an SM: 4,622, 4,614, 4,569; 12: 4,069 at 16384 x 16384; 8 with 3 or 4
// blocks an SM, or 4 with 6: slower.
#ifndef ROWS_UNROLL
#define ROWS_UNROLL 16
#endif

// rows_block's batch for T elements summed in ACC: UNROLL where 4-byte elements take 8-byte accumulators
// (32 of them, 64 registers: with 16 vectors in flight the kernel spills)
template <typename T, typename ACC>
__host__ __device__ constexpr int rows_batch()
{
    return sizeof(T) == 4 && sizeof(ACC) == 8 ? UNROLL : ROWS_UNROLL;
}

// Vectors i, i + step, ... i + (N - 1) * step of the row below `end`, added into acc
template <int N, typename T, int NACC, typename ACC>
__device__ __forceinline__ void add_batch(ACC *acc, const int4 *xv, i64 i, i64 step, i64 end)
{
    int4 v[N];
#pragma unroll
    for (int u = 0; u < N; ++u) v[u] = i + u * step < end ? LOAD(xv + i + u * step) : make_int4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < N; ++u) add_vector<T, NACC>(acc, v[u], u);
}

// The row kernels' register cap: ROWS_BLOCKS_PER_SM resident blocks (tools/dtype_sweep.py)
#ifndef ROWS_BLOCKS_PER_SM
#define ROWS_BLOCKS_PER_SM 2
#endif

template <typename T, typename ACC, typename FIN, typename OUT>
__global__ void __launch_bounds__(NT, ROWS_BLOCKS_PER_SM) rows_warp(const T *__restrict__ x, i64 rows, i64 cols, int lanes, OUT *__restrict__ out)
{
    constexpr int NACC = accumulators<T>();
    const int lane = threadIdx.x & 31, g = lane & (lanes - 1);
    const int per_warp = 32 / lanes;
    const i64 warp = ((i64)blockIdx.x * NT + threadIdx.x) >> 5, warps = (i64)gridDim.x * (NT / 32);
    for (i64 r0 = warp * per_warp; r0 < rows; r0 += warps * per_warp) {  // warp-uniform: the shuffles below
        const i64 r = r0 + lane / lanes;
        ACC acc[NACC];
#pragma unroll
        for (int a = 0; a < NACC; ++a) acc[a] = ACC(0);
        if (r < rows) {
            const Row<T> w = row_of(x, r, cols);
            for (i64 i = g; i < w.nv; i += UNROLL * lanes) add_batch<UNROLL, T, NACC>(acc, w.xv, i, lanes, w.nv);
            for (i64 e = g; e < w.head; e += lanes) acc[0] += (ACC)w.x[e];
            for (i64 e = w.tail0 + g; e < cols; e += lanes) acc[NACC - 1] += (ACC)w.x[e];
        }
        pairwise<NACC>(acc);
        FIN s = (FIN)acc[0];
        for (int o = lanes >> 1; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o, lanes);
        if (g == 0 && r < rows) out[r] = (OUT)s;
    }
}

template <typename T, typename ACC, typename FIN, typename OUT>
__global__ void __launch_bounds__(NT, ROWS_BLOCKS_PER_SM) rows_block(const T *__restrict__ x, i64 rows, i64 cols, i64 segs,
                                                FIN *__restrict__ partials, unsigned int *__restrict__ counters,
                                                OUT *__restrict__ out)
{
    constexpr int NACC = accumulators<T>(), BATCH = rows_batch<T, ACC>();
    __shared__ FIN ws[NT / 32];
    __shared__ bool last;
    for (i64 b = blockIdx.x; b < rows * segs; b += gridDim.x) {
        const i64 r = b / segs, s = b - r * segs;
        const Row<T> w = row_of(x, r, cols);
        const i64 per = w.nv / segs, extra = w.nv % segs;
        const i64 v0 = s * per + (s < extra ? s : extra), v1 = v0 + per + (s < extra ? 1 : 0);
        ACC acc[NACC];
#pragma unroll
        for (int a = 0; a < NACC; ++a) acc[a] = ACC(0);
        for (i64 i = v0 + threadIdx.x; i < v1; i += BATCH * NT) add_batch<BATCH, T, NACC>(acc, w.xv, i, NT, v1);
        if (s == 0)
            for (i64 e = threadIdx.x; e < w.head; e += NT) acc[0] += (ACC)w.x[e];
        if (s == segs - 1)
            for (i64 e = w.tail0 + threadIdx.x; e < cols; e += NT) acc[NACC - 1] += (ACC)w.x[e];
        pairwise<NACC>(acc);
        FIN t = block_sum<FIN>((FIN)acc[0], ws);
        if (segs == 1) {
            if (threadIdx.x == 0) out[r] = (OUT)t;
        } else {
            if (threadIdx.x == 0) {
                partials[b] = t;
                __threadfence();
                last = atomicAdd(counters + r, 1u) == (unsigned int)(segs - 1);
            }
            __syncthreads();
            if (last) {
                __threadfence();
                FIN u = FIN(0);
                for (i64 k = threadIdx.x; k < segs; k += NT) u += __ldcg(partials + r * segs + k);
                __syncthreads();  // ws is reused
                u = block_sum<FIN>(u, ws);
                if (threadIdx.x == 0) {
                    out[r] = (OUT)u;
                    counters[r] = 0u;  // ready for the next launch on this stream
                }
            }
        }
        __syncthreads();  // ws and last are rewritten for the block's next row
    }
}

// ---- The kernels: instances of reduce_all, rows_warp and rows_block (ops/reduce KERNELS), which the op
// names <kind>_<input>_<output>. input / per-thread accumulator / partials and final sum / output ---------
//   reduce_i32_i64    int32    / int64  / int64  / int64   (exact; dtype=int32 wraps the int64 sum like NumPy)
//   reduce_i64_i64    int64    / int64  / int64  / int64   (exact, wrapping on overflow like NumPy)
//   reduce_f16_f16    float16  / float  / double / float16 (torch.sum's and cupy.sum's result type)
//   reduce_f16_f32    float16  / float  / double / float32 (dtype=float32)
//   reduce_bf16_bf16  bfloat16 / float  / double / bfloat16
//   reduce_bf16_f32   bfloat16 / float  / double / float32
//   reduce_f32_f32    float32  / float  / double / float32
//   reduce_f32_f64    float32  / double / double / float64
//   reduce_f64_f64    float64  / double / double / float64
// and rows_warp_* and rows_block_* of the same pairs.
