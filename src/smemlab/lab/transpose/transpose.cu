// Matrix transpose (the book's program 001 "coalesced global memory access", 5.4, and program 003's transpose1): in is
// ROWS x COLS float32, row-major; out is its transpose, COLS x ROWS. Through a shared-memory tile both the
// global read and the global write are row-wise (coalesced); the tile is read by columns instead, which
// is where the bank conflicts and the padding come in.
//
// Changes from the book's programs, each for a reason:
// - every element is bounds-checked on its own, so any shape works (the book's unrolled kernel skipped
//   both elements of a pair when the second was out of range);
// - offsets are 64-bit (a 65536 x 65536 matrix has 2^32 elements);
// - the block shape is the macros BDIMX x BDIMY (32 x 16 as in program 001; the host launches exactly that),
//   TILE (32, program 003) and IPAD (2: with a 32 x 16 block a column of the tile spans two rows of 16
//   lanes, and 1 would leave a 2-way conflict), so the index divisions are shifts.

#ifndef BDIMX
#define BDIMX 32
#endif
#ifndef BDIMY
#define BDIMY 16
#endif
#ifndef IPAD
#define IPAD 2
#endif
#ifndef TILE
#define TILE 32
#endif

#define INDEX(ROW, COL, INNER) ((size_t)(ROW) * (INNER) + (COL))

// not a transpose: a copy with the same launch shape, reads and writes both coalesced (the upper bound)
extern "C" __global__ void copyGmem(float *__restrict__ out, const float *__restrict__ in, unsigned int rows, unsigned int cols)
{
    unsigned int col = blockIdx.x * BDIMX + threadIdx.x;
    unsigned int row = blockIdx.y * BDIMY + threadIdx.y;

    if (row < rows && col < cols)
        out[INDEX(row, col, cols)] = in[INDEX(row, col, cols)];
}

// reads rows, writes columns: each warp's store touches 32 rows of out (the lower bound)
extern "C" __global__ void naiveGmem(float *__restrict__ out, const float *__restrict__ in, unsigned int rows, unsigned int cols)
{
    unsigned int col = blockIdx.x * BDIMX + threadIdx.x;
    unsigned int row = blockIdx.y * BDIMY + threadIdx.y;

    if (row < rows && col < cols)
        out[INDEX(col, row, rows)] = in[INDEX(row, col, cols)];
}

// The block transposes a BDIMY x BDIMX tile of in. The threads are renumbered (irow, icol) so that
// consecutive lanes write consecutive elements of a row of out; they then read a column of the tile.
extern "C" __global__ void transposeSmem(float *__restrict__ out, const float *__restrict__ in, unsigned int rows, unsigned int cols)
{
    __shared__ float tile[BDIMY][BDIMX];

    unsigned int col = blockIdx.x * BDIMX + threadIdx.x;
    unsigned int row = blockIdx.y * BDIMY + threadIdx.y;
    if (row < rows && col < cols)
        tile[threadIdx.y][threadIdx.x] = in[INDEX(row, col, cols)];

    unsigned int bidx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int irow = bidx / BDIMY;
    unsigned int icol = bidx % BDIMY;

    // swap the block coordinates; (row, col) is now an element of out, tile[icol][irow] holds in[col][row]
    row = blockIdx.x * BDIMX + irow;
    col = blockIdx.y * BDIMY + icol;
    __syncthreads();

    if (row < cols && col < rows)
        out[INDEX(row, col, rows)] = tile[icol][irow];
}

// transposeSmem with IPAD unused floats per tile row: the column read spreads over all banks
extern "C" __global__ void transposeSmemPad(float *__restrict__ out, const float *__restrict__ in, unsigned int rows, unsigned int cols)
{
    __shared__ float tile[BDIMY][BDIMX + IPAD];

    unsigned int col = blockIdx.x * BDIMX + threadIdx.x;
    unsigned int row = blockIdx.y * BDIMY + threadIdx.y;
    if (row < rows && col < cols)
        tile[threadIdx.y][threadIdx.x] = in[INDEX(row, col, cols)];

    unsigned int bidx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int irow = bidx / BDIMY;
    unsigned int icol = bidx % BDIMY;

    row = blockIdx.x * BDIMX + irow;
    col = blockIdx.y * BDIMY + icol;
    __syncthreads();

    if (row < cols && col < rows)
        out[INDEX(row, col, rows)] = tile[icol][irow];
}

