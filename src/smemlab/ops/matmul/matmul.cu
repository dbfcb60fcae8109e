// smemlab.ops.matmul: C = A @ B in float32 on the CUDA cores (FFMA only, no tensor cores).
// A is M x K, B is K x N, C is M x N, all row-major and contiguous.
//
// One kernel per step of the climb (after siboehm/SGEMM_CUDA), each correct for any M, N, K:
//   mm_tiled         32x32 shared-memory tiles, one output per thread (1024 threads)
//   mm_blocktile1d   64x64 block tile, BK=8, 8 outputs per thread in a column (512 threads)
//   mm_blocktile2d   128x128 block tile, BK=8, 8x8 outputs per thread (256 threads)
//   mm_vectorized    as 2d, with 16-byte global loads, A's tile stored transposed (As[k][m]),
//                    and 16-byte shared loads of the fragments
//   mm_warptile      as vectorized, threads arranged so that each warp owns a 64x32 tile and
//                    each thread two 4x4 sub-tiles 32 rows / 16 columns apart: every shared
//                    load of a fragment is a broadcast of 128 (A) or 64 (B) contiguous bytes
//   mm_warptile_db   as warptile, double-buffered: the next tile's global loads are in flight
//                    (in registers) while the current tile is multiplied, one barrier per tile
//   mm_warptile_db16 as warptile_db with BK=16 (half the barriers, twice the staging registers)
//
// Bounds: every global load is guarded (zero outside the matrix) and every store predicated.
// 16-byte loads are used where the flags vecA / vecB / vecC say a row's start is 16-byte aligned
// (leading dimension % 4 == 0 and an aligned pointer) and the four elements are in bounds;
// otherwise the elements are read one at a time.

typedef unsigned long long u64;

__device__ __forceinline__ float4 load4_guard(const float* __restrict__ p, int row, int col, int rows, int cols, int ld, int vec) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (row < rows) {
        const float* q = p + static_cast<u64>(row) * ld + col;
        if (vec && col + 3 < cols) {
            v = *reinterpret_cast<const float4*>(q);
        } else {
            if (col < cols) v.x = q[0];
            if (col + 1 < cols) v.y = q[1];
            if (col + 2 < cols) v.z = q[2];
            if (col + 3 < cols) v.w = q[3];
        }
    }
    return v;
}

__device__ __forceinline__ void store4_guard(float* __restrict__ p, int row, int col, int rows, int cols, int ld, int vec, float4 v) {
    if (row >= rows) return;
    float* q = p + static_cast<u64>(row) * ld + col;
    if (vec && col + 3 < cols) {
        *reinterpret_cast<float4*>(q) = v;
    } else {
        if (col < cols) q[0] = v.x;
        if (col + 1 < cols) q[1] = v.y;
        if (col + 2 < cols) q[2] = v.z;
        if (col + 3 < cols) q[3] = v.w;
    }
}

