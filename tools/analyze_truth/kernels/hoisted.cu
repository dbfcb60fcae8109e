// Loads ptxas hoists out of a branch (256 threads, 512 (value, index) pairs):
//   argmin_pairs  a tree reduction of int2 pairs to the smallest value, ties to the smallest index:
//                 NVVM loads a.y only where a.x == b.x (a second basic block); ptxas loads a.x and
//                 a.y with one LDS.64 before the branch. Values 0..15, so ties are many.
extern "C" __global__ void argmin_pairs(const int *vals, int2 *out)
{
    extern __shared__ int2 s_pair[];
    const int t = threadIdx.x;
    s_pair[t] = make_int2(vals[t], t);
    s_pair[t + blockDim.x] = make_int2(vals[t + blockDim.x], t + blockDim.x);
    __syncthreads();
    for (int stride = blockDim.x; stride > 0; stride >>= 1) {
        if (t < stride) {
            int2 &a = s_pair[t];
            const int2 b = s_pair[t + stride];
            if (a.x > b.x || (a.x == b.x && a.y > b.y))
                a = b;
        }
        __syncthreads();
    }
    if (t == 0)
        out[0] = s_pair[0];
}
