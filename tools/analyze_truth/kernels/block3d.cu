// 3-D thread blocks (threadIdx.z in play; a warp spans several y and z rows).
//   volume_transpose_xz  an 8x8x8 block (512 threads) stores s[z][y][x] and reads s[x][y][z]
//                        (lanes 64 floats apart: conflicts); out[z][y][x] = in[x][y][z]
//   stencil3d_7pt        a 7-point stencil on an 8x8x4 block (256 threads) with a (4+2)x(8+2)x(8+2)
//                        halo tile, the face threads loading the halo
#define NX 8
#define NY 8
#define NZ 4

extern "C" __global__ void volume_transpose_xz(float *out, const float *in)
{
    __shared__ float s[8][8][8];
    const int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    s[z][y][x] = in[(z * 8 + y) * 8 + x];
    __syncthreads();
    out[(z * 8 + y) * 8 + x] = s[x][y][z];
}

extern "C" __global__ void stencil3d_7pt(float *out, const float *in, int nx, int ny, int nz)
{
    __shared__ float t[NZ + 2][NY + 2][NX + 2];
    const int x = blockIdx.x * NX + threadIdx.x, y = blockIdx.y * NY + threadIdx.y, z = blockIdx.z * NZ + threadIdx.z;
    const int lx = threadIdx.x + 1, ly = threadIdx.y + 1, lz = threadIdx.z + 1;
    const int i = (z * ny + y) * nx + x;
    t[lz][ly][lx] = in[i];
    if (threadIdx.x == 0) t[lz][ly][0] = x > 0 ? in[i - 1] : 0.0f;
    if (threadIdx.x == NX - 1) t[lz][ly][NX + 1] = x + 1 < nx ? in[i + 1] : 0.0f;
    if (threadIdx.y == 0) t[lz][0][lx] = y > 0 ? in[i - nx] : 0.0f;
    if (threadIdx.y == NY - 1) t[lz][NY + 1][lx] = y + 1 < ny ? in[i + nx] : 0.0f;
    if (threadIdx.z == 0) t[0][ly][lx] = z > 0 ? in[i - nx * ny] : 0.0f;
    if (threadIdx.z == NZ - 1) t[NZ + 1][ly][lx] = z + 1 < nz ? in[i + nx * ny] : 0.0f;
    __syncthreads();
    out[i] = -6.0f * t[lz][ly][lx] + t[lz][ly][lx - 1] + t[lz][ly][lx + 1] + t[lz][ly - 1][lx] + t[lz][ly + 1][lx] +
             t[lz - 1][ly][lx] + t[lz + 1][ly][lx];
}
