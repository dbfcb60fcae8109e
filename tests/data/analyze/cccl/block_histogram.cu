// BlockHistogram: 64 bins of byte samples, by shared atomics and by sorting.
#include <cub/block/block_histogram.cuh>

template <cub::BlockHistogramAlgorithm A>
__device__ void histo(const unsigned char* in, unsigned* bins)
{
    using Histo = cub::BlockHistogram<unsigned char, 64, 4, 64, A>;
    __shared__ typename Histo::TempStorage tmp;
    __shared__ unsigned smem_bins[64];
    unsigned char s[4];
    for (int i = 0; i < 4; ++i) s[i] = in[threadIdx.x * 4 + i] & 63;
    Histo(tmp).Histogram(s, smem_bins);
    __syncthreads();
    bins[threadIdx.x] = smem_bins[threadIdx.x];
}

__global__ void histogram_atomic(const unsigned char* in, unsigned* bins) { histo<cub::BLOCK_HISTO_ATOMIC>(in, bins); }
__global__ void histogram_sort(const unsigned char* in, unsigned* bins) { histo<cub::BLOCK_HISTO_SORT>(in, bins); }
