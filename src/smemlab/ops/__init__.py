"""smemlab's fastest kernels as a small library: transpose, reduce_sum, stencil1d, histogram, matmul.

Every op takes CuPy arrays or CUDA torch tensors (or other `__cuda_array_interface__` objects),
returns the caller's array type (torch in -> torch out through DLPack, zero copy), runs on the
caller's current stream (CuPy's current stream, or `torch.cuda.current_stream()`), and rejects
host data, wrong dtypes, wrong ranks and non-contiguous views with a TypeError/ValueError before
touching the GPU. See each function's docstring for its dtypes, shapes and boundary rules.

The ops are imported lazily, so `import smemlab.ops` costs nothing and needs no GPU.
"""

from __future__ import annotations

__all__ = ["transpose", "reduce_sum", "stencil1d", "histogram", "matmul"]

_WHERE = {
    "transpose": "smemlab.ops.transpose",
    "reduce_sum": "smemlab.ops.reduce",
    "stencil1d": "smemlab.ops.stencil",
    "histogram": "smemlab.ops.histogram",
    "matmul": "smemlab.ops.matmul",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'smemlab.ops' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
