// fresh13_apps.cu -- kernels in the manner of the Rodinia and Parboil benchmark suites, the way a harness that
// gathers them into one translation unit carries them (each suite's BLOCK_SIZE redefined per section, their
// macros, their structs, their own boundary tricks): Rodinia's Needleman-Wunsch, LU decomposition, HotSpot (2-D
// pyramid and 3-D), PathFinder, SRAD v2, Gaussian elimination, back propagation, the B+ tree's findK, streamcluster's
// pgain cost, lavaMD, a 2-D wavelet's lifting steps and k-means; Parboil's sgemm, 7-point stencil, histo's prescan
// and final pass, MRI-Q, cutcp, tpacf and LBM. Device code only, no library headers, so that NVRTC builds it.
#include "fresh13_common.cuh"

// =============================================================================================================
// Rodinia nw: Needleman-Wunsch, 16x16 tiles of the score matrix walked by anti-diagonals; the reference tile and
// the tile with its north and west borders in shared memory
// =============================================================================================================
#ifndef NW_BLOCK_SIZE
#define NW_BLOCK_SIZE 16
#endif
#define BLOCK_SIZE NW_BLOCK_SIZE

__device__ __host__ int maximum(int a, int b, int c)
{
    int k;
    if (a <= b)
        k = b;
    else
        k = a;
    if (k <= c)
        return (c);
    else
        return (k);
}

extern "C" __global__ void needle_cuda_shared_1(int *referrence, int *matrix_cuda, int cols, int penalty, int i,
                                                int block_width)
{
    int bx = blockIdx.x;
    int tx = threadIdx.x;

    int b_index_x = bx;
    int b_index_y = i - 1 - bx;

    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (1);
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + (cols);
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];

    if (tx == 0)
        temp[tx][0] = matrix_cuda[index_nw];

    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        ref[ty][tx] = referrence[index + cols * ty];

    __syncthreads();

    temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];

    __syncthreads();

    temp[0][tx + 1] = matrix_cuda[index_n];

    __syncthreads();

    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_index_x = tx + 1;
            int t_index_y = m - tx + 1;

            temp[t_index_y][t_index_x] =
                maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                        temp[t_index_y][t_index_x - 1] - penalty, temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }

    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_index_x = tx + BLOCK_SIZE - m;
            int t_index_y = BLOCK_SIZE - tx;

            temp[t_index_y][t_index_x] =
                maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                        temp[t_index_y][t_index_x - 1] - penalty, temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }

    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

extern "C" __global__ void needle_cuda_shared_2(int *referrence, int *matrix_cuda, int cols, int penalty, int i,
                                                int block_width)
{
    int bx = blockIdx.x;
    int tx = threadIdx.x;

    int b_index_x = bx + block_width - i;
    int b_index_y = block_width - bx - 1;

    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (1);
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + (cols);
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];

    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        ref[ty][tx] = referrence[index + cols * ty];

    __syncthreads();

    if (tx == 0)
        temp[tx][0] = matrix_cuda[index_nw];

    temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];

    __syncthreads();

    temp[0][tx + 1] = matrix_cuda[index_n];

    __syncthreads();

    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int t_index_x = tx + 1;
            int t_index_y = m - tx + 1;

            temp[t_index_y][t_index_x] =
                maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                        temp[t_index_y][t_index_x - 1] - penalty, temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }

    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int t_index_x = tx + BLOCK_SIZE - m;
            int t_index_y = BLOCK_SIZE - tx;

            temp[t_index_y][t_index_x] =
                maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                        temp[t_index_y][t_index_x - 1] - penalty, temp[t_index_y - 1][t_index_x] - penalty);
        }
        __syncthreads();
    }

    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}
#undef BLOCK_SIZE

// =============================================================================================================
// Rodinia lud: the diagonal tile factored in shared memory by one row of threads, the perimeter (a row of tiles
// and a column of tiles, two half-blocks), the internal tiles' rank-BLOCK_SIZE update
// =============================================================================================================
#ifndef LUD_BLOCK_SIZE
#define LUD_BLOCK_SIZE 16
#endif
#define BLOCK_SIZE LUD_BLOCK_SIZE

extern "C" __global__ void lud_diagonal(float *m, int matrix_dim, int offset)
{
    int i, j;
    __shared__ float shadow[BLOCK_SIZE][BLOCK_SIZE];

    int array_offset = offset * matrix_dim + offset;
    for (i = 0; i < BLOCK_SIZE; i++) {
        shadow[i][threadIdx.x] = m[array_offset + threadIdx.x];
        array_offset += matrix_dim;
    }
    __syncthreads();
    for (i = 0; i < BLOCK_SIZE - 1; i++) {

        if (threadIdx.x > i) {
            for (j = 0; j < i; j++)
                shadow[threadIdx.x][i] -= shadow[threadIdx.x][j] * shadow[j][i];
            shadow[threadIdx.x][i] /= shadow[i][i];
        }

        __syncthreads();
        if (threadIdx.x > i) {

            for (j = 0; j < i + 1; j++)
                shadow[i + 1][threadIdx.x] -= shadow[i + 1][j] * shadow[j][threadIdx.x];
        }
        __syncthreads();
    }

    /*
       The first row is not modified, it
       is no need to write it back to the
       global memory

     */
    array_offset = (offset + 1) * matrix_dim + offset;
    for (i = 1; i < BLOCK_SIZE; i++) {
        m[array_offset + threadIdx.x] = shadow[i][threadIdx.x];
        array_offset += matrix_dim;
    }
}

