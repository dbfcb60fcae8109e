// The fifth held-out batch, part 1: control flow around memory accesses as numerical and sparse codes write it
// (ragged segments a warp or a thread each, CSR SpMV with 4 to 32 lanes a row, linked lists and union-find chains,
// binary search, table interpolation with a walking index, escape-time loops, batched tridiagonal solves, unrolled
// tails, early breaks, type-tag switches, boundary branches in a stencil, SPH neighbour cells, a k-nearest search
// with a sorted insertion). Written for smemlab's truth fixture, before their first recording.
#include "fresh5_common.cuh"

// sum of each ragged segment vals[offsets[s], offsets[s+1]), a warp a segment, (32, WARPS) blocks
extern "C" __global__ void ragged_row_sum_warp(float *__restrict__ sums, const float *__restrict__ vals,
                                               const int *__restrict__ offsets, int nseg)
{
    const int warp = threadIdx.y + blockIdx.x * blockDim.y;
    const int nwarps = blockDim.y * gridDim.x;
    for (int s = warp; s < nseg; s += nwarps) {
        const int beg = offsets[s], end = offsets[s + 1];
        float acc = 0.f;
        for (int i = beg + threadIdx.x; i < end; i += 32)
            acc += vals[i];
        acc = f5_warp_sum(acc);
        if (threadIdx.x == 0)
            sums[s] = acc;
    }
}

// softmax over ragged rows (attention over variable-length sequences), a warp a row, three passes
extern "C" __global__ void ragged_softmax_warp(float *__restrict__ out, const float *__restrict__ in,
                                               const int *__restrict__ offsets, int nseg)
{
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    for (int s = warp; s < nseg; s += nwarps) {
        const int beg = offsets[s], end = offsets[s + 1];
        if (end == beg)
            continue;  // an empty sequence
        float m = -3.4e38f;
        for (int i = beg + lane; i < end; i += 32)
            m = fmaxf(m, in[i]);
        m = f5_warp_max(m);
        float z = 0.f;
        for (int i = beg + lane; i < end; i += 32)
            z += __expf(in[i] - m);
        z = f5_warp_sum(z);
        const float inv = 1.f / z;
        for (int i = beg + lane; i < end; i += 32)
            out[i] = __expf(in[i] - m) * inv;
    }
}

// CSR SpMV with L lanes a row (L = 4, 8, 16, 32), the row loop unrolled by 4
template <int L>
__global__ void csr_spmv_lanes(float *__restrict__ y, const int *__restrict__ row_ptr, const int *__restrict__ cols,
                               const float *__restrict__ vals, const float *__restrict__ x, int rows)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = gid % L;
    const int per_pass = blockDim.x * gridDim.x / L;
    for (int base = 0; base < rows; base += per_pass) {
        const int row = base + gid / L;
        float acc = 0.f;
        if (row < rows) {
            const int beg = row_ptr[row], end = row_ptr[row + 1];
#pragma unroll 4
            for (int j = beg + lane; j < end; j += L)
                acc += vals[j] * __ldg(&x[cols[j]]);
        }
        acc = f5_group_sum<L>(acc);
        if (row < rows && lane == 0)
            y[row] = acc;
    }
}
template __global__ void csr_spmv_lanes<4>(float *, const int *, const int *, const float *, const float *, int);
template __global__ void csr_spmv_lanes<8>(float *, const int *, const int *, const float *, const float *, int);
template __global__ void csr_spmv_lanes<16>(float *, const int *, const int *, const float *, const float *, int);
template __global__ void csr_spmv_lanes<32>(float *, const int *, const int *, const float *, const float *, int);

// a thread a segment: 16-bit samples summed into an int, loop trip count from the offsets
extern "C" __global__ void segment_sum_thread_i16(int *__restrict__ sums, const short *__restrict__ samples,
                                                  const int *__restrict__ offsets, int nseg)
{
    for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nseg; s += blockDim.x * gridDim.x) {
        int acc = 0;
        const int end = offsets[s + 1];
#pragma unroll 4
        for (int i = offsets[s]; i < end; ++i)
            acc += samples[i];
        sums[s] = acc;
    }
}

