// The plain copy every bandwidth figure is compared with: what a kernel that reads and writes
// each byte once can reach on this device. 16-byte accesses, and four independent loads in
// flight per thread before the first store, so the memory system sees enough bytes in flight.
#define COPY_UNROLL 4

extern "C" __global__ void copyKernel(float4 *__restrict__ out, const float4 *__restrict__ in, unsigned long long n4)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (COPY_UNROLL - 1) * stride < n4; i += COPY_UNROLL * stride) {
        float4 v[COPY_UNROLL];
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) v[u] = in[i + u * stride];
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) out[i + u * stride] = v[u];
    }
    for (; i < n4; i += stride) out[i] = in[i];
}