extern "C" __global__ void lud_perimeter(float *m, int matrix_dim, int offset)
{
    __shared__ float dia[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];

    int i, j, array_offset;
    int idx;

    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x;

        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }

        array_offset = offset * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            peri_row[i][idx] = m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx];
            array_offset += matrix_dim;
        }

    } else {
        idx = threadIdx.x - BLOCK_SIZE;

        array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }

        array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    __syncthreads();

    /* this version works ok on hardware, but not gpgpusim
     **************************************************************
     if (threadIdx.x < BLOCK_SIZE) { //peri-row
      idx=threadIdx.x;
      for(i=1; i < BLOCK_SIZE; i++){
        for (j=0; j < i; j++)
          peri_row[i][idx]-=dia[i][j]*peri_row[j][idx];
      }
    ...
    */
    if (threadIdx.x < BLOCK_SIZE) {  // peri-row
        idx = threadIdx.x;
        for (i = 1; i < BLOCK_SIZE; i++) {
            for (j = 0; j < i; j++)
                peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
        }
    } else {  // peri-col
        idx = threadIdx.x - BLOCK_SIZE;
        for (i = 0; i < BLOCK_SIZE; i++) {
            for (j = 0; j < i; j++)
                peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }

    __syncthreads();

    if (threadIdx.x < BLOCK_SIZE) {  // peri-row
        idx = threadIdx.x;
        array_offset = (offset + 1) * matrix_dim + offset;
        for (i = 1; i < BLOCK_SIZE; i++) {
            m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else {  // peri-col
        idx = threadIdx.x - BLOCK_SIZE;
        array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (i = 0; i < BLOCK_SIZE; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}

extern "C" __global__ void lud_internal(float *m, int matrix_dim, int offset)
{
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];

    int i;
    float sum;

    int global_row_id = offset + (blockIdx.y + 1) * BLOCK_SIZE;
    int global_col_id = offset + (blockIdx.x + 1) * BLOCK_SIZE;

    peri_row[threadIdx.y][threadIdx.x] = m[(offset + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x];
    peri_col[threadIdx.y][threadIdx.x] = m[(global_row_id + threadIdx.y) * matrix_dim + offset + threadIdx.x];

    __syncthreads();

    sum = 0;
    for (i = 0; i < BLOCK_SIZE; i++)
        sum += peri_col[threadIdx.y][i] * peri_row[i][threadIdx.x];
    m[(global_row_id + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x] -= sum;
}
#undef BLOCK_SIZE

// =============================================================================================================
// Rodinia hotspot: the thermal simulation's pyramid, `iteration` time steps a launch on a BLOCK_SIZE square tile
// whose ring of halo cells shrinks by one a step; the 3-D version (opt1) walks z in registers, no shared memory
// =============================================================================================================
#ifndef HOTSPOT_BLOCK_SIZE
#define HOTSPOT_BLOCK_SIZE 16
#endif
#define BLOCK_SIZE HOTSPOT_BLOCK_SIZE

/* maximum power density possible (say 300W for a 10mm x 10mm chip)	*/
#define MAX_PD (3.0e6)
/* required precision in degrees	*/
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
/* capacitance fitting factor	*/
#define FACTOR_CHIP 0.5

extern "C" __global__ void calculate_temp(int iteration,     // number of iteration
                                          float *power,      // power input
                                          float *temp_src,   // temperature input/output
                                          float *temp_dst,   // temperature input/output
                                          int grid_cols,     // Col of grid
                                          int grid_rows,     // Row of grid
                                          int border_cols,   // border offset
                                          int border_rows,   // border offset
                                          float Cap,         // Capacitance
                                          float Rx, float Ry, float Rz, float step, float time_elapsed)
{
    __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];  // saving temparary temperature result

    float amb_temp = 80.0;
    float step_div_Cap;
    float Rx_1, Ry_1, Rz_1;

    int bx = blockIdx.x;
    int by = blockIdx.y;

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    step_div_Cap = step / Cap;

    Rx_1 = 1 / Rx;
    Ry_1 = 1 / Ry;
    Rz_1 = 1 / Rz;

    // each block finally computes result for a small block
    // after N iterations.
    // it is the non-overlapping small blocks that cover
    // all the input data

    // calculate the small block size
    int small_block_rows = BLOCK_SIZE - iteration * 2;  // EXPAND_RATE
    int small_block_cols = BLOCK_SIZE - iteration * 2;  // EXPAND_RATE

    // calculate the boundary for the block according to
    // the boundary of its small block
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + BLOCK_SIZE - 1;
    int blkXmax = blkX + BLOCK_SIZE - 1;

    // calculate the global thread coordination
    int yidx = blkY + ty;
    int xidx = blkX + tx;

    // load data if it is within the valid input range
    int loadYidx = yidx, loadXidx = xidx;
    int index = grid_cols * loadYidx + loadXidx;

    if (IN_RANGE(loadYidx, 0, grid_rows - 1) && IN_RANGE(loadXidx, 0, grid_cols - 1)) {
        temp_on_cuda[ty][tx] = temp_src[index];  // Load the temperature data from global memory to shared memory
        power_on_cuda[ty][tx] = power[index];    // Load the power data from global memory to shared memory
    }
    __syncthreads();

    // effective range within this block that falls within
    // the valid range of the input data
    // used to rule out computation outside the boundary.
    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1) : BLOCK_SIZE - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1) : BLOCK_SIZE - 1;

    int N = ty - 1;
    int S = ty + 1;
    int W = tx - 1;
    int E = tx + 1;

    N = (N < validYmin) ? validYmin : N;
    S = (S > validYmax) ? validYmax : S;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;

    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
            computed = true;
            temp_t[ty][tx] = temp_on_cuda[ty][tx] +
                             step_div_Cap * (power_on_cuda[ty][tx] +
                                             (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0 * temp_on_cuda[ty][tx]) * Ry_1 +
                                             (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0 * temp_on_cuda[ty][tx]) * Rx_1 +
                                             (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)  // Assign the computation range
            temp_on_cuda[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }

    // update the global memory
    // after the last iteration, only threads coordinated within the
    // small block perform the calculation and switch on ``computed''
    if (computed) {
        temp_dst[index] = temp_t[ty][tx];
    }
}
#undef BLOCK_SIZE

extern "C" __global__ void hotspotOpt1(float *p, float *tIn, float *tOut, float sdc, int nx, int ny, int nz, float ce,
                                       float cw, float cn, float cs, float ct, float cb, float cc)
{
    float amb_temp = 80.0;

    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;

    int c = i + j * nx;
    int xy = nx * ny;

    int W = (i == 0) ? c : c - 1;
    int E = (i == nx - 1) ? c : c + 1;
    int N = (j == 0) ? c : c - nx;
    int S = (j == ny - 1) ? c : c + nx;

    float temp1, temp2, temp3;
    temp1 = temp2 = tIn[c];
    temp3 = tIn[c + xy];
    tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
              sdc * p[c] + ct * amb_temp;
    c += xy;
    W += xy;
    E += xy;
    N += xy;
    S += xy;

    for (int k = 1; k < nz - 1; ++k) {
        temp1 = temp2;
        temp2 = temp3;
        temp3 = tIn[c + xy];
        tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
                  sdc * p[c] + ct * amb_temp;
        c += xy;
        W += xy;
        E += xy;
        N += xy;
        S += xy;
    }
    temp1 = temp2;
    temp2 = temp3;
    tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
              sdc * p[c] + ct * amb_temp;
    return;
}

// =============================================================================================================
// Rodinia pathfinder: the row-by-row minimum-path DP, `iteration` rows a launch, prev/result in shared memory
// =============================================================================================================
#ifndef PF_BLOCK_SIZE
#define PF_BLOCK_SIZE 256
#endif
#define BLOCK_SIZE PF_BLOCK_SIZE
#define HALO 1  // halo width along one direction when advancing to the next iteration

extern "C" __global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults, int cols,
                                          int rows, int startStep, int border)
{
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];

    int bx = blockIdx.x;
    int tx = threadIdx.x;

    // each block finally computes result for a small block
    // after N iterations.
    // it is the non-overlapping small blocks that cover
    // all the input data

    // calculate the small block size
    int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;

    // calculate the boundary for the block according to
    // the boundary of its small block
    int blkX = small_block_cols * bx - border;
    int blkXmax = blkX + BLOCK_SIZE - 1;

    // calculate the global thread coordination
    int xidx = blkX + tx;

    // effective range within this block that falls within
    // the valid range of the input data
    // used to rule out computation outside the boundary.
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;

    int W = tx - 1;
    int E = tx + 1;

    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;

    bool isValid = IN_RANGE(tx, validXmin, validXmax);

    if (IN_RANGE(xidx, 0, cols - 1)) {
        prev[tx] = gpuSrc[xidx];
    }
    __syncthreads();  // [Ronny] Added sync to avoid race on prev Aug. 14 2012
    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
            computed = true;
            int left = prev[W];
            int up = prev[tx];
            int right = prev[E];
            int shortest = MIN(left, up);
            shortest = MIN(shortest, right);
            int index = cols * (startStep + i) + xidx;
            result[tx] = shortest + gpuWall[index];
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)  // Assign the computation range
            prev[tx] = result[tx];
        __syncthreads();  // [Ronny] Added sync to avoid race on prev Aug. 14 2012
    }

    // update the global memory
    // after the last iteration, only threads coordinated within the
    // small block perform the calculation and switch on ``computed''
    if (computed) {
        gpuResults[xidx] = result[tx];
    }
}
#undef BLOCK_SIZE

// =============================================================================================================
// Rodinia srad_v2: speckle-reducing anisotropic diffusion; the tile and its north/south/east/west neighbour rows
// and columns as whole shared tiles (the edge blocks reading their own border instead)
// =============================================================================================================
#ifndef SRAD_BLOCK_SIZE
#define SRAD_BLOCK_SIZE 16
#endif
#define BLOCK_SIZE SRAD_BLOCK_SIZE

extern "C" __global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda, float *C_cuda,
                                       int cols, int rows, float q0sqr)
{
    // block id
    int bx = blockIdx.x;
    int by = blockIdx.y;

    // thread id
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // indices
    int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
    int index_n = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + tx - cols;
    int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
    int index_w = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty - 1;
    int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;

    float n, w, e, s, jc, g2, l, num, den, qsqr, c;

    // shared memory allocation
    __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_result[BLOCK_SIZE][BLOCK_SIZE];

    __shared__ float north[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float south[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float east[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float west[BLOCK_SIZE][BLOCK_SIZE];

    // load data to shared memory (the first and last rows of blocks read their own border row)
    if (by == 0) {
        north[ty][tx] = J_cuda[BLOCK_SIZE * bx + tx];
        south[ty][tx] = J_cuda[index_s];
    } else if (by == gridDim.y - 1) {
        north[ty][tx] = J_cuda[index_n];
        south[ty][tx] =
            J_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    } else {
        north[ty][tx] = J_cuda[index_n];
        south[ty][tx] = J_cuda[index_s];
    }
    __syncthreads();

    if (bx == 0) {
        west[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + cols * ty];
        east[ty][tx] = J_cuda[index_e];
    } else if (bx == gridDim.x - 1) {
        west[ty][tx] = J_cuda[index_w];
        east[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
    } else {
        west[ty][tx] = J_cuda[index_w];
        east[ty][tx] = J_cuda[index_e];
    }

    __syncthreads();

    temp[ty][tx] = J_cuda[index];

    __syncthreads();

    jc = temp[ty][tx];

    if (ty == 0 && tx == 0) {  // nw
        n = north[ty][tx] - jc;
        s = temp[ty + 1][tx] - jc;
        w = west[ty][tx] - jc;
        e = temp[ty][tx + 1] - jc;
    } else if (ty == 0 && tx == BLOCK_SIZE - 1) {  // ne
        n = north[ty][tx] - jc;
        s = temp[ty + 1][tx] - jc;
        w = temp[ty][tx - 1] - jc;
        e = east[ty][tx] - jc;
    } else if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) {  // se
        n = temp[ty - 1][tx] - jc;
        s = south[ty][tx] - jc;
        w = temp[ty][tx - 1] - jc;
        e = east[ty][tx] - jc;
    } else if (ty == BLOCK_SIZE - 1 && tx == 0) {  // sw
        n = temp[ty - 1][tx] - jc;
        s = south[ty][tx] - jc;
        w = west[ty][tx] - jc;
        e = temp[ty][tx + 1] - jc;
    }

    else if (ty == 0) {  // n
        n = north[ty][tx] - jc;
        s = temp[ty + 1][tx] - jc;
        w = temp[ty][tx - 1] - jc;
        e = temp[ty][tx + 1] - jc;
    } else if (tx == BLOCK_SIZE - 1) {  // e
        n = temp[ty - 1][tx] - jc;
        s = temp[ty + 1][tx] - jc;
        w = temp[ty][tx - 1] - jc;
        e = east[ty][tx] - jc;
    } else if (ty == BLOCK_SIZE - 1) {  // s
        n = temp[ty - 1][tx] - jc;
        s = south[ty][tx] - jc;
        w = temp[ty][tx - 1] - jc;
        e = temp[ty][tx + 1] - jc;
    } else if (tx == 0) {  // w
        n = temp[ty - 1][tx] - jc;
        s = temp[ty + 1][tx] - jc;
        w = west[ty][tx] - jc;
        e = temp[ty][tx + 1] - jc;
    } else {  // the data elements which are not on the borders
        n = temp[ty - 1][tx] - jc;
        s = temp[ty + 1][tx] - jc;
        w = temp[ty][tx - 1] - jc;
        e = temp[ty][tx + 1] - jc;
    }

    g2 = (n * n + s * s + w * w + e * e) / (jc * jc);

    l = (n + s + w + e) / jc;

    num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    den = 1 + (.25 * l);
    qsqr = num / (den * den);

    // diffusion coefficent (equ 33)
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    c = 1.0 / (1.0 + den);

    // saturate diffusion coefficent
    if (c < 0) {
        temp_result[ty][tx] = 0;
    } else if (c > 1) {
        temp_result[ty][tx] = 1;
    } else {
        temp_result[ty][tx] = c;
    }

    __syncthreads();

    C_cuda[index] = temp_result[ty][tx];
    E_C[index] = e;
    W_C[index] = w;
    S_C[index] = s;
    N_C[index] = n;
}

extern "C" __global__ void srad_cuda_2(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda, float *C_cuda,
                                       int cols, int rows, float lambda, float q0sqr)
{
    // block id
    int bx = blockIdx.x;
    int by = blockIdx.y;

    // thread id
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    // indices
    int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
    int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
    int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;
    float cc, cn, cs, ce, cw, d_sum;

    // shared memory allocation
    __shared__ float south_c[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float east_c[BLOCK_SIZE][BLOCK_SIZE];

    __shared__ float c_cuda_temp[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float c_cuda_result[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];

    // load data to shared memory
    temp[ty][tx] = J_cuda[index];

    __syncthreads();

    if (by == gridDim.y - 1) {
        south_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    } else {
        south_c[ty][tx] = C_cuda[index_s];
    }
    __syncthreads();

    if (bx == gridDim.x - 1) {
        east_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
    } else {
        east_c[ty][tx] = C_cuda[index_e];
    }

    __syncthreads();

    c_cuda_temp[ty][tx] = C_cuda[index];

    __syncthreads();

    cc = c_cuda_temp[ty][tx];

    if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) {  // se
        cn = cc;
        cs = south_c[ty][tx];
        cw = cc;
        ce = east_c[ty][tx];
    } else if (tx == BLOCK_SIZE - 1) {  // e
        cn = cc;
        cs = c_cuda_temp[ty + 1][tx];
        cw = cc;
        ce = east_c[ty][tx];
    } else if (ty == BLOCK_SIZE - 1) {  // s
        cn = cc;
        cs = south_c[ty][tx];
        cw = cc;
        ce = c_cuda_temp[ty][tx + 1];
    } else {  // the data elements which are not on the borders
        cn = cc;
        cs = c_cuda_temp[ty + 1][tx];
        cw = cc;
        ce = c_cuda_temp[ty][tx + 1];
    }

    // divergence (equ 58)
    d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];

    // image update (equ 61)
    c_cuda_result[ty][tx] = temp[ty][tx] + 0.25 * lambda * d_sum;

    __syncthreads();

    J_cuda[index] = c_cuda_result[ty][tx];
}
#undef BLOCK_SIZE

// =============================================================================================================
// Rodinia gaussian: Fan1 (the multipliers of column t, one thread a row) and Fan2 (the rank-1 update, a 2-D block
// whose x walks the rows: consecutive threads a row apart)
// =============================================================================================================
extern "C" __global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)
{
    // if(threadIdx.x + blockIdx.x * blockDim.x >= Size-1-t) printf(".");
    // printf("blockIDx.x:%d,threadIdx.x:%d,Size:%d,t:%d,Size-1-t:%d\n",blockIdx.x,threadIdx.x,Size,t,Size-1-t);

    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t)
        return;
    *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
        *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a_cuda + Size * t + t);
}

