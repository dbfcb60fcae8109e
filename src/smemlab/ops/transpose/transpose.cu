// smemlab.ops.transpose: the last two axes swapped (out = in^T, a batch of matrices each on its own), for
// 2-, 4- and 8-byte elements.
//
// The 16-byte tiles below generalise the library's first kernel, transpose_v4 (float32, 64x64 tiles, now
// in lab/transpose/transpose.cu with the book's transposes, where the truth fixture and tools/ time it):
// 16-byte loads, a transpose in registers, an XOR-swizzled shared tile, 16-byte stores.
typedef long long i64;

// ---- Any element size, any shape, batches ------------------------------------------------------------
//
// transpose_v4's design for E-byte elements (V = 16 / E per 16-byte vector) and for a batch of matrices
// (B x rows x cols -> B x cols x rows; tile k belongs to matrix k / tiles-per-matrix). A tile is C
// chunks of 16 bytes a side, CV x CV elements, C x C threads: C = 16 gives 128x128 for 2 bytes, 64x64
// for 4, 32x32 for 8 (32, 16 and 8 KB of shared memory, 256 threads); C = 8 a quarter of that (64
// threads). Thread (c = t % C, g = t / C) loads input rows Vg .. Vg+V-1 at column chunk c, turns the
// V x V block around in registers (byte permutes for 2-byte elements) into chunk g of output rows
// Vc .. Vc+V-1, and stores those into the XOR-swizzled tile (chunk q of row j at q ^ ((j / V) & 7):
// per quarter warp, the lanes c = 0..7 hit eight different 16-byte bank groups on both sides, as in
// transpose_v4); then it reads chunk c of output rows g, g + C, ... and writes each with one 16-byte store.
//
// transpose_eE: both pointers 16-byte aligned, rows and cols multiples of V: every chunk is a whole
// aligned vector, inside the matrix or outside it.
// transpose_eE_any: any shape, pointers aligned to the element only. An input row starts s = (index of
// its first element) mod V elements past a 16-byte boundary, so a chunk straddles two aligned vectors:
// the thread loads both (the second is mostly its neighbour's first, an L1 hit) and shifts the V
// elements it wants out of the pair (`window`). On the output side the chunks are cut on each output
// row's own 16-byte boundaries, each taken from two neighbouring chunks of the shared tile, so that
// every store is an aligned 16-byte store except the partial chunks at a tile's two ends (V elements
// between them) and at the matrix's ragged edges, which are stored element by element (the
// neighbouring tile stores the rest of such a vector). The pointers arrive rounded down to 16 bytes,
// with the element offsets (in_off, out_off) that they were rounded by; vectors that would reach past
// either end of the array are read element by element.
typedef unsigned long long u64;
typedef unsigned short u16;

