"""The command line: help, errors for bad input, and the no-GPU paths that CI can run."""

import json
from pathlib import Path
import subprocess
import sys

import pytest

from smemlab.cli import COMMAND_MODULES, main
from smemlab.device import no_gpu_reason

NO_GPU = no_gpu_reason() is not None


def smemlab(*args, check=None):
    proc = subprocess.run([sys.executable, "-m", "smemlab", *args], capture_output=True, text=True, timeout=600)
    if check is not None:
        assert proc.returncode == check, proc.stdout + proc.stderr
    return proc


def test_help_lists_every_command():
    out = smemlab("--help", check=0).stdout
    for module in COMMAND_MODULES:
        command = module.rsplit(".", 1)[1].removesuffix("_cmd")
        assert command in out


@pytest.mark.parametrize("command", ["list", "run", "bank", "profile", "check", "info", "bench", "suite", "report"])
def test_every_command_has_help(command):
    proc = smemlab(command, "--help")
    if proc.returncode == 2 and "invalid choice" in proc.stderr:
        pytest.skip(f"{command} is not registered yet")
    assert proc.returncode == 0
    assert "usage: smemlab" in proc.stdout
    if command != "bench":  # bench's example comes with its --device option, from another change
        assert "example" in proc.stdout and f"smemlab {command}" in proc.stdout.split("example", 1)[1]


def test_no_command_prints_help_and_fails():
    proc = smemlab()
    assert proc.returncode == 2
    assert "COMMAND" in proc.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "nosuchexperiment"], "unknown experiment"),
        (["run", "transpose", "--size", "0"], "positive"),
        (["run", "transpose", "--size", "-5"], "positive"),
        (["run", "transpose", "--size", "abc"], "not an integer"),
        (["run", "transpose", "--size", "1" + "0" * 15], "far larger"),
        (["run", "--size", "64"], "one experiment"),
        (["run", "--reps", "-1"], "0 or more"),
        (["info", "--device", "-1"], "0 or more"),
        (["profile"], "required"),
    ],
)
def test_bad_input_is_one_clear_line(args, message):
    proc = smemlab(*args)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(not NO_GPU, reason="this machine has a GPU; the no-GPU path is for CI")
def test_info_without_gpu_explains_and_exits_1():
    proc = smemlab("info")
    assert proc.returncode == 1
    assert "no CUDA GPU" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow  # the whole no-GPU suite, 14 s on 2 cores: make test runs it, the inner loop does not
@pytest.mark.skipif(not NO_GPU, reason="this machine has a GPU; the no-GPU path is for CI")
def test_suite_without_gpu_prints_the_conflicts_and_a_notice():
    proc = smemlab("suite", check=0)
    out = proc.stdout
    assert "Bank conflicts in the book's programs" in out
    assert "No GPU: no CUDA GPU found" in out and "smemlab list --accesses" in out
    # the expressions are shown as written (rich must not take [tx] for markup), with a command to re-run
    assert "smemlab bank 'tile[tx][ty]' --shape 32,32 --dtype int --block 32,32 --op store --suggest" in out
    assert "smemlab bank 'S[tx][ty]' --shape 32,32 --dtype float --block 32,32 --suggest" in out
    assert "row stride 33: tile[((ty*32+tx)%32)*33+((ty*32+tx)/32)] in int tile[1056]" in out
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(NO_GPU, reason="needs a CUDA GPU")
def test_info_json_on_gpu():
    facts = json.loads(smemlab("info", "--json", check=0).stdout)
    assert facts["banks"] == 32 and facts["shared_per_block_optin"] >= facts["shared_per_block"]


@pytest.mark.skipif(NO_GPU, reason="needs a CUDA GPU")
def test_device_that_does_not_exist():
    proc = smemlab("info", "--device", "99")
    assert proc.returncode == 1
    assert "no GPU with index 99" in proc.stderr


def test_list_names_experiments_and_variants(capsys):
    from smemlab.lab import available

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in available():
        assert name in out


@pytest.mark.parametrize("args, message", [
    (["check", "nosuch"], "unknown experiment"),
    (["run", "layout", "--variant", "nosuch"], "no variant 'nosuch'"),
    (["run", "transpose", "--size", "4,4,4"], "--size"),
    (["profile", "layout", "--variant", "nosuch"], "no variant 'nosuch'"),
    (["profile", "transpose", "--size", "4,4,4"], "--size"),
    (["profile", "layout", "transpose"], "one experiment"),
    (["profile", "nosuch", "--record", "results"], "unknown experiment"),
    (["profile", "layout", "--record", "/nonexistent/run"], "no run.json"),
    (["profile", "layout", "--record", "results", "--size", "64"], "recorded sizes"),
    (["run", "layout", "--size", "1_024"], "not an integer"),
    (["run", "layout", "--size", "٣"], "not an integer"),
])
def test_mistakes_get_status_2_before_any_gpu_is_looked_for(args, message):
    proc = smemlab(*args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert "GPU" not in proc.stderr


def test_version():
    from smemlab import __version__

    assert smemlab("--version", check=0).stdout.strip() == f"smemlab {__version__}"


@pytest.mark.parametrize("args", [["list"], ["suite"], ["bank", "s[tx]", "--shape", "64", "--dtype", "int",
                                                        "--block", "32"], ["--help"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(args):
    if args == ["suite"] and not NO_GPU:
        pytest.skip("on a GPU the suite runs for an hour")
    proc = subprocess.Popen([sys.executable, "-m", "smemlab", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # like `| head -0`: whatever the command writes meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141  # 128 + SIGPIPE, as the shell reports `seq 1 100000 | head -2`
    assert err == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["list"], ["--help"], ["bank", "s[tx]", "--shape", "64", "--dtype", "int",
                                                         "--block", "32", "--json"]])
def test_a_full_disk_is_one_line_and_status_1(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "smemlab", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == "smemlab: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("content, message", [
    ("[1, 2, 3]", "JSON object"),
    ('{"provenance": {}}', "no 'experiments'"),
    ('{"provenance": {}, "experiments": 3}', "list"),
    ("not json", "not a smemlab run record"),
])
def test_report_of_something_that_is_not_a_record(tmp_path, content, message):
    (tmp_path / "run.json").write_text(content)
    proc = smemlab("report", str(tmp_path))
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert not (tmp_path / "report.md").exists()


def test_bank_expression_too_long_for_python_is_one_line():
    proc = smemlab("bank", "s[" + "+".join(["0"] * 992) + "]", "--shape", "64", "--dtype", "int", "--block", "32")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "operations" in proc.stderr


def test_readme_quick_start_is_two_commands():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip() and not line.startswith(" ")]
    assert commands == ["make run", "make test"]
