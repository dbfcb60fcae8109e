"""The derive step: everything a record says that is computed from its measurements.

It runs once the measurements are all in (times, counters, the sanitizer's table, the benchmark's
rows), in every command that writes or changes a record, and never in `smemlab report`, which only
renders. In order: the run's ceilings and each variant's limits (smemlab.limits), then each
experiment's derived columns and notes (Experiment.notes), which may read the limits. Running it
again on the same measurements gives the same record, so a recorded run can be derived again with
no GPU (`smemlab derive DIR`) when a note or a limit learns to say more.
"""

from __future__ import annotations

from smemlab.errors import UserError
from smemlab.lab import get
from smemlab.lab.base import Experiment
from smemlab.limits import ceilings, shares
from smemlab.records import ExperimentRecord, RunRecord


def definition(name: str) -> Experiment | None:
    """The experiment's current definition, or None for a record of one that no longer exists."""
    try:
        return get(name)
    except UserError:
        return None


def derive(run: RunRecord) -> RunRecord:
    """Fill the record's derived fields from its measured ones (in place; the record is returned)."""
    run.ceilings = ceilings(run)
    for exp_rec in run.experiments:
        for v in exp_rec.variants:
            v.limits = shares(v, run.ceilings)
        experiment = definition(exp_rec.name)
        if experiment is not None:
            label(exp_rec, experiment)
            exp_rec.notes = experiment.notes(exp_rec.variants)
    return run


def label(exp_rec: ExperimentRecord, experiment: Experiment) -> None:
    """How the renderer shows the experiment, from its definition, where the record does not say
    (a record written before these fields were recorded)."""
    if exp_rec.metric is None:
        exp_rec.metric = experiment.metric
        exp_rec.column_titles = dict(experiment.column_titles)
        exp_rec.case_columns = list(experiment.case_columns)