extern "C" __global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t)
        return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t)
        return;

    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    // printf("blockIdx.x:%d,threadIdx.x:%d,blockIdx.y:%d,threadIdx.y:%d,blockDim.x:%d,blockDim.y:%d\n",blockIdx.x,threadIdx.x,blockIdx.y,threadIdx.y,blockDim.x,blockDim.y);

    a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
    // a_cuda[xidx+1+t][yidx+t] -= m_cuda[xidx+1+t][t] * a_cuda[t][yidx+t];
    if (yidx == 0) {
        // printf("blockIdx.x:%d,threadIdx.x:%d,blockIdx.y:%d,threadIdx.y:%d,blockDim.x:%d,blockDim.y:%d\n",blockIdx.x,threadIdx.x,blockIdx.y,threadIdx.y,blockDim.x,blockDim.y);
        // printf("xidx:%d,yidx:%d\n",xidx,yidx);
        b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
    }
}

// =============================================================================================================
// Rodinia backprop: the input layer times the weights in a 16x16 shared tile, summed down the columns by a
// log2 tree (__log2f, __powf), and the weight adjustment (global only)
// =============================================================================================================
#define BP_THREADS 256
#define WIDTH 16   // shared memory width
#define HEIGHT 16  // shared memory height
#define ETA 0.3       // eta value
#define MOMENTUM 0.3  // momentum value

extern "C" __global__ void bpnn_layerforward_CUDA(float *input_cuda, float *output_hidden_cuda,
                                                  float *input_hidden_cuda, float *hidden_partial_sum, int in,
                                                  int hid)
{
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;

    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);

    int index_in = HEIGHT * by + ty + 1;

    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];

    if (tx == 0)
        input_node[ty] = input_cuda[index_in];

    __syncthreads();

    weight_matrix[ty][tx] = input_hidden_cuda[index];

    __syncthreads();

    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];

    __syncthreads();

    for (int i = 1; i <= __log2f(HEIGHT); i++) {

        int power_two = __powf(2, i);

        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];

        __syncthreads();
    }

    //__syncthreads();

    input_hidden_cuda[index] = weight_matrix[ty][tx];

    /*
    for ( unsigned int i = 2 ; i <= HEIGHT ; i *= 2){

       unsigned int power_two = i - 1;

       if( (ty & power_two) == 0 ) {
       weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two/2][tx];
       }

    }
    */

    __syncthreads();

    if (tx == 0) {
        hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
    }
}

extern "C" __global__ void bpnn_adjust_weights_cuda(float *delta, int hid, float *ly, int in, float *w, float *oldw)
{
    int by = blockIdx.y;

    int tx = threadIdx.x;
    int ty = threadIdx.y;

    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    // eta = 0.3;
    // momentum = 0.3;

    w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
    oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));

    __syncthreads();

    if (ty == 0 && by == 0) {
        w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
        oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    }
}

// =============================================================================================================
// Rodinia b+tree: findK, one block a query, one thread a slot of the node; the descent reads the node the
// previous level chose (a data-dependent walk of global memory), the leaf gives the record
// =============================================================================================================
#ifndef DEFAULT_ORDER
#define DEFAULT_ORDER 16
#endif

typedef struct record {
    int value;
} record;

typedef struct knode {
    int location;
    int indices[DEFAULT_ORDER + 1];
    int keys[DEFAULT_ORDER + 1];
    bool is_leaf;
    int num_keys;
} knode;

extern "C" __global__ void findK(long height, knode *knodesD, long knodes_elem, record *recordsD, long *currKnodeD,
                                 long *offsetD, int *keysD, record *ansD)
{
    // private thread IDs
    int thid = threadIdx.x;
    int bid = blockIdx.x;

    // processtree levels
    int i;
    for (i = 0; i < height; i++) {

        // if value is between the two keys
        if ((knodesD[currKnodeD[bid]].keys[thid]) <= keysD[bid] && (knodesD[currKnodeD[bid]].keys[thid + 1] > keysD[bid])) {
            // this conditional statement is inserted to avoid crush due to but in original code
            // "offset[bid]" calculated below that addresses knodes[] in the next iteration goes outside of its bounds
            // cause segmentation fault
            // more specifically, values saved into knodes->indices in the main function are out of bounds of knodes
            // that they address
            if (knodesD[offsetD[bid]].indices[thid] < knodes_elem) {
                offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
            }
        }
        __syncthreads();

        // set for next tree level
        if (thid == 0) {
            currKnodeD[bid] = offsetD[bid];
        }
        __syncthreads();
    }

    // At this point, we have a candidate leaf node which may contain
    // the target record.  Check each key to hopefully find the record
    if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid]) {
        ansD[bid].value = recordsD[knodesD[currKnodeD[bid]].indices[thid]].value;
    }
}

// =============================================================================================================
// Rodinia streamcluster: pgain's cost of opening a centre at point x; the candidate's coordinates staged in shared
// memory, the points' coordinates column-major, the gain charged to the point's current centre (center_table)
// =============================================================================================================
typedef struct {
    float weight;
    long assign; /* number of point where this one is assigned */
    float cost;  /* cost of that assignment, weight*distance */
} Point_Struct;

extern "C" __global__ void kernel_compute_cost(int num, int dim, long x, Point_Struct *p, int K, int stride,
                                               float *coord_d, float *work_mem_d, int *center_table_d,
                                               bool *switch_membership_d)
{
    // block ID and global thread ID
    const int bid = blockIdx.x + gridDim.x * blockIdx.y;
    const int tid = blockDim.x * bid + threadIdx.x;

    extern __shared__ float coord_s[];  // the candidate's coordinates

    for (int i = threadIdx.x; i < dim; i += blockDim.x)
        coord_s[i] = coord_d[(i * num) + x];
    __syncthreads();

    if (tid < num) {
        float *lower = &work_mem_d[tid * stride];

        // cost between this point and point[x]: euclidean distance multiplied by weight
        float x_cost = 0.0;
        for (int i = 0; i < dim; i++) {
            float tmp = coord_s[i] - coord_d[(i * num) + tid];
            x_cost += tmp * tmp;
        }
        x_cost = x_cost * p[tid].weight;

        float current_cost = p[tid].cost;

        // if computed cost is less then original (it saves), mark it as to reassign
        if (x_cost < current_cost) {
            switch_membership_d[tid] = 1;
            lower[K] += x_cost - current_cost;
        }
        // if computed cost is larger, save the difference
        else {
            lower[center_table_d[p[tid].assign]] += current_cost - x_cost;
        }
    }
}

// =============================================================================================================
// Rodinia lavaMD: the particles of a box and of each of its neighbour boxes in shared memory (FOUR_VECTOR
// positions; the charges as double, as the suite declares them), NUMBER_PAR_PER_BOX not a multiple of a warp
// =============================================================================================================
#ifndef NUMBER_PAR_PER_BOX
#define NUMBER_PAR_PER_BOX 100
#endif
#ifndef NUMBER_THREADS
#define NUMBER_THREADS 128
#endif
#define fp float
#define DOT(A, B) ((A.x) * (B.x) + (A.y) * (B.y) + (A.z) * (B.z))

typedef struct {
    fp x, y, z;
} THREE_VECTOR;

typedef struct {
    fp v, x, y, z;
} FOUR_VECTOR;

typedef struct nei_str {
    // neighbor box
    int x, y, z;
    int number;
    long offset;
} nei_str;

typedef struct box_str {
    // home box
    int x, y, z;
    int number;
    long offset;
    // neighbor boxes
    int nn;
    nei_str nei[26];
} box_str;

