#!/usr/bin/env bash
# Record the shared-memory truth for `smemlab analyze` on a GPU machine (needs nvidia-smi, ncu,
# nvdisasm, and python3 with numpy, cupy and cuda.core):
#
#   python3 tools/analyze_truth/measure.py build BUILD          # anywhere: NVRTC, no GPU
#   bash tools/analyze_truth/run.sh BUILD OUTDIR [--explore] [--only ID_REGEX...]   # on the GPU
#   python3 tools/analyze_truth/measure.py fixture OUTDIR/truth BUILD   # anywhere: the fixture
#
# OUTDIR/truth.tgz holds everything the fixture step reads (the ncu report itself stays behind).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run.sh BUILD OUTDIR [device options]}
out=${2:?usage: run.sh BUILD OUTDIR [device options]}
shift 2
mkdir -p "$out"
python3 "$here/measure.py" device "$build" "$out/truth" "$@" 2>&1 | tee "$out/device.log"
rc=${PIPESTATUS[0]}
tar czf "$out/truth.tgz" --exclude='*.ncu-rep' -C "$out" truth
ls -la "$out"
exit "$rc"
