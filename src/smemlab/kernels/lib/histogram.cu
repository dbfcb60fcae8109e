// smemlab.ops.histogram: counting int32 keys into `bins` int32 counters.
//
// Three designs, each a persistent grid (a few blocks per SM, grid-stride over the keys):
//   hist_global   every key is an atomic add on the output in global memory (the L2's atomic
//                 units). No shared memory; works for any number of bins.
//   hist_smem     a block-private histogram in shared memory, COPIES copies of it, lane l of a
//                 warp adding into copy (l % COPIES) laid out bin-major (word bin*COPIES + copy):
//                 with COPIES = 32 every lane owns a bank, so no two lanes of a warp ever touch
//                 one word or one bank, whatever the keys. At the end the copies are summed and
//                 added to the output. Counts the bins [lo, lo + nlocal) only, so bins that do not
//                 fit one block run as several passes over the keys (the "multipass" method).
//   hist_cluster  the histogram spread over the shared memories of a thread-block cluster (Hopper's
//                 distributed shared memory): bin b lives in block (b % CS) of the cluster at word
//                 (b / CS), and every key is a `red.shared::cluster.add` into that block's shared
//                 memory. 2^18 bins = 1 MB fit a cluster of 8 blocks of 128 KB. Remote atomics are
//                 slow (H100: ~0.3 keys per clock per SM), so see also, at the end of this file,
//   hist_cluster_rep / hist_cluster_share: the cluster's blocks each own a contiguous slice of the
//                 bins and count only their own keys locally; the keys reach every block of the
//                 cluster through L2 (replicated reads) or through DSMEM (16-byte loads of staged keys).
//
// Every kernel reads the keys 16 bytes at a time (int4, streaming loads), UNROLL of them in flight
// per thread, with the unaligned head and the tail (at most 3 + 3 keys) done by the first warp.
// Keys outside [0, bins) are ignored. With AGG=1 a warp first groups its lanes by key
// (__match_any_sync) and one lane per distinct key adds the group's size: heavily skewed keys then
// cost one atomic per distinct key and warp instead of one per key.
//
// Compile-time parameters (macros): COPIES (power of two, 1..32), AGG (0/1), UNROLL, CS (cluster
// size, power of two, hist_cluster only).

#ifndef COPIES
#define COPIES 1
#endif
#ifndef AGG
#define AGG 0
#endif
#ifndef UNROLL
#define UNROLL 2
#endif
#ifndef CS
#define CS 2
#endif

#include "cluster.cuh"  // the cluster PTX (kernels/cluster.cuh)

static_assert((COPIES & (COPIES - 1)) == 0 && COPIES >= 1 && COPIES <= 32, "COPIES: a power of two, 1..32");
static_assert((CS & (CS - 1)) == 0 && CS >= 1 && CS <= 16, "CS: a power of two, 1..16");

__host__ __device__ constexpr int log2i(int v) { return v <= 1 ? 0 : 1 + log2i(v >> 1); }
constexpr int CS_LOG2 = log2i(CS);

// ---- the key stream ---------------------------------------------------------------------------
// Calls f(key) for every key, warp-uniformly: all 32 lanes of a warp call f together (f may use
// __match_any_sync); lanes with no key pass -1, which every kernel ignores like any key < 0.
template <typename F>
__device__ __forceinline__ void for_each_key(const int* __restrict__ keys, long long n, F&& f) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned long long addr = reinterpret_cast<unsigned long long>(keys);
    long long head = static_cast<long long>(((16u - static_cast<unsigned>(addr & 15u)) & 15u) >> 2);
    if (head > n) head = n;
    const long long n4 = (n - head) >> 2;
    const int4* __restrict__ k4 = reinterpret_cast<const int4*>(keys + head);
    const long long T = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long warp0 = static_cast<long long>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u);
    for (long long base = warp0; base < n4; base += T * UNROLL) {
        int4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const long long i = base + lane + u * T;
            v[u] = i < n4 ? __ldcs(k4 + i) : make_int4(-1, -1, -1, -1);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            f(v[u].x);
            f(v[u].y);
            f(v[u].z);
            f(v[u].w);
        }
    }
    // head (keys before the first 16-byte boundary) and tail (after the last whole int4)
    if (blockIdx.x == 0 && threadIdx.x < 32) {
        const long long tail0 = head + 4 * n4;
        int key = -1;
        if (lane < 8) {
            if (lane < head) key = keys[lane];
        } else if (lane < 16) {
            const long long i = tail0 + (lane - 8);
            if (i < n) key = keys[i];
        }
        f(key);
    }
}

// Adds `key`'s count to *slot(key) for keys with ok; aggregated per warp when AGG.
template <typename Slot>
__device__ __forceinline__ void count_key(int key, bool ok, Slot&& add) {
#if AGG
    const unsigned lane = threadIdx.x & 31u;
    const unsigned group = __match_any_sync(0xffffffffu, ok ? key : -1);
    if (ok && lane == static_cast<unsigned>(__ffs(group) - 1)) add(key, static_cast<unsigned>(__popc(group)));
#else
    if (ok) add(key, 1u);
#endif
}

// ---- kernels ------------------------------------------------------------------------------------
extern "C" __global__ void hist_global(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    for_each_key(keys, n, [&](int key) {
        count_key(key, static_cast<unsigned>(key) < static_cast<unsigned>(bins),
                  [&](int k, unsigned c) { atomicAdd(out + k, c); });
    });
}

