"""`smemlab analyze` counts what the SASS does, whatever PTX NVRTC wrote on the way to it.

NVRTC does not always write the same PTX for the same source: register numbers and the order of
independent instructions vary, and so, at times, does the form of a float4 read of shared memory
(seen in lib/matmul.cu's mm_vectorized: one `ld.shared.v4`, or an `ld.shared.v4` whose upper half is
never used then an `ld.shared.v2` of that half, marked `.pragma "used_bytes_mask 255"`). ptxas makes
the same SASS of each, and Nsight Compute counts that; analyze must count the same for all of them.

Two kinds of checks, no GPU:
- tests/data/analyze/reload.cu pins each form of the float4 read with inline asm on one source line;
  where ptxas made the same SASS of two forms (checked with nvdisasm), their counts must be equal;
- package kernels of the truth fixture are analysed from their own PTX and from a rewrite of it
  (registers renumbered; neighbouring shared loads swapped; each ld.shared.v4 split in the two ways
  NVVM was seen to split a float4 read, or followed by a reload of its upper half), with the same
  cubin: the same totals and lines.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from smemlab.analyze import analyze_source, sass
from smemlab.analyze.nvrtc import compile_ptx

ROOT = Path(__file__).resolve().parent.parent
RELOAD = ROOT / "tests" / "data" / "analyze" / "reload.cu"
KINDS = ("load", "store", "atomic")


def _summary(r):
    totals = {k: r.totals(k) for k in KINDS}
    lines = sorted((Path(r.file_name(ls.file)).name, ls.line, ls.kind, ls.bytes, ls.requests, ls.wavefronts, ls.ideal)
                   for ls in r.lines)
    return totals, lines


def _shared_loads(define: str):
    """The SASS loads of reload.cu's kernel built with -D`define` (None: the plain form)."""
    defines = {define: ""} if define else {}
    c = compile_ptx(RELOAD.read_text(), str(RELOAD.resolve()), defines, [str(RELOAD.parent)], [])
    listing = sass.disassemble(c.cubin, "reload")
    if listing is None:
        pytest.skip("nvdisasm (the nvidia-cuda-nvdisasm wheel) is not installed: the SASS cannot be read")
    return [(a.line, a.width, a.offset) for a in listing if a.op == "load"], c.ptx


def _reload(define: str | None):
    return analyze_source(str(RELOAD), "reload", (128, 1, 1), args=["out=float32[128]"],
                          defines={define: ""} if define else {})


@pytest.mark.parametrize("form", ["REDUNDANT", "DUPLICATE"])
def test_ptx_forms_of_one_sass_count_the_same(form):
    plain_sass, plain_ptx = _shared_loads(None)
    form_sass, form_ptx = _shared_loads(form)
    assert plain_ptx.count("ld.shared") == 1 and form_ptx.count("ld.shared") == 2
    assert form_sass == plain_sass, f"ptxas no longer makes the same SASS of the {form} form: the test's premise"
    plain, other = _reload(None), _reload(form)
    assert _summary(other) == _summary(plain)
    assert (other.buffers["out"] == plain.buffers["out"]).all()


def test_a_load_with_unused_elements_counts_what_ptxas_loads():
    """With the pragma ptxas keeps the narrowed LDS.64 and the reload's LDS.64 apart: two requests a warp."""
    loads, _ = _shared_loads("MASKED")
    r = _reload("MASKED")
    (line,) = [ls for ls in r.lines if ls.kind == "load"]
    assert {x[0] for x in loads} == {line.line}
    assert line.bytes == max(x[1] for x in loads)
    assert line.requests == len(loads) * 4  # 128 threads: 4 warps


# ------------------------------------------------------------------ rewrites of a kernel's PTX

_FUNC = re.compile(r"^(?:\.visible |\.weak |\.extern )?\.(?:entry|func)\b", re.M)
_REG = re.compile(r"%([a-z]+)(\d+)\b")


def _functions(ptx: str, edit) -> str:
    """`edit` applied to each function of the module (from its .entry/.func to the next one)."""
    starts = [m.start() for m in _FUNC.finditer(ptx)]
    if not starts:
        return ptx
    bounds = starts + [len(ptx)]
    return ptx[:starts[0]] + "".join(edit(ptx[a:b]) for a, b in zip(bounds, bounds[1:]))


