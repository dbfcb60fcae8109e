"""The experiments, in the order of the seeds. Each lives in its own module; see base.py.

Plain imports: `smemlab list` shows every experiment, so it imports them all anyway, and no
experiment module imports CUDA or CuPy at import time (the plain install's tests check that).
"""

from __future__ import annotations

from smemlab.errors import UserError
from smemlab.experiments.base import Experiment
from smemlab.experiments.config import ConfigExperiment
from smemlab.experiments.histogram import HistogramExperiment
from smemlab.experiments.layout import LayoutExperiment
from smemlab.experiments.matmul import MatmulExperiment
from smemlab.experiments.overlap import OverlapExperiment
from smemlab.experiments.reduce import ReduceExperiment
from smemlab.experiments.shuffle import ShuffleExperiment
from smemlab.experiments.stencil import StencilExperiment
from smemlab.experiments.transpose import TransposeExperiment

# name -> class, in the seeds' order
REGISTRY: dict[str, type[Experiment]] = {cls.name: cls for cls in (
    LayoutExperiment, ReduceExperiment, TransposeExperiment, MatmulExperiment, StencilExperiment, ShuffleExperiment,
    HistogramExperiment, ConfigExperiment, OverlapExperiment)}


def available() -> list[str]:
    """The experiments' names, in the seeds' order."""
    return list(REGISTRY)


def get(name: str) -> Experiment:
    if name not in REGISTRY:
        raise UserError(f"unknown experiment {name!r}; choose from: {', '.join(available())}")
    return REGISTRY[name]()


def all_experiments() -> list[Experiment]:
    return [get(name) for name in available()]
