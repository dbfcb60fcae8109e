"""A user's Python file, imported as a module to find the kernel functions in it.

The file is imported under a name of its own (never `__main__`), so what it runs under
`if __name__ == "__main__":` (a launch, a benchmark) does not run; its folder is on sys.path while it
imports, so that it finds its neighbours as `python FILE.py` would.
"""

from __future__ import annotations

import importlib.util
import linecache
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
    try:
        spec.loader.exec_module(module)
    except UserError:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the user's module may raise anything while it imports
        # a script launches its kernels at the top level (cuda.to_device, kernel[grid](...)), which fails with
        # no GPU: the kernels defined above that line are all there, so the import stops there, noted
        what = "called exit()" if isinstance(exc, SystemExit) else \
            f"failed: {type(exc).__name__}: {' '.join(str(exc).split())}"
        setattr(module, _STOPPED, (what, _line_in(exc, p.resolve())))
    finally:
        sys.path.remove(folder)
    return module


_STOPPED = "__smemlab_import_stopped__"


def _line_in(exc: BaseException, path: Path) -> int | None:
    """The line of the user's file where the exception left it (its last frame there)."""
    line, tb = None, exc.__traceback__
    while tb is not None:
        try:
            if Path(tb.tb_frame.f_code.co_filename).resolve() == path:
                line = tb.tb_lineno
        except OSError:
            pass
        tb = tb.tb_next
    return line


def _stopped(module: ModuleType, path: str) -> str | None:
    got = getattr(module, _STOPPED, None)
    if got is None:
        return None
    what, line = got
    return f"{path}: importing it {what}" + (f" (line {line})" if line else "")


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
    if obj is None and stopped:  # the kernel may be defined below the line that failed
        raise UserError(stopped if name is None else f"{stopped}, before {what} kernel {name} was defined")
    if name is None:
        raise UserError(f"{path} has {len(found)} {what} kernels ({', '.join(sorted(found)) or 'none'}): "
                        f"name one with --kernel")
    if obj is None:
        raise UserError(f"--kernel {name}: {path} has no {what} kernel of that name (its {what} kernels: "
                        f"{', '.join(sorted(found)) or 'none'})")
    if stopped:
        sys.stderr.write(f"note: {stopped}; {name} is defined above that line and is analysed as defined there\n")
    return name, obj


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
