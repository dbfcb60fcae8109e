// fresh14_kernels.cu -- LLM inference kernels as the serving projects write them today, gathered in one file as a
// port would carry them: ggml-cuda / llama.cpp (rms_norm_f32 with optional fused multiply and row/channel/sample
// strides, soft_max_f32 with the row in dynamic shared memory and ALiBi slopes, quantize_q8_1, the generic
// dequantize_block over dequantize_q4_0 to half, mul_mat_vec_q over q4_0 x q8_1 with __dp4a, rope_neox with YaRN,
// k_get_rows_float, cpy_f32_f16 over byte strides, argsort_f32_i32's bitonic sort in dynamic shared memory), vLLM
// csrc (rms_norm_kernel and the vectorised fused_add_rms_norm_kernel with cub::BlockReduce, act_and_mul_kernel with
// silu / gelu, rotary_embedding_kernel for NeoX and GPT-J, reshape_and_cache_flash_kernel with an int64 slot
// mapping, MoE gating's moeSoftmax / moeTopK, moe_align_block_size with a shared cumsum and shared atomics),
// FasterTransformer / TensorRT-LLM (addBiasResidualPostLayerNorm on half2 with blockReduceSum, the masked softmax
// of attention scores, add_fusedQKV_bias_transpose_kernel with a padding offset, the decoder's masked attention
// for one query token over a KV cache with q and the logits in shared memory).
//
// Build (the truth recording launches the kernels itself and never runs main()):
//     nvcc -std=c++17 -arch=sm_90 -O3 fresh14_kernels.cu -o fresh14_kernels
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#define CUDA_CHECK(err)                                                                                       \
    do {                                                                                                      \
        cudaError_t err_ = (err);                                                                             \
        if (err_ != cudaSuccess) {                                                                            \
            fprintf(stderr, "CUDA error %d at %s:%d: %s\n", err_, __FILE__, __LINE__,                        \
                    cudaGetErrorString(err_));                                                                \
            exit(1);                                                                                          \
        }                                                                                                     \
    } while (0)

// =============================================================================================================
// ggml-cuda
// =============================================================================================================
#define WARP_SIZE 32
#define GGML_PAD(x, n) (((x) + (n) - 1) & ~((n) - 1))

#define QK4_0 32
#define QR4_0 2
#define QI4_0 (QK4_0 / (4 * QR4_0))
#define QK8_1 32
#define QR8_1 1
#define QI8_1 (QK8_1 / (4 * QR8_1))

#define VDR_Q4_0_Q8_1_MMVQ 2

typedef half dfloat;
typedef half2 dfloat2;

typedef struct {
    half d;                // delta
    uint8_t qs[QK4_0 / 2]; // nibbles / quants
} block_q4_0;
static_assert(sizeof(block_q4_0) == sizeof(half) + QK4_0 / 2, "wrong q4_0 block size/padding");

// ggml-common.h names the inner struct (GGML_COMMON_AGGR_S) for the CUDA build: a member with a constructor
// may not sit in an anonymous aggregate
#define GGML_COMMON_AGGR_U
#define GGML_COMMON_AGGR_S data

typedef struct {
    union {
        struct {
            half d; // delta
            half s; // d * sum(qs[i])
        } GGML_COMMON_AGGR_S;
        half2 ds;
    } GGML_COMMON_AGGR_U;
    int8_t qs[QK8_1]; // quants
} block_q8_1;
static_assert(sizeof(block_q8_1) == 2 * sizeof(half) + QK8_1, "wrong q8_1 block size/padding");

static __device__ __forceinline__ float warp_reduce_sum(float x)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        x += __shfl_xor_sync(0xffffffff, x, offset, 32);
    }
    return x;
}

static __device__ __forceinline__ float warp_reduce_max(float x)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, offset, 32));
    }
    return x;
}

template <typename T>
static __device__ __forceinline__ void ggml_cuda_swap(T &a, T &b)
{
    T tmp = a;
    a = b;
    b = tmp;
}

static __device__ __forceinline__ int get_int_from_uint8(const uint8_t *x8, const int &i32)
{
    const uint16_t *x16 = (const uint16_t *)(x8 + sizeof(int) * i32); // assume at least 2 byte alignment

    int x32 = 0;
    x32 |= x16[0] << 0;
    x32 |= x16[1] << 16;

    return x32;
}

static __device__ __forceinline__ int get_int_from_int8_aligned(const int8_t *x8, const int &i32)
{
    return *((const int *)(x8 + sizeof(int) * i32)); // assume at least 4 byte alignment
}

// ---- rms_norm ------------------------------------------------------------------------------------------------
template <int block_size, bool do_multiply = false>
static __global__ void rms_norm_f32(const float *x, float *dst, const int ncols, const int64_t stride_row,
                                    const int64_t stride_channel, const int64_t stride_sample, const float eps,
                                    const float *mul = nullptr)
{
    const int nrows = gridDim.x;
    const int nchannels = gridDim.y;

    const int row = blockIdx.x;
    const int channel = blockIdx.y;
    const int sample = blockIdx.z;
    const int tid = threadIdx.x;

    x += sample * stride_sample + channel * stride_channel + row * stride_row;
    dst += ((sample * nchannels + channel) * nrows + row) * ncols;

    float tmp = 0.0f; // partial sum for thread in warp

    for (int col = tid; col < ncols; col += block_size) {
        const float xi = x[col];
        tmp += xi * xi;
    }

    // sum up partial sums
    tmp = warp_reduce_sum(tmp);
    if constexpr (block_size > WARP_SIZE) {
        static_assert(block_size == 1024, "unexpected block_size");
        __shared__ float s_sum[32];
        const int warp_id = threadIdx.x / WARP_SIZE;
        const int lane_id = threadIdx.x % WARP_SIZE;
        if (lane_id == 0) {
            s_sum[warp_id] = tmp;
        }
        __syncthreads();
        tmp = s_sum[lane_id];
        tmp = warp_reduce_sum(tmp);
    }

    const float mean = tmp / ncols;
    const float scale = rsqrtf(mean + eps);

    for (int col = tid; col < ncols; col += block_size) {
        if constexpr (do_multiply) {
            dst[col] = scale * x[col] * mul[col];
        } else {
            dst[col] = scale * x[col];
        }
    }
}

// ---- soft_max: the row kept in dynamic shared memory when it fits, mask (half) broadcast over rows ----------
static __device__ float get_alibi_slope(const float max_bias, const uint32_t h, const uint32_t n_head_log2,
                                        const float m0, const float m1)
{
    if (max_bias <= 0.0f) {
        return 1.0f;
    }
    const float base = h < n_head_log2 ? m0 : m1;
    const int exph = h < n_head_log2 ? h + 1 : 2 * (h - n_head_log2) + 1;

    return powf(base, exph);
}