def renumber(ptx: str, seed: int = 12) -> str:
    """Every register class of every function renumbered by a random permutation of its numbers."""
    rng = random.Random(seed)

    def edit(fn: str) -> str:
        declared = set(re.findall(r"\.reg\s+\.\w+\s+%([a-z]+)<\d+>", fn))
        used: dict[str, set[int]] = {}
        for cls, n in _REG.findall(fn):
            if cls in declared:
                used.setdefault(cls, set()).add(int(n))
        perm = {}
        for cls, nums in used.items():
            old = sorted(nums)
            new = old[:]
            rng.shuffle(new)
            perm[cls] = dict(zip(old, new))
        return _REG.sub(lambda m: f"%{m.group(1)}{perm[m.group(1)][int(m.group(2))]}" if m.group(1) in perm
                        else m.group(0), fn)

    return _functions(ptx, edit)


_LD = re.compile(r"^(\s*)(@!?%\w+\s+)?ld\.shared(\.[\w.]+)\s+(\{[^}]*\}|%\w+),\s*\[([^\]]+)\];\s*$")


def _load(line: str):
    """(indent, guard, modifiers, destinations, address) of a shared load, else None."""
    m = _LD.match(line)
    if not m or ".volatile" in m.group(3):
        return None
    return m.group(1), m.group(2) or "", m.group(3), [x.strip() for x in m.group(4).strip("{}").split(",")], m.group(5)


def _plus(addr: str, k: int) -> str:
    m = re.fullmatch(r"\s*([^+\-\s]+)\s*(?:([+-])\s*(\d+))?\s*", addr)
    off = (int(m.group(3)) * (-1 if m.group(2) == "-" else 1) if m.group(3) else 0) + k
    return f"{m.group(1)}+{off}" if off >= 0 else f"{m.group(1)}{off}"


def _v4_rewrite(ptx: str, make) -> str:
    out = []
    for line in ptx.split("\n"):
        ld = _load(line)
        if ld and ld[2].startswith(".v4.") and ld[2].split(".")[-1] in ("f32", "b32", "u32", "s32") \
                and not any(d in ld[4] for d in ld[3]) and "_" not in ld[3]:
            out.extend(make(*ld))
        else:
            out.append(line)
    return "\n".join(out)


def split_as_nvvm(ptx: str) -> str:
    """Each `ld.shared.v4 {a, b, c, d}, [X]` as NVVM writes it at times: the v4 with its upper half
    unused (sunk), then `ld.shared.v2 {c, d}, [X+8]`."""
    def make(ind, guard, mods, d, addr):
        return [f'{ind}.pragma "used_bytes_mask 255";',
                f"{ind}{guard}ld.shared{mods} {{{d[0]}, {d[1]}, _, _}}, [{addr}];",
                f"{ind}{guard}ld.shared{mods.replace('.v4.', '.v2.')} {{{d[2]}, {d[3]}}}, [{_plus(addr, 8)}];"]
    return _v4_rewrite(ptx, make)


def split_in_three(ptx: str) -> str:
    """Each `ld.shared.v4 {a, b, c, d}, [X]` as NVVM wrote a float4 read of local memory in shuffle.cu
    at times: `ld.v2 {a, _}` (used_bytes_mask 15), `ld b, [X+4]`, `ld.v2 {c, d}, [X+8]`."""
    def make(ind, guard, mods, d, addr):
        return [f'{ind}.pragma "used_bytes_mask 15";',
                f"{ind}{guard}ld.shared{mods.replace('.v4.', '.v2.')} {{{d[0]}, _}}, [{addr}];",
                f"{ind}{guard}ld.shared{mods.replace('.v4.', '.')} {d[1]}, [{_plus(addr, 4)}];",
                f"{ind}{guard}ld.shared{mods.replace('.v4.', '.v2.')} {{{d[2]}, {d[3]}}}, [{_plus(addr, 8)}];"]
    return _v4_rewrite(ptx, make)


def reread_upper_half(ptx: str) -> str:
    """Each `ld.shared.v4 {a, b, c, d}, [X]` followed by `ld.shared.v2 {c, d}, [X+8]` (which ptxas drops)."""
    def make(ind, guard, mods, d, addr):
        return [f"{ind}{guard}ld.shared{mods} {{{', '.join(d)}}}, [{addr}];",
                f"{ind}{guard}ld.shared{mods.replace('.v4.', '.v2.')} {{{d[2]}, {d[3]}}}, [{_plus(addr, 8)}];"]
    return _v4_rewrite(ptx, make)


