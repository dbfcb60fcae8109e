// smemlab.ops.histogram: counting int32 keys into `bins` int32 counters.
//
// The designs, each a persistent grid (a few blocks per SM, grid-stride over the keys):
//   hist_global   every key is an atomic add on the output in global memory (the L2's atomic
//                 units). No shared memory; works for any number of bins.
//   hist_smem     a block-private histogram in shared memory, COPIES copies of it, lane l of a
//                 warp adding into copy (l % COPIES) laid out bin-major (word bin*COPIES + copy):
//                 with COPIES = 32 every lane owns a bank, so no two lanes of a warp ever touch
//                 one word or one bank, whatever the keys. At the end the copies are summed and
//                 added to the output. Counts the bins [lo, lo + nlocal) only, so bins that do not
//                 fit one block run as several passes over the keys (the "multipass" method).
//   hist_ranges   multipass's passes at once: one grid, a group of blocks a range of bins, the
//                 blocks of every group reading the same slices of the keys at the same pace, so
//                 that DRAM is read once and L2 serves the other ranges (the "ranges" method).
//   hist_partition + hist_part_count: the keys sorted by range of bins within tiles first, then each
//                 range counted by its own blocks (the "partition" method; at the end of this file).
//   hist_weighted<float> / <double>: weighted counts (a float or double weight a key), bins privatised
//                 in shared memory with float atomics (at the end of this file).
//
// Every kernel reads the keys 16 bytes at a time (int4, streaming loads), UNROLL of them in flight
// per thread, with the unaligned head and the tail (at most 3 + 3 keys) done by the first warp of the
// blocks that read the first slice (hist_ranges: one such block a range).
// Keys outside [0, bins) are ignored. With AGG=1 a warp first groups its lanes by key
// (__match_any_sync) and one lane per distinct key adds the group's size: heavily skewed keys then
// cost one atomic per distinct key and warp instead of one per key.
//
// The kernels are templates, instantiated by NVRTC name expressions (the op's KERNELS: hist_smem<32, 0,
// 32, 2>); their parameters are named as the macros they were, so that the lines that use them read as
// they did: COPIES (power of two, 1..32), AGG (0/1), CBITS (32, or 16: two counters a word, see
// "counters" in include/histogram.cuh; hist_smem and hist_ranges with COPIES=1; or 8, four a word),
// UNROLL; and the partition kernels' (at their section below). Macros, for the sweeps and the tests
// alone: MERGE64 (0: 16-bit counters merged a bin at a time), CTR_INIT (include/histogram.cuh). The
// branches that were #if blocks are `if constexpr` at the first column, for the reason the header gives.
// The designs that spread the bins over a thread-block cluster's shared memories (hist_cluster*), which
// the plan never took (ranges and partition beat them), are the lab's: lab/histogram/cluster_methods.cu.

#include "histogram.cuh"  // the key stream, the counters, keys ranked by owner (include/histogram.cuh)

// ---- kernels ------------------------------------------------------------------------------------
template <int AGG, int UNROLL>
__global__ void hist_global(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    for_each_key<UNROLL>(keys, n, [&](int key) {
        count_key<AGG>(key, static_cast<unsigned>(key) < static_cast<unsigned>(bins),
                  [&](int k, unsigned c) { atomicAdd(out + k, c); });
    });
}

