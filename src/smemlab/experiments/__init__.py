"""The experiments, in the order of the seeds. Each lives in its own module; see base.py."""

from __future__ import annotations

import importlib
import importlib.util

from smemlab.errors import UserError
from smemlab.experiments.base import Experiment

# name -> "module:class"; imported only when asked for, so `smemlab list` stays fast
REGISTRY = {
    "layout": "smemlab.experiments.layout:LayoutExperiment",
    "reduce": "smemlab.experiments.reduce:ReduceExperiment",
    "transpose": "smemlab.experiments.transpose:TransposeExperiment",
    "matmul": "smemlab.experiments.matmul:MatmulExperiment",
    "stencil": "smemlab.experiments.stencil:StencilExperiment",
    "shuffle": "smemlab.experiments.shuffle:ShuffleExperiment",
    "histogram": "smemlab.experiments.histogram:HistogramExperiment",
    "config": "smemlab.experiments.config:ConfigExperiment",
}


def available() -> list[str]:
    """The experiments whose module is present, in the seeds' order."""
    names = []
    for name, target in REGISTRY.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get(name: str) -> Experiment:
    if name not in REGISTRY or name not in available():
        raise UserError(f"unknown experiment {name!r}; choose from: {', '.join(available())}")
    module, cls = REGISTRY[name].split(":")
    return getattr(importlib.import_module(module), cls)()


def all_experiments() -> list[Experiment]:
    return [get(name) for name in available()]
