"""What an experiment is: variants (the book's programs' kernels), and cases (a variant ready to run).

An experiment module builds its cases on a `Runtime` (smemlab.gpu): it allocates seeded random
inputs with CuPy, compiles its lab/NAME/NAME.cu (beside it), and hands the runner one `Case` per variant. The
runner (smemlab.runner) does the rest the same way for every experiment: poison the outputs,
launch once, check, then time launches back to back (smemlab.measure); it never needs to know
what the kernel computes.

Where the library has the fast version of a topic (smemlab.ops), the experiment ends with it: a
variant named after the op (`smemlab.ops.transpose`) that launches the op's kernel (ops/<op>/<op>.cu)
exactly as the op does, through the op's own launch function, into the experiment's buffers, so it
is verified, timed and profiled like the book's kernels and the table climbs from the book's kernel
to the library's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from smemlab.gpu import Runtime


@dataclass(frozen=True)
class Declared:
    """One memory instruction of a kernel as a subscript over the block's threads (what an access
    declaration has, shared or global): `expr`, `shape`, `dtype`, `op` and `active` mean what they
    mean to `smemlab bank`; the block is the variant's. `per_warp` is how many times each warp
    executes this instruction per launch of one block (a loop runs it several times)."""

    label: str
    expr: str
    shape: tuple[int, ...]
    dtype: str
    op: str = "load"
    active: str | None = None
    per_warp: int = 1


@dataclass(frozen=True)
class SmemAccess(Declared):
    """One shared-memory instruction of a kernel, declared for the bank model; the profiler
    multiplies by `per_warp`."""


@dataclass(frozen=True)
class GlobalAccess(Declared):
    """One global-memory instruction of a kernel, declared for the sector rules (smemlab.banks.sectors).

    `expr` may also name the block (bx by bz); it is evaluated for the block at `block_index`, which
    stands for every block (declare where the others' addresses are translates of its by whole
    sectors). `shape` is the array's (a representative size: the ratio does not change with it),
    `dtype` the width the SASS uses (float4 where ptxas made an LDG.E.128). The kernel's sectors per
    request weigh each access by `per_warp`, as Nsight Compute's totals do.
    """

    block_index: tuple[int, int, int] = (0, 0, 0)


@dataclass(frozen=True)
class Variant:
    """One kernel (or baseline) of an experiment, named as the book's programs name it."""

    name: str
    summary: str
    kernel: str | None = None  # the symbol in its lab/<topic>/<topic>.cu; None for CPU/library baselines
    block: tuple[int, int, int] = (1, 1, 1)
    smem: tuple[SmemAccess, ...] = ()
    # every global load and store of the kernel (a kernel-level prediction needs them all), or none
    gmem: tuple[GlobalAccess, ...] = ()
    # why the declared global accesses are not all of the kernel's: then none is predicted per request
    gmem_incomplete: str | None = None
    hazard: str | None = None  # kept on purpose to show a hazard; the sanitizer finding expected
    on_gpu: bool = True  # False: a host baseline, timed with the host clock
    # False: timed one call a sample, for work whose figure is a call alone (a transfer's own cost),
    # not calls back to back; the variant's definition says why
    batched: bool = True
    library: str | None = None  # the library op it runs ("smemlab.ops.transpose"); its kernel is in ops/<op>/
    # False: `smemlab profile` leaves it out; for work of many launches and copies on several streams,
    # whose per-kernel counters explain nothing and would take Nsight Compute minutes to collect
    profiled: bool = True


@dataclass
class Check:
    """The verdict of comparing a variant's output with the reference."""

    ok: bool
    detail: str = ""  # what was compared, or the first wrong element
    error: float | None = None  # relative error where the result is floating point


@dataclass
class Case:
    """A variant ready to run: its inputs are on the GPU, its reference is computed."""

    variant: Variant
    # enqueues the work on the runtime's stream (or runs it on the host). The timer calls it back to
    # back, many times a sample (smemlab.measure): each call does all the work the record times, what
    # it needs before the kernel too (a memset of the bins it counts into)
    launch: Callable[[], Any]
    check: Callable[[], Check]  # compares the outputs of the last launch with the reference
    outputs: Sequence[Any] = ()  # CuPy arrays the runner poisons before the checked launch
    bytes_moved: int = 0  # bytes read + bytes written, each counted once
    flops: int = 0
    launch_shape: str = ""  # "grid (128,128,1) block (32,32,1) smem 4224 B", for errors and reports
    extra: dict[str, Any] = field(default_factory=dict)  # experiment-specific columns


class Experiment:
    """Base class of the experiments. Subclasses fill in the class attributes and `cases`."""

    name: str = ""
    title: str = ""
    seed: str = ""  # what it reproduces: a section of the book, or of the CUDA Programming Guide
    source: str = ""  # the kernel source holding its kernels ("lab/layout/layout.cu")
    # more of the topic's kernel sources, beside the modules that launch them (the designs the library dropped:
    # "lab/histogram/cluster_methods.cu")
    more_sources: tuple[str, ...] = ()
    library_source: str = ""  # the kernel source of the op its last variant runs ("ops/transpose/transpose.cu")
    size_help: str = ""  # how --size is read, e.g. "N (elements)" or "ROWS,COLS"
    default_size: tuple[int, ...] = ()
    small_sizes: tuple[tuple[int, ...], ...] = ()  # odd sizes the GPU tests verify
    columns: tuple[str, ...] = ()  # extra report columns taken from Case.extra
    column_titles: dict[str, str] = {}  # their headings in plain words (default: the key, underscores as spaces)
    metric: str = "bandwidth"  # what the table and chart lead with: "bandwidth" (GB/s) or "flops" (FLOP/s)
    case_columns: tuple[str, ...] = ()  # extra columns that tell apart several runs of one variant (a sweep)
    # a size of a few blocks where the profiler checks the bank model exactly: at full size, loads
    # also pay for arbitration with other warps' traffic (extra wavefronts the conflict counter
    # counts too), which no per-access model can predict
    bank_check_size: tuple[int, ...] | None = None
    # Nsight Compute metrics asked for besides counters.METRICS, for this experiment's notes (stall
    # reasons, say): each adds replay passes, so only where the notes read them
    extra_metrics: tuple[str, ...] = ()

    def variants(self) -> list[Variant]:
        raise NotImplementedError

    def sources(self) -> tuple[str, ...]:
        """Every kernel source its variants launch from: the book's, then the library's."""
        return tuple(s for s in (self.source, *self.more_sources, self.library_source) if s)

    def parse_size(self, values: Sequence[int]) -> tuple[int, ...]:
        """Validate a --size; raise UserError naming what is accepted."""
        raise NotImplementedError

    def cases(self, rt: "Runtime", size: tuple[int, ...], variants: Sequence[Variant]) -> Iterator[Case]:
        raise NotImplementedError

    def notes(self, records: Sequence[Any]) -> list[str]:
        """Lines for the report under the table: what the numbers show. Called by smemlab.derive
        once the measurements are in (counters included) and each variant's limits are derived, and
        again whenever a record is derived again: the same records give the same lines. It may also
        fill derived columns (VariantRecord.extra) that need other variants' figures. It reads the
        variant records only: the renderer shows what it returns and never calls it."""
        return []
