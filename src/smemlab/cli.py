"""The one entry point: `smemlab COMMAND ...` (also `python -m smemlab`).

Each command lives in its own module, which exposes `register(subparsers)`: it adds its parser and
sets `func(args) -> int` on it. The modules are imported here so `--help` lists every command;
each keeps its heavy imports (CUDA, CuPy, matplotlib) inside the function that needs them.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from smemlab.errors import UserError

# module name -> the command(s) it registers; kept in the order `--help` shows them
COMMAND_MODULES = [
    "smemlab.commands.list_cmd",
    "smemlab.commands.run_cmd",
    "smemlab.commands.bank_cmd",
    "smemlab.commands.analyze_cmd",
    "smemlab.commands.profile_cmd",
    "smemlab.commands.check_cmd",
    "smemlab.commands.info_cmd",
    "smemlab.commands.bench_cmd",
    "smemlab.commands.suite_cmd",
    "smemlab.commands.report_cmd",
]


class _Parser(argparse.ArgumentParser):
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
            "  smemlab info"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command still being written must not break the rest
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        sys.stderr.write(f"smemlab: {exc}\n")
        return exc.exit_status
    except KeyboardInterrupt:
        sys.stderr.write("smemlab: interrupted\n")
        return 130
    except BrokenPipeError:  # `smemlab ... | head`
        return 0
