"""What ptxas made of the PTX's shared-memory accesses: the SASS widths, to count as the hardware does.

NVVM's PTX is not what runs: ptxas may merge neighbouring scalar accesses into one wider one (four
`ld.shared.f32 [%r7+0..12]` become one `LDS.128 [R20]`), and Nsight Compute counts the SASS
instruction: one request of 16 bytes, whose wavefronts differ from four 4-byte requests. NVRTC's
cubin for the same source (the same ptxas) is disassembled with nvdisasm (the nvidia-cuda-nvdisasm
wheel), its shared-memory instructions grouped by source line, operation and base register, and
matched to the PTX accesses of the same line by the bytes they cover relative to their base:

    PTX line 102, base %r7: offsets 0, 4, ..., 60, 4 bytes each  (16 loads)
    SASS line 102, base R20: offsets 0x0, 0x10, 0x20, 0x30, LDS.128  (4 loads)

Before matching, a vector load some of whose destination registers are never read counts as what
ptxas loads of it (`_live_part`): NVVM at times writes a float4 read as an `ld.shared.v4` whose upper
half is unused and an `ld.shared.v2` of that half, where for the same source it otherwise writes one
`ld.shared.v4`; ptxas makes an LDS.64 of the first (then merges it with the second, or not). Each
SASS access then stands for the PTX accesses inside its bytes (which may overlap: a load of bytes the
line already loaded is one ptxas drops); the emulator hands the model the addresses of the one at its
start with the SASS width, and counts nothing for the others. The PTX groups of a line are paired
with its SASS groups as a matching, not first come first served in the PTX's order. So PTX that NVRTC
numbered, ordered or split differently is counted the same where ptxas made the same SASS of it.
A vector may also hold loads of one basic block that do not start it or fill it (`_widened`: a stencil's
`ld.shared.f32 [%r5+4]` and `ld.shared.v2.f32 [%r5+8]` as one `LDS.128 [R17]`, its first word unused).

Where ptxas unrolled a loop again and vectorised it (the line's PTX has fewer, narrower accesses
than its SASS), the groups cannot be matched statically: the ledger then merges, as they execute,
the accesses of that line that fill one aligned chunk of the SASS width (the same chunk for each
lane) into one access of that width, in whatever order they come: ptxas may vectorise a loop along
the index the source's inner loop does not walk (`Plan.coalesce`).

A line's PTX and its SASS may also stand on different source lines: a vector that ptxas makes from
loads written on several lines stands on the first, an access the line table puts on a neighbouring
line moves there, and an access left with no SASS of its kind anywhere was merged or removed
(`_across_lines`: `Plan.lines`, `Plan.removed`). Lines that none of this explains keep the PTX's
widths (`Plan.unmatched`).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from smemlab.analyze.casloop import LOOPED, looped
from smemlab.analyze.cfg import EXIT
from smemlab.analyze.ptx import Addr, Instr

_SASS_OPS = {"LDS": "load", "STS": "store", "ATOMS": "atomic"}
NEAR = 8  # source lines apart that ptxas's line table moves or merges an access across (_across_lines)
MAX_JOINED = 5  # neighbouring lines whose accesses one line's SASS vectors may take in (_across_lines)
_WIDTH = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}
_INSN = re.compile(r"/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?(LDS|STS|ATOMS)(\.[\w.]+)?\s+(.*?)\s*;")
_LINE = re.compile(r'//## File "([^"]*)", line (\d+)')
_REDUX = re.compile(r"/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?REDUX\b")


@dataclass(frozen=True)
class SassAccess:
    file: str  # base name of the source file
    line: int
    op: str  # load or store
    width: int
    base: str  # the address expression without its constant
    offset: int
    text: str
    popc: bool = False  # ATOMS.POPC.INC: the warp's increments of one word merged
    spin: bool = False  # ATOMS.CAST.SPIN: the compare-and-swap of a loop (casloop.py)
    warp: bool = False  # an ATOMS one lane makes for its warp, after a REDUX of the lanes' values


@dataclass
class Plan:
    """pc -> bytes of the access the hardware makes there (0: merged into another pc's access)."""

    sizes: dict[int, int] = field(default_factory=dict)
    atomic_rules: dict[int, str] = field(default_factory=dict)  # pc -> "lanes" | "words" | "spin" (ledger.py)
    coalesce: dict[int, int] = field(default_factory=dict)  # pc -> SASS width to build from consecutive accesses
    whole: set[int] = field(default_factory=set)  # coalesced loads whose line's SASS loads all have that width
    shift: dict[int, int] = field(default_factory=dict)  # pc -> bytes from the PTX address to the access's start
    merged: list[tuple[int, list[int], int]] = field(default_factory=list)  # (line, pcs, width)
    unmatched: list[int] = field(default_factory=list)  # source lines whose PTX and SASS disagree
    lines: dict[int, int] = field(default_factory=dict)  # pc -> the source line its SASS access stands on
    removed: list[int] = field(default_factory=list)  # source lines whose accesses ptxas removed
    joins: dict[int, int] = field(default_factory=dict)  # pc -> the line whose run-time vectors it may complete
    # pc -> its twin's pc: two branches' accesses of one address that ptxas makes one access (_twins, ledger.py)
    unions: dict[int, int] = field(default_factory=dict)
    # pc -> (its PTX loop's first pc, U, last pc): a loop ptxas unrolled again by U (unrolled_loops, ledger.py)
    unrolled: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    available: bool = True
    avoid: set[tuple[int, int]] = field(default_factory=set)  # (pc, width) no match may give (plan's `avoid`)


def nvdisasm_path() -> str | None:
    """nvdisasm from the nvidia-cuda-nvdisasm wheel, else from PATH."""
    try:
        import nvidia

        for root in getattr(nvidia, "__path__", []):
            for cand in sorted(Path(root).glob("*/bin/nvdisasm")):
                if os.access(cand, os.X_OK):
                    return str(cand)
    except ImportError:
        pass
    return shutil.which("nvdisasm")


def disassemble(cubin: bytes, symbol: str) -> list[SassAccess] | None:
    """Shared loads and stores of kernel `symbol` in order, with their source lines; None when
    nvdisasm is not available."""
    text = listing_text(cubin)
    return None if text is None else parse_sass(text, symbol)


def listing_text(cubin: bytes) -> str | None:
    """nvdisasm's listing of `cubin` with line information (cached on disk); None without nvdisasm."""
    tool = nvdisasm_path()
    if tool is None or not cubin:
        return None
    from smemlab.compiler import cache_dir

    cached = cache_dir() / f"{hashlib.sha256(cubin).hexdigest()[:32]}.sass"
    if cached.exists():
        return cached.read_text()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "k.cubin"
        path.write_bytes(cubin)
        try:
            out = subprocess.run([tool, "-g", "-c", str(path)], capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            return None
    if out.returncode != 0:
        return None
    tmp = cached.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(out.stdout)
    tmp.replace(cached)
    return out.stdout


_LDGSTS = re.compile(r"/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?LDGSTS((?:\.\w+)*)\s")


def copy_forms(cubin: bytes, symbol: str) -> dict[tuple[str, int], tuple[bool, bool]] | None:
    """(source file's base name, line) -> (zero-filling, prefetching) of the cp.async ptxas made on that line:
    whether it made the zero-filling form (LDGSTS...ZFILL), which costs more wavefronts, and whether its copies
    carry the L2 prefetch hint (LDGSTS...LTC128B), whose lanes of source size 0 cost as real ones
    (ledger.ldgsts_costs); None without nvdisasm. The PTX does not say: a source size that is 16 or 0
    (`p ? 16 : 0`) becomes the plain form with a predicate, one that can be anything (`min(16, left)`) the
    zero-filling one."""
    text = listing_text(cubin)
    if text is None:
        return None
    forms: dict[tuple[str, int], tuple[bool, bool]] = {}
    for file, line, raw in _kernel_lines(text, symbol):
        m = _LDGSTS.search(raw)
        if m:
            zfill, prefetch = forms.get((file, line), (False, False))
            forms[(file, line)] = (zfill or "ZFILL" in m.group(1), prefetch or "LTC128B" in m.group(1))
    return forms


_LDGSTS_SOURCE_PREDICATE = re.compile(
    r"/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?LDGSTS(?:\.\w+)*\s+[^;]*?\]\s*(?:,\s*(!?U?P[0-6T]))?\s*;")


def copy_predicates(text: str, symbol: str) -> dict[tuple[str, int], list[str]]:
    """(source file's base name, line) -> the source predicate of each LDGSTS ptxas made on that line, in address
    order ("P0", "!P1", ...; "" where it has none): the predicate the PTX's source size (`p ? 16 : 0`) became."""
    out: dict[tuple[str, int], list[str]] = defaultdict(list)
    for file, line, raw in _kernel_lines(text, symbol):
        m = _LDGSTS_SOURCE_PREDICATE.search(raw)
        if m:
            out[(file, line)].append(m.group(1) or "")
    return dict(out)


def _kernel_lines(text: str, symbol: str):
    """(source file's base name, line, listing line) for each line of kernel `symbol`'s listing."""
    line, file, inside = 0, "", False
    for raw in text.splitlines():
        if raw.startswith("//---") and ".text." in raw:
            inside = raw.split(".text.", 1)[1].split()[0] == symbol
            continue
        if not inside:
            continue
        m = _LINE.search(raw)
        if m:
            file, line = Path(m.group(1)).name, int(m.group(2))
            continue
        yield file, line, raw


def opcodes_at(text: str, symbol: str) -> dict[int, str]:
    """pc -> opcode (with its modifiers, without a predicate) of each instruction of kernel `symbol`'s
    listing: what tells two compiles of one kernel apart."""
    out = {}
    for _, _, raw in _kernel_lines(text, symbol):
        m = _PC_OPCODE.match(raw)
        if m:
            out[int(m.group(1), 16)] = m.group(2)
    return out


# what ptxas makes of wgmma.mma_async by input family: HGMMA (f16, bf16, tf32), QGMMA (e4m3, e5m2), IGMMA (s8, u8),
# BGMMA (b1)
WARPGROUP_MMA = ("HGMMA", "QGMMA", "IGMMA", "BGMMA")
_HGMMA = re.compile(r"/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?[HQIB]GMMA\.(\d+x\d+x\d+)")


def wgmma_places(instrs: list[Instr], cubin: bytes, symbol: str, files: dict[int, str]) -> dict[int, tuple[int, int]]:
    """pc -> (PTX file index, line) where ptxas's line table puts the HGMMA of each `wgmma.mma_async`, which
    is where Nsight Compute counts its operand reads: not always the PTX's line (Triton's attention: the P V
    product's four HGMMAs of line 98 stand on standard.py:287 twice, then lines 90 and 91). The wgmmas and the
    HGMMAs are paired in order (the accumulator chain keeps ptxas from reordering them), where both have the
    same number and shapes; otherwise, or without nvdisasm, nothing moves."""
    text = listing_text(cubin) if cubin else None
    if text is None:
        return {}
    found = [(file, line, m.group(1)) for file, line, raw in _kernel_lines(text, symbol)
             for m in [_HGMMA.search(raw)] if m]
    pcs = [pc for pc, ins in enumerate(instrs) if ins.parts[:2] == ("wgmma", "mma_async")]
    shapes = [next((p[1:].replace("n", "x").replace("k", "x") for p in instrs[pc].parts if p.startswith("m64n")), "")
              for pc in pcs]
    if len(found) != len(pcs) or any(shape != f[2] for shape, f in zip(shapes, found)):
        return {}
    index = {Path(path).name: i for i, path in files.items()}
    return {pc: (index[file], line) for pc, (file, line, _) in zip(pcs, found) if file in index}


# the opcode with its modifiers, which may hold lower case (HGMMA.64x128x16.F32)
_PC_OPCODE = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Za-z0-9_.]*)")


