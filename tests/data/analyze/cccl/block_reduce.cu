// BlockReduce: sum, max and a partial-tile sum with each algorithm.
#include <cub/block/block_reduce.cuh>

template <cub::BlockReduceAlgorithm A>
__device__ void reduce(const float* in, const int* ints, float* sum, int* mx, int* partial, int n)
{
    using RF = cub::BlockReduce<float, 128, A>;
    using RI = cub::BlockReduce<int, 128, A>;
    __shared__ typename RF::TempStorage tf;
    __shared__ typename RI::TempStorage ti;
    float v[2] = {in[threadIdx.x], in[threadIdx.x + 128]};
    float s = RF(tf).Sum(v);
    int m = RI(ti).Reduce(ints[threadIdx.x], cuda::maximum<>{});
    __syncthreads();
    int p = RI(ti).Sum(ints[threadIdx.x], n);
    if (threadIdx.x == 0) { *sum = s; *mx = m; *partial = p; }
}

__global__ void reduce_raking(const float* in, const int* ints, float* sum, int* mx, int* partial, int n) { reduce<cub::BLOCK_REDUCE_RAKING>(in, ints, sum, mx, partial, n); }
__global__ void reduce_raking_commutative(const float* in, const int* ints, float* sum, int* mx, int* partial, int n) { reduce<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>(in, ints, sum, mx, partial, n); }
__global__ void reduce_warp_reductions(const float* in, const int* ints, float* sum, int* mx, int* partial, int n) { reduce<cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, ints, sum, mx, partial, n); }