// Counts the bins [lo, lo + nlocal) of the keys that block `part` of `parts` reads into the block's
// shared memory, then adds them to the output. Dynamic shared memory: nlocal * COPIES words (CBITS=16
// or 8: ceil(nlocal / DIGITS) words rounded up to 4, then 32 spare words).
template <int COPIES, int AGG, int CBITS, int UNROLL>
__device__ __forceinline__ void count_bin_range(const int* __restrict__ keys, long long n, unsigned* __restrict__ out,
                                                int lo, int nlocal, unsigned part, unsigned parts) {
    static_assert((COPIES & (COPIES - 1)) == 0 && COPIES >= 1 && COPIES <= 32, "COPIES: a power of two, 1..32");
    static_assert(CBITS == 32 || COPIES == 1, "CBITS: 32, or 16 or 8 with COPIES=1");
    extern __shared__ unsigned s_hist[];
    constexpr bool NARROW = CBITS != 32 && !AGG;  // CtrAdder's straight-line adds
    unsigned* spare = s_hist + ((ctr_words<CBITS>(nlocal) + 3) & ~3);
    ctr_zero<CBITS>(s_hist, CBITS != 32 ? nlocal : nlocal * COPIES);  // 32-bit: a word a counter (ctr_words(c) = c)
    __syncthreads();
    const unsigned copy = threadIdx.x & (COPIES - 1);
    if constexpr (NARROW) {
        CtrAdder<CBITS, 4 * UNROLL> a{s_hist, spare, OutMoves<CBITS>(out, static_cast<unsigned>(lo), static_cast<unsigned>(nlocal)), static_cast<unsigned>(lo)};
        for_each_key_batch<UNROLL>(keys, n, part, parts, [&](int key, int j) { a.add(key, j); },
                           [&](const int4* v) { a.done([&](int j) { return key_at(v, j); }); });
    } else {
        for_each_key_of<UNROLL>(keys, n, part, parts, [&](int key) {
            const int rel = key - lo;
            count_key<AGG>(rel, static_cast<unsigned>(rel) < static_cast<unsigned>(nlocal), [&](int r, unsigned c) {
                if constexpr (CBITS != 32) ctr_add<CBITS>(s_hist, r, c, out, lo, nlocal);
                else atomicAdd(s_hist + r * COPIES + copy, c);
            });
        });
    }
    __syncthreads();
    if constexpr (CBITS != 32) {
        ctr_merge<CBITS>(s_hist, out, lo, nlocal);
        return;
    }
    for (int b = threadIdx.x; b < nlocal; b += blockDim.x) {
        unsigned sum = 0u;
#pragma unroll
        for (int c = 0; c < COPIES; ++c) sum += s_hist[b * COPIES + ((c + b) & (COPIES - 1))];  // rotated: fewer bank conflicts
        if (sum) atomicAdd(out + lo + b, sum);
    }
}

// One pass (of multipass, one launch a pass) or every bin (smem).
template <int COPIES, int AGG, int CBITS, int UNROLL>
__global__ void __launch_bounds__(1024) hist_smem(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int lo, int nlocal) {
    count_bin_range<COPIES, AGG, CBITS, UNROLL>(keys, n, out, lo, nlocal, blockIdx.x, gridDim.x);
}

// The passes of multipass at once, in one grid of a multiple of `ranges` blocks: block b counts the bin
// range b % ranges (`per` bins each, the last one short) of the keys' slice b / ranges. The blocks of one
// slice start together and read the same keys at about the same pace, so DRAM is read about once and
// L2 serves the other ranges' reads.
// (The plan's grid is such a multiple; any other grid still counts every key once: its blocks take the
// slices' ranges in turn.)
template <int COPIES, int AGG, int CBITS, int UNROLL>
__global__ void __launch_bounds__(1024) hist_ranges(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins, int per) {
    const unsigned ranges = static_cast<unsigned>((bins + per - 1) / per);
    const unsigned slices = max(1u, gridDim.x / ranges);
    for (unsigned v = blockIdx.x; v < slices * ranges; v += gridDim.x) {  // once, with the plan's grid
        const int lo = static_cast<int>(v % ranges) * per;
        count_bin_range<COPIES, AGG, CBITS, UNROLL>(keys, n, out, lo, min(per, bins - lo), v / ranges, slices);
        __syncthreads();  // the merge has read the counters before the next range zeroes them
    }
}

