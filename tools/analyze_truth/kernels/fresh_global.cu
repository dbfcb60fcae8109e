// A held-out batch of kernels in the style of public CUDA code (samples, course labs, BLAS-like helpers,
// N-body and mesh codes, llm.c), written for the truth of analyze's global-memory counts: structs of
// 8 to 32 bytes, runtime strides and leading dimensions, partial warps, vector types at runtime offsets,
// the read-only path, gathers and scatters, global atomics, grid-stride loops and local memory.
#include "fresh_common.cuh"  // (NVRTC from its pip wheel has no cuda_fp16.h: the 16-bit pairs are its own)

// ---- structs ------------------------------------------------------------------------------------------

// leapfrog step of an N-body code: the 32-byte particle read and written field by field
extern "C" __global__ void particles_integrate(Particle *p, const float3 *force, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float inv_m = 1.0f / p[i].mass;
    float3 f = force[i];
    p[i].vel.x += dt * f.x * inv_m;
    p[i].vel.y += dt * f.y * inv_m;
    p[i].vel.z += dt * f.z * inv_m;
    p[i].pos.x += dt * p[i].vel.x;
    p[i].pos.y += dt * p[i].vel.y;
    p[i].pos.z += dt * p[i].vel.z;
}

// the same quantity from an array of structs and from a structure of arrays, side by side
extern "C" __global__ void kinetic_energy_aos_soa(const Particle *aos, const float *vx, const float *vy,
                                                  const float *vz, const float *mass, float *e_aos, float *e_soa, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Particle q = aos[i];  // the whole struct
        e_aos[i] = 0.5f * q.mass * (q.vel.x * q.vel.x + q.vel.y * q.vel.y + q.vel.z * q.vel.z);
        float x = vx[i], y = vy[i], z = vz[i];
        e_soa[i] = 0.5f * mass[i] * (x * x + y * y + z * z);
    }
}

// positions as float3 (12 bytes): subtract the centroid
extern "C" __global__ void center_positions(const float3 *pos, float3 *out, const float *centroid, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float cx = centroid[0], cy = centroid[1], cz = centroid[2];
    if (i < n) {
        float3 p = pos[i];
        out[i] = make_float3(p.x - cx, p.y - cy, p.z - cz);
    }
}

// a mesh's vertices (24 bytes): copy the position, renormalise the normal
extern "C" __global__ void renormalize_vertices(const Vertex *in, Vertex *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Vertex v = in[i];
        float len = sqrtf(v.normal.x * v.normal.x + v.normal.y * v.normal.y + v.normal.z * v.normal.z);
        float s = len > 0.0f ? 1.0f / len : 0.0f;
        v.normal.x *= s;
        v.normal.y *= s;
        v.normal.z *= s;
        out[i] = v;
    }
}

// 20-byte records unpacked into an id array and a float4 array
extern "C" __global__ void unpack_records(const Record20 *rec, int *ids, float4 *xyzw, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        ids[i] = rec[i].id;
        xyzw[i] = make_float4(rec[i].x, rec[i].y, rec[i].z, rec[i].w);
    }
}

// key-value pairs (8 bytes) split into two arrays, the pair read whole
extern "C" __global__ void split_pairs(const KeyVal *kv, int *keys, float *vals, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        KeyVal e = kv[i];
        keys[i] = e.key;
        vals[i] = e.val;
    }
}

// ---- strides and leading dimensions -----------------------------------------------------------------

// BLAS saxpy with increments, grid-stride loop
extern "C" __global__ void saxpy_inc(int n, float a, const float *x, int incx, float *y, int incy)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i * incy] = a * x[i * incx] + y[i * incy];
}

// y = A x, A column-major with leading dimension lda: a thread a row (coalesced down the columns)
extern "C" __global__ void gemv_n_colmajor(int m, int n, const float *A, int lda, const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float acc = 0.0f;
        for (int j = 0; j < n; ++j)
            acc += A[IDX2C(row, j, lda)] * x[j];
        y[row] = acc;
    }
}

// y = A^T x, A column-major: a thread a column, so neighbouring lanes are lda floats apart
extern "C" __global__ void gemv_t_colmajor(int m, int n, const float *A, int lda, const float *x, float *y)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < n) {
        float acc = 0.0f;
        for (int i = 0; i < m; ++i)
            acc += A[IDX2C(i, col, lda)] * x[i];
        y[col] = acc;
    }
}

// centred z-derivative of a 3-D field (x fastest): planes nx*ny apart, each thread walks its z column
extern "C" __global__ void ddz_central(const float *f, float *dfdz, int nx, int ny, int nz, float inv_2dz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;
    int plane = nx * ny;
    for (int z = 1; z < nz - 1; ++z) {
        int idx = z * plane + y * nx + x;
        dfdz[idx] = (f[idx + plane] - f[idx - plane]) * inv_2dz;
    }
}

