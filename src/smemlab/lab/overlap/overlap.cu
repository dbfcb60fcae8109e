// Overlapping memory transfers with computation (seed 004: "重叠内存传输和计算, 组团传输减少小块数据的频繁传输"),
// from the host link down to shared memory.
//
//   gatherPieces       the small pieces of one transfer read straight from mapped pinned host memory
//                      (zero-copy over the host link), each through its own offset, into one device buffer
//   pipelineCompute    the chunked pipeline's kernel: K fused multiply-adds per element, y <- y * a + x
//                      (K chosen by the experiment so that computing takes as long as the copies)
//   stagedPlain        the 1-D 9-point stencil, each tile and its halo staged in shared memory through
//                      registers (ld.global then st.shared), as the book's stencil does
//   stagedPlainV4      the same, 16 bytes a thread (float4): as wide as the cp.async copies
//   stagedCpAsyncS     the same tiles copied by cp.async (global to shared, no registers; 16 bytes a
//                      thread a time), S tiles in flight (S = 1..4 stages, commit/wait groups)
//   stagedTmaS         the same tiles copied by the bulk-copy engine (Hopper's TMA: cp.async.bulk), one
//                      thread issuing a tile, completion counted on an mbarrier per stage, S stages
//   (and, at the end of the file, the book's tiled matmul staged the same three ways: mmStaged*)
// Every staged stencil runs a persistent grid-stride loop over tiles of TILE outputs; tile t reads
// in[t*TILE .. t*TILE + TILE + 2*RADIUS) (the input carries the halo, as in stencil.cu) and writes
// out[t*TILE .. t*TILE + TILE). Inline PTX keeps the asynchronous copies free of CUDA headers.
#ifndef RADIUS
#define RADIUS 4
#endif
#ifndef BDIM
#define BDIM 256
#endif
#ifndef TILE
#define TILE 1024
#endif
// every staged kernel fits 8 blocks of 256 threads on an SM (at most 32 registers a thread), so that
// at full occupancy all of them run with the same 64 warps
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 8
#endif
// input floats one tile reads: a multiple of 4, so every stage buffer starts 16-byte aligned
#define SPAN (TILE + 2 * RADIUS)
static_assert(SPAN % 4 == 0, "a stage must be a whole number of 16-byte copies");

__constant__ float scoef[RADIUS + 1];

// ---------------------------------------------------------------------------------------- the host link
// `host` is the device address of a mapped pinned host buffer; piece p is piece_vec4 float4s from
// host + offsets[p], written to dst + p * piece_vec4.
extern "C" __global__ void gatherPieces(const float4 *__restrict__ host, const long long *__restrict__ offsets,
                                        float4 *__restrict__ dst, int piece_vec4, int count)
{
    for (int p = blockIdx.x; p < count; p += gridDim.x) {
        const float4 *src = host + offsets[p];
        float4 *d = dst + (long long)p * piece_vec4;
        for (int i = threadIdx.x; i < piece_vec4; i += blockDim.x)
            d[i] = src[i];
    }
}

// ---------------------------------------------------------------------------------------- the pipeline
extern "C" __global__ void pipelineCompute(const float *__restrict__ in, float *__restrict__ out, long long n,
                                           int iters, float a)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const float x = in[i];
        float y = x;
        for (int k = 0; k < iters; k++)
            y = fmaf(y, a, x);
        out[i] = y;
    }
}

// ---------------------------------------------------------------------------------------- inside the SM
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
    return r;
}

// outputs of tile t (fewer than TILE in the last one)
__device__ __forceinline__ int tile_outputs(long long t, long long n)
{
    const long long left = n - t * TILE;
    return left < TILE ? (int)left : TILE;
}

// the stencil over one staged tile: out[base + j] from buf[j .. j + 2*RADIUS]
__device__ __forceinline__ void stencil_tile(const float *buf, float *out, long long base, int count)
{
    for (int j = threadIdx.x; j < count; j += BDIM) {
        float tmp = 0.0f;
#pragma unroll
        for (int k = 1; k <= RADIUS; k++)
            tmp += scoef[k] * (buf[j + RADIUS + k] - buf[j + RADIUS - k]);
        out[base + j] = tmp;
    }
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedPlain(const float *__restrict__ in, float *__restrict__ out,
                                                              long long n)
{
    __shared__ __align__(16) float buf[SPAN];
    const long long tiles = (n + TILE - 1) / TILE;
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const long long base = t * TILE;
        const int count = tile_outputs(t, n);
        for (int i = threadIdx.x; i < count + 2 * RADIUS; i += BDIM)
            buf[i] = in[base + i];
        __syncthreads(); // the tile is staged
        stencil_tile(buf, out, base, count);
        __syncthreads(); // all have read it before the next tile overwrites it
    }
}

