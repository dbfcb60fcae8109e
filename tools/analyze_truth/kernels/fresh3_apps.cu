// The third held-out batch, systems and application codes: a radix sort's local pass, a merge-path partition,
// reduce-by-key, text scanning with uchar4 loads, a table CRC, a level-scheduled triangular solve, histogram
// equalisation, a half-precision GEMV, __ldg of structs, a ring buffer in shared memory, cell lists, batched
// 4x4 LU in registers/local memory, Bayer demosaicing, llm.c's QKV permute, a 20-byte-cell Euler flux.
#include "fresh3_common.cuh"

// ---- radix sort, one block's local pass over 4-bit digits: shared digit counters, a scan, a stable scatter ------
#define RADIX_BITS 4
#define RADIX 16
extern "C" __global__ void radix_local_pass(const unsigned int *keys_in, unsigned int *keys_out, unsigned int *block_counts,
                                            int n, int shift)
{
    __shared__ unsigned int s_keys[256];
    __shared__ unsigned int s_count[RADIX];
    __shared__ unsigned int s_offset[RADIX];
    int tid = threadIdx.x, base = blockIdx.x * blockDim.x;
    int valid = min((int)blockDim.x, n - base);
    if (tid < RADIX) s_count[tid] = 0;
    __syncthreads();
    unsigned int key = 0, digit = 0;
    if (tid < valid) {
        key = keys_in[base + tid];
        digit = (key >> shift) & (RADIX - 1);
        atomicAdd(&s_count[digit], 1u);
    }
    s_keys[tid] = key;
    __syncthreads();
    if (tid == 0) {  // exclusive scan of 16 counters
        unsigned int run = 0;
        for (int d = 0; d < RADIX; ++d) {
            s_offset[d] = run;
            run += s_count[d];
        }
    }
    if (tid < RADIX) block_counts[tid * gridDim.x + blockIdx.x] = s_count[tid];  // digit-major, as the global scan wants
    __syncthreads();
    if (tid < valid) {
        unsigned int rank = 0;  // stable: the keys before mine with my digit
        for (int j = 0; j < tid; ++j)
            rank += ((s_keys[j] >> shift) & (RADIX - 1)) == digit;
        keys_out[base + s_offset[digit] + rank] = key;
    }
}

// ---- merge path: where each thread's diagonal crosses the merge of two sorted arrays (binary search in global) ---
extern "C" __global__ void merge_path_partition(const int *a, int na, const int *b, int nb, int *a_split, int items_per_thread)
{
    int diag = min((int)(blockIdx.x * blockDim.x + threadIdx.x) * items_per_thread, na + nb);
    int lo = max(0, diag - nb), hi = min(diag, na);
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] <= b[diag - 1 - mid]) lo = mid + 1;
        else hi = mid;
    }
    a_split[blockIdx.x * blockDim.x + threadIdx.x] = lo;
}

// ---- reduce by key over sorted keys: a warp's segmented shuffle scan, the segment's tail adds it to the output -----
extern "C" __global__ void reduce_by_key_warp(const int *keys, const int *vals, int *sums, int n)
{
    int lane = threadIdx.x & 31;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i - lane < n; i += blockDim.x * gridDim.x) {
        bool ok = i < n;
        int k = ok ? keys[i] : -1, v = ok ? vals[i] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            int kv = __shfl_up_sync(FULL_MASK, k, o), vv = __shfl_up_sync(FULL_MASK, v, o);
            if (lane >= o && kv == k) v += vv;
        }
        int knext = __shfl_down_sync(FULL_MASK, k, 1);
        bool tail = ok && (lane == 31 || knext != k);
        if (tail) atomicAdd(&sums[k], v);
    }
}

// ---- text: newlines and words in a byte buffer, four bytes a load, one atomic a block --------------------------
__device__ __forceinline__ bool is_space(unsigned char c) { return c == ' ' || c == '\n' || c == '\t'; }

