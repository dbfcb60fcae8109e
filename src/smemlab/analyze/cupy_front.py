"""CuPy kernels in a user's Python file: the `cupy.RawKernel` and `cupy.RawModule` objects the file makes,
analysed from their CUDA source as CuPy compiles it (NVRTC, the object's options), no GPU needed.

The file is imported as the Numba and Triton front ends import theirs (pyfile.load: a top-level statement that
needs the GPU is skipped). Where CuPy is not installed, a stand-in `cupy` module records what the file's
RawKernel and RawModule calls were given, so that an analyze-only install takes these files too. The rows are
the Python file's own lines where the kernel's text sits in it verbatim (a raw or plain string literal,
matched line by line), in a module beside it that it imports, or in a CUDA file it names (a kernel read from a
.cu file), else `FILE.py[VARIABLE]:N`, N the line within
the kernel's text.

ElementwiseKernel, ReductionKernel and cupy.fuse functions are refused: CuPy writes their CUDA code when they
are first called, for the argument types of that call, so there is no source in the file to analyse.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from smemlab.analyze import pyfile
from smemlab.errors import UserError

RAW = ("RawKernel", "RawModule")
_WRITE_IT = ("Write the kernel as a cupy.RawKernel, or analyse the code CuPy generates (saved with "
             "CUPY_CACHE_SAVE_CUDA_SOURCE=1 in CuPy's kernel cache)")
GENERATED = ("ElementwiseKernel", "ReductionKernel", "Fusion")  # Fusion: what cupy.fuse makes of a function


@dataclass(frozen=True)
class CupyKernel:
    variable: str  # the file's name for the object
    kernel: str | None  # the kernel's name in the code (a RawKernel's), None: --kernel must name one (a RawModule's)
    code: str
    options: tuple[str, ...]
    backend: str  # "nvrtc" or "nvcc", as CuPy compiles it
    names: tuple[str, ...] = ()  # a RawModule's kernels, as get_function names them (its name expressions too)

    @property
    def only(self) -> str | None:
        """The kernel this object compiles where it names one: a RawKernel's, or a RawModule's only kernel."""
        return self.kernel or (self.names[0] if len(self.names) == 1 else None)


def mentions(path: str) -> bool:
    """Whether the file may make CuPy kernels (read before importing it: a Numba file is not imported twice)."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return False
    return "cupy" in text and any(word in text for word in RAW + GENERATED + (".fuse", "import fuse"))


def load(path: str) -> ModuleType:
    """The file as a module; with the stand-in `cupy` where CuPy is not installed."""
    try:
        import cupy  # noqa: F401  (importing CuPy needs no GPU)
        return pyfile.load(path)
    except ImportError:
        pass
    saved = sys.modules.get("cupy")
    sys.modules["cupy"] = _standin()
    try:
        return pyfile.load(path)
    finally:
        if saved is None:
            sys.modules.pop("cupy", None)
        else:
            sys.modules["cupy"] = saved


def kernels(module: ModuleType) -> tuple[dict[str, CupyKernel], dict[str, str]]:
    """({name: kernel} of the module's RawKernel and RawModule objects, by variable and by kernel name;
    {name: class} of its ElementwiseKernel and ReductionKernel objects)."""
    found, generated = {}, {}
    for var, obj in vars(module).items():
        kind = type(obj).__name__
        if kind in GENERATED and _from_cupy(obj):
            generated[var] = kind
            name = getattr(obj, "name", None)
            if isinstance(name, str):
                generated[name] = kind
            continue
        if kind not in RAW or not _from_cupy(obj):
            continue
        k = from_object(obj, var)
        if k is None:
            continue  # a RawModule made from a cubin or PTX file (path=): no source
        found[var] = k
        if k.kernel:
            found.setdefault(k.kernel, k)
    return found, generated


def from_object(obj, variable: str = "") -> CupyKernel | None:
    """What a CuPy RawKernel or RawModule object (or any object holding CUDA source in `.code`) compiles: its code,
    its kernel's name (a RawModule's: None), options and backend; None where it holds no source."""
    code = getattr(obj, "code", None)
    if not isinstance(code, str):
        return None
    module = type(obj).__name__ == "RawModule"
    name = None if module else getattr(obj, "name", None)
    names = module_kernels(code, getattr(obj, "name_expressions", None) or ()) if module else ()
    return CupyKernel(variable, name, code, tuple(str(o) for o in getattr(obj, "options", ()) or ()),
                      str(getattr(obj, "backend", "nvrtc") or "nvrtc"), names)


