// PTX texts that ptxas makes into the same SASS (tests/test_analyze_ptx_variants.py). NVVM, given the
// same source twice, at times reads a float4 of shared memory with one ld.shared.v4, and at times with
// an ld.shared.v4 whose upper half is never used then an ld.shared.v2 of that half (seen in
// ops_matmul.cu's mm_vectorized); ptxas loads only what is used and makes one LDS.128 of both. The
// inline asm below pins each form, on the same source line:
//   (none)        one ld.shared.v4
//   -DREDUNDANT   ld.shared.v4 of which two registers are dead, then ld.shared.v2 of their bytes
//   -DDUPLICATE   ld.shared.v4, all used, then ld.shared.v2 of its upper half again, used too
//   -DMASKED      REDUNDANT with NVVM's .pragma "used_bytes_mask 255": here ptxas makes two LDS.64
#if defined(REDUNDANT)
#define LOAD4 "{\n\t.reg .f32 u, v;\n\tld.shared.v4.f32 {%0, %1, u, v}, [%6];\n\tld.shared.v2.f32 {%2, %3}, [%6+8];\n\tmov.f32 %4, %2;\n\tmov.f32 %5, %3;\n\t}"
#elif defined(DUPLICATE)
#define LOAD4 "ld.shared.v4.f32 {%0, %1, %2, %3}, [%6];\n\tld.shared.v2.f32 {%4, %5}, [%6+8];"
#elif defined(MASKED)
#define LOAD4 "{\n\t.reg .f32 u, v;\n\t.pragma \"used_bytes_mask 255\";\n\tld.shared.v4.f32 {%0, %1, u, v}, [%6];\n\tld.shared.v2.f32 {%2, %3}, [%6+8];\n\tmov.f32 %4, %2;\n\tmov.f32 %5, %3;\n\t}"
#else
#define LOAD4 "ld.shared.v4.f32 {%0, %1, %2, %3}, [%6];\n\tmov.f32 %4, %2;\n\tmov.f32 %5, %3;"
#endif

extern "C" __global__ void reload(float* out) {
    __shared__ __align__(16) float s[1024];
    const int t = threadIdx.x;
    for (int i = t; i < 1024; i += blockDim.x) s[i] = (float)i;
    __syncthreads();
    const unsigned a = (unsigned)__cvta_generic_to_shared(&s[(t * 8) % 1024]);  // 32 bytes apart: 2-way
    float x, y, z, w, z2, w2;
    asm(LOAD4 : "=f"(x), "=f"(y), "=f"(z), "=f"(w), "=f"(z2), "=f"(w2) : "r"(a));
    out[t] = x + y * z - w + z2 * w2;
}
