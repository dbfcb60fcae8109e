// The fourth held-out batch, part 2: data-processing kernels (stream compaction with a block scan, a segmented
// bitonic sort of 64-bit keys, sparse-matrix bookkeeping with atomics, ELLPACK SpMV, a bitmap BFS step, string
// search, run-length encoding, image downsampling, YUV420 to RGBA, bilinear grid sampling). Written for smemlab's
// truth fixture, before their first recording.
#include "fresh4_common.cuh"

// keep the elements above a threshold, in order: a block scan of the flags a chunk of blockDim.x, the block's
// running offset carried across chunks (one block does the whole array)
extern "C" __global__ void compact_above(float *__restrict__ out, int *__restrict__ out_count,
                                         const float *__restrict__ in, int n, float threshold)
{
    __shared__ int warp_tot[32];
    int base = 0;
    for (int c0 = 0; c0 < n; c0 += blockDim.x) {
        int i = c0 + threadIdx.x;
        float v = i < n ? in[i] : 0.0f;
        int keep = (i < n && v > threshold) ? 1 : 0;
        int total;
        int pos = f4_block_exclusive_scan(keep, warp_tot, total);
        if (keep)
            out[base + pos] = v;
        base += total;
    }
    if (threadIdx.x == 0)
        *out_count = base;
}

// sort each segment of SEG 64-bit keys (a key: score bits high, index low) ascending with a bitonic network in
// shared memory; a block of SEG/2 threads, one compare-exchange a thread a step; segments one after another
template <int SEG>
__global__ void bitonic_segments_u64(unsigned long long *keys, int nseg)
{
    __shared__ unsigned long long s[SEG];
    for (int seg = 0; seg < nseg; seg++) {
        unsigned long long *k = keys + (size_t)seg * SEG;
        s[threadIdx.x] = k[threadIdx.x];
        s[threadIdx.x + SEG / 2] = k[threadIdx.x + SEG / 2];
        __syncthreads();
        for (int size = 2; size <= SEG; size <<= 1) {
            for (int stride = size / 2; stride > 0; stride >>= 1) {
                int t = threadIdx.x;
                int lo = 2 * t - (t & (stride - 1));
                int hi = lo + stride;
                bool up = ((lo & size) == 0);
                unsigned long long a = s[lo], b = s[hi];
                if ((a > b) == up) {
                    s[lo] = b;
                    s[hi] = a;
                }
                __syncthreads();
            }
        }
        k[threadIdx.x] = s[threadIdx.x];
        k[threadIdx.x + SEG / 2] = s[threadIdx.x + SEG / 2];
        __syncthreads();
    }
}
template __global__ void bitonic_segments_u64<128>(unsigned long long *, int);
template __global__ void bitonic_segments_u64<256>(unsigned long long *, int);

// histogram of CSR row lengths in power-of-two buckets (0, 1, 2-3, 4-7, ...): neighbouring row_ptr entries, a
// global integer atomic a row
extern "C" __global__ void csr_rowlen_hist(unsigned int *__restrict__ hist, const int *__restrict__ row_ptr, int rows)
{
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
        int len = row_ptr[r + 1] - row_ptr[r];
        int bucket = len == 0 ? 0 : 32 - __clz(len);
        atomicAdd(hist + bucket, 1u);
    }
}

// COO to CSR, step one: count the entries of each row with atomics on row_counts[row]
extern "C" __global__ void coo_row_count(int *__restrict__ row_counts, const int *__restrict__ coo_rows, int nnz)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nnz; i += blockDim.x * gridDim.x)
        atomicAdd(&row_counts[coo_rows[i]], 1);
}

// ELLPACK SpMV, column-major storage (entry j of row r at j*ld + r), padding entries with column -1
extern "C" __global__ void ell_spmv_colmajor(float *__restrict__ y, const int *__restrict__ ell_cols,
                                             const float *__restrict__ ell_vals, const float *__restrict__ x,
                                             int rows, int width, int ld)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int j = 0; j < width; j++) {
        int c = ell_cols[j * ld + r];
        if (c < 0)
            break;
        s += ell_vals[j * ld + r] * __ldg(x + c);
    }
    y[r] = s;
}

// one top-down BFS step with bitmaps: a thread a vertex tests its frontier bit, walks its CSR neighbours and
// sets those not yet visited in the next frontier with atomicOr (visited is last level's, read only here)
extern "C" __global__ void bfs_bitmap_step(unsigned int *__restrict__ next, const unsigned int *__restrict__ visited,
                                           int *__restrict__ parent, const unsigned int *__restrict__ frontier,
                                           const int *__restrict__ row_ptr, const int *__restrict__ cols, int nv)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nv; v += blockDim.x * gridDim.x) {
        if (!(frontier[v >> 5] & (1u << (v & 31))))
            continue;
        for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
            int u = cols[e];
            unsigned int bit = 1u << (u & 31);
            if (visited[u >> 5] & bit)
                continue;
            atomicOr(&next[u >> 5], bit);
            parent[u] = v;
        }
    }
}

// naive string search: each thread tests whether the pattern starts at its position, byte by byte; matches
// counted with one atomic a warp
extern "C" __global__ void find_pattern(int *__restrict__ match_pos, int *__restrict__ nmatch,
                                        const unsigned char *__restrict__ text, int n,
                                        const unsigned char *__restrict__ pat, int m)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        bool ok = i + m <= n;
        for (int j = 0; ok && j < m; j++)
            ok = text[i + j] == pat[j];
        match_pos[i] = ok ? i : -1;
        unsigned int mask = __ballot_sync(__activemask(), ok);
        if ((threadIdx.x & 31) == __ffs(__activemask()) - 1 && mask)
            atomicAdd(nmatch, __popc(mask));
    }
}

