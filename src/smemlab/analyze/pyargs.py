"""Arguments of a kernel written in Python (Numba, Triton): `--arg` texts with N-d shapes, or NumPy values.

A Python kernel's array argument has a shape, not only a count: `inp=float32[32,32]` is a C-order 32x32
array, `float32[1024]` a 1-D one, `FILE.npy` the array in the file (its shape and dtype), each with the
seeded fill of args.py (the same contract, so a buffer's contents do not depend on the front end). From
Python a NumPy array or a number stands for itself; arrays travel to args.bind as .npy files, the one
form of given data it reads.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from smemlab.analyze import args as A
from smemlab.errors import UserError

_SHAPED = re.compile(r"^([A-Za-z_][\w ]*?)\s*\[\s*(\d+(?:\s*,\s*\d+)*)\s*,?\s*\]\s*(:.*)?$")


@dataclass
class PyArg:
    name: str
    dtype: np.dtype | None  # None: a scalar
    shape: tuple[int, ...]
    value: int | float | None  # a scalar's
    text: str  # what args.bind is given for the data: NAME=DTYPE[COUNT](:LO..HI), NAME=FILE.npy or NAME=NUMBER
    block: tuple[int, ...] | None = None  # a tensor descriptor's (Triton's TensorDescriptor) block shape
    padding: str = "zero"  # the descriptor's out-of-bounds fill: zero or nan
    fmt: str | None = None  # bfloat16, e4m3 or e5m2: elements NumPy has no type for, held as their bits
    byte_strides: tuple[int, ...] | None = None  # a NumPy view's own strides (bytes); None: C order

    @property
    def type_name(self) -> str:
        """The element type as args.py reads it in a declaration."""
        return self.fmt or self.dtype.name

    @property
    def is_array(self) -> bool:
        return self.dtype is not None

    @property
    def is_none(self) -> bool:
        """`--arg NAME=None`: a launch's None (Triton's optional pointer, a constant of the compile)."""
        return self.dtype is None and self.value is None

    @property
    def strides(self) -> tuple[int, ...]:
        """In bytes, as Numba passes them: C order, or a NumPy view's own (a Fortran-order array, a slice)."""
        if self.byte_strides is not None:
            return self.byte_strides
        return _c_strides(self.shape, self.dtype.itemsize)

    @property
    def layout(self) -> str:
        """Numba's layout of the array: C, F (Fortran order) or A (any strides)."""
        if self.byte_strides is None or self.byte_strides == _c_strides(self.shape, self.dtype.itemsize):
            return "C"
        f = tuple(reversed(_c_strides(tuple(reversed(self.shape)), self.dtype.itemsize)))
        return "F" if self.byte_strides == f else "A"


def _c_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _span(name: str, v: np.ndarray) -> tuple[np.ndarray, tuple[int, ...] | None]:
    """The memory a NumPy array's elements lie in, from its first element to its last, as a flat C array, and
    the array's strides in bytes (None where it is C-contiguous): a Fortran-order array or a slice reaches the
    kernel with its own strides, as Numba passes a device array's, not copied into C order."""
    if v.flags.c_contiguous or v.size <= 1:
        return np.ascontiguousarray(v), None
    if any(s < 0 for s in v.strides) or any(s % v.itemsize for s in v.strides):
        raise UserError(f"argument {name}: an array with strides {v.strides} (negative, or not a multiple of its "
                        f"{v.itemsize}-byte elements); give a copy (numpy.ascontiguousarray)")
    count = sum((n - 1) * s for n, s in zip(v.shape, v.strides)) // v.itemsize + 1
    flat = np.lib.stride_tricks.as_strided(v, shape=(count,), strides=(v.itemsize,)).copy()
    return flat, tuple(int(s) for s in v.strides)


COMPLEX = {"complex64": np.dtype(np.complex64), "complex128": np.dtype(np.complex128)}
_PART = {8: "float32", 16: "float64"}  # a complex element's itemsize -> the type of each of its two parts
# record types a kernel's array may hold, by the name --arg gives them: numba.cuda.random's generator states
RECORDS = {"xoroshiro128p": np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)}


def _record_part(dtype: np.dtype) -> np.dtype | None:
    """The one numeric type every field of a packed record type is (its buffer is held as that), else None."""
    if dtype.names is None or dtype.subdtype is not None:
        return None
    kinds = {dtype.fields[f][0] for f in dtype.names}
    if len(kinds) != 1:
        return None
    part = kinds.pop()
    if part.kind not in "biuf" or part.shape or dtype.itemsize != part.itemsize * len(dtype.names) or \
            any(dtype.fields[f][1] != i * part.itemsize for i, f in enumerate(dtype.names)):
        return None
    return part


def part_type(dtype: np.dtype) -> np.dtype:
    """The element type a buffer of `dtype` is held in: a complex type's real part, a record's one field type,
    else itself."""
    if dtype.kind == "c":
        return np.dtype(_PART[dtype.itemsize])
    return _record_part(dtype) or dtype


