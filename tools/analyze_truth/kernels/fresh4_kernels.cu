// The fourth held-out batch, part 1: machine-learning kernels as CUDA repositories write them (llm.c-style
// layernorm and softmax, fused bias+GELU, causal attention scores, rotary embeddings, embedding backward with
// integer atomics, argmax, depthwise 1-D convolutions, im2col, batched small GEMMs, column sums, a templated 3-D
// permute). Written for smemlab's truth fixture, before their first recording.
#include "fresh4_common.cuh"

#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

// layernorm forward, a warp a row of C floats (C a multiple of 4), float4 loads, two passes over the row
extern "C" __global__ void layernorm_fwd_warp(float *__restrict__ out, float *__restrict__ mean, float *__restrict__ rstd,
                                              const float *__restrict__ inp, const float *__restrict__ weight,
                                              const float *__restrict__ bias, int N, int C)
{
    const int lane = threadIdx.x % 32;
    const int warps = blockDim.x / 32;
    const int C4 = C / 4;
    for (int row = blockIdx.x * warps + threadIdx.x / 32; row < N; row += gridDim.x * warps) {
        const float4 *x = reinterpret_cast<const float4 *>(inp + (size_t)row * C);
        float s = 0.0f;
        for (int i = lane; i < C4; i += 32) {
            float4 v = x[i];
            s += v.x + v.y + v.z + v.w;
        }
        float m = f4_warp_sum(s) / C;
        float ss = 0.0f;
        for (int i = lane; i < C4; i += 32) {
            float4 v = x[i];
            float a = v.x - m, b = v.y - m, c = v.z - m, d = v.w - m;
            ss += a * a + b * b + c * c + d * d;
        }
        float r = rsqrtf(f4_warp_sum(ss) / C + 1e-5f);
        if (lane == 0) {
            mean[row] = m;
            rstd[row] = r;
        }
        float4 *o = reinterpret_cast<float4 *>(out + (size_t)row * C);
        const float4 *w4 = reinterpret_cast<const float4 *>(weight);
        const float4 *b4 = reinterpret_cast<const float4 *>(bias);
        for (int i = lane; i < C4; i += 32) {
            float4 v = __ldcs(x + i);
            float4 w = w4[i], b = b4[i];
            o[i] = make_float4((v.x - m) * r * w.x + b.x, (v.y - m) * r * w.y + b.y, (v.z - m) * r * w.z + b.z,
                               (v.w - m) * r * w.w + b.w);
        }
    }
}

// softmax forward with an online max and sum (one pass for the statistics), a warp a row; the row picked by
// threadIdx.y of a (32, 8) block
extern "C" __global__ void softmax_online_fwd(float *out, const float *inp, int N, int C)
{
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= N)
        return;
    const float *x = inp + row * C;
    float maxval = -INFINITY, sum = 0.0f;
    for (int i = threadIdx.x; i < C; i += 32) {
        float v = x[i];
        if (v > maxval) {
            sum *= expf(maxval - v);
            maxval = v;
        }
        sum += expf(v - maxval);
    }
    for (int o = 16; o > 0; o >>= 1) {
        float om = __shfl_xor_sync(F4_FULL, maxval, o);
        float os = __shfl_xor_sync(F4_FULL, sum, o);
        float nm = fmaxf(maxval, om);
        sum = sum * expf(maxval - nm) + os * expf(om - nm);
        maxval = nm;
    }
    float inv = 1.0f / sum;
    for (int i = threadIdx.x; i < C; i += 32)
        out[row * C + i] = expf(x[i] - maxval) * inv;
}

// fused bias add and GELU on a (rows, C) activation, a 2-D block (64, 4): x by column, y by row
extern "C" __global__ void bias_gelu_fwd(float *__restrict__ out, const float *__restrict__ inp,
                                         const float *__restrict__ bias, int rows, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y) {
        if (c < C)
            out[r * C + c] = f4_gelu_tanh(inp[r * C + c] + __ldg(bias + c));
    }
}

