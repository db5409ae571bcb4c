"""The bundled Dice 1000 bots: threshold (two folders, two settings) and expecti.

Strength is measured in-process (the engine and the strategy modules imported, no processes), on
duplicate pairs (each seed played twice with the seats swapped), by a sequential test that stops
as soon as the claim is significant (tests/sequential.py), at most 1,000 pairs.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
from pathlib import Path

import pytest

from arena.bots import load_bot
from arena.games import get_game
from arena.options import options_to_dict
from arena.record import OK
from arena.referee import play_match
from tests.sequential import H1, sprt

BOTS = Path(__file__).resolve().parents[2] / "bots"
GAME = get_game("dice-1000")
MAX_PAIRS = 1000


def load(folder: str, file: str):
    """A bot's module, read from its folder, which is on the path as when the bot runs (its
    modules import their neighbours)."""
    if str(BOTS / folder) not in sys.path:
        sys.path.append(str(BOTS / folder))
    spec = importlib.util.spec_from_file_location(f"dice_{folder}_{file}", BOTS / folder / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


THRESHOLD = load("threshold", "main.py")
EXPECTI = load("expecti", "strategy.py")


def expecti(obs, legal, options, rng):
    return EXPECTI.choose(obs, legal, options)


def threshold_300(obs, legal, options, rng):
    return THRESHOLD.choose(obs, legal, 300)


def random_bot(obs, legal, options, rng):
    return rng.choice(legal)


def play(options, seed, policies):
    state = GAME.new_match(options, seed)
    values = options_to_dict(options)
    rng = random.Random(f"random player {seed}")
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = policies[seat](state.observation(seat), legal, values, rng)
        assert action in legal
        state.apply(action)
    return state.result()


def pair_scores(bot, other, options):
    """The bot's share of wins in each duplicate pair: seed 0, 1, ... with the bot in each seat."""
    for seed in range(MAX_PAIRS):
        wins = 0
        for seat in (0, 1):
            policies = [other, other]
            policies[seat] = bot
            ranks = play(options, seed, policies).ranks
            wins += ranks[seat] == 1 and ranks.count(1) == 1
        yield wins / 2


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_expecti_beats_threshold():
    """At least 60% against threshold 300 (98% measured over 2,000 matches)."""
    verdict = sprt(pair_scores(expecti, threshold_300, GAME.make_options(2)), 0.5, 0.6,
                   max_outcomes=MAX_PAIRS)
    print(f"expecti vs threshold 300: {verdict}")
    assert verdict.outcome == H1, verdict


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_expecti_beats_random():
    """At least 82% against random play (86% measured over 2,000 matches)."""
    verdict = sprt(pair_scores(expecti, random_bot, GAME.make_options(2)), 0.75, 0.82,
                   max_outcomes=MAX_PAIRS)
    print(f"expecti vs random: {verdict}")
    assert verdict.outcome == H1, verdict


@pytest.mark.slow
@pytest.mark.parametrize("n, values", [
    (2, {"variant": "B75_850"}), (3, {"barrel": "open"}), (4, {"barrel": "none", "straights": True}),
    (5, {"bolt_streak": "consecutive", "bolts_when_restricted": True}), (8, {}),
    (3, {"barrel": "entry_reset", "barrel_attempts": 2, "pits": "none"}),
])
def test_bots_play_legal_moves_under_every_rule_set(n, values):
    options = GAME.make_options(n, values)
    pool = [expecti, threshold_300, random_bot]
    for seed in range(4):
        play(options, seed, [pool[(seat + seed) % 3] for seat in range(n)])


def test_threshold_stops_at_its_setting():
    obs = {"turn": {"total": 295}}
    assert THRESHOLD.choose(obs, ["roll", "stop"], 300) == "roll"
    assert THRESHOLD.choose({"turn": {"total": 300}}, ["roll", "stop"], 300) == "stop"
    assert THRESHOLD.choose({"turn": {"total": 200}}, ["roll", "stop"], 200) == "stop"
    assert THRESHOLD.choose({"turn": {"total": 500}}, ["roll"], 300) == "roll"


def position_obs(**changes):
    obs = {"seat": 0, "num_players": 2, "to_move": 0, "first": 0, "round": 5,
           "scores": [100, 100], "opened": [True, True], "bolts": [0, 0], "on_barrel": [False, False],
           "barrel_attempts": [0, 0], "falls": [0, 0], "entry": [75, 75], "open_points": [0, 0],
           "turns": [5, 4], "turn": {"seat": 0, "number": 5, "total": 0, "dice_left": 5, "rolls": []},
           "last_turn": None}
    turn = changes.pop("turn", {})
    obs.update(changes)
    obs["turn"] = dict(obs["turn"], **turn)
    return obs


def test_expecti_stops_when_stopping_wins():
    obs = position_obs(scores=[950, 100], turn={"total": 50, "dice_left": 4})
    assert EXPECTI.choose(obs, ["roll", "stop"]) == "stop"


def test_expecti_rolls_five_fresh_dice_at_a_small_total_and_stops_on_one_die_with_a_big_one():
    assert EXPECTI.choose(position_obs(turn={"total": 20, "dice_left": 5}), ["roll", "stop"]) == "roll"
    assert EXPECTI.choose(position_obs(turn={"total": 150, "dice_left": 1}), ["roll", "stop"]) == "stop"


def test_expecti_avoids_the_dump_truck():
    # banking 50 from 505 lands on 555 (-> 0): it rolls on instead
    obs = position_obs(scores=[505, 0], turn={"total": 50, "dice_left": 1})
    assert EXPECTI.choose(obs, ["roll", "stop"]) == "roll"


def test_expecti_uses_the_options_from_the_hello():
    obs = position_obs(scores=[505, 0], turn={"total": 50, "dice_left": 1})
    assert EXPECTI.choose(obs, ["roll", "stop"], {"dump_truck": 0}) == "stop"


def test_expecti_knows_the_barrel_chance():
    assert abs(EXPECTI.reach_probability(120, False) - 0.0676) < 0.001


@pytest.mark.slow  # a real match through the referee
@pytest.mark.parametrize("folder, args", [("threshold", ()), ("threshold", ("200",)), ("expecti", ())])
def test_bot_runs_as_a_process_through_the_referee(folder, args):
    """``args`` as a tournament entrant adds them (``args = ["200"]``): the threshold bot stops
    at its command's last argument, 300 by default."""
    bot, rnd = load_bot(BOTS / folder), load_bot(BOTS / "random")
    bot = dataclasses.replace(bot, command=bot.command + args)
    record = play_match("dice-1000", [bot, rnd], seed=6)
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    if folder == "threshold":  # (seed 6: it stops at 375 with 300, from 200 up with 200)
        limit = int(args[0]) if args else 300
        stops = [e["turn_total"] for e in record.events
                 if e["type"] == "action" and e["seat"] == 0 and e["action"] == "stop"]
        assert stops and limit <= min(stops) < limit + 100, stops
