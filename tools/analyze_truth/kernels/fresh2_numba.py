"""A second fresh batch of Numba kernels written as people write them (Numba's docs and examples, GPU-Puzzles,
image processing and scientific code), run through `smemlab analyze` as a held-out checker would (written for
smemlab)."""

import math

import numpy as np
from numba import cuda, float32, float64, int32, uint32, int16

TS = 16             # the 2-D stencil's tile (blockDim 16x16)
TSH = TS + 2        # with a halo of one on each side
T32 = 32            # the transposes' tile, blockDim 32x8
T33 = T32 + 1
ROWS = 8
NBINS = 256
SORT_N = 256
NB_TILE = 128
WARPS = 8           # warps of the shuffle reduction's 256-thread block
D3 = 4              # the 3-D shared box: D3 x 8 x 8
D8 = 8
D10 = D8 + 2


# --- a 5-point Jacobi step on a 2-D shared tile with a halo of one, loaded by the edge threads from cuda.grid(2)
@cuda.jit
def jacobi_tile(u, out):
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x + 1
    ty = cuda.threadIdx.y + 1
    ny, nx = u.shape
    tile = cuda.shared.array((TSH, TSH), float32)
    xc = min(x, nx - 1)
    yc = min(y, ny - 1)
    tile[ty, tx] = u[yc, xc]
    if cuda.threadIdx.x == 0:
        tile[ty, 0] = u[yc, max(xc - 1, 0)]
    if cuda.threadIdx.x == TS - 1:
        tile[ty, TS + 1] = u[yc, min(xc + 1, nx - 1)]
    if cuda.threadIdx.y == 0:
        tile[0, tx] = u[max(yc - 1, 0), xc]
    if cuda.threadIdx.y == TS - 1:
        tile[TS + 1, tx] = u[min(yc + 1, ny - 1), xc]
    cuda.syncthreads()
    if x < nx and y < ny:
        out[y, x] = 0.25 * (tile[ty - 1, tx] + tile[ty + 1, tx] + tile[ty, tx - 1] + tile[ty, tx + 1])


# --- a block sum: a butterfly of shfl_xor_sync in each warp, the warps' sums through shared memory
@cuda.jit
def xor_block_sum(x, partial):
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    acc = float32(0.0)
    while i < x.shape[0]:
        acc += x[i]
        i += stride
    for off in (16, 8, 4, 2, 1):
        acc += cuda.shfl_xor_sync(0xFFFFFFFF, acc, off)
    warp_sums = cuda.shared.array(WARPS, float32)
    lane = cuda.laneid
    wid = tid // 32
    if lane == 0:
        warp_sums[wid] = acc
    cuda.syncthreads()
    if wid == 0:
        v = warp_sums[lane] if lane < WARPS else float32(0.0)
        for off in (4, 2, 1):
            v += cuda.shfl_xor_sync(0xFFFFFFFF, v, off)
        if lane == 0:
            partial[cuda.blockIdx.x] = v


# --- the float64 tiled transpose of the CUDA samples, a 32x33 tile (padded) and a 32x32 one (8-byte words)
@cuda.jit
def transpose64_padded(a, b):
    tile = cuda.shared.array((T32, T33), float64)
    bx = cuda.blockIdx.x * T32
    by = cuda.blockIdx.y * T32
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    for j in range(0, T32, ROWS):
        if by + ty + j < a.shape[0] and bx + tx < a.shape[1]:
            tile[ty + j, tx] = a[by + ty + j, bx + tx]
    cuda.syncthreads()
    for j in range(0, T32, ROWS):
        if bx + ty + j < b.shape[0] and by + tx < b.shape[1]:
            b[bx + ty + j, by + tx] = tile[tx, ty + j]


@cuda.jit
def transpose64_plain(a, b):
    tile = cuda.shared.array((T32, T32), float64)
    bx = cuda.blockIdx.x * T32
    by = cuda.blockIdx.y * T32
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    for j in range(0, T32, ROWS):
        if by + ty + j < a.shape[0] and bx + tx < a.shape[1]:
            tile[ty + j, tx] = a[by + ty + j, bx + tx]
    cuda.syncthreads()
    for j in range(0, T32, ROWS):
        if bx + ty + j < b.shape[0] and by + tx < b.shape[1]:
            b[bx + ty + j, by + tx] = tile[tx, ty + j]


