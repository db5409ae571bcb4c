"""The conformance checks of tests/games/test_conformance.py (hidden information, deterministic
replay, sample_state, clone, illegal actions, results) on a chosen set of OpenSpiel games."""
from __future__ import annotations

import pytest

from tests.games.test_conformance import Spec, play_match

pytest.importorskip("pyspiel")

from arena.games import get_game

# (game, seeds): the longer games play fewer matches
CHOSEN = [("connect_four", 3), ("hex", 2), ("backgammon", 1), ("kuhn_poker", 6), ("leduc_poker", 6),
          ("liars_dice", 4), ("goofspiel", 3), ("gin_rummy", 1)]


@pytest.mark.parametrize("name, seeds", CHOSEN, ids=[c[0] for c in CHOSEN])
def test_openspiel_conformance(name: str, seeds: int) -> None:
    game = get_game("openspiel:" + name)
    options = game.make_options(game.default_players)
    stats = {"hidden": 0, "changed": 0}
    for seed in range(seeds):
        play_match(game, options, game.default_players, seed, Spec(seeds=range(seeds)), stats)
    if game.hidden_information:
        # a world that differs in what the seat may not know is found at some points at least
        # (at others nothing is hidden: goofspiel's first bid of a turn, kuhn's last move)
        assert stats["changed"] > 0, stats
