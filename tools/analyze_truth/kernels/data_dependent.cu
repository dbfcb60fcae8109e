// Data-dependent and divergent shared-memory code (issue 32): five kinds of code on which analyze
// differed from Nsight Compute on public kernels, each written here several ways, from the algorithm's
// description, the ways public code writes it. One block each (tools/analyze_truth/cases.py: dd.*).
//
// 1. key/value bitonic sorts of 256 slots by 128 threads (one compare-exchange a thread a step)
//    kv_bitonic_flags   keys, values and a valid flag per slot (padding sorts last); the swap an `if`
//                       of six stores through a helper
//    kv_bitonic_index   float keys and a separate 16-bit index array (an argsort); `if (a > b) == up`
//                       then s[i] = b; s[j] = a; and the indices swapped through a temporary
//    kv_bitonic_select  keys and values written back unconditionally through selects (no branch)
//    kv_bitonic_pairs   key/value packed as uint2, 256 threads, the partner i ^ j, two arms (up, down)
//                       each with its own compare and two stores
// 2. 512 floats sorted in place
//    fsort_xor          512 threads, partner i ^ j, the classic two-arm compare-exchange
//    fsort_half         256 threads, one compare-exchange each, `if ((a > b) == up)` two stores
//    fsort_minmax       256 threads, fminf/fmaxf written back unconditionally
//    fsort_refs         128 threads, two compare-exchanges each, swapped through references
// 3. warp-aggregated shared atomics on 64 bins (256 threads, 2048 keys, some lanes filtered out)
//    wagg_match_leader  __match_any_sync leader adds __popc(peers), in a data-dependent branch
//    wagg_peer_loop     a loop over the remaining lanes: leader's bin by shuffle, peers by ballot
//    wagg_rank_slots    the leader's atomicAdd returns the bucket's base, shuffled to its peers, each
//                       lane stores its key in its slot (a data-dependent store)
//    wagg_mixed         a lone lane adds 1 itself, a group's leader adds the group's count
// 4. CSR sparse matrix-vector products (64 rows of varied lengths, 512 columns)
//    spmv_vector_tree   a warp a row, row bounds through shared memory, partial sums in shared memory
//                       reduced by a tree of halving lanes (volatile)
//    spmv_vector_shfl   x staged in shared memory (gathered by column), a warp a row, a shuffle finish,
//                       the row's result stored in shared memory by lane 0
//    spmv_scalar        a thread a row, x in shared memory, data-dependent trip counts
//    spmv_half_warp     16 lanes a row, a partial sum or 0 stored on two arms, a tree finish
// 5. in-place radix-2 FFTs in shared memory
//    fft_float2_swap    256 points as float2, loaded in order and bit-reversed in place (`if (i < r)`
//                       swap), 128 threads, twiddles from sincosf
//    fft_split_table    256 points in separate re/im arrays, loaded bit-reversed, a shared twiddle
//                       table, the k == 0 butterfly (twiddle 1) on its own arm
//    fft_dif_loop       512 points as float2, 64 threads looping over butterflies, decimation in
//                       frequency with twiddles from global memory, read out bit-reversed
typedef unsigned int uint;

// ============================== 1. key/value bitonic sorts ==============================
#define KV_N 256

__device__ __forceinline__ void kv_swap_flags(uint *k, int *v, bool *valid, int i, int j, bool dir)
{
    const uint ka = k[i], kb = k[j];
    const bool va = valid[i], vb = valid[j];
    const bool swap = ((ka > kb) && va) || !vb;
    if (swap == dir) {
        k[i] = kb;
        k[j] = ka;
        valid[i] = vb;
        valid[j] = va;
        const int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

extern "C" __global__ void kv_bitonic_flags(const uint *keys, const int *vals, uint *okeys, int *ovals, int n)
{
    __shared__ uint sk[KV_N];
    __shared__ int sv[KV_N];
    __shared__ bool sf[KV_N];
    const int t = threadIdx.x;
    for (int i = t; i < KV_N; i += blockDim.x) {
        const bool ok = i < n;
        sk[i] = ok ? keys[i] : 0u;
        sv[i] = ok ? vals[i] : -1;
        sf[i] = ok;
    }
    for (int size = 2; size < KV_N; size <<= 1) {
        const bool dir = (t & (size / 2)) == 0;
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const int pos = 2 * t - (t & (stride - 1));
            kv_swap_flags(sk, sv, sf, pos, pos + stride, dir);
        }
    }
    for (int stride = KV_N / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const int pos = 2 * t - (t & (stride - 1));
        kv_swap_flags(sk, sv, sf, pos, pos + stride, true);
    }
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) {
        okeys[i] = sk[i];
        ovals[i] = sv[i];
    }
}

