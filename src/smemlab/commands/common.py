"""Argument types and helpers the commands share."""

from __future__ import annotations

import argparse

from smemlab.errors import UserError

MAX_DIM = 1 << 40  # sizes beyond this are typos, not experiments


def int_list(text: str) -> list[int]:
    """'4096,4096' -> [4096, 4096]; positive integers only (also accepts 'x' as a separator)."""
    parts = [p for p in text.replace("x", ",").replace("X", ",").split(",")]
    values = []
    for p in parts:
        p = p.strip()
        try:
            v = int(p, 0)
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
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {v}")
    return v


def add_device(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--device", type=nonneg_int, default=0, metavar="N", help="GPU index (default 0)")


def runtime(device: int):
    """The Runtime for `device`, or a NoGPU error that the CLI prints as one line."""
    from smemlab.gpu import Runtime

    return Runtime(device)


def experiments_named(names: list[str]):
    from smemlab import experiments

    if not names:
        return experiments.all_experiments()
    return [experiments.get(n) for n in names]


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
    except (ValueError, TypeError, KeyError) as exc:
        raise UserError(f"{path}: not a smemlab run record ({type(exc).__name__}: {exc})")
