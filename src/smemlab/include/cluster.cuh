// Thread-block cluster operations in inline PTX (sm_90+), for the book's programs and the library
// alike (NVRTC here has no CUDA headers, so no cooperative_groups):
//
//   cg::this_cluster().block_rank()         -> cluster_block_rank()     %cluster_ctarank
//   cg::this_cluster().dim_blocks().x       -> cluster_num_blocks()     %cluster_nctarank
//   cg::this_cluster().sync()               -> cluster_sync()           barrier.cluster arrive + wait
//   cluster.map_shared_rank(ptr, rank)      -> cluster_map_shared_rank  mapa (generic address)
//
// The mapped pointer is a generic address of the other block's shared memory (distributed shared
// memory); plain loads, stores and atomicAdd work through it on sm_90. The library's histogram uses
// the 32-bit shared::cluster addresses instead (smem_u32, map_to_rank, red_add_cluster,
// ld_cluster_v2, ld_cluster_v4) and a split barrier (cluster_arrive, cluster_arrive_shared_cta or
// cluster_arrive_relaxed, then cluster_wait). Below sm_90 every
// helper traps: the host never launches these kernels there (it checks the device first), and the
// sources that include this header still compile for the kernels that need no cluster.
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

// cluster_sync in two halves: arrive (with release semantics, or relaxed: no memory ordering), do
// other work, wait (with acquire semantics: what the peers wrote before they arrived is visible after).
__device__ __forceinline__ void cluster_arrive()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
#else
    __trap();
#endif
}

// Arrive after a release fence for this block's own shared memory only (its shared::cta writes are
// visible to the peers after their wait), not for global memory: ptxas makes it a MEMBAR.CTA where the
// release arrive is a MEMBAR.GPU.
__device__ __forceinline__ void cluster_arrive_shared_cta()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.release.sync_restrict::shared::cta.cluster;\n\t"
                 "barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#else
    __trap();
#endif
}

__device__ __forceinline__ void cluster_arrive_relaxed()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#else
    __trap();
#endif
}

__device__ __forceinline__ void cluster_wait()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
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

// The 32-bit shared::cta address of a generic pointer into this block's shared memory.
__device__ __forceinline__ unsigned smem_u32(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// The shared::cluster address of the word at shared::cta address `addr` in block `rank`.
__device__ __forceinline__ unsigned map_to_rank(unsigned addr, unsigned rank)
{
#if __CUDA_ARCH__ >= 900
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
#else
    __trap();
    return addr;
#endif
}

// An atomic add (its result unused) into another block's shared memory, at a shared::cluster address.
__device__ __forceinline__ void red_add_cluster(unsigned addr, unsigned v)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
#else
    __trap();
#endif
}

// An 8-byte load from another block's shared memory, at a shared::cluster address.
__device__ __forceinline__ int2 ld_cluster_v2(unsigned addr)
{
    int2 v;
#if __CUDA_ARCH__ >= 900
    asm volatile("ld.shared::cluster.v2.s32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(addr) : "memory");
#else
    __trap();
    v = make_int2(0, 0);
#endif
    return v;
}

// A 2-byte store into this block's shared memory, at a shared::cta address.
__device__ __forceinline__ void st_shared_u16(unsigned addr, unsigned v)
{
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(addr), "h"(static_cast<unsigned short>(v)) : "memory");
}

// A 16-byte load from another block's shared memory, at a shared::cluster address.
__device__ __forceinline__ int4 ld_cluster_v4(unsigned addr)
{
    int4 v;
#if __CUDA_ARCH__ >= 900
    asm volatile("ld.shared::cluster.v4.s32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr) : "memory");
#else
    __trap();
    v = make_int4(0, 0, 0, 0);
#endif
    return v;
}
