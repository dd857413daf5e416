# Set-up and everyday commands. Everything runs inside .venv, created on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SEED ?= 2026

.PHONY: demo test lint bench fuzz clean package-check fmt-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

## demo: a full Écarté match between the built-in players, as a transcript
demo: $(VENV)/.installed
	$(BIN)/python -m interpreter.cli demo ecarte --seed $(SEED) --seats heuristic,random

## test: the whole test suite (with doctests)
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

## package-check: build a wheel, install it in a fresh venv, use it from another directory
package-check: $(VENV)/.installed-test
	PY=$(BIN)/python .ci/check-package

## fmt-check: every shipped rule file is in the canonical layout (tricklang fmt --check)
fmt-check: $(VENV)/.installed
	$(BIN)/tricklang fmt --check rules/*.trick examples/*.trick

## lint: ruff and mypy --strict
lint: $(VENV)/.installed-test
	$(BIN)/ruff check tricklang interpreter tests benchmarks
	$(BIN)/mypy

## bench: issue 27's speed figures beside their targets, written to benchmarks/RESULTS.md (needs Cython and OpenSpiel for all lines)
bench: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[bench]' || echo "open-spiel could not be installed: the table says so"
	$(BIN)/python -m benchmarks.bench --results benchmarks/RESULTS.md

## fuzz: the grammar, state/record and language-server fuzzers, FUZZ_SECONDS each (default 60); findings in fuzz-findings/
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 1
fuzz: $(VENV)/.installed
	$(BIN)/python -m interpreter.fuzz --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED)

clean:
	rm -rf $(VENV) build dist *.egg-info
