// fresh12_kernels.cu -- GPT-2 training kernels in the manner of llm.c (bf16 activations through a 16-byte
// Packed128, cooperative groups, streaming loads and stores): the token + position encoder, LayerNorm (a warp a
// row; and with the weights and the row cached in shared memory), an online softmax, the attention permutes, a
// fused residual + LayerNorm, GELU forward and backward, the AdamW step, the fused classifier (softmax +
// cross-entropy backward in place) and the bias gradient of a matmul backward.
//
// Build and self test (the truth recording launches the kernels itself and never runs main()):
//     nvcc -std=c++17 -arch=sm_90 -O3 fresh12_kernels.cu -o fresh12_kernels && ./fresh12_kernels
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "fresh12_common.cuh"

namespace cg = cooperative_groups;

#define cudaCheck(err) (cuda_check((err), __FILE__, __LINE__))
inline void cuda_check(cudaError_t error, const char *file, int line)
{
    if (error != cudaSuccess) {
        std::printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
        std::exit(EXIT_FAILURE);
    }
}

typedef __nv_bfloat16 floatX;
#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

// ---- Packed128: sixteen bytes of any element type, loaded and stored as one int4 -----------------------------
template <class ElementType>
struct alignas(16) Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits)
    {
        static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
        memcpy(&payload, &bits, sizeof(bits));
    }
    __device__ static Packed128 constant(ElementType value)
    {
        Packed128 result;
        for (int k = 0; k < size; ++k)
            result.payload[k] = value;
        return result;
    }
    __device__ static Packed128 zeros() { return constant(ElementType(0.f)); }
    __device__ ElementType &operator[](int index) { return payload[index]; }
    __device__ const ElementType &operator[](int index) const { return payload[index]; }
    __device__ int4 get_bits() const
    {
        int4 bits;
        memcpy(&bits, &payload, sizeof(bits));
        return bits;
    }
    static constexpr const int size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};

template <class ElementType>
__device__ Packed128<ElementType> load128(const ElementType *address)
{
    return Packed128<ElementType>{*reinterpret_cast<const int4 *>(address)};
}
template <class ElementType>
__device__ Packed128<ElementType> load128cs(const ElementType *address)
{
    return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4 *>(address))};
}
template <class ElementType>
__device__ void store128(ElementType *target, Packed128<ElementType> value)
{
    *reinterpret_cast<int4 *>(target) = value.get_bits();
}
template <class ElementType>
__device__ void store128cs(ElementType *target, Packed128<ElementType> value)
{
    __stcs(reinterpret_cast<int4 *>(target), value.get_bits());
}

typedef Packed128<float> f128;
typedef Packed128<floatX> x128;

__device__ __forceinline__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
    return val;
}
__device__ __forceinline__ float warpReduceMax(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_xor_sync(0xFFFFFFFF, val, offset));
    return val;
}

// every thread gets the block's result; one shared slot a warp. final_sync: the caller reuses the slots at once
template <float (*warp_reduction)(float)>
__device__ inline float blockReduce(float val, bool final_sync = false, float out_of_bounds = 0.0f)
{
    __shared__ float shared_val[WARP_SIZE];
    const int lane_id = threadIdx.x % WARP_SIZE;
    const int warp_id = threadIdx.x / WARP_SIZE;
    const int num_warps = blockDim.x / WARP_SIZE;

    float warp_val = warp_reduction(val);
    if (lane_id == 0)
        shared_val[warp_id] = warp_val;
    __syncthreads();
    warp_val = (lane_id < num_warps) ? shared_val[lane_id] : out_of_bounds;
    const float block_val = warp_reduction(warp_val);
    if (final_sync)
        __syncthreads();
    return block_val;
}

// -------------------------------------------------------------------------------------------------------------
// encoder: out[b, t, :] = wte[inp[b, t], :] + wpe[t, :], eight channels a thread (C a multiple of 8)
// -------------------------------------------------------------------------------------------------------------
__global__ void encoder_forward_kernel3(floatX *out, const int *inp, const floatX *wte, const floatX *wpe, int B,
                                        int T, int C)
{
    const int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    const int N = B * T * C;
    if (idx >= N)
        return;
    const int bt = idx / C;
    const int b = bt / T;
    const int t = bt % T;
    const int c = idx % C;
    const int ix = inp[b * T + t];

    floatX *out_btc = out + b * T * C + t * C + c;
    const floatX *wte_ix = wte + ix * C + c;
    const floatX *wpe_tc = wpe + t * C + c;

    x128 packed_out;
    const x128 wte128 = load128cs(wte_ix);
    const x128 wpe128 = load128cs(wpe_tc);
    for (int k = 0; k < x128::size; k++)
        packed_out[k] = (floatX)((float)wte128[k] + (float)wpe128[k]);
    store128(out_btc, packed_out);
}

