"""The runner: for every case, poison the outputs, launch once, verify, then time.

It is the same for every experiment, and the measuring is smemlab.measure's, as the benchmark's
is (DESIGN.md, "Measurement rules"): a variant that does not verify is never timed; a kernel is
timed over samples of back-to-back launches between CUDA events (median, min and max per launch),
host work on the host clock; bandwidth counts the bytes read and written once each, in decimal
GB/s, and is compared with cudaMemcpyAsync device to device measured in the same run and with the
datasheet peak.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Callable, Iterable, Sequence

import numpy as np

from smemlab import measure
from smemlab.errors import KernelError, UserError
from smemlab.lab.base import Case, Experiment, Variant
from smemlab.records import AccessRecord, ExperimentRecord, GlobalAccessRecord, RunRecord, VariantRecord

DEFAULT_REPS = 20
WARMUP = 3


def select_variants(exp: Experiment, names: Sequence[str] | None) -> list[Variant]:
    variants = exp.variants()
    if not names:
        return variants
    by_name = {v.name: v for v in variants}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise UserError(f"{exp.name} has no variant {', '.join(map(repr, unknown))}; variants: {', '.join(by_name)}")
    return [by_name[n] for n in names]


def predict_accesses(variant: Variant) -> list[AccessRecord]:
    """The bank model's prediction for each declared shared-memory access, per request."""
    if not variant.smem:
        return []
    from smemlab.banks import analyze

    out = []
    for acc in variant.smem:
        a = analyze(acc.expr, acc.shape, acc.dtype, variant.block, op=acc.op, active=acc.active)
        out.append(
            AccessRecord(
                label=acc.label,
                expr=acc.expr,
                op=acc.op,
                predicted_wavefronts_per_request=a.wavefronts_per_request,
                ideal_wavefronts_per_request=a.ideal_wavefronts / max(a.requests, 1),
                predicted_requests=a.requests * acc.per_warp,
                predicted_wavefronts=a.wavefronts * acc.per_warp,
            )
        )
    return out


def predict_global(variant: Variant) -> list[GlobalAccessRecord]:
    """The sector rules' prediction for each declared global access, per launch of one block."""
    from smemlab.banks.sectors import analyze_global

    out = []
    for acc in variant.gmem:
        g = analyze_global(acc.expr, acc.shape, acc.dtype, variant.block, op=acc.op, active=acc.active,
                           block_index=acc.block_index)
        out.append(GlobalAccessRecord(label=acc.label, expr=acc.expr, op=g.op, predicted_requests=g.requests * acc.per_warp,
                                      predicted_sectors=g.sectors * acc.per_warp,
                                      ideal_sectors=g.ideal_sectors * acc.per_warp))
    return out