// par_str and dim_str arrive as their one field each that the kernel reads (alpha, number_boxes)
extern "C" __global__ void kernel_gpu_cuda(float alpha, long number_boxes, box_str *d_box_gpu, FOUR_VECTOR *d_rv_gpu,
                                           fp *d_qv_gpu, FOUR_VECTOR *d_fv_gpu)
{
    //--------------------------------------------------------------------------------------------------------------
    //	THREAD PARAMETERS
    //--------------------------------------------------------------------------------------------------------------
    int bx = blockIdx.x;  // get current horizontal block index (0-n)
    int tx = threadIdx.x; // get current horizontal thread index (0-n)
    int wtx = tx;

    //--------------------------------------------------------------------------------------------------------------
    //	DO FOR THE NUMBER OF BOXES
    //--------------------------------------------------------------------------------------------------------------
    if (bx < number_boxes) {
        // parameters
        fp a2 = 2.0 * alpha * alpha;

        // home box
        int first_i;
        FOUR_VECTOR *rA;
        FOUR_VECTOR *fA;
        __shared__ FOUR_VECTOR rA_shared[NUMBER_PAR_PER_BOX];

        // nei box
        int pointer;
        int k = 0;
        int first_j;
        FOUR_VECTOR *rB;
        fp *qB;
        int j = 0;
        __shared__ FOUR_VECTOR rB_shared[NUMBER_PAR_PER_BOX];
        __shared__ double qB_shared[NUMBER_PAR_PER_BOX];

        // common
        fp r2;
        fp u2;
        fp vij;
        fp fs;
        fp fxij;
        fp fyij;
        fp fzij;
        THREE_VECTOR d;

        // home box - box parameters
        first_i = d_box_gpu[bx].offset;

        // home box - distance, force, charge and type parameters
        rA = &d_rv_gpu[first_i];
        fA = &d_fv_gpu[first_i];

        // home box - shared memory
        while (wtx < NUMBER_PAR_PER_BOX) {
            rA_shared[wtx] = rA[wtx];
            wtx = wtx + NUMBER_THREADS;
        }
        wtx = tx;

        // synchronize threads  - not needed, but just to be safe
        __syncthreads();

        // loop over neiing boxes of home box
        for (k = 0; k < (1 + d_box_gpu[bx].nn); k++) {

            // nei box - get pointer to the right box
            if (k == 0) {
                pointer = bx;  // set first box to be processed to home box
            } else {
                pointer = d_box_gpu[bx].nei[k - 1].number;  // remaining boxes are nei boxes
            }

            // nei box - box parameters
            first_j = d_box_gpu[pointer].offset;

            // nei box - distance, (force), charge and (type) parameters
            rB = &d_rv_gpu[first_j];
            qB = &d_qv_gpu[first_j];

            // nei box - shared memory
            while (wtx < NUMBER_PAR_PER_BOX) {
                rB_shared[wtx] = rB[wtx];
                qB_shared[wtx] = qB[wtx];
                wtx = wtx + NUMBER_THREADS;
            }
            wtx = tx;

            // synchronize threads because in next section each thread accesses data brought in by different threads here
            __syncthreads();

            // loop for the number of particles in the home box
            while (wtx < NUMBER_PAR_PER_BOX) {

                // loop for the number of particles in the current nei box
                for (j = 0; j < NUMBER_PAR_PER_BOX; j++) {

                    r2 = (fp)rA_shared[wtx].v + (fp)rB_shared[j].v - DOT(rA_shared[wtx], rB_shared[j]);
                    u2 = a2 * r2;
                    vij = exp(-u2);
                    fs = 2 * vij;

                    d.x = (fp)rA_shared[wtx].x - (fp)rB_shared[j].x;
                    fxij = fs * d.x;
                    d.y = (fp)rA_shared[wtx].y - (fp)rB_shared[j].y;
                    fyij = fs * d.y;
                    d.z = (fp)rA_shared[wtx].z - (fp)rB_shared[j].z;
                    fzij = fs * d.z;

                    fA[wtx].v += (double)((fp)qB_shared[j] * vij);
                    fA[wtx].x += (double)((fp)qB_shared[j] * fxij);
                    fA[wtx].y += (double)((fp)qB_shared[j] * fyij);
                    fA[wtx].z += (double)((fp)qB_shared[j] * fzij);
                }

                // increment work thread index
                wtx = wtx + NUMBER_THREADS;
            }

            // reset work index
            wtx = tx;

            // synchronize after finishing force contributions from current nei box not to cause conflicts when
            // starting next box
            __syncthreads();
        }
    }
}

// =============================================================================================================
// dwt2d-style lifting in shared memory: the reversible 5/3 wavelet along rows (int samples, a window of 2*WIN
// with a mirrored halo of two) and the 9/7 along columns (float, a tile of 2*TY rows by TX columns, padded)
// =============================================================================================================
#ifndef DWT_WIN
#define DWT_WIN 64
#endif
#define DWT_HALO 2

__device__ __forceinline__ int dwt_mirror(int i, int n)
{
    if (i < 0)
        i = -i;
    if (i >= n)
        i = 2 * n - 2 - i;
    return i;
}

// one block a window of 2*DWT_WIN samples of one row: out row = [low half | high half]
extern "C" __global__ void fdwt53_rows(const int *in, int *out, int sx, int sy)
{
    __shared__ int buf[2 * DWT_WIN + 2 * DWT_HALO];
    const int row = blockIdx.y;
    const int x0 = blockIdx.x * 2 * DWT_WIN;
    const int *src = in + row * sx;

    for (int i = threadIdx.x; i < 2 * DWT_WIN + 2 * DWT_HALO; i += blockDim.x)
        buf[i] = src[dwt_mirror(x0 + i - DWT_HALO, sx)];
    __syncthreads();

    // predict: odd samples
    for (int i = threadIdx.x; i < DWT_WIN + 1; i += blockDim.x) {
        const int o = 2 * i + 1;
        if (o + 1 < 2 * DWT_WIN + 2 * DWT_HALO)
            buf[o] -= (buf[o - 1] + buf[o + 1]) >> 1;
    }
    __syncthreads();
    // update: even samples
    for (int i = threadIdx.x; i < DWT_WIN; i += blockDim.x) {
        const int e = 2 * i + DWT_HALO;
        buf[e] += (buf[e - 1] + buf[e + 1] + 2) >> 2;
    }
    __syncthreads();

    for (int i = threadIdx.x; i < DWT_WIN; i += blockDim.x) {
        const int x = x0 / 2 + i;
        if (x < sx / 2) {
            out[row * sx + x] = buf[2 * i + DWT_HALO];
            out[row * sx + sx / 2 + x] = buf[2 * i + DWT_HALO + 1];
        }
    }
}

#define DWT97_ALPHA -1.586134342f
#define DWT97_BETA -0.05298011854f
#define DWT97_GAMMA 0.8829110762f
#define DWT97_DELTA 0.4435068522f
#define DWT97_K 1.230174104914f

// block (TX, TY): a tile of TX columns by 2*TY rows (and 4 rows of halo above and below); each thread lifts a pair
template <int TX, int TY>
__global__ void fdwt97_cols(const float *in, float *out, int sx, int sy)
{
    __shared__ float tile[2 * TY + 8][TX + 1];
    const int col = blockIdx.x * TX + threadIdx.x;
    const int y0 = blockIdx.y * 2 * TY;

    for (int r = threadIdx.y; r < 2 * TY + 8; r += TY) {
        const int y = dwt_mirror(y0 + r - 4, sy);
        tile[r][threadIdx.x] = (col < sx) ? in[y * sx + col] : 0.0f;
    }
    __syncthreads();

    // four lifting steps over the rows of the tile (row r is y0 - 4 + r, so its parity is y's): alpha and gamma
    // lift the odd rows from their even neighbours, beta and delta the even rows; each step's rows reach one row
    // further into the halo than the tile needs, so that the tile's own rows come out exact
    const float coef[4] = {DWT97_ALPHA, DWT97_BETA, DWT97_GAMMA, DWT97_DELTA};
#pragma unroll
    for (int s = 0; s < 4; ++s) {
        for (int q = threadIdx.y; q < TY + 3; q += TY) {
            const int r = 2 * q + ((s & 1) ? 2 : 1);
            tile[r][threadIdx.x] += coef[s] * (tile[r - 1][threadIdx.x] + tile[r + 1][threadIdx.x]);
        }
        __syncthreads();
    }

    if (col < sx) {
        const int ylo = blockIdx.y * TY + threadIdx.y;
        if (ylo < sy / 2) {
            out[ylo * sx + col] = tile[2 * threadIdx.y + 4][threadIdx.x] * (1.0f / DWT97_K);
            out[(sy / 2 + ylo) * sx + col] = tile[2 * threadIdx.y + 5][threadIdx.x] * DWT97_K;
        }
    }
}

// =============================================================================================================
// Rodinia kmeans: the features inverted to column-major, then each point's nearest centre with the centres in
// constant memory; optional per-block delta and new-centre reductions in shared memory
// =============================================================================================================
#define ASSUMED_NR_CLUSTERS 32
#ifndef THREADS_PER_BLOCK
#define THREADS_PER_BLOCK 256
#endif

__constant__ float c_clusters[ASSUMED_NR_CLUSTERS * 34]; /* constant memory for cluster centers */

