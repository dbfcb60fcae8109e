// The seventh held-out batch, part 2 (compiled by NVRTC, so no <cuda_fp16.h> or CUB here): OpenCV-style image
// kernels over pitched images (BGR to gray, bilinear resize, remap, erode/dilate on a shared tile with a halo,
// Sobel 3x3, a two-pass integral image, warpAffine with border modes), ATen-style tensor kernels (index_select,
// gather, scatter_add, embedding_bag, max_pool2d with indices, adaptive average pooling, nearest upsampling,
// Welford batch-norm statistics, cross-entropy, a warp-per-row cumsum, a ticketed mean reduction) and
// faiss/cuSPARSE/MAGMA-style kernels (L2 distance tiles, a warp top-k, CSR SpMM, a transposed gemv, a lower
// syrk tile update). Written for smemlab's truth fixture, before its first recording.
#include "fresh7_common.cuh"

// =============================================================================================================
// OpenCV-style image processing (cv::cuda::device flavour: PtrStep images, steps in bytes)
// =============================================================================================================
namespace cvdev {

// BGR (CV_8UC3, packed uchar3) to gray with OpenCV's fixed-point weights (R 0.299, G 0.587, B 0.114 in Q14)
extern "C" __global__ void bgr_to_gray_u8(const uchar3 *__restrict__ src, const size_t src_step,
                                          unsigned char *__restrict__ dst, const size_t dst_step, const int cols,
                                          const int rows)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    const uchar3 p = f7::row_ptr(src, src_step, y)[x];
    const int g = (p.x * 1868 + p.y * 9617 + p.z * 4899 + (1 << 13)) >> 14;
    f7::row_ptr(dst, dst_step, y)[x] = (unsigned char)g;
}

// bilinear resize (INTER_LINEAR with half-pixel centres), replicate at the borders
template <typename T>
__global__ void resize_linear(const T *__restrict__ src, const size_t src_step, const int src_cols,
                              const int src_rows, T *__restrict__ dst, const size_t dst_step, const int dst_cols,
                              const int dst_rows, const float fx, const float fy)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dst_cols || y >= dst_rows)
        return;
    const float sx = (x + 0.5f) * fx - 0.5f;
    const float sy = (y + 0.5f) * fy - 0.5f;
    const int x0 = (int)floorf(sx), y0 = (int)floorf(sy);
    const float ax = sx - x0, ay = sy - y0;
    const int xa = f7::border_replicate(x0, src_cols), xb = f7::border_replicate(x0 + 1, src_cols);
    const T *r0 = f7::row_ptr(src, src_step, f7::border_replicate(y0, src_rows));
    const T *r1 = f7::row_ptr(src, src_step, f7::border_replicate(y0 + 1, src_rows));
    const float top = (float)__ldg(&r0[xa]) * (1.f - ax) + (float)__ldg(&r0[xb]) * ax;
    const float bot = (float)__ldg(&r1[xa]) * (1.f - ax) + (float)__ldg(&r1[xb]) * ax;
    const float v = top * (1.f - ay) + bot * ay;
    T *out = f7::row_ptr(dst, dst_step, y);
    if (sizeof(T) == 1)
        out[x] = (T)f7::saturate_u8(v);
    else
        out[x] = (T)v;
}

// remap of a BGRA image through float maps (map_x, map_y: dst_rows x dst_cols, dense), bilinear, BORDER_CONSTANT
extern "C" __global__ void remap_linear_bgra(const uchar4 *__restrict__ src, const size_t src_step,
                                             const int src_cols, const int src_rows,
                                             const float *__restrict__ map_x, const float *__restrict__ map_y,
                                             uchar4 *__restrict__ dst, const size_t dst_step, const int dst_cols,
                                             const int dst_rows, const unsigned int border_bgra)
{
    const uchar4 border = make_uchar4(border_bgra & 0xFF, (border_bgra >> 8) & 0xFF, (border_bgra >> 16) & 0xFF,
                                      border_bgra >> 24);
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dst_cols || y >= dst_rows)
        return;
    const float mx = map_x[(size_t)y * dst_cols + x];
    const float my = map_y[(size_t)y * dst_cols + x];
    const int x0 = __float2int_rd(mx), y0 = __float2int_rd(my);
    const float ax = mx - x0, ay = my - y0;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int dy = 0; dy < 2; ++dy) {
#pragma unroll
        for (int dx = 0; dx < 2; ++dx) {
            const int xx = x0 + dx, yy = y0 + dy;
            const float w = (dx ? ax : 1.f - ax) * (dy ? ay : 1.f - ay);
            uchar4 p = border;
            if (xx >= 0 && xx < src_cols && yy >= 0 && yy < src_rows)
                p = f7::row_ptr(src, src_step, yy)[xx];
            acc.x += w * p.x;
            acc.y += w * p.y;
            acc.z += w * p.z;
            acc.w += w * p.w;
        }
    }
    f7::row_ptr(dst, dst_step, y)[x] =
        make_uchar4(f7::saturate_u8(acc.x), f7::saturate_u8(acc.y), f7::saturate_u8(acc.z), f7::saturate_u8(acc.w));
}

