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
//   hist_cluster  the histogram spread over the shared memories of a thread-block cluster (Hopper's
//                 distributed shared memory): bin b lives in block (b % CS) of the cluster at word
//                 (b / CS), and every key is a `red.shared::cluster.add` into that block's shared
//                 memory. 2^18 bins = 1 MB fit a cluster of 8 blocks of 128 KB. Remote atomics are
//                 slow (H100: ~0.3 keys per clock per SM), so see also, at the end of this file,
//   hist_cluster_rep / hist_cluster_share / hist_cluster_exchange: the cluster's blocks each own a
//                 contiguous slice of the bins and count only their own keys locally; the keys reach
//                 every block of the cluster through L2 (replicated reads), through DSMEM (16-byte
//                 loads of staged keys, every block reading every key), or sorted by owner in each
//                 block and read through DSMEM by their owner only (each key crosses once).
//   hist_weighted_f32 / _f64: weighted counts (a float or double weight a key), bins privatised in
//                 shared memory with float atomics (at the end of this file).
//
// Every kernel reads the keys 16 bytes at a time (int4, streaming loads), UNROLL of them in flight
// per thread, with the unaligned head and the tail (at most 3 + 3 keys) done by the first warp of the
// blocks that read the first slice (hist_ranges: one such block a range).
// Keys outside [0, bins) are ignored. With AGG=1 a warp first groups its lanes by key
// (__match_any_sync) and one lane per distinct key adds the group's size: heavily skewed keys then
// cost one atomic per distinct key and warp instead of one per key.
//
// Compile-time parameters (macros): COPIES (power of two, 1..32), AGG (0/1), UNROLL, CS (cluster
// size, power of two), CBITS (32, or 16: two counters a word, see "counters" below; hist_smem and
// hist_ranges with COPIES=1, and the cluster kernels but hist_cluster; or 8, four a word: hist_smem and
// hist_ranges), THREADS and MINB (hist_cluster_exchange's block size and blocks per SM, for its
// __launch_bounds__), MERGE64 (0: 16-bit counters merged a bin at a time), CTR_INIT (tests only).

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
#ifndef CBITS
#define CBITS 32
#endif
#ifndef CTR_INIT
#define CTR_INIT 0
#endif
#ifndef MERGE64
#define MERGE64 1
#endif

#include "cluster.cuh"  // the cluster PTX (kernels/cluster.cuh)

static_assert((COPIES & (COPIES - 1)) == 0 && COPIES >= 1 && COPIES <= 32, "COPIES: a power of two, 1..32");
static_assert((CS & (CS - 1)) == 0 && CS >= 1 && CS <= 16, "CS: a power of two, 1..16");
static_assert(CBITS == 32 || ((CBITS == 16 || CBITS == 8) && COPIES == 1), "CBITS: 32, or 16 or 8 with COPIES=1");
static_assert(CBITS != 32 || CTR_INIT == 0, "CTR_INIT: 16- and 8-bit counters only");

__host__ __device__ constexpr int log2i(int v) { return v <= 1 ? 0 : 1 + log2i(v >> 1); }
constexpr int CS_LOG2 = log2i(CS);

// ---- the key stream ---------------------------------------------------------------------------
// the keys are read once from DRAM: streaming loads (evict first)
__device__ __forceinline__ int4 load_keys(const int4* p) { return __ldcs(p); }

// Calls f(key, j) for every key that block `part` of `parts` blocks reads (grid-stride), warp-uniformly:
// all 32 lanes of a warp call f together (f may use __match_any_sync); lanes with no key pass -1,
// which every kernel ignores like any key < 0. The keys come in batches of BATCH a thread, j the key's
// place in its batch (a constant once unrolled); after each batch, done(v) with the batch's keys, as
// UNROLL int4s (key j is key_at(v, j)). Part 0 also takes the head and the tail, as one more batch.
constexpr int BATCH = 4 * UNROLL;

// The keys before the first 16-byte boundary (at most 3, at most n): the int4 loads start after them,
// at keys + key_head(keys, n), and take (n - head) / 4 int4s; a tail of at most 3 keys is left after.
__device__ __forceinline__ long long key_head(const int* keys, long long n) {
    const long long head = static_cast<long long>(((16u - static_cast<unsigned>(reinterpret_cast<unsigned long long>(keys) & 15u)) & 15u) >> 2);
    return head < n ? head : n;
}

__device__ __forceinline__ int key_at(const int4* v, int j) {
    const int4 q = v[j >> 2];
    return (j & 3) == 0 ? q.x : (j & 3) == 1 ? q.y : (j & 3) == 2 ? q.z : q.w;
}

