// Shared atomics that ptxas aggregates per warp: a min/max/and/or/xor whose result is unused, on an address
// the same for the whole warp (a uniform register), becomes REDUX (the lanes' values combined) and one
// lane's ATOMS: one wavefront a warp however many lanes take part. On an address that differs per lane
// the lanes' ATOMS stay (lanes on one bank serialised).
//   block_max_bits   atomicMax of every thread's key into one shared word, then atomicOr of a bit mask
//   per_lane_min     atomicMin into a word per lane group of 4 (eight words a warp): not aggregated
extern "C" __global__ void block_max_bits(const int *keys, int *out)
{
    __shared__ int best;
    __shared__ unsigned seen;
    const int t = threadIdx.x;
    if (t == 0) {
        best = -2147483647 - 1;
        seen = 0u;
    }
    __syncthreads();
    const int k = keys[t];
    atomicMax(&best, k);
    atomicOr(&seen, 1u << (k & 31));
    __syncthreads();
    if (t == 0) {
        out[0] = best;
        out[1] = (int)seen;
    }
}

extern "C" __global__ void per_lane_min(const int *keys, int *out)
{
    __shared__ int lows[64];
    const int t = threadIdx.x;
    if (t < 64) lows[t] = 2147483647;
    __syncthreads();
    atomicMin(&lows[(t / 32) * 8 + (t % 32) / 4], keys[t]);
    __syncthreads();
    if (t < 64) out[t] = lows[t];
}
