"""A tenth fresh batch of Numba CUDA kernels: the classics once more, in the variants a numba-cuda user reaches for
when the first version works and they start to tune it. Tile transposes of float64 (16x16 unpadded, 32x33 padded),
float16 (32x33) and int8 (32x32 unpadded) with square and 32x8 blocks; tree reductions with sequential addressing
(float64 partials, a warp-unrolled tail between __syncwarp()s), with interleaved addressing by `tid % (2*s)` and by
`index = 2*s*tid`; shared-memory tiled matmuls at TILE 8, 16 (B kept transposed in shared) and 32 over ragged sizes;
a privatised uint8 histogram (one block histogram in shared, merged by global atomics) and one with a copy a warp
laid out bin-major; a 1-D stencil whose halo is loaded by extra threads of the block and a float64 2-D stencil whose
haloed tile is filled by a loop; a running median over a ring buffer in local memory; column sums through a 2-D
shared array indexed [tx, ty]; and a weighted mean over a dynamic shared array cut into two (written for smemlab, by
someone who had not seen it)."""

from numba import cuda, float32, float64, int8, int32
from numba.types import float16

# transposes
TT16 = 16
TT32 = 32
TT32_PAD = TT32 + 1
TT_ROWS = 8  # the 32x8 block walks the 32-row tile in four steps

# reductions
SEQ_MAX = 512
IM_TPB = 64
IX_TPB = 128

# matmuls
MM8 = 8
MM16 = 16
MM32 = 32

# histograms
NBINS = 256
HW_TPB = 256
HW_WARPS = HW_TPB // 32

# stencils
S1_R = 4
S1_OUT = 128
S1_TPB = S1_OUT + 2 * S1_R  # the block is the output tile plus both halos: the edge threads only load
S2_T = 16
S2_R = 1
S2_W = S2_T + 2 * S2_R

# running median
RM_W = 5

# column sums
CS_BX = 32
CS_BY = 8