def measure_copy(rt, reps: int = DEFAULT_REPS) -> float:
    """GB/s of cudaMemcpyAsync device to device over a buffer 8x the L2 (bytes read + written):
    the ceiling, measured as the benchmark measures it."""
    nbytes = min(max(8 * rt.facts.l2_bytes, 256 << 20), rt.facts.global_bytes // 8)
    return measure.copy_ceiling_gbps(rt.cupy_stream, nbytes, reps=reps)


def measure_launch_floor(rt, reps: int = DEFAULT_REPS) -> float:
    """Milliseconds per launch of an empty kernel (one warp of the copy kernel over no elements),
    timed as the variants are: back to back, so it is the rate at which launches reach the GPU. No
    variant's time can be below it; one near it is bound by launching, not by its work."""
    import cupy

    kernel = rt.kernel("lab/copy.cu", "copyKernel")
    nothing = cupy.empty(4, dtype=cupy.float32)

    def launch():
        rt.launch(kernel, 1, 32, nothing, nothing, np.uint64(0))

    launch()
    rt.sync("copyKernel", "grid (1, 1, 1) block (32, 1, 1)")
    return rt.time(launch, warmup=WARMUP, reps=reps).median_ms


def _context_alive(rt) -> bool:
    import cupy

    try:
        cupy.arange(4).sum().item()
        rt.sync()
        return True
    except Exception:
        return False


class ContextLost(RuntimeError):
    """A kernel broke the CUDA context: nothing more can run in this process."""


def unexpected_failures(run: RunRecord) -> list[str]:
    """experiment/variant of each variant that did not verify and should have: not skipped on
    this GPU, and not kept on purpose to show a hazard."""
    return [f"{e.name}/{v.variant}" for e in run.experiments for v in e.variants
            if not v.ok and not is_skipped(v) and not v.hazard]


def is_skipped(rec: VariantRecord) -> bool:
    """An experiment marks a variant it cannot run here with extra['skipped'] or a 'skipped:' check."""
    return bool(rec.extra.get("skipped")) or rec.check.startswith("skipped")


def run_case(rt, case: Case, reps: int, copy_gbps: float | None) -> VariantRecord:
    v = case.variant
    rec = VariantRecord(variant=v.name, summary=v.summary, ok=False, launch_shape=case.launch_shape, hazard=v.hazard,
                        bytes_moved=case.bytes_moved, flops=case.flops)
    try:
        rec.accesses = predict_accesses(v)
        rec.global_accesses, rec.global_incomplete = predict_global(v), v.gmem_incomplete
    except Exception as exc:  # a bad declaration is a bug to show, not a reason to skip the run
        rec.extra["prediction_error"] = str(exc)
    try:
        mark = len(rt.launch_log) if rt.launch_log is not None else None
        measure.checked_call(case.launch, lambda: rt.sync(v.kernel or v.name, case.launch_shape), case.outputs)
        if mark is not None:
            rt.variant_launches.append((v.name, rt.launch_log[mark:]))
        verdict = case.check()
    except KernelError as exc:
        rec.failure = str(exc)
        if not _context_alive(rt):
            raise ContextLost(f"{v.name}: {exc}; the CUDA context did not survive, stopping") from exc
        return rec
    rec.ok, rec.check, rec.error = verdict.ok, verdict.detail, verdict.error
    rec.extra.update(case.extra)
    if is_skipped(rec):  # the GPU lacks what this variant needs (clusters, torch): not a failure
        return rec
    if not verdict.ok:
        rec.failure = f"verification failed: {verdict.detail}"
        return rec
    if reps <= 0:
        return rec
    # a variant that must be timed a launch at a time says so (Variant.batched) and why
    t = rt.time(case.launch, warmup=WARMUP, reps=reps, host=not v.on_gpu, batch=None if v.batched else 1)
    rec.set_time(t)
    rec.batch = t.batch
    if rec.bandwidth(case.bytes_moved):
        if copy_gbps:
            rec.pct_copy = 100 * rec.gbps / copy_gbps
        if rt.facts.peak_gbps:
            rec.pct_peak = 100 * rec.gbps / rt.facts.peak_gbps
    if case.flops and rec.median_ms:
        rec.gflops = case.flops / (rec.median_ms * 1e-3) / 1e9
    return rec


def run_experiment(
    rt,
    exp: Experiment,
    size: Sequence[int] | None = None,
    variant_names: Sequence[str] | None = None,
    reps: int = DEFAULT_REPS,
    copy_gbps: float | None = None,
    on_variant: Callable[[str], None] | None = None,
) -> ExperimentRecord:
    """Run the chosen variants of one experiment; a failing variant is recorded and the rest go on."""
    size = tuple(exp.parse_size(size)) if size else tuple(exp.default_size)
    variants = select_variants(exp, variant_names)
    records = []
    for case in exp.cases(rt, size, variants):
        if on_variant:
            on_variant(case.variant.name)
        records.append(run_case(rt, case, reps, copy_gbps))
    # notes come later, from smemlab.derive, once the counters are in
    return ExperimentRecord(
        name=exp.name, title=exp.title, seed=exp.seed, size=list(size), columns=list(exp.columns),
        variants=records, metric=exp.metric, column_titles=dict(exp.column_titles),
        case_columns=list(exp.case_columns),
    )


def provenance(rt=None) -> dict:
    """Where and with what a run was made (smemlab.measure.provenance), with the runtime's device."""
    return measure.provenance(rt.facts.to_dict() if rt is not None else None)


def run_suite(
    rt,
    experiments: Iterable[Experiment],
    sizes: dict[str, Sequence[int]] | None = None,
    variant_names: Sequence[str] | None = None,
    reps: int = DEFAULT_REPS,
    progress: bool = True,
) -> RunRecord:
    """Measure the copy ceiling and an empty launch once, then every experiment, with a progress bar."""
    experiments = list(experiments)
    sizes = sizes or {}
    bar = _progress(progress)
    copy_gbps = measure_copy(rt, reps=reps) if reps > 0 else None
    launch_floor_ms = measure_launch_floor(rt, reps=reps) if reps > 0 else None
    results = []
    with bar or nullcontext():
        task = bar.add_task("experiments", total=len(experiments)) if bar else None
        for exp in experiments:
            if bar:
                bar.update(task, description=f"{exp.name}")
            def on_variant(name, exp=exp):
                if bar:
                    bar.update(task, description=f"{exp.name}: {name}")
                elif progress:  # not a terminal (a log, CI): one line a variant still shows progress
                    print(f"[{exp.name}] {name}", file=sys.stderr, flush=True)
            try:
                results.append(run_experiment(rt, exp, sizes.get(exp.name), variant_names, reps, copy_gbps, on_variant))
            except ContextLost as exc:
                results.append(ExperimentRecord(exp.name, exp.title, exp.seed, list(sizes.get(exp.name) or exp.default_size),
                                                list(exp.columns), [], metric=exp.metric,
                                                column_titles=dict(exp.column_titles),
                                                case_columns=list(exp.case_columns), stopped=str(exc)))
                break
            if bar:
                bar.advance(task)
    return RunRecord(provenance=provenance(rt), copy_gbps=copy_gbps, experiments=results, launch_floor_ms=launch_floor_ms,
                     copy_by="cudaMemcpy")


def _progress(enabled: bool):
    if not enabled or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=True)
