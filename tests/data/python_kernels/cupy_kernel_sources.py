"""CUDA source kept as a constant of its own module, as projects keep it; tests/data/python_kernels/
cupy_imported_source.py makes the RawKernel (tests/test_analyze_cupy.py)."""

COLREAD_SRC = r'''
extern "C" __global__ void colread(float* out, const float* in) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
'''
