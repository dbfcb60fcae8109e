"""A fifth fresh batch of Numba CUDA kernels, loops and control flow: trip counts that differ between lanes or come
from data (ragged rows, CSR SpMV a thread and a warp a row, binary search, union-find with path halving, a scan to a
sentinel, run lengths), early returns, grid-stride loops, if/elif boundary chains; run through `smemlab analyze
FILE.py` as a held-out checker would (written for smemlab)."""

import math

from numba import cuda, float32, int16, int32, int64, uint8

WARP = 32
TILE = 128
TILE_HALO = TILE + 32


# --- mean of each ragged row (offsets array, a thread a row): trip counts from the data
@cuda.jit
def ragged_row_mean(offsets, vals, out):
    r = cuda.grid(1)
    if r >= out.shape[0]:
        return
    start = offsets[r]
    stop = offsets[r + 1]
    acc = float32(0.0)
    for k in range(start, stop):
        acc += vals[k]
    n = stop - start
    out[r] = acc / n if n > 0 else float32(0.0)


# --- CSR SpMV, a thread a row (scalar kernel)
@cuda.jit
def csr_spmv_scalar(row_ptr, cols, vals, x, y):
    row = cuda.grid(1)
    if row < y.shape[0]:
        s = float32(0.0)
        for k in range(row_ptr[row], row_ptr[row + 1]):
            s += vals[k] * x[cols[k]]
        y[row] = s


# --- CSR SpMV, a warp a row (vector kernel): lanes stride the row, a shuffle reduction, lane 0 writes
@cuda.jit
def csr_spmv_warp(row_ptr, cols, vals, x, y):
    gid = cuda.grid(1)
    row = gid // WARP
    lane = cuda.laneid
    if row >= y.shape[0]:
        return
    s = float32(0.0)
    k = row_ptr[row] + lane
    end = row_ptr[row + 1]
    while k < end:
        s += vals[k] * x[cols[k]]
        k += WARP
    off = 16
    while off > 0:
        s += cuda.shfl_down_sync(0xFFFFFFFF, s, off)
        off //= 2
    if lane == 0:
        y[row] = s


# --- searchsorted (left) by a while loop of a binary search per thread
@cuda.jit
def searchsorted_left(sorted_keys, queries, out):
    i = cuda.grid(1)
    if i >= queries.shape[0]:
        return
    q = queries[i]
    lo = 0
    hi = sorted_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_keys[mid] < q:
            lo = mid + 1
        else:
            hi = mid
    out[i] = lo


# --- union-find: a node's parent is rnd[x] % (x + 1) (a forest whose parents never exceed the node); the root of
#     every node by path halving (hop to the grandparent), read-only so that no warp's timing matters
@cuda.jit(device=True)
def parent_of(rnd, x):
    return rnd[x] % (x + 1)


@cuda.jit
def find_root_halving(rnd, roots):
    i = cuda.grid(1)
    if i < roots.shape[0]:
        x = i
        p = parent_of(rnd, x)
        while p != x:
            x = parent_of(rnd, p)
            p = parent_of(rnd, x)
        roots[i] = x


# --- length of the word starting at each byte: a loop with `break` at a sentinel (space, newline, tab)
@cuda.jit
def word_length_at(text, n, out):
    i = cuda.grid(1)
    if i >= n:
        return
    length = 0
    j = i
    while j < n:
        c = text[j]
        if c == 32 or c == 10 or c == 9:
            break
        length += 1
        j += 1
    out[i] = length


# --- leaky threshold: threads whose input is not positive return early, the others do the work
@cuda.jit
def positive_log1p(x, y, n):
    i = cuda.grid(1)
    if i >= n:
        return
    v = x[i]
    if v <= 0.0:
        return
    y[i] = math.log1p(v) * float32(0.5)


