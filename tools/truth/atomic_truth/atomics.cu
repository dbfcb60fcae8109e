// Shared-memory atomics under Nsight Compute: one warp, one atomic instruction per launch, on the
// word indices of one pattern per launch (patterns.txt, written by this program). Three forms:
//   inc  atomicAdd(&s[w], 1)       (ptxas makes it ATOMS.POPC.INC: the warp's lanes aggregated)
//   add  atomicAdd(&s[w], lane+1)  (ATOMS.ADD)
//   max  atomicMax(&s[w], lane)    (ATOMS.MAX)
// Build and run (tools/truth/atomic_truth/measure.sh): nvcc -arch=sm_90 -lineinfo, then ncu per launch.
#ifndef __CUDACC_RTC__  // the host part; NVRTC (smemlab analyze, the tests) sees the kernels only
#include <cstdio>
#include <cstdlib>
#include <vector>
#endif

__global__ void atom_inc(const int *pat, int *out)
{
    __shared__ int s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicAdd(&s[w], 1);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void atom_add(const int *pat, int *out)
{
    __shared__ int s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicAdd(&s[w], (int)threadIdx.x + 1);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void atom_max(const int *pat, int *out)
{
    __shared__ int s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0;
    __syncthreads();
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicMax(&s[w], (int)threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

#ifndef __CUDACC_RTC__
static unsigned lcg(unsigned &x) { x = x * 1664525u + 1013904223u; return x >> 8; }

int main()
{
    std::vector<std::vector<int>> pats;
    auto add = [&](auto f) { std::vector<int> p(32); for (int l = 0; l < 32; l++) p[l] = f(l); pats.push_back(p); };
    add([](int l) { return l; });                 // distinct words, distinct banks
    add([](int l) { return 0; });                 // one word
    add([](int l) { return 32 * l; });            // 32 words, one bank
    add([](int l) { return l % 2; });             // 2 words, 2 banks
    add([](int l) { return 32 * (l % 2); });      // 2 words, 1 bank
    add([](int l) { return 32 * (l % 4); });      // 4 words, 1 bank
    add([](int l) { return 32 * (l % 8); });      // 8 words, 1 bank
    add([](int l) { return l / 2; });             // pairs
    add([](int l) { return l / 4; });             // quads
    add([](int l) { return (l % 16) * 32 + l / 16; });  // 16 words in bank 0, 16 in bank 1
    add([](int l) { return l < 16 ? 0 : 32; });   // two words, one bank, 16 lanes each
    add([](int l) { return l < 8 ? l * 32 : l; }); // 8-way in bank 0, others spread
    add([](int l) { return l < 16 ? l : -1; });   // half the warp
    add([](int l) { return l == 0 ? 0 : -1; });   // one lane
    unsigned x = 12345;
    for (int r = 0; r < 24; r++) { std::vector<int> p(32); for (int l = 0; l < 32; l++) p[l] = lcg(x) % 256; pats.push_back(p); }
    for (int r = 0; r < 8; r++) { std::vector<int> p(32); for (int l = 0; l < 32; l++) p[l] = lcg(x) % 64; pats.push_back(p); }
    FILE *f = fopen("patterns.txt", "w");
    for (auto &p : pats) { for (int l = 0; l < 32; l++) fprintf(f, "%d%c", p[l], l == 31 ? '\n' : ' '); }
    fclose(f);
    int *dp, *dout;
    cudaMalloc(&dp, 32 * sizeof(int));
    cudaMalloc(&dout, 32 * sizeof(int));
    for (auto &p : pats) {
        cudaMemcpy(dp, p.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
        atom_inc<<<1, 32>>>(dp, dout);
        atom_add<<<1, 32>>>(dp, dout);
        atom_max<<<1, 32>>>(dp, dout);
    }
    cudaDeviceSynchronize();
    printf("patterns %zu, status %s\n", pats.size(), cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