extern "C" __global__ void invert_mapping(float *input,  // original
                                          float *output, // inverted
                                          int npoints,   // npoints
                                          int nfeatures) // nfeatures
{
    int point_id = threadIdx.x + blockDim.x * blockIdx.x; /* id of thread */
    int i;

    if (point_id < npoints) {
        for (i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
    return;
}

extern "C" __global__ void kmeansPoint(const float *__restrict__ features, // in: [nfeatures][npoints], inverted
                                       int nfeatures, int npoints, int nclusters, int *membership,
                                       float *clusters, float *block_clusters, int *block_deltas,
                                       const float *__restrict__ features_flipped) // in: [npoints][nfeatures]
{
    // block ID
    const unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
    // point/thread ID
    const unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;

    int index = -1;

    if (point_id < npoints) {
        int i, j;
        float min_dist = FLT_MAX;
        float dist; /* distance square between a point to cluster center */

        /* find the cluster center id with min distance to pt */
        for (i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures; /* base index of cluster centers for inverted array */
            float ans = 0.0;                        /* Euclidean distance sqaure */

            for (j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints; /* appropriate index of data point */
                float diff = (__ldg(&features[addr]) - c_clusters[cluster_base_index + j]); /* distance between a data point to cluster centers */
                ans += diff * diff; /* sum of squares */
            }
            dist = ans;

            /* see if distance is smaller than previous ones:
            if so, change minimum distance and save index of cluster center */
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
    }

#ifdef GPU_DELTA_REDUCTION
    // count how many points are now closer to a different cluster center
    __shared__ int deltas[THREADS_PER_BLOCK];
    if (threadIdx.x < THREADS_PER_BLOCK) {
        deltas[threadIdx.x] = 0;
    }
#endif
    if (point_id < npoints) {
#ifdef GPU_DELTA_REDUCTION
        /* if membership changes, increase delta by 1 */
        if (membership[point_id] != index) {
            deltas[threadIdx.x] = 1;
        }
#endif
        /* assign the membership to object point_id */
        membership[point_id] = index;
    }

#ifdef GPU_DELTA_REDUCTION
    // make sure all the deltas have finished writing to shared memory
    __syncthreads();

    // now let's count them
    // primitve reduction follows
    unsigned int threadids_participating = THREADS_PER_BLOCK / 2;
    for (; threadids_participating > 1; threadids_participating /= 2) {
        if (threadIdx.x < threadids_participating) {
            deltas[threadIdx.x] += deltas[threadIdx.x + threadids_participating];
        }
        __syncthreads();
    }
    if (threadIdx.x < 1) {
        deltas[threadIdx.x] += deltas[threadIdx.x + 1];
    }
    __syncthreads();
    // propagate number of changes to global counter
    if (threadIdx.x == 0) {
        block_deltas[blockIdx.y * gridDim.x + blockIdx.x] = deltas[0];
        // printf("original id: %d, modified: %d\n", blockIdx.y*gridDim.x+blockIdx.x, blockIdx.x);
    }
#endif

#ifdef GPU_NEW_CENTER_REDUCTION
    int center_id = threadIdx.x / nfeatures;
    int dim_id = threadIdx.x - nfeatures * center_id;

    __shared__ int new_center_ids[THREADS_PER_BLOCK];

    new_center_ids[threadIdx.x] = index;
    __syncthreads();

    /***
    determine which dimension calculte the sum for
    mapping of threads is
    center0[dim0,dim1,dim2,...]center1[dim0,dim1,dim2,...]...
    ***/

    int new_base_index = (point_id - threadIdx.x) * nfeatures + dim_id;
    float accumulator = 0.f;

    if (threadIdx.x < nfeatures * nclusters) {
        // accumulate over all the elements of this threadblock
        for (int i = 0; i < (THREADS_PER_BLOCK); i++) {
            float val = __ldg(&features_flipped[new_base_index + i * nfeatures]);
            if (new_center_ids[i] == center_id)
                accumulator += val;
        }

        // now store the sum for this threadblock
        /***
        mapping to global array is
        block0[center0[dim0,dim1,dim2,...]center1[dim0,dim1,dim2,...]...]block1[...]...
        ***/
        block_clusters[(blockIdx.y * gridDim.x + blockIdx.x) * nclusters * nfeatures + threadIdx.x] = accumulator;
    }
#endif
}

// =============================================================================================================
// Parboil sgemm: C = alpha * A * B^T + beta * C, column-major; a thread a row of A (register tiling: TILE_N
// partial sums), a shared TILE_TB_HEIGHT x TILE_N tile of B that all of the block's rows read
// =============================================================================================================
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

extern "C" __global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k,
                                     float alpha, float beta)
{
    // Partial results
    float c[TILE_N];
    for (int i = 0; i < TILE_N; i++)
        c[i] = 0.0f;
    int mid = threadIdx.y * blockDim.x + threadIdx.x;  // flattened id
    int m = blockIdx.x * TILE_M + mid;
    int n = blockIdx.y * TILE_N + threadIdx.x;
    __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        float a;
        b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
        __syncthreads();
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            a = A[m + (i + j) * lda];
            for (int kk = 0; kk < TILE_N; kk++)
                c[kk] += a * b_s[j][kk];
        }
        __syncthreads();
    }
    int t = ldc * blockIdx.y * TILE_N + m;
    for (int i = 0; i < TILE_N; i++) {
        C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
    }
}

// =============================================================================================================
// Parboil stencil: the 7-point Jacobi step, coarsened by two along x, the current xy plane in (dynamic) shared
// memory and the planes below and above in registers, sliding in z
// =============================================================================================================
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

extern "C" __global__ void block2D_hybrid_coarsen_x(float c0, float c1, float *A0, float *Anext, int nx, int ny,
                                                    int nz)
{
    // thread coarsening along x direction
    const int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    const int i2 = blockIdx.x * blockDim.x * 2 + threadIdx.x + blockDim.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int sh_id = threadIdx.x + threadIdx.y * blockDim.x * 2;
    const int sh_id2 = threadIdx.x + blockDim.x + threadIdx.y * blockDim.x * 2;

    // shared memeory
    extern __shared__ float sh_A0[];
    sh_A0[sh_id] = 0.0f;
    sh_A0[sh_id2] = 0.0f;
    __syncthreads();

    // get available region for load and store
    const bool w_region = i > 0 && j > 0 && (i < (nx - 1)) && (j < (ny - 1));
    const bool w_region2 = j > 0 && (i2 < nx - 1) && (j < ny - 1);
    const bool x_l_bound = (threadIdx.x == 0);
    const bool x_h_bound = ((threadIdx.x + blockDim.x) == (blockDim.x * 2 - 1));
    const bool y_l_bound = (threadIdx.y == 0);
    const bool y_h_bound = (threadIdx.y == (blockDim.y - 1));

    // register for bottom and top planes
    // because of thread coarsening, we need to doulbe registers
    float bottom = 0.0f, bottom2 = 0.0f, top = 0.0f, top2 = 0.0f;

    // load data for bottom and current
    if ((i < nx) && (j < ny)) {
        bottom = A0[Index3D(nx, ny, i, j, 0)];
        sh_A0[sh_id] = A0[Index3D(nx, ny, i, j, 1)];
    }
    if ((i2 < nx) && (j < ny)) {
        bottom2 = A0[Index3D(nx, ny, i2, j, 0)];
        sh_A0[sh_id2] = A0[Index3D(nx, ny, i2, j, 1)];
    }

    __syncthreads();

    for (int k = 1; k < nz - 1; k++) {

        float a_left_right, a_up, a_down;

        // load required data on xy planes
        // if inside shared memory read from shared memory
        if ((i < nx) && (j < ny)) {
            top = A0[Index3D(nx, ny, i, j, k + 1)];
        }
        if ((i2 < nx) && (j < ny)) {
            top2 = A0[Index3D(nx, ny, i2, j, k + 1)];
        }

        // deal with two threads coarsened in x
        if (w_region) {
            a_up = y_h_bound ? A0[Index3D(nx, ny, i, j + 1, k)] : sh_A0[sh_id + 2 * blockDim.x];
            a_down = y_l_bound ? A0[Index3D(nx, ny, i, j - 1, k)] : sh_A0[sh_id - 2 * blockDim.x];
            a_left_right = x_l_bound ? A0[Index3D(nx, ny, i - 1, j, k)] : sh_A0[sh_id - 1];

            Anext[Index3D(nx, ny, i, j, k)] = (top + bottom + a_up + a_down + sh_A0[sh_id + 1] + a_left_right) * c1 -
                                              sh_A0[sh_id] * c0;
        }

        if (w_region2) {
            a_up = y_h_bound ? A0[Index3D(nx, ny, i2, j + 1, k)] : sh_A0[sh_id2 + 2 * blockDim.x];
            a_down = y_l_bound ? A0[Index3D(nx, ny, i2, j - 1, k)] : sh_A0[sh_id2 - 2 * blockDim.x];
            a_left_right = x_h_bound ? A0[Index3D(nx, ny, i2 + 1, j, k)] : sh_A0[sh_id2 + 1];

            Anext[Index3D(nx, ny, i2, j, k)] = (top2 + bottom2 + a_up + a_down + a_left_right + sh_A0[sh_id2 - 1]) * c1 -
                                               sh_A0[sh_id2] * c0;
        }

        // swap data
        __syncthreads();
        bottom = sh_A0[sh_id];
        sh_A0[sh_id] = top;
        bottom2 = sh_A0[sh_id2];
        sh_A0[sh_id2] = top2;
        __syncthreads();
    }
}

// =============================================================================================================
// Parboil histo: the prescan's mean and deviation of a sample of the input (shared trees, a warp-synchronous
// tail), and the final pass that saturates the bins to bytes: ushort4 and uint4 reads, uchar4 writes
// =============================================================================================================
#ifndef PRESCAN_THREADS
#define PRESCAN_THREADS 256
#endif
#define BINS_PER_BLOCK 4096

extern "C" __global__ void histo_prescan_kernel(unsigned int *input, int size, unsigned int *minmax)
{
    __shared__ float Avg[PRESCAN_THREADS];
    __shared__ float StdDev[PRESCAN_THREADS];

    int stride = size / gridDim.x;
    int addr = blockIdx.x * stride + threadIdx.x;
    int end = blockIdx.x * stride + stride / 8;  // Only sample 1/8th of the input data

    // Compute the average per thread
    float avg = 0.0;
    unsigned int count = 0;
    while (addr < end) {
        avg += input[addr];
        count++;
        addr += blockDim.x;
    }
    avg /= count;
    Avg[threadIdx.x] = avg;

    // Compute the standard deviation per thread
    int addr2 = blockIdx.x * stride + threadIdx.x;
    float stddev = 0;
    while (addr2 < end) {
        stddev += (input[addr2] - avg) * (input[addr2] - avg);
        addr2 += blockDim.x;
    }
    stddev /= count;
    StdDev[threadIdx.x] = sqrtf(stddev);

#define SUM(stride__)                                                                                                  \
    if (threadIdx.x < stride__) {                                                                                      \
        Avg[threadIdx.x] += Avg[threadIdx.x + stride__];                                                               \
        StdDev[threadIdx.x] += StdDev[threadIdx.x + stride__];                                                         \
    }

    // Add all the averages and standard deviations from all the threads
    // and take their arithmetic average (as a simplified approximation of the
    // real average and standard deviation.
#if (PRESCAN_THREADS >= 32)
    for (int stride = PRESCAN_THREADS / 2; stride >= 32; stride = stride >> 1) {
        __syncthreads();
        SUM(stride);
    }
#endif

#if (PRESCAN_THREADS >= 16)
    SUM(16);
#endif
#if (PRESCAN_THREADS >= 8)
    SUM(8);
#endif
#if (PRESCAN_THREADS >= 4)
    SUM(4);
#endif
#if (PRESCAN_THREADS >= 2)
    SUM(2);
#endif

    if (threadIdx.x == 0) {
        float avg = Avg[0] + Avg[1];
        avg /= PRESCAN_THREADS;
        float stddev = StdDev[0] + StdDev[1];
        stddev /= PRESCAN_THREADS;

        // Take the maximum and minimum range from all the blocks. This will
        // be the final answer. The standard deviation is taken out to 10 sigma
        // away from the average. The value 10 was obtained empirically.
        atomicMin(minmax, ((unsigned int)(avg - 10 * stddev)) / (BINS_PER_BLOCK));
        atomicMax(minmax + 1, ((unsigned int)(avg + 10 * stddev)) / (BINS_PER_BLOCK));
    }
#undef SUM
}