// -------------------------------------------------------------------------------------------------------------
// LayerNorm forward, a warp a row through cooperative groups (no shared memory of its own)
// -------------------------------------------------------------------------------------------------------------
__global__ void layernorm_forward_kernel3(floatX *__restrict__ out, float *__restrict__ mean, float *__restrict__ rstd,
                                          const floatX *__restrict__ inp, const floatX *__restrict__ weight,
                                          const floatX *__restrict__ bias, int N, int C)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N)
        return;

    const floatX *x = inp + idx * C;
    float sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size())
        sum += (float)x[i];
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    const float m = sum / C;
    if (warp.thread_rank() == 0 && mean != nullptr)
        __stcs(mean + idx, m);

    sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        const float diff = (float)x[i] - m;
        sum += diff * diff;
    }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    const float s = rsqrtf(sum / C + 1e-5f);
    if (warp.thread_rank() == 0 && rstd != nullptr)
        __stcs(rstd + idx, s);

    floatX *o = out + idx * C;
    for (int c = warp.thread_rank(); c < C; c += warp.size()) {
        const float n = s * ((float)__ldcs(x + c) - m);
        __stcs(o + c, (floatX)(n * (float)weight[c] + (float)bias[c]));
    }
}

// -------------------------------------------------------------------------------------------------------------
// LayerNorm forward with blockDim (32, rows a block): weight and bias cached in dynamic shared memory once a
// block, each warp's row kept there too between the passes; C a multiple of 8
// -------------------------------------------------------------------------------------------------------------
__global__ void __launch_bounds__(512, 2)
    layernorm_forward_kernel6(floatX *__restrict__ out, float *__restrict__ mean, float *__restrict__ rstd,
                              const floatX *__restrict__ inp, const floatX *__restrict__ weight,
                              const floatX *__restrict__ bias, int N, int C)
{
    assert(blockDim.x == WARP_SIZE);
    extern __shared__ char params[];
    x128 *s_weight = reinterpret_cast<x128 *>(params);
    x128 *s_bias = reinterpret_cast<x128 *>(params) + (C / x128::size);
    x128 *s_in = reinterpret_cast<x128 *>(params) + ((2 + threadIdx.y) * C / x128::size);

    const int sidx = (threadIdx.x + WARP_SIZE * threadIdx.y) * x128::size;
    for (int i = sidx; i < C; i += blockDim.y * WARP_SIZE * x128::size) {
        s_weight[i / x128::size] = load128(weight + i);
        s_bias[i / x128::size] = load128(bias + i);
    }
    __syncthreads();

    const int idx = blockIdx.x * blockDim.y + threadIdx.y;
    if (idx >= N)
        return;
    inp += idx * C;
    out += idx * C;

    const float eps = 1e-5f;
    float sum = 0.0f;
    for (int c = threadIdx.x * x128::size; c < C; c += WARP_SIZE * x128::size) {
        const x128 in_data = load128cs(inp + c);
        for (int k = 0; k < x128::size; ++k)
            sum += (float)in_data[k];
        s_in[c / x128::size] = in_data;
    }
    sum = warpReduceSum(sum);
    const float m = sum / C;
    float v = 0.f;
    for (int c = threadIdx.x * x128::size; c < C; c += WARP_SIZE * x128::size) {
        const x128 in_data = s_in[c / x128::size];
        for (int k = 0; k < x128::size; ++k)
            v += ((float)in_data[k] - m) * ((float)in_data[k] - m);
    }
    v = warpReduceSum(v) / C;
    const float s = rsqrtf(v + eps);

    for (int c = threadIdx.x * x128::size; c < C; c += WARP_SIZE * x128::size) {
        const x128 in_data = s_in[c / x128::size];
        const x128 w = s_weight[c / x128::size];
        const x128 b = s_bias[c / x128::size];
        x128 out_data;
        for (int k = 0; k < x128::size; ++k) {
            const float n = s * ((float)in_data[k] - m);
            out_data[k] = (floatX)(n * (float)w[k] + (float)b[k]);
        }
        store128cs(out + c, out_data);
    }
    if (threadIdx.x == 0 && mean != nullptr)
        __stcs(mean + idx, m);
    if (threadIdx.x == 0 && rstd != nullptr)
        __stcs(rstd + idx, s);
}

