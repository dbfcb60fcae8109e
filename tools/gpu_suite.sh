#!/usr/bin/env bash
# The recorded run: the full suite (verified, timed, profiled), then each bank-modelled
# experiment profiled again at a few blocks, where no other traffic competes for the SM.
set -o pipefail
export PYTHONPATH=src PYTHONUNBUFFERED=1 SMEMLAB_NCU_KEEP=/tmp/ncu
mkdir -p /tmp/ncu /tmp/small
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $OUT/gpu.txt
timeout 420 python3 -m smemlab suite --out /tmp/results --no-check 2>&1 | tail -400 > $OUT/suite.log
tail -3 $OUT/suite.log
for e in "layout 1" "reduce 4096" "transpose 64,64"; do set -- $e
  SMEMLAB_NCU_KEEP=/tmp/small timeout 60 python3 -m smemlab profile $1 --size $2 --json /tmp/small/$1.json > /tmp/small/$1.log 2>&1
  tail -2 /tmp/small/$1.log; done
tar czf $OUT/results.tgz -C /tmp results ncu small
