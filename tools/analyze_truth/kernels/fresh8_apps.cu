// fresh8_apps.cu -- irregular and numerical kernels: compaction, radix ranking, BFS, union-find, RLE, sparse dots,
// segmented reductions, stencils, tridiagonal and LU solvers, and some memory-layout experiments.
// Plain CUDA C++ with no library headers, so it also builds at run time with NVRTC (our JIT path).
#include "fresh8_common.cuh"

#define TILE_DIM 32
#define MAX_TAPS 33

__constant__ float c_taps[MAX_TAPS];

// =============================================================================================================
// data-dependent control flow
// =============================================================================================================

// Keep the elements above a threshold. Each block compacts its own chunk into its own slice of `out` (so the
// result is deterministic): ballot + popc within a warp, the warps' counts scanned in shared memory.
extern "C" __global__ void compact_greater(const float *__restrict__ in, int n, float thr, float *__restrict__ out,
                                           int *__restrict__ out_idx, int *__restrict__ block_counts, int chunk)
{
    __shared__ int warp_cnt[32];
    __shared__ int running;
    const int lane = LANE_ID(), wid = WARP_ID(), nw = blockDim.x / WARP;
    const int beg = blockIdx.x * chunk, end = min(n, beg + chunk);
    if (threadIdx.x == 0)
        running = 0;
    __syncthreads();
    for (int base = beg; base < end; base += blockDim.x) {
        const int i = base + threadIdx.x;
        const float v = i < end ? in[i] : 0.f;
        const bool keep = i < end && v > thr;
        const unsigned ballot = __ballot_sync(ALL_LANES, keep);
        const int before = __popc(ballot & ((1u << lane) - 1));
        if (lane == 0)
            warp_cnt[wid] = __popc(ballot);
        __syncthreads();
        int off = running;
        for (int w = 0; w < wid; ++w)
            off += warp_cnt[w];
        if (keep) {
            out[beg + off + before] = v;
            out_idx[beg + off + before] = i;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            int t = 0;
            for (int w = 0; w < nw; ++w)
                t += warp_cnt[w];
            running += t;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        block_counts[blockIdx.x] = running;
}

// One local pass of an LSD radix sort: 4-bit digit at `shift`, one key a thread. Per-warp digit counts from 16
// ballots, a scan over (digit, warp), a scatter into shared memory, then coalesced writes of the tile in digit
// order and the tile's 16 digit counts.
template <int BLOCK>
__global__ void radix_rank_pass(const unsigned *__restrict__ keys_in, unsigned *__restrict__ keys_out,
                                int *__restrict__ tile_hist, int n, int shift)
{
    constexpr int NW = BLOCK / WARP, RADIX = 16;
    __shared__ int s_hist[RADIX * NW];  // digit-major
    __shared__ int s_scan[32];
    __shared__ unsigned s_keys[BLOCK];
    const int lane = LANE_ID(), wid = WARP_ID();
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    const bool valid = i < n;
    const unsigned key = valid ? keys_in[i] : 0u;
    const int digit = valid ? (int)((key >> shift) & 15u) : -1;

    int rank_in_warp = 0;
#pragma unroll
    for (int d = 0; d < RADIX; ++d) {
        const unsigned b = __ballot_sync(ALL_LANES, digit == d);
        if (digit == d)
            rank_in_warp = __popc(b & ((1u << lane) - 1));
        if (lane == 0)
            s_hist[d * NW + wid] = __popc(b);
    }
    __syncthreads();
    const int e = threadIdx.x;  // entry e of the (digit, warp) table, BLOCK >= 16 * NW
    int total;
    const int cnt = e < RADIX * NW ? s_hist[e] : 0;
    const int excl = f8::block_exclusive_scan(cnt, s_scan, total);
    if (e < RADIX * NW)
        s_hist[e] = excl;
    __syncthreads();
    if (valid)
        s_keys[s_hist[digit * NW + wid] + rank_in_warp] = key;
    __syncthreads();
    if (threadIdx.x < total)
        keys_out[blockIdx.x * BLOCK + threadIdx.x] = s_keys[threadIdx.x];
    if (threadIdx.x < RADIX) {
        const int d = threadIdx.x;
        const int end = d + 1 < RADIX ? s_hist[(d + 1) * NW] : total;
        tile_hist[blockIdx.x * RADIX + d] = end - s_hist[d * NW];
    }
}

// Top-down BFS step over a CSR graph, a warp per frontier vertex. Levels are double-buffered (read level_in,
// write level_out), the next frontier is a flag array; the warp counts the edges it discovered with one atomic.
extern "C" __global__ void bfs_expand_warp(const int *__restrict__ row_ptr, const int *__restrict__ col_idx,
                                           const int *__restrict__ frontier, int nfront,
                                           const int *__restrict__ level_in, int *__restrict__ level_out,
                                           unsigned char *__restrict__ next_flag, int depth, int *__restrict__ discovered)
{
    const int lane = LANE_ID();
    const int warps = gridDim.x * (blockDim.x / WARP);
    for (int f = blockIdx.x * (blockDim.x / WARP) + WARP_ID(); f < nfront; f += warps) {
        const int u = frontier[f];
        const int beg = row_ptr[u], end = row_ptr[u + 1];
        int found = 0;
        for (int e = beg + lane; e < end; e += WARP) {
            const int v = col_idx[e];
            if (level_in[v] < 0) {
                level_out[v] = depth + 1;
                next_flag[v] = 1;
                ++found;
            }
        }
        found = f8::warp_allreduce_sum(found);
        if (lane == 0 && found)
            atomicAdd(discovered, found);
    }
}

// Connected components of small graphs, one graph a block (one warp), parents in shared memory: lock-free
// union with atomicCAS (link the larger root under the smaller) and path halving in find.
__device__ __forceinline__ int uf_find(int *parent, int x)
{
    int p = parent[x];
    while (p != x) {
        const int gp = parent[p];
        parent[x] = gp;  // halving: benign race, gp is still an ancestor
        x = gp;
        p = parent[x];
    }
    return x;
}

extern "C" __global__ void union_find_components(const int *__restrict__ edge_off, const int2 *__restrict__ edges,
                                                 int nv, int *__restrict__ labels)
{
    __shared__ int parent[512];
    const int g = blockIdx.x;
    for (int v = threadIdx.x; v < nv; v += blockDim.x)
        parent[v] = v;
    __syncthreads();
    for (int e = edge_off[g] + threadIdx.x; e < edge_off[g + 1]; e += blockDim.x) {
        const int2 uv = edges[e];
        int a = uv.x, b = uv.y;
        while (true) {
            a = uf_find(parent, a);
            b = uf_find(parent, b);
            if (a == b)
                break;
            if (a < b) {
                const int t = a;
                a = b;
                b = t;
            }
            if (atomicCAS(&parent[a], a, b) == a)
                break;
        }
    }
    __syncthreads();
    for (int v = threadIdx.x; v < nv; v += blockDim.x)
        labels[g * nv + v] = uf_find(parent, v);
}

// Run-length encoding of one tile a block (runs are cut at tile edges; a later pass stitches them): head flags,
// a block scan for the run index, run starts in shared memory, lengths from neighbouring starts.
extern "C" __global__ void rle_tiles(const int *__restrict__ in, int n, int *__restrict__ run_vals,
                                     int *__restrict__ run_lens, int *__restrict__ tile_runs)
{
    __shared__ int s_scan[32];
    __shared__ int s_start[1025];
    const int base = blockIdx.x * blockDim.x;
    const int i = base + threadIdx.x;
    const bool valid = i < n;
    const int v = valid ? in[i] : 0;
    const bool head = valid && (threadIdx.x == 0 || in[i - 1] != v);
    int nruns;
    const int r = f8::block_exclusive_scan(head ? 1 : 0, s_scan, nruns);
    if (head) {
        s_start[r] = threadIdx.x;
        run_vals[base + r] = v;
    }
    if (threadIdx.x == 0)
        s_start[nruns] = min((int)blockDim.x, n - base);
    __syncthreads();
    if (threadIdx.x < nruns)
        run_lens[base + threadIdx.x] = s_start[threadIdx.x + 1] - s_start[threadIdx.x];
    if (threadIdx.x == 0)
        tile_runs[blockIdx.x] = nruns;
}

// y[r] = sum_k val[k] * D[r, idx[k]] for a sparse vector with sorted indices, a warp per dense row; the sparse
// vector is staged in shared memory once per block.
extern "C" __global__ void sparse_dense_rowdot(const int *__restrict__ idx, const float *__restrict__ val, int nnz,
                                               const float *__restrict__ D, int ld, int rows, float *__restrict__ y)
{
    __shared__ int s_idx[512];
    __shared__ float s_val[512];
    for (int k = threadIdx.x; k < nnz; k += blockDim.x) {
        s_idx[k] = idx[k];
        s_val[k] = val[k];
    }
    __syncthreads();
    const int lane = LANE_ID(), nw = blockDim.x / WARP;
    for (int r = blockIdx.x * nw + WARP_ID(); r < rows; r += gridDim.x * nw) {
        const float *row = D + (size_t)r * ld;
        float acc = 0.f;
        for (int k = lane; k < nnz; k += WARP)
            acc += s_val[k] * __ldg(&row[s_idx[k]]);
        acc = f8::warp_reduce_sum(acc);
        if (lane == 0)
            y[r] = acc;
    }
}

// Reduce-by-key over sorted keys: a segmented inclusive scan (Hillis-Steele on values and head flags in shared
// memory) per tile; the last element of each segment in the tile adds its partial sum into out[key].
extern "C" __global__ void segmented_sum_by_key(const int *__restrict__ keys, const float *__restrict__ vals, int n,
                                                float *__restrict__ out)
{
    __shared__ float s_v[2][256];
    __shared__ int s_f[2][256];
    const int t = threadIdx.x;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        const int i = base + t;
        const bool valid = i < n;
        const int k = valid ? keys[i] : -1;
        s_v[0][t] = valid ? vals[i] : 0.f;
        s_f[0][t] = (t == 0 || !valid || keys[i - 1] != k) ? 1 : 0;
        __syncthreads();
        int src = 0;
        for (int off = 1; off < (int)blockDim.x; off <<= 1) {
            float v = s_v[src][t];
            int f = s_f[src][t];
            if (t >= off && !f) {
                v += s_v[src][t - off];
                f |= s_f[src][t - off];
            }
            s_v[src ^ 1][t] = v;
            s_f[src ^ 1][t] = f;
            __syncthreads();
            src ^= 1;
        }
        const bool tail = valid && (t == (int)blockDim.x - 1 || i + 1 >= n || keys[i + 1] != k);
        if (tail)
            atomicAdd(&out[k], s_v[src][t]);
        __syncthreads();
    }
}

// Per-block histogram of "bright" bytes: the positions of bytes above a threshold go into a shared ring of 64
// shorts (slot from atomicInc, which wraps), the last position seen for each of 8 classes kept with atomicExch.
extern "C" __global__ void bright_byte_ring(const unsigned char *__restrict__ bytes, int n, unsigned char thr,
                                            short *__restrict__ ring_out, int *__restrict__ last_out,
                                            unsigned *__restrict__ heads)
{
    __shared__ short ring[64];
    __shared__ unsigned head;
    __shared__ int last_seen[8];
    if (threadIdx.x < 64)
        ring[threadIdx.x] = -1;
    if (threadIdx.x < 8)
        last_seen[threadIdx.x] = -1;
    if (threadIdx.x == 0)
        head = 0;
    __syncthreads();
    const int per = CEIL_DIV(n, (int)gridDim.x);
    const int beg = blockIdx.x * per, end = min(n, beg + per);
    for (int i = beg + threadIdx.x; i < end; i += blockDim.x) {
        const unsigned char b = bytes[i];
        if (b > thr) {
            const unsigned slot = atomicInc(&head, 63u);
            ring[slot] = (short)(i - beg);
            atomicExch(&last_seen[b & 7], i);
        }
    }
    __syncthreads();
    if (threadIdx.x < 64)
        ring_out[blockIdx.x * 64 + threadIdx.x] = ring[threadIdx.x];
    if (threadIdx.x < 8)
        last_out[blockIdx.x * 8 + threadIdx.x] = last_seen[threadIdx.x];
    if (threadIdx.x == 0)
        heads[blockIdx.x] = head;
}

// =============================================================================================================
// stencils and small solvers
// =============================================================================================================

// 7-point Laplacian-style stencil on a nx * ny * nz grid. A 2-D block owns an (x, y) tile and marches in z: the
// current plane (with a one-cell halo) in shared memory, the planes below and above in registers.
extern "C" __global__ void stencil7_zmarch(const float *__restrict__ in, float *__restrict__ out, int nx, int ny,
                                           int nz, float c0, float c1)
{
    __shared__ float plane[8 + 2][32 + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * blockDim.x + tx, y = blockIdx.y * blockDim.y + ty;
    const bool inside = x < nx && y < ny;
    const size_t sz = (size_t)nx * ny;
    const size_t at = (size_t)y * nx + x;
    float below = 0.f, cur = inside ? in[at] : 0.f, above = (inside && nz > 1) ? in[sz + at] : 0.f;
    for (int z = 0; z < nz; ++z) {
        __syncthreads();
        plane[ty + 1][tx + 1] = cur;
        // halo columns and rows of this plane
        if (tx == 0)
            plane[ty + 1][0] = (x > 0 && y < ny) ? in[z * sz + at - 1] : 0.f;
        if (tx == blockDim.x - 1 || x == nx - 1)
            plane[ty + 1][tx + 2] = (x + 1 < nx && y < ny) ? in[z * sz + at + 1] : 0.f;
        if (ty == 0)
            plane[0][tx + 1] = (y > 0 && x < nx) ? in[z * sz + at - nx] : 0.f;
        if (ty == blockDim.y - 1 || y == ny - 1)
            plane[ty + 2][tx + 1] = (y + 1 < ny && x < nx) ? in[z * sz + at + nx] : 0.f;
        __syncthreads();
        if (inside) {
            const bool interior = x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1;
            const float lap = plane[ty + 1][tx] + plane[ty + 1][tx + 2] + plane[ty][tx + 1] + plane[ty + 2][tx + 1] +
                              below + above;
            out[z * sz + at] = interior ? c0 * cur + c1 * lap : cur;
        }
        below = cur;
        cur = above;
        above = (inside && z + 2 < nz) ? in[(z + 2) * sz + at] : 0.f;
    }
}

// 9-point (3x3) weighted smoothing of a rows x cols image. A block of BX threads owns BX columns and a band of
// rows; each thread keeps its column's three rows in a register queue and reads the side neighbours from a ring
// of three shared rows.
template <int BX>
__global__ void stencil9_regqueue(const float *__restrict__ in, float *__restrict__ out, int rows, int cols,
                                  int band)
{
    __shared__ float ring[3][BX + 2];
    const int tx = threadIdx.x;
    const int x = blockIdx.x * BX + tx;
    const int y0 = blockIdx.y * band, y1 = min(rows, y0 + band);
    auto load_row = [&](int y, int slot) {
        const bool ok = y >= 0 && y < rows;
        const float *r = in + (size_t)(ok ? y : 0) * cols;
        ring[slot][tx + 1] = (ok && x < cols) ? r[x] : 0.f;
        if (tx == 0)
            ring[slot][0] = (ok && x > 0 && x - 1 < cols) ? r[x - 1] : 0.f;
        if (tx == BX - 1)
            ring[slot][BX + 1] = (ok && x + 1 < cols) ? r[x + 1] : 0.f;
        return ring[slot][tx + 1];
    };
    float up = load_row(y0 - 1, 0);
    float mid = load_row(y0, 1);
    for (int y = y0; y < y1; ++y) {
        const int s_up = (y - y0) % 3, s_mid = (y - y0 + 1) % 3, s_dn = (y - y0 + 2) % 3;
        const float dn = load_row(y + 1, s_dn);
        __syncthreads();
        if (x < cols) {
            const float edge = ring[s_up][tx] + ring[s_up][tx + 2] + ring[s_dn][tx] + ring[s_dn][tx + 2];
            const float side = ring[s_mid][tx] + ring[s_mid][tx + 2] + up + dn;
            out[(size_t)y * cols + x] = 0.25f * mid + 0.125f * side + 0.0625f * edge;
        }
        __syncthreads();
        up = mid;
        mid = dn;
    }
}

// Tridiagonal systems by cyclic reduction, one system of n = 2^k unknowns a block, n/2 threads. a[i] multiplies
// x[i-1], c[i] multiplies x[i+1]; a[0] and c[n-1] are ignored.
extern "C" __global__ void tridiag_cyclic_reduction(const float *__restrict__ A, const float *__restrict__ B,
                                                    const float *__restrict__ C, const float *__restrict__ D,
                                                    float *__restrict__ X, int n)
{
    extern __shared__ float sm[];
    float *a = sm, *b = sm + n, *c = sm + 2 * n, *d = sm + 3 * n, *x = sm + 4 * n;
    const int sys = blockIdx.x, t = threadIdx.x;
    const size_t off = (size_t)sys * n;
    for (int i = t; i < n; i += blockDim.x) {
        a[i] = i > 0 ? A[off + i] : 0.f;
        b[i] = B[off + i];
        c[i] = i < n - 1 ? C[off + i] : 0.f;
        d[i] = D[off + i];
    }
    __syncthreads();
    for (int s = 1; s < n; s <<= 1) {  // forward reduction
        const int i = 2 * s * (t + 1) - 1;
        float na = 0.f, nb = 0.f, nc = 0.f, nd = 0.f;
        if (i < n) {
            const float k1 = a[i] / b[i - s];
            const bool right = i + s < n;
            const float k2 = right ? c[i] / b[i + s] : 0.f;
            nb = b[i] - c[i - s] * k1 - (right ? a[i + s] * k2 : 0.f);
            nd = d[i] - d[i - s] * k1 - (right ? d[i + s] * k2 : 0.f);
            na = -a[i - s] * k1;
            nc = right ? -c[i + s] * k2 : 0.f;
        }
        __syncthreads();
        if (i < n) {
            a[i] = na;
            b[i] = nb;
            c[i] = nc;
            d[i] = nd;
        }
        __syncthreads();
    }
    if (t == 0)
        x[n - 1] = d[n - 1] / b[n - 1];
    __syncthreads();
    for (int s = n / 2; s >= 1; s >>= 1) {  // back substitution
        const int i = s - 1 + 2 * s * t;
        if (i < n - 1) {
            const float left = i - s >= 0 ? a[i] * x[i - s] : 0.f;
            const float right = i + s < n ? c[i] * x[i + s] : 0.f;
            x[i] = (d[i] - left - right) / b[i];
        }
        __syncthreads();
    }
    for (int i = t; i < n; i += blockDim.x)
        X[off + i] = x[i];
}

// Batched LU with partial pivoting, one N x N double matrix a block held in a padded shared array; block (N, 4):
// threadIdx.x is the column, threadIdx.y strides over the rows. Warp 0 finds the pivot.
template <int N>
__global__ void batched_lu_pivot(double *__restrict__ mats, int *__restrict__ pivots)
{
    __shared__ double A[N][N + 1];
    __shared__ double l[N];
    __shared__ int piv;
    const int tx = threadIdx.x, ty = threadIdx.y, tid = TID_FLAT();
    double *M = mats + (size_t)blockIdx.x * N * N;
    for (int r = ty; r < N; r += blockDim.y)
        A[r][tx] = M[r * N + tx];
    __syncthreads();
    for (int k = 0; k < N - 1; ++k) {
        if (tid < WARP) {
            double best = -1.0;
            int arg = k;
            if (tid >= k && tid < N) {
                best = fabs(A[tid][k]);
                arg = tid;
            }
            for (int o = 16; o > 0; o >>= 1) {
                const double ob = __shfl_xor_sync(ALL_LANES, best, o);
                const int oa = __shfl_xor_sync(ALL_LANES, arg, o);
                if (ob > best || (ob == best && oa < arg)) {
                    best = ob;
                    arg = oa;
                }
            }
            if (tid == 0) {
                piv = arg;
                pivots[blockIdx.x * N + k] = arg;
            }
        }
        __syncthreads();
        if (piv != k && ty == 0) {
            const double t = A[k][tx];
            A[k][tx] = A[piv][tx];
            A[piv][tx] = t;
        }
        __syncthreads();
        if (ty == 0 && tx > k)
            l[tx] = A[tx][k] / A[k][k];
        __syncthreads();
        for (int r = k + 1 + ty; r < N; r += blockDim.y)
            if (tx > k)
                A[r][tx] -= l[r] * A[k][tx];
            else if (tx == k)
                A[r][k] = l[r];
        __syncthreads();
    }
    for (int r = ty; r < N; r += blockDim.y)
        M[r * N + tx] = A[r][tx];
}

// 1-D convolution with the taps in constant memory: a tile plus an R-element halo on each side in shared memory.
template <int R>
__global__ void conv1d_const_taps(const float *__restrict__ x, float *__restrict__ y, int n)
{
    extern __shared__ float tile[];  // blockDim.x + 2R floats
    const int base = blockIdx.x * blockDim.x;
    for (int i = threadIdx.x; i < (int)blockDim.x + 2 * R; i += blockDim.x) {
        const int g = base + i - R;
        tile[i] = (g >= 0 && g < n) ? x[g] : 0.f;
    }
    __syncthreads();
    const int g = base + threadIdx.x;
    if (g < n) {
        float acc = 0.f;
#pragma unroll
        for (int k = 0; k <= 2 * R; ++k)
            acc += c_taps[k] * tile[threadIdx.x + k];
        y[g] = acc;
    }
}

// 3x3x3 box mean of a volume with an 8x8x4 block and a (4+2) x (8+2) x (8+2) shared brick; ragged edges clamp.
extern "C" __global__ void box3d_mean(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz)
{
    __shared__ float brick[4 + 2][8 + 2][8 + 2];
    const int x0 = blockIdx.x * 8 - 1, y0 = blockIdx.y * 8 - 1, z0 = blockIdx.z * 4 - 1;
    for (int i = TID_FLAT(); i < 6 * 10 * 10; i += blockDim.x * blockDim.y * blockDim.z) {
        const int lz = i / 100, ly = (i / 10) % 10, lx = i % 10;
        const int gx = f8::clampv(x0 + lx, 0, nx - 1), gy = f8::clampv(y0 + ly, 0, ny - 1),
                  gz = f8::clampv(z0 + lz, 0, nz - 1);
        brick[lz][ly][lx] = in[((size_t)gz * ny + gy) * nx + gx];
    }
    __syncthreads();
    const int x = x0 + 1 + threadIdx.x, y = y0 + 1 + threadIdx.y, z = z0 + 1 + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        float s = 0.f;
        for (int dz = 0; dz < 3; ++dz)
            for (int dy = 0; dy < 3; ++dy)
                for (int dx = 0; dx < 3; ++dx)
                    s += brick[threadIdx.z + dz][threadIdx.y + dy][threadIdx.x + dx];
        out[((size_t)z * ny + y) * nx + x] = s * (1.f / 27.f);
    }
}

// Batched transpose of double matrices: block (32, 4, 2), two matrices a block, a [32][33] double tile each.
extern "C" __global__ void transpose_f64_batched(const double *__restrict__ in, double *__restrict__ out, int rows,
                                                 int cols, int batch)
{
    __shared__ double tile[2][TILE_DIM][TILE_DIM + 1];
    const int b = blockIdx.z * blockDim.z + threadIdx.z;
    const int bx = blockIdx.x * TILE_DIM, by = blockIdx.y * TILE_DIM;
    const bool live = b < batch;
    const double *src = in + (size_t)(live ? b : 0) * rows * cols;
    double *dst = out + (size_t)(live ? b : 0) * rows * cols;
    for (int j = threadIdx.y; j < TILE_DIM; j += blockDim.y) {
        const int r = by + j, c = bx + threadIdx.x;
        if (live && r < rows && c < cols)
            tile[threadIdx.z][j][threadIdx.x] = src[(size_t)r * cols + c];
    }
    __syncthreads();
    for (int j = threadIdx.y; j < TILE_DIM; j += blockDim.y) {
        const int r = bx + j, c = by + threadIdx.x;  // out is cols x rows
        if (live && r < cols && c < rows)
            dst[(size_t)r * rows + c] = tile[threadIdx.z][threadIdx.x][j];
    }
}

// Block-wide bitonic sort of ITEMS keys a thread in dynamic shared memory (blockDim.x * ITEMS keys, padded with
// 0xffffffff past n), one chunk a block.
template <int ITEMS>
__global__ void bitonic_sort_chunks(unsigned *__restrict__ keys, int n)
{
    extern __shared__ unsigned sk[];
    const int len = blockDim.x * ITEMS;
    const int base = blockIdx.x * len;
    for (int i = threadIdx.x; i < len; i += blockDim.x)
        sk[i] = base + i < n ? keys[base + i] : 0xffffffffu;
    __syncthreads();
    for (int k = 2; k <= len; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = threadIdx.x; i < len; i += blockDim.x) {
                const int p = i ^ j;
                if (p > i) {
                    const unsigned a = sk[i], b = sk[p];
                    const bool up = (i & k) == 0;
                    if ((a > b) == up) {
                        sk[i] = b;
                        sk[p] = a;
                    }
                }
            }
            __syncthreads();
        }
    }
    for (int i = threadIdx.x; i < len; i += blockDim.x)
        if (base + i < n)
            keys[base + i] = sk[i];
}

