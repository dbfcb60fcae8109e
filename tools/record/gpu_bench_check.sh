#!/usr/bin/env bash
# The recorded run, part 2 of 3: `smemlab bench` on its own, as a user runs it, its rows added to
# the record that part 1 (tools/record/gpu_suite.sh) left in results/; then every variant and the library
# under compute-sanitizer, joined to the record; results.tgz comes back.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
timeout 200 python3 -m smemlab bench --record results > $OUT/bench.log 2>&1
echo "bench exit $?" | tee -a $OUT/bench.log
grep -E "Goals|fastest|slower|FAILED|not judged|impossible" $OUT/bench.log | tail -30
timeout 360 python3 -m smemlab check --record results > $OUT/check.log 2>&1
echo "check exit $?" | tee -a $OUT/check.log
tail -12 $OUT/check.log
tar czf $OUT/results.tgz results
