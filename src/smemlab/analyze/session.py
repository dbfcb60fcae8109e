"""One analysis: compile, parse, lay out memory, run the block, count; the result as a `Report`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from smemlab.analyze import args as A
from smemlab.analyze import hoisting, sass, spills, tensormaps
from smemlab.analyze.cfg import build_flow
from smemlab.analyze.deadloads import DeadLoads, loads_below_branch, sunk_loads
from smemlab.analyze.executor import AnalyzeError, Executor
from smemlab.analyze.globalledger import attach as attach_memory
from smemlab.analyze.externs import heap_buffer, heap_needed
from smemlab.analyze.inline import inline_calls
from smemlab.analyze.ledger import Ledger, LineStats, PlanMisaligned, Site, on_statements, per_line
from smemlab.analyze.machine import Launch, Machine
from smemlab.analyze.nvrtc import find_kernel
from smemlab.analyze.ptx import PTXError, Reg, parse_module
from smemlab.analyze.unit import compile_unit
from smemlab.errors import UserError

KINDS = ("load", "store", "atomic")
EXTRA_KINDS = ("ldgsts", "wgmma")
DEFAULT_MAX_STEPS = 10_000_000
DEFAULT_TIME_LIMIT = 120.0  # seconds of emulation; a spin that spin.py cannot see stops here
MAX_DYNAMIC_SHARED = 227 * 1024


@dataclass
class Report:
    kernel: str
    symbol: str
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    block_index: tuple[int, int, int]
    dynamic_shared: int
    static_shared: int
    sites: list[Site]
    lines: list[LineStats]
    files: dict[int, str]  # PTX file index -> path shown to the user
    sources: dict[int, list[str]]  # PTX file index -> the file's lines (empty if unreadable)
    steps: int  # warp-instructions executed
    barriers: int
    ptx: str = field(repr=False, default="")
    buffers: dict = field(repr=False, default_factory=dict)  # pointer arguments' contents after the run
    sass: object = None  # sass.Plan: where the SASS's access widths replaced the PTX's
    cluster: tuple[int, int, int] = (1, 1, 1)  # the blocks emulated: the cluster holding block_index
    cubin: bytes = field(repr=False, default=b"")  # what ptxas made of the PTX (the SASS the plan read)
    refused: list[str] = field(default_factory=list)  # instructions the emulator cannot run, none of them reached
    memory_sites: list[Site] = field(default_factory=list)  # global and local traffic (globalledger.py)
    memory_lines: list[LineStats] = field(default_factory=list)
    uncounted_spills: list[str] = field(default_factory=list)  # ptxas's spills no rule of spills.py places
    launch: object = None  # launch.LaunchTotals of --blocks: the whole grid's global and local traffic
    chosen: list[str] = field(default_factory=list)  # what the front end picked for the user (an autotune config)
    front_end: str = ""  # "triton" where Triton wrote the PTX: its uncoalesced lines have causes of their own
    # the sites as the line table places them, where some inline asm's accesses moved to their statement's line
    # (ledger.on_statements; None: none moved): what Nsight Compute's source view shows
    table_sites: list[Site] | None = field(repr=False, default=None)
    table_memory_sites: list[Site] | None = field(repr=False, default=None)

    def as_line_table(self) -> "Report":
        """This report with its lines where the line table puts them, as Nsight Compute's source view does."""
        if self.table_sites is None and self.table_memory_sites is None:
            return self
        sites = self.sites if self.table_sites is None else self.table_sites
        memory_sites = self.memory_sites if self.table_memory_sites is None else self.table_memory_sites
        return replace(self, sites=sites, lines=per_line(sites), memory_sites=memory_sites,
                       memory_lines=per_line(memory_sites), table_sites=None, table_memory_sites=None)

    def totals(self, kind: str) -> dict:
        """Requests, wavefronts, ideal wavefronts and instructions of one kind of shared-memory traffic ("load",
        "store", "atomic", "ldgsts", "wgmma"); a global or local kind ("global load" or the --json key
        "global_load") gives memory_totals' sectors. Any other name is refused, not answered with zeros."""
        if kind not in KINDS + EXTRA_KINDS:
            return self.memory_totals(kind)
        ss = [s for s in self.sites if s.kind == kind]
        return {"requests": sum(s.requests for s in ss), "wavefronts": sum(s.wavefronts for s in ss),
                "ideal_wavefronts": sum(s.ideal for s in ss), "instructions": sum(s.issued for s in ss)}

    def memory_totals(self, kind: str) -> dict:
        """Requests, sectors and ideal sectors of one kind of global or local traffic (globalledger.py), the
        sectors as the kernel's counters count them: its lines' sectors, summed, can be more (16-byte cp.async,
        Site.counted)."""
        from smemlab.analyze.globalledger import MEMORY_KINDS

        kind = kind.replace("_", " ")
        if kind not in MEMORY_KINDS:
            known = ", ".join(repr(k) for k in KINDS + EXTRA_KINDS + MEMORY_KINDS)
            raise UserError(f"no traffic of kind {kind!r}: the kinds are {known} ('global_load' as --json names it)")
        ss = [s for s in self.memory_sites if s.kind == kind]
        return {"requests": sum(s.requests for s in ss), "sectors": sum(s.counted for s in ss),
                "ideal_sectors": sum(s.ideal for s in ss), "instructions": sum(s.issued for s in ss)}

    def source_text(self, file: int, line: int) -> str:
        lines = self.sources.get(file) or []
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""

    def file_name(self, file: int) -> str:
        return self.files.get(file, "?")

    def to_json(self) -> dict:
        """The object `smemlab analyze --json` prints."""
        from smemlab.analyze import render

        return render.to_json(self)

    def bank_map(self, line: int, png: str | None = None) -> str:
        """The bank map of the costliest warp of source line `line`, as text (and a PNG where `png` names one)."""
        from smemlab.analyze import notebook

        return notebook.bank_map(self, line, png)

    def _repr_html_(self) -> str:  # Jupyter: the per-line table beside the source
        from smemlab.analyze import notebook

        return notebook.html(self)

    def ordered_lines(self) -> list[LineStats]:
        """Worst first: excess wavefronts, then wavefronts, then requests; then by file and line."""
        return sorted(self.lines, key=lambda ls: (-ls.excess, -ls.wavefronts, -ls.requests, ls.file, ls.line,
                                                  KINDS.index(ls.kind) if ls.kind in KINDS else 9))


