"""Argument types and helpers the commands share."""

from __future__ import annotations

import argparse
import re

from smemlab.errors import NoGPU, UserError

MAX_DIM = 1 << 40  # sizes beyond this are typos, not experiments
_INTEGER = re.compile(r"[-+]?[0-9]+", re.ASCII)  # ASCII decimal digits only: no 1_024, no other scripts

# the packages the GPU commands import; a plain `pip install smemlab` has none of them
GPU_MODULES = ("cupy", "cuda.core", "cuda.bindings")
GPU_EXTRA = "pip install 'smemlab[gpu]'"


def _integer(text: str) -> int:
    text = text.strip()
    if not _INTEGER.fullmatch(text):
        raise ValueError(text)
    return int(text)


def int_list(text: str) -> list[int]:
    """'4096,4096' -> [4096, 4096]; positive integers only (also accepts 'x' as a separator)."""
    parts = re.split(r"[,xX]", text)
    values = []
    for p in parts:
        p = p.strip()
        try:
            v = _integer(p)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: {p!r} is not an integer (write sizes like 4096 or 4096,4096)")
        if v <= 0:
            raise argparse.ArgumentTypeError(f"{text!r}: sizes must be positive, got {v}")
        if v > MAX_DIM:
            raise argparse.ArgumentTypeError(f"{text!r}: {v} is far larger than any GPU can hold")
        values.append(v)
    return values


def nonneg_int(text: str) -> int:
    try:
        v = _integer(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {v}")
    return v


def add_device(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--device", type=nonneg_int, default=0, metavar="N", help="GPU index (default 0)")


def missing_gpu_package() -> str | None:
    """The first GPU package that is not installed (a plain, CPU-only install), or None."""
    import importlib.util

    for name in GPU_MODULES:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # the parent package (cuda) is missing
            return name
    return None


def missing_analyze_package() -> str | None:
    """The package `smemlab analyze` needs and does not find (NVRTC through cuda.bindings), or None."""
    import importlib.util

    try:
        return None if importlib.util.find_spec("cuda.bindings") is not None else "cuda.bindings"
    except (ImportError, ValueError):  # the parent package (cuda) is missing
        return "cuda.bindings"


def require_gpu_packages() -> None:
    """A one-line NoGPU error (status 1) naming the extra to install, where the GPU stack is missing."""
    missing = missing_gpu_package()
    if missing:
        raise NoGPU(f"this command runs on the GPU and needs the GPU packages ({missing} is not installed): "
                    f"{GPU_EXTRA}")


def runtime(device: int):
    """The Runtime for `device`, or a NoGPU error that the CLI prints as one line."""
    require_gpu_packages()
    from smemlab.gpu import Runtime

    return Runtime(device)


def check_run_arguments(exps, size, variants) -> None:
    """Status 2 for a bad --size or --variant before any GPU is looked for (one experiment given)."""
    if size:
        exps[0].parse_size(size)
    if variants:
        from smemlab.runner import select_variants

        select_variants(exps[0], variants)


def experiments_named(names: list[str]):
    from smemlab import lab

    if not names:
        return lab.all_experiments()
    return [lab.get(n) for n in names]


def require_single(names: list[str], option: str) -> None:
    if len(names) != 1:
        raise UserError(f"{option} applies to one experiment at a time; name exactly one (got {len(names) or 'all'})")


def load_record(folder, option: str = "--record"):
    """The RunRecord in folder/run.json, or a UserError that says how to make one."""
    from pathlib import Path

    from smemlab.records import RunRecord

    path = Path(folder) / "run.json"
    if not path.is_file():
        raise UserError(f"{option} {folder}: no run.json there (write one with `smemlab suite --out {folder}`)")
    try:
        return RunRecord.load(path)
    except OSError as exc:
        raise UserError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise UserError(f"{path}: not a smemlab run record ({exc})") from None
