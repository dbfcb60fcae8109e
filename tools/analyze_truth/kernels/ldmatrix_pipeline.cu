// A tensor-core step loop with register double buffering, one warp (32 threads): each trip loads the
// next step's fragments (ldmatrix) while it multiplies this step's (mma.sync m16n8k16); the last trip
// loads fragments no one uses, which ptxas drops (as in cp.async + ldmatrix HGEMM pipelines).
//   ldmatrix_pipeline  STEPS (4) K-steps of A (16 x 16) and Bt (8 x 16) f16 tiles staged in shared
//                      memory, a ring of 4; D (16 x 8 floats) = the sum of their products
#define STEPS 4

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void load_fragments(const unsigned short *sa, const unsigned short *sb, unsigned a[4],
                                               unsigned b[2])
{
    const int l = threadIdx.x;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(smem_u32(sa + (l % 16) * 16 + 8 * (l / 16))));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b[0]), "=r"(b[1]) : "r"(smem_u32(sb + (l % 8) * 16 + 8 * ((l / 8) % 2))));
}

extern "C" __global__ void ldmatrix_pipeline(const unsigned short *A, const unsigned short *Bt, float *D)
{
    __shared__ __align__(16) unsigned short sa[4][16 * 16], sb[4][8 * 16];
    for (int i = threadIdx.x; i < 4 * 256; i += 32) sa[i / 256][i % 256] = A[i];
    for (int i = threadIdx.x; i < 4 * 128; i += 32) sb[i / 128][i % 128] = Bt[i];
    __syncwarp();
    unsigned a[2][4], b[2][2];
    float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    load_fragments(sa[0], sb[0], a[0], b[0]);
#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
        const int cur = s & 1, nxt = (s + 1) & 1;
        load_fragments(sa[(s + 1) % 4], sb[(s + 1) % 4], a[nxt], b[nxt]);  // the last trip's: never used
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[cur][0]), "r"(a[cur][1]), "r"(a[cur][2]), "r"(a[cur][3]), "r"(b[cur][0]), "r"(b[cur][1]));
    }
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    for (int i = 0; i < 4; ++i)
        D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = c[i];
}
