"""The front end for Numba: a `@cuda.jit` function -> sm_90 PTX through NVVM (its .loc lines are the
Python lines), the cubin ptxas makes of it, and a C signature that names Numba's parameters.

Numba passes an array as its whole struct, one PTX parameter a field: meminfo, parent, nitems, itemsize,
data, then shape[ndim] and strides[ndim] (in bytes). The synthetic signature names the data pointer as
the argument (`inp`), so the buffer, its seeded fill and its contents afterwards carry the user's name,
and the other fields `inp__shape0` and so on, bound to the array's C-order layout (a NumPy array given from
Python in Fortran order, or a slice, keeps its own strides, typed layout F or A as Numba types it); meminfo and
parent are never read by device code and are 0.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import re
import types
from pathlib import Path

import numpy as np

from smemlab.analyze import externs, nvcc, pyargs, pyfile
from smemlab.analyze.ptx import PTXError, parse_module
from smemlab.analyze.unit import Unit
from smemlab.errors import UserError

EXTRA = 'pip install "smemlab[numba]"'
CC = (9, 0)


def require():
    try:
        from numba import cuda  # noqa: F401
    except ImportError as exc:
        raise UserError(f"analyzing a Numba kernel needs numba-cuda ({exc}): {EXTRA}") from None
    return cuda


def is_kernel(obj) -> bool:
    """A `@cuda.jit` kernel (a dispatcher), not a device function or a plain Python function."""
    try:
        from numba.cuda.dispatcher import CUDADispatcher
    except ImportError:
        return False
    return isinstance(obj, CUDADispatcher) and not getattr(obj, "_device", False) and \
        not obj.targetoptions.get("device", False)


def parameters(fn) -> list[str]:
    return list(inspect.signature(fn.py_func).parameters)


def _numba_type(a: pyargs.PyArg):
    from numba import types
    from numba.np import numpy_support

    if a.is_array and a.fmt:
        raise UserError(f"--arg {a.name}: Numba has no {a.fmt} arrays; give the element type the kernel's array "
                        f"has (float16, float32, uint16 for raw bits, ...)")
    if a.is_array:
        return types.Array(numpy_support.from_dtype(a.dtype), len(a.shape), a.layout)
    if a.is_none:
        return types.none
    if isinstance(a.value, bool):
        return types.boolean
    return types.float64 if isinstance(a.value, float) else types.int64


def _fields(a: pyargs.PyArg) -> list[tuple[str, str, str]]:
    """(parameter name, C declaration type, --arg text) of each PTX parameter the argument becomes."""
    n = a.name
    if a.is_none:  # Numba's none is one opaque pointer-sized parameter, never read
        return [(n, "long long", f"{n}=0")]
    if isinstance(a.value, bool):
        return [(n, "bool", a.text)]
    if not a.is_array:
        return [(n, "double" if isinstance(a.value, float) else "long long", a.text)]
    count = int(np.prod(a.shape))
    out = [(f"{n}__meminfo", "long long", f"{n}__meminfo=0"), (f"{n}__parent", "long long", f"{n}__parent=0"),
           (f"{n}__nitems", "long long", f"{n}__nitems={count}"),
           (f"{n}__itemsize", "long long", f"{n}__itemsize={a.dtype.itemsize}"),
           (n, f"{pyargs.part_type(a.dtype).name}*", a.text)]
    out += [(f"{n}__shape{i}", "long long", f"{n}__shape{i}={d}") for i, d in enumerate(a.shape)]
    out += [(f"{n}__stride{i}", "long long", f"{n}__stride{i}={s}") for i, s in enumerate(a.strides)]
    return out


def compile_kernel(fn, name: str, given: dict[str, pyargs.PyArg], path: str | None = None,
                   shown: str | None = None) -> tuple[Unit, list[str]]:
    """The unit for `fn` specialised to the arguments' types, and the --arg texts that bind it."""
    require()
    params = parameters(fn)
    pyargs.check_names(name, params, given, "float32[32,32]")
    sig = _declared(fn, name, params, given) or tuple(_numba_type(given[p]) for p in params)
    fields = [f for p in params for f in _fields(given[p])]
    key = _unit_key(fn, name, sig, path, shown)
    unit = _UNITS.pop(key, None) or _compiled(fn, name, params, sig, fields, path, shown)
    _UNITS[key] = unit  # the most recent last
    while len(_UNITS) > MAX_UNITS:
        del _UNITS[next(iter(_UNITS))]
    return unit, [text for _, _, text in fields]


