// Textbook kernels written for this corpus (not copied from a repository), in the form they take in
// "Programming Massively Parallel Processors" (Hwu, Kirk, El Hajj, 4th ed.) and GPU Gems 3 ch. 39:
//   conv2d_tiled_in        ch. 7's tiled 2-D convolution with the mask in constant memory: a 16x16 block
//                          loads a 16x16 input tile (halo included, zeros outside the image) and only the
//                          inner 12x12 threads compute (FILTER_RADIUS 2), reading a 5x5 window each
//   radix_sort_block       ch. 13's in-block radix sort, 1 bit a pass: each thread flags its key, a
//                          Hillis-Steele scan of the flags in a double buffer gives the ones' ranks, keys
//                          scatter to data-dependent positions (32 passes, 256 keys, 256 threads)
//   odd_even_transposition odd-even transposition sort of 2 x blockDim.x keys: in phase p thread t
//                          compares (2t + p%2, 2t + p%2 + 1), swapping in place when out of order
#define FILTER_RADIUS 2
#define IN_TILE_DIM 16
#define OUT_TILE_DIM (IN_TILE_DIM - 2 * FILTER_RADIUS)

__constant__ float F_c[2 * FILTER_RADIUS + 1][2 * FILTER_RADIUS + 1];

extern "C" __global__ void conv2d_tiled_in(const float *N, float *P, int width, int height)
{
    int col = blockIdx.x * OUT_TILE_DIM + threadIdx.x - FILTER_RADIUS;
    int row = blockIdx.y * OUT_TILE_DIM + threadIdx.y - FILTER_RADIUS;
    __shared__ float N_s[IN_TILE_DIM][IN_TILE_DIM];
    if (row >= 0 && row < height && col >= 0 && col < width)
        N_s[threadIdx.y][threadIdx.x] = N[row * width + col];
    else
        N_s[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    int tileCol = threadIdx.x - FILTER_RADIUS;
    int tileRow = threadIdx.y - FILTER_RADIUS;
    if (col >= 0 && col < width && row >= 0 && row < height) {
        if (tileCol >= 0 && tileCol < OUT_TILE_DIM && tileRow >= 0 && tileRow < OUT_TILE_DIM) {
            float Pvalue = 0.0f;
            for (int fRow = 0; fRow < 2 * FILTER_RADIUS + 1; fRow++)
                for (int fCol = 0; fCol < 2 * FILTER_RADIUS + 1; fCol++)
                    Pvalue += F_c[fRow][fCol] * N_s[tileRow + fRow][tileCol + fCol];
            P[row * width + col] = Pvalue;
        }
    }
}

#define SORT_THREADS 256

extern "C" __global__ void radix_sort_block(const unsigned *keys_in, unsigned *keys_out)
{
    __shared__ unsigned s_keys[SORT_THREADS];
    __shared__ unsigned s_scan[2][SORT_THREADS];
    unsigned t = threadIdx.x;
    s_keys[t] = keys_in[blockIdx.x * SORT_THREADS + t];
    __syncthreads();
    for (unsigned bit = 0; bit < 32; bit++) {
        unsigned key = s_keys[t];
        unsigned b = (key >> bit) & 1u;
        int in = 0;
        s_scan[0][t] = b;  // inclusive scan of the one-bits
        __syncthreads();
        for (unsigned offset = 1; offset < SORT_THREADS; offset <<= 1) {
            unsigned v = s_scan[in][t];
            if (t >= offset) v += s_scan[in][t - offset];
            s_scan[in ^ 1][t] = v;
            in ^= 1;
            __syncthreads();
        }
        unsigned onesBefore = s_scan[in][t] - b;
        unsigned onesTotal = s_scan[in][SORT_THREADS - 1];
        unsigned dst = b ? (SORT_THREADS - onesTotal + onesBefore) : (t - onesBefore);
        __syncthreads();
        s_keys[dst] = key;
        __syncthreads();
    }
    keys_out[blockIdx.x * SORT_THREADS + t] = s_keys[t];
}

extern "C" __global__ void odd_even_transposition(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < n; i += blockDim.x) s[i] = in[i];
    for (int phase = 0; phase < n; phase++) {
        __syncthreads();
        unsigned i = 2 * t + (phase & 1);
        if (i + 1 < n) {
            int a = s[i], b = s[i + 1];
            if (a > b) {
                s[i] = b;
                s[i + 1] = a;
            }
        }
    }
    __syncthreads();
    for (unsigned i = t; i < n; i += blockDim.x) out[i] = s[i];
}