template <typename F, typename Done>
__device__ __forceinline__ void for_each_key_batch(const int* __restrict__ keys, long long n, unsigned part, unsigned parts,
                                                   F&& f, Done&& done) {
    const unsigned lane = threadIdx.x & 31u;
    const long long head = key_head(keys, n), n4 = (n - head) >> 2;
    const int4* __restrict__ k4 = reinterpret_cast<const int4*>(keys + head);
    const long long T = static_cast<long long>(parts) * blockDim.x;
    const long long warp0 = static_cast<long long>(part) * blockDim.x + (threadIdx.x & ~31u);
    for (long long base = warp0; base < n4; base += T * UNROLL) {
        int4 v[UNROLL];
        if (base + 31 + (UNROLL - 1) * T < n4) {  // the warp's whole batch is there (all but the last)
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) v[u] = load_keys(k4 + (base + lane + u * T));
        } else {
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const long long i = base + lane + u * T;
                v[u] = i < n4 ? load_keys(k4 + i) : make_int4(-1, -1, -1, -1);
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            f(v[u].x, 4 * u);
            f(v[u].y, 4 * u + 1);
            f(v[u].z, 4 * u + 2);
            f(v[u].w, 4 * u + 3);
        }
        done(v);
    }
    // head (keys before the first 16-byte boundary) and tail (after the last whole int4)
    if (part == 0 && threadIdx.x < 32) {
        const long long tail0 = head + 4 * n4;
        int key = -1;
        if (lane < 8) {
            if (lane < head) key = keys[lane];
        } else if (lane < 16) {
            const long long i = tail0 + (lane - 8);
            if (i < n) key = keys[i];
        }
        int4 v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) v[u] = make_int4(u ? -1 : key, -1, -1, -1);
        f(key, 0);
        done(v);
    }
}

// f(key) for every key that block `part` of `parts` reads.
template <typename F>
__device__ __forceinline__ void for_each_key_of(const int* __restrict__ keys, long long n, unsigned part, unsigned parts, F&& f) {
    for_each_key_batch(keys, n, part, parts, [&](int key, int) { f(key); }, [](const int4*) {});
}

