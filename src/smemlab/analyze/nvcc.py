"""A CUDA file as it sits -> PTX and cubin, through nvcc: host code, `main`, launches and every header.

NVRTC compiles device code only: a file with a host `main`, `<<<...>>>` launches or host globals is
rejected, and it finds no standard, CUB or libcu++ header. nvcc takes what its users' files hold: it
splits host from device code with the system's C++ preprocessor, pre-includes cuda_runtime.h and puts
the CCCL (CUB, libcu++, Thrust) of its release on the include path. `-cubin` runs only the device
side (cudafe++, NVVM, ptxas), so the host code is parsed but never compiled. The nvcc used is the
`nvidia-cuda-nvcc` wheel's (the `analyze` extra), found next to the NVRTC wheel, so that the SASS
analyze follows is the same for every user of one smemlab install; `SMEMLAB_NVCC` names another.

The PTX and the cubin are one compile's: `--keep` leaves the PTX that ptxas assembled into the cubin.

Cache: keyed on the file's text, the options, the nvcc used and the instances asked for; an entry is
valid while every file the preprocessor read (its line markers list them, nested headers included)
is unchanged, so an edit to any header compiles again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from smemlab.compiler import ARCH, CompileError, cache_root
from smemlab.errors import UserError

COMPILE_TIMEOUT_S = 600
# what a PyTorch extension's build defines (torch.utils.cpp_extension) that its headers check
TORCH_DEFINES = {"TORCH_EXTENSION_NAME": "smemlab_analyzed", "TORCH_API_INCLUDE_EXTENSION_H": ""}
TORCH_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](torch/|ATen/|c10/)', re.M)
_MARKER = re.compile(rb'^#\s*\d+\s+"((?:[^"\\]|\\.)*)"', re.M)


@dataclass
class Compiled:
    ptx: str
    cubin: bytes
    log: str
    files: list[str] = field(default_factory=list)  # every file the preprocessor read, the source first
    compiler: str = "nvcc"


def find() -> Path | None:
    """The nvcc analyze compiles whole files with: $SMEMLAB_NVCC, the wheel's, $CUDA_HOME's, or PATH's."""
    named = os.environ.get("SMEMLAB_NVCC")
    if named:
        return Path(named)
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        for release in ("cu13", "cu12"):
            p = Path(root) / release / "bin" / "nvcc"
            if p.is_file() and os.access(p, os.X_OK):
                return p
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            p = Path(os.environ[env]) / "bin" / "nvcc"
            if p.is_file():
                return p
    found = shutil.which("nvcc")
    return Path(found) if found else None


def host_compiler(options: list[str]) -> str | None:
    """The C++ compiler nvcc will preprocess with (-ccbin, else g++ on PATH as nvcc looks it up), or None."""
    for i, o in enumerate(options):
        if o in ("-ccbin", "--compiler-bindir") and i + 1 < len(options):
            return options[i + 1]
        if o.startswith(("-ccbin=", "--compiler-bindir=")):
            return o.split("=", 1)[1]
    return shutil.which("g++") or shutil.which("c++")


def torch_includes() -> list[str]:
    """The include folders `torch.utils.cpp_extension.include_paths()` gives, found without importing torch
    (which loads CUDA libraries), and Python's own (torch/extension.h includes Python.h)."""
    import sysconfig

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        raise UserError("the file includes PyTorch's headers (torch/, ATen/ or c10/), and PyTorch is not installed "
                        "here: install it (pip install torch) so that its headers are found")
    root = Path(list(spec.submodule_search_locations)[0]) / "include"
    return [str(root), str(root / "torch" / "csrc" / "api" / "include"), sysconfig.get_paths()["include"]]


def toolkit_fallback(nvcc: Path) -> list[str]:
    """A CUDA toolkit's include folder on this machine, searched after nvcc's own (-isystem comes after the -I
    of nvcc.profile): the headers of the CUDA libraries the wheel lacks (cublas_v2.h, curand_kernel.h,
    cuda_profiler_api.h) come from there, and nothing the wheel has is shadowed."""
    own = nvcc.resolve().parents[1]
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and (Path(root) / "include" / "cuda_runtime.h").is_file():
            if Path(root).resolve() != own:
                return [str(Path(root).resolve() / "include")]
    return []


def torch_standard() -> int:
    """The C++ standard PyTorch's headers need, as torch.utils.cpp_extension passes it: 20 from torch 2.14 on
    (its headers #error below C++20), else 17. Read from torch/version.py, not by importing torch."""
    spec = importlib.util.find_spec("torch")
    try:
        text = (Path(list(spec.submodule_search_locations)[0]) / "version.py").read_text()
        major, minor = (int(x) for x in re.search(r"__version__\s*=\s*'(\d+)\.(\d+)", text).groups())
    except (AttributeError, OSError, TypeError, ValueError):
        return 17
    return 20 if (major, minor) >= (2, 14) else 17