// erode (min) / dilate (max) with a (2R+1)^2 square, CV_8UC1; a 16x16 block stages its tile and an R-wide halo
// in shared memory; outside the image counts as the neutral value (255 for erode, 0 for dilate)
template <bool DILATE, int R>
__global__ void __launch_bounds__(256) morph_square_u8(const unsigned char *__restrict__ src, const size_t src_step,
                                                       unsigned char *__restrict__ dst, const size_t dst_step,
                                                       const int cols, const int rows)
{
    constexpr int BX = 16, BY = 16, TW = BX + 2 * R, TH = BY + 2 * R;
    __shared__ unsigned char tile[TH][TW];
    const unsigned char neutral = DILATE ? 0 : 255;
    const int x0 = blockIdx.x * BX - R, y0 = blockIdx.y * BY - R;
    const int tid = threadIdx.y * BX + threadIdx.x;
    for (int i = tid; i < TW * TH; i += BX * BY) {
        const int ty = i / TW, tx = i % TW;
        const int gx = x0 + tx, gy = y0 + ty;
        tile[ty][tx] = (gx >= 0 && gx < cols && gy >= 0 && gy < rows) ? f7::row_ptr(src, src_step, gy)[gx] : neutral;
    }
    __syncthreads();
    const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    unsigned char v = neutral;
#pragma unroll
    for (int dy = 0; dy <= 2 * R; ++dy)
#pragma unroll
        for (int dx = 0; dx <= 2 * R; ++dx) {
            const unsigned char p = tile[threadIdx.y + dy][threadIdx.x + dx];
            v = DILATE ? (p > v ? p : v) : (p < v ? p : v);
        }
    f7::row_ptr(dst, dst_step, y)[x] = v;
}

// Sobel 3x3 of a CV_8UC1 image into CV_16S dx and dy, BORDER_REFLECT_101; a 32x8 block, its tile plus a
// one-pixel halo staged as ints
extern "C" __global__ void __launch_bounds__(256) sobel3x3_s16(const unsigned char *__restrict__ src,
                                                               const size_t src_step, short *__restrict__ dx,
                                                               short *__restrict__ dy, const size_t dst_step,
                                                               const int cols, const int rows)
{
    __shared__ int tile[8 + 2][32 + 2];
    const int bx0 = blockIdx.x * 32 - 1, by0 = blockIdx.y * 8 - 1;
    const int tid = threadIdx.y * 32 + threadIdx.x;
    for (int i = tid; i < 10 * 34; i += 256) {
        const int ty = i / 34, tx = i % 34;
        const int gx = f7::border_reflect101(bx0 + tx, cols), gy = f7::border_reflect101(by0 + ty, rows);
        tile[ty][tx] = f7::row_ptr(src, src_step, gy)[gx];
    }
    __syncthreads();
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    const int gx = (tile[ty - 1][tx + 1] + 2 * tile[ty][tx + 1] + tile[ty + 1][tx + 1]) -
                   (tile[ty - 1][tx - 1] + 2 * tile[ty][tx - 1] + tile[ty + 1][tx - 1]);
    const int gy = (tile[ty + 1][tx - 1] + 2 * tile[ty + 1][tx] + tile[ty + 1][tx + 1]) -
                   (tile[ty - 1][tx - 1] + 2 * tile[ty - 1][tx] + tile[ty - 1][tx + 1]);
    f7::row_ptr(dx, dst_step, y)[x] = f7::saturate_s16(gx);
    f7::row_ptr(dy, dst_step, y)[x] = f7::saturate_s16(gy);
}

