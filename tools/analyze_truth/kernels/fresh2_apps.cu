// The second held-out batch, part 2: application kernels as public code writes them (k-means, N-body tiles,
// llm.c's softmax, layer norm backward, AdamW and cross-entropy, CUSP-style CSR SpMV in double precision,
// COO SpMV with atomics, Rodinia's BFS and a queue-based frontier expansion, bilinear resize, a 3-D box filter
// with a 3-D block, a warp-synchronous AoS-to-SoA exchange, a 2-D-block GEMV), for the truth of analyze's
// global and shared counts. One thread block each; loops where the original launches a grid.
#include "fresh2_common.cuh"

// ---- k-means assignment: centroids, per-cluster counts and per-warp costs carved out of dynamic shared memory ----
extern "C" __global__ void kmeans_assign(const float *__restrict__ points, const float *__restrict__ centroids,
                                         int *__restrict__ assignment, int *__restrict__ counts,
                                         unsigned long long *__restrict__ cost, int n, int k, int dims)
{
    extern __shared__ __align__(8) unsigned char smem[];
    const int nWarps = blockDim.x / WARP_SIZE;
    unsigned long long *s_cost = (unsigned long long *)smem;  // one a warp
    float *s_cent = (float *)(s_cost + nWarps);              // k x dims
    int *s_count = (int *)(s_cent + k * dims);                // k
    const int warp = threadIdx.x / WARP_SIZE;
    for (int i = threadIdx.x; i < k * dims; i += blockDim.x)
        s_cent[i] = centroids[i];
    for (int i = threadIdx.x; i < k; i += blockDim.x)
        s_count[i] = 0;
    if (threadIdx.x < nWarps)
        s_cost[threadIdx.x] = 0ull;
    __syncthreads();
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += blockDim.x * gridDim.x) {
        float best = 3.402823e38f;
        int bestC = 0;
        for (int c = 0; c < k; ++c) {
            float d = 0.0f;
            for (int j = 0; j < dims; ++j) {
                float diff = points[p * dims + j] - s_cent[c * dims + j];
                d += diff * diff;
            }
            if (d < best) {
                best = d;
                bestC = c;
            }
        }
        assignment[p] = bestC;
        atomicAdd(&s_count[bestC], 1);
        atomicAdd(&s_cost[warp], (unsigned long long)(best * 1024.0f));  // fixed point: the sum does not depend on order
    }
    __syncthreads();
    for (int c = threadIdx.x; c < k; c += blockDim.x)
        atomicAdd(&counts[c], s_count[c]);
    if (threadIdx.x < nWarps)
        atomicAdd(cost, s_cost[threadIdx.x]);
}

// ---- N-body: body positions (float4: x, y, z, mass) through a shared tile, GPU Gems 3 style ----
__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + 0.01f;
    float invDist = rsqrtf(distSqr);
    float s = bj.w * invDist * invDist * invDist;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

extern "C" __global__ void nbody_tile(const float4 *__restrict__ pos, float4 *__restrict__ vel, int n, float dt)
{
    extern __shared__ float4 shPosition[];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float4 myPos = pos[i];
        float3 acc = make_float3(0.0f, 0.0f, 0.0f);
        for (int tile = 0; tile < n / (int)blockDim.x; tile++) {
            shPosition[threadIdx.x] = pos[tile * blockDim.x + threadIdx.x];
            __syncthreads();
#pragma unroll 4
            for (int j = 0; j < (int)blockDim.x; j++)
                acc = bodyBodyInteraction(myPos, shPosition[j], acc);
            __syncthreads();
        }
        float4 v = vel[i];
        v.x += acc.x * dt;
        v.y += acc.y * dt;
        v.z += acc.z * dt;
        vel[i] = v;
    }
}