__device__ __forceinline__ unsigned word(const uint4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// out[m] = (element m of in[0], element m of in[1], ..., element m of in[V - 1]): the V x V block of
// E-byte elements turned around (every index a compile-time constant once unrolled)
template <int E>
__device__ __forceinline__ void turn(const uint4 *in, uint4 *out)
{
    constexpr int V = 16 / E;
#pragma unroll
    for (int m = 0; m < V; ++m) {
        unsigned w[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            if constexpr (E == 2)  // word i = element m of rows 2i and 2i + 1: low or high halves
                w[i] = __byte_perm(word(in[2 * i], m >> 1), word(in[2 * i + 1], m >> 1), (m & 1) ? 0x7632 : 0x5410);
            else if constexpr (E == 4)
                w[i] = word(in[i], m);
            else
                w[i] = word(in[i >> 1], 2 * m + (i & 1));
        }
        out[m] = make_uint4(w[0], w[1], w[2], w[3]);
    }
}

// The 16 bytes that start `bytes` (0 to 16, a multiple of E) into the 32 bytes lo:hi
template <int E>
__device__ __forceinline__ uint4 window(const uint4 &lo, const uint4 &hi, int bytes)
{
    const unsigned w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    const int q = bytes >> 2;
    unsigned r[5];  // words q .. q + 4 of lo:hi, selected without indexing a register array at run time
#pragma unroll
    for (int i = 0; i < 5; ++i)
        r[i] = q == 0 ? w[i] : q == 1 ? w[i + 1 < 8 ? i + 1 : 7] : q == 2 ? w[i + 2 < 8 ? i + 2 : 7]
             : q == 3 ? w[i + 3 < 8 ? i + 3 : 7] : w[i + 4 < 8 ? i + 4 : 7];
    if constexpr (E >= 4) {
        return make_uint4(r[0], r[1], r[2], r[3]);
    } else {  // 2-byte elements: a half-word shift when bytes is 2 mod 4
        const int sh = (bytes & 3) * 8;
        return make_uint4(__funnelshift_r(r[0], r[1], sh), __funnelshift_r(r[1], r[2], sh), __funnelshift_r(r[2], r[3], sh),
                          __funnelshift_r(r[3], r[4], sh));
    }
}

template <typename T>
union Chunk {
    uint4 v;
    T e[16 / sizeof(T)];
};

// The aligned vector at element idx of base, with its elements outside [lo, hi) zero: one 16-byte load
// when it lies inside, else element by element (a vector crossing an end of the array)
template <typename T>
__device__ __forceinline__ uint4 load_chunk(const T *__restrict__ base, i64 idx, i64 lo, i64 hi)
{
    constexpr int V = 16 / sizeof(T);
    if (idx >= lo && idx + V <= hi) return __ldg(reinterpret_cast<const uint4 *>(base + idx));
    Chunk<T> c;
#pragma unroll
    for (int k = 0; k < V; ++k) c.e[k] = (idx + k >= lo && idx + k < hi) ? base[idx + k] : T(0);
    return c.v;
}

// Elements [first, last) of v stored at base + idx (aligned): one 16-byte store when that is all of them
template <typename T>
__device__ __forceinline__ void store_chunk(T *__restrict__ base, i64 idx, const uint4 &v, int first, int last)
{
    constexpr int V = 16 / sizeof(T);
    if (first == 0 && last == V) {  // __stwb: a plain 16-byte store that ptxas cannot split into four (a
        __stwb(reinterpret_cast<uint4 *>(base + idx), v);  // vector assembled from words, behind a T pointer)
        return;
    }
    Chunk<T> c;
    c.v = v;
#pragma unroll
    for (int k = 0; k < V; ++k)
        if (k >= first && k < last) base[idx + k] = c.e[k];
}

template <typename T, int C, bool ANY, int BLOCKS>
__global__ void __launch_bounds__(C * C, BLOCKS) transpose_tiles(T *__restrict__ out, i64 out_off, const T *__restrict__ in, i64 in_off,
                                                i64 rows, i64 cols, i64 tiles_y, i64 tiles_x, i64 ntiles)
{
    constexpr int E = sizeof(T), V = 16 / E, TS = C * V;
    __shared__ uint4 tile[TS * C];
    const int t = threadIdx.x, c = t % C, g = t / C;
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    const i64 per_matrix = tiles_y * tiles_x, size = rows * cols, batch = ntiles / per_matrix;
    const i64 in_end = in_off + batch * size;
    for (i64 k = blockIdx.x; k < ntiles; k += gridDim.x) {
        const i64 b = k / per_matrix, rem = k - b * per_matrix;
        const i64 tx = rem / tiles_y, ty = rem - tx * tiles_y;  // down a band of input columns (ORDER 1)
        const i64 r0 = ty * TS, c0 = tx * TS;
        const i64 col = c0 + V * c;  // this thread's input columns: col .. col + V - 1
        // A whole tile that is neither the array's first nor its last reads and writes inside the array
        // wherever its rows' shifts put its vectors: no bounds to check (the _any form's edge tiles check
        // each vector, each chunk and the array's ends). Taken for 8-byte elements only: on an H200
        // (tools/dtype_sweep.py, ragged shapes, of cudaMemcpy) it lifted them from 0.61-0.69 to 0.77-0.78,
        // but took 2-byte elements from 0.56-0.69 to 0.38-0.56 and 4-byte from 0.55-0.58 to 0.52 (their
        // per-row load code doubled; the cause was not established)
        const bool whole = E == 8 && r0 + TS <= rows && c0 + TS <= cols && k != 0 && k != ntiles - 1;
        uint4 lo[V], hi[V], v[V];
        int shift[V];
        const i64 first0 = in_off + b * size + (r0 + V * g) * cols + col;  // the index of element (row, col)
#pragma unroll
        for (int u = 0; u < V; ++u) {
            const i64 row = r0 + V * g + u, first = first0 + u * cols;
            shift[u] = ANY ? (int)(first & (V - 1)) : 0;
            lo[u] = hi[u] = zero;
            if (!ANY) {
                if (row < rows && col < cols) lo[u] = __ldg(reinterpret_cast<const uint4 *>(in + first));
            } else if (whole) {
                lo[u] = __ldg(reinterpret_cast<const uint4 *>(in + first - shift[u]));
                if (shift[u] != 0) hi[u] = __ldg(reinterpret_cast<const uint4 *>(in + first - shift[u] + V));
            } else if (row < rows && col < cols) {
                lo[u] = load_chunk(in, first - shift[u], in_off, in_end);
                if (shift[u] != 0 && col + V - shift[u] < cols)  // hi holds wanted elements of this row
                    hi[u] = load_chunk(in, first - shift[u] + V, in_off, in_end);
            }
        }
#pragma unroll
        for (int u = 0; u < V; ++u) v[u] = ANY ? window<E>(lo[u], hi[u], shift[u] * E) : lo[u];
        turn<E>(v, lo);
#pragma unroll
        for (int m = 0; m < V; ++m) {
            const int j = V * c + m;  // output row within the tile (= input column)
            tile[j * C + (g ^ ((j / V) & 7))] = lo[m];
        }
        __syncthreads();
        const int lim = (int)(rows - r0 < TS ? rows - r0 : TS);  // output columns of this tile: [0, lim)
#pragma unroll
        for (int w = 0; w < V; ++w) {
            const int j = g + C * w, key = (j / V) & 7;
            const i64 orow = c0 + j;  // output row (= input column)
            if (orow >= cols) continue;
            const i64 base = out_off + b * size + orow * rows + r0;  // the index of output element (orow, r0)
            if (!ANY) {
                if (V * c < lim) *reinterpret_cast<uint4 *>(out + base + V * c) = tile[j * C + (c ^ key)];
                continue;
            }
            // chunk q covers tile columns [Vq - s, Vq - s + V): the end of shared chunk q - 1 and the start
            // of chunk q; thread c stores chunk c, and the last thread of the row also chunk C when the row
            // is shifted. In a whole tile only chunk 0 (from element s) and chunk C (up to s) are partial.
            const int s = (int)(base & (V - 1));
            const uint4 z = tile[j * C + (c ^ key)];
            if (s == 0) {
                if (whole)
                    __stwb(reinterpret_cast<uint4 *>(out + base + V * c), z);
                else if (V * c < lim)
                    store_chunk(out, base + V * c, z, 0, lim - V * c < V ? lim - V * c : V);
                continue;
            }
            const uint4 a = c > 0 ? tile[j * C + ((c - 1) ^ key)] : zero;
            const int p0 = V * c - s;
            if (whole && c > 0) {
                __stwb(reinterpret_cast<uint4 *>(out + base + p0), window<E>(a, z, (V - s) * E));
            } else {
                const int first = p0 < 0 ? -p0 : 0, last = lim - p0 < V ? lim - p0 : V;
                if (first < last) store_chunk(out, base + p0, window<E>(a, z, (V - s) * E), first, last);
            }
            if (c == C - 1 && TS - s < lim)  // chunk C: the row's last s elements of this tile
                store_chunk(out, base + TS - s, window<E>(z, zero, (V - s) * E), 0, lim - (TS - s) < s ? lim - (TS - s) : s);
        }
        __syncthreads();  // the tile is rewritten by the next iteration
    }
}

// The kernels are instances of transpose_tiles (ops/transpose KERNELS names them: transpose_eE and
// transpose_eE_small): element size 2, 4 or 8 bytes; C = 16 chunks a tile side (256 threads), or 8 (64
// threads: `_small`, for matrices that 16-chunk tiles would leave too few blocks or half-empty tiles);
// whole vectors (ANY false; ANY true, any shape and alignment, is what the sweeps and the truth fixture
// instantiate as `_any`). Each is compiled for a number of resident blocks per SM (BLOCKS, in 256-thread
// blocks; 4x as many of 64 threads), the most its registers allow without spilling: more blocks keep more
// tiles' loads in flight (tools/dtype_sweep.py). MINB_E2/E4/E8 are those numbers, macros so that a sweep
// can vary them.
#ifndef MINB_E2
#define MINB_E2 3
#endif
#ifndef MINB_E4
#define MINB_E4 4
#endif
#ifndef MINB_E8
#define MINB_E8 6
#endif

// ---- Any shape: tiles of single elements (`_el`) -------------------------------------------------------
//
// The `_any` form above pays for its 16-byte vectors on ragged rows: two vector loads and a shift per
// chunk, element-by-element stores at every tile end (each output row is cut on its own 16-byte
// boundaries), and registers for all of that, which hold it to 8 x 8-chunk tiles of 64 threads (0.48-0.77
// of cudaMemcpy on an H200). A warp that reads 32 consecutive elements of a row touches one or two
// 128-byte lines whatever the row's alignment, so element loads and stores coalesce without any of that.
// Here a block of 256 threads (8 warps) moves a tile of TR input rows x TC input columns: lane x of warp
// y loads elements x, x + 32, ... of input rows y, y + 8, ... (TR * TC / 256 loads, all issued before
// the first is used), stores them into a shared tile, and after the barrier reads the tile's columns to
// write output rows the same way (TR elements of each of TC output rows). Interior tiles check no bounds;
// edge tiles check each element. The shared tile is padded by one 32-bit word a row (2 elements of 2
// bytes, 1 of 4 or 8), so that the 32 lanes reading a column (tile rows x, x + 1, ...) hit 32 different
// banks (8-byte elements: two half-warp wavefronts, as any 8-byte access of a warp needs); the writes
// along a row are conflict-free.
//
// Tall tiles are what lifts 4-byte elements: an output row segment is TR elements, and the shorter it
// is, the larger the share of partially written 32-byte sectors at its ends (ncu on an H200, 7001x5003,
// L2 write sectors over the ideal: 4-byte 32x32 tiles +22% at 0.80 of cudaMemcpy, 128x32 +7% at 0.90;
// 8-byte 64x64 +6% at 0.93; 2-byte 64x64 +32% at 0.79). Measured and dropped (tools/transpose_any_sweep.py):
// shifting each output row's lanes so that every warp store after the first starts on a sector boundary
// (one more pass a row): 4-byte -19% to +3%, 2-byte 0.62-0.65 against 0.76-0.84, 8-byte +1%; 4- and 8-byte
// vectors on the aligned middle of interior tiles' rows (each row's ends element by element): 4-byte
// 0.82-0.91 on 64x64 tiles, 2-byte 0.56-0.82, 8-byte 0.88-0.91.
template <typename T, int TR, int TC, int BLOCKS>
__global__ void __launch_bounds__(256, BLOCKS) transpose_elements(T *__restrict__ out, i64 out_off, const T *__restrict__ in, i64 in_off,
                                                   i64 rows, i64 cols, i64 tiles_y, i64 tiles_x, i64 ntiles)
{
    constexpr int PITCH = TC + (sizeof(T) == 2 ? 2 : 1);
    __shared__ T tile[TR * PITCH];
    const int x = threadIdx.x % 32, y = threadIdx.x / 32;
    const i64 per_matrix = tiles_y * tiles_x, size = rows * cols;
    for (i64 k = blockIdx.x; k < ntiles; k += gridDim.x) {
        const i64 b = k / per_matrix, rem = k - b * per_matrix;
        const i64 tx = rem / tiles_y, ty = rem - tx * tiles_y;  // down a band of input columns (ORDER 1)
        const i64 r0 = ty * TR, c0 = tx * TC;
        const bool inside = r0 + TR <= rows && c0 + TC <= cols;
        const T *src = in + in_off + b * size + (r0 + y) * cols + c0 + x;
        T v[TR / 8][TC / 32];
#pragma unroll
        for (int i = 0; i < TR / 8; ++i)
#pragma unroll
            for (int w = 0; w < TC / 32; ++w)
                v[i][w] = inside || (r0 + y + 8 * i < rows && c0 + x + 32 * w < cols) ? __ldg(src + 8 * i * cols + 32 * w) : T(0);
#pragma unroll
        for (int i = 0; i < TR / 8; ++i)
#pragma unroll
            for (int w = 0; w < TC / 32; ++w) tile[(y + 8 * i) * PITCH + x + 32 * w] = v[i][w];
        __syncthreads();
        // output row c0 + y + 8i (an input column), output columns r0 + x + 32w (input rows)
        T *dst = out + out_off + b * size + (c0 + y) * rows + r0 + x;
#pragma unroll
        for (int i = 0; i < TC / 8; ++i)
#pragma unroll
            for (int w = 0; w < TR / 32; ++w)
                if (inside || (c0 + y + 8 * i < cols && r0 + x + 32 * w < rows))
                    dst[8 * i * rows + 32 * w] = tile[(x + 32 * w) * PITCH + y + 8 * i];
        __syncthreads();  // the tile is rewritten by the next iteration
    }
}

// Element kernels: transpose_eE_elRxC, E-byte elements, tiles of R input rows x C input columns, each
// compiled for the most resident 256-thread blocks per SM its registers allow without spilling, but e4
// 128x32: 5 rather than 6 (on an H200, tools/transpose_tile_probe.py, of cudaMemcpy: 7001x5003 0.910
// against 0.897, 8191x8193 0.891 against 0.877, 100x999x1001 0.928 against 0.924; 3 blocks 0.81-0.84; the
// same 5 blocks held there by unused dynamic shared memory 0.74-0.79, so not the block count itself: the
// likely cause is L1, which a larger shared-memory carve-out takes from the loads). The plan (ops/transpose
// ELEMENT_TILES) takes e2 64x64, e4 128x32 (64x32 for small matrices) and e8 64x32, the instances
// ops/transpose KERNELS lists with their blocks an SM; tools/transpose_any_sweep.py instantiates the
// alternatives it times them against.

// ---- Any shape, two elements a word (`_pr`) ----------------------------------------------------------
//
// The element kernels above issue one 2-byte (4-byte) load, shared store, shared load and global store per
// element. Here each of them moves a PAIR: a 32-bit word of two 2-byte elements (a 64-bit word of two
// 4-byte ones), half the instructions, same tile walk, same arguments. Warp y of 8 loads input rows
// 2y + 16i and 2y + 16i + 1 of a TR x TC tile, lane x the aligned word at tile columns 2x + 64w, + 1 of
// each. A row whose first element sits at an odd element index (s = 1: every other row when cols is odd,
// the same s for rows 16 apart: one s per warp for each of its two rows) is loaded one element early (the
// element before shares the first one's aligned word, inside the same allocation) and realigned in registers:
// its pair x is (high half of word x, low half of word x + 1), word x + 1 from the next lane
// (__shfl_down_sync), the last lane's from the next 64 columns' lane 0 or, past the tile, one extra element
// load. The two rows' pairs turn into pairs of a tile COLUMN (rows 2a and 2a + 1, a = y + 8i: byte
// permutes), stored into the shared tile column-major: column j holds TR / 2 words, word a at
// j * TR/2 + ((a + j / 2) mod TR/2), a rotation by j / 2. Bank model (2-byte elements, one wavefront a
// warp when its 32 words hit 32 banks): the stores of columns 2x (2x + 1), lanes x = 0..31, hit banks
// (a + x) mod 32; the loads of column j's words q = x + 32u hit banks (x + j / 2) mod 32: both
// conflict-free (unrotated, the stores would all hit one bank; a pad of one word a column would still
// leave lanes x and x + 16 two-way). 4-byte elements: 64-bit words, two half-warp wavefronts, the
// fewest a warp's 256 bytes take, the same rotation keeping each half-warp's 16 words apart. (`smemlab
// analyze` agrees: every shared load and store at its ideal wavefronts, each kernel, odd rows and columns.)
// Output row j (warp y takes j = y + 8i, all its shared loads before any store) starts at output index o,
// t = o mod 2 the same for a warp's rows (8 apart). With t = 0 lane x stores word q = x + 32u (tile rows
// 2q, 2q + 1) as one aligned word; with t = 1 the aligned word at o - 1 + 2q holds tile rows 2q - 1 and
// 2q (high half of shared word q - 1, from the lane before by a shuffle, low half of word q), and the
// row's first element (tile row 0) and last (tile row TR - 1, one more store) are stored alone. (A second
// shared load of word q - 1 instead of the shuffle: ptxas loads only its high half, a 4-byte load at an
// 8-byte stride for 4-byte elements, two-way conflicted.) Edge tiles load element by element and store
// each word whole or its elements inside the matrix alone.
template <typename T> struct PairOf;
template <> struct PairOf<u16> { typedef unsigned type; };
template <> struct PairOf<unsigned> { typedef u64 type; };

__device__ __forceinline__ unsigned pair(u16 lo, u16 hi) { return lo | (unsigned)hi << 16; }
__device__ __forceinline__ u64 pair(unsigned lo, unsigned hi) { return lo | (u64)hi << 32; }
// (high element of a, low element of b): the pair straddling two neighbouring words
__device__ __forceinline__ unsigned straddle(unsigned a, unsigned b) { return __funnelshift_r(a, b, 16); }
__device__ __forceinline__ u64 straddle(u64 a, u64 b) { return a >> 32 | b << 32; }
// (low of a, low of b) and (high of a, high of b): two rows' pairs turned into two columns' pairs
__device__ __forceinline__ unsigned lows(unsigned a, unsigned b) { return __byte_perm(a, b, 0x5410); }
__device__ __forceinline__ unsigned highs(unsigned a, unsigned b) { return __byte_perm(a, b, 0x7632); }
__device__ __forceinline__ u64 lows(u64 a, u64 b) { return (a & 0xffffffffull) | b << 32; }
__device__ __forceinline__ u64 highs(u64 a, u64 b) { return a >> 32 | (b & ~0xffffffffull); }

template <typename T, int TR, int TC, int BLOCKS>
__global__ void __launch_bounds__(256, BLOCKS) transpose_pairs(T *__restrict__ out, i64 out_off, const T *__restrict__ in, i64 in_off,
                                                i64 rows, i64 cols, i64 tiles_y, i64 tiles_x, i64 ntiles)
{
    typedef typename PairOf<T>::type W;
    constexpr int H = TR / 2, CW = TC / 64, BITS = 8 * sizeof(T);  // words a tile column, words a lane and input row
    static_assert(TR % 64 == 0 && TC % 64 == 0, "a warp moves 32 pairs of a row, 32 words of a column");
    __shared__ W tile[TC * H];
    const int x = threadIdx.x % 32, y = threadIdx.x / 32;
    const i64 per_matrix = tiles_y * tiles_x, size = rows * cols;
    for (i64 k = blockIdx.x; k < ntiles; k += gridDim.x) {
        const i64 b = k / per_matrix, rem = k - b * per_matrix;
        const i64 tx = rem / tiles_y, ty = rem - tx * tiles_y;  // down a band of input columns (ORDER 1)
        const i64 r0 = ty * TR, c0 = tx * TC;
        const bool inside = r0 + TR <= rows && c0 + TC <= cols;
        W v[TR / 16][2][CW];  // [i][h][w]: input row 2y + 16i + h, tile columns 64w + 2x, + 1
        i64 first[2];  // the index of input row 2y + h's first element in the tile (rows 16 apart: same parity)
        int s[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            first[h] = in_off + b * size + (r0 + 2 * y + h) * cols + c0;
            s[h] = (int)(first[h] & 1);
        }
        if (inside) {  // every load issued before any is used, then the odd rows realigned
            T last[TR / 16][2];  // an odd row's last element in the tile, for lane 31
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int i = 0; i < TR / 16; ++i) {
                    const T *src = in + first[h] + 16 * i * cols;
#pragma unroll
                    for (int w = 0; w < CW; ++w) v[i][h][w] = __ldg(reinterpret_cast<const W *>(src - s[h] + 64 * w + 2 * x));
                    last[i][h] = s[h] && x == 31 ? __ldg(src + TC - 1) : T(0);
                }
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                if (s[h] == 0) continue;
#pragma unroll
                for (int i = 0; i < TR / 16; ++i)
#pragma unroll
                    for (int w = 0; w < CW; ++w) {  // word w + 1 of the lane is still the loaded one
                        const W next = __shfl_down_sync(~0u, v[i][h][w], 1);
                        const W head = w + 1 < CW ? __shfl_sync(~0u, v[i][h][w + 1 < CW ? w + 1 : w], 0) : (W)last[i][h];
                        v[i][h][w] = straddle(v[i][h][w], x == 31 ? head : next);
                    }
            }
        } else {
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int i = 0; i < TR / 16; ++i)
#pragma unroll
                    for (int w = 0; w < CW; ++w) {
                        const i64 row = r0 + 2 * y + h + 16 * i, col = c0 + 64 * w + 2 * x;
                        const T *p = in + first[h] + 16 * i * cols + 64 * w + 2 * x;
                        v[i][h][w] = pair(row < rows && col < cols ? __ldg(p) : T(0), row < rows && col + 1 < cols ? __ldg(p + 1) : T(0));
                    }
        }
