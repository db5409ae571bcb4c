"""Small real tournaments, played once per test session, and their rendered sites.

The 2-player one has three entrants: the bundled ``random`` and ``heavy`` bots
and ``flaky``, whose description holds ``<script>alert(1)</script>``, which logs markup to stderr
and crashes in deal 3 when it sits in seat 0, so the site has failures, stderr tails and a
bot's text that must be escaped everywhere (a bot's name cannot hold markup: arena.bots.NAME).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from reports import render_site
from tests.reports.browser import Browser
from tournaments.backends import SerialBackend
from tournaments.config import parse_config
from tournaments.run import prepare, run_tournament

ROOT = Path(__file__).resolve().parents[2]
TEST_BOTS = Path(__file__).resolve().parent / "bots"
EVIL_TEXT = "<script>alert(1)</script>"  # in the flaky bot's description


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless browser for the tests of one module, closed after them."""
    b = Browser()
    try:
        yield b
    finally:
        b.close()


def screenshot_dir() -> Path:
    """Where screenshots go: ``$ARENA_TEST_OUTPUT/screenshots``, default ``test-output/`` in the repo."""
    base = Path(os.environ.get("ARENA_TEST_OUTPUT") or ROOT / "test-output")
    folder = base / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass(frozen=True)
class Site:
    store_dir: Path  # the tournament's output folder (the store)
    site_dir: Path   # the rendered site: its folder ``site`` (without the store)
    index: Path


def play(folder: Path, config: dict, stem: str) -> Site:
    """Play the small tournament ``config`` in ``folder``, one match after another, and render its
    site where ``arena report`` does."""
    parsed = parse_config({"time_control": {"move_ms": 2000, "bank_ms": 10000, "startup_ms": 15000},
                           **config}, base_dir=folder, source="test config", stem=stem)
    out = folder / "out"
    run_tournament(prepare(parsed, out), backend=SerialBackend(), progress=False, say=lambda _: None)
    return Site(out, out / "site", render_site(out))


def club_night(folder: Path, players: int) -> Site:
    return play(folder, {
        "name": "Club night <b>cup</b>",
        "game": "block",
        "seed": 11,
        "entrants": [
            str(ROOT / "bots" / "random"),
            str(ROOT / "bots" / "heavy"),
            str(TEST_BOTS / "flaky"),
        ],
        "format": {"players": players, "rounds": 1},
        "ratings": {"draw_probability": 0.01},
    }, "cup")


@pytest.fixture(scope="session")
def two_player(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return club_night(tmp_path_factory.mktemp("report-2p"), players=2)


@pytest.fixture(scope="session")
def three_player(tmp_path_factory: pytest.TempPathFactory) -> Site:
    return club_night(tmp_path_factory.mktemp("report-3p"), players=3)
