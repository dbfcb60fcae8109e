"""Numba kernels for tests/test_analyze_python.py (written for smemlab; launched from Python they run on a GPU)."""

import numpy as np
from numba import cuda, float32, float64, int32

TILE = 32
PADDED = TILE + 1  # a global: Numba needs a constant shape
RADIUS = 3
BLOCK = 128


@cuda.jit
def transpose(out, inp):
    tile = cuda.shared.array((TILE, TILE), float32)
    x, y = cuda.threadIdx.x, cuda.threadIdx.y
    for j in range(0, TILE, 8):
        tile[y + j, x] = inp[y + j, x]
    cuda.syncthreads()
    for j in range(0, TILE, 8):
        out[y + j, x] = tile[x, y + j]


@cuda.jit
def transpose_padded(out, inp):
    tile = cuda.shared.array((TILE, PADDED), float32)
    x, y = cuda.threadIdx.x, cuda.threadIdx.y
    for j in range(0, TILE, 8):
        tile[y + j, x] = inp[y + j, x]
    cuda.syncthreads()
    for j in range(0, TILE, 8):
        out[y + j, x] = tile[x, y + j]


@cuda.jit
def transpose64(out, inp):
    tile = cuda.shared.array((TILE, TILE), float64)
    x, y = cuda.threadIdx.x, cuda.threadIdx.y
    for j in range(0, TILE, 8):
        tile[y + j, x] = inp[y + j, x]
    cuda.syncthreads()
    for j in range(0, TILE, 8):
        out[y + j, x] = tile[x, y + j]


@cuda.jit
def transpose64_padded(out, inp):
    tile = cuda.shared.array((TILE, PADDED), float64)
    x, y = cuda.threadIdx.x, cuda.threadIdx.y
    for j in range(0, TILE, 8):
        tile[y + j, x] = inp[y + j, x]
    cuda.syncthreads()
    for j in range(0, TILE, 8):
        out[y + j, x] = tile[x, y + j]


@cuda.jit
def reduce_sum(out, inp):
    s = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    s[t] = inp[t]
    cuda.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[0] = s[0]


@cuda.jit
def reduce_shuffle(out, inp):
    part = cuda.local.array(4, float32)
    t = cuda.threadIdx.x
    for k in range(4):
        part[k] = inp[t * 4 + k]
    v = part[0] + part[1] + part[2] + part[3]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    warp_sums = cuda.shared.array(8, float32)
    if t % 32 == 0:
        warp_sums[t // 32] = v
    cuda.syncthreads()
    if t == 0:
        total = float32(0)
        for w in range(8):
            total += warp_sums[w]
        out[0] = total


@cuda.jit
def histogram(bins, keys, n):
    local = cuda.shared.array(256, int32)
    t = cuda.threadIdx.x
    local[t] = 0
    cuda.syncthreads()
    i = t
    while i < n:
        cuda.atomic.add(local, keys[i], 1)
        i += cuda.blockDim.x
    cuda.syncthreads()
    cuda.atomic.add(bins, t, local[t])


@cuda.jit
def stencil(out, inp):
    s = cuda.shared.array(0, float32)  # dynamic: BLOCK + 2 * RADIUS floats
    t = cuda.threadIdx.x
    g = cuda.blockIdx.x * BLOCK + t
    s[t] = inp[g]
    if t < 2 * RADIUS:
        s[BLOCK + t] = inp[g + BLOCK]
    cuda.syncthreads()
    acc = float32(0)
    for k in range(2 * RADIUS + 1):
        acc += s[t + k]
    out[g] = acc


if __name__ == "__main__":  # never run by smemlab analyze, which imports the file
    raise SystemExit("this needs a GPU")
