// The fifth held-out batch, part 2: data-processing and sparse kernels with data-dependent control flow (adjacent
// string comparisons that stop at the first difference, an ESC sparse matrix-matrix expansion, a scan-based
// expansion of a data-dependent number of outputs a thread, run lengths of sorted keys, byte classification with a
// vector loop and a scalar tail, a warp's work list driven by __any_sync, a symmetric matrix-vector product from
// lower storage through shared tiles, polyline lengths in double2, Collatz steps with a memo table). Written for
// smemlab's truth fixture, before their first recording.
#include "fresh5_common.cuh"

// compare each string with the next one (a sorted dictionary: long common prefixes), byte by byte to the first
// difference; strings are offsets into one byte buffer, not terminated
extern "C" __global__ void strcmp_adjacent(int *__restrict__ cmp, int *__restrict__ common,
                                           const unsigned char *__restrict__ chars, const int *__restrict__ offsets,
                                           int nstr)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nstr - 1)
        return;
    const unsigned char *a = chars + offsets[i], *b = chars + offsets[i + 1];
    const int la = offsets[i + 1] - offsets[i], lb = offsets[i + 2] - offsets[i + 1];
    const int l = min(la, lb);
    int k = 0, r = 0;
    for (; k < l; ++k) {
        const int ca = a[k], cb = b[k];
        if (ca != cb) {
            r = ca < cb ? -1 : 1;
            break;
        }
    }
    if (r == 0)
        r = la < lb ? -1 : (la > lb ? 1 : 0);
    cmp[i] = r;
    common[i] = k;
}

// sparse A*B, the expansion step of ESC: a warp a row of A walks the row's entries one by one and its lanes copy
// the matching row of B, scaled, to the row's slot of the output (out_ptr from a symbolic pass)
extern "C" __global__ void spgemm_esc_expand(int *__restrict__ out_cols, float *__restrict__ out_vals,
                                             const int *__restrict__ out_ptr, const int *__restrict__ a_ptr,
                                             const int *__restrict__ a_cols, const float *__restrict__ a_vals,
                                             const int *__restrict__ b_ptr, const int *__restrict__ b_cols,
                                             const float *__restrict__ b_vals, int rows)
{
    const int lane = threadIdx.x;
    for (int r = threadIdx.y + blockIdx.x * blockDim.y; r < rows; r += blockDim.y * gridDim.x) {
        int pos = out_ptr[r];
        for (int k = a_ptr[r]; k < a_ptr[r + 1]; ++k) {
            const int col = a_cols[k];
            const float av = a_vals[k];
            const int beg = b_ptr[col], len = b_ptr[col + 1] - beg;
            for (int j = lane; j < len; j += 32) {
                out_cols[pos + j] = b_cols[beg + j];
                out_vals[pos + j] = av * b_vals[beg + j];
            }
            pos += len;
        }
    }
}

// each item emits counts[i] outputs (its index and the output's rank): a block scan of the counts, a chunk of
// blockDim (at most 256) items at a time, then a per-thread loop of data-dependent length
extern "C" __global__ void expand_by_counts(int *__restrict__ out_item, short *__restrict__ out_rank,
                                            const int *__restrict__ counts, int n)
{
    __shared__ int scan_buf[2 * 256];  // blockDim.x at most 256
    int base = 0;
    for (int c0 = 0; c0 < n; c0 += blockDim.x) {
        const int i = c0 + threadIdx.x;
        const int cnt = i < n ? counts[i] : 0;
        int total;
        const int off = base + f5_block_scan_excl(cnt, scan_buf, total);
        for (int j = 0; j < cnt; ++j) {
            out_item[off + j] = i;
            out_rank[off + j] = (short)j;
        }
        base += total;
    }
}

// the length of each run of equal sorted keys: the thread at a run's head walks forward to its end
extern "C" __global__ void run_lengths_walk(int *__restrict__ run_len, const int *__restrict__ keys, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int k = keys[i];
        if (i > 0 && keys[i - 1] == k)
            continue;  // not a head
        int j = i + 1;
        while (j < n && keys[j] == k)
            ++j;
        run_len[k] = j - i;
    }
}

__device__ __forceinline__ int f5_byte_class(unsigned c)
{
    switch (c) {
    case ' ':
    case '\t':
        return 0;
    case '\n':
        return 1;
    case '.':
    case ',':
    case ';':
        return 2;
    default:
        if (c >= '0' && c <= '9')
            return 3;
        if ((c | 32) >= 'a' && (c | 32) <= 'z')
            return 4;
        return 5;
    }
}

// byte classes of a text (blanks, newlines, punctuation, digits, letters, other): four bytes a thread through
// uchar4 while whole words last, a scalar tail, shared counters, one global atomic a class and block
extern "C" __global__ void byte_class_count(unsigned int *__restrict__ counts, const unsigned char *__restrict__ text,
                                            int n)
{
    __shared__ unsigned int local[6];
    if (threadIdx.x < 6)
        local[threadIdx.x] = 0;
    __syncthreads();
    const int n4 = n / 4;
    const uchar4 *t4 = reinterpret_cast<const uchar4 *>(text);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        const uchar4 v = t4[i];
        atomicAdd(&local[f5_byte_class(v.x)], 1u);
        atomicAdd(&local[f5_byte_class(v.y)], 1u);
        atomicAdd(&local[f5_byte_class(v.z)], 1u);
        atomicAdd(&local[f5_byte_class(v.w)], 1u);
    }
    for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[f5_byte_class(text[i])], 1u);
    __syncthreads();
    if (threadIdx.x < 6)
        atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