// integral image, pass 1: a block per image row; sum is (rows+1) x (cols+1) ints with sum_step bytes a row,
// row y+1 gets the inclusive prefix of image row y after a leading zero. Chunks of blockDim.x pixels are scanned
// with warp shuffles and a per-warp total in shared memory, carrying the running sum across chunks.
extern "C" __global__ void integral_rows_u8(const unsigned char *__restrict__ src, const size_t src_step,
                                            int *__restrict__ sum, const size_t sum_step, const int cols,
                                            const int rows)
{
    __shared__ int warp_tot[32];
    __shared__ int carry;
    const int y = blockIdx.x;
    if (y >= rows)
        return;
    const unsigned char *in = f7::row_ptr(src, src_step, y);
    int *out = f7::row_ptr(sum, sum_step, y + 1);
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (threadIdx.x == 0) {
        carry = 0;
        out[0] = 0;
    }
    __syncthreads();
    for (int base = 0; base < cols; base += blockDim.x) {
        const int x = base + threadIdx.x;
        int v = x < cols ? in[x] : 0;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const int n = __shfl_up_sync(F7_FULL_MASK, v, o);
            if (lane >= o)
                v += n;
        }
        if (lane == 31)
            warp_tot[wid] = v;
        __syncthreads();
        int before = carry;
        for (int w = 0; w < wid; ++w)
            before += warp_tot[w];
        v += before;
        if (x < cols)
            out[x + 1] = v;
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1)
            carry = v;
        __syncthreads();
    }
}

// integral image, pass 2: a thread per column of sum walks down the rows adding the row above; row 0 zeroed
extern "C" __global__ void integral_cols(int *__restrict__ sum, const size_t sum_step, const int cols,
                                         const int rows)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x > cols)
        return;
    f7::row_ptr(sum, sum_step, 0)[x] = 0;
    int acc = 0;
    for (int y = 1; y <= rows; ++y) {
        int *p = f7::row_ptr(sum, sum_step, y) + x;
        acc += *p;
        *p = acc;
    }
}

// warpAffine of a CV_8UC3 image: M (2x3, already inverted: dst -> src) read through the read-only path,
// bilinear, border 0 = BORDER_CONSTANT (black), 1 = BORDER_REPLICATE
extern "C" __global__ void warp_affine_bgr(const uchar3 *__restrict__ src, const size_t src_step, const int src_cols,
                                           const int src_rows, uchar3 *__restrict__ dst, const size_t dst_step,
                                           const int dst_cols, const int dst_rows, const float *__restrict__ M,
                                           const int border_mode)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dst_cols || y >= dst_rows)
        return;
    const float sx = __ldg(&M[0]) * x + __ldg(&M[1]) * y + __ldg(&M[2]);
    const float sy = __ldg(&M[3]) * x + __ldg(&M[4]) * y + __ldg(&M[5]);
    const int x0 = __float2int_rd(sx), y0 = __float2int_rd(sy);
    const float ax = sx - x0, ay = sy - y0;
    float3 acc = make_float3(0.f, 0.f, 0.f);
    for (int k = 0; k < 4; ++k) {
        int xx = x0 + (k & 1), yy = y0 + (k >> 1);
        const float w = ((k & 1) ? ax : 1.f - ax) * ((k >> 1) ? ay : 1.f - ay);
        if (border_mode == 1) {
            xx = f7::border_replicate(xx, src_cols);
            yy = f7::border_replicate(yy, src_rows);
        } else if (xx < 0 || xx >= src_cols || yy < 0 || yy >= src_rows) {
            continue;
        }
        const uchar3 p = f7::row_ptr(src, src_step, yy)[xx];
        acc.x += w * p.x;
        acc.y += w * p.y;
        acc.z += w * p.z;
    }
    f7::row_ptr(dst, dst_step, y)[x] = make_uchar3(f7::saturate_u8(acc.x), f7::saturate_u8(acc.y), f7::saturate_u8(acc.z));
}

}  // namespace cvdev

