// The seventh held-out batch, part 1 (compiled by nvcc: cuda_fp16.h, cuda_bf16.h and CUB): llama.cpp/ggml-style
// quantised blocks (q4_0 / q8_0 dequantisation, a warp-per-row quantised mat-vec with plain integer math, rms_norm,
// rope with position ids, a masked and scaled softmax) and vLLM/FlashInfer-style LLM serving kernels (a fused
// add + rms_norm with 16-byte vectors and CUB's BlockReduce, silu_and_mul, reshape_and_cache with a slot mapping,
// rotary embedding from a cos/sin cache, an embedding backward with half2/bf16x2 atomics). The file is laid out as
// such a file sits in a project: kernels, then the host launchers and a small self-test main() (which smemlab's
// recording never runs). Written for smemlab's truth fixture, before its first recording.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>

#include "fresh7_common.cuh"

#define CUDA_CHECK(expr)                                                                                      \
    do {                                                                                                      \
        cudaError_t err_ = (expr);                                                                            \
        if (err_ != cudaSuccess) {                                                                            \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);        \
            exit(1);                                                                                          \
        }                                                                                                     \
    } while (0)

// =============================================================================================================
// ggml-style quantised blocks
// =============================================================================================================
#define QK4_0 32
#define QR4_0 2
#define QK8_0 32

typedef struct {
    half d;                 // delta
    uint8_t qs[QK4_0 / 2];  // nibbles: element j in the low nibble of qs[j], element j + 16 in the high one
} block_q4_0;
static_assert(sizeof(block_q4_0) == sizeof(half) + QK4_0 / 2, "wrong q4_0 block size/padding");

typedef struct {
    half d;             // delta
    int8_t qs[QK8_0];   // quants
} block_q8_0;
static_assert(sizeof(block_q8_0) == sizeof(half) + QK8_0, "wrong q8_0 block size/padding");

// four bytes of a 2-byte aligned array as one int (the blocks are only 2-byte aligned)
static __device__ __forceinline__ int get_int_b2(const void *x, int i32)
{
    const uint16_t *x16 = (const uint16_t *)x;
    int x32 = x16[2 * i32 + 0] << 0;
    x32 |= x16[2 * i32 + 1] << 16;
    return x32;
}

// ---- dequantize q4_0 -> float or half: one thread per quant byte (two outputs, 16 apart), grid-stride
template <typename dst_t>
static __global__ void dequantize_block_q4_0(const void *__restrict__ vx, dst_t *__restrict__ y, const int nb)
{
    const block_q4_0 *x = (const block_q4_0 *)vx;
    const int64_t total = (int64_t)nb * (QK4_0 / 2);
    F7_KERNEL_LOOP(idx, total) {
        const int64_t ib = idx / (QK4_0 / 2);
        const int j = (int)(idx % (QK4_0 / 2));
        const float d = __half2float(x[ib].d);
        const uint8_t q = x[ib].qs[j];
        const float v0 = ((q & 0xF) - 8) * d;
        const float v1 = ((q >> 4) - 8) * d;
        dst_t *out = y + ib * QK4_0 + j;
        if constexpr (std::is_same<dst_t, half>::value) {
            out[0] = __float2half(v0);
            out[QK4_0 / 2] = __float2half(v1);
        } else {
            out[0] = v0;
            out[QK4_0 / 2] = v1;
        }
    }
}

// ---- dequantize q8_0 -> bf16: a thread converts two neighbouring quants into one __nv_bfloat162
static __global__ void dequantize_q8_0_bf16x2(const block_q8_0 *__restrict__ x, __nv_bfloat162 *__restrict__ y,
                                              const int nb)
{
    const int64_t npairs = (int64_t)nb * (QK8_0 / 2);
    F7_KERNEL_LOOP(i, npairs) {
        const int64_t ib = i / (QK8_0 / 2);
        const int iqs = 2 * (int)(i % (QK8_0 / 2));
        const float d = __half2float(x[ib].d);
        const char2 q = *reinterpret_cast<const char2 *>(&x[ib].qs[iqs]);
        y[i] = __floats2bfloat162_rn(q.x * d, q.y * d);
    }
}

