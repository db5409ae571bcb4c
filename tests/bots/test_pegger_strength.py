"""The pegger Domino Cribbage bot: it plays only legal actions, runs as a bot folder through the
referee, and beats random play in at least 75% of duplicate matches.

The strength test plays deals (seeds) twice each in-process through the engine (no processes):
the pegger in seat 0 then in seat 1 against a seeded random choice, so both players hold both
sides of every hand's tiles, until a sequential test (tests/sequential.py) settles the claim.
"""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from arena.bots import load_bot
from arena.games import get_game
from arena.options import options_to_dict
from arena.record import OK
from arena.referee import play_match
from tests.sequential import H1, sprt

BOTS = Path(__file__).resolve().parents[2] / "bots"
GAME = get_game("domino-cribbage")
MAX_PAIRS = 100


def load_strategy():
    spec = importlib.util.spec_from_file_location("pegger_strategy", BOTS / "pegger" / "strategy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


strategy = load_strategy()


def play(options, seed: int, pegger_seats: set[int]):
    strategy.set_options(options_to_dict(options))
    state = GAME.new_match(options, seed)
    rng = random.Random(f"random player {seed} {sorted(pegger_seats)}")
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if seat in pegger_seats:
            action = strategy.choose(state.observation(seat), list(legal))
            assert action in legal
        else:
            action = rng.choice(legal)
        state.apply(action)
    return state.result()


@pytest.mark.slow
def test_pegger_beats_random_in_duplicate_matches():
    options = GAME.make_options(2)

    def pair_scores():
        for seed in range(MAX_PAIRS):
            yield sum(play(options, seed, {seat}).ranks[seat] == 1 for seat in (0, 1)) / 2

    verdict = sprt(pair_scores(), 0.65, 0.75, max_outcomes=MAX_PAIRS)
    print(f"pegger vs random: {verdict}")
    assert verdict.outcome == H1, verdict


@pytest.mark.parametrize("values", [
    {"starter_in_pegging_count": False}, {"target": 61, "zero_tile_rescores_15": False},
    {"show_double_bonus": 3, "starter_double_counts_in_show": False, "heels_points": 0},
])
def test_pegger_plays_only_legal_actions(values):
    options = GAME.make_options(2, values)
    for seed in range(4):
        play(options, seed, {0, 1} if seed % 2 else {seed % 2})


def test_pegger_discard_keeps_the_best_hand():
    # keeping 5-5 2-3 1-4 0-5 (four fives and tens) beats anything else by far
    strategy.set_options({})
    obs = {"seat": 0, "dealer": 0, "phase": "discard", "hand": ["0-5", "1-4", "2-3", "5-5", "0-1", "6-6"]}
    legal = [f"discard {a} {b}" for i, a in enumerate(obs["hand"]) for b in obs["hand"][i + 1:]]
    assert strategy.choose(obs, legal) == "discard 0-1 6-6"


def test_pegger_takes_a_fifteen_and_avoids_giving_one():
    strategy.set_options({})
    base = {"seat": 0, "dealer": 1, "phase": "play", "discard": ["0-0", "0-1"], "starter": "6-6",
            "played": [[], ["4-6"]], "hand_sizes": [4, 3], "said_go": [False, False]}
    # count 10: 2-3 makes fifteen
    obs = dict(base, count=10, sequence=["4-6"], hand=["1-1", "2-3", "3-4", "5-6"])
    assert strategy.choose(obs, ["1-1", "2-3", "3-4", "5-6"]) == "2-3"
    # leading: a 5 (any ten makes fifteen) is the worst lead; a low tile is best
    obs = dict(base, count=0, sequence=[], played=[[], []], hand=["0-5", "1-2", "3-4", "5-6"],
               hand_sizes=[4, 4])
    choice = strategy.choose(obs, ["0-5", "1-2", "3-4", "5-6"])
    assert choice != "0-5"


def test_pegger_runs_as_a_process_through_the_referee():
    pegger, rnd = load_bot(BOTS / "pegger"), load_bot(BOTS / "random")
    record = play_match("domino-cribbage", [pegger, rnd], seed=3)
    assert [s.status for s in record.statuses] == [OK, OK], record.statuses
    assert len(record.decisions) > 10
