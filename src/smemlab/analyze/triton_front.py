"""The front end for Triton: a `@triton.jit` function -> its sm_90 PTX and cubin, compiled as Triton's own
launcher would compile it for the arguments given, and one program of the grid emulated.

The specialisation is Triton's: its binder (the code `kernel[grid](...)` runs) types each argument and marks
pointers aligned to 16 bytes, integers divisible by 16, and turns an integer equal to 1 into a constant, so
the PTX is the one a launch on an H100 would run. A NumPy array stands for a pointer argument (its dtype the
pointer's element type); the emulator's buffers are 1 KiB aligned, as CUDA allocations are. A program is a
block of num_warps warps; the shared memory Triton sized (`global_smem`) is its dynamic shared memory.
Parameters Triton appends (the global and profile scratch pointers) are bound to scratch buffers.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from smemlab.analyze import pyargs, pyfile
from smemlab.analyze.ptx import PTXError, parse_module
from smemlab.analyze.unit import Unit
from smemlab.errors import UserError

EXTRA = 'pip install "smemlab[triton]"'
ALIGN = 256  # GlobalSpace's buffer alignment: data_ptr() % 16 == 0, as the launcher checks
# PTX instructions the emulator does not run -> what they come from and what to do instead
LACKS = {"tcgen05": "Blackwell's tensor cores: compile for sm_90 (--arch sm_90)"}


def require():
    # Triton 3.9 warns once that fusion's default will change; 1 is today's default, what a launch compiles with
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    try:
        import triton
        from triton.backends.compiler import GPUTarget  # noqa: F401
    except ImportError as exc:
        raise UserError(f"analyzing a Triton kernel needs triton ({exc}): {EXTRA}") from None
    return triton


def is_kernel(obj) -> bool:
    """A @triton.jit function, bare or under @triton.autotune / @triton.heuristics."""
    return unwrap(obj)[0] is not None


def _is_jit(obj) -> bool:
    try:
        from triton.runtime.jit import JITFunction
    except ImportError:
        return False
    return isinstance(obj, JITFunction)


@dataclass
class Tuning:
    """What @triton.autotune and @triton.heuristics around a kernel would choose at a launch."""
    configs: list = field(default_factory=list)  # the autotuner's triton.Config list (empty: not autotuned)
    heuristics: dict = field(default_factory=dict)  # NAME -> fn(args dict), outermost decorator's last


def unwrap(obj):
    """(the JITFunction, its Tuning) of a kernel under any @triton.autotune / @triton.heuristics decorators;
    (None, None) for anything else. The decorators only pick constexprs and launch options at run time:
    what is compiled is the JITFunction."""
    tuning = Tuning()
    for _ in range(8):  # decorators nest a few deep at most; a cycle of .fn must not hang the lookup
        if _is_jit(obj):
            return obj, tuning
        name = type(obj).__name__
        # torch.compile's generated kernels sit under @triton_heuristics.pointwise/reduction/...: a CachingAutotuner
        # (DebugAutotuner) holding the JITFunction as .fn and its triton.Config list as .configs, as Autotuner does
        if name.endswith("Autotuner"):
            if not tuning.configs:
                tuning.configs = list(getattr(obj, "configs", None) or [])
        elif name == "Heuristics":
            # the outer decorator runs first, so an inner one's value for the same name wins
            tuning.heuristics = {**tuning.heuristics, **dict(getattr(obj, "values", {}))}
        else:
            return None, None
        obj = getattr(obj, "fn", None)
    return None, None


class _Element:
    """An element type NumPy lacks, named as torch names it: Triton's binder reads its str, a host TensorDescriptor
    its itemsize."""

    def __init__(self, name: str, itemsize: int):
        self.name = name
        self.itemsize = itemsize

    def __str__(self) -> str:
        return self.name


TRITON_ELEMENTS = {"bfloat16": "bfloat16", "e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}


@functools.lru_cache(maxsize=None)
def _element(name: str, itemsize: int) -> _Element:
    """One _Element for each name, kept for the process: Triton's native binder caches a dtype's type string by the
    object's address, as for torch's dtypes (which live as long): a freed stand-in's address taken by another of
    another name gave that one the stale string (a float8 pointer bound as another type, once in a CI run)."""
    return _Element(name, itemsize)


class _Pointer:
    """What the binder asks of a tensor: its dtype and an address (its alignment is what specialises); and
    what a @triton.heuristics function may ask of it, as of a torch tensor (shape, numel, stride, ...)."""

    def __init__(self, dtype: np.dtype, fmt: str | None = None, shape: tuple[int, ...] = (1,)):
        self.dtype = _element(TRITON_ELEMENTS[fmt], np.dtype(dtype).itemsize) if fmt else dtype
        self.shape = tuple(shape)
        self._itemsize = np.dtype(dtype).itemsize  # a bit format's dtype is its bits' (bfloat16: uint16)

    @staticmethod
    def data_ptr() -> int:
        return ALIGN

    def numel(self) -> int:
        return int(np.prod(self.shape))

    def dim(self) -> int:
        return len(self.shape)

    ndim = property(dim)

    def size(self, i: int | None = None):
        return self.shape if i is None else self.shape[i]

    def stride(self, i: int | None = None):
        out = tuple(int(np.prod(self.shape[k + 1:])) for k in range(len(self.shape)))
        return out if i is None else out[i]

    def element_size(self) -> int:
        return self._itemsize


def _constexpr(text: str):
    """NAME=VALUE: an integer, float, True/False, None, a Triton dtype (tl.float16) or else a string
    (ACTIVATION=leaky_relu, PREC=ieee; quotes around it are dropped, so ACTIVATION='' is the empty string)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise UserError(f"--constexpr {text!r}: write NAME=VALUE (e.g. BLOCK=64)")
    v = value.strip()
    if v in ("True", "False", "true", "false"):
        return name.strip(), v.lower() == "true"
    if v == "None":
        return name.strip(), None
    for number in (lambda t: int(t, 0), float):
        try:
            return name.strip(), number(v)
        except ValueError:
            pass
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return name.strip(), v[1:-1]
    dtype = tl_dtype(v)
    return name.strip(), v if dtype is None else dtype


