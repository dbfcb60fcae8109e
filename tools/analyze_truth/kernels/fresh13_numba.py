"""A thirteenth fresh batch of Numba CUDA kernels: what people port to numba-cuda and write for themselves. Rodinia's
pathfinder (the dynamic-programming row over a shared pyramid) and hotspot (2-D, the shared temperature and power tiles
and the pyramid's temp_t) kept as flat arrays the way the C ports keep them; a 2-D heat step on cuda.grid(2) whose
one-cell halo is loaded by the tile's edge threads; GPU Gems' prefix sums (the double-buffered Hillis-Steele scan and
the work-efficient Blelloch scan padded by CONFLICT_FREE_OFFSET, an inline='always' device function); a bitonic
key/value sort of a block in shared memory; a k-means assignment against centroids in cuda.const.array_like with
per-block counts; mat-vec products with the vector staged in shared memory (a thread a row, a thread a column); a
batched small-matrix multiply on a 3-D grid in float64 tiles; an 8-wide sorting network in a cuda.local.array; warp
primitives (shfl_down_sync and shfl_xor_sync block sums, ballot_sync + popc compaction into shared memory,
match_any_sync + activemask warp-aggregated histogram counts); float32/int32 shared-bin atomics with an int32
atomic.max; atomic.inc, atomic.dec and atomic.exch on a shared ring of indices; eager signatures in layout A and layout C (a
naive and a padded tiled transpose); a Gram matrix read through a.T taken inside the kernel; int8 -> uint16, float16
(cuda.fp16) and complex128 (a Stockham FFT ping-ponging two shared buffers) data; a 3-D Laplacian on cuda.grid(3)
with a shared halo; a row softmax in dynamic shared memory (written for smemlab, by someone who had not seen it)."""

import cmath
import math

import numpy as np
from numba import complex128, cuda, float32, float64, int8, int32, uint16, uint32
from numba.types import float16

FULL_MASK = 0xFFFFFFFF

# Rodinia pathfinder
PF_BLOCK = 256
PF_HALO = 1

# Rodinia hotspot
HS_BLOCK = 16
AMB_TEMP = 80.0

# heat step
HT_X = 16
HT_Y = 16
HT_SX = HT_X + 2  # with the halo
HT_SY = HT_Y + 2

# scans
HSS_N = 256        # Hillis-Steele: one element a thread
HSS_BUF = 2 * HSS_N
BL_N = 512         # Blelloch: two elements a thread
NUM_BANKS = 32
LOG_NUM_BANKS = 5
BL_PADDED = BL_N + (BL_N >> LOG_NUM_BANKS)

# bitonic
BITONIC_N = 256

# k-means
KM_K = 8
KM_D = 4
_km = np.random.default_rng(4242)
CENTROIDS = _km.uniform(-1.0, 1.0, (KM_K, KM_D)).astype(np.float32)
KM_TPB = 128

# mat-vec
MV_TPB = 128

# batched matmul
BM_TPB = 16

# warp reductions / compaction / histograms
WR_TPB = 256
CP_TPB = 256
CP_WARPS = CP_TPB // 32
AH_BINS = 64
WH_BINS = 128
RING = 64

# transposes
TILE_DIM = 32
BLOCK_ROWS = 8
TILE_PAD = TILE_DIM + 1

# small types
BOX_TPB = 128
BOX_R = 2
BOX_SEG = BOX_TPB + 2 * BOX_R

# Stockham FFT
FFT_N = 64
FFT_PER_BLOCK = 4

# 3-D Laplacian
L3_X = 16
L3_Y = 4
L3_Z = 4
L3_SX = L3_X + 2
L3_SY = L3_Y + 2
L3_SZ = L3_Z + 2

# softmax
SM_TPB = 256


# ==== Rodinia ports ===================================================================================================