// run-length encoding of a byte stream: heads of runs found by comparing with the previous byte, compacted in
// order with a block scan; then run lengths from the next head (one block does the whole stream)
extern "C" __global__ void rle_encode(unsigned char *__restrict__ run_vals, int *__restrict__ run_starts,
                                      int *__restrict__ run_lens, int *__restrict__ nruns,
                                      const unsigned char *__restrict__ in, int n)
{
    __shared__ int warp_tot[32];
    int base = 0;
    for (int c0 = 0; c0 < n; c0 += blockDim.x) {
        int i = c0 + threadIdx.x;
        int head = i < n && (i == 0 || in[i] != in[i - 1]);
        int total;
        int pos = f4_block_exclusive_scan(head, warp_tot, total);
        if (head) {
            run_starts[base + pos] = i;
            run_vals[base + pos] = in[i];
        }
        base += total;
    }
    __syncthreads();
    for (int r = threadIdx.x; r < base; r += blockDim.x) {
        int end = r + 1 < base ? run_starts[r + 1] : n;
        run_lens[r] = end - run_starts[r];
    }
    if (threadIdx.x == 0)
        *nruns = base;
}

// 2x2 downsampling of an RGBA image (uchar4, pitched in pixels) to an 8-bit gray image of half size
extern "C" __global__ void downsample2x2_gray(unsigned char *__restrict__ dst, int dst_pitch,
                                              const uchar4 *__restrict__ src, int src_pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w / 2 || y >= h / 2)
        return;
    const uchar4 *r0 = src + (2 * y) * src_pitch + 2 * x, *r1 = r0 + src_pitch;
    uchar4 p[4] = {r0[0], r0[1], r1[0], r1[1]};
    float g = 0.0f;
#pragma unroll
    for (int i = 0; i < 4; i++)
        g += 0.299f * p[i].x + 0.587f * p[i].y + 0.114f * p[i].z;
    dst[y * dst_pitch + x] = (unsigned char)(g * 0.25f + 0.5f);
}

// YUV420 planar (I420: a full Y plane, quarter U and V planes, each with its own pitch) to RGBA
extern "C" __global__ void i420_to_rgba(uchar4 *__restrict__ rgba, int rgba_pitch, const unsigned char *__restrict__ Y,
                                        int y_pitch, const unsigned char *__restrict__ U, const unsigned char *__restrict__ V,
                                        int uv_pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float yy = 1.164f * (Y[y * y_pitch + x] - 16);
    float u = U[(y / 2) * uv_pitch + x / 2] - 128.0f;
    float v = V[(y / 2) * uv_pitch + x / 2] - 128.0f;
    float r = yy + 1.596f * v, g = yy - 0.392f * u - 0.813f * v, b = yy + 2.017f * u;
    rgba[y * rgba_pitch + x] = make_uchar4((unsigned char)fminf(fmaxf(r, 0.f), 255.f),
                                           (unsigned char)fminf(fmaxf(g, 0.f), 255.f),
                                           (unsigned char)fminf(fmaxf(b, 0.f), 255.f), 255);
}

// bilinear grid sampling (align_corners=false, border clamp) of a (C, H, W) image at the normalised (x, y) pairs of
// grid[Ho][Wo] (a float2 each), output (C, Ho, Wo)
extern "C" __global__ void grid_sample_bilinear(float *__restrict__ out, const float *__restrict__ img,
                                                const float2 *__restrict__ grid, int C, int H, int W, int Ho, int Wo)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= Wo || oy >= Ho)
        return;
    float2 g = grid[oy * Wo + ox];
    float fx = ((g.x + 1.0f) * W - 1.0f) * 0.5f, fy = ((g.y + 1.0f) * H - 1.0f) * 0.5f;
    fx = fminf(fmaxf(fx, 0.0f), W - 1.0f);
    fy = fminf(fmaxf(fy, 0.0f), H - 1.0f);
    int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
    int x1 = min(x0 + 1, W - 1), y1 = min(y0 + 1, H - 1);
    float ax = fx - x0, ay = fy - y0;
    for (int c = 0; c < C; c++) {
        const float *p = img + (size_t)c * H * W;
        float v = (1 - ay) * ((1 - ax) * p[y0 * W + x0] + ax * p[y0 * W + x1]) +
                  ay * ((1 - ax) * p[y1 * W + x0] + ax * p[y1 * W + x1]);
        out[((size_t)c * Ho + oy) * Wo + ox] = v;
    }
}

// 3x3 box blur of a 16-bit image with clamped edges through the header's clamped read, (8, 8, 4) block: z picks
// one of four images of a batch
extern "C" __global__ void box3_u16_batch(unsigned short *__restrict__ out, const unsigned short *__restrict__ in,
                                          int w, int h, int pitch, int nimg)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    for (int im = threadIdx.z; im < nimg; im += blockDim.z) {
        if (x >= w || y >= h)
            continue;
        const unsigned short *src = in + (size_t)im * pitch * h;
        unsigned int s = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                s += f4_read_clamped(src, x + dx, y + dy, w, h, pitch);
        out[(size_t)im * pitch * h + y * pitch + x] = (unsigned short)(s / 9);
    }
}
