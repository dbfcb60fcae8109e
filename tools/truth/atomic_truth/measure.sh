#!/usr/bin/env bash
# On a GPU machine with nvcc and Nsight Compute: shared-atomic wavefronts per pattern (atomics.cu).
# Writes $OUT/atomics.csv (ncu, one row per launch and metric), $OUT/patterns.txt and $OUT/sass.txt;
# then, here: python tools/truth/atomic_truth/to_json.py OUTDIR -> tests/data/atomic_truth.json.
set -euo pipefail
OUT=${OUT:-.}
cd "$(dirname "$0")"
nvcc -arch=sm_90 -lineinfo -o /tmp/atomics atomics.cu
cuobjdump -sass /tmp/atomics | grep -E "Function|ATOMS|RED" > "$OUT/sass.txt" || true
cd "$OUT"
ncu --clock-control none --csv --metrics \
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum \
  /tmp/atomics > atomics.csv
