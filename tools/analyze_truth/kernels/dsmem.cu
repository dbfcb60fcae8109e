// Distributed shared memory across the blocks of a cluster (256 threads a block, launched as ONE
// cluster: grid = cluster), to see how Nsight Compute counts a block's accesses to another block's
// shared memory, next to the same pattern on its own shared memory:
//   dsmem_read     ld.shared::cluster from the next block (rank + 1), from its own block through a
//                  shared::cluster address, and ld.shared of its own, each at word (t * stride) % 2048
//   dsmem_write    st.shared::cluster and red.shared::cluster.add into the next block, same pattern
//   dsmem_generic  generic pointers from mapa.u64: half the lanes of a warp on their own block, half on
//                  the next (lane & 1), a load and an atomicAdd through the pointer
//   dsmem_vec      ld.shared::cluster.v4 from the next block (16 bytes a lane, row-major or strided)
__device__ __forceinline__ unsigned ctarank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ unsigned nctarank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}

__device__ __forceinline__ void cluster_sync_all()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ unsigned cta_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ unsigned mapa32(unsigned addr, unsigned rank)
{
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}

template <typename T>
__device__ __forceinline__ T *mapa_generic(T *p, unsigned rank)
{
    unsigned long long in = reinterpret_cast<unsigned long long>(p), out;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(in), "r"(rank));
    return reinterpret_cast<T *>(out);
}

__device__ __forceinline__ float ld_cluster(unsigned a)
{
    float v;
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory");
    return v;
}

extern "C" __global__ void dsmem_read(float *out, const float *in, int stride)
{
    __shared__ float s[2048];
    const int t = threadIdx.x;
    const unsigned rank = ctarank(), peer = (rank + 1) % nctarank();
    for (int i = t; i < 2048; i += blockDim.x)
        s[i] = in[rank * 2048 + i];
    cluster_sync_all();
    const int w = (t * stride) % 2048;
    float v = ld_cluster(mapa32(cta_addr(s), peer) + 4 * w);  // the next block's shared memory
    v += ld_cluster(mapa32(cta_addr(s), rank) + 4 * w);       // its own, through a cluster address
    v += s[w];                                                // its own
    cluster_sync_all();
    out[rank * blockDim.x + t] = v;
}

extern "C" __global__ void dsmem_write(float *out, int stride)
{
    __shared__ float s[2048];
    __shared__ unsigned c[2048];
    const int t = threadIdx.x;
    const unsigned rank = ctarank(), peer = (rank + 1) % nctarank();
    for (int i = t; i < 2048; i += blockDim.x) {
        s[i] = 0.0f;
        c[i] = 0u;
    }
    cluster_sync_all();
    const int w = (t * stride) % 2048;
    asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(mapa32(cta_addr(s), peer) + 4 * w), "f"((float)t) : "memory");
    asm volatile("red.shared::cluster.add.u32 [%0], %1;" ::"r"(mapa32(cta_addr(c), peer) + 4 * w), "r"(t + 1) : "memory");
    cluster_sync_all();
    out[rank * blockDim.x + t] = s[t] + (float)c[t];
}

extern "C" __global__ void dsmem_generic(float *out, int *counts, int stride)
{
    __shared__ float s[2048];
    __shared__ int c[2048];
    const int t = threadIdx.x;
    const unsigned rank = ctarank(), n = nctarank();
    for (int i = t; i < 2048; i += blockDim.x) {
        s[i] = (float)(rank * 2048 + i);
        c[i] = 0;
    }
    cluster_sync_all();
    const int w = (t * stride) % 2048;
    const unsigned owner = (t & 1) ? (rank + 1) % n : rank;
    float *ps = mapa_generic(s, owner);
    int *pc = mapa_generic(c, owner);
    const float v = ps[w];
    atomicAdd(pc + w, t + 1);
    cluster_sync_all();
    out[rank * blockDim.x + t] = v;
    counts[rank * blockDim.x + t] = c[t];
}

extern "C" __global__ void dsmem_vec(float *out, const float *in, int stride)
{
    __shared__ float4 s[512];
    const int t = threadIdx.x;
    const unsigned rank = ctarank(), peer = (rank + 1) % nctarank();
    for (int i = t; i < 512; i += blockDim.x)
        s[i] = make_float4(in[4 * i], in[4 * i + 1], in[4 * i + 2], (float)rank);
    cluster_sync_all();
    const int w = (t * stride) % 512;
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(mapa32(cta_addr(s), peer) + 16 * w)
                 : "memory");
    cluster_sync_all();
    out[rank * blockDim.x + t] = v.x + v.y + v.z + v.w;
}