// =============================================================================================================
// ATen-style tensor kernels (at::native flavour: int64 indices, 64-bit offsets, grid-stride loops)
// =============================================================================================================
namespace at_native {

// index_select of a contiguous [n0, n1] float tensor along DIM with an int64 index of length k
template <int DIM>
__global__ void index_select_2d(float *__restrict__ out, const float *__restrict__ self,
                                const int64_t *__restrict__ index, const int64_t n0, const int64_t n1,
                                const int64_t k)
{
    const int64_t out_n1 = DIM == 0 ? n1 : k;
    const int64_t numel = (DIM == 0 ? k : n0) * out_n1;
    F7_KERNEL_LOOP(linear, numel) {
        const int64_t r = linear / out_n1, c = linear % out_n1;
        int64_t src;
        if (DIM == 0)
            src = __ldg(&index[r]) * n1 + c;
        else
            src = r * n1 + __ldg(&index[c]);
        out[linear] = self[src];
    }
}

// torch.gather(self, 1, index) for 3-D tensors with explicit element strides (self may be a strided view)
__global__ void gather_dim1_3d(float *__restrict__ out, const float *__restrict__ self, const int64_t *__restrict__ index,
                               const int64_t size0, const int64_t size1, const int64_t size2,
                               const int64_t self_stride0, const int64_t self_stride1, const int64_t self_stride2)
{
    const int64_t numel = size0 * size1 * size2;  // the index's (and out's) shape, contiguous
    F7_KERNEL_LOOP(linear, numel) {
        const int64_t k = linear % size2;
        const int64_t i = linear / (size1 * size2);
        const int64_t j = __ldcg(&index[linear]);
        out[linear] = self[i * self_stride0 + j * self_stride1 + k * self_stride2];
    }
}

// self.scatter_add_(DIM, index, src) for 2-D contiguous tensors; index and src are [a, b]
template <int DIM>
__global__ void scatter_add_2d(float *__restrict__ self, const int64_t *__restrict__ index, const float *__restrict__ src,
                               const int64_t a, const int64_t b, const int64_t self_size1)
{
    F7_KERNEL_LOOP(linear, a * b) {
        const int64_t i = linear / b, j = linear % b;
        const int64_t t = index[linear];
        float *dst = DIM == 0 ? &self[t * self_size1 + j] : &self[i * self_size1 + t];
        atomicAdd(dst, src[linear]);
    }
}

// embedding_bag(mode="sum") with offsets (include_last_offset=False): a warp per bag (threadIdx.y), lanes over
// the feature dimension; bag_size records each bag's length
__global__ void embedding_bag_sum(float *__restrict__ output, int64_t *__restrict__ bag_size,
                                  const float *__restrict__ weight, const int64_t *__restrict__ indices,
                                  const int64_t *__restrict__ offsets, const int64_t num_indices,
                                  const int64_t num_bags, const int64_t dim)
{
    const int64_t bag = (int64_t)blockIdx.x * blockDim.y + threadIdx.y;
    if (bag >= num_bags)
        return;
    const int64_t begin = offsets[bag];
    const int64_t end = bag + 1 < num_bags ? offsets[bag + 1] : num_indices;
    for (int64_t f = threadIdx.x; f < dim; f += blockDim.x) {
        float acc = 0.f;
        for (int64_t e = begin; e < end; ++e)
            acc += weight[__ldg(&indices[e]) * dim + f];
        output[bag * dim + f] = acc;
    }
    if (threadIdx.x == 0)
        bag_size[bag] = end - begin;
}

// max_pool2d with indices over NCHW (kernel k, stride s, padding p, no dilation); an index is h * W + w
__global__ void max_pool2d_with_indices(float *__restrict__ out, int64_t *__restrict__ indices,
                                        const float *__restrict__ in, const int nc, const int H, const int W,
                                        const int OH, const int OW, const int k, const int s, const int p)
{
    F7_KERNEL_LOOP(linear, (int64_t)nc * OH * OW) {
        const int ow = (int)(linear % OW);
        const int oh = (int)((linear / OW) % OH);
        const int64_t plane = linear / ((int64_t)OW * OH);
        const int hs = oh * s - p, ws = ow * s - p;
        const int he = min(hs + k, H), we = min(ws + k, W);
        const float *pin = in + plane * H * W;
        float best = -INFINITY;
        int64_t best_i = (int64_t)max(hs, 0) * W + max(ws, 0);
        for (int h = max(hs, 0); h < he; ++h)
            for (int w = max(ws, 0); w < we; ++w) {
                const float v = pin[h * W + w];
                if (v > best || isnan(v)) {
                    best = v;
                    best_i = (int64_t)h * W + w;
                }
            }
        out[linear] = best;
        indices[linear] = best_i;
    }
}

// adaptive_avg_pool2d over NCHW: a block per plane (grid-stride over planes), a 2-D block over the output
__global__ void adaptive_avg_pool2d(float *__restrict__ out, const float *__restrict__ in, const int planes,
                                    const int IH, const int IW, const int OH, const int OW)
{
    for (int plane = blockIdx.x; plane < planes; plane += gridDim.x) {
        const float *pin = in + (int64_t)plane * IH * IW;
        float *pout = out + (int64_t)plane * OH * OW;
        for (int oh = threadIdx.y; oh < OH; oh += blockDim.y) {
            const int ih0 = (oh * IH) / OH, ih1 = ((oh + 1) * IH + OH - 1) / OH;
            for (int ow = threadIdx.x; ow < OW; ow += blockDim.x) {
                const int iw0 = (ow * IW) / OW, iw1 = ((ow + 1) * IW + OW - 1) / OW;
                float acc = 0.f;
                for (int ih = ih0; ih < ih1; ++ih)
                    for (int iw = iw0; iw < iw1; ++iw)
                        acc += pin[ih * IW + iw];
                pout[oh * OW + ow] = acc / ((ih1 - ih0) * (iw1 - iw0));
            }
        }
    }
}

// upsample_nearest2d (legacy "nearest": src = floor(dst * in / out)) over NCHW; a 3-D grid, z over planes
__global__ void upsample_nearest2d(float *__restrict__ out, const float *__restrict__ in, const int planes,
                                   const int IH, const int IW, const int OH, const int OW)
{
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    if (ow >= OW || oh >= OH)
        return;
    const float sh = (float)IH / OH, sw = (float)IW / OW;
    const int ih = min((int)floorf(oh * sh), IH - 1);
    const int iw = min((int)floorf(ow * sw), IW - 1);
    for (int plane = blockIdx.z; plane < planes; plane += gridDim.z) {
        const float v = __ldg(&in[((int64_t)plane * IH + ih) * IW + iw]);
        __stcs(&out[((int64_t)plane * OH + oh) * OW + ow], v);
    }
}

// batch-norm training statistics over NCHW: a block per channel, threadIdx.x over H*W and threadIdx.y over N,
// Welford per thread, merged across the warp with shuffles and across warps through shared memory
__global__ void batch_norm_collect_statistics(float *__restrict__ save_mean, float *__restrict__ save_invstd,
                                              const float *__restrict__ input, const int N, const int C,
                                              const int HW, const float eps)
{
    __shared__ float s_mean[32], s_m2[32], s_n[32];
    const int c = blockIdx.x;
    f7::WelfordData acc = {0.f, 0.f, 0.f};
    for (int n = threadIdx.y; n < N; n += blockDim.y) {
        const float *plane = input + ((int64_t)n * C + c) * HW;
        for (int i = threadIdx.x; i < HW; i += blockDim.x)
            acc = f7::welford_push(acc, plane[i]);
    }
    acc = f7::welford_warp(acc);
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int lane = tid & 31, wid = tid >> 5, nw = (blockDim.x * blockDim.y + 31) >> 5;
    if (lane == 0) {
        s_mean[wid] = acc.mean;
        s_m2[wid] = acc.m2;
        s_n[wid] = acc.n;
    }
    __syncthreads();
    if (wid == 0) {
        f7::WelfordData w = {0.f, 0.f, 0.f};
        if (lane < nw) {
            w.mean = s_mean[lane];
            w.m2 = s_m2[lane];
            w.n = s_n[lane];
        }
        w = f7::welford_warp(w);
        if (lane == 0) {
            save_mean[c] = w.mean;
            save_invstd[c] = rsqrtf(w.m2 / w.n + eps);
        }
    }
}

// cross-entropy, a block a row: loss[r] = logsumexp(logits[r]) - logits[r, target[r]] (0 where target is
// ignore_index), and rank[r] = how many logits beat the target's (a top-k accuracy count), counted a warp at a
// time with __reduce_add_sync
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
cross_entropy_fwd(float *__restrict__ loss, int *__restrict__ rank, const float *__restrict__ logits,
                  const int64_t *__restrict__ target, const int64_t V, const int64_t ignore_index)
{
    __shared__ float scratch[32];
    __shared__ int s_rank;
    const int64_t r = blockIdx.x;
    const float *row = logits + r * V;
    const int64_t t = target[r];
    if (threadIdx.x == 0)
        s_rank = 0;
    float m = -INFINITY;
    for (int64_t i = threadIdx.x; i < V; i += BLOCK)
        m = fmaxf(m, row[i]);
    m = f7::block_max(m, scratch);
    float s = 0.f;
    for (int64_t i = threadIdx.x; i < V; i += BLOCK)
        s += __expf(row[i] - m);
    s = f7::block_sum(s, scratch);
    if (t == ignore_index) {
        if (threadIdx.x == 0) {
            loss[r] = 0.f;
            rank[r] = -1;
        }
        return;
    }
    const float xt = row[t];
    unsigned above = 0;
    for (int64_t i = threadIdx.x; i < V; i += BLOCK)
        above += row[i] > xt;
    above = __reduce_add_sync(F7_FULL_MASK, above);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(&s_rank, (int)above);
    __syncthreads();
    if (threadIdx.x == 0) {
        loss[r] = logf(s) + m - xt;
        rank[r] = s_rank;
    }
}

// cumsum along the last dim, a warp a row: 32 columns at a time, an inclusive shuffle scan plus the carry
__global__ void cumsum_lastdim_warp(float *__restrict__ out, const float *__restrict__ in, const int rows,
                                    const int cols)
{
    const int warps = blockDim.x >> 5;
    const int row = blockIdx.x * warps + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const float *src = in + (int64_t)row * cols;
    float *dst = out + (int64_t)row * cols;
    float carry = 0.f;
    for (int base = 0; base < cols; base += 32) {
        const int c = base + lane;
        float v = c < cols ? __ldcs(&src[c]) : 0.f;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const float n = __shfl_up_sync(F7_FULL_MASK, v, o);
            if (lane >= o)
                v += n;
        }
        v += carry;
        if (c < cols)
            dst[c] = v;
        carry = __shfl_sync(F7_FULL_MASK, v, 31);
    }
}

