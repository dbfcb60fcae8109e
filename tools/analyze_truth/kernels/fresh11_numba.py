"""An eleventh fresh batch of Numba CUDA kernels: the second tier of what a numba-cuda user writes once the textbook
kernels work. 2-D grid-stride loops (cuda.grid(2) / cuda.gridsize(2)) over int16 images; device functions that take
shared arrays (a tile loader and a row reducer); a 3-D (4, 8, 9) shared tile; a 2-D cuda.local.array indexed at run
time (a per-thread 4x4 solve with partial pivoting); a uint8 -> float32 look-up table in constant memory; complex128
data put into bit-reversed order through shared memory; a 2x2 register-blocked tiled matmul; transposes of a
non-square 16x64 tile padded by one and by two columns; a block-wide inclusive scan by warp shuffles with a shared
array of warp totals; a 1024-bin histogram of uint16 samples; a joint 2-D histogram through tuple-indexed shared and
global atomics; per-segment maxima by cuda.atomic.max on an int32 shared array; a float64 5x5 box filter whose
2-cell halo is loaded by the edge and corner threads; a row-wise argmax over (value, index) pairs kept side by side
in one shared array; Horner evaluation whose trip count is read from an argument array; and the stride patterns
sh[2*tx], sh[4*tx % 32] and sh[33*tx % 1024] on float32 and uint16 shared arrays (written for smemlab, by someone
who had not seen it)."""

import numpy as np
from numba import complex128, cuda, float32, float64, int32, uint16

# 2-D grid-stride
# (no shared memory: the image is walked by the whole grid)

# shared-tile device functions
DF_T = 32
DF_ROWS = 8

# 3-D tile
T3_Z, T3_Y, T3_X = 4, 8, 9  # the x extent padded from 8 to 9

# local solve
LS_N = 4
LS_W = LS_N + 1  # the augmented column

# constant LUT: a gamma 2.2 curve over uint8 codes
GAMMA_LUT = (np.arange(256, dtype=np.float64) / 255.0) ** 2.2
GAMMA_LUT = GAMMA_LUT.astype(np.float32)
LUT_TPB = 128
LUT_SEG = LUT_TPB + 2  # one halo pixel each side

# bit reversal
BR_N = 64
BR_BITS = 6

# register-blocked matmul: a 16x16 block computes a 32x32 tile of C, 2x2 outputs a thread
RB_T = 32
RB_K = 16
RB_B = 16

# non-square transposes
NS_R = 16
NS_C = 64
NS_C1 = NS_C + 1
NS_C2 = NS_C + 2

# scan
SC_TPB = 256
SC_WARPS = SC_TPB // 32

# histograms
H16_BINS = 1024
H16_SHIFT = 6  # 65536 codes / 1024 bins
J_BINS = 16

# segment maxima
SM_SEGS = 64

# box filter
BX_T = 16
BX_R = 2
BX_W = BX_T + 2 * BX_R

# argmax pairs
AP_ROWS = 4
AP_W = 64

# Horner
HN_ROWS = 32
HN_DEG = 16

# bank strides
BS_N = 1024


# --- scale and clamp an int16 image (a sensor frame), out = clip((in - black) * gain >> 8, 0, 32767), the pixels
#     visited by a 2-D grid-stride loop so that a small fixed grid covers any frame size
@cuda.jit
def gain_clip_i16_2d(img, out, black, gain):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    h, w = img.shape
    for y in range(y0, h, sy):
        for x in range(x0, w, sx):
            v = (int32(img[y, x]) - black) * gain
            v = v >> 8
            if v < 0:
                v = 0
            if v > 32767:
                v = 32767
            out[y, x] = v


# --- device functions that take a shared array: one loads a 32x32 tile of a [rows, cols] matrix (zero outside), the
#     other sums one row of a shared tile. The kernel loads a tile of x, then each of the 32 warp lanes of row group
#     ty sums rows and columns of the tile, writing per-tile row sums and column sums
@cuda.jit(device=True)
def load_tile(tile, a, r0, c0, tx, ty):
    rows, cols = a.shape
    for j in range(ty, DF_T, DF_ROWS):
        r = r0 + j
        c = c0 + tx
        if r < rows and c < cols:
            tile[j, tx] = a[r, c]
        else:
            tile[j, tx] = 0.0


@cuda.jit(device=True)
def row_total(tile, r):
    s = float32(0.0)
    for k in range(DF_T):
        s += tile[r, k]
    return s


