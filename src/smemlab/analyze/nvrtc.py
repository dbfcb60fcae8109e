"""CUDA C++ -> PTX with line information, through NVRTC's pip wheel (no GPU, no driver).

cuda.core's `Program.compile("ptx")` asks the driver whether it could load the PTX, which fails on
a machine with no driver, so this module calls NVRTC through cuda.bindings directly (the same
library cuda.core wraps). PTX is cached on disk by the hash of the source, the headers it can
include, the options and NVRTC's version, next to the package's cubin cache.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from smemlab.analyze.ptx import matching
from smemlab.errors import UserError

ARCH = "sm_90"


class CompileFailed(UserError):
    """NVRTC rejected the source: the message holds its log, with the file's line numbers."""


@dataclass
class Compiled:
    ptx: str
    lowered: dict[str, str]  # name expression -> mangled symbol
    log: str
    cubin: bytes = b""  # what ptxas made of the PTX (the SASS the GPU runs)


def _check(result, what: str):
    from cuda.bindings import nvrtc

    err = result[0]
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(f"NVRTC {what}: {err}")
    return result[1:] if len(result) > 2 else (result[1] if len(result) == 2 else None)


def version() -> str:
    """The NVRTC this process compiles with ("13.5"): its ptxas decides the SASS that analyze follows."""
    from cuda.bindings import nvrtc

    _, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}"


def _headers_digest(include_dirs: list[str]) -> bytes:
    h = hashlib.sha256()
    for d in include_dirs:
        p = Path(d)
        if not p.is_dir():
            continue
        for f in sorted(p.iterdir()):
            if f.suffix in (".h", ".cuh", ".hpp", ".inc") and f.is_file():
                h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.digest()


def cache_dir() -> Path:
    from smemlab.compiler import cache_dir

    path = cache_dir().parent / "ptx"
    path.mkdir(parents=True, exist_ok=True)
    return path


def compile_ptx(text: str, name: str, defines: dict[str, str] | None = None, include_dirs: list[str] | None = None,
                name_expressions: list[str] | None = None, arch: str = ARCH, options: list[str] | None = None
                ) -> Compiled:
    """Compile `text` (shown to the user as file `name`) to PTX for `arch` with line information."""
    try:
        from cuda.bindings import nvrtc
    except ImportError as exc:  # pragma: no cover - the package depends on it
        raise UserError(f"NVRTC is not available ({exc}): install the analyze extra, pip install 'smemlab[analyze]'")
    include_dirs = list(include_dirs or [])
    opts = [f"-arch={arch}", "-std=c++17", "-lineinfo"]
    opts += [f"-I{d}" for d in include_dirs]
    opts += [f"-D{k}" if v is None or v == "" else f"-D{k}={v}" for k, v in sorted((defines or {}).items())]
    opts += list(options or [])
    exprs = list(name_expressions or [])
    key = hashlib.sha256(b"\0".join([
        text.encode(), name.encode(), "\0".join(opts).encode(), "\0".join(exprs).encode(),
        _headers_digest(include_dirs), version().encode()])).hexdigest()[:32]
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
            raise CompileFailed(f"{name} does not compile (NVRTC, {arch}):\n{log_text}")
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
    tmp = cached.with_suffix(f".tmp{os.getpid()}")
    if exprs:
        tmp.write_text("".join(f"{k}\t{v}\n" for k, v in lowered.items()))
        tmp.replace(lowered_file)
    tmp.write_bytes(cubin)
    tmp.replace(cubin_file)
    tmp.write_text(ptx)
    tmp.replace(cached)
    return Compiled(ptx, lowered, log_text, cubin)


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
