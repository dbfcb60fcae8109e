// Matrix transpose (seed 001 "coalesced global memory access", 5.4, and seed 003's transpose1): in is
// ROWS x COLS float32, row-major; out is its transpose, COLS x ROWS. Through a shared-memory tile both the
// global read and the global write are row-wise (coalesced); the tile is read by columns instead, which
// is where the bank conflicts and the padding come in.
//
// Changes from the seeds, each for a reason:
// - every element is bounds-checked on its own, so any shape works (the seed's unrolled kernel skipped
//   both elements of a pair when the second was out of range);
// - offsets are 64-bit (a 65536 x 65536 matrix has 2^32 elements);
// - the block shape is the macros BDIMX x BDIMY (32 x 16 as in seed 001; the host launches exactly that),
//   TILE (32, seed 003) and IPAD (2: with a 32 x 16 block a column of the tile spans two rows of 16
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

// seed 003's transpose1: a TILE x TILE block, one element per thread; reading S[threadIdx.x][threadIdx.y]
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

// the same with seed 003's fix, S[TILE][TILE + 1]: lanes 33 floats apart, 32 different banks
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
