"""Every kernel source compiles to an sm_90 cubin with NVRTC, with no GPU (CI checks this)."""

import pytest

from smemlab.compiler import KERNEL_DIR, compile_cubin, kernel_sources, source_name, source_path, sources_hash
from smemlab.cubin import static_shared_bytes

SOURCES = [source_name(p) for p in kernel_sources() if p.suffix == ".cu"]


@pytest.mark.parametrize("source", SOURCES)
def test_every_kernel_compiles_for_sm90(source):
    from smemlab.analyze.nvrtc import itanium_name
    from smemlab.compiler import compile_package
    from smemlab.lab import kernel_instances

    compiled = compile_package(source, "sm_90", None, kernel_instances(source))
    assert compiled.cubin[:4] == b"\x7fELF"
    kernels = static_shared_bytes(compiled.cubin)
    assert kernels, f"{source} defines no kernel"
    assert set(compiled.lowered.values()) <= set(kernels)  # every instance the op lists is compiled
    text = (KERNEL_DIR / source).read_text()
    for name in kernels:  # an extern "C" kernel's symbol is its name in the source; an instance's, its template's
        assert (itanium_name(name) or name) in text


def test_copy_kernel_declares_no_shared_memory():
    assert static_shared_bytes(compile_cubin("lab/copy.cu")) == {"copyKernel": 0}


def test_compile_cache_returns_the_same_cubin(tmp_path, monkeypatch):
    monkeypatch.setenv("SMEMLAB_CACHE", str(tmp_path))
    first = compile_cubin("lab/copy.cu", defines={"UNUSED": 1})
    cached = sorted((tmp_path / "nvrtc").iterdir())  # one entry: the compile's PTX and cubin
    assert [p.suffix for p in cached] == [".cubin", ".ptx"] and cached[0].read_bytes() == first
    assert compile_cubin("lab/copy.cu", defines={"UNUSED": 1}) == first
    compile_cubin("lab/copy.cu", defines={"UNUSED": 2})  # other macros, other entry
    assert len(list((tmp_path / "nvrtc").glob("*.cubin"))) == 2


def test_one_cache_serves_the_runtime_and_analyze(tmp_path, monkeypatch):
    """The package's kernels and analyze's NVRTC compiles share one cache, keyed on what they compile."""
    from smemlab.analyze.nvrtc import compile_ptx

    monkeypatch.setenv("SMEMLAB_CACHE", str(tmp_path))
    compile_cubin("lab/copy.cu")
    compile_ptx(source_path("lab/copy.cu").read_text(), "copy.cu")
    assert len(list((tmp_path / "nvrtc").glob("*.cubin"))) == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["nvrtc"]


def test_compile_error_names_the_source(tmp_path, monkeypatch):
    from smemlab import compiler

    monkeypatch.setattr(compiler, "KERNEL_DIR", tmp_path)
    (tmp_path / "broken.cu").write_text('extern "C" __global__ void k() { this is not C++; }')
    with pytest.raises(compiler.CompileError, match="broken.cu") as caught:
        compile_cubin("broken.cu")
    assert isinstance(caught.value, RuntimeError)  # as the runtime's compile error always was


def test_one_error_class_for_every_compiler():
    from smemlab import compiler
    from smemlab.analyze import nvcc, nvrtc

    assert nvrtc.CompileFailed is compiler.CompileError and nvcc.CompileError is compiler.CompileError
    assert nvrtc.ARCH == nvcc.ARCH == compiler.ARCH == "sm_90"


def test_sources_hash_changes_with_a_kernel(tmp_path, monkeypatch):
    from smemlab import compiler

    monkeypatch.setattr(compiler, "KERNEL_DIR", tmp_path)
    for folder in ("lab/a", "ops/b", "include"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "lab/a/a.cu").write_text("// one")
    (tmp_path / "ops/b/b.cu").write_text("// one b")
    (tmp_path / "include/h.cuh").write_text("// one h")
    hashes = {sources_hash()}
    for path in ("lab/a/a.cu", "ops/b/b.cu", "include/h.cuh"):  # a book kernel, a library kernel, a shared header
        (tmp_path / path).write_text(f"// two {path}")
        hashes.add(sources_hash())
    assert len(hashes) == 4