// Every key, over the whole grid.
template <typename F>
__device__ __forceinline__ void for_each_key(const int* __restrict__ keys, long long n, F&& f) {
    for_each_key_of(keys, n, blockIdx.x, gridDim.x, static_cast<F&&>(f));
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

// ---- counters: a 32-bit word a bin, or (CBITS=16, 8) two or four bins a word, a digit each ---------
// Narrow counters hold two or four times the bins in the same shared memory; counts past a digit's
// range move to the output (global memory) 2^CBITS at a time, and none is lost whatever the order the
// threads' atomics land in: each atomic returns the word's old value, which shows exactly which digits
// it wrapped. Per digit k: its value plus what was moved for it equals its count, plus the carries
// that came into it from digit k - 1 (wraps up) less the borrows (wraps down), less the take-backs and
// plus the give-backs done at it; so the counts are exact once every carry and borrow is paid back by
// a take-back or a give-back. So each atomic that
// wraps a digit moves +-2^CBITS to that digit's bin and owes the digit above a take-back (an atomic of
// -1 there for a carry, +1 for a borrow); those atomics may wrap digits in turn and owe the digits
// above them, up to the top digit, whose carries leave the word. Every wrap is seen by the one atomic
// that makes it, so whatever the order, once the owed atomics are done the moves plus what is left in
// the digits are the exact counts.
// CTR_INIT starts every digit there instead of 0 (the tests start near the top, so that the wraps come).
constexpr unsigned DIGITS = 32 / CBITS;                                        // counters a word
constexpr unsigned DMAX = CBITS == 32 ? 0xFFFFFFFFu : (1u << CBITS % 32) - 1u;  // a digit's largest value
constexpr unsigned CTR_WORD_INIT = CBITS == 32 ? 0u : (static_cast<unsigned>(CTR_INIT) & DMAX) * (0xFFFFFFFFu / DMAX);

__device__ __forceinline__ int ctr_words(int nloc) { return (nloc + static_cast<int>(DIGITS) - 1) / static_cast<int>(DIGITS); }
__device__ __forceinline__ unsigned digit(unsigned word, unsigned d) { return (word >> (CBITS * d)) & DMAX; }

__device__ __forceinline__ void ctr_zero(unsigned* ctr, int nloc) {
    for (int i = threadIdx.x; i < ctr_words(nloc); i += blockDim.x) ctr[i] = CTR_WORD_INIT;
}

// Whether a block's 16-bit counters of the bins from bin0 go to the output two at a time, one 64-bit
// add a pair of counters (bins bin0 + 2i, bin0 + 2i + 1), in the merge and in the moves alike: a pair's
// words then only ever take 64-bit atomics (overlapping atomics of two sizes have no guarantee in the
// PTX memory model), and every block that writes them has the same bin0. Exact, as no carry crosses from
// the even word to the odd one: the even word only ever gets positive adds (the take-backs of -65536 go
// to odd bins) and ends below 2^31. (With CTR_INIT, a half's count less CTR_INIT may be negative: the
// tests' counters take 32-bit adds.)
__device__ __forceinline__ bool merge64(const unsigned* out, unsigned bin0) {
    return CBITS == 16 && MERGE64 && CTR_INIT == 0 && !(bin0 & 1u) && !(reinterpret_cast<unsigned long long>(out) & 7u);
}

struct OutMoves {  // 2^CBITS (or minus that) moved to the output: v to local bin l (bin bin0 + l), if there is one
    unsigned* out;
    unsigned bin0, nloc;
    bool pair64;
    __device__ __forceinline__ OutMoves(unsigned* o, unsigned b0, unsigned n) : out(o), bin0(b0), nloc(n), pair64(merge64(o, b0)) {}
    __device__ __forceinline__ void operator()(unsigned l, unsigned v) const {
        if (l >= nloc) return;
        if (pair64 && (l | 1u) < nloc)  // a bin of a pair: the 64-bit add the merge makes (merge64)
            atomicAdd(reinterpret_cast<unsigned long long*>(out + bin0 + (l & ~1u)),
                      (l & 1u) ? static_cast<unsigned long long>(v) << 32 : static_cast<unsigned long long>(v));
        else
            atomicAdd(out + bin0 + l, v);
    }
};

// An add to local bin l wrapped its digit of *word, whose value before was old; mv(l, v) moves v to bin l.
// Rare.
template <typename Moves>
__device__ __forceinline__ void ctr_wrapped(unsigned* word, unsigned l, unsigned old, const Moves& mv) {
    constexpr unsigned M = 1u << CBITS % 32;
    const unsigned d = l % DIGITS, base = l - d;  // base: local bin of digit 0
    if constexpr (DIGITS == 2) {  // the same, written out (smaller code: it is inlined at every add)
        mv(l, M);
        if (d == 1) return;  // the carry left the word
        if (digit(old, 1) == DMAX) mv(base + 1, M);  // it wrapped the high digit too, and left
        if (digit(atomicAdd(word, 0u - M), 1) == 0u) mv(base + 1, 0u - M);  // the take-back wrapped it back down
        return;
    }
    int owed[DIGITS + 1] = {};  // at each digit: +1 give-backs owed (borrows came in), -1 take-backs (carries)
    // an atomic at digit k (up: adding, else taking back) wrapped digit k, and its carry or borrow went
    // on through the digits above that were all ones (zeros); o: the word before it
    auto wrapped_from = [&](unsigned k, unsigned o, bool up) {
#pragma unroll
        for (unsigned i = 0; i < DIGITS; ++i) {
            if (i < k) continue;
            mv(base + i, up ? M : 0u - M);
            owed[i + 1] += up ? -1 : 1;
            if (i + 1 == DIGITS || digit(o, i + 1) != (up ? DMAX : 0u)) break;
        }
    };
    wrapped_from(d, old, true);
#pragma unroll
    for (unsigned k = 1; k < DIGITS; ++k) {  // what is owed at digit k, paid before the digits above it
        while (owed[k] != 0) {
            const bool up = owed[k] > 0;
            owed[k] += up ? -1 : 1;
            const unsigned o = atomicAdd(word, up ? 1u << CBITS * k : 0u - (1u << CBITS * k));
            if (digit(o, k) == (up ? DMAX : 0u)) wrapped_from(k, o, up);
        }
    }
}

// Adds c (at most 32) to local bin l of nloc, whose bin is bin0 + l.
__device__ __forceinline__ void ctr_add(unsigned* ctr, unsigned l, unsigned c, unsigned* out, unsigned bin0, unsigned nloc) {
    if constexpr (CBITS == 32) {
        atomicAdd(ctr + l, c);
    } else {
        const unsigned d = l % DIGITS;
        const unsigned old = atomicAdd(ctr + l / DIGITS, c << CBITS * d);
        if (digit(old, d) + c > DMAX) ctr_wrapped(ctr + l / DIGITS, l, old, OutMoves(out, bin0, nloc));
    }
}

// 16- or 8-bit counters, one key at a time, with no branch: for_each_key_batch's f and done for counting
// the local bins [0, mv.nloc) (key key0 + l; bin mv.bin0 + l) into ctr, NB keys a batch. Every lane adds:
// one whose key is not its block's adds into word `lane` of `spare` (32 words after the counters, never
// read: a bank of its own), so that the warp never diverges around the add and ptxas can put a batch's
// atomics back to back. Each add's old word is kept (a register a key of the batch) and a wrap (one add
// in 2^CBITS a counter) only noted; after the batch, where one was noted, the batch's wraps are found
// again from the old words and handled (the carries in flight in between are counted as any others
// are: see ctr_wrapped).
template <int NB = BATCH>
struct CtrAdder {
    unsigned* ctr;
    unsigned* spare;
    OutMoves mv;
    unsigned key0;
    unsigned old[NB];
    bool wrapped = false;

    // the add of key's bin (a 1 in its digit); and whether the key is counted here
    __device__ __forceinline__ unsigned inc_of(int key, unsigned& l, bool& ok) const {
        l = static_cast<unsigned>(key) - key0;
        ok = l < mv.nloc;
        if constexpr (CBITS == 16) return (l & 1u) * 0xFFFFu + 1u;
        return 1u << ((l % DIGITS) * CBITS);
    }

    __device__ __forceinline__ void add(int key, int j) {
        unsigned l;
        bool ok;
        const unsigned inc = inc_of(key, l, ok);
        old[j] = atomicAdd(ok ? ctr + l / DIGITS : spare + (threadIdx.x & 31u), inc);
        const unsigned bits = inc * DMAX;  // the digit's bits
        wrapped |= ok && (old[j] & bits) == bits;
    }

    // After the batch, where a wrap was noted: each key's wrap found again from its old word (key_of(j):
    // key j of the batch). With 16-bit counters (wraps are rare) the check is unrolled; with 8-bit ones,
    // whose digits wrap every 256 adds on skewed keys, one trip a key picks its key and old word by
    // selects (a run-time index would put the batch in local memory), so that the carry code is inlined
    // once: unrolled, its copies made the rarely run code miss in the instruction cache (H200, 262144
    // bins, 2^28 hot90 keys: 169 -> 274 GB/s; the same loop halved the 16-bit counters' 1,248).
    template <typename KeyOf>
    __device__ __forceinline__ void done(KeyOf&& key_of) {
        if (!wrapped) return;
        wrapped = false;
        if constexpr (DIGITS == 4) {
#pragma unroll 1
            for (int j = 0; j < NB; ++j) {
                int key = 0;
                unsigned o = 0u;
#pragma unroll
                for (int i = 0; i < NB; ++i)
                    if (i == j) {
                        key = key_of(i);
                        o = old[i];
                    }
                check(key, o);
            }
        } else {
#pragma unroll
            for (int j = 0; j < NB; ++j) check(key_of(j), old[j]);
        }
    }

    __device__ __forceinline__ void check(int key, unsigned o) const {
        unsigned l;
        bool ok;
        const unsigned bits = inc_of(key, l, ok) * DMAX;
        if (ok && (o & bits) == bits) ctr_wrapped(ctr + l / DIGITS, l, o, mv);
    }
};

// Adds the block's counters to the output (after a barrier).
__device__ __forceinline__ void ctr_merge(const unsigned* ctr, unsigned* out, unsigned bin0, int nloc) {
#if CBITS == 16
    if (merge64(out, bin0)) {  // a word (two bins) a thread, one 64-bit add into the two output counters
        unsigned long long* out2 = reinterpret_cast<unsigned long long*>(out + bin0);
        for (int i = threadIdx.x; i < nloc >> 1; i += blockDim.x) {
            const unsigned w = ctr[i];
            const unsigned long long c = static_cast<unsigned long long>(w & 0xFFFFu) | static_cast<unsigned long long>(w >> 16) << 32;
            if (c) atomicAdd(out2 + i, c);
        }
        if ((nloc & 1) && threadIdx.x == 0 && (ctr[nloc >> 1] & 0xFFFFu)) atomicAdd(out + bin0 + nloc - 1, ctr[nloc >> 1] & 0xFFFFu);
        return;
    }
#endif
#if CBITS != 32
    // a bin a thread, so that a warp's adds cover 32 consecutive words of the output (4 sectors)
    for (int l = threadIdx.x; l < nloc; l += blockDim.x) {
        const unsigned c = digit(ctr[l / DIGITS], l % DIGITS) - CTR_INIT;
        if (c) atomicAdd(out + bin0 + l, c);
    }
#else
    for (int i = threadIdx.x; i < nloc; i += blockDim.x)
        if (ctr[i]) atomicAdd(out + bin0 + i, ctr[i]);
#endif
}

// ---- kernels ------------------------------------------------------------------------------------
extern "C" __global__ void hist_global(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    for_each_key(keys, n, [&](int key) {
        count_key(key, static_cast<unsigned>(key) < static_cast<unsigned>(bins),
                  [&](int k, unsigned c) { atomicAdd(out + k, c); });
    });
}

// Counts the bins [lo, lo + nlocal) of the keys that block `part` of `parts` reads into the block's
// shared memory, then adds them to the output. Dynamic shared memory: nlocal * COPIES words (CBITS=16
// or 8: ceil(nlocal / DIGITS) words rounded up to 4, then 32 spare words).
__device__ __forceinline__ void count_bin_range(const int* __restrict__ keys, long long n, unsigned* __restrict__ out,
                                                int lo, int nlocal, unsigned part, unsigned parts) {
    extern __shared__ unsigned s_hist[];
    constexpr bool NARROW = CBITS != 32 && !AGG;  // CtrAdder's straight-line adds
    unsigned* spare = s_hist + ((ctr_words(nlocal) + 3) & ~3);
    ctr_zero(s_hist, CBITS != 32 ? nlocal : nlocal * COPIES);  // 32-bit: a word a counter (ctr_words(c) = c)
    __syncthreads();
    const unsigned copy = threadIdx.x & (COPIES - 1);
    if constexpr (NARROW) {
        CtrAdder<> a{s_hist, spare, OutMoves(out, static_cast<unsigned>(lo), static_cast<unsigned>(nlocal)), static_cast<unsigned>(lo)};
        for_each_key_batch(keys, n, part, parts, [&](int key, int j) { a.add(key, j); },
                           [&](const int4* v) { a.done([&](int j) { return key_at(v, j); }); });
    } else {
        for_each_key_of(keys, n, part, parts, [&](int key) {
            const int rel = key - lo;
            count_key(rel, static_cast<unsigned>(rel) < static_cast<unsigned>(nlocal), [&](int r, unsigned c) {
                if constexpr (CBITS != 32) ctr_add(s_hist, r, c, out, lo, nlocal);
                else atomicAdd(s_hist + r * COPIES + copy, c);
            });
        });
    }
    __syncthreads();
    if constexpr (CBITS != 32) {
        ctr_merge(s_hist, out, lo, nlocal);
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
extern "C" __global__ void __launch_bounds__(1024) hist_smem(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int lo, int nlocal) {
    count_bin_range(keys, n, out, lo, nlocal, blockIdx.x, gridDim.x);
}

// The passes of multipass at once, in one grid of a multiple of `ranges` blocks: block b counts the bin
// range b % ranges (`per` bins each, the last one short) of the keys' slice b / ranges. The blocks of one
// slice start together and read the same keys at about the same pace, so DRAM is read about once and
// L2 serves the other ranges' reads.
// (The plan's grid is such a multiple; any other grid still counts every key once: its blocks take the
// slices' ranges in turn.)
extern "C" __global__ void __launch_bounds__(1024) hist_ranges(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins, int per) {
    const unsigned ranges = static_cast<unsigned>((bins + per - 1) / per);
    const unsigned slices = max(1u, gridDim.x / ranges);
    for (unsigned v = blockIdx.x; v < slices * ranges; v += gridDim.x) {  // once, with the plan's grid
        const int lo = static_cast<int>(v % ranges) * per;
        count_bin_range(keys, n, out, lo, min(per, bins - lo), v / ranges, slices);
        __syncthreads();  // the merge has read the counters before the next range zeroes them
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

// the local bins of block `rank` (fewer than per for the last blocks where CS does not divide bins)
__device__ __forceinline__ int owned_bins(int lo, int per, int bins) { return bins > lo ? min(per, bins - lo) : 0; }

__device__ __forceinline__ void count_owned(unsigned* s_part, int key, int lo, int per, int bins, unsigned* out) {
    const int rel = key - lo;
    if (static_cast<unsigned>(key) < static_cast<unsigned>(bins) && static_cast<unsigned>(rel) < static_cast<unsigned>(per))
        ctr_add(s_part, rel, 1u, out, lo, owned_bins(lo, per, bins));
}

__device__ __forceinline__ void merge_owned(const unsigned* s_part, unsigned* out, int lo, int per, int bins) {
    ctr_merge(s_part, out, lo, owned_bins(lo, per, bins));
}

// head and tail keys (at most 3 + 3), seen by every block of cluster 0
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
        if (i >= 0) count_owned(s_part, keys[i], lo, per, bins, out);
    }
}

// Dynamic shared memory: ceil(bins / CS) words (CBITS=16: half that, rounded up).
extern "C" __global__ void hist_cluster_rep(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ unsigned s_part[];
    const int per = (bins + CS - 1) >> CS_LOG2;
    const int lo = static_cast<int>(cluster_block_rank()) * per;
    ctr_zero(s_part, per);
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
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            count_owned(s_part, v[u].x, lo, per, bins, out);
            count_owned(s_part, v[u].y, lo, per, bins, out);
            count_owned(s_part, v[u].z, lo, per, bins, out);
            count_owned(s_part, v[u].w, lo, per, bins, out);
        }
    }
    if (it) cluster_wait();
    owned_head_tail(keys, n, head, n4, s_part, lo, per, bins, out);
    __syncthreads();
    merge_owned(s_part, out, lo, per, bins);
}

// Dynamic shared memory: round4(counter words) words + 2 stages of UNROLL * blockDim int4.
extern "C" __global__ void hist_cluster_share(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
    extern __shared__ __align__(16) unsigned s_dyn[];
    const int per = (bins + CS - 1) >> CS_LOG2;
    unsigned* s_part = s_dyn;
    int4* stage = reinterpret_cast<int4*>(s_dyn + ((ctr_words(per) + 3) & ~3));
    const unsigned rank = cluster_block_rank();
    const int lo = static_cast<int>(rank) * per;
    ctr_zero(s_part, per);
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
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                count_owned(s_part, w[u].x, lo, per, bins, out);
                count_owned(s_part, w[u].y, lo, per, bins, out);
                count_owned(s_part, w[u].z, lo, per, bins, out);
                count_owned(s_part, w[u].w, lo, per, bins, out);
            }
        }
        if (more) sstore(buf ^ 1);
        cluster_sync();  // every peer is done reading this stage; the next is written
        buf ^= 1;
    }
    owned_head_tail(keys, n, head, n4, s_part, lo, per, bins, out);
    __syncthreads();
    merge_owned(s_part, out, lo, per, bins);
}