// mean of a weighted per-sample loss over the whole grid: each block reduces its part, parks the partial, and the
// last block to take a ticket adds the partials (read through volatile) and resets the ticket
__global__ void weighted_mean_ticket(float *__restrict__ result, float *partials, unsigned int *ticket,
                                     const float *__restrict__ loss, const float *__restrict__ weight, const int n)
{
    __shared__ float scratch[32];
    __shared__ bool am_last;
    float num = 0.f, den = 0.f;
    F7_KERNEL_LOOP(i, n) {
        const float w = weight[i];
        num += w * loss[i];
        den += w;
    }
    num = f7::block_sum(num, scratch);
    den = f7::block_sum(den, scratch);
    if (threadIdx.x == 0) {
        partials[2 * blockIdx.x] = num;
        partials[2 * blockIdx.x + 1] = den;
        __threadfence();
        const unsigned int v = atomicInc(ticket, gridDim.x);
        am_last = (v == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last) {
        const volatile float *vp = partials;
        float a = 0.f, b = 0.f;
        for (int i = threadIdx.x; i < (int)gridDim.x; i += blockDim.x) {
            a += vp[2 * i];
            b += vp[2 * i + 1];
        }
        a = f7::block_sum(a, scratch);
        b = f7::block_sum(b, scratch);
        if (threadIdx.x == 0) {
            result[0] = a / b;
            *ticket = 0;
        }
    }
}

}  // namespace at_native