extern "C" __global__ void count_lines_words(const unsigned char *text, int nbytes, unsigned int *lines, unsigned int *words)
{
    __shared__ int s_l[32], s_w[32];
    int nl = 0, nw = 0;
    int n4 = nbytes / 4;
    const uchar4 *t4 = reinterpret_cast<const uchar4 *>(text);
    for (int i = threadIdx.x; i < n4; i += blockDim.x) {
        uchar4 c = t4[i];
        unsigned char prev = i > 0 ? text[4 * i - 1] : ' ';
        nl += (c.x == '\n') + (c.y == '\n') + (c.z == '\n') + (c.w == '\n');
        nw += (is_space(prev) && !is_space(c.x)) + (is_space(c.x) && !is_space(c.y)) + (is_space(c.y) && !is_space(c.z)) +
              (is_space(c.z) && !is_space(c.w));
    }
    for (int i = 4 * n4 + threadIdx.x; i < nbytes; i += blockDim.x) {  // the tail, a byte at a time
        unsigned char c = text[i], prev = i > 0 ? text[i - 1] : ' ';
        nl += c == '\n';
        nw += is_space(prev) && !is_space(c);
    }
    nl = warp_sum_int(nl);
    nw = warp_sum_int(nw);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) { s_l[warp] = nl; s_w[warp] = nw; }
    __syncthreads();
    if (warp == 0) {
        int nwarps = (blockDim.x + 31) / 32;
        nl = lane < nwarps ? s_l[lane] : 0;
        nw = lane < nwarps ? s_w[lane] : 0;
        nl = warp_sum_int(nl);
        nw = warp_sum_int(nw);
        if (lane == 0) { atomicAdd(lines, (unsigned)nl); atomicAdd(words, (unsigned)nw); }
    }
}

// ---- CRC-32 of fixed-size records, a thread a record, bytewise through a 256-entry table in shared memory ------
extern "C" __global__ void crc32_records(const unsigned char *data, int record_bytes, int nrecords, const unsigned int *table,
                                         unsigned int *crc_out)
{
    __shared__ unsigned int s_table[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) s_table[i] = table[i];
    __syncthreads();
    for (int r = threadIdx.x; r < nrecords; r += blockDim.x) {
        const unsigned char *p = data + (size_t)r * record_bytes;
        unsigned int crc = 0xffffffffu;
        for (int k = 0; k < record_bytes; ++k)
            crc = s_table[(crc ^ p[k]) & 0xff] ^ (crc >> 8);
        crc_out[r] = ~crc;
    }
}

// ---- sparse lower-triangular solve, one level of the schedule: a warp a row, x of solved rows gathered ----------
extern "C" __global__ void sptrsv_level_warp(const int *row_ptr, const int *cols, const float *vals, const float *b, float *x,
                                             const int *level_rows, int level_begin, int level_end)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    int nwarps = blockDim.x * gridDim.x / 32;
    for (int r = level_begin + warp; r < level_end; r += nwarps) {
        int row = level_rows[r];
        int start = row_ptr[row], end = row_ptr[row + 1] - 1;  // the diagonal is the row's last entry
        float s = 0.f;
        for (int j = start + lane; j < end; j += 32)
            s += vals[j] * x[cols[j]];
        s = warp_sum(s);
        if (lane == 0) x[row] = (b[row] - s) / vals[end];
    }
}

// ---- histogram equalisation of an 8-bit image: a shared histogram, its CDF, then the LUT applied 4 pixels a load --
extern "C" __global__ void hist_equalize(const unsigned char *img, unsigned char *out, int width, int height, int pitch)
{
    __shared__ unsigned int hist[256];
    __shared__ unsigned char lut[256];
    int tid = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
    for (int i = tid; i < 256; i += nt) hist[i] = 0;
    __syncthreads();
    for (int y = threadIdx.y; y < height; y += blockDim.y)
        for (int x = threadIdx.x; x < width; x += blockDim.x)
            atomicAdd(&hist[img[y * pitch + x]], 1u);
    __syncthreads();
    if (tid < 32) {  // one warp scans 256 bins, 8 a lane
        unsigned int v[8], run = 0;
        for (int k = 0; k < 8; ++k) { run += hist[tid * 8 + k]; v[k] = run; }
        unsigned int incl = run;
        for (int o = 1; o < 32; o <<= 1) {
            unsigned int t = __shfl_up_sync(FULL_MASK, incl, o);
            if (tid >= o) incl += t;
        }
        unsigned int before = incl - run, total = __shfl_sync(FULL_MASK, incl, 31);
        for (int k = 0; k < 8; ++k)
            lut[tid * 8 + k] = (unsigned char)min(255u, (unsigned)(255.0f * (before + v[k]) / total));
    }
    __syncthreads();
    int w4 = width / 4;
    for (int y = threadIdx.y; y < height; y += blockDim.y)
        for (int x = threadIdx.x; x < w4; x += blockDim.x) {
            uchar4 p = *reinterpret_cast<const uchar4 *>(img + y * pitch + 4 * x);
            *reinterpret_cast<uchar4 *>(out + y * pitch + 4 * x) = make_uchar4(lut[p.x], lut[p.y], lut[p.z], lut[p.w]);
        }
}

