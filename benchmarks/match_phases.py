"""Where a match's fixed CPU goes in a tournament worker: the referee's phases, one by one.

    python benchmarks/match_phases.py [--game NAME] [--matches 120] [--cap 1] [--rounds 3]

Plays matches of a game (``--game``, default Block) between two random bots, capped at ``--cap``
deals or rounds (``Game.capped_options``; 1 by default, for Block ``max_deals = 1``; 0: full
matches with the default options) as a pinned tournament worker plays them: ``play_job`` on one
core, the next match's bots started ahead by the warm-start thread, the record packed as it travels
to the parent. Each phase of the referee's main thread is timed by that thread's own CPU clock
(exact, unlike the process clock): making the options, dealing, taking the bots started ahead, the
handshake, the decisions, finishing (goodbye, killing the bots, their cgroups and uids) and packing
the record. The warm-start thread is the referee process's CPU beyond the main thread's: the
referee's side of starting bots (uid, cgroups, the fork server's request). Everything else (the
fork servers' clones, the bots, what the kernel charges to them) is the rest of the CPU counted in
a CPU-accounting cgroup (``benchmarks/cpu_meter.py``). Read the phases against each other and
against the total of the same round. No target here: it maps the fixed cost ``S`` that
``match_fixed_cost.py`` measures from the outside.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena import referee  # noqa: E402
from arena.bots import load_bot  # noqa: E402
from arena.games import DEFAULT_GAME, GAMES, get_game  # noqa: E402
from arena.record import MatchRecord  # noqa: E402
from arena.sandbox import launch, zygote  # noqa: E402
from benchmarks.cpu_meter import CpuMeter  # noqa: E402
from benchmarks.match_fixed_cost import capped_values  # noqa: E402
from tournaments import cores  # noqa: E402
from tournaments.backends import MatchJob, play_job  # noqa: E402
from tournaments.warm import WarmStarts  # noqa: E402

spent: collections.Counter[str] = collections.Counter()


def timed(owner: object, name: str, label: str) -> None:
    """Replace ``owner.name`` by a wrapper that adds its thread CPU to ``spent[label]`` when
    called on the main thread (the warm-start thread calls some of the same functions)."""
    function = getattr(owner, name)

    def wrapper(*args, **kwargs):
        if not is_main():
            return function(*args, **kwargs)
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.thread_time() - started
    setattr(owner, name, wrapper)


def is_main() -> bool:
    return threading.current_thread() is threading.main_thread()


PHASES = [  # (owner, attribute, label), in the order a match runs them; the game's come first
    (referee, "_start", "take the bots started ahead"),
    (referee, "_handshake", "handshake"),
    (referee, "_ask", "asking the bots (the engine apart)"),
    (referee, "_finish", "finish: goodbye and kill"),
    (launch.BotProcess, "kill", "  of which killing the bots"),
    (MatchRecord, "pack", "pack the record"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--cap", type=int, default=1,
                        help="deals or rounds a match is capped at (default 1; 0: no cap)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    game = get_game(args.game)
    PHASES[:0] = [(type(game), "make_options", "options"), (type(game), "new_match", "deal")]
    for owner, name, label in PHASES:
        timed(owner, name, label)
    bot = load_bot(ROOT / "bots" / "random")
    options = capped_values(game, 2, args.cap) if args.cap else {}
    if cores.pin(1) is None:
        print("warning: no core of its own could be claimed: the bots run where the system puts them")
    warm = WarmStarts()
    with CpuMeter() as meter:
        play_job(MatchJob(0, game.name, options, (bot, bot), seed=10**6))  # imports, sandbox probe
        for r in range(args.rounds):
            spent.clear()
            jobs = [MatchJob(i, game.name, options, (bot, bot), seed=r * args.matches + i)
                    for i in range(args.matches)]
            decisions = 0
            cpu0, process0, main0 = meter.usage_ns(), time.process_time(), time.thread_time()
            for job, next_job in zip(jobs, [*jobs[1:], None]):
                finished = play_job(job, warm, next_job)
                finished.packed()
                decisions += len(finished.record.decisions)
            total = (meter.usage_ns() - cpu0) / 1e6 / args.matches
            process = (time.process_time() - process0) * 1e3 / args.matches
            main_thread = (time.thread_time() - main0) * 1e3 / args.matches
            print(f"\nround {r + 1}: {args.matches} {game.name} matches, "
                  f"{decisions / args.matches:.1f} decisions each; CPU a match, in ms")
            print(f"  {'everything (cgroup)':42} {total:7.3f}")
            print(f"  {'the referee process':42} {process:7.3f}")
            print(f"  {'  its main thread':42} {main_thread:7.3f}")
            for _, _, label in PHASES:
                print(f"  {'    ' + label:42} {spent[label] * 1e3 / args.matches:7.3f}")
            print(f"  {'  the warm-start thread (and others)':42} {process - main_thread:7.3f}")
            print(f"  {'fork servers, bots, kernel':42} {total - process:7.3f}")
    warm.discard()
    zygote.close_all()
    print(f"\non core {sorted(os.sched_getaffinity(0))}; CPU counted in {meter.kind}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
