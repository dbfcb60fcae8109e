# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# a second environment with the plain package only (no GPU packages), as `pip install smemlab` gives
PLAIN    := .venv-plain
PLAIN_PY := $(PLAIN)/bin/python

.PHONY: run test test-fast test-plain test-triton36 venv clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all]'
	touch $@

venv: $(VENV)/.installed

# The full experiment suite on the GPU (or, with no GPU, the bank conflicts of the book's programs).
run: venv
	$(PY) -m smemlab suite

# pytest exits 5 when it collected nothing to run; that is a failure of the suite, not a pass. The tests are
# CPU-bound and independent: one worker per core (pytest-xdist), tests handed out as workers free up, a truth case's
# two replays (shared and global memory) together on one worker, where the second reuses the first's emulation.
# The slowest tests are listed at the end: CI has 90 minutes.
XDIST := -n auto --dist loadgroup
test: venv
	@$(PY) -m pytest -q -rs --durations=25 $(XDIST); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; that is a broken suite, not a pass"; exit 1; fi; \
	exit $$rc

# The inner loop: everything but the hardware-truth replays and the slow modules (tests/conftest.py), under a
# minute on 2 cores once the compile caches are warm.
test-fast: venv
	@$(PY) -m pytest -q -m "not truth and not slow" -p no:cacheprovider $(XDIST); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test-fast: pytest collected no tests"; exit 1; fi; exit $$rc

# The plain install (numpy, rich, matplotlib): the bank model, list and report work, and nothing imports CUDA.
$(PLAIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(PLAIN)
	$(PLAIN_PY) -m pip install -q --upgrade pip
	$(PLAIN_PY) -m pip install -q '.[test]'
	touch $@

test-plain: $(PLAIN)/.installed
	$(PLAIN_PY) -m pip install -q --no-deps --force-reinstall .
	$(PLAIN_PY) -m pytest -q -p no:cacheprovider tests/test_banks_*.py tests/test_bank_survey.py tests/test_plain_install.py

# Triton 3.6, the release PyTorch 2.11 pins (`make test` has the newest): analyze follows the Triton it finds, so the
# Triton cases' truth recorded from 3.6's cubins (tests/data/analyze_truth_front_ends/) is compared in an environment
# of its own, with the Triton front end's tests.
TRITON36    := .venv-triton36
TRITON36_PY := $(TRITON36)/bin/python
$(TRITON36)/.installed: pyproject.toml
	$(PYTHON) -m venv $(TRITON36)
	$(TRITON36_PY) -m pip install -q --upgrade pip
	$(TRITON36_PY) -m pip install -q -e '.[triton,test]' 'triton==3.6.*'
	touch $@

test-triton36: $(TRITON36)/.installed
	@$(TRITON36_PY) -m pytest -q -rs -p no:cacheprovider $(XDIST) -k "triton" \
		tests/test_analyze_truth.py tests/test_analyze_global_truth.py tests/test_analyze_python_robust.py; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test-triton36: pytest collected no tests"; exit 1; fi; exit $$rc

clean:
	rm -rf $(VENV) $(PLAIN) $(TRITON36) .pytest_cache build