#pragma unroll
        for (int i = 0; i < TR / 16; ++i)
#pragma unroll
            for (int w = 0; w < CW; ++w) {
                const int a = y + 8 * i, j = 64 * w + 2 * x, at = (a + j / 2) & (H - 1);  // columns j, j + 1: rows 2a, 2a + 1
                tile[j * H + at] = lows(v[i][0][w], v[i][1][w]);
                tile[(j + 1) * H + at] = highs(v[i][0][w], v[i][1][w]);
            }
        __syncthreads();
        // output rows c0 + y + 8i (input columns); word q of a row at dst + 2q + 8i * rows holds tile rows
        // 2q - t, 2q - t + 1, where t, the parity of the row's first output index, is the same for rows 8 apart
        const i64 ofirst = out_off + b * size + (c0 + y) * rows + r0;
        const int t = (int)(ofirst & 1), lim = (int)(rows - r0 < TR ? rows - r0 : TR);  // output columns: [0, lim)
        T *dst = out + ofirst - t;
        W z[TC / 8][H / 32];  // every shared load before any store
#pragma unroll
        for (int i = 0; i < TC / 8; ++i)
#pragma unroll
            for (int u = 0; u < H / 32; ++u) {
                const int j = y + 8 * i;
                z[i][u] = tile[j * H + ((x + 32 * u + j / 2) & (H - 1))];
            }
        if (inside && t == 0) {  // every word whole
#pragma unroll
            for (int i = 0; i < TC / 8; ++i)
#pragma unroll
                for (int u = 0; u < H / 32; ++u) *reinterpret_cast<W *>(dst + 8 * i * rows + 2 * (x + 32 * u)) = z[i][u];
        } else if (inside) {  // word q - 1 from the lane before (lane 0: lane 31's previous word); the ends alone
#pragma unroll
            for (int i = 0; i < TC / 8; ++i) {
                T *row = dst + 8 * i * rows;
#pragma unroll
                for (int u = 0; u < H / 32; ++u) {
                    const W m = straddle(__shfl_sync(~0u, x == 31 ? z[i][u > 0 ? u - 1 : 0] : z[i][u], (x + 31) % 32), z[i][u]);
                    if (u > 0 || x > 0)
                        *reinterpret_cast<W *>(row + 2 * (x + 32 * u)) = m;
                    else
                        row[1] = (T)(m >> BITS);  // tile row 0
                }
                if (x == 31) row[TR] = (T)(z[i][H / 32 - 1] >> BITS);  // tile row TR - 1
            }
        } else {  // an edge tile: each word whole where both its elements are in the matrix, else alone
#pragma unroll
            for (int i = 0; i < TC / 8; ++i) {
                if (c0 + y + 8 * i >= cols) break;
                T *row = dst + 8 * i * rows;
#pragma unroll
                for (int u = 0; u <= H / 32; ++u) {  // u = H / 32: the shifted row's last element (lane 0)
                    if (u == H / 32 && t == 0) break;
                    const int q = x + 32 * u, lo = 2 * q - t;  // lo: the tile row of m's low element
                    W m = z[i][u < H / 32 ? u : 0];
                    if (t) m = straddle(__shfl_sync(~0u, x == 31 ? z[i][u > 0 ? u - 1 : 0] : m, (x + 31) % 32), m);
                    if (lo >= 0 && lo + 1 < lim) {
                        *reinterpret_cast<W *>(row + 2 * q) = m;
                    } else {
                        if (lo >= 0 && lo < lim) row[2 * q] = (T)m;
                        if (lo + 1 >= 0 && lo + 1 < lim) row[2 * q + 1] = (T)(m >> BITS);
                    }
                }
            }
        }
        __syncthreads();  // the tile is rewritten by the next iteration
    }
}

