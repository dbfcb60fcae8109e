// BlockExchange: blocked <-> striped arrangements through shared memory.
#include <cub/block/block_exchange.cuh>

__global__ void blocked_to_striped(const int* in, int* out)
{
    using Exchange = cub::BlockExchange<int, 64, 4>;
    __shared__ typename Exchange::TempStorage tmp;
    int items[4];
    for (int i = 0; i < 4; ++i) items[i] = in[threadIdx.x * 4 + i];
    Exchange(tmp).BlockedToStriped(items);
    for (int i = 0; i < 4; ++i) out[i * 64 + threadIdx.x] = items[i];
}

__global__ void striped_to_blocked(const int* in, int* out)
{
    using Exchange = cub::BlockExchange<int, 64, 4, true>;  // warp-time-slicing
    __shared__ typename Exchange::TempStorage tmp;
    int items[4];
    for (int i = 0; i < 4; ++i) items[i] = in[i * 64 + threadIdx.x];
    Exchange(tmp).StripedToBlocked(items);
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = items[i];
}

__global__ void scatter_to_striped(const int* in, int* out)
{
    using Exchange = cub::BlockExchange<int, 64, 2>;
    __shared__ typename Exchange::TempStorage tmp;
    int items[2], ranks[2];
    for (int i = 0; i < 2; ++i) {
        items[i] = in[threadIdx.x * 2 + i];
        ranks[i] = 127 - (threadIdx.x * 2 + i);  // reverse
    }
    Exchange(tmp).ScatterToStriped(items, ranks);
    for (int i = 0; i < 2; ++i) out[i * 64 + threadIdx.x] = items[i];
}
