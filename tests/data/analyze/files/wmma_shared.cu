// Tensor-core fragments through shared memory, as tiled GEMMs stage them: the a and b fragments loaded
// from shared tiles of a given leading dimension, the accumulator loaded, scaled and stored back through
// a shared tile. One warp each; the cost of a fragment's shared traffic depends on the leading dimension
// (rows LD elements apart fall in the same banks when LD * sizeof(T) is a multiple of 128 bytes).
#include <cuda_fp16.h>
#include <cuda_bf16.h>  // before mma.h, which declares the bf16 fragments only where the type exists
#include <mma.h>
using namespace nvcuda;

// a is M x K, b is K x N; Frag is the fragment's element type, Mem the type the tiles hold
template <int M, int N, int K, typename Frag, typename Mem, typename ALayout, typename BLayout, int LDA, int LDB>
__global__ void ab_from_shared(const Mem *a, const Mem *b, float *c) {
  __shared__ Mem sa[32 * LDA];
  __shared__ Mem sb[32 * LDB];
  for (int i = threadIdx.x; i < 32 * LDA; i += 32) sa[i] = a[i];
  for (int i = threadIdx.x; i < 32 * LDB; i += 32) sb[i] = b[i];
  __syncwarp();
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, ALayout> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, BLayout> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, sa, LDA);
  wmma::load_matrix_sync(fb, sb, LDB);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, N, wmma::mem_row_major);
}

// the accumulator tile (M x N, leading dimension LD) through shared memory and back, doubled on the way
template <int M, int N, int K, typename Acc, int LD, bool COL>
__global__ void c_through_shared(const Acc *in, Acc *out) {
  __shared__ Acc sc[32 * LD];
  for (int i = threadIdx.x; i < 32 * LD; i += 32) sc[i] = in[i];
  __syncwarp();
  wmma::fragment<wmma::accumulator, M, N, K, Acc> f;
  const wmma::layout_t layout = COL ? wmma::mem_col_major : wmma::mem_row_major;
  wmma::load_matrix_sync(f, sc, LD, layout);
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = f.x[i] + f.x[i];
  __syncwarp();
  wmma::store_matrix_sync(sc, f, LD, layout);
  __syncwarp();
  for (int i = threadIdx.x; i < 32 * LD; i += 32) out[i] = sc[i];
}

// the fragments straight from global memory, no staging: what ptxas loads them with there
template <int M, int N, int K, typename Frag, typename Mem, typename ALayout, typename BLayout, int LDA, int LDB>
__global__ void ab_from_global(const Mem *a, const Mem *b, float *c) {
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, ALayout> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, BLayout> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, LDA);
  wmma::load_matrix_sync(fb, b, LDB);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, N, wmma::mem_col_major);
}