def tl_dtype(text: str):
    """tl.float16 / triton.language.float16 as the dtype object a kernel's `x.to(DTYPE)` takes, else None."""
    for prefix in ("tl.", "triton.language."):
        if text.startswith(prefix):
            import triton.language as tl

            got = getattr(tl, text[len(prefix):], None)
            return got if isinstance(got, tl.dtype) else None
    return None


def compile_kernel(fn, name: str, given: dict[str, pyargs.PyArg], constexprs: dict, num_warps: int,
                   num_stages: int, arch: int = 90, path: str | None = None, shown: str | None = None,
                   refuse: bool = True, programs: int = 1):
    """(unit, --arg texts, shared bytes) for `fn` specialised to the arguments, as Triton's launcher would.
    `refuse`: stop at instructions the emulator does not run (False: the unit all the same, for a tool that
    only launches its cubin, such as the truth recording's build). `programs`: the grid's programs, each of which
    has its own part of the global scratch (Triton's in-kernel tensor descriptors live there), as the launcher
    allocates it."""
    triton = require()
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature

    if _returns_value(fn):
        raise UserError(f"{name} returns a value: it is a @triton.jit helper that kernels call, not a kernel a "
                        f"launch runs; analyze a kernel that calls it (--list names the file's functions)")
    kparams = [p.name for p in fn.params]
    const_names = [p.name for p in fn.params if p.is_constexpr]
    unknown = [c for c in constexprs if c not in const_names]
    if unknown:
        raise UserError(f"--constexpr {unknown[0]}: {name} has no tl.constexpr parameter of that name (its "
                        f"constexpr parameters: {', '.join(const_names) or 'none'})")
    runtime = [p.name for p in fn.params if not p.is_constexpr]
    pyargs.check_names(name, runtime, given, "float32[1024]", pointer_names=True)
    defaults = {p.name for p in fn.params if p.is_constexpr and p.has_default}
    missing = [c for c in const_names if c not in constexprs and c not in defaults]
    if missing:
        raise UserError(f"{name} needs --constexpr for {', '.join(missing)} (e.g. --constexpr {missing[0]}=64)")
    values = _launch_values(given)
    target = GPUTarget("cuda", arch, 32)
    backend = make_backend(target)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    # a kernel parameter named num_stages (Triton's softmax tutorial has one) takes the launch's keyword of that
    # name, so the compile option is never set: Triton's default
    options = {k: v for k, v in (("num_warps", num_warps), ("num_stages", num_stages)) if k not in kparams}
    try:
        # Triton prints a failed ptxas run's whole PTX to stdout, which must hold only the --json object
        with contextlib.redirect_stdout(io.StringIO()):
            bound, spec, opts = binder(**values, **constexprs, **options)
            opts, signature, consts, attrs = fn._pack_args(backend, options, bound, spec, opts)
            compiled = triton.compile(ASTSource(fn, signature, consts, attrs), target=target, options=opts.__dict__)
    except Exception as exc:  # Triton's front end raises CompilationError, ValueError, KeyError...: say it in one line
        said = _failure(exc, fn, shown)
        raise UserError(f"Triton cannot compile {name}: {type(exc).__name__}: {said}"
                        f"{pyfile.undefined_hint(said, getattr(getattr(fn, 'fn', None), '__globals__', None))}") from None
    ptx = compiled.asm["ptx"]
    where = shown or name
    if refuse:
        _refuse(ptx, where)
    try:
        module = parse_module(ptx)
    except PTXError as exc:
        raise UserError(f"{where}: the PTX Triton produced is not understood: {exc}") from None
    symbol = next(iter(module.kernels))
    params = module.kernels[symbol].params
    kept = [n for n in kparams if signature.get(n) not in ("constexpr", None)]
    decls, texts = [], []
    md = compiled.metadata
    metas = iter(getattr(md, "tensordesc_meta", None) or [])
    for n in kept:
        a = given[n]
        if str(signature[n]).startswith("tensordesc"):
            d, t = _descriptor_params(a, next(metas, None), where)
            decls += d
            texts += t
            continue
        if a.block:
            raise UserError(f"--arg {a.text}: {n} is a pointer in {name}, not a tensor descriptor; drop the @block")
        decls.append(f"{a.type_name}* {n}" if a.is_array else f"{'double' if isinstance(a.value, float) else 'long long'} {n}")
        texts.append(a.text)
    scratch = [("__global_scratch", getattr(md, "global_scratch_size", 0)),
               ("__profile_scratch", getattr(md, "profile_scratch_size", 0))]
    for n, size in scratch[: len(params) - len(kept)]:
        decls.append(f"uint8* {n}" if size else f"long long {n}")
        texts.append(f"{n}=uint8[{size * programs}]" if size else f"{n}=0")
    if len(decls) != len(params):
        raise UserError(f"{name}: Triton's kernel has {len(params)} parameters where the arguments make "
                        f"{len(decls)} (a Triton release this front end does not know?)")
    files, sources = pyfile.shown_files(_own_file(module.files, fn), path, shown)
    source = f"__global__ void {symbol}({', '.join(decls)});"
    unit = Unit(module, ptx, compiled.asm.get("cubin", b""), symbol, name, source, where, files, sources, {},
                "triton")
    return unit, texts, int(md.shared)


