// Vector tiles: a 32 x 32 float tile moved through shared memory as float4 or float2 chunks, written
// by rows and read by columns of chunks (a transpose of the chunk grid). Row-major, a column of
// chunks is one 16-byte (or 8-byte) bank group per row at a 128-byte pitch: conflicts. The swizzled
// versions store chunk c of row r at c ^ (r % chunks per row): the same column hits every group.
// 256 threads; in and out hold 32 x 32 floats.
extern "C" __global__ void tile_f4_rowmajor(float4 *out, const float4 *in)
{
    __shared__ float4 s[32][8];
    const int t = threadIdx.x;
    s[t / 8][t % 8] = in[t];
    __syncthreads();
    const int r = t % 32, c = t / 32;  // a warp reads chunk column c of rows 0..31
    out[t] = s[r][c];
}

extern "C" __global__ void tile_f4_swizzled(float4 *out, const float4 *in)
{
    __shared__ float4 s[32][8];
    const int t = threadIdx.x;
    const int wr = t / 8, wc = t % 8;
    s[wr][wc ^ (wr % 8)] = in[t];
    __syncthreads();
    const int r = t % 32, c = t / 32;
    out[t] = s[r][c ^ (r % 8)];
}

extern "C" __global__ void tile_f2_rowmajor(float2 *out, const float2 *in)
{
    __shared__ float2 s[32][16];
    const int t = threadIdx.x;
    s[t / 16][t % 16] = in[t];
    s[16 + t / 16][t % 16] = in[256 + t];
    __syncthreads();
    const int r = t % 32, c = t / 32;  // chunk columns c and c + 8
    out[t] = s[r][c];
    out[256 + t] = s[r][c + 8];
}

extern "C" __global__ void tile_f2_swizzled(float2 *out, const float2 *in)
{
    __shared__ float2 s[32][16];
    const int t = threadIdx.x;
    const int wr = t / 16, wc = t % 16;
    s[wr][wc ^ (wr % 16)] = in[t];
    s[16 + wr][wc ^ ((16 + wr) % 16)] = in[256 + t];
    __syncthreads();
    const int r = t % 32, c = t / 32;
    out[t] = s[r][c ^ (r % 16)];
    out[256 + t] = s[r][(c + 8) ^ (r % 16)];
}
