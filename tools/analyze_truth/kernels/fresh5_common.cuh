// Shared helpers of the fifth held-out batch (fresh5_kernels.cu, fresh5_apps.cu): warp and sub-warp sums, a
// lower_bound over a sorted int array, and a block-wide exclusive scan through shared memory.
#pragma once

#define F5_FULL 0xffffffffu

struct F5Sum {
    __device__ float operator()(float a, float b) const { return a + b; }
};
struct F5Max {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// butterfly all-reduce over the warp: every lane gets the result
template <class Op>
__device__ __forceinline__ float f5_warp_allreduce(float v, Op op)
{
#pragma unroll
    for (int mask = 1; mask < 32; mask <<= 1)
        v = op(v, __shfl_xor_sync(F5_FULL, v, mask));
    return v;
}
__device__ __forceinline__ float f5_warp_sum(float v) { return f5_warp_allreduce(v, F5Sum()); }
__device__ __forceinline__ float f5_warp_max(float v) { return f5_warp_allreduce(v, F5Max()); }

// sum over aligned groups of W lanes (W a power of two up to 32); lane 0 of the group holds the result
template <int W>
__device__ __forceinline__ float f5_group_sum(float v)
{
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1)
        v += __shfl_down_sync(F5_FULL, v, o, W);
    return v;
}

// first position in a[0, n) whose value is not less than key
__device__ __forceinline__ int f5_lower_bound(const int *a, int n, int key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// exclusive scan of one int a thread over a 1-D block, Hillis-Steele in shared memory with two buffers (PMPP's
// double-buffered form); `buf` holds 2 * blockDim.x ints. Returns the thread's offset; `total` gets the block's
// sum. Ends with a barrier so buf can be reused.
__device__ __forceinline__ int f5_block_scan_excl(int x, int *buf, int &total)
{
    const int n = blockDim.x, t = threadIdx.x;
    int *src = buf, *dst = buf + n;
    src[t] = x;
    __syncthreads();
    for (int d = 1; d < n; d <<= 1) {
        dst[t] = t >= d ? src[t] + src[t - d] : src[t];
        __syncthreads();
        int *tmp = src;
        src = dst;
        dst = tmp;
    }
    const int incl = src[t];
    total = src[n - 1];
    __syncthreads();
    return incl - x;
}
