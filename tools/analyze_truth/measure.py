"""Record Nsight Compute's shared-memory counts for `smemlab analyze` (tests/data/analyze_truth.json).

The cases are tools/analyze_truth/cases.py: every kernel of the package and of the corpus in
tools/analyze_truth/kernels, one thread block each. Three steps, so the GPU is needed only for one
(tools/analyze_truth/README.md says how to run them with the device tool):

  here (NVRTC, no GPU):   python3 tools/analyze_truth/measure.py build BUILD
      compiles every case with NVRTC as `smemlab analyze` does (sm_90, -lineinfo, -std=c++17,
      include path = the .cu's folder and src/smemlab/include, the case's macros, the kernel as an
      NVRTC name expression) into BUILD/cubin/*.cubin, and writes BUILD/manifest.json (case, cubin,
      lowered kernel name, parameter types parsed from the source). The GPU runs these very cubins.
  on the GPU machine:     bash tools/analyze_truth/run.sh BUILD OUT   (measure.py device BUILD OUT/truth)
      runs every case once WITHOUT the profiler (a launch that fails is named; each case's outputs
      must change), then ONE `ncu --clock-control none --section SourceCounters --metrics ...`
      process that launches every case in order (one report), then reads the report back: the
      metrics of every launch (`ncu -i --page raw`) and each launch's source view (`ncu -i --page
      source --print-source cuda,sass --launch-skip I --launch-count 1`, in parallel). A second
      process profiles the metrics alone again, to tell repeatable counts from timing-dependent
      ones. nvdisasm's line table of every cubin cross-checks the source view's lines.
  here:                   python3 tools/analyze_truth/measure.py fixture OUT/truth BUILD [--out FILE]
      joins cases, counters and line tables into the fixture the tests read.

Arguments follow `smemlab analyze --arg`: NAME=INT, NAME=FLOAT, NAME=DTYPE[COUNT] and
NAME=DTYPE[COUNT]:LO..HI (filled by smemlab.analyze.args.fill itself, so that the GPU runs on the
data analyze emulates), NAME=PATH.npy (repo-relative).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import time
import traceback
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PKG_DIR = REPO / "src" / "smemlab"  # a package kernel is named by its path in the package
INCLUDE_DIR = PKG_DIR / "include"  # the package kernels' shared headers (cluster.cuh), on their include path
sys.path.insert(0, str(HERE))

OPS = ("ld", "st", "atom")
METRICS = [f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{o}.sum" for o in OPS] + \
          [f"smsp__sass_inst_executed_op_shared_{o}.sum" for o in OPS] + \
          [f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{o}.sum" for o in ("ld", "st")] + \
          ["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "smsp__sass_inst_executed_op_shared.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "smsp__sass_inst_executed_op_ldsm.sum",
           "smsp__sass_inst_executed_op_dshared_ld.sum", "smsp__sass_inst_executed_op_dshared_st.sum",
           "smsp__sass_inst_executed_op_dshared_atom.sum", "smsp__sass_inst_executed_op_generic_ld.sum",
           "smsp__sass_inst_executed_op_generic_st.sum", "smsp__sass_inst_executed_op_generic_atom.sum",
           "smsp__sass_inst_executed_op_shared_stsm.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
           "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared.sum",
           "launch__grid_size", "launch__block_size", "launch__cluster_dim_x"]
# global and local memory (issue 31): requests and 32-byte sectors per kind of access, cp.async's global reads
# (op ldgsts) apart from the loads
GLOBAL_OPS = ("ld", "st", "atom", "red", "ldgsts")
LOCAL_OPS = ("ld", "st")
METRICS += [f"l1tex__t_{what}_pipe_lsu_mem_global_op_{o}.sum" for o in GLOBAL_OPS for what in ("requests", "sectors")] + \
           [f"l1tex__t_{what}_pipe_lsu_mem_local_op_{o}.sum" for o in LOCAL_OPS for what in ("requests", "sectors")] + \
           [f"smsp__sass_inst_executed_op_global_{o}.sum" for o in ("ld", "st", "atom", "red")] + \
           [f"smsp__sass_inst_executed_op_local_{o}.sum" for o in LOCAL_OPS] + \
           ["smsp__sass_inst_executed_op_ldgsts.sum"]

# ---------------------------------------------------------------------------------------------
# sources, parameters, arguments


def source_path(file: str) -> Path:
    if file.startswith("package:"):  # the old names (package:book/NAME.cu, package:lib/NAME.cu) are aliases
        from smemlab.compiler import canonical

        return PKG_DIR / canonical(file[len("package:"):])
    return REPO / file


def repo_file(path: str) -> str:
    """A file name from line info (absolute, or relative to the repo root) as the fixture writes it:
    package:PATH for src/smemlab/PATH, else relative to the repo root."""
    p = path.replace("\\", "/")
    if "/../" in p:  # nvcc's line table names headers through its bin/ (".../bin/../include/x.hpp"), ncu does not
        p = os.path.normpath(p)
    for root in (str(PKG_DIR) + "/", "src/smemlab/"):
        if root in p:
            return "package:" + p.split(root, 1)[1]
    i = p.find("tools/analyze_truth/")
    if i >= 0:
        return p[i:]
    return p


SCALAR_TYPES = {
    "int": "int32", "signed": "int32", "signed int": "int32", "unsigned": "uint32", "unsigned int": "uint32",
    "uint": "uint32", "long long": "int64", "long long int": "int64", "unsigned long long": "uint64",
    "unsigned long long int": "uint64", "size_t": "uint64", "u64": "uint64", "i64": "int64", "float": "float32",
    "double": "float64", "short": "int16", "unsigned short": "uint16", "char": "int8", "unsigned char": "uint8",
    "bool": "bool", "long": "int64", "unsigned long": "uint64",
    # <cstdint> names, as kernels compiled by NVRTC spell them (nvcc's cases take their types from the symbol)
    "int8_t": "int8", "uint8_t": "uint8", "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32",
    "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64",
}


def _balanced(text: str, start: int) -> str:
    """The text inside the parentheses opening at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i]
    raise ValueError("unbalanced parentheses")


def kernel_params(text: str, kernel: str) -> list[tuple[str, str]]:
    """[(C type, name)] of `kernel` (a name expression: 'k', 'ns::k', 'k<1, 2>') in the source text."""
    base = kernel.split("<")[0].split("::")[-1].strip()
    text = re.sub(r"//[^\n]*", "", text)
    # attributes between `void` and the name: __launch_bounds__(...), __cluster_dims__(...)
    pat = re.compile(r"__global__\s+void\s+(?:__\w+__\s*\((?:[^()]|\([^()]*\))*\)\s*)*" + re.escape(base) + r"\s*\(")
    m = pat.search(text)
    if not m:
        raise ValueError(f"kernel {kernel!r}: no `__global__ void {base}(` in the source")
    inner = _balanced(text, m.end() - 1)
    params, depth, cur = [], 0, ""
    for ch in inner:
        depth += {"(": 1, "<": 1, ")": -1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur)
    out = []
    for p in params:
        p = " ".join(p.split())
        name = re.search(r"(\w+)\s*$", p).group(1)
        ctype = p[: p.rfind(name)].strip()
        out.append((ctype, name))
    return out


TENSOR_MAP = "CUtensorMap"  # a Triton tensor descriptor's map: 128 bytes the launcher encodes on the GPU machine