// ---- softmax over rows: a warp a row, float4 loads (C a multiple of 4) ----
extern "C" __global__ void softmax_warp_f4(float *__restrict__ out, const float *__restrict__ inp, int N, int C)
{
    const int warpsPerBlock = blockDim.x / 32;
    const int lane = threadIdx.x % 32;
    const int C4 = C / 4;
    for (int row = blockIdx.x * warpsPerBlock + threadIdx.x / 32; row < N; row += warpsPerBlock * gridDim.x) {
        const float4 *x = reinterpret_cast<const float4 *>(inp + (size_t)row * C);
        float4 *y = reinterpret_cast<float4 *>(out + (size_t)row * C);
        float maxval = -__int_as_float(0x7f800000);  // -inf
        for (int i = lane; i < C4; i += 32) {
            float4 v = x[i];
            maxval = fmaxf(maxval, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
        }
        maxval = warpAllReduceMax(maxval);
        float sum = 0.0f;
        for (int i = lane; i < C4; i += 32) {
            float4 v = x[i];
            sum += expf(v.x - maxval) + expf(v.y - maxval) + expf(v.z - maxval) + expf(v.w - maxval);
        }
        sum = warpAllReduceSum(sum);
        const float inv = 1.0f / sum;
        for (int i = lane; i < C4; i += 32) {
            float4 v = __ldcs(x + i);
            y[i] = make_float4(expf(v.x - maxval) * inv, expf(v.y - maxval) * inv, expf(v.z - maxval) * inv,
                               expf(v.w - maxval) * inv);
        }
    }
}

// ---- layer norm backward: a warp a row, dweight/dbias partials per warp in shared memory, summed at the end ----
extern "C" __global__ void layernorm_backward(float *dinp, float *dweight, float *dbias, const float *dout,
                                              const float *inp, const float *weight, const float *mean,
                                              const float *rstd, int N, int C)
{
    extern __shared__ float shared[];
    const int nWarps = blockDim.x / 32;
    const int warpId = threadIdx.x / 32, lane = threadIdx.x % 32;
    float *dbias_shared = shared;                     // nWarps x C
    float *dweight_shared = shared + nWarps * C;      // nWarps x C
    for (int i = threadIdx.x; i < 2 * nWarps * C; i += blockDim.x)
        shared[i] = 0.0f;
    __syncthreads();
    for (int row = warpId; row < N; row += nWarps) {
        const float *dout_bt = dout + row * C;
        const float *inp_bt = inp + row * C;
        float *dinp_bt = dinp + row * C;
        const float mean_bt = mean[row], rstd_bt = rstd[row];
        float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
        for (int i = lane; i < C; i += 32) {
            float norm_bti = (inp_bt[i] - mean_bt) * rstd_bt;
            float dnorm_i = weight[i] * dout_bt[i];
            dnorm_mean += dnorm_i;
            dnorm_norm_mean += dnorm_i * norm_bti;
        }
        dnorm_mean = warpAllReduceSum(dnorm_mean) / C;
        dnorm_norm_mean = warpAllReduceSum(dnorm_norm_mean) / C;
        for (int i = lane; i < C; i += 32) {
            float norm_bti = (inp_bt[i] - mean_bt) * rstd_bt;
            float dnorm_i = weight[i] * dout_bt[i];
            dbias_shared[warpId * C + i] += dout_bt[i];
            dweight_shared[warpId * C + i] += norm_bti * dout_bt[i];
            float dval = dnorm_i - dnorm_mean - norm_bti * dnorm_norm_mean;
            dinp_bt[i] += dval * rstd_bt;
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        float db = 0.0f, dw = 0.0f;
        for (int w = 0; w < nWarps; w++) {
            db += dbias_shared[w * C + i];
            dw += dweight_shared[w * C + i];
        }
        dbias[i] += db;
        dweight[i] += dw;
    }
}

// ---- AdamW step (llm.c): a grid-stride loop over the parameters, four streams in, three out ----
__device__ inline float lerp_(float start, float end, float weight)
{
    return fma(weight, end, fma(-weight, start, start));
}

extern "C" __global__ void adamw_kernel(float *params_memory, const float *grads_memory, float *m_memory, float *v_memory,
                                        long num_parameters, float learning_rate, float beta1, float beta2,
                                        float beta1_correction, float beta2_correction, float eps, float weight_decay)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < num_parameters; i += (long)blockDim.x * gridDim.x) {
        float grad = grads_memory[i];
        float m = lerp_(grad, m_memory[i], beta1);
        m_memory[i] = m;
        float v = lerp_(grad * grad, v_memory[i], beta2);
        v_memory[i] = v;
        m /= beta1_correction;
        v /= beta2_correction;
        params_memory[i] -= learning_rate * (m / (sqrtf(v) + eps) + weight_decay * params_memory[i]);
    }
}

