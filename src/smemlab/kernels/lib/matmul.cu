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
