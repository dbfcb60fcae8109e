"""A seventh fresh batch of Numba CUDA kernels, what numba-cuda users write in 2026 beyond the earlier batches:
complex64/complex128 data (an in-shared radix-2 FFT, a complex multiply-accumulate), cuda.fp16 intrinsics,
uint16/bool/int64 arrays, module-level NumPy arrays used as constants next to cuda.const.array_like, dynamic shared
memory cut into two views (one reinterpreted as int32), a compare-and-swap spin lock with threadfence and selp,
bit intrinsics (brev, clz, ffs, popc, fma), device functions returning tuples, a local-array stack, a 3-D array
walked along its slow axis, grid-stride loops over cuda.gridsize, an odd-even merge sort, a float32-tile matmul with
a float64 accumulator and a 2-D prefix sum in shared memory; run through `smemlab analyze FILE.py` as a held-out
checker would (written for smemlab)."""

import cmath
import math

import numpy as np
from numba import cuda, complex64, complex128, float32, float64, int32, int64, uint32
from numba.types import float16

FULL = 0xFFFFFFFF

FFT_N = 64
FFT_LOG2 = 6
CMAC_TILE = 64
ACT_TPB = 128
NCODES = 64
# a degree-7 Chebyshev fit, kept at module level: Numba freezes the array into the kernel as a constant
CHEB_COEFFS = np.array([0.9, -0.31, 0.12, 0.054, -0.021, 0.0088, -0.0031, 0.0012], dtype=np.float32)
CHEB_SCALE = np.array([1.0, 0.5, 0.25, 0.125], dtype=np.float32)
POLY_TPB = 128
POLY_STAGE = 256       # 2 * POLY_TPB
SOFTMAX_COLS = 256
LOCK_TPB = 256
BITS_TPB = 128
MINMAX_TPB = 256
TREE_LEAVES = 128
TREE_NODES = 255
STACK_DEPTH = 16
AX_BX = 16
AX_BY = 8
SORT_N = 256
MM_T = 16
SAT_T = 32


# ---------------------------------------------------------------------------------------------------------------
# device functions
# ---------------------------------------------------------------------------------------------------------------
@cuda.jit(device=True)
def twiddle(k, span):
    ang = -2.0 * math.pi * k / span
    return complex64(complex(math.cos(ang), math.sin(ang)))


@cuda.jit(device=True)
def min_max_arg(a_min, a_max, a_arg, b_min, b_max, b_arg):
    # combine two (min, max, argmin) triples; ties keep the smaller index
    lo = a_min
    arg = a_arg
    if b_min < a_min or (b_min == a_min and b_arg < a_arg):
        lo = b_min
        arg = b_arg
    hi = max(a_max, b_max)
    return lo, hi, arg


@cuda.jit(device=True)
def cheb_eval(t):
    # Clenshaw recurrence on the module-level coefficient table
    b1 = float32(0.0)
    b2 = float32(0.0)
    for j in range(CHEB_COEFFS.shape[0] - 1, 0, -1):
        b0 = cuda.fma(float32(2.0) * t, b1, CHEB_COEFFS[j] - b2)
        b2 = b1
        b1 = b0
    return t * b1 - b2 + CHEB_COEFFS[0]


@cuda.jit(device=True)
def compare_swap(keys, vals, i, j):
    if keys[i] > keys[j]:
        k = keys[i]
        keys[i] = keys[j]
        keys[j] = k
        v = vals[i]
        vals[i] = vals[j]
        vals[j] = v


# ---------------------------------------------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------------------------------------------

