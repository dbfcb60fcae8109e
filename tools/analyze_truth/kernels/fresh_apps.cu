// A held-out batch of application kernels in the style of public code (image processing course labs,
// PMPP's tiles, llm.c's layer norm, a matmul with leading dimensions): pitched 8- and 16-bit images,
// interleaved RGB, halos at misaligned offsets, transposes with other tile shapes, both memories.
#include "fresh_common.cuh"

// ---- images ---------------------------------------------------------------------------------------------

// RGBA (uchar4) to grey, a pitched image (pitch in pixels, not a multiple of 32)
extern "C" __global__ void rgba_to_gray(const uchar4 *rgba, unsigned char *gray, int width, int height, int src_pitch,
                                       int dst_pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        uchar4 p = rgba[y * src_pitch + x];
        gray[y * dst_pitch + x] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
    }
}

// interleaved RGB bytes (3 a pixel) to grey, pitches in bytes
extern "C" __global__ void rgb_to_gray_u8(const unsigned char *rgb, unsigned char *gray, int width, int height,
                                         int src_pitch, int dst_pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        const unsigned char *px = rgb + y * src_pitch + 3 * x;
        float v = 0.299f * px[0] + 0.587f * px[1] + 0.114f * px[2];
        gray[y * dst_pitch + x] = (unsigned char)(v + 0.5f);
    }
}

// the same through a uchar3 pointer, as the course labs write it
extern "C" __global__ void rgb_to_gray_uchar3(const uchar3 *rgb, unsigned char *gray, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        uchar3 p = rgb[y * width + x];
        gray[y * width + x] = (unsigned char)((77 * p.x + 150 * p.y + 29 * p.z) >> 8);
    }
}

// a (2r+1)^2 box blur of an 8-bit image straight from global memory, edges clamped
extern "C" __global__ void box_blur_u8(const unsigned char *in, unsigned char *out, int width, int height, int pitch,
                                      int r)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    int sum = 0;
    for (int dy = -r; dy <= r; ++dy) {
        int yy = clamp_i(y + dy, 0, height - 1);
        for (int dx = -r; dx <= r; ++dx)
            sum += in[yy * pitch + clamp_i(x + dx, 0, width - 1)];
    }
    int area = (2 * r + 1) * (2 * r + 1);
    out[y * pitch + x] = (unsigned char)((sum + area / 2) / area);
}

// a 3x3 mean of a 16-bit image through a shared tile with a one-pixel halo: the tile starts one pixel left of
// and above the block's origin, so its rows start 2 bytes before an aligned address
#define BLUR_TX 32
#define BLUR_TY 8
extern "C" __global__ void blur3_u16_tiled(const unsigned short *in, unsigned short *out, int width, int height,
                                          int pitch)
{
    __shared__ unsigned short tile[BLUR_TY + 2][BLUR_TX + 2];
    int x0 = blockIdx.x * BLUR_TX, y0 = blockIdx.y * BLUR_TY;
    for (int i = threadIdx.y * BLUR_TX + threadIdx.x; i < (BLUR_TX + 2) * (BLUR_TY + 2); i += BLUR_TX * BLUR_TY) {
        int ty = i / (BLUR_TX + 2), tx = i % (BLUR_TX + 2);
        int gx = clamp_i(x0 + tx - 1, 0, width - 1), gy = clamp_i(y0 + ty - 1, 0, height - 1);
        tile[ty][tx] = in[gy * pitch + gx];
    }
    __syncthreads();
    int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x < width && y < height) {
        unsigned s = 0;
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx)
                s += tile[threadIdx.y + dy][threadIdx.x + dx];
        out[y * pitch + x] = (unsigned short)(s / 9);
    }
}

// a 3x3 median filter: each thread's window in a local array, partially selection-sorted
extern "C" __global__ void median3x3_u8(const unsigned char *in, unsigned char *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
        return;
    unsigned char win[9];
    int k = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            win[k++] = in[(y + dy) * width + x + dx];
    for (int i = 0; i < 5; ++i) {
        int m = i;
        for (int j = i + 1; j < 9; ++j)
            if (win[j] < win[m])
                m = j;
        unsigned char t = win[i];
        win[i] = win[m];
        win[m] = t;
    }
    out[y * width + x] = win[4];
}