MAX_CLUSTER = 16  # blocks of a cluster on Hopper (8 portable, 16 with the non-portable size allowed)


GRID_MOST = (2**31 - 1, 65535, 65535)  # a grid's sides


def _dims(name: str, v, most: tuple[int, int, int] | None = None, limits: str = "") -> tuple[int, int, int]:
    """A launch shape of 1 to 3 positive sizes (at most `most`, which `limits` says in words), padded with 1s."""
    t = tuple(int(x) for x in v) + (1,) * (3 - len(v))
    if len(t) != 3 or any(x <= 0 for x in t) or (most and any(x > m for x, m in zip(t, most))):
        raise UserError(f"--{name} {','.join(map(str, t))}: 1 to 3 positive sizes{limits}")
    return t


def _check_cluster(cluster, grid) -> tuple[int, int, int]:
    cl = _dims("cluster", cluster)
    if cl[0] * cl[1] * cl[2] > MAX_CLUSTER:
        raise UserError(f"--cluster {','.join(map(str, cl))}: a cluster has at most {MAX_CLUSTER} blocks")
    if any(g % c for g, c in zip(grid, cl)):
        raise UserError(f"--grid {','.join(map(str, grid))} is not a whole number of clusters of "
                        f"{','.join(map(str, cl))} (each side of the grid must be a multiple of the cluster's)")
    return cl