// walk a linked list from each head (hash-chain buckets): sum the values and count the nodes, capped at maxd
extern "C" __global__ void list_walk_sum(float *__restrict__ out, int *__restrict__ length, const int *__restrict__ head,
                                         const int *__restrict__ next, const float *__restrict__ val, int nlists, int maxd)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nlists)
        return;
    int node = head[t], depth = 0;
    float acc = 0.f;
    while (node >= 0 && depth < maxd) {
        acc += val[node];
        node = next[node];
        ++depth;
    }
    out[t] = acc;
    length[t] = depth;
}

// union-find root of each query with path halving (each query in a tree of its own, so no two threads write the
// same parent)
extern "C" __global__ void uf_find_halving(int *__restrict__ root, int *parent, const int *__restrict__ query, int nq)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nq)
        return;
    int x = query[t];
    while (parent[x] != x) {
        const int gp = parent[parent[x]];
        parent[x] = gp;
        x = gp;
    }
    root[t] = x;
}

// lower_bound of each query in a sorted key array (bucketing), a grid-stride loop
extern "C" __global__ void lower_bound_queries(int *__restrict__ pos, const int *__restrict__ keys, int nkeys,
                                               const int *__restrict__ queries, int nq)
{
    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < nq; q += blockDim.x * gridDim.x)
        pos[q] = f5_lower_bound(keys, nkeys, queries[q]);
}

// linear interpolation in a non-uniform table: a first guess from the mean spacing, then walk the index
extern "C" __global__ void interp1d_walk(float *__restrict__ y, const float *__restrict__ x, int n,
                                         const float *__restrict__ xp, const float *__restrict__ fp, int m)
{
    const float x0 = xp[0], inv_dx = (m - 1) / (xp[m - 1] - x0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const float xi = x[i];
        int j = min(max((int)((xi - x0) * inv_dx), 0), m - 2);
        while (j < m - 2 && xp[j + 1] < xi)
            ++j;
        while (j > 0 && xp[j] > xi)
            --j;
        const float t = (xi - xp[j]) / (xp[j + 1] - xp[j]);
        y[i] = fp[j] + t * (fp[j + 1] - fp[j]);
    }
}

// Mandelbrot escape time, a pixel a thread, coloured from a 64-entry palette (pitch in pixels)
extern "C" __global__ void escape_time_palette(uchar4 *__restrict__ img, int pitch, const uchar4 *__restrict__ palette,
                                               int w, int h, float x0, float y0, float dx, int maxit)
{
    const int px = blockIdx.x * blockDim.x + threadIdx.x;
    const int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h)
        return;
    const float cr = x0 + px * dx, ci = y0 + py * dx;
    float zr = 0.f, zi = 0.f;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.f) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.f * zr * zi + ci;
        zr = t;
        ++it;
    }
    img[py * pitch + px] = it == maxit ? make_uchar4(0, 0, 0, 255) : palette[it & 63];
}

// a batch of tridiagonal systems (Thomas algorithm), a thread a system; INTERLEAVED: element k of system s at
// k * nsys + s (coalesced), else at s * m + k (a stride of m between lanes)
template <bool INTERLEAVED>
__global__ void thomas_batch(float *__restrict__ xout, float *__restrict__ cp, const float *__restrict__ a,
                             const float *__restrict__ b, const float *__restrict__ c, const float *__restrict__ d,
                             int nsys, int m)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nsys)
        return;
#define AT(k) (INTERLEAVED ? (k) * nsys + s : s * m + (k))
    float c_prev = c[AT(0)] / b[AT(0)];
    float d_prev = d[AT(0)] / b[AT(0)];
    cp[AT(0)] = c_prev;
    xout[AT(0)] = d_prev;
    for (int k = 1; k < m; ++k) {
        const float ak = a[AT(k)];
        const float den = 1.f / (b[AT(k)] - ak * c_prev);
        c_prev = c[AT(k)] * den;
        d_prev = (d[AT(k)] - ak * d_prev) * den;
        cp[AT(k)] = c_prev;
        xout[AT(k)] = d_prev;
    }
    float xn = d_prev;
    for (int k = m - 2; k >= 0; --k) {
        xn = xout[AT(k)] - cp[AT(k)] * xn;
        xout[AT(k)] = xn;
    }
#undef AT
}
template __global__ void thomas_batch<true>(float *, float *, const float *, const float *, const float *,
                                            const float *, int, int);
template __global__ void thomas_batch<false>(float *, float *, const float *, const float *, const float *,
                                             const float *, int, int);

