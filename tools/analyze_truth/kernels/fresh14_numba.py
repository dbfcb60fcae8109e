"""A fourteenth fresh batch of Numba CUDA kernels, as scientific Python programmers write them for their own codes: a
checkerboard Ising Metropolis sweep (int8 spins, the tile and its periodic halo in shared memory, the random numbers
passed in as an array); an SPH density sum (poly6) over a cell list of particles sorted by cell; particle-in-cell
charge deposition (cloud-in-cell with cuda.atomic.add on a periodic 2-D grid, and nearest-grid-point into a grid kept
in shared memory, flushed by atomics); image kernels on uint8 (a Sobel filter whose tile and halo live in dynamically
sized shared memory, any 2-D block; a 5x5 morphological erosion on a fixed shared window); a two-pass integral image
(a row scan in shared memory with a carry between chunks, a column pass a thread a column); a FIR filter with its taps
in cuda.const.array_like and the samples staged in shared memory with the filter's history; a moving average by a
block scan over overlapping segments; k-mer counting (uint8 DNA codes packed into int64 keys, a multiplicative hash
into a table counted with cuda.atomic.add, and a k = 4 spectrum in a shared histogram); CSR SpMV a warp a row with
shfl_down_sync; a Jacobi step that reduces its residual per block in shared memory (float64); a conjugate-gradient
dot product (shfl_xor_sync, a shared partial a warp, one float64 atomic a block); a lower-triangular tile solve by
forward substitution, a thread a right-hand side; a complex64 correlation against a template staged in shared memory;
a float16 scale by plain conversions; a boolean-mask compaction through an atomic counter; 3x3 inverses in 2-D
cuda.local.array matrices; a particle push through device functions returning tuples (inline and not); a gather with
int64 index arithmetic over explicit, very large strides on a 3-D grid."""

import math

import numpy as np
from numba import complex64, cuda, float32, float64, int8, int32, int64, uint8, uint64
from numba.types import float16

FULL_MASK = 0xFFFFFFFF

# Ising
IS_T = 16
IS_S = IS_T + 2  # with the halo

# erosion
ER_T = 16
ER_R = 2
ER_S = ER_T + 2 * ER_R

# integral image
IR_TPB = 256

# FIR: a 31-tap Hamming-windowed sinc low-pass at 0.2 of the sample rate
FIR_TPB = 256
FIR_NT = 31
FIR_BUF = FIR_TPB + FIR_NT - 1
_m = np.arange(FIR_NT) - (FIR_NT - 1) / 2
_h = 0.4 * np.sinc(0.4 * _m) * np.hamming(FIR_NT)
FIR_TAPS = (_h / _h.sum()).astype(np.float32)

# moving average
MA_TPB = 256
MA_W = 17
MA_OUT = MA_TPB - MA_W + 1

# PIC nearest grid point
NGP_N = 32

# k-mers
KMER_TABLE_BITS = 12
SPEC_K = 4
SPEC_BINS = 1 << (2 * SPEC_K)

# triangular solve
TS = 32

# correlation
XC_M = 64


# ==== statistical physics, particles ===================================================================================

# --- one colour of a checkerboard Metropolis sweep of the 2-D Ising model: the block's 16x16 spins and a one-site halo
#     (periodic wrap) in a shared int8 tile; a site of the colour flips if dE <= 0 or rand < exp(-beta dE)
@cuda.jit
def ising_sweep_shared(spins, rand, beta, color):
    s = cuda.shared.array((IS_S, IS_S), int8)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    j, i = cuda.grid(2)
    L, M = spins.shape
    li = ty + 1
    lj = tx + 1

    if i < L and j < M:
        s[li, lj] = spins[i, j]
        if ty == 0:
            s[0, lj] = spins[(i - 1 + L) % L, j]
        if ty == IS_T - 1 or i == L - 1:
            s[li + 1, lj] = spins[(i + 1) % L, j]
        if tx == 0:
            s[li, 0] = spins[i, (j - 1 + M) % M]
        if tx == IS_T - 1 or j == M - 1:
            s[li, lj + 1] = spins[i, (j + 1) % M]
    cuda.syncthreads()

    if i < L and j < M and (i + j) % 2 == color:
        nb = int32(s[li - 1, lj]) + int32(s[li + 1, lj]) + int32(s[li, lj - 1]) + int32(s[li, lj + 1])
        dE = 2 * int32(s[li, lj]) * nb
        if dE <= 0 or rand[i, j] < math.exp(-beta * dE):
            spins[i, j] = -s[li, lj]


