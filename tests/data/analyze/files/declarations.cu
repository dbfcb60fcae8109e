// Declarations as libraries write them: restrict-qualified pointers inside a parameter struct, a
// template kernel whose launch bounds hold braces, an optional output passed as NULL.
#include <cstdint>

struct Views {
  int n;
  void *__restrict__ x;
  float *__restrict__ y;
};

__global__ void add_views(Views v) {
  __shared__ float s[128];
  s[threadIdx.x] = static_cast<float *>(v.x)[threadIdx.x] + v.y[threadIdx.x];
  __syncthreads();
  v.y[threadIdx.x] = s[127 - threadIdx.x];
}

struct Shape { static constexpr int threads = 64; };

template <class S>
__global__ static
__launch_bounds__(decltype(S{})::threads)
void scaled(const float *in, float *out, float *maybe_norms, int n) {
  __shared__ float tile[S::threads];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = 2.f * tile[S::threads - 1 - threadIdx.x];
  if (maybe_norms != nullptr && threadIdx.x == 0) maybe_norms[0] = tile[0];
}

template __global__ void scaled<Shape>(const float *, float *, float *, int);