def cache_dir() -> Path:
    path = cache_root() / "nvcc"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _identity(nvcc: Path) -> str:
    st = nvcc.resolve().stat()
    return f"{nvcc.resolve()}:{st.st_size}:{st.st_mtime_ns}"


def _digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _unchanged(files: list[list]) -> bool:
    """True while every file the compile read has its recorded content (size and time first: cheap)."""
    for path, size, mtime, digest in files:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime) and (st.st_size != size or _digest(path) != digest):
            return False
    return True


def _read_files(keep: Path, source: Path) -> list[str]:
    """The files the device-side preprocessing read, from its line markers (the source first)."""
    seen = {str(source.resolve()): None}
    for ii in sorted(keep.glob("*.cpp1.ii")):
        for m in _MARKER.finditer(ii.read_bytes()):
            name = m.group(1).decode(errors="replace").replace("\\\\", "\\")
            if name.startswith("<"):
                continue
            p = Path(name) if os.path.isabs(name) else (keep / name)
            if p.is_file():
                seen.setdefault(os.path.normpath(str(p.resolve())), None)
    return [p for p in seen if not p.startswith(str(keep.resolve()))]


# headers of the CUDA libraries, each in a wheel of its own (they land in nvcc's include folder, nvidia/cu13/include)
LIBRARY_HEADERS = {"cublas": "nvidia-cublas", "cublasLt": "nvidia-cublas", "cublas_v2": "nvidia-cublas",
                   "curand": "nvidia-curand", "curand_kernel": "nvidia-curand", "cusparse": "nvidia-cusparse",
                   "cusolverDn": "nvidia-cusolver", "cufft": "nvidia-cufft", "nvtx3/nvToolsExt": "nvidia-nvtx",
                   "cuda_profiler_api": "nvidia-cuda-profiler-api"}


def _hints(log: str) -> str:
    out = []
    missing = re.findall(r"([\w/]+)\.h: No such file", log)
    wheels = sorted({LIBRARY_HEADERS[h] for h in missing if h in LIBRARY_HEADERS})
    if wheels:
        out.append(f"the CUDA library headers the file includes come with their wheels: pip install {' '.join(wheels)}")
    if re.search(r"c10/cuda/[\w/.]+: No such file|ATen/cuda/[\w/.]+: No such file", log):
        out.append("this PyTorch is a CPU build, without the CUDA headers of c10/cuda and ATen/cuda: install a "
                   "CUDA build of torch")
    elif re.search(r"(cub|thrust|cuda/std|cuda)/[\w/.]+: No such file", log):
        out.append("CUB, Thrust and libcu++ come with the nvidia-cuda-cccl wheel: pip install 'smemlab[analyze]'")
    if "--expt-relaxed-constexpr" in log:
        out.append("pass the option the message names with -X, as the repository's build does: "
                   "-X=--expt-relaxed-constexpr")
    if re.search(r"(cusparse|cublas\w*|cusolver\w*|curand\w*|cufft\w*)\.h: No such file", log):
        out.append("ATen's CUDA headers include the CUDA libraries' headers, which a CUDA build of PyTorch brings "
                   "(pip install nvidia-cusparse nvidia-cublas, or a CUDA toolkit with SMEMLAB_NVCC naming its nvcc)")
    if "--extended-lambda" in log or "--expt-extended-lambda" in log:
        out.append("pass -X=--extended-lambda, as the repository's build does")
    return "".join(f"\nhint: {h}" for h in out)