# --- out-of-place transpose of a float64 matrix through a plain 16x16 tile (no padding), one element a thread of a
#     16x16 block; both edges guarded
@cuda.jit
def transpose_t16_f64(a, at):
    tile = cuda.shared.array((TT16, TT16), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    r = cuda.blockIdx.y * TT16 + ty
    c = cuda.blockIdx.x * TT16 + tx
    if r < rows and c < cols:
        tile[ty, tx] = a[r, c]
    cuda.syncthreads()
    orow = cuda.blockIdx.x * TT16 + ty
    ocol = cuda.blockIdx.y * TT16 + tx
    if orow < cols and ocol < rows:
        at[orow, ocol] = tile[tx, ty]


# --- float64 transpose through a 32x33 tile (one column of padding) by a 32x8 block, each thread moving four
#     elements in and four out, rows stepped by blockDim.y
@cuda.jit
def transpose_t32_f64_pad(a, at):
    tile = cuda.shared.array((TT32, TT32_PAD), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    bx = cuda.blockIdx.x * TT32
    by = cuda.blockIdx.y * TT32
    for j in range(ty, TT32, cuda.blockDim.y):
        r = by + j
        if r < rows and bx + tx < cols:
            tile[j, tx] = a[r, bx + tx]
    cuda.syncthreads()
    for j in range(ty, TT32, cuda.blockDim.y):
        orow = bx + j
        if orow < cols and by + tx < rows:
            at[orow, by + tx] = tile[tx, j]


# --- half-precision transpose (e.g. of an fp16 weight matrix), 32x33 float16 tile, 32x8 block, four steps of
#     eight rows each way
@cuda.jit
def transpose_t32_f16_pad(a, at):
    tile = cuda.shared.array((TT32, TT32_PAD), float16)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    c = cuda.blockIdx.x * TT32 + tx
    for j in range(0, TT32, TT_ROWS):
        r = cuda.blockIdx.y * TT32 + ty + j
        if r < rows and c < cols:
            tile[ty + j, tx] = a[r, c]
    cuda.syncthreads()
    oc = cuda.blockIdx.y * TT32 + tx
    for j in range(0, TT32, TT_ROWS):
        orow = cuda.blockIdx.x * TT32 + ty + j
        if orow < cols and oc < rows:
            at[orow, oc] = tile[tx, ty + j]


# --- int8 transpose (quantised weights) through an unpadded 32x32 byte tile, 32x8 block
@cuda.jit
def transpose_t32_i8(a, at):
    tile = cuda.shared.array((TT32, TT32), int8)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = a.shape
    c = cuda.blockIdx.x * TT32 + tx
    for j in range(0, TT32, TT_ROWS):
        r = cuda.blockIdx.y * TT32 + ty + j
        if r < rows and c < cols:
            tile[ty + j, tx] = a[r, c]
    cuda.syncthreads()
    oc = cuda.blockIdx.y * TT32 + tx
    for j in range(0, TT32, TT_ROWS):
        orow = cuda.blockIdx.x * TT32 + ty + j
        if orow < cols and oc < rows:
            at[orow, oc] = tile[tx, ty + j]


# --- block sums of a float32 vector accumulated in float64: each thread adds two elements a blockDim apart (the
#     "first add during load" step), sequential addressing down to 64 partials, then the last warp folds the rest
#     unrolled, a __syncwarp() between reading and writing each step; works for any power-of-two block of 64 to 512
@cuda.jit
def reduce_seq_f64(x, partial):
    s = cuda.shared.array(SEQ_MAX, float64)
    tid = cuda.threadIdx.x
    bd = cuda.blockDim.x
    i = cuda.blockIdx.x * bd * 2 + tid
    n = x.shape[0]
    v = float64(0.0)
    if i < n:
        v = float64(x[i])
    if i + bd < n:
        v += float64(x[i + bd])
    s[tid] = v
    cuda.syncthreads()
    stride = bd // 2
    while stride > 32:
        if tid < stride:
            s[tid] += s[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid < 32:
        v = s[tid] + s[tid + 32]
        cuda.syncwarp()
        s[tid] = v
        cuda.syncwarp()
        v = s[tid] + s[tid + 16]
        cuda.syncwarp()
        s[tid] = v
        cuda.syncwarp()
        v = s[tid] + s[tid + 8]
        cuda.syncwarp()
        s[tid] = v
        cuda.syncwarp()
        v = s[tid] + s[tid + 4]
        cuda.syncwarp()
        s[tid] = v
        cuda.syncwarp()
        v = s[tid] + s[tid + 2]
        cuda.syncwarp()
        s[tid] = v
        cuda.syncwarp()
        v = s[tid] + s[tid + 1]
        if tid == 0:
            partial[cuda.blockIdx.x] = v


# --- the first reduction anyone writes: interleaved addressing, the active threads picked by tid % (2*s) == 0,
#     stride doubling, 64 threads a block
@cuda.jit
def reduce_interleaved_mod(x, partial):
    s = cuda.shared.array(IM_TPB, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    s[tid] = x[i] if i < x.shape[0] else float32(0.0)
    cuda.syncthreads()
    stride = 1
    while stride < IM_TPB:
        if tid % (2 * stride) == 0:
            s[tid] += s[tid + stride]
        cuda.syncthreads()
        stride *= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = s[0]


# --- interleaved addressing without the modulo: thread tid works on index = 2*s*tid (contiguous active threads,
#     strided shared accesses), on float64 data, 128 threads a block
@cuda.jit
def reduce_interleaved_strided(x, partial):
    s = cuda.shared.array(IX_TPB, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    s[tid] = x[i] if i < x.shape[0] else float64(0.0)
    cuda.syncthreads()
    stride = 1
    while stride < IX_TPB:
        index = 2 * stride * tid
        if index < IX_TPB:
            s[index] += s[index + stride]
        cuda.syncthreads()
        stride *= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = s[0]


# --- C = A @ B with 8x8 shared tiles (an 8x8 block, two warps), ragged M, N, K zero-filled at the edges
@cuda.jit
def matmul_t8(a, b, c):
    sa = cuda.shared.array((MM8, MM8), float32)
    sb = cuda.shared.array((MM8, MM8), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    m, k = a.shape
    n = b.shape[1]
    row = cuda.blockIdx.y * MM8 + ty
    col = cuda.blockIdx.x * MM8 + tx
    acc = float32(0.0)
    for t in range((k + MM8 - 1) // MM8):
        ka = t * MM8 + tx
        kb = t * MM8 + ty
        if row < m and ka < k:
            sa[ty, tx] = a[row, ka]
        else:
            sa[ty, tx] = 0.0
        if kb < k and col < n:
            sb[ty, tx] = b[kb, col]
        else:
            sb[ty, tx] = 0.0
        cuda.syncthreads()
        for kk in range(MM8):
            acc += sa[ty, kk] * sb[kk, tx]
        cuda.syncthreads()
    if row < m and col < n:
        c[row, col] = acc


# --- C = A @ B with 16x16 tiles where the B tile is kept transposed in shared memory (sbt[col][k]) so that the
#     inner product walks both tiles along a row, as one would lay it out for a CPU
@cuda.jit
def matmul_t16_bt(a, b, c):
    sa = cuda.shared.array((MM16, MM16), float32)
    sbt = cuda.shared.array((MM16, MM16), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    m, k = a.shape
    n = b.shape[1]
    row = cuda.blockIdx.y * MM16 + ty
    col = cuda.blockIdx.x * MM16 + tx
    acc = float32(0.0)
    for k0 in range(0, k, MM16):
        sa[ty, tx] = a[row, k0 + tx] if (row < m and k0 + tx < k) else float32(0.0)
        sbt[tx, ty] = b[k0 + ty, col] if (k0 + ty < k and col < n) else float32(0.0)
        cuda.syncthreads()
        for kk in range(MM16):
            acc += sa[ty, kk] * sbt[tx, kk]
        cuda.syncthreads()
    if row < m and col < n:
        c[row, col] = acc


# --- C = A @ B with 32x32 tiles and a 32x32 block (1024 threads), no padding
@cuda.jit
def matmul_t32(a, b, c):
    sa = cuda.shared.array((MM32, MM32), float32)
    sb = cuda.shared.array((MM32, MM32), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    m, k = a.shape
    n = b.shape[1]
    row = cuda.blockIdx.y * MM32 + ty
    col = cuda.blockIdx.x * MM32 + tx
    acc = float32(0.0)
    for k0 in range(0, k, MM32):
        v = float32(0.0)
        if row < m and k0 + tx < k:
            v = a[row, k0 + tx]
        sa[ty, tx] = v
        w = float32(0.0)
        if k0 + ty < k and col < n:
            w = b[k0 + ty, col]
        sb[ty, tx] = w
        cuda.syncthreads()
        for kk in range(MM32):
            acc += sa[ty, kk] * sb[kk, tx]
        cuda.syncthreads()
    if row < m and col < n:
        c[row, col] = acc


# --- 256-bin histogram of a uint8 image: one shared histogram a block (256 threads in 32x8), the pixels visited by
#     a 2-D grid-stride loop, the block's nonzero bins added to the global histogram with atomics
@cuda.jit
def hist_u8_block(img, hist):
    local_hist = cuda.shared.array(NBINS, int32)
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    nthreads = cuda.blockDim.x * cuda.blockDim.y
    for b in range(tid, NBINS, nthreads):
        local_hist[b] = 0
    cuda.syncthreads()
    h, w = img.shape
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for y in range(y0, h, sy):
        for x in range(x0, w, sx):
            cuda.atomic.add(local_hist, img[y, x], 1)
    cuda.syncthreads()
    for b in range(tid, NBINS, nthreads):
        cnt = local_hist[b]
        if cnt > 0:
            cuda.atomic.add(hist, b, cnt)


# --- the same histogram with one copy a warp (fewer collisions between warps), stored bin-major [bin, warp] so the
#     merge reads a bin's copies side by side; each block writes its own row of per-block counts (no global atomics)
@cuda.jit
def hist_u8_warp_copies(data, block_counts):
    sh = cuda.shared.array((NBINS, HW_WARPS), int32)
    tid = cuda.threadIdx.x
    warp = tid // 32
    for b in range(tid, NBINS * HW_WARPS, HW_TPB):
        sh[b // HW_WARPS, b % HW_WARPS] = 0
    cuda.syncthreads()
    n = data.shape[0]
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        cuda.atomic.add(sh, (data[i], warp), 1)
    cuda.syncthreads()
    total = 0
    for w in range(HW_WARPS):
        total += sh[tid, w]
    block_counts[cuda.blockIdx.x, tid] = total


# --- 9-point 1-D stencil (radius 4, weights from an array): the block has S1_OUT + 8 threads, each loading one
#     element of the haloed window into shared memory; only the inner S1_OUT threads compute an output
@cuda.jit
def stencil1d_extra_threads(x, w, y):
    win = cuda.shared.array(S1_TPB, float32)
    t = cuda.threadIdx.x
    n = x.shape[0]
    g = cuda.blockIdx.x * S1_OUT + t - S1_R
    win[t] = x[g] if (g >= 0 and g < n) else float32(0.0)
    cuda.syncthreads()
    if t >= S1_R and t < S1_OUT + S1_R and g < n:
        acc = float32(0.0)
        for j in range(2 * S1_R + 1):
            acc += w[j] * win[t - S1_R + j]
        y[g] = acc


# --- one Jacobi step of the 2-D Poisson smoother in float64: the 18x18 window (16x16 tile + one-cell halo, clamped
#     at the borders) filled by a loop of the block's 256 threads over its 324 cells, then the 5-point update
@cuda.jit
def stencil2d_loop_f64(u, f, out, h2):
    win = cuda.shared.array((S2_W, S2_W), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    ny, nx = u.shape
    x0 = cuda.blockIdx.x * S2_T - S2_R
    y0 = cuda.blockIdx.y * S2_T - S2_R
    tid = ty * S2_T + tx
    for k in range(tid, S2_W * S2_W, S2_T * S2_T):
        r = k // S2_W
        c = k - r * S2_W
        yy = min(max(y0 + r, 0), ny - 1)
        xx = min(max(x0 + c, 0), nx - 1)
        win[r, c] = u[yy, xx]
    cuda.syncthreads()
    x = x0 + S2_R + tx
    y = y0 + S2_R + ty
    if x < nx and y < ny:
        cy = ty + S2_R
        cx = tx + S2_R
        nb = win[cy - 1, cx] + win[cy + 1, cx] + win[cy, cx - 1] + win[cy, cx + 1]
        out[y, x] = 0.25 * (nb - h2 * f[y, x])


# --- running median of 5 down each column of a [time, channel] signal (a despiking filter): a thread a channel, the
#     last five samples in a ring buffer in local memory, copied into a second local array and insertion-sorted at
#     every step; the first four outputs pass the input through
@cuda.jit
def running_median5(x, out):
    ring = cuda.local.array(RM_W, float32)
    srt = cuda.local.array(RM_W, float32)
    c = cuda.grid(1)
    steps, chans = x.shape
    if c >= chans:
        return
    for t in range(steps):
        v = x[t, c]
        ring[t % RM_W] = v
        if t < RM_W - 1:
            out[t, c] = v
            continue
        for k in range(RM_W):
            srt[k] = ring[k]
        for k in range(1, RM_W):
            key = srt[k]
            j = k - 1
            while j >= 0 and srt[j] > key:
                srt[j + 1] = srt[j]
                j -= 1
            srt[j + 1] = key
        out[t, c] = srt[RM_W // 2]


# --- column sums of a [rows, cols] matrix by a 32x8 block: a thread sums every 8th row of its column, the partials
#     kept in a (32, 8) shared array indexed [tx, ty] (column-major for the block), folded over ty by a tree
@cuda.jit
def colsum_txty(x, out):
    part = cuda.shared.array((CS_BX, CS_BY), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = x.shape
    col = cuda.blockIdx.x * CS_BX + tx
    s = float32(0.0)
    if col < cols:
        for r in range(ty, rows, CS_BY):
            s += x[r, col]
    part[tx, ty] = s
    cuda.syncthreads()
    h = CS_BY // 2
    while h > 0:
        if ty < h:
            part[tx, ty] += part[tx, ty + h]
        cuda.syncthreads()
        h //= 2
    if ty == 0 and col < cols:
        out[col] = part[tx, 0]


# --- weighted mean's numerator and denominator per block: a dynamic shared buffer of 2 * blockDim floats cut into
#     the weighted values (first half) and the weights (second half), both folded by one tree loop
@cuda.jit
def weighted_sums_dyn(x, wt, num, den):
    buf = cuda.shared.array(0, float32)
    bd = cuda.blockDim.x
    sv = buf[:bd]
    sw = buf[bd:2 * bd]
    t = cuda.threadIdx.x
    a = float32(0.0)
    b = float32(0.0)
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        wi = wt[i]
        a += wi * x[i]
        b += wi
    sv[t] = a
    sw[t] = b
    cuda.syncthreads()
    h = bd // 2
    while h > 0:
        if t < h:
            sv[t] += sv[t + h]
            sw[t] += sw[t + h]
        cuda.syncthreads()
        h //= 2
    if t == 0:
        num[cuda.blockIdx.x] = sv[0]
        den[cuda.blockIdx.x] = sw[0]
