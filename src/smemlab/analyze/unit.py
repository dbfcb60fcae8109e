"""The front end for CUDA C++: a file (or the package's own kernel source) -> its PTX module, cubin, and the
kernel the user named, with the names and texts the report shows.

A user's file goes through nvcc (analyze/nvcc.py: host code, launches and every header, as it sits); the
package's own kernels go through NVRTC, which is what compiles them when they run. A kernel is named as
the user writes it: its plain name, a template instance (`k<int, 128>`, instantiated if the file does not),
a qualified name, or the mangled symbol; with one kernel in the file, no name is needed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from smemlab.analyze import nvcc
from smemlab.analyze.nvrtc import compile_ptx, find_kernel, itanium_name
from smemlab.analyze.ptx import Module, PTXError, parse_module
from smemlab.errors import UserError

PACKAGE_PREFIX = "package:"
COMPILERS = ("auto", "nvcc", "nvrtc")


@dataclass
class Unit:
    module: Module
    ptx: str
    cubin: bytes
    symbol: str  # the PTX entry analysed
    kernel: str  # its name as shown (the user's, or the file's one kernel)
    source: str  # C text whose __global__ declarations name the parameters
    shown: str  # the file as the user named it
    files: dict[int, str]  # PTX file index -> path shown
    sources: dict[int, list[str]]  # PTX file index -> the file's lines
    declarations: dict[str, str] = field(default_factory=dict)  # symbol -> C++ declaration
    compiler: str = "nvrtc"
    fields: dict = field(default_factory=dict)  # 'param.field' -> fields.Field (struct fields given by name)
    expression: str = ""  # the kernel as a C++ expression (a cast that picks an overload, or its name)


def resolve_source(path: str) -> tuple[Path, str]:
    """(file on disk, name to show); `package:ops/NAME/NAME.cu` is the package's file of that path (the old
    names, `package:book/NAME.cu` and `package:lib/NAME.cu`, are aliases: compiler.ALIASES)."""
    if path.startswith(PACKAGE_PREFIX):
        from smemlab.compiler import kernel_sources, source_name, source_path

        name = path[len(PACKAGE_PREFIX):]
        p = source_path(name)
        if not p.is_file() or p.suffix != ".cu":
            known = ", ".join(source_name(x) for x in kernel_sources() if x.suffix == ".cu")
            raise UserError(f"{path}: the package has no kernel source {name} (it has {known})")
        return p, name
    p = Path(path)
    if p.is_dir():
        raise UserError(f"{path!r} is a folder; give one CUDA source file (.cu) in it")
    if not p.is_file():
        raise UserError(f"{path!r}: no such file")
    return p, path


def _choose_compiler(path: str, compiler: str) -> str:
    if compiler not in COMPILERS:
        raise UserError(f"--compiler {compiler!r}: one of {', '.join(COMPILERS)}")
    if compiler != "auto":
        return compiler
    if path.startswith(PACKAGE_PREFIX):
        return "nvrtc"
    return "nvcc" if nvcc.find() is not None else "nvrtc"


def _parse(ptx: str, shown: str) -> Module:
    try:
        return parse_module(ptx)
    except PTXError as exc:
        raise UserError(f"{shown}: the PTX the compiler produced is not understood: {exc}") from None


def compile_unit(path: str, kernel: str | None, defines=None, include_dirs=None, options=None,
                 compiler: str = "auto", field_names: list[str] | None = None) -> Unit:
    """`field_names`: struct fields the arguments name ('params.x'), whose layout the compiler is asked for."""
    file, shown = resolve_source(path)
    try:
        text = file.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path!r}: cannot read it ({exc})") from None
    how = _choose_compiler(path, compiler)
    if how == "nvrtc":
        return _nvrtc_unit(path, file, shown, text, kernel, defines, include_dirs, options)
    instance = kernel is not None and any(c in kernel for c in "<(")
    compiled = nvcc.compile_file(file, shown, defines, include_dirs, options, instances=[kernel] if instance else None)
    module = _parse(compiled.ptx, shown)
    kernels, symbol = nvcc.picked(module.kernels)
    decls = nvcc.demangle(kernels)
    if not instance:
        symbol = _match(kernel, decls)
    if symbol is None:
        _no_such_kernel(kernel, decls, shown, text)
    # shown by its name; an overload picked by a cast (`static_cast<void (*)(double *)>(k)`) as the name it picks
    picked_by_cast = kernel is not None and kernel.lstrip().startswith(("static_cast", "&"))
    name = nvcc.declared_name(decls[symbol]) if kernel is None or picked_by_cast else kernel
    own = _own_texts(compiled.files, file, include_dirs)
    files, sources = _line_files(module, file, shown, include_dirs)
    unit = Unit(module, compiled.ptx, compiled.cubin, symbol, name, own, shown, files, sources, decls, "nvcc",
                expression=kernel if picked_by_cast else name)
    if field_names:
        unit.fields = _field_layouts(unit, file, defines, include_dirs, options, field_names)
    return unit


def _field_layouts(unit: Unit, file: Path, defines, include_dirs, options, names: list[str]) -> dict:
    """The struct fields' layouts, from a second compile of the file with probes after it (fields.py)."""
    from smemlab.analyze import fields as F
    from smemlab.analyze.args import parameter_names

    _, params = parameter_names(unit.module.kernels[unit.symbol], unit.source, unit.kernel)
    asked = []
    for n in names:
        F.check_name(n)
        base, _, path = n.partition(".")
        if base not in params:
            raise UserError(f"--arg {n}: {unit.kernel} has no parameter {base} (its parameters: {', '.join(params)})")
        asked.append((params.index(base), path))
    try:
        probed = nvcc.compile_file(file, unit.shown, defines, include_dirs, options,
                                   probes=F.probe_code(unit.expression or unit.kernel, asked))
    except UserError as exc:
        raise UserError(f"--arg {', '.join(names)}: the compiler could not lay out these struct fields of "
                        f"{unit.kernel}'s parameters (is each a field of the struct?):\n{exc}") from None
    layouts = F.read(_parse(probed.ptx, unit.shown), len(asked))
    return dict(zip(names, layouts))


