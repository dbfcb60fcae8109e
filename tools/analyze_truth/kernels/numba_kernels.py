"""Numba kernels of the analyze truth corpus (issue 30), written for smemlab from the algorithms' textbook
descriptions. Each case (tools/analyze_truth/cases.py, ids `numba.*`) launches ONE block, which does a
whole small problem; shapes Numba needs at compile time are module constants.
"""

from numba import cuda, float32, float64, int32

T = 32  # a transpose tile's side
ROWS = 8  # a (32, 8) block walks its tile in strips of 8 rows
MT = 16  # the matmul's tile side (a 16 x 16 block)
N = 256  # the reductions' and the scan's block size
BINS = 256
SUBBINS = 64  # the per-warp histogram's bins
WARPS = 8
S = 16  # the 2-D stencil's tile side (a 16 x 16 block), radius 1
SH = S + 2  # with its halo (Numba's shapes are constants: no arithmetic in them)


def _tile_transpose(dtype, pad):
    """A transpose through a T x (T + pad) tile of `dtype`: stores along a row, loads down a column. Unpadded,
    a column of 4-byte elements sits in one bank (32 wavefronts a warp); 8-byte ones in one bank pair. A pad
    of one element shifts each row by one bank (4-byte) or two (8-byte)."""

    cols = T + pad  # a closure constant: Numba's shape must be one

    @cuda.jit
    def kernel(dst, src, width):
        tile = cuda.shared.array((T, cols), dtype)
        x0, y0 = cuda.blockIdx.x * T, cuda.blockIdx.y * T
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        for r in range(ty, T, ROWS):
            tile[r, tx] = src[(y0 + r) * width + x0 + tx]
        cuda.syncthreads()
        for r in range(ty, T, ROWS):
            dst[(x0 + r) * width + y0 + tx] = tile[tx, r]

    return kernel


transpose_f32 = _tile_transpose(float32, 0)
transpose_f32_padded = _tile_transpose(float32, 1)
transpose_f64 = _tile_transpose(float64, 0)
transpose_f64_padded = _tile_transpose(float64, 1)


@cuda.jit
def reduce_interleaved(out, x):
    # the tree with interleaved addressing: at step `gap` thread t adds element 2*gap*t + gap into 2*gap*t,
    # so a warp's lanes are 2*gap words apart and meet in few banks as gap grows
    part = cuda.shared.array(N, float32)
    t = cuda.threadIdx.x
    part[t] = x[t]
    cuda.syncthreads()
    gap = 1
    while gap < N:
        i = 2 * gap * t
        if i < N:
            part[i] += part[i + gap]
        cuda.syncthreads()
        gap *= 2
    if t == 0:
        out[0] = part[0]


@cuda.jit
def reduce_sequential(out, x):
    # the tree with sequential addressing, each thread first adding two inputs: the active threads are the
    # lowest ones, reading a contiguous half, so no step has a bank conflict
    part = cuda.shared.array(N, float32)
    t = cuda.threadIdx.x
    part[t] = x[t] + x[t + N]
    cuda.syncthreads()
    for half in (128, 64, 32, 16, 8, 4, 2, 1):  # N // 2 down to 1
        if t < half:
            part[t] += part[t + half]
        cuda.syncthreads()
    if t == 0:
        out[0] = part[0]


