// Control flow around shared accesses (256 threads, s holds 512 floats).
//   divergent_branches  if/else inside a warp with a shared access on each side, a three-way
//                       switch on tid % 3, and a loop whose trip count comes from the data
//   short_predicated    short guarded accesses that ptxas turns into predicated instructions
//                       (a warp whose guard is off everywhere still issues them): a few lanes,
//                       whole warps, data-dependent guards, and a select between two loads
extern "C" __global__ void divergent_branches(float *out, const float *in, const int *trips)
{
    __shared__ float s[512];
    const int t = threadIdx.x, lane = t & 31;
    if (lane & 1)
        s[2 * t] = in[t];
    else
        s[t] = -in[t];
    s[(t + 256) ^ 1] = 1.0f;
    __syncthreads();
    float v;
    switch (t % 3) {
    case 0: v = s[(5 * t) % 512]; break;
    case 1: v = s[t ^ 16]; break;
    default: v = s[0]; break;
    }
    const int n = trips[t] & 7;
    for (int k = 0; k < n; ++k)
        v += s[(t + 33 * k) % 512];
    out[t] = v;
}

extern "C" __global__ void short_predicated(float *out, const float *in, int limit)
{
    __shared__ float s[512];
    const int t = threadIdx.x;
    s[t] = in[t];
    if (t < 8) s[256 + t] = 2.0f * in[t];        // lanes 0..7 of warp 0 only
    if (t >= 128) s[256 + (t & 127)] = in[t];    // whole warps on, whole warps off
    __syncthreads();
    float v = 0.0f;
    if (in[t] > 0.0f) v = s[(t * 4) % 256];      // data-dependent guard
    if (t < limit) v += s[t + 1];                // limit from an argument
    v += (t & 1) ? s[t] : s[t + 256];            // a select between two loads
    out[t] = v;
}
