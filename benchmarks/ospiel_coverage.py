"""Where does the ospiel bot (bots/ospiel) search, and where does it fall back to a random move?

    python benchmarks/ospiel_coverage.py [--game NAME ...] [--time-control MOVE_MS+BANK_MS]
                                         [--moves N] [--seed N]

Needs the extra ``arena[openspiel]``. For each OpenSpiel game arena plays (default: all of them),
one match through the real referee and sandbox: the bot in seat 0, the bundled random bot in every
other seat, at the demo's clock (150 ms a move, a 1 s bank) unless told otherwise, capped at
``--moves`` moves. Per game: how the bot's match ended (``ok``, or its failure), its decisions,
and how many of them were searched (their note names the simulations) rather than played at
random because no world consistent with what the seat knows was sampled in time. The summary
lists the games with a failure and those with decisions played at random.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.bots import load_bot  # noqa: E402
from arena.games import get_game, openspiel  # noqa: E402
from arena.referee import TimeControl, play_match  # noqa: E402


def coverage(name: str, tc: TimeControl, moves: int, seed: int) -> tuple[str, int, int]:
    """The bot's status in one match of ``openspiel:name``, its decisions, and those searched."""
    game = get_game("openspiel:" + name)
    n = game.default_players
    bots = [load_bot(ROOT / "bots" / "ospiel")] + [load_bot(ROOT / "bots" / "random")] * (n - 1)
    options = game.make_options(n, {"move_cap": moves})
    record = play_match(game, bots, options=options, seed=seed, time_control=tc)
    status = record.statuses[0]
    mine = [d for d in record.decisions if d["seat"] == 0]
    searched = sum("simulations" in d.get("note", "") for d in mine)
    return (status.status if status.status == "ok" else f"{status.status}: {status.reason}"), len(mine), searched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="an OpenSpiel game's short name (repeatable; default: all)")
    parser.add_argument("--time-control", default="150+1000", metavar="MOVE_MS+BANK_MS",
                        help="the bots' clock in milliseconds (default 150+1000, the demo's)")
    parser.add_argument("--moves", type=int, default=40, help="the cap on a match's moves (default 40)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    move_ms, bank_ms = (int(x) for x in args.time_control.split("+"))
    tc = TimeControl(move_ms, bank_ms)
    failed, random_moves = [], []
    for name in args.game or openspiel.accepted():
        started = time.monotonic()
        status, decisions, searched = coverage(name, tc, args.moves, args.seed)
        print(f"{name}: {status}; {searched} of {decisions} decisions searched "
              f"({time.monotonic() - started:.1f} s)", flush=True)
        if status != "ok":
            failed.append(name)
        if searched < decisions:
            random_moves.append(f"{name} ({decisions - searched} of {decisions})")
    print(f"\nfailures: {', '.join(failed) or 'none'}")
    print(f"decisions played at random (no world sampled): {', '.join(random_moves) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