// ---- keys ranked by owner (hist_cluster_exchange's owners, hist_partition's ranges) -------------------
// A warp's K keys a lane (v: K / 4 int4s) ranked by owner, an owner of OB bits (at most 32 owners):
// rk[j] = entry(key, ok, o, place) for key j, its owner o and its place among the keys of the warp of
// that owner before it (lane order, then j). owner_of(key, ok) gives the owner, ok false for a key that
// has none. Returns, in lane o, the warp's keys of owner o. A ballot a bit of the owner: no shared
// memory, no atomics.
template <int OB, int K, typename OwnerOf, typename Entry>
__device__ __forceinline__ int rank_by_owner(const int4* v, unsigned* rk, OwnerOf&& owner_of, Entry&& entry) {
    const unsigned lane = threadIdx.x & 31u, below_me = (1u << lane) - 1u;
    unsigned flip[OB > 0 ? OB : 1];  // all ones where bit b of this lane is 0: mine &= bit ^ flip[b], one LOP3
#pragma unroll
    for (int b = 0; b < OB; ++b) flip[b] = ((lane >> b) & 1u) ? 0u : 0xFFFFFFFFu;
    int run = 0;  // lane o: the warp's keys of owner o so far
#pragma unroll
    for (int j = 0; j < K; ++j) {
        bool ok;
        const int key = key_at(v, j);
        const unsigned o = owner_of(key, ok);
        unsigned mine = __ballot_sync(0xffffffffu, ok);  // lane o: the lanes whose key goes to owner o
#pragma unroll
        for (int b = 0; b < OB; ++b) mine &= __ballot_sync(0xffffffffu, (o >> b) & 1u) ^ flip[b];
        rk[j] = entry(key, ok, o, static_cast<unsigned>(__shfl_sync(0xffffffffu, run, o)) + __popc(__shfl_sync(0xffffffffu, mine, o) & below_me));
        run += __popc(mine);
    }
    return run;
}