template <bool use_shared, int ncols_template, int block_size_template, typename T>
static __global__ void soft_max_f32(const float *x, const T *mask, float *dst, const int ncols_par,
                                    const int nrows_y, const float scale, const float max_bias, const float m0,
                                    const float m1, uint32_t n_head_log2)
{
    const int ncols = ncols_template == 0 ? ncols_par : ncols_template;

    const int tid = threadIdx.x;
    const int rowx = blockIdx.x;
    const int rowy = rowx % nrows_y; // broadcast the mask in the row dimension

    x += int64_t(rowx) * ncols;
    mask += int64_t(rowy) * ncols * (mask != nullptr);
    dst += int64_t(rowx) * ncols;

    const int block_size = block_size_template == 0 ? blockDim.x : block_size_template;

    const int warp_id = threadIdx.x / WARP_SIZE;
    const int lane_id = threadIdx.x % WARP_SIZE;

    const float slope = get_alibi_slope(max_bias, rowx / nrows_y, n_head_log2, m0, m1);

    extern __shared__ float data_soft_max_f32[];
    float *buf_iw = data_soft_max_f32; // shared memory buffer for inter-warp communication
    // shared memory buffer to cache values between iterations:
    float *vals = use_shared ? buf_iw + WARP_SIZE : dst;

    float max_val = -INFINITY;

#pragma unroll
    for (int col0 = 0; col0 < ncols; col0 += block_size) {
        const int col = col0 + tid;

        if (ncols_template == 0 && col >= ncols) {
            break;
        }

        const float val = x[col] * scale + (mask ? slope * (float)mask[col] : 0.0f);

        vals[col] = val;
        max_val = max(max_val, val);
    }

    // find the max value in the block
    max_val = warp_reduce_max(max_val);
    if (block_size > WARP_SIZE) {
        if (warp_id == 0) {
            buf_iw[lane_id] = -INFINITY;
        }
        __syncthreads();

        if (lane_id == 0) {
            buf_iw[warp_id] = max_val;
        }
        __syncthreads();

        max_val = buf_iw[lane_id];
        max_val = warp_reduce_max(max_val);
    }

    float tmp = 0.0f; // partial sum

#pragma unroll
    for (int col0 = 0; col0 < ncols; col0 += block_size) {
        const int col = col0 + tid;

        if (ncols_template == 0 && col >= ncols) {
            break;
        }

        const float val = expf(vals[col] - max_val);
        tmp += val;
        vals[col] = val;
    }

    // find the sum of exps in the block
    tmp = warp_reduce_sum(tmp);
    if (block_size > WARP_SIZE) {
        __syncthreads();
        if (warp_id == 0) {
            buf_iw[lane_id] = 0.0f;
        }
        __syncthreads();

        if (lane_id == 0) {
            buf_iw[warp_id] = tmp;
        }
        __syncthreads();

        tmp = buf_iw[lane_id];
        tmp = warp_reduce_sum(tmp);
    }

    const float inv_sum = 1.0f / tmp;

#pragma unroll
    for (int col0 = 0; col0 < ncols; col0 += block_size) {
        const int col = col0 + tid;

        if (ncols_template == 0 && col >= ncols) {
            return;
        }

        dst[col] = vals[col] * inv_sum;
    }
}

// ---- quantize_q8_1: a thread a value, a warp a block of 32 (amax and sum by shuffles) ------------------------
static __global__ void quantize_q8_1(const float *__restrict__ x, void *__restrict__ vy, const int64_t kx,
                                     const int64_t kx0_padded)
{
    const int64_t ix0 = (int64_t)blockDim.x * blockIdx.x + threadIdx.x;

    if (ix0 >= kx0_padded) {
        return;
    }

    const int64_t ix1 = blockIdx.y;

    const int64_t i_padded = ix1 * kx0_padded + ix0;

    block_q8_1 *y = (block_q8_1 *)vy;

    const int64_t ib = i_padded / QK8_1;  // block index
    const int64_t iqs = i_padded % QK8_1; // quant index

    const float xi = ix0 < kx ? x[ix1 * kx + ix0] : 0.0f;
    float amax = fabsf(xi);
    float sum = xi;

    amax = warp_reduce_max(amax);
    sum = warp_reduce_sum(sum);

    const float d = amax / 127;
    const int8_t q = amax == 0.0f ? 0 : roundf(xi / d);

    y[ib].qs[iqs] = q;

    if (iqs > 0) {
        return;
    }

    reinterpret_cast<half &>(y[ib].ds.x) = d;
    reinterpret_cast<half &>(y[ib].ds.y) = sum;
}

// ---- dequantize: the generic block kernel, two values a thread, over dequantize_q4_0 ------------------------
typedef void (*dequantize_kernel_t)(const void *vx, const int64_t ib, const int iqs, dfloat2 &v);

static __device__ __forceinline__ void dequantize_q4_0(const void *vx, const int64_t ib, const int iqs, dfloat2 &v)
{
    const block_q4_0 *x = (const block_q4_0 *)vx;

    const dfloat d = x[ib].d;

    const int vui = x[ib].qs[iqs];

    v.x = __int2half_rn(vui & 0xF);
    v.y = __int2half_rn(vui >> 4);

    v = __hsub2(v, {8.0f, 8.0f});
    v = __hmul2(v, {d, d});
}

template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>
static __global__ void dequantize_block(const void *__restrict__ vx, dst_t *__restrict__ y, const int64_t k)
{
    const int64_t i = (int64_t)2 * (blockDim.x * blockIdx.x + threadIdx.x);

    if (i >= k) {
        return;
    }

    const int64_t ib = i / qk;        // block index
    const int64_t iqs = (i % qk) / qr; // quant index
    const int64_t iybs = i - i % qk;   // y block start index
    const int64_t y_offset = qr == 1 ? 1 : qk / 2;

    // dequantize
    dfloat2 v;
    dequantize_kernel(vx, ib, iqs, v);

    y[iybs + iqs + 0] = v.x;
    y[iybs + iqs + y_offset] = v.y;
}

// ---- mul_mat_vec_q: q4_0 weights against q8_1 activations, __dp4a -------------------------------------------
template <int vdr>
static __device__ __forceinline__ float vec_dot_q4_0_q8_1_impl(const int *v, const int *u, const float &d4,
                                                                const half2 &ds8)
{
    int sumi = 0;

#pragma unroll
    for (int i = 0; i < vdr; ++i) {
        const int vi0 = (v[i] >> 0) & 0x0F0F0F0F;
        const int vi1 = (v[i] >> 4) & 0x0F0F0F0F;

        // SIMD dot product of quantized values
        sumi = __dp4a(vi0, u[2 * i + 0], sumi);
        sumi = __dp4a(vi1, u[2 * i + 1], sumi);
    }

    const float2 ds8f = __half22float2(ds8);

    // second part effectively subtracts 8 from each quant value
    return d4 * (sumi * ds8f.x - (8 * vdr / QI4_0) * ds8f.y);
}

static __device__ __forceinline__ float vec_dot_q4_0_q8_1(const void *__restrict__ vbq,
                                                           const block_q8_1 *__restrict__ bq8_1, const int &kbx,
                                                           const int &iqs)
{
    const block_q4_0 *bq4_0 = (const block_q4_0 *)vbq + kbx;

    int v[VDR_Q4_0_Q8_1_MMVQ];
    int u[2 * VDR_Q4_0_Q8_1_MMVQ];

#pragma unroll
    for (int i = 0; i < VDR_Q4_0_Q8_1_MMVQ; ++i) {
        v[i] = get_int_from_uint8(bq4_0->qs, iqs + i);
        u[2 * i + 0] = get_int_from_int8_aligned(bq8_1->qs, iqs + i);
        u[2 * i + 1] = get_int_from_int8_aligned(bq8_1->qs, iqs + i + QI4_0);
    }

    return vec_dot_q4_0_q8_1_impl<VDR_Q4_0_Q8_1_MMVQ>(v, u, __half2float(bq4_0->d), bq8_1->ds);
}

static constexpr __device__ int mmvq_nwarps(int ncols_y)
{
    return ncols_y <= 4 ? 4 : 2;
}

static constexpr __device__ int mmvq_rows_per_block(int ncols_y)
{
    return ncols_y == 1 ? 1 : 2;
}