// ---- 1. tiled -------------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(1024) mm_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    __shared__ float As[32][32];
    __shared__ float Bs[32][32];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += 32) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[static_cast<u64>(row) * K + k0 + tx] : 0.f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[static_cast<u64>(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 32; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[static_cast<u64>(row) * N + col] = acc;
}

// ---- 2. 1-D block tiling: each thread 8 outputs of one column ----------------------------------
extern "C" __global__ void __launch_bounds__(512) mm_blocktile1d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int tid = threadIdx.x;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    const int tcol = tid % BN, trow = tid / BN;  // trow 0..7: rows trow*8 .. trow*8+7
    const int arow = tid / BK, acol = tid % BK;  // 64 x 8
    const int brow = tid / BN, bcol = tid % BN;  // 8 x 64
    float acc[TM] = {0.f};
    for (int k0 = 0; k0 < K; k0 += BK) {
        As[arow * BK + acol] = (bm + arow < M && k0 + acol < K) ? A[static_cast<u64>(bm + arow) * K + k0 + acol] : 0.f;
        Bs[brow * BN + bcol] = (k0 + brow < K && bn + bcol < N) ? B[static_cast<u64>(k0 + brow) * N + bn + bcol] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float b = Bs[k * BN + tcol];
#pragma unroll
            for (int i = 0; i < TM; ++i) acc[i] = fmaf(As[(trow * TM + i) * BK + k], b, acc[i]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = bm + trow * TM + i, c = bn + tcol;
        if (r < M && c < N) C[static_cast<u64>(r) * N + c] = acc[i];
    }
}

// ---- 3. 2-D block tiling: each thread an 8x8 tile ------------------------------------------------
extern "C" __global__ void __launch_bounds__(256) mm_blocktile2d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int tid = threadIdx.x;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    const int tcol = tid % (BN / TN), trow = tid / (BN / TN);  // 16 x 16 threads
    const int arow = tid / BK, acol = tid % BK;                 // 32 rows per pass, 4 passes
    const int brow = tid / BN, bcol = tid % BN;                 // 2 rows per pass, 4 passes
    float acc[TM][TN] = {{0.f}};
    float rm[TM], rn[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int o = 0; o < BM; o += 32) {
            const int r = bm + arow + o, c = k0 + acol;
            As[(arow + o) * BK + acol] = (r < M && c < K) ? A[static_cast<u64>(r) * K + c] : 0.f;
        }
#pragma unroll
        for (int o = 0; o < BK; o += 2) {
            const int r = k0 + brow + o, c = bn + bcol;
            Bs[(brow + o) * BN + bcol] = (r < K && c < N) ? B[static_cast<u64>(r) * N + c] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; ++i) rm[i] = As[(trow * TM + i) * BK + k];
#pragma unroll
            for (int j = 0; j < TN; ++j) rn[j] = Bs[k * BN + tcol * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(rm[i], rn[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = bm + trow * TM + i;
        if (r >= M) continue;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = bn + tcol * TN + j;
            if (c < N) C[static_cast<u64>(r) * N + c] = acc[i][j];
        }
    }
}

// ---- 4. vectorized: float4 global loads, A transposed in shared memory, float4 fragments ---------
extern "C" __global__ void __launch_bounds__(256) mm_vectorized(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    __shared__ __align__(16) float As[BK * BM];
    __shared__ __align__(16) float Bs[BK * BN];
    const int tid = threadIdx.x;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    const int tcol = tid % (BN / TN), trow = tid / (BN / TN);
    const int arow = tid / (BK / 4), acol = (tid % (BK / 4)) * 4;  // 128 rows x 2 float4
    const int brow = tid / (BN / 4), bcol = (tid % (BN / 4)) * 4;  // 8 rows x 32 float4
    float acc[TM][TN] = {{0.f}};
    float rm[TM], rn[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        const float4 a = load4_guard(A, bm + arow, k0 + acol, M, K, K, vecA);
        As[(acol + 0) * BM + arow] = a.x;
        As[(acol + 1) * BM + arow] = a.y;
        As[(acol + 2) * BM + arow] = a.z;
        As[(acol + 3) * BM + arow] = a.w;
        *reinterpret_cast<float4*>(&Bs[brow * BN + bcol]) = load4_guard(B, k0 + brow, bn + bcol, K, N, N, vecB);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 t = *reinterpret_cast<const float4*>(&As[k * BM + trow * TM + i]);
                rm[i] = t.x; rm[i + 1] = t.y; rm[i + 2] = t.z; rm[i + 3] = t.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 t = *reinterpret_cast<const float4*>(&Bs[k * BN + tcol * TN + j]);
                rn[j] = t.x; rn[j + 1] = t.y; rn[j + 2] = t.z; rn[j + 3] = t.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(rm[i], rn[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            store4_guard(C, bm + trow * TM + i, bn + tcol * TN + j, M, N, N, vecC,
                         make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

// ---- 5-7. warp tiling, then double buffering -----------------------------------------------------
// Block 128x128, 256 threads = 8 warps as 2 (M) x 4 (N); warp tile 64x32; lane (ly, lx) = (lane/4,
// lane%4); thread rows wm*64 + i*32 + ly*4 + r, columns wn*32 + j*16 + lx*4 + c (i, j in {0,1}).
template <int BK, bool DB>
__device__ __forceinline__ void warptile_body(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    constexpr int BM = 128, BN = 128, NT = 256;
    constexpr int LDA = BM + 4;  // padding: the transposed stores of A hit 2 banks apart, not 1
    constexpr int NBUF = DB ? 2 : 1;
    constexpr int A4 = BM * BK / 4 / NT;  // float4 of A per thread per tile
    constexpr int B4 = BK * BN / 4 / NT;
    static_assert(A4 >= 1 && B4 >= 1, "tile too small for 256 threads");
    __shared__ __align__(16) float As[NBUF][BK][LDA];
    __shared__ __align__(16) float Bs[NBUF][BK][BN];

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp >> 2, wn = warp & 3, ly = lane >> 2, lx = lane & 3;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    const int am = wm * 64 + ly * 4;  // + i*32
    const int bnn = wn * 32 + lx * 4;  // + j*16

    float4 ra[A4], rb[B4];
    auto gload = [&](int k0) {
#pragma unroll
        for (int a = 0; a < A4; ++a) {
            const int f = tid + a * NT, row = f / (BK / 4), kq = (f % (BK / 4)) * 4;
            ra[a] = load4_guard(A, bm + row, k0 + kq, M, K, K, vecA);
        }
#pragma unroll
        for (int b = 0; b < B4; ++b) {
            const int f = tid + b * NT, kr = f / (BN / 4), cq = (f % (BN / 4)) * 4;
            rb[b] = load4_guard(B, k0 + kr, bn + cq, K, N, N, vecB);
        }
    };
    auto sstore = [&](int buf) {
#pragma unroll
        for (int a = 0; a < A4; ++a) {
            const int f = tid + a * NT, row = f / (BK / 4), kq = (f % (BK / 4)) * 4;
            As[buf][kq + 0][row] = ra[a].x;
            As[buf][kq + 1][row] = ra[a].y;
            As[buf][kq + 2][row] = ra[a].z;
            As[buf][kq + 3][row] = ra[a].w;
        }
#pragma unroll
        for (int b = 0; b < B4; ++b) {
            const int f = tid + b * NT, kr = f / (BN / 4), cq = (f % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&Bs[buf][kr][cq]) = rb[b];
        }
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    gload(0);
    sstore(0);
    __syncthreads();
    int buf = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool more = k0 + BK < K;
        if (DB && more) gload(k0 + BK);  // in flight while this tile is multiplied
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[8], b[8];
            const float4 a0 = *reinterpret_cast<const float4*>(&As[buf][k][am]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[buf][k][am + 32]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[buf][k][bnn]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[buf][k][bnn + 16]);
            a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w;
            a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
            b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w;
            b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (DB) {
            if (more) sstore(buf ^ 1);
            __syncthreads();
            buf ^= 1;
        } else {
            __syncthreads();
            if (more) {
                gload(k0 + BK);
                sstore(0);
            }
            __syncthreads();
        }
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = bm + am + (i >> 2) * 32 + (i & 3);
#pragma unroll
        for (int jh = 0; jh < 2; ++jh)
            store4_guard(C, r, bn + bnn + jh * 16, M, N, N, vecC,
                         make_float4(acc[i][jh * 4], acc[i][jh * 4 + 1], acc[i][jh * 4 + 2], acc[i][jh * 4 + 3]));
    }
}

extern "C" __global__ void __launch_bounds__(256, 2) mm_warptile(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    warptile_body<8, false>(A, B, C, M, N, K, vecA, vecB, vecC);
}

extern "C" __global__ void __launch_bounds__(256, 2) mm_warptile_db(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    warptile_body<8, true>(A, B, C, M, N, K, vecA, vecB, vecC);
}

extern "C" __global__ void __launch_bounds__(256, 2) mm_warptile_db16(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC) {
    warptile_body<16, true>(A, B, C, M, N, K, vecA, vecB, vecC);
}

// ---- 8-9. packed fragment loads, cp.async pipelines, split-K -------------------------------------
//   mm_pack   as warptile_db16, with two layout fixes the bank model and Nsight Compute found:
//             - lanes interleaved in pairs (lane and lane^1 share B's column, lane and lane^2 A's
//               row), so every 16-byte fragment load packs two lanes to a register and costs 2
//               wavefronts; in warptile B's cost 4 (a 75% busy shared-memory pipe became 50%)
//             - A's transposed stores from 16 rows x 2 k-quads per warp: 32 banks, no conflict
//               (warptile_db16's 8 rows x 4 quads put quads 0 and 2 on the same banks: 2-way)
//   mm_async  as pack, the tiles copied by cp.async (global to shared, no registers, no stores),
//             3 stages in flight: A's transposed copy is 4 bytes a lane (8 k x 4 rows a warp: one
//             32-byte sector a row, 32 banks), B's 16 bytes (4 bytes where its rows are not aligned)
// Measured on an H200 (ops/matmul.py has the table): both are slower than warptile_db16 where the
// grid fills the GPU (pack 0.73-0.79 of cuBLAS, async 0.81-0.84, warptile_db16 0.87); async split
// is the fastest where it does not (1024^3: 0.84, against 0.51 for warptile_db16). The template
// also makes WM x WN warps of 64 x 4TN (tools/matmul_sweep.py measures more shapes of it).
// Copies and loads of a slab inside the matrices (every block but the last row and column of the
// grid, every slab but the last) take a path with no bounds checks.
// Each takes the split-K workspace: launched with gridDim.z = S > 1, block z multiplies the z-th
// slice of K; every block writes its partial tile to ws and counts itself in counters[tile]; the
// last of the S adds the partials in the order z = 0..S-1 (deterministic: the same sum whichever
// block comes last), writes C and sets the counter back to 0 for the next launch.

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// bytes = 0 copies nothing and fills the destination with zeros (outside the matrices)
__device__ __forceinline__ void cp_async4(float* dst, const float* src, int bytes) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes) : "memory");
}

__device__ __forceinline__ void cp_async16(float* dst, const float* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_addr(dst)), "l"(src), "r"(bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// One block tile: BM x BN outputs, BK-deep slabs, NT threads. A stage holds A's slab transposed
// (BK rows of LDA floats) then B's (BK rows of BN).
template <int BM, int BN, int BK, int NT>
struct MmTile {
    static constexpr int LDA = BM + 4;  // 4-byte copies of 8 k x 4 rows land on 4k + row: 32 banks
    static constexpr int STAGE = BK * (LDA + BN);
    static constexpr int NW = NT / 32;
    // cp.async of A: warp-copies of 8 k x 4 rows, KG a row group; thread rows arow + i*ASTEP
    static constexpr int KG = BK / 8, ACOPIES = BM / 4 * KG / NW, ASTEP = NW / KG * 4;
    // 16-byte pieces of B: thread k-rows bkr + i*BSTEP
    static constexpr int BCOPIES = BK * BN / 4 / NT, BSTEP = NT / (BN / 4);
    // registers of A (mm_pack): 16 rows x 2 k-quads a warp; thread rows prow + i*PSTEP
    static constexpr int Q = BK / 4, QB = Q == 4 ? 2 : 1, PLOADS = BM * Q / NT, PSTEP = (NT >> (4 + QB)) * 16;
    static_assert(BK % 8 == 0 && NW % KG == 0 && ACOPIES * NW == BM / 4 * KG, "A's copies do not divide");
    static_assert(NT % (BN / 4) == 0 && BCOPIES * NT == BK * BN / 4, "B's pieces do not divide");
    static_assert((Q == 2 || Q == 4) && PLOADS * NT == BM * Q && NW % (Q / 2) == 0 && NT % (1 << (4 + QB)) == 0,
                  "A's registers do not divide");

    int arow, akk, bkr, bc, prow, pkq;
    __device__ __forceinline__ MmTile() {
        const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
        arow = (warp / KG) * 4 + (lane >> 3);
        akk = (warp % KG) * 8 + (lane & 7);
        bkr = tid / (BN / 4);
        bc = (tid % (BN / 4)) * 4;
        prow = ((tid >> 1) & 15) | ((tid >> (4 + QB)) << 4);
        pkq = ((tid & 1) | (((tid >> 5) & (Q / 2 - 1)) << 1)) * 4;
    }

    // Copy the slab at k0 into a stage (As: A^T, Bs: B), asynchronously. full: the block's rows and
    // columns are inside C and the slab inside [0, kend), so no copy needs a check.
    __device__ __forceinline__ void copy(float* __restrict__ As, float* __restrict__ Bs, const float* __restrict__ A,
                                         const float* __restrict__ B, int M, int N, int K, int kend, int bm, int bn, int k0,
                                         int vecB, bool fullM, bool fullN) const {
        const bool kfull = k0 + BK <= kend;
        if (kfull && fullM) {
            const float* p = A + static_cast<u64>(bm + arow) * K + k0 + akk;
#pragma unroll
            for (int i = 0; i < ACOPIES; ++i)
                cp_async4(&As[akk * LDA + arow + i * ASTEP], p + static_cast<u64>(i * ASTEP) * K, 4);
        } else {
            const int gk = k0 + akk;
#pragma unroll
            for (int i = 0; i < ACOPIES; ++i) {
                const int gr = bm + arow + i * ASTEP;
                const bool in = gr < M && gk < kend;
                cp_async4(&As[akk * LDA + arow + i * ASTEP], in ? A + static_cast<u64>(gr) * K + gk : A, in ? 4 : 0);
            }
        }
        if (kfull && fullN) {
            const float* p = B + static_cast<u64>(k0 + bkr) * N + bn + bc;
#pragma unroll
            for (int i = 0; i < BCOPIES; ++i) {
                float* dst = &Bs[(bkr + i * BSTEP) * BN + bc];
                const float* src = p + static_cast<u64>(i * BSTEP) * N;
                if (vecB) {
                    cp_async16(dst, src, 16);
                } else {  // rows not 16-byte aligned (N % 4 != 0): four 4-byte copies
#pragma unroll
                    for (int e = 0; e < 4; ++e) cp_async4(dst + e, src + e, 4);
                }
            }
        } else {
            const int gc = bn + bc;
#pragma unroll
            for (int i = 0; i < BCOPIES; ++i) {
                const int gk = k0 + bkr + i * BSTEP;
                float* dst = &Bs[(bkr + i * BSTEP) * BN + bc];
                const float* src = B + static_cast<u64>(gk) * N + gc;
                if (vecB) {  // N % 4 == 0: the four are inside together or not at all
                    const bool in = gk < kend && gc < N;
                    cp_async16(dst, in ? src : B, in ? 16 : 0);
                } else {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const bool in = gk < kend && gc + e < N;
                        cp_async4(dst + e, in ? src + e : B, in ? 4 : 0);
                    }
                }
            }
        }
    }

    // mm_pack's registers: load the slab at k0 (16-byte loads where full and aligned) ...
    __device__ __forceinline__ void load(float4 (&ra)[PLOADS], float4 (&rb)[BCOPIES], const float* __restrict__ A,
                                         const float* __restrict__ B, int M, int N, int K, int kend, int bm, int bn, int k0,
                                         int vecA, int vecB, bool fullM, bool fullN) const {
        const bool kfull = k0 + BK <= kend;
        if (kfull && fullM && vecA) {
            const float* p = A + static_cast<u64>(bm + prow) * K + k0 + pkq;
#pragma unroll
            for (int i = 0; i < PLOADS; ++i)
                ra[i] = __ldg(reinterpret_cast<const float4*>(p + static_cast<u64>(i * PSTEP) * K));
        } else {
#pragma unroll
            for (int i = 0; i < PLOADS; ++i) ra[i] = load4_guard(A, bm + prow + i * PSTEP, k0 + pkq, M, kend, K, vecA);
        }
        if (kfull && fullN && vecB) {
            const float* p = B + static_cast<u64>(k0 + bkr) * N + bn + bc;
#pragma unroll
            for (int i = 0; i < BCOPIES; ++i) rb[i] = __ldg(reinterpret_cast<const float4*>(p + static_cast<u64>(i * BSTEP) * N));
        } else {
#pragma unroll
            for (int i = 0; i < BCOPIES; ++i) rb[i] = load4_guard(B, k0 + bkr + i * BSTEP, bn + bc, kend, N, N, vecB);
        }
    }

    // ... and store it into a stage, A transposed
    __device__ __forceinline__ void store(float* __restrict__ As, float* __restrict__ Bs, const float4 (&ra)[PLOADS],
                                          const float4 (&rb)[BCOPIES]) const {
#pragma unroll
        for (int i = 0; i < PLOADS; ++i) {
            float* d = &As[pkq * LDA + prow + i * PSTEP];
            d[0] = ra[i].x;
            d[LDA] = ra[i].y;
            d[2 * LDA] = ra[i].z;
            d[3 * LDA] = ra[i].w;
        }
#pragma unroll
        for (int i = 0; i < BCOPIES; ++i) *reinterpret_cast<float4*>(&Bs[(bkr + i * BSTEP) * BN + bc]) = rb[i];
    }
};

// The BK steps of one stage: per step 2 + TN/4 16-byte fragment loads and 8 x TN FFMAs.
// Thread (ly, lx) of its warp owns rows am + {0..3, 32..35} and columns bn + 16j + {0..3}.
template <int BK, int LDA, int LDB, int TN>
__device__ __forceinline__ void mm_stage_fma(const float* __restrict__ As, const float* __restrict__ Bs, int am, int bn,
                                             float (&acc)[8][TN]) {
#pragma unroll
    for (int k = 0; k < BK; ++k) {
        float a[8], b[TN];
        const float4 a0 = *reinterpret_cast<const float4*>(&As[k * LDA + am]);
        const float4 a1 = *reinterpret_cast<const float4*>(&As[k * LDA + am + 32]);
        a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w;
        a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
#pragma unroll
        for (int j = 0; j < TN / 4; ++j) {
            const float4 t = *reinterpret_cast<const float4*>(&Bs[k * LDB + bn + 16 * j]);
            b[4 * j] = t.x; b[4 * j + 1] = t.y; b[4 * j + 2] = t.z; b[4 * j + 3] = t.w;
        }
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

// C = acc (one slice), or the split-K hand-off described above.
template <int BM, int BN, int NT, int TN>
__device__ __forceinline__ void mm_epilogue(float (&acc)[8][TN], float* __restrict__ C, int M, int N, int vecC, int row0,
                                            int col0, float* __restrict__ ws, unsigned* __restrict__ counters) {
    constexpr int J = TN / 4, V = 8 * J, PART = BM * BN / 4;  // float4 of a thread, of a tile
    const int S = gridDim.z;
    if (S > 1) {
        __shared__ unsigned last;
        const unsigned tile = blockIdx.y * gridDim.x + blockIdx.x;
        float4* part = reinterpret_cast<float4*>(ws) + static_cast<u64>(tile) * S * PART + threadIdx.x;
#pragma unroll
        for (int v = 0; v < V; ++v) {  // float4 v of every thread side by side: 512 contiguous bytes a warp
            const float* r = &acc[v / J][(v % J) * 4];
            part[blockIdx.z * PART + v * NT] = make_float4(r[0], r[1], r[2], r[3]);
        }
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) {
            last = atomicAdd(&counters[tile], 1u) == static_cast<unsigned>(S - 1);
            if (last) counters[tile] = 0;
        }
        __syncthreads();
        if (!last) return;
        __threadfence();
#pragma unroll
        for (int v = 0; v < V; ++v) {
            float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
            for (int z = 0; z < S; ++z) {
                const float4 p = __ldcg(&part[z * PART + v * NT]);
                s.x += p.x; s.y += p.y; s.z += p.z; s.w += p.w;
            }
            float* r = &acc[v / J][(v % J) * 4];
            r[0] = s.x; r[1] = s.y; r[2] = s.z; r[3] = s.w;
        }
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = row0 + (i >> 2) * 32 + (i & 3);
#pragma unroll
        for (int j = 0; j < J; ++j)
            store4_guard(C, r, col0 + 16 * j, M, N, N, vecC,
                         make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]));
    }
}

// WM x WN warps, each 64 x 4TN; a STAGES-deep cp.async pipeline (ASYNC) or two stages filled
// through registers. Shared memory: dynamic, STAGES x MmTile::STAGE floats.
template <int WM, int WN, int TN, int BK, int STAGES, bool ASYNC>
__device__ __forceinline__ void mm_fast_body(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                                             int N, int K, int vecA, int vecB, int vecC, float* __restrict__ ws,
                                             unsigned* __restrict__ counters) {
    constexpr int BM = 64 * WM, BN = 4 * TN * WN, NT = 32 * WM * WN;
    using T = MmTile<BM, BN, BK, NT>;
    constexpr int LDA = T::LDA, STAGE = T::STAGE;
    static_assert(ASYNC ? STAGES >= 2 : STAGES == 2, "register staging has two stages");
    extern __shared__ __align__(16) float mm_smem[];

    const T tile;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    // lane bits: 0 -> ly bit 0, 1-2 -> lx, 3-4 -> ly bits 1-2 (see mm_pack above)
    const int ly = (lane & 1) | ((lane >> 3) << 1), lx = (lane >> 1) & 3;
    const int am = (warp / WN) * 64 + ly * 4, bnn = (warp % WN) * 4 * TN + lx * 4;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    const bool fullM = bm + BM <= M, fullN = bn + BN <= N;

    // this block's slice of K: whole slabs, [kbeg, kend)
    const int slabs = (K + BK - 1) / BK, per = (slabs + gridDim.z - 1) / gridDim.z;
    const int kbeg = blockIdx.z * per * BK, kend = min(K, kbeg + per * BK);
    const int nt = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;

    float acc[8][TN];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    if constexpr (ASYNC) {
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (s < nt) {
                float* st = mm_smem + s * STAGE;
                tile.copy(st, st + BK * LDA, A, B, M, N, K, kend, bm, bn, kbeg + s * BK, vecB, fullM, fullN);
            }
            cp_async_commit();  // empty groups too: group t is always slab t
        }
        int read = 0, write = STAGES - 1;
        for (int t = 0; t < nt; ++t) {
            cp_async_wait<STAGES - 2>();  // this thread's copies of slab t have landed
            __syncthreads();              // everyone's have; and everyone is done with slab t-1's stage
            if (t + STAGES - 1 < nt) {
                float* st = mm_smem + write * STAGE;
                tile.copy(st, st + BK * LDA, A, B, M, N, K, kend, bm, bn, kbeg + (t + STAGES - 1) * BK, vecB, fullM, fullN);
            }
            cp_async_commit();
            const float* st = mm_smem + read * STAGE;
            mm_stage_fma<BK, LDA, BN, TN>(st, st + BK * LDA, am, bnn, acc);
            read = read + 1 == STAGES ? 0 : read + 1;
            write = write + 1 == STAGES ? 0 : write + 1;
        }
    } else {
        float4 ra[T::PLOADS], rb[T::BCOPIES];
        if (nt > 0) {
            tile.load(ra, rb, A, B, M, N, K, kend, bm, bn, kbeg, vecA, vecB, fullM, fullN);
            tile.store(mm_smem, mm_smem + BK * LDA, ra, rb);
        }
        __syncthreads();
        for (int t = 0; t < nt; ++t) {
            const bool more = t + 1 < nt;
            if (more) tile.load(ra, rb, A, B, M, N, K, kend, bm, bn, kbeg + (t + 1) * BK, vecA, vecB, fullM, fullN);
            const float* st = mm_smem + (t & 1) * STAGE;
            mm_stage_fma<BK, LDA, BN, TN>(st, st + BK * LDA, am, bnn, acc);  // the loads above in flight
            if (more) {
                float* next = mm_smem + ((t + 1) & 1) * STAGE;
                tile.store(next, next + BK * LDA, ra, rb);
            }
            __syncthreads();
        }
    }
    mm_epilogue<BM, BN, NT, TN>(acc, C, M, N, vecC, bm + am, bn + bnn, ws, counters);
}

extern "C" __global__ void __launch_bounds__(256, 2) mm_pack(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC, float* __restrict__ ws, unsigned* __restrict__ counters) {
    mm_fast_body<2, 4, 8, 16, 2, false>(A, B, C, M, N, K, vecA, vecB, vecC, ws, counters);
}

extern "C" __global__ void __launch_bounds__(256, 2) mm_async(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, int vecA, int vecB, int vecC, float* __restrict__ ws, unsigned* __restrict__ counters) {
    mm_fast_body<2, 4, 8, 16, 3, true>(A, B, C, M, N, K, vecA, vecB, vecC, ws, counters);
}

// ---- 10. transposed operands read in place (`x @ w.t()`, `a.t() @ b`) ----------------------------
// The kernels above read A and B row-major. These read either or both as stored transposed, so that a
// transposed view (a torch `w.t()`, a CuPy F-ordered array) needs no copy. A kernel's suffix says how
// A and B lie in memory, first A then B: n as the product reads it (A: M x K rows, B: K x N rows), t
// transposed (A: K x M rows, i.e. A column-major; B: N x K rows). nn is the kernel without a suffix.
// Only the steps `choose` picks have them (tiled, warptile_db16, async); ops/matmul copies for the others.
// They are the instances of three templates on TA and TB, which ops/matmul KERNELS names mm_<step>_<layout>:
// mm_tiled_t<TA, TB>, mm_warptile_t<16, TA, TB> and mm_async_t<2, 4, 8, 16, 3, TA, TB>. vecA / vecB: the
// operand's stored rows (K or M floats for A, N or K for B) 16-byte aligned (mm_tiled_t reads neither).
//
// Every kernel keeps each operand's slab in shared memory K-major (Xs[k][x], x a row of A or a column
// of B), which is what the compute loops read (mm_stage_fma). What changes is the slab's load:
//   K-major in memory (A transposed, B as is): a slab row is a piece of a row in memory: copied as
//     it is, 16 bytes at a time (vec: the stored rows 16-byte aligned), rows of X floats;
//   X-major in memory (A as is, B transposed): a slab row is a column in memory: 16 bytes along k
//     stored as 4 rows of the slab (warptile_db16's A: 2-way, see SlabRegs), or 4-byte cp.async of
//     8 k x 4 x a warp (async's A: 32 banks), into rows of X + 4 floats.
// A transposed A is thus the easy case (B's load), a transposed B the hard one (A's load).

// One operand's BX x BK slab through registers (warptile_t): N4 16-byte pieces a thread.
// KMAJOR: piece f is k row f / (BX/4), x quad f % (BX/4) (as warptile_body's B); else x row f / (BK/4),
// k quad f % (BK/4) (as its A: 8 rows x 4 quads a warp at BK = 16), whose transposed stores are 2-way
// (quads 0 and 2 on the same banks). mm_pack's pairing (16 rows x 2 quads a warp, no conflict) was
// slower here, as it was for warptile_db16's A (docs/library.md has both measurements).
template <int BX, int BK, int NT, bool KMAJOR>
struct SlabRegs {
    static constexpr int N4 = BX * BK / 4 / NT;
    static constexpr int LD = KMAJOR ? BX : BX + 4;  // + 4: see the transposed stores below
    static_assert(N4 >= 1 && N4 * NT * 4 == BX * BK, "slab too small for the threads");
    // X-major: thread x row xrow() + i * XSTEP, k quad kquad() (f / Q and f % Q, as warptile_body's A;
    // written this way, NVRTC allocates the tt kernel's registers better: docs/library.md)
    static constexpr int Q = BK / 4, XSTEP = NT / Q;
    static_assert(KMAJOR || NT % Q == 0, "x rows do not divide");
    __device__ __forceinline__ static int xrow() { return threadIdx.x / Q; }
    __device__ __forceinline__ static int kquad() { return (threadIdx.x % Q) * 4; }

    // X: the operand as stored, D its extent along x (M or N), K along k; the slab at (x0, k0)
    __device__ __forceinline__ static void load(float4 (&r)[N4], const float* __restrict__ X, int D, int K, int x0, int k0,
                                                int vec) {
#pragma unroll
        for (int i = 0; i < N4; ++i) {
            const int f = threadIdx.x + i * NT;
            if (KMAJOR) r[i] = load4_guard(X, k0 + f / (BX / 4), x0 + (f % (BX / 4)) * 4, K, D, D, vec);
            else r[i] = load4_guard(X, x0 + xrow() + i * XSTEP, k0 + kquad(), D, K, K, vec);
        }
    }

    __device__ __forceinline__ static void store(float* __restrict__ Xs, const float4 (&r)[N4]) {
#pragma unroll
        for (int i = 0; i < N4; ++i) {
            const int f = threadIdx.x + i * NT;
            if (KMAJOR) {
                *reinterpret_cast<float4*>(&Xs[(f / (BX / 4)) * LD + (f % (BX / 4)) * 4]) = r[i];
            } else {
                float* d = &Xs[kquad() * LD + xrow() + i * XSTEP];
                d[0] = r[i].x;
                d[LD] = r[i].y;
                d[2 * LD] = r[i].z;
                d[3 * LD] = r[i].w;
            }
        }
    }
};

// warptile_db16 with A stored transposed (TA) and/or B (TB): the same warps, double buffering and
// fragments (mm_stage_fma reads what warptile_body's loop reads), the slabs loaded by SlabRegs.
template <int BK, bool TA, bool TB>
__global__ void __launch_bounds__(256, 2) mm_warptile_t(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                                int M, int N, int K, int vecA, int vecB, int vecC) {
    constexpr int BM = 128, BN = 128, NT = 256;
    using SA = SlabRegs<BM, BK, NT, TA>;
    using SB = SlabRegs<BN, BK, NT, !TB>;
    constexpr int LDA = SA::LD, LDB = SB::LD;
    __shared__ __align__(16) float As[2][BK * LDA];
    __shared__ __align__(16) float Bs[2][BK * LDB];

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int am = (warp >> 2) * 64 + (lane >> 2) * 4, bnn = (warp & 3) * 32 + (lane & 3) * 4;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    float4 ra[SA::N4], rb[SB::N4];
    SA::load(ra, A, M, K, bm, 0, vecA);
    SB::load(rb, B, N, K, bn, 0, vecB);
    SA::store(As[0], ra);
    SB::store(Bs[0], rb);
    __syncthreads();
    int buf = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool more = k0 + BK < K;
        if (more) {  // in flight while this slab is multiplied
            SA::load(ra, A, M, K, bm, k0 + BK, vecA);
            SB::load(rb, B, N, K, bn, k0 + BK, vecB);
        }
        mm_stage_fma<BK, LDA, LDB, 8>(As[buf], Bs[buf], am, bnn, acc);
        if (more) {
            SA::store(As[buf ^ 1], ra);
            SB::store(Bs[buf ^ 1], rb);
        }
        __syncthreads();
        buf ^= 1;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {  // as warptile_body's (mm_epilogue would carry split-K's code, never run here)
        const int r = bm + am + (i >> 2) * 32 + (i & 3);
#pragma unroll
        for (int j = 0; j < 2; ++j)
            store4_guard(C, r, bn + bnn + j * 16, M, N, N, vecC,
                         make_float4(acc[i][j * 4], acc[i][j * 4 + 1], acc[i][j * 4 + 2], acc[i][j * 4 + 3]));
    }
}

// One operand's slab copied by cp.async (async_t). KMAJOR: 16-byte copies, thread k rows kr + i*STEP
// (as MmTile's B); else 4-byte copies, 8 k x 4 x a warp, thread x rows xr + i*STEP (as MmTile's A):
// destination 4k + x over 32 banks with rows of X + 4 floats.
template <int BX, int BK, int NT, bool KMAJOR>
struct SlabCopy {
    static constexpr int LD = KMAJOR ? BX : BX + 4;
    static constexpr int NW = NT / 32, KG = BK / 8;
    static constexpr int COPIES = KMAJOR ? BK * BX / 4 / NT : BX / 4 * KG / NW;
    static constexpr int STEP = KMAJOR ? NT / (BX / 4) : NW / KG * 4;
    static_assert(KMAJOR ? COPIES * NT * 4 == BK * BX : (BK % 8 == 0 && NW % KG == 0 && COPIES * NW == BX / 4 * KG),
                  "the copies do not divide");
    int xr, kk;  // KMAJOR: k row and x column of the first piece; else x row and k

    __device__ __forceinline__ SlabCopy() {
        const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
        if (KMAJOR) {
            kk = tid / (BX / 4);
            xr = (tid % (BX / 4)) * 4;
        } else {
            xr = (warp / KG) * 4 + (lane >> 3);
            kk = (warp % KG) * 8 + (lane & 7);
        }
    }

    // the slab at (x0, k0) of X (extent D along x, K along k, k read below kend); full: x0 + BX <= D
    __device__ __forceinline__ void copy(float* __restrict__ Xs, const float* __restrict__ X, int D, int K, int kend, int x0,
                                         int k0, int vec, bool full) const {
        const bool kfull = k0 + BK <= kend;
        if (KMAJOR) {
            const int gx = x0 + xr;
#pragma unroll
            for (int i = 0; i < COPIES; ++i) {
                const int gk = k0 + kk + i * STEP;
                float* dst = &Xs[(kk + i * STEP) * LD + xr];
                const float* src = X + static_cast<u64>(gk) * D + gx;
                if (kfull && full) {
                    if (vec) {
                        cp_async16(dst, src, 16);
                    } else {  // rows not 16-byte aligned: four 4-byte copies
#pragma unroll
                        for (int e = 0; e < 4; ++e) cp_async4(dst + e, src + e, 4);
                    }
                } else if (vec) {  // D % 4 == 0: the four are inside together or not at all
                    const bool in = gk < kend && gx < D;
                    cp_async16(dst, in ? src : X, in ? 16 : 0);
                } else {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const bool in = gk < kend && gx + e < D;
                        cp_async4(dst + e, in ? src + e : X, in ? 4 : 0);
                    }
                }
            }
        } else {
            const int gk = k0 + kk;
#pragma unroll
            for (int i = 0; i < COPIES; ++i) {
                const int gx = x0 + xr + i * STEP;
                const bool in = (kfull && full) || (gx < D && gk < kend);
                cp_async4(&Xs[kk * LD + xr + i * STEP], in ? X + static_cast<u64>(gx) * K + gk : X, in ? 4 : 0);
            }
        }
    }
};

