"""Kernel time of smemlab.ops.matmul's kernels, and of more configurations of its fast template,
against cuBLAS (TF32 off) through CuPy and torch: what chose `choose`, its table and the constants of
its model in smemlab/ops/matmul (tools/sweeps/data/matmul_sweep_h200.jsonl: the run on an H200 that did,
through tools/dev/gpu_matmul.sh).

    python3 tools/sweeps/matmul_sweep.py [--json FILE] [--shapes 1024,4096,3001x4999x2003] [--quick] [--no-calls]

Every configuration is mm_fast_body<WM, WN, TN, BK, STAGES, ASYNC> of ops/matmul/matmul.cu (WM x WN
warps of 64 x 4TN outputs, BK-deep slabs, STAGES cp.async stages or two register-staged ones), built
into one generated source that includes the library's (the package's own pack and async are in CONFIGS
under their names; only the configurations asked for, --configs, are compiled: each costs seconds of
NVRTC). Per shape and configuration, and per split of K where the tiles leave SMs idle: one
launch into a NaN-filled C checked against a float64 product (||C - ref|| / ||ref||, the bench's
tolerance), then back-to-back launches between CUDA events on one stream, the median of REPS
batches. cuBLAS runs the same way (cupy.matmul and torch.mm with out=, both verified, which also
proves TF32 off). A figure above the GPU's FP32 peak is reported as a bug, not a result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "dev"))  # tools/dev/timing.py
from timing import alone_us, gpu_us

from smemlab.compiler import source_path

# name: (WM, WN, TN, BK, STAGES, ASYNC, min blocks an SM); the library's own are mm_<name>
CONFIGS = {
    "pack": (2, 4, 8, 16, 2, False, 2),
    "async": (2, 4, 8, 16, 3, True, 2),
    "wide": (2, 2, 16, 8, 4, True, 2),
    "pack_bk8": (2, 4, 8, 8, 2, False, 2),
    "async_bk16_s2": (2, 4, 8, 16, 2, True, 2),
    "async_bk16_s4": (2, 4, 8, 16, 4, True, 2),
    "async_bk8_s3": (2, 4, 8, 8, 3, True, 2),
    "async_bk8_s4": (2, 4, 8, 8, 4, True, 2),
    "wide_bk8_s3": (2, 2, 16, 8, 3, True, 2),
    "wide_bk16_s2": (2, 2, 16, 16, 2, True, 2),
    "wide_bk16_s3": (2, 2, 16, 16, 3, True, 2),
    "wide256_bk8_s3": (2, 4, 16, 8, 3, True, 1),
    "wide256_bk16_s3": (2, 4, 16, 16, 3, True, 1),
    "narrow_bk16_s3": (2, 2, 8, 16, 3, True, 4),
}
LIBRARY = ("pack", "async")
OLD = ("tiled", "blocktile1d", "warptile_db16")  # earlier steps (the first two up to 1024 x 1024 outputs)
SHAPES = [(1024, 1024, 1024), (4096, 4096, 4096), (2048, 2048, 2048), (8192, 8192, 8192), (3001, 4999, 2003),
          (1000, 1000, 1000), (4097, 4095, 4093), (512, 512, 512), (768, 768, 768), (256, 256, 256)]
QUICK = [(1024, 1024, 1024), (4096, 4096, 4096), (3001, 4999, 2003)]
SPLITS = (1, 2, 3, 4, 6, 8)
TOL = 1e-5  # smemlab.bench.matmul's, grown like sqrt(K) past 4096
BATCH_MS = 30  # each timed batch about this long
REPS = 5


def geometry(cfg):
    wm, wn, tn, bk, stages, _, _ = cfg
    bm, bn, nt = 64 * wm, 4 * tn * wn, 32 * wm * wn
    return bm, bn, nt, stages * bk * (bm + 4 + bn) * 4


def source_text(names=None) -> str:
    """The generated source: the library's kernels and one extern "C" kernel per configuration (of
    `names` only, where given)."""
    params = ("const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K, "
              "int vecA, int vecB, int vecC, float* __restrict__ ws, unsigned* __restrict__ counters")
    out = [f'#include "{source_path("ops/matmul/matmul.cu")}"']  # by its absolute path: include/ alone is on the path
    for name, (wm, wn, tn, bk, st, asy, minb) in CONFIGS.items():
        if name in LIBRARY or (names is not None and name not in names):
            continue
        out.append(f'extern "C" __global__ void __launch_bounds__({32 * wm * wn}, {minb}) sw_{name}({params}) {{\n'
                   f'    mm_fast_body<{wm}, {wn}, {tn}, {bk}, {st}, {"true" if asy else "false"}>'
                   f'(A, B, C, M, N, K, vecA, vecB, vecC, ws, counters);\n}}')
    return "\n".join(out) + "\n"


def generated_source(names=None) -> Path:
    """The generated source (of the configurations `names`, or all), written at a fixed path (the
    compile cache names cubins by path)."""
    gen = Path(tempfile.gettempdir()) / "smemlab_matmul_sweep.cu"
    gen.write_text(source_text(names))
    return gen


def generated_defines() -> dict[str, str]:
    """The cache keys on the generated text only: the library's text goes in as a macro."""
    return {"SMEMLAB_LIB_MATMUL": hashlib.sha256(source_path("ops/matmul/matmul.cu").read_bytes()).hexdigest()[:16]}


