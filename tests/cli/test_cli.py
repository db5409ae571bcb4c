"""The arena command through click's CliRunner: games, play, check, and bad input."""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.record import MatchRecord
from tests.conftest import BOTS, surviving_children

MISBEHAVING = Path(__file__).resolve().parents[1] / "referee" / "misbehaving"
RANDOM = str(BOTS / "random")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_games_lists_players_and_options_with_defaults():
    result = invoke("games")
    assert result.exit_code == 0
    assert "block: Block dominoes (rules: docs/games/block.md)" in result.output
    assert "players: 2, 3 or 4 (default 2); hidden information; chance; can be drawn" in result.output
    assert "target (default 100 with 2 players, 61 with 3 or 4 players)" in result.output
    assert "first_leader (default 'lottery'; one of 'lottery', 'highest_double')" in result.output
    for option in ("hand_size", "target", "single_deal", "auto_pass"):
        assert f"  {option} (default" in result.output


def test_play_prints_deals_plays_passes_scores_and_writes_the_record(tmp_path):
    replay = tmp_path / "match.json"
    result = invoke("play", "block", RANDOM, RANDOM, "--seed", "2", "--replay", str(replay))
    assert result.exit_code == 0, result.output
    out = result.output
    assert re.search(r"^deal 1: random#[01] leads$", out, re.M)
    assert "random#1 plays" in out and "passes" in out
    assert "scores [" in out and "result:" in out
    record = MatchRecord.from_json(replay.read_text())
    assert record.seed == 2 and record.game == "block"
    winner = record.ranks.index(1)
    assert f"rank 1  random#{winner}  score {record.scores[winner]}  [ok]" in out
    assert surviving_children() == []


def test_play_options_and_time_control_reach_the_match(tmp_path):
    replay = tmp_path / "m.json"
    result = invoke("play", "block", RANDOM, RANDOM, RANDOM, "-o", "target=20", "-o", "single_deal=true",
                    "-t", "0.5+2", "-q", "--replay", str(replay))
    assert result.exit_code == 0, result.output
    data = json.loads(replay.read_text())
    assert data["options"]["target"] == 20 and data["options"]["single_deal"] is True
    assert data["options"]["num_players"] == 3
    assert data["time_control"]["move_ms"] == 500 and data["time_control"]["bank_ms"] == 2000
    assert sum(1 for e in data["events"] if e["type"] == "deal") == 1


@pytest.mark.parametrize("args, words", [
    (["play", "chess", RANDOM, RANDOM], "unknown game 'chess'; known games: block"),
    (["play", "block", RANDOM, RANDOM, "-o", "colour=red"], "unknown option 'colour'"),
    (["play", "block", RANDOM, RANDOM, "-o", "first_leader=youngest"], "allowed values: 'lottery', 'highest_double'"),
    (["play", "block", RANDOM, RANDOM, "-o", "target=many"], "option 'target': 'many' is not a valid int"),
    (["play", "block", RANDOM, RANDOM, "-o", "target"], "'target' is not of the form key=value"),
    (["play", "block", RANDOM, RANDOM, RANDOM, RANDOM, RANDOM], "block is played by 2, 3 or 4 players; got 5 bots"),
    (["play", "block", RANDOM], "block is played by 2, 3 or 4 players; got 1 bots"),
    (["play", "block", RANDOM, "no/such/bot"], "bot folder 'no/such/bot' does not exist"),
    (["play", "block", RANDOM, str(BOTS)], "has no bot.toml manifest"),
    (["play", "block", RANDOM, RANDOM, "-t", "fast"], "time control 'fast'"),
    (["check", RANDOM, "--game", "go"], "unknown game 'go'"),
    (["play", "thousand", RANDOM, str(BOTS / "greedy"), RANDOM], "bot 'greedy'"),
    (["check", RANDOM, "--game", "block", "-o", "target=-3"], "option 'target': -3 is not allowed"),
    (["check", RANDOM], "say which game the bot plays"),
    (["play", "block", RANDOM, RANDOM, "-t", "1"],
     "time control '1': give the bank too, as MOVE+BANK in seconds: '1+10', or '1+0' for no bank"),
    (["play", "block", RANDOM, str(BOTS / "random" / "bot.toml")],
     "bot folder '" + str(BOTS / "random" / "bot.toml") + "' is a file, not a folder; give the "
     "folder that holds bot.toml"),
])
def test_bad_input_is_one_clear_line_and_exit_code_2(args, words):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert "Traceback" not in result.output
    assert result.output.strip().count("\n") == 0 or "Usage:" in result.output