// The warps' counts of keys by owner, cnt[warp * owners + o] (NW warps, at most 32), placed owner-major
// (the keys of owner o of warp 0, of warp 1, ..., then those of owner o + 1): off[warp * owners + o] =
// where warp's keys of owner o start; seg(o, start, end): owner o's keys, called by one lane an owner.
// Warp w takes the owners w, w + NW, ...
template <int NW, typename Seg>
__device__ __forceinline__ void place_by_owner(const int* cnt, int* off, int owners, Seg&& seg) {
    const unsigned lane = threadIdx.x & 31u;
    for (int o = static_cast<int>(threadIdx.x >> 5); o < owners; o += NW) {
        const int x = lane < NW ? cnt[lane * owners + o] : 0;
        int start = 0;  // the keys of the owners before o (this lane's warp's, then the block's)
        if (lane < NW)
            for (int p = 0; p < o; ++p) start += cnt[lane * owners + p];
        int incl = x;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const int t = __shfl_up_sync(0xffffffffu, incl, d);
            if (lane >= static_cast<unsigned>(d)) incl += t;
        }
#pragma unroll
        for (int d = 16; d; d >>= 1) start += __shfl_xor_sync(0xffffffffu, start, d);
        if (lane < NW) off[lane * owners + o] = start + incl - x;
        if (lane == 31) seg(o, start, start + incl);
    }
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
#ifndef THREADS
#define THREADS 1024
#endif
#ifndef MINB
#define MINB 1
#endif
#ifndef XSYNC
#define XSYNC 1
#endif
constexpr int XW = THREADS / 32;      // warps a block
constexpr int KPT = 4 * UNROLL;       // keys a thread a tile
constexpr int STAGE = THREADS * KPT;  // 16-bit entries a stage
static_assert(THREADS % 32 == 0 && THREADS >= 32 * CS && THREADS <= 1024, "THREADS: a multiple of 32 from 32 * CS to 1024");


