"""A third fresh batch of Numba kernels written as people write them (Numba's docs and examples, GPU-Puzzles,
Monte-Carlo and image-processing code, GPU Gems-style scans), run through `smemlab analyze` as a held-out checker
would (written for smemlab)."""

import math

import numpy as np
from numba import cuda, float32, float64, int32, uint32, complex128
from numba.cuda.random import xoroshiro128p_uniform_float32

TPB = 256
T32 = 32
T33 = T32 + 1
NBINS = 64
WARPS8 = 8           # warps of a 256-thread block
SCAN_N = 512         # elements scanned by one 256-thread block
LOG_BANKS = 5
SCAN_PAD = SCAN_N + (SCAN_N >> LOG_BANKS)
KW = 5               # the convolution filter: KW x KW
KR = KW // 2
SORT_K = 8

FILTER = (np.outer([1, 4, 6, 4, 1], [1, 4, 6, 4, 1]) / 256.0).astype(np.float32)


# --- Monte-Carlo estimate of pi, one xoroshiro128p stream a thread, a per-thread hit count
@cuda.jit
def mc_pi(rng_states, iters, hits):
    tid = cuda.grid(1)
    inside = 0
    for _ in range(iters):
        x = xoroshiro128p_uniform_float32(rng_states, tid)
        y = xoroshiro128p_uniform_float32(rng_states, tid)
        if x * x + y * y <= 1.0:
            inside += 1
    hits[tid] = inside


# --- a 5x5 2-D convolution, the filter in constant memory (cuda.const.array_like), zero padding at the edges
@cuda.jit
def conv2d_const(img, out):
    filt = cuda.const.array_like(FILTER)
    x, y = cuda.grid(2)
    h, w = img.shape
    if y >= h or x >= w:
        return
    acc = float32(0.0)
    for dy in range(KW):
        yy = y + dy - KR
        if yy < 0 or yy >= h:
            continue
        for dx in range(KW):
            xx = x + dx - KR
            if 0 <= xx < w:
                acc += img[yy, xx] * filt[dy, dx]
    out[y, x] = acc


# --- a complex128 matrix transpose through a padded 32x33 shared tile, blockDim 32x8
@cuda.jit
def transpose_c128(a, b):
    tile = cuda.shared.array((T32, T33), complex128)
    bx = cuda.blockIdx.x * T32
    by = cuda.blockIdx.y * T32
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    n, m = a.shape
    for j in range(0, T32, 8):
        r = by + ty + j
        if r < n and bx + tx < m:
            tile[ty + j, tx] = a[r, bx + tx]
    cuda.syncthreads()
    for j in range(0, T32, 8):
        r = bx + ty + j
        if r < m and by + tx < n:
            b[r, by + tx] = tile[tx, ty + j].conjugate()


# --- a 64-bin histogram with one shared sub-histogram a warp, merged into the block's global bins
@cuda.jit
def warp_subhist(vals, hist):
    sub = cuda.shared.array((WARPS8, NBINS), uint32)
    tid = cuda.threadIdx.x
    warp = tid // 32
    for i in range(tid, WARPS8 * NBINS, cuda.blockDim.x):
        sub[i // NBINS, i % NBINS] = 0
    cuda.syncthreads()
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, vals.shape[0], stride):
        cuda.atomic.add(sub, (warp, vals[i] & (NBINS - 1)), 1)
    cuda.syncthreads()
    if tid < NBINS:
        total = uint32(0)
        for w in range(WARPS8):
            total += sub[w, tid]
        cuda.atomic.add(hist, tid, total)


# --- stream compaction of the positive values of each block: ballot + popc in a warp, warp totals in shared
@cuda.jit
def compact_ballot(x, out, counts):
    warp_tot = cuda.shared.array(WARPS8, int32)
    tid = cuda.threadIdx.x
    lane = cuda.laneid
    warp = tid // 32
    i = cuda.grid(1)
    v = x[i] if i < x.shape[0] else float32(0.0)
    keep = v > 0
    ballot = cuda.ballot_sync(0xFFFFFFFF, keep)
    below = cuda.popc(ballot & ((uint32(1) << lane) - uint32(1)))
    if lane == 0:
        warp_tot[warp] = cuda.popc(ballot)
    cuda.syncthreads()
    base = 0
    for w in range(warp):
        base += warp_tot[w]
    if keep:
        out[cuda.blockIdx.x * cuda.blockDim.x + base + below] = v
    if tid == 0:
        total = 0
        for w in range(WARPS8):
            total += warp_tot[w]
        counts[cuda.blockIdx.x] = total


@cuda.jit(device=True, inline=True)
def _pad(i):
    return i + (i >> LOG_BANKS)


