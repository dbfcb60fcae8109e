"""A Numba kernel calling a CUDA C++ device function (written for smemlab)."""
import os

from numba import cuda, float32

mul_add = cuda.declare_device("mul_add", float32(float32, float32))
HERE = os.path.dirname(os.path.abspath(__file__))


@cuda.jit(link=[os.path.join(HERE, "numba_linked_funcs.cu")])
def use_foreign(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = mul_add(x[i], x[i])
