// BlockLoad / BlockStore in each algorithm: every kernel copies in -> out (plus one per item).
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__device__ void copy_plus_one(const int* in, int* out)
{
    constexpr int THREADS = 128, ITEMS = 4;
    using Load = cub::BlockLoad<int, THREADS, ITEMS, L>;
    using Store = cub::BlockStore<int, THREADS, ITEMS, S>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } tmp;
    int items[ITEMS];
    Load(tmp.load).Load(in, items);
    for (int i = 0; i < ITEMS; ++i) items[i] += 1;
    __syncthreads();
    Store(tmp.store).Store(out, items);
}

__global__ void load_direct(const int* in, int* out) { copy_plus_one<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(in, out); }
__global__ void load_vectorize(const int* in, int* out) { copy_plus_one<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>(in, out); }
__global__ void load_transpose(const int* in, int* out) { copy_plus_one<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(in, out); }
__global__ void load_warp_transpose(const int* in, int* out) { copy_plus_one<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(in, out); }

// A ragged tail: only n items are valid; the rest are loaded as -1 and not stored.
__global__ void load_guarded(const int* in, int* out, int n)
{
    using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using Store = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ typename Load::TempStorage tl;
    __shared__ typename Store::TempStorage ts;
    int items[4];
    Load(tl).Load(in, items, n, -1);
    Store(ts).Store(out, items, n);
}