// y = a * x + b on doubles, ILP elements a thread a step, loads under `if (idx < n)` inside the unrolled loop
template <int ILP>
__global__ void scale_shift_tail(double *__restrict__ y, const double *__restrict__ x, double a, double b, int n)
{
    const int stride = blockDim.x * gridDim.x * ILP;
    for (int base = blockIdx.x * blockDim.x * ILP + threadIdx.x; base < n; base += stride) {
        double v[ILP];
#pragma unroll
        for (int k = 0; k < ILP; ++k) {
            const int idx = base + k * blockDim.x;
            v[k] = idx < n ? x[idx] : 0.0;
        }
#pragma unroll
        for (int k = 0; k < ILP; ++k) {
            const int idx = base + k * blockDim.x;
            if (idx < n)
                y[idx] = fma(a, v[k], b);
        }
    }
}
template __global__ void scale_shift_tail<4>(double *, const double *, double, double, int);
template __global__ void scale_shift_tail<8>(double *, const double *, double, double, int);

// per row of a row-major matrix (leading dimension lda), the first column above a threshold: a thread a row,
// negative entries skipped (`continue`), the scan stops at the first hit (`break`)
extern "C" __global__ void first_above_break(int *__restrict__ pos, const float *__restrict__ A, int rows, int cols,
                                             int lda, float thr)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
        const float *row = A + (size_t)r * lda;
        int p = -1;
#pragma unroll 1
        for (int c = 0; c < cols; ++c) {
            const float v = row[c];
            if (v < 0.f)
                continue;
            if (v > thr) {
                p = c;
                break;
            }
        }
        pos[r] = p;
    }
}

// banded matrix-vector product in doubles: a warp a row (rows in a loop), the columns [lo[r], hi[r]) of a dense
// row-major A, then a shuffle sum
extern "C" __global__ void banded_matvec_f64(double *__restrict__ y, const double *__restrict__ A, int lda,
                                             const int *__restrict__ lo, const int *__restrict__ hi,
                                             const double *__restrict__ x, int rows)
{
    const int lane = threadIdx.x;
    for (int r = threadIdx.y + blockIdx.x * blockDim.y; r < rows; r += blockDim.y * gridDim.x) {
        double acc = 0.0;
        for (int c = lo[r] + lane; c < hi[r]; c += 32)
            acc += A[(size_t)r * lda + c] * x[c];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            acc += __shfl_down_sync(F5_FULL, acc, o);
        if (lane == 0)
            y[r] = acc;
    }
}

// clean a float2 signal: a grid-stride loop (n not a multiple of the stride) that skips negative samples, writes
// the magnitudes of the others and counts them, a warp's count added once
extern "C" __global__ void gridstride_clean_f2(float *__restrict__ mag, int *__restrict__ kept,
                                               const float2 *__restrict__ in, int n)
{
    int mine = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const float2 v = in[i];
        if (v.x < 0.f) {
            mag[i] = 0.f;
            continue;
        }
        mag[i] = sqrtf(v.x * v.x + v.y * v.y);
        ++mine;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        mine += __shfl_xor_sync(F5_FULL, mine, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(kept, mine);
}

// a column store of mixed types: each element's tag selects which array (float, double, int, short) holds it
extern "C" __global__ void typed_gather_switch(float *__restrict__ out, const unsigned char *__restrict__ tag,
                                               const int *__restrict__ idx, const float *__restrict__ f32,
                                               const double *__restrict__ f64, const int *__restrict__ i32,
                                               const short *__restrict__ i16, float scale16, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int j = idx[i];
    float v;
    switch (tag[i]) {
    case 0:
        v = f32[j];
        break;
    case 1:
        v = (float)f64[j];
        break;
    case 2:
        v = (float)i32[j];
        break;
    case 3:
        v = i16[j] * scale16;
        break;
    default:
        v = 0.f;
    }
    out[i] = v;
}

// a masked blend: the mask picks the source array; the weight comes from the same index or from a permutation
extern "C" __global__ void select_two_sources(float *__restrict__ out, const int *__restrict__ mask,
                                              const float *__restrict__ a, const float *__restrict__ b,
                                              const float *__restrict__ w, const int *__restrict__ perm, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const bool m = mask[i] > 0;
        const float *src = m ? a : b;
        out[i] = src[i] * w[m ? i : perm[i]];
    }
}

