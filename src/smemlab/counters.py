"""The Nsight Compute metrics smemlab collects, and what a variant record's counters say.

The lowest layer of the measuring path, below the profiler that collects these metrics and the
renderer that shows them, so that both (and the experiments' notes) read the same names. DESIGN.md
says why each metric: shared wavefronts per request = wavefronts / instructions, the book's
`nvprof --metrics shared_load_transactions_per_request` on today's GPUs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from smemlab.records import VariantRecord

SHARED_LD_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SHARED_ST_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
SHARED_LD_INST = "smsp__sass_inst_executed_op_shared_ld.sum"
SHARED_ST_INST = "smsp__sass_inst_executed_op_shared_st.sum"
SHARED_LD_CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
SHARED_ST_CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
GLOBAL_LD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_LD_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_ST_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
GLOBAL_ST_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
DRAM_READ_BYTES = "dram__bytes_read.sum"
DRAM_WRITE_BYTES = "dram__bytes_write.sum"
# distributed shared memory (thread block clusters): instructions reaching another block's smem
DSHARED_ATOM_INST = "smsp__sass_inst_executed_op_dshared_atom.sum"
DSHARED_LD_INST = "smsp__sass_inst_executed_op_dshared_ld.sum"
DSHARED_ST_INST = "smsp__sass_inst_executed_op_dshared_st.sum"

# why warps wait, per issued instruction (warp cycles stalled on the reason / instructions issued):
# the warp-state section's figures. Ratios: asked for only by experiments that explain themselves
# with them (Experiment.extra_metrics), and averaged, not summed, over a case's launches
STALL_LONG_SCOREBOARD = "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"
STALL_BARRIER = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
STALL_SHORT_SCOREBOARD = "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio"

# what the profiler asks ncu for, in this order
METRICS = [
    SHARED_LD_WAVEFRONTS,
    SHARED_ST_WAVEFRONTS,
    SHARED_LD_INST,
    SHARED_ST_INST,
    SHARED_LD_CONFLICTS,
    SHARED_ST_CONFLICTS,
    GLOBAL_LD_SECTORS,
    GLOBAL_LD_REQUESTS,
    GLOBAL_ST_SECTORS,
    GLOBAL_ST_REQUESTS,
    DRAM_READ_BYTES,
    DRAM_WRITE_BYTES,
    DSHARED_ATOM_INST,
    DSHARED_LD_INST,
    DSHARED_ST_INST,
]


def ratio(num: float | None, den: float | None) -> float | None:
    """num / den, or None where either is missing or den is 0."""
    if num is None or not den:
        return None
    return num / den


def predicted_per_request(v: "VariantRecord", op: str) -> float | None:
    """Shared wavefronts per request the bank model predicts for all declared accesses of `op`."""
    accs = [a for a in v.accesses if a.op == op]
    requests = sum(a.predicted_requests for a in accs)
    return sum(a.predicted_wavefronts for a in accs) / requests if requests else None


def measured_per_request(v: "VariantRecord", op: str, isolated: bool = True) -> float | None:
    """Shared wavefronts per request measured: at the bank-check size where there is one
    (`isolated`), else at the run's size."""
    counters = v.bank_counters if isolated and v.bank_counters else v.counters
    wave, inst = (SHARED_LD_WAVEFRONTS, SHARED_LD_INST) if op == "load" else (SHARED_ST_WAVEFRONTS, SHARED_ST_INST)
    return ratio(counters.get(wave), counters.get(inst))


def bank_mismatch(v: "VariantRecord", op: str) -> bool:
    """True where the profiler measured shared wavefronts that the declared accesses do not predict
    (at the bank-check size where there is one: see Experiment.bank_check_size)."""
    measured, predicted = measured_per_request(v, op), predicted_per_request(v, op)
    if measured is None:
        return False
    counters = v.bank_counters or v.counters
    if predicted is None:
        return counters.get(SHARED_LD_INST if op == "load" else SHARED_ST_INST, 0) > 0 and bool(v.accesses)
    return abs(measured - predicted) > 1e-6


def shared_wavefronts(counters: dict[str, float]) -> float | None:
    """Shared loads' and stores' wavefronts together (atomics are not among the metrics), or None
    where the counters do not hold them."""
    if SHARED_LD_WAVEFRONTS not in counters and SHARED_ST_WAVEFRONTS not in counters:
        return None
    return counters.get(SHARED_LD_WAVEFRONTS, 0.0) + counters.get(SHARED_ST_WAVEFRONTS, 0.0)


def dram_bytes(counters: dict[str, float]) -> float | None:
    """Bytes read from and written to DRAM, or None where the counters do not hold them."""
    if DRAM_READ_BYTES not in counters and DRAM_WRITE_BYTES not in counters:
        return None
    return counters.get(DRAM_READ_BYTES, 0.0) + counters.get(DRAM_WRITE_BYTES, 0.0)


GLOBAL_PAIRS = {"load": (GLOBAL_LD_SECTORS, GLOBAL_LD_REQUESTS), "store": (GLOBAL_ST_SECTORS, GLOBAL_ST_REQUESTS)}


def global_declared(v: "VariantRecord") -> bool:
    """True where the record holds the kernel's global accesses, all of them: none in a record from
    before the field or for a variant with no declaration, and a variant may mark them incomplete."""
    return bool(getattr(v, "global_accesses", None)) and not getattr(v, "global_incomplete", None)


def predicted_global_per_request(v: "VariantRecord", op: str) -> float | None:
    """Global sectors per request the sector rules predict for the kernel's declared loads or stores
    (smemlab.banks.sectors), each weighed by its repetitions as Nsight Compute's totals weigh them;
    None where not declared (global_declared) or where no declared access is an `op`."""
    if not global_declared(v):
        return None
    accs = [a for a in v.global_accesses if a.op == op]
    return ratio(sum(a.predicted_sectors for a in accs), sum(a.predicted_requests for a in accs))


def measured_global_per_request(v: "VariantRecord", op: str) -> float | None:
    """Nsight Compute's global sectors per request at the run's size (l1tex__t_sectors_pipe_lsu_mem_
    global_op_ld/st over its requests); None where not profiled or it made no request."""
    sectors, requests = GLOBAL_PAIRS[op]
    return ratio(v.counters.get(sectors), v.counters.get(requests))


def global_mismatch(v: "VariantRecord", op: str) -> bool:
    """True where the declared global accesses predict other sectors per request than Nsight Compute
    measured, or requests where it measured none (or none where it measured some)."""
    if not global_declared(v) or GLOBAL_PAIRS[op][1] not in v.counters:
        return False
    measured, predicted = measured_global_per_request(v, op), predicted_global_per_request(v, op)
    if measured is None or predicted is None:
        return (measured is None) != (predicted is None)
    return abs(measured - predicted) > 1e-6
