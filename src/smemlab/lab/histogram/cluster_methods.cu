// The library histogram's designs over a thread-block cluster (Hopper's distributed shared memory), which
// its plan never took (ranges and partition beat them all: docs/notes/2026-11-histogram-planning.md), kept
// here as the histogram experiment's variants (lab/histogram/cluster_methods.py plans and launches them):
//   hist_cluster  bin b lives in block (b % CS) of the cluster at word (b / CS), and every key is a
//                 `red.shared::cluster.add` into that block's shared memory. 2^18 bins = 1 MB fit a
//                 cluster of 8 blocks of 128 KB. Remote atomics are slow (H100: ~0.3 keys per clock
//                 per SM), so:
//   hist_cluster_rep / hist_cluster_share / hist_cluster_exchange: the cluster's blocks each own a
//                 contiguous slice of the bins and count only their own keys locally; the keys reach
//                 every block of the cluster through L2 (replicated reads), through DSMEM (16-byte
//                 loads of staged keys, every block reading every key), or sorted by owner in each
//                 block and read through DSMEM by their owner only (each key crosses once).
// They read and count keys as the library's kernels do (include/histogram.cuh, whose template parameters
// they pass on: AGG, UNROLL, CBITS; its macros MERGE64 and CTR_INIT set their counters for the sweeps and
// the tests; CBITS=16 for all but hist_cluster, whose adds are remote).
// Template parameters: CS (the cluster size, a power of two from 1 to 16); hist_cluster_exchange's THREADS
// and MINB (its block size and blocks per SM, for its __launch_bounds__); AGG, CBITS, UNROLL, each kernel
// those it uses (the exchange's #if AGG is an `if constexpr` at the first column, as include/histogram.cuh
// says why). Macro: XSYNC (0: the exchange's barrier arrives with release semantics; a comparison of the
// sweep).

#include "cluster.cuh"    // the cluster PTX (include/cluster.cuh)
#include "histogram.cuh"  // the key stream, the counters, keys ranked by owner (include/histogram.cuh)

// a cluster size the kernels take: a power of two, at most the 16 blocks of a non-portable cluster
template <int CS>
constexpr bool cluster_size_ok = (CS & (CS - 1)) == 0 && CS >= 1 && CS <= 16;

// Launched with cluster size CS. Dynamic shared memory: ceil(bins / CS) words per block.
template <int CS, int AGG, int UNROLL>
__global__ void hist_cluster(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    static_assert(cluster_size_ok<CS>, "CS: a power of two, 1..16");
    constexpr int CS_LOG2 = log2i(CS);
    extern __shared__ unsigned s_part[];
    const int per = (bins + CS - 1) >> CS_LOG2;
    for (int i = threadIdx.x; i < per; i += blockDim.x) s_part[i] = 0u;
    cluster_sync();  // no block adds into a neighbour before the neighbour has zeroed its part
    const unsigned base = smem_u32(s_part);
    for_each_key<UNROLL>(keys, n, [&](int key) {
        count_key<AGG>(key, static_cast<unsigned>(key) < static_cast<unsigned>(bins), [&](int k, unsigned c) {
            const unsigned owner = static_cast<unsigned>(k) & (CS - 1);
            const unsigned word = static_cast<unsigned>(k) >> CS_LOG2;
            red_add_cluster(map_to_rank(base + 4u * word, owner), c);
        });
    });
    cluster_sync();  // every add into this block's part is done (and no block exits early)
    const unsigned rank = cluster_block_rank();
    for (int i = threadIdx.x; i < per; i += blockDim.x) {
        const int b = (i << CS_LOG2) + static_cast<int>(rank);
        const unsigned v = s_part[i];
        if (b < bins && v) atomicAdd(out + b, v);
    }
}

// ---- clusters without a remote atomic per key ------------------------------------------------------
// Remote `red.shared::cluster` adds run at a fraction of a key per clock per SM, so these two kernels
// keep every count local: block `rank` of a cluster owns the contiguous bins [rank*per, rank*per+per)
// in its own shared memory, and every block of the cluster sees every key of the cluster's share of
// the input, counting only the keys it owns (a local ATOMS).
//   hist_cluster_rep    each block reads the cluster's keys itself: the CS reads of one chunk come
//                       close together (the blocks are co-scheduled, and re-synchronise every 8
//                       steps), so DRAM is read once and L2 serves the other CS-1 reads.
//   hist_cluster_share  each block loads 1/CS of a chunk into a shared-memory stage (two stages,
//                       the next chunk's loads in flight while this one is counted) and reads all CS
//                       stages, its peers' through distributed shared memory (16-byte
//                       ld.shared::cluster); one cluster barrier per chunk. DRAM and L2 read once.

