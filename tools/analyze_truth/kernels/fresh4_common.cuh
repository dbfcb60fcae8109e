// Shared helpers of the fourth held-out batch (fresh4_kernels.cu, fresh4_apps.cu): warp reductions with and
// without an index, a block-wide exclusive scan through shared memory, GELU (tanh form), and clamped reads.
#pragma once

#define F4_FULL 0xffffffffu
#define F4_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__device__ __forceinline__ float f4_warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(F4_FULL, v, o);
    return v;
}

__device__ __forceinline__ float f4_warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(F4_FULL, v, o));
    return v;
}

// the largest value of the warp and the smallest index that holds it
__device__ __forceinline__ void f4_warp_argmax(float &v, int &idx)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        float ov = __shfl_xor_sync(F4_FULL, v, o);
        int oi = __shfl_xor_sync(F4_FULL, idx, o);
        if (ov > v || (ov == v && oi < idx)) {
            v = ov;
            idx = oi;
        }
    }
}

// exclusive scan of one int a thread over the block (blockDim.x a multiple of 32, at most 1024); `warp_tot` holds
// 32 ints; returns the thread's offset, `total` the block's sum. Ends with a barrier so warp_tot can be reused.
__device__ __forceinline__ int f4_block_exclusive_scan(int x, int *warp_tot, int &total)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    int inc = x;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        int y = __shfl_up_sync(F4_FULL, inc, o);
        if (lane >= o)
            inc += y;
    }
    if (lane == 31)
        warp_tot[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int t = lane < nwarps ? warp_tot[lane] : 0;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            int y = __shfl_up_sync(F4_FULL, t, o);
            if (lane >= o)
                t += y;
        }
        warp_tot[lane] = t;  // inclusive over warps
    }
    __syncthreads();
    int before = warp ? warp_tot[warp - 1] : 0;
    total = warp_tot[nwarps - 1];
    __syncthreads();
    return before + inc - x;
}

__device__ __forceinline__ float f4_gelu_tanh(float x)
{
    const float k = 0.7978845608028654f;  // sqrt(2/pi)
    float cube = 0.044715f * x * x * x;
    return 0.5f * x * (1.0f + tanhf(k * (x + cube)));
}

__device__ __forceinline__ int f4_clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

template <typename T> __device__ __forceinline__ T f4_read_clamped(const T *img, int x, int y, int w, int h, int pitch)
{
    x = f4_clampi(x, 0, w - 1);
    y = f4_clampi(y, 0, h - 1);
    return img[y * pitch + x];
}
