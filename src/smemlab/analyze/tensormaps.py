"""Tensor maps made in the kernel: `tensormap.replace` and `tensormap.cp_fenceproxy` (Triton's
`tl.make_tensor_descriptor`, libcu++'s `cuda::ptx::tensormap_replace_*`).

What the code does. A kernel builds a 128-byte tensor map in shared memory (Triton: the first warp zeroes it with
st.shared, one thread sets each field with `tensormap.replace.tile.FIELD.shared::cta.b1024.bN [map], {ord,} value`),
copies it to global memory with `tensormap.cp_fenceproxy.global.shared::cta...sync.aligned [dst], [src], 128` (a
warp), and its TMA copies read it there (`cp.async.bulk.tensor` with the global address as the map). The fields'
values are PTX's: `rank` is the rank minus 1, `elemtype` PTX's element-type code (0 .u8, 1 .u16, 2 .u32, 3 .s32,
4 .u64, 5 .s64, 6 .f16, 7 .f32, 8 .f32.ftz, 9 .f64, 10 .bf16, 11 .tf32, 12 .tf32.ftz: Triton passes 10 for bfloat16
and 9 for float64, where the driver's CUtensorMapDataType has 9 and 8), `box_dim` and `global_dim` in elements,
`global_stride` in bytes (ord i: dimension i + 1's), swizzle and fill as CUtensorMapSwizzle / OOB fill. The
emulation writes them into the map's bytes in the layout tma.py reads (its own, the hardware's being undocumented),
so a map made here, copied, and read by a TMA copy is the one a host would have encoded.

What it costs. ptxas lowers each `tensormap.replace` into read-modify-writes of the hardware's packed layout: one
thread's LDS and STS of words of the map (for a 2-d map, Triton's eleven replaces: 6 LDS, 7 STS and 2 STS.64 on the
descriptor's line, measured on an H200, 2026-11-28: triton.tma_add_tiles_device, tma_matmul_device), each executed
once, one wavefront. Which field takes which word is not documented, so the SASS says how many: a line's shared
accesses in the SASS beyond those of its PTX loads and stores are the replaces', spread over the runs of replaces on
that line (`sass_costs`), and each run's first replace makes them (one request and one wavefront each, the lanes at
the map's one address). `tensormap.cp_fenceproxy` is, in SASS, the warp's LDS of a word each (lane l: bytes 4l to
4l + 3) and an ATOMG.E.EXCH of it to the global map: a shared load of 128 bytes (1 wavefront) and a global atomic
request of 4 sectors, as measured. A `tensormap.replace` on a map in global memory is emulated, its costs (global
loads and stores of ptxas's) not counted.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from smemlab.analyze import memory as M
from smemlab.analyze import sass
from smemlab.analyze.alu import builder
from smemlab.analyze.machine import Machine
from smemlab.analyze.memops import Access, Fault, address_getter, space_of
from smemlab.analyze.ptx import Instr, PTXError
from smemlab.analyze.tma import _HEAD, ELEMENT_TYPES, MAGIC, SIZE, SWIZZLE_BYTES, map_words, read_words, write_words

# PTX's tensormap element-type codes -> bytes an element and tma.ELEMENT_TYPES's name (13-15 are packed 4- and
# 6-bit types: not emulated)
ELEMENT_BYTES = {0: 1, 1: 2, 2: 4, 3: 4, 4: 8, 5: 8, 6: 2, 7: 4, 8: 4, 9: 8, 10: 2, 11: 4, 12: 4}
ELEMENT_NAMES = {0: "u8", 1: "u16", 2: "u32", 3: "s32", 4: "u64", 5: "s64", 6: "f16", 7: "f32", 8: "f32", 9: "f64",
                 10: "bf16", 11: "f32", 12: "f32"}
ORDERED = ("box_dim", "global_dim", "global_stride", "element_stride")  # fields with an ordinal operand
# the place of each field in _HEAD's unpacked tuple (magic, address, rank, element bytes, swizzle, fill, dims[5],
# strides[4], box[5])
_ADDRESS, _RANK, _ELEM, _SWIZZLE, _FILL, _DIMS, _STRIDES, _BOX, _TYPE = 1, 2, 3, 4, 5, 6, 11, 15, 20
_LIMITS = {"box_dim": 5, "global_dim": 5, "global_stride": 4, "element_stride": 5}


def replaced(raw: bytes, field: str, ord_: int, value: int) -> bytes:
    """The 128 bytes of a tensor map (tma.py's layout) with one field set as `tensormap.replace` sets it; bytes that
    hold no such map (a zeroed buffer) start as an empty one."""
    f = list(_HEAD.unpack_from(raw if raw[:8] == MAGIC else MAGIC + bytes(SIZE - len(MAGIC))))
    if field in ORDERED and not 0 <= ord_ < _LIMITS[field]:
        raise ValueError(f"ordinal {ord_} of .{field} is out of range")
    if field == "global_address":
        f[_ADDRESS] = value
    elif field == "rank":
        if not 0 <= value <= 4:
            raise ValueError(f".rank {value}: 0 to 4 (the rank minus 1)")
        f[_RANK] = value + 1
    elif field == "elemtype":
        if value not in ELEMENT_BYTES:
            raise ValueError(f".elemtype {value}: the packed 4- and 6-bit element types are not emulated")
        f[_ELEM] = ELEMENT_BYTES[value]
        f[_TYPE] = ELEMENT_TYPES.index(ELEMENT_NAMES[value])
    elif field == "swizzle_mode":
        if value not in SWIZZLE_BYTES:
            raise ValueError(f".swizzle_mode {value}: only none, 32, 64 and 128 bytes (0 to 3) are emulated")
        f[_SWIZZLE] = value
    elif field == "fill_mode":
        f[_FILL] = value & 1
    elif field == "box_dim":
        f[_BOX + ord_] = value
    elif field == "global_dim":
        f[_DIMS + ord_] = value
    elif field == "global_stride":
        f[_STRIDES + ord_] = value
    elif field == "element_stride":
        if value != 1:
            raise ValueError(f".element_stride {value}: only element strides of 1 are emulated")
    elif field == "interleave_layout":
        if value != 0:
            raise ValueError(f".interleave_layout {value}: interleaved tensor maps are not emulated")
    elif field != "swizzle_atomicity":  # sm_100's: nothing a copy here reads
        raise ValueError(f"tensormap.replace of .{field} is not supported")
    return _HEAD.pack(*f) + bytes(SIZE - _HEAD.size)


@builder("tensormap.replace", context=True)
def b_replace(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    """tensormap.replace.tile.FIELD{.space}.b1024.bN [map], {ord,} value: one field of the map set, by each active
    thread; the run's first replace also makes ptxas's shared accesses of the map (module docstring)."""
    parts = ins.parts
    if len(parts) < 4 or parts[2] != "tile":
        raise PTXError(f"{ins.opcode}: only .tile tensor maps are supported")
    field = parts[3]
    space = space_of(ins)
    ops = ins.operands
    if len(ops) != (3 if field in ORDERED else 2):
        raise PTXError(f"{ins.text}: expected [map], {'ord, ' if field in ORDERED else ''}value")
    gaddr = address_getter(mach, ops[0], space)
    gord = mach.getter(ops[1], np.int32) if field in ORDERED else None
    gval = mach.getter(ops[-1], np.uint64 if parts[-1] == "b64" else np.uint32)
    costs = getattr(ledger, "tensormap_costs", {}).get(pc, ()) if ledger is not None else ()
    made: dict[int, object] = {}

    def fn(m, full):
        a, v = gaddr(), gval()
        o = gord() if gord is not None else None
        for t in np.flatnonzero(m):
            t = int(t)
            _, sp, words = map_words(mach, space, int(a[t]), t, "tensor map")
            try:
                raw = replaced(read_words(sp, words), field, int(o[t]) if o is not None else 0, int(v[t]))
            except ValueError as exc:
                raise Fault(f"{ins.opcode}: {exc}", t) from None
            write_words(sp, words, raw)
        for i, (kind, width) in enumerate(costs):
            site = made.get(i)
            if site is None:
                site = made[i] = ledger.site(pc, kind, width, ins.loc, f"{ins.text}  (ptxas's {kind} of the map's words)")
            ledger.record(site, a.astype(np.int64), m.copy(), ex.issued_warps)
    return fn


@builder("tensormap.cp_fenceproxy", context=True)
def b_cp_fenceproxy(ins: Instr, mach: Machine, ledger=None, pc=0, ex=None):
    """tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.{cta,cluster,gpu,sys}.sync.aligned [dst],
    [src], 128: the map copied from shared to global memory, lane l moving its bytes 4l to 4l + 3 as ptxas's LDS and
    ATOMG.E.EXCH do (module docstring)."""
    ops = ins.operands
    if len(ops) != 3 or int(getattr(ops[2], "value", 0)) != SIZE:
        raise PTXError(f"{ins.text}: expected [dst], [src], 128")
    gdst = address_getter(mach, ops[0], "global")
    gsrc = address_getter(mach, ops[1], "shared")
    lane4 = mach.lane.astype(np.int64) * 4
    load = Access(ins, mach, ledger, pc, "load", 4, ex) if ledger is not None else None
    swap = Access(ins, mach, ledger, pc, "atomic", 4, ex) if ledger is not None else None
    gsp = mach.global_

    def fn(m, full):
        s = gsrc().astype(np.int64) + lane4
        g = gdst().astype(np.int64) - M.GLOBAL_BASE + lane4
        for t in np.flatnonzero(m):
            t = int(t)
            sp = mach.shared.block(int(mach.shared.rank[t]))
            one = np.array([s[t]], dtype=np.int64)
            try:
                sp.check(one, np.ones(1, dtype=bool), 4, "tensor map copy's shared memory")
                gsp.check(np.array([g[t]], dtype=np.int64), np.ones(1, dtype=bool), 4, "tensor map copy's global memory")
            except M.MemoryFault as exc:
                raise Fault(str(exc), t) from None
            gsp.store(np.array([g[t]]), np.ones(1, dtype=bool), 4, sp.load(one, np.ones(1, dtype=bool), 4))
        if load is not None:
            load.record([("shared", mach.shared, s, m)])
            swap.record([("global", gsp, g, m)])
    return fn


def sass_costs(instrs: list[Instr], block_of: list[int], sites: dict[int, tuple[str, int]],
               listing: list | None, files: dict[int, str]) -> dict[int, list[tuple[str, int]]]:
    """pc of each run's first `tensormap.replace` on shared memory (a run: a basic block's replaces on one line) ->
    [(load | store, bytes)] of the SASS accesses ptxas made of the run: the line's SASS shared loads and stores beyond
    those of its PTX (`sites`, sass.plan's; a cp_fenceproxy: one load), shared among its runs (module docstring)."""
    runs: dict[tuple, list[int]] = defaultdict(list)  # (file, line) -> first pc of each run
    seen: set[tuple] = set()
    for pc, ins in enumerate(instrs):
        if tuple(ins.parts[:2]) == ("tensormap", "replace") and space_of(ins) == "shared":
            key = sass.source_line(ins.loc, files)
            if (key, block_of[pc]) not in seen:
                seen.add((key, block_of[pc]))
                runs[key].append(pc)
    if not runs or listing is None:
        return {}
    expected: dict[tuple, int] = defaultdict(int)
    for pc, (op, _) in sites.items():
        expected[sass.source_line(instrs[pc].loc, files) + (op,)] += 1
    for pc, ins in enumerate(instrs):
        if tuple(ins.parts[:2]) == ("tensormap", "cp_fenceproxy"):
            expected[sass.source_line(ins.loc, files) + ("load",)] += 1
    out: dict[int, list[tuple[str, int]]] = {}
    for key, firsts in runs.items():
        made: list[tuple[str, int]] = []
        for op in ("load", "store"):
            mine = [s for s in listing if (s.file, s.line, s.op) == key + (op,)]
            # the replaces' accesses address the map through a uniform register alone; take those first
            mine.sort(key=lambda s: not s.base.startswith("UR"))
            made += [(op, s.width) for s in mine[:max(0, len(mine) - expected[key + (op,)])]]
        share, extra = divmod(len(made), len(firsts))
        at = 0
        for i, pc in enumerate(firsts):
            n = share + (1 if i < extra else 0)
            out[pc] = made[at:at + n]
            at += n
    return out