// -------------------------------------------------------------------------------------------------------------
// softmax forward, a block a row, max and sum in one online pass; warps combine by shuffles, the warps' pairs
// through shared memory
// -------------------------------------------------------------------------------------------------------------
__device__ __forceinline__ void online_combine(float &m, float &s, float om, float os)
{
    const float nm = fmaxf(m, om);
    const float a = (m == -INFINITY) ? 0.f : s * expf(m - nm);
    const float b = (om == -INFINITY) ? 0.f : os * expf(om - nm);
    m = nm;
    s = a + b;
}

__global__ void softmax_forward_online_kernel(float *out, const float *inp, int N, int C)
{
    __shared__ float s_max[WARP_SIZE];
    __shared__ float s_sum[WARP_SIZE];
    const int row = blockIdx.x;
    if (row >= N)
        return;
    const int lane = threadIdx.x % WARP_SIZE, wid = threadIdx.x / WARP_SIZE;
    const int nwarps = blockDim.x / WARP_SIZE;
    const float *x = inp + (size_t)row * C;

    float maxval = -INFINITY, sumval = 0.f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        const float v = x[i];
        if (v > maxval) {
            sumval = (maxval == -INFINITY) ? 0.f : sumval * expf(maxval - v);
            maxval = v;
        }
        sumval += expf(v - maxval);
    }
    for (int off = 16; off > 0; off >>= 1) {
        const float om = __shfl_xor_sync(FULL_MASK, maxval, off);
        const float os = __shfl_xor_sync(FULL_MASK, sumval, off);
        online_combine(maxval, sumval, om, os);
    }
    if (lane == 0) {
        s_max[wid] = maxval;
        s_sum[wid] = sumval;
    }
    __syncthreads();
    if (wid == 0) {
        float m = lane < nwarps ? s_max[lane] : -INFINITY;
        float s = lane < nwarps ? s_sum[lane] : 0.f;
        for (int off = 16; off > 0; off >>= 1) {
            const float om = __shfl_xor_sync(FULL_MASK, m, off);
            const float os = __shfl_xor_sync(FULL_MASK, s, off);
            online_combine(m, s, om, os);
        }
        if (lane == 0) {
            s_max[0] = m;
            s_sum[0] = s;
        }
    }
    __syncthreads();
    const float gmax = s_max[0];
    const float inv = 1.f / s_sum[0];
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        out[(size_t)row * C + i] = expf(x[i] - gmax) * inv;
}

// -------------------------------------------------------------------------------------------------------------
// attention layout changes: qkv (B, N, 3, NH, d) -> q, k, v (B, NH, N, d); and (B, NH, N, d) -> (B, N, NH, d)
// -------------------------------------------------------------------------------------------------------------
template <typename T>
__global__ void permute_kernel(T *q, T *k, T *v, const T *inp, int B, int N, int NH, int d)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * NH * N * d) {
        const int b = idx / (NH * N * d);
        int rest = idx % (NH * N * d);
        const int nh_ = rest / (N * d);
        rest = rest % (N * d);
        const int n = rest / d;
        const int d_ = rest % d;
        const int inp_idx = (b * N * 3 * NH * d) + (n * 3 * NH * d) + (0 * NH * d) + (nh_ * d) + d_;
        q[idx] = __ldcs(&inp[inp_idx]);
        k[idx] = __ldcs(&inp[inp_idx + NH * d]);
        v[idx] = __ldcs(&inp[inp_idx + 2 * (NH * d)]);
    }
}

template <typename T>
__global__ void unpermute_kernel(const T *inp, T *out, int B, int N, int NH, int d)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * NH * N * d) {
        const int b = idx / (NH * N * d);
        int rest = idx % (NH * N * d);
        const int nh_ = rest / (N * d);
        rest = rest % (N * d);
        const int n = rest / d;
        const int d_ = rest % d;
        const int other_idx = (b * NH * N * d) + (n * NH * d) + (nh_ * d) + d_;
        out[other_idx] = __ldcs(&inp[idx]);
    }
}

