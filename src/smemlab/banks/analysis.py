"""From a subscript expression, a declared shape, a dtype and a block to wavefronts per warp.

`analyze` evaluates the expression for every thread of one block, turns each index tuple into a
byte address (row-major, padding included) and runs the measured model in `model.py` on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from smemlab.banks import expr as E
from smemlab.banks.model import MAX_SHARED_BYTES, WARP, _is_int, normalize_op, simulate
from smemlab.errors import UserError

MAX_THREADS = 1024
MAX_BLOCK = (1024, 1024, 64)

_C_TYPES = {
    1: "char signed_char unsigned_char uchar int8_t uint8_t bool char1 uchar1",
    2: "short unsigned_short ushort short_int unsigned_short_int half __half bfloat16 __nv_bfloat16 int16_t "
       "uint16_t short1 ushort1 char2 uchar2",
    4: "int unsigned unsigned_int uint signed signed_int float int32_t uint32_t int1 uint1 float1 short2 ushort2 "
       "char4 uchar4 half2 __half2 __nv_bfloat162",
    8: "double long long_long longlong unsigned_long ulong unsigned_long_long ulonglong long_int long_long_int "
       "unsigned_long_long_int int64_t uint64_t size_t longlong1 ulonglong1 double1 int2 uint2 float2 short4 "
       "ushort4 long1 ulong1",
    16: "int4 uint4 float4 double2 longlong2 ulonglong2 long2 ulong2",
}
_NUMPY_TYPES = {
    1: "int8 uint8 bool_", 2: "int16 uint16 float16 bfloat16", 4: "int32 uint32 float32",
    8: "int64 uint64 float64 complex64", 16: "complex128",
}
# NumPy names -> the C type a declaration would use
C_NAME = {"int8": "signed char", "uint8": "unsigned char", "bool_": "bool", "int16": "short",
          "uint16": "unsigned short", "float16": "half", "bfloat16": "__nv_bfloat16", "int32": "int",
          "uint32": "unsigned int", "float32": "float", "int64": "long long", "uint64": "unsigned long long",
          "float64": "double", "complex64": "float2", "complex128": "double2"}
DTYPE_SIZES = {name: size for table in (_C_TYPES, _NUMPY_TYPES) for size, names in table.items()
               for name in names.split()}


def _dtype_key(dtype) -> tuple[str, str]:
    """(table key, the name as written): 'np.float32' -> ('float32', 'float32'), 'unsigned  int' ->
    ('unsigned_int', 'unsigned int'); NumPy dtypes and scalar types by their NumPy name."""
    if not isinstance(dtype, str):
        try:
            dtype = np.dtype(dtype).name
        except TypeError:
            raise UserError(f"dtype must be a type name such as 'int' or 'float32', got {dtype!r}") from None
    words = dtype.split()
    if words and words[0].startswith(("np.", "numpy.")):
        words[0] = words[0].split(".", 1)[1]
    if words == ["bool"]:
        words = ["bool_"]
    return "_".join(words), " ".join(words)


def dtype_size(dtype) -> int:
    """Bytes of one element: C names ('unsigned int', 'float4', 'long long') or NumPy names."""
    key, _ = _dtype_key(dtype)
    if key in DTYPE_SIZES:
        return DTYPE_SIZES[key]
    raise UserError(f"unknown dtype {dtype!r}; use a C name (char short int float double half long long, "
                    f"int2 float2 int4 float4 double2) or a NumPy name (int8 ... float64)")


def c_type(dtype) -> str:
    """The C name a declaration uses: 'float32' and 'np.float32' -> 'float', 'unsigned  int' -> 'unsigned int'."""
    key, written = _dtype_key(dtype)
    return C_NAME.get(key, written)


_INT_TEXT = re.compile(r"[0-9]+", re.ASCII)


def to_int(value, what: str) -> int:
    """One integer as the command line reads it: an int (or NumPy integer), or its ASCII digits as
    text. Floats, booleans, None and other scripts' digits are refused, never truncated."""
    if _is_int(value):
        return int(value)
    if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()):
        return int(value.strip())
    raise UserError(f"{what} must be an integer, got {value!r}")