# --- a 3-D shared box with a halo in x and y: a 7-point smoother over a (z, y, x) volume, block (8, 8, 4)
@cuda.jit
def smooth3d_shared(v, out):
    x, y, z = cuda.grid(3)
    tx = cuda.threadIdx.x + 1
    ty = cuda.threadIdx.y + 1
    tz = cuda.threadIdx.z
    nz, ny, nx = v.shape
    box = cuda.shared.array((D3, D10, D10), float32)
    inside = x < nx and y < ny and z < nz
    if inside:
        box[tz, ty, tx] = v[z, y, x]
        if cuda.threadIdx.x == 0:
            box[tz, ty, 0] = v[z, y, x - 1] if x > 0 else v[z, y, x]
        if cuda.threadIdx.x == D8 - 1:
            box[tz, ty, D8 + 1] = v[z, y, x + 1] if x + 1 < nx else v[z, y, x]
        if cuda.threadIdx.y == 0:
            box[tz, 0, tx] = v[z, y - 1, x] if y > 0 else v[z, y, x]
        if cuda.threadIdx.y == D8 - 1:
            box[tz, D8 + 1, tx] = v[z, y + 1, x] if y + 1 < ny else v[z, y, x]
    cuda.syncthreads()
    if inside:
        up = box[tz - 1, ty, tx] if tz > 0 else box[tz, ty, tx]
        dn = box[tz + 1, ty, tx] if tz < D3 - 1 else box[tz, ty, tx]
        s = box[tz, ty - 1, tx] + box[tz, ty + 1, tx] + box[tz, ty, tx - 1] + box[tz, ty, tx + 1] + up + dn
        out[z, y, x] = (box[tz, ty, tx] + s) / 7.0


# --- integer atomics of every kind on shared and global words: inc/dec with wrap, exch, and_, or_
@cuda.jit
def int_atomic_mix(keys, wrap_counts, masks, slots, summary):
    i = cuda.grid(1)
    tid = cuda.threadIdx.x
    s_or = cuda.shared.array(1, uint32)
    s_and = cuda.shared.array(1, uint32)
    s_cnt = cuda.shared.array(4, uint32)
    if tid == 0:
        s_or[0] = 0
        s_and[0] = 0xFFFFFFFF
    if tid < 4:
        s_cnt[tid] = 0
    cuda.syncthreads()
    if i < keys.shape[0]:
        k = keys[i]
        cuda.atomic.or_(s_or, 0, uint32(1) << (k & 31))
        cuda.atomic.and_(s_and, 0, ~(uint32(1) << (k & 31)))
        cuda.atomic.inc(s_cnt, k & 3, uint32(0xFFFFFFFF))
        cuda.atomic.inc(wrap_counts, k % wrap_counts.shape[0], uint32(7))
        cuda.atomic.dec(wrap_counts, (k + 1) % wrap_counts.shape[0], uint32(7))
        cuda.atomic.or_(masks, k % masks.shape[0], uint32(1) << (tid & 31))
        cuda.atomic.exch(slots, i % slots.shape[0], k)
    cuda.syncthreads()
    if tid == 0:
        summary[0] = s_or[0]
        summary[1] = s_and[0]
    if tid < 4:
        summary[2 + tid] = s_cnt[tid]


# --- the last block to finish publishes the total (threadfence, then a ticket from atomic.inc)
@cuda.jit
def last_block_total(x, partials, ticket, total):
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf = cuda.shared.array(128, float32)
    is_last = cuda.shared.array(1, int32)
    buf[tid] = x[i] if i < x.shape[0] else float32(0.0)
    cuda.syncthreads()
    s = 64
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        partials[cuda.blockIdx.x] = buf[0]
        cuda.threadfence()
        t = cuda.atomic.inc(ticket, 0, uint32(0xFFFFFFFF))
        is_last[0] = 1 if t == cuda.gridDim.x - 1 else 0
    cuda.syncthreads()
    if is_last[0] == 1 and tid == 0:
        acc = float32(0.0)
        for b in range(cuda.gridDim.x):
            acc += partials[b]
        total[0] = acc


# --- a warp-synchronous inclusive scan in shared memory, cuda.syncwarp between the steps
@cuda.jit
def warp_scan_syncwarp(x, out):
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    lane = tid % 32
    s = cuda.shared.array(128, int32)
    s[tid] = x[i] if i < x.shape[0] else 0
    cuda.syncwarp()
    off = 1
    while off < 32:
        v = s[tid - off] if lane >= off else 0
        cuda.syncwarp()
        s[tid] += v
        cuda.syncwarp()
        off *= 2
    if i < out.shape[0]:
        out[i] = s[tid]


# --- a histogram of 8-bit pixels: shared bins, then one global atomic per non-empty bin
@cuda.jit
def pixel_hist(img, hist):
    bins = cuda.shared.array(NBINS, int32)
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    nthreads = cuda.blockDim.x * cuda.blockDim.y
    for b in range(tid, NBINS, nthreads):
        bins[b] = 0
    cuda.syncthreads()
    x, y = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for r in range(y, img.shape[0], sy):
        for c in range(x, img.shape[1], sx):
            cuda.atomic.add(bins, img[r, c], 1)
    cuda.syncthreads()
    for b in range(tid, NBINS, nthreads):
        if bins[b] != 0:
            cuda.atomic.add(hist, b, bins[b])