def module_kernels(code: str, name_expressions=()) -> tuple[str, ...]:
    """The kernels a RawModule of `code` offers get_function: its name expressions (template instances), then the
    `__global__` functions that are no templates, in the order the code defines them."""
    from smemlab.analyze.unit import plain_kernels

    return tuple(dict.fromkeys([str(e) for e in name_expressions] + plain_kernels(code)))


def pick(path: str, name: str | None) -> tuple[CupyKernel, str | None] | None:
    """(the CuPy kernel `--kernel name` means, the kernel name to compile), or None where the file has none
    of that name (then it is the Numba front end's)."""
    module = load(path)
    found, generated = kernels(module)
    numba = "cuda.jit" in Path(path).read_text(errors="replace")
    if not found and not generated and not numba:
        raise UserError(f"{path}: no cupy.RawKernel or cupy.RawModule made from CUDA source at the file's top level "
                        "(one made inside a function, or from a cubin or PTX file, is not seen: pass the object to "
                        "smemlab.analyze.source, or its source file to smemlab analyze)")
    if name is not None and name in generated:
        raise UserError(f"--kernel {name}: {_what(generated[name])}, whose CUDA code CuPy writes when it is first "
                        f"called: there is no source to analyse. {_WRITE_IT}")
    if name is None and numba and found:
        # a file with @cuda.jit kernels as well: taking its one CuPy kernel would pass over them in silence
        from smemlab.analyze import numba_front

        jitted = sorted(n for n, v in vars(module).items()
                        if numba_front.is_kernel(v) and pyfile.defined_here(v, module))
        if jitted:
            raise UserError(f"{path} has {len(jitted)} @cuda.jit and {len({id(k) for k in found.values()})} CuPy "
                            f"kernels ({', '.join(jitted + sorted(_shown(found)))}): name one with --kernel")
    if name is None and generated and not found and not numba:
        # nothing but kernels CuPy writes itself: say so, not "0 @cuda.jit kernels"
        objs = sorted({f"{v} ({_what(generated[v])})" for v in generated if v in vars(module)})
        raise UserError(f"{path}: no kernel to analyse: {', '.join(objs)}: CuPy writes their CUDA code when they are "
                        f"first called. {_WRITE_IT}")
    if name is None:
        distinct = {id(k): k for k in found.values()}
        if len(distinct) == 1:
            k = next(iter(distinct.values()))
            if k.only is None:
                raise UserError(f"{path}: the cupy.RawModule {k.variable} holds {_kernels_of(k)}: name one with "
                                "--kernel")
            return k, k.only  # a module of one kernel is that one, as a RawKernel is
        if distinct:
            raise UserError(f"{path} has {len(distinct)} CuPy kernels ({', '.join(sorted(_shown(found)))}): name one "
                            "with --kernel")
        return None
    var, dot, inner = name.partition(".")
    if dot and var in found and found[var].kernel is None:  # MODULE.KERNEL: a kernel of that RawModule
        return found[var], inner
    got = _get_function(path).get(name)
    if got is not None and got[0] in found and found[got[0]].kernel is None:
        return found[got[0]], got[1]  # `k = module.get_function("name")`: a statement skipped without a GPU
    failed = _failed(module, path, name)
    if failed is not None:  # else the kernel-name lookup below may take another object made from the same code
        raise UserError(f"--kernel {name}: the statement that makes it did not run: {failed}")
    if name in found:
        k = found[name]
        if k.only is None:
            raise UserError(f"--kernel {name}: a cupy.RawModule of {_kernels_of(k)}; name one of its kernels with "
                            "--kernel (as get_function names it)")
        if k.kernel is None:
            return k, k.only
        same = sorted({v.variable for v in found.values() if v.kernel == name})
        if k.variable != name and len(same) > 1:  # a kernel name several RawKernels share (their options differ)
            raise UserError(f"--kernel {name}: the file's cupy.RawKernel objects {', '.join(same)} all compile it: "
                            "name one by its variable")
        return k, k.kernel
    modules = [k for k in {id(k): k for k in found.values()}.values() if k.kernel is None]
    holding = [k for k in modules if name.split("<")[0].strip() in k.code]
    if len(holding) == 1:  # a kernel of a RawModule, as get_function(name) would find it
        return holding[0], name
    if len(holding) > 1:
        raise UserError(f"--kernel {name}: the file's cupy.RawModule objects {', '.join(k.variable for k in holding)} "
                        "all hold it: name it as MODULE.KERNEL")
    if found and not numba:  # no Numba kernel it could mean
        raise UserError(f"--kernel {name}: {path} has no CuPy kernel of that name (its CuPy kernels: "
                        f"{', '.join(sorted(_shown(found)))})")
    return None