// ---- dst[row] = dot(W[row, :] as q4_0, x as q8_0): a warp per row, four lanes per q4_0 block (an int of
// nibbles each, against two ints of the q8_0 block), the integer dot written out by hand instead of __dp4a
template <int NWARPS>
static __global__ void __launch_bounds__(NWARPS * 32)
mul_mat_vec_q4_0_q8_0(const void *__restrict__ vw, const void *__restrict__ vy, float *__restrict__ dst,
                      const int ncols, const int nrows)
{
    const int row = blockIdx.x * NWARPS + threadIdx.y;
    if (row >= nrows)
        return;
    const int lane = threadIdx.x;
    const int blocks_per_row = ncols / QK4_0;
    constexpr int lanes_per_block = QK4_0 / (4 * QR4_0);  // 4
    constexpr int blocks_per_iter = 32 / lanes_per_block;  // 8

    const block_q4_0 *w = (const block_q4_0 *)vw + (int64_t)row * blocks_per_row;
    const block_q8_0 *y = (const block_q8_0 *)vy;

    float sumf = 0.f;
    for (int ib = lane / lanes_per_block; ib < blocks_per_row; ib += blocks_per_iter) {
        const int iqs = lane % lanes_per_block;
        const int vq = get_int_b2(w[ib].qs, iqs);
        const int u0 = get_int_b2(y[ib].qs, iqs);
        const int u1 = get_int_b2(y[ib].qs, iqs + 4);
        int sumi = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int lo = ((vq >> (8 * k)) & 0x0F) - 8;
            const int hi = ((vq >> (8 * k + 4)) & 0x0F) - 8;
            const int a = (int)(int8_t)((u0 >> (8 * k)) & 0xFF);
            const int b = (int)(int8_t)((u1 >> (8 * k)) & 0xFF);
            sumi += lo * a + hi * b;
        }
        sumf += sumi * __half2float(w[ib].d) * __half2float(y[ib].d);
    }
    sumf = f7::warp_sum(sumf);
    if (lane == 0)
        dst[row] = sumf;
}

// ---- dst = W(q8_0) * x(float): x staged once in dynamic shared memory, a warp per row, each lane two
// neighbouring quants of a block at a time
static __global__ void mul_mat_vec_q8_0_f32(const block_q8_0 *__restrict__ w, const float *__restrict__ x,
                                            float *__restrict__ dst, const int ncols, const int nrows)
{
    extern __shared__ float xs[];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;
    for (int i = tid; i < ncols; i += nthreads)
        xs[i] = x[i];
    __syncthreads();

    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= nrows)
        return;
    const int nb = ncols / QK8_0;
    const block_q8_0 *wr = w + (int64_t)row * nb;
    float acc = 0.f;
    for (int p = threadIdx.x; p < ncols / 2; p += 32) {
        const int ib = p / (QK8_0 / 2);
        const int iqs = 2 * (p % (QK8_0 / 2));
        const float d = __half2float(wr[ib].d);
        const char2 q = *reinterpret_cast<const char2 *>(&wr[ib].qs[iqs]);
        const float2 xv = *reinterpret_cast<const float2 *>(&xs[ib * QK8_0 + iqs]);
        acc += d * (q.x * xv.x + q.y * xv.y);
    }
    acc = f7::warp_sum(acc);
    if (threadIdx.x == 0)
        dst[row] = acc;
}

// ---- rms_norm, a block a row (ggml's shape): warp sums, and a shared hop only when the block has several warps
template <int block_size>
static __global__ void rms_norm_f32(const float *x, float *dst, const int ncols, const float eps)
{
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    x += (int64_t)row * ncols;
    dst += (int64_t)row * ncols;

    float tmp = 0.0f;
    for (int col = tid; col < ncols; col += block_size) {
        const float xi = x[col];
        tmp += xi * xi;
    }
    tmp = f7::warp_sum(tmp);
    if constexpr (block_size > F7_WARP_SIZE) {
        __shared__ float s_sum[32];
        const int warp_id = tid / F7_WARP_SIZE;
        const int lane_id = tid % F7_WARP_SIZE;
        if (lane_id == 0)
            s_sum[warp_id] = tmp;
        __syncthreads();
        tmp = lane_id < block_size / F7_WARP_SIZE ? s_sum[lane_id] : 0.0f;
        tmp = f7::warp_sum(tmp);
    }
    const float mean = tmp / ncols;
    const float scale = rsqrtf(mean + eps);
    for (int col = tid; col < ncols; col += block_size)
        dst[col] = scale * x[col];
}