# --- a bitonic sort of 256 keys in shared memory, one thread per key
@cuda.jit
def bitonic256(keys, out):
    s = cuda.shared.array(SORT_N, float32)
    tid = cuda.threadIdx.x
    base = cuda.blockIdx.x * SORT_N
    s[tid] = keys[base + tid]
    cuda.syncthreads()
    k = 2
    while k <= SORT_N:
        j = k // 2
        while j > 0:
            partner = tid ^ j
            if partner > tid:
                a = s[tid]
                b = s[partner]
                up = (tid & k) == 0
                if (a > b) == up:
                    s[tid] = b
                    s[partner] = a
            cuda.syncthreads()
            j //= 2
        k *= 2
    out[base + tid] = s[tid]


# --- the N-body tile of GPU Gems 3 with float32 structure-of-arrays positions and masses
@cuda.jit
def nbody_soa(px, py, pz, m, ax, ay, az, eps2):
    i = cuda.grid(1)
    n = px.shape[0]
    sx = cuda.shared.array(NB_TILE, float32)
    sy = cuda.shared.array(NB_TILE, float32)
    sz = cuda.shared.array(NB_TILE, float32)
    sm = cuda.shared.array(NB_TILE, float32)
    xi = px[i] if i < n else float32(0.0)
    yi = py[i] if i < n else float32(0.0)
    zi = pz[i] if i < n else float32(0.0)
    fx = float32(0.0)
    fy = float32(0.0)
    fz = float32(0.0)
    for t in range(0, n, NB_TILE):
        j = t + cuda.threadIdx.x
        sx[cuda.threadIdx.x] = px[j] if j < n else float32(0.0)
        sy[cuda.threadIdx.x] = py[j] if j < n else float32(0.0)
        sz[cuda.threadIdx.x] = pz[j] if j < n else float32(0.0)
        sm[cuda.threadIdx.x] = m[j] if j < n else float32(0.0)
        cuda.syncthreads()
        for k in range(NB_TILE):
            dx = sx[k] - xi
            dy = sy[k] - yi
            dz = sz[k] - zi
            r2 = dx * dx + dy * dy + dz * dz + eps2
            inv = float32(1.0) / math.sqrt(r2)
            w = sm[k] * inv * inv * inv
            fx += w * dx
            fy += w * dy
            fz += w * dz
        cuda.syncthreads()
    if i < n:
        ax[i] = fx
        ay[i] = fy
        az[i] = fz


# --- small integer types: int8 codes through a uint16 table, saturated into int16
@cuda.jit
def lut_int16(codes, table, gain, out):
    i = cuda.grid(1)
    if i < codes.shape[0]:
        c = codes[i]
        v = int32(table[c + 128]) * int32(gain[i % gain.shape[0]]) - 32768
        out[i] = int16(max(-32768, min(32767, v)))


# --- an eager signature with a float32 scalar (a y = a*x + y with a clamp), arrays of any layout
@cuda.jit("void(float32, float32[:], float32[:], float32)")
def saxpy_clamp(a, x, y, limit):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = a * x[i] + y[i]
        y[i] = min(max(v, -limit), limit)


# --- a strided view passed as the argument: every other column of a matrix (layout 'A')
@cuda.jit
def column_pairs(m, out):
    r, c = cuda.grid(2)
    if r < m.shape[0] and c < m.shape[1] // 2:
        out[r, c] = m[r, 2 * c] + m[r, 2 * c + 1]


# --- CSR sparse matrix-vector product, a warp a row: the trip count is the row's length
@cuda.jit
def csr_spmv_warp(indptr, indices, data, x, y):
    row = cuda.grid(1) // 32
    lane = cuda.laneid
    if row < y.shape[0]:
        acc = float32(0.0)
        for p in range(indptr[row] + lane, indptr[row + 1], 32):
            acc += data[p] * x[indices[p]]
        for off in (16, 8, 4, 2, 1):
            acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, off)
        if lane == 0:
            y[row] = acc


# --- a row-wise max-abs normalisation of float64 rows with syncthreads_or to skip all-zero rows
@cuda.jit
def normalize_rows64(a, out):
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    m = cuda.shared.array(64, float64)
    best = float64(0.0)
    for c in range(tid, a.shape[1], 64):
        best = max(best, abs(a[row, c]))
    m[tid] = best
    cuda.syncthreads()
    s = 32
    while s > 0:
        if tid < s:
            m[tid] = max(m[tid], m[tid + s])
        cuda.syncthreads()
        s //= 2
    nonzero = cuda.syncthreads_or(1 if m[0] > 0.0 else 0)
    for c in range(tid, a.shape[1], 64):
        out[row, c] = a[row, c] / m[0] if nonzero else 0.0
