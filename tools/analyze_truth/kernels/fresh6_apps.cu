// The sixth held-out batch, part 2: shared-memory layouts of GEMM and attention code (XOR-swizzled fp16 tiles,
// ldmatrix + mma.sync through inline PTX, M-major staging, an online-softmax attention tile) and the data layouts
// of modern C++ code (particles as a 20-byte struct, float4 and structure of arrays, float/int unions for radix
// keys, bitfields, half2 and bf16x2 vectors, uchar4 images, double2 complex, 64-bit atomics and CAS loops,
// templated grid-stride loops). Written for smemlab's truth fixture, before their first recording; compiled by nvcc.
#include "fresh6_common.cuh"

// ---------------------------------------------------------------------------------------------------------------
// transpose of a half matrix by 64x64 tiles: rows written into an XOR-swizzled tile with uint4 stores, read back
// a half2 of two adjacent columns from two adjacent rows, stored transposed as half2 pairs
extern "C" __global__ void __launch_bounds__(128) transpose_f16_swizzled(half *__restrict__ out, const half *__restrict__ in,
                                                                       int rows, int cols)
{
    __shared__ __align__(16) half tile[64 * 64];
    const int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64;
#pragma unroll
    for (int it = 0; it < 4; ++it) {
        const int idx = it * 128 + threadIdx.x;
        const int r = idx >> 3, ch = idx & 7;
        const uint4 v = *reinterpret_cast<const uint4 *>(in + (size_t)(r0 + r) * cols + c0 + ch * 8);
        *reinterpret_cast<uint4 *>(&tile[f6_swz_offset(r, ch * 8)]) = v;
    }
    __syncthreads();
#pragma unroll
    for (int it = 0; it < 8; ++it) {
        const int q = it * 128 + threadIdx.x;
        const int rp = q & 31, cp = q >> 5;  // a pair of rows, a pair of columns
        const half2 a = *reinterpret_cast<const half2 *>(&tile[f6_swz_offset(2 * rp, 2 * cp)]);
        const half2 b = *reinterpret_cast<const half2 *>(&tile[f6_swz_offset(2 * rp + 1, 2 * cp)]);
        half2 *o0 = reinterpret_cast<half2 *>(out + (size_t)(c0 + 2 * cp) * rows + r0 + 2 * rp);
        half2 *o1 = reinterpret_cast<half2 *>(out + (size_t)(c0 + 2 * cp + 1) * rows + r0 + 2 * rp);
        *o0 = __lows2half2(a, b);
        *o1 = __highs2half2(a, b);
    }
}

// a 64 x 32 output block of C = A * B (half in, float out) with mma.sync m16n8k16: A [M,K] staged 64x64 a step in an
// XOR-swizzled tile (uint4 stores) and read by ldmatrix.x4, B [K,32] in a padded row-major tile read by
// ldmatrix.x2.trans; four warps of 16 rows
extern "C" __global__ void __launch_bounds__(128) hgemm_ldmatrix_swizzle(float *__restrict__ C, const half *__restrict__ A,
                                                                       const half *__restrict__ B, int M, int K)
{
    constexpr int N = 32, BPAD = 8;
    __shared__ __align__(16) half As[64 * 64];
    __shared__ __align__(16) half Bs[64][N + BPAD];
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int m0 = blockIdx.x * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 64) {
#pragma unroll
        for (int it = 0; it < 4; ++it) {
            const int idx = it * 128 + tid, r = idx >> 3, ch = idx & 7;
            *reinterpret_cast<uint4 *>(&As[f6_swz_offset(r, ch * 8)]) =
                *reinterpret_cast<const uint4 *>(A + (size_t)(m0 + r) * K + k0 + ch * 8);
        }
#pragma unroll
        for (int it = 0; it < 2; ++it) {
            const int idx = it * 128 + tid, r = idx >> 2, ch = idx & 3;
            *reinterpret_cast<uint4 *>(&Bs[r][ch * 8]) = *reinterpret_cast<const uint4 *>(B + (size_t)(k0 + r) * N + ch * 8);
        }
        __syncthreads();
#pragma unroll
        for (int ks = 0; ks < 4; ++ks) {
            uint32_t a[4];
            f6_ldmatrix_x4(a, &As[f6_swz_offset(warp * 16 + (lane & 15), ks * 16 + (lane >> 4) * 8)]);
#pragma unroll
            for (int nt = 0; nt < 4; ++nt) {
                uint32_t b[2];
                f6_ldmatrix_x2_trans(b, &Bs[ks * 16 + (lane & 15)][nt * 8]);
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                             "{%8, %9}, {%0, %1, %2, %3};\n"
                             : "+f"(acc[nt][0]), "+f"(acc[nt][1]), "+f"(acc[nt][2]), "+f"(acc[nt][3])
                             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
            }
        }
        __syncthreads();
    }
    const int gr = lane >> 2, gc = (lane & 3) * 2;
