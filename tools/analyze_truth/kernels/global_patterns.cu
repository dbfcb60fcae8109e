// Global and local memory patterns for the truth of issue 31: each lane's address is set by the macros,
// so that Nsight Compute's requests and sectors per instruction check analyze's rules
// (src/smemlab/banks/coalescing.py): strides between lanes, misaligned bases, 1- to 16-byte accesses,
// partial warps, gathers, __ldg, cp.async sources, atomics and local memory.
//   ELEM       the element type (char, short, float, double, float4)
//   GM_STRIDE  elements between neighbouring lanes
//   GM_OFFSET  elements past the buffer's (256-byte aligned) start
//   GM_ACTIVE  lanes of each warp that access memory (from lane 0)
#ifndef ELEM
#define ELEM float
#endif
#ifndef GM_STRIDE
#define GM_STRIDE 1
#endif
#ifndef GM_OFFSET
#define GM_OFFSET 0
#endif
#ifndef GM_ACTIVE
#define GM_ACTIVE 32
#endif

// a strided read, a coalesced write
extern "C" __global__ void global_stride_load(ELEM *out, const ELEM *in)
{
    int t = threadIdx.x;
    if ((t & 31) < GM_ACTIVE)
        out[t] = in[GM_OFFSET + t * GM_STRIDE];
}

// a coalesced read, a strided write (GM_STRIDE = the row length: a naive transpose's column store)
extern "C" __global__ void global_stride_store(ELEM *out, const ELEM *in)
{
    int t = threadIdx.x;
    if ((t & 31) < GM_ACTIVE)
        out[GM_OFFSET + t * GM_STRIDE] = in[t];
}

// the read through the read-only path (LDG.E.CONSTANT)
extern "C" __global__ void global_ldg_load(ELEM *out, const ELEM *in)
{
    int t = threadIdx.x;
    if ((t & 31) < GM_ACTIVE)
        out[t] = __ldg(&in[GM_OFFSET + t * GM_STRIDE]);
}

// a gather: each lane's element from an index array
extern "C" __global__ void global_gather(float *out, const float *in, const int *idx)
{
    int t = threadIdx.x;
    out[t] = in[idx[t]];
}

// a scatter: each lane's element to an index array's place
extern "C" __global__ void global_scatter(float *out, const float *in, const int *idx)
{
    int t = threadIdx.x;
    out[idx[t]] = in[t];
}

// atomics with a stride between lanes: result unused (RED) and used (ATOMG)
extern "C" __global__ void global_red_add(int *counts)
{
    int t = threadIdx.x;
    if ((t & 31) < GM_ACTIVE)
        atomicAdd(&counts[GM_OFFSET + t * GM_STRIDE], 1);
}

extern "C" __global__ void global_atom_add(int *counts, int *old)
{
    int t = threadIdx.x;
    if ((t & 31) < GM_ACTIVE)
        old[t] = atomicAdd(&counts[GM_OFFSET + t * GM_STRIDE], t);
}

// cp.async's global read: 4 bytes a lane (.ca) from a strided source, then the tile out coalesced
extern "C" __global__ void global_cp_async4(float *out, const float *in)
{
    __shared__ float tile[256];
    int t = threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[t]);
    if ((t & 31) < GM_ACTIVE)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(in + GM_OFFSET + t * GM_STRIDE));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    out[t] = tile[t];
}

// cp.async's global read: 16 bytes a lane (.cg) from a strided source of float4
extern "C" __global__ void global_cp_async16(float4 *out, const float4 *in)
{
    __shared__ float4 tile[256];
    int t = threadIdx.x;
    unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[t]);
    if ((t & 31) < GM_ACTIVE)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(in + GM_OFFSET + t * GM_STRIDE));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    out[t] = tile[t];
}

// local memory: an array indexed at run time stays in local memory; every lane at its own index
// (idx[t]) or all at one (idx[0])
extern "C" __global__ void global_local_array(float *out, const int *idx, int uniform)
{
    float a[64];
    int t = threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < 64; i++)
        a[i] = i * 0.5f + t;
    int k = (uniform ? idx[0] : idx[t]) & 63;
    out[t] = a[k];
}