template <int ncols_y>
__launch_bounds__(mmvq_nwarps(ncols_y) * WARP_SIZE, 1)
static __global__ void mul_mat_vec_q(const void *__restrict__ vx, const void *__restrict__ vy,
                                     float *__restrict__ dst, const int ncols_x, const int nrows_x,
                                     const int nrows_y, const int nrows_dst)
{
    constexpr int qk = QK4_0;
    constexpr int qi = QI4_0;
    constexpr int vdr = VDR_Q4_0_Q8_1_MMVQ;
    constexpr int nwarps = mmvq_nwarps(ncols_y);
    constexpr int rows_per_cuda_block = mmvq_rows_per_block(ncols_y);

    const int tid = WARP_SIZE * threadIdx.y + threadIdx.x;
    const int row0 = rows_per_cuda_block * blockIdx.x;
    const int blocks_per_row_x = ncols_x / qk;
    const int blocks_per_col_y = nrows_y / QK8_1;
    constexpr int blocks_per_iter = vdr * nwarps * WARP_SIZE / qi;

    // partial sum for each thread
    float tmp[ncols_y][rows_per_cuda_block] = {0.0f};

    const block_q8_1 *y = (const block_q8_1 *)vy;

    for (int kbx = tid / (qi / vdr); kbx < blocks_per_row_x; kbx += blocks_per_iter) {
        const int kby = kbx * (qk / QK8_1); // y block index that aligns with kbx

        // x block quant index when casting the quants to int
        const int kqs = vdr * (tid % (qi / vdr));

#pragma unroll
        for (int j = 0; j < ncols_y; ++j) {
#pragma unroll
            for (int i = 0; i < rows_per_cuda_block; ++i) {
                tmp[j][i] += vec_dot_q4_0_q8_1(vx, &y[j * blocks_per_col_y + kby], (row0 + i) * blocks_per_row_x + kbx,
                                               kqs);
            }
        }
    }

    __shared__ float tmp_shared[nwarps - 1 > 0 ? nwarps - 1 : 1][ncols_y][rows_per_cuda_block][WARP_SIZE];
    if (threadIdx.y > 0) {
#pragma unroll
        for (int j = 0; j < ncols_y; ++j) {
#pragma unroll
            for (int i = 0; i < rows_per_cuda_block; ++i) {
                tmp_shared[threadIdx.y - 1][j][i][threadIdx.x] = tmp[j][i];
            }
        }
    }
    __syncthreads();
    if (threadIdx.y > 0) {
        return;
    }

    // sum up partial sums and write back result
#pragma unroll
    for (int j = 0; j < ncols_y; ++j) {
#pragma unroll
        for (int i = 0; i < rows_per_cuda_block; ++i) {
#pragma unroll
            for (int l = 0; l < nwarps - 1; ++l) {
                tmp[j][i] += tmp_shared[l][j][i][threadIdx.x];
            }
            tmp[j][i] = warp_reduce_sum(tmp[j][i]);
        }

        if (threadIdx.x < rows_per_cuda_block && (rows_per_cuda_block == 1 || row0 + threadIdx.x < nrows_dst)) {
            dst[j * nrows_dst + row0 + threadIdx.x] = tmp[j][threadIdx.x];
        }
    }
}

// ---- rope_neox with YaRN: a thread a pair (i0/2 apart by n_dims/2), rows in x, pairs in y --------------------
static __device__ float rope_yarn_ramp(const float low, const float high, const int i0)
{
    const float y = (i0 / 2 - low) / max(0.001f, high - low);
    return 1.0f - min(1.0f, max(0.0f, y));
}

// YaRN algorithm based on LlamaYaRNScaledRotaryEmbedding.py from https://github.com/jquesnelle/yarn
template <bool forward>
static __device__ void rope_yarn(const float theta_extrap, const float freq_scale, const float corr_dim0,
                                 const float corr_dim1, const int64_t i0, const float ext_factor, float mscale,
                                 float &cos_theta, float &sin_theta)
{
    // Get n-d rotational scaling corrected for extrapolation
    float theta_interp = freq_scale * theta_extrap;
    float theta = theta_interp;
    if (ext_factor != 0.0f) {
        float ramp_mix = rope_yarn_ramp(corr_dim0, corr_dim1, i0) * ext_factor;
        theta = theta_interp * (1 - ramp_mix) + theta_extrap * ramp_mix;

        // Get n-d magnitude scaling corrected for interpolation
        mscale *= 1.0f + 0.1f * logf(1.0f / freq_scale);
    }
    cos_theta = cosf(theta) * mscale;
    sin_theta = sinf(theta) * mscale;
    if (!forward) {
        sin_theta *= -1.0f;
    }
}

template <bool forward, bool has_ff, typename T>
static __global__ void rope_neox(const T *x, T *dst, const int ne0, const int ne1, const int s1, const int s2,
                                 const int n_dims, const int32_t *pos, const float freq_scale, const float ext_factor,
                                 const float attn_factor, const float corr_dim0, const float corr_dim1,
                                 const float theta_scale, const float *freq_factors)
{
    const int i0 = 2 * (blockDim.y * blockIdx.y + threadIdx.y);

    if (i0 >= ne0) {
        return;
    }

    const int row_dst = blockDim.x * blockIdx.x + threadIdx.x;

    const int row_x = row_dst % ne1;
    const int channel_x = row_dst / ne1;

    const int idst = row_dst * ne0 + i0 / 2;
    const int ix = channel_x * s2 + row_x * s1 + i0 / 2;

    if (i0 >= n_dims) {
        dst[idst + i0 / 2 + 0] = x[ix + i0 / 2 + 0];
        dst[idst + i0 / 2 + 1] = x[ix + i0 / 2 + 1];

        return;
    }

    const float theta_base = pos[channel_x] * powf(theta_scale, i0 / 2.0f);

    const float freq_factor = has_ff ? freq_factors[i0 / 2] : 1.0f;

    float cos_theta;
    float sin_theta;

    rope_yarn<forward>(theta_base / freq_factor, freq_scale, corr_dim0, corr_dim1, i0, ext_factor, attn_factor,
                       cos_theta, sin_theta);

    const float x0 = x[ix + 0];
    const float x1 = x[ix + n_dims / 2];

    dst[idst + 0] = x0 * cos_theta - x1 * sin_theta;
    dst[idst + n_dims / 2] = x0 * sin_theta + x1 * cos_theta;
}

// ---- get_rows: rows of src0 picked by the int32 ids in src1 --------------------------------------------------
template <typename src0_t, typename dst_t>
static __global__ void k_get_rows_float(const src0_t *__restrict__ src0, const int32_t *__restrict__ src1,
                                        dst_t *__restrict__ dst, const int64_t ne00, const int64_t ne12,
                                        const size_t s1, const size_t s2, const size_t s3, const size_t nb01,
                                        const size_t nb02, const size_t nb03, const size_t s10, const size_t s11,
                                        const size_t s12)
{
    const int i00 = blockIdx.x * blockDim.x + threadIdx.x;
    const int i10 = blockDim.y * blockIdx.y + threadIdx.y;
    const int i11 = (blockIdx.z * blockDim.z + threadIdx.z) / ne12;
    const int i12 = (blockIdx.z * blockDim.z + threadIdx.z) % ne12;

    if (i00 >= ne00) {
        return;
    }

    const int i01 = src1[i10 * s10 + i11 * s11 + i12 * s12];

    dst_t *dst_row = dst + i10 * s1 + i11 * s2 + i12 * s3;
    const src0_t *src0_row = (const src0_t *)((const char *)src0 + i01 * nb01 + i11 * nb02 + i12 * nb03);

    dst_row[i00] = float(src0_row[i00]);
}

// ---- cpy: an element a thread over byte strides (a permuted view of the source) ------------------------------
typedef void (*cpy_kernel_t)(const char *cx, char *cdst);

