"""The whole tree passes ruff, and the packages pass mypy, as configured in ``pyproject.toml``
(``[tool.ruff]``, ``[tool.mypy]``), and the layers a report is made of pass ``mypy --strict``: so
``make test`` and CI check them with everything else.

Both tools are pinned in the ``test`` extra and run from the environment the suite runs in (the
folder of ``sys.executable``), from the repository's root, exactly as ``ruff check .`` and
``mypy`` would be typed there (docs/testing.md). mypy keeps its cache in ``.mypy_cache``: after
the first run it checks only what changed, in about a second.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _run(tool: str, *args: str) -> None:
    program = BIN / tool
    if not program.exists():
        pytest.fail(f"{tool} is not installed in {BIN}: it is pinned in the test extra "
                    f"(pip install -e '.[test]')")
    done = subprocess.run([str(program), *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    if done.returncode != 0:
        command = " ".join((tool, *args))
        pytest.fail(f"`{command}` exited with {done.returncode}:\n{(done.stdout + done.stderr).strip()}",
                    pytrace=False)


@pytest.mark.timeout(120)
def test_ruff_finds_nothing() -> None:
    _run("ruff", "check", ".")


@pytest.mark.timeout(240)
def test_mypy_finds_nothing() -> None:
    _run("mypy")


# the layers below the contest server, typed strictly: every function annotated, no Any returned
# where a type is declared, no generic without its arguments (its own cache: other options)
STRICT = ("--strict", "--follow-imports=silent", "-p", "tournaments", "-p", "reports", "-p", "protocol",
          "-m", "arena.game", "-m", "arena.options")


@pytest.mark.timeout(240)
def test_mypy_strict_finds_nothing_in_the_typed_layers() -> None:
    _run("mypy", "--cache-dir", ".mypy_cache/strict", *STRICT)