// ---- cross-entropy (llm.c): the probability of each target, and the fused softmax backward ----
extern "C" __global__ void crossentropy_forward(float *losses, const float *probs, const int *targets, int B, int T, int V)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T) {
        int b = i / T, t = i % T;
        const float *probs_bt = probs + b * T * V + t * V;
        int ix = targets[b * T + t];
        losses[b * T + t] = -logf(probs_bt[ix]);
    }
}

extern "C" __global__ void crossentropy_softmax_backward(float *dlogits, const float *dlosses, const float *probs,
                                                         const int *targets, int B, int T, int V)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < B * T * V; i += blockDim.x * gridDim.x) {
        int bt = i / V, v = i % V;
        float p = probs[i];
        float indicator = v == targets[bt] ? 1.0f : 0.0f;
        dlogits[i] += (p - indicator) * dlosses[bt];
    }
}

// ---- CSR SpMV in double precision: a thread a row, and THREADS_PER_VECTOR threads a row (CUSP's vector kernel) ----
extern "C" __global__ void spmv_csr_scalar_f64(int num_rows, const int *__restrict__ Ap, const int *__restrict__ Aj,
                                               const double *__restrict__ Ax, const double *__restrict__ x, double *y)
{
    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < num_rows; row += blockDim.x * gridDim.x) {
        double sum = y[row];
        const int row_start = Ap[row], row_end = Ap[row + 1];
        for (int jj = row_start; jj < row_end; jj++)
            sum += Ax[jj] * x[Aj[jj]];
        y[row] = sum;
    }
}

template <unsigned int THREADS_PER_VECTOR>
__global__ void spmv_csr_vector_f64(int num_rows, const int *__restrict__ Ap, const int *__restrict__ Aj,
                                    const double *__restrict__ Ax, const double *__restrict__ x, double *y)
{
    const int thread_lane = threadIdx.x & (THREADS_PER_VECTOR - 1);
    const int vector_id = (blockIdx.x * blockDim.x + threadIdx.x) / THREADS_PER_VECTOR;
    const int num_vectors = blockDim.x * gridDim.x / THREADS_PER_VECTOR;
    for (int row = vector_id; row < num_rows; row += num_vectors) {
        const int row_start = __ldg(Ap + row), row_end = __ldg(Ap + row + 1);
        double sum = 0.0;
        for (int jj = row_start + thread_lane; jj < row_end; jj += THREADS_PER_VECTOR)
            sum += Ax[jj] * __ldg(x + Aj[jj]);
#pragma unroll
        for (int offset = THREADS_PER_VECTOR / 2; offset > 0; offset /= 2)
            sum += __shfl_xor_sync(0xffffffffu, sum, offset, THREADS_PER_VECTOR);
        if (thread_lane == 0)
            y[row] += sum;
    }
}
template __global__ void spmv_csr_vector_f64<32>(int, const int *, const int *, const double *, const double *, double *);
template __global__ void spmv_csr_vector_f64<8>(int, const int *, const int *, const double *, const double *, double *);

