#!/usr/bin/env bash
# The recorded run, part 3 of 3: the GPU tests, and single calls from a plain torch script. The bank model and
# analyze (their hardware-truth replays included) need no GPU and run in CI with its pinned NVRTC; here they would
# only spend the call's time (and the machine's NVRTC compiles some truth kernels differently).
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
timeout 420 python3 -m pytest -q -rs -p no:cacheprovider tests -m "not truth" -k "not bank" \
    --ignore-glob='tests/test_analyze*' > $OUT/pytest.log 2>&1
echo "pytest exit $?" | tee -a $OUT/pytest.log
tail -8 $OUT/pytest.log
timeout 120 python3 tools/record/torch_calls.py 2>&1 | tee $OUT/torch_calls.log
