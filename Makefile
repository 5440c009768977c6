# Two commands on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
WORKERS ?= 1

.PHONY: serve test check install dev lock lint typecheck pytest bench clean browser screenshots site

# The browser tests drive Debian's chromium through Playwright (never a downloaded browser).
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Every install takes the exact versions of constraints.txt (the lock); pyproject.toml holds
# the ranges a library user depends on.
PIP_INSTALL = $(PY) -m pip install --quiet --constraint constraints.txt

$(VENV)/.base: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip==25.3
	$(PIP_INSTALL) -e '.[web]'
	touch $@

$(VENV)/.dev: $(VENV)/.base
	$(PIP_INSTALL) -e '.[dev,web,cluster]'
	touch $@

# Rebuild the lock from pyproject.toml's ranges in a scratch environment: the newest
# versions they allow today.
LOCK_VENV := .lock-venv
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --upgrade pip==25.3
	$(LOCK_VENV)/bin/python -m pip install --quiet -e '.[dev,web,cluster]'
	{ sed -n '/^#/p' constraints.txt; \
	  $(LOCK_VENV)/bin/python -m pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCK_VENV)

install: $(VENV)/.base
dev: $(VENV)/.dev

serve: install
	$(PY) -m gridproof serve --host $(HOST) --port $(PORT) --workers $(WORKERS)

lint: dev
	$(VENV)/bin/ruff check src tests benchmarks examples
	$(VENV)/bin/ruff format --check src tests benchmarks examples

typecheck: dev
	$(VENV)/bin/mypy

browser:
	@test -x $(CHROMIUM) || ( $(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium )

# The static site (README: "The static site"): site/ with the engine in the page. Pyodide
# comes from npm at the version package-lock.json pins; without node and npm the site is
# skipped, saying so (its browser tests then skip too). BANK=path serves that bank's boards.
site: dev
	@if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then \
		npm ci --no-audit --no-fund --loglevel=error && \
		$(PY) -m gridproof.site.build --out site $(if $(BANK),--bank $(BANK)); \
	else echo "make site: node and npm are not installed; the static site is not built"; fi

pytest: dev browser site
	$(PY) -m pytest

# Regenerate docs/screenshots/ (the player and the workshop in each genre, light, dark and phone).
screenshots: dev browser
	GRIDPROOF_SCREENSHOTS=docs/screenshots $(PY) -m pytest tests/web/test_player.py tests/web/test_player_screens.py tests/web/test_player_daily.py tests/web/test_workshop.py tests/web/test_workshop_screens.py -q

test: lint typecheck pytest

# The fast loop: lint, types and every test outside the long lanes (tests/conftest.py's
# LANES: the corpus, the browser, the deadline audit, the wheel, the Dask cluster, slow).
FAST_LANE := not (slow or corpus or browser or audit or wheel or cluster)
check: lint typecheck
	$(PY) -m pytest -q -m "$(FAST_LANE)"

bench: dev
	$(PY) benchmarks/count_corpus.py

clean:
	rm -rf $(VENV) build site node_modules .mypy_cache .pytest_cache .ruff_cache