def _nvrtc_compile(path, file, text, defines, include_dirs, options, exprs):
    includes = [str(file.parent.resolve())] + [str(Path(d)) for d in include_dirs or []]
    if path.startswith(PACKAGE_PREFIX):  # the package's kernels include its shared headers (include/*.cuh)
        from smemlab.compiler import include_dir

        includes.append(str(include_dir()))
    return compile_ptx(text, str(file.resolve()), defines, includes, exprs, options=options)


def _nvrtc_unit(path, file, shown, text, kernel, defines, include_dirs, options) -> Unit:
    exprs = [kernel] if kernel and "<" in kernel else []
    compiled = _nvrtc_compile(path, file, text, defines, include_dirs, options, exprs)
    module = _parse(compiled.ptx, shown)
    if kernel is None:
        if len(module.kernels) != 1:
            _no_such_kernel(None, {s: itanium_name(s) or s for s in module.kernels}, shown, text)
        symbol = next(iter(module.kernels))
        kernel = itanium_name(symbol) or symbol
    else:
        symbol = find_kernel(list(module.kernels), kernel, compiled.lowered)
    files, sources = _line_files(module, file, shown, include_dirs)
    return Unit(module, compiled.ptx, compiled.cubin, symbol, kernel, text, shown, files, sources, {}, "nvrtc")


def _match(kernel: str | None, decls: dict[str, str]) -> str | None:
    """The entry the user named: the only one (no name), the mangled symbol, the name with its template arguments,
    or a plain or qualified name that only one entry has."""
    if kernel is None:
        return next(iter(decls)) if len(decls) == 1 else None
    if kernel in decls:
        return kernel
    want = nvcc.normal_name(kernel)
    full = [s for s, d in decls.items() if nvcc.normal_name(nvcc.declared_name(d)) == want]
    if len(full) == 1:
        return full[0]
    if "<" in want:
        return None
    plain = [s for s, d in decls.items() if want in (_base(d), _base(d).split("::")[-1])]
    if len(plain) == 1:
        return plain[0]
    if len(plain) > 1:
        shown = "; ".join(nvcc.declared_name(decls[s]) for s in plain)
        raise UserError(f"--kernel {kernel}: {len(plain)} kernels have that name ({shown}); name one as written "
                        f"here, with its template arguments, or by its mangled symbol")
    return None


def _base(declaration: str) -> str:
    return re.sub(r"<.*", "", nvcc.declared_name(declaration))


def _no_such_kernel(kernel, decls: dict[str, str], shown: str, text: str):
    names = sorted({nvcc.declared_name(d) for d in decls.values()})
    templates = [t for t in template_kernels(text) if not any(n.startswith(t + "<") for n in names)]
    listed = ", ".join(names) or "none"
    more = (f"; template kernels with no instance yet: {', '.join(templates)} (name one like "
            f"--kernel '{templates[0]}<...>')") if templates else ""
    if kernel is None:
        if not decls and templates:
            raise UserError(f"{shown} instantiates no kernel{more}")
        raise UserError(f"{shown} has {len(decls)} kernels ({listed}){more}: name one with --kernel "
                        f"(smemlab analyze {shown} --list shows them with their parameters)")
    raise UserError(f"--kernel {kernel}: {shown} has no kernel of that name; its kernels: {listed}{more}")


_TEMPLATE_KERNEL = re.compile(r"template\s*<[^;{]*?>\s*(?:static\s+|inline\s+)*__global__\s+(?:[\w:<>,\s*&]+?\s+)?"
                              r"(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(", re.S)


