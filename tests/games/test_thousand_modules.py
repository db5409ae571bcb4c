"""The Thousand engine's modules stay small and keep to their own: each well under 400 lines, and
none reads or sets a private attribute (``x._name``) of an object it does not own: its own are
``self``, ``cls`` and an object a method has just made (a copy, an alternate constructor).
Anything else goes through the state's public API (``ThousandState.from_observation``…)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "arena" / "games" / "thousand"
MODULES = sorted(PACKAGE.glob("*.py"))


def made_here(function: ast.FunctionDef) -> set[str]:
    """Names a function binds to an object it makes itself: ``x = object.__new__(...)``."""
    return {t.id for n in ast.walk(function) if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call) and ast.unparse(n.value.func) == "object.__new__"
            for t in n.targets if isinstance(t, ast.Name)}


def foreign_private_uses(tree: ast.AST) -> list[str]:
    """``x._name`` (not dunder) where ``x`` is not ``self``, ``cls`` or made by that function."""
    found = []

    def visit(node: ast.AST, own: set[str]) -> None:
        if isinstance(node, ast.FunctionDef):
            own = {"self", "cls"} | made_here(node)
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in own)):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, own)

    visit(tree, {"self", "cls"})
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_is_small_and_uses_no_private_attribute_of_another(path):
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 400, f"{path.name} has {len(text.splitlines())} lines"
    assert foreign_private_uses(ast.parse(text)) == [], path.name


def test_the_check_sees_a_foreign_private_use():
    tree = ast.parse("def f(st):\n    st._legal = st._play_legal(0)\n"
                     "def g(cls):\n    new = object.__new__(cls)\n    new._legal = []\n")
    assert foreign_private_uses(tree) == ["line 2: st._legal", "line 2: st._play_legal"]
