#!/usr/bin/env bash
# The recorded run, parts 2 and 3 in one call where device time is short: `smemlab bench` on its own
# and compute-sanitizer, joined to the record part 1 (tools/record/gpu_suite.sh) left in results/
# (results.tgz is packed before the tests, so it comes back whatever they do); then the library's
# and the harness's GPU tests for as long as TESTS_S allows.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
bash tools/record/gpu_bench_check.sh
timeout ${TESTS_S:-200} python3 -m pytest -q -rs -p no:cacheprovider -k "not bank and not analyze" \
    tests/test_ops_gpu.py tests/test_ops_histogram.py tests/test_ops_matmul.py tests/test_device.py tests/test_measure.py \
    tests/test_exp_library.py tests/test_exp_overlap.py > $OUT/pytest.log 2>&1
echo "pytest exit $?" | tee -a $OUT/pytest.log
tail -6 $OUT/pytest.log
