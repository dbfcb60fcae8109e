"""Calls into the CUDA device runtime, which the PTX declares `.extern .func`: assert, printf, malloc, free.

    { .param .b64 param0;  st.param.b64 [param0+0], %rd20;  .param .b64 param1;  st.param.b64 [param1+0], %rd13;
      .param .b32 retval0;  call.uni (retval0), vprintf, (param0, param1);  ld.param.b32 %r7, [retval0+0]; }

inline.py leaves these calls where they are (their .param variables become per-thread local memory,
as for any call); each runs here as one instruction for the lanes that reach it, reading its
arguments from those variables and writing its result to the return variable:

- `__assertfail(message, file, line, function, char size)`: `assert(c)` branches around the call when
  c holds, so a lane that reaches it has failed; the analysis stops with the message the GPU prints
  (the strings are constants of the module, in global memory), as the kernel stops there on the GPU.
- `vprintf(format, args)`: the format string and the argument buffer the call points at (in the
  thread's local memory: each argument at its own alignment, floats promoted to double), formatted as
  C's printf does and written to stderr, one line per thread, prefixed with its block and thread;
  after MAX_LINES lines the rest are only counted. It returns the number of characters written.
- `malloc(size)` / `free(p)`: a heap of HEAP_BYTES (the CUDA default, cudaLimitMallocHeapSize) in
  global memory, served to the lanes in thread order, 16-byte aligned; a request that does not fit
  gets NULL, as on the GPU. free returns nothing to the heap (one block's run does not exhaust it).
"""

from __future__ import annotations

import re
import struct
import sys

import numpy as np

from smemlab.analyze import memory as M
from smemlab.analyze.ptx import Instr, PTXError, Sym
from smemlab.errors import UserError

RUNTIME = ("__assertfail", "vprintf", "malloc", "free")
HEAP_BYTES = 8 << 20
HEAP = "@<device heap>"  # the heap's buffer in the global space (no PTX name can take this form)
MAX_LINES = 50
MAX_STRING = 4096
ALIGN = 16

_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfFgGaAcspn%])")


class AssertionFailed(UserError):
    """A device assert failed: the GPU stops the kernel with this message."""


def heap_needed(kernel) -> bool:
    return any(isinstance(i, Instr) and i.parts[0] == "call" and isinstance(i.operands[1], Sym)
               and i.operands[1].name == "malloc" for i in kernel.body)


def heap_buffer() -> M.Buffer:
    return M.Buffer(HEAP, 0, HEAP_BYTES)


def _read(mach, addr: int, thread: int, n: int) -> bytes:
    """Up to n bytes at generic address `addr` as thread `thread` sees it (fewer at the end of its memory)."""
    name = M.WINDOWS.get(addr >> M.WINDOW_SHIFT)
    if name is None:
        raise PTXError(f"address 0x{addr:x} is in no memory (a null or uninitialised pointer?)")
    sp = mach.space(name)
    off = addr - (M.GLOBAL_BASE if name == "global" else M.WINDOW_BASE[name])
    at = np.full(mach.N, off, dtype=np.int64)
    pos = int((at + sp.lane_base)[thread]) if isinstance(sp, M.LocalSpace) else int(sp.absolute(at)[thread])
    return bytes(sp.bytes[pos:pos + n])


def c_string(mach, addr: int, thread: int) -> str:
    raw = _read(mach, addr, thread, MAX_STRING)
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


