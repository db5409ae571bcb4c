# The two commands of the README:
#   make demo   set everything up, run a demo tournament of the bundled bots, write its report
#   make test   set everything up, run the whole test suite
VENV ?= .venv
PYTHON ?= python3
BIN = $(VENV)/bin

.PHONY: demo test setup system-packages clean

demo: setup
	$(BIN)/arena demo

test: setup
	$(BIN)/python -m pytest

setup: system-packages $(VENV)/.installed

system-packages:
	PYTHON=$(PYTHON) sh scripts/install-system-packages.sh

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,cluster]'
	touch $@

clean:
	rm -rf $(VENV) arena-demo test-output
