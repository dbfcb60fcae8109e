"""The library's sums (reduce_sum, whole and along the last axis) with other load forms and batch sizes:
the 16-byte loads through the read-only path as the kernels have them (ld.global.nc), with an L2
prefetch hint of 256 bytes, with L1 no-allocate, both, and UNROLL 16 instead of 8; each against CuPy's
sum, outputs checked against float64 first. The op runs as users call it (smemlab.ops.reduce_sum on
CuPy arrays, its own plan), timed back to back (tools/dev/timing.gpu_us):

    python3 tools/probes/reduce_load_probe.py

Writes a scratch copy of ops/reduce/reduce.cu next to it (ops/reduce/_probe_reduce.cu, removed at the end)
with a LOAD macro per variant; the op is pointed at it for the run."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import gpu_us

SHAPES = [(16384, 16384), (1 << 20, 256), (256, 1 << 20), (1 << 28,)]
FORM = 'asm("ld.global.nc{hint}.v4.s32 {{%0, %1, %2, %3}}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));'
HINTS = {"nc (as shipped)": None, "nc L2::256B": ".L2::256B", "nc L1::no_allocate": ".L1::no_allocate",
         "nc L1::no_allocate L2::256B": ".L1::no_allocate.L2::256B"}


def probe_source(hint: str | None) -> str:
    """ops/reduce/reduce.cu with LOAD made an inline-PTX load carrying `hint` (None: unchanged)."""
    from smemlab.compiler import KERNEL_DIR

    text = (KERNEL_DIR / "ops" / "reduce" / "reduce.cu").read_text()
    if hint is None:
        return text
    helper = ("__device__ __forceinline__ int4 probe_load(const int4 *p)\n{\n    int4 v;\n    "
              + FORM.format(hint=hint) + "\n    return v;\n}\n#define LOAD(p) probe_load(p)\n")
    old = "#if LDNC\n#define LOAD(p) __ldg(p)\n#else\n#define LOAD(p) (*(p))\n#endif\n"
    assert old in text, "the LOAD macro of ops/reduce/reduce.cu changed: update the probe"
    return text.replace(old, helper)


def main() -> None:
    import cupy

    from smemlab import device
    from smemlab.bench import Bench
    from smemlab.compiler import KERNEL_DIR
    from smemlab.ops import reduce as R

    scratch = KERNEL_DIR / "ops" / "reduce" / "_probe_reduce.cu"
    shipped = R.SOURCE
    try:
        with Bench(reps=20) as b:
            xs = {s: b.random(s, "float32", 0.0, 1.0) for s in SHAPES}
            for s, x in xs.items():
                gb = x.nbytes / 1e3
                axis = -1 if len(s) == 2 else None
                cupy_us = gpu_us(lambda x=x, axis=axis: cupy.sum(x, axis=axis), 200)
                print(f"{'x'.join(map(str, s))} float32: cupy {gb / cupy_us:,.0f} GB/s", flush=True)
            for label, hint in HINTS.items():
                for unroll in (8, 16):
                    scratch.write_text(probe_source(hint))
                    R.SOURCE = "ops/reduce/_probe_reduce.cu"
                    device._KERNELS.clear()  # the process's compiled kernels and modules (by file name)
                    device._MODULES.clear()
                    if unroll != 8:  # the op's tile size follows R.UNROLL; the kernels take it as a macro
                        scratch.write_text("#define UNROLL 16\n" + scratch.read_text())
                    R.UNROLL = unroll
                    cells = [f"{label}, UNROLL {unroll}:"]
                    for s, x in xs.items():
                        axis = -1 if len(s) == 2 else None
                        ref = x.astype(cupy.float64).sum(axis=axis)
                        got = R.reduce_sum(x, axis=axis)
                        b.sync()
                        err = float(cupy.max(cupy.abs(got - ref) / ref))
                        if not err < 1e-5:
                            cells.append(f"{'x'.join(map(str, s))} WRONG ({err:.1e})")
                            continue
                        us = gpu_us(lambda x=x, axis=axis: R.reduce_sum(x, axis=axis), 200)
                        cells.append(f"{'x'.join(map(str, s))} {x.nbytes / 1e3 / us:,.0f}")
                    print("  ".join(cells), flush=True)
    finally:
        R.SOURCE, R.UNROLL = shipped, 8
        scratch.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
