"""The OpenSpiel bot (bots/ospiel): Monte Carlo tree search on OpenSpiel's engine, staged into
the sandbox. Its search takes a win in one and blocks a loss in one; through the real referee and
the sandbox it plays games with and without hidden information, simultaneous moves included, and
leaves a note of its search."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from arena.bots import load_bot  # noqa: E402
from arena.games import get_game  # noqa: E402
from arena.record import OK  # noqa: E402
from arena.referee import TimeControl, play_match  # noqa: E402
from arena.sandbox import files  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OSPIEL = ROOT / "bots" / "ospiel"
sys.path.insert(0, str(OSPIEL))
import mcts  # noqa: E402
import player  # noqa: E402


def connect_four(moves: list[int]):
    state = pyspiel.load_game("connect_four").new_initial_state()
    for column in moves:
        state.apply_action(column)
    return state


def test_gin_rummy_playouts_knock_where_random_ones_reach_the_wall() -> None:
    # a playout at random never knocks (a draw at the wall, which tells the search nothing);
    # the bot's gin rummy playouts (OpenSpiel's simple bot draws and discards) end in a knock
    game = pyspiel.load_game("gin_rummy")
    policy = player.playout_policy("openspiel:gin_rummy", game)
    assert policy is not None and player.playout_policy("openspiel:leduc_poker", game) is None
    rng = random.Random(4)
    knocked = 0
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(mcts.chance_outcome(state, rng) if state.is_chance_node() else policy(state))
        knocked += state.returns()[0] != 0
    assert knocked >= 4


@pytest.mark.parametrize("moves, expected", [
    ([0, 6, 1, 6, 2, 5], 3),   # x to move, three in a row on the bottom row: 3 wins
    ([0, 6, 1, 6, 2], 3),      # o to move: 3 blocks x's four
])
def test_search_finds_the_move_that_decides(moves: list[int], expected: int) -> None:
    state = connect_four(moves)
    root = mcts.search(lambda i: state.clone(), random.Random(1), 1.0, simulations=800)
    assert mcts.best(root, state.legal_actions()) == expected


def test_the_solver_proves_a_win_and_a_forced_loss() -> None:
    # x to move, three in a row on the bottom row: 3 is proven a win, exactly
    state = connect_four([0, 6, 1, 6, 2, 5])
    root = mcts.search(lambda i: state.clone(), random.Random(1), 1.0, simulations=50, solve=True)
    assert root[3].outcome == (1.0, -1.0)
    assert mcts.best(root, state.legal_actions(), 0) == 3
    # o to move; x holds 2 3 4 of the bottom row with 1 and 5 open: whatever o plays, x wins
    # next, and the search proves every move of o a loss from x's winning replies
    state = connect_four([2, 6, 3, 6, 4])
    root = mcts.search(lambda i: state.clone(), random.Random(2), 1.0, simulations=2000, solve=True)
    assert {a: root[a].outcome for a in state.legal_actions()} == {a: (1.0, -1.0) for a in range(7)}
    # one move earlier, x to move: 4 (or 1) makes that double threat, proven a win two moves deep
    state = connect_four([2, 6, 3, 6])
    root = mcts.search(lambda i: state.clone(), random.Random(3), 1.0, simulations=4000, solve=True)
    assert root[4].outcome == (1.0, -1.0)
    assert mcts.best(root, state.legal_actions(), 0) in (1, 4)


def test_pyspiel_is_staged_beside_the_sdk() -> None:
    assert "pyspiel" in next(iter(files.engine_extensions()))
    assert (files.sdk_dir() / next(iter(files.engine_extensions()))).is_file()


@pytest.mark.parametrize("name, values", [("connect_four", {}), ("leduc_poker", {}), ("goofspiel", {"num_cards": 4}),
                                          ("kuhn_poker", {"hands": 4}), ("bargaining", {})])
def test_the_bot_plays_through_the_sandbox(name: str, values: dict) -> None:
    game = get_game("openspiel:" + name)
    bots = [load_bot(OSPIEL), load_bot(ROOT / "bots" / "random")]
    options = game.make_options(2, values)
    record = play_match(game, bots, options=options, seed=3, time_control=TimeControl(100, 1000))
    assert [s.status for s in record.statuses] == [OK, OK]
    mine = [d for d in record.decisions if d["seat"] == 0]
    assert mine and all("simulations" in d.get("note", "") for d in mine), mine[:2]
    if "hands" in values:  # each hand searched (as the wrong player a bot samples no world)
        assert sum(e["type"] == "hand_end" for e in record.events) == 4


def test_a_manifest_may_name_a_family_of_games() -> None:
    from arena.bots import bundled_bots
    bot = load_bot(OSPIEL)
    assert bot.games == ("openspiel:",)
    assert bot.plays("openspiel:hex") and not bot.plays("block") and not bot.plays("openspiel")
    assert "ospiel" in [b.name for b in bundled_bots("openspiel:hex")]
    assert "ospiel" not in [b.name for b in bundled_bots("block")]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_bot_beats_random_by_200_elo_in_connect_four() -> None:
    """The cheap one of benchmarks/ospiel_strength.py's claims (the rest are measured there and
    written in docs/games/openspiel.md): duplicate pairs at 30 simulations a move against a
    random player, until the sequential test says "at least +200 Elo" (or not)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import ospiel_strength as strength

    from tests.sequential import H1, sprt
    game = get_game("openspiel:connect_four")
    options = game.make_options(2)
    pairs = strength.pairs(game, options, lambda seed: strength.ospiel_player(game, options, 30, seed),
                           strength.random_player)
    verdict = sprt(pairs, *strength.SPRT_RANDOM, alpha=0.05, beta=0.05, max_outcomes=60)
    assert verdict.outcome == H1, verdict


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_the_bot_beats_random_by_200_elo_in_poker_matches_of_30_hands(name: str) -> None:
    """The poker games' claim as benchmarks/ospiel_strength.py measures it: a match of one hand
    cannot show +200 Elo (docs/games/openspiel.md); a match of 30 hands, 100 simulations a move."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import ospiel_strength as strength

    from tests.sequential import H1, sprt
    game = get_game("openspiel:" + name)
    options = game.make_options(2, {"hands": 30})
    pairs = strength.pairs(game, options, lambda seed: strength.ospiel_player(game, options, 100, seed),
                           strength.random_player)
    verdict = sprt(pairs, *strength.SPRT_RANDOM, alpha=0.05, beta=0.05, max_outcomes=200)
    assert verdict.outcome == H1, verdict


def test_the_ceiling_is_the_best_response_and_the_sum_of_hands() -> None:
    """benchmarks/ospiel_strength.py's ceiling: Kuhn poker's best response to random finishes
    first in 0.6875 of a pair's matches (docs/games/openspiel.md); over hands, a match's score is
    that of the sum of the hands' returns, each hand from its player's spread."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import ospiel_strength as strength
    game = get_game("openspiel:kuhn_poker")
    kuhn = game.spiel_game(game.make_options(2), None)
    seats = [strength.best_response(kuhn, me, strength.first_place)[0] for me in (0, 1)]
    assert sum(seats) / 2 == pytest.approx(0.6875)
    coin, sure = {1.0: 0.5, -1.0: 0.5}, {1.0: 1.0}
    assert strength.hands_score([coin, coin], 2, 0) == pytest.approx(0.25 + 0.5 * 0.5)
    assert strength.hands_score([coin, coin], 3, 0) == pytest.approx(0.5)
    # seat 0 is OpenSpiel's player 0 in hands 0 and 2 (+1 each), player 1 in hand 1 (0)
    assert strength.hands_score([sure, {0.0: 1.0}], 3, 0) == pytest.approx(1.0)
    assert strength.hands_score([sure, {0.0: 1.0}], 1, 1) == pytest.approx(0.5)
