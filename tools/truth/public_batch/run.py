#!/usr/bin/env python3
"""Analyse the public batch: real CUDA files, unmodified, from public repositories.

files.json names every launch: the repository (owner/name), the commit, the file's path in it,
the include directories, macros and compiler options the repository's own build uses, the kernel
as a user names it, the block, grid and arguments. This script holds no third-party code: it
takes each repository from a local mirror (MIRROR/owner+name/repo, a git directory such as the
search tool's fetch leaves, or MIRROR/owner+name as the git directory itself), writes the commit's
files into a temporary tree (blobs the mirror lacks, such as large binaries, are skipped),
fills the submodules files.json names from their own mirrors at the commits the tree records,
and runs `python -m smemlab analyze FILE ... --json` on each launch with a time limit.

    python tools/truth/public_batch/run.py /work/.mirror --out /tmp/public_batch
    python tools/truth/public_batch/run.py /work/.mirror --only 'cuda-samples|llm.c' --python .venv/bin/python

It writes OUT/results.json and OUT/results.md: per launch, analysed or not, the error's first
line, the shared-memory totals and the seconds taken.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def git_dir(mirror: Path, repo: str) -> Path:
    base = mirror / repo.replace("/", "+")
    for cand in (base / "repo", base, mirror / repo):
        if (cand / "objects").is_dir() or (cand / ".git").exists():
            return cand / ".git" if (cand / ".git").is_dir() else cand
    raise FileNotFoundError(f"no mirror of {repo} under {mirror} (looked for {base}/repo)")


def git(gd: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(gd), *args], check=True, capture_output=True).stdout


def extract(gd: Path, commit: str, dest: Path, paths: list[str] | None = None) -> dict:
    """Write the blobs of COMMIT (under PATHS, if given) into DEST; return the gitlinks and the paths skipped."""
    listing = git(gd, "ls-tree", "-r", "-z", commit, "--", *(paths or []))
    blobs, links = [], {}
    for rec in listing.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, typ, oid = meta.split()
        if typ == b"blob":
            blobs.append((oid.decode(), path.decode(), mode))
        elif typ == b"commit":
            links[path.decode()] = oid.decode()
    proc = subprocess.Popen(["git", "--git-dir", str(gd), "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        for oid, _, _ in blobs:
            proc.stdin.write((oid + "\n").encode())
        proc.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    skipped = []
    for oid, path, mode in blobs:
        head = proc.stdout.readline().split()
        if len(head) < 3 or head[1] == b"missing":
            skipped.append(path)
            continue
        data = proc.stdout.read(int(head[2]))
        proc.stdout.read(1)
        out = dest / path
        out.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":           # a symbolic link: keep it as one, relative as git stores it
            try:
                os.symlink(data.decode(), out)
            except OSError:
                pass
            continue
        out.write_bytes(data)
    proc.wait()
    return {"links": links, "skipped": skipped}


def prepare(manifest: dict, launches: list[dict], mirror: Path, work: Path, log) -> dict:
    """One tree per (repository, commit) the launches need; returns {(repo, commit): root}."""
    roots = {}
    for e in launches:
        key = (e["repo"], e["commit"])
        if key in roots:
            continue
        root = work / f"{e['repo'].replace('/', '+')}@{e['commit'][:12]}"
        roots[key] = root
        if (root / ".extracted").exists():
            continue
        t = time.time()
        gd = git_dir(mirror, e["repo"])
        paths = manifest.get("paths", {}).get(e["repo"])
        info = extract(gd, e["commit"], root, paths)
        for sub, spec in manifest.get("submodules", {}).get(e["repo"], {}).items():
            sub_repo, sub_paths = (spec, None) if isinstance(spec, str) else (spec["repo"], spec.get("paths"))
            link = info["links"].get(sub) or _gitlink(gd, e["commit"], sub)
            if link is None:
                log(f"  {e['repo']}: no submodule at {sub}")
                continue
            extract(git_dir(mirror, sub_repo), link, root / sub, sub_paths)
        (root / ".extracted").write_text(json.dumps({"skipped": info["skipped"]}))
        log(f"  {e['repo']}@{e['commit'][:12]}: extracted in {time.time() - t:.1f} s"
            f" ({len(info['skipped'])} blobs absent from the mirror skipped)")
    return roots


def _gitlink(gd: Path, commit: str, path: str) -> str | None:
    out = git(gd, "ls-tree", commit, "--", path).decode().split()
    return out[2] if len(out) >= 3 and out[1] == "commit" else None


def command(e: dict, root: Path, python: str, extra=()) -> list[str]:
    cmd = [python, "-m", "smemlab", "analyze", str(root / e["path"]), "--kernel", e["kernel"],
           "--block", ",".join(map(str, e["block"]))]
    if e.get("grid"):
        cmd += ["--grid", ",".join(map(str, e["grid"]))]
    if e.get("dynamic_shared"):
        cmd += ["--dynamic-shared", str(e["dynamic_shared"])]
    for d in e.get("include", []):
        cmd += ["-I", str(root / d)]
    for d in e.get("define", []):
        cmd += ["--define", d]
    for o in e.get("options", []):
        cmd += [f"-X={o}"]
    for a in e.get("args", []):
        cmd += ["--arg", a]
    return cmd + ["--json"] + list(e.get("extra", [])) + list(extra)


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:400]
    return ""


CAUSES = [  # (pattern over the whole error, the cause in a few words; \1 is the pattern's group)
    (r"fatal error: ([\w./+-]+): No such file", r"header not found: \1"),
    (r"#error (C\+\+\d+ or later)[^\n]*", r"the headers need \1"),
    (r"PTX instruction `([\w.]+?)(?:\.sync|\.aligned|`)", r"emulator: PTX \1 not supported"),
    (r"needs\s+param0 |its parameters: param0, ", "parameter names lost (param0, param1, ...)"),
    (r"(\S+) is not a pointer", r"struct field \1 not taken as a pointer"),
    (r"parameter (\w+) is a pointer \(([^)]*)\); give a buffer", r"no null pointer for \1 (\2)"),
    (r"stopped after [\d,]+ warp-instructions", "step limit reached"),
    (r"no answer in", "time limit"),
    (r"does not compile", "does not compile"),
]


def cause(error: str) -> str:
    for pat, repl in CAUSES:
        m = re.search(pat, error)
        if m:
            return m.expand(repl)
    return first_line(error)[:120]


def run_one(e: dict, root: Path, python: str, env: dict, timeout: float, extra=()) -> dict:
    cmd = command(e, root, python, extra)
    t = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "error": f"no answer in {timeout:.0f} s", "seconds": round(time.time() - t, 1)}
    dt = round(time.time() - t, 1)
    res = None
    try:
        res = json.loads(p.stdout)
    except (json.JSONDecodeError, ValueError):
        pass
    if p.returncode == 0 and isinstance(res, dict) and "error" not in res:
        lines = res.get("lines", [])
        return {"status": "analysed", "seconds": dt,
                "load_wavefronts": res.get("load", {}).get("wavefronts"),
                "load_ideal": res.get("load", {}).get("ideal_wavefronts"),
                "store_wavefronts": res.get("store", {}).get("wavefronts"),
                "store_ideal": res.get("store", {}).get("ideal_wavefronts"),
                "atomic_wavefronts": res.get("atomic", {}).get("wavefronts"),
                "rows": len(lines), "symbol": res.get("symbol"),
                "static_shared": res.get("static_shared"),
                "files_in_rows": sorted({Path(x.get("file", "")).name for x in lines})[:8]}
    err = res.get("error") if isinstance(res, dict) and "error" in res else first_line(p.stderr) or first_line(p.stdout)
    full = str(res.get("error") if isinstance(res, dict) else p.stderr)
    head = first_line(str(err))
    if head.endswith(":"):      # "FILE does not compile (nvcc sm_90):" -- the compiler's own error follows
        compiler_error = next((l.strip() for l in full.splitlines() if re.search(r"\berror\b", l)), "")
        head = f"{head} {compiler_error}"[:400]
    return {"status": "not analysed", "rc": p.returncode, "seconds": dt, "cause": cause(full), "error": head,
            "error_tail": str(full)[-1500:]}


def markdown(manifest: dict, launches: list[dict], results: list[dict]) -> str:
    ok = sum(r["status"] == "analysed" for r in results)
    files = {(e["repo"], e["path"]) for e in launches}
    ok_files = {(e["repo"], e["path"]) for e, r in zip(launches, results) if r["status"] == "analysed"}
    repos = {e["repo"] for e in launches}
    out = [f"# Public batch: {ok} of {len(launches)} launches analysed as the files sit",
           "", f"{len(files)} files from {len(repos)} repositories; {len(ok_files)} files with at least one "
           f"launch analysed. Generated by tools/truth/public_batch/run.py from files.json.", "",
           "| # | repository @ commit | file | kernel | result | load wf (ideal) | store wf (ideal) | s |",
           "| - | - | - | - | - | - | - | - |"]
    for i, (e, r) in enumerate(zip(launches, results), 1):
        if r["status"] == "analysed":
            res = "analysed"
            lw = f"{r['load_wavefronts']} ({r['load_ideal']})"
            sw = f"{r['store_wavefronts']} ({r['store_ideal']})"
        else:
            res = f"{r['status']}: {r.get('cause') or r['error']}".replace("|", "\\|")
            lw = sw = ""
        kern = e["kernel"] if len(e["kernel"]) <= 70 else e["kernel"][:60] + " ...>"
        kern = kern.replace("|", "\\|")
        out.append(f"| {i} | {e['repo']} @ {e['commit'][:10]} | {e['path']} | `{kern}` | {res} | {lw} | {sw} | {r['seconds']} |")
    by_cause = {}
    for e, r in zip(launches, results):
        if r["status"] != "analysed":
            by_cause.setdefault(r.get("cause") or r["status"], []).append(e["id"])
    if by_cause:
        out += ["", "Not analysed, by cause:", ""]
        out += [f"- {c} ({len(ids)}): {', '.join(ids)}" for c, ids in sorted(by_cause.items(), key=lambda kv: -len(kv[1]))]
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirror", type=Path, help="folder of git mirrors: MIRROR/owner+name/repo")
    ap.add_argument("--manifest", type=Path, default=HERE / "files.json")
    ap.add_argument("--out", type=Path, default=Path("public_batch_out"), help="where results.json/.md go")
    ap.add_argument("--work", type=Path, help="where the repositories' trees are written (kept; default a temp folder)")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs smemlab")
    ap.add_argument("--pythonpath", help="PYTHONPATH for it (e.g. a checkout's src)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per launch")
    ap.add_argument("--only", help="regex over 'id repo path kernel'")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--extra", action="append", default=[], metavar="ARG",
                    help="an argument added to every analyze command (repeat), e.g. --extra=--max-steps=50000000")
    ap.add_argument("--print-commands", action="store_true", help="print each analyze command line")
    a = ap.parse_args(argv)

    manifest = json.loads(a.manifest.read_text())
    launches = [e for e in manifest["launches"]
                if not a.only or re.search(a.only, f"{e['id']} {e['repo']} {e['path']} {e['kernel']}")]
    log = lambda s: print(s, file=sys.stderr, flush=True)
    work = a.work or Path(tempfile.mkdtemp(prefix="public_batch_"))
    work.mkdir(parents=True, exist_ok=True)
    log(f"trees under {work}")
    roots = prepare(manifest, launches, a.mirror, work, log)
    env = dict(os.environ)
    if a.pythonpath:
        env["PYTHONPATH"] = a.pythonpath + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")

    def job(e):
        root = roots[(e["repo"], e["commit"])]
        if a.print_commands:
            log(" ".join(map(_quote, command(e, root, a.python, a.extra))))
        r = run_one(e, root, a.python, env, a.timeout, a.extra)
        log(f"{e['id']:28s} {r['status']:13s} {r['seconds']:6.1f} s  {r.get('cause', '')}")
        return r

    if a.jobs > 1:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(a.jobs) as ex:
            results = list(ex.map(job, launches))
    else:
        results = [job(e) for e in launches]

    a.out.mkdir(parents=True, exist_ok=True)
    rows = [{"id": e["id"], "repo": e["repo"], "commit": e["commit"], "path": e["path"], "kernel": e["kernel"],
             **r} for e, r in zip(launches, results)]
    (a.out / "results.json").write_text(json.dumps(rows, indent=1) + "\n")
    (a.out / "results.md").write_text(markdown(manifest, launches, results))
    ok = sum(r["status"] == "analysed" for r in results)
    log(f"{ok} of {len(launches)} launches analysed; {a.out}/results.md")
    return 0


def _quote(s: str) -> str:
    return s if re.fullmatch(r"[\w@%+=:,./\-\[\]]+", s) else "'" + s.replace("'", "'\\''") + "'"


if __name__ == "__main__":
    sys.exit(main())