// =============================================================================================================
// faiss / cuSPARSE / MAGMA-style kernels
// =============================================================================================================

// squared L2 distances between query rows Q [nq, d] and database rows X [nb, d]: a 16x16 block computes a 16x16
// tile of dist [nq, nb], staging 16-wide slices of d for both sides in one dynamic shared buffer carved into two
// padded tiles. best[q] gets (inverted distance bits << 32 | inverted id) through atomicMax, i.e. the nearest
// database row with the lowest id on ties.
extern "C" __global__ void __launch_bounds__(256) l2_distance_tiles(float *__restrict__ dist,
                                                                    unsigned long long *__restrict__ best,
                                                                    const float *__restrict__ Q,
                                                                    const float *__restrict__ X, const int nq,
                                                                    const int nb, const int d)
{
    constexpr int T = 16, LD = T + 1;
    extern __shared__ __align__(16) unsigned char l2_smem[];
    float *qs = reinterpret_cast<float *>(l2_smem);  // [T][LD]: query row r, dim k at qs[r * LD + k]
    float *xs = qs + T * LD;                         // [T][LD]
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int qi = blockIdx.y * T + ty, xj = blockIdx.x * T + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < d; k0 += T) {
        const int qrow = blockIdx.y * T + ty, xrow = blockIdx.x * T + ty;
        qs[ty * LD + tx] = (qrow < nq && k0 + tx < d) ? Q[(size_t)qrow * d + k0 + tx] : 0.f;
        xs[ty * LD + tx] = (xrow < nb && k0 + tx < d) ? X[(size_t)xrow * d + k0 + tx] : 0.f;
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < T; ++k) {
            const float diff = qs[ty * LD + k] - xs[tx * LD + k];
            acc += diff * diff;
        }
        __syncthreads();
    }
    if (qi < nq && xj < nb) {
        dist[(size_t)qi * nb + xj] = acc;
        const unsigned long long key =
            ((unsigned long long)(~__float_as_uint(acc)) << 32) | (unsigned long long)(~(unsigned)xj);
        atomicMax(&best[qi], key);
    }
}