def _kernel_cluster(k, cluster, grid, kernel: str) -> tuple[int, int, int]:
    """The cluster shape: --cluster, else the kernel's __cluster_dims__ (.reqnctapercluster), else one block."""
    fixed = _dims("cluster", k.reqnctapercluster) if k.reqnctapercluster else None
    if cluster is None:
        return _check_cluster(fixed or (1, 1, 1), grid)
    cl = _check_cluster(cluster, grid)
    if fixed and cl != fixed:
        raise UserError(f"{kernel} is compiled for clusters of {','.join(map(str, fixed))} (__cluster_dims__); "
                        f"--cluster {','.join(map(str, cl))} differs")
    return cl


def _check_launch(block, grid, block_index, dynamic_shared):
    from smemlab.banks.analysis import normalize_block

    block = normalize_block(block)
    grid = _dims("grid", grid, GRID_MOST, " (x < 2^31, y and z <= 65535)")
    bi = tuple(int(b) for b in block_index) + (0,) * (3 - len(block_index))
    if len(bi) != 3 or any(not 0 <= b < g for b, g in zip(bi, grid)):
        raise UserError(f"--block-index {','.join(map(str, bi))} is outside the grid {','.join(map(str, grid))}")
    if not 0 <= int(dynamic_shared) <= MAX_DYNAMIC_SHARED:
        raise UserError(f"--dynamic-shared {dynamic_shared}: a block has at most {MAX_DYNAMIC_SHARED} bytes")
    return block, grid, bi


def analyze_source(path: str, kernel: str | None, block, grid=(1, 1, 1), block_index=(0, 0, 0),
                   dynamic_shared: int = 0, args: list[str] | None = None, defines: dict[str, str] | None = None,
                   include_dirs: list[str] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
                   cluster=None, options: list[str] | None = None, compiler: str = "auto",
                   time_limit: float | None = DEFAULT_TIME_LIMIT, keep_addresses: bool = False) -> Report:
    """`kernel`: as written in the source, a template instance (`'k<int, 128>'`, instantiated if the file does
    not), or None where the file has one kernel. `cluster`: the shape of the thread-block cluster the kernel is
    launched with (None: the kernel's __cluster_dims__, else one block); all its blocks are emulated, the one
    holding `block_index` among them. `options`: compiler options as the repository's build passes them.
    `compiler`: "nvcc" (a whole file as it sits), "nvrtc" (device code only), or "auto" (nvcc where it is
    installed, NVRTC for the package's own kernels, which is what runs them). `time_limit`: seconds of emulation at most.
    `keep_addresses`: keep every global and local request's addresses (Site.sources), for launch.py."""
    block, grid, block_index = _check_launch(block, grid, block_index, dynamic_shared)
    from smemlab.analyze.fields import dotted

    unit = compile_unit(path, kernel, defines, include_dirs, options, compiler, dotted(list(args or [])))
    return _run(unit.module, unit.ptx, unit.symbol, unit.kernel, unit.source, unit.shown, unit.files, unit.sources,
                Launch(block, grid, block_index, int(dynamic_shared)), args, max_steps, unit.cubin, cluster,
                fields=unit.fields, time_limit=time_limit, keep_addresses=keep_addresses)


def analyze_unit(unit, block, grid=(1, 1, 1), block_index=(0, 0, 0), dynamic_shared: int = 0,
                 args: list[str] | None = None, max_steps: int = DEFAULT_MAX_STEPS, cluster=None,
                 time_limit: float | None = DEFAULT_TIME_LIMIT, keep_addresses: bool = False) -> Report:
    """The same on a unit.Unit another front end made (Numba, Triton, a source string)."""
    block, grid, block_index = _check_launch(block, grid, block_index, dynamic_shared)
    return _run(unit.module, unit.ptx, unit.symbol, unit.kernel, unit.source, unit.shown, unit.files, unit.sources,
                Launch(block, grid, block_index, int(dynamic_shared)), args, max_steps, unit.cubin, cluster,
                fields=unit.fields, time_limit=time_limit, keep_addresses=keep_addresses)