// =============================================================================================================
// memory-layout experiments
// =============================================================================================================

// y[r, :] += alpha * x[r, :] on pitched rows (pitch in elements, not a multiple of the vector width): a scalar
// head up to the vector's alignment, vector body, scalar tail. Block per row.
template <typename T, typename V>
__global__ void axpy_rows_vec(const T *__restrict__ x, T *__restrict__ y, int rows, int cols, int pitch, float alpha)
{
    constexpr int W = sizeof(V) / sizeof(T);
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *xr = x + (size_t)r * pitch;
        T *yr = y + (size_t)r * pitch;
        const int mis = (int)(((size_t)xr / sizeof(T)) % W);
        const int head = min(cols, mis ? W - mis : 0);
        const int nvec = (cols - head) / W;
        for (int i = threadIdx.x; i < head; i += blockDim.x)
            yr[i] += (T)(alpha * xr[i]);
        const V *xv = reinterpret_cast<const V *>(xr + head);
        V *yv = reinterpret_cast<V *>(yr + head);
        for (int i = threadIdx.x; i < nvec; i += blockDim.x) {
            V a = xv[i], b = yv[i];
            const T *pa = reinterpret_cast<const T *>(&a);
            T *pb = reinterpret_cast<T *>(&b);
#pragma unroll
            for (int w = 0; w < W; ++w)
                pb[w] += (T)(alpha * pa[w]);
            yv[i] = b;
        }
        for (int i = head + nvec * W + threadIdx.x; i < cols; i += blockDim.x)
            yr[i] += (T)(alpha * xr[i]);
    }
}

