// Shared scalars read inside loops that store through plain pointers: NVVM reads them every trip (a generic
// store may alias shared memory), ptxas once before the loop (it knows the store is global). Recorded to tell
// how many LDS the hardware runs (analyze: hoisting.py).
//   scale_rows        y[i] = x[i] * s_scale over a block-strided loop (trips differ between lanes)
//   norm_rows         a row a block: mean and rstd from a shared reduction, then a float4 normalisation loop
//                     reading s_mean and s_rstd, with gamma/beta
//   scale_rows_unroll the loop of scale_rows with #pragma unroll 4 (NVVM's remainder and unrolled loops)
//   rescale_nested    rows a block, s_row[r] read in the inner column loop (hoisted out of the inner loop only)
//   bump_in_loop      a warp's shared counter, also written in the loop: nothing can be hoisted
//   sync_in_loop      a __syncthreads() in the loop: the read stays in it

extern "C" __global__ void scale_rows(const float *x, float *y, int n)
{
    __shared__ float s_scale;
    if (threadIdx.x == 0)
        s_scale = 1.0f / (1.0f + x[0] * x[0]);
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        y[i] = x[i] * s_scale;
}

extern "C" __global__ void norm_rows(const float4 *x, const float4 *gamma, const float4 *beta, float4 *y, int cols4)
{
    __shared__ float s_part[32];
    __shared__ float s_mean, s_rstd;
    const float4 *row = x + (size_t)blockIdx.x * cols4;
    float sum = 0.f, sq = 0.f;
    for (int i = threadIdx.x; i < cols4; i += blockDim.x) {
        const float4 v = row[i];
        sum += v.x + v.y + v.z + v.w;
        sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    for (int o = 16; o > 0; o >>= 1) {
        sum += __shfl_xor_sync(0xffffffffu, sum, o);
        sq += __shfl_xor_sync(0xffffffffu, sq, o);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (lane == 0)
        s_part[warp] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (int w = 0; w < warps; ++w)
            t += s_part[w];
        s_mean = t / (4 * cols4);
    }
    __syncthreads();
    if (lane == 0)
        s_part[warp] = sq;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (int w = 0; w < warps; ++w)
            t += s_part[w];
        s_rstd = rsqrtf(t / (4 * cols4) - s_mean * s_mean + 1e-5f);
    }
    __syncthreads();
    float4 *out = y + (size_t)blockIdx.x * cols4;
    for (int i = threadIdx.x; i < cols4; i += blockDim.x) {
        const float4 v = row[i], g = gamma[i], b = beta[i];
        float4 r;
        r.x = (v.x - s_mean) * s_rstd * g.x + b.x;
        r.y = (v.y - s_mean) * s_rstd * g.y + b.y;
        r.z = (v.z - s_mean) * s_rstd * g.z + b.z;
        r.w = (v.w - s_mean) * s_rstd * g.w + b.w;
        out[i] = r;
    }
}

extern "C" __global__ void scale_rows_unroll(const float *x, float *y, int n)
{
    __shared__ float s_scale;
    if (threadIdx.x == 0)
        s_scale = 2.0f - x[1];
    __syncthreads();
#pragma unroll 4
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        y[i] = x[i] * s_scale;
}

extern "C" __global__ void rescale_nested(const float *x, float *y, int rows, int cols)
{
    __shared__ float s_row[16];
    if (threadIdx.x < rows)
        s_row[threadIdx.x] = 1.0f + x[threadIdx.x * cols];
    __syncthreads();
    for (int r = 0; r < rows; ++r)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            y[r * cols + c] = x[r * cols + c] * s_row[r];
}

extern "C" __global__ void bump_in_loop(const float *x, float *y, int n)
{
    __shared__ float s_acc[32];
    const int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0)
        s_acc[warp] = 0.f;
    __syncwarp();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        y[i] = x[i] * s_acc[warp];
        __syncwarp(__activemask());
        if (threadIdx.x % 32 == 0)
            s_acc[warp] += 1.0f;
        __syncwarp(__activemask());
    }
}

extern "C" __global__ void sync_in_loop(const float *x, float *y, int n)
{
    __shared__ float s_scale;
    if (threadIdx.x == 0)
        s_scale = 0.5f + x[0];
    __syncthreads();
    for (int base = 0; base < n; base += blockDim.x) {
        const int i = base + threadIdx.x;
        if (i < n)
            y[i] = x[i] * s_scale;
        __syncthreads();
    }
}