// ---- rope with position ids over x [n_tokens][n_heads][head_dim] (half), in place. The first n_dims of a head
// rotate (pairs (2i, 2i+1), or (i, i + n_dims/2) for NeoX), the rest are left as they are. Grid: x = head,
// y = groups of blockDim.y tokens; a thread rotates one pair.
template <bool NEOX>
static __global__ void rope_f16(half *__restrict__ x, const int32_t *__restrict__ pos, const int n_tokens,
                                const int n_heads, const int head_dim, const int n_dims, const float freq_base)
{
    const int head = blockIdx.x;
    const int tok = blockIdx.y * blockDim.y + threadIdx.y;
    if (tok >= n_tokens)
        return;
    half *xr = x + ((int64_t)tok * n_heads + head) * head_dim;
    const float p = (float)pos[tok];
    for (int i = threadIdx.x; i < n_dims / 2; i += blockDim.x) {
        const float theta = p * powf(freq_base, -2.0f * i / n_dims);
        float c, s;
        sincosf(theta, &s, &c);
        const int i0 = NEOX ? i : 2 * i;
        const int i1 = NEOX ? i + n_dims / 2 : 2 * i + 1;
        const float a = __half2float(xr[i0]);
        const float b = __half2float(xr[i1]);
        xr[i0] = __float2half(a * c - b * s);
        xr[i1] = __float2half(a * s + b * c);
    }
}

// ---- softmax over rows of x [nrows][ncols] with scale and an additive half mask [nrows_mask][ncols] (broadcast
// over heads: row % nrows_mask). With USE_SHARED the scaled, masked row is cached in dynamic shared memory after
// the per-warp scratch; otherwise dst is the cache.
template <bool USE_SHARED, int BLOCK>
static __global__ void __launch_bounds__(BLOCK)
soft_max_masked(const float *__restrict__ x, const half *__restrict__ mask, float *__restrict__ dst, const int ncols,
                const int nrows_mask, const float scale)
{
    extern __shared__ float smem_soft_max[];
    float *buf_iw = smem_soft_max;                      // [32]
    float *vals = USE_SHARED ? smem_soft_max + 32 : dst + (int64_t)blockIdx.x * ncols;

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    const float *xr = x + (int64_t)row * ncols;
    const half *mr = mask ? mask + (int64_t)(row % nrows_mask) * ncols : nullptr;

    float max_val = -INFINITY;
    for (int col = tid; col < ncols; col += BLOCK) {
        const float v = xr[col] * scale + (mr ? __half2float(mr[col]) : 0.0f);
        vals[col] = v;
        max_val = fmaxf(max_val, v);
    }
    max_val = f7::block_max(max_val, buf_iw);

    float tmp = 0.0f;
    for (int col = tid; col < ncols; col += BLOCK) {
        const float e = expf(vals[col] - max_val);
        tmp += e;
        vals[col] = e;
    }
    tmp = f7::block_sum(tmp, buf_iw);
    const float inv_sum = 1.0f / tmp;
    float *dr = dst + (int64_t)row * ncols;
    for (int col = tid; col < ncols; col += BLOCK)
        dr[col] = vals[col] * inv_sum;
}