// a work list a lane (offsets and lengths), the warp looping while any lane has work left
extern "C" __global__ void worklist_warp_any(int *__restrict__ out, const short *__restrict__ items,
                                             const int *__restrict__ qoff, const int *__restrict__ qlen, int nq)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = t < nq;
    const int off = valid ? qoff[t] : 0, len = valid ? qlen[t] : 0;
    int k = 0, acc = 0;
    while (__any_sync(F5_FULL, k < len)) {
        if (k < len) {
            const int v = items[off + k];
            acc = acc * 3 + v;
            ++k;
        }
    }
    if (valid)
        out[t] = acc;
}

// y = A x for a symmetric n x n A of which only the lower triangle is stored (row-major, leading dimension lda):
// a block of (32, 8) threads owns 32 rows and walks the column tiles: below the diagonal the stored tile, on it the
// lower half mirrored, above it the transposed stored tile through shared memory
extern "C" __global__ void symv_lower_tiled(float *__restrict__ y, const float *__restrict__ A, int lda,
                                            const float *__restrict__ x, int n)
{
    __shared__ float tile[32][33];
    __shared__ float part[8][32];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.x * 32;
    float acc = 0.f;  // thread (tx, ty) sums row r0 + tx over columns ty, ty + 8, ... of each tile
    for (int c0 = 0; c0 < n; c0 += 32) {
        if (c0 < r0) {  // below the diagonal: A[r][c] stored
            for (int k = ty; k < 32; k += 8) {
                const int r = r0 + k, c = c0 + tx;
                tile[k][tx] = (r < n && c < n) ? A[(size_t)r * lda + c] : 0.f;
            }
        } else if (c0 > r0) {  // above: A[r][c] = A[c][r], read along the stored rows c
            for (int k = ty; k < 32; k += 8) {
                const int c = c0 + k, r = r0 + tx;
                tile[tx][k] = (r < n && c < n) ? A[(size_t)c * lda + r] : 0.f;
            }
        } else {  // the diagonal tile: the stored lower half, mirrored
            for (int k = ty; k < 32; k += 8) {
                const int r = r0 + k, c = c0 + tx;
                float v = 0.f;
                if (r < n && c < n)
                    v = tx <= k ? A[(size_t)r * lda + c] : A[(size_t)c * lda + r];
                tile[k][tx] = v;
            }
        }
        __syncthreads();
        for (int k = ty; k < 32; k += 8)
            if (c0 + k < n)
                acc += tile[tx][k] * x[c0 + k];
        __syncthreads();
    }
    part[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && r0 + tx < n) {
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < 8; ++k)
            s += part[k][tx];
        y[r0 + tx] = s;
    }
}

// the length of each polyline (double2 vertices, ragged by offsets), a thread a polyline
extern "C" __global__ void polyline_lengths_f64(double *__restrict__ len, const double2 *__restrict__ pts,
                                                const int *__restrict__ offsets, int nlines)
{
    const int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= nlines)
        return;
    const int beg = offsets[l], end = offsets[l + 1];
    double acc = 0.0;
    if (end - beg >= 2) {
        double2 p = pts[beg];
#pragma unroll 4
        for (int i = beg + 1; i < end; ++i) {
            const double2 q = pts[i];
            acc += sqrt((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y));
            p = q;
        }
    }
    len[l] = acc;
}

// Collatz stopping times with a memo table of the first `tsize` numbers: iterate until the value falls into the
// table (a data-dependent trip count and gathers from it), then add the memo
extern "C" __global__ void collatz_memo(int *__restrict__ steps, const long long *__restrict__ start,
                                        const int *__restrict__ memo, int tsize, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        long long v = start[i];
        int s = 0;
        while (v >= tsize) {
            v = (v & 1) ? 3 * v + 1 : v >> 1;
            ++s;
        }
        steps[i] = s + memo[v];
    }
}

// the span of each segment's keys (max - min) in a sorted-by-segment COO stream of shorts: a warp per segment
// with lanes striding the segment, early-exit for segments shorter than two elements
extern "C" __global__ void segment_span_i16(short *__restrict__ span, const short *__restrict__ vals,
                                            const int *__restrict__ offsets, int nseg)
{
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int nwarps = (blockDim.x * gridDim.x) >> 5;
    for (int s = warp; s < nseg; s += nwarps) {
        const int beg = offsets[s], end = offsets[s + 1];
        if (end - beg < 2) {
            if (lane == 0)
                span[s] = 0;
            continue;
        }
        int lo = 32767, hi = -32768;
        for (int i = beg + lane; i < end; i += 32) {
            const int v = vals[i];
            lo = min(lo, v);
            hi = max(hi, v);
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            lo = min(lo, __shfl_xor_sync(F5_FULL, lo, o));
            hi = max(hi, __shfl_xor_sync(F5_FULL, hi, o));
        }
        if (lane == 0)
            span[s] = (short)(hi - lo);
    }
}
