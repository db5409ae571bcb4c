"""The tournament commands through the ``arena`` CLI, with click's CliRunner."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.bots import bundled_bots
from arena.cli import cli
from arena.games import GAMES
from arena.record import RECORD_FORMAT
from tournaments.cli import COMMANDS, demo_config, demo_output

from .conftest import small_config, write_config


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def test_commands_are_registered_on_the_arena_group() -> None:
    names = {c.name for c in COMMANDS}
    assert names == {"tournament", "ratings", "demo", "check"}
    for name in names:
        assert name in cli.commands
    assert set(cli.commands["tournament"].commands) == {"run", "replay"}


@pytest.mark.slow
def test_run_ratings_and_replay(runner: CliRunner, tmp_path: Path, bots: dict[str, Path]) -> None:
    config = write_config(tmp_path / "t.toml",
                          small_config([bots["alpha"], bots["beta"], bots["first"]]))
    out = tmp_path / "out"
    result = runner.invoke(cli, ["tournament", "run", str(config), "-w", "2", "--output", str(out)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "3 entrants, 6 matches" in result.stdout
    assert "played 6 matches (6 of 6 done, 0 failed seats)" in result.stdout
    assert "6/6 matches" in result.stderr  # the progress bar
    assert f"results: {out / 'tournament.sqlite'}" in result.stdout

    result = runner.invoke(cli, ["ratings", str(out)])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "test: 6 of 6 matches rated" in result.stdout
    header = next(line for line in lines if line.startswith("rank"))
    assert header.split() == ["rank", "entrant", "mu-3sigma", "mu", "sigma", "matches", "wins",
                              "avg", "score", "failures"]
    assert "head-to-head: wins-draws-losses" in result.stdout

    replay_file = tmp_path / "replay.json"
    result = runner.invoke(cli, ["tournament", "replay", str(out), "3", "--replay", str(replay_file)])
    assert result.exit_code == 0, result.stderr
    assert "identical to the stored match" in result.stdout
    assert json.loads(replay_file.read_text())["format"] == RECORD_FORMAT


@pytest.mark.parametrize("args, message", [
    (["tournament", "run", "nowhere.toml"], "tournament config 'nowhere.toml' does not exist"),
    (["ratings", "nowhere"], "nowhere: no tournament store here"),
    (["tournament", "replay", "nowhere", "1"], "no tournament store here"),
])
def test_user_errors_are_one_line_with_exit_code_2(runner: CliRunner, args: list[str],
                                                   message: str) -> None:
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_bad_key_and_unknown_match(runner: CliRunner, tmp_path: Path, bots: dict[str, Path]) -> None:
    data = small_config([bots["alpha"], bots["beta"]])
    data["format"]["rounds"] = "two"
    config = write_config(tmp_path / "t.toml", data)
    result = runner.invoke(cli, ["tournament", "run", str(config)])
    assert result.exit_code == 2
    assert "'format.rounds' must be an integer" in result.stderr
    assert not (tmp_path / "t-results").exists()  # nothing written
    data["format"]["rounds"] = 1
    config = write_config(tmp_path / "t.toml", data)
    assert runner.invoke(cli, ["tournament", "run", str(config), "-q"]).exit_code == 0
    result = runner.invoke(cli, ["tournament", "replay", str(tmp_path / "t-results"), "9"])
    assert result.exit_code == 2 and "there is no match 9; match ids run from 1 to 2" in result.stderr


def test_a_demos_folder_is_named_by_its_game_without_a_colon() -> None:
    assert demo_output("block") == Path("arena-demo")
    assert demo_output("thousand") == Path("arena-demo-thousand")
    assert demo_output("openspiel:connect_four") == Path("arena-demo-openspiel-connect_four")


def test_demo_config_uses_the_bundled_bots() -> None:
    config = demo_config()
    assert config.game == "block" and config.format.type == "round-robin"
    assert len(config.entrants) >= 2
    assert all(Path(e.path).parent.name == "bots" for e in config.entrants)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_demo_config_of_every_game(name: str) -> None:
    """Each game's demo: the bundled bots that play it, at the game's demo (else default) count."""
    game = GAMES[name]
    config = demo_config(name)
    assert config.game == name
    assert config.format.players == (game.demo_players or game.default_players)
    tc = config.time_control  # the game's own demo clock (tests/bots/test_clocks.py plays it)
    assert (tc.move_ms, tc.bank_ms) == game.demo_time_control
    # and its length: whole matches, or capped where they would make the demo long (Thousand)
    length = game.length_cap(game.make_options(config.format.players, config.options))
    assert length == (game.demo_length or game.length_cap(game.make_options(config.format.players)))
    expected = {str(b.path) for b in bundled_bots(name)}
    assert expected <= {str(Path(e.path).resolve()) for e in config.entrants}
    assert all(not b.games or name in b.games for b in bundled_bots(name))


def test_the_readme_says_at_which_count_each_demo_plays() -> None:
    """The README says the demo plays a game's default count: it names the games whose demo
    table is another."""
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split())
    assert "plays that game's bundled bots at its default player count" in readme
    others = [g for g in GAMES.values() if g.demo_players not in (None, g.default_players)]
    assert others, "Dice 1000's demo plays a table of 4"
    for game in others:
        assert (f"{game.title} at a table of {game.demo_players}, its default being "
                f"{game.default_players}") in readme


@pytest.mark.slow
def test_demo_runs_and_says_where_the_results_are(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = runner.invoke(cli, ["demo", "--output", str(out)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"results: {out / 'tournament.sqlite'}" in result.stdout
    assert (out / "tournament.sqlite").is_file()
    assert "rank" in result.stdout
    index = next(line for line in result.stdout.splitlines() if line.startswith("report: "))
    assert Path(index.removeprefix("report: ").split()[0]) == (out / "site" / "index.html").resolve()
    assert (out / "site" / "index.html").is_file()


@pytest.mark.slow
def test_a_finished_run_writes_its_report(runner: CliRunner, tmp_path: Path,
                                          bots: dict[str, Path]) -> None:
    config = write_config(tmp_path / "t.toml", small_config([bots["alpha"], bots["beta"]]))
    result = runner.invoke(cli, ["tournament", "run", str(config), "-q"])
    assert result.exit_code == 0, result.stderr
    index = tmp_path / "t-results" / "site" / "index.html"  # the site: a folder without the store
    assert f"report: {index}" in result.stdout and index.is_file()
    assert not (tmp_path / "t-results" / "index.html").exists()
