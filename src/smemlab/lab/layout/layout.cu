// Shared-memory data layout (seeds 000 and 002, "Professional CUDA C Programming" 5.2): one int tile
// per block, written in one order and read in another, so the only difference between the kernels is
// which bank each lane of a warp hits.
//
// One source serves the square block (BDIMX = BDIMY = 32) and the rectangle (32 x 16): the block shape
// and the padding are macros, so each kernel keeps its seed name. The transposed coordinates use the
// rectangle's formulas (irow = idx / BDIMY, icol = idx % BDIMY); for a square block they reduce to
// irow = threadIdx.y and icol = threadIdx.x, i.e. to the square kernels' tile[threadIdx.x][threadIdx.y].
// The macros stand in for blockDim (the host always launches BDIMX x BDIMY threads): the divisions become
// shifts, so the index maths does not blur the bank-conflict timings.
//
// Each block writes its own slice of `out` (the seeds launch one block; many blocks make the timing
// meaningful), and stores base + idx rather than idx, so a block writing another block's slice fails.
//
// NPASS passes over the tile (the book makes one): a kernel of one pass runs for a few microseconds,
// mostly launch overhead, so the time says little about shared memory; with many blocks and many
// passes, the shared-memory wavefronts set the time. Pass p stores base + idx + p (a read of the
// previous pass's value would show) and each thread adds up what it reads: out holds the sum over
// the passes, modulo 2^32. The second barrier keeps the next pass's stores off the tile until every
// thread has read it.

#ifndef BDIMX
#define BDIMX 32
#endif
#ifndef BDIMY
#define BDIMY 32
#endif
#ifndef IPAD
#define IPAD 1
#endif

#ifndef NPASS
#define NPASS 1
#endif

#define NT (BDIMX * BDIMY)

extern "C" __global__ void setRowReadRow(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[threadIdx.y][threadIdx.x] = base + idx + pass;
        __syncthreads();
        sum += tile[threadIdx.y][threadIdx.x];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// seed 002's rectangle version: the same row-major access, reached through the linear index
extern "C" __global__ void setRowReadRow2(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = idx / BDIMX;
    unsigned int icol = idx % BDIMX;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[irow][icol] = base + idx + pass;
        __syncthreads();
        sum += tile[irow][icol];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// the tile is declared [BDIMX][BDIMY] and indexed [threadIdx.x][threadIdx.y]: consecutive lanes are BDIMY
// ints apart, so with BDIMY = 32 a warp's 32 lanes share one bank (32-way), with 16 two banks (16-way)
extern "C" __global__ void setColReadCol(int *out)
{
    __shared__ int tile[BDIMX][BDIMY];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[threadIdx.x][threadIdx.y] = base + idx + pass;
        __syncthreads();
        sum += tile[threadIdx.x][threadIdx.y];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// seed 002's rectangle version: column-major in a [BDIMY][BDIMX] tile through the transposed coordinates
extern "C" __global__ void setColReadCol2(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = idx / BDIMY;
    unsigned int icol = idx % BDIMY;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[icol][irow] = base + idx + pass;
        __syncthreads();
        sum += tile[icol][irow];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// write by columns, read by rows: the store conflicts, the load does not
extern "C" __global__ void setColReadRow(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = idx / BDIMY;
    unsigned int icol = idx % BDIMY;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[icol][irow] = base + idx + pass;
        __syncthreads();
        sum += tile[threadIdx.y][threadIdx.x];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// write by rows, read by columns: out holds the transpose of the thread grid
extern "C" __global__ void setRowReadCol(int *out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = idx / BDIMY;
    unsigned int icol = idx % BDIMY;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[threadIdx.y][threadIdx.x] = base + idx + pass;
        __syncthreads();
        sum += tile[icol][irow];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// dynamic shared memory is one-dimensional: the same accesses, with the 2-D offsets written out
// (launched with BDIMX * BDIMY * sizeof(int) bytes)
extern "C" __global__ void setRowReadColDyn(int *out)
{
    extern __shared__ int tile[];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = idx / BDIMY;
    unsigned int icol = idx % BDIMY;
    unsigned int col_idx = icol * BDIMX + irow;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[idx] = base + idx + pass;
        __syncthreads();
        sum += tile[col_idx];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// IPAD unused ints at the end of each row shift every row by IPAD banks, so a column spreads over the
// banks (IPAD 1 for 32 x 32; the 32 x 16 rectangle needs 2, see the notes)
extern "C" __global__ void setRowReadColPad(int *out)
{
    __shared__ int tile[BDIMY][BDIMX + IPAD];
    unsigned int idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = idx / BDIMY;
    unsigned int icol = idx % BDIMY;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[threadIdx.y][threadIdx.x] = base + idx + pass;
        __syncthreads();
        sum += tile[icol][irow];
        __syncthreads();
    }
    out[(size_t)base + idx] = sum;
}

// the padded layout by hand in dynamic shared memory (launched with (BDIMX + IPAD) * BDIMY * sizeof(int))
extern "C" __global__ void setRowReadColDynPad(int *out)
{
    extern __shared__ int tile[];
    unsigned int g_idx = threadIdx.y * BDIMX + threadIdx.x;
    unsigned int base = blockIdx.x * NT;
    unsigned int irow = g_idx / BDIMY;
    unsigned int icol = g_idx % BDIMY;
    unsigned int row_idx = threadIdx.y * (BDIMX + IPAD) + threadIdx.x;
    unsigned int col_idx = icol * (BDIMX + IPAD) + irow;
    unsigned int sum = 0;
    for (unsigned int pass = 0; pass < NPASS; ++pass) {
        tile[row_idx] = base + g_idx + pass;
        __syncthreads();
        sum += tile[col_idx];
        __syncthreads();
    }
    out[(size_t)base + g_idx] = sum;
}