// the local bins of block `rank` (fewer than per for the last blocks where CS does not divide bins)
__device__ __forceinline__ int owned_bins(int lo, int per, int bins) { return bins > lo ? min(per, bins - lo) : 0; }

template <int CBITS>
__device__ __forceinline__ void count_owned(unsigned* s_part, int key, int lo, int per, int bins, unsigned* out) {
    const int rel = key - lo;
    if (static_cast<unsigned>(key) < static_cast<unsigned>(bins) && static_cast<unsigned>(rel) < static_cast<unsigned>(per))
        ctr_add<CBITS>(s_part, rel, 1u, out, lo, owned_bins(lo, per, bins));
}

// the four keys of each of a thread's UNROLL int4 words
template <int CBITS, int UNROLL>
__device__ __forceinline__ void count_owned4(unsigned* s_part, const int4 (&v)[UNROLL], int lo, int per, int bins, unsigned* out) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        count_owned<CBITS>(s_part, v[u].x, lo, per, bins, out);
        count_owned<CBITS>(s_part, v[u].y, lo, per, bins, out);
        count_owned<CBITS>(s_part, v[u].z, lo, per, bins, out);
        count_owned<CBITS>(s_part, v[u].w, lo, per, bins, out);
    }
}

template <int CBITS>
__device__ __forceinline__ void merge_owned(const unsigned* s_part, unsigned* out, int lo, int per, int bins) {
    ctr_merge<CBITS>(s_part, out, lo, owned_bins(lo, per, bins));
}

// head and tail keys (at most 3 + 3), seen by every block of cluster 0
template <int CS_LOG2, int CBITS>
__device__ __forceinline__ void owned_head_tail(const int* keys, long long n, long long head, long long n4, unsigned* s_part, int lo, int per, int bins,
                                                unsigned* out) {
    if ((blockIdx.x >> CS_LOG2) == 0 && threadIdx.x < 8) {
        const unsigned t = threadIdx.x;
        long long i = -1;
        if (t < 4) {
            if (t < head) i = t;
        } else if (head + 4 * n4 + (t - 4) < n) {
            i = head + 4 * n4 + (t - 4);
        }
        if (i >= 0) count_owned<CBITS>(s_part, keys[i], lo, per, bins, out);
    }
}

// Dynamic shared memory: ceil(bins / CS) words (CBITS=16: half that, rounded up).
template <int CS, int CBITS, int UNROLL>
__global__ void hist_cluster_rep(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ unsigned s_part[];
    static_assert(cluster_size_ok<CS>, "CS: a power of two, 1..16");
    constexpr int CS_LOG2 = log2i(CS);
    const int per = (bins + CS - 1) >> CS_LOG2;
    const int lo = static_cast<int>(cluster_block_rank()) * per;
    ctr_zero<CBITS>(s_part, per);
    __syncthreads();
    const long long head = key_head(keys, n), n4 = (n - head) >> 2;
    const int4* __restrict__ k4 = reinterpret_cast<const int4*>(keys + head);
    const long long ncl = gridDim.x >> CS_LOG2, cid = blockIdx.x >> CS_LOG2;
    const long long T = ncl * blockDim.x;  // int4 per step over all clusters
    int it = 0;
    for (long long base = cid * blockDim.x; base < n4; base += T * UNROLL, ++it) {  // same trip count in the whole cluster
        if ((it & 7) == 0) {
            if (it) cluster_wait();
            cluster_arrive_relaxed();
        }
        int4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const long long i = base + threadIdx.x + u * T;
            v[u] = i < n4 ? __ldcg(k4 + i) : make_int4(-1, -1, -1, -1);  // .cg: L2 keeps it for the peers
        }
        count_owned4<CBITS, UNROLL>(s_part, v, lo, per, bins, out);
    }
    if (it) cluster_wait();
    owned_head_tail<CS_LOG2, CBITS>(keys, n, head, n4, s_part, lo, per, bins, out);
    __syncthreads();
    merge_owned<CBITS>(s_part, out, lo, per, bins);
}