def _descriptor(a: pyargs.PyArg):
    """Triton's host TensorDescriptor over a C-order array: what the binder types and specialises."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    strides = [s // a.dtype.itemsize for s in a.strides]
    try:
        return TensorDescriptor(_Pointer(a.dtype, a.fmt), list(a.shape), strides, list(a.block), a.padding)
    except AssertionError as exc:
        raise UserError(f"--arg {a.text}@{'x'.join(map(str, a.block))}: not a tensor descriptor Triton takes "
                        f"({exc})") from None


def _descriptor_params(a: pyargs.PyArg, meta: dict | None, where: str) -> tuple[list[str], list[str]]:
    """The kernel parameters a host tensor descriptor becomes, as Triton's launcher passes them
    (backends/nvidia/driver.py make_tensordesc_arg): the CUtensorMap fillTMADescriptorTiled encodes from
    the compiler's tensordesc_meta (swizzle, element size and type, block), then the shape (i32 each) and
    the strides (i64 each, elements)."""
    if meta is None:
        raise UserError(f"{where}: Triton lowered the tensor descriptor {a.name} to pointer arithmetic (no TMA); "
                        f"analyze emulates the TMA form only")
    if meta.get("is_im2col") or meta.get("fp4_padded"):
        raise UserError(f"{where}: {a.name}: im2col and padded fp4 tensor descriptors are not supported")
    if a.padding == "nan" and a.dtype.kind != "f" and a.fmt is None:
        raise UserError(f"--arg {a.name}: a nan padding needs a floating-point array")
    es = int(meta["elem_size"])
    block = list(meta["block_size"])
    strides = [s // a.dtype.itemsize for s in a.strides]
    rank = len(a.shape)
    # the driver's order: innermost first; the outer strides in bytes
    dims = "x".join(str(d) for d in reversed(a.shape))
    gstrides = "x".join(str(s * es) for s in reversed(strides[:-1]))
    box = "x".join(str(b) for b in reversed(block))
    etype = TMA_DTYPE_DEVICE_TO_HOST.get(int(meta["elem_type"]), int(meta["elem_type"]))
    fill = "nan" if a.padding == "nan" else "zero"
    tmap = (f"{a.text}@tensormap(dims={dims},strides={gstrides},box={box},elem={es},type={etype},"
            f"swizzle={int(meta['swizzle'])},fill={fill})")
    decls = [f"CUtensorMap {a.name}"] + [f"int {a.name}__shape{i}" for i in range(rank)] + \
        [f"long long {a.name}__stride{i}" for i in range(rank)]
    texts = [tmap] + [f"{a.name}__shape{i}={d}" for i, d in enumerate(a.shape)] + \
        [f"{a.name}__stride{i}={s}" for i, s in enumerate(strides)]
    return decls, texts


# Triton's device-side element types -> CUtensorMapDataType (backends/nvidia/driver.py TMA_DTYPE_DEVICE_TO_HOST)
TMA_DTYPE_DEVICE_TO_HOST = {8: 10, 9: 8, 10: 9}


def _launch_values(given: dict[str, pyargs.PyArg]) -> dict:
    """What a launch would pass for each argument: a stand-in tensor for an array, None, or the number."""
    return {n: _descriptor(a) if a.block else _Pointer(a.dtype, a.fmt, a.shape) if a.is_array else a.value
            for n, a in given.items()}


def _failure(exc: Exception, fn=None, shown: str | None = None) -> str:
    """The gist of a compile failure: ptxas's error lines (without its temporary file's name); a
    CompilationError's faulty line (FILE:LINE where it is the kernel's own) and message; else the exception's
    last lines."""
    lines = str(exc).strip().splitlines()
    if type(exc).__name__ == "PTXASError":
        errors = [re.sub(r"^\S*ptxas\S*\s+\S+\.ptx,\s*", "ptxas: ", x).strip() for x in lines if "error" in x]
        if errors:
            return " ".join(errors[:3])
    node, src, message = getattr(exc, "node", None), getattr(exc, "src", None), getattr(exc, "error_message", None)
    at = getattr(node, "lineno", None)
    if isinstance(src, str) and isinstance(at, int) and 0 < at <= len(src.split("\n")) and message:
        code = " ".join(src.split("\n")[at - 1].split())
        first = _def_line(fn) if fn is not None and src == getattr(fn, "src", None) else None
        where = f"{Path(shown or fn.fn.__code__.co_filename).name}:{first + at - 1}: " if first else ""
        return f"{where}`{code}`: {' '.join(str(message).split())}"
    return " ".join(lines[-6:])


def _def_line(fn) -> int | None:
    """The file line of a JITFunction's `def` (its `src` starts there; its decorators come before)."""
    import inspect

    try:
        body, first = inspect.getsourcelines(fn.fn)
    except (OSError, TypeError, AttributeError):
        return None
    return next((first + i for i, text in enumerate(body) if text.lstrip().startswith(("def ", "async def "))), None)


