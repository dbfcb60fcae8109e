"""Benchmark of smemlab.ops.matmul, step by step, against cuBLAS SGEMM (TF32 off).

    PYTHONPATH=src python3 -m smemlab.bench.matmul [--shapes 4096x4096x4096 ...]

Shapes are MxNxK (A is M x K, B is K x N). For every shape: seeded random inputs in [-1, 1); every
variant and every baseline is checked once against a float64 product on the GPU (output poisoned
with NaN first; ||C - ref|| / ||ref|| < 1e-5), then timed with CUDA events (warm-up, median).
Baselines: cupy.matmul and torch.matmul in float32 with TF32 off (CUPY_TF32 unset or 0,
torch.backends.cuda.matmul.allow_tf32 = False); the check also catches TF32 (its error is ~1e-4).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

import importlib

MM = importlib.import_module("smemlab.ops.matmul")  # the module (the package attribute `matmul` is the function)

SHAPES = ("4096x4096x4096", "8192x8192x8192", "3000x5000x2000", "3001x4999x2003")
TOL = 1e-5


def time_fn(fn, stream, budget_ms: float = 600.0, max_reps: int = 20) -> dict:
    import cupy as cp

    fn()
    stream.synchronize()
    a, b = cp.cuda.Event(), cp.cuda.Event()
    a.record(stream)
    fn()
    b.record(stream)
    b.synchronize()
    once = cp.cuda.get_elapsed_time(a, b)
    reps = int(max(3, min(max_reps, budget_ms / max(once, 1e-3))))
    ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record(stream)
        fn()
        b.record(stream)
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    return {"median_ms": statistics.median(ts), "min_ms": min(ts), "max_ms": max(ts), "reps": reps}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES))
    ap.add_argument("--variants", nargs="+", default=list(MM.VARIANTS))
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    if os.environ.get("CUPY_TF32", "0") not in ("", "0"):
        print("CUPY_TF32 is set: cupy's baseline would use TF32; unset it", file=sys.stderr)
        return 2
    import cupy as cp

    try:
        import torch

        torch.backends.cuda.matmul.allow_tf32 = False
        try:
            torch.backends.cuda.matmul.fp32_precision = "ieee"
        except Exception:
            pass
    except Exception:
        torch = None
    from smemlab.ops.histogram import device_facts

    facts = device_facts(cp.cuda.Device().id)
    print(f"# device {facts['name']} sms={facts['sms']} cupy {cp.__version__} torch {getattr(torch, '__version__', None)}", flush=True)
    stream = cp.cuda.Stream(non_blocking=True)
    records, table = [], []
    with stream:
        for spec in args.shapes:
            m, n, k = (int(v) for v in spec.lower().split("x"))
            rs = cp.random.RandomState(m * 7 + n * 13 + k)
            a = rs.uniform(-1, 1, (m, k), dtype=cp.float32)
            b = rs.uniform(-1, 1, (k, n), dtype=cp.float32)
            ref = a.astype(cp.float64) @ b.astype(cp.float64)
            ref_norm = float(cp.linalg.norm(ref))
            flop = 2.0 * m * n * k
            c = cp.empty((m, n), dtype=cp.float32)
            methods = []
            for v in args.variants:
                methods.append((v, (lambda v=v: MM.run(a, b, c, v)), c))
            methods.append(("cuBLAS (cupy)", lambda: cp.matmul(a, b, out=c), c))
            if torch is not None:
                ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
                tc = torch.empty((m, n), dtype=torch.float32, device="cuda")
                tsm = torch.cuda.ExternalStream(stream.ptr)
                ctc = cp.asarray(tc)

                def torch_mm():
                    with torch.cuda.stream(tsm):
                        torch.matmul(ta, tb, out=tc)

                methods.append(("cuBLAS (torch)", torch_mm, ctc))
            rows = {}
            for label, fn, out in methods:
                out.fill(float("nan"))
                fn()
                stream.synchronize()
                err = float(cp.linalg.norm(out.astype(cp.float64) - ref)) / ref_norm
                # float32 rounding grows like sqrt(K): 1e-5 up to K = 4096, scaled beyond (TF32's
                # ~5e-4 still fails by far)
                ok = err < TOL * max(1.0, (k / 4096) ** 0.5)  # NaN (an unwritten element) fails too
                if not ok:
                    print(f"FAIL {label} {spec}: relative error {err:.3e}", flush=True)
                    rows[label] = None
                    continue
                t = time_fn(fn, stream)
                rows[label] = {**t, "err": err, "tflops": flop / t["median_ms"] / 1e9}
                records.append({"shape": spec, "method": label, **rows[label]})
            cublas = [r["tflops"] for key, r in rows.items() if key.startswith("cuBLAS") and r]
            best = max(cublas) if cublas else float("nan")
            print(f"\n## {spec}  (M x N x K)")
            for label, r in rows.items():
                if r:
                    print(f"  {label:16s} {r['median_ms']:9.3f} ms  {r['tflops'] * 1e3:8.0f} GFLOP/s  {100 * r['tflops'] / best:5.1f}% of cuBLAS  err {r['err']:.1e}", flush=True)
                table.append((spec, label, r["tflops"] * 1e3 if r else None, 100 * r["tflops"] / best if r else None))
            a = b = c = ref = methods = ta = tb = tc = ctc = None  # free before the next shape
            cp.get_default_memory_pool().free_all_blocks()
    print("\n# summary: GFLOP/s and % of the best cuBLAS (TF32 off) per shape")
    for spec, label, g, pct in table:
        print(f"{spec:>16} {label:16s} {g or 0:9.0f} {pct or 0:6.1f}%")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": facts, "records": records}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