#pragma unroll
    for (int nt = 0; nt < 4; ++nt) {
        float *c = C + (size_t)(m0 + warp * 16 + gr) * N + nt * 8 + gc;
        *reinterpret_cast<float2 *>(c) = make_float2(acc[nt][0], acc[nt][1]);
        *reinterpret_cast<float2 *>(c + 8 * N) = make_float2(acc[nt][2], acc[nt][3]);
    }
}

// SGEMM with a 32x32 block tile, 64 threads of 4x4 results: A staged transposed (M-major, As[k][m], plus PAD) so
// that the inner loop reads float4 along m, B staged K-major as loaded (float4 stores)
template <int PAD>
__global__ void __launch_bounds__(64) sgemm_mmajor_staging(float *__restrict__ C, const float *__restrict__ A,
                                                           const float *__restrict__ B, int M, int N, int K)
{
    constexpr int BM = 32, BN = 32, BK = 8;
    __shared__ __align__(16) float As[BK][BM + PAD];
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x, tx = tid & 7, ty = tid >> 3;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        {
            const int r = tid >> 1, c = (tid & 1) * 4;
            const float4 a = *reinterpret_cast<const float4 *>(A + (size_t)(m0 + r) * K + k0 + c);
            As[c + 0][r] = a.x;
            As[c + 1][r] = a.y;
            As[c + 2][r] = a.z;
            As[c + 3][r] = a.w;
            const int br = tid >> 3, bc = (tid & 7) * 4;
            *reinterpret_cast<float4 *>(&Bs[br][bc]) = *reinterpret_cast<const float4 *>(B + (size_t)(k0 + br) * N + n0 + bc);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a = *reinterpret_cast<const float4 *>(&As[k][ty * 4]);
            const float4 b = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
            const float av[4] = {a.x, a.y, a.z, a.w}, bv[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
        *reinterpret_cast<float4 *>(C + (size_t)(m0 + ty * 4 + i) * N + n0 + tx * 4) =
            make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}

// one attention head (d = 32) for a block of queries, a thread a query: q and the output accumulator in registers,
// K and V streamed through shared tiles of 32 keys, an online softmax (running max and sum)
extern "C" __global__ void attention_online_softmax(float *__restrict__ O, const float *__restrict__ Q,
                                                    const float *__restrict__ Kmat, const float *__restrict__ V, int nq,
                                                    int nk, float scale)
{
    constexpr int D = 32, KT = 32;
    __shared__ __align__(16) float Ks[KT][D];
    __shared__ __align__(16) float Vs[KT][D];
    const int qi = blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = qi < nq;
    float q[D], o[D];
    if (active) {
#pragma unroll
        for (int d = 0; d < D; d += 4) {
            const float4 v = *reinterpret_cast<const float4 *>(Q + (size_t)qi * D + d);
            q[d] = v.x * scale;
            q[d + 1] = v.y * scale;
            q[d + 2] = v.z * scale;
            q[d + 3] = v.w * scale;
        }
    }
#pragma unroll
    for (int d = 0; d < D; ++d)
        o[d] = 0.f;
    float mrun = -3.0e38f, lrun = 0.f;
    for (int k0 = 0; k0 < nk; k0 += KT) {
        const int kt = min(KT, nk - k0);
        for (int i = threadIdx.x; i < KT * D; i += blockDim.x) {
            const int r = i / D, c = i % D;
            Ks[r][c] = r < kt ? Kmat[(size_t)(k0 + r) * D + c] : 0.f;
            Vs[r][c] = r < kt ? V[(size_t)(k0 + r) * D + c] : 0.f;
        }
        __syncthreads();
        if (active) {
            for (int j = 0; j < kt; ++j) {
                float s = 0.f;
#pragma unroll
                for (int d = 0; d < D; ++d)
                    s += q[d] * Ks[j][d];
                const float mnew = fmaxf(mrun, s);
                const float corr = __expf(mrun - mnew), p = __expf(s - mnew);
                lrun = lrun * corr + p;
#pragma unroll
                for (int d = 0; d < D; ++d)
                    o[d] = o[d] * corr + p * Vs[j][d];
                mrun = mnew;
            }
        }
        __syncthreads();
    }
    if (active) {
        const float inv = 1.f / lrun;
#pragma unroll
        for (int d = 0; d < D; d += 4)
            *reinterpret_cast<float4 *>(O + (size_t)qi * D + d) =
                make_float4(o[d] * inv, o[d + 1] * inv, o[d + 2] * inv, o[d + 3] * inv);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// particle advection with the particles as an array of 20-byte structs (position, mass, cell) and velocities as
// float3: reflect at the unit box, recompute the cell index of a G^3 grid, write the struct back
extern "C" __global__ void advect_particles_aos20(F6Particle *__restrict__ p, float3 *__restrict__ vel, float dt, int n,
                                                  int G)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        F6Particle q = p[i];
        float3 v = vel[i];
        q.x += v.x * dt;
        q.y += v.y * dt;
        q.z += v.z * dt;
        if (q.x < 0.f || q.x > 1.f) { v.x = -v.x; q.x = fminf(fmaxf(q.x, 0.f), 1.f); }
        if (q.y < 0.f || q.y > 1.f) { v.y = -v.y; q.y = fminf(fmaxf(q.y, 0.f), 1.f); }
        if (q.z < 0.f || q.z > 1.f) { v.z = -v.z; q.z = fminf(fmaxf(q.z, 0.f), 1.f); }
        const int cx = min(G - 1, (int)(q.x * G)), cy = min(G - 1, (int)(q.y * G)), cz = min(G - 1, (int)(q.z * G));
        q.cell = (cz * G + cy) * G + cx;
        p[i] = q;
        vel[i] = v;
    }
}

// the same advection with a structure of arrays (six float arrays) and a damping force from the mass array
extern "C" __global__ void advect_particles_soa(float *__restrict__ x, float *__restrict__ y, float *__restrict__ z,
                                                float *__restrict__ vx, float *__restrict__ vy, float *__restrict__ vz,
                                                const float *__restrict__ mass, float dt, float drag, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float k = 1.f - drag * dt / mass[i];
        const float ux = vx[i] * k, uy = vy[i] * k - 9.81f * dt, uz = vz[i] * k;
        x[i] += ux * dt;
        y[i] += uy * dt;
        z[i] += uz * dt;
        vx[i] = ux;
        vy[i] = uy;
        vz[i] = uz;
    }
}

// softened gravity, positions and masses as float4 (x, y, z, m), j-particles in shared tiles of blockDim.x
extern "C" __global__ void nbody_accel_float4(float4 *__restrict__ acc, const float4 *__restrict__ pos, int n, float eps2)
{
    extern __shared__ float4 sh_pos[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 pi = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int t = 0; t < n; t += blockDim.x) {
        const int j = t + threadIdx.x;
        sh_pos[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        __syncthreads();
        const int cnt = min((int)blockDim.x, n - t);
#pragma unroll 4
        for (int k = 0; k < cnt; ++k) {
            const float4 pj = sh_pos[k];
            const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const float r2 = dx * dx + dy * dy + dz * dz + eps2;
            const float inv = rsqrtf(r2);
            const float s = pj.w * inv * inv * inv;
            a.x += dx * s;
            a.y += dy * s;
            a.z += dz * s;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

// ---------------------------------------------------------------------------------------------------------------
// the first pass of an LSD radix sort of floats: each float turned into an order-preserving key through a union,
// the keys written out, the digit at `shift` counted into a shared histogram, merged into the global one
extern "C" __global__ void float_radix_digit_hist(unsigned *__restrict__ hist, unsigned *__restrict__ keys,
                                                  const float *__restrict__ vals, int n, int shift)
{
    __shared__ unsigned counts[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        counts[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const unsigned k = f6_float_to_key(vals[i]);
        keys[i] = k;
        atomicAdd(&counts[(k >> shift) & 255u], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&hist[b], counts[b]);
}

// RGB565 pixels (a bitfield struct) expanded to uchar4 RGBA, and a char4 of signed chroma offsets, 2-D blocks
extern "C" __global__ void rgb565_to_rgba(uchar4 *__restrict__ rgba, char4 *__restrict__ chroma,
                                          const F6Rgb565 *__restrict__ src, int w, int h, int pitch)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const F6Rgb565 px = src[y * pitch + x];
    const unsigned char r = (px.r << 3) | (px.r >> 2), g = (px.g << 2) | (px.g >> 4), b = (px.b << 3) | (px.b >> 2);
    rgba[y * w + x] = make_uchar4(r, g, b, 255);
    const int luma = (77 * r + 150 * g + 29 * b) >> 8;
    chroma[y * w + x] = make_char4((signed char)((r - luma) / 2), (signed char)((g - luma) / 2),
                                   (signed char)((b - luma) / 2), (signed char)(luma >> 1));
}

// a 3x3 box blur of a uchar4 image (pitch in pixels), a 16x16 block with a one-pixel halo staged in shared memory
extern "C" __global__ void box3_uchar4_smem(uchar4 *__restrict__ dst, const uchar4 *__restrict__ src, int w, int h,
                                            int pitch)
{
    constexpr int T = 16;
    __shared__ uchar4 tile[T + 2][T + 2];
    const int x0 = blockIdx.x * T - 1, y0 = blockIdx.y * T - 1;
    for (int i = threadIdx.y * T + threadIdx.x; i < (T + 2) * (T + 2); i += T * T) {
        const int ty = i / (T + 2), tx = i % (T + 2);
        const int gx = min(max(x0 + tx, 0), w - 1), gy = min(max(y0 + ty, 0), h - 1);
        tile[ty][tx] = src[gy * pitch + gx];
    }
    __syncthreads();
    const int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    if (x < w && y < h) {
        int r = 0, g = 0, b = 0, a = 0;
#pragma unroll
        for (int dy = 0; dy < 3; ++dy)
#pragma unroll
            for (int dx = 0; dx < 3; ++dx) {
                const uchar4 p = tile[threadIdx.y + dy][threadIdx.x + dx];
                r += p.x;
                g += p.y;
                b += p.z;
                a += p.w;
            }
        dst[y * pitch + x] = make_uchar4(r / 9, g / 9, b / 9, a / 9);
    }
}

// batched radix-2 FFTs of length N (a power of two) in double2 complex, a block a transform of N/2 threads:
// bit-reversed load into shared, log2(N) butterfly stages with sincospi twiddles
extern "C" __global__ void fft_radix2_double2(double2 *__restrict__ out, const double2 *__restrict__ in, int log2n)
{
    extern __shared__ double2 buf[];
    const int N = 1 << log2n, t = threadIdx.x;
    const double2 *x = in + (size_t)blockIdx.x * N;
    for (int i = t; i < N; i += blockDim.x)
        buf[__brev(i) >> (32 - log2n)] = x[i];
    __syncthreads();
    for (int s = 1; s <= log2n; ++s) {
        const int half = 1 << (s - 1);
        for (int b = t; b < N / 2; b += blockDim.x) {
            const int grp = b / half, k = b % half;
            const int i0 = grp * 2 * half + k, i1 = i0 + half;
            double sn, cs;
            sincospi(-(double)k / half, &sn, &cs);
            const double2 u = buf[i0], v = buf[i1];
            const double2 tw = make_double2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
            buf[i0] = make_double2(u.x + tw.x, u.y + tw.y);
            buf[i1] = make_double2(u.x - tw.x, u.y - tw.y);
        }
        __syncthreads();
    }
    for (int i = t; i < N; i += blockDim.x)
        out[(size_t)blockIdx.x * N + i] = buf[i];
}

// ---------------------------------------------------------------------------------------------------------------
// weighted histogram in 24.8 fixed point with 64-bit global atomics (atomicAdd on unsigned long long, atomicMax on
// long long for the largest weight of a bin)
extern "C" __global__ void weighted_hist_fixed64(unsigned long long *__restrict__ sum, long long *__restrict__ maxw,
                                                 const int *__restrict__ bin, const float *__restrict__ weight, int n,
                                                 int nbins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const int b = bin[i] % nbins;
        const long long fx = llrintf(weight[i] * 256.f);
        atomicAdd(&sum[b], (unsigned long long)fx);
        atomicMax(&maxw[b], fx);
    }
}

// the largest value of each row folded into a running double maximum (rmax, kept across calls) by a
// compare-and-swap loop on its 64-bit pattern; a warp a row, a shuffle reduction first
extern "C" __global__ void row_max_cas_f64(double *__restrict__ rmax, const double *__restrict__ X, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, nwarps = (gridDim.x * blockDim.x) >> 5;
    for (int row = warp; row < rows; row += nwarps) {
        double m = -1.0e300;
        for (int c = lane; c < cols; c += 32)
            m = fmax(m, X[(size_t)row * cols + c]);
#pragma unroll
        for (int o = 16; o; o >>= 1)
            m = fmax(m, __shfl_xor_sync(F6_FULL, m, o));
        if (lane == 0)
            f6_atomic_max_f64(&rmax[row], m);
    }
}

// y = a * x + b * y in a grid-stride loop unrolled by 4, x read through __ldg; templated on the block size and
// the element type
template <int BLOCK, typename T>
__global__ void __launch_bounds__(BLOCK) axpby_gridstride(T *__restrict__ y, const T *__restrict__ x, T a, T b, int n)
{
    const int stride = BLOCK * gridDim.x;
#pragma unroll 4
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride)
        y[i] = a * __ldg(&x[i]) + b * y[i];
}

// GEGLU on bf16 rows [gate | up] of 2H values: out = gelu(gate) * up, two values at a time as __nv_bfloat162
extern "C" __global__ void geglu_bf16x2(__nv_bfloat162 *__restrict__ out, const __nv_bfloat162 *__restrict__ in, int rows,
                                        int H2)
{
    for (int row = blockIdx.y; row < rows; row += gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < H2; j += gridDim.x * blockDim.x) {
            const float2 g = __bfloat1622float2(in[(size_t)row * 2 * H2 + j]);
            const float2 u = __bfloat1622float2(in[(size_t)row * 2 * H2 + H2 + j]);
            const float gx = 0.5f * g.x * (1.f + erff(g.x * 0.70710678f));
            const float gy = 0.5f * g.y * (1.f + erff(g.y * 0.70710678f));
            out[(size_t)row * H2 + j] = __floats2bfloat162_rn(gx * u.x, gy * u.y);
        }
}

// residual + layer scale in half: x += gamma[c] * y, half2 for the pairs and a scalar tail for an odd length
extern "C" __global__ void layer_scale_residual_half2(half *__restrict__ x, const half *__restrict__ y,
                                                      const half *__restrict__ gamma, int rows, int C)
{
    const int pairs = C / 2;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        half *xr = x + (size_t)row * C;
        const half *yr = y + (size_t)row * C;
        if ((C & 1) == 0) {
            half2 *x2 = reinterpret_cast<half2 *>(xr);
            const half2 *y2 = reinterpret_cast<const half2 *>(yr);
            const half2 *g2 = reinterpret_cast<const half2 *>(gamma);
            for (int j = threadIdx.x; j < pairs; j += blockDim.x)
                x2[j] = __hfma2(g2[j], y2[j], x2[j]);
        } else {
            for (int j = threadIdx.x; j < pairs; j += blockDim.x) {
                const half2 xv = __halves2half2(xr[2 * j], xr[2 * j + 1]);
                const half2 yv = __halves2half2(yr[2 * j], yr[2 * j + 1]);
                const half2 r = __hfma2(__halves2half2(gamma[2 * j], gamma[2 * j + 1]), yv, xv);
                xr[2 * j] = __low2half(r);
                xr[2 * j + 1] = __high2half(r);
            }
            if (threadIdx.x == 0)
                xr[C - 1] = __hfma(gamma[C - 1], yr[C - 1], xr[C - 1]);
        }
    }
}