def swap_loads(ptx: str) -> str:
    """Each pair of neighbouring shared loads (same guard) that do not depend on each other, swapped."""
    def regs(text):
        return set(re.findall(r"%\w+", text))

    lines = ptx.split("\n")
    i = 0
    while i + 1 < len(lines):
        a, b = _load(lines[i]), _load(lines[i + 1])
        if a and b and a[1] == b[1] and not (regs(", ".join(a[3])) & (regs(b[4]) | regs(", ".join(b[3])))) \
                and not (regs(", ".join(b[3])) & regs(a[4])):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
            i += 2
        else:
            i += 1
    return "\n".join(lines)


REWRITES = {"renumber": renumber, "swap_loads": swap_loads, "split_as_nvvm": split_as_nvvm,
            "split_in_three": split_in_three, "reread_upper_half": reread_upper_half}
# kernels whose lines ptxas merged (scalars into LDS.128, float4 reads), or vectorised at run time
# (gemv_smem), with a histogram's atomics, a transpose's float4 tiles and a reduction for the rest
KERNELS = ["ops_matmul.mm_vectorized", "matmul.MatMulKernel.bs16", "ops_matmul.mm_blocktile2d", "corpus.sgemmVectorize",
           "corpus.gemv_smem", "corpus.tile_f4_swizzled", "ops_transpose.transpose_v4", "ops_histogram.hist_smem.copies32.uniform",
           "reduce.reduceSmemUnroll"]


def _case(case_id: str) -> dict:
    cases = json.loads((ROOT / "tests" / "data" / "analyze_truth.json").read_text())["cases"]
    return next(c for c in cases if c["id"] == case_id)


def _run(case):
    args = [f"{n}={ROOT / v if v.endswith('.npy') else v}" for n, _, v in (a.partition("=") for a in case.get("args", []))]
    f = case["file"]
    return analyze_source(f if f.startswith("package:") else str(ROOT / f), case["kernel"], tuple(case["block"]),
                          tuple(case.get("grid", (1, 1, 1))), tuple(case.get("block_index", (0, 0, 0))),
                          int(case.get("dynamic_shared", 0)), args, {k: str(v) for k, v in case.get("defines", {}).items()},
                          max_steps=50_000_000, compiler=case.get("compiler", "nvrtc"))


@pytest.fixture(scope="module")
def plain():
    return {}


def _plain(plain, case_id):
    if case_id not in plain:
        plain[case_id] = _run(_case(case_id))
    return plain[case_id]


def _kernel_ptx(r) -> str:
    return f".entry {r.symbol}(" + r.ptx.split(f".entry {r.symbol}(")[1].split(".entry ")[0]


@pytest.mark.parametrize("rewrite", sorted(REWRITES))
@pytest.mark.parametrize("case_id", KERNELS)
def test_rewritten_ptx_counts_the_same(case_id, rewrite, plain, monkeypatch):
    from smemlab.analyze import unit as session  # the front end that calls NVRTC

    case = _case(case_id)
    want = _plain(plain, case_id)
    if REWRITES[rewrite](_kernel_ptx(want)) == _kernel_ptx(want):
        return  # nothing this rewrite applies to in this kernel (test_every_rewrite_applies keeps them honest)
    real, changed = session.compile_ptx, []

    def compile_rewritten(*a, **k):
        c = real(*a, **k)
        ptx = REWRITES[rewrite](c.ptx)
        changed.append(ptx != c.ptx)
        return dataclasses.replace(c, ptx=ptx)

    monkeypatch.setattr(session, "compile_ptx", compile_rewritten)
    got = _run(case)
    assert changed == [True], f"{rewrite} changed nothing in {case_id}'s PTX"
    assert _summary(got) == _summary(want), f"{case_id}: analyze counts differently after {rewrite}"
    for name, buf in want.buffers.items():  # the rewrites keep the kernel's meaning: the same results, bit for bit
        assert got.buffers[name].tobytes() == buf.tobytes(), f"{case_id}: {name} after {rewrite}"