// the same through registers 16 bytes a thread (float4), as wide as the cp.async copies below: the
// fair comparison for them, whose only difference is then that the copy does not wait in registers
extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedPlainV4(const float *__restrict__ in, float *__restrict__ out,
                                                                long long n)
{
    __shared__ __align__(16) float buf[SPAN];
    const long long tiles = (n + TILE - 1) / TILE;
    for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
        const long long base = t * TILE;
        const int count = tile_outputs(t, n);
        const int span = count + 2 * RADIUS, whole = span / 4; // the last tile may end in 1-3 single floats
#pragma unroll 2 // two 16-byte loads in flight a thread: four spill under the 32-register cap
        for (int i = threadIdx.x; i < whole; i += BDIM)
            reinterpret_cast<float4 *>(buf)[i] = reinterpret_cast<const float4 *>(in + base)[i];
        for (int i = 4 * whole + threadIdx.x; i < span; i += BDIM)
            buf[i] = in[base + i];
        __syncthreads(); // the tile is staged
        stencil_tile(buf, out, base, count);
        __syncthreads(); // all have read it before the next tile overwrites it
    }
}

// ---- cp.async: each thread copies 16-byte pieces of the tile; the bytes past the input are zero-filled
__device__ __forceinline__ void cp_async16(unsigned dst, const void *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

__device__ __forceinline__ void issue_cp_async(float *stage, const float *in, long long t, long long n)
{
    const int bytes = 4 * (tile_outputs(t, n) + 2 * RADIUS);
    const unsigned dst = smem_addr(stage);
    const float *src = in + t * TILE;
    for (int i = threadIdx.x; 16 * i < bytes; i += BDIM)
        cp_async16(dst + 16 * i, src + 4 * i, min(16, bytes - 16 * i));
}

// S stages: while tile j is computed, tiles j+1 .. j+S-1 are being copied. One commit group per
// tile (empty past the last tile), so wait_group S-1 always means "tile j has landed".
template <int S> __device__ __forceinline__ void staged_cp_async(const float *in, float *out, long long n)
{
    __shared__ __align__(16) float buf[S][SPAN];
    const long long tiles = (n + TILE - 1) / TILE;
    const long long step = gridDim.x;
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
        const long long u = blockIdx.x + s * step;
        if (u < tiles)
            issue_cp_async(buf[s], in, u, n);
        cp_async_commit();
    }
    int j = 0;
    for (long long t = blockIdx.x; t < tiles; t += step, j++) {
        const long long u = t + (S - 1) * step; // its stage was last read in iteration j - 1
        if (u < tiles)
            issue_cp_async(buf[(j + S - 1) % S], in, u, n);
        cp_async_commit();
        cp_async_wait<S - 1>(); // this thread's copies of tile j are done
        __syncthreads();        // and everyone's
        stencil_tile(buf[j % S], out, t * TILE, tile_outputs(t, n));
        __syncthreads(); // all have read stage j % S before it is refilled
    }
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedCpAsync1(const float *__restrict__ in, float *__restrict__ out,
                                                                 long long n)
{
    staged_cp_async<1>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedCpAsync2(const float *__restrict__ in, float *__restrict__ out,
                                                                 long long n)
{
    staged_cp_async<2>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedCpAsync3(const float *__restrict__ in, float *__restrict__ out,
                                                                 long long n)
{
    staged_cp_async<3>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedCpAsync4(const float *__restrict__ in, float *__restrict__ out,
                                                                 long long n)
{
    staged_cp_async<4>(in, out, n);
}

// ---- TMA bulk copies (sm_90): one thread copies a whole tile, the mbarrier counts its bytes
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(state) : "r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ bool mbar_try_wait(unsigned bar, unsigned parity)
{
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done != 0;
}

__device__ __forceinline__ void bulk_copy_g2s(unsigned dst, const void *src, unsigned bytes, unsigned bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}

// bulk copies move multiples of 16 bytes: the last tile's last 1-3 floats are loaded plainly
__device__ __forceinline__ unsigned bulk_bytes(long long t, long long n) { return (4u * (tile_outputs(t, n) + 2 * RADIUS)) & ~15u; }

__device__ __forceinline__ void issue_bulk(float *stage, unsigned long long *bar, const float *in, long long t, long long n)
{
    const unsigned bytes = bulk_bytes(t, n);
    mbar_arrive_expect_tx(smem_addr(bar), bytes);
    bulk_copy_g2s(smem_addr(stage), in + t * TILE, bytes, smem_addr(bar));
}

template <int S> __device__ __forceinline__ void staged_tma(const float *in, float *out, long long n)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(128) float buf[S][SPAN];
    __shared__ __align__(8) unsigned long long bar[S];
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++)
            mbar_init(smem_addr(&bar[s]), 1); // one arrival (the issuing thread's) plus the bytes
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    const long long tiles = (n + TILE - 1) / TILE;
    const long long step = gridDim.x;
    if (threadIdx.x == 0)
        for (int s = 0; s < S - 1; s++) {
            const long long u = blockIdx.x + s * step;
            if (u < tiles)
                issue_bulk(buf[s], &bar[s], in, u, n);
        }
    int j = 0;
    for (long long t = blockIdx.x; t < tiles; t += step, j++) {
        const int s = j % S;
        const long long u = t + (S - 1) * step;
        if (threadIdx.x == 0 && u < tiles) {
            // the stage was read by ordinary loads (the generic proxy) until the barrier that ended
            // iteration j - 1; order those reads before the copy engine (the async proxy) writes it
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            issue_bulk(buf[(j + S - 1) % S], &bar[(j + S - 1) % S], in, u, n);
        }
        // stage s completes its (j / S)-th phase when tile j has landed
        while (!mbar_try_wait(smem_addr(&bar[s]), (j / S) & 1))
            ;
        const int count = tile_outputs(t, n);
        const int copied = bulk_bytes(t, n) / 4;
        if (threadIdx.x < count + 2 * RADIUS - copied)
            buf[s][copied + threadIdx.x] = in[t * TILE + copied + threadIdx.x];
        __syncthreads(); // the plain tail is in
        stencil_tile(buf[s], out, t * TILE, count);
        __syncthreads(); // all have read stage s before it is refilled
    }
#else
    __trap(); // bulk copies and transaction barriers need sm_90; the experiment skips these before sm_90
#endif
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedTma1(const float *__restrict__ in, float *__restrict__ out,
                                                             long long n)
{
    staged_tma<1>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedTma2(const float *__restrict__ in, float *__restrict__ out,
                                                             long long n)
{
    staged_tma<2>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedTma3(const float *__restrict__ in, float *__restrict__ out,
                                                             long long n)
{
    staged_tma<3>(in, out, n);
}

extern "C" __global__ void __launch_bounds__(BDIM, MIN_BLOCKS) stagedTma4(const float *__restrict__ in, float *__restrict__ out,
                                                             long long n)
{
    staged_tma<4>(in, out, n);
}

// ---------------------------------------------------------------------------------------- the tiled matmul
// The book's tiled MatMulKernel (matmul.cu: tiles As of A and Bs of B staged in shared memory, Cvalue
// accumulated over them), made compute-heavy so that the copies have work to hide behind: a block of
// MM_THREADS threads owns a MM_TILE x MM_TILE square of C = A * B (square n x n, row-major, n % 4 == 0
// so that every 16-byte piece of a row is wholly in or out of the matrix), each thread a 4 x 4 Cvalue
// (rows ty + 16 i, columns 4 tx .. 4 tx + 3), over K tiles of MM_BK. A persistent grid-stride loop
// walks this block's items, (square, K tile) pairs in order, so that the stages prefetch across
// squares as the stencil's prefetch across tiles:
//
//   mmStagedPlain      As and Bs staged through registers (a 16-byte ld.global, then st.shared)
//   mmStagedCpAsyncS   each thread's 16 bytes of As and of Bs copied by cp.async, S K tiles in flight
//   mmStagedTmaS       each row of As (64 bytes) and of Bs (256 bytes) copied by a bulk copy, the 80
//                      copies spread over the warps, an mbarrier per stage counting the bytes, S stages (sm_90)
//
// Rows of A and columns of B outside the matrix are left alone (their products land only in elements
// of C that are not written); K past the matrix is not multiplied (kmax).
#define MM_TILE 64
#define MM_BK 16
#define MM_THREADS 256
// every matmul variant fits 4 blocks on an SM (at most 64 registers a thread), so that at full occupancy
// all of them run with the same 32 warps (cp.async's addressing took up to 77 registers, 3 blocks)
#define MM_MIN_BLOCKS 4
#define MM_A (MM_TILE * MM_BK) // floats of A's tile: MM_TILE rows of MM_BK
#define MM_B (MM_BK * MM_TILE) // floats of B's tile: MM_BK rows of MM_TILE
static_assert(MM_A == 4 * MM_THREADS && MM_B == 4 * MM_THREADS, "each thread stages 16 bytes of each tile");

// this block's items: (squares it owns) x (K tiles)
__device__ __forceinline__ int mm_items(int n)
{
    const int side = (n + MM_TILE - 1) / MM_TILE, squares = side * side;
    const int mine = (int)blockIdx.x < squares ? (squares - 1 - (int)blockIdx.x) / (int)gridDim.x + 1 : 0;
    return mine * ((n + MM_BK - 1) / MM_BK);
}

// item q: square blockIdx.x + (q / ktiles) * gridDim.x, K tile q % ktiles
struct MmItem {
    int row0, col0, k0;
};

__device__ __forceinline__ MmItem mm_item(int q, int n)
{
    const int ktiles = (n + MM_BK - 1) / MM_BK, side = (n + MM_TILE - 1) / MM_TILE;
    const int t = (int)blockIdx.x + (q / ktiles) * (int)gridDim.x;
    return {(t / side) * MM_TILE, (t % side) * MM_TILE, (q % ktiles) * MM_BK};
}

// the 16 bytes of A's tile (row tid / 4, columns 4 (tid % 4) ..) and of B's (row tid / 16, columns
// 4 (tid % 16) ..) that thread tid stages, at float 4 tid of the stage; nullptr outside the matrix
__device__ __forceinline__ const float *mm_piece_a(const float *a, int n, MmItem it)
{
    const int r = it.row0 + threadIdx.x / 4, col = it.k0 + 4 * (threadIdx.x % 4);
    return r < n && col < n ? a + (size_t)r * n + col : nullptr;
}

__device__ __forceinline__ const float *mm_piece_b(const float *b, int n, MmItem it)
{
    const int r = it.k0 + threadIdx.x / 16, col = it.col0 + 4 * (threadIdx.x % 16);
    return r < n && col < n ? b + (size_t)r * n + col : nullptr;
}

// Cvalue += As * Bs over k < kmax (a multiple of 4), 16-byte loads: A's rows 16 apart (two rows a warp:
// 2 wavefronts, a half-warp's each) and B's columns 4 tx .. 4 tx + 3 (16 pieces a warp: 4 wavefronts), both
// the ideal for 16-byte loads
__device__ __forceinline__ void mm_k4(const float *As, const float *Bs, float (&Cvalue)[4][4], int k)
{
    const int ty = threadIdx.x / 16, tx = threadIdx.x % 16;
    float4 av[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        av[i] = *reinterpret_cast<const float4 *>(&As[(ty + 16 * i) * MM_BK + k]);
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
        const float4 bv = *reinterpret_cast<const float4 *>(&Bs[(k + kk) * MM_TILE + 4 * tx]);
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const float ai = kk == 0 ? av[i].x : kk == 1 ? av[i].y : kk == 2 ? av[i].z : av[i].w;
            Cvalue[i][0] += ai * bv.x;
            Cvalue[i][1] += ai * bv.y;
            Cvalue[i][2] += ai * bv.z;
            Cvalue[i][3] += ai * bv.w;
        }
    }
}

// one item: Cvalue starts at a square's first K tile and is written to C after its last
__device__ __forceinline__ void mm_multiply(const float *As, const float *Bs, float (&Cvalue)[4][4], float *c, int n,
                                            MmItem it)
{
    if (it.k0 == 0) {
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int j = 0; j < 4; j++)
                Cvalue[i][j] = 0.0f;
    }
    const int kmax = min(MM_BK, n - it.k0);
    if (kmax == MM_BK) {
#pragma unroll
        for (int k = 0; k < MM_BK; k += 4)
            mm_k4(As, Bs, Cvalue, k);
    } else {
        for (int k = 0; k < kmax; k += 4)
            mm_k4(As, Bs, Cvalue, k);
    }
    if (it.k0 + MM_BK < n)
        return;
    const int ty = threadIdx.x / 16, tx = threadIdx.x % 16, col = it.col0 + 4 * tx;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const int r = it.row0 + ty + 16 * i;
        if (r < n && col < n)
            *reinterpret_cast<float4 *>(&c[(size_t)r * n + col]) =
                make_float4(Cvalue[i][0], Cvalue[i][1], Cvalue[i][2], Cvalue[i][3]);
    }
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedPlain(const float *__restrict__ a, const float *__restrict__ b,
                                                                       float *__restrict__ c, int n)
{
    __shared__ __align__(16) float As[MM_A];
    __shared__ __align__(16) float Bs[MM_B];
    float Cvalue[4][4];
    const int items = mm_items(n);
    for (int q = 0; q < items; q++) {
        const MmItem it = mm_item(q, n);
        const float *pa = mm_piece_a(a, n, it), *pb = mm_piece_b(b, n, it);
        const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        reinterpret_cast<float4 *>(As)[threadIdx.x] = pa ? *reinterpret_cast<const float4 *>(pa) : zero;
        reinterpret_cast<float4 *>(Bs)[threadIdx.x] = pb ? *reinterpret_cast<const float4 *>(pb) : zero;
        __syncthreads(); // the tiles are staged
        mm_multiply(As, Bs, Cvalue, c, n, it);
        __syncthreads(); // all have read them before the next item overwrites them
    }
}

// ---- cp.async: each thread's 16 bytes of each tile (zero-filled outside the matrix)
__device__ __forceinline__ void mm_issue_cp_async(float *As, float *Bs, const float *a, const float *b, int n, int q)
{
    const MmItem it = mm_item(q, n);
    const float *pa = mm_piece_a(a, n, it), *pb = mm_piece_b(b, n, it);
    cp_async16(smem_addr(As) + 16 * threadIdx.x, pa ? pa : a, pa ? 16 : 0);
    cp_async16(smem_addr(Bs) + 16 * threadIdx.x, pb ? pb : b, pb ? 16 : 0);
}

// as staged_cp_async: one commit group per item, wait_group S-1 means "item q has landed"
template <int S> __device__ __forceinline__ void mm_staged_cp_async(const float *a, const float *b, float *c, int n)
{
    __shared__ __align__(128) float As[S][MM_A];
    __shared__ __align__(128) float Bs[S][MM_B];
    float Cvalue[4][4];
    const int items = mm_items(n);
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
        if (s < items)
            mm_issue_cp_async(As[s], Bs[s], a, b, n, s);
        cp_async_commit();
    }
    for (int q = 0; q < items; q++) {
        const int u = q + S - 1; // its stage was last read in iteration q - 1
        if (u < items)
            mm_issue_cp_async(As[u % S], Bs[u % S], a, b, n, u);
        cp_async_commit();
        cp_async_wait<S - 1>(); // this thread's copies of item q are done
        __syncthreads();        // and everyone's
        mm_multiply(As[q % S], Bs[q % S], Cvalue, c, n, mm_item(q, n));
        __syncthreads(); // all have read stage q % S before it is refilled
    }
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedCpAsync1(const float *__restrict__ a, const float *__restrict__ b,
                                                                         float *__restrict__ c, int n)
{
    mm_staged_cp_async<1>(a, b, c, n);
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedCpAsync2(const float *__restrict__ a, const float *__restrict__ b,
                                                                         float *__restrict__ c, int n)
{
    mm_staged_cp_async<2>(a, b, c, n);
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedCpAsync3(const float *__restrict__ a, const float *__restrict__ b,
                                                                         float *__restrict__ c, int n)
{
    mm_staged_cp_async<3>(a, b, c, n);
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedCpAsync4(const float *__restrict__ a, const float *__restrict__ b,
                                                                         float *__restrict__ c, int n)
{
    mm_staged_cp_async<4>(a, b, c, n);
}

// ---- TMA bulk copies (sm_90): a 1-D bulk copy moves one contiguous run, so each row of a tile that lies in
// the matrix is a copy (A's rows 64 bytes, B's 256). Warp w copies A's rows 8w .. 8w+7 (lanes 0-7) and B's
// rows 2w, 2w+1 (lanes 8, 9): ten copies a warp, as the copy instruction's operands are uniform (a warp
// issues its lanes' copies one after another; all 80 from warp 0 ran at 5.2-5.6 TFLOP/s on an H200 at one
// block per SM, spread over the warps at 10.8-13.3)
static_assert(MM_THREADS / 32 * 8 == MM_TILE && MM_THREADS / 32 * 2 == MM_BK, "eight rows of A, two of B a warp");

__device__ __forceinline__ void mm_issue_bulk(float *As, float *Bs, unsigned long long *bar, const float *a, const float *b,
                                              int n, int q)
{
    const MmItem it = mm_item(q, n);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int rows_a = min(MM_TILE, n - it.row0), bytes_a = 4 * min(MM_BK, n - it.k0);
    const int rows_b = min(MM_BK, n - it.k0), bytes_b = 4 * min(MM_TILE, n - it.col0);
    if (threadIdx.x == 0) // the one arrival: before or after the copies complete, the phase waits for both
        mbar_arrive_expect_tx(smem_addr(bar), rows_a * bytes_a + rows_b * bytes_b);
    if (lane >= 10)
        return;
    // the stage was read by ordinary loads (the generic proxy) until the barrier that ended the
    // previous item; order those reads before the copy engine (the async proxy) writes it
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (lane < 8 && 8 * warp + lane < rows_a) {
        const int r = 8 * warp + lane;
        bulk_copy_g2s(smem_addr(As + r * MM_BK), a + (size_t)(it.row0 + r) * n + it.k0, bytes_a, smem_addr(bar));
    } else if (lane >= 8 && 2 * warp + lane - 8 < rows_b) {
        const int r = 2 * warp + lane - 8;
        bulk_copy_g2s(smem_addr(Bs + r * MM_TILE), b + (size_t)(it.k0 + r) * n + it.col0, bytes_b, smem_addr(bar));
    }
}

template <int S> __device__ __forceinline__ void mm_staged_tma(const float *a, const float *b, float *c, int n)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(128) float As[S][MM_A];
    __shared__ __align__(128) float Bs[S][MM_B];
    __shared__ __align__(8) unsigned long long bar[S];
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++)
            mbar_init(smem_addr(&bar[s]), 1); // one arrival (thread 0's) plus the bytes
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    float Cvalue[4][4];
    const int items = mm_items(n);
    for (int s = 0; s < S - 1 && s < items; s++)
        mm_issue_bulk(As[s], Bs[s], &bar[s], a, b, n, s);
    for (int q = 0; q < items; q++) {
        const int u = q + S - 1; // its stage was last read in iteration q - 1
        if (u < items)
            mm_issue_bulk(As[u % S], Bs[u % S], &bar[u % S], a, b, n, u);
        // stage q % S completes its (q / S)-th phase when item q has landed
        while (!mbar_try_wait(smem_addr(&bar[q % S]), (q / S) & 1))
            ;
        mm_multiply(As[q % S], Bs[q % S], Cvalue, c, n, mm_item(q, n));
        __syncthreads(); // all have read stage q % S before it is refilled
    }
#else
    __trap(); // bulk copies and transaction barriers need sm_90; the experiment skips these before sm_90
#endif
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedTma1(const float *__restrict__ a, const float *__restrict__ b,
                                                                     float *__restrict__ c, int n)
{
    mm_staged_tma<1>(a, b, c, n);
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedTma2(const float *__restrict__ a, const float *__restrict__ b,
                                                                     float *__restrict__ c, int n)
{
    mm_staged_tma<2>(a, b, c, n);
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedTma3(const float *__restrict__ a, const float *__restrict__ b,
                                                                     float *__restrict__ c, int n)
{
    mm_staged_tma<3>(a, b, c, n);
}

extern "C" __global__ void __launch_bounds__(MM_THREADS, MM_MIN_BLOCKS) mmStagedTma4(const float *__restrict__ a, const float *__restrict__ b,
                                                                     float *__restrict__ c, int n)
{
    mm_staged_tma<4>(a, b, c, n);
}
