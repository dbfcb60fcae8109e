// cooperative_groups: tiled partitions with cg::reduce / cg::inclusive_scan, labeled and coalesced groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

__global__ void tile_reduce_scan(const int* in, int* sums, int* maxs, int* scans, int* excl)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int x = in[block.thread_rank()];
    int s = cg::reduce(tile, x, cg::plus<int>());
    int m = cg::reduce(tile, x, cg::greater<int>());
    if (tile.thread_rank() == 0) {
        sums[block.thread_rank() / 16] = s;
        maxs[block.thread_rank() / 16] = m;
    }
    scans[block.thread_rank()] = cg::inclusive_scan(tile, x);
    excl[block.thread_rank()] = cg::exclusive_scan(tile, x, cg::bit_xor<int>());
}

__global__ void labeled_partition(const int* in, int* sums, int* ranks, int* sizes)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int x = in[threadIdx.x];
    int label = x % 5;
    cg::coalesced_group part = cg::labeled_partition(warp, label);
    sums[threadIdx.x] = cg::reduce(part, x, cg::plus<int>());
    ranks[threadIdx.x] = part.thread_rank();
    sizes[threadIdx.x] = part.size();
}

__global__ void coalesced_branch(const int* in, int* counts, int* any_all)
{
    int x = in[threadIdx.x];
    int c = -1;
    if (x & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        c = active.size() * 100 + active.thread_rank();
    }
    counts[threadIdx.x] = c;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    any_all[threadIdx.x] = warp.any(x > 1000) * 4 + warp.all(x >= 0) * 2 + (warp.ballot(x & 1) != 0);
}
