#!/usr/bin/env bash
# The recorded run, part 3 of 3: the GPU tests (the bank-model tests run in CI), and single calls
# from a plain torch script.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
timeout 420 python3 -m pytest -q -rs -p no:cacheprovider tests -k "not bank" > $OUT/pytest.log 2>&1
echo "pytest exit $?" | tee -a $OUT/pytest.log
tail -8 $OUT/pytest.log
timeout 120 python3 tools/record/torch_calls.py 2>&1 | tee $OUT/torch_calls.log