# --- pathfinder's dynproc_kernel: each block computes `iteration` rows of the minimum-cost DP over a pyramid of the
#     block's columns; prev/result live in shared memory, the wall is the flat rows x cols int array
@cuda.jit
def dynproc_kernel(iteration, gpuWall, gpuSrc, gpuResults, cols, rows, startStep, border):
    prev = cuda.shared.array(PF_BLOCK, int32)
    result = cuda.shared.array(PF_BLOCK, int32)

    bx = cuda.blockIdx.x
    tx = cuda.threadIdx.x

    small_block_cols = PF_BLOCK - iteration * PF_HALO * 2
    blkX = small_block_cols * bx - border
    blkXmax = blkX + PF_BLOCK - 1
    xidx = blkX + tx

    validXmin = -blkX if blkX < 0 else 0
    validXmax = PF_BLOCK - 1 - (blkXmax - cols + 1) if blkXmax > cols - 1 else PF_BLOCK - 1

    W = tx - 1
    E = tx + 1
    W = validXmin if W < validXmin else W
    E = validXmax if E > validXmax else E

    isValid = tx >= validXmin and tx <= validXmax

    if xidx >= 0 and xidx <= cols - 1:
        prev[tx] = gpuSrc[xidx]
    cuda.syncthreads()

    computed = False
    for i in range(iteration):
        computed = False
        if tx >= i + 1 and tx <= PF_BLOCK - i - 2 and isValid:
            computed = True
            left = prev[W]
            up = prev[tx]
            right = prev[E]
            shortest = min(left, up)
            shortest = min(shortest, right)
            index = cols * (startStep + i) + xidx
            result[tx] = shortest + gpuWall[index]
        cuda.syncthreads()
        if i == iteration - 1:
            break
        if computed:
            prev[tx] = result[tx]
        cuda.syncthreads()

    if computed:
        gpuResults[xidx] = result[tx]


# --- hotspot's calculate_temp: a pyramid of `iteration` explicit steps on a 16x16 tile, temperature and power in
#     shared tiles, the new temperatures in temp_t; flat row-major grids as in the C code
@cuda.jit
def calculate_temp(iteration, power, temp_src, temp_dst, grid_cols, grid_rows, border_cols, border_rows,
                   Cap, Rx, Ry, Rz, step):
    temp_on_cuda = cuda.shared.array((HS_BLOCK, HS_BLOCK), float32)
    power_on_cuda = cuda.shared.array((HS_BLOCK, HS_BLOCK), float32)
    temp_t = cuda.shared.array((HS_BLOCK, HS_BLOCK), float32)

    bx = cuda.blockIdx.x
    by = cuda.blockIdx.y
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y

    step_div_Cap = step / Cap
    Rx_1 = 1.0 / Rx
    Ry_1 = 1.0 / Ry
    Rz_1 = 1.0 / Rz

    small_block_rows = HS_BLOCK - iteration * 2
    small_block_cols = HS_BLOCK - iteration * 2

    blkY = small_block_rows * by - border_rows
    blkX = small_block_cols * bx - border_cols
    blkYmax = blkY + HS_BLOCK - 1
    blkXmax = blkX + HS_BLOCK - 1

    yidx = blkY + ty
    xidx = blkX + tx

    index = grid_cols * yidx + xidx
    if yidx >= 0 and yidx <= grid_rows - 1 and xidx >= 0 and xidx <= grid_cols - 1:
        temp_on_cuda[ty, tx] = temp_src[index]
        power_on_cuda[ty, tx] = power[index]
    cuda.syncthreads()

    validYmin = -blkY if blkY < 0 else 0
    validYmax = HS_BLOCK - 1 - (blkYmax - grid_rows + 1) if blkYmax > grid_rows - 1 else HS_BLOCK - 1
    validXmin = -blkX if blkX < 0 else 0
    validXmax = HS_BLOCK - 1 - (blkXmax - grid_cols + 1) if blkXmax > grid_cols - 1 else HS_BLOCK - 1

    N = ty - 1
    S = ty + 1
    W = tx - 1
    E = tx + 1
    N = validYmin if N < validYmin else N
    S = validYmax if S > validYmax else S
    W = validXmin if W < validXmin else W
    E = validXmax if E > validXmax else E

    computed = False
    for i in range(iteration):
        computed = False
        if (i + 1 <= tx <= HS_BLOCK - i - 2 and i + 1 <= ty <= HS_BLOCK - i - 2
                and validXmin <= tx <= validXmax and validYmin <= ty <= validYmax):
            computed = True
            temp_t[ty, tx] = temp_on_cuda[ty, tx] + step_div_Cap * (
                power_on_cuda[ty, tx]
                + (temp_on_cuda[S, tx] + temp_on_cuda[N, tx] - 2.0 * temp_on_cuda[ty, tx]) * Ry_1
                + (temp_on_cuda[ty, E] + temp_on_cuda[ty, W] - 2.0 * temp_on_cuda[ty, tx]) * Rx_1
                + (AMB_TEMP - temp_on_cuda[ty, tx]) * Rz_1)
        cuda.syncthreads()
        if i == iteration - 1:
            break
        if computed:
            temp_on_cuda[ty, tx] = temp_t[ty, tx]
        cuda.syncthreads()

    if computed:
        temp_dst[index] = temp_t[ty, tx]


