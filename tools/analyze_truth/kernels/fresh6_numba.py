"""A sixth fresh batch of Numba CUDA kernels, HPC and ML Python as people write it with numba-cuda in 2025-2026:
shared-memory code in device functions, padded 2-D and 3-D shared tiles, float16 (cuda.fp16) and int8 data,
constant tables, local scratch, tuple-indexed shared atomics, warp shuffles and votes, 2-D/3-D grids with
grid-stride loops, textbook reductions, a float64 tiled matmul, a uint8 image histogram, an int16 transpose and a
9-point stencil with corner halos; run through `smemlab analyze FILE.py` as a held-out checker would (written for
smemlab)."""

import math

import numpy as np
from numba import cuda, float32, float64, int8, int16, int32, uint32
from numba.types import float16

FULL_MASK = 0xFFFFFFFF
RED_THREADS = 256
TILE = 32
TILE_ROWS = 8
TILE_PAD = 33
MM_TILE = 16
MM_PAD = 17
STENCIL_BX = 16
STENCIL_BY = 16
HIST_COPIES = 4
NBINS = 256
GAUSS7 = np.array([0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125], dtype=np.float32)
CONV_TPB = 128
CONV_PER_THREAD = 4
CONV_R = 3
CONV_SPAN = 512        # CONV_TPB * CONV_PER_THREAD
CONV_SMEM = 518        # CONV_SPAN + 2 * CONV_R
CONV_WIN = 10          # CONV_PER_THREAD + 2 * CONV_R
STENCIL_SY = 18
STENCIL_SX = 18
DIFF_WIN = 130         # CONV_TPB + 2


# ---------------------------------------------------------------------------------------------------------------
# device helpers
# ---------------------------------------------------------------------------------------------------------------
@cuda.jit(device=True)
def warp_reduce_last32(sdata, tid):
    # the unrolled last warp of the textbook reduction, made safe for independent thread scheduling:
    # every step reads, syncs the warp, then writes
    if tid < 32:
        off = 32
        while off > 0:
            v = sdata[tid] + sdata[tid + off]
            cuda.syncwarp(FULL_MASK)
            sdata[tid] = v
            cuda.syncwarp(FULL_MASK)
            off //= 2


@cuda.jit(device=True)
def block_reduce_sum(sdata, tid, val):
    # sequential addressing down to 64 values with syncthreads, then the last warp
    sdata[tid] = val
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 32:
        if tid < s:
            sdata[tid] += sdata[tid + s]
        cuda.syncthreads()
        s //= 2
    warp_reduce_last32(sdata, tid)
    cuda.syncthreads()
    return sdata[0]


@cuda.jit(device=True)
def warp_sum(v):
    for off in (16, 8, 4, 2, 1):
        v += cuda.shfl_down_sync(FULL_MASK, v, off)
    return v


@cuda.jit(device=True)
def warp_allreduce_max(v):
    for off in (16, 8, 4, 2, 1):
        v = max(v, cuda.shfl_xor_sync(FULL_MASK, v, off))
    return v


@cuda.jit(device=True)
def load_tile_f64(tile, mat, row, col):
    ty = cuda.threadIdx.y
    tx = cuda.threadIdx.x
    if row < mat.shape[0] and col < mat.shape[1]:
        tile[ty, tx] = mat[row, col]
    else:
        tile[ty, tx] = 0.0


# ---------------------------------------------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------------------------------------------

# --- sum of a vector, each block a grid-stride partial then the textbook shared reduction (sequential addressing,
#     last 32 unrolled with syncwarp); one partial a block
@cuda.jit
def reduce_sum_textbook(x, partials):
    sdata = cuda.shared.array(RED_THREADS, float32)
    tid = cuda.threadIdx.x
    acc = float32(0.0)
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        acc += x[i]
    total = block_reduce_sum(sdata, tid, acc)
    if tid == 0:
        partials[cuda.blockIdx.x] = total


