"""A ninth fresh batch of Numba CUDA kernels, the image-processing, linear-algebra and data-parallel primitives that a
numba-cuda user writes for themselves: a 5x5 convolution with its filter in constant memory over a shared tile with a
two-pixel halo, a tiled matmul of float32 operands accumulated in float64 through 16x17 padded tiles, a softmax a
warp a row folded by shfl_xor_sync, a block max + argmax on (value, index) pairs held in two shared arrays, a 4-bit
radix-digit histogram by shared atomics, a 3-D 7-point stencil marching along z with one 2-D plane in shared memory,
a complex64 transpose through a padded tile, a Hillis-Steele inclusive scan in a double buffer, an indexed
gather/scatter through int32 index arrays, a saturating uint8 image add and an int16 3x3 box blur over a shared tile,
a reduction over a dynamically sized shared array and a per-thread insertion sort of 8 values in a local array
(written for smemlab, by someone who had not seen it)."""

import math

import numpy as np
from numba import complex64, cuda, float32, float64, int16, int32, uint8

FULL = 0xFFFFFFFF

# a 5x5 Gaussian-ish blur (binomial 1 4 6 4 1 outer product, normalised), read from constant memory
_B5 = np.array([1.0, 4.0, 6.0, 4.0, 1.0])
CONV_FILTER = (np.outer(_B5, _B5) / 256.0).astype(np.float32)
CONV_R = 2
CONV_T = 16
CONV_S = CONV_T + 2 * CONV_R

MM_T = 16
MM_PAD = MM_T + 1

SM_WARPS = 4

AM_TPB = 256

RADIX_BITS = 4
RADIX_BINS = 1 << RADIX_BITS

ST_BX = 32
ST_BY = 4
ST_PX = ST_BX + 2
ST_PY = ST_BY + 2

TRC_T = 32
TRC_PAD = TRC_T + 1

HS_N = 256

BOX_BX = 32
BOX_BY = 8
BOX_WX = BOX_BX + 2
BOX_WY = BOX_BY + 2

SORT_K = 8