class Args:
    """printf's argument buffer of one thread, read in order, each argument at its own alignment."""

    def __init__(self, raw: bytes):
        self.raw, self.pos = raw, 0

    def take(self, size: int, fmt: str):
        self.pos = -(-self.pos // size) * size
        chunk = self.raw[self.pos:self.pos + size]
        self.pos += size
        if len(chunk) < size:
            raise PTXError("printf reads past its argument buffer (more conversions than arguments?)")
        return struct.unpack("<" + fmt, chunk)[0]


def format_printf(fmt: str, args: Args, string_at) -> str:
    """C printf's output for `fmt`; `string_at(address)` reads a %s argument."""
    out, pos = [], 0
    for m in _SPEC.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        flags, width, prec, length, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            width = str(args.take(4, "i"))
        if prec == "*":
            prec = str(args.take(4, "i"))
        spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
        wide = length in ("l", "ll", "z", "j", "t")
        if conv in "di":
            out.append((spec + "d") % args.take(8 if wide else 4, "q" if wide else "i"))
        elif conv in "ouxX":
            out.append((spec + conv) % args.take(8 if wide else 4, "Q" if wide else "I"))
        elif conv in "eEfFgG":
            out.append((spec + conv) % args.take(8, "d"))
        elif conv in "aA":
            text = float.hex(args.take(8, "d"))
            out.append(("%" + flags + (width or "") + "s") % (text.upper() if conv == "A" else text))
        elif conv == "c":
            out.append(("%" + flags + (width or "") + "c") % chr(args.take(4, "i") & 0xFF))
        elif conv == "s":
            addr = args.take(8, "Q")
            out.append((spec + "s") % (string_at(addr) if addr else "(null)"))
        elif conv == "p":
            out.append(("%" + flags + (width or "") + "s") % f"0x{args.take(8, 'Q'):x}")
        # %n writes nothing here
    out.append(fmt[pos:])
    return "".join(out)


class Runtime:
    """The device runtime of one analysis: its printf lines and its heap."""

    def __init__(self, mach, where, stream=None):
        self.mach, self.where = mach, where
        self.stream = stream if stream is not None else sys.stderr
        self.lines = 0
        self.heap_used = 0

    def finish(self) -> None:
        if self.lines > MAX_LINES:
            print(f"... {self.lines - MAX_LINES} more lines", file=self.stream)

    # ---------------------------------------------------------------- per call

    def build(self, ins: Instr, pc: int):
        name = ins.operands[1].name
        if name not in RUNTIME:
            raise PTXError(f"a call to {name}, a device function with no body here, is not supported")
        rets, args = [a.name for a in ins.operands[0].items], [a.name for a in ins.operands[2].items]
        return getattr(self, "_" + name.strip("_"))(pc, rets, args)

    def _param(self, name: str, m, size: int, dt):
        _, off = self.mach.address_of(Sym(name))
        raw = self.mach.local.load(np.full(self.mach.N, off, dtype=np.int64), m, size)
        return raw.view(dt)

    def _result(self, rets, m, value: np.ndarray) -> None:
        if rets:
            _, off = self.mach.address_of(Sym(rets[0]))
            self.mach.local.store(np.full(self.mach.N, off, dtype=np.int64), m, value.dtype.itemsize,
                                  value.view(M.UINT[value.dtype.itemsize]))

    def _where_thread(self, t: int) -> tuple[str, str]:
        mach = self.mach
        block = ",".join(str(int(c[t])) for c in mach.ctaid)
        thread = ",".join(str(int(c[t])) for c in mach.tid)
        return block, thread

    def _assertfail(self, pc, rets, args):
        def fn(m, full):
            lanes = np.flatnonzero(m)
            if not lanes.size:
                return
            t = int(lanes[0])
            message, file, function = (c_string(self.mach, int(self._param(args[i], m, 8, np.uint64)[t]), t)
                                       for i in (0, 1, 3))
            line = int(self._param(args[2], m, 4, np.uint32)[t])
            block, thread = self._where_thread(t)
            raise AssertionFailed(
                f"{file}:{line}: {function}: block: [{block}], thread: [{thread}] Assertion `{message}` failed. "
                f"(The GPU stops the kernel here; building with --define NDEBUG removes assertions.)")
        return fn

    def _vprintf(self, pc, rets, args):
        def fn(m, full):
            fmts, bufs = self._param(args[0], m, 8, np.uint64), self._param(args[1], m, 8, np.uint64)
            counts = np.zeros(self.mach.N, dtype=np.int32)
            for t in np.flatnonzero(m).tolist():
                given = Args(_read(self.mach, int(bufs[t]), t, MAX_STRING) if bufs[t] else b"")
                text = format_printf(c_string(self.mach, int(fmts[t]), t), given,
                                     lambda a, t=t: c_string(self.mach, a, t))
                counts[t] = len(text)
                for line in text.rstrip("\n").split("\n"):
                    self.lines += 1
                    if self.lines <= MAX_LINES:
                        block, thread = self._where_thread(t)
                        print(f"[block ({block}) thread ({thread})] {line}", file=self.stream)
            self._result(rets, m, counts)
        return fn

    def _malloc(self, pc, rets, args):
        heap = next(b for b in self.mach.global_.buffers if b.name == HEAP)

        def fn(m, full):
            sizes = self._param(args[0], m, 8, np.uint64)
            out = np.zeros(self.mach.N, dtype=np.uint64)
            for t in np.flatnonzero(m).tolist():
                size = int(sizes[t])
                start = -(-self.heap_used // ALIGN) * ALIGN
                if size and start + size <= heap.size:
                    out[t] = heap.base + start
                    self.heap_used = start + size
            self._result(rets, m, out)
        return fn

    def _free(self, pc, rets, args):
        return lambda m, full: None
