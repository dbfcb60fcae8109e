// One warp, one shared atomic per kernel: lane l updates word addr[pattern * 32 + l] of a 1024-word
// array (no access where it is -1). The patterns (tests/data/analyze_truth/atomic_patterns.npy) are
// chosen to find how many wavefronts a shared atomic costs: distinct banks, one address, one bank,
// strides, random bins, masked lanes. The zeroing stores and the final loads are plain and
// conflict-free (32 threads).
#define WORDS 1024

extern "C" __global__ void atomic_inc_pattern(const int *addr, int pattern, unsigned *out)
{
    __shared__ unsigned s[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int a = addr[pattern * 32 + (threadIdx.x & 31)];
    if (a >= 0) atomicAdd(&s[a], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) out[i] = s[i];
}

extern "C" __global__ void atomic_add_pattern(const int *addr, int pattern, unsigned *out)
{
    __shared__ unsigned s[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int a = addr[pattern * 32 + (threadIdx.x & 31)];
    if (a >= 0) atomicAdd(&s[a], (unsigned)threadIdx.x + 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) out[i] = s[i];
}

extern "C" __global__ void atomic_cas_pattern(const int *addr, int pattern, unsigned *out)
{
    __shared__ unsigned s[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int a = addr[pattern * 32 + (threadIdx.x & 31)];
    if (a >= 0) atomicCAS(&s[a], 0u, (unsigned)threadIdx.x + 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x) out[i] = s[i];
}

extern "C" __global__ void atomic_add64_pattern(const int *addr, int pattern, unsigned long long *out)
{
    __shared__ unsigned long long s[WORDS / 2];
    for (int i = threadIdx.x; i < WORDS / 2; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int a = addr[pattern * 32 + (threadIdx.x & 31)];
    if (a >= 0) atomicAdd(&s[a / 2], (unsigned long long)threadIdx.x + 1ull);
    __syncthreads();
    for (int i = threadIdx.x; i < WORDS / 2; i += blockDim.x) out[i] = s[i];
}
