"""A user's Python file, imported as a module to find the kernel functions in it.

The file is imported under a name of its own (never `__main__`), so what it runs under
`if __name__ == "__main__":` (a launch, a benchmark) does not run; its folder is on sys.path while it
imports, so that it finds its neighbours as `python FILE.py` would. A statement that fails at the top
level (GPU work, with no GPU here) is skipped, and the import goes on (load).
"""

from __future__ import annotations

import contextlib
import importlib.util
import linecache
import re
import sys
import zlib
from pathlib import Path
from types import ModuleType

from smemlab.errors import UserError


def load(path: str) -> ModuleType:
    p = Path(path)
    if not p.is_file():
        raise UserError(f"{path!r}: no such file")
    name = f"_smemlab_user_{p.stem}_{zlib.crc32(str(p.resolve()).encode()):08x}"
    spec = importlib.util.spec_from_file_location(name, p.resolve())
    if spec is None or spec.loader is None:
        raise UserError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    folder = str(p.resolve().parent)
    sys.path.insert(0, folder)
    sys.modules[name] = module  # dataclasses and decorators look their module up while it imports
    # what the file prints as it imports goes to stderr: stdout holds only the report (--json: one object)
    with contextlib.redirect_stdout(sys.stderr):
        _import(spec, module, p, folder)
    return module


def _import(spec, module: ModuleType, p: Path, folder: str) -> None:
    try:
        spec.loader.exec_module(module)
    except UserError:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the user's module may raise anything while it imports
        # A script does GPU work at the top level (torch's device="cuda", Triton's active driver,
        # cuda.to_device, a launch), which fails with no GPU. The import goes on past the statement that
        # failed, one top-level statement at a time, skipping each that fails, so that every kernel the file
        # defines is there; what failed is noted.
        what = "called exit()" if isinstance(exc, SystemExit) else f"failed: {_said(exc)}"
        line = _line_in(exc, p.resolve())
        skipped = _go_on(module, p.resolve(), line)
        setattr(module, _STOPPED, (what, line, skipped))
        getattr(module, _FAILURES).setdefault(line, what.removeprefix("failed: "))
    finally:
        sys.path.remove(folder)