extern "C" __global__ void histo_final_kernel(unsigned int sm_range_min, unsigned int sm_range_max,
                                              unsigned int histo_height, unsigned int histo_width,
                                              unsigned int *global_subhisto, unsigned int *global_histo,
                                              unsigned int *global_overflow, unsigned int *final_histo)  // final output
{
    unsigned int start_offset = threadIdx.x + blockIdx.x * blockDim.x;
    const ushort4 zero_short = {0, 0, 0, 0};
    const uint4 zero_int = {0, 0, 0, 0};

    unsigned int size_low_histo = sm_range_min * BINS_PER_BLOCK;
    unsigned int size_mid_histo = (sm_range_max - sm_range_min + 1) * BINS_PER_BLOCK;

    /* Clear lower region of global histogram */
    for (unsigned int i = start_offset; i < size_low_histo / 4; i += gridDim.x * blockDim.x) {
        ushort4 global_histo_data = ((ushort4 *)global_histo)[i];
        ((ushort4 *)global_histo)[i] = zero_short;

        global_histo_data.x = min(global_histo_data.x, 255);
        global_histo_data.y = min(global_histo_data.y, 255);
        global_histo_data.z = min(global_histo_data.z, 255);
        global_histo_data.w = min(global_histo_data.w, 255);

        uchar4 result_data = make_uchar4(global_histo_data.x, global_histo_data.y, global_histo_data.z,
                                         global_histo_data.w);

        ((uchar4 *)final_histo)[i] = result_data;
    }

    /* Clear the middle region of the overflow buffer */
    for (unsigned int i = (size_low_histo / 4) + start_offset; i < (size_low_histo + size_mid_histo) / 4;
         i += gridDim.x * blockDim.x) {
        uint4 global_histo_data = ((uint4 *)global_overflow)[i];
        ((uint4 *)global_overflow)[i] = zero_int;

        uint4 internal_histo_data = {global_subhisto[4 * i + 0], global_subhisto[4 * i + 1],
                                     global_subhisto[4 * i + 2], global_subhisto[4 * i + 3]};

        unsigned int bin4in0 = ((unsigned int *)global_histo)[i * 2];
        unsigned int bin4in1 = ((unsigned int *)global_histo)[i * 2 + 1];

        ((unsigned int *)global_histo)[i * 2] = 0;
        ((unsigned int *)global_histo)[i * 2 + 1] = 0;

        unsigned int val_x = internal_histo_data.x + (bin4in0 & 0xFFFF) + global_histo_data.x;
        unsigned int val_y = internal_histo_data.y + (bin4in0 >> 16) + global_histo_data.y;
        unsigned int val_z = internal_histo_data.z + (bin4in1 & 0xFFFF) + global_histo_data.z;
        unsigned int val_w = internal_histo_data.w + (bin4in1 >> 16) + global_histo_data.w;

        uchar4 result_data = make_uchar4(min(val_x, 255), min(val_y, 255), min(val_z, 255), min(val_w, 255));

        ((uchar4 *)final_histo)[i] = result_data;
    }

    /* Clear the upper region of global histogram */
    for (unsigned int i = ((size_low_histo + size_mid_histo) / 4) + start_offset;
         i < (histo_height * histo_width) / 4; i += gridDim.x * blockDim.x) {
        ushort4 global_histo_data = ((ushort4 *)global_histo)[i];
        ((ushort4 *)global_histo)[i] = zero_short;

        global_histo_data.x = min(global_histo_data.x, 255);
        global_histo_data.y = min(global_histo_data.y, 255);
        global_histo_data.z = min(global_histo_data.z, 255);
        global_histo_data.w = min(global_histo_data.w, 255);

        uchar4 result_data = make_uchar4(global_histo_data.x, global_histo_data.y, global_histo_data.z,
                                         global_histo_data.w);

        ((uchar4 *)final_histo)[i] = result_data;
    }
}

// =============================================================================================================
// Parboil mri-q: Q over the sample points, the k-space values in constant memory a chunk a launch
// =============================================================================================================
#define PI 3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define K_ELEMS_PER_GRID 2048
#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kValues {
    float Kx;
    float Ky;
    float Kz;
    float PhiMag;
};

__constant__ __device__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

extern "C" __global__ void ComputePhiMag_GPU(float *phiR, float *phiI, float *phiMag, int numK)
{
    int indexK = blockIdx.x * KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
    if (indexK < numK) {
        float real = phiR[indexK];
        float imag = phiI[indexK];
        phiMag[indexK] = real * real + imag * imag;
    }
}

extern "C" __global__ void ComputeQ_GPU(int numK, int kGlobalIndex, float *x, float *y, float *z, float *Qr, float *Qi)
{
    float sX;
    float sY;
    float sZ;
    float sQr;
    float sQi;

    // Determine the element of the X arrays computed by this thread
    int xIndex = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;

    // Read block's X values from global mem to shared mem
    sX = x[xIndex];
    sY = y[xIndex];
    sZ = z[xIndex];
    sQr = Qr[xIndex];
    sQi = Qi[xIndex];

    // Loop over all elements of K in constant mem to compute a partial value
    // for X.
    int kIndex = 0;
    if (numK % 2) {
        float expArg = PIx2 * (ck[0].Kx * sX + ck[0].Ky * sY + ck[0].Kz * sZ);
        sQr += ck[0].PhiMag * cos(expArg);
        sQi += ck[0].PhiMag * sin(expArg);
        kIndex++;
        kGlobalIndex++;
    }

    for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID) && (kGlobalIndex < numK); kIndex += 2, kGlobalIndex += 2) {
        float expArg = PIx2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
        sQr += ck[kIndex].PhiMag * cos(expArg);
        sQi += ck[kIndex].PhiMag * sin(expArg);

        int kIndex1 = kIndex + 1;
        float expArg1 = PIx2 * (ck[kIndex1].Kx * sX + ck[kIndex1].Ky * sY + ck[kIndex1].Kz * sZ);
        sQr += ck[kIndex1].PhiMag * cos(expArg1);
        sQi += ck[kIndex1].PhiMag * sin(expArg1);
    }

    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}

// =============================================================================================================
// Parboil cutcp: the cutoff Coulombic potential on a lattice; a block an 8x8x8 region (block 8x2x8, four points a
// thread along y), the atoms of the neighbourhood's bins staged BIN_CACHE_MAXLEN bins at a time in shared memory,
// one thread a whole bin (float4 atoms, BIN_DEPTH of them)
// =============================================================================================================
#define BIN_DEPTH 8  /* max number of atoms per bin */
#define BIN_SIZE 32  /* size of bin in floats */
#define BIN_SHIFT 5  /* # of bits to shift for mul/div by BIN_SIZE */
#define BIN_CACHE_MAXLEN 32 /* max number of atom bins to cache */
#define BLOCK_DIM_X 8
#define BLOCK_DIM_Y 2
#define BLOCK_DIM_Z 8
#define REGION_SIZE 8
#define NBR_SPAN 4 /* the neighbourhood: NBR_SPAN^3 bins around the region's */
#define NbrListLen (NBR_SPAN * NBR_SPAN * NBR_SPAN)

