# `make run` and `make test` are all a newcomer needs: each creates .venv and installs the
# project on first use (again only when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEV_STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
# engine.py runs both engine benches beside RLCard's; api.py needs PostgreSQL (see its header).
BENCH_SCRIPTS = bench/engine.py bench/api.py

.PHONY: install migrate run test lint bench

install: $(DEV_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[dev]'
	touch $@

$(BENCH_STAMP): pyproject.toml $(DEV_STAMP)
	$(BIN)/python -m pip install -e '.[dev,bench]'
	touch $@

migrate: $(DEV_STAMP)
	$(BIN)/python manage.py migrate --noinput

run: migrate
	@echo
	@echo "  API docs:  http://127.0.0.1:8000/api/v1/docs/"
	@echo "  Health:    http://127.0.0.1:8000/api/v1/health/"
	@echo "  Admin:     http://127.0.0.1:8000/admin/  ($(BIN)/python manage.py createsuperuser)"
	@echo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(DEV_STAMP)
	$(BIN)/python -m pytest -m "not integration" -q
	$(BIN)/ruff check .

lint: $(DEV_STAMP)
	$(BIN)/ruff check .

bench: $(BENCH_STAMP)
	@for script in $(BENCH_SCRIPTS); do \
		echo "== $$script"; PYTHONPATH=. $(BIN)/python $$script || exit 1; \
	done