static __device__ void cpy_1_f32_f16(const char *cxi, char *cdsti)
{
    const float *xi = (const float *)cxi;
    half *dsti = (half *)cdsti;

    *dsti = __float2half(*xi);
}

template <cpy_kernel_t cpy_1>
static __global__ void cpy_f32_f16(const char *cx, char *cdst, const int ne, const int ne00, const int ne01,
                                   const int ne02, const int nb00, const int nb01, const int nb02, const int nb03,
                                   const int ne10, const int ne11, const int ne12, const int nb10, const int nb11,
                                   const int nb12, const int nb13)
{
    const int64_t i = blockDim.x * blockIdx.x + threadIdx.x;

    if (i >= ne) {
        return;
    }

    // determine indices i03/i13, i02/i12, i01/i11, i00/i10 as a function of index i of flattened tensor
    // then combine those indices with the corresponding byte offsets to get the total offsets
    const int64_t i03 = i / (ne00 * ne01 * ne02);
    const int64_t i02 = (i - i03 * ne00 * ne01 * ne02) / (ne00 * ne01);
    const int64_t i01 = (i - i03 * ne00 * ne01 * ne02 - i02 * ne01 * ne00) / ne00;
    const int64_t i00 = i - i03 * ne00 * ne01 * ne02 - i02 * ne01 * ne00 - i01 * ne00;
    const int64_t x_offset = i00 * nb00 + i01 * nb01 + i02 * nb02 + i03 * nb03;

    const int64_t i13 = i / (ne10 * ne11 * ne12);
    const int64_t i12 = (i - i13 * ne10 * ne11 * ne12) / (ne10 * ne11);
    const int64_t i11 = (i - i13 * ne10 * ne11 * ne12 - i12 * ne10 * ne11) / ne10;
    const int64_t i10 = i - i13 * ne10 * ne11 * ne12 - i12 * ne10 * ne11 - i11 * ne10;
    const int64_t dst_offset = i10 * nb10 + i11 * nb11 + i12 * nb12 + i13 * nb13;

    cpy_1(cx + x_offset, cdst + dst_offset);
}

// ---- argsort: bitonic sort of one row of indices in dynamic shared memory, a thread a (padded) column --------
enum ggml_sort_order {
    GGML_SORT_ORDER_ASC,
    GGML_SORT_ORDER_DESC,
};

template <ggml_sort_order order>
static __global__ void k_argsort_f32_i32(const float *x, int *dst, const int ncols, int ncols_pad)
{
    // bitonic sort
    int col = threadIdx.x;
    int row = blockIdx.y;

    if (col >= ncols_pad) {
        return;
    }

    const float *x_row = x + row * ncols;
    extern __shared__ int dst_row[];

    // initialize indices
    dst_row[col] = col;

    __syncthreads();

    for (int k = 2; k <= ncols_pad; k *= 2) {
        for (int j = k / 2; j > 0; j /= 2) {
            int ixj = col ^ j;
            if (ixj > col) {
                if ((col & k) == 0) {
                    if (dst_row[col] >= ncols ||
                        (dst_row[ixj] < ncols &&
                         (order == GGML_SORT_ORDER_ASC ? x_row[dst_row[col]] > x_row[dst_row[ixj]]
                                                       : x_row[dst_row[col]] < x_row[dst_row[ixj]]))) {
                        ggml_cuda_swap(dst_row[col], dst_row[ixj]);
                    }
                } else {
                    if (dst_row[ixj] >= ncols ||
                        (dst_row[col] < ncols &&
                         (order == GGML_SORT_ORDER_ASC ? x_row[dst_row[col]] < x_row[dst_row[ixj]]
                                                       : x_row[dst_row[col]] > x_row[dst_row[ixj]]))) {
                        ggml_cuda_swap(dst_row[col], dst_row[ixj]);
                    }
                }
            }
            __syncthreads();
        }
    }

    // copy the result to dst without the padding
    if (col < ncols) {
        dst[row * ncols + col] = dst_row[col];
    }
}

// =============================================================================================================
// vLLM csrc
// =============================================================================================================
namespace vllm {

struct CubAddOp {
    template <typename T>
    __device__ __forceinline__ T operator()(const T &a, const T &b) const
    {
        return a + b;
    }
};

struct CubMaxOp {
    template <typename T>
    __device__ __forceinline__ T operator()(const T &a, const T &b) const
    {
        return a > b ? a : b;
    }
};

// ---- layernorm_kernels.cu: rms_norm_kernel, a block a token ------------------------------------------------
template <typename scalar_t>
__global__ void rms_norm_kernel(scalar_t *__restrict__ out,         // [..., hidden_size]
                                const scalar_t *__restrict__ input, // [..., hidden_size]
                                const int64_t input_stride,
                                const scalar_t *__restrict__ weight, // [hidden_size]
                                const float epsilon, const int num_tokens, const int hidden_size)
{
    __shared__ float s_variance;
    float variance = 0.0f;

    for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
        const float x = (float)input[blockIdx.x * input_stride + idx];
        variance += x * x;
    }

    using BlockReduce = cub::BlockReduce<float, 1024>;
    __shared__ typename BlockReduce::TempStorage reduceStore;
    variance = BlockReduce(reduceStore).Reduce(variance, CubAddOp{}, blockDim.x);

    if (threadIdx.x == 0) {
        s_variance = rsqrtf(variance / hidden_size + epsilon);
    }
    __syncthreads();

    for (int idx = threadIdx.x; idx < hidden_size; idx += blockDim.x) {
        float x = (float)input[blockIdx.x * input_stride + idx];
        out[blockIdx.x * hidden_size + idx] = ((scalar_t)(x * s_variance)) * weight[idx];
    }
}

// ---- the packed vector type of the fused kernel (_f16Vec) ----------------------------------------------------
template <typename scalar_t, int width>
struct alignas(16) _f16Vec {
    static_assert(width > 0 && (width & (width - 1)) == 0, "Width is not a positive power of 2!");
    using Converter = scalar_t;
    scalar_t data[width];

    __device__ _f16Vec &operator+=(const _f16Vec<scalar_t, width> &other)
    {
#pragma unroll
        for (int i = 0; i < width; ++i) {
            data[i] = __float2half(__half2float(data[i]) + __half2float(other.data[i]));
        }
        return *this;
    }

    __device__ _f16Vec &operator*=(const _f16Vec<scalar_t, width> &other)
    {
#pragma unroll
        for (int i = 0; i < width; ++i) {
            data[i] = __float2half(__half2float(data[i]) * __half2float(other.data[i]));
        }
        return *this;
    }

    __device__ _f16Vec operator*(const float scale) const
    {
        _f16Vec result;
#pragma unroll
        for (int i = 0; i < width; ++i) {
            result.data[i] = __float2half(__half2float(data[i]) * scale);
        }
        return result;
    }

    __device__ float sum_squares() const
    {
        float result = 0.0f;
#pragma unroll
        for (int i = 0; i < width; ++i) {
            float x = __half2float(data[i]);
            result += x * x;
        }
        return result;
    }
};

