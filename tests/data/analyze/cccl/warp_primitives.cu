// WarpScan, WarpReduce, WarpExchange, WarpLoad/WarpStore and WarpMergeSort, two warps per block.
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_store.cuh>

__global__ void warp_scan(const int* in, int* incl, int* excl, int* sub16)
{
    using Scan = cub::WarpScan<int>;
    using Scan16 = cub::WarpScan<int, 16>;
    __shared__ typename Scan::TempStorage tmp[2];
    __shared__ typename Scan16::TempStorage tmp16[4];
    int x = in[threadIdx.x], y;
    Scan(tmp[threadIdx.x / 32]).InclusiveSum(x, y);
    incl[threadIdx.x] = y;
    Scan(tmp[threadIdx.x / 32]).ExclusiveScan(x, y, cuda::maximum<>{});
    excl[threadIdx.x] = threadIdx.x % 32 ? y : 0;
    Scan16(tmp16[threadIdx.x / 16]).InclusiveSum(x, y);
    sub16[threadIdx.x] = y;
}

__global__ void warp_reduce(const int* in, const float* f, int* sums, int* mins, float* fsums, int* heads)
{
    using Reduce = cub::WarpReduce<int>;
    using ReduceF = cub::WarpReduce<float, 8>;
    __shared__ typename Reduce::TempStorage tmp[2];
    __shared__ typename ReduceF::TempStorage tf[8];
    int x = in[threadIdx.x];
    int s = Reduce(tmp[threadIdx.x / 32]).Sum(x);
    if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = s;
    int m = Reduce(tmp[threadIdx.x / 32]).Reduce(x, cuda::minimum<>{});
    if (threadIdx.x % 32 == 0) mins[threadIdx.x / 32] = m;
    float fs = ReduceF(tf[threadIdx.x / 8]).Sum(f[threadIdx.x]);
    if (threadIdx.x % 8 == 0) fsums[threadIdx.x / 8] = fs;
    int seg = Reduce(tmp[threadIdx.x / 32]).HeadSegmentedSum(x, threadIdx.x % 8 == 0);
    heads[threadIdx.x] = threadIdx.x % 8 == 0 ? seg : 0;
}

__global__ void warp_exchange(const int* in, int* out)
{
    using Exchange = cub::WarpExchange<int, 4>;
    __shared__ typename Exchange::TempStorage tmp[2];
    int items[4];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int i = 0; i < 4; ++i) items[i] = in[warp * 128 + lane * 4 + i];
    Exchange(tmp[warp]).BlockedToStriped(items, items);
    for (int i = 0; i < 4; ++i) out[warp * 128 + i * 32 + lane] = items[i];
}

__global__ void warp_load_store(const int* in, int* out)
{
    using Load = cub::WarpLoad<int, 4, cub::WARP_LOAD_TRANSPOSE>;
    using Store = cub::WarpStore<int, 4, cub::WARP_STORE_TRANSPOSE>;
    __shared__ typename Load::TempStorage tl[2];
    __shared__ typename Store::TempStorage ts[2];
    int warp = threadIdx.x / 32;
    int items[4];
    Load(tl[warp]).Load(in + warp * 128, items);
    for (int i = 0; i < 4; ++i) items[i] *= 3;
    Store(ts[warp]).Store(out + warp * 128, items);
}

struct Less {
    __device__ bool operator()(int a, int b) const { return a < b; }
};

__global__ void warp_merge_sort(const int* in, int* out)
{
    using Sort = cub::WarpMergeSort<int, 4, 32>;
    __shared__ typename Sort::TempStorage tmp[2];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int keys[4];
    for (int i = 0; i < 4; ++i) keys[i] = in[warp * 128 + lane * 4 + i];
    Sort(tmp[warp]).Sort(keys, Less{});
    for (int i = 0; i < 4; ++i) out[warp * 128 + lane * 4 + i] = keys[i];
}
