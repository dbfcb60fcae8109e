// The histogram kernels' key stream, counters and owner ranking: shared by the library's kernels
// (ops/histogram/histogram.cu) and the lab's cluster designs (lab/histogram/cluster_methods.cu), which
// count with the same counters and rank keys by owner as hist_partition ranks them by range.
//
// Template parameters, which the kernels pass on (named as the macros they were, so that the lines that use
// them read as they did): AGG (0/1: a warp's lanes grouped by key, one add a distinct key), UNROLL (int4
// loads in flight a thread), CBITS (32, or 16 or 8: two or four counters a word, see "counters" below).
// The branches on them that were #if blocks are `if constexpr` at the first column, their lines as they
// were: the hardware truth (tests/data/analyze_truth.json) counts accesses by source line, keyed by text.
// Macros, for the sweeps' comparisons and the tests (no plan sets them): MERGE64 (0: 16-bit counters
// merged a bin at a time), CTR_INIT (tests only).
#pragma once

#ifndef CTR_INIT
#define CTR_INIT 0
#endif
#ifndef MERGE64
#define MERGE64 1
#endif

__host__ __device__ constexpr int log2i(int v) { return v <= 1 ? 0 : 1 + log2i(v >> 1); }

// ---- the key stream ---------------------------------------------------------------------------
// the keys are read once from DRAM: streaming loads (evict first)
__device__ __forceinline__ int4 load_keys(const int4* p) { return __ldcs(p); }

// Calls f(key, j) for every key that block `part` of `parts` blocks reads (grid-stride), warp-uniformly:
// all 32 lanes of a warp call f together (f may use __match_any_sync); lanes with no key pass -1,
// which every kernel ignores like any key < 0. The keys come in batches of 4 * UNROLL a thread, j the key's
// place in its batch (a constant once unrolled); after each batch, done(v) with the batch's keys, as
// UNROLL int4s (key j is key_at(v, j)). Part 0 also takes the head and the tail, as one more batch.

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

template <int UNROLL, typename F, typename Done>
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
template <int UNROLL, typename F>
__device__ __forceinline__ void for_each_key_of(const int* __restrict__ keys, long long n, unsigned part, unsigned parts, F&& f) {
    for_each_key_batch<UNROLL>(keys, n, part, parts, [&](int key, int) { f(key); }, [](const int4*) {});
}

// Every key, over the whole grid.
template <int UNROLL, typename F>
__device__ __forceinline__ void for_each_key(const int* __restrict__ keys, long long n, F&& f) {
    for_each_key_of<UNROLL>(keys, n, blockIdx.x, gridDim.x, static_cast<F&&>(f));
}

// Adds `key`'s count to *slot(key) for keys with ok; aggregated per warp when AGG.
template <int AGG, typename Slot>
__device__ __forceinline__ void count_key(int key, bool ok, Slot&& add) {
if constexpr (AGG) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned group = __match_any_sync(0xffffffffu, ok ? key : -1);
    if (ok && lane == static_cast<unsigned>(__ffs(group) - 1)) add(key, static_cast<unsigned>(__popc(group)));
} else {
    if (ok) add(key, 1u);
}
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
// The counters of CBITS bits are the members of Ctr<CBITS>, defined out of the class so that their lines
// name the width's constants and each other as they did when CBITS was a macro; the kernels call them
// through the templates after the class (ctr_zero<CBITS>, ..., CtrAdder<CBITS, NB>).
template <int CBITS>
struct Ctr {
    static_assert(CBITS == 32 || CBITS == 16 || CBITS == 8, "CBITS: 32, 16 or 8");
    static_assert(CBITS != 32 || CTR_INIT == 0, "CTR_INIT: 16- and 8-bit counters only");
    static constexpr unsigned DIGITS = 32 / CBITS;                                        // counters a word
    static constexpr unsigned DMAX = CBITS == 32 ? 0xFFFFFFFFu : (1u << CBITS % 32) - 1u;  // a digit's largest value
    static constexpr unsigned CTR_WORD_INIT = CBITS == 32 ? 0u : (static_cast<unsigned>(CTR_INIT) & DMAX) * (0xFFFFFFFFu / DMAX);

