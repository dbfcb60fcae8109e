"""Where the staged stencils' warps wait: Nsight Compute's stall reasons per issued instruction for the
plain, cp.async and TMA kernels of `smemlab run overlap` (one block per SM, then a full SM).

    python3 tools/probes/overlap_stalls.py [N]      # N points (default 2^24); needs ncu and a GPU

Prints, per launch, the stall reasons that take the most warp cycles per issued instruction
(smsp__average_warps_issue_stalled_*_per_issue_active.ratio). A probe for the notes, not part of a run.
"""

from __future__ import annotations

import subprocess
import sys

from smemlab.profile import ncu_path, parse_raw_csv

VARIANTS = ("stagedPlainV4", "stagedCpAsync3", "stagedTma3")
PREFIX = "smsp__average_warps_issue_stalled_"
SUFFIX = "_per_issue_active.ratio"


def main() -> int:
    n = sys.argv[1] if len(sys.argv) > 1 else str(1 << 24)
    cmd = [ncu_path() or "ncu", "--clock-control", "none", "--csv", "--page", "raw", "--metrics",
           rf"regex:{PREFIX}.*_per_issue_active\.ratio", "--kernel-name-base", "function",
           "--kernel-name", f"regex:^({'|'.join(VARIANTS)})$",
           sys.executable, "-m", "smemlab", "run", "overlap", "--reps", "0", "--quiet", "--size", n]
    for v in VARIANTS:
        cmd += ["--variant", v]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    rows = parse_raw_csv(proc.stdout)
    if not rows:
        print(proc.stdout[-2000:], proc.stderr[-2000:])
        return 1
    levels = ("1 block/SM", "full SM")
    for i, row in enumerate(rows):
        stalls = {k[len(PREFIX):-len(SUFFIX)]: v for k, v in row.items()
                  if k.startswith(PREFIX) and k.endswith(SUFFIX) and isinstance(v, float)}
        top = sorted(stalls.items(), key=lambda kv: -kv[1])[:5]
        print(f"{row.get('Kernel Name')} ({levels[i % 2]}): total {sum(stalls.values()):.1f} cycles/issue; "
              + ", ".join(f"{k} {v:.2f}" for k, v in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
