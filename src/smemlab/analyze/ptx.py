"""PTX text -> a module of variables and kernels, each kernel a flat list of statements.

Only what the emulator needs is kept: module-level variables (state space, alignment, type, size,
initial bytes), the `.file` table, and for each `.entry` its parameters, register declarations,
local/shared declarations, labels, `.branchtargets` lists and instructions, every instruction tagged
with the `.loc` line in force where it appears. Registers and labels declared inside `{ }` scopes
(inline asm) are renamed so that they cannot clash with the kernel's own or another copy's.

Operands are parsed once here: registers (`%r1`, `%tid.x`), immediates (decimal, hex, `0f`/`0d`
floats), addresses (`[%rd1+8]`, `[sym+4]`), vectors (`{%r1, %r2}`), negated predicates (`!%p1`),
the dual destination `%p1|%p2`, the sink `_`, labels and symbols.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from smemlab.errors import UserError

# --------------------------------------------------------------------------------------------
# operands


@dataclass(frozen=True)
class Reg:
    name: str  # "%r1", "%tid.x" (a special register keeps its component)
    neg: bool = False  # "!%p1"


@dataclass(frozen=True)
class Imm:
    value: int | float
    is_float: bool = False
    bits: int | None = None  # 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX literals: the exact bit pattern
    width: int = 0  # 32 or 64 for a bit-pattern float literal


@dataclass(frozen=True)
class Addr:
    base: str | None  # register name, symbol name, or None for an absolute address
    offset: int
    base_is_reg: bool


@dataclass(frozen=True)
class TensorAddr:
    """`[tmap, {c0, c1, ...}]`: a tensor map's address and the box's coordinates (cp.async.bulk.tensor)."""
    base: Addr
    coords: "Vec"


@dataclass(frozen=True)
class Vec:
    items: tuple  # of Reg | Imm | Sink


@dataclass(frozen=True)
class Sym:
    name: str  # a label, a variable or a function name


@dataclass(frozen=True)
class Pair:
    first: Reg | Sink
    second: Reg | Sink  # "%p1|%p2", "_|%p2"


@dataclass(frozen=True)
class Sink:
    pass


@dataclass(frozen=True)
class Loc:
    file: int
    line: int
    col: int = 0
    inlined_at: tuple[int, int] | None = None  # (file, line) of the outermost call site: the kernel's own line


@dataclass
class Instr:
    opcode: str  # "ld.shared.v4.f32": the full dotted mnemonic
    parts: tuple[str, ...]  # ("ld", "shared", "v4", "f32")
    operands: list
    guard: Reg | None
    loc: Loc | None
    text: str  # the statement as written, for messages
    lineless: bool = False  # under NVVM's `.loc 0` (no line): `loc` is the line before it (sass._spread)
    # inside an inline asm block whose lines Triton 3.9's LLVM numbers on from its statement's (`.loc L`, `.loc L+1`,
    # ... one a line of the asm text, so a masked 4-register load sits on L+3): the statement's line L, where
    # `loc` (the line table's, what Nsight Compute's source view shows) is another; None elsewhere
    asm_line: int | None = None


@dataclass
class Label:
    name: str


@dataclass
class Targets:
    """A `.branchtargets` list (`Tab: .branchtargets L0, L1;`): the labels `brx.idx` picks from."""
    name: str
    labels: list[str]


@dataclass
class Variable:
    space: str  # "shared", "global", "const", "local", "param"
    name: str
    align: int
    type: str  # ".b8", ".u32", ...
    elem_size: int
    count: int | None  # elements; None for an unsized extern array
    init: bytes | None = None
    extern: bool = False
    is_ptr_param: bool = False

    @property
    def size(self) -> int:
        return self.elem_size * (self.count if self.count is not None else 0)


@dataclass
class Kernel:
    name: str
    params: list[Variable]
    regs: dict[str, str]  # register name -> type (".b32", ".pred", ...)
    variables: list[Variable]  # .shared/.local/.const declared in the body
    body: list  # Instr | Label
    maxntid: tuple[int, ...] | None = None
    reqntid: tuple[int, ...] | None = None
    reqnctapercluster: tuple[int, ...] | None = None  # __cluster_dims__


class _LazyKernels(dict):
    """name -> Kernel, each parsed the first time it is asked for (a module may hold many)."""

    def __init__(self, files: dict[int, str]):
        super().__init__()
        self._raw: dict[str, tuple[str, str, str]] = {}
        self._files = files
        self.returns: dict[str, int] = {}  # .func only: how many of its parameters are return values

    def add(self, name: str, params_text: str, perf: str, body: str) -> None:
        self._raw[name] = (params_text, perf, body)

    def __contains__(self, name) -> bool:
        return name in self._raw

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def keys(self):
        return self._raw.keys()

    def values(self):
        return [self[k] for k in self._raw]

    def __getitem__(self, name: str) -> Kernel:
        if not dict.__contains__(self, name):
            dict.__setitem__(self, name, _parse_kernel(name, *self._raw[name], self._files))
        return dict.__getitem__(self, name)


@dataclass
class Module:
    version: str
    target: str
    variables: list[Variable]
    kernels: _LazyKernels
    functions: _LazyKernels  # .func bodies by name (inlined at their calls: inline.py)
    files: dict[int, str] = field(default_factory=dict)


class PTXError(UserError):
    """PTX the parser does not understand (a bug, or a construct this emulator does not handle)."""


TYPE_SIZES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "bf16": 2, "b32": 4, "u32": 4,
              "s32": 4, "f32": 4, "f16x2": 4, "bf16x2": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8, "pred": 1,
              "b128": 16, "e4m3x2": 2, "e5m2x2": 2, "tf32": 4}

# --------------------------------------------------------------------------------------------
# lexing helpers

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# NVVM and Triton's LLVM bracket an inline asm's text with these comments; kept past the comments' removal as a
# directive of smemlab's own (Instr.asm_line)
_ASM_MARK = re.compile(r"^[ \t]*//[ \t]*(begin|end) inline asm[ \t]*$", re.M)
_INT = re.compile(r"^[+-]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uU]?$")
_FHEX = re.compile(r"^0([fFdD])([0-9a-fA-F]+)$")
_DEC_FLOAT = re.compile(r"^[+-]?([0-9]+\.[0-9]*([eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+)$")
_IDENT = re.compile(r"^[A-Za-z_$%][\w$.%]*$")


def parse_int(text: str) -> int:
    t = text.strip().rstrip("uU")
    neg = t.startswith("-")
    t = t.lstrip("+-")
    if t.lower().startswith("0x"):
        v = int(t, 16)
    elif len(t) > 1 and t.startswith("0") and t.isdigit():
        v = int(t, 8)
    else:
        v = int(t)
    return -v if neg else v


def parse_imm(text: str) -> Imm | None:
    t = text.strip()
    m = _FHEX.match(t)
    if m:
        bits = int(m.group(2), 16)
        if m.group(1) in "fF":
            return Imm(struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0], True, bits, 32)
        return Imm(struct.unpack("<d", struct.pack("<Q", bits & 0xFFFFFFFFFFFFFFFF))[0], True, bits, 64)
    if _INT.match(t):
        return Imm(parse_int(t))
    if _DEC_FLOAT.match(t):
        return Imm(float(t), True)
    return None


def split_top(text: str, sep: str = ",", opens: str = "[{(", closes: str = "]})") -> list[str]:
    """Split on `sep` outside brackets, braces and parentheses (or the `opens`/`closes` given)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail or out:
        out.append(tail)
    return out


