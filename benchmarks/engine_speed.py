"""How fast is each game's engine through the game interface, next to a bare loop with no interface?

    python benchmarks/engine_speed.py [--game NAME] [--seconds N] [--rounds N]

Each game has a module in ``benchmarks/speed/`` (``LABEL``, ``interface_play(seed, policy)`` and
``plain_play(seed, policy)``): both sides play the same thing from the same chance streams with
the same seeded random policy, so they make the same decisions and reach the same outcome. The
*interface* side goes through ``Game.new_match`` / ``legal_actions`` / ``apply`` (events, action
strings and all); the *plain* side is a loop over tuples and lists with the rules written inline.
The two are timed in alternation, several rounds each, and the best round of each is compared.

The target is interface / plain >= 0.5 for every game: the interface may cost at most as much as
the game itself. The exit code is 2 if a game misses it, 1 if the two sides disagree.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path

SPEED = Path(__file__).resolve().parent / "speed"
sys.path.insert(0, str(SPEED.parent.parent))
TARGET = 0.5


def modules() -> dict[str, object]:
    """Every game's speed module, by game name (``domino_cribbage.py`` -> ``domino-cribbage``)."""
    sys.path.insert(0, str(SPEED))
    return {p.stem.replace("_", "-"): importlib.import_module(p.stem)
            for p in sorted(SPEED.glob("*.py"))}


def run(play, seeds: range) -> tuple[float, int, list]:
    """Play one match per seed; returns (seconds, decisions, per-seed outcomes)."""
    policy = random.Random(12345)
    outcomes = []
    start = time.perf_counter()
    for seed in seeds:
        outcomes.append(play(seed, policy))
    elapsed = time.perf_counter() - start
    return elapsed, sum(d for d, _ in outcomes), outcomes


def measure(module, seconds: float, rounds: int) -> float | None:
    """Print one game's figures; return the best ratio, or None if the two sides disagree."""
    probe = range(100)
    t_i, _, out_i = run(module.interface_play, probe)
    t_p, _, out_p = run(module.plain_play, probe)
    if out_i != out_p:
        print(f"error: {module.LABEL}: the plain loop and the interface disagree", file=sys.stderr)
        return None
    per_play = (t_i + t_p) / len(probe)
    count = max(100, int(seconds / (2 * rounds) / per_play * 2))
    rates: dict[str, list[float]] = {"interface": [], "plain": []}
    for r in range(rounds):
        seeds = range(r * count, (r + 1) * count)
        order = [("interface", module.interface_play), ("plain", module.plain_play)]
        if r % 2:
            order.reverse()
        results = {}
        for name, play in order:
            elapsed, decisions, outcomes = run(play, seeds)
            rates[name].append(decisions / elapsed)
            results[name] = outcomes
        if results["interface"] != results["plain"]:
            print(f"error: {module.LABEL}: the plain loop and the interface disagree",
                  file=sys.stderr)
            return None
    best = {k: max(v) for k, v in rates.items()}
    median = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{module.LABEL}, {count} per round x {rounds} rounds per side")
    for name in ("interface", "plain"):
        print(f"  {name:9s}  best {best[name]:>10,.0f} decisions/s   "
              f"median {median[name]:>10,.0f} decisions/s")
    ratio = best["interface"] / best["plain"]
    print(f"  ratio interface/plain: best {ratio:.2f}, "
          f"median {median['interface'] / median['plain']:.2f} (target >= {TARGET})")
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="only this game (default: every game)")
    parser.add_argument("--seconds", type=float, default=6.0,
                        help="rough time to spend measuring each game (default 6)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per side, alternated (default 6)")
    args = parser.parse_args(argv)
    found = modules()
    if args.game and args.game not in found:
        parser.error(f"no speed module for {args.game!r}; there are: {', '.join(found)}")
    code = 0
    for name, module in found.items():
        if args.game and name != args.game:
            continue
        ratio = measure(module, args.seconds, args.rounds)
        if ratio is None:
            code = 1
        elif ratio < TARGET and code == 0:
            code = 2
    return code


if __name__ == "__main__":
    sys.exit(main())
