// Kernels for tests/test_analyze_semantics.py: each thread applies one family of PTX instructions to
// its inputs and stores the results, which the tests compare with Python written from the PTX ISA.
// Inline asm pins the exact instruction where the compiler could pick another.
#define R(i) out[(i) * blockDim.x + threadIdx.x]

extern "C" __global__ void int32_ops(const int *a_, const int *b_, int *out)
{
    const int a = a_[threadIdx.x], b = b_[threadIdx.x];
    const unsigned ua = a, ub = b;
    int r;
    R(0) = a + b;
    R(1) = a - b;
    R(2) = a * b;
    R(3) = __mulhi(a, b);
    R(4) = (int)__umulhi(ua, ub);
    R(5) = b != 0 ? a / b : 0;
    R(6) = b != 0 ? a % b : 0;
    R(7) = ub != 0 ? (int)(ua / ub) : 0;
    R(8) = ub != 0 ? (int)(ua % ub) : 0;
    R(9) = min(a, b);
    R(10) = (int)max(ua, ub);
    R(11) = abs(a);
    asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(a ^ b));
    R(12) = r;
    asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(7));
    R(13) = r;
    asm("sad.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(ua), "r"(ub), "r"(5));
    R(14) = r;
    asm("div.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));  // b may be 0: the hardware's value is -1
    R(15) = b != 0 ? r : -1;
}

extern "C" __global__ void wide_ops(const int *a_, const int *b_, long long *out)
{
    const int a = a_[threadIdx.x], b = b_[threadIdx.x];
    const long long la = (long long)a * 1000003LL + b, lb = (long long)b * 7919LL - a;
    R(0) = (long long)a * b;  // mul.wide.s32
    R(1) = (long long)((unsigned long long)(unsigned)a * (unsigned)b);  // mul.wide.u32
    R(2) = la * lb;
    R(3) = (long long)__umul64hi((unsigned long long)la, (unsigned long long)lb);
    R(4) = __mul64hi(la, lb);
    R(5) = lb != 0 ? la / lb : 0;
    R(6) = lb != 0 ? la % lb : 0;
    R(7) = la >> (b & 63);
    R(8) = (long long)((unsigned long long)la >> (a & 63));
}

extern "C" __global__ void shift_ops(const unsigned *a_, const unsigned *b_, unsigned *out)
{
    const unsigned a = a_[threadIdx.x], n = b_[threadIdx.x] % 41;  // amounts 0..40: clamped at 32
    unsigned r;
    asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));
    R(0) = r;
    asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));
    R(1) = r;
    asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(n));
    R(2) = r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(~a), "r"(n));
    R(3) = r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(a * 3u), "r"(n));
    R(4) = r;
}

extern "C" __global__ void bit_ops(const unsigned *a_, const unsigned *b_, unsigned *out)
{
    const unsigned a = a_[threadIdx.x], b = b_[threadIdx.x];
    const unsigned pos = b & 0x3f, len = (b >> 8) & 0x3f;  // past 32 on purpose
    unsigned r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
    R(0) = r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
    R(1) = r;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(pos), "r"(len));
    R(2) = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(b >> 16));
    R(3) = r;
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(b >> 3));
    R(4) = r;
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(b >> 5));
    R(5) = r;
    R(6) = __popc(a);
    R(7) = __clz(a & (b >> 3));
    R(8) = __brev(a);
    asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a >> (b & 31)));
    R(9) = r;
    asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(a >> (b & 31)));
    R(10) = r;
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(a >> (b & 31)));
    R(11) = r;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(a * 7u));
    R(12) = r;
    asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(a * 7u));
    R(13) = r;
    R(14) = __ffs(a) ;
    R(15) = __popcll(((unsigned long long)a << 32) | b);
}

extern "C" __global__ void compare_ops(const int *a_, const int *b_, const float *x_, const float *y_, int *out)
{
    const int a = a_[threadIdx.x], b = b_[threadIdx.x];
    const unsigned ua = a, ub = b;
    const float x = x_[threadIdx.x], y = y_[threadIdx.x];  // some NaN
    int r;
    R(0) = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5;
    R(1) = (ua < ub) | (ua <= ub) << 1 | (ua > ub) << 2 | (ua >= ub) << 3;
    R(2) = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5;
    R(3) = !(x < y) | !(x <= y) << 1 | !(x > y) << 2 | !(x >= y) << 3 | !(x == y) << 4 | !(x != y) << 5;
    asm("{ .reg .pred p, q; setp.ltu.f32 p|q, %1, %2; selp.s32 %0, 1, 0, p; @q add.s32 %0, %0, 2; }"
        : "=r"(r) : "f"(x), "f"(y));
    R(4) = r;
    asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(a ^ b));
    R(5) = r;
    asm("set.gt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    R(6) = r;
    asm("{ .reg .pred p; setp.num.f32 p, %1, %2; selp.s32 %0, 1, 0, p; }" : "=r"(r) : "f"(x), "f"(y));
    R(7) = r;
    R(8) = __float_as_int(fminf(x, y));
    R(9) = __float_as_int(fmaxf(x, y));
}

