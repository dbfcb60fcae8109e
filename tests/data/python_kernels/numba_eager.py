"""Numba kernels with eager signatures, one or several, as strings, Signature objects and tuples (written
for smemlab)."""
from numba import cuda, float32, int32, void


@cuda.jit("void(float32[:], float32[:], float32)")
def axpy_sig(x, y, a):
    i = cuda.grid(1)
    if i < x.size:
        y[i] += a * x[i]


@cuda.jit(["void(float32[:,:], int32)", "void(float64[:,:], int32)"])
def fill_multi(m, v):
    i, j = cuda.grid(2)
    if i < m.shape[0] and j < m.shape[1]:
        m[i, j] = v


@cuda.jit(void(float32[:, ::1], int32))
def typed_obj(m, v):
    i, j = cuda.grid(2)
    if i < m.shape[0] and j < m.shape[1]:
        m[i, j] = v + i


@cuda.jit((float32[:], int32))
def tuple_sig(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] = i
