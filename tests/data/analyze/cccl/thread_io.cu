// cub::ThreadLoad / ThreadStore with cache modifiers, a double BlockReduce and a 64-bit BlockScan.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_store.cuh>

__global__ void thread_load_store(const int* in, int* out, double* sum, long long* scan)
{
    int t = threadIdx.x;
    int a = cub::ThreadLoad<cub::LOAD_CG>(in + t) + cub::ThreadLoad<cub::LOAD_CS>(in + t) +
            cub::ThreadLoad<cub::LOAD_LDG>(in + t) + cub::ThreadLoad<cub::LOAD_VOLATILE>(in + t) +
            cub::ThreadLoad<cub::LOAD_CV>(in + t);
    cub::ThreadStore<cub::STORE_CG>(out + t, a);
    cub::ThreadStore<cub::STORE_WT>(out + 64 + t, a + 1);
    using Reduce = cub::BlockReduce<double, 64>;
    using Scan = cub::BlockScan<long long, 64>;
    __shared__ typename Reduce::TempStorage rd;
    __shared__ typename Scan::TempStorage sc;
    double r = Reduce(rd).Sum((double)in[t] * 0.5);
    if (t == 0) *sum = r;
    long long x = (long long)in[t] << 20, y;
    Scan(sc).InclusiveSum(x, y);
    scan[t] = y;
}
