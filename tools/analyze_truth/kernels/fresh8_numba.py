"""An eighth fresh batch of Numba CUDA kernels, the classics people port to numba-cuda from GPU-Puzzles, "CUDA by
Example" and their own scientific code: an explicit heat-equation step over a shared tile with a one-cell halo, an
n-body acceleration tile (positions as three arrays, staged in shared memory), Mandelbrot escape times with an
escape-count histogram, a uint8 histogram with one sub-histogram per warp, a transpose of a strided view taken inside
the kernel (every other row), a bitonic key/value sort, a Blelloch scan with the bank-conflict-avoiding offsets of
GPU Gems 3, a CSR mat-vec a warp a row reduced by shfl_down_sync, a reduction of a 3-D array along its middle axis,
a float16 stencil on cuda.fp16 intrinsics, float32 and int64 atomic max/min, atomic inc/exch on a shared ring,
syncthreads_count/or with activemask/lanemask_lt stream compaction and an RGB uint8 box filter (written for smemlab,
by someone who had not seen it)."""

import math

import numpy as np
from numba import cuda, float32, int32, int64, uint8, uint32
from numba.types import float16

FULL = 0xFFFFFFFF

HEAT_T = 16
HEAT_S = HEAT_T + 2
NB_TPB = 128
MB_MAXIT = 64
MB_BINS = MB_MAXIT + 1
HW_WARPS = 8
HW_BINS = 256
TR_T = 32
TR_PAD = TR_T + 1
BS_N = 256
LOG_BANKS = 5
SC_N = 512
SC_SMEM = SC_N + (SC_N >> LOG_BANKS)
SP_XMAX = 256
AX_BX = 32
AX_BY = 8
ST_TPB = 128
ST_R = 2
ST_SMEM = ST_TPB + 2 * ST_R
RING = 64
VC_TPB = 256
VC_WARPS = VC_TPB // 32
IMG_BX = 32
IMG_BY = 8
IMG_WIN_W = IMG_BX + 2
IMG_WIN_H = IMG_BY + 2
IMG_WIN_BYTES = IMG_WIN_W * 3


@cuda.jit(device=True, inline=True)
def cf_index(n):
    # the padded index that spreads a power-of-two stride over the 32 banks
    return n + (n >> LOG_BANKS)