def parse_operand(text: str, rename=lambda n: n, is_reg=lambda n: False):
    """One operand; `rename` maps scoped register names, `is_reg` tells a register declared without
    a leading % (legal in inline asm: `.reg .pred p;`) from a symbol."""
    t = text.strip()
    if t == "_":
        return Sink()
    if t.startswith("["):
        if not t.endswith("]"):
            raise PTXError(f"bad address operand {t!r}")
        inner = t[1:-1].replace(" ", "")
        if "{" in inner:  # [tmap, {coords}]
            head = split_top(t[1:-1])
            if len(head) != 2 or not head[1].strip().startswith("{"):
                raise PTXError(f"bad address operand {t!r}")
            base, coords = parse_operand(f"[{head[0]}]", rename, is_reg), parse_operand(head[1], rename, is_reg)
            return TensorAddr(base, coords)
        # [base], [base+off], [base+-off], [base-off], [imm]
        m = re.match(r"^([A-Za-z_$%][\w$.%]*)?(?:([+-])(-?(?:0[xX][0-9a-fA-F]+|\d+)))?$", inner)
        if not m:
            imm = parse_imm(inner)
            if imm is not None and not imm.is_float:
                return Addr(None, int(imm.value), False)
            raise PTXError(f"bad address operand {t!r}")
        base, sign, off = m.groups()
        offset = 0
        if off is not None:
            offset = parse_int(off) * (-1 if sign == "-" else 1)
        if base is None:
            raise PTXError(f"bad address operand {t!r}")
        if base.startswith("%") or is_reg(base):
            return Addr(rename(base), offset, True)
        return Addr(base, offset, False)
    if t.startswith("{"):
        items = tuple(parse_operand(x, rename, is_reg) for x in split_top(t[1:-1]))
        return Vec(items)
    if "|" in t:  # `_|%p` (elect.sync's, CCCL's): a half no one reads
        a, b = (Sink() if x.strip() == "_" else Reg(rename(x.strip())) for x in t.split("|"))
        return Pair(a, b)
    if t.startswith("!"):
        return Reg(rename(t[1:].strip()), neg=True)
    if t.startswith("%") or is_reg(t):
        return Reg(rename(t))
    imm = parse_imm(t)
    if imm is not None:
        return imm
    if t.startswith("-") and t[1:].strip().startswith("%"):
        raise PTXError(f"negated register operand {t!r} is not PTX")
    if _IDENT.match(t):
        return Sym(t)
    # symbol+offset (address of a variable plus a constant, e.g. in mov)
    m = re.match(r"^([A-Za-z_$][\w$]*)\s*\+\s*(\d+)$", t)
    if m:
        return Addr(m.group(1), int(m.group(2)), False)
    raise PTXError(f"operand {t!r} is not understood")


