// A transpose straight through global memory: rows read coalesced, columns written 32 sectors a request.
extern "C" __global__ void transposeNaiveGlobal(float *out, const float *in, int n)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}