// Particle update on an array of 20-byte structs: drift, then the cell index on a uniform grid.
extern "C" __global__ void particles_aos_drift(Particle *__restrict__ p, const Vec3f *__restrict__ vel, int n,
                                               float dt, float inv_cell, int cells_per_side)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        Particle q = p[i];
        const Vec3f v = vel[i];
        q.x += v.x * dt;
        q.y += v.y * dt;
        q.z += v.z * dt;
        const int cx = f8::clampv((int)(q.x * inv_cell), 0, cells_per_side - 1);
        const int cy = f8::clampv((int)(q.y * inv_cell), 0, cells_per_side - 1);
        const int cz = f8::clampv((int)(q.z * inv_cell), 0, cells_per_side - 1);
        q.cell = (cz * cells_per_side + cy) * cells_per_side + cx;
        p[i] = q;
    }
}

// All-pairs gravity over tiles of particles staged in a shared array of the 20-byte struct (the AoS n-body
// kernel): every thread reads the same tile entry, one of its own particle.
extern "C" __global__ void nbody_tile_aos(const Particle *__restrict__ p, Vec3f *__restrict__ acc, int n, float eps2)
{
    __shared__ Particle tile[128];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const Particle me = i < n ? p[i] : Particle{0.f, 0.f, 0.f, 0, 0.f};
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int t0 = 0; t0 < n; t0 += blockDim.x) {
        const int j = t0 + threadIdx.x;
        if (threadIdx.x < 128)
            tile[threadIdx.x] = j < n ? p[j] : Particle{0.f, 0.f, 0.f, 0, 0.f};
        __syncthreads();
        const int cnt = min((int)blockDim.x, n - t0);
        for (int k = 0; k < cnt; ++k) {
            const float dx = tile[k].x - me.x, dy = tile[k].y - me.y, dz = tile[k].z - me.z;
            const float r2 = dx * dx + dy * dy + dz * dz + eps2;
            const float inv = rsqrtf(r2);
            const float s = tile[k].mass * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = Vec3f{ax, ay, az};
}

// Centroid of points, twice: from an array of 12-byte Vec3f (staged through a shared Vec3f array) and from three
// separate arrays (SoA). Partial sums a block, accumulated with atomics.
extern "C" __global__ void centroid_aos12(const Vec3f *__restrict__ pts, int n, float *__restrict__ sum3)
{
    __shared__ Vec3f s_pts[256];
    __shared__ float red[32];
    float sx = 0.f, sy = 0.f, sz = 0.f;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        const int i = base + threadIdx.x;
        s_pts[threadIdx.x] = i < n ? pts[i] : Vec3f{0.f, 0.f, 0.f};
        __syncthreads();
        // read back rotated by one so that a thread sums its neighbour's point
        const Vec3f q = s_pts[(threadIdx.x + 1) % blockDim.x];
        sx += q.x;
        sy += q.y;
        sz += q.z;
        __syncthreads();
    }
    sx = f8::block_reduce_sum(sx, red);
    sy = f8::block_reduce_sum(sy, red);
    sz = f8::block_reduce_sum(sz, red);
    if (threadIdx.x == 0) {
        atomicAdd(&sum3[0], sx);
        atomicAdd(&sum3[1], sy);
        atomicAdd(&sum3[2], sz);
    }
}

