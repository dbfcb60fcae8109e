#!/usr/bin/env bash
# A development call on the GPU machine: the library's GPU tests, single calls from a torch script,
# and `smemlab bench --quick` on its own; logs and the quick run's JSON and charts come back in $OUT.
set -o pipefail
export PYTHONPATH=src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee $OUT/gpu.txt
timeout 240 python3 -m pytest -q -x -p no:cacheprovider tests/test_ops_gpu.py tests/test_ops_histogram.py \
    tests/test_ops_matmul.py tests/test_device.py 2>&1 | tail -25 | tee $OUT/pytest.log
timeout 150 python3 tools/torch_calls.py 2>&1 | tee $OUT/torch_calls.log
timeout 300 python3 -m smemlab bench --quick --json $OUT/quick.json --plot $OUT/quick.png > $OUT/bench_quick.log 2>&1
echo "bench --quick exit $?" | tee -a $OUT/bench_quick.log
grep -E "^(Goals|transpose|reduce|stencil|histogram|matmul) .*(fastest|slower)|FAILED|not judged|impossible|exit" $OUT/bench_quick.log | tail -40
