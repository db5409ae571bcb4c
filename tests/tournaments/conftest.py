"""Fixtures for tournament tests: small deterministic bots and configs written to a temp folder.

The bots run with ``python3`` as any bundled bot does (inside the sandbox that is the system's
interpreter), and choose their actions from a hash of what they see, so a match replays exactly
from its seed and seats: two runs of a tournament (serial or parallel, interrupted or not) must store identical results.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
import tomli_w

HASH_BOT = textwrap.dedent('''
    import hashlib, json, sys
    from protocol.sdk import run

    SALT = sys.argv[1] if len(sys.argv) > 1 else ""

    def choose(observation, legal):
        text = SALT + json.dumps(observation, sort_keys=True) + json.dumps(legal)
        return legal[hashlib.sha256(text.encode()).digest()[0] % len(legal)]

    run(choose)
''')

FIRST_BOT = textwrap.dedent('''
    from protocol.sdk import run

    run(lambda observation, legal: legal[0])
''')

CRASH_BOT = textwrap.dedent('''
    import sys
    from protocol.sdk import run

    def choose(observation, legal):
        sys.stderr.write("giving up\\n")
        sys.exit(3)

    run(choose)
''')


def make_bot(folder: Path, name: str, code: str = HASH_BOT, *args: str) -> Path:
    """A bot folder: ``main.py`` with ``code``, run by ``python3`` with ``args``."""
    bot = folder / name
    bot.mkdir(parents=True, exist_ok=True)
    (bot / "main.py").write_text(code, encoding="utf-8")
    (bot / "bot.toml").write_text(
        f'name = "{name}"\ncommand = {json.dumps(["python3", "main.py", *args])}\n',
        encoding="utf-8")
    return bot


@pytest.fixture()
def bots(tmp_path: Path) -> dict[str, Path]:
    """Four deterministic bots of different styles, and a crashing one."""
    folder = tmp_path / "bots"
    return {
        "alpha": make_bot(folder, "alpha", HASH_BOT, "a"),
        "beta": make_bot(folder, "beta", HASH_BOT, "b"),
        "gamma": make_bot(folder, "gamma", HASH_BOT, "c"),
        "first": make_bot(folder, "first", FIRST_BOT),
        "crash": make_bot(folder, "crash", CRASH_BOT),
    }


def write_config(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(tomli_w.dumps(data).encode("utf-8"))
    return path


def small_config(entrants: list[Any], **overrides: Any) -> dict[str, Any]:
    """A quick Block tournament: one deal per match."""
    data: dict[str, Any] = {
        "name": "test", "game": "block", "seed": 7,
        "entrants": [e if isinstance(e, dict) else str(e) for e in entrants],
        "options": {"single_deal": True},
        "format": {"type": "round-robin", "players": 2, "rounds": 1},
        "time_control": {"move_ms": 2000, "bank_ms": 5000, "startup_ms": 10000},
    }
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    return data