// ---- the keys partitioned by range of bins, then counted a range a block ----------------------------
// The "partition" method, for more bins than `ranges` serves well (each of its ranges reads and tests
// every key): two kernels, and 2 bytes of scratch a key (`scratch`, laid out by part_layout).
//   hist_partition   reads the keys once, in tiles of PT keys (tile t: int4s [t * PT/4, (t+1) * PT/4) of
//                    the keys after the unaligned head), and writes each tile back sorted by range of
//                    2^PRANGE bins (the range: key >> PRANGE), each key as its local bin (16 bits):
//                    a key's place among its warp's keys of its range from warp ballots (rank_by_owner;
//                    PRANK=0) or from a shared atomic on the warp's count of the range (PRANK=1: fewer
//                    instructions, but lanes of one range serialise, so it wins with many ranges), the
//                    warps' counts scanned range-major (place_by_owner), each key written to its place
//                    in a stage in shared memory, then the stage to the tile's place in `part`, 16 bytes
//                    a thread.
//                    Each tile's range starts go to a table (R + 1 ints a tile), each block's keys a
//                    range to `tot`. The head and the tail (at most 3 + 3 keys) go straight to the
//                    output (32-bit atomics: hist_part_count runs after, so no pair of the output is
//                    touched by atomics of two sizes at once).
//   hist_part_count  counts the ranges: the blocks are shared out to the ranges in proportion to their
//                    keys (from `tot`), at least one to each range that has keys, and block j of the k
//                    of range r counts range r's segments of tiles [j * T/k, (j+1) * T/k) in 2^PRANGE
//                    16-bit counters (CtrAdder), a warp a segment (PU segments at once, 16-byte loads),
//                    then adds them to the output (ctr_merge).
// So the keys are read once (4 bytes), written once and read once more (2 bytes each), and every key is
// counted once, where `ranges` tests each key in every range. (Balanced for keys in any order within the
// input; keys sorted by bin leave some of a range's blocks idle: still exact.)
// Template parameters: PTHREADS (hist_partition's block, a multiple of 32, at most 1024), PMINB (its
// blocks an SM, for __launch_bounds__), PRANGE (log2 of the bins a range, at most 16: a local bin fits
// 16 bits), PRBITS (bits of the range: ranges <= 2^PRBITS <= 32), PRANK, UNROLL; hist_part_count takes
// PCTHREADS threads (a multiple of 32, at most 1024), PCMINB blocks an SM, PU, and hist_partition's
// PTHREADS, PRANGE and UNROLL (its tiles and ranges); its counters are 16-bit.
constexpr int MAX_PRANGES = 32;

// What a thread keeps of a key of its tile past the ranks, a word (hist_partition's stage_entry): its local
// bin (bits 0-15), its place among its warp's keys of its range (bits 16-24: fewer than 32 * 4 * UNROLL <=
// 512) and its range o (bits 25-29); NO_KEY for a key outside [0, bins). One register a key instead of the
// key and its rank: the tile's int4s are dead once ranked (with both, hist_partition spilled at 64 registers).
constexpr unsigned NO_KEY = 0xFFFFFFFFu;

struct PartLayout {  // the scratch: tot[g1][R], then tab[T][R + 1], then part[T][PT] (16-bit), 16-byte aligned
    int* tot;
    int* tab;
    unsigned short* part;
    long long head, n4, tiles;
};

template <int PT>
__device__ __forceinline__ PartLayout part_layout(const int* keys, long long n, int ranges, int g1, void* scratch) {
    PartLayout L;
    L.head = key_head(keys, n);
    L.n4 = (n - L.head) >> 2;
    L.tiles = (L.n4 + PT / 4 - 1) / (PT / 4);
    L.tot = static_cast<int*>(scratch);
    L.tab = L.tot + ((static_cast<long long>(g1) * ranges + 3) & ~3ll);
    L.part = reinterpret_cast<unsigned short*>(L.tab + ((L.tiles * (ranges + 1) + 3) & ~3ll));
    return L;
}

