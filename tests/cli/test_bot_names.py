"""A bare name on the command line or in a tournament file is the bundled bot of that name,
unless a folder of that name is there (README.md, "Playing one match"; docs/tournaments.md)."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from arena import bots as arena_bots
from arena.bots import BUNDLED_BOTS, bundled_bots
from arena.cli import cli
from arena.record import MatchRecord
from tests.conftest import BOTS, ROOT
from tournaments.config import load_config
from tournaments.entrants import reference_names, resolve_entrants


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_a_bare_name_is_the_bundled_bot_unless_a_folder_of_that_name_is_there(tmp_path):
    bot_folder = arena_bots.bot_folder
    assert bot_folder("greedy", tmp_path) == BUNDLED_BOTS / "greedy"
    assert bot_folder("greedy", tmp_path).is_dir()
    (tmp_path / "greedy").mkdir()  # a folder of the name wins
    assert bot_folder("greedy", tmp_path) == tmp_path / "greedy"
    assert bot_folder("./random", tmp_path) == tmp_path / "random"  # a path is a path
    assert bot_folder("nosuchbot", tmp_path) == tmp_path / "nosuchbot"


def test_play_takes_bundled_bots_by_name_and_keeps_human_the_human_seat(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    replay = tmp_path / "m.json"
    result = invoke("play", "block", "greedy", "random", "-q", "-o", "max_deals=1",
                    "--replay", str(replay))
    assert result.exit_code == 0, result.output
    seats = MatchRecord.from_json(replay.read_text()).seats
    assert [s["name"] for s in seats] == ["greedy", "random"]
    # `arena play block human greedy`, the person resigning at once (the end of the input)
    done = subprocess.run([sys.executable, "-m", "arena", "play", "block", "human", "greedy",
                           "-o", "max_deals=1", "--replay", str(replay)], input="", text=True,
                          capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [s["name"] for s in MatchRecord.from_json(replay.read_text()).seats] == ["human", "greedy"]


def test_a_folder_of_the_name_in_the_working_directory_comes_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(BOTS / "random", tmp_path / "greedy")  # a folder called greedy: a random bot
    replay = tmp_path / "m.json"
    result = invoke("play", "block", "greedy", "random", "-q", "-o", "max_deals=1",
                    "--replay", str(replay))
    assert result.exit_code == 0, result.output
    assert MatchRecord.from_json(replay.read_text()).seats[0]["name"] == "random"


def test_an_unknown_bare_name_says_where_the_bundled_bots_are_listed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("play", "block", "greedyy", "random")
    assert result.exit_code == 2
    assert "bot folder 'greedyy' does not exist" in result.output
    assert "arena bots" in result.output


def test_arena_bots_lists_the_bundled_bots_with_their_games_and_folders():
    result = invoke("bots")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    bots = bundled_bots()
    assert len(bots) >= 8
    for bot in bots:
        line = next(line for line in lines if line.split()[0] == bot.path.name)
        assert str(bot.path) in line
        assert (", ".join(bot.games) if bot.games else "any game") in line
    block = invoke("bots", "block").output
    assert "greedy" in block and "pegger" not in block


def test_arena_bots_escapes_a_bundled_bots_text(tmp_path, monkeypatch):
    folder = tmp_path / "bots" / "odd"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('command = "python3 main.py"\ngames = ["x\\u001b[2Jcleared"]\n')
    (folder / "main.py").write_text("")
    monkeypatch.setattr("arena.bots.BUNDLED_BOTS", tmp_path / "bots")
    result = invoke("bots")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\\x1b[2Jcleared" in result.output


def test_a_tournament_entrant_may_name_a_bundled_bot_relative_to_the_config_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # a folder called random is no matter: the config's folder counts
    config = tmp_path / "class.toml"
    config.write_text('name = "c"\ngame = "block"\n'
                      f'entrants = ["{BOTS / "random"}", {{ path = "greedy", reference = true }}]\n')
    bots = resolve_entrants(load_config(config))
    assert [b.path for b in bots] == [BOTS / "random", BUNDLED_BOTS / "greedy"]
    assert reference_names(load_config(config)) == {"greedy"}
    shutil.copytree(BOTS / "heavy", tmp_path / "greedy")  # a folder beside the config wins
    assert resolve_entrants(load_config(config))[1].path == tmp_path / "greedy"


@pytest.mark.timeout(120)
def test_check_takes_a_bundled_bot_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("check", "random", "--game", "domino-cribbage")
    assert result.exit_code == 0, result.output
    assert "all checks passed" in result.output
