"""A fresh batch of Numba kernels written as people write them (Numba's docs and examples, GPU-Puzzles,
scientific code), run through `smemlab analyze` as a held-out checker would (written for smemlab)."""

import cmath
import math

import numpy as np
from numba import cuda, float32, float64, int32, int64, complex64

TILE = 16
RADIUS = 3
BLOCK = 128
TILE1 = TILE + 1  # Numba wants literal shapes: constants computed at the top level
TILE2 = TILE + 2
HALO = BLOCK + 2 * RADIUS
WEIGHTS = np.array([0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05], dtype=np.float32)


# --- Numba's docs: a tiled matrix product with an eager signature and 2-D blocks, padded shared tiles
@cuda.jit("void(float32[:,:], float32[:,:], float32[:,:])")
def sig_matmul(A, B, C):
    sA = cuda.shared.array((TILE, TILE1), float32)
    sB = cuda.shared.array((TILE, TILE1), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = float32(0.0)
    for t in range((A.shape[1] + TILE - 1) // TILE):
        col = t * TILE + tx
        row = t * TILE + ty
        sA[ty, tx] = A[y, col] if y < A.shape[0] and col < A.shape[1] else float32(0.0)
        sB[ty, tx] = B[row, x] if row < B.shape[0] and x < B.shape[1] else float32(0.0)
        cuda.syncthreads()
        for k in range(TILE):
            acc += sA[ty, k] * sB[k, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc


# --- a 1-D stencil with a halo staged in shared memory (constant weights)
@cuda.jit
def halo_stencil(x, out):
    w = cuda.const.array_like(WEIGHTS)
    tile = cuda.shared.array(HALO, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    n = x.shape[0]
    tile[t + RADIUS] = x[i] if i < n else float32(0.0)
    if t < RADIUS:
        left = i - RADIUS
        right = i + BLOCK
        tile[t] = x[left] if left >= 0 else float32(0.0)
        tile[t + BLOCK + RADIUS] = x[right] if right < n else float32(0.0)
    cuda.syncthreads()
    if i < n:
        s = float32(0.0)
        for k in range(2 * RADIUS + 1):
            s += w[k] * tile[t + k]
        out[i] = s


# --- a 2-D heat-equation step in float64 with a one-cell halo in shared memory
@cuda.jit
def heat_step(u, u_new, alpha):
    s = cuda.shared.array((TILE2, TILE2), float64)
    i, j = cuda.grid(2)
    ti = cuda.threadIdx.y + 1
    tj = cuda.threadIdx.x + 1
    ny, nx = u.shape
    if j < ny and i < nx:
        s[ti, tj] = u[j, i]
        if cuda.threadIdx.x == 0 and i > 0:
            s[ti, 0] = u[j, i - 1]
        if cuda.threadIdx.x == TILE - 1 and i + 1 < nx:
            s[ti, TILE + 1] = u[j, i + 1]
        if cuda.threadIdx.y == 0 and j > 0:
            s[0, tj] = u[j - 1, i]
        if cuda.threadIdx.y == TILE - 1 and j + 1 < ny:
            s[TILE + 1, tj] = u[j + 1, i]
    cuda.syncthreads()
    if 0 < j < ny - 1 and 0 < i < nx - 1:
        lap = s[ti - 1, tj] + s[ti + 1, tj] + s[ti, tj - 1] + s[ti, tj + 1] - 4.0 * s[ti, tj]
        u_new[j, i] = s[ti, tj] + alpha * lap


# --- a sum with a grid-stride loop, warp shuffles, a shared array of per-warp sums, one atomic per block
@cuda.jit
def grid_stride_sum(x, total):
    warp_sums = cuda.shared.array(32, float32)
    start, stride = cuda.grid(1), cuda.gridsize(1)
    acc = float32(0.0)
    for i in range(start, x.shape[0], stride):
        acc += x[i]
    offset = 16
    while offset > 0:
        acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, offset)
        offset //= 2
    lane = cuda.laneid
    warp = cuda.threadIdx.x // 32
    if lane == 0:
        warp_sums[warp] = acc
    cuda.syncthreads()
    if warp == 0:
        nwarps = (cuda.blockDim.x + 31) // 32
        v = warp_sums[lane] if lane < nwarps else float32(0.0)
        offset = 16
        while offset > 0:
            v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
            offset //= 2
        if lane == 0:
            cuda.atomic.add(total, 0, v)


# --- stream compaction per warp: ballot, popc, the lane's rank among the kept lanes
@cuda.jit
def warp_compact(x, out, counts, threshold):
    i = cuda.grid(1)
    keep = i < x.shape[0] and x[i] > threshold
    mask = cuda.activemask()
    votes = cuda.ballot_sync(mask, keep)
    lane = cuda.laneid
    rank = cuda.popc(votes & ((1 << lane) - 1))
    warp = i // 32
    if keep:
        out[warp * 32 + rank] = x[i]
    if lane == 0:
        counts[warp] = cuda.popc(votes)


# --- a block-wide vote: how many elements pass, with syncthreads_count / _or / _and
@cuda.jit
def block_votes(x, out, lo, hi):
    i = cuda.grid(1)
    v = x[i] if i < x.shape[0] else float32(0.0)
    inside = lo <= v and v < hi
    n_inside = cuda.syncthreads_count(int32(inside))
    any_neg = cuda.syncthreads_or(int32(v < 0))
    all_small = cuda.syncthreads_and(int32(abs(v) < 10))
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x, 0] = n_inside
        out[cuda.blockIdx.x, 1] = any_neg
        out[cuda.blockIdx.x, 2] = all_small


# --- a 2-D histogram of integer pairs with atomics on a 2-D array (integer atomics, a shared copy per block)
@cuda.jit
def hist2d(xs, ys, hist):
    local = cuda.shared.array((16, 16), int32)
    t = cuda.threadIdx.x
    for k in range(t, 256, cuda.blockDim.x):
        local[k // 16, k % 16] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), xs.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(local, (xs[i], ys[i]), 1)
    cuda.syncthreads()
    for k in range(t, 256, cuda.blockDim.x):
        c = local[k // 16, k % 16]
        if c:
            cuda.atomic.add(hist, (k // 16, k % 16), c)


# --- the largest key of each row by integer atomic max, and flags claimed by compare-and-swap
@cuda.jit
def row_max_claim(keys, row_max, flags):
    r, c = cuda.grid(2)
    if r < keys.shape[0] and c < keys.shape[1]:
        cuda.atomic.max(row_max, r, keys[r, c])
        old = cuda.atomic.cas(flags, r * keys.shape[1] + c, 0, 1)
        keys[r, c] = -1 if old != 0 else keys[r, c]  # a store either way: the same traffic on a second launch


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return max(lo, min(v, hi))


@cuda.jit(device=True, inline=True)
def lerp(a, b, t):
    return a + (b - a) * t


# --- bilinear resize of an image with device helpers and math functions
@cuda.jit
def bilinear_resize(src, dst):
    y, x = cuda.grid(2)
    h, w = src.shape
    oh, ow = dst.shape
    if y < oh and x < ow:
        fy = (y + 0.5) * h / oh - 0.5
        fx = (x + 0.5) * w / ow - 0.5
        y0 = clamp(int(math.floor(fy)), 0, h - 1)
        x0 = clamp(int(math.floor(fx)), 0, w - 1)
        y1 = min(y0 + 1, h - 1)
        x1 = min(x0 + 1, w - 1)
        ty = fy - math.floor(fy)
        tx = fx - math.floor(fx)
        top = lerp(src[y0, x0], src[y0, x1], tx)
        bot = lerp(src[y1, x0], src[y1, x1], tx)
        dst[y, x] = lerp(top, bot, ty)


# --- a 3x3 median filter with a per-thread local array sorted by insertion
@cuda.jit
def median3x3(img, out):
    y, x = cuda.grid(2)
    h, w = img.shape
    if y >= h or x >= w:
        return
    win = cuda.local.array(9, float32)
    n = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            yy = min(max(y + dy, 0), h - 1)
            xx = min(max(x + dx, 0), w - 1)
            v = img[yy, xx]
            k = n
            while k > 0 and win[k - 1] > v:
                win[k] = win[k - 1]
                k -= 1
            win[k] = v
            n += 1
    out[y, x] = win[4]


# --- an inclusive block scan in float64, double-buffered in dynamic shared memory
@cuda.jit
def scan_dyn64(x, out):
    buf = cuda.shared.array(0, dtype=float64)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    i = cuda.grid(1)
    buf[t] = x[i] if i < x.shape[0] else 0.0
    cuda.syncthreads()
    src = 0
    d = 1
    while d < n:
        dst = 1 - src
        v = buf[src * n + t]
        if t >= d:
            v += buf[src * n + t - d]
        buf[dst * n + t] = v
        cuda.syncthreads()
        src = dst
        d *= 2
    if i < x.shape[0]:
        out[i] = buf[src * n + t]


# --- twiddle factors of a radix-2 FFT stage in complex64, the inputs staged in shared memory
@cuda.jit
def fft_twiddle(x, out):
    s = cuda.shared.array(128, complex64)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * 128
    s[t] = x[base + t]
    s[t + 64] = x[base + t + 64]
    cuda.syncthreads()
    w = cmath.exp(complex64(-2j * math.pi * t / 128))
    a = s[t]
    b = s[t + 64] * w
    out[base + t] = a + b
    out[base + t + 64] = a - b


# --- half-precision fused multiply-add with cuda.fp16 intrinsics
@cuda.jit
def half_axpby(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        ax = cuda.fp16.hmul(a[0], x[i])
        out[i] = cuda.fp16.hfma(a[1], y[i], ax)


# --- a 7-point Laplacian over a 3-D volume with a 3-D grid
@cuda.jit
def laplace3d(v, out):
    x, y, z = cuda.grid(3)
    nz, ny, nx = v.shape
    if 0 < x < nx - 1 and 0 < y < ny - 1 and 0 < z < nz - 1:
        out[z, y, x] = (v[z, y, x - 1] + v[z, y, x + 1] + v[z, y - 1, x] + v[z, y + 1, x]
                        + v[z - 1, y, x] + v[z + 1, y, x] - 6.0 * v[z, y, x])


# --- per-segment sums of int64 values (CSR offsets), one warp a segment, lanes striding the segment
@cuda.jit
def segment_sum64(offsets, values, out):
    warp = cuda.grid(1) // 32
    lane = cuda.laneid
    if warp < out.shape[0]:
        acc = int64(0)
        for k in range(offsets[warp] + lane, offsets[warp + 1], 32):
            acc += values[k]
        for off in (16, 8, 4, 2, 1):
            acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, off)
        if lane == 0:
            out[warp] = acc


# --- a softmax over each row of a matrix, a block a row, float32 exp/log with shared reductions
@cuda.jit
def row_softmax(x, out):
    red = cuda.shared.array(128, float32)
    row = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n = x.shape[1]
    m = -math.inf
    for c in range(t, n, cuda.blockDim.x):
        m = max(m, x[row, c])
    red[t] = m
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            red[t] = max(red[t], red[t + s])
        cuda.syncthreads()
        s //= 2
    m = red[0]
    cuda.syncthreads()
    acc = float32(0.0)
    for c in range(t, n, cuda.blockDim.x):
        acc += math.exp(x[row, c] - m)
    red[t] = acc
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            red[t] += red[t + s]
        cuda.syncthreads()
        s //= 2
    inv = 1.0 / red[0]
    for c in range(t, n, cuda.blockDim.x):
        out[row, c] = math.exp(x[row, c] - m) * inv
