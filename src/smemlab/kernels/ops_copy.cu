// smemlab.bench's reference: a plain copy that reads and writes each byte once. 16-byte
// accesses, COPY_UNROLL independent loads in flight per thread before the first store, a grid
// sized to the SM count (grid-stride). Every bandwidth figure of `smemlab bench` is compared with
// this kernel, measured in the same run on the same number of bytes.
#ifndef COPY_UNROLL
#define COPY_UNROLL 4
#endif

extern "C" __global__ void __launch_bounds__(256) ops_copy_f4(float4 *__restrict__ out, const float4 *__restrict__ in,
                                                             unsigned long long n4)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (COPY_UNROLL - 1) * stride < n4; i += COPY_UNROLL * stride) {
        float4 v[COPY_UNROLL];
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) v[u] = __ldg(in + i + u * stride);
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) out[i + u * stride] = v[u];
    }
    for (; i < n4; i += stride) out[i] = __ldg(in + i);
}
