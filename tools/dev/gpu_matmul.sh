#!/usr/bin/env bash
# Issue 13, matmul: the GPU tests of smemlab.ops.matmul and of the matmul experiment (TEST_TIMEOUT=0:
# none), the sweep of the fast kernel's configurations and splits against cuBLAS (tools/sweeps/matmul_sweep.py),
# then, with SANITIZE=1, compute-sanitizer's racecheck and memcheck on the library's matmul selfcheck cases.
# Logs and the sweep's JSON lines come back in $OUT.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv | tee $OUT/gpu.txt
if [ "${TEST_TIMEOUT:-60}" != 0 ]; then
    timeout ${TEST_TIMEOUT:-60} python3 -m pytest -q -x -p no:cacheprovider tests/test_ops_matmul.py tests/test_exp_matmul.py \
        > $OUT/pytest.log 2>&1
    echo "pytest exit $?" | tee -a $OUT/pytest.log
    tail -5 $OUT/pytest.log
fi
timeout ${SWEEP_TIMEOUT:-150} python3 tools/sweeps/matmul_sweep.py --json $OUT/sweep.jsonl ${SWEEP_ARGS:-} > $OUT/sweep.log 2>&1
echo "sweep exit $?" | tee -a $OUT/sweep.log
grep -E "^--|choose_splits|^per call|BUG|FAILED|Error|exit" $OUT/sweep.log
if [ "${SANITIZE:-0}" = 1 ]; then
    for tool in racecheck memcheck; do
        timeout ${SANITIZE_TIMEOUT:-40} compute-sanitizer --tool $tool --error-exitcode 3 python3 -m smemlab.ops.selfcheck --only matmul \
            > $OUT/sanitize_$tool.log 2>&1
        echo "$tool exit $?" | tee -a $OUT/sanitize_$tool.log
        tail -3 $OUT/sanitize_$tool.log
    done
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader | tee -a $OUT/gpu.txt