def to_ints(value, what: str, example: str = "32,32") -> tuple[int, ...]:
    """1 to 3 positive integers: 32, (32, 32), or the command line's text '32,32' (or '32x32')."""
    if isinstance(value, str):
        parts = re.split(r"[,xX]", value)
    elif _is_int(value):
        parts = [value]
    else:
        try:
            parts = list(value)
        except TypeError:
            raise UserError(f"{what} must be 1 to 3 positive integers (like {example}), got {value!r}") from None
    try:
        values = tuple(to_int(p, what) for p in parts)
    except UserError:
        raise UserError(f"{what} must be 1 to 3 positive integers (like {example}), got {value!r}") from None
    if not 1 <= len(values) <= 3 or any(v <= 0 for v in values):
        raise UserError(f"{what} must be 1 to 3 positive integers (like {example}), got {value!r}")
    return values


def normalize_block(block) -> tuple[int, int, int]:
    dims = to_ints(block, "block")
    dims = dims + (1,) * (3 - len(dims))
    for d, lim, axis in zip(dims, MAX_BLOCK, "xyz"):
        if d > lim:
            raise UserError(f"block {axis} = {d} is over the limit of {lim}")
    n = dims[0] * dims[1] * dims[2]
    if n > MAX_THREADS:
        raise UserError(f"block {dims[0]}x{dims[1]}x{dims[2]} has {n} threads; a block holds at most {MAX_THREADS}")
    return dims


def normalize_pad(pad) -> int:
    p = to_int(pad, "pad")
    if p < 0:
        raise UserError(f"pad must be 0 or more, got {p}")
    return p


def normalize_shape(shape, pad, size: int) -> tuple[int, ...]:
    dims = to_ints(shape, "shape", "32,33 or 1024")
    pad = normalize_pad(pad)
    dims = dims[:-1] + (dims[-1] + pad,)
    total = int(np.prod(dims, dtype=object)) * size
    if total > MAX_SHARED_BYTES:
        raise UserError(f"shape {'x'.join(map(str, dims))} of {size}-byte elements is {total} bytes; "
                        f"one block has at most {MAX_SHARED_BYTES} bytes of shared memory")
    return dims


@dataclass
class WarpRecord:
    warp: int
    active_threads: int
    wavefronts: int
    ideal_wavefronts: int
    conflict_degree: int  # the worst phase's distinct words in one bank (1: conflict-free)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Analysis:
    expr: str
    array: str
    shape: tuple[int, ...]  # declared, padding included
    dtype: str
    element_bytes: int
    block: tuple[int, int, int]
    op: str
    pad: int
    active: str | None
    bank_width: int
    requests: int
    wavefronts: int
    wavefronts_per_request: float
    ideal_wavefronts: int
    per_warp: list[WarpRecord]
    addresses: np.ndarray = field(repr=False)  # byte address per thread, -1 = no access
    indices: np.ndarray = field(repr=False)  # (threads, dims) index tuples, -1 rows = no access

    @property
    def bank_conflicts(self) -> int:
        """Wavefronts over the ideal: what Nsight Compute's l1tex__data_bank_conflicts_* counts."""
        return self.wavefronts - self.ideal_wavefronts

    def declaration(self, shape: tuple[int, ...] | None = None) -> str:
        """The C declaration of the array (with another shape if given)."""
        return f"__shared__ {c_type(self.dtype)} {self.array}{''.join(f'[{d}]' for d in (shape or self.shape))};"

    def _repr_png_(self) -> bytes:
        """Jupyter shows an analysis as its bank map and per-warp costs (smemlab.banks.pictures)."""
        import io

        from smemlab.banks.pictures import save_png

        buf = io.BytesIO()
        save_png(self, buf)
        return buf.getvalue()

    def to_dict(self) -> dict:
        return {
            "expr": self.expr, "array": self.array, "shape": list(self.shape), "dtype": self.dtype,
            "element_bytes": self.element_bytes, "block": list(self.block), "op": self.op, "pad": self.pad,
            "active": self.active, "bank_width": self.bank_width,
            "requests": self.requests, "wavefronts": self.wavefronts,
            "wavefronts_per_request": self.wavefronts_per_request,
            "ideal_wavefronts": self.ideal_wavefronts, "bank_conflicts": self.bank_conflicts,
            "per_warp": [w.to_dict() for w in self.per_warp],
        }


