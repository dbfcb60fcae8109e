// Shared atomics that ptxas (sm_90) turns into a compare-and-swap loop (LDS, ATOMS.CAST.SPIN, retry):
// 64-bit integer add/and/or/xor/min/max, float and double add. Old values and final memory.
#define R(i) out[(i) * blockDim.x + threadIdx.x]

extern "C" __global__ void loop_ops(const int *k_, const unsigned long long *v_, long long *out)
{
    __shared__ unsigned long long u[8];
    __shared__ long long sl[8];
    __shared__ float f[8];
    __shared__ double d[8];
    __shared__ unsigned long long bits[3];
    const int t = threadIdx.x, k = k_[t] & 7;
    const unsigned long long v = v_[t];
    if (t < 8) { u[t] = 0; sl[t] = 0; f[t] = 0.0f; d[t] = 0.0; }
    if (t < 3) bits[t] = t == 1 ? ~0ull : 0ull;
    __syncthreads();
    R(0) = (long long)atomicAdd(&u[k], v);
    R(1) = atomicMax(&sl[k], (long long)v - 512);
    R(2) = __float_as_int(atomicAdd(&f[k], (float)(t & 7) * 0.25f));
    R(3) = __double_as_longlong(atomicAdd(&d[k], (double)t * 0.5));
    atomicOr(&bits[0], 1ull << (t & 63));
    atomicAnd(&bits[1], ~(1ull << (t & 63)));
    atomicXor(&bits[2], v);
    __syncthreads();
    if (t < 8) { R(4) = (long long)u[t]; R(5) = sl[t]; R(6) = __float_as_int(f[t]); R(7) = __double_as_longlong(d[t]); }
    if (t < 3) R(8) = (long long)bits[t];
}

// atomicMin on one word: lanes whose value cannot lower it leave the loop after its load, before the CAS
extern "C" __global__ void min_leaves(unsigned long long start, unsigned long long *out)
{
    __shared__ unsigned long long s;
    if (threadIdx.x == 0) s = start;
    __syncthreads();
    out[threadIdx.x] = atomicMin(&s, (unsigned long long)threadIdx.x + 5);
    __syncthreads();
    if (threadIdx.x == 0) out[blockDim.x] = s;
}