// attention scores of one head: S = scale * Q K^T with a causal mask, 16x16 tiles of Q and K in shared memory;
// q and k rows of `hs` floats at a row stride `ld` (the fused qkv buffer's 3*C)
#define ATT_TILE 16
extern "C" __global__ void attn_scores_causal(float *__restrict__ att, const float *__restrict__ q,
                                              const float *__restrict__ k, int T, int hs, int ld, float scale)
{
    __shared__ float qs[ATT_TILE][ATT_TILE];
    __shared__ float ks[ATT_TILE][ATT_TILE + 1];
    for (int tq = 0; tq < T; tq += ATT_TILE) {
        for (int tk = 0; tk < T; tk += ATT_TILE) {
            int t1 = tq + threadIdx.y, t2 = tk + threadIdx.x;
            if (tk > tq + ATT_TILE - 1) {  // the whole tile is masked
                if (t1 < T && t2 < T)
                    att[t1 * T + t2] = -INFINITY;
                continue;
            }
            float acc = 0.0f;
            for (int d0 = 0; d0 < hs; d0 += ATT_TILE) {
                int d = d0 + threadIdx.x;
                qs[threadIdx.y][threadIdx.x] = (t1 < T && d < hs) ? q[t1 * ld + d] : 0.0f;
                int kr = tk + threadIdx.y;
                ks[threadIdx.y][threadIdx.x] = (kr < T && d < hs) ? k[kr * ld + d] : 0.0f;
                __syncthreads();
#pragma unroll
                for (int i = 0; i < ATT_TILE; i++)
                    acc += qs[threadIdx.y][i] * ks[threadIdx.x][i];
                __syncthreads();
            }
            if (t1 < T && t2 < T)
                att[t1 * T + t2] = t2 <= t1 ? acc * scale : -INFINITY;
        }
    }
}

// rotary position embedding on x[seq][heads][dim] in place: a block a position (blockIdx.x), threadIdx.x over the
// dim/2 pairs (first half with second half, the GPT-NeoX form), threadIdx.y over heads
extern "C" __global__ void rope_neox(float *x, const float *__restrict__ cos_t, const float *__restrict__ sin_t,
                                     int seq, int heads, int dim)
{
    int pos = blockIdx.x;
    int half = dim / 2;
    for (int h = threadIdx.y; h < heads; h += blockDim.y) {
        float *v = x + ((size_t)pos * heads + h) * dim;
        for (int i = threadIdx.x; i < half; i += blockDim.x) {
            float c = cos_t[pos * half + i], s = sin_t[pos * half + i];
            float a = v[i], b = v[i + half];
            v[i] = a * c - b * s;
            v[i + half] = a * s + b * c;
        }
    }
}

// rotary embedding, the interleaved (GPT-J) form on float2 pairs, a 2-D grid (pos, head-group)
extern "C" __global__ void rope_interleaved_f2(float2 *x, const float *__restrict__ inv_freq, int seq, int heads, int dim)
{
    int pos = blockIdx.x;
    int h = blockIdx.y * blockDim.y + threadIdx.y;
    int i = threadIdx.x;
    if (h >= heads || i >= dim / 2)
        return;
    float ang = pos * inv_freq[i];
    float s, c;
    sincosf(ang, &s, &c);
    float2 *p = x + ((size_t)pos * heads + h) * (dim / 2) + i;
    float2 v = *p;
    *p = make_float2(v.x * c - v.y * s, v.x * s + v.y * c);
}

// embedding backward: dwte[tok] += dout[b,t] for every token, in 16.16 fixed point with integer atomics (order-
// independent); a warp a token, lanes over channels
extern "C" __global__ void embedding_bwd_fixed(int *__restrict__ dwte_fx, const float *__restrict__ dout,
                                               const int *__restrict__ tokens, int BT, int C)
{
    int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (int t = blockIdx.x * warps + threadIdx.x / 32; t < BT; t += warps * gridDim.x) {
        int tok = tokens[t];
        const float *g = dout + (size_t)t * C;
        int *row = dwte_fx + (size_t)tok * C;
        for (int c = lane; c < C; c += 32)
            atomicAdd(row + c, __float2int_rn(g[c] * 65536.0f));
    }
}