extern "C" __global__ void cuda_cutoff_potential_lattice(int binDim_x, int binDim_y, float4 *binZeroAddr, float h,
                                                         float cutoff2, float inv_cutoff2, float *regionZeroAddr,
                                                         int zRegionIndex)
{
    __shared__ float AtomBinCache[BIN_CACHE_MAXLEN * BIN_DEPTH * 4];
    __shared__ float *myRegionAddr;
    __shared__ int3 myBinIndex;

    const int xRegionIndex = blockIdx.x;
    const int yRegionIndex = blockIdx.y;

    /* thread id */
    const int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;

    /* neighbor index */
    int nbrid;

    /* this is the start of the sub-region indexed by tid */
    float *thisRegion;

    float energy0 = 0.f;
    float energy1 = 0.f;
    float energy2 = 0.f;
    float energy3 = 0.f;

    if (tid == 0) {
        const int regionDim_x = gridDim.x;
        const int regionDim_y = gridDim.y;
        myRegionAddr = regionZeroAddr + ((zRegionIndex * regionDim_y + yRegionIndex) * regionDim_x + xRegionIndex) *
                                            REGION_SIZE * REGION_SIZE * REGION_SIZE;
        /* the bin at the region's lower corner (a border of one empty bin around the domain) */
        myBinIndex.x = xRegionIndex * 2 + 1;
        myBinIndex.y = yRegionIndex * 2 + 1;
        myBinIndex.z = zRegionIndex * 2 + 1;
    }
    __syncthreads();

    /* the lattice point's coordinates (relative to the domain's origin) */
    const float xs = ((xRegionIndex * REGION_SIZE) + threadIdx.x) * h;
    const float ys = ((yRegionIndex * REGION_SIZE) + threadIdx.y) * h;
    const float zs = ((zRegionIndex * REGION_SIZE) + threadIdx.z) * h;

    for (int loopcnt = 0; loopcnt < NbrListLen; loopcnt += BIN_CACHE_MAXLEN) {
        if (tid < BIN_CACHE_MAXLEN && loopcnt + tid < NbrListLen) {
            nbrid = loopcnt + tid;
            const int i = myBinIndex.x + (nbrid % NBR_SPAN) - 1;
            const int j = myBinIndex.y + ((nbrid / NBR_SPAN) % NBR_SPAN) - 1;
            const int k = myBinIndex.z + (nbrid / (NBR_SPAN * NBR_SPAN)) - 1;

            /* determine global memory location of atom bin i,j,k */
            float4 *p_global = binZeroAddr + (((k * binDim_y + j) * binDim_x + i) << 3);

            /* copy the atom bin to shared memory, a float4 at a time */
            for (int a = 0; a < BIN_DEPTH; a++) {
                const float4 atom = p_global[a];
                AtomBinCache[(tid << BIN_SHIFT) + 4 * a + 0] = atom.x;
                AtomBinCache[(tid << BIN_SHIFT) + 4 * a + 1] = atom.y;
                AtomBinCache[(tid << BIN_SHIFT) + 4 * a + 2] = atom.z;
                AtomBinCache[(tid << BIN_SHIFT) + 4 * a + 3] = atom.w;
            }
        }
        __syncthreads();

        for (nbrid = 0; nbrid < BIN_CACHE_MAXLEN && loopcnt + nbrid < NbrListLen; nbrid++) {
            for (int n = 0; n < BIN_DEPTH; n++) {
                const float aq = AtomBinCache[(nbrid << BIN_SHIFT) + 4 * n + 3];
                if (0.f == aq)
                    break; /* no more atoms in bin */

                const float dx = AtomBinCache[(nbrid << BIN_SHIFT) + 4 * n + 0] - xs;
                const float dz = AtomBinCache[(nbrid << BIN_SHIFT) + 4 * n + 2] - zs;
                const float dxdz2 = dx * dx + dz * dz;
                float dy = AtomBinCache[(nbrid << BIN_SHIFT) + 4 * n + 1] - ys;
                float r2 = dy * dy + dxdz2;

                if (r2 < cutoff2) {
                    float s = (1.f - r2 * inv_cutoff2);
                    energy0 += aq * rsqrtf(r2) * s * s;
                }
                dy -= 2 * h;
                r2 = dy * dy + dxdz2;
                if (r2 < cutoff2) {
                    float s = (1.f - r2 * inv_cutoff2);
                    energy1 += aq * rsqrtf(r2) * s * s;
                }
                dy -= 2 * h;
                r2 = dy * dy + dxdz2;
                if (r2 < cutoff2) {
                    float s = (1.f - r2 * inv_cutoff2);
                    energy2 += aq * rsqrtf(r2) * s * s;
                }
                dy -= 2 * h;
                r2 = dy * dy + dxdz2;
                if (r2 < cutoff2) {
                    float s = (1.f - r2 * inv_cutoff2);
                    energy3 += aq * rsqrtf(r2) * s * s;
                }
            } /* end loop over atoms in bin */
        }     /* end loop over cached atom bins */
        __syncthreads();

    } /* end loop over neighbor list */

    /* store into global memory */
    thisRegion = myRegionAddr + (threadIdx.z << 6) + (threadIdx.y << 3) + threadIdx.x;
    thisRegion[0] += energy0;
    thisRegion[16] += energy1;
    thisRegion[32] += energy2;
    thisRegion[48] += energy3;
}

// =============================================================================================================
// Parboil tpacf: angular pair counts; a tile of points in shared memory, the bin boundaries (cosines, decreasing)
// in shared memory searched by bisection, the counts in shared sub-histograms (HISTS_PER_WARP a warp)
// =============================================================================================================
#ifndef TPACF_BLOCK_SIZE
#define TPACF_BLOCK_SIZE 128
#endif
#define NUM_BINS 20
#define TPACF_NUM_WARPS (TPACF_BLOCK_SIZE / WARP_SIZE)
#define HISTS_PER_WARP 16
#define NUM_HISTOGRAMS (TPACF_NUM_WARPS * HISTS_PER_WARP)
#define THREADS_PER_HIST (WARP_SIZE / HISTS_PER_WARP)

typedef unsigned long long hist_t;

struct cartesian {
    float x, y, z;
};

extern "C" __global__ void gen_hists(hist_t *histograms, float *all_x_data, float *all_y_data, float *all_z_data,
                                     float *binb, int NUM_ELEMENTS)
{
    unsigned int bx = blockIdx.x;
    unsigned int tid = threadIdx.x;
    unsigned int warp_id = tid / WARP_SIZE;

    __shared__ struct cartesian data_s[TPACF_BLOCK_SIZE];
    __shared__ float binb_s[NUM_BINS + 1];
    __shared__ unsigned int warp_hists[NUM_BINS][NUM_HISTOGRAMS];

    for (unsigned int w = 0; w < NUM_BINS * NUM_HISTOGRAMS; w += TPACF_BLOCK_SIZE) {
        if (w + tid < NUM_BINS * NUM_HISTOGRAMS) {
            warp_hists[(w + tid) / NUM_HISTOGRAMS][(w + tid) % NUM_HISTOGRAMS] = 0;
        }
    }
    if (tid < NUM_BINS + 1)
        binb_s[tid] = binb[tid];

    // this block's points
    unsigned int my = bx * TPACF_BLOCK_SIZE + tid;
    float data_x = 0.f, data_y = 0.f, data_z = 0.f;
    if (my < NUM_ELEMENTS) {
        data_x = all_x_data[my];
        data_y = all_y_data[my];
        data_z = all_z_data[my];
    }

    // against every point with a larger index, a tile at a time
    for (unsigned int j = bx * TPACF_BLOCK_SIZE; j < NUM_ELEMENTS; j += TPACF_BLOCK_SIZE) {
        __syncthreads();
        if (j + tid < NUM_ELEMENTS) {
            data_s[tid].x = all_x_data[j + tid];
            data_s[tid].y = all_y_data[j + tid];
            data_s[tid].z = all_z_data[j + tid];
        }
        __syncthreads();

        const unsigned int stop = min(TPACF_BLOCK_SIZE, NUM_ELEMENTS - j);
        if (my < NUM_ELEMENTS) {
            for (unsigned int k = 0; k < stop; k += 1) {
                if (j + k <= my)
                    continue;
                // do binary search for the bin of this dot product
                float dot = data_x * data_s[k].x + data_y * data_s[k].y + data_z * data_s[k].z;

                unsigned int min = 0;
                unsigned int max = NUM_BINS;
                unsigned int k2;

                while (max > min + 1) {
                    k2 = (min + max) / 2;
                    if (dot >= binb_s[k2])
                        max = k2;
                    else
                        min = k2;
                }
                atomicAdd(&warp_hists[min][warp_id * HISTS_PER_WARP + (tid % HISTS_PER_WARP)], 1);
            }
        }
    }
    __syncthreads();

    // sum the sub-histograms: a thread a bin
    for (unsigned int bin = tid; bin < NUM_BINS; bin += TPACF_BLOCK_SIZE) {
        hist_t sum = 0;
        for (unsigned int h = 0; h < NUM_HISTOGRAMS; h++)
            sum += warp_hists[bin][h];
        histograms[bx * NUM_BINS + bin] = sum;
    }
}

// =============================================================================================================
// Parboil lbm: one D3Q19 stream-and-collide step, structure of arrays with the 20th field the cell's flags, a
// block a row of SIZE_X cells, each cell's 19 reads at home and 19 writes pushed to its neighbours (global only)
// =============================================================================================================
#ifndef SIZE_X
#define SIZE_X 40
#endif
#ifndef SIZE_Y
#define SIZE_Y 3
#endif
#ifndef SIZE_Z
#define SIZE_Z 3
#endif
#define PADDED_X SIZE_X
#define PADDED_Y SIZE_Y
#define PADDED_Z (SIZE_Z + 4)
#define TOTAL_PADDED_CELLS (PADDED_X * PADDED_Y * PADDED_Z)
#define OMEGA 1.95f

typedef enum { C = 0, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB, FLAGS, N_CELL_ENTRIES } CELL_ENTRIES;
typedef enum { OBSTACLE = 1 << 0, ACCEL = 1 << 1, IN_OUT_FLOW = 1 << 2 } CELL_FLAGS;

#define CALC_INDEX(x, y, z, e) (TOTAL_PADDED_CELLS * e + ((x) + (y) * PADDED_X + (z) * PADDED_X * PADDED_Y))
#define MARGIN (CALC_INDEX(0, 0, 2, 0) - CALC_INDEX(0, 0, 0, 0))

#define SWEEP_X __temp_x__
#define SWEEP_Y __temp_y__
#define SWEEP_Z __temp_z__
#define SWEEP_VAR int __temp_x__ = 0, __temp_y__ = 0, __temp_z__ = 0;

#define GRID_ENTRY_SWEEP(g, dx, dy, dz, e) ((g)[CALC_INDEX((dx) + SWEEP_X, (dy) + SWEEP_Y, (dz) + SWEEP_Z, e)])
#define LOCAL(g, e) (GRID_ENTRY_SWEEP(g, 0, 0, 0, e))
#define NEIGHBOR(g, dx, dy, dz, e) (GRID_ENTRY_SWEEP(g, dx, dy, dz, e))

#define SRC_C(g) (LOCAL(g, C))
#define SRC_N(g) (LOCAL(g, N))
#define SRC_S(g) (LOCAL(g, S))
#define SRC_E(g) (LOCAL(g, E))
#define SRC_W(g) (LOCAL(g, W))
#define SRC_T(g) (LOCAL(g, T))
#define SRC_B(g) (LOCAL(g, B))
#define SRC_NE(g) (LOCAL(g, NE))
#define SRC_NW(g) (LOCAL(g, NW))
#define SRC_SE(g) (LOCAL(g, SE))
#define SRC_SW(g) (LOCAL(g, SW))
#define SRC_NT(g) (LOCAL(g, NT))
#define SRC_NB(g) (LOCAL(g, NB))
#define SRC_ST(g) (LOCAL(g, ST))
#define SRC_SB(g) (LOCAL(g, SB))
#define SRC_ET(g) (LOCAL(g, ET))
#define SRC_EB(g) (LOCAL(g, EB))
#define SRC_WT(g) (LOCAL(g, WT))
#define SRC_WB(g) (LOCAL(g, WB))