template <int PTHREADS, int PMINB, int PRANGE, int PRBITS, int PRANK, int UNROLL>
__global__ void __launch_bounds__(PTHREADS, PMINB)
hist_partition(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins, void* scratch) {
    static_assert(PTHREADS % 32 == 0 && PTHREADS <= 1024 && PRBITS >= 0 && (1 << PRBITS) <= MAX_PRANGES, "PTHREADS, PRBITS");
    static_assert(PRANGE >= 1 && PRANGE <= 16, "PRANGE");
    static_assert(32 * 4 * UNROLL <= 512 && MAX_PRANGES <= 32, "a stage entry's place and range");
    constexpr int PW = PTHREADS / 32;             // warps of a hist_partition block
    constexpr int PT = PTHREADS * 4 * UNROLL;     // keys a tile
    const auto stage_entry = [](int key, bool ok, unsigned o, unsigned place) {
        return ok ? (o << 25) | (place << 16) | (static_cast<unsigned>(key) & ((1u << PRANGE) - 1u)) : NO_KEY;
    };
    __shared__ __align__(16) unsigned short s_stage[PT + 32];
    __shared__ int s_cnt[PW * MAX_PRANGES], s_off[PW * MAX_PRANGES], s_tot[MAX_PRANGES];
    __shared__ int s_valid;
    __shared__ int s_junk[PRANK ? PTHREADS : 1];  // PRANK: the atomics of keys outside [0, bins), a word a thread
    const int R = (bins + (1 << PRANGE) - 1) >> PRANGE;
    const PartLayout L = part_layout<PT>(keys, n, R, gridDim.x, scratch);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (blockIdx.x == 0 && threadIdx.x < 8) {  // head and tail (at most 3 + 3 keys): straight to the output
        const long long t = threadIdx.x, tail0 = L.head + 4 * L.n4;
        const long long i = t < 4 ? (t < L.head ? t : -1) : (tail0 + t - 4 < n ? tail0 + t - 4 : -1);
        if (i >= 0 && static_cast<unsigned>(keys[i]) < static_cast<unsigned>(bins)) atomicAdd(out + keys[i], 1u);
    }
    if (threadIdx.x < R) s_tot[threadIdx.x] = 0;
    const int4* __restrict__ k4 = reinterpret_cast<const int4*>(keys + L.head);
    int4 cur[UNROLL], nxt[UNROLL];
    auto load = [&](long long t, int4* v) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const long long i = t * (PT / 4) + u * PTHREADS + threadIdx.x;
            v[u] = t < L.tiles && i < L.n4 ? load_keys(k4 + i) : make_int4(-1, -1, -1, -1);
        }
    };
    load(blockIdx.x, cur);
    for (long long t = blockIdx.x; t < L.tiles; t += gridDim.x) {
        load(t + gridDim.x, nxt);
        unsigned rk[4 * UNROLL];  // the keys' stage entries (stage_entry): cur is dead past the ranks
if constexpr (PRANK) {
        if (lane < R) s_cnt[warp * R + lane] = 0;
        __syncwarp();
#pragma unroll
        for (int j = 0; j < 4 * UNROLL; ++j) {
            const int key = key_at(cur, j);
            const bool ok = static_cast<unsigned>(key) < static_cast<unsigned>(bins);
            const unsigned o = ok ? static_cast<unsigned>(key) >> PRANGE : 0u;
            rk[j] = stage_entry(key, ok, o, static_cast<unsigned>(atomicAdd(ok ? s_cnt + warp * R + o : s_junk + threadIdx.x, 1)));
        }
} else {
        const int run = rank_by_owner<PRBITS, 4 * UNROLL>(cur, rk, [&](int key, bool& ok) {
            ok = static_cast<unsigned>(key) < static_cast<unsigned>(bins);
            return ok ? static_cast<unsigned>(key) >> PRANGE : 0u;
        }, stage_entry);
        if (lane < R) s_cnt[warp * R + lane] = run;
}
        __syncthreads();  // s_cnt; and the last tile's stage is written out
        int* row = L.tab + t * (R + 1);
        place_by_owner<PW>(s_cnt, s_off, R, [&](int o, int start, int end) {
            row[o] = start;
            s_tot[o] += end - start;
            if (o == R - 1) {
                row[R] = end;
                s_valid = end;
            }
        });
        __syncthreads();  // s_off
#pragma unroll
        for (int j = 0; j < 4 * UNROLL; ++j) {  // a key outside [0, bins) into a slot of its lane's past the stage: no branch
            const unsigned e = rk[j];
            s_stage[e == NO_KEY ? PT + lane : s_off[warp * R + (e >> 25)] + ((e >> 16) & 511u)] = static_cast<unsigned short>(e);
        }
        __syncthreads();  // the stage
        int4* dst = reinterpret_cast<int4*>(L.part + t * PT);
        const int4* src = reinterpret_cast<const int4*>(s_stage);
        for (int i = threadIdx.x; 8 * i < s_valid; i += PTHREADS) dst[i] = src[i];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) cur[u] = nxt[u];
    }
    __syncthreads();
    if (threadIdx.x < R) L.tot[blockIdx.x * R + threadIdx.x] = s_tot[threadIdx.x];
}

