// Shared-memory histograms of 256 bins, one atomic per key (grid-stride over n keys).
//   histogram_hashed    the bin is a multiplicative hash of a 32-bit key (keys spread uniformly)
//   histogram256        the bin is key & 255, so the keys file decides the pattern: uniform, skewed,
//                       all one bin, conflict-free, one bank
//   histogram256_weighted  atomicAdd of a weight (not of 1): ATOMS.ADD instead of the increment form
//   histogram_float     float weights added with atomicAdd on a float in shared memory
// Each block zeroes its bins, counts, then adds its non-zero bins to the output with global atomics.
#define NBINS 256

__device__ __forceinline__ unsigned hash_bin(unsigned key)
{
    return (key * 2654435761u) >> 24;  // Knuth's multiplicative hash, top 8 bits
}

extern "C" __global__ void histogram_hashed(const unsigned *keys, int n, unsigned *bins)
{
    __shared__ unsigned s_hist[NBINS];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) s_hist[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[hash_bin(keys[i])], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        if (s_hist[i]) atomicAdd(&bins[i], s_hist[i]);
}

extern "C" __global__ void histogram256(const unsigned *keys, int n, unsigned *bins)
{
    __shared__ unsigned s_hist[NBINS];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) s_hist[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[keys[i] & (NBINS - 1)], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        if (s_hist[i]) atomicAdd(&bins[i], s_hist[i]);
}

extern "C" __global__ void histogram256_weighted(const unsigned *keys, const unsigned *weights, int n, unsigned *bins)
{
    __shared__ unsigned s_hist[NBINS];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) s_hist[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[keys[i] & (NBINS - 1)], weights[i]);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        atomicAdd(&bins[i], s_hist[i]);
}

extern "C" __global__ void histogram_float(const unsigned *keys, const float *weights, int n, float *bins)
{
    __shared__ float s_hist[NBINS];
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x) s_hist[i] = 0.0f;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[keys[i] & (NBINS - 1)], weights[i]);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        atomicAdd(&bins[i], s_hist[i]);
}
