"""A script as people write one (written for smemlab): a kernel, a launch at the top level (which fails
while the file imports where there is no GPU), and a kernel after it."""

import numpy as np
from numba import cuda


@cuda.jit
def double(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2


a = np.arange(64, dtype=np.float32)
d_a = cuda.to_device(a)
double[2, 32](d_a)


@cuda.jit
def after_the_launch(a):
    a[cuda.grid(1)] = 0
