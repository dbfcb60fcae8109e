"""What a run records: plain dataclasses that round-trip through JSON.

A `RunRecord` is one invocation of `smemlab run` (or `make run`): its provenance, the copy
bandwidth and the cost of an empty launch measured in that run, one `ExperimentRecord` per experiment, and the profile where
Nsight Compute could read the counters, the compute-sanitizer table, and the library benchmark.

Measured fields are written once, by the runner, the profiler, the sanitizer and the benchmark.
Derived fields (an experiment's notes and derived columns, each variant's `limits`, the run's
`ceilings`) are written by smemlab.derive from the measured ones, after all of them are in; the
renderer reads the record only, so a recorded run renders again with no GPU and no experiment code.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any


@dataclass
class AccessRecord:
    """One declared shared-memory access: the bank model's prediction, and the counters where profiled."""

    label: str
    expr: str
    op: str
    predicted_wavefronts_per_request: float
    ideal_wavefronts_per_request: float
    predicted_requests: int = 0  # per launch, all blocks
    predicted_wavefronts: int = 0


@dataclass
class VariantRecord:
    variant: str
    summary: str
    ok: bool
    check: str = ""
    error: float | None = None  # relative error where floating point
    median_ms: float | None = None
    min_ms: float | None = None
    max_ms: float | None = None
    reps: int = 0
    bytes_moved: int = 0
    flops: int = 0
    gbps: float | None = None
    pct_copy: float | None = None
    pct_peak: float | None = None
    gflops: float | None = None
    launch_shape: str = ""
    hazard: str | None = None
    failure: str | None = None  # why it did not run or verify
    accesses: list[AccessRecord] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    counters: dict[str, float] = field(default_factory=dict)  # Nsight Compute, where profiled
    # shared-memory counters again at the experiment's bank_check_size (a few blocks): with no
    # other warps' traffic competing for the SM, wavefronts are the access pattern's alone
    bank_counters: dict[str, float] = field(default_factory=dict)
    # derived: the share of the time each limit alone would take, and which binds (smemlab.limits)
    limits: dict[str, Any] = field(default_factory=dict)


@dataclass
class ExperimentRecord:
    name: str
    title: str
    seed: str
    size: list[int]
    columns: list[str]
    variants: list[VariantRecord]
    notes: list[str] = field(default_factory=list)  # derived, from the variants (Experiment.notes)
    # how the renderer shows it, from the experiment's definition when it ran (a record stays
    # renderable when the experiment changes or goes): what its table and chart lead with
    # ("bandwidth" or "flops"; None in a record older than the field), its columns' titles, and
    # the columns that tell apart several runs of one variant (a sweep)
    metric: str | None = None
    column_titles: dict[str, str] = field(default_factory=dict)
    case_columns: list[str] = field(default_factory=list)
    stopped: str | None = None  # why the run stopped before this experiment's variants ran

    def uses_flops(self) -> bool:
        """True where the experiment is judged in FLOP/s (matmul), not in bytes moved; a record
        without a metric is judged by what its variants hold."""
        if self.metric is not None:
            return self.metric == "flops"
        return any(v.gflops for v in self.variants) and not any(v.gbps for v in self.variants)

    def column_title(self, key: str) -> str:
        """An experiment's own column in plain words, not the record's key."""
        return self.column_titles.get(key, key.replace("_", " "))


@dataclass
class RunRecord:
    provenance: dict[str, Any]
    copy_gbps: float | None
    experiments: list[ExperimentRecord]
    # an empty launch timed as the variants are (one warp, no work): what a launch alone costs here
    launch_floor_ms: float | None = None
    profile_status: str = "not profiled"
    sanitizer: list[dict[str, Any]] = field(default_factory=list)
    bench: list[dict[str, Any]] = field(default_factory=list)  # smemlab.bench.Row dicts, targets evaluated
    # derived: what each variant's time is set against (smemlab.limits.ceilings)
    ceilings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, default=_jsonable)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def from_dict(cls, data: dict) -> "RunRecord":
        """The record from its JSON form; ValueError naming what is missing where it is not one."""
        if not isinstance(data, dict):
            raise ValueError(f"a run record is a JSON object; this is a JSON {type(data).__name__}")
        missing = [k for k in ("provenance", "experiments") if k not in data]
        if missing:
            raise ValueError(f"it has no {' and no '.join(map(repr, missing))}")
        if not isinstance(data["experiments"], list) or not all(
                isinstance(e, dict) and isinstance(e.get("variants"), list) for e in data["experiments"]):
            raise ValueError("'experiments' must be a list of objects, each with a list of 'variants'")
        exps = []
        for e in data["experiments"]:
            variants = []
            for v in e["variants"]:
                v = dict(v)
                v["accesses"] = [AccessRecord(**a) for a in v.get("accesses", [])]
                variants.append(VariantRecord(**_known(VariantRecord, v)))
            e = dict(e, variants=variants)
            exps.append(ExperimentRecord(**_known(ExperimentRecord, e)))
        return cls(**_known(cls, dict(data, experiments=exps)))

    @classmethod
    def load(cls, path: str | Path) -> "RunRecord":
        return cls.from_dict(json.loads(Path(path).read_text()))


def _known(cls, data: dict) -> dict:
    """Only the fields `cls` has, so a record written by a newer version still loads."""
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _jsonable(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot record {type(value).__name__} in JSON")