// -------------------------------------------------------------------------------------------------------------
// residual = inp1 + inp2, normed = LayerNorm(residual): blockDim (32, rows a block), weight, bias and each warp's
// residual row in dynamic shared memory
// -------------------------------------------------------------------------------------------------------------
__global__ void fused_residual_forward_kernel5(floatX *residual, floatX *normed, float *mean, float *rstd,
                                               const floatX *inp1, const floatX *inp2, const floatX *weight,
                                               const floatX *bias, int N, int C)
{
    constexpr const int WS = WARP_SIZE;
    extern __shared__ char params[];
    x128 *s_weight = reinterpret_cast<x128 *>(params);
    x128 *s_bias = reinterpret_cast<x128 *>(params) + (C / x128::size);
    x128 *s_res = reinterpret_cast<x128 *>(params) + ((2 + threadIdx.y) * C / x128::size);

    const int sidx = (threadIdx.x + WS * threadIdx.y) * x128::size;
    for (int i = sidx; i < C; i += blockDim.y * WS * x128::size) {
        s_weight[i / x128::size] = load128(weight + i);
        s_bias[i / x128::size] = load128(bias + i);
    }
    __syncthreads();

    const int idx = blockIdx.x * blockDim.y + threadIdx.y;
    if (idx >= N)
        return;
    residual += C * idx;
    normed += C * idx;
    inp1 += C * idx;
    inp2 += C * idx;

    const float eps = 1e-5f;
    float sum = 0.0f;
    for (int c = threadIdx.x * x128::size; c < C; c += WS * x128::size) {
        const x128 in1 = load128cs(inp1 + c);
        const x128 in2 = load128cs(inp2 + c);
        x128 out;
        for (int k = 0; k < x128::size; ++k) {
            out[k] = (floatX)((float)in1[k] + (float)in2[k]);
            sum += (float)out[k];
        }
        store128cs(residual + c, out);
        s_res[c / x128::size] = out;
    }
    sum = warpReduceSum(sum);
    const float m = sum / C;
    float v = 0.f;
    for (int c = threadIdx.x * x128::size; c < C; c += WS * x128::size) {
        const x128 res = s_res[c / x128::size];
        for (int k = 0; k < x128::size; ++k)
            v += ((float)res[k] - m) * ((float)res[k] - m);
    }
    v = warpReduceSum(v) / C;
    const float s = rsqrtf(v + eps);

    for (int c = threadIdx.x * x128::size; c < C; c += WS * x128::size) {
        const x128 res = s_res[c / x128::size];
        const x128 w = s_weight[c / x128::size];
        const x128 b = s_bias[c / x128::size];
        x128 out;
        for (int k = 0; k < x128::size; ++k) {
            const float n = s * ((float)res[k] - m);
            out[k] = (floatX)(n * (float)w[k] + (float)b[k]);
        }
        store128cs(normed + c, out);
    }
    if (threadIdx.x == 0) {
        mean[idx] = m;
        rstd[idx] = s;
    }
}

// -------------------------------------------------------------------------------------------------------------
// GELU (tanh form) forward and backward in place, eight bf16 a thread
// -------------------------------------------------------------------------------------------------------------
__global__ void gelu_forward_kernel2(floatX *out, const floatX *inp, int N)
{
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (i < N) {
        x128 packed_out;
        const x128 packed_inp = load128cs(inp + i);
        for (int k = 0; k < packed_inp.size; ++k) {
            const float xi = (float)packed_inp[k];
            const float cube = 0.044715f * xi * xi * xi;
            packed_out[k] = (floatX)(0.5f * xi * (1.0f + tanhf(GELU_SCALING_FACTOR * (xi + cube))));
        }
        store128(out + i, packed_out);
    }
}

__global__ void gelu_backward_inplace_kernel(floatX *d_in_out, const floatX *inp, int N)
{
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (i < N) {
        x128 packed_dinp;
        const x128 packed_inp = load128cs(inp + i);
        const x128 packed_dout = load128(d_in_out + i);
        for (int k = 0; k < packed_inp.size; ++k) {
            const float x = (float)packed_inp[k];
            const float cube = 0.044715f * x * x * x;
            const float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
            const float tanh_out = tanhf(tanh_arg);
            const float coshf_out = coshf(tanh_arg);
            const float sech_out = 1.0f / (coshf_out * coshf_out);
            const float local_grad =
                0.5f * (1.0f + tanh_out) + x * 0.5f * sech_out * GELU_SCALING_FACTOR * (1.0f + 3.0f * 0.044715f * x * x);
            packed_dinp[k] = (floatX)(local_grad * (float)packed_dout[k]);
        }
        store128(d_in_out + i, packed_dinp);
    }
}