// heat equation with a conductivity field: a 7-point stencil on a padded 3-D grid, one 3-D block
// covering the interior (pitch: floats a row, slice: floats a plane)
extern "C" __global__ void heat7_variable(const float *u, const float *kappa, float *unew, int nx, int ny, int nz,
                                          int pitch, int slice, float dt)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
    int z = blockIdx.z * blockDim.z + threadIdx.z + 1;
    if (x > nx || y > ny || z > nz)
        return;
    int c = z * slice + y * pitch + x;
    float lap = u[c - 1] + u[c + 1] + u[c - pitch] + u[c + pitch] + u[c - slice] + u[c + slice] - 6.0f * u[c];
    unew[c] = u[c] + dt * kappa[c] * lap;
}

// ---- partial warps and bounds ----------------------------------------------------------------------------

// bias and ReLU over a [n / C, C] activation, any block size (48, 96, 100, 200 threads)
extern "C" __global__ void bias_relu(const float *x, const float *bias, float *y, int n, int C)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i] + bias[i % C];
        y[i] = v > 0.0f ? v : 0.0f;
    }
}

// ---- vector types -----------------------------------------------------------------------------------------

// y += a x on float4s from a runtime offset (in float4 units, so the loads stay aligned)
extern "C" __global__ void axpy_f4_offset(const float4 *x, float4 *y, float a, int off4, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 xv = x[off4 + i];
        float4 yv = y[off4 + i];
        yv.x += a * xv.x;
        yv.y += a * xv.y;
        yv.z += a * xv.z;
        yv.w += a * xv.w;
        y[off4 + i] = yv;
    }
}

// pointwise complex product in double precision (double2 = 16 bytes), from an offset
extern "C" __global__ void zmul_double2(const double2 *a, const double2 *b, double2 *c, int n, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double2 p = a[off + i], q = b[i];
        c[i] = make_double2(p.x * q.x - p.y * q.y, p.x * q.y + p.y * q.x);
    }
}

// int4 copy of a buffer of n4 16-byte words, offset at both ends
extern "C" __global__ void copy_int4_offset(const int4 *src, int4 *dst, int src_off, int dst_off, int n4)
{
    for (int i = threadIdx.x; i < n4; i += blockDim.x)
        dst[dst_off + i] = src[src_off + i];
}

// tanh-approximation GELU on half2 pairs, as fused elementwise kernels write it
extern "C" __global__ void gelu_half2(const half2_t *in, half2_t *out, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        float2 v = half2_to_float2(in[i]);
        const float k = 0.7978845608f;
        float gx = 0.5f * v.x * (1.0f + tanhf(k * (v.x + 0.044715f * v.x * v.x * v.x)));
        float gy = 0.5f * v.y * (1.0f + tanhf(k * (v.y + 0.044715f * v.y * v.y * v.y)));
        out[i] = float2_to_half2(gx, gy);
    }
}

// RMS norm of bfloat16 rows, a warp a row, the row read as bfloat16 pairs (cols2 pairs a row)
extern "C" __global__ void rmsnorm_bf16x2(const bf162_t *x, const bf162_t *w, bf162_t *y, int rows, int cols2,
                                          float eps)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int nwarps = blockDim.x / 32;
    for (int r = warp; r < rows; r += nwarps) {
        const bf162_t *xr = x + (size_t)r * cols2;
        float ss = 0.0f;
        for (int c = lane; c < cols2; c += 32) {
            float2 v = bf162_to_float2(xr[c]);
            ss += v.x * v.x + v.y * v.y;
        }
        ss = warp_all_sum(ss);
        float inv = rsqrtf(ss / (2 * cols2) + eps);
        for (int c = lane; c < cols2; c += 32) {
            float2 v = bf162_to_float2(xr[c]);
            float2 g = bf162_to_float2(w[c]);
            y[(size_t)r * cols2 + c] = float2_to_bf162(v.x * inv * g.x, v.y * inv * g.y);
        }
    }
}

// ---- read-only path ------------------------------------------------------------------------------------

// bias add on float4 through __ldg (ld.global.nc.v4), C4 float4s a row
extern "C" __global__ void bias_add_ldg_f4(const float4 *__restrict__ in, const float4 *__restrict__ bias,
                                           float4 *__restrict__ out, int n4, int C4)
{
    for (int i = threadIdx.x; i < n4; i += blockDim.x) {
        float4 v = __ldg(&in[i]);
        float4 b = __ldg(&bias[i % C4]);
        out[i] = make_float4(v.x + b.x, v.y + b.y, v.z + b.z, v.w + b.w);
    }
}

// linear blend of two images through const __restrict__ pointers, a 2-D block over a pitched image
extern "C" __global__ void blend_restrict(const float *__restrict__ a, const float *__restrict__ b,
                                          float *__restrict__ out, int width, int height, int pitch, float t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int i = y * pitch + x;
        out[i] = (1.0f - t) * a[i] + t * b[i];
    }
}

// ---- gathers and scatters ---------------------------------------------------------------------------------

// ELLPACK SpMV, column-major slots (cols == -1: padding), a thread a row
extern "C" __global__ void spmv_ell(const int *cols, const float *vals, const float *x, float *y, int rows, int width)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.0f;
        for (int k = 0; k < width; ++k) {
            int c = cols[k * rows + row];
            if (c >= 0)
                dot += vals[k * rows + row] * x[c];
        }
        y[row] = dot;
    }
}

