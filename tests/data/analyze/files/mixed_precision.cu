// Reduced precision and vector loads as kernels use them: half, bfloat16 and fp8 inputs, float4
// loads, cooperative_groups reductions and tiles.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void half_dot(const __half2* a, const __half2* b, float* out, int n2) {
  __shared__ float warp_sums[8];
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  float acc = 0.f;
  for (int i = block.thread_rank(); i < n2; i += block.size()) {
    float2 p = __half22float2(__hmul2(a[i], b[i]));
    acc += p.x + p.y;
  }
  acc = cg::reduce(warp, acc, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = acc;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float v = warp.thread_rank() < warp.meta_group_size() ? warp_sums[warp.thread_rank()] : 0.f;
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) *out = v;
  }
}

__global__ void bf16_scale_rows(const __nv_bfloat16* in, __nv_bfloat16* out, int cols) {
  __shared__ float row[256];
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] = __bfloat162float(in[r * cols + c]);
  __syncthreads();
  float first = row[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[r * cols + c] = __float2bfloat16(row[c] - first);
}

__global__ void fp8_decode(const __nv_fp8_e4m3* in, float* out, float scale) {
  __shared__ float staged[33 * 32];
  int t = threadIdx.x;
  for (int i = t; i < 32 * 32; i += blockDim.x) staged[(i / 32) * 33 + i % 32] = float(in[i]) * scale;
  __syncthreads();
  for (int i = t; i < 32 * 32; i += blockDim.x) out[i] = staged[(i % 32) * 33 + i / 32];
}

__global__ void float4_tile_copy(const float4* in, float4* out) {
  __shared__ float4 tile[256];
  tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  float4 v = tile[(threadIdx.x * 2) % blockDim.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