def analyze(path: str, found: CupyKernel, kernel: str, block, grid=(1, 1, 1), block_index=(0, 0, 0),
            dynamic_shared: int = 0, args: list[str] | None = None, **run):
    """The kernel's launch analysed from its source, compiled as CuPy compiles it; rows on the file's lines."""
    from smemlab.analyze.api import _stable_file
    from smemlab.analyze.session import analyze_source

    offset, shown = _place(path, found)
    source = _stable_file("\n" * offset + found.code)  # the kernel's lines on the Python file's numbers
    try:
        report = analyze_source(str(source), kernel, block, grid, block_index, dynamic_shared, args,
                                options=_cupy_options(found.options),
                                compiler="nvcc" if found.backend == "nvcc" else "nvrtc", **run)
    except UserError as exc:
        text = str(exc).replace(str(source), shown)
        if found.kernel is not None:  # "the file" is the RawKernel's code here: say where the name came from
            text = text.replace(f"--kernel {kernel}: the file has no kernel of that name",
                                f"--kernel {kernel}: the cupy.RawKernel {found.variable} is given the name {kernel!r}, "
                                "but its code has no kernel of that name (CuPy looks the name up as it is: a kernel "
                                "without extern \"C\" has a mangled one)")
        raise type(exc)(text) from None
    report.files = {i: shown if f == str(source) else f for i, f in report.files.items()}
    return report


def _cupy_options(options: tuple[str, ...]) -> list[str]:
    """The options CuPy compiles the kernel with: the object's, and what CuPy adds to every RawKernel (its headers,
    `<cupy/complex.cuh>` among them, its CCCL, the C++ standard) where CuPy is installed."""
    try:
        from cupy._core.core import assemble_cupy_compiler_options
    except ImportError:
        return list(options)
    try:
        return [str(o) for o in assemble_cupy_compiler_options(tuple(options))]
    except Exception:  # noqa: BLE001 - a private helper of CuPy's that may change: the object's own options
        return list(options)


def _place(path: str, found: CupyKernel) -> tuple[int, str]:
    """(lines before the kernel's text in the file, the name its rows take): the file's own name where the text
    sits in it line by line (a plain string's escapes may differ on a few lines), else the name of a module of
    the script's folder that the script imports and that holds it (`from kernels import SRC`), else
    FILE.py[VARIABLE]."""
    code = found.code.splitlines()
    first = next((i for i, ln in enumerate(code) if ln.strip()), None)
    if first is not None:
        wanted = [ln.strip() for ln in code]
        for candidate in [path] + _companions(path):
            try:
                lines = Path(candidate).read_text(errors="replace").splitlines()
            except OSError:
                continue
            for start in range(len(lines)):
                if not _same(lines[start], wanted[first]):
                    continue
                top = start - first
                if top < 0 or top + len(code) > len(lines):
                    continue
                written = [(i, w) for i, w in enumerate(wanted) if w]  # the text's first line shares the quote's
                same = sum(_same(lines[top + i], w) for i, w in written)
                if same >= 0.9 * len(written):
                    return top, candidate
    return 0, f"{path}[{found.variable}]"


def _companions(path: str) -> list[str]:
    """The files besides the script whose text a kernel's may be: the modules of the script's folder that its
    top-level `import X` and `from X import ...` statements name (a kernel's text kept as a constant there), then
    the CUDA files it names in a string (`open("kernels/scan.cu").read()`, `Path(__file__).parent / "scan.cu"`).
    Relative CUDA names are taken from the script's folder, then from the working directory, then (a bare file
    name) from the folders one or two levels below the script's."""
    import ast

    try:
        tree = ast.parse(Path(path).read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []
    folder = Path(path).parent
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    modules = [folder / (n.replace(".", "/") + ".py") for n in names]
    out = [str(f) for f in modules if f.is_file() and f.resolve() != Path(path).resolve()]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith(_SOURCE_SUFFIXES) \
                and "\n" not in node.value:
            found = [base / node.value for base in (folder, Path.cwd()) if (base / node.value).is_file()]
            if not found and "/" not in node.value:  # a name joined to folders given apart: `dir / "k" / "a.cu"`
                found = [f for depth in ("*/", "*/*/") for f in sorted(folder.glob(depth + node.value))]
            out += [str(f) for f in found[:1] if str(f) not in out]
    return out


_SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cuda")


def _same(line: str, wanted: str) -> bool:
    """Whether the file's line holds the kernel's line: as written (a raw string), or with a plain string's
    escapes undone (`printf("%d\\n", i)` in a plain string is `printf("%d\n", i)` in the kernel's text; a short
    kernel with one such line would otherwise miss the 90% it needs and lose the file's line numbers)."""
    line = line.strip()
    if line == wanted:
        return True
    if "\\" not in line:
        return False
    try:
        return line.encode("latin-1", "backslashreplace").decode("unicode_escape") == wanted
    except (UnicodeDecodeError, UnicodeEncodeError):
        return False


def _failed(module: ModuleType, path: str, variable: str) -> str | None:
    """Where the top-level statement assigning `variable` failed while the file was imported (and the name is
    not bound since): what failed, on which line. A RawKernel given options as a list, say, raises TypeError
    in CuPy; with a GPU the script stops there, and the kernel is not to be analysed as if it ran."""
    import ast

    got = getattr(module, pyfile._STOPPED, None)
    if got is None or variable in vars(module):
        return None
    what, line, skipped = got
    try:
        tree = ast.parse(Path(path).read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == variable
                                                     for t in stmt.targets)):
            continue
        if line is not None and stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
            return f"line {line} {what}"
        if stmt.lineno in skipped:
            return f"line {stmt.lineno} failed when imported with no GPU"
    return None