def _returns_value(fn) -> bool:
    """Whether the function returns a value (`return x`): a @triton.jit helper, which no launch can run."""
    import ast
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(fn.src))
    except (SyntaxError, TypeError, AttributeError):
        return False
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(tree))


def _own_file(files: dict[int, str], fn) -> dict[int, str]:
    """The PTX's files, the kernel's own file where Triton's cache gave PTX compiled from a copy of it.
    Triton keys its cache on a function's source and first line, not on its file: a kernel file copied
    or moved (another checkout) gets the PTX of the first compile, whose `.file` names the old path
    (gone, or another file's lines). The lines are the same, so a `.file` with the kernel file's name
    is that file."""
    code = getattr(getattr(fn, "fn", None), "__code__", None)
    own = code.co_filename if code is not None else None
    if not own:
        return files
    return {i: own if f != own and Path(f).name == Path(own).name else f for i, f in files.items()}


def _refuse(ptx: str, where: str) -> None:
    """Instructions of Hopper's asynchronous pipeline the emulator does not run: one clear refusal up front."""
    found = sorted({op for op in LACKS if f"\t{op}" in ptx or f" {op}" in ptx})
    if found:
        raise UserError(f"{where}: Triton's PTX uses {', '.join(found)}, which analyze does not emulate yet: "
                        + "; ".join(f"{op}: {LACKS[op]}" for op in found))


