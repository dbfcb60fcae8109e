// Register-blocked products whose source loops walk shared memory one way and whose SASS walks it the
// other: each thread keeps ROWS results down a column of the output, the outer loop walks k and the
// inner loop walks the ROWS rows of the A tile (stride TK floats). ptxas unrolls both and loads each row's
// TK consecutive floats with 16-byte LDS.128s, so the accesses it merges are not neighbours in the
// source's order (a row-major A tile read down its columns). `smemlab analyze` merges the pieces of a
// chunk in whatever order they come (ledger._coalesce); these cases check that against the hardware.
//   column_blocked_f32<TK>: TK = 8 (two LDS.128 a row) or 4 (one), ROWS = 8, 512 threads, 64-wide tiles
//   column_blocked_f64:     doubles, TK = 4 (two 16-byte loads a row)
template <typename T, int TK, int ROWS>
__device__ void column_blocked(const T *a, const T *b, T *c, int k)
{
    constexpr int W = 64;  // output columns a block
    __shared__ T tile_a[(W * TK > 512 ? W * TK : 512)];
    __shared__ T tile_b[TK * W];
    const int t = threadIdx.x, col = t % W, band = t / W;  // band: which ROWS output rows this thread owns
    T acc[ROWS] = {};
    for (int k0 = 0; k0 < k; k0 += TK) {
        if (t < W * TK) {
            tile_a[t] = a[(t / TK) * k + k0 + t % TK];
            tile_b[t] = b[(k0 + t / W) * W + t % W];
        }
        __syncthreads();
        for (int kk = 0; kk < TK; ++kk) {
            const T bv = tile_b[kk * W + col];
            for (int r = 0; r < ROWS; ++r) acc[r] += tile_a[(band * ROWS + r) * TK + kk] * bv;
        }
        __syncthreads();
    }
    for (int r = 0; r < ROWS; ++r) c[(band * ROWS + r) * W + col] = acc[r];
}

extern "C" __global__ void column_blocked_f32_k8(const float *a, const float *b, float *c, int k)
{
    column_blocked<float, 8, 8>(a, b, c, k);
}

extern "C" __global__ void column_blocked_f32_k4(const float *a, const float *b, float *c, int k)
{
    column_blocked<float, 4, 8>(a, b, c, k);
}

extern "C" __global__ void column_blocked_f64(const double *a, const double *b, double *c, int k)
{
    column_blocked<double, 4, 8>(a, b, c, k);
}
