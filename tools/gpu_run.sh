#!/usr/bin/env bash
# One full device call: GPU tests, the suite (verified, timed, profiled), packed under $OUT.
# Usage: bash tools/gpu_run.sh [suite args...]; $OUT comes back (at most 8 files), so results are tarred.
set -o pipefail
export PYTHONPATH=src PYTHONUNBUFFERED=1 SMEMLAB_NCU_KEEP=/tmp/ncu
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee $OUT/gpu.txt
timeout 240 python3 -m pytest -q -rs --timeout 120 -p no:cacheprovider tests 2>&1 | tail -40 | tee $OUT/pytest.log
python3 -m smemlab suite --out /tmp/results --no-check "$@" 2>&1 | tee $OUT/suite.log
tar czf $OUT/results.tgz -C /tmp results ncu 2>/dev/null