# ==== stencils =========================================================================================================

# --- explicit heat step u_new = u + alpha * laplacian(u) on a 2-D grid; x = column from cuda.grid(2), the shared tile
#     carries a one-cell halo that the block's edge threads fetch
@cuda.jit
def heat_step_halo(u, u_new, alpha):
    tile = cuda.shared.array((HT_SY, HT_SX), float32)
    i, j = cuda.grid(2)
    ny, nx = u.shape
    tx = cuda.threadIdx.x + 1
    ty = cuda.threadIdx.y + 1

    if i < nx and j < ny:
        tile[ty, tx] = u[j, i]
        if cuda.threadIdx.x == 0 and i > 0:
            tile[ty, 0] = u[j, i - 1]
        if cuda.threadIdx.x == HT_X - 1 and i < nx - 1:
            tile[ty, HT_X + 1] = u[j, i + 1]
        if cuda.threadIdx.y == 0 and j > 0:
            tile[0, tx] = u[j - 1, i]
        if cuda.threadIdx.y == HT_Y - 1 and j < ny - 1:
            tile[HT_Y + 1, tx] = u[j + 1, i]
    cuda.syncthreads()

    if 0 < i < nx - 1 and 0 < j < ny - 1:
        lap = tile[ty, tx - 1] + tile[ty, tx + 1] + tile[ty - 1, tx] + tile[ty + 1, tx] - 4.0 * tile[ty, tx]
        u_new[j, i] = tile[ty, tx] + alpha * lap
    elif i < nx and j < ny:
        u_new[j, i] = tile[ty, tx]  # fixed boundary


# --- 7-point 3-D Laplacian on cuda.grid(3): a (z, y, x) shared tile with a one-cell halo on all six faces
@cuda.jit
def laplace3d_shared(u, out, h2inv):
    s = cuda.shared.array((L3_SZ, L3_SY, L3_SX), float32)
    x, y, z = cuda.grid(3)
    nz, ny, nx = u.shape
    tx = cuda.threadIdx.x + 1
    ty = cuda.threadIdx.y + 1
    tz = cuda.threadIdx.z + 1

    inside = x < nx and y < ny and z < nz
    if inside:
        s[tz, ty, tx] = u[z, y, x]
        if cuda.threadIdx.x == 0 and x > 0:
            s[tz, ty, 0] = u[z, y, x - 1]
        if cuda.threadIdx.x == L3_X - 1 and x + 1 < nx:
            s[tz, ty, L3_X + 1] = u[z, y, x + 1]
        if cuda.threadIdx.y == 0 and y > 0:
            s[tz, 0, tx] = u[z, y - 1, x]
        if cuda.threadIdx.y == L3_Y - 1 and y + 1 < ny:
            s[tz, L3_Y + 1, tx] = u[z, y + 1, x]
        if cuda.threadIdx.z == 0 and z > 0:
            s[0, ty, tx] = u[z - 1, y, x]
        if cuda.threadIdx.z == L3_Z - 1 and z + 1 < nz:
            s[L3_Z + 1, ty, tx] = u[z + 1, y, x]
    cuda.syncthreads()

    if 0 < x < nx - 1 and 0 < y < ny - 1 and 0 < z < nz - 1:
        c = s[tz, ty, tx]
        acc = (s[tz, ty, tx - 1] + s[tz, ty, tx + 1] + s[tz, ty - 1, tx] + s[tz, ty + 1, tx]
               + s[tz - 1, ty, tx] + s[tz + 1, ty, tx] - 6.0 * c)
        out[z, y, x] = acc * h2inv


# ==== scans and sorts ==================================================================================================