extern "C" __global__ void kv_bitonic_index(const float *keys, float *okeys, int *oidx)
{
    __shared__ float sk[KV_N];
    __shared__ short si[KV_N];
    const int t = threadIdx.x;
    sk[t] = keys[t];
    sk[t + KV_N / 2] = keys[t + KV_N / 2];
    si[t] = (short)t;
    si[t + KV_N / 2] = (short)(t + KV_N / 2);
    for (int size = 2; size <= KV_N; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const int i = 2 * t - (t & (stride - 1)), j = i + stride;
            const bool up = (i & size) == 0;
            const float a = sk[i], b = sk[j];
            if ((a > b) == up) {
                sk[i] = b;
                sk[j] = a;
                const short x = si[i];
                si[i] = si[j];
                si[j] = x;
            }
        }
    }
    __syncthreads();
    okeys[t] = sk[t];
    okeys[t + KV_N / 2] = sk[t + KV_N / 2];
    oidx[t] = si[t];
    oidx[t + KV_N / 2] = si[t + KV_N / 2];
}

extern "C" __global__ void kv_bitonic_select(const uint *keys, const int *vals, uint *okeys, int *ovals)
{
    __shared__ uint sk[KV_N];
    __shared__ int sv[KV_N];
    const int t = threadIdx.x;
    sk[t] = keys[t];
    sv[t] = vals[t];
    sk[t + KV_N / 2] = keys[t + KV_N / 2];
    sv[t + KV_N / 2] = vals[t + KV_N / 2];
    for (int size = 2; size <= KV_N; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const int i = 2 * t - (t & (stride - 1)), j = i + stride;
            const bool up = (i & size) == 0;
            const uint a = sk[i], b = sk[j];
            const int va = sv[i], vb = sv[j];
            const bool sw = (a > b) == up;
            __syncthreads();
            sk[i] = sw ? b : a;
            sk[j] = sw ? a : b;
            sv[i] = sw ? vb : va;
            sv[j] = sw ? va : vb;
        }
    }
    __syncthreads();
    okeys[t] = sk[t];
    ovals[t] = sv[t];
    okeys[t + KV_N / 2] = sk[t + KV_N / 2];
    ovals[t + KV_N / 2] = sv[t + KV_N / 2];
}

extern "C" __global__ void kv_bitonic_pairs(const uint *keys, uint2 *out)
{
    __shared__ uint2 s[KV_N];
    const uint t = threadIdx.x;
    s[t] = make_uint2(keys[t], t);
    for (uint k = 2; k <= KV_N; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            const uint ixj = t ^ j;
            if (ixj > t) {
                const uint2 A = s[t], B = s[ixj];
                if ((t & k) == 0) {
                    if (A.x > B.x) {
                        s[t] = B;
                        s[ixj] = A;
                    }
                } else {
                    if (A.x < B.x) {
                        s[t] = B;
                        s[ixj] = A;
                    }
                }
            }
        }
    }
    __syncthreads();
    out[t] = s[t];
}

// ============================== 2. 512 floats in place ==============================
#define FS_N 512

extern "C" __global__ void fsort_xor(const float *in, float *out)
{
    __shared__ float s[FS_N];
    const uint t = threadIdx.x;
    s[t] = in[t];
    for (uint k = 2; k <= FS_N; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            const uint ixj = t ^ j;
            if (ixj > t) {
                const float a = s[t];
                const float b = s[ixj];
                if ((t & k) == 0) {
                    if (a > b) {
                        s[t] = b;
                        s[ixj] = a;
                    }
                } else {
                    if (a < b) {
                        s[t] = b;
                        s[ixj] = a;
                    }
                }
            }
        }
    }
    __syncthreads();
    out[t] = s[t];
}

