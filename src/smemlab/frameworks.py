"""Settings of the frameworks smemlab compares with, so that a baseline does the same work as ours."""

from __future__ import annotations

import numpy as np


def cupy_tf32_off() -> str:
    """Make CuPy's float32 matmul use CUBLAS_COMPUTE_32F (no TF32) whatever CUPY_TF32 says;
    returns the compute type now in force, for the record."""
    from cupy._core import _routines_linalg as linalg

    fp32 = getattr(linalg, "COMPUTE_TYPE_FP32", None)
    if fp32 is not None:
        linalg.set_compute_type(np.dtype(np.float32), fp32)
    try:
        return str(linalg.compute_type_to_str(linalg.get_compute_type(np.dtype(np.float32))))
    except Exception:  # pragma: no cover - older CuPy
        return "FP32" if fp32 is not None else "unknown"


def torch_tf32_off(torch) -> None:
    """torch's float32 matmul and convolutions in plain float32 (cuBLAS and cuDNN without TF32)."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