// =============================================================================================================
// vLLM / FlashInfer-style serving kernels
// =============================================================================================================
namespace vllm {

// a sum functor of our own for CUB (cub::Sum is gone from recent CCCL releases)
struct SumOp {
    __device__ __forceinline__ float operator()(const float &a, const float &b) const { return a + b; }
};

// 8 halfs in 16 bytes
struct alignas(16) half8 {
    half2 h[4];
};

// residual += input; input = rms_norm(residual) * weight. Rows read and written as 16-byte vectors.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
fused_add_rms_norm_vec8(half *__restrict__ input, half *__restrict__ residual, const half *__restrict__ weight,
                        const float epsilon, const int hidden_size)
{
    const int vec_hidden = hidden_size / 8;
    uint4 *in_v = reinterpret_cast<uint4 *>(input + (int64_t)blockIdx.x * hidden_size);
    uint4 *res_v = reinterpret_cast<uint4 *>(residual + (int64_t)blockIdx.x * hidden_size);
    const uint4 *w_v = reinterpret_cast<const uint4 *>(weight);

    float variance = 0.0f;
    for (int i = threadIdx.x; i < vec_hidden; i += BLOCK) {
        uint4 a = in_v[i];
        uint4 r = res_v[i];
        half2 *a2 = reinterpret_cast<half2 *>(&a);
        half2 *r2 = reinterpret_cast<half2 *>(&r);
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            r2[k] = __hadd2(r2[k], a2[k]);
            const float2 f = __half22float2(r2[k]);
            variance += f.x * f.x + f.y * f.y;
        }
        res_v[i] = r;
    }

    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage reduce_store;
    variance = BlockReduce(reduce_store).Reduce(variance, SumOp{}, BLOCK);

    __shared__ float s_variance;
    if (threadIdx.x == 0)
        s_variance = rsqrtf(variance / hidden_size + epsilon);
    __syncthreads();

    for (int i = threadIdx.x; i < vec_hidden; i += BLOCK) {
        uint4 r = res_v[i];
        const uint4 w = __ldg(&w_v[i]);
        half2 *r2 = reinterpret_cast<half2 *>(&r);
        const half2 *w2 = reinterpret_cast<const half2 *>(&w);
        half8 out;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            float2 f = __half22float2(r2[k]);
            f.x *= s_variance;
            f.y *= s_variance;
            out.h[k] = __hmul2(__float22half2_rn(f), w2[k]);
        }
        in_v[i] = *reinterpret_cast<uint4 *>(&out);
    }
}

__device__ __forceinline__ float silu(float x) { return x / (1.0f + __expf(-x)); }

// out[t, :] = silu(in[t, :d]) * in[t, d:]: a block per token, bf16x2 pairs with streaming loads when d is even
__global__ void silu_and_mul_bf16(__nv_bfloat16 *__restrict__ out, const __nv_bfloat16 *__restrict__ input,
                                  const int d)
{
    const int64_t token = blockIdx.x;
    const __nv_bfloat16 *x_ptr = input + token * 2 * d;
    const __nv_bfloat16 *y_ptr = x_ptr + d;
    __nv_bfloat16 *o_ptr = out + token * d;
    if ((d & 1) == 0) {
        const __nv_bfloat162 *x2 = reinterpret_cast<const __nv_bfloat162 *>(x_ptr);
        const __nv_bfloat162 *y2 = reinterpret_cast<const __nv_bfloat162 *>(y_ptr);
        __nv_bfloat162 *o2 = reinterpret_cast<__nv_bfloat162 *>(o_ptr);
        for (int i = threadIdx.x; i < d / 2; i += blockDim.x) {
            const float2 a = __bfloat1622float2(__ldcs(&x2[i]));
            const float2 b = __bfloat1622float2(__ldcs(&y2[i]));
            __stcs(&o2[i], __floats2bfloat162_rn(silu(a.x) * b.x, silu(a.y) * b.y));
        }
    } else {
        for (int i = threadIdx.x; i < d; i += blockDim.x) {
            const float a = __bfloat162float(__ldg(&x_ptr[i]));
            const float b = __bfloat162float(__ldg(&y_ptr[i]));
            o_ptr[i] = __float2bfloat16(silu(a) * b);
        }
    }
}