@cuda.jit
def matmul_tiled(c, a, b, k_total):
    # C = A @ B one MT x MT tile of C a block: each step stages an A tile and a B tile, then every thread
    # reads a row of A's (a broadcast within a half-warp) and a column of B's (consecutive words)
    sa = cuda.shared.array((MT, MT), float32)
    sb = cuda.shared.array((MT, MT), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    row, col = cuda.blockIdx.y * MT + ty, cuda.blockIdx.x * MT + tx
    acc = float32(0)
    for k0 in range(0, k_total, MT):
        sa[ty, tx] = a[row, k0 + tx]
        sb[ty, tx] = b[k0 + ty, col]
        cuda.syncthreads()
        for k in range(MT):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    c[row, col] = acc


@cuda.jit
def histogram_block(bins, keys, n):
    # a privatised histogram: the block counts into its own shared copy with shared atomics, then adds the
    # copy into the global bins once (one global atomic a bin)
    local = cuda.shared.array(BINS, int32)
    t = cuda.threadIdx.x
    local[t] = 0
    cuda.syncthreads()
    for i in range(t, n, cuda.blockDim.x):
        cuda.atomic.add(local, keys[i], 1)
    cuda.syncthreads()
    cuda.atomic.add(bins, t, local[t])


@cuda.jit
def histogram_per_warp(bins, keys, n):
    # one copy of the bins per warp: a warp's atomics meet only its own lanes'; the copies are summed at the end
    local = cuda.shared.array((WARPS, SUBBINS), int32)
    t = cuda.threadIdx.x
    w = t // 32
    for j in range(t, WARPS * SUBBINS, cuda.blockDim.x):
        local[j // SUBBINS, j % SUBBINS] = 0
    cuda.syncthreads()
    for i in range(t, n, cuda.blockDim.x):
        cuda.atomic.add(local, (w, keys[i]), 1)
    cuda.syncthreads()
    if t < SUBBINS:
        total = 0
        for v in range(WARPS):
            total += local[v, t]
        bins[t] = total


@cuda.jit
def stencil_2d(out, grid):
    # a 5-point stencil on a 16 x 16 tile: the block loads the tile and a one-element halo around it (edge
    # threads load the halo rows and columns), then each point reads its four neighbours from shared memory
    tile = cuda.shared.array((SH, SH), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x, y = tx + 1, ty + 1
    tile[y, x] = grid[y, x]
    if tx == 0:
        tile[y, 0] = grid[y, 0]
        tile[y, S + 1] = grid[y, S + 1]
    if ty == 0:
        tile[0, x] = grid[0, x]
        tile[S + 1, x] = grid[S + 1, x]
    cuda.syncthreads()
    out[ty, tx] = (4 * tile[y, x] - tile[y - 1, x] - tile[y + 1, x] - tile[y, x - 1] - tile[y, x + 1])


@cuda.jit
def scan_dynamic(out, x):
    # an inclusive Hillis-Steele scan in dynamic shared memory, two buffers of blockDim floats: each step
    # reads the other buffer (offset d back) and writes its own, so no step overwrites what it reads
    buf = cuda.shared.array(0, float32)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    src, dst = 0, n
    buf[t] = x[t]
    cuda.syncthreads()
    d = 1
    while d < n:
        v = buf[src + t]
        if t >= d:
            v += buf[src + t - d]
        buf[dst + t] = v
        cuda.syncthreads()
        src, dst = dst, src
        d *= 2
    out[t] = buf[src + t]


@cuda.jit
def block_max_shuffle(out, x, n):
    # a block-wide maximum: each thread folds a strided slice, warps reduce with butterfly shuffles, the
    # warps' results meet in shared memory and the first warp reduces them the same way
    best = cuda.shared.array(32, float32)
    t = cuda.threadIdx.x
    v = float32(-3.0e38)
    for i in range(t, n, cuda.blockDim.x):
        v = max(v, x[i])
    lane, w = t % 32, t // 32
    m = 16
    while m > 0:
        v = max(v, cuda.shfl_xor_sync(0xFFFFFFFF, v, m))
        m //= 2
    if lane == 0:
        best[w] = v
    cuda.syncthreads()
    if w == 0:
        v = best[lane] if lane < cuda.blockDim.x // 32 else float32(-3.0e38)
        m = 16
        while m > 0:
            v = max(v, cuda.shfl_xor_sync(0xFFFFFFFF, v, m))
            m //= 2
        if lane == 0:
            out[0] = v


@cuda.jit
def rows_f64(out, a):
    # float64 rows summed from a tile staged in shared memory, each thread one row: a warp's lanes read one
    # column of 8-byte words 33 doubles apart (the pad), two banks each, spread over all 32 banks
    tile = cuda.shared.array((64, 33), float64)
    t = cuda.threadIdx.x
    for j in range(t, 64 * 32, cuda.blockDim.x):
        tile[j // 32, j % 32] = a[j // 32, j % 32]
    cuda.syncthreads()
    total = float64(0)
    for c in range(32):
        total += tile[t, c]
    out[t] = total


if __name__ == "__main__":  # smemlab analyze imports the file: nothing here runs then
    raise SystemExit("launch these through tools/analyze_truth/measure.py on a GPU")
