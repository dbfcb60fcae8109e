#!/usr/bin/env bash
# The recorded run: the full suite (verified, timed, profiled, with each experiment's bank check
# at a few blocks), then every variant under compute-sanitizer, added to the same record.
set -o pipefail
export PYTHONPATH=src PYTHONUNBUFFERED=1 SMEMLAB_NCU_KEEP=/tmp/ncu
mkdir -p /tmp/ncu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $OUT/gpu.txt
timeout 330 python3 -m smemlab suite --out /tmp/results --no-check 2>&1 | tail -400 > $OUT/suite.log
tail -3 $OUT/suite.log
timeout 230 python3 -m smemlab check --record /tmp/results 2>&1 | tail -120 > $OUT/check.log
tail -50 $OUT/check.log
tar czf $OUT/results.tgz -C /tmp results ncu
