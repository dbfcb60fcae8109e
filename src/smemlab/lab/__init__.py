"""The experiments, in the order of the book's programs. Each lives in its own module; see base.py.

Plain imports: `smemlab list` shows every experiment, so it imports them all anyway, and no
experiment module imports CUDA or CuPy at import time (the plain install's tests check that).
"""

from __future__ import annotations

from smemlab.errors import UserError
from smemlab.lab.base import Experiment
from smemlab.lab.config import ConfigExperiment
from smemlab.lab.histogram import HistogramExperiment
from smemlab.lab.layout import LayoutExperiment
from smemlab.lab.matmul import MatmulExperiment
from smemlab.lab.overlap import OverlapExperiment
from smemlab.lab.reduce import ReduceExperiment
from smemlab.lab.shuffle import ShuffleExperiment
from smemlab.lab.stencil import StencilExperiment
from smemlab.lab.transpose import TransposeExperiment

# name -> class, in the book's order
REGISTRY: dict[str, type[Experiment]] = {cls.name: cls for cls in (
    LayoutExperiment, ReduceExperiment, TransposeExperiment, MatmulExperiment, StencilExperiment, ShuffleExperiment,
    HistogramExperiment, ConfigExperiment, OverlapExperiment)}


def available() -> list[str]:
    """The experiments' names, in the book's order."""
    return list(REGISTRY)


def get(name: str) -> Experiment:
    if name not in REGISTRY:
        raise UserError(f"unknown experiment {name!r}; choose from: {', '.join(available())}")
    return REGISTRY[name]()


def all_experiments() -> list[Experiment]:
    return [get(name) for name in available()]


def kernel_instances(source: str) -> tuple[str, ...]:
    """The template instances (NVRTC name expressions) to compile package source `source` with: a lab source's
    own list (lab/histogram/cluster_methods.cu: its INSTANCES), else its op's (smemlab.ops.kernel_instances)."""
    from smemlab.lab.histogram import cluster_methods
    from smemlab.ops import kernel_instances as op_instances

    return cluster_methods.INSTANCES if source == cluster_methods.SOURCE else op_instances(source)
