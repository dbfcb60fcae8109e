#!/usr/bin/env bash
# The recorded run, part 2 of 2: every variant under compute-sanitizer, joined to the run that
# part 1 (tools/gpu_suite.sh) left in results/, then the GPU tests; results.tgz comes back.
set -o pipefail
export PYTHONPATH=src PYTHONUNBUFFERED=1
timeout 300 python3 -m smemlab check --record results > $OUT/check.log 2>&1
echo "check exit $?" | tee -a $OUT/check.log
tail -40 $OUT/check.log
tar czf $OUT/results.tgz results
timeout 250 python3 -m pytest -q -rs --timeout 200 -p no:cacheprovider tests -k "not bank" > $OUT/pytest.log 2>&1
tail -8 $OUT/pytest.log
