"""What a run records: plain dataclasses that round-trip through JSON.

A `RunRecord` is one invocation of `smemlab run` (or `make run`): its provenance, the copy
bandwidth and the cost of an empty launch measured in that run, one `ExperimentRecord` per experiment, and the profile where
Nsight Compute could read the counters, the compute-sanitizer table, and the library benchmark.

What smemlab.measure times is one record type, `Measured`: the time per call (median, min and max
over the samples), the samples, the FLOPs and the bandwidth. An experiment's variant
(`VariantRecord`) and a benchmark's row (`BenchRow`) are both a `Measured` with the fields that
name them and the figures only they have (an experiment's counters and bank predictions; a library
call's latency, alone, and its goals). Their JSON is flat, one key a field, as it always was.

Measured fields are written once, by the runner, the profiler, the sanitizer and the benchmark.
Derived fields (an experiment's notes and derived columns, each variant's `limits`, the run's
`ceilings`) are written by smemlab.derive from the measured ones, after all of them are in; the
renderer reads the record only, so a recorded run renders again with no GPU and no experiment code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, is_dataclass
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
class GlobalAccessRecord:
    """One declared global access: the sector rules' prediction (smemlab.banks.sectors), per launch of
    one block, each warp's repetitions included. Nsight Compute measures only the kernel's totals."""

    label: str
    expr: str
    op: str  # "load" or "store"
    predicted_requests: int
    predicted_sectors: int
    ideal_sectors: int


@dataclass(kw_only=True)
class Measured:
    """What smemlab.measure records of anything it times, verified first: an experiment's variant or
    a library benchmark's row. Each record type puts its own fields (its name, `ok`) first."""

    median_ms: float | None = None  # per call: the median over the samples
    min_ms: float | None = None
    max_ms: float | None = None
    reps: int = 0  # samples timed
    flops: int = 0
    gbps: float | None = None  # bytes read + written once each over the median, decimal GB/s

    def set_time(self, t: Any) -> None:
        """The figures of a smemlab.measure.Timing (median, min, max per call; samples)."""
        self.median_ms, self.min_ms, self.max_ms, self.reps = t.median_ms, t.min_ms, t.max_ms, t.reps

    def bandwidth(self, nbytes: int) -> float | None:
        """Sets and returns `gbps` for `nbytes` moved in the median time (None where either is missing)."""
        if nbytes and self.median_ms:
            self.gbps = nbytes / (self.median_ms * 1e-3) / 1e9
        return self.gbps


@dataclass
class VariantRecord(Measured):
    variant: str
    summary: str
    ok: bool
    check: str = ""
    error: float | None = None  # relative error where floating point
    # calls per timed sample (back to back between two CUDA events); 0 in a record from before batching,
    # whose samples were one launch each
    batch: int = 0
    bytes_moved: int = 0
    pct_copy: float | None = None
    pct_peak: float | None = None
    gflops: float | None = None
    launch_shape: str = ""
    hazard: str | None = None
    failure: str | None = None  # why it did not run or verify
    accesses: list[AccessRecord] = field(default_factory=list)
    # the declared global accesses (none in a record from before: no prediction); and why they are
    # not the kernel's all, where they are not (then no sectors per request are predicted)
    global_accesses: list[GlobalAccessRecord] = field(default_factory=list)
    global_incomplete: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    counters: dict[str, float] = field(default_factory=dict)  # Nsight Compute, where profiled
    # shared-memory counters again at the experiment's bank_check_size (a few blocks): with no
    # other warps' traffic competing for the SM, wavefronts are the access pattern's alone
    bank_counters: dict[str, float] = field(default_factory=dict)
    # derived: the share of the time each limit alone would take, and which binds (smemlab.limits)
    limits: dict[str, Any] = field(default_factory=dict)


@dataclass
class BenchRow(Measured):
    """One implementation of one case of `smemlab bench`: verified, then timed back to back
    (the Measured figures: per call) and one call at a time (latency, host path included)."""

    op: str
    case: str
    impl: str
    ok: bool
    error: str = ""
    family: str = ""  # the sweep it belongs to ("f32", "int32", "256 bins uniform"); "" if none
    size: int = 0  # elements (matmul: M*N*K) of the case, the sweep's x axis
    framework: str = ""  # the caller's array type it was called with: "torch", "cupy" or ""
    latency_us: float | None = None  # one call alone, host path included: median
    latency_min_us: float | None = None
    latency_max_us: float | None = None
    bytes: int = 0  # bytes read + written once each
    tflops: float | None = None
    vs_copy: float | None = None  # bandwidth over cudaMemcpy's on the same bytes, this run
    note: str = ""
    targets: list = field(default_factory=list)  # goals on this row: see smemlab.bench.goals

    def to_dict(self) -> dict:
        return plain(self)


@dataclass
class ExperimentRecord:
    name: str
    title: str
    seed: str  # what the experiment reproduces: a section of the book, or of the CUDA Programming Guide
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
    # what `copy_gbps` timed: "cudaMemcpy" (cudaMemcpyAsync device to device, smemlab.measure) or, in
    # a record from before, the package's own copy kernel
    copy_by: str = "copy kernel"
    # an empty launch timed as the variants are (one warp, no work): what a launch alone costs here
    launch_floor_ms: float | None = None
    profile_status: str = "not profiled"
    sanitizer: list[dict[str, Any]] = field(default_factory=list)
    bench: list[BenchRow] = field(default_factory=list)  # targets evaluated
    # derived: what each variant's time is set against (smemlab.limits.ceilings)
    ceilings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(plain(self), indent=1, default=_jsonable)

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
                v["global_accesses"] = [GlobalAccessRecord(**a) for a in v.get("global_accesses") or []]
                variants.append(VariantRecord(**_known(VariantRecord, v)))
            e = dict(e, variants=variants)
            exps.append(ExperimentRecord(**_known(ExperimentRecord, e)))
        bench = [BenchRow(**_known(BenchRow, r)) for r in data.get("bench") or []]
        return cls(**_known(cls, dict(data, experiments=exps, bench=bench)))

    @classmethod
    def load(cls, path: str | Path) -> "RunRecord":
        return cls.from_dict(json.loads(Path(path).read_text()))


def plain(value: Any) -> Any:
    """A record as JSON-ready dicts and lists (dataclasses.asdict), the measured fields of a record
    right after its `ok`: its name first, as the JSON has always had it."""
    if is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in fields(value)]
        shared = {f.name for f in fields(Measured)} if isinstance(value, Measured) else set()
        own = [n for n in names if n not in shared]
        cut = own.index("ok") + 1 if "ok" in own else len(own)
        order = own[:cut] + [n for n in names if n in shared] + own[cut:]
        return {n: plain(getattr(value, n)) for n in order}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


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
