// BlockMergeSort, BlockRadixSort on 64-bit keys (5-bit digits, warp scans) and BlockRadixRankMatch
// (the ranking of the onesweep radix sort).
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_radix_sort.cuh>

struct Greater {
    __device__ bool operator()(long long a, long long b) const { return a > b; }
};

__global__ void merge_sort_descending(const long long* in, long long* out)
{
    using Sort = cub::BlockMergeSort<long long, 64, 3>;
    __shared__ typename Sort::TempStorage tmp;
    long long keys[3];
    for (int i = 0; i < 3; ++i) keys[i] = in[threadIdx.x * 3 + i];
    Sort(tmp).Sort(keys, Greater{});
    for (int i = 0; i < 3; ++i) out[threadIdx.x * 3 + i] = keys[i];
}

__global__ void radix_sort_wide(const unsigned long long* in, unsigned long long* out)
{
    using Sort = cub::BlockRadixSort<unsigned long long, 128, 2, cub::NullType, 5, true, cub::BLOCK_SCAN_WARP_SCANS,
                                     cudaSharedMemBankSizeFourByte>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned long long keys[2];
    for (int i = 0; i < 2; ++i) keys[i] = in[threadIdx.x * 2 + i];
    Sort(tmp).Sort(keys);
    for (int i = 0; i < 2; ++i) out[threadIdx.x * 2 + i] = keys[i];
}

__global__ void radix_rank_match(const unsigned* in, int* ranks)
{
    using Rank = cub::BlockRadixRankMatch<64, 4, false>;
    __shared__ typename Rank::TempStorage tmp;
    unsigned keys[2] = {in[threadIdx.x * 2], in[threadIdx.x * 2 + 1]};
    int r[2];
    Rank(tmp).RankKeys(keys, r, cub::BFEDigitExtractor<unsigned>(0, 4));
    ranks[threadIdx.x * 2] = r[0];
    ranks[threadIdx.x * 2 + 1] = r[1];
}
