"""A fourth fresh batch of Numba CUDA kernels written as people write them (Numba's docs and examples, GPU-Puzzles,
course notebooks), run through `smemlab analyze FILE.py` as a held-out checker would (written for smemlab)."""

import math

import numpy as np
from numba import cuda, float32, float64, int32, int64, uint32

TILE = 16
COEF = np.array([0.25, 0.5, 0.25], dtype=np.float32)


# --- tiled matmul in double precision, 16x16 blocks, shared tiles of float64
@cuda.jit
def matmul_f64_tiled(a, b, c):
    sa = cuda.shared.array((TILE, TILE), float64)
    sb = cuda.shared.array((TILE, TILE), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row, col = cuda.grid(2)
    n = a.shape[1]
    acc = 0.0
    for t in range((n + TILE - 1) // TILE):
        k = t * TILE
        sa[ty, tx] = a[row, k + tx] if row < a.shape[0] and k + tx < n else 0.0
        sb[ty, tx] = b[k + ty, col] if k + ty < n and col < b.shape[1] else 0.0
        cuda.syncthreads()
        for j in range(TILE):
            acc += sa[ty, j] * sb[j, tx]
        cuda.syncthreads()
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc


# --- one explicit heat-equation step on a 3-D grid with a 3-D launch
@cuda.jit
def heat3d_step(u, out, alpha):
    i, j, k = cuda.grid(3)
    nz, ny, nx = u.shape
    if 0 < i < nx - 1 and 0 < j < ny - 1 and 0 < k < nz - 1:
        lap = (u[k, j, i - 1] + u[k, j, i + 1] + u[k, j - 1, i] + u[k, j + 1, i] + u[k - 1, j, i] + u[k + 1, j, i]
               - 6.0 * u[k, j, i])
        out[k, j, i] = u[k, j, i] + alpha * lap
    elif i < nx and j < ny and k < nz:
        out[k, j, i] = u[k, j, i]


# --- block sum: butterfly within each warp with shfl_xor_sync, then the warp sums through shared memory
@cuda.jit
def sum_xor_shared(x, partial):
    warp_sums = cuda.shared.array(32, float32)
    i = cuda.grid(1)
    v = x[i] if i < x.size else float32(0.0)
    offset = 16
    while offset > 0:
        v += cuda.shfl_xor_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    lane = cuda.laneid
    wid = cuda.threadIdx.x // 32
    if lane == 0:
        warp_sums[wid] = v
    cuda.syncthreads()
    if wid == 0:
        nw = cuda.blockDim.x // 32
        v = warp_sums[lane] if lane < nw else float32(0.0)
        offset = 16
        while offset > 0:
            v += cuda.shfl_xor_sync(0xFFFFFFFF, v, offset)
            offset //= 2
        if lane == 0:
            partial[cuda.blockIdx.x] = v


# --- bitonic sort of int64 keys, one block sorts 512 keys in shared memory (256 threads, two keys each)
@cuda.jit
def bitonic_int64(keys, out):
    s = cuda.shared.array(512, int64)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * 512
    s[t] = keys[base + t]
    s[t + 256] = keys[base + t + 256]
    cuda.syncthreads()
    size = 2
    while size <= 512:
        stride = size // 2
        while stride > 0:
            pos = 2 * t - (t & (stride - 1))
            up = (pos & size) == 0
            a = s[pos]
            b = s[pos + stride]
            if (a > b) == up:
                s[pos] = b
                s[pos + stride] = a
            cuda.syncthreads()
            stride //= 2
        size *= 2
    out[base + t] = s[t]
    out[base + t + 256] = s[t + 256]


# --- per-channel histograms of an interleaved RGB uint8 image [H, W, 3]: shared (3, 256) bins by atomics over a
#     grid-stride loop of pixels, merged into the global [3, 256] bins with tuple-indexed atomics
@cuda.jit
def rgb_hist_u8(img, hist):
    bins = cuda.shared.array((3, 256), uint32)
    t = cuda.threadIdx.x
    for b in range(t, 256, cuda.blockDim.x):
        bins[0, b] = 0
        bins[1, b] = 0
        bins[2, b] = 0
    cuda.syncthreads()
    h = img.shape[0]
    w = img.shape[1]
    for p in range(cuda.grid(1), h * w, cuda.gridsize(1)):
        r = p // w
        c = p - r * w
        cuda.atomic.add(bins, (0, img[r, c, 0]), 1)
        cuda.atomic.add(bins, (1, img[r, c, 1]), 1)
        cuda.atomic.add(bins, (2, img[r, c, 2]), 1)
    cuda.syncthreads()
    for b in range(t, 256, cuda.blockDim.x):
        for ch in range(3):
            v = bins[ch, b]
            if v != 0:
                cuda.atomic.add(hist, (ch, b), v)


# --- an n-body acceleration step over float32 structure-of-arrays with 2-D blocks (64, 4): each body's
#     interactions are split over 4 threads (the y index), whose partial forces are summed through shared memory
@cuda.jit
def nbody_split4(px, py, pz, m, ax, ay, az, soft2):
    tile = cuda.shared.array((4, 256), float32)  # x, y, z, mass of 256 bodies
    part = cuda.shared.array((3, 4, 64), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    flat = ty * 64 + tx
    i = cuda.blockIdx.x * 64 + tx
    n = px.size
    xi = px[i] if i < n else float32(0.0)
    yi = py[i] if i < n else float32(0.0)
    zi = pz[i] if i < n else float32(0.0)
    f0 = float32(0.0)
    f1 = float32(0.0)
    f2 = float32(0.0)
    for base in range(0, n, 256):
        j = base + flat
        ok = j < n
        tile[0, flat] = px[j] if ok else float32(0.0)
        tile[1, flat] = py[j] if ok else float32(0.0)
        tile[2, flat] = pz[j] if ok else float32(0.0)
        tile[3, flat] = m[j] if ok else float32(0.0)
        cuda.syncthreads()
        for q in range(ty, 256, 4):
            dx = tile[0, q] - xi
            dy = tile[1, q] - yi
            dz = tile[2, q] - zi
            inv = float32(1.0) / math.sqrt(dx * dx + dy * dy + dz * dz + soft2)
            s = tile[3, q] * inv * inv * inv
            f0 = cuda.fma(dx, s, f0)
            f1 = cuda.fma(dy, s, f1)
            f2 = cuda.fma(dz, s, f2)
        cuda.syncthreads()
    part[0, ty, tx] = f0
    part[1, ty, tx] = f1
    part[2, ty, tx] = f2
    cuda.syncthreads()
    if ty == 0 and i < n:
        ax[i] = part[0, 0, tx] + part[0, 1, tx] + part[0, 2, tx] + part[0, 3, tx]
        ay[i] = part[1, 0, tx] + part[1, 1, tx] + part[1, 2, tx] + part[1, 3, tx]
        az[i] = part[2, 0, tx] + part[2, 1, tx] + part[2, 2, tx] + part[2, 3, tx]


# --- inclusive Hillis-Steele scan with double buffering in one shared array of two halves
@cuda.jit
def scan_double_buffer(x, out):
    buf = cuda.shared.array((2, 256), int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[0, t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    src = 0
    offset = 1
    while offset < cuda.blockDim.x:
        dst = 1 - src
        v = buf[src, t]
        if t >= offset:
            v += buf[src, t - offset]
        buf[dst, t] = v
        cuda.syncthreads()
        src = dst
        offset *= 2
    if i < x.size:
        out[i] = buf[src, t]


# --- row-scaling of a 2-D array by explicit threadIdx/blockIdx/blockDim arithmetic (no cuda.grid)
@cuda.jit("void(float32[:,:], float32[:], float32[:,:])")
def scale_rows_explicit(a, s, out):
    c = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    r = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if r < a.shape[0] and c < a.shape[1]:
        out[r, c] = a[r, c] * s[r]


# --- claim scattered slots with compare-and-swap on int32 (an odd stride over a table of a power-of-two size:
#     every key gets a slot of its own, so no lane ever loses a race and the counts do not depend on timing)
@cuda.jit
def scatter_claim_cas(keys, table, slots):
    i = cuda.grid(1)
    if i >= keys.size:
        return
    cap = table.size
    pos = (i * 37) % cap
    old = cuda.atomic.compare_and_swap(table[pos:pos + 1], -1, keys[i])
    slots[i] = pos if old == -1 else -1


# --- a clamped fused multiply-add with cuda.fma and cuda.selp on int16 / uint8 data
@cuda.jit
def fma_selp_int16(a, b, mask, out, gain):
    i = cuda.grid(1)
    if i < out.size:
        x = float32(a[i])
        y = float32(b[i])
        v = cuda.fma(x, float32(gain), y)
        keep = mask[i] != 0
        v = cuda.selp(keep, v, float32(0.0))
        v = min(max(v, float32(-32768.0)), float32(32767.0))
        out[i] = int16_of(v)


@cuda.jit(device=True, inline=True)
def int16_of(v):
    return np.int16(v)


# --- a device function with a local array of 16: each thread sorts a 16-element window and keeps its 4th smallest
@cuda.jit(device=True)
def _kth_of_window(x, start, k):
    win = cuda.local.array(16, float32)
    for j in range(16):
        win[j] = x[start + j] if start + j < x.size else float32(3.0e38)
    for a in range(1, 16):
        v = win[a]
        b = a - 1
        while b >= 0 and win[b] > v:
            win[b + 1] = win[b]
            b -= 1
        win[b + 1] = v
    return win[k]


@cuda.jit
def window_kth(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = _kth_of_window(x, i, 3)


# --- a 1-D 3-tap filter from constant memory with a shared halo, grid-stride over tiles
@cuda.jit
def smooth_const_halo(x, y):
    c = cuda.const.array_like(COEF)
    tile = cuda.shared.array(258, float32)
    t = cuda.threadIdx.x
    n = x.size
    for start in range(cuda.blockIdx.x * 256, n, cuda.gridDim.x * 256):
        g = start + t
        tile[t + 1] = x[g] if g < n else float32(0.0)
        if t == 0:
            tile[0] = x[start - 1] if start > 0 else float32(0.0)
        if t == 255:
            tile[257] = x[g + 1] if g + 1 < n else float32(0.0)
        cuda.syncthreads()
        if g < n:
            y[g] = c[0] * tile[t] + c[1] * tile[t + 1] + c[2] * tile[t + 2]
        cuda.syncthreads()


# --- column-major style complex64 scaling by a phase, complex64 2-D arrays
@cuda.jit
def phase_shift_c64(z, out, k):
    r, c = cuda.grid(2)
    if r < z.shape[0] and c < z.shape[1]:
        ang = k * float32(c)
        w = complex(math.cos(ang), math.sin(ang))
        out[r, c] = z[r, c] * w


# --- a ballot/popc stream compaction of positive values with one global int32 counter per block (activemask)
@cuda.jit
def positives_per_warp(x, warp_counts):
    i = cuda.grid(1)
    v = x[i] if i < x.size else float32(-1.0)
    mask = cuda.activemask()
    bits = cuda.ballot_sync(mask, v > 0)
    if cuda.laneid == 0:
        warp_counts[i // 32] = cuda.popc(bits)


# --- a 3-D int64 accumulation by atomics: per (z) plane counts of values over a threshold, integer atomics
@cuda.jit
def plane_counts_3d(v, thresh, counts):
    x, y, z = cuda.grid(3)
    if z < v.shape[0] and y < v.shape[1] and x < v.shape[2]:
        if v[z, y, x] > thresh:
            cuda.atomic.add(counts, z, 1)
