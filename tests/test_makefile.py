"""`make clean` removes what the README's commands leave in the repository's folder, and git
ignores it meanwhile: the demo of every game (`arena demo --game GAME` writes arena-demo-GAME)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from arena.games import GAMES
from tests.conftest import ROOT
from tournaments.cli import DEMO_OUTPUT

DEMOS = [DEMO_OUTPUT, *(f"{DEMO_OUTPUT}-{name}" for name in GAMES)]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_clean_removes_the_demo_of_every_game(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    left = [*DEMOS, "test-output", "venv"]
    for name in left:
        (tmp_path / name / "site").mkdir(parents=True)
    (tmp_path / "keep").mkdir()
    done = subprocess.run(["make", "clean", "VENV=venv"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Makefile", "keep"]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs a git checkout")
def test_git_ignores_the_demo_of_every_game():
    for name in DEMOS:
        ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", f"{name}/store.sqlite"],
                                 cwd=ROOT, timeout=60)
        assert ignored.returncode == 0, f"{name}/ is not ignored by .gitignore"