// Dynamic shared memory: nlocal * COPIES words.
extern "C" __global__ void hist_smem(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int lo, int nlocal) {
    extern __shared__ unsigned s_hist[];
    const int words = nlocal * COPIES;
    for (int i = threadIdx.x; i < words; i += blockDim.x) s_hist[i] = 0u;
    __syncthreads();
    const unsigned copy = threadIdx.x & (COPIES - 1);
    for_each_key(keys, n, [&](int key) {
        const int rel = key - lo;
        count_key(rel, static_cast<unsigned>(rel) < static_cast<unsigned>(nlocal),
                  [&](int r, unsigned c) { atomicAdd(s_hist + r * COPIES + copy, c); });
    });
    __syncthreads();
    for (int b = threadIdx.x; b < nlocal; b += blockDim.x) {
        unsigned sum = 0u;
#pragma unroll
        for (int c = 0; c < COPIES; ++c) sum += s_hist[b * COPIES + ((c + b) & (COPIES - 1))];  // rotated: fewer bank conflicts
        if (sum) atomicAdd(out + lo + b, sum);
    }
}

// Launched with cluster size CS. Dynamic shared memory: ceil(bins / CS) words per block.
extern "C" __global__ void hist_cluster(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ unsigned s_part[];
    const int per = (bins + CS - 1) >> CS_LOG2;
    for (int i = threadIdx.x; i < per; i += blockDim.x) s_part[i] = 0u;
    cluster_sync();  // no block adds into a neighbour before the neighbour has zeroed its part
    const unsigned base = smem_u32(s_part);
    for_each_key(keys, n, [&](int key) {
        count_key(key, static_cast<unsigned>(key) < static_cast<unsigned>(bins), [&](int k, unsigned c) {
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

__device__ __forceinline__ void count_owned(unsigned* s_part, int key, int lo, int per, int bins) {
    const int rel = key - lo;
    if (static_cast<unsigned>(key) < static_cast<unsigned>(bins) && static_cast<unsigned>(rel) < static_cast<unsigned>(per))
        atomicAdd(s_part + rel, 1u);
}

__device__ __forceinline__ void merge_owned(const unsigned* s_part, unsigned* out, int lo, int per, int bins) {
    for (int i = threadIdx.x; i < per; i += blockDim.x) {
        const unsigned v = s_part[i];
        if (lo + i < bins && v) atomicAdd(out + lo + i, v);
    }
}

// head and tail keys (at most 3 + 3), seen by every block of cluster 0
__device__ __forceinline__ void owned_head_tail(const int* keys, long long n, long long head, long long n4, unsigned* s_part, int lo, int per, int bins) {
    if ((blockIdx.x >> CS_LOG2) == 0 && threadIdx.x < 8) {
        const unsigned t = threadIdx.x;
        long long i = -1;
        if (t < 4) {
            if (t < head) i = t;
        } else if (head + 4 * n4 + (t - 4) < n) {
            i = head + 4 * n4 + (t - 4);
        }
        if (i >= 0) count_owned(s_part, keys[i], lo, per, bins);
    }
}

// Dynamic shared memory: ceil(bins / CS) words.
extern "C" __global__ void hist_cluster_rep(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ unsigned s_part[];
    const int per = (bins + CS - 1) >> CS_LOG2;
    const int lo = static_cast<int>(cluster_block_rank()) * per;
    for (int i = threadIdx.x; i < per; i += blockDim.x) s_part[i] = 0u;
    __syncthreads();
    const unsigned long long addr = reinterpret_cast<unsigned long long>(keys);
    long long head = static_cast<long long>(((16u - static_cast<unsigned>(addr & 15u)) & 15u) >> 2);
    if (head > n) head = n;
    const long long n4 = (n - head) >> 2;
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
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            count_owned(s_part, v[u].x, lo, per, bins);
            count_owned(s_part, v[u].y, lo, per, bins);
            count_owned(s_part, v[u].z, lo, per, bins);
            count_owned(s_part, v[u].w, lo, per, bins);
        }
    }
    if (it) cluster_wait();
    owned_head_tail(keys, n, head, n4, s_part, lo, per, bins);
    __syncthreads();
    merge_owned(s_part, out, lo, per, bins);
}

// Dynamic shared memory: round4(ceil(bins / CS)) words + 2 stages of UNROLL * blockDim int4.
extern "C" __global__ void hist_cluster_share(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ __align__(16) unsigned s_dyn[];
    const int per = (bins + CS - 1) >> CS_LOG2;
    unsigned* s_part = s_dyn;
    int4* stage = reinterpret_cast<int4*>(s_dyn + ((per + 3) & ~3));
    const unsigned rank = cluster_block_rank();
    const int lo = static_cast<int>(rank) * per;
    for (int i = threadIdx.x; i < per; i += blockDim.x) s_part[i] = 0u;
    const unsigned long long addr = reinterpret_cast<unsigned long long>(keys);
    long long head = static_cast<long long>(((16u - static_cast<unsigned>(addr & 15u)) & 15u) >> 2);
    if (head > n) head = n;
    const long long n4 = (n - head) >> 2;
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
            v[u] = i < n4 ? __ldcs(k4 + i) : make_int4(-1, -1, -1, -1);
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
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                count_owned(s_part, w[u].x, lo, per, bins);
                count_owned(s_part, w[u].y, lo, per, bins);
                count_owned(s_part, w[u].z, lo, per, bins);
                count_owned(s_part, w[u].w, lo, per, bins);
            }
        }
        if (more) sstore(buf ^ 1);
        cluster_sync();  // every peer is done reading this stage; the next is written
        buf ^= 1;
    }
    owned_head_tail(keys, n, head, n4, s_part, lo, per, bins);
    __syncthreads();
    merge_owned(s_part, out, lo, per, bins);
}