// Dynamic shared memory: 2^PRANGE 16-bit counters (128 KB for 2^16), then SPARE.
template <int PCTHREADS, int PCMINB, int PTHREADS, int PRANGE, int PU, int UNROLL>
__global__ void __launch_bounds__(PCTHREADS, PCMINB)
hist_part_count(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins, void* scratch, int g1) {
    static_assert(PRANGE >= 1 && PRANGE <= 16 && PCTHREADS % 32 == 0 && PCTHREADS <= 1024, "PRANGE, PCTHREADS");
    constexpr int CBITS = 16;
    constexpr unsigned DIGITS = Ctr<CBITS>::DIGITS;
    constexpr int PT = PTHREADS * 4 * UNROLL;     // keys a tile of hist_partition
    extern __shared__ __align__(16) unsigned s_ctr[];
    __shared__ long long s_first[MAX_PRANGES + 1];  // the virtual block where each range's blocks start
    constexpr int NW = PCTHREADS / 32;              // warps a block
    const int R = (bins + (1 << PRANGE) - 1) >> PRANGE;
    const PartLayout L = part_layout<PT>(keys, n, R, g1, scratch);
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned* spare = s_ctr + (1 << PRANGE) / DIGITS;
    __shared__ unsigned long long s_keys[MAX_PRANGES];  // the keys of each range
    if (threadIdx.x < MAX_PRANGES) s_keys[threadIdx.x] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < g1 * R; i += blockDim.x)  // every thread a few of tot's words: no chain of loads
        atomicAdd(s_keys + i % R, static_cast<unsigned long long>(L.tot[i]));
    __syncthreads();
    if (warp == 0) {  // the blocks each range gets, in proportion to its keys
        const long long c = lane < R ? static_cast<long long>(s_keys[lane]) : 0;
        long long incl = c;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const long long t = __shfl_up_sync(0xffffffffu, incl, d);
            if (lane >= static_cast<unsigned>(d)) incl += t;
        }
        const long long all = __shfl_sync(0xffffffffu, incl, 31);
        const unsigned has = __ballot_sync(0xffffffffu, c > 0);
        const long long E = __popc(has), V = max(static_cast<long long>(gridDim.x), E);
        if (lane < R) s_first[lane] = __popc(has & ((1u << lane) - 1u)) + (all ? (V - E) * (incl - c) / all : 0);
        if (lane == 0) s_first[R] = all ? V : 0;
    }
    __syncthreads();
    const int V = static_cast<int>(s_first[R]);
    for (int v = blockIdx.x; v < V; v += gridDim.x) {  // once, where the grid covers the ranges
        int r = 0;
        while (s_first[r + 1] <= v) ++r;
        const long long k = s_first[r + 1] - s_first[r], j = v - s_first[r];
        const int t0 = static_cast<int>(j * L.tiles / k), t1 = static_cast<int>((j + 1) * L.tiles / k);  // tiles < 2^31 / PT
        const int nloc = min(1 << PRANGE, bins - (r << PRANGE));
        ctr_zero<CBITS>(s_ctr, nloc);
        __syncthreads();
        CtrAdder<CBITS, 8> a{s_ctr, spare, OutMoves<CBITS>(out, static_cast<unsigned>(r) << PRANGE, static_cast<unsigned>(nloc)), 0u};
        int ns[PU], ne[PU];  // the next tiles' segments, loaded a trip ahead
        auto segments = [&](int tb) {
#pragma unroll
            for (int u = 0; u < PU; ++u) {
                const int t = tb + NW * u;
                ns[u] = t < t1 ? L.tab[static_cast<long long>(t) * (R + 1) + r] : 0;
                ne[u] = t < t1 ? L.tab[static_cast<long long>(t) * (R + 1) + r + 1] : 0;
            }
        };
        segments(t0 + static_cast<int>(warp));
        for (int tb = t0 + static_cast<int>(warp); tb < t1; tb += NW * PU) {  // tiles tb + NW * u, u < PU
            int s[PU], e[PU];
#pragma unroll
            for (int u = 0; u < PU; ++u) {
                s[u] = ns[u];
                e[u] = ne[u];
            }
            segments(tb + NW * PU);
            for (int c = 0;; c += 32) {  // 32 chunks of 8 entries a segment a trip (the same trips in the warp)
                bool more = false;
                int4 w[PU];
                int first[PU];  // the entry of this lane's chunk's first
#pragma unroll
                for (int u = 0; u < PU; ++u) {
                    more |= 8 * ((s[u] >> 3) + c) < e[u];
                    first[u] = 8 * ((s[u] >> 3) + c + static_cast<int>(lane));
                    const int4* src = reinterpret_cast<const int4*>(L.part + static_cast<long long>(tb + NW * u) * PT) + (first[u] >> 3);
                    w[u] = first[u] < e[u] ? __ldcs(src) : make_int4(0, 0, 0, 0);
                }
                if (!more) break;
                auto key_of = [&](int q) {  // entry q % 8 of chunk q / 8: its local bin, or -1 outside the segment
                    const int u = q >> 3, i = first[u] + (q & 7);
                    const unsigned word = static_cast<unsigned>(key_at(&w[u], (q & 7) >> 1));
                    return i >= s[u] && i < e[u] ? static_cast<int>((word >> (16 * (q & 1))) & 0xFFFFu) : -1;
                };
#pragma unroll
                for (int u = 0; u < PU; ++u) {  // a chunk at a time: 8 old words in registers, not 8 * PU
#pragma unroll
                    for (int q = 0; q < 8; ++q) a.add(key_of(8 * u + q), q);
                    a.done([&](int q) { return key_of(8 * u + q); });
                }
            }
        }
        __syncthreads();
        ctr_merge<CBITS>(s_ctr, out, static_cast<unsigned>(r) << PRANGE, nloc);
        __syncthreads();  // the merge has read the counters before the next range zeroes them
    }
}