// k smallest of each row of dist [nq, n], a warp a query: every lane keeps its own K best in registers by
// insertion, then K rounds of a warp-wide arg-min pick the winners and the winning lane pops its head
template <int K>
__global__ void warp_select_topk(float *__restrict__ out_dist, int *__restrict__ out_idx,
                                 const float *__restrict__ dist, const int nq, const int n)
{
    const int lane = threadIdx.x & 31;
    const int q = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (q >= nq)
        return;
    const float *row = dist + (size_t)q * n;
    float v[K];
    int id[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
        v[i] = INFINITY;
        id[i] = -1;
    }
    for (int j = lane; j < n; j += 32) {
        float x = __ldg(&row[j]);
        int xi = j;
        if (x < v[K - 1]) {
#pragma unroll
            for (int i = 0; i < K; ++i) {  // bubble the new value into place
                if (x < v[i]) {
                    const float tv = v[i];
                    const int ti = id[i];
                    v[i] = x;
                    id[i] = xi;
                    x = tv;
                    xi = ti;
                }
            }
        }
    }
    for (int r = 0; r < K; ++r) {
        float bv = v[0];
        int bl = lane;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(F7_FULL_MASK, bv, o);
            const int ol = __shfl_xor_sync(F7_FULL_MASK, bl, o);
            if (ov < bv || (ov == bv && ol < bl)) {
                bv = ov;
                bl = ol;
            }
        }
        const int bid = __shfl_sync(F7_FULL_MASK, id[0], bl);
        if (lane == 0) {
            out_dist[(size_t)q * K + r] = bv;
            out_idx[(size_t)q * K + r] = bid;
        }
        if (lane == bl) {
#pragma unroll
            for (int i = 0; i < K - 1; ++i) {
                v[i] = v[i + 1];
                id[i] = id[i + 1];
            }
            v[K - 1] = INFINITY;
            id[K - 1] = -1;
        }
    }
}

// C [m, n] = A (CSR, m rows) * B [k, n] (row-major, ldb), a warp a row: the warp loads 32 (column, value) pairs of
// the row at a time and broadcasts them with shuffles; lanes cover 32 columns of C per pass
extern "C" __global__ void csr_spmm_warp_row(float *__restrict__ C, const int ldc, const int *__restrict__ row_ptr,
                                             const int *__restrict__ col_ind, const float *__restrict__ val,
                                             const float *__restrict__ B, const int ldb, const int m, const int n)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (row >= m)
        return;
    const int start = row_ptr[row], end = row_ptr[row + 1];
    for (int c0 = 0; c0 < n; c0 += 32) {
        const int c = c0 + lane;
        float acc = 0.f;
        for (int e0 = start; e0 < end; e0 += 32) {
            const int e = e0 + lane;
            const int my_col = e < end ? __ldg(&col_ind[e]) : 0;
            const float my_val = e < end ? __ldg(&val[e]) : 0.f;
            const int cnt = min(32, end - e0);
            for (int t = 0; t < cnt; ++t) {
                const int kc = __shfl_sync(F7_FULL_MASK, my_col, t);
                const float kv = __shfl_sync(F7_FULL_MASK, my_val, t);
                if (c < n)
                    acc += kv * B[(size_t)kc * ldb + c];
            }
        }
        if (c < n)
            C[(size_t)row * ldc + c] = acc;
    }
}

