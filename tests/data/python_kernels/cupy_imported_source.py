"""A cupy.RawKernel made from a constant of a module beside the script (tests/test_analyze_cupy.py)."""

import cupy as cp
from cupy_kernel_sources import COLREAD_SRC

colread = cp.RawKernel(COLREAD_SRC, "colread")