// ---- y = A x in half precision, A row-major as half pairs, a warp a row, accumulate in float -----------------------
extern "C" __global__ void hgemv_half2(const half2_t *A, const half2_t *x, unsigned short *y, int rows, int cols2, int lda2)
{
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    for (int r = warp; r < rows; r += nwarps) {
        float acc = 0.f;
        for (int c = lane; c < cols2; c += 32) {
            float2 a = h2_to_f2(A[r * lda2 + c]), b = h2_to_f2(x[c]);
            acc += a.x * b.x + a.y * b.y;
        }
        acc = warp_sum(acc);
        if (lane == 0) y[r] = f_to_h(acc);
    }
}

// ---- __ldg of structs: particles as two float4 through the read-only path; bodies of 4 floats field by field ---
extern "C" __global__ void lj_forces_ldg(const Particle *__restrict__ parts, float4 *__restrict__ force, int n, float cutoff2)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float4 pi = __ldg(&parts[i].posm);
        float3 f = make_float3(0.f, 0.f, 0.f);
        for (int j = 0; j < n; ++j) {
            float4 pj = __ldg(&parts[j].posm);
            float dx = pi.x - pj.x, dy = pi.y - pj.y, dz = pi.z - pj.z;
            float r2 = dx * dx + dy * dy + dz * dz;
            if (j != i && r2 < cutoff2) {
                float ir2 = 1.f / r2, ir6 = ir2 * ir2 * ir2;
                float s = 24.f * ir2 * ir6 * (2.f * ir6 - 1.f);
                f.x += s * dx; f.y += s * dy; f.z += s * dz;
            }
        }
        float q = __ldg(&parts[i].velq.w);
        force[i] = make_float4(f.x, f.y, f.z, q);
    }
}

struct Body { float x, y, z, m; };
extern "C" __global__ void center_of_mass_ldg(const Body *__restrict__ bodies, int n, float4 *partial)
{
    float sx = 0.f, sy = 0.f, sz = 0.f, sm = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float m = __ldg(&bodies[i].m);
        sx += m * __ldg(&bodies[i].x);
        sy += m * __ldg(&bodies[i].y);
        sz += m * __ldg(&bodies[i].z);
        sm += m;
    }
    sx = warp_sum(sx); sy = warp_sum(sy); sz = warp_sum(sz); sm = warp_sum(sm);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = make_float4(sx, sy, sz, sm);
}

// ---- a ring buffer inside one block: warp 0 produces chunks from global, the other warps consume a stage behind -----
#define RING_SLOTS 4
#define CHUNK 128
extern "C" __global__ void ring_pipeline(const float *in, float *out, int nchunks, float scale)
{
    __shared__ float ring[RING_SLOTS][CHUNK];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int consumers = blockDim.x / 32 - 1;
    for (int stage = 0; stage <= nchunks; ++stage) {
        if (warp == 0 && stage < nchunks) {  // produce chunk `stage`
            const float4 *src = reinterpret_cast<const float4 *>(in + stage * CHUNK);
            reinterpret_cast<float4 *>(ring[stage % RING_SLOTS])[lane] = src[lane];
        }
        if (warp > 0 && stage > 0) {  // consume chunk `stage - 1`
            int c = stage - 1;
            for (int k = (warp - 1) * 32 + lane; k < CHUNK; k += consumers * 32) {
                float v = ring[c % RING_SLOTS][k];
                float l = ring[c % RING_SLOTS][(k + CHUNK - 1) % CHUNK];
                out[c * CHUNK + k] = scale * (v - l);
            }
        }
        __syncthreads();
    }
}

// ---- cell lists: a particle's cell from its float3 position (12-byte AoS), counted with global atomics ----------
extern "C" __global__ void cell_count(const float3 *pos, int n, float inv_cell, int ncell, int *cell_of, int *cell_counts)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float3 p = pos[i];
        int cx = min(max((int)(p.x * inv_cell), 0), ncell - 1);
        int cy = min(max((int)(p.y * inv_cell), 0), ncell - 1);
        int cz = min(max((int)(p.z * inv_cell), 0), ncell - 1);
        int c = (cz * ncell + cy) * ncell + cx;
        cell_of[i] = c;
        atomicAdd(&cell_counts[c], 1);
    }
}

