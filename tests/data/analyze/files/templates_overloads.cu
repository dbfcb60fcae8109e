// Template kernels instantiated only by the user's --kernel, overloads told apart by their instance,
// a kernel in a namespace, and parameters with nothing to give (an empty tag struct).
#include <cstdint>
#include <type_traits>

namespace lab {

struct RowMajor {};

template <typename T, int BLOCK>
__global__ void stage_and_reverse(T* data, int n, RowMajor) {
  __shared__ T buf[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  buf[threadIdx.x] = i < n ? data[i] : T(0);
  __syncthreads();
  if (i < n) data[i] = buf[BLOCK - 1 - threadIdx.x];
}

template <int STRIDE>
__global__ void strided(float* data, std::integral_constant<int, STRIDE>) {
  __shared__ float s[32 * 33];
  s[threadIdx.x * STRIDE % (32 * 33)] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = s[threadIdx.x];
}

}  // namespace lab

template <typename T>
__global__ void fill(T* out, T value) {
  __shared__ T s[128];
  s[threadIdx.x] = value;
  __syncthreads();
  out[threadIdx.x] = s[127 - threadIdx.x];
}

template __global__ void fill<float>(float*, float);
template __global__ void fill<int>(int*, int);

// overloads of one name: picked by the instance's type, as a launch through a function pointer does
__global__ void scale(float *x, float s) {
  __shared__ float t[64];
  t[threadIdx.x] = x[threadIdx.x] * s;
  __syncthreads();
  x[threadIdx.x] = t[63 - threadIdx.x];
}
__global__ void scale(double *x, double s) {
  __shared__ double t[64];
  t[threadIdx.x] = x[threadIdx.x] * s;
  __syncthreads();
  x[threadIdx.x] = t[63 - threadIdx.x];
}