@cuda.jit(device=True)
def col_total(tile, c):
    s = float32(0.0)
    for k in range(DF_T):
        s += tile[k, c]
    return s


@cuda.jit
def tile_margins(a, row_sums, col_sums):
    tile = cuda.shared.array((DF_T, DF_T), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    r0 = cuda.blockIdx.y * DF_T
    c0 = cuda.blockIdx.x * DF_T
    load_tile(tile, a, r0, c0, tx, ty)
    cuda.syncthreads()
    rows, cols = a.shape
    if ty == 0:
        if r0 + tx < rows:
            row_sums[r0 + tx, cuda.blockIdx.x] = row_total(tile, tx)
    elif ty == 1:
        if c0 + tx < cols:
            col_sums[cuda.blockIdx.y, c0 + tx] = col_total(tile, tx)


# --- a 3-D (4, 8, 9) shared tile of a [depth, h, w] volume (one padding column), an (8, 8, 4) block: each output is
#     the voxel plus its mirror across the tile's diagonal in the same slice and the one below, so that one read walks
#     the padded x axis and the other the y axis
@cuda.jit
def tile3d_mirror(v, out):
    t = cuda.shared.array((T3_Z, T3_Y, T3_X), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tz = cuda.threadIdx.z
    d, h, w = v.shape
    z = cuda.blockIdx.z * T3_Z + tz
    y = cuda.blockIdx.y * T3_Y + ty
    x = cuda.blockIdx.x * T3_Y + tx
    inside = z < d and y < h and x < w
    t[tz, ty, tx] = v[z, y, x] if inside else float32(0.0)
    if tx == 0:
        t[tz, ty, T3_X - 1] = 0.0
    cuda.syncthreads()
    zb = tz + 1 if tz + 1 < T3_Z else tz
    if inside:
        out[z, y, x] = t[tz, ty, tx] + 0.5 * t[tz, tx, ty] + 0.25 * t[zb, tx, ty]


# --- one small dense solve a thread (e.g. a 4x4 normal-equation system per pixel): the matrix copied into a 2-D
#     local array, Gaussian elimination with partial pivoting (the pivot row picked at run time), back substitution
@cuda.jit
def solve4_local(a, b, x):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    m = cuda.local.array((LS_N, LS_W), float32)
    for r in range(LS_N):
        for c in range(LS_N):
            m[r, c] = a[i, r, c]
        m[r, LS_N] = b[i, r]
    for k in range(LS_N):
        p = k
        best = abs(m[k, k])
        for r in range(k + 1, LS_N):
            if abs(m[r, k]) > best:
                best = abs(m[r, k])
                p = r
        if p != k:
            for c in range(LS_W):
                tmp = m[k, c]
                m[k, c] = m[p, c]
                m[p, c] = tmp
        for r in range(k + 1, LS_N):
            f = m[r, k] / m[k, k]
            for c in range(k, LS_W):
                m[r, c] -= f * m[k, c]
    for r in range(LS_N - 1, -1, -1):
        s = m[r, LS_N]
        for c in range(r + 1, LS_N):
            s -= m[r, c] * x[i, c]
        x[i, r] = s / m[r, r]


# --- linearise a uint8 image through a gamma look-up table in constant memory, then a 3-tap horizontal blur of the
#     linear values through a shared row segment (one halo pixel each side, loaded by the first two threads)
@cuda.jit
def gamma_blur_const(img, out):
    lut = cuda.const.array_like(GAMMA_LUT)
    seg = cuda.shared.array(LUT_SEG, float32)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.y
    h, w = img.shape
    x = cuda.blockIdx.x * LUT_TPB + t
    seg[t + 1] = lut[img[row, x]] if x < w else float32(0.0)
    if t < 2:
        hx = cuda.blockIdx.x * LUT_TPB - 1 + t * (LUT_TPB + 1)
        seg[t * (LUT_TPB + 1)] = lut[img[row, hx]] if (hx >= 0 and hx < w) else float32(0.0)
    cuda.syncthreads()
    if x < w:
        out[row, x] = 0.25 * seg[t] + 0.5 * seg[t + 1] + 0.25 * seg[t + 2]


# --- the first stage of a radix-2 FFT on complex128 rows of 64: the row put in bit-reversed order through shared
#     memory, then the first butterfly (pairs of neighbours) with a twiddle from an array; a 64-thread block a row
@cuda.jit
def bitrev_butterfly_c128(x, tw, y):
    s = cuda.shared.array(BR_N, complex128)
    t = cuda.threadIdx.x
    row = cuda.blockIdx.x
    r = 0
    v = t
    for _ in range(BR_BITS):
        r = (r << 1) | (v & 1)
        v >>= 1
    s[r] = x[row, t]
    cuda.syncthreads()
    a = s[t & ~1]
    b = s[t | 1] * tw[t >> 1]
    if t & 1:
        y[row, t] = a - b
    else:
        y[row, t] = a + b


# --- C = A @ B with 32x32 output tiles by a 16x16 block: a thread keeps a 2x2 patch of C in registers (rows ty and
#     ty + 16, columns tx and tx + 16), the K loop over 32x16 and 16x32 shared tiles; ragged edges zero-filled
@cuda.jit
def matmul_reg2x2(a, b, c):
    sa = cuda.shared.array((RB_T, RB_K), float32)
    sb = cuda.shared.array((RB_K, RB_T), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    m, k = a.shape
    n = b.shape[1]
    r0 = cuda.blockIdx.y * RB_T
    c0 = cuda.blockIdx.x * RB_T
    c00 = float32(0.0)
    c01 = float32(0.0)
    c10 = float32(0.0)
    c11 = float32(0.0)
    for k0 in range(0, k, RB_K):
        for h in range(2):
            r = r0 + ty + h * RB_B
            sa[ty + h * RB_B, tx] = a[r, k0 + tx] if (r < m and k0 + tx < k) else float32(0.0)
            cc = c0 + tx + h * RB_B
            sb[ty, tx + h * RB_B] = b[k0 + ty, cc] if (k0 + ty < k and cc < n) else float32(0.0)
        cuda.syncthreads()
        for kk in range(RB_K):
            a0 = sa[ty, kk]
            a1 = sa[ty + RB_B, kk]
            b0 = sb[kk, tx]
            b1 = sb[kk, tx + RB_B]
            c00 += a0 * b0
            c01 += a0 * b1
            c10 += a1 * b0
            c11 += a1 * b1
        cuda.syncthreads()
    for h in range(2):
        r = r0 + ty + h * RB_B
        if r < m:
            if c0 + tx < n:
                c[r, c0 + tx] = c00 if h == 0 else c10
            if c0 + tx + RB_B < n:
                c[r, c0 + tx + RB_B] = c01 if h == 0 else c11


# --- transposes of a [rows, cols] float32 matrix through a 16x64 tile (16 rows of 64), a 256-thread block (64x4):
#     read in as four steps of 4 rows of 64, written out as 64 rows of 16 (16 threads a row); one kernel pads the tile
#     row by one float, one by two
@cuda.jit
def transpose_16x64_pad1(a, at):
    tile = cuda.shared.array((NS_R, NS_C1), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    r0 = cuda.blockIdx.y * NS_R
    c0 = cuda.blockIdx.x * NS_C
    for j in range(ty, NS_R, 4):
        if r0 + j < rows and c0 + tx < cols:
            tile[j, tx] = a[r0 + j, c0 + tx]
    cuda.syncthreads()
    tid = ty * NS_C + tx
    oc = tid % NS_R
    for orow in range(tid // NS_R, NS_C, 16):
        if c0 + orow < cols and r0 + oc < rows:
            at[c0 + orow, r0 + oc] = tile[oc, orow]


@cuda.jit
def transpose_16x64_pad2(a, at):
    tile = cuda.shared.array((NS_R, NS_C2), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    r0 = cuda.blockIdx.y * NS_R
    c0 = cuda.blockIdx.x * NS_C
    for j in range(ty, NS_R, 4):
        if r0 + j < rows and c0 + tx < cols:
            tile[j, tx] = a[r0 + j, c0 + tx]
    cuda.syncthreads()
    tid = ty * NS_C + tx
    oc = tid % NS_R
    for orow in range(tid // NS_R, NS_C, 16):
        if c0 + orow < cols and r0 + oc < rows:
            at[c0 + orow, r0 + oc] = tile[oc, orow]


# --- block-wide inclusive scan of int32: a Kogge-Stone scan within each warp by shfl_up_sync, the warp totals
#     through a shared array of 8, scanned by warp 0 the same way, then added back; a block's total is its carry-out
@cuda.jit
def scan_shfl_block(x, y, totals):
    wsum = cuda.shared.array(SC_WARPS, int32)
    t = cuda.threadIdx.x
    lane = t & 31
    warp = t >> 5
    i = cuda.grid(1)
    n = x.shape[0]
    v = x[i] if i < n else 0
    d = 1
    while d < 32:
        u = cuda.shfl_up_sync(0xFFFFFFFF, v, d)
        if lane >= d:
            v += u
        d *= 2
    if lane == 31:
        wsum[warp] = v
    cuda.syncthreads()
    if warp == 0:
        s = wsum[lane] if lane < SC_WARPS else 0
        d = 1
        while d < SC_WARPS:
            u = cuda.shfl_up_sync(0xFFFFFFFF, s, d)
            if lane >= d:
                s += u
            d *= 2
        if lane < SC_WARPS:
            wsum[lane] = s
    cuda.syncthreads()
    if warp > 0:
        v += wsum[warp - 1]
    if i < n:
        y[i] = v
    if t == SC_TPB - 1:
        totals[cuda.blockIdx.x] = v


# --- a 1024-bin histogram of 16-bit samples (the top ten bits): one shared copy a block, cleared and flushed by
#     strided loops of the block, the samples read by a grid-stride loop, the block's counts added to global ones
@cuda.jit
def hist1024_u16(data, hist):
    h = cuda.shared.array(H16_BINS, int32)
    t = cuda.threadIdx.x
    bd = cuda.blockDim.x
    for b in range(t, H16_BINS, bd):
        h[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), data.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(h, data[i] >> H16_SHIFT, 1)
    cuda.syncthreads()
    for b in range(t, H16_BINS, bd):
        c = h[b]
        if c != 0:
            cuda.atomic.add(hist, b, c)


# --- joint histogram of two uint8 images quantised to 16 levels each (mutual-information registration): a 16x16
#     shared count table updated with tuple indices, added into a 16x16 global table with tuple indices
@cuda.jit
def joint_hist_2d(img_a, img_b, joint):
    tab = cuda.shared.array((J_BINS, J_BINS), int32)
    t = cuda.threadIdx.x
    tab[t // J_BINS, t % J_BINS] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), img_a.shape[0], cuda.gridsize(1)):
        qa = img_a[i] >> 4
        qb = img_b[i] >> 4
        cuda.atomic.add(tab, (qa, qb), 1)
    cuda.syncthreads()
    c = tab[t // J_BINS, t % J_BINS]
    if c > 0:
        cuda.atomic.add(joint, (t // J_BINS, t % J_BINS), c)


# --- per-segment maxima of int32 scores (segment ids are arbitrary, 64 segments): each block folds its share into
#     64 shared maxima by cuda.atomic.max, then folds those into the global maxima
@cuda.jit
def segment_max_i32(seg, score, seg_max):
    m = cuda.shared.array(SM_SEGS, int32)
    t = cuda.threadIdx.x
    if t < SM_SEGS:
        m[t] = -2147483648
    cuda.syncthreads()
    for i in range(cuda.grid(1), seg.shape[0], cuda.gridsize(1)):
        cuda.atomic.max(m, seg[i], score[i])
    cuda.syncthreads()
    if t < SM_SEGS:
        cuda.atomic.max(seg_max, t, m[t])


# --- a float64 5x5 box filter over a 16x16 tile: the 20x20 window is loaded by the tile's threads, the two-cell halo
#     strips by the threads of the two first/last rows and columns, and the 2x2 corner patches by the threads of the
#     tile's 2x2 corners (clamp-to-edge borders)
@cuda.jit(device=True)
def clamped(u, y, x):
    ny, nx = u.shape
    y = min(max(y, 0), ny - 1)
    x = min(max(x, 0), nx - 1)
    return u[y, x]


@cuda.jit
def box5_f64_halo2(u, out):
    win = cuda.shared.array((BX_W, BX_W), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    ny, nx = u.shape
    gx = cuda.blockIdx.x * BX_T + tx
    gy = cuda.blockIdx.y * BX_T + ty
    win[ty + BX_R, tx + BX_R] = clamped(u, gy, gx)
    if ty < BX_R:
        win[ty, tx + BX_R] = clamped(u, gy - BX_R, gx)
    if ty >= BX_T - BX_R:
        win[ty + 2 * BX_R, tx + BX_R] = clamped(u, gy + BX_R, gx)
    if tx < BX_R:
        win[ty + BX_R, tx] = clamped(u, gy, gx - BX_R)
    if tx >= BX_T - BX_R:
        win[ty + BX_R, tx + 2 * BX_R] = clamped(u, gy, gx + BX_R)
    if tx < BX_R and ty < BX_R:
        win[ty, tx] = clamped(u, gy - BX_R, gx - BX_R)
    if tx >= BX_T - BX_R and ty < BX_R:
        win[ty, tx + 2 * BX_R] = clamped(u, gy - BX_R, gx + BX_R)
    if tx < BX_R and ty >= BX_T - BX_R:
        win[ty + 2 * BX_R, tx] = clamped(u, gy + BX_R, gx - BX_R)
    if tx >= BX_T - BX_R and ty >= BX_T - BX_R:
        win[ty + 2 * BX_R, tx + 2 * BX_R] = clamped(u, gy + BX_R, gx + BX_R)
    cuda.syncthreads()
    if gx < nx and gy < ny:
        s = float64(0.0)
        for dy in range(2 * BX_R + 1):
            for dx in range(2 * BX_R + 1):
                s += win[ty + dy, tx + dx]
        out[gy, gx] = s / 25.0


# --- row-wise argmax of a [rows, 64] matrix, four rows a block (64x4 threads): each row's (value, index) pairs kept
#     side by side in one (4, 64, 2) shared array (the index stored as a float), folded by a tree that keeps the
#     larger value and, on a tie, the smaller index
@cuda.jit
def argmax_rows_pairs(x, idx_out, val_out):
    p = cuda.shared.array((AP_ROWS, AP_W, 2), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.x * AP_ROWS + ty
    rows = x.shape[0]
    if row < rows:
        p[ty, tx, 0] = x[row, tx]
    else:
        p[ty, tx, 0] = -np.inf
    p[ty, tx, 1] = float32(tx)
    cuda.syncthreads()
    h = AP_W // 2
    while h > 0:
        if tx < h:
            v0 = p[ty, tx, 0]
            v1 = p[ty, tx + h, 0]
            i1 = p[ty, tx + h, 1]
            if v1 > v0 or (v1 == v0 and i1 < p[ty, tx, 1]):
                p[ty, tx, 0] = v1
                p[ty, tx, 1] = i1
        cuda.syncthreads()
        h //= 2
    if tx == 0 and row < rows:
        idx_out[row] = int32(p[ty, 0, 1])
        val_out[row] = p[ty, 0, 0]


# --- evaluate polynomials of varying degree (a piecewise fit): 32 coefficient rows of 16 staged in shared memory,
#     thread t evaluates row t % 32 at x[t] by Horner's rule over deg[t] + 1 coefficients (the trip count read from
#     an argument array, so the lanes of a warp leave the loop at different steps)
@cuda.jit
def horner_ragged(coef, deg, x, y):
    c = cuda.shared.array((HN_ROWS, HN_DEG), float32)
    t = cuda.threadIdx.x
    for k in range(t, HN_ROWS * HN_DEG, cuda.blockDim.x):
        c[k // HN_DEG, k % HN_DEG] = coef[k // HN_DEG, k % HN_DEG]
    cuda.syncthreads()
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    r = t % HN_ROWS
    d = deg[i]
    xi = x[i]
    acc = float32(0.0)
    for j in range(d, -1, -1):
        acc = acc * xi + c[r, j]
    y[i] = acc


# --- shared-memory stride patterns a user writes when packing pairs or wrapping indices: a 1024-float buffer and a
#     1024-entry uint16 buffer filled in order, then read at 2*tx, 4*tx % 32, 33*tx % 1024 (and 2*tx on the uint16
#     one), the sums written out a thread
@cuda.jit
def bank_strides(x, h, y):
    sf = cuda.shared.array(BS_N, float32)
    sh = cuda.shared.array(BS_N, uint16)
    t = cuda.threadIdx.x
    bd = cuda.blockDim.x
    base = cuda.blockIdx.x * BS_N
    for k in range(t, BS_N, bd):
        sf[k] = x[base + k]
        sh[k] = h[base + k]
    cuda.syncthreads()
    a = sf[(2 * t) % BS_N]
    b = sf[(4 * t) % 32]
    c = sf[(33 * t) % BS_N]
    d = float32(sh[(2 * t) % BS_N]) + float32(sh[(2 * t + 1) % BS_N])
    y[cuda.blockIdx.x * bd + t] = a + 2.0 * b + 3.0 * c + d
