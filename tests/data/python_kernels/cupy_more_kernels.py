"""More CuPy kernels as scripts write them (tests/test_analyze_cupy.py): a plain (not raw) string whose printf
holds an escaped newline, a RawKernel given a name its code does not have, a cupy.fuse function, and a RawModule's
kernel taken with get_function at the top level (a call that needs a GPU)."""

import cupy as cp

colread_code = """
extern "C" __global__ void colread(float* out, const float* in) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) printf("first %f\\n", tile[0][0]);
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
"""
colread = cp.RawKernel(colread_code, "colread")

misnamed = cp.RawKernel(r'''
extern "C" __global__ void real_name(float* x) { x[threadIdx.x] = 1.0f; }
''', "wrong_name")


@cp.fuse()
def squared_diff(x, y):
    return (x - y) * (x - y)


rows = cp.RawModule(code=r'''
extern "C" __global__ void rowcopy(float* out, const float* in) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}
''')
rowcopy_kernel = rows.get_function("rowcopy")
