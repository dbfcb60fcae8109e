#!/usr/bin/env bash
# The other atomic operations (max, min, or, exch, cas) over the designed patterns: does a warp's same-address
# lanes cost a sector each, as for add (coalescing.atomic_sector_costs), or merge? Writes $OUT/global_atomics_ops.csv
# and $OUT/sass_ops.txt; then, here: python tools/truth/global_atomic_truth/to_json.py OUTDIR (reads both).
set -euo pipefail
OUT=${OUT:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
nvcc -arch=sm_90 -lineinfo -o /tmp/global_atomics "$HERE/global_atomics.cu"
cuobjdump -sass /tmp/global_atomics | grep -E "Function|ATOM|RED" > "$OUT/sass_ops.txt" || true
M=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
ncu --clock-control none --csv --metrics "$M" /tmp/global_atomics "$HERE/patterns.txt" MNOXC > "$OUT/global_atomics_ops.csv"