__device__ __forceinline__ void exchange_arrive() {
#if XSYNC
    cluster_arrive_shared_cta();
#else
    cluster_arrive();
#endif
}

// Dynamic shared memory: round4(counter words) words, then 2 stages of STAGE 16-bit entries.
extern "C" __global__ void __launch_bounds__(THREADS, MINB)
hist_cluster_exchange(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins) {
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
    const unsigned stage = smem_u32(s_dyn + ((ctr_words(per) + 3) & ~3));  // shared::cta address of stage 0
    ctr_zero(ctr, per);

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
#if AGG
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
                    count_key(static_cast<int>((u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu), mine,
                              [&](int l, unsigned c) { ctr_add(ctr, static_cast<unsigned>(l), c, out, bin0, nloc); });
                }
            } else {
#pragma unroll
                for (int e = 0; e < 8; ++e)
                    if (8 * c8 + e >= seg.x && 8 * c8 + e < seg.y) ctr_add(ctr, (u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu, 1u, out, bin0, nloc);
            }
        }
#else
        for (int c8 = (seg.x >> 3) + static_cast<int>(threadIdx.x % G); 8 * c8 < seg.y; c8 += G) {
            const int4 w = ld_cluster_v4(base + 16u * static_cast<unsigned>(c8));
            const unsigned u[4] = {static_cast<unsigned>(w.x), static_cast<unsigned>(w.y), static_cast<unsigned>(w.z),
                                   static_cast<unsigned>(w.w)};
            if (8 * c8 >= seg.x && 8 * c8 + 8 <= seg.y) {  // all 8 entries are this block's (all but a segment's ends)
#pragma unroll
                for (int e = 0; e < 8; ++e) ctr_add(ctr, (u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu, 1u, out, bin0, nloc);
            } else {
#pragma unroll
                for (int e = 0; e < 8; ++e)
                    if (8 * c8 + e >= seg.x && 8 * c8 + e < seg.y) ctr_add(ctr, (u[e >> 1] >> (16 * (e & 1))) & 0xFFFFu, 1u, out, bin0, nloc);
            }
        }
#endif
    };

    load(cid, cur);
    load(cid + ncl, nxt);
    cluster_sync();  // every block of the cluster is running, its counters zeroed
    // head and tail (at most 3 + 3 keys), counted by their owners like the others: so that the output's
    // words only take the merge's atomics (of one size: merge64)
    owned_head_tail(keys, n, head, n4, ctr, static_cast<int>(bin0), static_cast<int>(per), bins, out);
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
    ctr_merge(ctr, out, bin0, nloc);
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
// Compile-time parameters: PTHREADS (hist_partition's block, a multiple of 32, at most 1024), PMINB (its
// blocks an SM, for __launch_bounds__), PRANGE (log2 of the bins a range, at most 16: a local bin fits
// 16 bits), PRBITS (bits of the range: ranges <= 2^PRBITS <= 32), PRANK, PU; hist_part_count takes
// CBITS=16, PCTHREADS threads (a multiple of 32, at most 1024) and PCMINB blocks an SM.
#ifndef PTHREADS
#define PTHREADS 512
#endif
#ifndef PMINB
#define PMINB 2
#endif
#ifndef PRANGE
#define PRANGE 16
#endif
#ifndef PCTHREADS
#define PCTHREADS 1024
#endif
#ifndef PCMINB
#define PCMINB 1
#endif
#ifndef PRBITS
#define PRBITS 5
#endif
#ifndef PU
#define PU 1
#endif
#ifndef PRANK
#define PRANK 0
#endif
constexpr int PW = PTHREADS / 32;             // warps of a hist_partition block
constexpr int PT = PTHREADS * 4 * UNROLL;     // keys a tile
constexpr int MAX_PRANGES = 32;
static_assert(PTHREADS % 32 == 0 && PTHREADS <= 1024 && PRBITS >= 0 && (1 << PRBITS) <= MAX_PRANGES, "PTHREADS, PRBITS");
static_assert(PRANGE >= 1 && PRANGE <= 16 && PCTHREADS % 32 == 0 && PCTHREADS <= 1024, "PRANGE, PCTHREADS");