def scalar_dtype(ctype: str) -> str | None:
    """The NumPy dtype of a scalar parameter type; None for a pointer (or a tensor map)."""
    if "*" in ctype or ctype == TENSOR_MAP:
        return None
    t = " ".join(w for w in ctype.replace("const", " ").replace("volatile", " ").split()
                 if w not in ("__restrict__", "register"))
    if t not in SCALAR_TYPES:
        raise ValueError(f"parameter type {ctype!r}: not a scalar type this script knows")
    return SCALAR_TYPES[t]


ARG = re.compile(r"^(\w+)=(.+)$")
BUF = re.compile(r"^(\w+)\[(\d+)\](?::([-+0-9.eE]+)\.\.([-+0-9.eE]+))?$")


def parse_arg(arg: str) -> tuple[str, str]:
    m = ARG.match(arg)
    if not m:
        raise ValueError(f"argument {arg!r}: NAME=VALUE expected")
    return m.group(1), m.group(2)


def fill(name: str, value: str) -> np.ndarray:
    """The host array of a pointer argument: the .npy file, or what `smemlab analyze` fills it with
    (smemlab.analyze.args, the one implementation of the fill contract: C vector types such as float4
    and narrow integers included, so the GPU and the emulator see the same data)."""
    if value.endswith(".npy"):
        return np.load(REPO / value, allow_pickle=False)
    if str(REPO / "src") not in sys.path:
        sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import args
    from smemlab.errors import UserError

    try:
        spec = args.parse_arg(f"{name}={value}")[1]
    except UserError as exc:
        raise ValueError(f"argument {name}={value}: {exc}") from None
    if isinstance(spec, args.TensorMapSpec):  # a tensor map's tensor
        return args._data_for(name, spec.data)
    if isinstance(spec, args.PointerTableSpec):  # the table; its addresses are written once the items have them
        return np.zeros(len(spec.items), dtype=np.uint64)
    if not isinstance(spec, args.BufferSpec):
        raise ValueError(f"argument {name}={value}: DTYPE[COUNT], DTYPE[COUNT]:LO..HI or PATH.npy expected")
    return args.fill(name, spec)


def table_items(name: str, value: str) -> list[np.ndarray] | None:
    """The arrays a ptrs(...) argument's table points to, filled as analyze fills them; None for other values."""
    if not value.startswith("ptrs("):
        return None
    if str(REPO / "src") not in sys.path:
        sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import args

    return args.table_items(name, args.parse_arg(f"{name}={value}")[1])


def check_args(case: dict, params: list[tuple[str, str]]) -> list[dict]:
    """Each argument against its parameter: same names in the same order, pointers get buffers."""
    names = [parse_arg(a)[0] for a in case["args"]]
    if names != [n for _, n in params]:
        raise ValueError(f"{case['id']}: arguments {names} but parameters {[n for _, n in params]}")
    out = []
    for arg, (ctype, name) in zip(case["args"], params):
        _, value = parse_arg(arg)
        dt = scalar_dtype(ctype)
        if ctype == TENSOR_MAP:
            if "@tensormap(" not in value:
                raise ValueError(f"{case['id']}: {name} is a tensor map; {value!r} is not DATA@tensormap(...)")
            out.append({"name": name, "ctype": ctype, "pointer": True, "value": value})
        elif dt is None:
            if not (value.endswith(".npy") or BUF.match(value) or value.startswith("ptrs(")):
                raise ValueError(f"{case['id']}: {name} is a pointer ({ctype}); {value!r} is not a buffer")
            out.append({"name": name, "ctype": ctype, "pointer": True, "value": value})
        else:
            float(value)  # a number
            if dt != "float32" and dt != "float64" and not re.fullmatch(r"-?\d+", value):
                raise ValueError(f"{case['id']}: {name} ({ctype}) needs an integer, got {value!r}")
            out.append({"name": name, "ctype": ctype, "pointer": False, "dtype": dt, "value": value})
    return out


# ---------------------------------------------------------------------------------------------
# compiling (as `smemlab analyze` does)


def compile_whole(case: dict) -> tuple[bytes, str, list[tuple[str, str]]]:
    """(cubin, symbol, [(C type, name)]) of a case compiled by nvcc as `smemlab analyze` compiles a user's file
    (smemlab.analyze.unit itself): the types are the instance's own, from its demangled symbol."""
    sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import nvcc
    from smemlab.analyze.args import empty_param, parameter_names
    from smemlab.analyze.unit import compile_unit

    cwd = os.getcwd()
    os.chdir(REPO)  # the line info names repo-relative files, as the fixture does
    try:
        unit = compile_unit(case["file"], case["kernel"], case["defines"], case.get("include_dirs"),
                            case.get("options"), compiler="nvcc")
    finally:
        os.chdir(cwd)
    k = unit.module.kernels[unit.symbol]
    _, names = parameter_names(k, unit.source, unit.kernel)
    ctypes = nvcc.parameters_of(unit.declarations[unit.symbol])
    if len(ctypes) != len(k.params):  # an extern "C" kernel: its symbol names no types, its declaration does
        return unit.cubin, unit.symbol, kernel_params(source_path(case["file"]).read_text(), case["kernel"])
    # an empty struct (a tag, std::integral_constant) is launched as the one byte it is
    ctypes = ["unsigned char" if empty_param(p) else t for p, t in zip(k.params, ctypes)]
    return unit.cubin, unit.symbol, list(zip(ctypes, names))


# a PTX scalar parameter's C type for the launcher: its size is what the kernel reads (Triton passes an i32 as
# .u32/.s32 and a float as .f32 where the front end's signature says long long and double)
PTX_SCALARS = {".u64": "long long", ".s64": "long long", ".b64": "long long", ".u32": "int", ".s32": "int",
               ".b32": "int", ".f32": "float", ".f64": "double", ".u16": "short", ".s16": "short", ".u8": "char",
               ".s8": "char"}
PYTHON = ("numba", "triton")  # the compilers of Python kernels: their cases go through analyze's front ends


def _python_unit(case: dict, folder: str):
    """(unit, --arg texts in parameter order, shared bytes) of a Numba or Triton case, compiled by the front end
    exactly as `smemlab analyze FILE.py --kernel NAME` compiles it (arguments as given, constexprs, warps, stages)."""
    if str(REPO / "src") not in sys.path:
        sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import numba_front, pyargs, triton_front

    path = str(source_path(case["file"]))
    given = pyargs.merge([_repo_npy(a) for a in case["args"]], None, Path(folder))
    if case["compiler"] == "numba":
        name, fn = numba_front.find(path, case["kernel"])
        unit, texts = numba_front.compile_kernel(fn, name, given, path, path)
        return unit, texts, int(case["dynamic_shared"])  # the launch's own dynamic shared memory
    name, fn = triton_front.find(path, case["kernel"])
    arch = int(case.get("arch", 90))
    unit, texts, shared = triton_front.compile_kernel(fn, name, given, case_constexprs(case),
                                                      int(case["num_warps"]), int(case["num_stages"]), arch, path,
                                                      path, refuse=False, programs=math.prod(case["grid"]))
    if arch != 90:  # the GPU here is an sm_90: the same PTX, assembled for it as Triton's own ptxas call would
        unit.cubin = _ptxas_sm90(unit.ptx)
    return unit, texts, shared


