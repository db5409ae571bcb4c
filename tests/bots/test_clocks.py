"""No bundled bot loses on time at a clock that arena itself chooses: the demo's (each game's
``demo_time_control``) and the check's (``arena.checker.DEFAULT_TIME_CONTROL``).

Real matches of the bundled bots of each game against each other, through the referee and the
sandbox, at the table size the demo plays; every bot sits at one table at least. What decides is
the referee's record: every seat must end ``ok`` (a timeout is a status, not a wall-clock guess).
"""
from __future__ import annotations

import pytest

from arena.bots import bundled_bots
from arena.checker import DEFAULT_TIME_CONTROL, QUICK_LENGTH
from arena.games import GAMES
from arena.record import OK
from arena.referee import TimeControl, play_match
from tournaments.cli import demo_config

SEEDS = (1, 2)


def tables(game) -> list[list]:
    """Tables of the demo's size that seat every bundled bot of the game at least once."""
    bots = bundled_bots(game.name)
    players = game.demo_players or game.default_players
    return [[bots[(start + j) % len(bots)] for j in range(players)]
            for start in range(0, len(bots), players)]


def play_every_table(game, time_control: TimeControl, options_of) -> None:
    for table in tables(game):
        options = options_of(len(table))
        for seed in SEEDS:
            record = play_match(game, table, options=options, seed=seed, time_control=time_control)
            failed = [f"{b.name} in seat {i}: {s.status} ({s.reason})"
                      for i, (b, s) in enumerate(zip(table, record.statuses)) if s.status != OK]
            assert not failed, f"{game.name}, seed {seed}: {failed}"


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_bundled_bot_plays_the_demos_matches_at_its_clock_without_a_timeout(name):
    """The demo's matches: whole ones, or as long as the game's ``demo_length``."""
    game, options = GAMES[name], demo_config(name).options
    play_every_table(game, TimeControl(*game.demo_time_control),
                     lambda n: game.make_options(n, options))


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_bundled_bot_plays_the_checks_matches_at_its_clock_without_a_timeout(name):
    game = GAMES[name]
    play_every_table(game, DEFAULT_TIME_CONTROL,
                     lambda n: game.capped_options(n, {}, QUICK_LENGTH))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_checks_clock_is_no_shorter_than_the_demos(name):
    """A bot that keeps to the demo's clock keeps to the check's (in whole matches too)."""
    move_ms, bank_ms = GAMES[name].demo_time_control
    assert DEFAULT_TIME_CONTROL.move_ms >= move_ms and DEFAULT_TIME_CONTROL.bank_ms >= bank_ms