// -------------------------------------------------------------------------------------------------------------
// AdamW: bf16 parameters with a float master copy, bf16 gradients, float moments
// -------------------------------------------------------------------------------------------------------------
__device__ __forceinline__ float lerp_(float start, float end, float weight)
{
    return fmaf(weight, end, fmaf(-weight, start, start));
}

template <typename Tp, typename Tg>
__device__ void adamw_update(Tp *params_memory, float *master_params_memory, const Tg *grads_memory, float *m_memory,
                             float *v_memory, size_t num_parameters, float learning_rate, float beta1, float beta2,
                             float beta1_correction, float beta2_correction, float eps, float weight_decay,
                             float grad_scale)
{
    const size_t idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= num_parameters)
        return;
    const float grad = grad_scale * (float)grads_memory[idx];
    float m = m_memory[idx];
    float v = v_memory[idx];
    m = lerp_(grad, m, beta1);
    m_memory[idx] = m;
    v = lerp_(grad * grad, v, beta2);
    v_memory[idx] = v;
    m /= beta1_correction;
    v /= beta2_correction;
    const float old_param = (master_params_memory != NULL) ? master_params_memory[idx] : (float)params_memory[idx];
    const float param = old_param - (learning_rate * (m / (sqrtf(fabsf(v)) + eps) + weight_decay * old_param));
    params_memory[idx] = (Tp)param;
    if (master_params_memory != NULL)
        master_params_memory[idx] = param;
}

template <typename Tp, typename Tg>
__global__ void adamw_kernel3(Tp *params_memory, float *master_params_memory, const Tg *grads_memory, float *m_memory,
                              float *v_memory, size_t num_parameters, float learning_rate, float beta1, float beta2,
                              float beta1_correction, float beta2_correction, float eps, float weight_decay,
                              float grad_scale)
{
    adamw_update(params_memory, master_params_memory, grads_memory, m_memory, v_memory, num_parameters,
                 learning_rate, beta1, beta2, beta1_correction, beta2_correction, eps, weight_decay, grad_scale);
}

// -------------------------------------------------------------------------------------------------------------
// fused classifier: a block a (b, t) row of V logits padded to P; the softmax's max and sum in one pass, the
// row's loss, then the logits overwritten with (softmax - onehot(target)) * dloss, eight at a time plus a tail
// -------------------------------------------------------------------------------------------------------------
struct SoftmaxParams {
    float Scale;
    float Offset;
};

__device__ SoftmaxParams prepare_softmax_blockwise(int idx, const floatX *inp, int V, int P)
{
    const floatX *x = inp + (size_t)idx * P;
    float thread_maxval = -INFINITY;
    float thread_sumval = 0.0f;
    const int nvec = V / x128::size;
    for (int i = threadIdx.x; i < nvec; i += blockDim.x) {
        const x128 packed_x = load128(x + i * x128::size);
        for (int k = 0; k < x128::size; ++k) {
            const float v = (float)packed_x[k];
            const float old_maxval = thread_maxval;
            thread_maxval = fmaxf(thread_maxval, v);
            thread_sumval *= expf(old_maxval - thread_maxval);
            thread_sumval += expf(v - thread_maxval);
        }
    }
    for (int i = nvec * x128::size + threadIdx.x; i < V; i += blockDim.x) {
        const float v = (float)x[i];
        const float old_maxval = thread_maxval;
        thread_maxval = fmaxf(thread_maxval, v);
        thread_sumval *= expf(old_maxval - thread_maxval);
        thread_sumval += expf(v - thread_maxval);
    }
    const float block_maxval = blockReduce<warpReduceMax>(thread_maxval, true, -INFINITY);
    thread_sumval *= expf(thread_maxval - block_maxval);
    const float block_sumval = blockReduce<warpReduceSum>(thread_sumval);
    return SoftmaxParams{1.f / block_sumval, block_maxval};
}