def test_command_that_does_not_exist(tmp_path):
    (tmp_path / "bot.toml").write_text('command = "no-such-interpreter main.py"\n')
    result = CliRunner().invoke(cli, ["play", "block", RANDOM, str(tmp_path)])
    assert result.exit_code == 2
    assert "command 'no-such-interpreter' was not found on PATH" in result.output


@pytest.mark.slow
def test_check_passes_a_good_bot_in_every_seat_of_every_player_count():
    result = invoke("check", RANDOM, "--game", "block", "--full")
    assert result.exit_code == 0, result.output
    assert "all checks passed" in result.output
    assert "; whole matches; " in result.output and "when capped" not in result.output
    for n in (2, 3, 4):
        for seat in range(n):
            assert f"{n} players, seat {seat}, default options" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("game, counts, unit", [("block", (2, 3, 4), "deals"),
                                                 ("domino-cribbage", (2,), "deals"),
                                                 ("thousand", (2, 3, 4), "deals"),
                                                 ("dice-1000", tuple(range(2, 9)), "rounds")])
def test_check_caps_each_match_at_a_few_deals_in_every_seat_by_default(game, counts, unit):
    """The quick check: every seat of every player count, each match cut short (and said so),
    and every match asks the bot in the seat it checks at least one decision: a match capped
    before that seat had a choice (Dice 1000's forced rolls before a seat has opened) plays on
    past the cap until it has had one."""
    result = invoke("check", RANDOM, "--game", game)
    assert result.exit_code == 0, result.output
    option = "max_rounds" if unit == "rounds" else "max_deals"
    assert f"each match capped at 2 {unit} ({option}=2, or longer until the seat checked has " \
        "been asked; --full plays whole matches)" in result.output
    lines = [line for line in result.output.splitlines() if " players, seat " in line]
    assert [line.split(",")[:2] for line in lines] == [
        [f"{n} players", f" seat {seat}"] for n in counts for seat in range(n)]
    decided = [int(re.search(r": ok, (\d+) decisions? of its own", line).group(1)) for line in lines]
    assert min(decided) >= 1, lines
    # a match is capped at 2, or at twice that for every time it was played on (or ended sooner)
    caps = [re.search(rf" when capped after (\d+) {unit},", line) for line in lines]
    assert all(int(cap.group(1)) in (2, 4, 8, 16, 32, 64) for cap in caps if cap), lines
    assert sum(1 for cap in caps if cap and cap.group(1) == "2") > len(lines) // 3, lines


@pytest.mark.slow
@pytest.mark.parametrize("when, failing", [
    ("seat=1", ["2 players, seat 1", "3 players, seat 1", "4 players, seat 1"]),
    ("players=3", ["3 players, seat 0", "3 players, seat 1", "3 players, seat 2"]),
])
def test_check_catches_a_bot_that_fails_in_one_seat_or_player_count(tmp_path, when, failing):
    bot = tmp_path / "picky"
    shutil.copytree(Path(__file__).parent / "bots" / "picky", bot)
    (bot / "bot.toml").write_text(f'command = "python3 main.py {when}"\n')
    result = invoke("check", str(bot), "--game", "block")
    assert result.exit_code == 1, result.output
    assert f"{len(failing)} problem(s) found" in result.output
    problems = result.output.split("problem(s) found:")[1]
    for label in failing:
        assert f"- {label}, default options" in problems
        assert "crash" in problems and "this bot breaks when" in problems