def _ptxas_sm90(ptx: str) -> bytes:
    """An sm_90 cubin of Triton's PTX for another target, by Triton's ptxas with the options Triton's
    make_cubin passes (line info, fused multiply-add, register allocation level 2)."""
    import subprocess
    import tempfile

    from triton.backends.nvidia.compiler import get_ptxas

    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
        src.write_text(ptx)
        subprocess.run([get_ptxas(90).path, "-lineinfo", "--regAllocOptLevel=2", "--gpu-name=sm_90", str(src), "-o",
                        str(out)], check=True, capture_output=True)
        return out.read_bytes()


def _repo_npy(arg: str) -> str:
    name, value = parse_arg(arg)
    return f"{name}={REPO / value}" if value.endswith(".npy") and not Path(value).is_absolute() else arg


def compile_python(case: dict) -> tuple[bytes, str, list[tuple[str, str]], list[str], int]:
    """(cubin, symbol, [(C type, name)], launch arguments, dynamic shared bytes) of a Numba or Triton case.
    The names are the front end's synthetic signature's (an array's data pointer under the argument's name, its
    Numba struct fields as NAME__shape0 and so on, Triton's scratch pointers); each C type has its PTX
    parameter's size (PTX_SCALARS)."""
    from smemlab.analyze import pyargs

    with pyargs.scratch() as tmp:
        unit, texts, shared = _python_unit(case, tmp)
    decls = kernel_params(unit.source, unit.source.split("(")[0].split()[-1])
    ptx = unit.module.kernels[unit.symbol].params
    if len(decls) != len(ptx) or len(texts) != len(ptx):
        raise ValueError(f"{case['id']}: {len(ptx)} PTX parameters, {len(decls)} declared, {len(texts)} arguments")
    params = []
    for (ctype, name), p, text in zip(decls, ptx, texts):
        if parse_arg(text)[0] != name:
            raise ValueError(f"{case['id']}: argument {text!r} for parameter {name}")
        if ctype == TENSOR_MAP:
            if p.size != 128:
                raise ValueError(f"{case['id']}: {name} is a tensor map, its PTX parameter has {p.size} bytes")
        elif "*" in ctype:
            if p.size != 8:
                raise ValueError(f"{case['id']}: {name} is a pointer, its PTX parameter {p.type} has {p.size} bytes")
        else:
            if p.type not in PTX_SCALARS:
                raise ValueError(f"{case['id']}: parameter {name}: PTX type {p.type} is not one the launcher passes")
            ctype = PTX_SCALARS[p.type]
        params.append((ctype, name))
    want = cubin_param_sizes(unit.cubin, unit.symbol)
    if [param_size(t) for t, _ in params] != want:
        raise ValueError(f"{case['id']}: the launch passes {[param_size(t) for t, _ in params]} bytes a parameter, "
                         f"the cubin takes {want}")
    texts = [f"{n}={v.relative_to(REPO)}" if v.is_absolute() and v.suffix == ".npy" else f"{n}={v}"
             for n, v in ((parse_arg(t)[0], Path(parse_arg(t)[1])) for t in texts)]
    return unit.cubin, unit.symbol, params, texts, int(shared)