# an instruction guarded by `@!PT` never runs: ptxas's filler (`@!PT LDS RZ, [RZ]` beside a Triton ieee dot's loads)
_NEVER_RUNS = re.compile(r"/\*[0-9a-f]+\*/\s+@!PT\s")


def parse_sass(text: str, symbol: str) -> list[SassAccess]:
    accesses = []
    reduced = 0  # REDUXes not yet paired with the ATOMS that applies their result (ptxas may do two, then two)
    voted = set()  # lines with a leader's VOTE.ANY: an increment ptxas aggregates over the warp
    for file, line, raw in _kernel_lines(text, symbol):
        if _NEVER_RUNS.search(raw):
            continue
        if _REDUX.search(raw):
            reduced += 1
            continue
        if _VOTE.search(raw):
            voted.add((file, line))
            continue
        m = _INSN.search(raw)
        if not m:
            continue
        op, mods, operands = m.group(2), m.group(3) or "", m.group(4)
        width = 4
        for mod in mods.strip(".").split("."):
            width = _WIDTH.get(mod, width) if op != "ATOMS" else (8 if mod in ("64", "U64", "S64", "F64") else width)
        addr = re.search(r"\[([^\]]*)\]", operands)
        if not addr:
            continue
        base, offset = _split_address(addr.group(1))
        # ptxas aggregates a warp's atomic min/max/and/or/xor on one (uniform) address, its result unused:
        # REDUX combines the lanes' values, one lane's ATOMS applies it (`[UR..]`: the address is uniform; or
        # guarded by the leader's predicate with the address in a plain register: Numba's cuda.atomic.or_/and_,
        # fresh2.numba.int_atomic_mix, 1 wavefront a warp)
        # or adds on one address with the result used (`atomicAdd(&count_s, 1)` handing out slots): VOTE.ANY,
        # FLO elects the leader, POPC counts the lanes, the leader's guarded ATOMS.ADD adds them and a SHFL.IDX
        # hands its result back (fresh12.bfs_private_frontier, 1 wavefront a warp)
        uniform = op == "ATOMS" and (base.startswith("UR") or m.group(1) is not None)
        after_redux = uniform and reduced > 0
        reduced -= after_redux
        warp = after_redux or (uniform and (file, line) in voted)
        accesses.append(SassAccess(file, line, _SASS_OPS[op], width, base, offset, raw.strip(), "POPC" in mods,
                                   ".CAST.SPIN" in mods, warp))
    return accesses


_MEMORY_INSN = re.compile(r"/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?(LDG|STG|LDL|STL|LD|ST)(\.[\w.]+)?\s+(.*?)\s*;")
_MEMORY_OPS = {"LDG": "global load", "LD": "global load", "STG": "global store", "ST": "global store",
               "LDL": "local load", "STL": "local store"}


def parse_memory_sass(text: str, symbol: str) -> list[SassAccess]:
    """The global and local loads and stores of kernel `symbol` (LDG/STG, generic LD/ST, LDL/STL), as
    `parse_sass` gives the shared ones, for the same matching with the PTX (their widths: LDG.E.128).
    The address is the last bracket: `desc[UR4][R2.64+0x80]` names the memory descriptor first. ptxas's
    spills (STL/LDL marked SpillRefill) are left out: the PTX has nothing to match them with (spills.py)."""
    accesses = []
    matches = ((file, line, raw, _MEMORY_INSN.search(raw)) for file, line, raw in _kernel_lines(text, symbol))
    runs = (x for x in matches if x[3] and "SpillRefill" not in x[2] and not _NEVER_RUNS.search(x[2]))
    for file, line, raw, m in runs:
        operand = memory_operand((m.group(3) or "").split("."), m.group(4))
        if operand:
            width, base, offset = operand
            accesses.append(SassAccess(file, line, _MEMORY_OPS[m.group(2)], width, base, offset, raw.strip()))
    return accesses