# --------------------------------------------------------------------------------------------
# declarations

_DECL = re.compile(
    r"^(?P<attrs>(?:\.(?:visible|extern|weak|common)\s+)*)\.(?P<space>global|const|shared|local|param)"
    r"(?P<mods>(?:\s+\.\w+(?:::\w+)*(?:\s+\d+)?)*)\s+(?P<name>[A-Za-z_$%][\w$]*)\s*(?P<dims>(?:\[\s*\d*\s*\])*)"
    r"(?:<(?P<nregs>\d+)>)?\s*(?:=\s*(?P<init>.*))?$",
    re.S,
)


def _elem_type(mods: str) -> tuple[str, int, int, int, bool]:
    """(type, element size, alignment, vector width, .ptr) from '.align 4 .v2 .u32' and the like."""
    align, vec, typ, is_ptr = 0, 1, None, False
    toks = mods.split()
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok == ".align":
            align = int(toks[i + 1])
            i += 2
            continue
        if tok in (".v2", ".v4", ".v8"):
            vec = int(tok[2:])
        elif tok == ".ptr":
            is_ptr = True
        elif tok.lstrip(".") in TYPE_SIZES:
            typ = tok
        i += 1
    if typ is None:
        raise PTXError(f"declaration without a type: {mods!r}")
    size = TYPE_SIZES[typ.lstrip(".")] * vec
    return typ, size, align or size, vec, is_ptr


