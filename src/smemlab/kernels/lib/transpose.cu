// smemlab.ops.transpose: out (cols x rows) = in (rows x cols)^T, 4-byte elements (float32/int32).
//
// transpose_v4 (rows % 4 == 0, cols % 4 == 0, 16-byte aligned pointers): one 64x64 tile per block
// of 256 threads. Thread t owns column chunk c = t % 16 (4 floats) of input rows 4g..4g+3
// (g = t / 16): four 16-byte loads in flight (a warp reads 2 rows x 256 contiguous bytes per
// load). A 4x4 transpose in registers turns them into four 16-byte pieces of output rows
// 4c..4c+3, stored into the shared tile, which is laid out output-row-major, 16 chunks of 16 B per
// row, chunk q of row j stored at chunk q ^ ((j >> 2) & 7) (XOR swizzle). Bank model, per quarter
// warp (8 lanes x 16 B = one wavefront when the 8 chunks hit distinct 16-byte bank groups):
//   store: lanes c = 0..7 (same g) write row j = 4c + m, chunk g -> group (g ^ c) & 7: distinct;
//   load : lanes c = 0..7 (same j) read row j, chunk c -> group (c ^ (j >> 2)) & 7: distinct.
// Without the swizzle the stores would be 8-way conflicted (row pitch 256 B = 2 x 128 B).
// Then each thread reads four 16-byte chunks of output rows g, g+16, g+32, g+48 and stores them:
// 256 contiguous bytes per output row and half warp. Edge tiles are bounds-checked per chunk
// (whole chunks are in or out because rows and cols are multiples of 4). 64-bit indexing.
//
// transpose_s1 (any shape, any alignment): the classic 32x32 tile padded to 33 columns,
// 32x8 threads, 4 elements per thread, bounds-checked.
typedef long long i64;

#define T4 64
#ifndef MINB
#define MINB 1
#endif
// The order in which blocks take the tiles: 0 row-major (consecutive blocks along a band of input
// rows), 1 column-major (down a band of input columns: the blocks in flight write neighbouring
// output rows), 2 diagonal, 3 bands of 8 tile rows walked column by column. Column-major is the
// default: on an H200 (tools/transpose_sweep.py, of cudaMemcpy on the same bytes) it moved
// 16384^2 0.971 (row-major 0.943), 12000x7000 0.922 (0.891), 7000x12000 0.952 (0.891), 8192^2 0.974
// (0.951), 4096^2 0.957 (0.955); diagonal and banded orders were no better than row-major, and the
// occupancy hint (MINB) changed nothing.
#ifndef ORDER
#define ORDER 1
#endif
__device__ __forceinline__ float comp(const float4 &v, int m)
{
    return m == 0 ? v.x : m == 1 ? v.y : m == 2 ? v.z : v.w;
}

extern "C" __global__ void __launch_bounds__(256, MINB) transpose_v4(float *__restrict__ out, const float *__restrict__ in,
                                                              i64 rows, i64 cols, i64 tiles_x, i64 ntiles)
{
    __shared__ float4 tile[T4 * (T4 / 4)];
    const int t = threadIdx.x;
    const int c = t & 15;
    const int g = t >> 4;
    for (i64 k = blockIdx.x; k < ntiles; k += gridDim.x) {
        i64 ty, tx;
#if ORDER == 1
        const i64 tiles_y = ntiles / tiles_x;
        tx = k / tiles_y;
        ty = k - tx * tiles_y;
#elif ORDER == 2
        ty = k / tiles_x;
        tx = (k - ty * tiles_x + ty) % tiles_x;
#elif ORDER == 3
        const i64 tiles_y = ntiles / tiles_x, band = k / (8 * tiles_x), rem = k - band * 8 * tiles_x;
        const i64 rows_in = tiles_y - band * 8 < 8 ? tiles_y - band * 8 : 8;
        tx = rem / rows_in;
        ty = band * 8 + rem - tx * rows_in;
#else
        ty = k / tiles_x;
        tx = k - ty * tiles_x;
#endif
        const i64 r0 = ty * T4, c0 = tx * T4;
        const i64 col = c0 + 4 * c;
        float4 v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const i64 row = r0 + 4 * g + u;
            v[u] = (col < cols && row < rows) ? __ldg(reinterpret_cast<const float4 *>(in + row * cols + col))
                                              : make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int m = 0; m < 4; ++m) {
            const int j = 4 * c + m;  // output row within the tile (= input column)
            tile[j * 16 + (g ^ ((j >> 2) & 7))] = make_float4(comp(v[0], m), comp(v[1], m), comp(v[2], m), comp(v[3], m));
        }
        __syncthreads();
        const i64 orow0 = r0 + 4 * c;  // output column (= input row) of this thread's chunk
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const int j = g + 16 * u;
            const float4 w = tile[j * 16 + (c ^ ((j >> 2) & 7))];
            const i64 ocol = c0 + j;  // output row
            if (ocol < cols && orow0 < rows) *reinterpret_cast<float4 *>(out + ocol * rows + orow0) = w;
        }
        __syncthreads();  // the tile is rewritten by the next iteration
    }
}

extern "C" __global__ void __launch_bounds__(256) transpose_s1(float *__restrict__ out, const float *__restrict__ in,
                                                              i64 rows, i64 cols, i64 tiles_x, i64 ntiles)
{
    __shared__ float tile[32][33];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;  // 32 x 8
    for (i64 k = blockIdx.x; k < ntiles; k += gridDim.x) {
        const i64 by = k / tiles_x, bx = k - by * tiles_x;
        const i64 r0 = by * 32, c0 = bx * 32;
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const i64 row = r0 + ty + 8 * u, col = c0 + tx;
            if (row < rows && col < cols) tile[ty + 8 * u][tx] = in[row * cols + col];
        }
        __syncthreads();
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const i64 orow = c0 + ty + 8 * u, ocol = r0 + tx;
            if (orow < cols && ocol < rows) out[orow * rows + ocol] = tile[tx][ty + 8 * u];
        }
        __syncthreads();
    }
}
