"""A plain install (numpy, rich, matplotlib; no GPU packages) gives the bank model, `list` and
`report`, and they never import CUDA; the GPU commands say which extra to install.

CI runs this file in the main environment and again in a second one with the plain package only
(`make test-plain`). Where the GPU packages are installed, their absence is simulated by a finder
that refuses to import them.
"""

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from smemlab.commands.common import missing_gpu_package

ROOT = Path(__file__).resolve().parents[1]
GPU_ROOTS = ("cupy", "cupyx", "cupy_backends", "cuda", "torch", "fastrlock")
PLAIN = missing_gpu_package() is not None

# prepended to a child's script: imports of the GPU packages fail as they would in a plain install
BLOCK_GPU = textwrap.dedent(f"""
    import importlib.abc, sys
    class _NoGPU(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {GPU_ROOTS!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None
    sys.meta_path.insert(0, _NoGPU())
""")


def child(script: str, block_gpu: bool = False, cwd=None) -> subprocess.CompletedProcess:
    code = (BLOCK_GPU if block_gpu else "") + textwrap.dedent(script)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=cwd)


def gpu_modules_after(argv: list[str], cwd) -> tuple[int, list[str], str]:
    proc = child(f"""
        import json, sys
        from smemlab.cli import main
        rc = main({argv!r})
        sys.stdout.flush()
        bad = sorted(m for m in sys.modules if m.split(".")[0] in {GPU_ROOTS!r})
        print("\\nMODULES " + json.dumps([rc, bad]))
    """, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    rc, bad = json.loads(proc.stdout.rsplit("MODULES ", 1)[1])
    return rc, bad, proc.stdout


@pytest.fixture
def recorded(tmp_path):
    src = ROOT / "results" / "run.json"
    if not src.exists():
        pytest.skip("no recorded run in results/")
    shutil.copy(src, tmp_path / "run.json")
    return tmp_path


@pytest.mark.parametrize("argv", [
    ["bank", "tile[tx][ty]", "--shape", "32,32", "--dtype", "int", "--block", "32,32", "--suggest"],
    ["list"],
    ["list", "--accesses", "layout"],
    ["--version"],
])
def test_cpu_commands_never_import_cuda(argv, tmp_path):
    rc, bad, _ = gpu_modules_after(argv, tmp_path)
    assert rc == 0 and bad == []


def test_report_renders_a_recorded_run_without_cuda(recorded):
    rc, bad, out = gpu_modules_after(["report", str(recorded), "--quiet"], recorded)
    assert rc == 0 and bad == []
    assert (recorded / "report.md").read_text().startswith("# smemlab")
    assert (recorded / "layout.png").exists()


def test_importing_the_package_and_its_bank_model_imports_no_cuda():
    proc = child(f"""
        import sys
        import smemlab, smemlab.banks, smemlab.cli, smemlab.render.report, smemlab.lab
        from smemlab.banks import analyze, suggest
        analyze("s[tx]", 64, "int", 32)
        print(sorted(m for m in sys.modules if m.split(".")[0] in {GPU_ROOTS!r}))
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize("argv", [["run", "layout"], ["info"], ["check", "layout"], ["profile", "layout"]])
def test_gpu_commands_without_the_gpu_packages_name_the_extra(argv):
    proc = child(f"""
        import sys
        from smemlab.cli import main
        sys.exit(main({argv!r}))
    """, block_gpu=not PLAIN)
    assert proc.returncode == 1
    assert "pip install 'smemlab[gpu]'" in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr


def test_suite_without_the_gpu_packages_prints_the_bank_conflicts(tmp_path):
    proc = child("""
        import sys
        from smemlab.cli import main
        sys.exit(main(["suite"]))
    """, block_gpu=not PLAIN, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Bank conflicts in the book's programs" in proc.stdout
    assert "the GPU packages are not installed" in proc.stdout and "smemlab[gpu]" in proc.stdout


def test_argument_mistakes_still_come_first():
    proc = child("""
        import sys
        from smemlab.cli import main
        sys.exit(main(["run", "layout", "--variant", "nosuch"]))
    """, block_gpu=not PLAIN)
    assert proc.returncode == 2 and "no variant 'nosuch'" in proc.stderr


@pytest.mark.skipif(not PLAIN, reason="the GPU packages are installed here; `make test-plain` runs without them")
def test_this_environment_is_the_plain_install():
    from importlib import metadata

    requires = metadata.requires("smemlab") or []
    plain = [r for r in requires if "extra ==" not in r]
    assert sorted(r.split(">")[0].split("=")[0].strip() for r in plain) == ["matplotlib", "numpy", "rich"]
    for name in ("cupy", "cuda.core", "cuda.bindings"):
        with pytest.raises(ImportError):
            __import__(name)