def compile_file(path: Path, shown: str, defines: dict[str, str] | None = None, include_dirs: list[str] | None = None,
                 options: list[str] | None = None, instances: list[str] | None = None, arch: str = ARCH,
                 probes: str = "") -> Compiled:
    """Compile the file at `path` (shown to the user as `shown`) with nvcc to PTX and cubin for `arch`, with
    line information. `instances`: template kernels to instantiate (`'k<int, 128>'`), as a launch would.
    `probes`: C++ after the file whose `__device__` constants the PTX then holds (fields.py)."""
    nvcc = find()
    if nvcc is None:
        raise UserError("analyzing a whole CUDA file needs nvcc: install the analyze extra (pip install "
                        "'smemlab[analyze]', which brings the nvidia-cuda-nvcc and nvidia-cuda-cccl wheels), or "
                        "set SMEMLAB_NVCC to an nvcc")
    options = list(options or [])
    if host_compiler(options) is None:
        raise UserError("nvcc needs a host C++ compiler to split a file's host code from its device code, and "
                        "none was found (g++): install one (apt-get install g++), or name it with -X=-ccbin=PATH")
    source = path.resolve()
    text = source.read_bytes()
    defines = dict(defines or {})
    includes = [str(Path(d).resolve()) for d in include_dirs or []]
    if TORCH_INCLUDE.search(text.decode(errors="replace")):
        includes += torch_includes()
        defines = {**TORCH_DEFINES, **defines}
        if not any(o.startswith(("-std", "--std")) for o in options):
            options = [f"-std=c++{torch_standard()}"] + options
    flags = [f"-arch={arch}", "-lineinfo", "-cubin"] + [f"-I{d}" for d in includes]
    for d in toolkit_fallback(nvcc):
        flags += ["-isystem", d]
    flags += [f"-D{k}" if v in (None, "") else f"-D{k}={v}" for k, v in sorted(defines.items())] + options
    wrapper = "".join(f"template __global__ void {PICK}<{_address(e)}>();\n" for e in instances or [])
    if wrapper:
        wrapper = f"template <auto F> __global__ void {PICK}() {{}}\n" + wrapper
    wrapper += probes
    key = hashlib.sha256(b"\0".join([
        text, str(source).encode(), "\0".join(flags).encode(), wrapper.encode(), _identity(nvcc).encode(),
        os.getcwd().encode() if any(not o.startswith("-") for o in options) else b""])).hexdigest()[:32]
    entry = cache_dir() / key
    if (entry / "files.json").is_file():
        try:
            files = json.loads((entry / "files.json").read_text())
            if _unchanged(files):
                return Compiled((entry / "out.ptx").read_text(), (entry / "out.cubin").read_bytes(), "",
                                [f[0] for f in files])
        except (OSError, ValueError):
            pass

    with tempfile.TemporaryDirectory(prefix="smemlab-nvcc-") as tmp:
        keep = Path(tmp)
        target = source
        if wrapper:  # instances (template arguments of an empty kernel) and probes after the file as it sits
            target = keep / "smemlab_instances.cu"
            target.write_text(f'#include "{source}"\n{wrapper}')
        cmd = [str(nvcc), *flags, "--keep", "--keep-dir", str(keep), "-o", str(keep / "out.cubin"), str(target)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise UserError(f"{shown}: nvcc ran past {COMPILE_TIMEOUT_S} s") from None
        except OSError as exc:
            raise UserError(f"{shown}: cannot run nvcc ({nvcc}): {exc}") from None
        log = (done.stderr + done.stdout).strip()
        if done.returncode != 0:
            raise CompileError(f"{shown} does not compile (nvcc {arch}):\n{_shorten(log, keep, shown)}{_hints(log)}")
        ptx_files = sorted(keep.glob("*.ptx"))
        if not ptx_files:
            raise CompileError(f"{shown}: nvcc left no PTX (is there any device code?)")
        ptx = ptx_files[0].read_text()
        cubin = (keep / "out.cubin").read_bytes()
        read = _read_files(keep, source)
    files = []
    for p in read:
        st = os.stat(p)
        files.append([p, st.st_size, st.st_mtime_ns, _digest(p)])
    tmp_entry = entry.with_name(f"{key}.tmp{os.getpid()}")
    tmp_entry.mkdir(parents=True, exist_ok=True)
    (tmp_entry / "out.ptx").write_text(ptx)
    (tmp_entry / "out.cubin").write_bytes(cubin)
    (tmp_entry / "files.json").write_text(json.dumps(files))
    shutil.rmtree(entry, ignore_errors=True)
    try:
        tmp_entry.replace(entry)
    except OSError:  # another process put the same entry there first
        shutil.rmtree(tmp_entry, ignore_errors=True)
    return Compiled(ptx, cubin, log, read)


def _shorten(log: str, keep: Path, shown: str) -> str:
    """nvcc's messages with the temporary folder's names replaced, at most 40 lines."""
    log = log.replace(str(keep / "smemlab_instances.cu"), "(the --kernel instance)").replace(str(keep) + "/", "")
    lines = log.splitlines()
    return "\n".join(lines[:40] + ([f"... {len(lines) - 40} more lines"] if len(lines) > 40 else []))


# ---------------------------------------------------------------------------- names

# An instance the user names is compiled as the template argument of an empty kernel of ours: that
# instantiates it as a launch would, and the empty kernel's mangled name holds the instance's own symbol
# (`_Z14__smemlab_pickIXadL_Z1kILi4EEvPfEEEvv` -> `_Z1kILi4EEvPf`), whatever spelling of its template
# arguments (an enum's name, a constant, a type alias) the user wrote.
PICK = "__smemlab_pick"
_PICKED = re.compile(rf"^_Z{len(PICK)}{PICK}IXadL(_Z.*)EEEvv$")


def _address(kernel: str) -> str:
    k = kernel.strip()
    return k if k.startswith(("&", "static_cast")) else f"&{k}"


def picked(symbols) -> tuple[list[str], str | None]:
    """(the module's own kernels, the symbol of the instance picked or None). The picked instance's symbol inside
    the empty kernel's name has other substitution numbers than its own, so the two are compared demangled."""
    own, picks = [], []
    for s in symbols:
        (picks if s.startswith(f"_Z{len(PICK)}{PICK}") else own).append(s)
    if not picks:
        return own, None
    inner = _PICKED.match(picks[0])
    if inner and inner.group(1) in own:
        return own, inner.group(1)
    names = demangle(own + picks[:1])
    m = re.search(r"<&\((.*)\)>\(\)$", names[picks[0]])
    if m is None:
        return own, None
    want = normal_name(m.group(1))
    found = [s for s in own if normal_name(names[s]) == want]
    return own, (found[0] if len(found) == 1 else None)


def demangle(symbols: list[str]) -> dict[str, str]:
    """symbol -> its C++ declaration ('void k<128, float>(float*)'), by the host toolchain's c++filt; a symbol
    it cannot read (or no c++filt) maps to itself."""
    tool = shutil.which("c++filt")
    if not tool or not symbols:
        return {s: s for s in symbols}
    try:
        done = subprocess.run([tool], input="\n".join(symbols) + "\n", capture_output=True, text=True, timeout=60)
        out = done.stdout.splitlines()
    except (OSError, subprocess.TimeoutExpired):
        return {s: s for s in symbols}
    if len(out) != len(symbols):
        return {s: s for s in symbols}
    # CCCL's versioned inline namespace (cub::_V_300500_SM_900::, cub::CUB_300001_SM_900::) says nothing to a reader
    return {s: re.sub(r"::\w*?_\d+_SM_\d+(?=::)", "", d.strip() or s) for s, d in zip(symbols, out)}


def declared_name(declaration: str) -> str:
    """'void ns::k<128, float>(float*)' -> 'ns::k<128, float>' (the name with its template arguments)."""
    d = declaration
    if d.endswith(")"):
        depth = 0
        for i in range(len(d) - 1, -1, -1):
            depth += d[i] == ")"
            depth -= d[i] == "("
            if depth == 0:
                d = d[:i]
                break
    depth = 0
    for i in range(len(d) - 1, -1, -1):  # the name starts after the last space outside template brackets
        depth += d[i] == ">"
        depth -= d[i] == "<"
        if d[i] == " " and depth == 0:
            return d[i + 1:]
    return d


def parameters_of(declaration: str) -> list[str]:
    """'void k<1>(float*, int)' -> ['float*', 'int'] (C types, as c++filt writes them)."""
    if not declaration.endswith(")"):
        return []
    depth, start = 0, None
    for i in range(len(declaration) - 1, -1, -1):
        depth += declaration[i] == ")"
        depth -= declaration[i] == "("
        if depth == 0:
            start = i
            break
    inner = declaration[start + 1:-1] if start is not None else ""
    from smemlab.analyze.ptx import split_top

    return [p for p in split_top(inner, opens="(<[", closes=")>]") if p and p != "void"]


def normal_name(name: str) -> str:
    """A kernel name as compared: no spaces, integer suffixes and casts dropped ('k<128u, (int)4>' == 'k<128,4>')."""
    n = re.sub(r"\((?:unsigned |signed )?(?:int|long|short|char|long long|unsigned|bool)\)", "", name)
    n = re.sub(r"(?<![\w.])(\d+)(?:ull|ll|ul|lu|u|l)\b", r"\1", n, flags=re.I)
    n = n.replace(" ", "")
    return n[2:] if n.startswith("::") else n


def assemble(ptx: str, shown: str, arch: str = ARCH) -> bytes:
    """PTX another compiler made (Numba's NVVM, Triton's LLVM) -> the cubin ptxas makes of it, with line
    information, so that the SASS-based access widths apply to it as to nvcc's output. The ptxas is the
    one beside the nvcc analyze uses; without one the analysis goes on from the PTX alone (b"")."""
    nvcc = find()
    ptxas = nvcc.parent / "ptxas" if nvcc is not None else None
    if ptxas is None or not ptxas.is_file():
        return b""
    with tempfile.TemporaryDirectory(prefix="smemlab-ptxas-") as tmp:
        src, out = Path(tmp) / "in.ptx", Path(tmp) / "out.cubin"
        src.write_text(ptx)
        try:
            done = subprocess.run([str(ptxas), f"-arch={arch}", "-lineinfo", "-o", str(out), str(src)],
                                  capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except (subprocess.TimeoutExpired, OSError) as exc:
            raise UserError(f"{shown}: ptxas failed on the PTX: {exc}") from None
        if done.returncode != 0:
            raise CompileError(f"{shown}: ptxas rejects the PTX ({arch}):\n{(done.stderr + done.stdout).strip()}")
        return out.read_bytes()
