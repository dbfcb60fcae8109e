// Global-memory atomics under Nsight Compute: one warp, one atomic instruction per launch, on the word
// indices of one pattern per launch (patterns.txt: 32 word indices a line, -1 for a lane that skips; lines
// starting with '#' are notes).
// The forms, as ptxas makes them for sm_90:
//   red_inc   atomicAdd(&g[w], 1u)              result unused: RED.E.ADD
//   red_add   atomicAdd(&g[w], lane + 1)        RED.E.ADD
//   red_addf  atomicAdd(&f[w], 1.0f)            RED.E.ADD.F32.FTZ.RN
//   red_add64 atomicAdd(&d[w], 1ull)            RED.E.ADD.64
//   atom_add  out[lane] = atomicAdd(&g[w], lane + 1)   ATOMG.E.ADD (returns)
//   red_max   atomicMax(&g[w], lane + 1)         RED.E.MAX
//   atom_min  out[lane] = atomicMin(&g[w], lane + 1)   ATOMG.E.MIN
//   red_or    atomicOr(&g[w], 1u << lane)        RED.E.OR
//   atom_exch out[lane] = atomicExch(&g[w], lane)      ATOMG.E.EXCH
//   atom_cas  out[lane] = atomicCAS(&g[w], 0u, lane)   ATOMG.E.CAS
// Build and run: measure.sh (nvcc -arch=sm_90 -lineinfo, then ncu over every launch).
// It prints one line `table_address g=0x... d=0x...` (the device addresses of the u32/f32 table g and the u64
// table d; word w of a pattern is byte g + 4*w, or d + 8*w for red_add64) before the launches, and
// `patterns N, status ...` after them: ncu --csv passes both through ahead of its table.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <vector>
#endif

__global__ void red_inc(const int *pat, unsigned *g) {
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicAdd(&g[w], 1u);
}
__global__ void red_add(const int *pat, unsigned *g) {
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicAdd(&g[w], threadIdx.x + 1u);
}
__global__ void red_addf(const int *pat, float *f) {
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicAdd(&f[w], 1.0f);
}
__global__ void red_add64(const int *pat, unsigned long long *d) {
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicAdd(&d[w], 1ull);
}
__global__ void atom_add(const int *pat, unsigned *g, unsigned *out) {
    const int w = pat[threadIdx.x];
    unsigned r = 0;
    if (w >= 0) r = atomicAdd(&g[w], threadIdx.x + 1u);
    out[threadIdx.x] = r;
}

__global__ void red_max(const int *pat, unsigned *g) {
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicMax(&g[w], threadIdx.x + 1u);
}
__global__ void atom_min(const int *pat, unsigned *g, unsigned *out) {
    const int w = pat[threadIdx.x];
    unsigned r = 0;
    if (w >= 0) r = atomicMin(&g[w], threadIdx.x + 1u);
    out[threadIdx.x] = r;
}
__global__ void red_or(const int *pat, unsigned *g) {
    const int w = pat[threadIdx.x];
    if (w >= 0) atomicOr(&g[w], 1u << threadIdx.x);
}
__global__ void atom_exch(const int *pat, unsigned *g, unsigned *out) {
    const int w = pat[threadIdx.x];
    unsigned r = 0;
    if (w >= 0) r = atomicExch(&g[w], threadIdx.x);
    out[threadIdx.x] = r;
}
__global__ void atom_cas(const int *pat, unsigned *g, unsigned *out) {
    const int w = pat[threadIdx.x];
    unsigned r = 0;
    if (w >= 0) r = atomicCAS(&g[w], 0u, threadIdx.x);
    out[threadIdx.x] = r;
}

#ifndef __CUDACC_RTC__
int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "patterns.txt";
    // red_inc, red_add, red_addf, red_add64, atom_add; red_max, atom_min, red_or, atom_exch, atom_cas
    const char *forms = argc > 2 ? argv[2] : "iafdr";
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "no %s\n", path); return 1; }
    std::vector<std::vector<int>> pats;
    char line[4096];
    while (fgets(line, sizeof line, f)) {  // 32 ints a line; lines starting with '#' are notes
        if (line[0] == '#') continue;
        std::vector<int> p(32);
        int k = 0;
        char *s = line, *e;
        for (; k < 32; k++, s = e) {
            p[k] = (int)strtol(s, &e, 10);
            if (e == s) break;
        }
        if (k < 32) continue;
        pats.push_back(p);
    }
    fclose(f);
    const int words = 8192;
    int *dp = nullptr; unsigned *dg = nullptr, *dout = nullptr; unsigned long long *dd = nullptr;
    cudaMalloc(&dp, 32 * sizeof(int));
    cudaMalloc(&dg, words * sizeof(unsigned));
    cudaMalloc(&dd, words * sizeof(unsigned long long));
    cudaMalloc(&dout, 32 * sizeof(unsigned));
    cudaMemset(dg, 0, words * sizeof(unsigned));
    cudaMemset(dd, 0, words * sizeof(unsigned long long));
    printf("table_address g=0x%llx d=0x%llx\n", (unsigned long long)(size_t)dg, (unsigned long long)(size_t)dd);
    fflush(stdout);
    for (auto &p : pats) {
        cudaMemcpy(dp, p.data(), 32 * sizeof(int), cudaMemcpyHostToDevice);
        for (const char *c = forms; *c; c++) {
            if (*c == 'i') red_inc<<<1, 32>>>(dp, dg);
            if (*c == 'a') red_add<<<1, 32>>>(dp, dg);
            if (*c == 'f') red_addf<<<1, 32>>>(dp, (float *)dg);
            if (*c == 'd') red_add64<<<1, 32>>>(dp, dd);
            if (*c == 'r') atom_add<<<1, 32>>>(dp, dg, dout);
            if (*c == 'M') red_max<<<1, 32>>>(dp, dg);
            if (*c == 'N') atom_min<<<1, 32>>>(dp, dg, dout);
            if (*c == 'O') red_or<<<1, 32>>>(dp, dg);
            if (*c == 'X') atom_exch<<<1, 32>>>(dp, dg, dout);
            if (*c == 'C') atom_cas<<<1, 32>>>(dp, dg, dout);
        }
    }
    cudaDeviceSynchronize();
    printf("patterns %zu, status %s\n", pats.size(), cudaGetErrorString(cudaGetLastError()));
    return 0;
}
#endif