def analyze_ptx(ptx: str, kernel: str, block, grid=(1, 1, 1), block_index=(0, 0, 0), dynamic_shared: int = 0,
                args: list[str] | None = None, max_steps: int = DEFAULT_MAX_STEPS, source: str = "",
                cluster=None, time_limit: float | None = DEFAULT_TIME_LIMIT) -> Report:
    """The same on PTX text (parameters are named from `source`, a C signature, or param0, param1 ...)."""
    block, grid, block_index = _check_launch(block, grid, block_index, dynamic_shared)
    try:
        module = parse_module(ptx)
    except PTXError as exc:
        raise UserError(f"PTX not understood: {exc}") from None
    symbol = find_kernel(list(module.kernels), kernel, {})
    return _run(module, ptx, symbol, kernel, source, "<ptx>", {i: p for i, p in module.files.items()},
                {i: [] for i in module.files}, Launch(block, grid, block_index, int(dynamic_shared)), args, max_steps,
                cluster=cluster, time_limit=time_limit)


def _run(module, ptx: str, symbol: str, kernel: str, source: str, shown: str, files, sources, launch: Launch,
         args, max_steps, cubin: bytes = b"", cluster=None, fields=None,
         time_limit: float | None = DEFAULT_TIME_LIMIT, keep_addresses: bool = False) -> Report:
    """The run of the kernel; again, from a fresh binding of the arguments, where a vector width sass.plan
    matched to a line's accesses turns out misaligned for them (another array of the line takes it)."""
    avoid: set[tuple[int, int]] = set()
    while True:
        try:
            return _run_once(module, ptx, symbol, kernel, source, shown, files, sources, launch, args, max_steps,
                             cubin, cluster, fields, time_limit, keep_addresses, frozenset(avoid))
        except PlanMisaligned as exc:
            if (exc.pc, exc.width) in avoid or len(avoid) >= MAX_REPLANS:
                raise UserError(str(exc)) from None
            avoid.add((exc.pc, exc.width))


MAX_REPLANS = 8


