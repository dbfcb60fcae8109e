// ldmatrix / stmatrix (warp-wide 8x8 b16 matrix loads and stores, sm_75+ / sm_90+) in inline PTX,
// on a 64 x 64 tile of 16-bit values (128-byte rows). Lane l gives the address of row l of the four
// 8x8 matrices (16 bytes each).
//   ldmatrix_x4_rows      rows of one 16-byte column of the tile: every address in one 16-byte bank
//                         group (the classic conflict)
//   ldmatrix_x4_swizzled  the same rows, 16-byte column XOR-swizzled by (row % 8): conflict-free
//   ldmatrix_x2_trans     .x2.trans on the swizzled layout
//   stmatrix_x4           stores the loaded fragments back to a second tile (sm_90)
typedef unsigned short u16;

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void load_tile(u16 (*tile)[64], const u16 *in)
{
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) tile[i / 64][i % 64] = in[i];
    __syncthreads();
}

extern "C" __global__ void ldmatrix_x4_rows(unsigned *out, const u16 *in)
{
    __shared__ __align__(128) u16 tile[64][64];
    load_tile(tile, in);
    const int lane = threadIdx.x & 31;
    const int row = lane + 32 * (threadIdx.x >> 5);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_addr(&tile[row][0])));
    out[threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}

extern "C" __global__ void ldmatrix_x4_swizzled(unsigned *out, const u16 *in)
{
    __shared__ __align__(128) u16 tile[64][64];
    load_tile(tile, in);
    const int lane = threadIdx.x & 31;
    const int row = lane + 32 * (threadIdx.x >> 5);
    const int chunk = (row % 8);  // 16-byte column 0, swizzled
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_addr(&tile[row][chunk * 8])));
    out[threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}

extern "C" __global__ void ldmatrix_x2_trans(unsigned *out, const u16 *in)
{
    __shared__ __align__(128) u16 tile[64][64];
    load_tile(tile, in);
    const int lane = threadIdx.x & 31;
    const int row = (lane & 15) + 16 * (threadIdx.x >> 5);  // lanes 16..31: addresses ignored for .x2
    const int chunk = (row % 8) ^ 1;
    unsigned r0, r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r0), "=r"(r1) : "r"(smem_addr(&tile[row][chunk * 8])));
    out[threadIdx.x] = r0 + r1;
}

extern "C" __global__ void stmatrix_x4(u16 *out, const u16 *in)
{
    __shared__ __align__(128) u16 tile[64][64];
    __shared__ __align__(128) u16 dst[64][64];
    load_tile(tile, in);
    const int lane = threadIdx.x & 31;
    const int row = lane + 32 * (threadIdx.x >> 5);
    const int chunk = (row % 8);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_addr(&tile[row][chunk * 8])));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(smem_addr(&dst[row][((row % 8) ^ 3) * 8])), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    __syncthreads();
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[i] = dst[i / 64][i % 64];
}
