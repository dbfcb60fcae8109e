// Cooperative groups' tiles of more than a warp (a block_tile_memory in shared memory, as the CUDA samples'
// multi_warp_cg_reduce declares it): on sm_80 and later the tiles keep their barriers and their exchange in the
// block's reserved shared memory, which the PTX reaches through %reserved_smem_offset_1 (machine.RESERVED_SHARED).
//   big_tile_sum    256 threads in two tiles of 128: cg::reduce, one sum a tile
//   tile_reduce_64  the samples' shape: a grid-stride sum a thread, cg::reduce over tiles of 64, one shared
//                   partial a tile, then thread 0 adds them
//   big_tile_shfl   tile.shfl over a tile of 128 (through the exchange memory) and tile.sync in a loop
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void big_tile_sum(const float *in, float *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block cta = cg::this_thread_block(scratch);
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(cta);
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0)
        out[blockIdx.x * 2 + tile.meta_group_rank()] = v;
}

extern "C" __global__ void tile_reduce_64(const float *in, float *out, int n)
{
    __shared__ cg::block_tile_memory<256> scratch;
    __shared__ float partial[4];
    cg::thread_block cta = cg::this_thread_block(scratch);
    cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cta);
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    sum = cg::reduce(tile, sum, cg::plus<float>());
    if (tile.thread_rank() == 0)
        partial[tile.meta_group_rank()] = sum;
    cg::sync(cta);
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int t = 0; t < (int)tile.meta_group_size(); ++t)
            total += partial[t];
        out[blockIdx.x] = total;
    }
}

extern "C" __global__ void big_tile_shfl(const int *in, int *out, int rounds)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block cta = cg::this_thread_block(scratch);
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(cta);
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int r = 0; r < rounds; ++r) {
        v += tile.shfl(v, (r * 37 + 5) % 128);
        tile.sync();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