// Dynamic shared memory: round4(counter words) words + 2 stages of UNROLL * blockDim int4.
template <int CS, int CBITS, int UNROLL>
__global__ void hist_cluster_share(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ __align__(16) unsigned s_dyn[];
    static_assert(cluster_size_ok<CS>, "CS: a power of two, 1..16");
    constexpr int CS_LOG2 = log2i(CS);
    const int per = (bins + CS - 1) >> CS_LOG2;
    unsigned* s_part = s_dyn;
    int4* stage = reinterpret_cast<int4*>(s_dyn + ((ctr_words<CBITS>(per) + 3) & ~3));
    const unsigned rank = cluster_block_rank();
    const int lo = static_cast<int>(rank) * per;
    ctr_zero<CBITS>(s_part, per);
    const long long head = key_head(keys, n), n4 = (n - head) >> 2;
    const int4* __restrict__ k4 = reinterpret_cast<const int4*>(keys + head);
    const long long P = static_cast<long long>(blockDim.x) * UNROLL;  // int4 per block per chunk
    const long long chunk = P * CS;
    const long long ncl = gridDim.x >> CS_LOG2, cid = blockIdx.x >> CS_LOG2;
    const long long nchunks = (n4 + chunk - 1) / chunk;
    int4 v[UNROLL];
    auto gload = [&](long long c) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const long long i = c * chunk + rank * P + u * blockDim.x + threadIdx.x;
            v[u] = i < n4 ? load_keys(k4 + i) : make_int4(-1, -1, -1, -1);
        }
    };
    auto sstore = [&](int buf) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) stage[buf * P + u * blockDim.x + threadIdx.x] = v[u];
    };
    long long c = cid;
    if (c < nchunks) {
        gload(c);
        sstore(0);
    }
    cluster_sync();  // zeroed parts and the first stages are ready everywhere
    const unsigned sbase = smem_u32(stage);
    int buf = 0;
    for (; c < nchunks; c += ncl) {  // same trip count in the whole cluster
        const bool more = c + ncl < nchunks;
        if (more) gload(c + ncl);
#pragma unroll
        for (int r = 0; r < CS; ++r) {
            int4 w[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u)
                w[u] = ld_cluster_v4(map_to_rank(sbase + 16u * static_cast<unsigned>(buf * P + u * blockDim.x + threadIdx.x), static_cast<unsigned>(r)));
            count_owned4<CBITS, UNROLL>(s_part, w, lo, per, bins, out);
        }
        if (more) sstore(buf ^ 1);
        cluster_sync();  // every peer is done reading this stage; the next is written
        buf ^= 1;
    }
    owned_head_tail<CS_LOG2, CBITS>(keys, n, head, n4, s_part, lo, per, bins, out);
    __syncthreads();
    merge_owned<CBITS>(s_part, out, lo, per, bins);
}

// ---- the keys exchanged once through distributed shared memory ------------------------------------
// hist_cluster_exchange: block `rank` of a cluster owns the contiguous bins [rank*per, rank*per+per),
// per = ceil(bins / CS) <= 65536, counted in its own shared memory (32- or 16-bit counters). Each block
// reads its own tiles of keys once (THREADS * KPT keys a tile) and, per tile:
//   1. ranks its keys by owner (warp ballots: a key's place among the warp's keys for the same owner),
//   2. scans the warps' counts into owner-major positions (the warps of owner o, then of o + 1, ...),
//      and notes each owner's segment [start, end) in a table in its shared memory,
//   3. writes its keys, as 16-bit local bin numbers, to those positions of a stage in its shared memory,
//   4. arrives at the cluster barrier, ranks its next tile, waits for the peers;
//   5. reads from every peer the table entry and the segment that are its own (ld.shared::cluster,
//      16 bytes a load) and counts the segment with local shared-memory atomics.
// So every key crosses the cluster's network once, at 2 bytes, where hist_cluster_share moves every
// key to every block at 4 and hist_cluster_rep reads every key CS times from L2. Two stages and two
// tables (even and odd tiles) let a block write tile t + 1 while its peers still read tile t: a peer
// reads tile t before it arrives for tile t + 1, and this block writes tile t + 2 only after waiting
// for that arrival. One cluster barrier per tile, its wait hidden behind the next tile's ranks.
// The barrier's release: everything a peer reads is in this block's own shared memory, so XSYNC=1 (the
// default) fences shared::cta writes only (fence.release.sync_restrict::shared::cta.cluster, a
// MEMBAR.CTA in the SASS) before a relaxed arrive; XSYNC=0 arrives with release semantics, which ptxas
// makes a MEMBAR.GPU (a wait for every memory operation in flight, global ones included) per tile.
#ifndef XSYNC
#define XSYNC 1
#endif