# --- a 64-point complex64 FFT per block: bit-reversed load (cuda.brev) into shared memory, then six radix-2
#     Cooley-Tukey stages in place, each of the 32 threads one butterfly a stage
@cuda.jit
def fft64_shared_c64(x, out):
    buf = cuda.shared.array(FFT_N, complex64)
    sig = cuda.blockIdx.x
    t = cuda.threadIdx.x
    for i in range(t, FFT_N, cuda.blockDim.x):
        r = cuda.brev(uint32(i)) >> (32 - FFT_LOG2)
        buf[r] = x[sig, i]
    cuda.syncthreads()
    half = 1
    for _ in range(FFT_LOG2):
        span = half * 2
        grp = t // half
        k = t % half
        i0 = grp * span + k
        i1 = i0 + half
        w = twiddle(k, span)
        a = buf[i0]
        b = buf[i1] * w
        buf[i0] = a + b
        buf[i1] = a - b
        cuda.syncthreads()
        half = span
    for i in range(t, FFT_N, cuda.blockDim.x):
        out[sig, i] = buf[i]


# --- y += A @ conj(x) in complex128, one row a thread (the row walked along K by each thread), x staged a tile at a
#     time in shared memory and read by every thread at once
@cuda.jit
def cmac_rows_c128(A, x, y):
    xs = cuda.shared.array(CMAC_TILE, complex128)
    row = cuda.grid(1)
    t = cuda.threadIdx.x
    nrows, ncols = A.shape
    acc = complex128(0j)
    for k0 in range(0, ncols, CMAC_TILE):
        if t < CMAC_TILE:
            if k0 + t < ncols:
                xs[t] = x[k0 + t].conjugate()
            else:
                xs[t] = 0j
        cuda.syncthreads()
        if row < nrows:
            kend = min(CMAC_TILE, ncols - k0)
            for k in range(kend):
                acc += A[row, k0 + k] * xs[k]
        cuda.syncthreads()
    if row < nrows:
        y[row] += acc


# --- half-precision leaky-ReLU-and-scale with cuda.fp16 intrinsics: each block stages its slice in a float16 shared
#     array, then writes it back reversed within the block (a flip used by a bidirectional layer)
@cuda.jit
def fp16_leaky_flip(x, y, slope, scale):
    s = cuda.shared.array(ACT_TPB, float16)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = x.shape[0]
    v = float16(0.0)
    if i < n:
        v = x[i]
    neg = cuda.fp16.hmul(v, slope[0])
    v = cuda.fp16.hmax(v, neg)
    s[t] = cuda.fp16.hmul(v, scale[0])
    cuda.syncthreads()
    j = cuda.blockIdx.x * cuda.blockDim.x + (cuda.blockDim.x - 1 - t)
    if j < n:
        y[j] = s[cuda.blockDim.x - 1 - t]


# --- masked per-code weight sums: a bool mask, uint16 codes folded to 64 bins, int64 weights summed with
#     cuda.atomic.add into an int64 shared histogram, in a cuda.gridsize grid-stride loop; bins merged into global
@cuda.jit
def masked_code_sums(mask, codes, weights, sums):
    bins = cuda.shared.array(NCODES, int64)
    t = cuda.threadIdx.x
    for b in range(t, NCODES, cuda.blockDim.x):
        bins[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), codes.shape[0], cuda.gridsize(1)):
        if mask[i]:
            c = int32(codes[i]) & (NCODES - 1)
            cuda.atomic.add(bins, c, weights[i])
    cuda.syncthreads()
    for b in range(t, NCODES, cuda.blockDim.x):
        if bins[b] != 0:
            cuda.atomic.add(sums, b, bins[b])