def memory_operand(modifiers: list[str], operands: str) -> tuple[int, str, int] | None:
    """(bytes a lane, base, constant offset) of a load or store's address operand: the width its modifiers
    name (.64, .128, .U8, ...; 4 with none), the address the last bracket (`desc[UR4][R2.64+0x80]` names the
    memory descriptor first); None with no address."""
    widths = [_WIDTH[mod] for mod in modifiers if mod in _WIDTH]
    addr = re.findall(r"\[([^\]]*)\]", operands)
    if not addr:
        return None
    base, offset = _split_address(addr[-1])
    return (widths or [4])[-1], base, offset


_VOTE = re.compile(r"\bVOTEU?\.ANY\b")
_GLOBAL_ATOMIC = re.compile(r"\b(ATOMG|REDG|RED)\.")


def global_atomic_forms(text: str, symbol: str) -> dict[tuple[str, int], set[str]]:
    """(file, line) -> the forms of the global atomics ptxas made there: "ATOMG" (the value returned) and/or
    "RED" (REDG, RED: none returned)."""
    out: dict[tuple[str, int], set[str]] = {}
    for file, line, raw in _kernel_lines(text, symbol):
        m = _GLOBAL_ATOMIC.search(raw)
        if m:
            out.setdefault((file, line), set()).add("ATOMG" if m.group(1) == "ATOMG" else "RED")
    return out


def aggregated_atomic_lines(text: str, symbol: str) -> set[tuple[str, int]]:
    """(file, line) of the global atomics ptxas aggregated over the warp: where it proved the address the same
    for every lane, it elects a leader (VOTE.ANY/VOTEU.ANY, UFLO) that makes one atomic for the warp's lanes,
    with their values summed (POPC, a SHFL.UP scan) or reduced (REDUX: atomicMin/Max/And/Or/Xor): one sector a
    request, where lanes reaching one address each would cost one (coalescing.atomic_sector_costs). Seen as a
    VOTE or a REDUX before the atomic on its line: two such atomics in a row share one leader's VOTE, on the
    first one's line (fresh.int_atomics_mix: atomicMin and atomicMax of one word, 1 sector a request each)."""
    voted, out = set(), set()
    for file, line, raw in _kernel_lines(text, symbol):
        if _VOTE.search(raw) or _REDUX.search(raw):
            voted.add((file, line))
        elif _GLOBAL_ATOMIC.search(raw) and (file, line) in voted:
            out.add((file, line))
    return out


def _split_address(expr: str) -> tuple[str, int]:
    parts = [p for p in expr.replace("-", "+-").split("+") if p]
    offset, regs = 0, []
    for p in parts:
        p = p.strip()
        if re.fullmatch(r"-?0x[0-9a-fA-F]+|-?\d+", p):
            offset += int(p, 0)
        else:
            regs.append(p)
    return "+".join(regs), offset


def _live_part(ins: Instr, size: int, read: set[str]) -> tuple[int, int] | None:
    """(first byte, bytes) of what ptxas loads of a vector load some of whose destinations are never
    read, where that is one access: ptxas loads only the elements it needs, as one access where their
    bytes are a naturally aligned power of two (`ld.shared.v4.f32 {%f1, %f2, %f3, %f4}` with %f3 and
    %f4 unused: LDS.64 at +0; only %f3 and %f4 used: LDS.64 at +8; three of four: LDS.128), else as
    several (not modelled: the access keeps its width). Measured with NVRTC 13's ptxas for sm_90.
    NVVM emits such loads at times, with `.pragma "used_bytes_mask"`, for the same source it
    otherwise emits without them."""
    from smemlab.analyze.ptx import Reg, Vec

    dest = ins.operands[0] if ins.operands else None
    if not isinstance(dest, Vec):
        return None
    live = [i for i, x in enumerate(dest.items) if isinstance(x, Reg) and x.name in read]
    n = len(dest.items)
    if not live or len(live) == n or live != list(range(live[0], live[-1] + 1)):
        return None
    es = size // n
    lo, width = live[0] * es, len(live) * es
    if width & (width - 1) or lo % width:
        return None
    return lo, width


def _assign(g: list[tuple[int, int, int]], sg: list[tuple[int, int]]) -> list[tuple[list[int], int]] | None:
    """How the SASS accesses `sg` (offset, width) of one base register make the PTX accesses `g`
    (offset, size, pc) of one base, offsets taken relative to each side's lowest: for each SASS access
    that stands for several PTX accesses, (pcs, width), the first pc the one at its start (the widest
    there) that the emulator hands to the model; None where they do not make the same bytes.

    Each PTX access must lie inside one SASS access, and the PTX accesses inside a SASS access must
    cover its bytes and start where it starts. They may overlap: where the PTX loads bytes again
    that an earlier load of the line read (`ld.shared.v4 [%r10]` then `ld.shared.v2 [%r10+8]`),
    ptxas drops the second, and the one at the SASS access's start stands for both."""
    lo, slo = min(o for o, _, _ in g), min(o for o, _ in sg)
    placed: set[int] = set()
    out = []
    for so, sw in sorted(sg):
        start, end = so - slo + lo, so - slo + lo + sw
        inside = [x for x in g if start <= x[0] and x[0] + x[1] <= end and x[2] not in placed]
        held = _bytes([(o, s) for o, s, _ in inside])
        # a vector may read past the last byte of the PTX accesses it merges, where no other access of the line
        # lies: into the padding after an array (nine int16 taps k[0..8] as S16, U16 and two LDS.64, the second
        # holding k[6..8] and 2 bytes more: fresh12.numba.sharpen_u8_i16), or past a 12-byte pair of a Triton scan
        # (ld.shared.v2 [s] and ld.shared.b32 [s+8], then the same at s+16, as two LDS.128: robust.triton.assoc_scan
        # under Triton 3.6), both on an H200
        tail = len(inside) > 1 and held and held == set(range(start, max(held) + 1)) and 2 * len(held) > sw
        if held != set(range(start, end)) and not tail:
            return None
        lead = max((x for x in inside if x[0] == start), key=lambda x: (x[1], -x[2]), default=None)
        if lead is None:
            return None
        placed.update(pc for _, _, pc in inside)
        if len(inside) > 1:
            out.append(([lead[2]] + sorted(pc for _, _, pc in inside if pc != lead[2]), sw))
    return out if len(placed) == len(g) else None