extern "C" __global__ void fsort_half(const float *in, float *out)
{
    __shared__ float s[FS_N];
    const int t = threadIdx.x;
    s[t] = in[t];
    s[t + FS_N / 2] = in[t + FS_N / 2];
    for (int size = 2; size <= FS_N; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const int i = 2 * t - (t & (stride - 1)), j = i + stride;
            const float a = s[i], b = s[j];
            if ((a > b) == ((i & size) == 0)) {
                s[i] = b;
                s[j] = a;
            }
        }
    }
    __syncthreads();
    out[t] = s[t];
    out[t + FS_N / 2] = s[t + FS_N / 2];
}

extern "C" __global__ void fsort_minmax(const float *in, float *out)
{
    __shared__ float s[FS_N];
    const int t = threadIdx.x;
    s[t] = in[t];
    s[t + FS_N / 2] = in[t + FS_N / 2];
    for (int size = 2; size <= FS_N; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const int i = 2 * t - (t & (stride - 1)), j = i + stride;
            const bool up = (i & size) == 0;
            const float a = s[i], b = s[j];
            const float lo = fminf(a, b), hi = fmaxf(a, b);
            s[i] = up ? lo : hi;
            s[j] = up ? hi : lo;
        }
    }
    __syncthreads();
    out[t] = s[t];
    out[t + FS_N / 2] = s[t + FS_N / 2];
}

__device__ __forceinline__ void cmp_swap(float &x, float &y, bool up)
{
    if (up ? x > y : x < y) {
        const float tmp = x;
        x = y;
        y = tmp;
    }
}

extern "C" __global__ void fsort_refs(const float *in, float *out)
{
    __shared__ float s[FS_N];
    const int t = threadIdx.x;
    for (int i = t; i < FS_N; i += blockDim.x)
        s[i] = in[i];
    for (int size = 2; size <= FS_N; size <<= 1) {
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int c = t; c < FS_N / 2; c += blockDim.x) {
                const int i = 2 * c - (c & (stride - 1));
                cmp_swap(s[i], s[i + stride], (i & size) == 0);
            }
        }
    }
    __syncthreads();
    for (int i = t; i < FS_N; i += blockDim.x)
        out[i] = s[i];
}

// ============================== 3. warp-aggregated shared atomics ==============================
#define WA_BINS 64

extern "C" __global__ void wagg_match_leader(const uint *keys, int n, uint *hist)
{
    __shared__ uint h[WA_BINS];
    const int t = threadIdx.x, lane = t & 31;
    if (t < WA_BINS) h[t] = 0;
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) {
        const uint k = keys[i];
        if (k < 200) {
            const uint bin = k % WA_BINS;
            const uint peers = __match_any_sync(__activemask(), bin);
            const int leader = __ffs(peers) - 1;
            if (lane == leader)
                atomicAdd(&h[bin], __popc(peers));
        }
    }
    __syncthreads();
    if (t < WA_BINS) hist[t] = h[t];
}

extern "C" __global__ void wagg_peer_loop(const uint *keys, int n, uint *hist)
{
    __shared__ uint h[WA_BINS];
    const int t = threadIdx.x, lane = t & 31;
    if (t < WA_BINS) h[t] = 0;
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) {
        const uint k = keys[i];
        if (k & 3) {
            const uint bin = k % WA_BINS;
            uint active = __activemask();
            while (true) {
                const int leader = __ffs(active) - 1;
                const uint lbin = __shfl_sync(active, bin, leader);
                const uint peers = __ballot_sync(active, bin == lbin);
                if (bin == lbin) {
                    if (lane == leader)
                        atomicAdd(&h[bin], __popc(peers));
                    break;
                }
                active &= ~peers;
            }
        }
    }
    __syncthreads();
    if (t < WA_BINS) hist[t] = h[t];
}

#define WA_CAP 64
extern "C" __global__ void wagg_rank_slots(const uint *keys, int n, uint *counts, uint *slots)
{
    __shared__ uint fill[WA_BINS / 4];
    __shared__ uint box[(WA_BINS / 4) * WA_CAP];
    const int t = threadIdx.x, lane = t & 31;
    if (t < WA_BINS / 4) fill[t] = 0;
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) {
        const uint k = keys[i];
        if (k % 5 != 0) {
            const uint bin = k % (WA_BINS / 4);
            const uint peers = __match_any_sync(__activemask(), bin);
            const int leader = __ffs(peers) - 1;
            uint base = 0;
            if (lane == leader)
                base = atomicAdd(&fill[bin], __popc(peers));
            base = __shfl_sync(peers, base, leader);
            const uint slot = base + __popc(peers & ((1u << lane) - 1));
            if (slot < WA_CAP)
                box[bin * WA_CAP + slot] = k;
        }
    }
    __syncthreads();
    if (t < WA_BINS / 4) counts[t] = fill[t];
    for (int i = t; i < (WA_BINS / 4) * WA_CAP; i += blockDim.x)
        slots[i] = box[i];
}

