// Hardware truth for smemlab's bank-conflict model.
//
// One kernel per (access width, op). Thread t (linear id, x fastest) reads its byte offset from a
// table; -1 means "this thread does not access" and the thread leaves before the access, so a
// warp with no accessing thread issues no shared-memory instruction at all. Every other thread
// does exactly ONE shared-memory access of the given width at that offset. Nsight Compute then
// counts the wavefronts and instructions of that one access per launch.
//
// Keeping the counters clean:
//  - loads read a buffer nothing wrote at run time; a store guarded by `poke` (always -1) keeps the
//    compiler from treating the buffer as never written (it could fold the load away otherwise).
//    That store never executes, and it is on the other pipe (st) anyway.
//  - stores are followed by one load (to keep the store alive), at an offset the compiler cannot
//    prove equal to the stored one; that load lands in the _ld counters, which a store case ignores.
//
// Host: reads cases (one line each: "size op bx by bz off0 off1 ..."; op 0 = load, 1 = store) and
// launches one block per case, in order. Build: nvcc -O3 -arch=sm_90 -o bank_truth bank_truth.cu

#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>

constexpr int SMEM_BYTES = 49152;  // the largest static allocation; cases stay inside it

#define CHECK(x)                                                                            \
    do {                                                                                    \
        cudaError_t e_ = (x);                                                               \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

__device__ __forceinline__ int linear_tid() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

template <typename T> __device__ __forceinline__ T make_value(int t);
template <> __device__ __forceinline__ uint8_t make_value<uint8_t>(int t) { return (uint8_t)t; }
template <> __device__ __forceinline__ uint16_t make_value<uint16_t>(int t) { return (uint16_t)t; }
template <> __device__ __forceinline__ uint32_t make_value<uint32_t>(int t) { return (uint32_t)t; }
template <> __device__ __forceinline__ uint2 make_value<uint2>(int t) { return make_uint2(t, ~t); }
template <> __device__ __forceinline__ uint4 make_value<uint4>(int t) { return make_uint4(t, ~t, 3 * t, 7 * t); }

template <typename T>
__global__ void bank_ld(const int* __restrict__ offsets, T* __restrict__ out, int poke) {
    __shared__ __align__(16) unsigned char buf[SMEM_BYTES];
    if (poke >= 0) *reinterpret_cast<T*>(buf + poke) = make_value<T>(poke);  // never runs (poke = -1)
    const int t = linear_tid();
    const int off = offsets[t];
    if (off < 0) return;
    out[t] = *reinterpret_cast<const T*>(buf + off);  // the one measured LDS
}

template <typename T>
__global__ void bank_st(const int* __restrict__ offsets, T* __restrict__ out, int readback) {
    __shared__ __align__(16) unsigned char buf[SMEM_BYTES];
    const int t = linear_tid();
    const int off = offsets[t];
    if (off < 0) return;
    *reinterpret_cast<T*>(buf + off) = make_value<T>(t);  // the one measured STS
    out[t] = *reinterpret_cast<const T*>(buf + ((off + readback) % SMEM_BYTES));  // readback = 0
}

template <typename T>
static void launch(int op, dim3 block, const int* d_off, void* d_out) {
    if (op == 0)
        bank_ld<T><<<1, block>>>(d_off, static_cast<T*>(d_out), -1);
    else
        bank_st<T><<<1, block>>>(d_off, static_cast<T*>(d_out), 0);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s CASES.txt\n", argv[0]);
        return 2;
    }
    FILE* f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    int *d_off;
    void* d_out;
    CHECK(cudaMalloc(&d_off, 1024 * sizeof(int)));
    CHECK(cudaMalloc(&d_out, 1024 * 16));
    int size, op, bx, by, bz, n_cases = 0;
    std::vector<int> offs;
    while (fscanf(f, "%d %d %d %d %d", &size, &op, &bx, &by, &bz) == 5) {
        const int n = bx * by * bz;
        offs.resize(n);
        for (int i = 0; i < n; i++) {
            if (fscanf(f, "%d", &offs[i]) != 1) {
                fprintf(stderr, "case %d: short line\n", n_cases);
                return 1;
            }
            if (offs[i] >= SMEM_BYTES || (offs[i] >= 0 && offs[i] % size)) {
                fprintf(stderr, "case %d: bad offset %d\n", n_cases, offs[i]);
                return 1;
            }
        }
        CHECK(cudaMemcpy(d_off, offs.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        dim3 block(bx, by, bz);
        switch (size) {
            case 1: launch<uint8_t>(op, block, d_off, d_out); break;
            case 2: launch<uint16_t>(op, block, d_off, d_out); break;
            case 4: launch<uint32_t>(op, block, d_off, d_out); break;
            case 8: launch<uint2>(op, block, d_off, d_out); break;
            case 16: launch<uint4>(op, block, d_off, d_out); break;
            default: fprintf(stderr, "case %d: bad size %d\n", n_cases, size); return 1;
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        n_cases++;
    }
    fclose(f);
    printf("launched %d cases\n", n_cases);
    return 0;
}
