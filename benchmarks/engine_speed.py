"""How fast is the Block engine through the game interface, next to a bare loop with no interface?

    python benchmarks/engine_speed.py [--seconds N]

Both sides play the same thing: one 2-player Block deal per seed (the same dealt hands, drawn from
``random.Random(seed)`` exactly as the engine draws them), with the same seeded random policy, so
they make the same decisions. The *interface* side goes through ``Game.new_match`` /
``legal_actions`` / ``apply`` (events, action strings and all); the *plain* side is a loop over
tuples and lists with the rules written inline. The two are timed in alternation, several rounds
each, and the best round of each is compared. A decision is one choice among the legal actions
(forced passes are not decisions on either side).

The target is interface / plain >= 0.5: the interface may cost at most as much as the game itself.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.games import get_game  # noqa: E402
from arena.games.block.tiles import TILES  # noqa: E402

GAME = get_game("block")
OPTIONS = GAME.make_options(2, {"single_deal": True})
MATCH_OPTIONS = GAME.make_options(2)


def interface_deal(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    """One deal through the interface; returns (decisions, scores)."""
    state = GAME.new_match(OPTIONS, seed)
    decisions = 0
    choice = policy.choice
    while not state.is_terminal():
        state.apply(choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


def interface_match(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    """A whole 2-player match with the default options (to 100 points), for information."""
    state = GAME.new_match(MATCH_OPTIONS, seed)
    decisions = 0
    while not state.is_terminal():
        state.apply(policy.choice(state.legal_actions()))
        decisions += 1
    return decisions, state.scores()


def plain_deal(seed: int, policy: random.Random) -> tuple[int, tuple[int, ...]]:
    """The same deal with no interface: tuples, lists and inline rules; returns (decisions, scores)."""
    rng = random.Random(seed)
    seat = rng.randrange(2)  # the lottery, drawn before the shuffle as the engine does
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = [sorted(tiles[:7]), sorted(tiles[7:14])]
    choice = policy.choice
    # the lead: any tile
    hand = hands[seat]
    a, b = tile = choice(hand)
    hand.remove(tile)
    left, right = a, b
    decisions = 1
    winner = None
    while True:
        seat ^= 1
        moves = [(t, s) for t in hands[seat] for s, end in ((0, left), (1, right)) if end in t]
        if not moves:
            seat ^= 1
            moves = [(t, s) for t in hands[seat] for s, end in ((0, left), (1, right)) if end in t]
            if not moves:
                break  # blocked
        tile, side = choice(moves)
        decisions += 1
        hands[seat].remove(tile)
        a, b = tile
        if side == 0:
            left = b if a == left else a
        else:
            right = b if a == right else a
        if not hands[seat]:
            winner = seat
            break
    remaining = [sum(a + b for a, b in h) for h in hands]
    points = [0, 0]
    if winner is not None:
        points[winner] = remaining[1 - winner]
    elif remaining[0] != remaining[1]:
        w = 0 if remaining[0] < remaining[1] else 1
        points[w] = remaining[1 - w] - remaining[w]
    return decisions, tuple(points)


def run(play, seeds: range) -> tuple[float, int, list]:
    """Play one deal per seed; returns (seconds, decisions, per-seed outcomes)."""
    policy = random.Random(12345)
    outcomes = []
    start = time.perf_counter()
    for seed in seeds:
        outcomes.append(play(seed, policy))
    elapsed = time.perf_counter() - start
    return elapsed, sum(d for d, _ in outcomes), outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0,
                        help="rough total time to spend measuring (default 6)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side, alternated (default 5)")
    args = parser.parse_args(argv)

    # Calibrate: how many deals fit in one round of each side.
    probe = range(200)
    t_probe, _, out_i = run(interface_deal, probe)
    t_plain, _, out_p = run(plain_deal, probe)
    if out_i != out_p:
        print("error: the plain loop and the interface disagree on the same seeds", file=sys.stderr)
        return 1
    per_deal = (t_probe + t_plain) / len(probe)
    deals = max(200, int(args.seconds / (2 * args.rounds) / per_deal * 2))

    rates: dict[str, list[float]] = {"interface": [], "plain": []}
    for r in range(args.rounds):
        seeds = range(r * deals, (r + 1) * deals)
        order = [("interface", interface_deal), ("plain", plain_deal)]
        if r % 2:
            order.reverse()
        results = {}
        for name, play in order:
            elapsed, decisions, outcomes = run(play, seeds)
            rates[name].append(decisions / elapsed)
            results[name] = outcomes
        if results["interface"] != results["plain"]:
            print("error: the plain loop and the interface disagree on the same seeds", file=sys.stderr)
            return 1

    best = {k: max(v) for k, v in rates.items()}
    median = {k: statistics.median(v) for k, v in rates.items()}
    print(f"Block, 2 players, one deal per seed, {deals} deals x {args.rounds} rounds per side")
    for name in ("interface", "plain"):
        print(f"  {name:9s}  best {best[name]:>10,.0f} decisions/s   median {median[name]:>10,.0f} decisions/s")
    ratio_best = best["interface"] / best["plain"]
    ratio_median = median["interface"] / median["plain"]
    print(f"  ratio interface/plain: best {ratio_best:.2f}, median {ratio_median:.2f} (target >= 0.5)")
    elapsed, decisions, _ = run(interface_match, range(max(20, deals // 8)))
    print(f"  (whole matches to 100 through the interface: {decisions / elapsed:,.0f} decisions/s)")
    return 0 if ratio_best >= 0.5 else 2


if __name__ == "__main__":
    sys.exit(main())
