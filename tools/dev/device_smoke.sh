#!/usr/bin/env bash
# First device call: check the engine and the tools before planning around them.
set -x
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
python3 -c "import cupy, cuda.core, cuda.bindings, numpy, torch; print(cupy.__version__, cuda.core.__version__, cuda.bindings.__version__, numpy.__version__, torch.__version__)"
pip list 2>/dev/null | grep -iE "nvrtc|cuda|cupy"
python3 tools/dev/smoke_engine.py 2>&1 | tee $OUT/smoke.log
python3 -m smemlab info
ncu --version; compute-sanitizer --version | head -2
ncu --query-metrics --chip gh100 2>/dev/null | grep -E "l1tex__data_pipe_lsu_wavefronts_mem_shared|smsp__sass_inst_executed_op_shared|smsp__sass_inst_executed_op_dshared|l1tex__data_bank_conflicts_pipe_lsu_mem_shared|l1tex__t_sectors_pipe_lsu_mem_global|dram__bytes" | head -40 | tee $OUT/metrics.txt
