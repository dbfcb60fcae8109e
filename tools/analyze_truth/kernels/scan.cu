// Work-efficient exclusive scan (Blelloch) of n = 2 * blockDim.x floats in shared memory, from GPU
// Gems 3, chapter 39. The up-sweep and down-sweep trees hit banks with growing strides;
// CONFLICT_FREE_OFFSET pads one word every 32 to spread them. A template on that choice
// (C++, mangled), both instantiated. Dynamic shared memory: n + n / 32 floats.
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5

template <bool CONFLICT_FREE>
__device__ __forceinline__ int pad(int n)
{
    return CONFLICT_FREE ? (n >> LOG_NUM_BANKS) : 0;
}

template <bool CONFLICT_FREE>
__global__ void prescan(float *g_odata, const float *g_idata, int n)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int offset = 1;
    int ai = thid;
    int bi = thid + (n / 2);
    int bankOffsetA = pad<CONFLICT_FREE>(ai);
    int bankOffsetB = pad<CONFLICT_FREE>(bi);
    temp[ai + bankOffsetA] = g_idata[ai];
    temp[bi + bankOffsetB] = g_idata[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {  // build the sum in place up the tree
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += pad<CONFLICT_FREE>(ai);
            bi += pad<CONFLICT_FREE>(bi);
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + pad<CONFLICT_FREE>(n - 1)] = 0;  // clear the last element
    for (int d = 1; d < n; d *= 2) {  // traverse down the tree and build the scan
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += pad<CONFLICT_FREE>(ai);
            bi += pad<CONFLICT_FREE>(bi);
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g_odata[ai] = temp[ai + bankOffsetA];
    g_odata[bi] = temp[bi + bankOffsetB];
}

template __global__ void prescan<false>(float *, const float *, int);
template __global__ void prescan<true>(float *, const float *, int);