# Units compiled in this process, by what they are compiled from: `--blocks` and a grid's replay analyse one block
# after another of the same kernel, and Numba's compile (a second or so) would otherwise be paid again per block
_UNITS: dict = {}
MAX_UNITS = 16


def _unit_key(fn, name: str, sig, path: str | None, shown: str | None):
    """What the unit depends on: the signature, and the kernel's code with its globals, which a file loaded anew
    makes objects of their own each time (its text names them), where a dispatcher given from Python is itself
    (Numba freezes its globals at its first compile, as this does)."""
    if path is None:
        return (fn, name, sig, shown)
    try:
        text = Path(path).read_bytes()
    except OSError:
        return (fn, name, sig, shown)
    return (str(Path(path).resolve()), hashlib.sha256(text).hexdigest(), name, sig, shown)


def _compiled(fn, name: str, params: list[str], sig, fields, path: str | None, shown: str | None) -> Unit:
    cuda = require()
    try:
        with _no_device():
            ptx, _ = cuda.compile_ptx(fn.py_func, sig, cc=CC, lineinfo=True)
            if _unresolved(ptx):
                ptx = _linked(fn, sig, ptx)
    except UserError:
        raise
    except Exception as exc:  # Numba's typing and lowering errors are many classes; the message is what helps
        text = str(exc).strip().splitlines()
        said = " ".join(text[:6])
        raise UserError(f"Numba cannot compile {name}{_sig_text(params, sig)}: {type(exc).__name__}: {said}"
                        f"{_array_shape_hint(text)}"
                        f"{pyfile.undefined_hint(said, getattr(fn.py_func, '__globals__', None))}") from None
    where = shown or name
    _refuse(ptx, where)
    try:
        module = parse_module(ptx)
    except PTXError as exc:
        raise UserError(f"{where}: the PTX Numba produced is not understood: {exc}") from None
    if len(module.kernels) != 1:
        raise UserError(f"{where}: Numba's PTX for {name} holds {len(module.kernels)} kernels, expected one")
    symbol = next(iter(module.kernels))
    if len(fields) != len(module.kernels[symbol].params):
        raise UserError(f"{name}: Numba's kernel has {len(module.kernels[symbol].params)} parameters where its "
                        f"arguments' layout makes {len(fields)} (an argument type this front end does not know?)")
    cubin = nvcc.assemble(ptx, where)
    files, sources = pyfile.shown_files(module.files, path, shown)
    source = f"__global__ void {name}({', '.join(f'{t} {n}' for n, t, _ in fields)});"
    return Unit(module, ptx, cubin, symbol, name, source, where, files, sources, {}, "numba")


_EXTERN = re.compile(r"^\s*\.extern\s+\.func\s+(?:\([^)]*\)\s*)?(\w+)", re.M)
_DEFINED = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.func\s+(?:\([^)]*\)\s*)?(\w+)", re.M)
# what Numba's cooperative groups call (cuda.cg.this_grid().sync()): the device runtime's, not linkable here
_GRID_SYNC = ("cudaCGGetIntrinsicHandle", "cudaCGSynchronize", "cudaCGSynchronizeGrid")


def _unresolved(ptx: str) -> set[str]:
    """Functions the PTX declares and calls but does not define, other than the device runtime's that
    externs.py runs (printf, assert, malloc)."""
    return {f for f in _EXTERN.findall(ptx) if f not in externs.RUNTIME}


def _refuse(ptx: str, where: str) -> None:
    grid = [f for f in _GRID_SYNC if f in _unresolved(ptx)]
    if grid:
        raise UserError(f"{where}: the kernel synchronises the whole grid (cuda.cg.this_grid().sync()), and analyze "
                        f"emulates one block: analyze the code before and after the grid sync as kernels of their own")


