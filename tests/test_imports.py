"""The project's modules import one another without a cycle, in one direction, and none reaches
into another's private names.

The layers run one way: protocol <- arena <- tournaments <- reports <- contest, with bots beside
tournaments
(docs/architecture.md). No module imports from a layer above its own; the commands and the live
report of the upper layers reach the lower ones through entry points (pyproject.toml).

Read from the source with ``ast`` (every ``import``, at the top of a module or inside a function),
so that an import a function makes only when it runs counts too: a cycle through such an import
works until the day one of its modules is imported first from the other side.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arena", "tournaments", "reports", "protocol", "contest")
LAYER = {"protocol": 0, "arena": 1, "tournaments": 2, "bots": 2, "reports": 3, "contest": 4}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for package in PACKAGES
           for path in sorted((ROOT / package).rglob("*.py"))}


def _imported(name: str, path: Path) -> dict[str, set[str]]:
    """``{module of the project: names taken from it}`` for one module: the names imported from
    it, and those read as attributes of it (``files.copy_tree`` after ``from arena.sandbox import
    files``, ``build.ensure_built`` after ``import arena.build as build``)."""
    out: dict[str, set[str]] = {}
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    bound: dict[str, str] = {}  # local name -> the project module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.setdefault(alias.name, set())
                if alias.asname:
                    bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in MODULES:        # from arena.sandbox import files
                    out.setdefault(submodule, set())
                    bound[alias.asname or alias.name] = submodule
                else:                           # from arena.sandbox.files import copy_tree
                    out.setdefault(source, set()).add(alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in bound:
            out.setdefault(bound[node.value.id], set()).add(node.attr)
    return {module: names for module, names in out.items() if module in MODULES and module != name}


GRAPH = {name: _imported(name, path) for name, path in MODULES.items()}


def _cycle_from(start: str) -> list[str] | None:
    """A chain of imports from ``start`` back to itself, if there is one."""
    paths = {start: [start]}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in GRAPH[here]:
            if there == start:
                return paths[here] + [start]
            if there not in paths:
                paths[there] = paths[here] + [there]
                todo.append(there)
    return None


def test_the_graph_sees_the_modules_and_their_imports():
    assert {"arena.build", "arena.sandbox.launch", "arena.referee", "tournaments.warm",
            "tournaments.cluster.backend"} <= GRAPH.keys()
    assert "arena.sandbox.launch" in GRAPH["arena.sandbox"]
    assert "arena.sandbox.files" in GRAPH["arena.build"]  # inside a function: counted too
    assert "arena.build" in GRAPH["arena.referee"]
    assert "temp_base" in GRAPH["arena.build"]["arena.sandbox.files"]  # files.temp_base()


def test_starting_a_bot_does_not_build_it():
    """A build runs in the sandbox; the caller of the sandbox builds first (the referee)."""
    assert "arena.build" not in GRAPH["arena.sandbox.launch"]
    assert "arena.build" not in GRAPH["arena.sandbox"]


def test_no_module_imports_itself_through_others():
    cycles = {name: cycle for name in GRAPH if (cycle := _cycle_from(name)) is not None}
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles.values())


def test_no_module_imports_another_ones_private_names():
    private = sorted(f"{name} imports {source}.{item}" for name, sources in GRAPH.items()
                     for source, items in sources.items() for item in items
                     if item.startswith("_") and not item.startswith("__"))
    assert not private


def _upward(importer: str, imported: str) -> bool:
    """Does package ``importer`` import from its own layer's other package, or from above?"""
    return importer != imported and LAYER[imported] >= LAYER[importer]


def test_no_module_imports_from_a_layer_above_its_own():
    upward = sorted(f"{name} imports {source}" for name, sources in GRAPH.items() for source in sources
                    if _upward(name.split(".")[0], source.split(".")[0]))
    assert not upward


def test_the_bundled_bots_import_only_protocol_and_arena():
    """Bots are folders of scripts, not a package: their imports are read file by file."""
    upward = []
    for path in sorted((ROOT / "bots").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level
                     else [])
            upward += [f"{path.relative_to(ROOT)}:{node.lineno} imports {n}" for n in names
                       if n.split(".")[0] in LAYER and _upward("bots", n.split(".")[0])]
    assert not upward