// ---- fused_add_rms_norm_kernel, the width-wide packed path: residual += input; input = norm(residual) * w ---
template <typename scalar_t, int width>
__global__ void fused_add_rms_norm_kernel(scalar_t *__restrict__ input,    // [..., hidden_size]
                                          const int64_t input_stride,
                                          scalar_t *__restrict__ residual, // [..., hidden_size]
                                          const scalar_t *__restrict__ weight, // [hidden_size]
                                          const float epsilon, const int num_tokens, const int hidden_size)
{
    // Sanity checks on our vector struct and type-punned pointer arithmetic
    static_assert(sizeof(_f16Vec<scalar_t, width>) == sizeof(scalar_t) * width);

    const int vec_hidden_size = hidden_size / width;
    const int64_t vec_input_stride = input_stride / width;
    __shared__ float s_variance;
    float variance = 0.0f;
    /* These and the argument pointers are all declared `restrict` as they are
       not aliased in practice. Argument pointers should not be dereferenced
       in this kernel as that would be undefined behavior */
    auto *__restrict__ input_v = reinterpret_cast<_f16Vec<scalar_t, width> *>(input);
    auto *__restrict__ residual_v = reinterpret_cast<_f16Vec<scalar_t, width> *>(residual);
    auto *__restrict__ weight_v = reinterpret_cast<const _f16Vec<scalar_t, width> *>(weight);

    for (int idx = threadIdx.x; idx < vec_hidden_size; idx += blockDim.x) {
        int id = blockIdx.x * vec_hidden_size + idx;
        int64_t strided_id = blockIdx.x * vec_input_stride + idx;
        _f16Vec<scalar_t, width> temp = input_v[strided_id];
        temp += residual_v[id];
        variance += temp.sum_squares();
        residual_v[id] = temp;
    }

    using BlockReduce = cub::BlockReduce<float, 1024>;
    __shared__ typename BlockReduce::TempStorage reduceStore;
    variance = BlockReduce(reduceStore).Reduce(variance, CubAddOp{}, blockDim.x);

    if (threadIdx.x == 0) {
        s_variance = rsqrtf(variance / hidden_size + epsilon);
    }
    __syncthreads();

    for (int idx = threadIdx.x; idx < vec_hidden_size; idx += blockDim.x) {
        int id = blockIdx.x * vec_hidden_size + idx;
        int64_t strided_id = blockIdx.x * vec_input_stride + idx;
        _f16Vec<scalar_t, width> temp = residual_v[id];
        temp *= weight_v[idx];
        input_v[strided_id] = temp * s_variance;
    }
}

// ---- activation_kernels.cu: act_and_mul_kernel over [..., 2, d] ----------------------------------------------
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t &), bool act_first>
__device__ __forceinline__ scalar_t compute(const scalar_t &x, const scalar_t &y)
{
    return act_first ? ACT_FN(x) * y : x * ACT_FN(y);
}

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t &), bool act_first>
__global__ void act_and_mul_kernel(scalar_t *__restrict__ out,         // [..., d]
                                   const scalar_t *__restrict__ input, // [..., 2, d]
                                   const int d)
{
    const int64_t token_idx = blockIdx.x;
    for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
        const scalar_t x = __ldg(&input[token_idx * 2 * d + idx]);
        const scalar_t y = __ldg(&input[token_idx * 2 * d + d + idx]);
        out[token_idx * d + idx] = compute<scalar_t, ACT_FN, act_first>(x, y);
    }
}

template <typename T>
__device__ __forceinline__ T silu_kernel(const T &x)
{
    // x * sigmoid(x)
    return (T)(((float)x) / (1.0f + expf((float)-x)));
}

template <typename T>
__device__ __forceinline__ T gelu_kernel(const T &x)
{
    // Equivalent to PyTorch GELU with 'none' approximation.
    const float f = (float)x;
    constexpr float ALPHA = M_SQRT1_2;
    return (T)(f * 0.5f * (1.0f + ::erf(f * ALPHA)));
}

template <typename T>
__device__ __forceinline__ T gelu_tanh_kernel(const T &x)
{
    // Equivalent to PyTorch GELU with 'tanh' approximation.
    const float f = (float)x;
    constexpr float BETA = M_SQRT2 * M_2_SQRTPI * 0.5f;
    constexpr float KAPPA = 0.044715;
    float x_cube = f * f * f;
    float inner = BETA * (f + KAPPA * x_cube);
    return (T)(0.5f * f * (1.0f + ::tanhf(inner)));
}

// ---- pos_encoding_kernels.cu: rotary_embedding_kernel from a cos/sin cache -----------------------------------
template <typename scalar_t, bool IS_NEOX>
inline __device__ void apply_token_rotary_embedding(scalar_t *__restrict__ arr, const scalar_t *__restrict__ cos_ptr,
                                                    const scalar_t *__restrict__ sin_ptr, int rot_offset,
                                                    int embed_dim)
{
    int x_index, y_index;
    scalar_t cos, sin;
    if (IS_NEOX) {
        // GPT-NeoX style rotary embedding.
        x_index = rot_offset;
        y_index = embed_dim + rot_offset;
        cos = __ldg(cos_ptr + x_index);
        sin = __ldg(sin_ptr + x_index);
    } else {
        // GPT-J style rotary embedding.
        x_index = 2 * rot_offset;
        y_index = 2 * rot_offset + 1;
        cos = __ldg(cos_ptr + x_index / 2);
        sin = __ldg(sin_ptr + x_index / 2);
    }

    const scalar_t x = arr[x_index];
    const scalar_t y = arr[y_index];
    arr[x_index] = x * cos - y * sin;
    arr[y_index] = y * cos + x * sin;
}

template <typename scalar_t, bool IS_NEOX>
inline __device__ void apply_rotary_embedding(scalar_t *__restrict__ query, // [batch_size, seq_len, num_heads,
                                                                           // head_size] or [num_tokens, num_heads,
                                                                           // head_size]
                                              scalar_t *__restrict__ key,   // nullptr or similar shape
                                              const scalar_t *cache_ptr, const int head_size, const int num_heads,
                                              const int num_kv_heads, const int rot_dim, const int token_idx,
                                              const int64_t query_stride, const int64_t key_stride,
                                              const int64_t head_stride)
{
    const int embed_dim = rot_dim / 2;
    const scalar_t *cos_ptr = cache_ptr;
    const scalar_t *sin_ptr = cache_ptr + embed_dim;

    const int nq = num_heads * embed_dim;
    for (int i = threadIdx.x; i < nq; i += blockDim.x) {
        const int head_idx = i / embed_dim;
        const int64_t token_head = token_idx * query_stride + head_idx * head_stride;
        const int rot_offset = i % embed_dim;
        apply_token_rotary_embedding<scalar_t, IS_NEOX>(query + token_head, cos_ptr, sin_ptr, rot_offset, embed_dim);
    }

    if (key != nullptr) {
        const int nk = num_kv_heads * embed_dim;
        for (int i = threadIdx.x; i < nk; i += blockDim.x) {
            const int head_idx = i / embed_dim;
            const int64_t token_head = token_idx * key_stride + head_idx * head_stride;
            const int rot_offset = i % embed_dim;
            apply_token_rotary_embedding<scalar_t, IS_NEOX>(key + token_head, cos_ptr, sin_ptr, rot_offset,
                                                            embed_dim);
        }
    }
}

template <typename scalar_t, bool IS_NEOX>
__global__ void rotary_embedding_kernel(const int64_t *__restrict__ positions, // [batch_size, seq_len] or
                                                                               // [num_tokens]
                                        scalar_t *__restrict__ query, // [batch_size, seq_len, num_heads,
                                                                      // head_size] or [num_tokens, num_heads,
                                                                      // head_size]
                                        scalar_t *__restrict__ key,   // nullptr or similar shape
                                        const scalar_t *__restrict__ cos_sin_cache, // [max_position, 2, rot_dim // 2]
                                        const int rot_dim, const int64_t query_stride, const int64_t key_stride,
                                        const int64_t head_stride, const int num_heads, const int num_kv_heads,
                                        const int head_size)
{
    // Each thread block is responsible for one token.
    const int token_idx = blockIdx.x;
    int64_t pos = positions[token_idx];
    const scalar_t *cache_ptr = cos_sin_cache + pos * rot_dim;

    apply_rotary_embedding<scalar_t, IS_NEOX>(query, key, cache_ptr, head_size, num_heads, num_kv_heads, rot_dim,
                                              token_idx, query_stride, key_stride, head_stride);
}

