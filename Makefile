# Two commands do all the set-up on a fresh machine:  `make book`  and  `make test`.
# PROFILE=ci (default) runs reduced experiments; PROFILE=full runs the papers' scale.
PROFILE ?= ci
PYTHON ?= python3
JOBS ?= 2
VENV := .venv
BIN := $(abspath $(VENV))/bin
STAMP := $(VENV)/.installed-stamp
export PATH := $(BIN):$(PATH)
export PYTHONHASHSEED := 0

.PHONY: venv book test reproduce bench clean

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

venv: $(STAMP)

## Execute every chapter with papermill (profile $(PROFILE)), then render the HTML book in _build/html.
book: $(STAMP)
	$(BIN)/credalbook build --profile $(PROFILE) --jobs $(JOBS)

## Unit tests, property tests, benchmarks (timed once) and nbval over the chapters.
test: $(STAMP)
	$(BIN)/python -m pytest

## Full-profile experiments: tidy CSVs with provenance in data/results/.
reproduce: $(STAMP)
	$(BIN)/credalbook reproduce --profile full

clean:
	rm -rf _build .cache

## Time the benchmarks (pytest-benchmark), without the notebook tests.
bench: $(STAMP)
	CREDALBOOK_SKIP_NBVAL=1 $(BIN)/python -m pytest tests --benchmark-enable --benchmark-only
