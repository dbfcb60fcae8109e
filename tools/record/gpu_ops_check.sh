#!/usr/bin/env bash
# One device call before the recorded run: the wmma fragment layouts (tools/probes/wmma_layout.cu), the
# library inside PyTorch (registration, torch.compile, CUDA graphs, autograd, producers' streams) and the
# probe of what a compiled call costs; four files come back.
set -o pipefail
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
(nvcc -arch=sm_90 -o /tmp/wmma_probe tools/probes/wmma_layout.cu && /tmp/wmma_probe) > $OUT/wmma_layouts.jsonl 2>&1
timeout 240 python3 -m pytest -q -rs -p no:cacheprovider tests/test_ops_in_frameworks.py tests/test_ops_torch_registration.py \
    tests/test_ops_histogram.py tests/test_exp_library.py tests/test_device.py > $OUT/pytest.log 2>&1
echo "pytest exit $?" | tee -a $OUT/pytest.log
tail -6 $OUT/pytest.log
timeout 120 python3 tools/probes/torch_compile_probe.py $OUT/torch_compile_probe.txt --quick > $OUT/probe.log 2>&1
echo "probe exit $?" | tee -a $OUT/probe.log
grep -E "^==|dispatcher|smemlab torch.compile|torch torch.compile|ratio" $OUT/torch_compile_probe.txt | head -40