def _get_function(path: str) -> dict[str, tuple[str, str]]:
    """{variable: (module variable, kernel name)} of the file's top-level `k = module.get_function("name")`
    statements: the call needs a GPU (it loads the module), so without one k is never made, yet the script's
    author knows the kernel by it."""
    import ast

    try:
        tree = ast.parse(Path(path).read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return {}
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "get_function" \
                and isinstance(call.func.value, ast.Name) and len(call.args) == 1 \
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            out[node.targets[0].id] = (call.func.value.id, call.args[0].value)
    return out


def _kernels_of(k: CupyKernel) -> str:
    """`k`'s kernels for a message: "kernels M.a, M.b" (or that none were found in its text)."""
    if not k.names:
        return "kernels this reading did not find (template kernels with no name_expressions)"
    return f"kernel{'s' if len(k.names) > 1 else ''} {', '.join(f'{k.variable}.{n}' for n in k.names)}"


def _what(kind: str) -> str:
    return "a cupy.fuse function" if kind == "Fusion" else f"a cupy.{kind}"


def _shown(found: dict[str, CupyKernel]) -> list[str]:
    return [k.kernel or k.variable for k in {id(k): k for k in found.values()}.values()]


def _from_cupy(obj) -> bool:
    return type(obj).__module__.split(".")[0] in ("cupy", "cupy_backends", _STANDIN)


_STANDIN = "_smemlab_cupy_standin"


def _standin() -> ModuleType:
    """A `cupy` that records RawKernel, RawModule, ElementwiseKernel and ReductionKernel calls; any other name
    raises AttributeError, so the statement using it is skipped as GPU work is."""
    module = ModuleType("cupy")

    class _Recorded:
        def __init__(self, *args, **kwargs):
            self.args, self.kwargs = args, kwargs

    class RawKernel(_Recorded):
        def __init__(self, code, name, options=(), backend="nvrtc", **kwargs):
            super().__init__(code, name)
            self.code, self.name, self.options, self.backend = code, name, tuple(options), backend

    class RawModule(_Recorded):
        def __init__(self, code=None, path=None, options=(), backend="nvrtc", name_expressions=None, **kwargs):
            super().__init__()
            self.code, self.options, self.backend = code, tuple(options), backend
            self.name_expressions = name_expressions

    class ElementwiseKernel(_Recorded):
        def __init__(self, in_params, out_params, operation, name="kernel", **kwargs):
            super().__init__(in_params, out_params, operation)
            self.name = name

    class ReductionKernel(_Recorded):
        def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                     **kwargs):
            super().__init__(in_params, out_params, map_expr)
            self.name = name

    class Fusion(_Recorded):
        def __init__(self, func, name=None):
            super().__init__(func)
            self.name = name or getattr(func, "__name__", "fusion")

    def fuse(*args, **kwargs):  # @cupy.fuse, @cupy.fuse() and @cupy.fuse(kernel_name=...), as CuPy takes them
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return Fusion(args[0])
        return lambda func: Fusion(func, kwargs.get("kernel_name"))

    for cls in (RawKernel, RawModule, ElementwiseKernel, ReductionKernel, Fusion):
        cls.__module__ = _STANDIN
        setattr(module, cls.__name__, cls)
    module.fuse = fuse

    def __getattr__(name):
        raise AttributeError(f"smemlab's stand-in for CuPy (not installed here) has no {name}")

    module.__getattr__ = __getattr__
    return module
