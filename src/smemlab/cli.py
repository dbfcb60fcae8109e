"""The one entry point: `smemlab COMMAND ...` (also `python -m smemlab`).

Each command lives in its own module, which exposes `register(subparsers)`: it adds its parser and
sets `func(args) -> int` on it. The modules are imported here so `--help` lists every command;
each keeps its heavy imports (CUDA, CuPy, matplotlib) inside the function that needs them.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from smemlab import __version__
from smemlab.commands import (analyze_cmd, bank_cmd, bench_cmd, check_cmd, derive_cmd, info_cmd, list_cmd, profile_cmd,
                              report_cmd, run_cmd, suite_cmd)
from smemlab.errors import UserError

# the shell's status for a process that wrote to a pipe whose reader had gone (128 + SIGPIPE)
BROKEN_PIPE_STATUS = 141

# the commands' modules, in the order `--help` shows them; each keeps its heavy imports inside its run()
COMMANDS = (list_cmd, run_cmd, bank_cmd, analyze_cmd, profile_cmd, check_cmd, info_cmd, bench_cmd, suite_cmd, report_cmd,
            derive_cmd)
COMMAND_MODULES = [module.__name__ for module in COMMANDS]


class _Parser(argparse.ArgumentParser):
    def _print_message(self, message, file=None):  # argparse drops write errors; let main() report them
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str):  # argparse's own errors: one line, status 2, a hint
        self.print_usage(sys.stderr)
        sys.stderr.write(f"smemlab: error: {message}\n(try: {self.prog} --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="smemlab",
        description=(
            "The GPU's on-chip memories, measured and explained: shared-memory banks and "
            "conflicts, tiles and padding, reductions, transposes, matrix multiply, constant "
            "memory, warp shuffles and distributed shared memory."
        ),
        epilog=(
            "examples:\n"
            "  smemlab bank 'tile[threadIdx.x][threadIdx.y]' --shape 32,32 --dtype int --block 32,32 --suggest\n"
            "  smemlab analyze kernel.cu --kernel transposeNaive --block 32,8 --arg out=float32[1024] ...\n"
            "  smemlab list\n"
            "  smemlab run transpose --size 4096,4096\n"
            "  smemlab info\n\n"
            "bank, analyze, derive, list and report need no GPU (analyze needs 'smemlab[analyze]': nvcc and\n"
            "NVRTC from pip wheels); the other commands need a CUDA GPU and the GPU packages\n"
            "(pip install 'smemlab[gpu]')."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"smemlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.register(sub)
    return parser


def _joined_options(argv: list[str]) -> list[str]:
    """`-X --expt-relaxed-constexpr` as `-X=--expt-relaxed-constexpr`: argparse takes a value that starts with a
    dash for an option of its own, and compiler options all do."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] == "-X" and i + 1 < len(argv):
            out.append(f"-X={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(_joined_options(list(sys.argv[1:] if argv is None else argv)))
    except SystemExit as exc:  # --help and --version (0), argparse's own errors (2)
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        sys.stdout.flush()  # what was printed before the mistake comes first
        sys.stderr.write(f"smemlab: {exc}\n")
        return exc.exit_status


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to do
        pass


def main(argv: list[str] | None = None) -> int:
    """Run one command; its status: 0 done, 1 failed (or no GPU), 2 a mistake in what was asked,
    130 interrupted, 141 the reader of the output went away (`smemlab list | head -2`)."""
    try:
        status = _run(argv)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        sys.stderr.write("smemlab: interrupted\n")
        return 130
    except BrokenPipeError:  # quietly, as `seq 1 100000 | head -2` does
        _drop_stdout()
        return BROKEN_PIPE_STATUS
    except OSError as exc:  # a full disk, a file that cannot be written: one line, not a traceback
        if exc.filename is None and exc.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):
            _drop_stdout()
            sys.stderr.write(f"smemlab: cannot write the output: {exc.strerror}\n")
        elif exc.filename is not None:
            sys.stderr.write(f"smemlab: {exc.filename}: {exc.strerror or exc}\n")
        else:
            sys.stderr.write(f"smemlab: {exc.strerror or exc}\n")
        return 1