def _said(exc: BaseException) -> str:
    """An exception of the user's code in one line: 'TypeError: what it says'."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


_STOPPED = "__smemlab_import_stopped__"
_FAILURES = "__smemlab_import_failures__"  # line -> what its top-level statement raised
_NOTED: set[tuple[str, str]] = set()  # (file, kernel) whose import notes were written
_UNDECORATED = "__smemlab_undecorated__"  # name -> the decorators it was defined without, and why


def _line_in(exc: BaseException, path: Path) -> int | None:
    """The line of the module's top-level statement that raised `exc` (its frame of the file's own code)."""
    line, tb = None, exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        try:
            if code.co_name == "<module>" and Path(code.co_filename).resolve() == path:
                line = tb.tb_lineno
        except OSError:
            pass
        tb = tb.tb_next
    return line


def _go_on(module: ModuleType, path: Path, failed: int | None) -> list[int]:
    """Run the top-level statements after the one holding line `failed`, each on its own; returns the
    lines of those that raised (skipped)."""
    import __future__
    import ast

    failures, undecorated = {}, {}
    setattr(module, _FAILURES, failures)
    setattr(module, _UNDECORATED, undecorated)
    if failed is None:
        return []
    try:
        tree = ast.parse(path.read_text(), str(path))
    except (OSError, SyntaxError, ValueError):
        return []
    flags = __future__.annotations.compiler_flag if \
        module.__dict__.get("annotations") is __future__.annotations else 0

    def run(body, mode="exec"):
        tree = ast.Module(body=body, type_ignores=[]) if mode == "exec" else ast.Expression(body=body)
        code = compile(tree, str(path), mode, flags=flags, dont_inherit=True)
        return eval(code, module.__dict__) if mode == "eval" else exec(code, module.__dict__)  # noqa: S102, S307

    skipped = []
    for stmt in tree.body:
        if stmt.lineno <= failed and not _holds_decorator_line(stmt, failed):
            continue
        try:
            run([stmt])  # the user's own file, which they asked to import
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a statement of the user's that fails with no GPU: skipped
            failures[stmt.lineno] = _said(exc)
            dropped = _define_undecorated(stmt, run, module.__dict__) if getattr(stmt, "decorator_list", None) else None
            if dropped:
                undecorated[stmt.name] = dropped
            else:
                skipped.append(stmt.lineno)
    return skipped


def _holds_decorator_line(stmt, line: int) -> bool:
    """Whether `line` is in a decorator of definition `stmt` (where the import stopped: a decorator that needs
    a GPU, `@triton.autotune(configs=[c for c in configs if keep(c)])` asking torch for the device)."""
    return any(d.lineno <= line <= (d.end_lineno or d.lineno) for d in getattr(stmt, "decorator_list", ()))


def _define_undecorated(stmt, run, namespace: dict) -> list[str] | None:
    """Define the function or class of `stmt` with the decorators that raise left out, applied innermost
    first as Python does; returns those left out ('@text: error'), or None where the definition fails even so
    or no decorator failed."""
    import ast
    import copy

    bare = copy.copy(stmt)
    bare.decorator_list = []
    try:
        run([bare])
    except BaseException:  # noqa: BLE001 - its body fails too: the statement is skipped
        return None
    obj, dropped = namespace[stmt.name], []
    for d in reversed(stmt.decorator_list):
        try:
            obj = run(d, "eval")(obj)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a decorator that needs a GPU or torch: left out
            dropped.append(f"@{ast.unparse(d)} ({_said(exc)})")
    if not dropped:
        return None
    namespace[stmt.name] = obj
    return dropped


def _stopped(module: ModuleType, path: str) -> str | None:
    got = getattr(module, _STOPPED, None)
    if got is None:
        return None
    what, line, skipped = got
    text = f"{path}: importing it {what}" + (f" (line {line})" if line else "")
    if skipped:
        shown = ", ".join(map(str, skipped[:6])) + (", ..." if len(skipped) > 6 else "")
        text += f"; the statements after it ran, but for those that failed too (line{'s' * (len(skipped) > 1)} " \
                f"{shown})"
    return text


def pick(module: ModuleType, path: str, name: str | None, is_kernel, what: str):
    """The kernel `name` in the module (or its only one), where `is_kernel(obj)` says what counts."""
    found = {k: v for k, v in vars(module).items() if is_kernel(v) and defined_here(v, module)}
    stopped = _stopped(module, path)
    obj = None
    if name is None and len(found) == 1 and not stopped:
        return next(iter(found.items()))
    if name is not None:
        obj = getattr(module, name, None)
        obj = obj if obj is not None and is_kernel(obj) else None
    elif stopped and len(found) == 1:
        name, obj = next(iter(found.items()))
    if obj is None and stopped:  # the kernel's own definition may be what failed
        if name is None:
            raise UserError(stopped)
        why = _definition_failure(module, path, name)
        raise UserError(f"{stopped}, and {what} kernel {name} is not among what ran"
                        + (f": {why}" if why else ""))
    if not found:
        other = _other_front(module, what)
        if other:
            raise UserError(f"{path} has no {what} kernel; its {other}")
        if name is None:  # not "0 kernels (none): name one with --kernel"
            raise UserError(f"{path} has no {what} kernel at its top level")
    if name is None:
        raise UserError(f"{path} has {len(found)} {what} kernels ({', '.join(sorted(found)) or 'none'}): "
                        f"name one with --kernel")
    if obj is None:
        raise UserError(f"--kernel {name}: {path} has no {what} kernel of that name (its {what} kernels: "
                        f"{', '.join(sorted(found)) or 'none'})")
    # said once a file and kernel in a process, though --blocks imports the file again for each block it emulates
    key = (str(Path(path).resolve()), name)
    if stopped and key not in _NOTED:
        sys.stderr.write(f"note: {stopped}; {name} is analysed as the file defines it\n")
    dropped = getattr(module, _UNDECORATED, {}).get(name)
    if dropped and key not in _NOTED:
        sys.stderr.write(f"note: {name} is defined without {'; '.join(dropped)}, which raised when the file was imported here; "
                         f"give what it would have chosen (--constexpr, --num-warps, --num-stages)\n")
    _NOTED.add(key)
    return name, obj


_UNDEFINED = re.compile(r"name '(\w+)' is not defined|(\w+) is not defined|Untyped global name '(\w+)'")


def undefined_hint(message: str, namespace: dict | None) -> str:
    """Where a compile failed on a name the file never defined here: the top-level statement that defines it and
    what it raised when the file was imported (a conditional import that needs torch, a size taken from a
    device array), as '; NAME is defined by line N, which raised ...', or ''."""
    m = _UNDEFINED.search(message)
    failures = (namespace or {}).get(_FAILURES) or {}
    path = (namespace or {}).get("__file__")
    if not m or not failures or not path:
        return ""
    name = next(g for g in m.groups() if g)
    for stmt, error in _failed_statements(path, failures):
        if name in _bound_names(stmt):
            return (f"; {name} is defined by the file's line {stmt.lineno}, which raised {error} when it was "
                    f"imported here")
    return ""


def _failed_statements(path: str, failures: dict):
    """(statement, what it raised) for each top-level statement of the file (decorators included) that holds a
    line of `failures` (line -> error, _FAILURES)."""
    import ast

    try:
        tree = ast.parse(Path(path).read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])
        error = next((e for line, e in failures.items()
                      if line is not None and first <= line <= (stmt.end_lineno or stmt.lineno)), None)
        if error is not None:
            yield stmt, error


def _bound_names(stmt) -> set[str]:
    import ast

    names = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _definition_failure(module: ModuleType, path: str, name: str) -> str | None:
    """What the top-level definition of `name` raised when the file was imported, or None."""
    for stmt, error in _failed_statements(path, getattr(module, _FAILURES, {})):
        if getattr(stmt, "name", None) == name:
            return f"its definition (line {stmt.lineno}) raised {error}"
    return None


def _other_front(module: ModuleType, what: str) -> str | None:
    """Where a file has kernels of the other front end (a Triton file analysed without --triton, or a Numba
    one with it): which, and the option that takes them."""
    triton = "@triton.jit" not in what
    names = sorted(k for k, v in vars(module).items()
                   if (type(v).__module__.startswith("triton.") and type(v).__name__ in ("JITFunction", "Autotuner",
                                                                                        "Heuristics")
                       if triton else type(v).__name__ == "CUDADispatcher") and defined_here(v, module))
    if not names:
        return None
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return (f"@triton.jit kernels ({shown}) are analysed with --triton" if triton else
            f"@cuda.jit kernels ({shown}) are Numba's: analyse them without --triton")


def defined_here(obj, module: ModuleType) -> bool:
    fn = obj
    for _ in range(8):  # through decorators that wrap a kernel (Triton's autotune around heuristics around jit)
        inner = getattr(fn, "py_func", None) or getattr(fn, "fn", None)
        if inner is None:
            break
        fn = inner
    return getattr(fn, "__module__", module.__name__) == module.__name__


def shown_files(files: dict[int, str], path: str | None, shown: str | None) -> tuple[dict, dict]:
    """The PTX's files as the report names them (the user's file as they named it) and their lines."""
    names, lines = {}, {}
    for i, f in files.items():
        try:
            same = path is not None and Path(f).resolve() == Path(path).resolve()
        except OSError:
            same = False
        names[i] = shown if same and shown else f
        # linecache also holds the code of a notebook cell or of exec'd text, which has no file
        lines[i] = [x.rstrip("\n") for x in linecache.getlines(f)]
    return names, lines
