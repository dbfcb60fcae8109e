"""CuPy kernels as people write them in a script: a RawKernel, a RawModule of templates, a kernel whose text is
built at run time, and an ElementwiseKernel (tests/test_analyze_cupy.py). Runs with a GPU; analysed without."""

import cupy as cp

TILE = 32

transpose_code = r'''
extern "C" __global__ void transpose(float* out, const float* in, int n) {
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
'''
transpose = cp.RawKernel(transpose_code, "transpose")

module = cp.RawModule(code=r'''
template <int PAD>
__global__ void column_sum(float* out, const float* in) {
    __shared__ float tile[32][32 + PAD];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    if (threadIdx.y == 0) {
        float s = 0;
        for (int r = 0; r < 32; ++r) s += tile[threadIdx.x][r];
        out[threadIdx.x] = s;
    }
}
''', options=("-std=c++17",), name_expressions=["column_sum<0>", "column_sum<1>"])

scale = cp.RawKernel("extern \"C\" __global__ void scale(float* x, float a) {\n"
                     "    __shared__ float s[64];\n"
                     "    s[threadIdx.x * " + str(TILE) + " % 64] = x[threadIdx.x];\n"
                     "    x[threadIdx.x] = a * s[threadIdx.x];\n"
                     "}\n", "scale")

cscale = cp.RawKernel(r'''
#include <cupy/complex.cuh>
extern "C" __global__ void cscale(complex<float>* x, float a) {
    __shared__ complex<float> s[64];
    s[threadIdx.x] = x[threadIdx.x] * a;
    __syncthreads();
    x[threadIdx.x] = s[63 - threadIdx.x];
}
''', "cscale")

axpy = cp.ElementwiseKernel("float32 x, float32 y, float32 a", "float32 z", "z = a * x + y", "axpy")

if __name__ == "__main__":
    x = cp.arange(32 * 32, dtype=cp.float32)
    out = cp.empty_like(x)
    transpose((1, 1), (32, 8), (out, x, cp.int32(32)))
    print(bool((out.reshape(32, 32) == x.reshape(32, 32).T).all()))
