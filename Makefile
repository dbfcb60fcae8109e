# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: run test venv clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

# The full experiment suite on the GPU (or, with no GPU, the bank-conflict analysis of every experiment).
run: venv
	$(PY) -m smemlab suite

# pytest exits 5 when it collected nothing to run; that is a failure of the suite, not a pass.
test: venv
	@$(PY) -m pytest -q -rs; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests; that is a broken suite, not a pass"; exit 1; fi; \
	exit $$rc

clean:
	rm -rf $(VENV) .pytest_cache