@pytest.mark.slow
def test_check_under_a_tournament_config(tmp_path):
    config = tmp_path / "league.toml"
    config.write_text('game = "block"\nentrants = ["a", "b"]\n[options]\ntarget = 20\n'
                      '[format]\nplayers = 3\n[time_control]\nmove_ms = 700\nbank_ms = 900\n')
    result = invoke("check", RANDOM, "--config", str(config))
    assert result.exit_code == 0, result.output
    assert "block, 3 players, every seat (3 matches)" in result.output
    assert "target=20" in result.output and "700 ms a move + 900 ms bank" in result.output
    assert "2 players" not in result.output.split("\n", 1)[1]


@pytest.mark.slow
def test_check_takes_options_like_play():
    result = invoke("check", RANDOM, "--game", "block", "-o", "single_deal=true")
    assert result.exit_code == 0, result.output
    assert "single_deal=true" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("fixture, words", [
    ("illegal_action", "illegal action: decision "),
    ("wrong_version", "handshake failed: speaks protocol version 2"),
    ("crash_at_start", "RuntimeError: model file not found"),
    ("prints_before_ready", "protocol error: during the handshake: stdout began with text "
                            "'debug: starting up"),
    ("build_fails", "build failed: build step `sh -c"),
])
def test_check_reports_problems_in_plain_words(fixture, words):
    result = invoke("check", str(MISBEHAVING / fixture), "--game", "block", "-t", "0.5+0.5")
    assert result.exit_code == 1, result.output
    assert "problem(s) found" in result.output
    assert words in result.output


@pytest.mark.parametrize("command", ["play", "check"])
def test_bot_text_reaches_the_terminal_with_its_control_characters_visible(command):
    """A bot's stderr may hold escape sequences (OSC window title and clipboard, DCS, CSI, their
    C1 forms, a carriage return): every control character but newline and tab is shown as \\xNN,
    so none reaches the terminal. (A name holding them is refused: see the name rule below.)"""
    bot = str(MISBEHAVING / "terminal_escapes")
    if command == "play":
        result = invoke("play", "block", bot, RANDOM)
    else:
        result = invoke("check", bot, "--game", "block")
    out = result.output
    assert result.exit_code in (0, 1), out
    assert "crash" in out.lower()
    for control in ("\x1b", "\x07", "\x9b", "\x9c", "\x9d", "\r"):
        assert control not in out, (control, out)
    assert "\\x1b]0;pwned-title\\x07" in out          # the title in its stderr
    assert "clipboard \\x1b]52;c;" in out and "\\x9b31m" in out
    assert "carriage\\x0dreturn and tab\tstay" in out
    assert surviving_children() == []


LIMITS_BOT = """
import resource, sys
from protocol.sdk import run

memory = resource.getrlimit(resource.RLIMIT_AS)[0] // (1024 * 1024)
cpu = resource.getrlimit(resource.RLIMIT_CPU)[0]
sys.stderr.write(f"limits: memory {memory} MiB, cpu {cpu} s\\n")
run(lambda observation, legal: legal[0])
"""


def test_play_passes_sandbox_limits_and_names_a_bad_one(tmp_path):
    """The limits given on the command line are the ones the bot lives under (it reads them)."""
    bot = tmp_path / "limits"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "limits"\ncommand = "python3 main.py"\n')
    (bot / "main.py").write_text(LIMITS_BOT)
    level = "rlimits" if os.geteuid() == 0 else "process-group"
    replay = tmp_path / "m.json"
    result = invoke("play", "block", str(bot), RANDOM, "-q", "--limits",
                    f"memory_mb=512,cpu_seconds=5,cpu_ceiling_seconds=7,sandbox={level}",
                    "--replay", str(replay))
    assert result.exit_code == 0, result.output
    record = json.loads(replay.read_text())
    assert record["sandbox"] == level
    # RLIMIT_CPU is the ceiling per process; cpu_seconds is the referee's budget
    assert "limits: memory 512 MiB, cpu 7 s" in record["statuses"][0]["stderr_tail"]
    bad = CliRunner().invoke(cli, ["play", "block", RANDOM, RANDOM, "--limits", "memory=5"])
    assert bad.exit_code == 2 and "unknown limit 'memory'" in bad.output


