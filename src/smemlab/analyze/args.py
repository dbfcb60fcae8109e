"""Kernel arguments: `--arg NAME=VALUE` parsed, matched to the kernel's parameters, laid out in memory.

VALUE is one of:
  INT or FLOAT              a scalar (decimal or 0x hex)
  DTYPE[COUNT]              a pointer to COUNT seeded random elements (NumPy names, or C names such as
                            int, unsigned, float, double, half; vector types like float4 count 4 each)
  DTYPE[COUNT]:LO..HI       the same with values in LO..HI (inclusive for integers)
  FILE.npy                  a pointer to the array in the file
A struct passed by value takes DTYPE[COUNT](:LO..HI) or FILE.npy too: their bytes, as many as the struct
has, laid into it (the fields in order, with the struct's padding).

The fill is a contract shared with the recorded hardware truth: for a buffer named NAME,
`rng = numpy.random.default_rng(zlib.crc32(NAME.encode()))`; integers are
`rng.integers(LO, HI, size=COUNT, dtype=dtype, endpoint=True)` (default 0..1023, clipped to the
dtype's range), floats `rng.uniform(LO, HI, size=COUNT).astype(dtype)` (default -1..1).

Parameter names come from the kernel's C signature in the source (PTX keeps only `NAME_param_0`).
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from smemlab.analyze.memory import Buffer
from smemlab.analyze.ptx import Kernel, Module, Variable, matching, split_top
from smemlab.errors import UserError

C_DTYPES = {
    "char": "int8", "signed char": "int8", "unsigned char": "uint8", "uchar": "uint8", "bool": "bool",
    "short": "int16", "unsigned short": "uint16", "ushort": "uint16", "int": "int32", "signed": "int32",
    "unsigned": "uint32", "unsigned int": "uint32", "uint": "uint32", "long": "int64", "long long": "int64",
    "unsigned long": "uint64", "unsigned long long": "uint64", "ulong": "uint64", "size_t": "uint64",
    "float": "float32", "double": "float64", "half": "float16", "__half": "float16",
    "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32",
    "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64",
}
VECTOR = re.compile(r"^(char|uchar|short|ushort|int|uint|long|ulong|longlong|ulonglong|float|double)([1234])$")
_VEC_BASE = {"char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16", "int": "int32",
             "uint": "uint32", "long": "int64", "ulong": "uint64", "longlong": "int64", "ulonglong": "uint64",
             "float": "float32", "double": "float64"}
MAX_BUFFER_BYTES = 1 << 31


@dataclass
class Scalar:
    value: int | float
    text: str


@dataclass
class BufferSpec:
    dtype: np.dtype
    count: int  # elements of dtype (a vector type's components counted)
    lo: float | int | None
    hi: float | int | None
    text: str


@dataclass
class FileSpec:
    path: str
    text: str


def resolve_dtype(name: str) -> tuple[np.dtype, int]:
    """(NumPy dtype, components per element) of a C or NumPy type name."""
    key = " ".join(name.replace("np.", "").split())
    m = VECTOR.match(key.replace(" ", ""))
    if m:
        return np.dtype(_VEC_BASE[m.group(1)]), int(m.group(2))
    if key in C_DTYPES:
        return np.dtype(C_DTYPES[key]), 1
    try:
        dt = np.dtype(key)
    except TypeError:
        raise UserError(f"unknown dtype {name!r}: use a NumPy name (int32, float32, uint8, ...) or a C name "
                        f"(int, unsigned, float, double, half, float4, ...)") from None
    if dt.kind not in "biuf":
        raise UserError(f"dtype {name!r}: only integer, float and bool buffers are supported")
    return dt, 1


def _number(text: str) -> int | float:
    t = text.strip()
    try:
        return int(t, 0)
    except ValueError:
        return float(t)


def parse_arg(text: str):
    """'NAME=VALUE' -> (NAME, Scalar | BufferSpec | FileSpec)."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise UserError(f"--arg {text!r}: write NAME=VALUE (e.g. n=1024, x=float32[1024], keys=int32[8192]:0..255)")
    if not re.match(r"^[A-Za-z_]\w*$", name):
        raise UserError(f"--arg {text!r}: {name!r} is not a parameter name")
    if value.endswith(".npy"):
        return name, FileSpec(value, text)
    m = re.match(r"^([A-Za-z_][\w ]*?)\s*\[\s*(\d+)\s*\]\s*(?::\s*(.+?)\s*\.\.\s*(.+))?$", value)
    if m:
        dt, comps = resolve_dtype(m.group(1))
        count = int(m.group(2)) * comps
        if count <= 0:
            raise UserError(f"--arg {text!r}: the count must be positive")
        if count * dt.itemsize > MAX_BUFFER_BYTES:
            raise UserError(f"--arg {text!r}: {count * dt.itemsize:,} bytes is more than analyze allocates "
                            f"({MAX_BUFFER_BYTES:,}); one block rarely needs that much")
        lo = hi = None
        if m.group(3) is not None:
            try:
                lo, hi = _number(m.group(3)), _number(m.group(4))
            except ValueError:
                raise UserError(f"--arg {text!r}: the range must be LO..HI with numbers") from None
            if lo > hi:
                raise UserError(f"--arg {text!r}: LO is above HI")
        return name, BufferSpec(dt, count, lo, hi, text)
    try:
        return name, Scalar(_number(value), text)
    except ValueError:
        raise UserError(f"--arg {text!r}: {value!r} is not a number, DTYPE[COUNT] or FILE.npy") from None


