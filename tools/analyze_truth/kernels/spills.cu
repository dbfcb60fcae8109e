// Register spills: local memory that ptxas makes (STL/LDL in the SASS, nothing local in the PTX), and one
// array the source itself puts in local memory, for `smemlab analyze`'s local counts (analyze/spills.py).
// The register limits (__launch_bounds__(threads, blocks an SM): 32 registers) leave ptxas too few registers for the values
// each thread keeps live, so it spills them: once per warp before a loop, in a loop's body, under a
// branch half a warp takes, in a partial warp, 8 and 16 bytes at a time.

#define LIVE 40  // values each thread keeps live across the loops: more than the 32 registers allowed

// straight-line code: every value is live until the sum at the end
extern "C" __global__ void __launch_bounds__(64, 32) spill_straight(float *out, const float *in)
{
    const int t = threadIdx.x;
    float v[LIVE];
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        v[k] = in[(t * 7 + k * 61) & 4095];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        s = s * v[(k * 13) % LIVE] + v[k];
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        out[t + 64 * k] = v[k] * s;
}

// a loop whose trip count is an argument: the accumulators stay live across it
extern "C" __global__ void __launch_bounds__(64, 32) spill_loop(float *out, const float *in, int n)
{
    const int t = threadIdx.x;
    float acc[LIVE];
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        acc[k] = in[t + 64 * k];
    for (int i = 0; i < n; ++i) {
        const float x = in[(t + 64 * i) & 4095];
#pragma unroll
        for (int k = 0; k < LIVE; ++k)
            acc[k] = acc[k] * x + acc[(k + 1) % LIVE];
    }
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        out[t + 64 * k] = acc[k];
}

// the same work under a branch that lanes 16..31 of each warp take
extern "C" __global__ void __launch_bounds__(64, 32) spill_half_warp(float *out, const float *in, int n)
{
    const int t = threadIdx.x;
    if ((t & 31) < 16) {
        out[t] = in[t];
        return;
    }
    float acc[LIVE];
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        acc[k] = in[t + 64 * k];
    for (int i = 0; i < n; ++i) {
        const float x = in[(t * 3 + 64 * i) & 4095];
#pragma unroll
        for (int k = 0; k < LIVE; ++k)
            acc[k] = acc[k] * x - acc[(k + 3) % LIVE];
    }
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        out[t + 64 * k] = acc[k];
}

// doubles: two registers a value, spilled 8 bytes at a time
extern "C" __global__ void __launch_bounds__(64, 32) spill_double(double *out, const double *in, int n)
{
    const int t = threadIdx.x;
    double acc[LIVE / 2];
#pragma unroll
    for (int k = 0; k < LIVE / 2; ++k)
        acc[k] = in[t + 64 * k];
    for (int i = 0; i < n; ++i) {
        const double x = in[(t + 64 * i) & 2047];
#pragma unroll
        for (int k = 0; k < LIVE / 2; ++k)
            acc[k] = acc[k] * x + acc[(k + 1) % (LIVE / 2)];
    }
#pragma unroll
    for (int k = 0; k < LIVE / 2; ++k)
        out[t + 64 * k] = acc[k];
}

// float4 values kept whole: ptxas may spill a vector register quad 16 bytes at a time
extern "C" __global__ void __launch_bounds__(64, 32) spill_vec4(float4 *out, const float4 *in, int n)
{
    const int t = threadIdx.x;
    float4 v[LIVE / 4];
#pragma unroll
    for (int k = 0; k < LIVE / 4; ++k)
        v[k] = in[t + 64 * k];
    for (int i = 0; i < n; ++i) {
        const float4 x = in[(t + 64 * i) & 1023];
#pragma unroll
        for (int k = 0; k < LIVE / 4; ++k) {
            const float4 w = v[(k + 1) % (LIVE / 4)];
            v[k] = make_float4(v[k].x * x.x + w.y, v[k].y * x.y + w.z, v[k].z * x.z + w.w, v[k].w * x.w + w.x);
        }
    }
#pragma unroll
    for (int k = 0; k < LIVE / 4; ++k)
        out[t + 64 * k] = v[k];
}

// 256 threads, 8 blocks an SM (32 registers), and a loop over shared memory with barriers in its body
extern "C" __global__ void __launch_bounds__(256, 8) spill_bounds_shared(float *out, const float *in, int n)
{
    __shared__ float tile[256];
    const int t = threadIdx.x;
    float acc[LIVE];
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        acc[k] = in[(t * 5 + k) & 4095];
    for (int i = 0; i < n; ++i) {
        tile[t] = in[(t + 256 * i) & 4095];
        __syncthreads();
        const float x = tile[(t * 33 + i) & 255];
#pragma unroll
        for (int k = 0; k < LIVE; ++k)
            acc[k] = acc[k] * x + acc[(k + 5) % LIVE];
        __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < LIVE; ++k)
        out[t + 256 * k] = acc[k];
}

// an array indexed at run time: local memory of the source's own (ld.local/st.local in the PTX), 16 bytes a lane
extern "C" __global__ void local_dynamic_quads(float4 *out, const float4 *in, const int *idx)
{
    const int t = threadIdx.x;
    float4 r[32];
#pragma unroll
    for (int k = 0; k < 32; ++k)
        r[k] = in[t + 64 * k];
    for (int k = 0; k < 4; ++k) {
        const int a = idx[t + 64 * k] & 31;
        const float4 w = r[(a + 1) & 31];
        r[a] = make_float4(r[a].x + w.y, r[a].y - w.x, r[a].z * w.w, r[a].w + w.z);
    }
    out[t] = r[idx[t] & 31];
    out[t + 64] = r[idx[t + 64] & 31];
}