extern "C" __global__ void convert_ops(const float *x_, const double *d_, const int *a_, int *out)
{
    const float x = x_[threadIdx.x];
    const double d = d_[threadIdx.x];
    const int a = a_[threadIdx.x];
    R(0) = __float2int_rn(x);
    R(1) = __float2int_rz(x);
    R(2) = __float2int_rd(x);
    R(3) = __float2int_ru(x);
    R(4) = (int)__float2uint_rz(x);
    R(5) = __float_as_int(__int2float_rn(a));
    R(6) = __float_as_int(__int2float_rz(a));
    R(7) = __float_as_int(__double2float_rn(d));
    R(8) = __float_as_int(__double2float_rz(d));
    R(9) = __float_as_int(__double2float_rd(d));
    R(10) = __float_as_int(__double2float_ru(d));
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    R(11) = h;
    float back;
    asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(h));
    R(12) = __float_as_int(back);
    int s;
    asm("cvt.sat.u8.s32 %0, %1;" : "=r"(s) : "r"(a));
    R(13) = s;
    asm("cvt.s32.s8 %0, %1;" : "=r"(s) : "r"(a));
    R(14) = s;
    R(15) = (int)(long long)d;
    R(16) = __float_as_int(__saturatef(x));
    R(17) = __float_as_int(rintf(x));
}

extern "C" __global__ void float_ops(const float *x_, const float *y_, float *out)
{
    const float x = x_[threadIdx.x], y = y_[threadIdx.x];
    R(0) = x + y;
    R(1) = x - y;
    R(2) = x * y;
    R(3) = __fdiv_rn(x, y);
    R(4) = __fsqrt_rn(fabsf(x));
    R(5) = fabsf(x) - y;
    R(6) = -x * y;
    R(7) = copysignf(x, y);
    double p = (double)x * y;
    R(8) = (float)(p + 1.0);
}

