# personaweb: `make run` brings the dashboard up, `make test` runs the suite.
# Everything runs from the project's own virtual environment in .venv.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
# Written after a successful install; pyproject.toml changing triggers a reinstall.
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# The suite runs in this many processes (pytest-xdist); 0 runs it in this one.
TEST_PROCESSES ?= 2
# DEBUG stays off for `make run` (people see the product's pages, not Django's debug
# pages), so it needs a secret key: a random one made once and kept in var/ (not in
# git). A SECRET_KEY in the environment wins.
LOCAL_KEY := var/secret_key

.DEFAULT_GOAL := help
.PHONY: help install run test lint clean browser-deps

help:
	@echo "make run    install, migrate, load the demo data, print the logins, start web + worker + beat"
	@echo "            on http://$(HOST):$(PORT)/ (PORT=8001 make run for another port); Ctrl-C stops all"
	@echo "make test   install (and Chromium for the browser tests), then run the test suite"
	@echo "make lint   ruff check, ruff format --check, mypy, lint-imports (the layers)"
	@echo "make clean  remove the virtual environment, caches and the local broker (keeps var/*.sqlite3)"

$(PY):
	$(PYTHON) -m venv $(VENV)

# torch first and pinned, by pip: pip then takes the local CPU build instead of the CUDA
# one (uv does not look where that file lies). Then the project and its dev tools by uv
# (pinned, installed into the venv from the package registry): it downloads and unpacks
# in parallel, and compiles the bytecode at install as pip does. The same packages as
# pip; the whole install took 70 s of CPU instead of 112 s with pip alone. Where uv
# cannot be installed or fails, pip installs them as before.
UV_VERSION := 0.13.9
$(STAMP): pyproject.toml | $(PY)
	$(BIN)/pip install torch==2.13.0
	$(BIN)/pip install uv==$(UV_VERSION) \
		&& $(BIN)/uv pip install --python $(PY) --compile-bytecode -e ".[dev]" \
		|| $(BIN)/pip install -e ".[dev]"
	touch $(STAMP)

# The sentence encoder exported to ONNX and quantised once, into var/encoder/ (a no-op when
# the file is there); web processes then never load torch. Then the question bank encoded
# with it, once, next to it (memory.context; a no-op when there): a server's first calls
# rank with the bank. DEBUG=1: no secret key needed.
install: $(STAMP)
	@DEBUG=1 $(PY) manage.py safety export-encoder
	@DEBUG=1 $(PY) manage.py memory encode-bank

$(LOCAL_KEY): | $(PY)
	@mkdir -p $(@D)
	@umask 077 && $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

run: export SECRET_KEY ?= $(shell cat $(LOCAL_KEY) 2>/dev/null)
run: install $(LOCAL_KEY)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py ensure_operator --host $(HOST) --port $(PORT)
	$(PY) manage.py demo_logins --host $(HOST) --port $(PORT)
	$(PY) manage.py runlocal --host $(HOST) --port $(PORT)

# The browser tests drive Debian's Chromium; without it (and without root) they skip.
browser-deps:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = "0" ]; then \
		echo "Installing Debian chromium for the browser tests"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; \
	fi

test: install browser-deps
	$(BIN)/pytest -n $(TEST_PROCESSES) --dist worksteal $(PYTEST_ARGS)

# mypy's Django plugin loads the settings; a development key is enough for that.
lint: export DEBUG ?= 1
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info build
	rm -rf var/broker var/staticfiles var/screenshots var/celerybeat-schedule*
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