def thread_env(block: tuple[int, int, int]) -> dict[str, np.ndarray]:
    bx, by, bz = block
    t = np.arange(bx * by * bz, dtype=np.int64)
    full = lambda v: np.full(t.size, v, dtype=np.int64)  # noqa: E731
    return {"tx": t % bx, "ty": (t // bx) % by, "tz": t // (bx * by), "bdx": full(bx), "bdy": full(by),
            "bdz": full(bz), "lane": t % WARP, "warp": t // WARP}


def block_addresses(expr: str, dims: tuple[int, ...], size: int, env: dict[str, np.ndarray], active: str | None,
                    names: dict[str, str] = E.NAMES) -> tuple[E.Access, np.ndarray, np.ndarray]:
    """(the parsed access, (threads, dims) index tuples, byte address per thread) of `expr` over the
    threads of `env` (thread_env), row-major in an array of shape `dims` and `size`-byte elements;
    -1 where `active` is false. An index outside the shape is a UserError naming the thread."""
    access = E.parse_access(expr, names)
    if len(access.indices) != len(dims):
        raise UserError(f"{E.quote(expr)} has {len(access.indices)} subscript(s) but the shape "
                        f"{'x'.join(map(str, dims))} has {len(dims)} dimension(s)")

    def describe(i: int) -> str:
        return f"thread {i} (tx={env['tx'][i]}, ty={env['ty'][i]}, tz={env['tz'][i]})"

    everyone = np.ones(env["tx"].size, dtype=bool)
    mask = everyone
    if active is not None:
        mask = E.Evaluator(active, env, describe).eval(E.parse_condition(active, names), everyone) != 0
    ev = E.Evaluator(expr, env, describe)
    flat = np.zeros(mask.size, dtype=np.int64)
    idx = np.full((mask.size, len(dims)), -1, dtype=np.int64)
    for k, (node, text, n) in enumerate(zip(access.indices, access.texts, dims)):
        v = np.broadcast_to(ev.eval(node, mask), mask.shape)
        bad = mask & ((v < 0) | (v >= n))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise UserError(f"{E.quote(expr)}: index {k} ({text}) is {int(v[i])} for {describe(i)}, "
                            f"outside 0..{n - 1} of the shape {'x'.join(map(str, dims))}")
        flat = flat * n + v
        idx[:, k] = np.where(mask, v, -1)
    return access, idx, np.where(mask, flat * size, -1)


def analyze(expr: str, shape, dtype: str, block, op: str = "load", pad: int = 0, active: str | None = None,
            bank_width: int = 4) -> Analysis:
    """Wavefronts of one shared-memory access by every warp of one block (see model.py for the rule).

    Arguments follow the command line's rules: shape and block are 1 to 3 positive integers (an
    int, a tuple, or text such as "32,32"); pad is an integer, 0 or more; op is load or store (ld,
    st); dtype a C or NumPy type name; active a condition such as "tx < 64", or None.
    """
    if not isinstance(expr, str):
        raise UserError(f"the access must be text such as 'tile[ty][tx]', got {expr!r}")
    if active is not None and not isinstance(active, str):
        raise UserError(f"active must be a condition such as 'tx < 64', or None; got {active!r}")
    op = normalize_op(op)
    size = dtype_size(dtype)
    block = normalize_block(block)
    pad = normalize_pad(pad)
    dims = normalize_shape(shape, pad, size)
    bank_width = to_int(bank_width, "bank_width")
    if bank_width not in (4, 8):
        raise UserError(f"bank width must be 4 or 8 bytes, got {bank_width}")
    access, idx, addresses = block_addresses(expr, dims, size, thread_env(block), active)
    costs = simulate(addresses, size, op, bank_width)

    requests = int((costs.active > 0).sum())
    wavefronts = int(costs.wavefronts.sum())
    per_warp = [WarpRecord(w, int(costs.active[w]), int(costs.wavefronts[w]), int(costs.ideal[w]),
                           int(costs.degree[w])) for w in range(costs.active.size)]
    return Analysis(
        expr=expr, array=access.array, shape=dims, dtype=_dtype_key(dtype)[1], element_bytes=size, block=block, op=op,
        pad=int(pad), active=active, bank_width=bank_width, requests=requests, wavefronts=wavefronts,
        wavefronts_per_request=wavefronts / requests if requests else 0.0,
        ideal_wavefronts=int(costs.ideal.sum()), per_warp=per_warp, addresses=addresses, indices=idx,
    )