// one warp per shuffle mode, b and c per lane (c keeps clamp and segment mask in their fields)
extern "C" __global__ void shfl_ops(const int *v_, const unsigned *b_, const unsigned *c_, int *out)
{
    const int v = v_[threadIdx.x];
    const unsigned b = b_[threadIdx.x], c = c_[threadIdx.x];
    int r, p;
    asm("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, -1; selp.s32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(b), "r"(c));
    R(0) = r; R(1) = p;
    asm("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, -1; selp.s32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(b), "r"(c));
    R(2) = r; R(3) = p;
    asm("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, -1; selp.s32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(b), "r"(c));
    R(4) = r; R(5) = p;
    asm("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, -1; selp.s32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(b), "r"(c));
    R(6) = r; R(7) = p;
}

// votes, match and reductions among the lanes where `on` holds (a divergent branch)
extern "C" __global__ void vote_ops(const int *v_, const int *on_, int *out)
{
    const int v = v_[threadIdx.x];
    for (int i = 0; i < 9; i++)
        R(i) = -7;
    if (on_[threadIdx.x]) {
        const unsigned act = __activemask();
        R(0) = act;
        R(1) = __ballot_sync(act, v & 1);
        R(2) = __all_sync(act, v > 2);
        R(3) = __any_sync(act, v > 6);
        R(4) = __uni_sync(act, v & 4);
        R(5) = __match_any_sync(act, v & 3);
        int pred;
        R(6) = __match_all_sync(act, v & 8, &pred);
        R(7) = pred;
        R(8) = __reduce_add_sync(act, v) ^ (int)__reduce_max_sync(act, (unsigned)v) << 16;
    }
}

extern "C" __global__ void barrier_ops(const int *v_, int *out)
{
    const int v = v_[threadIdx.x];
    R(0) = __syncthreads_count(v & 1);
    R(1) = __syncthreads_and(v < 1000);
    R(2) = __syncthreads_or(v == 3);
}

// atomics: old values and final memory, in shared and global memory
extern "C" __global__ void atomic_ops(const int *k_, int *counts, unsigned *ctr, int *out)
{
    __shared__ int s[16];
    __shared__ unsigned sc;
    if (threadIdx.x < 16) s[threadIdx.x] = 0;
    if (threadIdx.x == 0) sc = 0;
    __syncthreads();
    const int k = k_[threadIdx.x] & 15;
    R(0) = atomicAdd(&s[k], 1 + (threadIdx.x & 3));
    R(1) = atomicInc(&sc, 100);
    R(2) = atomicAdd(ctr, 1u);
    atomicMax(&counts[k], (int)threadIdx.x);
    R(3) = atomicCAS(&counts[16 + k], 0, (int)threadIdx.x + 1);
    R(4) = atomicExch(&counts[32 + (k & 3)], (int)threadIdx.x);
    __syncthreads();
    if (threadIdx.x < 16) R(5) = s[threadIdx.x];
}

// local arrays, __constant__ data, generic pointers into shared and global memory, a 3-D block
__constant__ int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

extern "C" __global__ void memory_ops(const int *v_, int *g, int *out)
{
    __shared__ int s[512];
    const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const int v = v_[t];
    int local[8];
    for (int i = 0; i < 8; i++)
        local[i] = v * i + table[(v + i) & 7];
    s[t] = local[v & 7];
    __syncthreads();
    int *p = (v & 1) ? &s[(t + 1) % (blockDim.x * blockDim.y * blockDim.z)] : &g[t];
    out[t] = *p + local[(v >> 3) & 7];
    out[512 + t] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
}

// divergence: nested branches, loops with lane-dependent trip counts, break, early return
extern "C" __global__ void control_ops(const int *v_, int *out)
{
    __shared__ int s[256];
    const int v = v_[threadIdx.x];
    int acc = 0;
    if (v & 1) {
        if (v & 2)
            acc += 10;
        else
            acc -= 3;
        for (int i = 0; i < (v & 15); i++) {
            acc += i * v;
            if (acc > 500)
                break;
        }
    } else {
        int i = v & 7;
        while (i-- > 0)
            acc ^= i << (v & 3);
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    if (v % 5 == 0)
        return;
    out[threadIdx.x] = acc + s[(threadIdx.x + 1) & 255];
}

// extended-precision arithmetic: the carry flag through add.cc/addc, sub.cc/subc, mad.cc/madc
extern "C" __global__ void carry_ops(const unsigned *a_, const unsigned *b_, unsigned *out)
{
    const unsigned a = a_[threadIdx.x], b = b_[threadIdx.x], c = a ^ (b << 7), d = b * 2654435761u;
    unsigned lo, hi, top, f;
    unsigned long long x, y;
    asm("add.cc.u32 %0, %3, %4;\n\taddc.cc.u32 %1, %5, %6;\n\taddc.u32 %2, 0, 0;"  // 64-bit add, carry out
        : "=r"(lo), "=r"(hi), "=r"(top) : "r"(a), "r"(b), "r"(c), "r"(d));
    R(0) = lo; R(1) = hi; R(2) = top;
    asm("sub.cc.u32 %0, %3, %4;\n\tsubc.cc.u32 %1, %5, %6;\n\tsubc.u32 %2, 0, 0;"  // 64-bit sub, borrow out
        : "=r"(lo), "=r"(hi), "=r"(top) : "r"(a), "r"(b), "r"(c), "r"(d));
    R(3) = lo; R(4) = hi; R(5) = top;
    asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, %5;"  // a * b + (d:c), 64 bits
        : "=r"(lo), "=r"(hi) : "r"(a), "r"(b), "r"(c), "r"(d));
    R(6) = lo; R(7) = hi;
    asm("mad.hi.cc.s32 %0, %2, %3, %4;\n\taddc.u32 %1, 0, 0;"  // signed high half + c, its carry
        : "=r"(lo), "=r"(f) : "r"(a), "r"(b), "r"(c));
    R(8) = lo; R(9) = f;
    const unsigned long long p = ((unsigned long long)a << 32) | b, q = ((unsigned long long)d << 32) | c;
    asm("add.cc.u64 %0, %2, %3;\n\taddc.u64 %1, %2, %3;" : "=l"(x), "=l"(y) : "l"(p), "l"(q));
    R(10) = (unsigned)x; R(11) = (unsigned)(x >> 32); R(12) = (unsigned)y; R(13) = (unsigned)(y >> 32);
    // a carry set by every lane, then cleared by the even lanes only: each thread keeps its own flag
    asm("{\n\t.reg .pred %%p;\n\tsetp.eq.u32 %%p, %2, 0;\n\tadd.cc.u32 %0, %1, %1;\n\t"
        "@%%p add.cc.u32 %0, 0, 0;\n\taddc.u32 %0, 0, 0;\n\t}" : "=r"(f) : "r"(a | 0x80000000u), "r"(threadIdx.x & 1));
    R(14) = f;
    // the carry that only the carry-in makes: high words c + ~c and c - c
    asm("add.cc.u32 %0, %2, %3;\n\taddc.cc.u32 %0, %4, %5;\n\taddc.u32 %1, 0, 0;" : "=r"(lo), "=r"(f)
        : "r"(a), "r"(b), "r"(c), "r"(~c));
    R(15) = f;
    asm("sub.cc.u32 %0, %2, %3;\n\tsubc.cc.u32 %0, %4, %4;\n\tsubc.u32 %1, 0, 0;" : "=r"(lo), "=r"(f)
        : "r"(a), "r"(b), "r"(c));
    R(16) = f;
}

// named barriers with thread counts: warp 0 produces into a 2-slot ring that warp 1 consumes, through
// bar.arrive/bar.sync on "full" barriers 1, 2 and "empty" barriers 3, 4 (warp specialisation); then
// warps meet at barrier 5 from two different instructions, and warps 0-1 and 2-3 sync apart (6, 7)
extern "C" __global__ void named_barriers(const int *in, int n, int *out)
{
    __shared__ int buf[2][32];
    __shared__ int s[128];
    const int t = threadIdx.x, lane = t & 31, w = t / 32;
    if (w == 0) {
        for (int i = 0; i < n; i++) {
            if (i >= 2) asm volatile("bar.sync %0, 64;" ::"r"(3 + (i & 1)));
            buf[i & 1][lane] = in[i * 32 + lane];
            asm volatile("bar.arrive %0, 64;" ::"r"(1 + (i & 1)));
        }
    } else if (w == 1) {
        for (int i = 0; i < n; i++) {
            asm volatile("bar.sync %0, 64;" ::"r"(1 + (i & 1)));
            out[i * 32 + lane] = buf[i & 1][31 - lane] * 2;
            if (i + 2 < n) asm volatile("barrier.sync.aligned %0, 64;" ::"r"(3 + (i & 1)));
        }
    }
    if (w < 2) { s[t] = t + 1; asm volatile("bar.sync 5, 64;"); R(n) = s[63 - t]; }
    else { s[t] = -t; asm volatile("bar.sync %0, %1;" ::"r"(6), "r"(64)); R(n) = s[t ^ 32]; }
    if (w >= 2) return;
    s[t] = t * 3;
    asm volatile("bar.sync 7, 64;");
    R(n + 1) = s[t ^ 32];
}

// brx.idx through a .branchtargets list, a guard that is off falling through, and the same inline asm
// (labels and all) inlined twice: labels are scoped by their { } block, as registers are
__device__ __forceinline__ int table_pick(int k, int on)
{
    int v;
    asm volatile("{\n\t.reg .u32 %%i;\n\t.reg .pred %%on;\n\t"
                 "and.b32 %%i, %1, 3;\n\tsetp.ne.s32 %%on, %2, 0;\n\tmov.u32 %0, 0;\n\t"
                 "Tab: .branchtargets L0, L1, L2, L3;\n\t"
                 "@%%on brx.idx %%i, Tab;\n\tbra.uni Done;\n"
                 "L0:\n\tmov.u32 %0, 100;\n\tbra.uni Done;\n"
                 "L1:\n\tmov.u32 %0, 200;\n\tbra.uni Done;\n"
                 "L2:\n\tmov.u32 %0, 300;\n\tbra.uni Done;\n"
                 "L3:\n\tmov.u32 %0, 400;\n"
                 "Done:\n\t}" : "=r"(v) : "r"(k), "r"(on));
    return v;
}

extern "C" __global__ void switch_ops(const int *k_, int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x * 10;
    __syncthreads();
    const int k = k_[threadIdx.x];
    const int v = table_pick(k, k & 4);
    R(0) = v + s[(threadIdx.x + v / 100) & 63];
    R(1) = table_pick(k >> 3, 1);
}

// integer dot products (dp4a, dp2a.lo/hi), signed and unsigned: 6 results a thread
extern "C" __global__ void dot_products(const unsigned *a_, const unsigned *b_, const unsigned *c_, unsigned *out)
{
    const int t = threadIdx.x, n = blockDim.x;
    const unsigned a = a_[t], b = b_[t], c = c_[t];
    out[0 * n + t] = (unsigned)__dp4a((int)a, (int)b, (int)c);
    out[1 * n + t] = __dp4a(a, b, c);
    out[2 * n + t] = (unsigned)__dp2a_lo((int)a, (int)b, (int)c);
    out[3 * n + t] = (unsigned)__dp2a_hi((int)a, (int)b, (int)c);
    out[4 * n + t] = __dp2a_lo(a, b, c);
    out[5 * n + t] = __dp2a_hi(a, b, c);
}
