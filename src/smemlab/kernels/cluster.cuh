// Thread-block cluster operations in inline PTX (sm_90+), standing in for the cooperative_groups
// calls of the seeds (NVRTC here has no CUDA headers):
//
//   cg::this_cluster().block_rank()         -> cluster_block_rank()     %cluster_ctarank
//   cg::this_cluster().dim_blocks().x       -> cluster_num_blocks()     %cluster_nctarank
//   cg::this_cluster().sync()               -> cluster_sync()           barrier.cluster arrive + wait
//   cluster.map_shared_rank(ptr, rank)      -> cluster_map_shared_rank  mapa (generic address)
//
// The mapped pointer is a generic address of the other block's shared memory (distributed shared
// memory); plain loads, stores and atomicAdd work through it on sm_90. Below sm_90 every helper
// traps: the host never launches these kernels there (it checks the device first).
#pragma once

__device__ __forceinline__ unsigned cluster_block_rank()
{
#if __CUDA_ARCH__ >= 900
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
#else
    __trap();
    return 0;
#endif
}

__device__ __forceinline__ unsigned cluster_num_blocks()
{
#if __CUDA_ARCH__ >= 900
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
#else
    __trap();
    return 1;
#endif
}

// Every thread of every block of the cluster must call it (the .aligned form): arrive with release
// semantics, wait with acquire, so shared-memory writes before it are visible to the whole cluster
// after it, and no block of the cluster runs past it before all have started.
__device__ __forceinline__ void cluster_sync()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
#else
    __trap();
#endif
}

// The generic address of `p` (a generic pointer to this block's shared memory) in the shared
// memory of block `rank` of the cluster.
template <typename T>
__device__ __forceinline__ T* cluster_map_shared_rank(T* p, unsigned rank)
{
#if __CUDA_ARCH__ >= 900
    unsigned long long in = reinterpret_cast<unsigned long long>(p), out;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(in), "r"(rank));
    return reinterpret_cast<T*>(out);
#else
    __trap();
    return p;
#endif
}