class _StandInDriver:
    """What a Triton file asks of the active driver while it imports, answered for the target analysed when
    no GPU is here: the tutorials pick their autotune configs by `driver.active.get_current_target()` in the
    decorator of the kernel itself, and look the device up at the top level. Anything else a file asks of it
    (device properties, a benchmark) fails as it would with no GPU, and that statement is skipped."""

    def __init__(self, arch: int):
        self.arch = arch

    def get_current_target(self):
        from triton.backends.compiler import GPUTarget

        return GPUTarget("cuda", self.arch, 32)

    @staticmethod
    def get_current_device() -> int:
        return 0

    @staticmethod
    def get_active_torch_device():
        import torch

        return torch.device("cuda", 0)

    @staticmethod
    def get_device_interface():
        import torch

        return torch.cuda


@contextlib.contextmanager
def _driver(arch: int = 90):
    """Triton's active driver while a file imports: the real one where a GPU is, else a stand-in."""
    from triton.runtime import driver

    try:
        driver.active  # noqa: B018 - looking it up is what fails with no GPU
    except RuntimeError:
        held = driver._active
        driver.set_active(_StandInDriver(arch))
        try:
            yield
        finally:
            driver._active = held
        return
    yield


def load(path: str):
    """The Python file as a module, with Triton's driver answering as analyze's target (_driver)."""
    require()
    with _driver():
        return pyfile.load(path)


def find(path: str, name: str | None):
    """(name, JITFunction) of the @triton.jit kernel `name` in the Python file (its only one if None)."""
    name, fn, _ = find_tuned(path, name)
    return name, fn


def find_tuned(path: str, name: str | None):
    """(name, JITFunction, Tuning): the kernel with what its autotune / heuristics decorators would pick."""
    name, obj = pyfile.pick(load(path), path, name, is_kernel, "@triton.jit")
    fn, tuning = unwrap(obj)
    return name, fn, tuning


def _tune(fn, name: str, tuning: Tuning | None, given: dict[str, pyargs.PyArg], constexprs: dict,
          num_warps: int | None, num_stages: int | None):
    """The constexprs and launch options a launch would use: the user's, then (for what they left out) the
    autotuner's first config, then the heuristics' values. Returns them with a note of each choice made."""
    constexprs, chosen = dict(constexprs), []
    params = {p.name for p in fn.params if p.is_constexpr}
    if tuning is not None and tuning.configs:
        cfg = tuning.configs[0]
        taken = {k: v for k, v in cfg.kwargs.items() if k in params and k not in constexprs}
        if taken or (not cfg.kwargs and num_warps is None and num_stages is None):
            constexprs.update(taken)
            num_warps = cfg.num_warps if num_warps is None else num_warps
            num_stages = cfg.num_stages if num_stages is None else num_stages
            picked = ", ".join([f"{k}={v!r}" for k, v in taken.items()] +
                               [f"num_warps={num_warps}", f"num_stages={num_stages}"])
            chosen.append(f"{name} is autotuned over {len(tuning.configs)} configs; the first one's values were "
                          f"taken for what was not given ({picked}): give --constexpr, --num-warps and "
                          f"--num-stages to analyze another")
    if tuning is not None and tuning.heuristics:
        user = set(constexprs)
        known = {**_launch_values(given), **constexprs, "num_warps": num_warps or 4, "num_stages": num_stages or 3}
        for k, h in tuning.heuristics.items():
            if k in user or (k not in params and k not in ("num_warps", "num_stages")):
                continue
            try:
                v = h(dict(known))
            except Exception as exc:  # the user's lambda: any error it raises is theirs to see, in one line
                raise UserError(f"{name}: its @triton.heuristics value for {k} failed on these arguments "
                                f"({type(exc).__name__}: {exc}); give --constexpr {k}=VALUE") from None
            if k == "num_warps":
                num_warps = int(v)
            elif k == "num_stages":
                num_stages = int(v)
            else:
                constexprs[k] = v
            known[k] = v
            chosen.append(f"{name}'s @triton.heuristics set {k}={v!r}")
    return constexprs, (4 if num_warps is None else num_warps), (3 if num_stages is None else num_stages), chosen


def program_block(unit, num_warps: int) -> tuple[int, int, int]:
    """The threads of one program: num_warps warps, or the block the PTX requires (.reqntid), which warp
    specialisation makes larger (a producer warp group beside the num_warps consumers: 384 threads for 4)."""
    need = unit.module.kernels[unit.symbol].reqntid
    if need:
        return tuple(need) + (1,) * (3 - len(need))
    return (32 * int(num_warps), 1, 1)


