// Histograms of int32 keys (Programming Guide, "Distributed Shared Memory"; seed 001 "分布式共享内存").
//
//   histGlobal          every key is one atomicAdd on the bins in global memory (no shared memory)
//   histSmem            the standard method: a block-private histogram of ALL the bins in dynamic
//                       shared memory, then one atomicAdd per non-zero bin into global memory;
//                       limited to the bins one block's shared memory holds
//   clusterHist_kernel  the seed's kernel: the histogram spread over the shared memories of a
//                       thread-block cluster (bins_per_block in each block), every key an atomicAdd
//                       into the shared memory of the block owning its bin (distributed shared
//                       memory); a cluster of 1 is the block-local histogram
//
// All three are grid-stride loops over the keys (64-bit indices); a key below 0 counts in bin 0 and
// one at or above nbins in bin nbins-1, as in the seed. The bins must be zeroed before each launch.
#include "cluster.cuh"

extern "C" __global__ void histGlobal(int *bins, const int nbins, const int *__restrict__ input, size_t array_size)
{
    const size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < array_size; i += stride) {
        int binid = input[i];
        if (binid < 0)
            binid = 0;
        else if (binid >= nbins)
            binid = nbins - 1;
        atomicAdd(&bins[binid], 1);
    }
}

extern "C" __global__ void histSmem(int *bins, const int nbins, const int *__restrict__ input, size_t array_size)
{
    extern __shared__ int smem[];
    for (int i = threadIdx.x; i < nbins; i += blockDim.x)
        smem[i] = 0;
    __syncthreads();  // the block's histogram is zero before any thread counts into it

    const size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < array_size; i += stride) {
        int binid = input[i];
        if (binid < 0)
            binid = 0;
        else if (binid >= nbins)
            binid = nbins - 1;
        atomicAdd(&smem[binid], 1);
    }
    __syncthreads();  // every key of the block is counted before the histogram is read

    for (int i = threadIdx.x; i < nbins; i += blockDim.x) {
        const int v = smem[i];
        if (v != 0)  // skipping empty bins saves global atomics on sparse (skewed) data
            atomicAdd(&bins[i], v);
    }
}

// The seed's kernel, with cooperative_groups replaced by cluster.cuh. Launched with a cluster of
// C blocks along x and bins_per_block = ceil(nbins / C) ints of dynamic shared memory per block.
extern "C" __global__ void clusterHist_kernel(int *bins, const int nbins, const int bins_per_block,
                                              const int *__restrict__ input, size_t array_size)
{
    extern __shared__ int smem[];
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;  // cg::this_grid().thread_rank()

    // cluster.block_rank(), cluster.dim_blocks().x
    const unsigned int clusterBlockRank = cluster_block_rank();
    const int cluster_size = (int)cluster_num_blocks();
    (void)cluster_size;

    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        smem[i] = 0;

    // Every block of the cluster has zeroed its part and is running before any block adds into it.
    cluster_sync();

    const size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = tid; i < array_size; i += stride) {
        const int ldata = input[i];
        int binid = ldata;
        if (ldata < 0)
            binid = 0;
        else if (ldata >= nbins)
            binid = nbins - 1;

        // the block of the cluster owning the bin, and the bin's offset in it
        const int dst_block_rank = binid / bins_per_block;
        const int dst_offset = binid % bins_per_block;
        int *dst_smem = cluster_map_shared_rank(smem, (unsigned)dst_block_rank);
        atomicAdd(dst_smem + dst_offset, 1);
    }

    // All distributed-shared-memory atomics are done, and no block exits while others still add
    // into its shared memory.
    cluster_sync();

    // The cluster's histogram, block by block, into global memory.
    int *lbins = bins + (size_t)clusterBlockRank * bins_per_block;
    const int mine = min(bins_per_block, nbins - (int)clusterBlockRank * bins_per_block);
    for (int i = threadIdx.x; i < mine; i += blockDim.x) {
        const int v = smem[i];
        if (v != 0)
            atomicAdd(&lbins[i], v);
    }
}
