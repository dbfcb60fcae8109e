// BlockRunLengthDecode: runs of values expanded, window by window (runs of length 0 may only end the list).
#include <cub/block/block_run_length_decode.cuh>

__global__ void run_length_decode(const int* values, const int* lengths, int* out, int* total)
{
    using Decode = cub::BlockRunLengthDecode<int, 32, 2, 4>;
    __shared__ typename Decode::TempStorage tmp;
    int v[2], len[2];
    for (int i = 0; i < 2; ++i) { v[i] = values[threadIdx.x * 2 + i]; len[i] = lengths[threadIdx.x * 2 + i]; }
    int decoded_size = 0;
    Decode decode(tmp, v, len, decoded_size);
    for (int window = 0; window < decoded_size; window += 32 * 4) {
        int items[4];
        decode.RunLengthDecode(items, window);
        for (int i = 0; i < 4; ++i) {
            int at = window + threadIdx.x * 4 + i;
            if (at < decoded_size) out[at] = items[i];
        }
    }
    if (threadIdx.x == 0) *total = decoded_size;
}
