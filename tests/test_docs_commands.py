"""The commands the docs give, run as written: every fenced block of README.md and docs/ whose
info string is ``sh runnable`` runs line by line in a fresh folder per document, with the
``arena`` of this environment first on the PATH, and every line must exit 0. A block whose info
string is ``toml file=NAME`` (the tournament file a page's commands read) is written to NAME in
that folder first. docs/testing.md ("Commands in the docs") says which blocks to mark."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(.*)$")
FILE = re.compile(r"^file=(\S+)$")


def blocks(text: str) -> list[tuple[list[str], list[str]]]:
    """Every fenced block of a Markdown text: (the words of its info string, its lines)."""
    found: list[tuple[list[str], list[str]]] = []
    info: list[str] | None = None
    lines: list[str] = []
    for line in text.splitlines():
        fence = FENCE.match(line)
        if fence and info is None:
            info, lines = fence.group(1).split(), []
        elif fence and not fence.group(1).strip():
            assert info is not None
            found.append((info, lines))
            info = None
        elif info is not None:
            lines.append(line)
    return found


def steps(text: str) -> list[tuple[str, str]]:
    """What a document's marked blocks do, in order: ("file", NAME + "\\n" + content) or
    ("run", command line), lines ending with a backslash joined to the next."""
    out: list[tuple[str, str]] = []
    for info, lines in blocks(text):
        names = [m.group(1) for w in info[1:] if (m := FILE.match(w))]
        if names:
            out.append(("file", names[0] + "\n" + "\n".join(lines) + "\n"))
        elif info[:2] == ["sh", "runnable"]:
            command = ""
            for line in lines:
                command += line[:-1] + " " if line.endswith("\\") else line
                if not line.endswith("\\"):
                    if command.strip() and not command.lstrip().startswith("#"):
                        out.append(("run", command))
                    command = ""
    return out


def test_the_marker_is_read_as_documented():
    text = ("```sh\nnot run\n```\n```sh runnable\narena games   # the games\n# a comment\n\n"
            "arena play block \\\n  greedy random\n```\n```toml file=c.toml\ngame = \"block\"\n```\n")
    assert steps(text) == [("run", "arena games   # the games"),
                           ("run", "arena play block    greedy random"),
                           ("file", 'c.toml\ngame = "block"\n')]


def test_the_pages_that_new_users_start_from_have_runnable_commands():
    marked = {doc.name for doc in DOCUMENTS if any(kind == "run" for kind, _ in
                                                   steps(doc.read_text(encoding="utf-8")))}
    assert {"README.md", "classroom.md"} <= marked


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("doc", [d for d in DOCUMENTS if steps(d.read_text(encoding="utf-8"))],
                         ids=lambda d: str(d.relative_to(ROOT)))
def test_the_runnable_commands_of_the_docs_run(doc, tmp_path):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for kind, step in steps(doc.read_text(encoding="utf-8")):
        if kind == "file":
            name, content = step.split("\n", 1)
            (tmp_path / name).write_text(content, encoding="utf-8")
            continue
        done = subprocess.run(["bash", "-c", step], cwd=tmp_path, env=env, text=True,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=240)
        assert done.returncode == 0, (f"{doc.relative_to(ROOT)}: `{step}` exited "
                                      f"{done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
