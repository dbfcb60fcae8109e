#!/usr/bin/env bash
# A development call for the `overlap` experiment on the GPU machine: its GPU tests, the run at the
# default size (record, report and charts into $OUT/res), Nsight Compute's counters (PROFILE_S set), then
# the staged stencils' stall reasons (STALLS_S set), compute-sanitizer over its variants (CHECK_S set).
# Each step has its own time limit (seconds, from the environment) so that the call ends in time.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,pcie.link.gen.current,pcie.link.width.current --format=csv
timeout ${TEST_S:-70} python3 -m pytest -q -x -p no:cacheprovider tests/test_exp_overlap.py 2>&1 | tail -30 > $OUT/pytest.log
echo "pytest exit $?" >> $OUT/pytest.log; tail -4 $OUT/pytest.log
timeout ${RUN_S:-100} python3 -m smemlab run overlap ${RUN_ARGS:-} --report $OUT/res > $OUT/run.log 2>&1
echo "run exit $?" >> $OUT/run.log; rm -f $OUT/res/run.csv
tail -4 $OUT/run.log; grep -E "^- " $OUT/res/report.md | head -40
if [ -n "${PROFILE_S:-}" ]; then
  timeout $PROFILE_S python3 -m smemlab profile overlap > $OUT/profile.log 2>&1
  echo "profile exit $?" >> $OUT/profile.log; grep -vE "^\s*$" $OUT/profile.log | tail -40
fi
if [ -n "${STALLS_S:-}" ]; then
  timeout $STALLS_S python3 tools/probes/overlap_stalls.py 2>&1 | tee $OUT/stalls.log
fi
if [ -n "${CHECK_S:-}" ]; then
  timeout $CHECK_S python3 -m smemlab check overlap > $OUT/check.log 2>&1
  echo "check exit $?" >> $OUT/check.log; tail -30 $OUT/check.log
fi