# --- one explicit Euler step of the 2-D heat equation u_t = lap(u): a 16x16 tile plus a one-cell halo in shared
#     memory (edge threads fetch the halo, clamped at the border), Dirichlet boundary kept as is
@cuda.jit
def heat2d_step(u, u_new, r):
    tile = cuda.shared.array((HEAT_S, HEAT_S), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    ny, nx = u.shape
    j = cuda.blockIdx.x * HEAT_T + tx
    i = cuda.blockIdx.y * HEAT_T + ty
    ic = min(i, ny - 1)
    jc = min(j, nx - 1)
    tile[ty + 1, tx + 1] = u[ic, jc]
    if tx == 0:
        tile[ty + 1, 0] = u[ic, max(jc - 1, 0)]
    if tx == HEAT_T - 1:
        tile[ty + 1, HEAT_T + 1] = u[ic, min(jc + 1, nx - 1)]
    if ty == 0:
        tile[0, tx + 1] = u[max(ic - 1, 0), jc]
    if ty == HEAT_T - 1:
        tile[HEAT_T + 1, tx + 1] = u[min(ic + 1, ny - 1), jc]
    cuda.syncthreads()
    if i < ny and j < nx:
        c = tile[ty + 1, tx + 1]
        if i > 0 and i < ny - 1 and j > 0 and j < nx - 1:
            lap = tile[ty, tx + 1] + tile[ty + 2, tx + 1] + tile[ty + 1, tx] + tile[ty + 1, tx + 2] - 4.0 * c
            u_new[i, j] = c + float32(r) * lap
        else:
            u_new[i, j] = c


# --- gravitational accelerations, all pairs: each thread owns one body, the block walks the bodies a tile of
#     NB_TPB at a time through shared memory (x, y, z and mass as four arrays), softened 1/r^3
@cuda.jit
def nbody_accel(px, py, pz, mass, ax, ay, az, soft2):
    sx = cuda.shared.array(NB_TPB, float32)
    sy = cuda.shared.array(NB_TPB, float32)
    sz = cuda.shared.array(NB_TPB, float32)
    sm = cuda.shared.array(NB_TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = px.shape[0]
    xi = float32(0.0)
    yi = float32(0.0)
    zi = float32(0.0)
    if i < n:
        xi = px[i]
        yi = py[i]
        zi = pz[i]
    eps2 = float32(soft2)
    fx = float32(0.0)
    fy = float32(0.0)
    fz = float32(0.0)
    for base in range(0, n, NB_TPB):
        j = base + t
        if j < n:
            sx[t] = px[j]
            sy[t] = py[j]
            sz[t] = pz[j]
            sm[t] = mass[j]
        else:
            sx[t] = 0.0
            sy[t] = 0.0
            sz[t] = 0.0
            sm[t] = 0.0
        cuda.syncthreads()
        for k in range(NB_TPB):
            dx = sx[k] - xi
            dy = sy[k] - yi
            dz = sz[k] - zi
            d2 = dx * dx + dy * dy + dz * dz + eps2
            inv = float32(1.0) / math.sqrt(d2)
            s = sm[k] * inv * inv * inv
            fx += dx * s
            fy += dy * s
            fz += dz * s
        cuda.syncthreads()
    if i < n:
        ax[i] = fx
        ay[i] = fy
        az[i] = fz


# --- Mandelbrot escape times, a row of the image per blockIdx.y, one pixel a thread: the loop exits as soon as the
#     orbit leaves the radius-2 disc (data-dependent trip counts), the escape counts binned in a shared histogram
#     for the colour map
@cuda.jit
def mandelbrot_escape(img, counts, x0, y0, dx, dy):
    hist = cuda.shared.array(MB_BINS, int32)
    t = cuda.threadIdx.x
    for b in range(t, MB_MAXIT + 1, cuda.blockDim.x):
        hist[b] = 0
    cuda.syncthreads()
    h, w = img.shape
    row = cuda.blockIdx.y
    col = cuda.blockIdx.x * cuda.blockDim.x + t
    if row < h and col < w:
        cr = x0 + col * dx
        ci = y0 + row * dy
        zr = 0.0
        zi = 0.0
        it = 0
        while it < MB_MAXIT and zr * zr + zi * zi <= 4.0:
            zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
            it += 1
        img[row, col] = uint8(it * 255 // MB_MAXIT)
        cuda.atomic.add(hist, it, 1)
    cuda.syncthreads()
    for b in range(t, MB_MAXIT + 1, cuda.blockDim.x):
        c = hist[b]
        if c > 0:
            cuda.atomic.add(counts, b, c)


# --- 256-bin histogram of a uint8 buffer with one private sub-histogram per warp (less contention than one per
#     block), grid-stride over the input, the warps' bins summed at the end and added to the global counts
@cuda.jit
def hist_u8_per_warp(data, hist):
    sub = cuda.shared.array((HW_WARPS, HW_BINS), int32)
    t = cuda.threadIdx.x
    warp = t // 32
    for k in range(t, HW_WARPS * HW_BINS, cuda.blockDim.x):
        sub[k // HW_BINS, k % HW_BINS] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), data.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(sub, (warp, data[i]), 1)
    cuda.syncthreads()
    for b in range(t, HW_BINS, cuda.blockDim.x):
        s = 0
        for w in range(HW_WARPS):
            s += sub[w, b]
        if s > 0:
            cuda.atomic.add(hist, b, s)


# --- transpose of the even rows of a matrix: the kernel slices src[::2, :] (a non-contiguous view, row stride twice
#     the parent's) and transposes it through a padded 32x33 shared tile
@cuda.jit
def transpose_even_rows(src, dst):
    tile = cuda.shared.array((TR_T, TR_PAD), float32)
    view = src[::2, :]
    rows, cols = view.shape
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    c = cuda.blockIdx.x * TR_T + tx
    for k in range(ty, TR_T, cuda.blockDim.y):
        r = cuda.blockIdx.y * TR_T + k
        if r < rows and c < cols:
            tile[k, tx] = view[r, c]
    cuda.syncthreads()
    oc = cuda.blockIdx.y * TR_T + tx
    for k in range(ty, TR_T, cuda.blockDim.y):
        orow = cuda.blockIdx.x * TR_T + k
        if orow < cols and oc < rows:
            dst[orow, oc] = tile[tx, k]


# --- bitonic sort of 256 int32 keys with float32 payloads per block in shared memory: every thread looks at
#     elements t, t + blockDim, ... and the lower index of each pair does the compare-exchange
@cuda.jit
def bitonic_sort_kv(keys, vals, out_keys, out_vals):
    sk = cuda.shared.array(BS_N, int32)
    sv = cuda.shared.array(BS_N, float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * BS_N
    for i in range(t, BS_N, cuda.blockDim.x):
        sk[i] = keys[base + i]
        sv[i] = vals[base + i]
    cuda.syncthreads()
    size = 2
    while size <= BS_N:
        stride = size // 2
        while stride > 0:
            for i in range(t, BS_N, cuda.blockDim.x):
                p = i ^ stride
                if p > i:
                    ascending = (i & size) == 0
                    ki = sk[i]
                    kp = sk[p]
                    if (ascending and ki > kp) or ((not ascending) and ki < kp):
                        sk[i] = kp
                        sk[p] = ki
                        vi = sv[i]
                        sv[i] = sv[p]
                        sv[p] = vi
            cuda.syncthreads()
            stride //= 2
        size *= 2
    for i in range(t, BS_N, cuda.blockDim.x):
        out_keys[base + i] = sk[i]
        out_vals[base + i] = sv[i]


# --- work-efficient exclusive scan (Blelloch) of 512 elements a block, 256 threads two elements each, the shared
#     indices padded by n >> 5 to dodge the power-of-two strides' bank conflicts; block totals out for a second pass
@cuda.jit
def blelloch_scan_cf(x, y, sums):
    temp = cuda.shared.array(SC_SMEM, float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * SC_N
    n = x.shape[0]
    ai = t
    bi = t + SC_N // 2
    temp[cf_index(ai)] = x[base + ai] if base + ai < n else float32(0.0)
    temp[cf_index(bi)] = x[base + bi] if base + bi < n else float32(0.0)
    offset = 1
    d = SC_N >> 1
    while d > 0:
        cuda.syncthreads()
        if t < d:
            a = offset * (2 * t + 1) - 1
            b = offset * (2 * t + 2) - 1
            temp[cf_index(b)] += temp[cf_index(a)]
        offset *= 2
        d >>= 1
    if t == 0:
        sums[cuda.blockIdx.x] = temp[cf_index(SC_N - 1)]
        temp[cf_index(SC_N - 1)] = 0.0
    d = 1
    while d < SC_N:
        offset >>= 1
        cuda.syncthreads()
        if t < d:
            a = offset * (2 * t + 1) - 1
            b = offset * (2 * t + 2) - 1
            keep = temp[cf_index(a)]
            temp[cf_index(a)] = temp[cf_index(b)]
            temp[cf_index(b)] += keep
        d *= 2
    cuda.syncthreads()
    if base + ai < n:
        y[base + ai] = temp[cf_index(ai)]
    if base + bi < n:
        y[base + bi] = temp[cf_index(bi)]


# --- y = A @ x for a CSR matrix, one warp a row (grid-stride over rows by global warp index), x cached in shared
#     memory and gathered through the column indices, the lane sums folded by shfl_down_sync
@cuda.jit
def csr_spmv_warp(row_ptr, col_idx, vals, x, y):
    xs = cuda.shared.array(SP_XMAX, float32)
    t = cuda.threadIdx.x
    for k in range(t, x.shape[0], cuda.blockDim.x):
        xs[k] = x[k]
    cuda.syncthreads()
    lane = t % 32
    warp = cuda.grid(1) // 32
    nwarps = cuda.gridsize(1) // 32
    nrows = y.shape[0]
    for row in range(warp, nrows, nwarps):
        acc = float32(0.0)
        for k in range(row_ptr[row] + lane, row_ptr[row + 1], 32):
            acc += vals[k] * xs[col_idx[k]]
        off = 16
        while off > 0:
            acc += cuda.shfl_down_sync(FULL, acc, off)
            off //= 2
        if lane == 0:
            y[row] = acc


# --- sum and max of a [A, B, C] array over its middle axis (a numpy a.sum(axis=1) / a.max(axis=1)), threadIdx.x
#     along C, the 8 rows of threadIdx.y striding B, partials folded in two [8, 32] shared tiles
@cuda.jit
def reduce_axis1_3d(a, out_sum, out_max):
    ps = cuda.shared.array((AX_BY, AX_BX), float32)
    pm = cuda.shared.array((AX_BY, AX_BX), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    n0, n1, n2 = a.shape
    i = cuda.blockIdx.y
    k = cuda.blockIdx.x * AX_BX + tx
    s = float32(0.0)
    m = float32(-np.inf)
    if i < n0 and k < n2:
        for j in range(ty, n1, AX_BY):
            v = a[i, j, k]
            s += v
            m = max(m, v)
    ps[ty, tx] = s
    pm[ty, tx] = m
    cuda.syncthreads()
    h = AX_BY // 2
    while h > 0:
        if ty < h:
            ps[ty, tx] += ps[ty + h, tx]
            pm[ty, tx] = max(pm[ty, tx], pm[ty + h, tx])
        cuda.syncthreads()
        h //= 2
    if ty == 0 and i < n0 and k < n2:
        out_sum[i, k] = ps[0, tx]
        out_max[i, k] = pm[0, tx]


# --- a 5-point smoothing stencil in half precision: the block's slice plus a 2-element halo each side in a float16
#     shared array, the weighted sum by cuda.fp16.hmul / hfma
@cuda.jit
def smooth5_fp16(x, y, w):
    s = cuda.shared.array(ST_SMEM, float16)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = x.shape[0]
    s[t + ST_R] = x[min(i, n - 1)]
    if t < ST_R:
        s[t] = x[max(i - ST_R, 0)]
        right = cuda.blockIdx.x * cuda.blockDim.x + cuda.blockDim.x + t
        s[t + ST_TPB + ST_R] = x[min(right, n - 1)]
    cuda.syncthreads()
    if i < n:
        acc = cuda.fp16.hmul(w[0], s[t])
        for k in range(1, 2 * ST_R + 1):
            acc = cuda.fp16.hfma(w[k], s[t + k], acc)
        y[i] = acc


# --- per-column extrema of a [rows, 32] float32 table and of an int64 timestamp table: block-level cuda.atomic.max
#     / min into shared columns (float32 and int64), then one global atomic per column and block
@cuda.jit
def column_extrema_atomic(x, stamps, fmax, fmin, tmax, tmin):
    smax = cuda.shared.array(32, float32)
    smin = cuda.shared.array(32, float32)
    lmax = cuda.shared.array(32, int64)
    lmin = cuda.shared.array(32, int64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    if ty == 0:
        smax[tx] = -np.inf
        smin[tx] = np.inf
        lmax[tx] = -(1 << 62)
        lmin[tx] = 1 << 62
    cuda.syncthreads()
    rows = x.shape[0]
    r0 = cuda.blockIdx.y * cuda.blockDim.y + ty
    for r in range(r0, rows, cuda.gridDim.y * cuda.blockDim.y):
        cuda.atomic.max(smax, tx, x[r, tx])
        cuda.atomic.min(smin, tx, x[r, tx])
        cuda.atomic.max(lmax, tx, stamps[r, tx])
        cuda.atomic.min(lmin, tx, stamps[r, tx])
    cuda.syncthreads()
    if ty == 0:
        cuda.atomic.max(fmax, tx, smax[tx])
        cuda.atomic.min(fmin, tx, smin[tx])
        cuda.atomic.max(tmax, tx, lmax[tx])
        cuda.atomic.min(tmin, tx, lmin[tx])


# --- a shared ring of RING slots: each thread takes the next slot with cuda.atomic.inc (wrapping at RING - 1) and
#     swaps its value in with cuda.atomic.exch, reporting what it displaced; the ring is flushed to global at the end
@cuda.jit
def ring_inc_exch(vals, displaced, ring_out, ticks):
    ring = cuda.shared.array(RING, int32)
    ctr = cuda.shared.array(1, uint32)
    t = cuda.threadIdx.x
    for k in range(t, RING, cuda.blockDim.x):
        ring[k] = -1
    if t == 0:
        ctr[0] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    n = vals.shape[0]
    v = vals[min(i, n - 1)]
    slot = cuda.atomic.inc(ctr, 0, uint32(RING - 1))
    old = cuda.atomic.exch(ring, slot, v)
    if i < n:
        displaced[i] = old
    cuda.syncthreads()
    for k in range(t, RING, cuda.blockDim.x):
        ring_out[cuda.blockIdx.x, k] = ring[k]
    if t == 0:
        ticks[cuda.blockIdx.x] = ctr[0]


# --- block-local stream compaction of the positive entries: syncthreads_count for the block total,
#     syncthreads_or to flag strongly negative data, ballot over activemask and lanemask_lt for each kept lane's rank,
#     the per-warp counts turned into offsets in shared memory
@cuda.jit
def compact_positive(x, out, kept, flags):
    woff = cuda.shared.array(VC_WARPS, int32)
    t = cuda.threadIdx.x
    lane = t % 32
    warp = t // 32
    i = cuda.grid(1)
    n = x.shape[0]
    v = x[min(i, n - 1)]
    keep = int32(1) if (i < n and v > 0.0) else int32(0)
    total = cuda.syncthreads_count(keep)
    strong = cuda.syncthreads_or(int32(1) if (i < n and v < -0.9) else int32(0))
    mask = cuda.activemask()
    bal = cuda.ballot_sync(mask, keep)
    rank = cuda.popc(bal & cuda.lanemask_lt())
    if lane == 0:
        woff[warp] = cuda.popc(bal)
    cuda.syncthreads()
    if t == 0:
        run = 0
        for w in range(VC_TPB // 32):
            c = woff[w]
            woff[w] = run
            run += c
    cuda.syncthreads()
    if keep:
        out[cuda.blockIdx.x * VC_TPB + woff[warp] + rank] = v
    if t == 0:
        kept[cuda.blockIdx.x] = total
        flags[cuda.blockIdx.x] = strong


# --- an RGB uint8 image to a 3x3 box-blurred grey uint8 image: the block's window (tile plus a one-pixel border,
#     clamped) staged byte by byte in an interleaved uint8 shared array, luma by integer weights 77/150/29
@cuda.jit
def rgb_gray_box3(rgb, out):
    win = cuda.shared.array((IMG_WIN_H, IMG_WIN_BYTES), uint8)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    h, w, _ = rgb.shape
    x0 = cuda.blockIdx.x * IMG_BX - 1
    y0 = cuda.blockIdx.y * IMG_BY - 1
    tid = ty * cuda.blockDim.x + tx
    nthr = cuda.blockDim.x * cuda.blockDim.y
    for k in range(tid, (IMG_BY + 2) * IMG_WIN_W * 3, nthr):
        r = k // (IMG_WIN_W * 3)
        rem = k % (IMG_WIN_W * 3)
        yy = min(max(y0 + r, 0), h - 1)
        xx = min(max(x0 + rem // 3, 0), w - 1)
        win[r, rem] = rgb[yy, xx, rem % 3]
    cuda.syncthreads()
    x = x0 + 1 + tx
    y = y0 + 1 + ty
    if x < w and y < h:
        acc = int32(0)
        for dy in range(3):
            for dx in range(3):
                b = (tx + dx) * 3
                acc += 77 * int32(win[ty + dy, b]) + 150 * int32(win[ty + dy, b + 1]) + 29 * int32(win[ty + dy, b + 2])
        out[y, x] = uint8((acc + 9 * 128) // (9 * 256))