def _run_once(module, ptx, symbol, kernel, source, shown, files, sources, launch, args, max_steps, cubin, cluster,
              fields, time_limit, keep_addresses, avoid) -> Report:
    try:
        k = inline_calls(module, module.kernels[symbol])
    except PTXError as exc:
        raise UserError(f"{shown}: {exc}") from None
    if k.reqntid and tuple(k.reqntid) + (1,) * (3 - len(k.reqntid)) != launch.block:
        raise UserError(f"{kernel} requires a block of {','.join(map(str, k.reqntid))} (__launch_bounds__/reqntid)")
    if k.maxntid and launch.threads > _prod(k.maxntid):
        raise UserError(f"{kernel} is compiled for at most {_prod(k.maxntid)} threads per block "
                        f"(__launch_bounds__); the block has {launch.threads}")
    launch = replace(launch, cluster=_kernel_cluster(k, cluster, launch.grid, kernel))
    bound = A.bind(module, k, source, kernel, list(args or []), fields,
                   (heap_buffer(),) if heap_needed(k) else ())
    try:
        flow = build_flow(k.body)
        mach = Machine(module, k, launch, bound.space, bound.params, bound.const)
    except PTXError as exc:
        raise UserError(f"{shown}: {exc}") from None
    text = sass.listing_text(cubin) if cubin else None  # nvdisasm's listing (None without it): read once here
    listing = sass.parse_sass(text, symbol) if text is not None else None
    sites = shared_accesses(flow.instrs)
    plan = sass.plan(flow.instrs, flow.block_of, sites, listing, module.files, avoid, flow)
    plan.unrolled = sass.unrolled_loops(text, symbol, flow, sites, listing, module.files)
    forms = sass.copy_forms(cubin, symbol) if cubin else None
    ledger = Ledger(mach.W, plan, flow.block_of, copy_predicates=_copy_predicates(flow.instrs, text, symbol, module.files),
                    atomic_rules=sass.atomic_rules(flow.instrs, shared_atomics(flow.instrs), listing, module.files),
                    wgmma_places=sass.wgmma_places(flow.instrs, cubin, symbol, module.files),
                    copy_forms={(i, line): z for i, path in module.files.items() for (name, line), z in (forms or {}).items()
                                if Path(path).name == name})
    ledger.tensormap_costs = tensormaps.sass_costs(flow.instrs, flow.block_of, sites, listing, module.files)
    ledger.hoisted.hoists = hoisting.hoisted_loads(text, symbol, flow, sites, module.files)
    memory = attach_memory(ledger, flow, cubin, symbol, module.files, keep_addresses)

    def where(pc: int) -> str:
        ins = flow.instrs[pc]
        if ins.loc is None or ins.loc.line == 0:
            return f"{shown} (PTX `{ins.text}`)"
        src = _line_text(sources, ins.loc.file, ins.loc.line)
        here = f"{files.get(ins.loc.file, '?')}:{ins.loc.line}" + (f" `{src}`" if src else "")
        call = ins.loc.inlined_at
        if call and call != (ins.loc.file, ins.loc.line):  # inlined from a header: the kernel's own line first
            own = _line_text(sources, call[0], call[1])
            return f"{files.get(call[0], '?')}:{call[1]}" + (f" `{own}`" if own else "") + f" (through {here})"
        return here

    def describe_thread(t: int) -> str:
        tx, ty, tz = (int(mach.tid[0][t]), int(mach.tid[1][t]), int(mach.tid[2][t]))
        tb = int(mach.in_block[t])
        where = f"thread {tb} (threadIdx {tx},{ty},{tz}, warp {tb // 32} lane {tb % 32}"
        if mach.blocks == 1:
            return where + ")"
        block = ",".join(str(int(c[t])) for c in mach.ctaid)
        return where + f", block {block}: rank {int(mach.rank[t])} of the cluster)"

    dead = DeadLoads(ledger, mach.W)
    dead.watched = {mach.reg_index(r.name) for ins in flow.instrs if ins.parts[0] == "ldmatrix" and ins.operands
                    for r in (ins.operands[0].items if hasattr(ins.operands[0], "items") else [ins.operands[0]])}
    sunk = sunk_loads(flow.instrs, flow.block_of)
    dead.sunk = set(sunk)
    dead.watched |= {mach.reg_index(r) for regs in sunk.values() for r in regs}
    dead.sink_below(loads_below_branch(flow.instrs, flow))
    mach.dead = dead if dead.watched or dead.below else None
    ex = Executor(flow, mach, ledger, int(max_steps), where, describe_thread, time_limit)
    spilled = spills.count(text, symbol, flow, module.files, frozenset(ledger.coalesce) | frozenset(memory.coalesce)) \
        if text is not None else None
    if spilled is not None:
        ex.trace = spills.Trace({s: b for b, s in enumerate(flow.starts)}, mach.valid.size)
    if ledger.unrolled or memory.unrolled or ledger.hoisted.hoists:  # loop runs end where the paths leave the loop
        ex.on_block = lambda pc: (ledger.leave(pc), memory.leave(pc))
    try:
        ex.run()
    finally:
        ex.runtime.finish()
    uncounted = spills.record(memory, spilled[0], spilled[1], ex.trace, module.files, mach.W) if spilled else []
    dead.finish()
    ledger.finish()
    memory.finish()
    table_sites = sorted(ledger.sites.values(), key=lambda s: (s.pc, s.kind))
    table_memory_sites = sorted(memory.sites.values(), key=lambda s: (s.pc, s.kind))
    moved, moved_memory = on_statements(table_sites, flow.instrs), on_statements(table_memory_sites, flow.instrs)
    sites = table_sites if moved is None else moved
    memory_sites = table_memory_sites if moved_memory is None else moved_memory
    return Report(kernel=kernel, symbol=symbol, block=launch.block, grid=launch.grid, block_index=launch.block_index,
                  dynamic_shared=launch.dynamic_shared, static_shared=mach.static_shared, sites=sites,
                  lines=per_line(sites), files=files, sources=sources, steps=ex.steps, barriers=ex.barriers,
                  ptx=ptx, buffers={**{n: _contents(mach, b) for n, b in bound.by_name.items()},
                                    **{b.name: _contents(mach, b) for b in bound.buffers if b.name.startswith("@")}},
                  sass=plan,
                  cluster=launch.cluster, cubin=cubin,
                  refused=[f"{where(pc)}: {msg}" for pc, msg in sorted(ex.refused.items())],
                  memory_sites=memory_sites, memory_lines=per_line(memory_sites),
                  uncounted_spills=[f"{s.file}:{s.line} {s.text}" for s in uncounted],
                  table_sites=None if moved is None else table_sites,
                  table_memory_sites=None if moved_memory is None else table_memory_sites)