// ---- transposes of other tile shapes ----------------------------------------------------------------

// 8-bit image transpose through a 32x32 byte tile (block 32x8)
extern "C" __global__ void transpose_u8_tile(const unsigned char *in, unsigned char *out, int width, int height)
{
    __shared__ unsigned char tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// a TILE x TILE float transpose with one thread an element (TILE = 16: half-warp rows), padded or not
template <int TILE, int PAD>
__global__ void transpose_square(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < height && y < width)
        out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
template __global__ void transpose_square<16, 0>(const float *, float *, int, int);
template __global__ void transpose_square<16, 1>(const float *, float *, int, int);

// a 64x16 tile of doubles read by a 16x16 block four columns at a time (a rectangular tile)
extern "C" __global__ void transpose_f64_rect(const double *in, double *out, int width, int height)
{
    __shared__ double tile[16][64 + 1];
    int bx = blockIdx.x * 64, by = blockIdx.y * 16;
    for (int c = threadIdx.x; c < 64; c += 16)
        if (bx + c < width && by + threadIdx.y < height)
            tile[threadIdx.y][c] = in[(by + threadIdx.y) * width + bx + c];
    __syncthreads();
    // out is width x height: row bx + r, columns by .. by + 15
    for (int r = threadIdx.y; r < 64; r += 16)
        if (bx + r < width && by + threadIdx.x < height)
            out[(bx + r) * height + by + threadIdx.x] = tile[threadIdx.x][r];
}

// ---- matmul with leading dimensions ---------------------------------------------------------------------

// C = A B, row-major with leading dimensions, 16x16 shared tiles (K a multiple of 16 not required)
#define MM_T 16
extern "C" __global__ void sgemm_tiled_ld(int M, int N, int K, const float *A, int lda, const float *B, int ldb,
                                         float *C, int ldc)
{
    __shared__ float As[MM_T][MM_T];
    __shared__ float Bs[MM_T][MM_T];
    int row = blockIdx.y * MM_T + threadIdx.y, col = blockIdx.x * MM_T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += MM_T) {
        As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * lda + k0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * ldb + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < MM_T; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * ldc + col] = acc;
}

// ---- llm.c-style layer norm ----------------------------------------------------------------------------

// a warp a row of C floats (C not a multiple of 32): mean, rstd, then the normalised row
extern "C" __global__ void layernorm_warp(float *out, float *mean, float *rstd, const float *inp, const float *weight,
                                         const float *bias, int N, int C)
{
    int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (int row = threadIdx.x / 32; row < N; row += warps) {
        const float *x = inp + row * C;
        float s = 0.0f;
        for (int i = lane; i < C; i += 32)
            s += x[i];
        float m = warp_all_sum(s) / C;
        float v = 0.0f;
        for (int i = lane; i < C; i += 32) {
            float d = x[i] - m;
            v += d * d;
        }
        float r = rsqrtf(warp_all_sum(v) / C + 1e-5f);
        if (lane == 0) {
            mean[row] = m;
            rstd[row] = r;
        }
        float *o = out + row * C;
        for (int i = lane; i < C; i += 32)
            o[i] = (x[i] - m) * r * weight[i] + bias[i];
    }
}

// ---- a matrix column scaled in place, a warp per column of a row-major matrix -------------------------------

// each warp normalises one column of a row-major [rows, ld] matrix: lanes walk down the column (ld apart)
extern "C" __global__ void normalize_columns(float *A, int rows, int cols, int ld)
{
    int lane = threadIdx.x % 32;
    for (int c = threadIdx.x / 32; c < cols; c += blockDim.x / 32) {
        float s = 0.0f;
        for (int r = lane; r < rows; r += 32)
            s += fabsf(A[r * ld + c]);
        s = warp_all_sum(s);
        float inv = s > 0.0f ? 1.0f / s : 0.0f;
        for (int r = lane; r < rows; r += 32)
            A[r * ld + c] *= inv;
    }
}
