"""How many bytes does each ``act`` message carry, over whole matches, per game?

    python benchmarks/act_size.py [--game NAME] [--matches N]

Plays whole matches of every game at its default player count (and Block also to 500 points),
with a seeded random policy, through the interface, and packs each decision's ``act`` message
exactly as the referee sends it (SPEC.md §5): the observation, the legal actions and the clock.
Prints the mean and the largest message per game. An observation carries the current deal's (or
turn's) history and what the rules carry between deals, never the whole match, so the largest
``act`` of a long match stays close to that of a short one.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.games import GAMES
from protocol.wire import encode


def act_sizes(game, options, seed: int) -> list[int]:
    """The size in bytes of every ``act`` frame of one random match."""
    policy = random.Random(seed)
    state = game.new_match(options, seed)
    sizes = []
    decision = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        message = {"type": "act", "decision": decision, "observation": state.observation(seat),
                   "legal": legal, "clock": {"move_ms": 1000, "bank_ms": 10000}}
        sizes.append(len(encode(message)))
        state.apply(policy.choice(legal))
        decision += 1
    return sizes


def cases() -> list[tuple[str, str, dict]]:
    out = [(name, f"{name}, {g.default_players} players, default options", {})
           for name, g in GAMES.items()]
    out.append(("block", "block, 2 players, to 500", {"target": 500}))
    out.append(("block", "block, 2 players, one deal", {"single_deal": True}))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--matches", type=int, default=20, help="matches per line (default 20)")
    args = parser.parse_args(argv)
    for name, label, values in cases():
        if args.game and name != args.game:
            continue
        game = GAMES[name]
        options = game.make_options(game.default_players, values)
        sizes = [s for seed in range(args.matches) for s in act_sizes(game, options, seed)]
        print(f"{label}: {len(sizes) / args.matches:,.0f} decisions a match; bytes per act: "
              f"mean {statistics.mean(sizes):,.0f}, largest {max(sizes):,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
