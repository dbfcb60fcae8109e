// BlockScan: inclusive/exclusive sums and a max-scan with each algorithm.
#include <cub/block/block_scan.cuh>

template <cub::BlockScanAlgorithm A>
__device__ void scans(const int* in, int* incl, int* excl, int* maxs, int* total)
{
    using Scan = cub::BlockScan<int, 96, A>;
    __shared__ typename Scan::TempStorage tmp;
    int items[3];
    for (int i = 0; i < 3; ++i) items[i] = in[threadIdx.x * 3 + i];
    int out[3];
    Scan(tmp).InclusiveSum(items, out);
    for (int i = 0; i < 3; ++i) incl[threadIdx.x * 3 + i] = out[i];
    __syncthreads();
    int agg;
    Scan(tmp).ExclusiveSum(items, out, agg);
    for (int i = 0; i < 3; ++i) excl[threadIdx.x * 3 + i] = out[i];
    if (threadIdx.x == 0) *total = agg;
    __syncthreads();
    Scan(tmp).InclusiveScan(items, out, cuda::maximum<>{});
    for (int i = 0; i < 3; ++i) maxs[threadIdx.x * 3 + i] = out[i];
}

__global__ void scan_raking(const int* in, int* incl, int* excl, int* maxs, int* total) { scans<cub::BLOCK_SCAN_RAKING>(in, incl, excl, maxs, total); }
__global__ void scan_raking_memoize(const int* in, int* incl, int* excl, int* maxs, int* total) { scans<cub::BLOCK_SCAN_RAKING_MEMOIZE>(in, incl, excl, maxs, total); }
__global__ void scan_warp_scans(const int* in, int* incl, int* excl, int* maxs, int* total) { scans<cub::BLOCK_SCAN_WARP_SCANS>(in, incl, excl, maxs, total); }
