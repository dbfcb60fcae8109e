// smemlab.ops.stencil1d: out[i] = sum_k coef[k] * x[i + k - R], k = 0..2*R, with x
// taken as 0 outside [0, n) (zero-padded 'same' output, like
// cupyx.scipy.ndimage.correlate1d(x, coef, mode='constant', cval=0)).
//
// The radius R is a template parameter (one instance a radius, 0 to MAX_RADIUS). The coefficients live in
// constant memory, a kernel parameter (stencil1d_f32_p, the op's) or the __constant__ array c_coef
// (stencil1d_f32, written by the host between launches: what the sweeps time and the truth fixture
// records): every thread of a warp reads the same coefficient at the same time, which the constant
// cache serves as a broadcast; with R a compile-time constant the taps unroll and the coefficient
// becomes an operand of the FFMA itself (c[0x3][...]).
//
// One tile of TILE = 256 x PER x 4 floats per block (grid-stride over tiles): the block loads the
// tile plus a halo of H = R rounded up to 4 on each side into shared memory with 16-byte
// loads (PER per thread in flight), then each thread computes PER groups of 4 consecutive
// outputs from a register window of 4 + 2H floats read as 16-byte shared loads (consecutive lanes
// read consecutive 16-byte chunks: no bank conflicts), and stores them with 16-byte stores.
// Chunks that straddle the array's end, or an input that is not 16-byte aligned, take the
// element-by-element path. 64-bit indexing.
#ifndef PER
#define PER 4
#endif
#define NT 256
#define TILE (NT * PER * 4)
#define MAX_RADIUS 32

typedef long long i64;

__constant__ float c_coef[2 * MAX_RADIUS + 1];  // stencil1d_f32<R> reads the first 2R + 1

__device__ __forceinline__ float4 load4(const float *__restrict__ x, i64 i, i64 n, bool aligned)
{
    if (aligned && i >= 0 && i + 3 < n) return __ldg(reinterpret_cast<const float4 *>(x + i));
    float4 v;
    v.x = (i + 0 >= 0 && i + 0 < n) ? x[i + 0] : 0.f;
    v.y = (i + 1 >= 0 && i + 1 < n) ? x[i + 1] : 0.f;
    v.z = (i + 2 >= 0 && i + 2 < n) ? x[i + 2] : 0.f;
    v.w = (i + 3 >= 0 && i + 3 < n) ? x[i + 3] : 0.f;
    return v;
}

// The coefficients as a kernel parameter: parameters live in constant bank 0, so the taps read them
// as the FFMA's constant operand just as they read c_coef, but they travel with the launch. A CUDA
// graph captures them with the kernel node, calls on several streams share no symbol, and no copy
// into c_coef (which capture cannot order against uncaptured work) precedes the launch.
template <int R>
struct Coef {
    float c[2 * R + 1];
};

// C: anything indexable by the tap k (c_coef, or a Coef's array). H: the halo, R rounded up to 4 floats;
// W4: the 16-byte chunks of a thread's window of 4 + 2H floats
template <int R, typename C>
__device__ __forceinline__ void stencil_body(float *__restrict__ out, const float *__restrict__ x, i64 n, int aligned,
                                             const C &coef)
{
    constexpr int H = (R + 3) / 4 * 4, W4 = (4 + 2 * H) / 4;
    __shared__ float4 s[(TILE + 2 * H) / 4];
    const bool al = aligned != 0;
    const i64 ntiles = (n + TILE - 1) / TILE;
    for (i64 tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
        const i64 base = tile * TILE;
        float4 v[PER];
#pragma unroll
        for (int p = 0; p < PER; ++p) v[p] = load4(x, base + 4 * (threadIdx.x + p * NT), n, al);
        if (threadIdx.x < 2 * (H / 4)) {  // halo chunks: left ones first, then right ones
            const int q = threadIdx.x;
            const int slot = q < H / 4 ? q : (H + TILE) / 4 + (q - H / 4);
            const i64 gi = q < H / 4 ? base - H + 4 * q : base + TILE + 4 * (q - H / 4);
            s[slot] = load4(x, gi, n, al);
        }
#pragma unroll
        for (int p = 0; p < PER; ++p) s[H / 4 + threadIdx.x + p * NT] = v[p];
        __syncthreads();
#pragma unroll
        for (int p = 0; p < PER; ++p) {
            const int q = threadIdx.x + p * NT;  // output chunk in the tile: outputs base + 4q .. +3
            float w[4 * W4];
#pragma unroll
            for (int j = 0; j < W4; ++j) {
                const float4 c = s[q + j];  // floats x[base + 4q - H + 4j ...]
                w[4 * j] = c.x, w[4 * j + 1] = c.y, w[4 * j + 2] = c.z, w[4 * j + 3] = c.w;
            }
            float r[4];
#pragma unroll
            for (int m = 0; m < 4; ++m) {
                float acc = 0.f;
#pragma unroll
                for (int k = 0; k < 2 * R + 1; ++k) acc = fmaf(coef[k], w[H - R + m + k], acc);
                r[m] = acc;
            }
            const i64 o = base + 4 * q;
            if (o + 3 < n) {
                *reinterpret_cast<float4 *>(out + o) = make_float4(r[0], r[1], r[2], r[3]);
            } else {
#pragma unroll
                for (int m = 0; m < 4; ++m)
                    if (o + m < n) out[o + m] = r[m];
            }
        }
        __syncthreads();  // the tile is rewritten by the next iteration
    }
}

template <int R>
__global__ void __launch_bounds__(NT) stencil1d_f32(float *__restrict__ out, const float *__restrict__ x, i64 n, int aligned)
{
    stencil_body<R>(out, x, n, aligned, c_coef);
}

// The library's kernel (ops/stencil): the coefficients by value, see Coef
template <int R>
__global__ void __launch_bounds__(NT) stencil1d_f32_p(float *__restrict__ out, const float *__restrict__ x, i64 n,
                                                      int aligned, const Coef<R> coef)
{
    stencil_body<R>(out, x, n, aligned, coef.c);
}
