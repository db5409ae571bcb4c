"""How strong is the ospiel bot (bots/ospiel)? Sequential tests, in-process, duplicate pairs.

    python benchmarks/ospiel_strength.py random [--game NAME ...] [--simulations N] [--max-pairs N] [-o KEY=VALUE]
    python benchmarks/ospiel_strength.py mcts [--game NAME ...] [--simulations N] [--pairs N] [-o KEY=VALUE]
    python benchmarks/ospiel_strength.py ceiling [--game NAME ...] [-o hands=N]

Each pair plays one seed twice through arena's engine (chance from the seed's streams), the bot
in seat 0 and then in seat 1, at a fixed number of simulations a move (reproducible); a match
scores 1 for first place alone, 0.5 for a shared first place, 0 else, and a pair the mean of its
two. ``random``: against a uniformly random player, in the chosen games (default the eight of
docs/games/openspiel.md), until Wald's sequential test (tests/sequential.py) settles the claim
"at least +200 Elo" (H0: a score of 0.76, +200 Elo; H1: 0.86; alpha = beta = 0.05).
``mcts``: against OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``, uct_c 2,
one random rollout, its defaults otherwise) at the same number of simulations a move, in connect
four and hex (default), ``--pairs`` pairs, and the sequential test of "within 50 Elo" (H0: 0.43,
-50 Elo; H1: 0.5). Both print the Elo difference with its 95% interval (the normal approximation
over the pairs' scores). ``ceiling``: the most any player can score against the random one in
a small game (default Kuhn and Leduc poker), the best response on the chance of finishing first,
worked out exactly over the game tree: where it is below 0.76, "+200 Elo against random" cannot
be reached by anyone. With ``-o hands=N`` (a match of N hands, docs/games/openspiel.md) the
players play the matches of several hands; ``ceiling -o hands=N`` gives the score of the best
response on each hand's chips, the sums over N hands worked out exactly.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bots" / "ospiel"))

import mcts  # noqa: E402
import player  # noqa: E402

from arena.game import Chance  # noqa: E402
from arena.games import get_game  # noqa: E402
from tests.sequential import sprt  # noqa: E402

CHOSEN = ("connect_four", "hex", "backgammon", "kuhn_poker", "leduc_poker", "liars_dice", "goofspiel", "gin_rummy")
SPRT_RANDOM = (0.76, 0.86)   # +200 Elo, +314 Elo
SPRT_MCTS = (0.43, 0.5)      # -50 Elo, equal
OPTIONS = {"hex": {"board_size": 7}}  # the mcts comparison's hex: 7 x 7 (11 x 11 playouts cost 2.5x as much)


def elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return 400 * math.log10(score / (1 - score))


def interval(scores: list[float]) -> str:
    mean = statistics.fmean(scores)
    half = 1.96 * statistics.pstdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.5
    low, high = elo(mean - half), elo(mean + half)
    return f"{elo(mean):+.0f} Elo (95%: {low:+.0f} to {high:+.0f}; mean score {mean:.3f} over {len(scores)} pairs)"


def ospiel_player(game, options, simulations: int, seed: int):
    rng = random.Random(f"ospiel {seed}")
    spiel_game = game.spiel_game(options, Chance(seed))
    scale = mcts.return_scale(spiel_game)

    def choose(state, seat):
        action, _ = player.decide(game, options, spiel_game, scale, state.observation(seat),
                                  state.legal_actions(), rng, simulations=simulations, most_worlds=16)
        return action
    return choose


def random_player(seed: int):
    rng = random.Random(f"random {seed}")
    return lambda state, seat: rng.choice(state.legal_actions())


def openspiel_mcts_player(spiel_game, simulations: int, seed: int):
    import numpy as np
    from open_spiel.python.algorithms import mcts as spiel_mcts
    bot = spiel_mcts.MCTSBot(spiel_game, uct_c=2, max_simulations=simulations,
                             evaluator=spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                             random_state=np.random.RandomState(seed + 1))

    def choose(state, seat):
        action = bot.step(state.spiel)
        return next(t for t, a in state._ids.items() if a == action)
    return choose


def play(game, options, seed: int, seats: list):
    """One match, each seat played by its player; the finished state."""
    state = game.new_match(options, seed)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(seats[seat](state, seat))
    return state


def score_of(state, seat: int) -> float:
    ranks = state.result().ranks
    return 1.0 if ranks[seat] == 1 and ranks.count(1) == 1 else 0.5 if ranks[seat] == 1 else 0.0


def pairs(game, options, make_bot, make_other, start: int = 0):
    seed = start
    while True:
        total = 0.0
        for bot_seat in (0, 1):
            seats = [make_other(seed), make_other(seed)]
            seats[bot_seat] = make_bot(seed)
            total += score_of(play(game, options, seed, seats), bot_seat)
        yield total / 2
        seed += 1


def against_random(name: str, simulations: int, max_pairs: int, values: dict | None = None) -> None:
    game = get_game("openspiel:" + name)
    options = game.make_options(2, values)
    started = time.monotonic()
    scores: list[float] = []

    def outcomes():
        for s in pairs(game, options, lambda seed: ospiel_player(game, options, simulations, seed), random_player):
            scores.append(s)
            yield s
    verdict = sprt(outcomes(), *SPRT_RANDOM, alpha=0.05, beta=0.05, max_outcomes=max_pairs)
    label = name + (f" {values}" if values else "")
    print(f"{label}: ospiel ({simulations} simulations) vs random: {verdict.outcome} after "
          f"{verdict.count} pairs; {interval(scores)}; {time.monotonic() - started:.0f} s", flush=True)


def against_mcts(name: str, simulations: int, count: int, values: dict | None = None) -> None:
    game = get_game("openspiel:" + name)
    values = OPTIONS.get(name, {}) if values is None else values
    options = game.make_options(2, values)
    spiel_game = game.spiel_game(options, Chance(0))
    started = time.monotonic()
    scores: list[float] = []
    for s in pairs(game, options, lambda seed: ospiel_player(game, options, simulations, seed),
                   lambda seed: openspiel_mcts_player(spiel_game, simulations, seed)):
        scores.append(s)
        if len(scores) >= count:
            break
    verdict = sprt(scores, *SPRT_MCTS, alpha=0.05, beta=0.05, max_outcomes=count)
    label = name + (f" {values}" if values else "")
    print(f"{label}: ospiel vs OpenSpiel's MCTS, {simulations} simulations a move each: "
          f"{interval(scores)}; within 50 Elo: {verdict.outcome} after {verdict.count} pairs; "
          f"{time.monotonic() - started:.0f} s", flush=True)


def best_response(spiel_game, me: int, utility) -> tuple[float, dict[float, float]]:
    """The best response of ``me`` to a uniformly random opponent in a two-player game, on the
    expected ``utility`` of its returns (perfect recall: each information set's choice maximises
    the reach-weighted utility of its histories): that expectation, and the distribution of
    ``me``'s return under it."""
    members: dict[str, list] = {}

    def walk(state, reach: float) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                walk(state.child(a), reach * p)
            return
        legal = state.legal_actions()
        if state.current_player() == me:
            members.setdefault(state.information_state_string(me), []).append((state, reach))
        for a in legal:
            walk(state.child(a), reach if state.current_player() == me else reach / len(legal))

    walk(spiel_game.new_initial_state(), 1.0)
    choice: dict[str, int] = {}

    def steps(state):
        """The next states and their chances under the best response."""
        if state.is_chance_node():
            return [(state.child(a), p) for a, p in state.chance_outcomes()]
        legal = state.legal_actions()
        if state.current_player() == me:
            key = state.information_state_string(me)
            if key not in choice:
                choice[key] = max(legal, key=lambda a: sum(r * value(h.child(a)) for h, r in members[key]))
            return [(state.child(choice[key]), 1.0)]
        return [(state.child(a), 1 / len(legal)) for a in legal]

    def value(state) -> float:
        if state.is_terminal():
            return utility(state.returns(), me)
        return sum(p * value(child) for child, p in steps(state))

    spread: dict[float, float] = {}

    def ends(state, p: float) -> None:
        if state.is_terminal():
            r = float(state.returns()[me])
            spread[r] = spread.get(r, 0.0) + p
            return
        for child, q in steps(state):
            ends(child, p * q)

    root = spiel_game.new_initial_state()
    expected = value(root)
    ends(root, 1.0)
    return expected, spread


