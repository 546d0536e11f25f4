# `make run` and `make test` are all a newcomer needs: each creates .venv and installs the
# project on first use (again only when pyproject.toml or web/package-lock.json changes): Python
# packages, Node (a PyPI package, in .venv) and the web table's type checker (TypeScript, from
# npm, as web/package-lock.json pins it, in web/node_modules). Tests need no network.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEV_STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
BROWSER_STAMP := $(VENV)/.installed-browser
COMPILE_STAMP := $(VENV)/.compiled
# The modules compiled with Cython (setup.py), as pyproject.toml lists them.
COMPILED := $(shell $(PYTHON) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['tool']['cardtable']['compiled'])")
# The web table's modules checked against their JSDoc types (web/jsconfig.json).
TSC := $(BIN)/node web/node_modules/typescript/bin/tsc -p web/jsconfig.json
# Debian's Chromium (apt-get install chromium): the browser tests never download a browser.
CHROMIUM ?= /usr/bin/chromium
# engine.py runs both engine benches beside RLCard's; api.py needs PostgreSQL (see its header).
BENCH_SCRIPTS = bench/engine.py bench/api.py

.PHONY: install compile migrate run test lint bench test-browser screenshots

install: $(COMPILE_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(DEV_STAMP): pyproject.toml web/package-lock.json | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	$(BIN)/npm ci --prefix web --no-audit --no-fund
	touch $@

# Built beside their sources (the editable install compiles nothing); after a source changes, only
# the modules that changed are built again (the tests refuse a compiled module older than its
# source: tests/conftest.py).
compile: $(COMPILE_STAMP)

$(COMPILE_STAMP): $(COMPILED) setup.py $(DEV_STAMP)
	$(BIN)/python setup.py -q build_ext --inplace
	touch $@

$(BENCH_STAMP): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install -e '.[dev,bench]'
	touch $@

$(BROWSER_STAMP): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install -e '.[dev,browser]'
	touch $@

migrate: $(COMPILE_STAMP)
	$(BIN)/python manage.py migrate --noinput

run: migrate
	@echo
	@echo "  Web table: http://127.0.0.1:8000/"
	@echo "  API docs:  http://127.0.0.1:8000/api/v1/docs/"
	@echo "  Health:    http://127.0.0.1:8000/api/v1/health/"
	@echo "  Admin:     http://127.0.0.1:8000/admin/  ($(BIN)/python manage.py createsuperuser)"
	@echo
	$(BIN)/python manage.py serve 127.0.0.1:8000

test: $(COMPILE_STAMP)
	$(BIN)/python -m pytest -m "not integration and not browser" -q
	$(BIN)/ruff check .
	$(TSC)

# The web table in Chromium (tests/browser/); needs $(CHROMIUM).
test-browser: $(BROWSER_STAMP) $(COMPILE_STAMP)
	CHROMIUM=$(CHROMIUM) BROWSER_TESTS=required $(BIN)/python -m pytest -m browser -q

# Retakes docs/screenshots/ (Chinese text needs a CJK font: apt-get install fonts-wqy-zenhei).
screenshots: $(BROWSER_STAMP) $(COMPILE_STAMP)
	CHROMIUM=$(CHROMIUM) BROWSER_TESTS=required SCREENSHOTS_DIR=docs/screenshots \
		$(BIN)/python -m pytest tests/browser/test_screenshots.py -q

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(TSC)

bench: $(BENCH_STAMP) $(COMPILE_STAMP)
	@for script in $(BENCH_SCRIPTS); do \
		echo "== $$script"; PYTHONPATH=. $(BIN)/python $$script || exit 1; \
	done