// ---- batched 4x4 LU with partial pivoting, a thread a matrix (64-byte records), pivots in a local array ------------
extern "C" __global__ void batched_lu4(float *mats, int *pivots, int batch)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    float a[4][4];
    int piv[4];
    float *m = mats + 16 * b;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) a[r][c] = m[r * 4 + c];
    for (int k = 0; k < 4; ++k) {
        int p = k;
        float best = fabsf(a[k][k]);
        for (int r = k + 1; r < 4; ++r)
            if (fabsf(a[r][k]) > best) { best = fabsf(a[r][k]); p = r; }
        piv[k] = p;
        if (p != k)
            for (int c = 0; c < 4; ++c) { float t = a[k][c]; a[k][c] = a[p][c]; a[p][c] = t; }
        float inv = 1.f / a[k][k];
        for (int r = k + 1; r < 4; ++r) {
            float l = a[r][k] * inv;
            a[r][k] = l;
            for (int c = k + 1; c < 4; ++c) a[r][c] -= l * a[k][c];
        }
    }
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) m[r * 4 + c] = a[r][c];
    for (int k = 0; k < 4; ++k) pivots[4 * b + k] = piv[k];
}

// ---- Bayer RGGB demosaic, bilinear: 8-bit mosaic in, packed 3-byte RGB out, pitches in bytes -----------------------
extern "C" __global__ void demosaic_rggb(const unsigned char *raw, int raw_pitch, uchar3 *rgb, int rgb_pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) return;
    const unsigned char *r0 = raw + (y - 1) * raw_pitch, *r1 = raw + y * raw_pitch, *r2 = raw + (y + 1) * raw_pitch;
    int c = r1[x];
    int cross = (r0[x] + r2[x] + r1[x - 1] + r1[x + 1]) >> 2;
    int diag = (r0[x - 1] + r0[x + 1] + r2[x - 1] + r2[x + 1]) >> 2;
    int horiz = (r1[x - 1] + r1[x + 1]) >> 1, vert = (r0[x] + r2[x]) >> 1;
    uchar3 o;
    bool ye = (y & 1) == 0, xe = (x & 1) == 0;
    if (ye && xe) o = make_uchar3(c, cross, diag);          // red site
    else if (!ye && !xe) o = make_uchar3(diag, cross, c);   // blue site
    else if (ye) o = make_uchar3(horiz, c, vert);           // green on a red row
    else o = make_uchar3(vert, c, horiz);                   // green on a blue row
    uchar3 *row = reinterpret_cast<uchar3 *>(reinterpret_cast<char *>(rgb) + y * rgb_pitch);
    row[x] = o;
}

// ---- llm.c's attention permute: (B, T, 3, NH, HS) into q, k, v of (B, NH, T, HS) -----------------------------------
extern "C" __global__ void permute_qkv(float *q, float *k, float *v, const float *inp, int B, int N, int NH, int d)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < B * NH * N * d) {
        int b = idx / (NH * N * d);
        int rest = idx % (NH * N * d);
        int nh_ = rest / (N * d);
        rest = rest % (N * d);
        int n = rest / d;
        int d_ = rest % d;
        int inp_idx = (b * N * 3 * NH * d) + (n * 3 * NH * d) + (0 * NH * d) + (nh_ * d) + d_;
        q[idx] = __ldg(&inp[inp_idx]);
        k[idx] = __ldg(&inp[inp_idx + NH * d]);
        v[idx] = __ldg(&inp[inp_idx + 2 * (NH * d)]);
    }
}

// ---- 2-D Euler, Rusanov flux across x faces from 20-byte cells read whole and by field ----------------------------
extern "C" __global__ void euler_flux_x(const EulerCell *cells, float *flux, int nx, int ny, float gamma)
{
    for (int j = threadIdx.y; j < ny; j += blockDim.y)
        for (int i = threadIdx.x; i < nx - 1; i += blockDim.x) {
            EulerCell L = cells[j * nx + i];
            float rR = cells[j * nx + i + 1].rho, muR = cells[j * nx + i + 1].mu;
            float ER = cells[j * nx + i + 1].E, pR = cells[j * nx + i + 1].p;
            float uL = L.mu / L.rho, uR = muR / rR;
            float aL = sqrtf(gamma * L.p / L.rho), aR = sqrtf(gamma * pR / rR);
            float s = fmaxf(fabsf(uL) + aL, fabsf(uR) + aR);
            int f = 3 * (j * (nx - 1) + i);
            flux[f + 0] = 0.5f * (L.mu + muR) - 0.5f * s * (rR - L.rho);
            flux[f + 1] = 0.5f * (L.mu * uL + L.p + muR * uR + pR) - 0.5f * s * (muR - L.mu);
            flux[f + 2] = 0.5f * (uL * (L.E + L.p) + uR * (ER + pR)) - 0.5f * s * (ER - L.E);
        }
}