def _is_split(dtype: np.dtype) -> bool:
    """Whether an element of `dtype` is held as several of part_type(dtype) (complex numbers, records)."""
    return part_type(dtype) != dtype


_BLOCK = re.compile(r"^(.*?)\s*@\s*(\d+(?:\s*x\s*\d+)*)\s*(?:,\s*(zero|nan))?$")


def parse(text: str) -> PyArg:
    """'NAME=VALUE' with VALUE a number, DTYPE[D0,D1,...](:LO..HI) or FILE.npy; an array followed by
    @B0xB1... (and ,nan) is a tensor descriptor over it with that block shape (Triton's TensorDescriptor)."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if sep and value == "None":
        return PyArg(name, None, (), None, f"{name}=None")
    if sep and value in ("True", "False"):  # a Python bool: Numba types it boolean, Triton i1
        return PyArg(name, None, (), value == "True", f"{name}={int(value == 'True')}")
    table = A._PTRS.match(value) if sep else None
    if table:
        return _pointer_table(name, table.group(1), text)
    b = _BLOCK.match(value) if sep and "@tensormap" not in value else None
    if b:
        a = parse(f"{name}={b.group(1)}")
        if not a.is_array:
            raise UserError(f"--arg {text!r}: a tensor descriptor is over an array (DTYPE[D0,D1]@B0xB1)")
        block = tuple(int(x) for x in b.group(2).split("x"))
        if len(block) != len(a.shape):
            raise UserError(f"--arg {text!r}: a block of {len(block)} sizes for an array of {len(a.shape)} dimensions")
        return PyArg(a.name, a.dtype, a.shape, None, a.text, block, b.group(3) or "zero", a.fmt)
    m = _SHAPED.match(value) if sep else None
    if m:
        shape = tuple(int(d) for d in m.group(2).split(","))
        if any(d <= 0 for d in shape):
            raise UserError(f"--arg {text!r}: every size of the shape must be positive")
        complex_type = COMPLEX.get(m.group(1).strip())
        if complex_type is not None:
            # a complex array is its real and imaginary parts interleaved: the buffer holds 2N floats
            flat = f"{name}={_PART[complex_type.itemsize]}" \
                   f"[{2 * int(np.prod(shape))}]{m.group(3) or ''}"
            A.parse_arg(flat)
            return PyArg(name, complex_type, shape, None, flat)
        record = RECORDS.get(m.group(1).strip())
        if record is not None:  # held as its fields' type, each element's fields one after another
            part = part_type(record)
            flat = f"{name}={part.name}[{record.itemsize // part.itemsize * int(np.prod(shape))}]{m.group(3) or ''}"
            A.parse_arg(flat)
            return PyArg(name, record, shape, None, flat)
        flat = f"{name}={m.group(1)}[{int(np.prod(shape))}]{m.group(3) or ''}"
        _, spec = A.parse_arg(flat)
        if spec.count != int(np.prod(shape)):
            raise UserError(f"--arg {text!r}: {m.group(1)} is not an element type a Python kernel takes "
                            f"(use a NumPy name: float32, float64, int32, uint8, ..., or bfloat16, "
                            f"float8_e4m3fn, float8_e5m2)")
        return PyArg(name, spec.dtype, shape, None, flat, fmt=spec.bits)
    name, spec = A.parse_arg(text)
    if isinstance(spec, A.FileSpec):
        a = A._load_npy(name, spec)
        return PyArg(name, a.dtype, a.shape or (1,), None, text)
    return PyArg(name, None, (), spec.value, f"{name}={value}")


def _pointer_table(name: str, inner: str, text: str) -> PyArg:
    """ptrs(ITEM, ...) with items in a Python kernel's forms (shapes, FILE.npy): a table of int64 addresses, as
    a Triton program gets one from `torch.tensor([t.data_ptr() for t in ts])` and casts with tl.pointer_type."""
    flat = []
    for times, item in A.table_parts(inner):
        a = parse(f"{name}={item}") if item else None
        if a is None or not a.is_array:
            raise UserError(f"--arg {text!r}: each item of ptrs(...) is an array (DTYPE[D0,...] or FILE.npy)")
        flat.append(("" if times == 1 else f"{times}*") + a.text.partition("=")[2])
    table = f"{name}=ptrs({','.join(flat)})"
    _, spec = A.parse_arg(table)
    return PyArg(name, np.dtype(np.int64), (len(spec.items),), None, table)


def from_values(values: dict, folder: Path) -> list[PyArg]:
    """NAME -> a NumPy array, a number, or an --arg VALUE text; arrays are saved under `folder`."""
    out = []
    for name, v in values.items():
        if v is None:
            out.append(PyArg(name, None, (), None, f"{name}=None"))
        elif isinstance(v, str):
            out.append(parse(f"{name}={v}"))
        elif isinstance(v, np.ndarray) and _is_split(v.dtype):
            path = folder / f"{name}.npy"
            flat, strides = _span(name, v)
            np.save(path, flat.view(part_type(v.dtype)))
            out.append(PyArg(name, v.dtype, v.shape or (1,), None, f"{name}={path}", byte_strides=strides))
        elif isinstance(v, np.ndarray):
            if v.dtype.kind not in "biuf":
                raise UserError(f"argument {name}: a {v.dtype} array; give numbers (or records whose fields are "
                                f"all one number type)")
            path = folder / f"{name}.npy"
            flat, strides = _span(name, v)
            np.save(path, flat)
            a = parse(f"{name}={path}")
            out.append(a if strides is None else PyArg(name, a.dtype, v.shape, None, a.text, byte_strides=strides))
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, np.ndarray) for x in v):
            paths = []  # a table of pointers to these arrays (a grouped GEMM's)
            for k, x in enumerate(v):
                if x.dtype.kind not in "biuf":
                    raise UserError(f"argument {name}[{k}]: a {x.dtype} array; give numbers")
                paths.append(folder / f"{name}.{k}.npy")
                np.save(paths[-1], np.ascontiguousarray(x))
            out.append(parse(f"{name}=ptrs({','.join(map(str, paths))})"))
        elif _is_descriptor(v):
            base = np.ascontiguousarray(v.base)
            if tuple(v.shape) != base.shape or [int(x) for x in v.strides] != [x // base.itemsize for x in base.strides]:
                raise UserError(f"argument {name}: a TensorDescriptor over a whole C-order array (TensorDescriptor."
                                f"from_tensor) is what analyze takes")
            path = folder / f"{name}.npy"
            np.save(path, base)
            shape = "x".join(str(int(x)) for x in v.block_shape)
            out.append(parse(f"{name}={path}@{shape},{v.padding}"))
        elif isinstance(v, (bool, np.bool_)):
            out.append(PyArg(name, None, (), int(v), f"{name}={int(v)}"))
        elif isinstance(v, (int, float, np.integer, np.floating)):
            out.append(parse(f"{name}={v!r}" if isinstance(v, float) else f"{name}={int(v)}"))
        else:
            raise UserError(f"argument {name}: {type(v).__name__} is not an array, a list of arrays (a table of "
                            f"pointers to them), a number or an --arg text")
    return out


def _is_descriptor(v) -> bool:
    return all(hasattr(v, k) for k in ("base", "shape", "strides", "block_shape", "padding")) and \
        isinstance(getattr(v, "base"), np.ndarray)


def merge(texts: list[str] | None, values: dict | None, folder: Path) -> dict[str, PyArg]:
    got: dict[str, PyArg] = {}
    for a in [parse(t) for t in texts or []] + from_values(values or {}, folder):
        if a.name in got:
            raise UserError(f"--arg {a.name} is given twice")
        got[a.name] = a
    return got


def check_names(kernel: str, params: list[str], given: dict[str, PyArg], hint: str = "float32[1024]",
                pointer_names: bool = False) -> None:
    """Every parameter given once, and no other name. `pointer_names`: the kernel's arrays are its parameters
    named ..._ptr (Triton's custom), so where some is, the example for any other is a scalar."""
    unknown = [n for n in given if n not in params]
    if unknown:
        raise UserError(f"--arg {unknown[0]}: {kernel} has no parameter of that name (its parameters: "
                        f"{', '.join(params) or 'none'})")
    missing = [p for p in params if p not in given]
    if missing:
        pointer_names = pointer_names and any(_pointer_name(p) for p in params)  # the kernel keeps the custom
        eg = " ".join(f"--arg {p}={hint if not pointer_names or _pointer_name(p) else 1024}" for p in missing)
        raise UserError(f"{kernel} needs {len(missing)} more --arg{'s' if len(missing) > 1 else ''}: "
                        f"{', '.join(missing)} (e.g. {eg}; a scalar as --arg NAME=4096)")


def _pointer_name(name: str) -> bool:
    n = name.lower()
    return n.endswith("ptr") or n.endswith("desc") or n.startswith("ptr")


def scratch() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="smemlab-args-")


def reshape_buffers(buffers: dict, given: dict[str, PyArg]) -> dict:
    """The pointer arguments' contents after the run, in their arguments' shapes."""
    out = dict(buffers)
    for name, a in given.items():
        if a.is_array and name in out and _is_split(a.dtype) and out[name].dtype == part_type(a.dtype):
            out[name] = out[name].view(a.dtype)
        if a.is_array and name in out and a.byte_strides is not None:  # the view's elements of the span
            out[name] = np.lib.stride_tricks.as_strided(out[name], a.shape, a.byte_strides).copy()
        if a.is_array and name in out and out[name].size == int(np.prod(a.shape)):
            out[name] = out[name].reshape(a.shape)
    return out