#define DST_C(g) (NEIGHBOR(g, 0, 0, 0, C))
#define DST_N(g) (NEIGHBOR(g, 0, +1, 0, N))
#define DST_S(g) (NEIGHBOR(g, 0, -1, 0, S))
#define DST_E(g) (NEIGHBOR(g, +1, 0, 0, E))
#define DST_W(g) (NEIGHBOR(g, -1, 0, 0, W))
#define DST_T(g) (NEIGHBOR(g, 0, 0, +1, T))
#define DST_B(g) (NEIGHBOR(g, 0, 0, -1, B))
#define DST_NE(g) (NEIGHBOR(g, +1, +1, 0, NE))
#define DST_NW(g) (NEIGHBOR(g, -1, +1, 0, NW))
#define DST_SE(g) (NEIGHBOR(g, +1, -1, 0, SE))
#define DST_SW(g) (NEIGHBOR(g, -1, -1, 0, SW))
#define DST_NT(g) (NEIGHBOR(g, 0, +1, +1, NT))
#define DST_NB(g) (NEIGHBOR(g, 0, +1, -1, NB))
#define DST_ST(g) (NEIGHBOR(g, 0, -1, +1, ST))
#define DST_SB(g) (NEIGHBOR(g, 0, -1, -1, SB))
#define DST_ET(g) (NEIGHBOR(g, +1, 0, +1, ET))
#define DST_EB(g) (NEIGHBOR(g, +1, 0, -1, EB))
#define DST_WT(g) (NEIGHBOR(g, -1, 0, +1, WT))
#define DST_WB(g) (NEIGHBOR(g, -1, 0, -1, WB))

#define MAGIC_CAST(v) ((unsigned int *)((void *)(&(v))))
#define FLAG_VAR(v) unsigned int *_aux_ = MAGIC_CAST(v)
#define TEST_FLAG_SWEEP(g, f) ((*MAGIC_CAST(LOCAL(g, FLAGS))) & (f))

#define DFL1 (1.0f / 3.0f)
#define DFL2 (1.0f / 18.0f)
#define DFL3 (1.0f / 36.0f)

extern "C" __global__ void performStreamCollide_kernel(float *srcGrid, float *dstGrid)
{
    srcGrid += MARGIN;
    dstGrid += MARGIN;

    // Using some predefined macros here.  Consider this the declaration
    //  and initialization of the variables SWEEP_X, SWEEP_Y and SWEEP_Z

    SWEEP_VAR
    SWEEP_X = threadIdx.x;
    SWEEP_Y = blockIdx.x;
    SWEEP_Z = blockIdx.y;

    float temp_swp, tempC, tempN, tempS, tempE, tempW, tempT, tempB;
    float tempNE, tempNW, tempSE, tempSW, tempNT, tempNB, tempST;
    float tempSB, tempET, tempEB, tempWT, tempWB;

    // Load all of the input fields
    // This is a gather operation of the SCATTER preprocessor variable
    // is undefined in layout_config.h, or a "local" read otherwise
    tempC = SRC_C(srcGrid);
    tempN = SRC_N(srcGrid);
    tempS = SRC_S(srcGrid);
    tempE = SRC_E(srcGrid);
    tempW = SRC_W(srcGrid);
    tempT = SRC_T(srcGrid);
    tempB = SRC_B(srcGrid);
    tempNE = SRC_NE(srcGrid);
    tempNW = SRC_NW(srcGrid);
    tempSE = SRC_SE(srcGrid);
    tempSW = SRC_SW(srcGrid);
    tempNT = SRC_NT(srcGrid);
    tempNB = SRC_NB(srcGrid);
    tempST = SRC_ST(srcGrid);
    tempSB = SRC_SB(srcGrid);
    tempET = SRC_ET(srcGrid);
    tempEB = SRC_EB(srcGrid);
    tempWT = SRC_WT(srcGrid);
    tempWB = SRC_WB(srcGrid);

    // Test whether the cell is fluid or obstacle
    if (TEST_FLAG_SWEEP(srcGrid, OBSTACLE)) {
        // Swizzle the inputs: reflect any fluid coming into this cell
        // back to where it came from
        temp_swp = tempN;
        tempN = tempS;
        tempS = temp_swp;
        temp_swp = tempE;
        tempE = tempW;
        tempW = temp_swp;
        temp_swp = tempT;
        tempT = tempB;
        tempB = temp_swp;
        temp_swp = tempNE;
        tempNE = tempSW;
        tempSW = temp_swp;
        temp_swp = tempNW;
        tempNW = tempSE;
        tempSE = temp_swp;
        temp_swp = tempNT;
        tempNT = tempSB;
        tempSB = temp_swp;
        temp_swp = tempNB;
        tempNB = tempST;
        tempST = temp_swp;
        temp_swp = tempET;
        tempET = tempWB;
        tempWB = temp_swp;
        temp_swp = tempEB;
        tempEB = tempWT;
        tempWT = temp_swp;
    } else {
        // The math meat of LBM: ignore for optimization
        float ux, uy, uz, rho, u2;
        float temp1, temp2, temp_base;
        rho = tempC + tempN + tempS + tempE + tempW + tempT + tempB + tempNE + tempNW + tempSE + tempSW + tempNT +
              tempNB + tempST + tempSB + tempET + tempEB + tempWT + tempWB;

        ux = +tempE - tempW + tempNE - tempNW + tempSE - tempSW + tempET + tempEB - tempWT - tempWB;
        uy = +tempN - tempS + tempNE + tempNW - tempSE - tempSW + tempNT + tempNB - tempST - tempSB;
        uz = +tempT - tempB + tempNT - tempNB + tempST - tempSB + tempET - tempEB + tempWT - tempWB;

        ux /= rho;
        uy /= rho;
        uz /= rho;
        if (TEST_FLAG_SWEEP(srcGrid, ACCEL)) {
            ux = 0.005f;
            uy = 0.002f;
            uz = 0.000f;
        }
        u2 = 1.5f * (ux * ux + uy * uy + uz * uz) - 1.0f;
        temp_base = OMEGA * rho;
        temp1 = DFL1 * temp_base;

        // Put the output values for this cell in the shared memory
        temp_base = OMEGA * rho;
        temp1 = DFL1 * temp_base;
        temp2 = 1.0f - OMEGA;
        tempC = temp2 * tempC + temp1 * (-u2);
        temp1 = DFL2 * temp_base;
        tempN = temp2 * tempN + temp1 * (uy * (4.5f * uy + 3.0f) - u2);
        tempS = temp2 * tempS + temp1 * (uy * (4.5f * uy - 3.0f) - u2);
        tempT = temp2 * tempT + temp1 * (uz * (4.5f * uz + 3.0f) - u2);
        tempB = temp2 * tempB + temp1 * (uz * (4.5f * uz - 3.0f) - u2);
        tempE = temp2 * tempE + temp1 * (ux * (4.5f * ux + 3.0f) - u2);
        tempW = temp2 * tempW + temp1 * (ux * (4.5f * ux - 3.0f) - u2);
        temp1 = DFL3 * temp_base;
        tempNT = temp2 * tempNT + temp1 * ((+uy + uz) * (4.5f * (+uy + uz) + 3.0f) - u2);
        tempNB = temp2 * tempNB + temp1 * ((+uy - uz) * (4.5f * (+uy - uz) + 3.0f) - u2);
        tempST = temp2 * tempST + temp1 * ((-uy + uz) * (4.5f * (-uy + uz) + 3.0f) - u2);
        tempSB = temp2 * tempSB + temp1 * ((-uy - uz) * (4.5f * (-uy - uz) + 3.0f) - u2);
        tempNE = temp2 * tempNE + temp1 * ((+ux + uy) * (4.5f * (+ux + uy) + 3.0f) - u2);
        tempSE = temp2 * tempSE + temp1 * ((+ux - uy) * (4.5f * (+ux - uy) + 3.0f) - u2);
        tempET = temp2 * tempET + temp1 * ((+ux + uz) * (4.5f * (+ux + uz) + 3.0f) - u2);
        tempEB = temp2 * tempEB + temp1 * ((+ux - uz) * (4.5f * (+ux - uz) + 3.0f) - u2);
        tempNW = temp2 * tempNW + temp1 * ((-ux + uy) * (4.5f * (-ux + uy) + 3.0f) - u2);
        tempSW = temp2 * tempSW + temp1 * ((-ux - uy) * (4.5f * (-ux - uy) + 3.0f) - u2);
        tempWT = temp2 * tempWT + temp1 * ((-ux + uz) * (4.5f * (-ux + uz) + 3.0f) - u2);
        tempWB = temp2 * tempWB + temp1 * ((-ux - uz) * (4.5f * (-ux - uz) + 3.0f) - u2);
    }

    // Write the results computed above
    // This is a scatter operation of the SCATTER preprocessor variable
    // is defined in layout_config.h, or a "local" write otherwise
    DST_C(dstGrid) = tempC;

    DST_N(dstGrid) = tempN;
    DST_S(dstGrid) = tempS;
    DST_E(dstGrid) = tempE;
    DST_W(dstGrid) = tempW;
    DST_T(dstGrid) = tempT;
    DST_B(dstGrid) = tempB;

    DST_NE(dstGrid) = tempNE;
    DST_NW(dstGrid) = tempNW;
    DST_SE(dstGrid) = tempSE;
    DST_SW(dstGrid) = tempSW;
    DST_NT(dstGrid) = tempNT;
    DST_NB(dstGrid) = tempNB;
    DST_ST(dstGrid) = tempST;
    DST_SB(dstGrid) = tempSB;
    DST_ET(dstGrid) = tempET;
    DST_EB(dstGrid) = tempEB;
    DST_WT(dstGrid) = tempWT;
    DST_WB(dstGrid) = tempWB;
}
