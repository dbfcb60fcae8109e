#!/usr/bin/env bash
# A development call on the GPU machine: the library's GPU tests (with `smemlab bench --quick` run on
# its own), single calls from a torch script, then the full `smemlab bench` on its own; the logs,
# the JSON and the charts come back in $OUT.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee $OUT/gpu.txt
timeout 300 python3 -m pytest -q -x -p no:cacheprovider tests/test_ops_gpu.py tests/test_ops_histogram.py \
    tests/test_ops_matmul.py tests/test_device.py tests/test_bench_core.py 2>&1 | tail -25 | tee $OUT/pytest.log
timeout 120 python3 tools/record/torch_calls.py 2>&1 | tee $OUT/torch_calls.log
timeout ${BENCH_TIMEOUT:-400} python3 -m smemlab bench ${BENCH_ARGS:-} --json $OUT/bench.json --plot $OUT/bench.png > $OUT/bench.log 2>&1
echo "bench exit $?" | tee -a $OUT/bench.log
grep -E "fastest|slower than|Goals|FAILED|not judged|impossible|exit" $OUT/bench.log | tail -45
