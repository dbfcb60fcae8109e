#!/usr/bin/env bash
# The recorded run, part 1 of 3 (each device call is at most 10 minutes): every experiment verified,
# timed and profiled with its bank check, written to results/ and sent back as results.tgz.
# Part 2 is tools/record/gpu_bench_check.sh, part 3 tools/record/gpu_tests.sh.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > $OUT/gpu.txt
rm -rf results
timeout 575 python3 -m smemlab suite --out results --no-check --no-bench > $OUT/suite.log 2>&1
echo "suite exit $?" | tee -a $OUT/suite.log
tail -5 $OUT/suite.log
tar czf $OUT/results.tgz results