// Pair kernels: transpose_eE_prRxC, E-byte elements, tiles of R input rows x C input columns, each compiled
// for the resident 256-thread blocks an SM that measured best (on an H200, tools/transpose_pair_probe.py, of
// cudaMemcpy, at 7001x5003 / 8191x8193 / a batch of ~1000^2): e2 128x64 at 4 blocks 0.82-0.83 / 0.80 /
// 0.90-0.91 (3 blocks 0.79-0.80 / 0.77 / 0.85, 5 blocks 0.79-0.80 / 0.74-0.75 / 0.90-0.91); e2 64x64 at 5
// blocks 0.74-0.75 / 0.71 / 0.86 (6: 0.77 / 0.71-0.74 / 0.88-0.89, 8: 0.68-0.69 / 0.60 / 0.90); e4 128x64
// at 3 blocks 0.92 / 0.91 / 0.93-0.94 (4 blocks 0.90-0.91 / 0.89-0.90 / 0.90-0.91); e4 64x64 at 5 blocks
// 0.81-0.82 / 0.79-0.81 / 0.78 (4: 0.89 / 0.87-0.89 / 0.91). The plan (ops/transpose.py PAIR_TILES) takes
// e2 and e4 128x64 where the matrix gives enough tiles (the instances ops/transpose KERNELS lists); the
// 64x64 forms are the alternatives measured (tools/ instantiates them). The 2-byte element kernel of the same 128x64 tile was no better than
// its 64x64 (ELEMENT_TILES' comment); likely what the pairs add is the tall tile's 256-byte output row
// segments (half the partial sectors of 64x64's) at half the instructions (not checked with ncu).
// A first form, which loaded and realigned each row in turn (the loads of the next row behind the
// shuffles of this one), reached 0.44-0.50 of cudaMemcpy for 2 bytes: every load before any is used.
// What holds e2 128x64 at 0.80-0.83 of cudaMemcpy (Nsight Compute, 7001x5003): L2 at 84-87% of its peak,
// its sectors read 1.24x and written 1.28x the bytes moved (128-byte pieces of input rows and 256-byte
// pieces of output rows, cut at 2-byte offsets, with partial sectors at both ends). Measured and dropped
// (tools/transpose_2byte_h200.md, of cudaMemcpy at 7001x5003 / 8191x8193 / 32x1000x999): 256x64 tiles at
// 3 blocks 0.82-0.85 / 0.80-0.83 / 0.85-0.88; 128x64 with the next tile's loads issued before this tile's
// stores 0.76 / 0.74 / 0.83; 64-bit words of four elements (128x128 tiles) 0.57 / 0.61 / 0.59, with 1.3x
// the instructions, 5x the branches and 1.49x the L2 write sectors; 128x128 pairs 0.72-0.75 / 0.68-0.75 /
// 0.83-0.85. Longer row pieces need tiles of 64 KB, more than a block's registers can carry.
