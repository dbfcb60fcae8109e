"""The Python API: one call per kind of kernel a Python programmer writes, each returning a session.Report.

    import smemlab.analyze as sa
    r = sa.source(CUDA_TEXT, "transpose", block=(32, 8), args={"out": out, "inp": inp})   # or a cupy.RawKernel
    r = sa.numba(transpose, (32, 8), out, inp)                 # a @cuda.jit kernel and NumPy arrays
    r = sa.triton(kernel, (1,), out, inp, 32, BLOCK=32)        # a @triton.jit kernel, one program
    r.totals("load"), r.lines, r.bank_map(12), r.to_json(), r   # (a notebook shows r as a table)

An argument is a NumPy array (a pointer, or a Numba array of its shape), a number, or an --arg VALUE text
("float32[32,32]", "int32[8192]:0..255", "data.npy"): its seeded fill, as on the command line.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from smemlab.errors import UserError

SHOWN = "<source>"


def source(code, kernel: str | None = None, block=(32, 1, 1), grid=(1, 1, 1), args=None, options=None,
           defines: dict | None = None, **run):
    """CUDA C++ source text, or a CuPy RawKernel / RawModule as it is (its code, options and kernel name;
    compiled with NVRTC as CuPy compiles it, no GPU needed). `args`: --arg texts, or NAME -> NumPy array,
    number or VALUE text. `run`: block_index, dynamic_shared, cluster, max_steps, time_limit, compiler.
    Rows name the text's lines `<source>:N`."""
    from smemlab.analyze import pyargs
    from smemlab.analyze.session import analyze_source

    options = list(options or [])
    if not isinstance(code, str):
        from smemlab.analyze.cupy_front import _cupy_options, from_object

        held = from_object(code)
        if held is None:
            raise UserError(f"{type(code).__name__}: give CUDA source text or a CuPy RawKernel/RawModule "
                            f"(an object with its source in .code)")
        # as CuPy compiles it: the object's options and those CuPy adds (its headers, <cupy/complex.cuh> among them)
        options = _cupy_options(held.options) + options
        kernel = kernel or held.only
        if held.backend == "nvrtc":
            run.setdefault("compiler", "nvrtc")  # what CuPy compiles it with
        code = held.code
    path = _stable_file(code)
    with pyargs.scratch() as tmp:
        texts = args if isinstance(args, (list, tuple)) else \
            [a.text for a in pyargs.from_values(dict(args or {}), Path(tmp))]
        try:
            report = analyze_source(str(path), kernel, block, grid, args=list(texts), defines=defines,
                                    options=options, **run)
        except UserError as exc:
            raise type(exc)(str(exc).replace(str(path), SHOWN)) from None
    report.files = {i: SHOWN if f == str(path) else f for i, f in report.files.items()}
    return report


def _stable_file(text: str) -> Path:
    """The text in a file named by its digest, so that nvcc's cache finds it again on the next call."""
    from smemlab.analyze.nvcc import cache_dir

    folder = cache_dir() / "sources" / hashlib.sha256(text.encode()).hexdigest()[:24]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "source.cu"
    if not path.is_file() or path.read_text(errors="replace") != text:
        path.write_text(text)
    return path


def numba(kernel, block, *args, grid=(1, 1, 1), block_index=(0, 0, 0), dynamic_shared: int = 0, **named):
    """A `@cuda.jit` kernel (or the path of a .py file, with kernel=NAME in `named`) on one block.
    `args`: the kernel's arguments in order; or give them by name in `named`. Run options in `named`:
    max_steps, cluster, time_limit, name."""
    from smemlab.analyze import numba_front

    run = {k: named.pop(k) for k in ("max_steps", "cluster", "time_limit", "name") if k in named}
    if args and isinstance(kernel, str):  # a file's kernel: its parameters are those of the one `name` picks
        run["name"], kernel = numba_front.find(kernel, run.get("name"))
    values = _positional(numba_front.parameters(kernel) if args else [], args)
    return numba_front.analyze(kernel, block, grid, block_index, dynamic_shared, values={**values, **named}, **run)


def triton(kernel, grid, *args, num_warps: int | None = None, num_stages: int | None = None, program=(0, 0, 0),
           **constexprs):
    """A `@triton.jit` kernel, one program of `grid` emulated. `args`: the non-constexpr parameters in order
    (NumPy arrays for the pointers); `constexprs`: the tl.constexpr parameters. Run options among them:
    max_steps, time_limit, arch (90 or 80); `name` picks the kernel of a .py file's path, `values` gives
    arguments by name. num_warps, num_stages: 4 and 3 unless given (an autotuned kernel: its first config's)."""
    from smemlab.analyze import triton_front

    run = {k: constexprs.pop(k) for k in ("max_steps", "time_limit", "arch", "name", "values") if k in constexprs}
    grid = (grid,) if isinstance(grid, int) else tuple(grid)
    return triton_front.analyze(kernel, grid, *args, constexprs=constexprs, num_warps=num_warps,
                                num_stages=num_stages, program=program, **run)


def _positional(params: list[str], args: tuple) -> dict:
    if len(args) > len(params):
        raise UserError(f"{len(args)} arguments for a kernel of {len(params)} parameters ({', '.join(params)})")
    return dict(zip(params, args))


__all__ = ["source", "numba", "triton"]