def _launch_keywords_as_params(fn, name: str, constexprs: dict, num_warps, num_stages):
    """A kernel with a parameter named num_warps or num_stages (the softmax tutorial's `num_stages: tl.constexpr`):
    a launch's `num_stages=2` binds to the parameter, not to the compile option, which keeps Triton's default.
    So --num-stages gives the parameter its value where --constexpr does not; returns the options left and notes."""
    params = {p.name: p for p in fn.params}
    notes, left = [], {"num_warps": num_warps, "num_stages": num_stages}
    for option, value in list(left.items()):
        p = params.get(option)
        if p is None:
            continue
        flag = "--" + option.replace("_", "-")
        if value is not None and p.is_constexpr and option not in constexprs:
            constexprs[option] = int(value)
            notes.append(f"{name} has a parameter named {option}: {flag} {value} is its value, as a launch's "
                         f"{option}={value} keyword is, and Triton compiles with its default {option}")
        elif value is not None:
            notes.append(f"{name} has a parameter named {option}, which a launch's {option} keyword sets: "
                         f"{flag} {value} is not a compile option Triton can take here; its default is used")
        left[option] = None
    return left["num_warps"], left["num_stages"], notes


def analyze(kernel, grid=(1, 1, 1), *positional, name: str | None = None, args: list[str] | None = None,
            values: dict | None = None, constexprs=None, num_warps: int | None = None,
            num_stages: int | None = None, program=(0, 0, 0), arch: int = 90, **run):
    """`kernel`: a `@triton.jit` function (under @triton.autotune / @triton.heuristics too) or the path of a
    Python file holding it. Arguments: `args` (--arg texts), `values` (NAME -> NumPy array or number) or
    `positional` (the non-constexpr parameters in order); `constexprs`: NAME -> value, or NAME=VALUE texts.
    num_warps, num_stages: None takes an autotuned kernel's first config's, else 4 and 3.
    `program`: the program id emulated."""
    from smemlab.analyze.session import analyze_unit

    path = shown = None
    if isinstance(kernel, str):
        path = shown = kernel
        name, kernel, tuning = find_tuned(kernel, name)
    else:
        require()
        jit, tuning = unwrap(kernel)
        if jit is None:
            raise UserError(f"{kernel!r} is not a @triton.jit function")
        kernel = jit
        name = name or kernel.fn.__name__
    if isinstance(constexprs, (list, tuple)):
        constexprs = dict(_constexpr(t) for t in constexprs)
    values = dict(values or {})
    if positional:
        runtime = [p.name for p in kernel.params if not p.is_constexpr]
        if len(positional) > len(runtime):
            raise UserError(f"{name} takes {len(runtime)} arguments besides its constexprs; {len(positional)} given")
        values.update(zip(runtime, positional))
    for n, v in (("num_warps", num_warps), ("num_stages", num_stages)):
        if v is not None and int(v) < 1:
            raise UserError(f"--{n.replace('_', '-')} must be at least 1")
    with pyargs.scratch() as tmp:
        given = pyargs.merge(args, values, Path(tmp))
        constexprs = dict(constexprs or {})
        # `--arg BLOCK=256` for a tl.constexpr parameter: a launch passes constexprs as arguments too
        for p in kernel.params:
            a = given.get(p.name)
            if p.is_constexpr and a is not None and not a.is_array:
                if p.name in constexprs:
                    raise UserError(f"{p.name} is given twice, as --arg and as --constexpr")
                constexprs[p.name] = given.pop(p.name).value
        num_warps, num_stages, clashes = _launch_keywords_as_params(kernel, name, constexprs, num_warps, num_stages)
        constexprs, num_warps, num_stages, chosen = _tune(kernel, name, tuning, given, constexprs, num_warps,
                                                          num_stages)
        chosen = clashes + chosen
        unit, texts, shared = compile_kernel(kernel, name, given, constexprs, int(num_warps),
                                             int(num_stages), arch, path, shown, programs=math.prod((grid,) if isinstance(grid, int) else grid))
        report = analyze_unit(unit, program_block(unit, num_warps), grid, program, shared, texts, **run)
    report.buffers = pyargs.reshape_buffers(report.buffers, given)
    report.chosen = chosen
    report.front_end = "triton"
    return report


__all__ = ["analyze", "find", "is_kernel"]