# --- C = A @ B in float64 with 16x16 shared tiles (padded a column) loaded by a device function, each thread two
#     outputs a tile-height apart (the block covers 32 rows)
@cuda.jit
def matmul_f64_2rows(A, B, C):
    sA0 = cuda.shared.array((MM_TILE, MM_PAD), float64)
    sA1 = cuda.shared.array((MM_TILE, MM_PAD), float64)
    sB = cuda.shared.array((MM_TILE, MM_PAD), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * MM_TILE + tx
    row0 = cuda.blockIdx.y * 2 * MM_TILE + ty
    row1 = row0 + MM_TILE
    acc0 = float64(0.0)
    acc1 = float64(0.0)
    ntiles = (A.shape[1] + MM_TILE - 1) // MM_TILE
    for t in range(ntiles):
        load_tile_f64(sA0, A, row0, t * MM_TILE + tx)
        load_tile_f64(sA1, A, row1, t * MM_TILE + tx)
        load_tile_f64(sB, B, t * MM_TILE + ty, col)
        cuda.syncthreads()
        for k in range(MM_TILE):
            b = sB[k, tx]
            acc0 += sA0[ty, k] * b
            acc1 += sA1[ty, k] * b
        cuda.syncthreads()
    if col < C.shape[1]:
        if row0 < C.shape[0]:
            C[row0, col] = acc0
        if row1 < C.shape[0]:
            C[row1, col] = acc1


# --- 256-bin histogram of a uint8 image: a 2-D grid-stride loop (cuda.grid(2), cuda.gridsize(2)), HIST_COPIES
#     private copies in a 2-D shared array chosen by warp, cuda.atomic.add on (copy, bin) tuples, merged into global
@cuda.jit
def image_hist_u8(img, hist):
    local = cuda.shared.array((HIST_COPIES, NBINS), int32)
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    nthreads = cuda.blockDim.x * cuda.blockDim.y
    for i in range(tid, HIST_COPIES * NBINS, nthreads):
        local[i // NBINS, i % NBINS] = 0
    cuda.syncthreads()
    copy = (tid // 32) % HIST_COPIES
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    h, w = img.shape
    for y in range(y0, h, sy):
        for x in range(x0, w, sx):
            cuda.atomic.add(local, (copy, img[y, x]), 1)
    cuda.syncthreads()
    for b in range(tid, NBINS, nthreads):
        s = local[0, b] + local[1, b] + local[2, b] + local[3, b]
        if s:
            cuda.atomic.add(hist, b, s)


# --- transpose of a non-square int16 matrix through a 32x33 shared tile, 32x8 threads each moving 4 rows
@cuda.jit
def transpose_i16(src, dst):
    tile = cuda.shared.array((TILE, TILE_PAD), int16)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = src.shape
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for j in range(0, TILE, TILE_ROWS):
        if x < cols and y + j < rows:
            tile[ty + j, tx] = src[y + j, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for j in range(0, TILE, TILE_ROWS):
        if x < rows and y + j < cols:
            dst[y + j, x] = tile[tx, ty + j]


@cuda.jit(device=True)
def clamp_read(a, y, x):
    h, w = a.shape
    return a[min(max(y, 0), h - 1), min(max(x, 0), w - 1)]


@cuda.jit(device=True)
def fill_halo_tile(tile, a, gy, gx, ty, tx):
    # centre, edges and the four corners of a (BY+2, BX+2) tile, replicate-padded at the domain border
    tile[ty + 1, tx + 1] = clamp_read(a, gy, gx)
    if ty == 0:
        tile[0, tx + 1] = clamp_read(a, gy - 1, gx)
    if ty == STENCIL_BY - 1:
        tile[STENCIL_BY + 1, tx + 1] = clamp_read(a, gy + 1, gx)
    if tx == 0:
        tile[ty + 1, 0] = clamp_read(a, gy, gx - 1)
    if tx == STENCIL_BX - 1:
        tile[ty + 1, STENCIL_BX + 1] = clamp_read(a, gy, gx + 1)
    if tx == 0 and ty == 0:
        tile[0, 0] = clamp_read(a, gy - 1, gx - 1)
    if tx == STENCIL_BX - 1 and ty == 0:
        tile[0, STENCIL_BX + 1] = clamp_read(a, gy - 1, gx + 1)
    if tx == 0 and ty == STENCIL_BY - 1:
        tile[STENCIL_BY + 1, 0] = clamp_read(a, gy + 1, gx - 1)
    if tx == STENCIL_BX - 1 and ty == STENCIL_BY - 1:
        tile[STENCIL_BY + 1, STENCIL_BX + 1] = clamp_read(a, gy + 1, gx + 1)


# --- 9-point (3x3 box-weighted) smoothing of a 2-D field, halo loads at edges and corners into a shared tile
@cuda.jit
def smooth9_halo(a, out):
    tile = cuda.shared.array((STENCIL_SY, STENCIL_SX), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    gx = cuda.blockIdx.x * STENCIL_BX + tx
    gy = cuda.blockIdx.y * STENCIL_BY + ty
    fill_halo_tile(tile, a, gy, gx, ty, tx)
    cuda.syncthreads()
    if gy < out.shape[0] and gx < out.shape[1]:
        c = tile[ty + 1, tx + 1]
        edges = tile[ty, tx + 1] + tile[ty + 2, tx + 1] + tile[ty + 1, tx] + tile[ty + 1, tx + 2]
        corners = tile[ty, tx] + tile[ty, tx + 2] + tile[ty + 2, tx] + tile[ty + 2, tx + 2]
        out[gy, gx] = float32(0.25) * c + float32(0.125) * edges + float32(0.0625) * corners


# --- half-precision 1-D smoothing y = x + alpha * (x[i-1] - 2 x[i] + x[i+1]) with cuda.fp16 intrinsics, the
#     block's window (and a halo of one each side) staged in a float16 shared array
@cuda.jit
def diffuse_fp16(x, y, alpha):
    win = cuda.shared.array(DIFF_WIN, float16)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = x.shape[0]
    zero = float16(0.0)
    win[t + 1] = x[i] if i < n else zero
    if t == 0:
        win[0] = x[i - 1] if 0 < i <= n else zero
    if t == cuda.blockDim.x - 1:
        win[t + 2] = x[i + 1] if i + 1 < n else zero
    cuda.syncthreads()
    if i < n:
        c = win[t + 1]
        lap = cuda.fp16.hsub(cuda.fp16.hadd(win[t], win[t + 2]), cuda.fp16.hadd(c, c))
        y[i] = cuda.fp16.hfma(alpha[0], lap, c)


# --- int8 GEMV y = W x (a quantised linear layer, int32 accumulate, per-row float scales): x staged in an int8
#     shared array, a warp a row, a shfl_down_sync reduction
@cuda.jit
def int8_gemv_warp(W, x, scales, y):
    xs = cuda.shared.array(512, int8)
    t = cuda.threadIdx.x
    k = W.shape[1]
    for j in range(t, k, cuda.blockDim.x):
        xs[j] = x[j]
    cuda.syncthreads()
    lane = cuda.laneid
    row = cuda.blockIdx.x * (cuda.blockDim.x // 32) + t // 32
    if row >= W.shape[0]:
        return
    acc = int32(0)
    for j in range(lane, k, 32):
        acc += int32(W[row, j]) * int32(xs[j])
    acc = warp_sum(acc)
    if lane == 0:
        y[row] = float32(acc) * scales[row]


# --- 7-tap Gaussian filter of a signal: taps in constant memory (cuda.const.array_like), the block's input and
#     halo in shared memory, each thread CONV_PER_THREAD outputs from a sliding window in cuda.local.array
@cuda.jit
def gauss7_const_local(x, y):
    taps = cuda.const.array_like(GAUSS7)
    span = CONV_SPAN
    sx = cuda.shared.array(CONV_SMEM, float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * span
    n = x.shape[0]
    for j in range(t, span + 2 * CONV_R, CONV_TPB):
        g = base + j - CONV_R
        sx[j] = x[g] if 0 <= g < n else float32(0.0)
    cuda.syncthreads()
    window = cuda.local.array(CONV_WIN, float32)
    first = t * CONV_PER_THREAD
    for j in range(CONV_WIN):
        window[j] = sx[first + j]
    for o in range(CONV_PER_THREAD):
        acc = float32(0.0)
        for k in range(2 * CONV_R + 1):
            acc += taps[k] * window[o + k]
        g = base + first + o
        if g < n:
            y[g] = acc


# --- per-warp outlier statistics by vote: ballot_sync of |x| > threshold, popc counts and the first outlier lane
#     (ffs); tail warps vote with cuda.activemask(); the block's busiest warp by cuda.atomic.max in shared
@cuda.jit
def outlier_votes(x, thresh, warp_counts, first_lane, block_max):
    i = cuda.grid(1)
    lane = cuda.laneid
    warp = i // 32
    busiest = cuda.shared.array(1, int32)
    if cuda.threadIdx.x == 0:
        busiest[0] = 0
    cuda.syncthreads()
    if i < x.shape[0]:
        active = cuda.activemask()
        votes = cuda.ballot_sync(active, abs(x[i]) > thresh)
        cnt = cuda.popc(votes)
        if lane == 0:
            warp_counts[warp] = cnt
            first_lane[warp] = cuda.ffs(votes) - 1
            cuda.atomic.max(busiest, 0, cnt)
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        block_max[cuda.blockIdx.x] = busiest[0]


# --- softmax of 64-wide rows, a warp a row and two values a lane, max and sum by shfl_xor_sync butterflies
@cuda.jit
def warp_softmax64(x, y):
    row = cuda.grid(1) // 32
    lane = cuda.laneid
    if row >= x.shape[0]:
        return
    a = x[row, lane]
    b = x[row, lane + 32]
    m = warp_allreduce_max(max(a, b))
    ea = math.exp(a - m)
    eb = math.exp(b - m)
    s = ea + eb
    for off in (16, 8, 4, 2, 1):
        s += cuda.shfl_xor_sync(FULL_MASK, s, off)
    inv = float32(1.0) / s
    y[row, lane] = ea * inv
    y[row, lane + 32] = eb * inv


# --- 7-point smoothing of a 3-D field over a 3-D grid (cuda.grid(3)), an (z, y, x) shared tile with a one-cell
#     halo on each face and the x extent padded; face halos loaded by the threads on the tile's faces
@cuda.jit
def smooth7_3d(u, out):
    tile = cuda.shared.array((6, 10, 11), float32)
    x, y, z = cuda.grid(3)
    tx = cuda.threadIdx.x + 1
    ty = cuda.threadIdx.y + 1
    tz = cuda.threadIdx.z + 1
    nz, ny, nx = u.shape
    inside = x < nx and y < ny and z < nz
    if inside:
        tile[tz, ty, tx] = u[z, y, x]
        if tx == 1:
            tile[tz, ty, 0] = u[z, y, x - 1] if x > 0 else u[z, y, x]
        if tx == cuda.blockDim.x or x == nx - 1:
            tile[tz, ty, tx + 1] = u[z, y, x + 1] if x + 1 < nx else u[z, y, x]
        if ty == 1:
            tile[tz, 0, tx] = u[z, y - 1, x] if y > 0 else u[z, y, x]
        if ty == cuda.blockDim.y or y == ny - 1:
            tile[tz, ty + 1, tx] = u[z, y + 1, x] if y + 1 < ny else u[z, y, x]
        if tz == 1:
            tile[0, ty, tx] = u[z - 1, y, x] if z > 0 else u[z, y, x]
        if tz == cuda.blockDim.z or z == nz - 1:
            tile[tz + 1, ty, tx] = u[z + 1, y, x] if z + 1 < nz else u[z, y, x]
    cuda.syncthreads()
    if inside:
        nb = (tile[tz, ty, tx - 1] + tile[tz, ty, tx + 1] + tile[tz, ty - 1, tx] + tile[tz, ty + 1, tx]
              + tile[tz - 1, ty, tx] + tile[tz + 1, ty, tx])
        out[z, y, x] = float32(0.4) * tile[tz, ty, tx] + float32(0.1) * nb


# --- per-column maxima of quantised activations by row group: cuda.atomic.max on a (groups, 32) shared int32
#     array indexed by (group, column) tuples, then one global atomic max per entry
@cuda.jit
def group_col_absmax(q, group_rows, out):
    cmax = cuda.shared.array((4, 32), int32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    if ty < 4:
        cmax[ty, tx] = 0
    cuda.syncthreads()
    col = cuda.blockIdx.x * 32 + tx
    rows, cols = q.shape
    if col < cols:
        for r in range(cuda.blockIdx.y * cuda.blockDim.y + ty, rows, cuda.gridDim.y * cuda.blockDim.y):
            g = (r // group_rows) % 4
            cuda.atomic.max(cmax, (g, tx), abs(int32(q[r, col])))
    cuda.syncthreads()
    if ty < 4 and col < cols:
        cuda.atomic.max(out, (ty, col), cmax[ty, tx])


# --- y = a * x + b over a 2-D array by a 2-D grid-stride loop (cuda.grid(2), cuda.gridsize(2)), a per-column
#     gain and a per-row bias (a BatchNorm-style affine in inference)
@cuda.jit
def affine_2d_gridstride(a, gain, bias, out):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    rows, cols = a.shape
    for r in range(y0, rows, sy):
        b = bias[r]
        for c in range(x0, cols, sx):
            out[r, c] = a[r, c] * gain[c] + b


# --- inclusive block scan of int32 counts: shfl_up_sync warp scans, the warp totals scanned by warp 0 through
#     shared memory, added back (a stream-compaction offset pass)
@cuda.jit
def block_scan_shfl(counts, offsets, block_totals):
    warp_sums = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    lane = cuda.laneid
    wid = t // 32
    v = counts[i] if i < counts.shape[0] else int32(0)
    for d in (1, 2, 4, 8, 16):
        up = cuda.shfl_up_sync(FULL_MASK, v, d)
        if lane >= d:
            v += up
    if lane == 31:
        warp_sums[wid] = v
    cuda.syncthreads()
    nwarps = cuda.blockDim.x // 32
    if wid == 0:
        s = warp_sums[lane] if lane < nwarps else int32(0)
        for d in (1, 2, 4, 8, 16):
            up = cuda.shfl_up_sync(FULL_MASK, s, d)
            if lane >= d:
                s += up
        if lane < nwarps:
            warp_sums[lane] = s
    cuda.syncthreads()
    if wid > 0:
        v += warp_sums[wid - 1]
    if i < counts.shape[0]:
        offsets[i] = v
    if t == cuda.blockDim.x - 1:
        block_totals[cuda.blockIdx.x] = v


# --- LayerNorm forward, a block a row: mean and variance by the shared block reduction device function,
#     float32 gamma/beta, the row's mean and rstd saved for backward
@cuda.jit
def layernorm_fwd_block(x, gamma, beta, y, mean_out, rstd_out, eps):
    sdata = cuda.shared.array(RED_THREADS, float32)
    row = cuda.blockIdx.x
    tid = cuda.threadIdx.x
    n = x.shape[1]
    s = float32(0.0)
    for c in range(tid, n, cuda.blockDim.x):
        s += x[row, c]
    mean = block_reduce_sum(sdata, tid, s) / n
    cuda.syncthreads()
    v = float32(0.0)
    for c in range(tid, n, cuda.blockDim.x):
        d = x[row, c] - mean
        v += d * d
    var = block_reduce_sum(sdata, tid, v) / n
    rstd = float32(1.0) / math.sqrt(var + eps)
    for c in range(tid, n, cuda.blockDim.x):
        y[row, c] = (x[row, c] - mean) * rstd * gamma[c] + beta[c]
    if tid == 0:
        mean_out[row] = mean
        rstd_out[row] = rstd


# --- boolean mask packed into 32-bit words (an attention / validity bitmask), one ballot a warp; a tail warp's
#     missing lanes vote false
@cuda.jit
def pack_mask_bits(x, threshold, words):
    i = cuda.grid(1)
    keep = i < x.shape[0] and x[i] >= threshold
    bits = cuda.ballot_sync(FULL_MASK, keep)
    if cuda.laneid == 0 and i // 32 < words.shape[0]:
        words[i // 32] = uint32(bits)