// ---- weighted counts: hist_weighted<float> / hist_weighted<double> ---------------------------------
// out[key] += w[i] for every key in [0, bins) (torch.bincount(keys, weights=w), np.histogram(..., weights=w)),
// out of the weights' type. A block privatises the bins [lo, lo + nlocal) in shared memory, `copies` copies
// of them (a power of two from 1 to 32; lane l adds into copy l & (copies - 1), word bin * copies + copy,
// as hist_smem's), with shared atomicAdd of the weight's type, then adds each bin's non-zero sum of the
// copies into the output with one global atomicAdd. Bins that do not fit one block's shared memory take
// one launch a range [lo, lo + nlocal) (ops/histogram.py's weighted_plan); nlocal = 0: every key an
// atomicAdd on the output (L2's atomic units), for bins that would take too many passes.
// Dynamic shared memory: nlocal * copies weights. The sums are in no fixed order (float atomics).
template <typename W>
__device__ __forceinline__ void weighted_body(const int* __restrict__ keys, const W* __restrict__ w, long long n,
                                              W* __restrict__ out, int bins, int lo, int nlocal, int copies) {
    extern __shared__ __align__(16) unsigned char s_weighted[];
    W* s = reinterpret_cast<W*>(s_weighted);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (nlocal == 0) {
        for (long long i = first; i < n; i += stride) {
            const int key = __ldg(keys + i);
            if (static_cast<unsigned>(key) < static_cast<unsigned>(bins)) atomicAdd(out + key, __ldg(w + i));
        }
        return;
    }
    const int words = nlocal * copies;
    for (int i = threadIdx.x; i < words; i += blockDim.x) s[i] = W(0);
    __syncthreads();
    const int copy = static_cast<int>(threadIdx.x) & (copies - 1);
    for (long long i = first; i < n; i += stride) {
        const int rel = __ldg(keys + i) - lo;
        if (static_cast<unsigned>(rel) < static_cast<unsigned>(nlocal)) atomicAdd(s + rel * copies + copy, __ldg(w + i));
    }
    __syncthreads();
    for (int b = threadIdx.x; b < nlocal; b += blockDim.x) {
        W sum = W(0);
        for (int c = 0; c < copies; ++c) sum += s[b * copies + ((c + b) & (copies - 1))];  // rotated: fewer bank conflicts
        if (sum != W(0)) atomicAdd(out + lo + b, sum);  // (a NaN is != 0: it reaches the output)
    }
}

template <typename W>
__global__ void __launch_bounds__(1024) hist_weighted(const int* __restrict__ keys, const W* __restrict__ w, long long n,
                                                      W* __restrict__ out, int bins, int lo, int nlocal, int copies) {
    weighted_body(keys, w, n, out, bins, lo, nlocal, copies);
}