def _pair(fits: list[list]) -> list[int] | None:
    """A SASS group for every PTX group of a line, each used once, where `fits[i][j]` is not None (a
    bipartite matching by augmenting paths, so that the PTX's order of groups does not decide it)."""
    owner: dict[int, int] = {}

    def take(i: int, seen: set[int]) -> bool:
        for j, f in enumerate(fits[i]):
            if f is not None and j not in seen:
                seen.add(j)
                if j not in owner or take(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    if len(fits) > len(fits[0] if fits else []) or not all(take(i, set()) for i in range(len(fits))):
        return None
    if len(owner) != len(fits[0]):
        return None  # a SASS group no PTX group makes
    by_ptx = {i: j for j, i in owner.items()}
    return [by_ptx[i] for i in range(len(fits))]


def plan(instrs: list[Instr], block_of: list[int], sites: dict[int, tuple[str, int]],
         sass: list[SassAccess] | None, files: dict[int, str], avoid: frozenset = frozenset(), flow=None) -> Plan:
    """Match the PTX shared accesses `sites` (pc -> (op, size)) with the SASS, line by line
    (`block_of`: pc -> its PTX basic block, cfg.Flow's; `files`: the PTX's file index -> path; `avoid`:
    (pc, width) of vectors a run found misaligned, ledger.PlanMisaligned: their group takes another match;
    `flow`: the cfg.Flow, whose paths tell the arms of a branch apart, `_twins`)."""
    from smemlab.analyze.deadloads import live_registers

    p = Plan(avoid=set(avoid))
    read = live_registers(instrs)
    narrow = {}
    for pc, (op, size) in sites.items():
        part = _live_part(instrs[pc], size, read) if op.endswith("load") else None
        if part is not None:
            narrow[pc] = part
            p.sizes[pc] = part[1]
            if part[0]:
                p.shift[pc] = part[0]
    if sass is None:
        p.available = False
        return p
    ptx_groups: dict[tuple, dict[str, list[tuple[int, int, int]]]] = defaultdict(lambda: defaultdict(list))
    for pc, (op, size) in sites.items():
        ins = instrs[pc]
        file, line = source_line(ins.loc, files)
        a = next((o for o in ins.operands if isinstance(o, Addr)), None)
        if a is None:
            continue
        base = f"{a.base}|{ins.guard}|{block_of[pc]}"
        lo, size = narrow.get(pc, (0, size))
        ptx_groups[(file, line, op)][base].append((a.offset + lo, size, pc))
    sass_groups: dict[tuple, dict[str, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    loops = {(s.file, s.line, s.base, s.offset, s.width) for s in sass if s.spin}
    seen: dict[tuple, int] = defaultdict(int)
    for s in sass:  # the LDS of a compare-and-swap loop belongs to its atomic, not to the line's loads
        if s.op != "atomic" and not (s.op == "load" and (s.file, s.line, s.base, s.offset, s.width) in loops):
            # the same access again on one base register is another copy of the code (a loop's prologue and its
            # body, ptxas reusing R6 in both): a group of its own, as the PTX's copies have their own registers
            k = (s.file, s.line, s.op, s.base, s.offset, s.width)
            seen[k] += 1
            sass_groups[(s.file, s.line, s.op)][f"{s.base}#{seen[k]}"].append((s.offset, s.width))
    _drop_removed_loads(p, instrs, block_of, sites, files, ptx_groups, sass_groups)
    failed: dict[tuple, dict] = {}
    for key, groups in ptx_groups.items():
        sgroups = [g for g in sass_groups.get(key, {}).values()]
        ptx_shape = sorted((len(g), sorted(x[1] for x in g)) for g in groups.values())
        sass_shape = sorted((len(g), sorted(w for _, w in g)) for g in sgroups)
        widths = {x[1] for g in groups.values() for x in g}
        if ptx_shape == sass_shape or (sgroups and widths == {w for g in sgroups for _, w in g} and len(widths) == 1):
            continue  # the same widths (ptxas may have duplicated or hoisted code): nothing to merge
        if not _matched(p, key[1], groups, sgroups) and not (key[2] == "load" and (
                _hoisted(p, key[1], groups, sgroups) or _widened(p, key[1], groups, sass_groups[key]))):
            failed[key] = groups
    _across_lines(p, failed, ptx_groups, sass_groups, sass, {pc for pc in sites if instrs[pc].lineless}, flow)
    return p


def _drop_removed_loads(p: Plan, instrs: list[Instr], block_of: list[int], sites: dict, files: dict, ptx_groups: dict,
                   sass_groups: dict) -> None:
    """Loads of what a load before them in their block loaded (deadloads.repeated_loads: ptxas keeps the first one's
    register) and loads whose value nothing uses in the end (deadloads.useless_loads) count nothing where their
    line's SASS has exactly that many loads fewer than its PTX."""
    from smemlab.analyze.deadloads import repeated_loads, useless_loads

    by_key: dict[tuple, list[int]] = defaultdict(list)
    for pc in set(repeated_loads(instrs, block_of)) | useless_loads(instrs):
        if pc in sites:
            by_key[source_line(instrs[pc].loc, files) + (sites[pc][0],)].append(pc)
    for key, pcs in by_key.items():
        groups = ptx_groups.get(key, {})
        made = sum(len(g) for g in sass_groups.get(key, {}).values())
        # (a line left with no SASS of its own may have moved: _across_lines decides that)
        if not made or made != sum(len(g) for g in groups.values()) - len(pcs):
            continue
        for pc in pcs:
            p.sizes[pc] = 0
        for base in list(groups):
            groups[base] = [x for x in groups[base] if x[2] not in pcs]
            if not groups[base]:
                del groups[base]


def _hoisted(p: Plan, line: int, groups: dict, sgroups: list) -> bool:
    """A line's loads of one base in several basic blocks that ptxas made one wider load: it hoisted a
    guarded load of the next word into the load before the branch (`a = s[i]` as an int2 whose `.y`
    NVVM loads only where `a.x == b.x`: one LDS.64). The access at the vector's start must be in the
    first of the blocks (it runs whenever the others do) and stands for all of them."""
    merged: dict[str, list] = defaultdict(list)
    for base, g in groups.items():
        merged[base.rsplit("|", 1)[0]] += [x + (int(base.rsplit("|", 1)[1]),) for x in g]
    if len(merged) == len(groups):
        return False
    for g in merged.values():
        first = min(x[3] for x in g)
        for o, _, _, blk in g:
            if o == min(x[0] for x in g) and blk != first:
                return False
    return _matched(p, line, {k: [x[:3] for x in g] for k, g in merged.items()}, sgroups)


def _widened(p: Plan, line: int, groups: dict, sgroups: dict) -> bool:
    """A line's loads of one base register, in several basic blocks, where ptxas merged those of one block into
    a vector that also reads bytes none of them reads: a 7-point stencil's `s[i - 3] .. s[i + 3]` for the four
    points i = 4t + j of a thread, each point in its own block (`if (start + i < n)`), NVVM's PTX for j = 0
    `ld.shared.f32 [%r5+4]` and `ld.shared.v2.f32 [%r5+8]`, ptxas's SASS one `LDS.128 [R17]` of bytes 0-15:
    the word at 0 is loaded and not used, as the run-time merge reads words 1 to 3 of a chunk whole
    (ledger._over_read). `_assign` cannot pair them: the SASS groups are by register, not by block, and the
    vector starts where no PTX access does. Here the line's PTX and SASS accesses (`sgroups`: SASS base#copy ->
    [(offset, width)]), at the offset from PTX to SASS that most accesses agree on, are the same but for SASS
    loads each of which holds two or more PTX loads of one block (all of that block's inside its bytes) and
    the rest the same offsets and widths one to one. Each such SASS load is counted at its width and place,
    on the lowest of its PTX loads (`shift`: back to the vector's start); the others count nothing.
    Measured: fresh6.stencil7_pipeline_prims (NVRTC 13.5's ptxas for sm_90, an H200)."""
    regs = {b.split("|", 1)[0] for b in groups}
    if len(regs) != 1 or len({b.split("#", 1)[0] for b in sgroups}) != 1:
        return False
    sass = sorted(x for g in sgroups.values() for x in g)
    ptx = [(b, o, s, pc) for b, g in groups.items() for o, s, pc in g]
    if len(sass) >= len(ptx) or len(ptx) > 64:
        return False
    agree = Counter(so - o for so, sw in set(sass) for _, o, s, _ in ptx if s == sw)
    for d, _ in agree.most_common(4):
        rest = Counter((o + d, s) for _, o, s, _ in ptx)
        extras = list((Counter(sass) - rest).elements())
        if not extras or len(extras) > 8 or any(w & (w - 1) for _, w in extras):
            continue
        found = _hold(extras, ptx, d, Counter(sass) - Counter(extras), p.avoid)
        if found is None:
            continue
        for (so, w), inside in found:
            lead = min(inside, key=lambda x: (x[1], -x[2], x[3]))
            p.sizes[lead[3]] = w
            shift = p.shift.get(lead[3], 0) + so - d - lead[1]
            if shift:
                p.shift[lead[3]] = shift
            else:
                p.shift.pop(lead[3], None)
            for x in inside:
                if x is not lead:
                    p.sizes[x[3]] = 0
            p.merged.append((line, [lead[3]] + sorted(x[3] for x in inside if x is not lead), w))
        return True
    return False


def _hold(extras: list, ptx: list, d: int, others: Counter, avoid: set) -> list | None:
    """For each SASS load of `extras` (offset, width), the PTX loads of one block it holds (`_widened`): all of that
    block's loads inside its bytes, two or more, each narrower than it, none of them held by another; the PTX
    loads held by none make `others` (offset, width) one to one. None where no choice does."""
    if not extras:
        left = Counter((o + d, s) for _, o, s, _ in ptx)
        return [] if left == others else None
    (so, w), more = extras[0], extras[1:]
    for block in sorted({x[0] for x in ptx}):
        inside = [x for x in ptx if x[0] == block and so <= x[1] + d and x[1] + d + x[2] <= so + w]
        if len(inside) < 2 or any(x[2] >= w for x in inside):
            continue
        lead = min(inside, key=lambda x: (x[1], -x[2], x[3]))
        if (lead[3], w) in avoid:
            continue
        rest = _hold(more, [x for x in ptx if x not in inside], d, others, avoid)
        if rest is not None:
            return [((so, w), inside)] + rest
    return None


def _matched(p: Plan, line: int, groups: dict, sgroups: list, relocate: bool = False) -> bool:
    """Pair the PTX groups `groups` with the SASS groups `sgroups` and put the SASS widths into the
    plan; False (nothing changed) where they do not make the same accesses. `relocate`: the SASS
    accesses stand on `line`, where some of the PTX's do not."""
    fits = [[None if f is not None and any((pcs[0], w) in p.avoid for pcs, w in f) else f
             for f in (_assign(g, sg) for sg in sgroups)] for g in groups.values()]
    pairs = _pair(fits) if sgroups else None
    if pairs is None:
        return False
    for i, j in enumerate(pairs):
        merged = {tuple(pcs): width for pcs, width in fits[i][j]}
        for x in list(groups.values())[i]:
            pc = x[2]
            lead = next((pcs for pcs in merged if pc in pcs), None)
            if lead is None and relocate:
                p.lines[pc] = line
            elif lead is not None and pc == lead[0]:
                p.sizes[pc] = merged[lead]
                if relocate:
                    p.lines[pc] = line
            elif lead is not None:
                p.sizes[pc] = 0
        for pcs, width in fits[i][j]:
            p.merged.append((line, pcs, width))
    return True


def _across_lines(p: Plan, failed: dict[tuple, dict], ptx_groups: dict, sass_groups: dict,
                  sass: list[SassAccess] = (), lineless: set[int] = frozenset(), flow=None) -> None:
    """The lines whose PTX accesses their own SASS does not make, matched across neighbouring lines
    (NEAR lines apart at most), as ptxas and its line table do it:
    1. a SASS vector that the PTX makes from accesses on several lines (a float4 assembled from
       `v.x = t[..];` ... written one statement a line; `As[k][ty]` and, on a later line,
       `As[k][ty + 1]` as one LDS.128) stands on the first of them;
    2. an access whose SASS the line table puts on a neighbouring line that has SASS but no PTX of its
       kind (ptxas made a store and its guarded overwrite of the same word one store, the second's load
       predicated into the first's register, and put it on the line of the `if`: Rodinia's srad); where
       that SASS is wider and the PTX accesses are of different arrays (two __shared__ scalars that
       ptxas placed side by side and loads with one LDS.64), they merge at run time, on its line;
       accesses that NVVM sank out of the two arms of a branch into one block at `.loc 0` (which ptx.py
       puts on the line before) and that ptxas's line table spreads over several neighbouring lines
       (its scheduler interleaves them with the next stage's address arithmetic, and each takes the line
       of the instruction before it in the SASS): where the orphans of one kind, in PTX order, and the
       SASS of that kind on the near lines that have none of their own, in SASS order, are one to one
       of the same widths and offsets, each takes its SASS's line (`_spread`);
       an access NVVM hoisted above a branch, which the line table puts on a neighbouring line whose
       SASS has more accesses than its PTX, moves there;
    3. an access with no SASS of its kind left unexplained anywhere in the kernel was merged into
       another (the other half of such a pair) or removed: it counts nothing. A local access that no
       SASS of its line or a near one takes counts nothing whatever local SASS the kernel has elsewhere:
       ptxas kept it in registers (Numba's sincos results, which the PTX passes through local memory),
       and the kernel's own local SASS is another path's (libdevice's slow trig argument reduction,
       on the line of the call; robust.numba.math_kernel, measured on an H100).
    What none of these explains keeps the PTX's widths, merged at run time into the SASS's width
    where that is wider (a loop unrolled and vectorised again: ledger.py)."""
    orphans = {k for k in failed if not sass_groups.get(k)}
    foreign = {k for k, g in sass_groups.items() if g and k not in ptx_groups}

    def near(a: tuple, b: tuple) -> bool:
        return a[0] == b[0] and a[2] == b[2] and a != b and abs(a[1] - b[1]) <= NEAR

    def nearest(keys, key: tuple) -> list:
        """The keys near `key`, the closest first."""
        return sorted((k for k in keys if near(k, key)), key=lambda k: abs(k[1] - key[1]))

    def sass_widths(key: tuple) -> list[int]:
        return [w for g in sass_groups.get(key, {}).values() for _, w in g]

    def pcs(groups: dict):
        return (pc for g in groups.values() for _, _, pc in g)

    def joined(keys) -> dict:
        out: dict[str, list] = defaultdict(list)
        for k in keys:
            for base, g in failed[k].items():
                out[base] += g
        return out

    for key in sorted(k for k in failed if k not in orphans):  # 1: the near orphans, or some of them
        near_orphans = nearest(orphans, key)[:MAX_JOINED]
        subsets = sorted((c for n in range(len(near_orphans), 0, -1) for c in combinations(near_orphans, n)),
                         key=lambda c: (-len(c), sum(abs(o[1] - key[1]) for o in c)))
        others = next((c for c in subsets if _matched(p, key[1], joined([key, *c]), list(sass_groups[key].values()),
                                                       relocate=True)), None)
        if others:
            orphans -= set(others)
            failed.pop(key)
            for o in others:
                failed.pop(o)
    for key in sorted(orphans):  # 2
        there = next((f for f in nearest(foreign, key)
                      if _matched(p, f[1], failed[key], list(sass_groups[f].values()), relocate=True)), None)
        if there is not None:
            foreign.discard(there)
            orphans.discard(key)
            failed.pop(key)
    _spread(p, failed, orphans, foreign, sass, near, lineless)
    _spread_lineless(p, failed, ptx_groups, foreign, sass, near, lineless)
    for key in sorted(orphans):  # 2, at run time: accesses of different arrays that ptxas loads as one vector
        narrow = max(x[1] for g in failed[key].values() for x in g)
        there = next((f for f in nearest(foreign, key) if max(sass_widths(f)) > narrow), None)
        if there is not None:
            wide = max(sass_widths(there))
            for pc in pcs(failed.pop(key)):
                p.coalesce[pc], p.lines[pc] = wide, there[1]
            foreign.discard(there)
            orphans.discard(key)
    _into_wider(p, failed, orphans, ptx_groups, sass_widths, nearest)
    _onto_foreign(p, failed, foreign, ptx_groups, sass_widths, nearest)
    if flow is not None:
        _twins(p, failed, orphans, ptx_groups, nearest, lineless, flow)
    # 2, hoisted: a line whose SASS has more accesses of its kind than its PTX (an access NVVM hoisted
    # above a branch onto the `if` line, which ptxas's line table puts on the branch's line: a
    # Hillis-Steele scan's common load of both branches)
    surplus = {k: len(sass_widths(k)) - sum(len(g) for g in ptx_groups[k].values())
               for k in sass_groups if k in ptx_groups and k not in failed}
    for key in sorted(orphans):
        count = sum(len(g) for g in failed[key].values())
        widths = {x[1] for g in failed[key].values() for x in g}
        there = next((k for k in nearest(surplus, key) if surplus[k] >= count and widths <= set(sass_widths(k))), None)
        if there is not None:
            surplus[there] -= count
            for pc in pcs(failed.pop(key)):
                p.lines[pc] = there[1]
            orphans.discard(key)
    _far(p, failed, orphans, foreign, sass_groups)
    unlined: dict[str, Counter] = defaultdict(Counter)  # op -> widths of removed accesses with no source line
    for key in sorted(orphans):  # 3
        if key[2].startswith("local") or not any(f[2] == key[2] for f in foreign):
            for g in failed.pop(key).values():
                for _, size, pc in g:
                    p.sizes[pc] = 0
                    unlined[key[2]][size] += not key[1]
            p.removed.append(key[1])
    # a line whose SASS makes its PTX's accesses at their widths and more, the more being those of code with no
    # line that ptxas's line table puts there (libdevice's sin/cos slow path, an LDG.E.64 on the line of the call
    # in a Numba kernel, fresh4.numba.phase_shift_c64): its own accesses keep their widths
    for key in sorted(failed):
        mine = Counter(x[1] for g in failed[key].values() for x in g)
        extra = Counter(sass_widths(key)) - mine
        if not mine - Counter(sass_widths(key)) and extra and not extra - unlined[key[2]]:
            unlined[key[2]] -= extra
            failed.pop(key)
    for key, groups in failed.items():
        p.unmatched.append(key[1])
        _partners(p, key, groups, ptx_groups, sass_groups)
        narrow = max(x[1] for g in groups.values() for x in g)
        # the SASS width most of the line's wider accesses have (ptxas may vectorise a loop only in part:
        # mostly LDS.64, one LDS.128), merged to at run time (ledger.py)
        wider = [w for w in sass_widths(key) if w > narrow]
        if wider:
            wide = max(set(wider), key=lambda w: (wider.count(w), w))
            # every SASS load of the line that wide: a chunk the PTX reads only in part is still read whole
            # (a loop ptxas unrolled to its largest trip count and loads as one LDS.128 for any count)
            whole = key[2] == "load" and set(sass_widths(key)) == {wide}
            for pc in pcs(groups):
                p.coalesce[pc] = wide
                if whole:
                    p.whole.add(pc)


def _into_wider(p: Plan, failed: dict, orphans: set, ptx_groups: dict, sass_widths, nearest) -> None:
    """2, at run time, onto a line with PTX of its own (`_across_lines`): a line whose SASS is wider than its PTX
    accesses and holds exactly their bytes and those that near lines (closest first) have in their PTX and not in
    their SASS is one vector of them all, merged at run time on its line. Four `__shared__` ints set one a line
    (`begin_A = ...; begin_B = ...; step_A = ...; step_B = ...`), which ptxas places side by side and stores with
    one STS.128 on the last line: each warp's store is 4 wavefronts there, not 1 on each line
    (fresh14.knn_compute_distances); AES's last round, a round key a line among four T-table loads (`... ^ rk[40];`
    two lines down `... ^ rk[41];`), whose rk[40..43] ptxas loads as one LDS.128 on the first line
    (fresh14.aes128_encrypt_ttable). A line with SASS of its own lends only its surplus, and all its accesses try to
    join (ledger.py keeps those that complete no vector as they are, on their lines; a vector stands on its lowest
    piece's line: Numba's int64 bitonic pairs, whose totals this makes exact, stand on the other line in the line
    table, fresh4.numba.bitonic_int64)."""
    def accesses(key) -> list:
        return [x for g in (failed.get(key) or ptx_groups.get(key, {})).values() for x in g]

    for key in sorted(k for k in failed if k not in orphans):
        mine, widths = accesses(key), sass_widths(key)
        if not widths or max(widths) <= max(x[1] for x in mine):
            continue
        taken, need = [], sum(widths) - sum(x[1] for x in mine)
        for o in nearest(set(ptx_groups) - {key}, key):
            ptx, made = Counter(x[1] for x in accesses(o)), Counter(sass_widths(o))
            spare = ptx - made
            if not spare or made - ptx or max(spare) >= max(widths):
                continue  # a line whose SASS has accesses its PTX has not is a match of its own to make
            size = sum(w * n for w, n in spare.items())
            if size <= need:
                taken.append(o)
                need -= size
        if need or not taken:
            continue
        for o in taken:
            for _, _, pc in accesses(o):
                p.coalesce[pc] = max(widths)
                if o in orphans:
                    p.lines[pc] = key[1]
            failed.pop(o, None)
            orphans.discard(o)


def _onto_foreign(p: Plan, failed: dict, foreign: set, ptx_groups: dict, sass_widths, nearest) -> None:
    """2, from a line with SASS of its own (`_across_lines`): a near line with SASS and no PTX of a kind takes the
    accesses a line has in its PTX and not in its SASS, all of one width, as many as it has: the first ones in PTX
    order where it stands above, the last where below. A condition over two lines, `if (idx < numel\n && (idx == 0
    || input[idx] != input[idx - 1])`: NVVM loads input[idx] and input[idx - 1] on the second line, ptxas's line
    table puts the first LDG on the `if` line (fresh14.cunn_LookupTable_accGradParametersKernel)."""
    for there in sorted(foreign):
        made = sass_widths(there)
        for key in nearest(set(ptx_groups) - set(failed), there):
            mine = sorted((x for g in ptx_groups[key].values() for x in g), key=lambda x: x[2])
            widths = {x[1] for x in mine} | set(made) | set(sass_widths(key))
            if len(widths) != 1 or len(mine) - len(sass_widths(key)) != len(made):
                continue
            moved = mine[:len(made)] if there[1] < key[1] else mine[-len(made):]
            for _, _, pc in moved:
                p.lines[pc] = there[1]
            foreign.discard(there)
            break


def _far(p: Plan, failed: dict, orphans: set, foreign: set, sass_groups: dict) -> None:
    """2, far (`_across_lines`): what the near rules leave, where one line of a file has PTX accesses of a kind and
    no SASS, and one other line SASS of that kind and no PTX, however far apart: the one is the other where their
    accesses match (a loop-invariant float4 that NVVM hoists to its loop's head as four loads, which ptxas makes one
    LDS.128 and its line table puts on the value's last use, 20 lines down: lavaMD, fresh13.kernel_gpu_cuda)."""
    for file, kind in sorted({(k[0], k[2]) for k in orphans}):
        mine = [k for k in orphans if k[0] == file and k[2] == kind]
        theirs = [f for f in foreign if f[0] == file and f[2] == kind]
        if len(mine) == 1 == len(theirs) and _matched(p, theirs[0][1], failed[mine[0]],
                                                      list(sass_groups[theirs[0]].values()), relocate=True):
            foreign.discard(theirs[0])
            orphans.discard(mine[0])
            failed.pop(mine[0])


def _twins(p: Plan, failed: dict, orphans: set, ptx_groups: dict, nearest, lineless: set[int], flow) -> None:
    """2, twins (`_across_lines`): an orphan's access whose address (PTX base register, guard, offset and width) an
    access on a near line with SASS of its own makes in a basic block that no path joins to its own: the arms of an `if`/`else` chain
    that both read `c[(cj + 1) * w + ci]`, one on each line, which ptxas if-converts into one block with one
    load of it on the second's line (multigrid prolongation, fresh3.mg_prolong_add: its odd rows' two arms).
    The two become one access there (`unions`): one request of the lanes of both arms where a warp runs both,
    each arm's own where it runs only one (ledger.py). Not an access at `.loc 0` (`lineless`): NVVM hoisted
    that one above the arms itself (the rows' common `c[cj * w + ci]`), and it keeps its own SASS. Nor one that a
    path leads to from the other or back (a store and its guarded overwrite, Rodinia's srad; the arms of a loop's
    body, which its back edge joins): those keep the rules below."""
    for key in sorted(orphans):
        near = [k for k in nearest(ptx_groups, key) if k not in failed]
        for base in list(failed[key]):
            reg, guard, block = base.rsplit("|", 2)
            keep = []
            for off, size, pc in failed[key][base]:
                line, twin = next(((k[1], tpc) for k in near for tbase, g in ptx_groups[k].items() for toff, tsize, tpc in g
                                   if tbase.rsplit("|", 2)[:2] == [reg, guard] and tbase.rsplit("|", 2)[2] != block
                                   and (toff, tsize) == (off, size) and not flow.reaches(pc, tpc, EXIT)
                                   and not flow.reaches(tpc, pc, EXIT)), (None, None))
                if twin is None or pc in lineless:
                    keep.append((off, size, pc))
                    continue
                p.unions[pc] = p.unions[twin] = twin
                p.lines[pc] = line
            if keep:
                failed[key][base] = keep
            else:
                del failed[key][base]
        if not failed[key]:
            failed.pop(key)
            orphans.discard(key)


def _spread(p: Plan, failed: dict, orphans: set, foreign: set, sass, near, lineless: set[int]) -> None:
    """2, spread (`_across_lines`): the orphans of one file and kind whose accesses ptxas's line table puts
    on several near lines with no PTX of that kind. An FFT's butterfly `if (k == 0) { re[i] = ..; ..} else
    { ..; re[i] = ..; .. }` unrolled by NVVM: the two arms' four stores sunk into the join at `.loc 0` (on the
    line before, 542 or 551), their STS on lines 539, 540 and 541 (`k`, `i, j`, the next stage's loads),
    stage by stage in the PTX's order. Pairs them in order (PTX pc, SASS listing order) where the two
    sequences have the same widths and offsets throughout; otherwise changes nothing. An orphan whose
    accesses are all at `.loc 0` (`lineless`: its line is only the line before, 551 after the `else` arm)
    need not be near those lines itself."""
    for file, op in sorted({(k[0], k[2]) for k in orphans}):
        mine = sorted(k for k in orphans if k[0] == file and k[2] == op)
        theirs = {f for f in foreign if f[0] == file and f[2] == op and any(near(f, k) for k in mine)}
        if not theirs or not all(any(near(k, f) for f in theirs)
                                 or all(pc in lineless for g in failed[k].values() for *_, pc in g) for k in mine):
            continue
        ptx = sorted((pc, off, size) for k in mine for g in failed[k].values() for off, size, pc in g)
        there = [s for s in sass if (s.file, s.line, s.op) in theirs]
        if len(ptx) != len(there) or any((off, size) != (s.offset, s.width) for (_, off, size), s in zip(ptx, there)):
            continue
        for (pc, _, _), s in zip(ptx, there):
            p.lines[pc] = s.line
        for k in mine:
            failed.pop(k)
            orphans.discard(k)
        foreign -= theirs


def _spread_lineless(p: Plan, failed: dict, ptx_groups: dict, foreign: set, sass, near, lineless: set[int]) -> None:
    """2, spread, of a line with SASS of its own (`_across_lines`): a line whose PTX accesses are all at `.loc 0`
    (ptx.py gives them the line before: a `__syncthreads()` line, where NVVM put the load both arms of the next
    step read) and whose SASS has fewer of them, the rest on near lines with no PTX of that kind, where an
    instruction of that line that ptxas scheduled just before the access gave it its line (a Kogge-Stone scan's
    last step's `buf[pin][tid]` on the line of the store after the loop, fresh11.cumsum_rows_kogge_stone:
    96 of 576 wavefronts). Pairs the line's accesses in PTX order with its and those lines' SASS of that kind in
    listing order where the two have the same widths and offsets throughout; otherwise changes nothing."""
    for key, groups in sorted(ptx_groups.items()):
        ptx = sorted((pc, off, size) for g in groups.values() for off, size, pc in g)
        if key in failed or not ptx or any(pc not in lineless for pc, _, _ in ptx):
            continue
        own = [s for s in sass if (s.file, s.line, s.op) == key]
        theirs = {f for f in foreign if near(f, key)}
        if not theirs or len(own) >= len(ptx):
            continue
        there = [s for s in sass if (s.file, s.line, s.op) in theirs | {key}]
        if len(ptx) != len(there) or any((off, size) != (s.offset, s.width) for (_, off, size), s in zip(ptx, there)):
            continue
        for (pc, _, _), s in zip(ptx, there):
            if s.line != key[1]:
                p.lines[pc] = s.line
        foreign -= {(s.file, s.line, s.op) for s in there}


def _partners(p: Plan, key: tuple, groups: dict, ptx_groups: dict, sass_groups: dict) -> None:
    """4. A vector of a line merged at run time (`coalesce`) whose other half ptxas took from a neighbouring
    line that keeps SASS of its own: `a = s[i], b = s[j]; if (...) { s[i] = b; s[j] = a; }` in a stage of a
    bitonic sort (an FFT's butterfly) that NVVM unrolled, where j = i + 1 in one stage: the two stores, on two
    lines, are one STS.64 on the second line in that stage and two STS on their own lines in the others.
    The neighbour's line has fewer SASS accesses of its width than PTX ones; its accesses on the same PTX base
    (in the same basic block, under the same guard) less than the vector's width from one of this line's may
    complete this line's vectors at run time (`joins`); where they do not, they count on their own line."""
    wide = max((w for g in sass_groups.get(key, {}).values() for _, w in g), default=0)
    for other, og in ptx_groups.items():
        if other[0] != key[0] or other[2] != key[2] or other == key or abs(other[1] - key[1]) > NEAR:
            continue
        narrow = {x[1] for g in og.values() for x in g}
        if len(narrow) != 1 or wide <= min(narrow):
            continue
        (n,) = narrow
        have = sum(len(g) for g in og.values())
        made = sum(w == n for g in sass_groups.get(other, {}).values() for _, w in g)
        if made >= have or any(w != n for g in sass_groups.get(other, {}).values() for _, w in g):
            continue
        for base, g in og.items():
            mine = [x[0] for x in groups.get(base, [])]
            for off, _, pc in g:
                if any(0 < abs(off - m) < wide for m in mine):
                    p.joins[pc] = key[1]
                    p.coalesce[pc] = wide


def atomic_rules(instrs: list[Instr], atomics: list[int], sass: list[SassAccess] | None,
                 files: dict[int, str]) -> dict[int, str]:
    """pc -> "words" where the shared atomic is (or will be) ATOMS.POPC.INC, "spin" where it is a
    compare-and-swap loop (ATOMS.CAST.SPIN), "warp" where one lane makes it for the warp after a REDUX,
    else "lanes"."""
    by_line: dict[tuple, list[str]] = defaultdict(list)
    for s in sass or []:
        if s.op == "atomic":
            by_line[(s.file, s.line)].append("words" if s.popc else "spin" if s.spin else "warp" if s.warp else "lanes")
    ptx_by_line: dict[tuple, list[int]] = defaultdict(list)
    for pc in atomics:
        loc = instrs[pc].loc
        ptx_by_line[source_line(loc, files)].append(pc)
    read = registers_read(instrs)
    out = {}
    for key, pcs in ptx_by_line.items():
        kinds = by_line.get(key)
        for i, pc in enumerate(sorted(pcs)):
            if kinds and (len(set(kinds)) == 1 or len(kinds) == len(pcs)):
                out[pc] = kinds[0] if len(set(kinds)) == 1 else kinds[i]
            else:
                out[pc] = _form_from_ptx(instrs[pc], read)
    return out


def _form_from_ptx(ins: Instr, read: set[str]) -> str:
    """What ptxas makes of a shared atomic, guessed from the PTX where the SASS does not say."""
    op = next((p for p in ins.parts[1:] if p in LOOPED), "")
    if looped(op, ins.parts[-1]):
        return "spin"
    return "words" if _looks_like_popc_inc(ins, read) else "lanes"


def source_line(loc, files: dict[int, str]) -> tuple[str, int]:
    """(base name of the source file, line) of a PTX location, as the SASS listing names lines ("", 0: none)."""
    return (Path(files.get(loc.file, "")).name, loc.line) if loc else ("", 0)


def registers_read_by(ins: Instr) -> set[str]:
    """The registers `ins` reads, its guard apart (a destination's register only where it is also read)."""
    from smemlab.analyze.ptx import Pair, Reg, TensorAddr, Vec

    names = set()
    first = ins.operands[:1]
    ops = ins.operands if ins.parts[0] in ("st", "red", "bra") else ins.operands[1:]
    ops = ops + [o for o in first if isinstance(o, Addr) and o not in ops]  # [address] first: stmatrix, cp.async ...
    ops = [y for o in ops for y in ((o.base, o.coords) if isinstance(o, TensorAddr) else (o,))]
    ops = ops + [y for o in first if isinstance(o, TensorAddr) for y in (o.base, o.coords) if y not in ops]
    for o in ops:
        for x in (o.items if isinstance(o, Vec) else (o.first, o.second) if isinstance(o, Pair) else (o,)):
            if isinstance(x, Reg):
                names.add(x.name)
            elif isinstance(x, Addr) and x.base_is_reg:
                names.add(x.base)
    return names


def registers_read(instrs: list[Instr]) -> set[str]:
    """Every register some instruction reads (a destination's register only where it is also read)."""
    names = set()
    for ins in instrs:
        names |= registers_read_by(ins)
        if ins.guard is not None:
            names.add(ins.guard.name)
    return names


def _looks_like_popc_inc(ins: Instr, read: set[str]) -> bool:
    """PTX that ptxas turns into ATOMS.POPC.INC: a 32-bit add of the immediate 1, result unused."""
    from smemlab.analyze.ptx import Imm, Reg

    if "add" not in ins.parts or ins.parts[-1] not in ("u32", "s32"):
        return False
    value = ins.operands[-1]
    if not (isinstance(value, Imm) and value.value == 1):
        return False
    if ins.parts[0] == "red":
        return True
    dest = ins.operands[0]
    return isinstance(dest, Reg) and dest.name not in read


def _bytes(cov: list[tuple[int, int]]) -> set[int]:
    out = set()
    for o, s in cov:
        out.update(range(o, o + s))
    return out


_BRANCH = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?BRA(?:\.[A-Z]+)*\s+`\((\.L_x_\d+)\)")
_LABEL_LINE = re.compile(r"^(\.L_x_\d+):")
_ADDRESS = re.compile(r"/\*([0-9a-f]{4,})\*/")
_GUARD = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+)?")
UNROLLS = (2, 4, 8, 16)  # the factors ptxas unrolls a loop by again (unrolled_loops)


def listing_loops(text: str, symbol: str) -> tuple[list[tuple[int, int]], list[tuple[int, str, int, str]], list[int]]:
    """Kernel `symbol`'s loops in the listing, (first address, backward branch's address), sorted; its instructions
    (address, file, line, text); the addresses of its branches."""
    address: dict[str, int] = {}
    branches: list[tuple[int, str]] = []
    placed: list[tuple[int, str, int, str]] = []
    pending: list[str] = []
    for file, line, raw in _kernel_lines(text, symbol):
        lab = _LABEL_LINE.match(raw.strip())
        if lab:
            pending.append(lab.group(1))
            continue
        m = _ADDRESS.search(raw)
        if not m:
            continue
        at = int(m.group(1), 16)
        for lab in pending:
            address[lab] = at
        pending = []
        placed.append((at, file, line, raw))
        b = _BRANCH.search(raw)
        if b:
            branches.append((at, b.group(2)))
    loops = sorted((address[t], at) for at, t in branches if t in address and address[t] <= at)
    return loops, placed, [at for at, _ in branches]


def unrolled_loops(text: str | None, symbol: str, flow, sites: dict[int, tuple[str, int]],
                   accesses: list[SassAccess] | None, files: dict[int, str]) -> dict[int, tuple[int, int, int]]:
    """pc -> (its loop's first pc, U, its last pc) for the accesses `sites` of each innermost PTX loop that ptxas unrolled
    again by U into a SASS loop of U copies of its body, followed by blocks of U/2, U/4 ... 1 copies: a loop
    whose trip count the data gives (a CSR row's: `for (j = start; j < end; ++j)`), which runs in its SASS loop
    while at least U trips remain to a lane, then in each block whose bit the lane's remainder has. Lanes whose
    trips differ share a SASS access there at different PTX trips, where the PTX runs the warp's trips in lock
    step (ledger.py regroups them; measured on an H100 and an H200: dd.spmv.scalar and the CSR SpMVs of
    fresh2.*, tools/analyze_truth/data_dependent_notes.md). The PTX loop's accesses must be one basic block (each
    runs once a trip), the SASS loop's those of the PTX loop's lines, U times their widths, and the accesses of
    those lines after it, up to the next loop, begin with blocks (parted by branches or guards) of U/2, U/4 ...
    1 times them, in that order. Anything else: {} for that loop."""
    if text is None or accesses is None or flow is None:
        return {}
    loops, _, jumps = listing_loops(text, symbol)
    placed = [(int(_ADDRESS.search(s.text).group(1), 16), s) for s in accesses if _ADDRESS.search(s.text)]
    out: dict[int, tuple[int, int, int]] = {}
    back = flow.loops()
    for start, end in back:
        if any((s2, e2) != (start, end) and start <= s2 and e2 <= end for s2, e2 in back):
            continue  # not innermost
        body = [pc for pc in sites if start <= pc <= end]
        if not body or len({flow.block_of[pc] for pc in body}) != 1:
            continue
        lines = {source_line(flow.instrs[pc].loc, files) for pc in body}
        widths = sorted(sites[pc][1] for pc in body)
        for i, (s_lo, s_hi) in enumerate(loops):
            inside = [s for at, s in placed if s_lo <= at <= s_hi]
            if not inside or any((s.file, s.line) not in lines for s in inside):
                continue
            u = len(inside) // len(body)
            if u not in UNROLLS or sorted(s.width for s in inside) != sorted(widths * u):
                continue
            # the next loop ends the blocks; not a loop of one copy of the body (ptxas's last block as a loop over
            # what is left, at most one trip there: argmax_rows)
            nxt = min((lo for lo, hi in loops[i + 1:] if lo > s_hi and sorted(
                s.width for at, s in placed if lo <= at <= hi and (s.file, s.line) in lines) != widths),
                default=1 << 62)
            # the accesses after the loop in blocks: a branch before them, or another guard (`@P0 LDS`), starts one
            made: list[list[int]] = []
            last = None
            for at, s in placed:
                if s_hi < at < nxt and (s.file, s.line) in lines:
                    key = (max(j for j in jumps if j < at), _GUARD.search(s.text).group(1))
                    if key != last:
                        made.append([])
                    made[-1].append(s.width)
                    last = key
            made = [sorted(b) for b in made]
            # (blocks past those: other code of the lines, NVVM's remainder loop that ptxas put after: argmax_rows)
            want = [sorted(widths * (u >> k)) for k in range(1, u.bit_length())]
            if made[:len(want)] == want:
                out.update({pc: (start, u, end) for pc in body})
            break
    return out
