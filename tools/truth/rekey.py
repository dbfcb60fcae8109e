"""Re-key the hardware truth of package kernels whose code did not change but whose lines moved, or whose
entry became a template instance (a macro a template parameter), or which moved to another file: each case's
per-line counts are mapped from the file as it was when the case was keyed to the file as it is now, and its
kernel, file and macros become what tools/analyze_truth/cases.py declares now.

The map is difflib's over the two texts: a line inside a block the two files share maps to its new number;
a line that moved out to a package header the new file includes (include/NAME.cuh) maps to its line there, by
the same map over the header's text; a counted line of another package file (a shared header the kernel calls into) maps
by the map of that file's text at REV to its text now; a line whose text changed (or went) maps to nothing, and a case with a counted line that maps to nothing is
left as it was and reported, to be recorded again on the GPU (tools/analyze_truth/measure.py --only). The
truth replays (tests/test_analyze_truth.py, tests/test_analyze_global_truth.py) then check that analyze
agrees with the re-keyed counts. The SASS addresses stay those of the cubin that was measured.

    python tools/truth/rekey.py --rev REV --ids 'ops_transpose\\.' [--from OLD_SOURCE] [--write]

REV: the git revision whose files the fixture's lines refer to. Each case's old file is its fixture `file`
(or --from, for kernels that moved); its new file is what cases.py names. Without --write, only reports.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable

from smemlab.compiler import canonical

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests/data/analyze_truth.json"
PACKAGE = "package:"
SRC = "src/smemlab/"


def line_map(old: str, new: str) -> dict[int, int]:
    """1-based old line -> new line, for the lines the two texts share unchanged."""
    a, b = old.splitlines(), new.splitlines()
    out = {}
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            out[block.a + k + 1] = block.b + k + 1
    return out


def included_headers(text: str) -> list[str]:
    """The package headers (include/NAME.cuh) that a kernel source `text` includes, by their package names."""
    from smemlab.compiler import INCLUDE, KERNEL_DIR

    return [f"{INCLUDE}/{h}" for h in re.findall(r'^\s*#include\s+"([^"]+)"', text, re.M) if (KERNEL_DIR / INCLUDE / h).is_file()]


def new_lines(old: str, new_source: str) -> list[tuple[str, dict[int, int]]]:
    """(package file, old line -> its line) for the new source, then each package header it includes: where
    a line of `old` is now."""
    text = (REPO / SRC / new_source).read_text()
    return [(f, line_map(old, (REPO / SRC / f).read_text())) for f in [new_source] + included_headers(text)]


def _name(file: str) -> str | None:
    """The package source a fixture `file` names ("package:lib/transpose.cu" -> "ops/transpose/transpose.cu")."""
    return canonical(file[len(PACKAGE):]) if file.startswith(PACKAGE) else None


def rekey_case(case: dict, new_case: dict, old_source: str, maps: dict[str, dict[int, int]],
               other: Callable[[str], dict[int, int]] = lambda f: {}) -> str | None:
    """Re-key `case` in place to `new_case`'s kernel, file and macros; returns why it cannot be (and leaves it), or
    None. other(FILE): old line -> new line of another package file the case counts lines of (a shared header)."""
    new_source = _name(new_case["file"])
    files = maps[(old_source, new_source)]
    entries = [e for key in ("lines", "sass") for e in case.get(key, [])]
    entries += [e for key in ("lines", "sass") for e in case.get("memory", {}).get(key, [])]
    moved, kept = [], []
    for e in entries:
        f = _name(e.get("file", ""))
        if f is not None and f != old_source:  # another package file (a shared header): where its line is now
            line = other(f).get(e["line"])
            if line is None:
                return f"line {e['line']} ({e['op']}) of {f} changed or went"
            kept.append((e, line))
            continue
        if f != old_source:
            continue  # not a package file
        found = next(((f, m[e["line"]]) for f, m in files if e["line"] in m), None)
        if found is None:
            return f"line {e['line']} ({e['op']}) of {old_source} changed or went"
        moved.append((e, found))
    for e, (f, line) in moved:
        e["line"], e["file"] = line, new_case["file"] if f == new_source else PACKAGE + f
    for e, line in kept:  # (its file keeps its name)
        e["line"] = line
    # the launch as cases.py declares it now: a macro that became a template parameter leaves the defines
    case["kernel"], case["file"], case["defines"] = new_case["kernel"], new_case["file"], new_case["defines"]
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", required=True, help="the git revision the fixture's lines refer to")
    ap.add_argument("--ids", required=True, help="a regular expression: the case ids to re-key")
    ap.add_argument("--from", dest="old", help="the package source the cases were keyed to, where they moved")
    ap.add_argument("--write", action="store_true", help="write the re-keyed fixture (else report only)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO / "tools/analyze_truth"))
    import measure
    from cases import CASES

    by_id = {c["id"]: c for c in CASES}
    fixture = json.loads(FIXTURE.read_text())
    maps: dict = {}
    others: dict[str, dict[int, int]] = {}

    def other(f: str) -> dict[int, int]:  # a package file's lines at REV -> now
        if f not in others:
            then = subprocess.run(["git", "-C", str(REPO), "show", f"{args.rev}:{SRC}{f}"], check=True, capture_output=True,
                                  text=True).stdout
            others[f] = line_map(then, (REPO / SRC / f).read_text())
        return others[f]

    failed, done = [], []
    for case in fixture["cases"]:
        if not re.search(args.ids, case["id"]):
            continue
        if case["id"] not in by_id:
            failed.append((case["id"], "cases.py no longer declares it"))
            continue
        old_source, new_source = canonical(args.old) if args.old else _name(case["file"]), _name(by_id[case["id"]]["file"])
        if (old_source, new_source) not in maps:
            old = subprocess.run(["git", "-C", str(REPO), "show", f"{args.rev}:{SRC}{old_source}"], check=True,
                                 capture_output=True, text=True).stdout
            maps[(old_source, new_source)] = new_lines(old, new_source)
        why = rekey_case(case, by_id[case["id"]], old_source, maps, other)
        (failed.append((case["id"], why)) if why else done.append(case["id"]))
    for i in done:
        print(f"re-keyed  {i}")
    for i, why in failed:
        print(f"NOT       {i}: {why}")
    print(f"{len(done)} re-keyed, {len(failed)} not")
    if args.write and done:
        measure.write_fixture(FIXTURE, fixture["provenance"], fixture["cases"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
