// A per-thread array indexed at run time lives in local memory; shared memory around it.
// Each thread gathers 8 values from a shared tile into a local array, sorts them (insertion sort,
// indices known only at run time) and writes its median back to shared memory.
extern "C" __global__ void local_sort_median(float *out, const float *in, const int *perm)
{
    __shared__ float tile[256];
    __shared__ float med[256];
    const int t = threadIdx.x;
    tile[t] = in[t];
    __syncthreads();
    float v[8];
    for (int k = 0; k < 8; ++k)
        v[perm[t * 8 + k] & 7] = tile[(t + 32 * k) & 255];
    for (int i = 1; i < 8; ++i) {
        float x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }
    med[t] = 0.5f * (v[3] + v[4]);
    __syncthreads();
    out[t] = med[255 - t];
}
