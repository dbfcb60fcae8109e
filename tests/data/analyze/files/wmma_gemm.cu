// A tensor-core tile product through mma.h, as tiled GEMMs write it: A and B staged in shared memory,
// fragments loaded from there, the f32 accumulator stored to global memory.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

template <typename ALayout, typename BLayout>
__global__ void wmma_tile(const half *a, const half *b, float *c, int k_tiles) {
  __shared__ half sa[16 * 16];
  __shared__ half sb[16 * 16];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int kt = 0; kt < k_tiles; ++kt) {
    for (int i = threadIdx.x; i < 256; i += 32) {
      sa[i] = a[kt * 256 + i];
      sb[i] = b[kt * 256 + i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, ALayout> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, BLayout> fb;
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

template __global__ void wmma_tile<wmma::row_major, wmma::col_major>(const half *, const half *, float *, int);
template __global__ void wmma_tile<wmma::row_major, wmma::row_major>(const half *, const half *, float *, int);
