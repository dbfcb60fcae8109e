// A tile read back striped from shared memory and stored under a bounds guard (CUB's StoreDirectStriped after
// BlockExchange): ptxas keeps every load but the last item's before the guarded stores, and turns the last
// guard into the early exit of the lanes it leaves off, that load below it (deadloads.sunk_loads).
//   striped_tail  64 threads, 4 items a thread: a warp whose lanes all lie past `valid` in the last item loads
//                 nothing for it; the earlier items load on every lane, valid or not
extern "C" __global__ void striped_tail(const unsigned *in, unsigned *out, int valid)
{
    __shared__ unsigned buff[256];
#pragma unroll
    for (int i = 0; i < 4; ++i)
        buff[threadIdx.x * 4 + i] = in[blockIdx.x * 256 + threadIdx.x * 4 + i];
    __syncthreads();
    unsigned v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
        v[i] = buff[i * 64 + threadIdx.x];
    const int left = valid - blockIdx.x * 256;
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (i * 64 + (int)threadIdx.x < left)
            out[blockIdx.x * 256 + i * 64 + threadIdx.x] = v[i];
}
