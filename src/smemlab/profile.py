"""Hardware counters from Nsight Compute, joined with the bank model's predictions.

The book's `nvprof --metrics shared_load_transactions_per_request` has no direct successor; per
request is now wavefronts / instructions (DESIGN.md). We re-run an experiment's variants, once
each and verified, in a child process under `ncu --clock-control none --csv --page raw`, limited
to our own kernels. The child logs which kernels each variant launched, in order; ncu reports
them in the same order, so each row of counters belongs to exactly one variant.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from smemlab.counters import METRICS


def ncu_path() -> str | None:
    return shutil.which("ncu") or next(
        (str(p) for p in sorted(Path("/usr/local").glob("cuda*/bin/ncu"), reverse=True) if p.exists()), None
    )


def parse_raw_csv(text: str) -> list[dict[str, object]]:
    """Rows of `ncu --csv --page raw`: one dict per profiled kernel launch, in launch order.

    The first row names the columns, the second gives units; values may carry thousands
    separators. Metric values become floats; 'n/a' becomes None.
    """
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]  # ncu's own log lines start with ==
    reader = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(reader) < 2:
        return []
    header, body = reader[0], reader[2:] if len(reader) > 1 and reader[1] and reader[1][0] == "" else reader[1:]
    out = []
    for row in body:
        rec: dict[str, object] = {}
        for name, value in zip(header, row):
            if name in METRICS or "__" in name:
                v = value.replace(",", "").strip()
                try:
                    rec[name] = float(v)
                except ValueError:
                    rec[name] = None
            else:
                rec[name] = value
        out.append(rec)
    return out


def function_name(demangled: str) -> str:
    """The function a row of ncu's CSV names: its "Kernel Name" is the demangled signature whatever
    --kernel-name-base filtered on ('void transpose_tiles<unsigned int, 16, 0, 4>(T1 *, ...)' for a template
    instance, 'histGlobal(const int *, ...)' or 'histGlobal' for an extern "C" kernel): no return type, template
    arguments or parameters, as the launch log names it."""
    head = demangled.split("(")[0].split("<")[0].strip()
    return head.removeprefix("void ").strip()


def assign(rows: list[dict], launches: list[tuple[str, list[str]]],
           metrics: Sequence[str] = METRICS) -> list[tuple[str, dict[str, float]]]:
    """Sum the counters of each case's launches (a ratio metric, `.ratio`, is averaged over them):
    `launches` is [(variant, [kernel, ...]), ...] in the order the child ran them; `rows` are ncu's,
    in the same order. One entry per case, in order (an experiment may run one variant several
    times, at several sizes)."""
    out: list[tuple[str, dict[str, float]]] = []
    i = 0
    for variant, kernels in launches:
        total: dict[str, float] = {}
        for kernel in kernels:
            if i >= len(rows):
                raise ValueError(f"ncu reported {len(rows)} launches, fewer than the {sum(len(k) for _, k in launches)} logged")
            row = rows[i]
            name = str(row.get("Kernel Name", ""))
            if function_name(name) != kernel:
                raise ValueError(f"launch {i}: ncu profiled {name!r} where {kernel!r} was logged")
            for metric in metrics:
                value = row.get(metric)
                if isinstance(value, float):
                    total[metric] = total.get(metric, 0.0) + value
            i += 1
        for metric in metrics:
            if metric.endswith(".ratio") and metric in total and kernels:
                total[metric] /= len(kernels)
        out.append((variant, total))
    return out


def profile_experiment(exp_name: str, size: Sequence[int] | None, variants: Sequence[str] | None, device: int,
                       kernels: Sequence[str], timeout: int = 900, extra_metrics: Sequence[str] = ()
                       ) -> tuple[list[tuple[str, dict[str, float]]] | None, str]:
    """Counters per variant (counters.METRICS, then `extra_metrics`), or (None, why not)."""
    metrics = list(METRICS) + [m for m in extra_metrics if m not in METRICS]
    ncu = ncu_path()
    if not ncu:
        return None, "ncu (Nsight Compute) not found on PATH"
    if not kernels:
        return {}, "no kernels to profile"
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "launches.json"
        cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--metrics", ",".join(metrics),
               "--kernel-name-base", "function", "--kernel-name", "regex:^(" + "|".join(sorted(set(kernels))) + ")$",
               sys.executable, "-m", "smemlab", "run", exp_name, "--reps", "0", "--device", str(device),
               "--launch-log", str(log), "--quiet"]
        if size:
            cmd += ["--size", ",".join(map(str, size))]
        for v in variants or ():
            cmd += ["--variant", v]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return None, f"ncu took longer than {timeout} s"
        text = proc.stdout
        keep = os.environ.get("SMEMLAB_NCU_KEEP")  # a folder: keep ncu's raw CSV (test fixtures come from it)
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            (Path(keep) / f"ncu_{exp_name}.csv").write_text(text)
            if log.exists():
                (Path(keep) / f"ncu_{exp_name}_launches.json").write_text(log.read_text())
        if "ERR_NVGPUCTRPERM" in text + proc.stderr:
            return None, "ncu cannot read the GPU's counters here (ERR_NVGPUCTRPERM: profiling not permitted)"
        # the child exits 1 when a variant kept to show a hazard does not verify; its log still
        # says what ran, and those counters are good. No log means the child itself broke.
        if not log.exists():
            tail = [ln for ln in (proc.stderr + text).strip().splitlines() if not ln.startswith('"')][-2:]
            return None, f"ncu failed (exit {proc.returncode}): {' / '.join(tail)[:300]}"
        wanted = set(kernels)
        launches = [(v, [k for k in ks if k in wanted]) for v, ks in json.loads(log.read_text())]
    try:
        return assign(parse_raw_csv(text), launches, metrics), "Nsight Compute, --clock-control none"
    except ValueError as exc:
        return None, f"could not match ncu's rows to variants: {exc}"


def attach(run, device: int = 0, only: Sequence[str] | None = None) -> None:
    """Profile every experiment of a RunRecord and store the counters in its variant records."""
    from smemlab import lab

    statuses = []
    for exp_rec in run.experiments:
        exp = lab.get(exp_rec.name)
        names = [v.variant for v in exp_rec.variants if v.ok]
        chosen = [v for v in exp.variants()
                  if v.name in names and v.kernel and v.profiled and (not only or v.name in only)]
        kernels = [k for source in exp.sources() for k in kernel_symbols(source)]
        counters, status = profile_experiment(exp_rec.name, exp_rec.size, [v.name for v in chosen], device, kernels,
                                              extra_metrics=exp.extra_metrics)
        if counters is None:
            statuses.append(f"{exp_rec.name}: {status}")
            continue
        _pair(exp_rec.variants, counters, "counters")
        if exp.bank_check_size:
            isolated, status = profile_experiment(exp_rec.name, exp.bank_check_size, [v.name for v in chosen], device,
                                                  kernels)
            if isolated is None:
                statuses.append(f"{exp_rec.name} at {exp.bank_check_size}: {status}")
            else:
                _pair(exp_rec.variants, isolated, "bank_counters")
    run.profile_status = "; ".join(statuses) if statuses else "Nsight Compute, --clock-control none"


def _pair(records, counters: list[tuple[str, dict]], attr: str) -> None:
    """The child ran the same cases in the same order: pair them up, case by case."""
    queue = list(counters)
    for v in records:
        if queue and queue[0][0] == v.variant:
            setattr(v, attr, queue.pop(0)[1])


def kernel_symbols(source: str) -> list[str]:
    """Every kernel defined in the package's <source> (with the template instances its op launches): the names
    ncu is told to profile, a template instance's as ncu's --kernel-name-base function gives it."""
    from smemlab.analyze.nvrtc import itanium_name
    from smemlab.compiler import canonical, compile_cubin
    from smemlab.cubin import static_shared_bytes
    from smemlab.lab import kernel_instances

    cubin = compile_cubin(source, name_expressions=kernel_instances(canonical(source)))
    return sorted({itanium_name(s) or s for s in static_shared_bytes(cubin)})