// mm_async's pipeline (mm_fast_body with ASYNC) with the slabs copied by SlabCopy; split-K as there.
template <int WM, int WN, int TN, int BK, int STAGES, bool TA, bool TB>
__global__ void __launch_bounds__(32 * WM * WN, 2) mm_async_t(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                                             int N, int K, int vecA, int vecB, int vecC, float* __restrict__ ws,
                                             unsigned* __restrict__ counters) {
    constexpr int BM = 64 * WM, BN = 4 * TN * WN, NT = 32 * WM * WN;
    using CA = SlabCopy<BM, BK, NT, TA>;
    using CB = SlabCopy<BN, BK, NT, !TB>;
    constexpr int LDA = CA::LD, LDB = CB::LD, STAGE = BK * (LDA + LDB);  // ops/matmul's dynamic_smem
    extern __shared__ __align__(16) float mm_smem[];

    const CA ca;
    const CB cb;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int ly = (lane & 1) | ((lane >> 3) << 1), lx = (lane >> 1) & 3;  // as mm_fast_body
    const int am = (warp / WN) * 64 + ly * 4, bnn = (warp % WN) * 4 * TN + lx * 4;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
    const bool fullM = bm + BM <= M, fullN = bn + BN <= N;

    const int slabs = (K + BK - 1) / BK, per = (slabs + gridDim.z - 1) / gridDim.z;
    const int kbeg = blockIdx.z * per * BK, kend = min(K, kbeg + per * BK);
    const int nt = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;

    float acc[8][TN];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < nt) {
            float* st = mm_smem + s * STAGE;
            ca.copy(st, A, M, K, kend, bm, kbeg + s * BK, vecA, fullM);
            cb.copy(st + BK * LDA, B, N, K, kend, bn, kbeg + s * BK, vecB, fullN);
        }
        cp_async_commit();  // empty groups too: group t is always slab t
    }
    int read = 0, write = STAGES - 1;
    for (int t = 0; t < nt; ++t) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (t + STAGES - 1 < nt) {
            float* st = mm_smem + write * STAGE;
            ca.copy(st, A, M, K, kend, bm, kbeg + (t + STAGES - 1) * BK, vecA, fullM);
            cb.copy(st + BK * LDA, B, N, K, kend, bn, kbeg + (t + STAGES - 1) * BK, vecB, fullN);
        }
        cp_async_commit();
        const float* st = mm_smem + read * STAGE;
        mm_stage_fma<BK, LDA, LDB, TN>(st, st + BK * LDA, am, bnn, acc);
        read = read + 1 == STAGES ? 0 : read + 1;
        write = write + 1 == STAGES ? 0 : write + 1;
    }
    mm_epilogue<BM, BN, NT, TN>(acc, C, M, N, vecC, bm + am, bn + bnn, ws, counters);
}