# --- SPH density: rho_i = m * sum_j W_poly6(|r_i - r_j|, h) over the 27 cells around particle i; the particles are
#     sorted by cell and each cell's run is [cell_start[c], cell_end[c])
@cuda.jit
def sph_density_cells(pos, cell_start, cell_end, rho, h, mass, ncell, cell_size):
    i = cuda.grid(1)
    if i >= pos.shape[0]:
        return
    xi = pos[i, 0]
    yi = pos[i, 1]
    zi = pos[i, 2]
    cx = min(int(xi / cell_size), ncell - 1)
    cy = min(int(yi / cell_size), ncell - 1)
    cz = min(int(zi / cell_size), ncell - 1)
    h2 = h * h
    acc = 0.0
    for dz in range(-1, 2):
        z = cz + dz
        if z < 0 or z >= ncell:
            continue
        for dy in range(-1, 2):
            y = cy + dy
            if y < 0 or y >= ncell:
                continue
            for dx in range(-1, 2):
                x = cx + dx
                if x < 0 or x >= ncell:
                    continue
                c = (z * ncell + y) * ncell + x
                for j in range(cell_start[c], cell_end[c]):
                    rx = xi - pos[j, 0]
                    ry = yi - pos[j, 1]
                    rz = zi - pos[j, 2]
                    r2 = rx * rx + ry * ry + rz * rz
                    if r2 < h2:
                        d = h2 - r2
                        acc += d * d * d
    poly6 = 315.0 / (64.0 * math.pi * h ** 9)
    rho[i] = mass * poly6 * acc


# --- PIC cloud-in-cell charge deposition: each particle spreads q / (dx dy) over the 4 nodes around it with bilinear
#     weights, periodic in x and y, straight into the global grid by atomics
@cuda.jit
def deposit_cic_atomic(px, py, q, rho, dx, dy):
    i = cuda.grid(1)
    if i < px.shape[0]:
        ny, nx = rho.shape
        xg = px[i] / dx
        yg = py[i] / dy
        ix = int(math.floor(xg))
        iy = int(math.floor(yg))
        fx = xg - ix
        fy = yg - iy
        ix0 = ix % nx
        iy0 = iy % ny
        ix1 = (ix + 1) % nx
        iy1 = (iy + 1) % ny
        w = q[i] / (dx * dy)
        cuda.atomic.add(rho, (iy0, ix0), w * (1.0 - fx) * (1.0 - fy))
        cuda.atomic.add(rho, (iy0, ix1), w * fx * (1.0 - fy))
        cuda.atomic.add(rho, (iy1, ix0), w * (1.0 - fx) * fy)
        cuda.atomic.add(rho, (iy1, ix1), w * fx * fy)


