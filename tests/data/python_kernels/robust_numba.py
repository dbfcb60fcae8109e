"""Numba kernels in the styles people write (Numba's docs, GPU-Puzzles, scientific code), for
tests/test_analyze_python_robust.py (written for smemlab). Each ran through `smemlab analyze`; the tests keep
the ones that broke it."""

import math

import numpy as np
from numba import cuda, float32, float64, int32, int64, complex64, uint32

TPB = 16
TPB1 = TPB + 1


@cuda.jit
def add1d(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit
def saxpy_strided(a, x, y):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        y[i] = a * x[i] + y[i]


@cuda.jit
def scale2d(m, out, factor):
    row, col = cuda.grid(2)
    if row < m.shape[0] and col < m.shape[1]:
        out[row, col] = m[row, col] * factor


@cuda.jit
def column_read(m, out):
    # one thread per row, reading along a row: lanes stride by a whole row in global memory
    r = cuda.grid(1)
    if r < m.shape[0]:
        acc = 0.0
        for c in range(m.shape[1]):
            acc += m[r, c]
        out[r] = acc


@cuda.jit
def grid3d(vol, out):
    x, y, z = cuda.grid(3)
    nx, ny, nz = cuda.gridsize(3)
    if x < vol.shape[2] and y < vol.shape[1] and z < vol.shape[0]:
        out[z, y, x] = vol[z, y, x] + nx + ny + nz


@cuda.jit
def matmul_shared(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def tile64(inp, out):
    t = cuda.shared.array((32, 33), float64)
    x = cuda.threadIdx.x
    y = cuda.threadIdx.y
    for j in range(0, 32, cuda.blockDim.y):
        t[y + j, x] = inp[y + j, x]
    cuda.syncthreads()
    for j in range(0, 32, cuda.blockDim.y):
        out[y + j, x] = t[x, y + j]


@cuda.jit
def tile_int64(inp, out):
    t = cuda.shared.array((32, 32), int64)
    x = cuda.threadIdx.x
    y = cuda.threadIdx.y
    t[y, x] = inp[y, x]
    cuda.syncthreads()
    out[y, x] = t[x, y]


@cuda.jit
def complex_tile(inp, out):
    t = cuda.shared.array(64, complex64)
    i = cuda.threadIdx.x
    t[i] = inp[i] * 2j
    cuda.syncthreads()
    out[i] = t[63 - i] + t[i].conjugate()


@cuda.jit
def local_sort(inp, out):
    # a per-thread insertion sort in a local array
    buf = cuda.local.array(8, int32)
    i = cuda.grid(1)
    for k in range(8):
        buf[k] = inp[i * 8 + k]
    for k in range(1, 8):
        v = buf[k]
        j = k - 1
        while j >= 0 and buf[j] > v:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = v
    for k in range(8):
        out[i * 8 + k] = buf[k]


@cuda.jit
def shared_atomics(data, hist, mx, nbins):
    h = cuda.shared.array(32, int32)
    m = cuda.shared.array(1, float32)
    t = cuda.threadIdx.x
    if t < 32:
        h[t] = 0
    if t == 0:
        m[0] = -1e30
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < data.size:
        v = data[i]
        cuda.atomic.add(h, int32(v * nbins) % 32, 1)
        cuda.atomic.max(m, 0, v)
    cuda.syncthreads()
    if t < 32:
        cuda.atomic.add(hist, t, h[t])
    if t == 0:
        cuda.atomic.max(mx, 0, m[0])


@cuda.jit
def global_cas_lock(lock, counter):
    if cuda.threadIdx.x == 0:
        while cuda.atomic.cas(lock, 0, 0, 1) != 0:
            pass
        counter[0] += 1
        cuda.threadfence()
        cuda.atomic.exch(lock, 0, 0)


@cuda.jit
def warp_reduce(inp, out):
    i = cuda.grid(1)
    v = inp[i]
    mask = cuda.activemask()
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(mask, v, off)
        off //= 2
    b = cuda.ballot_sync(0xFFFFFFFF, v > 0)
    cuda.syncwarp()
    if cuda.laneid == 0:
        out[i // 32] = v
        out[i // 32 + inp.size // 32] = cuda.popc(b)


@cuda.jit
def warp_shuffles(inp, out):
    i = cuda.grid(1)
    v = inp[i]
    a = cuda.shfl_sync(0xFFFFFFFF, v, 0)
    b = cuda.shfl_up_sync(0xFFFFFFFF, v, 1)
    c = cuda.shfl_xor_sync(0xFFFFFFFF, v, 3)
    allp = cuda.all_sync(0xFFFFFFFF, v > -1e9)
    anyp = cuda.any_sync(0xFFFFFFFF, v > 1e9)
    out[i] = a + b + c + allp + anyp


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@cuda.jit(device=True)
def smooth(x):
    return x * x * (3.0 - 2.0 * x)


@cuda.jit
def math_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        r = math.sin(v) + math.cos(v) + math.exp(v) + math.log(abs(v) + 1.0) + math.sqrt(abs(v))
        r += math.tanh(v) + math.atan2(v, 1.5) + math.pow(abs(v), 0.5) + math.floor(v) + math.erf(v)
        r += math.fabs(v) + math.isnan(v) + math.copysign(1.0, v) + math.hypot(v, 2.0)
        out[i] = smooth(clamp(r, 0.0, 1.0))


@cuda.jit
def math_kernel32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = math.sin(v) + math.exp(v) * math.sqrt(abs(v)) + cuda.fma(v, v, float32(1))


@cuda.jit
def early_exit(x, out, n):
    i = cuda.grid(1)
    if i >= n:
        return
    v = x[i]
    steps = 0
    while v > 1.0 and steps < 50:
        v = v / 2.0 if steps % 2 == 0 else v - 1.0
        steps += 1
    out[i] = steps


@cuda.jit
def idx_types(a, out, n):
    i = int32(cuda.threadIdx.x) + int32(cuda.blockIdx.x) * int32(cuda.blockDim.x)
    j = int64(i) * 3 % n
    if i < n:
        out[i] = a[j] + a[np.int64(i)]


@cuda.jit
def reduce_interleaved(inp, out):
    s = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    s[t] = inp[cuda.grid(1)]
    cuda.syncthreads()
    step = 1
    while step < cuda.blockDim.x:
        if t % (2 * step) == 0:
            s[t] += s[t + step]
        step *= 2
        cuda.syncthreads()
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


@cuda.jit
def dyn_shared(inp, out):
    s = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = inp[t]
    cuda.syncthreads()
    out[t] = s[cuda.blockDim.x - 1 - t]


@cuda.jit
def uint_bits(x, out):
    i = cuda.grid(1)
    v = uint32(x[i])
    v ^= v >> uint32(13)
    v *= uint32(0x5bd1e995)
    out[i] = cuda.popc(v) + cuda.clz(v) + cuda.ffs(v) + cuda.brev(v)


@cuda.jit
def float16_math(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * x[i] + x[i]


@cuda.jit
def bool_and_tuples(flags, x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        lo, hi = (x[i, 0], x[i, 1]) if flags[i] else (x[i, 1], x[i, 0])
        out[i] = hi - lo


@cuda.jit
def three_d_block(a):
    x = cuda.threadIdx.x
    y = cuda.threadIdx.y
    z = cuda.threadIdx.z
    s = cuda.shared.array((4, 8, 8), float32)
    s[z, y, x] = x + y * 10 + z * 100
    cuda.syncthreads()
    a[z, y, x] = s[z, x, y]


@cuda.jit
def noncontig_view(a, out):
    # a sliced view inside the kernel
    i = cuda.grid(1)
    row = a[i]
    out[i] = row[0] + row[row.shape[0] - 1]


COEFFS = np.array([0.25, 0.5, 0.25], dtype=np.float32)


@cuda.jit
def const_stencil(x, out):
    c = cuda.const.array_like(COEFFS)
    i = cuda.grid(1)
    if 1 <= i < x.size - 1:
        out[i] = c[0] * x[i - 1] + c[1] * x[i] + c[2] * x[i + 1]


@cuda.jit
def global_array_stencil(x, out):
    i = cuda.grid(1)
    if 1 <= i < x.size - 1:
        out[i] = COEFFS[0] * x[i - 1] + COEFFS[1] * x[i] + COEFFS[2] * x[i + 1]


@cuda.jit(fastmath=True, lineinfo=True)
def fast_rsqrt(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = 1.0 / math.sqrt(x[i] + 1.0)


@cuda.jit
def sync_counts(x, out):
    t = cuda.threadIdx.x
    n = cuda.syncthreads_count(int32(x[t] > 0))
    a = cuda.syncthreads_and(int32(x[t] > -2))
    o = cuda.syncthreads_or(int32(x[t] > 0.99))
    cuda.threadfence_block()
    if t == 0:
        out[0] = n
        out[1] = a
        out[2] = o


@cuda.jit
def more_atomics(x, cnt, lo, hi):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.inc(cnt, 0, 1000)
        cuda.atomic.dec(cnt, 1, 1000)
        cuda.atomic.min(lo, 0, x[i])
        cuda.atomic.nanmax(hi, 0, x[i])
        cuda.atomic.sub(cnt, 2, 1)
        cuda.atomic.and_(cnt, 3, 0xFF)
        cuda.atomic.or_(cnt, 4, 1 << (i % 8))
        cuda.atomic.xor(cnt, 5, i)
        cuda.atomic.exch(cnt, 6, i)


@cuda.jit
def warp_misc(x, out):
    i = cuda.grid(1)
    v = int32(x[i] * 4)
    same = cuda.match_any_sync(0xFFFFFFFF, v)
    below = cuda.lanemask_lt()
    out[i] = cuda.popc(same & below) + cuda.cbrt(float32(x[i]))


@cuda.jit
def local2d(x, out):
    acc = cuda.local.array((3, 3), float32)
    i = cuda.grid(1)
    for a in range(3):
        for b in range(3):
            acc[a, b] = x[i] * (a + b)
    s = 0.0
    for a in range(3):
        s += acc[a, 2 - a]
    out[i] = s


@cuda.jit
def flag_arg(x, out, negate):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = -x[i] if negate else x[i]


@cuda.jit
def optional_arr(x, out, bias):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        if bias is not None:
            v += bias[i]
        out[i] = v


@cuda.jit
def block_stride_loop(x, out):
    s = cuda.shared.array(128, float32)
    t = cuda.threadIdx.x
    acc = float32(0)
    for j in range(t, x.shape[0], cuda.blockDim.x):
        acc += x[j]
    s[t] = acc
    cuda.syncthreads()
    half = cuda.blockDim.x // 2
    while half > 0:
        if t < half:
            s[t] += s[t + half]
        cuda.syncthreads()
        half //= 2
    if t == 0:
        out[0] = s[0]


@cuda.jit
def image_u8(img, out):
    x, y = cuda.grid(2)
    h, w = img.shape[:2]
    if y < h and x < w:
        r = img[y, x, 0]
        g = img[y, x, 1]
        b = img[y, x, 2]
        out[y, x] = np.uint8(0.299 * r + 0.587 * g + 0.114 * b)


@cuda.jit
def tuple_return(x, out):
    i = cuda.grid(1)
    q, r = divmod(int32(x[i] * 100), 7)
    out[i, 0] = q
    out[i, 1] = r


@cuda.jit
def grid_sync_kernel(x):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    x[i] += 1
    g.sync()
    x[i] *= 2


def make_transpose(cols):
    """A 16x16 tile transpose through a shared tile of `cols` columns (a kernel made in a function, its
    tile's width a constant of the closure)."""
    @cuda.jit
    def transpose(inp, out):
        tile = cuda.shared.array((TPB, cols), float32)
        x, y = cuda.grid(2)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        tile[ty, tx] = inp[y, x]
        cuda.syncthreads()
        bx = cuda.blockIdx.x * TPB
        by = cuda.blockIdx.y * TPB
        out[bx + ty, by + tx] = tile[tx, ty]
    return transpose


padded_transpose = make_transpose(TPB1)
unpadded_transpose = make_transpose(TPB)


@cuda.jit
def np_dtype_shared(x, out):
    s = cuda.shared.array(128, dtype=np.float32)
    s2 = cuda.shared.array((8, 16), np.int32)
    t = cuda.threadIdx.x
    s[t] = x[t]
    s2[t // 16, t % 16] = t
    cuda.syncthreads()
    out[t] = s[127 - t] + s2[t % 8, t // 8]


@cuda.jit
def atomic_2d(idx, hist):
    i = cuda.grid(1)
    if i < idx.shape[0]:
        cuda.atomic.add(hist, (idx[i, 0], idx[i, 1]), 1)


@cuda.jit
def atomic_f64(x, total):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(total, 0, x[i])


@cuda.jit
def printing(x):
    i = cuda.grid(1)
    if i < 2:
        print("thread", i, "value", x[i])


def make_scaler(factor):
    @cuda.jit
    def scale(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * factor
    return scale


scale3 = make_scaler(3.0)


@cuda.jit(device=True)
def warp_sum(v):
    for off in (16, 8, 4, 2, 1):
        v += cuda.shfl_xor_sync(0xFFFFFFFF, v, off)
    return v


@cuda.jit
def block_reduce_warps(x, out):
    partial = cuda.shared.array(32, float32)
    t = cuda.threadIdx.x
    v = warp_sum(x[cuda.grid(1)])
    if t % 32 == 0:
        partial[t // 32] = v
    cuda.syncthreads()
    if t < 32:
        w = partial[t] if t < cuda.blockDim.x // 32 else float32(0)
        w = warp_sum(w)
        if t == 0:
            out[cuda.blockIdx.x] = w


@cuda.jit
def transposed_view(a, out):
    i, j = cuda.grid(2)
    at = a.T
    if i < at.shape[0] and j < at.shape[1]:
        out[i, j] = at[i, j]


@cuda.jit
def conversions(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[i] = math.ceil(v) + round(v) + int(v) + math.trunc(v) + abs(int32(v))


@cuda.jit
def matvec_rows(A, x, y):
    # one warp per row, lanes stride the row: coalesced
    row = cuda.blockIdx.x * (cuda.blockDim.x // 32) + cuda.threadIdx.x // 32
    lane = cuda.threadIdx.x % 32
    if row < A.shape[0]:
        acc = float32(0)
        for c in range(lane, A.shape[1], 32):
            acc += A[row, c] * x[c]
        for off in (16, 8, 4, 2, 1):
            acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, off)
        if lane == 0:
            y[row] = acc


@cuda.jit
def conv2d_shared(img, k, out):
    TILE = 16
    R = 1
    s = cuda.shared.array((18, 18), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    H, W = img.shape
    for dy in range(0, TILE + 2 * R, TILE):
        for dx in range(0, TILE + 2 * R, TILE):
            sy, sx = ty + dy, tx + dx
            if sy < TILE + 2 * R and sx < TILE + 2 * R:
                gy = cuda.blockIdx.y * TILE + sy - R
                gx = cuda.blockIdx.x * TILE + sx - R
                s[sy, sx] = img[gy, gx] if 0 <= gy < H and 0 <= gx < W else 0
    cuda.syncthreads()
    if y < H and x < W:
        acc = float32(0)
        for a in range(3):
            for b in range(3):
                acc += k[a, b] * s[ty + a, tx + b]
        out[y, x] = acc


@cuda.jit
def prefix_scan(x, out):
    s = cuda.shared.array(256, int32)
    t = cuda.threadIdx.x
    s[t] = x[t]
    cuda.syncthreads()
    d = 1
    while d < 256:
        v = s[t - d] if t >= d else 0
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        d *= 2
    out[t] = s[t]
