#!/usr/bin/env bash
# The histogram's development call on the GPU machine: every design verified at 2^22 keys (a hang or a
# wrong count shows here, named), then the sweep at 2^26 and 2^28 keys with the baselines
# (tools/sweeps/histogram_sweep.py), the histogram's GPU tests, the library self-check, and the histogram
# benchmark's smoke test. Logs and the sweep's JSON come back in $OUT.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tee $OUT/gpu.txt
if [ "${SMOKE_S:-50}" != 0 ]; then
    timeout ${SMOKE_S:-50} python3 tools/sweeps/histogram_sweep.py --logs 22 --no-baselines 2>&1 | tee $OUT/smoke.log
    echo "smoke exit $?"
fi
timeout ${SWEEP_S:-130} python3 tools/sweeps/histogram_sweep.py --json $OUT/sweep.json --budget ${BUDGET_S:-100} ${SWEEP_ARGS:-} 2>&1 | tee $OUT/sweep.log
echo "sweep exit $?"
timeout ${TESTS_S:-90} python3 -m pytest -q -p no:cacheprovider --maxfail=10 tests/test_ops_histogram.py tests/test_device.py ${TEST_ARGS:-} 2>&1 | tail -30 | tee $OUT/pytest.log
echo "pytest exit $?"
timeout ${CHECK_S:-30} python3 -m smemlab.ops.selfcheck 2>&1 | tail -40 | tee $OUT/selfcheck.log
echo "selfcheck exit $?"
timeout ${BENCH_S:-45} python3 -m smemlab bench histogram --quick > $OUT/bench.log 2>&1
echo "bench exit $?"
grep -E "histogram|Goals|met|missed|FAILED|not judged" $OUT/bench.log | tail -30