// argmax of each row (logits -> predicted token), a warp a row
extern "C" __global__ void argmax_rows(int *__restrict__ idx_out, float *__restrict__ val_out,
                                       const float *__restrict__ logits, int rows, int V)
{
    int warps = blockDim.x >> 5, lane = threadIdx.x & 31;
    for (int r = threadIdx.x >> 5; r < rows; r += warps) {
        float best = -INFINITY;
        int bi = 0x7fffffff;
        for (int i = lane; i < V; i += 32) {
            float v = logits[(size_t)r * V + i];
            if (v > best) {
                best = v;
                bi = i;
            }
        }
        f4_warp_argmax(best, bi);
        if (lane == 0) {
            idx_out[r] = bi;
            val_out[r] = best;
        }
    }
}

// depthwise 1-D convolution over time, channels-last x[T][C] (a thread a channel, coalesced over C), zero padding
template <int K>
__global__ void dwconv1d_cl(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ w,
                            const float *__restrict__ b, int T, int C)
{
    for (int idx = threadIdx.x; idx < T * C; idx += blockDim.x) {
        int t = idx / C, c = idx % C;
        float acc = b[c];
#pragma unroll
        for (int j = 0; j < K; j++) {
            int tt = t + j - K / 2;
            if (tt >= 0 && tt < T)
                acc += w[c * K + j] * x[tt * C + c];
        }
        y[idx] = acc;
    }
}

// the same convolution channels-first x[C][T], the row of a channel staged in shared with its halo
template <int K>
__global__ void dwconv1d_cf(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ w,
                            int T, int C)
{
    extern __shared__ float row[];  // T + K - 1
    for (int c = 0; c < C; c++) {
        for (int i = threadIdx.x; i < T + K - 1; i += blockDim.x) {
            int t = i - K / 2;
            row[i] = (t >= 0 && t < T) ? x[c * T + t] : 0.0f;
        }
        __syncthreads();
        for (int t = threadIdx.x; t < T; t += blockDim.x) {
            float acc = 0.0f;
#pragma unroll
            for (int j = 0; j < K; j++)
                acc += w[c * K + j] * row[t + j];
            y[c * T + t] = acc;
        }
        __syncthreads();
    }
}
template __global__ void dwconv1d_cl<3>(float *, const float *, const float *, const float *, int, int);
template __global__ void dwconv1d_cl<7>(float *, const float *, const float *, const float *, int, int);
template __global__ void dwconv1d_cf<5>(float *, const float *, const float *, int, int);
template __global__ void dwconv1d_cf<7>(float *, const float *, const float *, int, int);

// im2col for a 3x3 convolution, stride 1, padding 1: col[(c*9 + ky*3 + kx)][y*W + x]
extern "C" __global__ void im2col_3x3(float *__restrict__ col, const float *__restrict__ img, int C, int H, int W)
{
    int HW = H * W;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < C * HW; i += blockDim.x * gridDim.x) {
        int c = i / HW, p = i % HW, y = p / W, x = p % W;
        float *dst = col + (size_t)c * 9 * HW + p;
        const float *src = img + (size_t)c * HW;
#pragma unroll
        for (int ky = 0; ky < 3; ky++)
#pragma unroll
            for (int kx = 0; kx < 3; kx++) {
                int yy = y + ky - 1, xx = x + kx - 1;
                dst[(ky * 3 + kx) * HW] = (yy >= 0 && yy < H && xx >= 0 && xx < W) ? src[yy * W + xx] : 0.0f;
            }
    }
}

// batched 4x4 GEMM, a thread a product: C = A B, each matrix 16 floats read as four float4 rows
extern "C" __global__ void batched_gemm4x4(float4 *__restrict__ Cm, const float4 *__restrict__ Am,
                                           const float4 *__restrict__ Bm, int batch)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= batch)
        return;
    float4 b[4];
#pragma unroll
    for (int r = 0; r < 4; r++)
        b[r] = Bm[i * 4 + r];
