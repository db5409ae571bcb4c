"""A damaged or foreign ``tournament.sqlite`` in the output folder: garbled, truncated, random
bytes, a folder or a FIFO in its place, someone else's SQLite database. ``arena tournament run``
says so in one line and exits with code 2, and the file is left exactly as it was (never adopted,
never repaired). The command runs in a child process with a deadline: a FIFO must not hang it."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tournaments.store import STORE_NAME

from .conftest import small_config, write_config

COMMAND_SECONDS = 120
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]  # a real tournament, then the commands


def run_arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "arena", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=COMMAND_SECONDS)


@pytest.fixture()
def tournament(tmp_path: Path, bots: dict[str, Path]) -> tuple[Path, Path]:
    """A config and its output folder, with a real finished store in it."""
    config = write_config(tmp_path / "t.toml", small_config([bots["alpha"], bots["first"]],
                                                           output=str(tmp_path / "out")))
    result = run_arena("tournament", "run", str(config), "-q", "-w", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    store = tmp_path / "out" / STORE_NAME
    # a clean copy, checkpointed into one file (no -wal or -shm beside it)
    conn = sqlite3.connect(store)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    return config, store


def fingerprint(path: Path) -> tuple:
    if path.is_dir():
        return ("dir", sorted(p.name for p in path.iterdir()))
    if not path.is_file():
        return ("special", os.lstat(path).st_mode)
    return ("file", hashlib.sha256(path.read_bytes()).hexdigest(), os.stat(path).st_mtime_ns)


def garble(store: Path) -> None:
    data = bytearray(store.read_bytes())
    page = 4096
    for i in range(page, len(data), page):   # every page but the first, its header overwritten
        data[i:i + 200] = b"\xa5" * 200
    store.write_bytes(bytes(data))


def truncate(store: Path) -> None:
    data = store.read_bytes()
    store.write_bytes(data[: max(4096, len(data) // 3)])


def random_bytes(store: Path) -> None:
    store.write_bytes(random.Random(3).randbytes(50_000))


def folder(store: Path) -> None:
    store.unlink()
    store.mkdir()
    (store / "something").write_text("kept\n")


def fifo(store: Path) -> None:
    store.unlink()
    os.mkfifo(store)


def foreign_sqlite(store: Path) -> None:
    store.unlink()
    conn = sqlite3.connect(store)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes (text) VALUES ('my own data')")
    conn.commit()
    conn.close()


DAMAGE = {
    "garbled": (garble, "the tournament store is damaged"),
    "truncated": (truncate, "the tournament store is damaged"),
    "random_bytes": (random_bytes, "is not an SQLite database"),
    "folder": (folder, "is a folder, not a tournament store"),
    "fifo": (fifo, "is not a regular file, not a tournament store"),
    "foreign_sqlite": (foreign_sqlite, "is an SQLite database but not a tournament store"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_or_foreign_store_is_one_line_and_left_untouched(damage, tournament, tmp_path):
    config, store = tournament
    spoil, words = DAMAGE[damage]
    spoil(store)
    before = fingerprint(store)
    for command in (["tournament", "run", str(config), "-q", "-w", "1"],
                    ["ratings", str(store.parent)], ["report", str(store.parent)]):
        result = run_arena(*command, cwd=tmp_path)
        assert result.returncode == 2, command + [result.stdout + result.stderr]
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("arena: error: "), result.stderr
        assert words in lines[0] and str(store) in lines[0], (command, lines[0])
        assert "Traceback" not in result.stderr
        assert fingerprint(store) == before
    if damage == "foreign_sqlite":
        conn = sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True)
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        conn.close()
        assert tables == ["notes"]


def test_an_empty_file_is_a_place_for_a_new_store(tournament, tmp_path):
    config, store = tournament
    shutil.rmtree(store.parent)
    store.parent.mkdir()
    store.write_bytes(b"")
    result = run_arena("tournament", "run", str(config), "-q", "-w", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "played 2 matches" in result.stdout, result.stdout


def test_an_intact_store_resumes(tournament, tmp_path):
    config, store = tournament
    result = run_arena("tournament", "run", str(config), "-q", "-w", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "resuming" in result.stdout + result.stderr
