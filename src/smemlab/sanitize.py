"""compute-sanitizer over every variant and the library: memcheck, racecheck, synccheck, initcheck.

Each (experiment, tool) pair runs the experiment's variants once, verified, at a small size in a
child process under the tool; the library ("library") runs smemlab.ops.selfcheck, every op at small
and odd sizes. Findings are attributed to variants (or library cases) through the kernel names the
sanitizer prints and the child's launch log. A variant kept to show a hazard (Variant.hazard)
is expected to have a finding; everything else should be clean.
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


LIBRARY = "library"  # the name `smemlab check` knows the library's self-check by


def _child(exp_name: str, size: Sequence[int] | None, device: int, log: Path) -> list[str]:
    """The command a child runs under the tool: the experiment's variants, or the library's cases."""
    if exp_name == LIBRARY:
        return [sys.executable, "-m", "smemlab.ops.selfcheck", "--device", str(device), "--launch-log", str(log)]
    cmd = [sys.executable, "-m", "smemlab", "run", exp_name, "--reps", "0", "--quiet", "--device", str(device),
           "--launch-log", str(log)]
    return cmd + (["--size", ",".join(map(str, size))] if size else [])


def _run_one(tool: str, exp_name: str, size: Sequence[int] | None, device: int, timeout: int) -> tuple[str, str, list]:
    exe = sanitizer_path()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "launches.json"
        cmd = [exe, "--tool", tool, "--print-limit", "20", *_child(exp_name, size, device, log)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                  env=dict(os.environ, PYTHONUNBUFFERED="1"))
            output = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:
            return tool, f"timed out after {timeout} s", []
        launches = json.loads(log.read_text()) if log.exists() else []
    return tool, output, launches


def _rows(exp_name: str, expected: dict[str, str], results) -> list[dict]:
    """One row per variant (or library case): {'experiment', 'variant', 'expected', tool: 'clean' | finding};
    `expected`: variant -> the hazard it is kept to show ("" for none)."""
    rows = {name: {"experiment": exp_name, "variant": name, "expected": hazard} for name, hazard in expected.items()}
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
    from smemlab import lab

    if not sanitizer_path():
        return [{"experiment": "-", "variant": "-", "expected": "", **{t: "compute-sanitizer not found" for t in TOOLS}}]
    # (name, size, variant -> expected hazard), the library last
    targets = []
    for name in names or [*lab.available(), LIBRARY]:
        if name == LIBRARY:
            from smemlab.ops.selfcheck import cases

            targets.append((LIBRARY, None, {label: "" for label, _ in cases()}))
        else:
            exp = lab.get(name)
            targets.append((exp.name, exp.small_sizes[0] if exp.small_sizes else None,
                            {v.name: v.hazard or "" for v in exp.variants() if v.kernel}))
    jobs = [(t, tool) for t in targets for tool in tools]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = list(pool.map(lambda j: _run_one(j[1], j[0][0], j[0][1], device, timeout), jobs))
    rows = []
    for i, (name, _, expected) in enumerate(targets):
        rows += _rows(name, expected, done[i * len(tools):(i + 1) * len(tools)])
    return rows
