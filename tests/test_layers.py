"""The layers run one way: protocol <- arena <- tournaments <- reports, with bots beside
tournaments (docs/architecture.md). No module imports from a layer above its own, at the top of
a file or inside a function; the commands and the live report of the upper layers reach the
``arena`` command through entry points (pyproject.toml)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYER = {"protocol": 0, "arena": 1, "tournaments": 2, "bots": 2, "reports": 3}


def imported_packages(source: Path) -> set[tuple[str, int]]:
    """The top-level packages ``source`` imports anywhere, with the line of each import."""
    found = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(alias.name.split(".")[0], node.lineno) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add((node.module.split(".")[0], node.lineno))
    return found


def upward_imports(package: str) -> list[str]:
    """Imports of ``package`` from its own layer's other package (bots, tournaments) or above."""
    return [f"{path.relative_to(ROOT)}:{line} imports {name}"
            for path in sorted((ROOT / package).rglob("*.py"))
            for name, line in sorted(imported_packages(path))
            if name in LAYER and name != package and LAYER[name] >= LAYER[package]]


@pytest.mark.parametrize("package", sorted(LAYER))
def test_no_module_imports_from_a_layer_above_its_own(package: str) -> None:
    assert upward_imports(package) == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\n\ndef f():\n    from reports import render_site\n")
    assert ("reports", 4) in imported_packages(module)
