"""Kernel arguments: `--arg NAME=VALUE` parsed, matched to the kernel's parameters, laid out in memory.

VALUE is one of:
  INT or FLOAT              a scalar (decimal or 0x hex)
  DTYPE[COUNT]              a pointer to COUNT seeded random elements (NumPy names, or C names such as
                            int, unsigned, float, double, half; vector types like float4 count 4 each)
  DTYPE[COUNT]:LO..HI       the same with values in LO..HI (inclusive for integers)
  FILE.npy                  a pointer to the array in the file
  ptrs(ITEM, ITEM, ...)     a pointer to a table of 64-bit pointers, one to each ITEM's buffer (DTYPE[COUNT]
                            (:LO..HI) or FILE.npy; N*ITEM for N alike): the pointer arrays of batched and grouped
                            GEMMs (`const float *const *A`, Triton's int64 table cast to tl.pointer_type). Item i
                            is filled as a buffer named NAME[i].
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
from contextlib import contextmanager
from contextvars import ContextVar
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
# reduced-precision types kept as their bits (NumPy has no bfloat16 or fp8): the fill draws values in the
# range and rounds them to the format, so the kernel reads real numbers of its own type
BITS_TYPES = {"bfloat16": "bfloat16", "__nv_bfloat16": "bfloat16", "nv_bfloat16": "bfloat16", "bf16": "bfloat16",
              "e4m3": "e4m3", "__nv_fp8_e4m3": "e4m3", "fp8_e4m3": "e4m3", "float8_e4m3": "e4m3",
              "float8_e4m3fn": "e4m3",  # torch's, ml_dtypes' and Triton's name
              "e5m2": "e5m2", "__nv_fp8_e5m2": "e5m2", "fp8_e5m2": "e5m2", "float8_e5m2": "e5m2"}
_PAIRS = {"half2": ("float16", 2), "__half2": ("float16", 2), "bfloat162": ("bfloat16", 2),
          "__nv_bfloat162": ("bfloat16", 2), "nv_bfloat162": ("bfloat16", 2),
          # complex numbers as CUDA code holds them (cuComplex.h, CuPy's complex<float>): a (real, imaginary) pair
          "complex64": ("float32", 2), "complex128": ("float64", 2), "cuComplex": ("float32", 2),
          "cuFloatComplex": ("float32", 2), "cuDoubleComplex": ("float64", 2)}
_BITS_DTYPE = {"bfloat16": np.dtype(np.uint16), "e4m3": np.dtype(np.uint8), "e5m2": np.dtype(np.uint8)}
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
    bits: str | None = None  # bfloat16, e4m3, e5m2: dtype holds the bits of this format


@dataclass
class FileSpec:
    path: str
    text: str


@dataclass
class TensorMapSpec:
    """A CUtensorMap parameter (tma.py): the tensor's data (a buffer's spec) and the map's fields. Text:
    DATA@tensormap(dims=D0xD1,strides=S1,box=B0xB1,elem=BYTES,type=T,swizzle=MODE,fill=zero|nan), sizes innermost
    first, strides in bytes of the outer dimensions, type the CUtensorMapDataType (for the GPU's encoding)."""
    data: object  # BufferSpec | FileSpec
    dims: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    elem: int
    elem_type: int
    swizzle: int
    fill_nan: bool
    text: str


_TMAP = re.compile(r"^(.+?)@tensormap\((.*)\)$")
_PTRS = re.compile(r"^ptrs\s*\((.*)\)$", re.S)
MAX_TABLE = 4096


@dataclass
class PointerTableSpec:
    """A buffer of 64-bit pointers to other buffers (the `ptrs(...)` form), each item a BufferSpec or FileSpec."""
    items: list
    text: str


def table_parts(inner: str) -> list[tuple[int, str]]:
    """The items of `ptrs(INNER)`: (how many alike, the item's text), from `ITEM` or `N*ITEM`."""
    out = []
    for part in split_top(inner):
        m = re.match(r"^(\d+)\s*\*\s*(.+)$", part)
        out.append((int(m.group(1)), m.group(2)) if m else (1, part))
    return out


def _pointer_table_spec(name: str, inner: str, text: str) -> PointerTableSpec:
    items = []
    for times, item in table_parts(inner):
        if not item:
            raise UserError(f"--arg {text!r}: an empty item in ptrs(...)")
        spec = parse_arg(f"{name}={item}")[1]
        if not isinstance(spec, (BufferSpec, FileSpec)):
            raise UserError(f"--arg {text!r}: each item of ptrs(...) is a buffer (DTYPE[COUNT] or FILE.npy), "
                            f"not {item!r}")
        items += [spec] * times
    if not items or len(items) > MAX_TABLE:
        raise UserError(f"--arg {text!r}: ptrs(...) takes 1 to {MAX_TABLE} buffers, e.g. "
                        f"{name}=ptrs(float32[1024],float32[1024]) or {name}=ptrs(4*float16[4096])")
    return PointerTableSpec(items, text)


def table_items(name: str, spec: PointerTableSpec) -> list[np.ndarray]:
    """The contents of the buffers a pointer table points to: item i filled as a buffer named NAME[i]."""
    return [_data_for(f"{name}[{i}]", item) for i, item in enumerate(spec.items)]


def _tensor_map_spec(name: str, value: str, text: str) -> TensorMapSpec:
    data, fields = _TMAP.match(value).groups()
    got = dict(f.split("=", 1) for f in fields.split(",") if "=" in f)
    sizes = lambda k: tuple(int(x) for x in got.get(k, "").split("x") if x)  # noqa: E731
    try:
        spec = TensorMapSpec(parse_arg(f"{name}={data}")[1], sizes("dims"), sizes("strides"), sizes("box"),
                             int(got["elem"]), int(got.get("type", 0)), int(got.get("swizzle", 0)),
                             got.get("fill", "zero") == "nan", text)
    except (KeyError, ValueError) as exc:
        raise UserError(f"--arg {text!r}: a tensor map is DATA@tensormap(dims=..,strides=..,box=..,elem=..,"
                        f"swizzle=..) ({exc})") from None
    if isinstance(spec.data, (Scalar, TensorMapSpec)):
        raise UserError(f"--arg {text!r}: a tensor map's data is a buffer (DTYPE[COUNT] or FILE.npy)")
    return spec


def resolve_dtype(name: str) -> tuple[np.dtype, int]:
    """(NumPy dtype, components per element) of a C or NumPy type name."""
    return resolve_type(name)[:2]


def resolve_type(name: str) -> tuple[np.dtype, int, str | None]:
    """(NumPy dtype, components per element, the bit format where NumPy has none: bfloat16, e4m3, e5m2)."""
    key = " ".join(name.replace("np.", "").split())
    if key in BITS_TYPES:
        fmt = BITS_TYPES[key]
        return _BITS_DTYPE[fmt], 1, fmt
    if key in _PAIRS:
        base, n = _PAIRS[key]
        fmt = BITS_TYPES.get(base)
        return (_BITS_DTYPE[fmt] if fmt else np.dtype(base)), n, fmt
    return (*_resolve_plain(key), None)


def _resolve_plain(key: str) -> tuple[np.dtype, int]:
    m = VECTOR.match(key.replace(" ", ""))
    if m:
        return np.dtype(_VEC_BASE[m.group(1)]), int(m.group(2))
    if key in C_DTYPES:
        return np.dtype(C_DTYPES[key]), 1
    try:
        dt = np.dtype(key)
    except TypeError:
        raise UserError(f"unknown dtype {key!r}: use a NumPy name (int32, float32, uint8, ...) or a C name "
                        f"(int, unsigned, float, double, half, half2, bfloat16, e4m3, e5m2, float4, uchar4, ...)"
                        ) from None
    if dt.kind not in "biuf":
        raise UserError(f"dtype {key!r}: only integer, float and bool buffers are supported")
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
    if not re.match(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$", name):
        raise UserError(f"--arg {text!r}: {name!r} is not a parameter name")
    if _TMAP.match(value):
        return name, _tensor_map_spec(name, value, text)
    table = _PTRS.match(value)
    if table:
        return name, _pointer_table_spec(name, table.group(1), text)
    if value.endswith(".npy"):
        return name, FileSpec(value, text)
    m = re.match(r"^([A-Za-z_][\w ]*?)\s*\[\s*(\d+)\s*\]\s*(?::\s*(.+?)\s*\.\.\s*(.+))?$", value)
    if m:
        dt, comps, bits = resolve_type(m.group(1))
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
        return name, BufferSpec(dt, count, lo, hi, text, bits)
    try:
        return name, Scalar(_number(value), text)
    except ValueError:
        raise UserError(f"--arg {text!r}: {value!r} is not a number, DTYPE[COUNT], FILE.npy or ptrs(...)") from None


def fill(name: str, spec: BufferSpec) -> np.ndarray:
    """The seeded contents of a buffer (the contract in the module docstring)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    dt = spec.dtype
    if spec.bits:  # bfloat16 / fp8: values in the range, rounded to the format, as its bits
        lo = float(spec.lo) if spec.lo is not None else -1.0
        hi = float(spec.hi) if spec.hi is not None else 1.0
        return to_bits(rng.uniform(lo, hi, size=spec.count), spec.bits)
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


def to_bits(values: np.ndarray, fmt: str) -> np.ndarray:
    """Values rounded to nearest even in a format NumPy lacks, as its bits (bfloat16: uint16; fp8: uint8)."""
    f = np.asarray(values, dtype=np.float32)
    if fmt == "bfloat16":
        u = f.view(np.uint32).astype(np.uint64)
        return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    codes = np.arange(256, dtype=np.uint8)
    table = from_bits(codes, fmt)
    finite = np.isfinite(table)
    order = np.argsort(np.where(finite, table, np.inf), kind="stable")[: int(finite.sum())]
    vals = table[order]
    idx = np.clip(np.searchsorted(vals, f), 1, len(vals) - 1)
    nearer = np.where(np.abs(f - vals[idx - 1]) <= np.abs(vals[idx] - f), idx - 1, idx)
    return codes[order][nearer]


def from_bits(bits: np.ndarray, fmt: str) -> np.ndarray:
    """The float32 values of bfloat16 or fp8 bits."""
    b = np.asarray(bits)
    if fmt == "bfloat16":
        return (b.astype(np.uint32) << 16).view(np.float32)
    exp_bits, man_bits, bias = (4, 3, 7) if fmt == "e4m3" else (5, 2, 15)
    b = b.astype(np.int32)
    sign = np.where(b & 0x80, -1.0, 1.0)
    e = (b >> man_bits) & ((1 << exp_bits) - 1)
    m = b & ((1 << man_bits) - 1)
    val = np.where(e == 0, m / (1 << man_bits) * 2.0 ** (1 - bias), (1 + m / (1 << man_bits)) * 2.0 ** (e - bias))
    if fmt == "e4m3":  # no infinities; S.1111.111 is NaN
        val = np.where((e == 15) & (m == 7), np.nan, val)
    else:
        val = np.where(e == 31, np.where(m == 0, np.inf, np.nan), val)
    return (sign * val).astype(np.float32)


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


def strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def _blank_launch_bounds(text: str) -> str:
    """`__launch_bounds__(...)` blanked out (its braces and semicolons, as in `size(Layout{})`, are no
    statement boundaries), keeping every other character where it was."""
    out, i = [], 0
    for m in re.finditer(r"__launch_bounds__\s*\(", text):
        if m.start() < i:
            continue
        end = matching(text, m.end() - 1)
        out.append(text[i:m.start()])
        out.append(" " * (end + 1 - m.start()))
        i = end + 1
    out.append(text[i:])
    return "".join(out)


def signature(source: str, kernel: str) -> list[list[CParam]]:
    """Every `__global__` declaration of `kernel` in the source: its parameters, in order."""
    text = _blank_launch_bounds(strip_comments(source))
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
            bare = re.sub(r"\[.*?\]|<.*>", "", p).strip()
            tokens = re.findall(r"[A-Za-z_]\w*", bare)
            qualified = bare.endswith(tokens[-1]) and bare[: -len(tokens[-1])].rstrip().endswith("::") if tokens else 0
            name = tokens[-1] if len(tokens) >= 2 and tokens[-1] not in _KEYWORDS and not qualified else None
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


def empty_param(p: Variable) -> bool:
    """A struct with no data (a tag, std::integral_constant, a layout of static shapes): one byte nobody reads."""
    return p.count == 1 and p.size == 1 and p.type == ".b8"


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


# buffer name -> the contents an earlier block of the launch left there (carried)
_CARRIED: ContextVar[dict | None] = ContextVar("smemlab_carried_buffers", default=None)


@contextmanager
def carried(buffers: dict | None):
    """Bind the arguments of the runs inside with the contents `buffers` (name -> array, a Report's buffers)
    in place of their fill: the global memory an earlier block of the launch left behind."""
    token = _CARRIED.set(buffers)
    try:
        yield
    finally:
        _CARRIED.reset(token)


def _carried_bytes(name: str, nbytes: int) -> bytes | None:
    """What an earlier block of the launch left in buffer `name` (`carried`), where it has `nbytes` bytes."""
    prior = (_CARRIED.get() or {}).get(name)
    raw = None if prior is None else np.ascontiguousarray(prior).tobytes()
    return raw if raw is not None and len(raw) == nbytes else None


def _data_for(name: str, spec) -> np.ndarray:
    data = _load_npy(name, spec) if isinstance(spec, FileSpec) else fill(name, spec)
    raw = _carried_bytes(name, data.nbytes)
    return data if raw is None else np.frombuffer(raw, dtype=data.dtype).reshape(data.shape).copy()


def parameter_names(kernel: Kernel, source: str, kernel_name: str) -> tuple[list[CParam | None], list[str]]:
    """The kernel's parameters as the source declares them, and their names (param0, ... where it names none)."""
    sigs = [s for s in signature(source, kernel_name) if len(s) == len(kernel.params)]
    cparams: list[CParam | None] = list(sigs[0]) if sigs else [None] * len(kernel.params)
    return cparams, [c.name if c is not None and c.name else f"param{i}" for i, c in enumerate(cparams)]


def _missing(name: str, p: Variable, c: CParam | None) -> str:
    ctype = c.ctype if c is not None and c.ctype else f"PTX .{p.type.lstrip('.')}"
    if _by_value(p):
        return f"{name} ({ctype}, a struct of {p.size} bytes: --arg {name}.FIELD=... for each field it uses, or " \
               f"{_struct_hint(name, p).split(' (')[0]})"
    pointer = (c is not None and c.is_pointer) or (c is None and p.type in (".u64", ".b64"))
    elem = re.sub(r"\b(const|volatile|__restrict__)\b|\*", "", c.ctype).strip() if c is not None and c.ctype else ""
    example = f"{name}={_dtype_name(elem)}[1024]" if pointer else f"{name}=1024"
    return f"{name} ({ctype}): e.g. --arg {example}"


def _dtype_name(ctype: str) -> str:
    try:
        dt, comps, bits = resolve_type(ctype)
    except UserError:
        return "float32"
    return ctype if (comps > 1 or bits) else dt.name


def _table_buffers(name: str, spec: PointerTableSpec) -> tuple[Buffer, list[Buffer]]:
    """The table's buffer (its addresses written once the global space lays the items out) and its items'."""
    items = [Buffer(f"{name}[{k}]", 0, d.nbytes, d, d.dtype.name) for k, d in enumerate(table_items(name, spec))]
    table = np.zeros(len(items), dtype=np.uint64)
    return Buffer(name, 0, table.nbytes, table, "uint64"), items


def _pack_field(name: str, f, v: Scalar) -> bytes:
    if f.pointer:
        raise UserError(f"--arg {v.text}: {name} is a pointer field; give a buffer such as {name}=float32[1024]")
    if f.floating:
        fmt = {2: "<e", 4: "<f", 8: "<d"}.get(f.size)
        if fmt is None:
            raise UserError(f"--arg {v.text}: {name} is a {f.size}-byte float, which analyze cannot fill")
        return struct.pack(fmt, float(v.value))
    if isinstance(v.value, float):
        raise UserError(f"--arg {v.text}: {name} is an integer field; give an integer")
    bits = f.size * 8
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if f.signed else (0, (1 << bits) - 1)
    if not lo <= int(v.value) <= hi:
        raise UserError(f"--arg {v.text}: {v.value} does not fit field {name} ({f.size} bytes)")
    return (int(v.value) & ((1 << bits) - 1)).to_bytes(f.size, "little")


def bind(module: Module, kernel: Kernel, source: str, kernel_name: str, arg_texts: list[str],
         fields: dict | None = None, extra: tuple[Buffer, ...] = ()) -> Bound:
    """`fields`: 'param.field' -> fields.Field, the layouts of the struct fields the --args name. `extra`: global
    buffers of the emulator's own (the device heap), laid out after the arguments'."""
    specs: dict[str, object] = {}
    for text in arg_texts:
        name, spec = parse_arg(text)
        if name in specs:
            raise UserError(f"--arg {name} is given twice")
        specs[name] = spec
    fields = fields or {}
    cparams, names = parameter_names(kernel, source, kernel_name)
    module_vars = {v.name: v for v in module.variables if v.space in ("const", "global")}
    unknown = [n for n in specs if n.split(".")[0] not in names and n not in module_vars]
    if unknown:
        listed = ", ".join(names) or "none"
        raise UserError(f"--arg {unknown[0]}: {kernel_name} has no parameter of that name (its parameters: {listed})")
    by_param: dict[str, dict[str, object]] = {}
    for n, spec in specs.items():
        if "." in n:
            if n not in fields:
                raise UserError(f"--arg {n}: struct fields by name need the whole-file compile (nvcc), which "
                                f"finds their layout")
            by_param.setdefault(n.split(".")[0], {})[n] = spec
    missing = [_missing(name, p, c) for p, c, name in zip(kernel.params, cparams, names)
               if name not in specs and name not in by_param and not empty_param(p)]
    if len(missing) == 1:
        raise UserError(f"{kernel_name} needs 1 more --arg: {missing[0]}")
    if missing:
        raise UserError(f"{kernel_name} needs {len(missing)} more --args:\n  " + "\n  ".join(missing))

    from smemlab.analyze.machine import param_offsets

    offsets = param_offsets(kernel.params)
    total = (offsets[-1] + kernel.params[-1].size) if kernel.params else 0
    param_bytes = bytearray(total)
    buffers: list[Buffer] = []
    pointer_slots = []
    map_slots = []
    tables: list[tuple[Buffer, list[Buffer]]] = []
    by_name: dict[str, Buffer] = {}

    def add_table(name: str, spec: PointerTableSpec, at: int) -> None:
        """The table and its items as buffers; the table's pointer at param byte `at`."""
        buf, items = _table_buffers(name, spec)
        buffers.extend([buf, *items])
        by_name.update({b.name: b for b in (buf, *items)})
        pointer_slots.append((at, buf))
        tables.append((buf, items))
    for i, (p, c, name) in enumerate(zip(kernel.params, cparams, names)):
        spec = specs.get(name)
        if name in by_param:  # fields by name; the rest of the struct zero
            if spec is not None:
                raise UserError(f"--arg {name} gives the whole struct and --arg {name}.FIELD a field of it: give one")
            for fname, fspec in by_param[name].items():
                f = fields[fname]
                at = offsets[i] + f.offset
                if f.offset + f.size > p.size:
                    raise UserError(f"--arg {fname}: the field lies outside {name} ({p.size} bytes)")
                if isinstance(fspec, Scalar):
                    param_bytes[at:at + f.size] = _pack_field(fname, f, fspec)
                    continue
                if not f.pointer:
                    raise UserError(f"--arg {fspec.text}: {fname} is not a pointer ({f.size} bytes); give a number")
                if isinstance(fspec, PointerTableSpec):
                    add_table(fname, fspec, at)
                    continue
                data = _data_for(fname, fspec)
                buf = Buffer(fname, 0, data.nbytes, data, data.dtype.name)
                buffers.append(buf)
                by_name[fname] = buf
                pointer_slots.append((at, buf))
            continue
        if spec is None:  # an empty struct or a tag (std::integral_constant): nothing to give
            continue
        if isinstance(spec, Scalar):
            if c is not None and c.is_pointer and spec.value != 0:
                raise UserError(f"--arg {spec.text}: parameter {name} is a pointer ({c.decl}); give a buffer such "
                                f"as {name}=float32[1024], {name}=FILE.npy, or {name}=0 for a null pointer")
            if c is not None and c.is_pointer:  # a null pointer, as a launch passes NULL for an unused output
                continue
            raw = _pack_scalar(name, p, c, spec)
            param_bytes[offsets[i]:offsets[i] + len(raw)] = raw
            continue
        if isinstance(spec, PointerTableSpec):
            if c is not None and not c.is_pointer or p.type.lstrip(".") not in ("u64", "b64", "s64"):
                raise UserError(f"--arg {spec.text}: parameter {name} ({_ctype(p, c)}) is not a pointer; ptrs(...) "
                                f"gives a pointer to a table of pointers")
            add_table(name, spec, offsets[i])
            continue
        if isinstance(spec, TensorMapSpec):  # the tensor's buffer; the map's bytes once it has an address
            if p.size != 128:
                raise UserError(f"--arg {spec.text}: parameter {name} has {p.size} bytes, not a CUtensorMap's 128")
            data = _data_for(name, spec.data)
            buf = Buffer(name, 0, data.nbytes, data, data.dtype.name)
            buffers.append(buf)
            by_name[name] = buf
            map_slots.append((offsets[i], buf, spec))
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
                if not isinstance(spec, (BufferSpec, FileSpec)):
                    raise UserError(f"--arg {spec.text}: {vname} is a __constant__ array; give DTYPE[COUNT] or FILE.npy")
                const[vname] = _data_for(vname, spec).tobytes()[: var.size]
            continue
        data = None
        if isinstance(spec, (PointerTableSpec, TensorMapSpec)):
            raise UserError(f"--arg {spec.text}: {vname} is a __device__ variable; give DTYPE[COUNT] or FILE.npy")
        if spec is not None:
            data = _data_for(vname, spec) if not isinstance(spec, Scalar) else None
            if data is None:
                raise UserError(f"--arg {spec.text}: {vname} is a __device__ variable; give DTYPE[COUNT] or FILE.npy")
            raw = data.view(np.uint8)[: var.size]
            data = np.concatenate([raw, np.zeros(max(0, var.size - raw.size), np.uint8)])
        elif var.init is not None:
            data = np.frombuffer(var.init, dtype=np.uint8)
        raw = _carried_bytes("@" + vname, var.size)  # what an earlier block left (a ticket counter)
        if raw is not None:
            data = np.frombuffer(raw, dtype=np.uint8).copy()
        buffers.append(Buffer("@" + vname, 0, max(var.size, 1), data))
    # addresses are assigned when the global space lays the buffers out
    from smemlab.analyze.memory import GlobalSpace

    space = GlobalSpace(buffers + list(extra))
    for off, buf in pointer_slots:
        param_bytes[off:off + 8] = buf.base.to_bytes(8, "little")
    for table, items in tables:
        table.data[:] = [b.base for b in items]
        space.contents(table)[:] = table.data.view(np.uint8)
    if map_slots:
        from smemlab.analyze import tma
    for off, buf, spec in map_slots:
        try:
            tm = tma.TensorMap(buf.base, spec.elem, spec.dims, spec.strides, spec.box, spec.swizzle, spec.fill_nan,
                               tma.FROM_DRIVER.get(spec.elem_type, "") if "type=" in spec.text else "")
        except ValueError as exc:
            raise UserError(f"--arg {spec.text}: {exc}") from None
        param_bytes[off:off + tma.SIZE] = tma.encode(tm)
    bound = Bound(bytes(param_bytes), buffers, const, names, by_name)
    bound.space = space
    return bound