# --- Blelloch work-efficient exclusive scan of 512 ints in shared memory, padded against bank conflicts
@cuda.jit
def blelloch_padded(x, out):
    temp = cuda.shared.array(SCAN_PAD, int32)
    tid = cuda.threadIdx.x
    n = SCAN_N
    ai = tid
    bi = tid + n // 2
    temp[_pad(ai)] = x[ai]
    temp[_pad(bi)] = x[bi]
    offset = 1
    d = n >> 1
    while d > 0:
        cuda.syncthreads()
        if tid < d:
            a = offset * (2 * tid + 1) - 1
            b = offset * (2 * tid + 2) - 1
            temp[_pad(b)] += temp[_pad(a)]
        offset <<= 1
        d >>= 1
    if tid == 0:
        temp[_pad(n - 1)] = 0
    d = 1
    while d < n:
        offset >>= 1
        cuda.syncthreads()
        if tid < d:
            a = offset * (2 * tid + 1) - 1
            b = offset * (2 * tid + 2) - 1
            t = temp[_pad(a)]
            temp[_pad(a)] = temp[_pad(b)]
            temp[_pad(b)] += t
        d <<= 1
    cuda.syncthreads()
    out[ai] = temp[_pad(ai)]
    out[bi] = temp[_pad(bi)]


@cuda.jit(device=True)
def _row_dot(a, row, v):
    s = float32(0.0)
    for k in range(a.shape[1]):
        s += a[row, k] * v[k]
    return s


@cuda.jit(device=True)
def _store_relu(out, i, value):
    out[i] = max(value, float32(0.0))


# --- y = relu(A x + b), the dot product and the store in device functions taking arrays
@cuda.jit("void(float32[:,:], float32[:], float32[:], float32[:])")
def gemv_relu_dev(a, v, bias, y):
    i = cuda.grid(1)
    if i < a.shape[0]:
        _store_relu(y, i, _row_dot(a, i, v) + bias[i])


# --- a float64 sum: grid-stride loop into a float64 register, a shared tree, one atomic add a block
@cuda.jit
def sum64_gridstride(x, total):
    part = cuda.shared.array(TPB, float64)
    tid = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        acc += x[i]
    part[tid] = acc
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            part[tid] += part[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, part[0])


# --- column sums, one thread a column walking down the rows (coalesced), and its mistake: one thread a row
# --- walking along the columns (each warp's lanes 4*cols bytes apart: uncoalesced)
@cuda.jit
def col_sums_coalesced(m, out):
    c = cuda.grid(1)
    if c < m.shape[1]:
        s = float32(0.0)
        for r in range(m.shape[0]):
            s += m[r, c]
        out[c] = s


@cuda.jit
def row_sums_strided(m, out):
    r = cuda.grid(1)
    if r < m.shape[0]:
        s = float32(0.0)
        for c in range(m.shape[1]):
            s += m[r, c]
        out[r] = s


# --- a central-difference gradient magnitude of a 3-D int64 volume, cuda.grid(3) on an 8x8x4 block
@cuda.jit
def grad3d_int64(vol, mag):
    x, y, z = cuda.grid(3)
    d, h, w = vol.shape
    if 0 < x < w - 1 and 0 < y < h - 1 and 0 < z < d - 1:
        gx = vol[z, y, x + 1] - vol[z, y, x - 1]
        gy = vol[z, y + 1, x] - vol[z, y - 1, x]
        gz = vol[z + 1, y, x] - vol[z - 1, y, x]
        mag[z, y, x] = math.sqrt(float64(gx * gx + gy * gy + gz * gz))


# --- per-thread sort of 8 strided values in a local array, the median written out
@cuda.jit
def local_sort_median(x, med):
    buf = cuda.local.array(SORT_K, float32)
    i = cuda.grid(1)
    n = med.shape[0]
    if i >= n:
        return
    for k in range(SORT_K):
        buf[k] = x[k * n + i]
    for a in range(1, SORT_K):
        key = buf[a]
        b = a - 1
        while b >= 0 and buf[b] > key:
            buf[b + 1] = buf[b]
            b -= 1
        buf[b + 1] = key
    med[i] = 0.5 * (buf[SORT_K // 2 - 1] + buf[SORT_K // 2])


# --- half-precision axpy + relu with cuda.fp16 intrinsics, two elements a thread
@cuda.jit
def fp16_fma_relu(a, x, y, out):
    i = cuda.grid(1) * 2
    if i + 1 < out.shape[0]:
        for k in range(2):
            r = cuda.fp16.hfma(a[0], x[i + k], y[i + k])
            out[i + k] = cuda.fp16.hmax(r, x[i + k] - x[i + k])


# --- a row's maximum claimed with an integer atomic max on a 2-D output, the warp's max found by shfl_down first
@cuda.jit
def row_max_shfl(q, rowmax):
    r = cuda.blockIdx.y
    c = cuda.grid(1)
    v = q[r, c] if c < q.shape[1] else -2147483647
    off = 16
    while off > 0:
        v = max(v, cuda.shfl_down_sync(0xFFFFFFFF, v, off))
        off //= 2
    if cuda.laneid == 0:
        cuda.atomic.max(rowmax, (r, 0), v)


# --- a block's count of the values above a threshold with syncthreads_count, thresholds from 2-D blocks
@cuda.jit
def count_above(x, thresh, counts):
    ty = cuda.threadIdx.y
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    v = x[ty, i] if i < x.shape[1] else float32(0.0)
    n = cuda.syncthreads_count(int32(v > thresh[ty]))
    if cuda.threadIdx.x == 0 and ty == 0:
        counts[cuda.blockIdx.x] = n