// ---- cache_kernels.cu: reshape_and_cache_flash_kernel, caches [num_blocks, block_size, num_heads, head_size] -
template <typename scalar_t, typename cache_t>
__global__ void reshape_and_cache_flash_kernel(const scalar_t *__restrict__ key,   // [num_tokens, num_heads, head_size]
                                               const scalar_t *__restrict__ value, // [num_tokens, num_heads, head_size]
                                               cache_t *__restrict__ key_cache,    // [num_blocks, block_size,
                                                                                   // num_heads, head_size]
                                               cache_t *__restrict__ value_cache,  // [num_blocks, block_size,
                                                                                   // num_heads, head_size]
                                               const int64_t *__restrict__ slot_mapping, // [num_tokens]
                                               const int64_t block_stride, const int64_t page_stride,
                                               const int64_t head_stride, const int64_t key_stride,
                                               const int64_t value_stride, const int num_heads, const int head_size,
                                               const int block_size)
{
    const int64_t token_idx = blockIdx.x;
    const int64_t slot_idx = slot_mapping[token_idx];
    // NOTE: slot_idx can be -1 if the token is padded
    if (slot_idx < 0) {
        return;
    }
    const int64_t block_idx = slot_idx / block_size;
    const int64_t block_offset = slot_idx % block_size;
    const int n = num_heads * head_size;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int64_t src_key_idx = token_idx * key_stride + i;
        const int64_t src_value_idx = token_idx * value_stride + i;
        const int head_idx = i / head_size;
        const int head_offset = i % head_size;
        const int64_t tgt_key_value_idx =
            block_idx * block_stride + block_offset * page_stride + head_idx * head_stride + head_offset;
        scalar_t tgt_key = key[src_key_idx];
        scalar_t tgt_value = value[src_value_idx];
        key_cache[tgt_key_value_idx] = tgt_key;
        value_cache[tgt_key_value_idx] = tgt_value;
    }
}

// ---- moe/topk_softmax_kernels.cu: moeSoftmax and moeTopK, a block a token ------------------------------------
template <int TPB>
__launch_bounds__(TPB) __global__
void moeSoftmax(const float *input, const bool *finished, float *output, const int num_cols)
{
    using BlockReduce = cub::BlockReduce<float, TPB>;
    __shared__ typename BlockReduce::TempStorage tmpStorage;

    __shared__ float normalizing_factor;
    __shared__ float float_max;

    const int thread_row_offset = blockIdx.x * num_cols;

    float threadData(-FLT_MAX);

    // Don't touch finished rows.
    if ((finished != nullptr) && finished[blockIdx.x]) {
        return;
    }

    for (int ii = threadIdx.x; ii < num_cols; ii += TPB) {
        const int idx = thread_row_offset + ii;
        threadData = max(static_cast<float>(input[idx]), threadData);
    }

    const float maxElem = BlockReduce(tmpStorage).Reduce(threadData, CubMaxOp());
    if (threadIdx.x == 0) {
        float_max = maxElem;
    }
    __syncthreads();

    threadData = 0;

    for (int ii = threadIdx.x; ii < num_cols; ii += TPB) {
        const int idx = thread_row_offset + ii;
        threadData += exp((static_cast<float>(input[idx]) - float_max));
    }

    const auto Z = BlockReduce(tmpStorage).Reduce(threadData, CubAddOp());

    if (threadIdx.x == 0) {
        normalizing_factor = 1.f / Z;
    }
    __syncthreads();

    for (int ii = threadIdx.x; ii < num_cols; ii += TPB) {
        const int idx = thread_row_offset + ii;
        const float val = exp((static_cast<float>(input[idx]) - float_max)) * normalizing_factor;
        output[idx] = val;
    }
}

struct ArgMaxPair {
    __device__ __forceinline__ cub::KeyValuePair<int, float> operator()(const cub::KeyValuePair<int, float> &a,
                                                                        const cub::KeyValuePair<int, float> &b) const
    {
        // Mimic pytorch's argmax: the larger value, ties to the smaller index
        if (b.value > a.value || (b.value == a.value && b.key < a.key)) {
            return b;
        }
        return a;
    }
};

template <int TPB, typename IndType>
__launch_bounds__(TPB) __global__
void moeTopK(const float *inputs_after_softmax, const bool *finished, float *output, IndType *indices,
             int *source_rows, const int num_experts, const int k, const int start_expert, const int end_expert)
{
    using cub_kvp = cub::KeyValuePair<int, float>;
    using BlockReduce = cub::BlockReduce<cub_kvp, TPB>;
    __shared__ typename BlockReduce::TempStorage tmpStorage;

    cub_kvp thread_kvp;
    ArgMaxPair arg_max;

    const int num_rows = gridDim.x;
    const int block_row = blockIdx.x;

    const bool row_is_active = finished ? !finished[block_row] : true;
    const int thread_read_offset = blockIdx.x * num_experts;
    for (int k_idx = 0; k_idx < k; ++k_idx) {
        thread_kvp.key = 0;
        thread_kvp.value = -1.f; // This is OK because inputs are probabilities

        cub_kvp inp_kvp;
        for (int expert = threadIdx.x; expert < num_experts; expert += TPB) {
            const int idx = thread_read_offset + expert;
            inp_kvp.key = expert;
            inp_kvp.value = inputs_after_softmax[idx];

            for (int prior_k = 0; prior_k < k_idx; ++prior_k) {
                const int prior_winning_expert = indices[k * block_row + prior_k];

                if (prior_winning_expert == expert) {
                    inp_kvp = thread_kvp;
                }
            }

            thread_kvp = arg_max(inp_kvp, thread_kvp);
        }

        const cub_kvp result_kvp = BlockReduce(tmpStorage).Reduce(thread_kvp, arg_max);
        if (threadIdx.x == 0) {
            // Ignore experts the node isn't responsible for with expert parallelism
            const int expert = result_kvp.key;
            const bool node_uses_expert = expert >= start_expert && expert < end_expert;
            const bool should_process_row = row_is_active && node_uses_expert;

            const int idx = k * block_row + k_idx;
            output[idx] = result_kvp.value;
            indices[idx] = should_process_row ? (expert - start_expert) : num_experts;
            source_rows[idx] = k_idx * num_rows + block_row;
        }
        __syncthreads();
    }
}

// ---- moe_align_kernels.cu: moe_align_block_size, one block, shared counts by atomics, a shared cumsum ------
#define CEILDIV(x, y) (((x) + (y) - 1) / (y))