// key [T, H, D] and value [T, H, D] (rows key_stride / value_stride halfs apart, e.g. views of a fused qkv
// buffer) into the paged caches: key_cache [blocks, H, D/x, block_size, x], value_cache [blocks, H, D, block_size].
// slot_mapping[t] < 0: a padding token, nothing written.
__global__ void reshape_and_cache_f16(const half *__restrict__ key, const half *__restrict__ value,
                                      half *__restrict__ key_cache, half *__restrict__ value_cache,
                                      const int64_t *__restrict__ slot_mapping, const int key_stride,
                                      const int value_stride, const int num_heads, const int head_size,
                                      const int block_size, const int x)
{
    const int64_t token_idx = blockIdx.x;
    const int64_t slot_idx = slot_mapping[token_idx];
    if (slot_idx < 0)
        return;
    const int64_t block_idx = slot_idx / block_size;
    const int64_t block_offset = slot_idx % block_size;

    const int n = num_heads * head_size;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int64_t src_key_idx = token_idx * key_stride + i;
        const int64_t src_value_idx = token_idx * value_stride + i;
        const int head_idx = i / head_size;
        const int head_offset = i % head_size;
        const int x_idx = head_offset / x;
        const int x_offset = head_offset % x;

        const int64_t tgt_key_idx = block_idx * num_heads * (head_size / x) * block_size * x +
                                    head_idx * (head_size / x) * block_size * x + x_idx * block_size * x +
                                    block_offset * x + x_offset;
        const int64_t tgt_value_idx = block_idx * num_heads * head_size * block_size +
                                      head_idx * head_size * block_size + head_offset * block_size + block_offset;
        key_cache[tgt_key_idx] = key[src_key_idx];
        __stwt(&value_cache[tgt_value_idx], value[src_value_idx]);
    }
}

template <bool IS_NEOX>
__device__ __forceinline__ void apply_token_rotary(half *__restrict__ arr, const float *__restrict__ cos_ptr,
                                                   const float *__restrict__ sin_ptr, int rot_offset, int embed_dim)
{
    int x_index, y_index;
    float c, s;
    if (IS_NEOX) {
        x_index = rot_offset;
        y_index = embed_dim + rot_offset;
        c = __ldg(cos_ptr + x_index);
        s = __ldg(sin_ptr + x_index);
    } else {
        x_index = 2 * rot_offset;
        y_index = 2 * rot_offset + 1;
        c = __ldg(cos_ptr + x_index / 2);
        s = __ldg(sin_ptr + x_index / 2);
    }
    const float xv = __half2float(arr[x_index]);
    const float yv = __half2float(arr[y_index]);
    arr[x_index] = __float2half(xv * c - yv * s);
    arr[y_index] = __float2half(yv * c + xv * s);
}

// query [T, num_heads * head_size] (rows query_stride apart), key [T, num_kv_heads * head_size];
// cos_sin_cache [max_position, rot_dim]: cos in the first half of a row, sin in the second
template <bool IS_NEOX>
__global__ void rotary_embedding_f16(const int64_t *__restrict__ positions, half *__restrict__ query,
                                     half *__restrict__ key, const float *__restrict__ cos_sin_cache,
                                     const int rot_dim, const int64_t query_stride, const int64_t key_stride,
                                     const int num_heads, const int num_kv_heads, const int head_size)
{
    const int token_idx = blockIdx.x;
    const int64_t pos = positions[token_idx];
    const float *cache_ptr = cos_sin_cache + pos * rot_dim;
    const int embed_dim = rot_dim / 2;
    const float *cos_ptr = cache_ptr;
    const float *sin_ptr = cache_ptr + embed_dim;

    const int nq = num_heads * embed_dim;
    for (int i = threadIdx.x; i < nq; i += blockDim.x) {
        const int head_idx = i / embed_dim;
        const int64_t token_head = token_idx * query_stride + head_idx * head_size;
        apply_token_rotary<IS_NEOX>(query + token_head, cos_ptr, sin_ptr, i % embed_dim, embed_dim);
    }
    const int nk = num_kv_heads * embed_dim;
    for (int i = threadIdx.x; i < nk; i += blockDim.x) {
        const int head_idx = i / embed_dim;
        const int64_t token_head = token_idx * key_stride + head_idx * head_size;
        apply_token_rotary<IS_NEOX>(key + token_head, cos_ptr, sin_ptr, i % embed_dim, embed_dim);
    }
}

}  // namespace vllm