# --- a Chebyshev approximation f(x) from the module-level coefficient array (a constant) and a per-band scale in
#     cuda.const.array_like; each thread two elements a block apart, results staged in shared and written pairwise
@cuda.jit
def cheb_approx_const(x, y):
    band_scale = cuda.const.array_like(CHEB_SCALE)
    stage = cuda.shared.array(POLY_STAGE, float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * 2 * POLY_TPB
    n = x.shape[0]
    for h in range(2):
        i = base + h * POLY_TPB + t
        v = float32(0.0)
        if i < n:
            u = x[i]
            band = min(int32(abs(u) * 2.0), 3)
            v = cheb_eval(u) * band_scale[band]
        stage[h * POLY_TPB + t] = v
    cuda.syncthreads()
    # thread t writes elements 2t and 2t+1 of the block's span
    j = base + 2 * t
    if j < n:
        y[j] = stage[2 * t]
    if j + 1 < n:
        y[j + 1] = stage[2 * t + 1]


# --- row softmax with an argmax on the side, dynamic shared memory cut into a float32 row view and a reduction
#     area whose second half is reinterpreted as int32 (the numba-cuda documentation's slicing idiom)
@cuda.jit
def softmax_argmax_dyn(x, y, amax):
    dyn = cuda.shared.array(0, float32)
    rowbuf = dyn[:SOFTMAX_COLS]
    red = dyn[SOFTMAX_COLS:SOFTMAX_COLS + cuda.blockDim.x]
    ridx = dyn[SOFTMAX_COLS + cuda.blockDim.x:SOFTMAX_COLS + 2 * cuda.blockDim.x].view(np.int32)
    row = cuda.blockIdx.x
    t = cuda.threadIdx.x
    nt = cuda.blockDim.x
    best = float32(-3.0e38)
    bi = int32(0)
    for c in range(t, SOFTMAX_COLS, nt):
        v = x[row, c]
        rowbuf[c] = v
        if v > best:
            best = v
            bi = c
    red[t] = best
    ridx[t] = bi
    cuda.syncthreads()
    s = nt // 2
    while s > 0:
        if t < s:
            if red[t + s] > red[t]:
                red[t] = red[t + s]
                ridx[t] = ridx[t + s]
        cuda.syncthreads()
        s //= 2
    m = red[0]
    if t == 0:
        amax[row] = ridx[0]
    cuda.syncthreads()
    part = float32(0.0)
    for c in range(t, SOFTMAX_COLS, nt):
        e = math.exp(rowbuf[c] - m)
        rowbuf[c] = e
        part += e
    red[t] = part
    cuda.syncthreads()
    s = nt // 2
    while s > 0:
        if t < s:
            red[t] += red[t + s]
        cuda.syncthreads()
        s //= 2
    inv = float32(1.0) / red[0]
    for c in range(t, SOFTMAX_COLS, nt):
        y[row, c] = rowbuf[c] * inv


# --- a global sum and max under a compare-and-swap spin lock: each block reduces its slice in shared memory, then
#     thread 0 takes the lock (cuda.atomic.cas), updates the totals between threadfences and releases it with exch;
#     cuda.selp picks the clamped value
@cuda.jit
def locked_sum_max(x, lock, totals):
    ssum = cuda.shared.array(LOCK_TPB, float32)
    smax = cuda.shared.array(LOCK_TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = x.shape[0]
    inb = i < n
    v = x[min(i, n - 1)]
    ssum[t] = cuda.selp(inb, v, float32(0.0))
    smax[t] = cuda.selp(inb, v, float32(-3.0e38))
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            ssum[t] += ssum[t + s]
            smax[t] = max(smax[t], smax[t + s])
        cuda.syncthreads()
        s //= 2
    if t == 0:
        while cuda.atomic.cas(lock, 0, 0, 1) != 0:
            pass
        cuda.threadfence()
        totals[0] += ssum[0]
        totals[1] = max(totals[1], smax[0])
        cuda.threadfence()
        cuda.atomic.exch(lock, 0, 0)


# --- bit tricks over uint32 masks: popc per word and a per-warp exclusive scan of the counts in shared memory,
#     the position of each word's lowest set bit (ffs) and of its highest (clz), a histogram of leading-zero counts
#     in shared memory, brev'd words out, and an fma'd density score
@cuda.jit
def bitmask_stats(words, offsets, lowbit, reversed_words, density, clz_hist):
    cnt = cuda.shared.array(BITS_TPB, int32)
    hist = cuda.shared.array(33, int32)
    t = cuda.threadIdx.x
    lane = t % 32
    if t < 33:
        hist[t] = 0
    i = cuda.grid(1)
    w = uint32(0)
    if i < words.shape[0]:
        w = words[i]
    c = cuda.popc(w)
    cnt[t] = c
    cuda.syncthreads()
    # inclusive scan within each warp, Hillis-Steele in shared memory
    off = 1
    while off < 32:
        add = 0
        if lane >= off:
            add = cnt[t - off]
        cuda.syncwarp(FULL)
        cnt[t] += add
        cuda.syncwarp(FULL)
        off *= 2
    lz = cuda.clz(w)
    cuda.atomic.add(hist, lz, 1)
    cuda.syncthreads()
    if i < words.shape[0]:
        offsets[i] = cnt[t] - c
        lowbit[i] = cuda.ffs(w)
        reversed_words[i] = cuda.brev(w)
        density[i] = cuda.fma(float32(c), float32(1.0 / 32.0), float32(-0.5))
    if t < 33:
        cuda.atomic.add(clz_hist, t, hist[t])


# --- min, max and argmin of a vector: a device function returning a tuple combines the pairs; the block tree uses
#     interleaved addressing (index 2*s*tid), the classic first version of the reduction
@cuda.jit
def minmax_argmin(x, out_min, out_max, out_arg):
    smin = cuda.shared.array(MINMAX_TPB, float32)
    smax = cuda.shared.array(MINMAX_TPB, float32)
    sarg = cuda.shared.array(MINMAX_TPB, int32)
    t = cuda.threadIdx.x
    lo = float32(3.0e38)
    hi = float32(-3.0e38)
    arg = int32(0x7FFFFFFF)
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        v = x[i]
        lo, hi, arg = min_max_arg(lo, hi, arg, v, v, i)
    smin[t] = lo
    smax[t] = hi
    sarg[t] = arg
    cuda.syncthreads()
    s = 1
    while s < cuda.blockDim.x:
        idx = 2 * s * t
        if idx + s < cuda.blockDim.x:
            a, b, c = min_max_arg(smin[idx], smax[idx], sarg[idx], smin[idx + s], smax[idx + s], sarg[idx + s])
            smin[idx] = a
            smax[idx] = b
            sarg[idx] = c
        cuda.syncthreads()
        s *= 2
    if t == 0:
        out_min[cuda.blockIdx.x] = smin[0]
        out_max[cuda.blockIdx.x] = smax[0]
        out_arg[cuda.blockIdx.x] = sarg[0]


# --- range counting over a max-tree: the block builds a 255-node implicit binary tree of subtree maxima in shared
#     memory from its 128 leaves, then each thread counts the leaves above its query by a depth-first walk that keeps
#     its pending nodes on a cuda.local.array stack and prunes subtrees whose maximum is below the query
@cuda.jit
def maxtree_count_above(leaves, queries, counts):
    tree = cuda.shared.array(TREE_NODES, float32)
    t = cuda.threadIdx.x
    b = cuda.blockIdx.x
    tree[TREE_LEAVES - 1 + t] = leaves[b, t]
    cuda.syncthreads()
    width = TREE_LEAVES // 2
    first = TREE_LEAVES // 2 - 1
    while width > 0:
        if t < width:
            node = first + t
            tree[node] = max(tree[2 * node + 1], tree[2 * node + 2])
        cuda.syncthreads()
        width //= 2
        first = (first - 1) // 2
    q = queries[b, t]
    stack = cuda.local.array(STACK_DEPTH, int32)
    top = 0
    stack[0] = 0
    top = 1
    found = 0
    while top > 0:
        top -= 1
        node = stack[top]
        if tree[node] > q:
            if node >= TREE_LEAVES - 1:
                found += 1
            else:
                stack[top] = 2 * node + 2
                stack[top + 1] = 2 * node + 1
                top += 2
    counts[b, t] = found


# --- sum of a 3-D volume [Z, Y, X] over Y, threads laid along Z (the slow axis: each lane a whole plane apart),
#     blocks over X, a 2-D grid-stride loop (cuda.gridsize) covering any volume; partial sums kept in a shared
#     [AX_BY, AX_BX] tile before the write
@cuda.jit
def sum_over_y_slow_axis(v, out):
    acc = cuda.shared.array((AX_BY, AX_BX), float32)
    tz = cuda.threadIdx.x
    tx = cuda.threadIdx.y
    nz, ny, nx = v.shape
    gz, gx = cuda.grid(2)
    sz, sx = cuda.gridsize(2)
    for z0 in range(gz - tz, nz, sz):
        for x0 in range(gx - tx, nx, sx):
            z = z0 + tz
            x = x0 + tx
            acc[tx, tz] = 0.0
            if z < nz and x < nx:
                for y in range(ny):
                    acc[tx, tz] += v[z, y, x]
            cuda.syncthreads()
            if z < nz and x < nx:
                out[z, x] = acc[tx, tz]
            cuda.syncthreads()


# --- key/value sort of 256 pairs by Batcher's odd-even merge sort in shared memory, 128 threads each one
#     comparator per step
@cuda.jit
def odd_even_merge_sort_kv(keys, vals, out_keys, out_vals):
    sk = cuda.shared.array(SORT_N, int32)
    sv = cuda.shared.array(SORT_N, float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * SORT_N
    for i in range(t, SORT_N, cuda.blockDim.x):
        sk[i] = keys[base + i]
        sv[i] = vals[base + i]
    cuda.syncthreads()
    p = 1
    while p < SORT_N:
        k = p
        while k >= 1:
            for c in range(t, SORT_N // 2, cuda.blockDim.x):
                j = k % p
                # comparator c of this step: its pair (i, i + k)
                blk = c // k
                i = blk * 2 * k + (c % k) + j
                if i + k < SORT_N and (i // (2 * p)) == ((i + k) // (2 * p)):
                    compare_swap(sk, sv, i, i + k)
            cuda.syncthreads()
            k //= 2
        p *= 2
    for i in range(t, SORT_N, cuda.blockDim.x):
        out_keys[base + i] = sk[i]
        out_vals[base + i] = sv[i]


# --- C = A @ B with float32 16x16 shared tiles and a float64 running sum (the accuracy fix people reach for
#     before Kahan); ragged edges zero-filled
@cuda.jit
def matmul_f32_tiles_f64_acc(A, B, C):
    sA = cuda.shared.array((MM_T, MM_T), float32)
    sB = cuda.shared.array((MM_T, MM_T), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * MM_T + ty
    col = cuda.blockIdx.x * MM_T + tx
    M, K = A.shape
    N = B.shape[1]
    acc = float64(0.0)
    for k0 in range(0, K, MM_T):
        sA[ty, tx] = A[row, k0 + tx] if row < M and k0 + tx < K else float32(0.0)
        sB[ty, tx] = B[k0 + ty, col] if k0 + ty < K and col < N else float32(0.0)
        cuda.syncthreads()
        for k in range(MM_T):
            acc += float64(sA[ty, k]) * float64(sB[k, tx])
        cuda.syncthreads()
    if row < M and col < N:
        C[row, col] = float32(acc)


# --- a summed-area table per 32x32 tile of an image: the tile loaded by 32x8 threads, rows scanned first (one
#     thread a row, walking along it), then columns (one thread a column), all in one unpadded shared tile
@cuda.jit
def tile_summed_area(img, sat):
    tile = cuda.shared.array((SAT_T, SAT_T), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    r0 = cuda.blockIdx.y * SAT_T
    c0 = cuda.blockIdx.x * SAT_T
    h, w = img.shape
    for r in range(ty, SAT_T, cuda.blockDim.y):
        y = r0 + r
        x = c0 + tx
        tile[r, tx] = img[y, x] if y < h and x < w else float32(0.0)
    cuda.syncthreads()
    if ty == 0:
        run = float32(0.0)
        for c in range(SAT_T):
            run += tile[tx, c]
            tile[tx, c] = run
    cuda.syncthreads()
    if ty == 1:
        run = float32(0.0)
        for r in range(SAT_T):
            run += tile[r, tx]
            tile[r, tx] = run
    cuda.syncthreads()
    for r in range(ty, SAT_T, cuda.blockDim.y):
        y = r0 + r
        x = c0 + tx
        if y < h and x < w:
            sat[y, x] = tile[r, tx]
