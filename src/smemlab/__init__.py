"""smemlab: the GPU's on-chip memories, measured and explained.

Shared memory (banks, conflicts, padding, swizzles), constant memory and the read-only cache,
warp shuffles and Hopper's distributed shared memory: the experiments of "Professional CUDA C
Programming" chapter 5 run on today's GPUs, a bank-conflict model that needs no GPU, and the
fastest kernels offered as a library (`smemlab.ops`).
"""

__version__ = "0.1.0"
