// BlockAdjacentDifference, BlockDiscontinuity and BlockShuffle.
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_shuffle.cuh>

struct Minus {
    __device__ int operator()(int a, int b) const { return a - b; }
};
struct Differs {
    __device__ bool operator()(int a, int b) const { return a != b; }
};

__global__ void adjacent_difference(const int* in, int* left, int* right)
{
    using Adj = cub::BlockAdjacentDifference<int, 64>;
    __shared__ typename Adj::TempStorage tmp;
    int items[2], out[2];
    for (int i = 0; i < 2; ++i) items[i] = in[threadIdx.x * 2 + i];
    Adj(tmp).SubtractLeft(items, out, Minus{});
    for (int i = 0; i < 2; ++i) left[threadIdx.x * 2 + i] = out[i];
    __syncthreads();
    Adj(tmp).SubtractRight(items, out, Minus{});
    for (int i = 0; i < 2; ++i) right[threadIdx.x * 2 + i] = out[i];
}

__global__ void discontinuity(const int* in, int* heads, int* tails)
{
    using Disc = cub::BlockDiscontinuity<int, 64>;
    __shared__ typename Disc::TempStorage tmp;
    int items[2], h[2], t[2];
    for (int i = 0; i < 2; ++i) items[i] = in[threadIdx.x * 2 + i] / 300;
    Disc(tmp).FlagHeadsAndTails(h, t, items, Differs{});
    for (int i = 0; i < 2; ++i) { heads[threadIdx.x * 2 + i] = h[i]; tails[threadIdx.x * 2 + i] = t[i]; }
}

__global__ void shuffle(const int* in, int* offset, int* up, int* down)
{
    using Shuffle = cub::BlockShuffle<int, 64>;
    __shared__ typename Shuffle::TempStorage tmp;
    int x = in[threadIdx.x], y = 0;
    Shuffle(tmp).Offset(x, y, 3);
    offset[threadIdx.x] = y;
    __syncthreads();
    int items[2] = {in[threadIdx.x * 2], in[threadIdx.x * 2 + 1]}, o[2] = {-7, -7};  // Up/Down leave an end item as it was
    Shuffle(tmp).Up(items, o);
    for (int i = 0; i < 2; ++i) up[threadIdx.x * 2 + i] = o[i];
    __syncthreads();
    o[0] = o[1] = -7;
    Shuffle(tmp).Down(items, o);
    for (int i = 0; i < 2; ++i) down[threadIdx.x * 2 + i] = o[i];
}