extern "C" __global__ void wagg_mixed(const uint *keys, int n, uint *hist)
{
    __shared__ uint h[WA_BINS];
    const int t = threadIdx.x, lane = t & 31;
    if (t < WA_BINS) h[t] = 0;
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) {
        const uint k = keys[i];
        if (k > 2) {
            const uint bin = (k * 7) % WA_BINS;
            const uint peers = __match_any_sync(__activemask(), bin);
            if (__popc(peers) == 1)
                atomicAdd(&h[bin], 1u);
            else if (lane == __ffs(peers) - 1)
                atomicAdd(&h[bin], __popc(peers));
        }
    }
    __syncthreads();
    if (t < WA_BINS) hist[t] = h[t];
}

// ============================== 4. CSR SpMV ==============================
#define SP_WARPS 8

extern "C" __global__ void spmv_vector_tree(const int *row_ptr, const int *cols, const float *vals, const float *x,
                                            float *y, int rows)
{
    __shared__ volatile float sdata[SP_WARPS * 32 + 16];
    __shared__ volatile int ptrs[SP_WARPS][2];
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int row = w; row < rows; row += SP_WARPS) {
        if (lane < 2)
            ptrs[w][lane] = row_ptr[row + lane];
        const int start = ptrs[w][0], end = ptrs[w][1];
        float sum = 0.0f;
        for (int j = start + lane; j < end; j += 32)
            sum += vals[j] * x[cols[j]];
        sdata[t] = sum;
        if (lane < 16) sdata[t] = sum = sum + sdata[t + 16];
        if (lane < 8) sdata[t] = sum = sum + sdata[t + 8];
        if (lane < 4) sdata[t] = sum = sum + sdata[t + 4];
        if (lane < 2) sdata[t] = sum = sum + sdata[t + 2];
        if (lane < 1) sdata[t] = sum = sum + sdata[t + 1];
        if (lane == 0)
            y[row] = sdata[t];
    }
}

#define SP_COLS 512
extern "C" __global__ void spmv_vector_shfl(const int *row_ptr, const int *cols, const float *vals, const float *x,
                                            float *y, int rows)
{
    __shared__ float xs[SP_COLS];
    __shared__ float ys[64];
    const int t = threadIdx.x, lane = t & 31, w = t >> 5;
    for (int i = t; i < SP_COLS; i += blockDim.x)
        xs[i] = x[i];
    __syncthreads();
    for (int row = w; row < rows; row += SP_WARPS) {
        float sum = 0.0f;
        for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += 32)
            sum += vals[j] * xs[cols[j]];
        for (int o = 16; o > 0; o >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, o);
        if (lane == 0)
            ys[row] = sum;
    }
    __syncthreads();
    if (t < rows)
        y[t] = ys[t];
}

extern "C" __global__ void spmv_scalar(const int *row_ptr, const int *cols, const float *vals, const float *x,
                                       float *y, int rows)
{
    __shared__ float xs[SP_COLS];
    const int t = threadIdx.x;
    for (int i = t; i < SP_COLS; i += blockDim.x)
        xs[i] = x[i];
    __syncthreads();
    if (t < rows) {
        float sum = 0.0f;
        const int end = row_ptr[t + 1];
        for (int j = row_ptr[t]; j < end; ++j)
            sum += vals[j] * xs[cols[j]];
        y[t] = sum;
    }
}

extern "C" __global__ void spmv_half_warp(const int *row_ptr, const int *cols, const float *vals, const float *x,
                                          float *y, int rows)
{
    __shared__ float part[SP_WARPS * 32];
    const int t = threadIdx.x, l16 = t & 15, g = t >> 4;
    for (int row = g; row < rows; row += SP_WARPS * 2) {
        const int start = row_ptr[row], end = row_ptr[row + 1];
        const int j0 = start + l16;
        float sum = 0.0f;
        for (int j = j0; j < end; j += 16)
            sum += vals[j] * x[cols[j]];
        if (j0 < end)
            part[t] = sum;
        else
            part[t] = 0.0f;
        __syncwarp();
        for (int o = 8; o > 0; o >>= 1) {
            if (l16 < o)
                part[t] += part[t + o];
            __syncwarp();
        }
        if (l16 == 0)
            y[row] = part[t];
        __syncwarp();
    }
}

