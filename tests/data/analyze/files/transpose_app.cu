// A whole program as it sits in a repository: standard headers, a helper header from a subfolder,
// a template kernel, host code with error checks and a launch.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include "helpers/tile.cuh"

#define CUDA_CHECK(call)                                                        \
  do {                                                                          \
    cudaError_t err_ = (call);                                                  \
    if (err_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

static const int kRows = 8;

template <int DIM>
__global__ void transpose_tiled(float* out, const float* in, int width, int height) {
  __shared__ Tile<float, DIM> tile;
  int x = blockIdx.x * DIM + threadIdx.x;
  int y = blockIdx.y * DIM + threadIdx.y;
  for (int j = 0; j < DIM; j += kRows)
    if (x < width && y + j < height) tile.cell[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * DIM + threadIdx.x;
  y = blockIdx.x * DIM + threadIdx.y;
  for (int j = 0; j < DIM; j += kRows)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile.cell[threadIdx.x][threadIdx.y + j];
}

__global__ void row_sums(const float* in, float* sums, int width) {
  __shared__ float partial[32];
  float v = 0.f;
  for (int i = threadIdx.x; i < width; i += blockDim.x) v += in[blockIdx.x * width + i];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.f;
    v = warp_sum(v);
    if (threadIdx.x == 0) sums[blockIdx.x] = v;
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  std::vector<float> host(size_t(n) * n);
  for (size_t i = 0; i < host.size(); ++i) host[i] = std::sin(float(i));
  float *in, *out, *sums;
  CUDA_CHECK(cudaMalloc(&in, host.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out, host.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&sums, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(32, kRows), grid((n + 31) / 32, (n + 31) / 32);
  transpose_tiled<32><<<grid, block>>>(out, in, n, n);
  row_sums<<<n, 256>>>(out, sums, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("ok\n");
  return 0;
}
