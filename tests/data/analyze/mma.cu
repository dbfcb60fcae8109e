// One warp's mma.sync for tests/test_analyze_mma.py: D (16 x 8, row-major, float) = A B + C for the
// shapes and types analyze emulates. 16-bit inputs go through shared memory and ldmatrix (the way
// tensor-core kernels load them, in the layout mma expects by design); tf32 and s8 fragments are
// read from global memory by the PTX ISA's fragment layouts. A: M x K row-major; Bt: N x K (B's
// columns as rows); C, D: 16 x 8 row-major floats (ints for s8).
typedef unsigned short half_bits;

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// c0, c1 at row g, columns 2t, 2t + 1; c2, c3 at row g + 8
template <typename T>
__device__ __forceinline__ void c_fragment(const T *C, T c[4])
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    for (int i = 0; i < 4; ++i)
        c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
}

template <typename T>
__device__ __forceinline__ void store_d(T *D, const T d[4])
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    for (int i = 0; i < 4; ++i)
        D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
}

// K = 16: A by ldmatrix.x4 (lane l: row l % 16, columns 8 (l / 16)), B by ldmatrix.x2 of Bt
__device__ __forceinline__ void load_k16(const half_bits *A, const half_bits *Bt, unsigned a[4], unsigned b[2])
{
    __shared__ __align__(16) half_bits sa[16 * 16], sb[8 * 16];
    const int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) sa[i] = A[i];
    for (int i = l; i < 128; i += 32) sb[i] = Bt[i];
    __syncwarp();
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(smem_addr(&sa[(l % 16) * 16 + 8 * (l / 16)])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b[0]), "=r"(b[1]) : "r"(smem_addr(&sb[(l % 8) * 16 + 8 * ((l / 8) % 2)])));
}

// m16n8k16 with 16-bit inputs of TYPE (f16 or bf16), f32 accumulators
#define MMA_K16(TYPE)                                                                                          \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." #TYPE "." #TYPE ".f32 {%0, %1, %2, %3}, "            \
                 "{%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"                                           \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                              \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),                           \
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]))

template <bool BF16>
__device__ __forceinline__ void k16(const half_bits *A, const half_bits *Bt, const float *C, float *D)
{
    unsigned a[4], b[2];
    float c[4], d[4];
    load_k16(A, Bt, a, b);
    c_fragment(C, c);
    if (BF16)
        MMA_K16(bf16);
    else
        MMA_K16(f16);
    store_d(D, d);
}

extern "C" __global__ void mma_f16_k16(const half_bits *A, const half_bits *Bt, const float *C, float *D)
{
    k16<false>(A, Bt, C, D);
}

extern "C" __global__ void mma_bf16_k16(const half_bits *A, const half_bits *Bt, const float *C, float *D)
{
    k16<true>(A, Bt, C, D);
}

// K = 8: A (16 x 8) by ldmatrix.x2, B by ldmatrix.x1 of Bt (8 x 8)
extern "C" __global__ void mma_f16_k8(const half_bits *A, const half_bits *Bt, const float *C, float *D)
{
    __shared__ __align__(16) half_bits sa[16 * 8], sb[8 * 8];
    const int l = threadIdx.x;
    for (int i = l; i < 128; i += 32) sa[i] = A[i];
    for (int i = l; i < 64; i += 32) sb[i] = Bt[i];
    __syncwarp();
    unsigned a[2], b;
    float c[4], d[4];
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(a[0]), "=r"(a[1]) : "r"(smem_addr(&sa[(l % 16) * 8])));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(b) : "r"(smem_addr(&sb[(l % 8) * 8])));
    c_fragment(C, c);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%7, %8, %9, %10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    store_d(D, d);
}

// tf32 m16n8k8: a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4); b0 (t, g), b1 (t + 4, g)
extern "C" __global__ void mma_tf32_k8(const float *A, const float *Bt, const float *C, float *D)
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    unsigned a[4], b[2];
    float c[4], d[4];
    for (int i = 0; i < 4; ++i)
        a[i] = __float_as_uint(A[(g + 8 * (i % 2)) * 8 + t + 4 * (i / 2)]);
    for (int i = 0; i < 2; ++i)
        b[i] = __float_as_uint(Bt[g * 8 + t + 4 * i]);
    c_fragment(C, c);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    store_d(D, d);
}

// s8 m16n8k32: register j of A holds row g + 8 (j % 2), columns 4t + 16 (j / 2) .. + 3; register j of B
// holds rows 4t + 16 j .. + 3 of column g
extern "C" __global__ void mma_s8_k32(const signed char *A, const signed char *Bt, const int *C, int *D)
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    unsigned a[4], b[2];
    int c[4], d[4];
    for (int j = 0; j < 4; ++j)
        a[j] = *reinterpret_cast<const unsigned *>(A + (g + 8 * (j % 2)) * 32 + 4 * t + 16 * (j / 2));
    for (int j = 0; j < 2; ++j)
        b[j] = *reinterpret_cast<const unsigned *>(Bt + g * 32 + 4 * t + 16 * j);
    c_fragment(C, c);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
    store_d(D, d);
}

// f64 on sm_90, m16n8k4 and m16n8k16 (Triton 3.6's tl.dot of float64 tiles): one element a 64-bit register,
// a_i at row g + 8 (i % 2), column t + 4 (i / 2); b_i at row t + 4 i of column g; C and D as above
extern "C" __global__ void mma_f64_k4(const double *A, const double *Bt, const double *C, double *D)
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    double a[2], b[1], c[4], d[4];
    for (int i = 0; i < 2; ++i)
        a[i] = A[(g + 8 * i) * 4 + t];
    b[0] = Bt[g * 4 + t];
    c_fragment(C, c);
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%7, %8, %9, %10};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    store_d(D, d);
}

extern "C" __global__ void mma_f64_k16(const double *A, const double *Bt, const double *C, double *D)
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    double a[8], b[4], c[4], d[4];
    for (int i = 0; i < 8; ++i)
        a[i] = A[(g + 8 * (i % 2)) * 16 + t + 4 * (i / 2)];
    for (int i = 0; i < 4; ++i)
        b[i] = Bt[g * 16 + t + 4 * i];
    c_fragment(C, c);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"
                 : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
    store_d(D, d);
}
