// One warp, one cp.async per kernel: lane l copies SIZE bytes from byte src[pattern * 32 + l] of the
// global buffer to byte dst[pattern * 32 + l] of an 8 KiB shared buffer (no copy where dst is -1). The
// patterns (tests/data/analyze_truth/cp_async_*.npy) are chosen to find what a cp.async (LDGSTS) costs
// in shared-memory wavefronts: rows of 128 bytes, alignment, banks, lanes active, the global side's
// lines, and the zero-filling form (a source size operand). With `warm`, each lane first reads its
// source word (ld.global.cg: into L2), so that the copy's lines come back from L2 rather than one by
// one from DRAM. With `inflight`, other copies are issued first and are still in flight. The zeroing
// stores and the final loads are plain and conflict-free.
#define BYTES 8192

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    unsigned r;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
    return r;
}

template <int SIZE, int FORM>  // FORM 0: plain; 1: with a source size (zfill), `srcsize` bytes
__device__ __forceinline__ void copy(unsigned dst, const char *src, int srcsize)
{
    if (SIZE == 16 && FORM == 0)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    else if (SIZE == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(srcsize) : "memory");
    else if (SIZE == 8 && FORM == 0)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst), "l"(src) : "memory");
    else if (SIZE == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(dst), "l"(src), "r"(srcsize) : "memory");
    else if (FORM == 0)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(srcsize) : "memory");
}

template <int SIZE, int FORM>
__device__ __forceinline__ void run(const int *dst, const int *src, int pattern, const char *g, int srcsize, int warm,
                                    int inflight, unsigned *out)
{
    __shared__ __align__(128) unsigned s[BYTES / 4];
    for (int i = threadIdx.x; i < BYTES / 4; i += blockDim.x) s[i] = 0;
    const int d = dst[pattern * 32 + (threadIdx.x & 31)], so = src[pattern * 32 + (threadIdx.x & 31)];
    if (warm && d >= 0) {
        unsigned v;
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(g + (so & ~3)));
        if (v == 0x9E3779B9u) out[BYTES / 4 - 1] = v;  // a use of the load, so that it completes first
    }
    __syncthreads();
    // `inflight` > 0: that many other copies (16 contiguous aligned bytes a lane, from the buffer's upper
    // half into the shared buffer's upper half) are issued first and still in flight when this one is
    // (-1: one other copy first, of the other 64-byte half of each lane's global line: the same lines
    // requested twice, as the staged matmul's consecutive K tiles do)
    for (int k = 0; k < inflight; ++k)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(s) + BYTES / 2 + 512u * k + 16u * (threadIdx.x & 31)),
                     "l"(g + 8192 + 512 * k + 16 * (threadIdx.x & 31)) : "memory");
    if (inflight < 0 && d >= 0)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(s) + BYTES / 2 + 16u * (threadIdx.x & 31)),
                     "l"(g + (so ^ 64)) : "memory");
    if (d >= 0) copy<SIZE, FORM>(smem_addr(s) + (unsigned)d, g + so, srcsize);
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < BYTES / 4; i += blockDim.x) out[i] = s[i];
}

extern "C" __global__ void cp_async16(const int *dst, const int *src, int pattern, const char *g, int srcsize, int warm,
                                  int inflight, unsigned *out)
{
    run<16, 0>(dst, src, pattern, g, srcsize, warm, inflight, out);
}

extern "C" __global__ void cp_async16_zfill(const int *dst, const int *src, int pattern, const char *g, int srcsize, int warm,
                                  int inflight, unsigned *out)
{
    run<16, 1>(dst, src, pattern, g, srcsize, warm, inflight, out);
}

extern "C" __global__ void cp_async8(const int *dst, const int *src, int pattern, const char *g, int srcsize, int warm,
                                  int inflight, unsigned *out)
{
    run<8, 0>(dst, src, pattern, g, srcsize, warm, inflight, out);
}

extern "C" __global__ void cp_async4(const int *dst, const int *src, int pattern, const char *g, int srcsize, int warm,
                                  int inflight, unsigned *out)
{
    run<4, 0>(dst, src, pattern, g, srcsize, warm, inflight, out);
}

extern "C" __global__ void cp_async4_zfill(const int *dst, const int *src, int pattern, const char *g, int srcsize, int warm,
                                  int inflight, unsigned *out)
{
    run<4, 1>(dst, src, pattern, g, srcsize, warm, inflight, out);
}
