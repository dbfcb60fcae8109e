// CUB's block primitives as a project uses them: a load with WARP_TRANSPOSE, a radix sort, a scan,
// a reduction, an exchange, each a template kernel launched from host code.
#include <cub/cub.cuh>
#include <cstdio>

template <int BLOCK, int ITEMS>
__global__ void sort_tiles(const int* keys_in, int* keys_out) {
  using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Sort = cub::BlockRadixSort<int, BLOCK, ITEMS>;
  using Store = cub::BlockStore<int, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Sort::TempStorage sort;
    typename Store::TempStorage store;
  } temp;
  int keys[ITEMS];
  const int offset = blockIdx.x * BLOCK * ITEMS;
  Load(temp.load).Load(keys_in + offset, keys);
  __syncthreads();
  Sort(temp.sort).Sort(keys);
  __syncthreads();
  Store(temp.store).Store(keys_out + offset, keys);
}

template <int BLOCK, int ITEMS, cub::BlockScanAlgorithm ALGO>
__global__ void scan_tiles(const int* in, int* out) {
  using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
  using Scan = cub::BlockScan<int, BLOCK, ALGO>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
  } temp;
  int items[ITEMS];
  Load(temp.load).Load(in + blockIdx.x * BLOCK * ITEMS, items);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(items, items);
  for (int i = 0; i < ITEMS; ++i) out[blockIdx.x * BLOCK * ITEMS + threadIdx.x * ITEMS + i] = items[i];
}

template <int BLOCK, cub::BlockReduceAlgorithm ALGO>
__global__ void block_max(const float* in, float* out, int n) {
  using Reduce = cub::BlockReduce<float, BLOCK, ALGO>;
  __shared__ typename Reduce::TempStorage temp;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? in[i] : -1e30f;
  float m = Reduce(temp).Reduce(v, cuda::maximum<float>{});
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}

template <int BLOCK, int ITEMS>
__global__ void striped_to_blocked(const float* in, float* out) {
  using Exchange = cub::BlockExchange<float, BLOCK, ITEMS>;
  __shared__ typename Exchange::TempStorage temp;
  float items[ITEMS];
  for (int i = 0; i < ITEMS; ++i) items[i] = in[blockIdx.x * BLOCK * ITEMS + i * BLOCK + threadIdx.x];
  Exchange(temp).StripedToBlocked(items);
  for (int i = 0; i < ITEMS; ++i) out[blockIdx.x * BLOCK * ITEMS + threadIdx.x * ITEMS + i] = items[i];
}

int main() {
  int *ki, *ko;
  float *f, *g;
  cudaMalloc(&ki, 1 << 20);
  cudaMalloc(&ko, 1 << 20);
  cudaMalloc(&f, 1 << 20);
  cudaMalloc(&g, 1 << 20);
  sort_tiles<128, 4><<<64, 128>>>(ki, ko);
  scan_tiles<128, 4, cub::BLOCK_SCAN_WARP_SCANS><<<64, 128>>>(ki, ko);
  scan_tiles<128, 4, cub::BLOCK_SCAN_RAKING><<<64, 128>>>(ki, ko);
  block_max<256, cub::BLOCK_REDUCE_WARP_REDUCTIONS><<<64, 256>>>(f, g, 1 << 14);
  block_max<256, cub::BLOCK_REDUCE_RAKING><<<64, 256>>>(f, g, 1 << 14);
  striped_to_blocked<128, 4><<<64, 128>>>(f, g);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
