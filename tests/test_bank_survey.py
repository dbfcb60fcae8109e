"""The bank model over every access the experiments declare: what `smemlab suite` prints with no GPU
(the conflicted accesses, their fixes, a command for each) and `smemlab list --accesses` (all of
them); both read at 80 columns, with the expressions as written."""

import io
import re
import shlex

import pytest
from rich.console import Console

from smemlab.cli import main
from smemlab.commands.bank_survey import access_listing, conflict_summary, declared_accesses
from smemlab.commands.suite_cmd import print_no_gpu_run
from smemlab.lab import all_experiments


@pytest.fixture(scope="module")
def rows():
    return declared_accesses(all_experiments())


def render(fn, *args, width=80) -> str:
    buf = io.StringIO()
    fn(Console(file=buf, width=width, highlight=False, color_system=None), *args)
    return buf.getvalue()


def test_every_declared_access_is_predicted(rows):
    assert len(rows) > 300
    assert {r.experiment for r in rows} >= {"layout", "reduce", "transpose", "matmul", "stencil"}
    conflicted = {(r.experiment, r.variant, r.label) for r in rows if r.conflicted}
    assert ("layout", "setColReadCol", "load tile") in conflicted
    assert ("transpose", "transpose1", "load S[tx][ty]") in conflicted
    assert not any(r.variant == "setRowReadRow" for r in rows if r.conflicted)


def test_summary_at_80_columns_names_every_conflict_with_its_fix_and_command(rows):
    out = render(conflict_summary, rows)
    bad = [r for r in rows if r.conflicted]
    assert f"{len(bad)} of the {len(rows)} declared shared-memory accesses" in out
    assert "…" not in out  # nothing cut short
    for r in bad:
        assert r.variant in out and r.label in out  # names whole, labels with their [subscripts]
        # one line, however narrow the terminal, to copy and run (an access shared by several variants once)
        assert " ".join(shlex.quote(a) for a in ["smemlab", "bank", *r.bank_args()[:7]]) in out
    for line in out.splitlines():
        if not line.startswith("  smemlab bank") and "or: swizzle" not in line and "fix: row stride" not in line:
            assert len(line) <= 80, line
    assert "fix: pad the rows to 33: int tile[32][33]" in out
    assert "or: swizzle, no extra memory: tile[tx][ty ^ tx]" in out


def test_each_command_reproduces_its_prediction(rows, capsys):
    import json

    seen = set()
    for r in [r for r in rows if r.conflicted] + rows[:5]:
        args = shlex.split(r.command("--json"))[2:]
        if tuple(args) in seen:
            continue
        seen.add(tuple(args))
        assert main(["bank", *args]) == 0
        d = json.loads(capsys.readouterr().out)
        assert d["wavefronts_per_request"] == r.per_request


def test_no_gpu_screen_is_short_and_ends_with_the_reason():
    out = render(lambda con: print_no_gpu_run("no CUDA GPU found (test)", con))
    lines = out.splitlines()
    assert len(lines) < 80
    assert "No GPU: no CUDA GPU found (test)." in lines[-4:]
    assert all(len(line) <= 80 for line in lines if not line.startswith("  smemlab bank")
               and "or: swizzle" not in line and "fix: row stride" not in line)


def test_listing_shows_every_access_escaped(rows):
    exps = all_experiments()
    out = render(access_listing, rows, exps)
    assert "…" not in out
    for r in rows:
        assert r.variant in out
    assert "As[ty][0]" in out and "smem[tx+4]" in out and "tile[((ty*32+tx)%32)][((ty*32+tx)/32)]" in out
    assert len(re.findall(r"\bconflict\b", out)) == sum(r.conflicted for r in rows)


def test_list_accesses_command(capsys):
    assert main(["list", "--accesses", "transpose"]) == 0
    out = capsys.readouterr().out
    assert "transposeSmem" in out and "load tile[icol][irow]: tile[((ty*32+tx)%16)][((ty*32+tx)/16)] load" in out
    assert "layout" not in out.split("\n", 1)[0]