// ---- COO SpMV: one nonzero a thread, accumulated with atomics ----
extern "C" __global__ void spmv_coo_atomic(int nnz, const int *__restrict__ rows, const int *__restrict__ cols,
                                           const float *__restrict__ vals, const float *__restrict__ x, float *y)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += blockDim.x * gridDim.x)
        atomicAdd(&y[rows[k]], vals[k] * x[cols[k]]);
}

// ---- BFS: Rodinia's first kernel (a thread a node, 8-byte node records) ----
struct Node {
    int starting;
    int no_of_edges;
};

extern "C" __global__ void bfs_rodinia(const Node *g_graph_nodes, const int *g_graph_edges, bool *g_graph_mask,
                                       bool *g_updating_graph_mask, const bool *g_graph_visited, int *g_cost, int no_of_nodes)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting; i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

// ---- BFS: a frontier queue expanded a thread a vertex, and a warp a vertex (neighbours strided by lanes) ----
extern "C" __global__ void bfs_expand_thread(const int *__restrict__ frontier, int frontier_size,
                                             const int *__restrict__ row_offsets, const int *__restrict__ col_indices,
                                             const int *__restrict__ labels, int *next_labels, int depth)
{
    for (int f = blockIdx.x * blockDim.x + threadIdx.x; f < frontier_size; f += blockDim.x * gridDim.x) {
        const int v = frontier[f];
        const int begin = row_offsets[v], end = row_offsets[v + 1];
        for (int e = begin; e < end; ++e) {
            const int nbr = col_indices[e];
            if (labels[nbr] < 0)
                next_labels[nbr] = depth + 1;
        }
    }
}

extern "C" __global__ void bfs_expand_warp(const int *__restrict__ frontier, int frontier_size,
                                           const int *__restrict__ row_offsets, const int *__restrict__ col_indices,
                                           const int *__restrict__ labels, int *next_labels, int depth)
{
    const int lane = threadIdx.x & 31;
    const int warps = blockDim.x * gridDim.x / 32;
    for (int f = (blockIdx.x * blockDim.x + threadIdx.x) / 32; f < frontier_size; f += warps) {
        const int v = frontier[f];
        const int begin = row_offsets[v], end = row_offsets[v + 1];
        for (int e = begin + lane; e < end; e += 32) {
            const int nbr = col_indices[e];
            if (labels[nbr] < 0)
                next_labels[nbr] = depth + 1;
        }
    }
}

// ---- bilinear resize of a pitched float image (half-pixel centres, clamped) ----
extern "C" __global__ void resize_bilinear(const float *__restrict__ src, int srcW, int srcH, int srcPitch,
                                           float *__restrict__ dst, int dstW, int dstH, int dstPitch)
{
    const float sx = (float)srcW / dstW, sy = (float)srcH / dstH;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < dstH; y += blockDim.y * gridDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < dstW; x += blockDim.x * gridDim.x) {
            float fx = fmaxf((x + 0.5f) * sx - 0.5f, 0.0f), fy = fmaxf((y + 0.5f) * sy - 0.5f, 0.0f);
            int x0 = min((int)fx, srcW - 1), y0 = min((int)fy, srcH - 1);
            int x1 = min(x0 + 1, srcW - 1), y1 = min(y0 + 1, srcH - 1);
            float ax = fx - x0, ay = fy - y0;
            float top = (1.0f - ax) * src[y0 * srcPitch + x0] + ax * src[y0 * srcPitch + x1];
            float bot = (1.0f - ax) * src[y1 * srcPitch + x0] + ax * src[y1 * srcPitch + x1];
            dst[y * dstPitch + x] = (1.0f - ay) * top + ay * bot;
        }
}