def shared_atomics(instrs) -> list[int]:
    from smemlab.analyze.memops import space_of

    return [pc for pc, ins in enumerate(instrs) if ins.parts[0] in ("atom", "red") and space_of(ins) == "shared"]


def _copy_predicates(instrs, text: str | None, symbol: str, files: dict) -> dict[int, str]:
    """pc -> the source predicate of the LDGSTS ptxas made of the cp.async there (sass.copy_predicates), where a
    line's cp.async and its LDGSTS pair one to one in order."""
    if text is None:
        return {}
    preds = sass.copy_predicates(text, symbol)
    by_line: dict[tuple[str, int], list[int]] = {}
    for pc, ins in enumerate(instrs):
        # a source size in a register is what ptxas makes a source predicate of (or the zero-filling form)
        sized = len(ins.operands) > 3 and isinstance(ins.operands[3], Reg)
        if sized and ins.opcode.startswith(("cp.async.ca.", "cp.async.cg.")) and ins.loc is not None \
                and ins.loc.file in files:
            by_line.setdefault((Path(files[ins.loc.file]).name, ins.loc.line), []).append(pc)
    out = {}
    for key, pcs in by_line.items():
        got = [p for p in preds.get(key, []) if p]
        if len(got) == len(pcs):
            out.update(zip(pcs, got))
    return out


def shared_accesses(instrs) -> dict[int, tuple[str, int]]:
    """pc -> (load|store, bytes) of every ld/st on .shared in the PTX."""
    from smemlab.analyze.machine import DTYPES
    from smemlab.analyze.memops import space_of

    out = {}
    for pc, ins in enumerate(instrs):
        if ins.parts[0] in ("ld", "st") and space_of(ins) == "shared" and ins.parts[-1] in DTYPES:
            vec = next((int(p[1:]) for p in ins.parts if p in ("v2", "v4", "v8")), 1)
            out[pc] = ("load" if ins.parts[0] == "ld" else "store", vec * np.dtype(DTYPES[ins.parts[-1]]).itemsize)
    return out


def _contents(mach, buf):
    import numpy as np

    raw = mach.global_.contents(buf).copy()
    dt = np.dtype(buf.dtype)
    return raw[: raw.size // dt.itemsize * dt.itemsize].view(dt)


def _prod(t) -> int:
    out = 1
    for v in t:
        out *= v
    return out


def _line_text(sources, file, line) -> str:
    lines = sources.get(file) or []
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


__all__ = ["Report", "analyze_source", "analyze_ptx", "analyze_unit", "AnalyzeError", "DEFAULT_MAX_STEPS", "DEFAULT_TIME_LIMIT"]