// one explicit diffusion step with Neumann boundaries: interior, edges and corners each in their own branch,
// reading the same element and different neighbours (pitch in floats)
extern "C" __global__ void diffuse_boundary_branches(float *__restrict__ out, const float *__restrict__ in, int w,
                                                     int h, int pitch, float k)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const int i = y * pitch + x;
    const float c = in[i];
    float lap;
    if (x > 0 && x < w - 1 && y > 0 && y < h - 1) {
        lap = in[i - 1] + in[i + 1] + in[i - pitch] + in[i + pitch] - 4.f * c;
    } else if ((x == 0 || x == w - 1) && (y == 0 || y == h - 1)) {
        const int dx = x == 0 ? 1 : -1, dy = y == 0 ? pitch : -pitch;
        lap = 2.f * (in[i + dx] + in[i + dy]) - 4.f * c;
    } else if (x == 0 || x == w - 1) {
        const int dx = x == 0 ? 1 : -1;
        lap = 2.f * in[i + dx] + in[i - pitch] + in[i + pitch] - 4.f * c;
    } else {
        const int dy = y == 0 ? pitch : -pitch;
        lap = in[i - 1] + in[i + 1] + 2.f * in[i + dy] - 4.f * c;
    }
    out[i] = c + k * lap;
}

// SPH density: particles sorted by cell (float4 x, y, z, mass), a thread a particle over the 27 neighbouring cells
// of a G^3 grid; empty and outside cells skipped
extern "C" __global__ void sph_density_cells(float *__restrict__ rho, const float4 *__restrict__ pos,
                                             const int *__restrict__ cell_start, const int *__restrict__ cell_end,
                                             int n, int G, float h)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float4 p = pos[i];
    const int cx = min((int)(p.x * G), G - 1), cy = min((int)(p.y * G), G - 1), cz = min((int)(p.z * G), G - 1);
    const float h2 = h * h;
    float acc = 0.f;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int x = cx + dx, y = cy + dy, z = cz + dz;
                if (x < 0 || y < 0 || z < 0 || x >= G || y >= G || z >= G)
                    continue;
                const int cell = (z * G + y) * G + x;
                const int s = cell_start[cell];
                if (s < 0)
                    continue;
                const int e = cell_end[cell];
                for (int j = s; j < e; ++j) {
                    const float4 q = pos[j];
                    const float rx = q.x - p.x, ry = q.y - p.y, rz = q.z - p.z;
                    const float r2 = rx * rx + ry * ry + rz * rz;
                    if (r2 < h2) {
                        const float t = h2 - r2;
                        acc += q.w * t * t * t;
                    }
                }
            }
    rho[i] = acc;
}

// the K nearest reference points of each query (float2), the references staged through shared memory a tile at a
// time, each thread keeping a sorted list with an insertion that shifts a data-dependent number of entries
#define KNN_K 8
#define KNN_TILE 64
extern "C" __global__ void knn_shared_insertion(int *__restrict__ nbr, float *__restrict__ nbr_d,
                                                const float2 *__restrict__ queries, int nq,
                                                const float2 *__restrict__ refs, int nref)
{
    __shared__ float2 tile[KNN_TILE];
    const int q = blockIdx.x * blockDim.x + threadIdx.x;
    const float2 me = q < nq ? queries[q] : make_float2(0.f, 0.f);
    float bestd[KNN_K];
    int besti[KNN_K];
#pragma unroll
    for (int k = 0; k < KNN_K; ++k) {
        bestd[k] = 3.4e38f;
        besti[k] = -1;
    }
    for (int base = 0; base < nref; base += KNN_TILE) {
        for (int t = threadIdx.x; t < KNN_TILE; t += blockDim.x)
            if (base + t < nref)
                tile[t] = refs[base + t];
        __syncthreads();
        const int cnt = min(KNN_TILE, nref - base);
        for (int t = 0; t < cnt; ++t) {
            const float2 r = tile[t];
            const float dx = r.x - me.x, dy = r.y - me.y;
            const float d = dx * dx + dy * dy;
            if (d < bestd[KNN_K - 1]) {
                int j = KNN_K - 1;
                while (j > 0 && bestd[j - 1] > d) {
                    bestd[j] = bestd[j - 1];
                    besti[j] = besti[j - 1];
                    --j;
                }
                bestd[j] = d;
                besti[j] = base + t;
            }
        }
        __syncthreads();
    }
    if (q < nq)
        for (int k = 0; k < KNN_K; ++k) {
            nbr[q * KNN_K + k] = besti[k];
            nbr_d[q * KNN_K + k] = bestd[k];
        }
}