// ---- 3x3x3 box filter: a 3-D block (8, 8, 4) loads its haloed tile with a linear loop ----
#define BX 8
#define BY 8
#define BZ 4
extern "C" __global__ void box3d_27(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz)
{
    __shared__ float tile[BZ + 2][BY + 2][BX + 2];
    const int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1, z0 = blockIdx.z * BZ - 1;
    const int tid = threadIdx.x + BX * (threadIdx.y + BY * threadIdx.z);
    for (int i = tid; i < (BX + 2) * (BY + 2) * (BZ + 2); i += BX * BY * BZ) {
        int lx = i % (BX + 2), ly = (i / (BX + 2)) % (BY + 2), lz = i / ((BX + 2) * (BY + 2));
        int gx = min(max(x0 + lx, 0), nx - 1), gy = min(max(y0 + ly, 0), ny - 1), gz = min(max(z0 + lz, 0), nz - 1);
        tile[lz][ly][lx] = in[(gz * ny + gy) * nx + gx];
    }
    __syncthreads();
    const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y, z = blockIdx.z * BZ + threadIdx.z;
    float s = 0.0f;
#pragma unroll
    for (int dz = 0; dz < 3; dz++)
#pragma unroll
        for (int dy = 0; dy < 3; dy++)
#pragma unroll
            for (int dx = 0; dx < 3; dx++)
                s += tile[threadIdx.z + dz][threadIdx.y + dy][threadIdx.x + dx];
    if (x < nx && y < ny && z < nz)
        out[(z * ny + y) * nx + x] = s * (1.0f / 27.0f);
}

// ---- AoS float3 to SoA: a warp stages 32 points (96 floats) coalesced in its own shared slice, __syncwarp ----
extern "C" __global__ void aos_to_soa_warp(const float *__restrict__ xyz, float *__restrict__ xs, float *__restrict__ ys,
                                           float *__restrict__ zs, int n)
{
    __shared__ float stage[4][3 * 32];  // 4 warps
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warpsTotal = blockDim.x * gridDim.x / 32;
    for (int base = (blockIdx.x * blockDim.x / 32 + warp) * 32; base < n; base += warpsTotal * 32) {
        const int count = min(32, n - base);
#pragma unroll
        for (int c = 0; c < 3; c++) {
            int j = lane + 32 * c;
            if (j < 3 * count)
                stage[warp][j] = xyz[3 * base + j];
        }
        __syncwarp();
        if (lane < count) {
            xs[base + lane] = stage[warp][3 * lane + 0];
            ys[base + lane] = stage[warp][3 * lane + 1];
            zs[base + lane] = stage[warp][3 * lane + 2];
        }
        __syncwarp();
    }
}

// ---- y = A x, A column-major: a 2-D block (32, 4), threadIdx.y splits the columns, partials reduced in shared ----
extern "C" __global__ void gemv_colmajor_2d(int m, int n, const float *__restrict__ A, int lda, const float *__restrict__ x,
                                           float *__restrict__ y)
{
    __shared__ float part[4][32 + 1];
    __shared__ float xs[4][64];
    for (int r0 = blockIdx.x * 32; r0 < m; r0 += 32 * gridDim.x) {
        const int row = r0 + threadIdx.x;
        float acc = 0.0f;
        for (int c0 = 0; c0 < n; c0 += 4 * 64) {
            for (int j = threadIdx.x; j < 64; j += 32) {  // this y-slice's 64 entries of x
                int c = c0 + threadIdx.y * 64 + j;
                xs[threadIdx.y][j] = c < n ? x[c] : 0.0f;
            }
            __syncwarp();
            for (int j = 0; j < 64; j++) {
                int c = c0 + threadIdx.y * 64 + j;
                if (row < m && c < n)
                    acc += A[row + (size_t)c * lda] * xs[threadIdx.y][j];
            }
            __syncwarp();
        }
        part[threadIdx.y][threadIdx.x] = acc;
        __syncthreads();
        if (threadIdx.y == 0 && row < m)
            y[row] = part[0][threadIdx.x] + part[1][threadIdx.x] + part[2][threadIdx.x] + part[3][threadIdx.x];
        __syncthreads();
    }
}