__device__ __forceinline__ void exchange_arrive() {
#if XSYNC
    cluster_arrive_shared_cta();
#else
    cluster_arrive();
#endif
}

// Dynamic shared memory: round4(counter words) words, then 2 stages of STAGE 16-bit entries.
template <int CS, int THREADS, int MINB, int AGG, int CBITS, int UNROLL>
__global__ void __launch_bounds__(THREADS, MINB)
hist_cluster_exchange(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    constexpr int KPT = 4 * UNROLL;       // keys a thread a tile
    static_assert(cluster_size_ok<CS>, "CS: a power of two, 1..16");
    static_assert(THREADS % 32 == 0 && THREADS >= 32 * CS && THREADS <= 1024, "THREADS: a multiple of 32 from 32 * CS to 1024");
    constexpr int CS_LOG2 = log2i(CS);
    constexpr int XW = THREADS / 32;      // warps a block
    constexpr int STAGE = THREADS * KPT;  // 16-bit entries a stage
    extern __shared__ __align__(16) unsigned s_dyn[];
    __shared__ int s_cnt[XW * CS];   // [warp][owner]: the warp's keys of this tile for the owner
    __shared__ int s_off[XW * CS];   // [warp][owner]: where they go in the stage
    __shared__ int2 s_seg[2][CS];    // [tile parity][owner]: the owner's segment [start, end) of the stage (the owner reads it)
    constexpr unsigned FULL = 0xffffffffu;
    const unsigned rank = cluster_block_rank();
    const unsigned per = (static_cast<unsigned>(bins) + CS - 1) >> CS_LOG2;
    // key / per as (key * magic) >> 40, exact for key * per < 2^40 (key < 2^20, per <= 2^16)
    const unsigned long long magic = ((1ull << 40) + per - 1) / per;
    const unsigned bin0 = rank * per;
    const int nloc = owned_bins(static_cast<int>(bin0), static_cast<int>(per), bins);
    unsigned* ctr = s_dyn;
    const unsigned stage = smem_u32(s_dyn + ((ctr_words<CBITS>(per) + 3) & ~3));  // shared::cta address of stage 0
    ctr_zero<CBITS>(ctr, per);

    const long long head = key_head(keys, n), n4 = (n - head) >> 2;

    const int4* __restrict__ k4 = reinterpret_cast<const int4*>(keys + head);
    const long long P = static_cast<long long>(THREADS) * UNROLL;  // int4 a block a tile
    const long long ncl = gridDim.x >> CS_LOG2, cid = blockIdx.x >> CS_LOG2;
    const long long nchunks = (n4 + P * CS - 1) / (P * CS);  // a chunk: one tile for each block of a cluster
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    int4 cur[UNROLL], nxt[UNROLL];
    unsigned rk[KPT];  // a key's owner (bits 16+) and its place among the warp's keys for that owner
    auto load = [&](long long c, int4* v) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const long long i = c * P * CS + rank * P + u * THREADS + threadIdx.x;
            v[u] = i < n4 ? load_keys(k4 + i) : make_int4(-1, -1, -1, -1);
        }
    };
    auto rank_tile = [&]() {
        const int run = rank_by_owner<CS_LOG2, KPT>(cur, rk, [&](int key, bool& ok) {
            ok = static_cast<unsigned>(key) < static_cast<unsigned>(bins);
            return ok ? static_cast<unsigned>((static_cast<unsigned long long>(key) * magic) >> 40) : 0u;
        }, [](int, bool, unsigned o, unsigned place) { return (o << 16) | place; });
        if (lane < CS) s_cnt[warp * CS + lane] = run;
    };
    auto place = [&](int par) {  // owner o's positions, and its segment in the table
        place_by_owner<XW>(s_cnt, s_off, CS, [&](int o, int start, int end) { s_seg[par][o] = make_int2(start, end); });
    };
    auto scatter = [&](int par) {
        const unsigned st = stage + 2u * STAGE * par;
#pragma unroll
        for (int j = 0; j < KPT; ++j) {
            const int key = key_at(cur, j);
            if (static_cast<unsigned>(key) < static_cast<unsigned>(bins)) {
                const unsigned o = rk[j] >> 16;
                st_shared_u16(st + 2u * (s_off[warp * CS + o] + (rk[j] & 0xFFFFu)), static_cast<unsigned>(key) - o * per);
            }
        }
    };
    auto count = [&](int par) {  // THREADS / CS threads read each peer's segment, 8 entries (16 bytes) at a time
        constexpr int G = THREADS / CS;
        const unsigned r = threadIdx.x / G;
        const int2 seg = ld_cluster_v2(map_to_rank(smem_u32(&s_seg[par][rank]), r));
        const unsigned base = map_to_rank(stage + 2u * STAGE * par, r);
if constexpr (AGG) {
        // Skewed keys pile onto a few counters of one owner, whose atomics on one word serialise. The
        // warp's 32 lanes take the same trips here (a warp lies in one group of G lanes), so that each
        // slot's entries can be grouped by bin: one add per distinct bin and slot.
        for (int c0 = (seg.x >> 3) + static_cast<int>((threadIdx.x % G) & ~31u); 8 * c0 < seg.y; c0 += G) {
            const int c8 = c0 + static_cast<int>(lane);
            const int4 w = 8 * c8 < seg.y ? ld_cluster_v4(base + 16u * static_cast<unsigned>(c8)) : make_int4(0, 0, 0, 0);
            const unsigned u[4] = {static_cast<unsigned>(w.x), static_cast<unsigned>(w.y), static_cast<unsigned>(w.z),
                                   static_cast<unsigned>(w.w)};
            // grouping costs a __match_any_sync an entry, so a warp groups only where its first entries
            // repeat a bin: nearly always for skewed keys, rarely for uniform ones (32 entries over 2^16 bins)
            const bool first = 8 * c8 >= seg.x && 8 * c8 < seg.y;
            const unsigned same = __match_any_sync(FULL, first ? static_cast<int>(u[0] & 0xFFFFu) : -1);
            if (__any_sync(FULL, first && __popc(same) > 1)) {
#pragma unroll
                for (int e = 0; e < 8; ++e) {
                    const bool mine = 8 * c8 + e >= seg.x && 8 * c8 + e < seg.y;
                    count_key<AGG>(static_cast<int>((u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu), mine,
                              [&](int l, unsigned c) { ctr_add<CBITS>(ctr, static_cast<unsigned>(l), c, out, bin0, nloc); });
                }
            } else {
#pragma unroll
                for (int e = 0; e < 8; ++e)
                    if (8 * c8 + e >= seg.x && 8 * c8 + e < seg.y) ctr_add<CBITS>(ctr, (u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu, 1u, out, bin0, nloc);
            }
        }
} else {
        for (int c8 = (seg.x >> 3) + static_cast<int>(threadIdx.x % G); 8 * c8 < seg.y; c8 += G) {
            const int4 w = ld_cluster_v4(base + 16u * static_cast<unsigned>(c8));
            const unsigned u[4] = {static_cast<unsigned>(w.x), static_cast<unsigned>(w.y), static_cast<unsigned>(w.z),
                                   static_cast<unsigned>(w.w)};
            if (8 * c8 >= seg.x && 8 * c8 + 8 <= seg.y) {  // all 8 entries are this block's (all but a segment's ends)
#pragma unroll
                for (int e = 0; e < 8; ++e) ctr_add<CBITS>(ctr, (u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu, 1u, out, bin0, nloc);
            } else {
#pragma unroll
                for (int e = 0; e < 8; ++e)
                    if (8 * c8 + e >= seg.x && 8 * c8 + e < seg.y) ctr_add<CBITS>(ctr, (u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu, 1u, out, bin0, nloc);
            }
        }
}
    };

    load(cid, cur);
    load(cid + ncl, nxt);
    cluster_sync();  // every block of the cluster is running, its counters zeroed
    // head and tail (at most 3 + 3 keys), counted by their owners like the others: so that the output's
    // words only take the merge's atomics (of one size: merge64)
    owned_head_tail<CS_LOG2, CBITS>(keys, n, head, n4, ctr, static_cast<int>(bin0), static_cast<int>(per), bins, out);
    rank_tile();
    int par = 0;
    for (long long c = cid; c < nchunks; c += ncl) {  // the same trip count in the whole cluster
        __syncthreads();  // s_cnt of this tile
        place(par);
        __syncthreads();  // s_off
        scatter(par);
        exchange_arrive();  // this tile's stage and table are written
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) cur[u] = nxt[u];
        load(c + 2 * ncl, nxt);
        rank_tile();     // the next tile's ranks while the peers finish this one
        cluster_wait();  // acquire: the peers' stages and tables of this tile
        count(par);
        par ^= 1;
    }
    cluster_sync();  // no block leaves while a peer may still read its stage
    ctr_merge<CBITS>(ctr, out, bin0, nloc);
}
