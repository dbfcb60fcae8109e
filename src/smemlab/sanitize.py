"""compute-sanitizer over every variant: memcheck, racecheck, synccheck and initcheck.

Each (experiment, tool) pair runs the experiment's variants once, verified, at a small size in a
child process under the tool. Findings are attributed to variants through the kernel names the
sanitizer prints and the child's launch log. A variant kept to show a hazard (Variant.hazard)
is expected to have a finding; every other variant should be clean.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
_FINDING = re.compile(r"^=+ (?:Error|Warning|Invalid|Race|Barrier|Uninitialized)", re.M)


def sanitizer_path() -> str | None:
    return shutil.which("compute-sanitizer") or next(
        (str(p) for p in sorted(Path("/usr/local").glob("cuda*/bin/compute-sanitizer"), reverse=True)), None
    )


def findings_by_kernel(output: str, kernels: Sequence[str]) -> dict[str, list[str]]:
    """Kernel -> the first line of each finding reported in it. A finding is a block of
    '=========' lines starting with Error/Warning/Invalid...; its kernel is the first known kernel
    name mentioned in the block."""
    out: dict[str, list[str]] = {}
    blocks = re.split(r"(?m)^(?==+ (?:Error|Warning|Invalid|Race|Barrier|Uninitialized))", output)
    names = sorted(set(kernels), key=len, reverse=True)
    for block in blocks:
        if not _FINDING.match(block):
            continue
        first = block.strip().splitlines()[0].lstrip("= ").strip()
        hit = next((k for k in names if re.search(rf"\b{re.escape(k)}\b", block)), None)
        out.setdefault(hit or "?", []).append(first)
    return out


def _run_one(tool: str, exp_name: str, size: Sequence[int] | None, device: int, timeout: int) -> tuple[str, str, list]:
    exe = sanitizer_path()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "launches.json"
        cmd = [exe, "--tool", tool, "--print-limit", "20", sys.executable, "-m", "smemlab", "run", exp_name,
               "--reps", "0", "--quiet", "--device", str(device), "--launch-log", str(log)]
        if size:
            cmd += ["--size", ",".join(map(str, size))]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                  env=dict(os.environ, PYTHONUNBUFFERED="1"))
            output = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            return tool, f"timed out after {timeout} s", []
        launches = json.loads(log.read_text()) if log.exists() else []
    return tool, output, launches


def _rows(exp, results) -> list[dict]:
    """One row per variant: {'experiment', 'variant', 'expected', tool: 'clean' | finding}."""
    variants = [v for v in exp.variants() if v.kernel]
    rows = {v.name: {"experiment": exp.name, "variant": v.name, "expected": v.hazard or ""} for v in variants}
    for tool, output, launches in results:
        kernels_of: dict[str, set] = {}
        for name, ks in launches:
            kernels_of.setdefault(name, set()).update(ks)
        if not launches:
            for row in rows.values():
                row[tool] = f"did not run: {output.strip().splitlines()[-1] if output.strip() else 'no output'}"
            continue
        found = findings_by_kernel(output, [k for ks in kernels_of.values() for k in ks])
        for name, row in rows.items():
            hits = [f for k in kernels_of.get(name, ()) for f in found.get(k, [])]
            row[tool] = "clean" if name in kernels_of and not hits else (
                f"{len(hits)} finding(s): {hits[0]}" if hits else "not run")
    return list(rows.values())


def sanitize_all(device: int = 0, names: Sequence[str] = (), tools: Sequence[str] = TOOLS, timeout: int = 180,
                 workers: int = 8) -> list[dict]:
    """Every (experiment, tool) pair in its own child process, several at a time on the one GPU."""
    from smemlab.commands.common import experiments_named

    if not sanitizer_path():
        return [{"experiment": "-", "variant": "-", "expected": "", **{t: "compute-sanitizer not found" for t in TOOLS}}]
    exps = experiments_named(list(names))
    jobs = [(exp, tool) for exp in exps for tool in tools]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = list(pool.map(lambda j: _run_one(j[1], j[0].name, j[0].small_sizes[0] if j[0].small_sizes else None,
                                                device, timeout), jobs))
    rows = []
    for i, exp in enumerate(exps):
        rows += _rows(exp, done[i * len(tools):(i + 1) * len(tools)])
    return rows
