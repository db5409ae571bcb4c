"""Adding a game is one folder and one line in the registry (docs/adding-a-game.md): the toy game
of tests/games/toy/, registered here as a fifth game, plays, is checked, gets a starter kit, and
is drawn in the report by its own drawer, with nothing else in arena told about it."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games import GAMES
from reports import render_site
from tests.games.toy import ToyDice
from tests.reports.browser import Browser
from tests.reports.conftest import browser  # noqa: F401  (the fixture)
from tournaments.backends import SerialBackend
from tournaments.config import parse_config
from tournaments.run import prepare, run_tournament

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "random")


@pytest.fixture
def fifth_game(monkeypatch: pytest.MonkeyPatch) -> ToyDice:
    game = ToyDice()
    monkeypatch.setitem(GAMES, game.name, game)  # the one line in arena/games/__init__.py
    return game


def arena(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_fifth_game_is_listed_and_plays(fifth_game: ToyDice) -> None:
    assert "toy-dice: Toy dice" in arena("games")
    out = arena("play", "toy-dice", RANDOM, RANDOM, "--seed", "3", "-o", "target=15")
    assert "result:" in out and "[ok]" in out


@pytest.mark.slow  # a match in every seat of every player count, through the sandbox
def test_the_fifth_game_is_checked(fifth_game: ToyDice) -> None:
    assert "all checks passed" in arena("check", RANDOM, "--game", "toy-dice")


def test_the_fifth_game_gets_a_starter_kit(fifth_game: ToyDice, tmp_path: Path) -> None:
    arena("new-bot", str(tmp_path / "mine"), "--game", "toy-dice", "--lang", "python")
    readme = (tmp_path / "mine" / "README.md").read_text(encoding="utf-8")
    assert "`turn_total`" in readme  # the game's own observation page, from its folder
    assert "totals" in (tmp_path / "mine" / "main.py").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_fifth_game_is_drawn_in_the_report(fifth_game: ToyDice, tmp_path: Path,
                                               browser: Browser) -> None:  # noqa: F811
    config = parse_config({
        "name": "Five", "game": "toy-dice", "seed": 4, "options": {"target": 15},
        "entrants": [RANDOM, {"path": RANDOM, "name": "random-2"}],
        "format": {"players": 2, "rounds": 1},
        "ratings": {"draw_probability": 0.05},
    }, base_dir=tmp_path, source="test", stem="five")
    out = tmp_path / "out"
    run_tournament(prepare(config, out), backend=SerialBackend(), progress=False,
                   say=lambda _: None)
    index = render_site(out)
    assert (index.parent / "static" / "games" / "toy-dice.js").is_file()
    browser.open(index.parent / "replay.html", "?match=1#step=2")
    found = browser.wait("return document.querySelector('.toy-board')")
    assert found, (browser.errors(), browser.js("return document.body.innerText")[:500])
    assert browser.errors() == []
    assert [el.text for el in browser.all(".toy-seat")][0].startswith("random")