extern "C" __global__ void centroid_soa(const float *__restrict__ xs, const float *__restrict__ ys,
                                        const float *__restrict__ zs, int n, float *__restrict__ sum3)
{
    __shared__ float red[32];
    float sx = 0.f, sy = 0.f, sz = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        sx += xs[i];
        sy += ys[i];
        sz += zs[i];
    }
    sx = f8::block_reduce_sum(sx, red);
    sy = f8::block_reduce_sum(sy, red);
    sz = f8::block_reduce_sum(sz, red);
    if (threadIdx.x == 0) {
        atomicAdd(&sum3[0], sx);
        atomicAdd(&sum3[1], sy);
        atomicAdd(&sum3[2], sz);
    }
}

// Per-warp sums and normalisation of a ragged array: the last warp is partial, so its butterfly uses the mask of
// the lanes still active (__activemask) and only takes partners inside it; __syncwarp(mask) around the shared
// partials, __threadfence_block before the block's leader reads them.
extern "C" __global__ void warp_sums_ragged(const float *__restrict__ x, int n, float *__restrict__ warp_sum,
                                            float *__restrict__ y)
{
    __shared__ float partial[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = LANE_ID(), wid = WARP_ID();
    if (i < n) {
        const unsigned mask = __activemask();
        const int cnt = __popc(mask);
        float v = x[i];
        for (int o = 16; o > 0; o >>= 1) {
            const float other = __shfl_xor_sync(mask, v, o);
            if ((lane ^ o) < cnt)
                v += other;
        }
        if (lane == 0) {
            partial[wid] = v;
            __threadfence_block();
            warp_sum[blockIdx.x * (blockDim.x / WARP) + wid] = v;
        }
        __syncwarp(mask);
        const float s = partial[wid];
        y[i] = x[i] / (s != 0.f ? s : 1.f);
    }
}
