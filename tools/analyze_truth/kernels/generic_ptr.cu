// Shared memory reached through generic pointers. `buf` is this block's shared array or a global
// scratch buffer, chosen at run time (use_global), so the compiler cannot tell the address space:
// the accesses through it are generic LD/ST (not LDS/STS) and land in shared memory when
// use_global is 0. A device function that is not inlined takes the shared array as a generic
// pointer too (where ptxas keeps the call).
__device__ __noinline__ void axpy_generic(float *y, const float *x, float a, int i)
{
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void generic_shared(float *out, const float *in, float *scratch, int use_global)
{
    __shared__ float xs[256];
    __shared__ float ys[256];
    const int t = threadIdx.x;
    float *buf = use_global ? scratch : ys;
    xs[t] = in[t];
    buf[t] = 1.0f;                   // generic store
    __syncthreads();
    axpy_generic(buf, xs, 2.0f, (t * 33) % 256);
    __syncthreads();
    out[t] = buf[(t * 2) % 256];     // generic load, 2-way in shared memory
}