# --- GPU Gems 3 39.2.1: the naive (Hillis-Steele) exclusive scan, double-buffered between two halves of one shared
#     array by pout/pin; a block scans its n elements and leaves its total in sums
@cuda.jit
def scan_hillis_steele(g_odata, g_idata, sums, n):
    temp = cuda.shared.array(HSS_BUF, float32)
    thid = cuda.threadIdx.x
    base = cuda.blockIdx.x * n
    pout = 0
    pin = 1
    if thid > 0:
        temp[pout * n + thid] = g_idata[base + thid - 1]
    else:
        temp[pout * n + thid] = 0.0
    cuda.syncthreads()
    offset = 1
    while offset < n:
        pout = 1 - pout
        pin = 1 - pout
        if thid >= offset:
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset]
        else:
            temp[pout * n + thid] = temp[pin * n + thid]
        cuda.syncthreads()
        offset *= 2
    g_odata[base + thid] = temp[pout * n + thid]
    if thid == n - 1:
        sums[cuda.blockIdx.x] = temp[pout * n + thid] + g_idata[base + thid]


@cuda.jit(device=True, inline='always')
def conflict_free_offset(n):
    return n >> LOG_NUM_BANKS


# --- GPU Gems 3 39.2.2-3: the work-efficient (Blelloch) exclusive scan of 2 * blockDim elements, up-sweep then
#     down-sweep, every shared index padded by CONFLICT_FREE_OFFSET
@cuda.jit
def scan_blelloch_padded(g_odata, g_idata, sums, n):
    temp = cuda.shared.array(BL_PADDED, float32)
    thid = cuda.threadIdx.x
    base = cuda.blockIdx.x * n
    offset = 1

    ai = thid
    bi = thid + (n // 2)
    bank_offset_a = conflict_free_offset(ai)
    bank_offset_b = conflict_free_offset(bi)
    temp[ai + bank_offset_a] = g_idata[base + ai]
    temp[bi + bank_offset_b] = g_idata[base + bi]

    d = n >> 1
    while d > 0:
        cuda.syncthreads()
        if thid < d:
            i1 = offset * (2 * thid + 1) - 1
            i2 = offset * (2 * thid + 2) - 1
            i1 += conflict_free_offset(i1)
            i2 += conflict_free_offset(i2)
            temp[i2] += temp[i1]
        offset *= 2
        d >>= 1

    if thid == 0:
        last = n - 1 + conflict_free_offset(n - 1)
        sums[cuda.blockIdx.x] = temp[last]
        temp[last] = 0.0

    d = 1
    while d < n:
        offset >>= 1
        cuda.syncthreads()
        if thid < d:
            i1 = offset * (2 * thid + 1) - 1
            i2 = offset * (2 * thid + 2) - 1
            i1 += conflict_free_offset(i1)
            i2 += conflict_free_offset(i2)
            t = temp[i1]
            temp[i1] = temp[i2]
            temp[i2] += t
        d *= 2
    cuda.syncthreads()

    g_odata[base + ai] = temp[ai + bank_offset_a]
    g_odata[base + bi] = temp[bi + bank_offset_b]


# --- bitonic sort of BITONIC_N keys (with their payloads) a block in shared memory, one element a thread; the
#     partner is tid ^ j, the direction from tid & k
@cuda.jit
def bitonic_sort_block(keys, vals):
    sk = cuda.shared.array(BITONIC_N, float32)
    sv = cuda.shared.array(BITONIC_N, int32)
    tid = cuda.threadIdx.x
    base = cuda.blockIdx.x * BITONIC_N
    sk[tid] = keys[base + tid]
    sv[tid] = vals[base + tid]
    cuda.syncthreads()

    k = 2
    while k <= BITONIC_N:
        j = k // 2
        while j > 0:
            ixj = tid ^ j
            if ixj > tid:
                a = sk[tid]
                b = sk[ixj]
                if (tid & k) == 0:
                    swap = a > b
                else:
                    swap = a < b
                if swap:
                    sk[tid] = b
                    sk[ixj] = a
                    v = sv[tid]
                    sv[tid] = sv[ixj]
                    sv[ixj] = v
            cuda.syncthreads()
            j //= 2
        k *= 2

    keys[base + tid] = sk[tid]
    vals[base + tid] = sv[tid]


@cuda.jit(device=True, inline='always')
def cmp_swap(v, i, j):
    a = v[i]
    b = v[j]
    if b < a:
        v[i] = b
        v[j] = a


# --- each thread sorts the 8 values of its row with Batcher's odd-even merge network (19 compare-exchanges) in a
#     cuda.local.array, then writes the row back sorted and its median pair's mean
@cuda.jit
def sort8_network_local(x, out, med):
    r = cuda.grid(1)
    if r >= x.shape[0]:
        return
    v = cuda.local.array(8, float32)
    for k in range(8):
        v[k] = x[r, k]
    cmp_swap(v, 0, 1); cmp_swap(v, 2, 3); cmp_swap(v, 4, 5); cmp_swap(v, 6, 7)  # noqa: E702
    cmp_swap(v, 0, 2); cmp_swap(v, 1, 3); cmp_swap(v, 4, 6); cmp_swap(v, 5, 7)  # noqa: E702
    cmp_swap(v, 1, 2); cmp_swap(v, 5, 6)  # noqa: E702
    cmp_swap(v, 0, 4); cmp_swap(v, 1, 5); cmp_swap(v, 2, 6); cmp_swap(v, 3, 7)  # noqa: E702
    cmp_swap(v, 2, 4); cmp_swap(v, 3, 5)  # noqa: E702
    cmp_swap(v, 1, 2); cmp_swap(v, 3, 4); cmp_swap(v, 5, 6)  # noqa: E702
    for k in range(8):
        out[r, k] = v[k]
    med[r] = 0.5 * (v[3] + v[4])


# ==== k-means, mat-vec, batched matmul =================================================================================

# --- k-means assignment step: each point's nearest centroid (squared distance), centroids in constant memory, the
#     cluster sizes counted per block in shared memory and added to the global counts
@cuda.jit
def kmeans_assign(points, labels, counts):
    centroids = cuda.const.array_like(CENTROIDS)
    local_counts = cuda.shared.array(KM_K, int32)
    t = cuda.threadIdx.x
    if t < KM_K:
        local_counts[t] = 0
    cuda.syncthreads()

    i = cuda.grid(1)
    if i < points.shape[0]:
        best = 0
        best_d = math.inf
        for c in range(KM_K):
            d = 0.0
            for f in range(KM_D):
                diff = points[i, f] - centroids[c, f]
                d += diff * diff
            if d < best_d:
                best_d = d
                best = c
        labels[i] = best
        cuda.atomic.add(local_counts, best, 1)
    cuda.syncthreads()

    if t < KM_K:
        cuda.atomic.add(counts, t, local_counts[t])


# --- y = A @ x with a thread a row: x staged MV_TPB entries at a time in shared memory, every thread walking its own
#     row of A (row-major)
@cuda.jit
def matvec_row_per_thread(A, x, y):
    xs = cuda.shared.array(MV_TPB, float32)
    row = cuda.grid(1)
    m, n = A.shape
    t = cuda.threadIdx.x
    acc = float32(0.0)
    for t0 in range(0, n, MV_TPB):
        j = t0 + t
        if j < n:
            xs[t] = x[j]
        else:
            xs[t] = 0.0
        cuda.syncthreads()
        if row < m:
            width = min(MV_TPB, n - t0)
            for jj in range(width):
                acc += A[row, t0 + jj] * xs[jj]
        cuda.syncthreads()
    if row < m:
        y[row] = acc


# --- y = A.T @ x with a thread a column: the walk goes down A's columns (consecutive threads, consecutive columns),
#     x staged in shared memory as above
@cuda.jit
def matvec_col_walk(A, x, y):
    xs = cuda.shared.array(MV_TPB, float32)
    col = cuda.grid(1)
    n, m = A.shape
    t = cuda.threadIdx.x
    acc = float32(0.0)
    for t0 in range(0, n, MV_TPB):
        i = t0 + t
        xs[t] = x[i] if i < n else float32(0.0)
        cuda.syncthreads()
        if col < m:
            for ii in range(min(MV_TPB, n - t0)):
                acc += A[t0 + ii, col] * xs[ii]
        cuda.syncthreads()
    if col < m:
        y[col] = acc


# --- C[b] = A[b] @ B[b] for a batch of small matrices, the batch on blockIdx.z, float64 TPB x TPB shared tiles
@cuda.jit
def batched_matmul_f64(A, B, C):
    sA = cuda.shared.array((BM_TPB, BM_TPB), float64)
    sB = cuda.shared.array((BM_TPB, BM_TPB), float64)
    batch = cuda.blockIdx.z
    col, row = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    M = A.shape[1]
    K = A.shape[2]
    N = B.shape[2]

    acc = 0.0
    for t in range((K + BM_TPB - 1) // BM_TPB):
        k_a = t * BM_TPB + tx
        k_b = t * BM_TPB + ty
        if row < M and k_a < K:
            sA[ty, tx] = A[batch, row, k_a]
        else:
            sA[ty, tx] = 0.0
        if col < N and k_b < K:
            sB[ty, tx] = B[batch, k_b, col]
        else:
            sB[ty, tx] = 0.0
        cuda.syncthreads()
        for k in range(BM_TPB):
            acc += sA[ty, k] * sB[k, tx]
        cuda.syncthreads()
    if row < M and col < N:
        C[batch, row, col] = acc


# ==== warp primitives ==================================================================================================

@cuda.jit(device=True, inline='always')
def warp_reduce_sum(val):
    offset = 16
    while offset > 0:
        val += cuda.shfl_down_sync(FULL_MASK, val, offset)
        offset //= 2
    return val


# --- a grid-stride sum: each warp reduced by shfl_down_sync, the warps' sums through shared memory, the first warp
#     finishing them with a shfl_xor_sync butterfly, one atomic add a block
@cuda.jit
def block_sum_shfl(x, out, n):
    warp_sums = cuda.shared.array(32, float32)
    lane = cuda.threadIdx.x % 32
    wid = cuda.threadIdx.x // 32
    v = float32(0.0)
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        v += x[i]
    v = warp_reduce_sum(v)
    if lane == 0:
        warp_sums[wid] = v
    cuda.syncthreads()
    if wid == 0:
        nwarps = cuda.blockDim.x // 32
        v = warp_sums[lane] if lane < nwarps else float32(0.0)
        mask = 16
        while mask > 0:
            v += cuda.shfl_xor_sync(FULL_MASK, v, mask)
            mask //= 2
        if lane == 0:
            cuda.atomic.add(out, 0, v)


# --- stream compaction of the positive values: a warp's survivors ranked by ballot_sync + popc, the warps' counts
#     scanned by thread 0, the block's survivors packed in shared memory and written as one contiguous run at the
#     block's segment of the output, the count beside it
@cuda.jit
def compact_positive(x, out, block_counts, n):
    buf = cuda.shared.array(CP_TPB, float32)
    warp_off = cuda.shared.array(CP_WARPS, int32)
    total = cuda.shared.array(1, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    lane = t & 31
    wid = t >> 5

    v = x[i] if i < n else float32(-1.0)
    keep = v > 0.0
    ballot = cuda.ballot_sync(FULL_MASK, keep)
    rank = cuda.popc(ballot & ((1 << lane) - 1))
    if lane == 0:
        warp_off[wid] = cuda.popc(ballot)
    cuda.syncthreads()
    if t == 0:
        s = 0
        for w in range(CP_WARPS):
            c = warp_off[w]
            warp_off[w] = s
            s += c
        total[0] = s
    cuda.syncthreads()
    if keep:
        buf[warp_off[wid] + rank] = v
    cuda.syncthreads()
    if t < total[0]:
        out[cuda.blockIdx.x * CP_TPB + t] = buf[t]
    if t == 0:
        block_counts[cuda.blockIdx.x] = total[0]


# --- warp-aggregated histogram: lanes holding the same key found by match_any_sync over the active lanes, the
#     lowest of them adding the group's size to the shared bin
@cuda.jit
def warp_aggregated_hist(keys, bins, n):
    sh = cuda.shared.array(AH_BINS, int32)
    t = cuda.threadIdx.x
    for b in range(t, AH_BINS, cuda.blockDim.x):
        sh[b] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < n:
        k = keys[i]
        active = cuda.activemask()
        peers = cuda.match_any_sync(active, k)
        leader = cuda.ffs(peers) - 1
        if (t & 31) == leader:
            cuda.atomic.add(sh, k, cuda.popc(peers))
    cuda.syncthreads()
    for b in range(t, AH_BINS, cuda.blockDim.x):
        cnt = sh[b]
        if cnt != 0:
            cuda.atomic.add(bins, b, cnt)


# ==== atomics ==========================================================================================================

# --- a weighted histogram: int32 counts and float32 weight sums in shared bins by atomic adds, merged into the global
#     bins; the per-bin largest block count kept by an int32 atomic max
@cuda.jit
def weighted_hist(idx, w, counts, sums, peak, n):
    s_cnt = cuda.shared.array(WH_BINS, int32)
    s_sum = cuda.shared.array(WH_BINS, float32)
    t = cuda.threadIdx.x
    for b in range(t, WH_BINS, cuda.blockDim.x):
        s_cnt[b] = 0
        s_sum[b] = 0.0
    cuda.syncthreads()
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        b = idx[i]
        cuda.atomic.add(s_cnt, b, 1)
        cuda.atomic.add(s_sum, b, w[i])
    cuda.syncthreads()
    for b in range(t, WH_BINS, cuda.blockDim.x):
        c = s_cnt[b]
        if c > 0:
            cuda.atomic.add(counts, b, c)
            cuda.atomic.add(sums, b, s_sum[b])
            cuda.atomic.max(peak, b, c)


# --- a shared ring of RING slots holding the indices of values over the threshold: each claims the next slot by
#     atomic.inc (wrapping at RING), swaps its index in by atomic.exch (an evicted occupant counted), and takes one
#     credit by atomic.dec; the ring, the evictions and the credits left are written per block
@cuda.jit
def ring_claim(x, thresh, ring_out, evicted, credits_out, n):
    ring = cuda.shared.array(RING, int32)
    head = cuda.shared.array(1, uint32)
    credits = cuda.shared.array(1, uint32)
    gone = cuda.shared.array(1, int32)
    t = cuda.threadIdx.x
    if t < RING:
        ring[t] = -1
    if t == 0:
        head[0] = 0
        credits[0] = 1000
        gone[0] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < n:
        if x[i] > thresh:
            slot = cuda.atomic.inc(head, 0, uint32(RING - 1))
            old = cuda.atomic.exch(ring, slot, int32(i))
            if old >= 0:
                cuda.atomic.add(gone, 0, 1)
            cuda.atomic.dec(credits, 0, uint32(1000))
    cuda.syncthreads()
    b = cuda.blockIdx.x
    if t < RING:
        ring_out[b, t] = ring[t]
    if t == 0:
        evicted[b] = gone[0]
        credits_out[b] = credits[0]


# ==== eager signatures, transposes =====================================================================================

# --- a naive transpose compiled eagerly for any-layout 2-D float32 arrays (layout A: the strides come from the
#     arrays at run time): reads along rows, writes down columns
@cuda.jit("void(float32[:,:], float32[:,:])")
def transpose_naive_any(src, dst):
    x, y = cuda.grid(2)
    rows, cols = src.shape
    if y < rows and x < cols:
        dst[x, y] = src[y, x]


# --- the classic 32x8-thread tiled transpose with a padded (32, 33) tile, compiled eagerly for C-contiguous arrays
#     (layout C) with an int32 size
@cuda.jit("void(float32[:, ::1], float32[:, ::1], int32)")
def transpose_tiled_c(idata, odata, width):
    tile = cuda.shared.array((TILE_DIM, TILE_PAD), float32)
    x = cuda.blockIdx.x * TILE_DIM + cuda.threadIdx.x
    y = cuda.blockIdx.y * TILE_DIM + cuda.threadIdx.y
    height = idata.shape[0]
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        if x < width and y + j < height:
            tile[cuda.threadIdx.y + j, cuda.threadIdx.x] = idata[y + j, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE_DIM + cuda.threadIdx.x
    y = cuda.blockIdx.x * TILE_DIM + cuda.threadIdx.y
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        if x < height and y + j < width:
            odata[y + j, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y + j]


# --- the Gram matrix G = a.T @ a, the transpose taken inside the kernel (a.T is a strided view) and indexed as any
#     array; one thread an entry of G
@cuda.jit
def gram_via_transpose(a, g):
    at = a.T
    i, j = cuda.grid(2)
    n = at.shape[0]
    m = at.shape[1]
    if i < n and j < n:
        s = float32(0.0)
        for k in range(m):
            s += at[i, k] * a[k, j]
        g[i, j] = s


# ==== small and wide element types =====================================================================================

# --- a 5-tap box sum of int8 samples into uint16 (offset so that it stays non-negative), the samples and their two-
#     cell halos staged in an int8 shared array
@cuda.jit
def box5_i8_u16(x, y, n):
    tile = cuda.shared.array(BOX_SEG, int8)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t + BOX_R] = x[i] if i < n else int8(0)
    if t < BOX_R:
        lo = i - BOX_R
        tile[t] = x[lo] if lo >= 0 else int8(0)
        hi = i + BOX_TPB
        tile[t + BOX_TPB + BOX_R] = x[hi] if hi < n else int8(0)
    cuda.syncthreads()
    if i < n:
        acc = int32(0)
        for k in range(2 * BOX_R + 1):
            acc += int32(tile[t + k])
        y[i] = uint16(acc + 640)


# --- a float16 tiled transpose (32 x 33 half tile) that scales each element by a half factor with cuda.fp16.hmul
@cuda.jit
def transpose_scale_f16(idata, odata, scale):
    tile = cuda.shared.array((TILE_DIM, TILE_PAD), float16)
    rows, cols = idata.shape
    x = cuda.blockIdx.x * TILE_DIM + cuda.threadIdx.x
    y = cuda.blockIdx.y * TILE_DIM + cuda.threadIdx.y
    s = scale[0]
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        if x < cols and y + j < rows:
            tile[cuda.threadIdx.y + j, cuda.threadIdx.x] = cuda.fp16.hmul(idata[y + j, x], s)
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE_DIM + cuda.threadIdx.x
    y = cuda.blockIdx.x * TILE_DIM + cuda.threadIdx.y
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        if x < rows and y + j < cols:
            odata[y + j, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y + j]


# --- radix-2 Stockham FFTs of FFT_N complex128 points, FFT_PER_BLOCK transforms a block (threadIdx.y), a butterfly a
#     thread a stage, ping-ponging between two shared buffers (no bit reversal: the Stockham index expansion)
@cuda.jit
def stockham_fft_c128(x, y):
    buf0 = cuda.shared.array((FFT_PER_BLOCK, FFT_N), complex128)
    buf1 = cuda.shared.array((FFT_PER_BLOCK, FFT_N), complex128)
    j = cuda.threadIdx.x
    row = cuda.threadIdx.y
    sig = cuda.blockIdx.x * FFT_PER_BLOCK + row
    half = FFT_N // 2
    buf0[row, j] = x[sig, j]
    buf0[row, j + half] = x[sig, j + half]
    cuda.syncthreads()

    ns = 1
    src_is_0 = True
    while ns < FFT_N:
        if src_is_0:
            v0 = buf0[row, j]
            v1 = buf0[row, j + half]
        else:
            v0 = buf1[row, j]
            v1 = buf1[row, j + half]
        k = j % ns
        angle = -2.0 * math.pi * k / (ns * 2)
        v1 = v1 * cmath.exp(1j * angle)
        idx = (j // ns) * ns * 2 + k
        if src_is_0:
            buf1[row, idx] = v0 + v1
            buf1[row, idx + ns] = v0 - v1
        else:
            buf0[row, idx] = v0 + v1
            buf0[row, idx + ns] = v0 - v1
        cuda.syncthreads()
        src_is_0 = not src_is_0
        ns *= 2

    if src_is_0:
        y[sig, j] = buf0[row, j]
        y[sig, j + half] = buf0[row, j + half]
    else:
        y[sig, j] = buf1[row, j]
        y[sig, j + half] = buf1[row, j + half]


# ==== dynamic shared memory ============================================================================================

# --- one row a block: the row copied into dynamically sized shared memory (n_cols floats, sized at launch), its max
#     and its sum of exponentials by a shared tree over the block, then the normalised row written out
@cuda.jit
def softmax_rows_dyn(x, y):
    row_buf = cuda.shared.array(0, float32)
    red = cuda.shared.array(SM_TPB, float32)
    r = cuda.blockIdx.x
    t = cuda.threadIdx.x
    nt = cuda.blockDim.x
    n_cols = x.shape[1]

    m = -math.inf
    for c in range(t, n_cols, nt):
        v = x[r, c]
        row_buf[c] = v
        m = max(m, v)
    red[t] = m
    cuda.syncthreads()
    s = nt // 2
    while s > 0:
        if t < s:
            red[t] = max(red[t], red[t + s])
        cuda.syncthreads()
        s //= 2
    row_max = red[0]
    cuda.syncthreads()

    acc = float32(0.0)
    for c in range(t, n_cols, nt):
        e = math.exp(row_buf[c] - row_max)
        row_buf[c] = e
        acc += e
    red[t] = acc
    cuda.syncthreads()
    s = nt // 2
    while s > 0:
        if t < s:
            red[t] += red[t + s]
        cuda.syncthreads()
        s //= 2
    inv = 1.0 / red[0]

    for c in range(t, n_cols, nt):
        y[r, c] = row_buf[c] * inv
