"""Data and imports flow one way (DESIGN.md, "one straight path"): every module of the package sits in
one layer of the table below, and imports only from its own layer or lower ones; the renderer
reads only the record (it imports no experiment, no measuring code, no device).

Imports are read from the source with `ast`: every `import smemlab...` and `from smemlab... import`
anywhere in a module (at the top, inside a function, under TYPE_CHECKING), with `from P import name`
counted as importing P.name where that is a module. A new module gets a row in LAYERS.
"""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# lowest first: (layer, modules). A name stands for the module and everything under it, unless a
# longer name in the table says otherwise (smemlab.bench.goals is the record's, the rest of bench runs).
LAYERS = [
    ("foundation", ["smemlab", "smemlab.errors", "smemlab.frameworks"]),
    # what a run records, and pure readings of it: metric names, wavefronts per request, limits,
    # the benchmark's goal rules and texts over its row dicts (importing it runs smemlab/bench's
    # __init__, which imports the harness: no GPU package at import time, and no call into it)
    # (and the datasheet's figures, which the limits fall back on and the device facts quote)
    ("record", ["smemlab.records", "smemlab.counters", "smemlab.limits", "smemlab.bench.goals", "smemlab.datasheet"]),
    ("bank model", ["smemlab.banks"]),
    # the shuffle's lane rule, which the emulator (analyze) executes and the shuffle experiment checks against
    ("warp model", ["smemlab.warp"]),
    # the one NVRTC path (PTX and cubin, one cache, one error class), which the runtime and analyze both
    # compile through; analyze's nvcc front end shares its architecture, cache folder and error class
    ("compile", ["smemlab.compiler", "smemlab.cubin"]),
    ("analyze (no GPU)", ["smemlab.analyze"]),
    ("device", ["smemlab.device"]),
    # the one measuring harness (poison, verify, time, the memcpy ceiling, provenance): it works on
    # CuPy streams, below the experiments' runtime, which times through it
    ("measure", ["smemlab.measure"]),
    ("runtime", ["smemlab.gpu"]),
    ("library", ["smemlab.ops"]),  # one folder per op (TOPICS below)
    ("lab", ["smemlab.lab"]),  # the experiments, one folder per topic (TOPICS below)
    # what runs the experiments and the benchmark through the harness
    ("run", ["smemlab.runner", "smemlab.bench"]),
    ("counters and sanitizer", ["smemlab.profile", "smemlab.sanitize"]),
    ("derive", ["smemlab.derive"]),
    ("render", ["smemlab.render"]),
    ("commands", ["smemlab.commands", "smemlab.cli", "smemlab.__main__"]),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}
