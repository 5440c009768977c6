# Two commands on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test install dev lint typecheck pytest bench clean

$(VENV)/.base: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip==25.3
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.dev: $(VENV)/.base
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.base
dev: $(VENV)/.dev

serve: install
	$(PY) -m gridproof serve --host $(HOST) --port $(PORT)

lint: dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

typecheck: dev
	$(VENV)/bin/mypy

pytest: dev
	$(PY) -m pytest

test: lint typecheck pytest

bench: dev
	$(PY) benchmarks/count_corpus.py

clean:
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache
