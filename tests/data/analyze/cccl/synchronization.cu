// libcu++ synchronization: cuda::atomic_ref in shared and global memory, cuda::barrier with
// cuda::memcpy_async, and cooperative_groups::memcpy_async.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>
#include <cuda/barrier>

namespace cg = cooperative_groups;

__global__ void atomics(const int* in, int* g, int* out)
{
    __shared__ int sm[4];
    if (threadIdx.x < 4) sm[threadIdx.x] = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> a(sm[threadIdx.x % 4]);
    a.fetch_add(in[threadIdx.x]);
    __syncthreads();
    a.fetch_max(in[threadIdx.x] * 16);
    cuda::atomic_ref<int, cuda::thread_scope_device> b(*g);
    b.fetch_add(1, cuda::std::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x < 4) out[threadIdx.x] = cuda::atomic_ref<int, cuda::thread_scope_block>(sm[threadIdx.x]).load();
}

__global__ void barrier_copy(const int* in, int* out)
{
    __shared__ int buf[64];
    __shared__ int buf2[64];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, sizeof(int) * 64, bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = buf[63 - threadIdx.x];
    cg::memcpy_async(block, buf2, in, sizeof(int) * 64);
    cg::wait(block);
    out[64 + threadIdx.x] = buf2[threadIdx.x] + 1;
}