template <typename scalar_t>
__global__ void moe_align_block_size_kernel(const scalar_t *__restrict__ topk_ids,
                                            int32_t *__restrict__ sorted_token_ids, int32_t *__restrict__ expert_ids,
                                            int32_t *__restrict__ total_tokens_post_pad, int32_t num_experts,
                                            int32_t block_size, size_t numel)
{
    extern __shared__ int32_t shared_mem[];
    int32_t *shared_counts = shared_mem;                   // [num_experts]
    int32_t *cumsum = shared_mem + num_experts;            // [num_experts + 1]
    int32_t *cursor = shared_mem + 2 * num_experts + 1;    // [num_experts]

    const size_t tid = threadIdx.x;
    const size_t stride = blockDim.x;

    for (int i = tid; i < num_experts; i += stride) {
        shared_counts[i] = 0;
    }
    __syncthreads();

    for (size_t i = tid; i < numel; i += stride) {
        int expert_id = topk_ids[i];
        atomicAdd(&shared_counts[expert_id], 1);
    }
    __syncthreads();

    if (threadIdx.x == 0) {
        cumsum[0] = 0;
        for (int i = 1; i <= num_experts; ++i) {
            cumsum[i] = cumsum[i - 1] + CEILDIV(shared_counts[i - 1], block_size) * block_size;
        }
        *total_tokens_post_pad = cumsum[num_experts];
    }
    __syncthreads();

    if (threadIdx.x < num_experts) {
        for (int i = cumsum[threadIdx.x]; i < cumsum[threadIdx.x + 1]; i += block_size) {
            expert_ids[i / block_size] = threadIdx.x;
        }
        cursor[threadIdx.x] = cumsum[threadIdx.x];
    }

    // pad every expert's tail with numel, an index no token has
    for (int i = tid; i < cumsum[num_experts]; i += stride) {
        sorted_token_ids[i] = numel;
    }
    __syncthreads();

    for (size_t i = tid; i < numel; i += stride) {
        int32_t expert_id = topk_ids[i];
        int32_t rank_post_pad = atomicAdd(&cursor[expert_id], 1);
        sorted_token_ids[rank_post_pad] = i;
    }
}

} // namespace vllm

// =============================================================================================================
// FasterTransformer / TensorRT-LLM
// =============================================================================================================
#define FINAL_MASK 0xffffffff

template <typename T>
__inline__ __device__ T warpReduceSum(T val)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
    return val;
}

/* Calculate the sum of all elements in a block */
template <typename T>
__inline__ __device__ T blockReduceSum(T val)
{
    static __shared__ T shared[32];
    int lane = threadIdx.x & 0x1f;
    int wid = threadIdx.x >> 5;

    val = warpReduceSum<T>(val);

    if (lane == 0)
        shared[wid] = val;

    __syncthreads();

    // Modify from blockDim.x << 5 to blockDim.x / 32. to prevent
    // blockDim.x is not divided by 32
    val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);
    val = warpReduceSum<T>(val);

    return val;
}

template <typename T>
__inline__ __device__ T warpReduceMax(T val)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        val = max(val, __shfl_xor_sync(FINAL_MASK, val, mask, 32));
    return val;
}

/* Calculate the maximum of all elements in a block */
template <typename T>
__inline__ __device__ T blockReduceMax(T val)
{
    static __shared__ T shared[32];
    int lane = threadIdx.x & 0x1f; // in-warp idx
    int wid = threadIdx.x >> 5;    // warp idx

    val = warpReduceMax(val); // get maxx in each warp

    if (lane == 0) // record in-warp maxx by warp Idx
        shared[wid] = val;

    __syncthreads();

    // Modify from blockDim.x << 5 to blockDim.x / 32. to prevent
    // blockDim.x is not divided by 32
    val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : -1e20f;
    val = warpReduceMax(val);

    return val;
}

// ---- layernorm_kernels.cu: out = LN(out + input + bias) on half2, a block a row, ITEMS local half2 a thread -
template <typename T, int ITEMS>
__global__ void addBiasResidualPostLayerNormHalf2(T *out, const T *input, const T *bias, const T *gamma,
                                                  const T *beta, const float layernorm_eps, int m, int n)
{
    __shared__ float s_mean;
    __shared__ float s_variance;
    float mean = 0.0f;
    float variance = 0.0f;
    half2 local_out_half2[ITEMS];

    half2 *out_ptr = (half2 *)out;
    const half2 *input_ptr = (const half2 *)input;
    const half2 *bias_ptr = (const half2 *)bias;
    const half2 *gamma_ptr = (const half2 *)gamma;
    const half2 *beta_ptr = (const half2 *)beta;

    // in this kernel, n is the number of half2 of a row (hidden / 2)
    half2 sum = __float2half2_rn(0.0f);
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        int col = i * blockDim.x + threadIdx.x;
        if (col < n) {
            int id = blockIdx.x * n + col;
            local_out_half2[i] = out_ptr[id] + __ldg(&input_ptr[id]) + __ldg(&bias_ptr[col]);
            sum += local_out_half2[i];
        } else {
            local_out_half2[i] = __float2half2_rn(0.0f);
        }
    }

    mean = blockReduceSum((float)(__low2float(sum) + __high2float(sum)));
    if (threadIdx.x == 0) {
        s_mean = mean / (2 * n);
    }
    __syncthreads();

    float var = 0.0f;
    half2 s_mean_2 = __float2half2_rn(s_mean);
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        int col = i * blockDim.x + threadIdx.x;
        if (col < n) {
            local_out_half2[i] = local_out_half2[i] - s_mean_2;
            float v1 = __low2float(local_out_half2[i]);
            float v2 = __high2float(local_out_half2[i]);
            var += v1 * v1 + v2 * v2;
        }
    }

    variance = blockReduceSum(var);
    if (threadIdx.x == 0) {
        s_variance = rsqrtf(variance / (2 * n) + layernorm_eps);
    }
    __syncthreads();

    half2 s_var_2 = __float2half2_rn(s_variance);
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        int col = i * blockDim.x + threadIdx.x;
        if (col < n) {
            int id = blockIdx.x * n + col;
            out_ptr[id] = local_out_half2[i] * s_var_2 * __ldg(&gamma_ptr[col]) + __ldg(&beta_ptr[col]);
        }
    }
}

// ---- unfused attention: softmax of the scores with the padding mask, ITEMS_PER_THREAD values a thread -------
template <typename T, int ITEMS_PER_THREAD>
__global__ void softmax_kernel(T *attn_score, const T *qk, const T *attn_mask, const int batch_size,
                               const int head_num, const int seq_len_1, const int seq_len_2, const float qk_scale)
{
    // attn_score, [batch_size, num_heads, q_length, k_length]
    // qk, [batch_size, num_heads, q_length, k_length]
    // attn_mask, [batch_size, q_length, k_length]
    // grid: (q_length, batch_size, num_heads)
    const int bi = blockIdx.y; // Batch index.
    const int hi = blockIdx.z; // Head index.

    __shared__ float s_mean, s_max;

    // Loop along with Q dimension.
    for (int qi = blockIdx.x; qi < seq_len_1; qi += gridDim.x) {
        float data[ITEMS_PER_THREAD];
        int qk_offset;
        float local_max = -1e20f;

        // Loop along with K dimension.
        for (int i = 0; blockDim.x * i + threadIdx.x < seq_len_2; i++) {
            int ki = blockDim.x * i + threadIdx.x; // Index of K dimension.
            qk_offset = ((bi * head_num + hi) * seq_len_1 + qi) * seq_len_2 + ki;

            float qk_val = static_cast<float>(qk[qk_offset]);
            float qk_bias = 0.0f;

            int mask_offset = (bi * seq_len_1 + qi) * seq_len_2 + ki;
            float mask_val = static_cast<float>(__ldg(&attn_mask[mask_offset]));
            qk_bias += (1.0f - mask_val) * -10000.0f;

            data[i] = qk_scale * qk_val + qk_bias;
            local_max = fmax(local_max, data[i]);
        }

        float max_val = blockDim.x <= 32 ? warpReduceMax(local_max) : blockReduceMax<float>(local_max);
        if (threadIdx.x == 0) {
            s_max = max_val;
        }
        __syncthreads();

        float local_sum = 0;
        for (int i = 0; blockDim.x * i + threadIdx.x < seq_len_2; i++) {
            data[i] = __expf(data[i] - s_max);
            local_sum += data[i];
        }
        float sum_val = blockDim.x <= 32 ? warpReduceSum(local_sum) : blockReduceSum<float>(local_sum);
        if (threadIdx.x == 0) {
            s_mean = sum_val + 1e-6f;
            s_mean = __fdividef(1.0f, s_mean);
        }
        __syncthreads();

        for (int i = 0; blockDim.x * i + threadIdx.x < seq_len_2; i++) {
            qk_offset = ((bi * head_num + hi) * seq_len_1 + qi) * seq_len_2 + blockDim.x * i + threadIdx.x;
            attn_score[qk_offset] = (T)(data[i] * s_mean);
        }
    }
}