def test_sources_hash_is_kept_by_a_move(tmp_path, monkeypatch):
    """Keyed on content only: a kernel moved to another folder or renamed leaves the hash (and with it a
    recorded run's provenance) as it was."""
    from smemlab import compiler

    monkeypatch.setattr(compiler, "KERNEL_DIR", tmp_path)
    for folder in ("lab/a", "ops/b"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "lab/a/a.cu").write_text("// a")
    (tmp_path / "ops/b/b.cu").write_text("// b")
    before = sources_hash()
    (tmp_path / "ops/b/b.cu").rename(tmp_path / "lab/a/b.cu")  # the same text in another topic's folder
    (tmp_path / "lab/a/a.cu").rename(tmp_path / "lab/a/renamed.cu")
    assert sources_hash() == before != ""


def test_the_kernels_are_laid_out_as_the_code_is():
    """One topic, one folder: each op's kernels beside its Python (ops/<op>/<op>.cu), the book's programs beside
    their experiment (lab/<topic>/<topic>.cu; more of a topic's kernels beside the module that plans and launches
    them, lab/histogram/cluster_methods.cu by cluster_methods.py), the copy kernel at lab/ level, the shared
    headers in include/."""
    names = [source_name(p) for p in kernel_sources()]
    assert {"lab/layout/layout.cu", "lab/transpose/transpose.cu", "ops/transpose/transpose.cu", "lab/copy.cu",
            "include/cluster.cuh"} <= set(names)
    for name in names:
        if name.endswith(".cuh"):
            assert name.startswith("include/"), name
        elif name != "lab/copy.cu":
            layer, topic, file = name.split("/")
            beside_its_module = layer == "lab" and (KERNEL_DIR / name).with_suffix(".py").is_file()
            assert layer in ("lab", "ops") and (file == f"{topic}.cu" or beside_its_module), name
            assert (KERNEL_DIR / layer / topic / "__init__.py").is_file(), name
    assert not any(n.startswith(("lib/ops_", "ops_")) for n in names)


def test_the_wheel_ships_every_kernel():
    """pyproject's package-data globs take every kernel source and header into the wheel (a .cu they miss
    would be left out of `pip install`)."""
    import tomllib

    pyproject = tomllib.loads((KERNEL_DIR.parents[1] / "pyproject.toml").read_text())
    shipped = {p for g in pyproject["tool"]["setuptools"]["package-data"]["smemlab"] for p in KERNEL_DIR.glob(g)}
    assert set(kernel_sources()) <= shipped


def test_the_old_names_are_aliases():
    """The names of the layout before the move (book/NAME.cu, lib/NAME.cu, cluster.cuh), kept for one release:
    each stands for a file the package has, and compiles to the same cubin as its new name."""
    from smemlab.compiler import ALIASES, canonical

    assert {f"book/{t}.cu" for t in ("config", "histogram", "layout", "matmul", "overlap", "reduce", "shuffle",
                                      "stencil", "transpose")} | {f"lib/{op}.cu" for op in (
        "copy", "histogram", "matmul", "reduce", "stencil", "transpose")} | {"cluster.cuh"} == set(ALIASES)
    names = {source_name(p) for p in kernel_sources()}
    for old, new in ALIASES.items():
        assert canonical(old) == new in names and source_path(old) == source_path(new) == KERNEL_DIR / new, old
    assert canonical("ops/reduce/reduce.cu") == "ops/reduce/reduce.cu"
    assert compile_cubin("lib/transpose.cu") == compile_cubin("ops/transpose/transpose.cu")


def test_analyze_takes_the_new_names_and_the_aliases():
    """`smemlab analyze package:PATH`: the package's path, or an old name (shown as the user wrote it)."""
    from smemlab.analyze.unit import resolve_source
    from smemlab.errors import UserError

    assert resolve_source("package:lab/layout/layout.cu") == (source_path("lab/layout/layout.cu"), "lab/layout/layout.cu")
    assert resolve_source("package:book/layout.cu") == (source_path("lab/layout/layout.cu"), "book/layout.cu")
    assert resolve_source("package:lib/copy.cu")[0] == KERNEL_DIR / "lab" / "copy.cu"
    with pytest.raises(UserError, match="ops/histogram/histogram.cu"):  # a wrong name lists the package's
        resolve_source("package:book/nosuch.cu")


def test_static_shared_memory_is_what_the_tile_declares():
    """The seeds' padded 32x33 int tile is 4224 bytes; the unpadded one 4096 (the 1 KB the
    system reserves on sm_90 is not part of what the kernel declares)."""
    square = {"BDIMX": 32, "BDIMY": 32, "IPAD": 1}
    smem = static_shared_bytes(compile_cubin("lab/layout/layout.cu", "sm_90", square))
    assert smem["setRowReadColPad"] == 32 * 33 * 4 == 4224
    assert smem["setRowReadCol"] == 32 * 32 * 4
    assert smem["setRowReadColDyn"] == 0
