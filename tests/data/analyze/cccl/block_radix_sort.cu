// BlockRadixSort: keys of several types, keys with values descending, and a bit range.
#include <cub/block/block_radix_sort.cuh>

// Each thread's ITEMS consecutive keys sorted in place across the block (a blocked arrangement).
template <typename Key, int THREADS, int ITEMS>
__device__ void sort_blocked(const Key* in, Key* out, int end_bit = sizeof(Key) * 8)
{
    using Sort = cub::BlockRadixSort<Key, THREADS, ITEMS>;
    __shared__ typename Sort::TempStorage tmp;
    Key keys[ITEMS];
    for (int i = 0; i < ITEMS; ++i) keys[i] = in[threadIdx.x * ITEMS + i];
    Sort(tmp).Sort(keys, 0, end_bit);
    for (int i = 0; i < ITEMS; ++i) out[threadIdx.x * ITEMS + i] = keys[i];
}

__global__ void sort_keys(const unsigned* in, unsigned* out) { sort_blocked<unsigned, 128, 4>(in, out); }
__global__ void sort_floats(const float* in, float* out) { sort_blocked<float, 32, 4>(in, out); }
__global__ void sort_bytes_bit_range(const unsigned char* in, unsigned char* out) { sort_blocked<unsigned char, 64, 4>(in, out, 8); }

__global__ void sort_pairs_descending(const int* keys_in, int* keys_out, int* vals_out)
{
    using Sort = cub::BlockRadixSort<int, 64, 2, int>;
    __shared__ typename Sort::TempStorage tmp;
    int keys[2], vals[2];
    for (int i = 0; i < 2; ++i) {
        keys[i] = keys_in[threadIdx.x * 2 + i];
        vals[i] = threadIdx.x * 2 + i;
    }
    Sort(tmp).SortDescendingBlockedToStriped(keys, vals);
    for (int i = 0; i < 2; ++i) {
        keys_out[i * 64 + threadIdx.x] = keys[i];
        vals_out[i * 64 + threadIdx.x] = vals[i];
    }
}
