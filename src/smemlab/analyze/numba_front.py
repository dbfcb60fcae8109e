"""The front end for Numba: a `@cuda.jit` function -> sm_90 PTX through NVVM (its .loc lines are the
Python lines), the cubin ptxas makes of it, and a C signature that names Numba's parameters.

Numba passes an array as its whole struct, one PTX parameter a field: meminfo, parent, nitems, itemsize,
data, then shape[ndim] and strides[ndim] (in bytes). The synthetic signature names the data pointer as
the argument (`inp`), so the buffer, its seeded fill and its contents afterwards carry the user's name,
and the other fields `inp__shape0` and so on, bound to the array's C-order layout; meminfo and parent
are never read by device code and are 0.
"""

from __future__ import annotations

import contextlib
import inspect
import types

import numpy as np

from smemlab.analyze import nvcc, pyargs, pyfile
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
        return types.Array(numpy_support.from_dtype(a.dtype), len(a.shape), "C")
    return types.float64 if isinstance(a.value, float) else types.int64


def _fields(a: pyargs.PyArg) -> list[tuple[str, str, str]]:
    """(parameter name, C declaration type, --arg text) of each PTX parameter the argument becomes."""
    n = a.name
    if not a.is_array:
        return [(n, "double" if isinstance(a.value, float) else "long long", a.text)]
    count = int(np.prod(a.shape))
    out = [(f"{n}__meminfo", "long long", f"{n}__meminfo=0"), (f"{n}__parent", "long long", f"{n}__parent=0"),
           (f"{n}__nitems", "long long", f"{n}__nitems={count}"),
           (f"{n}__itemsize", "long long", f"{n}__itemsize={a.dtype.itemsize}"),
           (n, f"{a.dtype.name}*", a.text)]
    out += [(f"{n}__shape{i}", "long long", f"{n}__shape{i}={d}") for i, d in enumerate(a.shape)]
    out += [(f"{n}__stride{i}", "long long", f"{n}__stride{i}={s}") for i, s in enumerate(a.strides)]
    return out


def compile_kernel(fn, name: str, given: dict[str, pyargs.PyArg], path: str | None = None,
                   shown: str | None = None) -> tuple[Unit, list[str]]:
    """The unit for `fn` specialised to the arguments' types, and the --arg texts that bind it."""
    cuda = require()
    params = parameters(fn)
    pyargs.check_names(name, params, given, "float32[32,32]")
    sig = tuple(_numba_type(given[p]) for p in params)
    try:
        with _no_device():
            ptx, _ = cuda.compile_ptx(fn.py_func, sig, cc=CC, lineinfo=True)
    except Exception as exc:  # Numba's typing and lowering errors are many classes; the message is what helps
        text = str(exc).strip().splitlines()
        raise UserError(f"Numba cannot compile {name}{_sig_text(params, sig)}: "
                        f"{type(exc).__name__}: {' '.join(text[:6])}") from None
    where = shown or name
    try:
        module = parse_module(ptx)
    except PTXError as exc:
        raise UserError(f"{where}: the PTX Numba produced is not understood: {exc}") from None
    if len(module.kernels) != 1:
        raise UserError(f"{where}: Numba's PTX for {name} holds {len(module.kernels)} kernels, expected one")
    symbol = next(iter(module.kernels))
    fields = [f for p in params for f in _fields(given[p])]
    if len(fields) != len(module.kernels[symbol].params):
        raise UserError(f"{name}: Numba's kernel has {len(module.kernels[symbol].params)} parameters where its "
                        f"arguments' layout makes {len(fields)} (an argument type this front end does not know?)")
    cubin = nvcc.assemble(ptx, where)
    files, sources = pyfile.shown_files(module.files, path, shown)
    source = f"__global__ void {name}({', '.join(f'{t} {n}' for n, t, _ in fields)});"
    unit = Unit(module, ptx, cubin, symbol, name, source, where, files, sources, {}, "numba")
    return unit, [text for _, _, text in fields]


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
        # signature is dropped, so the kernel compiles later for the types the --args give
        if isinstance(func_or_sig, (str, list, tuple)) or type(func_or_sig).__name__ == "Signature":
            return jit(*rest, **options)
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
