// Row softmax, one block per row (after karpathy/llm.c dev/cuda/softmax_forward.cu):
//   softmax_forward_kernel2  the row max and the row sum each reduced through a shared-memory tree
//                            of blockDim.x floats (dynamic shared memory), thread coarsening over C
//   softmax_forward_kernel3  warp shuffles inside each warp, shared memory (static, 32 floats) only
//                            to combine the warps' maxima and sums
#define NEG_INF __int_as_float(0xff800000)

extern "C" __global__ void softmax_forward_kernel2(float *out, const float *inp, int N, int C)
{
    extern __shared__ float shared[];
    int idx = blockIdx.x;
    int tid = threadIdx.x;
    int block_size = blockDim.x;
    const float *x = inp + idx * C;
    float maxval = NEG_INF;
    for (int i = tid; i < C; i += block_size)
        maxval = fmaxf(maxval, x[i]);
    shared[tid] = maxval;
    __syncthreads();
    for (int stride = block_size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (tid < stride)
            shared[tid] = fmaxf(shared[tid], shared[tid + stride]);
    }
    __syncthreads();
    float offset = shared[0];
    for (int i = tid; i < C; i += block_size)
        out[idx * C + i] = __expf(x[i] - offset);
    __syncthreads();
    x = out + idx * C;
    float sumval = 0.0f;
    for (int i = tid; i < C; i += block_size)
        sumval += x[i];
    shared[tid] = sumval;
    __syncthreads();
    for (int stride = block_size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (tid < stride)
            shared[tid] += shared[tid + stride];
    }
    __syncthreads();
    float sum = shared[0];
    for (int i = tid; i < C; i += block_size)
        out[idx * C + i] = x[i] / sum;
}

__device__ float warpReduceMax(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_down_sync(0xFFFFFFFF, val, offset));
    return val;
}

__device__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xFFFFFFFF, val, offset);
    return val;
}

extern "C" __global__ void softmax_forward_kernel3(float *out, const float *inp, int N, int C)
{
    __shared__ float maxvals[32];
    __shared__ float sumvals[32];
    int idx = blockIdx.x;
    int tid = threadIdx.x;
    int warpId = threadIdx.x / 32;
    int laneId = threadIdx.x % 32;
    int warpsPerBlock = blockDim.x / 32;
    const float *x = inp + idx * C;

    float maxval = NEG_INF;
    for (int i = tid; i < C; i += blockDim.x)
        maxval = fmaxf(maxval, x[i]);
    maxval = warpReduceMax(maxval);
    if (laneId == 0) maxvals[warpId] = maxval;
    __syncthreads();
    if (tid == 0) {
        float val = maxvals[tid];
        for (int i = 1; i < warpsPerBlock; i++)
            val = fmaxf(val, maxvals[i]);
        maxvals[0] = val;
    }
    __syncthreads();
    float offset = maxvals[0];

    float sumval = 0.0f;
    for (int i = tid; i < C; i += blockDim.x) {
        float e = __expf(x[i] - offset);
        out[idx * C + i] = e;
        sumval += e;
    }
    sumval = warpReduceSum(sumval);
    if (laneId == 0) sumvals[warpId] = sumval;
    __syncthreads();
    if (tid == 0) {
        float val = sumvals[tid];
        for (int i = 1; i < warpsPerBlock; ++i)
            val += sumvals[i];
        sumvals[0] = val;
    }
    __syncthreads();
    float sum = sumvals[0];
    for (int i = tid; i < C; i += blockDim.x)
        out[idx * C + i] = out[idx * C + i] / sum;
}