# --- int16 dequantisation with per-group scales, a grid-stride loop over n not a multiple of the grid
@cuda.jit
def dequant_int16_stride(q, scales, out, group):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, q.shape[0], stride):
        out[i] = float32(q[i]) * scales[i // group]


# --- 4-neighbour Laplacian of an 8-bit image with an if/elif chain at the edges and corners, int16 out
@cuda.jit
def laplace_u8_edges(img, out):
    y, x = cuda.grid(2)
    h, w = img.shape
    if y >= h or x >= w:
        return
    c = int32(img[y, x])
    if y == 0 and x == 0:
        s = int32(img[0, 1]) + int32(img[1, 0]) - 2 * c
    elif y == 0 and x == w - 1:
        s = int32(img[0, w - 2]) + int32(img[1, w - 1]) - 2 * c
    elif y == 0:
        s = int32(img[0, x - 1]) + int32(img[0, x + 1]) + int32(img[1, x]) - 3 * c
    elif y == h - 1:
        s = int32(img[y, x - 1]) + int32(img[y, x + 1]) + int32(img[y - 1, x]) - 3 * c if 0 < x < w - 1 else 0
    elif x == 0:
        s = int32(img[y - 1, 0]) + int32(img[y + 1, 0]) + int32(img[y, 1]) - 3 * c
    elif x == w - 1:
        s = int32(img[y - 1, x]) + int32(img[y + 1, x]) + int32(img[y, x - 1]) - 3 * c
    else:
        s = int32(img[y - 1, x]) + int32(img[y + 1, x]) + int32(img[y, x - 1]) + int32(img[y, x + 1]) - 4 * c
    out[y, x] = int16(s)


# --- box blur of radius R by nested loops with clamped coordinates (no shared memory)
@cuda.jit
def box_blur_nested(a, out, radius):
    y, x = cuda.grid(2)
    h, w = a.shape
    if y < h and x < w:
        acc = float32(0.0)
        for dy in range(-radius, radius + 1):
            yy = min(max(y + dy, 0), h - 1)
            for dx in range(-radius, radius + 1):
                xx = min(max(x + dx, 0), w - 1)
                acc += a[yy, xx]
        out[y, x] = acc / ((2 * radius + 1) * (2 * radius + 1))


# --- lower-triangular matrix-vector product, a thread a row: row i runs i + 1 trips
@cuda.jit
def lower_tri_matvec(L, x, y):
    i = cuda.grid(1)
    if i < y.shape[0]:
        s = float32(0.0)
        for j in range(i + 1):
            s += L[i, j] * x[j]
        y[i] = s


# --- warp stream compaction by ballot: each warp packs its positive values into its own 32-slot segment
@cuda.jit
def ballot_compact(x, out, counts):
    i = cuda.grid(1)
    lane = cuda.laneid
    warp = i // WARP
    v = x[i] if i < x.shape[0] else float32(-1.0)
    keep = v > 0.0
    mask = cuda.ballot_sync(0xFFFFFFFF, keep)
    rank = cuda.popc(mask & ((1 << lane) - 1))
    if keep:
        out[warp * WARP + rank] = v
    if lane == 0:
        counts[warp] = cuda.popc(mask)


# --- run lengths of a byte stream: a thread at a run's start walks to its end (while loop), others write 0
@cuda.jit
def run_lengths(data, lens):
    i = cuda.grid(1)
    n = data.shape[0]
    if i >= n:
        return
    v = data[i]
    if i > 0 and data[i - 1] == v:
        lens[i] = 0
        return
    j = i + 1
    while j < n and data[j] == v:
        j += 1
    lens[i] = j - i


# --- max of each ragged row, a warp a row; warps past the last row return; empty rows get -inf
@cuda.jit
def warp_ragged_max(offsets, vals, out, nrows):
    row = cuda.grid(1) // WARP
    lane = cuda.laneid
    if row >= nrows:
        return
    m = -math.inf
    for k in range(offsets[row] + lane, offsets[row + 1], WARP):
        m = max(m, vals[k])
    for off in (16, 8, 4, 2, 1):
        m = max(m, cuda.shfl_xor_sync(0xFFFFFFFF, m, off))
    if lane == 0:
        out[row] = m


# --- bytes staged in shared memory, then each thread counts forward until a byte above a limit (break),
#     at most 32 steps: shared reads with lane-dependent trip counts
@cuda.jit
def shared_scan_until(data, limit, out):
    tile = cuda.shared.array(TILE_HALO, uint8)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * TILE
    n = data.shape[0]
    tile[t] = data[base + t] if base + t < n else uint8(255)
    if t < 32:
        tile[TILE + t] = data[base + TILE + t] if base + TILE + t < n else uint8(255)
    cuda.syncthreads()
    steps = 0
    for k in range(32):
        if tile[t + k] > limit:
            break
        steps += 1
    if base + t < n:
        out[base + t] = steps


# --- Collatz steps of 64-bit starts: a while loop whose trips differ in every lane
@cuda.jit
def collatz_steps(starts, steps):
    i = cuda.grid(1)
    if i < starts.shape[0]:
        v = starts[i]
        c = 0
        while v != 1 and c < 1000:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            c += 1
        steps[i] = c


# --- rows of a float32 matrix normalised in place, a block a row, a grid-stride loop over columns and a
#     syncthreads_count test of whether any element was not finite (then the row is zeroed)
@cuda.jit
def row_normalise_guarded(a):
    row = cuda.blockIdx.x
    t = cuda.threadIdx.x
    nt = cuda.blockDim.x
    partial = cuda.shared.array(256, float32)
    ncols = a.shape[1]
    s = float32(0.0)
    bad = 0
    for c in range(t, ncols, nt):
        v = a[row, c]
        if math.isfinite(v):
            s += v * v
        else:
            bad = 1
    partial[t] = s
    nbad = cuda.syncthreads_count(bad)
    step = nt // 2
    while step > 0:
        if t < step:
            partial[t] += partial[t + step]
        cuda.syncthreads()
        step //= 2
    scale = float32(0.0) if nbad > 0 else float32(1.0) / math.sqrt(partial[0] + float32(1e-6))
    for c in range(t, ncols, nt):
        a[row, c] = a[row, c] * scale