def test_rewrites_are_what_they_say():
    ptx = "\n".join([".visible .entry k(", ")", "{", "\t.reg .f32 \t%f<9>;", "\t.reg .b32 \t%r<4>;",
                     "\tld.shared.v4.f32 \t{%f1, %f2, %f3, %f4}, [%r1+16];",
                     "\tld.shared.f32 \t%f5, [%r2];", "\tadd.f32 %f6, %f5, %f1;", "}"])
    assert "{%f1, %f2, _, _}, [%r1+16];" in split_as_nvvm(ptx)
    assert "ld.shared.v2.f32 {%f3, %f4}, [%r1+24];" in split_as_nvvm(ptx)
    assert "ld.shared.v2.f32 {%f3, %f4}, [%r1+24];" in reread_upper_half(ptx)
    assert "ld.shared.v2.f32 {%f1, _}, [%r1+16];\n\tld.shared.f32 %f2, [%r1+20];" in split_in_three(ptx)
    swapped = swap_loads(ptx).split("\n")
    assert swapped[5].strip().startswith("ld.shared.f32") and swapped[6].strip().startswith("ld.shared.v4")
    renamed = renumber(ptx)
    assert renamed != ptx and renamed.count("%f") == ptx.count("%f") and "%f<9>" in renamed
    assert set(re.findall(r"%f\d+", renamed)) == set(re.findall(r"%f\d+", ptx))  # a permutation of the numbers


@pytest.mark.parametrize("rewrite", sorted(REWRITES))
def test_every_rewrite_applies(rewrite, plain):
    applied = [k for k in KERNELS if REWRITES[rewrite](_kernel_ptx(_plain(plain, k))) != _kernel_ptx(_plain(plain, k))]
    assert len(applied) >= 3, f"{rewrite} rewrites too few of the kernels: {applied}"


def test_pairing_of_groups_does_not_depend_on_their_order():
    """A PTX group that fits either SASS group must not take the only one another fits (first come first served)."""
    both, first_only = ["fits", "fits"], ["fits", None]
    assert sass._pair([both, first_only]) == [1, 0]
    assert sass._pair([first_only, both]) == [0, 1]
    assert sass._pair([first_only, first_only]) is None
    assert sass._pair([["fits", "fits"]]) is None  # a SASS group that no PTX group makes


LDMATRIX_PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry ldm(.param .u64 ldm_param_0)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .shared .align 16 .b8 tile[512];
    mov.u32 %r5, %tid.x;
    mov.u32 %r7, tile;
    shl.b32 %r8, %r5, 4;
    add.s32 %r6, %r7, %r8;
    shl.b32 %r9, %r5, 2;
    st.shared.v4.u32 [%r6], {%r9, %r9, %r9, %r9};
    bar.sync 0;
    LDMATRIX
    ld.param.u64 %rd1, [ldm_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r5, 16;
    add.s64 %rd2, %rd2, %rd3;
    st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};
    ret;
}
"""


@pytest.mark.parametrize("space", [" ", ""])
def test_ldmatrix_vector_operand_with_or_without_a_space(space):
    """ptxas takes a vector operand written right after the opcode (`.b16{%r1, ...}`)."""
    from smemlab.analyze import analyze_ptx

    ptx = LDMATRIX_PTX.replace("LDMATRIX", f"ldmatrix.sync.aligned.m8n8.x4.shared.b16{space}{{%r1, %r2, %r3, %r4}}, [%r6];")
    r = analyze_ptx(ptx, "ldm", (32,), args=["out=uint32[128]"], source="__global__ void ldm(unsigned* out)")
    # matrix j's rows come from lanes 8j..8j+7 (row L holds words 4L..4L+3, each 4L); lane t gets row t/4's word t%4
    want = [4 * (8 * j + t // 4) for t in range(32) for j in range(4)]
    assert r.buffers["out"].tolist() == want


def test_elect_sync_with_its_lane_index_sunk(tmp_path):
    """CCCL's cuda::ptx::elect_sync (under cuda::memcpy_async onto a cuda::barrier) writes `elect.sync _|P, mask;`:
    the lane index it leaves unread is a sink, and one lane of each warp is elected."""
    src = tmp_path / "elect.cu"
    src.write_text('extern "C" __global__ void elect(unsigned *out)\n{\n    unsigned e;\n'
                   '    asm volatile("{\\n\\t .reg .pred P_OUT; \\n\\telect.sync _|P_OUT, %1;\\n\\t'
                   'selp.b32 %0, 1, 0, P_OUT; \\n}" : "=r"(e) : "r"(0xffffffffu));\n'
                   '    out[threadIdx.x] = e;\n}\n')
    r = analyze_source(str(src), "elect", (64,), args=["out=uint32[64]"])
    assert r.buffers["out"].tolist() == [1] + [0] * 31 + [1] + [0] * 31