    static __device__ __forceinline__ int ctr_words(int nloc) { return (nloc + static_cast<int>(DIGITS) - 1) / static_cast<int>(DIGITS); }
    static __device__ __forceinline__ unsigned digit(unsigned word, unsigned d) { return (word >> (CBITS * d)) & DMAX; }
    static __device__ __forceinline__ void ctr_zero(unsigned* ctr, int nloc);
    static __device__ __forceinline__ bool merge64(const unsigned* out, unsigned bin0);
    struct OutMoves;
    template <typename Moves>
    static __device__ __forceinline__ void ctr_wrapped(unsigned* word, unsigned l, unsigned old, const Moves& mv);
    static __device__ __forceinline__ void ctr_add(unsigned* ctr, unsigned l, unsigned c, unsigned* out, unsigned bin0, unsigned nloc);
    template <int NB>
    struct CtrAdder;
    static __device__ __forceinline__ void ctr_merge(const unsigned* ctr, unsigned* out, unsigned bin0, int nloc);
};

template <int CBITS>
__device__ __forceinline__ void Ctr<CBITS>::ctr_zero(unsigned* ctr, int nloc) {
    for (int i = threadIdx.x; i < ctr_words(nloc); i += blockDim.x) ctr[i] = CTR_WORD_INIT;
}

// Whether a block's 16-bit counters of the bins from bin0 go to the output two at a time, one 64-bit
// add a pair of counters (bins bin0 + 2i, bin0 + 2i + 1), in the merge and in the moves alike: a pair's
// words then only ever take 64-bit atomics (overlapping atomics of two sizes have no guarantee in the
// PTX memory model), and every block that writes them has the same bin0. Exact, as no carry crosses from
// the even word to the odd one: the even word only ever gets positive adds (the take-backs of -65536 go
// to odd bins) and ends below 2^31. (With CTR_INIT, a half's count less CTR_INIT may be negative: the
// tests' counters take 32-bit adds.)
template <int CBITS>
__device__ __forceinline__ bool Ctr<CBITS>::merge64(const unsigned* out, unsigned bin0) {
    return CBITS == 16 && MERGE64 && CTR_INIT == 0 && !(bin0 & 1u) && !(reinterpret_cast<unsigned long long>(out) & 7u);
}

template <int CBITS>
struct Ctr<CBITS>::OutMoves {  // 2^CBITS (or minus that) moved to the output: v to local bin l (bin bin0 + l), if there is one
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
template <int CBITS>
template <typename Moves>
__device__ __forceinline__ void Ctr<CBITS>::ctr_wrapped(unsigned* word, unsigned l, unsigned old, const Moves& mv) {
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
template <int CBITS>
__device__ __forceinline__ void Ctr<CBITS>::ctr_add(unsigned* ctr, unsigned l, unsigned c, unsigned* out, unsigned bin0, unsigned nloc) {
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
template <int CBITS>
template <int NB>
struct Ctr<CBITS>::CtrAdder {
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
template <int CBITS>
__device__ __forceinline__ void Ctr<CBITS>::ctr_merge(const unsigned* ctr, unsigned* out, unsigned bin0, int nloc) {
if constexpr (CBITS == 16) {
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
}
if constexpr (CBITS != 32) {
    // a bin a thread, so that a warp's adds cover 32 consecutive words of the output (4 sectors)
    for (int l = threadIdx.x; l < nloc; l += blockDim.x) {
        const unsigned c = digit(ctr[l / DIGITS], l % DIGITS) - CTR_INIT;
        if (c) atomicAdd(out + bin0 + l, c);
    }
} else {
    for (int i = threadIdx.x; i < nloc; i += blockDim.x)
        if (ctr[i]) atomicAdd(out + bin0 + i, ctr[i]);
}
}

// The counters as the kernels call them
template <int CBITS>
__device__ __forceinline__ int ctr_words(int nloc) { return Ctr<CBITS>::ctr_words(nloc); }
template <int CBITS>
__device__ __forceinline__ void ctr_zero(unsigned* ctr, int nloc) { Ctr<CBITS>::ctr_zero(ctr, nloc); }
template <int CBITS>
__device__ __forceinline__ void ctr_add(unsigned* ctr, unsigned l, unsigned c, unsigned* out, unsigned bin0, unsigned nloc) {
    Ctr<CBITS>::ctr_add(ctr, l, c, out, bin0, nloc);
}
template <int CBITS>
__device__ __forceinline__ void ctr_merge(const unsigned* ctr, unsigned* out, unsigned bin0, int nloc) {
    Ctr<CBITS>::ctr_merge(ctr, out, bin0, nloc);
}
template <int CBITS>
using OutMoves = typename Ctr<CBITS>::OutMoves;
template <int CBITS, int NB>
using CtrAdder = typename Ctr<CBITS>::template CtrAdder<NB>;

// ---- keys ranked by owner (hist_partition's ranges; the lab's hist_cluster_exchange's owners) ---------
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
