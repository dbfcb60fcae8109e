// SGEMM with 2-D block tiling and vectorised loads, after siboehm/SGEMM_CUDA kernel 6
// ("sgemmVectorize"): C = alpha * A @ B + beta * C, row-major, BM x BN per block, each thread a
// TM x TN tile. A's tile is stored transposed (As[k][m]) from a float4 global load; B's tile
// is stored with one float4 store; the inner loop reads fragments of As and Bs. A C++ template
// (mangled name), instantiated explicitly for 128x128x8, 8x8 per thread (256 threads).
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    sgemmVectorize(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C)
{
    const unsigned int cRow = blockIdx.y;
    const unsigned int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    const unsigned int innerRowA = threadIdx.x / (BK / 4);
    const unsigned int innerColA = threadIdx.x % (BK / 4);
    const unsigned int innerRowB = threadIdx.x / (BN / 4);
    const unsigned int innerColB = threadIdx.x % (BN / 4);

    float threadResults[TM * TN] = {0.0};
    float regM[TM] = {0.0};
    float regN[TN] = {0.0};

    for (unsigned int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        // transpose A while loading it
        float4 tmp = reinterpret_cast<float4 *>(&A[innerRowA * K + innerColA * 4])[0];
        As[(innerColA * 4 + 0) * BM + innerRowA] = tmp.x;
        As[(innerColA * 4 + 1) * BM + innerRowA] = tmp.y;
        As[(innerColA * 4 + 2) * BM + innerRowA] = tmp.z;
        As[(innerColA * 4 + 3) * BM + innerRowA] = tmp.w;

        reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4])[0] =
            reinterpret_cast<float4 *>(&B[innerRowB * N + innerColB * 4])[0];
        __syncthreads();

        A += BK;
        B += BK * N;

        for (unsigned int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (unsigned int i = 0; i < TM; ++i)
                regM[i] = As[dotIdx * BM + threadRow * TM + i];
            for (unsigned int i = 0; i < TN; ++i)
                regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (unsigned int resIdxM = 0; resIdxM < TM; ++resIdxM)
                for (unsigned int resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }

    for (unsigned int resIdxM = 0; resIdxM < TM; resIdxM += 1) {
        for (unsigned int resIdxN = 0; resIdxN < TN; resIdxN += 4) {
            float4 tmp = reinterpret_cast<float4 *>(&C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0];
            tmp.x = alpha * threadResults[resIdxM * TN + resIdxN] + beta * tmp.x;
            tmp.y = alpha * threadResults[resIdxM * TN + resIdxN + 1] + beta * tmp.y;
            tmp.z = alpha * threadResults[resIdxM * TN + resIdxN + 2] + beta * tmp.z;
            tmp.w = alpha * threadResults[resIdxM * TN + resIdxN + 3] + beta * tmp.w;
            reinterpret_cast<float4 *>(&C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0] = tmp;
        }
    }
}

template __global__ void sgemmVectorize<128, 128, 8, 8, 8>(int, int, int, float, float *, float *, float, float *);