def _cubin_kernel_info(cubin: bytes, symbol: str) -> list[tuple[int, bytes]]:
    """The (attribute, value) records of the kernel's `.nv.info.SYMBOL` section that carry a value (EIFMT_SVAL),
    read with no GPU."""
    import struct

    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    heads = [struct.unpack_from("<IIQQQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names_at = heads[shstrndx][4]

    def name(h) -> str:
        end = cubin.index(b"\0", names_at + h[0])
        return cubin[names_at + h[0]:end].decode()

    info = next((h for h in heads if name(h) == f".nv.info.{symbol}"), None)
    if info is None:
        raise ValueError(f"{symbol}: no .nv.info section in the cubin")
    data, records, at = cubin[info[4]:info[4] + info[5]], [], 0
    while at + 4 <= len(data):
        fmt, attr, value = struct.unpack_from("<BBH", data, at)
        at += 4
        if fmt != 0x04:  # EIFMT_SVAL carries `value` bytes; the others are 4 bytes in all
            continue
        records.append((attr, data[at:at + value]))
        at += value
    return records


def cubin_param_sizes(cubin: bytes, symbol: str) -> list[int]:
    """The kernel's parameter sizes as its cubin records them (EIATTR_KPARAM_INFO, what the driver's parameter
    info and cuda.core's `arguments_info` report)."""
    import struct

    sizes = {}
    for attr, raw in _cubin_kernel_info(cubin, symbol):
        if attr == 0x17:  # EIATTR_KPARAM_INFO: index, ordinal, offset, then the size in bits 18-31
            _, ordinal, _, flags = struct.unpack_from("<IHHI", raw)
            sizes[ordinal] = (flags >> 18) & 0x3FFF
    return [sizes[i] for i in range(len(sizes))]


def cubin_required_block(cubin: bytes, symbol: str) -> list[int] | None:
    """The block the kernel requires (EIATTR_REQNTID, from PTX's .reqntid), or None."""
    import struct

    for attr, raw in _cubin_kernel_info(cubin, symbol):
        if attr == 0x10:
            return list(struct.unpack_from("<III", raw))
    return None


def param_size(ctype: str) -> int:
    """Bytes a parameter of this C type takes in the launch (as Launcher.run passes it)."""
    if ctype == TENSOR_MAP:
        return 128
    dt = scalar_dtype(ctype)
    return 8 if dt is None else np.dtype(dt).itemsize


def case_constexprs(case: dict) -> dict:
    """A Triton case's constexprs as the kernel takes them: a dtype written as its name in the case's JSON
    ('tl.float16', as `--constexpr DTYPE=tl.float16` is written) becomes the dtype."""
    from smemlab.analyze.triton_front import tl_dtype

    return {k: (tl_dtype(v) or v) if isinstance(v, str) else v for k, v in case.get("constexprs", {}).items()}


def analyze_python(case: dict, **run):
    """`smemlab analyze`'s report of a Numba or Triton case, through the front end's public path (the file, the
    kernel's name, the block or the program, the arguments, constexprs, warps and stages)."""
    if str(REPO / "src") not in sys.path:
        sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze import numba_front, triton_front

    path, args = str(source_path(case["file"])), [_repo_npy(a) for a in case["args"]]
    if case["compiler"] == "numba":
        return numba_front.analyze(path, tuple(case["block"]), tuple(case["grid"]), tuple(case["block_index"]),
                                   int(case["dynamic_shared"]), args=args, name=case["kernel"], **run)
    return triton_front.analyze(path, tuple(case["grid"]), name=case["kernel"], args=args,
                                constexprs=case_constexprs(case), num_warps=int(case["num_warps"]),
                                num_stages=int(case["num_stages"]), program=tuple(case["block_index"]),
                                arch=int(case.get("arch", 90)), **run)


def compile_case(case: dict) -> tuple[bytes, str]:
    """(cubin, lowered kernel name) of a case, compiled with NVRTC for sm_90 with line info."""
    from cuda.core import Program, ProgramOptions

    path = source_path(case["file"])
    name = os.path.relpath(path, REPO)  # the program name becomes the file name of the line info
    opts = ProgramOptions(name=name, arch="sm_90", std="c++17", lineinfo=True,
                          include_path=[os.path.relpath(path.parent, REPO), os.path.relpath(INCLUDE_DIR, REPO)],
                          define_macro=sorted(case["defines"].items()) or None)
    cwd = os.getcwd()
    os.chdir(REPO)  # relative include paths: the line info names repo-relative files
    try:
        obj = Program(path.read_text(), "c++", options=opts).compile("cubin", name_expressions=[case["kernel"]])
    finally:
        os.chdir(cwd)
    lowered = obj.symbol_mapping.get(case["kernel"], case["kernel"]) if hasattr(obj, "symbol_mapping") else case["kernel"]
    if isinstance(lowered, bytes):
        lowered = lowered.decode()
    return bytes(obj.code), lowered


def nvrtc_version() -> str:
    from cuda.bindings import nvrtc

    _, major, minor = nvrtc.nvrtcVersion()
    return f"{major}.{minor}"


def front_end_versions(cases: list[dict]) -> dict:
    """{"numba_cuda": ..., "triton": ...} of the front ends that compiled some of the cases: their cubins (their
    PTX, and for Triton its ptxas) are those releases'."""
    from importlib.metadata import version

    used = {c.get("compiler") for c in cases}
    return {key: version(dist) for key, dist in (("numba_cuda", "numba-cuda"), ("triton", "triton"))
            if key.split("_")[0] in used}


def build(build_dir: Path, only: list[str] | None = None) -> int:
    from cases import CASES

    import cuda.core

    (build_dir / "cubin").mkdir(parents=True, exist_ok=True)
    manifest, cubins, refused = [], {}, []
    for case in CASES:
        if only and not any(re.search(o, case["id"]) for o in only):
            continue
        whole = case.get("compiler") == "nvcc"
        if case.get("compiler") in PYTHON:
            from smemlab.errors import UserError

            try:
                cubin, lowered, params, texts, shared = compile_python(case)
            except UserError as exc:  # another release of the front end than the one the case was written for
                refused.append(case["id"])
                print(f"{case['id']}: not built: {str(exc)[:300]}")
                continue
            args = check_args(dict(case, args=texts), params)  # the case keeps its own args (the fixture's)
            h = hashlib.sha256(cubin).hexdigest()[:16]
            fname = f"{Path(case['file']).stem}-{h}.cubin"
            (build_dir / "cubin" / fname).write_bytes(cubin)
            cubins[("python", case["id"])] = (fname, lowered)
            manifest.append(dict(case, cubin=fname, lowered=lowered, params=args, launch_shared=shared))
            continue
        if whole:
            cubin, lowered, params = compile_whole(case)
            given = {parse_arg(a)[0] for a in case["args"]}
            case = dict(case, args=[next(a for a in case["args"] if parse_arg(a)[0] == n) if n in given else f"{n}=0"
                                    for _, n in params])
        else:
            params = kernel_params(source_path(case["file"]).read_text(), case["kernel"])
        args = check_args(case, params)
        key = (case["file"], tuple(sorted(case["defines"].items())), case["kernel"])
        if key not in cubins:
            if not whole:
                cubin, lowered = compile_case(case)
            h = hashlib.sha256(cubin).hexdigest()[:16]
            fname = f"{Path(case['file'].replace('package:', '')).stem}-{h}.cubin"
            (build_dir / "cubin" / fname).write_bytes(cubin)
            cubins[key] = (fname, lowered)
        fname, lowered = cubins[key]
        manifest.append(dict(case, cubin=fname, lowered=lowered, params=args))
    meta = {"nvrtc": nvrtc_version(), "cuda_core": cuda.core.__version__, **front_end_versions(manifest),
            "cases": manifest}
    (build_dir / "manifest.json").write_text(json.dumps(meta, indent=1))
    print(f"built {len(manifest)} cases, {len(cubins)} cubins, NVRTC {meta['nvrtc']}, cuda.core {meta['cuda_core']}")
    if refused:
        print(f"{len(refused)} cases the front end here does not compile: {' '.join(refused)}")
    return 0


# ---------------------------------------------------------------------------------------------
# launching (on the GPU machine; also the program ncu profiles)


class Launcher:
    def __init__(self, build_dir: Path):
        import cupy
        from cuda.core import Device

        self.cupy = cupy
        self.build_dir = build_dir
        self.dev = Device(0)
        self.dev.set_current()
        self.cstream = cupy.cuda.Stream(non_blocking=True)
        from cuda.core import Stream

        self.stream = Stream.from_handle(self.cstream.ptr)
        self.objects: dict[str, object] = {}

    def kernel(self, c: dict):
        from cuda.core import ObjectCode

        if c["cubin"] not in self.objects:
            self.objects[c["cubin"]] = ObjectCode.from_cubin((self.build_dir / "cubin" / c["cubin"]).read_bytes())
        obj = self.objects[c["cubin"]]
        return obj, obj.get_kernel(c["lowered"])

    def set_constants(self, obj, constants: dict) -> None:
        from cuda.bindings import driver

        for sym, values in constants.items():
            data = np.asarray(values, dtype=np.float32)
            handle = obj.handle
            if isinstance(handle, driver.CUlibrary):
                err, dptr, size = driver.cuLibraryGetGlobal(handle, sym.encode())
            else:
                err, dptr, size = driver.cuModuleGetGlobal(handle, sym.encode())
            assert err == driver.CUresult.CUDA_SUCCESS, (sym, err)
            assert data.nbytes <= size, (sym, data.nbytes, size)
            (err,) = driver.cuMemcpyHtoD(dptr, data.ctypes.data, data.nbytes)
            assert err == driver.CUresult.CUDA_SUCCESS, (sym, err)

    def allow_smem(self, kern, nbytes: int) -> None:
        if nbytes <= 0:  # static + dynamic past 48 KiB needs the opt-in; 48 KiB dynamic beside any static does too
            return
        from cuda.bindings import driver

        attr = driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        h = kern.handle
        if isinstance(h, driver.CUkernel):
            (err,) = driver.cuKernelSetAttribute(attr, nbytes, h, self.dev.device_id)
        else:
            (err,) = driver.cuFuncSetAttribute(h, attr, nbytes)
        assert err == driver.CUresult.CUDA_SUCCESS, err

    def tensor_map(self, p: dict):
        """(the tensor's host array, address -> the CUtensorMap's 128 bytes) of a tensor-map parameter, encoded
        by cuTensorMapEncodeTiled as Triton's launcher encodes it (driver.c fillTMADescriptorTiled: element
        strides 1, no interleave, L2 promotion 128B, the case's swizzle and OOB fill)."""
        import ctypes

        from cuda.bindings import driver

        sys.path.insert(0, str(REPO / "src"))
        from smemlab.analyze import args as A

        spec = A.parse_arg(f"{p['name']}={p['value']}")[1]
        data = np.ascontiguousarray(A._data_for(p["name"], spec.data))
        rank = len(spec.dims)

        def encode(address: int) -> bytes:
            fill = driver.CUtensorMapFloatOOBfill(1 if spec.fill_nan else 0)
            u32, u64 = driver.cuuint32_t, driver.cuuint64_t
            err, tmap = driver.cuTensorMapEncodeTiled(
                driver.CUtensorMapDataType(int(spec.elem_type)), u32(rank), int(address),
                [u64(int(d)) for d in spec.dims], [u64(int(d)) for d in spec.strides], [u32(int(b)) for b in spec.box],
                [u32(1)] * rank, driver.CUtensorMapInterleave(0), driver.CUtensorMapSwizzle(int(spec.swizzle)),
                driver.CUtensorMapL2promotion(2), fill)
            assert err == driver.CUresult.CUDA_SUCCESS, (p["name"], err)
            return ctypes.string_at(tmap.getPtr(), 128)
        return data, encode

    def launch_raw(self, kern, kw: dict, params: list[dict], kargs: list) -> None:
        """cuLaunchKernel with a void* per parameter (a tensor map is 128 bytes passed by value, which
        cuda.core's launch does not take in every release)."""
        import ctypes

        from cuda.bindings import driver

        keep = []
        for p, a in zip(params, kargs):
            if p["ctype"] == TENSOR_MAP:
                keep.append((ctypes.c_uint8 * 128).from_buffer_copy(a))
            else:
                raw = np.asarray(a).tobytes()
                keep.append((ctypes.c_uint8 * len(raw)).from_buffer_copy(raw))
        ptrs = (ctypes.c_void_p * len(keep))(*[ctypes.addressof(k) for k in keep])
        h = kern.handle
        fn = driver.CUfunction(int(h)) if isinstance(h, driver.CUkernel) else h
        grid = (tuple(kw["grid"]) + (1, 1))[:3]
        block = (tuple(kw["block"]) + (1, 1))[:3]
        (err,) = driver.cuLaunchKernel(fn, *map(int, grid), *map(int, block), int(kw["shmem_size"]),
                                       driver.CUstream(int(self.cstream.ptr)), ctypes.addressof(ptrs), 0)
        assert err == driver.CUresult.CUDA_SUCCESS, err

    def run(self, c: dict) -> dict:
        """Launch one case; what came back: which buffers changed, NaNs, an error."""
        from cuda.core import LaunchConfig, launch

        cp = self.cupy
        obj, kern = self.kernel(c)
        if c.get("constants"):
            self.set_constants(obj, c["constants"])
        host, dev, kargs = {}, {}, []
        for p in c["params"]:
            if p["ctype"] == TENSOR_MAP:
                data, tmap = self.tensor_map(p)
                host[p["name"]] = data
                dev[p["name"]] = cp.asarray(data)
                kargs.append(tmap(int(dev[p["name"]].data.ptr)))
            elif p["pointer"] and p["value"].startswith("ptrs("):
                ptrs = []  # each item a buffer of its own, the table their addresses
                for k, item in enumerate(table_items(p["name"], p["value"])):
                    key = f"{p['name']}[{k}]"
                    host[key] = np.ascontiguousarray(item)
                    dev[key] = cp.asarray(host[key])
                    ptrs.append(int(dev[key].data.ptr))
                host[p["name"]] = np.array(ptrs, dtype=np.uint64)
                dev[p["name"]] = cp.asarray(host[p["name"]])
                kargs.append(np.uintp(dev[p["name"]].data.ptr))
            elif p["pointer"]:
                a = np.ascontiguousarray(fill(p["name"], p["value"]))
                host[p["name"]] = a
                dev[p["name"]] = cp.asarray(a)  # a copy, no kernel
                kargs.append(np.uintp(dev[p["name"]].data.ptr))
            else:
                v = float(p["value"]) if p["dtype"].startswith("float") else int(p["value"])
                kargs.append(np.dtype(p["dtype"]).type(v))
        sizes = None
        try:
            sizes = [i.size for i in kern.arguments_info]
        except Exception:
            pass
        if sizes is not None:
            want = [param_size(p["ctype"]) for p in c["params"]]
            assert sizes == want, f"{c['id']}: parameter sizes {sizes}, arguments {want}"
        shared = c.get("launch_shared", c["dynamic_shared"])  # Triton's: the bytes it sized, known from the build
        self.allow_smem(kern, shared)
        kw = dict(grid=tuple(c["grid"]), block=tuple(c["block"]), shmem_size=shared)
        if c.get("cluster"):  # cuda.core's grid counts clusters where a cluster is given
            kw["cluster"] = tuple(c["cluster"])
            kw["grid"] = tuple(g // k for g, k in zip(c["grid"], c["cluster"]))
        cp.cuda.runtime.deviceSynchronize()
        if any(p["ctype"] == TENSOR_MAP for p in c["params"]):
            self.launch_raw(kern, kw, c["params"], kargs)
        else:
            launch(self.stream, LaunchConfig(**kw), kern, *kargs)
        self.cstream.synchronize()
        changed, nan = [], []
        for name, a in host.items():
            b = cp.asnumpy(dev[name])
            if not np.array_equal(a.view(np.uint8), b.view(np.uint8)):
                changed.append(name)
            if b.dtype.kind == "f" and np.isnan(b).any() and not np.isnan(a).any():
                nan.append(name)
        return {"id": c["id"], "changed": changed, "nan": nan, "ok": bool(changed) and not nan}


def selected(cases: list[dict], only: list[str] | None) -> list[dict]:
    return [c for c in cases if not only or any(re.search(o, c["id"]) for o in only)]


def launch_all(build_dir: Path, out_json: Path, only: list[str] | None = None) -> int:
    meta = json.loads((build_dir / "manifest.json").read_text())
    L = Launcher(build_dir)
    results = []
    for c in selected(meta["cases"], only):
        try:
            r = L.run(c)
        except Exception as exc:  # name the case; the rest still run
            r = {"id": c["id"], "ok": False, "error": f"{type(exc).__name__}: {exc}"}
            print(f"FAILED {c['id']}: {r['error']}", flush=True)
            traceback.print_exc()
            if "CUDA_ERROR" in str(exc) and "LAUNCH" in str(exc):
                break  # the context is gone
        results.append(r)
    out_json.write_text(json.dumps(results, indent=1))
    bad = [r["id"] for r in results if not r["ok"]]
    print(f"{len(results)} launched, {len(bad)} not ok: {bad}", flush=True)
    return 0


# ---------------------------------------------------------------------------------------------
# the device step: plain run, two ncu processes, extraction


def _sh(cmd: str, out: Path | None = None, timeout: float | None = None, quiet: bool = False) -> int:
    if not quiet:
        print("+", cmd, flush=True)
    t0 = time.time()
    with (open(out, "w") if out else open(os.devnull, "w")) as f:
        try:
            r = subprocess.run(cmd, shell=True, stdout=f, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            r = 124
    if not quiet or r:
        print(f"  rc={r} {time.time() - t0:.1f} s  {'' if not quiet else cmd}", flush=True)
    return r


def _parallel(jobs: list[tuple[str, Path]], workers: int = 12) -> list[int]:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(workers) as ex:
        return list(ex.map(lambda j: _sh(j[0], j[1], timeout=120, quiet=True), jobs))


def device(build_dir: Path, outdir: Path, explore: bool = False, ncu_timeout: float = 400,
           only: list[str] | None = None, repeat: bool = True) -> int:
    t_start = time.time()
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "source").mkdir(exist_ok=True)
    (outdir / "lines").mkdir(exist_ok=True)
    me = f"{sys.executable} {Path(__file__).resolve()}"
    _sh("(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; ncu --version; "
        "nvdisasm --version; python3 -c 'import cupy, cuda.core; print(\"cupy\", cupy.__version__, \"cuda.core\", "
        "cuda.core.__version__)'; date -u +%Y-%m-%dT%H:%M:%SZ)", outdir / "env.txt")
    meta = json.loads((build_dir / "manifest.json").read_text())
    n = len(selected(meta["cases"], only))
    sel = (" --only " + " ".join(f"'{o}'" for o in only)) if only else ""
    # line tables of every cubin (address -> file:line), a cross-check of ncu's source view
    cubins = sorted({c["cubin"] for c in meta["cases"]})
    _parallel([(f"nvdisasm -g -c {build_dir}/cubin/{c}", outdir / "lines" / (c + ".txt")) for c in cubins])
    # 1. plain run: every case launches and writes its outputs (all cases, also with --only)
    _sh(f"{me} launch {build_dir} {outdir}/plain.json", outdir / "plain.log", timeout=300)
    print(open(outdir / "plain.log").read()[-2000:], flush=True)
    # 2. one profiled process, one report: the metrics and the source counters of every launch
    metrics = ",".join(METRICS)
    rep = outdir / "rep"
    _sh(f"ncu --clock-control none --section SourceCounters --metrics {metrics} --import-source yes "
        f"--export {rep} --force-overwrite {me} launch {build_dir} {outdir}/profiled.json{sel}",
        outdir / "ncu.log", timeout=ncu_timeout)
    print(open(outdir / "ncu.log").read()[-1500:], flush=True)
    report = f"{rep}.ncu-rep"
    if not os.path.exists(report):
        return 1
    _sh(f"ncu -i {report} --page raw --csv --print-units base --metrics {metrics}", outdir / "raw.csv")
    # 3. the source view of each launch: CUDA lines with their SASS and its counters
    t0 = time.time()
    rcs = _parallel([(f"ncu -i {report} --page source --csv --print-source cuda,sass --launch-skip {i} --launch-count 1",
                      outdir / "source" / f"{i:03d}.csv") for i in range(n)])
    print(f"source pages: {n} in {time.time() - t0:.1f} s, {sum(1 for r in rcs if r)} failed", flush=True)
    # 4. the totals again, from a second process (metrics only): are the counts repeatable?
    if repeat:
        left = ncu_timeout - (time.time() - t_start)
        _sh(f"ncu --clock-control none --metrics {metrics} --export {outdir}/rep2 --force-overwrite "
            f"{me} launch {build_dir} {outdir}/profiled2.json{sel}", outdir / "ncu2.log", timeout=max(30.0, left))
        if os.path.exists(f"{outdir}/rep2.ncu-rep"):
            _sh(f"ncu -i {outdir}/rep2.ncu-rep --page raw --csv --print-units base --metrics {metrics}",
                outdir / "raw2.csv")
    if explore:
        _sh("ncu --help", outdir / "explore_help.txt")
    print(f"device step {time.time() - t_start:.0f} s", flush=True)
    return 0


# ---------------------------------------------------------------------------------------------
# the fixture step


def parse_raw(path: Path) -> list[dict]:
    """ncu --page raw --csv: one dict per launch, in launch order (first row: names, second: units)."""
    lines = [ln for ln in open(path, errors="replace") if ln.startswith('"')]
    rows = list(csv.reader(lines))
    head = rows[0]
    out = []
    for r in rows[1:]:
        if len(r) != len(head) or not r[0].strip().isdigit():
            continue  # the units row
        d = dict(zip(head, r))
        rec = {"kernel": d.get("Kernel Name", ""), "id": int(d["ID"])}
        for m in METRICS:
            v = d.get(m)
            if v not in (None, "", "n/a"):
                try:
                    rec[m] = float(v.replace(",", ""))
                except ValueError:
                    pass
        out.append(rec)
    return sorted(out, key=lambda r: r["id"])


SASS_COLS = {"Instructions Executed": "instructions_executed", "Thread Instructions Executed": "thread_instructions",
             "Predicated-On Thread Instructions Executed": "predicated_on_threads", "Address Space": "space",
             "Access Operation": "access", "Access Size": "access_bits", "L1 Conflicts Shared N-Way": "conflicts_nway",
             "L1 Wavefronts Shared Excessive": "excessive", "L1 Wavefronts Shared": "wavefronts",
             "L1 Wavefronts Shared Ideal": "ideal_wavefronts",
             # global and local memory, per SASS instruction (the SourceCounters section's columns)
             "L2 Theoretical Sectors Global": "global_sectors", "L2 Theoretical Sectors Global Ideal": "global_ideal",
             "L2 Theoretical Sectors Global Excessive": "global_excessive", "L1 Tag Requests Global": "global_requests",
             "L2 Theoretical Sectors Local": "local_sectors", "L2 Theoretical Sectors Local Ideal": "local_ideal"}


def parse_source(path: Path) -> tuple[list[dict], list[str]]:
    """ncu --page source --print-source cuda,sass --csv of one launch: one dict per SASS instruction
    (absolute address, text, counters, and every (file, line) the view lists it under: an inlined
    instruction of a header is listed under the header's line and under its call site's), and the
    problems seen. ncu may print a launch's view twice; the copies must agree."""
    rows = list(csv.reader([ln for ln in open(path, errors="replace") if ln.startswith('"')]))
    out: dict[int, dict] = {}
    problems = []
    file, line, head = None, 0, None
    for r in rows:
        if r and r[0] == "File Path":
            file = r[1]
            continue
        if r and r[0] in ("Function Name", "Kernel Name"):
            continue
        if r and r[0] == "Line No":
            head = r
            continue
        if head is None or len(r) < 4:
            continue
        if r[0].strip():
            line = int(r[0])
        if not r[2].startswith("0x"):
            continue
        d = {"address": int(r[2], 16), "text": r[3].strip()}
        for i, name in enumerate(head[4:], start=4):
            if name in SASS_COLS and i < len(r):
                d[SASS_COLS[name]] = r[i]
        prev = out.get(d["address"])
        if prev is None:
            out[d["address"]] = dict(d, where=[(file, line)])
            continue
        if {k: v for k, v in prev.items() if k != "where"} != d:
            problems.append(f"{path.name}: two views of {hex(d['address'])} differ")
        if (file, line) not in prev["where"]:
            prev["where"].append((file, line))
    return [out[a] for a in sorted(out)], problems


LINE_RE = re.compile(r'//## File "([^"]+)", line (\d+)')
INS_RE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def parse_lines(path: Path) -> dict[str, dict[int, tuple[str, int, str]]]:
    """nvdisasm -g -c: {function: {offset: (file, line, instruction text)}}."""
    out: dict[str, dict[int, tuple[str, int, str]]] = {}
    fn, where = None, ("?", 0)
    for ln in open(path, errors="replace"):
        s = ln.strip()
        if s.startswith(".text.") and s.endswith(":"):
            fn = s[len(".text."):-1]
            out.setdefault(fn, {})
            continue
        m = LINE_RE.search(ln)
        if m:
            where = (m.group(1), int(m.group(2)))
            continue
        m = INS_RE.search(ln)
        if m and fn is not None:
            out[fn][int(m.group(1), 16)] = (where[0], where[1], m.group(2).strip())
    return out


def _num(v) -> float:
    if v in (None, "", "-", "n/a"):
        return 0.0
    return float(str(v).replace(",", ""))


def _opcode(text: str) -> str:
    """'@!P0 LDS.128 R4, [R2]' -> 'LDS.128'."""
    words = text.split()
    while words and words[0].startswith("@"):
        words = words[1:]
    return words[0] if words else ""


ACCESS = {"Load": "load", "Store": "store", "Atomic": "atomic", "Reduction": "atomic"}
OPS3 = (("load", "ld"), ("store", "st"), ("atomic", "atom"))


def totals_of(r: dict) -> dict:
    """The kernel's totals from the metrics: instructions (warp-level, at least one thread predicated
    on; LDSM/STSM counted in load/store), wavefronts and bank conflicts."""
    t = {}
    for op, o in OPS3:
        ins = r.get(f"smsp__sass_inst_executed_op_shared_{o}.sum", 0)
        ins += r.get({"ld": "smsp__sass_inst_executed_op_ldsm.sum", "st": "smsp__sass_inst_executed_op_shared_stsm.sum"}.get(o, ""), 0)
        sass_wf = r.get(f"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{o}.sum", 0)
        sass_wf += r.get({"ld": "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
                          "st": "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum"}.get(o, ""), 0)
        t[op] = {"instructions": int(ins), "wavefronts": int(r.get(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{o}.sum", 0)),
                 "conflicts": int(r.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{o}.sum", 0)),
                 "sass_wavefronts": int(sass_wf)}
    return t


MEMORY_OPS = {("Global", "load"): "global load", ("Global", "store"): "global store", ("Global", "atomic"): "global atomic",
              ("Local", "load"): "local load", ("Local", "store"): "local store"}


def memory_row(d: dict, off: int, fmap: dict) -> dict | None:
    """A global or local SASS instruction of the source view with its counters (None: another space, or
    never issued): `op` "global load|store|atomic", "global ldgsts" (cp.async's read), "local load|store"."""
    space = d.get("space", "-")
    opcode = _opcode(d["text"])
    access = ACCESS.get(d.get("access", ""), "other")
    op = "global ldgsts" if opcode.startswith("LDGSTS") else MEMORY_OPS.get((space.split(",")[0], access))
    ins = int(_num(d.get("instructions_executed")))
    if op is None or ins == 0:
        return None
    ffile, fline, _ = fmap.get(off, ("?", 0, ""))
    file, line = (repo_file(ffile), fline) if fline else (repo_file(d["where"][0][0] or "?"), d["where"][0][1])
    local = op.startswith("local")
    return {"file": file, "line": line, "opcode": opcode, "op": op, "address": off, "instructions_executed": ins,
            "bytes": int(_num(d.get("access_bits"))) // 8, "threads": int(_num(d.get("predicated_on_threads"))),
            "requests": int(_num(d.get("global_requests"))),
            "sectors": int(_num(d.get("local_sectors" if local else "global_sectors"))),
            "ideal_sectors": int(_num(d.get("local_ideal" if local else "global_ideal"))),
            "excessive_sectors": int(_num(d.get("global_excessive")))}


def memory_record(r: dict, rows: list[dict]) -> dict:
    """The case's global and local traffic: `totals` from the L1 counters (requests and sectors per op:
    ld, st, atom, red, ldgsts; local ld, st) with the source view's ideal summed, `lines` per (file, line,
    op) and the `sass` rows (memory_row)."""
    totals = {}
    for key, space, ops in (("global load", "global", ("ld",)), ("global store", "global", ("st",)),
                            ("global atomic", "global", ("atom", "red")), ("global ldgsts", "global", ("ldgsts",)),
                            ("local load", "local", ("ld",)), ("local store", "local", ("st",))):
        totals[key] = {what: int(sum(r.get(f"l1tex__t_{what}_pipe_lsu_mem_{space}_op_{o}.sum", 0) for o in ops))
                       for what in ("requests", "sectors")}
        # the global-load counters count cp.async's reads too (ldgsts's own stay 0 on the H200): their rows'
        # ideal goes with them
        mine = (key, "global ldgsts") if key == "global load" else (key,)
        totals[key]["ideal_sectors"] = sum(x["ideal_sectors"] for x in rows if x["op"] in mine)
        totals[key]["sass_sectors"] = sum(x["sectors"] for x in rows if x["op"] in mine)
    lines: dict[tuple, dict] = {}
    for x in rows:
        d = lines.setdefault((x["file"], x["line"], x["op"]), {"file": x["file"], "line": x["line"], "op": x["op"],
                                                               "instructions_executed": 0, "requests": 0,
                                                               "sectors": 0, "ideal_sectors": 0})
        for k in ("instructions_executed", "requests", "sectors", "ideal_sectors"):
            d[k] += x[k]
    return {"totals": totals, "lines": sorted(lines.values(), key=lambda d: (d["file"], d["line"], d["op"])),
            "sass": rows}


def fixture(outdir: Path, build_dir: Path, out: Path, merge: bool = False) -> int:
    if str(REPO / "src") not in sys.path:
        sys.path.insert(0, str(REPO / "src"))
    from smemlab.analyze.sass import WARPGROUP_MMA

    meta = json.loads((build_dir / "manifest.json").read_text())
    by_id = {c["id"]: c for c in meta["cases"]}
    # a launch that failed before its kernel ran (its arguments, say) has no row in the report: left out
    profiled = [p for p in json.loads((outdir / "profiled.json").read_text()) if "error" not in p]
    raw = parse_raw(outdir / "raw.csv")
    raw2 = parse_raw(outdir / "raw2.csv") if (outdir / "raw2.csv").exists() else []
    prof2 = ([p for p in json.loads((outdir / "profiled2.json").read_text()) if "error" not in p]
             if (outdir / "profiled2.json").exists() else [])
    rep2 = {p["id"]: r for p, r in zip(prof2, raw2)} if len(prof2) == len(raw2) else {}
    env = (outdir / "env.txt").read_text()
    if len(raw) != len(profiled):
        raise SystemExit(f"{len(profiled)} launches but {len(raw)} profiled results")
    line_maps: dict[str, dict] = {}
    records, problems = [], []
    for i, (p, r) in enumerate(zip(profiled, raw)):
        c = by_id[p["id"]]
        if not p.get("ok"):
            problems.append(f"{c['id']}: the launch did not check out ({p})")
        if c["cubin"] not in line_maps:
            line_maps[c["cubin"]] = parse_lines(outdir / "lines" / (c["cubin"] + ".txt"))
        fmap = line_maps[c["cubin"]].get(c["lowered"], {})
        rows, probs = parse_source(outdir / "source" / f"{i:03d}.csv")
        problems += probs
        base = min((d["address"] for d in rows), default=0)
        sass = []
        memory_rows = []
        for d in rows:
            space = d.get("space", "-")
            if "hared" not in space or space.startswith("Global"):  # LDGSTS ("Global,Shared"): both sides
                row = memory_row(d, d["address"] - base, fmap)
                if row is not None:
                    memory_rows.append(row)
            if "hared" not in space:
                continue
            off = d["address"] - base
            opcode = _opcode(d["text"])
            ffile, fline, ftext = fmap.get(off, ("?", 0, ""))
            views = [(repo_file(f or "?"), ln) for f, ln in d["where"]]
            if _opcode(ftext) != opcode:
                problems.append(f"{c['id']}: ncu's {opcode} at +{off:#x}, nvdisasm's {ftext!r}")
            if (repo_file(ffile), fline) not in views:
                problems.append(f"{c['id']}: {opcode} at +{off:#x}: nvdisasm {ffile}:{fline}, ncu {views}")
            # the line: the innermost one (nvdisasm's line table), where the access is written
            file, line = (repo_file(ffile), fline) if fline else views[0]
            if opcode.startswith("UBLKCP"):
                continue  # cp.async.bulk: the copy engine writes shared memory, no LSU wavefronts (always 0)
            op = ACCESS.get(d.get("access", ""), "other")
            if opcode.startswith("LDGSTS"):
                op = "ldgsts"  # cp.async ("Global,Shared", "Load,Store"): not in the load/store totals
            elif space != "Shared":  # distributed shared memory (a cluster of several blocks): counted apart
                op = "dsmem_" + op
            ins = int(_num(d.get("instructions_executed")))
            wf, ideal = int(_num(d.get("wavefronts"))), int(_num(d.get("ideal_wavefronts")))
            if ins == 0 and wf == 0:
                continue  # never issued
            sass.append({"line": line, "file": file, "opcode": opcode, "op": op,
                         "instructions_executed": ins, "wavefronts": wf, "ideal_wavefronts": ideal,
                         "conflicts_nway": _num(d.get("conflicts_nway")), "address": off,
                         "bytes": int(_num(d.get("access_bits"))) // 8,
                         "threads": int(_num(d.get("predicated_on_threads")))})
        lines: dict[tuple, dict] = {}
        for s in sass:
            key = (s["file"], s["line"], s["op"])
            d = lines.setdefault(key, {"file": s["file"], "line": s["line"], "op": s["op"], "instructions_executed": 0,
                                       "wavefronts": 0, "ideal_wavefronts": 0})
            for k in ("instructions_executed", "wavefronts", "ideal_wavefronts"):
                d[k] += s[k]
        totals = totals_of(r)
        attributed, lines_agree = True, True
        for op, _ in OPS3:
            mine = [s for s in sass if s["op"] in (op, "dsmem_" + op)]  # dsmem_: lanes on other blocks too
            totals[op]["ideal_wavefronts"] = sum(s["ideal_wavefronts"] for s in mine)
            totals[op] = {k: totals[op][k] for k in ("instructions", "wavefronts", "ideal_wavefronts", "conflicts",
                                                     "sass_wavefronts")}
            if totals[op]["sass_wavefronts"] != totals[op]["wavefronts"]:
                attributed = False
            # HGMMA's shared operand reads are listed with the loads but not in the SASS-attributed counter
            counted = sum(s["wavefronts"] for s in mine if not s["opcode"].startswith(WARPGROUP_MMA))
            if counted != totals[op]["sass_wavefronts"]:
                problems.append(f"{c['id']}: {op} lines sum to {counted}, "
                                f"the SASS-attributed total is {totals[op]['sass_wavefronts']}")
                lines_agree = False
        r2 = rep2.get(c["id"])
        # the source page comes from a run of its own: lines that do not sum to the counters' totals are a second
        # run that differs (a block's union-find whose CAS retries follow the warps' interleaving)
        repeatable = None if r2 is None else lines_agree and all(
            totals_of(r2)[op][k] == totals[op][k] for op, _ in OPS3 for k in ("instructions", "wavefronts"))
        rec = {k: c[k] for k in ("id", "file", "kernel", "defines", "block", "grid", "block_index", "dynamic_shared", "args")}
        if c.get("cluster") and list(c["cluster"]) != [1, 1, 1]:
            rec["cluster"] = list(c["cluster"])
        # whole files and Python kernels: how `smemlab analyze` compiles them (launch_shared: Triton's shared bytes)
        for key in ("compiler", "include_dirs", "options", "constexprs", "num_warps", "num_stages", "arch", "launch_shared"):
            if c.get(key):
                rec[key] = c[key]
        rec["totals"] = totals
        rec["lines"] = sorted(lines.values(), key=lambda d: (d["file"], d["line"], d["op"]))
        rec["sass"] = sass
        rec["memory"] = memory_record(r, memory_rows)
        rec["attributed"] = attributed
        rec["repeatable"] = repeatable
        if r2 is not None and not repeatable:
            rec["totals_second_run"] = {op: {k: totals_of(r2)[op][k] for k in ("instructions", "wavefronts")}
                                        for op, _ in OPS3}
        records.append(rec)
    prov = {"gpu": "", "driver": "", "ncu": "", "nvrtc": meta["nvrtc"], "cuda_core": meta["cuda_core"], "date": "",
            "script": "tools/analyze_truth/measure.py"}
    prov.update({k: meta[k] for k in ("numba_cuda", "triton") if k in meta})  # the Python kernels' front ends
    for rec in records:  # and each Python case's own, which its comparison needs here
        if rec.get("compiler") in PYTHON:
            rec["front_end"] = {k: v for k, v in meta.items() if k.split("_")[0] == rec["compiler"]}
    m = re.search(r"^(NVIDIA [^,\n]+), ([0-9.]+),", env, re.M)
    if m:
        prov["gpu"], prov["driver"] = m.group(1), m.group(2)
    m = re.search(r"Version ([0-9.]+)", env)
    if m:
        prov["ncu"] = m.group(1)
    m = re.search(r"^(\d{4}-\d\d-\d\dT[0-9:]+Z)$", env, re.M)
    if m:
        prov["date"] = m.group(1)
    m = re.search(r"cuda\.core (\S+)", env)
    if m:
        prov["cuda_core_device"] = m.group(1)
    if merge and out.exists():
        prov, records = merged(out, prov, records)
    write_fixture(out, prov, records)
    print(f"wrote {len(records)} cases to {out}")
    print(f"not attributed (hardware totals != SASS-attributed totals): {[r['id'] for r in records if not r['attributed']]}")
    print(f"not repeatable: {[r['id'] for r in records if r['repeatable'] is False]}")
    print(f"{len(problems)} problems" + "".join(f"\n  {p}" for p in problems[:40]))
    return 0


def merged(out: Path, prov: dict, records: list[dict]) -> tuple[dict, list[dict]]:
    """The fixture in `out` with `records` added (or replacing theirs), in cases.py's order; its
    provenance stays and this recording's is appended to provenance["added"] with the ids it holds."""
    from cases import CASES

    old = json.loads(out.read_text())
    by_id = {r["id"]: r for r in old["cases"]}
    by_id.update({r["id"]: r for r in records})
    order = {c["id"]: i for i, c in enumerate(CASES)}
    keep = old["provenance"]
    keep.setdefault("added", []).append(dict(prov, cases=[r["id"] for r in records]))
    return keep, sorted(by_id.values(), key=lambda r: order.get(r["id"], len(order)))


def write_fixture(out: Path, prov: dict, records: list[dict]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w") as f:  # one case per line: small diffs, still one JSON document
        f.write('{"provenance": ' + json.dumps(prov) + ',\n"cases": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in records))
        f.write("\n]}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    b = sub.add_parser("build")
    b.add_argument("build_dir", type=Path)
    b.add_argument("--only", nargs="*", help="regular expressions of case ids")
    la = sub.add_parser("launch")
    la.add_argument("build_dir", type=Path)
    la.add_argument("out_json", type=Path)
    la.add_argument("--only", nargs="*", help="regular expressions of case ids")
    d = sub.add_parser("device")
    d.add_argument("build_dir", type=Path)
    d.add_argument("outdir", type=Path)
    d.add_argument("--explore", action="store_true")
    d.add_argument("--ncu-timeout", type=float, default=400)
    d.add_argument("--only", nargs="*", help="regular expressions of case ids to profile (all are launched plain)")
    d.add_argument("--no-repeat", action="store_true", help="skip the second profiled process")
    fx = sub.add_parser("fixture")
    fx.add_argument("outdir", type=Path)
    fx.add_argument("build_dir", type=Path)
    fx.add_argument("--out", type=Path, default=REPO / "tests" / "data" / "analyze_truth.json")
    fx.add_argument("--merge", action="store_true", help="add these cases to the fixture in --out (a recording of "
                                                         "some cases: build and device with --only)")
    a = ap.parse_args(argv)
    if a.step == "build":
        return build(a.build_dir, a.only)
    if a.step == "launch":
        return launch_all(a.build_dir, a.out_json, a.only)
    if a.step == "device":
        return device(a.build_dir, a.outdir, a.explore, a.ncu_timeout, a.only, not a.no_repeat)
    return fixture(a.outdir, a.build_dir, a.out, a.merge)


if __name__ == "__main__":
    sys.exit(main())
