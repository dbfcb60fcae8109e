"""The state of the emulated block: registers, special registers, memories and symbol addresses.

Every register is one NumPy array with an entry per thread of the block (warps * 32, x fastest),
of the dtype its `.reg` declaration gives; a register is never changed in place, only replaced, so
two registers may share one array. Operands are turned once into getters (a function returning the
operand as an array of the instruction's type) and writers (which store a result under the active
mask), so that executing an instruction is a few NumPy calls with no parsing and no type dispatch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smemlab.analyze import memory as M
from smemlab.analyze.ptx import Addr, Imm, Instr, Kernel, Module, PTXError, Reg, Sink, Sym, Variable

WARP = 32
# the reserved shared memory's special registers, as an H200 reads them (2026-11-29): offsets from its start, the
# first 1,024 bytes of the block's window before the kernel's own (_cap: its size); _end is where cooperative
# groups' 288-byte scratch ends (5 barriers, 12 bytes, 32 words of exchange), which both slots point at the start of
RESERVED_SHARED = {"%reserved_smem_offset_begin": 0, "%reserved_smem_offset_0": 0, "%reserved_smem_offset_1": 0,
                   "%reserved_smem_offset_end": 288, "%reserved_smem_offset_cap": 1024}

DTYPES = {
    "pred": np.bool_, "b8": np.uint8, "u8": np.uint8, "s8": np.int8, "b16": np.uint16, "u16": np.uint16,
    "s16": np.int16, "f16": np.float16, "bf16": np.uint16, "b32": np.uint32, "u32": np.uint32, "s32": np.int32,
    "f32": np.float32, "f16x2": np.uint32, "bf16x2": np.uint32, "b64": np.uint64, "u64": np.uint64,
    "s64": np.int64, "f64": np.float64, "tf32": np.uint32,
}
UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


@dataclass(frozen=True)
class Launch:
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    block_index: tuple[int, int, int]
    dynamic_shared: int = 0
    cluster: tuple[int, int, int] = (1, 1, 1)  # the blocks of the cluster, all emulated

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def blocks(self) -> int:
        return self.cluster[0] * self.cluster[1] * self.cluster[2]


class Machine:
    """Registers (self.R), special registers, memories and the addresses of every symbol."""

    def __init__(self, module: Module, kernel: Kernel, launch: Launch, global_space: M.GlobalSpace,
                 params: bytes, const_overrides: dict[str, bytes] | None = None):
        self.kernel = kernel
        self.launch = launch
        self.T = launch.threads
        self.block_warps = -(-self.T // WARP)
        self.blocks = launch.blocks
        self.W = self.block_warps * self.blocks  # each block's warps, block after block (rank order)
        self.N = self.W * WARP
        self.R: list[np.ndarray] = []
        self.index: dict[str, int] = {}
        self.dtype: list[np.dtype] = []
        self.steps = 0  # warp-instructions executed so far (drives %clock)
        self.carry = np.zeros(self.N, dtype=bool)  # CC.CF of the extended-precision arithmetic (carry.py)
        t = np.arange(self.N, dtype=np.int64)
        self.thread_ids = t
        self.lane = (t % WARP).astype(np.uint32)
        per = self.block_warps * WARP
        self.rank = t // per  # the thread's block: its rank in the cluster
        self.in_block = t % per  # its linear index in its block
        self.valid = self.in_block < self.T  # padding lanes of each block's last warp never run
        bx, by, _ = launch.block
        tb = self.in_block
        self.tid = (tb % bx, (tb // bx) % by, tb // (bx * by))
        cx, cy, _ = launch.cluster
        r = self.rank
        self.cluster_ctaid = (r % cx, (r // cx) % cy, r // (cx * cy))
        # the cluster holding --block-index, its blocks in rank order (x fastest)
        self.ctaid = tuple(launch.block_index[i] // launch.cluster[i] * launch.cluster[i] + self.cluster_ctaid[i]
                           for i in range(3))
        for name, typ in kernel.regs.items():
            self._declare(name, typ)
        self.dead = None  # deadloads.DeadLoads: reads and writes of the registers ldmatrix fills, followed
        self.cur: np.ndarray | None = None  # the lanes of the instruction executing now (for `dead`)
        self.on: np.ndarray | None = None  # of a guarded one, those whose guard is on (for `dead`'s sunk loads)
        self.symbols: dict[str, tuple[str, int]] = {}  # name -> (space, address in that space)
        self._layout(module, kernel, launch, global_space, params, const_overrides or {})

    # ---------------------------------------------------------------- registers

    def _declare(self, name: str, typ: str) -> int:
        dt = DTYPES.get(typ.lstrip("."))
        if dt is None:
            raise PTXError(f"register {name} of type {typ} is not supported")
        self.index[name] = len(self.R)
        self.R.append(np.zeros(self.N, dtype=dt))
        self.dtype.append(np.dtype(dt))
        return self.index[name]

    def special(self, name: str) -> np.ndarray | None:
        """The value of a special register, or None for one that changes while the kernel runs."""
        L = self.launch
        comp = {"x": 0, "y": 1, "z": 2}
        base, _, c = name.partition(".")
        i = comp.get(c, 0)
        full = lambda v, dt=np.uint32: np.full(self.N, v, dtype=dt)  # noqa: E731
        lane = self.lane
        if base == "%tid":
            return self.tid[i].astype(np.uint32)
        if base == "%ntid":
            return full(L.block[i])
        if base == "%ctaid":
            return self.ctaid[i].astype(np.uint32)
        if base == "%nctaid":
            return full(L.grid[i])
        if base == "%laneid":
            return lane.copy()
        if base in ("%warpid",):
            return (self.in_block // WARP).astype(np.uint32)
        if base == "%nwarpid":
            return full(self.block_warps)
        if base in ("%smid", "%gridid"):
            return self.rank.astype(np.uint32) if base == "%smid" else full(0)
        if base == "%is_explicit_cluster":
            return full(int(self.blocks > 1))
        if base in ("%nsmid",):
            return full(self.blocks)
        if base == "%cluster_ctarank":
            return self.rank.astype(np.uint32)
        if base in ("%cluster_nctarank",):
            return full(self.blocks)
        if base == "%cluster_ctaid":
            return self.cluster_ctaid[i].astype(np.uint32)
        if base == "%clusterid":
            return full(L.block_index[i] // L.cluster[i])
        if base in ("%cluster_nctaid",):
            return full(L.cluster[i])
        if base == "%nclusterid":
            return full(L.grid[i] // L.cluster[i])
        if base in ("%dynamic_smem_size",):
            return full(L.dynamic_shared)
        if base in ("%total_smem_size", "%aggr_smem_size"):
            return full(self.shared.size)
        if base in RESERVED_SHARED:
            at = RESERVED_SHARED[base]
            return full(at if base == "%reserved_smem_offset_cap" else (self.reserved_shared or 0) + at)
        if base == "%lanemask_eq":
            return (np.uint32(1) << lane).astype(np.uint32)
        if base == "%lanemask_lt":
            return ((np.uint64(1) << lane.astype(np.uint64)) - np.uint64(1)).astype(np.uint32)
        if base == "%lanemask_le":
            return ((np.uint64(2) << lane.astype(np.uint64)) - np.uint64(1)).astype(np.uint32)
        if base == "%lanemask_gt":
            return (~((np.uint64(2) << lane.astype(np.uint64)) - np.uint64(1))).astype(np.uint32)
        if base == "%lanemask_ge":
            return (~((np.uint64(1) << lane.astype(np.uint64)) - np.uint64(1))).astype(np.uint32)
        if base.startswith("%envreg"):
            return full(0)
        return None

    def reg_index(self, name: str) -> int:
        if name in self.index:
            return self.index[name]
        value = self.special(name)
        if value is None:
            raise PTXError(f"register {name} is not declared")
        i = self._declare(name, {np.dtype(np.uint32): ".u32", np.dtype(np.uint64): ".u64"}[value.dtype])
        self.R[i] = value
        return i

    def getter(self, op, dt):
        """A function returning operand `op` as an array of dtype `dt` (one entry per thread)."""
        dt = np.dtype(dt)
        R = self.R
        if isinstance(op, Reg):
            if op.name in ("%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi"):
                machine = self

                def clock():
                    return np.full(machine.N, machine.steps * 4 + 1000, dtype=dt)
                return clock
            i = self.reg_index(op.name)
            sd = self.dtype[i]
            if op.neg:
                if sd != np.bool_:
                    raise PTXError(f"!{op.name}: only a predicate can be negated")
                return lambda: ~R[i]
            raw = lambda: R[i]  # noqa: E731
            if self.dead is not None and i in self.dead.watched:
                machine, dead = self, self.dead

                def raw():
                    dead.read(i, machine.cur, machine.on)
                    return R[i]
            if sd == dt:
                return raw
            return convert_getter(raw, sd, dt)
        if isinstance(op, Imm):
            const = self.constant(op, dt)
            return lambda: const
        if isinstance(op, (Sym, Addr)):
            space, addr = self.address_of(op)
            if space == "" and isinstance(op, Sym) and dt.kind in "iuf":
                const = np.full(self.N, addr, dtype=dt)
                return lambda: const
            const = np.full(self.N, addr, dtype=np.int64).astype(dt) if dt.kind in "iu" else None
            if const is None:
                raise PTXError(f"the address of {op} cannot be a {dt} value")
            return lambda: const
        raise PTXError(f"operand {op} cannot be read here")

    def constant(self, imm: Imm, dt) -> np.ndarray:
        dt = np.dtype(dt)
        if imm.bits is not None and dt.kind != "f":
            v = np.array(imm.bits, dtype=np.uint64).astype(dt)
        elif imm.bits is not None and dt.itemsize * 8 == imm.width:
            v = np.array(imm.bits, dtype=UNSIGNED[dt.itemsize]).view(dt)
        elif dt.kind == "f":
            v = np.array(imm.value, dtype=dt)
        elif dt.kind == "b":
            v = np.array(bool(imm.value))
        else:
            v = np.array(int(imm.value) & ((1 << (8 * dt.itemsize)) - 1), dtype=np.uint64).astype(UNSIGNED[dt.itemsize]).view(dt)
        return np.full(self.N, v, dtype=dt)

    def writer(self, op, dt):
        """A function (value, mask, full) that stores a result of dtype `dt` into register `op`."""
        if isinstance(op, Sink):
            return lambda v, m, full: None
        if not isinstance(op, Reg) or op.neg:
            raise PTXError(f"cannot write to {op}")
        i = self.reg_index(op.name)
        sd = self.dtype[i]
        dt = np.dtype(dt)
        if self.dead is not None and i in self.dead.watched:
            plain, dead = self._writer(i, sd, dt), self.dead

            def watched(v, m, full):
                dead.write(i, m)
                plain(v, m, full)
            return watched
        return self._writer(i, sd, dt)

    def _writer(self, i: int, sd, dt):
        R = self.R
        if sd == dt:
            def w(v, m, full):
                R[i] = v if full else np.where(m, v, R[i])
            return w
        conv = convert_fn(dt, sd)

        def wc(v, m, full):
            v = conv(v)
            R[i] = v if full else np.where(m, v, R[i])
        return wc

    # ---------------------------------------------------------------- memory layout

    def _layout(self, module, kernel, launch, global_space, params, const_overrides):
        used = _referenced_names(kernel)
        shared_vars = [v for v in module.variables if v.space == "shared" and v.name in used] + \
                      [v for v in kernel.variables if v.space == "shared"]
        pos = 0
        dyn_align = 16
        for v in shared_vars:
            if v.extern or v.count is None:
                dyn_align = max(dyn_align, v.align)
                continue
            pos = -(-pos // max(v.align, 1)) * max(v.align, 1)
            self.symbols[v.name] = ("shared", pos)
            pos += v.size
        static = pos
        dyn_base = -(-static // dyn_align) * dyn_align
        for v in shared_vars:
            if v.extern or v.count is None:
                self.symbols[v.name] = ("shared", dyn_base)
        self.static_shared = static
        total = dyn_base + launch.dynamic_shared if launch.dynamic_shared else static
        # the block's reserved shared memory, which %reserved_smem_offset_* name (cooperative groups keeps the
        # barriers and the exchange of its tiles of more than a warp there): placed past the kernel's own
        self.reserved_shared = None
        if any(isinstance(ins, Instr) and "%reserved_smem_offset_" in ins.text for ins in kernel.body):
            self.reserved_shared = -(-total // 128) * 128
            total = self.reserved_shared + RESERVED_SHARED["%reserved_smem_offset_cap"]
        self.shared = M.SharedSpace(total, self.blocks, self.block_warps * WARP, self.N)
        if not launch.dynamic_shared and any(v.extern or v.count is None for v in shared_vars):
            # what a fault past the end says: the usual cause is a dynamic array launched with no bytes
            self.shared.past_end = ("; the kernel's dynamic shared array (extern __shared__, Numba's "
                                    "cuda.shared.array(0, ...)) has none: give --dynamic-shared BYTES")
        self.cluster_window = M.ClusterWindow(self.shared)
        for v in shared_vars:  # initialised shared variables are not PTX, but be safe
            if v.init is not None and v.name in self.symbols:
                a = self.symbols[v.name][1]
                for r in range(self.blocks):
                    self.shared.block(r).bytes[a:a + len(v.init)] = np.frombuffer(v.init, dtype=np.uint8)

        # local: the kernel's depots, per thread
        pos = 0
        for v in kernel.variables:
            if v.space == "local":
                pos = -(-pos // max(v.align, 1)) * max(v.align, 1)
                self.symbols[v.name] = ("local", pos)
                pos += v.size
        self.local = M.LocalSpace(pos, self.N)

        # const: module variables with their initial bytes (or what --arg gave)
        pos, placed = 0, []
        for v in module.variables:
            if v.space == "const":
                pos = -(-pos // max(v.align, 1)) * max(v.align, 1)
                self.symbols[v.name] = ("const", pos)
                placed.append((pos, v))
                pos += v.size
        self.const = M.Space("const", pos, origin=M.CONST_BASE)
        for a, v in placed:
            data = const_overrides.get(v.name, v.init)
            if data is not None:
                data = data[: v.size]
                self.const.bytes[a:a + len(data)] = np.frombuffer(data, dtype=np.uint8)

        # global: the buffers of pointer arguments, then module variables
        self.global_ = global_space
        for b in global_space.buffers:
            if b.name.startswith("@"):
                self.symbols[b.name[1:]] = ("global", b.base)

        # param: the kernel's parameters, back to back with their alignment
        self.param = M.Space("param", max(len(params), 0), origin=M.PARAM_BASE)
        self.param.bytes[: len(params)] = np.frombuffer(params, dtype=np.uint8)
        for p, off in zip(kernel.params, param_offsets(kernel.params)):
            self.symbols[p.name] = ("param", off)

    def address_of(self, op) -> tuple[str, int]:
        name = op.name if isinstance(op, Sym) else op.base
        off = 0 if isinstance(op, Sym) else op.offset
        if name is None:
            return "", off
        if name == "WARP_SZ":  # PTX's predefined constant
            return "", WARP + off
        if name not in self.symbols:
            raise PTXError(f"symbol {name} is not a variable this kernel can reach")
        space, addr = self.symbols[name]
        return space, addr + off

    def space(self, name: str) -> M.Space:
        return {"shared": self.shared, "global": self.global_, "local": self.local, "const": self.const,
                "param": self.param, "dsmem": self.cluster_window}[name]


def param_offsets(params: list[Variable]) -> list[int]:
    out, pos = [], 0
    for p in params:
        # at least the element's own alignment: `.param .u64 .ptr .global .align 1 p` names the pointee's (Triton's
        # scratch pointers after 32-bit integers)
        a = max(p.align, p.elem_size, 1)
        pos = -(-pos // a) * a
        out.append(pos)
        pos += p.size
    return out


def _referenced_names(kernel: Kernel) -> set[str]:
    from smemlab.analyze.ptx import Instr, Vec

    names = set()
    for ins in kernel.body:
        if not isinstance(ins, Instr):
            continue
        for op in ins.operands:
            for o in (op.items if isinstance(op, Vec) else (op,)):
                if isinstance(o, Sym):
                    names.add(o.name)
                elif isinstance(o, Addr) and not o.base_is_reg and o.base:
                    names.add(o.base)
    return names


def convert_fn(src, dst):
    """Bits of `src` reinterpreted, truncated or extended to `dst` (registers of another width)."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src == dst:
        return lambda v: v
    if dst == np.bool_:
        return lambda v: v != 0
    if src == np.bool_:
        return lambda v: v.astype(dst)
    if src.itemsize == dst.itemsize:
        return lambda v: v.view(dst)
    us, ud = UNSIGNED[src.itemsize], UNSIGNED[dst.itemsize]
    if src.itemsize > dst.itemsize:  # keep the low bits
        if dst.kind == "u":
            return lambda v: v.view(us).astype(dst)
        return lambda v: v.view(us).astype(ud).view(dst)
    # widen: sign-extend a signed source, else zero-extend
    if src.kind == "i":
        return lambda v: v.astype(SIGNED[dst.itemsize]).view(dst)
    if src.kind == "u":
        return lambda v: v.astype(dst) if dst.kind in "iu" else v.astype(ud).view(dst)
    return lambda v: v.view(us).astype(ud).view(dst)


def convert_getter(get, src, dst):
    conv = convert_fn(src, dst)
    return lambda: conv(get())