# --- PIC nearest-grid-point deposition, privatised: the whole 32x32 grid in shared memory, the block's particles
#     (grid-stride) added with shared atomics, then the non-empty nodes flushed to the global grid with atomics
@cuda.jit
def deposit_ngp_shared(px, py, q, rho, inv_dx):
    g = cuda.shared.array((NGP_N, NGP_N), float32)
    t = cuda.threadIdx.x
    nt = cuda.blockDim.x
    for k in range(t, NGP_N * NGP_N, nt):
        g[k // NGP_N, k % NGP_N] = 0.0
    cuda.syncthreads()

    for p in range(cuda.grid(1), px.shape[0], cuda.gridsize(1)):
        ix = min(max(int(px[p] * inv_dx), 0), NGP_N - 1)
        iy = min(max(int(py[p] * inv_dx), 0), NGP_N - 1)
        cuda.atomic.add(g, (iy, ix), q[p])
    cuda.syncthreads()

    for k in range(t, NGP_N * NGP_N, nt):
        v = g[k // NGP_N, k % NGP_N]
        if v != 0.0:
            cuda.atomic.add(rho, (k // NGP_N, k % NGP_N), v)


# ==== images ===========================================================================================================

# --- Sobel gradient magnitude of a uint8 image: the block's pixels plus a one-pixel halo (clamped at the image's
#     edges) in dynamically sized shared memory, (blockDim.y + 2) x (blockDim.x + 2) bytes, filled by a strided loop
@cuda.jit
def sobel_u8_dyn(img, out):
    tile = cuda.shared.array(0, uint8)
    bw = cuda.blockDim.x
    bh = cuda.blockDim.y
    tw = bw + 2
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    H, W = img.shape
    x0 = cuda.blockIdx.x * bw - 1
    y0 = cuda.blockIdx.y * bh - 1

    for k in range(ty * bw + tx, (bh + 2) * tw, bw * bh):
        yy = min(max(y0 + k // tw, 0), H - 1)
        xx = min(max(x0 + k % tw, 0), W - 1)
        tile[k] = img[yy, xx]
    cuda.syncthreads()

    x = x0 + 1 + tx
    y = y0 + 1 + ty
    if x < W and y < H:
        c = (ty + 1) * tw + tx + 1
        p00 = int32(tile[c - tw - 1])
        p01 = int32(tile[c - tw])
        p02 = int32(tile[c - tw + 1])
        p10 = int32(tile[c - 1])
        p12 = int32(tile[c + 1])
        p20 = int32(tile[c + tw - 1])
        p21 = int32(tile[c + tw])
        p22 = int32(tile[c + tw + 1])
        gx = (p02 + 2 * p12 + p22) - (p00 + 2 * p10 + p20)
        gy = (p20 + 2 * p21 + p22) - (p00 + 2 * p01 + p02)
        mag = math.sqrt(float32(gx * gx + gy * gy))
        out[y, x] = uint8(min(mag, float32(255.0)))


# --- grey-scale erosion by a 5x5 square: a 20x20 shared window (the 16x16 block and a 2-pixel apron, 255 outside
#     the image), loaded in two passes of the block, then the window's minimum
@cuda.jit
def erode5_u8_tile(img, out):
    win = cuda.shared.array((ER_S, ER_S), uint8)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    H, W = img.shape
    bx0 = cuda.blockIdx.x * ER_T - ER_R
    by0 = cuda.blockIdx.y * ER_T - ER_R

    k = ty * ER_T + tx
    while k < ER_S * ER_S:
        r = k // ER_S
        c = k - r * ER_S
        gy = by0 + r
        gx = bx0 + c
        if 0 <= gy < H and 0 <= gx < W:
            win[r, c] = img[gy, gx]
        else:
            win[r, c] = 255
        k += ER_T * ER_T
    cuda.syncthreads()

    x = bx0 + ER_R + tx
    y = by0 + ER_R + ty
    if x < W and y < H:
        m = win[ty, tx]
        for dy in range(2 * ER_R + 1):
            for dx in range(2 * ER_R + 1):
                v = win[ty + dy, tx + dx]
                if v < m:
                    m = v
        out[y, x] = m


# --- integral image, pass 1: each row's inclusive prefix sum, IR_TPB pixels at a time scanned in shared memory
#     (Hillis-Steele in place, read / sync / add / sync) with the running total carried between chunks; rows
#     grid-strided over the blocks
@cuda.jit
def integral_row_scan(img, rowsum):
    s = cuda.shared.array(IR_TPB, int32)
    t = cuda.threadIdx.x
    H, W = img.shape
    for row in range(cuda.blockIdx.x, H, cuda.gridDim.x):
        carry = 0
        for c0 in range(0, W, IR_TPB):
            c = c0 + t
            s[t] = int32(img[row, c]) if c < W else 0
            cuda.syncthreads()
            off = 1
            while off < IR_TPB:
                v = s[t - off] if t >= off else 0
                cuda.syncthreads()
                s[t] += v
                cuda.syncthreads()
                off *= 2
            if c < W:
                rowsum[row, c] = s[t] + carry
            carry += s[IR_TPB - 1]
            cuda.syncthreads()


# --- integral image, pass 2: a thread a column walks down the rows adding up the row sums (coalesced across the warp)
@cuda.jit
def integral_col_pass(rowsum, out):
    c = cuda.grid(1)
    H, W = rowsum.shape
    if c < W:
        acc = 0
        for r in range(H):
            acc += rowsum[r, c]
            out[r, c] = acc


# ==== signals ==========================================================================================================

# --- causal FIR y[i] = sum_k h[k] x[i - k]: the taps in constant memory, the block's samples and the FIR_NT - 1
#     samples before them (zeros before the signal) staged in shared memory
@cuda.jit
def fir_taps_shared(x, y):
    taps = cuda.const.array_like(FIR_TAPS)
    buf = cuda.shared.array(FIR_BUF, float32)
    t = cuda.threadIdx.x
    n = x.shape[0]
    base = cuda.blockIdx.x * FIR_TPB
    i = base + t
    buf[t + FIR_NT - 1] = x[i] if i < n else float32(0.0)
    if t < FIR_NT - 1:
        g = base - (FIR_NT - 1) + t
        buf[t] = x[g] if g >= 0 else float32(0.0)
    cuda.syncthreads()
    if i < n:
        acc = float32(0.0)
        for k in range(FIR_NT):
            acc += taps[k] * buf[t + FIR_NT - 1 - k]
        y[i] = acc


# --- trailing moving average over MA_W samples: a block loads MA_TPB samples starting MA_W - 1 before its MA_OUT
#     outputs, scans them in shared memory (float64, Hillis-Steele), and takes differences of the prefix sums
@cuda.jit
def moving_avg_scan(x, y):
    s = cuda.shared.array(MA_TPB, float64)
    t = cuda.threadIdx.x
    n = x.shape[0]
    g = cuda.blockIdx.x * MA_OUT - (MA_W - 1) + t
    s[t] = x[g] if 0 <= g < n else 0.0
    cuda.syncthreads()
    off = 1
    while off < MA_TPB:
        v = s[t - off] if t >= off else 0.0
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        off <<= 1
    if t >= MA_W - 1 and g < n:
        lo = s[t - MA_W] if t >= MA_W else 0.0
        y[g] = (s[t] - lo) / MA_W


# --- complex64 correlation against a template: out[lag] = sum_j a[lag + j] conj(b[j]), the template in shared memory,
#     a thread a lag
@cuda.jit
def xcorr_c64_template(a, b, out):
    bs = cuda.shared.array(XC_M, complex64)
    t = cuda.threadIdx.x
    m = b.shape[0]
    for k in range(t, m, cuda.blockDim.x):
        bs[k] = b[k]
    cuda.syncthreads()
    lag = cuda.grid(1)
    if lag < out.shape[0]:
        acc = complex64(0.0)
        for j in range(m):
            acc += a[lag + j] * bs[j].conjugate()
        out[lag] = acc


# ==== genomics =========================================================================================================

# --- k-mer counting: the k codes (0..3 = ACGT, 4 = N) from position i packed 2 bits each into an int64 key, skipped
#     if any is N; a Fibonacci hash of the key picks a slot of the 2**KMER_TABLE_BITS counters (atomic add)
@cuda.jit
def kmer_hash_count(seq, counts, k):
    i = cuda.grid(1)
    n = seq.shape[0]
    if i + k > n:
        return
    key = int64(0)
    for j in range(k):
        c = seq[i + j]
        if c > 3:
            return
        key = (key << 2) | int64(c)
    h = uint64(key) * uint64(0x9E3779B97F4A7C15)
    slot = int64(h >> uint64(64 - KMER_TABLE_BITS))
    cuda.atomic.add(counts, slot, 1)


# --- the k = 4 spectrum (256 bins) of a sequence: a shared histogram per block, grid-stride over positions, then
#     added into the global spectrum
@cuda.jit
def kmer4_spectrum_shared(seq, spectrum):
    hist = cuda.shared.array(SPEC_BINS, int32)
    t = cuda.threadIdx.x
    for b in range(t, SPEC_BINS, cuda.blockDim.x):
        hist[b] = 0
    cuda.syncthreads()
    n = seq.shape[0]
    for i in range(cuda.grid(1), n - SPEC_K + 1, cuda.gridsize(1)):
        key = 0
        ok = True
        for j in range(SPEC_K):
            c = seq[i + j]
            if c > 3:
                ok = False
            key = key * 4 + (c & 3)
        if ok:
            cuda.atomic.add(hist, key, 1)
    cuda.syncthreads()
    for b in range(t, SPEC_BINS, cuda.blockDim.x):
        if hist[b] > 0:
            cuda.atomic.add(spectrum, b, hist[b])


# ==== linear algebra ===================================================================================================

# --- CSR y = A x, a warp a row ("vector" kernel): the lanes stride the row's nonzeros, a shfl_down_sync tree sums them
@cuda.jit
def spmv_csr_warp_shfl(indptr, indices, data, x, y):
    tid = cuda.grid(1)
    row = tid // 32
    lane = cuda.threadIdx.x % 32
    if row < y.shape[0]:
        acc = 0.0
        for jj in range(indptr[row] + lane, indptr[row + 1], 32):
            acc += data[jj] * x[indices[jj]]
        off = 16
        while off > 0:
            acc += cuda.shfl_down_sync(FULL_MASK, acc, off)
            off //= 2
        if lane == 0:
            y[row] = acc


# --- one Jacobi sweep for -lap(u) = f (5 points, h2 = h*h), boundary copied; the squared update is summed per block
#     by a shared-memory tree and left in block_res for the host's convergence test
@cuda.jit
def jacobi_residual_f64(u, f, u_new, block_res, h2):
    red = cuda.shared.array(256, float64)
    j, i = cuda.grid(2)
    ny, nx = u.shape
    t = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    r = 0.0
    if 0 < i < ny - 1 and 0 < j < nx - 1:
        v = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] + h2 * f[i, j])
        u_new[i, j] = v
        d = v - u[i, j]
        r = d * d
    elif i < ny and j < nx:
        u_new[i, j] = u[i, j]
    red[t] = r
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            red[t] += red[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        block_res[cuda.blockIdx.y * cuda.gridDim.x + cuda.blockIdx.x] = red[0]


# --- CG's dot product <a, b> in float64: grid-stride partial sums, a shfl_xor_sync butterfly per warp, a shared
#     partial a warp, the first warp reducing those, one atomic add a block
@cuda.jit
def cg_dot_xor(a, b, out, n):
    partial = cuda.shared.array(32, float64)
    lane = cuda.threadIdx.x & 31
    wid = cuda.threadIdx.x >> 5
    acc = 0.0
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        acc += a[i] * b[i]
    m = 16
    while m > 0:
        acc += cuda.shfl_xor_sync(FULL_MASK, acc, m)
        m >>= 1
    if lane == 0:
        partial[wid] = acc
    cuda.syncthreads()
    if wid == 0:
        nw = (cuda.blockDim.x + 31) // 32
        v = partial[lane] if lane < nw else 0.0
        m = 16
        while m > 0:
            v += cuda.shfl_xor_sync(FULL_MASK, v, m)
            m >>= 1
        if lane == 0:
            cuda.atomic.add(out, 0, v)


# --- L X = B for a 32x32 lower-triangular tile: L and the block's 32 right-hand sides staged in shared memory, each
#     thread forward-substituting its own column
@cuda.jit
def trsm_lower_tile(L, B, X):
    Ls = cuda.shared.array((TS, TS), float32)
    Xs = cuda.shared.array((TS, TS), float32)
    t = cuda.threadIdx.x
    c = cuda.blockIdx.x * TS + t
    nrhs = B.shape[1]
    for r in range(TS):
        Ls[r, t] = L[r, t]
        Xs[r, t] = B[r, c] if c < nrhs else float32(0.0)
    cuda.syncthreads()
    if c < nrhs:
        for i in range(TS):
            acc = Xs[i, t]
            for k in range(i):
                acc -= Ls[i, k] * Xs[k, t]
            Xs[i, t] = acc / Ls[i, i]
        for r in range(TS):
            X[r, c] = Xs[r, t]


# --- batched 3x3 inverses by the adjugate: each thread copies its matrix into a (3, 3) cuda.local.array, builds the
#     cofactors with the (r + 1) % 3 trick into another, and writes the inverse and the determinant
@cuda.jit
def inv3x3_local(A, Ainv, det):
    i = cuda.grid(1)
    if i >= A.shape[0]:
        return
    m = cuda.local.array((3, 3), float32)
    adj = cuda.local.array((3, 3), float32)
    for r in range(3):
        for s in range(3):
            m[r, s] = A[i, r, s]
    for r in range(3):
        for s in range(3):
            r1 = (r + 1) % 3
            r2 = (r + 2) % 3
            s1 = (s + 1) % 3
            s2 = (s + 2) % 3
            adj[s, r] = m[r1, s1] * m[r2, s2] - m[r1, s2] * m[r2, s1]
    d = m[0, 0] * adj[0, 0] + m[0, 1] * adj[1, 0] + m[0, 2] * adj[2, 0]
    inv_d = float32(1.0) / d if d != 0.0 else float32(0.0)
    for r in range(3):
        for s in range(3):
            Ainv[i, r, s] = adj[r, s] * inv_d
    det[i] = d


# ==== device functions returning tuples, low precision, compaction, strides ============================================

@cuda.jit(device=True, inline='always')
def reflect(x, v, lo, hi):
    if x < lo:
        return 2.0 * lo - x, -v
    if x > hi:
        return 2.0 * hi - x, -v
    return x, v


@cuda.jit(device=True)
def damp(vx, vy, gamma, dt):
    f = 1.0 / (1.0 + gamma * dt)
    return vx * f, vy * f


@cuda.jit(device=True, forceinline=True)
def to_polar(x, y):
    return math.sqrt(x * x + y * y), math.atan2(y, x)


# --- a particle push in a box: velocities damped, positions advanced and reflected at the walls, and the polar
#     coordinates about the box centre written, every step a device function returning a tuple
@cuda.jit
def advect_reflect_tuples(pos, vel, polar, dt, gamma, lo, hi):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        x = pos[i, 0]
        y = pos[i, 1]
        vx, vy = damp(vel[i, 0], vel[i, 1], gamma, dt)
        x, vx = reflect(x + vx * dt, vx, lo, hi)
        y, vy = reflect(y + vy * dt, vy, lo, hi)
        pos[i, 0] = x
        pos[i, 1] = y
        vel[i, 0] = vx
        vel[i, 1] = vy
        c = 0.5 * (lo + hi)
        r, th = to_polar(x - c, y - c)
        polar[i, 0] = r
        polar[i, 1] = th


# --- y = alpha x + beta on float16 storage, computed in float32 by plain conversions (no cuda.fp16), grid-stride
@cuda.jit
def scale_f16_plain(x, y, alpha, beta):
    a = float32(alpha)
    b = float32(beta)
    n = x.shape[0]
    for i in range(cuda.grid(1), n, cuda.gridsize(1)):
        v = float32(x[i]) * a + b
        y[i] = float16(v)


# --- the values (and their indices) where a boolean mask is set, appended at a global counter by atomic add
@cuda.jit
def compact_mask_atomic(x, mask, out, out_idx, counter):
    i = cuda.grid(1)
    if i < x.shape[0] and mask[i]:
        k = cuda.atomic.add(counter, 0, 1)
        out[k] = x[i]
        out_idx[k] = i


# --- a 3-D gather dst[p, r, c] = src[offset + p*s0 + r*s1 + c*s2] with the strides of a view as explicit int64 element
#     strides (a view whose strides need 64-bit offsets), on cuda.grid(3)
@cuda.jit
def gather_strided_i64(src, dst, offset, s0, s1, s2):
    c, r, p = cuda.grid(3)
    P, R, C = dst.shape
    if p < P and r < R and c < C:
        idx = int64(offset) + int64(p) * int64(s0) + int64(r) * int64(s1) + int64(c) * int64(s2)
        dst[p, r, c] = src[idx]