__global__ void fused_classifier_kernel5(floatX *logits, floatX *losses, floatX *probs, const float dloss,
                                         const int *targets, int B, int T, int V, int P)
{
    const int idx = blockIdx.x;
    const int ix = targets[idx];
    const SoftmaxParams sp = prepare_softmax_blockwise(idx, logits, V, P);

    if (threadIdx.x == 0) {
        const float prob = expf((float)logits[(size_t)idx * P + ix] - sp.Offset) * sp.Scale;
        losses[idx] = (floatX)(-logf(prob));
    }
    __syncthreads();  // the loss's logit is read before any thread overwrites it

    floatX *logits_vec = logits + (size_t)idx * P;
    const int nvec = V / x128::size;
    for (int i = threadIdx.x; i < nvec; i += blockDim.x) {
        x128 packed_logits_vec = load128(logits_vec + i * x128::size);
        x128 packed_probs;
        for (int k = 0; k < x128::size; ++k) {
            const int element = i * x128::size + k;
            const float prob = expf((float)packed_logits_vec[k] - sp.Offset) * sp.Scale;
            packed_probs[k] = (floatX)prob;
            const float indicator = (element == ix) ? 1.0f : 0.0f;
            packed_logits_vec[k] = (floatX)((prob - indicator) * dloss);
        }
        store128(logits_vec + i * x128::size, packed_logits_vec);
        if (probs != NULL)
            store128(probs + (size_t)idx * P + i * x128::size, packed_probs);
    }
    const int unaligned_start = V & ~(x128::size - 1);
    for (int i = threadIdx.x + unaligned_start; i < V; i += blockDim.x) {
        const float prob = expf((float)logits_vec[i] - sp.Offset) * sp.Scale;
        if (probs != NULL)
            probs[(size_t)idx * P + i] = (floatX)prob;
        const float indicator = (i == ix) ? 1.0f : 0.0f;
        logits_vec[i] = (floatX)((prob - indicator) * dloss);
    }
}

// -------------------------------------------------------------------------------------------------------------
// matmul backward, the bias: dbias[oc] += sum over the B*T rows of dout[row, oc]. blockDim (32, BDY): lane x owns
// eight channels, the rows split over y; the BDY partial sums of each channel meet in shared memory and the
// y-th thread of each column adds up channel y of its eight
// -------------------------------------------------------------------------------------------------------------
template <int BDY>
__global__ void matmul_backward_bias_kernel(floatX *dbias, const floatX *dout, int B, int T, int OC)
{
    __shared__ float s_acc[BDY][WARP_SIZE][x128::size];
    const int oc = (blockIdx.x * WARP_SIZE + threadIdx.x) * x128::size;
    const int BT = B * T;

    float acc[x128::size];
    for (int k = 0; k < x128::size; ++k)
        acc[k] = 0.f;
    if (oc < OC) {
        for (int row = threadIdx.y; row < BT; row += BDY) {
            const x128 d = load128(dout + (size_t)row * OC + oc);
            for (int k = 0; k < x128::size; ++k)
                acc[k] += (float)d[k];
        }
    }
    for (int k = 0; k < x128::size; ++k)
        s_acc[threadIdx.y][threadIdx.x][k] = acc[k];
    __syncthreads();

    for (int k = threadIdx.y; k < x128::size; k += BDY) {
        float total = 0.f;
        for (int y = 0; y < BDY; ++y)
            total += s_acc[y][threadIdx.x][k];
        if (oc + k < OC)
            dbias[oc + k] = (floatX)((float)dbias[oc + k] + total);
    }
}

// =============================================================================================================
// host side (never run by the truth recording)
// =============================================================================================================
int main()
{
    const int B = 2, T = 16, C = 64, V = 100;
    std::vector<int> tokens(B * T);
    for (int i = 0; i < B * T; ++i)
        tokens[i] = (i * 7) % V;
    int *d_inp;
    floatX *d_wte, *d_wpe, *d_out;
    cudaCheck(cudaMalloc(&d_inp, B * T * sizeof(int)));
    cudaCheck(cudaMalloc(&d_wte, V * C * sizeof(floatX)));
    cudaCheck(cudaMalloc(&d_wpe, T * C * sizeof(floatX)));
    cudaCheck(cudaMalloc(&d_out, B * T * C * sizeof(floatX)));
    cudaCheck(cudaMemcpy(d_inp, tokens.data(), B * T * sizeof(int), cudaMemcpyHostToDevice));
    cudaCheck(cudaMemset(d_wte, 0, V * C * sizeof(floatX)));
    cudaCheck(cudaMemset(d_wpe, 0, T * C * sizeof(floatX)));
    const int block_size = 256;
    const int grid_size = iDivUp(B * T * C, block_size * x128::size);
    encoder_forward_kernel3<<<grid_size, block_size>>>(d_out, d_inp, d_wte, d_wpe, B, T, C);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaDeviceSynchronize());
    std::printf("encoder ok\n");
    cudaFree(d_inp);
    cudaFree(d_wte);
    cudaFree(d_wpe);
    cudaFree(d_out);
    return 0;
}