def best_of(rows: list[dict]) -> dict[str, dict]:
    """Each implementation's fastest verified row."""
    best: dict[str, dict] = {}
    for r in rows:
        if r["ok"] and (r["impl"] not in best or r["us"] < best[r["impl"]]["us"]):
            best[r["impl"]] = r
    return best


def summary(shape: str, rows: list[dict]) -> None:
    """The best split of each configuration, fastest first, and the model's pick for the library's."""
    best = best_of(rows)
    ranked = sorted(best.values(), key=lambda r: r["us"])
    print(f"-- {shape}: " + ", ".join(f"{r['impl']} S={r['splits']} {r['ratio']:.3f}" for r in ranked[:6]), flush=True)
    for name in LIBRARY:
        model = next((r["model_splits"] for r in rows if r["impl"] == name and "model_splits" in r), None)
        picked = next((r for r in rows if r["impl"] == name and r["splits"] == model and r["ok"]), None)
        if name in best and model is not None:
            print(f"   {name}: best S={best[name]['splits']} ({best[name]['ratio']:.3f}); choose_splits says S={model}"
                  + (f" ({picked['ratio']:.3f})" if picked else " (not measured)"), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="write every measurement here (one JSON object per line, as they come)")
    ap.add_argument("--shapes", help="MxNxK or N, comma-separated (default: the bench's and the issue's shapes)")
    ap.add_argument("--quick", action="store_true", help=f"only {QUICK}")
    ap.add_argument("--configs", help="comma-separated names of CONFIGS (default: all)")
    ap.add_argument("--no-calls", action="store_true", help="no per-call latencies")
    args = ap.parse_args()

    import cupy as cp

    from smemlab import device
    from smemlab.frameworks import cupy_tf32_off
    from smemlab.ops import matmul as op_matmul
    MM = sys.modules["smemlab.ops.matmul"]

    shapes = QUICK if args.quick else SHAPES
    if args.shapes:
        shapes = [tuple(int(x) for x in s.split("x")) * (3 if "x" not in s else 1) for s in args.shapes.split(",")]
    configs = args.configs.split(",") if args.configs else list(CONFIGS)
    out = open(args.json, "a") if args.json else None

    cupy_tf32_off()
    torch = None
    try:
        import torch

        from smemlab.frameworks import torch_tf32_off

        torch_tf32_off(torch)
    except ImportError:
        pass
    s = cp.cuda.Stream(non_blocking=True)
    s.use()
    if torch is not None:
        torch.cuda.set_stream(torch.cuda.ExternalStream(s.ptr))  # cuBLAS (torch) on the timer's stream
    facts = device.facts(0)
    sms, peak = facts.sms, facts.peak_fp32_tflops
    gen = generated_source(configs)
    defines = generated_defines()

    def kernel_of(name):
        if name in LIBRARY or name in OLD:
            return device.kernel(MM.SOURCE, f"mm_{name}")
        return device.kernel(str(gen), f"sw_{name}", defines)

    def time_us(fn):
        fn()
        est = gpu_us(fn, 3, warm=0)
        n = max(3, int(BATCH_MS * 1e3 / max(est, 1.0)))
        return statistics.median(gpu_us(fn, n, warm=0) for _ in range(REPS))

    def call_us(fn):
        """One call at a time, host path included (what a user waits for): the median."""
        fn()
        s.synchronize()
        t0 = time.perf_counter()
        fn()
        s.synchronize()
        est = time.perf_counter() - t0
        return alone_us(fn, s.synchronize, max(5, min(300, int(0.25 / max(est, 1e-6)))), warm=3)

    def emit(rec):
        print(("{shape:>16s} {impl:>20s} S={splits:<2d} {us:10.1f} us {tflops:7.2f} TFLOP/s  {ratio:5.3f} of cuBLAS"
               "  err {err:.2e}{flag}").format(flag="" if rec["ok"] else "  FAILED", **rec), flush=True)
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()

    print(f"{facts.name}: {sms} SMs, FP32 peak {peak} TFLOP/s; sweep source {gen}", flush=True)
    finals = []
    for m, n, k in shapes:
        shape = f"{m}x{n}x{k}"
        rng = cp.random.default_rng(m + n + k)
        a = rng.uniform(-1, 1, (m, k), dtype=cp.float32)
        b = rng.uniform(-1, 1, (k, n), dtype=cp.float32)
        c = cp.empty((m, n), cp.float32)
        ref = a.astype(cp.float64) @ b.astype(cp.float64)
        tol = TOL * max(1.0, (k / 4096) ** 0.5)
        flops = 2 * m * n * k

        def err_of(x):
            return float(cp.linalg.norm(x.astype(cp.float64) - ref) / cp.linalg.norm(ref))

        def record(impl, splits, fn, result):
            c.fill(cp.nan)
            fn()
            err = err_of(result)
            ok = err < tol  # NaN (an element never written) fails
            us = time_us(fn) if ok else float("nan")
            tf = flops / us / 1e6 if ok else 0.0
            if ok and peak and tf > 1.02 * peak:
                ok, tf = False, 0.0
                print(f"BUG: {impl} {shape} above the FP32 peak", flush=True)
            return {"shape": shape, "impl": impl, "splits": splits, "us": us, "tflops": tf, "err": err, "ok": ok}

        base = [record("cuBLAS (cupy)", 1, lambda: cp.matmul(a, b, out=c), c)]
        ta = tb = None
        if torch is not None:
            ta, tb, tc = (torch.as_tensor(x, device="cuda") for x in (a, b, c))
            base.append(record("cuBLAS (torch)", 1, lambda: torch.mm(ta, tb, out=tc), c))
        best = min(r["us"] for r in base if r["ok"])
        for r in base:
            r["ratio"] = best / r["us"] if r["ok"] else 0.0
            emit(r)

        rows = []
        small = m * n <= 768 * 768
        for name in [*OLD, *configs]:
            if (small and name not in LIBRARY and name not in OLD) or (name in OLD[:2] and m * n > 1024 * 1024):
                continue
            if name in OLD:
                bm, bn, nt = MM.VARIANTS[name]
                smem = 0
            else:
                bm, bn, nt, smem = geometry(CONFIGS[name])
            kern = kernel_of(name)
            gx, gy = -(-n // bn), -(-m // bm)
            tiles = gx * gy
            model = 1 if name in OLD else MM.split_model(tiles, k, sms)
            if name in OLD:
                options = [1]
            elif name in LIBRARY:  # every split that fits; the others: none and the model's
                options = [x for x in SPLITS if x == 1 or (k >= x * MM.MIN_SLICE and tiles * x <= 24 * sms)]
            else:
                options = sorted({1, model})
            if model not in options:
                options.append(model)
            for splits in options:
                ws = cp.empty(max(1, tiles * splits * bm * bn), cp.float32) if splits > 1 else None
                counters = cp.zeros(max(1, tiles), cp.uint32)
                kargs = MM.kernel_args(a.data.ptr, b.data.ptr, c.data.ptr, m, n, k, "warptile_db16" if name in OLD else "async",
                                       ws.data.ptr if ws is not None else 0, counters.data.ptr)

                def launch(kern=kern, grid=(gx, gy, splits), nt=nt, kargs=kargs, smem=smem):
                    device.launch(kern, grid, nt, kargs, s.ptr, smem)
                rec = record(name, splits, launch, c)
                rec["ratio"] = best / rec["us"] if rec["ok"] else 0.0
                rec["model_splits"] = model
                emit(rec)
                rows.append(rec)
        summary(shape, rows)
        if m * n * k >= 1000 ** 3 and not args.no_calls:
            finals += per_call(shape, rows, base, lambda v, sp, x, y: op_matmul(x, y, variant=v, splits=sp),
                               lambda: cp.matmul(a, b), (lambda: torch.mm(ta, tb)) if ta is not None else None,
                               a, b, ta, tb, call_us, emit)
        a = b = c = ref = ta = tb = tc = None
        cp.get_default_memory_pool().free_all_blocks()
    for line in finals:
        print(line, flush=True)
    if out:
        out.close()


def per_call(shape, rows, base, ours, cupy_mm, torch_mm, a, b, ta, tb, call_us, emit) -> list[str]:
    """Latency of one call at a time through smemlab.ops.matmul (host path included) for each library
    variant at its best split and at the model's, beside cuBLAS's through CuPy and torch."""
    best = best_of(rows)
    lines = []
    frameworks = [("cupy", cupy_mm, a, b)] + ([("torch", torch_mm, ta, tb)] if torch_mm else [])
    for fw, blas, x, y in frameworks:
        try:
            blas_us = call_us(blas)
            emit({"shape": shape, "impl": f"call cuBLAS ({fw})", "splits": 1, "us": blas_us, "tflops": 0.0,
                  "ratio": 1.0, "err": 0.0, "ok": True})
            for name in LIBRARY:
                if name not in best:
                    continue
                model = best[name]["model_splits"]
                for sp in sorted({best[name]["splits"], model}):
                    us = call_us(lambda: ours(name, sp, x, y))
                    emit({"shape": shape, "impl": f"call {name} ({fw})", "splits": sp, "us": us, "tflops": 0.0,
                          "ratio": blas_us / us, "err": 0.0, "ok": True})
                    lines.append(f"per call {shape} {fw}: {name} S={sp}{' (model)' if sp == model else ''} {us:.1f} us, "
                                 f"cuBLAS {blas_us:.1f} us: {blas_us / us:.3f} of cuBLAS")
        except Exception as exc:  # a failure here must not lose the kernel figures above
            lines.append(f"per call {shape} {fw}: {type(exc).__name__}: {exc}")
    return lines


if __name__ == "__main__":
    main()
