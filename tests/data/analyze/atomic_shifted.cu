// Global atomics of four lanes to a word: block b adds into counts + b * step ints, so that the blocks'
// words start at several 4-byte residues of a 32-byte sector. Each sector costs one trip for each lane on its
// busiest word (banks/coalescing.atomic_sector_costs): 4 a warp here where its 8 words share one sector, 8
// where they straddle two. The returning form keeps ATOMG; `hits` comes from memory, so ptxas cannot prove
// the address uniform and aggregate it over the warp.
extern "C" __global__ void atomicShifted(unsigned *counts, unsigned *old, const int *hits, int step)
{
    const int t = threadIdx.x;
    const int w = blockIdx.x * step + t / 4 + hits[t] * 0;
    old[blockIdx.x * blockDim.x + t] = atomicAdd(&counts[w], 1u + hits[t]);
}