def _linked(fn, sig, ptx: str) -> str:
    """The kernel's PTX with the device functions Numba links to it defined in it: the CUDA C++ shims of
    its float16/bfloat16 operators (cuda_fp16.h), and the `link=` files of a kernel that calls foreign
    functions (`cuda.declare_device`), each .cu compiled by NVRTC for sm_90 (Numba compiles them with
    NVRTC too, at launch) and each .ptx taken as it is. Their functions are appended to the module, so
    ptxas and the emulator see one program."""
    from numba.cuda import compiler as ncompiler
    from numba.cuda.cudadrv import nvrtc as numba_nvrtc

    from smemlab.compiler import CompileError, compile_nvrtc

    includes = _numba_includes()

    def nvrtc_compile(src, name, cc, ltoir=False, lineinfo=False, debug=False):
        text = src.decode() if isinstance(src, bytes) else src
        folder = [str(Path(name).parent)] if name and Path(name).parent != Path(".") else []
        dirs = folder + includes
        opts = [f"-arch=sm_{cc[0]}{cc[1]}", "-std=c++17", "-rdc=true"] + [f"-I{d}" for d in dirs]
        try:
            return compile_nvrtc(text, Path(name or "linked.cu").name, opts, dirs).ptx, ""
        except CompileError as exc:
            raise UserError(f"a CUDA C++ file Numba links to the kernel does not compile: {exc}") from None

    asked = numba_nvrtc.compile
    numba_nvrtc.compile = nvrtc_compile
    try:
        codes, _ = ncompiler.compile_all(fn.py_func, sig, lineinfo=True, device=False, abi="numba", output="ptx",
                                         cc=CC)
    finally:
        numba_nvrtc.compile = asked
    extra = [c for c in codes[1:] if isinstance(c, str)]
    for f in fn.targetoptions.get("link", None) or []:
        path = str(f)
        if path.endswith(".ptx"):
            extra.append(Path(path).read_text())
        elif path.endswith(".cu"):
            extra.append(nvrtc_compile(Path(path).read_text(), path, CC)[0])
    return merge_ptx(codes[0], extra)


def _numba_includes() -> list[str]:
    """The include path Numba gives NVRTC for what it links: its own copies of cuda_fp16.h and cuda_bf16.h
    (for the NVRTC major version), then the CUDA headers it finds."""
    import numba.cuda
    from numba.cuda.cuda_paths import get_cuda_paths

    from smemlab.compiler import nvrtc_version

    own = Path(numba.cuda.__file__).parent / "include" / nvrtc_version().split(".")[0]
    out = [str(own)] if own.is_dir() else []
    try:
        cuda_include = get_cuda_paths()["include_dir"].info
    except Exception:  # noqa: BLE001 - Numba's search raises what it meets; the headers may still be found
        cuda_include = None
    return out + ([str(cuda_include)] if cuda_include else [])