// ---- unfused attention: the fused QKV [token_num, 3, head_num, size_per_head] plus bias, to q/k/v of
// [batch, head_num, seq_len, size_per_head], tokens placed back among the padding by padding_offset --------
template <typename T>
__global__ void add_fusedQKV_bias_transpose_kernel(T *q_buf, T *k_buf, T *v_buf, const T *__restrict QKV,
                                                   const T *__restrict qkv_bias, const int *padding_offset,
                                                   const int batch_size, const int seq_len, const int token_num,
                                                   const int head_num, const int size_per_head)
{
    // QKV: [m, 3, n]
    // qkv_bias: [3, n]
    // q_buf, k_buf, v_buf: [batch, head_num, seq_len, size_per_head]

    T *qkv_ptr[3] = {q_buf, k_buf, v_buf};
    const int n = head_num * size_per_head;
    for (int index = blockDim.x * blockIdx.x + threadIdx.x; index < token_num * 3 * n;
         index += gridDim.x * blockDim.x) {
        const int bias_id = index % (3 * n);
        T val = __ldg(&QKV[index]) + __ldg(&qkv_bias[bias_id]);

        const int token_idx = index / (3 * n);
        const int token_padded_idx = token_idx + (padding_offset == nullptr ? 0 : padding_offset[token_idx]);
        const int target_batch_id = token_padded_idx / seq_len;
        const int seq_id = token_padded_idx % seq_len;

        const int qkv_id = (index % (3 * n)) / n;
        const int head_id = (index % n) / size_per_head;
        const int size_id = index % size_per_head;

        qkv_ptr[qkv_id][target_batch_id * head_num * seq_len * size_per_head + head_id * seq_len * size_per_head +
                        seq_id * size_per_head + size_id] = val;
    }
}

// ---- decoder: masked multi-head attention of one new token over the K/V cache [step][batch][head][Dh]; a block
// a (batch, head), a thread a channel of the head; q in shared memory, the logits after it (dynamic) ----------
template <int size_per_head, int block_sz, typename T>
__global__ void masked_attention_kernel(T *key_buf, T *value_buf, T *query_buf, const T *self_Q_bias, T *key_cache,
                                        const T *self_K_bias, T *value_cache, const T *self_V_bias, T *context_buf,
                                        int batch_size, int head_num, const int step, const T scalar)
{
    static_assert(block_sz >= size_per_head, "a thread a channel");
    extern __shared__ __align__(sizeof(T)) unsigned s_buf[];
    T *sq = reinterpret_cast<T *>(s_buf);
    T *logits = reinterpret_cast<T *>(&sq[size_per_head]);

    int tid = threadIdx.x;
    int bid = blockIdx.x / head_num;
    int head_id = blockIdx.x % head_num;

    int qkv_id = bid * head_num * size_per_head + head_id * size_per_head + tid;
    int qkv_bias_id = head_id * size_per_head + tid;

    if (tid < size_per_head)
        sq[tid] = query_buf[qkv_id] + self_Q_bias[qkv_bias_id];
    __syncthreads();

    // offset for each step
    int offset = batch_size * head_num * size_per_head;
    for (int ite = 0; ite < step; ++ite) {
        T key = tid < size_per_head ? key_cache[ite * offset + qkv_id] : (T)0.0f;
        // for the last step, we should update K + bias_K to the cache
        if (ite == step - 1 && tid < size_per_head) {
            key = key_buf[qkv_id] + self_K_bias[qkv_bias_id];
            key_cache[ite * offset + qkv_id] = key;
        }

        T val = (tid < size_per_head) ? key * sq[tid] * scalar : (T)(0.0f);
        T qk = blockReduceSum(val);
        if (threadIdx.x == 0)
            logits[ite] = qk;
        __syncthreads(); // try to remove
    }
    __syncthreads(); // try to remove

    __shared__ float s_max_val, s_sum;
    float local_i = tid < step ? (float)logits[tid] : -1e20f;
    float max_val = blockReduceMax<float>(local_i);
    if (tid == 0)
        s_max_val = max_val;
    __syncthreads();

    local_i -= s_max_val;
    float local_o = tid < step ? __expf(local_i) : 0.0f;
    float val = blockReduceSum<float>(local_o);

    if (tid == 0)
        s_sum = val + 1e-6f;
    __syncthreads();

    if (tid < step)
        logits[tid] = local_o / s_sum;
    __syncthreads();

    if (tid < size_per_head) {
        T sum = (T)0.0f;
        for (int ite = 0; ite < step; ++ite) {
            T value = value_cache[ite * offset + qkv_id];
            // for the last step, we should update V + bias_V to the cache
            if (ite == step - 1) {
                value = value_buf[qkv_id] + self_V_bias[qkv_bias_id];
                value_cache[ite * offset + qkv_id] = value;
            }
            sum += value * logits[ite];
        }
        context_buf[qkv_id] = sum;
    }
}

// =============================================================================================================
// host side: the launchers as the projects write them (the recording never runs them)
// =============================================================================================================
static void rms_norm_f32_cuda(const float *x, float *dst, const int ncols, const int nrows, const float eps,
                              cudaStream_t stream)
{
    const dim3 blocks_num(nrows, 1, 1);
    if (ncols < 1024) {
        const dim3 block_dims(WARP_SIZE, 1, 1);
        rms_norm_f32<WARP_SIZE><<<blocks_num, block_dims, 0, stream>>>(x, dst, ncols, ncols, 0, 0, eps);
    } else {
        const dim3 block_dims(1024, 1, 1);
        rms_norm_f32<1024><<<blocks_num, block_dims, 0, stream>>>(x, dst, ncols, ncols, 0, 0, eps);
    }
}

static void argsort_f32_i32_cuda(const float *x, int *dst, const int ncols, const int nrows, cudaStream_t stream)
{
    // bitonic sort requires ncols to be power of 2
    int ncols_pad = 1;
    while (ncols_pad < ncols)
        ncols_pad *= 2;
    const dim3 block_dims(ncols_pad, 1, 1);
    const dim3 block_nums(1, nrows, 1);
    const size_t shared_mem = ncols_pad * sizeof(int);
    k_argsort_f32_i32<GGML_SORT_ORDER_ASC><<<block_nums, block_dims, shared_mem, stream>>>(x, dst, ncols, ncols_pad);
}

int main()
{
    const int ncols = 1000, nrows = 4;
    float *x, *y;
    int *idx;
    CUDA_CHECK(cudaMalloc(&x, ncols * nrows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, ncols * nrows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&idx, 64 * nrows * sizeof(int)));
    CUDA_CHECK(cudaMemset(x, 0, ncols * nrows * sizeof(float)));
    rms_norm_f32_cuda(x, y, ncols, nrows, 1e-6f, 0);
    argsort_f32_i32_cuda(x, idx, 64, nrows, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    printf("ok\n");
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    CUDA_CHECK(cudaFree(idx));
    return 0;
}