// What a thread keeps of a key of its tile past the ranks, a word: its local bin (bits 0-15), its place
// among its warp's keys of its range (bits 16-24: fewer than 32 * 4 * UNROLL <= 512) and its range o
// (bits 25-29); NO_KEY for a key outside [0, bins). One register a key instead of the key and its rank:
// the tile's int4s are dead once ranked (with both, hist_partition spilled at 64 registers).
constexpr unsigned NO_KEY = 0xFFFFFFFFu;
static_assert(32 * 4 * UNROLL <= 512 && MAX_PRANGES <= 32, "a stage entry's place and range");
__device__ __forceinline__ unsigned stage_entry(int key, bool ok, unsigned o, unsigned place) {
    return ok ? (o << 25) | (place << 16) | (static_cast<unsigned>(key) & ((1u << PRANGE) - 1u)) : NO_KEY;
}

struct PartLayout {  // the scratch: tot[g1][R], then tab[T][R + 1], then part[T][PT] (16-bit), 16-byte aligned
    int* tot;
    int* tab;
    unsigned short* part;
    long long head, n4, tiles;
};

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

extern "C" __global__ void __launch_bounds__(PTHREADS, PMINB)
hist_partition(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins, void* scratch) {
    __shared__ __align__(16) unsigned short s_stage[PT + 32];
    __shared__ int s_cnt[PW * MAX_PRANGES], s_off[PW * MAX_PRANGES], s_tot[MAX_PRANGES];
    __shared__ int s_valid;
    __shared__ int s_junk[PRANK ? PTHREADS : 1];  // PRANK: the atomics of keys outside [0, bins), a word a thread
    const int R = (bins + (1 << PRANGE) - 1) >> PRANGE;
    const PartLayout L = part_layout(keys, n, R, gridDim.x, scratch);
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
#if PRANK
        if (lane < R) s_cnt[warp * R + lane] = 0;
        __syncwarp();
#pragma unroll
        for (int j = 0; j < 4 * UNROLL; ++j) {
            const int key = key_at(cur, j);
            const bool ok = static_cast<unsigned>(key) < static_cast<unsigned>(bins);
            const unsigned o = ok ? static_cast<unsigned>(key) >> PRANGE : 0u;
            rk[j] = stage_entry(key, ok, o, static_cast<unsigned>(atomicAdd(ok ? s_cnt + warp * R + o : s_junk + threadIdx.x, 1)));
        }
#else
        const int run = rank_by_owner<PRBITS, 4 * UNROLL>(cur, rk, [&](int key, bool& ok) {
            ok = static_cast<unsigned>(key) < static_cast<unsigned>(bins);
            return ok ? static_cast<unsigned>(key) >> PRANGE : 0u;
        }, stage_entry);
        if (lane < R) s_cnt[warp * R + lane] = run;
#endif
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
extern "C" __global__ void __launch_bounds__(PCTHREADS, PCMINB)
hist_part_count(const int* __restrict__ keys, long long n, unsigned* __restrict__ out, int bins, void* scratch, int g1) {
    extern __shared__ __align__(16) unsigned s_ctr[];
    __shared__ long long s_first[MAX_PRANGES + 1];  // the virtual block where each range's blocks start
    constexpr int NW = PCTHREADS / 32;              // warps a block
    const int R = (bins + (1 << PRANGE) - 1) >> PRANGE;
    const PartLayout L = part_layout(keys, n, R, g1, scratch);
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
        ctr_zero(s_ctr, nloc);
        __syncthreads();
        CtrAdder<8> a{s_ctr, spare, OutMoves(out, static_cast<unsigned>(r) << PRANGE, static_cast<unsigned>(nloc)), 0u};
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
        ctr_merge(s_ctr, out, static_cast<unsigned>(r) << PRANGE, nloc);
        __syncthreads();  // the merge has read the counters before the next range zeroes them
    }
}

// ---- weighted counts: hist_weighted_f32 / hist_weighted_f64 ---------------------------------------
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

extern "C" __global__ void __launch_bounds__(1024) hist_weighted_f32(const int* __restrict__ keys, const float* __restrict__ w, long long n,
                                                                     float* __restrict__ out, int bins, int lo, int nlocal, int copies) {
    weighted_body(keys, w, n, out, bins, lo, nlocal, copies);
}

extern "C" __global__ void __launch_bounds__(1024) hist_weighted_f64(const int* __restrict__ keys, const double* __restrict__ w, long long n,
                                                                     double* __restrict__ out, int bins, int lo, int nlocal, int copies) {
    weighted_body(keys, w, n, out, bins, lo, nlocal, copies);
}
