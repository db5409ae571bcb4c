"""Tournament throughput: matches per second with 1 and with N workers, and bot start-up share.

    python benchmarks/tournament_throughput.py [--game NAME] [--workers N] [--entrants K]
                                               [--rounds R] [--repeats R] [--cores-per-match C]

Plays the same round-robin of random bots of a game (``--game``, default Block; the bundled
``bots/random``, entered K times under different names; full 2-player matches with the default
options and time control) twice,
through ``run_tournament`` exactly as ``arena tournament run`` does (worker processes, each on a
core of its own by default, SQLite store): with 1 worker and with N (default: one per core),
alternately, several times; on a shared machine the best run of each kind is the least disturbed
one. It prints

- matches per second of each run (wall time of the whole run: worker start-up, playing, storing);
- parallel efficiency = rate(N) / (N × rate(1));
- how many cores the whole machine kept busy during each run (the parent process that stores
  the results and the kernel's clean-up of finished sandboxes run beside the workers; others'
  load shows here too);
- the start-up share: the time from asking for a match until its first game event (starting the
  bots in their sandbox and the handshake), summed over matches, over the summed wall time of the
  matches — as the workers measured them (the store keeps both per match). This is the time a
  match waits for its bots. A worker that starts the next match's bots ahead on its own core
  (the default) spends their start-up CPU during the match before, whose wall time includes it.

Last, the same matches are played by bare ``play_job`` loops in 1 and N processes, pinned and
starting ahead as workers are (no backend, no store, no parent): the efficiency the machine itself
allows, to tell arena's overhead from the machine's limits.

Targets on the 2-core reference machine: efficiency >= 0.85; start-up share <= 25%.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.bots import load_bot
from arena.games import DEFAULT_GAME, GAMES, get_game
from tournaments import cores
from tournaments.backends import MatchJob, default_workers, play_job
from tournaments.config import parse_config
from tournaments.run import prepare, run_tournament
from tournaments.store import Store
from tournaments.warm import WarmStarts

ROOT = Path(__file__).resolve().parent.parent
EFFICIENCY_TARGET = 0.85
STARTUP_SHARE_TARGET = 0.25


@dataclass(order=True)
class Figures:
    rate: float         # matches per second over the whole run (worker start-up included)
    steady: float       # matches per second from the first finished match to the last
    matches: int
    startup_share: float
    match_ms: float     # mean wall time of a match in its worker
    cores_busy: float   # the whole machine's CPU use during the run, in cores (others' load too)


def machine_cpu() -> tuple[int, int] | None:
    """(busy, total) jiffies of the whole machine, from /proc/stat (Linux)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        return None
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def run_once(game: str, workers: int, entrants: int, rounds: int, folder: Path, bot: Path,
             cores_per_match: int = 1) -> Figures:
    """Play one tournament of ``game`` with ``workers`` workers and measure it."""
    config = parse_config({
        "name": f"throughput-{workers}", "game": game, "seed": 1,
        "cores_per_match": cores_per_match,
        "entrants": [{"path": str(bot), "name": f"random-{i}"} for i in range(entrants)],
        "format": {"type": "round-robin", "players": 2, "rounds": rounds},
    }, base_dir=folder, source="benchmark")
    prepared = prepare(config, folder / f"workers-{workers}")
    cpu_before = machine_cpu()
    started = time.perf_counter()
    result = run_tournament(prepared, workers=workers, progress=False)
    elapsed = time.perf_counter() - started
    cpu_after = machine_cpu()
    busy = ((cpu_after[0] - cpu_before[0]) / (cpu_after[1] - cpu_before[1]) * (os.cpu_count() or 1)
            if cpu_before and cpu_after else float("nan"))
    with Store.open(result.store) as store:
        matches = store.matches.all()
    startup = sum(m.startup_ms for m in matches)
    wall = sum(m.wall_ms for m in matches)
    times = sorted(datetime.fromisoformat(m.finished_at).timestamp() for m in matches)
    steady = (len(times) - 1) / (times[-1] - times[0])
    return Figures(result.played / elapsed, steady, result.played, startup / wall,
                   wall / len(matches), busy)