# the renderer reads the record and nothing that measures: these layers only, besides its own
RENDER_READS = {"foundation", "record"}


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    base = SRC.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports(path: Path) -> set[str]:
    """The smemlab modules `path` imports, by name."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "smemlab")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the module's package
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] != "smemlab":
                continue
            for a in node.names:
                out.add(f"{base}.{a.name}" if is_module(f"{base}.{a.name}") else base)
    return {m for m in out if m != me}


def layer_of(module: str) -> str | None:
    best = None
    for layer, names in LAYERS:
        for name in names:
            # the root package stands for itself only (its __init__: the version), not for the package
            under = module.startswith(name + ".") and name != "smemlab"
            if (module == name or under) and (best is None or len(name) > len(best[1])):
                best = (layer, name)
    return best[0] if best else None


MODULES = sorted(SRC.rglob("*.py"))


def test_the_package_is_where_the_table_looks():
    assert len(MODULES) > 50 and (SRC / "smemlab" / "render" / "report.py").is_file()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_every_module_has_a_layer(path):
    assert layer_of(module_name(path)) is not None, f"{module_name(path)}: give it a layer in LAYERS"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_module_imports_from_a_layer_above_it(path):
    me = module_name(path)
    mine = layer_of(me)
    above = sorted(f"{m} ({layer_of(m)})" for m in imports(path) if layer_of(m) and RANK[layer_of(m)] > RANK[mine])
    assert not above, f"{me} ({mine}) imports from above it: {', '.join(above)}"


@pytest.mark.parametrize("path", [p for p in MODULES if layer_of(module_name(p)) == "render"],
                         ids=lambda p: module_name(p))
def test_the_renderer_reads_only_the_record(path):
    reads = sorted(f"{m} ({layer_of(m)})" for m in imports(path) if layer_of(m) not in RENDER_READS | {"render"})
    assert not reads, f"{module_name(path)} renders from more than the record: {', '.join(reads)}"


def test_the_checks_see_what_they_check():
    """The parser finds imports at the top, inside functions and under `from smemlab import x`."""
    report = imports(SRC / "smemlab" / "render" / "report.py")
    assert {"smemlab.records", "smemlab.render.charts", "smemlab.render.bench"} <= report
    assert "smemlab.lab" in imports(SRC / "smemlab" / "derive.py")
    assert "smemlab.lab" in imports(SRC / "smemlab" / "profile.py")  # inside attach()
    assert layer_of("smemlab.bench.goals") == "record" and layer_of("smemlab.bench.harness") == "run"
    assert "smemlab.measure" in imports(SRC / "smemlab" / "bench" / "harness.py")
    assert RANK[layer_of("smemlab.measure")] < RANK[layer_of("smemlab.gpu")] < RANK[layer_of("smemlab.runner")]
    assert layer_of("smemlab.render.bench") == "render"
    assert layer_of("smemlab.analyze.ptx") == "analyze (no GPU)" and layer_of("smemlab.nosuch") is None


def test_one_of_each():
    """One compile path, one shuffle rule, one datasheet: each imported by all of its users."""
    analyze = SRC / "smemlab" / "analyze"
    assert "smemlab.compiler" in imports(analyze / "nvrtc.py") and "smemlab.compiler" in imports(analyze / "nvcc.py")
    assert "smemlab.compiler" in imports(SRC / "smemlab" / "device.py")
    assert "smemlab.warp" in imports(analyze / "warpops.py")
    assert "smemlab.warp" in imports(SRC / "smemlab" / "lab" / "shuffle" / "__init__.py")
    assert "smemlab.datasheet" in imports(SRC / "smemlab" / "device.py")
    assert "smemlab.datasheet" in imports(SRC / "smemlab" / "limits.py")
    for path in MODULES:  # NVRTC is called in smemlab.compiler only
        text = path.read_text()
        if module_name(path) != "smemlab.compiler":
            assert "nvrtcCompileProgram" not in text and "Program(" not in text, module_name(path)


# ---------------------------------------------------------------------------- one topic, one folder
# The library and the lab hold one topic a folder (ops/<op>/, lab/<topic>/): its Python and its kernels
# (<topic>.cu) together. Beside the folders, each layer has only these modules: what every topic shares
# (imported by the topics) and what gathers the topics (the package itself, the catalogs, torch's
# registration: importing them, never imported by a topic).
TOPICS = {
    "smemlab.ops": {"shared": {"_args", "_route"}, "gathering": {"selfcheck", "torch_ops", "torch_autograd"}},
    "smemlab.lab": {"shared": {"base"}, "gathering": {"launches"}},
}
# a topic that borrows another's constants, named here so that a new one is a decision: the overlap
# experiment stages the stencil's tiles with its coefficients (BOOK_COEF) and the tiled matmul's (TOLERANCE)
CROSS_TOPIC = {("smemlab.lab.overlap", "smemlab.lab.stencil"), ("smemlab.lab.overlap", "smemlab.lab.matmul")}


def topic_of(module: str) -> str | None:
    """The topic package `module` is in ("smemlab.lab.overlap" for smemlab.lab.overlap.pipeline), or None."""
    for layer in TOPICS:
        if module.startswith(layer + "."):
            first = module[len(layer) + 1:].split(".")[0]
            if (SRC.joinpath(*layer.split("."), first) / "__init__.py").is_file():
                return f"{layer}.{first}"
    return None


@pytest.mark.parametrize("layer", sorted(TOPICS))
def test_one_topic_one_folder(layer):
    folder = SRC.joinpath(*layer.split("."))
    topics = sorted(p.parent.name for p in folder.glob("*/__init__.py"))
    assert len(topics) >= 5, topics
    for topic in topics:  # its kernels beside its Python
        assert (folder / topic / f"{topic}.cu").is_file(), f"{layer}.{topic}: no {topic}.cu in its folder"
    flat = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    assert flat == TOPICS[layer]["shared"] | TOPICS[layer]["gathering"], (
        f"{layer}: a module beside the topic folders is shared by them or gathers them (TOPICS); a topic is a folder")


@pytest.mark.parametrize("path", [p for p in MODULES if topic_of(module_name(p))], ids=lambda p: module_name(p))
def test_no_topic_imports_back_up(path):
    """A topic imports its own folder, what its layer shares and lower layers: never the modules that gather
    the topics (the package, the catalogs), nor another topic but for CROSS_TOPIC."""
    me = module_name(path)
    mine = topic_of(me)
    layer = mine.rpartition(".")[0]
    shared = {f"{layer}.{m}" for m in TOPICS[layer]["shared"]}
    wrong = sorted(m for m in imports(path) if (m == layer or m.startswith(layer + "."))
                   and topic_of(m) != mine and m not in shared and (mine, topic_of(m)) not in CROSS_TOPIC)
    assert not wrong, f"{me} imports, within {layer}, {', '.join(wrong)}"
