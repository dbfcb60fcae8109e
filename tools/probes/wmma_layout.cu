// Which element of a wmma tile each lane's fragment slot holds, on the GPU it runs on: the layouts
// `smemlab analyze` needs to emulate wmma.load/store/mma as ptxas lowers them. Each tile holds its
// own element indices; every lane writes its slots out; the host prints one JSON line per fragment:
// {"shape": [m, n, k], "use": "a"|"b"|"c", "type": ..., "layout": ..., "slots": [[row, col] per slot] per lane}
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <vector>
using namespace nvcuda;

template <typename Use, int M, int N, int K, typename T, typename Layout, typename Mem>
__global__ void probe(const Mem *tile, int ld, float *out, int *count) {
  wmma::fragment<Use, M, N, K, T, Layout> f;
  wmma::load_matrix_sync(f, tile, ld);
  const int lane = threadIdx.x;
  for (int i = 0; i < f.num_elements; ++i) out[lane * f.num_elements + i] = float(f.x[i]);
  if (lane == 0) *count = f.num_elements;
}

template <int M, int N, int K, typename T = float>
__global__ void probe_acc(const T *tile, int ld, float *out, int *count, bool col) {
  wmma::fragment<wmma::accumulator, M, N, K, T> f;
  wmma::load_matrix_sync(f, tile, ld, col ? wmma::mem_col_major : wmma::mem_row_major);
  const int lane = threadIdx.x;
  for (int i = 0; i < f.num_elements; ++i) out[lane * f.num_elements + i] = float(f.x[i]);
  if (lane == 0) *count = f.num_elements;
}

template <typename Mem>
static void run(const char *use, int m, int n, int k, const char *type, const char *layout, int rows, int cols,
                bool row_major, void (*launch)(const Mem *, int, float *, int *)) {
  std::vector<Mem> host(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) host[row_major ? r * cols + c : c * rows + r] = Mem(float(r * cols + c));
  Mem *tile;
  float *out;
  int *count;
  cudaMalloc(&tile, host.size() * sizeof(Mem));
  cudaMalloc(&out, 32 * 256 * sizeof(float));
  cudaMalloc(&count, sizeof(int));
  cudaMemcpy(tile, host.data(), host.size() * sizeof(Mem), cudaMemcpyHostToDevice);
  launch(tile, row_major ? cols : rows, out, count);
  int n_el = 0;
  std::vector<float> got(32 * 256);
  cudaMemcpy(&n_el, count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printf("{\"shape\": [%d, %d, %d], \"use\": \"%s\", \"type\": \"%s\", \"layout\": \"%s\", \"slots\": [", m, n, k, use,
         type, layout);
  for (int lane = 0; lane < 32; ++lane) {
    printf("%s[", lane ? ", " : "");
    for (int i = 0; i < n_el; ++i) {
      int idx = int(got[lane * n_el + i]);
      printf("%s[%d, %d]", i ? ", " : "", idx / cols, idx % cols);
    }
    printf("]");
  }
  printf("], \"error\": \"%s\"}\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(tile), cudaFree(out), cudaFree(count);
}

#define AB(USE, M, N, K, T, MEM, LAYOUT, ROWS, COLS, NAME)                                                       \
  run<MEM>(#USE == std::string("wmma::matrix_a") ? "a" : "b", M, N, K, NAME, #LAYOUT, ROWS, COLS,               \
           std::string(#LAYOUT) == "row_major",                                                                 \
           [](const MEM *t, int ld, float *o, int *c) { probe<USE, M, N, K, T, wmma::LAYOUT><<<1, 32>>>(t, ld, o, c); })

#include <string>

int main() {
  AB(wmma::matrix_a, 16, 16, 16, half, half, row_major, 16, 16, "f16");
  AB(wmma::matrix_a, 16, 16, 16, half, half, col_major, 16, 16, "f16");
  AB(wmma::matrix_b, 16, 16, 16, half, half, row_major, 16, 16, "f16");
  AB(wmma::matrix_b, 16, 16, 16, half, half, col_major, 16, 16, "f16");
  AB(wmma::matrix_a, 32, 8, 16, half, half, row_major, 32, 16, "f16");
  AB(wmma::matrix_b, 32, 8, 16, half, half, col_major, 16, 8, "f16");
  AB(wmma::matrix_a, 8, 32, 16, half, half, row_major, 8, 16, "f16");
  AB(wmma::matrix_b, 8, 32, 16, half, half, row_major, 16, 32, "f16");
  AB(wmma::matrix_a, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, row_major, 16, 16, "bf16");
  AB(wmma::matrix_b, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, col_major, 16, 16, "bf16");
  AB(wmma::matrix_a, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, col_major, 16, 16, "bf16");
  AB(wmma::matrix_b, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, row_major, 16, 16, "bf16");
  AB(wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, float, row_major, 16, 8, "tf32");
  AB(wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, float, row_major, 8, 16, "tf32");
  AB(wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, float, col_major, 16, 8, "tf32");
  AB(wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, float, col_major, 8, 16, "tf32");
  run<float>("c", 16, 16, 16, "f32", "mem_row_major", 16, 16, true,
             [](const float *t, int ld, float *o, int *c) { probe_acc<16, 16, 16><<<1, 32>>>(t, ld, o, c, false); });
  run<float>("c", 16, 16, 16, "f32", "mem_col_major", 16, 16, false,
             [](const float *t, int ld, float *o, int *c) { probe_acc<16, 16, 16><<<1, 32>>>(t, ld, o, c, true); });
  run<float>("c", 32, 8, 16, "f32", "mem_row_major", 32, 8, true,
             [](const float *t, int ld, float *o, int *c) { probe_acc<32, 8, 16><<<1, 32>>>(t, ld, o, c, false); });
  run<float>("c", 8, 32, 16, "f32", "mem_row_major", 8, 32, true,
             [](const float *t, int ld, float *o, int *c) { probe_acc<8, 32, 16><<<1, 32>>>(t, ld, o, c, false); });
  run<float>("c", 16, 16, 8, "f32", "mem_row_major", 16, 16, true,
             [](const float *t, int ld, float *o, int *c) { probe_acc<16, 16, 8><<<1, 32>>>(t, ld, o, c, false); });
  // f16 accumulators (element indices up to 255 are exact in half)
  run<half>("c", 16, 16, 16, "f16", "mem_row_major", 16, 16, true,
            [](const half *t, int ld, float *o, int *c) { probe_acc<16, 16, 16, half><<<1, 32>>>(t, ld, o, c, false); });
  run<half>("c", 16, 16, 16, "f16", "mem_col_major", 16, 16, false,
            [](const half *t, int ld, float *o, int *c) { probe_acc<16, 16, 16, half><<<1, 32>>>(t, ld, o, c, true); });
  run<half>("c", 32, 8, 16, "f16", "mem_row_major", 32, 8, true,
            [](const half *t, int ld, float *o, int *c) { probe_acc<32, 8, 16, half><<<1, 32>>>(t, ld, o, c, false); });
  run<half>("c", 8, 32, 16, "f16", "mem_row_major", 8, 32, true,
            [](const half *t, int ld, float *o, int *c) { probe_acc<8, 32, 16, half><<<1, 32>>>(t, ld, o, c, false); });
  return 0;
}