// two tiles side by side per block: each thread moves two elements, BDIMX apart, so more loads are in
// flight and half as many blocks pay for the barrier
extern "C" __global__ void transposeSmemUnrollPad(float *__restrict__ out, const float *__restrict__ in, unsigned int rows, unsigned int cols)
{
    __shared__ float tile[BDIMY][BDIMX * 2 + IPAD];

    unsigned int col = 2 * blockIdx.x * BDIMX + threadIdx.x;
    unsigned int row = blockIdx.y * BDIMY + threadIdx.y;
    if (row < rows) {
        if (col < cols)
            tile[threadIdx.y][threadIdx.x] = in[INDEX(row, col, cols)];
        if (col + BDIMX < cols)
            tile[threadIdx.y][threadIdx.x + BDIMX] = in[INDEX(row, col + BDIMX, cols)];
    }

    unsigned int bidx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int irow = bidx / BDIMY;
    unsigned int icol = bidx % BDIMY;

    row = 2 * blockIdx.x * BDIMX + irow;
    col = blockIdx.y * BDIMY + icol;
    __syncthreads();

    if (col < rows) {
        if (row < cols)
            out[INDEX(row, col, rows)] = tile[icol][irow];
        if (row + BDIMX < cols)
            out[INDEX(row + BDIMX, col, rows)] = tile[icol][irow + BDIMX];
    }
}

// transposeSmemUnrollPad in dynamic shared memory, the padded rows by hand
// (launched with BDIMY * (2 * BDIMX + IPAD) * sizeof(float) bytes)
extern "C" __global__ void transposeSmemUnrollPadDyn(float *__restrict__ out, const float *__restrict__ in, unsigned int rows, unsigned int cols)
{
    extern __shared__ float tile[];
    const unsigned int stride = 2 * BDIMX + IPAD;  // one padded tile row

    unsigned int col = 2 * blockIdx.x * BDIMX + threadIdx.x;
    unsigned int row = blockIdx.y * BDIMY + threadIdx.y;
    unsigned int row_idx = threadIdx.y * stride + threadIdx.x;
    if (row < rows) {
        if (col < cols)
            tile[row_idx] = in[INDEX(row, col, cols)];
        if (col + BDIMX < cols)
            tile[row_idx + BDIMX] = in[INDEX(row, col + BDIMX, cols)];
    }

    unsigned int bidx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int irow = bidx / BDIMY;
    unsigned int icol = bidx % BDIMY;
    unsigned int col_idx = icol * stride + irow;

    row = 2 * blockIdx.x * BDIMX + irow;
    col = blockIdx.y * BDIMY + icol;
    __syncthreads();

    if (col < rows) {
        if (row < cols)
            out[INDEX(row, col, rows)] = tile[col_idx];
        if (row + BDIMX < cols)
            out[INDEX(row + BDIMX, col, rows)] = tile[col_idx + BDIMX];
    }
}

// program 003's transpose1: a TILE x TILE block, one element per thread; reading S[threadIdx.x][threadIdx.y]
// puts a warp's 32 lanes 32 floats apart, all in one bank (32-way)
extern "C" __global__ void transpose1(const float *__restrict__ A, float *__restrict__ B, unsigned int rows, unsigned int cols)
{
    __shared__ float S[TILE][TILE];
    unsigned int bx = blockIdx.x * TILE;
    unsigned int by = blockIdx.y * TILE;

    unsigned int nx1 = bx + threadIdx.x;
    unsigned int ny1 = by + threadIdx.y;
    if (nx1 < cols && ny1 < rows)
        S[threadIdx.y][threadIdx.x] = A[INDEX(ny1, nx1, cols)];
    __syncthreads();

    unsigned int nx2 = bx + threadIdx.y;
    unsigned int ny2 = by + threadIdx.x;
    if (nx2 < cols && ny2 < rows)
        B[INDEX(nx2, ny2, rows)] = S[threadIdx.x][threadIdx.y];
}

// the same with program 003's fix, S[TILE][TILE + 1]: lanes 33 floats apart, 32 different banks
extern "C" __global__ void transpose1Pad(const float *__restrict__ A, float *__restrict__ B, unsigned int rows, unsigned int cols)
{
    __shared__ float S[TILE][TILE + 1];
    unsigned int bx = blockIdx.x * TILE;
    unsigned int by = blockIdx.y * TILE;

    unsigned int nx1 = bx + threadIdx.x;
    unsigned int ny1 = by + threadIdx.y;
    if (nx1 < cols && ny1 < rows)
        S[threadIdx.y][threadIdx.x] = A[INDEX(ny1, nx1, cols)];
    __syncthreads();

    unsigned int nx2 = bx + threadIdx.y;
    unsigned int ny2 = by + threadIdx.x;
    if (nx2 < cols && ny2 < rows)
        B[INDEX(nx2, ny2, rows)] = S[threadIdx.x][threadIdx.y];
}

// ---- transpose_v4: the library's first transpose (float32), which ops/transpose/transpose.cu's 16-byte
// tiles generalise; kept here as the form the analyze truth fixture recorded and tools/ time. The host
// launches it itself (no experiment variant): out (cols x rows) = in (rows x cols)^T, 4-byte elements.
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
typedef long long i64;

#define T4 64
#ifndef MINB
#define MINB 1
#endif
// The order in which blocks take the tiles: 0 row-major (consecutive blocks along a band of input
// rows), 1 column-major (down a band of input columns: the blocks in flight write neighbouring
// output rows), 2 diagonal, 3 bands of 8 tile rows walked column by column. Column-major is the
// default: on an H200 (tools/sweeps/transpose_sweep.py, of cudaMemcpy on the same bytes) it moved
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