def fill(name: str, spec: BufferSpec) -> np.ndarray:
    """The seeded contents of a buffer (the contract in the module docstring)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    dt = spec.dtype
    if dt.kind == "b":
        lo, hi = int(spec.lo if spec.lo is not None else 0), int(spec.hi if spec.hi is not None else 1)
        return rng.integers(max(lo, 0), min(hi, 1), size=spec.count, endpoint=True).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = int(spec.lo) if spec.lo is not None else 0
        hi = int(spec.hi) if spec.hi is not None else 1023
        if spec.lo is None:
            hi = min(hi, int(info.max))
        if lo < info.min or hi > info.max:
            raise UserError(f"--arg {spec.text!r}: {lo}..{hi} does not fit {dt.name} ({info.min}..{info.max})")
        return rng.integers(lo, hi, size=spec.count, dtype=dt, endpoint=True)
    lo = float(spec.lo) if spec.lo is not None else -1.0
    hi = float(spec.hi) if spec.hi is not None else 1.0
    return rng.uniform(lo, hi, size=spec.count).astype(dt)


# ---------------------------------------------------------------------------- the C signature

_KEYWORDS = {"const", "volatile", "__restrict__", "restrict", "__restrict", "unsigned", "signed", "struct",
             "class", "typename", "int", "float", "double", "char", "short", "long", "bool", "void"}


@dataclass
class CParam:
    name: str | None
    decl: str  # as written, e.g. "const float *__restrict__ in"

    @property
    def is_pointer(self) -> bool:
        return "*" in self.decl or "[" in self.decl

    @property
    def ctype(self) -> str:
        t = self.decl
        if self.name:
            t = re.sub(rf"\b{re.escape(self.name)}\b(?!.*\b{re.escape(self.name)}\b)", "", t)
        return " ".join(t.replace("__restrict__", "").split())


def _strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def signature(source: str, kernel: str) -> list[list[CParam]]:
    """Every `__global__` declaration of `kernel` in the source: its parameters, in order."""
    text = _strip_comments(source)
    base = kernel.split("<")[0].split("::")[-1].strip()
    found = []
    for m in re.finditer(rf"\b{re.escape(base)}\s*\(", text):
        start = max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start()), text.rfind("#", 0, m.start()))
        if "__global__" not in text[start + 1:m.start()]:
            continue
        i = matching(text, m.end() - 1)
        params = []
        for p in split_top(text[m.end():i], opens="(<[{", closes=")>]}"):
            if not p or p == "void":
                continue
            p = p.split("=")[0].strip()
            tokens = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[.*?\]|<.*>", "", p))
            name = tokens[-1] if len(tokens) >= 2 and tokens[-1] not in _KEYWORDS else None
            params.append(CParam(name, p))
        found.append(params)
    return found


# ---------------------------------------------------------------------------- binding


@dataclass
class Bound:
    params: bytes  # the param space
    buffers: list[Buffer]  # global buffers (pointer arguments first, then module variables)
    const: dict[str, bytes]  # __constant__ variables given by --arg
    names: list[str]  # parameter names, in order
    by_name: dict[str, Buffer]


_PTX_INT = {"u8": "<B", "s8": "<b", "b8": "<B", "u16": "<H", "s16": "<h", "b16": "<H", "u32": "<I",
            "s32": "<i", "b32": "<I", "u64": "<Q", "s64": "<q", "b64": "<Q"}


def _pack_scalar(name: str, p: Variable, c: CParam | None, v: Scalar) -> bytes:
    t = p.type.lstrip(".")
    if _by_value(p):
        what = c.ctype if c else "a PTX .b8 array"
        raise UserError(f"--arg {v.text}: parameter {name} is a struct of {p.size} bytes ({what}) passed by value; "
                        f"give its bytes: {_struct_hint(name, p)}")
    if t in ("f32", "f64", "f16"):
        return struct.pack({"f32": "<f", "f64": "<d", "f16": "<e"}[t], float(v.value))
    if isinstance(v.value, float):
        raise UserError(f"--arg {v.text}: parameter {name} is an integer ({_ctype(p, c)}); give an integer")
    fmt = _PTX_INT.get(t)
    if fmt is None:
        raise UserError(f"parameter {name} has PTX type .{t}, which analyze cannot fill")
    bits = struct.calcsize(fmt) * 8
    value = int(v.value)
    lo = -(1 << (bits - 1)) if t.startswith("s") else -(1 << (bits - 1))
    hi = (1 << bits) - 1
    if not lo <= value <= hi:
        raise UserError(f"--arg {v.text}: {value} does not fit parameter {name} ({_ctype(p, c)})")
    return (value & ((1 << bits) - 1)).to_bytes(bits // 8, "little")


def _by_value(p: Variable) -> bool:
    """A struct (or array) passed by value: PTX gives it as an array of bytes."""
    return p.count is not None and p.count > 1


def _struct_hint(name: str, p: Variable) -> str:
    n, dt = (p.size // 8, "float64") if p.size % 8 == 0 else (p.size // 4, "float32") if p.size % 4 == 0 else \
        (p.size, "uint8")
    return (f"--arg {name}={dt}[{n}] (seeded values, as a buffer's), {name}={dt}[{n}]:LO..HI, or {name}=FILE.npy "
            f"of {p.size} bytes (the fields in order, with the struct's padding)")


def _ctype(p: Variable, c: CParam | None) -> str:
    return f"{c.ctype}, PTX .{p.type.lstrip('.')}" if c and c.ctype else f"PTX .{p.type.lstrip('.')}"


def _load_npy(name: str, spec: FileSpec) -> np.ndarray:
    path = Path(spec.path)
    if not path.is_file():
        raise UserError(f"--arg {spec.text}: no file {spec.path}")
    try:
        a = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise UserError(f"--arg {spec.text}: cannot read {spec.path} as .npy ({exc})") from None
    if a.dtype.kind not in "biuf":
        raise UserError(f"--arg {spec.text}: {spec.path} holds {a.dtype}, not numbers")
    return np.ascontiguousarray(a)


def _data_for(name: str, spec) -> np.ndarray:
    if isinstance(spec, FileSpec):
        return _load_npy(name, spec)
    return fill(name, spec)


def bind(module: Module, kernel: Kernel, source: str, kernel_name: str, arg_texts: list[str],
         extra: tuple[Buffer, ...] = ()) -> Bound:
    """`extra`: global buffers of the emulator's own (the device heap), laid out after the arguments'."""
    specs: dict[str, object] = {}
    for text in arg_texts:
        name, spec = parse_arg(text)
        if name in specs:
            raise UserError(f"--arg {name} is given twice")
        specs[name] = spec
    sigs = [s for s in signature(source, kernel_name) if len(s) == len(kernel.params)]
    cparams: list[CParam | None] = list(sigs[0]) if sigs else [None] * len(kernel.params)
    names = [c.name if c is not None and c.name else f"param{i}" for i, c in enumerate(cparams)]
    module_vars = {v.name: v for v in module.variables if v.space in ("const", "global")}
    unknown = [n for n in specs if n not in names and n not in module_vars]
    if unknown:
        listed = ", ".join(names) or "none"
        raise UserError(f"--arg {unknown[0]}: {kernel_name} has no parameter of that name (its parameters: {listed})")

    from smemlab.analyze.machine import param_offsets

    offsets = param_offsets(kernel.params)
    total = (offsets[-1] + kernel.params[-1].size) if kernel.params else 0
    param_bytes = bytearray(total)
    buffers: list[Buffer] = []
    pointer_slots = []
    by_name: dict[str, Buffer] = {}
    for i, (p, c, name) in enumerate(zip(kernel.params, cparams, names)):
        spec = specs.get(name)
        if spec is None and _by_value(p):
            raise UserError(f"parameter {name} ({c.decl if c is not None else 'a struct'}) is a struct of {p.size} "
                            f"bytes passed by value and has no --arg; give its bytes: {_struct_hint(name, p)}")
        if spec is None:
            what = f"{c.decl}" if c is not None else f"a .{p.type.lstrip('.')} parameter"
            hint = f"{name}=float32[1024]" if (c is not None and c.is_pointer) or p.type in (".u64", ".b64") and \
                (c is None or c.is_pointer) else f"{name}=1024"
            raise UserError(f"parameter {name} ({what}, PTX .{p.type.lstrip('.')}) has no --arg; give one, "
                            f"e.g. --arg {hint}")
        if isinstance(spec, Scalar):
            if c is not None and c.is_pointer:
                raise UserError(f"--arg {spec.text}: parameter {name} is a pointer ({c.decl}); give a buffer such "
                                f"as {name}=float32[1024] or {name}=FILE.npy")
            raw = _pack_scalar(name, p, c, spec)
            param_bytes[offsets[i]:offsets[i] + len(raw)] = raw
            continue
        if _by_value(p):  # the struct's bytes, from a buffer's fill or a file
            raw = _data_for(name, spec).tobytes()
            if len(raw) != p.size:
                raise UserError(f"--arg {spec.text}: {len(raw)} bytes for parameter {name}, a struct of {p.size} "
                                f"bytes passed by value; give {_struct_hint(name, p)}")
            param_bytes[offsets[i]:offsets[i] + p.size] = raw
            continue
        if p.type.lstrip(".") not in ("u64", "b64", "s64") or p.count not in (None, 1) or \
                (c is not None and not c.is_pointer):
            raise UserError(f"--arg {spec.text}: parameter {name} ({_ctype(p, c)}) is not a pointer; give a number")
        data = _data_for(name, spec)
        buf = Buffer(name, 0, data.nbytes, data, data.dtype.name)
        buffers.append(buf)
        by_name[name] = buf
        pointer_slots.append((offsets[i], buf))
    const: dict[str, bytes] = {}
    for vname, var in module_vars.items():
        spec = specs.get(vname)
        if var.space == "const":
            if spec is not None:
                if isinstance(spec, Scalar):
                    raise UserError(f"--arg {spec.text}: {vname} is a __constant__ array; give DTYPE[COUNT] or FILE.npy")
                const[vname] = _data_for(vname, spec).tobytes()[: var.size]
            continue
        data = None
        if spec is not None:
            data = _data_for(vname, spec) if not isinstance(spec, Scalar) else None
            if data is None:
                raise UserError(f"--arg {spec.text}: {vname} is a __device__ variable; give DTYPE[COUNT] or FILE.npy")
            raw = data.view(np.uint8)[: var.size]
            data = np.concatenate([raw, np.zeros(max(0, var.size - raw.size), np.uint8)])
        elif var.init is not None:
            data = np.frombuffer(var.init, dtype=np.uint8)
        buffers.append(Buffer("@" + vname, 0, max(var.size, 1), data))
    # addresses are assigned when the global space lays the buffers out
    from smemlab.analyze.memory import GlobalSpace

    space = GlobalSpace(buffers + list(extra))
    for off, buf in pointer_slots:
        param_bytes[off:off + 8] = buf.base.to_bytes(8, "little")
    bound = Bound(bytes(param_bytes), buffers, const, names, by_name)
    bound.space = space
    return bound
