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

.PHONY: venv book test reproduce bench mutation clean

$(STAMP): pyproject.toml requirements.lock
	@echo "[credalbook] installing the pinned environment into $(VENV) (about a minute; log in $(VENV)/install.log)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@{ $(BIN)/python -m pip install --upgrade pip && \
	   $(BIN)/python -m pip install -r requirements.lock && \
	   $(BIN)/python -m pip install --no-deps --no-build-isolation -e . ; } > $(VENV)/install.log 2>&1 \
	  || { tail -n 25 $(VENV)/install.log; echo "[credalbook] installation failed: see $(VENV)/install.log"; exit 1; }
	@touch $(STAMP)

venv: $(STAMP)

## Execute every chapter with papermill (profile $(PROFILE)), then render the HTML book in _build/html.
book: $(STAMP)
	@$(BIN)/credalbook build --profile $(PROFILE) --jobs $(JOBS)

## Unit tests, property tests, benchmarks (run once, untimed) and every chapter: each chapter's test reads
## make book's execution when it is current, else nbval executes it. $(JOBS) pytest workers.
test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

## Full-profile experiments: tidy CSVs with provenance in data/results/.
reproduce: $(STAMP)
	$(BIN)/credalbook reproduce --profile full

## A sampled mutation run over the library's core modules (outside CI's time budget): mutants killed per module
## into _build/mutation.csv; survivors get a test or an argued entry in tests/mutation_equivalent.yml.
mutation: $(STAMP)
	$(BIN)/python scripts/mutation.py --sample $(or $(SAMPLE),20) --out _build/mutation.csv

clean:
	rm -rf _build .cache

## Time the hot paths over growing sizes into data/results/performance_*.csv (the performance page; with
## CREDALBOOK_JNCC2_JAR set, NCC is also paired with JNCC2), then the pytest-benchmark comparisons.
bench: $(STAMP)
	$(BIN)/credalbook bench
	CREDALBOOK_SKIP_NBVAL=1 $(BIN)/python -m pytest tests -p no:xdist --benchmark-enable --benchmark-only
