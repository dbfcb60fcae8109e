"""Compile the package's kernels with NVRTC (through cuda.core) to a cubin, cached on disk.

The kernels are laid out as the code is: kernels/book/ holds the book's programs (one .cu per
experiment, in the book's names), kernels/lib/ the library's kernels (one .cu per op, and the copy
kernel every bandwidth is compared with), and kernels/ itself the device helpers both include
(`#include "cluster.cuh"`: kernels/ is on the include path). A source is named by its path under
kernels/: "book/layout.cu", "lib/transpose.cu".

Compiling to a cubin needs no GPU and no CUDA toolkit: NVRTC comes from its pip wheel. The cache
key is the source text (with the headers it may include), the options, the architecture and the
NVRTC version, so an edited kernel recompiles and a second run compiles nothing.

Every kernel is `extern "C"`: its symbol is its name, and compile-time parameters (tile sizes,
padding) come in as macros through `defines`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Mapping

KERNEL_DIR = Path(__file__).parent / "kernels"
DEFAULT_ARCH = "sm_90"


def kernel_sources() -> list[Path]:
    """Every kernel source and header the package ships (book/, lib/ and the shared headers), sorted
    by their path under kernels/."""
    return sorted((p for p in KERNEL_DIR.rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file()),
                  key=source_name)


def source_name(path: Path) -> str:
    """How a kernel file is named to compile_cubin and in `package:` paths: its path under kernels/."""
    return path.relative_to(KERNEL_DIR).as_posix()


def sources_hash() -> str:
    """One SHA-256 over all kernel sources and headers, each with its path under kernels/: the
    provenance of a recorded run."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(source_name(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dir() -> Path:
    root = os.environ.get("SMEMLAB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "smemlab"
    )
    path = Path(root) / "cubin"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _nvrtc_version() -> str:
    from cuda.bindings import nvrtc

    err, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}"


def _options(arch: str, defines: Mapping[str, object]):
    from cuda.core import ProgramOptions

    macros = [(k, str(v)) for k, v in sorted(defines.items())]
    return ProgramOptions(
        name="smemlab",
        arch=arch,
        std="c++17",
        include_path=str(KERNEL_DIR),
        define_macro=macros or None,
        # line info costs nothing at run time and lets ncu and compute-sanitizer name source lines
        lineinfo=True,
    )


def _headers_text() -> bytes:
    return b"".join(p.read_bytes() for p in kernel_sources() if p.suffix == ".cuh")


class CompileError(RuntimeError):
    """NVRTC rejected a kernel source; the message holds its log."""


def compile_cubin(source: str, arch: str = DEFAULT_ARCH, defines: Mapping[str, object] | None = None) -> bytes:
    """Compile kernels/<source> ("book/layout.cu") to a cubin for `arch`; returns the cubin bytes (cached)."""
    defines = dict(defines or {})
    path = KERNEL_DIR / source
    text = path.read_bytes()
    key = hashlib.sha256(
        b"\0".join([text, _headers_text(), repr(sorted(defines.items())).encode(), arch.encode(), _nvrtc_version().encode()])
    ).hexdigest()[:32]
    cached = cache_dir() / f"{source.removesuffix('.cu').replace('/', '-')}-{arch}-{key}.cubin"
    if cached.exists():
        return cached.read_bytes()

    from cuda.core import Program

    program = Program(text.decode(), "c++", options=_options(arch, defines))
    try:
        cubin = bytes(program.compile("cubin").code)
    except Exception as exc:  # NVRTC's log is in the message; name the file and macros too
        raise CompileError(f"{source} {defines or ''} for {arch}: {exc}") from exc
    tmp = cached.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(cubin)
    tmp.replace(cached)  # atomic: concurrent runs never read half a file
    return cubin