_KERNEL = re.compile(r"__global__\s+(?:[\w:<>,\s*&]+?\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(")


def _declarations(text: str) -> str:
    from smemlab.analyze.args import _blank_launch_bounds, strip_comments

    return _blank_launch_bounds(strip_comments(text))


def template_kernels(text: str) -> list[str]:
    """The names of the `template <...> __global__` kernels a source defines."""
    return sorted(set(_TEMPLATE_KERNEL.findall(_declarations(text))))


def plain_kernels(text: str) -> list[str]:
    """The names of the `__global__` kernels a source defines that are no templates, in the order it defines them."""
    bare = _declarations(text)
    templates = set(_TEMPLATE_KERNEL.findall(bare))
    return [n for n in dict.fromkeys(_KERNEL.findall(bare)) if n not in templates]


def _own_texts(read: list[str], file: Path, include_dirs) -> str:
    """The text of the user's own files the compile read (the source and the headers under its folder or an -I
    folder of theirs): the __global__ declarations there name the parameters."""
    roots = [file.parent.resolve()] + [Path(d).resolve() for d in include_dirs or []]
    texts = []
    for p in read:
        q = Path(p)
        if q == file.resolve() or any(q.is_relative_to(r) for r in roots):
            try:
                texts.append(q.read_text(errors="replace"))
            except OSError:
                continue
    return "\n".join(texts)


def _name_roots(include_dirs) -> list[Path]:
    """The folders a header is named relative to: the package's shared headers and kernels, the toolkit's and
    CCCL's include folders (cub/block/..., cuda_fp16.hpp, as a user includes them), the user's -I folders,
    the working one."""
    from smemlab.compiler import KERNEL_DIR, include_dir

    roots = [include_dir().resolve(), KERNEL_DIR.resolve()]
    found = nvcc.find()
    if found is not None:
        inc = (found.resolve().parent.parent / "include").resolve()  # a toolkit's include is a link to targets/
        roots += [inc / "cccl", inc]
    return roots + [Path(d).resolve() for d in include_dirs or []] + [Path.cwd()]


def _line_files(module: Module, file: Path, shown: str, include_dirs) -> tuple[dict, dict]:
    """(PTX file index -> the name the report shows, PTX file index -> the file's lines)."""
    roots = _name_roots(include_dirs)
    me = file.resolve()
    names, lines = {}, {}
    for i, ptx_path in module.files.items():
        p = Path(os.path.normpath(ptx_path)).resolve()
        names[i] = shown if p == me else next((p.relative_to(r).as_posix() for r in roots if p.is_relative_to(r)),
                                              str(p))
        try:
            lines[i] = p.read_text(errors="replace").splitlines()
        except OSError:
            lines[i] = []
    return names, lines


# ---------------------------------------------------------------------------- --list


@dataclass
class KernelInfo:
    name: str  # with template arguments
    symbol: str
    params: list[tuple[str | None, str]]  # (name, C type)


def list_kernels(path: str, defines=None, include_dirs=None, options=None, compiler: str = "auto"
                 ) -> tuple[list[KernelInfo], list[str]]:
    """The kernels a compile of the file makes (its instances included), with their parameters; and the
    template kernels it defines that nothing instantiates."""
    from smemlab.analyze.args import parameter_names

    unit_file, shown = resolve_source(path)
    text = unit_file.read_text(errors="replace")
    how = _choose_compiler(path, compiler)
    if how == "nvrtc":
        compiled = _nvrtc_compile(path, unit_file, text, defines, include_dirs, options, [])
        module = _parse(compiled.ptx, shown)
        decls = {s: s for s in module.kernels}
        own = text
    else:
        compiled = nvcc.compile_file(unit_file, shown, defines, include_dirs, options)
        module = _parse(compiled.ptx, shown)
        decls = nvcc.demangle(nvcc.picked(module.kernels)[0])
        own = _own_texts(compiled.files, unit_file, include_dirs)
    out = []
    for symbol, decl in decls.items():
        name = nvcc.declared_name(decl) if decl != symbol else (itanium_name(symbol) or symbol)
        ctypes = nvcc.parameters_of(decl)
        k = module.kernels[symbol]
        cparams, _ = parameter_names(k, own, name)
        names = [c.name if c is not None else None for c in cparams]
        if not ctypes or len(ctypes) != len(k.params):
            ctypes = [c.ctype if c is not None else f".{p.type.lstrip('.')}" for c, p in zip(cparams, k.params)]
        out.append(KernelInfo(name, symbol, list(zip(names, ctypes))))
    names = {k.name.split("<")[0].split("::")[-1] for k in out}
    pending = [t for t in template_kernels(text) if t not in names]
    return sorted(out, key=lambda k: k.name), pending