def test_a_time_control_names_its_bank_even_when_there_is_none(tmp_path):
    """'-t 1' is refused; its advice, '1+0', plays with a 1-second move and no bank."""
    replay = tmp_path / "m.json"
    result = invoke("play", "block", RANDOM, RANDOM, "-q", "-t", "1+0", "--replay", str(replay))
    assert result.exit_code == 0, result.output
    assert json.loads(replay.read_text())["time_control"]["bank_ms"] == 0


def test_output_files_are_checked_before_the_first_move(tmp_path):
    """A file or folder that cannot be written is one line and exit code 2, before any match."""
    (tmp_path / "afile").write_text("")
    config = tmp_path / "t.toml"
    config.write_text(f'game = "block"\nentrants = ["{RANDOM}", "{RANDOM}"]\n'
                      'output = "afile/results"\n')
    cases = [
        (["play", "block", RANDOM, RANDOM, "--replay", "/nonexistent/dir/x.json"],
         "--replay '/nonexistent/dir/x.json': its folder '/nonexistent/dir' does not exist"),
        (["play", "block", RANDOM, RANDOM, "--replay", str(tmp_path)],
         f"--replay '{tmp_path}' is a folder; give the name of a file to write"),
        (["play", "block", RANDOM, RANDOM, "--replay", str(tmp_path / "afile" / "x.json")],
         f"'{tmp_path / 'afile'}' is a file, not a folder"),
        (["tournament", "replay", str(tmp_path), "1", "--replay", "/nonexistent/dir/x.json"],
         "--replay '/nonexistent/dir/x.json': its folder '/nonexistent/dir' does not exist"),
        (["tournament", "run", str(config), "--output", str(tmp_path / "afile" / "out")],
         f"--output '{tmp_path / 'afile' / 'out'}': '{tmp_path / 'afile'}' is a file, not a folder"),
        (["tournament", "run", str(config)],
         f"the config's 'output' '{tmp_path / 'afile' / 'results'}': '{tmp_path / 'afile'}' is a file"),
        (["new-bot", str(tmp_path / "afile" / "bot"), "--game", "block", "--lang", "python"],
         f"bot folder '{tmp_path / 'afile' / 'bot'}': '{tmp_path / 'afile'}' is a file, not a folder"),
    ]
    for args, words in cases:
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
        assert result.output.count("\n") == 1 and "Traceback" not in result.output
        assert "seat 0" not in result.output  # no match began
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "t.toml"]


def test_one_rule_for_bot_names(tmp_path):
    """`play` and `new-bot` take the same names: a space, or a control character, is refused by
    both in the same words, shown visibly."""
    for name, shown in (("my bot", "'my bot'"), ("esc\x1b]0;title\x07", "'esc\\x1b]0;title\\x07'")):
        bot = tmp_path / "bot"
        shutil.rmtree(bot, ignore_errors=True)
        bot.mkdir()
        (bot / "bot.toml").write_text(f'name = {json.dumps(name)}\ncommand = "python3 main.py"\n')
        (bot / "main.py").write_text("")
        played = CliRunner().invoke(cli, ["play", "block", str(bot), RANDOM])
        made = CliRunner().invoke(cli, ["new-bot", str(tmp_path / "new"), "--game", "block",
                                        "--lang", "python", "--name", name])
        for result in (played, made):
            assert result.exit_code == 2, result.output
            assert f"bot name {shown} is not allowed: use 1 to 64 letters" in result.output
            assert "\x1b" not in result.output and result.output.count("\n") == 1
    made = invoke("new-bot", str(tmp_path / "new"), "--game", "block", "--lang", "python",
                  "--name", "ana.my_bot-2")
    assert made.exit_code == 0, made.output
    assert "ana.my_bot-2" in invoke("play", "block", str(tmp_path / "new"), RANDOM, "-q").output