# --- 2-D convolution with a 5x5 filter from constant memory: the 16x16 output tile and a 2-pixel halo (20x20) staged
#     in shared memory by all the block's threads, zeros outside the image
@cuda.jit
def conv2d_5x5_const(img, out):
    filt = cuda.const.array_like(CONV_FILTER)
    tile = cuda.shared.array((CONV_S, CONV_S), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    h, w = img.shape
    x0 = cuda.blockIdx.x * CONV_T - CONV_R
    y0 = cuda.blockIdx.y * CONV_T - CONV_R
    tid = ty * CONV_T + tx
    for k in range(tid, CONV_S * CONV_S, CONV_T * CONV_T):
        r = k // CONV_S
        c = k % CONV_S
        yy = y0 + r
        xx = x0 + c
        v = float32(0.0)
        if yy >= 0 and yy < h and xx >= 0 and xx < w:
            v = img[yy, xx]
        tile[r, c] = v
    cuda.syncthreads()
    y = cuda.blockIdx.y * CONV_T + ty
    x = cuda.blockIdx.x * CONV_T + tx
    if y < h and x < w:
        acc = float32(0.0)
        for i in range(2 * CONV_R + 1):
            for j in range(2 * CONV_R + 1):
                acc += filt[i, j] * tile[ty + i, tx + j]
        out[y, x] = acc


# --- C = A @ B for float32 A [M, K], B [K, N] with the dot products accumulated in float64 (the "accurate" variant of
#     the tiled matmul): 16x16 tiles of A and B in shared memory, each row padded to 17 words
@cuda.jit
def matmul_f64acc(a, b, c):
    sa = cuda.shared.array((MM_T, MM_PAD), float32)
    sb = cuda.shared.array((MM_T, MM_PAD), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    m, k = a.shape
    n = b.shape[1]
    row = cuda.blockIdx.y * MM_T + ty
    col = cuda.blockIdx.x * MM_T + tx
    acc = float64(0.0)
    for k0 in range(0, k, MM_T):
        ka = k0 + tx
        kb = k0 + ty
        sa[ty, tx] = a[row, ka] if (row < m and ka < k) else float32(0.0)
        sb[ty, tx] = b[kb, col] if (kb < k and col < n) else float32(0.0)
        cuda.syncthreads()
        for kk in range(MM_T):
            acc += float64(sa[ty, kk]) * float64(sb[kk, tx])
        cuda.syncthreads()
    if row < m and col < n:
        c[row, col] = float32(acc)


# --- numerically stable softmax, one warp a row (SM_WARPS rows a block): each lane strides the row by 32, the row
#     max and the sum of exponentials reduced by butterfly shfl_xor_sync so every lane holds them
@cuda.jit
def softmax_warp_rows(x, y):
    lane = cuda.threadIdx.x % 32
    row = cuda.blockIdx.x * SM_WARPS + cuda.threadIdx.x // 32
    nrows, ncols = x.shape
    if row >= nrows:
        return
    m = float32(-math.inf)
    for j in range(lane, ncols, 32):
        m = max(m, x[row, j])
    off = 16
    while off > 0:
        m = max(m, cuda.shfl_xor_sync(FULL, m, off))
        off //= 2
    s = float32(0.0)
    for j in range(lane, ncols, 32):
        s += math.exp(x[row, j] - m)
    off = 16
    while off > 0:
        s += cuda.shfl_xor_sync(FULL, s, off)
        off //= 2
    inv = float32(1.0) / s
    for j in range(lane, ncols, 32):
        y[row, j] = math.exp(x[row, j] - m) * inv


# --- block-wide max and argmax: each thread keeps the best (value, index) of its grid-stride slice, the pairs are
#     folded in a tree over two shared arrays (ties go to the smaller index), one pair per block written out
@cuda.jit
def block_argmax(x, best_val, best_idx):
    sv = cuda.shared.array(AM_TPB, float32)
    si = cuda.shared.array(AM_TPB, int32)
    t = cuda.threadIdx.x
    n = x.shape[0]
    v = float32(-math.inf)
    vi = int32(n)
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        xi = x[i]
        if xi > v:
            v = xi
            vi = i
    sv[t] = v
    si[t] = vi
    cuda.syncthreads()
    h = AM_TPB // 2
    while h > 0:
        if t < h:
            ov = sv[t + h]
            oi = si[t + h]
            if ov > sv[t] or (ov == sv[t] and oi < si[t]):
                sv[t] = ov
                si[t] = oi
        cuda.syncthreads()
        h //= 2
    if t == 0:
        best_val[cuda.blockIdx.x] = sv[0]
        best_idx[cuda.blockIdx.x] = si[0]


# --- one pass of an LSD radix sort's counting step: the 4-bit digit (keys >> shift) & 15 of each key counted in a
#     16-bin shared histogram with cuda.atomic.add, each block's counts written to its own row of the output
@cuda.jit
def radix_digit_hist(keys, shift, counts):
    hist = cuda.shared.array(RADIX_BINS, int32)
    t = cuda.threadIdx.x
    if t < RADIX_BINS:
        hist[t] = 0
    cuda.syncthreads()
    n = keys.shape[0]
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        d = (keys[i] >> shift) & (RADIX_BINS - 1)
        cuda.atomic.add(hist, d, 1)
    cuda.syncthreads()
    if t < RADIX_BINS:
        counts[cuda.blockIdx.x, t] = hist[t]


# --- one Jacobi sweep of the 3-D 7-point Laplacian on u [nz, ny, nx]: the block covers a 32x4 column of (y, x) and
#     marches along z, the current plane with a one-cell halo in a 2-D shared array, the z neighbours in registers;
#     the boundary cells are copied through
@cuda.jit
def stencil7_march_z(u, out, c0, c1):
    plane = cuda.shared.array((ST_PY, ST_PX), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    nz, ny, nx = u.shape
    x = cuda.blockIdx.x * ST_BX + tx
    y = cuda.blockIdx.y * ST_BY + ty
    inside = x < nx and y < ny
    xc = min(x, nx - 1)
    yc = min(y, ny - 1)
    below = float32(0.0)
    cur = u[0, yc, xc]
    above = u[min(1, nz - 1), yc, xc]
    for z in range(nz):
        plane[ty + 1, tx + 1] = cur
        if tx == 0:
            plane[ty + 1, 0] = u[z, yc, max(xc - 1, 0)]
        if tx == ST_BX - 1:
            plane[ty + 1, ST_BX + 1] = u[z, yc, min(xc + 1, nx - 1)]
        if ty == 0:
            plane[0, tx + 1] = u[z, max(yc - 1, 0), xc]
        if ty == ST_BY - 1:
            plane[ST_BY + 1, tx + 1] = u[z, min(yc + 1, ny - 1), xc]
        cuda.syncthreads()
        if inside:
            if z > 0 and z < nz - 1 and x > 0 and x < nx - 1 and y > 0 and y < ny - 1:
                s = (plane[ty, tx + 1] + plane[ty + 2, tx + 1] + plane[ty + 1, tx] + plane[ty + 1, tx + 2]
                     + below + above)
                out[z, y, x] = c0 * cur + c1 * s
            else:
                out[z, y, x] = cur
        cuda.syncthreads()
        below = cur
        cur = above
        if z + 2 < nz:
            above = u[z + 2, yc, xc]


# --- transpose of a complex64 matrix (8-byte elements) through a 32x33 shared tile, 32x8 threads, each thread
#     moving four elements in and four out
@cuda.jit
def transpose_c64(a, at):
    tile = cuda.shared.array((TRC_T, TRC_PAD), complex64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    c = cuda.blockIdx.x * TRC_T + tx
    for k in range(ty, TRC_T, cuda.blockDim.y):
        r = cuda.blockIdx.y * TRC_T + k
        if r < rows and c < cols:
            tile[k, tx] = a[r, c]
    cuda.syncthreads()
    oc = cuda.blockIdx.y * TRC_T + tx
    for k in range(ty, TRC_T, cuda.blockDim.y):
        orow = cuda.blockIdx.x * TRC_T + k
        if orow < cols and oc < rows:
            at[orow, oc] = tile[tx, k]


# --- inclusive scan of 256 elements a block, Hillis-Steele: log2(256) rounds ping-ponging between the two rows of a
#     [2, 256] shared buffer, the block totals written for a second pass
@cuda.jit
def hillis_steele_scan(x, y, totals):
    buf = cuda.shared.array((2, HS_N), float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * HS_N + t
    n = x.shape[0]
    buf[0, t] = x[i] if i < n else float32(0.0)
    cuda.syncthreads()
    src = 0
    off = 1
    while off < HS_N:
        dst = 1 - src
        v = buf[src, t]
        if t >= off:
            v += buf[src, t - off]
        buf[dst, t] = v
        cuda.syncthreads()
        src = dst
        off *= 2
    if i < n:
        y[i] = buf[src, t]
    if t == HS_N - 1:
        totals[cuda.blockIdx.x] = buf[src, t]


# --- out[dst_idx[i]] = scale[i] * x[src_idx[i]]: a gather through one int32 index array and a scatter through
#     another (a permutation, so no two threads write the same slot), as a sparse reordering step does
@cuda.jit
def gather_scale_scatter(x, src_idx, dst_idx, scale, out):
    i = cuda.grid(1)
    if i < src_idx.shape[0]:
        out[dst_idx[i]] = scale[i] * x[src_idx[i]]


# --- per-pixel saturating add of two uint8 images (a brightness overlay), 2-D grid of 32x8 blocks
@cuda.jit
def saturating_add_u8(a, b, out):
    x, y = cuda.grid(2)
    h, w = a.shape
    if y < h and x < w:
        s = int32(a[y, x]) + int32(b[y, x])
        out[y, x] = uint8(min(s, 255))


# --- 3x3 box blur of an int16 image (signed, e.g. a difference image): the block's tile plus a one-pixel border,
#     replicated at the edges, staged in an int16 shared array; the sum in int32, rounded to nearest
@cuda.jit
def box3_int16(img, out):
    win = cuda.shared.array((BOX_WY, BOX_WX), int16)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    h, w = img.shape
    x0 = cuda.blockIdx.x * BOX_BX - 1
    y0 = cuda.blockIdx.y * BOX_BY - 1
    tid = ty * BOX_BX + tx
    for k in range(tid, BOX_WY * BOX_WX, BOX_BX * BOX_BY):
        r = k // BOX_WX
        c = k % BOX_WX
        yy = min(max(y0 + r, 0), h - 1)
        xx = min(max(x0 + c, 0), w - 1)
        win[r, c] = img[yy, xx]
    cuda.syncthreads()
    x = x0 + 1 + tx
    y = y0 + 1 + ty
    if x < w and y < h:
        acc = int32(0)
        for dy in range(3):
            for dx in range(3):
                acc += int32(win[ty + dy, tx + dx])
        q = (abs(acc) + 4) // 9
        out[y, x] = int16(q if acc >= 0 else -q)


# --- sum of squares over a dynamically sized shared array (its size, blockDim.x floats, given at launch): a
#     grid-stride partial per thread, a tree over shared memory, one partial per block
@cuda.jit
def sumsq_dyn_shared(x, partial):
    buf = cuda.shared.array(0, float32)
    t = cuda.threadIdx.x
    s = float32(0.0)
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        v = x[i]
        s += v * v
    buf[t] = s
    cuda.syncthreads()
    h = cuda.blockDim.x // 2
    while h > 0:
        if t < h:
            buf[t] += buf[t + h]
        cuda.syncthreads()
        h //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = buf[0]


# --- each thread sorts the 8 values of its row of x [n, 8] in a local array by insertion sort, writes the sorted row
#     and the mean of its middle four (a trimmed mean, robust to two outliers a side)
@cuda.jit
def row_sort8_local(x, out, trimmed):
    vals = cuda.local.array(SORT_K, float32)
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    for k in range(SORT_K):
        vals[k] = x[i, k]
    for k in range(1, SORT_K):
        key = vals[k]
        j = k - 1
        while j >= 0 and vals[j] > key:
            vals[j + 1] = vals[j]
            j -= 1
        vals[j + 1] = key
    s = float32(0.0)
    for k in range(SORT_K):
        out[i, k] = vals[k]
        if k >= 2 and k < SORT_K - 2:
            s += vals[k]
    trimmed[i] = s / float32(SORT_K - 4)