def merge_ptx(ptx: str, others: list[str]) -> str:
    """`ptx` with the functions the other modules define appended, and its .extern declarations of them
    dropped. The others' line information is dropped: their lines are in files the report does not show
    (cuda_fp16.h), and their .file numbers would collide with the kernel's."""
    bodies, defined = [], set()
    for other in others:
        text = "\n".join(x for x in other.splitlines()
                         if not x.lstrip().startswith((".loc", ".file", ".version", ".target", ".address_size")))
        bodies.append(text)
        defined |= set(_DEFINED.findall(text))
    # a declaration spans lines up to its semicolon: drop the parameter lines that followed a dropped head
    out, skipping = [], False
    for line in ptx.splitlines():
        m = _EXTERN.match(line)
        if m and m.group(1) in defined:
            skipping = not line.rstrip().endswith(";")
            continue
        if skipping:
            skipping = not line.rstrip().endswith(";")
            continue
        out.append(line)
    # defined ahead of the kernel, which calls them: PTX wants a function declared before a call to it
    entry = next((i for i, x in enumerate(out) if re.match(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\b", x)),
                 len(out))
    return "\n".join(out[:entry] + bodies + out[entry:]) + "\n"


@contextlib.contextmanager
def _no_device():
    """Numba compiles a kernel's @cuda.jit(device=True) callees through a path that asks the current GPU for
    its compute capability (to pick the target); with no GPU, it is told sm_90's, the target compiled for."""
    from numba.cuda import dispatcher

    asked = dispatcher.get_current_device
    dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=CC)
    try:
        yield
    finally:
        dispatcher.get_current_device = asked


SIGNATURES = "_smemlab_signatures"  # an eager kernel's signatures, as its @cuda.jit(...) gave them


def _declared(fn, name: str, params: list[str], given: dict[str, pyargs.PyArg]):
    """The argument types of the eager signature (`@cuda.jit("void(float32[:], int32)")`) the arguments fit,
    the one a launch with them would run; None for a lazy kernel."""
    from numba.core import sigutils

    declared = getattr(fn, SIGNATURES, None)
    if declared is None:
        return None
    candidates = declared if isinstance(declared, (list, tuple)) and not _is_one_tuple(declared) else [declared]
    tried = []
    for sig in candidates:
        try:
            types_ = sigutils.normalize_signature(sig)[0]
        except Exception:  # noqa: BLE001 - Numba's own parse of the user's text: its message is shown below
            continue
        tried.append("(" + ", ".join(str(t) for t in types_) + ")")
        if len(types_) == len(params) and all(_fits(t, given[p]) for t, p in zip(types_, params)):
            return tuple(types_)
    shown = " or ".join(tried) or repr(declared)
    raise UserError(f"{name} is compiled for {shown} (its @cuda.jit signature), which these --args do not fit: "
                    f"give arrays of those element types and dimensions (e.g. --arg NAME=float32[32,32]) and "
                    f"numbers for the scalars")


def _is_one_tuple(declared) -> bool:
    """`@cuda.jit((float32[:], int32))`: one signature written as a tuple of argument types."""
    return isinstance(declared, tuple) and not any(isinstance(d, str) or type(d).__name__ == "Signature"
                                                   for d in declared)


def _fits(t, a: pyargs.PyArg) -> bool:
    from numba import types
    from numba.np import numpy_support

    if isinstance(t, types.Array):
        if not a.is_array or a.fmt:
            return False
        return t.ndim == len(a.shape) and t.dtype == numpy_support.from_dtype(a.dtype) and \
            t.layout in ("A", a.layout)
    if a.is_array:
        return False
    if a.is_none:
        return isinstance(t, (types.NoneType, types.Optional))
    if isinstance(t, types.Boolean):
        return isinstance(a.value, bool)
    if isinstance(t, types.Integer):
        return not isinstance(a.value, float)
    return isinstance(t, types.Float)


def _array_shape_hint(text: list[str]) -> str:
    """A hint where Numba found no cuda.shared.array / cuda.local.array for a shape that is not a constant
    (`(TILE, TILE + 1)` types as (Literal[int](16), int64): Numba folds no arithmetic on globals)."""
    head = " ".join(text[:4])
    called = re.search(r"<function (shared|local)\.array\b", head)
    shape = re.search(r">>> array\((.*), [^,]*\)\s*$", next((t for t in text if ">>> array(" in t), ""))
    if not called or not shape or not re.search(r"\bu?int(8|16|32|64)\b", re.sub(r"Literal\[\w+\]\(\w+\)", "", shape.group(1))):
        return ""
    return (f" (a cuda.{called.group(1)}.array's shape must be constants Numba knows when it compiles: integer "
            f"literals or global integers, not arithmetic on them inside the kernel; name it at the top level, "
            f"e.g. TILE1 = TILE + 1)")


def _sig_text(params, sig) -> str:
    return "(" + ", ".join(f"{p}: {t}" for p, t in zip(params, sig)) + ")"


def find(path: str, name: str | None):
    """(name, dispatcher) of the `@cuda.jit` kernel `name` in the Python file (its only one if None)."""
    return pyfile.pick(load(path), path, name, is_kernel, "@cuda.jit")


def load(path: str):
    """The Python file as a module, its @cuda.jit kernels lazy."""
    cuda = require()
    jit = cuda.jit

    def lazy(func_or_sig=None, *rest, **options):
        # `@cuda.jit("void(float32[:])")` compiles at import for the GPU present, and there is none: the
        # kernel is made lazy, its signatures kept, and it compiles later for the signature the --args fit
        if isinstance(func_or_sig, (str, list, tuple)) or type(func_or_sig).__name__ == "Signature":
            decorate = jit(*rest, **options)

            def keep(pyfunc):
                made = decorate(pyfunc)
                try:
                    setattr(made, SIGNATURES, func_or_sig)
                except AttributeError:
                    pass
                return made
            return keep
        return jit(func_or_sig, *rest, **options)

    cuda.jit = lazy
    try:
        return pyfile.load(path)
    finally:
        cuda.jit = jit


def analyze(kernel, block, grid=(1, 1, 1), block_index=(0, 0, 0), dynamic_shared: int = 0,
            args: list[str] | None = None, values: dict | None = None, name: str | None = None, **run):
    """`kernel`: a `@cuda.jit` dispatcher, or the path of a Python file holding it (then `name` picks it).
    `args`: --arg texts; `values`: NAME -> NumPy array or number. `run`: max_steps, cluster, time_limit."""
    from smemlab.analyze.session import analyze_unit

    path = shown = None
    if isinstance(kernel, str):
        path = shown = kernel
        name, kernel = find(kernel, name)
    else:
        require()
        if not is_kernel(kernel):
            raise UserError(f"{kernel!r} is not a @cuda.jit kernel")
        name = name or kernel.py_func.__name__
    with pyargs.scratch() as tmp:
        from pathlib import Path

        given = pyargs.merge(args, values, Path(tmp))
        unit, texts = compile_kernel(kernel, name, given, path, shown)
        report = analyze_unit(unit, block, grid, block_index, dynamic_shared, texts, **run)
    report.buffers = pyargs.reshape_buffers(report.buffers, given)
    return report
