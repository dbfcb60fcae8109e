// One warp's 16- and 8-byte shared loads under lane masks whose active quarter-warps are not the halves' (the
// packing of smemlab.banks.model, rule 2): which quarters a packed 16-byte load takes together. Written for the
// truth fixture (a depthwise convolution's filter, broadcast by LDS.128 to a ragged tile's warps, found it).
// mode 0: every lane the same float4 (a broadcast); 1: lane pairs on one float4, 16 in a row (no conflict);
// 2: lane pairs on one float4, 8 float4s apart (pairs of quarters on the same banks); 3: lane^2 pairs, in a row.
__device__ __forceinline__ int wide_index(int mode, int lane)
{
    switch (mode) {
    case 0: return 0;
    case 1: return lane >> 1;
    case 2: return (lane >> 1) * 8;
    default: return (lane & 1) | ((lane >> 2) << 1);
    }
}

extern "C" __global__ void lds128_masked(const float4 *in, float *out, unsigned int mask, int mode)
{
    __shared__ float4 s[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        s[i] = in[i];
    __syncthreads();
    int lane = threadIdx.x & 31;
    if ((mask >> lane) & 1u) {
        float4 v = s[wide_index(mode, lane)];
        out[threadIdx.x] = v.x + v.y + v.z + v.w;
    }
}

extern "C" __global__ void lds64_masked(const float2 *in, float *out, unsigned int mask, int mode)
{
    __shared__ float2 s[512];
    for (int i = threadIdx.x; i < 512; i += blockDim.x)
        s[i] = in[i];
    __syncthreads();
    int lane = threadIdx.x & 31;
    if ((mask >> lane) & 1u) {
        float2 v = s[wide_index(mode, lane)];
        out[threadIdx.x] = v.x + v.y;
    }
}
