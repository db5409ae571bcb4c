"""``sample_state`` of OpenSpiel games (arena/games/openspiel/sample.py) over whole matches of gin
rummy: at every point of a match, for each seat, a world whose observation for that seat is the
one given, and in which the seat to move has the same legal actions. The matches are played at
random (the stock played down to the wall) and by OpenSpiel's simple gin rummy bot (a knock, the
knocker's melds and the other seat's layoffs)."""
from __future__ import annotations

import random

import pytest

from arena.games import get_game

pyspiel = pytest.importorskip("pyspiel")


def play_and_sample(seed: int, policy: str, every: int) -> int:
    """A gin rummy match played by ``policy`` ("random" or "simple"), sampled for each seat at
    every ``every``-th decision and at the end; the decisions played."""
    game = get_game("openspiel:gin_rummy")
    options = game.make_options(2)
    rng = random.Random(f"policy {seed}")
    state = game.new_match(options, seed)
    bots = [pyspiel.make_simple_gin_rummy_bot(state.spiel_game.get_parameters(), p) for p in (0, 1)]
    samples = 0
    while True:
        if state.moves % every == 0 or state.is_terminal():
            for seat in range(2):
                mine = state.observation(seat)
                world = game.sample_state(options, mine, random.Random(f"sample {seed} {samples}"))
                samples += 1
                assert world.observation(seat) == mine, (seed, state.moves, seat)
                assert world.current_player() == state.current_player()
                if state.current_player() == seat:
                    assert world.legal_actions() == state.legal_actions()
        if state.is_terminal():
            return state.moves
        if policy == "random":
            state.apply(rng.choice(state.legal_actions()))
        else:
            chosen = bots[state.current_player()].step(state.spiel)
            state.apply(next(text for text, a in state._ids.items() if a == chosen))


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", [0, 1])
def test_gin_rummy_is_sampled_along_a_match_played_to_the_wall(seed: int) -> None:
    assert play_and_sample(seed, "random", every=3) > 100  # the stock played down to the wall


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_gin_rummy_is_sampled_at_every_point_of_matches_that_end_in_a_knock() -> None:
    # seeds 21, 28 and 33: the other seat knocks, lays its melds and passes; the seat lays off
    for seed in (21, 28, 33):
        assert play_and_sample(seed, "simple", every=1) >= 12