// ============================== 5. radix-2 FFTs ==============================
#define PI_F 3.14159265358979f

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

#define FFT_N 256
#define FFT_LOG 8
extern "C" __global__ void fft_float2_swap(const float2 *in, float2 *out)
{
    __shared__ float2 s[FFT_N];
    const int t = threadIdx.x;
    s[t] = in[t];
    s[t + FFT_N / 2] = in[t + FFT_N / 2];
    __syncthreads();
    for (int i = t; i < FFT_N; i += FFT_N / 2) {
        const int r = __brev(i) >> (32 - FFT_LOG);
        if (i < r) {
            const float2 tmp = s[i];
            s[i] = s[r];
            s[r] = tmp;
        }
    }
    for (int half = 1; half < FFT_N; half <<= 1) {
        __syncthreads();
        const int k = t & (half - 1);
        const int i = 2 * (t - k) + k, j = i + half;
        float sn, cs;
        sincosf(-PI_F * k / half, &sn, &cs);
        const float2 a = s[i];
        const float2 b = cmul(s[j], make_float2(cs, sn));
        s[i] = make_float2(a.x + b.x, a.y + b.y);
        s[j] = make_float2(a.x - b.x, a.y - b.y);
    }
    __syncthreads();
    out[t] = s[t];
    out[t + FFT_N / 2] = s[t + FFT_N / 2];
}

extern "C" __global__ void fft_split_table(const float *in_re, const float *in_im, float *out_re, float *out_im)
{
    __shared__ float re[FFT_N], im[FFT_N];
    __shared__ float tw_re[FFT_N / 2], tw_im[FFT_N / 2];
    const int t = threadIdx.x;
    for (int i = t; i < FFT_N; i += blockDim.x) {
        const int r = __brev(i) >> (32 - FFT_LOG);
        re[r] = in_re[i];
        im[r] = in_im[i];
    }
    if (t < FFT_N / 2)
        sincospif(-2.0f * t / FFT_N, &tw_im[t], &tw_re[t]);
    for (int half = 1; half < FFT_N; half <<= 1) {
        __syncthreads();
        const int k = t & (half - 1);
        const int i = 2 * (t - k) + k, j = i + half;
        const float ar = re[i], ai = im[i];
        const float br = re[j], bi = im[j];
        if (k == 0) {
            re[i] = ar + br;
            im[i] = ai + bi;
            re[j] = ar - br;
            im[j] = ai - bi;
        } else {
            const int w = k * (FFT_N / 2 / half);
            const float wr = tw_re[w], wi = tw_im[w];
            const float tr = br * wr - bi * wi, ti = br * wi + bi * wr;
            re[i] = ar + tr;
            im[i] = ai + ti;
            re[j] = ar - tr;
            im[j] = ai - ti;
        }
    }
    __syncthreads();
    for (int i = t; i < FFT_N; i += blockDim.x) {
        out_re[i] = re[i];
        out_im[i] = im[i];
    }
}

#define DIF_N 512
#define DIF_LOG 9
extern "C" __global__ void fft_dif_loop(const float2 *in, const float2 *tw, float2 *out)
{
    __shared__ float2 s[DIF_N];
    const int t = threadIdx.x;
    for (int i = t; i < DIF_N; i += blockDim.x)
        s[i] = in[i];
    for (int half = DIF_N / 2; half > 0; half >>= 1) {
        __syncthreads();
        for (int b = t; b < DIF_N / 2; b += blockDim.x) {
            const int k = b & (half - 1);
            const int i = 2 * (b - k) + k, j = i + half;
            const float2 u = s[i], v = s[j];
            s[i] = make_float2(u.x + v.x, u.y + v.y);
            s[j] = cmul(make_float2(u.x - v.x, u.y - v.y), tw[k * (DIF_N / 2 / half)]);
        }
    }
    __syncthreads();
    for (int i = t; i < DIF_N; i += blockDim.x)
        out[i] = s[__brev(i) >> (32 - DIF_LOG)];
}