def first_place(returns, me: int) -> float:
    return 1.0 if returns[me] > returns[1 - me] else 0.5 if returns[me] == returns[1 - me] else 0.0


def chips(returns, me: int) -> float:
    return float(returns[me])


def hands_score(spreads: list[dict[float, float]], hands: int, seat: int) -> float:
    """The score (1 first alone, 0.5 shared) of a match of ``hands`` hands played from ``seat``,
    the returns of each hand drawn from ``spreads`` of the player it is in that hand."""
    total = {0.0: 1.0}
    for hand in range(hands):
        spread, nxt = spreads[(seat - hand) % 2], {}
        for t, p in total.items():
            for r, q in spread.items():
                nxt[t + r] = nxt.get(t + r, 0.0) + p * q
        total = nxt
    return sum(p for t, p in total.items() if t > 0) + 0.5 * sum(p for t, p in total.items() if t == 0)


def ceiling(name: str, hands: int = 1) -> None:
    """One hand: the best response on the chance of finishing first (the most anyone can score).
    Several hands: the best response on the chips of each hand, and the score its sums give
    (a bound for players that play each hand alike; one that plays to the score may do a little
    better)."""
    game = get_game("openspiel:" + name)
    spiel_game = game.spiel_game(game.make_options(2), Chance(0))
    if hands == 1:
        seats = [best_response(spiel_game, me, first_place)[0] for me in (0, 1)]
        what = "the best response to random"
    else:
        found = [best_response(spiel_game, me, chips) for me in (0, 1)]
        spreads = [spread for _, spread in found]
        seats = [hands_score(spreads, hands, seat) for seat in (0, 1)]
        what = (f"in matches of {hands} hands, the best response on chips to random (a hand: "
                f"{found[0][0]:+.3f} chips as player 0, {found[1][0]:+.3f} as player 1)")
    pair = sum(seats) / 2
    print(f"{name}: {what} scores {seats[0]:.3f} in seat 0, {seats[1]:.3f} in "
          f"seat 1, {pair:.4f} a pair: {elo(pair):+.0f} Elo against random", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("opponent", choices=("random", "mcts", "ceiling"))
    parser.add_argument("--game", action="append", help="an OpenSpiel game's short name (repeatable)")
    parser.add_argument("--simulations", type=int, default=None, help="a move (default 100 against "
                        "random, 200 against OpenSpiel's MCTS)")
    parser.add_argument("--max-pairs", type=int, default=200, help="against random: the sequential test's cap")
    parser.add_argument("--pairs", type=int, default=100, help="against OpenSpiel's MCTS: pairs played")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of the games played (against OpenSpiel's MCTS, default "
                        "for hex: board_size=7; hands=N plays matches of N hands)")
    args = parser.parse_args()
    values = dict(item.split("=", 1) for item in args.option) or None
    if args.opponent == "ceiling":
        for name in args.game or ("kuhn_poker", "leduc_poker"):
            ceiling(name, int((values or {}).get("hands", 1)))
    elif args.opponent == "random":
        for name in args.game or CHOSEN:
            against_random(name, args.simulations or 100, args.max_pairs, values)
    else:
        for name in args.game or ("connect_four", "hex"):
            against_mcts(name, args.simulations or 200, args.pairs, values)
    return 0


if __name__ == "__main__":
    sys.exit(main())
