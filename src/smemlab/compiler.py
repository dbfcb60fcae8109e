"""The one NVRTC compile path: CUDA C++ -> PTX and cubin, cached on disk by content; and the package's kernels.

NVRTC comes from its pip wheel: compiling needs no GPU, no driver and no CUDA toolkit. It is called
through cuda.bindings (the library cuda.core wraps): cuda.core's `Program.compile("ptx")` asks the driver
whether it could load the PTX, which fails on a machine with no driver. One compile gives both the PTX
(what analyze emulates) and the cubin (what the GPU runs and nvdisasm reads).

Cache: one entry per compile in <cache>/nvrtc/, named by the SHA-256 of everything that decides its
output: the source text, the program's name, the options, the name expressions, the headers in the
include folders and NVRTC's version. An edited kernel or header compiles again; a second run compiles
nothing. `CompileError` is the one error of compiling (NVRTC here, nvcc and ptxas in analyze/nvcc.py).

The package's kernels sit beside the Python that launches them, one topic a folder: ops/<op>/<op>.cu the
library's kernels (ops/transpose/transpose.cu), lab/<topic>/<topic>.cu the book's programs beside their
experiment (lab/layout/layout.cu), lab/copy.cu the copy kernel every bandwidth is compared with, and
include/ the device helpers they share (`#include "cluster.cuh"`: include/ is on the include path). A
source is named by its path inside the package (`source_name`), which is also its `package:` name in
`smemlab analyze`. The names of the old layout (kernels/book/NAME.cu, kernels/lib/NAME.cu, kernels/*.cuh)
are kept as aliases for one release (through 0.1.x, gone in 0.2; ALIASES, `canonical`). Every kernel is
either `extern "C"` (its symbol is its name: the book's programs) or a template instantiated by an NVRTC
name expression ("transpose_tiles<u16, 16, false, MINB_E2>": the library's kernels, each op listing the
instances it launches); macros through `defines` set what the book's programs and the sweeps vary.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from smemlab.errors import UserError

KERNEL_DIR = Path(__file__).parent  # the package: kernel sources are named by their path in it
KERNEL_FOLDERS = ("include", "lab", "ops")  # where the package's .cu and .cuh files are
INCLUDE = "include"  # the shared headers' folder (under KERNEL_DIR), on every package kernel's include path
# The names of the layout before the kernels moved beside their Python (book/ the book's programs, lib/ the
# library's kernels, shared headers at the top), kept as aliases of the new names for one release (through
# 0.1.x, gone in 0.2): the truth fixture's recorded cases (tests/data/analyze_truth.json) and users' scripts
# name them (`package:book/histogram.cu`).
ALIASES = {
    **{f"book/{t}.cu": f"lab/{t}/{t}.cu" for t in (
        "config", "histogram", "layout", "matmul", "overlap", "reduce", "shuffle", "stencil", "transpose")},
    **{f"lib/{op}.cu": f"ops/{op}/{op}.cu" for op in ("histogram", "matmul", "reduce", "stencil", "transpose")},
    "lib/copy.cu": "lab/copy.cu",
    "cluster.cuh": "include/cluster.cuh",
}
ARCH = "sm_90"  # what the package's kernels and analyze compile for
HEADER_SUFFIXES = (".h", ".cuh", ".hpp", ".inc")


class CompileError(UserError, RuntimeError):
    """A compiler rejected the source: the message holds its log. A UserError (the command line prints it
    as one line) and a RuntimeError (what the runtime's compile raised before there was one class)."""


@dataclass
class Compiled:
    ptx: str
    lowered: dict[str, str]  # name expression -> mangled symbol
    log: str
    cubin: bytes = b""  # what ptxas made of the PTX (the SASS the GPU runs)


# ---------------------------------------------------------------------------- the package's kernels


def kernel_sources() -> list[Path]:
    """Every kernel source and header the package ships (ops/, lab/ and include/), sorted by name."""
    return sorted((p for folder in KERNEL_FOLDERS for p in (KERNEL_DIR / folder).rglob("*")
                   if p.suffix in (".cu", ".cuh") and p.is_file()), key=source_name)


def source_name(path: Path) -> str:
    """How a kernel file is named to compile_cubin and in `package:` paths: its path inside the package."""
    return path.relative_to(KERNEL_DIR).as_posix()


def canonical(name: str) -> str:
    """The package name of kernel source `name`: an old-layout alias ("book/layout.cu") resolved, else as given."""
    return ALIASES.get(name, name)


def source_path(name: str) -> Path:
    """The file of kernel source `name` (a package name or an alias)."""
    return KERNEL_DIR / canonical(name)


def include_dir() -> Path:
    """The folder of the shared headers, on the include path of every package kernel."""
    return KERNEL_DIR / INCLUDE


def sources_hash() -> str:
    """One SHA-256 over the contents of all kernel sources and headers: the provenance of a recorded run.
    Keyed on content only (the sorted SHA-256s of the files' bytes, no names): a byte changed in any file
    changes it, a file moved or renamed does not, so moving a kernel leaves a recorded run current."""
    digests = sorted(hashlib.sha256(path.read_bytes()).hexdigest() for path in kernel_sources())
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()


def package_options(arch: str, defines: Mapping[str, object]) -> list[str]:
    """The options the package's kernels compile with (as cuda.core's ProgramOptions wrote them, so that the
    cubins are the ones it made): line information, which costs nothing at run time and lets ncu and
    compute-sanitizer name source lines; C++17; include/ on the include path; `defines` as macros."""
    return ([f"-arch={arch}", "--generate-line-info"]
            + [f"--define-macro={k}={v}" for k, v in sorted((k, str(v)) for k, v in defines.items())]
            + [f"--include-path={include_dir()}", "--std=c++17"])


def compile_cubin(source: str, arch: str = ARCH, defines: Mapping[str, object] | None = None,
                  name_expressions: Sequence[str] = ()) -> bytes:
    """Compile the package's kernel source `source` ("ops/transpose/transpose.cu", or an alias) to a cubin for
    `arch`; returns the cubin bytes (cached). `name_expressions`: the template kernels to instantiate."""
    return compile_package(source, arch, defines, name_expressions).cubin


def compile_package(source: str, arch: str = ARCH, defines: Mapping[str, object] | None = None,
                    name_expressions: Sequence[str] = ()) -> Compiled:
    """`compile_cubin` with the PTX and the mangled symbol of each name expression (`Compiled.lowered`)."""
    defines = dict(defines or {})
    text = source_path(source).read_bytes().decode()
    # the program is named "smemlab" (its line information and NVRTC's log name it so); errors name the file
    # and its macros
    return compile_nvrtc(text, "smemlab", package_options(arch, defines), [str(include_dir())],
                         list(name_expressions), shown=f"{source} {defines or ''}".rstrip(), arch=arch)


def symbol(compiled: Compiled, name: str) -> str:
    """The symbol of kernel `name` in `compiled`: a name expression's mangled symbol, else `name` (extern "C")."""
    return compiled.lowered.get(name, name)


# ---------------------------------------------------------------------------- NVRTC


def cache_root() -> Path:
    """Where smemlab caches what it compiles: $SMEMLAB_CACHE, else $XDG_CACHE_HOME/smemlab or ~/.cache/smemlab."""
    return Path(os.environ.get("SMEMLAB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "smemlab"))


def cache_dir() -> Path:
    """The NVRTC cache (and what is derived from its cubins, analyze's SASS listings)."""
    path = cache_root() / "nvrtc"
    path.mkdir(parents=True, exist_ok=True)
    return path


def nvrtc_version() -> str:
    """The NVRTC this process compiles with ("13.5"): its ptxas decides the SASS that analyze follows."""
    from cuda.bindings import nvrtc

    _, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}"


def headers_digest(include_dirs: Sequence[str]) -> bytes:
    """The headers a compile can include from `include_dirs` (each folder's own files), for the cache key."""
    h = hashlib.sha256()
    for d in include_dirs:
        p = Path(d)
        if not p.is_dir():
            continue
        for f in sorted(p.iterdir()):
            if f.suffix in HEADER_SUFFIXES and f.is_file():
                h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.digest()


def _check(result, what: str):
    from cuda.bindings import nvrtc

    err = result[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"NVRTC {what}: {err}")
    return result[1:] if len(result) > 2 else (result[1] if len(result) == 2 else None)


def compile_nvrtc(text: str, name: str, options: Sequence[str], include_dirs: Sequence[str] = (),
                  name_expressions: Sequence[str] = (), shown: str | None = None, arch: str = ARCH) -> Compiled:
    """Compile `text` as program `name` (the file its line information names) with NVRTC `options`, to PTX and
    cubin (cached). `include_dirs`: the folders the options put on the include path, whose headers are part
    of the cache key. `name_expressions`: C++ names whose mangled symbols to return (template instances).
    A rejected source raises CompileError naming it as `shown` (default: `name`) and `arch`."""
    try:
        from cuda.bindings import nvrtc
    except ImportError as exc:  # pragma: no cover - the extras depend on it
        raise UserError(f"NVRTC is not available ({exc}): install the analyze extra, pip install 'smemlab[analyze]'")
    opts = list(options)
    exprs = list(name_expressions)
    key = hashlib.sha256(b"\0".join([
        text.encode(), name.encode(), "\0".join(opts).encode(), "\0".join(exprs).encode(),
        headers_digest(include_dirs), nvrtc_version().encode()])).hexdigest()[:32]
    cached = cache_dir() / f"{key}.ptx"
    lowered_file = cached.with_suffix(".names")
    cubin_file = cached.with_suffix(".cubin")
    if cached.exists() and cubin_file.exists() and (not exprs or lowered_file.exists()):
        lowered = {}
        if exprs:
            for line in lowered_file.read_text().splitlines():
                k, _, v = line.partition("\t")
                lowered[k] = v
        return Compiled(cached.read_text(), lowered, "", cubin_file.read_bytes())

    prog = _check(nvrtc.nvrtcCreateProgram(text.encode(), name.encode(), 0, [], []), "create")
    try:
        for e in exprs:
            _check(nvrtc.nvrtcAddNameExpression(prog, e.encode()), "name expression")
        (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), [o.encode() for o in opts])
        # NVRTC writes into the buffers it is given: bytearrays, never bytes (b" " * 1, for the empty log's
        # one byte, is the interpreter's shared b" ", and writing its terminator there corrupted the process)
        size = _check(nvrtc.nvrtcGetProgramLogSize(prog), "log size")
        log = bytearray(size)
        _check(nvrtc.nvrtcGetProgramLog(prog, log), "log")
        log_text = bytes(log).rstrip(b"\0 ").decode(errors="replace").strip()
        if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
            raise CompileError(f"{shown or name} does not compile (NVRTC, {arch}):\n{log_text}")
        size = _check(nvrtc.nvrtcGetPTXSize(prog), "PTX size")
        buf = bytearray(size)
        _check(nvrtc.nvrtcGetPTX(prog, buf), "PTX")
        ptx = bytes(buf).rstrip(b"\0").decode()
        size = _check(nvrtc.nvrtcGetCUBINSize(prog), "cubin size")
        buf = bytearray(size)
        _check(nvrtc.nvrtcGetCUBIN(prog, buf), "cubin")
        cubin = bytes(buf)
        lowered = {}
        for e in exprs:
            lowered[e] = _check(nvrtc.nvrtcGetLoweredName(prog, e.encode()), "lowered name").decode()
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    # each file written whole under a temporary name, then renamed (atomic: concurrent runs never read half a
    # file); the PTX last, as an entry counts only once it is there
    tmp = cached.with_suffix(f".tmp{os.getpid()}")
    if exprs:
        tmp.write_text("".join(f"{k}\t{v}\n" for k, v in lowered.items()))
        tmp.replace(lowered_file)
    tmp.write_bytes(cubin)
    tmp.replace(cubin_file)
    tmp.write_text(ptx)
    tmp.replace(cached)
    return Compiled(ptx, lowered, log_text, cubin)
