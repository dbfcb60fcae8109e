"""smemlab's fastest kernels as a small library: transpose, reduce_sum, stencil1d, histogram, matmul.

Every op takes CuPy arrays or CUDA torch tensors (or other `__cuda_array_interface__` objects),
returns the caller's array type (torch in -> torch out through DLPack, zero copy), runs on the
caller's current stream (CuPy's current stream, or `torch.cuda.current_stream()`), and rejects
host data, wrong dtypes, wrong ranks and non-contiguous views with a TypeError/ValueError before
touching the GPU. See each function's docstring for its dtypes, shapes and boundary rules.

`import smemlab.ops` needs no GPU and imports only NumPy: CuPy and the kernels load at the first call.
Where torch is imported, the ops are also torch custom ops, torch.ops.smemlab.<op> (smemlab.ops.torch_ops:
torch.compile, CUDA graphs, autograd), registered at this import if torch came first, else at the first call.
"""

from __future__ import annotations

import sys

# Imported eagerly, not through a lazy __getattr__: importing a submodule (smemlab.ops.histogram)
# sets the package attribute of that name to the module, and a lazy lookup would then hand
# `from smemlab.ops import histogram` the module instead of the function. Binding the functions
# here, after their modules are imported, makes the functions win for good.
from smemlab.ops.histogram import histogram
from smemlab.ops.matmul import matmul
from smemlab.ops.reduce import reduce_sum
from smemlab.ops.stencil import stencil1d
from smemlab.ops.transpose import transpose

__all__ = ["transpose", "reduce_sum", "stencil1d", "histogram", "matmul"]
OPS = ("histogram", "matmul", "reduce", "stencil", "transpose")


def kernel_instances(source: str) -> tuple[str, ...]:
    """The template instances (NVRTC name expressions) that the op of package source `source` launches, its
    KERNELS' values; () for a source of no op, or an op whose kernels are all `extern "C"`."""
    import importlib

    for op in OPS:
        m = importlib.import_module(f"smemlab.ops.{op}")  # the module: the package attribute is the function
        if m.SOURCE == source:
            return tuple(getattr(m, "KERNELS", {}).values())
    return ()

if "torch" in sys.modules:  # never imported here: a torch user has imported it already
    from smemlab.ops._route import registered

    registered()
    del registered
