// The bit instructions CCCL's primitives emit, through inline PTX and intrinsics, on seeded words.
#include <cstdint>

__global__ void bit_ops(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out)
{
    int t = threadIdx.x;
    unsigned x = a[t], y = b[t], s = c[t];
    unsigned* o = out + t * 17;
    unsigned pos = s & 63, len = (s >> 8) & 63;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(o[0]) : "r"(pos), "r"(len));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(o[1]) : "r"(pos), "r"(len));
    o[2] = __fns(x, s & 31, (int)((s >> 8) & 63) - 32);
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(o[3]) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(o[4]) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(o[5]) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(o[6]) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(o[7]) : "r"(x), "r"(y), "r"(s));
    asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(o[8]) : "r"(x), "r"(y), "r"(s));
    o[9] = __byte_perm(x, y, s);
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(o[10]) : "r"(x >> (s & 31)));
    asm("bfind.s32 %0, %1;" : "=r"(o[11]) : "r"(x));
    asm("szext.clamp.s32 %0, %1, %2;" : "=r"(o[12]) : "r"(x), "r"(len));
    asm("szext.wrap.u32 %0, %1, %2;" : "=r"(o[13]) : "r"(x), "r"(len));
    unsigned long long w = ((unsigned long long)x << 32) | y, r;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(r) : "l"(w), "r"(pos), "r"(len));
    o[14] = (unsigned)(r ^ (r >> 32));
    asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(r) : "l"((unsigned long long)s), "l"(w), "r"(pos), "r"(len));
    o[15] = (unsigned)(r ^ (r >> 32));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(o[16]) : "r"(x), "r"(y), "r"(s));  // selector bit 3: sign replication
}
