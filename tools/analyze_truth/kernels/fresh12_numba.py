"""A twelfth fresh batch of Numba CUDA kernels: what a checker who never saw smemlab reaches for first. The GPU-Puzzles
set as its solutions are usually written (map, zip, guard, map 2-D, broadcast, blocks, blocks 2-D, shared, pooling,
dot product, 1-D convolution, block sums, axis sums, a tiled matmul with ragged guards); the numba documentation's
fast_matmul in float32 and float64; ports of "CUDA by Example" (the dot product with cache[threadIdx.x] and a
halving loop, the ripple image into RGBA bytes, a ray tracer over spheres in constant memory, the shared-atomics
histogram); a grid-stride SAXPY on strided data; a 2-D kernel written for a transposed view, its index helpers
inline device functions; shared arrays of uint8, int16 and complex64; cuda.selp, cuda.fma, cuda.cbrt and
cuda.threadfence_block; a bounded hash-slot claim by cuda.atomic.cas on shared memory; a first-writer flag by
cuda.atomic.compare_and_swap on global memory; and a float64 cuda.local.array window sized by a constant (written for
smemlab, by someone who had not seen it)."""

import math

import numpy as np
from numba import complex64, cuda, float32, float64, int16, int32, uint8, uint32

# puzzles
SH_TPB = 64       # shared
POOL_TPB = 128    # pooling (a window of three: two halo cells)
POOL_SEG = POOL_TPB + 2
DOT_TPB = 256     # dot product (one block)
CONV_TPB = 128    # 1-D convolution
CONV_MAX = 8      # the longest kernel the tile has room for
CONV_SEG = CONV_TPB + CONV_MAX
SUM_TPB = 256     # block sums
AXIS_TPB = 128    # axis sums
MM_TPB = 16       # puzzle matmul

# numba docs
FM_TPB = 16

# CUDA by Example
CBE_TPB = 256
HIST_BINS = 256

# ray tracer: 16 spheres as (r, g, b, radius, x, y, z), fixed by a seeded generator
_rng = np.random.default_rng(1207)
N_SPHERES = 16
SPHERES = np.zeros((N_SPHERES, 7), dtype=np.float32)
SPHERES[:, 0:3] = _rng.uniform(0.0, 1.0, (N_SPHERES, 3))
SPHERES[:, 3] = _rng.uniform(8.0, 24.0, N_SPHERES)
SPHERES[:, 4] = _rng.uniform(-50.0, 50.0, N_SPHERES)
SPHERES[:, 5] = _rng.uniform(-40.0, 40.0, N_SPHERES)
SPHERES[:, 6] = _rng.uniform(-60.0, 60.0, N_SPHERES)
INF = 2e10

# small-type shared tiles
ST_W = 32
ST_H = 8
ST_TW = ST_W + 2  # with the one-pixel halo
ST_TH = ST_H + 2

# complex rotation
CX_TPB = 128

# shared claims
TBL = 512
PROBES = 4

# local float64 window
WIN = 7
HALF = WIN // 2


# ==== GPU puzzles =====================================================================================================

# --- puzzle 1, map: one thread a cell, exactly as many threads as cells
@cuda.jit
def pz_map(out, a):
    local_i = cuda.threadIdx.x
    out[local_i] = a[local_i] + 10


# --- puzzle 2, zip
@cuda.jit
def pz_zip(out, a, b):
    local_i = cuda.threadIdx.x
    out[local_i] = a[local_i] + b[local_i]


# --- puzzle 3, guard: more threads than cells
@cuda.jit
def pz_guard(out, a, size):
    local_i = cuda.threadIdx.x
    if local_i < size:
        out[local_i] = a[local_i] + 10


# --- puzzle 4, map 2-D: threadIdx.x picks the row, as the puzzle's solutions write it
@cuda.jit
def pz_map2d(out, a, size):
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    if local_i < size and local_j < size:
        out[local_i, local_j] = a[local_i, local_j] + 10