// y = alpha * A^T x + beta * y with A column-major (m x n, lda): a block of NT threads takes TN columns; each
// thread walks rows tid, tid + NT, ... for all TN columns, then the block reduces each column's NT partials in
// shared memory, the last warp's steps through a volatile pointer (the classic warp-synchronous tail)
template <int NT, int TN>
__global__ void __launch_bounds__(NT) gemvt_shared_reduce(const int m, const int n, const float alpha,
                                                         const float *__restrict__ A, const int lda,
                                                         const float *__restrict__ x, const float beta,
                                                         float *__restrict__ y)
{
    __shared__ float sdata[TN][NT];
    const int tid = threadIdx.x;
    const int j0 = blockIdx.x * TN;
    float part[TN];
#pragma unroll
    for (int c = 0; c < TN; ++c)
        part[c] = 0.f;
    for (int i = tid; i < m; i += NT) {
        const float xi = x[i];
#pragma unroll
        for (int c = 0; c < TN; ++c)
            if (j0 + c < n)
                part[c] += A[(size_t)(j0 + c) * lda + i] * xi;
    }
#pragma unroll
    for (int c = 0; c < TN; ++c)
        sdata[c][tid] = part[c];
    __syncthreads();
    for (int s = NT / 2; s > 32; s >>= 1) {
        if (tid < s) {
#pragma unroll
            for (int c = 0; c < TN; ++c)
                sdata[c][tid] += sdata[c][tid + s];
        }
        __syncthreads();
    }
    if (tid < 32) {
#pragma unroll
        for (int c = 0; c < TN; ++c) {
            volatile float *sv = sdata[c];
            sv[tid] += sv[tid + 32];
            __syncwarp();
            sv[tid] += sv[tid + 16];
            __syncwarp();
            sv[tid] += sv[tid + 8];
            __syncwarp();
            sv[tid] += sv[tid + 4];
            __syncwarp();
            sv[tid] += sv[tid + 2];
            __syncwarp();
            sv[tid] += sv[tid + 1];
            __syncwarp();
        }
    }
    if (tid < TN && j0 + tid < n)
        y[j0 + tid] = alpha * sdata[tid][0] + beta * y[j0 + tid];
}

// lower triangle of C (n x n, ldc) = alpha * A A^T + beta * C for A (n x k, row-major, lda): one 16x16 block per
// lower tile, tiles numbered row by row (blockIdx.x -> (bi, bj), bj <= bi); 16x16 slices of A for the tile's rows
// and columns in padded shared tiles
extern "C" __global__ void __launch_bounds__(256) syrk_lower_tiles(float *__restrict__ C, const int ldc,
                                                                   const float *__restrict__ A, const int lda,
                                                                   const int n, const int k, const float alpha,
                                                                   const float beta)
{
    __shared__ float Ai[16][16 + 1];
    __shared__ float Aj[16][16 + 1];
    int bi = 0, t = blockIdx.x;
    while (t > bi) {
        t -= bi + 1;
        ++bi;
    }
    const int bj = t;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = bi * 16 + ty, col = bj * 16 + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < k; k0 += 16) {
        const int ri = bi * 16 + ty, rj = bj * 16 + ty;
        Ai[ty][tx] = (ri < n && k0 + tx < k) ? A[(size_t)ri * lda + k0 + tx] : 0.f;
        Aj[ty][tx] = (rj < n && k0 + tx < k) ? A[(size_t)rj * lda + k0 + tx] : 0.f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 16; ++kk)
            acc += Ai[ty][kk] * Aj[tx][kk];
        __syncthreads();
    }
    if (row < n && col < n && col <= row) {
        float *c = &C[(size_t)row * ldc + col];
        *c = alpha * acc + beta * *c;
    }
}

#if !defined(__CUDACC_RTC__)
// host-side launch helpers for builds with nvcc (the JIT path compiles only the kernels above)
#include <cuda_runtime.h>
inline void launch_bgr_to_gray(const uchar3 *src, size_t src_step, unsigned char *dst, size_t dst_step, int cols,
                               int rows, cudaStream_t stream)
{
    const dim3 block(32, 8);
    const dim3 grid(F7_DIV_UP(cols, 32), F7_DIV_UP(rows, 8));
    cvdev::bgr_to_gray_u8<<<grid, block, 0, stream>>>(src, src_step, dst, dst_step, cols, rows);
}
inline void launch_topk8(float *out_dist, int *out_idx, const float *dist, int nq, int n, cudaStream_t stream)
{
    warp_select_topk<8><<<F7_DIV_UP(nq, 4), 128, 0, stream>>>(out_dist, out_idx, dist, nq, n);
}
#endif
