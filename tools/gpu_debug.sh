#!/usr/bin/env bash
# A debugging device call: GPU tests, every experiment verified (few reps), one profile.
set -o pipefail
export PYTHONPATH=src PYTHONUNBUFFERED=1 SMEMLAB_NCU_KEEP=/tmp/ncu
mkdir -p /tmp/ncu
timeout 200 python3 -m pytest -q -rs --timeout 120 -p no:cacheprovider tests -k "not bank" 2>&1 | tail -60 > $OUT/pytest.log
tail -5 $OUT/pytest.log
timeout 200 python3 -m smemlab run --reps 3 --json /tmp/ncu/run.json 2>&1 | tail -150 > $OUT/run.log
tail -40 $OUT/run.log
timeout 120 python3 -m smemlab profile layout --json /tmp/ncu/profile_layout.json 2>&1 | tail -40 > $OUT/profile.log
tail -30 $OUT/profile.log
tar czf $OUT/ncu.tgz -C /tmp ncu