// llm.c's encoder: out[t, c] = wte[token[t], c] + wpe[t, c], one thread an element
extern "C" __global__ void encoder_forward(float *out, const int *tokens, const float *wte, const float *wpe, int T, int C)
{
    for (int idx = threadIdx.x; idx < T * C; idx += blockDim.x) {
        int t = idx / C, c = idx % C;
        out[idx] = wte[tokens[t] * C + c] + wpe[t * C + c];
    }
}

// a permutation applied as a scatter
extern "C" __global__ void permute_scatter(const float *in, const int *perm, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[perm[i]] = in[i];
}

// ---- global atomics -------------------------------------------------------------------------------------

// a byte histogram straight into global bins (no privatisation): the data cluster on a few bins
extern "C" __global__ void histo_global_u8(const unsigned char *data, int n, unsigned int *bins)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

// each element added into its warp's slot: 32 lanes on one float
extern "C" __global__ void per_warp_atomic_sum(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&out[i / 32], in[i]);
}

// integer min/max/exchange/compare-and-swap: bounds of the data, a last writer a bucket, and a claim on a key
// slot (owner starts at -1, one attempt each; what the claim found is kept)
extern "C" __global__ void int_atomics_mix(const int *vals, int n, int *lo, int *hi, int *last, int *owner, int slots,
                                           int *found)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int v = vals[i];
        atomicMin(lo, v);
        atomicMax(hi, v);
        atomicExch(&last[v & 63], i);
        found[i] = atomicCAS(&owner[v % slots], -1, i);
    }
}

// per-segment sums in double precision: x[i] into sums[seg[i]]
extern "C" __global__ void segment_sum_f64(const double *x, const int *seg, double *sums, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        atomicAdd(&sums[seg[i]], x[i]);
}

// ---- reductions -------------------------------------------------------------------------------------------

// grid-stride sum: shared tree, then one atomicAdd a block
extern "C" __global__ void sum_gridstride_atomic(const float *in, float *total, int n)
{
    __shared__ float partial[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += in[i];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, partial[0]);
}

// shuffle reduction over a grid-stride loop, lane 0 of each warp writes its partial (a second pass would
// add them)
extern "C" __global__ void warp_partials(const float *in, float *partials, int n)
{
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += in[i] * in[i];
    acc = warp_sum(acc);
    if ((threadIdx.x & 31) == 0)
        partials[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = acc;
}

// ---- local memory -----------------------------------------------------------------------------------------

// a per-thread nibble histogram of 16 counters, indexed by the data
extern "C" __global__ void nibble_histogram_local(const unsigned *words, unsigned *out, int n_per_thread)
{
    unsigned counts[16];
    for (int b = 0; b < 16; ++b)
        counts[b] = 0;
    const unsigned *w = words + threadIdx.x * n_per_thread;
    for (int k = 0; k < n_per_thread; ++k) {
        unsigned v = w[k];
        for (int s = 0; s < 32; s += 4)
            counts[(v >> s) & 15]++;
    }
    unsigned best = 0, arg = 0;
    for (int b = 0; b < 16; ++b)
        if (counts[b] > best) {
            best = counts[b];
            arg = b;
        }
    out[threadIdx.x] = (arg << 16) | best;
}

// an FIR filter whose settings each thread copies from global memory into a local struct
extern "C" __global__ void fir_params_local(const FilterParams *params, const float *in, float *out, int n)
{
    FilterParams p = *params;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + p.taps <= n) {
        float acc = 0.0f;
        for (int k = 0; k < p.taps; ++k)
            acc += p.coef[k] * in[i + k];
        out[i] = p.gain * acc + p.bias;
    }
}

// ---- byte buffers ---------------------------------------------------------------------------------------

// a byte copy between unaligned offsets of two char buffers
extern "C" __global__ void copy_bytes_offset(const char *src, char *dst, int src_off, int dst_off, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        dst[dst_off + i] = src[src_off + i];
}

// packed 12-byte headers parsed with memcpy at byte offsets (a network or file format), then 16-bit payloads
struct PacketHeader {
    unsigned short kind;
    unsigned short length;
    unsigned int seq;
    float scale;
};

extern "C" __global__ void parse_packets(const unsigned char *stream, const int *offsets, float *scaled, int npackets)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < npackets) {
        PacketHeader h;
        memcpy(&h, stream + offsets[i], sizeof(PacketHeader));
        short first;
        memcpy(&first, stream + offsets[i] + sizeof(PacketHeader), sizeof(short));
        scaled[i] = h.scale * (float)first + (float)(h.kind + h.length) + (float)(h.seq & 7);
    }
}

// 16-bit samples widened and summed in pairs, a short2 a thread from an odd element offset
extern "C" __global__ void widen_short_pairs(const short *in, int *out, int off, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (int)in[off + 2 * i] + (int)in[off + 2 * i + 1];
}
