// Halo stencils.
//   stencil_1d  NVIDIA's "CUDA C/C++ Basics" 1-D stencil: BLOCK_SIZE points plus RADIUS halo points on
//               each side in shared memory, the first RADIUS threads loading both halos; `in` holds
//               the padded input (n + 2 * RADIUS ints)
//   jacobi2d    a 5-point 2-D stencil on 16x16 blocks with an (16+2)x(16+2) halo tile; edge threads
//               load the halo in divergent branches; a warp covers two tile rows of 18 floats
#define RADIUS 3
#define BLOCK_SIZE 256

extern "C" __global__ void stencil_1d(const int *in, int *out)
{
    __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
    int gindex = threadIdx.x + blockIdx.x * blockDim.x;
    int lindex = threadIdx.x + RADIUS;
    // read input elements into shared memory (in is padded by RADIUS on the left)
    temp[lindex] = in[gindex + RADIUS];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex];
        temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE + RADIUS];
    }
    __syncthreads();
    int result = 0;
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += temp[lindex + offset];
    out[gindex] = result;
}

#define BX 16
#define BY 16

extern "C" __global__ void jacobi2d(const float *in, float *out, int nx, int ny)
{
    __shared__ float tile[BY + 2][BX + 2];
    const int gx = blockIdx.x * BX + threadIdx.x;
    const int gy = blockIdx.y * BY + threadIdx.y;
    const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    tile[ly][lx] = in[gy * nx + gx];
    if (threadIdx.x == 0) tile[ly][0] = gx > 0 ? in[gy * nx + gx - 1] : 0.0f;
    if (threadIdx.x == BX - 1) tile[ly][BX + 1] = gx + 1 < nx ? in[gy * nx + gx + 1] : 0.0f;
    if (threadIdx.y == 0) tile[0][lx] = gy > 0 ? in[(gy - 1) * nx + gx] : 0.0f;
    if (threadIdx.y == BY - 1) tile[BY + 1][lx] = gy + 1 < ny ? in[(gy + 1) * nx + gx] : 0.0f;
    __syncthreads();
    out[gy * nx + gx] = 0.25f * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx]);
}
