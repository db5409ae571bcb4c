# The two commands of the README:
#   make demo   set everything up, run a demo tournament of the bundled bots, write its report
#   make test   set everything up, run the whole test suite
VENV ?= .venv
# The environment's interpreter: the system's /usr/bin/python3 when it is 3.11 or newer (the one
# sandboxed Python bots run; a distribution's build is compiled with optimizations, which a
# home-built one often is not), else python3 from the PATH. `make PYTHON=... demo` picks another.
PYTHON ?= $(shell /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
                  >/dev/null 2>&1 && echo /usr/bin/python3 || echo python3)
BIN = $(VENV)/bin

.PHONY: demo test setup system-packages clean

demo: setup
	$(BIN)/arena demo

# two processes, each taking whole test files (a module's fixtures, such as its browser, stay in one)
test: setup
	$(BIN)/python -m pytest -n 2 --dist loadfile

setup: system-packages $(VENV)/.installed

system-packages:
	PYTHON=$(PYTHON) sh scripts/install-system-packages.sh

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,cluster,openspiel]'
	touch $@

clean:
	rm -rf $(VENV) arena-demo arena-demo-* test-output