// The 32x32 tiles, both slabs K-major (As[k][m], Bs[k][n]; mm_tiled keeps A's M-major): every global
// read walks along the stored rows (lane tx), an operand stored X-major is stored transposed into
// rows of 33 floats (lane tx down a column: 32 banks), and the loop reads As[k][ty] (one word a warp)
// and Bs[k][tx] (32 banks).
template <bool TA, bool TB>
__global__ void __launch_bounds__(1024) mm_tiled_t(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                                             int N, int K, int vecA, int vecB, int vecC) {
    __shared__ float As[32][33];
    __shared__ float Bs[32][33];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int bm = blockIdx.y * 32, bn = blockIdx.x * 32;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += 32) {
        if (TA) As[ty][tx] = (k0 + ty < K && bm + tx < M) ? A[static_cast<u64>(k0 + ty) * M + bm + tx] : 0.f;
        else As[tx][ty] = (bm + ty < M && k0 + tx < K) ? A[static_cast<u64>(bm + ty) * K + k0 + tx] : 0.f;
        if (TB) Bs[tx][ty] = (bn + ty < N && k0 + tx < K) ? B[static_cast<u64>(bn + ty) * K + k0 + tx] : 0.f;
        else Bs[ty][tx] = (k0 + ty < K && bn + tx < N) ? B[static_cast<u64>(k0 + ty) * N + bn + tx] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 32; ++k) acc = fmaf(As[k][ty], Bs[k][tx], acc);
        __syncthreads();
    }
    if (bm + ty < M && bn + tx < N) C[static_cast<u64>(bm + ty) * N + bn + tx] = acc;
}
