"""A game's name is read in any letter case, and a mistyped one is answered with the nearest
names, in one line, wherever a game is named: `arena play GAME`, `--game`, a config's `game`."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.errors import ArenaError
from arena.games import GAMES, get_game
from tournaments.config import ConfigError, parse_config


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize("written, name", [("Block", "block"), ("BLOCK", "block"),
                                           ("Dice-1000", "dice-1000"), ("Thousand", "thousand")])
def test_a_game_is_named_in_any_letter_case(written, name):
    assert get_game(written) is GAMES[name]


@pytest.mark.parametrize("written, nearest", [("blok", "'block'"), ("Blokc", "'block'"),
                                              ("thousnd", "'thousand'"), ("dice1000", "'dice-1000'"),
                                              ("domino", "'domino-cribbage'")])
def test_a_mistyped_game_gets_the_nearest_names(written, nearest):
    with pytest.raises(ArenaError) as caught:
        get_game(written)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"unknown game {written!r}; did you mean {nearest}")
    assert "known games: block, dice-1000, domino-cribbage, thousand" in message


def test_a_name_near_nothing_gets_only_the_list():
    with pytest.raises(ArenaError, match=r"^unknown game 'chess'; known games: block, dice-1000"):
        get_game("chess")


def test_the_command_line_reads_game_names_in_any_case_and_suggests():
    assert invoke("games", "Block").exit_code == 0
    played = invoke("play", "Block", "random", "random", "-q", "-o", "max_deals=1")
    assert played.exit_code == 0, played.output
    for args in (["play", "blok", "random", "random"], ["new-bot", "x", "--game", "blok"],
                 ["check", "random", "--game", "blok"], ["games", "blok"], ["bots", "blok"],
                 ["demo", "--game", "blok"]):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert result.output == ("arena: error: unknown game 'blok'; did you mean 'block'? known "
                                 "games: block, dice-1000, domino-cribbage, thousand\n"), args


def test_a_configs_game_is_read_in_any_case_and_suggests(tmp_path):
    data = {"name": "t", "entrants": ["greedy", "random"]}
    assert parse_config({**data, "game": "Block"}, base_dir=tmp_path).game == "block"
    with pytest.raises(ConfigError, match=r"'game': unknown game 'Blok'; did you mean 'block'\?"):
        parse_config({**data, "game": "Blok"}, base_dir=tmp_path)


def test_check_with_a_config_takes_its_game_in_any_case(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.toml").write_text('name = "t"\ngame = "domino-cribbage"\n'
                                     'entrants = ["random", "pegger"]\n')
    result = invoke("check", "random", "--config", "t.toml", "--game", "Domino-Cribbage")
    assert result.exit_code == 0, result.output
