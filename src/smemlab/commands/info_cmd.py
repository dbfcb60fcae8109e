"""`smemlab info`: the GPU's on-chip memory facts, read from the device."""

from __future__ import annotations

import argparse

from smemlab.commands.common import add_device, runtime


def register(sub) -> None:
    p = sub.add_parser("info", help="the GPU's on-chip memory facts",
                       description="Name, compute capability, SMs, shared memory per block (and with opt-in) and per SM, "
                                   "L2, constant memory, banks, and cluster support, read from the device.",
                       epilog="examples:\n  smemlab info\n  smemlab info --device 1 --json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_device(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _kib(n: int) -> str:
    return f"{n / 1024:g} KiB" if n < 1 << 20 else f"{n / (1 << 20):g} MiB"


def run(args) -> int:
    import json

    rt = runtime(args.device)
    f = rt.facts
    cluster = rt.max_cluster_size(rt.kernel("lab/copy.cu", "copyKernel")) if f.cluster_launch else 1
    if args.json:
        print(json.dumps(dict(f.to_dict(), max_cluster_size=cluster)))
        return 0
    lines = [
        ("GPU", f"{f.name} (device {f.index}), compute capability {f.compute_capability}, driver {f.driver}"),
        ("SMs", f"{f.sms}"),
        ("shared memory per block", f"{_kib(f.shared_per_block)} (static + dynamic without opt-in)"),
        ("shared memory per block, opt-in", f"{_kib(f.shared_per_block_optin)} (dynamic, after raising the kernel's limit)"),
        ("shared memory per SM", _kib(f.shared_per_sm)),
        ("L2 cache", _kib(f.l2_bytes)),
        ("constant memory", _kib(f.constant_bytes)),
        ("banks", f"{f.banks} banks of {f.bank_bytes} bytes (fixed; Kepler's 8-byte bank mode is gone)"),
        ("registers per SM", f"{f.registers_per_sm}"),
        ("largest cluster", f"{cluster} blocks (portable size, from the occupancy API)" if f.cluster_launch else "no clusters"),
        ("global memory", f"{f.global_bytes / 1e9:.1f} GB"),
    ]
    width = max(len(k) for k, _ in lines)
    for k, v in lines:
        print(f"{k:<{width}}  {v}")
    return 0