# --- puzzle 5, broadcast: a column vector plus a row vector
@cuda.jit
def pz_broadcast(out, a, b, size):
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    if local_i < size and local_j < size:
        out[local_i, local_j] = a[local_i, 0] + b[0, local_j]


# --- puzzle 6, blocks: fewer threads a block than cells
@cuda.jit
def pz_blocks(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i] + 10


# --- puzzle 7, blocks 2-D
@cuda.jit
def pz_blocks2d(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if i < size and j < size:
        out[i, j] = a[i, j] + 10


# --- puzzle 8, shared: staged through a shared array, one read back a thread
@cuda.jit
def pz_shared(out, a, size):
    shared = cuda.shared.array(SH_TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        shared[local_i] = a[i]
    cuda.syncthreads()
    if i < size:
        out[i] = shared[local_i] + 10


# --- puzzle 9, pooling: out[i] = a[i - 2] + a[i - 1] + a[i] over a shared window with a two-cell halo on the left
@cuda.jit
def pz_pooling(out, a, size):
    cache = cuda.shared.array(POOL_SEG, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        cache[local_i + 2] = a[i]
    else:
        cache[local_i + 2] = 0.0
    if local_i < 2:
        j = i - 2
        cache[local_i] = a[j] if j >= 0 else float32(0.0)
    cuda.syncthreads()
    if i < size:
        out[i] = cache[local_i] + cache[local_i + 1] + cache[local_i + 2]


# --- puzzle 10, dot product: products into a shared cache, thread 0 adds them up
@cuda.jit
def pz_dot(out, a, b, size):
    cache = cuda.shared.array(DOT_TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        cache[local_i] = a[i] * b[i]
    else:
        cache[local_i] = 0.0
    cuda.syncthreads()
    if local_i == 0:
        total = float32(0.0)
        for k in range(DOT_TPB):
            total += cache[k]
        out[0] = total


# --- puzzle 11, 1-D convolution: a tile of a with a right halo of b_size - 1 cells, b in its own shared array
@cuda.jit
def pz_conv1d(out, a, b, a_size, b_size):
    sa = cuda.shared.array(CONV_SEG, float32)
    sb = cuda.shared.array(CONV_MAX, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < a_size:
        sa[local_i] = a[i]
    else:
        sa[local_i] = 0.0
    if local_i < b_size:
        sb[local_i] = b[local_i]
    if local_i < b_size - 1:
        h = i + CONV_TPB
        sa[local_i + CONV_TPB] = a[h] if h < a_size else float32(0.0)
    cuda.syncthreads()
    if i < a_size:
        acc = float32(0.0)
        for j in range(b_size):
            if i + j < a_size:
                acc += sa[local_i + j] * sb[j]
        out[i] = acc


# --- puzzle 12, the block sums ("prefix sum"): the interleaved tree with local_i % (2 * stride)
@cuda.jit
def pz_block_sum(out, a, size):
    cache = cuda.shared.array(SUM_TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    cache[local_i] = a[i] if i < size else float32(0.0)
    cuda.syncthreads()
    stride = 1
    while stride < SUM_TPB:
        if local_i % (2 * stride) == 0:
            cache[local_i] += cache[local_i + stride]
        cuda.syncthreads()
        stride *= 2
    if local_i == 0:
        out[cuda.blockIdx.x] = cache[0]


# --- puzzle 13, axis sum: one block a row (blockIdx.y), the row reduced by halving strides
@cuda.jit
def pz_axis_sum(out, a, size):
    cache = cuda.shared.array(AXIS_TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    batch = cuda.blockIdx.y
    cache[local_i] = a[batch, i] if i < size else float32(0.0)
    cuda.syncthreads()
    s = AXIS_TPB // 2
    while s > 0:
        if local_i < s:
            cache[local_i] += cache[local_i + s]
        cuda.syncthreads()
        s //= 2
    if local_i == 0:
        out[batch, 0] = cache[0]


# --- puzzle 14, matmul: TPB x TPB shared tiles, i from threadIdx.x (rows), ragged sizes guarded
@cuda.jit
def pz_matmul(out, a, b, size):
    a_sh = cuda.shared.array((MM_TPB, MM_TPB), float32)
    b_sh = cuda.shared.array((MM_TPB, MM_TPB), float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    acc = float32(0.0)
    for k in range(0, size, MM_TPB):
        if i < size and k + local_j < size:
            a_sh[local_i, local_j] = a[i, k + local_j]
        else:
            a_sh[local_i, local_j] = 0.0
        if j < size and k + local_i < size:
            b_sh[local_i, local_j] = b[k + local_i, j]
        else:
            b_sh[local_i, local_j] = 0.0
        cuda.syncthreads()
        for kk in range(MM_TPB):
            acc += a_sh[local_i, kk] * b_sh[kk, local_j]
        cuda.syncthreads()
    if i < size and j < size:
        out[i, j] = acc


# ==== numba docs: fast_matmul ==========================================================================================

# --- the documentation's shared-memory matmul, float32 tiles; the K loop counts the tiles of A's columns
@cuda.jit
def fast_matmul_f32(A, B, C):
    sA = cuda.shared.array(shape=(FM_TPB, FM_TPB), dtype=float32)
    sB = cuda.shared.array(shape=(FM_TPB, FM_TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tiles = (A.shape[1] + FM_TPB - 1) // FM_TPB
    tmp = float32(0.0)
    for i in range(tiles):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * FM_TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * FM_TPB]
        if x < B.shape[1] and (ty + i * FM_TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * FM_TPB, x]
        cuda.syncthreads()
        for j in range(FM_TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


# --- the same in float64
@cuda.jit
def fast_matmul_f64(A, B, C):
    sA = cuda.shared.array(shape=(FM_TPB, FM_TPB), dtype=float64)
    sB = cuda.shared.array(shape=(FM_TPB, FM_TPB), dtype=float64)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tiles = (A.shape[1] + FM_TPB - 1) // FM_TPB
    tmp = float64(0.0)
    for i in range(tiles):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * FM_TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * FM_TPB]
        if x < B.shape[1] and (ty + i * FM_TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * FM_TPB, x]
        cuda.syncthreads()
        for j in range(FM_TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


# ==== CUDA by Example ports ============================================================================================

# --- chapter 5's dot product: a grid-stride partial sum a thread, cache[threadIdx.x], a halving loop, one partial a
#     block
@cuda.jit
def cbe_dot(a, b, partial, n):
    cache = cuda.shared.array(CBE_TPB, float32)
    tid = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    cache_index = cuda.threadIdx.x
    temp = float32(0.0)
    while tid < n:
        temp += a[tid] * b[tid]
        tid += cuda.blockDim.x * cuda.gridDim.x
    cache[cache_index] = temp
    cuda.syncthreads()
    i = cuda.blockDim.x // 2
    while i != 0:
        if cache_index < i:
            cache[cache_index] += cache[cache_index + i]
        cuda.syncthreads()
        i //= 2
    if cache_index == 0:
        partial[cuda.blockIdx.x] = cache[0]


# --- chapter 5's ripple: a grey level from the distance to the centre, written as RGBA bytes into a flat buffer
@cuda.jit
def cbe_ripple(ptr, dim, ticks):
    x = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    y = cuda.threadIdx.y + cuda.blockIdx.y * cuda.blockDim.y
    if x >= dim or y >= dim:
        return
    offset = x + y * dim
    fx = float32(x - dim / 2)
    fy = float32(y - dim / 2)
    d = math.sqrt(fx * fx + fy * fy)
    grey = uint8(128.0 + 127.0 * math.cos(d / 10.0 - ticks / 7.0) / (d / 10.0 + 1.0))
    ptr[offset * 4 + 0] = grey
    ptr[offset * 4 + 1] = grey
    ptr[offset * 4 + 2] = grey
    ptr[offset * 4 + 3] = 255


@cuda.jit(device=True)
def sphere_hit(s, k, ox, oy):
    dx = ox - s[k, 4]
    dy = oy - s[k, 5]
    r = s[k, 3]
    if dx * dx + dy * dy < r * r:
        dz = math.sqrt(r * r - dx * dx - dy * dy)
        return dz + s[k, 6], dz / r
    return -INF, float32(0.0)


# --- chapter 6's ray tracer: the spheres in constant memory, the nearest hit's shaded colour an RGBA pixel
@cuda.jit
def cbe_raytrace(img):
    spheres = cuda.const.array_like(SPHERES)
    x, y = cuda.grid(2)
    h = img.shape[0]
    w = img.shape[1]
    if x >= w or y >= h:
        return
    ox = float32(x - w / 2)
    oy = float32(y - h / 2)
    r = float32(0.0)
    g = float32(0.0)
    b = float32(0.0)
    maxz = -INF
    for k in range(N_SPHERES):
        t, n = sphere_hit(spheres, k, ox, oy)
        if t > maxz:
            r = spheres[k, 0] * n
            g = spheres[k, 1] * n
            b = spheres[k, 2] * n
            maxz = t
    img[y, x, 0] = uint8(r * 255)
    img[y, x, 1] = uint8(g * 255)
    img[y, x, 2] = uint8(b * 255)
    img[y, x, 3] = 255


# --- chapter 9's histogram: per-block counts in shared memory by atomics, merged into the global histogram
@cuda.jit
def cbe_histo_shared(buf, size, histo):
    temp = cuda.shared.array(HIST_BINS, uint32)
    temp[cuda.threadIdx.x] = 0
    cuda.syncthreads()
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    offset = cuda.blockDim.x * cuda.gridDim.x
    while i < size:
        cuda.atomic.add(temp, buf[i], 1)
        i += offset
    cuda.syncthreads()
    cuda.atomic.add(histo, cuda.threadIdx.x, temp[cuda.threadIdx.x])


# ==== idioms ===========================================================================================================

# --- SAXPY over strided vectors (what x[::incx] would be), a grid-stride loop, the update by cuda.fma
@cuda.jit
def saxpy_strided(alpha, x, incx, y, incy, n):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, n, step):
        y[i * incy] = cuda.fma(alpha, x[i * incx], y[i * incy])


@cuda.jit(device=True, inline=True)
def at_t(buf, ld, r, c):
    # element (r, c) of the transpose of a row-major matrix with row length ld
    return buf[c * ld + r]


@cuda.jit(device=True, inline=True)
def smoothstep(e0, e1, v):
    t = min(max((v - e0) / (e1 - e0), float32(0.0)), float32(1.0))
    return t * t * (float32(3.0) - float32(2.0) * t)


# --- a 2-D cuda.grid(2) map written against arr.T: out[r, c] = smoothstep(src.T[r, c]), the transposed element
#     fetched by an inline helper from the row-major source (row length ld)
@cuda.jit
def transposed_view_map(src, ld, out, lo, hi):
    c, r = cuda.grid(2)
    rows, cols = out.shape
    if r < rows and c < cols:
        out[r, c] = smoothstep(lo, hi, at_t(src, ld, r, c))


# --- a 3x3 sharpen of a uint8 image: the tile plus a one-pixel halo in a uint8 shared array, the int16 taps in an
#     int16 shared array, the result clamped into int16
@cuda.jit
def sharpen_u8_i16(img, taps, out):
    tile = cuda.shared.array((ST_TH, ST_TW), uint8)
    k = cuda.shared.array(9, int16)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    h, w = img.shape
    x0 = cuda.blockIdx.x * ST_W - 1
    y0 = cuda.blockIdx.y * ST_H - 1
    t = ty * ST_W + tx
    if t < 9:
        k[t] = taps[t]
    for idx in range(t, ST_TH * ST_TW, ST_W * ST_H):
        yy = idx // ST_TW
        xx = idx % ST_TW
        gy = min(max(y0 + yy, 0), h - 1)
        gx = min(max(x0 + xx, 0), w - 1)
        tile[yy, xx] = img[gy, gx]
    cuda.syncthreads()
    x = x0 + 1 + tx
    y = y0 + 1 + ty
    if x < w and y < h:
        acc = int32(0)
        for dy in range(3):
            for dx in range(3):
                acc += int32(tile[ty + dy, tx + dx]) * int32(k[dy * 3 + dx])
        acc = min(max(acc, -32768), 32767)
        out[y, x] = int16(acc)


# --- rotate complex64 samples by a per-sample phase and reverse them within a block, through a complex64 shared array
@cuda.jit
def rotate_reverse_c64(x, phase, y, n):
    buf = cuda.shared.array(CX_TPB, complex64)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * CX_TPB + t
    if i < n:
        p = phase[i]
        buf[t] = x[i] * complex64(complex(math.cos(p), math.sin(p)))
    else:
        buf[t] = complex64(0j)
    cuda.syncthreads()
    j = cuda.blockIdx.x * CX_TPB + (CX_TPB - 1 - t)
    if j < n:
        y[j] = buf[t]


# --- soft threshold and cube-root compression: cuda.selp picks, cuda.fma blends with the neighbour lane's value read
#     back from shared memory after a threadfence_block and a syncwarp (a pair exchange inside the warp)
@cuda.jit
def cbrt_pair_blend(x, out, thresh, n):
    sh = cuda.shared.array(CBE_TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = x[i] if i < n else float32(0.0)
    mag = abs(v) - float32(thresh)
    keep = mag > 0
    s = cuda.selp(v < 0, float32(-1.0), float32(1.0))
    v = cuda.selp(keep, s * mag, float32(0.0))
    sh[t] = cuda.cbrt(v)
    cuda.threadfence_block()
    cuda.syncwarp()
    other = sh[t ^ 1]
    if i < n:
        out[i] = cuda.fma(float32(0.75), sh[t], float32(0.25) * other)


# --- dedupe keys into an open-addressing table in shared memory: a bounded probe loop whose claims are made by
#     cuda.atomic.cas (the slot taken if empty, or found holding the same key); the table and each key's slot go out
@cuda.jit
def dedupe_claim_shared(keys, slot_of, table_out, n):
    table = cuda.shared.array(TBL, int32)
    t = cuda.threadIdx.x
    for s in range(t, TBL, cuda.blockDim.x):
        table[s] = -1
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < n:
        key = keys[i]
        slot = (key * 7) & (TBL - 1)
        found = -1
        for _ in range(PROBES):
            old = cuda.atomic.cas(table, slot, int32(-1), key)
            if old == -1 or old == key:
                found = slot
                break
            slot = (slot + 1) & (TBL - 1)
        slot_of[i] = found
    cuda.syncthreads()
    for s in range(t, TBL, cuda.blockDim.x):
        table_out[cuda.blockIdx.x, s] = table[s]


# --- mark the first element over a threshold in each block: a one-word flag a block on global memory, set once by
#     cuda.atomic.compare_and_swap (each thread tries at most once), the winner's value copied out
@cuda.jit
def first_over_flag(x, thresh, flags, winner_val, n):
    i = cuda.grid(1)
    b = cuda.blockIdx.x
    if i < n and x[i] > thresh:
        old = cuda.atomic.compare_and_swap(flags[b:b + 1], 0, int32(i + 1))
        if old == 0:
            winner_val[b] = x[i]


# --- a running median of seven: each thread copies its window into a float64 local array (edges clamped), sorts it by
#     insertion and keeps the middle
@cuda.jit
def median7_local_f64(x, out, n):
    i = cuda.grid(1)
    if i >= n:
        return
    w = cuda.local.array(WIN, float64)
    for k in range(WIN):
        j = min(max(i + k - HALF, 0), n - 1)
        w[k] = x[j]
    for a in range(1, WIN):
        v = w[a]
        b = a - 1
        while b >= 0 and w[b] > v:
            w[b + 1] = w[b]
            b -= 1
        w[b + 1] = v
    out[i] = w[HALF]