// ---- embedding backward: grad_weight[ids[t], :] += grad_out[t, :], two features a thread with packed atomics
// (atomicAdd on __half2 or __nv_bfloat162). Block (D/2 lanes, tokens per block), grid over token groups.
template <typename T2>
__global__ void embedding_backward_packed(T2 *__restrict__ grad_weight, const T2 *__restrict__ grad_out,
                                          const int64_t *__restrict__ ids, const int n_tokens, const int dim2)
{
    const int t = blockIdx.x * blockDim.y + threadIdx.y;
    if (t >= n_tokens)
        return;
    const int64_t row = __ldg(&ids[t]);
    for (int j = threadIdx.x; j < dim2; j += blockDim.x)
        atomicAdd(&grad_weight[row * dim2 + j], grad_out[(int64_t)t * dim2 + j]);
}

// =============================================================================================================
// host side: launchers and a self-test (compiled for the host by nvcc only; the recording never runs them)
// =============================================================================================================
template <typename dst_t>
static void dequantize_row_q4_0_cuda(const void *vx, dst_t *y, int64_t k, cudaStream_t stream)
{
    const int nb = (int)(k / QK4_0);
    const int threads = 128;
    const int blocks = (int)std::min<int64_t>(F7_DIV_UP((int64_t)nb * 16, threads), 1024);
    dequantize_block_q4_0<dst_t><<<blocks, threads, 0, stream>>>(vx, y, nb);
}

static void mul_mat_vec_q4_0_q8_0_cuda(const void *vw, const void *vy, float *dst, int ncols, int nrows,
                                       cudaStream_t stream)
{
    constexpr int nwarps = 4;
    const dim3 block(32, nwarps);
    const dim3 grid(F7_DIV_UP(nrows, nwarps));
    mul_mat_vec_q4_0_q8_0<nwarps><<<grid, block, 0, stream>>>(vw, vy, dst, ncols, nrows);
}

static void rms_norm_f32_cuda(const float *x, float *dst, int ncols, int nrows, float eps, cudaStream_t stream)
{
    if (ncols < 1024)
        rms_norm_f32<32><<<nrows, 32, 0, stream>>>(x, dst, ncols, eps);
    else
        rms_norm_f32<1024><<<nrows, 1024, 0, stream>>>(x, dst, ncols, eps);
}

int main(int argc, char **argv)
{
    const int nrows = argc > 1 ? atoi(argv[1]) : 64, ncols = 512;
    const int nb = ncols / QK4_0;
    std::vector<block_q4_0> hw(nrows * nb);
    std::vector<block_q8_0> hx(nb);
    for (auto &b : hw) {
        b.d = __float2half(0.01f);
        for (auto &q : b.qs)
            q = (uint8_t)(rand() & 0xFF);
    }
    for (auto &b : hx) {
        b.d = __float2half(0.02f);
        for (auto &q : b.qs)
            q = (int8_t)(rand() % 255 - 127);
    }
    void *dw, *dx;
    float *dy, *dn;
    CUDA_CHECK(cudaMalloc(&dw, hw.size() * sizeof(block_q4_0)));
    CUDA_CHECK(cudaMalloc(&dx, hx.size() * sizeof(block_q8_0)));
    CUDA_CHECK(cudaMalloc(&dy, nrows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dn, (size_t)nrows * ncols * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dw, hw.data(), hw.size() * sizeof(block_q4_0), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dx, hx.data(), hx.size() * sizeof(block_q8_0), cudaMemcpyHostToDevice));
    mul_mat_vec_q4_0_q8_0_cuda(dw, dx, dy, ncols, nrows, 0);
    dequantize_row_q4_0_cuda<float>(dw, dn, (int64_t)nrows * ncols, 0);
    rms_norm_f32_cuda(dn, dn, ncols, nrows, 1e-6f, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> y(nrows);
    CUDA_CHECK(cudaMemcpy(y.data(), dy, nrows * sizeof(float), cudaMemcpyDeviceToHost));
    printf("y[0] = %f\n", y[0]);
    cudaFree(dw);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dn);
    return 0;
}