#pragma unroll
    for (int r = 0; r < 4; r++) {
        float4 a = Am[i * 4 + r];
        float4 c;
        c.x = a.x * b[0].x + a.y * b[1].x + a.z * b[2].x + a.w * b[3].x;
        c.y = a.x * b[0].y + a.y * b[1].y + a.z * b[2].y + a.w * b[3].y;
        c.z = a.x * b[0].z + a.y * b[1].z + a.z * b[2].z + a.w * b[3].z;
        c.w = a.x * b[0].w + a.y * b[1].w + a.z * b[2].w + a.w * b[3].w;
        Cm[i * 4 + r] = c;
    }
}

// batched 8x8 GEMM, a warp a product: lane owns C[lane/4][2*(lane%4) .. +1]; A's row and B's two columns read
// straight from global memory, the pair stored as a float2
extern "C" __global__ void batched_gemm8x8_warp(float *__restrict__ Cm, const float *__restrict__ Am,
                                                const float *__restrict__ Bm, int batch)
{
    int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (int m = threadIdx.x / 32; m < batch; m += warps) {
        const float *A = Am + m * 64, *B = Bm + m * 64;
        int r = lane / 4, c = 2 * (lane % 4);
        float c0 = 0.0f, c1 = 0.0f;
#pragma unroll
        for (int k = 0; k < 8; k++) {
            float a = A[r * 8 + k];
            c0 += a * B[k * 8 + c];
            c1 += a * B[k * 8 + c + 1];
        }
        reinterpret_cast<float2 *>(Cm + m * 64)[lane] = make_float2(c0, c1);
    }
}

// column sums of a row-major (rows, cols) matrix. The first try: a warp a column, lanes down the rows
// (each load a lane a row: uncoalesced)
extern "C" __global__ void colsum_warp_per_col(float *__restrict__ out, const float *__restrict__ A, int rows, int cols)
{
    int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (int c = threadIdx.x / 32; c < cols; c += warps) {
        float s = 0.0f;
        for (int r = lane; r < rows; r += 32)
            s += A[r * cols + c];
        s = f4_warp_sum(s);
        if (lane == 0)
            out[c] = s;
    }
}

// the fix: a (32, 8) block, x along the columns (coalesced), y down the rows, partial sums reduced in shared
extern "C" __global__ void colsum_tiled(float *__restrict__ out, const float *__restrict__ A, int rows, int cols)
{
    __shared__ float part[8][33];
    for (int c0 = 0; c0 < cols; c0 += 32) {
        int c = c0 + threadIdx.x;
        float s = 0.0f;
        if (c < cols)
            for (int r = threadIdx.y; r < rows; r += blockDim.y)
                s += A[r * cols + c];
        part[threadIdx.y][threadIdx.x] = s;
        __syncthreads();
        if (threadIdx.y == 0 && c < cols) {
            float t = 0.0f;
#pragma unroll
            for (int i = 0; i < 8; i++)
                t += part[i][threadIdx.x];
            out[c] = t;
        }
        __syncthreads();
    }
}

// permute axes 0 and 2 of a (D0, D1, D2) tensor into (D2, D1, D0) through a shared tile of the (d0, d2) plane
template <typename T, int TILE, int ROWS>
__global__ void permute_021_tiled(T *__restrict__ out, const T *__restrict__ in, int D0, int D1, int D2)
{
    __shared__ T tile[TILE][TILE + 1];
    int d1 = blockIdx.z;
    for (int b0 = 0; b0 < D0; b0 += TILE)
        for (int b2 = 0; b2 < D2; b2 += TILE) {
            for (int j = threadIdx.y; j < TILE; j += ROWS) {
                int i0 = b0 + j, i2 = b2 + threadIdx.x;
                if (i0 < D0 && i2 < D2)
                    tile[j][threadIdx.x] = in[((size_t)i0 * D1 + d1) * D2 + i2];
            }
            __syncthreads();
            for (int j = threadIdx.y; j < TILE; j += ROWS) {
                int i2 = b2 + j, i0 = b0 + threadIdx.x;
                if (i0 < D0 && i2 < D2)
                    out[((size_t)i2 * D1 + d1) * D0 + i0] = tile[threadIdx.x][j];
            }
            __syncthreads();
        }
}
template __global__ void permute_021_tiled<float, 32, 8>(float *, const float *, int, int, int);
template __global__ void permute_021_tiled<unsigned short, 16, 16>(unsigned short *, const unsigned short *, int, int, int);
