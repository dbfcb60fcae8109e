// The 9-point 1-D finite-difference stencil (seed 001 "使用常量内存实现一维模板", "与只读缓存比较"):
//
//   out[i] = sum_{k=1..RADIUS} coef[k] * (in[i + RADIUS + k] - in[i + RADIUS - k]),  i in [0, size)
//
// `in` holds size + 2 * RADIUS floats (the halo on both sides), `out` holds size floats. Each block
// stages BDIM points plus RADIUS halo points on each side in shared memory, in a grid-stride loop.
// The kernels differ only in where the coefficients come from:
//
//   stancli1DGPU         __constant__ coef, written from the host (cudaMemcpyToSymbol): a warp reads
//                        one address at a time, the constant cache's best case (a broadcast)
//   stancliReadOnly      const float *__restrict__ dcoef: the compiler may use the read-only
//                        (non-coherent, LDG.CONSTANT) path
//   stancliLdg           __ldg(&dcoef[k]): the read-only path, forced
//   stancliGlobal        plain const float *dcoef: ordinary global loads, re-read every iteration
//                        because the store to `out` might alias them
//   stancli1DGPU_nosync  the seeds' loop: no barrier between one iteration's reads of smem and the
//                        next iteration's writes to it (a write-after-read race; kept on purpose)
//
// Unlike the seeds, the loop runs while `base < size` with `base` the same for the whole block, so
// every thread reaches every barrier, and the last, partial block reads no element past the end.
#ifndef RADIUS
#define RADIUS 4
#endif
#ifndef BDIM
#define BDIM 256
#endif

__constant__ float coef[RADIUS + 1];

// The grid-stride loop of every variant, written once. COEF(i) is the i-th coefficient, read in the
// kernel's own way (a macro, not a function, so the kernel parameter keeps its __restrict__);
// TAIL_SYNC 0 leaves out the barrier at the end of an iteration (the hazard variant).
#define STENCIL_LOOP(COEF, TAIL_SYNC)                                                                    \
    /* shared memory with the halo */                                                                    \
    __shared__ float smem[BDIM + 2 * RADIUS];                                                            \
    /* index into shared memory of this thread's point */                                                \
    const int sidx = threadIdx.x + RADIUS;                                                               \
    for (long long base = (long long)blockIdx.x * BDIM; base < size; base += (long long)gridDim.x * BDIM) { \
        const long long idx = base + threadIdx.x; /* this output; its input is in[idx + RADIUS] */     \
        /* the block's points (in a partial last block, threads past the end load the right halo) */    \
        if (idx < size + RADIUS)                                                                         \
            smem[sidx] = in[idx + RADIUS];                                                               \
        /* the halo on both sides */                                                                     \
        if (threadIdx.x < RADIUS) {                                                                      \
            smem[sidx - RADIUS] = in[idx];                                                               \
            if (idx + BDIM + RADIUS < size + 2 * RADIUS)                                                 \
                smem[sidx + BDIM] = in[idx + BDIM + RADIUS];                                             \
        }                                                                                                \
        __syncthreads(); /* the tile and its halo are in shared memory */                               \
        if (idx < size) {                                                                                \
            float tmp = 0.0f;                                                                            \
            _Pragma("unroll") for (int i = 1; i <= RADIUS; i++)                                          \
                tmp += COEF(i) * (smem[sidx + i] - smem[sidx - i]);                                      \
            out[idx] = tmp;                                                                              \
        }                                                                                                \
        if (TAIL_SYNC)                                                                                   \
            __syncthreads(); /* all have read the tile before the next iteration overwrites it */       \
    }

#define COEF_CONSTANT(i) coef[i]
#define COEF_POINTER(i) dcoef[i]
#define COEF_LDG(i) __ldg(&dcoef[i])

extern "C" __global__ void stancli1DGPU(const float *in, float *out, long long size)
{
    STENCIL_LOOP(COEF_CONSTANT, 1)
}

extern "C" __global__ void stancliReadOnly(const float *in, float *out, long long size, const float *__restrict__ dcoef)
{
    STENCIL_LOOP(COEF_POINTER, 1)
}

extern "C" __global__ void stancliLdg(const float *in, float *out, long long size, const float *dcoef)
{
    STENCIL_LOOP(COEF_LDG, 1)
}

extern "C" __global__ void stancliGlobal(const float *in, float *out, long long size, const float *dcoef)
{
    STENCIL_LOOP(COEF_POINTER, 1)
}

extern "C" __global__ void stancli1DGPU_nosync(const float *in, float *out, long long size)
{
    STENCIL_LOOP(COEF_CONSTANT, 0)
}
