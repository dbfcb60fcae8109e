// Thread-block clusters for tests/test_analyze_cluster.py: each block's own shared memory, the
// special registers, distributed shared memory through both address forms, and barriers that are
// each block's own next to the cluster's.
#include "cluster.cuh"  // the package's helpers (src/smemlab/kernels)

// out[block][t]: rank, nranks, blockIdx.x, the next block's s[t] read through a mapped pointer, and the
// rank getctarank finds in a shared::cluster address of the previous block
extern "C" __global__ void cluster_ids(int *out)
{
    __shared__ int s[128];
    const int t = threadIdx.x;
    const unsigned rank = cluster_block_rank(), n = cluster_num_blocks();
    s[t] = 1000 * (int)rank + t;
    cluster_sync();
    const int next = *cluster_map_shared_rank(&s[t], (rank + 1) % n);
    const unsigned prev = map_to_rank(smem_u32(&s[t]), (rank + n - 1) % n);
    unsigned owner;
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(owner) : "r"(prev));
    cluster_sync();
    int *o = out + 5 * ((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + t);
    o[0] = (int)rank;
    o[1] = (int)n;
    o[2] = (int)(blockIdx.x + 100 * blockIdx.y);
    o[3] = next;
    o[4] = (int)owner;
}

// Block 0 of the cluster meets at a __syncthreads inside a branch the others never take: legal, as a
// block's barrier waits for that block's threads only. Then each block adds into every block's counters.
extern "C" __global__ void per_block_barriers(int *out)
{
    __shared__ int c[64];
    const int t = threadIdx.x;
    const unsigned rank = cluster_block_rank(), n = cluster_num_blocks();
    c[t % 64] = 0;
    if (rank == 0) {
        __syncthreads();
        c[t % 64] = 0;
    }
    __syncthreads();
    cluster_sync();
    for (unsigned r = 0; r < n; ++r)
        atomicAdd(cluster_map_shared_rank(&c[t % 64], r), (int)rank + 1);
    cluster_sync();
    if (t < 64)
        out[blockIdx.x * 64 + t] = c[t];
}

// The next block's shared memory, with no wrap-around: past the last block of the cluster.
extern "C" __global__ void map_next(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x] = 1;
    cluster_sync();
    out[threadIdx.x] = *cluster_map_shared_rank(&s[threadIdx.x], cluster_block_rank() + 1);
}

// A cluster barrier that only some blocks reach: the GPU would hang.
extern "C" __global__ void cluster_barrier_skipped(int *out)
{
    if (cluster_block_rank() != 1)
        cluster_sync();
    out[threadIdx.x] = 1;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) fixed_pair(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)cluster_block_rank();
}
