// Shared accesses and the lines their SASS stands on (sass._across_lines):
//   vector_from_lines   a float4 assembled one component a statement, each on its own line: ptxas makes
//                       one LDS.128 of the four loads, on the first line
//   guarded_overwrite   a store and, on the block at the grid's edge, a second store to the same word
//                       (a halo default and its edge value). ptxas keeps both here, the second predicated,
//                       each on its line; in Rodinia's srad it made such pairs one store, on another line
//                       of the block (the unit tests in tests/test_analyze_ptxas_effects.py take that case)
#define SIDE 64

extern "C" __global__ void vector_from_lines(const float *in, float4 *out)
{
    __shared__ __align__(16) float tile[SIDE][SIDE];
    const int t = threadIdx.x;
    for (int i = t; i < SIDE * SIDE; i += blockDim.x) tile[i / SIDE][i % SIDE] = in[i];
    __syncthreads();
    const int row = t % SIDE, quad = t / SIDE;  // lanes walk down a column of quads: 256 bytes apart
    float4 v;
    v.x = tile[row][4 * quad + 0];
    v.y = tile[row][4 * quad + 1];
    v.z = tile[row][4 * quad + 2];
    v.w = tile[row][4 * quad + 3];
    out[t] = v;
}

extern "C" __global__ void guarded_overwrite(const float *in, float *out, int edge)
{
    __shared__ float halo[16][17];
    const int tx = threadIdx.x, ty = threadIdx.y;
    halo[ty][tx] = in[ty * 16 + tx];
    if (blockIdx.x == gridDim.x - 1) {
        halo[ty][tx] = in[edge + tx];
    }
    __syncthreads();
    out[ty * 16 + tx] = halo[tx][ty] + halo[ty][(tx + 1) % 16];
}