def _bare_loop(game: str, bot: str, matches: int, cores_per_match: int, queue: Any) -> None:
    """``play_job`` in a loop, in a process of its own: no backend, no store, no parent; pinned
    and starting ahead like a worker (with ``cores_per_match``), or neither."""
    warm = WarmStarts() if cores.pin(cores_per_match) is not None else None
    spec = load_bot(bot)
    jobs = [MatchJob(seed, game, {}, (spec, spec), seed=seed) for seed in range(matches)]
    play_job(MatchJob(0, game, {}, (spec, spec), seed=10**6))  # imports, sandbox probe
    queue.put("ready")
    started = time.perf_counter()
    for job, next_job in zip(jobs, [*jobs[1:], None]):
        play_job(job, warm, next_job)
    queue.put(time.perf_counter() - started)
    if warm is not None:
        warm.discard()


def bare_rate(game: str, processes: int, matches: int, bot: Path, cores_per_match: int) -> float:
    """Matches per second of ``processes`` bare loops at once: what the machine itself allows."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_bare_loop, args=(game, str(bot), matches, cores_per_match, queue))
             for _ in range(processes)]
    for p in procs:
        p.start()
    times = [m for m in (queue.get() for _ in range(2 * processes)) if m != "ready"]
    for p in procs:
        p.join()
    return processes * matches / max(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                        help=f"the game played (default {DEFAULT_GAME})")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="N, the parallel run's workers (default: one per core)")
    parser.add_argument("--entrants", type=int, default=6, help="random bots entered (default 6)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of the round-robin (default 4)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each kind, in alternation; the best of each counts (default 3)")
    parser.add_argument("--bare", type=int, default=24,
                        help="matches per bare play_job loop for the machine's ceiling (0: skip)")
    parser.add_argument("--cores-per-match", type=int, default=1,
                        help="cores of its own per worker; 0: no pinning (default 1)")
    parser.add_argument("--bot", type=Path, default=ROOT / "bots" / "random",
                        help="the bot folder entered K times (default: bots/random)")
    args = parser.parse_args()
    game = get_game(args.game)
    serial: list[Figures] = []
    parallel: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        run_once(game.name, 1, 2, 1, folder / "warm-up", args.bot)  # sandbox probe, page cache
        for i in range(args.repeats):
            serial.append(run_once(game.name, 1, args.entrants, args.rounds, folder / f"s{i}",
                                   args.bot, args.cores_per_match))
            parallel.append(run_once(game.name, args.workers, args.entrants, args.rounds,
                                     folder / f"p{i}", args.bot, args.cores_per_match))
        bare = [(bare_rate(game.name, 1, args.bare, args.bot, args.cores_per_match),
                 bare_rate(game.name, args.workers, args.bare, args.bot, args.cores_per_match))
                for _ in range(args.repeats)] if args.bare else []
    one, many = max(serial), max(parallel)
    n = args.workers
    efficiency = many.rate / (n * one.rate)
    steady_efficiency = max(p.steady for p in parallel) / (n * max(s.steady for s in serial))
    share = max(one.startup_share, many.startup_share)
    print(f"round-robin of {args.entrants} random {game.name} bots, {args.rounds} rounds: "
          f"{one.matches} full 2-player matches per run; best of {args.repeats} runs each, in "
          "alternation")
    print("all runs (matches/s): 1 worker " + ", ".join(f"{r.rate:.2f}" for r in serial)
          + f"; {n} workers " + ", ".join(f"{r.rate:.2f}" for r in parallel))
    for label, f in (("1 worker: ", one), (f"{n} workers:", many)):
        print(f"{label} {f.rate:6.2f} matches/s (steady {f.steady:5.2f}/s)   mean match "
              f"{f.match_ms:6.1f} ms   start-up share {f.startup_share:.0%}   "
              f"machine CPU busy {f.cores_busy:.2f} of {os.cpu_count()} cores")
    print(f"steady-state efficiency (first to last match) = {steady_efficiency:.2f}")
    if bare:
        b1, bn = max(b[0] for b in bare), max(b[1] for b in bare)
        print(f"ceiling: bare play_job loops, no backend or store: 1 process {b1:.2f}/s, {n} "
              f"processes {bn:.2f}/s, efficiency {bn / (n * b1):.2f}")
    ok_eff = efficiency >= EFFICIENCY_TARGET
    ok_share = share <= STARTUP_SHARE_TARGET
    print(f"parallel efficiency rate({n}) / ({n} x rate(1)) = "
          f"{efficiency:.2f}   target >= {EFFICIENCY_TARGET}: {'met' if ok_eff else 'MISSED'}")
    print(f"start-up share of match wall time = {share:.0%}   target <= "
          f"{STARTUP_SHARE_TARGET:.0%}: {'met' if ok_share else 'MISSED'}")
    return 0 if ok_eff and ok_share else 1


if __name__ == "__main__":
    sys.exit(main())