def _init_bytes(init: str, typ: str, size: int, count: int) -> bytes:
    """Initial value list `{1, 2, 3}` (nested braces allowed) packed as little-endian elements."""
    nums = re.findall(r"[^{},\s]+(?:\([^)]*\))?", init)
    t = typ.lstrip(".")
    esize = TYPE_SIZES[t]
    out = bytearray()
    for n in nums:
        if n.startswith("generic(") or re.match(r"^[A-Za-z_$]", n):
            raise PTXError(f"an initializer holding an address ({n}) is not supported")
        imm = parse_imm(n)
        if imm is None:
            raise PTXError(f"initializer {n!r} is not understood")
        if t.startswith("f"):
            if imm.bits is not None:
                out += int(imm.bits).to_bytes(esize, "little")
            else:
                out += struct.pack({2: "<e", 4: "<f", 8: "<d"}[esize], float(imm.value))
        else:
            out += (int(imm.value) & ((1 << (8 * esize)) - 1)).to_bytes(esize, "little")
    total = size * count
    return bytes(out[:total]) + bytes(max(0, total - len(out)))


def parse_decl(stmt: str) -> Variable | None:
    m = _DECL.match(stmt.strip())
    if not m:
        return None
    typ, esize, align, vec, is_ptr = _elem_type(m.group("mods"))
    dims = re.findall(r"\[\s*(\d*)\s*\]", m.group("dims") or "")
    count: int | None = 1
    for d in dims:
        if d == "":
            count = None
            break
        count *= int(d)
    init = None
    if m.group("init") is not None and count is not None:
        init = _init_bytes(m.group("init"), typ, esize // vec, count * vec)
    return Variable(space=m.group("space"), name=m.group("name"), align=align, type=typ, elem_size=esize,
                    count=count, init=init, extern=".extern" in m.group("attrs"), is_ptr_param=is_ptr)


# --------------------------------------------------------------------------------------------
# statements

_LOC = re.compile(r"^\.loc\s+(\d+)\s+(\d+)\s+(\d+)(.*)$")
_INLINED = re.compile(r"inlined_at\s+(\d+)\s+(\d+)\s+(\d+)")
_FILE = re.compile(r'^\.file\s+(\d+)\s+"([^"]*)"')
_LINE_DIRECTIVE = re.compile(r"^\.(loc|file)\s")
_LABEL = re.compile(r"^([A-Za-z_$][\w$]*)\s*:")
_REG_DECL = re.compile(r"^\.reg\s*(?:\.v\d\s*)?\.(\w+)\s+(.*)$", re.S)  # cuda_fp16.hpp writes `.reg.b32 f, C;`


def _statements(text: str):
    """Yield ('loc'|'file'|'open'|'close'|'label'|'stmt', payload) in order."""
    pending = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        if not pending and _LINE_DIRECTIVE.match(line):
            yield ("loc" if line.startswith(".loc") else "file"), line
            continue
        if not pending and line.startswith(".section"):
            yield "section", line
            continue
        if not pending and line.startswith(".smemlab_asm "):
            yield "asm", line.split()[1]
            continue
        pos = 0
        while pos < len(line):
            rest = line[pos:].lstrip()
            if not rest:
                break
            pos = len(line) - len(rest)
            if not pending:
                if rest[0] == "{":
                    yield "open", ""
                    pos += 1
                    continue
                if rest[0] == "}":
                    yield "close", ""
                    pos += 1
                    continue
                m = _LABEL.match(rest)
                if m and not rest.startswith("."):
                    yield "label", m.group(1)
                    pos += m.end()
                    continue
                if _LINE_DIRECTIVE.match(rest):
                    yield ("loc" if rest.startswith(".loc") else "file"), rest
                    break
            end = rest.find(";")
            if end < 0:
                pending.append(rest)
                break
            pending.append(rest[:end])
            yield "stmt", " ".join(pending).strip()
            pending = []
            pos += end + 1
    if pending:
        yield "stmt", " ".join(pending).strip()


def _parse_instr(stmt: str, loc: Loc | None, rename, is_reg=lambda n: False) -> Instr:
    text = stmt
    guard = None
    if stmt.startswith("@"):
        g, stmt = stmt[1:].split(None, 1)
        guard = Reg(rename(g.lstrip("!")), neg=g.startswith("!"))
    # the opcode ends where its characters do: ptxas takes `ldmatrix...b16{%r1, ...}` with no space
    m = re.match(r"([\w.:]+)\s*(.*)$", stmt, re.S)
    if m is None:
        raise PTXError(f"not an instruction: {text}")
    opcode, rest = m.group(1), m.group(2)
    if opcode.startswith("call"):
        m = re.match(r"^\s*(?:\(([^)]*)\)\s*,\s*)?([\w$%]+)\s*(?:,\s*\(([^)]*)\))?\s*(?:,\s*[\w$]+)?\s*$", rest)
        if not m:
            raise PTXError(f"call: {text}")
        rets = tuple(Sym(x.strip()) for x in (m.group(1) or "").split(",") if x.strip())
        args = tuple(Sym(x.strip()) for x in (m.group(3) or "").split(",") if x.strip())
        return Instr(opcode, tuple(opcode.split(".")), [Vec(rets), Sym(m.group(2)), Vec(args)], guard, loc, text)
    operands = [parse_operand(x, rename, is_reg) for x in split_top(rest)] if rest.strip() else []
    return Instr(opcode, tuple(opcode.split(".")), operands, guard, loc, text)


def _reg_names(spec: str) -> list[tuple[str, int | None]]:
    out = []
    for item in split_top(spec):
        m = re.match(r"^(%?[\w$]+)\s*<\s*(\d+)\s*>$", item)
        if m:
            out.append((m.group(1), int(m.group(2))))
        else:
            out.append((item.strip(), None))
    return out


class _Inlining:
    """The kernel's own line that a `.loc` inlined from a header (or a helper) comes from. A `.loc` names only its
    immediate call site (`inlined_at F L C`), whose own `.loc` came before it with the site it was inlined at, so
    the chain is followed through the latest caller seen of each position. Where it ends at a position that is
    not the kernel's own (a call site with no instruction of its own left no `.loc`), the kernel's line in force
    before the inlined code is the call's."""

    def __init__(self):
        self.callers: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.home: tuple[int, int, int] | None = None  # the latest `.loc` of the kernel's own code
        self.homes: set[tuple[int, int]] = set()  # every (file, line) of the kernel's own code so far

    def outermost(self, here: tuple[int, int, int], rest: str) -> tuple[int, int] | None:
        inl = _INLINED.findall(rest)
        if not inl:
            self.home = here
            self.homes.add(here[:2])
            return None
        site = tuple(int(x) for x in inl[-1])
        self.callers[here] = site
        for _ in range(64):  # inlining is never this deep; a cycle of reused positions stops here too
            outer = self.callers.get(site)
            if outer is None or outer == site:
                break
            site = outer
        if site[:2] not in self.homes and self.home is not None:
            site = self.home
        return site[0], site[1]


def _parse_kernel(name: str, params_text: str, perf: str, body: str, files: dict) -> Kernel:
    params = []
    for p in split_top(params_text):
        if not p:
            continue
        v = parse_decl(p)
        if v is None or v.space != "param":
            raise PTXError(f"kernel {name}: parameter {p!r} is not understood")
        params.append(v)
    k = Kernel(name=name, params=params, regs={}, variables=[], body=[])
    for key in ("maxntid", "reqntid", "reqnctapercluster"):
        m = re.search(rf"\.{key}\s+([\d,\s]+)", perf)
        if m:
            setattr(k, key, tuple(int(x) for x in m.group(1).replace(" ", "").split(",") if x))
    loc: Loc | None = None
    lineless = False  # the last .loc was line 0
    # the statement line of the inline asm being read: its first line's `.loc` (Triton 3.9 numbers the asm's lines
    # on from it), or the line in force where it began; asm_open: no instruction of it read yet
    asm_loc: Loc | None = None
    asm_open = False
    inlining = _Inlining()
    scopes: list[dict[str, str]] = []
    counter = [0]
    statements = list(_statements(body))
    # labels are scoped by { } blocks, as registers are (an inline asm with labels may be inlined twice)
    block_labels: list[set[str]] = []
    open_blocks: list[int] = []
    for kind, payload in statements:
        if kind == "open":
            open_blocks.append(len(block_labels))
            block_labels.append(set())
        elif kind == "close" and open_blocks:
            open_blocks.pop()
        elif kind == "label" and open_blocks:
            block_labels[open_blocks[-1]].add(payload)
    blocks: list[int] = []  # the { } blocks open at this statement, by number
    opened = [0]

    def rename(reg: str) -> str:
        for scope in reversed(scopes):
            if reg in scope:
                return scope[reg]
        return reg

    def relabel(label: str) -> str:
        for b in reversed(blocks):
            if label in block_labels[b]:
                return f"{label}$b{b}"
        return label

    def is_reg(name: str) -> bool:
        return any(name in scope for scope in scopes) or name in k.regs

    for kind, payload in statements:
        if kind == "loc":
            m = _LOC.match(payload)
            if m:
                outer = inlining.outermost((int(m.group(1)), int(m.group(2)), int(m.group(3))), m.group(4))
                if int(m.group(2)) or loc is None:  # line 0 ("no line": NVVM writes it after a barrier or at
                    # a join): ptxas's line table keeps the line before it, which Nsight Compute shows
                    loc = Loc(int(m.group(1)), int(m.group(2)), int(m.group(3)), outer)
                lineless = not int(m.group(2))
                if asm_open:
                    asm_loc = loc
            continue
        if kind == "file":
            m = _FILE.match(payload)
            if m:
                files[int(m.group(1))] = m.group(2)
            continue
        if kind == "open":
            scopes.append({})
            blocks.append(opened[0])
            opened[0] += 1
            continue
        if kind == "close":
            if scopes:
                scopes.pop()
                blocks.pop()
            continue
        if kind == "label":
            k.body.append(Label(relabel(payload)))
            continue
        if kind == "section":
            continue
        if kind == "asm":
            asm_open = payload == "begin"
            asm_loc = loc if asm_open else None
            continue
        stmt = payload
        if stmt.startswith(".reg"):
            m = _REG_DECL.match(stmt)
            if not m:
                raise PTXError(f"kernel {name}: register declaration {stmt!r} is not understood")
            typ = "." + m.group(1)
            for base, n in _reg_names(m.group(2)):
                names = [f"{base}{i}" for i in range(n)] if n is not None else [base]
                for reg in names:
                    if scopes:
                        counter[0] += 1
                        fresh = f"{reg}$s{counter[0]}"
                        scopes[-1][reg] = fresh
                        reg = fresh
                    k.regs[reg] = typ
            continue
        if stmt.startswith(".branchtargets"):
            if not k.body or not isinstance(k.body[-1], Label):
                raise PTXError(f"kernel {name}: {stmt!r} has no label naming it")
            labels = [relabel(x.strip()) for x in stmt[len(".branchtargets"):].split(",") if x.strip()]
            k.body.append(Targets(k.body.pop().name, labels))
            continue
        if stmt.startswith("."):
            if stmt.startswith((".pragma", ".maxnreg", ".maxntid", ".reqntid", ".minnctapersm", ".noreturn")):
                continue
            v = parse_decl(stmt)
            if v is not None:
                k.variables.append(v)
                continue
            raise PTXError(f"kernel {name}: directive {stmt!r} is not understood")
        try:
            ins = _parse_instr(stmt, loc, rename, is_reg)
            ins.lineless = lineless
            asm_open = False
            if asm_loc is not None and loc is not None and asm_loc.line and asm_loc.file == loc.file \
                    and asm_loc.line != loc.line:
                ins.asm_line = asm_loc.line
            if blocks and ins.parts[0] in ("bra", "brx"):
                ins.operands = [Sym(relabel(o.name)) if isinstance(o, Sym) else o for o in ins.operands]
            k.body.append(ins)
        except PTXError as exc:
            if str(exc).startswith("call:"):
                k.body.append(Instr("call", ("call",), [], None, loc, stmt))
            else:
                raise PTXError(f"kernel {name}, line {loc.line if loc else '?'}: {exc}") from None
    return k


def matching(text: str, start: int, open_: str = "(", close: str = ")") -> int:
    """Index of the `close` that balances the `open_` at text[start] (len(text) if none)."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _matching_brace(text: str, start: int) -> int:
    end = matching(text, start, "{", "}")
    if end == len(text):
        raise PTXError("unbalanced braces in PTX")
    return end


def parse_module(text: str) -> Module:
    text = _COMMENT.sub("", _ASM_MARK.sub(r".smemlab_asm \1", text))
    version = (re.search(r"\.version\s+([\d.]+)", text) or [None, ""])[1]
    target = (re.search(r"\.target\s+([\w,\s]+?)\s*$", text, re.M) or [None, ""])[1]
    files: dict[int, str] = {}
    for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', text, re.M):
        files[int(m.group(1))] = m.group(2)
    module = Module(version, target, [], _LazyKernels(files), _LazyKernels(files), files)
    pos = 0
    header = re.compile(r"(?P<attrs>(?:\.(?:visible|extern|weak)\s+)*)\.(?P<kind>entry|func)\s+")
    while pos < len(text):
        m = header.search(text, pos)
        chunk_end = m.start() if m else len(text)
        _module_decls(text[pos:chunk_end], module)
        if not m:
            break
        i = m.end()
        if m.group("kind") == "func":
            # .func (ret params) name (params) { ... }  or a prototype ending in ';'
            semi = text.find(";", i)
            brace = text.find("{", i)
            fm = re.match(r"\s*(?:\(([^)]*)\)\s*)?([\w$]+)\s*(?:\(([^)]*)\))?", text[i:])
            if brace < 0 or (0 <= semi < brace) or fm is None:
                pos = semi + 1
                continue
            close = _matching_brace(text, brace)
            rets = fm.group(1) or ""
            params = ", ".join(x for x in (rets, fm.group(3) or "") if x.strip())
            module.functions.add(fm.group(2), params, "", text[brace + 1:close])
            module.functions.returns[fm.group(2)] = len([x for x in rets.split(",") if x.strip()])
            pos = close + 1
            continue
        nm = re.match(r"\s*([\w$]+)\s*\(", text[i:])
        if not nm:
            raise PTXError("an .entry without a name")
        name = nm.group(1)
        open_paren = i + nm.end() - 1
        j = matching(text, open_paren)
        params_text = text[open_paren + 1:j]
        brace = text.find("{", j)
        semi = text.find(";", j)
        if brace < 0 or (0 <= semi < brace):
            pos = semi + 1  # a prototype
            continue
        perf = text[j + 1:brace]
        close = _matching_brace(text, brace)
        module.kernels.add(name, params_text, perf, text[brace + 1:close])
        pos = close + 1
    return module


def _module_decls(chunk: str, module: Module) -> None:
    """Variables declared between functions; version, target, file and debug sections are skipped."""
    chunk = re.sub(r"\.section[^{]*\{.*?\n\s*\}", "", chunk, flags=re.S)
    kept = [ln for ln in chunk.split("\n")
            if not re.match(r"^\s*\.(version|target|address_size|file|loc)\b", ln)]
    for stmt in "\n".join(kept).split(";"):
        s = " ".join(stmt.split())
        if not s:
            continue
        v = parse_decl(s)
        if v is not None and v.space in ("global", "const", "shared"):
            module.variables.append(v)
