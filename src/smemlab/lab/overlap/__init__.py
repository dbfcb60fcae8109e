"""Overlapping memory transfers with computation, and grouping small transfers (program 004's closing
advice: "重叠内存传输和计算, 组团传输减少小块数据的频繁传输"), from the host link to shared memory.

Three parts, each in its own module:
- smemlab.lab.overlap.hostlink: pageable against pinned memory over a size sweep, and many small
  transfers against one grouped transfer;
- smemlab.lab.overlap.pipeline: copy in, compute, copy out in chunks over N streams, against the
  ideal max(copies, compute) measured alone in the same run, with a timeline of one run;
- smemlab.lab.overlap.staging: the 1-D stencil's tile staged into shared memory through registers,
  with cp.async and with Hopper's bulk copies (TMA), 1 to 4 stages;
- smemlab.lab.overlap.staging_mm: the book's tiled matmul (compute-heavy where the stencil is
  memory-bound) staged the same three ways, 1 to 4 stages.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from smemlab.errors import UserError
from smemlab.lab.overlap import hostlink, pipeline, staging, staging_mm
from smemlab.lab.base import Case, Experiment, Variant

MIN_N = 1024  # one 4 KiB piece
MAX_N = 1 << 30  # 4 GiB a buffer (the host holds four of them)


class OverlapExperiment(Experiment):
    name = "overlap"
    title = "Overlapping transfers with computation: the host link, a stream pipeline, async copies into shared memory"
    seed = ("the book's closing advice on memory: overlap memory transfers with computation, and group small "
            "transfers into large ones; then the same idea inside the SM (cp.async, Hopper's TMA)")
    source = "lab/overlap/overlap.cu"
    size_help = ("N (floats: host transfers up to 4N bytes, the stencil tiles over N points; the pipeline moves "
                 f"min(N, {pipeline.MAX_FLOATS}) floats each way; the matmul is square, sqrt(N) down to a multiple "
                 f"of 4, at most {staging_mm.MAX_SIDE})")
    default_size = (1 << 28,)
    small_sizes = ((100003,), (MIN_N,))
    columns = ("case", "link_gbps", "of_ideal")
    column_titles = {"case": "case", "link_gbps": "link GB/s", "of_ideal": "of ideal overlap"}
    case_columns = ("case",)
    # what the asynchronous copies remove: warps waiting on their loads (the staging notes)
    extra_metrics = staging.STALL_METRICS
    # the staged kernels' bank check: four stencil tiles, one 64x64 square of C (4 K tiles), so few
    # blocks that no other traffic shares their SMs
    bank_check_size = (4 * staging.TILE,)

    def variants(self) -> list[Variant]:
        return hostlink.variants() + pipeline.variants() + staging.variants() + staging_mm.variants()

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        values = tuple(int(v) for v in values)
        if len(values) != 1:
            raise UserError(f"overlap --size takes one number N (floats); got {len(values)}")
        if not MIN_N <= values[0] <= MAX_N:
            raise UserError(f"overlap --size: N must be in {MIN_N}..{MAX_N} (one 4 KiB piece up to 4 GiB); "
                            f"got {values[0]}")
        return values

    def cases(self, rt, size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        (n,) = self.parse_size(size)
        for part in (hostlink, pipeline, staging, staging_mm):
            yield from part.cases(rt, n, variants)

    def notes(self, records: Sequence[Any]) -> list[str]:
        return (hostlink.link_notes(records) + pipeline.pipeline_notes(records) + staging.staging_notes(records)
                + staging_mm.mm_notes(records))
