"""CUDA C++ -> PTX with line information, through NVRTC (smemlab.compiler, the one NVRTC path; no GPU, no
driver): the package's own kernels (`package:` sources) and `--compiler nvrtc`; and how a kernel the user
names is found among a module's mangled entries.
"""

from __future__ import annotations

import re

from smemlab.analyze.ptx import matching
from smemlab.compiler import ARCH, CompileError, Compiled, compile_nvrtc
from smemlab.compiler import nvrtc_version as version  # noqa: F401  (analyze's callers ask it here)
from smemlab.errors import UserError

CompileFailed = CompileError  # analyze's name for it: the compiler rejected the source (nvcc's too)


def compile_ptx(text: str, name: str, defines: dict[str, str] | None = None, include_dirs: list[str] | None = None,
                name_expressions: list[str] | None = None, arch: str = ARCH, options: list[str] | None = None
                ) -> Compiled:
    """Compile `text` (shown to the user as file `name`) to PTX for `arch` with line information."""
    include_dirs = list(include_dirs or [])
    opts = [f"-arch={arch}", "-std=c++17", "-lineinfo"]
    opts += [f"-I{d}" for d in include_dirs]
    opts += [f"-D{k}" if v is None or v == "" else f"-D{k}={v}" for k, v in sorted((defines or {}).items())]
    opts += list(options or [])
    return compile_nvrtc(text, name, opts, include_dirs, list(name_expressions or []), arch=arch)


# ---------------------------------------------------------------------------- kernel names


def itanium_name(symbol: str) -> str | None:
    """The qualified name of a mangled function ('_ZN2ns6kernelILi4EEEvPf' -> 'ns::kernel'), or None."""
    if not symbol.startswith("_Z"):
        return None
    s = symbol[2:]
    if s.startswith("L"):
        s = s[1:]
    parts = []
    nested = s.startswith("N")
    i = 1 if nested else 0
    while i < len(s):
        while i < len(s) and s[i] in "KVr":
            i += 1
        m = re.match(r"(\d+)", s[i:])
        if not m:
            break
        n = int(m.group(1))
        i += len(m.group(1))
        parts.append(s[i:i + n])
        i += n
        if i < len(s) and s[i] == "I":  # template arguments: skip to the matching E
            i = matching(s, i, "I", "E") + 1
        if not nested or (i < len(s) and s[i] == "E"):
            break
    return "::".join(parts) if parts else None


def find_kernel(entries: list[str], wanted: str, lowered: dict[str, str]) -> str:
    """The PTX entry named `wanted` as written in the source."""
    if wanted in lowered:
        return lowered[wanted]
    if wanted in entries:
        return wanted
    # an extern "C" kernel declared inside a namespace keeps its plain symbol: `cv::bgr_to_gray` is `bgr_to_gray`
    plain = wanted.rsplit("::", 1)[-1]
    if "::" in wanted and plain in entries:
        return plain
    matches = []
    for e in entries:
        q = itanium_name(e)
        if q is not None and (q == wanted or q.split("::")[-1] == wanted):
            matches.append(e)
    if len(matches) == 1:
        return matches[0]
    shown = ", ".join(sorted({itanium_name(e) or e for e in entries})) or "none"
    if len(matches) > 1:
        raise UserError(f"--kernel {wanted}: {len(matches)} kernels have that name ({', '.join(matches)}); name a "
                        f"template instance like 'kernel<32>' or the mangled symbol")
    raise UserError(f"--kernel {wanted}: the file has no kernel of that name; its kernels: {shown}")
