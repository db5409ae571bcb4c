"""How fast are OpenSpiel's games through arena's game interface, next to OpenSpiel's own loop?

    python benchmarks/openspiel_speed.py [--game NAME ...] [--seconds N] [--rounds N]

Needs the extra ``arena[openspiel]``. For each game (default: connect_four and leduc_poker) both
sides play the same random matches: arena's side through ``Game.new_match`` / ``legal_actions`` /
``apply`` (action strings, chance from the named streams, events with OpenSpiel's text of the
state and, where information is hidden, which seats may know each step); OpenSpiel's side a bare
loop over ``pyspiel`` (``legal_actions``, ``apply_action``, the same chance outcomes drawn the same
way, nothing else), and that loop again with what a referee that logs the match needs (every
legal action's string and the state's text after each step). The same seeded random policy
picks the same index of the same legal list, so all reach the same returns (checked). Decisions
per second of each side, alternating, several rounds; the best round of each is compared.
Target: arena / OpenSpiel's bare loop >= 0.5. Exit code 2 if a game misses it, 1 if the sides
disagree.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.game import Chance
from arena.games import get_game
from arena.games.openspiel.state import draw

TARGET = 0.5
GAMES = ("connect_four", "leduc_poker")


def arena_play(game, options, seed: int, policy: random.Random) -> tuple[int, list[float]]:
    state = game.new_match(options, seed)
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[policy.randrange(len(legal))])
        decisions += 1
    return decisions, state.events[-1]["returns"]


def openspiel_play(spiel_game, seed: int, policy: random.Random, texts: bool = False) -> tuple[int, list[float]]:
    chance = Chance(seed)
    log = []
    state = spiel_game.new_initial_state()
    decisions = k = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(draw(state.chance_outcomes(), chance.stream("chance", k).random()))
            k += 1
            continue
        legal = state.legal_actions()
        if texts:  # what a referee that logs the match needs: the action strings and the state's text
            player = state.current_player()
            named = [state.action_to_string(player, a) for a in legal]
            state.apply_action(legal[policy.randrange(len(legal))])
            log.append((named, str(state)))
        else:
            state.apply_action(legal[policy.randrange(len(legal))])
        decisions += 1
    return decisions, [float(r) for r in state.returns()]


def run(play, seeds: range) -> tuple[float, int, list]:
    policy = random.Random(12345)
    start = time.perf_counter()
    outcomes = [play(seed, policy) for seed in seeds]
    return time.perf_counter() - start, sum(d for d, _ in outcomes), outcomes


def measure(name: str, seconds: float, rounds: int) -> float | None:
    game = get_game("openspiel:" + name)
    options = game.make_options(game.default_players)
    spiel_game = game.spiel_game(options, Chance(0))
    sides = {"arena": lambda seed, p: arena_play(game, options, seed, p),
             "openspiel": lambda seed, p: openspiel_play(spiel_game, seed, p),
             "+texts": lambda seed, p: openspiel_play(spiel_game, seed, p, texts=True)}
    probe = range(50)
    t_a, _, out_a = run(sides["arena"], probe)
    t_o, _, out_o = run(sides["openspiel"], probe)
    if out_a != out_o:
        print(f"error: {name}: arena and OpenSpiel's loop disagree", file=sys.stderr)
        return None
    count = max(50, int(seconds / (2 * rounds) / ((t_a + t_o) / len(probe)) * 2))
    rates: dict[str, list[float]] = {side: [] for side in sides}
    for r in range(rounds):
        seeds = range(r * count, (r + 1) * count)
        order = list(sides.items())
        if r % 2:
            order.reverse()
        results = {}
        for side, play in order:
            elapsed, decisions, outcomes = run(play, seeds)
            rates[side].append(decisions / elapsed)
            results[side] = outcomes
        if not results["arena"] == results["openspiel"] == results["+texts"]:
            print(f"error: {name}: arena and OpenSpiel's loop disagree", file=sys.stderr)
            return None
    best = {k: max(v) for k, v in rates.items()}
    print(f"openspiel:{name}, {count} matches per round x {rounds} rounds per side")
    for side, label in (("arena", "arena"), ("openspiel", "OpenSpiel's loop"),
                        ("+texts", "OpenSpiel's loop with the action strings and the state's text")):
        print(f"  {best[side]:>10,.0f} decisions/s  {label}")
    ratio = best["arena"] / best["openspiel"]
    print(f"  ratio arena / OpenSpiel's loop: {ratio:.2f} (target >= {TARGET}); "
          f"arena / OpenSpiel's loop with the texts: {best['arena'] / best['+texts']:.2f}")
    return ratio


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="an OpenSpiel game's short name (repeatable; "
                        f"default {', '.join(GAMES)})")
    parser.add_argument("--seconds", type=float, default=20.0, help="about how long each game takes")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    worst = 0
    for name in args.game or GAMES:
        ratio = measure(name, args.seconds, args.rounds)
        if ratio is None:
            worst = max(worst, 1)
        elif ratio < TARGET:
            worst = 2
    return worst


if __name__ == "__main__":
    sys.exit(main())
