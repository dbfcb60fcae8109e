#!/usr/bin/env bash
# On a GPU machine with nvcc and Nsight Compute: global-atomic requests and sectors per pattern
# (global_atomics.cu, patterns.txt). Writes $OUT/global_atomics.csv (ncu, one row per launch and metric)
# and $OUT/sass.txt (and global_atomics_hist.csv, global_atomics2.csv); then, here: python tools/truth/global_atomic_truth/to_json.py OUTDIR.
#   measure.sh --ops   the other operations (max, min, or, exch, cas) over the designed patterns only: does a
#                      warp's same-address lanes cost a sector each, as for add, or merge? $OUT/global_atomics_ops.csv;
#                      then, here: python tools/truth/global_atomic_truth/to_json.py --ops OUTDIR GPU DATE
#   measure.sh --three the third probe (gen_patterns3.py: two- and three-lane warps over the table's lines) as
#                      RED.E.ADD only: $OUT/global_atomics3.csv, and the table's device address line
#                      (table_address g=0x... d=0x...) in $OUT/table_address.txt; then, here:
#                      python tools/truth/global_atomic_truth/analyse3.py OUTDIR, and to record it:
#                      python tools/truth/global_atomic_truth/to_json.py --three OUTDIR GPU DATE DRIVER
set -euo pipefail
OUT=${OUT:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
nvcc -arch=sm_90 -lineinfo -o /tmp/global_atomics "$HERE/global_atomics.cu"
cuobjdump -sass /tmp/global_atomics | grep -E "Function|ATOM|RED" > "$OUT/sass.txt" || true
M=l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
if [ "${1:-}" = "--ops" ]; then
    ncu --clock-control none --csv --metrics "$M" /tmp/global_atomics "$HERE/patterns.txt" MNOXC > "$OUT/global_atomics_ops.csv"
    exit 0
fi
if [ "${1:-}" = "--three" ]; then
    ncu --clock-control none --csv --metrics "$M" /tmp/global_atomics "$HERE/patterns3.txt" i > "$OUT/global_atomics3.csv"
    grep -m1 -o 'table_address .*' "$OUT/global_atomics3.csv" > "$OUT/table_address.txt"
    exit 0
fi
# the designed patterns in every form; the histogram's warps (patterns_hist.txt) as RED.E.ADD and ATOMG only
ncu --clock-control none --csv --metrics "$M" /tmp/global_atomics "$HERE/patterns.txt" iafdr > "$OUT/global_atomics.csv"
ncu --clock-control none --csv --metrics "$M" /tmp/global_atomics "$HERE/patterns_hist.txt" ir > "$OUT/global_atomics_hist.csv"
# the second probe (gen_patterns2.py: lane deletions, permutations, moves, prefixes, table sizes) as RED.E.ADD and .64
ncu --clock-control none --csv --metrics "$M" /tmp/global_atomics "$HERE/patterns2.txt" id > "$OUT/global_atomics2.csv"
