// Issue 31: the source view's sectors of a 16-byte cp.async with copies in flight. The staged matmul
// (overlap.mmStagedCpAsync2-4) shows fewer "L2 Theoretical Sectors Global" for its A-tile copy than its lanes'
// distinct sectors, by whole warp-copies (16 sectors each: 23, 24 and 23 of its 256), with every lane on and
// every tag request there, while the kernel counter and the one-stage kernel (mmStagedCpAsync1) agree with the
// rule. These launches copy the matmul's A tile alone and separate what the shortfall could depend on: STAGES
// items in flight (1, 2, 4), the warps of the block (1 or 8), whether consecutive items read the two 64-byte
// halves of the same 128-byte lines (step 16 floats, as the matmul's A) or lines of their own (step 32), and
// work between items (`spin` dependent FMAs) that lets each copy land before the next is issued. The `.again`
// cases launch the same thing a second time: is the source view's count repeatable at all?
#ifndef STAGES
#define STAGES 2
#endif

// thread t: 16 bytes of row t / 4 of `a` (rows of 128 floats) at column (u * step) % 128 + 4 (t % 4), to float
// 4 t of its stage: a warp reads 8 rows of 64 bytes into 512 contiguous bytes (16 sectors by either rule)
__device__ __forceinline__ void issue(float *stage, const float *a, int u, int step)
{
    const int t = threadIdx.x;
    const float *src = a + (t / 4) * 128 + (u * step) % 128 + 4 * (t % 4);
    const unsigned dst = (unsigned)__cvta_generic_to_shared(stage + 4 * t);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}

// as overlap.cu's mm_staged_cp_async: STAGES - 1 items issued ahead, one commit group an item
extern "C" __global__ void cp_async_stages(const float *a, float *out, int items, int step, int spin)
{
    __shared__ __align__(128) float tile[STAGES][4 * 256];
    float acc = 0.0f;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < items)
            issue(tile[s], a, s, step);
        asm volatile("cp.async.commit_group;" ::: "memory");
    }
    for (int q = 0; q < items; q++) {
        const int u = q + STAGES - 1;
        if (u < items)
            issue(tile[u % STAGES], a, u, step);
        asm volatile("cp.async.commit_group;" ::: "memory");
        asm volatile("cp.async.wait_group %0;" ::"n"(STAGES - 1) : "memory");
        __syncthreads();
        acc += tile[q % STAGES][(4 * threadIdx.x + q) % (4 * blockDim.x)];
        for (int k = 0; k < spin; k++)  // time for the copies in flight to land before the next is issued
            acc = acc * 0.999f + 1.0f;
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}
