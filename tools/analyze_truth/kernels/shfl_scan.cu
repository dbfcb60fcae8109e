// Block-wide inclusive scan of 256 ints: a warp scan with __shfl_up_sync, the warps' totals through
// shared memory, scanned by warp 0 with shuffles, and added back (the CUDA samples' shfl_scan).
extern "C" __global__ void shfl_scan_block(int *out, const int *in)
{
    __shared__ int sums[32];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int v = in[t];
    for (int i = 1; i < 32; i <<= 1) {
        const int n = __shfl_up_sync(0xffffffffu, v, i);
        if (lane >= i) v += n;
    }
    if (lane == 31) sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < (int)(blockDim.x >> 5) ? sums[lane] : 0;
        for (int i = 1; i < 32; i <<= 1) {
            const int n = __shfl_up_sync(0xffffffffu, w, i);
            if (lane >= i) w += n;
        }
        sums[lane] = w;
    }
    __syncthreads();
    if (warp > 0) v += sums[warp - 1];
    out[t] = v;
}
