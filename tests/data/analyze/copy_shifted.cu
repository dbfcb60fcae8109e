// A 16-byte cp.async a thread: block b reads from in + b * step floats into shared memory 16 bytes past a
// 32-byte boundary, where Nsight Compute's kernel counter (128-byte global line, shared 32-byte chunk pairs)
// and its source view (global sector, shared chunk pairs) part (banks/coalescing.copy_counted_sectors). With
// step 4 the blocks' reads start at every 16-byte residue of a 128-byte line.
extern "C" __global__ void copyShifted(float *out, const float *in, int step)
{
    __shared__ __align__(128) float tile[4 * 64 + 8];
    const int t = threadIdx.x;
    const unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[4 + 4 * t]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(in + blockIdx.x * step + 4 * t));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = tile[4 + 4 * t];
}
